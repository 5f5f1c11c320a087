//! Integration tests: the OpenAI-compatible client against a real HTTP
//! server on 127.0.0.1 (`ccos_testkit::http::LoopbackServer`, answers
//! scripted per test).

use std::time::{Duration, Instant};

use ccos_llm::{LlmError, LlmProvider, LlmRequest, LlmSettings, Message, OpenAiCompatible};
use ccos_testkit::http::{LoopbackServer, Reply as KitReply};

/// One scripted server answer.
#[derive(Clone)]
enum Reply {
    /// Status, extra headers, body.
    Http(u16, Vec<(&'static str, String)>, String),
    /// Read the request and never answer (until the test ends).
    Hang,
}

impl From<Reply> for KitReply {
    fn from(r: Reply) -> KitReply {
        match r {
            Reply::Http(status, extra, body) => {
                let mut reply = KitReply::typed(status, "application/json", body);
                for (k, v) in extra {
                    reply = reply.with_header(k, v);
                }
                reply
            }
            Reply::Hang => KitReply::Hang(Duration::from_secs(5)),
        }
    }
}

fn ok(content: &str) -> Reply {
    Reply::Http(
        200,
        vec![],
        serde_json::json!({
            "id": "c1", "object": "chat.completion", "model": "test-model",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 7, "completion_tokens": 2, "total_tokens": 9}
        })
        .to_string(),
    )
}

/// A request as the server saw it.
#[derive(Debug, Clone)]
struct Seen {
    path: String,
    headers: Vec<(String, String)>,
    body: serde_json::Value,
}

impl Seen {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

struct Server {
    base_url: String,
    inner: LoopbackServer,
}

impl Server {
    /// Serves `replies` in order, one per request; extra requests get a
    /// 599 so an unexpected retry shows up in the attempt count.
    fn start(replies: Vec<Reply>) -> Server {
        let inner = LoopbackServer::sequence(replies.into_iter().map(KitReply::from).collect());
        Server {
            base_url: inner.url("/v1"),
            inner,
        }
    }

    fn seen(&self) -> Vec<Seen> {
        self.inner
            .requests()
            .into_iter()
            .map(|r| Seen {
                path: r.path.clone(),
                body: r.json(),
                headers: r.headers,
            })
            .collect()
    }
}

fn settings(server: &Server) -> LlmSettings {
    let mut s = LlmSettings::new(server.base_url.clone(), "test-model");
    s.timeout = Duration::from_millis(2000);
    s.backoff_base = Duration::from_millis(10);
    s.max_backoff = Duration::from_secs(2);
    s
}

fn req() -> LlmRequest {
    LlmRequest::new(
        "t@1",
        vec![Message::system("be brief"), Message::user("hello")],
    )
}

#[test]
fn ok_answer() {
    let server = Server::start(vec![ok("(intent \"x\")")]);
    let p = OpenAiCompatible::new(settings(&server));
    let r = p.generate_text(&req().max_tokens(50)).unwrap();
    assert_eq!(r.text, "(intent \"x\")");
    assert_eq!(r.model, "test-model");
    assert_eq!(r.usage.map(|u| u.prompt_tokens), Some(7));
    let seen = server.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].path, "/v1/chat/completions");
    assert_eq!(seen[0].body["model"], "test-model");
    assert_eq!(seen[0].body["max_tokens"], 50);
    assert_eq!(seen[0].body["messages"][1]["content"], "hello");
    assert!(seen[0].body.get("response_format").is_none());
    assert!(seen[0].header("authorization").is_none());
}

#[test]
fn answer_missing_optional_fields() {
    let server = Server::start(vec![Reply::Http(
        200,
        vec![],
        r#"{"choices":[{"message":{"content":"hi"},"finish_reason":"length"}]}"#.into(),
    )]);
    let r = OpenAiCompatible::new(settings(&server))
        .generate_text(&req())
        .unwrap();
    assert_eq!(r.text, "hi");
    assert_eq!(r.model, "test-model");
    assert_eq!(r.usage, None);
}

#[test]
fn retry_after_429_is_honoured() {
    let server = Server::start(vec![
        Reply::Http(429, vec![("retry-after", "1".into())], "slow down".into()),
        ok("done"),
    ]);
    let start = Instant::now();
    let r = OpenAiCompatible::new(settings(&server))
        .generate_text(&req())
        .unwrap();
    assert_eq!(r.text, "done");
    assert!(
        start.elapsed() >= Duration::from_millis(900),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(server.seen().len(), 2);
}

#[test]
fn server_errors_retried_then_reported() {
    let e500 = Reply::Http(500, vec![], "boom".into());
    let server = Server::start(vec![e500.clone(), e500.clone(), e500.clone(), e500]);
    let err = OpenAiCompatible::new(settings(&server))
        .generate_text(&req())
        .unwrap_err();
    assert_eq!(
        err,
        LlmError::Http {
            status: 500,
            body: "boom".into()
        }
    );
    // 1 attempt + max_retries (3).
    assert_eq!(server.seen().len(), 4);
}

#[test]
fn client_error_is_not_retried() {
    let server = Server::start(vec![
        Reply::Http(400, vec![], r#"{"error":"bad model"}"#.into()),
        ok("never"),
    ]);
    let err = OpenAiCompatible::new(settings(&server))
        .generate_text(&req())
        .unwrap_err();
    match err {
        LlmError::Http { status: 400, body } => assert!(body.contains("bad model")),
        other => panic!("{other:?}"),
    }
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(server.seen().len(), 1);
}

#[test]
fn hanging_server_times_out() {
    let server = Server::start(vec![Reply::Hang]);
    let mut s = settings(&server);
    s.timeout = Duration::from_millis(300);
    let start = Instant::now();
    let err = OpenAiCompatible::new(s).generate_text(&req()).unwrap_err();
    assert!(matches!(err, LlmError::Timeout { .. }), "{err:?}");
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(server.seen().len(), 1, "timeouts are not retried");
}

#[test]
fn malformed_body() {
    let server = Server::start(vec![Reply::Http(200, vec![], "{\"choices\": [".into())]);
    let err = OpenAiCompatible::new(settings(&server))
        .generate_text(&req())
        .unwrap_err();
    assert!(matches!(err, LlmError::Malformed(_)), "{err:?}");
}

#[test]
fn json_mode_sends_response_format() {
    let server = Server::start(vec![ok("{}")]);
    OpenAiCompatible::new(settings(&server))
        .generate_text(&req().json(true))
        .unwrap();
    assert_eq!(
        server.seen()[0].body["response_format"],
        serde_json::json!({"type": "json_object"})
    );
}

#[test]
fn key_is_sent_as_bearer_and_never_shown() {
    let key = "sk-test-secret-123";
    let server = Server::start(vec![
        ok("fine"),
        Reply::Http(401, vec![], format!("invalid key {key}")),
    ]);
    let mut s = settings(&server);
    s.api_key = Some(key.into());
    let p = OpenAiCompatible::new(s.clone());
    p.generate_text(&req()).unwrap();
    assert_eq!(
        server.seen()[0].header("authorization"),
        Some(format!("Bearer {key}").as_str())
    );
    let err = p.generate_text(&req()).unwrap_err();
    assert!(!err.to_string().contains(key), "{err}");
    assert!(!p.describe().contains(key));
    assert!(!format!("{s:?}").contains(key));
}

#[test]
fn connection_refused_is_transport_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let mut s = LlmSettings::new(format!("http://{addr}/v1"), "m");
    s.timeout = Duration::from_millis(500);
    let err = OpenAiCompatible::new(s).generate_text(&req()).unwrap_err();
    assert!(
        matches!(err, LlmError::Transport(_) | LlmError::Timeout { .. }),
        "{err:?}"
    );
}

#[test]
fn works_inside_a_tokio_runtime() {
    let server = Server::start(vec![ok("inside")]);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let p = OpenAiCompatible::new(settings(&server));
    let text = rt.block_on(async move { p.generate_text(&req()).map(|r| r.text) });
    assert_eq!(text.unwrap(), "inside");
}
