//! The plan archive.

use ccos_store::{NewPlan, StoreError};
use serde_json::json;

use crate::common::{Eng, fresh};

crate::engine_tests!(plan_archive);

fn plan(id: &str, intent: &str) -> NewPlan {
    NewPlan {
        id: id.into(),
        intent_id: intent.into(),
        rtfs: format!("(call :ccos.echo {{:message \"{id}\"}})"),
        ir: Some(json!({"op": "call", "args": [{"message": id}]})),
        generation_mode: "template".into(),
        diagnostics: json!([]),
        status: "draft".into(),
    }
}

async fn plan_archive(eng: Eng) {
    let Some(db) = fresh(eng).await else { return };
    let s = &db.store;
    let p1 = s.archive_plan(plan("p1", "i1")).await.unwrap();
    let p2 = s.archive_plan(plan("p2", "i1")).await.unwrap();
    let mut p3 = plan("p3", "i2");
    p3.ir = None;
    p3.diagnostics = json!([{"code": "W1", "message": "unused"}]);
    s.archive_plan(p3).await.unwrap();
    assert!(
        s.archive_plan(plan("p1", "i1")).await.is_err(),
        "duplicate id"
    );
    let ids: Vec<String> = s
        .list_plans()
        .await
        .unwrap()
        .into_iter()
        .map(|p| p.id)
        .collect();
    assert_eq!(ids, vec!["p3", "p2", "p1"], "newest first");
    let ids: Vec<String> = s
        .plans_for_intent("i1")
        .await
        .unwrap()
        .into_iter()
        .map(|p| p.id)
        .collect();
    assert_eq!(ids, vec!["p2", "p1"]);
    assert_eq!(s.get_plan("p1").await.unwrap(), Some(p1));
    assert_eq!(s.get_plan("p2").await.unwrap().unwrap().ir, p2.ir);
    let got3 = s.get_plan("p3").await.unwrap().unwrap();
    assert_eq!(got3.ir, None);
    assert_eq!(got3.diagnostics[0]["code"], "W1");
    assert_eq!(s.get_plan("nope").await.unwrap(), None);
    s.set_plan_status("p2", "approved").await.unwrap();
    assert_eq!(s.get_plan("p2").await.unwrap().unwrap().status, "approved");
    assert!(matches!(
        s.set_plan_status("nope", "x").await,
        Err(StoreError::NotFound { .. })
    ));
    assert!(matches!(
        s.set_plan_status("p2", "").await,
        Err(StoreError::Invalid(_))
    ));
    // Same-timestamp ties are broken by id, descending.
    db.exec("UPDATE plans SET created_at = '2026-01-01T00:00:00.000000Z'")
        .await;
    let ids: Vec<String> = s
        .list_plans()
        .await
        .unwrap()
        .into_iter()
        .map(|p| p.id)
        .collect();
    assert_eq!(ids, vec!["p3", "p2", "p1"]);
    db.cleanup().await;
}
