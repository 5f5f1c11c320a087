//! The causal chain as a protocol.
//!
//! The causal chain is an append-only log in which every entry carries the
//! hash of its predecessor, so an altered, removed or reordered entry is
//! detected. This module is the protocol's one definition:
//!
//! - [`EntryKind`]: every kind of entry, with the version of its payload;
//! - [`payload`]: one typed payload per kind ([`Payload`]); internal
//!   structures never go into the chain directly;
//! - [`RecordedValue`]: how argument, result and plan values are recorded
//!   (inline when small, by digest and preview when large);
//! - [`canonical`]: RFC 8785 canonical JSON; [`hash`]: the entry hash.
//!
//! `docs/chain-format.md` describes the same format for an outside auditor
//! (who can recompute every hash without this code); the store
//! (`ccos-store`) appends and verifies entries with these functions.

pub mod canonical;
pub mod hash;
pub mod payload;
pub mod value;

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

pub use hash::{CHAIN_FORMAT, GENESIS_HASH, HashedFields, entry_hash};
pub use payload::Payload;
pub use value::RecordedValue;

/// Every kind of chain entry. The stored kind is [`EntryKind::as_str`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    /// A goal entered the IntentGraph ([`payload::IntentCreated`]).
    IntentCreated,
    /// An intent's status changed ([`payload::IntentStatusChanged`]).
    IntentStatus,
    /// The deterministic planner's decision ([`payload::PlannerDecision`]).
    PlannerDecision,
    /// One language-model exchange ([`payload::LlmExchange`]).
    LlmExchange,
    /// Plan generation by a model ([`payload::LlmPlan`]).
    LlmPlan,
    /// A planner synthesized from a conversation ([`payload::PlannerGeneration`]).
    PlannerGeneration,
    /// The policy's verdict on a plan ([`payload::GovernanceDecision`]).
    GovernanceDecision,
    /// A run began ([`payload::RunStarted`]).
    RunStarted,
    /// A step began ([`payload::StepStarted`]).
    StepStarted,
    /// A step ended ([`payload::StepEnded`]).
    StepEnded,
    /// A capability call through the governed door ([`payload::CapabilityCall`]).
    CapabilityCall,
    /// A call needs approval ([`payload::ApprovalRequested`]).
    ApprovalRequested,
    /// Approval given ([`payload::ApprovalGiven`]).
    ApprovalGiven,
    /// Approval refused ([`payload::ApprovalDenied`]).
    ApprovalDenied,
    /// A run ended ([`payload::RunEnded`]).
    RunEnded,
    /// A run whose process is gone ([`payload::RunAbandoned`]).
    RunAbandoned,
    /// An MCP server's tools changed ([`payload::ToolsChanged`]).
    ToolsChanged,
    /// Format 1 only: a run interrupted (format 2 writes `run_ended` with
    /// status `interrupted`). Never written today; read for old chains.
    RunInterrupted,
}

impl EntryKind {
    /// Every kind, in documentation order.
    pub const ALL: [EntryKind; 18] = [
        EntryKind::IntentCreated,
        EntryKind::IntentStatus,
        EntryKind::PlannerDecision,
        EntryKind::LlmExchange,
        EntryKind::LlmPlan,
        EntryKind::PlannerGeneration,
        EntryKind::GovernanceDecision,
        EntryKind::RunStarted,
        EntryKind::StepStarted,
        EntryKind::StepEnded,
        EntryKind::CapabilityCall,
        EntryKind::ApprovalRequested,
        EntryKind::ApprovalGiven,
        EntryKind::ApprovalDenied,
        EntryKind::RunEnded,
        EntryKind::RunAbandoned,
        EntryKind::ToolsChanged,
        EntryKind::RunInterrupted,
    ];

    /// The stored name (`capability_call`...).
    pub fn as_str(self) -> &'static str {
        match self {
            EntryKind::IntentCreated => "intent_created",
            EntryKind::IntentStatus => "intent_status",
            EntryKind::PlannerDecision => "planner_decision",
            EntryKind::LlmExchange => "llm_exchange",
            EntryKind::LlmPlan => "llm_plan",
            EntryKind::PlannerGeneration => "planner_generation",
            EntryKind::GovernanceDecision => "governance_decision",
            EntryKind::RunStarted => "run_started",
            EntryKind::StepStarted => "step_started",
            EntryKind::StepEnded => "step_ended",
            EntryKind::CapabilityCall => "capability_call",
            EntryKind::ApprovalRequested => "approval_requested",
            EntryKind::ApprovalGiven => "approval_given",
            EntryKind::ApprovalDenied => "approval_denied",
            EntryKind::RunEnded => "run_ended",
            EntryKind::RunAbandoned => "run_abandoned",
            EntryKind::ToolsChanged => "tools_changed",
            EntryKind::RunInterrupted => "run_interrupted",
        }
    }

    /// The kind stored as `name`, if it is one of ours.
    pub fn parse(name: &str) -> Option<EntryKind> {
        EntryKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

impl std::fmt::Display for EntryKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An entry to append: its kind, the ids it concerns, its payload.
#[derive(Debug, Clone, PartialEq)]
pub struct NewEntry {
    /// What happened.
    pub kind: EntryKind,
    /// The intent it concerns.
    pub intent_id: Option<String>,
    /// The plan it concerns.
    pub plan_id: Option<String>,
    /// The run it belongs to.
    pub run_id: Option<String>,
    /// The payload object, `"v"` included, large integers made safe.
    pub payload: Json,
}

impl NewEntry {
    /// An entry recording `payload` (its kind and version from its type).
    pub fn of<P: Payload>(payload: &P) -> NewEntry {
        NewEntry {
            kind: P::KIND,
            intent_id: None,
            plan_id: None,
            run_id: None,
            payload: clip_strings(payload_json(payload)),
        }
    }

    /// An entry of `kind` with an arbitrary payload object, for tests and
    /// tools that replay recorded entries; code that records what happens
    /// uses [`NewEntry::of`] with a typed payload.
    pub fn raw(kind: EntryKind, payload: Json) -> NewEntry {
        NewEntry {
            kind,
            intent_id: None,
            plan_id: None,
            run_id: None,
            payload: canonical::audit_safe(payload),
        }
    }

    /// Sets the intent id.
    pub fn intent(mut self, id: impl Into<String>) -> NewEntry {
        self.intent_id = Some(id.into());
        self
    }

    /// Sets the plan id.
    pub fn plan(mut self, id: impl Into<String>) -> NewEntry {
        self.plan_id = Some(id.into());
        self
    }

    /// Sets the run id.
    pub fn run(mut self, id: impl Into<String>) -> NewEntry {
        self.run_id = Some(id.into());
        self
    }

    /// Sets intent, plan and run ids at once (`None` leaves one unset).
    pub fn ids(mut self, intent: Option<&str>, plan: Option<&str>, run: Option<&str>) -> NewEntry {
        self.intent_id = intent.map(str::to_string);
        self.plan_id = plan.map(str::to_string);
        self.run_id = run.map(str::to_string);
        self
    }
}

/// The JSON object recorded for `payload`: its fields plus `"v"`, with
/// integers beyond ±(2^53 − 1) as decimal strings.
pub fn payload_json<P: Payload>(payload: &P) -> Json {
    let mut j = match serde_json::to_value(payload) {
        Ok(Json::Object(o)) => Json::Object(o),
        // Payload types are plain structs of strings, numbers and
        // vectors; serialisation cannot fail. Never drop a record anyway.
        Ok(other) => serde_json::json!({"value": other}),
        Err(e) => serde_json::json!({"serialisation_error": e.to_string()}),
    };
    if let Some(o) = j.as_object_mut() {
        o.insert("v".into(), Json::from(P::VERSION));
    }
    canonical::audit_safe(j)
}

/// A recorded entry, as read back from the store.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// Position in the chain: 1, 2, 3... without gaps.
    pub seq: i64,
    /// Chain format of this entry (1 legacy, 2 RFC 8785).
    pub format: u32,
    /// What happened (an [`EntryKind`] name; kept as text so entries of
    /// kinds this version does not know can still be shown and verified).
    pub kind: String,
    /// The intent it concerns.
    pub intent_id: Option<String>,
    /// The plan it concerns.
    pub plan_id: Option<String>,
    /// The run it belongs to.
    pub run_id: Option<String>,
    /// The payload.
    pub payload: Json,
    /// When it was appended (RFC 3339 UTC, microseconds).
    pub timestamp: String,
    /// Hash of the previous entry ([`GENESIS_HASH`] for seq 1).
    pub prev_hash: String,
    /// This entry's hash ([`entry_hash`]).
    pub hash: String,
}

impl Entry {
    /// The typed kind, when it is one of ours.
    pub fn entry_kind(&self) -> Option<EntryKind> {
        EntryKind::parse(&self.kind)
    }

    /// The payload read as `P` (when this entry is of `P`'s kind).
    pub fn payload_as<P: Payload + serde::de::DeserializeOwned>(&self) -> Option<P> {
        if self.kind != P::KIND.as_str() {
            return None;
        }
        serde_json::from_value(self.payload.clone()).ok()
    }

    /// The payload's version (`"v"`; 0 for format-1 entries, which had none).
    pub fn payload_version(&self) -> u64 {
        self.payload.get("v").and_then(Json::as_u64).unwrap_or(0)
    }

    /// Recomputes this entry's hash from its fields.
    pub fn recompute_hash(&self) -> Result<String, String> {
        entry_hash(&HashedFields {
            format: self.format,
            seq: self.seq,
            kind: &self.kind,
            intent_id: self.intent_id.as_deref(),
            plan_id: self.plan_id.as_deref(),
            run_id: self.run_id.as_deref(),
            payload: &self.payload,
            timestamp: &self.timestamp,
            prev_hash: &self.prev_hash,
        })
    }
}

/// Bytes of one string in a payload (an LLM prompt, a plan's goal, an
/// error): longer ones are cut by [`NewEntry::of`], marked with their
/// whole size. Values are bounded separately ([`RecordedValue`]).
pub const MAX_PAYLOAD_STRING_BYTES: usize = 64 * 1024;

/// Cuts every string of a payload (map keys included) to
/// [`MAX_PAYLOAD_STRING_BYTES`], marking the cut: a capability id or an
/// error message built at run time cannot make an entry megabytes long.
fn clip_strings(v: Json) -> Json {
    use crate::text::clip;
    match v {
        Json::String(s) if s.len() > MAX_PAYLOAD_STRING_BYTES => {
            Json::String(clip(&s, MAX_PAYLOAD_STRING_BYTES).into_owned())
        }
        Json::Array(items) => Json::Array(items.into_iter().map(clip_strings).collect()),
        Json::Object(map) => Json::Object(
            map.into_iter()
                .map(|(k, v)| {
                    let k = if k.len() > MAX_PAYLOAD_STRING_BYTES {
                        clip(&k, MAX_PAYLOAD_STRING_BYTES).into_owned()
                    } else {
                        k
                    };
                    (k, clip_strings(v))
                })
                .collect(),
        ),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::payload::*;
    use super::*;

    #[test]
    fn kinds_round_trip_and_are_unique() {
        let mut names: Vec<&str> = EntryKind::ALL.iter().map(|k| k.as_str()).collect();
        for k in EntryKind::ALL {
            assert_eq!(EntryKind::parse(k.as_str()), Some(k));
            assert_eq!(serde_json::to_value(k).unwrap(), k.as_str());
        }
        names.sort();
        names.dedup();
        assert_eq!(names.len(), EntryKind::ALL.len());
    }

    #[test]
    fn payloads_carry_their_version_and_kind() {
        let e = NewEntry::of(&ApprovalGiven {
            capability: "ccos.file.write".into(),
            by: "--yes".into(),
        })
        .run("run-1");
        assert_eq!(e.kind, EntryKind::ApprovalGiven);
        assert_eq!(
            e.payload,
            serde_json::json!({"capability": "ccos.file.write", "by": "--yes", "v": 1})
        );
        let stored = Entry {
            seq: 1,
            format: CHAIN_FORMAT,
            kind: e.kind.as_str().into(),
            intent_id: None,
            plan_id: None,
            run_id: e.run_id.clone(),
            payload: e.payload.clone(),
            timestamp: "t".into(),
            prev_hash: GENESIS_HASH.into(),
            hash: String::new(),
        };
        assert_eq!(stored.payload_version(), 1);
        let back: ApprovalGiven = stored.payload_as().unwrap();
        assert_eq!(back.by, "--yes");
        assert!(stored.payload_as::<ApprovalDenied>().is_none());
    }

    #[test]
    fn long_payload_strings_are_cut() {
        let long = "x".repeat(super::MAX_PAYLOAD_STRING_BYTES + 10);
        let v = super::clip_strings(serde_json::json!({"error": long, long.clone(): [long]}));
        let text = v.to_string();
        assert!(
            text.len() < 3 * super::MAX_PAYLOAD_STRING_BYTES + 200,
            "{}",
            text.len()
        );
        assert!(text.contains("bytes in all"));
    }
}
