//! Causal chain: append, reads, and tamper detection by `verify_chain`.

use ccos_core::audit::canonical::canonical_json;
use ccos_store::{EntryKind, GENESIS_HASH, NewEntry};
use serde_json::json;

use crate::common::{Eng, TestDb, fresh};

crate::engine_tests!(
    append_and_read,
    tamper_payload_byte,
    tamper_other_columns,
    tamper_delete_row,
    tamper_delete_last_row,
    truncation_survives_later_appends,
    a_removed_head_stays_detected,
    stray_rows_are_detected,
    tamper_swap_rows,
);

/// Appends `n` entries over two intents, two plans and a run.
async fn fill(db: &TestDb, n: i64) {
    for i in 1..=n {
        let mut e = NewEntry::raw(
            if i % 2 == 0 {
                EntryKind::StepStarted
            } else {
                EntryKind::CapabilityCall
            },
            json!({"i": i, "message": format!("hello {i}"), "z": [1, {"b": 2, "a": 1}]}),
        )
        .intent(format!("intent-{}", i % 2));
        if i % 3 == 0 {
            e = e.plan("plan-3");
        }
        if i > n - 2 {
            e = e.run("run-last");
        }
        db.store.append(e).await.expect("append");
    }
}

async fn append_and_read(eng: Eng) {
    let Some(db) = fresh(eng).await else { return };
    let s = &db.store;
    assert!(
        s.verify_chain().await.unwrap().ok,
        "an empty chain verifies"
    );
    fill(&db, 10).await;
    let all = s.chain_all().await.unwrap();
    assert_eq!(
        all.iter().map(|e| e.seq).collect::<Vec<_>>(),
        (1..=10).collect::<Vec<_>>()
    );
    assert_eq!(all[0].prev_hash, GENESIS_HASH);
    for w in all.windows(2) {
        assert_eq!(w[1].prev_hash, w[0].hash);
        assert!(w[0].timestamp <= w[1].timestamp);
    }
    // The payload round-trips (key order is canonical, values intact).
    assert_eq!(
        all[4].payload,
        json!({"i": 5, "message": "hello 5", "z": [1, {"a": 1, "b": 2}]})
    );
    assert!(all[4].timestamp.ends_with('Z'));
    // Independent recomputation of a hash from the documented encoding.
    let e = &all[2];
    assert_eq!(e.hash, e.recompute_hash().unwrap());
    let by_intent = s.chain_by_intent("intent-0").await.unwrap();
    assert_eq!(
        by_intent.iter().map(|e| e.seq).collect::<Vec<_>>(),
        vec![2, 4, 6, 8, 10]
    );
    let by_plan = s.chain_by_plan("plan-3").await.unwrap();
    assert_eq!(
        by_plan.iter().map(|e| e.seq).collect::<Vec<_>>(),
        vec![3, 6, 9]
    );
    let by_run = s.chain_by_run("run-last").await.unwrap();
    assert_eq!(
        by_run.iter().map(|e| e.seq).collect::<Vec<_>>(),
        vec![9, 10]
    );
    assert!(s.chain_by_run("nope").await.unwrap().is_empty());
    let range = s.chain_range(4, 6).await.unwrap();
    assert_eq!(
        range.iter().map(|e| e.seq).collect::<Vec<_>>(),
        vec![4, 5, 6]
    );
    assert_eq!(s.chain_len().await.unwrap(), 10);
    let report = s.verify_chain().await.unwrap();
    assert!(report.ok, "{report:?}");
    assert_eq!(report.entries_checked, 10);
    db.cleanup().await;
}

async fn tamper_payload_byte(eng: Eng) {
    let Some(db) = fresh(eng).await else { return };
    fill(&db, 6).await;
    // One byte of one payload: "hello 3" -> "hellp 3".
    let n = db.exec("UPDATE causal_chain SET payload = replace(payload, 'hello 3', 'hellp 3') WHERE seq = 3").await;
    assert_eq!(n, 1);
    let r = db.store.verify_chain().await.unwrap();
    assert!(!r.ok);
    assert_eq!(r.first_bad_seq, Some(3), "{r:?}");
    assert!(r.reason.as_deref().unwrap_or("").contains("hash"), "{r:?}");
    // A whitespace-only change is also caught (the stored text is canonical).
    let Some(db2) = fresh(eng).await else { return };
    fill(&db2, 3).await;
    db2.exec("UPDATE causal_chain SET payload = replace(payload, ',', ', ') WHERE seq = 2")
        .await;
    let r = db2.store.verify_chain().await.unwrap();
    assert_eq!(r.first_bad_seq, Some(2), "{r:?}");
    db.cleanup().await;
    db2.cleanup().await;
}

async fn tamper_other_columns(eng: Eng) {
    let tampers = [
        (
            "UPDATE causal_chain SET kind = 'capability_calm' WHERE seq = 2",
            2,
        ),
        (
            "UPDATE causal_chain SET intent_id = 'intent-9' WHERE seq = 4",
            4,
        ),
        ("UPDATE causal_chain SET plan_id = NULL WHERE seq = 3", 3),
        (
            "UPDATE causal_chain SET ts = replace(ts, 'Z', '1Z') WHERE seq = 1",
            1,
        ),
        (
            "UPDATE causal_chain SET hash = replace(hash, substr(hash, 1, 1), 'x') WHERE seq = 2",
            2,
        ),
        ("UPDATE causal_chain SET prev_hash = hash WHERE seq = 5", 5),
    ];
    for (sql, bad) in tampers {
        let Some(db) = fresh(eng).await else { return };
        fill(&db, 5).await;
        assert_eq!(db.exec(sql).await, 1, "{sql}");
        let r = db.store.verify_chain().await.unwrap();
        assert!(!r.ok, "{sql}");
        assert_eq!(r.first_bad_seq, Some(bad), "{sql}: {r:?}");
        db.cleanup().await;
    }
}

async fn tamper_delete_row(eng: Eng) {
    let Some(db) = fresh(eng).await else { return };
    fill(&db, 8).await;
    assert_eq!(db.exec("DELETE FROM causal_chain WHERE seq = 4").await, 1);
    let r = db.store.verify_chain().await.unwrap();
    assert!(!r.ok);
    assert_eq!(r.first_bad_seq, Some(4), "{r:?}");
    assert!(
        r.reason.as_deref().unwrap_or("").contains("missing"),
        "{r:?}"
    );
    db.cleanup().await;
}

async fn tamper_delete_last_row(eng: Eng) {
    let Some(db) = fresh(eng).await else { return };
    fill(&db, 5).await;
    assert_eq!(db.exec("DELETE FROM causal_chain WHERE seq = 5").await, 1);
    let r = db.store.verify_chain().await.unwrap();
    assert!(!r.ok);
    assert_eq!(r.first_bad_seq, Some(5), "{r:?}");
    db.cleanup().await;
}

/// Cutting entries off the end and then appending (the next `ccos` start
/// writes `run_abandoned` for the cut run) must not re-anchor the chain over
/// the cut: the new entry follows the recorded head, so the gap stays
/// visible to `verify_chain` however many entries come after.
async fn truncation_survives_later_appends(eng: Eng) {
    let Some(db) = fresh(eng).await else { return };
    fill(&db, 6).await;
    assert_eq!(db.exec("DELETE FROM causal_chain WHERE seq >= 4").await, 3);
    for _ in 0..2 {
        db.store
            .append(NewEntry::raw(EntryKind::RunAbandoned, json!({"pid": 1})))
            .await
            .expect("append after the cut");
    }
    let r = db.store.verify_chain().await.unwrap();
    assert!(!r.ok, "a cut followed by appends verified: {r:?}");
    assert_eq!(r.first_bad_seq, Some(4), "{r:?}");
    assert!(
        r.reason.as_deref().unwrap_or("").contains("missing"),
        "{r:?}"
    );
    let all = db.store.chain_all().await.unwrap();
    let seqs: Vec<i64> = all.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, vec![1, 2, 3, 7, 8], "new entries follow the head");
    db.cleanup().await;
}

/// Removing the head record along with a cut must not let the next
/// append re-anchor the chain.
async fn a_removed_head_stays_detected(eng: Eng) {
    let Some(db) = fresh(eng).await else { return };
    fill(&db, 6).await;
    db.exec("DELETE FROM causal_chain WHERE seq >= 5").await;
    db.exec("DELETE FROM chain_head").await;
    assert!(!db.store.verify_chain().await.unwrap().ok);
    for _ in 0..2 {
        db.store
            .append(NewEntry::raw(EntryKind::RunAbandoned, json!({"pid": 1})))
            .await
            .expect("append after the cut");
    }
    let r = db.store.verify_chain().await.unwrap();
    assert!(!r.ok, "re-anchored after the head was removed: {r:?}");
    assert_eq!(r.first_bad_seq, Some(5), "{r:?}");
    db.cleanup().await;
}

/// A row with a seq of zero, a negative seq or none is not walked by the
/// chain, yet would show in a run's story: verify reports it.
async fn stray_rows_are_detected(eng: Eng) {
    for seq in ["0", "-5"] {
        let Some(db) = fresh(eng).await else { return };
        fill(&db, 4).await;
        let copy = format!(
            "INSERT INTO causal_chain (seq, format, kind, intent_id, plan_id, run_id, payload, ts, prev_hash, hash) \
             SELECT {seq}, format, kind, intent_id, plan_id, run_id, payload, ts, prev_hash, hash FROM causal_chain WHERE seq = 4"
        );
        assert_eq!(db.exec(&copy).await, 1);
        let r = db.store.verify_chain().await.unwrap();
        assert!(!r.ok, "seq {seq}: {r:?}");
        assert!(
            r.reason.as_deref().unwrap_or("").contains("below 1"),
            "{r:?}"
        );
        db.cleanup().await;
    }
}

async fn tamper_swap_rows(eng: Eng) {
    let Some(db) = fresh(eng).await else { return };
    fill(&db, 6).await;
    let all = db.store.chain_all().await.unwrap();
    let (a, b) = (&all[1], &all[4]); // seq 2 and 5
    let set = |dst: i64, e: &ccos_store::ChainEntry| {
        let q = |s: &Option<String>| {
            s.as_ref()
                .map(|v| format!("'{v}'"))
                .unwrap_or("NULL".into())
        };
        format!(
            "UPDATE causal_chain SET kind = '{}', intent_id = {}, plan_id = {}, run_id = {}, payload = '{}', ts = '{}', prev_hash = '{}', hash = '{}' WHERE seq = {dst}",
            e.kind,
            q(&e.intent_id),
            q(&e.plan_id),
            q(&e.run_id),
            canonical_json(&e.payload).unwrap(),
            e.timestamp,
            e.prev_hash,
            e.hash
        )
    };
    assert_eq!(db.exec(&set(2, b)).await, 1);
    assert_eq!(db.exec(&set(5, a)).await, 1);
    let r = db.store.verify_chain().await.unwrap();
    assert!(!r.ok);
    assert_eq!(r.first_bad_seq, Some(2), "{r:?}");
    db.cleanup().await;
}
