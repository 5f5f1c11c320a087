//! One live MCP client session with one server, over stdio or streamable
//! HTTP, built on the official `rmcp` SDK.
//!
//! A stdio server runs as a child process in its own process group (so
//! helpers it spawns, e.g. through `npx`, go with it). Dropping the session
//! or calling [`McpSession::shutdown`] ends the whole group: no server
//! outlives its client. Every wait (handshake, listing, call) has a timeout,
//! and stdout is read through a byte cap so an oversized message is an error
//! rather than unbounded memory.

use std::collections::HashMap;
use std::io;
use std::pin::Pin;
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation, JsonObject,
};
use rmcp::service::{RunningService, ServiceError};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value as Json;
use tokio::io::{AsyncBufReadExt, AsyncRead, ReadBuf};

use crate::config::{ServerConfig, Transport};
use crate::error::McpError;

/// How long a clean shutdown may take before the process group is killed.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);
/// How much of a server's stderr is kept for error messages.
const STDERR_TAIL: usize = 2048;

/// What the stdout reader and stderr collector observed, for error messages.
#[derive(Default)]
struct Diagnostics {
    stderr_tail: Mutex<String>,
    non_json: Mutex<Option<String>>,
    oversized: AtomicBool,
}

impl Diagnostics {
    fn stderr(&self) -> String {
        self.stderr_tail
            .lock()
            .map(|s| s.trim().to_string())
            .unwrap_or_default()
    }

    fn non_json(&self) -> Option<String> {
        self.non_json.lock().ok().and_then(|s| s.clone())
    }
}

/// The child process of a stdio server; kills its process group on drop.
struct ChildGuard {
    child: tokio::process::Child,
    pgid: Option<i32>,
}

impl ChildGuard {
    fn kill_group(&mut self) {
        #[cfg(unix)]
        if let Some(pgid) = self.pgid {
            // SAFETY: killpg has no memory-safety preconditions; the group
            // is the one we created for this child.
            unsafe {
                libc::killpg(pgid, libc::SIGKILL);
            }
        }
        let _ = self.child.start_kill();
    }

    /// "exited with status N" when the child has exited, waiting briefly.
    fn exit_status(&mut self) -> Option<String> {
        for _ in 0..20 {
            match self.child.try_wait() {
                Ok(Some(st)) => return Some(format!("the server process exited ({st})")),
                Ok(None) => std::thread::sleep(Duration::from_millis(10)),
                Err(_) => return None,
            }
        }
        None
    }
}

impl Drop for ChildGuard {
    fn drop(&mut self) {
        self.kill_group();
    }
}

/// Reads a server's stdout, failing (and flagging it) when one line - one
/// JSON-RPC message - exceeds `cap` bytes, and remembering the start of the
/// last line that is not JSON.
struct CappedReader<R> {
    inner: R,
    cap: usize,
    line_len: usize,
    line_head: Vec<u8>,
    diag: Arc<Diagnostics>,
}

impl<R> CappedReader<R> {
    fn end_line(&mut self) {
        let head = String::from_utf8_lossy(&self.line_head);
        let t = head.trim_start_matches('\u{feff}').trim();
        if !t.is_empty()
            && !t.starts_with('{')
            && !t.starts_with('[')
            && let Ok(mut slot) = self.diag.non_json.lock()
        {
            *slot = Some(t.chars().take(120).collect());
        }
        self.line_len = 0;
        self.line_head.clear();
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for CappedReader<R> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {}
            other => return other,
        }
        let mut chunk = &buf.filled()[before..];
        while !chunk.is_empty() {
            match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    this.line_len += i;
                    let room = 160usize.saturating_sub(this.line_head.len());
                    this.line_head.extend_from_slice(&chunk[..i.min(room)]);
                    if this.line_len > this.cap {
                        break;
                    }
                    this.end_line();
                    chunk = &chunk[i + 1..];
                }
                None => {
                    this.line_len += chunk.len();
                    let room = 160usize.saturating_sub(this.line_head.len());
                    this.line_head
                        .extend_from_slice(&chunk[..chunk.len().min(room)]);
                    break;
                }
            }
        }
        if this.line_len > this.cap {
            this.diag.oversized.store(true, Ordering::SeqCst);
            // An error read must not hand out data.
            buf.set_filled(before);
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("a message from the server exceeds {} bytes", this.cap),
            )));
        }
        Poll::Ready(Ok(()))
    }
}

/// A connected, initialised MCP session.
pub struct McpSession {
    server: String,
    service: Option<RunningService<RoleClient, ClientConfig>>,
    child: Option<Mutex<ChildGuard>>,
    pid: Option<u32>,
    diag: Arc<Diagnostics>,
    timeout: Duration,
    max_bytes: usize,
}

fn client_info() -> ClientConfig {
    ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("ccos", env!("CARGO_PKG_VERSION")),
    )
}

/// The variables a stdio server inherits from ccos's environment: the
/// default set of the official MCP SDKs, the locale and the time zone.
/// Everything else (API keys, cloud credentials, `CCOS_*`) stays out; a
/// server that needs a variable declares it in its `mcp.json` `env`.
pub const INHERITED_ENV: &[&str] = &[
    "HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LANGUAGE", "TZ", "TMPDIR",
];

/// The inherited part of a stdio server's environment (see
/// [`INHERITED_ENV`]; `LC_*` locale variables too).
pub fn inherited_env() -> Vec<(String, String)> {
    std::env::vars()
        .filter(|(k, _)| INHERITED_ENV.contains(&k.as_str()) || k.starts_with("LC_"))
        .collect()
}

impl McpSession {
    /// Starts (stdio) or contacts (HTTP) the server and performs the MCP
    /// handshake, all within the server's timeout.
    /// Connects to the server of `cfg`. A stdio server is started in its
    /// own process group with a **minimal environment**: only the
    /// variables of [`INHERITED_ENV`] (and `LC_*`) from ccos's own
    /// environment, plus the `env` its `mcp.json` entry declares — never
    /// ccos's secrets, API keys or cloud credentials.
    pub async fn connect(cfg: &ServerConfig) -> Result<McpSession, McpError> {
        let diag = Arc::new(Diagnostics::default());
        let server = cfg.name.clone();
        match &cfg.transport {
            Transport::Stdio {
                command,
                args,
                env,
                cwd,
            } => {
                let mut cmd = tokio::process::Command::new(command);
                cmd.args(args)
                    .env_clear()
                    .envs(inherited_env())
                    .envs(env)
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .kill_on_drop(true);
                if let Some(cwd) = cwd {
                    cmd.current_dir(cwd);
                }
                #[cfg(unix)]
                cmd.process_group(0);
                let mut child = cmd.spawn().map_err(|e| McpError::Spawn {
                    server: server.clone(),
                    command: command.clone(),
                    message: if e.kind() == io::ErrorKind::NotFound {
                        format!("{e} (is it installed and on PATH?)")
                    } else {
                        e.to_string()
                    },
                })?;
                let pid = child.id();
                let pipes = (child.stdin.take(), child.stdout.take(), child.stderr.take());
                let mut guard = ChildGuard {
                    child,
                    pgid: pid.and_then(|p| i32::try_from(p).ok()),
                };
                let (Some(stdin), Some(stdout), Some(stderr)) = pipes else {
                    guard.kill_group();
                    return Err(McpError::Spawn {
                        server,
                        command: command.clone(),
                        message: "its stdio pipes are missing".into(),
                    });
                };
                let d = diag.clone();
                tokio::spawn(async move {
                    let mut lines = tokio::io::BufReader::new(stderr).lines();
                    while let Ok(Some(line)) = lines.next_line().await {
                        if let Ok(mut t) = d.stderr_tail.lock() {
                            t.push_str(&line);
                            t.push('\n');
                            if t.len() > STDERR_TAIL {
                                let cut = t.len() - STDERR_TAIL;
                                let cut = (cut..t.len())
                                    .find(|&i| t.is_char_boundary(i))
                                    .unwrap_or(t.len());
                                t.drain(..cut);
                            }
                        }
                    }
                });
                let reader = CappedReader {
                    inner: stdout,
                    cap: cfg.max_result_bytes,
                    line_len: 0,
                    line_head: Vec::new(),
                    diag: diag.clone(),
                };
                let transport = AsyncRwTransport::new_client(reader, stdin)
                    .with_max_line_length(cfg.max_result_bytes.saturating_add(64 * 1024));
                let session = McpSession {
                    server,
                    service: None,
                    child: Some(Mutex::new(guard)),
                    pid,
                    diag,
                    timeout: cfg.timeout,
                    max_bytes: cfg.max_result_bytes,
                };
                session
                    .handshake(
                        transport,
                        |s, e| s.explain(e),
                        |s| s.detail("during the MCP handshake"),
                    )
                    .await
            }
            Transport::Http { url, headers } => {
                let mut h = HashMap::new();
                for (k, v) in headers {
                    let name = reqwest::header::HeaderName::from_bytes(k.as_bytes());
                    let value = reqwest::header::HeaderValue::from_str(v);
                    match (name, value) {
                        (Ok(n), Ok(v)) => {
                            h.insert(n, v);
                        }
                        _ => {
                            return Err(McpError::Connect {
                                server,
                                message: format!("invalid HTTP header \"{k}\""),
                            });
                        }
                    }
                }
                let config = StreamableHttpClientTransportConfig::with_uri(url.as_str())
                    .custom_headers(h)
                    .max_json_response_size(cfg.max_result_bytes)
                    .max_sse_event_size(cfg.max_result_bytes);
                let transport = StreamableHttpClientTransport::from_config(config);
                let session = McpSession {
                    server,
                    service: None,
                    child: None,
                    pid: None,
                    diag,
                    timeout: cfg.timeout,
                    max_bytes: cfg.max_result_bytes,
                };
                session
                    .handshake(
                        transport,
                        |_, e| format!("{url}: {}", readable(e)),
                        |_| format!("during the MCP handshake with {url}"),
                    )
                    .await
            }
        }
    }

    /// Runs the MCP handshake over `transport` within the session's
    /// timeout; `connect_error` and `timeout_detail` word the failures for
    /// the transport at hand.
    async fn handshake<T, E, A>(
        mut self,
        transport: T,
        connect_error: impl FnOnce(&McpSession, &str) -> String,
        timeout_detail: impl FnOnce(&McpSession) -> String,
    ) -> Result<McpSession, McpError>
    where
        T: rmcp::transport::IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        match tokio::time::timeout(self.timeout, client_info().serve(transport)).await {
            Ok(Ok(service)) => {
                self.service = Some(service);
                Ok(self)
            }
            Ok(Err(e)) => Err(McpError::Connect {
                message: connect_error(&self, &e.to_string()),
                server: self.server.clone(),
            }),
            Err(_) => Err(McpError::Timeout {
                detail: timeout_detail(&self),
                server: self.server.clone(),
                tool: None,
                after: self.timeout,
            }),
        }
    }

    /// The server's name.
    pub fn server(&self) -> &str {
        &self.server
    }

    /// The child's process id (stdio servers), for diagnostics and tests.
    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// What the server said about itself in the handshake (`serverInfo`,
    /// protocol version, ...), as JSON.
    pub fn server_info(&self) -> Json {
        self.service
            .as_ref()
            .and_then(|s| s.peer().peer_info())
            .and_then(|i| serde_json::to_value(&*i).ok())
            .unwrap_or(Json::Null)
    }

    /// True once the connection has ended (server exited, transport closed).
    pub fn is_closed(&self) -> bool {
        let child_exited = self.child.as_ref().is_some_and(|c| {
            c.lock()
                .map(|mut g| !matches!(g.child.try_wait(), Ok(None)))
                .unwrap_or(true)
        });
        child_exited || self.service.as_ref().is_none_or(|s| s.is_closed())
    }

    /// Lists every tool (all pages) as the JSON objects the server sent.
    pub async fn list_tools(&self) -> Result<Vec<Json>, McpError> {
        let service = self.running(None)?;
        match tokio::time::timeout(self.timeout, service.peer().list_all_tools()).await {
            Err(_) => Err(self.timed_out(None)),
            Ok(Err(e)) => Err(self.classify(e, None)),
            Ok(Ok(tools)) => tools
                .iter()
                .map(|t| {
                    serde_json::to_value(t).map_err(|e| McpError::Protocol {
                        server: self.server.clone(),
                        tool: None,
                        message: format!("tool list is not serialisable: {e}"),
                    })
                })
                .collect(),
        }
    }

    /// Calls `tool` with `arguments` (a JSON object) and returns the raw
    /// `CallToolResult` as JSON. `isError` results are returned, not turned
    /// into errors; see [`crate::result`] for that.
    pub async fn call_tool(&self, tool: &str, arguments: JsonObject) -> Result<Json, McpError> {
        let service = self.running(Some(tool))?;
        let params = CallToolRequestParams::new(tool.to_string()).with_arguments(arguments);
        match tokio::time::timeout(self.timeout, service.peer().call_tool(params)).await {
            Err(_) => Err(self.timed_out(Some(tool))),
            Ok(Err(e)) => Err(self.classify(e, Some(tool))),
            Ok(Ok(result)) => {
                let json = serde_json::to_value(&result).map_err(|e| McpError::Protocol {
                    server: self.server.clone(),
                    tool: Some(tool.into()),
                    message: format!("result is not serialisable: {e}"),
                })?;
                let size = serde_json::to_vec(&json).map(|v| v.len()).unwrap_or(0);
                if size > self.max_bytes {
                    return Err(McpError::Oversized {
                        server: self.server.clone(),
                        tool: Some(tool.into()),
                        limit: self.max_bytes,
                    });
                }
                Ok(json)
            }
        }
    }

    /// Ends the session: closes the connection, lets a stdio server exit
    /// (up to 2 s), then kills its process group and reaps it.
    pub async fn shutdown(mut self) {
        if let Some(service) = self.service.take() {
            let _ = tokio::time::timeout(SHUTDOWN_GRACE, service.cancel()).await;
        }
        if let Some(guard) = self.child.take() {
            let Ok(mut guard) = guard.into_inner() else {
                return;
            };
            if tokio::time::timeout(SHUTDOWN_GRACE, guard.child.wait())
                .await
                .is_err()
            {
                guard.kill_group();
                let _ = tokio::time::timeout(SHUTDOWN_GRACE, guard.child.wait()).await;
            }
            // Sweep helpers the server left in its group; the guard's drop
            // does the same.
            drop(guard);
        }
    }

    fn running(
        &self,
        tool: Option<&str>,
    ) -> Result<&RunningService<RoleClient, ClientConfig>, McpError> {
        match &self.service {
            Some(s) if !s.is_closed() => Ok(s),
            _ => Err(McpError::Closed {
                server: self.server.clone(),
                tool: tool.map(str::to_string),
                message: self.explain("the session has ended"),
            }),
        }
    }

    fn timed_out(&self, tool: Option<&str>) -> McpError {
        McpError::Timeout {
            server: self.server.clone(),
            tool: tool.map(str::to_string),
            after: self.timeout,
            detail: self.detail(""),
        }
    }

    /// Extra context for a timeout: non-JSON output seen, stderr tail.
    fn detail(&self, base: &str) -> String {
        let mut parts: Vec<String> = vec![];
        if !base.is_empty() {
            parts.push(base.into());
        }
        self.push_diagnostics(&mut parts);
        parts.join("; ")
    }

    /// `message` plus the child's exit status and stderr tail, when known.
    fn explain(&self, message: &str) -> String {
        let mut parts = vec![message.to_string()];
        if let Some(status) = self
            .child
            .as_ref()
            .and_then(|c| c.lock().ok().and_then(|mut g| g.exit_status()))
        {
            parts.push(status);
        }
        self.push_diagnostics(&mut parts);
        parts.join("; ")
    }

    /// What the server showed besides JSON-RPC: a non-JSON line on stdout,
    /// the tail of its stderr.
    fn push_diagnostics(&self, parts: &mut Vec<String>) {
        if let Some(line) = self.diag.non_json() {
            parts.push(format!(
                "the server wrote output that is not JSON-RPC: \"{line}\""
            ));
        }
        let err = self.diag.stderr();
        if !err.is_empty() {
            parts.push(format!("stderr: {}", last_lines(&err, 3)));
        }
    }

    fn classify(&self, e: ServiceError, tool: Option<&str>) -> McpError {
        let server = self.server.clone();
        let tool = tool.map(str::to_string);
        let text = e.to_string();
        if self.diag.oversized.load(Ordering::SeqCst) || text.contains("exceeded the maximum size")
        {
            return McpError::Oversized {
                server,
                tool,
                limit: self.max_bytes,
            };
        }
        match e {
            ServiceError::McpError(data) => McpError::Protocol {
                server,
                tool,
                message: format!(
                    "the server answered with error {}: {}",
                    data.code.0, data.message
                ),
            },
            ServiceError::TransportClosed | ServiceError::TransportSend(_) => McpError::Closed {
                server,
                tool,
                message: self.explain(&readable(&text)),
            },
            ServiceError::UnexpectedResponse => McpError::Protocol {
                server,
                tool,
                message: "unexpected response to the request".into(),
            },
            _ if self.is_closed() => McpError::Closed {
                server,
                tool,
                message: self.explain(&text),
            },
            _ => McpError::Protocol {
                server,
                tool,
                message: text,
            },
        }
    }
}

/// Drops rmcp's Rust type names (`Transport [rmcp::...] error: `) from a
/// transport error message.
fn readable(message: &str) -> String {
    let mut out = message.to_string();
    while let Some(start) = out.find("Transport [") {
        let Some(len) = out[start..].find("] error: ") else {
            break;
        };
        out.replace_range(start..start + len + "] error: ".len(), "");
    }
    out
}

fn last_lines(s: &str, n: usize) -> String {
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(n)..].join(" | ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    #[tokio::test]
    async fn capped_reader_flags_oversized_lines_and_non_json() {
        let diag = Arc::new(Diagnostics::default());
        let data = b"{\"ok\":1}\nhello world\n{\"x\":\"0123456789\"}\n".to_vec();
        let mut r = CappedReader {
            inner: &data[..],
            cap: 100,
            line_len: 0,
            line_head: vec![],
            diag: diag.clone(),
        };
        let mut out = vec![];
        r.read_to_end(&mut out).await.unwrap();
        assert_eq!(out, data);
        assert_eq!(diag.non_json().as_deref(), Some("hello world"));
        assert!(!diag.oversized.load(Ordering::SeqCst));

        let big = format!("{{\"x\":\"{}\"}}\n", "a".repeat(500));
        let diag = Arc::new(Diagnostics::default());
        let mut r = CappedReader {
            inner: big.as_bytes(),
            cap: 100,
            line_len: 0,
            line_head: vec![],
            diag: diag.clone(),
        };
        let mut out = vec![];
        let err = r.read_to_end(&mut out).await.unwrap_err();
        assert!(err.to_string().contains("exceeds 100 bytes"));
        assert!(diag.oversized.load(Ordering::SeqCst));
    }

    #[test]
    fn transport_type_names_are_dropped() {
        assert_eq!(
            readable(
                "Send message error Transport [a::B<c::D>] error: Client error: refused, when x"
            ),
            "Send message error Client error: refused, when x"
        );
        assert_eq!(readable("plain"), "plain");
    }

    #[tokio::test]
    async fn a_missing_command_is_a_spawn_error() {
        let cfg = ServerConfig::stdio("ghost", "/nonexistent/ccos-no-such-server", &[]);
        let err = McpSession::connect(&cfg).await.err().unwrap();
        let msg = err.to_string();
        assert!(matches!(err, McpError::Spawn { .. }), "{msg}");
        assert!(
            msg.contains("ghost") && msg.contains("ccos-no-such-server"),
            "{msg}"
        );
    }
}
