//! `ccos agents list|show`: the agent registry (synthesized RTFS agents and
//! other agent cards), with the execution outcomes that drive their trust.

use std::path::Path;

use clap::Subcommand;
use serde_json::json;

use crate::exit::CliError;
use crate::open::{out, print_json, read_world};

/// `ccos agents` subcommands.
#[derive(Subcommand, Debug)]
pub enum AgentsCommand {
    /// List registered agents (id, trust tier, skills, outcomes).
    List {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Show one agent: card, plan, outcomes.
    Show {
        /// The agent id.
        id: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Runs a `ccos agents` subcommand.
pub fn run(cmd: AgentsCommand, home: &Path) -> Result<(), CliError> {
    let world = read_world(home, None)?;
    let mp = world.marketplace()?;
    let store = world.store()?;
    match cmd {
        AgentsCommand::List { json } => {
            let cards = mp.agent_cards();
            let mut stats = vec![];
            for c in &cards {
                stats.push(world.block_on(store.outcome_stats(&c.id))?);
            }
            if json {
                let rows: Vec<_> = cards
                    .iter()
                    .zip(&stats)
                    .map(|(c, (ok, failed))| {
                        json!({"id": c.id, "trust_tier": c.trust_tier, "skills": c.skills,
                               "context_keys": c.context_keys, "rtfs": c.plan.is_some(),
                               "ok": ok, "failed": failed, "description": c.description})
                    })
                    .collect();
                return print_json(&rows);
            }
            if cards.is_empty() {
                out("no agents registered (ccos synth agent CONTEXT.json creates one)");
            }
            for (c, (ok, failed)) in cards.iter().zip(&stats) {
                out(format!(
                    "{}  {}  skills [{}]  runs {}/{} ok  {}",
                    c.id,
                    c.trust_tier.as_str(),
                    c.skills.join(" "),
                    ok,
                    ok + failed,
                    c.description
                ));
            }
            Ok(())
        }
        AgentsCommand::Show { id, json } => {
            let Some(card) = mp.get_agent(&id) else {
                let near: Vec<String> = mp
                    .agent_cards()
                    .into_iter()
                    .map(|c| c.id)
                    .filter(|c| c.contains(&id) || id.contains(c.as_str()))
                    .collect();
                return Err(CliError::msg(if near.is_empty() {
                    format!("no agent {id} (see ccos agents list)")
                } else {
                    format!("no agent {id}; did you mean {}?", near.join(", "))
                }));
            };
            let (ok, failed) = world.block_on(store.outcome_stats(&id))?;
            if json {
                return print_json(&json!({"agent": card, "ok": ok, "failed": failed,
                    "callable": mp.contains(&id)}));
            }
            out(format!("id:           {}", card.id));
            out(format!("description:  {}", card.description));
            out(format!("trust tier:   {}", card.trust_tier.as_str()));
            out(format!("skills:       {}", card.skills.join(", ")));
            out(format!("context keys: {}", card.context_keys.join(", ")));
            out(format!("outcomes:     {ok} ok, {failed} failed"));
            out(format!(
                "callable:     {}",
                if mp.contains(&id) { "yes" } else { "no" }
            ));
            if let Some(plan) = &card.plan {
                out(format!("plan:\n{plan}"));
            }
            Ok(())
        }
    }
}
