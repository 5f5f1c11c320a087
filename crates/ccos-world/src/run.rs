//! Governed execution: plans (files, stdin, planner output) and goals.
//! Every run goes through the orchestrator — parse, preflight, governance,
//! then each call decided, approved, validated, executed and recorded.

use ccos_orchestrator::{RunError, RunOptions, RunOutcome};
use ccos_planner::planner::PlanResult;
use ccos_planner_llm::modes::{LlmPlanOutcome, Mode};

use crate::{World, WorldError};

/// What running a goal came to.
pub enum GoalRun {
    /// The deterministic planner found nothing to serve (part of) the goal.
    RequiresAgent {
        /// The planner's result (trace and report).
        planned: Box<PlanResult>,
        /// The goal's root intent.
        intent_id: String,
    },
    /// The model kept naming capabilities that do not exist.
    ModelRequiresAgent {
        /// The model's outcome.
        outcome: Box<LlmPlanOutcome>,
        /// The goal's root intent.
        intent_id: String,
    },
    /// A plan was made and run.
    Ran {
        /// The plan that ran.
        rtfs: String,
        /// The goal's root intent.
        intent_id: String,
        /// How the plan was made (`pattern`, `clause`, `llm-rtfs`...).
        generation_mode: String,
        /// Notices a person should see.
        warnings: Vec<String>,
        /// How the run ended.
        outcome: Box<Result<RunOutcome, RunError>>,
    },
}

impl World {
    /// Runs plan source under the world's orchestrator.
    pub fn run_plan(&self, src: &str, options: RunOptions) -> Result<RunOutcome, RunError> {
        let orch = match self.orchestrator() {
            Ok(o) => o,
            Err(e) => return Err(RunError::Internal(e.to_string())),
        };
        self.block_on(orch.run(src, options))
    }

    /// Plans `goal` (the deterministic planner, or the model in `mode`),
    /// records the plan under the goal's intent and runs it.
    pub fn run_goal(&self, goal: &str, mode: Option<Mode>) -> Result<GoalRun, WorldError> {
        self.run_goal_with(goal, mode, RunOptions::default())
    }

    /// [`World::run_goal`] with the run's options (origin, approver,
    /// interrupt); the source name, intent and generation mode are the
    /// goal's.
    pub fn run_goal_with(
        &self,
        goal: &str,
        mode: Option<Mode>,
        options: RunOptions,
    ) -> Result<GoalRun, WorldError> {
        let (rtfs, intent_id, generation_mode, warnings) = match mode {
            None => {
                let planned = self.plan_goal_recorded(goal, false)?;
                let Some(rtfs) = planned.result.rtfs.clone() else {
                    return Ok(GoalRun::RequiresAgent {
                        intent_id: planned.recorded.intent_id,
                        planned: Box::new(planned.result),
                    });
                };
                (
                    rtfs,
                    planned.recorded.intent_id,
                    planned.result.generation_mode().to_string(),
                    planned.warnings,
                )
            }
            Some(mode) => {
                let planned = self.plan_with_model(goal, mode, false)?;
                let o = planned.outcome.map_err(|e| WorldError::failed(e.message))?;
                let Some(rtfs) = o.rtfs.clone() else {
                    return Ok(GoalRun::ModelRequiresAgent {
                        outcome: Box::new(o),
                        intent_id: planned.intent_id,
                    });
                };
                (
                    rtfs,
                    planned.intent_id,
                    o.generation_mode().to_string(),
                    vec![],
                )
            }
        };
        let outcome = self.run_plan(
            &rtfs,
            RunOptions {
                source_name: "<goal>".into(),
                intent_id: Some(intent_id.clone()),
                generation_mode: generation_mode.clone(),
                ..options
            },
        );
        Ok(GoalRun::Ran {
            rtfs,
            intent_id,
            generation_mode,
            warnings,
            outcome: Box::new(outcome),
        })
    }
}
