//! A disallowed capability or agent is never selected, even scoring best.

use ccos_governance::Policy;
use ccos_marketplace::{AgentCard, CapabilityManifest, Effect, TrustTier};
use ccos_synth::{SynthOptions, synthesize_planner};
use serde_json::json;

use crate::support::{ctx, fixture};

fn perfect(id: &str) -> CapabilityManifest {
    CapabilityManifest {
        trust_tier: TrustTier::System,
        local: true,
        effects: [Effect::Pure].into(),
        ..CapabilityManifest::new(
            id,
            "greets a person in a city",
            json!({"type": "object", "properties": {"person": {"type": "string"}, "city": {"type": "string"}},
                   "required": ["person", "city"]}),
        )
    }
}

const CTX: &str = r#"{"goal": "greet someone",
    "schema": [{"key": "person", "type": "string", "required": true},
               {"key": "city", "type": "string", "required": true}],
    "history": [{"question": "Who?", "answer": "Ada in London",
                 "params": {"person": "Ada", "city": "London"}}],
    "skills": [{"name": "greeting"}]}"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disallowed_candidates_are_filtered_before_scoring() {
    let fx = fixture(Policy::default()).await;
    fx.mp.register(perfect("acme.greet")).unwrap();
    fx.mp.register(perfect("agent.greeter")).unwrap();
    fx.mp
        .register_agent(AgentCard {
            id: "agent.greeter".into(),
            description: "greets".into(),
            skills: vec!["greeting".into()],
            context_keys: vec!["person".into(), "city".into()],
            trust_tier: TrustTier::System,
            plan: None,
        })
        .unwrap();
    let c = ctx(CTX, &fx.mp);

    // Allowed: the perfect capability (or the agent) wins.
    let s = synthesize_planner(&c, &fx.policy, &SynthOptions::default());
    let sel = s.decision_trace.selected.as_ref().unwrap();
    assert!(
        ["acme.greet", "agent.greeter"].contains(&sel.id.as_str()),
        "{sel:?}"
    );

    // Denied by glob: neither is a candidate, both are listed with reasons.
    let policy = Policy::from_toml_str(
        "[capabilities]\nallow = [\"*\"]\ndeny = [\"acme.*\", \"agent.*\"]\n",
    )
    .unwrap();
    let s = synthesize_planner(&c, &policy, &SynthOptions::default());
    let t = &s.decision_trace;
    assert!(t.selected.is_none(), "{:?}", t.selected);
    assert!(
        !t.candidates
            .iter()
            .any(|c| c.id.starts_with("acme.") || c.id.starts_with("agent."))
    );
    let filtered: Vec<(&str, &str)> = t
        .filtered
        .iter()
        .map(|f| (f.id.as_str(), f.kind.as_str()))
        .collect();
    assert_eq!(
        filtered,
        vec![("acme.greet", "capability"), ("agent.greeter", "agent")]
    );
    assert!(t.filtered[0].reasons[0].contains("denied by pattern acme.*"));
    assert!(!s.rtfs.contains("acme.greet") && !s.rtfs.contains("agent.greeter"));

    // Denied by trust tier: an untrusted perfect match is filtered too.
    let fx2 = fixture(Policy::default()).await;
    fx2.mp
        .register(CapabilityManifest {
            trust_tier: TrustTier::Untrusted,
            ..perfect("shady.greet")
        })
        .unwrap();
    let s = synthesize_planner(&ctx(CTX, &fx2.mp), &fx2.policy, &SynthOptions::default());
    assert!(s.decision_trace.selected.is_none());
    assert!(s.decision_trace.filtered[0].reasons[0].contains("trust tier untrusted"));
}
