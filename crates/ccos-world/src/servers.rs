//! MCP servers: their configuration (`$CCOS_HOME/mcp.json`, the
//! `mcpServers` format of Claude Desktop and Cursor), discovery of their
//! tools into the catalog (cached in `$CCOS_HOME/mcp-cache/`), and calling
//! one tool — through the governed door, like any plan's call.

use std::time::Instant;

use ccos_marketplace::CapabilityManifest;
use ccos_mcp::{Cache, McpConfig, ServerConfig};
use ccos_orchestrator::{RunError, RunOptions, RunOutcome};

use crate::{World, WorldError};

/// What discovery found for one server.
#[derive(Debug, Clone)]
pub struct DiscoverReport {
    /// The server's name.
    pub server: String,
    /// The ids registered, or why discovery failed.
    pub result: Result<Discovered, String>,
    /// How long it took.
    pub millis: u128,
}

/// A successful discovery.
#[derive(Debug, Clone)]
pub struct Discovered {
    /// Capability ids registered (one per tool).
    pub ids: Vec<String>,
    /// Ids removed because the server no longer lists them.
    pub removed: Vec<String>,
    /// Tools the server lists that were not registered, and why.
    pub skipped: Vec<ccos_mcp::SkippedTool>,
    /// True when the server was asked now (not read from the cache).
    pub fetched: bool,
    /// When the tools were listed.
    pub fetched_at: String,
}

impl World {
    /// The path of `mcp.json`.
    pub fn mcp_config_path(&self) -> std::path::PathBuf {
        McpConfig::path_in(self.home().root())
    }

    /// `mcp.json` as configured.
    pub fn mcp_config(&self) -> Result<McpConfig, WorldError> {
        McpConfig::load(&self.mcp_config_path()).map_err(WorldError::failed)
    }

    /// The discovery cache.
    pub fn mcp_cache(&self) -> Cache {
        Cache::in_home(self.home().root())
    }

    /// Adds or replaces a server in `mcp.json` (its cached tools are
    /// dropped: they may be stale).
    pub fn add_server(&self, server: &ServerConfig) -> Result<(), WorldError> {
        ccos_mcp::config::upsert_server(&self.mcp_config_path(), server)
            .map_err(WorldError::failed)?;
        self.mcp_cache()
            .remove(&server.name)
            .map_err(WorldError::failed)
    }

    /// Removes a server from `mcp.json`, its cache and its tools from the
    /// catalog; returns the capability ids removed.
    pub fn remove_server(&self, name: &str) -> Result<Vec<String>, WorldError> {
        ccos_mcp::config::remove_server(&self.mcp_config_path(), name)
            .map_err(WorldError::failed)?;
        self.mcp_cache().remove(name).map_err(WorldError::failed)?;
        ccos_mcp::unregister_server(&*self.marketplace()?, name).map_err(WorldError::failed)
    }

    /// Discovers the tools of one server (or all) and registers them as
    /// capabilities; `refresh` asks the servers again instead of using the
    /// cache. Also drops from the catalog the tools of servers no longer in
    /// `mcp.json`.
    pub fn discover(
        &self,
        name: Option<&str>,
        refresh: bool,
    ) -> Result<Vec<DiscoverReport>, WorldError> {
        let cfg = self.mcp_config()?;
        let servers: Vec<&ServerConfig> = match name {
            Some(n) => vec![cfg.server(n).map_err(WorldError::failed)?],
            None => cfg.servers.values().collect(),
        };
        let cache = self.mcp_cache();
        let mp = self.marketplace()?;
        let mut out = vec![];
        for s in servers {
            let start = Instant::now();
            let result = match self.block_on(cache.get_or_discover(s, refresh)) {
                Ok((found, fetched)) => ccos_mcp::register_discovered(&mp, &found)
                    .map(|(_, removed)| Discovered {
                        ids: found.manifests.iter().map(|m| m.id.clone()).collect(),
                        removed,
                        skipped: found.skipped.clone(),
                        fetched,
                        fetched_at: found.fetched_at.clone(),
                    })
                    .map_err(|e| e.to_string()),
                Err(e) => Err(e.to_string()),
            };
            out.push(DiscoverReport {
                server: s.name.clone(),
                result,
                millis: start.elapsed().as_millis(),
            });
        }
        Ok(out)
    }

    /// Removes from the catalog (and the discovery cache) the tools of MCP
    /// servers that are no longer in `mcp.json`; returns their ids.
    pub fn forget_removed_servers(&self) -> Result<Vec<String>, WorldError> {
        let cfg = self.mcp_config()?;
        let mp = self.marketplace()?;
        let mut gone: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
        for m in mp.list() {
            if let ccos_marketplace::ProviderSpec::Mcp { server, .. } = &m.provider
                && !cfg.servers.contains_key(server)
            {
                gone.insert(server.clone());
            }
        }
        let mut removed = vec![];
        for server in gone {
            removed.extend(ccos_mcp::unregister_server(&mp, &server).map_err(WorldError::failed)?);
            self.mcp_cache()
                .remove(&server)
                .map_err(WorldError::failed)?;
        }
        Ok(removed)
    }

    /// The tools of one server, as manifests (from the cache, else asked).
    pub fn server_tools(&self, name: &str) -> Result<Vec<CapabilityManifest>, WorldError> {
        let cfg = self.mcp_config()?;
        let s = cfg.server(name).map_err(WorldError::failed)?;
        let (found, _) = self
            .block_on(self.mcp_cache().get_or_discover(s, false))
            .map_err(WorldError::failed)?;
        Ok(found.manifests)
    }

    /// Calls one capability with JSON arguments **through the governed
    /// door**: the call becomes a one-call plan that the orchestrator
    /// preflights, decides, asks approval for, validates, executes and
    /// records exactly like a plan's call. `source` names it in the record
    /// (`<mcp call>`, `<gateway>`).
    pub fn call_capability(
        &self,
        capability: &str,
        args: serde_json::Value,
        source: &str,
        origin: &str,
    ) -> Result<RunOutcome, RunError> {
        let plan = one_call_plan(capability, &args);
        self.run_plan(
            &plan,
            RunOptions {
                source_name: source.to_string(),
                origin: origin.to_string(),
                ..RunOptions::default()
            },
        )
    }
}

/// `(call :ID ARGS)` as RTFS text, the arguments converted from JSON: an
/// object is the one map argument, an array the positional arguments.
pub fn one_call_plan(capability: &str, args: &serde_json::Value) -> String {
    use rtfs::Value;
    let mut call = vec![
        Value::Symbol("call".into()),
        Value::Keyword(capability.into()),
    ];
    match args {
        serde_json::Value::Array(items) => call.extend(items.iter().map(rtfs::from_json)),
        other => call.push(rtfs::from_json(other)),
    }
    rtfs::print_value(&Value::list(call))
}
