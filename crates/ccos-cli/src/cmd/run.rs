//! `ccos run "GOAL"` / `ccos run --plan PLAN.rtfs`: governed execution.
//!
//! A goal is planned first (the deterministic planner, or the configured
//! LLM with `--mode`), the plan shown on stderr, then run; a plan file is
//! run as written. Prints the plan's value (canonical RTFS, or JSON with
//! `--json`).
//!
//! Exit codes: 0 success, 1 a failed step / preflight error / bad input,
//! 2 usage (an empty goal), 3 governance denied the plan or a call, 4 a
//! goal requires an agent. SIGINT, SIGTERM and SIGHUP cancel running
//! calls, stop MCP servers and record the run as interrupted.

use std::path::{Path, PathBuf};

use ccos_orchestrator::{RunError, RunOptions, RunOutcome};
use ccos_planner_llm::modes::Mode;
use ccos_world::World;
use ccos_world::run::GoalRun;
use clap::Args;

use crate::exit::{CliError, Exit};
use crate::open::{ExecArgs, exec_world, note, out, print_json, read_source};

/// `ccos run` arguments: a goal to plan and run, or `--plan FILE` (exactly one).
#[derive(Args, Debug)]
pub struct RunArgs {
    /// A goal in words: planned (see `ccos plan`), shown on stderr, then run.
    #[arg(
        value_name = "GOAL",
        required_unless_present = "plan",
        conflicts_with = "plan"
    )]
    pub goal: Option<String>,
    /// The RTFS plan to run (`-` for stdin).
    #[arg(long, value_name = "PLAN.rtfs")]
    pub plan: Option<PathBuf>,
    /// Let the configured LLM plan the GOAL: `rtfs`, `ir` or `auto` (see `ccos plan --mode`).
    #[arg(long, value_name = "MODE", requires = "goal", value_parser = crate::cmd::plan::parse_mode)]
    pub mode: Option<Mode>,
    #[command(flatten)]
    pub exec: ExecArgs,
}

/// Triggers the world's interrupt on SIGINT, SIGTERM or SIGHUP: running
/// calls are cancelled, MCP server process groups stopped, and the run is
/// recorded as interrupted.
pub fn install_signal_handlers(world: &World) -> Result<(), CliError> {
    let interrupt = world.orchestrator()?.interrupt();
    world.handle().spawn(async move {
        use tokio::signal::unix::{SignalKind, signal};
        let (Ok(mut term), Ok(mut hup)) = (
            signal(SignalKind::terminate()),
            signal(SignalKind::hangup()),
        ) else {
            return;
        };
        let which = tokio::select! {
            _ = tokio::signal::ctrl_c() => "interrupt",
            _ = term.recv() => "terminated",
            _ = hup.recv() => "hangup",
        };
        eprintln!("{which}: cancelling running calls...");
        interrupt.trigger();
    });
    Ok(())
}

/// Prints a finished run; maps errors to exit codes.
pub fn report(
    outcome: Result<RunOutcome, RunError>,
    name: &str,
    src: &str,
    json: bool,
) -> Result<(), CliError> {
    match outcome {
        Ok(o) => {
            if json {
                let value = rtfs::to_json(&o.value)
                    .unwrap_or_else(|_| serde_json::json!(rtfs::print_value(&o.value)));
                print_json(&serde_json::json!({
                    "run_id": o.run_id, "plan_id": o.plan_id, "intent_id": o.intent_id,
                    "calls": o.calls, "value": value,
                }))
            } else {
                out(rtfs::print_value(&o.value));
                Ok(())
            }
        }
        Err(e) => Err(report_error(e, name, src, json)),
    }
}

fn report_error(e: RunError, name: &str, src: &str, json: bool) -> CliError {
    let code = match &e {
        RunError::Denied { .. } => Exit::Denied,
        _ => Exit::Error,
    };
    if json {
        let findings = match &e {
            RunError::Preflight(r) => serde_json::to_value(&r.findings).ok(),
            RunError::Denied {
                report: Some(r), ..
            } => serde_json::to_value(&r.findings).ok(),
            _ => None,
        };
        let run_id = match &e {
            RunError::StepFailed { run_id, .. } | RunError::Interrupted { run_id } => {
                Some(run_id.clone())
            }
            RunError::Denied { run_id, .. } => run_id.clone(),
            _ => None,
        };
        let printed = print_json(
            &serde_json::json!({"error": e.to_string(), "findings": findings, "run_id": run_id}),
        );
        return match printed {
            Ok(()) => CliError::silent(code),
            Err(err) => err,
        };
    }
    match e {
        RunError::Parse(err) => CliError::diagnostic(err.with_source(name, src.to_string())),
        RunError::StepFailed {
            error,
            step,
            run_id,
        } => {
            let at = step
                .map(|(n, p)| format!("step \"{n}\" (#{p}) failed"))
                .unwrap_or_else(|| "the plan failed".into());
            note(format!("error: {at} in run {run_id}"));
            CliError::diagnostic(error.with_source(name, src.to_string()))
        }
        RunError::Preflight(report)
        | RunError::Denied {
            report: Some(report),
            ..
        } => {
            for f in &report.findings {
                note(f.render(name));
            }
            CliError::with_code(
                code,
                if code == Exit::Denied {
                    "denied by policy; nothing was executed"
                } else {
                    "preflight failed; nothing was executed"
                },
            )
        }
        other => CliError::with_code(code, other),
    }
}

/// Runs `ccos run`.
pub fn run(args: RunArgs, home: &Path) -> Result<(), CliError> {
    let world = exec_world(home, &args.exec)?;
    install_signal_handlers(&world)?;
    if let Some(goal) = &args.goal {
        return run_goal(&world, goal, args.mode, args.exec.json);
    }
    let Some(plan) = &args.plan else {
        return Err(CliError::with_code(
            Exit::Usage,
            "give a GOAL or --plan FILE",
        ));
    };
    let (name, src) = read_source(plan)?;
    let outcome = world.run_plan(
        &src,
        RunOptions {
            source_name: name.clone(),
            ..RunOptions::default()
        },
    );
    report(outcome, &name, &src, args.exec.json)
}

fn run_goal(world: &World, goal: &str, mode: Option<Mode>, json: bool) -> Result<(), CliError> {
    match world.run_goal(goal, mode)? {
        GoalRun::RequiresAgent { planned, intent_id } => {
            let report = ccos_world::plan::requires_agent_report(&planned);
            note(&report);
            if json {
                // As `ccos plan --json` prints it: the result and its trace.
                let mut j = serde_json::to_value(&*planned).map_err(CliError::msg)?;
                if let Some(o) = j.as_object_mut() {
                    o.insert("intent_id".into(), serde_json::json!(intent_id));
                    o.insert("report".into(), serde_json::json!(report));
                }
                print_json(&j)?;
            }
            Err(CliError::silent(Exit::RequiresAgent))
        }
        GoalRun::ModelRequiresAgent { outcome, intent_id } => {
            let report = ccos_world::plan::model_requires_agent_report(&outcome);
            note(&report);
            if json {
                print_json(&serde_json::json!({
                    "requires_agent": true,
                    "intent_id": intent_id,
                    "report": report,
                }))?;
            }
            Err(CliError::silent(Exit::RequiresAgent))
        }
        GoalRun::Ran {
            rtfs,
            intent_id,
            generation_mode,
            warnings,
            outcome,
        } => {
            for w in &warnings {
                note(w);
            }
            note(format!(
                ";; {generation_mode} plan for {goal:?} (intent {intent_id})\n{rtfs}"
            ));
            report(*outcome, "<goal>", &rtfs, json)
        }
    }
}
