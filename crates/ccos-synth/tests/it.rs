//! Integration tests of planner synthesis: golden planners per template,
//! each preflighted and executed by the real orchestrator over the
//! built-ins; security filtering; determinism; agents, trust and LLM assist.

#[path = "it/agents.rs"]
mod agents;
#[path = "it/assist.rs"]
mod assist;
#[path = "it/security.rs"]
mod security;
#[path = "it/support.rs"]
mod support;
#[path = "it/templates.rs"]
mod templates;
