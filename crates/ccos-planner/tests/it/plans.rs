//! Golden plans over the built-in capabilities: each goal's plan is
//! snapshotted (insta), then run by the real orchestrator (built-ins
//! confined to a temp dir, SQLite store in it) and must give the expected
//! value.

use std::sync::Arc;

use ccos_governance::Policy;
use ccos_marketplace::Marketplace;
use ccos_marketplace::builtins::{BuiltinConfig, install};
use ccos_marketplace::prompt::ScriptedAnswers;
use ccos_orchestrator::{Orchestrator, RunOptions};
use ccos_planner::{PatternDecomposition, Planner, record};
use ccos_store::Store;

struct Fixture {
    _dir: tempfile::TempDir,
    marketplace: Arc<Marketplace>,
    orchestrator: Orchestrator,
}

async fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("README.md"),
        "# ccos\n\ngoverned planner for agents\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("notes.txt"), "one\ntwo\nthree\n").unwrap();
    std::fs::create_dir(dir.path().join("data")).unwrap();
    std::fs::write(dir.path().join("data/a.txt"), "one two\nthree\n").unwrap();
    std::fs::write(dir.path().join("data/b.txt"), "four\n").unwrap();
    // A subdirectory: per-file loops skip it (reading it once failed them).
    std::fs::create_dir(dir.path().join("data/sub")).unwrap();
    let marketplace = Arc::new(Marketplace::new().unwrap());
    install(
        &marketplace,
        BuiltinConfig {
            file_roots: vec![dir.path().to_path_buf()],
            prompter: Arc::new(ScriptedAnswers::new().with_ordered("25")),
            ..BuiltinConfig::default()
        },
    )
    .unwrap();
    let store = Store::open(&format!(
        "sqlite://{}",
        dir.path().join("ccos.db").display()
    ))
    .await
    .unwrap();
    Fixture {
        orchestrator: Orchestrator::new(marketplace.clone(), Policy::default(), store),
        marketplace,
        _dir: dir,
    }
}

/// Plans `goal`, snapshots the plan, records it, runs it, returns the value.
async fn plan_and_run(name: &str, goal: &str) -> String {
    let f = fixture().await;
    let planner = Planner::new(
        f.marketplace.clone(),
        Policy::default(),
        PatternDecomposition::builtin().unwrap(),
    );
    let r = planner.plan(goal).unwrap();
    let rtfs = r
        .rtfs
        .clone()
        .unwrap_or_else(|| panic!("{goal}: {:?}", r.requires_agent));
    insta::assert_snapshot!(name, rtfs, goal);
    let rec = record(
        f.orchestrator.store(),
        &r,
        false,
        &ccos_core::Redactor::default(),
    )
    .await
    .unwrap();
    let out = f
        .orchestrator
        .run(
            &rtfs,
            RunOptions {
                source_name: name.into(),
                intent_id: Some(rec.intent_id.clone()),
                generation_mode: r.generation_mode().into(),
                ..RunOptions::default()
            },
        )
        .await
        .unwrap_or_else(|e| panic!("{goal}: {e}"));
    let plan = f
        .orchestrator
        .store()
        .get_plan(&out.plan_id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(plan.intent_id, rec.intent_id);
    assert_eq!(plan.generation_mode, "pattern");
    out.value.to_string()
}

#[tokio::test]
async fn count_words_in_readme() {
    assert_eq!(
        plan_and_run("count_words", "count the words in README.md").await,
        "6"
    );
}

#[tokio::test]
async fn add_then_multiply() {
    assert_eq!(
        plan_and_run("add_mul", "add 2 and 3, then multiply by 4").await,
        "20"
    );
}

#[tokio::test]
async fn read_and_count_lines() {
    assert_eq!(
        plan_and_run("count_lines", "read notes.txt and count lines").await,
        "3"
    );
}

#[tokio::test]
async fn upper_case() {
    assert_eq!(
        plan_and_run("upper", "convert 'hello world' to upper case").await,
        "\"HELLO WORLD\""
    );
}

#[tokio::test]
async fn subtract_then_divide() {
    assert_eq!(
        plan_and_run("sub_div", "subtract 3 from 10 then divide by 2").await,
        "3.5"
    );
}

#[tokio::test]
async fn independent_steps_in_parallel() {
    assert_eq!(
        plan_and_run("parallel", "echo 'hi' and count the words in 'a b c'").await,
        "[\"hi\" 3]"
    );
}

#[tokio::test]
async fn ask_then_multiply() {
    assert_eq!(
        plan_and_run("ask_mul", "ask me for the page size, then multiply it by 2").await,
        "50"
    );
}

#[tokio::test]
async fn list_then_for_each_file_count_lines() {
    assert_eq!(
        plan_and_run(
            "for_each_lines",
            "list the files in data and for each file count its lines"
        )
        .await,
        "{\"a.txt\" 2 \"b.txt\" 1}"
    );
}

#[tokio::test]
async fn for_each_file_in_dir_count_words() {
    assert_eq!(
        plan_and_run("for_each_words", "for each file in data count the words").await,
        "{\"a.txt\" 3 \"b.txt\" 1}"
    );
}

#[tokio::test]
async fn requires_agent_has_no_plan() {
    let f = fixture().await;
    let planner = Planner::new(
        f.marketplace.clone(),
        Policy::default(),
        PatternDecomposition::builtin().unwrap(),
    );
    let r = planner.plan("book me a flight to Paris").unwrap();
    assert!(r.rtfs.is_none());
    assert!(r.requires_agent.is_some());
}
