//! Search latency at 1k, 10k and 100k synthetic capabilities.
//!
//! Manifests are generated deterministically (a seeded xorshift generator
//! over small made-up word lists), so every run indexes the same catalog.
//! Besides criterion's estimates, each size prints an explicit p50 / p95
//! latency over 500 timed queries.
//!
//! Run: `cargo bench -p ccos-marketplace --bench search`

use std::collections::BTreeSet;
use std::hint::black_box;
use std::time::{Duration, Instant};

use ccos_marketplace::{CapabilityManifest, Effect, Marketplace, ProviderSpec, TrustTier};
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
    "resolve",
    "export",
    "import",
    "render",
    "validate",
    "merge",
    "split",
    "rank",
    "translate",
];
const NOUNS: &[&str] = &[
    "user", "repo", "issue", "invoice", "order", "movie", "track", "album", "ticket", "file",
    "folder", "message", "channel", "event", "calendar", "contact", "report", "metric", "alert",
    "image", "video", "comment", "review", "product", "customer", "payment", "shipment", "route",
    "station", "forecast", "city", "note", "task", "project", "team", "invite", "token", "key",
    "secret", "log",
];
const DOMAINS: &[&str] = &[
    "github", "stripe", "slack", "tmdb", "spotify", "jira", "weather", "maps", "mail", "drive",
    "crm", "shop", "bank", "news", "transit", "notes", "chat", "photos", "video", "docs",
];
const ADJ: &[&str] = &[
    "recent", "popular", "open", "closed", "shared", "private", "public", "archived", "pending",
    "active", "daily", "weekly", "top", "related", "similar", "upcoming", "latest", "nearby",
];

/// xorshift64*: small, seeded, deterministic.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn pick<'a>(&mut self, list: &[&'a str]) -> &'a str {
        list[(self.next() % list.len() as u64) as usize]
    }
}

fn camel(words: &[&str]) -> String {
    let mut s = String::new();
    for (i, w) in words.iter().enumerate() {
        if i == 0 {
            s.push_str(w);
        } else {
            let mut c = w.chars();
            if let Some(f) = c.next() {
                s.extend(f.to_uppercase());
                s.push_str(c.as_str());
            }
        }
    }
    s
}

fn synthetic(n: usize, seed: u64) -> Vec<CapabilityManifest> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|i| {
            let verb = rng.pick(VERBS);
            let noun = rng.pick(NOUNS);
            let adj = rng.pick(ADJ);
            let domain = rng.pick(DOMAINS);
            let id = format!("{domain}.{}.{i}", camel(&[verb, adj, noun]));
            let mut props = serde_json::Map::new();
            for _ in 0..(1 + rng.next() % 4) {
                let p = rng.pick(NOUNS);
                let q = rng.pick(ADJ);
                props.insert(
                    format!("{p}_{q}"),
                    json!({"type": "string", "description": format!("the {q} {p} to use")}),
                );
            }
            CapabilityManifest {
                id,
                name: format!("{verb} {adj} {noun}"),
                description: format!(
                    "{} the {adj} {noun}s of a {} in {domain}, with {} {}.",
                    verb,
                    rng.pick(NOUNS),
                    rng.pick(ADJ),
                    rng.pick(NOUNS)
                ),
                version: "1.0.0".into(),
                input_schema: json!({"type": "object", "properties": props}),
                output_schema: None,
                provider: ProviderSpec::Mcp {
                    server: domain.into(),
                    tool: camel(&[verb, noun]),
                },
                trust_tier: TrustTier::Community,
                local: false,
                effects: BTreeSet::from([Effect::Network]),
                examples: vec![],
            }
        })
        .collect()
}

const QUERIES: &[&str] = &[
    "list open issues of a repo",
    "getUserRepos",
    "weather forecast for a city",
    "send a message to a channel",
    "popular movies",
    "create invoice for customer",
    "delete archived files",
    "search tracks by album",
    "export weekly report metrics",
    "translate note",
];

fn build(n: usize) -> Marketplace {
    let mp = Marketplace::new().expect("marketplace");
    mp.replace_all(synthetic(n, 0x5EED_0000 + n as u64))
        .expect("register");
    mp.search("warm up", 1).expect("search"); // first search commits the index
    mp
}

fn percentiles(mp: &Marketplace, n: usize) {
    let mut times: Vec<Duration> = Vec::with_capacity(500);
    for i in 0..500 {
        let q = QUERIES[i % QUERIES.len()];
        let t = Instant::now();
        black_box(mp.search(q, 10).expect("search"));
        times.push(t.elapsed());
    }
    times.sort();
    println!(
        "search n={n}: p50 {:?}  p95 {:?}  (500 queries, k=10)",
        times[times.len() / 2],
        times[times.len() * 95 / 100]
    );
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for n in [1_000usize, 10_000, 100_000] {
        let t = Instant::now();
        let mp = build(n);
        println!("index n={n}: built in {:?}", t.elapsed());
        percentiles(&mp, n);
        let mut i = 0usize;
        group.bench_function(format!("top10/{n}"), |b| {
            b.iter(|| {
                i += 1;
                black_box(mp.search(QUERIES[i % QUERIES.len()], 10).expect("search"))
            })
        });
    }
    group.finish();
}

/// Time to import the TMDB OpenAPI document (54 paths), when present.
fn import_tmdb(c: &mut Criterion) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/bench/restbench_tmdb/raw_tmdb_openapi.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        println!(
            "note: {} is absent; skipping the import bench",
            path.display()
        );
        return;
    };
    let doc: serde_json::Value = serde_json::from_str(&text).expect("TMDB JSON");
    let mut group = c.benchmark_group("openapi_import");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("tmdb", |b| {
        b.iter(|| black_box(ccos_marketplace::openapi::import(&doc, None, None).expect("import")))
    });
    group.bench_function("tmdb_parse_and_import", |b| {
        b.iter(|| {
            let doc: serde_json::Value = serde_json::from_str(&text).expect("TMDB JSON");
            black_box(ccos_marketplace::openapi::import(&doc, None, None).expect("import"))
        })
    });
    group.finish();
}

criterion_group!(benches, bench, import_tmdb);
criterion_main!(benches);
