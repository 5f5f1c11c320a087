//! Planner synthesis from a conversation (spec 026, `ccos-synth`): the
//! world's side — loading the context file, trust feedback from recorded
//! outcomes, registering agents and stubs, recording the synthesis.

use std::path::Path;

use ccos_synth::agent::AgentSynthesis;
use ccos_synth::trust::{TierChange, adjust_agent_trust, load_outcomes};
use ccos_synth::{
    AgentTrigger, PlannerGenContext, PlannerSynthesis, SynthOptions, delegating_planner,
    register_agent, synthesize_agent, synthesize_planner,
};

use crate::{World, WorldError};

/// A conversation ready for synthesis.
pub struct SynthContext {
    /// The context, with live registry snapshots filled in.
    pub ctx: PlannerGenContext,
    /// Options (recorded outcomes feed the trust part of scores).
    pub opts: SynthOptions,
    /// Agent tiers changed by their recorded outcomes, before synthesis.
    pub trust_changes: Vec<TierChange>,
}

/// What `synthesize_planner` produced.
pub struct SynthesizedPlanner {
    /// The planner and its trace.
    pub synthesis: PlannerSynthesis,
    /// The agent synthesized and delegated to, when the conversation
    /// called for one.
    pub agent: Option<String>,
    /// The requires-agent stub, and whether it was registered.
    pub stub: Option<(String, bool)>,
}

impl World {
    /// Reads a context file (its `policy`, if any, is only honoured when
    /// the world was opened with it) and prepares synthesis: agent trust
    /// adjusted from recorded outcomes, live snapshots, outcome stats.
    pub fn synth_context(&self, path: &Path) -> Result<SynthContext, WorldError> {
        let ctx = PlannerGenContext::from_file(path).map_err(WorldError::failed)?;
        let mp = self.marketplace()?;
        let store = self.store()?;
        let trust_changes = self
            .block_on(adjust_agent_trust(&mp, store))
            .map_err(|e| WorldError::failed(format!("adjusting agent trust: {e}")))?;
        let ctx = ctx.with_live_snapshots(&mp);
        let mut ids: Vec<String> = ctx
            .capability_cards()
            .iter()
            .map(|c| c.id.clone())
            .collect();
        ids.extend(ctx.agent_cards().iter().map(|a| a.id.clone()));
        let outcomes = self
            .block_on(load_outcomes(store, ids))
            .map_err(|e| WorldError::failed(format!("reading outcomes: {e}")))?;
        Ok(SynthContext {
            ctx,
            opts: SynthOptions {
                outcomes,
                ..SynthOptions::default()
            },
            trust_changes,
        })
    }

    fn build_agent(
        &self,
        c: &SynthContext,
        reasons: Vec<String>,
    ) -> Result<(AgentSynthesis, PlannerSynthesis), WorldError> {
        let mp = self.marketplace()?;
        let mut agent = synthesize_agent(&c.ctx, self.policy(), &c.opts, reasons)
            .map_err(WorldError::failed)?;
        register_agent(&mp, &mut agent).map_err(WorldError::failed)?;
        let s = delegating_planner(&c.ctx, &agent, self.policy(), &c.opts);
        Ok((agent, s))
    }

    fn record_synthesis(&self, c: &SynthContext, s: &PlannerSynthesis) -> Result<(), WorldError> {
        self.block_on(ccos_synth::record_generation(self.store()?, s, &c.ctx))
            .map(|_| ())
            .map_err(|e| WorldError::failed(format!("recording planner_generation: {e}")))
    }

    /// Synthesizes a planner: an agent when the conversation calls for one
    /// (then a planner delegating to it), else the registry-first planner;
    /// `assist` asks the configured model for a proposal (kept only when it
    /// validates); the requires-agent stub is registered when
    /// `register_stub`. Recorded as `planner_generation`.
    pub fn synthesize_planner(
        &self,
        c: &SynthContext,
        assist: bool,
        register_stub: bool,
    ) -> Result<SynthesizedPlanner, WorldError> {
        let mp = self.marketplace()?;
        let reasons = AgentTrigger::default().reasons(&c.ctx);
        let mut agent = None;
        let mut s = if reasons.is_empty() {
            synthesize_planner(&c.ctx, self.policy(), &c.opts)
        } else {
            match self.build_agent(c, reasons.clone()) {
                Ok((a, s)) => {
                    agent = Some(a.card.id.clone());
                    s
                }
                Err(e) => {
                    let mut s = synthesize_planner(&c.ctx, self.policy(), &c.opts);
                    s.decision_trace.notes.push(format!(
                        "agent synthesis triggered ({}) but failed: {e}",
                        reasons.join("; ")
                    ));
                    s
                }
            }
        };
        if assist {
            let recorder = self.require_llm()?;
            s = ccos_synth::assist::assist(&c.ctx, s, &*recorder, &*mp, self.policy());
            self.block_on(ccos_planner_llm::record::record_exchanges(
                self.store()?,
                None,
                &recorder.take_exchanges(),
            ))?;
        }
        self.record_synthesis(c, &s)?;
        let mut stub = None;
        if let Some(m) = ccos_synth::stub_manifest(&s, &c.ctx) {
            if register_stub {
                mp.replace(m.clone())
                    .map_err(|e| WorldError::failed(format!("registering stub {}: {e}", m.id)))?;
            }
            stub = Some((m.id, register_stub));
        }
        Ok(SynthesizedPlanner {
            synthesis: s,
            agent,
            stub,
        })
    }

    /// Synthesizes and registers an RTFS agent from the conversation (even
    /// when the trigger rules would not), and a planner delegating to it.
    pub fn synthesize_agent(
        &self,
        c: &SynthContext,
    ) -> Result<(AgentSynthesis, PlannerSynthesis), WorldError> {
        let mut reasons = AgentTrigger::default().reasons(&c.ctx);
        if reasons.is_empty() {
            reasons.push("forced (ccos synth agent)".into());
        }
        let (agent, s) = self.build_agent(c, reasons)?;
        self.record_synthesis(c, &s)?;
        Ok((agent, s))
    }
}
