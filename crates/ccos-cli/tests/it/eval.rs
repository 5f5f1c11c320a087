//! `ccos eval`: the resolution figures on the public datasets stay above
//! the BM25 baseline of `../shared/bench/README.md` (a regression bar for
//! the planner's ranking, measured end to end through the real binary).

use std::path::PathBuf;

use crate::support::{ccos, text};

fn bench_dir() -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/bench");
    if p.exists() {
        return Some(p);
    }
    assert!(
        std::env::var("CI").is_err(),
        "datasets missing at {}",
        p.display()
    );
    eprintln!("note: {} absent; skipping", p.display());
    None
}

fn assert_beats_baseline(dataset: &str, extra: &[&str]) {
    let Some(dir) = bench_dir() else { return };
    let home = tempfile::tempdir().unwrap();
    let dir = dir.display().to_string();
    let mut args = vec!["eval", dataset, "--json", "--data-dir", &dir];
    args.extend_from_slice(extra);
    let out = ccos(home.path(), &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for split in report[0]["splits"].as_array().unwrap() {
        for metric in ["hit1", "recall5", "ndcg5", "comp5"] {
            let (Some(ours), Some(base)) = (
                split["ours"][metric].as_f64(),
                split["baseline"][metric].as_f64(),
            ) else {
                continue;
            };
            assert!(
                ours > base,
                "{} {metric}: {ours:.1} is not above the BM25 baseline {base:.1}",
                split["split"]
            );
        }
    }
}

#[test]
fn restbench_resolution_beats_bm25() {
    assert_beats_baseline("restbench", &[]);
}

#[test]
fn ultratool_resolution_beats_bm25() {
    assert_beats_baseline("ultratool", &[]);
}

#[test]
fn metatool_resolution_beats_bm25_on_a_subset() {
    assert_beats_baseline("metatool", &["--every", "10"]);
}

#[test]
fn fused_strategy_beats_bm25_on_restbench() {
    assert_beats_baseline("restbench", &["--strategy", "composite"]);
}

#[test]
fn unknown_dataset_is_a_usage_error() {
    let home = tempfile::tempdir().unwrap();
    let out = ccos(home.path(), &["eval", "nope"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}
