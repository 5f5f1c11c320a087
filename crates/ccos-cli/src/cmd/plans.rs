//! `ccos plans list|show`: the plan archive.

use clap::Subcommand;

use crate::cmd::chain::{store_err, with_store};
use crate::cmd::print_json;
use crate::exit::CliError;
use crate::home::Home;

/// Plan-archive subcommands.
#[derive(Subcommand)]
pub enum PlansCommand {
    /// List archived plans, newest first.
    List {
        /// Print a JSON array.
        #[arg(long)]
        json: bool,
    },
    /// Show one plan: its RTFS source, IR, diagnostics and status.
    Show {
        /// The plan id.
        id: String,
        /// Print the plan as JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Runs a plans subcommand.
pub fn run(cmd: PlansCommand, home: &Home) -> Result<(), CliError> {
    with_store(home, async |store| run_with(store, cmd).await)
}

async fn run_with(store: &ccos_store::Store, cmd: PlansCommand) -> Result<(), CliError> {
    match cmd {
        PlansCommand::List { json } => {
            let plans = store.list_plans().await.map_err(store_err)?;
            if json {
                return print_json(&plans);
            }
            if plans.is_empty() {
                println!("(no plans)");
            }
            for p in &plans {
                println!(
                    "{}  {:<10} {}  intent={} mode={}",
                    p.id, p.status, p.created_at, p.intent_id, p.generation_mode
                );
            }
            Ok(())
        }
        PlansCommand::Show { id, json } => {
            let plan = store
                .get_plan(&id)
                .await
                .map_err(store_err)?
                .ok_or_else(|| CliError::msg(format!("plan `{id}` not found")))?;
            if json {
                return print_json(&plan);
            }
            println!("plan {}  [{}]", plan.id, plan.status);
            println!("intent: {}", plan.intent_id);
            println!("created: {}", plan.created_at);
            println!("generation mode: {}", plan.generation_mode);
            if !plan
                .diagnostics
                .as_array()
                .map(|a| a.is_empty())
                .unwrap_or(plan.diagnostics.is_null())
            {
                println!(
                    "diagnostics: {}",
                    ccos_store::canonical::canonical_json(&plan.diagnostics)
                );
            }
            if let Some(ir) = &plan.ir {
                println!("ir: {}", ccos_store::canonical::canonical_json(ir));
            }
            println!("---");
            println!("{}", plan.rtfs.trim_end());
            Ok(())
        }
    }
}
