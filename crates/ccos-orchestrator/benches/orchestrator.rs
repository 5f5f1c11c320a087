//! Orchestrator figures (a measured run, not a statistical criterion loop:
//! one iteration of the big plan takes seconds because every call is
//! recorded durably in the causal chain).
//!
//! Run: `cargo bench -p ccos-orchestrator --bench orchestrator`
//!
//! - overhead per call: a plan of 10,000 `ccos.echo` calls, total and per
//!   call, with the chain on SQLite (synchronous=FULL) in a temp dir;
//! - parallel speed-up: N independent `ccos.time.sleep {:ms 200}` calls in
//!   `step-parallel` versus the same calls in sequence.

use std::sync::Arc;
use std::time::Instant;

use ccos_governance::Policy;
use ccos_marketplace::Marketplace;
use ccos_marketplace::builtins::{BuiltinConfig, install};
use ccos_orchestrator::{Orchestrator, RunOptions};
use ccos_store::Store;

async fn orchestrator(dir: &std::path::Path, max_calls: u64) -> Orchestrator {
    let mp = Arc::new(Marketplace::new().expect("marketplace"));
    install(
        &mp,
        BuiltinConfig {
            file_roots: vec![dir.to_path_buf()],
            ..BuiltinConfig::default()
        },
    )
    .expect("builtins");
    let store = Store::open(&format!("sqlite://{}", dir.join("bench.db").display()))
        .await
        .expect("store");
    let policy = Policy {
        max_calls,
        ..Policy::default()
    };
    Orchestrator::new(mp, policy, store)
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let dir = tempfile::tempdir().expect("tempdir");
        let n = 10_000;
        let orch = orchestrator(dir.path(), n + 1).await;
        let mut src = String::from("(do\n");
        for i in 0..n {
            src.push_str(&format!("  (call :ccos.echo {{:message \"m{i}\"}})\n"));
        }
        src.push(')');
        let started = Instant::now();
        let out = orch.run(&src, RunOptions::default()).await.expect("run");
        let total = started.elapsed();
        println!(
            "echo plan: {} calls in {:.2} s = {:.1} µs per call (chain entries recorded: {})",
            out.calls,
            total.as_secs_f64(),
            total.as_micros() as f64 / n as f64,
            orch.store().chain_len().await.expect("len")
        );

        for parallel in [1usize, 2, 4, 8, 16] {
            let dir = tempfile::tempdir().expect("tempdir");
            let orch = orchestrator(dir.path(), 1000).await;
            let calls: String = (0..parallel).map(|_| " (call :ccos.time.sleep {:ms 200})").collect();
            let t = Instant::now();
            orch.run(&format!("(step-parallel{calls})"), RunOptions::default()).await.expect("parallel");
            let par = t.elapsed();
            let t = Instant::now();
            orch.run(&format!("(do{calls})"), RunOptions::default()).await.expect("sequential");
            let seq = t.elapsed();
            println!(
                "{parallel:>2} sleeping calls (200 ms each): parallel {:>6.0} ms, sequential {:>6.0} ms, speed-up {:.2}x",
                par.as_secs_f64() * 1e3,
                seq.as_secs_f64() * 1e3,
                seq.as_secs_f64() / par.as_secs_f64()
            );
        }
    });
}
