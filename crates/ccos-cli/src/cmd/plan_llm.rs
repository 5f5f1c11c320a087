//! `ccos plan "GOAL" --mode rtfs|ir|auto` and `ccos plan "GOAL" --compare`:
//! plan generation by the configured LLM (see `ccos_planner::llm::modes`).
//!
//! Every model exchange goes through a [`ccos_llm::Recorder`] (secrets
//! redacted) and is appended to the causal chain as an `llm_exchange`
//! entry of the goal's root intent; the validated plan is archived with
//! generation mode `llm-rtfs` / `llm-ir`, and an `llm_plan` entry records
//! the attempts (mode, round, prompt, findings). `--compare` runs both
//! modes and stores their diff in the intent's metadata (`plan_compare`).
//!
//! Exit codes: 0 a plan, 2 no LLM configured, 4 requires an agent (the
//! model kept naming capabilities that do not exist), 1 no valid plan.
//!
//! Without `--mode`, [`with_llm_decomposition`] adds the LLM
//! decompositions (grounded, then intent-first) to the deterministic
//! planner's hybrid decomposition when an LLM is configured.

use std::sync::Arc;

use ccos_llm::Recorder;
use ccos_planner::llm::canon::{self, PlanDiff};
use ccos_planner::llm::decompose::{GroundedLlmDecomposition, IntentFirstDecomposition};
use ccos_planner::llm::modes::{LlmPlanError, LlmPlanOutcome, LlmPlanner, Mode};
use ccos_planner::{HybridDecomposition, PatternDecomposition, Planner};
use ccos_store::{NewEntry, NewIntent, NewPlan, Store};
use serde_json::{Value, json};

use crate::cmd::plan::PlanArgs;
use crate::cmd::run::ExecArgs;
use crate::config::Config;
use crate::exit::{CliError, Exit};
use crate::home::Home;

/// What one mode produced, as recorded.
type Planned = Result<LlmPlanOutcome, LlmPlanError>;

/// Runs `ccos plan` with `--mode` or `--compare`.
pub fn run(args: &PlanArgs, home: &Home) -> Result<(), CliError> {
    let config = Config::load(home)?;
    let provider = crate::llm::require_provider(&config)?;
    let (policy, mp, store) = crate::cmd::plan::open_for_planning(args, home, &config)?;
    let recorder = Arc::new(crate::llm::recorder(&config, provider));
    let planner = LlmPlanner::new(recorder.clone(), mp, policy);
    let goal = args.goal.trim().to_string();
    let mode_label = if args.compare {
        "compare".to_string()
    } else {
        args.mode.map_or("auto", Mode::as_str).to_string()
    };
    let intent_id = crate::rt::block_on(create_intent(&store, &goal, &mode_label))??;
    if args.compare {
        return compare(args, &planner, &recorder, &store, &intent_id);
    }
    let mode = args.mode.unwrap_or(Mode::Auto);
    let planned = planner.plan(&goal, mode);
    let plan_id = crate::rt::block_on(record(&store, &intent_id, &planned, &recorder, true))??;
    if args.json {
        let mut j = outcome_json(&planned);
        if let Some(o) = j.as_object_mut() {
            o.insert("intent_id".into(), json!(intent_id));
            o.insert("plan_id".into(), json!(plan_id));
        }
        crate::cmd::print_json(&j)?;
    }
    match planned {
        Ok(o) => match (&o.rtfs, &o.requires_agent) {
            (Some(rtfs), _) => {
                eprintln!(
                    ";; {} plan ({} model call(s), intent {intent_id})",
                    o.generation_mode(),
                    o.model_calls
                );
                if !args.json {
                    println!("{rtfs}");
                }
                Ok(())
            }
            _ => {
                if !args.json {
                    println!("{}", requires_agent_report(&o));
                }
                Err(CliError::silent(Exit::RequiresAgent))
            }
        },
        Err(e) if args.json => Err(CliError::msg(format!("no plan: {}", e.message))),
        Err(e) => Err(CliError::msg(e.message)),
    }
}

/// The requires-agent report of an LLM plan, as text.
pub fn requires_agent_report(o: &LlmPlanOutcome) -> String {
    let mut out = format!(
        "requires-agent: the model's plans for {:?} need capabilities that do not exist\n",
        o.goal
    );
    if let Some(ra) = &o.requires_agent {
        for m in &ra.missing {
            let s = ra.suggestions.get(m).cloned().unwrap_or_default();
            if s.is_empty() {
                out.push_str(&format!("  - {m}: not found\n"));
            } else {
                out.push_str(&format!("  - {m}: not found; closest: {}\n", s.join(", ")));
            }
        }
    }
    out.push_str(&format!(
        "(no plan was produced after {} model call(s); an agent, an MCP server or new capabilities are needed)",
        o.model_calls
    ));
    out
}

fn outcome_json(p: &Planned) -> Value {
    match p {
        Ok(o) => serde_json::to_value(o).unwrap_or_else(|e| json!({"error": e.to_string()})),
        Err(e) => json!({
            "error": e.message,
            "kind": e.kind,
            "attempts": e.attempts,
            "model_calls": e.model_calls,
        }),
    }
}

/// Runs both modes, prints (and stores) the diff of Mode B's IR against
/// the canonical IR of Mode A's plan.
fn compare(
    args: &PlanArgs,
    planner: &LlmPlanner,
    recorder: &Recorder,
    store: &Store,
    intent_id: &str,
) -> Result<(), CliError> {
    let goal = args.goal.trim();
    let a = planner.plan(goal, Mode::Rtfs);
    let a_plan = crate::rt::block_on(record(store, intent_id, &a, recorder, true))??;
    let b = planner.plan(goal, Mode::Ir);
    let b_plan = crate::rt::block_on(record(store, intent_id, &b, recorder, true))??;
    let diff: Option<PlanDiff> = match (&a, &b) {
        (Ok(oa), Ok(ob)) => match (&oa.ir, ob.model_ir.as_ref().or(ob.ir.as_ref())) {
            (Some(ia), Some(ib)) => Some(canon::compare(ib, ia)),
            _ => None,
        },
        _ => None,
    };
    let record_json = json!({
        "rtfs_plan_id": a_plan,
        "ir_plan_id": b_plan,
        "equivalent": diff.as_ref().map(PlanDiff::equivalent),
        "diff": diff,
        "a": "mode B's JSON IR",
        "b": "canonical IR of mode A's RTFS plan",
    });
    crate::rt::block_on(
        store.merge_intent_metadata(intent_id, json!({"plan_compare": record_json})),
    )?
    .map_err(|e| CliError::msg(format!("storing the comparison: {e}")))?;
    if args.json {
        crate::cmd::print_json(&json!({
            "intent_id": intent_id,
            "rtfs": outcome_json(&a),
            "ir": outcome_json(&b),
            "equivalent": diff.as_ref().map(PlanDiff::equivalent),
            "diff": diff,
        }))?;
    } else {
        for (label, p) in [("mode A (rtfs)", &a), ("mode B (ir)", &b)] {
            match p {
                Ok(o) => match &o.rtfs {
                    Some(r) => println!(";; {label}: plan ({} model call(s))\n{r}", o.model_calls),
                    None => println!(";; {label}: {}", requires_agent_report(o)),
                },
                Err(e) => println!(";; {label}: no plan: {}", e.message),
            }
        }
        match &diff {
            Some(d) => print!(";; diff (A = mode B's IR, B = canonical IR of mode A's plan): {d}"),
            None => println!(";; no diff: both modes must produce a plan"),
        }
    }
    match diff {
        Some(_) => Ok(()),
        None => Err(CliError::silent(Exit::Error)),
    }
}

async fn create_intent(store: &Store, goal: &str, mode: &str) -> Result<String, CliError> {
    let id = ccos_orchestrator::new_id("intent", goal);
    let mut n = NewIntent::new(&id, goal);
    n.metadata = json!({"planner": "llm", "mode": mode});
    store
        .create_intent(n)
        .await
        .map_err(|e| CliError::msg(format!("recording the intent: {e}")))?;
    store
        .append(
            NewEntry::new("intent_created", json!({"goal": goal, "planner": "llm"})).intent(&id),
        )
        .await
        .map_err(|e| CliError::msg(format!("recording the intent: {e}")))?;
    Ok(id)
}

/// Appends the exchanges so far (`llm_exchange`), archives the plan when
/// there is one and `archive` (a run archives it itself), and appends an
/// `llm_plan` entry with the attempts.
async fn record(
    store: &Store,
    intent_id: &str,
    planned: &Planned,
    recorder: &Recorder,
    archive: bool,
) -> Result<Option<String>, CliError> {
    let err = |e: ccos_store::StoreError| CliError::msg(format!("recording the plan: {e}"));
    ccos_planner::llm::record::record_exchanges(store, Some(intent_id), &recorder.take_exchanges())
        .await
        .map_err(err)?;
    let (attempts, calls, verdict) = match planned {
        Ok(o) if o.rtfs.is_some() => (&o.attempts, o.model_calls, "plan"),
        Ok(o) => (&o.attempts, o.model_calls, "requires_agent"),
        Err(e) => (&e.attempts, e.model_calls, "no_valid_plan"),
    };
    let mut plan_id = None;
    if let Ok(o) = planned
        && let Some(rtfs) = &o.rtfs
        && archive
    {
        let id = ccos_orchestrator::new_id("plan", rtfs);
        store
            .archive_plan(NewPlan {
                id: id.clone(),
                intent_id: intent_id.to_string(),
                rtfs: rtfs.clone(),
                ir: o
                    .model_ir
                    .as_ref()
                    .or(o.ir.as_ref())
                    .and_then(|ir| serde_json::to_value(ir).ok()),
                generation_mode: o.generation_mode().to_string(),
                diagnostics: json!({"attempts": o.attempts, "warnings": o.warnings}),
                status: "draft".into(),
            })
            .await
            .map_err(err)?;
        plan_id = Some(id);
    }
    let mut entry = NewEntry::new(
        "llm_plan",
        json!({
            "verdict": verdict,
            "model_calls": calls,
            "attempts": attempts,
            "requires_agent": planned.as_ref().ok().and_then(|o| o.requires_agent.clone()),
            "error": planned.as_ref().err().map(|e| e.message.clone()),
        }),
    )
    .intent(intent_id);
    if let Some(p) = &plan_id {
        entry = entry.plan(p);
    }
    store.append(entry).await.map_err(err)?;
    Ok(plan_id)
}

/// `ccos run "GOAL" --mode MODE`: the LLM plans the goal (recorded as for
/// `ccos plan --mode`), the plan is shown on stderr and run governed
/// under the goal's intent; exit 4 when it requires an agent.
pub fn run_goal(
    goal: &str,
    mode: Mode,
    home: &Home,
    config: &Config,
    exec: &ExecArgs,
) -> Result<(), CliError> {
    let provider = crate::llm::require_provider(config)?;
    let prepared = crate::cmd::run::orchestrator(home, config, exec)?;
    let orch = &prepared.orchestrator;
    let recorder = Arc::new(crate::llm::recorder(config, provider));
    let planner = LlmPlanner::new(
        recorder.clone(),
        prepared.marketplace.clone(),
        orch.policy().clone(),
    );
    let goal = goal.trim();
    let intent_id = crate::rt::block_on(create_intent(orch.store(), goal, mode.as_str()))??;
    let planned = planner.plan(goal, mode);
    crate::rt::block_on(record(orch.store(), &intent_id, &planned, &recorder, false))??;
    let o = planned.map_err(|e| CliError::msg(e.message))?;
    let Some(rtfs) = &o.rtfs else {
        eprintln!("{}", requires_agent_report(&o));
        return Err(CliError::silent(Exit::RequiresAgent));
    };
    eprintln!(
        ";; {} plan for {goal:?} ({} model call(s), intent {intent_id})\n{rtfs}",
        o.generation_mode(),
        o.model_calls
    );
    crate::cmd::run::execute(
        &prepared,
        "<goal>",
        rtfs,
        exec.json,
        ccos_orchestrator::RunOptions {
            intent_id: Some(intent_id.clone()),
            generation_mode: o.generation_mode().to_string(),
            ..Default::default()
        },
    )
}

/// When an LLM is configured, `planner` with the hybrid decomposition
/// patterns → grounded LLM → intent-first LLM → clauses → whole goal, and
/// the recorder of its exchanges; otherwise `planner` unchanged.
pub fn with_llm_decomposition(
    home: &Home,
    planner: Planner,
    mp: Arc<ccos_marketplace::Marketplace>,
) -> Result<(Planner, Option<Arc<Recorder>>), CliError> {
    let config = Config::load(home)?;
    let Some(provider) = crate::llm::open_provider(&config)? else {
        return Ok((planner, None));
    };
    let recorder = Arc::new(crate::llm::recorder(&config, provider));
    let patterns = PatternDecomposition::load(home.root()).map_err(CliError::msg)?;
    let hybrid = HybridDecomposition::new(patterns)
        .with_extra(Box::new(GroundedLlmDecomposition::new(
            recorder.clone(),
            mp,
        )))
        .with_extra(Box::new(IntentFirstDecomposition::new(recorder.clone())));
    Ok((planner.with_decomposition(hybrid), Some(recorder)))
}

/// Appends the decomposition's LLM exchanges to the chain (under
/// `intent_id` when known: the plan's root intent is created afterwards).
pub fn record_decomposition_exchanges(
    store: &Store,
    intent_id: Option<&str>,
    recorder: Option<&Arc<Recorder>>,
) -> Result<(), CliError> {
    let Some(r) = recorder else { return Ok(()) };
    let ex = r.take_exchanges();
    if ex.is_empty() {
        return Ok(());
    }
    crate::rt::block_on(ccos_planner::llm::record::record_exchanges(
        store, intent_id, &ex,
    ))?
    .map_err(|e| CliError::msg(format!("recording the LLM exchanges: {e}")))?;
    Ok(())
}
