//! Errors of the MCP layer. Every message names the server (and the tool,
//! when a call was under way) so a failed run says what broke.

use std::path::PathBuf;
use std::time::Duration;

/// Why talking to an MCP server failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum McpError {
    /// `mcp.json` is unreadable or malformed.
    #[error("{}: {message}", path.display())]
    Config {
        /// The config file.
        path: PathBuf,
        /// What is wrong, with line/column and server when known.
        message: String,
    },
    /// No server of that name is configured.
    #[error("no MCP server named \"{name}\" in {} (configured: {})", path.display(), if known.is_empty() { "none".to_string() } else { known.join(", ") })]
    UnknownServer {
        /// The name asked for.
        name: String,
        /// The configured names.
        known: Vec<String>,
        /// The config file.
        path: PathBuf,
    },
    /// The server's process could not be started.
    #[error("MCP server \"{server}\": cannot start `{command}`: {message}")]
    Spawn {
        /// Server name.
        server: String,
        /// The program.
        command: String,
        /// The OS error.
        message: String,
    },
    /// The connection or the MCP handshake failed.
    #[error("MCP server \"{server}\": connection failed: {message}")]
    Connect {
        /// Server name.
        server: String,
        /// What happened (exit status and stderr of a dead child included).
        message: String,
    },
    /// The server did not answer in time.
    #[error("MCP server \"{server}\"{}: no answer within {} ms{}", tool_part(tool), after.as_millis(), detail_part(detail))]
    Timeout {
        /// Server name.
        server: String,
        /// The tool being called, if any.
        tool: Option<String>,
        /// The timeout that expired.
        after: Duration,
        /// Extra diagnostics (e.g. non-JSON output seen on stdout).
        detail: String,
    },
    /// The server went away (exited, closed the connection).
    #[error(
        "MCP server \"{server}\"{}: connection closed: {message}",
        tool_part(tool)
    )]
    Closed {
        /// Server name.
        server: String,
        /// The tool being called, if any.
        tool: Option<String>,
        /// Exit status, stderr tail, transport error.
        message: String,
    },
    /// A message from the server exceeded the size cap.
    #[error(
        "MCP server \"{server}\"{}: result exceeds the {limit}-byte cap",
        tool_part(tool)
    )]
    Oversized {
        /// Server name.
        server: String,
        /// The tool being called, if any.
        tool: Option<String>,
        /// The cap in bytes.
        limit: usize,
    },
    /// The server broke the protocol or answered with a JSON-RPC error.
    #[error("MCP server \"{server}\"{}: {message}", tool_part(tool))]
    Protocol {
        /// Server name.
        server: String,
        /// The tool being called, if any.
        tool: Option<String>,
        /// What was wrong.
        message: String,
    },
    /// The tool ran and reported an error (`isError: true`).
    #[error("MCP server \"{server}\", tool \"{tool}\" reported an error: {message}")]
    Tool {
        /// Server name.
        server: String,
        /// Tool name.
        tool: String,
        /// The server's message.
        message: String,
    },
    /// The tool changed since its fingerprint was accepted (or was never
    /// accepted): it is not served until discovery is re-run with
    /// `--accept`.
    #[error(
        "MCP server \"{server}\", tool \"{tool}\" is not served: {message}; review it and run `ccos mcp discover {server} --accept`"
    )]
    Changed {
        /// Server name.
        server: String,
        /// Tool name.
        tool: String,
        /// What differs.
        message: String,
    },
    /// Reading or writing local state (the discovery cache) failed.
    #[error("{}: {message}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        message: String,
    },
}

fn tool_part(tool: &Option<String>) -> String {
    match tool {
        Some(t) => format!(", tool \"{t}\""),
        None => String::new(),
    }
}

fn detail_part(detail: &str) -> String {
    if detail.is_empty() {
        String::new()
    } else {
        format!(" ({detail})")
    }
}
