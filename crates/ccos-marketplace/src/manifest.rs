//! What a capability is: its manifest.
//!
//! Arguments convention: a capability whose input schema is a JSON Schema
//! `object` takes exactly one map argument (`(call :ccos.echo {:message
//! "hi"})`); one whose input schema is an `array` (with `prefixItems`) takes
//! positional arguments validated as that array (`(call :ccos.math.add 2
//! 3)`). RTFS type expressions such as `[:map [:message :string]]` are
//! converted to JSON Schema by [`rtfs_type_to_json_schema`].

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::{Value as Json, json};

// The effect and trust vocabulary is shared by every layer: one home,
// `ccos_core::cards`.
use ccos_core::{CapabilityCard, CardInput, ParamType};
pub use ccos_core::{Effect, TrustTier};

/// Who executes a capability.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ProviderSpec {
    /// Implemented in this binary.
    Builtin,
    /// A tool of an MCP server (see `ccos-mcp`).
    Mcp {
        /// Server name as configured.
        server: String,
        /// The tool's original (unsanitised) name.
        tool: String,
    },
    /// An operation of an OpenAPI document.
    #[serde(rename = "openapi")]
    OpenApi {
        /// Base URL requests go to.
        base_url: String,
        /// HTTP method, upper case.
        method: String,
        /// Path template, e.g. `/movie/{movie_id}`.
        path: String,
        /// Where each input property goes: `path`, `query`, `header` or `body`
        /// (a field of the JSON body object), or `body_whole` (the property is
        /// the whole JSON body). A `LOC:NAME` value (`query:id`) sends the
        /// property under wire name NAME (see `crate::openapi`).
        locations: std::collections::BTreeMap<String, String>,
    },
    /// Defined by an RTFS body, evaluated with the input map bound to `input`.
    Rtfs {
        /// The RTFS source of the body.
        body: String,
    },
}

impl ProviderSpec {
    /// Short provider label (`builtin`, `mcp`, `openapi`, `rtfs`).
    pub fn label(&self) -> &'static str {
        match self {
            ProviderSpec::Builtin => "builtin",
            ProviderSpec::Mcp { .. } => "mcp",
            ProviderSpec::OpenApi { .. } => "openapi",
            ProviderSpec::Rtfs { .. } => "rtfs",
        }
    }
}

/// Everything known about one capability.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CapabilityManifest {
    /// Unique id, `[A-Za-z0-9_.-]+`, e.g. `ccos.math.add`.
    pub id: String,
    /// Human name.
    pub name: String,
    /// What it does, for people and for search.
    pub description: String,
    /// Version string.
    #[serde(default = "default_version")]
    pub version: String,
    /// JSON Schema of the input (an `object` for one map argument, an
    /// `array` for positional arguments).
    pub input_schema: Json,
    /// JSON Schema of the output, when known.
    #[serde(default)]
    pub output_schema: Option<Json>,
    /// Who executes it.
    pub provider: ProviderSpec,
    /// How far it is trusted.
    #[serde(default)]
    pub trust_tier: TrustTier,
    /// True when it runs on this machine without the network.
    #[serde(default)]
    pub local: bool,
    /// Its side effects (empty means unknown, treated as `write`).
    #[serde(default)]
    pub effects: BTreeSet<Effect>,
    /// Example calls in RTFS.
    #[serde(default)]
    pub examples: Vec<String>,
}

fn default_version() -> String {
    "0.1.0".into()
}

impl CapabilityManifest {
    /// A manifest with defaults for everything but id, description and
    /// input schema: name = id, version 0.1.0, built-in provider, trust
    /// `community`, not local, effects unknown (treated as `write`), no
    /// examples. Override fields with struct update syntax.
    pub fn new(id: impl Into<String>, description: impl Into<String>, input_schema: Json) -> Self {
        let id = id.into();
        CapabilityManifest {
            name: id.clone(),
            id,
            description: description.into(),
            version: default_version(),
            input_schema,
            output_schema: None,
            provider: ProviderSpec::Builtin,
            trust_tier: TrustTier::Community,
            local: false,
            effects: BTreeSet::new(),
            examples: vec![],
        }
    }

    /// The same manifest with this trust tier (builder style, for code and
    /// tests that assemble manifests).
    pub fn with_tier(mut self, tier: TrustTier) -> Self {
        self.trust_tier = tier;
        self
    }

    /// The same manifest with these effects.
    pub fn with_effects(mut self, effects: &[Effect]) -> Self {
        self.effects = effects.iter().copied().collect();
        self
    }

    /// The same manifest with this provider.
    pub fn with_provider(mut self, provider: ProviderSpec) -> Self {
        self.provider = provider;
        self
    }

    /// The same manifest with this output schema.
    pub fn with_output(mut self, output_schema: Json) -> Self {
        self.output_schema = Some(output_schema);
        self
    }

    /// The same manifest with this display name.
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// The same manifest marked as running locally (no network).
    pub fn local(mut self) -> Self {
        self.local = true;
        self
    }

    /// True when arguments are positional (the input schema is an array).
    pub fn is_positional(&self) -> bool {
        self.input_schema.get("type").and_then(Json::as_str) == Some("array")
    }

    /// Effects, with "unknown" made explicit as `write` (conservative).
    pub fn effective_effects(&self) -> BTreeSet<Effect> {
        if self.effects.is_empty() {
            BTreeSet::from([Effect::Write])
        } else {
            self.effects.clone()
        }
    }

    /// Names of the input properties, required ones first, each group in
    /// schema order. These are the context keys the capability expects
    /// (`expects_context_keys` of spec 026).
    pub fn expects_context_keys(&self) -> Vec<String> {
        let required = self.required_keys();
        let mut keys: Vec<String> = required.clone();
        for k in self.property_names() {
            if !required.contains(&k) {
                keys.push(k);
            }
        }
        keys
    }

    /// The schema's required property names.
    pub fn required_keys(&self) -> Vec<String> {
        self.input_schema
            .get("required")
            .and_then(Json::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The schema's property names in schema order.
    pub fn property_names(&self) -> Vec<String> {
        self.input_schema
            .get("properties")
            .and_then(Json::as_object)
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// The JSON Schema of one input property.
    pub fn property_schema(&self, name: &str) -> Option<&Json> {
        self.input_schema.get("properties")?.get(name)
    }

    /// The planner-facing card (spec 026): typed inputs from the input
    /// schema; positional arguments named by their `title`, else `arg<i>`.
    pub fn card(&self) -> CapabilityCard {
        let mut inputs = vec![];
        if self.is_positional() {
            let items = self
                .input_schema
                .get("prefixItems")
                .and_then(Json::as_array)
                .cloned()
                .unwrap_or_default();
            let min = self
                .input_schema
                .get("minItems")
                .and_then(Json::as_u64)
                .unwrap_or(items.len() as u64) as usize;
            for (i, it) in items.iter().enumerate() {
                inputs.push(CardInput {
                    key: it
                        .get("title")
                        .and_then(Json::as_str)
                        .map(str::to_string)
                        .unwrap_or_else(|| format!("arg{i}")),
                    ty: ParamType::from_json_schema(Some(it)),
                    required: i < min,
                });
            }
        } else {
            let required = self.required_keys();
            for k in self.expects_context_keys() {
                inputs.push(CardInput {
                    ty: ParamType::from_json_schema(self.property_schema(&k)),
                    required: required.contains(&k),
                    key: k,
                });
            }
        }
        CapabilityCard {
            id: self.id.clone(),
            doc: self.description.clone(),
            inputs,
            positional: self.is_positional(),
            trust_tier: self.trust_tier,
            local: self.local,
            effects: self.effects.clone(),
        }
    }

    /// A manifest standing for `card` where only what the policy decides on
    /// matters (id, trust tier, effects): for deciding on snapshot cards.
    pub fn from_card(card: &CapabilityCard) -> CapabilityManifest {
        CapabilityManifest {
            trust_tier: card.trust_tier,
            local: card.local,
            effects: card.effects.clone(),
            ..CapabilityManifest::new(card.id.clone(), card.doc.clone(), json!({"type": "object"}))
        }
    }
}

/// Converts an RTFS type expression to JSON Schema, through the
/// language's one type model (`rtfs::TypeExpr`, which also checks
/// annotations at run time and in preflight).
///
/// Supported: `:string :int :integer :float :number :bool :boolean :nil
/// :any :keyword`, `[:vector T]`, `[:map [:key T] [:key {:optional true} T]...]`,
/// `[:enum v...]`, `[:or T...]`, and `[:tuple T...]` / a plain vector of
/// types (positional arguments).
pub fn rtfs_type_to_json_schema(ty: &rtfs::Value) -> Result<Json, String> {
    rtfs::TypeExpr::parse(ty)?.to_json_schema()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rtfs_types_convert() {
        let t =
            rtfs::eval_str("'[:map [:message :string] [:count {:optional true} :int]]").unwrap();
        assert_eq!(
            rtfs_type_to_json_schema(&t).unwrap(),
            json!({"type":"object","properties":{"message":{"type":"string"},"count":{"type":"integer"}},"required":["message"]})
        );
        let t = rtfs::eval_str("'[:number :number]").unwrap();
        assert_eq!(
            rtfs_type_to_json_schema(&t).unwrap(),
            json!({"type":"array","prefixItems":[{"type":"number"},{"type":"number"}],"minItems":2,"maxItems":2})
        );
        assert!(rtfs_type_to_json_schema(&rtfs::eval_str(":wat").unwrap()).is_err());
    }

    #[test]
    fn context_keys_put_required_first() {
        let m = CapabilityManifest {
            id: "x".into(),
            name: "x".into(),
            description: String::new(),
            version: default_version(),
            input_schema: json!({"type":"object","properties":{"a":{},"b":{},"c":{}},"required":["c"]}),
            output_schema: None,
            provider: ProviderSpec::Builtin,
            trust_tier: TrustTier::System,
            local: true,
            effects: BTreeSet::new(),
            examples: vec![],
        };
        assert_eq!(m.expects_context_keys(), ["c", "a", "b"]);
        assert_eq!(m.effective_effects(), BTreeSet::from([Effect::Write]));
    }

    #[test]
    fn tiers_order_from_most_trusted() {
        assert!(TrustTier::System < TrustTier::Untrusted);
        assert_eq!(TrustTier::parse("trusted"), Some(TrustTier::Trusted));
        assert_eq!(Effect::parse("network"), Some(Effect::Network));
    }
}
