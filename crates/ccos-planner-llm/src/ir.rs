//! The JSON plan IR (Mode B of plan generation): what a model emits when it
//! is asked for JSON instead of RTFS, validated and compiled
//! deterministically to RTFS.
//!
//! ```json
//! {"steps": [
//!   {"id": "s1", "name": "Read", "capability": "ccos.file.read",
//!    "args": {"path": "notes.txt"}, "deps": []},
//!   {"id": "s2", "name": "Count", "capability": "ccos.text.count_words",
//!    "args": {"text": {"$ref": "s1"}}, "deps": ["s1"]}
//! ]}
//! ```
//!
//! - `args`: an object is the call's one map argument, an array its
//!   positional arguments, absent/`null` no argument (the calling
//!   convention of `ccos_marketplace::manifest`).
//! - **References**: the one convention for an earlier step's result inside
//!   `args` is the object `{"$ref": "ID"}`, optionally with `"get": "KEY"`
//!   to take one key of a map result (`(get sN :KEY)`). Every referenced
//!   step must be listed in `deps` (a reference not in `deps` is an
//!   error, so the declared graph is always the data-flow graph or a
//!   superset of it).
//! - `{"$expr": "..."}` is what [`crate::canon`] writes for an
//!   argument computed by code in an RTFS plan; it is never accepted from a
//!   model (it would be an eval hole).
//! - `options` (`deterministic`, `isolation`, `contracts`) are kept for
//!   the record; they do not change the compiled plan.
//!
//! Compilation: topological order, ties broken by original index; steps
//! are layered by dependency depth; a layer of several independent steps
//! becomes one `(step-parallel ...)` destructured in a `let`; results are
//! bound to `s1..sN` (topological position) when another step uses them
//! or when they are the plan's value (the last step), `_` otherwise.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use ccos_governance::Catalog;
use ccos_marketplace::schema::{self, PartialArg, Severity};
use ccos_planner::plan_gen::{LayoutStep, layout as layout_plan};
use rtfs::Value;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

/// Width of printed plans (same as the deterministic planner's).
pub const PLAN_WIDTH: usize = ccos_planner::plan_gen::PLAN_WIDTH;

/// The key marking a reference to an earlier step's result.
pub const REF_KEY: &str = "$ref";
/// The optional key of a reference selecting one key of a map result.
pub const GET_KEY: &str = "get";
/// The key [`crate::canon`] uses for an argument computed by code.
pub const EXPR_KEY: &str = "$expr";

/// One step of the IR.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IrStep {
    /// Unique id within the plan (referenced by `deps` and `$ref`).
    pub id: String,
    /// Human name (the RTFS step name); the capability id when empty.
    #[serde(default)]
    pub name: String,
    /// The capability id, without the leading colon.
    pub capability: String,
    /// Arguments: object → one map argument, array → positional, null → none.
    #[serde(default)]
    pub args: Json,
    /// Ids of the steps this one depends on.
    #[serde(default)]
    pub deps: Vec<String>,
    /// Step options, recorded only.
    #[serde(default, skip_serializing_if = "Json::is_null")]
    pub options: Json,
}

/// A plan as a list of steps.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PlanIr {
    /// The steps, in the order given.
    pub steps: Vec<IrStep>,
}

/// One problem of an IR plan, located by step id and JSON path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IrError {
    /// The step concerned, when there is one.
    pub step: Option<String>,
    /// JSON Pointer into the IR document (`/steps/1/args/path`).
    pub path: String,
    /// Machine-readable code: `bad_json`, `no_steps`, `bad_field`,
    /// `empty_id`, `duplicate_id`, `unknown_capability`, `unknown_dep`,
    /// `undeclared_ref`, `cycle`, `bad_ref`, `expr_not_allowed`, or an
    /// argument code of `ccos_marketplace::schema` (`missing_key`,
    /// `wrong_type`, ...).
    pub code: String,
    /// What is wrong.
    pub message: String,
    /// A compact repair hint.
    pub hint: Option<String>,
}

impl IrError {
    fn new(step: Option<&str>, path: impl Into<String>, code: &str, message: String) -> IrError {
        IrError {
            step: step.map(str::to_string),
            path: path.into(),
            code: code.into(),
            message,
            hint: None,
        }
    }

    fn hint(mut self, h: impl Into<String>) -> IrError {
        self.hint = Some(h.into());
        self
    }

    /// One line: `PATH: error[code]: message (hint)`.
    pub fn render(&self) -> String {
        let hint = self
            .hint
            .as_deref()
            .map(|h| format!(" ({h})"))
            .unwrap_or_default();
        let path = if self.path.is_empty() {
            "/"
        } else {
            &self.path
        };
        format!("{path}: error[{}]: {}{hint}", self.code, self.message)
    }
}

impl fmt::Display for IrError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

/// A compiled plan.
#[derive(Debug, Clone, PartialEq)]
pub struct Compiled {
    /// The plan printed with `rtfs::pretty(.., PLAN_WIDTH)`.
    pub rtfs: String,
    /// The plan as a value.
    pub plan: Value,
    /// Step indices (into `PlanIr::steps`) in compiled (topological) order.
    pub order: Vec<usize>,
}

impl PlanIr {
    /// Reads an IR from JSON: `{"steps": [...]}` or a bare array of steps.
    /// Fields are read by hand so that every error names its JSON path.
    pub fn from_json(j: &Json) -> Result<PlanIr, Vec<IrError>> {
        let (steps, base) = match j {
            Json::Array(a) => (a, ""),
            Json::Object(o) => match o.get("steps") {
                Some(Json::Array(a)) => (a, "/steps"),
                Some(_) => {
                    return Err(vec![IrError::new(
                        None,
                        "/steps",
                        "bad_field",
                        "`steps` must be an array".into(),
                    )]);
                }
                None => {
                    return Err(vec![
                        IrError::new(
                            None,
                            "",
                            "no_steps",
                            "the answer has no `steps` array".into(),
                        )
                        .hint("answer {\"steps\": [{\"id\": ..., \"capability\": ..., ...}]}"),
                    ]);
                }
            },
            _ => {
                return Err(vec![IrError::new(
                    None,
                    "",
                    "bad_json",
                    "expected a JSON object with `steps`".into(),
                )]);
            }
        };
        let mut errors = vec![];
        let mut out = vec![];
        for (i, s) in steps.iter().enumerate() {
            let path = format!("{base}/{i}");
            let Some(o) = s.as_object() else {
                errors.push(IrError::new(
                    None,
                    &path,
                    "bad_field",
                    "a step must be an object".into(),
                ));
                continue;
            };
            let id = match o.get("id") {
                Some(Json::String(s)) => s.trim().to_string(),
                Some(Json::Number(n)) => n.to_string(),
                None => String::new(),
                Some(_) => {
                    errors.push(IrError::new(
                        None,
                        format!("{path}/id"),
                        "bad_field",
                        "`id` must be a string".into(),
                    ));
                    continue;
                }
            };
            let sid = (!id.is_empty()).then_some(id.as_str());
            let name = match o.get("name") {
                Some(Json::String(s)) => s.clone(),
                None | Some(Json::Null) => String::new(),
                Some(_) => {
                    errors.push(IrError::new(
                        sid,
                        format!("{path}/name"),
                        "bad_field",
                        "`name` must be a string".into(),
                    ));
                    String::new()
                }
            };
            let capability = match o.get("capability") {
                Some(Json::String(s)) => s.trim().trim_start_matches(':').to_string(),
                _ => {
                    errors.push(
                        IrError::new(
                            sid,
                            format!("{path}/capability"),
                            "bad_field",
                            "`capability` must be a capability id string".into(),
                        )
                        .hint("e.g. \"capability\": \"ccos.echo\""),
                    );
                    continue;
                }
            };
            let args = o.get("args").cloned().unwrap_or(Json::Null);
            if !matches!(args, Json::Null | Json::Object(_) | Json::Array(_)) {
                errors.push(
                    IrError::new(
                        sid,
                        format!("{path}/args"),
                        "bad_field",
                        "`args` must be an object (one map argument) or an array (positional)"
                            .into(),
                    )
                    .hint("e.g. \"args\": {\"message\": \"hi\"}"),
                );
                continue;
            }
            let deps = match o.get("deps") {
                None | Some(Json::Null) => vec![],
                Some(Json::Array(a)) => {
                    let mut d = vec![];
                    for (k, x) in a.iter().enumerate() {
                        match x {
                            Json::String(s) => d.push(s.trim().to_string()),
                            Json::Number(n) => d.push(n.to_string()),
                            _ => errors.push(IrError::new(
                                sid,
                                format!("{path}/deps/{k}"),
                                "bad_field",
                                "a dep must be a step id string".into(),
                            )),
                        }
                    }
                    d
                }
                Some(_) => {
                    errors.push(IrError::new(
                        sid,
                        format!("{path}/deps"),
                        "bad_field",
                        "`deps` must be an array of step ids".into(),
                    ));
                    vec![]
                }
            };
            out.push(IrStep {
                id,
                name,
                capability,
                args,
                deps,
                options: o.get("options").cloned().unwrap_or(Json::Null),
            });
        }
        if errors.is_empty() {
            Ok(PlanIr { steps: out })
        } else {
            Err(errors)
        }
    }

    /// Parses IR JSON text.
    pub fn parse(text: &str) -> Result<PlanIr, Vec<IrError>> {
        let j: Json = serde_json::from_str(text).map_err(|e| {
            vec![IrError::new(
                None,
                "",
                "bad_json",
                format!(
                    "invalid JSON at line {} column {}: {e}",
                    e.line(),
                    e.column()
                ),
            )]
        })?;
        PlanIr::from_json(&j)
    }

    /// The capability ids named by the steps, sorted and de-duplicated.
    pub fn capabilities(&self) -> Vec<String> {
        let s: BTreeSet<String> = self.steps.iter().map(|s| s.capability.clone()).collect();
        s.into_iter().collect()
    }

    /// Structural checks (no catalog): non-empty and unique ids, known
    /// deps, references declared in `deps`, no `$expr`, no cycle. Returns
    /// the topological order (ties by original index).
    pub fn check_structure(&self) -> Result<Vec<usize>, Vec<IrError>> {
        let mut errors = vec![];
        if self.steps.is_empty() {
            return Err(vec![
                IrError::new(None, "/steps", "no_steps", "the plan has no steps".into())
                    .hint("emit at least one step"),
            ]);
        }
        let mut index: BTreeMap<&str, usize> = BTreeMap::new();
        for (i, s) in self.steps.iter().enumerate() {
            let path = format!("/steps/{i}/id");
            if s.id.is_empty() {
                errors.push(IrError::new(
                    None,
                    path,
                    "empty_id",
                    format!("step {i} has an empty id"),
                ));
            } else if index.insert(&s.id, i).is_some() {
                errors.push(
                    IrError::new(
                        Some(&s.id),
                        path,
                        "duplicate_id",
                        format!("duplicate step id {:?}", s.id),
                    )
                    .hint("give every step its own id"),
                );
            }
        }
        for (i, s) in self.steps.iter().enumerate() {
            for (k, d) in s.deps.iter().enumerate() {
                if !index.contains_key(d.as_str()) {
                    let known: Vec<&str> = index.keys().copied().collect();
                    errors.push(
                        IrError::new(
                            Some(&s.id),
                            format!("/steps/{i}/deps/{k}"),
                            "unknown_dep",
                            format!("step {:?} depends on unknown step {d:?}", s.id),
                        )
                        .hint(format!("known ids: {}", known.join(", "))),
                    );
                }
            }
            let mut refs = vec![];
            collect_refs(
                &s.args,
                &format!("/steps/{i}/args"),
                &mut refs,
                &mut errors,
                &s.id,
            );
            for (path, r) in refs {
                if !index.contains_key(r.as_str()) {
                    errors.push(IrError::new(
                        Some(&s.id),
                        path,
                        "bad_ref",
                        format!("reference to unknown step {r:?}"),
                    ));
                } else if !s.deps.contains(&r) {
                    errors.push(
                        IrError::new(
                            Some(&s.id),
                            path,
                            "undeclared_ref",
                            format!(
                                "step {:?} uses the result of {r:?} without listing it in deps",
                                s.id
                            ),
                        )
                        .hint(format!("add {r:?} to deps")),
                    );
                }
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        // Kahn's algorithm, smallest original index first.
        let n = self.steps.len();
        let mut indeg = vec![0usize; n];
        let mut users: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); n];
        for (i, s) in self.steps.iter().enumerate() {
            let ds: BTreeSet<usize> = s
                .deps
                .iter()
                .filter_map(|d| index.get(d.as_str()).copied())
                .collect();
            indeg[i] = ds.len();
            for d in ds {
                users[d].insert(i);
            }
        }
        let mut ready: BTreeSet<usize> = (0..n).filter(|i| indeg[*i] == 0).collect();
        let mut order = vec![];
        while let Some(i) = ready.pop_first() {
            order.push(i);
            for &u in &users[i] {
                indeg[u] -= 1;
                if indeg[u] == 0 {
                    ready.insert(u);
                }
            }
        }
        if order.len() < n {
            let cycle = self.find_cycle(&index, &order);
            let first = cycle.first().cloned().unwrap_or_default();
            let i = index.get(first.as_str()).copied().unwrap_or(0);
            return Err(vec![
                IrError::new(
                    Some(&first),
                    format!("/steps/{i}/deps"),
                    "cycle",
                    format!("dependency cycle: {}", cycle.join(" -> ")),
                )
                .hint("a step can only depend on steps that do not depend on it"),
            ]);
        }
        Ok(order)
    }

    /// One cycle among the steps not in `done`, as ids `a -> b -> a`.
    fn find_cycle(&self, index: &BTreeMap<&str, usize>, done: &[usize]) -> Vec<String> {
        let left: BTreeSet<usize> = (0..self.steps.len())
            .filter(|i| !done.contains(i))
            .collect();
        let Some(&start) = left.first() else {
            return vec![];
        };
        // Walk deps inside `left` until a node repeats (every node in
        // `left` has a dep in `left`).
        let mut path = vec![start];
        let mut cur = start;
        loop {
            let next = self.steps[cur]
                .deps
                .iter()
                .filter_map(|d| index.get(d.as_str()).copied())
                .filter(|d| left.contains(d))
                .min();
            let Some(next) = next else { break };
            if let Some(pos) = path.iter().position(|p| *p == next) {
                let mut c: Vec<String> = path[pos..]
                    .iter()
                    .map(|i| self.steps[*i].id.clone())
                    .collect();
                c.push(self.steps[next].id.clone());
                return c;
            }
            path.push(next);
            cur = next;
            if path.len() > self.steps.len() + 1 {
                break;
            }
        }
        path.iter().map(|i| self.steps[*i].id.clone()).collect()
    }

    /// Checks against the catalog: every capability exists (closest
    /// suggestions otherwise) and literal arguments fit its input schema
    /// (references are unknown values: partial mode). The policy is left
    /// to preflight and governance of the compiled plan.
    pub fn check_catalog(&self, catalog: &dyn Catalog) -> Vec<IrError> {
        let mut errors = vec![];
        for (i, s) in self.steps.iter().enumerate() {
            let Some(m) = catalog.get(&s.capability) else {
                let closest = catalog.closest(&s.capability, 3);
                let mut e = IrError::new(
                    Some(&s.id),
                    format!("/steps/{i}/capability"),
                    "unknown_capability",
                    format!("unknown capability {}", s.capability),
                );
                if !closest.is_empty() {
                    e = e.hint(format!("closest: {}", closest.join(", ")));
                }
                errors.push(e);
                continue;
            };
            let partial = partial_args(&s.args);
            for p in schema::check_partial_args(&m, &partial) {
                if p.severity != Severity::Error {
                    continue;
                }
                let mut e = IrError::new(
                    Some(&s.id),
                    format!("/steps/{i}/args{}", json_pointer_tail(&p.path)),
                    p.code.as_str(),
                    format!("{}: {}", s.capability, p.message),
                );
                e.hint = p.hint.clone();
                errors.push(e);
            }
        }
        errors
    }

    /// Compiles to RTFS (structure checked first; the catalog is not
    /// consulted: see [`PlanIr::check_catalog`]).
    pub fn compile(&self) -> Result<Compiled, Vec<IrError>> {
        let order = self.check_structure()?;
        let pos: BTreeMap<&str, usize> = order
            .iter()
            .enumerate()
            .map(|(p, &i)| (self.steps[i].id.as_str(), p))
            .collect();
        let sym = |id: &str| format!("s{}", pos.get(id).map_or(0, |p| p + 1));
        let mut errors = vec![];
        let mut forms: Vec<Value> = vec![];
        for &i in &order {
            let s = &self.steps[i];
            let mut call = vec![Value::Symbol("call".into()), Value::keyword(&s.capability)];
            let path = format!("/steps/{i}/args");
            match &s.args {
                Json::Null => {}
                Json::Array(a) => {
                    for (k, x) in a.iter().enumerate() {
                        match arg_value(x, &sym, &format!("{path}/{k}"), &s.id) {
                            Ok(v) => call.push(v),
                            Err(e) => errors.push(e),
                        }
                    }
                }
                other => match arg_value(other, &sym, &path, &s.id) {
                    Ok(v) => call.push(v),
                    Err(e) => errors.push(e),
                },
            }
            let name = if s.name.trim().is_empty() {
                s.capability.clone()
            } else {
                s.name.trim().to_string()
            };
            forms.push(Value::list(vec![
                Value::Symbol("step".into()),
                Value::string(&name),
                Value::list(call),
            ]));
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let used: BTreeSet<&str> = self
            .steps
            .iter()
            .flat_map(|s| s.deps.iter().map(String::as_str))
            .collect();
        let last = order.last().copied();
        let layout: Vec<LayoutStep> = order
            .iter()
            .zip(forms)
            .map(|(&i, form)| {
                let step = &self.steps[i];
                LayoutStep {
                    name: sym(&step.id),
                    form,
                    deps: step.deps.iter().map(|d| sym(d)).collect(),
                    bind: used.contains(step.id.as_str()) || Some(i) == last,
                }
            })
            .collect();
        let result = last.map(|i| sym(&self.steps[i].id));
        let plan = layout_plan(&layout, result.as_deref());
        Ok(Compiled {
            rtfs: rtfs::pretty(&plan, PLAN_WIDTH),
            plan,
            order,
        })
    }
}

/// A schema problem's JSON Pointer, made relative to the args pointer.
fn json_pointer_tail(p: &str) -> String {
    if p.is_empty() || p.starts_with('/') {
        p.to_string()
    } else {
        format!("/{p}")
    }
}

/// True when `j` is a reference object.
pub fn as_ref(j: &Json) -> Option<(&str, Option<&str>)> {
    let o = j.as_object()?;
    let r = o.get(REF_KEY)?.as_str()?;
    let get = o.get(GET_KEY).and_then(Json::as_str);
    Some((r, get))
}

fn collect_refs(
    j: &Json,
    path: &str,
    out: &mut Vec<(String, String)>,
    errors: &mut Vec<IrError>,
    step: &str,
) {
    match j {
        Json::Object(o) => {
            if o.contains_key(EXPR_KEY) {
                errors.push(
                    IrError::new(
                        Some(step),
                        path,
                        "expr_not_allowed",
                        "computed arguments ($expr) are not allowed in the IR".into(),
                    )
                    .hint("use literal values or {\"$ref\": \"ID\"}"),
                );
                return;
            }
            if o.contains_key(REF_KEY) {
                match as_ref(j) {
                    Some((r, _)) if o.keys().all(|k| k == REF_KEY || k == GET_KEY) => {
                        out.push((path.to_string(), r.to_string()))
                    }
                    _ => errors.push(IrError::new(
                        Some(step),
                        path,
                        "bad_ref",
                        "a reference is {\"$ref\": \"ID\"} with an optional \"get\": \"KEY\""
                            .into(),
                    )),
                }
                return;
            }
            for (k, v) in o {
                collect_refs(
                    v,
                    &format!("{path}/{}", escape_pointer(k)),
                    out,
                    errors,
                    step,
                );
            }
        }
        Json::Array(a) => {
            for (i, v) in a.iter().enumerate() {
                collect_refs(v, &format!("{path}/{i}"), out, errors, step);
            }
        }
        _ => {}
    }
}

fn escape_pointer(k: &str) -> String {
    k.replace('~', "~0").replace('/', "~1")
}

fn has_ref(j: &Json) -> bool {
    match j {
        Json::Object(o) => o.contains_key(REF_KEY) || o.values().any(has_ref),
        Json::Array(a) => a.iter().any(has_ref),
        _ => false,
    }
}

/// The arguments as preflight sees them: literals known, references unknown.
fn partial_args(args: &Json) -> Vec<PartialArg> {
    let one = |j: &Json| -> PartialArg {
        if !has_ref(j) {
            return PartialArg::Known(rtfs::from_json(j));
        }
        if as_ref(j).is_some() {
            return PartialArg::Unknown;
        }
        match j {
            Json::Object(o) => PartialArg::Map {
                entries: o
                    .iter()
                    .map(|(k, v)| (k.clone(), (!has_ref(v)).then(|| rtfs::from_json(v))))
                    .collect(),
                open: false,
            },
            _ => PartialArg::Unknown,
        }
    };
    match args {
        Json::Null => vec![],
        Json::Array(a) => a.iter().map(one).collect(),
        other => vec![one(other)],
    }
}

/// A JSON argument as an RTFS value, references as step symbols.
fn arg_value(
    j: &Json,
    sym: &dyn Fn(&str) -> String,
    path: &str,
    step: &str,
) -> Result<Value, IrError> {
    if let Some((r, get)) = as_ref(j) {
        let s = Value::Symbol(sym(r).as_str().into());
        return Ok(match get {
            Some(k) => Value::list(vec![
                Value::Symbol("get".into()),
                s,
                rtfs::json::json_key(k),
            ]),
            None => s,
        });
    }
    match j {
        Json::Object(o) => {
            if o.contains_key(EXPR_KEY) {
                return Err(IrError::new(
                    Some(step),
                    path,
                    "expr_not_allowed",
                    "computed arguments ($expr) are not allowed in the IR".into(),
                ));
            }
            let mut entries = vec![];
            for (k, v) in o {
                entries.push((
                    rtfs::json::json_key(k),
                    arg_value(v, sym, &format!("{path}/{}", escape_pointer(k)), step)?,
                ));
            }
            Ok(Value::map(entries))
        }
        Json::Array(a) => {
            let mut items = vec![];
            for (i, v) in a.iter().enumerate() {
                items.push(arg_value(v, sym, &format!("{path}/{i}"), step)?);
            }
            Ok(Value::vector(items))
        }
        Json::Number(n) if n.as_i64().is_none() && n.as_f64().is_none_or(|f| !f.is_finite()) => {
            Err(IrError::new(
                Some(step),
                path,
                "wrong_type",
                format!("number {n} is out of range"),
            ))
        }
        other => Ok(rtfs::from_json(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ir(j: Json) -> PlanIr {
        PlanIr::from_json(&j).unwrap()
    }

    #[test]
    fn compiles_chain_with_let_and_refs() {
        let p = ir(json!({"steps": [
            {"id": "read", "name": "Read", "capability": ":ccos.file.read", "args": {"path": "a.txt"}},
            {"id": "count", "name": "Count", "capability": "ccos.text.count_words",
             "args": {"text": {"$ref": "read"}}, "deps": ["read"]}
        ]}));
        let c = p.compile().unwrap();
        assert_eq!(
            c.rtfs,
            "(let [s1 (step \"Read\" (call :ccos.file.read {:path \"a.txt\"}))\n      s2 (step \"Count\" (call :ccos.text.count_words {:text s1}))]\n  s2)"
        );
        assert!(rtfs::parse(&c.rtfs).is_ok());
    }

    #[test]
    fn independent_steps_become_parallel_and_order_is_stable() {
        let p = ir(json!([
            {"id": "c", "capability": "ccos.math.add", "args": [{"$ref": "a"}, {"$ref": "b"}], "deps": ["b", "a"]},
            {"id": "a", "capability": "ccos.math.add", "args": [1, 2]},
            {"id": "b", "capability": "ccos.math.mul", "args": [3, 4]}
        ]));
        let c = p.compile().unwrap();
        assert_eq!(c.order, vec![1, 2, 0]);
        assert!(c.rtfs.contains("[s1 s2] (step-parallel"), "{}", c.rtfs);
        assert!(c.rtfs.contains("(call :ccos.math.add s1 s2)"), "{}", c.rtfs);
        assert_eq!(p.compile().unwrap().rtfs, c.rtfs);
        let v = rtfs::eval_str(
            &c.rtfs
                .replace("call :ccos.math.add", "+")
                .replace("call :ccos.math.mul", "*"),
        );
        assert_eq!(v.unwrap().to_string(), "15");
    }

    #[test]
    fn structural_errors_name_step_and_path() {
        let p = ir(json!({"steps": [
            {"id": "a", "capability": "x", "deps": ["b"]},
            {"id": "b", "capability": "x", "deps": ["a"]},
        ]}));
        let e = p.compile().unwrap_err();
        assert_eq!(e[0].code, "cycle");
        assert!(e[0].message.contains("a -> b -> a"), "{}", e[0].message);
        let p = ir(json!({"steps": [
            {"id": "a", "capability": "x", "deps": ["zz"]},
            {"id": "a", "capability": "x"},
            {"id": "", "capability": "x", "args": {"t": {"$ref": "a"}}},
        ]}));
        let codes: Vec<String> = p
            .check_structure()
            .unwrap_err()
            .into_iter()
            .map(|e| e.code)
            .collect();
        assert_eq!(
            codes,
            ["duplicate_id", "empty_id", "unknown_dep", "undeclared_ref"]
        );
        let e = PlanIr::parse("{\"steps\": [{\"id\": 1}]}").unwrap_err();
        assert_eq!(e[0].path, "/steps/0/capability");
        assert!(
            PlanIr::parse("{\"steps\": [").unwrap_err()[0]
                .message
                .contains("line 1")
        );
        let p = ir(json!([{"id": "a", "capability": "x", "args": {"$expr": "(+ 1 2)"}}]));
        assert_eq!(p.check_structure().unwrap_err()[0].code, "expr_not_allowed");
    }

    #[test]
    fn catalog_checks_use_schemas() {
        let mp = ccos_marketplace::Marketplace::new().unwrap();
        ccos_marketplace::builtins::install(&mp, Default::default()).unwrap();
        let p = ir(json!([
            {"id": "a", "capability": "ccos.math.add", "args": [1, "two"]},
            {"id": "b", "capability": "ccos.echo", "args": {"mesage": "x"}},
            {"id": "c", "capability": "ccos.ecko", "args": {}},
            {"id": "d", "capability": "ccos.text.count_words", "args": {"text": {"$ref": "a"}}, "deps": ["a"]}
        ]));
        let e = p.check_catalog(&mp);
        let codes: Vec<(&str, &str)> = e
            .iter()
            .map(|e| (e.step.as_deref().unwrap_or(""), e.code.as_str()))
            .collect();
        assert!(codes.contains(&("a", "wrong_type")), "{codes:?}");
        assert!(codes.contains(&("b", "missing_key")), "{codes:?}");
        assert!(codes.contains(&("c", "unknown_capability")), "{codes:?}");
        assert!(!codes.iter().any(|(s, _)| *s == "d"), "{codes:?}");
        let c = e.iter().find(|e| e.code == "unknown_capability").unwrap();
        assert!(
            c.hint.as_deref().unwrap_or("").contains("ccos.echo"),
            "{c:?}"
        );
        assert_eq!(
            e.iter()
                .find(|e| e.step.as_deref() == Some("a"))
                .unwrap()
                .path,
            "/steps/0/args/1"
        );
    }
}
