//! # The orchestrator: governed execution of RTFS plans
//!
//! [`Orchestrator::run`] takes RTFS source and:
//!
//! 1. parses it (a syntax error ends the run: nothing executes);
//! 2. preflights it against the marketplace and the policy
//!    ([`ccos_governance::preflight`]); a denied call or any error finding ends
//!    the run before anything executes;
//! 3. archives the plan and records `run_started` in the causal chain;
//! 4. evaluates it with a [`GovernedHost`], which **re-checks every call
//!    against the policy at the moment of the call** (defence in depth: an id
//!    computed at run time cannot reach a denied capability), enforces the
//!    call budget and per-call timeout, asks for approval where the policy
//!    requires it, validates arguments against the capability's schema, and
//!    performs the call through the marketplace;
//! 5. records every step (started/ended, duration, value or error) and every
//!    call (arguments, result or error, duration) in the causal chain, with
//!    secrets replaced by `<redacted>` (the [`Redactor`] given with
//!    [`Orchestrator::with_redactor`]; this crate reads no environment);
//! 6. records `run_ended` (or `run_interrupted`).
//!
//! A capability whose provider is `ProviderSpec::Rtfs { body }` (a
//! synthesized agent, a requires-agent stub) is evaluated by the same
//! host: its map argument is bound as `context` (and `input`), every
//! argument as `args`; the calls it makes are governed, recorded and
//! counted like the plan's own, and at most [`MAX_RTFS_NESTING`] such
//! bodies run at once (bounding agent-calls-agent recursion). Every call's
//! success or failure is recorded as an outcome
//! (`ccos_store::Store::record_outcome`) for trust feedback.
//!
//! `step-parallel` branches run on their own threads, so their calls proceed
//! concurrently. Evaluation itself runs on a blocking thread; calls are
//! driven on the tokio runtime the orchestrator was created on.

#![warn(missing_docs)]

mod approval;
mod host;
pub mod process;

use std::sync::Arc;
use std::time::Instant;

use ccos_core::audit::payload::{
    IntentCreated, IntentStatusChanged, RunEnded, RunStarted, RunStatus,
};
use ccos_core::audit::{NewEntry, RecordedValue};
use ccos_core::new_id;
use ccos_governance::{Policy, PreflightReport};
use ccos_marketplace::Marketplace;
use ccos_store::{IntentStatus, NewIntent, NewPlan, Store};

pub use approval::{Approval, ApprovalRequest, Approver, AutoApprove, DenyAll};
pub use ccos_core::Redactor;
pub use host::{GovernedHost, Interrupt, MAX_RTFS_NESTING, ProgressEvent, ProgressSink};

/// Options for one run.
#[derive(Clone)]
pub struct RunOptions {
    /// A name for the plan's source (file path), for messages.
    pub source_name: String,
    /// The intent the plan serves; one is created ("run plan SOURCE") when `None`.
    pub intent_id: Option<String>,
    /// How the plan was produced (`manual`, `pattern`, `llm`, ...).
    pub generation_mode: String,
    /// What started the run: `cli`, `mcp`, `gateway` (recorded).
    pub origin: String,
    /// Global bindings made before evaluation (e.g. `context` for a
    /// synthesised planner).
    pub bindings: Vec<(String, rtfs::Value)>,
    /// Evaluation limits.
    pub limits: rtfs::Limits,
    /// Who approves this run's calls that need approval, instead of the
    /// orchestrator's approver (e.g. the MCP client that submitted the
    /// plan, asked through elicitation). Same host, same recording.
    pub approver: Option<Arc<dyn Approver>>,
    /// What stops this run, instead of the orchestrator's interrupt (e.g.
    /// the cancellation of the MCP request that started it). The
    /// orchestrator's own interrupt stops it too.
    pub interrupt: Option<Arc<Interrupt>>,
    /// Keep each call's result as its provider sent it (an MCP
    /// `CallToolResult`), secrets redacted, in [`RunOutcome::wire_results`]:
    /// for a front end that passes results through unchanged (the gateway).
    pub wire_results: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            source_name: "<plan>".into(),
            intent_id: None,
            generation_mode: "manual".into(),
            origin: "cli".into(),
            bindings: vec![],
            limits: rtfs::Limits::default(),
            approver: None,
            interrupt: None,
            wire_results: false,
        }
    }
}

/// A successful run.
#[derive(Debug, Clone)]
pub struct RunOutcome {
    /// Id of this run (causal-chain entries carry it).
    pub run_id: String,
    /// Id of the archived plan.
    pub plan_id: String,
    /// Id of the intent the plan served.
    pub intent_id: String,
    /// The plan's value, secrets redacted.
    pub value: rtfs::Value,
    /// Number of capability calls performed.
    pub calls: u64,
    /// Preflight findings (warnings only, since the run went ahead).
    pub preflight: PreflightReport,
    /// The calls' results as their providers sent them, in call order, when
    /// [`RunOptions::wire_results`] asked for them (providers that have
    /// such a form only: MCP tools), secrets redacted.
    pub wire_results: Vec<WireResult>,
}

/// One call's result as its provider sent it (see [`RunOptions::wire_results`]).
#[derive(Debug, Clone, PartialEq)]
pub struct WireResult {
    /// The capability called.
    pub capability: String,
    /// The result, e.g. an MCP `CallToolResult` as JSON, secrets redacted.
    pub result: serde_json::Value,
}

/// Why a run did not succeed.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The plan does not parse.
    #[error("the plan does not parse: {0}")]
    Parse(Box<rtfs::RtfsError>),
    /// Preflight found errors (unknown capability, bad arguments...).
    #[error("preflight found {} problem(s); nothing was executed", .0.findings.iter().filter(|f| f.severity == ccos_governance::Severity::Error).count())]
    Preflight(Box<PreflightReport>),
    /// The policy denies the plan (preflight) or a call (run time).
    #[error("denied by policy: {reason}")]
    Denied {
        /// Why, naming the capability and rule.
        reason: String,
        /// The preflight report when the denial came from preflight.
        report: Option<Box<PreflightReport>>,
        /// The run id when the denial happened at run time.
        run_id: Option<String>,
    },
    /// A step failed.
    #[error("{}", describe_failure(.step, .error))]
    StepFailed {
        /// The run id.
        run_id: String,
        /// Name and path of the innermost step that failed, if any.
        step: Option<(String, String)>,
        /// The error, secrets redacted.
        error: Box<rtfs::RtfsError>,
    },
    /// The run was interrupted (Ctrl-C).
    #[error("interrupted; running calls were cancelled")]
    Interrupted {
        /// The run id.
        run_id: String,
    },
    /// The causal chain or plan archive could not be written.
    #[error("store: {0}")]
    Store(#[from] ccos_store::StoreError),
    /// Something else went wrong in the orchestrator itself.
    #[error("{0}")]
    Internal(String),
}

fn describe_failure(step: &Option<(String, String)>, error: &rtfs::RtfsError) -> String {
    match step {
        Some((name, path)) => format!("step \"{name}\" (#{path}) failed: {error}"),
        None => format!("the plan failed: {error}"),
    }
}

/// Executes plans under a policy. Cheap to clone (shared state is `Arc`ed).
#[derive(Clone)]
pub struct Orchestrator {
    marketplace: Arc<Marketplace>,
    policy: Arc<Policy>,
    store: Store,
    approver: Arc<dyn Approver>,
    progress: Option<Arc<dyn ProgressSink>>,
    redactor: Arc<Redactor>,
    interrupt: Arc<Interrupt>,
}

impl Orchestrator {
    /// An orchestrator over `marketplace`, enforcing `policy`, recording into
    /// `store`. Approvals are refused until [`Orchestrator::with_approver`]
    /// says otherwise (a non-interactive run without approval).
    pub fn new(marketplace: Arc<Marketplace>, policy: Policy, store: Store) -> Self {
        Orchestrator {
            marketplace,
            policy: Arc::new(policy),
            store,
            approver: Arc::new(DenyAll),
            progress: None,
            redactor: Arc::new(Redactor::default()),
            interrupt: Arc::new(Interrupt::default()),
        }
    }

    /// Sets how approvals are obtained.
    pub fn with_approver(mut self, approver: Arc<dyn Approver>) -> Self {
        self.approver = approver;
        self
    }

    /// Sets where live step progress goes.
    pub fn with_progress(mut self, sink: Arc<dyn ProgressSink>) -> Self {
        self.progress = Some(sink);
        self
    }

    /// Sets the secrets to redact from everything recorded and returned
    /// (the named ones are also bound as `secrets` for plans to read).
    pub fn with_redactor(mut self, redactor: Redactor) -> Self {
        self.redactor = Arc::new(redactor);
        self
    }

    /// The secrets redacted from everything recorded.
    pub fn redactor(&self) -> &Redactor {
        &self.redactor
    }

    /// The interrupt handle: [`Interrupt::trigger`] stops the current run.
    pub fn interrupt(&self) -> Arc<Interrupt> {
        self.interrupt.clone()
    }

    /// The policy in force.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The store runs are recorded in.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Preflights `src` without running it.
    pub fn check(&self, src: &str) -> Result<PreflightReport, RunError> {
        ccos_governance::preflight_str(src, &*self.marketplace, &self.policy)
            .map_err(|e| RunError::Parse(Box::new(e)))
    }

    /// Runs a plan. See the crate docs for the sequence.
    pub async fn run(&self, src: &str, options: RunOptions) -> Result<RunOutcome, RunError> {
        let forms = rtfs::parse(src)
            .map_err(|e| RunError::Parse(Box::new(e.with_source(&options.source_name, src))))?;
        let report =
            ccos_governance::preflight(&forms, &*self.marketplace, &self.policy).with_source(src);
        if report.has_denied() {
            let reason = report
                .findings
                .iter()
                .filter(|f| f.code == "denied")
                .map(|f| f.message.clone())
                .collect::<Vec<_>>()
                .join("; ");
            return Err(RunError::Denied {
                reason,
                report: Some(Box::new(report)),
                run_id: None,
            });
        }
        if !report.is_clean() {
            return Err(RunError::Preflight(Box::new(report)));
        }

        let run_id = new_id("run", src);
        let plan_id = new_id("plan", src);
        let intent_id = match &options.intent_id {
            Some(id) => id.clone(),
            None => {
                let id = new_id("intent", src);
                let intent = self
                    .store
                    .create_intent(NewIntent::new(
                        &id,
                        self.redactor
                            .redact_str(&format!("run plan {}", options.source_name))
                            .into_owned(),
                    ))
                    .await?;
                self.store
                    .append(
                        NewEntry::of(&IntentCreated {
                            goal: intent.goal,
                            source: "plan-file".into(),
                            name: None,
                            parse_format: None,
                            parse_attempts: vec![],
                        })
                        .intent(&id),
                    )
                    .await?;
                id
            }
        };
        self.store
            .archive_plan(NewPlan {
                id: plan_id.clone(),
                intent_id: intent_id.clone(),
                rtfs: self.redactor.redact_str(src).into_owned(),
                ir: None,
                generation_mode: options.generation_mode.clone(),
                diagnostics: serde_json::to_value(
                    report
                        .findings
                        .iter()
                        .map(ccos_governance::Finding::audit_record)
                        .collect::<Vec<_>>(),
                )
                .unwrap_or_default(),
                status: "running".into(),
            })
            .await?;
        let ids = |e: NewEntry| e.intent(&intent_id).plan(&plan_id).run(&run_id);
        let governance = self.redactor_json(NewEntry::of(&report.audit_record()));
        self.store.append(ids(governance)).await?;
        let (pid, host, proc_start) = process::identity();
        let started_entry = NewEntry::of(&RunStarted {
            source: options.source_name.clone(),
            plan_sha256: hex::encode(sha2::Sha256::digest(src.as_bytes())),
            generation_mode: options.generation_mode.clone(),
            max_calls: self.policy.max_calls,
            call_timeout_ms: self.policy.call_timeout_ms,
            run_timeout_ms: self.policy.run_timeout_ms,
            origin: options.origin.clone(),
            pid,
            host,
            proc_start,
        });
        self.store
            .append(ids(self.redactor_json(started_entry)))
            .await?;
        self.set_intent_status(&intent_id, IntentStatus::Executing, None)
            .await?;

        let host = Arc::new(GovernedHost::new(
            host::HostParts {
                marketplace: self.marketplace.clone(),
                policy: self.policy.clone(),
                store: self.store.clone(),
                approver: options
                    .approver
                    .clone()
                    .unwrap_or_else(|| self.approver.clone()),
                progress: self.progress.clone(),
                redactor: self.redactor.clone(),
                interrupt: self.interrupt.clone(),
                run_interrupt: options.interrupt.clone(),
                wire_results: options.wire_results,
                runtime: tokio::runtime::Handle::current(),
                limits: options.limits,
                deadline: Instant::now()
                    + std::time::Duration::from_millis(self.policy.run_timeout_ms),
                memory: ccos_core::heap::HeapBudget::starting_now(self.policy.max_memory_bytes),
            },
            host::RunIds {
                run: run_id.clone(),
                plan: plan_id.clone(),
                intent: intent_id.clone(),
            },
        ));
        let started = Instant::now();
        let eval_host = host.clone();
        let limits = options.limits;
        let bindings = options.bindings.clone();
        let secrets = rtfs::Value::map(
            self.redactor
                .named()
                .map(|(k, v)| (rtfs::json::json_key(k), rtfs::Value::string(v))),
        );
        let result = tokio::task::spawn_blocking(move || {
            let ev = rtfs::Evaluator::new(&*eval_host).with_limits(limits);
            ev.define("secrets", secrets);
            for (name, value) in bindings {
                ev.define(&name, value);
            }
            ev.eval_program(&forms)
        })
        .await
        .map_err(|e| RunError::Internal(format!("evaluation thread failed: {e}")))?;

        let elapsed_ms = started.elapsed().as_millis() as u64;
        let calls = host.calls_made();
        if let Some(e) = host.take_record_error() {
            return Err(RunError::Store(e));
        }
        match result {
            Ok(value) => {
                let value = rtfs::redact::redact_value(&self.redactor, &value);
                let ended = NewEntry::of(&RunEnded {
                    status: RunStatus::Succeeded,
                    value: Some(RecordedValue::rtfs(rtfs::print_value(&value))),
                    error: None,
                    error_kind: None,
                    calls,
                    duration_ms: elapsed_ms,
                });
                self.store.append(ids(self.redactor_json(ended))).await?;
                self.store.set_plan_status(&plan_id, "succeeded").await?;
                self.set_intent_status(
                    &intent_id,
                    IntentStatus::Completed,
                    Some(format!("run {run_id} succeeded")),
                )
                .await?;
                Ok(RunOutcome {
                    run_id,
                    plan_id,
                    intent_id,
                    value,
                    calls,
                    preflight: report,
                    wire_results: host.take_wire_results(),
                })
            }
            Err(error) => {
                let error = rtfs::redact::redact_error(&self.redactor, error);
                let status = if host.is_interrupted() {
                    RunStatus::Interrupted
                } else if host.denial().is_some() {
                    RunStatus::Denied
                } else {
                    RunStatus::Failed
                };
                let ended = NewEntry::of(&RunEnded {
                    status,
                    value: None,
                    error: Some(error.message.clone()),
                    error_kind: Some(error.kind.code().to_string()),
                    calls,
                    duration_ms: elapsed_ms,
                });
                self.store.append(ids(self.redactor_json(ended))).await?;
                self.store
                    .set_plan_status(&plan_id, status.as_str())
                    .await?;
                if status == RunStatus::Interrupted {
                    return Err(RunError::Interrupted { run_id });
                }
                if let Some(reason) = host.denial() {
                    return Err(RunError::Denied {
                        reason,
                        report: None,
                        run_id: Some(run_id),
                    });
                }
                Err(RunError::StepFailed {
                    run_id,
                    step: host.failed_step(),
                    error: Box::new(error),
                })
            }
        }
    }

    /// Sets the status of intent `id` and of its sub-intents (the
    /// `IsSubgoalOf` children), and records the change of the root as an
    /// `intent_status` entry (with `reason`) when it ends a run.
    pub async fn set_intent_status(
        &self,
        id: &str,
        status: IntentStatus,
        reason: Option<String>,
    ) -> Result<(), RunError> {
        self.store.set_intent_status(id, status).await?;
        for child in self.store.children(id).await? {
            self.store.set_intent_status(&child.id, status).await?;
        }
        if reason.is_some() {
            let entry = NewEntry::of(&IntentStatusChanged {
                status: status.as_str().to_string(),
                reason,
            })
            .intent(id);
            self.store.append(self.redactor_json(entry)).await?;
        }
        Ok(())
    }

    /// `entry` with every secret redacted from its payload (structurally).
    fn redactor_json(&self, mut entry: NewEntry) -> NewEntry {
        entry.payload = self.redactor.redact_json(&entry.payload);
        entry
    }
}

use sha2::Digest;
