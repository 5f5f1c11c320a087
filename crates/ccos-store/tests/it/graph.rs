//! The intent graph.

use ccos_store::{Edge, EdgeKind, IntentStatus, NewIntent, StoreError};
use serde_json::json;

use crate::common::{Eng, fresh};

crate::engine_tests!(
    intents_and_status,
    graph_queries,
    dependency_order_and_cycles
);

async fn intents_and_status(eng: Eng) {
    let Some(db) = fresh(eng).await else { return };
    let s = &db.store;
    let mut n = NewIntent::new("i1", "summarise the README");
    n.constraints = json!({"max_cost": 3});
    n.preferences = json!({"style": "short"});
    n.metadata = json!({"parse_format": "rtfs"});
    let i1 = s.create_intent(n).await.unwrap();
    assert_eq!(i1.status, IntentStatus::Pending);
    assert!(s.create_intent(NewIntent::new("i1", "dup")).await.is_err());
    let mut bad = NewIntent::new("i9", "x");
    bad.metadata = json!([1]);
    assert!(matches!(
        s.create_intent(bad).await,
        Err(StoreError::Invalid(_))
    ));
    assert_eq!(s.get_intent("i1").await.unwrap(), Some(i1.clone()));
    assert_eq!(s.get_intent("zz").await.unwrap(), None);
    s.create_intent(NewIntent::new("i2", "two")).await.unwrap();
    s.create_intent(NewIntent::new("i3", "three"))
        .await
        .unwrap();
    s.set_intent_status("i1", IntentStatus::Completed)
        .await
        .unwrap();
    s.set_intent_status("i3", IntentStatus::Completed)
        .await
        .unwrap();
    assert!(matches!(
        s.set_intent_status("zz", IntentStatus::Failed).await,
        Err(StoreError::NotFound { .. })
    ));
    let done: Vec<String> = s
        .intents_by_status(IntentStatus::Completed)
        .await
        .unwrap()
        .into_iter()
        .map(|i| i.id)
        .collect();
    assert_eq!(done, vec!["i1", "i3"]);
    assert_eq!(s.list_intents(None).await.unwrap().len(), 3);
    let got = s.get_intent("i1").await.unwrap().unwrap();
    assert!(got.updated_at >= got.created_at);
    assert_eq!(got.constraints, json!({"max_cost": 3}));
    // merge_metadata keeps other keys and replaces the given ones.
    let merged = s
        .merge_intent_metadata("i1", json!({"ir_diff": ["+a"], "parse_format": "json"}))
        .await
        .unwrap();
    assert_eq!(merged, json!({"parse_format": "json", "ir_diff": ["+a"]}));
    assert_eq!(s.get_intent("i1").await.unwrap().unwrap().metadata, merged);
    assert!(s.merge_intent_metadata("i1", json!(3)).await.is_err());
    assert!(s.merge_intent_metadata("zz", json!({})).await.is_err());
    assert!("bogus".parse::<IntentStatus>().is_err());
    db.cleanup().await;
}

async fn graph_queries(eng: Eng) {
    let Some(db) = fresh(eng).await else { return };
    let s = &db.store;
    for id in ["root", "a", "b", "c", "other"] {
        s.create_intent(NewIntent::new(id, format!("goal {id}")))
            .await
            .unwrap();
    }
    s.add_edge("a", "root", EdgeKind::IsSubgoalOf)
        .await
        .unwrap();
    s.add_edge("b", "root", EdgeKind::IsSubgoalOf)
        .await
        .unwrap();
    s.add_edge("c", "a", EdgeKind::IsSubgoalOf).await.unwrap();
    s.add_edge("c", "a", EdgeKind::IsSubgoalOf).await.unwrap(); // idempotent
    s.add_edge("b", "a", EdgeKind::DependsOn).await.unwrap();
    s.add_edge("c", "other", EdgeKind::Other("Blocks".into()))
        .await
        .unwrap();
    assert!(matches!(
        s.add_edge("a", "missing", EdgeKind::DependsOn).await,
        Err(StoreError::NotFound { .. })
    ));
    let kids: Vec<String> = s
        .children("root")
        .await
        .unwrap()
        .into_iter()
        .map(|i| i.id)
        .collect();
    assert_eq!(kids, vec!["a", "b"]);
    assert!(s.children("c").await.unwrap().is_empty());
    let anc: Vec<String> = s
        .ancestors("c")
        .await
        .unwrap()
        .into_iter()
        .map(|i| i.id)
        .collect();
    assert_eq!(anc, vec!["a", "root"]);
    assert!(s.ancestors("root").await.unwrap().is_empty());
    let sub = s.subgraph("root").await.unwrap();
    let ids: Vec<&str> = sub.intents.iter().map(|i| i.id.as_str()).collect();
    assert_eq!(ids, vec!["root", "a", "b", "c"]);
    let e = |f: &str, t: &str, k: EdgeKind| Edge {
        from: f.into(),
        to: t.into(),
        kind: k,
    };
    assert_eq!(
        sub.edges,
        vec![
            e("a", "root", EdgeKind::IsSubgoalOf),
            e("b", "a", EdgeKind::DependsOn),
            e("b", "root", EdgeKind::IsSubgoalOf),
            e("c", "a", EdgeKind::IsSubgoalOf),
        ]
    );
    let sub_a = s.subgraph("a").await.unwrap();
    assert_eq!(sub_a.intents.len(), 2);
    assert_eq!(sub_a.edges, vec![e("c", "a", EdgeKind::IsSubgoalOf)]);
    assert_eq!(
        s.edges_of("c").await.unwrap(),
        vec![
            e("c", "a", EdgeKind::IsSubgoalOf),
            e("c", "other", EdgeKind::Other("Blocks".into()))
        ]
    );
    assert!(s.subgraph("missing").await.is_err());
    db.cleanup().await;
}

async fn dependency_order_and_cycles(eng: Eng) {
    let Some(db) = fresh(eng).await else { return };
    let s = &db.store;
    for id in ["x", "y", "z", "w", "v"] {
        s.create_intent(NewIntent::new(id, id)).await.unwrap();
    }
    // x -> y -> z, x -> z, x -> w -> z, v unrelated
    s.add_edge("x", "y", EdgeKind::DependsOn).await.unwrap();
    s.add_edge("y", "z", EdgeKind::DependsOn).await.unwrap();
    s.add_edge("x", "z", EdgeKind::DependsOn).await.unwrap();
    s.add_edge("x", "w", EdgeKind::DependsOn).await.unwrap();
    s.add_edge("w", "z", EdgeKind::DependsOn).await.unwrap();
    s.add_edge("v", "x", EdgeKind::IsSubgoalOf).await.unwrap(); // other kinds ignored
    let order: Vec<String> = s
        .dependencies("x")
        .await
        .unwrap()
        .into_iter()
        .map(|i| i.id)
        .collect();
    assert_eq!(order, vec!["z", "w", "y"]);
    assert!(s.dependencies("z").await.unwrap().is_empty());
    // Close a cycle: z -> x.
    s.add_edge("z", "x", EdgeKind::DependsOn).await.unwrap();
    match s.dependencies("x").await {
        Err(StoreError::Cycle(c)) => {
            assert_eq!(c.first(), c.last(), "{c:?}");
            assert!(
                c.contains(&"x".to_string()) && c.contains(&"z".to_string()),
                "{c:?}"
            );
            let msg = StoreError::Cycle(c.clone()).to_string();
            assert!(msg.contains("x -> "), "{msg}");
        }
        other => panic!("expected a cycle, got {other:?}"),
    }
    assert!(matches!(
        s.dependencies("nope").await,
        Err(StoreError::NotFound { .. })
    ));
    db.cleanup().await;
}
