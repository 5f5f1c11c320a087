//! LLM plan generation with a scripted model (no network): Mode A (RTFS)
//! with repairs, Mode B (JSON IR), discovery-hints re-planning, loop
//! bounds, comparison, and prompt-size figures.

use std::sync::Arc;

use ccos_governance::Policy;
use ccos_llm::{LlmRequest, ScriptedProvider};
use ccos_marketplace::builtins::{BuiltinConfig, install};
use ccos_marketplace::{CapabilityManifest, Effect, Marketplace, ProviderSpec};
use ccos_planner_llm::canon;
use ccos_planner_llm::modes::{FailureKind, Mode, PlanWriter};
use serde_json::json;

pub fn builtins() -> Arc<Marketplace> {
    let mp = Marketplace::new().unwrap();
    install(&mp, BuiltinConfig::default()).unwrap();
    Arc::new(mp)
}

fn planner(
    mp: Arc<Marketplace>,
    policy: Policy,
    answers: &[&str],
) -> (Arc<ScriptedProvider>, PlanWriter) {
    let p = Arc::new(ScriptedProvider::new(answers.iter().map(|s| s.to_string())));
    (p.clone(), PlanWriter::new(p, mp, policy))
}

fn text(r: &LlmRequest) -> String {
    r.messages
        .iter()
        .map(|m| m.content.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

fn last(r: &LlmRequest) -> &str {
    r.messages.last().map(|m| m.content.as_str()).unwrap_or("")
}

const ADD: &str = "(do (step \"Add\" (call :ccos.math.add 2 3)))";

#[test]
fn happy_path_is_one_call_with_prose_around() {
    let (p, lp) = planner(
        builtins(),
        Policy::default(),
        &[
            "Here is the plan you asked for:\n(do (step \"Add\" (call :ccos.math.add 2 3)))\nHope it helps!",
        ],
    );
    let o = lp.plan("add 2 and 3", Mode::Rtfs).unwrap();
    assert_eq!(o.model_calls, 1);
    assert_eq!(o.rtfs.as_deref(), Some(ADD));
    assert_eq!(o.generation_mode(), "llm-rtfs");
    assert_eq!(o.ir.as_ref().unwrap().steps[0].capability, "ccos.math.add");
    let reqs = p.requests();
    assert_eq!(reqs[0].prompt_id, "plan.rtfs@1");
    assert!(
        text(&reqs[0]).contains("- :ccos.math.add [a:number b:number]"),
        "{}",
        text(&reqs[0])
    );
    assert!(text(&reqs[0]).contains("Goal: add 2 and 3"));
    assert!(!reqs[0].json_mode);
}

#[test]
fn markdown_fences_are_tolerated() {
    let (_, lp) = planner(
        builtins(),
        Policy::default(),
        &["```clojure\n(do\n  (step \"Add\" (call :ccos.math.add 2 3)))\n```"],
    );
    let o = lp.plan("add 2 and 3", Mode::Rtfs).unwrap();
    assert_eq!(o.rtfs.as_deref(), Some(ADD));
}

#[test]
fn truncated_output_is_repaired() {
    let (p, lp) = planner(
        builtins(),
        Policy::default(),
        &["(do (step \"Add\" (call :ccos.math.add 2 3)", ADD],
    );
    let o = lp.plan("add 2 and 3", Mode::Rtfs).unwrap();
    assert_eq!(o.model_calls, 2);
    assert_eq!(o.attempts[0].verdict, "invalid");
    assert_eq!(o.attempts[1].kind, "repair");
    let reqs = p.requests();
    assert_eq!(reqs[1].prompt_id, "plan.repair@1");
    assert!(
        last(&reqs[1]).contains("never closed"),
        "{}",
        last(&reqs[1])
    );
    // the conversation carries the rejected answer
    assert_eq!(reqs[1].messages.len(), 3);
}

#[test]
fn invalid_json_in_ir_mode_is_repaired() {
    let good = r#"{"steps": [{"id": "s1", "name": "Add", "capability": "ccos.math.add", "args": [2, 3]}]}"#;
    let (p, lp) = planner(
        builtins(),
        Policy::default(),
        &["{\"steps\": [{\"id\": \"s1\",}]}", good],
    );
    let o = lp.plan("add 2 and 3", Mode::Ir).unwrap();
    assert_eq!(o.model_calls, 2);
    assert_eq!(o.generation_mode(), "llm-ir");
    assert_eq!(
        o.rtfs.as_deref(),
        Some("(step \"Add\" (call :ccos.math.add 2 3))")
    );
    let reqs = p.requests();
    assert!(reqs[0].json_mode);
    assert_eq!(reqs[0].prompt_id, "plan.ir@1");
    assert!(last(&reqs[1]).contains("JSON"), "{}", last(&reqs[1]));
    // the model's IR and the canonical IR of the compiled plan agree
    let d = canon::compare(o.model_ir.as_ref().unwrap(), o.ir.as_ref().unwrap());
    assert!(d.equivalent(), "{d}");
}

#[test]
fn hallucinated_capability_triggers_a_replan_with_suggestions() {
    let (p, lp) = planner(
        builtins(),
        Policy::default(),
        &["(do (step \"Add\" (call :ccos.math.plus 2 3)))", ADD],
    );
    let o = lp.plan("add 2 and 3", Mode::Rtfs).unwrap();
    assert_eq!(o.model_calls, 2);
    assert_eq!(o.attempts[0].verdict, "missing_capabilities");
    assert_eq!(o.attempts[1].kind, "replan");
    let reqs = p.requests();
    assert_eq!(reqs[1].prompt_id, "plan.replan_hints@1");
    let hint = last(&reqs[1]);
    assert!(hint.contains("ccos.math.plus - not found"), "{hint}");
    assert!(hint.contains("ccos.math.add"), "{hint}");
}

#[test]
fn the_same_plan_again_stops_replanning_with_requires_agent() {
    let bad = "(do (step \"Fly\" (call :travel.flights.book {:to \"Paris\"})))";
    let (_, lp) = planner(builtins(), Policy::default(), &[bad, bad, bad, bad]);
    let o = lp.plan("book a flight to Paris", Mode::Auto).unwrap();
    assert_eq!(o.model_calls, 2, "{:?}", o.attempts);
    assert!(o.rtfs.is_none());
    let ra = o.requires_agent.unwrap();
    assert_eq!(ra.missing, ["travel.flights.book"]);
}

#[test]
fn replans_are_bounded() {
    let (_, lp) = planner(
        builtins(),
        Policy::default(),
        &[
            "(do (call :x.one))",
            "(do (call :x.two))",
            "(do (call :x.three))",
            "(do (call :x.four))",
        ],
    );
    let o = lp.plan("do something", Mode::Rtfs).unwrap();
    assert_eq!(o.model_calls, 3);
    assert_eq!(o.requires_agent.unwrap().missing, ["x.three"]);
}

#[test]
fn a_denied_capability_is_never_accepted() {
    let policy = Policy::from_toml_str("[capabilities]\ndeny = [\"ccos.file.write\"]\n").unwrap();
    let write = "(do (step \"Save\" (call :ccos.file.write {:path \"a.txt\" :content \"hi\"})))";
    let echo = "(do (step \"Say\" (call :ccos.echo {:message \"hi\"})))";
    let (p, lp) = planner(builtins(), policy.clone(), &[write, echo]);
    let o = lp.plan("write hi to a.txt", Mode::Rtfs).unwrap();
    assert_eq!(o.model_calls, 2);
    assert!(!o.rtfs.unwrap().contains("file.write"));
    let repair = last(&p.requests()[1]).to_string();
    assert!(repair.contains("denied"), "{repair}");
    // the capability list never offers it
    assert!(!text(&p.requests()[0]).contains(":ccos.file.write"));
    // insisting ends in a clear error, in both modes
    let ir_write = r#"{"steps": [{"id": "w", "capability": "ccos.file.write", "args": {"path": "a", "content": "b"}}]}"#;
    let (_, lp) = planner(
        builtins(),
        policy,
        &[write, write, write, ir_write, ir_write, ir_write],
    );
    let e = lp.plan("write hi to a.txt", Mode::Auto).unwrap_err();
    assert_eq!(e.kind, FailureKind::NoValidPlan);
    assert_eq!(e.model_calls, 6);
    assert!(e.message.contains("denied"), "{}", e.message);
}

#[test]
fn a_cycle_in_ir_deps_is_named_and_repaired() {
    let cyclic = r#"{"steps": [
        {"id": "a", "capability": "ccos.math.add", "args": [1, {"$ref": "b"}], "deps": ["b"]},
        {"id": "b", "capability": "ccos.math.mul", "args": [2, {"$ref": "a"}], "deps": ["a"]}]}"#;
    let fixed = r#"{"steps": [
        {"id": "a", "name": "Add", "capability": "ccos.math.add", "args": [1, 2]},
        {"id": "b", "name": "Mul", "capability": "ccos.math.mul", "args": [2, {"$ref": "a"}], "deps": ["a"]}]}"#;
    let (p, lp) = planner(builtins(), Policy::default(), &[cyclic, fixed]);
    let o = lp.plan("add then multiply", Mode::Ir).unwrap();
    assert!(
        last(&p.requests()[1]).contains("a -> b -> a"),
        "{}",
        last(&p.requests()[1])
    );
    assert_eq!(
        o.rtfs.as_deref(),
        Some(
            "(let [s1 (step \"Add\" (call :ccos.math.add 1 2))\n      s2 (step \"Mul\" (call :ccos.math.mul 2 s1))]\n  s2)"
        )
    );
}

#[test]
fn wrong_argument_types_are_repaired() {
    let (p, lp) = planner(
        builtins(),
        Policy::default(),
        &["(do (step \"Add\" (call :ccos.math.add \"2\" 3)))", ADD],
    );
    let o = lp.plan("add 2 and 3", Mode::Rtfs).unwrap();
    assert_eq!(o.model_calls, 2);
    let r = last(&p.requests()[1]).to_string();
    assert!(r.contains("wrong_type"), "{r}");
    // and in IR mode, with the JSON path of the bad value
    let (p, lp) = planner(
        builtins(),
        Policy::default(),
        &[
            r#"{"steps": [{"id": "s1", "capability": "ccos.echo", "args": {"message": 5}}]}"#,
            r#"{"steps": [{"id": "s1", "capability": "ccos.echo", "args": {"message": "5"}}]}"#,
        ],
    );
    lp.plan("say 5", Mode::Ir).unwrap();
    let r = last(&p.requests()[1]).to_string();
    assert!(r.contains("/steps/0/args/message"), "{r}");
}

#[test]
fn forbidden_forms_are_refused_with_a_hint() {
    let (p, lp) = planner(
        builtins(),
        Policy::default(),
        &[
            "(do (defn f [x] (call :ccos.echo {:message x})) (f \"hi\"))",
            "(do (step \"Say\" (call :ccos.echo {:message \"hi\"})))",
        ],
    );
    lp.plan("say hi", Mode::Rtfs).unwrap();
    assert!(last(&p.requests()[1]).contains("may not define functions"));
}

#[test]
fn a_never_converging_model_hits_the_loop_bounds() {
    // Garbage forever: Mode A 1 + 2 repairs, Mode B 1 + 2 repairs.
    let garbage: Vec<&str> = vec!["I cannot do that."; 50];
    let (p, lp) = planner(builtins(), Policy::default(), &garbage);
    let e = lp.plan("add 2 and 3", Mode::Auto).unwrap_err();
    assert_eq!(e.kind, FailureKind::NoValidPlan);
    assert_eq!((e.model_calls, p.calls()), (6, 6));
    // The worst case: every re-plan and every repair in both modes.
    let worst = [
        "(do (call :x.one))",
        "(do (call :x.two))",
        "(do (call :ccos.math.add \"a\" 1))",
        "(do (call :ccos.math.add \"b\" 1))",
        "(do (call :ccos.math.add \"c\" 1))",
        r#"{"steps": [{"id": "1", "capability": "y.one"}]}"#,
        r#"{"steps": [{"id": "1", "capability": "y.two"}]}"#,
        r#"{"steps": [{"id": "1", "capability": "ccos.math.add", "args": ["a", 1]}]}"#,
        r#"{"steps": [{"id": "1", "capability": "ccos.math.add", "args": ["b", 1]}]}"#,
        r#"{"steps": [{"id": "1", "capability": "ccos.math.add", "args": ["c", 1]}]}"#,
        ADD,
    ];
    let (p, lp) = planner(builtins(), Policy::default(), &worst);
    let e = lp.plan("add 2 and 3", Mode::Auto).unwrap_err();
    let o = lp.options();
    let bound = 2 * (1 + o.max_repairs + o.max_replans);
    assert_eq!(bound, 10);
    assert_eq!(
        (e.model_calls, p.calls()),
        (bound, bound),
        "{:?}",
        e.attempts
    );
    eprintln!("figure: model calls per goal, happy path 1, worst case (auto) {bound}");
}

#[test]
fn llm_errors_are_clear() {
    let (_, lp) = planner(builtins(), Policy::default(), &[]);
    let e = lp.plan("add", Mode::Rtfs).unwrap_err();
    assert_eq!(e.kind, FailureKind::Llm);
    assert!(e.message.contains("no answer left"), "{}", e.message);
}

/// The design note's example: a first plan `github.issues.list` →
/// `data.list.filter` against a catalog holding only `github.issues.list`
/// becomes a single call with `:state "all"` after one re-plan.
#[test]
fn seed_example_replans_to_a_single_call_with_state_all() {
    let mp = Arc::new(Marketplace::new().unwrap());
    mp.register(CapabilityManifest {
        provider: ProviderSpec::Mcp {
            server: "github".into(),
            tool: "list_issues".into(),
        },
        effects: [Effect::Network].into_iter().collect(),
        ..CapabilityManifest::new(
            "github.issues.list",
            "Lists issues in a GitHub repository.",
            json!({"type": "object", "properties": {
                "owner": {"type": "string", "description": "repository owner"},
                "repo": {"type": "string", "description": "repository name"},
                "state": {"type": "string", "enum": ["open", "closed", "all"], "description": "filter issues by state"}
            }, "required": ["owner", "repo"]}),
        )
    })
    .unwrap();
    let first = r#"(do
  (let [issues (step "List issues" (call :github.issues.list {:owner "mandubian" :repo "ccos"}))]
    (step "Filter" (call :data.list.filter {:items issues :predicate "all"}))))"#;
    let second = r#"(do (step "List all issues" (call :github.issues.list {:owner "mandubian" :repo "ccos" :state "all"})))"#;
    let (p, lp) = planner(mp, Policy::default(), &[first, second]);
    let o = lp
        .plan(
            "filter all issues of github repository ccos of owner mandubian",
            Mode::Rtfs,
        )
        .unwrap();
    assert_eq!(o.model_calls, 2);
    assert_eq!(o.attempts.iter().filter(|a| a.kind == "replan").count(), 1);
    let ir = o.ir.unwrap();
    assert_eq!(ir.steps.len(), 1);
    assert_eq!(ir.steps[0].capability, "github.issues.list");
    assert_eq!(ir.steps[0].args["state"], "all");
    assert_eq!(
        o.rtfs.as_deref(),
        Some(
            "(do\n  (step \"List all issues\"\n    (call :github.issues.list {:owner \"mandubian\" :repo \"ccos\" :state \"all\"})))"
        )
    );
    let hints = last(&p.requests()[1]).to_string();
    assert!(hints.contains("data.list.filter - not found"), "{hints}");
    assert!(
        hints.contains("github.issues.list (mcp github/list_issues)"),
        "{hints}"
    );
    assert!(hints.contains("state open|closed|all"), "{hints}");
    assert!(
        hints.contains("state accepts one of: open, closed, all"),
        "{hints}"
    );
    // a network capability needs approval: a warning, not a rejection
    assert!(
        o.warnings.iter().any(|w| w.contains("needs_approval")),
        "{:?}",
        o.warnings
    );
}

#[test]
fn both_modes_compare_equivalent() {
    let a = r#"(do (let [s (step "Read" (call :ccos.file.read {:path "a.txt"}))] (step "Count" (call :ccos.text.count_words {:text s}))))"#;
    let b = r#"{"steps": [
      {"id": "read", "name": "Read", "capability": "ccos.file.read", "args": {"path": "a.txt"}},
      {"id": "count", "name": "Count", "capability": "ccos.text.count_words", "args": {"text": {"$ref": "read"}}, "deps": ["read"]}]}"#;
    let (_, lp) = planner(builtins(), Policy::default(), &[a, b]);
    let oa = lp.plan("count the words of a.txt", Mode::Rtfs).unwrap();
    let ob = lp.plan("count the words of a.txt", Mode::Ir).unwrap();
    let d = canon::compare(ob.model_ir.as_ref().unwrap(), oa.ir.as_ref().unwrap());
    assert!(d.equivalent(), "{d}");
    assert_eq!(
        d.matched,
        [("read".into(), "c1".into()), ("count".into(), "c2".into())]
    );
    // and a different plan is not
    let c = r#"(do (step "Count" (call :ccos.text.count_words {:text "x y"})))"#;
    let (_, lp) = planner(builtins(), Policy::default(), &[c]);
    let oc = lp.plan("count", Mode::Rtfs).unwrap();
    let d = canon::compare(ob.model_ir.as_ref().unwrap(), oc.ir.as_ref().unwrap());
    assert!(!d.equivalent());
    assert_eq!(d.only_in_a[0].capability, "ccos.file.read");
}

/// A synthetic catalog of `n` capabilities over a few domains.
fn synthetic(n: usize) -> Arc<Marketplace> {
    let mp = Marketplace::new().unwrap();
    let domains = [
        "github", "jira", "slack", "mail", "calendar", "drive", "weather", "maps", "crm", "billing",
    ];
    let verbs = [
        "list", "get", "create", "update", "delete", "search", "count", "export",
    ];
    let mut all = vec![];
    for i in 0..n {
        let d = domains[i % domains.len()];
        let v = verbs[(i / domains.len()) % verbs.len()];
        let id = format!("{d}.{v}.item{i}");
        all.push(CapabilityManifest {
            effects: [Effect::Read].into_iter().collect(),
            ..CapabilityManifest::new(
                id,
                format!("{v} {d} items (variant {i}): a synthetic capability with a description of ordinary length for figures."),
                json!({"type": "object", "properties": {
                    "query": {"type": "string", "description": "what to look for"},
                    "limit": {"type": "integer"},
                    "state": {"type": "string", "enum": ["open", "closed", "all"]}
                }, "required": ["query"]}),
            )
        });
    }
    mp.replace_all(all).unwrap();
    Arc::new(mp)
}

#[test]
fn prompt_size_is_bounded_by_top_k_not_the_catalog() {
    let goal = "list the open github issues and count them";
    let mut sizes = vec![];
    for n in [10, 100, 1000] {
        let (_, lp) = planner(synthetic(n), Policy::default(), &[]);
        let tokens = lp
            .initial_request(goal, Mode::Rtfs)
            .unwrap()
            .approx_tokens();
        let ir_tokens = lp.initial_request(goal, Mode::Ir).unwrap().approx_tokens();
        let listed = lp.capability_list(goal).lines().count();
        eprintln!(
            "figure: catalog {n:>5}: Mode A prompt ~{tokens} tokens, Mode B ~{ir_tokens} tokens, {listed} capabilities listed"
        );
        assert!(listed <= lp.options().top_k);
        sizes.push(tokens);
    }
    // 100 and 1,000 capabilities give prompts of the same size (top-k)
    assert!(sizes[2] <= sizes[1] + sizes[1] / 10, "{sizes:?}");
    assert!(sizes[2] < 1500, "{sizes:?}");
}
