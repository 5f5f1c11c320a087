//! Shared by the integration tests: a world in a temporary home, the
//! server on a loopback port (streamable HTTP) or an in-memory pipe (the
//! stdio transport's framing), and the official rmcp client, which can
//! answer approval requests (elicitation) or not support them at all.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use ccos_serve::{CcosServer, HttpServer, ServeOptions, Stop};
use ccos_world::{Env, World, WorldOptions};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ElicitRequestParams,
    ElicitResult, ElicitationAction, Implementation,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt};
use serde_json::{Value as Json, json};

/// How the test client answers approval requests.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Elicit {
    /// The client does not declare elicitation.
    Unsupported,
    /// Approves every request.
    Approve,
    /// Declines every request.
    Decline,
}

/// An MCP client (rmcp) that records the approval requests it receives.
#[derive(Clone)]
pub struct TestClient {
    pub elicit: Elicit,
    pub asked: Arc<Mutex<Vec<String>>>,
}

impl TestClient {
    pub fn new(elicit: Elicit) -> TestClient {
        TestClient {
            elicit,
            asked: Arc::new(Mutex::new(vec![])),
        }
    }

    pub fn asked(&self) -> Vec<String> {
        self.asked.lock().unwrap().clone()
    }
}

impl ClientHandler for TestClient {
    fn get_info(&self) -> ClientConfig {
        let caps: ClientCapabilities = match self.elicit {
            Elicit::Unsupported => ClientCapabilities::default(),
            _ => serde_json::from_value(json!({"elicitation": {"form": {}}})).unwrap(),
        };
        ClientConfig::new(caps, Implementation::new("ccos-test-client", "1.0.0"))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let message = match &request {
            ElicitRequestParams::FormElicitationParams { message, .. } => message.clone(),
            _ => "<not a form>".into(),
        };
        self.asked.lock().unwrap().push(message);
        Ok(match self.elicit {
            Elicit::Approve => {
                ElicitResult::new(ElicitationAction::Accept).with_content(json!({"approve": true}))
            }
            _ => ElicitResult::new(ElicitationAction::Decline),
        })
    }
}

pub type Client = RunningService<RoleClient, TestClient>;

/// A temporary home: `work/` is the root the file built-ins may touch,
/// `policy.toml` (written by [`Home::policy`]) the policy in force.
pub struct Home {
    pub dir: tempfile::TempDir,
}

impl Home {
    pub fn new() -> Home {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("work")).unwrap();
        let home = Home { dir };
        home.policy("");
        home
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn work(&self) -> PathBuf {
        self.path().join("work")
    }

    /// Writes the policy (TOML) and a config pointing at it.
    pub fn policy(&self, toml: &str) {
        std::fs::write(self.path().join("policy.toml"), toml).unwrap();
        std::fs::write(
            self.path().join("config.toml"),
            format!(
                "policy = \"policy.toml\"\n[files]\nroots = [{:?}]\n",
                self.work().display().to_string()
            ),
        )
        .unwrap();
    }

    /// Writes `mcp.json` with these servers (`mcpServers` entries).
    pub fn mcp_servers(&self, servers: Json) {
        std::fs::write(
            self.path().join("mcp.json"),
            serde_json::to_string_pretty(&json!({"mcpServers": servers})).unwrap(),
        )
        .unwrap();
    }

    /// Opens the world, with these environment variables.
    pub fn world(&self, env: &[(&str, &str)]) -> Arc<World> {
        let mut o = WorldOptions::new(self.path());
        o.env = Env::from_pairs(env.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        o.cwd = self.path().to_path_buf();
        Arc::new(World::open(o).unwrap())
    }
}

/// The server on a loopback port, stopped when dropped.
pub struct Served {
    pub url: String,
    pub token: Option<String>,
    stop: Stop,
    thread: Option<JoinHandle<()>>,
}

impl Served {
    pub fn http(world: Arc<World>, options: ServeOptions, token: Option<&str>) -> Served {
        let server = HttpServer::bind(
            "127.0.0.1:0".parse().unwrap(),
            token.map(ToString::to_string),
        )
        .unwrap();
        let url = server.url();
        let stop = Stop::new();
        let s = stop.clone();
        let thread = std::thread::spawn(move || {
            server
                .serve(world, options, s, Duration::from_millis(200))
                .unwrap();
        });
        Served {
            url,
            token: token.map(ToString::to_string),
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        self.stop.stop();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A client runtime (the world has its own).
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// Connects `client` over streamable HTTP.
pub async fn connect_http(
    url: &str,
    token: Option<&str>,
    client: TestClient,
) -> Result<Client, String> {
    let mut config = StreamableHttpClientTransportConfig::with_uri(url);
    if let Some(t) = token {
        config = config.auth_header(t);
    }
    let transport = StreamableHttpClientTransport::from_config(config);
    client.serve(transport).await.map_err(|e| e.to_string())
}

/// Serves `world` over an in-memory pipe (the stdio transport's framing:
/// newline-delimited JSON-RPC) and connects `client` to it.
pub async fn connect_pipe(world: Arc<World>, options: ServeOptions, client: TestClient) -> Client {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let server = CcosServer::new(world, options);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    client.serve(client_io).await.unwrap()
}

/// Calls tool `name` with JSON arguments.
pub async fn call(client: &Client, name: &str, args: Json) -> Result<CallToolResult, String> {
    let mut p = CallToolRequestParams::new(name.to_string());
    if let Json::Object(m) = args {
        p = p.with_arguments(m);
    }
    client.call_tool(p).await.map_err(|e| e.to_string())
}

/// The structured content of a result (panics when there is none).
pub fn structured(r: &CallToolResult) -> Json {
    r.structured_content
        .clone()
        .unwrap_or_else(|| panic!("no structured content: {r:?}"))
}

/// The text of a result's content blocks, joined.
pub fn text_of(r: &CallToolResult) -> String {
    serde_json::to_value(&r.content)
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c.get("text").and_then(Json::as_str))
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn is_error(r: &CallToolResult) -> bool {
    r.is_error == Some(true)
}

/// The whole causal chain, as JSON text.
pub fn chain(world: &World) -> String {
    let entries = world.block_on(world.store().unwrap().chain_all()).unwrap();
    serde_json::to_string(&entries).unwrap()
}

/// The chain's entries of one kind, as JSON.
pub fn chain_of_kind(world: &World, kind: &str) -> Vec<Json> {
    let entries = world
        .block_on(world.store().unwrap().chain_by_kind(kind))
        .unwrap();
    entries
        .iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .collect()
}
