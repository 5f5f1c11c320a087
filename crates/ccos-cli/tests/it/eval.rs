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

#[cfg(feature = "semantic")]
#[test]
fn semantic_and_fused_strategies_run_and_fused_beats_bm25_on_restbench() {
    let Some(dir) = bench_dir() else { return };
    let home = crate::support::home_with_model();
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

// ---------------------------------------------------------------------------
// `ccos eval goals`: the goal suite end to end (a few goals; the whole suite
// is too slow for CI).
// ---------------------------------------------------------------------------

fn repo_root() -> PathBuf {
    ccos_testkit::repo_root()
}

/// `ccos eval goals ARGS --json --quiet` with the repository given; the
/// parsed report.
fn eval_goals(home: &std::path::Path, repo: &std::path::Path, args: &[&str]) -> serde_json::Value {
    let repo = repo.display().to_string();
    let mut all = vec!["eval", "goals", "--json", "--quiet", "--repo", &repo];
    all.extend_from_slice(args);
    let out = ccos(home, &all);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out.stdout)))
}

/// The outcome a goal's classification must have for its process status.
fn assert_consistent(g: &serde_json::Value) {
    let outcome = g["outcome"].as_str().unwrap();
    let kind = g["kind"].as_str().unwrap();
    match (&g["status"]["exited"], kind) {
        (serde_json::Value::Number(c), "value") if c.as_i64() == Some(0) => {
            assert!(["right", "wrong"].contains(&outcome), "{g}");
            assert!(g["value"].is_string(), "{g}");
        }
        (serde_json::Value::Number(c), "value") if c.as_i64() == Some(4) => {
            assert_eq!(outcome, "requires-agent", "{g}");
            assert!(g["named"].is_boolean(), "{g}");
        }
        (serde_json::Value::Number(_), "value") => assert_eq!(outcome, "error", "{g}"),
        _ => {}
    }
}

#[test]
fn eval_goals_runs_builtin_goals_end_to_end() {
    let home = tempfile::tempdir().unwrap();
    let r = eval_goals(
        home.path(),
        &repo_root(),
        &[
            "--only", "echo-01", "--only", "math-01", "--only", "math-15",
        ],
    );
    let goals = r["goals"].as_array().unwrap();
    let ids: Vec<&str> = goals.iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["echo-01", "math-01", "math-15"]);
    for g in goals {
        // Every goal really ran through the binary.
        assert!(g["status"]["exited"].is_number(), "{g}");
        assert_consistent(g);
    }
    assert_eq!(goals[2]["kind"], "error");
    // Only the dev part has goals: no held-out and no `all` summary.
    let parts = r["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 1);
    assert_eq!(parts[0]["part"], "dev");
    let total = &parts[0]["total"];
    assert_eq!(total["goals"], 3);
    let sum: u64 = ["right", "wrong", "requires_agent", "error"]
        .iter()
        .map(|k| total[k].as_u64().unwrap())
        .sum();
    assert_eq!(sum, 3);
    assert_eq!(parts[0]["by_kind"]["value"]["goals"], 2);
    assert!(parts[0]["bars"]["wrong_met"].is_boolean());
    assert!(r["wall_seconds"].as_f64().unwrap() > 0.0);
}

/// A repository whose suite is `dev` (goals/fixtures and tools/ linked to
/// the real ones): goals with expectations this test controls.
fn repo_with_suite(dev: &str) -> tempfile::TempDir {
    let root = repo_root();
    let repo = tempfile::tempdir().unwrap();
    let goals = repo.path().join("goals");
    std::fs::create_dir_all(&goals).unwrap();
    std::os::unix::fs::symlink(root.join("goals/fixtures"), goals.join("fixtures")).unwrap();
    std::os::unix::fs::symlink(root.join("tools"), repo.path().join("tools")).unwrap();
    std::fs::write(goals.join("dev.toml"), dev).unwrap();
    std::fs::write(goals.join("held-out.toml"), "").unwrap();
    repo
}

#[test]
fn eval_goals_counts_a_false_expectation_as_not_right() {
    // The same goal twice: once with the true answer (34 words), once with
    // a false one. Whatever the planner does, the false one is never right,
    // and when the true one is right, the false one is wrong (exit 0 with a
    // value that is not the answer).
    let suite = r#"
[[goal]]
id = 'wc-01'
part = 'dev'
category = 'builtins'
goal = 'count the words in README.md'
needs = []
expect = '34'

[[goal]]
id = 'wc-02'
part = 'dev'
category = 'builtins'
goal = 'count the words in README.md'
needs = []
expect = '35'
"#;
    let repo = repo_with_suite(suite);
    let home = tempfile::tempdir().unwrap();
    let r = eval_goals(home.path(), repo.path(), &[]);
    let goals = r["goals"].as_array().unwrap();
    let (good, bad) = (&goals[0], &goals[1]);
    assert_ne!(bad["outcome"], "right", "{bad}");
    assert_ne!(good["outcome"], "wrong", "{good}");
    if good["outcome"] == "right" {
        assert_eq!(bad["outcome"], "wrong", "{bad}");
        assert_eq!(bad["value"], "34");
        let wrong = &r["parts"][0]["wrong"];
        assert_eq!(wrong[0]["id"], "wc-02", "{wrong}");
    }
    for g in goals {
        assert_consistent(g);
    }
    // --strict: exit 1 when a goal is wrong, naming it, after the report.
    let any_wrong = goals.iter().any(|g| g["outcome"] == "wrong");
    let repo_arg = repo.path().display().to_string();
    let out = ccos(
        home.path(),
        &["eval", "goals", "--quiet", "--strict", "--repo", &repo_arg],
    );
    let stderr = text(&out.stderr);
    assert!(
        text(&out.stdout).contains("== dev (2 goals) =="),
        "{stderr}"
    );
    if any_wrong {
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains("--strict") && stderr.contains("wc-02"),
            "{stderr}"
        );
    } else {
        assert_eq!(out.status.code(), Some(0), "{stderr}");
    }
}

#[test]
fn eval_goals_sets_up_mcp_servers_and_openapi_documents() {
    if ccos_testkit::mcp::TestServers::find().is_none() {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    // tz-01 needs the time server, gh-01 the imported GitHub document.
    let r = eval_goals(
        home.path(),
        &repo_root(),
        &["--only", "tz-01", "--only", "gh-01"],
    );
    assert_eq!(r["unavailable"], serde_json::json!({}), "{r}");
    let goals = r["goals"].as_array().unwrap();
    assert_eq!(goals.len(), 2, "{r}");
    for g in goals {
        assert!(g["status"]["exited"].is_number(), "{g}");
        assert_consistent(g);
    }
}

#[test]
fn eval_goals_without_a_matching_goal_is_a_harness_error() {
    let home = tempfile::tempdir().unwrap();
    let repo = repo_root().display().to_string();
    let out = ccos(
        home.path(),
        &["eval", "goals", "--repo", &repo, "--only", "no-such-goal"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("no-such-goal"),
        "{}",
        text(&out.stderr)
    );
    let out = ccos(home.path(), &["eval", "goals", "--part", "test"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

// ---------------------------------------------------------------------------
// `ccos eval bfcl`
// ---------------------------------------------------------------------------

#[test]
fn eval_bfcl_reports_every_set_and_the_bars() {
    let Some(dir) = bench_dir() else { return };
    let home = tempfile::tempdir().unwrap();
    let dir = dir.display().to_string();
    let args = [
        "eval",
        "bfcl",
        "--json",
        "--data-dir",
        &dir,
        "--limit",
        "2",
        "--part",
        "test",
    ];
    let out = ccos(home.path(), &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["part"], "test");
    let sets: Vec<&str> = r["sets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["set"].as_str().unwrap())
        .collect();
    assert_eq!(
        sets,
        [
            "simple",
            "multiple",
            "parallel",
            "parallel_multiple",
            "irrelevance",
            "relevant"
        ]
    );
    assert_eq!(r["cases"].as_array().unwrap().len(), 10);
    assert!(r["bars"]["all_met"].is_boolean());
    // The text form names the bars.
    let out = ccos(
        home.path(),
        &["eval", "bfcl", "--data-dir", &dir, "--limit", "1"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("irrelevance refused"),
        "{}",
        text(&out.stdout)
    );
    // One case, explained: its question and the planner's decision trace.
    let out = ccos(
        home.path(),
        &[
            "eval",
            "bfcl",
            "--data-dir",
            &dir,
            "--only",
            "simple_python_1",
            "--explain",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert_eq!(report.matches("\n== ").count(), 1, "{report}");
    assert!(report.contains("== simple_python_1 (simple)"), "{report}");
    assert!(report.contains(";; decomposition:"), "{report}");
}
