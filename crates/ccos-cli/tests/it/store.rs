//! `ccos graph|chain|plans` against a real SQLite store in a temp
//! `CCOS_HOME`, including `chain verify` after tampering with the file
//! through SQLite itself.

use std::path::Path;

use crate::support::{ccos, text};
use ccos_store::{EdgeKind, EntryKind, NewEntry, NewIntent, NewPlan, Store};
use serde_json::json;

fn db_url(home: &Path) -> String {
    format!("sqlite://{}", home.join("ccos.db").display())
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

/// A home whose store holds two intents, a plan and 5 chain entries.
fn populated_home() -> tempfile::TempDir {
    let home = tempfile::tempdir().expect("tempdir");
    let url = db_url(home.path());
    rt().block_on(async {
        let s = Store::open(&url).await.expect("open");
        s.create_intent(NewIntent::new("root", "publish the report"))
            .await
            .unwrap();
        s.create_intent(NewIntent::new("sub", "render the charts"))
            .await
            .unwrap();
        s.add_edge("sub", "root", EdgeKind::IsSubgoalOf)
            .await
            .unwrap();
        s.archive_plan(NewPlan {
            id: "p1".into(),
            intent_id: "root".into(),
            rtfs: "(call :ccos.echo {:message \"hi\"})".into(),
            ir: None,
            generation_mode: "manual".into(),
            diagnostics: json!([]),
            status: "draft".into(),
        })
        .await
        .unwrap();
        for i in 1..=5 {
            let mut e = NewEntry::raw(
                EntryKind::CapabilityCall,
                json!({"i": i, "message": format!("hello {i}")}),
            )
            .intent(if i % 2 == 0 { "sub" } else { "root" });
            if i >= 4 {
                e = e.plan("p1").run("r1");
            }
            s.append(e).await.unwrap();
        }
        s.close().await;
    });
    home
}

/// Runs raw SQL on the home's SQLite file (not through the store's API).
fn tamper(home: &Path, sql: &[&str]) {
    let url = db_url(home);
    rt().block_on(async {
        let pool = sqlx::SqlitePool::connect(&url).await.expect("raw sqlite");
        for q in sql {
            let n = sqlx::query(sqlx::AssertSqlSafe(q.to_string()))
                .execute(&pool)
                .await
                .expect("tamper sql")
                .rows_affected();
            assert!(n >= 1 || q.starts_with("CREATE"), "{q} changed nothing");
        }
        pool.close().await;
    });
}

#[test]
fn graph_chain_plans_commands() {
    let home = populated_home();
    let h = home.path();

    let out = ccos(h, &["chain", "verify"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("5 entries"),
        "{}",
        text(&out.stdout)
    );

    let out = ccos(h, &["chain", "show", "--intent", "root", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let seqs: Vec<i64> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["seq"].as_i64().unwrap())
        .collect();
    assert_eq!(seqs, vec![1, 3, 5]);
    let out = ccos(h, &["chain", "show", "--run", "r1"]);
    let s = text(&out.stdout);
    assert!(
        s.contains("#4 ") && s.contains("#5 ") && !s.contains("#3 "),
        "{s}"
    );
    assert_eq!(
        ccos(h, &["chain", "show", "--run", "r1", "--plan", "p1"])
            .status
            .code(),
        Some(2)
    );

    let out = ccos(h, &["graph", "show", "root", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["intents"].as_array().unwrap().len(), 2);
    assert_eq!(
        v["edges"][0],
        json!({"from": "sub", "to": "root", "kind": "IsSubgoalOf"})
    );
    let s = text(&ccos(h, &["graph", "show", "root"]).stdout);
    assert!(s.contains("sub -[IsSubgoalOf]-> root"), "{s}");
    let out = ccos(h, &["graph", "show", "nope"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("nope"));
    let s = text(&ccos(h, &["graph", "list", "--status", "pending"]).stdout);
    assert!(s.contains("root") && s.contains("sub"), "{s}");
    let s = text(&ccos(h, &["graph", "list", "--status", "completed"]).stdout);
    assert!(s.contains("(no intents)"), "{s}");
    assert_eq!(
        ccos(h, &["graph", "list", "--status", "bogus"])
            .status
            .code(),
        Some(2)
    );

    let out = ccos(h, &["plans", "list", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v[0]["id"], "p1");
    let s = text(&ccos(h, &["plans", "show", "p1"]).stdout);
    assert!(s.contains(":ccos.echo") && s.contains("draft"), "{s}");
    assert_eq!(ccos(h, &["plans", "show", "nope"]).status.code(), Some(1));
}

/// `ccos chain verify` must exit 1 naming the entry, whatever the tampering.
fn assert_broken_at(home: &Path, seq: i64) {
    let out = ccos(home, &["chain", "verify"]);
    assert_eq!(out.status.code(), Some(1), "stdout: {}", text(&out.stdout));
    let err = text(&out.stderr);
    assert!(err.contains(&format!("entry {seq}")), "{err}");
    let out = ccos(home, &["chain", "verify", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["ok"], json!(false));
    assert_eq!(v["first_bad_seq"], json!(seq));
}

#[test]
fn verify_detects_a_changed_byte() {
    let home = populated_home();
    tamper(
        home.path(),
        &["UPDATE causal_chain SET payload = replace(payload, 'hello 3', 'hellp 3') WHERE seq = 3"],
    );
    assert_broken_at(home.path(), 3);
}

#[test]
fn verify_detects_a_deleted_row() {
    let home = populated_home();
    tamper(home.path(), &["DELETE FROM causal_chain WHERE seq = 2"]);
    assert_broken_at(home.path(), 2);
}

#[test]
fn verify_detects_swapped_rows() {
    let home = populated_home();
    // Swap the content of entries 2 and 4, keeping their seq numbers.
    let cols = "kind, intent_id, plan_id, run_id, payload, ts, prev_hash, hash";
    tamper(
        home.path(),
        &[
            &format!(
                "CREATE TABLE tmp AS SELECT seq, {cols} FROM causal_chain WHERE seq IN (2, 4)"
            ),
            &format!(
                "UPDATE causal_chain SET ({cols}) = (SELECT {cols} FROM tmp WHERE tmp.seq = 6 - causal_chain.seq) WHERE seq IN (2, 4)"
            ),
        ],
    );
    assert_broken_at(home.path(), 2);
}

/// The CLI against the PostgreSQL store (`CCOS_DATABASE_URL`): runs, plans,
/// the run story and chain verification work as on SQLite. Skipped with a
/// note when no test server is configured (required under CI).
#[test]
fn the_cli_runs_on_a_postgres_store() {
    let Some((schema, url)) = ccos_testkit::pg::fresh_schema_blocking("ccos_cli") else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let pg =
        |args: &[&str]| crate::support::ccos_env(home.path(), &[("CCOS_DATABASE_URL", &url)], args);
    let plan = crate::support::write(
        home.path(),
        "plan.rtfs",
        r#"(step "Add" (call :ccos.math.add 2 3))"#,
    );
    let out = pg(&["run", "--plan", &plan]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "5");
    let out = pg(&["run", "multiply 6 by 7"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "42");
    let out = pg(&["runs", "list", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let runs: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(runs.as_array().map(Vec::len), Some(2), "{runs}");
    assert_eq!(runs[1]["status"], "succeeded");
    let id = runs[1]["run_id"].as_str().unwrap().to_string();
    let out = pg(&["runs", "show", &id]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("value:   42"),
        "{}",
        text(&out.stdout)
    );
    let out = pg(&["chain", "verify"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Nothing went to a SQLite file in the home.
    assert!(!home.path().join("ccos.db").exists());
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(ccos_testkit::pg::drop_schema(&schema));
}
