//! Agent synthesis end to end: trigger, multi-step plan, registration,
//! delegation, execution, and the trust feedback loop.

use ccos_governance::Policy;
use ccos_marketplace::TrustTier;
use ccos_synth::trust::{adjust_agent_trust, load_outcomes};
use ccos_synth::{
    AgentTrigger, SynthOptions, Template, delegating_planner, register_agent, synthesize_agent,
};

use crate::support::{ctx, fixture};

const CTX: &str = r#"{"goal": "split my text then keep the first words",
    "schema": [{"key": "text", "type": "string", "required": true},
               {"key": "separator", "type": "string", "required": true},
               {"key": "count", "type": "int", "required": true}],
    "history": [
      {"question": "Which text?", "answer": "a,b,c,d", "params": {"text": "a,b,c,d"}},
      {"question": "Split on?", "answer": "commas, then keep two", "params": {"separator": ",", "count": 2}}
    ],
    "skills": [{"name": "head-words", "capabilities": ["ccos.text.split", "ccos.data.take"]}]}"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agent_is_synthesized_registered_delegated_to_and_earns_trust() {
    let fx = fixture(Policy::default()).await;
    let c = ctx(CTX, &fx.mp);
    let reasons = AgentTrigger::default().reasons(&c);
    assert_eq!(reasons, vec!["sequencing words: then"]);

    let mut agent = synthesize_agent(&c, &fx.policy, &SynthOptions::default(), reasons).unwrap();
    assert_eq!(agent.card.id, "synth.head-words.agent");
    assert_eq!(agent.steps, vec!["ccos.text.split", "ccos.data.take"]);
    crate::golden!("agent_plan", agent.card.plan.as_deref().unwrap());
    register_agent(&fx.mp, &mut agent).unwrap();
    assert!(fx.mp.get_agent("synth.head-words.agent").is_some());

    let s = delegating_planner(&c, &agent, &fx.policy, &SynthOptions::default());
    assert_eq!(s.decision_trace.template, Template::Direct, "{}", s.rtfs);
    assert_eq!(s.required_capabilities, vec!["synth.head-words.agent"]);
    assert_eq!(s.decision_trace.selected.as_ref().unwrap().kind, "agent");
    let before = s.decision_trace.selected.clone().unwrap();
    for _ in 0..3 {
        let v = fx.preflight_and_run(&s.rtfs, &c).await;
        assert_eq!(v.get_key("result").unwrap().to_string(), r#"["a" "b"]"#);
    }

    // Feedback: three successes raise the history part and the tier.
    let stats = load_outcomes(&fx.store, ["synth.head-words.agent", "ccos.text.split"])
        .await
        .unwrap();
    assert_eq!(stats["synth.head-words.agent"], (3, 0));
    assert_eq!(stats["ccos.text.split"], (3, 0));
    let opts = SynthOptions {
        outcomes: stats,
        ..SynthOptions::default()
    };
    let after = delegating_planner(&c, &agent, &fx.policy, &opts);
    let sel = after.decision_trace.selected.unwrap();
    assert!(sel.trust_bias > before.trust_bias, "{sel:?} vs {before:?}");
    assert!(
        sel.explain.iter().any(|e| e.contains("(3/3 ok)")),
        "{:?}",
        sel.explain
    );
    let changes = adjust_agent_trust(&fx.mp, &fx.store).await.unwrap();
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0].to, TrustTier::Trusted);
    assert_eq!(
        fx.mp
            .get_agent("synth.head-words.agent")
            .unwrap()
            .trust_tier,
        TrustTier::Trusted
    );
    assert_eq!(
        fx.mp.get("synth.head-words.agent").unwrap().trust_tier,
        TrustTier::Trusted
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_denied_agent_is_never_delegated_to() {
    let fx = fixture(Policy::default()).await;
    let c = ctx(CTX, &fx.mp);
    let mut agent = synthesize_agent(&c, &fx.policy, &SynthOptions::default(), vec![]).unwrap();
    register_agent(&fx.mp, &mut agent).unwrap();
    let policy =
        Policy::from_toml_str("[capabilities]\nallow = [\"*\"]\ndeny = [\"synth.*\"]\n").unwrap();
    let s = delegating_planner(&c, &agent, &policy, &SynthOptions::default());
    assert_eq!(s.decision_trace.template, Template::RequiresAgent);
    assert_eq!(s.decision_trace.filtered[0].id, "synth.head-words.agent");
    // A step the policy denies makes synthesis fail rather than build a
    // plan that cannot run.
    let deny_take =
        Policy::from_toml_str("[capabilities]\nallow = [\"*\"]\ndeny = [\"ccos.data.*\"]\n")
            .unwrap();
    let e = synthesize_agent(&c, &deny_take, &SynthOptions::default(), vec![]).unwrap_err();
    assert!(
        e.to_string().contains("ccos.data.take (denied by policy)"),
        "{e}"
    );
}
