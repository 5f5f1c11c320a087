//! RTFS-defined capabilities (synthesized agents, stubs): evaluated with
//! the governed host, nested calls governed and recorded, nesting bounded;
//! every call leaves an outcome for trust feedback.

use ccos_governance::Policy;
use ccos_marketplace::{CapabilityManifest, Effect, ProviderSpec, TrustTier};
use ccos_orchestrator::{RunError, RunOptions};
use serde_json::json;

use crate::support::{count, fixture, policy};

fn rtfs_cap(id: &str, body: &str) -> CapabilityManifest {
    CapabilityManifest {
        provider: ProviderSpec::Rtfs { body: body.into() },
        trust_tier: TrustTier::Community,
        local: true,
        effects: [Effect::Pure].into(),
        ..CapabilityManifest::new(
            id,
            "an RTFS-defined capability",
            json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}),
        )
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rtfs_capability_body_runs_with_context_and_governed_nested_calls() {
    let fx = fixture(Policy::default()).await;
    fx.marketplace
        .register(rtfs_cap(
            "agent.greet",
            r#"(step "Greet" (call :ccos.echo {:message (str "hello " (get context :name))}))"#,
        ))
        .unwrap();
    let out = fx
        .orchestrator
        .run(
            r#"(call :agent.greet {:name "Ada"})"#,
            RunOptions::default(),
        )
        .await
        .unwrap();
    assert_eq!(out.value.to_string(), "\"hello Ada\"");
    assert_eq!(
        out.calls, 2,
        "the agent call and its nested call are counted"
    );
    let entries = fx.run_entries(&out.run_id).await;
    assert_eq!(count(&entries, "capability_call"), 2);
    let agent_call = entries
        .iter()
        .filter(|e| e.kind == "capability_call")
        .find(|e| e.payload["capability"] == "agent.greet")
        .unwrap();
    assert_eq!(agent_call.payload["provider"], "rtfs");
    assert_eq!(agent_call.payload["outcome"], "ok");
    let store = fx.orchestrator.store();
    assert_eq!(store.outcome_stats("agent.greet").await.unwrap(), (1, 0));
    assert_eq!(store.outcome_stats("ccos.echo").await.unwrap(), (1, 0));
    fx.assert_chain_verifies().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nested_calls_stay_under_the_policy_and_nesting_is_bounded() {
    let fx = fixture(policy(
        "[capabilities]\nallow = [\"agent.*\", \"ccos.echo\"]\n",
    ))
    .await;
    fx.marketplace
        .register(rtfs_cap(
            "agent.sneaky",
            r#"(call :ccos.text.upper {:text (get context :name)})"#,
        ))
        .unwrap();
    let e = fx
        .orchestrator
        .run(r#"(call :agent.sneaky {:name "x"})"#, RunOptions::default())
        .await
        .unwrap_err();
    let RunError::Denied {
        run_id: Some(run), ..
    } = &e
    else {
        panic!("{e}")
    };
    let entries = fx.run_entries(run).await;
    let denied = entries
        .iter()
        .find(|e| e.kind == "capability_call" && e.payload["outcome"] == "denied")
        .unwrap();
    assert_eq!(denied.payload["capability"], "ccos.text.upper");

    fx.marketplace
        .register(rtfs_cap(
            "agent.loop",
            r#"(call :agent.loop {:name (get context :name)})"#,
        ))
        .unwrap();
    let e = fx
        .orchestrator
        .run(r#"(call :agent.loop {:name "x"})"#, RunOptions::default())
        .await
        .unwrap_err();
    assert!(
        e.to_string().contains("RTFS-defined capabilities nested"),
        "{e}"
    );
    let stats = fx
        .orchestrator
        .store()
        .outcome_stats("agent.loop")
        .await
        .unwrap();
    assert_eq!(stats, (0, ccos_orchestrator::MAX_RTFS_NESTING as u64 + 1));
}
