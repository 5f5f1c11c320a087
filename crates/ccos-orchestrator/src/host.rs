//! The governed RTFS host: every `(call ...)` of a running plan lands here.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ccos_core::Redactor;
use ccos_core::audit::payload::{
    ApprovalDenied, ApprovalGiven, ApprovalRequested, CallOutcome, CapabilityCall, StepEnded,
    StepStarted,
};
use ccos_core::audit::{NewEntry, Payload, RecordedValue};
use ccos_governance::{CallDecision, CallTarget, Policy};
use ccos_marketplace::{Marketplace, ProviderSpec};
use ccos_store::{OutcomeKind, Store, StoreError};
use rtfs::{Branch, CallRequest, ErrorKind, Host, RtfsError, StepEvent, StepPhase, Value};
use tokio::sync::Notify;

use crate::WireResult;
use crate::approval::{Approval, ApprovalRequest, Approver};

/// Stops a run: running calls are cancelled and no further call starts.
#[derive(Debug, Default)]
pub struct Interrupt {
    triggered: AtomicBool,
    notify: Notify,
}

impl Interrupt {
    /// Requests the stop (e.g. from a Ctrl-C handler).
    pub fn trigger(&self) {
        self.triggered.store(true, Ordering::SeqCst);
        self.notify.notify_waiters();
    }

    /// True once triggered.
    pub fn is_triggered(&self) -> bool {
        self.triggered.load(Ordering::SeqCst)
    }

    /// Waits until triggered.
    pub async fn wait(&self) {
        loop {
            let notified = self.notify.notified();
            if self.is_triggered() {
                return;
            }
            notified.await;
        }
    }
}

/// A live progress event for a terminal view.
#[derive(Debug, Clone)]
pub enum ProgressEvent {
    /// A step started.
    StepStarted {
        /// Dotted step path.
        path: String,
        /// Step name.
        name: String,
        /// `step`, `parallel`, `branch`, `loop`, `iteration`.
        kind: &'static str,
    },
    /// A step ended.
    StepEnded {
        /// Dotted step path.
        path: String,
        /// Step name.
        name: String,
        /// `step`, `parallel`, ...
        kind: &'static str,
        /// True on success.
        ok: bool,
        /// How long it took.
        duration: Duration,
    },
    /// A capability call ended.
    Call {
        /// The capability id.
        capability: String,
        /// True on success.
        ok: bool,
        /// How long it took.
        duration: Duration,
    },
}

/// Receives progress events (from several threads when branches run in
/// parallel).
pub trait ProgressSink: Send + Sync {
    /// One event.
    fn event(&self, event: &ProgressEvent);
}

pub(crate) struct HostParts {
    pub marketplace: Arc<Marketplace>,
    pub policy: Arc<Policy>,
    pub store: Store,
    pub approver: Arc<dyn Approver>,
    pub progress: Option<Arc<dyn ProgressSink>>,
    pub redactor: Arc<Redactor>,
    pub interrupt: Arc<Interrupt>,
    /// This run's own interrupt (e.g. a cancelled MCP request), besides
    /// the orchestrator's.
    pub run_interrupt: Option<Arc<Interrupt>>,
    /// Keep each call's result as its provider sent it.
    pub wire_results: bool,
    pub runtime: tokio::runtime::Handle,
    /// Limits of the run, also applied to each RTFS-defined capability body.
    pub limits: rtfs::Limits,
    /// When the run must end (its start plus the policy's
    /// `run_timeout_ms`): polled by the evaluator, and no call waits past it.
    pub deadline: Instant,
    /// The run's allowance of live heap growth (policy `max_memory_mb`),
    /// measured from the run's start; polled with the deadline.
    pub memory: ccos_core::heap::HeapBudget,
}

/// How many RTFS-defined capability bodies (agents, stubs) may be under
/// evaluation at once in one run: bounds their nesting (an agent calling an
/// agent calling ...), including through parallel branches.
pub const MAX_RTFS_NESTING: usize = 8;

/// Decrements the nesting counter when an RTFS body's evaluation ends.
struct NestGuard<'a>(&'a AtomicUsize);

impl Drop for NestGuard<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

pub(crate) struct RunIds {
    pub run: String,
    pub plan: String,
    pub intent: String,
}

/// The RTFS host of a governed run. See the crate docs.
pub struct GovernedHost {
    parts: HostParts,
    ids: RunIds,
    calls: AtomicU64,
    /// Chain entries this run has written (bounded by `max_entries`).
    entries: AtomicU64,
    step_starts: Mutex<BTreeMap<String, Instant>>,
    record_error: Mutex<Option<StoreError>>,
    denial: Mutex<Option<String>>,
    failed_step: Mutex<Option<(String, String)>>,
    nested: AtomicUsize,
    wire: Mutex<Vec<WireResult>>,
}

impl GovernedHost {
    pub(crate) fn new(parts: HostParts, ids: RunIds) -> Self {
        GovernedHost {
            parts,
            ids,
            calls: AtomicU64::new(0),
            entries: AtomicU64::new(0),
            step_starts: Mutex::new(BTreeMap::new()),
            record_error: Mutex::new(None),
            denial: Mutex::new(None),
            failed_step: Mutex::new(None),
            nested: AtomicUsize::new(0),
            wire: Mutex::new(vec![]),
        }
    }

    /// True once the orchestrator's interrupt or this run's own fired.
    pub fn is_interrupted(&self) -> bool {
        self.parts.interrupt.is_triggered()
            || self
                .parts
                .run_interrupt
                .as_ref()
                .is_some_and(|i| i.is_triggered())
    }

    /// The calls' results as their providers sent them (when the run asked
    /// for them), in call order, secrets redacted.
    pub(crate) fn take_wire_results(&self) -> Vec<WireResult> {
        std::mem::take(&mut *lock(&self.wire))
    }

    /// Calls performed so far (denied and refused ones included).
    pub fn calls_made(&self) -> u64 {
        self.calls.load(Ordering::SeqCst)
    }

    /// The first policy denial at run time, if any.
    pub fn denial(&self) -> Option<String> {
        lock(&self.denial).clone()
    }

    /// The innermost step whose failure ended the run: `(name, path)`.
    pub fn failed_step(&self) -> Option<(String, String)> {
        lock(&self.failed_step).clone()
    }

    pub(crate) fn take_record_error(&self) -> Option<StoreError> {
        lock(&self.record_error).take()
    }

    /// Appends to the causal chain, blocking this (non-async) thread.
    /// Every string of the payload is redacted first.
    fn record<P: Payload>(&self, payload: &P) -> Result<(), StoreError> {
        self.entries.fetch_add(1, Ordering::SeqCst);
        let mut entry = NewEntry::of(payload);
        entry.payload = self.parts.redactor.redact_json(&entry.payload);
        // What a plan can make long at run time (a computed capability id,
        // the error quoting it) is cut like any message.
        if let Some(o) = entry.payload.as_object_mut() {
            for key in ["capability", "error", "reason", "step", "step_path"] {
                if let Some(serde_json::Value::String(text)) = o.get_mut(key)
                    && text.len() > ccos_core::text::MAX_MESSAGE_BYTES
                {
                    *text = ccos_core::text::clip(text, ccos_core::text::MAX_MESSAGE_BYTES)
                        .into_owned();
                }
            }
        }
        let entry = entry
            .intent(&self.ids.intent)
            .plan(&self.ids.plan)
            .run(&self.ids.run);
        let store = self.parts.store.clone();
        self.parts
            .runtime
            .block_on(async move { store.append(entry).await })
            .map(|_| ())
    }

    fn record_or_remember<P: Payload>(&self, payload: &P) {
        if let Err(e) = self.record(payload) {
            let mut slot = lock(&self.record_error);
            if slot.is_none() {
                *slot = Some(e);
            }
        }
    }

    /// A recorded value of RTFS values: redacted structurally, then
    /// printed (so escaping can never hide a secret).
    fn recorded_rtfs(&self, v: &Value) -> RecordedValue {
        RecordedValue::rtfs(rtfs::print_value(&rtfs::redact::redact_value(
            &self.parts.redactor,
            v,
        )))
    }

    fn deny(
        &self,
        req: &CallRequest<'_>,
        reason: String,
        args_json: &serde_json::Value,
    ) -> RtfsError {
        let reason = self.parts.redactor.redact_str(&reason).into_owned();
        {
            let mut d = lock(&self.denial);
            if d.is_none() {
                *d = Some(reason.clone());
            }
        }
        self.record_or_remember(&CapabilityCall {
            capability: req.capability.to_string(),
            provider: None,
            args: RecordedValue::json(args_json.clone()),
            step: req.step_name.map(str::to_string),
            step_path: Some(req.step_path.to_string()).filter(|p| !p.is_empty()),
            outcome: CallOutcome::Denied,
            result: None,
            error: Some(reason.clone()),
            duration_ms: None,
        });
        RtfsError::new(
            ErrorKind::Denied,
            format!(
                "call to {} denied by policy: {reason}",
                self.parts.redactor.redact_str(req.capability)
            ),
        )
        .at(req.span)
        .with_help("change the plan, or the policy (--policy FILE) if this call should be allowed")
    }

    /// Evaluates the body of an RTFS-defined capability with this same
    /// host (so its calls are governed, recorded and counted like the
    /// plan's), the call's map argument bound as `context` (and `input`),
    /// every argument as the vector `args`.
    fn eval_rtfs(&self, id: &str, body: &str, args: &[Value]) -> Result<Value, String> {
        let depth = self.nested.fetch_add(1, Ordering::SeqCst) + 1;
        let _guard = NestGuard(&self.nested);
        if depth > MAX_RTFS_NESTING {
            return Err(format!(
                "{id}: more than {MAX_RTFS_NESTING} RTFS-defined capabilities nested"
            ));
        }
        let forms =
            rtfs::parse(body).map_err(|e| format!("{id}: its RTFS body does not parse: {e}"))?;
        let input = match args {
            [one @ Value::Map(_)] => one.clone(),
            _ => Value::map([]),
        };
        let ev = rtfs::Evaluator::new(self).with_limits(self.parts.limits);
        ev.define("context", input.clone());
        ev.define("input", input);
        ev.define("args", Value::vector(args.to_vec()));
        ev.eval_program(&forms)
            .map_err(|e| format!("{id} failed: {}", e.message))
    }

    /// Records the outcome of a call for trust feedback.
    fn record_outcome(&self, id: &str, ok: bool) {
        let kind = if self.parts.marketplace.get_agent(id).is_some() {
            OutcomeKind::Agent
        } else {
            OutcomeKind::Capability
        };
        let store = self.parts.store.clone();
        let run = self.ids.run.clone();
        let res = self
            .parts
            .runtime
            .block_on(async move { store.record_outcome(id, kind, ok, Some(&run)).await });
        if let Err(e) = res {
            let mut slot = lock(&self.record_error);
            if slot.is_none() {
                *slot = Some(e);
            }
        }
    }

    fn progress(&self, e: ProgressEvent) {
        if let Some(p) = &self.parts.progress {
            p.event(&e);
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn args_to_json(args: &[Value]) -> serde_json::Value {
    serde_json::Value::Array(
        args.iter()
            .map(|a| {
                rtfs::to_json(a).unwrap_or_else(|_| serde_json::Value::String(rtfs::print_value(a)))
            })
            .collect(),
    )
}

impl Host for GovernedHost {
    fn call(&self, req: CallRequest<'_>) -> rtfs::Result<Value> {
        let args_json = args_to_json(&req.args);
        if self.is_interrupted() {
            return Err(RtfsError::new(ErrorKind::Host, "run interrupted").at(req.span));
        }
        let n = self.calls.fetch_add(1, Ordering::SeqCst) + 1;
        let policy = &self.parts.policy;
        if n > policy.max_calls {
            let reason = format!(
                "call budget of {} calls per plan exhausted",
                policy.max_calls
            );
            return Err(self.deny(&req, reason, &args_json));
        }

        // Defence in depth: decide again, now, for the id actually called.
        let manifest = self.parts.marketplace.get(req.capability);
        let decision = match &manifest {
            Some(m) => policy.decide_call(CallTarget::Known(m)),
            None => policy.decide_call(CallTarget::Unknown(req.capability)),
        };
        match decision {
            CallDecision::Allow => {}
            CallDecision::Deny { reasons } => {
                return Err(self.deny(&req, reasons.join("; "), &args_json));
            }
            CallDecision::NeedsApproval { reasons } => {
                let request = ApprovalRequest {
                    capability: req.capability.to_string(),
                    args: rtfs::print_value(&rtfs::redact::redact_value(
                        &self.parts.redactor,
                        &Value::vector(req.args.clone()),
                    )),
                    reasons: reasons.clone(),
                    step: req.step_name.map(str::to_string),
                };
                self.record_or_remember(&ApprovalRequested {
                    capability: req.capability.to_string(),
                    args: RecordedValue::json(args_json.clone()),
                    reasons: reasons.clone(),
                    step: req.step_name.map(str::to_string),
                });
                match self.parts.approver.approve(&request) {
                    Approval::Given(by) => {
                        self.record_or_remember(&ApprovalGiven {
                            capability: req.capability.to_string(),
                            by,
                        });
                    }
                    Approval::Refused(why) => {
                        self.record_or_remember(&ApprovalDenied {
                            capability: req.capability.to_string(),
                            reason: why.clone(),
                        });
                        return Err(self.deny(
                            &req,
                            format!("approval refused: {why}"),
                            &args_json,
                        ));
                    }
                }
            }
        }
        let Some(manifest) = manifest else {
            // decide_call denies unknown ids; this is unreachable in practice.
            return Err(self.deny(
                &req,
                format!("unknown capability {}", req.capability),
                &args_json,
            ));
        };

        if let Err(problems) = ccos_marketplace::schema::validate_args(&manifest, &req.args) {
            let errors: Vec<String> = problems
                .iter()
                .filter(|p| p.severity == ccos_marketplace::schema::Severity::Error)
                .map(|p| p.message.clone())
                .collect();
            if !errors.is_empty() {
                let message = format!(
                    "invalid arguments for {}: {}",
                    req.capability,
                    errors.join("; ")
                );
                self.record_or_remember(&CapabilityCall {
                    capability: req.capability.to_string(),
                    provider: Some(manifest.provider.label().to_string()),
                    args: RecordedValue::json(args_json.clone()),
                    step: req.step_name.map(str::to_string),
                    step_path: Some(req.step_path.to_string()).filter(|p| !p.is_empty()),
                    outcome: CallOutcome::InvalidArguments,
                    result: None,
                    error: Some(message.clone()),
                    duration_ms: None,
                });
                return Err(RtfsError::new(ErrorKind::Host, message).at(req.span));
            }
        }

        let started = Instant::now();
        // A call waits at most its own timeout, and never past the run's
        // deadline.
        let left = self
            .parts
            .deadline
            .saturating_duration_since(Instant::now())
            .max(Duration::from_millis(1));
        // A wait the plan asks for ("wait 5 minutes") is not cut short by
        // the per-call timeout; the run's deadline still bounds it.
        let call_timeout = Duration::from_millis(policy.call_timeout_ms.max(1)).max(
            matches!(manifest.provider, ProviderSpec::Builtin)
                .then(|| ccos_marketplace::builtins::intended_wait(req.capability, &req.args))
                .flatten()
                .map_or(Duration::ZERO, |w| w + Duration::from_secs(1)),
        );
        let timeout = call_timeout.min(left);
        let timed_out = if timeout < call_timeout {
            format!(
                "{} stopped: run deadline of {} ms reached (policy [limits] run_timeout_ms)",
                req.capability, policy.run_timeout_ms
            )
        } else {
            format!(
                "{} timed out after {} ms",
                req.capability,
                timeout.as_millis()
            )
        };
        let mp = self.parts.marketplace.clone();
        let interrupt = self.parts.interrupt.clone();
        let run_interrupt = self.parts.run_interrupt.clone();
        let wire_results = self.parts.wire_results;
        let id = req.capability.to_string();
        let args = req.args.clone();
        // `Err((denied, message))`: `denied` when the provider refused at a
        // boundary the policy sets (file roots, HTTP allow-list).
        let outcome: Result<Value, (bool, String)> = if let ProviderSpec::Rtfs { body } =
            &manifest.provider
        {
            self.eval_rtfs(&id, body, &args).map_err(|m| (false, m))
        } else {
            let output = self.parts.runtime.block_on(async move {
                let run_stopped = async {
                    match &run_interrupt {
                        Some(i) => i.wait().await,
                        None => std::future::pending().await,
                    }
                };
                tokio::select! {
                    r = tokio::time::timeout(timeout, mp.call_with_wire(&id, args)) => match r {
                        Ok(Ok(out)) => Ok(out),
                        Ok(Err(e @ ccos_marketplace::CallError::Denied { .. })) => {
                            Err((true, e.to_string()))
                        }
                        Ok(Err(e)) => Err((false, e.to_string())),
                        Err(_) => Err((false, timed_out)),
                    },
                    _ = interrupt.wait() => Err((false, format!("{id} cancelled: run interrupted"))),
                    _ = run_stopped => Err((false, format!("{id} cancelled: run interrupted"))),
                }
            });
            output.map(|out| {
                if wire_results && let Some(wire) = out.wire {
                    lock(&self.wire).push(WireResult {
                        capability: req.capability.to_string(),
                        result: self.parts.redactor.redact_json(&wire),
                    });
                }
                out.value
            })
        };
        let duration = started.elapsed();
        if let Err((true, why)) = &outcome {
            // A boundary crossed is a policy denial: recorded as such, and
            // the run ends denied (exit 3), uncatchable by the plan.
            return Err(self.deny(&req, why.clone(), &args_json));
        }
        let outcome = outcome.map_err(|(_, m)| m);
        self.record_outcome(req.capability, outcome.is_ok());
        let (result, error) = match &outcome {
            Ok(v) => (
                Some(match rtfs::to_json(v) {
                    Ok(j) => RecordedValue::json(j),
                    Err(_) => self.recorded_rtfs(v),
                }),
                None,
            ),
            Err(e) => (None, Some(e.clone())),
        };
        self.record_or_remember(&CapabilityCall {
            capability: req.capability.to_string(),
            provider: Some(manifest.provider.label().to_string()),
            args: RecordedValue::json(args_json.clone()),
            step: req.step_name.map(str::to_string),
            step_path: Some(req.step_path.to_string()).filter(|p| !p.is_empty()),
            outcome: if error.is_none() {
                CallOutcome::Ok
            } else {
                CallOutcome::Error
            },
            result,
            error,
            duration_ms: Some(duration.as_millis() as u64),
        });
        self.progress(ProgressEvent::Call {
            capability: req.capability.to_string(),
            ok: outcome.is_ok(),
            duration,
        });
        if let Some(e) = lock(&self.record_error).as_ref() {
            return Err(RtfsError::new(
                ErrorKind::Host,
                format!("could not record to the causal chain: {e}"),
            )
            .at(req.span));
        }
        outcome.map_err(|m| RtfsError::new(ErrorKind::Host, m).at(req.span))
    }

    /// Ends the run, uncatchably, when it is interrupted, past its
    /// deadline, over its entries or over its memory (the evaluator polls every 1,024 steps and at every step,
    /// loop iteration and call).
    fn poll(&self) -> rtfs::Result<()> {
        if self.is_interrupted() {
            return Err(RtfsError::new(ErrorKind::Denied, "run interrupted"));
        }
        let written = self.entries.load(Ordering::SeqCst);
        if written >= self.parts.policy.max_entries {
            return Err(RtfsError::new(
                ErrorKind::Limit,
                format!(
                    "the run wrote {written} chain entries, the policy's maximum ([limits] max_entries = {})",
                    self.parts.policy.max_entries
                ),
            ));
        }
        if Instant::now() >= self.parts.deadline {
            return Err(RtfsError::new(
                ErrorKind::Limit,
                format!(
                    "run deadline of {} ms exceeded (policy [limits] run_timeout_ms)",
                    self.parts.policy.run_timeout_ms
                ),
            ));
        }
        if let Err(over) = self.parts.memory.check() {
            return Err(RtfsError::new(
                ErrorKind::Limit,
                format!("the run's {over} (policy [limits] max_memory_mb)"),
            ));
        }
        Ok(())
    }

    fn step_event(&self, e: &StepEvent<'_>) {
        let kind = e.kind.as_str();
        match e.phase {
            StepPhase::Started => {
                lock(&self.step_starts).insert(e.path.to_string(), Instant::now());
                self.record_or_remember(&StepStarted {
                    path: e.path.to_string(),
                    name: e.name.to_string(),
                    kind: kind.to_string(),
                });
                self.progress(ProgressEvent::StepStarted {
                    path: e.path.into(),
                    name: e.name.into(),
                    kind,
                });
            }
            StepPhase::Succeeded(_) | StepPhase::Failed(_) => {
                let duration = lock(&self.step_starts)
                    .remove(e.path)
                    .map(|t| t.elapsed())
                    .unwrap_or_default();
                let ended = match e.phase {
                    StepPhase::Succeeded(v) => StepEnded {
                        path: e.path.to_string(),
                        name: e.name.to_string(),
                        kind: kind.to_string(),
                        ok: true,
                        duration_ms: duration.as_millis() as u64,
                        value: Some(self.recorded_rtfs(v)),
                        error: None,
                        error_kind: None,
                    },
                    StepPhase::Failed(err) => {
                        let mut f = lock(&self.failed_step);
                        if f.is_none() && kind == "step" {
                            *f = Some((e.name.to_string(), e.path.to_string()));
                        }
                        StepEnded {
                            path: e.path.to_string(),
                            name: e.name.to_string(),
                            kind: kind.to_string(),
                            ok: false,
                            duration_ms: duration.as_millis() as u64,
                            value: None,
                            error: Some(err.message.clone()),
                            error_kind: Some(err.kind.code().to_string()),
                        }
                    }
                    StepPhase::Started => unreachable!("handled above"),
                };
                let ok = ended.ok;
                self.record_or_remember(&ended);
                self.progress(ProgressEvent::StepEnded {
                    path: e.path.into(),
                    name: e.name.into(),
                    kind,
                    ok,
                    duration,
                });
            }
        }
    }

    fn run_parallel<'a>(&self, branches: Vec<Branch<'a>>) -> Vec<rtfs::Result<Value>> {
        std::thread::scope(|s| {
            let handles: Vec<_> = branches.into_iter().map(|b| s.spawn(b)).collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(RtfsError::new(ErrorKind::Host, "a parallel branch crashed"))
                    })
                })
                .collect()
        })
    }
}
