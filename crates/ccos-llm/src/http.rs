//! [`OpenAiCompatible`]: a chat-completions client over HTTP, and the
//! resolution of its settings (file, then environment overrides).
//!
//! Works with any server speaking the OpenAI chat-completions API (OpenAI,
//! Ollama, llama.cpp, vLLM, LM Studio...). Tolerant of servers that omit
//! optional fields: only `choices[0].message.content` is required.
//! Retries with exponential backoff on 429 and 5xx only (honouring
//! `Retry-After` in seconds, capped); any other 4xx fails at once; every
//! request has a timeout.
//!
//! The [`LlmProvider`] trait is synchronous. A client given the process's
//! runtime ([`OpenAiCompatible::with_runtime`]; what `ccos` does, so a
//! process has one runtime) drives each request on it from the calling
//! thread, which must not be a runtime worker (plan from a plain thread or
//! `spawn_blocking`). Without one, each call runs on a dedicated thread
//! with a current-thread runtime (library use outside tokio).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use ccos_core::Redactor;

use crate::{LlmError, LlmProvider, LlmRequest, LlmResponse, ScriptedProvider, Usage};

/// The `[llm]` keys of a configuration file, as read (every key optional).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileSettings {
    /// OpenAI-compatible base URL (`http://127.0.0.1:11434/v1`).
    pub base_url: Option<String>,
    /// Model name.
    pub model: Option<String>,
    /// API key.
    pub api_key: Option<String>,
    /// Per-request timeout in seconds.
    pub timeout_secs: Option<u64>,
    /// Retries on 429/5xx.
    pub max_retries: Option<u32>,
    /// A script file to replay instead of a server ([`ScriptedProvider`]).
    pub script: Option<PathBuf>,
}

/// Resolved settings of an [`OpenAiCompatible`] provider.
#[derive(Clone, PartialEq, Eq)]
pub struct LlmSettings {
    /// Base URL; requests go to `{base_url}/chat/completions`.
    pub base_url: String,
    /// Model name sent with every request.
    pub model: String,
    /// Sent as `Authorization: Bearer`; never printed.
    pub api_key: Option<String>,
    /// Per-request timeout (default 60 s).
    pub timeout: Duration,
    /// Retries after the first attempt on 429/5xx (default 3).
    pub max_retries: u32,
    /// First backoff delay, doubled at each retry (default 500 ms).
    pub backoff_base: Duration,
    /// Upper bound on any single wait, including `Retry-After` (default 30 s).
    pub max_backoff: Duration,
}

impl std::fmt::Debug for LlmSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlmSettings")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "[REDACTED]"))
            .field("timeout", &self.timeout)
            .field("max_retries", &self.max_retries)
            .field("backoff_base", &self.backoff_base)
            .field("max_backoff", &self.max_backoff)
            .finish()
    }
}

/// Environment variable overriding `base_url`.
pub const ENV_BASE_URL: &str = "CCOS_LLM_BASE_URL";
/// Environment variable overriding `model`.
pub const ENV_MODEL: &str = "CCOS_LLM_MODEL";
/// Environment variable overriding `api_key`.
pub const ENV_API_KEY: &str = "CCOS_LLM_API_KEY";
/// Environment variable naming a script file (replaces any server).
pub const ENV_SCRIPT: &str = "CCOS_LLM_SCRIPT";

impl LlmSettings {
    /// Settings for `base_url` and `model` with the defaults.
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> LlmSettings {
        LlmSettings {
            base_url: base_url.into(),
            model: model.into(),
            api_key: None,
            timeout: Duration::from_secs(60),
            max_retries: 3,
            backoff_base: Duration::from_millis(500),
            max_backoff: Duration::from_secs(30),
        }
    }

    /// Resolves settings from the file's `[llm]` keys, overridden by
    /// `CCOS_LLM_BASE_URL` / `CCOS_LLM_MODEL` / `CCOS_LLM_API_KEY` read
    /// through `env` (empty values count as unset). `Ok(None)` when no base
    /// URL is configured; a base URL without a model is a
    /// [`LlmError::Config`] error.
    pub fn resolve(
        file: &FileSettings,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<LlmSettings>, LlmError> {
        let get = |name: &str, fallback: &Option<String>| {
            env(name)
                .filter(|s| !s.trim().is_empty())
                .or_else(|| fallback.clone().filter(|s| !s.trim().is_empty()))
        };
        let Some(base_url) = get(ENV_BASE_URL, &file.base_url) else {
            return Ok(None);
        };
        let Some(model) = get(ENV_MODEL, &file.model) else {
            return Err(LlmError::Config(format!(
                "an LLM base URL is configured ({}) but no model: set {ENV_MODEL} or `model` under [llm] in config.toml",
                strip_userinfo(&base_url)
            )));
        };
        if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
            return Err(LlmError::Config(format!(
                "LLM base URL must start with http:// or https:// (got {})",
                strip_userinfo(&base_url)
            )));
        }
        let mut s = LlmSettings::new(base_url.trim_end_matches('/'), model);
        s.api_key = get(ENV_API_KEY, &file.api_key);
        if let Some(t) = file.timeout_secs {
            if t == 0 {
                return Err(LlmError::Config("[llm] timeout_secs must be > 0".into()));
            }
            s.timeout = Duration::from_secs(t);
        }
        if let Some(r) = file.max_retries {
            s.max_retries = r;
        }
        Ok(Some(s))
    }
}

/// The script file to replay, if any: `CCOS_LLM_SCRIPT`, else the file's
/// `script` key.
pub fn script_path(file: &FileSettings, env: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    env(ENV_SCRIPT)
        .filter(|s| !s.trim().is_empty())
        .map(PathBuf::from)
        .or_else(|| file.script.clone())
}

/// The provider to use: a [`ScriptedProvider`] when `script` is given (it
/// wins over any server, so demos and tests never reach the network), else
/// an [`OpenAiCompatible`] client when `settings` are given, else `None`.
pub fn open_provider(
    settings: Option<LlmSettings>,
    script: Option<&Path>,
    runtime: Option<tokio::runtime::Handle>,
) -> Result<Option<Arc<dyn LlmProvider>>, LlmError> {
    if let Some(path) = script {
        return Ok(Some(Arc::new(ScriptedProvider::from_file(path)?)));
    }
    Ok(settings.map(|s| {
        let mut client = OpenAiCompatible::new(s);
        if let Some(h) = runtime {
            client = client.with_runtime(h);
        }
        Arc::new(client) as Arc<dyn LlmProvider>
    }))
}

/// Resolves the settings and the script from `file` and `env` and opens the
/// provider ([`open_provider`]); `Ok(None)` when nothing is configured.
pub fn provider_from_settings(
    file: &FileSettings,
    env: impl Fn(&str) -> Option<String>,
    runtime: Option<tokio::runtime::Handle>,
) -> Result<Option<Arc<dyn LlmProvider>>, LlmError> {
    let script = script_path(file, &env);
    if script.is_some() {
        return open_provider(None, script.as_deref(), None);
    }
    open_provider(LlmSettings::resolve(file, &env)?, None, runtime)
}

/// A chat-completions client (see the module docs).
pub struct OpenAiCompatible {
    settings: LlmSettings,
    runtime: Option<tokio::runtime::Handle>,
}

impl OpenAiCompatible {
    /// A client with these settings.
    pub fn new(settings: LlmSettings) -> OpenAiCompatible {
        OpenAiCompatible {
            settings,
            runtime: None,
        }
    }

    /// Drives requests on `runtime` (the process's one runtime) instead of
    /// a runtime of their own.
    pub fn with_runtime(mut self, runtime: tokio::runtime::Handle) -> OpenAiCompatible {
        self.runtime = Some(runtime);
        self
    }

    /// The settings in use.
    pub fn settings(&self) -> &LlmSettings {
        &self.settings
    }
}

impl LlmProvider for OpenAiCompatible {
    fn describe(&self) -> String {
        format!(
            "openai-compatible {} {}",
            strip_userinfo(&self.settings.base_url),
            self.settings.model
        )
    }

    fn generate_text(&self, request: &LlmRequest) -> Result<LlmResponse, LlmError> {
        if let Some(h) = &self.runtime {
            return h.block_on(send_with_retries(&self.settings, request));
        }
        let settings = self.settings.clone();
        let request = request.clone();
        let worker = std::thread::Builder::new()
            .name("ccos-llm-http".into())
            .spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .map_err(|e| LlmError::Transport(format!("starting the HTTP runtime: {e}")))?;
                rt.block_on(send_with_retries(&settings, &request))
            })
            .map_err(|e| LlmError::Transport(format!("starting the HTTP thread: {e}")))?;
        worker
            .join()
            .unwrap_or_else(|_| Err(LlmError::Transport("the HTTP thread panicked".into())))
    }
}

/// The JSON body of a chat-completions request.
fn request_body(settings: &LlmSettings, request: &LlmRequest) -> serde_json::Value {
    let mut body = serde_json::json!({
        "model": settings.model,
        "messages": request.messages,
        "temperature": request.temperature,
    });
    if let Some(n) = request.max_tokens {
        body["max_tokens"] = n.into();
    }
    if request.json_mode {
        body["response_format"] = serde_json::json!({"type": "json_object"});
    }
    body
}

/// One attempt's outcome.
enum Attempt {
    Done(LlmResponse),
    /// Retryable (429/5xx), with the server's `Retry-After` if any.
    Retry(LlmError, Option<Duration>),
    Fail(LlmError),
}

async fn send_with_retries(
    settings: &LlmSettings,
    request: &LlmRequest,
) -> Result<LlmResponse, LlmError> {
    let client = reqwest::Client::builder()
        .timeout(settings.timeout)
        .connect_timeout(settings.timeout)
        .build()
        .map_err(|e| LlmError::Transport(format!("building the HTTP client: {e}")))?;
    let url = format!("{}/chat/completions", settings.base_url);
    let body = request_body(settings, request);
    let mut attempt = 0u32;
    loop {
        match send_once(&client, &url, settings, &body).await {
            Attempt::Done(r) => return Ok(r),
            Attempt::Fail(e) => return Err(e),
            Attempt::Retry(e, retry_after) => {
                if attempt >= settings.max_retries {
                    return Err(e);
                }
                let backoff = settings
                    .backoff_base
                    .saturating_mul(2u32.saturating_pow(attempt));
                let wait = retry_after.unwrap_or(backoff).min(settings.max_backoff);
                tokio::time::sleep(wait).await;
                attempt += 1;
            }
        }
    }
}

async fn send_once(
    client: &reqwest::Client,
    url: &str,
    settings: &LlmSettings,
    body: &serde_json::Value,
) -> Attempt {
    let mut secrets = Redactor::default();
    if let Some(key) = &settings.api_key {
        secrets.add_named("CCOS_LLM_API_KEY", key.clone());
    }
    let timeout_err = || LlmError::Timeout {
        seconds: settings.timeout.as_secs().max(1),
    };
    let transport = |e: reqwest::Error| {
        if e.is_timeout() {
            timeout_err()
        } else {
            // reqwest errors name the URL, never headers; redact anyway.
            LlmError::Transport(secrets.redact_str(&error_chain(&e)).into_owned())
        }
    };
    let mut rb = client.post(url).json(body);
    if let Some(key) = &settings.api_key {
        rb = rb.bearer_auth(key);
    }
    // reqwest's own timeout covers connect + headers + body; the outer one
    // is a belt for anything it does not cover.
    let outer = settings.timeout + Duration::from_millis(200);
    let fut = async {
        let resp = rb.send().await.map_err(transport)?;
        let status = resp.status().as_u16();
        let retry_after = resp
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let text = resp.text().await.map_err(transport)?;
        Ok::<_, LlmError>((status, retry_after, text))
    };
    let (status, retry_after, text) = match tokio::time::timeout(outer, fut).await {
        Err(_) => return Attempt::Fail(timeout_err()),
        Ok(Err(e)) => return Attempt::Fail(e),
        Ok(Ok(x)) => x,
    };
    if !(200..300).contains(&status) {
        let err = LlmError::Http {
            status,
            body: secrets.redact_str(&body_start(&text)).into_owned(),
        };
        return if status == 429 || (500..600).contains(&status) {
            Attempt::Retry(err, retry_after)
        } else {
            Attempt::Fail(err)
        };
    }
    match parse_completion(&text, &settings.model) {
        Ok(r) => Attempt::Done(r),
        Err(e) => Attempt::Fail(LlmError::Malformed(secrets.redact_str(&e).into_owned())),
    }
}

/// Parses a chat-completions answer; only `choices[0].message.content` is
/// required. Content may be a string or a list of `{"type":"text","text":..}`
/// parts (joined).
pub fn parse_completion(text: &str, default_model: &str) -> Result<LlmResponse, String> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        format!(
            "answer is not JSON (line {} column {}: {e}); body starts: {}",
            e.line(),
            e.column(),
            body_start(text)
        )
    })?;
    let message = v
        .get("choices")
        .and_then(|c| c.get(0))
        .and_then(|c| c.get("message"))
        .ok_or_else(|| {
            format!(
                "no choices[0].message in the answer; body starts: {}",
                body_start(text)
            )
        })?;
    let content = match message.get("content") {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(serde_json::Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(|t| t.as_str()))
            .collect::<Vec<_>>()
            .join(""),
        _ => {
            return Err(format!(
                "choices[0].message.content is missing or not text; body starts: {}",
                body_start(text)
            ));
        }
    };
    let model = v
        .get("model")
        .and_then(|m| m.as_str())
        .unwrap_or(default_model)
        .to_string();
    let usage = v.get("usage").and_then(|u| {
        Some(Usage {
            prompt_tokens: u.get("prompt_tokens")?.as_u64()?,
            completion_tokens: u
                .get("completion_tokens")
                .and_then(|c| c.as_u64())
                .unwrap_or(0),
        })
    });
    Ok(LlmResponse {
        text: content,
        model,
        usage,
    })
}

/// The first 300 characters of a body, for error messages.
fn body_start(text: &str) -> String {
    const MAX: usize = 300;
    let mut s: String = text.chars().take(MAX).collect();
    if text.chars().count() > MAX {
        s.push('…');
    }
    s
}

/// An error and its sources, one line.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        s.push_str(": ");
        s.push_str(&c.to_string());
        cur = c.source();
    }
    s
}

/// `http://user:pass@host/x` → `http://host/x`, for descriptions and errors.
fn strip_userinfo(url: &str) -> String {
    if let Some((scheme, rest)) = url.split_once("://") {
        let authority_end = rest.find('/').unwrap_or(rest.len());
        if let Some(at) = rest[..authority_end].rfind('@') {
            return format!("{scheme}://{}", &rest[at + 1..]);
        }
    }
    url.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let m: BTreeMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| m.get(k).cloned()
    }

    #[test]
    fn resolve_env_overrides_file() {
        let file = FileSettings {
            base_url: Some("http://file/v1/".into()),
            model: Some("m-file".into()),
            api_key: Some("k-file".into()),
            timeout_secs: Some(5),
            max_retries: Some(1),
            script: None,
        };
        let s = LlmSettings::resolve(&file, env(&[])).unwrap().unwrap();
        assert_eq!(s.base_url, "http://file/v1");
        assert_eq!(s.model, "m-file");
        assert_eq!(s.timeout, Duration::from_secs(5));
        assert_eq!(s.max_retries, 1);
        let s = LlmSettings::resolve(
            &file,
            env(&[
                (ENV_MODEL, "m-env"),
                (ENV_API_KEY, "k-env"),
                (ENV_BASE_URL, "https://e"),
            ]),
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            (s.base_url.as_str(), s.model.as_str()),
            ("https://e", "m-env")
        );
        assert_eq!(s.api_key.as_deref(), Some("k-env"));
        assert!(!format!("{s:?}").contains("k-env"));
    }

    #[test]
    fn resolve_none_and_errors() {
        assert_eq!(
            LlmSettings::resolve(&FileSettings::default(), env(&[])).unwrap(),
            None
        );
        let e = LlmSettings::resolve(&FileSettings::default(), env(&[(ENV_BASE_URL, "http://x")]))
            .unwrap_err();
        assert!(e.to_string().contains(ENV_MODEL), "{e}");
        let e = LlmSettings::resolve(
            &FileSettings::default(),
            env(&[(ENV_BASE_URL, "ftp://x"), (ENV_MODEL, "m")]),
        )
        .unwrap_err();
        assert!(e.to_string().contains("http://"), "{e}");
    }

    #[test]
    fn script_wins() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("s.json");
        std::fs::write(&f, "[\"hi\"]").unwrap();
        let fs = FileSettings {
            base_url: Some("http://127.0.0.1:1".into()),
            model: Some("m".into()),
            ..FileSettings::default()
        };
        let p = provider_from_settings(&fs, env(&[(ENV_SCRIPT, f.to_str().unwrap())]), None)
            .unwrap()
            .unwrap();
        assert!(p.describe().starts_with("scripted"), "{}", p.describe());
        let p = provider_from_settings(&fs, env(&[]), None)
            .unwrap()
            .unwrap();
        assert!(p.describe().starts_with("openai-compatible"));
        assert!(
            provider_from_settings(&FileSettings::default(), env(&[]), None)
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn body_has_optional_fields_only_when_set() {
        let s = LlmSettings::new("http://x", "m");
        let r = LlmRequest::new("p@1", vec![crate::Message::user("hi")]);
        let b = request_body(&s, &r);
        assert!(b.get("max_tokens").is_none() && b.get("response_format").is_none());
        let b = request_body(&s, &r.clone().json(true).max_tokens(10));
        assert_eq!(b["max_tokens"], 10);
        assert_eq!(b["response_format"]["type"], "json_object");
        assert_eq!(b["messages"][0]["role"], "user");
    }

    #[test]
    fn tolerant_parsing() {
        let r = parse_completion(r#"{"choices":[{"message":{"content":"hi"}}]}"#, "d").unwrap();
        assert_eq!(
            (r.text.as_str(), r.model.as_str(), r.usage),
            ("hi", "d", None)
        );
        let r = parse_completion(
            r#"{"choices":[{"message":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},"finish_reason":"length"}],"model":"x","usage":{"prompt_tokens":3}}"#,
            "d",
        )
        .unwrap();
        assert_eq!((r.text.as_str(), r.model.as_str()), ("ab", "x"));
        assert_eq!(r.usage.map(|u| u.prompt_tokens), Some(3));
        assert!(parse_completion(r#"{"choices":[]}"#, "d").is_err());
        assert!(parse_completion(r#"{"choices":[{"message":{"content":null}}]}"#, "d").is_err());
        assert!(
            parse_completion("<html>", "d")
                .unwrap_err()
                .contains("not JSON")
        );
    }

    #[test]
    fn userinfo_stripped() {
        assert_eq!(strip_userinfo("http://u:p@h:1/v1"), "http://h:1/v1");
        assert_eq!(strip_userinfo("http://h/v1"), "http://h/v1");
    }
}
