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

use std::path::{Path, PathBuf};

use ccos_orchestrator::RunOptions;
use ccos_synth::{PlannerGenContext, PlannerSynthesis};
use clap::{Args, Subcommand};
use serde_json::json;

use crate::exit::{CliError, Exit};
use crate::open::{ExecArgs, exec_world, note, out, print_json};

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
pub fn run(cmd: SynthCommand, home: &Path) -> Result<(), CliError> {
    match cmd {
        SynthCommand::Planner(a) => planner(a, home),
        SynthCommand::Agent(a) => agent(a, home),
    }
}

/// The loaded world of a synthesis.
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

/// Opens the world for synthesis: the context file's `policy` applies
/// unless `--policy` is given.
fn open(context: &Path, exec: &ExecArgs, home: &Path) -> Result<ccos_world::World, CliError> {
    let ctx = PlannerGenContext::from_file(context).map_err(CliError::msg)?;
    let mut exec = exec.clone();
    if exec.policy.is_none() {
        exec.policy = ctx.policy.clone();
    }
    exec_world(home, &exec)
}

fn planner(args: PlannerArgs, home: &Path) -> Result<(), CliError> {
    let world = open(&args.context, &args.exec, home)?;
    let c = world.synth_context(&args.context)?;
    for t in &c.trust_changes {
        note(format!(
            ";; agent {} trust {} -> {} ({} ok, {} failed)",
            t.id,
            t.from.as_str(),
            t.to.as_str(),
            t.ok,
            t.failed
        ));
    }
    let made = world.synthesize_planner(&c, args.llm, args.register_stub)?;
    let s = &made.synthesis;
    let mut stub_registered = None;
    if let Some((id, registered)) = &made.stub {
        if *registered {
            note(format!(";; registered stub {id} in the catalog"));
            stub_registered = Some(id.clone());
        } else {
            note(format!(
                ";; suggested stub {id} (not registered; pass --register-stub to register it)"
            ));
        }
    }
    if let Some(id) = &made.agent {
        note(format!(";; synthesized and registered agent {id}"));
    }
    if args.run {
        if args.explain {
            eprint!("{}", crate::open::redact(&explain(s)));
        }
        eprint!("{}", crate::open::redact(&s.rtfs));
        crate::cmd::run::install_signal_handlers(&world)?;
        let name = args.context.display().to_string();
        let outcome = world.run_plan(
            &s.rtfs,
            RunOptions {
                source_name: name.clone(),
                bindings: vec![("context".into(), c.ctx.context_value())],
                generation_mode: "synth".into(),
                ..RunOptions::default()
            },
        );
        crate::cmd::run::report(outcome, &name, &s.rtfs, args.exec.json)?;
    } else if args.exec.json {
        print_json(&json!({
            "synthesis": s,
            "agent": made.agent,
            "stub_registered": stub_registered,
        }))?;
    } else {
        if args.explain {
            print!("{}", crate::open::redact(&explain(s)));
        }
        print!("{}", crate::open::redact(&s.rtfs));
    }
    if s.requires_agent() {
        return Err(CliError::silent(Exit::RequiresAgent));
    }
    Ok(())
}

fn agent(args: AgentArgs, home: &Path) -> Result<(), CliError> {
    let world = open(&args.context, &args.exec, home)?;
    let c = world.synth_context(&args.context)?;
    let (agent, s) = world.synthesize_agent(&c)?;
    if args.exec.json {
        print_json(&json!({"agent": agent, "planner": s}))?;
    } else {
        out(format!(
            ";; registered agent {} (steps: {})",
            agent.card.id,
            agent.steps.join(", ")
        ));
        print!(
            "{}",
            crate::open::redact(agent.card.plan.as_deref().unwrap_or_default())
        );
        out(";; planner delegating to it:");
        print!("{}", crate::open::redact(&s.rtfs));
    }
    if s.requires_agent() {
        return Err(CliError::silent(Exit::RequiresAgent));
    }
    Ok(())
}
