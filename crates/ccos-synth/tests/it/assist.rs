//! LLM assist: a valid proposal is used; anything invalid falls back to
//! the deterministic planner with the reason in the trace.

use ccos_governance::Policy;
use ccos_llm::ScriptedProvider;
use ccos_synth::assist::assist;
use ccos_synth::{SynthOptions, synthesize_planner};

use crate::support::{ctx, fixture};

const CTX: &str = r#"{"goal": "say hello",
    "schema": [{"key": "message", "type": "string", "required": true}],
    "history": [{"question": "What?", "answer": "hi", "params": {"message": "hi"}}]}"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn valid_proposals_are_used_and_invalid_ones_fall_back() {
    let fx = fixture(Policy::default()).await;
    let c = ctx(CTX, &fx.mp);
    let det = synthesize_planner(&c, &fx.policy, &SynthOptions::default());

    let good = "```clojure\n(do {:status \"processing\" :result (call :ccos.text.upper {:text (get context :message)}) :context context})\n```";
    let llm = ScriptedProvider::new([good]);
    let s = assist(&c, det.clone(), &llm, &*fx.mp, &fx.policy);
    assert_eq!(s.decision_trace.source, "llm");
    assert_eq!(s.required_capabilities, vec!["ccos.text.upper"]);
    let v = fx.preflight_and_run(&s.rtfs, &c).await;
    assert_eq!(v.get_key("result").unwrap().to_string(), "\"HI\"");
    let req = &llm.requests()[0];
    assert_eq!(req.prompt_id, "synth.planner@1");
    assert!(req.messages[0].content.contains("ccos.echo"));

    for (answer, why) in [
        ("(do (call :ccos.nope {:x 1}))", "unknown capability"),
        ("(do (call :ccos.echo {:message 1}))", "preflight"),
        ("(do (call :ccos.echo", "does not parse"),
    ] {
        let llm = ScriptedProvider::new([answer]);
        let s = assist(&c, det.clone(), &llm, &*fx.mp, &fx.policy);
        assert_eq!(s.decision_trace.source, "deterministic");
        assert_eq!(s.rtfs, det.rtfs);
        let note = s.decision_trace.notes.last().unwrap();
        assert!(note.contains(why), "{answer}: {note}");
    }
    let policy =
        Policy::from_toml_str("[capabilities]\nallow = [\"*\"]\ndeny = [\"ccos.text.*\"]\n")
            .unwrap();
    let det2 = synthesize_planner(&c, &policy, &SynthOptions::default());
    let s = assist(&c, det2, &ScriptedProvider::new([good]), &*fx.mp, &policy);
    assert_eq!(s.decision_trace.source, "deterministic");
    assert!(s.decision_trace.notes.last().unwrap().contains("denied"));
    // No answer left: fallback too.
    let empty = ScriptedProvider::new(Vec::<String>::new());
    let s = assist(&c, det.clone(), &empty, &*fx.mp, &fx.policy);
    assert_eq!(s.decision_trace.source, "deterministic");
}
