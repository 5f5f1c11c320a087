//! One module per subcommand group, and the output helpers they share.

use serde::Serialize;

use crate::exit::CliError;

/// Prints `value` as pretty JSON on stdout (every `--json` output).
pub fn print_json(value: &impl Serialize) -> Result<(), CliError> {
    let text = serde_json::to_string_pretty(value)
        .map_err(|e| CliError::msg(format!("encoding JSON output: {e}")))?;
    println!("{text}");
    Ok(())
}

pub mod agents;
pub mod caps;
pub mod chain;
pub mod check;
pub mod eval;
pub mod graph;
pub mod intent;
pub mod mcp;
pub mod plan;
pub mod plan_llm;
pub mod plans;
pub mod rtfs;
pub mod run;
pub mod synth;
