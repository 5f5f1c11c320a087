//! Parse throughput (MB/s) on a plan-like corpus of more than 100 KB, and
//! parse+eval operations per second on small expressions.
//!
//! Run: `cargo bench -p rtfs --bench rtfs`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

#[path = "support/corpus.rs"]
mod corpus;
use corpus::corpus;

fn parse_throughput(c: &mut Criterion) {
    let src = corpus(128 * 1024);
    let mut g = c.benchmark_group("parse");
    g.throughput(Throughput::Bytes(src.len() as u64));
    g.bench_function(format!("plan_corpus_{}KB", src.len() / 1024), |b| {
        b.iter(|| rtfs::parse(black_box(&src)).map(|f| f.len()))
    });
    g.finish();
}

fn parse_eval_ops(c: &mut Criterion) {
    let mut g = c.benchmark_group("parse_eval");
    g.throughput(Throughput::Elements(1));
    for (name, src) in [
        ("let_arith", "(let [x 2] (+ x (* 3 4)))"),
        (
            "map_filter",
            "(count (filter (fn [m] (= (:state m) \"open\")) [{:state \"open\"} {:state \"closed\"} {:state \"open\"}]))",
        ),
        ("str_ops", "(upper-case (join \", \" (map str [1 2 3])))"),
    ] {
        g.bench_function(name, |b| b.iter(|| rtfs::eval_str(black_box(src))));
    }
    g.finish();
}

criterion_group!(benches, parse_throughput, parse_eval_ops);
criterion_main!(benches);
