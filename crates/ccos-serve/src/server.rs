//! The MCP server: one [`CcosServer`] per client session, over one shared
//! [`World`]. Every operation runs on a blocking thread of the world's
//! runtime (the world's operations block); every run goes through the
//! world's orchestrator, so through `GovernedHost`, like `ccos run`.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;
use std::time::{Duration, Instant};

use ccos_orchestrator::Interrupt;
use ccos_world::World;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, Implementation, ListPromptsResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, Prompt, PromptArgument, PromptMessage,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, Role, ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, ServiceExt};
use tokio_util::sync::CancellationToken;

use crate::approval::ClientApprover;
use crate::contract;
use crate::{gateway, tools};

/// How the server behaves.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// Also serve the catalog's capabilities (MCP servers' tools, imported
    /// OpenAPI operations, built-ins) as tools: the governed gateway.
    pub gateway: bool,
    /// How long to wait for the client's answer to an approval request.
    pub approval_timeout: Duration,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            gateway: false,
            approval_timeout: Duration::from_secs(300),
        }
    }
}

/// Why serving failed.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The request to serve is wrong (e.g. a non-loopback address without
    /// a token): a usage error.
    #[error("{0}")]
    Usage(String),
    /// Anything else.
    #[error("{0}")]
    Failed(String),
}

/// Stops a running server: `ccos mcp serve`'s signal handlers call
/// [`Stop::stop`]; running plans are interrupted, the transport closes.
#[derive(Debug, Clone, Default)]
pub struct Stop(CancellationToken);

impl Stop {
    /// A handle that has not fired.
    pub fn new() -> Stop {
        Stop::default()
    }

    /// Stops the server.
    pub fn stop(&self) {
        self.0.cancel();
    }

    /// True once stopped.
    pub fn is_stopped(&self) -> bool {
        self.0.is_cancelled()
    }

    pub(crate) fn token(&self) -> CancellationToken {
        self.0.clone()
    }
}

/// What the server tells clients when they connect.
const INSTRUCTIONS: &str = "ccos plans and runs governed work. Find capabilities with \
ccos_capabilities, write an RTFS plan (the prompt ccos_plan_contract has the rules; the resource \
ccos://docs/rtfs.md the language), check it with ccos_check and repair it from the findings' \
hints, run it with ccos_run (independent steps in step-parallel run concurrently; calls that need \
approval are asked of the user), and read what happened with ccos_explain_run. Every call is \
decided by the security policy and recorded in a tamper-evident causal chain \
(ccos_verify_chain).";

/// The MCP server of one client session (cheap to clone).
#[derive(Clone)]
pub struct CcosServer {
    inner: Arc<Inner>,
}

struct Inner {
    world: Arc<World>,
    options: ServeOptions,
    shared: Shared,
}

/// What the sessions of one transport share: the count of operations
/// running on the world's blocking threads (a stopping server waits for
/// them, and only for them), and when each MCP server's discovery cache
/// was last read.
#[derive(Debug, Clone, Default)]
pub(crate) struct Shared {
    running: Arc<AtomicUsize>,
    synced: Arc<Mutex<BTreeMap<String, Option<SystemTime>>>>,
}

/// One running operation; done when dropped.
pub(crate) struct BusyGuard(Arc<AtomicUsize>);

impl Shared {
    fn enter(&self) -> BusyGuard {
        self.running.fetch_add(1, Ordering::SeqCst);
        BusyGuard(self.running.clone())
    }

    fn running(&self) -> usize {
        self.running.load(Ordering::SeqCst)
    }

    /// Picks up discoveries made since the last request — above all
    /// `ccos mcp discover NAME --accept` run in another process while this
    /// server runs: a server whose discovery cache changed is registered
    /// again from it, and its tools pinned to the fingerprints it accepts.
    /// A server never discovered is left alone (no implicit discovery).
    fn sync_discovered(&self, world: &World) {
        let Ok(cfg) = world.mcp_config() else {
            return;
        };
        if cfg.servers.is_empty() {
            return;
        }
        let cache = world.mcp_cache();
        let mut synced = self.synced.lock().unwrap_or_else(|p| p.into_inner());
        for name in cfg.servers.keys() {
            let stamp = std::fs::metadata(cache.path(name))
                .and_then(|m| m.modified())
                .ok();
            if synced.get(name) == Some(&stamp) {
                continue;
            }
            synced.insert(name.clone(), stamp);
            if stamp.is_some() {
                // A failure leaves the catalog and the pins as they were.
                let _ = world.discover(Some(name), false, false);
            }
        }
    }
}

impl Drop for BusyGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl CcosServer {
    /// A server over `world`.
    pub fn new(world: Arc<World>, options: ServeOptions) -> CcosServer {
        CcosServer::with_shared(world, options, Shared::default())
    }

    /// A server sharing `shared` with the other sessions of its transport.
    pub(crate) fn with_shared(
        world: Arc<World>,
        options: ServeOptions,
        shared: Shared,
    ) -> CcosServer {
        CcosServer {
            inner: Arc::new(Inner {
                world,
                options,
                shared,
            }),
        }
    }

    /// The options it serves with.
    pub fn options(&self) -> &ServeOptions {
        &self.inner.options
    }

    /// Runs `f` with the world on a blocking thread of its runtime.
    pub(crate) async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&World) -> T + Send + 'static,
    ) -> Result<T, ErrorData> {
        let world = self.inner.world.clone();
        let shared = self.inner.shared.clone();
        let guard = shared.enter();
        tokio::task::spawn_blocking(move || {
            let _running = guard;
            shared.sync_discovered(&world);
            f(&world)
        })
        .await
        .map_err(|e| ErrorData::internal_error(format!("the operation failed: {e}"), None))
    }

    /// `result` with the declared secrets redacted, once more: values and
    /// messages are redacted where they are made, and nothing a client
    /// receives escapes this last pass.
    fn redacted(&self, result: CallToolResult) -> CallToolResult {
        let secrets = self.inner.world.secrets();
        match serde_json::to_value(&result) {
            Ok(j) => {
                let clean = secrets.redact_json(&j);
                if clean == j {
                    return result;
                }
                serde_json::from_value(clean).unwrap_or_else(|_| {
                    CallToolResult::error(vec![rmcp::model::ContentBlock::text(
                        "the result could not be redacted, so it is withheld",
                    )])
                })
            }
            Err(_) => CallToolResult::error(vec![rmcp::model::ContentBlock::text(
                "the result could not be encoded, so it is withheld",
            )]),
        }
    }

    /// The approver for runs this client submits.
    pub(crate) fn approver(&self, context: &RequestContext<RoleServer>) -> Arc<ClientApprover> {
        Arc::new(ClientApprover::new(
            context.peer.clone(),
            self.inner.world.handle(),
            self.inner.options.approval_timeout,
            self.inner.world.policy_source(),
        ))
    }

    /// A run interrupt fired when the client cancels the request; the
    /// returned guard stops watching when dropped.
    pub(crate) fn request_interrupt(
        &self,
        context: &RequestContext<RoleServer>,
    ) -> (Arc<Interrupt>, tokio_util::sync::DropGuard) {
        let interrupt = Arc::new(Interrupt::default());
        let done = CancellationToken::new();
        let (ct, watch, fire) = (context.ct.clone(), done.clone(), interrupt.clone());
        self.inner.world.handle().spawn(async move {
            tokio::select! {
                _ = ct.cancelled() => fire.trigger(),
                _ = watch.cancelled() => {}
            }
        });
        (interrupt, done.drop_guard())
    }
}

fn prompt() -> Prompt {
    Prompt::new(
        contract::PROMPT_NAME,
        Some(
            "How to write an RTFS plan ccos accepts: the allowed forms, the rules, the \
             check-repair-run workflow; with a goal, the capabilities that look relevant.",
        ),
        Some(vec![
            PromptArgument::new("goal")
                .with_description("What the plan should do (optional).")
                .with_required(false),
        ]),
    )
}

impl ServerHandler for CcosServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .enable_resources()
                .build(),
        )
        .with_server_info(
            Implementation::new("ccos", env!("CARGO_PKG_VERSION"))
                .with_title("ccos — governed plans and tools"),
        )
        .with_protocol_version(ProtocolVersion::V_2025_11_25)
        .with_instructions(INSTRUCTIONS)
    }

    /// Up to 2025-11-25: approvals are asked in the middle of a run (a
    /// server-to-client elicitation request), which protocol 2026-07-28
    /// no longer allows; clients of that version negotiate down.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2025_11_25))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut list = tools::definitions();
        if self.inner.options.gateway {
            let caps = self
                .blocking(gateway::tools)
                .await?
                .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
            list.extend(caps);
        }
        Ok(ListToolsResult::with_all_items(list))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.to_string();
        let arguments = request.arguments.unwrap_or_default();
        let result = if tools::is_ccos_tool(&name) {
            tools::call(self, &name, arguments, &context).await?
        } else if self.inner.options.gateway {
            gateway::call(self, &name, arguments, &context).await?
        } else {
            return Err(unknown_tool(&name));
        };
        Ok(CallToolResponse::from(self.redacted(result)))
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(vec![prompt()]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != contract::PROMPT_NAME {
            return Err(ErrorData::invalid_params(
                format!(
                    "unknown prompt \"{}\" (this server has {})",
                    cut(&request.name, 80),
                    contract::PROMPT_NAME
                ),
                None,
            ));
        }
        let goal = match request.arguments.as_ref().and_then(|a| a.get("goal")) {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::String(g)) => Some(g.clone()).filter(|g| !g.trim().is_empty()),
            Some(_) => {
                return Err(ErrorData::invalid_params(
                    "the prompt's argument goal must be a string",
                    None,
                ));
            }
        };
        if goal
            .as_ref()
            .is_some_and(|g| g.len() > tools::MAX_GOAL_BYTES)
        {
            return Err(ErrorData::invalid_params(
                format!("goal is longer than {} bytes", tools::MAX_GOAL_BYTES),
                None,
            ));
        }
        let text = self
            .blocking(move |world| -> Result<String, String> {
                let caps = match &goal {
                    Some(g) => world
                        .search_capabilities(g, 12)
                        .map_err(|e| e.to_string())?
                        .into_iter()
                        .filter(|h| !h.decision.is_denied())
                        .map(|h| h.manifest)
                        .collect(),
                    None => vec![],
                };
                Ok(contract::render(goal.as_deref(), &caps))
            })
            .await?
            .map_err(|e| ErrorData::internal_error(e, None))?;
        Ok(GetPromptResponse::from(
            GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
                .with_description("The ccos plan-writing contract"),
        ))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![rtfs_resource()]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri != contract::RTFS_URI {
            return Err(ErrorData::resource_not_found(
                format!(
                    "no resource {} (this server has {})",
                    cut(&request.uri, 200),
                    contract::RTFS_URI
                ),
                None,
            ));
        }
        Ok(ReadResourceResponse::from(ReadResourceResult::new(vec![
            ResourceContents::TextResourceContents {
                uri: contract::RTFS_URI.into(),
                mime_type: Some("text/markdown".into()),
                text: contract::RTFS_REFERENCE.into(),
                meta: None,
            },
        ])))
    }
}

fn rtfs_resource() -> Resource {
    let mut r = Resource::new(contract::RTFS_URI, "rtfs.md")
        .with_title("RTFS language reference")
        .with_description(
            "The grammar, special forms, plan forms, standard library, types and limits of RTFS, \
             the language of ccos plans.",
        );
    r.mime_type = Some("text/markdown".into());
    r.size = Some(contract::RTFS_REFERENCE.len() as u64);
    r
}

/// The protocol error for a tool this server does not have (or does not
/// serve to this client: a capability the policy denies).
pub(crate) fn unknown_tool(name: &str) -> ErrorData {
    ErrorData::invalid_params(format!("unknown tool \"{}\"", cut(name, 128)), None)
}

/// `s` cut to `n` characters (names echoed in errors are bounded).
pub(crate) fn cut(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        s.chars().take(n).collect::<String>() + "…"
    }
}

/// Serves one client over stdin/stdout until it disconnects or `stop`
/// fires; then waits (up to `drain`) for operations still running. The
/// world is not dropped here: the caller owns it.
pub fn serve_stdio(
    world: Arc<World>,
    options: ServeOptions,
    stop: Stop,
    drain: Duration,
) -> Result<(), ServeError> {
    let shared = Shared::default();
    let server = CcosServer::with_shared(world.clone(), options, shared.clone());
    let token = stop.token();
    let result = world.block_on(async move {
        let transport = rmcp::transport::stdio_pipes();
        let running = server
            .serve_with_ct(transport, token.child_token())
            .await
            .map_err(|e| ServeError::Failed(format!("MCP handshake on stdio failed: {e}")))?;
        running
            .waiting()
            .await
            .map(|_| ())
            .map_err(|e| ServeError::Failed(format!("serving on stdio failed: {e}")))
    });
    finish(&world, &shared, drain);
    result
}

/// After serving: interrupts running plans and waits (up to `drain`) for
/// the operations still running to end.
pub(crate) fn finish(world: &World, shared: &Shared, drain: Duration) {
    if let Ok(o) = world.orchestrator() {
        o.interrupt().trigger();
    }
    let start = Instant::now();
    while shared.running() > 0 && start.elapsed() < drain {
        std::thread::sleep(Duration::from_millis(20));
    }
}
