//! Agent cards (spec 026): who else can serve a goal, and the snapshot of
//! capability cards a planner reads.

use serde::{Deserialize, Serialize};

use crate::manifest::TrustTier;

/// An agent registered beside the capabilities: what it can do, what
/// context it expects, how far it is trusted, and (for agents defined in
/// RTFS) its plan body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentCard {
    /// Unique id, same charset as capability ids.
    pub id: String,
    /// What the agent does, for people and for planners.
    #[serde(default)]
    pub description: String,
    /// Skills it offers (free-form tags such as `summarize`, `movies`).
    #[serde(default)]
    pub skills: Vec<String>,
    /// Context keys it understands / expects (`expects_context_keys`).
    #[serde(default)]
    pub context_keys: Vec<String>,
    /// How far it is trusted.
    #[serde(default)]
    pub trust_tier: TrustTier,
    /// The RTFS plan body when the agent is RTFS-defined.
    #[serde(default)]
    pub plan: Option<String>,
}

/// The planner-facing summary of one capability (spec 026).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CapabilityCard {
    /// Capability id.
    pub id: String,
    /// Input keys it expects, required first.
    pub expects_context_keys: Vec<String>,
    /// Trust tier.
    pub trust_tier: TrustTier,
    /// True when it runs locally without the network.
    pub local: bool,
    /// Its description.
    pub doc: String,
}
