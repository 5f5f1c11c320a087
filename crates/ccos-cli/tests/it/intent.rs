//! `ccos intent`: LLM intent generation with a scripted provider.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::support::{text, write};

/// Runs `ccos ARGS` in `home` with no LLM variables inherited, plus `env`.
fn ccos_llm(home: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ccos"));
    c.args(args)
        .env("CCOS_HOME", home)
        .env_remove("CCOS_DATABASE_URL")
        .current_dir(home)
        .stdin(Stdio::null());
    for v in [
        "CCOS_LLM_BASE_URL",
        "CCOS_LLM_MODEL",
        "CCOS_LLM_API_KEY",
        "CCOS_LLM_SCRIPT",
    ] {
        c.env_remove(v);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("running ccos")
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

/// A one-shot chat-completions server on 127.0.0.1: answers `content` to
/// the first request and returns the request (head + body) it saw.
fn one_shot_server(content: &str) -> (String, std::thread::JoinHandle<String>) {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    let body = serde_json::json!({"choices": [{"message": {"content": content}}]}).to_string();
    let handle = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut head = String::new();
        let mut len = 0usize;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
                break;
            }
            if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                len = v.trim().parse().unwrap_or(0);
            }
            head.push_str(&line);
        }
        let mut req_body = vec![0u8; len];
        let _ = reader.read_exact(&mut req_body);
        let mut stream = stream;
        let _ = write!(
            stream,
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
        head + &String::from_utf8_lossy(&req_body)
    });
    (url, handle)
}

#[test]
fn intent_over_http_with_env_configuration() {
    let home = tempfile::tempdir().unwrap();
    let (url, server) = one_shot_server("(intent \"greet\" :goal \"Say hello\")");
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
    let seen = server.join().unwrap();
    assert!(seen.starts_with("POST /v1/chat/completions"), "{seen}");
    assert!(seen.contains("Bearer sk-cli-secret"), "{seen}");
    assert!(seen.contains("\"model\":\"test-model\""), "{seen}");
    let chain = ccos_llm(home.path(), &[], &["chain", "show", "--json"]);
    let chain = text(&chain.stdout);
    assert!(chain.contains("llm_exchange"), "{chain}");
    assert!(!chain.contains("sk-cli-secret"));
}
