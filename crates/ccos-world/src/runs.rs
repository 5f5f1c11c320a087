//! The story of runs, read back from the causal chain: what was asked,
//! which plan ran, each step with its value and duration, each call,
//! each approval, and how it ended. `ccos runs` prints it; the MCP server
//! returns it (`ccos_explain_run`).

use std::collections::BTreeMap;

use ccos_core::audit::payload::{
    ApprovalDenied, ApprovalGiven, ApprovalRequested, CapabilityCall, RunAbandoned, RunEnded,
    RunStarted, StepEnded, StepStarted,
};
use ccos_core::audit::{EntryKind, RecordedValue};
use ccos_store::ChainEntry;
use serde::Serialize;

use crate::{World, WorldError};

/// One run, in a line.
#[derive(Debug, Clone, Serialize)]
pub struct RunSummary {
    /// The run id.
    pub run_id: String,
    /// The intent it served.
    pub intent_id: Option<String>,
    /// The plan that ran.
    pub plan_id: Option<String>,
    /// The goal of the intent.
    pub goal: Option<String>,
    /// When it started.
    pub started_at: String,
    /// Where the plan came from (a file, `<goal>`, `<mcp call>`).
    pub source: String,
    /// `running`, `succeeded`, `failed`, `denied`, `interrupted`,
    /// `timed_out`, `abandoned`.
    pub status: String,
    /// Wall time, once ended.
    pub duration_ms: Option<u64>,
    /// Capability calls, once ended.
    pub calls: Option<u64>,
    /// The process that ran it (from `run_started`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pid: Option<u32>,
}

/// What happened during a run, in chain order.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum RunEvent {
    /// A step began.
    StepStarted {
        /// Dotted path.
        path: String,
        /// Name.
        name: String,
        /// Kind.
        kind: String,
    },
    /// A step ended.
    StepEnded {
        /// Dotted path.
        path: String,
        /// Name.
        name: String,
        /// Kind.
        kind: String,
        /// Success.
        ok: bool,
        /// Duration.
        duration_ms: u64,
        /// Value or error, as text.
        detail: String,
    },
    /// A capability call.
    Call {
        /// Capability.
        capability: String,
        /// `ok`, `error`, `denied`, `invalid_arguments`.
        outcome: String,
        /// Arguments, as text.
        args: String,
        /// Result or error, as text.
        detail: String,
        /// Duration, when it ran.
        duration_ms: Option<u64>,
    },
    /// An approval was asked.
    ApprovalRequested {
        /// Capability.
        capability: String,
        /// Why.
        reasons: Vec<String>,
    },
    /// An approval was given.
    ApprovalGiven {
        /// Capability.
        capability: String,
        /// By whom.
        by: String,
    },
    /// An approval was refused.
    ApprovalDenied {
        /// Capability.
        capability: String,
        /// Why.
        reason: String,
    },
}

/// The whole story of one run.
#[derive(Debug, Clone, Serialize)]
pub struct RunStory {
    /// The run in a line.
    pub summary: RunSummary,
    /// The plan's text (from the archive).
    pub plan: Option<String>,
    /// How it was produced.
    pub generation_mode: Option<String>,
    /// The policy's verdict before it ran.
    pub governance: Option<String>,
    /// Steps, calls and approvals, in order.
    pub events: Vec<RunEvent>,
    /// The plan's value, on success.
    pub value: Option<String>,
    /// The error, otherwise.
    pub error: Option<String>,
}

fn text(v: &Option<RecordedValue>) -> String {
    v.as_ref().map(RecordedValue::display).unwrap_or_default()
}

fn summary_from(started: &ChainEntry, ended: Option<&ChainEntry>) -> RunSummary {
    let s: Option<RunStarted> = started.payload_as();
    let mut out = RunSummary {
        run_id: started.run_id.clone().unwrap_or_default(),
        intent_id: started.intent_id.clone(),
        plan_id: started.plan_id.clone(),
        goal: None,
        started_at: started.timestamp.clone(),
        source: s
            .as_ref()
            .map(|s| s.source.clone())
            .or_else(|| {
                started
                    .payload
                    .get("source")
                    .and_then(|v| v.as_str())
                    .map(str::to_string)
            })
            .unwrap_or_default(),
        status: "running".into(),
        duration_ms: None,
        calls: None,
        pid: s.map(|s| s.pid),
    };
    if let Some(e) = ended {
        match e.entry_kind() {
            Some(EntryKind::RunAbandoned) => out.status = "abandoned".into(),
            _ => {
                // Format 1 entries (`run_interrupted` included) share the
                // fields that matter here.
                let p = &e.payload;
                out.status = p
                    .get("status")
                    .and_then(|v| v.as_str())
                    .unwrap_or("ended")
                    .to_string();
                out.duration_ms = p.get("duration_ms").and_then(|v| v.as_u64());
                out.calls = p.get("calls").and_then(|v| v.as_u64());
            }
        }
    }
    out
}

impl World {
    /// Appends `run_abandoned` for every run of this machine whose process
    /// is gone without a `run_ended` (killed with SIGKILL, a crash), and
    /// marks its plan `abandoned`: such runs would otherwise show as
    /// running forever. Runs of other machines (a shared store) are left
    /// alone.
    pub(crate) fn mark_abandoned_runs(&self, store: &ccos_store::Store) -> Result<(), WorldError> {
        let started = self.block_on(store.chain_by_kind(EntryKind::RunStarted.as_str()))?;
        if started.is_empty() {
            return Ok(());
        }
        let mut ended: std::collections::BTreeSet<String> = Default::default();
        for kind in [
            EntryKind::RunEnded,
            EntryKind::RunInterrupted,
            EntryKind::RunAbandoned,
        ] {
            for e in self.block_on(store.chain_by_kind(kind.as_str()))? {
                if let Some(r) = e.run_id {
                    ended.insert(r);
                }
            }
        }
        let here = ccos_orchestrator::process::host_name();
        for s in started {
            let Some(run) = &s.run_id else { continue };
            if ended.contains(run) {
                continue;
            }
            let Some(p) = s.payload_as::<RunStarted>() else {
                continue;
            };
            if p.host.is_none() || p.host != here {
                continue;
            }
            if !ccos_orchestrator::process::is_gone(p.pid, p.proc_start) {
                continue;
            }
            let entry = ccos_core::audit::NewEntry::of(&RunAbandoned {
                pid: p.pid,
                reason: format!(
                    "process {} is gone without ending the run (killed or crashed)",
                    p.pid
                ),
            })
            .ids(s.intent_id.as_deref(), s.plan_id.as_deref(), Some(run));
            self.block_on(store.append(entry))?;
            if let Some(plan) = &s.plan_id {
                self.block_on(store.set_plan_status(plan, "abandoned"))?;
            }
            if let Some(intent) = &s.intent_id {
                // The intent may have been removed by hand; that is no
                // reason to fail the command that noticed the dead run.
                let _ = self
                    .block_on(store.set_intent_status(intent, ccos_store::IntentStatus::Abandoned));
            }
        }
        Ok(())
    }

    /// Every run, oldest first, with its goal and how it ended.
    pub fn list_runs(&self) -> Result<Vec<RunSummary>, WorldError> {
        let store = self.store()?;
        let started = self.block_on(store.chain_by_kind(EntryKind::RunStarted.as_str()))?;
        let mut ends: BTreeMap<String, ChainEntry> = BTreeMap::new();
        for kind in [
            EntryKind::RunEnded,
            EntryKind::RunInterrupted,
            EntryKind::RunAbandoned,
        ] {
            for e in self.block_on(store.chain_by_kind(kind.as_str()))? {
                if let Some(r) = &e.run_id {
                    ends.entry(r.clone()).or_insert(e);
                }
            }
        }
        let mut goals: BTreeMap<String, Option<String>> = BTreeMap::new();
        let mut out = vec![];
        for s in &started {
            let Some(run) = &s.run_id else { continue };
            let mut summary = summary_from(s, ends.get(run));
            if let Some(i) = &summary.intent_id {
                if !goals.contains_key(i) {
                    let g = self.block_on(store.get_intent(i))?.map(|it| it.goal);
                    goals.insert(i.clone(), g);
                }
                summary.goal = goals.get(i).cloned().flatten();
            }
            out.push(summary);
        }
        Ok(out)
    }

    /// The story of run `run_id` (a unique prefix is enough).
    pub fn run_story(&self, run_id: &str) -> Result<RunStory, WorldError> {
        let store = self.store()?;
        // A whole id is one indexed read; only a prefix lists the runs.
        let mut entries = self.block_on(store.chain_by_run(run_id))?;
        if entries.is_empty() {
            let whole = self.resolve_run_id(run_id)?;
            entries = self.block_on(store.chain_by_run(&whole))?;
        }
        let run_id = entries
            .first()
            .and_then(|e| e.run_id.clone())
            .unwrap_or_else(|| run_id.to_string());
        let Some(started) = entries
            .iter()
            .find(|e| e.entry_kind() == Some(EntryKind::RunStarted))
        else {
            return Err(WorldError::failed(format!(
                "no run {run_id} in the causal chain"
            )));
        };
        let ended = entries.iter().rev().find(|e| {
            matches!(
                e.entry_kind(),
                Some(EntryKind::RunEnded | EntryKind::RunInterrupted | EntryKind::RunAbandoned)
            )
        });
        let mut summary = summary_from(started, ended);
        if let Some(i) = &summary.intent_id {
            summary.goal = self.block_on(store.get_intent(i))?.map(|it| it.goal);
        }
        let plan = match &summary.plan_id {
            Some(p) => self.block_on(store.get_plan(p))?,
            None => None,
        };
        let mut story = RunStory {
            summary,
            plan: plan.as_ref().map(|p| p.rtfs.clone()),
            generation_mode: plan.map(|p| p.generation_mode),
            governance: None,
            events: vec![],
            value: None,
            error: None,
        };
        for e in &entries {
            match e.entry_kind() {
                Some(EntryKind::GovernanceDecision) => {
                    story.governance = e.payload.get("decision").and_then(|d| {
                        d.as_str().map(str::to_string).or_else(|| {
                            d.get("decision")
                                .and_then(|x| x.as_str())
                                .map(str::to_string)
                        })
                    });
                }
                Some(EntryKind::StepStarted) => {
                    if let Some(p) = e.payload_as::<StepStarted>() {
                        story.events.push(RunEvent::StepStarted {
                            path: p.path,
                            name: p.name,
                            kind: p.kind,
                        });
                    }
                }
                Some(EntryKind::StepEnded) => {
                    if let Some(p) = e.payload_as::<StepEnded>() {
                        let detail = if p.ok {
                            text(&p.value)
                        } else {
                            p.error.unwrap_or_default()
                        };
                        story.events.push(RunEvent::StepEnded {
                            path: p.path,
                            name: p.name,
                            kind: p.kind,
                            ok: p.ok,
                            duration_ms: p.duration_ms,
                            detail,
                        });
                    }
                }
                Some(EntryKind::CapabilityCall) => {
                    if let Some(p) = e.payload_as::<CapabilityCall>() {
                        let detail = match (&p.result, &p.error) {
                            (Some(r), _) => r.display(),
                            (None, Some(err)) => err.clone(),
                            _ => String::new(),
                        };
                        story.events.push(RunEvent::Call {
                            capability: p.capability,
                            outcome: serde_json::to_value(p.outcome)
                                .ok()
                                .and_then(|v| v.as_str().map(str::to_string))
                                .unwrap_or_default(),
                            args: p.args.display(),
                            detail,
                            duration_ms: p.duration_ms,
                        });
                    }
                }
                Some(EntryKind::ApprovalRequested) => {
                    if let Some(p) = e.payload_as::<ApprovalRequested>() {
                        story.events.push(RunEvent::ApprovalRequested {
                            capability: p.capability,
                            reasons: p.reasons,
                        });
                    }
                }
                Some(EntryKind::ApprovalGiven) => {
                    if let Some(p) = e.payload_as::<ApprovalGiven>() {
                        story.events.push(RunEvent::ApprovalGiven {
                            capability: p.capability,
                            by: p.by,
                        });
                    }
                }
                Some(EntryKind::ApprovalDenied) => {
                    if let Some(p) = e.payload_as::<ApprovalDenied>() {
                        story.events.push(RunEvent::ApprovalDenied {
                            capability: p.capability,
                            reason: p.reason,
                        });
                    }
                }
                Some(EntryKind::RunEnded) => {
                    if let Some(p) = e.payload_as::<RunEnded>() {
                        story.value = p.value.as_ref().map(RecordedValue::display);
                        story.error = p.error;
                    }
                }
                Some(EntryKind::RunAbandoned) => {
                    if let Some(p) = e.payload_as::<RunAbandoned>() {
                        story.error = Some(p.reason);
                    }
                }
                _ => {}
            }
        }
        Ok(story)
    }

    /// The full id of the run `prefix` names (exact, or a unique prefix).
    fn resolve_run_id(&self, prefix: &str) -> Result<String, WorldError> {
        let runs = self.list_runs()?;
        if runs.iter().any(|r| r.run_id == prefix) {
            return Ok(prefix.to_string());
        }
        let matches: Vec<&RunSummary> = runs
            .iter()
            .filter(|r| r.run_id.starts_with(prefix))
            .collect();
        match matches.as_slice() {
            [one] => Ok(one.run_id.clone()),
            [] => Err(WorldError::failed(format!(
                "no run {prefix} (see ccos runs list)"
            ))),
            many => Err(WorldError::usage(format!(
                "{prefix} names {} runs; give more of the id",
                many.len()
            ))),
        }
    }
}
