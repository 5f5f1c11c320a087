use std::sync::Arc;

use serde_json::json;

use super::*;
use crate::marketplace::Marketplace;
use ccos_testkit::http::{LoopbackServer as Server, Reply};

fn tmdb() -> Option<Json> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/bench/restbench_tmdb/raw_tmdb_openapi.json");
    match std::fs::read_to_string(&p) {
        Ok(t) => Some(serde_json::from_str(&t).unwrap()),
        Err(_) => {
            eprintln!(
                "note: {} is absent; skipping the TMDB import test",
                p.display()
            );
            None
        }
    }
}

#[test]
fn escape_round_trips() {
    // Every name round-trips, names that look like escapes included.
    for s in [
        "GET /movie/{id}",
        "plain_name.v2-x",
        "café ☕",
        "_x41_",
        "a_x2F_b",
        "_x",
    ] {
        let e = crate::ids::encode_name(s, true);
        assert!(e.chars().all(crate::ids::is_id_char), "{e}");
        assert_eq!(crate::ids::decode_name(&e).as_deref(), Some(s), "{e}");
    }
    assert_eq!(crate::ids::encode_name("_x41_", true), "_x5F_x41_");
    // Ids are what a person would type.
    assert_eq!(readable("issues/list-for-repo"), "issues.list-for-repo");
    assert_eq!(readable("listPets"), "listPets");
    assert_eq!(readable("List all pets!"), "List.all.pets");
    assert_eq!(readable("a - b"), "a.b");
    assert_eq!(readable("///"), "");
    assert_eq!(sanitize_prefix("The Movie DB API!"), "the_movie_db_api");
    assert_eq!(sanitize_prefix("***"), "api");
    assert_eq!(
        fallback_name("get", "/movie/{movie_id}/keywords"),
        "get.movie.movie_id.keywords"
    );
}

#[test]
fn imports_tmdb() {
    let Some(doc) = tmdb() else { return };
    let caps = import(&doc, None, None).unwrap();
    let ops: usize = doc["paths"]
        .as_object()
        .unwrap()
        .values()
        .map(|item| METHODS.iter().filter(|m| item.get(**m).is_some()).count())
        .sum();
    assert_eq!(doc["paths"].as_object().unwrap().len(), 54);
    assert_eq!(caps.len(), ops);
    let ids: BTreeSet<&str> = caps.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids.len(), caps.len(), "ids are unique");
    for c in &caps {
        crate::ids::validate_id(&c.id).unwrap();
        assert!(c.id.len() <= MAX_IMPORTED_ID);
        assert!(c.id.starts_with("api."), "{}", c.id);
        assert_eq!(c.trust_tier, TrustTier::Community);
        assert!(!c.local);
        assert!(c.effects.contains(&Effect::Network));
        let ProviderSpec::OpenApi {
            base_url,
            locations,
            path,
            ..
        } = &c.provider
        else {
            panic!("provider")
        };
        assert_eq!(base_url, "https://api.themoviedb.org/3");
        for k in c.property_names() {
            assert!(locations.contains_key(&k), "{} {k}", c.id);
        }
        // Every path template variable is a required input.
        for seg in path.split('/').filter(|s| s.starts_with('{')) {
            let name = seg.trim_matches(|c| c == '{' || c == '}');
            assert!(
                c.required_keys().iter().any(|k| k == name),
                "{} {name}",
                c.id
            );
        }
    }
    let kw = caps
        .iter()
        .find(|c| c.id == "api.GET_movie-movie_id-keywords")
        .unwrap();
    assert_eq!(kw.name, "GET_movie-movie_id-keywords");
    assert_eq!(kw.required_keys(), ["movie_id"]);
    assert!(kw.output_schema.is_some());
    // Searchable once registered.
    let mp = Marketplace::new().unwrap();
    mp.replace_all(caps).unwrap();
    let hits = mp.search("movie keywords", 3).unwrap();
    assert_eq!(hits[0].0, "api.GET_movie-movie_id-keywords", "{hits:?}");
}

fn small_doc(base: &str) -> Json {
    json!({
        "openapi": "3.0.3",
        "info": {"title": "Pet Store", "version": "2"},
        "servers": [{"url": base}],
        "components": {
            "parameters": {"Limit": {"name": "limit", "in": "query", "schema": {"type": "integer"}}},
            "schemas": {"Pet": {"type": "object", "properties": {"name": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}}}, "required": ["name"]}}
        },
        "paths": {
            "/pets": {
                "get": {"operationId": "listPets", "summary": "List pets",
                        "parameters": [{"$ref": "#/components/parameters/Limit"},
                                       {"name": "X-Trace", "in": "header", "schema": {"type": "string"}}],
                        "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}}}}}}},
                "post": {"operationId": "createPet",
                         "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
                         "responses": {"201": {"description": "created"}}}
            },
            "/pets/{pet id}": {
                "parameters": [{"name": "pet id", "in": "path", "required": true, "schema": {"type": "string"}}],
                "get": {"summary": "Get a pet", "responses": {"200": {"description": "ok"}}},
                "put": {"operationId": "a very long operation id that goes on and on well past the sixty-four character limit",
                        "requestBody": {"content": {"application/json": {"schema": {"type": "array"}}}},
                        "responses": {"200": {"description": "ok"}}}
            }
        }
    })
}

#[test]
fn imports_parameters_bodies_and_ids() {
    let caps = import(&small_doc("http://127.0.0.1:9"), None, Some("pets")).unwrap();
    let by = |id: &str| {
        caps.iter().find(|c| c.id == id).unwrap_or_else(|| {
            panic!(
                "{id} in {:?}",
                caps.iter().map(|c| &c.id).collect::<Vec<_>>()
            )
        })
    };
    let list = by("pets.listPets");
    assert_eq!(list.property_names(), ["limit", "X-Trace"]);
    assert_eq!(
        list.effects,
        BTreeSet::from([Effect::Network, Effect::Read])
    );
    assert_eq!(
        list.output_schema.as_ref().unwrap()["items"]["properties"]["name"]["type"],
        "string"
    );
    let create = by("pets.createPet");
    assert_eq!(create.required_keys(), ["name"]);
    assert_eq!(
        create.effects,
        BTreeSet::from([Effect::Network, Effect::Write])
    );
    let get = by("pets.get.pets.pet.id");
    assert_eq!(get.name, "GET /pets/{pet id}");
    let long = caps
        .iter()
        .find(|c| c.name.starts_with("a very long"))
        .unwrap();
    assert!(long.id.len() <= MAX_IMPORTED_ID, "{}", long.id);
    assert!(!long.id.contains(".-"), "{}", long.id);
    let ProviderSpec::OpenApi { locations, .. } = &long.provider else {
        panic!()
    };
    assert_eq!(locations["body"], "body_whole");
    assert_eq!(
        import(&small_doc("x"), None, None).unwrap()[0]
            .id
            .split('.')
            .next(),
        Some("pet_store")
    );
    assert!(matches!(
        import(&json!({"swagger": "2.0"}), None, None),
        Err(ImportError::Unsupported(_))
    ));
    assert!(matches!(
        import(&json!({"openapi": "3.0.0", "paths": {}}), None, None),
        Err(ImportError::NoBaseUrl)
    ));
}

#[tokio::test]
async fn calls_a_real_server() {
    let server = Server::start(|req| match (req.method.as_str(), req.target().as_str()) {
        ("GET", t) if t.starts_with("/v1/pets?") => {
            Reply::typed(200, "application/json", r#"[{"name":"Rex"}]"#)
        }
        ("POST", "/v1/pets") => Reply::typed(201, "application/json", req.text()),
        ("GET", "/v1/pets/a%20b%2Fc") => Reply::typed(200, "text/plain", "found"),
        ("GET", "/v1/pets/err") => Reply::typed(500, "text/plain", "kaput: database down"),
        _ => Reply::typed(404, "text/plain", "nope"),
    });
    let mp = Marketplace::new().unwrap();
    mp.replace_all(import(&small_doc(&server.url("/v1")), None, Some("pets")).unwrap())
        .unwrap();
    mp.register_executor(Arc::new(
        OpenApiExecutor::new()
            .with_timeout(Duration::from_secs(5))
            .with_allow_list(crate::http::AllowList::new(&["127.0.0.1"])),
    ));
    let args = |s: &str| vec![rtfs::eval_str(s).unwrap()];

    let v = mp
        .call("pets.listPets", args(r#"{:limit 2 :X-Trace "t1"}"#))
        .await
        .unwrap();
    assert_eq!(v.to_string(), r#"[{:name "Rex"}]"#);
    let seen = server.last();
    assert_eq!(seen.target(), "/v1/pets?limit=2");
    assert_eq!(seen.header("x-trace"), Some("t1"));

    let v = mp
        .call("pets.createPet", args(r#"{:name "Rex" :tags ["a"]}"#))
        .await
        .unwrap();
    assert_eq!(v.to_string(), r#"{:name "Rex" :tags ["a"]}"#);
    assert_eq!(
        server.last().header("content-type"),
        Some("application/json")
    );

    let v = mp
        .call("pets.get.pets.pet.id", args(r#"{"pet id" "a b/c"}"#))
        .await
        .unwrap();
    assert_eq!(v.to_string(), "\"found\"");

    let e = mp
        .call("pets.get.pets.pet.id", args(r#"{"pet id" "err"}"#))
        .await
        .unwrap_err();
    assert!(matches!(e, CallError::Failed { .. }));
    assert!(
        e.to_string().contains("HTTP 500") && e.to_string().contains("database down"),
        "{e}"
    );

    let e = mp
        .call("pets.createPet", args("{:tags []}"))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("missing required :name"), "{e}");
    let e = mp
        .call("pets.listPets", args("{:bogus 1}"))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("unknown argument :bogus"), "{e}");
}

/// `$ref`s that fan out (each level's eight properties all pointing at the
/// next level) expand exponentially; the import stays bounded.
#[test]
fn fanning_refs_expand_within_a_budget() {
    let levels = 12;
    let mut schemas = serde_json::Map::new();
    for i in 0..levels {
        let next = if i + 1 < levels {
            json!({"$ref": format!("#/components/schemas/L{}", i + 1)})
        } else {
            json!({"type": "string"})
        };
        let props: serde_json::Map<String, Json> = "abcdefgh"
            .chars()
            .map(|c| (c.to_string(), next.clone()))
            .collect();
        schemas.insert(
            format!("L{i}"),
            json!({"type": "object", "properties": props}),
        );
    }
    let paths: serde_json::Map<String, Json> = (0..40)
        .map(|i| {
            (
                format!("/boom{i}"),
                json!({"post": {"operationId": format!("boom{i}"),
                    "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/L0"}}}},
                    "responses": {"200": {"description": "ok"}}}}),
            )
        })
        .collect();
    let doc = json!({
        "openapi": "3.0.0",
        "info": {"title": "boom", "version": "1"},
        "servers": [{"url": "http://127.0.0.1:9"}],
        "components": {"schemas": schemas},
        "paths": paths
    });
    let caps = import(&doc, None, None).unwrap();
    assert_eq!(caps.len(), 40);
    let size: usize = caps
        .iter()
        .map(|c| serde_json::to_string(&c.input_schema).unwrap().len())
        .sum();
    // 40 operations × at most MAX_SCHEMA_NODES values each, and the whole
    // document at most MAX_DOCUMENT_NODES values: a few MB, not gigabytes.
    assert!(size < 40 * 1024 * 1024, "{size} bytes of schemas");
}

/// An operation-level parameter replaces the path-level one of the same
/// name and location (its schema and whether it is required); thousands
/// of parameters import (the override lookup is linear: 8,000 took 8 s
/// when each override scanned the whole list).
#[test]
fn operation_parameters_override_path_parameters() {
    let many: Vec<Json> = (0..1000)
        .map(|i| json!({"name": format!("p{i}"), "in": "query", "schema": {"type": "string"}}))
        .collect();
    let mut op_params = many.clone();
    op_params.push(
        json!({"name": "p7", "in": "query", "required": true, "schema": {"type": "integer"}}),
    );
    op_params.push(json!({"name": "p7", "in": "header", "schema": {"type": "boolean"}}));
    let doc = json!({
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "servers": [{"url": "http://127.0.0.1:9"}],
        "paths": {"/x": {
            "parameters": many,
            "get": {"operationId": "many", "parameters": op_params,
                    "responses": {"200": {"description": "ok"}}}
        }}
    });
    let caps = import(&doc, None, None).unwrap();
    let props = caps[0].input_schema["properties"].as_object().unwrap();
    // 1,000 query parameters and the header p7 under its own name.
    assert_eq!(props.len(), 1001);
    assert_eq!(props["p7"]["type"], "integer", "{}", props["p7"]);
    assert_eq!(props["p7_header"]["type"], "boolean");
    assert_eq!(caps[0].required_keys(), vec!["p7".to_string()]);

    // Past the bound, the import fails naming the operation.
    let too_many: Vec<Json> = (0..=MAX_PARAMETERS)
        .map(|i| json!({"name": format!("p{i}"), "in": "query"}))
        .collect();
    let doc = json!({
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {"/x": {"get": {"operationId": "many", "parameters": too_many,
                    "responses": {"200": {"description": "ok"}}}}}
    });
    let e = import(&doc, Some("http://127.0.0.1:9"), None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("at most 2000") && e.contains("/x"), "{e}");
}

/// A parameter that cannot be read says why: a reference that does not
/// resolve (missing, external, cyclic) or a name that is not a string.
#[test]
fn unreadable_parameters_say_why() {
    let doc = |params: Json| {
        json!({
            "openapi": "3.0.3",
            "info": {"title": "t", "version": "1"},
            "paths": {"/x": {"get": {"parameters": params, "responses": {}}}},
            "components": {"parameters": {"P": {"$ref": "#/components/parameters/P"}}}
        })
    };
    for (params, says) in [
        (
            json!([{"$ref": "#/nope/x"}]),
            "\"#/nope/x\" does not resolve",
        ),
        (
            json!([{"$ref": "http://evil.example.com/x.json"}]),
            "does not resolve",
        ),
        (
            json!([{"$ref": "#/components/parameters/P"}]),
            "does not resolve",
        ),
        (
            json!([{"name": 5, "in": "query"}]),
            "name is not a string: 5",
        ),
    ] {
        let e = import(&doc(params.clone()), Some("http://127.0.0.1:9"), None)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(says) && e.contains("paths./x.get"),
            "{params}: {e}"
        );
    }
}
