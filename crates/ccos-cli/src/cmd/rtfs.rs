//! `ccos rtfs eval|fmt|check`: the language on its own, no capabilities.

use std::io::Read;
use std::path::{Path, PathBuf};

use clap::Subcommand;

use crate::exit::CliError;
use crate::home::Home;

/// RTFS subcommands.
#[derive(Subcommand)]
pub enum RtfsCommand {
    /// Evaluate a program (no capabilities: every `call` fails) and print its value.
    Eval {
        /// Source file, or `-` for stdin.
        file: PathBuf,
        /// Print the value as JSON instead of canonical RTFS.
        #[arg(long)]
        json: bool,
    },
    /// Print the canonical, pretty-printed form of a program.
    Fmt {
        /// Source file, or `-` for stdin.
        file: PathBuf,
        /// Line width for the layout.
        #[arg(long, default_value_t = 80)]
        width: usize,
    },
    /// Parse a program and report syntax problems.
    Check {
        /// Source file, or `-` for stdin.
        file: PathBuf,
        /// Print the result as JSON (`{"ok": bool, "errors": [...]}`).
        #[arg(long)]
        json: bool,
    },
}

/// Reads a source file, `-` meaning stdin; returns (display name, text).
pub fn read_source(file: &Path) -> Result<(String, String), CliError> {
    if file == Path::new("-") {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| CliError::msg(format!("reading stdin: {e}")))?;
        Ok(("<stdin>".into(), s))
    } else {
        let s = std::fs::read_to_string(file)
            .map_err(|e| CliError::msg(format!("reading {}: {e}", file.display())))?;
        Ok((file.display().to_string(), s))
    }
}

/// Runs an RTFS subcommand.
pub fn run(cmd: RtfsCommand, _home: &Home) -> Result<(), CliError> {
    match cmd {
        RtfsCommand::Eval { file, json } => {
            let (name, src) = read_source(&file)?;
            let value = rtfs::eval_str(&src)
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
                        Err(CliError::silent(crate::exit::Exit::Error))
                    } else {
                        Err(CliError::diagnostic(e.with_source(&name, src)))
                    }
                }
            }
        }
    }
}
