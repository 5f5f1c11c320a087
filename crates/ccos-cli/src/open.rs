//! From command-line arguments to a [`World`]: the home, the environment,
//! the policy flag, and how the person at the terminal approves calls and
//! answers questions.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use ccos_core::Redactor;

use ccos_marketplace::prompt::{FirstAnswer, ScriptedAnswers, UserPrompter};
use ccos_orchestrator::{Approver, AutoApprove};
use ccos_world::{Env, World, WorldOptions};
use clap::Args;

use crate::exit::CliError;
use crate::term::{StepProgress, Terminal, TerminalApprover, TerminalAsk};

/// Options shared by every command that executes plans.
#[derive(Args, Debug, Clone, Default)]
pub struct ExecArgs {
    /// Security policy file (TOML), relative to the current directory;
    /// default: the config's `policy` (relative to $CCOS_HOME), else the
    /// built-in default.
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// Approve every call that needs approval (writes, network) without asking.
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Answer for `ccos.user.ask`: `PROMPT=VALUE`, `NAME=VALUE` (the name of
    /// the value asked for, e.g. a parameter: `timezone=Asia/Tokyo`), or just
    /// `VALUE` (used in order: a plan asks its questions one at a time, in
    /// plan order).
    #[arg(long = "answer", value_name = "ANSWER")]
    pub answers: Vec<String>,
    /// File of answers for `ccos.user.ask` (JSON or TOML map of prompt to answer).
    #[arg(long = "answers", value_name = "FILE")]
    pub answers_file: Option<PathBuf>,
    /// Print the value as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Opens the world for a command that only reads (no approvals, no
/// questions).
pub fn read_world(home: &Path, policy: Option<&PathBuf>) -> Result<World, CliError> {
    let mut opts = base_options(home)?;
    opts.policy_file = policy.cloned();
    opened(World::open(opts)?)
}

/// The secrets of the opened world: everything printed passes through them.
static SECRETS: OnceLock<Redactor> = OnceLock::new();

fn opened(world: World) -> Result<World, CliError> {
    let _ = SECRETS.set(world.secrets().clone());
    Ok(world)
}

/// `text` with the world's secrets redacted (unchanged before a world is
/// opened: nothing declared a secret yet).
pub fn redact(text: &str) -> String {
    match SECRETS.get() {
        Some(r) => r.redact_str(text).into_owned(),
        None => text.to_string(),
    }
}

/// Prints one line on stdout, secrets redacted.
pub fn out(text: impl AsRef<str>) {
    println!("{}", redact(text.as_ref()));
}

/// Prints one line on stderr, secrets redacted.
pub fn note(text: impl AsRef<str>) {
    eprintln!("{}", redact(text.as_ref()));
}

/// Opens the world for a command that executes: approvals asked on the
/// terminal (or `--yes`), answers from the flags then the terminal, live
/// step progress.
pub fn exec_world(home: &Path, exec: &ExecArgs) -> Result<World, CliError> {
    let term = Terminal::new();
    let mut scripted = ScriptedAnswers::new().with_flags(&exec.answers);
    if let Some(f) = &exec.answers_file {
        scripted = ScriptedAnswers::from_file(f)
            .map_err(CliError::msg)?
            .with_flags(&exec.answers);
    }
    let prompter: Arc<dyn UserPrompter> = Arc::new(FirstAnswer(vec![
        Arc::new(scripted),
        Arc::new(TerminalAsk::new(term.clone())),
    ]));
    let approver: Arc<dyn Approver> = if exec.yes {
        Arc::new(AutoApprove)
    } else {
        Arc::new(TerminalApprover::new(term.clone()))
    };
    let mut opts = base_options(home)?;
    opts.policy_file = exec.policy.clone();
    opts.prompter = prompter;
    opts.approver = approver;
    opts.progress = Some(Arc::new(StepProgress::new(term)));
    opened(World::open(opts)?)
}

fn base_options(home: &Path) -> Result<WorldOptions, CliError> {
    let mut opts = WorldOptions::new(home);
    opts.env = Env::process();
    opts.index_progress = Some(index_progress());
    opts.cwd = std::env::current_dir()
        .map_err(|e| CliError::msg(format!("reading the current directory: {e}")))?;
    Ok(opts)
}

/// Below this many texts to embed, embedding is quiet (the built-ins take
/// about a second).
const INDEX_NOTICE_MIN: usize = 64;

/// Embedding progress on stderr, for a catalog the embedding cache does
/// not hold yet (the first plan or import after a large import): on a
/// terminal a counter updated in place; otherwise one line when it starts
/// and one when it ends.
fn index_progress() -> ccos_world::IndexProgressSink {
    use std::io::{IsTerminal, Write};
    let tty = std::io::stderr().is_terminal();
    let started = std::sync::Mutex::new(std::time::Instant::now());
    Arc::new(move |done: usize, total: usize| {
        if total < INDEX_NOTICE_MIN {
            return;
        }
        let mut err = std::io::stderr().lock();
        if done == 0 {
            if let Ok(mut t) = started.lock() {
                *t = std::time::Instant::now();
            }
            let _ = writeln!(
                err,
                "embedding {total} capabilities for semantic resolution (once: the vectors are cached in $CCOS_HOME)"
            );
        } else if tty {
            let _ = write!(err, "\r  {done}/{total}");
            if done == total {
                let _ = writeln!(err);
            }
        }
        if done == total && done > 0 {
            let secs = started
                .lock()
                .map(|t| t.elapsed().as_secs_f64())
                .unwrap_or(0.0);
            let _ = writeln!(err, "embedded {total} capabilities in {secs:.1} s");
        }
    })
}

/// Reads a plan: a file (bounded, UTF-8) or `-` for stdin. Returns the
/// name to show in messages and the text.
pub fn read_source(file: &Path) -> Result<(String, String), CliError> {
    use ccos_core::text::{MAX_INPUT_BYTES, read_bounded, read_file_bounded};
    if file == Path::new("-") {
        let text = read_bounded(std::io::stdin().lock(), MAX_INPUT_BYTES, "stdin")
            .map_err(CliError::msg)?;
        return Ok(("<stdin>".into(), text));
    }
    let text = read_file_bounded(file, MAX_INPUT_BYTES, false)
        .map_err(CliError::msg)?
        .unwrap_or_default();
    Ok((file.display().to_string(), text))
}

/// Prints `value` as pretty JSON on stdout (every `--json` output), its
/// strings redacted structurally.
pub fn print_json(value: &impl serde::Serialize) -> Result<(), CliError> {
    let mut j = serde_json::to_value(value)
        .map_err(|e| CliError::msg(format!("encoding JSON output: {e}")))?;
    if let Some(r) = SECRETS.get() {
        j = r.redact_json(&j);
    }
    let text = serde_json::to_string_pretty(&j)
        .map_err(|e| CliError::msg(format!("encoding JSON output: {e}")))?;
    println!("{text}");
    Ok(())
}
