//! Decomposition and argument figures, as `../shared/bench/README.md`
//! defines them.
//!
//! - Decomposition (UltraTool, RestBench): each goal is decomposed by
//!   [`HybridDecomposition`] (patterns → clauses → whole goal), each
//!   sub-intent resolved top-1; the predicted nodes are the chosen tools,
//!   the predicted links `(tool of d, tool of s)` for every `d` in a
//!   sub-intent `s`'s `depends_on` (self-links dropped). TaskBench's
//!   node-F1 and link-F1 ([`set_f1`]) are averaged over goals.
//! - Arguments (Seal-Tools): each gold call is paired with the first unused
//!   sub-intent whose chosen tool is the gold api; the sub-intent's literal
//!   parameters are mapped onto the tool's parameters ([`fill_arguments`]).
//!   A call is exact when the tool matches and the predicted arguments
//!   have exactly the gold keys, each value matching ([`value_matches`]);
//!   a query is exact when all its gold calls are. Gold values that are an
//!   earlier call's label (`API_call_0`) need a step reference, which the
//!   literal path never produces, so they count as misses.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::Value as Json;

use crate::Tool;
use ccos_marketplace::keys::map_key;
use ccos_planner::intent::ParamValue;

/// Published decomposition figures for an LLM planner (GPT-4 on TaskBench,
/// as cited by `../shared/bench/README.md`): node-F1 range, percent.
pub const GPT4_NODE_F1: (f64, f64) = (81.5, 96.9);
/// Published link-F1 range of GPT-4 on TaskBench (same source), percent.
pub const GPT4_LINK_F1: (f64, f64) = (54.7, 80.5);

/// Set F1 of a prediction against a gold set. Both empty → 1.0 (nothing to
/// find, nothing wrongly predicted); one empty → 0.0.
pub fn set_f1<T: Ord>(pred: &BTreeSet<T>, gold: &BTreeSet<T>) -> f64 {
    if pred.is_empty() && gold.is_empty() {
        return 1.0;
    }
    let tp = pred.intersection(gold).count() as f64;
    if tp == 0.0 {
        return 0.0;
    }
    let p = tp / pred.len() as f64;
    let r = tp / gold.len() as f64;
    2.0 * p * r / (p + r)
}

/// Averaged decomposition figures of a split (percent).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct DecompositionSummary {
    /// Goals scored.
    pub goals: usize,
    /// Mean node-F1 (set F1 over tool names).
    pub node_f1: f64,
    /// Mean link-F1 (set F1 over (source, target) pairs).
    pub link_f1: f64,
    /// Mean number of sub-intents per goal.
    pub sub_intents: f64,
    /// The published GPT-4 TaskBench node-F1 range (cited constant).
    pub gpt4_node_f1: (f64, f64),
    /// The published GPT-4 TaskBench link-F1 range (cited constant).
    pub gpt4_link_f1: (f64, f64),
}

/// Accumulates per-goal decomposition scores.
#[derive(Debug, Clone, Default)]
pub struct DecompositionAcc {
    goals: usize,
    node: f64,
    link: f64,
    subs: usize,
}

impl DecompositionAcc {
    /// Adds one goal: predicted/gold nodes and links, number of sub-intents.
    pub fn add(
        &mut self,
        nodes: &BTreeSet<String>,
        gold_nodes: &BTreeSet<String>,
        links: &BTreeSet<(String, String)>,
        gold_links: &BTreeSet<(String, String)>,
        sub_intents: usize,
    ) {
        self.goals += 1;
        self.node += set_f1(nodes, gold_nodes);
        self.link += set_f1(links, gold_links);
        self.subs += sub_intents;
    }

    /// The means, in percent (zeros when no goal was added).
    pub fn summary(&self) -> DecompositionSummary {
        let n = self.goals.max(1) as f64;
        DecompositionSummary {
            goals: self.goals,
            node_f1: 100.0 * self.node / n,
            link_f1: 100.0 * self.link / n,
            sub_intents: self.subs as f64 / n,
            gpt4_node_f1: GPT4_NODE_F1,
            gpt4_link_f1: GPT4_LINK_F1,
        }
    }
}

/// Predicted nodes and links of a decomposition: `chosen[i]` is the tool
/// chosen for sub-intent `ids[i]` (None when nothing fits), `deps[i]` its
/// `depends_on`.
pub fn predicted_graph(
    ids: &[String],
    chosen: &[Option<String>],
    deps: &[Vec<String>],
) -> (BTreeSet<String>, BTreeSet<(String, String)>) {
    let tool_of: BTreeMap<&str, &str> = ids
        .iter()
        .zip(chosen)
        .filter_map(|(id, c)| Some((id.as_str(), c.as_deref()?)))
        .collect();
    let nodes = tool_of.values().map(|t| t.to_string()).collect();
    let mut links = BTreeSet::new();
    for (id, ds) in ids.iter().zip(deps) {
        let Some(target) = tool_of.get(id.as_str()) else {
            continue;
        };
        for d in ds {
            if let Some(source) = tool_of.get(d.as_str())
                && source != target
            {
                links.insert((source.to_string(), target.to_string()));
            }
        }
    }
    (nodes, links)
}

/// Whether a predicted argument value matches the gold one: strings are
/// compared after trimming; numbers (or strings that parse as numbers)
/// numerically; booleans by value; arrays element-wise; other values by
/// JSON equality.
pub fn value_matches(pred: &Json, gold: &Json) -> bool {
    fn num(j: &Json) -> Option<f64> {
        match j {
            Json::Number(n) => n.as_f64(),
            Json::String(s) => s.trim().parse::<f64>().ok().filter(|v| v.is_finite()),
            _ => None,
        }
    }
    if let (Some(a), Some(b)) = (num(pred), num(gold)) {
        return (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0);
    }
    match (pred, gold) {
        (Json::String(a), Json::String(b)) => a.trim() == b.trim(),
        (Json::Array(a), Json::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| value_matches(x, y))
        }
        (a, b) => a == b,
    }
}

/// The arguments of one call: the literal parameters of the sub-intent
/// mapped onto `tool`'s parameter names with the planner's schema-aware
/// [`map_key`]; literals left over then fill the remaining parameters in
/// declaration order, first where the value's type fits exactly (a number
/// for `int`/`float`, a string for `str`), then a number may fill a `str`
/// parameter. Step references are skipped.
pub fn fill_arguments(
    params: &BTreeMap<String, ParamValue>,
    tool: &Tool,
) -> BTreeMap<String, Json> {
    let names: Vec<String> = tool.params.iter().map(|p| p.name.clone()).collect();
    let mut out: BTreeMap<String, Json> = BTreeMap::new();
    let mut taken = BTreeSet::new();
    let mut left = Vec::new();
    for (k, v) in params {
        let ParamValue::Literal(v) = v else { continue };
        let Ok(j) = rtfs::to_json(v) else { continue };
        match map_key(k, &names, &taken).filter(|t| !out.contains_key(t)) {
            Some(t) => {
                taken.insert(t.clone());
                out.insert(t, j);
            }
            None => left.push(j),
        }
    }
    // First the slots whose type fits strictly, then a number may fill a
    // string slot.
    for strict in [true, false] {
        let mut rest = Vec::new();
        for j in left {
            let fits = |ty: &str| match crate::json_type(ty) {
                Some("integer") => j.as_f64().is_some_and(|f| f.fract() == 0.0),
                Some("number") => j.is_number(),
                Some("string") | None => j.is_string() || (!strict && j.is_number()),
                Some("boolean") => j.is_boolean(),
                _ => false,
            };
            match tool
                .params
                .iter()
                .find(|p| !out.contains_key(&p.name) && fits(&p.ty))
            {
                Some(p) => {
                    out.insert(p.name.clone(), j);
                }
                None => rest.push(j),
            }
        }
        left = rest;
    }
    out
}

/// Whether predicted arguments are exactly the gold ones (same keys, each
/// value matching).
pub fn arguments_match(pred: &BTreeMap<String, Json>, gold: &BTreeMap<String, Json>) -> bool {
    pred.len() == gold.len()
        && gold
            .iter()
            .all(|(k, g)| pred.get(k).is_some_and(|p| value_matches(p, g)))
}

/// Argument figures of a split (percent).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ArgumentSummary {
    /// Queries scored.
    pub queries: usize,
    /// Gold calls scored.
    pub calls: usize,
    /// Share of gold calls whose tool was chosen for some sub-intent.
    pub tool_match: f64,
    /// Per-call exact match (tool and all arguments).
    pub call_exact: f64,
    /// Per-query exact match (every gold call exact).
    pub query_exact: f64,
    /// Share of gold arguments (over all gold calls) given the right value.
    pub argument_exact: f64,
}

/// Accumulates argument scores.
#[derive(Debug, Clone, Default)]
pub struct ArgumentAcc {
    queries: usize,
    query_exact: usize,
    calls: usize,
    tool_match: usize,
    call_exact: usize,
    args: usize,
    args_exact: usize,
}

impl ArgumentAcc {
    /// Adds one query: for each gold call, the predicted arguments when its
    /// tool was chosen (None otherwise).
    pub fn add(&mut self, gold: &[crate::GoldCall], pred: &[Option<BTreeMap<String, Json>>]) {
        self.queries += 1;
        let mut all = true;
        for (g, p) in gold.iter().zip(pred.iter().chain(std::iter::repeat(&None))) {
            self.calls += 1;
            self.args += g.arguments.len();
            match p {
                Some(p) => {
                    self.tool_match += 1;
                    self.args_exact += g
                        .arguments
                        .iter()
                        .filter(|(k, v)| p.get(*k).is_some_and(|x| value_matches(x, v)))
                        .count();
                    if arguments_match(p, &g.arguments) {
                        self.call_exact += 1;
                    } else {
                        all = false;
                    }
                }
                None => all = false,
            }
        }
        if all {
            self.query_exact += 1;
        }
    }

    /// The shares, in percent (zeros when nothing was added).
    pub fn summary(&self) -> ArgumentSummary {
        let pc = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
        ArgumentSummary {
            queries: self.queries,
            calls: self.calls,
            tool_match: pc(self.tool_match, self.calls),
            call_exact: pc(self.call_exact, self.calls),
            query_exact: pc(self.query_exact, self.queries),
            argument_exact: pc(self.args_exact, self.args),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GoldCall, ToolParam};
    use serde_json::json;

    fn set(v: &[&str]) -> BTreeSet<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn set_f1_exact_values() {
        assert_eq!(set_f1(&set(&["a", "b"]), &set(&["a", "b"])), 1.0);
        // p = 1/2, r = 1/3 → F1 = 2·(1/6)/(5/6) = 0.4
        let f = set_f1(&set(&["a", "x"]), &set(&["a", "b", "c"]));
        assert!((f - 0.4).abs() < 1e-12, "{f}");
        assert_eq!(set_f1(&set(&[]), &set(&[])), 1.0);
        assert_eq!(set_f1(&set(&["a"]), &set(&[])), 0.0);
        assert_eq!(set_f1(&set(&["x"]), &set(&["a"])), 0.0);
    }

    #[test]
    fn graph_and_averages() {
        let ids: Vec<String> = ["s1", "s2", "s3"].iter().map(|s| s.to_string()).collect();
        let chosen = vec![Some("A".to_string()), Some("B".to_string()), None];
        let deps = vec![vec![], vec!["s1".to_string()], vec!["s2".to_string()]];
        let (nodes, links) = predicted_graph(&ids, &chosen, &deps);
        assert_eq!(nodes, set(&["A", "B"]));
        assert_eq!(links, BTreeSet::from([("A".to_string(), "B".to_string())]));
        let mut acc = DecompositionAcc::default();
        let gold_links = BTreeSet::from([
            ("A".to_string(), "B".to_string()),
            ("B".to_string(), "C".to_string()),
        ]);
        // nodes: p=1, r=2/3 → 0.8; links: p=1, r=1/2 → 2/3
        acc.add(&nodes, &set(&["A", "B", "C"]), &links, &gold_links, 3);
        acc.add(
            &set(&["Z"]),
            &set(&["A"]),
            &BTreeSet::new(),
            &BTreeSet::new(),
            1,
        );
        let s = acc.summary();
        assert_eq!(s.goals, 2);
        assert!((s.node_f1 - 40.0).abs() < 1e-9, "{}", s.node_f1);
        assert!((s.link_f1 - 100.0 * (2.0 / 3.0 + 1.0) / 2.0).abs() < 1e-9);
        assert_eq!(s.sub_intents, 2.0);
        assert_eq!(s.gpt4_node_f1, (81.5, 96.9));
    }

    #[test]
    fn values_match_after_trim_and_numerically() {
        assert!(value_matches(&json!(" Paris "), &json!("Paris")));
        assert!(value_matches(&json!(40.7), &json!("40.7")));
        assert!(value_matches(&json!("85"), &json!(85)));
        assert!(!value_matches(&json!("paris"), &json!("Paris")));
        assert!(!value_matches(&json!(1), &json!(2)));
        assert!(value_matches(&json!(["a", 1]), &json!(["a", "1"])));
        assert!(value_matches(&json!(true), &json!(true)));
    }

    #[test]
    fn fills_and_scores_arguments() {
        let tool = Tool {
            name: "getPowerOutput".into(),
            description: String::new(),
            params: vec![
                ToolParam {
                    name: "activity".into(),
                    ty: "str".into(),
                    description: String::new(),
                },
                ToolParam {
                    name: "duration".into(),
                    ty: "int".into(),
                    description: String::new(),
                },
            ],
            required: vec![],
        };
        let params = BTreeMap::from([
            (
                "number1".to_string(),
                ParamValue::Literal(rtfs::Value::Int(85)),
            ),
            (
                "text".to_string(),
                ParamValue::Literal(rtfs::Value::string("cycling")),
            ),
        ]);
        let got = fill_arguments(&params, &tool);
        assert_eq!(
            got,
            BTreeMap::from([
                ("activity".to_string(), json!("cycling")),
                ("duration".to_string(), json!(85)),
            ])
        );
        let gold_call = |args: Json| GoldCall {
            api: "getPowerOutput".into(),
            arguments: serde_json::from_value(args).unwrap(),
            labels: vec!["API_call_0".into()],
        };
        let g = gold_call(json!({"activity": "cycling", "duration": "85"}));
        let mut acc = ArgumentAcc::default();
        let exact = BTreeMap::from([
            ("activity".to_string(), json!("cycling")),
            ("duration".to_string(), json!(85)),
        ]);
        acc.add(std::slice::from_ref(&g), &[Some(exact)]);
        let half = BTreeMap::from([("activity".to_string(), json!("cycling"))]);
        acc.add(std::slice::from_ref(&g), &[Some(half)]);
        acc.add(&[g.clone(), g], &[None]);
        let s = acc.summary();
        assert_eq!((s.queries, s.calls), (3, 4));
        assert_eq!(s.tool_match, 50.0);
        assert_eq!(s.call_exact, 25.0);
        assert!((s.query_exact - 100.0 / 3.0).abs() < 1e-9);
        // 8 gold arguments, 3 right.
        assert_eq!(s.argument_exact, 37.5);
    }
}
