//! Candidate scoring: coverage, compatibility and trust bias, weighted
//! 0.45 / 0.35 / 0.20 by default (spec 026).
//!
//! - **coverage**: required keys covered — the schema's required keys the
//!   candidate takes plus the candidate's required inputs the context fills,
//!   over both counts (for an agent, its skills matching the conversation's
//!   skills count as well);
//! - **compatibility**: mean over filled inputs of 1.0 (same key and type),
//!   ×0.9 for a rename, 0.75 for a coercion, 0.5 for a date whose value is
//!   unknown;
//! - **trust bias**: tier (system 1.0, trusted 0.8, community 0.5,
//!   untrusted 0.1) weighing half, local a quarter, and the Laplace-smoothed
//!   success rate of recorded outcomes `(ok+1)/(n+2)` a quarter; a
//!   preference turned off makes its part neutral (0.5).
//!
//! Every number is rounded to 4 decimals so traces are byte-identical.

use std::collections::BTreeMap;

use ccos_marketplace::TrustTier;
use serde::{Deserialize, Serialize};

use crate::adapt::AdapterStep;
use crate::context::PlannerPreferences;

/// Weights of the three parts of a score.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weights {
    /// Coverage weight (default 0.45).
    pub coverage: f64,
    /// Compatibility weight (default 0.35).
    pub compatibility: f64,
    /// Trust-bias weight (default 0.20).
    pub trust: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            coverage: 0.45,
            compatibility: 0.35,
            trust: 0.20,
        }
    }
}

/// Recorded execution outcomes of one subject: (successes, failures).
pub type OutcomeStats = BTreeMap<String, (u64, u64)>;

/// One scored candidate (spec 026's `CandidateScore`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CandidateScore {
    /// Capability or agent id.
    pub id: String,
    /// `capability` or `agent`.
    pub kind: String,
    /// Required-key coverage, 0..1.
    pub coverage: f64,
    /// Type/coercion feasibility, 0..1.
    pub compatibility: f64,
    /// Trusted/local/history bonus, 0..1.
    pub trust_bias: f64,
    /// Weighted total.
    pub total: f64,
    /// True when every required input can be filled.
    pub viable: bool,
    /// Required inputs that cannot be filled.
    pub missing: Vec<String>,
    /// How the context fills its inputs.
    pub adapters: Vec<AdapterStep>,
    /// Each part explained (`coverage 0.45 = ...`, `trust 0.15 = tier 0.10 + ...`).
    pub explain: Vec<String>,
}

/// Rounds to 4 decimals (deterministic printing).
pub fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// The tier's part of the trust bias, 0..1.
pub fn tier_score(t: TrustTier) -> f64 {
    match t {
        TrustTier::System => 1.0,
        TrustTier::Trusted => 0.8,
        TrustTier::Community => 0.5,
        TrustTier::Untrusted => 0.1,
    }
}

/// Trust bias and its explanation, in weighted units of the total.
pub fn trust_bias(
    tier: TrustTier,
    local: bool,
    stats: Option<(u64, u64)>,
    prefs: &PlannerPreferences,
    weight: f64,
) -> (f64, String) {
    let t = if prefs.prefer_trusted {
        tier_score(tier)
    } else {
        0.5
    };
    let l = if prefs.prefer_local {
        if local { 1.0 } else { 0.0 }
    } else {
        0.5
    };
    let (ok, failed) = stats.unwrap_or((0, 0));
    let h = (ok as f64 + 1.0) / ((ok + failed) as f64 + 2.0);
    let bias = round4(0.5 * t + 0.25 * l + 0.25 * h);
    let explain = format!(
        "trust {:.4} = tier {:.4} ({}) + local {:.4} + history {:.4} ({}/{} ok)",
        round4(weight * bias),
        round4(weight * 0.5 * t),
        tier.as_str(),
        round4(weight * 0.25 * l),
        round4(weight * 0.25 * h),
        ok,
        ok + failed
    );
    (bias, explain)
}

/// The parts a candidate is scored from.
pub(crate) struct Parts {
    pub covered: usize,
    pub of: usize,
    pub detail: String,
    pub compat: Vec<f64>,
}

/// Coverage and compatibility from matched parts.
pub(crate) fn coverage_and_compat(p: &Parts) -> (f64, f64) {
    let coverage = if p.of == 0 {
        if p.compat.is_empty() { 0.0 } else { 1.0 }
    } else {
        p.covered as f64 / p.of as f64
    };
    let compat = if p.compat.is_empty() {
        0.0
    } else {
        p.compat.iter().sum::<f64>() / p.compat.len() as f64
    };
    (round4(coverage), round4(compat))
}

/// Sorts best first: total, then (with `optimize_for_speed`) capabilities
/// before agents, then id.
pub fn rank(cands: &mut [CandidateScore], prefs: &PlannerPreferences) {
    cands.sort_by(|a, b| {
        b.viable
            .cmp(&a.viable)
            .then(b.total.total_cmp(&a.total))
            .then_with(|| {
                if prefs.optimize_for_speed {
                    // "capability" sorts after "agent": reversed, capabilities first.
                    b.kind.cmp(&a.kind)
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .then_with(|| a.id.cmp(&b.id))
            .then_with(|| a.kind.cmp(&b.kind))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trust_bias_uses_tier_local_and_smoothed_history() {
        let prefs = PlannerPreferences::default();
        let (b, e) = trust_bias(TrustTier::Community, true, Some((4, 1)), &prefs, 0.2);
        // 0.5*0.5 + 0.25*1 + 0.25*(5/7)
        assert_eq!(b, round4(0.25 + 0.25 + 0.25 * 5.0 / 7.0));
        assert_eq!(
            e,
            "trust 0.1357 = tier 0.0500 (community) + local 0.0500 + history 0.0357 (4/5 ok)"
        );
        let (fresh, _) = trust_bias(TrustTier::Community, true, None, &prefs, 0.2);
        let (bad, _) = trust_bias(TrustTier::Community, true, Some((0, 3)), &prefs, 0.2);
        assert!(b > fresh && fresh > bad);
        let neutral = PlannerPreferences {
            prefer_local: false,
            prefer_trusted: false,
            optimize_for_speed: false,
        };
        let (x, _) = trust_bias(TrustTier::Untrusted, false, None, &neutral, 0.2);
        let (y, _) = trust_bias(TrustTier::System, true, None, &neutral, 0.2);
        assert_eq!(x, y);
    }

    #[test]
    fn coverage_and_compatibility_are_ratios() {
        let p = Parts {
            covered: 3,
            of: 4,
            detail: String::new(),
            compat: vec![1.0, 0.75],
        };
        assert_eq!(coverage_and_compat(&p), (0.75, 0.875));
        let none = Parts {
            covered: 0,
            of: 0,
            detail: String::new(),
            compat: vec![],
        };
        assert_eq!(coverage_and_compat(&none), (0.0, 0.0));
    }
}
