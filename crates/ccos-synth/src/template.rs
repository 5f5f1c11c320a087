//! The three planner templates of spec 026, built as RTFS values and
//! printed with `rtfs::pretty` (so they always parse, and identical inputs
//! print identically). The planner reads its inputs from a `context` map
//! bound before evaluation (`RunOptions::bindings`).
//!
//! - direct call: `(call :id {:k (get context :k)})`;
//! - adapter + call: checks the source keys the call needs, then calls with
//!   `context-adapted` (renames, coercions, defaults) or answers
//!   `requires-agent` with the missing keys;
//! - requires-agent: names the stub capability and the missing keys.
//!
//! Every template returns a map with `:status` (`"processing"` or
//! `"requires-agent"`).

use rtfs::Value;
use serde::Serialize;

/// Width the planners are printed at.
pub const WIDTH: usize = 80;

/// Which template a planner uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Template {
    /// A direct call (perfect match).
    Direct,
    /// Adapters, then the call.
    Adapter,
    /// No viable candidate.
    RequiresAgent,
}

impl Template {
    /// Kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Template::Direct => "direct",
            Template::Adapter => "adapter",
            Template::RequiresAgent => "requires-agent",
        }
    }
}

/// A call to emit: the candidate id, whether its arguments are positional,
/// and each argument as (input key, expression over `context`).
#[derive(Debug, Clone)]
pub struct CallSpec {
    /// Capability (or agent) id.
    pub id: String,
    /// Positional arguments (`(call :id a b)`) rather than one map.
    pub positional: bool,
    /// (input key, value expression), in the candidate's input order.
    pub args: Vec<(String, Value)>,
}

fn sym(s: &str) -> Value {
    Value::Symbol(s.into())
}

fn kw(s: &str) -> Value {
    Value::keyword(s)
}

fn list(v: Vec<Value>) -> Value {
    Value::list(v)
}

fn call_form(spec: &CallSpec, arg_of: impl Fn(&str, &Value) -> Value) -> Value {
    let mut items = vec![sym("call"), kw(&spec.id)];
    if spec.positional {
        items.extend(spec.args.iter().map(|(k, e)| arg_of(k, e)));
    } else {
        items.push(Value::map(
            spec.args.iter().map(|(k, e)| (kw(k), arg_of(k, e))),
        ));
    }
    list(items)
}

fn header(lines: &[String]) -> String {
    lines.iter().map(|l| format!(";; {l}\n")).collect()
}

/// Direct call template.
pub fn emit_direct(spec: &CallSpec, comment: &[String]) -> String {
    let body = list(vec![
        sym("do"),
        list(vec![
            sym("let"),
            Value::vector(vec![sym("result"), call_form(spec, |_, e| e.clone())]),
            Value::map([
                (kw("status"), Value::string("processing")),
                (kw("result"), sym("result")),
                (kw("context"), sym("context")),
            ]),
        ]),
    ]);
    format!("{}{}\n", header(comment), rtfs::pretty(&body, WIDTH))
}

/// Adapter + call template; `check` are the context keys that must be
/// present (a required input's source without default).
pub fn emit_adapter(spec: &CallSpec, check: &[String], comment: &[String]) -> String {
    let adapted = Value::map(spec.args.iter().map(|(k, e)| (kw(k), e.clone())));
    let call = if spec.positional {
        call_form(spec, |k, _| {
            list(vec![sym("get"), sym("context-adapted"), kw(k)])
        })
    } else {
        list(vec![sym("call"), kw(&spec.id), sym("context-adapted")])
    };
    let missing = list(vec![
        sym("filter"),
        list(vec![
            sym("fn"),
            Value::vector(vec![sym("k")]),
            list(vec![
                sym("nil?"),
                list(vec![sym("get"), sym("context"), sym("k")]),
            ]),
        ]),
        Value::vector(check.iter().map(|k| kw(k)).collect()),
    ]);
    let body = list(vec![
        sym("do"),
        list(vec![
            sym("let"),
            Value::vector(vec![sym("missing"), missing]),
            list(vec![
                sym("if"),
                list(vec![sym("empty?"), sym("missing")]),
                list(vec![
                    sym("let"),
                    Value::vector(vec![sym("context-adapted"), adapted, sym("result"), call]),
                    Value::map([
                        (kw("status"), Value::string("processing")),
                        (kw("result"), sym("result")),
                        (kw("context"), sym("context-adapted")),
                    ]),
                ]),
                Value::map([
                    (kw("status"), Value::string("requires-agent")),
                    (kw("missing"), sym("missing")),
                    (kw("context"), sym("context")),
                ]),
            ]),
        ]),
    ]);
    format!("{}{}\n", header(comment), rtfs::pretty(&body, WIDTH))
}

/// The requires-agent body alone (also the body of a registered stub).
pub fn requires_agent_body(stub_id: &str, missing: &[String]) -> Value {
    Value::map([
        (kw("status"), Value::string("requires-agent")),
        (kw("required_capability"), Value::string(stub_id)),
        (
            kw("missing"),
            Value::vector(missing.iter().map(|k| kw(k)).collect()),
        ),
        (kw("context"), sym("context")),
    ])
}

/// Requires-agent fallback template.
pub fn emit_requires_agent(stub_id: &str, missing: &[String], comment: &[String]) -> String {
    let body = list(vec![sym("do"), requires_agent_body(stub_id, missing)]);
    format!("{}{}\n", header(comment), rtfs::pretty(&body, WIDTH))
}
