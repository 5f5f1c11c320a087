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

use super::{
    BoxedStrategy, Candidate, CatalogResolution, ResolutionError, ResolutionStrategy, SEMANTIC_MIN,
    sort_candidates,
};
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

/// One fused strategy: its RRF weight and, optionally, its absolute bar.
struct Member {
    strategy: Box<dyn ResolutionStrategy + Send + Sync>,
    weight: f64,
    bar: Option<f64>,
}

/// Several strategies fused by (weighted) reciprocal rank fusion.
///
/// **Gated mode.** When some strategy is added with a bar
/// ([`CompositeResolution::with_bar`]), fusion only *reorders*: a candidate
/// is a fit only if some barred strategy scored it at or above its bar (the
/// catalog's `MIN_SCORE`, the semantic [`SEMANTIC_MIN`]). Fits score
/// [`GATE_PASS`] + their fused score, the others their fused score alone
/// (always below 1), so the planner's `MIN_SCORE` (= [`GATE_PASS`]) keeps
/// exactly the fits and its "no capability fits" outcome survives fusion.
pub struct CompositeResolution {
    members: Vec<Member>,
    name: String,
}

/// The reason that marks a candidate one strategy scores exactly as
/// another (followed by the other's id): see [`crate::Planner`]'s choice.
pub const TIED_WITH: &str = "tied with ";

/// The score floor of a candidate that passes a bar in gated mode; equal
/// to the planner's `MIN_SCORE`, which it is compared against.
pub const GATE_PASS: f64 = crate::planner::MIN_SCORE;

/// RRF weight of the semantic ranking in [`CompositeResolution::default_for`]
/// and [`CompositeResolution::fused`] (the catalog's is 1). Chosen on the
/// evaluation's dev split only (`ccos eval --part dev`, weights 0.05–1.0;
/// 0.05 had the best mean nDCG@5 over the RestBench, UltraTool and
/// Seal-Tools dev parts): the embedding ranking mostly breaks ties and
/// fills the lower places of the lexical one.
pub const SEMANTIC_WEIGHT: f64 = 0.05;

impl CompositeResolution {
    /// An empty composite; add strategies with [`CompositeResolution::with`].
    pub fn new() -> CompositeResolution {
        CompositeResolution {
            members: vec![],
            name: "composite".into(),
        }
    }

    /// Adds a strategy to the fusion (weight 1, no bar).
    pub fn with(self, strategy: impl ResolutionStrategy + Send + Sync + 'static) -> Self {
        self.with_weighted(strategy, 1.0, None)
    }

    /// Adds a strategy with an absolute bar (see gated mode above), weight 1.
    pub fn with_bar(
        self,
        strategy: impl ResolutionStrategy + Send + Sync + 'static,
        bar: f64,
    ) -> Self {
        self.with_weighted(strategy, 1.0, Some(bar))
    }

    /// Adds a strategy with an RRF weight (its term is `weight / (K + rank)`)
    /// and an optional bar.
    pub fn with_weighted(
        self,
        strategy: impl ResolutionStrategy + Send + Sync + 'static,
        weight: f64,
        bar: Option<f64>,
    ) -> Self {
        self.with_boxed(Box::new(strategy), weight, bar)
    }

    /// [`CompositeResolution::with_weighted`] for a boxed strategy.
    pub fn with_boxed(mut self, strategy: BoxedStrategy, weight: f64, bar: Option<f64>) -> Self {
        self.members.push(Member {
            strategy,
            weight,
            bar,
        });
        self
    }

    /// Renames the composite (its name appears in traces and eval reports).
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// The default lexical fusion: the whole catalog and its MCP tools.
    pub fn lexical(marketplace: Arc<Marketplace>) -> CompositeResolution {
        CompositeResolution::new()
            .with(CatalogResolution::new(marketplace.clone()))
            .with(McpResolution::new(marketplace))
    }

    /// The planner's default resolution: the catalog ranking (with the
    /// planner's minimum coverage, bar `MIN_SCORE`) fused with the semantic
    /// ranking (weight [`SEMANTIC_WEIGHT`], bar [`SEMANTIC_MIN`]) in gated
    /// mode; without a semantic strategy (model absent), the catalog alone
    /// in gated mode (same choices as the catalog by itself). MCP tools are
    /// part of the catalog ranking; `McpResolution` is not fused in by
    /// default because counting MCP tools twice would prefer them over an
    /// equivalent built-in for no reason of relevance.
    pub fn default_for(
        marketplace: Arc<Marketplace>,
        semantic: Option<BoxedStrategy>,
    ) -> CompositeResolution {
        let catalog =
            CatalogResolution::new(marketplace).with_min_coverage(crate::planner::MIN_COVERAGE);
        let c = CompositeResolution::new().with_bar(catalog, crate::planner::MIN_SCORE);
        match semantic {
            Some(s) => c
                .with_boxed(s, SEMANTIC_WEIGHT, Some(SEMANTIC_MIN))
                .named("composite(catalog+semantic)"),
            None => c.named("composite(catalog)"),
        }
    }

    /// The evaluation's fused strategy: catalog (no coverage floor, as
    /// `ccos eval --strategy catalog`) and semantic, weighted RRF, no gate.
    pub fn fused(marketplace: Arc<Marketplace>, semantic: BoxedStrategy) -> Self {
        CompositeResolution::fused_weighted(marketplace, semantic, SEMANTIC_WEIGHT)
    }

    /// [`CompositeResolution::fused`] with another semantic weight (for
    /// tuning on the dev split).
    pub fn fused_weighted(
        marketplace: Arc<Marketplace>,
        semantic: BoxedStrategy,
        weight: f64,
    ) -> Self {
        CompositeResolution::new()
            .with(CatalogResolution::new(marketplace))
            .with_boxed(semantic, weight, None)
            .named(format!("fused(catalog+semantic, weight {weight})"))
    }
}

impl Default for CompositeResolution {
    fn default() -> Self {
        CompositeResolution::new()
    }
}

impl ResolutionStrategy for CompositeResolution {
    fn name(&self) -> &str {
        &self.name
    }

    fn resolve(&self, intent: &SubIntent, k: usize) -> Result<Vec<Candidate>, ResolutionError> {
        let depth = k.max(FUSION_DEPTH);
        let gated = self.members.iter().any(|m| m.bar.is_some());
        // BTreeMap: candidates accumulate in id order, whatever the strategies' order.
        let mut fused: BTreeMap<String, (Candidate, bool)> = BTreeMap::new();
        for member in &self.members {
            let strategy = &member.strategy;
            let ranked = strategy.resolve(intent, depth)?;
            // Candidates a strategy cannot tell apart (the same score):
            // the planner does not pick one of them by name order.
            let tied_with = |i: usize| -> Vec<String> {
                ranked
                    .iter()
                    .enumerate()
                    .filter(|(j, o)| *j != i && o.score == ranked[i].score && o.score > 0.0)
                    .map(|(_, o)| format!("{TIED_WITH}{}", o.capability_id))
                    .collect()
            };
            let ties: Vec<Vec<String>> = (0..ranked.len()).map(tied_with).collect();
            for (i, c) in ranked.into_iter().enumerate() {
                let rank = i + 1;
                let (entry, passes) = fused.entry(c.capability_id.clone()).or_insert_with(|| {
                    (
                        Candidate {
                            capability_id: c.capability_id.clone(),
                            score: 0.0,
                            reasons: vec![],
                        },
                        false,
                    )
                });
                entry.score += member.weight / (RRF_K + rank as f64);
                entry.reasons.push(format!(
                    "{} #{rank} (score {:.3})",
                    strategy.name(),
                    c.score
                ));
                if let Some(bar) = member.bar
                    && c.score >= bar
                {
                    if !*passes {
                        entry
                            .reasons
                            .push(format!("passes the {} bar {bar}", strategy.name()));
                    }
                    *passes = true;
                }
                for r in c.reasons.into_iter().chain(ties[i].iter().cloned()) {
                    if !entry.reasons.contains(&r) {
                        entry.reasons.push(r);
                    }
                }
            }
        }
        let mut out: Vec<Candidate> = fused
            .into_values()
            .map(|(mut c, passes)| {
                if gated {
                    if passes {
                        c.score += GATE_PASS;
                    } else {
                        c.reasons.push("below every bar".into());
                    }
                }
                c
            })
            .collect();
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
    fn gated_mode_keeps_only_candidates_passing_a_bar() {
        let c = CompositeResolution::new()
            .with_bar(Fixed("lex", vec![("a", 3.0), ("b", 0.5)]), 1.0)
            .with_weighted(
                Fixed("sem", vec![("b", 0.9), ("c", 0.7), ("d", 0.2)]),
                1.0,
                Some(0.6),
            );
        let out = c.resolve(&intent("anything"), 5).unwrap();
        let kept: Vec<&str> = out
            .iter()
            .filter(|c| c.score >= GATE_PASS)
            .map(|c| c.capability_id.as_str())
            .collect();
        // b passes only through the semantic bar, c only semantically, d nowhere.
        assert_eq!(kept, ["b", "a", "c"]);
        let d = out.iter().find(|c| c.capability_id == "d").unwrap();
        assert!(d.score < GATE_PASS);
        assert!(d.reasons.iter().any(|r| r == "below every bar"));
        assert!(out[0].reasons.iter().any(|r| r == "passes the sem bar 0.6"));
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
