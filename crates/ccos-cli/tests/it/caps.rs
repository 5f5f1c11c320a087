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
