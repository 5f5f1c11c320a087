//! `ccos eval DATASET`: measures the planner on a public benchmark (see
//! `ccos_bench`), beside the BM25 baseline; `ccos eval goals`: the
//! project's goal suite end to end through this binary
//! (`ccos_bench::goals`); `ccos eval bfcl`: what `ccos plan` answers on
//! the BFCL function-calling sets (`ccos_bench::bfcl`).

use std::path::{Path, PathBuf};

use ccos_bench::goals::runner::{RunnerOptions, run_suite};
use ccos_bench::goals::{self, SuitePart};
use ccos_bench::{self as eval, DATASETS, EvalOptions, Part, bfcl};
use clap::{Args, Subcommand};

use crate::exit::{CliError, Exit};

/// Arguments of `ccos eval`: a dataset, or the `goals` / `bfcl`
/// subcommands.
#[derive(Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct EvalArgs {
    /// The end-to-end measurements (goal suite, BFCL).
    #[command(subcommand)]
    pub command: Option<EvalCommand>,
    /// Dataset: metatool, ultratool, restbench, seal-tools, or all.
    #[arg(required = true)]
    pub dataset: Option<String>,
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

/// The end-to-end measurements.
#[derive(Subcommand)]
pub enum EvalCommand {
    /// The goal suite (goals/dev.toml, goals/held-out.toml) end to end
    /// through this binary: right / wrong / requires-agent / error per
    /// part, by kind and category, and issue #15's bars. Exit 0 whatever
    /// the figures (with `--strict`: 1 when a goal is wrong); 1 when the
    /// harness itself fails.
    Goals(GoalsArgs),
    /// What `ccos plan` answers on the BFCL sets (simple, multiple,
    /// parallel, parallel_multiple, irrelevance): gold function called,
    /// arguments acceptable, requires-agent, irrelevance refused.
    Bfcl(BfclArgs),
}

/// `--part` of `ccos eval goals`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoalsPart {
    /// goals/dev.toml (may be tuned on).
    Dev,
    /// goals/held-out.toml (never tune on it).
    HeldOut,
    /// Both, reported separately and together.
    All,
}

/// Arguments of `ccos eval goals`.
#[derive(Args)]
pub struct GoalsArgs {
    /// Which part of the suite.
    #[arg(long, value_enum, default_value_t = GoalsPart::All)]
    pub part: GoalsPart,
    /// Run only the goals whose id equals or starts with ID (repeatable).
    #[arg(long, value_name = "ID")]
    pub only: Vec<String>,
    /// Print the report as JSON (with every goal's outcome).
    #[arg(long)]
    pub json: bool,
    /// Goals run in parallel.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub jobs: usize,
    /// The repository (its goals/ and tools/mcp/). Defaults to the one
    /// containing the current directory.
    #[arg(long, value_name = "DIR")]
    pub repo: Option<PathBuf>,
    /// The bench directory (the TMDB document is imported from it).
    /// Defaults to $CCOS_BENCH_DIR, else `<repo>/../shared/bench`.
    #[arg(long, env = "CCOS_BENCH_DIR", value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// No per-goal progress lines on stderr.
    #[arg(long)]
    pub quiet: bool,
    /// Keep the run directory (every goal's home, workspace and
    /// repository) for inspection; the report names it.
    #[arg(long)]
    pub keep: bool,
    /// Exit 1 (after printing the report) when any goal is wrong: exit 0
    /// with a value that is not the answer.
    #[arg(long)]
    pub strict: bool,
}

/// `--part` of `ccos eval bfcl`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BfclPart {
    /// The dev part (calibrate the bars on it).
    Dev,
    /// The test part (report it).
    Test,
    /// Every case.
    All,
}

/// Arguments of `ccos eval bfcl`.
#[derive(Args)]
pub struct BfclArgs {
    /// Which part of each set (about 30/70 dev/test, by a hash of the
    /// case's position, as for the other datasets).
    #[arg(long, value_enum, default_value_t = BfclPart::All)]
    pub part: BfclPart,
    /// Print the report as JSON (with every case's answer and calls).
    #[arg(long)]
    pub json: bool,
    /// Evaluate at most N cases of each set.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Only the case with this id (repeatable), or the cases whose id
    /// starts with ID when it ends in `_`: `--only simple_python_12`,
    /// `--only parallel_`.
    #[arg(long, value_name = "ID")]
    pub only: Vec<String>,
    /// Print each case's question and decision trace (candidates, scores,
    /// why each was refused) after the table; with --json, under `explain`.
    #[arg(long)]
    pub explain: bool,
    /// The bench directory (its bfcl/). Defaults to $CCOS_BENCH_DIR, else
    /// `<repo root>/../shared/bench` with the repo root found from the
    /// current directory.
    #[arg(long, env = "CCOS_BENCH_DIR", value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
}

/// The repository containing the current directory.
fn repo_root() -> Result<PathBuf, CliError> {
    let cwd = std::env::current_dir()
        .map_err(|e| CliError::msg(format!("reading the current directory: {e}")))?;
    eval::find_repo_root(&cwd).ok_or_else(|| {
        CliError::msg(format!(
            "{} is not inside the ccos repository; run from it or pass --repo DIR",
            cwd.display()
        ))
    })
}

/// `--data-dir`, else the bench directory next to the repository of the
/// current directory (or the current directory itself).
fn bench_dir(arg: Option<PathBuf>) -> Result<PathBuf, CliError> {
    if let Some(d) = arg.filter(|p| !p.as_os_str().is_empty()) {
        return Ok(d);
    }
    let cwd = std::env::current_dir()
        .map_err(|e| CliError::msg(format!("reading the current directory: {e}")))?;
    let root = eval::find_repo_root(&cwd).unwrap_or(cwd);
    Ok(eval::bench_dir_for_repo(&root))
}

fn print_json(value: &impl serde::Serialize) -> Result<(), CliError> {
    let j = serde_json::to_string_pretty(value)
        .map_err(|e| CliError::msg(format!("encoding the report: {e}")))?;
    println!("{j}");
    Ok(())
}

/// Runs `ccos eval goals`.
fn run_goals(args: GoalsArgs) -> Result<(), CliError> {
    let repo_root = match args.repo {
        Some(r) => r,
        None => repo_root()?,
    };
    let bench_dir = match args.data_dir.filter(|p| !p.as_os_str().is_empty()) {
        Some(d) => d,
        None => eval::bench_dir_for_repo(&repo_root),
    };
    let binary = std::env::current_exe()
        .map_err(|e| CliError::msg(format!("locating the ccos binary: {e}")))?;
    let opts = RunnerOptions {
        binary,
        repo_root,
        bench_dir,
        part: match args.part {
            GoalsPart::Dev => SuitePart::Dev,
            GoalsPart::HeldOut => SuitePart::HeldOut,
            GoalsPart::All => SuitePart::All,
        },
        only: args.only,
        jobs: args.jobs.max(1),
        keep: args.keep,
        env: std::env::vars_os().collect(),
    };
    let quiet = args.quiet;
    let progress = move |done: usize, total: usize, r: &goals::GoalResult| {
        if quiet {
            return;
        }
        let why = r
            .classified
            .reason
            .as_deref()
            .map(|w| format!("  {}", goals::shorten(w, 100)))
            .unwrap_or_default();
        eprintln!(
            "[{done:>3}/{total}] {:<12} {:<14} {:>6.1}s{why}",
            r.id,
            r.classified.outcome.as_str(),
            r.seconds
        );
    };
    let report = run_suite(&opts, &progress).map_err(CliError::msg)?;
    if args.json {
        print_json(&report)?;
    } else {
        print!("{}", goals::render_report(&report));
    }
    let wrong = goals::wrong_ids(&report);
    if args.strict && !wrong.is_empty() {
        return Err(CliError::msg(format!(
            "--strict: {} wrong answer(s): {}",
            wrong.len(),
            wrong.join(" ")
        )));
    }
    Ok(())
}

/// Runs `ccos eval bfcl`.
fn run_bfcl(args: BfclArgs) -> Result<(), CliError> {
    let dir = bfcl::bfcl_dir(&bench_dir(args.data_dir)?);
    if !dir.is_dir() {
        return Err(CliError::msg(format!(
            "BFCL directory {} not found; pass --data-dir DIR or set CCOS_BENCH_DIR",
            dir.display()
        )));
    }
    let opts = bfcl::BfclOptions {
        part: match args.part {
            BfclPart::Dev => Part::Dev,
            BfclPart::Test => Part::Test,
            BfclPart::All => Part::All,
        },
        limit: args.limit,
        only: args.only,
        explain: args.explain,
    };
    let report = bfcl::evaluate(&dir, opts).map_err(CliError::msg)?;
    if args.json {
        print_json(&report)
    } else {
        print!("{}", bfcl::render(&report));
        Ok(())
    }
}

/// Runs `ccos eval`.
pub fn run(args: EvalArgs, home: &Path) -> Result<(), CliError> {
    match args.command {
        Some(EvalCommand::Goals(g)) => return run_goals(g),
        Some(EvalCommand::Bfcl(b)) => return run_bfcl(b),
        None => {}
    }
    let Some(dataset) = args.dataset.as_deref() else {
        return Err(CliError::with_code(
            Exit::Usage,
            "give a dataset, `goals` or `bfcl`",
        ));
    };
    let names: Vec<&str> = if dataset == "all" {
        DATASETS.to_vec()
    } else if DATASETS.contains(&dataset) {
        vec![dataset]
    } else {
        return Err(CliError::with_code(
            Exit::Usage,
            format!(
                "unknown dataset {dataset:?}; expected one of: {}, all, goals, bfcl",
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
