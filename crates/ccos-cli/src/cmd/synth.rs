//! `ccos synth planner CONTEXT.json` / `ccos synth agent CONTEXT.json`:
//! planner synthesis from a conversation (spec 026, see `ccos-synth`).
//!
//! The context file holds the conversation (turns, parameter schema,
//! skills, preferences; optionally a `policy` file and registry snapshots —
//! absent snapshots are read from the live catalog). Synthesis is
//! recorded as a `planner_generation` causal-chain entry.
//!
//! `synth planner` prints the RTFS planner (with `--explain`, the decision
//! trace first as `;;` comments; `--json`, everything as JSON). When the
//! conversation calls for an agent (more than 3 turns, more than 2
//! refinements, sequencing words), an RTFS agent is synthesized, registered
//! and delegated to. `--register-stub` registers the requires-agent stub
//! (otherwise only suggested); `--llm` asks the configured LLM for a
//! proposal, validated strictly; `--run` executes the planner with the
//! collected parameters as its `context` map (plan on stderr, value on
//! stdout).
//!
//! Exit codes: 0 a planner, 4 the planner is requires-agent, 1 a bad
//! context file (`file:line:col: ...`) or other error, 2 usage.

use std::path::PathBuf;
use std::sync::Arc;

use ccos_marketplace::Marketplace;
use ccos_orchestrator::RunOptions;
use ccos_synth::agent::AgentSynthesis;
use ccos_synth::trust::{adjust_agent_trust, load_outcomes};
use ccos_synth::{
    AgentTrigger, PlannerGenContext, PlannerSynthesis, SynthOptions, delegating_planner,
    register_agent, synthesize_agent, synthesize_planner,
};
use clap::{Args, Subcommand};
use serde_json::json;

use crate::cmd::run::{ExecArgs, Prepared};
use crate::config::Config;
use crate::exit::{CliError, Exit};
use crate::home::Home;

/// `ccos synth` subcommands.
#[derive(Subcommand, Debug)]
pub enum SynthCommand {
    /// Synthesize a planner from a conversation (exit 4: requires an agent).
    Planner(PlannerArgs),
    /// Synthesize and register an RTFS agent from a conversation, and the planner delegating to it.
    Agent(AgentArgs),
}

/// `ccos synth planner` arguments.
#[derive(Args, Debug)]
pub struct PlannerArgs {
    /// The context file (JSON: history, schema, skills, preferences...).
    #[arg(value_name = "CONTEXT.json")]
    pub context: PathBuf,
    /// Print the decision trace (candidates, score parts, adapters, fallback) before the planner.
    #[arg(long)]
    pub explain: bool,
    /// Register the requires-agent stub in the catalog (by default it is only suggested).
    #[arg(long)]
    pub register_stub: bool,
    /// Ask the configured LLM for a proposal; it is used only if it parses and passes preflight and governance.
    #[arg(long)]
    pub llm: bool,
    /// Execute the planner with the collected parameters as its `context` map.
    #[arg(long)]
    pub run: bool,
    #[command(flatten)]
    pub exec: ExecArgs,
}

/// `ccos synth agent` arguments.
#[derive(Args, Debug)]
pub struct AgentArgs {
    /// The context file (JSON).
    #[arg(value_name = "CONTEXT.json")]
    pub context: PathBuf,
    #[command(flatten)]
    pub exec: ExecArgs,
}

/// Runs a `ccos synth` subcommand.
pub fn run(cmd: SynthCommand, home: &Home) -> Result<(), CliError> {
    match cmd {
        SynthCommand::Planner(a) => planner(a, home),
        SynthCommand::Agent(a) => agent(a, home),
    }
}

/// The loaded world of a synthesis.
struct World {
    config: Config,
    ctx: PlannerGenContext,
    prepared: Prepared,
    opts: SynthOptions,
}

fn load(path: &std::path::Path, exec: &ExecArgs, home: &Home) -> Result<World, CliError> {
    let config = Config::load(home)?;
    let ctx = PlannerGenContext::from_file(path).map_err(CliError::msg)?;
    let mut exec = exec.clone();
    if exec.policy.is_none() {
        exec.policy = ctx.policy.clone();
    }
    let prepared = crate::cmd::run::orchestrator(home, &config, &exec)?;
    let store = prepared.orchestrator.store().clone();
    // Trust feedback first: agents' tiers follow their recorded outcomes.
    let changes = crate::rt::block_on(adjust_agent_trust(&prepared.marketplace, &store))?
        .map_err(|e| CliError::msg(format!("adjusting agent trust: {e}")))?;
    for c in &changes {
        eprintln!(
            ";; agent {} trust {} -> {} ({} ok, {} failed)",
            c.id,
            c.from.as_str(),
            c.to.as_str(),
            c.ok,
            c.failed
        );
    }
    let ctx = ctx.with_live_snapshots(&prepared.marketplace);
    let mut ids: Vec<String> = ctx
        .capability_cards()
        .iter()
        .map(|c| c.id.clone())
        .collect();
    ids.extend(ctx.agent_cards().iter().map(|a| a.id.clone()));
    let outcomes = crate::rt::block_on(load_outcomes(&store, ids))?
        .map_err(|e| CliError::msg(format!("reading outcomes: {e}")))?;
    Ok(World {
        config,
        ctx,
        prepared,
        opts: SynthOptions {
            outcomes,
            ..SynthOptions::default()
        },
    })
}

fn record(w: &World, s: &PlannerSynthesis) -> Result<(), CliError> {
    let store = w.prepared.orchestrator.store().clone();
    crate::rt::block_on(ccos_synth::record_generation(&store, s, &w.ctx))?
        .map_err(|e| CliError::msg(format!("recording planner_generation: {e}")))?;
    Ok(())
}

fn build_agent(
    w: &World,
    mp: &Arc<Marketplace>,
    reasons: Vec<String>,
) -> Result<(AgentSynthesis, PlannerSynthesis), String> {
    let policy = w.prepared.orchestrator.policy();
    let mut agent =
        synthesize_agent(&w.ctx, policy, &w.opts, reasons).map_err(|e| e.to_string())?;
    register_agent(mp, &mut agent).map_err(|e| e.to_string())?;
    let s = delegating_planner(&w.ctx, &agent, policy, &w.opts);
    Ok((agent, s))
}

/// The decision trace as `;;` comments.
pub fn explain(s: &PlannerSynthesis) -> String {
    let t = &s.decision_trace;
    let c = &t.coverage;
    let mut out = format!(
        ";; template: {} (source: {})\n;; parameters: required [{}] provided [{}] defaulted [{}] missing [{}] ({:.4})\n",
        t.template.as_str(),
        t.source,
        c.required.join(" "),
        c.provided.join(" "),
        c.defaulted.join(" "),
        c.missing.join(" "),
        c.ratio
    );
    out.push_str(&format!(
        ";; weights: coverage {} compatibility {} trust {}\n;; candidates (best first, {} scored):\n",
        t.weights.coverage,
        t.weights.compatibility,
        t.weights.trust,
        t.candidates.len()
    ));
    let shown: Vec<_> = t
        .candidates
        .iter()
        .filter(|c| !c.adapters.is_empty())
        .take(10)
        .collect();
    let hidden = t.candidates.len() - shown.len();
    for cand in shown {
        out.push_str(&format!(
            ";;   {:.4} {} {}{}\n",
            cand.total,
            cand.kind,
            cand.id,
            if cand.viable { "" } else { " (not viable)" }
        ));
        for e in &cand.explain {
            out.push_str(&format!(";;     {e}\n"));
        }
    }
    if hidden > 0 {
        out.push_str(&format!(
            ";;   ({hidden} more not shown: no context key fits them, or beyond the first 10; see --json)\n"
        ));
    }
    for f in &t.filtered {
        out.push_str(&format!(
            ";; filtered by policy: {} {}: {}\n",
            f.kind,
            f.id,
            f.reasons.join("; ")
        ));
    }
    match &t.selected {
        Some(sel) => out.push_str(&format!(";; selected: {} {}\n", sel.kind, sel.id)),
        None => out.push_str(";; selected: none\n"),
    }
    for a in &t.adapters {
        out.push_str(&format!(
            ";; adapter: :{} -> :{} ({}{}{})\n",
            a.from,
            a.to,
            a.rename,
            a.coercion
                .as_ref()
                .map(|c| format!(", {c}"))
                .unwrap_or_default(),
            if a.default_used { ", default" } else { "" }
        ));
    }
    if let Some(fb) = &t.fallback {
        out.push_str(&format!(
            ";; fallback: {} missing [{}]: {}\n",
            fb.stub_id,
            fb.missing_required.join(" "),
            fb.reason
        ));
    }
    for n in &t.notes {
        out.push_str(&format!(";; note: {n}\n"));
    }
    out
}

fn planner(args: PlannerArgs, home: &Home) -> Result<(), CliError> {
    let w = load(&args.context, &args.exec, home)?;
    let mp = w.prepared.marketplace.clone();
    let policy = w.prepared.orchestrator.policy().clone();
    let reasons = AgentTrigger::default().reasons(&w.ctx);
    let mut agent_id = None;
    let mut s = if reasons.is_empty() {
        synthesize_planner(&w.ctx, &policy, &w.opts)
    } else {
        match build_agent(&w, &mp, reasons.clone()) {
            Ok((agent, s)) => {
                agent_id = Some(agent.card.id.clone());
                s
            }
            Err(e) => {
                let mut s = synthesize_planner(&w.ctx, &policy, &w.opts);
                s.decision_trace.notes.push(format!(
                    "agent synthesis triggered ({}) but failed: {}",
                    reasons.join("; "),
                    e
                ));
                s
            }
        }
    };
    if args.llm {
        let provider = crate::llm::require_provider(&w.config)?;
        let recorder = crate::llm::recorder(&w.config, provider);
        s = ccos_synth::assist::assist(&w.ctx, s, &recorder, &*mp, &policy);
        let store = w.prepared.orchestrator.store().clone();
        let exchanges = recorder.take_exchanges();
        crate::rt::block_on(ccos_planner::llm::record::record_exchanges(
            &store, None, &exchanges,
        ))?
        .map_err(|e| CliError::msg(format!("recording the LLM exchange: {e}")))?;
    }
    record(&w, &s)?;
    let mut stub_registered = None;
    if let Some(stub) = ccos_synth::stub_manifest(&s, &w.ctx) {
        if args.register_stub {
            mp.replace(stub.clone())
                .map_err(|e| CliError::msg(format!("registering stub {}: {e}", stub.id)))?;
            eprintln!(";; registered stub {} in the catalog", stub.id);
            stub_registered = Some(stub.id);
        } else {
            eprintln!(
                ";; suggested stub {} (not registered; pass --register-stub to register it)",
                stub.id
            );
        }
    }
    if let Some(id) = &agent_id {
        eprintln!(";; synthesized and registered agent {id}");
    }
    if args.run {
        eprint!(
            "{}",
            if args.explain {
                explain(&s)
            } else {
                String::new()
            }
        );
        eprint!("{}", s.rtfs);
        crate::cmd::run::execute(
            &w.prepared,
            &args.context.display().to_string(),
            &s.rtfs,
            args.exec.json,
            RunOptions {
                bindings: vec![("context".into(), w.ctx.context_value())],
                generation_mode: "synth".into(),
                ..Default::default()
            },
        )?;
    } else if args.exec.json {
        crate::cmd::print_json(&json!({
            "synthesis": s,
            "agent": agent_id,
            "stub_registered": stub_registered,
        }))?;
    } else {
        if args.explain {
            print!("{}", explain(&s));
        }
        print!("{}", s.rtfs);
    }
    if s.requires_agent() {
        return Err(CliError::silent(Exit::RequiresAgent));
    }
    Ok(())
}

fn agent(args: AgentArgs, home: &Home) -> Result<(), CliError> {
    let w = load(&args.context, &args.exec, home)?;
    let mp = w.prepared.marketplace.clone();
    let mut reasons = AgentTrigger::default().reasons(&w.ctx);
    if reasons.is_empty() {
        reasons.push("forced (ccos synth agent)".into());
    }
    let (agent, s) = build_agent(&w, &mp, reasons).map_err(CliError::msg)?;
    record(&w, &s)?;
    if args.exec.json {
        crate::cmd::print_json(&json!({"agent": agent, "planner": s}))?;
    } else {
        println!(
            ";; registered agent {} (steps: {})",
            agent.card.id,
            agent.steps.join(", ")
        );
        print!("{}", agent.card.plan.as_deref().unwrap_or_default());
        println!(";; planner delegating to it:");
        print!("{}", s.rtfs);
    }
    if s.requires_agent() {
        return Err(CliError::silent(Exit::RequiresAgent));
    }
    Ok(())
}
