//! `ccos plan "GOAL"` and `ccos run "GOAL"`: exit codes 0 and 4, and a goal
//! run end to end over the built-ins in a fresh home.

use crate::support::{ccos, text};

#[test]
fn plan_prints_a_plan_and_exits_0() {
    let home = tempfile::tempdir().unwrap();
    let out = ccos(home.path(), &["plan", "read notes.txt and count lines"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.contains("(call :ccos.file.read {:path \"notes.txt\"})"),
        "{s}"
    );
    assert!(s.contains(":ccos.text.count_lines {:text s1}"), "{s}");
    // byte-identical on a second run
    let again = ccos(home.path(), &["plan", "read notes.txt and count lines"]);
    assert_eq!(text(&again.stdout), s);
}

#[test]
fn plan_explain_and_json() {
    let home = tempfile::tempdir().unwrap();
    let out = ccos(
        home.path(),
        &["plan", "add 2 and 3, then multiply by 4", "--explain"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains(";;   chosen ccos.math.mul (allow)"), "{s}");
    let out = ccos(
        home.path(),
        &["plan", "add 2 and 3, then multiply by 4", "--json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["trace"]["intents"][0]["chosen"], "ccos.math.add");
    assert!(j["plan_id"].is_string());
    assert!(j["requires_agent"].is_null());
}

#[test]
fn uncovered_goal_requires_an_agent_exit_4() {
    let home = tempfile::tempdir().unwrap();
    let out = ccos(home.path(), &["plan", "book me a flight to Paris"]);
    assert_eq!(out.status.code(), Some(4), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("requires-agent"), "{s}");
    assert!(!s.contains("(call"), "{s}");
    let out = ccos(
        home.path(),
        &["plan", "book me a flight to Paris", "--json"],
    );
    assert_eq!(out.status.code(), Some(4));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(j["rtfs"].is_null());
    assert_eq!(j["requires_agent"]["missing"][0]["sub_intent"], "s1");
    let out = ccos(home.path(), &["run", "book me a flight to Paris"]);
    assert_eq!(out.status.code(), Some(4), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("requires-agent"));
}

#[test]
fn run_goal_counts_the_words_of_the_readme() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join("README.md"),
        "# ccos\n\nthe governed planner\n",
    )
    .unwrap();
    let out = ccos(home.path(), &["run", "count the words in README.md"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "5");
    assert!(text(&out.stderr).contains(":ccos.text.count_words"));
    let out = ccos(home.path(), &["run", "add 2 and 3, then multiply by 4"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "20");
    // the decomposition is in the intent graph
    let out = ccos(home.path(), &["graph", "list"]);
    let s = text(&out.stdout);
    assert!(s.contains("count the words in the text"), "{s}");
}

#[test]
fn run_needs_exactly_one_of_goal_and_plan() {
    let home = tempfile::tempdir().unwrap();
    let out = ccos(home.path(), &["run"]);
    assert_eq!(out.status.code(), Some(2));
    let out = ccos(home.path(), &["run", "add 2 and 3", "--plan", "x.rtfs"]);
    assert_eq!(out.status.code(), Some(2));
}
