//! `ccos rtfs eval|fmt|check`: the language on its own, no capabilities.

use std::path::PathBuf;

use clap::Subcommand;

use crate::exit::{CliError, Exit};
use crate::open::read_source;

/// RTFS subcommands.
#[derive(Subcommand)]
pub enum RtfsCommand {
    /// Evaluate a file (pure: any `(call ...)` fails) and print its value.
    Eval {
        /// The RTFS source, or `-` for stdin.
        file: PathBuf,
        /// Print the value as JSON.
        #[arg(long)]
        json: bool,
        /// Stop the evaluation after this many milliseconds.
        #[arg(long, default_value_t = 60_000, value_name = "MS")]
        timeout_ms: u64,
        /// Stop the evaluation once it holds more than this many MiB of
        /// live memory.
        #[arg(long, default_value_t = 1024, value_name = "MIB")]
        max_memory_mb: u64,
    },
    /// Print a file's forms in the canonical layout.
    Fmt {
        /// The RTFS source, or `-` for stdin.
        file: PathBuf,
        /// Line width.
        #[arg(long, default_value_t = 80)]
        width: usize,
    },
    /// Parse a file and report syntax errors.
    Check {
        /// The RTFS source, or `-` for stdin.
        file: PathBuf,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Runs an rtfs subcommand.
pub fn run(cmd: RtfsCommand) -> Result<(), CliError> {
    match cmd {
        RtfsCommand::Eval {
            file,
            json,
            timeout_ms,
            max_memory_mb,
        } => {
            let (name, src) = read_source(&file)?;
            let host = rtfs::DeadlineHost::new(std::time::Duration::from_millis(timeout_ms))
                .with_memory_limit(max_memory_mb.saturating_mul(1024 * 1024));
            let value = rtfs::Evaluator::new(&host)
                .eval_str(&src)
                .map_err(|e| CliError::diagnostic(e.with_source(&name, src.clone())))?;
            if json {
                let j = rtfs::to_json(&value)
                    .map_err(|e| CliError::msg(format!("the value has no JSON form: {e}")))?;
                println!("{j}");
            } else {
                println!("{value}");
            }
            Ok(())
        }
        RtfsCommand::Fmt { file, width } => {
            let (name, src) = read_source(&file)?;
            let forms = rtfs::parse(&src)
                .map_err(|e| CliError::diagnostic(e.with_source(&name, src.clone())))?;
            for f in &forms {
                println!("{}", rtfs::pretty(&f.to_value(), width));
            }
            Ok(())
        }
        RtfsCommand::Check { file, json } => {
            let (name, src) = read_source(&file)?;
            match rtfs::parse(&src) {
                Ok(forms) => {
                    if json {
                        println!(
                            "{}",
                            serde_json::json!({"ok": true, "forms": forms.len(), "errors": []})
                        );
                    } else {
                        println!("{name}: ok ({} top-level form(s))", forms.len());
                    }
                    Ok(())
                }
                Err(e) => {
                    if json {
                        let (line, col) = e
                            .span
                            .map(|s| rtfs::line_col(&src, s.start))
                            .unwrap_or((0, 0));
                        println!(
                            "{}",
                            serde_json::json!({"ok": false, "errors": [{
                                "code": e.kind.code(), "message": e.message, "help": e.help,
                                "line": line, "column": col,
                                "span": e.span.map(|s| [s.start, s.end]),
                            }]})
                        );
                        Err(CliError::silent(Exit::Error))
                    } else {
                        Err(CliError::diagnostic(e.with_source(&name, src)))
                    }
                }
            }
        }
    }
}
