//! The host contract: the evaluator's only door to the world.
//!
//! The evaluator itself performs no I/O and knows nothing of threads or async
//! runtimes. Everything observable goes through a [`Host`]:
//!
//! * [`Host::call`] performs `(call :capability.id args...)`;
//! * [`Host::step_event`] is told when a `step`, `step-parallel` group or
//!   branch, or `step-loop` iteration starts and ends;
//! * [`Host::run_parallel`] receives the branches of a `step-parallel` as
//!   independent closures and decides how to run them. The default runs them
//!   one after another; an orchestrator runs them on separate threads so
//!   their calls proceed concurrently. Branches share nothing mutable but
//!   the global definitions (behind a lock) and the step counter (atomic);
//! * [`Host::poll`] is asked regularly whether evaluation may go on: the
//!   evaluator reads no clock, so a deadline, an interrupt or a budget of
//!   the run lives in the host, which ends the run by answering with an
//!   error.
//!
//! Step paths make events deterministic even when branches run
//! concurrently: every step gets a dotted path (`"2"`, `"2.1"`, `"2.1.3"`)
//! assigned by position within its parent, so the same program with the same
//! host answers yields the same set of `(path, event)` pairs; sorting by path
//! gives one canonical order.

use crate::error::{ErrorKind, Result, RtfsError, Span};
use crate::value::Value;

/// A request to perform a capability call.
#[derive(Debug, Clone)]
pub struct CallRequest<'a> {
    /// The capability id, without a leading colon (`ccos.echo`).
    pub capability: &'a str,
    /// Evaluated arguments in order: `(call :x {:a 1})` has one map argument,
    /// `(call :ccos.math.add 2 3)` has two.
    pub args: Vec<Value>,
    /// The span of the `(call ...)` form.
    pub span: Span,
    /// Path of the innermost enclosing step (`""` at top level).
    pub step_path: &'a str,
    /// Name of the innermost enclosing step, if any.
    pub step_name: Option<&'a str>,
}

/// What kind of step an event is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StepKind {
    /// `(step "name" ...)`
    Step,
    /// A `(step-parallel ...)` group.
    Parallel,
    /// One branch of a `step-parallel`.
    Branch,
    /// A `(step-loop ...)` as a whole.
    Loop,
    /// One iteration of a `step-loop`.
    Iteration,
}

impl StepKind {
    /// Lower-case name for records (`step`, `parallel`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            StepKind::Step => "step",
            StepKind::Parallel => "parallel",
            StepKind::Branch => "branch",
            StepKind::Loop => "loop",
            StepKind::Iteration => "iteration",
        }
    }
}

/// Whether a step is starting or how it ended.
#[derive(Debug, Clone, Copy)]
pub enum StepPhase<'a> {
    /// The step is about to evaluate its body.
    Started,
    /// The step's body produced this value.
    Succeeded(&'a Value),
    /// The step's body failed with this error.
    Failed(&'a RtfsError),
}

/// A step event.
#[derive(Debug, Clone, Copy)]
pub struct StepEvent<'a> {
    /// Dotted position path, unique within one evaluation.
    pub path: &'a str,
    /// Step name (`step`), or a generated one (`loop`, `loop[2]`, `parallel`, `branch 1`).
    pub name: &'a str,
    /// The kind of step.
    pub kind: StepKind,
    /// Start or end.
    pub phase: StepPhase<'a>,
    /// Where the step is in the source.
    pub span: Span,
}

/// One `step-parallel` branch, ready to evaluate.
pub type Branch<'a> = Box<dyn FnOnce() -> Result<Value> + Send + 'a>;

/// The environment a program runs in. See the module docs.
pub trait Host: Sync {
    /// Performs a capability call and returns its result.
    fn call(&self, request: CallRequest<'_>) -> Result<Value>;

    /// Observes a step starting or ending. The default ignores it.
    fn step_event(&self, _event: &StepEvent<'_>) {}

    /// Runs the branches of a `step-parallel` and returns their results in
    /// branch order. The default runs them sequentially; override to run
    /// them concurrently.
    fn run_parallel<'a>(&self, branches: Vec<Branch<'a>>) -> Vec<Result<Value>> {
        branches.into_iter().map(|b| b()).collect()
    }

    /// Whether evaluation may go on. The evaluator calls it at the start
    /// of every `step`, `step-parallel` group and branch and `step-loop`
    /// iteration, before every `call`, and each time its step counter
    /// passes a multiple of [`crate::eval::POLL_INTERVAL`] — so also
    /// during pure computation that never calls anything. (A built-in
    /// charged many steps for its work polls once, before doing it; the
    /// work of one built-in is bounded by the value limits.) The default
    /// always says yes.
    ///
    /// An error ends the evaluation: it is returned from the evaluation as
    /// it is, and a `try` never catches it — an error of a catchable kind
    /// is turned into [`ErrorKind::Limit`]. Return [`ErrorKind::Limit`]
    /// for a deadline or an exhausted budget and [`ErrorKind::Denied`] for
    /// a refusal (a cancelled run); say in the message which bound was
    /// hit. Polls are frequent (about every 1,000 evaluation steps, tens
    /// of microseconds): keep it cheap, e.g. compare `Instant::now()` with
    /// a deadline or load an atomic flag.
    ///
    /// With `step-parallel` branches on several threads, it may be called
    /// from any of them.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicU64, Ordering};
    /// use rtfs::{CallRequest, ErrorKind, Evaluator, Host, Result, RtfsError, Value};
    ///
    /// /// A host that allows a fixed number of polls (a real one compares
    /// /// `Instant::now()` with the run's deadline).
    /// struct Budget(AtomicU64);
    ///
    /// impl Host for Budget {
    ///     fn call(&self, req: CallRequest<'_>) -> Result<Value> {
    ///         Err(RtfsError::new(ErrorKind::Host, format!("no {}", req.capability)))
    ///     }
    ///     fn poll(&self) -> Result<()> {
    ///         match self.0.fetch_sub(1, Ordering::Relaxed) {
    ///             0 => Err(RtfsError::new(ErrorKind::Limit, "run deadline exceeded")),
    ///             _ => Ok(()),
    ///         }
    ///     }
    /// }
    ///
    /// let host = Budget(AtomicU64::new(3));
    /// let err = Evaluator::new(&host)
    ///     .eval_str("(try (reduce + (range 100000)) (catch e :caught))")
    ///     .unwrap_err();
    /// assert_eq!(err.kind, ErrorKind::Limit);
    /// assert_eq!(err.message, "run deadline exceeded");
    /// ```
    fn poll(&self) -> Result<()> {
        Ok(())
    }
}

/// A host with no capabilities: every `call` fails with a clear error. The
/// default for pure evaluation (`ccos rtfs eval`).
#[derive(Debug, Default, Clone, Copy)]
pub struct PureHost;

impl Host for PureHost {
    fn call(&self, request: CallRequest<'_>) -> Result<Value> {
        Err(RtfsError::new(
            ErrorKind::Host,
            format!("no host for call to {}", request.capability),
        )
        .at(request.span)
        .with_help("pure evaluation has no capabilities; run the plan with `ccos run --plan`"))
    }
}

/// [`PureHost`] with a deadline: every `call` fails, and the run ends with
/// an uncatchable [`ErrorKind::Limit`] once `timeout` has passed (polled by
/// the evaluator), or the heap grew past an optional memory limit. What `ccos rtfs eval` runs programs with.
#[derive(Debug, Clone, Copy)]
pub struct DeadlineHost {
    at: std::time::Instant,
    timeout: std::time::Duration,
    memory: Option<ccos_core::heap::HeapBudget>,
}

impl DeadlineHost {
    /// A host whose runs end `timeout` from now.
    pub fn new(timeout: std::time::Duration) -> Self {
        DeadlineHost {
            at: std::time::Instant::now() + timeout,
            timeout,
            memory: None,
        }
    }

    /// Also ends the run once the process's live heap grew by more than
    /// `bytes` from now (where the binary counts its allocations: see
    /// `ccos_core::heap`).
    pub fn with_memory_limit(mut self, bytes: u64) -> Self {
        self.memory = Some(ccos_core::heap::HeapBudget::starting_now(bytes));
        self
    }
}

impl Host for DeadlineHost {
    fn call(&self, req: CallRequest<'_>) -> Result<Value> {
        PureHost.call(req)
    }

    fn poll(&self) -> Result<()> {
        if std::time::Instant::now() >= self.at {
            return Err(RtfsError::new(
                ErrorKind::Limit,
                format!("deadline of {} ms exceeded", self.timeout.as_millis()),
            ));
        }
        if let Some(Err(over)) = self.memory.as_ref().map(|m| m.check()) {
            return Err(RtfsError::new(ErrorKind::Limit, over.to_string()));
        }
        Ok(())
    }
}
