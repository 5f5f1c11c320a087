//! `ccos plans list|show`: the plan archive.

use std::path::Path;

use clap::Subcommand;
use serde_json::json;

use crate::exit::CliError;
use crate::open::{out, print_json, read_world};
use crate::term::{fit, stdout_width};

/// Plan-archive subcommands.
#[derive(Subcommand)]
pub enum PlansCommand {
    /// List archived plans, oldest first, with the goal each serves.
    List {
        /// Print a JSON array.
        #[arg(long)]
        json: bool,
    },
    /// Show one plan: its intent, status, generation mode, diagnostics, text.
    Show {
        /// The plan id.
        id: String,
        /// Print the plan record as JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Runs a plans subcommand.
pub fn run(cmd: PlansCommand, home: &Path) -> Result<(), CliError> {
    let world = read_world(home, None)?;
    let store = world.store()?;
    match cmd {
        PlansCommand::List { json } => {
            let plans = world.block_on(store.list_plans())?;
            let mut goals = std::collections::BTreeMap::new();
            for p in &plans {
                if !goals.contains_key(&p.intent_id) {
                    let g = world
                        .block_on(store.get_intent(&p.intent_id))?
                        .map(|i| i.goal)
                        .unwrap_or_default();
                    goals.insert(p.intent_id.clone(), g);
                }
            }
            if json {
                let rows: Vec<_> = plans
                    .iter()
                    .map(|p| {
                        let mut j = serde_json::to_value(p).unwrap_or_default();
                        j["goal"] = json!(goals.get(&p.intent_id));
                        j
                    })
                    .collect();
                return print_json(&rows);
            }
            if plans.is_empty() {
                out("(no plans)");
            }
            let width = stdout_width();
            for p in &plans {
                out(fit(
                    &format!(
                        "{}  {:<10} {}  {:<8} {}",
                        p.id,
                        p.status,
                        p.created_at,
                        p.generation_mode,
                        goals.get(&p.intent_id).map(String::as_str).unwrap_or("")
                    ),
                    width,
                ));
            }
            Ok(())
        }
        PlansCommand::Show { id, json } => {
            let plan = world
                .block_on(store.get_plan(&id))?
                .ok_or_else(|| CliError::msg(format!("plan `{id}` not found")))?;
            if json {
                return print_json(&plan);
            }
            let goal = world
                .block_on(store.get_intent(&plan.intent_id))?
                .map(|i| i.goal)
                .unwrap_or_default();
            out(format!("plan {}  [{}]", plan.id, plan.status));
            out(format!("intent: {}  {goal}", plan.intent_id));
            out(format!("created: {}", plan.created_at));
            out(format!("generation mode: {}", plan.generation_mode));
            if !plan
                .diagnostics
                .as_array()
                .map(|a| a.is_empty())
                .unwrap_or(plan.diagnostics.is_null())
            {
                out(format!("diagnostics: {}", plan.diagnostics));
            }
            if let Some(ir) = &plan.ir {
                out(format!("ir: {ir}"));
            }
            out("---");
            out(plan.rtfs.trim_end());
            Ok(())
        }
    }
}
