//! # Planning with a language model
//!
//! Everything the planner does with an LLM, kept out of the deterministic
//! planner (`ccos-planner`), which never needs one:
//!
//! - [`intent_gen`]: spec 006 intent generation, RTFS `(intent ...)` first,
//!   JSON fallback, both attempts kept;
//! - [`decompose`]: [`decompose::IntentFirstDecomposition`] and
//!   [`decompose::GroundedLlmDecomposition`], decomposition strategies that
//!   plug into the deterministic planner's hybrid decomposition;
//! - [`modes`]: [`modes::PlanWriter`], plan generation as direct RTFS (mode
//!   A, with repair) or a JSON IR compiled to RTFS (mode B, [`ir`]), with
//!   discovery-hint re-planning ([`hints`]); [`canon`] compares the two;
//! - [`record`]: how all of it is recorded (exchanges, intents, outcomes).
//!
//! **Invariant:** a model's answer never reaches execution without parse +
//! preflight + governance; a capability the model invents is never
//! stubbed (re-plan, or `requires-agent`).
//!
//! ```
//! use std::sync::Arc;
//! use ccos_governance::Policy;
//! use ccos_llm::ScriptedProvider;
//! use ccos_marketplace::{Marketplace, builtins};
//! use ccos_planner_llm::modes::{PlanWriter, Mode};
//!
//! let mp = Marketplace::new().unwrap();
//! builtins::install(&mp, builtins::BuiltinConfig::default()).unwrap();
//! let model = Arc::new(ScriptedProvider::new([
//!     "(do (step \"sum\" (call :ccos.math.add 2 3)))",
//! ]));
//! let planner = PlanWriter::new(model, Arc::new(mp), Policy::default());
//! let outcome = planner.plan("add 2 and 3", Mode::Rtfs).unwrap();
//! assert!(outcome.rtfs.unwrap().contains(":ccos.math.add"));
//! ```

#![warn(missing_docs)]

pub mod canon;
pub mod decompose;
pub mod hints;
pub mod intent_gen;
pub mod ir;
pub mod modes;
pub mod record;
