//! Recording LLM exchanges in the causal chain.

use ccos_llm::Exchange;
use ccos_store::{NewEntry, Store, StoreError};

/// The chain entry kind of one LLM exchange.
pub const LLM_EXCHANGE: &str = "llm_exchange";

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
        let payload = serde_json::to_value(ex).unwrap_or_else(|e| {
            // Exchange is plain data; serialisation cannot fail, but never
            // drop the record: keep what is known.
            serde_json::json!({"prompt_id": ex.prompt_id, "serialisation_error": e.to_string()})
        });
        let mut entry = NewEntry::new(LLM_EXCHANGE, payload);
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
    intent: &crate::llm::intent_gen::GeneratedIntent,
    exchanges: &[Exchange],
) -> Result<String, StoreError> {
    let id = crate::planner::unique_id("intent", &intent.goal);
    let json = intent.to_json();
    let mut new = ccos_store::NewIntent::new(&id, &intent.goal);
    new.constraints = intent.constraints_json();
    new.preferences = intent.preferences_json();
    new.metadata = serde_json::json!({
        "name": intent.name,
        "parse_format": intent.parse_format.as_str(),
        "parse_attempts": intent.attempts,
        "success_criteria": json["success_criteria"],
        "source": "llm",
    });
    store.create_intent(new).await?;
    store
        .append(
            NewEntry::new(
                "intent_created",
                serde_json::json!({
                    "goal": intent.goal,
                    "name": intent.name,
                    "parse_format": intent.parse_format.as_str(),
                    "parse_attempts": intent.attempts,
                }),
            )
            .intent(&id),
        )
        .await?;
    record_exchanges(store, Some(&id), exchanges).await?;
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::intent_gen::generate_intent;
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
        let rec = Recorder::new(p, vec!["sk-9".into()]);
        let g = generate_intent(&rec, "fetch with sk-9").unwrap();
        let id = record_generated_intent(&store, &g, &rec.take_exchanges())
            .await
            .unwrap();
        let stored = store.get_intent(&id).await.unwrap().unwrap();
        assert_eq!(stored.metadata["parse_format"], "rtfs");
        let chain = store.chain_by_intent(&id).await.unwrap();
        let kinds: Vec<&str> = chain.iter().map(|e| e.kind.as_str()).collect();
        assert_eq!(kinds, vec!["intent_created", LLM_EXCHANGE]);
        let ex = chain[1].payload.to_string();
        assert!(
            ex.contains("intent.rtfs@1") && ex.contains("[REDACTED]"),
            "{ex}"
        );
        assert!(!ex.contains("sk-9"), "{ex}");
        assert!(store.verify_chain().await.unwrap().ok);
        store.close().await;
    }
}
