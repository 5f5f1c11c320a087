//! Preflight of large plans (issue #14: it once computed every finding's
//! line and column from byte 0, so 50,000 calls took 33 s). A 10 MB plan of
//! 50,000 calls to unknown capabilities: every call is a finding with a
//! line and column.
//!
//! `cargo bench -p ccos-governance --bench preflight`

use std::collections::BTreeMap;
use std::hint::black_box;

use ccos_governance::{Policy, preflight_str};
use ccos_marketplace::CapabilityManifest;
use criterion::{Criterion, criterion_group, criterion_main};

/// A plan of `n` calls, each about `pad` bytes of argument text.
fn plan(n: usize, pad: usize) -> String {
    let filler = "x".repeat(pad);
    let mut s = String::from("(do\n");
    for i in 0..n {
        s.push_str(&format!(
            "  (call :bench.unknown.cap{i} {{:text \"{filler}\"}})\n"
        ));
    }
    s.push(')');
    s
}

fn bench(c: &mut Criterion) {
    let catalog: BTreeMap<String, CapabilityManifest> = BTreeMap::new();
    let policy = Policy::default();
    let src = plan(50_000, 160);
    let mut g = c.benchmark_group("preflight");
    g.sample_size(10);
    g.throughput(criterion::Throughput::Bytes(src.len() as u64));
    g.bench_function(
        format!("plan_{}MB_50k_findings", src.len() / 1_000_000),
        |b| {
            b.iter(|| {
                let report = preflight_str(black_box(&src), &catalog, &policy).expect("parses");
                assert!(report.findings.len() >= 50_000);
            })
        },
    );
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
