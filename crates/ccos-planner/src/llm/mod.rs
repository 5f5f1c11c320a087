//! LLM-backed planning: plan generation modes (direct RTFS with repair,
//! JSON IR), canonicalisation and comparison, discovery hints and
//! re-planning.

pub mod canon;
pub mod decompose;
pub mod hints;
pub mod intent_gen;
pub mod ir;
pub mod modes;
pub mod record;
