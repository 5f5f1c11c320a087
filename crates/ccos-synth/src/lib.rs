//! # Planner synthesis (spec 026)
//!
//! From a conversation — interaction turns, a parameter schema, extracted
//! skills — and snapshots of the marketplace and agent registry, synthesize
//! a **generic RTFS planner**: reuse an allowed capability or agent when one
//! fits ([`synth::synthesize_planner`]), adapt the collected context to it
//! ([`adapt`]), and otherwise say precisely what is missing (the
//! `requires-agent` template). When the conversation is complex, synthesize
//! an **RTFS agent** instead ([`agent`]) and delegate to it. Outcomes of
//! runs feed back into trust ([`trust`]); an LLM may propose a planner,
//! which is validated strictly ([`assist`]).
//!
//! Invariants: the security filter runs before scoring (a denied candidate
//! is never scored, hence never selected); synthesis is deterministic
//! (BTreeMaps, sorted candidates, rounded scores); a stub is never
//! registered unless asked for.

#![warn(missing_docs)]

pub mod adapt;
pub mod agent;
pub mod assist;
pub mod context;
pub mod score;
pub mod synth;
pub mod template;
pub mod trust;

pub use adapt::AdapterStep;
pub use agent::{
    AgentSynthesis, AgentTrigger, delegating_planner, register_agent, synthesize_agent,
};
pub use context::{
    CapabilityCard, CardInput, ContextError, ExtractedSkill, InteractionTurn, ParamSpec, ParamType,
    PlannerGenContext, PlannerPreferences,
};
pub use score::{CandidateScore, Weights};
pub use synth::{
    FallbackInfo, FilteredCandidate, ParamCoverage, PlannerDecisionTrace, PlannerSynthesis,
    SynthOptions, planner_generation_entry, record_generation, stub_manifest, synthesize_planner,
};
pub use template::Template;
