//! The embedding cache.

use crate::common::{Eng, fresh};

crate::engine_tests!(embedding_cache);

async fn embedding_cache(eng: Eng) {
    let Some(db) = fresh(eng).await else { return };
    let s = &db.store;
    let a = vec![0.25f32, -1.5, 3.0e-7];
    let b = vec![1.0f32, 0.0, -0.0];
    s.put_embeddings("m@1", &[("ha".into(), a.clone()), ("hb".into(), b.clone())])
        .await
        .unwrap();
    // A second put of a cached hash keeps the first vector.
    s.put_embeddings("m@1", &[("ha".into(), vec![9.0, 9.0, 9.0])])
        .await
        .unwrap();
    s.put_embeddings("m@2", &[("ha".into(), vec![7.0])])
        .await
        .unwrap();
    let got = s
        .get_embeddings("m@1", &["hb".into(), "ha".into(), "hz".into(), "ha".into()])
        .await
        .unwrap();
    assert_eq!(got.len(), 2);
    assert_eq!(got["ha"], a);
    assert_eq!(got["hb"], b);
    let other = s.get_embeddings("m@2", &["ha".into()]).await.unwrap();
    assert_eq!(other["ha"], vec![7.0]);
    assert!(s.get_embeddings("m@1", &[]).await.unwrap().is_empty());
    assert!(
        s.put_embeddings(" ", &[("x".into(), vec![])])
            .await
            .is_err()
    );

    // Many hashes at once (more than one IN chunk).
    let many: Vec<(String, Vec<f32>)> = (0..1200)
        .map(|i| (format!("h{i}"), vec![i as f32]))
        .collect();
    s.put_embeddings("m@3", &many).await.unwrap();
    let hashes: Vec<String> = many.iter().map(|(h, _)| h.clone()).collect();
    let got = s.get_embeddings("m@3", &hashes).await.unwrap();
    assert_eq!(got.len(), 1200);
    assert_eq!(got["h1199"], vec![1199.0]);
    assert!(s.schema_versions().await.unwrap().contains(&2));
    db.cleanup().await;
}
