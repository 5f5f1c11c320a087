//! `ccos caps ...`: import the TMDB OpenAPI document, then list, search and
//! show it from fresh processes (the catalog persists in `$CCOS_HOME`).

use crate::support::ccos;
use std::path::{Path, PathBuf};

fn tmdb() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/bench/restbench_tmdb/raw_tmdb_openapi.json");
    if p.exists() {
        Some(p)
    } else {
        eprintln!("note: {} is absent; skipping", p.display());
        None
    }
}

fn ok(home: &Path, args: &[&str]) -> String {
    let out = ccos(home, args);
    assert!(
        out.status.success(),
        "ccos {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

#[test]
fn builtins_are_listed_and_searchable() {
    let home = tempfile::tempdir().unwrap();
    let list = ok(home.path(), &["caps", "list"]);
    assert!(list.contains("ccos.math.add"), "{list}");
    let hits: serde_json::Value = serde_json::from_str(&ok(
        home.path(),
        &["caps", "search", "count words", "-k", "3", "--json"],
    ))
    .unwrap();
    assert_eq!(hits[0]["id"], "ccos.text.count_words", "{hits}");
    let out = ccos(home.path(), &["caps", "show", "ccos.math.ad"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("did you mean ccos.math.add"));
}

#[test]
fn tmdb_import_persists_across_processes() {
    let Some(doc) = tmdb() else { return };
    let home = tempfile::tempdir().unwrap();
    let doc = doc.to_str().unwrap();
    let imported: serde_json::Value = serde_json::from_str(&ok(
        home.path(),
        &["caps", "import-openapi", doc, "--prefix", "tmdb", "--json"],
    ))
    .unwrap();
    let n = imported["imported"].as_u64().unwrap();
    assert!(n >= 54, "{imported}");
    assert!(home.path().join("catalog/capabilities.json").exists());

    // A second process sees everything.
    let list: serde_json::Value =
        serde_json::from_str(&ok(home.path(), &["caps", "list", "--json"])).unwrap();
    let ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids.iter().filter(|i| i.starts_with("tmdb.")).count() as u64,
        n
    );
    assert!(ids.contains(&"ccos.echo"));
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "sorted by id");

    let hits = ok(
        home.path(),
        &["caps", "search", "movie keywords", "-k", "3"],
    );
    assert!(
        hits.lines()
            .next()
            .unwrap()
            .contains("tmdb.GET_movie-movie_id-keywords"),
        "{hits}"
    );

    let show: serde_json::Value = serde_json::from_str(&ok(
        home.path(),
        &["caps", "show", "tmdb.GET_movie-movie_id-keywords", "--json"],
    ))
    .unwrap();
    assert_eq!(show["provider"]["kind"], "openapi");
    assert_eq!(show["provider"]["path"], "/movie/{movie_id}/keywords");
    let text = ok(
        home.path(),
        &["caps", "show", "tmdb.GET_movie-movie_id-keywords"],
    );
    assert!(
        text.contains("GET https://api.themoviedb.org/3/movie/{movie_id}/keywords"),
        "{text}"
    );

    // Importing again is an idempotent upsert.
    ok(
        home.path(),
        &["caps", "import-openapi", doc, "--prefix", "tmdb"],
    );
    let again: serde_json::Value =
        serde_json::from_str(&ok(home.path(), &["caps", "list", "--json"])).unwrap();
    assert_eq!(
        again.as_array().unwrap().len(),
        list.as_array().unwrap().len()
    );
}

#[test]
fn import_errors_are_clear() {
    let home = tempfile::tempdir().unwrap();
    let bad = home.path().join("bad.json");
    std::fs::write(&bad, "{ nope").unwrap();
    let out = ccos(
        home.path(),
        &["caps", "import-openapi", bad.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.json:1:") && err.contains("invalid JSON"),
        "{err}"
    );
    std::fs::create_dir_all(home.path().join("catalog")).unwrap();
    std::fs::write(home.path().join("catalog/capabilities.json"), "garbage").unwrap();
    let out = ccos(home.path(), &["caps", "list"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("corrupted catalog file") && err.contains("capabilities.json"),
        "{err}"
    );
}

/// An OpenAPI document of `n` distinct operations (`GET /items{i}/...`).
#[cfg(feature = "semantic")]
fn many_operations(n: usize) -> serde_json::Value {
    const NOUNS: [&str; 8] = [
        "invoice", "ticket", "channel", "forecast", "playlist", "shipment", "badge", "coupon",
    ];
    let mut paths = serde_json::Map::new();
    for i in 0..n {
        let noun = NOUNS[i % NOUNS.len()];
        paths.insert(
            format!("/{noun}s{i}/{{id}}"),
            serde_json::json!({"get": {
                "operationId": format!("get_{noun}_{i}"),
                "summary": format!("Get one {noun} of group {i} by its id"),
                "parameters": [{"name": "id", "in": "path", "required": true,
                                "schema": {"type": "string"}}],
                "responses": {"200": {"description": "ok"}}
            }}),
        );
    }
    serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "many", "version": "1"},
        "servers": [{"url": "http://127.0.0.1:9"}],
        "paths": paths
    })
}

/// A large import embeds its operations at import time, in chunks, with
/// progress on stderr; the first plan after it embeds nothing more, and
/// the built-ins still serve the goals they serve.
#[cfg(feature = "semantic")]
#[test]
fn import_embeds_ahead_of_the_first_plan() {
    let home = crate::support::home_with_model();
    let doc = home.path().join("many.json");
    std::fs::write(&doc, many_operations(300).to_string()).unwrap();
    let doc = doc.to_str().unwrap();
    let out = ccos(
        home.path(),
        &["caps", "import-openapi", doc, "--prefix", "many", "--json"],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["imported"], 300);
    assert_eq!(v["semantic"]["semantic"], "indexed", "{v}");
    let embedded = v["semantic"]["embedded"].as_u64().unwrap();
    assert!(embedded >= 300, "{v}");
    assert!(
        err.contains("embedding ") && err.contains(&format!("embedded {embedded} capabilities")),
        "{err}"
    );
    // The first plan: every vector comes from the cache.
    let out = ccos(home.path(), &["plan", "add 2 and 3", "--json"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("embedding "), "{err}");
    let plan = String::from_utf8_lossy(&out.stdout);
    assert!(plan.contains("ccos.math.add"), "{plan}");
    // Importing the same document again embeds nothing.
    let out = ccos(
        home.path(),
        &["caps", "import-openapi", doc, "--prefix", "many", "--json"],
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["semantic"]["embedded"], 0, "{v}");
}
