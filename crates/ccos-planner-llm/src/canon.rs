//! Canonicalisation and comparison of plans.
//!
//! [`canonicalize`] turns an RTFS plan into the normalised IR of
//! [`crate::ir`]: one step per `(call ...)` (ids `c1..cN` in evaluation
//! order, the name of the innermost enclosing `step`, else the capability),
//! arguments as JSON with the results of earlier calls as `{"$ref": ID}`
//! (`(get x :k)` as `{"$ref": ID, "get": "k"}`) and anything computed by code
//! as `{"$expr": "<printed form>"}`; deps are the calls whose results flow
//! into the arguments (through `let` names, `step-parallel`
//! destructuring, nested calls, `if` conditions and `step-loop`
//! collections).
//!
//! [`compare`] says whether two IRs are the same plan: the same multiset
//! of steps by capability and arguments, equivalent deps under the
//! renaming of step ids the matching defines, and compatible arguments
//! (equal after JSON normalisation: numbers by value, key order
//! irrelevant, a single map positional argument equal to a map argument,
//! references mapped through the renaming). The result is a [`PlanDiff`],
//! serialisable (stored in the intent's metadata) and printable.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use rtfs::{Expr, ExprKind};
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::ir::{EXPR_KEY, GET_KEY, IrStep, PlanIr, REF_KEY, as_ref};

type Prov = BTreeSet<String>;

/// Parses an RTFS plan and canonicalises it.
#[allow(clippy::result_large_err)] // rtfs's own error type, as rtfs::parse returns it
pub fn canonicalize(src: &str) -> Result<PlanIr, rtfs::RtfsError> {
    Ok(canonicalize_forms(&rtfs::parse(src)?))
}

/// Canonicalises parsed forms (see the module docs).
pub fn canonicalize_forms(forms: &[Expr]) -> PlanIr {
    let mut w = Walker { steps: vec![] };
    let env = BTreeMap::new();
    for f in forms {
        w.walk(f, &env, &Prov::new(), None, 0);
    }
    PlanIr { steps: w.steps }
}

/// Nesting deeper than this is not walked (the parser bounds it anyway).
const MAX_DEPTH: usize = 512;

struct Walker {
    steps: Vec<IrStep>,
}

type Env = BTreeMap<String, Prov>;

impl Walker {
    fn walk(&mut self, e: &Expr, env: &Env, ctx: &Prov, name: Option<&str>, depth: usize) -> Prov {
        if depth > MAX_DEPTH {
            return Prov::new();
        }
        let d = depth + 1;
        match &e.kind {
            ExprKind::Symbol(s) => env.get(&**s).cloned().unwrap_or_default(),
            ExprKind::Vector(items) => {
                let mut p = Prov::new();
                for i in items {
                    p.extend(self.walk(i, env, ctx, name, d));
                }
                p
            }
            ExprKind::Map(entries) => {
                let mut p = Prov::new();
                for (k, v) in entries {
                    p.extend(self.walk(k, env, ctx, name, d));
                    p.extend(self.walk(v, env, ctx, name, d));
                }
                p
            }
            ExprKind::List(items) => self.walk_list(items, env, ctx, name, d),
            _ => Prov::new(),
        }
    }

    fn walk_body(
        &mut self,
        body: &[Expr],
        env: &Env,
        ctx: &Prov,
        name: Option<&str>,
        d: usize,
    ) -> Prov {
        let mut last = Prov::new();
        for b in body {
            last = self.walk(b, env, ctx, name, d);
        }
        last
    }

    fn walk_list(
        &mut self,
        items: &[Expr],
        env: &Env,
        ctx: &Prov,
        name: Option<&str>,
        d: usize,
    ) -> Prov {
        let args = items.get(1..).unwrap_or(&[]);
        match items.first().and_then(Expr::as_symbol) {
            Some("quote") => Prov::new(),
            Some("call") => self.call(args, env, ctx, name, d),
            Some("step") => {
                let (n, body) = match args.first().map(|a| &a.kind) {
                    Some(ExprKind::Str(s)) => (Some(&**s), &args[1..]),
                    _ => (name, args),
                };
                self.walk_body(body, env, ctx, n, d)
            }
            Some("do") => self.walk_body(args, env, ctx, name, d),
            Some("let") => {
                let Some(ExprKind::Vector(bs)) = args.first().map(|a| &a.kind) else {
                    return self.walk_body(args, env, ctx, name, d);
                };
                let mut env = env.clone();
                for pair in bs.chunks(2) {
                    let [pat, val] = pair else {
                        self.walk(&pair[0], &env, ctx, name, d);
                        continue;
                    };
                    match (&pat.kind, parallel_branches(val)) {
                        (ExprKind::Vector(pats), Some(branches))
                            if pats.len() == branches.len() =>
                        {
                            let provs: Vec<Prov> = branches
                                .iter()
                                .map(|b| self.walk(b, &env, ctx, name, d))
                                .collect();
                            for (p, pv) in pats.iter().zip(provs) {
                                bind(p, &pv, &mut env);
                            }
                        }
                        _ => {
                            let pv = self.walk(val, &env, ctx, name, d);
                            bind(pat, &pv, &mut env);
                        }
                    }
                }
                self.walk_body(&args[1..], &env, ctx, name, d)
            }
            Some("if") => {
                let c = args
                    .first()
                    .map(|c| self.walk(c, env, ctx, name, d))
                    .unwrap_or_default();
                let mut ctx2 = ctx.clone();
                ctx2.extend(c);
                let mut p = Prov::new();
                for b in args.iter().skip(1) {
                    p.extend(self.walk(b, env, &ctx2, name, d));
                }
                p
            }
            Some("step-loop") => {
                let (n, rest) = match args.first().map(|a| &a.kind) {
                    Some(ExprKind::Str(s)) => (Some(&**s), &args[1..]),
                    _ => (name, args),
                };
                let Some(head) = rest.first() else {
                    return Prov::new();
                };
                let mut env = env.clone();
                let mut ctx2 = ctx.clone();
                match &head.kind {
                    ExprKind::Vector(b) if b.len() == 2 => {
                        let pv = self.walk(&b[1], &env, ctx, n, d);
                        bind(&b[0], &pv, &mut env);
                        ctx2.extend(pv);
                    }
                    _ => ctx2.extend(self.walk(head, &env, ctx, n, d)),
                }
                self.walk_body(&rest[1..], &env, &ctx2, n, d)
            }
            _ => {
                let mut p = Prov::new();
                for i in items {
                    p.extend(self.walk(i, env, ctx, name, d));
                }
                p
            }
        }
    }

    fn call(&mut self, args: &[Expr], env: &Env, ctx: &Prov, name: Option<&str>, d: usize) -> Prov {
        let capability = match args.first().map(|a| &a.kind) {
            Some(ExprKind::Keyword(k)) | Some(ExprKind::Str(k)) => k.to_string(),
            Some(_) => format!("{EXPR_KEY}{}", rtfs::print_expr(&args[0])),
            None => String::new(),
        };
        let rest = args.get(1..).unwrap_or(&[]);
        let mut deps = ctx.clone();
        let mut json_args = vec![];
        for a in rest {
            let (j, p) = self.arg(a, env, ctx, name, d);
            deps.extend(p);
            json_args.push(j);
        }
        let args_json = match json_args.len() {
            0 => Json::Null,
            1 if matches!(rest[0].kind, ExprKind::Map(_)) => json_args.remove(0),
            _ => Json::Array(json_args),
        };
        let id = format!("c{}", self.steps.len() + 1);
        self.steps.push(IrStep {
            id: id.clone(),
            name: name
                .map(str::to_string)
                .unwrap_or_else(|| capability.clone()),
            capability,
            args: args_json,
            deps: deps.into_iter().collect(),
            options: Json::Null,
        });
        Prov::from([id])
    }

    /// An argument as JSON, and the calls its value comes from.
    fn arg(
        &mut self,
        a: &Expr,
        env: &Env,
        ctx: &Prov,
        name: Option<&str>,
        d: usize,
    ) -> (Json, Prov) {
        match &a.kind {
            ExprKind::Symbol(s) => {
                let p = env.get(&**s).cloned().unwrap_or_default();
                (ref_or_expr(a, &p, None), p)
            }
            ExprKind::Vector(items) => {
                let mut p = Prov::new();
                let mut out = vec![];
                for i in items {
                    let (j, q) = self.arg(i, env, ctx, name, d + 1);
                    p.extend(q);
                    out.push(j);
                }
                (Json::Array(out), p)
            }
            ExprKind::Map(entries) => {
                let mut p = Prov::new();
                let mut out = serde_json::Map::new();
                for (k, v) in entries {
                    let key = match &k.kind {
                        ExprKind::Keyword(s) | ExprKind::Str(s) | ExprKind::Symbol(s) => {
                            s.to_string()
                        }
                        _ => rtfs::print_expr(k),
                    };
                    let (j, q) = self.arg(v, env, ctx, name, d + 1);
                    p.extend(q);
                    out.insert(key, j);
                }
                (Json::Object(out), p)
            }
            ExprKind::List(items) => {
                let head = items.first().and_then(Expr::as_symbol);
                if head == Some("get")
                    && items.len() == 3
                    && let (ExprKind::Symbol(s), Some(k)) = (&items[1].kind, key_name(&items[2]))
                {
                    let p = env.get(&**s).cloned().unwrap_or_default();
                    if p.len() == 1 {
                        return (ref_or_expr(a, &p, Some(&k)), p);
                    }
                }
                let p = self.walk(a, env, ctx, name, d + 1);
                if head == Some("call") || (head == Some("step") && p.len() == 1) {
                    return (ref_or_expr(a, &p, None), p);
                }
                (expr_json(a), p)
            }
            _ => (
                rtfs::to_json(&a.to_value()).unwrap_or_else(|_| expr_json(a)),
                Prov::new(),
            ),
        }
    }
}

fn key_name(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Keyword(k) | ExprKind::Str(k) => Some(k.to_string()),
        _ => None,
    }
}

fn expr_json(e: &Expr) -> Json {
    let mut o = serde_json::Map::new();
    o.insert(EXPR_KEY.into(), Json::String(rtfs::print_expr(e)));
    Json::Object(o)
}

fn ref_or_expr(e: &Expr, p: &Prov, get: Option<&str>) -> Json {
    match (p.len(), p.first()) {
        (1, Some(id)) => {
            let mut o = serde_json::Map::new();
            o.insert(REF_KEY.into(), Json::String(id.clone()));
            if let Some(k) = get {
                o.insert(GET_KEY.into(), Json::String(k.to_string()));
            }
            Json::Object(o)
        }
        _ => expr_json(e),
    }
}

/// The branches when `e` is `(step-parallel ...)`.
fn parallel_branches(e: &Expr) -> Option<&[Expr]> {
    let items = e.as_list()?;
    (items.first()?.as_symbol()? == "step-parallel").then(|| &items[1..])
}

/// Binds every symbol of a pattern to `p`.
fn bind(pat: &Expr, p: &Prov, env: &mut Env) {
    match &pat.kind {
        ExprKind::Symbol(s) if &**s != "_" && &**s != "&" => {
            env.insert(s.to_string(), p.clone());
        }
        ExprKind::Vector(items) => {
            for i in items {
                bind(i, p, env);
            }
        }
        ExprKind::Map(entries) => {
            for (k, v) in entries {
                bind(k, p, env);
                bind(v, p, env);
            }
        }
        _ => {}
    }
}

/// One step as shown in a diff.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepSummary {
    /// The step id in its own plan.
    pub id: String,
    /// The capability.
    pub capability: String,
    /// The normalised arguments.
    pub args: Json,
}

/// Two matched steps whose arguments differ.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArgDiff {
    /// Step id in plan A.
    pub a: String,
    /// Step id in plan B.
    pub b: String,
    /// The capability (same on both sides).
    pub capability: String,
    /// A's arguments (references renamed to B's ids).
    pub a_args: Json,
    /// B's arguments.
    pub b_args: Json,
}

/// Two matched steps whose dependencies differ.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DepDiff {
    /// Step id in plan A.
    pub a: String,
    /// Step id in plan B.
    pub b: String,
    /// A's deps, renamed to B's ids (unmatched ones kept as `a:<id>`).
    pub a_deps: Vec<String>,
    /// B's deps.
    pub b_deps: Vec<String>,
}

/// The difference between two plans (see [`compare`]).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PlanDiff {
    /// Matched steps, `(id in A, id in B)`, in A's topological order.
    pub matched: Vec<(String, String)>,
    /// Steps of A with no counterpart in B.
    pub only_in_a: Vec<StepSummary>,
    /// Steps of B with no counterpart in A.
    pub only_in_b: Vec<StepSummary>,
    /// Same capability on both sides, incompatible arguments.
    pub arg_diffs: Vec<ArgDiff>,
    /// Matched steps with different dependencies.
    pub dep_diffs: Vec<DepDiff>,
}

impl PlanDiff {
    /// True when the two plans are the same plan (modulo step renames).
    pub fn equivalent(&self) -> bool {
        self.only_in_a.is_empty()
            && self.only_in_b.is_empty()
            && self.arg_diffs.is_empty()
            && self.dep_diffs.is_empty()
    }
}

impl fmt::Display for PlanDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.equivalent() {
            return writeln!(f, "equivalent: {} step(s) matched", self.matched.len());
        }
        writeln!(f, "different: {} step(s) matched", self.matched.len())?;
        for s in &self.only_in_a {
            writeln!(f, "- only in A: {} {} {}", s.id, s.capability, s.args)?;
        }
        for s in &self.only_in_b {
            writeln!(f, "+ only in B: {} {} {}", s.id, s.capability, s.args)?;
        }
        for d in &self.arg_diffs {
            writeln!(
                f,
                "~ args of {} (A {} / B {}): {} vs {}",
                d.capability, d.a, d.b, d.a_args, d.b_args
            )?;
        }
        for d in &self.dep_diffs {
            writeln!(
                f,
                "~ deps of A {} / B {}: [{}] vs [{}]",
                d.a,
                d.b,
                d.a_deps.join(" "),
                d.b_deps.join(" ")
            )?;
        }
        Ok(())
    }
}

/// Normalised JSON: numbers by value (`2` = `2.0`), objects with sorted
/// keys, references renamed through `rename` (unmatched: `a:<id>`).
fn normalize(j: &Json, rename: &dyn Fn(&str) -> String) -> Json {
    if let Some((r, get)) = as_ref(j) {
        let mut o = serde_json::Map::new();
        o.insert(REF_KEY.into(), Json::String(rename(r)));
        if let Some(g) = get {
            o.insert(GET_KEY.into(), Json::String(g.to_string()));
        }
        return Json::Object(o);
    }
    match j {
        Json::Number(n) => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Json::from(f as i64),
            _ => Json::Number(n.clone()),
        },
        Json::Array(a) => Json::Array(a.iter().map(|x| normalize(x, rename)).collect()),
        Json::Object(o) => {
            let sorted: BTreeMap<&String, Json> =
                o.iter().map(|(k, v)| (k, normalize(v, rename))).collect();
            Json::Object(sorted.into_iter().map(|(k, v)| (k.clone(), v)).collect())
        }
        other => other.clone(),
    }
}

/// Argument lists in one shape: none → `[]`, a map argument → `[map]`.
fn args_list(j: &Json) -> Json {
    match j {
        Json::Null => Json::Array(vec![]),
        Json::Array(_) => j.clone(),
        other => Json::Array(vec![other.clone()]),
    }
}

/// A topological order of the steps (ties by index; steps of a cycle or
/// with unknown deps last, in index order).
fn topo(ir: &PlanIr) -> Vec<usize> {
    ir.check_structure()
        .unwrap_or_else(|_| (0..ir.steps.len()).collect())
}

/// Compares two plans (see the module docs). Matching is greedy in A's
/// topological order: each step of A takes the first unmatched step of B
/// with the same capability and equal normalised arguments (references
/// mapped through the renaming so far); leftovers with the same capability
/// are then paired as argument differences.
pub fn compare(a: &PlanIr, b: &PlanIr) -> PlanDiff {
    let mut map: BTreeMap<String, String> = BTreeMap::new();
    let mut used_b: BTreeSet<usize> = BTreeSet::new();
    let mut diff = PlanDiff::default();
    let order_a = topo(a);
    let order_b = topo(b);
    let ident = |s: &str| s.to_string();
    let mut unmatched_a = vec![];
    for &i in &order_a {
        let sa = &a.steps[i];
        let ren = |r: &str| map.get(r).cloned().unwrap_or_else(|| format!("a:{r}"));
        let na = normalize(&args_list(&sa.args), &ren);
        let found = order_b.iter().copied().find(|j| {
            !used_b.contains(j)
                && b.steps[*j].capability == sa.capability
                && normalize(&args_list(&b.steps[*j].args), &ident) == na
        });
        match found {
            Some(j) => {
                used_b.insert(j);
                map.insert(sa.id.clone(), b.steps[j].id.clone());
                diff.matched.push((sa.id.clone(), b.steps[j].id.clone()));
            }
            None => unmatched_a.push(i),
        }
    }
    // Same capability, different arguments.
    for i in unmatched_a {
        let sa = &a.steps[i];
        let found = order_b
            .iter()
            .copied()
            .find(|j| !used_b.contains(j) && b.steps[*j].capability == sa.capability);
        let a_args = {
            let ren = |r: &str| map.get(r).cloned().unwrap_or_else(|| format!("a:{r}"));
            normalize(&args_list(&sa.args), &ren)
        };
        match found {
            Some(j) => {
                used_b.insert(j);
                map.insert(sa.id.clone(), b.steps[j].id.clone());
                diff.matched.push((sa.id.clone(), b.steps[j].id.clone()));
                diff.arg_diffs.push(ArgDiff {
                    a: sa.id.clone(),
                    b: b.steps[j].id.clone(),
                    capability: sa.capability.clone(),
                    a_args,
                    b_args: normalize(&args_list(&b.steps[j].args), &ident),
                });
            }
            None => diff.only_in_a.push(StepSummary {
                id: sa.id.clone(),
                capability: sa.capability.clone(),
                args: a_args,
            }),
        }
    }
    for &j in &order_b {
        if !used_b.contains(&j) {
            let sb = &b.steps[j];
            diff.only_in_b.push(StepSummary {
                id: sb.id.clone(),
                capability: sb.capability.clone(),
                args: normalize(&args_list(&sb.args), &ident),
            });
        }
    }
    // Deps under the renaming.
    for (ia, ib) in &diff.matched {
        let (Some(sa), Some(sb)) = (
            a.steps.iter().find(|s| &s.id == ia),
            b.steps.iter().find(|s| &s.id == ib),
        ) else {
            continue;
        };
        let da: BTreeSet<String> = sa
            .deps
            .iter()
            .map(|d| map.get(d).cloned().unwrap_or_else(|| format!("a:{d}")))
            .collect();
        let db: BTreeSet<String> = sb.deps.iter().cloned().collect();
        if da != db {
            diff.dep_diffs.push(DepDiff {
                a: ia.clone(),
                b: ib.clone(),
                a_deps: da.into_iter().collect(),
                b_deps: db.into_iter().collect(),
            });
        }
    }
    diff
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn canonicalises_lets_parallel_and_nested_calls() {
        let ir = canonicalize(
            r#"(do (let [[a b] (step-parallel (step "A" (call :x.a 1 2)) (step "B" (call :x.b {:k "v"})))
                        c (step "C" (call :x.c {:l a :m (get b :f) :n (str "p" a)}))]
                     (call :x.d (call :x.e 3) c)))"#,
        )
        .unwrap();
        let ids: Vec<(&str, &str)> = ir
            .steps
            .iter()
            .map(|s| (s.id.as_str(), s.capability.as_str()))
            .collect();
        assert_eq!(
            ids,
            [
                ("c1", "x.a"),
                ("c2", "x.b"),
                ("c3", "x.c"),
                ("c4", "x.e"),
                ("c5", "x.d")
            ]
        );
        assert_eq!(ir.steps[0].name, "A");
        assert_eq!(ir.steps[0].args, json!([1, 2]));
        assert_eq!(ir.steps[1].args, json!({"k": "v"}));
        assert_eq!(
            ir.steps[2].args,
            json!({"l": {"$ref": "c1"}, "m": {"$ref": "c2", "get": "f"}, "n": {"$expr": "(str \"p\" a)"}})
        );
        assert_eq!(ir.steps[2].deps, ["c1", "c2"]);
        assert_eq!(ir.steps[4].args, json!([{"$ref": "c4"}, {"$ref": "c3"}]));
        assert_eq!(ir.steps[4].deps, ["c3", "c4"]);
        assert_eq!(ir.steps[4].name, "x.d");
    }

    #[test]
    fn compiled_ir_canonicalises_back_modulo_renames() {
        let src = PlanIr::from_json(&json!([
            {"id": "x", "name": "one", "capability": "k.a", "args": [1, 2.0]},
            {"id": "y", "name": "two", "capability": "k.b", "args": {"v": "w"}},
            {"id": "z", "name": "three", "capability": "k.c", "args": {"p": {"$ref": "x"}, "q": {"$ref": "y", "get": "f"}}, "deps": ["x", "y"]}
        ]))
        .unwrap();
        let c = src.compile().unwrap();
        let back = canonicalize(&c.rtfs).unwrap();
        let d = compare(&src, &back);
        assert!(d.equivalent(), "{d}\n{}", c.rtfs);
        assert_eq!(
            d.matched,
            [
                ("x".into(), "c1".into()),
                ("y".into(), "c2".into()),
                ("z".into(), "c3".into())
            ]
        );
    }

    #[test]
    fn diffs_are_reported() {
        let a = canonicalize("(let [s (call :k.a 1)] (call :k.b {:x s}) (call :k.c))").unwrap();
        let b = canonicalize("(let [s (call :k.a 2)] (call :k.b {:x 3}) (call :k.d))").unwrap();
        let d = compare(&a, &b);
        assert!(!d.equivalent());
        assert_eq!(d.arg_diffs.len(), 2, "{d}");
        assert_eq!(d.only_in_a[0].capability, "k.c");
        assert_eq!(d.only_in_b[0].capability, "k.d");
        assert_eq!(d.dep_diffs.len(), 1, "{d}");
        let text = d.to_string();
        assert!(text.contains("only in A: c3 k.c"), "{text}");
        let j = serde_json::to_value(&d).unwrap();
        assert_eq!(j["only_in_b"][0]["capability"], "k.d");
        // a map argument equals a single map positional argument
        let x = PlanIr::from_json(&json!([{"id": "1", "capability": "k", "args": [{"a": 1}]}]))
            .unwrap();
        let y = PlanIr::from_json(&json!([{"id": "2", "capability": "k", "args": {"a": 1.0}}]))
            .unwrap();
        assert!(compare(&x, &y).equivalent());
    }

    mod prop {
        use super::*;
        use proptest::prelude::*;

        /// Random DAG plans: step i may reference any earlier step (deps =
        /// references), arguments are ints, strings and references; the
        /// steps are then rotated so that the given order is not the
        /// topological one.
        fn plans() -> impl Strategy<Value = PlanIr> {
            (1usize..7)
                .prop_flat_map(|n| {
                    (
                        proptest::collection::vec(
                            (
                                0usize..3,
                                proptest::collection::vec(
                                    (any::<bool>(), 0usize..8, -5i64..5),
                                    0..4,
                                ),
                            ),
                            n,
                        ),
                        0..n,
                    )
                })
                .prop_map(|(steps, rot)| {
                    let caps = ["k.a", "k.b", "k.c"];
                    let mut out: Vec<IrStep> = steps
                        .iter()
                        .enumerate()
                        .map(|(i, (c, args))| {
                            let mut deps = BTreeSet::new();
                            let args: Vec<Json> = args
                                .iter()
                                .map(|(is_ref, r, v)| {
                                    if *is_ref && i > 0 {
                                        let d = format!("n{}", r % i);
                                        deps.insert(d.clone());
                                        json!({"$ref": d})
                                    } else if v % 2 == 0 {
                                        json!(v)
                                    } else {
                                        json!(format!("v{v}"))
                                    }
                                })
                                .collect();
                            IrStep {
                                id: format!("n{i}"),
                                name: format!("step {i}"),
                                capability: caps[*c].into(),
                                args: Json::Array(args),
                                deps: deps.into_iter().collect(),
                                options: Json::Null,
                            }
                        })
                        .collect();
                    out.rotate_left(rot);
                    PlanIr { steps: out }
                })
        }

        proptest! {
            #[test]
            fn compile_is_deterministic_and_round_trips(ir in plans()) {
                let c = ir.compile().unwrap();
                prop_assert_eq!(&ir.compile().unwrap().rtfs, &c.rtfs);
                let back = canonicalize(&c.rtfs).unwrap();
                let d = compare(&ir, &back);
                prop_assert!(d.equivalent(), "{}\n{}", d, c.rtfs);
                prop_assert_eq!(back.steps.len(), ir.steps.len());
            }
        }
    }
}
