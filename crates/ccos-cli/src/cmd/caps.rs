//! `ccos caps list|show|search|import-openapi`: the capability catalog.
//!
//! The catalog lives in `$CCOS_HOME/catalog/`; built-in capabilities are
//! always present (registered in code), imported ones are persisted there.

use std::path::{Path, PathBuf};

use ccos_marketplace::CapabilityManifest;
use clap::Subcommand;

use crate::exit::CliError;
use crate::open::{out, print_json, read_world};
use crate::term::{fit, stdout_width};

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
    /// Remove a capability (or, with --prefix, every capability of an
    /// import: `ccos caps remove tmdb --prefix`).
    Remove {
        /// The capability id, or with --prefix the id prefix.
        id: String,
        /// Remove every capability whose id starts with `ID.`.
        #[arg(long)]
        prefix: bool,
        /// Print `{"removed": [...]}` as JSON.
        #[arg(long)]
        json: bool,
    },
}

/// The first line of a description.
fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("").trim()
}

fn effects(m: &CapabilityManifest) -> String {
    m.effective_effects()
        .iter()
        .map(|e| e.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

/// Runs a caps subcommand.
pub fn run(cmd: CapsCommand, home: &Path) -> Result<(), CliError> {
    let world = read_world(home, None)?;
    let mp = world.marketplace()?;
    let width = stdout_width();
    match cmd {
        CapsCommand::List { json } => {
            let all = mp.list();
            if json {
                return print_json(&all);
            }
            for m in &all {
                out(fit(
                    &format!(
                        "{}  [{} {} {}]  {}",
                        m.id,
                        m.provider.label(),
                        m.trust_tier.as_str(),
                        effects(m),
                        first_line(&m.description)
                    ),
                    width,
                ));
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
                return print_json(&m);
            }
            out(format!("id:          {}", m.id));
            out(format!("name:        {}", m.name));
            out(format!("provider:    {}", m.provider.label()));
            out(format!("trust tier:  {}", m.trust_tier.as_str()));
            out(format!("local:       {}", m.local));
            out(format!("effects:     {}", effects(&m)));
            out(format!("version:     {}", m.version));
            if let ccos_marketplace::ProviderSpec::OpenApi {
                base_url,
                method,
                path,
                ..
            } = &m.provider
            {
                out(format!("endpoint:    {method} {base_url}{path}"));
            }
            out(format!("description: {}", m.description.trim()));
            let input = serde_json::to_string_pretty(&m.input_schema)
                .map_err(|e| CliError::msg(format!("formatting JSON: {e}")))?;
            out(format!("input schema:\n{input}"));
            for ex in &m.examples {
                out(format!("example:     {ex}"));
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
                return print_json(&v);
            }
            for (id, score) in &hits {
                let desc = mp
                    .get(id)
                    .map(|m| first_line(&m.description).to_string())
                    .unwrap_or_default();
                out(fit(&format!("{score:>8.3}  {id}  {desc}"), width));
            }
            Ok(())
        }
        CapsCommand::ImportOpenapi {
            file,
            base_url,
            prefix,
            json,
        } => {
            let ids = world.import_openapi(&file, base_url.as_deref(), prefix.as_deref())?;
            let semantic = super::index_catalog(&world);
            if json {
                return print_json(
                    &serde_json::json!({"imported": ids.len(), "ids": ids, "semantic": semantic}),
                );
            }
            out(format!(
                "imported {} capabilities from {} into {}",
                ids.len(),
                file.display(),
                world.home().join("catalog").display()
            ));
            let prefix = ids.first().and_then(|i| i.split('.').next()).unwrap_or("");
            out(format!(
                "calls reach the API's host only if it is in [http] allow_hosts; undo with: ccos caps remove {prefix} --prefix"
            ));
            Ok(())
        }
        CapsCommand::Remove { id, prefix, json } => {
            let removed = world.remove_capabilities(&id, prefix)?;
            if json {
                return print_json(&serde_json::json!({"removed": removed}));
            }
            for r in &removed {
                out(format!("removed {r}"));
            }
            Ok(())
        }
    }
}
