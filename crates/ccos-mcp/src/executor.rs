//! [`McpExecutor`]: runs `mcp.*` capabilities by calling the tools of the
//! configured servers.
//!
//! One long-lived session per server per executor (i.e. per run): started
//! lazily on the first call to that server, reused by later calls (also
//! concurrent ones), restarted if the server went away, and ended by
//! [`McpExecutor::shutdown`] or when the executor is dropped (stdio servers'
//! process groups are killed either way).

use std::collections::BTreeMap;
use std::sync::Arc;

use ccos_marketplace::{
    BoxFuture, CallError, CallOutput, CapabilityExecutor, CapabilityManifest, ProviderSpec,
};
use rmcp::model::JsonObject;
use tokio::sync::Mutex;

use crate::config::McpConfig;
use crate::error::McpError;
use crate::result;
use crate::session::McpSession;

/// A live session and, when the server's tools are pinned, the
/// fingerprints it listed (when it started, or when the pins last
/// changed) and the pins they were listed for.
#[derive(Clone)]
struct Live {
    session: Arc<McpSession>,
    listed: Option<Arc<BTreeMap<String, String>>>,
    listed_for: Option<Arc<BTreeMap<String, String>>>,
}

type Slot = Arc<Mutex<Option<Live>>>;

/// Executes capabilities whose provider is `ProviderSpec::Mcp`.
pub struct McpExecutor {
    config: McpConfig,
    sessions: std::sync::Mutex<BTreeMap<String, Slot>>,
    /// Server → tool → accepted fingerprint (see [`McpExecutor::pin`]).
    pins: std::sync::RwLock<BTreeMap<String, Arc<BTreeMap<String, String>>>>,
}

impl McpExecutor {
    /// An executor for the servers of `config` (nothing is started yet).
    pub fn new(config: McpConfig) -> McpExecutor {
        McpExecutor {
            config,
            sessions: std::sync::Mutex::new(BTreeMap::new()),
            pins: std::sync::RwLock::new(BTreeMap::new()),
        }
    }

    /// Pins `server`'s tools to their accepted fingerprints (tool name →
    /// fingerprint, see [`crate::fingerprint`]): every session with the
    /// server then lists its tools when it starts, and a call to a tool
    /// listed with another fingerprint (or no longer listed) is refused as
    /// a policy denial — a server that changed its tools since discovery
    /// is not served until they are accepted again.
    /// A live session lists the tools again at its next call when the pins
    /// changed (pinning the same fingerprints again changes nothing).
    pub fn pin(&self, server: &str, accepted: BTreeMap<String, String>) {
        let mut pins = self.pins.write().unwrap_or_else(|p| p.into_inner());
        if pins.get(server).is_some_and(|p| **p == accepted) {
            return;
        }
        pins.insert(server.to_string(), Arc::new(accepted));
    }

    fn pins_of(&self, server: &str) -> Option<Arc<BTreeMap<String, String>>> {
        self.pins
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .get(server)
            .cloned()
    }

    /// The configuration it serves.
    pub fn config(&self) -> &McpConfig {
        &self.config
    }

    fn slot(&self, server: &str) -> Slot {
        let mut map = match self.sessions.lock() {
            Ok(m) => m,
            Err(poisoned) => poisoned.into_inner(),
        };
        map.entry(server.to_string()).or_default().clone()
    }

    /// The live session with `server`, started if needed (or restarted when
    /// the previous one ended).
    pub async fn session(&self, server: &str) -> Result<Arc<McpSession>, McpError> {
        Ok(self.live(server).await?.session)
    }

    async fn live(&self, server: &str) -> Result<Live, McpError> {
        let cfg = self.config.server(server)?;
        let slot = self.slot(server);
        let mut guard = slot.lock().await;
        let pins = self.pins_of(server);
        if let Some(l) = guard.as_mut()
            && !l.session.is_closed()
        {
            let stale = match (&pins, &l.listed_for) {
                (Some(p), Some(f)) => !Arc::ptr_eq(p, f),
                (Some(_), None) => true,
                (None, _) => false,
            };
            if stale {
                // Pinned (again) since this session listed its tools:
                // list them now.
                let tools = l.session.list_tools().await?;
                l.listed = Some(Arc::new(crate::fingerprint::fingerprints(&tools)));
                l.listed_for = pins;
            }
            return Ok(l.clone());
        }
        let session = Arc::new(McpSession::connect(cfg).await?);
        let listed = if pins.is_some() {
            let tools = session.list_tools().await?;
            Some(Arc::new(crate::fingerprint::fingerprints(&tools)))
        } else {
            None
        };
        let live = Live {
            session,
            listed,
            listed_for: pins,
        };
        *guard = Some(live.clone());
        Ok(live)
    }

    /// Refuses a call to a pinned tool the session listed with another
    /// fingerprint (or did not list).
    fn check_pin(&self, server: &str, tool: &str, live: &Live) -> Result<(), McpError> {
        let (Some(pins), Some(listed)) = (self.pins_of(server), live.listed.as_ref()) else {
            return Ok(());
        };
        let reason = match (pins.get(tool), listed.get(tool)) {
            (Some(a), Some(l)) if a == l => return Ok(()),
            (None, _) => "it was never accepted",
            (Some(_), None) => "the server no longer lists it",
            (Some(_), Some(_)) => {
                "its name, description, schema or annotations changed since it was accepted"
            }
        };
        Err(McpError::Changed {
            server: server.into(),
            tool: tool.into(),
            message: reason.into(),
        })
    }

    /// Calls `tool` on `server` with JSON arguments; `isError` results are
    /// [`McpError::Tool`].
    pub async fn call_json(
        &self,
        server: &str,
        tool: &str,
        arguments: JsonObject,
    ) -> Result<rtfs::Value, McpError> {
        self.call_json_wire(server, tool, arguments)
            .await
            .map(|(value, _)| value)
    }

    /// Like [`McpExecutor::call_json`], also returning the raw
    /// `CallToolResult` as the server sent it.
    pub async fn call_json_wire(
        &self,
        server: &str,
        tool: &str,
        arguments: JsonObject,
    ) -> Result<(rtfs::Value, serde_json::Value), McpError> {
        let live = self.live(server).await?;
        self.check_pin(server, tool, &live)?;
        let session = live.session;
        let raw = match session.call_tool(tool, arguments).await {
            Ok(raw) => raw,
            Err(e) => {
                if matches!(e, McpError::Closed { .. }) {
                    // Forget the dead session so the next call starts afresh.
                    let slot = self.slot(server);
                    let mut guard = slot.lock().await;
                    if guard
                        .as_ref()
                        .is_some_and(|l| Arc::ptr_eq(&l.session, &session))
                    {
                        *guard = None;
                    }
                }
                return Err(e);
            }
        };
        let value = result::to_rtfs(&raw).map_err(|message| McpError::Tool {
            server: server.into(),
            tool: tool.into(),
            message,
        })?;
        Ok((value, raw))
    }

    /// Ends every session (closing connections and child processes).
    pub async fn shutdown(&self) {
        let slots: Vec<Slot> = match self.sessions.lock() {
            Ok(mut m) => std::mem::take(&mut *m).into_values().collect(),
            Err(poisoned) => std::mem::take(&mut *poisoned.into_inner())
                .into_values()
                .collect(),
        };
        for slot in slots {
            let session = slot.lock().await.take().map(|l| l.session);
            if let Some(s) = session {
                match Arc::try_unwrap(s) {
                    Ok(s) => s.shutdown().await,
                    // A call still holds it: its drop kills the process group.
                    Err(s) => drop(s),
                }
            }
        }
    }
}

/// The single map argument of an MCP call as a JSON object.
fn arguments(manifest: &CapabilityManifest, args: &[rtfs::Value]) -> Result<JsonObject, CallError> {
    let id = &manifest.id;
    match args {
        [] | [rtfs::Value::Nil] => Ok(JsonObject::new()),
        [v @ rtfs::Value::Map(_)] => match rtfs::to_json(v) {
            Ok(serde_json::Value::Object(o)) => Ok(o),
            Ok(_) => Err(CallError::invalid(id, "expected one map argument")),
            Err(e) => Err(CallError::invalid(id, e.message)),
        },
        [other] => Err(CallError::invalid(
            id,
            format!("expected one map argument, got {}", other.type_name()),
        )),
        many => Err(CallError::invalid(
            id,
            format!("expected one map argument, got {} arguments", many.len()),
        )),
    }
}

fn call_error(id: &str, e: McpError) -> CallError {
    let message = e.to_string();
    match e {
        McpError::Tool { message, .. } => CallError::failed(id, message),
        McpError::Protocol { .. } | McpError::Oversized { .. } => CallError::failed(id, message),
        McpError::UnknownServer { .. } | McpError::Config { .. } => CallError::NoExecutor {
            capability: id.into(),
            message,
        },
        McpError::Changed { .. } => CallError::Denied {
            capability: id.into(),
            message,
        },
        _ => CallError::unavailable(id, message),
    }
}

impl CapabilityExecutor for McpExecutor {
    fn provider(&self) -> &'static str {
        "mcp"
    }

    fn call<'a>(
        &'a self,
        manifest: &'a CapabilityManifest,
        args: Vec<rtfs::Value>,
    ) -> BoxFuture<'a, Result<rtfs::Value, CallError>> {
        Box::pin(async move {
            let ProviderSpec::Mcp { server, tool } = &manifest.provider else {
                return Err(CallError::NoExecutor {
                    capability: manifest.id.clone(),
                    message: format!("provider is {}, not mcp", manifest.provider.label()),
                });
            };
            let arguments = arguments(manifest, &args)?;
            self.call_json(server, tool, arguments)
                .await
                .map_err(|e| call_error(&manifest.id, e))
        })
    }

    fn call_with_wire<'a>(
        &'a self,
        manifest: &'a CapabilityManifest,
        args: Vec<rtfs::Value>,
    ) -> BoxFuture<'a, Result<CallOutput, CallError>> {
        Box::pin(async move {
            let ProviderSpec::Mcp { server, tool } = &manifest.provider else {
                return Err(CallError::NoExecutor {
                    capability: manifest.id.clone(),
                    message: format!("provider is {}, not mcp", manifest.provider.label()),
                });
            };
            let arguments = arguments(manifest, &args)?;
            self.call_json_wire(server, tool, arguments)
                .await
                .map(|(value, wire)| CallOutput {
                    value,
                    wire: Some(wire),
                })
                .map_err(|e| call_error(&manifest.id, e))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn manifest(server: &str, tool: &str) -> CapabilityManifest {
        CapabilityManifest::new(
            crate::names::capability_id(server, tool),
            "",
            json!({"type": "object"}),
        )
        .with_name(tool)
        .with_provider(ProviderSpec::Mcp {
            server: server.into(),
            tool: tool.into(),
        })
        .local()
    }

    #[test]
    fn arguments_must_be_one_map() {
        let m = manifest("s", "t");
        let map = rtfs::eval_str("{:path \"/x\" :n 2}").unwrap();
        assert_eq!(
            serde_json::Value::Object(arguments(&m, &[map]).unwrap()),
            json!({"path": "/x", "n": 2})
        );
        assert!(arguments(&m, &[]).unwrap().is_empty());
        assert!(matches!(
            arguments(&m, &[rtfs::Value::Int(1)]),
            Err(CallError::InvalidArguments { .. })
        ));
        assert!(arguments(&m, &[rtfs::Value::Nil, rtfs::Value::Nil]).is_err());
    }

    #[tokio::test]
    async fn unknown_servers_and_missing_commands_are_clear_errors() {
        let mut config = McpConfig::default();
        config.servers.insert(
            "ghost".into(),
            crate::config::ServerConfig::stdio("ghost", "/nonexistent/ccos-ghost-server", &[]),
        );
        let ex = McpExecutor::new(config);
        assert_eq!(ex.provider(), "mcp");
        let err = ex.call(&manifest("nope", "t"), vec![]).await.unwrap_err();
        assert!(matches!(err, CallError::NoExecutor { .. }), "{err}");
        let err = ex.call(&manifest("ghost", "t"), vec![]).await.unwrap_err();
        assert!(matches!(err, CallError::Unavailable { .. }), "{err}");
        assert!(err.to_string().contains("ccos-ghost-server"), "{err}");
        let mut m = manifest("ghost", "t");
        m.provider = ProviderSpec::Builtin;
        assert!(ex.call(&m, vec![]).await.is_err());
        ex.shutdown().await;
    }
}
