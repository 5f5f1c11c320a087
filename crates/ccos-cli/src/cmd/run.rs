//! `ccos run --plan PLAN.rtfs` / `ccos run "GOAL"`: governed execution of a plan
//! (a goal is first planned by `cmd::plan`).
//!
//! Builds the run's world from `$CCOS_HOME` — the catalog (built-ins
//! configured from `config.toml`, imported and discovered capabilities), the
//! store, the policy — and hands the plan to the orchestrator. Prints the
//! plan's value (canonical RTFS, or JSON with `--json`).
//!
//! Exit codes: 0 success, 1 a failed step / preflight error / bad input,
//! 3 governance denied the plan or a call, 4 a goal requires an agent.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use ccos_governance::RuntimeContext;
use ccos_marketplace::Marketplace;
use ccos_marketplace::builtins::{self, BuiltinConfig};
use ccos_marketplace::prompt::{FirstAnswer, ScriptedAnswers, TerminalPrompter, UserPrompter};
use ccos_orchestrator::{
    Approval, ApprovalRequest, Approver, AutoApprove, DenyAll, Orchestrator, ProgressEvent,
    ProgressSink, RunError, RunOptions,
};
use clap::Args;

use crate::config::Config;
use crate::exit::{CliError, Exit};
use crate::home::Home;

/// Options shared by every command that executes plans.
#[derive(Args, Debug, Clone)]
pub struct ExecArgs {
    /// Security policy file (TOML); default: the config's `policy`, else the built-in default.
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// Approve every call that needs approval (writes, network) without asking.
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Answer for `ccos.user.ask`: `PROMPT=VALUE`, or just `VALUE` (used in order).
    #[arg(long = "answer", value_name = "ANSWER")]
    pub answers: Vec<String>,
    /// File of answers for `ccos.user.ask` (JSON or TOML map of prompt to answer).
    #[arg(long = "answers", value_name = "FILE")]
    pub answers_file: Option<PathBuf>,
    /// Print the value as JSON.
    #[arg(long)]
    pub json: bool,
}

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
    pub mode: Option<ccos_planner::llm::modes::Mode>,
    #[command(flatten)]
    pub exec: ExecArgs,
}

/// Loads the policy: `--policy`, else the config's, else the default.
pub fn load_policy(
    explicit: Option<&PathBuf>,
    config: &Config,
) -> Result<RuntimeContext, CliError> {
    match explicit.or(config.policy.as_ref()) {
        Some(p) => RuntimeContext::from_file(p).map_err(CliError::msg),
        None => Ok(RuntimeContext::default()),
    }
}

/// The catalog with built-ins configured for execution (roots, hosts, answers).
pub fn open_marketplace(
    home: &Home,
    config: &Config,
    exec: &ExecArgs,
) -> Result<Arc<Marketplace>, CliError> {
    let mp = Marketplace::open(home.join("catalog")).map_err(CliError::msg)?;
    let mut scripted = ScriptedAnswers::new().with_flags(&exec.answers);
    if let Some(f) = &exec.answers_file {
        let from_file = ScriptedAnswers::from_file(f).map_err(CliError::msg)?;
        scripted = from_file.with_flags(&exec.answers);
    }
    let prompter: Arc<dyn UserPrompter> = Arc::new(FirstAnswer(vec![
        Arc::new(scripted),
        Arc::new(TerminalPrompter),
    ]));
    let roots = config
        .files
        .roots
        .clone()
        .unwrap_or_else(|| vec![PathBuf::from(".")]);
    builtins::install(
        &mp,
        BuiltinConfig {
            file_roots: roots,
            http_allow_hosts: config.http.allow_hosts.clone(),
            prompter,
            ..BuiltinConfig::default()
        },
    )
    .map_err(CliError::msg)?;
    Ok(Arc::new(mp))
}

/// Asks on the terminal (stdin must be a terminal; otherwise refuses).
struct TerminalApprover {
    lock: Mutex<()>,
}

impl Approver for TerminalApprover {
    fn approve(&self, r: &ApprovalRequest) -> Approval {
        let _one_at_a_time = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        if !std::io::stdin().is_terminal() {
            return DenyAll.approve(r);
        }
        let mut err = std::io::stderr();
        let _ = writeln!(err, "approval needed: {} {}", r.capability, r.args);
        for reason in &r.reasons {
            let _ = writeln!(err, "  - {reason}");
        }
        let _ = write!(err, "allow this call? [y/N] ");
        let _ = err.flush();
        let mut line = String::new();
        match std::io::stdin().read_line(&mut line) {
            Ok(_) if matches!(line.trim(), "y" | "Y" | "yes") => Approval::Given("terminal".into()),
            _ => Approval::Refused("refused at the terminal".into()),
        }
    }
}

/// Progress on stderr: a live spinner per running step when stderr is a
/// terminal (parallel branches show side by side), one plain line per
/// finished step otherwise (logs, CI).
struct StepProgress {
    live: Option<indicatif::MultiProgress>,
    bars: Mutex<std::collections::BTreeMap<String, indicatif::ProgressBar>>,
}

impl StepProgress {
    fn new() -> StepProgress {
        let live = std::io::stderr()
            .is_terminal()
            .then(indicatif::MultiProgress::new);
        StepProgress {
            live,
            bars: Mutex::new(Default::default()),
        }
    }
}

impl ProgressSink for StepProgress {
    fn event(&self, e: &ProgressEvent) {
        let mut bars = self.bars.lock().unwrap_or_else(|p| p.into_inner());
        match (e, &self.live) {
            (ProgressEvent::StepStarted { path, name, kind }, Some(mp)) if *kind == "step" => {
                let bar = mp.add(indicatif::ProgressBar::new_spinner());
                bar.set_style(
                    indicatif::ProgressStyle::with_template("{spinner} {msg} {elapsed}")
                        .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
                );
                bar.set_message(format!("step {path} {name}"));
                bar.enable_steady_tick(std::time::Duration::from_millis(100));
                bars.insert(path.clone(), bar);
            }
            (
                ProgressEvent::StepEnded {
                    path,
                    name,
                    kind,
                    ok,
                    duration,
                },
                live,
            ) if *kind == "step" => {
                let mark = if *ok { "ok  " } else { "FAIL" };
                let line = format!("[{mark}] step {path} {name} ({} ms)", duration.as_millis());
                match (bars.remove(path), live) {
                    (Some(bar), Some(_)) => {
                        if let Ok(style) = indicatif::ProgressStyle::with_template("{msg}") {
                            bar.set_style(style);
                        }
                        bar.finish_with_message(line);
                    }
                    _ => eprintln!("{line}"),
                }
            }
            _ => {}
        }
    }
}

/// A ready orchestrator and the MCP executor whose sessions must be shut
/// down after the run (so no server process outlives it).
pub struct Prepared {
    /// The orchestrator.
    pub orchestrator: Orchestrator,
    /// MCP sessions opened lazily by calls.
    pub mcp: Arc<ccos_mcp::McpExecutor>,
    /// The catalog the orchestrator runs against (the planner resolves over it).
    pub marketplace: Arc<Marketplace>,
}

/// Builds an orchestrator for this home, policy and flags.
pub fn orchestrator(home: &Home, config: &Config, exec: &ExecArgs) -> Result<Prepared, CliError> {
    home.ensure()
        .map_err(|e| CliError::msg(format!("creating {}: {e}", home.root().display())))?;
    let policy = load_policy(exec.policy.as_ref(), config)?;
    let mp = open_marketplace(home, config, exec)?;
    let mcp_config = ccos_mcp::McpConfig::load(&ccos_mcp::McpConfig::path_in(home.root()))
        .map_err(CliError::msg)?;
    let mcp = Arc::new(ccos_mcp::McpExecutor::new(mcp_config));
    mp.register_executor(mcp.clone());
    let store = crate::rt::block_on(crate::cmd::chain::open_store(home, config))??;
    let mut policy = policy;
    for name in &config.secrets.env {
        if !policy.secret_env.contains(name) {
            policy.secret_env.push(name.clone());
        }
    }
    let approver: Arc<dyn Approver> = if exec.yes {
        Arc::new(AutoApprove)
    } else {
        Arc::new(TerminalApprover {
            lock: Mutex::new(()),
        })
    };
    let marketplace = mp.clone();
    let orchestrator = Orchestrator::new(mp, policy, store)
        .with_approver(approver)
        .with_progress(Arc::new(StepProgress::new()));
    Ok(Prepared {
        orchestrator,
        mcp,
        marketplace,
    })
}

/// Runs plan source under `orch` and prints the outcome; maps errors to exit codes.
pub fn execute(
    prepared: &Prepared,
    name: &str,
    src: &str,
    json: bool,
    options: RunOptions,
) -> Result<(), CliError> {
    let orch = &prepared.orchestrator;
    let interrupt = orch.interrupt();
    let result = crate::rt::block_on(async {
        let ctrl_c = async {
            if tokio::signal::ctrl_c().await.is_ok() {
                eprintln!("interrupt: cancelling running calls...");
                interrupt.trigger();
            }
            std::future::pending::<()>().await
        };
        let outcome = tokio::select! {
            r = orch.run(src, RunOptions { source_name: name.to_string(), ..options }) => r,
            _ = ctrl_c => unreachable!("pending never completes"),
        };
        prepared.mcp.shutdown().await;
        outcome
    })?;
    match result {
        Ok(out) => {
            if json {
                let value = rtfs::to_json(&out.value)
                    .unwrap_or_else(|_| serde_json::json!(out.value.to_string()));
                println!(
                    "{}",
                    serde_json::json!({"run_id": out.run_id, "plan_id": out.plan_id, "intent_id": out.intent_id,
                                       "calls": out.calls, "value": value})
                );
            } else {
                println!("{}", out.value);
            }
            Ok(())
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
        println!(
            "{}",
            serde_json::json!({"error": e.to_string(), "findings": findings, "run_id": run_id})
        );
        return CliError::silent(code);
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
            eprintln!("error: {at} in run {run_id}");
            CliError::diagnostic(error.with_source(name, src.to_string()))
        }
        RunError::Preflight(report)
        | RunError::Denied {
            report: Some(report),
            ..
        } => {
            for f in &report.findings {
                eprintln!("{}", f.render(name));
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
pub fn run(args: RunArgs, home: &Home) -> Result<(), CliError> {
    let config = Config::load(home)?;
    if let (Some(goal), Some(mode)) = (&args.goal, args.mode) {
        return crate::cmd::plan_llm::run_goal(goal, mode, home, &config, &args.exec);
    }
    if let Some(goal) = &args.goal {
        return crate::cmd::plan::run_goal(goal, home, &config, &args.exec);
    }
    let Some(plan) = &args.plan else {
        return Err(CliError::with_code(
            Exit::Usage,
            "give a GOAL or --plan FILE",
        ));
    };
    let (name, src) = crate::cmd::rtfs::read_source(plan)?;
    let prepared = orchestrator(home, &config, &args.exec)?;
    execute(
        &prepared,
        &name,
        &src,
        args.exec.json,
        RunOptions::default(),
    )
}
