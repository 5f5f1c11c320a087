//! One golden planner per template, each preflighted and executed.

use ccos_governance::Policy;
use ccos_synth::{PlannerGenContext, SynthOptions, Template, synthesize_planner};

use crate::golden;
use crate::support::{ctx, example, fixture};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn direct_call_template() {
    let fx = fixture(Policy::default()).await;
    let c = ctx(
        r#"{"goal": "say hello",
            "schema": [{"key": "message", "type": "string", "required": true}],
            "history": [{"question": "What should I say?", "answer": "hello there",
                         "params": {"message": "hello there"}}]}"#,
        &fx.mp,
    );
    let s = synthesize_planner(&c, &fx.policy, &SynthOptions::default());
    assert_eq!(s.decision_trace.template, Template::Direct, "{}", s.rtfs);
    assert_eq!(s.required_capabilities, vec!["ccos.echo"]);
    golden!("direct", &s.rtfs);
    let v = fx.preflight_and_run(&s.rtfs, &c).await;
    assert_eq!(
        v.to_string(),
        r#"{:context {:message "hello there"} :result "hello there" :status "processing"}"#
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn adapter_template_from_a_two_turn_history() {
    let fx = fixture(Policy::default()).await;
    let c = PlannerGenContext::from_file(&example("two-turns.json"))
        .unwrap()
        .with_live_snapshots(&fx.mp);
    assert_eq!(c.history.len(), 2);
    let s = synthesize_planner(&c, &fx.policy, &SynthOptions::default());
    let t = &s.decision_trace;
    assert_eq!(t.template, Template::Adapter, "{}", s.rtfs);
    assert_eq!(s.required_capabilities, vec!["ccos.data.take"]);
    let count = t.adapters.iter().find(|a| a.to == "count").unwrap();
    assert_eq!(count.from, "n");
    assert_eq!(count.coercion.as_deref(), Some("string->int"));
    assert_eq!(count.rename, "skill-hint");
    assert_eq!(t.coverage.required, vec!["items", "n"]);
    assert_eq!(t.coverage.missing, Vec::<String>::new());
    golden!("adapter", &s.rtfs);
    let v = fx.preflight_and_run(&s.rtfs, &c).await;
    assert_eq!(v.get_key("status").unwrap().to_string(), "\"processing\"");
    assert_eq!(v.get_key("result").unwrap().to_string(), "[7 3]");

    // The same planner answers requires-agent when the context lacks a key.
    let mut partial = c.clone();
    partial.history.truncate(1);
    let v = fx.preflight_and_run(&s.rtfs, &partial).await;
    assert_eq!(
        v.get_key("status").unwrap().to_string(),
        "\"requires-agent\""
    );
    assert_eq!(v.get_key("missing").unwrap().to_string(), "[:n]");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requires_agent_template() {
    let fx = fixture(Policy::default()).await;
    let c = ctx(
        r#"{"goal": "weather forecast for a trip",
            "schema": [{"key": "city", "type": "string", "required": true},
                       {"key": "date", "type": "date", "required": true}],
            "history": [{"question": "Where to?", "answer": "Paris", "params": {"city": "Paris"}}],
            "skills": [{"name": "weather"}]}"#,
        &fx.mp,
    );
    let s = synthesize_planner(&c, &fx.policy, &SynthOptions::default());
    let t = &s.decision_trace;
    assert_eq!(t.template, Template::RequiresAgent, "{}", s.rtfs);
    let fb = t.fallback.as_ref().unwrap();
    assert_eq!(fb.stub_id, "synth.weather.agent.stub");
    assert_eq!(fb.missing_required, vec!["date"]);
    assert_eq!(s.required_capabilities, vec!["synth.weather.agent.stub"]);
    assert!(t.selected.is_none());
    golden!("requires_agent", &s.rtfs);
    let v = fx.preflight_and_run(&s.rtfs, &c).await;
    assert_eq!(
        v.to_string(),
        r#"{:context {:city "Paris"} :missing [:date] :required_capability "synth.weather.agent.stub" :status "requires-agent"}"#
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn synthesis_is_deterministic_and_recorded_in_the_chain() {
    let fx = fixture(Policy::default()).await;
    let c = PlannerGenContext::from_file(&example("two-turns.json"))
        .unwrap()
        .with_live_snapshots(&fx.mp);
    let a = synthesize_planner(&c, &fx.policy, &SynthOptions::default());
    let b = synthesize_planner(&c, &fx.policy, &SynthOptions::default());
    assert_eq!(a.rtfs, b.rtfs);
    assert_eq!(
        serde_json::to_string(&a).unwrap(),
        serde_json::to_string(&b).unwrap()
    );
    let e = ccos_synth::record_generation(&fx.store, &a, &c)
        .await
        .unwrap();
    assert_eq!(e.kind, "planner_generation");
    let p = &e.payload;
    assert_eq!(p["selected"], "ccos.data.take");
    assert_eq!(p["template"], "adapter");
    assert!(p["candidates"].as_array().unwrap().len() > 3);
    assert!(p["candidates"][0]["coverage"].is_number());
    assert!(p["candidates"][0]["compatibility"].is_number());
    assert!(p["candidates"][0]["trust_bias"].is_number());
    assert_eq!(p["coverage"]["required"], serde_json::json!(["items", "n"]));
    assert_eq!(p["adapters"][1]["coercion"], "string->int");
    assert!(fx.store.verify_chain().await.unwrap().ok);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn adapter_template_with_positional_arguments() {
    let fx = fixture(Policy::default()).await;
    let c = ctx(
        r#"{"goal": "add two numbers",
            "schema": [{"key": "a", "type": "string", "required": true},
                       {"key": "b", "type": "int", "required": true}],
            "history": [{"question": "First?", "answer": "2.5", "params": {"a": "2.5"}},
                        {"question": "Second?", "answer": "3", "params": {"b": 3}}]}"#,
        &fx.mp,
    );
    let s = synthesize_planner(&c, &fx.policy, &SynthOptions::default());
    assert_eq!(s.decision_trace.template, Template::Adapter, "{}", s.rtfs);
    // add, div, mul, sub tie on every part; the id breaks the tie.
    assert_eq!(s.required_capabilities, vec!["ccos.math.add"]);
    golden!("adapter_positional", &s.rtfs);
    let v = fx.preflight_and_run(&s.rtfs, &c).await;
    assert_eq!(v.get_key("result").unwrap().to_string(), "5.5");
}
