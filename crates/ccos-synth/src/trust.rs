//! Trust feedback (spec 026 v0.4): recorded execution outcomes adjust
//! scoring and agents' trust tiers over time.
//!
//! - Scores: the history part of the trust bias is the Laplace-smoothed
//!   success rate `(ok+1)/(n+2)` of every candidate ([`load_outcomes`] feeds
//!   `SynthOptions::outcomes`), visible in each candidate's explanation
//!   (`history 0.0357 (4/5 ok)`).
//! - Tiers: [`next_tier`] promotes a synthesized agent one tier (never
//!   beyond `trusted`) after at least [`MIN_RUNS`] calls with a smoothed
//!   success rate of at least 0.8, and demotes it one tier when the rate
//!   falls below 0.5; [`adjust_agent_trust`] applies it to the registry.

use ccos_marketplace::{Marketplace, MarketplaceError, TrustTier};
use ccos_store::{Store, StoreError};

use crate::score::OutcomeStats;

/// Calls needed before a tier changes.
pub const MIN_RUNS: u64 = 3;

/// Outcome counts of `ids` from the store (ids without outcomes left out).
pub async fn load_outcomes<I, S>(store: &Store, ids: I) -> Result<OutcomeStats, StoreError>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let mut out = OutcomeStats::new();
    for id in ids {
        let id = id.as_ref();
        let (ok, failed) = store.outcome_stats(id).await?;
        if ok + failed > 0 {
            out.insert(id.to_string(), (ok, failed));
        }
    }
    Ok(out)
}

/// The tier an agent deserves after `ok` successes and `failed` failures
/// (see the module docs); `System` is never granted.
pub fn next_tier(tier: TrustTier, ok: u64, failed: u64) -> TrustTier {
    let n = ok + failed;
    if n < MIN_RUNS {
        return tier;
    }
    let rate = (ok as f64 + 1.0) / (n as f64 + 2.0);
    if rate >= 0.8 {
        match tier {
            TrustTier::Untrusted => TrustTier::Community,
            TrustTier::Community => TrustTier::Trusted,
            t => t,
        }
    } else if rate < 0.5 {
        match tier {
            TrustTier::Trusted => TrustTier::Community,
            TrustTier::Community => TrustTier::Untrusted,
            t => t,
        }
    } else {
        tier
    }
}

/// A change of an agent's tier.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TierChange {
    /// The agent.
    pub id: String,
    /// Before.
    pub from: TrustTier,
    /// After.
    pub to: TrustTier,
    /// Successes counted.
    pub ok: u64,
    /// Failures counted.
    pub failed: u64,
}

/// Why trust could not be adjusted.
#[derive(Debug, thiserror::Error)]
pub enum TrustError {
    /// Reading outcomes failed.
    #[error("reading outcomes: {0}")]
    Store(#[from] StoreError),
    /// Updating the registry failed.
    #[error("updating the registry: {0}")]
    Registry(#[from] MarketplaceError),
}

/// Re-decides the tier of every agent from its recorded outcomes and
/// updates its card and capability; returns the changes, sorted by id.
pub async fn adjust_agent_trust(
    mp: &Marketplace,
    store: &Store,
) -> Result<Vec<TierChange>, TrustError> {
    let mut changes = vec![];
    for mut card in mp.agent_cards() {
        let (ok, failed) = store.outcome_stats(&card.id).await?;
        let to = next_tier(card.trust_tier, ok, failed);
        if to == card.trust_tier {
            continue;
        }
        changes.push(TierChange {
            id: card.id.clone(),
            from: card.trust_tier,
            to,
            ok,
            failed,
        });
        card.trust_tier = to;
        if let Some(mut m) = mp.get(&card.id) {
            m.trust_tier = to;
            mp.replace(m)?;
        }
        mp.register_agent(card)?;
    }
    Ok(changes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiers_move_one_step_with_enough_evidence() {
        use TrustTier::*;
        assert_eq!(next_tier(Community, 2, 0), Community, "too few runs");
        assert_eq!(next_tier(Community, 4, 0), Trusted);
        assert_eq!(next_tier(Trusted, 40, 0), Trusted, "never system");
        assert_eq!(next_tier(Untrusted, 5, 0), Community);
        assert_eq!(next_tier(Community, 0, 3), Untrusted);
        assert_eq!(next_tier(Trusted, 1, 4), Community);
        assert_eq!(next_tier(Community, 3, 2), Community, "mixed record");
        assert_eq!(next_tier(System, 0, 9), System);
    }
}
