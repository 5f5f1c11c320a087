//! `ccos intent "GOAL"`: ask the configured LLM for an intent (spec 006:
//! RTFS first, JSON fallback), store it in the IntentGraph with its
//! `parse_format`, append the LLM exchanges to the causal chain, print it.
//!
//! Output: the intent as RTFS (a `;; intent <id> (parse_format ...)` line
//! first), or as JSON with `--json` (with `id`). Exit codes: 0 stored,
//! 2 no LLM configured (the message says how to configure one), 1 the
//! model failed or answered something unreadable (the raw answer is shown).

use std::path::Path;

use clap::Args;

use crate::exit::CliError;
use crate::open::{out, print_json, read_world};

/// `ccos intent` arguments.
#[derive(Args, Debug)]
pub struct IntentArgs {
    /// The goal, in words.
    pub goal: String,
    /// Print the intent as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `ccos intent`.
pub fn run(args: IntentArgs, home: &Path) -> Result<(), CliError> {
    let world = read_world(home, None)?;
    let (intent, id) = world.generate_intent(&args.goal)?;
    if args.json {
        let mut j = intent.to_json();
        j["id"] = id.into();
        print_json(&j)
    } else {
        out(format!(
            ";; intent {id} (parse_format {})",
            intent.parse_format.as_str()
        ));
        out(intent.to_rtfs());
        Ok(())
    }
}
