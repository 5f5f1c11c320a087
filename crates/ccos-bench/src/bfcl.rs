//! The end-to-end BFCL mode (`ccos eval bfcl`): what `ccos plan` answers
//! on the Berkeley Function-Calling Leaderboard's sets, not what the
//! ranking puts first (issue #15, "Measure it, in the project").
//!
//! For each case of `../shared/bench/bfcl` (sets `simple`, `multiple`,
//! `parallel`, `parallel_multiple`, `irrelevance`; format in
//! `../shared/bench/README.md`):
//!
//! 1. a fresh in-memory [`Marketplace`] holds the built-ins and the case's
//!    functions as capabilities ([`function_manifest`]: the BFCL
//!    JSON-schema-like parameters converted to JSON Schema — `dict` →
//!    `object`, `float` → `number`, `tuple` → `array`, `any` → no type —;
//!    provider RTFS with a body that throws: never executed);
//! 2. the deterministic planner `ccos plan` uses ([`planner_for`]: the
//!    built-in pattern rules, the default resolution without the semantic
//!    strategy, the default policy — what `World::planner` builds in a
//!    fresh home without a model or an LLM) plans the question;
//! 3. the plan's `(call :id args)` forms are read back ([`plan_calls`]):
//!    arguments that are literals are compared, any other argument counts
//!    as not equal.
//!
//! Figures per set and overall ([`SetSummary`]): share of relevant cases
//! whose plan calls the gold function(s) (every gold call's function, as
//! many times as gold calls it); share whose calls are exactly the gold
//! calls with every argument acceptable (BFCL's rule: one plan call per
//! gold call, matched in any order; each argument's value in its
//! acceptable list, `""` = may be omitted, no argument the gold does not
//! list; numbers numerically, strings exactly, and as a second figure
//! case-insensitively); the requires-agent share; for `irrelevance`, the
//! share refused (requires-agent); and among requires-agent answers to
//! relevant cases, two diagnostics of why: the share where a gold
//! function was the top-ranked candidate of some sub-intent of the
//! decision trace (the planner found it; another clause, or the score
//! bar, sank the plan), and the share where it is the catalog's first
//! choice for an unserved sub-intent ranked without the planner's floors
//! (the ranking would find it; the absolute "fits" bars rejected it, as
//! issue #15 reports).
//!
//! Cases are split dev/test by [`Part`] on their index in their set file,
//! like the other datasets: calibrate on dev, report test.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use ccos_governance::Policy;
use ccos_marketplace::builtins::{self, BuiltinConfig};
use ccos_marketplace::{CapabilityManifest, Marketplace, ProviderSpec, TrustTier};
use ccos_planner::planner::PlanResult;
use ccos_planner::resolution::{CatalogResolution, ResolutionStrategy};
use ccos_planner::{CompositeResolution, PatternDecomposition, Planner};
use rtfs::{Expr, ExprKind};
use serde::Serialize;
use serde_json::{Value as Json, json};

use crate::{EvalError, Part};

/// The BFCL sets: name, question file (answers under `possible_answer/`
/// with the same name; none for `irrelevance`).
pub const SETS: [(&str, &str); 5] = [
    ("simple", "BFCL_v4_simple_python.json"),
    ("multiple", "BFCL_v4_multiple.json"),
    ("parallel", "BFCL_v4_parallel.json"),
    ("parallel_multiple", "BFCL_v4_parallel_multiple.json"),
    ("irrelevance", "BFCL_v4_irrelevance.json"),
];

/// The set whose right answer is to call nothing.
pub const IRRELEVANCE: &str = "irrelevance";

/// Issue #15's bar: at least this share of relevant cases call the gold
/// function.
pub const CALLED_MIN_PERCENT: f64 = 70.0;
/// Issue #15's bar: at least this share with all arguments right.
pub const ARGS_MIN_PERCENT: f64 = 40.0;
/// Issue #15's bar: at least this share of irrelevance cases refused.
pub const REFUSED_MIN_PERCENT: f64 = 90.0;

/// The body of every BFCL capability: planning only, never executed.
const NEVER_EXECUTED: &str = "(throw \"BFCL functions are planned, never executed\")";

/// One function of a case, as BFCL specifies it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Function {
    /// The function name (gold calls use it).
    pub name: String,
    /// Its description.
    pub description: String,
    /// Its parameters, in BFCL's JSON-schema-like form.
    pub parameters: Json,
}

/// One gold call: the function and, per argument, the acceptable values
/// (`""` = may be omitted).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GoldCall {
    /// The function name.
    pub function: String,
    /// Acceptable values by argument name.
    pub args: BTreeMap<String, Vec<Json>>,
}

/// One BFCL case.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Case {
    /// The set (`simple`, ..., `irrelevance`).
    pub set: String,
    /// Its position in the set file (the dev/test split uses it).
    pub index: usize,
    /// BFCL's id (`simple_python_0`).
    pub id: String,
    /// The user's request.
    pub question: String,
    /// The functions offered.
    pub functions: Vec<Function>,
    /// The gold calls (empty for `irrelevance`).
    pub gold: Vec<GoldCall>,
}

fn io_err(path: &Path, e: impl std::fmt::Display) -> EvalError {
    EvalError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

fn parse_err(path: &Path, message: String) -> EvalError {
    EvalError::Parse {
        path: path.to_path_buf(),
        message,
    }
}

/// The JSON lines of `path`, each with its 1-based line number.
fn json_lines(path: &Path) -> Result<Vec<(usize, Json)>, EvalError> {
    let text = std::fs::read_to_string(path).map_err(|e| io_err(path, e))?;
    let mut out = vec![];
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let j = serde_json::from_str(line)
            .map_err(|e| parse_err(path, format!("line {}: {e}", i + 1)))?;
        out.push((i + 1, j));
    }
    Ok(out)
}

/// Loads one set of `dir` (`../shared/bench/bfcl`) with its answers.
pub fn load_set(dir: &Path, set: &str) -> Result<Vec<Case>, EvalError> {
    let Some((_, file)) = SETS.iter().find(|(name, _)| *name == set) else {
        return Err(EvalError::UnknownDataset(format!("bfcl set {set}")));
    };
    let path = dir.join(file);
    let mut answers: BTreeMap<String, Vec<GoldCall>> = BTreeMap::new();
    let answers_path = dir.join("possible_answer").join(file);
    if set != IRRELEVANCE {
        for (line, j) in json_lines(&answers_path)? {
            let id = j["id"]
                .as_str()
                .ok_or_else(|| parse_err(&answers_path, format!("line {line}: no \"id\"")))?;
            let gold = gold_calls(&j["ground_truth"])
                .map_err(|m| parse_err(&answers_path, format!("line {line} (case {id}): {m}")))?;
            answers.insert(id.to_string(), gold);
        }
    }
    let mut cases = vec![];
    for (index, (line, j)) in json_lines(&path)?.into_iter().enumerate() {
        let id = j["id"]
            .as_str()
            .ok_or_else(|| parse_err(&path, format!("line {line}: no \"id\"")))?
            .to_string();
        let at = |m: String| parse_err(&path, format!("line {line} (case {id}): {m}"));
        let question = question_text(&j["question"]).map_err(at)?;
        let functions = j["function"]
            .as_array()
            .ok_or_else(|| at("no \"function\" list".into()))?
            .iter()
            .map(|f| {
                Ok(Function {
                    name: f["name"]
                        .as_str()
                        .ok_or_else(|| "a function without \"name\"".to_string())?
                        .to_string(),
                    description: f["description"].as_str().unwrap_or("").to_string(),
                    parameters: f.get("parameters").cloned().unwrap_or(Json::Null),
                })
            })
            .collect::<Result<Vec<_>, String>>()
            .map_err(at)?;
        let gold = if set == IRRELEVANCE {
            vec![]
        } else {
            answers.remove(&id).ok_or_else(|| {
                parse_err(
                    &answers_path,
                    format!("no ground truth for case {id} of {}", path.display()),
                )
            })?
        };
        cases.push(Case {
            set: set.to_string(),
            index,
            id,
            question,
            functions,
            gold,
        });
    }
    Ok(cases)
}

/// The user's words of a case: the `user` messages of every turn, joined.
fn question_text(q: &Json) -> Result<String, String> {
    let mut parts = vec![];
    for turn in q.as_array().ok_or("\"question\" is not a list")? {
        for m in turn.as_array().ok_or("a turn is not a list of messages")? {
            if m["role"] == "user"
                && let Some(c) = m["content"].as_str()
            {
                parts.push(c.trim().to_string());
            }
        }
    }
    if parts.is_empty() {
        return Err("no user message".into());
    }
    Ok(parts.join("\n"))
}

/// `ground_truth`: a list of `{function: {arg: [acceptable values]}}`.
fn gold_calls(gt: &Json) -> Result<Vec<GoldCall>, String> {
    let mut out = vec![];
    for call in gt.as_array().ok_or("\"ground_truth\" is not a list")? {
        let obj = call.as_object().ok_or("a gold call is not an object")?;
        for (function, args) in obj {
            let args = args
                .as_object()
                .ok_or_else(|| format!("the arguments of {function} are not an object"))?
                .iter()
                .map(|(k, v)| {
                    let acc = match v {
                        Json::Array(a) => a.clone(),
                        other => vec![other.clone()],
                    };
                    (k.clone(), acc)
                })
                .collect();
            out.push(GoldCall {
                function: function.clone(),
                args,
            });
        }
    }
    Ok(out)
}

// --------------------------------------------------------------------------
// Functions as capabilities
// --------------------------------------------------------------------------

/// BFCL's parameter schema as JSON Schema: BFCL writes `dict` for objects
/// and Python type names (`float`, `tuple`, `any`...); non-schema keys
/// (`optional`) are dropped, the rest (description, enum, default,
/// format, bounds) kept.
pub fn json_schema(s: &Json) -> Json {
    let Some(obj) = s.as_object() else {
        return json!({});
    };
    let mut out = serde_json::Map::new();
    for (k, v) in obj {
        match k.as_str() {
            "type" => {
                let ty = match v.as_str().map(str::to_ascii_lowercase).as_deref() {
                    Some("dict" | "object") => Some("object"),
                    Some("float" | "number" | "double") => Some("number"),
                    Some("integer" | "int") => Some("integer"),
                    Some("string" | "str") => Some("string"),
                    Some("boolean" | "bool") => Some("boolean"),
                    Some("array" | "list" | "tuple") => Some("array"),
                    Some("null") => Some("null"),
                    _ => None,
                };
                if let Some(ty) = ty {
                    out.insert("type".into(), json!(ty));
                }
            }
            "properties" => {
                let props: serde_json::Map<String, Json> = v
                    .as_object()
                    .map(|p| p.iter().map(|(n, s)| (n.clone(), json_schema(s))).collect())
                    .unwrap_or_default();
                out.insert("properties".into(), Json::Object(props));
            }
            "items" | "additionalProperties" if v.is_object() => {
                out.insert(k.clone(), json_schema(v));
            }
            "optional" => {}
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    Json::Object(out)
}

/// The top-level input schema of a function: always an object.
fn input_schema(parameters: &Json) -> Json {
    let mut s = json_schema(parameters);
    if let Some(o) = s.as_object_mut() {
        o.insert("type".into(), json!("object"));
        o.entry("properties").or_insert_with(|| json!({}));
    }
    s
}

/// The capability of a BFCL function: id from its name (escaped into id
/// characters when needed), its description, the converted parameters;
/// provider RTFS with a body that throws (planned, never executed); trust
/// tier `community` like imported operations; effects unknown (none
/// declared).
pub fn function_manifest(id: &str, f: &Function) -> CapabilityManifest {
    CapabilityManifest {
        id: id.to_string(),
        name: f.name.clone(),
        description: f.description.clone(),
        version: "0".into(),
        input_schema: input_schema(&f.parameters),
        output_schema: None,
        provider: ProviderSpec::Rtfs {
            body: NEVER_EXECUTED.into(),
        },
        trust_tier: TrustTier::Community,
        local: false,
        effects: BTreeSet::new(),
        examples: vec![],
    }
}

/// The marketplace of one case: the built-ins plus the case's functions;
/// returns it with the map from capability id to function name.
pub fn case_marketplace(
    case: &Case,
) -> Result<(Arc<Marketplace>, BTreeMap<String, String>), String> {
    let mp = Marketplace::new().map_err(|e| e.to_string())?;
    builtins::install(&mp, BuiltinConfig::default()).map_err(|e| e.to_string())?;
    let mut names = BTreeMap::new();
    let mut manifests = vec![];
    for f in &case.functions {
        let base = ccos_marketplace::ids::encode_name(&f.name, true);
        let mut id = base.clone();
        let mut n = 2;
        while names.contains_key(&id) || mp.contains(&id) {
            id = format!("{base}-{n}");
            n += 1;
        }
        names.insert(id.clone(), f.name.clone());
        manifests.push(function_manifest(&id, f));
    }
    mp.replace_all(manifests)
        .map_err(|e| format!("registering the functions: {e}"))?;
    Ok((Arc::new(mp), names))
}

/// The planner `ccos plan` uses in a fresh home without a model or an
/// LLM (`World::planner`): the built-in pattern rules, the default
/// resolution (`CompositeResolution::default_for` without the semantic
/// strategy), the default policy.
pub fn planner_for(mp: Arc<Marketplace>) -> Result<Planner, String> {
    let patterns = PatternDecomposition::builtin().map_err(|e| e.to_string())?;
    Ok(Planner::new(mp.clone(), Policy::default(), patterns)
        .with_resolution(Box::new(CompositeResolution::default_for(mp, None))))
}

// --------------------------------------------------------------------------
// Reading the plan's calls
// --------------------------------------------------------------------------

/// One argument of a plan call.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Arg {
    /// A literal, as JSON.
    Literal(Json),
    /// Anything else (a symbol, an expression), printed: never equal to
    /// a gold value.
    Expr(String),
}

impl Arg {
    /// The literal value, if it is one.
    pub fn literal(&self) -> Option<&Json> {
        match self {
            Arg::Literal(j) => Some(j),
            Arg::Expr(_) => None,
        }
    }
}

/// A call's arguments by name; `None` when the call's argument is not a
/// map literal.
pub type Args = Option<BTreeMap<String, Arg>>;

/// One `(call :id args)` of a plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlanCall {
    /// The capability id.
    pub capability: String,
    /// The BFCL function name (the id for other capabilities).
    pub function: String,
    /// The arguments by name; `None` when the call's argument is not a
    /// map literal (a symbol, an expression).
    pub args: Args,
}

/// Every `(call :id args)` of `rtfs`, in source order, with literal
/// arguments as JSON.
pub fn plan_calls(rtfs: &str) -> Result<Vec<(String, Args)>, String> {
    let forms = rtfs::parse(rtfs).map_err(|e| e.to_string())?;
    let mut out = vec![];
    for form in &forms {
        form.walk(&mut |e: &Expr| {
            let Some(items) = e.as_list() else { return };
            if items.first().and_then(Expr::as_symbol) != Some("call") {
                return;
            }
            let Some(id) = items.get(1).and_then(Expr::as_keyword) else {
                return;
            };
            out.push((id.to_string(), call_args(items.get(2..).unwrap_or(&[]))));
        });
    }
    Ok(out)
}

/// The arguments of a call: none → an empty map; one map literal → its
/// entries, literal values as JSON and others printed; anything else
/// `None`.
fn call_args(args: &[Expr]) -> Args {
    match args {
        [] => Some(BTreeMap::new()),
        [one] => match &one.kind {
            ExprKind::Map(entries) => {
                let mut out = BTreeMap::new();
                for (k, v) in entries {
                    let key = match &k.kind {
                        ExprKind::Keyword(s) | ExprKind::Str(s) => s.to_string(),
                        _ => return None,
                    };
                    let value = v
                        .is_constant()
                        .then(|| rtfs::to_json(&v.to_value()).ok())
                        .flatten()
                        .map(Arg::Literal)
                        .unwrap_or_else(|| Arg::Expr(rtfs::print_expr(v)));
                    out.insert(key, value);
                }
                Some(out)
            }
            _ => None,
        },
        _ => None,
    }
}

// --------------------------------------------------------------------------
// Scoring (BFCL's rule)
// --------------------------------------------------------------------------

/// Whether `v` equals the acceptable value `a`: numbers numerically,
/// strings exactly (or case-insensitively with `ci`), lists element by
/// element, objects by BFCL's nested rule (each key's value in its
/// acceptable list, `""` = may be omitted).
pub fn value_matches(v: &Json, a: &Json, ci: bool) -> bool {
    match (v, a) {
        (Json::Number(x), Json::Number(y)) => match (x.as_f64(), y.as_f64()) {
            (Some(x), Some(y)) => (x - y).abs() <= x.abs().max(y.abs()).max(1.0) * 1e-9,
            _ => false,
        },
        (Json::String(x), Json::String(y)) => {
            x == y || (ci && x.to_lowercase() == y.to_lowercase())
        }
        (Json::Bool(x), Json::Bool(y)) => x == y,
        (Json::Null, Json::Null) => true,
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| value_matches(p, q, ci))
        }
        (Json::Object(x), Json::Object(y)) => {
            x.keys().all(|k| y.contains_key(k))
                && y.iter().all(|(k, acc)| {
                    let acc: Vec<Json> = match acc {
                        Json::Array(list) => list.clone(),
                        other => vec![other.clone()],
                    };
                    match x.get(k) {
                        Some(val) => acceptable(val, &acc, ci),
                        None => acc.iter().any(|a| a == ""),
                    }
                })
        }
        _ => false,
    }
}

/// Whether `v` is one of the acceptable values (`""` marks "may be
/// omitted" and matches only an empty string).
pub fn acceptable(v: &Json, acc: &[Json], ci: bool) -> bool {
    acc.iter().any(|a| value_matches(v, a, ci))
}

/// Whether a plan call's arguments are acceptable for `gold`: every
/// argument the call passes is a gold argument with a literal, acceptable
/// value; every gold argument it omits may be omitted.
pub fn call_matches(args: Option<&BTreeMap<String, Arg>>, gold: &GoldCall, ci: bool) -> bool {
    let Some(args) = args else { return false };
    args.iter().all(|(k, v)| {
        matches!((gold.args.get(k), v.literal()), (Some(acc), Some(v)) if acceptable(v, acc, ci))
    }) && gold
        .args
        .iter()
        .all(|(k, acc)| args.contains_key(k) || acc.iter().any(|a| a == ""))
}

/// Whether the plan calls every gold function at least as many times as
/// the gold calls it.
pub fn calls_gold_functions(calls: &[PlanCall], gold: &[GoldCall]) -> bool {
    let mut need: BTreeMap<&str, usize> = BTreeMap::new();
    for g in gold {
        *need.entry(&g.function).or_default() += 1;
    }
    !gold.is_empty()
        && need
            .iter()
            .all(|(f, n)| calls.iter().filter(|c| c.function == *f).count() >= *n)
}

/// BFCL's rule for a whole answer: exactly one plan call per gold call
/// (no other call), matched in any order, each with the gold function and
/// acceptable arguments (a bipartite matching).
pub fn calls_match_gold(calls: &[PlanCall], gold: &[GoldCall], ci: bool) -> bool {
    if gold.is_empty() || calls.len() != gold.len() {
        return false;
    }
    let ok: Vec<Vec<bool>> = gold
        .iter()
        .map(|g| {
            calls
                .iter()
                .map(|c| c.function == g.function && call_matches(c.args.as_ref(), g, ci))
                .collect()
        })
        .collect();
    let mut owner: Vec<Option<usize>> = vec![None; calls.len()];
    fn augment(g: usize, ok: &[Vec<bool>], seen: &mut [bool], owner: &mut [Option<usize>]) -> bool {
        for c in 0..owner.len() {
            if ok[g][c] && !seen[c] {
                seen[c] = true;
                if owner[c].is_none_or(|o| augment(o, ok, seen, owner)) {
                    owner[c] = Some(g);
                    return true;
                }
            }
        }
        false
    }
    (0..gold.len()).all(|g| augment(g, &ok, &mut vec![false; calls.len()], &mut owner))
}

/// Whether, in a requires-agent answer, a gold function was the
/// top-ranked candidate (candidates first, then the rejected ones, best
/// first) of some sub-intent of the decision trace: the planner found it,
/// and the answer failed on another part of the goal (a clause nothing
/// serves) or on the score bar. Unserved sub-intents whose ranking the
/// catalog's floors emptied are [`gold_top_in_catalog`]'s business.
pub fn gold_top_ranked(
    result: &PlanResult,
    names: &BTreeMap<String, String>,
    gold: &[GoldCall],
) -> bool {
    if result.requires_agent.is_none() {
        return false;
    }
    let gold: BTreeSet<&str> = gold.iter().map(|g| g.function.as_str()).collect();
    result.trace.intents.iter().any(|t| {
        t.candidates
            .first()
            .or(t.rejected.first())
            .and_then(|c| names.get(&c.capability_id))
            .is_some_and(|n| gold.contains(n.as_str()))
    })
}

/// Whether a gold function is the catalog's first choice for a
/// sub-intent the planner could not serve, ranked without the planner's
/// floors (no minimum coverage, no minimum score): the ranking found it,
/// the absolute bars rejected it.
pub fn gold_top_in_catalog(
    result: &PlanResult,
    mp: &Arc<Marketplace>,
    names: &BTreeMap<String, String>,
    gold: &[GoldCall],
) -> Result<bool, String> {
    let Some(ra) = &result.requires_agent else {
        return Ok(false);
    };
    let gold: BTreeSet<&str> = gold.iter().map(|g| g.function.as_str()).collect();
    let catalog = CatalogResolution::new(mp.clone()).with_min_coverage(0.0);
    for m in &ra.missing {
        let Some(s) = result.sub_intents.iter().find(|s| s.id == m.sub_intent) else {
            continue;
        };
        let top = catalog.resolve(s, 1).map_err(|e| e.to_string())?;
        if top
            .first()
            .and_then(|c| names.get(&c.capability_id))
            .is_some_and(|n| gold.contains(n.as_str()))
        {
            return Ok(true);
        }
    }
    Ok(false)
}

// --------------------------------------------------------------------------
// Evaluation
// --------------------------------------------------------------------------

/// What `ccos plan` answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Answer {
    /// A plan.
    Plan,
    /// requires-agent.
    RequiresAgent,
    /// Planning failed (a planner error, e.g. a plan failing preflight).
    Error,
}

/// One case's result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CaseResult {
    /// The set.
    pub set: String,
    /// BFCL's id.
    pub id: String,
    /// What the planner answered.
    pub answer: Answer,
    /// The plan calls every gold function.
    pub called: bool,
    /// The plan's calls are the gold calls with acceptable arguments.
    pub args_exact: bool,
    /// The same with strings compared case-insensitively.
    pub args_ci: bool,
    /// For requires-agent on a relevant case: a gold function was the
    /// top-ranked candidate of some sub-intent in the decision trace.
    pub gold_top_ranked: Option<bool>,
    /// The same in the catalog's ranking without the planner's floors.
    pub gold_top_catalog: Option<bool>,
    /// The plan's calls.
    pub calls: Vec<PlanCall>,
    /// The planner's error, when planning failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// For requires-agent: why each unserved part is not served.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refusals: Vec<String>,
    /// With `explain`: the question and the planner's decision trace.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explain: Option<String>,
}

/// Plans one case and scores it; `explain` keeps the decision trace.
pub fn evaluate_case(case: &Case, explain: bool) -> CaseResult {
    let mut r = CaseResult {
        set: case.set.clone(),
        id: case.id.clone(),
        answer: Answer::Error,
        called: false,
        args_exact: false,
        args_ci: false,
        gold_top_ranked: None,
        gold_top_catalog: None,
        calls: vec![],
        error: None,
        refusals: vec![],
        explain: None,
    };
    let planned = case_marketplace(case).and_then(|(mp, names)| {
        let planner = planner_for(mp.clone())?;
        let result = planner.plan(&case.question).map_err(|e| e.to_string())?;
        Ok((result, mp, names))
    });
    let (result, mp, names) = match planned {
        Ok(p) => p,
        Err(e) => {
            r.error = Some(e);
            return r;
        }
    };
    if explain {
        r.explain = Some(format!(
            ";; {}\n{}{}",
            case.question,
            result.trace.explain(),
            result.rtfs.as_deref().unwrap_or("(requires-agent)")
        ));
    }
    let relevant = case.set != IRRELEVANCE;
    if let Some(ra) = &result.requires_agent {
        r.answer = Answer::RequiresAgent;
        r.refusals = ra
            .missing
            .iter()
            .map(|m| format!("{}: {}", m.description, m.reason))
            .collect();
        if relevant {
            r.gold_top_ranked = Some(gold_top_ranked(&result, &names, &case.gold));
            match gold_top_in_catalog(&result, &mp, &names, &case.gold) {
                Ok(top) => r.gold_top_catalog = Some(top),
                Err(e) => r.error = Some(format!("ranking the unserved sub-intents: {e}")),
            }
        }
        return r;
    }
    let Some(rtfs) = &result.rtfs else {
        r.error = Some("the planner returned neither a plan nor requires-agent".into());
        return r;
    };
    match plan_calls(rtfs) {
        Ok(calls) => {
            r.answer = Answer::Plan;
            r.calls = calls
                .into_iter()
                .map(|(id, args)| PlanCall {
                    function: names.get(&id).cloned().unwrap_or_else(|| id.clone()),
                    capability: id,
                    args,
                })
                .collect();
            if relevant {
                r.called = calls_gold_functions(&r.calls, &case.gold);
                r.args_exact = calls_match_gold(&r.calls, &case.gold, false);
                r.args_ci = calls_match_gold(&r.calls, &case.gold, true);
            }
        }
        Err(e) => r.error = Some(format!("reading the plan: {e}\n{rtfs}")),
    }
    r
}

/// The figures of one set (or of the relevant sets pooled).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SetSummary {
    /// The set, or `relevant` (the four relevant sets pooled).
    pub set: String,
    /// Cases evaluated.
    pub cases: usize,
    /// Cases in the set file (before the part and the limit).
    pub total_cases: usize,
    /// Plans.
    pub plans: usize,
    /// Requires-agent answers.
    pub requires_agent: usize,
    /// Planner errors.
    pub errors: usize,
    /// Relevant cases whose plan calls every gold function.
    pub called: usize,
    /// Relevant cases with exactly the gold calls, arguments acceptable.
    pub args_exact: usize,
    /// The same, strings case-insensitive.
    pub args_ci: usize,
    /// Requires-agent answers to relevant cases where a gold function was
    /// the top-ranked candidate of some sub-intent in the decision trace.
    pub gold_top_ranked: usize,
    /// The same in the catalog's ranking without the planner's floors.
    pub gold_top_catalog: usize,
    /// `called`, percent of the cases (relevant sets).
    pub called_percent: Option<f64>,
    /// `args_exact`, percent.
    pub args_exact_percent: Option<f64>,
    /// `args_ci`, percent.
    pub args_ci_percent: Option<f64>,
    /// Requires-agent, percent of the cases (for `irrelevance`: the share
    /// correctly refused).
    pub requires_agent_percent: Option<f64>,
    /// `gold_top_ranked`, percent of the requires-agent answers.
    pub gold_top_ranked_percent: Option<f64>,
    /// `gold_top_catalog`, percent of the requires-agent answers.
    pub gold_top_catalog_percent: Option<f64>,
    /// Wall seconds.
    pub seconds: f64,
}

fn pc(n: usize, d: usize) -> Option<f64> {
    (d > 0).then(|| 100.0 * n as f64 / d as f64)
}

/// Sums results into a summary.
pub fn summarize(
    set: &str,
    total_cases: usize,
    results: &[&CaseResult],
    seconds: f64,
) -> SetSummary {
    let mut s = SetSummary {
        set: set.to_string(),
        total_cases,
        seconds,
        ..SetSummary::default()
    };
    for r in results {
        s.cases += 1;
        match r.answer {
            Answer::Plan => s.plans += 1,
            Answer::RequiresAgent => s.requires_agent += 1,
            Answer::Error => s.errors += 1,
        }
        s.called += usize::from(r.called);
        s.args_exact += usize::from(r.args_exact);
        s.args_ci += usize::from(r.args_ci);
        s.gold_top_ranked += usize::from(r.gold_top_ranked == Some(true));
        s.gold_top_catalog += usize::from(r.gold_top_catalog == Some(true));
    }
    if set != IRRELEVANCE {
        s.called_percent = pc(s.called, s.cases);
        s.args_exact_percent = pc(s.args_exact, s.cases);
        s.args_ci_percent = pc(s.args_ci, s.cases);
        s.gold_top_ranked_percent = pc(s.gold_top_ranked, s.requires_agent);
        s.gold_top_catalog_percent = pc(s.gold_top_catalog, s.requires_agent);
    }
    s.requires_agent_percent = pc(s.requires_agent, s.cases);
    s
}

/// Issue #15's bars, calibrated on dev and reported on test.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BfclBars {
    /// Relevant cases calling the gold function, percent.
    pub called_percent: Option<f64>,
    /// At least [`CALLED_MIN_PERCENT`].
    pub called_met: bool,
    /// Relevant cases with all arguments right, percent.
    pub args_percent: Option<f64>,
    /// At least [`ARGS_MIN_PERCENT`].
    pub args_met: bool,
    /// Irrelevance cases refused, percent.
    pub refused_percent: Option<f64>,
    /// At least [`REFUSED_MIN_PERCENT`].
    pub refused_met: bool,
    /// All three at once.
    pub all_met: bool,
}

/// The whole run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BfclReport {
    /// The part evaluated.
    pub part: Part,
    /// Per-set limit applied.
    pub limit: Option<usize>,
    /// The planner measured.
    pub planner: String,
    /// One summary per set, then `relevant` (the four relevant sets
    /// pooled).
    pub sets: Vec<SetSummary>,
    /// The bars.
    pub bars: BfclBars,
    /// Wall seconds.
    pub seconds: f64,
    /// Every case.
    pub cases: Vec<CaseResult>,
}

/// Which cases to evaluate.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BfclOptions {
    /// The dev/test part (by case index in its set).
    pub part: Part,
    /// At most this many cases per set (after the part).
    pub limit: Option<usize>,
    /// Only the cases with one of these ids, or ids starting with one
    /// that ends in `_` (`parallel_`); all when empty.
    pub only: Vec<String>,
    /// Keep each case's question and decision trace (candidates, scores,
    /// why each was refused) in its result.
    pub explain: bool,
}

/// Whether `--only` value `only` selects case `id`: the id itself, or a
/// prefix ending in `_` (`simple_python_1` is not `simple_python_12`).
fn selects(only: &str, id: &str) -> bool {
    id == only || (only.ends_with('_') && id.starts_with(only))
}

/// Evaluates every set of `dir` (`../shared/bench/bfcl`).
pub fn evaluate(dir: &Path, opts: BfclOptions) -> Result<BfclReport, EvalError> {
    evaluate_sets(dir, &SETS.map(|(s, _)| s), opts)
}

/// Evaluates the named sets of `dir`.
pub fn evaluate_sets(
    dir: &Path,
    sets: &[&str],
    opts: BfclOptions,
) -> Result<BfclReport, EvalError> {
    let started = Instant::now();
    let mut summaries = vec![];
    let mut all = vec![];
    for set in sets {
        let t0 = Instant::now();
        let cases = load_set(dir, set)?;
        let chosen: Vec<&Case> = cases
            .iter()
            .filter(|c| opts.part.contains(c.index))
            .filter(|c| opts.only.is_empty() || opts.only.iter().any(|o| selects(o, &c.id)))
            .take(opts.limit.unwrap_or(usize::MAX))
            .collect();
        let results: Vec<CaseResult> = chosen
            .iter()
            .map(|c| evaluate_case(c, opts.explain))
            .collect();
        summaries.push(summarize(
            set,
            cases.len(),
            &results.iter().collect::<Vec<_>>(),
            t0.elapsed().as_secs_f64(),
        ));
        all.extend(results);
    }
    let relevant: Vec<&CaseResult> = all.iter().filter(|r| r.set != IRRELEVANCE).collect();
    let total_relevant: usize = summaries
        .iter()
        .filter(|s| s.set != IRRELEVANCE)
        .map(|s| s.total_cases)
        .sum();
    let seconds_relevant = summaries
        .iter()
        .filter(|s| s.set != IRRELEVANCE)
        .map(|s| s.seconds)
        .sum();
    let pooled = summarize("relevant", total_relevant, &relevant, seconds_relevant);
    let refused_percent = summaries
        .iter()
        .find(|s| s.set == IRRELEVANCE)
        .and_then(|s| s.requires_agent_percent);
    let called_met = pooled
        .called_percent
        .is_some_and(|p| p >= CALLED_MIN_PERCENT);
    let args_met = pooled
        .args_exact_percent
        .is_some_and(|p| p >= ARGS_MIN_PERCENT);
    let refused_met = refused_percent.is_some_and(|p| p >= REFUSED_MIN_PERCENT);
    let bars = BfclBars {
        called_percent: pooled.called_percent,
        called_met,
        args_percent: pooled.args_exact_percent,
        args_met,
        refused_percent,
        refused_met,
        all_met: called_met && args_met && refused_met,
    };
    summaries.push(pooled);
    Ok(BfclReport {
        part: opts.part,
        limit: opts.limit,
        planner: "deterministic: built-in patterns, composite(catalog), default policy".into(),
        sets: summaries,
        bars,
        seconds: started.elapsed().as_secs_f64(),
        cases: all,
    })
}

/// The BFCL directory of a bench directory.
pub fn bfcl_dir(bench_dir: &Path) -> PathBuf {
    bench_dir.join("bfcl")
}

fn cell(p: Option<f64>) -> String {
    p.map(|p| format!("{p:5.1}"))
        .unwrap_or_else(|| "    —".into())
}

fn met(b: bool) -> &'static str {
    if b { "met" } else { "NOT met" }
}

/// The report as a text table (percentages), then the bars.
pub fn render(r: &BfclReport) -> String {
    let mut s = String::new();
    let limit = r
        .limit
        .map(|l| format!(", at most {l} cases per set"))
        .unwrap_or_default();
    let _ = writeln!(
        s,
        "BFCL end to end (`ccos plan`'s planner: {}), part {}{limit}, {:.1} s",
        r.planner,
        r.part.as_str(),
        r.seconds
    );
    let _ = writeln!(
        s,
        "{:<18} {:>6} {:>7} {:>6} {:>8} {:>9} {:>8} {:>10} {:>10} {:>6}",
        "set",
        "cases",
        "called",
        "args",
        "args-ci",
        "req-agent",
        "refused",
        "top1-trace",
        "top1-cat",
        "errors"
    );
    for x in &r.sets {
        let refused = if x.set == IRRELEVANCE {
            x.requires_agent_percent
        } else {
            None
        };
        let _ = writeln!(
            s,
            "{:<18} {:>6} {:>7} {:>6} {:>8} {:>9} {:>8} {:>10} {:>10} {:>6}",
            x.set,
            x.cases,
            cell(x.called_percent),
            cell(x.args_exact_percent),
            cell(x.args_ci_percent),
            cell(x.requires_agent_percent),
            cell(refused),
            cell(x.gold_top_ranked_percent),
            cell(x.gold_top_catalog_percent),
            x.errors
        );
    }
    let b = &r.bars;
    let pct = |p: Option<f64>| {
        p.map(|p| format!("{p:.1} %"))
            .unwrap_or_else(|| "n/a".into())
    };
    let _ = writeln!(
        s,
        "bars: gold function called {} (>= {CALLED_MIN_PERCENT} %): {}; all arguments right {} (>= {ARGS_MIN_PERCENT} %): {}; irrelevance refused {} (>= {REFUSED_MIN_PERCENT} %): {}; all at once: {}",
        pct(b.called_percent),
        met(b.called_met),
        pct(b.args_percent),
        met(b.args_met),
        pct(b.refused_percent),
        met(b.refused_met),
        met(b.all_met)
    );
    let _ = writeln!(
        s,
        "(called / args / req-agent: percent of the cases; top1-trace: percent of the requires-agent answers where a gold function was the top-ranked candidate of some sub-intent in the decision trace; top1-cat: where it is the catalog's first choice for an unserved sub-intent, ranked without the planner's floors)"
    );
    for c in r.cases.iter().filter(|c| c.explain.is_some()) {
        let verdict = match (c.set == IRRELEVANCE, &c.answer) {
            (true, Answer::RequiresAgent) => "refused (right)",
            (true, _) => "planned (wrong)",
            (false, Answer::Plan) if c.args_exact => "gold called, arguments right",
            (false, Answer::Plan) if c.called => "gold called, arguments wrong",
            (false, Answer::Plan) => "other function called",
            (false, Answer::RequiresAgent) => "requires-agent",
            (false, Answer::Error) => "error",
        };
        let _ = writeln!(s, "\n== {} ({}): {verdict}", c.id, c.set);
        if let Some(e) = &c.explain {
            let _ = writeln!(s, "{e}");
        }
        if let Some(e) = &c.error {
            let _ = writeln!(s, "error: {e}");
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gold(function: &str, args: Json) -> GoldCall {
        gold_calls(&json!([{ function: args }])).unwrap().remove(0)
    }

    fn call(function: &str, args: Json) -> PlanCall {
        PlanCall {
            capability: function.into(),
            function: function.into(),
            args: Some(
                args.as_object()
                    .unwrap()
                    .iter()
                    .map(|(k, v)| (k.clone(), Arg::Literal(v.clone())))
                    .collect(),
            ),
        }
    }

    #[test]
    fn schemas_convert_bfcl_types() {
        let p = json!({"type": "dict", "properties": {
            "base": {"type": "integer", "description": "b"},
            "ratio": {"type": "float", "optional": true, "default": 1.0},
            "pair": {"type": "tuple", "items": {"type": "float"}},
            "opts": {"type": "dict", "properties": {"x": {"type": "boolean"}}},
            "whatever": {"type": "any"},
            "unit": {"type": "string", "enum": ["cm", "m"]}
        }, "required": ["base"]});
        let s = input_schema(&p);
        assert_eq!(s["type"], "object");
        assert_eq!(s["properties"]["base"]["type"], "integer");
        assert_eq!(s["properties"]["ratio"]["type"], "number");
        assert!(s["properties"]["ratio"].get("optional").is_none());
        assert_eq!(s["properties"]["ratio"]["default"], 1.0);
        assert_eq!(s["properties"]["pair"]["type"], "array");
        assert_eq!(s["properties"]["pair"]["items"]["type"], "number");
        assert_eq!(
            s["properties"]["opts"]["properties"]["x"]["type"],
            "boolean"
        );
        assert!(s["properties"]["whatever"].get("type").is_none());
        assert_eq!(s["properties"]["unit"]["enum"], json!(["cm", "m"]));
        assert_eq!(s["required"], json!(["base"]));
        assert_eq!(input_schema(&Json::Null)["properties"], json!({}));
    }

    #[test]
    fn acceptable_values_follow_bfcl() {
        let g = gold(
            "calc",
            json!({"base": [10], "unit": ["units", ""], "pts": [[3, 4]], "budget": [{"min": [1], "max": [2, ""]}]}),
        );
        let ok = |a: Json| call_matches(call("calc", a).args.as_ref(), &g, false);
        assert!(ok(json!({"base": 10, "pts": [3, 4], "budget": {"min": 1}})));
        assert!(ok(
            json!({"base": 10.0, "unit": "units", "pts": [3.0, 4], "budget": {"min": 1, "max": 2}})
        ));
        assert!(!ok(
            json!({"base": 10, "pts": [4, 3], "budget": {"min": 1}})
        ));
        assert!(!ok(
            json!({"base": "10", "pts": [3, 4], "budget": {"min": 1}})
        ));
        assert!(
            !ok(json!({"pts": [3, 4], "budget": {"min": 1}})),
            "a required argument omitted"
        );
        assert!(!ok(
            json!({"base": 10, "pts": [3, 4], "budget": {"min": 1}, "extra": 1})
        ));
        assert!(!ok(
            json!({"base": 10, "unit": "Units", "pts": [3, 4], "budget": {"min": 1}})
        ));
        assert!(call_matches(
            call(
                "calc",
                json!({"base": 10, "unit": "Units", "pts": [3, 4], "budget": {"min": 1}})
            )
            .args
            .as_ref(),
            &g,
            true
        ));
        // A non-literal argument is never equal.
        let mut c = call("calc", json!({"pts": [3, 4], "budget": {"min": 1}}));
        if let Some(a) = c.args.as_mut() {
            a.insert("base".into(), Arg::Expr("x".into()));
        }
        assert!(!call_matches(c.args.as_ref(), &g, false));
        assert!(!call_matches(None, &g, false));
    }

    #[test]
    fn parallel_calls_match_in_any_order_and_exactly() {
        let g = vec![
            gold(
                "play",
                json!({"artist": ["Taylor Swift"], "duration": [20]}),
            ),
            gold("play", json!({"artist": ["Maroon 5"], "duration": [15]})),
        ];
        let a = call("play", json!({"artist": "Maroon 5", "duration": 15}));
        let b = call("play", json!({"artist": "Taylor Swift", "duration": 20}));
        assert!(calls_match_gold(&[a.clone(), b.clone()], &g, false));
        assert!(calls_gold_functions(&[a.clone(), b.clone()], &g));
        assert!(!calls_gold_functions(std::slice::from_ref(&a), &g));
        assert!(!calls_match_gold(&[a.clone(), a.clone()], &g, false));
        let extra = call("ccos.echo", json!({"message": "x"}));
        assert!(!calls_match_gold(
            &[a.clone(), b.clone(), extra.clone()],
            &g,
            false
        ));
        assert!(calls_gold_functions(&[a, b, extra], &g));
    }

    #[test]
    fn plan_calls_read_literal_arguments() {
        let plan = r#"(do
          (let [x (step "ask" (call :ccos.user.ask {:prompt "height?"}))]
            (step-parallel
              (step "a" (call :calc {:base 10 :unit "cm" :pts [3 4]}))
              (step "b" (call :calc {:base x}))
              (step "c" (call :calc x))
              (step "d" (call :now)))))"#;
        let calls = plan_calls(plan).unwrap();
        let ids: Vec<&str> = calls.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(ids, ["ccos.user.ask", "calc", "calc", "calc", "now"]);
        let a = calls[1].1.as_ref().unwrap();
        assert_eq!(a["base"], Arg::Literal(json!(10)));
        assert_eq!(a["pts"], Arg::Literal(json!([3, 4])));
        assert_eq!(calls[2].1.as_ref().unwrap()["base"], Arg::Expr("x".into()));
        assert_eq!(calls[3].1, None);
        assert_eq!(calls[4].1, Some(BTreeMap::new()));
    }

    #[test]
    fn a_case_is_planned_with_its_functions_and_scored() {
        let case = Case {
            set: "simple".into(),
            index: 0,
            id: "t_0".into(),
            question: "Find the area of a triangle with a base of 10 units and height of 5 units."
                .into(),
            functions: vec![Function {
                name: "calculate_triangle_area".into(),
                description: "Calculate the area of a triangle given its base and height.".into(),
                parameters: json!({"type": "dict", "properties": {
                    "base": {"type": "integer", "description": "The base of the triangle."},
                    "height": {"type": "integer", "description": "The height of the triangle."}
                }, "required": ["base", "height"]}),
            }],
            gold: vec![gold(
                "calculate_triangle_area",
                json!({"base": [10], "height": [5]}),
            )],
        };
        let (mp, names) = case_marketplace(&case).unwrap();
        assert!(mp.contains("calculate_triangle_area") && mp.contains("ccos.echo"));
        assert_eq!(names["calculate_triangle_area"], "calculate_triangle_area");
        let r = evaluate_case(&case, false);
        assert_ne!(r.answer, Answer::Error, "{r:?}");
        // Whatever the planner answers, the figures agree with the calls.
        assert_eq!(r.called, calls_gold_functions(&r.calls, &case.gold));
        if r.answer == Answer::RequiresAgent {
            assert!(r.gold_top_ranked.is_some() && r.gold_top_catalog.is_some());
        }
        let irrelevant = Case {
            set: IRRELEVANCE.into(),
            question: "Tell me a joke about penguins.".into(),
            gold: vec![],
            ..case
        };
        let r = evaluate_case(&irrelevant, false);
        assert!(
            !r.called && !r.args_exact && r.gold_top_ranked.is_none(),
            "{r:?}"
        );
    }

    #[test]
    fn summaries_and_bars() {
        let r =
            |set: &str, answer: Answer, called: bool, args: bool, top: Option<bool>| CaseResult {
                set: set.into(),
                id: "x".into(),
                answer,
                called,
                args_exact: args,
                args_ci: args,
                gold_top_ranked: top,
                gold_top_catalog: top,
                calls: vec![],
                error: None,
                refusals: vec![],
                explain: None,
            };
        let rs = [
            r("simple", Answer::Plan, true, true, None),
            r("simple", Answer::Plan, true, false, None),
            r("simple", Answer::RequiresAgent, false, false, Some(true)),
            r("simple", Answer::RequiresAgent, false, false, Some(false)),
        ];
        let s = summarize("simple", 10, &rs.iter().collect::<Vec<_>>(), 1.0);
        assert_eq!((s.cases, s.plans, s.requires_agent), (4, 2, 2));
        assert_eq!(s.called_percent, Some(50.0));
        assert_eq!(s.args_exact_percent, Some(25.0));
        assert_eq!(s.gold_top_ranked_percent, Some(50.0));
        let irr = [r(IRRELEVANCE, Answer::RequiresAgent, false, false, None)];
        let s = summarize(IRRELEVANCE, 1, &irr.iter().collect::<Vec<_>>(), 1.0);
        assert_eq!(
            (s.requires_agent_percent, s.called_percent),
            (Some(100.0), None)
        );
    }
}
