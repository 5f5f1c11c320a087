//! The first plan after importing 1,000 OpenAPI operations, as a user
//! pays for it: one process imports the document (`ccos caps
//! import-openapi`: the catalog written and, with the `semantic` feature
//! and the model, every new capability embedded), then a new process
//! plans (`ccos plan`: the catalog loaded, the index built from the
//! embedding cache, the plan recorded in the store).
//!
//! Each stage prints its p50 / p95 over a few fresh homes and the peak
//! resident memory it reached (Linux: the peak is reset through
//! `/proc/self/clear_refs` before each stage and read from `VmHWM`); the
//! first plan is then handed to criterion as `first_plan/1000`.
//!
//! The document is generated deterministically (a seeded xorshift over
//! small word lists), so every run imports the same operations.
//!
//! Run: `cargo bench -p ccos-world --bench first_plan` (lexical), or with
//! `--features semantic` and the model installed (`scripts/setup-model.sh`).

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use ccos_world::{Env, World, WorldOptions};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};

const OPERATIONS: usize = 1_000;
/// Fresh homes measured for the printed p50 / p95.
const ROUNDS: usize = 5;
/// Goals of the first plan: one the built-ins serve (imported operations
/// must not drown them) and one an imported operation serves.
const GOALS: &[&str] = &["add 2 and 3", "list the invoices of the shop account"];

const VERBS: &[&str] = &[
    "get", "list", "create", "update", "delete", "search", "count", "archive", "export", "render",
];
const NOUNS: &[&str] = &[
    "user", "repo", "issue", "invoice", "order", "movie", "track", "ticket", "folder", "message",
    "channel", "event", "contact", "report", "metric", "image", "comment", "review", "product",
    "payment",
];
const DOMAINS: &[&str] = &[
    "github", "stripe", "slack", "tmdb", "jira", "weather", "maps", "mail", "drive", "shop",
];

/// An OpenAPI 3 document with `n` operations, each with a path
/// parameter, a query parameter and (for writes) a JSON body.
fn synthetic_openapi(n: usize) -> Value {
    let mut r = ccos_testkit::rng::Xorshift(0x9e37_79b9_7f4a_7c15);
    let mut paths = serde_json::Map::new();
    for i in 0..n {
        let (d, v, o) = (r.pick(DOMAINS), r.pick(VERBS), r.pick(NOUNS));
        let method = match v {
            "create" => "post",
            "update" => "patch",
            "delete" => "delete",
            _ => "get",
        };
        let mut op = json!({
            "operationId": format!("{v}_{d}_{o}s_{i}"),
            "summary": format!("{} the {o}s of a {d} account", capitalized(v)),
            "description": format!("{v} {o}s; see also the {} of each {}", r.pick(NOUNS), r.pick(NOUNS)),
            "parameters": [
                {"name": "account", "in": "path", "required": true,
                 "schema": {"type": "string"}, "description": format!("the {d} account")},
                {"name": "limit", "in": "query",
                 "schema": {"type": "integer", "minimum": 1, "maximum": 100},
                 "description": "how many to return"}
            ],
            "responses": {"200": {"description": "ok", "content": {"application/json": {
                "schema": {"type": "array", "items": {"type": "object"}}}}}}
        });
        if method != "get" && method != "delete" {
            op["requestBody"] = json!({"required": true, "content": {"application/json": {
                "schema": {"type": "object", "properties": {
                    "title": {"type": "string"}, "note": {"type": "string"}},
                    "required": ["title"]}}}});
        }
        paths.insert(format!("/{d}/{{account}}/{o}s/{i}"), json!({ method: op }));
    }
    json!({
        "openapi": "3.0.3",
        "info": {"title": "synthetic", "version": "1"},
        "servers": [{"url": "http://127.0.0.1:9"}],
        "paths": paths
    })
}

fn capitalized(w: &str) -> String {
    let mut c = w.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The embedding model's directory, when this build embeds and the model
/// is installed; `None` measures the lexical path.
fn model_dir() -> Option<PathBuf> {
    #[cfg(feature = "semantic")]
    {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        match ccos_embed::test_model_dir(&root) {
            Ok(d) => return Some(d),
            Err(msg) => eprintln!("first_plan: lexical only: {msg}"),
        }
    }
    None
}

/// A world over `home`, as one CLI process opens it.
fn open(home: &Path, model: Option<&Path>) -> World {
    let mut opts = WorldOptions::new(home);
    if let Some(m) = model {
        opts.env = Env::from_pairs([("CCOS_EMBED_MODEL_DIR", m.display().to_string())]);
    }
    World::open(opts).expect("open world")
}

/// A fresh home with the document imported (and embedded): the import
/// stage's time and peak memory.
fn imported_home(doc: &Path, model: Option<&Path>) -> (tempfile::TempDir, Duration, Option<f64>) {
    let home = tempfile::tempdir().expect("home");
    ccos_testkit::rss::reset_peak();
    let t = Instant::now();
    let world = open(home.path(), model);
    let ids = world.import_openapi(doc, None, None).expect("import");
    assert_eq!(ids.len(), OPERATIONS);
    world.index_catalog().expect("index");
    world.shutdown();
    drop(world);
    (home, t.elapsed(), ccos_testkit::rss::peak_mib())
}

/// The first plan in a new world over `home`.
fn first_plan(home: &Path, model: Option<&Path>, goal: &str) -> bool {
    let world = open(home, model);
    let planned = world.plan_goal(goal).expect("plan");
    world.shutdown();
    planned.result.rtfs.is_some()
}

fn percentiles(mut v: Vec<Duration>) -> (Duration, Duration) {
    v.sort();
    (v[v.len() / 2], v[(v.len() * 95 / 100).min(v.len() - 1)])
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("tmp");
    let doc = dir.path().join("synthetic.openapi.json");
    let text = serde_json::to_vec(&synthetic_openapi(OPERATIONS)).expect("json");
    std::fs::write(&doc, &text).expect("write document");
    let model = model_dir();
    let mode = if model.is_some() {
        "semantic"
    } else {
        "lexical"
    };
    eprintln!(
        "first_plan ({mode}): {OPERATIONS} operations, a {} KiB document",
        text.len() / 1024
    );

    let (mut imports, mut plans) = (vec![], vec![]);
    let (mut import_peak, mut plan_peak) = (0.0f64, 0.0f64);
    for round in 0..ROUNDS {
        let (home, took, peak) = imported_home(&doc, model.as_deref());
        imports.push(took);
        import_peak = import_peak.max(peak.unwrap_or(0.0));
        ccos_testkit::rss::reset_peak();
        let goal = GOALS[round % GOALS.len()];
        let t = Instant::now();
        let planned = first_plan(home.path(), model.as_deref(), goal);
        plans.push(t.elapsed());
        plan_peak = plan_peak.max(ccos_testkit::rss::peak_mib().unwrap_or(0.0));
        if goal == GOALS[0] {
            assert!(planned, "the built-ins still serve {goal:?}");
        }
    }
    let (i50, i95) = percentiles(imports);
    let (p50, p95) = percentiles(plans);
    eprintln!(
        "first_plan ({mode}): import+index p50 {i50:?} p95 {i95:?}, peak RSS {import_peak:.0} MiB"
    );
    eprintln!(
        "first_plan ({mode}): first plan p50 {p50:?} p95 {p95:?}, peak RSS {plan_peak:.0} MiB"
    );

    let mut i = 0;
    c.bench_function(&format!("first_plan/{OPERATIONS}"), |b| {
        b.iter_batched(
            || imported_home(&doc, model.as_deref()).0,
            |home| {
                i += 1;
                black_box(first_plan(
                    home.path(),
                    model.as_deref(),
                    GOALS[i % GOALS.len()],
                ))
            },
            BatchSize::PerIteration,
        )
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(5));
    targets = bench
}
criterion_main!(benches);
