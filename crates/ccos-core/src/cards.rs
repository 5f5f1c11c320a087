//! The vocabulary of capabilities that governance, planning and synthesis
//! share: effects, trust tiers, and the planner-facing cards of
//! capabilities and agents (spec 026).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

/// A side effect a capability may have. Governance allows or gates calls by
/// effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Effect {
    /// No effect: the result depends only on the arguments.
    Pure,
    /// Reads local state (files, clock).
    Read,
    /// Changes local state (writes files).
    Write,
    /// Talks to the network.
    Network,
    /// Interacts with the user (asks a question).
    User,
}

impl Effect {
    /// Every effect, in order.
    pub const ALL: [Effect; 5] = [
        Effect::Pure,
        Effect::Read,
        Effect::Write,
        Effect::Network,
        Effect::User,
    ];

    /// Lower-case name (`pure`, `read`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Effect::Pure => "pure",
            Effect::Read => "read",
            Effect::Write => "write",
            Effect::Network => "network",
            Effect::User => "user",
        }
    }

    /// Parses a lower-case effect name.
    pub fn parse(s: &str) -> Option<Effect> {
        Effect::ALL.into_iter().find(|e| e.as_str() == s)
    }
}

/// How much a capability's provider is trusted, from most to least.
///
/// The order matters: a policy's `max_trust_tier` admits that tier and every
/// more trusted one (`System` < `Trusted` < `Community` < `Untrusted`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default,
)]
#[serde(rename_all = "lowercase")]
pub enum TrustTier {
    /// Shipped with ccos (built-ins).
    System,
    /// Configured and vouched for by the user.
    Trusted,
    /// Third-party, not vetted (default for imported and discovered tools).
    #[default]
    Community,
    /// Known to be risky, or synthesised and never run successfully.
    Untrusted,
}

impl TrustTier {
    /// Every tier, most trusted first.
    pub const ALL: [TrustTier; 4] = [
        TrustTier::System,
        TrustTier::Trusted,
        TrustTier::Community,
        TrustTier::Untrusted,
    ];

    /// Lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            TrustTier::System => "system",
            TrustTier::Trusted => "trusted",
            TrustTier::Community => "community",
            TrustTier::Untrusted => "untrusted",
        }
    }

    /// Parses a lower-case tier name.
    pub fn parse(s: &str) -> Option<TrustTier> {
        TrustTier::ALL.into_iter().find(|t| t.as_str() == s)
    }
}

/// The type of a parameter or of a capability's input, as planners reason
/// about it (coarser than JSON Schema).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum ParamType {
    /// Text.
    String,
    /// Whole number.
    Int,
    /// Any number.
    Float,
    /// True or false.
    Bool,
    /// A calendar date (`YYYY-MM-DD` once adapted).
    Date,
    /// A date and time (RFC 3339 once adapted).
    Datetime,
    /// A list.
    List,
    /// A map.
    Map,
    /// Anything (no constraint).
    #[default]
    Any,
}

impl ParamType {
    /// Lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            ParamType::String => "string",
            ParamType::Int => "int",
            ParamType::Float => "float",
            ParamType::Bool => "bool",
            ParamType::Date => "date",
            ParamType::Datetime => "datetime",
            ParamType::List => "list",
            ParamType::Map => "map",
            ParamType::Any => "any",
        }
    }

    /// The type a JSON Schema describes (`format: date` / `date-time` on
    /// strings included).
    pub fn from_json_schema(s: Option<&Json>) -> ParamType {
        let Some(s) = s else { return ParamType::Any };
        let format = s.get("format").and_then(Json::as_str);
        match s.get("type").and_then(Json::as_str) {
            Some("string") => match format {
                Some("date") => ParamType::Date,
                Some("date-time") => ParamType::Datetime,
                _ => ParamType::String,
            },
            Some("integer") => ParamType::Int,
            Some("number") => ParamType::Float,
            Some("boolean") => ParamType::Bool,
            Some("array") => ParamType::List,
            Some("object") => ParamType::Map,
            _ => ParamType::Any,
        }
    }

    /// The type of a JSON value.
    pub fn of_value(v: &Json) -> ParamType {
        match v {
            Json::String(_) => ParamType::String,
            Json::Number(n) if n.is_i64() || n.is_u64() => ParamType::Int,
            Json::Number(_) => ParamType::Float,
            Json::Bool(_) => ParamType::Bool,
            Json::Array(_) => ParamType::List,
            Json::Object(_) => ParamType::Map,
            Json::Null => ParamType::Any,
        }
    }
}

/// One input of a capability card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardInput {
    /// Input key (property name, or the title of a positional argument).
    pub key: String,
    /// Its type.
    #[serde(default, rename = "type")]
    pub ty: ParamType,
    /// True when the capability needs it.
    #[serde(default)]
    pub required: bool,
}

/// The planner-facing summary of one capability (spec 026's
/// `CapabilityCard`, with typed inputs so compatibility can be scored).
/// The marketplace makes one from a manifest
/// (`CapabilityManifest::card`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CapabilityCard {
    /// Capability id.
    pub id: String,
    /// What it does.
    #[serde(default)]
    pub doc: String,
    /// Its inputs, in schema order.
    #[serde(default)]
    pub inputs: Vec<CardInput>,
    /// True when arguments are positional (`(call :id a b)`), in `inputs` order.
    #[serde(default)]
    pub positional: bool,
    /// How far it is trusted.
    #[serde(default)]
    pub trust_tier: TrustTier,
    /// True when it runs locally.
    #[serde(default)]
    pub local: bool,
    /// Its side effects (empty: unknown, treated as `write` by the policy).
    #[serde(default)]
    pub effects: BTreeSet<Effect>,
}

impl CapabilityCard {
    /// Input keys, required first (spec 026's `expects_context_keys`).
    pub fn expects_context_keys(&self) -> Vec<String> {
        let required = self.inputs.iter().filter(|i| i.required);
        let optional = self.inputs.iter().filter(|i| !i.required);
        required.chain(optional).map(|i| i.key.clone()).collect()
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tiers_order_from_most_to_least_trusted() {
        assert!(TrustTier::System < TrustTier::Trusted);
        assert!(TrustTier::Community < TrustTier::Untrusted);
        for t in TrustTier::ALL {
            assert_eq!(TrustTier::parse(t.as_str()), Some(t));
        }
        for e in Effect::ALL {
            assert_eq!(Effect::parse(e.as_str()), Some(e));
        }
    }

    #[test]
    fn types_from_schemas_and_values() {
        let date = json!({"type": "string", "format": "date"});
        assert_eq!(ParamType::from_json_schema(Some(&date)), ParamType::Date);
        assert_eq!(ParamType::from_json_schema(None), ParamType::Any);
        assert_eq!(ParamType::of_value(&json!(2)), ParamType::Int);
        assert_eq!(ParamType::of_value(&json!(2.5)), ParamType::Float);
    }

    #[test]
    fn required_keys_come_first() {
        let card = CapabilityCard {
            id: "x".into(),
            doc: String::new(),
            inputs: vec![
                CardInput {
                    key: "opt".into(),
                    ty: ParamType::Any,
                    required: false,
                },
                CardInput {
                    key: "req".into(),
                    ty: ParamType::Any,
                    required: true,
                },
            ],
            positional: false,
            trust_tier: TrustTier::Community,
            local: true,
            effects: BTreeSet::new(),
        };
        assert_eq!(card.expects_context_keys(), ["req", "opt"]);
    }
}
