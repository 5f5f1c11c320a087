//! Integration tests against the real MCP servers installed in `tools/mcp/`
//! by `scripts/ci/mcp-servers.sh` (skipped with a note when absent, failing
//! under `CI=true`).

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use ccos_marketplace::{CallError, CapabilityExecutor, CapabilityManifest, Effect, TrustTier};
use ccos_mcp::{
    Cache, McpConfig, McpError, McpExecutor, McpSession, ServerConfig, discover,
    parse_capability_id,
};
use ccos_testkit::mcp::TestServers;

macro_rules! servers {
    () => {
        match TestServers::find() {
            Some(s) => s,
            None => return,
        }
    };
}

fn executor(cfgs: Vec<ServerConfig>) -> McpExecutor {
    let mut config = McpConfig::default();
    for c in cfgs {
        config.servers.insert(c.name.clone(), c);
    }
    McpExecutor::new(config)
}

fn find<'a>(ms: &'a [CapabilityManifest], id: &str) -> &'a CapabilityManifest {
    ms.iter().find(|m| m.id == id).unwrap_or_else(|| {
        panic!(
            "no {id} in {:?}",
            ms.iter().map(|m| &m.id).collect::<Vec<_>>()
        )
    })
}

fn map(src: &str) -> rtfs::Value {
    rtfs::eval_str(src).unwrap_or_else(|e| panic!("{src}: {e:?}"))
}

/// State of a process from /proc: None when it no longer exists.
fn proc_state(pid: u32) -> Option<(char, i64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = &stat[stat.rfind(')')? + 2..];
    let mut fields = after.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let _ppid = fields.next()?;
    let pgrp = fields.next()?.parse().ok()?;
    Some((state, pgrp))
}

/// True while `pid` or any process in its group runs (zombies don't count).
fn group_running(pgid: u32) -> bool {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return false;
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(proc_state)
        .any(|(state, pgrp)| pgrp == i64::from(pgid) && state != 'Z' && state != 'X')
}

async fn assert_gone(pgid: u32) {
    let start = Instant::now();
    while group_running(pgid) {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "process group {pgid} still running"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn filesystem_discovery_and_calls() {
    let s = servers!();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::write(root.join("hello.txt"), "hello world\nsecond line\n").unwrap();
    std::fs::create_dir(root.join("sub")).unwrap();
    let mut cfg = s.filesystem(&root);
    cfg.trust = TrustTier::Trusted;

    let found = discover(&cfg).await.unwrap();
    assert_eq!(found.manifests.len(), 14, "{:?}", found.manifests);
    assert_eq!(found.tools.len(), 14);
    let read = find(&found.manifests, "mcp.filesystem.read_text_file");
    assert_eq!(read.effects, BTreeSet::from([Effect::Read]));
    assert_eq!(read.trust_tier, TrustTier::Trusted);
    assert!(read.local);
    assert!(read.required_keys().contains(&"path".to_string()));
    let write = find(&found.manifests, "mcp.filesystem.write_file");
    assert_eq!(write.effects, BTreeSet::from([Effect::Write]));
    for m in &found.manifests {
        let (server, tool) = parse_capability_id(&m.id).unwrap();
        assert_eq!(
            m.provider,
            ccos_marketplace::ProviderSpec::Mcp { server, tool },
            "{}",
            m.id
        );
    }
    // Sorted, deterministic.
    let ids: Vec<&str> = found.manifests.iter().map(|m| m.id.as_str()).collect();
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(ids, sorted);

    let ex = executor(vec![cfg]);
    let path = root.join("hello.txt").display().to_string();
    let v = ex
        .call(read, vec![map(&format!("{{:path {path:?}}}"))])
        .await
        .unwrap();
    assert!(v.to_string().contains("hello world"), "{v}");
    let list = find(&found.manifests, "mcp.filesystem.list_directory");
    let v = ex
        .call(
            list,
            vec![map(&format!("{{:path {:?}}}", root.display().to_string()))],
        )
        .await
        .unwrap();
    let text = v.to_string();
    assert!(
        text.contains("[FILE] hello.txt") && text.contains("[DIR] sub"),
        "{text}"
    );
    // One session for both calls.
    let pid = ex.session("filesystem").await.unwrap().pid().unwrap();
    // Outside the allowed roots: the tool's error comes back as Failed.
    let err = ex
        .call(read, vec![map("{:path \"/etc/hostname\"}")])
        .await
        .unwrap_err();
    assert!(matches!(err, CallError::Failed { .. }), "{err}");
    assert!(
        err.to_string().contains("mcp.filesystem.read_text_file"),
        "{err}"
    );
    assert_eq!(ex.session("filesystem").await.unwrap().pid(), Some(pid));
    ex.shutdown().await;
    assert_gone(pid).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_creates_and_reads_entities() {
    let s = servers!();
    let dir = tempfile::tempdir().unwrap();
    let cfg = s.memory(&dir.path().join("memory.jsonl"));
    let found = discover(&cfg).await.unwrap();
    let create = find(&found.manifests, "mcp.memory.create_entities");
    let open = find(&found.manifests, "mcp.memory.open_nodes");
    let ex = executor(vec![cfg]);
    ex.call(
        create,
        vec![map(
            "{:entities [{:name \"Ada\" :entityType \"person\" :observations [\"wrote the first program\"]}]}",
        )],
    )
    .await
    .unwrap();
    let v = ex
        .call(open, vec![map("{:names [\"Ada\"]}")])
        .await
        .unwrap();
    let text = v.to_string();
    assert!(
        text.contains("Ada") && text.contains("wrote the first program"),
        "{text}"
    );
    ex.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everything_over_stdio() {
    let s = servers!();
    let cfg = s.everything();
    let found = discover(&cfg).await.unwrap();
    let echo = find(&found.manifests, "mcp.everything.echo");
    let sum = find(&found.manifests, "mcp.everything.get-sum");
    assert_eq!(sum.name, "Get Sum Tool");
    assert_eq!(sum.effects, BTreeSet::from([Effect::Read]));
    let ex = executor(vec![cfg]);
    let v = ex
        .call(echo, vec![map("{:message \"hi there\"}")])
        .await
        .unwrap();
    assert!(v.to_string().contains("hi there"), "{v}");
    let v = ex.call(sum, vec![map("{:a 2 :b 3}")]).await.unwrap();
    assert!(v.to_string().contains('5'), "{v}");
    // Bad arguments: the server's validation error, not a hang.
    let err = ex.call(sum, vec![map("{:a \"x\"}")]).await.unwrap_err();
    assert!(matches!(err, CallError::Failed { .. }), "{err}");
    ex.shutdown().await;
}

/// A child process running server-everything's streamable HTTP mode.
struct HttpServer {
    child: tokio::process::Child,
    port: u16,
}

async fn start_everything_http(s: &TestServers) -> HttpServer {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let (cmd, args) = s.everything_http_command();
    let child = tokio::process::Command::new(cmd)
        .args(args)
        .env("PORT", port.to_string())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let start = Instant::now();
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "HTTP server did not start"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    HttpServer { child, port }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everything_over_streamable_http() {
    let s = servers!();
    let mut http = start_everything_http(&s).await;
    let mut cfg = ServerConfig::http(
        "everything-http",
        &format!("http://127.0.0.1:{}/mcp", http.port),
    );
    if let ccos_mcp::Transport::Http { headers, .. } = &mut cfg.transport {
        headers.insert("X-Ccos-Test".into(), "1".into());
    }
    let found = discover(&cfg).await.unwrap();
    let echo = find(&found.manifests, "mcp.everything-http.echo");
    assert!(!echo.local);
    assert_eq!(
        echo.effects,
        BTreeSet::from([Effect::Read, Effect::Network])
    );
    let ex = executor(vec![cfg]);
    let v = ex
        .call(echo, vec![map("{:message \"over http\"}")])
        .await
        .unwrap();
    assert!(v.to_string().contains("over http"), "{v}");
    let sum = find(&found.manifests, "mcp.everything-http.get-sum");
    let v = ex.call(sum, vec![map("{:a 20 :b 22}")]).await.unwrap();
    assert!(v.to_string().contains("42"), "{v}");
    ex.shutdown().await;
    let _ = http.child.kill().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_time_and_git_servers() {
    let s = servers!();
    let time_cfg = s.time();
    let found = discover(&time_cfg).await.unwrap();
    let now = find(&found.manifests, "mcp.time.get_current_time");

    let repo = tempfile::tempdir().unwrap();
    let git = |args: &[&str]| {
        let ok = std::process::Command::new("git")
            .args(args)
            .current_dir(repo.path())
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false);
        assert!(ok, "git {args:?}");
    };
    git(&["init", "-q"]);
    std::fs::write(repo.path().join("a.txt"), "a\n").unwrap();
    git(&["add", "a.txt"]);
    git(&["commit", "-q", "-m", "first commit"]);
    std::fs::write(repo.path().join("b.txt"), "b\n").unwrap();
    let git_cfg = s.git(repo.path());
    let found_git = discover(&git_cfg).await.unwrap();
    let status = find(&found_git.manifests, "mcp.git.git_status");
    let log = find(&found_git.manifests, "mcp.git.git_log");

    let ex = executor(vec![time_cfg, git_cfg]);
    let v = ex
        .call(now, vec![map("{:timezone \"UTC\"}")])
        .await
        .unwrap();
    let text = v.to_string();
    assert!(text.contains("UTC") && text.contains("datetime"), "{text}");
    let repo_path = repo.path().display().to_string();
    let v = ex
        .call(status, vec![map(&format!("{{:repo_path {repo_path:?}}}"))])
        .await
        .unwrap();
    assert!(v.to_string().contains("b.txt"), "{v}");
    let v = ex
        .call(log, vec![map(&format!("{{:repo_path {repo_path:?}}}"))])
        .await
        .unwrap();
    assert!(v.to_string().contains("first commit"), "{v}");
    ex.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cache_stores_and_refreshes() {
    let s = servers!();
    let home = tempfile::tempdir().unwrap();
    let cache = Cache::in_home(home.path());
    let cfg = s.everything();
    let (first, fetched) = cache.get_or_discover(&cfg, false).await.unwrap();
    assert!(fetched);
    assert!(cache.path("everything").exists());
    let (again, fetched) = cache.get_or_discover(&cfg, false).await.unwrap();
    assert!(!fetched);
    assert_eq!(again, first);
    let (_, fetched) = cache.get_or_discover(&cfg, true).await.unwrap();
    assert!(fetched);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_mid_call_is_an_error_not_a_hang() {
    let s = servers!();
    let cfg = s.everything();
    let ex = executor(vec![cfg.clone()]);
    let session = ex.session("everything").await.unwrap();
    let pid = session.pid().unwrap();
    let killer = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        // SAFETY: plain syscall on the child we started.
        unsafe {
            libc::kill(pid as i32, libc::SIGKILL);
        }
    });
    let m = ccos_mcp::tool_manifest(
        &cfg,
        &serde_json::json!({"name": "trigger-long-running-operation", "inputSchema": {"type": "object"}}),
        None,
    )
    .unwrap();
    let start = Instant::now();
    let err = ex
        .call(&m, vec![map("{:duration 20 :steps 2}")])
        .await
        .unwrap_err();
    killer.await.unwrap();
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "took {:?}",
        start.elapsed()
    );
    assert!(matches!(err, CallError::Unavailable { .. }), "{err}");
    let msg = err.to_string();
    assert!(
        msg.contains("everything") && msg.contains("trigger-long-running-operation"),
        "{msg}"
    );
    drop(session);
    // The next call starts a fresh server.
    let echo = ccos_mcp::tool_manifest(
        &cfg,
        &serde_json::json!({"name": "echo", "inputSchema": {"type": "object"}}),
        None,
    )
    .unwrap();
    let v = ex
        .call(&echo, vec![map("{:message \"back\"}")])
        .await
        .unwrap();
    assert!(v.to_string().contains("back"));
    let new_pid = ex.session("everything").await.unwrap().pid().unwrap();
    assert_ne!(new_pid, pid);
    drop(ex);
    assert_gone(new_pid).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_never_answers_times_out_and_is_killed() {
    // Reads stdin forever and never replies.
    let mut cfg = ServerConfig::stdio(
        "mute",
        "python3",
        &["-c", "import sys\nfor _ in sys.stdin: pass"],
    );
    cfg.timeout = Duration::from_millis(700);
    let start = Instant::now();
    let err = McpSession::connect(&cfg).await.err().unwrap();
    assert!(start.elapsed() < Duration::from_secs(5));
    assert!(matches!(err, McpError::Timeout { .. }), "{err}");
    assert!(err.to_string().contains("\"mute\""), "{err}");
    assert!(err.to_string().contains("700 ms"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_output_is_reported() {
    let mut cfg = ServerConfig::stdio(
        "garbage",
        "python3",
        &[
            "-c",
            "import sys,time\nsys.stdin.readline()\nprint('this is not json-rpc', flush=True)\ntime.sleep(30)",
        ],
    );
    cfg.timeout = Duration::from_millis(700);
    let err = McpSession::connect(&cfg).await.err().unwrap();
    let msg = err.to_string();
    assert!(
        msg.contains("not JSON-RPC") && msg.contains("this is not json-rpc"),
        "{msg}"
    );

    // A server that dies at once: the exit status and stderr are in the message.
    let cfg = ServerConfig::stdio(
        "crasher",
        "python3",
        &[
            "-c",
            "import sys\nsys.stderr.write('boom: bad config\\n')\nsys.exit(3)",
        ],
    );
    let err = McpSession::connect(&cfg).await.err().unwrap();
    let msg = err.to_string();
    assert!(
        msg.contains("crasher") && msg.contains("boom: bad config"),
        "{msg}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_is_not_installed_is_a_clear_error() {
    let cfg = ServerConfig::stdio("absent", "ccos-test-no-such-mcp-server", &["--stdio"]);
    let ex = executor(vec![cfg.clone()]);
    let m = ccos_mcp::tool_manifest(&cfg, &serde_json::json!({"name": "t"}), None).unwrap();
    let err = ex.call(&m, vec![]).await.unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, CallError::Unavailable { .. }), "{msg}");
    assert!(
        msg.contains("absent") && msg.contains("ccos-test-no-such-mcp-server"),
        "{msg}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_result_is_an_error() {
    let s = servers!();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::write(root.join("big.txt"), "x".repeat(200_000)).unwrap();
    let mut cfg = s.filesystem(&root);
    cfg.max_result_bytes = 64 * 1024;
    let session = McpSession::connect(&cfg).await.unwrap();
    let pid = session.pid().unwrap();
    let mut args = serde_json::Map::new();
    args.insert(
        "path".into(),
        serde_json::Value::from(root.join("big.txt").display().to_string()),
    );
    let err = session.call_tool("read_text_file", args).await.unwrap_err();
    assert!(matches!(err, McpError::Oversized { .. }), "{err}");
    let msg = err.to_string();
    assert!(
        msg.contains("filesystem") && msg.contains("read_text_file") && msg.contains("65536"),
        "{msg}"
    );
    session.shutdown().await;
    assert_gone(pid).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_child_outlives_its_client() {
    let s = servers!();
    // Explicit shutdown.
    let session = McpSession::connect(&s.everything()).await.unwrap();
    let pid = session.pid().unwrap();
    assert!(group_running(pid));
    session.shutdown().await;
    assert_gone(pid).await;
    // Plain drop (no shutdown call).
    let session = McpSession::connect(&s.everything()).await.unwrap();
    let pid = session.pid().unwrap();
    drop(session);
    assert_gone(pid).await;
    // A helper process the server spawned in its group goes too: a shell
    // that records its pid (= the group id), starts a background sleeper and
    // never answers.
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    let script = format!(
        "echo $$ > '{}'; sleep 300 & cat > /dev/null",
        pid_file.display()
    );
    let mut cfg = ServerConfig::stdio("shell", "sh", &["-c", &script]);
    cfg.timeout = Duration::from_millis(500);
    let ex = executor(vec![cfg.clone()]);
    let m = ccos_mcp::tool_manifest(&cfg, &serde_json::json!({"name": "t"}), None).unwrap();
    let err = ex.call(&m, vec![]).await.unwrap_err();
    assert!(err.to_string().contains("no answer within 500 ms"), "{err}");
    drop(ex);
    let pgid: u32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert_gone(pgid).await;
}

/// The marketplace as an RTFS host: `(call ...)` dispatches by capability
/// id, bridged from the synchronous evaluator to the async executor.
struct MarketplaceHost {
    mp: std::sync::Arc<ccos_marketplace::Marketplace>,
    rt: tokio::runtime::Handle,
}

impl rtfs::Host for MarketplaceHost {
    fn call(&self, request: rtfs::CallRequest<'_>) -> rtfs::Result<rtfs::Value> {
        self.rt
            .block_on(self.mp.call(request.capability, request.args))
            .map_err(|e| rtfs::RtfsError::new(rtfs::ErrorKind::Host, e.to_string()))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plan_calls_an_mcp_tool_through_the_marketplace() {
    let s = servers!();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::write(root.join("notes.txt"), "plan-visible text\n").unwrap();
    let cfg = s.filesystem(&root);
    let catalog = tempfile::tempdir().unwrap();
    let mp = std::sync::Arc::new(ccos_marketplace::Marketplace::open(catalog.path()).unwrap());
    let found = discover(&cfg).await.unwrap();
    ccos_mcp::register_discovered(&mp, &found).unwrap();
    let ex = std::sync::Arc::new(executor(vec![cfg]));
    mp.register_executor(ex.clone());

    let plan = format!(
        "(step \"read\" (get (call :mcp.filesystem.read_text_file {{:path {:?}}}) :content))",
        root.join("notes.txt").display().to_string()
    );
    let host = MarketplaceHost {
        mp: mp.clone(),
        rt: tokio::runtime::Handle::current(),
    };
    let value = tokio::task::spawn_blocking(move || {
        let ev = rtfs::Evaluator::new(&host);
        let v1 = ev.eval_str(&plan);
        let v2 = ev.eval_str(&plan);
        (v1, v2)
    })
    .await
    .unwrap();
    assert_eq!(value.0.unwrap(), rtfs::Value::string("plan-visible text\n"));
    assert!(value.1.is_ok());
    // Both calls went through one session.
    let pid = ex.session("filesystem").await.unwrap().pid().unwrap();
    ex.shutdown().await;
    assert_gone(pid).await;
}
