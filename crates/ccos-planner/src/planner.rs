//! The planner: goal → sub-intents → resolved capabilities → validated
//! RTFS plan, with a decision trace; and its record in the store.
//!
//! # Choosing a capability
//!
//! Each sub-intent is resolved with the configured [`ResolutionStrategy`]
//! (default [`CatalogResolution`] with minimum query coverage
//! [`MIN_COVERAGE`]); candidates scoring below [`MIN_SCORE`] are rejected.
//! The remaining candidates are taken best first; one the policy denies
//! (`Policy::decide_call` → `Deny`) is skipped and recorded in the
//! trace as filtered. Among the allowed ones, the first whose required
//! parameters the sub-intent can fill ([`plan_gen::unfillable`] is empty)
//! is chosen, the ones before it noted as skipped; when none fits, the
//! best allowed one is (its missing parameters are then asked or
//! reported). A sub-intent left without a capability makes the
//! whole result `requires_agent` (no plan: never an invented capability).
//!
//! # Validation
//!
//! The emitted plan is preflighted (`ccos_governance::preflight_str`)
//! against the catalog and policy; an error finding is a planner bug and
//! returned as [`PlanError::InvalidPlan`].

use std::sync::Arc;

use ccos_core::audit::NewEntry;
use ccos_core::audit::payload as audit;
use ccos_core::{Redactor, new_id};
use ccos_governance::{CallDecision, Policy};
use ccos_marketplace::Marketplace;
use ccos_store::{EdgeKind, NewIntent, NewPlan, Store, StoreError};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::decompose::{DecompositionError, HybridDecomposition, HybridPath, PatternDecomposition};
use std::collections::{BTreeMap, BTreeSet};

use ccos_marketplace::CapabilityManifest;

use crate::fact_store::{FactStore, RelationGraph, provider_of};
use crate::intent::{IntentType, ItemsAnswer, ParamValue, SubIntent};
use crate::plan_gen::{self, ASK_CAPABILITY, FILTER_CAPABILITY, GenOptions, ResolvedStep};
use crate::resolution::{
    Candidate, CatalogResolution, Resolution, ResolutionError, ResolutionStrategy,
};
use crate::understand::bind::bind;
use crate::understand::lexicon;
use crate::understand::mentions::Mention;

mod story;

/// Minimum IDF-weighted share of a sub-intent's words that a capability
/// must contain to be a candidate (catalog scores are relative to the
/// pool, so this is the absolute bar against "closest but wrong").
pub const MIN_COVERAGE: f64 = 0.5;

/// How many of the closest dropped capabilities the trace of a sub-intent
/// nothing fits shows, with the bar each missed.
const DIAGNOSED: usize = 3;

/// Minimum candidate score (the default catalog weights give the best
/// candidate of a clear match about 3; a weak partial match stays under 1).
pub const MIN_SCORE: f64 = 1.0;

/// How many candidates are ranked per sub-intent.
pub const TOP_K: usize = 5;

/// Why planning failed (not "requires an agent", which is a result).
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// Decomposition failed.
    #[error(transparent)]
    Decomposition(#[from] DecompositionError),
    /// Resolution failed.
    #[error(transparent)]
    Resolution(#[from] ResolutionError),
    /// The generated plan does not pass preflight: a planner bug.
    #[error("planner bug: the generated plan fails preflight: {findings}\n{rtfs}")]
    InvalidPlan {
        /// The findings, one per line (`code: message`).
        findings: String,
        /// The offending plan.
        rtfs: String,
    },
}

/// A candidate skipped because the policy denies it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Filtered {
    /// The capability.
    pub capability_id: String,
    /// The policy's reasons.
    pub reasons: Vec<String>,
}

/// An allowed candidate that does not serve a sub-intent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Skipped {
    /// The capability.
    pub capability_id: String,
    /// Why it does not serve the sub-intent.
    pub reason: String,
}

/// The decision trace of one sub-intent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IntentTrace {
    /// The sub-intent id.
    pub sub_intent: String,
    /// Its description.
    pub description: String,
    /// The resolution strategy used.
    pub strategy: String,
    /// Candidates at or above [`MIN_SCORE`], best first, with reasons.
    pub candidates: Vec<Candidate>,
    /// Candidates below [`MIN_SCORE`].
    pub rejected: Vec<Candidate>,
    /// Candidates skipped because the policy denies them.
    pub filtered: Vec<Filtered>,
    /// Allowed candidates that do not serve the sub-intent, and why
    /// (contradicts the goal, would drop a stated value, leaves a required
    /// parameter open).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<Skipped>,
    /// The capability chosen, if any.
    pub chosen: Option<String>,
    /// The policy's decision on the chosen one (`allow`, `needs_approval`).
    pub decision: Option<String>,
    /// Parameter mappings, adapters and coercions applied.
    pub notes: Vec<String>,
}

impl IntentTrace {
    /// An empty trace of sub-intent `s` resolved by `strategy`.
    fn new(s: &SubIntent, strategy: &str) -> IntentTrace {
        IntentTrace {
            sub_intent: s.id.clone(),
            description: s.description.clone(),
            strategy: strategy.to_string(),
            candidates: vec![],
            rejected: vec![],
            filtered: vec![],
            skipped: vec![],
            chosen: None,
            decision: None,
            notes: vec![],
        }
    }
}

/// The whole goal as its one sub-intent (after the decomposition's
/// `failures`): a fact to remember, or a count one result's field answers.
fn whole_goal_outcome(
    goal: &str,
    failures: Vec<crate::decompose::StrategyFailure>,
) -> crate::decompose::HybridOutcome {
    crate::decompose::HybridOutcome {
        sub_intents: vec![crate::decompose::whole_goal(
            goal,
            crate::understand::mentions(goal).unwrap_or_default(),
        )],
        path: HybridPath::Fallback,
        strategy: "fallback".into(),
        failures,
    }
}

/// The decision trace of a plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanTrace {
    /// The goal.
    pub goal: String,
    /// How it was decomposed: `pattern`, the extra strategy's name
    /// (`llm-grounded`, `llm-intent-first`), `clause` or `fallback`.
    pub decomposition: String,
    /// Where the pattern rules came from.
    pub rules: String,
    /// One entry per sub-intent, in order.
    pub intents: Vec<IntentTrace>,
    /// Extra (LLM) decomposition strategies that failed before the one
    /// used, with the reasons.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decomposition_failures: Vec<crate::decompose::StrategyFailure>,
    /// Notices about how the planner ran (e.g. semantic resolution off
    /// because the embedding model is absent).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notices: Vec<String>,
}

/// A sub-intent no capability can serve.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MissingCapability {
    /// The sub-intent id.
    pub sub_intent: String,
    /// What it asks for.
    pub description: String,
    /// Why nothing fits.
    pub reason: String,
}

/// The goal needs an agent (or new capabilities): what is missing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RequiresAgent {
    /// The uncovered sub-intents.
    pub missing: Vec<MissingCapability>,
}

/// The result of planning a goal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanResult {
    /// The goal.
    pub goal: String,
    /// The validated RTFS plan; `None` when `requires_agent` is set.
    pub rtfs: Option<String>,
    /// The sub-intents.
    pub sub_intents: Vec<SubIntent>,
    /// The decision trace.
    pub trace: PlanTrace,
    /// Set when some sub-intent has no capability.
    pub requires_agent: Option<RequiresAgent>,
}

impl PlanTrace {
    /// The decision trace, as `;;` comment lines: for each sub-intent the
    /// candidates with scores and reasons, the rejected ones with why, the
    /// ones the policy filtered, the ones that do not serve it with why
    /// (skipped), the choice and the argument notes.
    pub fn explain(&self) -> String {
        let mut out = format!(
            ";; decomposition: {} (rules: {})\n",
            self.decomposition, self.rules
        );
        for n in &self.notices {
            out.push_str(&format!(";; notice: {n}\n"));
        }
        for i in &self.intents {
            out.push_str(&format!(
                ";; {} {:?} [{}]\n",
                i.sub_intent, i.description, i.strategy
            ));
            let ranked = i.candidates.iter().map(|c| ("", c));
            for (label, c) in ranked.chain(i.rejected.iter().map(|c| ("rejected ", c))) {
                out.push_str(&format!(
                    ";;   {label}{:.3} {}: {}\n",
                    c.score,
                    c.capability_id,
                    c.reasons.join("; ")
                ));
            }
            for f in &i.filtered {
                out.push_str(&format!(
                    ";;   filtered by policy {}: {}\n",
                    f.capability_id,
                    f.reasons.join("; ")
                ));
            }
            for sk in &i.skipped {
                out.push_str(&format!(
                    ";;   skipped {}: {}\n",
                    sk.capability_id, sk.reason
                ));
            }
            match (&i.chosen, &i.decision) {
                (Some(c), Some(d)) => out.push_str(&format!(";;   chosen {c} ({d})\n")),
                _ => out.push_str(";;   chosen: none\n"),
            }
            for n in &i.notes {
                out.push_str(&format!(";;   {n}\n"));
            }
        }
        out
    }
}

impl PlanResult {
    /// The generation mode recorded with the plan: `pattern` for rules,
    /// else the decomposition path.
    pub fn generation_mode(&self) -> &str {
        &self.trace.decomposition
    }
}

/// The planner (see the module docs).
pub struct Planner {
    marketplace: Arc<Marketplace>,
    policy: Policy,
    decomposition: HybridDecomposition,
    resolution: Box<dyn ResolutionStrategy>,
    /// The catalog in diagnosing mode, for the trace of a sub-intent
    /// nothing fits (kept, so its catalog statistics are computed once).
    diagnosis: CatalogResolution,
    rules: String,
    notices: Vec<String>,
}

impl Planner {
    /// A planner over `marketplace` under `policy`, with `patterns` for
    /// decomposition and catalog resolution.
    pub fn new(
        marketplace: Arc<Marketplace>,
        policy: Policy,
        patterns: PatternDecomposition,
    ) -> Planner {
        let rules = patterns.source_name().to_string();
        Planner {
            resolution: Box::new(
                CatalogResolution::new(marketplace.clone()).with_min_coverage(MIN_COVERAGE),
            ),
            diagnosis: CatalogResolution::new(marketplace.clone())
                .with_min_coverage(MIN_COVERAGE)
                .diagnosing(),
            marketplace,
            policy,
            decomposition: HybridDecomposition::new(patterns),
            rules,
            notices: vec![],
        }
    }

    /// Replaces the decomposition (e.g. a hybrid with an LLM strategy).
    pub fn with_decomposition(mut self, d: HybridDecomposition) -> Planner {
        self.decomposition = d;
        self
    }

    /// Replaces the resolution strategy.
    pub fn with_resolution(mut self, r: Box<dyn ResolutionStrategy>) -> Planner {
        self.resolution = r;
        self
    }

    /// Adds a notice to every trace (e.g. "semantic resolution off: ...").
    pub fn with_notice(mut self, notice: impl Into<String>) -> Planner {
        self.notices.push(notice.into());
        self
    }

    /// Plans `goal`: a validated plan, or a requires-agent report.
    pub fn plan(&self, goal: &str) -> Result<PlanResult, PlanError> {
        let unshouted = crate::understand::without_contractions(&crate::understand::unshouted(
            crate::decompose::bounded_goal(goal)?,
        ));
        let goal = without_greeting(unshouted.as_str());
        let restated = crate::decompose::contain_as_have(goal);
        let goal = restated.as_deref().unwrap_or(goal);
        // One fact to remember, whole, when a fact store keeps it: "Ruth
        // is a nurse. Remember that." is not two requests.
        if matches!(
            crate::understand::statement::fact_to_remember(goal),
            Some(Ok(_))
        ) && matches!(self.fact_store(), Some(Ok(_)))
        {
            return self.plan_outcome(goal, whole_goal_outcome(goal, vec![]));
        }
        let outcome = self.decomposition.decompose_traced(goal)?;
        // "how many stars does acme/rocket have?" is read first as a list
        // to count; when no capability lists them, as one question whose
        // answer is a number (a field of one result, [`answer_field`]).
        let counted = outcome.sub_intents.first().is_some_and(|s| s.counted);
        let whole = counted.then(|| whole_goal_outcome(goal, outcome.failures.clone()));
        let first = self.plan_outcome(goal, outcome)?;
        if first.requires_agent.is_none() {
            return Ok(first);
        }
        use ccos_marketplace::Effect;
        if let Some(second) = self.second_reading(
            goal,
            whole,
            &Effect::ALL,
            "\"how many\": no capability lists what to count; one result's field answers it",
        )? {
            return Ok(second);
        }
        // "add 5 to the largest number in numbers.txt": no capability does
        // it all; the largest number is found first, then added to
        // (never by a step that writes).
        let by_operands = self.decomposition.decompose_operands(goal)?;
        if let Some(second) = self.second_reading(
            goal,
            by_operands,
            &[Effect::Pure, Effect::Read, Effect::Network, Effect::User],
            "arithmetic on values found first: no capability serves the goal as a whole, so each operand naming a quantity is a request of its own",
        )? {
            return Ok(second);
        }
        // "uppercase the first line of notes.txt": the line is found
        // first, then uppercased; only a plan that reads and computes
        // (what "it" is decides what a change would change).
        let by_object = self.decomposition.decompose_object_first(goal)?;
        if let Some(second) = self.second_reading(
            goal,
            by_object,
            &[Effect::Pure, Effect::Read],
            "object found first: no capability serves the goal as a whole, so the part of the file it names is a request of its own",
        )? {
            return Ok(second);
        }
        Ok(first)
    }

    /// `goal` planned as read a second way (`outcome`), after the first
    /// reading found no plan: kept when it plans and every step's
    /// capability has only `allowed` effects, with `notice` saying why it
    /// was read so.
    fn second_reading(
        &self,
        goal: &str,
        outcome: Option<crate::decompose::HybridOutcome>,
        allowed: &[ccos_marketplace::Effect],
        notice: &str,
    ) -> Result<Option<PlanResult>, PlanError> {
        let Some(outcome) = outcome else {
            return Ok(None);
        };
        let mut second = self.plan_outcome(goal, outcome)?;
        let effects_allowed = second.trace.intents.iter().all(|i| {
            i.chosen
                .as_deref()
                .and_then(|id| self.marketplace.get(id))
                .is_none_or(|m| m.effects.iter().all(|e| allowed.contains(e)))
        });
        if second.rtfs.is_none() || !effects_allowed {
            return Ok(None);
        }
        second.trace.notices.push(notice.to_string());
        Ok(Some(second))
    }

    /// Plans `goal` decomposed as `outcome`.
    fn plan_outcome(
        &self,
        goal: &str,
        outcome: crate::decompose::HybridOutcome,
    ) -> Result<PlanResult, PlanError> {
        let (subs, path, strategy) = (outcome.sub_intents, outcome.path, outcome.strategy);
        let mut traces = vec![];
        let mut steps: Vec<ResolvedStep> = vec![];
        let mut missing = vec![];
        let mut planned: Vec<SubIntent> = vec![];
        let mut after_changes: Vec<AfterChange> = vec![];
        // "The first triangle has …, the second … Can you calculate the
        // area of both?": one call per instance, when one capability
        // serves each.
        let mut story_notice = None;
        let by_clause: &[SubIntent] = match self.instance_story(&subs) {
            Some(Ok(p)) => {
                (traces, steps, planned, missing) = (p.traces, p.steps, p.planned, p.missing);
                &[]
            }
            Some(Err(why)) => {
                story_notice = Some(format!(
                    "read as a story of instances, not planned so: {why}; planned clause by clause"
                ));
                &subs
            }
            None => &subs,
        };
        for (at, s) in by_clause.iter().enumerate() {
            // "Can you help me with a few calculations? First, …": the
            // requests follow; this clause asks for nothing of its own.
            if by_clause.len() > 1 && crate::decompose::announces_requests(&s.description) {
                let mut trace = IntentTrace::new(s, "announcement");
                trace
                    .notes
                    .push("announces the requests that follow; asks for nothing itself".into());
                traces.push(trace);
                continue;
            }
            // "ask me if I want to continue and then sort …": the answer
            // decides whether the rest runs, and a plan does not branch on
            // it (attack trial: it sorted whatever the answer).
            if asks_the_user_yes_or_no(s)
                && by_clause
                    .iter()
                    .any(|o| o.id != s.id && !o.takes_result_of(&s.id))
            {
                let mut trace = IntentTrace::new(s, "yes-or-no question");
                let reason = "a yes-or-no question deciding whether the rest runs: a plan does not wait for the answer to choose its steps".to_string();
                trace.notes.push(reason.clone());
                traces.push(trace);
                planned.push(s.clone());
                missing.push(MissingCapability {
                    sub_intent: s.id.clone(),
                    description: s.description.clone(),
                    reason,
                });
                continue;
            }
            // "remember that Alice likes tea": kept by the fact store.
            if let Some((trace, kept)) = self.remember(s) {
                match kept {
                    Ok(kept) => {
                        for st in kept {
                            planned.push(st.intent.clone());
                            steps.push(st);
                        }
                    }
                    Err(reason) => {
                        planned.push(s.clone());
                        missing.push(MissingCapability {
                            sub_intent: s.id.clone(),
                            description: s.description.clone(),
                            reason,
                        });
                    }
                }
                traces.push(trace);
                continue;
            }
            let (mut trace, mut chosen) = match self.after_a_change(s, &steps)? {
                Some((trace, chosen, shared)) => {
                    after_changes.push(shared);
                    (trace, Some(chosen))
                }
                None => self.choose(s)?,
            };
            // "read config.json and tell me the app name": served by
            // nothing alone, the clause asks about the file just read.
            let about_file: SubIntent;
            let before = at.checked_sub(1).and_then(|b| subs.get(b));
            let s = match self.about_the_file_read(before, s, chosen.is_none()) {
                Some((about, t, c)) => {
                    about_file = about;
                    trace = t;
                    chosen = Some(c);
                    &about_file
                }
                None => s,
            };
            // Groups of values in a goal split into clauses: the splitter
            // may have copied them into each clause ("…, $11.23 in
            // Portland, Oregon and in Seattle, Washington" made two
            // clauses of four groups each); which group is whose is not
            // said (attack trial: six calls for four places).
            if subs.len() > 1
                && let Some(c) = chosen.as_ref()
                && c.intent.fan_out.as_ref().is_some_and(|f| f.grouped)
            {
                trace.skipped.push(Skipped {
                    capability_id: c.manifest.id.clone(),
                    reason: "groups of values in a goal of several clauses: which groups each clause means is not said".to_string(),
                });
                trace.chosen = None;
                chosen = None;
            }
            // Checks of the choice against the steps before it: "count the
            // lines of notes.txt and then count *its* words" (the line
            // count written out is no text to read), "add 5 to *the
            // largest file in docs*" (a record is no number), "Find hotels
            // in Denver, then *reserve*" (a lone verb served by a
            // capability that does not take the earlier result).
            if let Some(c) = chosen.as_ref()
                && let Some(reason) = text_of_a_number(c, &steps)
                    .or_else(|| number_of_a_non_number(c, &steps))
                    .or_else(|| lone_verb_acting_elsewhere(before, s, c))
            {
                trace.skipped.push(Skipped {
                    capability_id: c.manifest.id.clone(),
                    reason,
                });
                trace.chosen = None;
                chosen = None;
            }
            // "… Include its statistics.", "Don't return full text": a
            // clause that only switches a flag of the previous call.
            if chosen.is_none()
                && let Some(prev) = before
                && let Some(note) = switch_of_previous(s, prev, &mut steps)
            {
                trace.notes.push(note);
                trace.skipped.clear();
                trace.rejected.clear();
                traces.push(trace);
                continue;
            }
            match chosen {
                Some(c) => {
                    self.push_chosen(s, c, &mut traces, (&mut planned, &mut steps, &mut missing))?;
                }
                None => {
                    // "what is the runtime of Copper Sky?": the capability
                    // that answers takes an id; look the name up first.
                    if let Some(chain) = self.by_name(s) {
                        trace.notes.extend(chain.notes);
                        trace.chosen = Some(chain.chosen);
                        trace.decision = Some(chain.decision);
                        for st in chain.steps {
                            planned.push(st.intent.clone());
                            steps.push(st);
                        }
                        traces.push(trace);
                        continue;
                    }
                    // "add a new person called Erin": an entity of the
                    // fact store, when nothing else adds such a thing;
                    // "who works at Globex?": the relations of a
                    // knowledge graph answer it.
                    if let Some((kept, note, chosen, decision)) =
                        self.add_entity(s).or_else(|| self.related(s))
                    {
                        trace.notes.push(note);
                        trace.chosen = Some(chosen);
                        trace.decision = Some(decision);
                        for st in kept {
                            planned.push(st.intent.clone());
                            steps.push(st);
                        }
                        traces.push(trace);
                        continue;
                    }
                    planned.push(s.clone());
                    let mut reason = no_fit_reason(&trace);
                    // Nothing ranked at all: say, in the trace, which
                    // capabilities came closest and which bar each missed.
                    if trace.candidates.is_empty()
                        && trace.rejected.is_empty()
                        && trace.skipped.is_empty()
                        && trace.filtered.is_empty()
                    {
                        trace.rejected = self.diagnosis.resolve(s, DIAGNOSED).unwrap_or_default();
                    }
                    let mut unknown = self.unknown_words(s);
                    if unknown.is_empty() && trace.skipped.is_empty() {
                        // Nothing else to name: the names no capability
                        // knows ("the 10th Fibonacci number").
                        unknown = self.unknown_names(s, false);
                    } else if trace.skipped.is_empty() {
                        // A name saying which kind of thing ("a *Slack*
                        // message", "a *Jira* ticket") that no capability
                        // knows is what is missing, before the words; a
                        // name after a preposition is a value ("a flight
                        // to Paris"), not named.
                        let kinds = self.unknown_names(s, true);
                        unknown.retain(|w| !kinds.contains(w));
                        unknown.splice(0..0, kinds);
                    }
                    if !unknown.is_empty() {
                        let quoted: Vec<String> = with_their_nouns(&s.description, &unknown)
                            .iter()
                            .map(|w| format!("{w:?}"))
                            .collect();
                        reason = format!("{reason}; no capability knows {}", quoted.join(", "));
                    }
                    if trace.skipped.is_empty()
                        && let Some(closest) = trace
                            .rejected
                            .first()
                            .and_then(|c| self.marketplace.get(&c.capability_id))
                    {
                        // The words known somewhere that the closest
                        // capability does not know ("zip" the docs folder:
                        // "docs" and "folder" are known nowhere, "zip" is
                        // what the closest lacks).
                        let lacks: Vec<String> = lacking_words(s, &closest)
                            .into_iter()
                            .filter(|w| !unknown.contains(w))
                            .collect();
                        if !lacks.is_empty() {
                            let quoted: Vec<String> =
                                lacks.iter().map(|w| format!("{w:?}")).collect();
                            reason = format!(
                                "{reason}; the closest, {}, does not know {}",
                                closest.id,
                                quoted.join(", ")
                            );
                        }
                    }
                    // Still nothing named, and the goal's words only ask
                    // ("can you help me?"): say which words those are.
                    if reason == "no capability fits" {
                        let asking: Vec<String> = reportable_words(s, stop_stems())
                            .into_iter()
                            .map(|(w, _)| format!("{w:?}"))
                            .collect();
                        if !asking.is_empty() {
                            reason = format!(
                                "{reason}; the goal's words ({}) ask, and name no task",
                                asking.join(", ")
                            );
                        }
                    }
                    // "hi", "good morning", "thanks!": a greeting, said so.
                    if is_greeting(&s.description) {
                        reason = format!("{reason}; the goal is a greeting, not a task");
                    }
                    // Every report names the part of the goal no
                    // capability serves: when nothing above quotes one
                    // (each candidate skipped for a reason of its own, the
                    // clause the whole goal), the words the closest lacks.
                    if !names_part_of(goal, &s.description, &reason)
                        && let Some(part) = self.unserved_part(goal, s, &trace)
                    {
                        reason = format!("{reason}; the part no capability serves: {part}");
                    }
                    missing.push(MissingCapability {
                        sub_intent: s.id.clone(),
                        description: s.description.clone(),
                        reason,
                    });
                }
            }
            traces.push(trace);
        }
        share_stated_context(&mut steps, &mut traces, |m, name| {
            self.is_context_param(m, name)
        });
        // "it" is the thing changed only in the same context (two
        // repositories named: which the change is in is not said).
        for AfterChange {
            step: id,
            change,
            param,
        } in &after_changes
        {
            let value = |of: &str| {
                steps
                    .iter()
                    .find(|st| st.intent.id == of)
                    .and_then(|st| st.intent.params.get(param).cloned())
            };
            if value(id).is_none() || value(id) != value(change) {
                missing.push(MissingCapability {
                    sub_intent: id.clone(),
                    description: subs
                        .iter()
                        .find(|s| &s.id == id)
                        .map(|s| s.description.clone())
                        .unwrap_or_default(),
                    reason: format!(
                        "\"it\" is what {change} changed, and the goal does not say that {change} has the same :{param}"
                    ),
                });
            }
        }
        order_after_writes(&mut steps);
        for st in &steps {
            if let Some(p) = planned.iter_mut().find(|p| p.id == st.intent.id) {
                p.after = st.intent.after.clone();
                p.params = st.intent.params.clone();
            }
        }
        let mut trace = PlanTrace {
            goal: goal.to_string(),
            decomposition: match path {
                HybridPath::Pattern => "pattern".into(),
                // The extra strategy's own name (`llm-grounded`, ...).
                HybridPath::Extra => strategy,
                p => p.as_str().into(),
            },
            rules: self.rules.clone(),
            intents: traces,
            decomposition_failures: outcome.failures,
            notices: self.notices.iter().cloned().chain(story_notice).collect(),
        };
        let mut result = PlanResult {
            goal: goal.to_string(),
            rtfs: None,
            sub_intents: planned,
            trace: trace.clone(),
            requires_agent: None,
        };
        if !missing.is_empty() {
            result.requires_agent = Some(RequiresAgent { missing });
            return Ok(result);
        }
        let generated = plan_gen::generate(
            &steps,
            GenOptions {
                can_ask: self.can_ask(),
            },
        );
        for t in &mut trace.intents {
            if let Some(n) = generated.notes.get(&t.sub_intent) {
                t.notes.extend(n.iter().cloned());
            }
        }
        result.trace = trace;
        if !generated.missing.is_empty() {
            result.requires_agent = Some(RequiresAgent {
                missing: generated
                    .missing
                    .iter()
                    .map(|(id, what)| MissingCapability {
                        sub_intent: id.clone(),
                        description: result
                            .sub_intents
                            .iter()
                            .find(|s| &s.id == id)
                            .map(|s| s.description.clone())
                            .unwrap_or_default(),
                        reason: what.clone(),
                    })
                    .collect(),
            });
            return Ok(result);
        }
        self.validate(&generated.rtfs)?;
        result.rtfs = Some(generated.rtfs);
        Ok(result)
    }

    /// The steps of sub-intent `s` served by `c`: the files whose content
    /// a parameter needs are read first (and split into a list when the
    /// parameter takes one), then `c`'s own step. The reads' traces go to
    /// `traces`; what no capability serves, to the missing list.
    fn push_chosen(
        &self,
        s: &SubIntent,
        c: Chosen,
        traces: &mut Vec<IntentTrace>,
        (planned, steps, missing): (
            &mut Vec<SubIntent>,
            &mut Vec<ResolvedStep>,
            &mut Vec<MissingCapability>,
        ),
    ) -> Result<(), PlanError> {
        // Files whose content a parameter needs are read first.
        let mut intent = c.intent;
        for (k, (param, path)) in c.read_first.iter().enumerate() {
            let how = c.read_as.get(param).copied();
            let listing = how == Some(crate::understand::bind::ReadAs::Listing);
            let read = SubIntent::new(
                format!("{}-read{}", s.id, k + 1),
                if listing {
                    "list the folder"
                } else {
                    "read the file"
                },
                IntentType::Fetch,
            )
            .with_param("path", rtfs::Value::string(path));
            let (rtrace, read_id) = self.prerequisite(
                read,
                MissingCapability {
                    sub_intent: String::new(),
                    description: format!("read {path} for {}", s.description),
                    reason: "no capability reads files".into(),
                },
                (&mut *planned, &mut *steps, &mut *missing),
            )?;
            if let Some(rid) = read_id {
                let mut source = rid.clone();
                // A list parameter takes the file's lines, its
                // numbers or its JSON value.
                if let Some(how) = how.filter(|_| !listing) {
                    let mut split = SubIntent::new(
                        format!("{}-list{}", s.id, k + 1),
                        how.request(),
                        IntentType::Transform,
                    )
                    .with_step_param("text", rid);
                    if let Some((name, value)) = how.preset() {
                        split = split.with_param(name, rtfs::Value::string(value));
                    }
                    let (ltrace, lines_id) = self.prerequisite(
                        split,
                        MissingCapability {
                            sub_intent: String::new(),
                            description: format!(
                                "{} ({path}) for {}",
                                how.request(),
                                s.description
                            ),
                            reason: format!("no capability gives {}", how.request()),
                        },
                        (&mut *planned, &mut *steps, &mut *missing),
                    )?;
                    traces.push(ltrace);
                    source = lines_id.unwrap_or(source);
                }
                intent = intent.with_step_param(param.clone(), source);
            }
            traces.push(rtrace);
        }
        // "sort the words 'pear apple fig'": the stated text's words,
        // found first.
        for (k, (param, text)) in c.words_first.iter().enumerate() {
            let find = SubIntent::new(
                format!("{}-words{}", s.id, k + 1),
                crate::understand::bind::WORDS_REQUEST,
                IntentType::Transform,
            )
            .with_param("text", rtfs::Value::string(text))
            .with_param(
                "pattern",
                rtfs::Value::string(crate::understand::bind::WORD_PATTERN),
            );
            let (wtrace, words_id) = self.prerequisite(
                find,
                MissingCapability {
                    sub_intent: String::new(),
                    description: format!("the words of {text:?} for {}", s.description),
                    reason: "no capability finds the words of a text".into(),
                },
                (&mut *planned, &mut *steps, &mut *missing),
            )?;
            if let Some(wid) = words_id {
                intent = intent.with_step_param(param.clone(), wid);
            }
            traces.push(wtrace);
        }
        // "ask me for a file and count its lines": the answer names a
        // file, and a parameter taking text gets the file's content, read
        // first (attack trial: the lines of the answer itself were
        // counted). A parameter taking a path gets the answer.
        let answers_naming_files: Vec<(String, String)> = intent
            .params
            .iter()
            .filter_map(|(param, v)| match v {
                ParamValue::StepRef(id)
                    if !lexicon::names_a_location(param)
                        && steps
                            .iter()
                            .any(|st| &st.intent.id == id && st.intent.asks_for_a_file()) =>
                {
                    Some((param.clone(), id.clone()))
                }
                _ => None,
            })
            .collect();
        for (k, (param, ask_id)) in answers_naming_files.into_iter().enumerate() {
            let read = SubIntent::new(
                format!("{}-answer-read{}", s.id, k + 1),
                "read the file",
                IntentType::Fetch,
            )
            .with_step_param("path", ask_id);
            let (rtrace, read_id) = self.prerequisite(
                read,
                MissingCapability {
                    sub_intent: String::new(),
                    description: format!("read the file the user names for {}", s.description),
                    reason: "no capability reads files".into(),
                },
                (&mut *planned, &mut *steps, &mut *missing),
            )?;
            if let Some(rid) = read_id {
                intent = intent.with_step_param(param, rid);
            }
            traces.push(rtrace);
        }
        planned.push(intent.clone());
        steps.push(ResolvedStep {
            intent,
            manifest: c.manifest,
        });
        Ok(())
    }

    /// A step the plan needs before a sub-intent's own (reading a file,
    /// splitting it into lines): its trace, and its id when a capability
    /// serves it (planned and stepped); otherwise it is `missing` (its
    /// `sub_intent` filled in here).
    fn prerequisite(
        &self,
        step: SubIntent,
        mut missing: MissingCapability,
        (planned, steps, unserved): (
            &mut Vec<SubIntent>,
            &mut Vec<ResolvedStep>,
            &mut Vec<MissingCapability>,
        ),
    ) -> Result<(IntentTrace, Option<String>), PlanError> {
        let (trace, chosen) = self.choose(&step)?;
        let Some(c) = chosen else {
            missing.sub_intent = step.id;
            unserved.push(missing);
            return Ok((trace, None));
        };
        planned.push(c.intent.clone());
        steps.push(ResolvedStep {
            intent: c.intent,
            manifest: c.manifest,
        });
        Ok((trace, Some(step.id)))
    }

    /// The words of an unserved sub-intent that no capability of the
    /// catalog mentions at all (name, description or parameters), in the
    /// goal's order: what an agent or a new capability would have to bring
    /// ("book a flight" → `book, flight`).
    fn unknown_words(&self, s: &SubIntent) -> Vec<String> {
        reportable_words(s, filler_stems())
            .into_iter()
            .map(|(w, _)| w)
            .filter(|w| !self.known_anywhere(w))
            .collect()
    }

    /// The names the sub-intent states (capitalized words) that no
    /// capability's text knows, lower-cased: what a report names when
    /// every other word is known. `qualifying`: only the names that say
    /// which kind of thing — right before a lower-case noun, after no
    /// preposition ("send a *Slack* message").
    fn unknown_names(&self, s: &SubIntent, qualifying: bool) -> Vec<String> {
        use crate::understand::mentions::MentionKind;
        let qualifies = |m: &crate::understand::mentions::Mention| {
            m.cue.prep.is_none()
                && s.description
                    .get(m.span.end..)
                    .and_then(|rest| rest.strip_prefix(' '))
                    .and_then(|rest| rest.split_whitespace().next())
                    .is_some_and(|w| {
                        w.len() > 2
                            && w.chars().all(|c| c.is_ascii_lowercase())
                            && !crate::resolution::catalog::STOP_WORDS.contains(&w)
                    })
        };
        let mut out: Vec<String> = vec![];
        for men in s
            .mentions
            .iter()
            .filter(|m| m.kind == MentionKind::Name && (!qualifying || qualifies(m)))
        {
            let lw = men.text.to_lowercase();
            let known = lw
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| w.len() > 1)
                .any(|w| self.known_anywhere(w));
            if !known && !out.contains(&lw) {
                out.push(lw);
            }
        }
        out
    }

    /// Whether some capability's text has `word` (a search error counts
    /// as known: a report never blames a word on a failed search).
    fn known_anywhere(&self, word: &str) -> bool {
        self.marketplace
            .search(word, 1)
            .map(|hits| !hits.is_empty())
            .unwrap_or(true)
    }

    /// Whether missing parameters may be asked: the ask capability exists
    /// and the policy does not deny it.
    fn can_ask(&self) -> bool {
        self.marketplace
            .get(ASK_CAPABILITY)
            .is_some_and(|m| !matches!(self.policy.decide_call(&m), CallDecision::Deny { .. }))
    }

    /// Resolves one sub-intent and picks the first allowed candidate, best
    /// ranked first, that serves it (see the module docs): it does not
    /// contradict the goal's operation, takes every value the clause
    /// states, and leaves open at most what an earlier result or one
    /// question fills.
    fn choose(&self, s: &SubIntent) -> Result<(IntentTrace, Option<Chosen>), PlanError> {
        let ranked = self.resolution.resolve(s, TOP_K)?;
        let (candidates, rejected) = match Resolution::decide(ranked, MIN_SCORE) {
            Resolution::Resolved { candidates } => (candidates, vec![]),
            Resolution::NoFit { rejected } => (vec![], rejected),
        };
        let mut trace = IntentTrace::new(s, self.resolution.name());
        trace.candidates = candidates.clone();
        trace.rejected = rejected;
        let mut allowed = vec![];
        let mut ties: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for c in &candidates {
            let Some(m) = self.marketplace.get(&c.capability_id) else {
                continue;
            };
            // Tied: the same score here, or in a fused strategy's own
            // ranking (marked by the composite).
            let tied: Vec<String> = c
                .reasons
                .iter()
                .filter_map(|r| r.strip_prefix(crate::resolution::TIED_WITH))
                .map(str::to_string)
                .chain(
                    candidates
                        .iter()
                        .filter(|o| o.capability_id != c.capability_id && o.score == c.score)
                        .map(|o| o.capability_id.clone()),
                )
                .collect();
            ties.insert(m.id.clone(), tied);
            match self.policy.decide_call(&m) {
                CallDecision::Deny { reasons } => trace.filtered.push(Filtered {
                    capability_id: c.capability_id.clone(),
                    reasons,
                }),
                d => allowed.push((m, d.label().to_string())),
            }
        }
        // A refusal of the sub-intent itself holds for every candidate:
        // computed once, said for each (the report says it once).
        if let Some(why) = sub_intent_refusal(s) {
            for (m, _) in &allowed {
                trace.skipped.push(Skipped {
                    capability_id: m.id.clone(),
                    reason: why.clone(),
                });
            }
            return Ok((trace, None));
        }
        let can_ask = self.can_ask();
        let mut fallback: Option<(usize, Chosen, Vec<String>)> = None;
        for (i, (m, d)) in allowed.iter().enumerate() {
            match self.evaluate(s, m, can_ask) {
                Fit::Serves(c, notes) => {
                    // Another that scores the same and serves too: the goal
                    // does not say which ("convert 'Hi' to json": lower or
                    // upper case?). Refused, not picked by name order.
                    let tied = ties.get(&m.id).cloned().unwrap_or_default();
                    if let Some((other, _)) = allowed[i + 1..].iter().find(|(o, _)| {
                        tied.contains(&o.id)
                            && matches!(self.evaluate(s, o, can_ask), Fit::Serves(..))
                    }) {
                        trace.skipped.push(Skipped {
                            capability_id: m.id.clone(),
                            reason: format!(
                                "is as good a fit as {} (the same score): the goal does not say which",
                                other.id
                            ),
                        });
                        return Ok((trace, None));
                    }
                    trace.notes.extend(notes);
                    trace.chosen = Some(m.id.clone());
                    trace.decision = Some(d.clone());
                    return Ok((trace, Some(c)));
                }
                Fit::Asks(c, why, notes) => {
                    trace.notes.push(format!("{}: {why}", m.id));
                    if fallback.is_none() {
                        fallback = Some((i, c, notes));
                    }
                }
                Fit::Refused(why) => trace.skipped.push(Skipped {
                    capability_id: m.id.clone(),
                    reason: why,
                }),
                // The doubt holds for the capabilities ranked below:
                // they would take the value elsewhere or do another thing
                // with it (attack trial: "Create a webhook to Slack",
                // refused by the HTTP post, became a shipment).
                Fit::Doubted(why) => {
                    trace.skipped.push(Skipped {
                        capability_id: m.id.clone(),
                        reason: format!("{why}; no other capability is tried"),
                    });
                    break;
                }
            }
        }
        match fallback {
            Some((i, c, notes)) => {
                trace.notes.extend(notes);
                trace.chosen = Some(allowed[i].0.id.clone());
                trace.decision = Some(allowed[i].1.clone());
                Ok((trace, Some(c)))
            }
            None => Ok((trace, None)),
        }
    }

    /// Sub-intent `s` read as asking about the one file the sub-intent
    /// `before` it only reads ("read config.json and *tell me the app
    /// name*": the clause "in config.json"), when it is `unserved` alone
    /// and so read a capability serves it: the sub-intent (same id), its
    /// trace and the choice, the trace saying why. A key the file lacks is
    /// an error at run time; "… and tell me the time", served alone, is
    /// never read so.
    fn about_the_file_read(
        &self,
        before: Option<&SubIntent>,
        s: &SubIntent,
        unserved: bool,
    ) -> Option<(SubIntent, IntentTrace, Chosen)> {
        if !unserved
            || !s.from_text
            || !s.depends_on.is_empty()
            || !s.mentions.is_empty()
            || !crate::decompose::asks_for_the_thing(&s.description)
        {
            return None;
        }
        let prev = before?;
        // A rule may have rewritten the reading clause ("read the file"
        // with its path): the clause it read.
        let prev_text = match prev.params.get("path") {
            Some(crate::intent::ParamValue::Literal(v))
                if prev.params.len() == 1 && prev.intent_type == IntentType::Fetch =>
            {
                format!("read {}", v.as_str()?)
            }
            _ => prev.description.clone(),
        };
        let file = crate::decompose::file_only_read(&prev_text)?;
        let text = format!(
            "{} in {file}",
            s.description.trim_end_matches(['?', '.', '!', ' '])
        );
        let mut about = SubIntent::new(s.id.clone(), text, s.intent_type.clone());
        about.mentions = crate::understand::mentions(&about.description).ok()?;
        about.from_text = true;
        about.after = s.after.clone();
        let (mut trace, chosen) = self.choose(&about).ok()?;
        trace.notes.insert(
            0,
            format!(
                "\"{}\" alone is served by nothing: read as \"{}\" (the file the previous clause reads)",
                s.description, about.description
            ),
        );
        Some((about, trace, chosen?))
    }

    /// "stage todo.txt and commit *it*": after a step that changes
    /// something, "it" is the thing changed, not the step's result (a
    /// confirmation, no data). When the one earlier result `s` refers to
    /// is such a change, `s` is chosen again as a step that runs after it
    /// without its result; that choice holds only for a capability of the
    /// same server acting on the same stated context (a parameter of the
    /// same name and value, or one the change leaves open and
    /// [`share_stated_context`] fills, checked by the caller once filled:
    /// the returned step, change and parameter), so the change is what it
    /// sees. `None`: not such a reference, or no such capability (then `s`
    /// is chosen as it is).
    fn after_a_change(
        &self,
        s: &SubIntent,
        steps: &[ResolvedStep],
    ) -> Result<Option<(IntentTrace, Chosen, AfterChange)>, PlanError> {
        let refs: Vec<&String> = s.unnamed_results().collect();
        let [earlier] = refs.as_slice() else {
            return Ok(None);
        };
        if !s.from_text
            || !crate::decompose::refers_back(&s.description)
            || crate::decompose::named_result(&s.description).is_some()
        {
            return Ok(None);
        }
        let Some(change) = steps.iter().find(|st| &&st.intent.id == earlier) else {
            return Ok(None);
        };
        if !crate::understand::bind::changes_things(&change.manifest) {
            return Ok(None);
        }
        let mut ordered = s.clone();
        ordered.depends_on.retain(|d| d != *earlier);
        ordered.after.push((*earlier).clone());
        let (mut trace, chosen) = self.choose(&ordered)?;
        let Some(c) = chosen else {
            return Ok(None);
        };
        if provider_of(&c.manifest) != provider_of(&change.manifest) {
            return Ok(None);
        }
        // The context both act in: stated by both alike, or by one of them
        // only (filled into the other by `share_stated_context`; checked
        // by the caller once filled).
        let shared = c.manifest.required_keys().into_iter().find(|name| {
            self.is_context_param(&c.manifest, name)
                && match (c.intent.params.get(name), change.intent.params.get(name)) {
                    (Some(v @ ParamValue::Literal(_)), Some(w)) => v == w,
                    (Some(ParamValue::Literal(_)), None) | (None, Some(ParamValue::Literal(_))) => {
                        true
                    }
                    _ => false,
                }
        });
        let Some(name) = shared else {
            return Ok(None);
        };
        trace.notes.push(format!(
            "\"it\" is what {earlier} changed ({} changes something; its result is no data): {} runs after it, with the same :{name}",
            change.manifest.id, s.id
        ));
        let shared = AfterChange {
            step: s.id.clone(),
            change: (*earlier).clone(),
            param: name,
        };
        Ok(Some((trace, c, shared)))
    }

    /// The words of `s` that the closest candidate of its trace (the first
    /// skipped, else the first rejected) does not know, with their nouns,
    /// quoted, as the goal writes them ("how many *items* are listed at
    /// URL"); else, for a count, what it counts. `None` when nothing of the
    /// goal is left to name.
    fn unserved_part(&self, goal: &str, s: &SubIntent, trace: &IntentTrace) -> Option<String> {
        let goal_lc = goal.to_lowercase();
        let in_goal = |w: &String| goal_lc.contains(&w.to_lowercase());
        let closest = trace
            .skipped
            .first()
            .map(|c| &c.capability_id)
            .or_else(|| trace.rejected.first().map(|c| &c.capability_id))
            .and_then(|id| self.marketplace.get(id));
        let mut words: Vec<String> = closest
            .map(|m| with_their_nouns(&s.description, &lacking_words(s, &m)))
            .unwrap_or_default();
        words.retain(in_goal);
        if words.is_empty() && s.counted {
            // "list items are listed at URL" (read from "how many items
            // …"): the counted noun.
            words = lexicon::words_of(&s.description)
                .into_iter()
                .skip(1)
                .take(1)
                .filter(in_goal)
                .collect();
        }
        if words.is_empty() {
            return None;
        }
        let quoted: Vec<String> = words.iter().map(|w| format!("{w:?}")).collect();
        Some(quoted.join(", "))
    }

    /// Whether `name` is a context parameter of the server of capability
    /// `m` (`mcp.git.git_add`: `mcp.git`): one that every capability of
    /// the server requires (`repo_path`), so it says *where* the server
    /// acts, not on what. A server of one capability has none.
    fn is_context_param(&self, m: &CapabilityManifest, name: &str) -> bool {
        let server = provider_of(m);
        if server.is_empty() {
            return false;
        }
        let prefix = format!("{server}.");
        let ids: Vec<String> = self
            .marketplace
            .ids()
            .into_iter()
            .filter(|i| i.starts_with(&prefix) && !i[prefix.len()..].contains('.'))
            .collect();
        ids.len() >= 2
            && ids.iter().all(|i| {
                self.marketplace
                    .get(i)
                    .is_some_and(|m| m.required_keys().iter().any(|k| k == name))
            })
    }

    /// Whether capability `m` serves sub-intent `s`, and how (the
    /// sub-intent's own refusals, [`sub_intent_refusal`], are checked
    /// once by the caller).
    fn evaluate(&self, s: &SubIntent, m: &CapabilityManifest, can_ask: bool) -> Fit {
        // "… using the 'calculate_velocity' function": the name says which
        // capability, and is no value for it.
        let unnamed: SubIntent;
        let s = match without_naming_mentions(s, m) {
            Some(t) => {
                unnamed = t;
                &unnamed
            }
            None => s,
        };
        // "Should I revoke the tokens?", "tell me how to delete X": a
        // question about an action never performs it.
        if crate::understand::bind::changes_things(m) {
            if let Some(how) = lexicon::asks_about_doing(&s.description) {
                return Fit::Refused(format!(
                    "the goal asks \"{how}\": a question about doing it, and {} changes something",
                    m.id
                ));
            }
            // "create a file named test.md" makes no directory.
            if crate::understand::bind::file_asked_of_a_folder_capability(&s.description, m) {
                return Fit::Refused(format!(
                    "the goal says a file, and {} changes folders",
                    m.id
                ));
            }
            // "delete /data/a if it is empty", "… after uploading it": a
            // condition or an order the plan would not keep.
            if let Some(word) = lexicon::condition(&s.description) {
                return Fit::Refused(format!(
                    "the goal says \"{word}\": a condition or an order a plan does not check, and {} changes something",
                    m.id
                ));
            }
        }
        let operations = operation_words(s);
        let changes = crate::understand::bind::changes_things(m);
        // A change is made only when the goal asks for it ("urgent
        // tickets to Paris" updates nothing).
        if s.from_text && changes && !lexicon::asks_for_change(&operations, m) {
            return Fit::Refused(format!(
                "the goal asks for no change, and {} changes something",
                m.id
            ));
        }
        // ... and a transaction asked is made, never replaced by a read
        // or by another change ("cancel my viewing" is no scheduling).
        if s.from_text
            && let Some(verb) = lexicon::transaction_not_made(&operations, m, changes)
        {
            return Fit::Refused(format!(
                "the goal asks to \"{verb}\", which {} does not do",
                m.id
            ));
        }
        // A question reads: its nouns ("how many *stars*", "the *new*
        // issues") are no data operation a reading capability contradicts.
        let ops = lexicon::data_operations(m);
        let reads = !ops.is_empty() && ops.iter().all(|o| *o == "read");
        let skip = (s.from_text && reads && is_question(&s.description)).then_some("data");
        if let Some(why) = lexicon::contradiction_outside(&operations, m, skip) {
            return Fit::Refused(why);
        }
        // Earlier results not passed by name feed the first free required
        // parameters (plan generation); they count as filling them.
        let spare_refs = s.unnamed_results().count();
        if !s.from_text {
            let dropped = plan_gen::dropped(s, m);
            if !dropped.is_empty() {
                return Fit::Refused(format!("would drop {}", dropped.join(", ")));
            }
            let open = plan_gen::unfillable(s, m);
            let chosen = Chosen {
                intent: s.clone(),
                manifest: m.clone(),
                read_first: vec![],
                read_as: BTreeMap::new(),
                words_first: vec![],
            };
            return if open.is_empty() {
                Fit::Serves(chosen, vec![])
            } else if can_ask {
                Fit::Asks(chosen, format!("would ask for {}", open.join(", ")), vec![])
            } else {
                Fit::Refused(format!("required {} not fillable", open.join(", ")))
            };
        }
        // "list the stars of acme/rocket" (how "how many" is read first)
        // is not served by one object: counting its fields would answer.
        let out_type = output_type(m);
        if first_word(&s.description) == "list"
            && out_type == Some("object")
            && !lists_what_is_asked(s, m)
        {
            return Fit::Refused(format!(
                "the goal lists; {} returns one object, not a list",
                m.id
            ));
        }
        // What is counted must be a list of what the goal names, which
        // the capability says it returns ("how many forks": not the
        // repository's issues).
        let counted_field = if s.counted {
            match counted_list(s, m) {
                Some(field) => field,
                None => {
                    return Fit::Refused(format!(
                        "the goal counts what it lists; {} does not say it returns a list of it",
                        m.id
                    ));
                }
            }
        } else {
            None
        };
        // The field of a structured result the question asks for, which
        // then answers it (its type, not the whole result's).
        let answer = match checked_answer_field(s, m) {
            Ok(a) => a,
            Err(why) => return Fit::Refused(why),
        };
        // "what is the top rated movie?": the first of a list `m` ranks
        // by what the question asks (`top_rated`).
        let ranked = if answer.is_none() {
            ranked_first(&s.description, m)
        } else {
            None
        };
        let answered = answer
            .as_ref()
            .and_then(|(field, _, _)| crate::plan_gen::answer_schema(m, field))
            .or_else(|| {
                ranked
                    .as_ref()
                    .and_then(|(field, _, _)| crate::plan_gen::answer_schema(m, field))
            });
        if let Some(why) = unanswered_question(&s.description, m, answered) {
            return Fit::Refused(why);
        }
        // "who produced the top rated album?": one of a ranked list, and
        // something of it, which the whole list is not.
        if answered.is_none()
            && is_question(&s.description)
            && returns_list(m)
            && let Some(phrase) = one_of_a_ranking(&s.description)
        {
            return Fit::Refused(format!(
                "the goal asks about one, \"{phrase}\"; {} returns a list (choosing from it needs an agent)",
                m.id
            ));
        }
        if let Some(why) = unasked_question(&s.description, m) {
            return Fit::Refused(why);
        }
        if let Some(why) = question_that_changes(&s.description, m) {
            return Fit::Refused(why);
        }
        if let Some(phrase) = conversation(&s.description) {
            return Fit::Refused(format!(
                "the goal talks to the assistant (\"{phrase}\": a conversation, not a task)"
            ));
        }
        let prefilled: BTreeSet<String> = s.params.keys().cloned().collect();
        let mut b = bind(&s.description, &s.mentions, m, &prefilled, spare_refs > 0);
        if !b.doubts.is_empty() {
            return Fit::Doubted(format!("would drop {}", b.unused.join(", ")));
        }
        if !b.unused.is_empty() {
            // Groups of values, one call each ("$30.45 in Chicago,
            // Illinois, $52.33 in Sacramento, California").
            let groups = (spare_refs == 0)
                .then(|| {
                    crate::understand::bind::grouped(&s.description, &s.mentions, m, &prefilled)
                })
                .flatten();
            match groups {
                Some(g) => b = g,
                None => return Fit::Refused(format!("would drop {}", b.unused.join(", "))),
            }
        }
        if let Some(why) = name_is_no_search_term(s, m, &b) {
            return Fit::Refused(why);
        }
        if let Some(why) = number_labelled_by_a_result_field(s, m, &b) {
            return Fit::Refused(why);
        }
        // "How many books does Jane Austen have?" is not the number of
        // hits of a search for "Jane Austen".
        if s.counted
            && let Some(a) = b.args.iter().find(|a| {
                Mention::text_of_label(&a.source, "name").is_some()
                    && ccos_marketplace::search::analyze(&a.param).iter().any(|w| {
                        ["queri", "q", "search", "term", "keyword", "text"].contains(&w.as_str())
                    })
            })
        {
            return Fit::Refused(format!(
                "the goal counts what {} has; the hits of a search for it ({} :{}) are not that",
                Mention::text_of_label(&a.source, "name").unwrap_or_default(),
                m.id,
                a.param
            ));
        }

        let judged = judged_words(s, m);
        let params = crate::understand::bind::params_of(m).0;
        if let Some(why) = unserved_qualifier_of(s, m, &b, &judged, &params) {
            return Fit::Refused(why);
        }
        // What the capability's own text and result fields say, read once
        // for the checks below.
        // What the steps reading a file first do ("read file", "lines"),
        // and what the file holds, computed once for the checks below.
        let read_words = read_step_words(&b);
        // (Without the files' own names: what accounts for the request's
        // verb, [`unaccounted_word`].)
        let mut verb_vocab = vocabulary_with_fields(m, &params);
        verb_vocab.extend(read_step_words_of(&b, false));
        let mut vocab = verb_vocab.clone();
        vocab.extend(read_words.iter().cloned());
        if let Some(why) = unknown_kind_named(s, m, &vocab) {
            return Fit::Refused(why);
        }
        if let Some(why) = unaccounted_word(s, m, &b, &judged, &params, (&vocab, &verb_vocab)) {
            return Fit::Refused(why);
        }
        if let Some(why) = word_after_a_number(s, m, &params, &read_words) {
            return Fit::Refused(why);
        }
        if let Some(why) = value_changed_before_use(&judged, m, &params, &vocab) {
            return Fit::Refused(why);
        }
        if let Some(why) = reversed_range(&b) {
            return Fit::Refused(why);
        }
        if let Some(why) = unset_named_parameter(s, m, &b, &judged, &params) {
            return Fit::Refused(why);
        }
        if let Some(why) = count_not_asked(&s.description, m, &read_words) {
            return Fit::Refused(why);
        }
        if let Some(why) = deletes_more_than_asked(s, m, &b) {
            return Fit::Refused(why);
        }
        // "list the duplicate numbers" asks for what repeats, which a
        // capability removing repeats (`unique`) does not give.
        if lexicon::asks_for_duplicates(&lexicon::words_of(&s.description))
            && !lexicon::name_words(m)
                .iter()
                .any(|w| w.starts_with("duplic"))
        {
            return Fit::Refused(format!(
                "the goal asks for the duplicates, which {} does not find",
                m.id
            ));
        }
        // "how many issues does acme/rocket have": counting one page of a
        // paged list is not the total.
        if s.counted
            && let Some(p) = params.iter().find(|p| {
                (p.name_words.contains("page") || p.name_words.contains("limit"))
                    && !b.args.iter().any(|a| a.param == p.name)
            })
        {
            return Fit::Refused(format!(
                "the goal counts what {} lists a page at a time (:{}): one page's count is not the total",
                m.id, p.name
            ));
        }
        // "find notes.txt and read *it*": the earlier result must reach a
        // parameter, or the step does something else ("read the graph").
        if spare_refs > 0 && crate::decompose::refers_back(&s.description) {
            let taken = filled_params(s, &b);
            let free = params
                .iter()
                .filter(|p| !taken.contains(p.name.as_str()))
                .count();
            if free < spare_refs {
                return Fit::Refused(format!(
                    "the goal refers to an earlier result, and {} has no parameter left to take it",
                    m.id
                ));
            }
        }
        let open: Vec<String> = b.missing.iter().skip(spare_refs).cloned().collect();
        let mut intent = s.clone();
        intent.mentions.clear();
        for a in &b.args {
            intent.params.insert(
                a.param.clone(),
                ParamValue::Literal(rtfs::from_json(&a.value)),
            );
        }
        intent.fan_out = b
            .fan_out
            .as_ref()
            .map(|(param, values)| crate::intent::FanOut {
                param: param.clone(),
                values: values.clone(),
                with: b.fan_with.iter().cloned().collect(),
                grouped: b.grouped,
            });
        let mut chosen = Chosen {
            intent,
            manifest: m.clone(),
            read_first: b.read_first.clone(),
            read_as: b.read_as.clone(),
            words_first: b.words_first.clone(),
        };
        let mut notes: Vec<String> = b.notes.iter().map(|n| format!("bound {n}")).collect();
        if let Some((field, word, _)) = answer {
            notes.push(format!(
                "answers with :{field} of the result (the question asks for \"{word}\")"
            ));
            chosen.intent.answer = Some(field);
        }
        if let Some(field) = counted_field {
            notes.push(format!("counts the list :{field} of the result"));
            chosen.intent.answer = Some(field);
        }
        if let Some((field, each, said)) = ranked {
            notes.push(format!(
                "answers with the first of :{field}, which {} ranks as asked (\"{said}\")",
                m.id
            ));
            chosen.intent.answer = Some(field);
            chosen.intent.items = Some(ItemsAnswer {
                only: None,
                each,
                count: false,
                top: true,
                distinct_by: None,
            });
        }
        if open.is_empty() {
            Fit::Serves(chosen, notes)
        } else if m.is_positional() && !b.args.is_empty() {
            // Operands by position ("subtract 2"): which one the stated
            // value is (2 - x or x - 2?) is not said; asking for the other
            // would guess it.
            Fit::Refused(format!(
                "the goal states one operand of {} and not which: {} is open",
                m.id,
                open.join(", ")
            ))
        } else if let Some(why) = guessed_around_the_question(&b, &params, &open) {
            Fit::Refused(why)
        } else if can_ask && open.len() == 1 && !b.args.is_empty() {
            Fit::Asks(chosen, format!("would ask for {}", open.join(", ")), notes)
        } else {
            Fit::Refused(format!(
                "nothing the goal states fills required {}",
                open.join(", ")
            ))
        }
    }

    /// A question about one thing the goal names ("what is the runtime of
    /// Copper Sky?") that no capability takes by name, answered in three
    /// steps: a search capability for the thing's kind (`search-movie`,
    /// by its one required text parameter), the one result whose `title`
    /// (or `name`) equals the name exactly (`ccos.data.filter`, then its
    /// first item's `id`), and the capability whose one required
    /// parameter is that kind's id (`movie_id`) and whose result answers
    /// the question ([`Planner::answer_path`]: the field `runtime`; the
    /// `crew` whose `job` is `Director`, by `name`).
    ///
    /// When things of several kinds could be meant ("what genres is Iron
    /// Meadow?": a movie or a TV show, the goal does not say) and each
    /// kind has its own search and details, every kind is looked up and
    /// the plan answers for the one kind that has the name: none, or
    /// several, is an error at run time, never a guess. A kind the goal
    /// names ("which *movies* did Mara Okafor direct") keeps only the
    /// capabilities whose names say it.
    ///
    /// Only when the policy allows every call and the details capability
    /// serves the rest of the question; no match at run time is an error,
    /// never another movie.
    fn by_name(&self, s: &SubIntent) -> Option<NameChain> {
        use crate::understand::MentionKind;
        use ccos_marketplace::search::analyze;
        if !s.from_text || !asks_to_be_told(&s.description) {
            return None;
        }
        let word_before =
            |m: &crate::understand::Mention| word_before(&s.description, m.span.start);
        // "who plays Captain Ife Adeyemi in Copper Sky?": a role in the
        // cast of the thing named after "in" (or "on": a record).
        let (name, role) = match s.mentions.as_slice() {
            [_] => (
                // A capitalised word inside the question is a name here
                // too ("who directed Inception?"): only an exact match
                // answers.
                s.mentions
                    .iter()
                    .find(|m| m.kind == MentionKind::Name && (!m.weak || m.span.start > 0))?,
                None,
            ),
            [role, thing]
                if role.kind == MentionKind::Name
                    && thing.kind == MentionKind::Name
                    && word_before(role)
                        .is_some_and(|w| lexicon::CAST_VERBS.contains(&w.as_str()))
                    && matches!(word_before(thing).as_deref(), Some("in" | "on")) =>
            {
                (thing, role.value.as_str())
            }
            _ => return None,
        };
        // "the album by Mara Okafor": a maker, not the thing's name.
        if word_before(name).as_deref() == Some("by") {
            return None;
        }
        // "Mara Okafor's biography": the name without the possessive.
        let bare = name.value.as_str().unwrap_or(&name.text).to_string();
        let allowed = |m: &CapabilityManifest| {
            let d = self.policy.decide_call(m);
            (!matches!(d, CallDecision::Deny { .. })).then(|| d.label().to_string())
        };
        let filter = self.marketplace.get(FILTER_CAPABILITY)?;
        allowed(&filter)?;
        // The question without the name: what it asks of the thing.
        let mut asked = s.clone();
        asked.mentions.clear();
        for m in s.mentions.iter() {
            asked.description.replace_range(
                m.span.start..m.span.end,
                &" ".repeat(m.span.end - m.span.start),
            );
        }
        let all = self.marketplace.list();
        // One pass over the catalog for the search capabilities by kind,
        // then one cheap pass for the capabilities taking one kind's id:
        // linear in the catalog, never a search per candidate.
        let searches = searches_by_kind(&all);
        // The question's words, read once for every capability judged.
        let question = question_words(&asked.description);
        let question_stems: BTreeSet<String> = analyze(&asked.description).into_iter().collect();
        let mut found: Vec<Lookup> = vec![];
        for d in &all {
            // The one required parameter, read off the schema before any
            // text analysis.
            let Some([required]) = d
                .input_schema
                .get("required")
                .and_then(|r| r.as_array())
                .map(Vec::as_slice)
            else {
                continue;
            };
            let Some(id_name) = required.as_str() else {
                continue;
            };
            let stems = analyze(id_name);
            let [entity, last] = stems.as_slice() else {
                continue;
            };
            if last != "id" || d.output_schema.is_none() {
                continue;
            }
            // Exactly one search capability for the kind.
            let Some([search]) = searches.get(entity).map(Vec::as_slice) else {
                continue;
            };
            let (params, positional) = crate::understand::bind::params_of(d);
            let Some(id) = params.iter().find(|p| p.name == id_name) else {
                continue;
            };
            if positional || !matches!(id.ty.as_deref(), Some("integer" | "string")) {
                continue;
            }
            let Some(path) = answer_path(&asked, &question, d, entity, role, &searches) else {
                continue;
            };
            // How many of the question's words name the kind of thing or
            // the capability ("which *movies*": `movie_credits`).
            let mut names: BTreeSet<String> = lexicon::name_words(d);
            names.extend(lexicon::name_words(&search.0));
            names.remove("search");
            names.remove("get");
            let kind_words = question_stems.intersection(&names).count();
            found.push(Lookup {
                hits: path.hits,
                kind_words,
                details: d.clone(),
                id_param: id.name.clone(),
                entity: entity.clone(),
                search: search.clone(),
                path,
                judged: None,
            });
        }
        // A kind whose capability does not serve the question is no kind
        // the name can be meant as here ("who directed X": not a book).
        // Each capability is judged once, on the question without the
        // words its answer path accounts for, its id from the pick (named
        // `PICK` until the kinds kept are known).
        let pick_placeholder = format!("{}-pick", s.id);
        for f in &mut found {
            let mut rest = asked.clone();
            for span in &f.path.used {
                rest.description
                    .replace_range(span.clone(), &" ".repeat(span.len()));
            }
            rest.params.insert(
                f.id_param.clone(),
                ParamValue::StepRef(pick_placeholder.clone()),
            );
            rest.depends_on.push(pick_placeholder.clone());
            // A list to count ("how many movies has X acted in" read as
            // "list …, count them"): the path gives the list.
            rest.counted = false;
            if sub_intent_refusal(&rest).is_none()
                && let Fit::Serves(chosen, notes) = self.evaluate(&rest, &f.details, false)
            {
                f.judged = Some((chosen.intent, notes));
            }
        }
        found.retain(|f| f.judged.is_some());
        if found.is_empty() {
            return None;
        }
        // The capability whose field the question names with the most
        // words ("original title": a movie's, not a company's country),
        // then whose names say the kind the question names.
        let most = found.iter().map(|f| f.hits).max()?;
        found.retain(|f| f.hits == most);
        let named = found.iter().map(|f| f.kind_words).max()?;
        found.retain(|f| f.kind_words == named);
        // Two capabilities of one kind both answer: which is not said.
        let kinds: BTreeSet<&String> = found.iter().map(|f| &f.entity).collect();
        if kinds.len() != found.len() {
            return None;
        }
        let several = found.len() > 1;
        let mut steps = vec![];
        let mut notes = vec![];
        let mut decision = None;
        let mut chosen_ids = vec![];
        let mut one_of = vec![];
        for (k, f) in found.iter_mut().enumerate() {
            let suffix = if several {
                (k + 1).to_string()
            } else {
                String::new()
            };
            let (search, query_param, key) = &f.search;
            let details_decision = allowed(&f.details)?;
            allowed(search)?;
            let find_id = format!("{}-find{suffix}", s.id);
            let pick_id = format!("{}-pick{suffix}", s.id);
            let answer_id = if several {
                format!("{}-answer{suffix}", s.id)
            } else {
                s.id.clone()
            };
            let (mut detail_intent, fit_notes) = f.judged.take()?;
            notes.extend(fit_notes);
            // The pick it was judged with, by its name in the plan.
            detail_intent
                .params
                .insert(f.id_param.clone(), ParamValue::StepRef(pick_id.clone()));
            for dep in &mut detail_intent.depends_on {
                if *dep == pick_placeholder {
                    dep.clone_from(&pick_id);
                }
            }
            detail_intent.id = answer_id.clone();
            detail_intent.description = s.description.clone();
            if let Some(field) = &f.path.field {
                detail_intent.answer = Some(field.clone());
            }
            detail_intent.items = f.path.items.clone();
            detail_intent.counted = s.counted;
            if several {
                detail_intent.unless_nil = Some(pick_id.clone());
            }
            let find = SubIntent::new(
                find_id.clone(),
                format!("search for {}", bare),
                IntentType::Fetch,
            )
            .with_param(query_param.clone(), rtfs::Value::string(&bare));
            let mut pick_manifest = filter.clone();
            // Its result: the search's results, so the id's type is known.
            if let Some(items) = search
                .output_schema
                .as_ref()
                .and_then(|o| o.get("properties"))
                .and_then(|p| p.get("results"))
            {
                pick_manifest.output_schema = Some(items.clone());
            }
            let mut pick = SubIntent::new(
                pick_id.clone(),
                format!("the result whose {key} is {}", bare),
                IntentType::Filter,
            )
            .with_step_param("items", find_id)
            .with_param("key", rtfs::Value::string(key))
            .with_param("equals", rtfs::Value::string(&bare));
            pick.first = true;
            pick.optional = several;
            pick.answer = Some("id".into());
            notes.push(format!(
                "looked up {:?} by name: {} {{:{query_param} …}}, the result whose {key} is exactly {:?}, its id -> :{}",
                bare, search.id, bare, f.id_param
            ));
            notes.push(format!("{} answers: {}", f.details.id, f.path.note));
            steps.push(ResolvedStep {
                intent: find,
                manifest: search.clone(),
            });
            steps.push(ResolvedStep {
                intent: pick,
                manifest: pick_manifest,
            });
            steps.push(ResolvedStep {
                intent: detail_intent,
                manifest: f.details.clone(),
            });
            chosen_ids.push(f.details.id.clone());
            one_of.push((pick_id, answer_id));
            // The strictest of the decisions (approval over allow).
            if decision.is_none() || details_decision != "allow" {
                decision = Some(details_decision);
            }
        }
        if several {
            notes.push(format!(
                "{:?} may be any of {} kinds of thing: each is looked up, and the one kind that has it answers",
                bare,
                found.len()
            ));
            let mut answer = SubIntent::new(s.id.clone(), s.description.clone(), IntentType::Fetch);
            answer.one_of = one_of;
            answer.depends_on = answer
                .one_of
                .iter()
                .flat_map(|(p, a)| [p.clone(), a.clone()])
                .collect();
            // The manifest only names a capability for the graph; the
            // step calls nothing itself.
            let manifest = found[0].details.clone();
            steps.push(ResolvedStep {
                intent: answer,
                manifest,
            });
        }
        Some(NameChain {
            steps,
            notes,
            decision: decision?,
            chosen: chosen_ids.join(" | "),
        })
    }

    /// The one fact store the policy lets the plan call, with the policy's
    /// decision on it; `None` when there is none, an error when there are
    /// several (the goal does not say which).
    fn fact_store(&self) -> Option<Result<(FactStore, String), String>> {
        let mut usable = vec![];
        for store in FactStore::all(&self.marketplace.list()) {
            let decisions = store.manifests().map(|m| self.policy.decide_call(m));
            if decisions
                .iter()
                .any(|d| matches!(d, CallDecision::Deny { .. }))
            {
                continue;
            }
            let decision = decisions
                .iter()
                .find(|d| matches!(d, CallDecision::NeedsApproval { .. }))
                .unwrap_or(&decisions[0])
                .label()
                .to_string();
            usable.push((store, decision));
        }
        match usable.len() {
            0 => None,
            1 => usable.pop().map(Ok),
            _ => Some(Err(format!(
                "the goal asks to remember a fact, and {} keep facts: it does not say which",
                usable
                    .iter()
                    .map(|(st, _)| st.manifests()[0].id.clone())
                    .collect::<Vec<_>>()
                    .join(" and ")
            ))),
        }
    }

    /// "remember that Alice likes tea": the trace, and the steps keeping
    /// the fact or why they cannot; `None` when the clause asks nothing
    /// of the kind or no fact store is there to keep it.
    fn remember(&self, s: &SubIntent) -> Option<(IntentTrace, Result<Vec<ResolvedStep>, String>)> {
        if !s.from_text {
            return None;
        }
        let fact = crate::understand::statement::fact_to_remember(&s.description)?;
        let store = self.fact_store()?;
        let mut trace = IntentTrace::new(s, "fact store");
        let kept = match (fact, store) {
            (Ok(fact), Ok((store, decision))) => {
                trace.notes.push(store.note(&fact));
                trace.chosen = Some(store.manifests()[1].id.clone());
                trace.decision = Some(decision);
                Ok(store.steps(s, &fact))
            }
            (Err(why), _) | (_, Err(why)) => Err(why),
        };
        Some((trace, kept))
    }

    /// "add a new person called Erin who is a pilot", when no capability
    /// serves it otherwise and no capability outside the fact store
    /// changes things of that kind ("create a branch called Main" is
    /// git's, never the memory's): the steps, the trace note, the chosen
    /// capability and the policy's decision.
    fn add_entity(&self, s: &SubIntent) -> Option<(Vec<ResolvedStep>, String, String, String)> {
        if !s.from_text {
            return None;
        }
        let fact = crate::understand::statement::entity_to_add(&s.description)?;
        let (store, decision) = self.fact_store()?.ok()?;
        let kind = ccos_marketplace::search::analyze(fact.kind.as_deref().unwrap_or_default());
        let own = store.manifests().map(|m| m.id.clone());
        let claimed = self.marketplace.list().into_iter().any(|m| {
            !own.contains(&m.id) && crate::understand::bind::changes_things(&m) && {
                let words = lexicon::name_words(&m);
                kind.iter().any(|k| words.contains(k))
            }
        });
        if claimed {
            return None;
        }
        let steps = store.steps(s, &fact);
        let chosen = steps.last()?.manifest.id.clone();
        Some((steps, store.note(&fact), chosen, decision))
    }

    /// "who works at Globex?", when no capability serves it otherwise and
    /// one capability the policy allows reads a knowledge graph's
    /// relations ([`RelationGraph`]): the steps, the trace note, the
    /// chosen capability and the policy's decision (the stricter of the
    /// two steps').
    fn related(&self, s: &SubIntent) -> Option<(Vec<ResolvedStep>, String, String, String)> {
        if !s.from_text {
            return None;
        }
        let q = crate::understand::statement::relation_question(&s.description)?;
        let related = self.marketplace.get("ccos.data.related")?;
        let allowed = |m: &CapabilityManifest| match self.policy.decide_call(m) {
            CallDecision::Deny { .. } => None,
            d => Some(d),
        };
        let answer = allowed(&related)?;
        let graphs: Vec<(RelationGraph, CallDecision)> =
            RelationGraph::all(&self.marketplace.list())
                .into_iter()
                .filter_map(|g| allowed(&g.manifest).map(|d| (g, d)))
                .collect();
        let [(graph, read)] = graphs.as_slice() else {
            return None;
        };
        let decision = if matches!(read, CallDecision::NeedsApproval { .. }) {
            read
        } else {
            &answer
        };
        Some((
            graph.steps(s, &q, &related),
            graph.note(&q, &related),
            related.id.clone(),
            decision.label().to_string(),
        ))
    }

    /// Preflights the plan; error findings are a planner bug.
    fn validate(&self, rtfs: &str) -> Result<(), PlanError> {
        let bug = |findings: String| PlanError::InvalidPlan {
            findings,
            rtfs: rtfs.to_string(),
        };
        let report = ccos_governance::preflight_str(rtfs, &*self.marketplace, &self.policy)
            .map_err(|e| bug(format!("parse: {}", e.message)))?;
        if report.is_clean() {
            return Ok(());
        }
        Err(bug(report
            .findings
            .iter()
            .filter(|f| f.severity == ccos_governance::Severity::Error)
            .map(|f| format!("{}: {}", f.code, f.message))
            .collect::<Vec<_>>()
            .join("; ")))
    }
}

/// A capability chosen for a sub-intent, with the sub-intent as it will
/// be planned (stated values bound to parameter names) and the files to
/// read first for data parameters (parameter, path).
struct Chosen {
    intent: SubIntent,
    manifest: CapabilityManifest,
    read_first: Vec<(String, String)>,
    /// The `read_first` parameters that take a list made of the file.
    read_as: BTreeMap<String, crate::understand::bind::ReadAs>,
    /// List parameters taking the words of a stated text (parameter,
    /// text), found first.
    words_first: Vec<(String, String)>,
}

/// Words of a question that name result fields whose names say it
/// otherwise ("born": `birthday`, `place_of_birth`), as stems. Only for
/// naming fields (not for ranking capabilities).
fn field_synonyms(stem: &str) -> impl Iterator<Item = &'static String> {
    static TABLE: std::sync::OnceLock<Vec<BTreeSet<String>>> = std::sync::OnceLock::new();
    const SETS: &[&[&str]] = &[
        &["born", "birth", "birthday"],
        &["die", "died", "death", "deathday"],
        &["directed", "director"],
        &["country", "nationality"],
        &["long", "length", "runtime", "duration"],
    ];
    let table = TABLE.get_or_init(|| {
        SETS.iter()
            .map(|set| {
                set.iter()
                    .flat_map(|w| ccos_marketplace::search::analyze(w))
                    .collect()
            })
            .collect()
    });
    table.iter().filter(move |set| set.contains(stem)).flatten()
}

/// A lookup by name ([`Planner::by_name`]): search, pick the exact match,
/// then the capability that answers, with the notes and decision of the
/// last.
struct NameChain {
    steps: Vec<ResolvedStep>,
    notes: Vec<String>,
    decision: String,
    /// The answering capability (several, `|`-separated, when several
    /// kinds are looked up).
    chosen: String,
}

/// One kind of thing a name may be looked up as ([`Planner::by_name`]).
struct Lookup {
    hits: usize,
    kind_words: usize,
    details: CapabilityManifest,
    id_param: String,
    entity: String,
    search: Search,
    path: AnswerPath,
    /// Its capability's fit to the rest of the question (the intent and
    /// the notes of [`Planner::evaluate`]), once judged to serve it.
    judged: Option<(SubIntent, Vec<String>)>,
}

/// A search capability, the query parameter and the key its results are
/// matched on.
type Search = (CapabilityManifest, String, String);

/// The search capabilities of `all` by the kind of thing they find (each
/// other word of their name, stemmed: `search-movie` under `movi`): a name
/// that says search, one required text (the query), and a result listing
/// `results` with an `id` and a `title` or `name`.
fn searches_by_kind(all: &[CapabilityManifest]) -> BTreeMap<String, Vec<Search>> {
    let mut out: BTreeMap<String, Vec<Search>> = BTreeMap::new();
    for m in all {
        let words = lexicon::name_words(m);
        if !words.contains("search") {
            continue;
        }
        if let Some(found) = search_shape(m) {
            for w in words.iter().filter(|w| w.as_str() != "search") {
                out.entry(w.clone()).or_default().push(found.clone());
            }
        }
    }
    out
}

/// `m` as a search capability (see [`searches_by_kind`]), or `None`.
fn search_shape(m: &CapabilityManifest) -> Option<Search> {
    let (params, positional) = crate::understand::bind::params_of(m);
    let required: Vec<_> = params.iter().filter(|p| p.required).collect();
    let ([q], false) = (required.as_slice(), positional) else {
        return None;
    };
    if q.ty.as_deref() != Some("string") {
        return None;
    }
    let item = m
        .output_schema
        .as_ref()?
        .get("properties")?
        .get("results")?
        .get("items")?
        .get("properties")?
        .as_object()?;
    if !item.contains_key("id") {
        return None;
    }
    let key = ["title", "name"]
        .into_iter()
        .find(|k| item.contains_key(*k))?;
    Some((m.clone(), q.name.clone(), key.to_string()))
}

/// How a question about one thing is answered from a details
/// capability's result ([`answer_path`]).
struct AnswerPath {
    /// The field of the result ([`SubIntent::answer`]).
    field: Option<String>,
    /// Then the list read out of it ([`SubIntent::items`]).
    items: Option<ItemsAnswer>,
    /// How many of the question's words name what is answered.
    hits: usize,
    /// Byte spans of the question's words the path accounts for (the verb
    /// "directed", "how many movies"), blanked before the rest of the
    /// question is judged.
    used: Vec<std::ops::Range<usize>>,
    /// What it answers with, for the trace.
    note: String,
}

/// A word of a question with its byte span and its stems, read once for
/// every capability a lookup by name judges ([`question_words`]).
type QuestionWord = (std::ops::Range<usize>, String, Vec<String>);

/// The words of `text` ([`word_spans`]) with their stems.
fn question_words(text: &str) -> Vec<QuestionWord> {
    word_spans(text)
        .into_iter()
        .map(|(r, w)| {
            let stems = ccos_marketplace::search::analyze(&w);
            (r, w, stems)
        })
        .collect()
}

/// The word of `text` right before byte `at`, lower-case ("*by* Mara
/// Okafor").
fn word_before(text: &str, at: usize) -> Option<String> {
    text.get(..at)?
        .split_whitespace()
        .next_back()
        .map(str::to_lowercase)
}

use lexicon::word_spans;

/// The kind of thing the maps with keys `item` are: the one kind whose
/// search results share the most keys with them, at least two (a movie's
/// crew shares `name` and `profile_path` with found people; a person's
/// movie credits `title`, `release_date`, ... with found movies).
fn kind_of_items<'a>(
    item: &serde_json::Map<String, serde_json::Value>,
    searches: &'a BTreeMap<String, Vec<Search>>,
) -> Option<&'a String> {
    let mut best: Vec<(&String, usize)> = vec![];
    for (kind, found) in searches {
        let [(search, _, _)] = found.as_slice() else {
            continue;
        };
        let Some(keys) = search
            .output_schema
            .as_ref()
            .and_then(|o| o.get("properties")?.get("results"))
            .and_then(map_items)
        else {
            continue;
        };
        let shared = item.keys().filter(|k| keys.contains_key(*k)).count();
        best.push((kind, shared));
    }
    let most = best.iter().map(|b| b.1).max().filter(|n| *n >= 2)?;
    match best
        .iter()
        .filter(|b| b.1 == most)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [(kind, _)] => Some(*kind),
        _ => None,
    }
}

/// The schema of the items of `schema` when it is a list of maps.
fn map_items(schema: &serde_json::Value) -> Option<&serde_json::Map<String, serde_json::Value>> {
    if !is_array(schema) {
        return None;
    }
    schema.get("items")?.get("properties")?.as_object()
}

/// Words of a question about one thing that ask and name nothing: the
/// question words, auxiliaries, articles and plain prepositions. Every
/// other word must name what is answered ([`answer_path`]): "what genres
/// did X *influence*", "what year was X *recorded*", "which books did X
/// direct *first*" are not answered by the genres, the year, the books.
/// ([`lexicon::AUXILIARIES`] are neutral too.)
const NEUTRAL_QUESTION_WORDS: &[&str] = &[
    "what", "which", "who", "whom", "whose", "when", "where", "how", "many", "be", "been", "the",
    "a", "an", "of", "in", "on", "for", "at", "from", "s", "me", "tell", "show", "give", "list",
    "please", "can", "could", "you", "i", "want", "know", "would", "like", "its", "it", "get",
    "find",
];

/// Verbs saying when a work came out, which a year or a date of it
/// answers ([`answer_path`]).
const RELEASE_VERBS: &[&str] = &["released", "published", "issued"];

/// How `d`'s result answers the question `asked` (about one thing, its
/// name blanked; `entity` is the kind looked up), or `None`:
///
/// - a field the question names ([`answer_field`]: "the *runtime* of X");
///   a list of maps is answered by each one's `name` (or `title`): "what
///   *genres* is X" → the genres' names;
/// - a crew job ([`lexicon::CREW_JOBS`]: "who *directed* X") → the maps of
///   a list whose `job` is that job; a cast verb ([`lexicon::CAST_VERBS`]:
///   "who *starred* in X") → the list `cast`; a word naming a key of its
///   maps says which ("what *characters* did X play").
///
/// The kind of thing asked for decides the key read: "who" asks for a
/// `name`; "which/what/how many *movies*" for what the movie search
/// matches on (`title`), so a movie's crew (people) does not answer it;
/// "how many" counts (distinct values). Every other word of the question
/// must be one of [`NEUTRAL_QUESTION_WORDS`], name the kind or the
/// capability, or name what is answered: a word nothing accounts for
/// ("which shows", "co-direct", "first") means the path does not answer.
fn answer_path(
    asked: &SubIntent,
    words: &[QuestionWord],
    d: &CapabilityManifest,
    entity: &str,
    role: Option<&str>,
    searches: &BTreeMap<String, Vec<Search>>,
) -> Option<AnswerPath> {
    use ccos_marketplace::search::analyze;
    let word = |i: usize| words.get(i).map(|w| w.1.as_str()).unwrap_or("");
    let mut used: Vec<std::ops::Range<usize>> = vec![];
    let mut count = false;
    // The kind of thing asked for, and the key its search matches on.
    let mut want: Option<String> = None;
    let mut want_kind: Option<String> = None;
    let one_search = |stem: &str| match searches.get(stem).map(Vec::as_slice) {
        Some([(_, _, key)]) => Some(key.clone()),
        _ => None,
    };
    let kind_at = match word(0) {
        "who" | "whom" => {
            want = Some("name".into());
            if one_search("person").is_some() {
                want_kind = Some("person".into());
            }
            None
        }
        // "list movies has X acted in": a count's list ("how many").
        "which" | "what" | "list" => Some(1),
        "how" if word(1) == "many" => {
            count = true;
            Some(2)
        }
        _ => None,
    };
    if let Some(i) = kind_at
        && let Some([stem]) = words.get(i).map(|w| w.2.as_slice())
        && let Some(key) = one_search(stem)
    {
        want = Some(key);
        want_kind = Some(stem.clone());
        // "which movies *did* ...", "how many movies *has* ...": the
        // question's words and auxiliary go with the kind asked.
        let aux = lexicon::AUXILIARIES.contains(&word(i + 1));
        let upto = if aux { i + 1 } else { i };
        used.extend((0..=upto).map(|j| words[j].0.clone()));
    }
    // Words that name the kind looked up or the capability ("the *movie*
    // X", "the *details* of X") ask nothing more.
    let mut kind_stems: BTreeSet<String> = lexicon::name_words(d);
    kind_stems.insert(entity.to_string());
    let neutral = |(_, w, stems): &QuestionWord| {
        NEUTRAL_QUESTION_WORDS.contains(&w.as_str())
            || lexicon::AUXILIARIES.contains(&w.as_str())
            || stems.iter().all(|st| kind_stems.contains(st))
    };
    // The words no part of the path accounts for, `said` being the words
    // naming what is answered.
    let unaccounted = |said: &BTreeSet<String>, used: &[std::ops::Range<usize>]| -> Vec<String> {
        words
            .iter()
            .filter(|(r, _, _)| !used.iter().any(|u| u.start <= r.start && r.end <= u.end))
            .filter(|qw| !neutral(qw) && !said.contains(&qw.1))
            .map(|(_, w, _)| w.clone())
            .collect()
    };
    let each_of = |item: &serde_json::Map<String, serde_json::Value>| -> Option<String> {
        match &want {
            Some(k) => item.contains_key(k).then(|| k.clone()),
            None => ["name", "title"]
                .into_iter()
                .find(|k| item.contains_key(*k))
                .map(str::to_string),
        }
    };
    let props = d.output_schema.as_ref()?.get("properties")?.as_object()?;
    // A field the question names.
    if let Some((field, said, hits)) = answer_field(asked, d).filter(|_| role.is_none()) {
        let schema = props.get(&field)?;
        // The words naming the field, and those of its description
        // ("what year was X *released*": `year`, "the release year").
        let described: BTreeSet<String> = schema
            .get("description")
            .and_then(|t| t.as_str())
            .map(|t| analyze(t).into_iter().collect())
            .unwrap_or_default();
        let mut said_words: BTreeSet<String> = said.split(' ').map(str::to_string).collect();
        said_words.extend(
            words
                .iter()
                .filter(|(_, _, stems)| {
                    !stems.is_empty() && stems.iter().all(|st| described.contains(st))
                })
                .map(|(_, w, _)| w.clone()),
        );
        // "what year was X *released*": a year or a date is when the thing
        // came out.
        let lower_key = field.to_lowercase();
        if lower_key.contains("year") || lower_key.contains("date") {
            said_words.extend(RELEASE_VERBS.iter().map(|w| w.to_string()));
        }
        if !unaccounted(&said_words, &used).is_empty() {
            return None;
        }
        let Some(item) = map_items(schema) else {
            // One value: only when the question asks for no kind of thing
            // a list would hold.
            return (want.is_none() && !count).then(|| AnswerPath {
                note: format!(":{field} (the question asks for \"{said}\")"),
                field: Some(field),
                items: None,
                hits,
                used: vec![],
            });
        };
        let each = each_of(item)?;
        return Some(AnswerPath {
            note: format!("the {each} of each of :{field} (the question asks for \"{said}\")"),
            field: Some(field),
            items: Some(list_answer(item, None, each, count)),
            hits,
            used,
        });
    }
    // A crew job or a cast verb, said in the question.
    let job = words.iter().find_map(|(_, w, _)| {
        lexicon::CREW_JOBS
            .iter()
            .find(|(said, _)| said.contains(&w.as_str()))
            .map(|(said, job)| (*said, *job))
    });
    type Only = Option<(String, String)>;
    let (field, item, only, said): (&String, _, Only, Vec<&str>) = match job {
        // A role is a cast member's.
        Some(_) if role.is_some() => return None,
        Some((said, job)) => {
            let (field, item) = props.iter().find_map(|(k, sch)| {
                map_items(sch)
                    .filter(|i| i.contains_key("job"))
                    .map(|i| (k, i))
            })?;
            (
                field,
                item,
                Some(("job".to_string(), job.to_string())),
                said.to_vec(),
            )
        }
        None => {
            if !words
                .iter()
                .any(|(_, w, _)| lexicon::CAST_VERBS.contains(&w.as_str()))
            {
                return None;
            }
            let (field, cast) = props.get_key_value("cast")?;
            let cast = map_items(cast)?;
            // "who plays Captain Ife in X": the cast member whose
            // `character` is that role.
            let only = match role {
                Some(r) => {
                    cast.get("character")?;
                    Some(("character".to_string(), r.to_string()))
                }
                None => None,
            };
            (field, cast, only, lexicon::CAST_VERBS.to_vec())
        }
    };
    // A cast or crew lists things of another kind than the one looked
    // up (a movie's people, a person's movies), of the kind asked for.
    let listed = kind_of_items(item, searches);
    if listed.is_none_or(|k| k == entity) || want_kind.as_ref().is_some_and(|w| Some(w) != listed) {
        return None;
    }
    let mut each = each_of(item)?;
    let said: BTreeSet<String> = said.iter().map(|w| w.to_string()).collect();
    // "what *characters* did X play": the one left word naming a key of
    // the maps is what is read of each.
    let left = unaccounted(&said, &used);
    match left.as_slice() {
        [] => {}
        // The very key, or its plural ("popular" is no `popularity`).
        [w] if want.is_none() && word(1) == w => {
            let key = item
                .keys()
                .find(|k| *w == **k || *w == format!("{k}s") || *w == format!("{k}es"))?;
            each = key.clone();
        }
        _ => return None,
    }
    used.extend(
        words
            .iter()
            .filter(|(_, w, _)| said.contains(w) || left.contains(w))
            .map(|(r, _, _)| r.clone()),
    );
    let note = match &only {
        Some((k, v)) => format!("the {each} of each of :{field} whose {k} is {v:?}"),
        None => format!("the {each} of each of :{field}"),
    };
    Some(AnswerPath {
        field: Some(field.clone()),
        items: Some(list_answer(item, only, each, count)),
        hits: 1,
        used,
        note: if count {
            format!("how many distinct: {note}")
        } else {
            note
        },
    })
}

/// The answer read out of a list of maps with keys `item`: those `only`
/// keeps, each one's `each`, one per `id` when they have one, or how many.
fn list_answer(
    item: &serde_json::Map<String, serde_json::Value>,
    only: Option<(String, String)>,
    each: String,
    count: bool,
) -> ItemsAnswer {
    ItemsAnswer {
        only,
        distinct_by: item.contains_key("id").then(|| "id".to_string()),
        each: Some(each),
        count,
        top: false,
    }
}

/// Openings of a question that asks for one thing ("*what is the*
/// capital of …", "*who is the* director …").
const ASKS_FOR_ONE: &[&str] = &[
    "what is the ",
    "what's the ",
    "which is the ",
    "who is the ",
];

/// Words that make "the X" the first of a ranking ("the *top* rated
/// movie", "the *most* popular").
const RANKING_WORDS: &[&str] = &["top", "most", "best", "highest", "greatest"];

/// Why a name the goal states is no search term of search capability `m`:
/// a search finds things *called* its query, and the question asks about
/// what the named thing has or is ("what players does *Phoenix Rising*
/// have?", "what team is *Marco Silva* on?", "the players *of* Orange",
/// "*Conor O'Brien's* team"), not for things called so.
fn name_is_no_search_term(
    s: &SubIntent,
    m: &CapabilityManifest,
    b: &crate::understand::bind::Binding,
) -> Option<String> {
    if !lexicon::name_words(m).contains("search") || search_shape(m).is_none() {
        return None;
    }
    for a in &b.args {
        let Some(name) = Mention::text_of_label(&a.source, "name") else {
            continue;
        };
        let name = name.as_ref();
        // Where the goal says it (a name of a list too: "the players of
        // Phoenix and Orange").
        let Some(at) = s.description.find(name) else {
            continue;
        };
        let before = word_before(&s.description, at);
        let after = &s.description[at + name.len()..];
        let owner = before
            .as_deref()
            .is_some_and(|w| w == "of" || lexicon::AUXILIARIES.contains(&w))
            || after.starts_with("'s")
            || after.starts_with("\u{2019}s");
        if owner {
            return Some(format!(
                "the goal asks about what {name} has or is; {} finds things called {name:?}, which is not that",
                m.id
            ));
        }
    }
    None
}

/// Why a number the goal labels with the name of a field of `m`'s result,
/// or with "number" while it went into an id, is not the parameter it was
/// bound to: "the player with *number* 21" is the player whose `number`
/// is 21, not `player_id` 21.
fn number_labelled_by_a_result_field(
    s: &SubIntent,
    m: &CapabilityManifest,
    b: &crate::understand::bind::Binding,
) -> Option<String> {
    use crate::understand::MentionKind;
    use ccos_marketplace::search::analyze;
    let empty = serde_json::Map::new();
    let props = m
        .output_schema
        .as_ref()
        .and_then(|o| o.get("properties"))
        .and_then(|p| p.as_object())
        .unwrap_or(&empty);
    for a in &b.args {
        let Some(shown) = Mention::text_of_label(&a.source, "number") else {
            continue;
        };
        let Some(men) = s
            .mentions
            .iter()
            .find(|x| x.kind == MentionKind::Number && x.text == shown)
        else {
            continue;
        };
        let mut before = s.description[..men.span.start]
            .split_whitespace()
            .rev()
            .map(|w| {
                w.trim_matches(|c: char| !c.is_alphanumeric())
                    .to_lowercase()
            });
        let Some(label) = before.next() else {
            continue;
        };
        let param_words = analyze(&a.param);
        // "order number 123": the order's number is its id.
        if label == "number"
            && before
                .next()
                .is_some_and(|w| analyze(&w).iter().any(|st| param_words.contains(st)))
        {
            continue;
        }
        let label_stems = analyze(&label);
        if label_stems.is_empty() || label_stems.iter().all(|st| param_words.contains(st)) {
            continue;
        }
        // "number 21" into an id: a shirt's, a room's, a seat's number is
        // no id ("issue number 3" fills `issue_number`, said above).
        let id_param = param_words.last().is_some_and(|w| w == "id");
        if (label == "number" && id_param) || props.keys().any(|k| k.to_lowercase() == label) {
            return Some(format!(
                "the goal's {label} {shown} is the result's {label}, not :{} of {}",
                a.param, m.id
            ));
        }
    }
    None
}

/// "the top rated album", "the most popular one" in a question about one
/// thing (not "what *are* the most popular movies?"): the phrase.
fn one_of_a_ranking(text: &str) -> Option<String> {
    let lower = text.to_lowercase();
    if lower.contains(" are the ") {
        return None;
    }
    let words = word_spans(&lower);
    // "the top rated album", "which team *is* top rated".
    let at = words.windows(2).position(|w| {
        matches!(w[0].1.as_str(), "the" | "is" | "was") && RANKING_WORDS.contains(&w[1].1.as_str())
    })?;
    let phrase: Vec<&str> = words[at..]
        .iter()
        .take(4)
        .map(|(_, w)| w.as_str())
        .collect();
    Some(phrase.join(" "))
}

/// When the question asks for the one first thing of a ranking that `m`'s
/// name says it ranks by ("what is the top rated movie?" of
/// `GET_movie-top_rated`, "what's the most popular movie?" of
/// `GET_movie-popular`): the list field of its result (its one list of
/// maps), the key answering (`name` for "who", else `title` or `name`),
/// and the words that said it. The words after the ranking word must be
/// words of `m`'s name, at least two with it ("the best movie" names no
/// ranking `m` has: not answered).
fn ranked_first(text: &str, m: &CapabilityManifest) -> Option<(String, Option<String>, String)> {
    use ccos_marketplace::search::analyze;
    let lower = text.to_lowercase();
    let rest = ASKS_FOR_ONE.iter().find_map(|p| lower.strip_prefix(p))?;
    let words = word_spans(rest);
    let (_, marker) = words.first()?;
    if !RANKING_WORDS.contains(&marker.as_str()) {
        return None;
    }
    let name = lexicon::name_words(m);
    let in_name = |w: &str| {
        let stems = analyze(w);
        !stems.is_empty() && stems.iter().all(|st| name.contains(st))
    };
    let run: Vec<&str> = words[1..]
        .iter()
        .map(|(_, w)| w.as_str())
        .take_while(|w| in_name(w))
        .collect();
    let said = usize::from(in_name(marker)) + run.len();
    if run.is_empty() || said < 2 {
        return None;
    }
    // Nothing after the ranked thing but "now": "the most popular movie
    // *genre*", "the top rated movie*'s budget*" ask something else.
    let after: Vec<&str> = words[1 + run.len()..]
        .iter()
        .map(|(_, w)| w.as_str())
        .collect();
    if !matches!(
        after.as_slice(),
        [] | ["now"] | ["right", "now"] | ["currently"] | ["today"] | ["at", "the", "moment"]
    ) {
        return None;
    }
    let props = m.output_schema.as_ref()?.get("properties")?.as_object()?;
    let lists: Vec<(&String, &serde_json::Map<String, serde_json::Value>)> = props
        .iter()
        .filter_map(|(k, sch)| Some((k, map_items(sch)?)))
        .collect();
    let [(field, item)] = lists.as_slice() else {
        return None;
    };
    let each = if lower.starts_with("who") {
        Some("name")
    } else {
        ["title", "name"]
            .into_iter()
            .find(|k| item.contains_key(*k))
    };
    if each.is_some_and(|k| !item.contains_key(k)) {
        return None;
    }
    Some((
        field.to_string(),
        each.map(str::to_string),
        format!("{marker} {}", run.join(" ")),
    ))
}

/// How a candidate fits a sub-intent.
enum Fit {
    /// It serves it with what the goal states (and earlier results).
    Serves(Chosen, Vec<String>),
    /// It would serve it after asking the user one thing (why, and how
    /// the stated values were placed).
    Asks(Chosen, String, Vec<String>),
    /// It does not serve it, and why.
    Refused(String),
    /// It does not serve it because a value the goal states does not fit
    /// where it would go, by what the value says ("Saturday" as a `show`):
    /// a doubt about the goal, so no other capability is tried.
    Doubted(String),
}

/// Why chosen `c` would work on an earlier step's number (or yes/no)
/// written out as text: a text capability that reads its input ("count
/// *its* words", "split it", "reverse it") given a count. The goal's "it"
/// then means something else — the file counted — and the plan would
/// answer about the digits (attack trial: "count the lines of notes.txt
/// and then count its words" answered 1). Passing the number on as a
/// message ("add 2 and 3, then echo it") is no reading of it.
fn text_of_a_number(c: &Chosen, steps: &[ResolvedStep]) -> Option<String> {
    if crate::understand::bind::takes_user_text(&c.manifest)
        || !c
            .manifest
            .effects
            .iter()
            .all(|e| *e == ccos_marketplace::Effect::Pure)
    {
        return None;
    }
    let (params, _) = crate::understand::bind::params_of(&c.manifest);
    let reads_text = |param: &str| {
        params.iter().any(|p| {
            p.name == param
                && p.ty.as_deref() == Some("string")
                && ccos_marketplace::search::analyze(&p.name)
                    .iter()
                    .any(|w| w == "text")
        })
    };
    // The earlier results it takes: by a parameter, or — a dependency no
    // parameter names — in its first free required parameter, as the
    // plan fills it ("how many words does *it* have").
    let referenced: Vec<(String, &String)> = c
        .intent
        .params
        .iter()
        .filter_map(|(param, v)| match v {
            ParamValue::StepRef(id) => Some((param.clone(), id)),
            _ => None,
        })
        .collect();
    let first_free = params
        .iter()
        .find(|p| p.required && !c.intent.params.contains_key(&p.name))
        .map(|p| p.name.clone());
    let implicit = c
        .intent
        .depends_on
        .iter()
        .filter(|d| !referenced.iter().any(|(_, id)| id == d))
        .filter_map(|d| first_free.clone().map(|p| (p, d)));
    referenced
        .iter()
        .cloned()
        .chain(implicit)
        .find_map(|(param, id)| {
            let producer = steps.iter().find(|st| &st.intent.id == id)?;
            let produced = output_type(&producer.manifest)?;
            (matches!(produced, "integer" | "number" | "boolean") && reads_text(&param)).then(|| {
                format!(
                    "its :{param} would be the {produced} {} returns, written out: what the goal's reference means is not that",
                    producer.manifest.id
                )
            })
        })
}

/// Why `c` cannot take an earlier result where it wants a number: a
/// step whose capability returns a list, a record or a yes or no (with no
/// field of it picked), or that runs once per item, gives no number to
/// compute with ("add 5 to the largest file in docs" would add to a
/// file's record). A text may be one ("ask me for a number and double
/// it"): it is parsed when run.
fn number_of_a_non_number(c: &Chosen, steps: &[ResolvedStep]) -> Option<String> {
    let (params, _) = crate::understand::bind::params_of(&c.manifest);
    c.intent.params.iter().find_map(|(param, v)| {
        let ParamValue::StepRef(id) = v else {
            return None;
        };
        let p = params.iter().find(|p| &p.name == param)?;
        if !matches!(p.ty.as_deref(), Some("number" | "integer")) {
            return None;
        }
        let producer = steps.iter().find(|st| &st.intent.id == id)?;
        let it = &producer.intent;
        let produced = if it.each.is_some() || it.fan_out.is_some() {
            "array"
        } else if it.answer.is_some() || it.first || it.items.is_some() {
            return None;
        } else {
            output_type(&producer.manifest)?
        };
        matches!(produced, "array" | "object" | "boolean").then(|| {
            format!(
                "its :{param} would be the {produced} that {} gives, which is no number",
                producer.manifest.id
            )
        })
    })
}

/// Why `c` does not serve sub-intent `s`, a lone verb after the request
/// `before` ("Find hotels in Denver, then *reserve*"), when it does not
/// take that request's result: it would act on something else (attack
/// trial: an empty POST `reservePermit {}`, a DELETE `emptyTrash {}`).
/// A noun there is the earlier verb's new object ("List the tasks, then
/// *messages*"), served by a capability named for both.
fn lone_verb_acting_elsewhere(
    before: Option<&SubIntent>,
    s: &SubIntent,
    c: &Chosen,
) -> Option<String> {
    let before = before?;
    if !s.from_text || !s.depends_on.is_empty() || !crate::decompose::is_plain_word(&s.description)
    {
        return None;
    }
    let own = crate::understand::lexicon::name_words(&c.manifest);
    let named = |w: &str| {
        let stems = ccos_marketplace::search::analyze(w);
        !stems.is_empty() && stems.iter().all(|st| own.contains(st))
    };
    let gapped = before
        .description
        .split_whitespace()
        .next()
        .is_some_and(|v| crate::understand::lexicon::is_action_verb(v) && named(v))
        && named(s.description.trim());
    (!gapped).then(|| {
        format!(
            "{:?} says what to do but not to what, and {} does not take the earlier result",
            s.description.trim(),
            c.manifest.id
        )
    })
}

/// Why asking for the one open required parameter would rest on a guess:
/// a stated value went to an optional parameter although the open one
/// takes its type ("the power of 3 raised to the power 4" put 3 in
/// `mod` and asked for the exponent; "the working hours of Louvre Museum"
/// put the museum in `day` and asked for the museum). Which value is the
/// asked one is then not said.
fn guessed_around_the_question(
    b: &crate::understand::bind::Binding,
    params: &[crate::understand::bind::Param],
    open: &[String],
) -> Option<String> {
    let [asked] = open else {
        return None;
    };
    let asked_ty = params.iter().find(|p| &p.name == asked)?.ty.clone();
    let same_type = |v: &serde_json::Value| match asked_ty.as_deref() {
        None => v.is_string(),
        Some(t) => ccos_marketplace::schema::json_has_type(v, t),
    };
    b.args.iter().find_map(|a| {
        let optional = params.iter().any(|p| p.name == a.param && !p.required);
        (optional && same_type(&a.value)).then(|| {
            format!(
                "it would put {} in optional :{} and ask for required :{asked}: which is which is not said",
                a.source, a.param
            )
        })
    })
}

/// Why no capability can serve sub-intent `s`, whichever it is (it opens
/// with the words quoted, which [`no_fit_reason`] says once):
/// - "Show the popular teams. What about players?": a variation the
///   splitter could not complete from the previous clause asks for it
///   again, differently; which value changes is not said;
/// - "The list is [3,1,2]. Sort [9,8,7].": a statement asks for nothing;
///   what to do with its values is not said.
fn sub_intent_refusal(s: &SubIntent) -> Option<String> {
    if !s.from_text {
        return None;
    }
    // "I would like to know why config.json is so big": a reason, which
    // no capability's result is (attack trial: the file's metadata was
    // the answer).
    let words = lexicon::words_of(&s.evidence_text());
    if words.iter().any(|w| w == "why") {
        return Some("the goal asks why: a reason, which no capability's result gives".into());
    }
    // "… how the size of data.json is computed": a way of doing, not a
    // value (attack trial: the file's metadata answered). ("How to
    // obtain the case information of …" asks for it: BFCL.)
    if let Some(p) = words.windows(2).find(|p| {
        p[0] == "how" && matches!(p[1].as_str(), "the" | "a" | "an" | "this" | "that" | "it")
    }) {
        return Some(format!(
            "the goal asks \"how {}\" …: a way of doing, which no capability's result gives",
            p[1]
        ));
    }
    // "count each word in words.txt": a count per word, which one count
    // is not (attack trial: the words were counted, 7).
    let counts =
        words.iter().any(|w| w == "count") || words.windows(2).any(|p| p == ["how", "many"]);
    if counts
        && s.each.is_none()
        && let Some(w) = words
            .iter()
            .find(|w| matches!(w.as_str(), "each" | "every"))
    {
        return Some(format!(
            "the goal counts \"{w}\" one apart, which one count does not give"
        ));
    }
    if let Some(marker) = crate::decompose::unresolved_variation(&s.description) {
        return Some(format!(
            "\"{marker}\" asks for an earlier request again with something changed, and which of its values changes is not said"
        ));
    }
    // The whole goal a noun phrase ("the first 3 numbers of numbers.txt")
    // names what it wants, as an operand of arithmetic does ("add 5 to
    // *the largest number in numbers.txt*"); a clause of several is
    // context.
    let noun_phrase_goal = matches!(&s.intent_type, IntentType::Other(t) if t == "goal" || t == crate::understand::arith::OPERAND_TYPE)
        && !crate::decompose::has_a_sentence_verb(&s.description);
    (crate::decompose::is_statement(&s.description) && !noun_phrase_goal).then(|| {
        format!(
            "\"{}\" states facts and asks for nothing (what to do with them is not said)",
            s.description
        )
    })
}

/// Whether `step` asks the user a yes-or-no question ("ask me *if* I want
/// to continue", "… *whether* to proceed", "ask me to confirm").
fn asks_the_user_yes_or_no(step: &SubIntent) -> bool {
    if step.intent_type != IntentType::AskUser {
        return false;
    }
    let prompt = match step.params.get("prompt") {
        Some(ParamValue::Literal(v)) => v.as_str().map(str::to_lowercase).unwrap_or_default(),
        _ => String::new(),
    };
    let d = step.description.to_lowercase();
    // Opening a yes-or-no question, or naming one anywhere ("ask me *do*
    // I want to go on", "ask for my *approval*", "… *whether* I'm ready":
    // attack trials).
    let yes_no = |t: &str| {
        let t = t
            .trim_start_matches([':', ' '])
            .trim_start_matches("to ")
            .trim_start_matches("for ")
            .trim_start_matches("my ")
            .trim_start_matches("a ");
        [
            "if ",
            "whether ",
            "confirm",
            "permission",
            "approv",
            "ok ",
            "okay",
            "do ",
            "does ",
            "did ",
            "should ",
            "shall ",
            "can ",
            "could ",
            "may ",
            "will ",
            "would ",
            "is ",
            "are ",
            "am ",
            "yes",
        ]
        .iter()
        .any(|w| t.starts_with(w) || t == w.trim())
            || [
                " whether ",
                " if ",
                "yes or no",
                "yes/no",
                " approval",
                " permission",
                " confirmation",
            ]
            .iter()
            .any(|w| t.contains(w))
    };
    yes_no(&prompt)
        || [
            "ask me",
            "ask the user",
            "ask for",
            "prompt me",
            "check with me",
        ]
        .iter()
        .any(|lead| d.strip_prefix(lead).is_some_and(yes_no))
}

/// The reason a sub-intent has no capability, from its trace.
fn no_fit_reason(t: &IntentTrace) -> String {
    // A reason that is the sub-intent's, not a capability's (a statement,
    // an unresolved variation: they open with the words quoted), is said
    // once.
    if let Some(first) = t.skipped.first()
        && first.reason.starts_with('"')
        && t.skipped.iter().all(|k| k.reason == first.reason)
    {
        return format!("no capability serves it: {}", first.reason);
    }
    if !t.skipped.is_empty() {
        let parts: Vec<String> = t
            .skipped
            .iter()
            .take(3)
            .map(|k| format!("{} {}", k.capability_id, k.reason))
            .collect();
        return format!("no capability serves it: {}", parts.join("; "));
    }
    if t.filtered.is_empty() {
        "no capability fits".into()
    } else {
        "every fitting capability is denied by the policy".into()
    }
}

/// Whether the value `v` is capability `m`'s name or id (any case).
fn names_capability(v: &str, m: &CapabilityManifest) -> bool {
    let v = v.trim();
    !v.is_empty() && (v.eq_ignore_ascii_case(&m.name) || v.eq_ignore_ascii_case(&m.id))
}

/// Whether `v` is written as a program's identifier: `_` or `.` inside,
/// or an inner capital (`calculate_velocity`, `finance.predict`,
/// `getForecast`), unlike an English word.
fn reads_as_identifier(v: &str) -> bool {
    v.contains(['_', '.'])
        || v.chars()
            .zip(v.chars().skip(1))
            .any(|(a, b)| a.is_lowercase() && b.is_uppercase())
}

/// Whether `text` says `words` whole, case aside ("Search *NY Times*
/// articles" says "NY Times", not "NY Time").
fn says_words(text: &str, words: &str) -> bool {
    lexicon::says_whole(text, words, &[])
}

/// `s` without the mentions that name capability `m` itself ("use the
/// *'predict_house_price'* function", "with *number_theory.gcd*"): a
/// quoted, path-like or plain value equal to its name or id, when that
/// reads as a program's identifier (`_`, `.` or an inner capital: a
/// capability named "weather" is no reference in "look up 'weather'") or
/// the next word says so ("the 'convert' function", "the *search* tool").
/// `None` when none does.
fn without_naming_mentions(s: &SubIntent, m: &CapabilityManifest) -> Option<SubIntent> {
    if !s.from_text {
        return None;
    }
    let provider = lexicon::provider_words(m);
    // "Search *NY Times* articles" of `ny_times.searchArticles`,
    // "Search NY Times articles": the service its id and description
    // name, no section of it (attack trial: `{:section "NY Times"}`).
    let names_the_service = |men: &Mention, v: &str| {
        let stems = ccos_marketplace::search::analyze(v);
        men.kind == crate::understand::mentions::MentionKind::Name
            && !stems.is_empty()
            && stems.iter().all(|st| provider.contains(st))
            && says_words(&m.description, v)
    };
    let naming = |men: &Mention| {
        let Some(v) = men.value.as_str() else {
            return false;
        };
        names_the_service(men, v)
            || names_capability(v, m)
                && (reads_as_identifier(v)
                    || men.cue.after.first().is_some_and(|w| {
                        matches!(
                            w.as_str(),
                            "function" | "tool" | "capability" | "api" | "method"
                        )
                    }))
    };
    if !s.mentions.iter().any(naming) {
        return None;
    }
    let mut t = s.clone();
    t.mentions.retain(|men| !naming(men));
    Some(t)
}

/// Whether a requires-agent line for the clause `description` with
/// `reason` names a part of `goal`: the clause is one (a goal of several
/// clauses), or the reason quotes a piece of the goal that is not all of
/// it.
fn names_part_of(goal: &str, description: &str, reason: &str) -> bool {
    let goal_lc = goal.trim().to_lowercase();
    let part = |t: &str| {
        let t = t.trim().to_lowercase();
        t.chars().any(char::is_alphanumeric) && t != goal_lc && goal_lc.contains(&t)
    };
    part(description) || reason.split('"').skip(1).step_by(2).any(part)
}

/// A step chosen to run after a change it refers to ("stage todo.txt and
/// commit *it*"), with the context parameter both must share
/// ([`Planner::after_a_change`]).
struct AfterChange {
    /// The step's sub-intent id.
    step: String,
    /// The change's sub-intent id.
    change: String,
    /// The context parameter (`repo_path`).
    param: String,
}

/// "stage todo.txt and commit it in REPO": a context the goal states once
/// (the repository) holds for each step of the same server that needs it
/// and is given none. A context parameter (required by every capability
/// of the server, `repo_path`; never a step's object, such as a file's
/// `path`) left open (it would be asked) takes the value that every other
/// step of the server gives it, when they all give the same one; different values, or a
/// step whose open parameters take an earlier result, are left as they
/// are. Noted in the step's trace.
fn share_stated_context(
    steps: &mut [ResolvedStep],
    traces: &mut [IntentTrace],
    is_context: impl Fn(&CapabilityManifest, &str) -> bool,
) {
    for i in 0..steps.len() {
        let st = &steps[i];
        let here = provider_of(&st.manifest);
        if st.intent.unnamed_results().next().is_some() || here.is_empty() {
            continue;
        }
        let mut filled = vec![];
        for name in plan_gen::unfillable(&st.intent, &st.manifest) {
            let stated: Vec<(&String, &ParamValue)> = steps
                .iter()
                .enumerate()
                .filter(|(j, o)| *j != i && provider_of(&o.manifest) == here)
                .filter_map(|(_, o)| match o.intent.params.get(&name) {
                    Some(v @ ParamValue::Literal(_)) => Some((&o.intent.id, v)),
                    _ => None,
                })
                .collect();
            // The catalog is scanned (`is_context`) only for a value
            // another step states.
            if let Some((from, value)) = stated.first()
                && stated.iter().all(|(_, v)| v == value)
                && is_context(&st.manifest, &name)
            {
                filled.push((name, (*from).clone(), (*value).clone()));
            }
        }
        let id = st.intent.id.clone();
        for (name, from, value) in filled {
            steps[i].intent.params.insert(name.clone(), value);
            if let Some(t) = traces.iter_mut().find(|t| t.sub_intent == id) {
                t.notes.push(format!(
                    ":{name} is the one {from} states (the goal gives it once for the steps of this server)"
                ));
            }
        }
    }
}

/// Side effects keep the goal's order: a step after one that writes runs
/// after it ([`SubIntent::after`]), whether or not it uses its result;
/// and a step that writes runs after every step before it since the last
/// write ("who works at Globex and delete Bob", "read a.txt and write 'x'
/// to a.txt": the read sees the state before the change, never a race).
fn order_after_writes(steps: &mut [ResolvedStep]) {
    let mut last_write: Option<String> = None;
    let mut since: Vec<String> = vec![];
    for st in steps.iter_mut() {
        let writes = st
            .manifest
            .effective_effects()
            .contains(&ccos_marketplace::Effect::Write);
        let waits: Vec<String> = if writes {
            last_write.iter().chain(&since).cloned().collect()
        } else {
            last_write.iter().cloned().collect()
        };
        for w in waits {
            if !st.intent.depends_on.contains(&w) && !st.intent.after.contains(&w) {
                st.intent.after.push(w);
            }
        }
        if writes {
            last_write = Some(st.intent.id.clone());
            since.clear();
        } else {
            since.push(st.intent.id.clone());
        }
    }
}

/// Ids of what [`record`] stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Recorded {
    /// The root intent (the goal).
    pub intent_id: String,
    /// The sub-intents' stored ids, in order (`<root>/s1`...).
    pub sub_intent_ids: Vec<String>,
    /// The archived plan, when archived.
    pub plan_id: Option<String>,
}

impl PlanResult {
    /// The decision as the causal chain records it (`planner_decision`),
    /// `sub_intent_ids` being the stored ids of the sub-intents.
    pub fn audit_record(&self, sub_intent_ids: Vec<String>) -> audit::PlannerDecision {
        let scored = |c: &Candidate| audit::ScoredCandidate {
            capability: c.capability_id.clone(),
            score: (c.score * 10_000.0).round() / 10_000.0,
            reasons: c.reasons.clone(),
        };
        let t = &self.trace;
        audit::PlannerDecision {
            goal: self.goal.clone(),
            decomposition: t.decomposition.clone(),
            rules: t.rules.clone(),
            notices: t.notices.clone(),
            decomposition_failures: t
                .decomposition_failures
                .iter()
                .map(|f| audit::StrategyFailure {
                    strategy: f.strategy.clone(),
                    reason: f.reason.clone(),
                })
                .collect(),
            intents: t
                .intents
                .iter()
                .map(|i| audit::IntentDecision {
                    sub_intent: i.sub_intent.clone(),
                    description: i.description.clone(),
                    strategy: i.strategy.clone(),
                    candidates: i.candidates.iter().map(scored).collect(),
                    rejected: i.rejected.iter().map(scored).collect(),
                    filtered: i
                        .filtered
                        .iter()
                        .map(|f| audit::FilteredCandidate {
                            capability: f.capability_id.clone(),
                            kind: None,
                            reasons: f.reasons.clone(),
                        })
                        .collect(),
                    skipped: i
                        .skipped
                        .iter()
                        .map(|k| audit::SkippedCandidate {
                            capability: k.capability_id.clone(),
                            reason: k.reason.clone(),
                        })
                        .collect(),
                    chosen: i.chosen.clone(),
                    decision: i.decision.clone(),
                    notes: i.notes.clone(),
                })
                .collect(),
            requires_agent: self.requires_agent.as_ref().map(|ra| {
                ra.missing
                    .iter()
                    .map(|m| audit::MissingPart {
                        sub_intent: m.sub_intent.clone(),
                        description: m.description.clone(),
                        reason: m.reason.clone(),
                    })
                    .collect()
            }),
            sub_intents: sub_intent_ids,
        }
    }
}

/// Creates a root intent for `goal` in the IntentGraph and records its
/// `intent_created` entry (`source`: `planner`, `llm`...), secrets
/// redacted from the goal. Returns the new intent's id. Every planner
/// records its goal this way.
pub async fn create_root_intent(
    store: &Store,
    goal: &str,
    source: &str,
    metadata: serde_json::Value,
    secrets: &Redactor,
) -> Result<String, StoreError> {
    let goal = secrets.redact_str(goal).into_owned();
    let id = new_id("intent", &goal);
    let mut intent = NewIntent::new(&id, &goal);
    intent.metadata = secrets.redact_json(&metadata);
    store.create_intent(intent).await?;
    store
        .append(
            NewEntry::of(&audit::IntentCreated {
                goal,
                source: source.to_string(),
                name: None,
                parse_format: None,
                parse_attempts: vec![],
            })
            .intent(&id),
        )
        .await?;
    Ok(id)
}

/// Archives `rtfs` as a draft plan of `intent_id` (secrets redacted) and
/// returns the plan id.
pub async fn archive_draft(
    store: &Store,
    intent_id: &str,
    rtfs: &str,
    ir: Option<serde_json::Value>,
    generation_mode: &str,
    diagnostics: serde_json::Value,
    secrets: &Redactor,
) -> Result<String, StoreError> {
    let rtfs = secrets.redact_str(rtfs).into_owned();
    let id = new_id("plan", &rtfs);
    store
        .archive_plan(NewPlan {
            id: id.clone(),
            intent_id: intent_id.to_string(),
            rtfs,
            ir: ir.map(|j| secrets.redact_json(&j)),
            generation_mode: generation_mode.to_string(),
            diagnostics: secrets.redact_json(&diagnostics),
            status: "draft".into(),
        })
        .await?;
    Ok(id)
}

/// Stores a plan result: the goal as root intent, the sub-intents as its
/// children (`IsSubgoalOf`), data flow (`DependsOn`), the plan archived
/// when `archive` (the orchestrator archives it itself when it runs the
/// plan) and a `planner_decision` chain entry with the trace. Every string
/// passes through `secrets` first.
pub async fn record(
    store: &Store,
    result: &PlanResult,
    archive: bool,
    secrets: &Redactor,
) -> Result<Recorded, StoreError> {
    let root = create_root_intent(
        store,
        &result.goal,
        "planner",
        json!({"planner": result.generation_mode()}),
        secrets,
    )
    .await?;
    let sid = |s: &str| format!("{root}/{s}");
    let mut ids = vec![];
    for s in &result.sub_intents {
        let mut n = NewIntent::new(sid(&s.id), secrets.redact_str(&s.description));
        n.metadata = secrets
            .redact_json(&json!({"intent_type": s.intent_type.as_str(), "params": s.params}));
        store.create_intent(n).await?;
        store
            .add_edge(&sid(&s.id), &root, EdgeKind::IsSubgoalOf)
            .await?;
        ids.push(sid(&s.id));
    }
    for s in &result.sub_intents {
        for d in &s.depends_on {
            store
                .add_edge(&sid(&s.id), &sid(d), EdgeKind::DependsOn)
                .await?;
        }
    }
    let plan_id = match (&result.rtfs, archive) {
        (Some(rtfs), true) => Some(
            archive_draft(
                store,
                &root,
                rtfs,
                None,
                result.generation_mode(),
                json!([]),
                secrets,
            )
            .await?,
        ),
        _ => None,
    };
    if result.rtfs.is_some() {
        store
            .set_intent_status(&root, ccos_store::IntentStatus::Planned)
            .await?;
        for id in &ids {
            store
                .set_intent_status(id, ccos_store::IntentStatus::Planned)
                .await?;
        }
    }
    let mut entry = NewEntry::of(&result.audit_record(ids.clone())).intent(&root);
    entry.payload = secrets.redact_json(&entry.payload);
    if let Some(p) = &plan_id {
        entry = entry.plan(p);
    }
    store.append(entry).await?;
    Ok(Recorded {
        intent_id: root,
        sub_intent_ids: ids,
        plan_id,
    })
}

/// Words that open a restrictive clause after what a request names ("the
/// lines *that* are empty", "*for each* stanza", "*containing* x").
const RESTRICTIVE: &[&str] = &[
    "that",
    "which",
    "whose",
    "where",
    "having",
    "containing",
    "contain",
    "contains",
    "beginning",
    "starting",
    "ending",
    "matching",
    "each",
    "every",
    "as",
    "except",
];

/// Restrictive words that restrict whatever follows them.
const VERB_RESTRICTIVE: &[&str] = &[
    "having",
    "containing",
    "contain",
    "contains",
    "beginning",
    "starting",
    "ending",
    "matching",
    "except",
];

/// Modal and auxiliary words before a relative clause's verb ("that *can*
/// accommodate").
const MODALS: &[&str] = &[
    "can", "could", "will", "would", "may", "might", "should", "must", "do", "does",
];

/// The verb opening a relative clause (the words after "that"): its first
/// word, or the one after a modal, when it is one of [`RELATING_VERBS`];
/// none when the clause is negated.
fn relative_verb(rest: &[String]) -> Option<&str> {
    if rest
        .iter()
        .any(|w| lexicon::is_negation_word(w) || w.ends_with("n't"))
    {
        return None;
    }
    let first = rest.first()?;
    let verb = if MODALS.contains(&first.as_str()) {
        rest.get(1)?
    } else {
        first
    };
    RELATING_VERBS
        .contains(&verb.as_str())
        .then_some(verb.as_str())
}

/// Verbs by which a thing has what a relative clause names ("restaurants
/// that *offer* Chinese cuisine", "hotels that *belong* to Hilton"); any
/// other verb may say the opposite ("that *refuse* …", "that *used* to
/// serve …") and is no such relation.
const RELATING_VERBS: &[&str] = &[
    "offer",
    "offers",
    "serve",
    "serves",
    "sell",
    "sells",
    "have",
    "has",
    "carry",
    "carries",
    "provide",
    "provides",
    "support",
    "supports",
    "accommodate",
    "accommodates",
    "feature",
    "features",
    "include",
    "includes",
    "accept",
    "accepts",
    "specialize",
    "specializes",
    "specialise",
    "specialises",
    "stock",
    "stocks",
    "belong",
    "belongs",
    "play",
    "plays",
    "speak",
    "speaks",
    "use",
    "uses",
    "cover",
    "covers",
];

/// Whether the values stated after the first `word` of sub-intent `s`
/// (one at least) all fill a parameter (or are values a call is made
/// for).
fn binds_a_value_after(s: &SubIntent, word: &str, b: &crate::understand::bind::Binding) -> bool {
    // Where the word is in the description itself (the mentions' spans).
    let Some(at) = lexicon::word_spans(&s.description)
        .into_iter()
        .find(|(_, w)| w == word)
        .map(|(span, _)| span.start)
    else {
        return false;
    };
    let fanned = |v: &serde_json::Value| {
        b.fan_out
            .iter()
            .chain(&b.fan_with)
            .any(|(_, vs)| vs.contains(v))
    };
    // Every value said after it is passed (the clause's own object among
    // them: "restaurants that serve *Chinese* in Boston" passes Boston
    // only, and is no such clause).
    let after: Vec<&crate::understand::mentions::Mention> = s
        .mentions
        .iter()
        .filter(|men| men.span.start > at)
        .collect();
    !after.is_empty()
        && after
            .iter()
            .all(|men| b.args.iter().any(|a| a.source == men.label()) || fanned(&men.value))
}

/// Words that introduce a value the goal names ("the file *named* x"),
/// skipped as words (their stems, "name" and "call", are not filler).
const NAMING_WORDS: &[&str] = &["named", "called"];

/// The stems of capability `m`'s own text: its name words, name,
/// description, and its parameters' names and descriptions.
fn capability_vocabulary(
    m: &CapabilityManifest,
    params: &[crate::understand::bind::Param],
) -> BTreeSet<String> {
    use ccos_marketplace::search::analyze;
    let mut vocab = lexicon::name_words(m);
    vocab.extend(lexicon::provider_words(m));
    vocab.extend(analyze(&lexicon::without_negated(
        &lexicon::without_examples(&m.description),
    )));
    vocab.extend(analyze(&m.name));
    for p in params {
        vocab.extend(p.name_words.iter().cloned());
        let desc = p
            .schema
            .get("description")
            .and_then(|d| d.as_str())
            .unwrap_or("");
        vocab.extend(analyze(&lexicon::without_examples(desc)));
    }
    vocab
}

/// [`capability_vocabulary`] and the words of `m`'s result fields (what
/// it reports is something it knows: "the *license* of X").
fn vocabulary_with_fields(
    m: &CapabilityManifest,
    params: &[crate::understand::bind::Param],
) -> BTreeSet<String> {
    let mut vocab = capability_vocabulary(m, params);
    if let Some(props) = m
        .output_schema
        .as_ref()
        .and_then(|o| o.get("properties"))
        .and_then(|p| p.as_object())
    {
        for k in props.keys() {
            vocab.extend(ccos_marketplace::search::analyze(k));
        }
    }
    vocab
}

/// The parameters sub-intent `s` already fills, bound as `b`: bound
/// values, fanned-out values, files read first, the intent's own.
fn filled_params<'a>(
    s: &'a SubIntent,
    b: &'a crate::understand::bind::Binding,
) -> BTreeSet<&'a str> {
    b.args
        .iter()
        .map(|a| a.param.as_str())
        .chain(b.fan_out.iter().map(|(p, _)| p.as_str()))
        .chain(b.found_first().map(|(p, _)| p.as_str()))
        .chain(s.params.keys().map(String::as_str))
        .collect()
}

/// Stems that make a question or a field a count ("how many", "the
/// fork *count*", `forks_count`).
const COUNT_STEMS: &[&str] = &["count", "number", "num", "total"];

/// The stems of what the steps a binding reads first do: read a file,
/// split it into lines.
fn read_step_words(b: &crate::understand::bind::Binding) -> Vec<String> {
    read_step_words_of(b, true)
}

/// [`read_step_words`], with the words of the files' own names when
/// `with_names`.
fn read_step_words_of(b: &crate::understand::bind::Binding, with_names: bool) -> Vec<String> {
    use ccos_marketplace::search::analyze;
    let mut out = vec![];
    if !b.read_first.is_empty() {
        out.extend(analyze("read file"));
    }
    // "the people in people.json": the file's own name says what it holds;
    // not the members of a list when the file is read as one text
    // ("reverse the *numbers* in numbers.txt" is no reversal of its text).
    for (param, path) in b.read_first.iter().filter(|_| with_names) {
        let as_text = !b.read_as.contains_key(param);
        out.extend(
            lexicon::file_name_stems(path)
                .into_iter()
                .filter(|st| !(as_text && lexicon::held_noun_stems_all().contains(st))),
        );
    }
    out.extend(member_words(b));
    out
}

/// What a file read as a list is made of (its lines, numbers, records,
/// entries, words): the words naming the members the capability works on.
fn member_words(b: &crate::understand::bind::Binding) -> Vec<String> {
    use ccos_marketplace::search::analyze;
    let mut out = vec![];
    for how in b.read_as.values() {
        out.extend(analyze(match how {
            crate::understand::bind::ReadAs::Lines => "lines line",
            crate::understand::bind::ReadAs::Numbers => "numbers number",
            crate::understand::bind::ReadAs::Json | crate::understand::bind::ReadAs::Records => {
                lexicon::RECORD_NOUNS
            }
            crate::understand::bind::ReadAs::Listing => "list files file entries entry folder",
            crate::understand::bind::ReadAs::Words => "words word",
        }));
    }
    if !b.words_first.is_empty() {
        out.extend(analyze("words word"));
    }
    out
}

/// The words of sub-intent `s` a report may name, in the goal's order,
/// once each: values aside, and words all of whose stems are in `skip`
/// (function words, words of asking) aside.
fn reportable_words(s: &SubIntent, skip: &BTreeSet<String>) -> Vec<(String, Vec<String>)> {
    use ccos_marketplace::search::analyze;
    let mut out: Vec<(String, Vec<String>)> = vec![];
    for w in operation_words(s).split(|c: char| !c.is_alphanumeric() && c != '-') {
        let lw = w.to_lowercase();
        let stems = analyze(&lw);
        if lw.len() < 2
            || lw.chars().any(|c| c.is_ascii_digit())
            || out.iter().any(|(x, _)| *x == lw)
            || stems.iter().all(|st| skip.contains(st))
        {
            continue;
        }
        out.push((lw, stems));
    }
    out
}

/// The words of sub-intent `s` that capability `m`'s text, with synonyms,
/// does not have: what a refusal names when every word is known by some
/// capability but none fits. At most five, in the goal's order.
fn lacking_words(s: &SubIntent, m: &CapabilityManifest) -> Vec<String> {
    let vocab = capability_vocabulary(m, &crate::understand::bind::params_of(m).0);
    let mut skip = stop_stems().clone();
    skip.extend(lexicon::request_word_stems().iter().cloned());
    reportable_words(s, &skip)
        .into_iter()
        .filter(|(_, stems)| {
            !stems
                .iter()
                .all(|st| lexicon::synonym_stems(st).iter().any(|x| vocab.contains(x)))
        })
        .map(|(w, _)| w)
        .take(5)
        .collect()
}

/// A character that says something but is neither a letter, a digit nor
/// punctuation: an emoji, a flag's regional indicator ("time in 🇩🇪").
/// Such a character is a word to account for, not a separator: dropped,
/// the flag's country would be answered as no country at all.
fn is_pictograph(c: char) -> bool {
    !c.is_ascii()
        && !c.is_alphanumeric()
        && !c.is_whitespace()
        && !matches!(
            c,
            '“' | '”'
                | '‘'
                | '’'
                | '–'
                | '—'
                | '…'
                | '«'
                | '»'
                | '¿'
                | '¡'
                | '€'
                | '£'
                | '¥'
                | '°'
                | '×'
                | '÷'
                | '·'
                | '\u{200b}'
                | '\u{200d}'
                | '\u{fe0f}'
        )
}

/// Why a value the goal states is not the one to send: the goal changes
/// it first ("*half* of $30.45", "*double* 5", "…, both *doubled*") or
/// bounds it ("*at least* $30.45"), and `m` (its name, description,
/// parameters) says nothing of that (attack trial: the tax of $30.45 was
/// computed for "half of $30.45").
fn value_changed_before_use(
    text: &str,
    m: &CapabilityManifest,
    params: &[crate::understand::bind::Param],
    vocab: &BTreeSet<String>,
) -> Option<String> {
    use ccos_marketplace::search::analyze;
    const CHANGES: &[&str] = &[
        "half",
        "halved",
        "double",
        "doubled",
        "twice",
        "triple",
        "tripled",
        "thrice",
        "quadruple",
        "quadrupled",
    ];
    const BOUNDS: &[(&str, &str)] = &[
        ("at", "least"),
        ("at", "most"),
        ("no", "more"),
        ("no", "less"),
        ("up", "to"),
    ];
    let known = |w: &str| analyze(w).iter().all(|st| vocab.contains(st));
    let words: Vec<String> = word_spans(text).into_iter().map(|(_, w)| w).collect();
    if let Some(w) = words
        .iter()
        .find(|w| CHANGES.contains(&w.as_str()) && !known(w))
    {
        return Some(format!(
            "the goal says \"{w}\": a stated value is changed before use, which {} does not do",
            m.id
        ));
    }
    let bounded = words.windows(2).find(|p| {
        BOUNDS.iter().any(|(a, b)| p[0] == *a && p[1] == *b)
            && !params.iter().any(|q| {
                ["min", "max", "minimum", "maximum", "least", "most", "limit"]
                    .iter()
                    .any(|x| q.name_words.contains(*x))
            })
    })?;
    Some(format!(
        "the goal says \"{} {}\": a bound, not a value {} takes",
        bounded[0], bounded[1], m.id
    ))
}

/// Why the dates bound to the two ends of a range do not make one: the
/// start is after the end ("between March 10th and March 5th" sent as
/// written answered `[]`).
fn reversed_range(b: &crate::understand::bind::Binding) -> Option<String> {
    let end_of = |names: &[&str]| {
        b.args.iter().find_map(|a| {
            let words = ccos_marketplace::ids::words(&a.param);
            let v = a.value.as_str()?;
            let dated = v.len() >= 10 && v.as_bytes().get(4) == Some(&b'-');
            (dated && words.iter().any(|w| names.contains(&w.as_str())))
                .then(|| (a.param.clone(), v.to_string()))
        })
    };
    let (sp, start) = end_of(crate::understand::bind::RANGE_START_WORDS)?;
    let (ep, end) = end_of(crate::understand::bind::RANGE_END_WORDS)?;
    (sp != ep && start > end).then(|| {
        format!("the range ends before it starts (:{sp} {start}, :{ep} {end}): which is meant is not said")
    })
}

/// The unknown `words` of `text` for a report, each with the noun it
/// qualifies when one follows ("the *square* root of 2": "square root",
/// not "square", whose other word some file capability knows); a word
/// already said in such a pair is not said again.
fn with_their_nouns(text: &str, words: &[String]) -> Vec<String> {
    use ccos_marketplace::search::analyze;
    let tokens: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let lower = text.to_lowercase();
    let mut out: Vec<String> = vec![];
    let mut said: BTreeSet<String> = BTreeSet::new();
    for w in words {
        if said.contains(w) {
            continue;
        }
        // Not the clause's first word (its verb: "install numpy"), and
        // only a noun right after it, one space apart as written.
        let next = tokens
            .iter()
            .position(|t| t == w)
            .filter(|i| *i > 0)
            .and_then(|i| tokens.get(i + 1))
            .filter(|n| lower.contains(&format!("{w} {n}")))
            .filter(|n| {
                n.len() >= 3
                    && n.chars().all(char::is_alphabetic)
                    && !analyze(n).iter().all(|st| stop_stems().contains(st))
                    && !lexicon::is_action_verb(n)
                    && !n.ends_with("ing")
                    && !n.ends_with("ed")
            });
        match next {
            Some(n) => {
                said.insert(n.clone());
                out.push(format!("{w} {n}"));
            }
            None => out.push(w.clone()),
        }
        said.insert(w.clone());
    }
    out
}

/// Words that greet or thank; one of them must be said.
const GREETS: &[&str] = &[
    "hi",
    "hello",
    "hey",
    "hiya",
    "howdy",
    "greetings",
    "morning",
    "afternoon",
    "evening",
    "thanks",
    "thank",
    "cheers",
    "bye",
    "goodbye",
    "yo",
];

/// Words that may go with them ("good morning", "thank you", "thanks
/// a lot").
const WITH_GREETS: &[&str] = &[
    "good", "night", "you", "there", "a", "lot", "so", "much", "ok", "okay",
];

/// `goal` without a greeting before its request or a thanks after it
/// ("*hey,* could you add 40 and 2?", "sort numbers.txt*, thanks!*"):
/// they ask for nothing, and a leading one hid the polite request ("hey,
/// could you …" read as a question). A goal that only greets is kept.
fn without_greeting(goal: &str) -> &str {
    let mut rest = goal.trim();
    // Never a cut inside a quoted text ("echo 'hi, thanks'" echoes it
    // whole: attack trial): a greeting ends before the first quote, a
    // thanks starts after the last.
    let quoted = crate::understand::mentions::quoted_spans(rest);
    let head_end = quoted.first().map_or(usize::MAX, |&(s, _)| s);
    let last_quote_end = quoted.last().map_or(0, |&(_, e)| e);
    // A greeting phrase ends at a comma, "!" or "." before the request
    // (a space after it: "hi.txt" is a file's name).
    let ends_phrase = |t: &str| {
        t.char_indices()
            .find(|&(i, c)| {
                matches!(c, ',' | '!' | '.') && t[i + 1..].starts_with(char::is_whitespace)
            })
            .map(|(i, _)| i)
    };
    if let Some(cut) = ends_phrase(rest)
        && cut < head_end
        && let Some(head) = rest.get(..cut)
        && is_greeting(head)
        && rest[cut + 1..].trim().chars().any(char::is_alphanumeric)
    {
        rest = rest[cut + 1..].trim_start();
    }
    // A thanks after the last comma or full stop (offsets in `goal`'s
    // trimmed text: `rest` is its tail).
    let tail_start = last_quote_end.saturating_sub(goal.trim().len() - rest.len());
    let body = rest.trim_end_matches(['!', '.', '?', ' ']);
    if let Some(cut) = body.rfind([',', '.', '!', '?'])
        && cut >= tail_start
        && let Some(tail) = body.get(cut + 1..)
        && !tail.trim().is_empty()
        && is_greeting(tail)
        && body[..cut].chars().any(char::is_alphanumeric)
    {
        // A question keeps its mark ("what is 12 times 7? thanks").
        let keep = usize::from(body[cut..].starts_with('?'));
        rest = body[..cut + keep].trim_end();
    }
    rest
}

/// Whether `text` only greets or thanks ("hi", "good morning", "thanks
/// a lot!").
fn is_greeting(text: &str) -> bool {
    let words = word_spans(text);
    words.iter().any(|(_, w)| GREETS.contains(&w.as_str()))
        && words
            .iter()
            .all(|(_, w)| GREETS.contains(&w.as_str()) || WITH_GREETS.contains(&w.as_str()))
}

/// Adverbs that place a value in space or time ("4 meters *away*", "2
/// years *ago*"): never what a request seeks.
const ADVERBS_OF_PLACE_AND_TIME: &[&str] = &[
    "away", "apart", "ago", "ahead", "back", "later", "earlier", "aside", "along",
];

/// Words opening a question or a statement, not an imperative ("*is*
/// the file empty", "*are* all tests green").
const QUESTION_OPENERS: &[&str] = &[
    "what", "who", "whom", "whose", "which", "when", "where", "why", "how", "is", "are", "was",
    "were", "do", "does", "did", "can", "could", "will", "would", "should", "shall", "may",
    "might", "must", "has", "have", "had", "i", "we", "you", "it", "they", "there", "here",
    "please", "kindly", "also", "then", "and", "now", "just", "only", "all", "so", "if",
];

/// Verbs that ask for something without saying the operation ("*identify*
/// the protein sequence", "*generate* a random forest model"): the rest of
/// the request says what to do.
const GENERIC_REQUEST_VERBS: &[&str] = &[
    "identify",
    "generate",
    "retrieve",
    "obtain",
    "produce",
    "fetch",
    "check",
    "look",
    "see",
    "bring",
    "output",
    "report",
    "perform",
    "run",
    "execute",
    "conduct",
    "process",
    "evaluate",
    "estimate",
    "predict",
    "analyze",
    "analyse",
    "assess",
    "measure",
    "search",
    "locate",
    "gather",
    "collect",
    "compile",
    "prepare",
    "use",
    "apply",
    "try",
    "recommend",
    "suggest",
];

/// Words that make the noun after them the thing a request is about
/// ("the header of", "each line in").
const DETERMINERS: &[&str] = &[
    "the", "a", "an", "each", "every", "all", "any", "some", "my", "your", "our", "their", "his",
    "her", "its", "this", "that", "these", "those", "only",
];

/// Words a clause that switches a flag may say besides the flag's own:
/// "*also apply* standardization", "*give me* detail *information*".
const SWITCHING_WORDS: &[&str] = &[
    "also",
    "please",
    "do",
    "its",
    "their",
    "the",
    "a",
    "an",
    "me",
    "us",
    "information",
    "info",
    "with",
    "and",
    "too",
    "as",
    "well",
];

/// "Run a linear regression … *Also apply standardization.*", "Get the
/// last match of Liverpool. *Include its statistics.*", "*Don't return
/// full text*": a clause `s` right after `prev` that states no value and
/// whose words all name one boolean parameter of the capability `prev`'s
/// step calls (its name, some word of it, the rest of its description)
/// switches that parameter on, or off after a word of denial. The step
/// is changed and the note saying so returned; `None` when the clause is
/// anything else, the flag is already set, or the previous clause was not
/// served by the last step.
fn switch_of_previous(
    s: &SubIntent,
    prev: &SubIntent,
    steps: &mut [ResolvedStep],
) -> Option<String> {
    use ccos_marketplace::search::analyze;
    let last = steps.last_mut()?;
    // (A capitalised first word, "Don't", is no value.)
    let states_a_value = s
        .mentions
        .iter()
        .any(|m| !(m.weak && m.kind == crate::understand::MentionKind::Name && m.span.start == 0));
    if last.intent.id != prev.id || states_a_value {
        return None;
    }
    // Words as written, a contraction kept whole ("don't").
    let words = lexicon::written_words(&s.description);
    let off = words
        .iter()
        .any(|w| lexicon::DENYING_WORDS.contains(&w.as_str()));
    let filler = filler_stems();
    let content: BTreeSet<String> = words
        .iter()
        .filter(|w| {
            !lexicon::DENYING_WORDS.contains(&w.as_str()) && !SWITCHING_WORDS.contains(&w.as_str())
        })
        .flat_map(|w| analyze(w))
        .filter(|st| !filler.contains(st))
        .collect();
    if content.is_empty() {
        return None;
    }
    let (params, _) = crate::understand::bind::params_of(&last.manifest);
    let named: Vec<&crate::understand::bind::Param> = params
        .iter()
        .filter(|p| {
            p.ty.as_deref() == Some("boolean")
                && !content.is_disjoint(&p.name_words)
                && content
                    .iter()
                    .all(|st| p.name_words.contains(st) || p.desc_words.contains(st))
        })
        .collect();
    let [p] = named.as_slice() else {
        return None;
    };
    if last.intent.params.contains_key(&p.name) {
        return None;
    }
    last.intent.params.insert(
        p.name.clone(),
        crate::intent::ParamValue::Literal(rtfs::Value::Bool(!off)),
    );
    Some(format!(
        "\"{}\" switches {} :{} of {} ({})",
        s.description,
        if off { "off" } else { "on" },
        p.name,
        prev.id,
        last.manifest.id
    ))
}

/// The texts of a bound value: a text, or the texts of a list of them
/// (the choices "highways", "tolls" of `avoid`).
fn value_texts(v: &serde_json::Value) -> Vec<&str> {
    match v {
        serde_json::Value::String(s) => vec![s.as_str()],
        serde_json::Value::Array(vs) => vs.iter().filter_map(serde_json::Value::as_str).collect(),
        _ => vec![],
    }
}

/// The first word of `text` (a sub-intent's [`judged_words`]) that
/// changes what is asked in a way capability `m` (with its `params`),
/// bound as `b`, does not account for (its name, description, parameters,
/// the values bound):
///
/// - a word qualifying something the capability does ("count the
///   *capitalized* words", "list the *json* files"): it stands right
///   before a word of the capability's own vocabulary;
/// - the object of the request ("read the *header* of people.csv"):
///   `the W of|in|from`;
/// - a place the request names and nothing binds ("list the directories
///   in *tree*"): the clause's last word, after `in|from|at|into|inside`;
/// - the request's own verb, when it is an operation ("*count* the empty
///   lines" is not served by splitting them).
///
/// Other words (context: "the velocity of a *car*") are not judged: a
/// capability's description cannot list every situation it serves.
fn unaccounted_word(
    s: &SubIntent,
    m: &CapabilityManifest,
    b: &crate::understand::bind::Binding,
    text: &str,
    params: &[crate::understand::bind::Param],
    (vocab, verb_vocab): (&BTreeSet<String>, &BTreeSet<String>),
) -> Option<String> {
    use ccos_marketplace::search::analyze;
    let filler = filler_stems();
    let names: BTreeSet<String> = lexicon::name_words(m);
    let mut vocab = vocab.clone();
    // What accounts for the request's own verb: the capability's words and
    // values it takes, never a file's name ("double the largest number in
    // *double.txt*" dropped the doubling: attack trial).
    let mut verb_vocab = verb_vocab.clone();
    let pattern = crate::understand::bind::named_pattern(text).map(|(kind, _)| kind);
    // The values bound (an enum word, "excellent" for a condition) and
    // what the steps read first do (read a file, split it into lines).
    for a in &b.args {
        for v in value_texts(&a.value) {
            vocab.extend(analyze(v));
            if !a.source.starts_with("path ") {
                verb_vocab.extend(analyze(v));
            }
        }
        // "the most recent commit" bound a count: the recency words are
        // served.
        if a.source.starts_with("recency ") {
            vocab.extend(crate::understand::bind::recency_stems().iter().cloned());
        }
        // "oldest first" set the ordering's direction: served.
        if a.source == crate::understand::bind::DIRECTION_SOURCE {
            vocab.extend(lexicon::direction_stems().iter().cloned());
        }
        // "the email addresses" became the pattern bound: served.
        if let Some(kind) = pattern
            && a.source == format!("the {kind}")
        {
            vocab.extend(analyze(kind));
        }
    }
    for v in b.fan_out.iter().chain(&b.fan_with).flat_map(|(_, vs)| vs) {
        if let Some(v) = v.as_str() {
            vocab.extend(analyze(v));
            verb_vocab.extend(analyze(v));
        }
    }
    // Set phrases as the word they mean ("check out a new branch" asks to
    // check it out, which creating it alone does not do).
    let text = lexicon::without_idioms(text);
    let words = lexicon::order_phrases(
        text.split(|c: char| !c.is_alphanumeric() && c != '\'' && !is_pictograph(c))
            .filter(|w| !w.is_empty())
            .map(|w| {
                let w = w.to_lowercase();
                w.strip_suffix("'s").map(str::to_string).unwrap_or(w)
            })
            .collect(),
    );
    // "could you *first* analyze …" says when, not what.
    let words: Vec<String> = words
        .iter()
        .enumerate()
        .filter(|(i, _)| !lexicon::orders_requests(&words, *i))
        .map(|(_, w)| w.clone())
        .collect();
    let is_number = |w: &str| w.chars().any(|c| c.is_ascii_digit());
    let in_vocab = |w: &str| lexicon::knows(&vocab, w);
    // A pictograph has no stems, and is no filler for it.
    let is_filler =
        |w: &str| !w.chars().any(is_pictograph) && analyze(w).iter().all(|st| filler.contains(st));
    let unaccounted =
        |w: &str| !is_number(w) && !NAMING_WORDS.contains(&w) && !in_vocab(w) && !is_filler(w);
    let named = |w: &str| {
        analyze(w)
            .iter()
            .any(|st| lexicon::synonym_stems(st).iter().any(|x| names.contains(x)))
    };
    // The members of a file read as a list: what the capability works on.
    let reading = analyze("read file");
    let members: BTreeSet<String> = member_words(b)
        .into_iter()
        .filter(|st| !reading.contains(st))
        .collect();
    // The request's own verb ("count the empty lines") is the operation:
    // the capability must do it.
    // So is an unknown first word before a determiner: the imperative
    // shape of a verb on its object ("*zip* the docs folder", "*encrypt*
    // the file"), whether or not the verb is a known one.
    let imperative = |first: &str| {
        first.chars().all(char::is_alphabetic)
            && words
                .get(1)
                .is_some_and(|n| DETERMINERS.contains(&n.as_str()))
            && !QUESTION_OPENERS.contains(&first)
            && !GENERIC_REQUEST_VERBS.contains(&first)
            // "*Assuming* the gravity to be 9.8, calculate …": a premise.
            && !lexicon::PREMISE_OPENERS.contains(&first)
    };
    // A verb of counting is done only by a capability that says it counts
    // (its name or description): a parameter named `count` says how many
    // to take ("count the first 3 numbers of numbers.txt" gave the
    // numbers: attack trial).
    let counting_verb = |w: &str| matches!(w, "count" | "total" | "tally" | "sum" | "number");
    // (Or "how many …" of a number it returns: `ccos.text.occurrences`.)
    let says_it_does = |w: &str| {
        let mut own: BTreeSet<String> = names.clone();
        own.extend(analyze(&m.description));
        let desc = m.description.to_lowercase();
        lexicon::knows(&own, w)
            || (matches!(output_type(m), Some("integer" | "number"))
                && (desc.contains("how many") || desc.contains("number of")))
    };
    // ... and a verb of deleting only by one whose name or operation (its
    // description's first word) is that: "line endings removed" in a
    // description is no deletion ("delete the lines of notes.txt" listed
    // them: attack trial).
    let deleting_verb = |w: &str| matches!(w, "delete" | "remove" | "erase" | "clear" | "drop");
    let operation_is = |w: &str| {
        let mut own: BTreeSet<String> = names.clone();
        if let Some(op) = m.description.split_whitespace().next() {
            own.extend(analyze(op));
        }
        lexicon::knows(&own, w)
    };
    if let Some(first) = words.first()
        && (lexicon::is_action_verb(first) || imperative(first))
        && (!is_filler(first) || counting_verb(first))
        && (!lexicon::knows(&verb_vocab, first)
            || (counting_verb(first) && !says_it_does(first))
            || (deleting_verb(first) && !operation_is(first)))
    {
        return Some(format!(
            "the goal asks to \"{first}\", which {} does not do",
            m.id
        ));
    }
    // A restrictive clause after what the request names ("the lines
    // *that are empty*", "*for each* stanza", "*containing* x", "*as* an
    // integer") must be what the capability does, strictly: its name,
    // parameters or bound values, not a passing word of its description.
    // The operation's own name (the id's last segment), not its family.
    let mut strict: BTreeSet<String> = analyze(m.id.rsplit('.').next().unwrap_or(&m.id))
        .into_iter()
        .collect();
    for p in params {
        strict.extend(p.name_words.iter().cloned());
    }
    for a in &b.args {
        strict.extend(analyze(&a.param));
        for v in value_texts(&a.value) {
            strict.extend(analyze(v));
        }
    }
    for v in b.fan_out.iter().chain(&b.fan_with).flat_map(|(_, vs)| vs) {
        if let Some(v) = v.as_str() {
            strict.extend(analyze(v));
        }
    }
    let stop = stop_stems();
    // "starting from 15th October" when a date is bound: when the request
    // starts, not which items (simple_python_385).
    let when_bound = b
        .args
        .iter()
        .any(|a| a.source.starts_with("date ") || a.source.starts_with("time "));
    let temporal = |i: usize| {
        when_bound
            && matches!(words[i].as_str(), "starting" | "beginning" | "ending")
            && words
                .get(i + 1)
                .is_some_and(|n| matches!(n.as_str(), "from" | "on" | "at" | "in"))
    };
    // The verb of a relative clause relating the thing to a bound value
    // (below): accounted for by that value's parameter.
    let mut relating_verb: Option<String> = None;
    if let Some(at) = words
        .iter()
        .enumerate()
        .skip(1)
        .find(|(i, w)| RESTRICTIVE.contains(&w.as_str()) && !temporal(*i))
        .map(|(i, _)| i)
    {
        // A verb of restriction restricts whatever follows it.
        if VERB_RESTRICTIVE.contains(&words[at].as_str())
            && !analyze(&words[at]).iter().any(|st| strict.contains(st))
        {
            return Some(format!(
                "the goal restricts with \"{}\", which {} does not do",
                words[at], m.id
            ));
        }
        let rest = &words[at + 1..];
        let strict_ok = |w: &str| {
            is_number(w)
                || analyze(w).iter().all(|st| {
                    stop.contains(st)
                        || lexicon::synonym_stems(st)
                            .iter()
                            .any(|x| strict.contains(x))
                })
        };
        // "a restaurant *that can accommodate* a group of 5", "restaurants
        // *that offer* Chinese cuisine": a relative clause whose object is
        // a value the plan binds restricts by that parameter; its own verb
        // says how the thing relates to the value, no other operation.
        let relates_by_bound_value = |w: &str| {
            matches!(words[at].as_str(), "that" | "which" | "who")
                && relative_verb(rest) == Some(w)
                && binds_a_value_after(s, &words[at], b)
                && rest
                    .iter()
                    .filter(|r| r.as_str() != w)
                    .all(|r| strict_ok(r))
        };
        if let Some(w) = rest.iter().find(|w| !strict_ok(w)) {
            if !relates_by_bound_value(w) {
                return Some(format!(
                    "the goal restricts with \"{}\" … \"{w}\", which {} does not do",
                    words[at], m.id
                ));
            }
            relating_verb = Some(w.clone());
        }
    }
    // "words *starting with* a", "lines that *end with* s": a restriction
    // the capability must do by name.
    if let Some(pair) = words.windows(2).skip(1).find(|p| {
        p[1] == "with"
            && lexicon::bounds_text(&p[0])
            && !analyze(&p[0]).iter().any(|st| strict.contains(st))
    }) {
        return Some(format!(
            "the goal restricts with \"{} {}\", which {} does not do",
            pair[0], pair[1], m.id
        ));
    }
    // "list the issues and *close them*": a verb on what was named, which
    // the capability does not do (the clause was not split: "close" is
    // no verb the splitter knows).
    if let Some(pair) = words.windows(2).find(|p| {
        matches!(p[1].as_str(), "it" | "them")
            && p[0].chars().all(char::is_alphabetic)
            && unaccounted(&p[0])
    }) {
        return Some(format!(
            "the goal says \"{} {}\", which {} does not do",
            pair[0], pair[1], m.id
        ));
    }
    let unaccounted_for = |w: &str| {
        Some(format!(
            "the goal says \"{w}\", which {} does not account for",
            m.id
        ))
    };
    // "the largest number *but one*": a position from the end, which
    // picking the largest is not (attack trial).
    // (Its number is a stated value, blanked in `words`.)
    let said = ccos_marketplace::ids::words(&s.description);
    if let Some(pair) = said.windows(2).find(|p| {
        p[0] == "but"
            && (matches!(p[1].as_str(), "one" | "two" | "three" | "last")
                || lexicon::ordinal_position(&p[1]).is_some())
    }) {
        return unaccounted_for(&format!("{} {}", pair[0], pair[1]));
    }
    // How often ("compounded *quarterly*", "paid *weekly*") changes any
    // result a capability computes: it must account for it.
    if let Some(w) = words.iter().find(|w| {
        matches!(
            w.as_str(),
            "hourly"
                | "daily"
                | "weekly"
                | "biweekly"
                | "fortnightly"
                | "monthly"
                | "quarterly"
                | "semiannually"
                | "annually"
                | "yearly"
                | "continuously"
        ) && unaccounted(w)
    }) {
        return unaccounted_for(w);
    }
    for (i, w) in words.iter().enumerate() {
        if !unaccounted(w) || relating_verb.as_ref() == Some(w) {
            continue;
        }
        let prev = i
            .checked_sub(1)
            .and_then(|k| words.get(k))
            .map(String::as_str);
        let next = words.get(i + 1).map(String::as_str);
        // What a search is about, last in its clause ("podcasts about
        // *cooking*", "songs about *love*"), and what goes with the thing
        // ("recipes with *tofu*") are what is sought.
        if (next.is_none() && prev == Some("about")) || prev == Some("with") {
            return unaccounted_for(w);
        }
        // A time range ("the next 5 years": the number is a value) and
        // verb forms ("assuming", "falling") qualify nothing.
        if next.is_some_and(|n| lexicon::TIME_UNITS.contains(&n)) || w.ends_with("ing") {
            continue;
        }
        // ("the smallest *positive* number in numbers.txt": the numbers
        // read first are what it works on; attack trial: the smallest of
        // all was the answer.)
        let qualifies = next.is_some_and(|n| {
            in_vocab(n)
                && (!is_filler(n)
                    || named(n)
                    // (An ordinal is the position bound: "the *third*
                    // number".)
                    || (lexicon::ordinal_position(w).is_none()
                        && analyze(n).iter().any(|st| members.contains(st))))
        });
        // The clause's last word after "the", a verb or "and": "list
        // acme/rocket *bugs*", "labelled bug and *enhancement*".
        // "the *header* of people.csv", "a pet-friendly train *station*
        // in Miami" name what is sought: the head of a noun phrase opened
        // by a determiner or the request's verb. "an object *dropped*
        // from rest", "4 meters *away* from", "travel by *car* from", "in
        // *terms* of" are context.
        let determined = !w.ends_with("ed")
            && !ADVERBS_OF_PLACE_AND_TIME.contains(&w.as_str())
            && !crate::understand::lexicon::PREPOSITIONS.contains(&w.as_str())
            && !matches!(
                w.as_str(),
                "within"
                    | "without"
                    | "across"
                    | "around"
                    | "beyond"
                    | "toward"
                    | "towards"
                    | "upon"
            )
            && (i == 0 || {
                let mut opened = false;
                for p in words[i.saturating_sub(4)..i].iter().rev() {
                    // "how *many* lines and words": a question's object.
                    if DETERMINERS.contains(&p.as_str())
                        || lexicon::is_action_verb(p)
                        || matches!(p.as_str(), "many" | "much")
                    {
                        opened = true;
                        break;
                    }
                    // "count the words *and* letters in …": a noun
                    // coordinated with the object is an object too
                    // (attack trial: only the words were counted).
                    if matches!(p.as_str(), "and" | "or") {
                        continue;
                    }
                    if is_number(p) || analyze(p).iter().all(|st| stop.contains(st)) {
                        break;
                    }
                }
                opened
            });
        // "how many lines and *words* are in …": the object before a
        // verb of being and its place.
        let placed_after_being = matches!(next, Some("are" | "is"))
            && words
                .get(i + 2)
                .is_some_and(|n| matches!(n.as_str(), "in" | "of" | "on" | "from"));
        let object = (determined
            && (matches!(next, Some("of" | "in" | "from" | "on")) || placed_after_being))
            || (next.is_none()
                && prev.is_some_and(|p| {
                    matches!(p, "the" | "only" | "and" | "or" | "are" | "by")
                        || lexicon::is_action_verb(p)
                }));
        let place =
            next.is_none() && matches!(prev, Some("in" | "from" | "at" | "into" | "inside"));
        if qualifies || object || place {
            return unaccounted_for(w);
        }
    }
    None
}

/// Why `m` does not serve what sub-intent `s` seeks: the kind of thing
/// sought, filler or not, and even when `m` takes the user's words, must
/// be something `m` knows (`vocab`: its own text, its result's fields, the
/// steps reading a file first):
///
/// - the word before "named", "called", "containing" or "matching"
///   ("search for *files* named guide", "find all *lines* containing
///   milk");
/// - files and folders, wherever the goal says them ("search for *.md
///   *files*"): the memory's entities are not files.
fn unknown_kind_named(
    s: &SubIntent,
    m: &CapabilityManifest,
    vocab: &BTreeSet<String>,
) -> Option<String> {
    use ccos_marketplace::search::analyze;
    const SEEKING: &[&str] = &[
        "named",
        "called",
        "containing",
        "matching",
        "starting",
        "beginning",
        "ending",
    ];
    // What is sought as text: "all *matches* of TODO", "the
    // *occurrences* of milk" (new-user trial: the memory graph was
    // searched for "all matches of TODO" after reading a file).
    const TEXT_KINDS: &[&str] = &["matches", "occurrences", "lines", "words"];
    const FILE_KINDS: &[&str] = &[
        "file",
        "files",
        "folder",
        "folders",
        "directory",
        "directories",
    ];
    let words = ccos_marketplace::ids::words(&operation_words(s));
    let before_seeking = words
        .iter()
        .zip(words.iter().skip(1))
        .filter_map(|(w, next)| {
            (SEEKING.contains(&next.as_str())
                && w.chars().all(char::is_alphabetic)
                && !matches!(
                    w.as_str(),
                    "one" | "ones" | "thing" | "things" | "something"
                )
                && !analyze(w).iter().all(|st| stop_stems().contains(st)))
            .then_some(w)
        });
    let kinds: Vec<&String> = before_seeking
        .chain(words.iter().filter(|w| FILE_KINDS.contains(&w.as_str())))
        .chain(
            words
                .iter()
                .zip(words.iter().skip(1))
                .filter(|(w, next)| TEXT_KINDS.contains(&w.as_str()) && next.as_str() == "of")
                .map(|(w, _)| w),
        )
        .collect();
    if kinds.is_empty() {
        return None;
    }
    // A folder is a directory, a path holds either.
    let known = |w: &str| {
        analyze(w).iter().all(|st| {
            lexicon::synonym_stems(st).iter().any(|x| vocab.contains(x))
                || (FILE_KINDS.contains(&w)
                    && ["file", "folder", "directori", "dir", "path"]
                        .iter()
                        .any(|k| vocab.contains(*k)))
        })
    };
    let kind = kinds.into_iter().find(|w| !known(w))?;
    Some(format!(
        "the goal seeks {kind}, which {} does not know",
        m.id
    ))
}

/// Why the plan would leave out a restriction the goal gives by naming
/// one of `m`'s optional parameters (`params`) that nothing binds ("the
/// issues with the *label bug*": `labels` unset lists every issue; "the
/// issues *by state*"): the parameter's name, then a word the capability
/// does not otherwise account for, or "by" before the name. A required
/// parameter left open is reported elsewhere; a parameter's name that is
/// also the capability's own ("count the words") names the operation.
fn unset_named_parameter(
    s: &SubIntent,
    m: &CapabilityManifest,
    b: &crate::understand::bind::Binding,
    text: &str,
    params: &[crate::understand::bind::Param],
) -> Option<String> {
    use ccos_marketplace::search::analyze;
    let filler = filler_stems();
    let names = lexicon::name_words(m);
    let bound = filled_params(s, b);
    // What else the goal's next word may be: another parameter's name, a
    // bound value, the capability's own name.
    let mut known: BTreeSet<String> = names.clone();
    for p in params {
        known.extend(p.name_words.iter().cloned());
    }
    for a in &b.args {
        for v in value_texts(&a.value) {
            known.extend(analyze(v));
        }
    }
    let words: Vec<(String, Vec<String>)> = ccos_marketplace::ids::words(text)
        .into_iter()
        .map(|w| {
            let stems = analyze(&w);
            (w, stems)
        })
        .collect();
    let content = |stems: &[String]| stems.iter().any(|st| !filler.contains(st));
    for p in params
        .iter()
        .filter(|p| !p.required && !bound.contains(p.name.as_str()))
    {
        let own: BTreeSet<&String> = p
            .name_words
            .iter()
            .filter(|w| !filler.contains(*w) && !names.contains(*w))
            .collect();
        if own.is_empty() {
            continue;
        }
        for (i, (w, stems)) in words.iter().enumerate() {
            if stems.is_empty() || !stems.iter().all(|st| own.contains(st)) {
                continue;
            }
            let before_by = i > 0 && words[i - 1].0 == "by";
            // "label *it* bug": the value after the object pronoun.
            let after = if words
                .get(i + 1)
                .is_some_and(|(n, _)| matches!(n.as_str(), "it" | "them"))
            {
                i + 2
            } else {
                i + 1
            };
            let valued = words.get(after).is_some_and(|(next, nst)| {
                next.chars().all(char::is_alphanumeric)
                    && next.chars().any(char::is_alphabetic)
                    && !NAMING_WORDS.contains(&next.as_str())
                    && content(nst)
                    && !nst.iter().any(|st| known.contains(st))
            });
            if before_by || valued {
                let said = if valued {
                    format!("{w} {}", words[after].0)
                } else {
                    format!("by {w}")
                };
                return Some(format!(
                    "the goal says \"{said}\", and the plan leaves {}'s :{} unset",
                    m.id, p.name
                ));
            }
        }
    }
    None
}

/// Why the word right after a number the goal states is not accounted
/// for: a unit no table knows ("2 mA", "10 F", "5 kilohms") or what the
/// number counts ("5 apples") must be something capability `m` (with its
/// `params`) knows, or the number is read without what it measures.
fn word_after_a_number(
    s: &SubIntent,
    m: &CapabilityManifest,
    params: &[crate::understand::bind::Param],
    read: &[String],
) -> Option<String> {
    use crate::understand::MentionKind;
    use ccos_marketplace::search::analyze;
    let mut vocab = capability_vocabulary(m, params);
    // What the steps read first do ("the first 2 *lines* of words.txt").
    vocab.extend(read.iter().cloned());
    let filler = filler_stems();
    let numbers = s.mentions.iter().flat_map(|x| {
        if x.items.is_empty() {
            vec![x]
        } else {
            x.items.iter().collect()
        }
    });
    for n in numbers.filter(|x| x.kind == MentionKind::Number && x.unit.is_none() && !x.weak) {
        let Some(after) = s.description.get(n.span.end..) else {
            continue;
        };
        // Glued ("2mA") or after a space, before any punctuation.
        if after.starts_with(|c: char| !(c.is_alphanumeric() || c == ' ')) {
            continue;
        }
        let Some(word) = after.split_whitespace().next() else {
            continue;
        };
        let word = word.trim_end_matches(|c: char| !c.is_alphanumeric());
        if word.is_empty() || !word.chars().any(char::is_alphabetic) {
            continue;
        }
        let lw = word.to_lowercase();
        // The next value itself ("5 'a'"), unless a chance capital ("10
        // F" is a temperature, not a name).
        let at = n.span.end + after.find(word).unwrap_or(0);
        let next_value = s
            .mentions
            .iter()
            .any(|x| x.span.start == at && !(x.kind == MentionKind::Name && x.weak));
        // "5 units": a length in whatever unit the capability takes.
        if lexicon::TIME_UNITS.contains(&lw.as_str())
            || next_value
            || matches!(lw.as_str(), "unit" | "units")
        {
            continue;
        }
        let stems = analyze(&lw);
        let known = !stems.is_empty()
            && stems.iter().all(|st| {
                filler.contains(st) || lexicon::synonym_stems(st).iter().any(|x| vocab.contains(x))
            });
        if !known {
            return Some(format!(
                "the goal says \"{} {word}\", and {} does not account for \"{word}\"",
                n.text, m.id
            ));
        }
    }
    None
}

/// The words of sub-intent `s` the guards judge against capability `m`:
/// [`operation_words`], without the user's own words when `m` takes them
/// and they are not quoted (then the quote is the payload, and the words
/// around it still say what to do: "echo 'sorted'" asks for nothing
/// sorted).
fn judged_words(s: &SubIntent, m: &CapabilityManifest) -> String {
    let mut text = without_time_ranges(s, operation_words(s));
    let quoted = s
        .mentions
        .iter()
        .any(|x| x.kind == crate::understand::mentions::MentionKind::Quoted);
    if !quoted
        && crate::understand::bind::takes_user_text(m)
        && let Some(p) = crate::understand::bind::payload(&text, &[])
    {
        text = text.replacen(&p, " ", 1);
    }
    text
}

/// `text` (sub-intent `s`'s words, its stated values blanked in place)
/// without the position word of a time range: "the *last* 3 days", "the
/// *next* 2 weeks" restrict to a time (the duration is a stated value),
/// they ask for no position.
fn without_time_ranges(s: &SubIntent, mut text: String) -> String {
    use crate::understand::mentions::MentionKind;
    // ("the last 3 *years*" is a number in years, not a duration: the
    // same range.)
    let of_time = |x: &&crate::understand::Mention| {
        x.kind == MentionKind::Duration
            || (x.kind == MentionKind::Number
                && x.unit
                    .as_deref()
                    .and_then(crate::understand::units::dimension_of)
                    == Some("time"))
    };
    for men in s.mentions.iter().filter(of_time) {
        let before = s.description.get(..men.span.start).unwrap_or_default();
        let trimmed = before.trim_end();
        let word = trimmed
            .rsplit(|c: char| !c.is_alphanumeric())
            .next()
            .unwrap_or_default();
        let at = trimmed.len() - word.len();
        if matches!(
            word.to_lowercase().as_str(),
            "last" | "next" | "past" | "previous" | "first" | "coming"
        ) && text
            .get(at..at + word.len())
            .is_some_and(|x| x.eq_ignore_ascii_case(word))
        {
            text.replace_range(at..at + word.len(), &" ".repeat(word.len()));
        }
    }
    text
}

/// The stems of the stop words (computed once).
fn stop_stems() -> &'static BTreeSet<String> {
    static STOP: std::sync::OnceLock<BTreeSet<String>> = std::sync::OnceLock::new();
    STOP.get_or_init(|| {
        crate::resolution::catalog::STOP_WORDS
            .iter()
            .flat_map(|w| ccos_marketplace::search::analyze(w))
            .collect()
    })
}

/// The stems of the stop words and [`lexicon::FILLER_WORDS`] (computed
/// once).
fn filler_stems() -> &'static BTreeSet<String> {
    static FILLER: std::sync::OnceLock<BTreeSet<String>> = std::sync::OnceLock::new();
    FILLER.get_or_init(|| {
        let mut all = stop_stems().clone();
        all.extend(lexicon::filler_word_stems().iter().cloned());
        all
    })
}

/// `text` without the names of files and folders in it ("the count in
/// *counts.csv*": the file's name is no noun of the request).
fn operation_words_of(text: &str) -> String {
    text.split_whitespace()
        .filter(|t| {
            let t = t.trim_end_matches([',', '?', '!', ';', ':', '.']);
            !t.contains('/') && !lexicon::names_a_file(t)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The words of sub-intent `s` that say what to do: its description
/// without the values it states (quoted text, paths, URLs, numbers, and
/// names past the first word: "New York" does not ask to create anything).
fn operation_words(s: &SubIntent) -> String {
    use crate::understand::mentions::MentionKind;
    let mut text = s.description.clone();
    for men in &s.mentions {
        let leading_name = men.kind == MentionKind::Name && men.span.start == 0;
        if !leading_name && s.description.get(men.span.start..men.span.end) == Some(&men.text) {
            text.replace_range(men.span.start..men.span.end, &" ".repeat(men.text.len()));
        } else if !leading_name {
            text = text.replacen(&men.text, " ", 1);
        }
    }
    text
}

/// Why `m`, bound as `b`, leaves a qualifier of sub-intent `s` undone
/// ("count the *unique* lines"; see [`lexicon::unserved_qualifier`]). The
/// values the clause states (quoted text, file names, URLs) and, for a
/// capability that takes the user's own words, those words are not
/// qualifiers: "echo 'sorted'" asks for nothing sorted.
fn unserved_qualifier_of(
    s: &SubIntent,
    m: &CapabilityManifest,
    b: &crate::understand::bind::Binding,
    text: &str,
    params: &[crate::understand::bind::Param],
) -> Option<String> {
    use crate::understand::mentions::MentionKind;
    // Negations, read on the goal's own words (a number word such as "no"
    // is not a value here), stated values (quoted text, paths) aside.
    let mut own = s.description.clone();
    for men in &s.mentions {
        if !matches!(men.kind, MentionKind::Number | MentionKind::Name) {
            own = own.replacen(&men.text, " ", 1);
        }
    }
    if let Some(why) = lexicon::negation(&own) {
        return Some(why);
    }
    // A time the goal restricts to ("this week", "recently") needs a
    // parameter that takes it: a total is no answer to "how many stars
    // this week".
    // "today" asks for the present of a capability that reports it ("the
    // current date and time"), and restricts any other ("today's
    // orders").
    let today = (lexicon::says_today(&own) && !reports_the_present(m)).then(|| "today".to_string());
    if let Some(when) = lexicon::time_restriction(&own).or(today) {
        use ccos_marketplace::search::analyze;
        let time_param = b.args.iter().any(|a| {
            analyze(&a.param).iter().any(|w| {
                [
                    "date", "since", "until", "time", "period", "rang", "start", "end", "year",
                    "month", "week", "day", "after", "befor", "from", "to",
                ]
                .contains(&w.as_str())
            })
        });
        if !time_param {
            return Some(format!(
                "the goal says \"{when}\", and {} takes no time to restrict to",
                m.id
            ));
        }
    }
    let params: Vec<String> = params.iter().map(|p| p.name.clone()).collect();
    let bound: BTreeSet<String> = b
        .args
        .iter()
        .map(|a| a.param.clone())
        .chain(b.found_first().map(|(p, _)| p.clone()))
        .chain(s.params.keys().cloned())
        .collect();
    lexicon::unserved_qualifier(text, m, &params, &bound)
}

/// Whether `m` says it reports the present ("The *current* date and
/// time", "get the weather *now*").
fn reports_the_present(m: &CapabilityManifest) -> bool {
    use ccos_marketplace::search::analyze;
    let present = lexicon::present_word_stems();
    analyze(&format!("{} {} {}", m.name, m.id, m.description))
        .iter()
        .any(|w| present.contains(w) || matches!(w.as_str(), "present" | "live"))
}

/// Why `m` cannot answer the question `text` asks, when it asks for a
/// number ("how many ...") and `m` does not return one: returning the
/// whole list would print a confident non-answer.
fn unanswered_question(
    text: &str,
    m: &CapabilityManifest,
    answered: Option<&serde_json::Value>,
) -> Option<String> {
    // Only when the result's fields are known and none answers.
    let fields_known = m
        .output_schema
        .as_ref()
        .and_then(|o| o.get("properties"))
        .and_then(|p| p.as_object())
        .is_some_and(|p| !p.is_empty());
    if asks_yes_or_no(text)
        && answered.is_none()
        && output_type(m) == Some("object")
        && fields_known
    {
        return Some(format!(
            "the goal asks yes or no; {} returns an object and no field of it answers",
            m.id
        ));
    }
    // A field of the result answers it ([`answer_field`] takes only a
    // number for "how many").
    if answered.is_some() {
        return None;
    }
    // "is notes.txt a file?": a yes or no, which a text, a list or a
    // number is not (attack trial: the file's content was the answer).
    // ("can you …" is a request put politely.)
    let polite = lexicon::POLITE_MODALS.contains(&first_word(text).as_str());
    if asks_yes_or_no(text)
        && !polite
        && output_type(m).is_some_and(|t| !matches!(t, "boolean" | "object"))
    {
        return Some(format!(
            "the goal asks yes or no; {} returns {}, not a yes or no",
            m.id,
            output_type(m).unwrap_or_default()
        ));
    }
    let lower = text.to_lowercase();
    // ("the total of the numbers in numbers.txt" asks for one, as "what
    // is the total …" does: attack trial, the numbers were the answer.)
    let one_of = ASKS_FOR_ONE.iter().any(|p| lower.starts_with(p))
        || asked_noun_phrase(text).is_some_and(names_one_thing);
    if one_of && returns_list(m) {
        return Some(format!(
            "the goal asks for one; {} returns a list (choosing from it needs an agent)",
            m.id
        ));
    }
    if !(lower.contains("how many") || lower.contains("how much") || lower.contains("number of")) {
        return None;
    }
    let ty = m
        .output_schema
        .as_ref()
        .and_then(|o| o.get("type"))
        .and_then(|t| t.as_str());
    match ty {
        Some("integer" | "number") => None,
        Some(other) => Some(format!(
            "the goal asks how many; {} returns {other}, not a number",
            m.id
        )),
        // No result declared: its name says what is counted ("how much
        // *revenue*" of `revenue_forecast`, "the number of *players*" of
        // `get_player_count`); a list's name never does ("how many files"
        // of `list_directory`).
        None if counted_by_name(&lower, m) => None,
        None => Some(format!(
            "the goal asks how many; {} does not say it returns a number",
            m.id
        )),
    }
}

/// Whether the thing a "how many / how much / the number of" question
/// counts (the head of the noun phrase after it: "how much *revenue*
/// would …", "the number of active *players*") is a word of `m`'s name written in the singular
/// (`revenue_forecast`, `get_player_count`), of a name with no verb of
/// listing: `get_lawsuit_cases` and `list_issues` return the things, not
/// how many.
fn counted_by_name(lower: &str, m: &CapabilityManifest) -> bool {
    use ccos_marketplace::search::analyze;
    const SKIP: &[&str] = &[
        "is", "are", "was", "were", "will", "would", "should", "could", "can", "do", "does", "did",
        "i", "we", "you", "the", "a", "an", "of", "my", "our", "your", "more", "less",
    ];
    const LISTING: &[&str] = &["list", "search", "find", "query", "browse", "all"];
    let raw: Vec<String> = ccos_marketplace::ids::words(&format!("{} {}", m.id, m.name));
    if raw.iter().any(|w| LISTING.contains(&w.as_str())) {
        return false;
    }
    let singular: BTreeSet<String> = raw
        .iter()
        .filter(|w| !w.ends_with('s') || w.ends_with("ss"))
        .flat_map(|w| analyze(w))
        .collect();
    ["how many ", "how much ", "number of "]
        .iter()
        .filter_map(|cue| lower.find(cue).map(|at| &lower[at + cue.len()..]))
        .any(|rest| {
            // The head of the noun phrase: its last word before a
            // function word ("how many lawsuit *cases* does …").
            let head = rest
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .skip_while(|w| SKIP.contains(w))
                .take_while(|w| {
                    !SKIP.contains(w) && !crate::resolution::catalog::STOP_WORDS.contains(w)
                })
                .last();
            head.is_some_and(|w| analyze(w).iter().any(|st| singular.contains(st)))
        })
}

/// Why `m`, which asks the user, does not serve `text`: only a goal that
/// says to ask (or prompt, or confirm) is served by asking its user; a
/// question the goal itself asks ("what are the names of ...") is not.
fn unasked_question(text: &str, m: &CapabilityManifest) -> Option<String> {
    if !m
        .effective_effects()
        .contains(&ccos_core::cards::Effect::User)
    {
        return None;
    }
    let says_ask = text.split_whitespace().any(|w| {
        matches!(
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
                .as_str(),
            "ask" | "prompt" | "confirm" | "request" | "choose" | "pick"
        )
    });
    (!says_ask).then(|| format!("{} asks the user, and the goal does not say to ask", m.id))
}

/// Whether `text` talks to the assistant rather than asks for work: it
/// says "you" or "your" and no verb of a request ("how are you today?",
/// "what's your name?"; not "can you fetch ..."). The words addressing
/// the assistant when it does.
fn conversation(text: &str) -> Option<String> {
    // "what do you know about Bob?" asks to look Bob up.
    let words: Vec<String> = lexicon::without_idioms(text)
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
                .to_lowercase()
        })
        .collect();
    // "Can you give me …", "could you please calculate …": a request
    // put politely, not a conversation.
    let polite_request = words.windows(4).any(|w| {
        lexicon::POLITE_MODALS.contains(&w[0].as_str())
            && w[1] == "you"
            && [&w[2], &w[3]]
                .into_iter()
                .find(|v| {
                    !matches!(
                        v.as_str(),
                        "please" | "kindly" | "first" | "also" | "then" | "now" | "just"
                    )
                })
                .is_some_and(|v| {
                    lexicon::is_request_verb(v)
                        || matches!(
                            v.as_str(),
                            "provide"
                                | "solve"
                                | "plot"
                                | "determine"
                                | "predict"
                                | "identify"
                                | "locate"
                                | "draw"
                                | "play"
                                | "analyze"
                                | "analyse"
                                | "estimate"
                                | "evaluate"
                                | "assess"
                                | "simulate"
                                | "visualize"
                                | "generate"
                                | "recommend"
                                | "suggest"
                        )
                })
    });
    let at = words
        .iter()
        .position(|w| matches!(w.as_str(), "you" | "your" | "yourself" | "you're"))?;
    if polite_request
        || words
            .iter()
            .any(|w| crate::understand::lexicon::is_action_verb(w))
    {
        return None;
    }
    // The words that address the assistant ("how are you", "what do
    // you"), for the report.
    Some(words[at.saturating_sub(2)..=at].join(" "))
}

/// The list a counted sub-intent `s` ("list forks of acme/rocket", read
/// from "how many forks …") counts in `m`'s result: `Some(None)` for an
/// array result, `Some(Some(field))` for the array field of an object
/// (the field the goal names, else the page's `results`/`items`/`data`);
/// `None` when `m` does not say it returns a list, or a word of what is
/// counted is neither in its name nor the field's ("forks" is not what
/// `issues.list-for-repo` lists).
fn counted_list(s: &SubIntent, m: &CapabilityManifest) -> Option<Option<String>> {
    use ccos_marketplace::search::analyze;
    let out = m.output_schema.as_ref()?;
    let mut skip = filler_stems().clone();
    skip.extend(lexicon::request_word_stems().iter().cloned());
    let asked: Vec<Vec<String>> = reportable_words(s, &skip)
        .into_iter()
        .map(|(_, stems)| stems)
        .collect();
    let named_by = |words: &BTreeSet<String>| {
        asked.iter().any(|stems| {
            stems
                .iter()
                .all(|st| lexicon::synonym_stems(st).iter().any(|x| words.contains(x)))
        })
    };
    let name = lexicon::name_words(m);
    if is_array(out) {
        // The noun counted is the head of the phrase, not a word before
        // it: "how many *unique* cities" counts cities, which a
        // capability named `unique` does not say it returns.
        // What a stated file holds counts as the list's ("how many
        // unique *numbers* are in numbers.txt"). Its name does too, but
        // not for distinct values: "how many unique scores are in
        // scores.json" may count distinct records or distinct `score`s.
        if let Some(head) = counted_noun(&s.description) {
            let head: Vec<String> = analyze(&head);
            let distinct = lexicon::words_of(&s.description)
                .iter()
                .any(|w| matches!(w.as_str(), "unique" | "distinct" | "different"));
            let held: BTreeSet<String> = s
                .mentions
                .iter()
                .filter(|x| {
                    x.kind == crate::understand::MentionKind::Path && lexicon::names_a_file(&x.text)
                })
                .flat_map(|x| {
                    let mut held = lexicon::held_noun_stems(&x.text);
                    if !distinct {
                        held.extend(lexicon::file_name_stems(&x.text));
                    }
                    held
                })
                .collect();
            return head
                .iter()
                .all(|st| {
                    held.contains(st) || lexicon::synonym_stems(st).iter().any(|x| name.contains(x))
                })
                .then_some(None);
        }
        return named_by(&name).then_some(None);
    }
    let props = out.get("properties")?.as_object()?;
    let arrays: Vec<&String> = props
        .iter()
        .filter(|(_, v)| is_array(v))
        .map(|(k, _)| k)
        .collect();
    if let Some(k) = arrays
        .iter()
        .find(|k| named_by(&analyze(k).into_iter().collect()))
    {
        return Some(Some((*k).clone()));
    }
    let page = arrays
        .iter()
        .find(|k| matches!(k.as_str(), "results" | "items" | "data"))?;
    named_by(&name).then(|| Some((*page).clone()))
}

/// The noun a listing read from "how many …" counts: the last word before
/// the verb or preposition that follows the noun phrase ("list *unique
/// cities* are in people.json" → `cities`, "list open *issues* does
/// acme/rocket have" → `issues`, "list *people* in people.json live in
/// London" → `people`); `None` when the phrase is longer than three
/// words.
fn counted_noun(description: &str) -> Option<String> {
    let words = lexicon::words_of(description);
    let rest = words.strip_prefix(&["list".to_string()])?;
    let end = rest.iter().position(|w| {
        matches!(
            w.as_str(),
            "are"
                | "is"
                | "does"
                | "do"
                | "did"
                | "has"
                | "have"
                | "were"
                | "was"
                | "in"
                | "of"
                | "on"
                | "from"
                | "for"
                | "at"
                | "by"
                | "with"
                | "there"
        )
    })?;
    (1..=3).contains(&end).then(|| rest[end - 1].clone())
}

/// Whether `m`'s result is the list sub-intent `s` asks for: an array, a
/// page (`results`, `items`, `data`), or an object with an array field the
/// request names ("list the movie *genres*": `{"genres": [...]}`). A
/// repository's `topics` are not its stars.
fn lists_what_is_asked(s: &SubIntent, m: &CapabilityManifest) -> bool {
    use ccos_marketplace::search::analyze;
    if returns_list(m) {
        return true;
    }
    let Some(props) = m
        .output_schema
        .as_ref()
        .and_then(|o| o.get("properties"))
        .and_then(|p| p.as_object())
    else {
        return false;
    };
    let asked: BTreeSet<String> = reportable_words(s, stop_stems())
        .into_iter()
        .flat_map(|(_, stems)| stems)
        .collect();
    props
        .iter()
        .any(|(key, schema)| is_array(schema) && analyze(key).iter().any(|k| asked.contains(k)))
}

/// Whether `m` answers with a list: an array, or a page object whose
/// `results`/`items`/`data` is one.
fn returns_list(m: &CapabilityManifest) -> bool {
    let Some(o) = m.output_schema.as_ref() else {
        return false;
    };
    is_array(o)
        || ["results", "items", "data"].iter().any(|k| {
            o.get("properties")
                .and_then(|p| p.get(*k))
                .is_some_and(is_array)
        })
}

/// Why `m` does not answer the question `text`: a question ("which open
/// issues ...?") is answered by reading, never by an operation that
/// creates, changes or deletes something.
fn question_that_changes(text: &str, m: &CapabilityManifest) -> Option<String> {
    if !is_question(text) {
        return None;
    }
    let ops = crate::understand::lexicon::data_operations(m);
    // A capability declared pure changes nothing, whatever its name says
    // ("could you *add* 40 and 2?").
    let changes = ops
        .iter()
        .any(|o| matches!(*o, "create" | "update" | "delete"))
        && !ops.contains("read")
        && !m.effects.contains(&ccos_marketplace::Effect::Pure);
    // A capability declared to write, whatever its name says
    // (`scheduleViewing`, whose "viewing" reads as a view): "did I
    // schedule a viewing?" is no request to schedule one (helper trial).
    let writes = m.effects.contains(&ccos_marketplace::Effect::Write);
    (changes || writes).then(|| {
        format!(
            "the goal asks a question; {} changes things ({})",
            m.id,
            if writes {
                "it writes".to_string()
            } else {
                ops.iter().copied().collect::<Vec<_>>().join(", ")
            }
        )
    })
}

/// Why a capability that counts (`count_words`: its name says "count",
/// its result is a number) does not serve `text`: the goal asks for no
/// number ("find all the words in notes.txt" lists them; counting them
/// answers something else). A goal asks for a count by "how many", "the
/// number of", or by saying count, number, total or tally. `read`: the
/// words of what the plan reads first ([`read_step_words`]).
fn count_not_asked(text: &str, m: &CapabilityManifest, read: &[String]) -> Option<String> {
    use ccos_marketplace::search::analyze;
    let counts = lexicon::name_words(m).contains("count")
        && matches!(output_type(m), Some("integer" | "number"));
    if !counts {
        return None;
    }
    // What is counted must be what it counts: "how many *characters* are
    // in the word cat" is not a count of words.
    let words = ccos_marketplace::ids::words(text);
    let counted = words.windows(2).enumerate().find_map(|(i, w)| {
        let opens = matches!(
            (w[0].as_str(), w[1].as_str()),
            ("how", "many") | ("number", "of")
        ) || w[0] == "count";
        opens.then(|| {
            words[i + if w[0] == "count" { 1 } else { 2 }..]
                .iter()
                .find(|x| {
                    !matches!(x.as_str(), "all" | "how" | "many" | "much" | "up")
                        && !lexicon::COURTESY.contains(&x.as_str())
                        && !analyze(x).iter().all(|st| stop_stems().contains(st))
                })
        })?
    });
    // "the count in counts.csv", "the count in data.json": "count" as a
    // noun, nothing said to be counted (the file's name is no noun of
    // the goal): a line count or the entries of a map would answer what
    // may well be the file's own `count` (attack trial).
    let blanked = operation_words_of(text);
    let said = ccos_marketplace::ids::words(&blanked);
    let count_as_noun = said.windows(2).enumerate().any(|(i, w)| {
        matches!(w[0].as_str(), "the" | "a" | "its" | "their" | "total")
            && w[1] == "count"
            && !said[i + 2..].iter().any(|x| {
                !analyze(x).iter().all(|st| stop_stems().contains(st))
                    && !lexicon::COURTESY.contains(&x.as_str())
            })
    });
    if count_as_noun {
        return Some(format!(
            "the goal does not say what \"the count\" counts; {} counts what its name says",
            m.id
        ));
    }
    if let Some(noun) = counted {
        let mut own: BTreeSet<String> = lexicon::name_words(m);
        own.extend(analyze(&m.description));
        // What a file read first became: "count the people in
        // people.json" counts the records it holds.
        own.extend(read.iter().cloned());
        let known = analyze(noun)
            .iter()
            .all(|st| lexicon::synonym_stems(st).iter().any(|x| own.contains(x)));
        if !known && noun.chars().all(char::is_alphabetic) {
            return Some(format!(
                "the goal counts {noun}, which {} does not count",
                m.id
            ));
        }
    }
    if asks_how_many(text) {
        return None;
    }
    let says_count = analyze(text)
        .iter()
        .any(|w| COUNT_STEMS.contains(&w.as_str()) || w == "talli");
    (!says_count).then(|| {
        format!(
            "the goal asks for no count; {} counts (it returns a number)",
            m.id
        )
    })
}

/// Why deleting with `m`, bound as `b`, would remove more than sub-intent
/// `s` asks: `m` deletes everything of a kind (`deleteMessages` by
/// folder, `revokeTokens` by scope: nothing bound names one item), and the
/// goal asks for part of it ("delete *one* message from spam", "revoke
/// *some* tokens") or for one thing ("delete *the message* in the inbox").
fn deletes_more_than_asked(
    s: &SubIntent,
    m: &CapabilityManifest,
    b: &crate::understand::bind::Binding,
) -> Option<String> {
    use ccos_marketplace::ids::words;
    use ccos_marketplace::search::analyze;
    if !lexicon::data_operations(m).contains("delete") {
        return None;
    }
    // A bound parameter naming the item (its id, name, path, title).
    let names_item = b.args.iter().any(|a| {
        analyze(&a.param).iter().any(|w| {
            [
                "id", "name", "path", "titl", "key", "number", "file", "uri", "url",
            ]
            .contains(&w.as_str())
        })
    });
    if names_item {
        return None;
    }
    // The goal's own words: "one" is also a number mention.
    let goal = words(&s.description);
    const PART: &[&str] = &[
        "one",
        "a",
        "an",
        "some",
        "few",
        "several",
        "couple",
        "single",
        "certain",
        "particular",
    ];
    if let Some(w) = goal.iter().find(|w| PART.contains(&w.as_str())) {
        return Some(format!(
            "the goal deletes \"{w}\" of them; {} deletes all of a kind",
            m.id
        ));
    }
    // The goal's word is the singular of the capability's plural.
    let own = words(m.id.rsplit('.').next().unwrap_or(&m.id));
    let single = goal.iter().find(|w| {
        own.iter()
            .any(|o| o.strip_suffix('s') == Some(w.as_str()) && o.len() > 3)
    })?;
    Some(format!(
        "the goal deletes one {single}; {} deletes all of a kind",
        m.id
    ))
}

/// The first word of `text`, lower case, without punctuation.
fn first_word(text: &str) -> String {
    text.split_whitespace()
        .next()
        .unwrap_or("")
        .trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
        .to_lowercase()
}

/// Whether `text` asks for a number ("how many", "how much", "the number
/// of").
fn asks_how_many(text: &str) -> bool {
    let lower = text.to_lowercase();
    lower.contains("how many") || lower.contains("how much") || lower.contains("number of")
}

/// Whether `text` asks yes or no: it opens with a verb ("is", "does",
/// "has" …).
fn asks_yes_or_no(text: &str) -> bool {
    // "I would like to know *whether* notes.txt exists", "tell me *if* …"
    // (attack trial: the file's whole metadata was the answer).
    let words = lexicon::words_of(text);
    matches!(
        first_word(text).as_str(),
        "is" | "are" | "was" | "were" | "does" | "do" | "did" | "has" | "have" | "can"
    ) || words.iter().any(|w| w == "whether")
        || words
            .windows(2)
            .any(|p| matches!(p[0].as_str(), "know" | "tell" | "check" | "see") && p[1] == "if")
        || words.windows(3).any(|p| p == ["tell", "me", "if"])
}

/// The type of `m`'s result, when its schema states one.
fn output_type(m: &CapabilityManifest) -> Option<&str> {
    m.output_schema.as_ref()?.get("type")?.as_str()
}

/// Whether `schema` is an array's.
fn is_array(schema: &serde_json::Value) -> bool {
    schema.get("type").and_then(|t| t.as_str()) == Some("array")
}

/// Whether `text` is a question: it ends with "?" or opens with a
/// question word.
fn is_question(text: &str) -> bool {
    let t = text.trim();
    // "can you book flight BA249 for me?" is a request put politely.
    let mut first_two = t.split_whitespace().map(str::to_lowercase);
    if first_two
        .next()
        .is_some_and(|w| lexicon::POLITE_MODALS.contains(&w.as_str()))
        && first_two.next().as_deref() == Some("you")
    {
        return false;
    }
    t.ends_with('?')
        || matches!(
            first_word(t).as_str(),
            "which"
                | "what"
                | "what's"
                | "whats"
                | "who"
                | "whose"
                | "when"
                | "where"
                | "how"
                | "is"
                | "are"
                | "does"
                | "do"
        )
}

/// Whether `text` asks to be told something: a question, or a request
/// to show what is ("list the cast of …", "show me the stars of …",
/// "tell me the runtime of …").
fn asks_to_be_told(text: &str) -> bool {
    let first = first_word(text);
    is_question(text)
        || matches!(
            first.as_str(),
            "list" | "show" | "tell" | "give" | "display"
        )
        // "find the size of data.json" (attack trial: the file's whole
        // metadata was the answer).
        || (matches!(first.as_str(), "find" | "get")
            && lexicon::word_spans(text)
                .first()
                .and_then(|(span, _)| text.get(span.end..))
                .and_then(|rest| asked_noun_phrase(rest.trim_start()))
                .is_some())
        || asked_noun_phrase(text).is_some()
        || asks_yes_or_no(text)
}

/// The noun phrase a goal asks for by naming it: the whole goal when it
/// is one ("the size of docs/c.txt", no verb of a sentence), or the one
/// after words of wanting ("I also need *the size of config.json*", "I
/// would like to know *the version* …"). It is asked as "what is …" asks
/// it: a field of one result answers it, and a singular one is not a
/// list.
fn asked_noun_phrase(text: &str) -> Option<&str> {
    const WANTING: &[&str] = &[
        "i", "we", "would", "like", "to", "know", "need", "want", "also", "please", "just",
        "really", "could", "can", "you", "tell", "me", "us", "see",
    ];
    let words = lexicon::word_spans(text);
    let at = words
        .iter()
        .position(|(_, w)| !WANTING.contains(&w.as_str()))?;
    let (span, w) = &words[at];
    let phrase = text.get(span.start..)?;
    (w == "the" && !crate::decompose::has_a_sentence_verb(phrase)).then_some(phrase)
}

/// Whether the noun phrase `phrase` ("the total of the numbers …") names
/// one thing: its head — the word before its first preposition — is no
/// plural ("the *numbers* of …" are many).
fn names_one_thing(phrase: &str) -> bool {
    let words = lexicon::words_of(phrase);
    let head = words
        .iter()
        .take_while(|w| {
            !matches!(
                w.as_str(),
                "of" | "in" | "from" | "on" | "for" | "at" | "with"
            )
        })
        .last();
    // (A container names what it holds: "see the docs *folder*" is its
    // listing.)
    head.is_some_and(|h| {
        (!h.ends_with('s') || h.ends_with("ss"))
            && !matches!(
                h.as_str(),
                "folder" | "directory" | "dir" | "list" | "listing" | "content" | "contents"
            )
    })
}

/// The field of `m`'s structured result that the question `s` asks for,
/// with the word that names it: "how many *stars* does acme/rocket
/// have?" → `stargazers_count` ("Number of stars"); "what *language* is
/// acme/anvil written in?" → `language`; "is acme/roadrunner
/// *archived*?" → `archived`.
///
/// A word of the question (values and words of asking aside) names a
/// field by the field's name; by its description only when the question
/// also fixes the type (a number for "how many", a yes or no for "is …"),
/// which the field must have. Exactly one field must be named: two named
/// fields, or none, and the whole result is the answer as before.
fn answer_field(s: &SubIntent, m: &CapabilityManifest) -> Option<(String, String, usize)> {
    checked_answer_field(s, m).ok().flatten()
}

/// [`answer_field`], or why `m` cannot answer: the question names a field
/// only of a kind that does not answer it ("show me the *forks*": the
/// repository has `forks_count`, a count, and `fork`, a flag; the whole
/// repository is not the forks).
fn checked_answer_field(
    s: &SubIntent,
    m: &CapabilityManifest,
) -> Result<Option<(String, String, usize)>, String> {
    use ccos_marketplace::search::analyze;
    if !asks_to_be_told(&s.description) {
        return Ok(None);
    }
    let Some(props) = m
        .output_schema
        .as_ref()
        .and_then(|o| o.get("properties"))
        .and_then(|p| p.as_object())
    else {
        return Ok(None);
    };
    let counting = asks_how_many(&s.description);
    // "the fork count", "the number of forks": a count, said otherwise.
    let says_count = analyze(&s.description)
        .iter()
        .any(|w| COUNT_STEMS.contains(&w.as_str()));
    let yes_no = asks_yes_or_no(&s.description);
    let wanted = |schema: &serde_json::Value| {
        // `["string", "null"]`: the first type that is not null.
        let ty = crate::understand::bind::schema_type(schema);
        let ty = ty.as_deref();
        if counting {
            matches!(ty, Some("integer" | "number"))
        } else if yes_no {
            ty == Some("boolean")
        } else {
            // "what is the license of acme/rocket": an object answers too.
            ty.is_some()
        }
    };
    // Filler words count here ("the original *title*").
    let mut skip = stop_stems().clone();
    skip.extend(lexicon::request_word_stems().iter().cloned());
    // The capability's own name words say which operation, not which
    // field ("get a *repository*").
    skip.extend(lexicon::name_words(m));
    // A word labelling a number names no field ("issue *number* 3").
    let labels: BTreeSet<String> = s
        .mentions
        .iter()
        .filter(|men| men.kind == crate::understand::MentionKind::Number)
        .filter_map(|men| {
            s.description
                .get(..men.span.start)
                .and_then(|before| before.split_whitespace().next_back())
                .map(|w| {
                    w.trim_matches(|c: char| !c.is_alphanumeric())
                        .to_lowercase()
                })
        })
        .collect();
    let words: Vec<(String, Vec<String>)> = reportable_words(s, &skip)
        .into_iter()
        .filter(|(w, _)| !labels.contains(w))
        .collect();
    // Field → the words of the question naming it.
    let mut named: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    // Fields the question names by their key that do not answer it (a
    // count for "show me the forks"): (key, word).
    let mut unfit: Vec<(&str, String)> = vec![];
    for (key, schema) in props {
        let key_words: BTreeSet<String> = analyze(key).into_iter().collect();
        // A flag answers only when the question says its very word: "is
        // it a *fork*?", "does it have *issues*?" (`has_issues`); "does
        // it have *forks*?" asks whether others forked it, which the
        // `fork` flag (it is a fork) does not say.
        let is_flag = crate::understand::bind::schema_type(schema).as_deref() == Some("boolean");
        let key_surface: BTreeSet<String> = ccos_marketplace::ids::words(key).into_iter().collect();
        let desc_surface: BTreeSet<String> = schema
            .get("description")
            .and_then(|d| d.as_str())
            .map(|d| ccos_marketplace::ids::words(d).into_iter().collect())
            .unwrap_or_default();
        // "How many votes": a count, not `vote_average`.
        let measure = ["averag", "avg", "mean", "rate", "ratio", "percent", "score"]
            .iter()
            .any(|w| key_words.contains(*w));
        // "Show me the open issues": the issues, not `open_issues_count`;
        // a count answers only "how many".
        let tally = COUNT_STEMS.iter().any(|w| key_words.contains(*w));
        // A yes or no answers a yes-or-no question, not "show me the
        // forks" or "what is the fork count" (the repository's `fork`
        // flag).
        let flag = is_flag && !yes_no;
        if !wanted(schema) || (counting && measure) || (tally && !counting && !says_count) || flag {
            if let Some((w, _)) = words.iter().find(|(_, stems)| {
                !stems.is_empty()
                    && stems.iter().all(|st| {
                        lexicon::synonym_stems(st)
                            .iter()
                            .any(|x| key_words.contains(x))
                    })
            }) {
                unfit.push((key.as_str(), w.clone()));
            }
            continue;
        }
        let desc_words: BTreeSet<String> = schema
            .get("description")
            .and_then(|d| d.as_str())
            .map(|d| analyze(d).into_iter().collect())
            .unwrap_or_default();
        let names = |stems: &[String], of: &BTreeSet<String>| {
            !stems.is_empty()
                && stems.iter().all(|st| {
                    lexicon::synonym_stems(st).iter().any(|x| of.contains(x))
                        || field_synonyms(st).any(|x| of.contains(x))
                })
        };
        for (w, stems) in &words {
            // A flag is named by its very word ("exist" for `exists`), not
            // by another form of it ("forks", "forked" for `fork`).
            let says_flag = key_surface.contains(w)
                || key_surface.contains(&format!("{w}s"))
                || desc_surface.contains(w);
            if is_flag && !says_flag {
                continue;
            }
            if names(stems, &key_words)
                || ((counting || says_count || yes_no) && names(stems, &desc_words))
            {
                named.entry(key.as_str()).or_default().insert(w.clone());
            }
        }
    }
    if named.is_empty()
        && let Some((_, word)) = unfit.first()
    {
        let keys: Vec<&str> = unfit
            .iter()
            .filter(|(_, w)| w == word)
            .map(|(k, _)| *k)
            .collect();
        return Err(format!(
            "the goal asks for \"{word}\"; {} has it only as {}, which does not answer that",
            m.id,
            keys.join(", ")
        ));
    }
    // The field named by the most words, when it is the only one and
    // every word naming some field names it ("original title": not
    // `original_language`; "the runtime and the original title": none).
    let naming: BTreeSet<&String> = named.values().flatten().collect();
    let Some(most) = named.values().map(BTreeSet::len).max() else {
        return Ok(None);
    };
    let mut best: Vec<(&str, &BTreeSet<String>)> = named
        .iter()
        .filter(|(_, ws)| ws.len() == most)
        .map(|(k, ws)| (*k, ws))
        .collect();
    // "*when* was she born": the date, not the place of birth; "*where*":
    // the place.
    let kind: &[&str] = match first_word(&s.description).as_str() {
        "when" => &["day", "date", "time", "year"],
        "where" => &["place", "location", "city", "country", "address"],
        _ => &[],
    };
    if best.len() > 1 && !kind.is_empty() {
        // By the key's letters: `birthday` is a day.
        best.retain(|(k, _)| kind.iter().any(|x| k.to_lowercase().contains(x)));
    }
    // A count field's own words are all said ("how many *open* issues"
    // for `open_issues_count`; "how many issues" is not that count).
    let said: BTreeSet<&String> = words.iter().flat_map(|(_, st)| st).collect();
    best.retain(|(k, _)| {
        let key_words = analyze(k);
        let own: Vec<&String> = key_words
            .iter()
            .filter(|w| !COUNT_STEMS.contains(&w.as_str()) && *w != "of")
            .collect();
        let tally = own.len() < key_words.len();
        !tally
            || own
                .iter()
                .all(|w| lexicon::synonym_stems(w).iter().any(|x| said.contains(x)))
            // `stargazers_count` ("Number of stars"): named by its
            // description, its key says nothing the question must.
            || !own.iter().any(|w| said.contains(*w))
    });
    Ok(match best.as_slice() {
        [(field, ws)] if ws.len() == naming.len() => Some((
            field.to_string(),
            ws.iter().cloned().collect::<Vec<_>>().join(" "),
            most,
        )),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ccos_marketplace::builtins::{BuiltinConfig, install};

    pub(crate) fn builtins() -> Arc<Marketplace> {
        let mp = Marketplace::new().unwrap();
        install(&mp, BuiltinConfig::default()).unwrap();
        Arc::new(mp)
    }

    fn planner(policy: Policy) -> Planner {
        Planner::new(builtins(), policy, PatternDecomposition::builtin().unwrap())
    }

    #[test]
    fn a_verb_with_no_object_reshapes_the_previous_result_of_the_right_kind() {
        let p = planner(Policy::default());
        // "then sort": the list just made.
        let r = p.plan("split 'b,a,c' on commas, then sort").unwrap();
        let rtfs = r.rtfs.unwrap_or_default();
        assert!(
            rtfs.contains("(call :ccos.data.sort {:items s1})"),
            "{rtfs}"
        );
        // A text or a number is no list: refused when planned, not failed
        // when run.
        for goal in ["read notes.txt, then sort", "add 3 and 4, then sort"] {
            let r = p.plan(goal).unwrap();
            assert!(r.rtfs.is_none(), "{goal}: {:?}", r.rtfs);
            assert!(
                format!("{:?}", r.requires_agent).contains("takes a list"),
                "{goal}: {:?}",
                r.requires_agent
            );
        }
        // A number is written out where a text is wanted ("expects
        // string, got int" when run).
        let r = p.plan("add 2 and 3, then echo it").unwrap();
        let rtfs = r.rtfs.unwrap_or_default();
        assert!(rtfs.contains("{:message (str s1)}"), "{rtfs}");
        // Nor is a list a text: reversing the sorted lines as a text
        // failed when run.
        let r = p
            .plan("split 'b,a,c' on commas, then sort, then reverse")
            .unwrap();
        assert!(r.rtfs.is_none(), "{:?}", r.rtfs);
        assert!(
            format!("{:?}", r.requires_agent).contains("takes a text"),
            "{:?}",
            r.requires_agent
        );
    }

    #[test]
    fn two_capabilities_that_fit_exactly_as_well_are_not_picked_by_name() {
        let p = planner(Policy::default());
        // Lower or upper case? The goal does not say (new-user trial).
        let r = p.plan("convert 'Hello World' to json").unwrap();
        assert!(r.rtfs.is_none(), "{:?}", r.rtfs);
        let why = format!("{:?}", r.requires_agent);
        assert!(why.contains("as good a fit as"), "{why}");
        // Said, it is served.
        let r = p.plan("convert 'Hello World' to upper case").unwrap();
        assert!(r.rtfs.is_some_and(|t| t.contains("ccos.text.upper")));
        // "the first line": the one at position 1 of the lines, never any
        // item a capability returning a list would give.
        let r = p.plan("show the first line of notes.txt").unwrap();
        assert!(
            r.rtfs
                .as_ref()
                .is_some_and(|t| t.contains("(call :ccos.data.nth {:items s2 :position 1})")),
            "{:?}",
            r.rtfs
        );
    }

    /// The built-ins plus a repository lookup and an issue list, as an
    /// imported OpenAPI document gives them.
    fn repositories() -> Planner {
        use ccos_marketplace::{CapabilityManifest, Effect};
        use serde_json::json;
        let mp = builtins();
        let repo = json!({"type": "object", "properties": {
            "owner": {"type": "string"}, "repo": {"type": "string"}},
            "required": ["owner", "repo"]});
        mp.register(
            CapabilityManifest::new(
                "gh.repos.get",
                "Get a repository: description, forks, license.",
                repo.clone(),
            )
            .with_effects(&[Effect::Network])
            .with_output(json!({"type": "object", "properties": {
                "fork": {"type": "boolean"},
                "forks_count": {"type": "integer"},
                "license": {"type": "object", "properties": {"name": {"type": "string"}}},
                "language": {"type": "string"}}})),
        )
        .unwrap();
        let mut list = repo;
        list["properties"]["labels"] =
            json!({"type": "string", "description": "Comma-separated label names, e.g. bug,ui"});
        mp.register(
            CapabilityManifest::new(
                "gh.issues.list-for-repo",
                "List the issues of a repository.",
                list,
            )
            .with_effects(&[Effect::Network])
            .with_output(json!({"type": "array", "items": {"type": "object"}})),
        )
        .unwrap();
        planner_over(mp)
    }

    /// The built-ins, a knowledge-graph memory (the reference server's
    /// schemas) and a tool that creates branches.
    fn memory() -> Planner {
        use ccos_marketplace::{CapabilityManifest, Effect};
        use serde_json::json;
        let mp = builtins();
        let texts = json!({"type": "array", "items": {"type": "string"}});
        let create = json!({"type": "object", "properties": {"entities": {"type": "array", "items": {
            "type": "object",
            "properties": {"name": {"type": "string"}, "entityType": {"type": "string"}, "observations": texts},
            "required": ["name", "entityType", "observations"]}}},
            "required": ["entities"]});
        let add = json!({"type": "object", "properties": {"observations": {"type": "array", "items": {
            "type": "object",
            "properties": {"entityName": {"type": "string"}, "contents": texts},
            "required": ["entityName", "contents"]}}},
            "required": ["observations"]});
        let branch = json!({"type": "object", "properties": {
            "repo_path": {"type": "string"}, "branch_name": {"type": "string"}},
            "required": ["repo_path", "branch_name"]});
        for (id, what, schema) in [
            (
                "mcp.memory.create_entities",
                "Create multiple new entities in the knowledge graph",
                create,
            ),
            (
                "mcp.memory.add_observations",
                "Add new observations to existing entities in the knowledge graph",
                add,
            ),
            ("mcp.git.git_create_branch", "Creates a new branch", branch),
        ] {
            mp.register(CapabilityManifest::new(id, what, schema).with_effects(&[Effect::Write]))
                .unwrap();
        }
        planner_over(mp)
    }

    #[test]
    fn a_lone_verb_after_a_request_acts_on_its_result_or_is_refused() {
        use ccos_marketplace::{CapabilityManifest, Effect};
        use serde_json::json;
        let mp = builtins();
        mp.register(
            CapabilityManifest::new(
                "maintenance.emptyTrash",
                "Empty the trash",
                json!({"type": "object", "properties": {}}),
            )
            .with_effects(&[Effect::Write]),
        )
        .unwrap();
        let p = planner_over(mp);
        // Before: the folded "then empty" was dropped; planned on its own
        // it emptied the trash, which is not what was listed.
        let r = p.plan("List the files in ., then empty").unwrap();
        assert!(r.rtfs.is_none(), "{:?}", r.rtfs);
        assert!(
            format!("{:?}", r.requires_agent).contains("does not take the earlier result"),
            "{:?}",
            r.requires_agent
        );
    }

    #[test]
    fn a_doubt_about_a_value_tries_no_other_capability() {
        use ccos_marketplace::CapabilityManifest;
        use serde_json::json;
        let mp = builtins();
        mp.register(CapabilityManifest::new(
            "parking.findParking",
            "Find parking: parking garages and parking lots in a city",
            json!({"type": "object",
                   "properties": {"city": {"type": "string", "description": "The city"}},
                   "required": ["city"]}),
        ))
        .unwrap();
        mp.register(CapabilityManifest::new(
            "parks.listParks",
            "List the parks of a state",
            json!({"type": "object",
                   "properties": {"state": {"type": "string", "description": "The state"}},
                   "required": ["state"]}),
        ))
        .unwrap();
        let p = planner_over(mp);
        // Refused by the parking search alone, the parks search took it.
        let r = p.plan("Find parking in Texas").unwrap();
        assert!(r.rtfs.is_none(), "{:?}", r.rtfs);
        assert!(
            format!("{:?}", r.requires_agent).contains("no other capability is tried"),
            "{:?}",
            r.requires_agent
        );
        // A state named so is no city (attack trial: `{:city "New York
        // State"}`).
        let r = p.plan("Find parking in New York State").unwrap();
        assert!(r.rtfs.is_none(), "{:?}", r.rtfs);
        // A street is no city (attack trial: `{:city "Wall Street"}`).
        let r = p.plan("Find parking in Wall Street").unwrap();
        assert!(r.rtfs.is_none(), "{:?}", r.rtfs);
        assert!(
            format!("{:?}", r.requires_agent).contains("a street, not a value for :city"),
            "{:?}",
            r.requires_agent
        );
    }

    #[test]
    fn a_name_before_the_plural_of_a_parameters_noun_is_no_such_thing() {
        use ccos_marketplace::CapabilityManifest;
        use serde_json::json;
        let mp = builtins();
        let one = |id: &str, what: &str, param: &str, desc: &str| {
            CapabilityManifest::new(
                id,
                what,
                json!({"type": "object",
                       "properties": {param: {"type": "string", "description": desc},
                                      "city": {"type": "string", "description": "City"}},
                       "required": [param]}),
            )
        };
        for m in [
            one("games.findGame", "Find a game", "game", "The game title"),
            one("songs.playSong", "Play a song", "song", "The song title"),
            one(
                "chains.findHotel",
                "Find hotels",
                "hotel",
                "The hotel or chain",
            ),
        ] {
            mp.register(m).unwrap();
        }
        let p = planner_over(mp);
        // Attack trial: `{:game "Nintendo"}`, `{:song "Play Beatles"}`.
        for (goal, why) in [
            ("Find Nintendo games", "it says which games, not a :game"),
            ("Play Beatles songs", "it says which songs, not a :song"),
        ] {
            let r = p.plan(goal).unwrap();
            assert!(r.rtfs.is_none(), "{goal}: {:?}", r.rtfs);
            assert!(
                format!("{:?}", r.requires_agent).contains(why),
                "{goal}: {:?}",
                r.requires_agent
            );
        }
        // One thing so named, or a kind the parameter takes.
        let r = p.plan("Find the game Zelda").unwrap();
        assert!(flat(&r).contains(r#"{:game "Zelda"}"#), "{:?}", r.rtfs);
        let r = p.plan("Find Hilton hotels in Denver").unwrap();
        assert!(
            flat(&r).contains(r#"{:city "Denver" :hotel "Hilton"}"#),
            "{:?}",
            r.rtfs
        );
    }

    #[test]
    fn the_service_a_capability_names_is_no_value_of_it() {
        use ccos_marketplace::CapabilityManifest;
        use serde_json::json;
        let mp = builtins();
        mp.register(CapabilityManifest::new(
            "ny_times.searchArticles",
            "Search NY Times articles",
            json!({"type": "object",
                   "properties": {"query": {"type": "string", "description": "Search terms"},
                                  "section": {"type": "string", "description": "Newspaper section, like Sports or Arts"}}}),
        ))
        .unwrap();
        let p = planner_over(mp);
        // Attack trial: `{:query "Christmas" :section "NY Times"}`.
        let r = p.plan("Search NY Times articles about Christmas").unwrap();
        assert!(
            flat(&r).contains(r#"(call :ny_times.searchArticles {:query "Christmas"})"#),
            "{:?}",
            r.rtfs
        );
        assert!(says_words("Search NY Times articles", "ny times"));
        assert!(!says_words("Search NY Timesheets", "ny times"));
    }

    #[test]
    fn a_street_fills_the_street_and_the_city_the_city() {
        use ccos_marketplace::CapabilityManifest;
        use serde_json::json;
        let mp = builtins();
        mp.register(CapabilityManifest::new(
            "address.findParking",
            "Find parking near an address",
            json!({"type": "object",
                   "properties": {"city": {"type": "string", "description": "The city"},
                                  "street": {"type": "string", "description": "The street"}},
                   "required": ["city"]}),
        ))
        .unwrap();
        let p = planner_over(mp);
        // Before: `{:city "Wall Street" :street "New York"}`.
        for goal in [
            "Find parking near Wall Street in New York",
            "Find parking in Wall Street in New York",
        ] {
            let r = p.plan(goal).unwrap();
            assert!(
                flat(&r).contains(r#"{:city "New York" :street "Wall Street"}"#),
                "{goal}: {}",
                r.trace.explain()
            );
        }
        // "Park City" is a city still.
        let r = p.plan("Find parking in Park City").unwrap();
        assert!(flat(&r).contains(r#"{:city "Park City"}"#), "{:?}", r);
    }

    #[test]
    fn a_street_is_no_other_value_unless_a_word_names_it_so() {
        use ccos_marketplace::CapabilityManifest;
        use serde_json::json;
        let mp = builtins();
        mp.register(CapabilityManifest::new(
            "stays.findHotel",
            "Find a hotel",
            json!({"type": "object",
                   "properties": {"hotel": {"type": "string", "description": "The hotel"},
                                  "city": {"type": "string", "description": "The city"}},
                   "required": ["hotel"]}),
        ))
        .unwrap();
        mp.register(CapabilityManifest::new(
            "records.findAlbum",
            "Find an album",
            json!({"type": "object",
                   "properties": {"album": {"type": "string", "description": "The album"}},
                   "required": ["album"]}),
        ))
        .unwrap();
        let p = planner_over(mp);
        // Helper trial: `findHotelStay {:hotel "Abbey Road"}`.
        let r = p.plan("Find a hotel near Abbey Road in London").unwrap();
        assert!(r.rtfs.is_none(), "{:?}", r.rtfs);
        // Named so by the word before it.
        let r = p.plan("Find the album Abbey Road").unwrap();
        assert!(
            flat(&r).contains(r#"{:album "Abbey Road"}"#),
            "{}",
            r.trace.explain()
        );
    }

    /// The plan on one line (the printer wraps long maps).
    fn flat(r: &PlanResult) -> String {
        r.rtfs
            .clone()
            .unwrap_or_default()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The built-ins, git tools (the reference server's shapes: every one
    /// requires `repo_path`) and a graph memory's `read_graph`.
    fn git_and_graph() -> Planner {
        use ccos_marketplace::{CapabilityManifest, Effect};
        use serde_json::json;
        let mp = builtins();
        let repo = |more: serde_json::Value, required: &[&str]| {
            let mut props = json!({"repo_path": {"type": "string"}});
            if let (Some(p), Some(m)) = (props.as_object_mut(), more.as_object()) {
                p.extend(m.clone());
            }
            json!({"type": "object", "properties": props, "required": required})
        };
        let texts = json!({"type": "array", "items": {"type": "string"}});
        for (id, what, schema, effect) in [
            (
                "mcp.git.git_add",
                "Adds file contents to the staging area",
                repo(json!({"files": texts}), &["repo_path", "files"]),
                Effect::Write,
            ),
            (
                "mcp.git.git_commit",
                "Records changes to the repository",
                repo(
                    json!({"message": {"type": "string"}}),
                    &["repo_path", "message"],
                ),
                Effect::Write,
            ),
            (
                "mcp.git.git_log",
                "Shows the commit logs",
                repo(json!({"max_count": {"type": "integer"}}), &["repo_path"]),
                Effect::Read,
            ),
        ] {
            mp.register(CapabilityManifest::new(id, what, schema).with_effects(&[effect]))
                .unwrap();
        }
        let text = json!({"type": "string"});
        mp.register(
            CapabilityManifest::new(
                "mcp.memory.read_graph",
                "Read the entire knowledge graph",
                json!({"type": "object", "properties": {}}),
            )
            .with_effects(&[Effect::Read])
            .with_output(json!({"type": "object", "properties": {
                "entities": {"type": "array", "items": {"type": "object", "properties": {
                    "name": text, "entityType": text, "observations": texts}}},
                "relations": {"type": "array", "items": {"type": "object", "properties": {
                    "from": text, "to": text, "relationType": text}}}}})),
        )
        .unwrap();
        planner_over(mp)
    }

    #[test]
    fn it_after_a_change_is_the_thing_changed_in_the_context_stated_once() {
        let p = git_and_graph();
        // "it" is what was staged; the repository, said once, holds for
        // both steps.
        let r = p
            .plan("stage todo.txt and commit it with the message 'Add todo list' in /tmp/repo")
            .unwrap();
        let plan = flat(&r);
        assert!(
            plan.contains(
                r#"(call :mcp.git.git_add {:files ["todo.txt"] :repo_path "/tmp/repo"})"#
            ),
            "{plan}"
        );
        assert!(
            plan.contains(
                r#"(call :mcp.git.git_commit {:message "Add todo list" :repo_path "/tmp/repo"})"#
            ),
            "{plan}"
        );
        let notes = r.trace.explain();
        assert!(notes.contains(r#""it" is what s1 changed"#), "{notes}");
        assert!(notes.contains(":repo_path is the one s2 states"), "{notes}");
        // The repository said on the first clause holds for the commit;
        // the staging's result is never taken for it (attack trial: it
        // was, as a "topic match" of "repo").
        let r = p
            .plan("in /tmp/repo, stage todo.txt and commit it with the message 'x'")
            .unwrap();
        let plan = flat(&r);
        assert!(
            plan.contains(r#"(call :mcp.git.git_commit {:message "x" :repo_path "/tmp/repo"})"#),
            "{plan}"
        );
        // The rest of an unquoted path with a space ("/tmp/repo C") is
        // a value the plan would drop: refused, never another repository.
        let r = p
            .plan("stage todo.txt and commit it with the message 'x' in /tmp/repo C")
            .unwrap();
        assert!(
            format!("{:?}", r.requires_agent).contains(r#"would drop name \"C\""#),
            "{}",
            flat(&r)
        );
        // No repository said: never the staging's result as one, never a
        // log for "commit".
        let r = p.plan("stage todo.txt and commit it").unwrap();
        assert!(r.rtfs.is_none(), "{}", flat(&r));
        assert!(
            r.trace.explain().contains(r#"the goal asks to "commit""#),
            "{}",
            r.trace.explain()
        );
        // Two repositories: which one the staging is in is not said.
        let r = p
            .plan("stage todo.txt and commit it with the message 'x' in /tmp/a, then show the log of /tmp/b")
            .unwrap();
        assert!(r.rtfs.is_none(), "{}", flat(&r));
        assert!(
            format!("{:?}", r.requires_agent)
                .contains("the goal does not say that s1 has the same :repo_path"),
            "{:?}",
            r.requires_agent
        );
        // A file's path is the object of a step, no context: a write after
        // a read is not given the read file.
        let r = p.plan("read a.txt and write 'x'").unwrap();
        assert!(!flat(&r).contains(r#":path "a.txt"}) (call :ccos.file.write"#));
        assert!(
            !flat(&r).contains(r#"(call :ccos.file.write {:content "x" :path "a.txt"})"#),
            "{}",
            flat(&r)
        );
    }

    #[test]
    fn a_write_waits_for_the_reads_the_goal_says_before_it() {
        let p = planner(Policy::default());
        // Run side by side, the read could see the file already written.
        let r = p.plan("read a.txt and write 'x' to a.txt").unwrap();
        let plan = r.rtfs.clone().unwrap_or_default();
        assert!(!plan.contains("step-parallel"), "{plan}");
        let write = r
            .sub_intents
            .iter()
            .find(|s| s.description.starts_with("write"));
        assert!(
            write.is_some_and(|w| w.after.contains(&"s1".to_string())),
            "{:?}",
            r.sub_intents
        );
        // Reads alone still run side by side.
        let plan = p
            .plan("read a.txt and read b.txt")
            .unwrap()
            .rtfs
            .unwrap_or_default();
        assert!(plan.contains("step-parallel"), "{plan}");
    }

    #[test]
    fn every_refusal_quotes_the_part_of_the_goal_it_cannot_serve() {
        let p = git_and_graph();
        // Each candidate skipped for a reason of its own, none quoting
        // the goal: the words the closest lacks are named.
        let goal = "how many items are listed at http://127.0.0.1:9/items.json";
        let r = p.plan(goal).unwrap();
        let missing = r.requires_agent.map(|m| m.missing).unwrap_or_default();
        assert!(
            missing
                .iter()
                .any(|m| names_part_of(goal, &m.description, &m.reason)),
            "{missing:?}"
        );
        // A clause of several is itself a part; a quote of the whole goal
        // is none.
        assert!(names_part_of(
            "read a and b",
            "read a",
            "no capability fits"
        ));
        assert!(!names_part_of("book it", "book it", r#"no "book it""#));
        assert!(names_part_of(
            "book it",
            "book it",
            r#"no capability knows "book""#
        ));
        assert!(!names_part_of("book it", "book it", r#"no "", "?""#));
    }

    #[test]
    fn a_relation_question_is_answered_from_the_graph_or_refused() {
        let p = git_and_graph();
        let plan = flat(&p.plan("who works at Globex?").unwrap());
        assert!(
            plan.contains("(call :mcp.memory.read_graph {}) :relations"),
            "{plan}"
        );
        assert!(
            plan.contains(
                r#"(call :ccos.data.related {:from_key "from" :relations s1-relations :to "Globex" :to_key "to" :type "works at" :type_key "relationType"})"#
            ),
            "{plan}"
        );
        let plan = flat(&p.plan("who does Alice know?").unwrap());
        assert!(
            plan.contains(r#":from "Alice""#) && plan.contains(r#":type "knows""#),
            "{plan}"
        );
        for goal in [
            "who worked at Globex?",
            "who works at the bakery?",
            "who is Bob?",
        ] {
            let r = p.plan(goal).unwrap();
            assert!(
                !flat(&r).contains("ccos.data.related"),
                "{goal}: {}",
                flat(&r)
            );
        }
    }

    #[test]
    fn a_fact_is_kept_on_each_entity_it_is_about() {
        let p = memory();
        let plan = flat(&p.plan("remember that Alice and Dana are sisters").unwrap());
        assert!(
            plan.contains(r#"{:entityType "unknown" :name "Alice" :observations []}"#),
            "{plan}"
        );
        assert!(
            plan.contains(r#"{:contents ["Alice and Dana are sisters"] :entityName "Dana"}"#),
            "{plan}"
        );
        // Its subject unclear: refused with the reason.
        let r = p.plan("remember that they like tea").unwrap();
        let why = r.requires_agent.map(|m| m.missing[0].reason.clone());
        assert!(why.is_some_and(|w| w.contains("\"they\"")), "{:?}", r.trace);
        // A new thing of a kind another capability makes is not an
        // entity of the memory.
        let r = p.plan("create a branch called Main").unwrap();
        assert!(
            !r.rtfs.unwrap_or_default().contains("mcp.memory"),
            "{:?}",
            r.trace
        );
        // A name after "called" is a value, and "called" no word the
        // capability must know; "check out" a new branch is more than
        // creating it.
        let plan = flat(
            &p.plan("create a branch called release-1.0 in /tmp/repo")
                .unwrap(),
        );
        assert!(
            plan.contains(r#"{:branch_name "release-1.0" :repo_path "/tmp/repo"}"#),
            "{plan}"
        );
        let r = p
            .plan("check out a new branch called feature in /tmp/repo")
            .unwrap();
        assert!(r.rtfs.is_none(), "{:?}", r.rtfs);
        let plan = flat(&p.plan("add a new person called Erin").unwrap());
        assert!(
            plan.contains(r#"{:entities [{:entityType "person" :name "Erin" :observations []}]}"#),
            "{plan}"
        );
    }

    #[test]
    fn words_naming_the_provider_are_no_task() {
        use ccos_marketplace::CapabilityManifest;
        use serde_json::json;
        let mp = builtins();
        mp.register(CapabilityManifest::new(
            "mcp.everything.get-sum",
            "Returns the sum of two numbers",
            json!({"type": "object", "properties": {
                "a": {"type": "number", "description": "First number"},
                "b": {"type": "number", "description": "Second number"}},
                "required": ["a", "b"]}),
        ))
        .unwrap();
        let p = planner_over(mp);
        let r = p
            .plan("what's the sum of 2.5 and 4 according to the everything server?")
            .unwrap();
        let plan = r.rtfs.unwrap_or_default();
        assert!(plan.contains("mcp.everything.get-sum"), "{plan}");
        // A server the catalog does not have is still a word no
        // capability knows.
        let r = p
            .plan("what's the sum of 2.5 and 4 according to the weather server?")
            .unwrap();
        assert!(r.rtfs.is_none(), "{:?}", r.rtfs);
    }

    #[test]
    fn a_question_after_reading_a_file_asks_about_that_file() {
        let p = planner(Policy::default());
        let plan = |g: &str| {
            let r = p.plan(g).unwrap();
            r.rtfs
                .clone()
                .unwrap_or_else(|| format!("{:?}", r.requires_agent))
        };
        // Served by nothing alone: the key of the file just read.
        let rtfs = plan("read config.json and tell me the app name");
        assert!(rtfs.contains(":key \"app name\""), "{rtfs}");
        assert!(rtfs.contains("in config.json"), "{rtfs}");
        // Served alone: the clause means what it says (the current time).
        let rtfs = plan("read config.json and tell me the time");
        assert!(rtfs.contains("ccos.time.now"), "{rtfs}");
        assert!(!rtfs.contains(":key"), "{rtfs}");
        // Another file, or no file read before: nothing to ask about.
        let rtfs = plan("list the folder docs and tell me the app name");
        assert!(rtfs.contains("RequiresAgent"), "{rtfs}");
        let rtfs = plan("read config.json and tell me the port in people.json");
        assert!(rtfs.contains("people.json"), "{rtfs}");
        assert!(
            !rtfs.contains("port in people.json in config.json"),
            "{rtfs}"
        );
    }

    #[test]
    fn a_name_after_a_verb_of_sending_is_never_the_message() {
        use ccos_marketplace::CapabilityManifest;
        let mp = builtins();
        mp.register(CapabilityManifest::new(
            "chat.sendMessage",
            "Send a chat message to a user",
            obj(
                serde_json::json!({
                    "to": {"type": "string", "description": "The user to send to"},
                    "message": {"type": "string", "description": "The message text"}}),
                &["to", "message"],
            ),
        ))
        .unwrap();
        let p = planner_over(mp);
        // Attack trial: it sent the text "Bob" to whomever was asked.
        let r = p.plan("send Bob a message: a quick hello").unwrap();
        let rtfs = r.rtfs.clone().unwrap_or_default();
        assert!(!rtfs.contains(":message \"Bob\""), "{rtfs}");
        let rtfs = p
            .plan("send 'hello' to Bob")
            .unwrap()
            .rtfs
            .unwrap_or_default();
        assert!(
            rtfs.contains(":message \"hello\"") && rtfs.contains(":to \"Bob\""),
            "{rtfs}"
        );
        // Attack trial: the text sent was "saying hello".
        let rtfs = p
            .plan("send a message to Bob saying hello")
            .unwrap()
            .rtfs
            .unwrap_or_default();
        assert!(rtfs.contains(":message \"hello\""), "{rtfs}");
    }

    #[test]
    fn names_topics_and_addresses_fill_no_id_link_or_phone() {
        use ccos_marketplace::CapabilityManifest;
        let mp = builtins();
        mp.register(CapabilityManifest::new(
            "cal.getEvent",
            "Get an event",
            obj(
                serde_json::json!({"eventId": {"type": "string", "description": "Event id"}}),
                &["eventId"],
            ),
        ))
        .unwrap();
        mp.register(CapabilityManifest::new(
            "msg.sendSms",
            "Send an SMS text message",
            obj(
                serde_json::json!({
                    "phone": {"type": "string", "description": "Phone number"},
                    "text": {"type": "string", "description": "Message text"}}),
                &["phone", "text"],
            ),
        ))
        .unwrap();
        let p = planner_over(mp);
        // Attack trials: each name went into the id, the URL of
        // `ccos.http.get`, or the phone number.
        for goal in [
            "get the event known as 'Launch'",
            "get the event dubbed 'Launch'",
            "send an sms to bob@example.com saying hi",
        ] {
            let rtfs = p.plan(goal).unwrap().rtfs.unwrap_or_default();
            assert!(
                !rtfs.contains("\"Launch\"") && !rtfs.contains(":phone \"bob@"),
                "{goal}: {rtfs}"
            );
        }
        let rtfs = p
            .plan("get event 'abc123'")
            .unwrap()
            .rtfs
            .unwrap_or_default();
        assert!(rtfs.contains(":eventId \"abc123\""), "{rtfs}");
    }

    #[test]
    fn what_a_description_says_it_does_not_do_is_not_known() {
        assert_eq!(
            lexicon::without_negated(
                "Split a text into lines (a final newline adds no empty line)."
            ),
            "Split a text into lines (a final newline adds no"
        );
        assert_eq!(
            lexicon::without_negated("Rows, without headers, as JSON"),
            "Rows, without as JSON"
        );
        let p = planner(Policy::default());
        // "empty" was in ccos.text.lines' description only as "no empty
        // line": the lines were counted, all of them.
        let r = p.plan("how many empty lines are in notes.txt").unwrap();
        assert!(r.rtfs.is_none(), "{:?}", r.rtfs);
        let r = p.plan("how many lines and words are in notes.txt").unwrap();
        assert!(r.rtfs.is_none(), "{:?}", r.rtfs);
    }

    #[test]
    fn a_known_place_after_for_is_where() {
        use ccos_marketplace::CapabilityManifest;
        let mp = builtins();
        mp.register(CapabilityManifest::new(
            "weather.getForecast",
            "Returns the daily weather forecast for a city for the next N days",
            obj(
                serde_json::json!({
                    "city": {"type": "string", "description": "City name"},
                    "days": {"type": "integer", "description": "Number of days to forecast"},
                    "units": {"type": "string", "enum": ["metric", "imperial"]}}),
                &["city"],
            ),
        ))
        .unwrap();
        let p = planner_over(mp);
        // Attack trial: every forecast "for" a city was refused.
        let rtfs = p
            .plan("get the 5-day forecast for London")
            .unwrap()
            .rtfs
            .unwrap_or_default();
        assert!(
            rtfs.contains(":city \"London\"") && rtfs.contains(":days 5"),
            "{rtfs}"
        );
        let rtfs = p
            .plan("get the forecast for Phoenix for the next week")
            .unwrap()
            .rtfs
            .unwrap_or_default();
        assert!(rtfs.contains(":days 7"), "{rtfs}");
        // A person is no place.
        let r = p.plan("get the forecast for Bob").unwrap();
        assert!(r.rtfs.is_none(), "{:?}", r.rtfs);
    }

    #[test]
    fn a_count_never_fills_a_rank() {
        use ccos_marketplace::CapabilityManifest;
        let mp = builtins();
        mp.register(CapabilityManifest::new(
            "league.topPlayers",
            "Top ranked players",
            obj(
                serde_json::json!({
                    "rank": {"type": "integer", "description": "Rank of the player, 1 is best"}}),
                &["rank"],
            ),
        ))
        .unwrap();
        let p = planner_over(mp);
        // Attack trials: "the top 3 players" and "list 3 players" called
        // rank 3.
        for goal in ["get the top 3 players", "list 3 players"] {
            let rtfs = p.plan(goal).unwrap().rtfs.unwrap_or_default();
            assert!(!rtfs.contains(":rank 3"), "{goal}: {rtfs}");
        }
        let rtfs = p
            .plan("get the player ranked 3")
            .unwrap()
            .rtfs
            .unwrap_or_default();
        assert!(rtfs.contains(":rank 3"), "{rtfs}");
        // "page 2" is which page, never how many per page.
        let mp = builtins();
        mp.register(CapabilityManifest::new(
            "media.searchArticles",
            "Search news articles",
            obj(
                serde_json::json!({
                    "q": {"type": "string", "description": "Search words"},
                    "page": {"type": "integer", "description": "Page number"},
                    "per_page": {"type": "integer", "description": "Results per page"}}),
                &["q"],
            ),
        ))
        .unwrap();
        let rtfs = planner_over(mp)
            .plan("search articles about rust page 2")
            .unwrap()
            .rtfs
            .unwrap_or_default();
        assert!(
            rtfs.contains(":page 2") && !rtfs.contains(":per_page"),
            "{rtfs}"
        );
        // Words introducing a message are not cut from words echoed.
        let rtfs = p
            .plan("echo reading is fun")
            .unwrap()
            .rtfs
            .unwrap_or_default();
        assert!(rtfs.contains(":message \"reading is fun\""), "{rtfs}");
    }

    #[test]
    fn a_yes_or_no_question_before_other_steps_is_refused() {
        let p = planner(Policy::default());
        // Attack trials: the sort and the write ran whatever the answer.
        for goal in [
            "ask me if I want to continue and then sort the numbers 3, 1, 2",
            "ask me to confirm and then write 'x' to out.txt",
            "ask me whether to proceed, then echo done",
        ] {
            let r = p.plan(goal).unwrap();
            assert!(r.rtfs.is_none(), "{goal}: {:?}", r.rtfs);
            assert!(
                r.requires_agent
                    .as_ref()
                    .is_some_and(|ra| ra.missing.iter().any(|m| m.reason.contains("yes-or-no"))),
                "{goal}: {:?}",
                r.requires_agent
            );
        }
        // Alone, the question is a plan.
        assert!(p.plan("ask me if I want tea").unwrap().rtfs.is_some());
    }

    #[test]
    fn an_answer_naming_a_file_is_read_before_its_text_is_used() {
        let p = planner(Policy::default());
        // Attack trial: the lines of the answer itself were counted.
        let rtfs = p
            .plan("ask me for a file and count its lines")
            .unwrap()
            .rtfs
            .unwrap_or_default();
        assert!(rtfs.contains(":ccos.file.read {:path s1}"), "{rtfs}");
        assert!(!rtfs.contains(":text s1}"), "{rtfs}");
        // A parameter taking the path gets the answer itself.
        let rtfs = p
            .plan("ask me for a file and read it")
            .unwrap()
            .rtfs
            .unwrap_or_default();
        assert_eq!(rtfs.matches(":ccos.file.read").count(), 1, "{rtfs}");
    }

    #[test]
    fn a_capital_a_opening_a_message_is_its_first_word() {
        let p = planner(Policy::default());
        // Attack trial: "echo A B C" echoed "B C".
        for (goal, message) in [
            ("echo A B C", "A B C"),
            ("say A Tale of Two Cities", "A Tale of Two Cities"),
        ] {
            let rtfs = p.plan(goal).unwrap().rtfs.unwrap_or_default();
            assert!(
                rtfs.contains(&format!(":message {message:?}")),
                "{goal}: {rtfs}"
            );
        }
        // "letters" coordinated with "words" must be counted too.
        let r = p.plan("count the words and letters in 'hi there'").unwrap();
        assert!(r.rtfs.is_none(), "{:?}", r.rtfs);
    }

    #[test]
    fn a_relative_clause_about_a_bound_value_restricts_by_its_parameter() {
        use ccos_marketplace::CapabilityManifest;
        let mp = builtins();
        mp.register(CapabilityManifest::new(
            "shops.find_nearby",
            "Locate nearby bike shops by the brand they sell",
            obj(
                serde_json::json!({
                    "city": {"type": "string", "description": "The city"},
                    "brand": {"type": "string", "description": "Bike brand"}}),
                &["city", "brand"],
            ),
        ))
        .unwrap();
        let p = planner_over(mp);
        let plan = |g: &str| p.plan(g).unwrap();
        // "that sell the brand Trek": the verb relates the shops to the
        // brand the plan passes.
        let r = plan("find bike shops in Oslo that sell the brand Trek");
        let rtfs = r
            .rtfs
            .clone()
            .unwrap_or_else(|| format!("{:?}", r.requires_agent));
        assert!(rtfs.contains(":brand \"Trek\""), "{rtfs}");
        // Every value after "that" passed: the clause's object too.
        let rtfs = plan("find bike shops that sell Trek in Oslo")
            .rtfs
            .unwrap_or_default();
        assert!(
            rtfs.contains(":brand \"Trek\"") && rtfs.contains(":city \"Oslo\""),
            "{rtfs}"
        );
        // Nothing bound in the clause: a restriction the plan does not do.
        let r = plan("find bike shops in Oslo that repair wheels");
        assert!(r.rtfs.is_none(), "{:?}", r.rtfs);
        // Nor a verb that may say the opposite.
        for g in [
            "find bike shops in Oslo that refuse the brand Trek",
            "find bike shops in Oslo that used to sell the brand Trek",
        ] {
            assert!(plan(g).rtfs.is_none(), "{g}");
        }
        // A negated relation is never the value's parameter.
        let r = plan("find bike shops in Oslo that don't sell the brand Trek");
        assert!(r.rtfs.is_none(), "{:?}", r.rtfs);
    }

    /// An object input schema with these properties and required keys.
    fn obj(props: serde_json::Value, req: &[&str]) -> serde_json::Value {
        serde_json::json!({"type": "object", "properties": props, "required": req})
    }

    /// A planner with the default policy and rules over `mp`.
    fn planner_over(mp: Arc<Marketplace>) -> Planner {
        Planner::new(
            mp,
            Policy::default(),
            PatternDecomposition::builtin().unwrap(),
        )
    }

    #[test]
    fn a_clause_naming_only_a_flag_of_the_previous_call_switches_it() {
        use ccos_marketplace::{CapabilityManifest, Effect};
        use serde_json::json;
        let mp = builtins();
        mp.register(
            CapabilityManifest::new(
                "court_case.search",
                "Retrieve details of a court case using a docket number and location.",
                obj(
                    json!({"docket_number": {"type": "string", "description": "The docket number for the case."},
                           "location": {"type": "string", "description": "The location where the case is registered."},
                           "full_text": {"type": "boolean", "description": "Option to return the full text of the case ruling."}}),
                    &["docket_number", "location"],
                ),
            )
            .with_effects(&[Effect::Network]),
        )
        .unwrap();
        let p = planner_over(mp);
        for (goal, value) in [
            (
                "Find the details of the court case identified by docket number 123456 in Texas. Don't return full text",
                ":full_text false",
            ),
            (
                "Find the details of the court case identified by docket number 123456 in Texas. Also return the full text.",
                ":full_text true",
            ),
        ] {
            let r = p.plan(goal).unwrap();
            let rtfs = r.rtfs.clone().unwrap_or_default();
            assert!(
                rtfs.contains(value),
                "{goal}: {rtfs} {:?} {:#?}",
                r.requires_agent,
                r.trace
            );
            assert_eq!(rtfs.matches("(call ").count(), 1, "{rtfs}");
        }
        // A clause saying more than the flag is no switch.
        let r = p
            .plan("Find the court case with docket number 123456 in Texas. Return the full text in French.")
            .unwrap();
        assert!(r.rtfs.is_none(), "{:?}", r.rtfs);
    }

    #[test]
    fn a_field_answers_only_what_it_is() {
        let p = repositories();
        let plan = |g: &str| p.plan(g).unwrap();
        // An object field answers (once: the whole repository).
        let r = plan("what is the license of acme/rocket?");
        assert!(
            r.rtfs.as_deref().is_some_and(|t| t.contains(":license")),
            "{r:?}"
        );
        // A flag answers the question that says its very word...
        let r = plan("is acme/rocket a fork?");
        assert!(
            r.rtfs.as_deref().is_some_and(|t| t.contains(":fork)")),
            "{r:?}"
        );
        // ... not one about others' forks, which only a count says.
        for g in [
            "does acme/rocket have forks?",
            "show me the forks of acme/rocket",
        ] {
            let r = plan(g);
            assert!(r.rtfs.is_none(), "{g}: {:?}", r.rtfs);
            assert!(
                format!("{:?}", r.requires_agent).contains("forks_count"),
                "{g}"
            );
        }
        // A restriction by a parameter the plan would leave unset.
        let r = plan("list the issues with the label bug in acme/rocket");
        assert!(r.rtfs.is_none(), "{:?}", r.rtfs);
        assert!(format!("{:?}", r.requires_agent).contains("bug"));
        // The example in a parameter's description ("e.g. bug,ui") does
        // not account for the word.
        let r = plan("list the bug issues of acme/rocket");
        assert!(r.rtfs.is_none(), "{:?}", r.rtfs);
        let r = plan("list the issues in acme/rocket");
        assert!(r.rtfs.is_some(), "{:?}", r.requires_agent);
    }

    /// A shop and a git server, as an attacker's trial had them: each
    /// goal below once changed something it did not ask for.
    fn effects() -> Planner {
        use ccos_marketplace::{CapabilityManifest, Effect};
        use serde_json::json;
        let mp = builtins();
        for (id, desc, input, effects) in [
            (
                "shop.deleteMessages",
                "Delete the messages of a mail folder.",
                obj(json!({"folder": {"type": "string"}}), &["folder"]),
                vec![Effect::Network, Effect::Write],
            ),
            (
                "shop.getOrder",
                "Get an order: its status, customer and total.",
                obj(json!({"id": {"type": "integer"}}), &["id"]),
                vec![Effect::Network],
            ),
            (
                "git.git_commit",
                "Records changes to the repository",
                obj(
                    json!({"repo_path": {"type": "string"}, "message": {"type": "string"}}),
                    &["repo_path", "message"],
                ),
                vec![Effect::Write],
            ),
            (
                "git.git_log",
                "Shows the commit logs",
                obj(json!({"repo_path": {"type": "string"}}), &["repo_path"]),
                vec![Effect::Read],
            ),
        ] {
            let mut m = CapabilityManifest::new(id, desc, input).with_effects(&effects);
            if id == "shop.getOrder" {
                m = m.with_output(json!({"type": "object", "properties": {
                    "status": {"type": "string"}, "customer": {"type": "string"}}}));
            }
            mp.register(m).unwrap();
        }
        planner_over(mp)
    }

    #[test]
    fn a_count_a_time_range_and_a_polite_request_are_read_as_meant() {
        use ccos_marketplace::CapabilityManifest;
        use serde_json::json;
        let mp = builtins();
        for (id, desc, input) in [
            (
                "revenue_forecast",
                "Estimate the revenue a company would generate from its sales.",
                obj(json!({"company": {"type": "string"}}), &["company"]),
            ),
            (
                "get_lawsuit_cases",
                "Retrieve the lawsuit cases of a company.",
                obj(json!({"company": {"type": "string"}}), &["company"]),
            ),
            (
                "stock_price",
                "Get the stock price of a company for a number of days.",
                obj(
                    json!({"company": {"type": "string"}, "days": {"type": "integer"}}),
                    &["company", "days"],
                ),
            ),
            (
                "compound_interest",
                "Calculate the compound interest of an investment.",
                obj(
                    json!({"principal": {"type": "number"},
                           "rate": {"type": "number", "description": "The annual rate, as a decimal"},
                           "years": {"type": "integer"},
                           "compounds_per_year": {"type": "integer"}}),
                    &["principal", "rate", "years"],
                ),
            ),
            (
                "confidence_interval.calculate",
                "Calculate the confidence interval of a sample mean.",
                obj(
                    json!({"sample_mean": {"type": "number"}, "sample_size": {"type": "integer"}}),
                    &["sample_mean", "sample_size"],
                ),
            ),
        ] {
            mp.register(CapabilityManifest::new(id, desc, input))
                .unwrap();
        }
        let p = planner_over(mp);
        let plan = |g: &str| p.plan(g).unwrap().rtfs.unwrap_or_default();
        // A name saying in the singular what is counted answers how much;
        // a name of the things themselves lists them.
        assert!(
            plan("How much revenue would Acme Corp generate?").contains("revenue_forecast"),
            "{:?}",
            p.plan("How much revenue would Acme Corp generate?")
                .unwrap()
                .requires_agent
        );
        assert_eq!(plan("How many lawsuit cases does Acme have?"), "");
        // "the last 3 days" is a time range, not a position.
        assert!(plan("What's the price of Acme stock for the last 3 days?").contains(":days 3"));
        // How often is part of what is computed: never dropped.
        let r = p
            .plan("compound interest on $10,000 at 6% compounded quarterly for 5 years")
            .unwrap();
        assert!(r.rtfs.is_none(), "{:?}", r.rtfs);
        assert!(format!("{:?}", r.requires_agent).contains("quarterly"));
        assert!(
            plan("compound interest on $10,000 at 6% for 5 years").contains(":rate 0.06"),
            "{:?}",
            p.plan("compound interest on $10,000 at 6% for 5 years")
        );
        // A goal is no document: a clear usage error, not minutes of work.
        let long = "what is the capital of Brazil ".repeat(200);
        assert!(matches!(
            p.plan(&long),
            Err(PlanError::Decomposition(
                DecompositionError::GoalTooLong { .. }
            ))
        ));
        // A booking is made, never replaced by a search; what a search is
        // about is never dropped.
        let mp = builtins();
        for (id, input) in [
            (
                "searchHotels",
                obj(
                    json!({"city": {"type": "string"}, "check_in": {"type": "string", "format": "date"},
                           "check_out": {"type": "string", "format": "date"}}),
                    &["city"],
                ),
            ),
            (
                "searchSongs",
                obj(
                    json!({"title": {"type": "string"}, "artist": {"type": "string"}}),
                    &[],
                ),
            ),
        ] {
            mp.register(CapabilityManifest::new(id, id, input)).unwrap();
        }
        let shop = planner_over(mp);
        for g in [
            "book a hotel in Rome from 2024-05-01 to 2024-05-03",
            "find songs about love",
        ] {
            let r = shop.plan(g).unwrap();
            assert!(r.rtfs.is_none(), "{g}: {:?}", r.rtfs);
        }
        assert!(
            shop.plan("find hotels in Rome from 2024-05-01 to 2024-05-03")
                .unwrap()
                .rtfs
                .is_some()
        );
        // A question never writes, and a cancellation is no scheduling.
        let mp = builtins();
        mp.register(
            CapabilityManifest::new(
                "scheduleViewing",
                "Schedule a viewing of a listing.",
                obj(
                    json!({"listing_id": {"type": "string"}, "date": {"type": "string", "format": "date"}}),
                    &["listing_id", "date"],
                ),
            )
            .with_effects(&[ccos_marketplace::Effect::Network, ccos_marketplace::Effect::Write]),
        )
        .unwrap();
        let homes = planner_over(mp);
        for g in [
            "did I schedule a viewing for listing 4821 on 2025-06-20?",
            "cancel my viewing of listing 4821 on 2025-06-20",
        ] {
            let r = homes.plan(g).unwrap();
            assert!(r.rtfs.is_none(), "{g}: {:?}", r.rtfs);
        }
        assert!(
            homes
                .plan("schedule a viewing of listing 4821 on 2025-06-20")
                .unwrap()
                .rtfs
                .is_some()
        );
        // A polite request is a request.
        assert!(
            plan("Can you give me the confidence interval for a sample mean of 25 and a sample size of 50?")
                .contains("confidence_interval.calculate")
        );
    }

    #[test]
    fn nothing_is_changed_that_the_goal_does_not_ask_to_change() {
        let p = effects();
        for g in [
            // A question never commits; the goal's words are no message.
            "what is the message of the latest commit in /tmp/repo",
            // Part of the messages is not the whole folder.
            "delete one message from spam",
            "delete some messages in the inbox",
            "delete the message in the inbox",
            "delete one of the messages in spam",
            // A title is no folder.
            "delete the inbox message titled \"hello\"",
            // "it" is the order, not a folder named after its status.
            "what is the status of order 1 and delete it",
            // Deduplicating deletes nothing.
            "list the lines of a.txt and delete them",
        ] {
            let r = p.plan(g).unwrap();
            assert!(
                r.rtfs
                    .as_deref()
                    .is_none_or(|t| !t.contains("deleteMessages")
                        && !t.contains("git_commit")
                        && !t.contains("ccos.data.unique")),
                "{g}: {:?}",
                r.rtfs
            );
        }
        // The message is asked, not made of the goal's words.
        let r = p.plan("commit the changes in /tmp/repo").unwrap();
        let t = r.rtfs.unwrap_or_default();
        assert!(t.contains(":message s1-message"), "{t}");
        // Said in full, it is served.
        let r = p
            .plan("delete the messages in the folder \"spam\"")
            .unwrap();
        assert!(
            r.rtfs
                .as_deref()
                .is_some_and(|t| t.contains("deleteMessages")),
            "{r:?}"
        );
        let r = p
            .plan("commit the changes in /tmp/repo with the message 'fix typo'")
            .unwrap();
        assert!(
            r.rtfs.as_deref().is_some_and(|t| t.contains("fix typo")),
            "{r:?}"
        );
    }

    #[test]
    fn a_range_word_fills_one_end_of_the_range() {
        use ccos_marketplace::{CapabilityManifest, Effect};
        use serde_json::json;
        let mp = builtins();
        // As the git MCP server describes it.
        let stamp = json!({"type": "string", "description":
            "Accepts: ISO 8601 format (e.g., '2024-01-15T14:30:25'), relative dates \
             (e.g., '2 weeks ago', 'yesterday'), or absolute dates (e.g., '2024-01-15')"});
        mp.register(
            CapabilityManifest::new(
                "git.git_log",
                "Shows the commit logs",
                json!({"type": "object", "properties": {
                    "repo_path": {"type": "string"},
                    "start_timestamp": stamp, "end_timestamp": stamp},
                    "required": ["repo_path"]}),
            )
            .with_effects(&[Effect::Read]),
        )
        .unwrap();
        let p = planner_over(mp);
        // "since yesterday" once filled both ends: an empty window.
        let t = p
            .plan("show the log of /tmp/repo since yesterday")
            .unwrap()
            .rtfs
            .unwrap_or_default();
        assert!(t.contains(":start_timestamp \"yesterday\""), "{t}");
        assert!(!t.contains(":end_timestamp"), "{t}");
        // Neither end said: refused, not both.
        let r = p.plan("show the log of /tmp/repo made yesterday").unwrap();
        assert!(r.rtfs.is_none(), "{:?}", r.rtfs);
        // "between A and B": A starts it (the dates were swapped).
        let t = p
            .plan("show the log of /tmp/repo between 2024-01-01 and 2024-02-01")
            .unwrap()
            .rtfs
            .unwrap_or_default();
        // A day for a timestamp is the whole day.
        assert!(
            t.contains(":start_timestamp \"2024-01-01T00:00:00\""),
            "{t}"
        );
        assert!(t.contains(":end_timestamp \"2024-02-01T23:59:59\""), "{t}");
        // Attack trial: one day is no end of a range, and a range ending
        // before it starts is not sent as written.
        for goal in [
            "show the log of /tmp/repo on 2024-03-05",
            "show the log of /tmp/repo between 2024-03-10 and 2024-03-05",
        ] {
            let r = p.plan(goal).unwrap();
            assert!(r.rtfs.is_none(), "{goal}: {:?}", r.rtfs);
        }
    }

    #[test]
    fn a_file_is_no_repository_to_work_in() {
        use ccos_marketplace::{CapabilityManifest, Effect};
        use serde_json::json;
        let mp = builtins();
        mp.register(
            CapabilityManifest::new(
                "git.git_add",
                "Adds file contents to the staging area",
                json!({"type": "object", "properties": {
                    "repo_path": {"type": "string"},
                    "files": {"type": "array", "items": {"type": "string"}}},
                    "required": ["repo_path", "files"]}),
            )
            .with_effects(&[Effect::Write]),
        )
        .unwrap();
        // The paths were once swapped: the repository staged into a
        // "repository" named hello.py.
        let t = planner_over(mp)
            .plan("git add hello.py in /tmp/repo")
            .unwrap()
            .rtfs
            .unwrap_or_default();
        assert!(t.contains(":repo_path \"/tmp/repo\""), "{t}");
        assert!(t.contains(":files [\"hello.py\"]"), "{t}");
    }

    #[test]
    fn examples_are_not_what_a_capability_does() {
        assert_eq!(
            lexicon::without_examples("Comma-separated label names, e.g. bug,ui. Optional."),
            "Comma-separated label names, . Optional."
        );
        assert_eq!(
            lexicon::without_examples("A city (for example Paris) to look up"),
            "A city () to look up"
        );
        assert_eq!(
            lexicon::without_examples("No example here"),
            "No example here"
        );
    }

    #[test]
    fn an_unknown_word_is_reported_with_its_noun() {
        let w = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(
            with_their_nouns("what is the square root of 2?", &w(&["square"])),
            w(&["square root"])
        );
        assert_eq!(
            with_their_nouns("zip the docs folder", &w(&["zip", "docs", "folder"])),
            w(&["zip", "docs folder"])
        );
        assert_eq!(
            with_their_nouns(
                "send a message to general saying hello",
                &w(&["general", "hello"])
            ),
            w(&["general", "hello"])
        );
    }

    #[test]
    fn greetings_before_or_thanks_after_a_request_are_cut() {
        assert_eq!(
            without_greeting("hey, could you add 40 and 2?"),
            "could you add 40 and 2?"
        );
        assert_eq!(
            without_greeting("Hi there! sort numbers.txt"),
            "sort numbers.txt"
        );
        assert_eq!(
            without_greeting("sort numbers.txt, thanks!"),
            "sort numbers.txt"
        );
        assert_eq!(without_greeting("echo hello. Thank you"), "echo hello");
        assert_eq!(
            without_greeting("hey, what is 12 times 7? thanks"),
            "what is 12 times 7?"
        );
        assert_eq!(
            without_greeting("what is the first line of words.txt, thanks?"),
            "what is the first line of words.txt"
        );
        // A greeting alone, or words that only look like one, are kept.
        for g in [
            "hello",
            "thanks!",
            "say hello, Bob",
            "hi.txt, count its lines",
            "echo 'hi, thanks'",
            "echo \"hello, thanks\"",
            "say 'good morning, thanks'",
            "count the words in \"hi there, thanks a lot\"",
            "echo 'hey, hi'",
        ] {
            assert_eq!(without_greeting(g), g);
        }
    }

    #[test]
    fn greetings_are_said_to_be_greetings() {
        for g in ["hi", "Hello there!", "good morning", "thanks a lot", "bye"] {
            assert!(is_greeting(g), "{g}");
        }
        for g in [
            "hi.txt",
            "good",
            "say hello to Bob",
            "count the words in hello",
        ] {
            assert!(!is_greeting(g), "{g}");
        }
    }

    #[test]
    fn asking_what_is_known_is_a_lookup_not_a_conversation() {
        assert_eq!(
            conversation("how are you today?").as_deref(),
            Some("how are you")
        );
        assert_eq!(
            conversation("what do you think?").as_deref(),
            Some("what do you")
        );
        assert!(conversation("what do you remember about Bob?").is_none());
        assert!(conversation("Could you first analyze the structure of building 'B1'").is_none());
        assert!(conversation("What do you know about Leo Brandt?").is_none());
    }

    #[test]
    fn standard_goals_give_clean_deterministic_plans() {
        let p = planner(Policy::default());
        for g in [
            "count the words in README.md",
            "add 2 and 3, then multiply by 4",
            "read notes.txt and count lines",
            "convert 'hello world' to upper case",
            "subtract 3 from 10 then divide by 2",
            "ask me for the page size",
        ] {
            let a = p.plan(g).unwrap();
            assert!(a.requires_agent.is_none(), "{g}: {:?}", a.requires_agent);
            assert!(a.rtfs.is_some(), "{g}");
            assert_eq!(a.generation_mode(), "pattern");
            // identical inputs, byte-identical plans (fresh planner too).
            let b = planner(Policy::default()).plan(g).unwrap();
            assert_eq!(a.rtfs, b.rtfs);
            assert_eq!(a, b);
        }
    }

    #[test]
    fn unknown_goal_requires_an_agent_and_never_invents() {
        let r = planner(Policy::default())
            .plan("book me a flight to Paris")
            .unwrap();
        assert_eq!(r.rtfs, None);
        assert_eq!(r.generation_mode(), "fallback");
        let ra = r.requires_agent.unwrap();
        assert_eq!(ra.missing.len(), 1);
        assert_eq!(ra.missing[0].description, "book me a flight to Paris");
        // The report names what nothing in the catalog knows.
        assert_eq!(
            ra.missing[0].reason,
            "no capability fits; no capability knows \"book\", \"flight\""
        );
        assert_eq!(r.trace.intents[0].chosen, None);
    }

    #[test]
    fn a_denied_best_candidate_is_skipped_and_traced() {
        let policy =
            Policy::from_toml_str("[capabilities]\ndeny = [\"ccos.file.read\"]\n").unwrap();
        let r = planner(policy).plan("read notes.txt").unwrap();
        let t = &r.trace.intents[0];
        assert_eq!(t.filtered.len(), 1);
        assert_eq!(t.filtered[0].capability_id, "ccos.file.read");
        assert!(!t.filtered[0].reasons.is_empty());
        let chosen = t.chosen.clone().unwrap();
        assert_ne!(chosen, "ccos.file.read");
        assert!(!r.rtfs.unwrap().contains(":ccos.file.read"));
        // denied with no other fitting candidate: requires an agent, and
        // the reason names the policy.
        let policy =
            Policy::from_toml_str("[capabilities]\ndeny = [\"ccos.text.count_words\"]\n").unwrap();
        let r = planner(policy).plan("count the words in 'a b'").unwrap();
        let ra = r.requires_agent.unwrap();
        assert!(
            ra.missing[0].reason.contains("denied by the policy"),
            "{ra:?}"
        );
        assert_eq!(
            r.trace.intents[0].filtered[0].capability_id, "ccos.text.count_words",
            "{:?}",
            r.trace
        );
    }

    #[test]
    fn plan_result_serialises() {
        let r = planner(Policy::default())
            .plan("add 2 and 3, then multiply by 4")
            .unwrap();
        let j = serde_json::to_value(&r).unwrap();
        assert_eq!(j["trace"]["intents"][1]["chosen"], "ccos.math.mul");
        assert_eq!(j["sub_intents"][1]["depends_on"][0], "s1");
        let back: PlanResult = serde_json::from_value(j).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn record_stores_graph_plan_and_decision() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let dir = tempfile::tempdir().unwrap();
            let url = format!("sqlite://{}", dir.path().join("ccos.db").display());
            let store = Store::open(&url).await.unwrap();
            let r = planner(Policy::default())
                .plan("count the words in README.md")
                .unwrap();
            let rec = record(&store, &r, true, &Redactor::default())
                .await
                .unwrap();
            let kids = store.children(&rec.intent_id).await.unwrap();
            assert_eq!(kids.len(), 2);
            let deps = store.dependencies(&rec.sub_intent_ids[1]).await.unwrap();
            assert_eq!(deps.len(), 1);
            assert_eq!(deps[0].id, rec.sub_intent_ids[0]);
            assert!(rec.plan_id.is_some());
            let chain = store.chain_by_intent(&rec.intent_id).await.unwrap();
            let d = chain.iter().find(|e| e.kind == "planner_decision").unwrap();
            assert_eq!(d.payload["intents"][1]["chosen"], "ccos.text.count_words");
            assert!(store.verify_chain().await.unwrap().ok);
        });
    }
}
