//! `ccos eval DATASET`: measures the planner on a public benchmark (see
//! `ccos_bench`), beside the BM25 baseline.

use std::path::{Path, PathBuf};

use ccos_bench::{self as eval, DATASETS, EvalOptions, Part};
use clap::Args;

use crate::exit::{CliError, Exit};

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
    /// Resolution strategy to measure: `catalog` (lexical), `composite`
    /// (catalog and MCP rankings fused by reciprocal rank fusion),
    /// `semantic` (embedding cosine; needs the model, see
    /// scripts/setup-model.sh) or `fused` (catalog + semantic, RRF).
    #[arg(long, value_enum, default_value_t = Strategy::Catalog)]
    pub strategy: Strategy,
    /// Which part of each split: `all`, `dev` (for tuning) or `test` (for
    /// reporting); a seeded 30/70 split by query position.
    #[arg(long, value_enum, default_value_t = PartArg::All)]
    pub part: PartArg,
    /// RRF weight of the semantic ranking in `--strategy fused` (the
    /// catalog's is 1); tune on `--part dev` only.
    #[arg(long, value_name = "W", default_value_t = ccos_planner::resolution::SEMANTIC_WEIGHT)]
    pub semantic_weight: f64,
}

/// `--part` values.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartArg {
    /// Every query.
    All,
    /// The dev part.
    Dev,
    /// The test part.
    Test,
}

/// The resolution strategies `ccos eval` can measure.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// `CatalogResolution`.
    Catalog,
    /// `CompositeResolution::lexical`.
    Composite,
    /// `SemanticResolution` (all-MiniLM-L6-v2 embeddings).
    Semantic,
    /// `CompositeResolution::fused`: catalog + semantic.
    Fused,
}

/// Runs `ccos eval`.
pub fn run(args: EvalArgs, home: &Path) -> Result<(), CliError> {
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
    #[cfg(not(feature = "semantic"))]
    if matches!(args.strategy, Strategy::Semantic | Strategy::Fused) {
        return Err(semantic_unavailable());
    }
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
        part: match args.part {
            PartArg::All => Part::All,
            PartArg::Dev => Part::Dev,
            PartArg::Test => Part::Test,
        },
    };
    #[cfg(feature = "semantic")]
    let embedder = match args.strategy {
        Strategy::Semantic | Strategy::Fused => {
            let dir = match std::env::var_os("CCOS_EMBED_MODEL_DIR") {
                Some(d) if !d.is_empty() => PathBuf::from(d),
                _ => home.join("models").join("all-MiniLM-L6-v2"),
            };
            let e = ccos_embed::Embedder::load(&dir).map_err(|e| {
                CliError::msg(format!(
                    "--strategy semantic/fused needs the embedding model: {e}"
                ))
            })?;
            Some(std::sync::Arc::new(e))
        }
        _ => None,
    };
    #[cfg(not(feature = "semantic"))]
    let _ = home;
    let mut reports = Vec::new();
    for name in names {
        let ds = eval::load(name, &dir).map_err(CliError::msg)?;
        let report = match args.strategy {
            Strategy::Catalog => eval::evaluate(&ds, opts),
            Strategy::Composite => {
                eval::evaluate_with(&ds, opts, ccos_planner::CompositeResolution::lexical)
            }
            #[cfg(not(feature = "semantic"))]
            Strategy::Semantic | Strategy::Fused => return Err(semantic_unavailable()),
            #[cfg(feature = "semantic")]
            Strategy::Semantic | Strategy::Fused => {
                use ccos_planner::CompositeResolution;
                use ccos_planner::resolution::{SemanticIndex, SemanticResolution};
                use std::sync::Arc;
                let Some(e) = embedder.clone() else {
                    return Err(CliError::msg("embedding model not loaded"));
                };
                let (mp, _) = eval::build_marketplace(&ds.tools).map_err(CliError::msg)?;
                let index = SemanticIndex::from_marketplace(e, &mp)
                    .map_err(|e| CliError::msg(format!("embedding the {name} tools: {e}")))?;
                let texts: Vec<&str> = ds
                    .splits
                    .iter()
                    .flat_map(|s| eval::select(s, opts))
                    .map(|q| q.text.as_str())
                    .collect();
                let semantic = SemanticResolution::new(Arc::new(index))
                    .prime(&texts)
                    .map_err(|e| CliError::msg(format!("embedding the {name} queries: {e}")))?;
                if args.strategy == Strategy::Semantic {
                    eval::evaluate_with(&ds, opts, |_| semantic)
                } else {
                    eval::evaluate_with(&ds, opts, |mp| {
                        CompositeResolution::fused_weighted(
                            mp,
                            Box::new(semantic),
                            args.semantic_weight,
                        )
                    })
                }
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

/// The usage error of a semantic strategy in a build without the feature.
#[cfg(not(feature = "semantic"))]
fn semantic_unavailable() -> CliError {
    CliError::with_code(
        Exit::Usage,
        "--strategy semantic/fused needs a ccos built with the `semantic` feature (cargo run -p ccos-cli --features semantic -- eval ...)",
    )
}
