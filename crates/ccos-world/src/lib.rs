//! # One way to open the world
//!
//! A [`World`] is everything a ccos command works with, assembled in one
//! place from `$CCOS_HOME`: the configuration ([`Config`]), the security
//! policy (one resolution rule, [`World::policy_source`]), the secrets to
//! redact ([`World::secrets`]), the capability marketplace with every
//! executor registered ([`World::marketplace`]), the store
//! ([`World::store`]), the language model when one is configured
//! ([`World::llm`]), and **one tokio runtime** created once
//! ([`World::block_on`]). The CLI parses arguments, opens a world, calls
//! one of its operations and prints the result; the MCP server does the
//! same over MCP.
//!
//! Operations, by module:
//! - [`plan`]: goal → plan (deterministic planner, or a language model),
//!   recorded; the decision trace and requires-agent report as text;
//! - [`run`]: governed execution of plans and goals;
//! - [`catalog`]: the capability catalog (list, search, import, remove);
//! - [`servers`]: MCP server configuration and discovery;
//! - [`synth`]: planner synthesis from conversations.
//!
//! ```no_run
//! use ccos_world::{World, WorldOptions};
//!
//! let world = World::open(WorldOptions::new("/tmp/ccos-home")).unwrap();
//! let planned = world.plan_goal("add 2 and 3").unwrap();
//! println!("{}", planned.result.rtfs.unwrap_or_default());
//! ```

#![warn(missing_docs)]

pub mod catalog;
pub mod config;
pub mod env;
pub mod home;
pub mod plan;
pub mod run;
pub mod runs;
pub mod servers;
pub mod synth;

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use ccos_core::Redactor;
use ccos_governance::Policy;
use ccos_llm::{LlmProvider, Recorder};
use ccos_marketplace::Marketplace;
use ccos_marketplace::builtins::{self, BuiltinConfig};
use ccos_marketplace::openapi::{Credentials, OpenApiExecutor};
use ccos_marketplace::prompt::{NoPrompter, UserPrompter};
use ccos_mcp::{McpConfig, McpExecutor};
use ccos_orchestrator::{Approver, DenyAll, Orchestrator, ProgressSink};
use ccos_store::Store;

pub use config::{ApiCredentials, Config};
pub use env::Env;
pub use home::Home;
pub use plan::IndexOutcome;

/// Why an operation failed, with the exit code class the CLI maps it to.
#[derive(Debug)]
pub enum WorldError {
    /// The request itself is wrong (exit 2): bad arguments, no LLM
    /// configured for an LLM command, an empty goal.
    Usage(String),
    /// The policy refuses (exit 3).
    Denied(String),
    /// Anything else (exit 1): unreadable files, store errors, failures.
    Failed(String),
    /// RTFS source that does not parse or evaluate, with its source
    /// attached for rendering (exit 1).
    Rtfs(Box<rtfs::RtfsError>),
}

impl WorldError {
    /// A failure (exit 1) with this message.
    pub fn failed(message: impl std::fmt::Display) -> WorldError {
        WorldError::Failed(message.to_string())
    }

    /// A usage error (exit 2) with this message.
    pub fn usage(message: impl std::fmt::Display) -> WorldError {
        WorldError::Usage(message.to_string())
    }
}

impl std::fmt::Display for WorldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WorldError::Usage(m) | WorldError::Denied(m) | WorldError::Failed(m) => f.write_str(m),
            WorldError::Rtfs(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for WorldError {}

impl From<ccos_store::StoreError> for WorldError {
    fn from(e: ccos_store::StoreError) -> Self {
        WorldError::Failed(format!("store: {e}"))
    }
}

/// How to open a world.
pub struct WorldOptions {
    /// `$CCOS_HOME` (already resolved by the caller, see [`Home::resolve`]).
    pub home: PathBuf,
    /// The environment variables the world may read.
    pub env: Env,
    /// The directory relative command-line paths resolve against.
    pub cwd: PathBuf,
    /// `--policy FILE` (relative to `cwd`); else the config's, else the default.
    pub policy_file: Option<PathBuf>,
    /// Who approves calls that need approval (default: nobody, refused).
    pub approver: Arc<dyn Approver>,
    /// Who answers `ccos.user.ask` (default: nobody, an error).
    pub prompter: Arc<dyn UserPrompter>,
    /// Where live step progress goes.
    pub progress: Option<Arc<dyn ProgressSink>>,
    /// Where embedding progress goes (`(embedded, total)`), when the
    /// catalog's semantic index needs vectors the cache does not hold.
    pub index_progress: Option<IndexProgressSink>,
}

/// Receives `(embedded, total)` while the catalog is embedded for semantic
/// resolution (see [`World::index_catalog`]).
pub type IndexProgressSink = Arc<dyn Fn(usize, usize) + Send + Sync>;

impl WorldOptions {
    /// Options for `home`, nothing else: no environment, the process's
    /// current directory, default policy, non-interactive.
    pub fn new(home: impl Into<PathBuf>) -> WorldOptions {
        WorldOptions {
            home: home.into(),
            env: Env::default(),
            cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
            policy_file: None,
            approver: Arc::new(DenyAll),
            prompter: Arc::new(NoPrompter),
            progress: None,
            index_progress: None,
        }
    }
}

/// Everything a command works with (see the crate docs).
pub struct World {
    home: Home,
    env: Env,
    cwd: PathBuf,
    config: Config,
    policy: Policy,
    policy_source: String,
    secrets: Redactor,
    approver: Arc<dyn Approver>,
    prompter: Arc<dyn UserPrompter>,
    progress: Option<Arc<dyn ProgressSink>>,
    #[cfg_attr(not(feature = "semantic"), allow(dead_code))]
    index_progress: Option<IndexProgressSink>,
    runtime: tokio::runtime::Runtime,
    marketplace: OnceLock<Arc<Marketplace>>,
    mcp: OnceLock<Arc<McpExecutor>>,
    store: OnceLock<Store>,
    orchestrator: OnceLock<Orchestrator>,
}

/// The secret values to redact: the policy's and the configuration's
/// secret variables, and the LLM API key (a secret by definition).
fn collect_secrets(policy: &Policy, config: &Config, env: &Env) -> Redactor {
    let mut names = policy.secret_env.clone();
    let api_keys = config.openapi.values().flat_map(ApiCredentials::env_names);
    for n in config
        .secrets
        .env
        .iter()
        .cloned()
        .chain(api_keys)
        .collect::<Vec<_>>()
        .iter()
    {
        if !names.contains(n) {
            names.push(n.clone());
        }
    }
    let mut r = Redactor::from_env(&names, |n| env.get(n));
    if let Some(k) = env.get(ccos_llm::ENV_API_KEY) {
        r.add_named(ccos_llm::ENV_API_KEY, k);
    }
    if let Some(k) = &config.llm.api_key {
        r.add_named("llm.api_key", k.clone());
    }
    r
}

impl World {
    /// Opens the world: reads the configuration and the policy, collects
    /// the secrets and starts the runtime. The marketplace, the store and
    /// MCP sessions open on first use.
    pub fn open(opts: WorldOptions) -> Result<World, WorldError> {
        let home = Home::resolve(Some(opts.home));
        let config = Config::load(&home)?;
        let (mut policy, policy_source) =
            resolve_policy(opts.policy_file.as_deref(), &config, &home, &opts.cwd)?;
        for name in &config.secrets.env {
            if !policy.secret_env.contains(name) {
                policy.secret_env.push(name.clone());
            }
        }
        let secrets = collect_secrets(&policy, &config, &opts.env);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .thread_name("ccos")
            .build()
            .map_err(|e| WorldError::failed(format!("starting the async runtime: {e}")))?;
        Ok(World {
            home,
            env: opts.env,
            cwd: opts.cwd,
            config,
            policy,
            policy_source,
            secrets,
            approver: opts.approver,
            prompter: opts.prompter,
            progress: opts.progress,
            index_progress: opts.index_progress,
            runtime,
            marketplace: OnceLock::new(),
            mcp: OnceLock::new(),
            store: OnceLock::new(),
            orchestrator: OnceLock::new(),
        })
    }

    /// Runs a future to completion on the world's runtime (call from a
    /// thread that is not a runtime worker).
    pub fn block_on<F: std::future::Future>(&self, fut: F) -> F::Output {
        self.runtime.block_on(fut)
    }

    /// The runtime's handle (to spawn tasks, e.g. a signal listener).
    pub fn handle(&self) -> tokio::runtime::Handle {
        self.runtime.handle().clone()
    }

    /// `$CCOS_HOME`.
    pub fn home(&self) -> &Home {
        &self.home
    }

    /// The environment the world reads.
    pub fn env(&self) -> &Env {
        &self.env
    }

    /// The directory relative command-line paths resolve against.
    pub fn cwd(&self) -> &Path {
        &self.cwd
    }

    /// `config.toml`.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The policy in force (the configuration's secret variables merged in).
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// Where the policy came from: a file path, or `built-in default`.
    pub fn policy_source(&self) -> &str {
        &self.policy_source
    }

    /// The secrets redacted from everything recorded or printed.
    pub fn secrets(&self) -> &Redactor {
        &self.secrets
    }

    /// The catalog (`$CCOS_HOME/catalog`) with the built-ins configured
    /// from `config.toml` and every executor registered: built-ins, MCP
    /// servers of `mcp.json`.
    pub fn marketplace(&self) -> Result<Arc<Marketplace>, WorldError> {
        if let Some(mp) = self.marketplace.get() {
            return Ok(mp.clone());
        }
        let mp = Marketplace::open(self.home.join("catalog")).map_err(WorldError::failed)?;
        let roots = self
            .config
            .files
            .roots
            .clone()
            .unwrap_or_else(|| vec![PathBuf::from(".")])
            .into_iter()
            .map(|r| if r.is_relative() { self.cwd.join(r) } else { r })
            .collect();
        let allow_hosts = self.http_allow_hosts();
        builtins::install(
            &mp,
            BuiltinConfig {
                file_roots: roots,
                http_allow_hosts: allow_hosts.clone(),
                prompter: self.prompter.clone(),
                ..BuiltinConfig::default()
            },
        )
        .map_err(WorldError::failed)?;
        mp.register_executor(self.mcp()?);
        mp.register_executor(Arc::new(self.openapi_executor(&allow_hosts)?));
        let mp = Arc::new(mp);
        Ok(self.marketplace.get_or_init(|| mp).clone())
    }

    /// The hosts HTTP-performing capabilities may reach: the policy's
    /// `[http] allow_hosts` and config.toml's, together.
    pub fn http_allow_hosts(&self) -> Vec<String> {
        let mut hosts = self.policy.http_allow_hosts.clone();
        for h in &self.config.http.allow_hosts {
            if !hosts.contains(h) {
                hosts.push(h.clone());
            }
        }
        hosts
    }

    /// The executor of imported OpenAPI operations: the HTTP allow-list
    /// (checked per redirect hop) and the credentials of `[openapi.*]`.
    fn openapi_executor(&self, allow_hosts: &[String]) -> Result<OpenApiExecutor, WorldError> {
        let mut exec = OpenApiExecutor::new()
            .with_allow_list(ccos_marketplace::http::AllowList::new(allow_hosts));
        for (prefix, c) in &self.config.openapi {
            let value = |var: &Option<String>, what: &str| -> Result<Option<String>, WorldError> {
                match var {
                    None => Ok(None),
                    Some(v) => self.env.get(v).map(Some).ok_or_else(|| {
                        WorldError::failed(format!(
                            "[openapi.{prefix}] {what} names the environment variable {v}, which is not set"
                        ))
                    }),
                }
            };
            let mut creds = Credentials::default();
            if let Some(token) = value(&c.bearer_env, "bearer_env")? {
                creds
                    .headers
                    .push(("Authorization".into(), format!("Bearer {token}")));
            }
            match (&c.header, value(&c.header_env, "header_env")?) {
                (Some(name), Some(v)) => creds.headers.push((name.clone(), v)),
                (None, None) => {}
                _ => {
                    return Err(WorldError::failed(format!(
                        "[openapi.{prefix}] needs both header and header_env"
                    )));
                }
            }
            match (&c.query, value(&c.query_env, "query_env")?) {
                (Some(name), Some(v)) => creds.query.push((name.clone(), v)),
                (None, None) => {}
                _ => {
                    return Err(WorldError::failed(format!(
                        "[openapi.{prefix}] needs both query and query_env"
                    )));
                }
            }
            exec = exec.with_credentials(prefix, creds);
        }
        Ok(exec)
    }

    /// The MCP executor (one lazily started session per server).
    pub fn mcp(&self) -> Result<Arc<McpExecutor>, WorldError> {
        if let Some(m) = self.mcp.get() {
            return Ok(m.clone());
        }
        let cfg =
            McpConfig::load(&McpConfig::path_in(self.home.root())).map_err(WorldError::failed)?;
        // Every discovered server's tools are pinned to the fingerprints
        // accepted at discovery: a tool changed since is not called.
        let cache = ccos_mcp::Cache::in_home(self.home.root());
        let mut pins = vec![];
        for name in cfg.servers.keys() {
            match cache.load(name) {
                Ok(Some(found)) => pins.push((name.clone(), found.fingerprints)),
                Ok(None) => {}
                // Unreadable: nothing counts as accepted (fail closed).
                Err(_) => pins.push((name.clone(), Default::default())),
            }
        }
        let exec = Arc::new(McpExecutor::new(cfg));
        for (name, fps) in pins {
            exec.pin(&name, fps);
        }
        Ok(self.mcp.get_or_init(|| exec).clone())
    }

    /// The store (`CCOS_DATABASE_URL`, the config's `database_url`, else
    /// SQLite under home), opened on first use on the world's runtime.
    pub fn store(&self) -> Result<&Store, WorldError> {
        if let Some(s) = self.store.get() {
            return Ok(s);
        }
        let store = self.audit_store()?;
        self.mark_abandoned_runs(store)?;
        Ok(store)
    }

    /// The store, opened without the sweep [`World::store`] makes for
    /// runs whose process is gone: an audit (`ccos chain ...`) reads the
    /// chain as it is and writes nothing.
    pub fn audit_store(&self) -> Result<&Store, WorldError> {
        if let Some(s) = self.store.get() {
            return Ok(s);
        }
        self.home.ensure().map_err(|e| {
            WorldError::failed(format!("creating {}: {e}", self.home.root().display()))
        })?;
        let url = self.config.database_url(&self.home, &self.env);
        let store = self
            .block_on(Store::open(&url))
            .map_err(|e| WorldError::failed(format!("opening the store: {e}")))?;
        Ok(self.store.get_or_init(|| store))
    }

    /// The orchestrator over this world's marketplace, policy and store,
    /// with its approver, progress and secrets (one per world, so its
    /// interrupt handle is the one signal handlers trigger).
    pub fn orchestrator(&self) -> Result<&Orchestrator, WorldError> {
        if let Some(o) = self.orchestrator.get() {
            return Ok(o);
        }
        let mut o = Orchestrator::new(
            self.marketplace()?,
            self.policy.clone(),
            self.store()?.clone(),
        )
        .with_approver(self.approver.clone())
        .with_redactor(self.secrets.clone());
        if let Some(p) = &self.progress {
            o = o.with_progress(p.clone());
        }
        Ok(self.orchestrator.get_or_init(|| o))
    }

    /// The configured language model, wrapped in a [`Recorder`] that
    /// redacts the world's secrets; `None` when none is configured.
    pub fn llm(&self) -> Result<Option<Arc<Recorder>>, WorldError> {
        let file = ccos_llm::FileSettings {
            base_url: self.config.llm.base_url.clone(),
            model: self.config.llm.model.clone(),
            api_key: self.config.llm.api_key.clone(),
            timeout_secs: self.config.llm.timeout_secs,
            max_retries: self.config.llm.max_retries,
            script: self.config.llm.script.as_ref().map(|p| {
                if p.is_relative() {
                    self.home.join(p)
                } else {
                    p.clone()
                }
            }),
        };
        let env = |name: &str| {
            let v = self.env.get(name)?;
            // A script named in the environment is relative to the cwd.
            if name == ccos_llm::ENV_SCRIPT && Path::new(&v).is_relative() {
                return Some(self.cwd.join(v).display().to_string());
            }
            Some(v)
        };
        let provider: Option<Arc<dyn LlmProvider>> =
            ccos_llm::provider_from_settings(&file, env, Some(self.handle()))
                .map_err(WorldError::failed)?;
        Ok(provider.map(|p| Arc::new(Recorder::new(p, self.secrets.clone()))))
    }

    /// Like [`World::llm`], but a missing configuration is a usage error
    /// saying how to configure one.
    pub fn require_llm(&self) -> Result<Arc<Recorder>, WorldError> {
        self.llm()?.ok_or_else(|| WorldError::usage(NO_LLM_HELP))
    }

    /// Closes MCP sessions (no server process outlives the command) and
    /// the store.
    pub fn shutdown(&self) {
        if let Some(m) = self.mcp.get() {
            self.block_on(m.shutdown());
        }
        if let Some(s) = self.store.get() {
            self.block_on(s.close());
        }
    }
}

impl Drop for World {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// What to tell a user who ran an LLM command with no LLM configured.
pub const NO_LLM_HELP: &str = "no LLM is configured: set CCOS_LLM_BASE_URL and CCOS_LLM_MODEL \
(and CCOS_LLM_API_KEY if the server needs one), or `base_url` and `model` under [llm] in \
$CCOS_HOME/config.toml, or CCOS_LLM_SCRIPT=answers.json to replay scripted answers";

/// The policy in force, by the one rule: `--policy FILE` (relative to the
/// current directory, like any path typed on a command line), else
/// `config.toml`'s `policy` (relative to `$CCOS_HOME`, like every path
/// written in that file), else the built-in default
/// (`examples/policy.toml`). Returns the policy and where it came from.
pub fn resolve_policy(
    explicit: Option<&Path>,
    config: &Config,
    home: &Home,
    cwd: &Path,
) -> Result<(Policy, String), WorldError> {
    let path = match explicit {
        Some(p) if p.is_relative() => Some(cwd.join(p)),
        Some(p) => Some(p.to_path_buf()),
        None => config.policy_path(home),
    };
    match path {
        Some(p) => {
            let policy = Policy::from_file(&p).map_err(WorldError::failed)?;
            Ok((policy, p.display().to_string()))
        }
        None => Ok((Policy::default(), "built-in default".into())),
    }
}
