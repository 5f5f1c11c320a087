//! Plan generation: resolved sub-intents → an RTFS plan.
//!
//! Each sub-intent becomes `(step "<description>" (call :<id> args))`:
//!
//! - **Arguments.** An object schema gets one map argument whose keys are
//!   the schema's exact property names ([`map_key`]: exact name first, then
//!   snake/camel/kebab equivalence, then a small synonym table; a key the
//!   schema declares is never renamed). A positional schema (`"type":
//!   "array"` with `prefixItems`) gets positional arguments, matched by the
//!   items' `title`, else in order.
//! - **Data flow.** A parameter fed by an earlier sub-intent becomes that
//!   step's `let` binding (`s1`, `s2`...). When its name matches no
//!   property, it goes to the property whose name best matches the earlier
//!   step's topic (shared words with its description), else to the first
//!   required property not otherwise filled.
//! - **Coercion.** Where the schema wants `integer`/`number`/`boolean`: a
//!   string literal that parses is emitted typed; a dynamic value whose
//!   producer does not declare a matching type is wrapped in
//!   `(parse-json x)`. Every coercion is noted in the trace.
//! - **Structured results.** When an earlier step's capability declares
//!   an `object` output schema (e.g. MCP tools' `outputSchema`
//!   `{content: string}`) and the property it feeds does not want an
//!   object, the value is projected: `(get sN :field)`, the field being
//!   the one named like the property, else the only property, else the
//!   only one of the wanted type (noted as an adapter in the trace).
//! - **Missing required parameters.** A free-text property (`prompt`,
//!   `query`, `message`, `text`...) gets the description (soft
//!   validation); any other becomes a `ccos.user.ask` step whose answer
//!   feeds it, or, when asking is not possible, is reported missing.
//! - **For each.** A sub-intent with `each` runs once per item of an
//!   earlier result: `(step-loop [item sN] (step "…" (call …)))`, its
//!   value the vector of per-item results (typed `array` for coercion).
//!   An item parameter is emitted as `item`, `(get item :field)`, or
//!   `(str "prefix" …)`, mapped to a property like any other parameter.
//! - **One call per value.** A sub-intent with `fan_out` (several
//!   coordinated values for one parameter) becomes one step whose body is
//!   a vector of calls, one per value in the goal's order; its value is the
//!   vector of results (typed `array`).
//! - **Shape.** Steps are layered by dependencies; a layer of several
//!   independent steps becomes one `step-parallel` (destructured in the
//!   `let`). A single step is emitted bare. The value of the plan is the
//!   last sub-intent's result.
//!
//! Output is printed with `rtfs::pretty(.., 80)`; everything is ordered, so
//! identical inputs give byte-identical plans.

use std::collections::{BTreeMap, BTreeSet};

use ccos_marketplace::CapabilityManifest;
use ccos_marketplace::keys::{map_key, normalize_key};
use rtfs::Value;
use serde_json::Value as Json;

use crate::intent::{ItemsAnswer, ParamValue, SubIntent};

/// The capability that keeps the maps of a list whose key equals a value.
pub(crate) const FILTER_CAPABILITY: &str = "ccos.data.filter";

/// The capability that keeps the distinct items of a list.
pub(crate) const UNIQUE_CAPABILITY: &str = "ccos.data.unique";

/// The capability used to ask the user for a missing parameter.
pub const ASK_CAPABILITY: &str = "ccos.user.ask";

/// The symbol bound to the current item in a `step-loop`.
pub const ITEM_SYMBOL: &str = "item";

/// Width of the printed plan.
pub const PLAN_WIDTH: usize = 80;

/// Property-name words that the sub-intent's description can fill (soft
/// validation): the user's own request (a prompt, a question, a search
/// query), never a data input such as `text` or `content` — the
/// description is not data.
const FREE_TEXT: [&str; 5] = ["prompt", "query", "question", "q", "instruction"];

/// A sub-intent with its chosen capability.
#[derive(Debug, Clone)]
pub struct ResolvedStep {
    /// The sub-intent.
    pub intent: SubIntent,
    /// The capability chosen for it.
    pub manifest: CapabilityManifest,
}

/// Options of [`generate`].
#[derive(Debug, Clone, Copy)]
pub struct GenOptions {
    /// Whether missing required parameters may be asked with
    /// [`ASK_CAPABILITY`] (it exists and the policy allows it).
    pub can_ask: bool,
}

/// A generated plan.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The plan as an RTFS value (code as data).
    pub plan: Value,
    /// The plan printed with `rtfs::pretty(.., PLAN_WIDTH)`.
    pub rtfs: String,
    /// Per sub-intent id: mappings, adapters and coercions applied.
    pub notes: BTreeMap<String, Vec<String>>,
    /// Required parameters that could be neither filled nor asked:
    /// (sub-intent id, what is missing).
    pub missing: Vec<(String, String)>,
}

/// A node of the plan: a sub-intent's step or an ask step.
struct Node {
    sym: String,
    step: Value,
    deps: Vec<String>,
    /// Steps it must run after without using their results (asks keep
    /// their plan order).
    after: Vec<String>,
    /// The sub-intent id, for sub-intent steps.
    intent: Option<String>,
}

/// The JSON-schema `type` of a schema, when it is a single string.
fn schema_type(s: Option<&Json>) -> Option<&str> {
    s?.get("type")?.as_str()
}

/// Words of a text or identifier, lower-cased.
fn words(s: &str) -> BTreeSet<String> {
    ccos_marketplace::ids::words(s).into_iter().collect()
}

/// The argument slots of a schema: (name, schema, required), and whether
/// the call is positional.
pub(crate) fn slots(m: &CapabilityManifest) -> (Vec<(String, Json, bool)>, bool) {
    let s = &m.input_schema;
    if schema_type(Some(s)) == Some("array") {
        let items = s
            .get("prefixItems")
            .and_then(Json::as_array)
            .cloned()
            .unwrap_or_default();
        let min = s
            .get("minItems")
            .and_then(Json::as_u64)
            .unwrap_or(items.len() as u64);
        let v = items
            .into_iter()
            .enumerate()
            .map(|(i, it)| {
                let name = it
                    .get("title")
                    .and_then(Json::as_str)
                    .map(str::to_string)
                    .unwrap_or_else(|| format!("arg{}", i + 1));
                (name, it, (i as u64) < min)
            })
            .collect();
        return (v, true);
    }
    let required: BTreeSet<String> = m.required_keys().into_iter().collect();
    let props = s.get("properties").and_then(Json::as_object);
    let mut v: Vec<(String, Json, bool)> = props
        .map(|p| {
            p.iter()
                .map(|(k, sch)| (k.clone(), sch.clone(), required.contains(k)))
                .collect()
        })
        .unwrap_or_default();
    for r in &required {
        if !v.iter().any(|(k, _, _)| k == r) {
            v.push((r.clone(), Json::Null, true));
        }
    }
    v.sort_by(|a, b| a.0.cmp(&b.0));
    (v, false)
}

/// The required parameters of `m` that the sub-intent cannot fill: not
/// mapped from one of its parameters, not a free-text property (filled by
/// the description), and not left for an earlier result or a positional
/// literal. Used to prefer, among allowed candidates, one the intent
/// fits (soft validation) over one that would need asking.
pub fn unfillable(intent: &SubIntent, m: &CapabilityManifest) -> Vec<String> {
    let (slots, positional) = slots(m);
    let names: Vec<String> = slots.iter().map(|s| s.0.clone()).collect();
    let mut filled: BTreeSet<String> = BTreeSet::new();
    let mut spare_refs = 0usize;
    let mut spare_lits = 0usize;
    for (key, pv) in &intent.params {
        match map_key(key, &names, &filled).filter(|t| !filled.contains(t)) {
            Some(t) => {
                filled.insert(t);
            }
            None if matches!(pv, ParamValue::Literal(_)) => spare_lits += 1,
            None => spare_refs += 1,
        }
    }
    spare_refs += intent.unnamed_results().count();
    let mut out = vec![];
    for (name, _, required) in &slots {
        if !*required || filled.contains(name) {
            continue;
        }
        let w = words(name);
        if !positional && FREE_TEXT.iter().any(|f| w.contains(*f)) {
            continue;
        }
        if spare_refs > 0 {
            spare_refs -= 1;
        } else if positional && spare_lits > 0 {
            spare_lits -= 1;
        } else {
            out.push(name.clone());
        }
    }
    out
}

/// The literal parameters of the sub-intent that `m` has no place for
/// (named, not positional): a plan that drops a value the goal states
/// does not serve it.
pub fn dropped(intent: &SubIntent, m: &CapabilityManifest) -> Vec<String> {
    let (slots, positional) = slots(m);
    let names: Vec<String> = slots.iter().map(|s| s.0.clone()).collect();
    let mut filled: BTreeSet<String> = BTreeSet::new();
    let mut out = vec![];
    let mut spare_positions = if positional { slots.len() } else { 0 };
    for (key, pv) in &intent.params {
        match map_key(key, &names, &filled).filter(|t| !filled.contains(t)) {
            Some(t) => {
                filled.insert(t);
                spare_positions = spare_positions.saturating_sub(1);
            }
            None if matches!(pv, ParamValue::Literal(_)) => {
                if spare_positions > 0 {
                    spare_positions -= 1;
                } else {
                    out.push(format!("{key} = {}", literal_text(pv)));
                }
            }
            None => {}
        }
    }
    out
}

fn literal_text(pv: &ParamValue) -> String {
    match pv {
        ParamValue::Literal(v) => v.to_string(),
        ParamValue::StepRef(s) => s.clone(),
        ParamValue::Item { .. } => "item".into(),
    }
}

/// The value for a literal where the schema wants `want`; a note when it
/// was converted.
fn coerce_literal(v: &Value, want: Option<&str>) -> (Value, Option<String>) {
    match (want, v) {
        (Some("integer" | "number"), Value::Str(s)) => {
            let t = crate::decompose::typed_literal(s, false);
            if matches!(t, Value::Int(_) | Value::Float(_)) {
                return (t, Some(format!("literal {s:?} emitted as a number")));
            }
        }
        (Some("integer"), Value::Float(f)) if f.fract() == 0.0 && f.abs() < 9.0e15 => {
            return (
                Value::Int(*f as i64),
                Some(format!("literal {f} emitted as an integer")),
            );
        }
        (Some("boolean"), Value::Str(s)) if matches!(s.as_ref(), "true" | "false") => {
            return (
                Value::Bool(s.as_ref() == "true"),
                Some(format!("literal {s:?} emitted as a boolean")),
            );
        }
        (Some("string"), Value::Int(_) | Value::Float(_) | Value::Bool(_)) => {
            let s = v.to_string();
            return (
                Value::string(&s),
                Some(format!("literal {s} emitted as a string")),
            );
        }
        _ => {}
    }
    (v.clone(), None)
}

/// Whether a producer's declared output type satisfies `want`.
fn type_fits(have: Option<&str>, want: &str) -> bool {
    match (have, want) {
        (Some(h), w) if h == w => true,
        (Some("integer"), "number") => true,
        _ => false,
    }
}

/// A reference to `sym` where the schema wants `want`, produced by a step
/// whose output type is `have`: wrapped in `(parse-json ..)` when a number
/// or boolean is wanted and not guaranteed, in `(str ..)` when a text is
/// wanted of a number or a boolean.
fn coerce_ref(sym: &str, have: Option<&str>, want: Option<&str>) -> (Value, Option<String>) {
    let s = Value::Symbol(sym.into());
    match want {
        Some(w @ ("integer" | "number" | "boolean")) if !type_fits(have, w) => (
            Value::list(vec![Value::Symbol("parse-json".into()), s]),
            Some(format!(
                "coercion: (parse-json {sym}) ({w} wanted, {} given)",
                have.unwrap_or("unknown type")
            )),
        ),
        // A number or a yes/no where a text is wanted is written out:
        // "add 2 and 3, then echo it" echoes "5" (it failed when run:
        // "expects string, got int").
        Some("string") if matches!(have, Some("integer" | "number" | "boolean")) => (
            Value::list(vec![Value::Symbol("str".into()), s]),
            Some(format!(
                "coercion: (str {sym}) (string wanted, {} given)",
                have.unwrap_or_default()
            )),
        ),
        _ => (s, None),
    }
}

/// The field of an `object` output schema that feeds property `target`
/// wanting type `want` (not `object`): the field named like the property,
/// else the only field, else the only field of the wanted type.
fn project_field(
    schema: &Json,
    target: &str,
    want: Option<&str>,
) -> Option<(String, Option<String>)> {
    if schema_type(Some(schema)) != Some("object") || want == Some("object") {
        return None;
    }
    let props = schema.get("properties")?.as_object()?;
    let ty = |k: &str| schema_type(props.get(k)).map(str::to_string);
    let n = normalize_key(target);
    if let Some(k) = props.keys().find(|k| normalize_key(k) == n) {
        return Some((k.clone(), ty(k)));
    }
    if props.len() == 1 {
        let k = props.keys().next()?;
        return Some((k.clone(), ty(k)));
    }
    let want = want?;
    let mut of_type = props
        .iter()
        .filter(|(_, s)| schema_type(Some(s)) == Some(want));
    match (of_type.next(), of_type.next()) {
        (Some((k, _)), None) => Some((k.clone(), Some(want.to_string()))),
        // None of that type: the result's payload, when it has one (the
        // body of an HTTP response).
        (None, _) => ["body", "content", "data", "result"]
            .iter()
            .find(|k| {
                props
                    .get(**k)
                    .is_some_and(|s| schema_type(Some(s)).is_none())
            })
            .map(|k| (k.to_string(), None)),
        _ => None,
    }
}

/// A reference to step `sym` feeding property `target`: projected out of
/// a structured (`object`) result when the producer's output schema says
/// so, then coerced like [`coerce_ref`]. Notes say what was applied.
fn ref_value(
    sym: &str,
    have: Option<&str>,
    schema: Option<&Json>,
    target: &str,
    want: Option<&str>,
) -> (Value, Vec<String>) {
    let Some((field, field_type)) = schema.and_then(|s| project_field(s, target, want)) else {
        let (v, n) = coerce_ref(sym, have, want);
        return (v, n.into_iter().collect());
    };
    let mut notes = vec![format!(
        "adapter: (get {sym} :{field}) (structured result, :{target} wants {})",
        want.unwrap_or("any type")
    )];
    let (v, n) = coerce_ref(sym, field_type.as_deref(), want);
    notes.extend(n);
    let get = |x: Value| Value::list(vec![Value::Symbol("get".into()), x, Value::keyword(&field)]);
    let v = match v {
        // (parse-json s) → (parse-json (get s :field))
        Value::List(items) if items.len() == 2 => {
            Value::list(vec![items[0].clone(), get(items[1].clone())])
        }
        other => get(other),
    };
    (v, notes)
}

/// The schema of field `field` of `m`'s structured result.
pub(crate) fn answer_schema<'a>(m: &'a CapabilityManifest, field: &str) -> Option<&'a Json> {
    m.output_schema.as_ref()?.get("properties")?.get(field)
}

/// The schema of a step's value: its capability's result, its first item
/// ([`SubIntent::first`]), then the field asked ([`SubIntent::answer`]).
fn value_schema(st: &ResolvedStep) -> Option<&Json> {
    let mut schema = st.manifest.output_schema.as_ref()?;
    if st.intent.first {
        schema = schema.get("items")?;
    }
    if let Some(field) = &st.intent.answer {
        schema = schema.get("properties")?.get(field)?;
    }
    if st.intent.items.is_some() || !st.intent.one_of.is_empty() {
        return None;
    }
    Some(schema)
}

/// The symbol `name`.
fn sym(name: &str) -> Value {
    Value::Symbol(name.into())
}

/// `(throw "WHAT: DESCRIPTION")`: an error that names what is missing and
/// the step it is missing for.
fn throw_form(what: &str, description: &str) -> Value {
    Value::list(vec![
        sym("throw"),
        Value::string(&format!("{what}: {description}")),
    ])
}

fn step_form(desc: &str, call: Value) -> Value {
    Value::list(vec![
        Value::Symbol("step".into()),
        Value::string(desc),
        call,
    ])
}

/// Whether `m` stores what it is given (the write effect).
fn stores(m: &CapabilityManifest) -> bool {
    m.effective_effects()
        .contains(&ccos_marketplace::Effect::Write)
}

/// A count or a list stored as text ("write the number to wc.txt"): its
/// JSON text, a list of texts one per line (sorted lines were one JSON
/// line: attack trial). `None` for a text, or a result of unknown type.
fn stored_as_text(src: &str, have: Option<&str>) -> Option<(Value, Vec<String>)> {
    if !matches!(
        have,
        Some("integer" | "number" | "boolean" | "array" | "object")
    ) {
        return None;
    }
    let json = Value::list(vec![sym("to-json"), sym(src)]);
    if have == Some("array") {
        let texts = Value::list(vec![sym("every?"), sym("string?"), sym(src)]);
        let lines = Value::list(vec![sym("join"), Value::string("\n"), sym(src)]);
        return Some((
            Value::list(vec![sym("if"), texts, lines, json]),
            vec![format!(
                "adapter: a list stored as text: texts one per line, else (to-json {src})"
            )],
        ));
    }
    Some((
        json,
        vec![format!(
            "adapter: (to-json {src}) ({} stored as text)",
            have.unwrap_or_default()
        )],
    ))
}

/// Fields of a result that only says what a write did: its receipt.
const RECEIPT_FIELDS: [&str; 5] = ["path", "bytes", "size", "written", "ok"];

/// Why the result of `src` cannot be what step `st` refers back to, or
/// `None` (attack trial, each passed before):
/// - a write's receipt (`{:path :bytes}`) is not what was written: "copy
///   notes.txt to b.txt and count its words" counted the path's words;
/// - a result of another kind than the one named: "read notes.txt and
///   write *the number* to x.txt" wrote the text;
/// - an operand whose position is not said (`among_operands`): "count the words and subtract
///   1 from the number" (when the arithmetic grammar did not read it) put
///   the count second.
fn unfit_back_reference(
    st: &ResolvedStep,
    steps: &[ResolvedStep],
    src: &str,
    have: Option<&str>,
    among_operands: bool,
) -> Option<String> {
    let producer = steps.iter().find(|p| p.intent.id == src)?;
    let receipt = stores(&producer.manifest)
        && producer
            .manifest
            .output_schema
            .as_ref()
            .and_then(|o| o.get("properties"))
            .and_then(|p| p.as_object())
            .is_some_and(|props| {
                !props.is_empty() && props.keys().all(|k| RECEIPT_FIELDS.contains(&k.as_str()))
            });
    if receipt {
        return Some(format!(
            "the earlier request ({src}, {}) returns only what it did (its path), not what it wrote",
            producer.manifest.id
        ));
    }
    if crate::decompose::writes_several_things(&st.intent.description) {
        return Some(format!(
            "the goal writes several things into one file, the earlier result ({src}) among them: how they go together is not said"
        ));
    }
    // Several results (one per file, per value) written into one file:
    // how they go together is not said ("read a.txt and b.txt and write
    // them to both.txt" wrote a JSON list of both texts).
    if stores(&st.manifest) && (producer.intent.fan_out.is_some() || producer.intent.each.is_some())
    {
        return Some(format!(
            "the earlier request ({src}) gives one result per item, and how they go together in what {} writes is not said",
            st.manifest.id
        ));
    }
    if crate::decompose::refers_back_vaguely(&st.intent.description) {
        // Another earlier request's result nobody uses: "add 2 and 3,
        // then get the current time and write *the answer*" (the sum or
        // the time?); "read a.txt, read b.txt and write *them*".
        let consumed = |id: &str| steps.iter().any(|o| o.intent.takes_result_of(id));
        let other = steps
            .iter()
            .take_while(|o| o.intent.id != st.intent.id)
            .find(|o| o.intent.id != src && !consumed(&o.intent.id));
        if let Some(o) = other {
            return Some(format!(
                "the goal refers back, and which earlier result it means ({src} or {}) is not said",
                o.intent.id
            ));
        }
    }
    if let Some(kind) = crate::decompose::named_result(&st.intent.description) {
        let fits = match kind {
            "number" | "count" => matches!(have, Some("integer" | "number")),
            _ => !matches!(have, Some("array" | "object") | None),
        };
        if !fits {
            return Some(format!(
                "the goal says \"the {kind}\", and the earlier result ({src}, {}) is {}",
                producer.manifest.id,
                kind_in_words(have)
            ));
        }
    }
    if among_operands {
        return Some(format!(
            "{} takes its operands in order, and where the earlier result ({src}) goes among them is not said",
            st.manifest.id
        ));
    }
    None
}

/// A result's JSON type as a user says it: "a text", "a number", "a
/// list"...
fn kind_in_words(ty: Option<&str>) -> &'static str {
    match ty {
        Some("string") => "a text",
        Some("integer" | "number") => "a number",
        Some("array") => "a list",
        Some("object") => "a record",
        Some("boolean") => "a yes or no",
        _ => "of no known kind",
    }
}

/// Generates the plan for resolved sub-intents, in order.
pub fn generate(steps: &[ResolvedStep], opts: GenOptions) -> Generated {
    let mut notes: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut missing = vec![];
    let mut nodes: Vec<Node> = vec![];
    // Output type of each sub-intent's capability, for coercion.
    let out_type: BTreeMap<&str, Option<&str>> = steps
        .iter()
        .map(|s| {
            let t = if s.intent.each.is_some() || s.intent.fan_out.is_some() {
                Some("array")
            } else {
                schema_type(value_schema(s))
            };
            (s.intent.id.as_str(), t)
        })
        .collect();
    // Output schema of each non-loop sub-intent's capability, for
    // projecting structured results.
    let out_schema: BTreeMap<&str, &Json> = steps
        .iter()
        .filter(|s| s.intent.each.is_none() && s.intent.fan_out.is_none())
        .filter_map(|s| Some((s.intent.id.as_str(), value_schema(s)?)))
        .collect();
    let descriptions: BTreeMap<&str, &str> = steps
        .iter()
        .map(|s| (s.intent.id.as_str(), s.intent.description.as_str()))
        .collect();
    for st in steps {
        let id = st.intent.id.clone();
        let note = notes.entry(id.clone()).or_default();
        if !st.intent.one_of.is_empty() {
            note.push(format!(
                "the answer of the one lookup of {} that found its thing; none or several is an error",
                st.intent.one_of.len()
            ));
            // Its picks and answers (the planner records them as its
            // dependencies).
            let mut deps = st.intent.depends_on.clone();
            deps.sort();
            deps.dedup();
            nodes.push(Node {
                sym: id.clone(),
                step: step_form(&st.intent.description, one_of_body(&st.intent)),
                deps,
                after: vec![],
                intent: Some(id),
            });
            continue;
        }
        let (slots, positional) = slots(&st.manifest);
        let names: Vec<String> = slots.iter().map(|s| s.0.clone()).collect();
        let mut filled: BTreeMap<String, Value> = BTreeMap::new();
        let mut deps: Vec<String> = vec![];
        let mut unplaced_refs: Vec<(String, String)> = vec![];
        let mut unplaced_lits: Vec<(String, Value)> = vec![];
        let mut unplaced_items: Vec<(String, Value)> = vec![];
        let want_of = |name: &str| {
            slots
                .iter()
                .find(|s| s.0 == name)
                .and_then(|s| schema_type(Some(&s.1)))
        };
        // The value passing sub-intent `src`'s result to property `t`
        // (projection of structured results, coercion), with its notes.
        let stores_text = stores(&st.manifest);
        let result_for = |src: &str, t: &str| {
            let have = out_type.get(src).copied().flatten();
            // A count or a list stored as text, only into a capability
            // that stores what it is given (a computation on text never
            // gets a list's JSON text), and never where a field of a
            // structured result — the body of an HTTP response — is
            // projected instead.
            if stores_text
                && want_of(t) == Some("string")
                && out_schema
                    .get(src)
                    .and_then(|sc| project_field(sc, t, want_of(t)))
                    .is_none()
                && let Some(stored) = stored_as_text(src, have)
            {
                return stored;
            }
            ref_value(src, have, out_schema.get(src).copied(), t, want_of(t))
        };
        // Properties not filled yet, in schema order.
        let free_slots = |filled: &BTreeMap<String, Value>| -> Vec<&(String, Json, bool)> {
            slots
                .iter()
                .filter(|s| !filled.contains_key(&s.0))
                .collect()
        };
        // The property the fan-out parameter lands on.
        let mut fan_slot: Option<String> = None;
        // The properties of the parameters changing with it.
        let mut fan_with_slots: BTreeMap<String, String> = BTreeMap::new();
        // 1. named parameters.
        for (key, pv) in &st.intent.params {
            let taken: BTreeSet<String> = filled.keys().cloned().collect();
            let target = map_key(key, &names, &taken).filter(|t| !filled.contains_key(t));
            if st.intent.fan_out.as_ref().is_some_and(|f| &f.param == key) {
                fan_slot = target.clone();
            }
            if let Some(t) = target.as_ref()
                && st
                    .intent
                    .fan_out
                    .as_ref()
                    .is_some_and(|f| f.with.contains_key(key))
            {
                fan_with_slots.insert(key.clone(), t.clone());
            }
            if let Some(t) = target.as_ref().filter(|t| *t != key) {
                note.push(format!("param {key} -> :{t}"));
            }
            match (target, pv) {
                (Some(t), ParamValue::Literal(v)) => {
                    let (v, n) = coerce_literal(v, want_of(&t));
                    note.extend(n);
                    filled.insert(t, v);
                }
                (Some(t), ParamValue::StepRef(src)) => {
                    let (v, n) = result_for(src, &t);
                    note.extend(n);
                    deps.push(src.clone());
                    filled.insert(t, v);
                }
                (Some(t), ParamValue::Item { prefix, field }) => {
                    filled.insert(t, item_value(prefix, field.as_deref()));
                }
                (None, ParamValue::Item { prefix, field }) => {
                    unplaced_items.push((key.clone(), item_value(prefix, field.as_deref())))
                }
                (None, ParamValue::StepRef(src)) => unplaced_refs.push((key.clone(), src.clone())),
                (None, ParamValue::Literal(v)) => unplaced_lits.push((key.clone(), v.clone())),
            }
        }
        // Dependencies without a parameter feed a property too.
        for d in &st.intent.depends_on {
            if st.intent.each.as_ref() == Some(d) {
                continue;
            }
            let used = st
                .intent
                .params
                .values()
                .any(|p| p == &ParamValue::StepRef(d.clone()));
            if !used {
                unplaced_refs.push((String::new(), d.clone()));
            }
        }
        // 2. earlier results whose key matched nothing: by topic, else the
        // first required unfilled property.
        for (key, src) in unplaced_refs {
            if let Some(why) = unfit_back_reference(
                st,
                steps,
                &src,
                out_type.get(src.as_str()).copied().flatten(),
                // Positional operands with literals: where an unnamed
                // earlier result goes is not said (a parameter the
                // decomposition named goes by its name's order).
                positional && key.is_empty() && (!filled.is_empty() || !unplaced_lits.is_empty()),
            ) {
                note.push(format!("result of {src} not passed: {why}"));
                missing.push((id.clone(), why));
                continue;
            }
            let topic = words(descriptions.get(src.as_str()).copied().unwrap_or(""));
            let free = free_slots(&filled);
            let by_topic = free
                .iter()
                .map(|s| (words(&s.0).intersection(&topic).count(), *s))
                .filter(|(n, _)| *n > 0)
                .max_by(|a, b| a.0.cmp(&b.0).then_with(|| b.1.0.cmp(&a.1.0)))
                .map(|(_, s)| s.0.clone());
            let target = by_topic
                .clone()
                .or_else(|| free.iter().find(|s| s.2).map(|s| s.0.clone()))
                .or_else(|| {
                    positional
                        .then(|| free.first().map(|s| s.0.clone()))
                        .flatten()
                });
            // The user's answer to "ask me for a file" is where the text
            // is: as a text it is no file's content ("… and reverse its
            // contents" reversed the file's name: attack trial). The
            // planner reads the file first where it wires the answer
            // itself; here the answer is refused.
            if let Some(t) = target.as_ref()
                && !crate::understand::lexicon::names_a_location(t)
                && steps
                    .iter()
                    .any(|o| o.intent.id == src && o.intent.asks_for_a_file())
            {
                let why = format!(
                    "the answer to \"{}\" names a file, and :{t} of {} takes its text, not its name",
                    descriptions.get(src.as_str()).copied().unwrap_or(""),
                    st.manifest.id
                );
                note.push(format!("result of {src} not passed: {why}"));
                missing.push((id.clone(), why));
                continue;
            }
            // Into a capability that changes something, an earlier result
            // goes only where its topic says, or as the content it writes
            // ("save it to copy.txt"): never as what it acts on ("what is
            // the status of order 1 and delete it" must not empty the
            // folder "pending").
            let content = target.as_ref().is_some_and(|t| {
                words(t).iter().any(|w| {
                    [
                        "content", "text", "data", "bodi", "body", "valu", "payload", "input",
                    ]
                    .contains(&w.as_str())
                })
            });
            if by_topic.is_none()
                && !content
                && target.is_some()
                && crate::understand::bind::changes_things(&st.manifest)
            {
                note.push(format!(
                    "result of {src} not passed: {} changes things, and no parameter is about it",
                    st.manifest.id
                ));
                missing.push((
                    id.clone(),
                    format!(
                        "no parameter of {} is about the earlier result ({src})",
                        st.manifest.id
                    ),
                ));
                continue;
            }
            // A list parameter takes no single text, number or yes/no
            // ("read a.txt, then count", "add 3 and 4, then sort"), nor
            // does a text parameter of a computation take a list ("…,
            // then sort, then reverse"): each would only fail when run
            // (attack trials). A capability that stores what it is given
            // takes the list's text (`result_for`).
            let want = target
                .as_ref()
                .and_then(|t| free.iter().find(|s| &s.0 == t))
                .and_then(|s| schema_type(Some(&s.1)));
            let have = out_type.get(src.as_str()).copied().flatten();
            let mismatch = match (want, have) {
                (Some("array"), Some("string" | "integer" | "number" | "boolean")) => {
                    Some("a list")
                }
                (Some("string"), Some("array")) if !stores_text => Some("a text"),
                _ => None,
            };
            if let Some(takes) = mismatch {
                let why = format!(
                    "{} takes {takes}, and the earlier result ({src}) is {}",
                    st.manifest.id,
                    kind_in_words(have)
                );
                note.push(format!("result of {src} not passed: {why}"));
                missing.push((id.clone(), why));
                continue;
            }
            // An earlier result is no search query: "read notes.txt and
            // search it for milk" must not send the file's text to a
            // search of something else (new-user trial: the memory graph
            // was searched for the whole file).
            let query = target.as_ref().is_some_and(|t| {
                words(t).iter().any(|w| {
                    [
                        "query", "q", "keyword", "keywords", "term", "terms", "search",
                    ]
                    .contains(&w.as_str())
                })
            });
            if by_topic.is_none() && query {
                note.push(format!(
                    "result of {src} not passed: {} takes a search query, which it is not",
                    st.manifest.id
                ));
                missing.push((
                    id.clone(),
                    format!(
                        "{} searches by a query; the earlier result ({src}) is not one",
                        st.manifest.id
                    ),
                ));
                continue;
            }
            let Some(t) = target else {
                note.push(format!("result of {src} not passed: no free property"));
                // "sort nums.json and list *them*": what the goal speaks
                // of must reach the step, or it lists something else
                // (attack trial: the current folder).
                let says_it = crate::decompose::refers_back(&st.intent.description)
                    || crate::decompose::refers_back_vaguely(&st.intent.description);
                if says_it && st.intent.from_text {
                    missing.push((
                        id.clone(),
                        format!(
                            "{} has no parameter to take the earlier result ({src}) the goal speaks of",
                            st.manifest.id
                        ),
                    ));
                }
                continue;
            };
            let how = if by_topic.is_some() {
                "topic match"
            } else {
                "first free required"
            };
            let label = if key.is_empty() {
                src.clone()
            } else {
                key.clone()
            };
            note.push(format!("result of {src} ({label}) -> :{t} ({how})"));
            let (v, n) = result_for(&src, &t);
            note.extend(n);
            deps.push(src.clone());
            filled.insert(t, v);
        }
        // The current item, when its key matched nothing: the first free
        // required property (else the first free one).
        for (key, v) in unplaced_items {
            let free = free_slots(&filled);
            match free.iter().find(|s| s.2).or(free.first()) {
                Some(s) => {
                    note.push(format!("item ({key}) -> :{}", s.0));
                    filled.insert(s.0.clone(), v);
                }
                None => note.push(format!("item ({key}) dropped: no free property")),
            }
        }
        // Positional calls take unmatched literals in order.
        for (key, v) in unplaced_lits {
            let free = slots
                .iter()
                .find(|s| positional && !filled.contains_key(&s.0));
            match free {
                Some(s) => {
                    let (v, n) = coerce_literal(&v, schema_type(Some(&s.1)));
                    note.push(format!("param {key} -> argument {}", s.0));
                    note.extend(n);
                    filled.insert(s.0.clone(), v);
                }
                None => {
                    note.push(format!("param {key} dropped: no matching property"));
                    missing.push((
                        id.clone(),
                        format!("the goal's {key} = {v} has no place in {}", st.manifest.id),
                    ));
                }
            }
        }
        // 3. missing required: adapters, else ask, else report.
        for (name, sch, required) in &slots {
            if !*required || filled.contains_key(name) {
                continue;
            }
            let w = words(name);
            if FREE_TEXT.iter().any(|f| w.contains(*f)) && !positional {
                note.push(format!("adapter: the description as :{name}"));
                filled.insert(name.clone(), Value::string(&st.intent.description));
            } else if opts.can_ask {
                let sym = format!("{id}-{}", sanitize(name));
                let prompt = format!("Value for {name} ({})?", st.intent.description);
                let call = Value::list(vec![
                    Value::Symbol("call".into()),
                    Value::keyword(ASK_CAPABILITY),
                    Value::map([
                        (Value::keyword("prompt"), Value::string(&prompt)),
                        (Value::keyword("name"), Value::string(name)),
                    ]),
                ]);
                nodes.push(Node {
                    sym: sym.clone(),
                    step: step_form(&format!("ask for {name}"), call),
                    deps: vec![],
                    after: vec![],
                    intent: None,
                });
                note.push(format!("ask the user for :{name} ({ASK_CAPABILITY})"));
                let (v, n) = coerce_ref(&sym, Some("string"), schema_type(Some(sch)));
                note.extend(n);
                deps.push(sym);
                filled.insert(name.clone(), v);
            } else {
                missing.push((
                    id.clone(),
                    format!("required parameter {name} of {}", st.manifest.id),
                ));
            }
        }
        let call_with = |mut filled: BTreeMap<String, Value>| {
            let mut call = vec![
                Value::Symbol("call".into()),
                Value::keyword(&st.manifest.id),
            ];
            if positional {
                for (name, _, _) in &slots {
                    match filled.remove(name) {
                        Some(v) => call.push(v),
                        None => break,
                    }
                }
            } else {
                call.push(Value::map(
                    filled.into_iter().map(|(k, v)| (Value::keyword(&k), v)),
                ));
            }
            Value::list(call)
        };
        // Several values for one parameter: one call each, in a vector.
        let body = match (&st.intent.fan_out, &fan_slot) {
            (Some(fan), Some(t)) if fan.values.len() > 1 => {
                note.push(format!(
                    "one call per value of :{t} ({} values)",
                    fan.values.len()
                ));
                if !fan.with.is_empty() {
                    note.push(format!(
                        "with :{} changing call by call",
                        fan.with.keys().cloned().collect::<Vec<_>>().join(", :")
                    ));
                }
                let calls = fan
                    .values
                    .iter()
                    .enumerate()
                    .map(|(i, v)| {
                        let (v, _) = coerce_literal(&rtfs::from_json(v), want_of(t));
                        let mut one = filled.clone();
                        one.insert(t.clone(), v);
                        for (param, values) in &fan.with {
                            if let (Some(slot), Some(x)) =
                                (fan_with_slots.get(param), values.get(i))
                            {
                                let (x, _) = coerce_literal(&rtfs::from_json(x), want_of(slot));
                                one.insert(slot.clone(), x);
                            }
                        }
                        call_with(one)
                    })
                    .collect();
                Value::vector(calls)
            }
            _ => call_with(filled),
        };
        // The one item a lookup kept; none, or several, is an error that
        // says so (which of two "The Hobbit" is meant is not guessed).
        let body = if st.intent.first && st.intent.fan_out.is_none() {
            note.push("its only match; none or several is an error".to_string());
            let found = || sym("matches");
            let throw = |what: &str| throw_form(what, &st.intent.description);
            if st.intent.optional {
                note.push("no match is nil: another lookup may find it".to_string());
            }
            Value::list(vec![
                sym("let"),
                Value::vector(vec![found(), body]),
                Value::list(vec![
                    sym("if"),
                    Value::list(vec![sym("empty?"), found()]),
                    if st.intent.optional {
                        Value::Nil
                    } else {
                        throw("nothing found")
                    },
                    Value::list(vec![
                        sym("if"),
                        Value::list(vec![
                            sym("="),
                            Value::list(vec![sym("count"), found()]),
                            Value::Int(1),
                        ]),
                        Value::list(vec![sym("first"), found()]),
                        throw("several found, which one is meant is not said"),
                    ]),
                ]),
            ])
        } else {
            body
        };
        // The field the question asks for, out of the structured result.
        let body = match &st.intent.answer {
            // The id of a lookup's match: its search's results have one.
            Some(field) if st.intent.fan_out.is_none() && st.intent.first => {
                Value::list(vec![sym("get"), body, Value::keyword(field)])
            }
            // A result without the field, or with `null` in it, is an
            // error that says so, never a `nil` answer with exit 0.
            Some(field) if st.intent.fan_out.is_none() => {
                note.push(format!(
                    "answer: (get … :{field}), the field the question asks for; a result without it (or null) is an error"
                ));
                // (let [value (get BODY :field)] (if (nil? value) (throw …) value))
                Value::list(vec![
                    sym("let"),
                    Value::vector(vec![
                        sym("value"),
                        Value::list(vec![sym("get"), body, Value::keyword(field)]),
                    ]),
                    Value::list(vec![
                        sym("if"),
                        Value::list(vec![sym("nil?"), sym("value")]),
                        throw_form(
                            &format!("the result has no {field}"),
                            &st.intent.description,
                        ),
                        sym("value"),
                    ]),
                ])
            }
            _ => body,
        };
        let body = match &st.intent.items {
            Some(items) if st.intent.fan_out.is_none() => {
                items_body(items, body, st.intent.counted, &st.intent.description, note)
            }
            _ => body,
        };
        // The details of a kind the lookup did not find are not asked.
        let body = match &st.intent.unless_nil {
            Some(src) => {
                note.push(format!("runs only when {src} found something (else nil)"));
                deps.push(src.clone());
                Value::list(vec![
                    sym("if"),
                    Value::list(vec![sym("nil?"), sym(src)]),
                    Value::Nil,
                    body,
                ])
            }
            None => body,
        };
        let mut step = step_form(&st.intent.description, body);
        if let Some(src) = &st.intent.each {
            note.push(format!("for each item of {src}: step-loop"));
            deps.push(src.clone());
            step = Value::list(vec![
                Value::Symbol("step-loop".into()),
                Value::vector(vec![
                    Value::Symbol(ITEM_SYMBOL.into()),
                    Value::Symbol(src.as_str().into()),
                ]),
                step,
            ]);
        }
        deps.sort();
        deps.dedup();
        // Each item's result under its name: the loop is bound apart, and
        // the step the intent's id names zips the names with the results.
        let step = match &st.intent.keyed_by {
            Some((list, key)) if st.intent.each.is_some() => {
                note.push(format!("the results keyed by each {key} of {list}"));
                let looped = format!("{id}-each");
                let mut zipped_from = vec![list.clone(), looped.clone()];
                zipped_from.sort();
                nodes.push(Node {
                    sym: looped.clone(),
                    step,
                    deps: std::mem::replace(&mut deps, zipped_from),
                    after: vec![],
                    intent: Some(id.clone()),
                });
                step_form(
                    &format!("{}, by {key}", st.intent.description),
                    Value::list(vec![
                        sym("zipmap"),
                        Value::list(vec![sym("map"), Value::keyword(key), sym(list)]),
                        sym(&looped),
                    ]),
                )
            }
            _ => step,
        };
        // Order only: the earlier result stays one of the goal's answers
        // ("what is 6 times 7, then wait 1 second" answers 42 too).
        let after: Vec<String> = st
            .intent
            .after
            .iter()
            .filter(|a| !deps.contains(a))
            .cloned()
            .collect();
        nodes.push(Node {
            sym: id.clone(),
            step,
            deps,
            after,
            intent: Some(id),
        });
    }
    ask_in_plan_order(&mut nodes, steps);
    let plan = shape(&nodes);
    Generated {
        rtfs: rtfs::pretty(&plan, PLAN_WIDTH),
        plan,
        notes,
        missing,
    }
}

/// The answer read out of a list of maps ([`ItemsAnswer`]): the maps kept
/// by [`FILTER_CAPABILITY`] (a call, so the chain records it), then each
/// one's key, one per `id` when the maps have one ([`UNIQUE_CAPABILITY`]
/// over (id, value) pairs: an actor credited twice in one movie is one
/// movie, two players sharing a name are two), or how many. A
/// result without the list is an error, not an empty answer; so is an
/// empty answer list ("who produced X" when no crew is a producer says so
/// rather than printing `[]`), but a count of none is 0 (`counted_next`:
/// the list is counted by the next step).
fn items_body(
    items: &ItemsAnswer,
    list: Value,
    counted_next: bool,
    description: &str,
    note: &mut Vec<String>,
) -> Value {
    let throw = |what: &str| throw_form(what, description);
    let call = |id: &str, args: Vec<(&str, Value)>| {
        Value::list(vec![
            sym("call"),
            Value::keyword(id),
            Value::map(args.into_iter().map(|(k, v)| (Value::keyword(k), v))),
        ])
    };
    // (let [items LIST] (if (nil? items) (throw …) BODY))
    let guarded = |name: &str, value: Value, missing: Value, body: Value| {
        Value::list(vec![
            sym("let"),
            Value::vector(vec![sym(name), value]),
            Value::list(vec![
                sym("if"),
                Value::list(vec![sym("nil?"), sym(name)]),
                missing,
                body,
            ]),
        ])
    };
    if items.top {
        note.push("the first of the ranked list; an empty list is an error".to_string());
        let value = match &items.each {
            Some(key) => {
                note.push(format!("answers with its {key}"));
                Value::list(vec![sym("get"), sym("top"), Value::keyword(key)])
            }
            None => sym("top"),
        };
        return guarded(
            "top",
            Value::list(vec![sym("first"), list]),
            throw("nothing found"),
            value,
        );
    }
    note.push("no such list in the result is an error".to_string());
    let mut kept = sym("items");
    if let Some((key, equals)) = &items.only {
        note.push(format!("keeps the items whose {key} is {equals:?}"));
        kept = call(
            FILTER_CAPABILITY,
            vec![
                ("items", kept),
                ("key", Value::string(key)),
                ("equals", Value::string(equals)),
            ],
        );
    }
    let values = match (&items.each, &items.distinct_by) {
        // (map second (unique (map (fn [x] [(get x :id) (get x :key)]) kept)))
        (Some(key), Some(by)) => {
            note.push(format!("each one's {key}, one per {by}"));
            let x = || sym("x");
            let get = |k: &str| Value::list(vec![sym("get"), x(), Value::keyword(k)]);
            let pair = Value::list(vec![
                sym("fn"),
                Value::vector(vec![x()]),
                Value::vector(vec![get(by), get(key)]),
            ]);
            Value::list(vec![
                sym("map"),
                sym("second"),
                call(
                    UNIQUE_CAPABILITY,
                    vec![("items", Value::list(vec![sym("map"), pair, kept]))],
                ),
            ])
        }
        (Some(key), None) => {
            note.push(format!("each one's {key}"));
            Value::list(vec![sym("map"), Value::keyword(key), kept])
        }
        (None, _) => kept,
    };
    let answer = if items.count {
        note.push("answers with how many there are".to_string());
        Value::list(vec![sym("count"), values])
    } else if counted_next {
        // The list a later step counts: none is 0, no error.
        values
    } else {
        note.push("none is an error that says so".to_string());
        Value::list(vec![
            sym("let"),
            Value::vector(vec![sym("found"), values]),
            Value::list(vec![
                sym("if"),
                Value::list(vec![sym("empty?"), sym("found")]),
                throw("none found"),
                sym("found"),
            ]),
        ])
    };
    guarded("items", list, throw("the result has no such list"), answer)
}

/// The body of a [`SubIntent::one_of`] step: the answer of the one pick
/// that is not `nil`, else an error naming none or several.
fn one_of_body(intent: &SubIntent) -> Value {
    let picks: Vec<Value> = intent
        .one_of
        .iter()
        .map(|(pick, _)| sym(pick.as_str()))
        .collect();
    let throw = |what: &str| throw_form(what, &intent.description);
    // (if (nil? p1) (if (nil? p2) … a2) a1), innermost last.
    let mut chosen = throw("nothing found");
    for (pick, answer) in intent.one_of.iter().rev() {
        chosen = Value::list(vec![
            sym("if"),
            Value::list(vec![sym("nil?"), sym(pick.as_str())]),
            chosen,
            sym(answer.as_str()),
        ]);
    }
    let found = Value::list(vec![
        sym("count"),
        Value::list(vec![sym("remove"), sym("nil?"), Value::vector(picks)]),
    ]);
    Value::list(vec![
        sym("if"),
        Value::list(vec![sym(">"), found, Value::Int(1)]),
        throw("several found, which one is meant is not said"),
        chosen,
    ])
}

/// Questions to the user are asked one after the other, in plan order: a
/// person answers one question at a time, and answers given in advance
/// (`--answer V`, in order) then meet their questions whatever runs in
/// parallel. Each ask step depends on the previous one.
fn ask_in_plan_order(nodes: &mut [Node], steps: &[ResolvedStep]) {
    let asks = |n: &Node| match &n.intent {
        // An ask step the generator added for a missing parameter.
        None => true,
        Some(id) => steps
            .iter()
            .any(|st| &st.intent.id == id && st.manifest.id == ASK_CAPABILITY),
    };
    let mut previous: Option<String> = None;
    for n in nodes.iter_mut() {
        if !asks(n) {
            continue;
        }
        if let Some(p) = previous.take()
            && !n.deps.contains(&p)
        {
            n.after.push(p);
        }
        previous = Some(n.sym.clone());
    }
}

/// The current item, one of its fields, with an optional text prefix:
/// `item`, `(get item :f)`, `(str "p" …)`.
fn item_value(prefix: &str, field: Option<&str>) -> Value {
    let item = Value::Symbol(ITEM_SYMBOL.into());
    let v = match field {
        Some(f) => Value::list(vec![Value::Symbol("get".into()), item, Value::keyword(f)]),
        None => item,
    };
    if prefix.is_empty() {
        v
    } else {
        Value::list(vec![Value::Symbol("str".into()), Value::string(prefix), v])
    }
}

fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// Lays the nodes out (see [`layout`]). The plan's value is the result
/// of the sub-intents no other sub-intent uses (the goal's answers): the
/// last one's alone, or, when the goal has several independent parts, the
/// vector of their results in goal order ("count the words; count the
/// lines" → `[words lines]`).
fn shape(nodes: &[Node]) -> Value {
    let steps: Vec<LayoutStep> = nodes
        .iter()
        .map(|n| {
            let mut deps = n.deps.clone();
            deps.extend(n.after.iter().cloned());
            deps.sort();
            deps.dedup();
            LayoutStep {
                name: n.sym.clone(),
                form: n.step.clone(),
                deps,
                bind: true,
            }
        })
        .collect();
    let used: BTreeSet<&str> = nodes
        .iter()
        .flat_map(|n| n.deps.iter().map(String::as_str))
        .collect();
    let answers: Vec<&str> = nodes
        .iter()
        .filter(|n| n.intent.is_some() && !used.contains(n.sym.as_str()))
        .map(|n| n.sym.as_str())
        .collect();
    let result = match answers.as_slice() {
        [] => None,
        [one] => Some(Value::Symbol((*one).into())),
        many => Some(Value::vector(
            many.iter().map(|s| Value::Symbol((*s).into())).collect(),
        )),
    };
    layout_value(&steps, result)
}

/// One step of a plan to lay out by [`layout`].
#[derive(Debug, Clone)]
pub struct LayoutStep {
    /// The name its result is bound to (a symbol).
    pub name: String,
    /// The step's form (`(step "..." (call ...))`).
    pub form: Value,
    /// Names of the steps whose results it uses (earlier in the list).
    pub deps: Vec<String>,
    /// Whether to bind the result to `name` (else `_`: nothing uses it).
    pub bind: bool,
}

/// The plan form of `steps` (in dependency order) laid out by dependency
/// depth: one step is its form; one layer of several is a
/// `(step-parallel ...)`; otherwise a `let` binds each layer in order — a
/// single step to its name, a layer of several to a vector destructuring
/// a `step-parallel` — and its value is the step named `result`. The one
/// layout used by every planner (deterministic, JSON IR), so independent
/// calls always run in parallel the same way.
pub fn layout(steps: &[LayoutStep], result: Option<&str>) -> Value {
    if steps.len() > 1 && steps.iter().all(|s| s.deps.is_empty()) {
        let mut v = vec![Value::Symbol("step-parallel".into())];
        v.extend(steps.iter().map(|s| s.form.clone()));
        return Value::list(v);
    }
    layout_value(steps, result.map(|r| Value::Symbol(r.into())))
}

/// [`layout`] with any value form as the plan's value (e.g. a vector of
/// several steps' results); a single step whose value is its own result
/// is emitted bare.
fn layout_value(steps: &[LayoutStep], result: Option<Value>) -> Value {
    let mut level: BTreeMap<&str, usize> = BTreeMap::new();
    for s in steps {
        let l = s
            .deps
            .iter()
            .filter_map(|d| level.get(d.as_str()))
            .map(|l| l + 1)
            .max()
            .unwrap_or(0);
        level.insert(&s.name, l);
    }
    let depth = level.values().max().map_or(0, |m| m + 1);
    let layers: Vec<Vec<&LayoutStep>> = (0..depth)
        .map(|l| {
            steps
                .iter()
                .filter(|s| level.get(s.name.as_str()) == Some(&l))
                .collect()
        })
        .collect();
    let binding = |s: &LayoutStep| Value::Symbol(if s.bind { s.name.as_str() } else { "_" }.into());
    let parallel = |layer: &[&LayoutStep]| {
        let mut v = vec![Value::Symbol("step-parallel".into())];
        v.extend(layer.iter().map(|s| s.form.clone()));
        Value::list(v)
    };
    let bare = |name: &str| result.as_ref() == Some(&Value::Symbol(name.into()));
    let all_results = |layer: &[&LayoutStep]| {
        result.as_ref()
            == Some(&Value::vector(
                layer
                    .iter()
                    .map(|s| Value::Symbol(s.name.as_str().into()))
                    .collect(),
            ))
    };
    match layers.as_slice() {
        [] => Value::Nil,
        [only] if only.len() == 1 && bare(&only[0].name) => only[0].form.clone(),
        [only] if only.len() > 1 && all_results(only) => parallel(only),
        _ => {
            let mut bindings = vec![];
            for layer in &layers {
                if let [s] = layer.as_slice() {
                    bindings.push(binding(s));
                    bindings.push(s.form.clone());
                } else {
                    bindings.push(Value::vector(layer.iter().map(|s| binding(s)).collect()));
                    bindings.push(parallel(layer));
                }
            }
            Value::list(vec![
                Value::Symbol("let".into()),
                Value::vector(bindings),
                result.unwrap_or(Value::Nil),
            ])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ccos_marketplace::{Effect, TrustTier};
    use serde_json::json;

    fn cap(id: &str, input: Json, output: Option<Json>) -> CapabilityManifest {
        let m = CapabilityManifest::new(id, id, input)
            .with_tier(TrustTier::System)
            .with_effects(&[Effect::Pure])
            .local();
        match output {
            Some(o) => m.with_output(o),
            None => m,
        }
    }

    fn step(intent: SubIntent, m: CapabilityManifest) -> ResolvedStep {
        ResolvedStep {
            intent,
            manifest: m,
        }
    }

    fn obj(props: Json, req: &[&str]) -> Json {
        json!({"type": "object", "properties": props, "required": req})
    }

    #[test]
    fn mapped_params_and_typed_literals() {
        let m = cap(
            "gh.list",
            obj(
                json!({"owner": {"type": "string"}, "perPage": {"type": "integer"}, "verbose": {"type": "boolean"}}),
                &["owner"],
            ),
            None,
        );
        let s = SubIntent::new("s1", "list issues", crate::IntentType::Fetch)
            .with_param("owner", Value::string("mandubian"))
            .with_param("per_page", Value::string("10"))
            .with_param("verbose", Value::string("true"))
            .with_param("color", Value::string("red"));
        let g = generate(&[step(s, m)], GenOptions { can_ask: false });
        assert_eq!(
            g.rtfs,
            "(step \"list issues\"\n  (call :gh.list {:owner \"mandubian\" :perPage 10 :verbose true}))"
        );
        let n = &g.notes["s1"];
        assert!(
            n.contains(&"param per_page -> :perPage".to_string()),
            "{n:?}"
        );
        assert!(n.iter().any(|x| x.contains("color dropped")), "{n:?}");
        assert!(
            n.iter().any(|x| x.contains("emitted as a boolean")),
            "{n:?}"
        );
    }

    #[test]
    fn dependency_by_topic_with_parse_json_coercion() {
        let ask = cap(
            "ccos.user.ask",
            obj(json!({"prompt": {"type": "string"}}), &["prompt"]),
            Some(json!({"type": "string"})),
        );
        let list = cap(
            "gh.list",
            obj(
                json!({"owner": {"type": "string"}, "perPage": {"type": "integer"}}),
                &["owner"],
            ),
            None,
        );
        let s1 = SubIntent::new("s1", "ask for the page size", crate::IntentType::AskUser)
            .with_param("prompt", Value::string("page size?"));
        let mut s2 = SubIntent::new("s2", "list issues", crate::IntentType::Fetch)
            .with_param("owner", Value::string("o"));
        s2.depends_on.push("s1".into());
        let g = generate(
            &[step(s1, ask), step(s2, list)],
            GenOptions { can_ask: false },
        );
        assert!(g.rtfs.contains(":perPage (parse-json s1)"), "{}", g.rtfs);
        let n = &g.notes["s2"];
        assert!(n.iter().any(|x| x.contains("topic match")), "{n:?}");
        assert!(
            n.iter().any(|x| x.starts_with("coercion: (parse-json s1)")),
            "{n:?}"
        );
        assert!(g.rtfs.starts_with("(let [s1"), "{}", g.rtfs);
    }

    #[test]
    fn positional_args_and_typed_results_need_no_coercion() {
        let two = json!({"type": "array", "prefixItems": [{"type": "number", "title": "a"}, {"type": "number", "title": "b"}], "minItems": 2});
        let add = cap(
            "ccos.math.add",
            two.clone(),
            Some(json!({"type": "number"})),
        );
        let mul = cap("ccos.math.mul", two, Some(json!({"type": "number"})));
        let s1 = SubIntent::new("s1", "add", crate::IntentType::Compute)
            .with_param("a", Value::Int(2))
            .with_param("b", Value::string("3"));
        let s2 = SubIntent::new("s2", "mul", crate::IntentType::Compute)
            .with_step_param("x", "s1")
            .with_param("y", Value::Int(4));
        let g = generate(
            &[step(s1, add), step(s2, mul)],
            GenOptions { can_ask: false },
        );
        assert!(g.rtfs.contains("(call :ccos.math.add 2 3)"), "{}", g.rtfs);
        assert!(g.rtfs.contains("(call :ccos.math.mul s1 4)"), "{}", g.rtfs);
        // A string-typed producer feeding a number needs parse-json.
        let read = cap("r", obj(json!({}), &[]), Some(json!({"type": "string"})));
        let two = json!({"type": "array", "prefixItems": [{"type": "number", "title": "a"}, {"type": "number", "title": "b"}]});
        let add = cap("ccos.math.add", two, None);
        let s1 = SubIntent::new("s1", "read", crate::IntentType::Fetch);
        let s2 = SubIntent::new("s2", "add", crate::IntentType::Compute)
            .with_step_param("a", "s1")
            .with_param("b", Value::Int(1));
        let g = generate(
            &[step(s1, read), step(s2, add)],
            GenOptions { can_ask: false },
        );
        assert!(
            g.rtfs.contains("(call :ccos.math.add (parse-json s1) 1)"),
            "{}",
            g.rtfs
        );
    }

    #[test]
    fn missing_required_is_asked_adapted_or_reported() {
        let m = cap(
            "t",
            obj(
                json!({"query": {"type": "string"}, "limit": {"type": "integer"}}),
                &["query", "limit"],
            ),
            None,
        );
        let s = SubIntent::new("s1", "search things", crate::IntentType::Fetch);
        let g = generate(&[step(s.clone(), m.clone())], GenOptions { can_ask: true });
        assert!(g.missing.is_empty());
        assert!(g.rtfs.contains(":query \"search things\""), "{}", g.rtfs);
        assert!(g.rtfs.contains("(call :ccos.user.ask"), "{}", g.rtfs);
        assert!(
            g.rtfs.contains(":limit (parse-json s1-limit)"),
            "{}",
            g.rtfs
        );
        let g = generate(&[step(s, m)], GenOptions { can_ask: false });
        assert_eq!(
            g.missing,
            vec![(
                "s1".to_string(),
                "required parameter limit of t".to_string()
            )]
        );
    }

    #[test]
    fn for_each_emits_step_loops_over_items_and_fields() {
        let list = cap(
            "ccos.file.list",
            obj(json!({"path": {"type": "string"}}), &[]),
            Some(json!({"type": "array"})),
        );
        let read = cap(
            "ccos.file.read",
            obj(json!({"path": {"type": "string"}}), &["path"]),
            Some(json!({"type": "string"})),
        );
        let count = cap(
            "ccos.text.count_words",
            obj(json!({"text": {"type": "string"}}), &["text"]),
            Some(json!({"type": "integer"})),
        );
        let s1 = SubIntent::new("s1", "list", crate::IntentType::Fetch)
            .with_param("path", Value::string("d"));
        let mut s2 = SubIntent::new("s2", "read", crate::IntentType::Fetch).for_each("s1");
        s2.params.insert(
            "file".into(),
            ParamValue::Item {
                prefix: "d/".into(),
                field: Some("name".into()),
            },
        );
        let mut s3 = SubIntent::new("s3", "count", crate::IntentType::Compute).for_each("s2");
        s3.params.insert(
            "input".into(),
            ParamValue::Item {
                prefix: String::new(),
                field: None,
            },
        );
        let g = generate(
            &[step(s1, list), step(s2, read), step(s3, count)],
            GenOptions { can_ask: false },
        );
        assert!(g.missing.is_empty(), "{:?}", g.missing);
        assert!(g.rtfs.contains("s2 (step-loop [item s1]"), "{}", g.rtfs);
        assert!(
            g.rtfs
                .contains("(call :ccos.file.read {:path (str \"d/\" (get item :name))})"),
            "{}",
            g.rtfs
        );
        assert!(
            g.rtfs
                .contains("(call :ccos.text.count_words {:text item})"),
            "{}",
            g.rtfs
        );
        assert!(g.rtfs.ends_with("s3)"), "{}", g.rtfs);
        assert!(g.notes["s2"].iter().any(|n| n.contains("step-loop")));
        assert!(
            g.notes["s3"]
                .iter()
                .any(|n| n.contains("item (input) -> :text")),
            "{:?}",
            g.notes["s3"]
        );
    }

    #[test]
    fn structured_results_are_projected_by_output_schema() {
        let read = cap(
            "mcp.fs.read",
            obj(json!({"path": {"type": "string"}}), &["path"]),
            Some(json!({"type": "object", "properties": {"content": {"type": "string"}}})),
        );
        let count = cap(
            "count",
            obj(json!({"text": {"type": "string"}}), &["text"]),
            None,
        );
        let add = cap(
            "add",
            json!({"type": "array", "prefixItems": [{"type": "number", "title": "a"}, {"type": "number", "title": "b"}]}),
            None,
        );
        let s1 = SubIntent::new("s1", "read", crate::IntentType::Fetch)
            .with_param("path", Value::string("a.txt"));
        let s2 =
            SubIntent::new("s2", "count", crate::IntentType::Compute).with_step_param("text", "s1");
        let g = generate(
            &[step(s1.clone(), read.clone()), step(s2, count)],
            GenOptions { can_ask: false },
        );
        assert!(g.rtfs.contains("{:text (get s1 :content)}"), "{}", g.rtfs);
        assert!(
            g.notes["s2"]
                .iter()
                .any(|n| n.starts_with("adapter: (get s1"))
        );
        // A string field feeding a number: projected, then parse-json.
        let s2 = SubIntent::new("s2", "add", crate::IntentType::Compute)
            .with_step_param("a", "s1")
            .with_param("b", Value::Int(1));
        let g = generate(
            &[step(s1, read), step(s2, add)],
            GenOptions { can_ask: false },
        );
        assert!(
            g.rtfs
                .contains("(call :add (parse-json (get s1 :content)) 1)"),
            "{}",
            g.rtfs
        );
        // Several fields and none named like the property or of the wanted
        // type: no projection.
        let two = json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}});
        assert_eq!(project_field(&two, "text", Some("string")), None);
        assert_eq!(
            project_field(&two, "b", Some("string")),
            Some(("b".into(), Some("integer".into())))
        );
        assert_eq!(project_field(&two, "x", Some("object")), None);
    }

    #[test]
    fn unfillable_lists_required_params_the_intent_cannot_fill() {
        let many = cap(
            "read_many",
            obj(json!({"paths": {"type": "array"}}), &["paths"]),
            None,
        );
        let one = cap(
            "read_one",
            obj(
                json!({"path": {"type": "string"}, "query": {"type": "string"}}),
                &["path", "query"],
            ),
            None,
        );
        let s = SubIntent::new("s1", "read the file", crate::IntentType::Fetch)
            .with_param("path", Value::string("a.txt"));
        assert_eq!(unfillable(&s, &many), vec!["paths".to_string()]);
        assert!(unfillable(&s, &one).is_empty());
        // An earlier result fills the first free required property.
        let s = SubIntent::new("s2", "read", crate::IntentType::Fetch).with_step_param("x", "s1");
        assert!(unfillable(&s, &many).is_empty());
    }

    #[test]
    fn independent_steps_run_in_parallel() {
        let e = cap(
            "ccos.echo",
            obj(json!({"message": {"type": "string"}}), &["message"]),
            None,
        );
        let a = SubIntent::new("s1", "echo a", crate::IntentType::Output)
            .with_param("message", Value::string("a"));
        let b = SubIntent::new("s2", "echo b", crate::IntentType::Output)
            .with_param("message", Value::string("b"));
        let g = generate(
            &[step(a, e.clone()), step(b, e)],
            GenOptions { can_ask: false },
        );
        assert!(g.rtfs.starts_with("(step-parallel"), "{}", g.rtfs);
    }
}
