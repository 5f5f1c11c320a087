//! [`synthesize_planner`]: registry-first planner synthesis.
//!
//! 1. **Security first**: every capability card is decided with the
//!    policy's `decide_call`, every agent with `decide_agent` (and
//!    `decide_call` when it is callable as a capability); denied ones are
//!    listed in the trace (`filtered`) with the rule's reasons and are never
//!    scored, so they can never be selected.
//! 2. Each remaining candidate's inputs are matched against the context
//!    ([`crate::adapt`]) and scored ([`crate::score`]).
//! 3. The best viable candidate at or above `min_score` is selected: the
//!    direct template when nothing needs adapting, else adapter + call;
//!    with none, the requires-agent template names a stub and the missing
//!    keys.
//!
//! Pure and deterministic: no clock, no I/O; the same inputs give
//! byte-identical RTFS and trace.

use std::collections::{BTreeMap, BTreeSet};

use ccos_governance::{CallDecision, Policy};
use ccos_marketplace::{CapabilityManifest, Effect, ProviderSpec, TrustTier};
use serde::Serialize;
use serde_json::{Value as Json, json};

use crate::adapt::{AdapterStep, Available, available, match_inputs};
use crate::context::{CapabilityCard, CardInput, ParamSpec, ParamType, PlannerGenContext};
use crate::score::{
    CandidateScore, OutcomeStats, Parts, Weights, coverage_and_compat, rank, round4, trust_bias,
};
use crate::template::{self, CallSpec, Template};

/// Options of [`synthesize_planner`].
#[derive(Debug, Clone, PartialEq)]
pub struct SynthOptions {
    /// Score weights (default 0.45 / 0.35 / 0.20).
    pub weights: Weights,
    /// The lowest total a candidate may be selected with (default 0.5).
    pub min_score: f64,
    /// Recorded outcomes per subject id (successes, failures), feeding the
    /// trust part (see `ccos_store::Store::outcome_stats`).
    pub outcomes: OutcomeStats,
}

impl Default for SynthOptions {
    fn default() -> Self {
        SynthOptions {
            weights: Weights::default(),
            min_score: 0.5,
            outcomes: OutcomeStats::new(),
        }
    }
}

/// A candidate the policy removed before scoring.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FilteredCandidate {
    /// Capability or agent id.
    pub id: String,
    /// `capability` or `agent`.
    pub kind: String,
    /// The policy's reasons.
    pub reasons: Vec<String>,
}

/// Why no candidate was selected (spec 026's `FallbackInfo`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FallbackInfo {
    /// The stub capability an agent should provide.
    pub stub_id: String,
    /// Required keys of the conversation that have no value (the
    /// candidates' own missing inputs are named in `reason`).
    pub missing_required: Vec<String>,
    /// Why, in words.
    pub reason: String,
}

/// Provided versus required parameters of the conversation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ParamCoverage {
    /// Required schema keys.
    pub required: Vec<String>,
    /// Keys the conversation gave a value for.
    pub provided: Vec<String>,
    /// Keys filled by schema defaults.
    pub defaulted: Vec<String>,
    /// Required keys neither provided nor defaulted.
    pub missing: Vec<String>,
    /// provided-or-defaulted required keys / required keys (1.0 when none is required).
    pub ratio: f64,
}

/// The explainable record of a synthesis (spec 026's `PlannerDecisionTrace`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlannerDecisionTrace {
    /// The template emitted.
    pub template: Template,
    /// `deterministic`, or `llm` when an LLM proposal passed validation.
    pub source: String,
    /// The weights used.
    pub weights: Weights,
    /// Scored candidates, best first.
    pub candidates: Vec<CandidateScore>,
    /// Candidates the policy removed, with reasons.
    pub filtered: Vec<FilteredCandidate>,
    /// The selected candidate.
    pub selected: Option<CandidateScore>,
    /// Adapters of the selected candidate.
    pub adapters: Vec<AdapterStep>,
    /// Fallback, when nothing was selected.
    pub fallback: Option<FallbackInfo>,
    /// Provided versus required parameters.
    pub coverage: ParamCoverage,
    /// Other remarks (LLM validation failures, agent delegation...).
    pub notes: Vec<String>,
}

/// A synthesized planner (spec 026's `PlannerSynthesis`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlannerSynthesis {
    /// The RTFS planner; it reads its inputs from a `context` map.
    pub rtfs: String,
    /// Capabilities it calls (or, for requires-agent, the stub it needs).
    pub required_capabilities: Vec<String>,
    /// Why.
    pub decision_trace: PlannerDecisionTrace,
}

impl PlannerSynthesis {
    /// True when the planner is the requires-agent fallback.
    pub fn requires_agent(&self) -> bool {
        self.decision_trace.template == Template::RequiresAgent
    }
}

/// The skills' rename hints merged (first skill wins per key order).
pub(crate) fn hints(ctx: &PlannerGenContext) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for s in &ctx.skills {
        for (k, v) in &s.key_hints {
            let e = out.entry(k.clone()).or_default();
            for t in v {
                if !e.contains(t) {
                    e.push(t.clone());
                }
            }
        }
    }
    out
}

/// A lower-case id segment from free text.
pub(crate) fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-')
        .chars()
        .take(40)
        .collect::<String>()
}

/// The domain of a context (first skill, else first goal word, else `generic`).
pub fn domain(ctx: &PlannerGenContext) -> String {
    ctx.skills
        .first()
        .map(|s| slug(&s.name))
        .filter(|s| !s.is_empty())
        .or_else(|| ctx.goal.split_whitespace().map(slug).find(|w| w.len() > 2))
        .unwrap_or_else(|| "generic".into())
}

/// The stub id of a context: `synth.<domain>.agent.stub`.
pub fn stub_id(ctx: &PlannerGenContext) -> String {
    format!("synth.{}.agent.stub", domain(ctx))
}

fn param_coverage(ctx: &PlannerGenContext, avail: &[Available]) -> ParamCoverage {
    let required: Vec<String> = ctx
        .schema
        .iter()
        .filter(|p| p.required)
        .map(|p| p.key.clone())
        .collect();
    let provided: Vec<String> = avail
        .iter()
        .filter(|a| a.value.is_some())
        .map(|a| a.key.clone())
        .collect();
    let defaulted: Vec<String> = avail
        .iter()
        .filter(|a| a.value.is_none() && a.default.is_some())
        .map(|a| a.key.clone())
        .collect();
    let missing: Vec<String> = required
        .iter()
        .filter(|k| !provided.contains(k) && !defaulted.contains(k))
        .cloned()
        .collect();
    let ratio = if required.is_empty() {
        1.0
    } else {
        round4((required.len() - missing.len()) as f64 / required.len() as f64)
    };
    ParamCoverage {
        required,
        provided,
        defaulted,
        missing,
        ratio,
    }
}

struct Scored {
    score: CandidateScore,
    spec: CallSpec,
    check: Vec<String>,
    identity: bool,
}

#[allow(clippy::too_many_arguments)]
fn score_one(
    id: &str,
    kind: &str,
    inputs: &[CardInput],
    positional: bool,
    tier: TrustTier,
    local: bool,
    skills: Option<&[String]>,
    ctx: &PlannerGenContext,
    avail: &[Available],
    hints: &BTreeMap<String, Vec<String>>,
    opts: &SynthOptions,
    approval: &[String],
) -> Scored {
    let m = match_inputs(inputs, avail, hints);
    let sources: BTreeSet<&str> = m.filled.iter().map(|(s, _, _)| s.from.as_str()).collect();
    let schema_req: Vec<&Available> = avail.iter().filter(|a| a.required).collect();
    let schema_cov = schema_req
        .iter()
        .filter(|a| sources.contains(a.key.as_str()))
        .count();
    let cand_req = inputs.iter().filter(|i| i.required).count();
    let cand_cov = cand_req - m.missing.len().min(cand_req);
    let mut covered = schema_cov + cand_cov;
    let mut of = schema_req.len() + cand_req;
    let mut detail = format!(
        "schema {schema_cov}/{}, inputs {cand_cov}/{cand_req}",
        schema_req.len()
    );
    if let Some(agent_skills) = skills {
        let wanted: Vec<&str> = ctx.skills.iter().map(|s| s.name.as_str()).collect();
        let hit = wanted
            .iter()
            .filter(|w| agent_skills.iter().any(|s| s == *w))
            .count();
        covered += hit;
        of += wanted.len();
        detail.push_str(&format!(", skills {hit}/{}", wanted.len()));
    }
    let parts = Parts {
        covered,
        of,
        detail,
        compat: m.filled.iter().map(|(_, _, c)| *c).collect(),
    };
    let (coverage, compatibility) = coverage_and_compat(&parts);
    let w = &opts.weights;
    let (trust, trust_explain) = trust_bias(
        tier,
        local,
        opts.outcomes.get(id).copied(),
        &ctx.preferences,
        w.trust,
    );
    let total = round4(w.coverage * coverage + w.compatibility * compatibility + w.trust * trust);
    let viable = m.missing.is_empty() && !m.filled.is_empty();
    let mut explain = vec![
        format!(
            "coverage {:.4} = {covered}/{of} required keys ({})",
            round4(w.coverage * coverage),
            parts.detail
        ),
        if m.filled.is_empty() {
            "compatibility 0.0000 = no input filled from the context".to_string()
        } else {
            format!(
                "compatibility {:.4} = mean of {} input(s): {}",
                round4(w.compatibility * compatibility),
                m.filled.len(),
                m.filled
                    .iter()
                    .map(|(s, _, c)| format!("{}→{} {:.2}", s.from, s.to, c))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        },
        trust_explain,
    ];
    explain.extend(m.notes.iter().cloned());
    if !m.missing.is_empty() {
        explain.push(format!(
            "missing required input(s): {}",
            m.missing.join(", ")
        ));
    }
    for r in approval {
        explain.push(format!("needs approval at run time: {r}"));
    }
    let check: Vec<String> = m
        .filled
        .iter()
        .filter(|(s, _, _)| {
            inputs.iter().any(|i| i.key == s.to && i.required) && !s.default_used && {
                avail.iter().any(|a| a.key == s.from && a.default.is_none())
            }
        })
        .map(|(s, _, _)| s.from.clone())
        .collect();
    let all_collected = m
        .filled
        .iter()
        .all(|(s, _, _)| avail.iter().any(|a| a.key == s.from && a.value.is_some()));
    Scored {
        identity: m.is_identity() && all_collected,
        spec: CallSpec {
            id: id.to_string(),
            positional,
            args: m
                .filled
                .iter()
                .map(|(s, e, _)| (s.to.clone(), e.clone()))
                .collect(),
        },
        check,
        score: CandidateScore {
            id: id.to_string(),
            kind: kind.to_string(),
            coverage,
            compatibility,
            trust_bias: trust,
            total,
            viable,
            missing: m.missing.clone(),
            adapters: m.steps(),
            explain,
        },
    }
}

/// Synthesizes a planner for `ctx` under `policy` (see the module docs).
pub fn synthesize_planner(
    ctx: &PlannerGenContext,
    policy: &Policy,
    opts: &SynthOptions,
) -> PlannerSynthesis {
    let avail = available(ctx);
    let hints = hints(ctx);
    let coverage = param_coverage(ctx, &avail);
    let mut filtered = vec![];
    let mut scored: Vec<Scored> = vec![];

    let mut caps: Vec<&CapabilityCard> = ctx.capability_cards().iter().collect();
    caps.sort_by(|a, b| a.id.cmp(&b.id));
    caps.dedup_by(|a, b| a.id == b.id);
    let cap_by_id: BTreeMap<&str, &CapabilityCard> =
        caps.iter().map(|c| (c.id.as_str(), *c)).collect();
    let mut agents: Vec<&ccos_marketplace::AgentCard> = ctx.agent_cards().iter().collect();
    agents.sort_by(|a, b| a.id.cmp(&b.id));
    agents.dedup_by(|a, b| a.id == b.id);
    let agent_ids: BTreeSet<&str> = agents.iter().map(|a| a.id.as_str()).collect();

    for card in caps.iter().filter(|c| !agent_ids.contains(c.id.as_str())) {
        let decision = policy.decide_call(&CapabilityManifest::from_card(card));
        if let CallDecision::Deny { reasons } = &decision {
            filtered.push(FilteredCandidate {
                id: card.id.clone(),
                kind: "capability".into(),
                reasons: reasons.clone(),
            });
            continue;
        }
        scored.push(score_one(
            &card.id,
            "capability",
            &card.inputs,
            card.positional,
            card.trust_tier,
            card.local,
            None,
            ctx,
            &avail,
            &hints,
            opts,
            decision.reasons(),
        ));
    }
    for agent in &agents {
        let mut decision = policy.decide_agent(&agent.id, agent.trust_tier);
        let card = cap_by_id.get(agent.id.as_str());
        if !decision.is_denied() {
            decision = match card {
                Some(c) => policy.decide_call(&CapabilityManifest::from_card(c)),
                None => CallDecision::Deny {
                    reasons: vec!["not callable: no capability provides the agent".into()],
                },
            };
        }
        if let CallDecision::Deny { reasons } = &decision {
            filtered.push(FilteredCandidate {
                id: agent.id.clone(),
                kind: "agent".into(),
                reasons: reasons.clone(),
            });
            continue;
        }
        let Some(card) = card else { continue };
        scored.push(score_one(
            &agent.id,
            "agent",
            &card.inputs,
            card.positional,
            agent.trust_tier,
            card.local,
            Some(&agent.skills),
            ctx,
            &avail,
            &hints,
            opts,
            decision.reasons(),
        ));
    }

    let mut scores: Vec<CandidateScore> = scored.iter().map(|s| s.score.clone()).collect();
    rank(&mut scores, &ctx.preferences);
    let best = scores
        .first()
        .filter(|s| s.viable && s.total >= opts.min_score)
        .cloned();
    let chosen = best.as_ref().and_then(|b| {
        scored
            .iter()
            .find(|s| s.score.id == b.id && s.score.kind == b.kind)
    });

    let mut notes = vec![];
    let (rtfs, template, required, fallback, adapters) = match chosen {
        Some(c) => {
            let what = if c.score.kind == "agent" {
                format!("agent {}", c.score.id)
            } else {
                c.score.id.clone()
            };
            let expects: Vec<String> = c.spec.args.iter().map(|(k, _)| format!(":{k}")).collect();
            let from: Vec<String> = c
                .score
                .adapters
                .iter()
                .map(|s| format!(":{}", s.from))
                .collect();
            if c.score.kind == "agent" {
                notes.push(format!("delegates to agent {}", c.score.id));
            }
            let (text, template) = if c.identity {
                (
                    template::emit_direct(
                        &c.spec,
                        &[
                            format!("synthesized planner (spec 026): direct call to {what}"),
                            format!("expects context keys: {}", from.join(" ")),
                        ],
                    ),
                    Template::Direct,
                )
            } else {
                (
                    template::emit_adapter(
                        &c.spec,
                        &c.check,
                        &[
                            format!("synthesized planner (spec 026): adapter + call to {what}"),
                            format!(
                                "expects context keys: {} (adapted to {})",
                                from.join(" "),
                                expects.join(" ")
                            ),
                        ],
                    ),
                    Template::Adapter,
                )
            };
            (
                text,
                template,
                vec![c.score.id.clone()],
                None,
                c.score.adapters.clone(),
            )
        }
        None => {
            let stub = stub_id(ctx);
            let missing: Vec<String> = coverage.missing.clone();
            let reason = match scores.first() {
                None if filtered.is_empty() => {
                    "no capability or agent in the registry snapshot".to_string()
                }
                None => format!(
                    "every candidate is denied by the policy ({})",
                    filtered
                        .iter()
                        .map(|f| f.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                Some(b) => {
                    if b.adapters.is_empty() {
                        format!(
                            "none of {} allowed candidate(s) takes any of the context keys {}",
                            scores.len(),
                            avail
                                .iter()
                                .map(|a| format!(":{}", a.key))
                                .collect::<Vec<_>>()
                                .join(" ")
                        )
                    } else if !b.viable {
                        format!(
                            "best candidate {} ({:.4}) lacks required input(s) {}",
                            b.id,
                            b.total,
                            b.missing.join(", ")
                        )
                    } else {
                        format!(
                            "best candidate {} scores {:.4}, below the minimum {:.4}",
                            b.id, b.total, opts.min_score
                        )
                    }
                }
            };
            let reason = if filtered.is_empty() || scores.is_empty() {
                reason
            } else {
                format!(
                    "{reason}; {} candidate(s) filtered by policy",
                    filtered.len()
                )
            };
            let text = template::emit_requires_agent(
                &stub,
                &missing,
                &[
                    "synthesized planner (spec 026): requires-agent".to_string(),
                    reason.clone(),
                ],
            );
            (
                text,
                Template::RequiresAgent,
                vec![stub.clone()],
                Some(FallbackInfo {
                    stub_id: stub,
                    missing_required: missing,
                    reason,
                }),
                vec![],
            )
        }
    };
    PlannerSynthesis {
        rtfs,
        required_capabilities: required,
        decision_trace: PlannerDecisionTrace {
            template,
            source: "deterministic".into(),
            weights: opts.weights,
            candidates: scores,
            filtered,
            selected: best,
            adapters,
            fallback,
            coverage,
            notes,
        },
    }
}

/// JSON Schema of a parameter schema (an `object`; used for stubs and
/// synthesized agents).
pub fn param_schema_json(schema: &[ParamSpec]) -> Json {
    let mut props = serde_json::Map::new();
    let mut required = vec![];
    for p in schema {
        let s = match p.ty {
            ParamType::String => json!({"type": "string"}),
            ParamType::Int => json!({"type": "integer"}),
            ParamType::Float => json!({"type": "number"}),
            ParamType::Bool => json!({"type": "boolean"}),
            ParamType::Date => json!({"type": "string", "format": "date"}),
            ParamType::Datetime => json!({"type": "string", "format": "date-time"}),
            ParamType::List => json!({"type": "array"}),
            ParamType::Map => json!({"type": "object"}),
            ParamType::Any => json!({}),
        };
        props.insert(p.key.clone(), s);
        if p.required {
            required.push(Json::from(p.key.clone()));
        }
    }
    json!({"type": "object", "properties": props, "required": required})
}

/// The stub capability of a requires-agent synthesis (registered only on
/// request): an untrusted, pure RTFS capability answering
/// `{:status "requires-agent" ...}` with the missing needs. `None` when the
/// synthesis selected a candidate.
pub fn stub_manifest(s: &PlannerSynthesis, ctx: &PlannerGenContext) -> Option<CapabilityManifest> {
    let fb = s.decision_trace.fallback.as_ref()?;
    let body = rtfs::print_value(&template::requires_agent_body(
        &fb.stub_id,
        &fb.missing_required,
    ));
    Some(CapabilityManifest {
        provider: ProviderSpec::Rtfs { body },
        trust_tier: TrustTier::Untrusted,
        local: true,
        effects: BTreeSet::from([Effect::Pure]),
        ..CapabilityManifest::new(
            fb.stub_id.clone(),
            format!(
                "requires-agent stub for {:?}: needs {} ({})",
                ctx.goal,
                if fb.missing_required.is_empty() {
                    "an agent".to_string()
                } else {
                    fb.missing_required.join(", ")
                },
                fb.reason
            ),
            param_schema_json(&ctx.schema),
        )
    })
}

/// The `planner_generation` causal-chain entry of a synthesis: candidates
/// with each score part, filtered ones, selection, adapters, fallback, and
/// provided versus required coverage.
pub fn planner_generation_entry(
    s: &PlannerSynthesis,
    ctx: &PlannerGenContext,
) -> ccos_core::audit::NewEntry {
    use ccos_core::audit::payload as audit;
    let t = &s.decision_trace;
    let adapter = |a: &crate::adapt::AdapterStep| audit::KeyAdapter {
        from: a.from.clone(),
        to: a.to.clone(),
        rename: a.rename.clone(),
        coercion: a.coercion.clone(),
        default_used: a.default_used,
    };
    let record = audit::PlannerGeneration {
        goal: ctx.goal.clone(),
        template: t.template.as_str().to_string(),
        source: t.source.clone(),
        weights: [
            ("coverage".to_string(), t.weights.coverage),
            ("compatibility".to_string(), t.weights.compatibility),
            ("trust".to_string(), t.weights.trust),
        ]
        .into(),
        candidates: t
            .candidates
            .iter()
            .map(|c| audit::SynthCandidate {
                id: c.id.clone(),
                kind: c.kind.clone(),
                coverage: c.coverage,
                compatibility: c.compatibility,
                trust_bias: c.trust_bias,
                relevance: None,
                total: c.total,
                viable: c.viable,
                missing: c.missing.clone(),
            })
            .collect(),
        filtered: t
            .filtered
            .iter()
            .map(|f| audit::FilteredCandidate {
                capability: f.id.clone(),
                kind: Some(f.kind.clone()),
                reasons: f.reasons.clone(),
            })
            .collect(),
        selected: t.selected.as_ref().map(|c| c.id.clone()),
        adapters: t.adapters.iter().map(adapter).collect(),
        fallback: t.fallback.as_ref().map(|f| audit::SynthFallback {
            stub_id: f.stub_id.clone(),
            missing_required: f.missing_required.clone(),
            reason: f.reason.clone(),
        }),
        coverage: audit::ParamCoverage {
            required: t.coverage.required.clone(),
            provided: t.coverage.provided.clone(),
            defaulted: t.coverage.defaulted.clone(),
            missing: t.coverage.missing.clone(),
            ratio: t.coverage.ratio,
        },
        required_capabilities: s.required_capabilities.clone(),
        notes: t.notes.clone(),
    };
    ccos_core::audit::NewEntry::of(&record)
}

/// Appends the `planner_generation` entry to the causal chain.
pub async fn record_generation(
    store: &ccos_store::Store,
    s: &PlannerSynthesis,
    ctx: &PlannerGenContext,
) -> Result<ccos_store::ChainEntry, ccos_store::StoreError> {
    store.append(planner_generation_entry(s, ctx)).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::PlannerPreferences;

    fn ctx(extra_caps: &str, prefs: &str) -> PlannerGenContext {
        PlannerGenContext::from_json_str(
            &format!(
                r#"{{"schema": [{{"key": "city", "type": "string", "required": true}},
                               {{"key": "days", "type": "string", "required": true}}],
                    "history": [{{"question": "q", "answer": "a", "params": {{"city": "Oslo", "days": "3"}}}}],
                    "capabilities": [
                      {{"id": "a.exact", "trust_tier": "community", "local": false, "effects": ["pure"],
                        "inputs": [{{"key": "city", "type": "string", "required": true}},
                                   {{"key": "days", "type": "int", "required": true}}]}},
                      {{"id": "b.partial", "trust_tier": "system", "local": true, "effects": ["pure"],
                        "inputs": [{{"key": "city", "type": "string", "required": true}}]}},
                      {{"id": "c.needs-more", "trust_tier": "system", "local": true, "effects": ["pure"],
                        "inputs": [{{"key": "city", "type": "string", "required": true}},
                                   {{"key": "country", "type": "string", "required": true}}]}}
                      {extra_caps}],
                    "agents": [],
                    "preferences": {prefs}}}"#
            ),
            "t",
        )
        .unwrap()
    }

    #[test]
    fn fixed_inputs_give_fixed_scores_and_ranking() {
        let c = ctx("", "{}");
        let s = synthesize_planner(&c, &Policy::default(), &SynthOptions::default());
        let t = &s.decision_trace;
        let got: Vec<(&str, f64, f64, f64, f64, bool)> = t
            .candidates
            .iter()
            .map(|c| {
                (
                    c.id.as_str(),
                    c.coverage,
                    c.compatibility,
                    c.trust_bias,
                    c.total,
                    c.viable,
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                // 4/4 keys; (1.0 + 0.75)/2; 0.5*0.5 + 0 + 0.25*0.5
                ("a.exact", 1.0, 0.875, 0.375, 0.8313, true),
                // 2/3 keys; 1.0; 0.5 + 0.25 + 0.125
                ("b.partial", 0.6667, 1.0, 0.875, 0.825, true),
                ("c.needs-more", 0.5, 1.0, 0.875, 0.75, false),
            ]
        );
        assert_eq!(t.selected.as_ref().unwrap().id, "a.exact");
        assert_eq!(t.template, Template::Adapter);
        assert_eq!(t.adapters[1].coercion.as_deref(), Some("string->int"));
        assert_eq!(t.coverage.ratio, 1.0);

        // Other weights change the choice: trust first prefers the local system one.
        let opts = SynthOptions {
            weights: Weights {
                coverage: 0.2,
                compatibility: 0.2,
                trust: 0.6,
            },
            ..SynthOptions::default()
        };
        let s = synthesize_planner(&c, &Policy::default(), &opts);
        assert_eq!(s.decision_trace.selected.unwrap().id, "b.partial");

        // History moves trust: a failing record lowers a.exact below b.partial.
        let opts = SynthOptions {
            outcomes: BTreeMap::from([("a.exact".to_string(), (0, 8))]),
            ..SynthOptions::default()
        };
        let s = synthesize_planner(&c, &Policy::default(), &opts);
        assert_eq!(s.decision_trace.selected.as_ref().unwrap().id, "b.partial");
        let a = s
            .decision_trace
            .candidates
            .iter()
            .find(|c| c.id == "a.exact")
            .unwrap();
        assert!(
            a.explain.iter().any(|e| e.contains("(0/8 ok)")),
            "{:?}",
            a.explain
        );
    }

    #[test]
    fn min_score_and_missing_inputs_give_the_fallback() {
        let c = ctx("", "{}");
        let opts = SynthOptions {
            min_score: 0.95,
            ..SynthOptions::default()
        };
        let s = synthesize_planner(&c, &Policy::default(), &opts);
        let fb = s.decision_trace.fallback.as_ref().unwrap();
        assert!(fb.reason.contains("below the minimum"), "{}", fb.reason);
        assert_eq!(fb.stub_id, "synth.generic.agent.stub");
        assert!(s.requires_agent());
        let stub = stub_manifest(&s, &c).unwrap();
        assert_eq!(stub.trust_tier, TrustTier::Untrusted);
        assert_eq!(stub.required_keys(), vec!["city", "days"]);
        // A selected synthesis has no stub.
        let ok = synthesize_planner(&c, &Policy::default(), &SynthOptions::default());
        assert!(stub_manifest(&ok, &c).is_none());
    }

    #[test]
    fn speed_preference_breaks_ties_toward_capabilities_and_ids_otherwise() {
        let mut a = CandidateScore {
            id: "z".into(),
            kind: "capability".into(),
            coverage: 1.0,
            compatibility: 1.0,
            trust_bias: 0.5,
            total: 0.9,
            viable: true,
            missing: vec![],
            adapters: vec![],
            explain: vec![],
        };
        let mut b = a.clone();
        b.id = "a".into();
        b.kind = "agent".into();
        let mut v = vec![a.clone(), b.clone()];
        rank(&mut v, &PlannerPreferences::default());
        assert_eq!(v[0].id, "a");
        let speed = PlannerPreferences {
            optimize_for_speed: true,
            ..PlannerPreferences::default()
        };
        rank(&mut v, &speed);
        assert_eq!(v[0].id, "z");
        a.viable = false;
        a.total = 1.0;
        let mut v = vec![a, b];
        rank(&mut v, &speed);
        assert_eq!(v[0].id, "a", "viable first");
    }
}
