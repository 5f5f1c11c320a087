//! Integration tests of the benchmark harness: the loaders read the
//! real datasets of `../shared/bench` (outside the repository) and a few
//! queries of each are resolved and scored.
//!
//! The bench directory is `$CCOS_BENCH_DIR`, else `<repo root>/../shared/bench`.
//! When it is absent the tests are skipped with a note, unless `CI=true`,
//! where they fail.

use std::path::PathBuf;

use ccos_bench::{self as eval, EvalOptions};

/// The bench directory, or `None` (skip) when absent outside CI.
fn bench_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("CCOS_BENCH_DIR")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
            eval::bench_dir_for_repo(&root)
        });
    if dir.is_dir() {
        return Some(dir);
    }
    let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
    assert!(
        !ci,
        "CI=true but the bench directory {} is missing",
        dir.display()
    );
    eprintln!(
        "note: skipping, bench directory {} not found (set CCOS_BENCH_DIR)",
        dir.display()
    );
    None
}

fn smoke(name: &str, min_tools: usize, splits: usize) {
    let Some(dir) = bench_dir() else { return };
    let ds = eval::load(name, &dir).unwrap_or_else(|e| panic!("loading {name}: {e}"));
    assert!(
        ds.tools.len() >= min_tools,
        "{name}: {} tools",
        ds.tools.len()
    );
    assert_eq!(ds.splits.len(), splits, "{name}");
    for s in &ds.splits {
        assert!(!s.queries.is_empty(), "{name}/{}: no queries", s.name);
        assert!(s.queries.iter().all(|q| !q.gold.is_empty()), "{}", s.name);
        assert!(s.baseline.is_some());
    }
    let opts = EvalOptions {
        every: 1,
        limit: Some(3),
        ..EvalOptions::default()
    };
    let r = eval::evaluate(&ds, opts).unwrap_or_else(|e| panic!("evaluating {name}: {e}"));
    assert_eq!(r.splits.len(), splits);
    for s in &r.splits {
        assert_eq!(s.ours.queries, 3, "{}", s.split);
        assert!((0.0..=100.0).contains(&s.ours.recall5));
    }
    let table = eval::render_table(&r);
    assert!(table.contains("hit@1"), "{table}");
    // Decomposition figures on the TaskBench-format datasets, argument
    // figures on Seal-Tools, neither elsewhere.
    for s in &r.splits {
        match name {
            "ultratool" | "restbench" => {
                let d = s.decomposition.unwrap_or_else(|| panic!("{}", s.split));
                assert_eq!(d.goals, 3);
                assert!((0.0..=100.0).contains(&d.node_f1) && (0.0..=100.0).contains(&d.link_f1));
                assert_eq!(
                    (d.gpt4_node_f1, d.gpt4_link_f1),
                    ((81.5, 96.9), (54.7, 80.5))
                );
                assert!(
                    table.contains("node-F1") && table.contains("link-F1"),
                    "{table}"
                );
            }
            "seal-tools" => {
                let a = s.arguments.unwrap_or_else(|| panic!("{}", s.split));
                assert_eq!(a.queries, 3);
                assert!(a.calls >= 3 && (0.0..=100.0).contains(&a.call_exact));
                assert!(table.contains("per-call exact"), "{table}");
            }
            _ => assert!(s.decomposition.is_none() && s.arguments.is_none()),
        }
    }
    let json = serde_json::to_value(&r).unwrap_or_default();
    assert_eq!(json["dataset"], name);
}

#[test]
fn metatool_loads_and_scores() {
    smoke("metatool", 199, 2);
}

#[test]
fn ultratool_loads_and_scores() {
    smoke("ultratool", 260, 1);
}

#[test]
fn restbench_loads_and_scores() {
    smoke("restbench", 46, 1);
}

#[test]
fn seal_tools_loads_and_scores() {
    smoke("seal-tools", 4000, 2);
}

#[test]
fn unknown_dataset_and_missing_dir_are_errors() {
    let e = eval::load("nope", std::path::Path::new("/nonexistent")).unwrap_err();
    assert!(e.to_string().contains("unknown dataset"), "{e}");
    let e = eval::load("metatool", std::path::Path::new("/nonexistent/bench")).unwrap_err();
    assert!(
        e.to_string()
            .contains("/nonexistent/bench/metatool/plugin_des.json"),
        "{e}"
    );
}
