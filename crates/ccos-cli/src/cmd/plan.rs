//! `ccos plan "GOAL"`: plan a goal over the catalog without running it.
//!
//! Decomposes the goal (pattern rules from `$CCOS_HOME/patterns.toml`, else
//! the built-in rules; grounded whole-goal fallback), resolves each
//! sub-intent to an allowed capability, emits a preflighted RTFS plan and
//! records it (intent graph, plan archive, `planner_decision` chain entry).
//!
//! Output: the plan (canonical RTFS), the decision trace too with
//! `--explain`, or the whole result as JSON with `--json`.
//!
//! Exit codes: 0 a plan, 4 requires an agent (no capability serves some
//! sub-intent; the report names them), 1 errors.

use std::path::PathBuf;
use std::sync::Arc;

use ccos_governance::RuntimeContext;
use ccos_marketplace::Marketplace;
use ccos_planner::planner::{PlanResult, Recorded};
use ccos_planner::resolution::SemanticResolution;
use ccos_planner::{CompositeResolution, PatternDecomposition, Planner};
use clap::Args;

use crate::cmd::run::{ExecArgs, load_policy, open_marketplace};
use crate::config::Config;
use crate::exit::{CliError, Exit};
use crate::home::Home;

/// `ccos plan` arguments.
#[derive(Args, Debug)]
pub struct PlanArgs {
    /// The goal, in words (e.g. "count the words in README.md").
    pub goal: String,
    /// Also print the decision trace (candidates, scores, reasons, mappings).
    #[arg(long)]
    pub explain: bool,
    /// Print the whole result (plan, sub-intents, trace) as JSON.
    #[arg(long)]
    pub json: bool,
    /// Security policy file (TOML); default: the config's `policy`, else the built-in default.
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// Let the configured LLM write the plan: `rtfs` (direct RTFS with
    /// repair), `ir` (JSON IR compiled to RTFS) or `auto` (rtfs, then ir).
    #[arg(long, value_name = "MODE", value_parser = parse_mode)]
    pub mode: Option<ccos_planner::llm::modes::Mode>,
    /// Run both LLM modes and print the diff of their plans.
    #[arg(long, conflicts_with = "mode")]
    pub compare: bool,
}

/// Parses `--mode` (`rtfs`, `ir`, `auto`).
pub fn parse_mode(s: &str) -> Result<ccos_planner::llm::modes::Mode, String> {
    ccos_planner::llm::modes::Mode::parse(s)
        .ok_or_else(|| format!("unknown mode {s:?}: rtfs, ir or auto"))
}

/// Plans `goal` over `mp` under `policy`, with this home's pattern rules
/// and the default resolution ([`resolution`]; `store` holds the embedding
/// cache).
pub fn plan_goal(
    home: &Home,
    mp: Arc<Marketplace>,
    policy: RuntimeContext,
    store: &ccos_store::Store,
    goal: &str,
) -> Result<PlanResult, CliError> {
    let patterns = PatternDecomposition::load(home.root()).map_err(CliError::msg)?;
    let (strategy, notice) = resolution(home, mp.clone(), store)?;
    let planner = Planner::new(mp.clone(), policy, patterns).with_resolution(Box::new(strategy));
    // With an LLM configured: its decompositions join the hybrid one.
    let (mut planner, llm) = crate::cmd::plan_llm::with_llm_decomposition(home, planner, mp)?;
    if let Some(n) = notice {
        planner = planner.with_notice(n);
    }
    let result = planner.plan(goal).map_err(CliError::msg);
    crate::cmd::plan_llm::record_decomposition_exchanges(store, None, llm.as_ref())?;
    result
}

/// Where the embedding model is: `$CCOS_EMBED_MODEL_DIR`, else
/// `$CCOS_HOME/models/all-MiniLM-L6-v2`.
pub fn model_dir(home: &Home) -> PathBuf {
    match std::env::var_os(ccos_embed::MODEL_DIR_ENV) {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => ccos_embed::default_model_dir(home.root()),
    }
}

/// The planner's default resolution: catalog fused with semantic
/// resolution when the embedding model is installed (capability vectors
/// cached in `store`); otherwise the catalog alone, with ONE notice printed
/// to stderr and returned for the trace.
pub fn resolution(
    home: &Home,
    mp: Arc<Marketplace>,
    store: &ccos_store::Store,
) -> Result<(CompositeResolution, Option<String>), CliError> {
    let dir = model_dir(home);
    let off = |why: String| {
        let n = format!(
            "semantic resolution off: {why}; run scripts/setup-model.sh {}; resolving lexically",
            dir.display()
        );
        eprintln!("{n}");
        Ok((CompositeResolution::default_for(mp.clone(), None), Some(n)))
    };
    if !ccos_embed::model_present(&dir) {
        return off(format!("model not found at {}", dir.display()));
    }
    let embedder = match ccos_embed::Embedder::load(&dir) {
        Ok(e) => Arc::new(e),
        Err(e) => return off(format!("loading the model failed: {e}")),
    };
    let index = crate::rt::block_on(ccos_planner::resolution::build_index_cached(
        store, embedder, &mp,
    ))?;
    match index {
        Ok(ix) => Ok((
            CompositeResolution::default_for(
                mp.clone(),
                Some(SemanticResolution::new(Arc::new(ix))),
            ),
            None,
        )),
        Err(e) => off(format!("indexing the catalog failed: {e}")),
    }
}

/// Records a plan result in `store` (see [`ccos_planner::record`]).
pub fn record(
    store: &ccos_store::Store,
    result: &PlanResult,
    archive: bool,
) -> Result<Recorded, CliError> {
    crate::rt::block_on(ccos_planner::record(store, result, archive))?
        .map_err(|e| CliError::msg(format!("recording the plan: {e}")))
}

/// The requires-agent report, as text.
pub fn requires_agent_report(r: &PlanResult) -> String {
    let mut out = format!(
        "requires-agent: no capability serves part of the goal {:?}\n",
        r.goal
    );
    if let Some(ra) = &r.requires_agent {
        for m in &ra.missing {
            out.push_str(&format!(
                "  - {} {:?}: {}\n",
                m.sub_intent, m.description, m.reason
            ));
        }
    }
    out.push_str("(no plan was produced; an agent, an MCP server or new capabilities are needed)");
    out
}

/// The decision trace, as text.
pub fn explain(r: &PlanResult) -> String {
    let t = &r.trace;
    let mut out = format!(
        ";; decomposition: {} (rules: {})\n",
        t.decomposition, t.rules
    );
    for n in &t.notices {
        out.push_str(&format!(";; notice: {n}\n"));
    }
    for i in &t.intents {
        out.push_str(&format!(
            ";; {} {:?} [{}]\n",
            i.sub_intent, i.description, i.strategy
        ));
        for c in &i.candidates {
            out.push_str(&format!(
                ";;   {:.3} {}: {}\n",
                c.score,
                c.capability_id,
                c.reasons.join("; ")
            ));
        }
        for c in &i.rejected {
            out.push_str(&format!(
                ";;   rejected {:.3} {}\n",
                c.score, c.capability_id
            ));
        }
        for f in &i.filtered {
            out.push_str(&format!(
                ";;   filtered by policy {}: {}\n",
                f.capability_id,
                f.reasons.join("; ")
            ));
        }
        match (&i.chosen, &i.decision) {
            (Some(c), Some(d)) => out.push_str(&format!(";;   chosen {c} ({d})\n")),
            _ => out.push_str(";;   chosen: none\n"),
        }
        for n in &i.notes {
            out.push_str(&format!(";;   {n}\n"));
        }
    }
    out
}

/// What `ccos plan` needs, in either mode: the home created, the policy,
/// the marketplace and the store.
pub(crate) fn open_for_planning(
    args: &PlanArgs,
    home: &Home,
    config: &Config,
) -> Result<(RuntimeContext, Arc<Marketplace>, ccos_store::Store), CliError> {
    home.ensure()
        .map_err(|e| CliError::msg(format!("creating {}: {e}", home.root().display())))?;
    let exec = ExecArgs {
        policy: args.policy.clone(),
        yes: false,
        answers: vec![],
        answers_file: None,
        json: args.json,
    };
    let policy = load_policy(args.policy.as_ref(), config)?;
    let mp = open_marketplace(home, config, &exec)?;
    let store = crate::rt::block_on(crate::cmd::chain::open_store(home, config))??;
    Ok((policy, mp, store))
}

/// Runs `ccos plan`.
pub fn run(args: PlanArgs, home: &Home) -> Result<(), CliError> {
    if args.mode.is_some() || args.compare {
        return crate::cmd::plan_llm::run(&args, home);
    }
    let config = Config::load(home)?;
    let (policy, mp, store) = open_for_planning(&args, home, &config)?;
    let result = plan_goal(home, mp, policy, &store, &args.goal)?;
    let rec = record(&store, &result, true)?;
    if args.json {
        let mut j = serde_json::to_value(&result).map_err(CliError::msg)?;
        if let Some(o) = j.as_object_mut() {
            o.insert("intent_id".into(), rec.intent_id.clone().into());
            o.insert("plan_id".into(), serde_json::json!(rec.plan_id));
        }
        crate::cmd::print_json(&j)?;
        return match result.requires_agent {
            Some(_) => Err(CliError::silent(Exit::RequiresAgent)),
            None => Ok(()),
        };
    }
    if args.explain {
        print!("{}", explain(&result));
    }
    match &result.rtfs {
        Some(rtfs) => {
            println!("{rtfs}");
            Ok(())
        }
        None => {
            println!("{}", requires_agent_report(&result));
            Err(CliError::silent(Exit::RequiresAgent))
        }
    }
}

/// `ccos run "GOAL"`: plans the goal, shows the plan on stderr, records the
/// decomposition and runs the plan under the goal's intent (exit 4 when
/// the goal requires an agent).
pub fn run_goal(goal: &str, home: &Home, config: &Config, exec: &ExecArgs) -> Result<(), CliError> {
    let prepared = crate::cmd::run::orchestrator(home, config, exec)?;
    let orch = &prepared.orchestrator;
    let result = plan_goal(
        home,
        prepared.marketplace.clone(),
        orch.policy().clone(),
        orch.store(),
        goal,
    )?;
    let rec = record(orch.store(), &result, false)?;
    let Some(rtfs) = &result.rtfs else {
        eprintln!("{}", requires_agent_report(&result));
        return Err(CliError::silent(Exit::RequiresAgent));
    };
    eprintln!(";; plan for {goal:?} (intent {})\n{rtfs}", rec.intent_id);
    crate::cmd::run::execute(
        &prepared,
        "<goal>",
        rtfs,
        exec.json,
        ccos_orchestrator::RunOptions {
            intent_id: Some(rec.intent_id.clone()),
            generation_mode: result.generation_mode().to_string(),
            ..Default::default()
        },
    )
}
