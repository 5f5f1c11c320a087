//! Planning a goal: the deterministic planner (with the LLM decompositions
//! when a model is configured) or plan generation by a model; every result
//! recorded (IntentGraph, plan archive, causal chain). The decision trace
//! and requires-agent reports as text live here too, so the CLI and the MCP
//! server print the same thing.

use std::path::PathBuf;
use std::sync::Arc;

use ccos_llm::Recorder;
use ccos_planner::planner::{PlanResult, Recorded};
use ccos_planner::{CompositeResolution, HybridDecomposition, PatternDecomposition, Planner};
use ccos_planner_llm::canon::{self, PlanDiff};
use ccos_planner_llm::decompose::{GroundedLlmDecomposition, IntentFirstDecomposition};
use ccos_planner_llm::intent_gen::{GeneratedIntent, generate_intent};
use ccos_planner_llm::modes::{LlmPlanOutcome, Mode, PlanWriter};
use ccos_planner_llm::record::{
    Planned as LlmPlanned, create_llm_intent, record_exchanges, record_generated_intent,
    record_plan_outcome,
};
use serde_json::json;

use crate::{World, WorldError};

/// A goal planned by the deterministic planner, and where it was recorded.
#[derive(Debug, Clone)]
pub struct Planned {
    /// The plan, or the requires-agent report, with the decision trace.
    pub result: PlanResult,
    /// The ids stored (root intent, sub-intents, archived plan).
    pub recorded: Recorded,
    /// Notices a person should see (e.g. "semantic resolution off").
    pub warnings: Vec<String>,
}

/// The deterministic planner of a world (see [`World::planner`]).
pub struct WorldPlanner {
    /// The planner.
    pub planner: Planner,
    /// Records the exchanges of the LLM decompositions, when a model is
    /// configured.
    pub recorder: Option<Arc<Recorder>>,
    /// Notices a person should see.
    pub warnings: Vec<String>,
}

/// A goal planned by a language model, and where it was recorded.
pub struct ModelPlanned {
    /// The root intent.
    pub intent_id: String,
    /// The archived plan, when there is one and it was archived.
    pub plan_id: Option<String>,
    /// The outcome.
    pub outcome: LlmPlanned,
}

/// Both modes' plans and their comparison (`ccos plan --compare`).
pub struct Compared {
    /// The root intent.
    pub intent_id: String,
    /// Mode A (RTFS).
    pub rtfs: LlmPlanned,
    /// Mode B (JSON IR).
    pub ir: LlmPlanned,
    /// Mode B's IR against the canonical IR of mode A's plan, when both
    /// produced a plan.
    pub diff: Option<PlanDiff>,
}

/// Where the embedding model is: `$CCOS_EMBED_MODEL_DIR`, else
/// `$CCOS_HOME/models/all-MiniLM-L6-v2`.
pub fn model_dir(world: &World) -> PathBuf {
    match world.env().get("CCOS_EMBED_MODEL_DIR") {
        Some(d) => PathBuf::from(d),
        None => world.home().join("models").join("all-MiniLM-L6-v2"),
    }
}

fn model_installed(dir: &std::path::Path) -> bool {
    ["config.json", "tokenizer.json", "model.safetensors"]
        .iter()
        .all(|f| dir.join(f).is_file())
}

/// What [`World::index_catalog`] did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "semantic", rename_all = "snake_case")]
pub enum IndexOutcome {
    /// The catalog is indexed: `embedded` vectors were computed now, the
    /// rest came from the cache.
    Indexed {
        /// Capabilities in the index.
        capabilities: usize,
        /// Vectors computed (not cached).
        embedded: usize,
        /// Time taken.
        millis: u128,
    },
    /// Semantic resolution is off, and why.
    Off {
        /// Why.
        reason: String,
    },
}

/// Rejects an empty goal (a usage error).
fn goal_text(goal: &str) -> Result<&str, WorldError> {
    let g = goal.trim();
    if g.is_empty() {
        return Err(WorldError::usage(
            "the goal is empty: say what you want done, e.g. ccos run \"count the words in README.md\"",
        ));
    }
    Ok(g)
}

impl World {
    /// The planner's default resolution and a notice when it is not the
    /// full one: catalog fused with semantic resolution when the
    /// embedding model is installed and this build has the `semantic`
    /// feature; otherwise the catalog alone. The second value is a notice
    /// for the trace; the third says whether a person should see it.
    fn resolution(&self) -> Result<(CompositeResolution, Option<String>, bool), WorldError> {
        let mp = self.marketplace()?;
        #[cfg(feature = "semantic")]
        {
            match self.semantic_index()? {
                Ok(ix) => Ok((
                    CompositeResolution::default_for(
                        mp.clone(),
                        Some(Box::new(ccos_planner::resolution::SemanticResolution::new(
                            Arc::new(ix),
                        ))),
                    ),
                    None,
                    false,
                )),
                Err(why) => Ok((
                    CompositeResolution::default_for(mp.clone(), None),
                    Some(format!(
                        "semantic resolution off: {why}; resolving lexically"
                    )),
                    true,
                )),
            }
        }
        #[cfg(not(feature = "semantic"))]
        {
            let dir = model_dir(self);
            let (notice, loud) = if model_installed(&dir) {
                (
                    format!(
                        "semantic resolution off: the embedding model is installed at {} but this ccos was built without the `semantic` feature (cargo run -p ccos-cli --features semantic); resolving lexically",
                        dir.display()
                    ),
                    true,
                )
            } else {
                (
                    "semantic resolution off: built without the `semantic` feature; resolving lexically".to_string(),
                    false,
                )
            };
            Ok((
                CompositeResolution::default_for(mp, None),
                Some(notice),
                loud,
            ))
        }
    }

    /// The semantic index of the catalog, through the store's embedding
    /// cache (missing vectors embedded in chunks, progress reported to the
    /// world's index-progress sink), or why semantic resolution is off.
    #[cfg(feature = "semantic")]
    fn semantic_index(
        &self,
    ) -> Result<Result<ccos_planner::resolution::SemanticIndex, String>, WorldError> {
        let mp = self.marketplace()?;
        let dir = model_dir(self);
        let setup = format!("run scripts/setup-model.sh {}", dir.display());
        if !model_installed(&dir) {
            return Ok(Err(format!(
                "model not found at {}; {setup}",
                dir.display()
            )));
        }
        let embedder = match ccos_embed::Embedder::load(&dir) {
            Ok(e) => Arc::new(e),
            Err(e) => return Ok(Err(format!("loading the model failed: {e}; {setup}"))),
        };
        let store = self.store()?;
        let sink = self.index_progress.clone();
        let progress = move |done: usize, total: usize| {
            if let Some(s) = &sink {
                s(done, total);
            }
        };
        Ok(self
            .block_on(ccos_planner::resolution::build_index_cached_with(
                store, embedder, &mp, &progress,
            ))
            .map_err(|e| format!("indexing the catalog failed: {e}")))
    }

    /// Embeds the catalog's capabilities that the embedding cache does not
    /// hold yet, so the first plan after an import or a discovery does not
    /// pay for it (`ccos caps import` and `ccos mcp discover` call it;
    /// progress goes to the index-progress sink). Semantic resolution off
    /// (no `semantic` feature, no model) is not an error: the outcome says
    /// why nothing was embedded.
    pub fn index_catalog(&self) -> Result<IndexOutcome, WorldError> {
        #[cfg(feature = "semantic")]
        {
            let start = std::time::Instant::now();
            Ok(match self.semantic_index()? {
                Ok(ix) => IndexOutcome::Indexed {
                    capabilities: ix.len(),
                    embedded: ix.computed(),
                    millis: start.elapsed().as_millis(),
                },
                Err(reason) => IndexOutcome::Off { reason },
            })
        }
        #[cfg(not(feature = "semantic"))]
        {
            Ok(IndexOutcome::Off {
                reason: "built without the `semantic` feature".to_string(),
            })
        }
    }

    /// The deterministic planner of this world: this home's pattern rules
    /// (`$CCOS_HOME/patterns.toml` or the built-in ones), the default
    /// resolution, and — when a model is configured — the LLM
    /// decompositions (grounded, then intent-first) in the hybrid
    /// decomposition.
    pub fn planner(&self) -> Result<WorldPlanner, WorldError> {
        let mp = self.marketplace()?;
        let patterns =
            PatternDecomposition::load(self.home().root()).map_err(WorldError::failed)?;
        let (resolution, notice, loud) = self.resolution()?;
        let mut planner = Planner::new(mp.clone(), self.policy().clone(), patterns)
            .with_resolution(Box::new(resolution));
        let mut warnings = vec![];
        if let Some(n) = notice {
            if loud {
                warnings.push(n.clone());
            }
            planner = planner.with_notice(n);
        }
        let recorder = self.llm()?;
        if let Some(r) = &recorder {
            let patterns =
                PatternDecomposition::load(self.home().root()).map_err(WorldError::failed)?;
            let hybrid = HybridDecomposition::new(patterns)
                .with_extra(Box::new(GroundedLlmDecomposition::new(r.clone(), mp)))
                .with_extra(Box::new(IntentFirstDecomposition::new(r.clone())));
            planner = planner.with_decomposition(hybrid);
        }
        Ok(WorldPlanner {
            planner,
            recorder,
            warnings,
        })
    }

    /// Plans `goal` and records it; the plan is archived as a draft when
    /// `archive` (a run archives the plan it runs itself).
    pub fn plan_goal_recorded(&self, goal: &str, archive: bool) -> Result<Planned, WorldError> {
        let goal = goal_text(goal)?;
        let WorldPlanner {
            planner,
            recorder,
            warnings,
        } = self.planner()?;
        let result = planner.plan(goal).map_err(plan_error);
        let store = self.store()?;
        if let Some(r) = &recorder {
            let ex = r.take_exchanges();
            if !ex.is_empty() {
                self.block_on(record_exchanges(store, None, &ex))?;
            }
        }
        let result = result?;
        let recorded = self.block_on(ccos_planner::record(
            store,
            &result,
            archive,
            self.secrets(),
        ))?;
        Ok(Planned {
            result,
            recorded,
            warnings,
        })
    }

    /// Plans `goal` (deterministic planner), records it and archives the plan.
    pub fn plan_goal(&self, goal: &str) -> Result<Planned, WorldError> {
        self.plan_goal_recorded(goal, true)
    }

    /// Plans `goal` with the configured model in `mode`, recorded under a
    /// new root intent; the plan is archived as a draft when `archive`.
    pub fn plan_with_model(
        &self,
        goal: &str,
        mode: Mode,
        archive: bool,
    ) -> Result<ModelPlanned, WorldError> {
        let goal = goal_text(goal)?;
        let recorder = self.require_llm()?;
        let store = self.store()?;
        let planner = PlanWriter::new(recorder.clone(), self.marketplace()?, self.policy().clone());
        let intent_id = self.block_on(create_llm_intent(
            store,
            goal,
            mode.as_str(),
            self.secrets(),
        ))?;
        let outcome = planner.plan(goal, mode);
        let plan_id = self.block_on(record_plan_outcome(
            store,
            &intent_id,
            &outcome,
            &recorder.take_exchanges(),
            archive,
            self.secrets(),
        ))?;
        Ok(ModelPlanned {
            intent_id,
            plan_id,
            outcome,
        })
    }

    /// Runs both model modes and compares mode B's IR with the canonical
    /// IR of mode A's plan; the comparison is stored in the intent's
    /// metadata (`plan_compare`).
    pub fn compare_model_modes(&self, goal: &str) -> Result<Compared, WorldError> {
        let goal = goal_text(goal)?;
        let recorder = self.require_llm()?;
        let store = self.store()?;
        let planner = PlanWriter::new(recorder.clone(), self.marketplace()?, self.policy().clone());
        let intent_id = self.block_on(create_llm_intent(store, goal, "compare", self.secrets()))?;
        let a = planner.plan(goal, Mode::Rtfs);
        let a_plan = self.block_on(record_plan_outcome(
            store,
            &intent_id,
            &a,
            &recorder.take_exchanges(),
            true,
            self.secrets(),
        ))?;
        let b = planner.plan(goal, Mode::Ir);
        let b_plan = self.block_on(record_plan_outcome(
            store,
            &intent_id,
            &b,
            &recorder.take_exchanges(),
            true,
            self.secrets(),
        ))?;
        let diff = match (&a, &b) {
            (Ok(oa), Ok(ob)) => match (&oa.ir, ob.model_ir.as_ref().or(ob.ir.as_ref())) {
                (Some(ia), Some(ib)) => Some(canon::compare(ia, ib)),
                _ => None,
            },
            _ => None,
        };
        let record = json!({
            "rtfs_plan_id": a_plan,
            "ir_plan_id": b_plan,
            "equivalent": diff.as_ref().map(PlanDiff::equivalent),
            "diff": diff,
            "a": "canonical IR of mode A's RTFS plan",
            "b": "mode B's JSON IR",
        });
        self.block_on(store.merge_intent_metadata(&intent_id, json!({"plan_compare": record})))?;
        Ok(Compared {
            intent_id,
            rtfs: a,
            ir: b,
            diff,
        })
    }

    /// Asks the model for an intent (spec 006: RTFS first, JSON
    /// fallback) and stores it; a failed generation still records its
    /// exchanges. Returns the intent and its id.
    pub fn generate_intent(&self, goal: &str) -> Result<(GeneratedIntent, String), WorldError> {
        let goal = goal_text(goal)?;
        let recorder = self.require_llm()?;
        let store = self.store()?;
        let generated = generate_intent(&*recorder, goal);
        let exchanges = recorder.take_exchanges();
        match generated {
            Ok(intent) => {
                let id = self.block_on(record_generated_intent(
                    store,
                    &intent,
                    &exchanges,
                    self.secrets(),
                ))?;
                Ok((intent, id))
            }
            Err(e) => {
                self.block_on(record_exchanges(store, None, &exchanges))?;
                Err(WorldError::failed(e))
            }
        }
    }
}

/// The requires-agent report of the deterministic planner, as text.
pub fn requires_agent_report(r: &PlanResult) -> String {
    // A person reads this: a long goal is quoted clipped, not whole.
    const QUOTED: usize = 400;
    let clip = |t: &str| ccos_core::text::clip(t, QUOTED).into_owned();
    let mut out = format!(
        "requires-agent: no capability serves part of the goal {:?}\n",
        clip(&r.goal)
    );
    if let Some(ra) = &r.requires_agent {
        for m in &ra.missing {
            out.push_str(&format!(
                "  - {} {:?}: {}\n",
                m.sub_intent,
                clip(&m.description),
                clip(&m.reason)
            ));
        }
    }
    out.push_str("(no plan was produced; an agent, an MCP server or new capabilities are needed)");
    out
}

/// The requires-agent report of a model's plans, as text.
pub fn model_requires_agent_report(o: &LlmPlanOutcome) -> String {
    let mut out = format!(
        "requires-agent: the model's plans for {:?} need capabilities that do not exist\n",
        o.goal
    );
    if let Some(ra) = &o.requires_agent {
        for m in &ra.missing {
            let s = ra.suggestions.get(m).cloned().unwrap_or_default();
            if s.is_empty() {
                out.push_str(&format!("  - {m}: not found\n"));
            } else {
                out.push_str(&format!("  - {m}: not found; closest: {}\n", s.join(", ")));
            }
        }
    }
    out.push_str(&format!(
        "(no plan was produced after {} model call(s); an agent, an MCP server or new capabilities are needed)",
        o.model_calls
    ));
    out
}

/// The decision trace as `;;` comment lines (see
/// [`ccos_planner::planner::PlanTrace::explain`]).
pub fn explain(r: &PlanResult) -> String {
    r.trace.explain()
}

/// A planning failure as the user sees it: a goal that is empty, too long
/// or states an unrepresentable value is a usage error (exit 2),
/// everything else a failure.
fn plan_error(e: ccos_planner::PlanError) -> WorldError {
    use ccos_planner::decompose::DecompositionError;
    match &e {
        ccos_planner::PlanError::Decomposition(
            DecompositionError::Literal { .. }
            | DecompositionError::EmptyGoal
            | DecompositionError::GoalTooLong { .. },
        ) => WorldError::usage(e),
        _ => WorldError::failed(e),
    }
}
