//! MCP figures against the real servers in `tools/mcp/` (install them with
//! `scripts/ci/mcp-servers.sh`):
//!
//! - `discover/<server>`: start the server, handshake, list all tools, map
//!   them to manifests, shut down;
//! - `call/executor_echo` vs `call/direct_rmcp_echo`: one `echo` call to
//!   server-everything through `McpExecutor` (RTFS map → JSON → call →
//!   RTFS value) versus the bare rmcp client on the same kind of session.
//!
//! Run: `cargo bench -p ccos-mcp --bench mcp`.

use std::process::Stdio;
use std::time::Duration;

use ccos_marketplace::CapabilityExecutor;
use ccos_mcp::{McpConfig, McpExecutor, discover, tool_manifest};
use ccos_testkit::mcp::TestServers;
use criterion::{Criterion, criterion_group, criterion_main};
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::async_rw::AsyncRwTransport;

fn benches(c: &mut Criterion) {
    let Some(s) = TestServers::find() else {
        return;
    };
    let Ok(rt) = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    else {
        eprintln!("cannot start a tokio runtime");
        return;
    };
    let fs_root = std::env::temp_dir();
    let mem_dir = std::env::temp_dir().join(format!("ccos-mcp-bench-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&mem_dir);
    let repo = Some(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .filter(|p| p.join(".git").exists())
        .unwrap_or_else(|| fs_root.clone());

    let mut g = c.benchmark_group("discover");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(8));
    for cfg in [
        s.filesystem(&fs_root),
        s.memory(&mem_dir.join("memory.jsonl")),
        s.everything(),
        s.time(),
        s.git(&repo),
    ] {
        g.bench_function(cfg.name.clone(), |b| {
            b.to_async(&rt).iter(|| async {
                let found = discover(&cfg).await;
                assert!(found.is_ok(), "{found:?}");
            })
        });
    }
    g.finish();

    // Through the executor.
    let cfg = s.everything();
    let mut config = McpConfig::default();
    config.servers.insert(cfg.name.clone(), cfg.clone());
    let ex = McpExecutor::new(config);
    let Ok(echo) = tool_manifest(
        &cfg,
        &serde_json::json!({"name": "echo", "inputSchema": {"type": "object"}}),
        None,
    ) else {
        return;
    };
    let Ok(arg) = rtfs::eval_str("{:message \"hello\"}") else {
        return;
    };
    let warm = rt.block_on(ex.call(&echo, vec![arg.clone()]));
    assert!(warm.is_ok(), "{warm:?}");

    // A bare rmcp client on its own server-everything process.
    let (cmd, args) = s.everything_http_command();
    let direct = rt.block_on(async {
        let mut child = tokio::process::Command::new(cmd)
            .arg(&args[0])
            .arg("stdio")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .ok()?;
        let (stdin, stdout) = (child.stdin.take()?, child.stdout.take()?);
        let client = ().serve(AsyncRwTransport::new_client(stdout, stdin)).await.ok()?;
        Some((child, client))
    });
    let Some((_child, client)) = direct else {
        eprintln!("cannot start the direct rmcp client");
        return;
    };

    let mut g = c.benchmark_group("call");
    g.bench_function("executor_echo", |b| {
        b.to_async(&rt).iter(|| async {
            let v = ex.call(&echo, vec![arg.clone()]).await;
            assert!(v.is_ok());
        })
    });
    g.bench_function("direct_rmcp_echo", |b| {
        b.to_async(&rt).iter(|| async {
            let mut a = serde_json::Map::new();
            a.insert("message".into(), serde_json::Value::from("hello"));
            let r = client
                .peer()
                .call_tool(CallToolRequestParams::new("echo").with_arguments(a))
                .await;
            assert!(r.is_ok());
        })
    });
    g.finish();
    rt.block_on(async {
        ex.shutdown().await;
        let _ = client.cancel().await;
    });
    let _ = std::fs::remove_dir_all(&mem_dir);
}

criterion_group!(mcp, benches);
criterion_main!(mcp);
