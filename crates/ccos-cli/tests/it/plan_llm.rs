//! `ccos plan --mode rtfs|ir|auto` and `--compare` with a scripted LLM
//! (`CCOS_LLM_SCRIPT`): exit codes, recording in the chain and the graph.

use std::path::Path;
use std::process::Output;

use crate::support::{text, write};

/// Runs `ccos ARGS` in `home` (no `CCOS_*` variable inherited), plus `env`.
fn ccos_llm(home: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    crate::support::ccos_env(home, env, args)
}

fn script(home: &Path, answers: &[&str]) -> String {
    write(
        home,
        "script.json",
        &serde_json::to_string(answers).unwrap(),
    )
}

fn chain(home: &Path, intent: &str) -> Vec<serde_json::Value> {
    let out = ccos_llm(home, &[], &["chain", "show", "--intent", intent, "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

const ADD: &str = "(do (step \"Add\" (call :ccos.math.add 2 3)))";

#[test]
fn mode_without_llm_exits_2_with_how_to_configure() {
    let home = tempfile::tempdir().unwrap();
    for args in [
        &["plan", "add 2 and 3", "--mode", "rtfs"][..],
        &["plan", "add 2 and 3", "--compare"][..],
    ] {
        let out = ccos_llm(home.path(), &[], args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(
            err.contains("CCOS_LLM_SCRIPT") && err.contains("CCOS_LLM_MODEL"),
            "{err}"
        );
    }
    let out = ccos_llm(home.path(), &[], &["plan", "x", "--mode", "yaml"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn mode_rtfs_prints_the_plan_and_records_exchanges() {
    let home = tempfile::tempdir().unwrap();
    let s = script(
        home.path(),
        &["Here:\n(do (step \"Add\" (call :ccos.math.plus 2 3)))", ADD],
    );
    let out = ccos_llm(
        home.path(),
        &[("CCOS_LLM_SCRIPT", &s)],
        &["plan", "add 2 and 3", "--mode", "rtfs", "--json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["rtfs"], ADD);
    assert_eq!(j["model_calls"], 2);
    assert_eq!(j["attempts"][1]["kind"], "replan");
    let intent = j["intent_id"].as_str().unwrap();
    let entries = chain(home.path(), intent);
    let kinds: Vec<&str> = entries
        .iter()
        .map(|e| e["kind"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        kinds,
        ["intent_created", "llm_exchange", "llm_exchange", "llm_plan"],
        "{entries:?}"
    );
    assert_eq!(entries[1]["payload"]["prompt_id"], "plan.rtfs@1");
    assert_eq!(entries[2]["payload"]["prompt_id"], "plan.replan_hints@1");
    assert_eq!(entries[3]["plan_id"], j["plan_id"]);
    // the archived plan carries the generation mode
    let out = ccos_llm(home.path(), &[], &["plans", "list", "--json"]);
    let listed = text(&out.stdout);
    assert!(listed.contains("llm-rtfs"), "{listed}");
}

#[test]
fn missing_capabilities_require_an_agent_exit_4() {
    let home = tempfile::tempdir().unwrap();
    let bad = "(do (call :travel.flights.book {:to \"Paris\"}))";
    let s = script(home.path(), &[bad, bad, bad]);
    let out = ccos_llm(
        home.path(),
        &[("CCOS_LLM_SCRIPT", &s)],
        &["plan", "book a flight to Paris", "--mode", "auto"],
    );
    assert_eq!(out.status.code(), Some(4), "{}", text(&out.stderr));
    let o = text(&out.stdout);
    assert!(
        o.contains("requires-agent") && o.contains("travel.flights.book"),
        "{o}"
    );
    assert!(!o.contains("(call"), "{o}");
}

#[test]
fn no_valid_plan_exits_1_with_the_findings() {
    let home = tempfile::tempdir().unwrap();
    let s = script(home.path(), &["nope"; 3]);
    let out = ccos_llm(
        home.path(),
        &[("CCOS_LLM_SCRIPT", &s)],
        &["plan", "add 2 and 3", "--mode", "rtfs"],
    );
    assert_eq!(out.status.code(), Some(1));
    let e = text(&out.stderr);
    assert!(e.contains("no valid plan after 3 model call(s)"), "{e}");
}

#[test]
fn compare_prints_and_stores_the_diff() {
    let home = tempfile::tempdir().unwrap();
    let ir =
        r#"{"steps": [{"id": "a", "name": "Add", "capability": "ccos.math.add", "args": [2, 3]}]}"#;
    let s = script(home.path(), &[ADD, ir]);
    let out = ccos_llm(
        home.path(),
        &[("CCOS_LLM_SCRIPT", &s)],
        &["plan", "add 2 and 3", "--compare"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let o = text(&out.stdout);
    assert!(o.contains(";; mode A (rtfs): plan"), "{o}");
    assert!(o.contains("equivalent: 1 step(s) matched"), "{o}");
    let ir2 = r#"{"steps": [{"id": "a", "capability": "ccos.math.add", "args": [2, 4]}]}"#;
    let s = script(home.path(), &[ADD, ir2]);
    let out = ccos_llm(
        home.path(),
        &[("CCOS_LLM_SCRIPT", &s)],
        &["plan", "add 2 and 3", "--compare", "--json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["equivalent"], false);
    assert_eq!(j["diff"]["arg_diffs"][0]["capability"], "ccos.math.add");
    // A is mode A (the RTFS plan: 2 and 3), B is mode B (the IR: 2 and 4).
    let d = &j["diff"]["arg_diffs"][0];
    assert!(d["a_args"].to_string().contains('3'), "{d}");
    assert!(d["b_args"].to_string().contains('4'), "{d}");
    let intent = j["intent_id"].as_str().unwrap();
    let out = ccos_llm(home.path(), &[], &["graph", "show", intent, "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let g = text(&out.stdout);
    assert!(g.contains("plan_compare") && g.contains("arg_diffs"), "{g}");
}

#[test]
fn without_mode_an_llm_decomposes_goals_the_patterns_miss() {
    let home = tempfile::tempdir().unwrap();
    let s = script(
        home.path(),
        &[
            "(sub-intents (sub-intent :id \"s1\" :description \"convert the text 'hello there' to upper case\" :type :transform :params {:text \"hello there\"} :depends-on []))",
        ],
    );
    let out = ccos_llm(
        home.path(),
        &[("CCOS_LLM_SCRIPT", &s)],
        &["plan", "make my greeting hello there louder", "--json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        j["trace"]["decomposition"]
            .as_str()
            .unwrap_or("")
            .starts_with("llm-"),
        "{j}"
    );
    assert!(
        j["rtfs"]
            .as_str()
            .unwrap_or("")
            .contains(":ccos.text.upper"),
        "{j}"
    );
    let out = ccos_llm(home.path(), &[], &["chain", "show", "--json"]);
    assert!(text(&out.stdout).contains("llm_exchange"));
    // a goal the patterns serve asks no model (the script is not consumed)
    let empty = script(home.path(), &[]);
    let out = ccos_llm(
        home.path(),
        &[("CCOS_LLM_SCRIPT", &empty)],
        &["plan", "add 2 and 3"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn run_with_mode_plans_with_the_llm_and_executes() {
    let home = tempfile::tempdir().unwrap();
    let s = script(
        home.path(),
        &["```rtfs\n(do (step \"Mul\" (call :ccos.math.mul 6 7)))\n```"],
    );
    let out = ccos_llm(
        home.path(),
        &[("CCOS_LLM_SCRIPT", &s)],
        &["run", "multiply 6 by 7", "--mode", "rtfs"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "42");
    assert!(
        text(&out.stderr).contains("llm-rtfs plan"),
        "{}",
        text(&out.stderr)
    );
    let out = ccos_llm(home.path(), &[], &["plans", "list", "--json"]);
    assert!(text(&out.stdout).contains("llm-rtfs"));
    // a denied capability never runs: the plan is refused, exit 1
    let policy = write(
        home.path(),
        "p.toml",
        "[capabilities]\ndeny = [\"ccos.math.*\"]\n",
    );
    let s = script(home.path(), &["(do (call :ccos.math.mul 6 7))"; 3]);
    let out = ccos_llm(
        home.path(),
        &[("CCOS_LLM_SCRIPT", &s)],
        &[
            "run",
            "multiply 6 by 7",
            "--mode",
            "rtfs",
            "--policy",
            &policy,
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("denied"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(text(&out.stdout), "");
}
