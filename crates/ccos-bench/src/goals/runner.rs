//! Running the goal suite end to end through the real `ccos` binary
//! (`goals/README.md`, "Running a goal").
//!
//! Once per run: the loopback fixture server
//! ([`ccos_testkit::fixtures::Fixtures`]) and a **template home** where
//! every MCP server some selected goal needs is configured and discovered
//! (`ccos mcp discover`) and the TMDB and GitHub documents are imported
//! (`ccos caps import-openapi --base-url` at the fixture server). Then for
//! each goal, a fresh directory with:
//!
//! - `home/`: `config.toml` (`file_roots = [W]`, HTTP allow-list
//!   `127.0.0.1`), `mcp.json` with exactly the goal's servers (`needs` and
//!   `distractors`) and its own paths (the filesystem server's root `W`,
//!   the memory file in this home, this goal's repository), their
//!   discovery caches and the template catalog restricted to the goal's
//!   servers and documents (so a goal sees what discovery and import would
//!   have given it, without paying for them again); the memory seed when
//!   `memory_seed`;
//! - `workspace/` (`W`): a copy of `goals/fixtures/workspace/`, the
//!   current directory of the run;
//! - `repo/`: a fresh repository from `make-git-repo.sh` when the goal
//!   configures `git`.
//!
//! `ccos run GOAL --json [--yes] [--answer A]...` runs there with the
//! caller's environment ([`RunnerOptions::env`]) without its `CCOS_*`
//! variables, `CCOS_HOME` set, `TZ=UTC`,
//! no stdin, in its own process group; past the goal's timeout the group
//! gets SIGTERM (ccos stops its MCP servers), then SIGKILL. The after-run
//! checks (`files`, `files_absent`, `dirs`, `memory_check`, `git_check`)
//! read the goal's directory, which is then deleted.
//!
//! A server that is not installed, fails discovery, or a document that is
//! missing makes the goals that configure it `error` outcomes naming the
//! reason, never skipped.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value as Json, json};

use super::{
    DOCUMENTS, GitCheck, Goal, GoalResult, GoalsError, GoalsReport, MemoryCheck, Observed, Outcome,
    Placeholders, SERVERS, Status, SuitePart, classify, load_suite, select, summaries,
};

/// How long template setup commands (discovery, import) may take.
const SETUP_TIMEOUT: Duration = Duration::from_secs(180);

/// The `CCOS_*` variables a goal's `ccos` keeps from the caller: with the
/// `semantic` feature, where the embedding model is (a build with it
/// measures the planner with semantic resolution, as `ccos run` would
/// run). No other: a developer's configuration (LLM, store, policy)
/// never reaches a goal.
#[cfg(feature = "semantic")]
const KEPT_CCOS_VARS: [&str; 1] = ["CCOS_EMBED_MODEL_DIR"];
#[cfg(not(feature = "semantic"))]
const KEPT_CCOS_VARS: [&str; 0] = [];

/// What to run and where things are.
#[derive(Debug, Clone)]
pub struct RunnerOptions {
    /// The `ccos` binary to run (`std::env::current_exe()` from the CLI,
    /// `env!("CARGO_BIN_EXE_ccos")` in tests).
    pub binary: PathBuf,
    /// The repository: `goals/` and `tools/mcp/` are read from it.
    pub repo_root: PathBuf,
    /// The public benchmark directory (`../shared/bench`): the TMDB
    /// document is imported from it.
    pub bench_dir: PathBuf,
    /// Which part.
    pub part: SuitePart,
    /// Goal ids or id prefixes (all goals of the part when empty).
    pub only: Vec<String>,
    /// Goals run in parallel (0 is 1).
    pub jobs: usize,
    /// Keep the run directory (template and every goal's home, workspace
    /// and repository) instead of deleting it; the report names it.
    pub keep: bool,
    /// The environment of every `ccos` process (and so of the MCP servers
    /// it starts): typically the caller's, for `PATH` and `HOME`. Its
    /// `CCOS_*` variables are dropped (but [`KEPT_CCOS_VARS`]), so the
    /// developer's configuration never leaks into a goal; the runner sets
    /// `CCOS_HOME` and `TZ=UTC`.
    pub env: Vec<(OsString, OsString)>,
}

/// Called after each goal with (goals done, goals selected, the result).
pub type Progress<'a> = &'a (dyn Fn(usize, usize, &GoalResult) + Sync);

/// Runs the selected goals and summarizes them. An `Err` is a failure of
/// the harness itself (suite unreadable, binary missing, no goal
/// selected); goals that fail are outcomes in the report.
pub fn run_suite(opts: &RunnerOptions, progress: Progress<'_>) -> Result<GoalsReport, GoalsError> {
    let started = Instant::now();
    let goals_dir = opts.repo_root.join("goals");
    let suite = load_suite(&goals_dir)?;
    let selected = select(&suite, opts.part, &opts.only);
    if selected.is_empty() {
        return Err(GoalsError::Setup(format!(
            "no goal of part {:?} matches {:?}",
            opts.part, opts.only
        )));
    }
    if !opts.binary.is_file() {
        return Err(GoalsError::Setup(format!(
            "the ccos binary {} does not exist",
            opts.binary.display()
        )));
    }
    let fixtures_dir = goals_dir.join("fixtures");
    let fixtures =
        ccos_testkit::fixtures::Fixtures::load(&fixtures_dir).map_err(GoalsError::Setup)?;
    let server = fixtures.serve();
    let port = server.addr().port();
    let run_dir = tempfile::Builder::new()
        .prefix("ccos-eval-goals-")
        .tempdir()
        .map_err(|e| GoalsError::Setup(format!("creating a temporary directory: {e}")))?;
    let mut needed: Vec<&'static str> = vec![];
    for g in &selected {
        for s in g.sources() {
            if !needed.contains(&s) {
                needed.push(s);
            }
        }
    }
    let ctx = Context {
        opts,
        fixtures_dir,
        port,
        run_dir: run_dir.path().to_path_buf(),
    };
    let template = Template::build(&ctx, &needed)?;
    let setup_seconds = started.elapsed().as_secs_f64();

    let n = selected.len();
    let jobs = opts.jobs.clamp(1, n);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<GoalResult>>> = Mutex::new(vec![None; n]);
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(goal) = selected.get(i) else { break };
                    let r = run_goal(&ctx, &template, goal);
                    let finished = done.fetch_add(1, Ordering::SeqCst) + 1;
                    progress(finished, n, &r);
                    if let Ok(mut all) = results.lock()
                        && let Some(slot) = all.get_mut(i)
                    {
                        *slot = Some(r);
                    }
                }
            });
        }
    });
    let kept = if opts.keep {
        Some(run_dir.keep().display().to_string())
    } else {
        None
    };
    let results: Vec<GoalResult> = results
        .into_inner()
        .map_err(|_| GoalsError::Setup("a goal worker panicked".into()))?
        .into_iter()
        .flatten()
        .collect();
    if results.len() != n {
        return Err(GoalsError::Setup(format!(
            "{} of {n} goals produced no result",
            n - results.len()
        )));
    }
    drop(server);
    Ok(GoalsReport {
        part: opts.part,
        only: opts.only.clone(),
        jobs,
        semantic_build: cfg!(feature = "semantic"),
        setup_seconds,
        wall_seconds: started.elapsed().as_secs_f64(),
        unavailable: template.unavailable.clone(),
        kept,
        parts: summaries(&results),
        goals: results,
    })
}

/// What every goal's setup needs.
struct Context<'a> {
    opts: &'a RunnerOptions,
    fixtures_dir: PathBuf,
    port: u16,
    run_dir: PathBuf,
}

impl Context<'_> {
    fn tools(&self) -> PathBuf {
        self.opts.repo_root.join("tools").join("mcp")
    }

    /// `ccos ARGS` with exactly the given environment
    /// ([`RunnerOptions::env`] without its `CCOS_*` variables but
    /// [`KEPT_CCOS_VARS`]), `CCOS_HOME=home`, `TZ=UTC`; no stdin (set by
    /// [`run_process`]).
    fn ccos(&self, home: &Path, cwd: &Path, args: &[&str]) -> Command {
        let mut cmd = Command::new(&self.opts.binary);
        cmd.args(args).env_clear();
        for (k, v) in &self.opts.env {
            let name = k.to_string_lossy();
            if !name.starts_with("CCOS_") || KEPT_CCOS_VARS.contains(&name.as_ref()) {
                cmd.env(k, v);
            }
        }
        cmd.env("CCOS_HOME", home).env("TZ", "UTC").current_dir(cwd);
        cmd
    }

    /// The `mcp.json` entry of server `name` (`goals/fixtures/README.md`,
    /// section 3), or why it cannot run (not installed).
    fn server_entry(&self, name: &str, w: &Path, home: &Path, repo: &Path) -> Result<Json, String> {
        let tools = self.tools();
        let node = |bin: &str| tools.join("node_modules/.bin").join(bin);
        let venv = |bin: &str| tools.join(".venv/bin").join(bin);
        let s = |p: &Path| p.display().to_string();
        let (command, args, mut env) = match name {
            "filesystem" => (node("mcp-server-filesystem"), vec![s(w)], json!({})),
            "memory" => (
                node("mcp-server-memory"),
                vec![],
                json!({"MEMORY_FILE_PATH": s(&home.join("memory.jsonl"))}),
            ),
            "everything" => (node("mcp-server-everything"), vec![], json!({})),
            "time" => (
                venv("mcp-server-time"),
                vec!["--local-timezone".into(), "UTC".into()],
                json!({}),
            ),
            "git" => (
                venv("mcp-server-git"),
                vec!["--repository".into(), s(repo)],
                json!({}),
            ),
            other => return Err(format!("unknown MCP server {other:?}")),
        };
        if !command.exists() {
            return Err(format!(
                "MCP server {name} is not installed ({} is missing; run scripts/ci/mcp-servers.sh)",
                command.display()
            ));
        }
        if let Some(e) = env.as_object_mut() {
            e.insert("TZ".into(), json!("UTC"));
        }
        Ok(json!({"command": s(&command), "args": args, "env": env}))
    }

    /// The OpenAPI document of `doc` and the base URL it is imported with.
    fn document(&self, doc: &str) -> Result<(PathBuf, String), String> {
        let (path, base) = match doc {
            "tmdb" => (
                self.opts
                    .bench_dir
                    .join("restbench_tmdb")
                    .join("raw_tmdb_openapi.json"),
                "/3",
            ),
            "github" => (
                self.fixtures_dir.join("github-subset.openapi.json"),
                "/github",
            ),
            other => return Err(format!("unknown document {other:?}")),
        };
        if !path.is_file() {
            return Err(format!("the {doc} document {} is missing", path.display()));
        }
        Ok((path, format!("http://127.0.0.1:{}{base}", self.port)))
    }
}

/// The template home: the catalog after discovery and import, which
/// capability came from which server or document, the discovery caches.
struct Template {
    /// `catalog/capabilities.json` of the template (`Null` when empty).
    catalog: Json,
    /// Capability id → the server or document it came from.
    owners: BTreeMap<String, String>,
    /// `mcp-cache/` of the template.
    cache_dir: PathBuf,
    /// Servers and documents that could not be set up, and why.
    unavailable: BTreeMap<String, String>,
}

impl Template {
    fn build(ctx: &Context<'_>, needed: &[&'static str]) -> Result<Template, GoalsError> {
        let dir = ctx.run_dir.join("template");
        let home = dir.join("home");
        let w = dir.join("workspace");
        let repo = dir.join("repo");
        let setup = |e: String| GoalsError::Setup(e);
        std::fs::create_dir_all(&home)
            .map_err(|e| setup(format!("creating {}: {e}", home.display())))?;
        copy_dir(&ctx.fixtures_dir.join("workspace"), &w).map_err(setup)?;
        let mut unavailable = BTreeMap::new();
        let mut owners = BTreeMap::new();
        if needed.contains(&"git")
            && let Err(e) = make_repo(ctx, &repo)
        {
            unavailable.insert("git".to_string(), e);
        }
        let mut servers = serde_json::Map::new();
        for name in SERVERS.iter().filter(|s| needed.contains(s)) {
            if unavailable.contains_key(*name) {
                continue;
            }
            match ctx.server_entry(name, &w, &home, &repo) {
                Ok(entry) => {
                    servers.insert(name.to_string(), entry);
                }
                Err(e) => {
                    unavailable.insert(name.to_string(), e);
                }
            }
        }
        if !servers.is_empty() {
            write_json(&home.join("mcp.json"), &json!({"mcpServers": servers})).map_err(setup)?;
            let obs = run_process(
                ctx.ccos(&home, &w, &["mcp", "discover", "--json"]),
                SETUP_TIMEOUT,
            );
            let rows = serde_json::from_str::<Json>(obs.stdout.trim())
                .ok()
                .and_then(|j| j.get("servers").and_then(Json::as_array).cloned())
                .unwrap_or_default();
            for name in servers.keys() {
                let row = rows.iter().find(|r| r["server"] == name.as_str());
                match row {
                    Some(r) if r["ok"] == true => {
                        for id in r["ids"].as_array().into_iter().flatten() {
                            if let Some(id) = id.as_str() {
                                owners.insert(id.to_string(), name.clone());
                            }
                        }
                    }
                    Some(r) => {
                        let e = r["error"].as_str().unwrap_or("discovery failed");
                        unavailable.insert(name.clone(), format!("discovering {name}: {e}"));
                    }
                    None => {
                        unavailable.insert(
                            name.clone(),
                            format!(
                                "`ccos mcp discover` did not report {name} ({:?}): {}",
                                obs.status,
                                super::shorten(obs.stderr.trim(), 300)
                            ),
                        );
                    }
                }
            }
        }
        for doc in DOCUMENTS.iter().filter(|d| needed.contains(d)) {
            let imported = ctx.document(doc).and_then(|(path, base)| {
                let path = path.display().to_string();
                let args = [
                    "caps",
                    "import-openapi",
                    path.as_str(),
                    "--base-url",
                    base.as_str(),
                    "--prefix",
                    doc,
                    "--json",
                ];
                let obs = run_process(ctx.ccos(&home, &w, &args), SETUP_TIMEOUT);
                let ids = serde_json::from_str::<Json>(obs.stdout.trim())
                    .ok()
                    .and_then(|j| j.get("ids").and_then(Json::as_array).cloned());
                match (&obs.status, ids) {
                    (Status::Exited(0), Some(ids)) if !ids.is_empty() => Ok(ids),
                    _ => Err(format!(
                        "importing {path} ({:?}): {}",
                        obs.status,
                        super::shorten(obs.stderr.trim(), 300)
                    )),
                }
            });
            match imported {
                Ok(ids) => {
                    for id in ids.iter().filter_map(Json::as_str) {
                        owners.insert(id.to_string(), doc.to_string());
                    }
                }
                Err(e) => {
                    unavailable.insert(doc.to_string(), e);
                }
            }
        }
        let cat_path = home.join("catalog").join("capabilities.json");
        let catalog = if cat_path.is_file() {
            let text = std::fs::read_to_string(&cat_path)
                .map_err(|e| setup(format!("reading {}: {e}", cat_path.display())))?;
            serde_json::from_str(&text)
                .map_err(|e| setup(format!("{}: {e}", cat_path.display())))?
        } else {
            Json::Null
        };
        Ok(Template {
            catalog,
            owners,
            cache_dir: home.join("mcp-cache"),
            unavailable,
        })
    }
}

/// Runs `make-git-repo.sh DIR`.
fn make_repo(ctx: &Context<'_>, dir: &Path) -> Result<(), String> {
    let script = ctx.fixtures_dir.join("make-git-repo.sh");
    let out = Command::new("bash")
        .arg(&script)
        .arg(dir)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("running {}: {e}", script.display()))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{} failed: {}",
            script.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// One goal: set up its directory, run, check, classify, clean up.
fn run_goal(ctx: &Context<'_>, template: &Template, goal: &Goal) -> GoalResult {
    let gdir = ctx.run_dir.join("goals").join(&goal.id);
    let mut ph = Placeholders {
        port: ctx.port,
        repo: gdir.join("repo").display().to_string(),
        workspace: gdir.join("workspace").display().to_string(),
        today_utc: ccos_core::now_rfc3339().chars().take(10).collect(),
    };
    let obs = match prepare(ctx, template, goal, &gdir, &mut ph) {
        Ok(cmd) => {
            let mut obs = run_process(cmd, goal.timeout());
            if !matches!(obs.status, Status::NotRun(_)) {
                obs.check_failures = after_run_checks(goal, &gdir);
            }
            obs
        }
        Err(why) => Observed {
            status: Status::NotRun(why),
            stdout: String::new(),
            stderr: String::new(),
            elapsed_ms: 0,
            check_failures: vec![],
        },
    };
    let classified = classify(goal, &ph, &obs);
    if !ctx.opts.keep {
        let _ = std::fs::remove_dir_all(&gdir);
    }
    let stderr_tail = (classified.outcome != Outcome::Right && !obs.stderr.is_empty())
        .then(|| tail(&obs.stderr, 4000));
    GoalResult {
        id: goal.id.clone(),
        part: goal.part.clone(),
        category: goal.category.clone(),
        kind: goal.kind(),
        goal: ph.apply(&goal.goal, false),
        expect: goal.expect.clone(),
        classified,
        status: obs.status,
        seconds: obs.elapsed_ms as f64 / 1000.0,
        stderr_tail,
    }
}

/// The last `n` characters of `s` (with `…` when cut).
fn tail(s: &str, n: usize) -> String {
    let count = s.chars().count();
    if count <= n {
        return s.to_string();
    }
    let mut out = String::from("…");
    out.extend(s.chars().skip(count - n));
    out
}

/// Sets up the goal's directory (see the module docs) and returns the
/// `ccos run` command; `Err` names what is missing.
fn prepare(
    ctx: &Context<'_>,
    template: &Template,
    goal: &Goal,
    gdir: &Path,
    ph: &mut Placeholders,
) -> Result<Command, String> {
    let sources = goal.sources();
    for s in &sources {
        if let Some(why) = template.unavailable.get(*s) {
            return Err(format!("{s} unavailable: {why}"));
        }
    }
    let home = gdir.join("home");
    let w = gdir.join("workspace");
    let repo = gdir.join("repo");
    std::fs::create_dir_all(&home).map_err(|e| format!("creating {}: {e}", home.display()))?;
    copy_dir(&ctx.fixtures_dir.join("workspace"), &w)?;
    let w = w
        .canonicalize()
        .map_err(|e| format!("resolving {}: {e}", w.display()))?;
    ph.workspace = w.display().to_string();
    if sources.contains(&"git") {
        make_repo(ctx, &repo)?;
        if let Ok(r) = repo.canonicalize() {
            ph.repo = r.display().to_string();
        }
    }
    let mut config = toml::Table::new();
    let mut files = toml::Table::new();
    files.insert(
        "roots".into(),
        toml::Value::Array(vec![toml::Value::String(ph.workspace.clone())]),
    );
    let mut http = toml::Table::new();
    http.insert(
        "allow_hosts".into(),
        toml::Value::Array(vec![toml::Value::String("127.0.0.1".into())]),
    );
    config.insert("files".into(), toml::Value::Table(files));
    config.insert("http".into(), toml::Value::Table(http));
    let config = toml::to_string(&config).map_err(|e| format!("writing config.toml: {e}"))?;
    write_file(&home.join("config.toml"), config.as_bytes())?;

    let mut servers = serde_json::Map::new();
    for s in sources.iter().filter(|s| SERVERS.contains(s)) {
        servers.insert(s.to_string(), ctx.server_entry(s, &w, &home, &repo)?);
        let cache = template.cache_dir.join(format!("{s}.json"));
        if cache.is_file() {
            let to = home.join("mcp-cache").join(format!("{s}.json"));
            copy_file(&cache, &to)?;
        }
    }
    if !servers.is_empty() {
        write_json(&home.join("mcp.json"), &json!({"mcpServers": servers}))?;
    }
    if !template.catalog.is_null() {
        let mut catalog = template.catalog.clone();
        if let Some(caps) = catalog.get_mut("capabilities").and_then(Json::as_array_mut) {
            caps.retain(|m| {
                let owner = m["id"].as_str().and_then(|id| template.owners.get(id));
                owner.is_none_or(|o| sources.contains(&o.as_str()))
            });
            if !caps.is_empty() {
                write_json(&home.join("catalog").join("capabilities.json"), &catalog)?;
            }
        }
    }
    if goal.memory_seed {
        copy_file(
            &ctx.fixtures_dir.join("memory.jsonl"),
            &home.join("memory.jsonl"),
        )?;
    }
    let text = ph.apply(&goal.goal, false);
    let mut args: Vec<&str> = vec!["run", &text, "--json"];
    if goal.approve {
        args.push("--yes");
    }
    for a in &goal.answers {
        args.push("--answer");
        args.push(a);
    }
    Ok(ctx.ccos(&home, &w, &args))
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("creating {}: {e}", parent.display()))?;
    }
    std::fs::write(path, bytes).map_err(|e| format!("writing {}: {e}", path.display()))
}

fn write_json(path: &Path, value: &Json) -> Result<(), String> {
    let text = serde_json::to_string_pretty(value)
        .map_err(|e| format!("encoding {}: {e}", path.display()))?;
    write_file(path, text.as_bytes())
}

fn copy_file(from: &Path, to: &Path) -> Result<(), String> {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("creating {}: {e}", parent.display()))?;
    }
    std::fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| format!("copying {} to {}: {e}", from.display(), to.display()))
}

/// Copies the directory `from` to `to` (created), recursively.
fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("creating {}: {e}", to.display()))?;
    let entries =
        std::fs::read_dir(from).map_err(|e| format!("reading {}: {e}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("reading {}: {e}", from.display()))?;
        let path = entry.path();
        let target = to.join(entry.file_name());
        if path.is_dir() {
            copy_dir(&path, &target)?;
        } else {
            copy_file(&path, &target)?;
        }
    }
    Ok(())
}

// --------------------------------------------------------------------------
// Processes
// --------------------------------------------------------------------------

/// Sends `signal` to the process group `pgid`.
fn kill_group(pgid: u32, signal: i32) {
    if let Ok(pgid) = i32::try_from(pgid) {
        // SAFETY: killpg has no memory-safety preconditions; the group is
        // the one this runner created for its child (process_group(0)).
        unsafe {
            libc::killpg(pgid, signal);
        }
    }
}

/// Reads a pipe to its end on a thread, into a shared buffer.
fn drain(
    pipe: Option<impl Read + Send + 'static>,
) -> (Arc<Mutex<Vec<u8>>>, std::sync::mpsc::Receiver<()>) {
    let buf: Arc<Mutex<Vec<u8>>> = Arc::default();
    let (tx, rx) = std::sync::mpsc::channel();
    if let Some(mut pipe) = pipe {
        let b = buf.clone();
        std::thread::spawn(move || {
            let mut chunk = [0u8; 8192];
            loop {
                match pipe.read(&mut chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        if let Ok(mut b) = b.lock() {
                            b.extend_from_slice(&chunk[..n]);
                        }
                    }
                }
            }
            let _ = tx.send(());
        });
    } else {
        let _ = tx.send(());
    }
    (buf, rx)
}

fn take_text(buf: &Arc<Mutex<Vec<u8>>>, done: &std::sync::mpsc::Receiver<()>) -> String {
    let _ = done.recv_timeout(Duration::from_secs(2));
    let bytes = buf.lock().map(|b| b.clone()).unwrap_or_default();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Runs `cmd` in its own process group with piped output and no stdin;
/// past `timeout`, SIGTERM to the group, then SIGKILL after 3 s.
fn run_process(mut cmd: Command, timeout: Duration) -> Observed {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let started = Instant::now();
    let not_run = |why: String| Observed {
        status: Status::NotRun(why),
        stdout: String::new(),
        stderr: String::new(),
        elapsed_ms: 0,
        check_failures: vec![],
    };
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return not_run(format!("starting {:?}: {e}", cmd.get_program())),
    };
    let pid = child.id();
    let (out, out_done) = drain(child.stdout.take());
    let (err, err_done) = drain(child.stderr.take());
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) => {}
            Err(_) => break None,
        }
        if started.elapsed() >= timeout {
            timed_out = true;
            kill_group(pid, libc::SIGTERM);
            let grace = Instant::now();
            let mut status = None;
            while grace.elapsed() < Duration::from_secs(3) {
                if let Ok(Some(s)) = child.try_wait() {
                    status = Some(s);
                    break;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            kill_group(pid, libc::SIGKILL);
            break status.or_else(|| child.wait().ok());
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let elapsed_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let status = match (timed_out, status) {
        (true, _) => Status::TimedOut,
        (false, Some(s)) => match (s.code(), s.signal()) {
            (Some(c), _) => Status::Exited(c),
            (None, Some(sig)) => Status::Signaled(sig),
            (None, None) => Status::Signaled(0),
        },
        (false, None) => Status::NotRun("waiting for ccos failed".into()),
    };
    Observed {
        status,
        stdout: take_text(&out, &out_done),
        stderr: take_text(&err, &err_done),
        elapsed_ms,
        check_failures: vec![],
    }
}

// --------------------------------------------------------------------------
// After-run checks
// --------------------------------------------------------------------------

/// The failures of the goal's after-run checks, one message each.
fn after_run_checks(goal: &Goal, gdir: &Path) -> Vec<String> {
    let mut out = file_failures(goal, &gdir.join("workspace"));
    if !goal.memory_check.is_empty() {
        out.extend(memory_failures(
            &goal.memory_check,
            &gdir.join("home").join("memory.jsonl"),
        ));
    }
    if !goal.git_check.is_empty() {
        out.extend(git_failures(&goal.git_check, &gdir.join("repo")));
    }
    out
}

/// `files`, `files_absent`, `dirs` against the workspace `w`.
pub fn file_failures(goal: &Goal, w: &Path) -> Vec<String> {
    let mut out = vec![];
    for (path, want) in &goal.files {
        match std::fs::read(w.join(path)) {
            Ok(bytes) => {
                let alts = want.alternatives();
                if !alts.iter().any(|a| a.as_bytes() == bytes.as_slice()) {
                    out.push(format!(
                        "file {path} has {:?}, expected {}",
                        super::shorten(&String::from_utf8_lossy(&bytes), 120),
                        alts.iter()
                            .map(|a| format!("{a:?}"))
                            .collect::<Vec<_>>()
                            .join(" or ")
                    ));
                }
            }
            Err(_) => out.push(format!("file {path} is missing")),
        }
    }
    for path in &goal.files_absent {
        if w.join(path).exists() {
            out.push(format!("{path} exists"));
        }
    }
    for path in &goal.dirs {
        if !w.join(path).is_dir() {
            out.push(format!("directory {path} is missing"));
        }
    }
    out
}

/// The memory server's graph (its JSON-lines file).
#[derive(Debug, Default)]
struct Graph {
    /// (name, type, observations)
    entities: Vec<(String, String, Vec<String>)>,
    /// (from, to, type)
    relations: Vec<(String, String, String)>,
}

impl Graph {
    /// Reads `file`; an absent file is an empty graph, unreadable lines
    /// are ignored.
    fn read(file: &Path) -> Graph {
        let mut g = Graph::default();
        let Ok(text) = std::fs::read_to_string(file) else {
            return g;
        };
        for line in text.lines() {
            let Ok(j) = serde_json::from_str::<Json>(line) else {
                continue;
            };
            let s = |k: &str| j[k].as_str().unwrap_or("").to_string();
            match j["type"].as_str() {
                Some("entity") => g.entities.push((
                    s("name"),
                    s("entityType"),
                    j["observations"]
                        .as_array()
                        .map(|a| {
                            a.iter()
                                .filter_map(|o| o.as_str().map(str::to_string))
                                .collect()
                        })
                        .unwrap_or_default(),
                )),
                Some("relation") => g.relations.push((s("from"), s("to"), s("relationType"))),
                _ => {}
            }
        }
        g
    }
}

fn ci_eq(a: &str, b: &str) -> bool {
    a.to_lowercase() == b.to_lowercase()
}

fn ci_contains(hay: &str, needle: &str) -> bool {
    hay.to_lowercase().contains(&needle.to_lowercase())
}

/// The `memory_check`s that fail on the graph in `file`.
pub fn memory_failures(checks: &[MemoryCheck], file: &Path) -> Vec<String> {
    let g = Graph::read(file);
    let mut out = vec![];
    for c in checks {
        let ok = match c {
            MemoryCheck::Fact(v) => {
                let (Some(s), Some(x)) = (v.first(), v.get(1)) else {
                    out.push(format!("memory_check {c:?} is malformed"));
                    continue;
                };
                let entity = g.entities.iter().find(|e| ci_eq(&e.0, s));
                entity.is_some_and(|e| e.2.iter().any(|o| ci_contains(o, x)))
                    || (entity.is_some()
                        && g.relations.iter().any(|(f, t, ty)| {
                            (ci_eq(f, s) && ci_contains(t, x))
                                || (ci_eq(t, s) && ci_contains(f, x))
                                || ((ci_eq(f, s) || ci_eq(t, s)) && ci_contains(ty, x))
                        }))
            }
            MemoryCheck::Entity(s) => g.entities.iter().any(|e| ci_eq(&e.0, s)),
            MemoryCheck::Absent(s) => {
                !g.entities.iter().any(|e| ci_eq(&e.0, s))
                    && !g
                        .relations
                        .iter()
                        .any(|(f, t, _)| ci_eq(f, s) || ci_eq(t, s))
            }
            MemoryCheck::Mentions(x) => {
                g.entities.iter().any(|(n, ty, obs)| {
                    ci_contains(n, x) || ci_contains(ty, x) || obs.iter().any(|o| ci_contains(o, x))
                }) || g
                    .relations
                    .iter()
                    .any(|(f, t, ty)| ci_contains(f, x) || ci_contains(t, x) || ci_contains(ty, x))
            }
        };
        if !ok {
            out.push(format!("memory check failed: {c:?}"));
        }
    }
    out
}

/// `git ARGS` in `repo` (no system or global configuration); stdout, or
/// `None` when git fails.
fn git(repo: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .stdin(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The `git_check`s that fail on `repo`.
pub fn git_failures(checks: &[GitCheck], repo: &Path) -> Vec<String> {
    let mut out = vec![];
    for c in checks {
        let ok = match c {
            GitCheck::BranchExists(b) => git(
                repo,
                &[
                    "show-ref",
                    "--verify",
                    "--quiet",
                    &format!("refs/heads/{b}"),
                ],
            )
            .is_some(),
            GitCheck::HeadBranch(b) => git(repo, &["symbolic-ref", "--short", "HEAD"])
                .is_some_and(|h| h.trim() == b.as_str()),
            GitCheck::Staged(paths) => git(repo, &["diff", "--cached", "--name-only"])
                .is_some_and(|s| paths.iter().all(|p| s.lines().any(|l| l == p.as_str()))),
            GitCheck::HeadMessage(m) => {
                git(repo, &["log", "-1", "--format=%B"]).is_some_and(|s| s.trim() == m.as_str())
            }
            GitCheck::HeadTreeHas(p) => git(repo, &["ls-tree", "-r", "--name-only", "HEAD"])
                .is_some_and(|s| s.lines().any(|l| l == p.as_str())),
        };
        if !ok {
            out.push(format!("git check failed: {c:?}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_checks_read_the_servers_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("memory.jsonl");
        std::fs::write(
            &file,
            concat!(
                "{\"type\": \"entity\", \"name\": \"Alice\", \"entityType\": \"person\", \"observations\": [\"likes Tea\"]}\n",
                "{\"type\": \"entity\", \"name\": \"Globex\", \"entityType\": \"company\", \"observations\": []}\n",
                "{\"type\": \"relation\", \"from\": \"Bob\", \"to\": \"Globex\", \"relationType\": \"works_at\"}\n",
                "not json\n",
            ),
        )
        .unwrap();
        let ok = |c: MemoryCheck| memory_failures(&[c], &file).is_empty();
        assert!(ok(MemoryCheck::Fact(vec!["alice".into(), "tea".into()])));
        assert!(!ok(MemoryCheck::Fact(vec![
            "Alice".into(),
            "coffee".into()
        ])));
        // Bob is only in a relation: not an entity, so no fact about him.
        assert!(!ok(MemoryCheck::Fact(vec!["Bob".into(), "Globex".into()])));
        assert!(ok(MemoryCheck::Fact(vec!["Globex".into(), "bob".into()])));
        assert!(ok(MemoryCheck::Fact(vec!["Globex".into(), "works".into()])));
        assert!(ok(MemoryCheck::Entity("ALICE".into())));
        assert!(!ok(MemoryCheck::Absent("Bob".into())));
        assert!(ok(MemoryCheck::Absent("Dana".into())));
        assert!(ok(MemoryCheck::Mentions("works_at".into())));
        assert!(!ok(MemoryCheck::Mentions("hunter2".into())));
        // No file: an empty graph.
        let none = dir.path().join("absent.jsonl");
        assert!(memory_failures(&[MemoryCheck::Absent("x".into())], &none).is_empty());
        assert_eq!(
            memory_failures(&[MemoryCheck::Entity("x".into())], &none).len(),
            1
        );
    }

    #[test]
    fn file_checks_compare_bytes_and_alternatives() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("out.txt"), "hello\n").unwrap();
        std::fs::create_dir(dir.path().join("reports")).unwrap();
        let g: Goal = toml::from_str(
            "id = 'f-01'\npart = 'dev'\ncategory = 'builtins'\ngoal = 'g'\nneeds = []\nexpect = '*'\n\
             files = { 'out.txt' = ['hello', \"hello\\n\"] }\nfiles_absent = ['gone.txt']\ndirs = ['reports']\n",
        )
        .unwrap();
        assert!(file_failures(&g, dir.path()).is_empty());
        std::fs::write(dir.path().join("out.txt"), "Hello").unwrap();
        std::fs::write(dir.path().join("gone.txt"), "").unwrap();
        let f = file_failures(&g, dir.path());
        assert_eq!(f.len(), 2, "{f:?}");
        assert!(
            f[0].contains("out.txt") && f[1].contains("gone.txt"),
            "{f:?}"
        );
    }

    #[test]
    fn a_process_past_its_timeout_is_killed_with_its_group() {
        let mut cmd = Command::new("bash");
        cmd.args(["-c", "sleep 30 & echo started; wait"]);
        let obs = run_process(cmd, Duration::from_millis(300));
        assert_eq!(obs.status, Status::TimedOut);
        assert!(obs.stdout.contains("started"), "{obs:?}");
        let mut cmd = Command::new("bash");
        cmd.args(["-c", "echo out; echo err >&2; exit 4"]);
        let obs = run_process(cmd, Duration::from_secs(10));
        assert_eq!(obs.status, Status::Exited(4));
        assert_eq!((obs.stdout.trim(), obs.stderr.trim()), ("out", "err"));
        let obs = run_process(Command::new("/nonexistent/ccos"), Duration::from_secs(1));
        assert!(matches!(obs.status, Status::NotRun(_)), "{obs:?}");
    }

    #[test]
    fn git_checks_read_the_repository() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        let script =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../goals/fixtures/make-git-repo.sh");
        let ok = Command::new("bash")
            .arg(&script)
            .arg(&repo)
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            eprintln!("note: skipping, git or bash unavailable");
            return;
        }
        let pass = |c: GitCheck| git_failures(&[c], &repo).is_empty();
        assert!(pass(GitCheck::BranchExists("feature/login".into())));
        assert!(!pass(GitCheck::BranchExists("nope".into())));
        assert!(pass(GitCheck::HeadBranch("main".into())));
        assert!(pass(GitCheck::HeadMessage("Add MIT license".into())));
        assert!(pass(GitCheck::HeadTreeHas("LICENSE".into())));
        assert!(!pass(GitCheck::HeadTreeHas("todo.txt".into())));
        assert!(!pass(GitCheck::Staged(vec!["hello.py".into()])));
    }
}
