//! `$CCOS_HOME/mcp.json`: which MCP servers exist and how to reach them.
//!
//! The format is the `mcpServers` object that Claude Desktop, Cursor and VS
//! Code use, so users can paste what they already have:
//!
//! ```json
//! {"mcpServers": {
//!   "filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], "env": {}},
//!   "remote": {"type": "http", "url": "https://example.invalid/mcp", "headers": {"Authorization": "Bearer ..."}}
//! }}
//! ```
//!
//! ccos adds two optional per-server fields: `trust` (a trust tier name,
//! default `community`) and `timeout_ms` (per-call timeout, default 30 s).
//! Unknown fields are kept, both when reading and when `ccos mcp add` /
//! `remove` rewrite the file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use ccos_marketplace::TrustTier;
use serde::Deserialize;
use serde_json::Value as Json;
use serde_json::value::RawValue;

use crate::error::McpError;

/// The per-call timeout when a server does not set `timeout_ms`.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// The largest tool result accepted from a server (a larger one is an error).
pub const DEFAULT_MAX_RESULT_BYTES: usize = 8 * 1024 * 1024;

/// How to reach a server.
#[derive(Debug, Clone, PartialEq)]
pub enum Transport {
    /// A child process speaking MCP over stdin/stdout.
    Stdio {
        /// Program to run (looked up on `PATH` when not a path).
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Extra environment variables (added to the inherited environment).
        env: BTreeMap<String, String>,
        /// Working directory, when set.
        cwd: Option<PathBuf>,
    },
    /// A streamable HTTP endpoint.
    Http {
        /// The endpoint URL.
        url: String,
        /// Headers sent with every request (e.g. `Authorization`).
        headers: BTreeMap<String, String>,
    },
}

/// One configured server.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerConfig {
    /// Its name (the key in `mcpServers`).
    pub name: String,
    /// How to reach it.
    pub transport: Transport,
    /// Trust tier of its tools (default `community`).
    pub trust: TrustTier,
    /// Per-call timeout (default [`DEFAULT_TIMEOUT`]).
    pub timeout: Duration,
    /// Result size cap (default [`DEFAULT_MAX_RESULT_BYTES`]).
    pub max_result_bytes: usize,
    /// Fields ccos does not interpret (`type`, `disabled`, ...), kept as is.
    pub extra: BTreeMap<String, Json>,
}

impl ServerConfig {
    /// A stdio server with default settings.
    pub fn stdio(name: &str, command: &str, args: &[&str]) -> ServerConfig {
        ServerConfig {
            name: name.into(),
            transport: Transport::Stdio {
                command: command.into(),
                args: args.iter().map(|a| a.to_string()).collect(),
                env: BTreeMap::new(),
                cwd: None,
            },
            trust: TrustTier::Community,
            timeout: DEFAULT_TIMEOUT,
            max_result_bytes: DEFAULT_MAX_RESULT_BYTES,
            extra: BTreeMap::new(),
        }
    }

    /// A streamable HTTP server with default settings.
    pub fn http(name: &str, url: &str) -> ServerConfig {
        ServerConfig {
            name: name.into(),
            transport: Transport::Http {
                url: url.into(),
                headers: BTreeMap::new(),
            },
            trust: TrustTier::Community,
            timeout: DEFAULT_TIMEOUT,
            max_result_bytes: DEFAULT_MAX_RESULT_BYTES,
            extra: BTreeMap::new(),
        }
    }

    /// True for servers that run on this machine (stdio child processes).
    pub fn is_local(&self) -> bool {
        matches!(self.transport, Transport::Stdio { .. })
    }

    /// A one-line description: the command line or the URL.
    pub fn endpoint(&self) -> String {
        match &self.transport {
            Transport::Stdio { command, args, .. } => {
                let mut s = command.clone();
                for a in args {
                    s.push(' ');
                    s.push_str(a);
                }
                s
            }
            Transport::Http { url, .. } => url.clone(),
        }
    }

    /// The JSON object this server is written as in `mcp.json`.
    pub fn to_json(&self) -> Json {
        let mut o = serde_json::Map::new();
        for (k, v) in &self.extra {
            o.insert(k.clone(), v.clone());
        }
        match &self.transport {
            Transport::Stdio {
                command,
                args,
                env,
                cwd,
            } => {
                o.insert("command".into(), Json::from(command.clone()));
                o.insert("args".into(), Json::from(args.clone()));
                if !env.is_empty() {
                    o.insert("env".into(), serde_json::to_value(env).unwrap_or_default());
                }
                if let Some(cwd) = cwd {
                    o.insert("cwd".into(), Json::from(cwd.display().to_string()));
                }
            }
            Transport::Http { url, headers } => {
                o.insert("url".into(), Json::from(url.clone()));
                if !headers.is_empty() {
                    o.insert(
                        "headers".into(),
                        serde_json::to_value(headers).unwrap_or_default(),
                    );
                }
            }
        }
        if self.trust != TrustTier::Community {
            o.insert("trust".into(), Json::from(self.trust.as_str()));
        }
        if self.timeout != DEFAULT_TIMEOUT {
            o.insert(
                "timeout_ms".into(),
                Json::from(u64::try_from(self.timeout.as_millis()).unwrap_or(u64::MAX)),
            );
        }
        if self.max_result_bytes != DEFAULT_MAX_RESULT_BYTES {
            o.insert(
                "max_result_bytes".into(),
                Json::from(self.max_result_bytes as u64),
            );
        }
        Json::Object(o)
    }
}

/// The raw shape of one server entry (what serde reads).
#[derive(Deserialize)]
struct RawServer {
    command: Option<String>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    cwd: Option<PathBuf>,
    url: Option<String>,
    #[serde(default)]
    headers: BTreeMap<String, String>,
    trust: Option<String>,
    timeout_ms: Option<u64>,
    max_result_bytes: Option<u64>,
    #[serde(flatten)]
    extra: BTreeMap<String, Json>,
}

/// Every configured server, by name.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct McpConfig {
    /// The file it was read from (for messages).
    pub path: PathBuf,
    /// Servers by name (sorted).
    pub servers: BTreeMap<String, ServerConfig>,
}

impl McpConfig {
    /// The config file's place under a home directory: `<home>/mcp.json`.
    pub fn path_in(home: &Path) -> PathBuf {
        home.join("mcp.json")
    }

    /// Reads `path`; a missing file is an empty config.
    pub fn load(path: &Path) -> Result<McpConfig, McpError> {
        match ccos_core::text::read_file_bounded(path, ccos_core::text::MAX_INPUT_BYTES, true) {
            Ok(Some(text)) => McpConfig::parse(path, &text),
            Ok(None) => Ok(McpConfig {
                path: path.to_path_buf(),
                servers: BTreeMap::new(),
            }),
            Err(message) => Err(McpError::Config {
                path: path.to_path_buf(),
                message,
            }),
        }
    }

    /// Parses the text of an `mcp.json` (`path` is only used in messages).
    /// Errors name the file, the line and column, and the server.
    pub fn parse(path: &Path, text: &str) -> Result<McpConfig, McpError> {
        let err = |message: String| McpError::Config {
            path: path.to_path_buf(),
            message,
        };
        #[derive(Deserialize)]
        struct Top<'a> {
            #[serde(rename = "mcpServers", alias = "servers", borrow, default)]
            servers: Option<BTreeMap<String, &'a RawValue>>,
        }
        let top: Top<'_> = serde_json::from_str(text)
            .map_err(|e| err(format!("line {}, column {}: {e}", e.line(), e.column())))?;
        let mut servers = BTreeMap::new();
        for (name, raw) in top.servers.unwrap_or_default() {
            // Where this server's object starts in the file, to turn errors
            // inside it into file positions.
            let offset = (raw.get().as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
            let at = |line: usize, column: usize| -> (usize, usize) {
                let (l0, c0) = ccos_core::line_col(text, offset.min(text.len()));
                if line <= 1 {
                    (l0, c0 + column.saturating_sub(1))
                } else {
                    (l0 + line - 1, column)
                }
            };
            let rs: RawServer = serde_json::from_str(raw.get()).map_err(|e| {
                let (l, c) = at(e.line(), e.column());
                err(format!(
                    "line {l}, column {c}: server \"{name}\": {}",
                    without_position(&e)
                ))
            })?;
            let (l, c) = at(1, 1);
            let bad = |m: String| err(format!("line {l}, column {c}: server \"{name}\": {m}"));
            if name.is_empty() {
                return Err(bad("the server name is empty".into()));
            }
            let transport = match (rs.command, rs.url) {
                (Some(command), None) => {
                    if command.trim().is_empty() {
                        return Err(bad("\"command\" is empty".into()));
                    }
                    Transport::Stdio {
                        command,
                        args: rs.args,
                        env: rs.env,
                        cwd: rs.cwd,
                    }
                }
                (None, Some(url)) => {
                    if !(url.starts_with("http://") || url.starts_with("https://")) {
                        return Err(bad(format!("\"url\" must be http(s): {url}")));
                    }
                    Transport::Http {
                        url,
                        headers: rs.headers,
                    }
                }
                (Some(_), Some(_)) => {
                    return Err(bad("has both \"command\" and \"url\"; keep one".into()));
                }
                (None, None) => {
                    return Err(bad(
                        "needs \"command\" (stdio server) or \"url\" (HTTP server)".into(),
                    ));
                }
            };
            let trust = match rs.trust.as_deref() {
                None => TrustTier::Community,
                Some(t) => TrustTier::parse(t).ok_or_else(|| {
                    bad(format!(
                        "unknown trust \"{t}\" (expected one of: system, trusted, community, untrusted)"
                    ))
                })?,
            };
            let timeout = match rs.timeout_ms {
                None => DEFAULT_TIMEOUT,
                Some(0) => return Err(bad("\"timeout_ms\" must be positive".into())),
                Some(ms) => Duration::from_millis(ms),
            };
            let max_result_bytes = match rs.max_result_bytes {
                None => DEFAULT_MAX_RESULT_BYTES,
                Some(0) => return Err(bad("\"max_result_bytes\" must be positive".into())),
                Some(n) => usize::try_from(n).unwrap_or(usize::MAX),
            };
            let extra = rs.extra;
            servers.insert(
                name.clone(),
                ServerConfig {
                    name,
                    transport,
                    trust,
                    timeout,
                    max_result_bytes,
                    extra,
                },
            );
        }
        Ok(McpConfig {
            path: path.to_path_buf(),
            servers,
        })
    }

    /// The server called `name`, or an error listing the configured ones.
    pub fn server(&self, name: &str) -> Result<&ServerConfig, McpError> {
        self.servers
            .get(name)
            .ok_or_else(|| McpError::UnknownServer {
                name: name.into(),
                known: self.servers.keys().cloned().collect(),
                path: self.path.clone(),
            })
    }
}

/// A serde_json message without its trailing " at line L column C" (the
/// position is relative to the server's object; we report the file's).
fn without_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// Adds or replaces server `server.name` in the file at `path`, keeping
/// every other key and server as written (the file is created if missing).
pub fn upsert_server(path: &Path, server: &ServerConfig) -> Result<(), McpError> {
    edit_file(path, |servers| {
        servers.insert(server.name.clone(), server.to_json());
        Ok(())
    })
}

/// Removes server `name` from the file at `path`; an error if it is not there.
pub fn remove_server(path: &Path, name: &str) -> Result<(), McpError> {
    edit_file(path, |servers| match servers.remove(name) {
        Some(_) => Ok(()),
        None => Err(format!("no server named \"{name}\"")),
    })
}

fn edit_file(
    path: &Path,
    f: impl FnOnce(&mut serde_json::Map<String, Json>) -> Result<(), String>,
) -> Result<(), McpError> {
    let err = |message: String| McpError::Config {
        path: path.to_path_buf(),
        message,
    };
    let mut doc: Json =
        match ccos_core::text::read_file_bounded(path, ccos_core::text::MAX_INPUT_BYTES, true) {
            Ok(Some(text)) => {
                // Validate first, so a broken file is reported, not overwritten.
                McpConfig::parse(path, &text)?;
                serde_json::from_str(&text).map_err(|e| err(e.to_string()))?
            }
            Ok(None) => serde_json::json!({}),
            Err(e) => return Err(err(e)),
        };
    let obj = doc
        .as_object_mut()
        .ok_or_else(|| err("the top level is not a JSON object".into()))?;
    let servers = obj
        .entry("mcpServers")
        .or_insert_with(|| Json::Object(Default::default()))
        .as_object_mut()
        .ok_or_else(|| err("\"mcpServers\" is not a JSON object".into()))?;
    f(servers).map_err(err)?;
    let mut text = serde_json::to_string_pretty(&doc).map_err(|e| err(e.to_string()))?;
    text.push('\n');
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| err(format!("cannot create its folder: {e}")))?;
    }
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, text).map_err(|e| err(format!("cannot write it: {e}")))?;
    std::fs::rename(&tmp, path).map_err(|e| err(format!("cannot replace it: {e}")))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<McpConfig, McpError> {
        McpConfig::parse(Path::new("/h/mcp.json"), text)
    }

    #[test]
    fn reads_claude_desktop_format_with_extras() {
        let c = parse(
            r#"{"mcpServers": {
              "fs": {"command": "npx", "args": ["-y", "srv", "/tmp"], "env": {"A": "1"}},
              "web": {"type": "http", "url": "http://127.0.0.1:9/mcp", "headers": {"X-K": "v"},
                      "trust": "trusted", "timeout_ms": 1500}
            }, "other": 1}"#,
        )
        .unwrap();
        let fs = c.server("fs").unwrap();
        assert!(fs.is_local());
        assert_eq!(fs.trust, TrustTier::Community);
        assert_eq!(fs.timeout, DEFAULT_TIMEOUT);
        assert_eq!(fs.endpoint(), "npx -y srv /tmp");
        let web = c.server("web").unwrap();
        assert!(!web.is_local());
        assert_eq!(web.trust, TrustTier::Trusted);
        assert_eq!(web.timeout, Duration::from_millis(1500));
        assert_eq!(web.extra.get("type"), Some(&Json::from("http")));
        assert_eq!(
            web.to_json(),
            serde_json::json!({"type": "http", "url": "http://127.0.0.1:9/mcp",
                "headers": {"X-K": "v"}, "trust": "trusted", "timeout_ms": 1500})
        );
    }

    #[test]
    fn errors_name_file_line_column_and_server() {
        let e = parse(
            "{\"mcpServers\": {\n  \"a\": {\"command\": \"x\"},\n  \"b\": {\"command\": 5}\n}}",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("/h/mcp.json"), "{e}");
        assert!(e.contains("line 3, column 2"), "{e}");
        assert!(!e.contains("at line"), "{e}");
        assert!(e.contains("server \"b\""), "{e}");

        let e = parse("{\"mcpServers\": {\"a\": {\"args\": []}}}")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("server \"a\"") && e.contains("needs \"command\""),
            "{e}"
        );

        let e = parse("{\"mcpServers\": {\"a\": {\"command\": \"x\", \"trust\": \"meh\"}}}")
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown trust"), "{e}");

        let e = parse("{\"mcpServers\": {\n\"a\": {\"command\": \"x\",}}}")
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 2"), "{e}");
        assert!(parse("").is_err());
    }

    #[test]
    fn add_and_remove_keep_other_content() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mcp.json");
        std::fs::write(
            &path,
            r#"{"keep": true, "mcpServers": {"old": {"command": "a", "custom": 1, "type": "stdio"}}}"#,
        )
        .unwrap();
        let added = ServerConfig::http("new", "http://127.0.0.1:1/mcp");
        upsert_server(&path, &added).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let doc: Json = serde_json::from_str(&text).unwrap();
        assert_eq!(doc["keep"], Json::from(true));
        assert_eq!(doc["mcpServers"]["old"]["custom"], Json::from(1));
        let c = McpConfig::load(&path).unwrap();
        assert_eq!(c.servers.keys().collect::<Vec<_>>(), ["new", "old"]);
        remove_server(&path, "old").unwrap();
        assert!(remove_server(&path, "old").is_err());
        let c = McpConfig::load(&path).unwrap();
        assert_eq!(c.servers.keys().collect::<Vec<_>>(), ["new"]);
        assert!(
            McpConfig::load(&dir.path().join("none.json"))
                .unwrap()
                .servers
                .is_empty()
        );
    }
}
