//! Agent synthesis (spec 026 v0.4): when a conversation is complex, build a
//! multi-step RTFS plan from its skills and history, register it as an RTFS
//! agent (an [`AgentCard`] with the plan, and a capability with
//! `ProviderSpec::Rtfs` so it can be called), and make the planner delegate
//! to it.
//!
//! Trigger ([`AgentTrigger`], configurable): more than 3 turns, more than 2
//! refinements, or sequencing words ("then", "after", ...) in the goal or
//! the conversation.
//!
//! The plan: one `step` per capability the skills name, in order; each
//! step's inputs come from the `context` map (adapters as for planners),
//! and a required input the context cannot fill takes the previous step's
//! result. Without skill capabilities, the agent wraps the capability the
//! deterministic synthesis selects. Every step's capability must be allowed
//! by the policy; its calls are governed again when the agent runs.

use std::collections::BTreeSet;

use ccos_governance::Policy;
use ccos_marketplace::{
    AgentCard, CapabilityManifest, Marketplace, MarketplaceError, ProviderSpec, TrustTier,
};
use rtfs::Value;
use serde::{Deserialize, Serialize};

use crate::adapt::{available, match_inputs};
use crate::context::{CapabilityCard, PlannerGenContext};
use crate::synth::{
    PlannerSynthesis, SynthOptions, domain, hints, param_schema_json, synthesize_planner,
};

/// When to synthesize an agent rather than a planner alone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AgentTrigger {
    /// More turns than this trigger (default 3).
    pub max_turns: usize,
    /// More refinements than this trigger (default 2).
    pub max_refinements: usize,
    /// Sequencing words (whole words, case-insensitive).
    pub keywords: Vec<String>,
}

impl Default for AgentTrigger {
    fn default() -> Self {
        AgentTrigger {
            max_turns: 3,
            max_refinements: 2,
            keywords: ["then", "after", "afterwards", "next", "finally", "before"]
                .map(String::from)
                .to_vec(),
        }
    }
}

impl AgentTrigger {
    /// Why the context calls for an agent (empty: it does not).
    pub fn reasons(&self, ctx: &PlannerGenContext) -> Vec<String> {
        let mut out = vec![];
        if ctx.history.len() > self.max_turns {
            out.push(format!(
                "{} turns (more than {})",
                ctx.history.len(),
                self.max_turns
            ));
        }
        let refinements = ctx.history.iter().filter(|t| t.refinement).count();
        if refinements > self.max_refinements {
            out.push(format!(
                "{refinements} refinements (more than {})",
                self.max_refinements
            ));
        }
        let mut texts = vec![ctx.goal.as_str()];
        for t in &ctx.history {
            texts.push(&t.question);
            texts.push(&t.answer);
        }
        let words: BTreeSet<String> = texts
            .iter()
            .flat_map(|t| {
                t.split(|c: char| !c.is_alphanumeric())
                    .map(str::to_lowercase)
                    .collect::<Vec<_>>()
            })
            .collect();
        let found: Vec<&str> = self
            .keywords
            .iter()
            .filter(|k| words.contains(&k.to_lowercase()))
            .map(String::as_str)
            .collect();
        if !found.is_empty() {
            out.push(format!("sequencing words: {}", found.join(", ")));
        }
        out
    }
}

/// Why an agent could not be synthesized.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AgentError {
    /// No step could be built.
    #[error("cannot synthesize an agent: {0}")]
    NoSteps(String),
    /// Registering it failed.
    #[error("registering the agent: {0}")]
    Register(String),
}

impl From<MarketplaceError> for AgentError {
    fn from(e: MarketplaceError) -> Self {
        AgentError::Register(e.to_string())
    }
}

/// A synthesized agent.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AgentSynthesis {
    /// Its card (with the plan).
    pub card: AgentCard,
    /// The capability that runs it (`ProviderSpec::Rtfs`).
    pub manifest: CapabilityManifest,
    /// The capabilities its steps call, in order.
    pub steps: Vec<String>,
    /// Why it was synthesized (trigger reasons, or "forced").
    pub reasons: Vec<String>,
}

fn sym(s: &str) -> Value {
    Value::Symbol(s.into())
}

/// Builds the agent for `ctx` (does not register it).
pub fn synthesize_agent(
    ctx: &PlannerGenContext,
    policy: &Policy,
    opts: &SynthOptions,
    reasons: Vec<String>,
) -> Result<AgentSynthesis, AgentError> {
    let avail = available(ctx);
    let hints = hints(ctx);
    let cards = ctx.capability_cards();
    let allowed = |c: &&CapabilityCard| {
        !policy
            .decide_call(&CapabilityManifest::from_card(c))
            .is_denied()
    };
    let mut chosen: Vec<&CapabilityCard> = vec![];
    let mut refused = vec![];
    for skill in &ctx.skills {
        for id in &skill.capabilities {
            match cards.iter().find(|c| &c.id == id) {
                Some(c) if allowed(&c) => chosen.push(c),
                Some(_) => refused.push(format!("{id} (denied by policy)")),
                None => refused.push(format!("{id} (not in the marketplace)")),
            }
        }
    }
    if !refused.is_empty() {
        return Err(AgentError::NoSteps(format!(
            "skill capabilities unusable: {}",
            refused.join(", ")
        )));
    }
    if chosen.is_empty() {
        let base = synthesize_planner(ctx, policy, opts);
        let picked = base
            .decision_trace
            .selected
            .as_ref()
            .filter(|s| s.kind == "capability")
            .and_then(|s| cards.iter().find(|c| c.id == s.id));
        match picked {
            Some(c) => chosen.push(c),
            None => {
                return Err(AgentError::NoSteps(
                    "no skill names capabilities and no allowed capability fits the context".into(),
                ));
            }
        }
    }

    let mut bindings = vec![];
    let mut prev: Option<String> = None;
    for (i, card) in chosen.iter().enumerate() {
        let m = match_inputs(&card.inputs, &avail, &hints);
        let mut args: Vec<(String, Value)> = m
            .filled
            .iter()
            .map(|(s, e, _)| (s.to.clone(), e.clone()))
            .collect();
        let mut missing = m.missing.clone();
        if let (Some(p), Some(first)) = (&prev, missing.first().cloned()) {
            // The previous step's result feeds the first unfilled input.
            args.push((first, sym(p)));
            missing.remove(0);
        }
        if !missing.is_empty() {
            return Err(AgentError::NoSteps(format!(
                "step {} ({}) lacks required input(s) {}",
                i + 1,
                card.id,
                missing.join(", ")
            )));
        }
        // Keep the card's input order (positional arguments rely on it).
        args.sort_by_key(|(k, _)| card.inputs.iter().position(|x| &x.key == k));
        let mut call = vec![sym("call"), Value::keyword(&card.id)];
        if card.positional {
            call.extend(args.into_iter().map(|(_, e)| e));
        } else {
            call.push(Value::map(
                args.into_iter().map(|(k, e)| (Value::keyword(&k), e)),
            ));
        }
        let name = format!("s{}", i + 1);
        bindings.push(sym(&name));
        bindings.push(Value::list(vec![
            sym("step"),
            Value::string(&format!("{} ({})", card.id, i + 1)),
            Value::list(call),
        ]));
        prev = Some(name);
    }
    let last = prev.unwrap_or_else(|| "nil".into());
    let body = Value::list(vec![
        sym("do"),
        Value::list(vec![sym("let"), Value::vector(bindings), sym(&last)]),
    ]);
    let plan = format!(
        ";; synthesized agent (spec 026): {}\n{}\n",
        if ctx.goal.is_empty() {
            "multi-step plan"
        } else {
            ctx.goal.as_str()
        },
        rtfs::pretty(&body, crate::template::WIDTH)
    );
    let id = format!("synth.{}.agent", domain(ctx));
    let steps: Vec<String> = chosen.iter().map(|c| c.id.clone()).collect();
    let effects: BTreeSet<_> = chosen
        .iter()
        .flat_map(|c| {
            if c.effects.is_empty() {
                BTreeSet::from([ccos_marketplace::Effect::Write])
            } else {
                c.effects.clone()
            }
        })
        .collect();
    let description = format!(
        "Synthesized agent: {} (steps: {})",
        if ctx.goal.is_empty() { &id } else { &ctx.goal },
        steps.join(" → ")
    );
    let card = AgentCard {
        id: id.clone(),
        description: description.clone(),
        skills: ctx.skills.iter().map(|s| s.name.clone()).collect(),
        context_keys: ctx.schema.iter().map(|p| p.key.clone()).collect(),
        trust_tier: TrustTier::Community,
        plan: Some(plan.clone()),
    };
    let manifest = CapabilityManifest {
        provider: ProviderSpec::Rtfs { body: plan },
        trust_tier: TrustTier::Community,
        local: chosen.iter().all(|c| c.local),
        effects,
        ..CapabilityManifest::new(id, description, param_schema_json(&ctx.schema))
    };
    Ok(AgentSynthesis {
        card,
        manifest,
        steps,
        reasons,
    })
}

/// Registers the agent: its capability (replacing an older version) and its
/// card. A trust tier already earned by an earlier version is kept.
pub fn register_agent(mp: &Marketplace, agent: &mut AgentSynthesis) -> Result<(), AgentError> {
    if let Some(old) = mp.get_agent(&agent.card.id) {
        agent.card.trust_tier = old.trust_tier;
        agent.manifest.trust_tier = old.trust_tier;
    }
    mp.replace(agent.manifest.clone())?;
    mp.register_agent(agent.card.clone())?;
    Ok(())
}

/// The planner delegating to `agent`: synthesis over a snapshot holding
/// only the agent (still filtered by the policy: a denied agent gives the
/// requires-agent planner).
pub fn delegating_planner(
    ctx: &PlannerGenContext,
    agent: &AgentSynthesis,
    policy: &Policy,
    opts: &SynthOptions,
) -> PlannerSynthesis {
    let mut only = ctx.clone();
    only.capabilities = Some(vec![agent.manifest.card()]);
    only.agents = Some(vec![agent.card.clone()]);
    let mut s = synthesize_planner(&only, policy, opts);
    s.decision_trace.notes.push(format!(
        "agent synthesis: {} ({})",
        agent.card.id,
        agent.reasons.join("; ")
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx(json: &str) -> PlannerGenContext {
        PlannerGenContext::from_json_str(json, "t").unwrap()
    }

    #[test]
    fn trigger_rules() {
        let t = AgentTrigger::default();
        let turn = |q: &str, refinement: bool| serde_json::json!({"question": q, "answer": "ok", "refinement": refinement});
        let mk =
            |turns: Vec<serde_json::Value>| ctx(&serde_json::json!({"history": turns}).to_string());
        assert!(t.reasons(&mk(vec![turn("a", false); 3])).is_empty());
        assert_eq!(
            t.reasons(&mk(vec![turn("a", false); 4])),
            vec!["4 turns (more than 3)"]
        );
        let refined = mk(vec![turn("a", true), turn("b", true), turn("c", true)]);
        assert_eq!(t.reasons(&refined), vec!["3 refinements (more than 2)"]);
        let seq = mk(vec![turn("Fetch it, then summarise", false)]);
        assert_eq!(t.reasons(&seq), vec!["sequencing words: then"]);
        // Whole words only: "Athens" holds no "then".
        assert!(
            t.reasons(&mk(vec![turn("Athens weather", false)]))
                .is_empty()
        );
        let strict = AgentTrigger {
            max_turns: 0,
            ..AgentTrigger::default()
        };
        assert_eq!(strict.reasons(&mk(vec![turn("a", false)])).len(), 1);
    }
}
