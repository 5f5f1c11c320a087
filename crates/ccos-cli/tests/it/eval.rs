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

#[cfg(not(feature = "semantic"))]
#[test]
fn semantic_strategies_need_the_feature() {
    let home = tempfile::tempdir().unwrap();
    let out = ccos(home.path(), &["eval", "restbench", "--strategy", "fused"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("--features semantic"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn unknown_dataset_is_a_usage_error() {
    let home = tempfile::tempdir().unwrap();
    let out = ccos(home.path(), &["eval", "nope"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

/// A home whose `models/` links to the test embedding model (from
/// `CCOS_EMBED_MODEL_DIR` or `tools/models/`); fails with the setup hint
/// when the model is not installed.
#[cfg(feature = "semantic")]
fn home_with_model() -> tempfile::TempDir {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let model = ccos_embed::test_model_dir(&root).unwrap_or_else(|msg| panic!("{msg}"));
    let home = tempfile::tempdir().unwrap();
    let models = home.path().join("models");
    std::fs::create_dir_all(&models).unwrap();
    std::os::unix::fs::symlink(&model, models.join(ccos_embed::MODEL_NAME)).unwrap();
    home
}

#[cfg(feature = "semantic")]
#[test]
fn semantic_and_fused_strategies_run_and_fused_beats_bm25_on_restbench() {
    let Some(dir) = bench_dir() else { return };
    let home = home_with_model();
    let dir = dir.display().to_string();
    // Semantic alone: runs, sane figures (a subset keeps it short).
    let out = crate::support::ccos(
        home.path(),
        &[
            "eval",
            "ultratool",
            "--json",
            "--data-dir",
            &dir,
            "--strategy",
            "semantic",
            "--limit",
            "40",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let split = &report[0]["splits"][0];
    assert_eq!(split["ours"]["queries"], 40);
    let hit1 = split["ours"]["hit1"].as_f64().unwrap();
    assert!((20.0..=100.0).contains(&hit1), "semantic hit@1 {hit1}");
    // Fused (catalog + semantic): above the BM25 baseline on every figure.
    let out = crate::support::ccos(
        home.path(),
        &[
            "eval",
            "restbench",
            "--json",
            "--data-dir",
            &dir,
            "--strategy",
            "fused",
        ],
    );
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
            assert!(ours > base, "fused {metric}: {ours:.1} vs BM25 {base:.1}");
        }
    }
}
