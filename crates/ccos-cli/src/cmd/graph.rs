//! `ccos graph show|list`: the intent graph.

use clap::Subcommand;

use crate::cmd::chain::{store_err, with_store};
use crate::cmd::print_json;
use crate::exit::CliError;
use crate::home::Home;

/// Intent-graph subcommands.
#[derive(Subcommand)]
pub enum GraphCommand {
    /// Show an intent, its sub-intents (recursively) and the edges among them.
    Show {
        /// The intent id.
        id: String,
        /// Print `{"intents": [...], "edges": [...]}`.
        #[arg(long)]
        json: bool,
    },
    /// List intents, oldest first.
    List {
        /// Only intents with this status (pending, planned, executing,
        /// completed, failed, abandoned).
        #[arg(long, value_name = "S")]
        status: Option<String>,
        /// Print a JSON array.
        #[arg(long)]
        json: bool,
    },
}

/// Runs a graph subcommand.
pub fn run(cmd: GraphCommand, home: &Home) -> Result<(), CliError> {
    // Validate arguments before touching the store.
    let status = match &cmd {
        GraphCommand::List {
            status: Some(s), ..
        } => Some(
            s.parse::<ccos_store::IntentStatus>()
                .map_err(|e| CliError::with_code(crate::exit::Exit::Usage, e))?,
        ),
        _ => None,
    };
    with_store(home, async |store| run_with(store, cmd, status).await)
}

async fn run_with(
    store: &ccos_store::Store,
    cmd: GraphCommand,
    status: Option<ccos_store::IntentStatus>,
) -> Result<(), CliError> {
    match cmd {
        GraphCommand::Show { id, json } => {
            let sub = store.subgraph(&id).await.map_err(store_err)?;
            if json {
                return print_json(&sub);
            }
            for (i, it) in sub.intents.iter().enumerate() {
                if i == 1 {
                    println!("sub-intents:");
                }
                let indent = if i == 0 { "" } else { "  " };
                println!("{indent}{} [{}] {}", it.id, it.status, it.goal);
                if i == 0 {
                    println!("  created {}  updated {}", it.created_at, it.updated_at);
                    for (k, v) in [
                        ("constraints", &it.constraints),
                        ("preferences", &it.preferences),
                        ("metadata", &it.metadata),
                    ] {
                        if v.as_object().map(|m| !m.is_empty()).unwrap_or(!v.is_null()) {
                            println!("  {k}: {}", ccos_store::canonical::canonical_json(v));
                        }
                    }
                }
            }
            if !sub.edges.is_empty() {
                println!("edges:");
                for e in &sub.edges {
                    println!("  {} -[{}]-> {}", e.from, e.kind, e.to);
                }
            }
            Ok(())
        }
        GraphCommand::List { json, .. } => {
            let intents = store.list_intents(status).await.map_err(store_err)?;
            if json {
                return print_json(&intents);
            }
            if intents.is_empty() {
                println!("(no intents)");
            }
            for it in &intents {
                println!(
                    "{}  {:<10} {}  {}",
                    it.id,
                    it.status.as_str(),
                    it.created_at,
                    it.goal
                );
            }
            Ok(())
        }
    }
}
