//! The typed, versioned payload of every entry kind.
//!
//! Each payload type names its [`EntryKind`] and its version; the recorded
//! payload is the type's JSON object plus `"v": VERSION`. Readers ignore
//! fields they do not know (a new optional field does not change a
//! version); a change of meaning or a removed field bumps the version.
//! Internal structures (planner traces, preflight reports) are converted
//! into these types by their owners, so renaming a Rust field elsewhere can
//! never change the log format.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::EntryKind;
use super::value::RecordedValue;

/// A payload of a chain entry.
pub trait Payload: Serialize {
    /// The entry kind it is recorded under.
    const KIND: EntryKind;
    /// Version of this kind's payload schema.
    const VERSION: u32;
}

macro_rules! payload {
    ($t:ty, $kind:ident, $v:expr) => {
        impl Payload for $t {
            const KIND: EntryKind = EntryKind::$kind;
            const VERSION: u32 = $v;
        }
    };
}

fn is_false(b: &bool) -> bool {
    !*b
}

// ---------------------------------------------------------------- intents

/// `intent_created`: a goal entered the IntentGraph (the entry's
/// `intent_id` is the new intent).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IntentCreated {
    /// The goal in the user's words (secrets redacted).
    pub goal: String,
    /// What created it: `planner`, `llm`, `plan-file`, `synth`, `mcp`.
    pub source: String,
    /// A short name, when the intent generator gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// How an LLM's answer was read (`rtfs`, `json_fallback`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parse_format: Option<String>,
    /// Every parse attempt of an LLM's answer, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parse_attempts: Vec<ParseAttempt>,
}
payload!(IntentCreated, IntentCreated, 1);

/// One attempt at reading a model's intent answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParseAttempt {
    /// `rtfs` or `json_fallback`.
    pub format: String,
    /// Why it failed; absent when it succeeded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `intent_status`: an intent's status changed (the entry's `intent_id`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IntentStatusChanged {
    /// The new status: `active`, `completed`, `failed`, `abandoned`...
    pub status: String,
    /// Why (the run that ended it, the error).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}
payload!(IntentStatusChanged, IntentStatus, 1);

// ---------------------------------------------------------------- planning

/// `planner_decision`: how the deterministic planner served a goal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlannerDecision {
    /// The goal.
    pub goal: String,
    /// How it was decomposed: `pattern`, `clause`, `fallback`, or the
    /// name of an LLM decomposition (`llm-grounded`...).
    pub decomposition: String,
    /// Where the pattern rules came from.
    pub rules: String,
    /// Notices (e.g. semantic resolution off).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notices: Vec<String>,
    /// Decomposition strategies that failed before the one used.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decomposition_failures: Vec<StrategyFailure>,
    /// One decision per sub-intent, in order.
    pub intents: Vec<IntentDecision>,
    /// The parts of the goal nothing serves (the result is requires-agent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requires_agent: Option<Vec<MissingPart>>,
    /// Stored ids of the sub-intents, in order.
    #[serde(default)]
    pub sub_intents: Vec<String>,
}
payload!(PlannerDecision, PlannerDecision, 1);

/// A decomposition strategy that failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StrategyFailure {
    /// Its name.
    pub strategy: String,
    /// Why.
    pub reason: String,
}

/// The decision on one sub-intent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IntentDecision {
    /// Sub-intent id (`s1`...).
    pub sub_intent: String,
    /// What it asks for.
    pub description: String,
    /// The resolution strategy (`catalog`, `composite`...).
    pub strategy: String,
    /// Candidates that fit, best first.
    #[serde(default)]
    pub candidates: Vec<ScoredCandidate>,
    /// Candidates ranked but rejected, with why.
    #[serde(default)]
    pub rejected: Vec<ScoredCandidate>,
    /// Candidates the policy denies.
    #[serde(default)]
    pub filtered: Vec<FilteredCandidate>,
    /// Allowed candidates that do not serve the sub-intent, with why
    /// (absent when none; added without a version change: readers of
    /// version 1 ignore unknown keys).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<SkippedCandidate>,
    /// The capability chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen: Option<String>,
    /// The policy's decision on it (`allow`, `needs_approval`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<String>,
    /// Argument mappings, adapters, coercions.
    #[serde(default)]
    pub notes: Vec<String>,
}

/// A ranked candidate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoredCandidate {
    /// Capability id.
    pub capability: String,
    /// Its score (comparable within one sub-intent).
    pub score: f64,
    /// Why it scored so, or why it was rejected.
    #[serde(default)]
    pub reasons: Vec<String>,
}

/// An allowed candidate that does not serve a sub-intent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkippedCandidate {
    /// Capability id.
    pub capability: String,
    /// Why: contradicts the goal, would drop a stated value, leaves a
    /// required parameter open.
    pub reason: String,
}

/// A candidate the policy removed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FilteredCandidate {
    /// Capability (or agent) id.
    pub capability: String,
    /// `capability` or `agent`, when it matters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// The policy's reasons.
    pub reasons: Vec<String>,
}

/// A part of the goal nothing serves.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MissingPart {
    /// Sub-intent id.
    pub sub_intent: String,
    /// The part, in words.
    pub description: String,
    /// Why nothing serves it.
    pub reason: String,
}

/// `llm_exchange`: one request to a language model and its outcome,
/// secrets redacted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlmExchange {
    /// The prompt template (`plan.rtfs@1`).
    pub prompt_id: String,
    /// Approximate prompt size in tokens.
    pub approx_prompt_tokens: u64,
    /// Whether JSON mode was asked for.
    #[serde(default, skip_serializing_if = "is_false")]
    pub json_mode: bool,
    /// The conversation sent.
    pub messages: Vec<ChatMessage>,
    /// The answer, when there was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<String>,
    /// The error, when there was no answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The model that answered, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Token usage, when the server reported it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<TokenUsage>,
    /// The provider's description (never contains secrets).
    pub provider: String,
}
payload!(LlmExchange, LlmExchange, 1);

/// One chat message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatMessage {
    /// `system`, `user` or `assistant`.
    pub role: String,
    /// The text.
    pub content: String,
}

/// Token counts reported by a model server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TokenUsage {
    /// Prompt tokens.
    pub prompt_tokens: u64,
    /// Answer tokens.
    pub completion_tokens: u64,
}

/// `llm_plan`: the outcome of plan generation by a model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlmPlan {
    /// `plan`, `requires_agent` or `no_valid_plan`.
    pub verdict: String,
    /// How many times the model was asked.
    pub model_calls: u64,
    /// Every attempt, in order.
    pub attempts: Vec<LlmPlanAttempt>,
    /// Capabilities the model kept naming that do not exist.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requires_agent: Option<LlmMissing>,
    /// Why no valid plan came out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}
payload!(LlmPlan, LlmPlan, 1);

/// One answer of the model, as judged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlmPlanAttempt {
    /// `rtfs` or `ir`.
    pub mode: String,
    /// 0 for the first answer of the mode, then 1, 2...
    pub round: u64,
    /// `initial`, `repair` or `replan`.
    pub kind: String,
    /// The prompt template.
    pub prompt: String,
    /// `accepted`, `invalid` or `missing_capabilities`.
    pub verdict: String,
    /// The findings (one line each), empty when accepted.
    #[serde(default)]
    pub findings: Vec<String>,
}

/// Capabilities a model named that do not exist.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlmMissing {
    /// The missing ids.
    pub missing: Vec<String>,
    /// For each, the closest allowed capabilities.
    #[serde(default)]
    pub suggestions: BTreeMap<String, Vec<String>>,
}

/// `planner_generation`: a planner synthesized from a conversation
/// (spec 026).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlannerGeneration {
    /// The goal of the conversation.
    pub goal: String,
    /// The template emitted: `direct`, `adapter`, `requires_agent`...
    pub template: String,
    /// `deterministic` or `llm`.
    pub source: String,
    /// The score weights: coverage, compatibility, trust.
    pub weights: BTreeMap<String, f64>,
    /// Scored candidates, best first.
    pub candidates: Vec<SynthCandidate>,
    /// Candidates the policy removed.
    #[serde(default)]
    pub filtered: Vec<FilteredCandidate>,
    /// The selected candidate's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selected: Option<String>,
    /// How the context fills the selected candidate's inputs.
    #[serde(default)]
    pub adapters: Vec<KeyAdapter>,
    /// Why nothing was selected: the stub an agent should provide.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback: Option<SynthFallback>,
    /// Required keys of the conversation, and which have values.
    pub coverage: ParamCoverage,
    /// Capabilities the planner calls (or the stub it needs).
    pub required_capabilities: Vec<String>,
    /// Other remarks.
    #[serde(default)]
    pub notes: Vec<String>,
}
payload!(PlannerGeneration, PlannerGeneration, 1);

/// A scored synthesis candidate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SynthCandidate {
    /// Capability or agent id.
    pub id: String,
    /// `capability` or `agent`.
    pub kind: String,
    /// Required-key coverage, 0..1.
    pub coverage: f64,
    /// Type/coercion feasibility, 0..1.
    pub compatibility: f64,
    /// Trust bias, 0..1.
    pub trust_bias: f64,
    /// Relevance of the candidate to the goal, 0..1 (when scored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relevance: Option<f64>,
    /// Weighted total.
    pub total: f64,
    /// Every required input can be filled.
    pub viable: bool,
    /// Required inputs that cannot be filled.
    #[serde(default)]
    pub missing: Vec<String>,
}

/// How one context key fills one input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeyAdapter {
    /// Context key.
    pub from: String,
    /// Input key.
    pub to: String,
    /// How the key matched: `same`, `skill-hint`, `case-style`, `synonym`.
    pub rename: String,
    /// Coercion applied, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coercion: Option<String>,
    /// The value is the schema default.
    #[serde(default, skip_serializing_if = "is_false")]
    pub default_used: bool,
}

/// Why synthesis selected nothing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SynthFallback {
    /// The stub capability an agent should provide.
    pub stub_id: String,
    /// Required keys without a value.
    pub missing_required: Vec<String>,
    /// Why, in words.
    pub reason: String,
}

/// Provided versus required parameters of a conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParamCoverage {
    /// Required keys.
    pub required: Vec<String>,
    /// Keys with a value.
    pub provided: Vec<String>,
    /// Keys filled by defaults.
    pub defaulted: Vec<String>,
    /// Required keys without either.
    pub missing: Vec<String>,
    /// Share of required keys filled.
    pub ratio: f64,
}

// ---------------------------------------------------------------- runs

/// `governance_decision`: the policy's verdict on a whole plan, before it
/// runs (preflight).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GovernanceDecision {
    /// `allow`, `deny` or `needs_approval`.
    pub decision: String,
    /// The reasons, each naming the capability and the rule.
    #[serde(default)]
    pub reasons: Vec<String>,
    /// Every call of the plan and its own decision.
    pub calls: Vec<PlannedCall>,
    /// Preflight findings (warnings; errors stop a plan before this entry).
    #[serde(default)]
    pub findings: Vec<Finding>,
}
payload!(GovernanceDecision, GovernanceDecision, 1);

/// One `(call ...)` of a plan, as preflight saw it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlannedCall {
    /// Capability id (or the text of a computed one).
    pub capability: String,
    /// `allow`, `deny`, `needs_approval`, `unknown`.
    pub decision: String,
    /// The reasons.
    #[serde(default)]
    pub reasons: Vec<String>,
    /// 1-based line of the call in the plan.
    pub line: u64,
    /// 1-based column.
    pub column: u64,
}

/// A preflight finding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// `error` or `warning`.
    pub severity: String,
    /// Machine-readable code (`unknown_capability`, `missing_key`...).
    pub code: String,
    /// What is wrong.
    pub message: String,
    /// A repair hint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// The capability concerned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capability: Option<String>,
    /// 1-based line.
    pub line: u64,
    /// 1-based column.
    pub column: u64,
}

/// `run_started`: a plan began executing (the entry carries the intent,
/// plan and run ids).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunStarted {
    /// Where the plan came from (file name, `<goal>`, `<mcp>`).
    pub source: String,
    /// SHA-256 of the plan text.
    pub plan_sha256: String,
    /// How the plan was produced (`manual`, `pattern`, `llm-rtfs`...).
    pub generation_mode: String,
    /// Call budget of the run.
    pub max_calls: u64,
    /// Per-call timeout.
    pub call_timeout_ms: u64,
    /// Deadline of the whole run.
    pub run_timeout_ms: u64,
    /// What started it: `cli`, `mcp`, `gateway`.
    pub origin: String,
    /// Process running it (so a later process can tell a killed run).
    pub pid: u32,
    /// The machine's host name, so only a process of the same machine
    /// judges whether the run's process is gone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// The process's start time (clock ticks since boot, Linux), so a
    /// reused pid is not mistaken for the run's process.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proc_start: Option<u64>,
}
payload!(RunStarted, RunStarted, 1);

/// `step_started`: a plan step began.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepStarted {
    /// Dotted path by position (`2.1.3`).
    pub path: String,
    /// Step name.
    pub name: String,
    /// `step`, `parallel`, `branch`, `loop`, `iteration`.
    pub kind: String,
}
payload!(StepStarted, StepStarted, 1);

/// `step_ended`: a plan step ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepEnded {
    /// Dotted path.
    pub path: String,
    /// Step name.
    pub name: String,
    /// Step kind.
    pub kind: String,
    /// True on success.
    pub ok: bool,
    /// How long it took.
    pub duration_ms: u64,
    /// Its value, on success.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<RecordedValue>,
    /// Its error, on failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The error's kind (`host`, `type`, `limit`...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_kind: Option<String>,
}
payload!(StepEnded, StepEnded, 1);

/// How a capability call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallOutcome {
    /// It returned a value.
    Ok,
    /// It ran and failed.
    Error,
    /// The policy denied it (or its approval was refused); it did not run.
    Denied,
    /// Its arguments do not match its schema; it did not run.
    InvalidArguments,
}

/// `capability_call`: one call through the governed door.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CapabilityCall {
    /// Capability id.
    pub capability: String,
    /// Provider kind (`builtin`, `mcp`, `openapi`, `rtfs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// The arguments, as sent.
    pub args: RecordedValue,
    /// Innermost step name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<String>,
    /// Innermost step path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step_path: Option<String>,
    /// How it ended.
    pub outcome: CallOutcome,
    /// The result, on success.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<RecordedValue>,
    /// The error or the denial's reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// How long it took (absent when it did not run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
}
payload!(CapabilityCall, CapabilityCall, 1);

/// `approval_requested`: a call needs a person's approval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ApprovalRequested {
    /// Capability id.
    pub capability: String,
    /// The arguments.
    pub args: RecordedValue,
    /// The policy's reasons.
    pub reasons: Vec<String>,
    /// Innermost step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<String>,
}
payload!(ApprovalRequested, ApprovalRequested, 1);

/// `approval_given`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ApprovalGiven {
    /// Capability id.
    pub capability: String,
    /// Who or what approved (`terminal`, `--yes`, `pre-approved`,
    /// `mcp-elicitation`).
    pub by: String,
}
payload!(ApprovalGiven, ApprovalGiven, 1);

/// `approval_denied`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ApprovalDenied {
    /// Capability id.
    pub capability: String,
    /// Why.
    pub reason: String,
}
payload!(ApprovalDenied, ApprovalDenied, 1);

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// The plan produced its value.
    Succeeded,
    /// A step failed.
    Failed,
    /// The policy denied a call (or an approval was refused).
    Denied,
    /// Stopped by the user (Ctrl-C, SIGTERM).
    Interrupted,
    /// The run's deadline passed.
    TimedOut,
}

impl RunStatus {
    /// The snake-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Succeeded => "succeeded",
            RunStatus::Failed => "failed",
            RunStatus::Denied => "denied",
            RunStatus::Interrupted => "interrupted",
            RunStatus::TimedOut => "timed_out",
        }
    }
}

/// `run_ended`: a run finished, whatever the outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunEnded {
    /// How it ended.
    pub status: RunStatus,
    /// The plan's value, on success.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<RecordedValue>,
    /// The error, otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The error's kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_kind: Option<String>,
    /// Capability calls made.
    pub calls: u64,
    /// Wall time of the run.
    pub duration_ms: u64,
}
payload!(RunEnded, RunEnded, 1);

/// `run_abandoned`: written by a later process for a run whose process is
/// gone (killed) without a `run_ended`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunAbandoned {
    /// The process that ran it.
    pub pid: u32,
    /// Why it is considered abandoned.
    pub reason: String,
}
payload!(RunAbandoned, RunAbandoned, 1);

/// `tools_changed`: an MCP server's tools differ from the fingerprints
/// accepted at discovery; the changed tools are not served until accepted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolsChanged {
    /// The server.
    pub server: String,
    /// Tools whose name, description or schema changed.
    #[serde(default)]
    pub changed: Vec<String>,
    /// Tools that appeared.
    #[serde(default)]
    pub added: Vec<String>,
    /// Tools that disappeared.
    #[serde(default)]
    pub removed: Vec<String>,
    /// True when the change was accepted (`ccos mcp discover --accept`).
    pub accepted: bool,
}
payload!(ToolsChanged, ToolsChanged, 1);
