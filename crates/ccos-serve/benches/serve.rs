//! `ccos mcp serve` figures against the real filesystem MCP server of
//! `tools/mcp/` (install it with `scripts/ci/mcp-servers.sh`):
//!
//! - `gateway_call/direct`: one `read_text_file` call from an rmcp client
//!   straight to server-filesystem (stdio);
//! - `gateway_call/gateway`: the same call as the gateway tool
//!   `mcp.fs.read_text_file`, the client talking to ccos over an in-memory
//!   pipe (the stdio framing) and ccos to the server: decided, validated,
//!   executed and recorded in the causal chain (SQLite, synchronous=FULL);
//!   p50/p95 of single calls are printed after each of the two;
//! - `n_calls/*`: N independent calls, as one `ccos_run` plan whose calls
//!   are in one `step-parallel`, versus N sequential gateway tool calls
//!   from the client; with a fast tool (`read_text_file`) and a slow one
//!   (`ccos.time.sleep` 25 ms, standing for a network call).
//!
//! A client model pays a round trip per call it makes; these figures leave
//! out its thinking time, which sequential calls multiply.
//!
//! Run: `cargo bench -p ccos-serve --bench serve`.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ccos_serve::{CcosServer, ServeOptions};
use ccos_testkit::mcp::TestServers;
use ccos_world::{World, WorldOptions};
use criterion::{Criterion, criterion_group, criterion_main};
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value as Json, json};

type Client = RunningService<RoleClient, ()>;

fn params(name: &str, args: Json) -> CallToolRequestParams {
    let p = CallToolRequestParams::new(name.to_string());
    match args {
        Json::Object(m) => p.with_arguments(m),
        _ => p,
    }
}

async fn call_ok(c: &Client, name: &str, args: Json) {
    let r = c.call_tool(params(name, args)).await;
    match r {
        Ok(r) if r.is_error != Some(true) => {}
        other => panic!("{name}: {other:?}"),
    }
}

/// p50 and p95 of `samples`, in microseconds.
fn report(label: &str, samples: &Mutex<Vec<Duration>>) {
    let mut v = samples.lock().map(|s| s.clone()).unwrap_or_default();
    if v.is_empty() {
        return;
    }
    v.sort();
    let at = |q: f64| v[((v.len() as f64 - 1.0) * q).round() as usize].as_micros();
    eprintln!(
        "{label}: p50 {} µs, p95 {} µs ({} calls)",
        at(0.50),
        at(0.95),
        v.len()
    );
}

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
    let Ok(home) = tempfile::tempdir() else {
        return;
    };
    let root = home.path().join("work");
    let files: Vec<String> = (0..16)
        .map(|i| root.join(format!("f{i}.txt")).display().to_string())
        .collect();
    let setup = std::fs::create_dir_all(&root).and_then(|_| {
        files
            .iter()
            .try_for_each(|f| std::fs::write(f, format!("contents of {f}\n").repeat(20)))
    });
    if let Err(e) = setup {
        eprintln!("setting up the bench home: {e}");
        return;
    }
    let fs_bin = s.node_bin("mcp-server-filesystem").display().to_string();
    let mcp =
        json!({"mcpServers": {"fs": {"command": fs_bin, "args": [root.display().to_string()]}}});
    if std::fs::write(home.path().join("mcp.json"), mcp.to_string()).is_err() {
        return;
    }
    let mut opts = WorldOptions::new(home.path());
    opts.cwd = home.path().to_path_buf();
    let world = match World::open(opts) {
        Ok(w) => Arc::new(w),
        Err(e) => {
            eprintln!("opening the world: {e}");
            return;
        }
    };
    if let Err(e) = ccos_serve::gateway::prepare(&world) {
        eprintln!("discovery: {e}");
        return;
    }

    // The gateway, over an in-memory pipe.
    let gateway: Client = rt
        .block_on(async {
            let (server_io, client_io) = tokio::io::duplex(1 << 20);
            let server = CcosServer::new(
                world.clone(),
                ServeOptions {
                    gateway: true,
                    ..ServeOptions::default()
                },
            );
            tokio::spawn(async move {
                if let Ok(running) = server.serve(server_io).await {
                    let _ = running.waiting().await;
                }
            });
            ().serve(client_io).await
        })
        .unwrap_or_else(|e| panic!("connecting to the gateway: {e}"));

    // The same server, directly.
    let direct: Client = rt
        .block_on(async {
            let mut cmd = tokio::process::Command::new(&fs_bin);
            cmd.arg(root.display().to_string())
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::null())
                .kill_on_drop(true);
            let mut child = cmd.spawn().map_err(|e| e.to_string())?;
            let (Some(out), Some(inp)) = (child.stdout.take(), child.stdin.take()) else {
                return Err("no pipes".to_string());
            };
            // The child lives as long as the runtime's tasks.
            tokio::spawn(async move {
                let _ = child.wait().await;
            });
            ().serve(AsyncRwTransport::new_client(out, inp))
                .await
                .map_err(|e| e.to_string())
        })
        .unwrap_or_else(|e| panic!("connecting to server-filesystem: {e}"));

    let file = files[0].clone();
    rt.block_on(call_ok(&direct, "read_text_file", json!({"path": file})));
    rt.block_on(call_ok(
        &gateway,
        "mcp.fs.read_text_file",
        json!({"path": file}),
    ));

    let mut g = c.benchmark_group("gateway_call");
    g.sample_size(30);
    g.measurement_time(Duration::from_secs(10));
    for (label, client, tool) in [
        ("direct", &direct, "read_text_file"),
        ("gateway", &gateway, "mcp.fs.read_text_file"),
    ] {
        let samples = Mutex::new(vec![]);
        g.bench_function(label, |b| {
            b.to_async(&rt).iter_custom(|iters| {
                let samples = &samples;
                let file = file.clone();
                async move {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        let t = Instant::now();
                        call_ok(client, tool, json!({"path": file})).await;
                        let d = t.elapsed();
                        total += d;
                        if let Ok(mut s) = samples.lock() {
                            s.push(d);
                        }
                    }
                    total
                }
            })
        });
        report(&format!("gateway_call/{label}"), &samples);
    }
    g.finish();

    let n = 8;
    let mut g = c.benchmark_group("n_calls");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(10));
    let reads: Vec<Json> = files[..n].iter().map(|f| json!({"path": f})).collect();
    let plan_reads = format!(
        "(step-parallel {})",
        files[..n]
            .iter()
            .enumerate()
            .map(|(i, f)| format!(
                "(step \"read {i}\" (call :mcp.fs.read_text_file {{:path {f:?}}}))"
            ))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let sleep_ms = 25;
    let plan_sleeps = format!(
        "(step-parallel {})",
        (0..n)
            .map(|i| format!("(step \"wait {i}\" (call :ccos.time.sleep {{:ms {sleep_ms}}}))"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    rt.block_on(call_ok(&gateway, "ccos_run", json!({"plan": plan_reads})));
    rt.block_on(call_ok(&gateway, "ccos_run", json!({"plan": plan_sleeps})));
    g.bench_function(format!("read_x{n}/one_plan_parallel"), |b| {
        b.to_async(&rt)
            .iter(|| call_ok(&gateway, "ccos_run", json!({"plan": plan_reads})))
    });
    g.bench_function(format!("read_x{n}/sequential_gateway_calls"), |b| {
        b.to_async(&rt).iter(|| async {
            for r in &reads {
                call_ok(&gateway, "mcp.fs.read_text_file", r.clone()).await;
            }
        })
    });
    g.bench_function(format!("read_x{n}/sequential_direct_calls"), |b| {
        b.to_async(&rt).iter(|| async {
            for r in &reads {
                call_ok(&direct, "read_text_file", r.clone()).await;
            }
        })
    });
    g.bench_function(format!("sleep{sleep_ms}ms_x{n}/one_plan_parallel"), |b| {
        b.to_async(&rt)
            .iter(|| call_ok(&gateway, "ccos_run", json!({"plan": plan_sleeps})))
    });
    g.bench_function(
        format!("sleep{sleep_ms}ms_x{n}/sequential_gateway_calls"),
        |b| {
            b.to_async(&rt).iter(|| async {
                for _ in 0..n {
                    call_ok(&gateway, "ccos.time.sleep", json!({"ms": sleep_ms})).await;
                }
            })
        },
    );
    g.finish();

    rt.block_on(async {
        let _ = gateway.cancel().await;
        let _ = direct.cancel().await;
    });
    world.shutdown();
}

criterion_group!(serve, benches);
criterion_main!(serve);
