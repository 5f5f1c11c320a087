//! MCP servers: their configuration (`$CCOS_HOME/mcp.json`, the
//! `mcpServers` format of Claude Desktop and Cursor), discovery of their
//! tools into the catalog (cached in `$CCOS_HOME/mcp-cache/`), and calling
//! one tool — through the governed door, like any plan's call.

use std::time::Instant;

use ccos_core::audit::NewEntry;
use ccos_core::audit::payload::ToolsChanged;
use ccos_marketplace::CapabilityManifest;
use ccos_mcp::{Cache, HeldTool, McpConfig, ServerConfig, ToolChanges};
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
    /// Capability ids registered (one per tool served).
    pub ids: Vec<String>,
    /// Ids removed from the catalog: tools the server no longer lists, and
    /// tools held because they changed.
    pub removed: Vec<String>,
    /// Tools the server lists that were not registered, and why.
    pub skipped: Vec<ccos_mcp::SkippedTool>,
    /// True when the server was asked now (not read from the cache).
    pub fetched: bool,
    /// When the tools were listed.
    pub fetched_at: String,
    /// How this listing differs from the accepted fingerprints (empty when
    /// read from the cache or unchanged; every tool on a first discovery).
    pub changes: ToolChanges,
    /// True when `changes` were accepted (first discovery, `--accept`,
    /// tools that only disappeared), false when they are held.
    pub accepted: bool,
    /// Tools not served until accepted (`ccos mcp discover NAME --accept`).
    pub held: Vec<HeldTool>,
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
    /// cache. Each listing is compared with the fingerprints accepted
    /// before: changed and new tools are held (not served) unless `accept`
    /// (which implies `refresh`), and every change is recorded in the
    /// causal chain (`tools_changed`). Also drops from the catalog the
    /// tools of servers no longer in `mcp.json`.
    pub fn discover(
        &self,
        name: Option<&str>,
        refresh: bool,
        accept: bool,
    ) -> Result<Vec<DiscoverReport>, WorldError> {
        let cfg = self.mcp_config()?;
        let servers: Vec<&ServerConfig> = match name {
            Some(n) => vec![cfg.server(n).map_err(WorldError::failed)?],
            None => cfg.servers.values().collect(),
        };
        let cache = self.mcp_cache();
        let mp = self.marketplace()?;
        let mcp = self.mcp()?;
        let mut out = vec![];
        for s in servers {
            let start = Instant::now();
            let result = match self.block_on(cache.discover_reconciled(s, refresh, accept)) {
                Ok(r) => {
                    mcp.pin(&s.name, r.found.fingerprints.clone());
                    if r.is_new {
                        self.record_tools_changed(&s.name, &r.changes, r.accepted)?;
                    }
                    ccos_mcp::register_discovered(&mp, &r.found)
                        .map(|(_, removed)| Discovered {
                            ids: r.found.manifests.iter().map(|m| m.id.clone()).collect(),
                            removed,
                            skipped: r.found.skipped.clone(),
                            fetched: r.fetched,
                            fetched_at: r.found.fetched_at.clone(),
                            changes: r.changes.clone(),
                            accepted: r.accepted,
                            held: r.found.held.clone(),
                        })
                        .map_err(|e| e.to_string())
                }
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

    /// Appends a `tools_changed` entry for `server`.
    fn record_tools_changed(
        &self,
        server: &str,
        changes: &ToolChanges,
        accepted: bool,
    ) -> Result<(), WorldError> {
        let mut entry = NewEntry::of(&ToolsChanged {
            server: server.to_string(),
            changed: changes.changed.clone(),
            added: changes.added.clone(),
            removed: changes.removed.clone(),
            accepted,
        });
        entry.payload = self.secrets().redact_json(&entry.payload);
        self.block_on(self.store()?.append(entry))?;
        Ok(())
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

    /// The tools of one server that are served, as manifests (from the
    /// cache, else discovered: registered and recorded like
    /// [`World::discover`]).
    pub fn server_tools(&self, name: &str) -> Result<Vec<CapabilityManifest>, WorldError> {
        let report = self.discover(Some(name), false, false)?;
        if let Some(Err(e)) = report.into_iter().next().map(|r| r.result) {
            return Err(WorldError::failed(e));
        }
        let found = self
            .mcp_cache()
            .load(name)
            .map_err(WorldError::failed)?
            .ok_or_else(|| WorldError::failed(format!("no tools cached for {name}")))?;
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
        self.call_capability_with(
            capability,
            args,
            RunOptions {
                source_name: source.to_string(),
                origin: origin.to_string(),
                ..RunOptions::default()
            },
        )
    }

    /// [`World::call_capability`] with the run's options (its approver,
    /// interrupt, whether to keep the provider's result as sent).
    pub fn call_capability_with(
        &self,
        capability: &str,
        args: serde_json::Value,
        options: RunOptions,
    ) -> Result<RunOutcome, RunError> {
        let plan = one_call_plan(capability, &args);
        self.run_plan(&plan, options)
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
