//! `ccos eval DATASET`: measures capability resolution on a public
//! benchmark (see `ccos_planner::eval`), beside the BM25 baseline.

use std::path::PathBuf;

use clap::Args;

use ccos_planner::eval::{self, DATASETS, EvalOptions};

use crate::exit::{CliError, Exit};
use crate::home::Home;

/// Arguments of `ccos eval`.
#[derive(Args)]
pub struct EvalArgs {
    /// Dataset: metatool, ultratool, restbench, seal-tools, or all.
    pub dataset: String,
    /// Print the figures as JSON (one array of dataset reports).
    #[arg(long)]
    pub json: bool,
    /// Evaluate at most N queries of each split.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Evaluate every Nth query of each split (deterministic subset).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub every: usize,
    /// The bench directory. Defaults to $CCOS_BENCH_DIR, else
    /// `<repo root>/../shared/bench` with the repo root found from the
    /// current directory.
    #[arg(long, env = "CCOS_BENCH_DIR", value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Resolution strategy to measure: `catalog` (the planner's default) or
    /// `composite` (catalog and MCP rankings fused by reciprocal rank fusion).
    #[arg(long, value_enum, default_value_t = Strategy::Catalog)]
    pub strategy: Strategy,
}

/// The resolution strategies `ccos eval` can measure.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// `CatalogResolution`.
    Catalog,
    /// `CompositeResolution::lexical`.
    Composite,
}

/// Runs `ccos eval`.
pub fn run(args: EvalArgs, _home: &Home) -> Result<(), CliError> {
    let names: Vec<&str> = if args.dataset == "all" {
        DATASETS.to_vec()
    } else if DATASETS.contains(&args.dataset.as_str()) {
        vec![args.dataset.as_str()]
    } else {
        return Err(CliError::with_code(
            Exit::Usage,
            format!(
                "unknown dataset {:?}; expected one of: {}, all",
                args.dataset,
                DATASETS.join(", ")
            ),
        ));
    };
    let dir = match args.data_dir.filter(|p| !p.as_os_str().is_empty()) {
        Some(d) => d,
        None => {
            let cwd = std::env::current_dir()
                .map_err(|e| CliError::msg(format!("reading the current directory: {e}")))?;
            let root = eval::find_repo_root(&cwd).unwrap_or(cwd);
            eval::bench_dir_for_repo(&root)
        }
    };
    if !dir.is_dir() {
        return Err(CliError::msg(format!(
            "bench directory {} not found; pass --data-dir DIR or set CCOS_BENCH_DIR",
            dir.display()
        )));
    }
    let opts = EvalOptions {
        every: args.every.max(1),
        limit: args.limit,
    };
    let mut reports = Vec::new();
    for name in names {
        let ds = eval::load(name, &dir).map_err(CliError::msg)?;
        let report = match args.strategy {
            Strategy::Catalog => eval::evaluate(&ds, opts),
            Strategy::Composite => {
                eval::evaluate_with(&ds, opts, ccos_planner::CompositeResolution::lexical)
            }
        }
        .map_err(CliError::msg)?;
        if !args.json {
            println!("{}", eval::render_table(&report));
        }
        reports.push(report);
    }
    if args.json {
        let j = serde_json::to_string_pretty(&reports)
            .map_err(|e| CliError::msg(format!("encoding the report: {e}")))?;
        println!("{j}");
    }
    Ok(())
}
