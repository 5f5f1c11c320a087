//! `ccos graph show|list`: the intent graph.

use std::path::Path;

use clap::Subcommand;

use crate::exit::{CliError, Exit};
use crate::open::{out, print_json, read_world};
use crate::term::{fit, stdout_width};

/// Intent-graph subcommands.
#[derive(Subcommand)]
pub enum GraphCommand {
    /// Show an intent, its sub-intents and their edges.
    Show {
        /// The intent id.
        id: String,
        /// Print `{"intents": [...], "edges": [...]}` as JSON.
        #[arg(long)]
        json: bool,
    },
    /// List intents, newest last.
    List {
        /// Only intents with this status (`pending`, `active`,
        /// `completed`, `failed`, `abandoned`).
        #[arg(long, value_name = "S")]
        status: Option<String>,
        /// Print a JSON array.
        #[arg(long)]
        json: bool,
    },
}

/// Runs a graph subcommand.
pub fn run(cmd: GraphCommand, home: &Path) -> Result<(), CliError> {
    // Validate arguments before touching the store.
    let status = match &cmd {
        GraphCommand::List {
            status: Some(s), ..
        } => Some(
            s.parse::<ccos_store::IntentStatus>()
                .map_err(|e| CliError::with_code(Exit::Usage, e))?,
        ),
        _ => None,
    };
    let world = read_world(home, None)?;
    let store = world.store()?;
    match cmd {
        GraphCommand::Show { id, json } => {
            let sub = world.block_on(store.subgraph(&id))?;
            if json {
                return print_json(&sub);
            }
            for (i, it) in sub.intents.iter().enumerate() {
                if i == 1 {
                    out("sub-intents:");
                }
                let indent = if i == 0 { "" } else { "  " };
                out(format!("{indent}{} [{}] {}", it.id, it.status, it.goal));
                if i == 0 {
                    out(format!(
                        "  created {}  updated {}",
                        it.created_at, it.updated_at
                    ));
                    for (k, v) in [
                        ("constraints", &it.constraints),
                        ("preferences", &it.preferences),
                        ("metadata", &it.metadata),
                    ] {
                        if v.as_object().map(|m| !m.is_empty()).unwrap_or(!v.is_null()) {
                            out(format!("  {k}: {v}"));
                        }
                    }
                }
            }
            if !sub.edges.is_empty() {
                out("edges:");
                for e in &sub.edges {
                    out(format!("  {} -[{}]-> {}", e.from, e.kind, e.to));
                }
            }
            Ok(())
        }
        GraphCommand::List { json, .. } => {
            let intents = world.block_on(store.list_intents(status))?;
            if json {
                return print_json(&intents);
            }
            if intents.is_empty() {
                out("(no intents)");
            }
            let width = stdout_width();
            for it in &intents {
                out(fit(
                    &format!(
                        "{}  {:<10} {}  {}",
                        it.id,
                        it.status.as_str(),
                        it.created_at,
                        it.goal
                    ),
                    width,
                ));
            }
            Ok(())
        }
    }
}
