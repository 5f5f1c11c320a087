//! Argument validation: do the arguments of a `(call ...)` fit the
//! capability's input schema?
//!
//! Used twice: by preflight on the literal arguments of a plan before
//! anything runs (see [`check_partial_args`], which tolerates values only
//! known at run time), and by the orchestrator on the evaluated arguments of
//! each call ([`validate_args`]).
//!
//! The calling convention is the one of [`crate::manifest`]: an `object`
//! input schema takes exactly one map argument, an `array` schema (with
//! `prefixItems`) takes positional arguments validated as that array. RTFS
//! values are converted with [`rtfs::to_json`], so keyword keys become plain
//! strings (`{:path "x"}` → `{"path":"x"}`).
//!
//! Required keys, unknown keys, top-level types and arity are checked here so
//! the messages stay short and speak RTFS (`missing required key :path;
//! known keys: :path :encoding`); every other constraint (enums, ranges,
//! patterns, nested shapes) is checked with the `jsonschema` crate and
//! reported as [`ArgCode::Constraint`] (nested type, required and
//! additional-property failures keep their own codes).
//!
//! Unknown keys are errors when the schema says `additionalProperties:
//! false`, and warnings otherwise (a typo is the usual cause).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::manifest::CapabilityManifest;

/// How serious a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Suspicious but allowed (e.g. an unknown key in an open schema).
    Warning,
    /// The call cannot succeed as written.
    Error,
}

impl Severity {
    /// Lower-case name (`warning`, `error`).
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Machine-readable kind of an argument problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArgCode {
    /// A required key is absent.
    MissingKey,
    /// A key the schema does not declare.
    UnknownKey,
    /// A value of the wrong JSON type (or one with no JSON form).
    WrongType,
    /// Wrong number of arguments.
    Arity,
    /// A map was expected and something else was given.
    NotAMap,
    /// Any other schema constraint (enum, range, pattern, ...).
    Constraint,
    /// The capability's input schema itself is not valid JSON Schema.
    InvalidSchema,
}

impl ArgCode {
    /// The stable snake_case code (`missing_key`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            ArgCode::MissingKey => "missing_key",
            ArgCode::UnknownKey => "unknown_key",
            ArgCode::WrongType => "wrong_type",
            ArgCode::Arity => "arity",
            ArgCode::NotAMap => "not_a_map",
            ArgCode::Constraint => "constraint",
            ArgCode::InvalidSchema => "invalid_schema",
        }
    }
}

impl fmt::Display for ArgCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One thing wrong with a call's arguments.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArgProblem {
    /// What kind of problem.
    pub code: ArgCode,
    /// Error or warning.
    pub severity: Severity,
    /// JSON Pointer into the argument instance (`/path` for a map key,
    /// `/0` for the first positional argument, empty for the whole call).
    pub path: String,
    /// Compact human message in RTFS terms, e.g. `missing required key
    /// :path; known keys: :path :encoding`.
    pub message: String,
    /// How to repair it, e.g. `did you mean :path?`.
    pub hint: Option<String>,
}

impl ArgProblem {
    fn new(code: ArgCode, severity: Severity, path: impl Into<String>, msg: String) -> Self {
        ArgProblem {
            code,
            severity,
            path: path.into(),
            message: msg,
            hint: None,
        }
    }

    fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

impl fmt::Display for ArgProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]: {}", self.severity, self.code, self.message)
    }
}

/// One argument as far as it is known before running the plan.
#[derive(Debug, Clone)]
pub enum PartialArg {
    /// A literal: the value is fully known.
    Known(rtfs::Value),
    /// A map literal whose keys are known but some values are not (they
    /// come from `let` bindings or other calls): key → value when literal.
    Map {
        /// Literal keys (keyword keys without the colon) and their values
        /// when those are literals.
        entries: BTreeMap<String, Option<rtfs::Value>>,
        /// True when some keys are themselves computed, so the key set is
        /// incomplete (missing-key checks are then skipped).
        open: bool,
    },
    /// Computed at run time: nothing is known.
    Unknown,
}

/// Validates evaluated arguments against `manifest`'s input schema.
///
/// Returns `Err` with every problem found (warnings included) when at least
/// one problem is an error; warnings alone give `Ok(())` (use [`check_args`]
/// to see them).
pub fn validate_args(
    manifest: &CapabilityManifest,
    args: &[rtfs::Value],
) -> Result<(), Vec<ArgProblem>> {
    let problems = check_args(manifest, args);
    if has_errors(&problems) {
        Err(problems)
    } else {
        Ok(())
    }
}

/// Every problem (errors and warnings) of fully evaluated arguments.
pub fn check_args(manifest: &CapabilityManifest, args: &[rtfs::Value]) -> Vec<ArgProblem> {
    let partial: Vec<PartialArg> = args.iter().cloned().map(PartialArg::Known).collect();
    check_partial_args(manifest, &partial)
}

/// True when any problem is an error.
pub fn has_errors(problems: &[ArgProblem]) -> bool {
    problems.iter().any(|p| p.severity == Severity::Error)
}

/// Every problem visible in partially known arguments (preflight): only
/// what is known is checked (keys present, literal value types and
/// constraints); unknown values are assumed to fit.
pub fn check_partial_args(manifest: &CapabilityManifest, args: &[PartialArg]) -> Vec<ArgProblem> {
    let schema = &manifest.input_schema;
    let ty = schema.get("type").and_then(Json::as_str);
    if ty == Some("array") {
        check_positional(manifest, args)
    } else if ty == Some("object") || schema.get("properties").is_some() {
        check_map_call(manifest, args)
    } else {
        // No calling convention declared: constraints only, on a single
        // literal argument.
        match args {
            [PartialArg::Known(v)] => match rtfs::to_json(v) {
                Ok(j) => schema_problems(schema, &j, &Skip::default(), false),
                Err(e) => vec![no_json("", "argument", &e.message)],
            },
            _ => vec![],
        }
    }
}

/// The RTFS spelling of a map key: `:path`, or `"first name"` when it
/// cannot be a keyword.
pub fn key_display(key: &str) -> String {
    rtfs::json::json_key(key).to_string()
}

/// Levenshtein distance between two strings (in characters); used to
/// suggest the closest known key or capability id. The one implementation
/// is the language's own ([`rtfs::builtins::edit_distance`]).
pub use rtfs::builtins::edit_distance;

/// What the JSON Schema pass must not report again.
#[derive(Default)]
struct Skip {
    /// First path segments (keys or indices) already reported or unknown.
    first_segments: BTreeSet<String>,
}

fn check_map_call(manifest: &CapabilityManifest, args: &[PartialArg]) -> Vec<ArgProblem> {
    let usage = map_usage(manifest);
    match args {
        [] if manifest.required_keys().is_empty() => {
            check_map(manifest, &BTreeMap::new(), false, None)
        }
        [] => vec![
            ArgProblem::new(
                ArgCode::Arity,
                Severity::Error,
                "",
                format!(
                    "expects one map argument, got none; {}",
                    known_keys(manifest)
                ),
            )
            .hint(usage),
        ],
        [arg] => match arg {
            PartialArg::Unknown => vec![],
            PartialArg::Map { entries, open } => check_map(manifest, entries, *open, None),
            PartialArg::Known(whole @ rtfs::Value::Map(m)) => {
                let entries: BTreeMap<String, Option<rtfs::Value>> = m
                    .iter()
                    .map(|(k, v)| (key_string(k), Some(v.clone())))
                    .collect();
                check_map(manifest, &entries, false, Some(whole))
            }
            PartialArg::Known(other) => vec![
                ArgProblem::new(
                    ArgCode::NotAMap,
                    Severity::Error,
                    "",
                    format!("expects a map argument, got {}", describe(other)),
                )
                .hint(usage),
            ],
        },
        more => vec![
            ArgProblem::new(
                ArgCode::Arity,
                Severity::Error,
                "",
                format!("expects one map argument, got {} arguments", more.len()),
            )
            .hint(usage),
        ],
    }
}

/// Checks a map argument. `whole` is the complete value when every entry is
/// a literal, so the JSON Schema pass can see object-level constraints.
fn check_map(
    manifest: &CapabilityManifest,
    entries: &BTreeMap<String, Option<rtfs::Value>>,
    open: bool,
    whole: Option<&rtfs::Value>,
) -> Vec<ArgProblem> {
    let schema = &manifest.input_schema;
    let mut out = vec![];
    let mut skip = Skip::default();
    let props = manifest.property_names();
    let additional = schema.get("additionalProperties");
    let closed = additional == Some(&Json::Bool(false));
    let open_schema = matches!(additional, Some(Json::Object(_)))
        || schema.get("patternProperties").is_some()
        || props.is_empty();

    if !open {
        for req in manifest.required_keys() {
            if !entries.contains_key(&req) {
                let ty = manifest
                    .property_schema(&req)
                    .and_then(expected_type)
                    .map(|t| format!(" ({t})"))
                    .unwrap_or_default();
                out.push(
                    ArgProblem::new(
                        ArgCode::MissingKey,
                        Severity::Error,
                        pointer(&req),
                        format!(
                            "missing required key {}; {}",
                            key_display(&req),
                            known_keys(manifest)
                        ),
                    )
                    .hint(format!("add {}{ty}", key_display(&req))),
                );
            }
        }
    }

    for (key, value) in entries {
        if !props.contains(key) {
            if closed || !open_schema {
                let severity = if closed {
                    Severity::Error
                } else {
                    Severity::Warning
                };
                let hint = closest_key(key, &props)
                    .map(|c| format!("did you mean {}?", key_display(&c)))
                    .unwrap_or_else(|| format!("remove {}", key_display(key)));
                out.push(
                    ArgProblem::new(
                        ArgCode::UnknownKey,
                        severity,
                        pointer(key),
                        format!("unknown key {}; {}", key_display(key), known_keys(manifest)),
                    )
                    .hint(hint),
                );
                skip.first_segments.insert(key.clone());
            }
            continue;
        }
        let Some(value) = value else {
            skip.first_segments.insert(key.clone());
            continue;
        };
        let what = format!("key {}", key_display(key));
        if let Some(p) = type_problem(manifest.property_schema(key), value, &pointer(key), &what) {
            out.push(p);
            skip.first_segments.insert(key.clone());
        }
    }

    // JSON Schema pass: the whole map when fully known, otherwise the known
    // entries only, ignoring object-level (root) failures.
    let (instance, partial) = match whole {
        Some(v) => (rtfs::to_json(v).ok(), false),
        None => {
            let mut obj = serde_json::Map::new();
            for (k, v) in entries {
                if let Some(v) = v
                    && let Ok(j) = rtfs::to_json(v)
                {
                    obj.insert(k.clone(), j);
                }
            }
            (Some(Json::Object(obj)), true)
        }
    };
    if let Some(instance) = instance {
        out.extend(schema_problems(schema, &instance, &skip, partial || open));
    }
    out
}

fn check_positional(manifest: &CapabilityManifest, args: &[PartialArg]) -> Vec<ArgProblem> {
    let schema = &manifest.input_schema;
    let prefix: Vec<Json> = schema
        .get("prefixItems")
        .and_then(Json::as_array)
        .cloned()
        .unwrap_or_default();
    let min = schema
        .get("minItems")
        .and_then(Json::as_u64)
        .map(|n| n as usize)
        .unwrap_or(prefix.len());
    let max = match schema.get("maxItems").and_then(Json::as_u64) {
        Some(n) => Some(n as usize),
        None => match schema.get("items") {
            Some(Json::Bool(false)) | None => Some(prefix.len()),
            Some(_) => None,
        },
    };
    let mut out = vec![];
    let n = args.len();
    if n < min || max.is_some_and(|m| n > m) {
        let expected = match max {
            Some(m) if m == min => format!("{min}"),
            Some(m) => format!("{min} to {m}"),
            None => format!("at least {min}"),
        };
        out.push(
            ArgProblem::new(
                ArgCode::Arity,
                Severity::Error,
                "",
                format!(
                    "expects {expected} argument{} ({}), got {n}",
                    if expected == "1" { "" } else { "s" },
                    positional_types(&prefix)
                ),
            )
            .hint(positional_usage(manifest, &prefix)),
        );
    }
    let mut skip = Skip::default();
    let mut instance = Vec::with_capacity(n);
    let mut all_known = true;
    for (i, arg) in args.iter().enumerate() {
        match arg {
            PartialArg::Known(v) => {
                let what = format!("argument {}", i + 1);
                if let Some(p) = type_problem(prefix.get(i), v, &format!("/{i}"), &what) {
                    out.push(p);
                    skip.first_segments.insert(i.to_string());
                }
                instance.push(rtfs::to_json(v).unwrap_or(Json::Null));
            }
            PartialArg::Map { .. } | PartialArg::Unknown => {
                all_known = false;
                skip.first_segments.insert(i.to_string());
                instance.push(Json::Null);
            }
        }
    }
    out.extend(schema_problems(
        schema,
        &Json::Array(instance),
        &skip,
        !all_known,
    ));
    out
}

/// Runs the `jsonschema` validator and maps its failures to problems,
/// skipping what the RTFS-level checks already reported. With
/// `partial_root`, failures about the instance as a whole are dropped (the
/// instance is incomplete).
fn schema_problems(
    schema: &Json,
    instance: &Json,
    skip: &Skip,
    partial_root: bool,
) -> Vec<ArgProblem> {
    let validator = match jsonschema::validator_for(schema) {
        Ok(v) => v,
        Err(e) => {
            return vec![ArgProblem::new(
                ArgCode::InvalidSchema,
                Severity::Warning,
                "",
                format!("input schema is not valid JSON Schema: {e}"),
            )];
        }
    };
    let positional = instance.is_array();
    let mut out = vec![];
    let mut seen = BTreeSet::new();
    for err in validator.iter_errors(instance) {
        let path = err.instance_path().as_str().to_string();
        let segs: Vec<String> = path
            .split('/')
            .skip(1)
            .map(|s| s.replace("~1", "/").replace("~0", "~"))
            .collect();
        use jsonschema::error::ValidationErrorKind as K;
        let kind = err.kind();
        if segs.is_empty() {
            let own = matches!(
                kind,
                K::Required { .. }
                    | K::AdditionalProperties { .. }
                    | K::Type { .. }
                    | K::MinItems { .. }
                    | K::MaxItems { .. }
                    | K::AdditionalItems { .. }
                    | K::FalseSchema
            );
            if own || partial_root {
                continue;
            }
        } else if skip.first_segments.contains(&segs[0]) {
            continue;
        }
        // prefixItems beyond the declared arity fail with FalseSchema at
        // the item; arity already covers that.
        if positional && segs.len() == 1 && matches!(kind, K::FalseSchema) {
            continue;
        }
        let at = describe_path(&segs, positional);
        let (code, message) = match kind {
            K::Type { .. } => (ArgCode::WrongType, format!("{at}: {err}")),
            K::Required { property } => {
                let name = property.as_str().map(key_display).unwrap_or_default();
                (
                    ArgCode::MissingKey,
                    format!("{at}: missing required key {name}"),
                )
            }
            K::AdditionalProperties { unexpected } => {
                let names: Vec<String> = unexpected.iter().map(|k| key_display(k)).collect();
                (
                    ArgCode::UnknownKey,
                    format!("{at}: unknown key {}", names.join(" ")),
                )
            }
            _ => (ArgCode::Constraint, format!("{at}: {err}")),
        };
        if seen.insert((path.clone(), message.clone())) {
            out.push(ArgProblem::new(code, Severity::Error, path, message));
        }
    }
    out
}

/// `argument 2`, `key :opts`, `key :opts :depth [0]`, or `arguments` for the root.
fn describe_path(segs: &[String], positional: bool) -> String {
    let Some(first) = segs.first() else {
        return if positional {
            "arguments".into()
        } else {
            "argument".into()
        };
    };
    let mut s = match (positional, first.parse::<usize>()) {
        (true, Ok(i)) => format!("argument {}", i + 1),
        _ => format!("key {}", key_display(first)),
    };
    for seg in &segs[1..] {
        if seg.parse::<usize>().is_ok() {
            s.push_str(&format!(" [{seg}]"));
        } else {
            s.push(' ');
            s.push_str(&key_display(seg));
        }
    }
    s
}

/// The top-level type check of one value against a property (or prefix
/// item) schema, in RTFS terms.
fn type_problem(
    prop_schema: Option<&Json>,
    value: &rtfs::Value,
    path: &str,
    what: &str,
) -> Option<ArgProblem> {
    let json = match rtfs::to_json(value) {
        Ok(j) => j,
        Err(e) => return Some(no_json(path, what, &e.message)),
    };
    let types = declared_types(prop_schema?)?;
    if types.iter().any(|t| json_has_type(&json, t)) {
        return None;
    }
    let expected = types.join(" or ");
    Some(
        ArgProblem::new(
            ArgCode::WrongType,
            Severity::Error,
            path,
            format!("{what} expects {expected}, got {}", describe(value)),
        )
        .hint(format!("pass {} {expected}", article(&expected))),
    )
}

fn no_json(path: &str, what: &str, why: &str) -> ArgProblem {
    ArgProblem::new(
        ArgCode::WrongType,
        Severity::Error,
        path,
        format!("{what} has no JSON form: {why}"),
    )
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

fn declared_types(schema: &Json) -> Option<Vec<String>> {
    match schema.get("type")? {
        Json::String(s) => Some(vec![s.clone()]),
        Json::Array(a) => Some(
            a.iter()
                .filter_map(|t| t.as_str().map(str::to_string))
                .collect(),
        ),
        _ => None,
    }
}

fn expected_type(schema: &Json) -> Option<String> {
    declared_types(schema).map(|t| t.join(" or "))
}

/// Whether `j` is of JSON Schema type `ty` (`1.0` is an integer; an
/// unknown type name accepts anything).
pub fn json_has_type(j: &Json, ty: &str) -> bool {
    match ty {
        "null" => j.is_null(),
        "boolean" => j.is_boolean(),
        "string" => j.is_string(),
        "array" => j.is_array(),
        "object" => j.is_object(),
        "number" => j.is_number(),
        "integer" => {
            j.is_i64()
                || j.is_u64()
                || j.as_f64()
                    .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
        }
        _ => true,
    }
}

/// `string "10"`, `int 3`, `map {:a 1}` (long values shortened).
fn describe(v: &rtfs::Value) -> String {
    let mut printed = v.to_string();
    if printed.chars().count() > 40 {
        printed = printed.chars().take(37).collect::<String>() + "...";
    }
    format!("{} {printed}", v.type_name())
}

fn key_string(k: &rtfs::Value) -> String {
    match k {
        rtfs::Value::Str(s) | rtfs::Value::Keyword(s) | rtfs::Value::Symbol(s) => s.to_string(),
        other => other.to_string(),
    }
}

fn pointer(key: &str) -> String {
    format!("/{}", key.replace('~', "~0").replace('/', "~1"))
}

/// `known keys: :path :encoding` (required first, then schema order).
fn known_keys(manifest: &CapabilityManifest) -> String {
    let keys = manifest.expects_context_keys();
    if keys.is_empty() {
        "it takes no keys".into()
    } else {
        let shown: Vec<String> = keys.iter().map(|k| key_display(k)).collect();
        format!("known keys: {}", shown.join(" "))
    }
}

fn closest_key(key: &str, known: &[String]) -> Option<String> {
    known
        .iter()
        .map(|k| (edit_distance(key, k), k))
        .filter(|(d, k)| *d <= 2.max(k.chars().count() / 3))
        .min()
        .map(|(_, k)| k.clone())
}

fn map_usage(manifest: &CapabilityManifest) -> String {
    let required = manifest.required_keys();
    let parts: Vec<String> = required
        .iter()
        .map(|k| {
            let ty = manifest
                .property_schema(k)
                .and_then(expected_type)
                .unwrap_or_else(|| "value".into());
            format!("{} <{ty}>", key_display(k))
        })
        .collect();
    format!("call as (call :{} {{{}}})", manifest.id, parts.join(" "))
}

fn positional_types(prefix: &[Json]) -> String {
    prefix
        .iter()
        .map(|s| expected_type(s).unwrap_or_else(|| "any".into()))
        .collect::<Vec<_>>()
        .join(" ")
}

fn positional_usage(manifest: &CapabilityManifest, prefix: &[Json]) -> String {
    let parts: Vec<String> = prefix
        .iter()
        .map(|s| format!("<{}>", expected_type(s).unwrap_or_else(|| "any".into())))
        .collect();
    format!("call as (call :{} {})", manifest.id, parts.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::TrustTier;
    use serde_json::json;

    fn manifest(id: &str, schema: Json) -> CapabilityManifest {
        CapabilityManifest::new(id, "", schema)
            .with_tier(TrustTier::System)
            .local()
    }

    fn read_file() -> CapabilityManifest {
        manifest(
            "ccos.fs.read",
            json!({"type":"object","properties":{
                "path":{"type":"string"},
                "encoding":{"type":"string","enum":["utf8","base64"]},
                "count":{"type":"integer","maximum":100}},
              "required":["path"]}),
        )
    }

    fn add() -> CapabilityManifest {
        manifest(
            "ccos.math.add",
            json!({"type":"array","prefixItems":[{"type":"number"},{"type":"number"}],"minItems":2,"maxItems":2}),
        )
    }

    fn args(src: &str) -> Vec<rtfs::Value> {
        match rtfs::eval_str(&format!("'[{src}]")).unwrap() {
            rtfs::Value::Vector(v) => v.to_vec(),
            _ => unreachable!(),
        }
    }

    fn codes(p: &[ArgProblem]) -> Vec<&'static str> {
        p.iter().map(|p| p.code.as_str()).collect()
    }

    #[test]
    fn good_args_pass() {
        assert_eq!(validate_args(&read_file(), &args(r#"{:path "x"}"#)), Ok(()));
        assert_eq!(
            validate_args(&read_file(), &args(r#"{"path" "x" :encoding "utf8"}"#)),
            Ok(())
        );
        assert_eq!(validate_args(&add(), &args("2 3.5")), Ok(()));
    }

    #[test]
    fn missing_key_lists_known_keys() {
        let p = validate_args(&read_file(), &args("{:encoding \"utf8\"}")).unwrap_err();
        assert_eq!(codes(&p), ["missing_key"]);
        assert_eq!(
            p[0].message,
            "missing required key :path; known keys: :path :encoding :count"
        );
        assert_eq!(p[0].path, "/path");
        assert_eq!(p[0].hint.as_deref(), Some("add :path (string)"));
    }

    #[test]
    fn unknown_key_is_a_warning_in_open_schemas_and_an_error_in_closed_ones() {
        let p = check_args(&read_file(), &args(r#"{:path "x" :pth "y"}"#));
        assert_eq!(codes(&p), ["unknown_key"]);
        assert_eq!(p[0].severity, Severity::Warning);
        assert_eq!(p[0].hint.as_deref(), Some("did you mean :path?"));
        assert!(validate_args(&read_file(), &args(r#"{:path "x" :pth "y"}"#)).is_ok());

        let mut closed = read_file();
        closed.input_schema["additionalProperties"] = json!(false);
        let p = validate_args(&closed, &args(r#"{:path "x" :zzz 1}"#)).unwrap_err();
        assert_eq!(codes(&p), ["unknown_key"]);
        assert_eq!(p[0].severity, Severity::Error);
        assert_eq!(p[0].hint.as_deref(), Some("remove :zzz"));
    }

    #[test]
    fn wrong_type_speaks_rtfs() {
        let p = validate_args(&read_file(), &args(r#"{:path "x" :count "10"}"#)).unwrap_err();
        assert_eq!(codes(&p), ["wrong_type"]);
        assert_eq!(
            p[0].message,
            r#"key :count expects integer, got string "10""#
        );
        let p = validate_args(&add(), &args(r#"1 "2""#)).unwrap_err();
        assert_eq!(p[0].message, r#"argument 2 expects number, got string "2""#);
        assert_eq!(p[0].path, "/1");
    }

    #[test]
    fn arity_and_not_a_map() {
        let p = validate_args(&add(), &args("1 2 3")).unwrap_err();
        assert_eq!(codes(&p), ["arity"]);
        assert_eq!(p[0].message, "expects 2 arguments (number number), got 3");
        assert_eq!(
            p[0].hint.as_deref(),
            Some("call as (call :ccos.math.add <number> <number>)")
        );
        let p = validate_args(&add(), &args("1")).unwrap_err();
        assert_eq!(codes(&p), ["arity"]);

        let p = validate_args(&read_file(), &args(r#""x""#)).unwrap_err();
        assert_eq!(codes(&p), ["not_a_map"]);
        assert_eq!(p[0].message, r#"expects a map argument, got string "x""#);
        let p = validate_args(&read_file(), &args(r#"{:path "x"} {:path "y"}"#)).unwrap_err();
        assert_eq!(codes(&p), ["arity"]);
        let p = validate_args(&read_file(), &[]).unwrap_err();
        assert_eq!(codes(&p), ["arity"]);
    }

    #[test]
    fn constraints_come_from_json_schema() {
        let p =
            validate_args(&read_file(), &args(r#"{:path "x" :encoding "latin1"}"#)).unwrap_err();
        assert_eq!(codes(&p), ["constraint"]);
        assert!(
            p[0].message.starts_with("key :encoding: "),
            "{}",
            p[0].message
        );
        let p = validate_args(&read_file(), &args(r#"{:path "x" :count 500}"#)).unwrap_err();
        assert_eq!(codes(&p), ["constraint"]);
        assert_eq!(p[0].path, "/count");
    }

    #[test]
    fn nested_failures_keep_their_codes() {
        let m = manifest(
            "x.nested",
            json!({"type":"object","properties":{"opts":{"type":"object",
                "properties":{"depth":{"type":"integer"}},"required":["depth"]}}}),
        );
        let p = validate_args(&m, &args(r#"{:opts {:depth "deep"}}"#)).unwrap_err();
        assert_eq!(codes(&p), ["wrong_type"]);
        assert!(
            p[0].message.starts_with("key :opts :depth: "),
            "{}",
            p[0].message
        );
        let p = validate_args(&m, &args("{:opts {}}")).unwrap_err();
        assert_eq!(codes(&p), ["missing_key"]);
        assert_eq!(p[0].message, "key :opts: missing required key :depth");
    }

    #[test]
    fn partial_mode_checks_only_what_is_known() {
        let m = read_file();
        // value of :path unknown: nothing to report
        let entries = BTreeMap::from([("path".to_string(), None)]);
        let p = check_partial_args(
            &m,
            &[PartialArg::Map {
                entries: entries.clone(),
                open: false,
            }],
        );
        assert!(p.is_empty(), "{p:?}");
        // a missing key is still visible, and a literal of the wrong type
        let entries = BTreeMap::from([
            ("encoding".to_string(), None),
            ("count".to_string(), Some(rtfs::Value::string("10"))),
        ]);
        let p = check_partial_args(
            &m,
            &[PartialArg::Map {
                entries: entries.clone(),
                open: false,
            }],
        );
        assert_eq!(codes(&p), ["missing_key", "wrong_type"]);
        // computed keys: missing keys cannot be known
        let p = check_partial_args(
            &m,
            &[PartialArg::Map {
                entries,
                open: true,
            }],
        );
        assert_eq!(codes(&p), ["wrong_type"]);
        // a computed argument: nothing known
        assert!(check_partial_args(&m, &[PartialArg::Unknown]).is_empty());
        // positional with one unknown
        let p = check_partial_args(
            &add(),
            &[
                PartialArg::Unknown,
                PartialArg::Known(rtfs::Value::string("x")),
            ],
        );
        assert_eq!(codes(&p), ["wrong_type"]);
        assert!(check_partial_args(&add(), &[PartialArg::Unknown, PartialArg::Unknown]).is_empty());
    }

    #[test]
    fn values_without_json_form_are_wrong_types() {
        let p = validate_args(&add(), &[rtfs::Value::Int(1), rtfs::Value::Float(f64::NAN)])
            .unwrap_err();
        assert_eq!(codes(&p), ["wrong_type"]);
        assert!(p[0].message.contains("no JSON form"));
    }

    #[test]
    fn invalid_schema_is_reported_not_panicked() {
        let m = manifest(
            "x.bad",
            json!({"type":"object","properties":{"a":{"type":"wat"}}}),
        );
        let p = check_args(&m, &args("{:a 1}"));
        assert!(codes(&p).contains(&"invalid_schema"), "{p:?}");
    }

    #[test]
    fn edit_distance_counts_chars() {
        assert_eq!(edit_distance("pth", "path"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(key_display("first name"), "\"first name\"");
        assert_eq!(key_display("path"), ":path");
    }
}
