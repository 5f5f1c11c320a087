//! `ccos intent`: LLM intent generation with a scripted provider.

use std::path::Path;
use std::process::Output;

use crate::support::{text, write};

/// Runs `ccos ARGS` in `home` (no `CCOS_*` variable inherited), plus `env`.
fn ccos_llm(home: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    crate::support::ccos_env(home, env, args)
}

#[test]
fn without_llm_is_a_usage_error_saying_how_to_configure() {
    let home = tempfile::tempdir().unwrap();
    let out = ccos_llm(home.path(), &[], &["intent", "count words"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("CCOS_LLM_BASE_URL") && err.contains("CCOS_LLM_SCRIPT"),
        "{err}"
    );
}

#[test]
fn rtfs_intent_is_stored_with_exchanges_in_the_chain() {
    let home = tempfile::tempdir().unwrap();
    let script = write(
        home.path(),
        "answers.json",
        r#"["Here you go:\n```clojure\n(intent \"count-words\" :goal \"Count the words of README.md\" :constraints {:file \"README.md\"} :preferences {})\n```"]"#,
    );
    let out = ccos_llm(
        home.path(),
        &[("CCOS_LLM_SCRIPT", &script)],
        &["intent", "count the words of README.md"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("(parse_format rtfs)"), "{stdout}");
    assert!(stdout.contains("(intent \"count-words\""), "{stdout}");
    let id = stdout
        .split_whitespace()
        .nth(2)
        .expect("an intent id on the first line")
        .to_string();
    let chain = ccos_llm(
        home.path(),
        &[],
        &["chain", "show", "--intent", &id, "--json"],
    );
    assert_eq!(chain.status.code(), Some(0), "{}", text(&chain.stderr));
    let chain = text(&chain.stdout);
    assert!(
        chain.contains("intent_created") && chain.contains("llm_exchange"),
        "{chain}"
    );
    assert!(chain.contains("intent.rtfs@1"), "{chain}");
}

#[test]
fn json_fallback_from_config_script() {
    let home = tempfile::tempdir().unwrap();
    // A truncated RTFS form, then JSON, in the same answer.
    write(
        home.path(),
        "answers.json",
        r#"["(intent \"x\" :goal \"cut\n\n{\"GOAL\": \"Count words\", \"Name\": \"count\", \"constraints\": {\"max\": 3}}"]"#,
    );
    write(
        home.path(),
        "config.toml",
        "[llm]\nscript = \"answers.json\"\n",
    );
    let out = ccos_llm(home.path(), &[], &["intent", "count words", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["parse_format"], "json_fallback");
    assert_eq!(v["goal"], "Count words");
    assert_eq!(v["constraints"]["max"], 3);
    assert_eq!(v["attempts"].as_array().map(Vec::len), Some(2));
    assert!(v["id"].as_str().is_some_and(|s| s.starts_with("intent-")));
}

#[test]
fn unreadable_answer_fails_showing_the_raw_answer() {
    let home = tempfile::tempdir().unwrap();
    let script = write(home.path(), "answers.json", r#"["I would rather not."]"#);
    let out = ccos_llm(
        home.path(),
        &[("CCOS_LLM_SCRIPT", &script)],
        &["intent", "anything"],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("I would rather not."), "{err}");
    // The exchange is in the chain even though no intent was stored.
    let chain = ccos_llm(home.path(), &[], &["chain", "show", "--json"]);
    assert!(text(&chain.stdout).contains("llm_exchange"));
}

/// A chat-completions server on 127.0.0.1 answering `content`.
fn chat_server(content: &str) -> ccos_testkit::http::LoopbackServer {
    let body = serde_json::json!({"choices": [{"message": {"content": content}}]});
    ccos_testkit::http::LoopbackServer::start(move |_| ccos_testkit::http::Reply::json(200, &body))
}

#[test]
fn intent_over_http_with_env_configuration() {
    let home = tempfile::tempdir().unwrap();
    let server = chat_server("(intent \"greet\" :goal \"Say hello\")");
    let url = server.url("/v1");
    let out = ccos_llm(
        home.path(),
        &[
            ("CCOS_LLM_BASE_URL", &url),
            ("CCOS_LLM_MODEL", "test-model"),
            ("CCOS_LLM_API_KEY", "sk-cli-secret"),
        ],
        &["intent", "say hello", "--json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["parse_format"], "rtfs");
    assert_eq!(v["goal"], "Say hello");
    let seen = server.requests();
    assert_eq!(seen.len(), 1);
    assert_eq!(
        (seen[0].method.as_str(), seen[0].path.as_str()),
        ("POST", "/v1/chat/completions")
    );
    assert_eq!(
        seen[0].header("authorization"),
        Some("Bearer sk-cli-secret")
    );
    assert_eq!(seen[0].json()["model"], "test-model");
    let chain = ccos_llm(home.path(), &[], &["chain", "show", "--json"]);
    let chain = text(&chain.stdout);
    assert!(chain.contains("llm_exchange"), "{chain}");
    assert!(!chain.contains("sk-cli-secret"));
}
