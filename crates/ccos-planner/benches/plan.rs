//! Planning latency on the deterministic path (goal → validated plan:
//! pattern decomposition, catalog resolution, plan generation, preflight)
//! with the built-ins plus 1k and 10k synthetic capabilities.
//!
//! Synthetic manifests are generated deterministically (a seeded xorshift
//! generator over small word lists), so every run plans over the same
//! catalog. Each size also prints an explicit p50 / p95 over 200 plans.
//!
//! `plan_semantic/1000` and `plan_semantic/10000` measure the same with
//! semantic resolution on (needs the embedding model; the 10k index is
//! embedded once, uncached, before its samples).
//!
//! Run: `cargo bench -p ccos-planner --bench plan`

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ccos_governance::Policy;
use ccos_marketplace::builtins::{BuiltinConfig, install};
use ccos_marketplace::{CapabilityManifest, Effect, Marketplace, ProviderSpec, TrustTier};
use ccos_planner::{PatternDecomposition, Planner};
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;

const VERBS: &[&str] = &[
    "get",
    "list",
    "create",
    "update",
    "delete",
    "search",
    "count",
    "fetch",
    "send",
    "sync",
    "archive",
    "export",
    "import",
    "render",
    "validate",
    "merge",
    "rank",
    "translate",
];
const NOUNS: &[&str] = &[
    "user", "repo", "issue", "invoice", "order", "movie", "track", "ticket", "file", "folder",
    "message", "channel", "event", "contact", "report", "metric", "image", "comment", "review",
    "product", "customer", "payment", "route", "forecast", "note", "task", "project", "word",
    "line", "text",
];
const DOMAINS: &[&str] = &[
    "github", "stripe", "slack", "tmdb", "jira", "weather", "maps", "mail", "drive", "crm", "shop",
    "bank", "news", "transit", "notes", "chat", "photos", "docs",
];

fn synthetic(n: usize) -> Vec<CapabilityManifest> {
    let mut r = ccos_testkit::rng::Xorshift(0x9e37_79b9_7f4a_7c15);
    (0..n)
        .map(|i| {
            let (d, v, o) = (r.pick(DOMAINS), r.pick(VERBS), r.pick(NOUNS));
            CapabilityManifest {
                id: format!("{d}.{v}_{o}_{i}"),
                name: format!("{v} {o}"),
                description: format!(
                    "{v} the {o}s of a {d} account ({} {})",
                    r.pick(NOUNS),
                    r.pick(VERBS)
                ),
                version: "1".into(),
                input_schema: json!({"type": "object", "properties": {
                    "id": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["id"]}),
                output_schema: None,
                provider: ProviderSpec::Builtin,
                trust_tier: TrustTier::Community,
                local: false,
                effects: [Effect::Network].into_iter().collect(),
                examples: vec![],
            }
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let goals = [
        "count the words in README.md",
        "add 2 and 3, then multiply by 4",
        "read notes.txt and count lines",
    ];
    for n in [1_000usize, 10_000] {
        let mp = Marketplace::new().expect("marketplace");
        install(&mp, BuiltinConfig::default()).expect("built-ins");
        mp.replace_all(synthetic(n)).expect("synthetic catalog");
        let planner = Planner::new(
            Arc::new(mp),
            Policy::default(),
            PatternDecomposition::builtin().expect("rules"),
        );
        measure(
            c,
            &planner,
            &goals,
            200,
            &format!("plan/{n}"),
            &format!("plan latency, {n} synthetic capabilities + built-ins"),
        );
    }
}

/// Without the `semantic` feature there is nothing to measure.
#[cfg(not(feature = "semantic"))]
fn bench_semantic(_: &mut Criterion) {
    eprintln!("skipping plan/semantic: built without the `semantic` feature");
}

/// Goal → validated plan with semantic resolution on (the CLI's default:
/// catalog + semantic, gated RRF) at 1k and 10k synthetic capabilities. Needs the
/// embedding model; skipped with a note when absent.
#[cfg(feature = "semantic")]
fn bench_semantic(c: &mut Criterion) {
    use ccos_planner::CompositeResolution;
    use ccos_planner::resolution::{SemanticIndex, SemanticResolution};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let embedder = match ccos_embed::test_model_dir(&root)
        .and_then(|d| ccos_embed::Embedder::load(&d).map_err(|e| e.to_string()))
    {
        Ok(e) => Arc::new(e),
        Err(msg) => {
            eprintln!("skipping plan/semantic: {msg}");
            return;
        }
    };
    let goals = [
        "count the words in README.md",
        "add 2 and 3, then multiply by 4",
        "read notes.txt and count lines",
    ];
    for n in [1_000usize, 10_000] {
        let mp = Marketplace::new().expect("marketplace");
        install(&mp, BuiltinConfig::default()).expect("built-ins");
        mp.replace_all(synthetic(n)).expect("synthetic catalog");
        let mp = Arc::new(mp);
        ccos_testkit::rss::reset_peak();
        let t = Instant::now();
        let index = SemanticIndex::from_marketplace(embedder.clone(), &mp).expect("index");
        eprintln!(
            "semantic index of {} capabilities (no cache): {:?}, peak RSS {:.0} MiB",
            index.len(),
            t.elapsed(),
            ccos_testkit::rss::peak_mib().unwrap_or(0.0)
        );
        let planner = Planner::new(
            mp.clone(),
            Policy::default(),
            PatternDecomposition::builtin().expect("rules"),
        )
        .with_resolution(Box::new(CompositeResolution::default_for(
            mp.clone(),
            Some(Box::new(SemanticResolution::new(Arc::new(index)))),
        )));
        measure(
            c,
            &planner,
            &goals,
            60,
            &format!("plan_semantic/{n}"),
            &format!("plan latency with semantic on, {n} synthetic capabilities + built-ins"),
        );
    }
}

/// Checks every goal plans, prints p50/p95 over `samples` plans cycling
/// through the goals, then hands the same loop to criterion as `name`.
fn measure(
    c: &mut Criterion,
    planner: &Planner,
    goals: &[&str],
    samples: usize,
    name: &str,
    label: &str,
) {
    ccos_testkit::rss::reset_peak();
    for g in goals {
        assert!(planner.plan(g).expect("plan").rtfs.is_some(), "{g}");
    }
    let mut times: Vec<Duration> = (0..samples)
        .map(|i| {
            let t = Instant::now();
            black_box(planner.plan(goals[i % goals.len()]).ok());
            t.elapsed()
        })
        .collect();
    times.sort();
    eprintln!(
        "{label}: p50 {:?}, p95 {:?}, peak RSS {:.0} MiB",
        times[times.len() / 2],
        times[times.len() * 95 / 100],
        ccos_testkit::rss::peak_mib().unwrap_or(0.0)
    );
    c.bench_function(name, |b| {
        let mut i = 0;
        b.iter(|| {
            i += 1;
            black_box(planner.plan(goals[i % goals.len()]).ok())
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(3));
    targets = bench, bench_semantic
}
criterion_main!(benches);
