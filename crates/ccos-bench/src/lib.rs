//! The evaluation harness: resolution, decomposition and argument filling
//! measured on public tool-use benchmarks.
//!
//! For each dataset ([`datasets::load`]) every tool becomes one manifest of
//! a temporary in-memory [`Marketplace`] (description, and parameters as
//! the input schema where the dataset has them; provider `rtfs` with body
//! `nil`, never called). Each query is resolved as ONE sub-intent (type
//! `other`: decomposition comes later) by [`CatalogResolution`], and the
//! top 5 are scored with [`metrics`] against the gold tools. Figures are
//! printed beside the BM25 baseline of `../shared/bench/README.md`
//! ([`baselines`]).
//!
//! Decomposition and arguments ([`decomposition`]): on splits with gold
//! links (UltraTool, RestBench) each query is also decomposed by
//! [`HybridDecomposition`] (patterns → clauses → whole goal) and each
//! sub-intent resolved top-1, giving TaskBench node-F1 and link-F1 beside
//! the published GPT-4 range; on Seal-Tools the chosen calls' arguments are
//! filled from the query's literals and scored by exact match.
//!
//! Subsets: `limit` keeps the first N queries of each split; `every` keeps
//! every Nth query (1 = all). Both are deterministic.
//!
//! End to end, what the planner answers rather than how it ranks:
//! [`bfcl`] plans the BFCL function-calling questions with `ccos plan`'s
//! deterministic planner and scores the plan's calls; [`goals`] runs the
//! repository's goal suite through the real binary, each goal classified
//! right / wrong / requires-agent / error.

pub mod bfcl;
pub mod csv;
pub mod datasets;
pub mod decomposition;
pub mod goals;
pub mod metrics;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use ccos_marketplace::{CapabilityManifest, Marketplace, ProviderSpec, TrustTier};
use serde::Serialize;
use serde_json::json;

pub use datasets::{DATASETS, Dataset, bench_dir_for_repo, find_repo_root, load};
pub use decomposition::{ArgumentSummary, DecompositionSummary};
pub use metrics::{Summary, score_query};

use ccos_planner::decompose::{HybridDecomposition, PatternDecomposition};
use ccos_planner::intent::{IntentType, SubIntent};
use ccos_planner::resolution::{CatalogResolution, ResolutionStrategy};

/// Why an evaluation could not run.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// A dataset file could not be read.
    #[error("reading {path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        message: String,
    },
    /// A dataset file is not in the expected format.
    #[error("parsing {path}: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// Not one of [`DATASETS`].
    #[error("unknown dataset {0:?}; expected one of: metatool, ultratool, restbench, seal-tools")]
    UnknownDataset(String),
    /// Building the temporary marketplace or resolving failed.
    #[error("{0}")]
    Planner(String),
}

/// One parameter of a dataset tool.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolParam {
    /// Parameter name.
    pub name: String,
    /// Type as the dataset spells it (`str`, `int`...), may be empty.
    pub ty: String,
    /// Description, may be empty.
    pub description: String,
}

/// One tool of a dataset.
#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    /// The dataset's tool name (gold labels use it).
    pub name: String,
    /// Its description.
    pub description: String,
    /// Its parameters (empty when the dataset has none).
    pub params: Vec<ToolParam>,
    /// Required parameter names.
    pub required: Vec<String>,
}

/// One query with its gold tools.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Query {
    /// The dataset's id (or row number).
    pub id: String,
    /// The request text.
    pub text: String,
    /// Gold tool names.
    pub gold: BTreeSet<String>,
    /// Gold `(source, target)` tool links, for TaskBench-format datasets
    /// (UltraTool, RestBench); `None` elsewhere. Scores decomposition.
    pub links: Option<BTreeSet<(String, String)>>,
    /// Gold calls with their arguments (Seal-Tools); empty elsewhere.
    /// Scores argument filling.
    pub calls: Vec<GoldCall>,
}

/// One gold call of a query (Seal-Tools `calling` entry).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GoldCall {
    /// The tool name.
    pub api: String,
    /// Gold arguments by parameter name (values as the dataset has them;
    /// a string equal to an earlier call's label refers to its result).
    pub arguments: BTreeMap<String, serde_json::Value>,
    /// The labels this call's results get (`API_call_0`...).
    pub labels: Vec<String>,
}

/// A named list of queries scored together.
#[derive(Debug, Clone)]
pub struct Split {
    /// Display name (`MetaTool single-tool`).
    pub name: String,
    /// The queries.
    pub queries: Vec<Query>,
    /// The published BM25 figures for this split, if any.
    pub baseline: Option<Baseline>,
}

/// BM25 baseline figures (percent) of one split.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Baseline {
    /// hit@1.
    pub hit1: f64,
    /// recall@5.
    pub recall5: f64,
    /// nDCG@5.
    pub ndcg5: f64,
    /// COMP@5 (none for single-tool splits).
    pub comp5: Option<f64>,
}

/// The "Numbers to beat" table of `../shared/bench/README.md` (Okapi BM25,
/// k1 = 1.2, b = 0.75, document = name + description + parameter text,
/// identifiers split into words). Figures only, in percent.
pub mod baselines {
    use super::Baseline;

    const fn b(hit1: f64, recall5: f64, ndcg5: f64, comp5: Option<f64>) -> Baseline {
        Baseline {
            hit1,
            recall5,
            ndcg5,
            comp5,
        }
    }

    /// README row "MetaTool single-tool".
    pub const METATOOL_SINGLE: Baseline = b(38.2, 55.0, 47.2, None);
    /// README row "MetaTool two-tool".
    pub const METATOOL_TWO: Baseline = b(35.6, 49.7, 42.4, Some(22.5));
    /// README row "RestBench-TMDB (tools of the gold plan)".
    pub const RESTBENCH: Baseline = b(47.0, 46.4, 44.3, Some(26.0));
    /// README row "UltraTool (tools of the gold plan)".
    pub const ULTRATOOL: Baseline = b(55.5, 64.5, 58.7, Some(39.1));
    /// README row "Seal-Tools", in-domain column.
    pub const SEAL_IN: Baseline = b(96.0, 89.5, 89.6, Some(72.7));
    /// README row "Seal-Tools", out-of-domain column.
    pub const SEAL_OUT: Baseline = b(95.4, 84.9, 86.1, Some(59.6));
}

/// Which part of a split to evaluate: the honest dev/test split.
///
/// Each query belongs to dev or test by a seeded hash of its position in
/// its split (SHA-256 of `"ccos-eval-split-v1:<index>"`, first two bytes
/// modulo 100 below [`DEV_PERCENT`] → dev): deterministic, independent of
/// the query text, about 30% dev / 70% test. Anything tuned (fusion
/// weights, bars) is chosen on dev; figures are reported on test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    /// Every query.
    #[default]
    All,
    /// The dev part (tuning only).
    Dev,
    /// The test part (reported figures).
    Test,
}

/// Share of each split, in percent, in the dev part.
pub const DEV_PERCENT: u32 = 30;

impl Part {
    /// Whether the query at `index` of its split belongs to this part.
    pub fn contains(self, index: usize) -> bool {
        use sha2::{Digest, Sha256};
        let dev = || {
            let h = Sha256::digest(format!("ccos-eval-split-v1:{index}").as_bytes());
            (u32::from(h[0]) << 8 | u32::from(h[1])) % 100 < DEV_PERCENT
        };
        match self {
            Part::All => true,
            Part::Dev => dev(),
            Part::Test => !dev(),
        }
    }

    /// `all`, `dev` or `test`.
    pub fn as_str(self) -> &'static str {
        match self {
            Part::All => "all",
            Part::Dev => "dev",
            Part::Test => "test",
        }
    }
}

/// Which queries to evaluate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EvalOptions {
    /// Keep every Nth query of each split (1 = all; 0 is treated as 1).
    pub every: usize,
    /// Then keep at most this many queries per split.
    pub limit: Option<usize>,
    /// First keep only the queries of this part (dev/test split).
    pub part: Part,
}

impl Default for EvalOptions {
    fn default() -> Self {
        EvalOptions {
            every: 1,
            limit: None,
            part: Part::All,
        }
    }
}

/// The queries of `split` that `opts` selects: the part, then every Nth,
/// then at most `limit`. Deterministic.
pub fn select<'a>(split: &'a Split, opts: EvalOptions) -> impl Iterator<Item = &'a Query> + 'a {
    split
        .queries
        .iter()
        .enumerate()
        .filter(move |(i, _)| opts.part.contains(*i))
        .map(|(_, q)| q)
        .step_by(opts.every.max(1))
        .take(opts.limit.unwrap_or(usize::MAX))
}

/// The figures of one split.
#[derive(Debug, Clone, Serialize)]
pub struct SplitReport {
    /// Split name.
    pub split: String,
    /// Queries in the split before subsetting.
    pub total_queries: usize,
    /// Our figures.
    pub ours: Summary,
    /// The BM25 baseline, if published.
    pub baseline: Option<Baseline>,
    /// Wall-clock seconds for resolving and scoring this split.
    pub seconds: f64,
    /// Decomposition figures (node-F1, link-F1), for splits with gold
    /// links (UltraTool, RestBench); see [`decomposition`].
    pub decomposition: Option<DecompositionSummary>,
    /// Argument exact match, for splits with gold calls (Seal-Tools).
    pub arguments: Option<ArgumentSummary>,
    /// Wall-clock seconds of the decomposition + argument pass.
    pub decomposition_seconds: f64,
}

/// The figures of one dataset.
#[derive(Debug, Clone, Serialize)]
pub struct DatasetReport {
    /// Dataset name.
    pub dataset: String,
    /// Number of tools in the catalog.
    pub tools: usize,
    /// Strategy used.
    pub strategy: String,
    /// Subsetting applied.
    pub every: usize,
    /// Per-split limit applied.
    pub limit: Option<usize>,
    /// The dev/test part evaluated.
    pub part: Part,
    /// Seconds spent loading files and building the marketplace.
    pub load_seconds: f64,
    /// One entry per split.
    pub splits: Vec<SplitReport>,
}

/// Turns a dataset tool name into a valid capability id: characters outside
/// `[A-Za-z0-9_.-]` become `_`, length is capped, and collisions get a
/// numeric suffix. Returns `(id → name)` for every tool, in tool order.
fn tool_ids(tools: &[Tool]) -> Vec<String> {
    let mut used = BTreeSet::new();
    let mut out = Vec::with_capacity(tools.len());
    for t in tools {
        let mut base: String = t
            .name
            .chars()
            .map(|c| {
                if ccos_marketplace::ids::is_id_char(c) {
                    c
                } else {
                    '_'
                }
            })
            .take(100)
            .collect();
        if base.is_empty() {
            base.push('_');
        }
        let mut id = base.clone();
        let mut n = 2;
        while !used.insert(id.clone()) {
            id = format!("{base}-{n}");
            n += 1;
        }
        out.push(id);
    }
    out
}

/// JSON Schema type for a dataset type name.
fn json_type(ty: &str) -> Option<&'static str> {
    match ty.to_ascii_lowercase().as_str() {
        "str" | "string" => Some("string"),
        "int" | "integer" => Some("integer"),
        "float" | "number" | "double" => Some("number"),
        "bool" | "boolean" => Some("boolean"),
        "list" | "array" => Some("array"),
        "dict" | "object" => Some("object"),
        _ => None,
    }
}

/// The manifest of a dataset tool (never executed).
fn manifest(id: &str, t: &Tool) -> CapabilityManifest {
    let mut props = serde_json::Map::new();
    for p in &t.params {
        let mut s = serde_json::Map::new();
        if let Some(ty) = json_type(&p.ty) {
            s.insert("type".into(), json!(ty));
        }
        if !p.description.is_empty() {
            s.insert("description".into(), json!(p.description));
        }
        props.insert(p.name.clone(), serde_json::Value::Object(s));
    }
    CapabilityManifest {
        id: id.to_string(),
        name: t.name.clone(),
        description: t.description.clone(),
        version: "0".into(),
        input_schema: json!({"type": "object", "properties": props, "required": t.required}),
        output_schema: None,
        provider: ProviderSpec::Rtfs { body: "nil".into() },
        trust_tier: TrustTier::Community,
        local: false,
        effects: BTreeSet::new(),
        examples: vec![],
    }
}

/// Builds the temporary marketplace of a dataset; returns it with the map
/// from capability id back to the dataset's tool name.
pub fn build_marketplace(
    tools: &[Tool],
) -> Result<(Arc<Marketplace>, BTreeMap<String, String>), EvalError> {
    let mp = Marketplace::new().map_err(|e| EvalError::Planner(e.to_string()))?;
    let ids = tool_ids(tools);
    let manifests: Vec<CapabilityManifest> = ids
        .iter()
        .zip(tools)
        .map(|(id, t)| manifest(id, t))
        .collect();
    mp.replace_all(manifests)
        .map_err(|e| EvalError::Planner(format!("registering the dataset tools: {e}")))?;
    let names = ids
        .into_iter()
        .zip(tools)
        .map(|(id, t)| (id, t.name.clone()))
        .collect();
    Ok((Arc::new(mp), names))
}

/// Evaluates a loaded dataset with [`CatalogResolution`] (default weights).
pub fn evaluate(dataset: &Dataset, opts: EvalOptions) -> Result<DatasetReport, EvalError> {
    evaluate_with(dataset, opts, CatalogResolution::new)
}

/// Evaluates a loaded dataset with the strategy `make` builds over the
/// dataset's temporary marketplace (so other strategies, e.g. semantic or
/// fused ones, are measured the same way).
pub fn evaluate_with<S: ResolutionStrategy>(
    dataset: &Dataset,
    opts: EvalOptions,
    make: impl FnOnce(Arc<Marketplace>) -> S,
) -> Result<DatasetReport, EvalError> {
    let started = Instant::now();
    let (mp, names) = build_marketplace(&dataset.tools)?;
    let strategy = make(mp);
    let load_seconds = started.elapsed().as_secs_f64();
    let mut splits = Vec::new();
    for split in &dataset.splits {
        let t0 = Instant::now();
        let mut acc = metrics::Accumulator::default();
        let chosen = select(split, opts);
        for q in chosen {
            let intent = SubIntent::new("s1", q.text.clone(), IntentType::Other("other".into()));
            let cands = strategy
                .resolve(&intent, 5)
                .map_err(|e| EvalError::Planner(format!("query {}: {e}", q.id)))?;
            let ranking: Vec<String> = cands
                .iter()
                .map(|c| {
                    names
                        .get(&c.capability_id)
                        .cloned()
                        .unwrap_or_else(|| c.capability_id.clone())
                })
                .collect();
            acc.add(score_query(&ranking, &q.gold), q.gold.len());
        }
        let seconds = t0.elapsed().as_secs_f64();
        let t1 = Instant::now();
        let (decomposition, arguments) =
            decompose_split(split, opts, &strategy, &names, &dataset.tools)?;
        splits.push(SplitReport {
            split: split.name.clone(),
            total_queries: split.queries.len(),
            ours: acc.summary(),
            baseline: split.baseline,
            seconds,
            decomposition,
            arguments,
            decomposition_seconds: t1.elapsed().as_secs_f64(),
        });
    }
    Ok(DatasetReport {
        dataset: dataset.name.clone(),
        tools: dataset.tools.len(),
        strategy: strategy.name().to_string(),
        every: opts.every.max(1),
        limit: opts.limit,
        part: opts.part,
        load_seconds,
        splits,
    })
}

/// The decomposition + argument pass over one split (see
/// [`decomposition`]): each query decomposed by [`HybridDecomposition`]
/// over the built-in patterns, each sub-intent resolved top-1 by
/// `strategy`. `None` for the figures the split has no gold for.
fn decompose_split<S: ResolutionStrategy>(
    split: &Split,
    opts: EvalOptions,
    strategy: &S,
    names: &BTreeMap<String, String>,
    tools: &[Tool],
) -> Result<(Option<DecompositionSummary>, Option<ArgumentSummary>), EvalError> {
    let with_links = split.queries.iter().any(|q| q.links.is_some());
    let with_calls = split.queries.iter().any(|q| !q.calls.is_empty());
    if !with_links && !with_calls {
        return Ok((None, None));
    }
    let patterns = PatternDecomposition::builtin()
        .map_err(|e| EvalError::Planner(format!("built-in patterns: {e}")))?;
    let hybrid = HybridDecomposition::new(patterns);
    let by_name: BTreeMap<&str, &Tool> = tools.iter().map(|t| (t.name.as_str(), t)).collect();
    let mut dacc = decomposition::DecompositionAcc::default();
    let mut aacc = decomposition::ArgumentAcc::default();
    let chosen = select(split, opts);
    for q in chosen {
        let (subs, _) = hybrid
            .decompose_with_path(&q.text)
            .map_err(|e| EvalError::Planner(format!("query {}: {e}", q.id)))?;
        let mut picks = Vec::with_capacity(subs.len());
        for s in &subs {
            let cands = strategy
                .resolve(s, 1)
                .map_err(|e| EvalError::Planner(format!("query {}: {e}", q.id)))?;
            picks.push(cands.first().map(|c| {
                names
                    .get(&c.capability_id)
                    .cloned()
                    .unwrap_or_else(|| c.capability_id.clone())
            }));
        }
        if let Some(gold_links) = &q.links {
            let ids: Vec<String> = subs.iter().map(|s| s.id.clone()).collect();
            let deps: Vec<Vec<String>> = subs.iter().map(|s| s.depends_on.clone()).collect();
            let (nodes, links) = decomposition::predicted_graph(&ids, &picks, &deps);
            dacc.add(&nodes, &q.gold, &links, gold_links, subs.len());
        }
        if !q.calls.is_empty() {
            let mut used = vec![false; subs.len()];
            let mut pred = Vec::with_capacity(q.calls.len());
            for call in &q.calls {
                let slot = picks
                    .iter()
                    .enumerate()
                    .find(|(i, p)| !used[*i] && p.as_deref() == Some(call.api.as_str()))
                    .map(|(i, _)| i);
                pred.push(match (slot, by_name.get(call.api.as_str())) {
                    (Some(i), Some(tool)) => {
                        used[i] = true;
                        Some(decomposition::fill_arguments(&subs[i].params, tool))
                    }
                    _ => None,
                });
            }
            aacc.add(&q.calls, &pred);
        }
    }
    Ok((
        with_links.then(|| dacc.summary()),
        with_calls.then(|| aacc.summary()),
    ))
}

fn cell(ours: Option<f64>, base: Option<f64>) -> String {
    match (ours, base) {
        (Some(o), Some(b)) => {
            let mark = if o > b {
                "+"
            } else if o < b {
                "-"
            } else {
                "="
            };
            format!("{o:5.1} {b:5.1}{mark}")
        }
        (Some(o), None) => format!("{o:5.1}     — "),
        (None, _) => "    —     — ".to_string(),
    }
}

/// Renders a report as a text table: for each split, our figure then the
/// BM25 baseline, and `+`/`-` when ours is above/below it.
pub fn render_table(r: &DatasetReport) -> String {
    let mut s = String::new();
    let subset = match (r.every, r.limit) {
        (1, None) => "all queries".to_string(),
        (1, Some(l)) => format!("first {l} queries per split"),
        (e, None) => format!("every {e}th query"),
        (e, Some(l)) => format!("every {e}th query, at most {l} per split"),
    };
    let part = match r.part {
        Part::All => String::new(),
        p => format!(", {} part", p.as_str()),
    };
    let _ = writeln!(
        s,
        "{}: {} tools, strategy {}, {subset}{part} (load {:.2}s)",
        r.dataset, r.tools, r.strategy, r.load_seconds
    );
    let _ = writeln!(
        s,
        "{:<26} {:>7}  {:^13} {:^13} {:^13} {:^13} {:>7}",
        "split", "queries", "hit@1", "R@5", "nDCG@5", "COMP@5", "time"
    );
    let _ = writeln!(
        s,
        "{:<26} {:>7}  {:^13} {:^13} {:^13} {:^13} {:>7}",
        "", "", "ours  bm25", "ours  bm25", "ours  bm25", "ours  bm25", ""
    );
    for sp in &r.splits {
        let b = sp.baseline;
        let _ = writeln!(
            s,
            "{:<26} {:>7}  {} {} {} {} {:>6.2}s",
            sp.split,
            sp.ours.queries,
            cell(Some(sp.ours.hit1), b.map(|b| b.hit1)),
            cell(Some(sp.ours.recall5), b.map(|b| b.recall5)),
            cell(Some(sp.ours.ndcg5), b.map(|b| b.ndcg5)),
            cell(sp.ours.comp5, b.and_then(|b| b.comp5)),
            sp.seconds
        );
    }
    for sp in &r.splits {
        if let Some(d) = &sp.decomposition {
            let _ = writeln!(
                s,
                "{:<26} decomposition over {} goals ({:.1} sub-intents/goal, {:.2}s): \
                 node-F1 {:.1} (GPT-4 TaskBench {:.1}-{:.1}), \
                 link-F1 {:.1} (GPT-4 TaskBench {:.1}-{:.1})",
                sp.split,
                d.goals,
                d.sub_intents,
                sp.decomposition_seconds,
                d.node_f1,
                d.gpt4_node_f1.0,
                d.gpt4_node_f1.1,
                d.link_f1,
                d.gpt4_link_f1.0,
                d.gpt4_link_f1.1
            );
        }
        if let Some(a) = &sp.arguments {
            let _ = writeln!(
                s,
                "{:<26} arguments over {} queries / {} calls ({:.2}s): \
                 tool chosen {:.1}, per-call exact {:.1}, per-query exact {:.1}, \
                 per-argument {:.1}",
                sp.split,
                a.queries,
                a.calls,
                sp.decomposition_seconds,
                a.tool_match,
                a.call_exact,
                a.query_exact,
                a.argument_exact
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dev_test_split_is_deterministic_and_about_30_70() {
        let dev = (0..10_000).filter(|&i| Part::Dev.contains(i)).count();
        assert!((2_700..3_300).contains(&dev), "{dev}");
        for i in 0..1000 {
            assert_ne!(Part::Dev.contains(i), Part::Test.contains(i));
            assert!(Part::All.contains(i));
        }
    }

    #[test]
    fn tool_ids_are_valid_and_unique() {
        let t = |n: &str| Tool {
            name: n.into(),
            description: String::new(),
            params: vec![],
            required: vec![],
        };
        let ids = tool_ids(&[t("PDF&URLTool"), t("PDF_URLTool"), t("a b"), t("")]);
        assert_eq!(ids, ["PDF_URLTool", "PDF_URLTool-2", "a_b", "_"]);
        let (mp, names) = build_marketplace(&[t("PDF&URLTool"), t("x")]).unwrap();
        assert_eq!(mp.len(), 2);
        assert_eq!(names["PDF_URLTool"], "PDF&URLTool");
    }

    #[test]
    fn evaluates_a_tiny_dataset() {
        let tool = |n: &str, d: &str| Tool {
            name: n.into(),
            description: d.into(),
            params: vec![],
            required: vec![],
        };
        let q = |id: &str, text: &str, gold: &[&str]| Query {
            id: id.into(),
            text: text.into(),
            gold: gold.iter().map(|s| s.to_string()).collect(),
            ..Query::default()
        };
        let ds = Dataset {
            name: "tiny".into(),
            tools: vec![
                tool("weather_now", "current weather of a city"),
                tool("flight_book", "book a flight ticket"),
            ],
            splits: vec![Split {
                name: "tiny".into(),
                queries: vec![
                    q("1", "what is the weather in Paris", &["weather_now"]),
                    q(
                        "2",
                        "book a flight and check the weather",
                        &["flight_book", "weather_now"],
                    ),
                ],
                baseline: None,
            }],
        };
        let r = evaluate(&ds, EvalOptions::default()).unwrap();
        let s = &r.splits[0].ours;
        assert_eq!(
            (s.queries, s.hit1, s.recall5, s.comp5),
            (2, 100.0, 100.0, Some(100.0))
        );
        let table = render_table(&r);
        assert!(table.contains("tiny: 2 tools"), "{table}");
        let r = evaluate(
            &ds,
            EvalOptions {
                every: 2,
                limit: Some(5),
                part: Part::All,
            },
        )
        .unwrap();
        assert_eq!(r.splits[0].ours.queries, 1);
    }
}
