//! `ccos synth planner|agent` and `ccos agents list|show`: exit codes 0, 1
//! (bad context file, with file:line:col), 4 (requires-agent); the example
//! two-turn context end to end; stub registration only behind the flag.

use std::path::PathBuf;

use crate::support::{ccos, text, write};

fn example(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/synth")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn planner_from_the_two_turn_example_prints_runs_and_records() {
    let home = tempfile::tempdir().unwrap();
    let ctx = example("two-turns.json");
    let out = ccos(home.path(), &["synth", "planner", &ctx]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("(call :ccos.data.take context-adapted)"), "{s}");
    assert!(s.contains("(parse-int (get context :n))"), "{s}");
    let again = ccos(home.path(), &["synth", "planner", &ctx]);
    assert_eq!(text(&again.stdout), s, "deterministic");

    let out = ccos(home.path(), &["synth", "planner", &ctx, "--explain"]);
    let s = text(&out.stdout);
    assert!(s.contains(";; selected: capability ccos.data.take"), "{s}");
    assert!(
        s.contains(";; adapter: :n -> :count (skill-hint, string->int)"),
        "{s}"
    );
    assert!(s.contains("trust 0.1750 = tier 0.1000 (system)"), "{s}");

    let out = ccos(home.path(), &["synth", "planner", &ctx, "--run"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains(":result [7 3]"),
        "{}",
        text(&out.stdout)
    );

    let out = ccos(home.path(), &["synth", "planner", &ctx, "--json"]);
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["synthesis"]["decision_trace"]["template"], "adapter");
    assert_eq!(j["synthesis"]["required_capabilities"][0], "ccos.data.take");

    let out = ccos(home.path(), &["chain", "show", "--json"]);
    let entries: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let gens = entries
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "planner_generation")
        .count();
    assert_eq!(gens, 5);
}

#[test]
fn requires_agent_exits_4_and_registers_the_stub_only_with_the_flag() {
    let home = tempfile::tempdir().unwrap();
    let ctx = write(
        home.path(),
        "weather.json",
        r#"{"goal": "weather for a trip",
            "schema": [{"key": "city", "type": "string", "required": true},
                       {"key": "date", "type": "date", "required": true}],
            "history": [{"question": "Where?", "answer": "Paris", "params": {"city": "Paris"}}],
            "skills": [{"name": "weather"}]}"#,
    );
    let out = ccos(home.path(), &["synth", "planner", &ctx]);
    assert_eq!(out.status.code(), Some(4), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains(":status \"requires-agent\""));
    assert!(text(&out.stderr).contains("suggested stub synth.weather.agent.stub"));
    let show = ccos(home.path(), &["caps", "show", "synth.weather.agent.stub"]);
    assert_ne!(
        show.status.code(),
        Some(0),
        "not registered without the flag"
    );

    let out = ccos(home.path(), &["synth", "planner", &ctx, "--register-stub"]);
    assert_eq!(out.status.code(), Some(4));
    let show = ccos(home.path(), &["caps", "show", "synth.weather.agent.stub"]);
    assert_eq!(show.status.code(), Some(0), "{}", text(&show.stderr));
    assert!(
        text(&show.stdout).contains("date"),
        "{}",
        text(&show.stdout)
    );
}

#[test]
fn bad_context_files_exit_1_with_file_line_and_column() {
    let home = tempfile::tempdir().unwrap();
    let ctx = write(home.path(), "bad.json", "{\n  \"gaol\": \"x\"\n}\n");
    let out = ccos(home.path(), &["synth", "planner", &ctx]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("bad.json:2:"), "{err}");
    assert!(err.contains("gaol"), "{err}");
    let out = ccos(home.path(), &["synth", "planner", "missing.json"]);
    assert_eq!(out.status.code(), Some(1));
    let out = ccos(home.path(), &["synth", "planner"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn synth_agent_registers_an_agent_that_agents_lists_and_shows() {
    let home = tempfile::tempdir().unwrap();
    let ctx = example("agent.json");
    let out = ccos(home.path(), &["synth", "agent", &ctx]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.contains(";; registered agent synth.head-words.agent"),
        "{s}"
    );
    assert!(s.contains("(call :synth.head-words.agent"), "{s}");

    // The planner now delegates to the registered agent, and runs it.
    let out = ccos(home.path(), &["synth", "planner", &ctx, "--run"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains(r#":result ["a" "b"]"#),
        "{}",
        text(&out.stdout)
    );

    let out = ccos(home.path(), &["agents", "list"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stdout).contains("synth.head-words.agent  community"),
        "{}",
        text(&out.stdout)
    );
    let out = ccos(
        home.path(),
        &["agents", "show", "synth.head-words.agent", "--json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["ok"], 1);
    assert_eq!(j["callable"], true);
    assert!(
        j["agent"]["plan"]
            .as_str()
            .unwrap()
            .contains(":ccos.text.split")
    );
    let out = ccos(home.path(), &["agents", "show", "nope"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn llm_proposals_are_used_only_when_valid() {
    let home = tempfile::tempdir().unwrap();
    let ctx = example("two-turns.json");
    let run = |answer: &str| {
        let script = write(
            home.path(),
            "answers.json",
            &serde_json::json!([answer]).to_string(),
        );
        crate::support::ccos_env(
            home.path(),
            &[("CCOS_LLM_SCRIPT", &script)],
            &["synth", "planner", &ctx, "--llm", "--json"],
        )
    };
    let out = run(
        "```clojure\n(do {:status \"processing\" :result (call :ccos.data.take {:items (get context :items) :count 1}) :context context})\n```",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["synthesis"]["decision_trace"]["source"], "llm");
    let out = run("(do (call :mcp.evil.rm {:path \"/\"}))");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let t = &j["synthesis"]["decision_trace"];
    assert_eq!(t["source"], "deterministic");
    assert!(
        t["notes"].to_string().contains("llm proposal rejected"),
        "{t}"
    );
    let out = ccos(home.path(), &["chain", "show", "--json"]);
    let entries: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let exchanges = entries
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "llm_exchange")
        .count();
    assert_eq!(exchanges, 2);
    // --llm without any LLM configured is a usage error.
    let out = ccos(home.path(), &["synth", "planner", &ctx, "--llm"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

#[test]
fn the_context_file_names_its_policy_and_denied_candidates_are_filtered() {
    let home = tempfile::tempdir().unwrap();
    write(
        home.path(),
        "policy.toml",
        "[capabilities]\nallow = [\"*\"]\ndeny = [\"ccos.data.take\"]\n",
    );
    let mut ctx: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(example("two-turns.json")).unwrap()).unwrap();
    ctx["policy"] = "policy.toml".into();
    let path = write(home.path(), "ctx.json", &ctx.to_string());
    let out = ccos(home.path(), &["synth", "planner", &path, "--explain"]);
    let s = text(&out.stdout);
    assert!(
        s.contains(
            ";; filtered by policy: capability ccos.data.take: denied by pattern ccos.data.take"
        ),
        "{s}"
    );
    assert!(!s.contains("(call :ccos.data.take"), "{s}");
}
