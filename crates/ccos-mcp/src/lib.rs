//! # MCP servers as capabilities
//!
//! Most tools users care about come from MCP servers. This crate makes the
//! tools of any configured server first-class capabilities:
//!
//! - [`config`]: `$CCOS_HOME/mcp.json` in the `mcpServers` format of Claude
//!   Desktop, Cursor and VS Code (stdio `command`/`args`/`env`, or HTTP
//!   `url`/`headers`), plus optional `trust` and `timeout_ms`;
//! - [`session`]: one MCP client session (official `rmcp` SDK) over a
//!   child process's stdio or streamable HTTP, with timeouts, a result-size
//!   cap, and process-group cleanup;
//! - [`discover`]: tools → [`ccos_marketplace::CapabilityManifest`]s with ids
//!   `mcp.<server>.<tool>` ([`names`]), cached under `$CCOS_HOME/mcp-cache/`
//!   with the [`fingerprint`] of every accepted tool (a tool that changes
//!   is held, not served, until discovery is re-run with `--accept`);
//! - [`executor`]: [`McpExecutor`], the `CapabilityExecutor` for provider
//!   `mcp`, with one lazily started session per server per run;
//! - [`result`]: tool results as RTFS values;
//! - [`register`]: discovered tools into the marketplace catalog.

#![warn(missing_docs)]

pub mod config;
pub mod discover;
pub mod error;
pub mod executor;
pub mod fingerprint;
pub mod names;
pub mod register;
pub mod result;
pub mod session;

pub use config::{McpConfig, ServerConfig, Transport};
pub use discover::{
    Cache, DiscoveredServer, Reconciled, SkippedTool, discover, reconcile, tool_manifest,
};
pub use error::McpError;
pub use executor::McpExecutor;
pub use fingerprint::{HeldTool, ToolChanges, tool_fingerprint};
pub use names::{capability_id, parse_capability_id};
pub use register::{register_discovered, unregister_server};
pub use session::{INHERITED_ENV, McpSession, inherited_env};
