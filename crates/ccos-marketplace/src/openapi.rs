//! OpenAPI 3 import and execution.
//!
//! [`import`] turns every operation of an OpenAPI 3 document into a
//! [`CapabilityManifest`] with provider [`ProviderSpec::OpenApi`];
//! [`OpenApiExecutor`] performs the HTTP request when such a capability is
//! called.
//!
//! # Ids
//!
//! `PREFIX.NAME`, where PREFIX is `--prefix` or the document title, and NAME
//! is the operationId, else `method.path-segments` (`get.movie.movie_id`).
//! Characters outside `[A-Za-z0-9_.-]` are escaped as `_xHH_` (one per UTF-8
//! byte), so the name can be decoded back. Ids longer than 64 characters are
//! cut and suffixed with `-` and 8 hex digits of a SHA-256 of the full id,
//! and colliding ids get the same suffix. Nothing is lost: the manifest's
//! `name` keeps the original operationId (or `METHOD /path`), and the
//! provider spec keeps method, path and base URL.
//!
//! # Inputs
//!
//! The input schema is one object: path, query and header parameters (with
//! `$ref`s into `components` resolved), plus the JSON request body. An
//! object body whose property names do not clash with the parameters is
//! merged (each property's location `body`); any other body is one property
//! `body` with location `body_whole`. A location may carry the wire name
//! after a colon (`query:id`) when the property had to be renamed because
//! two parameters of different locations share a name.
//!
//! Resolving `$ref`s is bounded: at most [`MAX_SCHEMA_NODES`] JSON values
//! per operation and [`MAX_DOCUMENT_NODES`] per document; past them a
//! reference resolves to `{}` (any value), so references that fan out
//! cannot expand a few kilobytes into gigabytes.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::Duration;

use serde_json::{Value as Json, json};
use sha2::{Digest, Sha256};

use crate::executor::{BoxFuture, CallError, CapabilityExecutor};
use crate::manifest::{CapabilityManifest, Effect, ProviderSpec, TrustTier};

/// Longest id produced by the import.
pub const MAX_IMPORTED_ID: usize = 64;
const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];
const MAX_DESCRIPTION: usize = 2000;

/// Why a document could not be imported.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ImportError {
    /// Not an OpenAPI 3 document.
    #[error("not an OpenAPI 3 document: {0}")]
    Unsupported(String),
    /// No base URL given and none in `servers`.
    #[error("the document has no servers; pass --base-url")]
    NoBaseUrl,
    /// The id prefix (given, or from the document's title) is the
    /// built-ins' own.
    #[error("the id prefix {0:?} is reserved for the built-ins; pass --prefix NAME")]
    ReservedPrefix(String),
    /// A structural problem at a given place in the document.
    #[error("{at}: {message}")]
    Invalid {
        /// Where (`paths./movie/{id}.get`).
        at: String,
        /// What is wrong.
        message: String,
    },
}

/// Imports every operation of `doc` (see the module docs). The result is
/// sorted by id.
pub fn import(
    doc: &Json,
    base_url: Option<&str>,
    prefix: Option<&str>,
) -> Result<Vec<CapabilityManifest>, ImportError> {
    match doc.get("openapi").and_then(Json::as_str) {
        Some(v) if v.starts_with('3') => {}
        Some(v) => return Err(ImportError::Unsupported(format!("version {v}"))),
        None => {
            let what = if doc.get("swagger").is_some() {
                "Swagger 2 documents are not supported; convert to OpenAPI 3".to_string()
            } else {
                "missing \"openapi\" version field".to_string()
            };
            return Err(ImportError::Unsupported(what));
        }
    }
    let base = match base_url {
        Some(b) => b.to_string(),
        None => server_url(doc).ok_or(ImportError::NoBaseUrl)?,
    };
    let title = doc
        .pointer("/info/title")
        .and_then(Json::as_str)
        .unwrap_or("api");
    let prefix = sanitize_prefix(prefix.unwrap_or(title));
    if prefix == "ccos" || prefix.starts_with("ccos.") {
        return Err(ImportError::ReservedPrefix(prefix));
    }
    let paths = doc
        .get("paths")
        .and_then(Json::as_object)
        .ok_or_else(|| ImportError::Invalid {
            at: "paths".into(),
            message: "missing or not an object".into(),
        })?;
    let mut out: Vec<CapabilityManifest> = Vec::new();
    let mut used: BTreeSet<String> = BTreeSet::new();
    let mut document_budget = MAX_DOCUMENT_NODES;
    for (path, item) in paths {
        let item = resolve(doc, item, 0);
        for method in METHODS {
            let Some(op) = item.get(method) else { continue };
            let at = format!("paths.{path}.{method}");
            // Each operation's schemas hold at most MAX_SCHEMA_NODES
            // values, and the whole document's at most MAX_DOCUMENT_NODES.
            let mut budget = MAX_SCHEMA_NODES.min(document_budget);
            let granted = budget;
            let m = operation(
                doc,
                &base,
                &prefix,
                path,
                method,
                &item,
                op,
                &at,
                &mut budget,
            )?;
            document_budget -= granted - budget;
            let mut id = m.id.clone();
            if used.contains(&id) {
                let h = short_hash(&format!("{method} {path}"));
                let keep = MAX_IMPORTED_ID - 9;
                id = format!("{}-{h}", truncate_chars(&id, keep));
            }
            used.insert(id.clone());
            out.push(CapabilityManifest { id, ..m });
        }
    }
    out.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(out)
}

/// The first server URL with its variables replaced by their defaults.
fn server_url(doc: &Json) -> Option<String> {
    let server = doc.get("servers")?.as_array()?.first()?;
    let mut url = server.get("url")?.as_str()?.to_string();
    if let Some(vars) = server.get("variables").and_then(Json::as_object) {
        for (k, v) in vars {
            if let Some(d) = v.get("default").and_then(Json::as_str) {
                url = url.replace(&format!("{{{k}}}"), d);
            }
        }
    }
    Some(url)
}

#[allow(clippy::too_many_arguments)]
fn operation(
    doc: &Json,
    base: &str,
    prefix: &str,
    path: &str,
    method: &str,
    item: &Json,
    op: &Json,
    at: &str,
    budget: &mut usize,
) -> Result<CapabilityManifest, ImportError> {
    let op = resolve(doc, op, 0);
    let original = op
        .get("operationId")
        .and_then(Json::as_str)
        .map(str::to_string);
    let local_name = match original.as_deref().map(readable).filter(|n| !n.is_empty()) {
        Some(o) => o,
        None => fallback_name(method, path),
    };
    let id = cap_id(prefix, &local_name);

    // Parameters: path-level, overridden by operation-level (same name+in):
    // the later one replaces the earlier and goes last. A map of keys to
    // slots keeps this linear in the number of parameters.
    let mut slots: Vec<Option<Json>> = Vec::new();
    let mut slot_of: HashMap<(String, String), usize> = HashMap::new();
    for list in [item.get("parameters"), op.get("parameters")]
        .into_iter()
        .flatten()
    {
        let arr = list.as_array().ok_or_else(|| ImportError::Invalid {
            at: at.into(),
            message: "parameters is not an array".into(),
        })?;
        for original in arr {
            let p = resolve(doc, original, 0);
            if let Some(r) = original.get("$ref")
                && p.get("name").is_none()
            {
                return Err(ImportError::Invalid {
                    at: at.into(),
                    message: format!(
                        "a parameter's $ref {r} does not resolve to a parameter (only local references, \"#/...\", without cycles)"
                    ),
                });
            }
            let part = |k: &str| p.get(k).map(Json::to_string).unwrap_or_default();
            let key = (part("name"), part("in"));
            if let Some(old) = slot_of.insert(key, slots.len()) {
                slots[old] = None;
            }
            slots.push(Some(p));
            if slot_of.len() > MAX_PARAMETERS {
                return Err(ImportError::Invalid {
                    at: at.into(),
                    message: format!(
                        "more than {MAX_PARAMETERS} parameters; an operation may have at most {MAX_PARAMETERS}"
                    ),
                });
            }
        }
    }
    let params: Vec<Json> = slots.into_iter().flatten().collect();
    let mut props = serde_json::Map::new();
    let mut required: Vec<String> = Vec::new();
    let mut locations: BTreeMap<String, String> = BTreeMap::new();
    for p in &params {
        let name = p
            .get("name")
            .and_then(Json::as_str)
            .ok_or_else(|| ImportError::Invalid {
                at: at.into(),
                message: match p.get("name") {
                    Some(n) => format!("a parameter's name is not a string: {n}"),
                    None => "a parameter has no name".into(),
                },
            })?;
        let loc = p.get("in").and_then(Json::as_str).unwrap_or("query");
        if !matches!(loc, "path" | "query" | "header") {
            continue; // cookies are not supported
        }
        let mut schema = p
            .get("schema")
            .map(|s| resolve_deep(doc, s, 0, 8, budget))
            .unwrap_or_else(|| json!({}));
        if let (Some(d), Some(obj)) = (
            p.get("description").and_then(Json::as_str),
            schema.as_object_mut(),
        ) && !obj.contains_key("description")
        {
            obj.insert("description".into(), Json::from(d));
        }
        let mut prop = name.to_string();
        let mut location = loc.to_string();
        if props.contains_key(&prop) {
            prop = format!("{name}_{loc}");
            location = format!("{loc}:{name}");
        }
        if loc == "path" || p.get("required").and_then(Json::as_bool) == Some(true) {
            required.push(prop.clone());
        }
        props.insert(prop.clone(), schema);
        locations.insert(prop, location);
    }

    // JSON request body.
    if let Some(rb) = op.get("requestBody") {
        let rb = resolve(doc, rb, 0);
        let content = rb.get("content").and_then(Json::as_object);
        let schema = content.and_then(|c| {
            c.iter()
                .find(|(k, _)| k.starts_with("application/json") || k.contains("+json"))
                .and_then(|(_, v)| v.get("schema"))
        });
        if let Some(schema) = schema {
            let schema = resolve_deep(doc, schema, 0, 8, budget);
            let body_required = rb.get("required").and_then(Json::as_bool) == Some(true);
            let body_props = schema.get("properties").and_then(Json::as_object);
            let mergeable = body_props
                .is_some_and(|bp| bp.keys().all(|k| !props.contains_key(k)) && !bp.is_empty());
            if let (true, Some(bp)) = (mergeable, body_props) {
                let body_req: BTreeSet<&str> = schema
                    .get("required")
                    .and_then(Json::as_array)
                    .map(|a| a.iter().filter_map(Json::as_str).collect())
                    .unwrap_or_default();
                for (k, v) in bp {
                    props.insert(k.clone(), v.clone());
                    locations.insert(k.clone(), "body".into());
                    if body_req.contains(k.as_str()) {
                        required.push(k.clone());
                    }
                }
            } else {
                let mut name = "body".to_string();
                while props.contains_key(&name) {
                    name.insert_str(0, "request_");
                }
                props.insert(name.clone(), schema);
                locations.insert(name.clone(), "body_whole".into());
                if body_required {
                    required.push(name);
                }
            }
        }
    }

    let summary = op
        .get("summary")
        .and_then(Json::as_str)
        .unwrap_or("")
        .trim();
    let details = op
        .get("description")
        .and_then(Json::as_str)
        .unwrap_or("")
        .trim();
    let mut description = match (summary.is_empty(), details.is_empty()) {
        (false, false) => format!("{summary}. {details}"),
        (false, true) => summary.to_string(),
        (true, false) => details.to_string(),
        (true, true) => format!("{} {path}", method.to_uppercase()),
    };
    description = truncate_chars(&description, MAX_DESCRIPTION);

    let output_schema = op
        .get("responses")
        .and_then(Json::as_object)
        .and_then(|r| {
            let mut codes: Vec<&String> = r.keys().filter(|c| c.starts_with('2')).collect();
            codes.sort();
            codes.first().and_then(|c| r.get(*c))
        })
        .map(|resp| resolve(doc, resp, 0))
        .and_then(|resp| {
            resp.get("content").and_then(Json::as_object).and_then(|c| {
                c.iter()
                    .find(|(k, _)| k.contains("json"))
                    .and_then(|(_, v)| v.get("schema"))
                    .map(|s| resolve_deep(doc, s, 0, 3, budget))
            })
        });

    let effects = match method {
        "get" | "head" | "options" => BTreeSet::from([Effect::Network, Effect::Read]),
        _ => BTreeSet::from([Effect::Network, Effect::Write]),
    };
    // An example call, when every required name is a keyword token (a
    // name from the document never goes into RTFS text otherwise).
    let example = {
        let args: Vec<String> = required
            .iter()
            .filter(|k| rtfs::syntax::is_valid_keyword_name(k))
            .map(|k| {
                let ty = props
                    .get(k)
                    .and_then(|s| s.get("type"))
                    .and_then(Json::as_str);
                let v = match ty {
                    Some("integer") | Some("number") => "1",
                    Some("boolean") => "true",
                    _ => "\"...\"",
                };
                format!(":{k} {v}")
            })
            .collect();
        (args.len() == required.len()).then(|| format!("(call :{id} {{{}}})", args.join(" ")))
    };
    Ok(CapabilityManifest {
        id,
        name: original.unwrap_or_else(|| format!("{} {path}", method.to_uppercase())),
        description,
        version: doc
            .pointer("/info/version")
            .and_then(Json::as_str)
            .unwrap_or("0.1.0")
            .to_string(),
        input_schema: json!({"type": "object", "properties": props, "required": required}),
        output_schema,
        provider: ProviderSpec::OpenApi {
            base_url: base.to_string(),
            method: method.to_uppercase(),
            path: path.to_string(),
            locations,
        },
        trust_tier: TrustTier::Community,
        local: false,
        effects,
        examples: example.into_iter().collect(),
    })
}

/// Follows a top-level `$ref` chain (`#/components/...`); cycles and
/// dangling refs give `{}`.
fn resolve(doc: &Json, v: &Json, depth: usize) -> Json {
    match v.get("$ref").and_then(Json::as_str) {
        Some(r) if depth < 16 => match r.strip_prefix('#').and_then(|p| doc.pointer(p)) {
            Some(target) => resolve(doc, target, depth + 1),
            None => json!({"description": format!("unresolved $ref {r}")}),
        },
        Some(_) => json!({}),
        None => v.clone(),
    }
}

/// Most JSON values the resolved schemas of one operation may hold:
/// `$ref`s that fan out (each level's properties all pointing at the next
/// level) grow a schema exponentially with the depth, so a 3 KB document
/// could expand to gigabytes. Past the budget, references resolve to `{}`
/// (any value: the call's arguments are then checked by the API only).
pub const MAX_SCHEMA_NODES: usize = 5_000;

/// Most parameters (path and operation level together) one operation may
/// declare: far above any real API's, and an import fails naming the
/// operation past it (200,000 parameters in a 16 MB document took 1.4 GB).
pub const MAX_PARAMETERS: usize = 2_000;

/// Most JSON values the resolved schemas of a whole document may hold
/// (bounds the catalog an import writes); past it, as above.
pub const MAX_DOCUMENT_NODES: usize = 500_000;

/// Resolves `$ref`s everywhere inside `v`, following at most `max` nested
/// references on any branch (deeper ones become `{}`; this bounds cycles)
/// and producing at most `budget` values (taken from it).
fn resolve_deep(doc: &Json, v: &Json, depth: usize, max: usize, budget: &mut usize) -> Json {
    resolve_within(doc, v, depth, max, budget)
}

fn resolve_within(doc: &Json, v: &Json, depth: usize, max: usize, budget: &mut usize) -> Json {
    if *budget == 0 {
        return json!({});
    }
    *budget -= 1;
    match v {
        Json::Object(o) => {
            if let Some(r) = o.get("$ref").and_then(Json::as_str) {
                if depth >= max {
                    return json!({});
                }
                return match r.strip_prefix('#').and_then(|p| doc.pointer(p)) {
                    Some(t) => resolve_within(doc, t, depth + 1, max, budget),
                    None => json!({"description": format!("unresolved $ref {r}")}),
                };
            }
            Json::Object(
                o.iter()
                    .filter(|(k, _)| k.as_str() != "example" && k.as_str() != "examples")
                    .map(|(k, v)| (k.clone(), resolve_within(doc, v, depth, max, budget)))
                    .collect(),
            )
        }
        Json::Array(a) => Json::Array(
            a.iter()
                .map(|x| resolve_within(doc, x, depth, max, budget))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// A name as a person would type it in an id: runs of `/`, `.`, `:` and
/// whitespace become one `.`, other characters outside `[A-Za-z0-9_-]`
/// one `-` (`issues/list-for-repo` → `issues.list-for-repo`, `List all
/// pets` → `List.all.pets`, `getUser` unchanged).
pub fn readable(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        let mapped = if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
            c
        } else if c == '/' || c == '.' || c == ':' || c.is_whitespace() {
            '.'
        } else {
            '-'
        };
        let last = out.chars().last();
        if (mapped == '.' || mapped == '-') && matches!(last, None | Some('.') | Some('-')) {
            if mapped == '.' && last == Some('-') {
                out.pop();
                out.push('.');
            }
            continue;
        }
        out.push(mapped);
    }
    out.trim_end_matches(['.', '-']).to_string()
}

/// `get.movie.movie_id` for `GET /movie/{movie_id}`: the method and the
/// path's segments as words ([`readable`]).
fn fallback_name(method: &str, path: &str) -> String {
    let mut parts = vec![method.to_string()];
    for seg in path.split('/').filter(|s| !s.is_empty()) {
        let seg = readable(seg.trim_start_matches('{').trim_end_matches('}'));
        if !seg.is_empty() {
            parts.push(seg);
        }
    }
    parts.join(".")
}

/// A prefix from free text: lower case, runs of other characters → `_`.
pub fn sanitize_prefix(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    let out = out.trim_end_matches('_').to_string();
    if out.is_empty() {
        "api".into()
    } else {
        truncate_chars(&out, 24)
    }
}

fn cap_id(prefix: &str, local: &str) -> String {
    let full = format!("{prefix}.{local}");
    if full.len() <= MAX_IMPORTED_ID {
        full
    } else {
        let keep = MAX_IMPORTED_ID - 9;
        let cut = truncate_chars(&full, keep);
        format!("{}-{}", cut.trim_end_matches(['.', '-']), short_hash(&full))
    }
}

fn short_hash(s: &str) -> String {
    let digest = Sha256::digest(s.as_bytes());
    hex::encode(&digest[..4])
}

fn truncate_chars(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}

/// Runs OpenAPI capabilities: builds and sends the HTTP request described
/// by the provider spec and returns the parsed JSON (or text) body.
pub struct OpenApiExecutor {
    timeout: Duration,
    max_bytes: usize,
    headers: Vec<(String, String)>,
    query: Vec<(String, String)>,
    allow: crate::http::AllowList,
    credentials: std::collections::BTreeMap<String, Credentials>,
}

/// Credentials sent with the requests of one imported API (the
/// capabilities whose ids start with `PREFIX.`): headers such as
/// `Authorization: Bearer ...` or an API-key header, and query
/// parameters such as `api_key`. Values come from declared secrets, so
/// they are redacted from every record.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Credentials {
    /// Headers, `(name, value)`.
    pub headers: Vec<(String, String)>,
    /// Query parameters, `(name, value)`.
    pub query: Vec<(String, String)>,
}

impl Default for OpenApiExecutor {
    fn default() -> Self {
        OpenApiExecutor::new()
    }
}

impl OpenApiExecutor {
    /// An executor with the default timeout (30 s) and response cap (16 MiB).
    pub fn new() -> OpenApiExecutor {
        OpenApiExecutor {
            timeout: crate::http::DEFAULT_TIMEOUT,
            max_bytes: crate::http::MAX_RESPONSE_BYTES,
            headers: vec![],
            query: vec![],
            allow: crate::http::AllowList::default(),
            credentials: Default::default(),
        }
    }

    /// The hosts operations may reach (each redirect hop is checked too);
    /// the default is empty: every operation is denied until its API's host
    /// is allowed.
    pub fn with_allow_list(mut self, allow: crate::http::AllowList) -> Self {
        self.allow = allow;
        self
    }

    /// Credentials for the API imported with id prefix `prefix`.
    pub fn with_credentials(mut self, prefix: &str, credentials: Credentials) -> Self {
        self.credentials
            .insert(prefix.trim_end_matches('.').to_string(), credentials);
        self
    }

    /// The credentials of capability `id`: those of the longest prefix
    /// `P` with `id` starting `P.`.
    fn credentials_for(&self, id: &str) -> Option<&Credentials> {
        self.credentials
            .iter()
            .filter(|(p, _)| id.starts_with(&format!("{p}.")))
            .max_by_key(|(p, _)| p.len())
            .map(|(_, c)| c)
    }

    /// Sets the total timeout of one request.
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Adds a header sent with every request (e.g. `Authorization`).
    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Adds a query parameter sent with every request (e.g. an API key).
    pub fn with_query(mut self, name: &str, value: &str) -> Self {
        self.query.push((name.into(), value.into()));
        self
    }

    async fn run(
        &self,
        m: &CapabilityManifest,
        args: Vec<rtfs::Value>,
    ) -> Result<rtfs::Value, CallError> {
        let id = m.id.as_str();
        let ProviderSpec::OpenApi {
            base_url,
            method,
            path,
            locations,
        } = &m.provider
        else {
            return Err(CallError::NoExecutor {
                capability: id.into(),
                message: "not an OpenAPI capability".into(),
            });
        };
        let empty = rtfs::Map::new();
        let map = match args.as_slice() {
            [] => &empty,
            [rtfs::Value::Map(m)] => &**m,
            [rtfs::Value::Nil] => &empty,
            _ => return Err(CallError::invalid(id, "expects one map argument")),
        };
        for key in m.required_keys() {
            if crate::builtins::lookup(map, &key).is_none() {
                return Err(CallError::invalid(id, format!("missing required :{key}")));
            }
        }
        let mut path_out = path.clone();
        let mut query: Vec<(String, String)> = self.query.clone();
        let mut headers: Vec<(String, String)> = self.headers.clone();
        let credentials = self.credentials_for(id);
        if let Some(c) = credentials {
            query.extend(c.query.iter().cloned());
            headers.extend(c.headers.iter().cloned());
        }
        let mut body_fields = serde_json::Map::new();
        let mut whole_body: Option<Json> = None;
        for (k, v) in map.iter() {
            let key = match k {
                rtfs::Value::Keyword(s) | rtfs::Value::Str(s) => s.to_string(),
                other => {
                    return Err(CallError::invalid(
                        id,
                        format!("argument keys must be keywords, got {other}"),
                    ));
                }
            };
            let loc = locations.get(&key).ok_or_else(|| {
                let known: Vec<&str> = locations.keys().map(String::as_str).collect();
                CallError::invalid(
                    id,
                    format!(
                        "unknown argument :{key}; expected one of {}",
                        known.join(", ")
                    ),
                )
            })?;
            let (loc, wire) = loc.split_once(':').unwrap_or((loc.as_str(), key.as_str()));
            if matches!(v, rtfs::Value::Nil) && loc != "body" && loc != "body_whole" {
                continue;
            }
            let text = |v: &rtfs::Value| {
                crate::http::param_text(v)
                    .map_err(|e| CallError::invalid(id, format!(":{key}: {e}")))
            };
            match loc {
                "path" => {
                    let value = text(v)?;
                    // URLs resolve `.` and `..` segments, even encoded
                    // (`%2E%2E`): such a value would name another path.
                    if value == "." || value == ".." {
                        return Err(CallError::invalid(
                            id,
                            format!(
                                ":{key} is {value:?}, which a URL reads as a path step, not a value"
                            ),
                        ));
                    }
                    let seg = crate::http::encode_path_segment(&value);
                    path_out = path_out.replace(&format!("{{{wire}}}"), &seg);
                }
                "query" => match v.as_seq() {
                    Some(items) => {
                        for it in items {
                            query.push((wire.to_string(), text(it)?));
                        }
                    }
                    None => query.push((wire.to_string(), text(v)?)),
                },
                "header" => {
                    crate::http::check_header_name(wire).map_err(|e| CallError::invalid(id, e))?;
                    headers.push((wire.to_string(), text(v)?));
                }
                "body" => {
                    let j = rtfs::to_json(v).map_err(|e| CallError::invalid(id, e.message))?;
                    body_fields.insert(wire.to_string(), j);
                }
                "body_whole" => {
                    whole_body =
                        Some(rtfs::to_json(v).map_err(|e| CallError::invalid(id, e.message))?);
                }
                other => {
                    return Err(CallError::failed(
                        id,
                        format!("unknown parameter location {other}"),
                    ));
                }
            }
        }
        if let Some(start) = path_out.find('{') {
            let rest = &path_out[start..];
            let name = rest
                .split('}')
                .next()
                .unwrap_or(rest)
                .trim_start_matches('{');
            return Err(CallError::invalid(
                id,
                format!("missing path parameter :{name}"),
            ));
        }
        let url_text = format!("{}{}", base_url.trim_end_matches('/'), path_out);
        let mut url = reqwest::Url::parse(&url_text).map_err(|e| {
            CallError::unavailable(
                id,
                format!("bad URL {url_text:?} ({e}); import with --base-url"),
            )
        })?;
        self.allow
            .check(&url)
            .map_err(|why| CallError::denied(id, why))?;
        if !query.is_empty() {
            let mut qp = url.query_pairs_mut();
            for (k, v) in &query {
                qp.append_pair(k, v);
            }
        }
        let carries_credentials = credentials
            .is_some_and(|c| !c.headers.is_empty() || !c.query.is_empty())
            || !self.headers.is_empty();
        let client = if carries_credentials {
            crate::http::credentialed_client(self.timeout, &self.allow)
        } else {
            crate::http::client(self.timeout, &self.allow)
        }
        .map_err(|e| CallError::unavailable(id, e))?;
        let method = reqwest::Method::from_bytes(method.as_bytes())
            .map_err(|_| CallError::failed(id, format!("bad HTTP method {method}")))?;
        let mut req = client
            .request(method, url)
            .header(reqwest::header::ACCEPT, "application/json");
        for (k, v) in &headers {
            let name = reqwest::header::HeaderName::from_bytes(k.as_bytes())
                .map_err(|_| CallError::invalid(id, format!("invalid header name {k:?}")))?;
            let value = reqwest::header::HeaderValue::from_str(v)
                .map_err(|_| CallError::invalid(id, format!("invalid value for header {k:?}")))?;
            req = req.header(name, value);
        }
        let body = whole_body.or(if body_fields.is_empty() {
            None
        } else {
            Some(Json::Object(body_fields))
        });
        if let Some(b) = body {
            req = req
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(b.to_string());
        }
        let resp = crate::http::send(req, self.max_bytes)
            .await
            .map_err(|e| match e {
                crate::http::SendError::Denied(m) => CallError::denied(id, m),
                crate::http::SendError::Failed(m) => CallError::unavailable(id, m),
            })?;
        if !(200..300).contains(&resp.status) {
            return Err(CallError::failed(
                id,
                format!("HTTP {}: {}", resp.status, resp.excerpt(300)),
            ));
        }
        if resp.body.is_empty() {
            return Ok(rtfs::Value::Nil);
        }
        Ok(resp.body_value())
    }
}

impl CapabilityExecutor for OpenApiExecutor {
    fn provider(&self) -> &'static str {
        "openapi"
    }

    fn call<'a>(
        &'a self,
        manifest: &'a CapabilityManifest,
        args: Vec<rtfs::Value>,
    ) -> BoxFuture<'a, Result<rtfs::Value, CallError>> {
        Box::pin(self.run(manifest, args))
    }
}

#[cfg(test)]
mod tests;
