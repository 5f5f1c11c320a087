//! LLM assist (spec 026 v0.3): ask a configured language model for a
//! planner, given the structured context, then validate the answer
//! strictly — it must parse, pass preflight (every call names a registered
//! capability, arguments fit) and governance (nothing denied), and call only
//! candidates the security filter allowed. On any failure the deterministic
//! synthesis is returned, with the reason in the trace's notes.

use std::collections::{BTreeMap, BTreeSet};

use ccos_governance::{Catalog, Policy};
use ccos_llm::{LlmProvider, LlmRequest, Message, Prompt};
use serde_json::json;

use crate::context::PlannerGenContext;
use crate::synth::PlannerSynthesis;

/// The prompt template (`prompts/synth.planner.md`).
pub const PROMPT_SOURCE: &str = include_str!("../prompts/synth.planner.md");

/// Candidates shown to the model at most.
const MAX_CANDIDATES: usize = 12;

/// The first fenced code block of `text`, else the whole text, trimmed.
fn code_of(text: &str) -> &str {
    if let Some(start) = text.find("```") {
        let after = &text[start + 3..];
        let body = after.split_once('\n').map_or(after, |(_, b)| b);
        if let Some(end) = body.find("```") {
            return body[..end].trim();
        }
    }
    text.trim()
}

/// The rendered prompt messages for `ctx` and its deterministic synthesis.
pub fn request(ctx: &PlannerGenContext, det: &PlannerSynthesis) -> Result<LlmRequest, String> {
    let prompt = Prompt::parse("synth.planner.md", PROMPT_SOURCE).map_err(|e| e.to_string())?;
    let history = ctx
        .history
        .iter()
        .map(|t| {
            format!(
                "- Q: {} A: {} params: {}",
                t.question,
                t.answer,
                json!(t.params)
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    let schema = ctx
        .schema
        .iter()
        .map(|p| {
            format!(
                "- {} {} {}{}",
                p.key,
                p.ty.as_str(),
                if p.required { "required" } else { "optional" },
                p.default
                    .as_ref()
                    .map(|d| format!(" default {d}"))
                    .unwrap_or_default()
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    let cards: BTreeMap<&str, &crate::context::CapabilityCard> = ctx
        .capability_cards()
        .iter()
        .map(|c| (c.id.as_str(), c))
        .collect();
    let candidates = det
        .decision_trace
        .candidates
        .iter()
        .take(MAX_CANDIDATES)
        .map(|c| {
            let inputs = cards
                .get(c.id.as_str())
                .map(|k| {
                    k.inputs
                        .iter()
                        .map(|i| {
                            format!(
                                "{}:{}{}",
                                i.key,
                                i.ty.as_str(),
                                if i.required { "" } else { "?" }
                            )
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .unwrap_or_default();
            format!(
                "- {} ({}) inputs [{}] score {:.4}",
                c.id, c.kind, inputs, c.total
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    let values = BTreeMap::from([
        ("goal", ctx.goal.clone()),
        ("history", history),
        ("schema", schema),
        ("candidates", candidates),
        ("deterministic", det.rtfs.clone()),
    ]);
    let text = prompt.render(&values).map_err(|e| e.to_string())?;
    Ok(LlmRequest::new(prompt.key(), vec![Message::user(text)]).max_tokens(1024))
}

/// Validates a proposal: parse, preflight, governance, allowed candidates
/// only. Returns the capabilities it calls (sorted).
pub fn validate(
    src: &str,
    catalog: &dyn Catalog,
    policy: &Policy,
    allowed: &BTreeSet<String>,
) -> Result<Vec<String>, String> {
    let report = ccos_governance::preflight_str(src, catalog, policy)
        .map_err(|e| format!("does not parse: {}", e.message))?;
    if report.decision.is_denied() || report.has_denied() {
        return Err(format!(
            "denied by policy: {}",
            report.decision.reasons().join("; ")
        ));
    }
    if !report.is_clean() {
        let msgs: Vec<String> = report
            .findings
            .iter()
            .filter(|f| f.severity == ccos_governance::Severity::Error)
            .map(|f| format!("{} ({}:{})", f.message, f.line, f.column))
            .collect();
        return Err(format!("preflight: {}", msgs.join("; ")));
    }
    let mut calls = BTreeSet::new();
    for c in &report.calls {
        let Some(id) = &c.capability else {
            return Err(format!(
                "a call with a computed capability id at {}:{}",
                c.line, c.column
            ));
        };
        if !allowed.contains(id) {
            return Err(format!("calls {id}, which is not an allowed candidate"));
        }
        calls.insert(id.clone());
    }
    Ok(calls.into_iter().collect())
}

/// Asks `llm` for a planner and validates it; the deterministic synthesis
/// `det` is returned (with a note) when the model fails or the proposal is
/// invalid.
pub fn assist(
    ctx: &PlannerGenContext,
    det: PlannerSynthesis,
    llm: &dyn LlmProvider,
    catalog: &dyn Catalog,
    policy: &Policy,
) -> PlannerSynthesis {
    let fallback = |mut det: PlannerSynthesis, why: String| {
        det.decision_trace.notes.push(format!(
            "llm proposal rejected, deterministic planner kept: {why}"
        ));
        det
    };
    let req = match request(ctx, &det) {
        Ok(r) => r,
        Err(e) => return fallback(det, e),
    };
    let answer = match llm.generate_text(&req) {
        Ok(a) => a,
        Err(e) => return fallback(det, e.to_string()),
    };
    let src = code_of(&answer.text);
    let allowed: BTreeSet<String> = det
        .decision_trace
        .candidates
        .iter()
        .map(|c| c.id.clone())
        .collect();
    match validate(src, catalog, policy, &allowed) {
        Ok(calls) => {
            let mut s = det;
            s.rtfs = format!(
                ";; synthesized planner (spec 026): LLM proposal ({}), validated\n{}\n",
                llm.describe(),
                src
            );
            if !calls.is_empty() {
                s.required_capabilities = calls;
            }
            s.decision_trace.source = "llm".into();
            s.decision_trace
                .notes
                .push("llm proposal passed parse, preflight and governance".into());
            s
        }
        Err(why) => fallback(det, why),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_blocks_are_extracted() {
        assert_eq!(code_of("x\n```clojure\n(do 1)\n```\ny"), "(do 1)");
        assert_eq!(code_of("  (do 2) "), "(do 2)");
        assert!(Prompt::parse("p", PROMPT_SOURCE).is_ok());
    }
}
