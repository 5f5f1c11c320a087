//! # The modular planner
//!
//! A goal is planned in two separated phases (design doc "Modular Planner
//! Architecture"):
//!
//! - **decomposition** (the "what"): the goal becomes ordered
//!   [`intent::SubIntent`]s, each with a type, literal parameters and
//!   dependencies on earlier sub-intents;
//! - **resolution** (the "how"): each sub-intent is matched to capabilities
//!   of the marketplace by a [`resolution::ResolutionStrategy`], which ranks
//!   candidates with scores and human-readable reasons, or says that no
//!   capability fits.
//!
//! [`eval`] measures resolution on public tool-retrieval benchmarks
//! (MetaTool, UltraTool, RestBench, Seal-Tools) loaded at run time.

#![warn(missing_docs)]

pub mod eval;
pub mod intent;
pub mod resolution;

pub use intent::{IntentType, ParamValue, SubIntent};
pub use resolution::{
    Candidate, CatalogResolution, Resolution, ResolutionError, ResolutionStrategy,
};
