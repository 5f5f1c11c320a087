//! [`McpResolution`] and [`CompositeResolution`].
//!
//! `McpResolution` ranks only the tools of MCP servers: discovered tools are
//! ordinary capabilities in the marketplace (their JSON input schemas are
//! their manifests' input schemas), so it reuses the catalog ranking —
//! parameter-name overlap against the tool's schema included — and keeps
//! the candidates whose provider is MCP, naming the server in the reasons.
//!
//! `CompositeResolution` fuses several strategies by reciprocal rank fusion
//! (RRF): each candidate scores `Σ 1 / (K + rank)` over the strategies that
//! ranked it (rank from 1, `K` = [`RRF_K`] = 60, the usual constant). RRF
//! needs no score calibration between strategies, which is why it is the
//! fusion rule: a lexical score and (later) an embedding similarity live on
//! different scales. Fused scores are small (≤ number of strategies / 61),
//! so thresholds meant for a single strategy's scores do not apply to them.

use std::collections::BTreeMap;
use std::sync::Arc;

use ccos_marketplace::{Marketplace, ProviderSpec};

use super::{Candidate, CatalogResolution, ResolutionError, ResolutionStrategy, sort_candidates};
use crate::intent::SubIntent;

/// The RRF constant: ranks beyond a few dozen contribute little.
pub const RRF_K: f64 = 60.0;

/// How many candidates each fused strategy is asked for, at least.
pub const FUSION_DEPTH: usize = 20;

/// Catalog ranking restricted to MCP tools.
pub struct McpResolution {
    catalog: CatalogResolution,
    marketplace: Arc<Marketplace>,
}

impl McpResolution {
    /// Ranks the MCP tools registered in `marketplace`.
    pub fn new(marketplace: Arc<Marketplace>) -> McpResolution {
        McpResolution {
            catalog: CatalogResolution::new(marketplace.clone()),
            marketplace,
        }
    }
}

impl ResolutionStrategy for McpResolution {
    fn name(&self) -> &str {
        "mcp"
    }

    fn resolve(&self, intent: &SubIntent, k: usize) -> Result<Vec<Candidate>, ResolutionError> {
        // Ask for a deeper list: built-ins and imported operations may
        // occupy the top places.
        let wider = self.catalog.resolve(intent, (k * 4).max(FUSION_DEPTH))?;
        let mut out: Vec<Candidate> = wider
            .into_iter()
            .filter_map(
                |mut c| match self.marketplace.get(&c.capability_id)?.provider {
                    ProviderSpec::Mcp { server, tool } => {
                        c.reasons
                            .push(format!("MCP tool {tool} of server {server}"));
                        Some(c)
                    }
                    _ => None,
                },
            )
            .collect();
        sort_candidates(&mut out);
        out.truncate(k);
        Ok(out)
    }
}

/// Several strategies fused by reciprocal rank fusion.
pub struct CompositeResolution {
    strategies: Vec<Box<dyn ResolutionStrategy + Send + Sync>>,
}

impl CompositeResolution {
    /// An empty composite; add strategies with [`CompositeResolution::with`].
    pub fn new() -> CompositeResolution {
        CompositeResolution { strategies: vec![] }
    }

    /// Adds a strategy to the fusion.
    pub fn with(mut self, strategy: impl ResolutionStrategy + Send + Sync + 'static) -> Self {
        self.strategies.push(Box::new(strategy));
        self
    }

    /// The default lexical fusion: the whole catalog and its MCP tools.
    pub fn lexical(marketplace: Arc<Marketplace>) -> CompositeResolution {
        CompositeResolution::new()
            .with(CatalogResolution::new(marketplace.clone()))
            .with(McpResolution::new(marketplace))
    }
}

impl Default for CompositeResolution {
    fn default() -> Self {
        CompositeResolution::new()
    }
}

impl ResolutionStrategy for CompositeResolution {
    fn name(&self) -> &str {
        "composite"
    }

    fn resolve(&self, intent: &SubIntent, k: usize) -> Result<Vec<Candidate>, ResolutionError> {
        let depth = k.max(FUSION_DEPTH);
        // BTreeMap: candidates accumulate in id order, whatever the strategies' order.
        let mut fused: BTreeMap<String, Candidate> = BTreeMap::new();
        for strategy in &self.strategies {
            for (i, c) in strategy.resolve(intent, depth)?.into_iter().enumerate() {
                let rank = i + 1;
                let entry = fused
                    .entry(c.capability_id.clone())
                    .or_insert_with(|| Candidate {
                        capability_id: c.capability_id.clone(),
                        score: 0.0,
                        reasons: vec![],
                    });
                entry.score += 1.0 / (RRF_K + rank as f64);
                entry.reasons.push(format!(
                    "{} #{rank} (score {:.3})",
                    strategy.name(),
                    c.score
                ));
                for r in c.reasons {
                    if !entry.reasons.contains(&r) {
                        entry.reasons.push(r);
                    }
                }
            }
        }
        let mut out: Vec<Candidate> = fused.into_values().collect();
        sort_candidates(&mut out);
        out.truncate(k);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ccos_marketplace::CapabilityManifest;
    use serde_json::json;

    /// A fixed ranking, for testing fusion alone.
    struct Fixed(&'static str, Vec<(&'static str, f64)>);

    impl ResolutionStrategy for Fixed {
        fn name(&self) -> &str {
            self.0
        }
        fn resolve(&self, _: &SubIntent, k: usize) -> Result<Vec<Candidate>, ResolutionError> {
            Ok(self
                .1
                .iter()
                .take(k)
                .map(|(id, s)| Candidate {
                    capability_id: (*id).into(),
                    score: *s,
                    reasons: vec![],
                })
                .collect())
        }
    }

    fn intent(text: &str) -> SubIntent {
        SubIntent::new("s1", text, crate::intent::IntentType::Fetch)
    }

    #[test]
    fn rrf_rewards_agreement_and_breaks_ties_by_id() {
        let c = CompositeResolution::new()
            .with(Fixed("a", vec![("x", 9.0), ("y", 5.0), ("z", 1.0)]))
            .with(Fixed("b", vec![("y", 0.9), ("x", 0.8), ("w", 0.1)]));
        let out = c.resolve(&intent("anything"), 4).unwrap();
        let ids: Vec<&str> = out.iter().map(|c| c.capability_id.as_str()).collect();
        // x and y: ranks (1,2) and (2,1) → equal fused scores, tie by id.
        assert_eq!(ids, ["x", "y", "w", "z"]);
        assert!((out[0].score - (1.0 / 61.0 + 1.0 / 62.0)).abs() < 1e-12);
        assert!((out[2].score - 1.0 / 63.0).abs() < 1e-12);
        assert_eq!(out[0].reasons, ["a #1 (score 9.000)", "b #2 (score 0.800)"]);
        assert!(c.resolve(&intent("anything"), 1).unwrap().len() == 1);
    }

    #[test]
    fn empty_composite_finds_nothing() {
        assert!(
            CompositeResolution::default()
                .resolve(&intent("x"), 3)
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn mcp_resolution_keeps_only_mcp_tools() {
        let mp = Arc::new(Marketplace::new().unwrap());
        let schema =
            json!({"type":"object","properties":{"path":{"type":"string"}},"required":["path"]});
        mp.register(CapabilityManifest::new(
            "ccos.file.read",
            "Read a text file from disk.",
            schema.clone(),
        ))
        .unwrap();
        mp.register(CapabilityManifest {
            provider: ProviderSpec::Mcp {
                server: "filesystem".into(),
                tool: "read_text_file".into(),
            },
            ..CapabilityManifest::new(
                "mcp.filesystem.read_text_file",
                "Read a text file from disk.",
                schema,
            )
        })
        .unwrap();
        let out = McpResolution::new(mp.clone())
            .resolve(&intent("read the text file"), 5)
            .unwrap();
        let ids: Vec<&str> = out.iter().map(|c| c.capability_id.as_str()).collect();
        assert_eq!(ids, ["mcp.filesystem.read_text_file"]);
        assert!(
            out[0]
                .reasons
                .iter()
                .any(|r| r == "MCP tool read_text_file of server filesystem")
        );

        // The lexical composite sees both; the MCP tool, ranked by both
        // strategies, comes first.
        let fused = CompositeResolution::lexical(mp)
            .resolve(&intent("read the text file"), 5)
            .unwrap();
        assert_eq!(
            fused.first().map(|c| c.capability_id.as_str()),
            Some("mcp.filesystem.read_text_file")
        );
        assert_eq!(fused.len(), 2);
    }
}
