//! Recording LLM planning in the store: the exchanges (`llm_exchange`),
//! generated intents (`intent_created` with the parse attempts), and the
//! outcome of plan generation (`llm_plan`, the plan archived as a draft).
//! Intents and plans are created with the deterministic planner's
//! recording functions, so both planners record the same way.

use ccos_core::Redactor;
use ccos_core::audit::NewEntry;
use ccos_core::audit::payload as audit;
use ccos_llm::Exchange;
use ccos_planner::planner::{archive_draft, create_root_intent};
use ccos_store::{Store, StoreError};
use serde_json::json;

use crate::modes::{Attempt, LlmPlanError, LlmPlanOutcome};

/// The chain entry kind of one LLM exchange.
pub const LLM_EXCHANGE: &str = "llm_exchange";

/// What one plan-generation run produced.
pub type Planned = Result<LlmPlanOutcome, LlmPlanError>;

/// Appends each exchange (already redacted by [`ccos_llm::Recorder`]) to the
/// causal chain as an `llm_exchange` entry, in order, linked to `intent_id`
/// when given. Returns the sequence numbers of the new entries.
pub async fn record_exchanges(
    store: &Store,
    intent_id: Option<&str>,
    exchanges: &[Exchange],
) -> Result<Vec<i64>, StoreError> {
    let mut seqs = Vec::with_capacity(exchanges.len());
    for ex in exchanges {
        let mut entry = NewEntry::of(&ex.audit_record());
        if let Some(id) = intent_id {
            entry = entry.intent(id);
        }
        seqs.push(store.append(entry).await?.seq);
    }
    Ok(seqs)
}

/// Stores a generated intent in the IntentGraph (metadata `parse_format`,
/// `parse_attempts`, `name`, `success_criteria`, `source: "llm"`), appends
/// an `intent_created` entry (with the parse attempts: both are logged) and
/// then the LLM exchanges that produced it. Returns the new intent's id.
pub async fn record_generated_intent(
    store: &Store,
    intent: &crate::intent_gen::GeneratedIntent,
    exchanges: &[Exchange],
    secrets: &Redactor,
) -> Result<String, StoreError> {
    let goal = secrets.redact_str(&intent.goal).into_owned();
    let id = ccos_core::new_id("intent", &goal);
    let json = intent.to_json();
    let mut new = ccos_store::NewIntent::new(&id, &goal);
    new.constraints = secrets.redact_json(&intent.constraints_json());
    new.preferences = secrets.redact_json(&intent.preferences_json());
    new.metadata = secrets.redact_json(&json!({
        "name": intent.name,
        "parse_format": intent.parse_format.as_str(),
        "parse_attempts": intent.attempts,
        "success_criteria": json["success_criteria"],
        "source": "llm",
    }));
    store.create_intent(new).await?;
    let mut entry = NewEntry::of(&audit::IntentCreated {
        goal,
        source: "llm".into(),
        name: Some(intent.name.clone()),
        parse_format: Some(intent.parse_format.as_str().to_string()),
        parse_attempts: intent
            .attempts
            .iter()
            .map(|a| audit::ParseAttempt {
                format: a.format.as_str().to_string(),
                error: a.error.clone(),
            })
            .collect(),
    })
    .intent(&id);
    entry.payload = secrets.redact_json(&entry.payload);
    store.append(entry).await?;
    record_exchanges(store, Some(&id), exchanges).await?;
    Ok(id)
}

/// Creates the root intent of a goal planned by a model (`mode` is the
/// plan mode requested: `rtfs`, `ir`, `auto`, `compare`).
pub async fn create_llm_intent(
    store: &Store,
    goal: &str,
    mode: &str,
    secrets: &Redactor,
) -> Result<String, StoreError> {
    create_root_intent(
        store,
        goal,
        "llm",
        json!({"planner": "llm", "mode": mode}),
        secrets,
    )
    .await
}

fn attempt_record(a: &Attempt) -> audit::LlmPlanAttempt {
    audit::LlmPlanAttempt {
        mode: a.mode.clone(),
        round: a.round as u64,
        kind: a.kind.clone(),
        prompt: a.prompt.clone(),
        verdict: a.verdict.clone(),
        findings: a.findings.clone(),
    }
}

/// Appends the exchanges so far (`llm_exchange`), archives the plan as a
/// draft when there is one and `archive` (a run archives it itself), and
/// appends an `llm_plan` entry with the attempts. Returns the plan id when
/// archived.
pub async fn record_plan_outcome(
    store: &Store,
    intent_id: &str,
    planned: &Planned,
    exchanges: &[Exchange],
    archive: bool,
    secrets: &Redactor,
) -> Result<Option<String>, StoreError> {
    record_exchanges(store, Some(intent_id), exchanges).await?;
    let (attempts, calls, verdict) = match planned {
        Ok(o) if o.rtfs.is_some() => (&o.attempts, o.model_calls, "plan"),
        Ok(o) => (&o.attempts, o.model_calls, "requires_agent"),
        Err(e) => (&e.attempts, e.model_calls, "no_valid_plan"),
    };
    let mut plan_id = None;
    if let Ok(o) = planned
        && let Some(rtfs) = &o.rtfs
        && archive
    {
        let ir = o
            .model_ir
            .as_ref()
            .or(o.ir.as_ref())
            .and_then(|ir| serde_json::to_value(ir).ok());
        plan_id = Some(
            archive_draft(
                store,
                intent_id,
                rtfs,
                ir,
                o.generation_mode(),
                json!({"attempts": o.attempts, "warnings": o.warnings}),
                secrets,
            )
            .await?,
        );
    }
    let record = audit::LlmPlan {
        verdict: verdict.into(),
        model_calls: calls as u64,
        attempts: attempts.iter().map(attempt_record).collect(),
        requires_agent: planned
            .as_ref()
            .ok()
            .and_then(|o| o.requires_agent.as_ref())
            .map(|ra| audit::LlmMissing {
                missing: ra.missing.clone(),
                suggestions: ra.suggestions.clone(),
            }),
        error: planned.as_ref().err().map(|e| e.message.clone()),
    };
    let mut entry = NewEntry::of(&record).intent(intent_id);
    entry.payload = secrets.redact_json(&entry.payload);
    if let Some(p) = &plan_id {
        entry = entry.plan(p);
    }
    store.append(entry).await?;
    Ok(plan_id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intent_gen::generate_intent;
    use ccos_llm::{Recorder, ScriptedProvider};
    use std::sync::Arc;

    #[tokio::test]
    async fn intent_and_exchanges_recorded_redacted() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("s.db").display());
        let store = Store::open(&url).await.unwrap();
        let p = Arc::new(ScriptedProvider::new([
            "(intent \"x\" :goal \"use key sk-9 to fetch\" :constraints {})",
        ]));
        let mut secrets = Redactor::default();
        secrets.add("sk-9");
        let rec = Recorder::new(p, secrets.clone());
        let g = generate_intent(&rec, "fetch with sk-9").unwrap();
        let id = record_generated_intent(&store, &g, &rec.take_exchanges(), &secrets)
            .await
            .unwrap();
        let stored = store.get_intent(&id).await.unwrap().unwrap();
        assert_eq!(stored.metadata["parse_format"], "rtfs");
        let chain = store.chain_by_intent(&id).await.unwrap();
        let kinds: Vec<&str> = chain.iter().map(|e| e.kind.as_str()).collect();
        assert_eq!(kinds, vec!["intent_created", LLM_EXCHANGE]);
        let ex = chain[1].payload.to_string();
        assert!(
            ex.contains("intent.rtfs@1") && ex.contains("<redacted>"),
            "{ex}"
        );
        assert!(!ex.contains("sk-9"), "{ex}");
        assert!(!stored.goal.contains("sk-9"), "{}", stored.goal);
        assert!(store.verify_chain().await.unwrap().ok);
        store.close().await;
    }
}
