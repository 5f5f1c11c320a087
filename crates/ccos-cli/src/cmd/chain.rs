//! `ccos chain show|verify|export`: read, check and export the
//! tamper-evident causal chain (format: `docs/chain-format.md`).

use std::path::Path;

use ccos_core::audit::canonical::canonical_json;
use clap::Subcommand;

use crate::exit::{CliError, Exit};
use crate::open::{out, print_json, read_world};
use crate::term::stdout_width;

/// Causal-chain subcommands.
#[derive(Subcommand)]
pub enum ChainCommand {
    /// Print chain entries (all, or those of one intent, plan or run);
    /// long payloads are cut to the line (`--full` prints them whole).
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
        /// Print payloads whole.
        #[arg(long)]
        full: bool,
        /// Print a JSON array of entries.
        #[arg(long)]
        json: bool,
    },
    /// Check every hash link and the recorded head; exit 1 naming the
    /// first broken or missing entry. On success prints the head hash,
    /// which commits to the whole chain: keep it elsewhere to detect a
    /// later rewrite of the whole store.
    Verify {
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Write the whole chain as JSON Lines (one entry per line), for
    /// independent verification (`scripts/verify-chain.py`).
    Export,
}

/// Payloads longer than this are cut in `chain show` unless `--full`.
const PAYLOAD_PREVIEW: usize = 160;

/// Runs a chain subcommand.
pub fn run(cmd: ChainCommand, home: &Path) -> Result<(), CliError> {
    let world = read_world(home, None)?;
    // Reading the chain writes nothing to it (no abandoned-run sweep).
    let store = world.audit_store()?;
    match cmd {
        ChainCommand::Show {
            intent,
            plan,
            run,
            full,
            json,
        } => {
            let entries = world.block_on(async {
                match (intent, plan, run) {
                    (Some(i), _, _) => store.chain_by_intent(&i).await,
                    (_, Some(p), _) => store.chain_by_plan(&p).await,
                    (_, _, Some(r)) => store.chain_by_run(&r).await,
                    _ => store.chain_all().await,
                }
            })?;
            if json {
                return print_json(&entries);
            }
            if entries.is_empty() {
                out("(no entries)");
            }
            let limit = stdout_width().map_or(PAYLOAD_PREVIEW, |w| w.max(PAYLOAD_PREVIEW / 2));
            let mut cut = false;
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
                let mut payload =
                    canonical_json(&e.payload).unwrap_or_else(|_| e.payload.to_string());
                if !full && payload.chars().count() > limit {
                    payload = payload.chars().take(limit).collect::<String>() + "…";
                    cut = true;
                }
                out(format!(
                    "#{} {} {}{} {} hash={}",
                    e.seq,
                    e.timestamp,
                    e.kind,
                    ids,
                    payload,
                    e.hash.get(..12).unwrap_or(&e.hash)
                ));
            }
            if cut {
                crate::open::note("(long payloads cut; --full prints them whole)");
            }
            Ok(())
        }
        ChainCommand::Verify { json } => {
            let report = world.block_on(store.verify_chain())?;
            if json {
                print_json(&report)?;
                return if report.ok {
                    Ok(())
                } else {
                    Err(CliError::silent(Exit::Error))
                };
            }
            if report.ok {
                out(format!(
                    "chain ok: {} entries verified{}",
                    report.entries_checked,
                    report
                        .head_hash
                        .as_deref()
                        .map(|h| format!("; head {h}"))
                        .unwrap_or_default()
                ));
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
        ChainCommand::Export => {
            let entries = world.block_on(store.chain_all())?;
            for e in &entries {
                let line = serde_json::to_string(e)
                    .map_err(|err| CliError::msg(format!("encoding entry {}: {err}", e.seq)))?;
                println!("{line}");
            }
            Ok(())
        }
    }
}
