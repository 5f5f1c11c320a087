//! The inputs of planner synthesis ([`PlannerGenContext`]) and their JSON
//! file format.
//!
//! A context file is one JSON object; unknown fields are rejected so a typo
//! never silently falls back to a default, and every error names the file,
//! line and column. Example (see `examples/synth/two-turns.json`):
//!
//! ```json
//! {
//!   "goal": "greet a person",
//!   "schema": [{"key": "name", "type": "string", "required": true}],
//!   "history": [{"question": "Who?", "answer": "Ada", "params": {"name": "Ada"}}],
//!   "capabilities": [{"id": "ccos.echo", "inputs": [{"key": "message", "type": "string", "required": true}]}]
//! }
//! ```
//!
//! `capabilities` and `agents` are optional: when absent the CLI takes them
//! from the live marketplace ([`CapabilityManifest::card`],
//! [`PlannerGenContext::with_live_snapshots`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

pub use ccos_core::{CapabilityCard, CardInput, ParamType};
use ccos_marketplace::{AgentCard, CapabilityManifest, Marketplace};
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

/// One parameter of the schema collected from the conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamSpec {
    /// The context key.
    pub key: String,
    /// Its type.
    #[serde(default, rename = "type")]
    pub ty: ParamType,
    /// True when the goal cannot be served without it.
    #[serde(default)]
    pub required: bool,
    /// The value used when the conversation did not provide one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Json>,
}

/// One question/answer turn of the conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InteractionTurn {
    /// What was asked.
    pub question: String,
    /// What the user answered.
    pub answer: String,
    /// Parameters extracted from the answer (context key → value).
    #[serde(default)]
    pub params: BTreeMap<String, Json>,
    /// True when the turn refines an earlier answer (counts toward the
    /// agent-synthesis trigger).
    #[serde(default)]
    pub refinement: bool,
}

/// A skill extracted from the conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtractedSkill {
    /// Skill tag (matched against agents' skills), e.g. `weather`.
    pub name: String,
    /// What it is about.
    #[serde(default)]
    pub description: String,
    /// Rename hints: context key → candidate input keys it may fill, in
    /// preference order (checked before synonyms and case styles).
    #[serde(default)]
    pub key_hints: BTreeMap<String, Vec<String>>,
    /// Capability ids that perform this skill, in order (agent synthesis
    /// chains them into a multi-step plan).
    #[serde(default)]
    pub capabilities: Vec<String>,
}

/// What the planner should prefer among viable candidates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PlannerPreferences {
    /// Favour capabilities that run on this machine.
    pub prefer_local: bool,
    /// Favour more trusted tiers.
    pub prefer_trusted: bool,
    /// Favour single capability calls over agents on ties.
    pub optimize_for_speed: bool,
}

impl Default for PlannerPreferences {
    fn default() -> Self {
        PlannerPreferences {
            prefer_local: true,
            prefer_trusted: true,
            optimize_for_speed: false,
        }
    }
}

/// Everything planner synthesis reads (spec 026's `PlannerGenContext`).
/// The security context is passed beside it (a `Policy`); `policy`
/// only names the file it comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlannerGenContext {
    /// The goal in words (documentation, stub naming, LLM prompt).
    #[serde(default)]
    pub goal: String,
    /// The parameter schema collected from the conversation.
    #[serde(default)]
    pub schema: Vec<ParamSpec>,
    /// The conversation.
    #[serde(default)]
    pub history: Vec<InteractionTurn>,
    /// Skills extracted from it.
    #[serde(default)]
    pub skills: Vec<ExtractedSkill>,
    /// Policy file (TOML) of the security context, relative to the context
    /// file; absent: the caller's policy (default policy in the CLI).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<PathBuf>,
    /// Snapshot of the marketplace; `None`: take the live one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capabilities: Option<Vec<CapabilityCard>>,
    /// Snapshot of the agent registry; `None`: take the live one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agents: Option<Vec<AgentCard>>,
    /// Preferences.
    #[serde(default)]
    pub preferences: PlannerPreferences,
}

/// Why a context could not be loaded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ContextError {
    /// The file could not be read.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What failed.
        message: String,
    },
    /// The JSON is malformed or does not fit the format.
    #[error("{path}:{line}:{column}: {message}")]
    Invalid {
        /// The file.
        path: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
}

impl PlannerGenContext {
    /// Parses a context from JSON text; `name` names it in errors.
    pub fn from_json_str(text: &str, name: &str) -> Result<PlannerGenContext, ContextError> {
        let ctx: PlannerGenContext =
            serde_json::from_str(text).map_err(|e| ContextError::Invalid {
                path: name.to_string(),
                line: e.line(),
                column: e.column(),
                message: e.to_string(),
            })?;
        let mut seen = BTreeSet::new();
        for p in &ctx.schema {
            if p.key.trim().is_empty() || !seen.insert(p.key.clone()) {
                let (line, column) = locate(text, &format!("\"{}\"", p.key));
                return Err(ContextError::Invalid {
                    path: name.to_string(),
                    line,
                    column,
                    message: format!("schema key {:?} is empty or duplicated", p.key),
                });
            }
        }
        Ok(ctx)
    }

    /// Reads a context file; a relative `policy` is resolved against the
    /// file's directory.
    pub fn from_file(path: &Path) -> Result<PlannerGenContext, ContextError> {
        let text =
            ccos_core::text::read_file_bounded(path, ccos_core::text::MAX_INPUT_BYTES, false)
                .map_err(|message| ContextError::Io {
                    path: path.display().to_string(),
                    message,
                })?
                .unwrap_or_default();
        let mut ctx = Self::from_json_str(&text, &path.display().to_string())?;
        if let Some(p) = &ctx.policy
            && p.is_relative()
        {
            let base = path.parent().unwrap_or(Path::new("."));
            ctx.policy = Some(base.join(p));
        }
        Ok(ctx)
    }

    /// Fills absent snapshots from the live marketplace (capability cards
    /// of every registered capability, agent cards of the registry).
    pub fn with_live_snapshots(mut self, mp: &Marketplace) -> PlannerGenContext {
        if self.capabilities.is_none() {
            self.capabilities = Some(capability_snapshot(mp));
        }
        if self.agents.is_none() {
            self.agents = Some(mp.agent_cards());
        }
        self
    }

    /// The values collected from the conversation: later turns override
    /// earlier ones; schema defaults are NOT included.
    pub fn collected(&self) -> BTreeMap<String, Json> {
        let mut out = BTreeMap::new();
        for t in &self.history {
            for (k, v) in &t.params {
                out.insert(k.clone(), v.clone());
            }
        }
        out
    }

    /// The context map a synthesized planner runs with: collected values,
    /// schema defaults for absent keys.
    pub fn context_map(&self) -> BTreeMap<String, Json> {
        let mut out = self.collected();
        for p in &self.schema {
            if let Some(d) = &p.default {
                out.entry(p.key.clone()).or_insert_with(|| d.clone());
            }
        }
        out
    }

    /// The context map as an RTFS value (keyword keys), for `RunOptions::bindings`.
    pub fn context_value(&self) -> rtfs::Value {
        context_to_value(&self.context_map())
    }

    /// The capability snapshot (empty when none).
    pub fn capability_cards(&self) -> &[CapabilityCard] {
        self.capabilities.as_deref().unwrap_or(&[])
    }

    /// The agent snapshot (empty when none).
    pub fn agent_cards(&self) -> &[AgentCard] {
        self.agents.as_deref().unwrap_or(&[])
    }
}

/// A map of context values as an RTFS map with keyword keys.
pub fn context_to_value(map: &BTreeMap<String, Json>) -> rtfs::Value {
    rtfs::Value::map(
        map.iter()
            .map(|(k, v)| (rtfs::Value::keyword(k), rtfs::from_json(v))),
    )
}

/// Cards of every registered capability, sorted by id (the read-only
/// marketplace snapshot of spec 026).
pub fn capability_snapshot(mp: &Marketplace) -> Vec<CapabilityCard> {
    mp.list().iter().map(CapabilityManifest::card).collect()
}

/// The read-only registry snapshots of spec 026
/// (`discover_registry_snapshots`): capability cards and agent cards of
/// the live marketplace, each sorted by id.
pub fn discover_registry_snapshots(mp: &Marketplace) -> (Vec<CapabilityCard>, Vec<AgentCard>) {
    (capability_snapshot(mp), mp.agent_cards())
}

/// 1-based (line, column) of the first occurrence of `needle`, else (1, 1).
fn locate(text: &str, needle: &str) -> (usize, usize) {
    match text.find(needle) {
        Some(at) => {
            let before = &text[..at];
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            (line, column)
        }
        None => (1, 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_fields_are_errors_with_line_and_column() {
        let e = PlannerGenContext::from_json_str("{\n  \"gaol\": 1\n}", "c.json").unwrap_err();
        let ContextError::Invalid {
            line,
            column,
            message,
            ..
        } = &e
        else {
            panic!("{e}")
        };
        assert_eq!(*line, 2, "{e}");
        assert!(*column > 1);
        assert!(message.contains("gaol"), "{message}");
        assert!(e.to_string().starts_with("c.json:2:"), "{e}");
        let e = PlannerGenContext::from_json_str(
            r#"{"schema": [{"key": "a"}, {"key": "a"}]}"#,
            "c.json",
        )
        .unwrap_err();
        assert!(e.to_string().contains("duplicated"), "{e}");
    }

    #[test]
    fn collected_values_later_turns_win_and_defaults_fill() {
        let ctx = PlannerGenContext::from_json_str(
            r#"{"schema": [{"key": "n", "type": "int", "default": 3}, {"key": "city"}],
                "history": [{"question": "q", "answer": "a", "params": {"city": "Paris"}},
                            {"question": "q2", "answer": "b", "params": {"city": "Lyon"}}]}"#,
            "c",
        )
        .unwrap();
        assert_eq!(ctx.collected().len(), 1);
        assert_eq!(ctx.context_map()["city"], "Lyon");
        assert_eq!(ctx.context_map()["n"], 3);
        assert_eq!(ctx.context_value().to_string(), r#"{:city "Lyon" :n 3}"#);
    }

    #[test]
    fn cards_from_manifests_are_typed() {
        let mp = Marketplace::new().unwrap();
        ccos_marketplace::builtins::install(&mp, Default::default()).unwrap();
        let cards = capability_snapshot(&mp);
        let add = cards.iter().find(|c| c.id == "ccos.math.add").unwrap();
        assert!(add.positional);
        assert_eq!(add.inputs.len(), 2);
        assert_eq!(add.inputs[0].key, "a");
        assert_eq!(add.inputs[0].ty, ParamType::Float);
        assert!(add.inputs[1].required);
        let take = cards.iter().find(|c| c.id == "ccos.data.take").unwrap();
        assert_eq!(take.expects_context_keys(), vec!["items", "count"]);
        assert_eq!(take.inputs[1].ty, ParamType::Int);
    }
}
