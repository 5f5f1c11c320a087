//! # The modular planner
//!
//! A goal is planned in two separated phases (design doc "Modular Planner
//! Architecture"):
//!
//! - **decomposition** (the "what"): the goal becomes ordered
//!   [`intent::SubIntent`]s, each with a type, literal parameters and
//!   dependencies on earlier sub-intents ([`decompose`]: pattern rules from
//!   a TOML file, with a grounded whole-goal fallback);
//! - **resolution** (the "how"): each sub-intent is matched to capabilities
//!   of the marketplace by a [`resolution::ResolutionStrategy`], which ranks
//!   candidates with scores and human-readable reasons, or says that no
//!   capability fits.
//!
//! [`plan_gen`] turns resolved sub-intents into an RTFS plan and
//! [`planner::Planner`] ties everything together, validates the plan with
//! preflight and keeps a decision trace; [`planner::record`] stores it.
//!
//! No language model is needed: LLM decompositions and plan modes live in
//! `ccos-planner-llm` and plug in through [`DecompositionStrategy`]; the
//! benchmark harness lives in `ccos-bench`. Semantic resolution (sentence
//! embeddings) is behind the `semantic` feature.

#![warn(missing_docs)]

pub mod decompose;
mod fact_store;
pub mod intent;
pub mod plan_gen;
pub mod planner;
pub mod resolution;
pub mod understand;

pub use decompose::{DecompositionStrategy, HybridDecomposition, PatternDecomposition};
pub use intent::{FanOut, IntentType, ParamValue, SubIntent};
pub use planner::{PlanError, PlanResult, Planner, RequiresAgent, record};
pub use resolution::{
    Candidate, CatalogResolution, CompositeResolution, McpResolution, Resolution, ResolutionError,
    ResolutionStrategy,
};
