//! `ccos intent "GOAL"`: ask the configured LLM for an intent (spec 006:
//! RTFS first, JSON fallback), store it in the IntentGraph with its
//! `parse_format`, append the LLM exchanges to the causal chain, print it.
//!
//! Output: the intent as RTFS (a `;; intent <id> (parse_format ...)` line
//! first), or as JSON with `--json` (with `id`). Exit codes: 0 stored,
//! 2 no LLM configured (the message says how to configure one), 1 the
//! model failed or answered something unreadable (the raw answer is shown).

use clap::Args;

use ccos_planner::llm::intent_gen::{IntentGenError, generate_intent};
use ccos_planner::llm::record::{record_exchanges, record_generated_intent};

use crate::cmd::chain::open_store;
use crate::config::Config;
use crate::exit::CliError;
use crate::home::Home;

/// `ccos intent` arguments.
#[derive(Args, Debug)]
pub struct IntentArgs {
    /// The goal, in words.
    pub goal: String,
    /// Print the intent as JSON instead of RTFS.
    #[arg(long)]
    pub json: bool,
}

/// Runs `ccos intent`.
pub fn run(args: IntentArgs, home: &Home) -> Result<(), CliError> {
    let config = Config::load(home)?;
    let provider = crate::llm::require_provider(&config)?;
    let recorder = crate::llm::recorder(&config, provider);
    let generated = generate_intent(&recorder, &args.goal);
    let exchanges = recorder.take_exchanges();
    let id = crate::rt::block_on(async {
        let store = open_store(home, &config).await?;
        let result = match &generated {
            Ok(intent) => record_generated_intent(&store, intent, &exchanges)
                .await
                .map(Some),
            // A failed generation still leaves its exchanges in the chain.
            Err(_) => record_exchanges(&store, None, &exchanges)
                .await
                .map(|_| None),
        };
        store.close().await;
        result.map_err(|e| CliError::msg(format!("recording the intent: {e}")))
    })??;
    let intent = generated.map_err(|e: IntentGenError| CliError::msg(e))?;
    let id = id.unwrap_or_default();
    if args.json {
        let mut j = intent.to_json();
        j["id"] = id.into();
        crate::cmd::print_json(&j)
    } else {
        println!(
            ";; intent {id} (parse_format {})",
            intent.parse_format.as_str()
        );
        println!("{}", intent.to_rtfs());
        Ok(())
    }
}
