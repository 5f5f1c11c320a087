//! Resolution (the "how"): from a sub-intent to ranked capabilities.
//!
//! A [`ResolutionStrategy`] ranks capabilities for one [`SubIntent`] and
//! explains every score with reasons, so the planner's decision trace can
//! show *why* a capability was chosen. Strategies are deterministic: equal
//! scores are ordered by capability id.
//!
//! "No capability fits" is a first-class outcome: a strategy returns an
//! empty vector when nothing matches at all, and [`Resolution::decide`]
//! turns candidates below a threshold into [`Resolution::NoFit`].

pub(crate) mod catalog;
mod composite;
#[cfg(feature = "semantic")]
mod semantic;

pub use catalog::{CLAUSE_POOL, CatalogResolution, DEFAULT_MIN_COVERAGE, POOL_MIN, Weights};
pub use composite::{
    CompositeResolution, FUSION_DEPTH, GATE_PASS, McpResolution, RRF_K, SEMANTIC_WEIGHT, TIED_WITH,
};
#[cfg(feature = "semantic")]
pub use semantic::{
    CACHE_CHUNK, IndexProgress, SemanticError, SemanticIndex, SemanticResolution,
    build_index_cached, build_index_cached_with, capability_text, query_texts, text_hash,
};

use serde::{Deserialize, Serialize};

use crate::intent::SubIntent;

/// The cosine at or above which a capability is a fit on semantic grounds
/// alone (all-MiniLM-L6-v2: paraphrases of one action score about 0.6–0.8,
/// related but different actions 0.3–0.5, unrelated ones under 0.2).
/// Used as the semantic member's bar in
/// [`CompositeResolution::default_for`].
pub const SEMANTIC_MIN: f64 = 0.6;

/// A resolution strategy that can be fused (shared across threads).
pub type BoxedStrategy = Box<dyn ResolutionStrategy + Send + Sync>;

/// One capability proposed for a sub-intent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// The capability's id in the marketplace.
    pub capability_id: String,
    /// Higher is better; comparable only within one strategy's answer.
    pub score: f64,
    /// Why it scored so (`"bm25 7.10 on 'list issues'"`, `"params overlap:
    /// owner, repo"`, adapters to apply), for the decision trace.
    pub reasons: Vec<String>,
}

/// Why resolution could not run (not "nothing fits", which is a result).
#[derive(Debug, thiserror::Error)]
pub enum ResolutionError {
    /// The marketplace's search failed.
    #[error("searching the catalog for sub-intent {intent}: {message}")]
    Search {
        /// The sub-intent id.
        intent: String,
        /// What failed.
        message: String,
    },
}

/// A strategy that maps a sub-intent to ranked capabilities.
pub trait ResolutionStrategy {
    /// Short name for traces (`catalog`, `mcp`, `semantic`...).
    fn name(&self) -> &str;

    /// The `k` best candidates, best first, ties broken by capability id.
    /// Empty when no capability matches at all.
    fn resolve(&self, intent: &SubIntent, k: usize) -> Result<Vec<Candidate>, ResolutionError>;
}

/// The outcome of resolving one sub-intent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Resolution {
    /// At least one candidate reaches the threshold; the first is chosen.
    Resolved {
        /// The candidates at or above the threshold, best first.
        candidates: Vec<Candidate>,
    },
    /// No capability fits; the planner must report `requires-agent`.
    NoFit {
        /// The candidates that were considered and rejected (may be empty).
        rejected: Vec<Candidate>,
    },
}

impl Resolution {
    /// Splits a ranked answer at `min_score`: candidates scoring at least
    /// `min_score` are kept; if none is left the outcome is
    /// [`Resolution::NoFit`] carrying the rejected ones.
    pub fn decide(candidates: Vec<Candidate>, min_score: f64) -> Resolution {
        let (kept, rejected): (Vec<_>, Vec<_>) =
            candidates.into_iter().partition(|c| c.score >= min_score);
        if kept.is_empty() {
            Resolution::NoFit { rejected }
        } else {
            Resolution::Resolved { candidates: kept }
        }
    }

    /// The chosen candidate, if any.
    pub fn best(&self) -> Option<&Candidate> {
        match self {
            Resolution::Resolved { candidates } => candidates.first(),
            Resolution::NoFit { .. } => None,
        }
    }
}

/// Sorts candidates best first, ties by id (the determinism rule of every
/// strategy).
pub fn sort_candidates(c: &mut [Candidate]) {
    c.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| a.capability_id.cmp(&b.capability_id))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(id: &str, score: f64) -> Candidate {
        Candidate {
            capability_id: id.into(),
            score,
            reasons: vec![],
        }
    }

    #[test]
    fn decide_splits_at_threshold() {
        let r = Resolution::decide(vec![c("a", 0.9), c("b", 0.2)], 0.5);
        assert_eq!(r.best().map(|c| c.capability_id.as_str()), Some("a"));
        let r = Resolution::decide(vec![c("a", 0.3)], 0.5);
        assert!(matches!(&r, Resolution::NoFit { rejected } if rejected.len() == 1));
        assert_eq!(r.best(), None);
        assert!(matches!(
            Resolution::decide(vec![], 0.0),
            Resolution::NoFit { .. }
        ));
    }

    #[test]
    fn sort_breaks_ties_by_id() {
        let mut v = vec![c("b", 1.0), c("a", 1.0), c("c", 2.0)];
        sort_candidates(&mut v);
        let ids: Vec<_> = v.iter().map(|c| c.capability_id.as_str()).collect();
        assert_eq!(ids, ["c", "a", "b"]);
    }
}
