//! `ccos caps list|show|search|import-openapi`: the capability catalog.
//!
//! The catalog lives in `$CCOS_HOME/catalog/`; built-in capabilities are
//! always present (registered in code), imported ones are persisted there.

use std::path::PathBuf;

use ccos_marketplace::builtins::{self, BuiltinConfig};
use ccos_marketplace::{CapabilityManifest, Marketplace};
use clap::Subcommand;

use crate::exit::CliError;
use crate::home::Home;

/// Capability catalog subcommands.
#[derive(Subcommand)]
pub enum CapsCommand {
    /// List every capability, sorted by id.
    List {
        /// Print the manifests as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Show one capability's manifest.
    Show {
        /// The capability id, e.g. `ccos.math.add`.
        id: String,
        /// Print the manifest as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Search capabilities by free text (ids with relevance scores).
    Search {
        /// What to look for, e.g. "count words in a file".
        text: String,
        /// How many results.
        #[arg(short = 'k', long = "top", default_value_t = 10)]
        k: usize,
        /// Print `[{"id", "score"}]` as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Import every operation of an OpenAPI 3 document (JSON) into the catalog.
    ImportOpenapi {
        /// The OpenAPI document (JSON).
        file: PathBuf,
        /// Base URL of the API (default: the document's first server).
        #[arg(long, value_name = "URL")]
        base_url: Option<String>,
        /// Id prefix (default: from the document title).
        #[arg(long, value_name = "NAME")]
        prefix: Option<String>,
        /// Print `{"imported": N, "ids": [...]}` as JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Opens the catalog under `home` with the built-ins registered.
pub fn open_catalog(home: &Home) -> Result<Marketplace, CliError> {
    let mp = Marketplace::open(home.join("catalog")).map_err(CliError::msg)?;
    builtins::install(&mp, BuiltinConfig::default()).map_err(CliError::msg)?;
    Ok(mp)
}

/// The first line of a description, cut to `max` characters.
fn summary(text: &str, max: usize) -> String {
    let line = text.lines().next().unwrap_or("").trim();
    if line.chars().count() > max {
        let mut s: String = line.chars().take(max.saturating_sub(1)).collect();
        s.push('…');
        s
    } else {
        line.to_string()
    }
}

fn effects(m: &CapabilityManifest) -> String {
    m.effective_effects()
        .iter()
        .map(|e| e.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

/// Runs a caps subcommand.
pub fn run(cmd: CapsCommand, home: &Home) -> Result<(), CliError> {
    let mp = open_catalog(home)?;
    match cmd {
        CapsCommand::List { json } => {
            let all = mp.list();
            if json {
                return crate::cmd::print_json(&all);
            }
            for m in &all {
                println!(
                    "{}  [{} {} {}]  {}",
                    m.id,
                    m.provider.label(),
                    m.trust_tier.as_str(),
                    effects(m),
                    summary(&m.description, 80)
                );
            }
            Ok(())
        }
        CapsCommand::Show { id, json } => {
            let Some(m) = mp.get(&id) else {
                let near = mp.closest_ids(&id, 3);
                let hint = if near.is_empty() {
                    String::new()
                } else {
                    format!("; did you mean {}?", near.join(", "))
                };
                return Err(CliError::msg(format!("no capability {id}{hint}")));
            };
            if json {
                return crate::cmd::print_json(&m);
            }
            println!("id:          {}", m.id);
            println!("name:        {}", m.name);
            println!("provider:    {}", m.provider.label());
            println!("trust tier:  {}", m.trust_tier.as_str());
            println!("local:       {}", m.local);
            println!("effects:     {}", effects(&m));
            println!("version:     {}", m.version);
            if let ccos_marketplace::ProviderSpec::OpenApi {
                base_url,
                method,
                path,
                ..
            } = &m.provider
            {
                println!("endpoint:    {method} {base_url}{path}");
            }
            println!("description: {}", m.description.trim());
            let input = serde_json::to_string_pretty(&m.input_schema)
                .map_err(|e| CliError::msg(format!("formatting JSON: {e}")))?;
            println!("input schema:\n{input}");
            for ex in &m.examples {
                println!("example:     {ex}");
            }
            Ok(())
        }
        CapsCommand::Search { text, k, json } => {
            let hits = mp.search(&text, k).map_err(CliError::msg)?;
            if json {
                let v: Vec<serde_json::Value> = hits
                    .iter()
                    .map(|(id, score)| {
                        // Four decimals: stable, readable output.
                        let score = (f64::from(*score) * 10_000.0).round() / 10_000.0;
                        serde_json::json!({"id": id, "score": score})
                    })
                    .collect();
                return crate::cmd::print_json(&v);
            }
            for (id, score) in &hits {
                let desc = mp
                    .get(id)
                    .map(|m| summary(&m.description, 70))
                    .unwrap_or_default();
                println!("{score:>8.3}  {id}  {desc}");
            }
            Ok(())
        }
        CapsCommand::ImportOpenapi {
            file,
            base_url,
            prefix,
            json,
        } => {
            let text = std::fs::read_to_string(&file)
                .map_err(|e| CliError::msg(format!("reading {}: {e}", file.display())))?;
            let doc: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
                CliError::msg(format!(
                    "{}: invalid JSON at line {} column {} ({e}); only JSON OpenAPI documents are supported",
                    file.display(),
                    e.line(),
                    e.column()
                ))
            })?;
            let caps =
                ccos_marketplace::openapi::import(&doc, base_url.as_deref(), prefix.as_deref())
                    .map_err(|e| CliError::msg(format!("{}: {e}", file.display())))?;
            let ids: Vec<String> = caps.iter().map(|c| c.id.clone()).collect();
            mp.replace_all(caps).map_err(CliError::msg)?;
            if json {
                return crate::cmd::print_json(
                    &serde_json::json!({"imported": ids.len(), "ids": ids}),
                );
            }
            println!(
                "imported {} capabilities from {} into {}",
                ids.len(),
                file.display(),
                home.join("catalog").display()
            );
            Ok(())
        }
    }
}
