//! `ccos agents list|show`: the agent registry (synthesized RTFS agents and
//! other agent cards), with the execution outcomes that drive their trust.

use ccos_marketplace::Marketplace;
use clap::Subcommand;
use serde_json::json;

use crate::cmd::chain::with_store;
use crate::exit::CliError;
use crate::home::Home;

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

fn catalog(home: &Home) -> Result<Marketplace, CliError> {
    Marketplace::open(home.join("catalog")).map_err(CliError::msg)
}

/// Runs a `ccos agents` subcommand.
pub fn run(cmd: AgentsCommand, home: &Home) -> Result<(), CliError> {
    let mp = catalog(home)?;
    match cmd {
        AgentsCommand::List { json } => {
            let cards = mp.agent_cards();
            let stats = with_store(home, async |store| {
                let mut out = vec![];
                for c in &cards {
                    out.push(store.outcome_stats(&c.id).await.map_err(CliError::msg)?);
                }
                Ok(out)
            })?;
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
                return crate::cmd::print_json(&rows);
            }
            if cards.is_empty() {
                println!("no agents registered (ccos synth agent CONTEXT.json creates one)");
            }
            for (c, (ok, failed)) in cards.iter().zip(&stats) {
                println!(
                    "{}  {}  skills [{}]  runs {}/{} ok  {}",
                    c.id,
                    c.trust_tier.as_str(),
                    c.skills.join(" "),
                    ok,
                    ok + failed,
                    c.description
                );
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
            let (ok, failed) = with_store(home, async |store| {
                store.outcome_stats(&id).await.map_err(CliError::msg)
            })?;
            if json {
                return crate::cmd::print_json(&json!({"agent": card, "ok": ok, "failed": failed,
                    "callable": mp.contains(&id)}));
            }
            println!("id:           {}", card.id);
            println!("description:  {}", card.description);
            println!("trust tier:   {}", card.trust_tier.as_str());
            println!("skills:       {}", card.skills.join(", "));
            println!("context keys: {}", card.context_keys.join(", "));
            println!("outcomes:     {ok} ok, {failed} failed");
            println!(
                "callable:     {}",
                if mp.contains(&id) { "yes" } else { "no" }
            );
            if let Some(plan) = &card.plan {
                println!("plan:\n{plan}");
            }
            Ok(())
        }
    }
}
