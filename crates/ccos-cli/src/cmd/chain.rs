//! `ccos chain show|verify`: read and check the tamper-evident causal chain.

use clap::Subcommand;

use crate::config::Config;
use crate::exit::{CliError, Exit};
use crate::home::Home;

/// Causal-chain subcommands.
#[derive(Subcommand)]
pub enum ChainCommand {
    /// Print chain entries (all, or those of one intent, plan or run).
    Show {
        /// Only entries concerning this intent.
        #[arg(long, value_name = "ID", conflicts_with_all = ["plan", "run"])]
        intent: Option<String>,
        /// Only entries concerning this plan.
        #[arg(long, value_name = "ID", conflicts_with = "run")]
        plan: Option<String>,
        /// Only entries of this run.
        #[arg(long, value_name = "ID")]
        run: Option<String>,
        /// Print a JSON array of entries.
        #[arg(long)]
        json: bool,
    },
    /// Check every hash link; exit 1 naming the first broken entry.
    Verify {
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Opens the store `config` names for `home` (`CCOS_DATABASE_URL`, the
/// config file, else SQLite under home).
pub async fn open_store(home: &Home, config: &Config) -> Result<ccos_store::Store, CliError> {
    ccos_store::Store::open(&config.database_url(home))
        .await
        .map_err(|e| CliError::msg(format!("opening the store: {e}")))
}

/// Opens the store, runs `f` with it and closes it: the body of every
/// store subcommand (`chain`, `graph`, `plans`).
pub fn with_store<T>(
    home: &Home,
    f: impl AsyncFnOnce(&ccos_store::Store) -> Result<T, CliError>,
) -> Result<T, CliError> {
    let config = Config::load(home)?;
    crate::rt::block_on(async move {
        let store = open_store(home, &config).await?;
        let result = f(&store).await;
        store.close().await;
        result
    })?
}

/// Maps a store error to a CLI error.
pub fn store_err(e: ccos_store::StoreError) -> CliError {
    CliError::msg(e)
}

/// Runs a chain subcommand.
pub fn run(cmd: ChainCommand, home: &Home) -> Result<(), CliError> {
    with_store(home, async |store| run_with(store, cmd).await)
}

async fn run_with(store: &ccos_store::Store, cmd: ChainCommand) -> Result<(), CliError> {
    match cmd {
        ChainCommand::Show {
            intent,
            plan,
            run,
            json,
        } => {
            let entries = match (intent, plan, run) {
                (Some(i), _, _) => store.chain_by_intent(&i).await,
                (_, Some(p), _) => store.chain_by_plan(&p).await,
                (_, _, Some(r)) => store.chain_by_run(&r).await,
                _ => store.chain_all().await,
            }
            .map_err(store_err)?;
            if json {
                return crate::cmd::print_json(&entries);
            }
            if entries.is_empty() {
                println!("(no entries)");
            }
            for e in &entries {
                let mut ids = String::new();
                for (k, v) in [
                    ("intent", &e.intent_id),
                    ("plan", &e.plan_id),
                    ("run", &e.run_id),
                ] {
                    if let Some(v) = v {
                        ids.push_str(&format!(" {k}={v}"));
                    }
                }
                println!(
                    "#{} {} {}{} {} hash={}",
                    e.seq,
                    e.timestamp,
                    e.kind,
                    ids,
                    ccos_store::canonical::canonical_json(&e.payload),
                    e.hash.get(..12).unwrap_or(&e.hash)
                );
            }
            Ok(())
        }
        ChainCommand::Verify { json } => {
            let report = store.verify_chain().await.map_err(store_err)?;
            if json {
                crate::cmd::print_json(&report)?;
                return if report.ok {
                    Ok(())
                } else {
                    Err(CliError::silent(Exit::Error))
                };
            }
            if report.ok {
                println!("chain ok: {} entries verified", report.entries_checked);
                Ok(())
            } else {
                let seq = report
                    .first_bad_seq
                    .map(|s| s.to_string())
                    .unwrap_or_else(|| "?".into());
                Err(CliError::msg(format!(
                    "causal chain broken at entry {seq}: {}",
                    report.reason.as_deref().unwrap_or("unknown reason")
                )))
            }
        }
    }
}
