//! Concurrent appenders (tasks and OS processes) and a kill -9 crash test.
//!
//! Child processes are this test binary re-invoked on `child_appender`,
//! which does nothing unless `CCOS_STORE_CHILD_URL` is set.

use std::collections::BTreeMap;
use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use ccos_store::{EntryKind, NewEntry, Store};
use serde_json::json;

use crate::common::{Eng, fresh};

crate::engine_tests!(
    concurrent_tasks,
    concurrent_processes,
    crash_keeps_acknowledged_entries
);

/// Not a test on its own: the body of a child process.
#[test]
fn child_appender() {
    let Ok(url) = std::env::var("CCOS_STORE_CHILD_URL") else {
        return;
    };
    let n: u64 = std::env::var("CCOS_STORE_CHILD_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let tag = std::env::var("CCOS_STORE_CHILD_TAG").unwrap_or_default();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let store = Store::open(&url).await.expect("child: open store");
        let mut i = 0u64;
        while n == 0 || i < n {
            i += 1;
            let e = store
                .append(
                    NewEntry::raw(EntryKind::CapabilityCall, json!({"tag": tag, "i": i}))
                        .run(tag.clone()),
                )
                .await
                .expect("child: append");
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            writeln!(out, "ACK {} {}", e.seq, i).expect("child: stdout");
            out.flush().expect("child: flush");
        }
    });
}

fn spawn_child(url: &str, n: u64, tag: &str) -> Child {
    Command::new(std::env::current_exe().expect("current_exe"))
        .args([
            "--exact",
            "concurrency::child_appender",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env("CCOS_STORE_CHILD_URL", url)
        .env("CCOS_STORE_CHILD_N", n.to_string())
        .env("CCOS_STORE_CHILD_TAG", tag)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn child")
}

/// Parses the `ACK seq i` lines a child printed.
fn acks(text: &str) -> Vec<(i64, u64)> {
    text.lines()
        .filter_map(|l| {
            // libtest prints `test ... ` without a newline before the body runs.
            let at = l.find("ACK ")?;
            let mut it = l[at + 4..].split(' ');
            Some((it.next()?.parse().ok()?, it.next()?.parse().ok()?))
        })
        .collect()
}

async fn concurrent_tasks(eng: Eng) {
    let Some(db) = fresh(eng).await else { return };
    // Two handles (separate pools) and 8 tasks, 25 appends each.
    let other = Store::open(&db.url).await.unwrap();
    let mut handles = Vec::new();
    for t in 0..8 {
        let s = if t % 2 == 0 {
            db.store.clone()
        } else {
            other.clone()
        };
        handles.push(tokio::spawn(async move {
            let mut seqs = Vec::new();
            for i in 0..25 {
                let e = s
                    .append(NewEntry::raw(
                        EntryKind::StepStarted,
                        json!({"task": t, "i": i}),
                    ))
                    .await
                    .expect("append");
                seqs.push(e.seq);
            }
            seqs
        }));
    }
    let mut all = Vec::new();
    for h in handles {
        all.extend(h.await.expect("task"));
    }
    all.sort();
    assert_eq!(
        all,
        (1..=200).collect::<Vec<i64>>(),
        "every append got its own seq"
    );
    let r = db.store.verify_chain().await.unwrap();
    assert!(r.ok && r.entries_checked == 200, "{r:?}");
    other.close().await;
    db.cleanup().await;
}

async fn concurrent_processes(eng: Eng) {
    let Some(db) = fresh(eng).await else { return };
    let kids: Vec<Child> = (0..3)
        .map(|k| spawn_child(&db.url, 30, &format!("p{k}")))
        .collect();
    // Append from this process too, meanwhile.
    for i in 0..30 {
        db.store
            .append(NewEntry::raw(EntryKind::StepEnded, json!({"parent": i})))
            .await
            .unwrap();
    }
    let mut acked = Vec::new();
    for kid in kids {
        let out = wait_with_timeout(kid, Duration::from_secs(90));
        assert!(out.status.success(), "child failed: {out:?}");
        let a = acks(&String::from_utf8_lossy(&out.stdout));
        assert_eq!(a.len(), 30, "child acknowledged every append");
        acked.extend(a.into_iter().map(|(seq, _)| seq));
    }
    assert_eq!(db.store.chain_len().await.unwrap(), 120);
    acked.sort();
    acked.dedup();
    assert_eq!(acked.len(), 90, "no two appends share a seq");
    let r = db.store.verify_chain().await.unwrap();
    assert!(r.ok && r.entries_checked == 120, "{r:?}");
    for k in 0..3 {
        assert_eq!(
            db.store.chain_by_run(&format!("p{k}")).await.unwrap().len(),
            30
        );
    }
    db.cleanup().await;
}

fn wait_with_timeout(mut child: Child, limit: Duration) -> std::process::Output {
    let deadline = Instant::now() + limit;
    loop {
        match child.try_wait().expect("try_wait") {
            Some(_) => return child.wait_with_output().expect("wait_with_output"),
            None if Instant::now() > deadline => {
                let _ = child.kill();
                panic!("child did not finish within {limit:?}");
            }
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    }
}

async fn crash_keeps_acknowledged_entries(eng: Eng) {
    let Some(db) = fresh(eng).await else { return };
    let mut child = spawn_child(&db.url, 0, "crash");
    let stdout = child.stdout.take().expect("child stdout");
    let (tx, rx) = mpsc::channel::<String>();
    let reader = std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut lines = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while acks(&lines.join("\n")).len() < 40 {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(l) => lines.push(l),
            Err(e) => {
                let _ = child.kill();
                panic!("child stopped acknowledging appends: {e}");
            }
        }
    }
    child.kill().expect("kill -9 the child"); // SIGKILL on Unix
    child.wait().expect("reap child");
    // Every line written before the kill is still in the pipe.
    while let Ok(l) = rx.recv_timeout(Duration::from_secs(10)) {
        lines.push(l);
    }
    reader.join().expect("reader thread");
    let acked = acks(&lines.join("\n"));
    assert!(acked.len() >= 40);
    db.store.close().await;

    let store = Store::open(&db.url).await.expect("reopen after crash");
    let r = store.verify_chain().await.unwrap();
    assert!(r.ok, "{r:?}");
    let entries: BTreeMap<i64, serde_json::Value> = store
        .chain_all()
        .await
        .unwrap()
        .into_iter()
        .map(|e| (e.seq, e.payload))
        .collect();
    for (seq, i) in &acked {
        let payload = entries
            .get(seq)
            .unwrap_or_else(|| panic!("acknowledged entry {seq} lost"));
        assert_eq!(payload["i"], json!(i), "entry {seq}");
    }
    // The chain continues after the crash.
    let next = store
        .append(NewEntry::raw(EntryKind::RunInterrupted, json!({})))
        .await
        .unwrap();
    assert_eq!(next.seq, entries.len() as i64 + 1);
    assert!(store.verify_chain().await.unwrap().ok);
    store.close().await;
    db.cleanup().await;
}
