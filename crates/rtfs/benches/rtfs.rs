//! Parse throughput (MB/s) on a plan-like corpus of more than 100 KB, and
//! parse+eval operations per second on small expressions.
//!
//! Run: `cargo bench -p rtfs --bench rtfs`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

/// A deterministic plan-like corpus: varied steps, calls, lets, maps,
/// strings with escapes, comments, parallel and loop forms.
fn corpus(min_bytes: usize) -> String {
    let caps = [
        "ccos.echo",
        "ccos.math.add",
        "mcp.filesystem.read_text_file",
        "github.issues.list",
        "ccos.data.filter",
    ];
    let mut out = String::new();
    let mut i: u64 = 0;
    while out.len() < min_bytes {
        let cap = caps[(i % caps.len() as u64) as usize];
        out.push_str(&format!(
            r#";; plan {i}: generated for the parse benchmark
(do
  (let [owner "mandubian" repo "ccos-{i}"
        page-size (parse-json "{}")]
    (step "Fetch issues {i}"
      (call :{cap} {{:owner owner :repo repo :perPage page-size :state "all" :labels ["bug" "p{}"]}}))
    (step-parallel
      (step "Greet" (call :ccos.echo {{:message "hello \"world\" {i}\n"}}))
      (step "Add" (call :ccos.math.add {} {}.5)))
    (step-loop [item (range {})]
      (if (> item 2) (call "ccos.echo" {{:message (str "item " item)}}) nil))
    {{:status "processing" :count {} :ratio {}e-3 :ok true :none nil}}))
"#,
            10 + i % 90,
            i % 5,
            i,
            i * 7,
            i % 9,
            i * 3,
            i % 1000
        ));
        i += 1;
    }
    out
}

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
