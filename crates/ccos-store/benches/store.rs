//! Causal-chain throughput: appends per second (each one a durable,
//! locked transaction) and verification speed (entries checked per second),
//! on SQLite, and on PostgreSQL when `CCOS_TEST_DATABASE_URL` is set.
//!
//! `cargo bench -p ccos-store --bench store`

use std::time::Duration;

use ccos_store::{EntryKind, NewEntry, Store};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::json;

const VERIFY_ENTRIES: u64 = 5_000;

fn payload(i: u64) -> serde_json::Value {
    json!({"capability": "ccos.echo", "args": {"message": format!("hello {i}")}, "i": i})
}

struct Target {
    name: &'static str,
    url: String,
    _dir: Option<tempfile::TempDir>,
    schema: Option<(String, String)>,
}

async fn targets() -> Vec<Target> {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut out = vec![Target {
        name: "sqlite",
        url: format!("sqlite://{}", dir.path().join("bench.db").display()),
        _dir: Some(dir),
        schema: None,
    }];
    match std::env::var("CCOS_TEST_DATABASE_URL") {
        Ok(base) if !base.is_empty() => {
            let schema = format!("ccos_bench_{}", std::process::id());
            let admin = sqlx::PgPool::connect(&base)
                .await
                .expect("connect to postgres");
            for q in [
                format!("DROP SCHEMA IF EXISTS {schema} CASCADE"),
                format!("CREATE SCHEMA {schema}"),
            ] {
                sqlx::query(sqlx::AssertSqlSafe(q))
                    .execute(&admin)
                    .await
                    .expect("create bench schema");
            }
            admin.close().await;
            let sep = if base.contains('?') { '&' } else { '?' };
            out.push(Target {
                name: "postgres",
                url: format!("{base}{sep}options=-csearch_path%3D{schema}"),
                _dir: None,
                schema: Some((base, schema)),
            });
        }
        _ => eprintln!("note: CCOS_TEST_DATABASE_URL is not set; benchmarking SQLite only"),
    }
    out
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    for t in rt.block_on(targets()) {
        let store = rt.block_on(Store::open(&t.url)).expect("open store");

        let mut g = c.benchmark_group(format!("{}/append", t.name));
        g.throughput(Throughput::Elements(1));
        g.sample_size(10);
        g.measurement_time(Duration::from_secs(5));
        let mut i = 0u64;
        g.bench_function("append", |b| {
            b.to_async(&rt).iter(|| {
                i += 1;
                let s = store.clone();
                let p = payload(i);
                async move {
                    s.append(NewEntry::raw(EntryKind::CapabilityCall, p).run("bench"))
                        .await
                        .expect("append")
                }
            })
        });
        g.finish();

        // Bring the chain to a fixed length for the verify benchmark.
        rt.block_on(async {
            let have = store.chain_len().await.expect("len") as u64;
            for j in have..VERIFY_ENTRIES {
                store
                    .append(NewEntry::raw(EntryKind::CapabilityCall, payload(j)))
                    .await
                    .expect("append");
            }
        });
        let n = rt.block_on(store.chain_len()).expect("len") as u64;
        let mut g = c.benchmark_group(format!("{}/verify", t.name));
        g.throughput(Throughput::Elements(n));
        g.sample_size(10);
        g.measurement_time(Duration::from_secs(5));
        g.bench_function(format!("verify_{n}"), |b| {
            b.to_async(&rt).iter(|| {
                let s = store.clone();
                async move {
                    let r = s.verify_chain().await.expect("verify");
                    assert!(r.ok);
                    r
                }
            })
        });
        g.finish();

        rt.block_on(store.close());
        if let Some((base, schema)) = &t.schema {
            rt.block_on(async {
                if let Ok(admin) = sqlx::PgPool::connect(base).await {
                    let _ =
                        sqlx::query(sqlx::AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE")))
                            .execute(&admin)
                            .await;
                    admin.close().await;
                }
            });
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
