//! The evaluator: walks [`Expr`] trees and produces [`Value`]s.
//!
//! It performs no I/O and reads no clock: `(call ...)` and step
//! notifications go to the [`Host`], and so does time — the evaluator asks
//! [`Host::poll`] regularly whether to go on, and a host with a deadline
//! answers with an error. Evaluation is bounded by [`Limits`] (steps,
//! nesting depth, collection size, value size and depth, loop iterations);
//! hitting one is an [`ErrorKind::Limit`] error that `try`/`catch` cannot
//! swallow, so a runaway program always comes back as an error. Deep
//! recursion runs on a growable stack (`stacker`), so the depth limit, not
//! the machine stack, is what stops it.
//!
//! Steps measure work, not only expressions: a built-in that copies,
//! scans or compares more than a few bytes is charged one step per
//! [`BYTES_PER_STEP`] bytes, so `max_steps` bounds the total work of a run
//! (building a string by repeated `str` is quadratic and stops early).
//!
//! Order of evaluation is fixed: function arguments left to right, `let`
//! bindings in order, map literal keys in source order and then values in
//! the map's key order (the order the canonical printer uses, so formatting a
//! program never changes which of its calls runs first).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use crate::builtins::{self, Builtin};
use crate::error::{ErrorKind, Result, RtfsError, Span};
use crate::host::{Branch, CallRequest, Host, PureHost, StepEvent, StepKind, StepPhase};
use crate::syntax::{Expr, ExprKind};
use crate::types::{self, Annotation, Binding};
use crate::value::{Arity, ArityTypes, Closure, Function, Map, Value};

/// Bounds on evaluation. Defaults suit plans; tighten them for untrusted
/// code. `docs/rtfs.md` (section 6) describes each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Maximum number of evaluation steps for one run: one per expression
    /// evaluated, plus one per [`BYTES_PER_STEP`] bytes a built-in copies,
    /// scans or compares.
    pub max_steps: u64,
    /// Maximum nesting of evaluations (recursion depth).
    pub max_depth: usize,
    /// Maximum number of elements in a collection built at run time (and
    /// bytes in a string built by `str`, `join` or `replace`).
    pub max_collection_size: usize,
    /// Maximum iterations of one `step-loop`.
    pub max_loop_iterations: usize,
    /// Maximum logical size in bytes of any value ([`Value::logical_size`]:
    /// shared parts count each time they appear). Checked before or while
    /// a value is built, and on every value a host hands the evaluator, so
    /// printing, converting, comparing or hashing any value is bounded.
    pub max_value_bytes: u64,
    /// Maximum nesting depth of any value ([`Value::depth`]); at least the
    /// parser's [`crate::parser::MAX_NESTING`], so every literal that
    /// parses can be built. Keeps every recursive traversal of a value
    /// (dropping included) within a small, fixed stack.
    pub max_value_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_steps: 10_000_000,
            max_depth: 10_000,
            max_collection_size: 1_000_000,
            max_loop_iterations: 10_000,
            max_value_bytes: 64 * 1024 * 1024,
            max_value_depth: 1024,
        }
    }
}

/// Bytes a built-in may copy, scan or compare per evaluation step it is
/// charged (see [`Limits::max_steps`]); about what one expression
/// evaluation costs in time.
pub const BYTES_PER_STEP: u64 = 1024;

/// The evaluator calls [`Host::poll`] each time its step counter passes a
/// multiple of this (and at the start of every step, loop iteration and
/// call).
pub const POLL_INTERVAL: u64 = 1024;

/// How many forms one `->` or `->>` may thread: the threaded form nests
/// one level per form, and syntax trees nest at most this deep.
const MAX_THREADED_FORMS: usize = crate::parser::MAX_NESTING;

/// An immutable chain of local bindings.
#[derive(Clone, Default)]
pub(crate) struct Env(Option<Arc<Frame>>);

struct Frame {
    name: Arc<str>,
    value: Value,
    parent: Env,
    /// The depth of the deepest value bound here or in a parent frame.
    depth: u32,
}

/// Frames form a chain as long as the bindings in scope (a `let` of many
/// bindings makes a long one): drop it iteratively, so dropping never
/// recurses once per frame.
impl Drop for Frame {
    fn drop(&mut self) {
        let mut next = self.parent.0.take();
        while let Some(frame) = next {
            match Arc::try_unwrap(frame) {
                Ok(mut f) => next = f.parent.0.take(),
                Err(_) => break,
            }
        }
    }
}

impl Env {
    pub(crate) fn bind(&self, name: Arc<str>, value: Value) -> Env {
        let depth = self.depth().max(value.depth());
        Env(Some(Arc::new(Frame {
            name,
            value,
            parent: self.clone(),
            depth,
        })))
    }

    /// The depth of the deepest value bound in this environment.
    #[inline]
    fn depth(&self) -> u32 {
        self.0.as_ref().map_or(0, |f| f.depth)
    }

    fn lookup(&self, name: &str) -> Option<&Value> {
        let mut cur = self.0.as_deref();
        while let Some(f) = cur {
            if &*f.name == name {
                return Some(&f.value);
            }
            cur = f.parent.0.as_deref();
        }
        None
    }
}

/// Builds a vector one element at a time, checking the element
/// count and the value limits at every element (see
/// [`Evaluator::builder`]).
pub(crate) struct SeqBuilder<'e, 'h> {
    ev: &'e Evaluator<'h>,
    items: Vec<Value>,
    bytes: u64,
    depth: u32,
    span: Span,
}

impl SeqBuilder<'_, '_> {
    /// Adds `v`, or fails when the collection would exceed a limit.
    #[inline]
    pub(crate) fn push(&mut self, v: Value) -> Result<()> {
        let limits = &self.ev.limits;
        self.bytes = self.bytes.saturating_add(v.logical_size());
        self.depth = self.depth.max(v.depth());
        if self.bytes > limits.max_value_bytes {
            return Err(
                crate::value::value_too_large(self.bytes, limits.max_value_bytes).at(self.span),
            );
        }
        if self.depth as usize >= limits.max_value_depth {
            return Err(crate::value::value_too_deep(
                self.depth as usize + 1,
                limits.max_value_depth,
            )
            .at(self.span));
        }
        self.ev.check_size(self.items.len() + 1, self.span)?;
        self.items.push(v);
        Ok(())
    }

    /// The vector of the elements pushed.
    pub(crate) fn vector(self) -> Result<Value> {
        self.ev.charge_elements(self.items.len(), self.span)?;
        let c = crate::value::Coll::with_measures(self.items, self.bytes, self.depth + 1);
        Ok(Value::Vector(c))
    }
}

/// Functions that see each other by name (letrec): the `fn`s bound by one
/// run of `let` bindings that refer to themselves or their siblings, or a
/// named `(fn name ...)` that refers to itself.
///
/// The group holds the functions' code and the environment they were
/// created in, not the functions themselves, so no reference cycle forms:
/// each call of a member binds fresh copies of every member before the
/// parameters ([`RecGroup::bind`]).
pub(crate) struct RecGroup {
    base: Env,
    members: Vec<RecMember>,
}

struct RecMember {
    /// The names the function is bound to (its `let` name, its own name).
    names: Vec<Arc<str>>,
    fn_name: Option<Arc<str>>,
    arities: Arc<[Arity]>,
}

impl RecGroup {
    /// Member `i` as a function value.
    fn member(self: &Arc<Self>, i: usize) -> Option<Value> {
        let m = self.members.get(i)?;
        Some(Value::Function(Function::Closure(Arc::new(Closure {
            name: m.fn_name.clone(),
            arities: m.arities.clone(),
            env: self.base.clone(),
            rec: Some(self.clone()),
            depth: self.base.depth().saturating_add(1),
        }))))
    }

    /// `env` with every member bound under each of its names.
    fn bind(self: &Arc<Self>, mut env: Env) -> Env {
        for (i, m) in self.members.iter().enumerate() {
            if let Some(f) = self.member(i) {
                for n in &m.names {
                    env = env.bind(n.clone(), f.clone());
                }
            }
        }
        env
    }
}

/// True when a symbol in `e` is one of `names`.
fn mentions(e: &Expr, names: &[Arc<str>]) -> bool {
    let mut found = false;
    e.walk(&mut |x| {
        if let ExprKind::Symbol(s) = &x.kind
            && names.contains(s)
        {
            found = true;
        }
    });
    found
}

/// The arguments of `(fn ...)` when `e` is such a form.
fn fn_form(e: &Expr) -> Option<&[Expr]> {
    let items = e.as_list()?;
    matches!(items.first().and_then(Expr::as_symbol), Some("fn" | "λ")).then(|| &items[1..])
}

/// Where in the step tree evaluation is, for deterministic step paths.
pub(crate) struct Scope {
    path: String,
    name: Option<String>,
    next_child: AtomicU32,
}

impl Scope {
    fn root() -> Scope {
        Scope {
            path: String::new(),
            name: None,
            next_child: AtomicU32::new(1),
        }
    }

    fn child(&self, name: Option<String>) -> Scope {
        let n = self.next_child.fetch_add(1, Ordering::Relaxed);
        let path = if self.path.is_empty() {
            n.to_string()
        } else {
            format!("{}.{n}", self.path)
        };
        Scope {
            path,
            name: name.or_else(|| self.name.clone()),
            next_child: AtomicU32::new(1),
        }
    }
}

/// Per-evaluation context passed down the recursion.
#[derive(Clone, Copy)]
pub(crate) struct Cx<'s> {
    pub(crate) depth: usize,
    scope: &'s Scope,
}

impl<'s> Cx<'s> {
    fn deeper(self) -> Cx<'s> {
        Cx {
            depth: self.depth + 1,
            scope: self.scope,
        }
    }
}

const SPECIAL_FORMS: &[&str] = &[
    "quote",
    "do",
    "let",
    "if",
    "when",
    "cond",
    "and",
    "or",
    "fn",
    "defn",
    "def",
    "match",
    "try",
    "throw",
    "step",
    "step-parallel",
    "step-loop",
    "call",
    "->",
    "->>",
];

/// True when `name` is a special form rather than a function.
pub fn is_special_form(name: &str) -> bool {
    SPECIAL_FORMS.contains(&name)
}

/// Evaluates RTFS programs against a [`Host`].
///
/// One evaluator holds one program's global definitions (`def`, `defn`) and
/// its step counter; create a new one per run.
pub struct Evaluator<'h> {
    host: &'h dyn Host,
    limits: Limits,
    globals: RwLock<HashMap<Arc<str>, Value>>,
    /// Set once anything is defined, so that programs without definitions
    /// look names up without taking the lock.
    any_globals: AtomicBool,
    steps: AtomicU64,
}

/// Evaluates `src` with no host (every `call` fails) and default limits.
pub fn eval_str(src: &str) -> Result<Value> {
    Evaluator::new(&PureHost).eval_str(src)
}

impl<'h> Evaluator<'h> {
    /// An evaluator whose calls and step events go to `host`.
    pub fn new(host: &'h dyn Host) -> Self {
        Evaluator {
            host,
            limits: Limits::default(),
            globals: RwLock::new(HashMap::new()),
            any_globals: AtomicBool::new(false),
            steps: AtomicU64::new(0),
        }
    }

    /// Replaces the limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Binds a global name before evaluation (e.g. `context` for a planner
    /// template, or `input_var`). For values of modest, known size; bind a
    /// value built from outside data with [`Evaluator::try_define`].
    pub fn define(&self, name: &str, value: Value) {
        self.globals_write().insert(Arc::from(name), value);
    }

    /// [`Evaluator::define`], refusing (with a [`ErrorKind::Limit`] error)
    /// a value beyond [`Limits::max_value_bytes`] or
    /// [`Limits::max_value_depth`]. O(1).
    pub fn try_define(&self, name: &str, value: Value) -> Result<()> {
        self.limits.check_value(&value)?;
        self.define(name, value);
        Ok(())
    }

    /// Number of evaluation steps taken so far.
    pub fn steps_taken(&self) -> u64 {
        self.steps.load(Ordering::Relaxed)
    }

    /// Parses and evaluates `src`; the value of the last top-level form.
    pub fn eval_str(&self, src: &str) -> Result<Value> {
        let forms = crate::parser::parse(src)?;
        self.eval_program(&forms)
    }

    /// Evaluates top-level forms in order; the value of the last (nil when
    /// there are none).
    pub fn eval_program(&self, forms: &[Expr]) -> Result<Value> {
        let scope = Scope::root();
        let cx = Cx {
            depth: 0,
            scope: &scope,
        };
        let mut last = Value::Nil;
        for f in forms {
            last = self.eval(f, &Env::default(), cx)?;
        }
        Ok(last)
    }

    fn globals_read(&self) -> std::sync::RwLockReadGuard<'_, HashMap<Arc<str>, Value>> {
        self.globals.read().unwrap_or_else(|p| p.into_inner())
    }

    fn globals_write(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<Arc<str>, Value>> {
        self.any_globals.store(true, Ordering::Release);
        self.globals.write().unwrap_or_else(|p| p.into_inner())
    }

    /// Checks a value built (or received) against the value limits.
    #[inline]
    pub(crate) fn check_value(&self, v: &Value, span: Span) -> Result<()> {
        self.limits.check_value(v).map_err(|e| e.at(span))
    }

    /// A vector of `items`, refused beyond the element and value limits;
    /// charged for its construction.
    pub(crate) fn vector(&self, items: Vec<Value>, span: Span) -> Result<Value> {
        self.seq_value(items, false, span)
    }

    /// A list of `items` (see [`Evaluator::vector`]).
    pub(crate) fn list(&self, items: Vec<Value>, span: Span) -> Result<Value> {
        self.seq_value(items, true, span)
    }

    fn seq_value(&self, items: Vec<Value>, list: bool, span: Span) -> Result<Value> {
        self.check_size(items.len(), span)?;
        self.charge_elements(items.len(), span)?;
        let c = crate::value::Coll::<Vec<Value>>::new(items);
        let v = if list {
            Value::List(c)
        } else {
            Value::Vector(c)
        };
        self.check_value(&v, span)?;
        Ok(v)
    }

    /// A map value, refused beyond the element and value limits; charged
    /// for its construction.
    pub(crate) fn map(&self, m: Map, span: Span) -> Result<Value> {
        let (bytes, depth) = crate::value::measure_map(&m);
        self.map_measured(m, bytes, depth, span)
    }

    /// [`Evaluator::map`] with the measures of `m` already known.
    fn map_measured(&self, m: Map, bytes: u64, depth: u32, span: Span) -> Result<Value> {
        self.check_size(m.len(), span)?;
        self.charge_elements(m.len().saturating_mul(2), span)?;
        let v = Value::Map(crate::value::Coll::with_measures(m, bytes, depth));
        self.check_value(&v, span)?;
        Ok(v)
    }

    /// A string value, refused beyond `max_value_bytes`; charged for the
    /// bytes built.
    pub(crate) fn string(&self, s: String, span: Span) -> Result<Value> {
        self.check_string_len(s.len() as u64, span)?;
        self.charge_bytes(s.len() as u64, span)?;
        Ok(Value::from(s))
    }

    /// Refuses, before building it, a string of `len` bytes beyond
    /// `max_value_bytes`.
    pub(crate) fn check_string_len(&self, len: u64, span: Span) -> Result<()> {
        let bytes = len.saturating_add(crate::value::SLOT_BYTES);
        if bytes > self.limits.max_value_bytes {
            return Err(crate::value::value_too_large(bytes, self.limits.max_value_bytes).at(span));
        }
        Ok(())
    }

    /// An incremental builder of a vector or list whose size is checked at
    /// every element, so a runaway `map` stops at the limit rather than
    /// after building everything.
    pub(crate) fn builder(&self, span: Span) -> SeqBuilder<'_, 'h> {
        SeqBuilder {
            ev: self,
            items: Vec::new(),
            bytes: crate::value::SLOT_BYTES,
            depth: 0,
            span,
        }
    }

    /// Charges `steps` evaluation steps at once (work done by a built-in),
    /// polling the host when the charge crosses a poll boundary.
    #[inline]
    pub(crate) fn charge(&self, steps: u64, span: Span) -> Result<()> {
        if steps == 0 {
            return Ok(());
        }
        let before = self.steps.fetch_add(steps, Ordering::Relaxed);
        let after = before.saturating_add(steps);
        if after > self.limits.max_steps || before / POLL_INTERVAL != after / POLL_INTERVAL {
            return self.charge_checks(after, span);
        }
        Ok(())
    }

    /// The checks of [`Evaluator::charge`] once it passed the step limit
    /// or a poll boundary.
    #[inline(never)]
    fn charge_checks(&self, after: u64, span: Span) -> Result<()> {
        if after > self.limits.max_steps {
            return Err(self.step_limit_error(span));
        }
        self.poll(span)
    }

    /// Charges the work of copying, scanning or comparing `bytes` bytes.
    #[inline]
    pub(crate) fn charge_bytes(&self, bytes: u64, span: Span) -> Result<()> {
        self.charge(bytes / BYTES_PER_STEP, span)
    }

    /// Charges building (or copying) `n` value slots.
    #[inline]
    pub(crate) fn charge_elements(&self, n: usize, span: Span) -> Result<()> {
        self.charge_bytes(
            (n as u64).saturating_mul(std::mem::size_of::<Value>() as u64),
            span,
        )
    }

    /// Charges ordering (sorting, deduplicating, inserting into a map) `n`
    /// values of `bytes` logical bytes in all: each may be compared about
    /// log2(n) times, each comparison bounded by the smaller value's size.
    #[inline]
    pub(crate) fn charge_ordering(&self, bytes: u64, n: usize, span: Span) -> Result<()> {
        let rounds = u64::from(usize::BITS - n.leading_zeros()).max(1);
        self.charge_bytes(bytes.saturating_mul(rounds), span)
    }

    /// Asks the host whether to go on; its error ends the evaluation and
    /// cannot be caught (a catchable kind is turned into a limit).
    pub(crate) fn poll(&self, span: Span) -> Result<()> {
        self.host.poll().map_err(|mut e| {
            if e.kind.is_catchable() {
                e.kind = ErrorKind::Limit;
            }
            e.at(span)
        })
    }

    #[cold]
    fn step_limit_error(&self, span: Span) -> RtfsError {
        RtfsError::new(
            ErrorKind::Limit,
            format!("evaluation step limit of {} exceeded", self.limits.max_steps),
        )
        .at(span)
        .with_help("the program may loop forever or do too much work; raise the limit only if it is expected to do this much")
    }

    /// Checks a collection size against the limit.
    #[inline]
    pub(crate) fn check_size(&self, n: usize, span: Span) -> Result<()> {
        if n > self.limits.max_collection_size {
            return Err(RtfsError::new(
                ErrorKind::Limit,
                format!(
                    "collection size limit exceeded ({n} > {})",
                    self.limits.max_collection_size
                ),
            )
            .at(span));
        }
        Ok(())
    }

    /// Counts one evaluation step; the checks it may fail are out of line.
    #[inline]
    fn tick(&self, span: Span, cx: Cx<'_>) -> Result<()> {
        let n = self.steps.fetch_add(1, Ordering::Relaxed) + 1;
        if n > self.limits.max_steps
            || n.is_multiple_of(POLL_INTERVAL)
            || cx.depth > self.limits.max_depth
        {
            return self.tick_checks(n, span, cx);
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn tick_checks(&self, n: u64, span: Span, cx: Cx<'_>) -> Result<()> {
        if n > self.limits.max_steps {
            return Err(self.step_limit_error(span));
        }
        if n.is_multiple_of(POLL_INTERVAL) {
            self.poll(span)?;
        }
        if cx.depth > self.limits.max_depth {
            return Err(RtfsError::new(
                ErrorKind::Limit,
                format!(
                    "recursion depth limit of {} exceeded",
                    self.limits.max_depth
                ),
            )
            .at(span)
            .with_help("check that recursive functions reach their base case"));
        }
        Ok(())
    }

    pub(crate) fn eval(&self, e: &Expr, env: &Env, cx: Cx<'_>) -> Result<Value> {
        self.tick(e.span, cx)?;
        stacker::maybe_grow(128 * 1024, 2 * 1024 * 1024, || {
            self.eval_inner(e, env, cx.deeper())
        })
    }

    fn eval_inner(&self, e: &Expr, env: &Env, cx: Cx<'_>) -> Result<Value> {
        match &e.kind {
            ExprKind::Nil => Ok(Value::Nil),
            ExprKind::Bool(b) => Ok(Value::Bool(*b)),
            ExprKind::Int(i) => Ok(Value::Int(*i)),
            ExprKind::Float(f) => Ok(Value::Float(*f)),
            ExprKind::Str(s) => Ok(Value::Str(s.clone())),
            ExprKind::Keyword(k) => Ok(Value::Keyword(k.clone())),
            ExprKind::Symbol(s) => self.lookup(s, env, e.span),
            ExprKind::Vector(items) => {
                let mut out = Vec::with_capacity(items.len());
                for i in items {
                    out.push(self.eval(i, env, cx)?);
                }
                self.vector(out, e.span)
            }
            ExprKind::Map(entries) => {
                let mut keyed = Vec::with_capacity(entries.len());
                for (k, v) in entries {
                    keyed.push((self.eval(k, env, cx)?, v));
                }
                // Sorting and inserting compare computed keys: charged.
                let key_bytes = keyed
                    .iter()
                    .fold(0u64, |acc, (k, _)| acc.saturating_add(k.logical_size()));
                self.charge_ordering(key_bytes.saturating_mul(2), keyed.len(), e.span)?;
                keyed.sort_by(|a, b| a.0.cmp(&b.0));
                let n = keyed.len();
                // Measured as it is built (the entries are at hand).
                let mut bytes = crate::value::SLOT_BYTES;
                let mut depth = 0u32;
                let mut m = Map::new();
                for (k, v) in keyed {
                    let val = self.eval(v, env, cx)?;
                    bytes = bytes
                        .saturating_add(k.logical_size())
                        .saturating_add(val.logical_size());
                    depth = depth.max(k.depth()).max(val.depth());
                    m.insert(k, val);
                }
                if m.len() == n {
                    self.map_measured(m, bytes, depth.saturating_add(1), e.span)
                } else {
                    // A key came twice: measure what was kept.
                    self.map(m, e.span)
                }
            }
            ExprKind::List(items) => {
                let Some(head) = items.first() else {
                    return Ok(Value::list(vec![]));
                };
                if let ExprKind::Symbol(s) = &head.kind
                    && is_special_form(s)
                {
                    return self.special_form(s, e, &items[1..], env, cx);
                }
                let f = self.eval(head, env, cx)?;
                let mut args = Vec::with_capacity(items.len() - 1);
                for a in &items[1..] {
                    args.push(self.eval(a, env, cx)?);
                }
                self.apply(&f, args, e.span, cx)
            }
        }
    }

    fn lookup(&self, name: &str, env: &Env, span: Span) -> Result<Value> {
        if let Some(v) = env.lookup(name) {
            return Ok(v.clone());
        }
        if self.any_globals.load(Ordering::Acquire)
            && let Some(v) = self.globals_read().get(name)
        {
            return Ok(v.clone());
        }
        if let Some(b) = Builtin::from_name(name) {
            return Ok(Value::Function(Function::Builtin(b)));
        }
        let mut err =
            RtfsError::new(ErrorKind::Unbound, format!("unbound symbol `{name}`")).at(span);
        if name.starts_with('%') {
            err = err
                .with_help("`%`, `%1`, `%&` name the arguments of #(...) and exist only inside it");
        } else if is_special_form(name) {
            err = err.with_help(format!(
                "`{name}` is a special form; use it at the head of a list: ({name} ...)"
            ));
        } else if let Some(close) = builtins::closest_name(name) {
            err = err.with_help(format!("did you mean `{close}`?"));
        }
        Err(err)
    }

    /// Applies a function value to evaluated arguments.
    pub(crate) fn apply(
        &self,
        f: &Value,
        args: Vec<Value>,
        span: Span,
        cx: Cx<'_>,
    ) -> Result<Value> {
        match f {
            Value::Function(Function::Builtin(b)) => builtins::call(self, *b, args, span, cx),
            Value::Function(Function::Closure(c)) => self.apply_closure(c, args, span, cx),
            Value::Keyword(_) | Value::Map(_) => {
                // (:k m) and ({...} :k): lookup with optional default.
                let (coll, key) = match f {
                    Value::Keyword(_) => (args.first().cloned().unwrap_or(Value::Nil), f.clone()),
                    _ => (f.clone(), args.first().cloned().unwrap_or(Value::Nil)),
                };
                if args.is_empty() || args.len() > 2 {
                    return Err(RtfsError::new(
                        ErrorKind::Arity,
                        format!(
                            "{} used as a function expects 1 or 2 arguments, got {}",
                            f,
                            args.len()
                        ),
                    )
                    .at(span));
                }
                let default = args.get(1).cloned().unwrap_or(Value::Nil);
                Ok(builtins::get_charged(self, &coll, &key, span)?.unwrap_or(default))
            }
            other => Err(RtfsError::new(
                ErrorKind::Type,
                format!("{} is not a function ({})", brief(other), other.type_name()),
            )
            .at(span)),
        }
    }

    fn apply_closure(
        &self,
        c: &Arc<Closure>,
        args: Vec<Value>,
        span: Span,
        cx: Cx<'_>,
    ) -> Result<Value> {
        let arity = c
            .arities
            .iter()
            .find(|a| a.params.len() == args.len() && a.rest.is_none())
            .or_else(|| {
                c.arities
                    .iter()
                    .find(|a| a.rest.is_some() && args.len() >= a.params.len())
            });
        let Some(arity) = arity else {
            let expected: Vec<String> = c
                .arities
                .iter()
                .map(|a| {
                    if a.rest.is_some() {
                        format!("{}+", a.params.len())
                    } else {
                        a.params.len().to_string()
                    }
                })
                .collect();
            return Err(RtfsError::new(
                ErrorKind::Arity,
                format!(
                    "{} expects {} argument(s), got {}",
                    c.name.as_deref().unwrap_or("fn"),
                    expected.join(" or "),
                    args.len()
                ),
            )
            .at(span));
        };
        if let Some(t) = &arity.types {
            check_arguments(self, c, arity, t, &args, span)?;
        }
        let mut env = c.env.clone();
        if let Some(group) = &c.rec {
            env = group.bind(env);
        }
        let mut args = args.into_iter();
        for p in &arity.params {
            let v = args.next().unwrap_or(Value::Nil);
            env = self.bind_pattern(p, v, env)?;
        }
        if let Some(rest) = &arity.rest {
            let remaining = self.list(args.collect(), span)?;
            env = self.bind_pattern(rest, remaining, env)?;
        }
        let result = self.eval_body(&arity.body, &env, cx.deeper())?;
        if let Some(ret) = arity.types.as_ref().and_then(|t| t.ret.as_ref()) {
            check_annotation(
                self,
                ret,
                &result,
                || format!("return value of `{}`", c.name.as_deref().unwrap_or("fn")),
                span,
            )?;
        }
        Ok(result)
    }

    fn eval_body(&self, body: &[Expr], env: &Env, cx: Cx<'_>) -> Result<Value> {
        let mut last = Value::Nil;
        for e in body {
            last = self.eval(e, env, cx)?;
        }
        Ok(last)
    }

    fn special_form(
        &self,
        name: &str,
        form: &Expr,
        args: &[Expr],
        env: &Env,
        cx: Cx<'_>,
    ) -> Result<Value> {
        let span = form.span;
        match name {
            "quote" => {
                expect_args(name, args, 1, Some(1), span)?;
                let v = args[0].to_value();
                self.check_value(&v, span)?;
                Ok(v)
            }
            "do" => self.eval_body(args, env, cx),
            "let" => {
                let Some(bindings) = args.first() else {
                    return Err(bad_form("let", "a binding vector", span));
                };
                let ExprKind::Vector(pairs) = &bindings.kind else {
                    return Err(bad_form(
                        "let",
                        "a binding vector `[name value ...]`",
                        bindings.span,
                    ));
                };
                // Fast path: plain `name value` pairs with no function to
                // bind recursively.
                if pairs.len().is_multiple_of(2)
                    && pairs
                        .chunks(2)
                        .all(|p| types::is_pattern(&p[0]) && fn_form(&p[1]).is_none())
                {
                    let mut env = env.clone();
                    for pair in pairs.chunks(2) {
                        let v = self.eval(&pair[1], &env, cx)?;
                        env = self.bind_pattern(&pair[0], v, env)?;
                    }
                    return self.eval_body(&args[1..], &env, cx);
                }
                let split = types::split_bindings(pairs).or_else(|| {
                    // Even but unsplittable: bind pairs, so that the pattern
                    // error points at the bad pattern.
                    pairs.len().is_multiple_of(2).then(|| {
                        pairs
                            .chunks(2)
                            .map(|p| Binding {
                                pattern: &p[0],
                                ty: None,
                                value: &p[1],
                            })
                            .collect()
                    })
                });
                let Some(bindings_list) = split else {
                    return Err(RtfsError::new(
                        ErrorKind::BadForm,
                        "let bindings need an even number of forms (name value ...)",
                    )
                    .at(bindings.span)
                    .with_help(
                        "write `(let [x 1 y 2] body)`, or `(let [x :int 1] body)` with a type",
                    ));
                };
                let env = self.bind_let(&bindings_list, env.clone(), cx)?;
                self.eval_body(&args[1..], &env, cx)
            }
            "if" => {
                expect_args(name, args, 2, Some(3), span)?;
                if self.eval(&args[0], env, cx)?.is_truthy() {
                    self.eval(&args[1], env, cx)
                } else if let Some(e) = args.get(2) {
                    self.eval(e, env, cx)
                } else {
                    Ok(Value::Nil)
                }
            }
            "when" => {
                expect_args(name, args, 1, None, span)?;
                if self.eval(&args[0], env, cx)?.is_truthy() {
                    self.eval_body(&args[1..], env, cx)
                } else {
                    Ok(Value::Nil)
                }
            }
            "cond" => {
                if !args.len().is_multiple_of(2) {
                    return Err(RtfsError::new(
                        ErrorKind::BadForm,
                        "cond needs test/expression pairs",
                    )
                    .at(span)
                    .with_help("write `(cond test1 expr1 test2 expr2 :else default)`"));
                }
                for pair in args.chunks(2) {
                    if self.eval(&pair[0], env, cx)?.is_truthy() {
                        return self.eval(&pair[1], env, cx);
                    }
                }
                Ok(Value::Nil)
            }
            "and" => {
                let mut last = Value::Bool(true);
                for a in args {
                    last = self.eval(a, env, cx)?;
                    if !last.is_truthy() {
                        return Ok(last);
                    }
                }
                Ok(last)
            }
            "or" => {
                let mut last = Value::Nil;
                for a in args {
                    last = self.eval(a, env, cx)?;
                    if last.is_truthy() {
                        return Ok(last);
                    }
                }
                Ok(last)
            }
            "fn" => self.make_closure(None, args, env, span, true),
            "defn" => {
                let Some(name_expr) = args.first() else {
                    return Err(bad_form("defn", "a name", span));
                };
                let Some(fname) = name_expr.as_symbol() else {
                    return Err(bad_form("defn", "a symbol as its name", name_expr.span));
                };
                let mut rest = &args[1..];
                if matches!(rest.first().map(|e| &e.kind), Some(ExprKind::Str(_))) && rest.len() > 1
                {
                    rest = &rest[1..]; // docstring
                }
                let f = self.make_closure(Some(Arc::from(fname)), rest, env, span, false)?;
                self.globals_write().insert(Arc::from(fname), f.clone());
                Ok(f)
            }
            "def" => {
                // (def name value) or (def name type value)
                let annotated = args.len() == 3 && types::is_annotation(&args[1]);
                if !annotated {
                    expect_args(name, args, 2, Some(2), span)?;
                }
                let Some(dname) = args[0].as_symbol() else {
                    return Err(bad_form("def", "a symbol as its name", args[0].span));
                };
                let value_expr = &args[args.len() - 1];
                let v = self.eval(value_expr, env, cx)?;
                if annotated {
                    let a = parse_annotation(&args[1])?;
                    check_annotation(self, &a, &v, || format!("def `{dname}`"), value_expr.span)?;
                }
                self.globals_write().insert(Arc::from(dname), v.clone());
                Ok(v)
            }
            "match" => {
                expect_args(name, args, 1, None, span)?;
                let v = self.eval(&args[0], env, cx)?;
                let clauses = &args[1..];
                if !clauses.len().is_multiple_of(2) {
                    return Err(RtfsError::new(
                        ErrorKind::BadForm,
                        "match needs pattern/expression pairs",
                    )
                    .at(span)
                    .with_help("write `(match value pattern1 expr1 pattern2 expr2 _ default)`"));
                }
                for pair in clauses.chunks(2) {
                    if let Some(bound) = self.match_pattern(&pair[0], &v, env.clone())? {
                        return self.eval(&pair[1], &bound, cx);
                    }
                }
                Err(RtfsError::new(
                    ErrorKind::NoMatch,
                    format!("no match clause matched {}", brief(&v)),
                )
                .at(span)
                .with_help("add a final `_` clause to handle every other value"))
            }
            "try" => self.eval_try(args, env, cx),
            "throw" => {
                expect_args(name, args, 1, Some(1), span)?;
                let v = self.eval(&args[0], env, cx)?;
                let message = match &v {
                    Value::Str(s) => s.to_string(),
                    Value::Map(m) => m
                        .get(&Value::keyword("message"))
                        .and_then(|m| m.as_str().map(str::to_string))
                        .unwrap_or_else(|| format!("thrown: {}", brief(&v))),
                    other => format!("thrown: {}", brief(other)),
                };
                let mut err = RtfsError::new(ErrorKind::Thrown, message).at(span);
                err.thrown = Some(v);
                Err(err)
            }
            "->" | "->>" => {
                expect_args(name, args, 1, None, span)?;
                if args.len() > MAX_THREADED_FORMS + 1 {
                    return Err(RtfsError::new(
                        ErrorKind::Limit,
                        format!(
                            "{name} threads {} forms, more than the limit of {MAX_THREADED_FORMS}",
                            args.len() - 1
                        ),
                    )
                    .at(span)
                    .with_help("split the pipeline with let"));
                }
                let threaded = thread_forms(name == "->>", args);
                self.eval(&threaded, env, cx)
            }
            "step" => {
                let Some(name_expr) = args.first() else {
                    return Err(bad_form("step", "a name string", span));
                };
                let ExprKind::Str(step_name) = &name_expr.kind else {
                    return Err(bad_form(
                        "step",
                        "a name string as its first argument",
                        name_expr.span,
                    ));
                };
                self.run_step(step_name, StepKind::Step, span, cx, |cx| {
                    self.eval_body(&args[1..], env, cx)
                })
            }
            "step-parallel" => self.eval_parallel(args, env, cx, span),
            "step-loop" => self.eval_loop(args, env, cx, span),
            "call" => self.eval_call(args, env, cx, span),
            _ => Err(
                RtfsError::new(ErrorKind::BadForm, format!("unknown special form {name}")).at(span),
            ),
        }
    }

    fn run_step(
        &self,
        name: &str,
        kind: StepKind,
        span: Span,
        cx: Cx<'_>,
        body: impl FnOnce(Cx<'_>) -> Result<Value>,
    ) -> Result<Value> {
        let scope = cx.scope.child(Some(name.to_string()));
        self.run_in_scope(&scope, name, kind, span, cx.depth, body)
    }

    fn run_in_scope(
        &self,
        scope: &Scope,
        name: &str,
        kind: StepKind,
        span: Span,
        depth: usize,
        body: impl FnOnce(Cx<'_>) -> Result<Value>,
    ) -> Result<Value> {
        let event = |phase| StepEvent {
            path: &scope.path,
            name,
            kind,
            phase,
            span,
        };
        // Every step and loop iteration starts with the host's leave to go on.
        self.poll(span)?;
        self.host.step_event(&event(StepPhase::Started));
        let result = body(Cx { depth, scope });
        match &result {
            Ok(v) => self.host.step_event(&event(StepPhase::Succeeded(v))),
            Err(e) => self.host.step_event(&event(StepPhase::Failed(e))),
        }
        result
    }

    fn eval_parallel(&self, args: &[Expr], env: &Env, cx: Cx<'_>, span: Span) -> Result<Value> {
        self.run_step("parallel", StepKind::Parallel, span, cx, |cx| {
            let scopes: Vec<(Scope, String)> = (0..args.len())
                .map(|i| {
                    let name = format!("branch {}", i + 1);
                    (cx.scope.child(None), name)
                })
                .collect();
            let branches: Vec<Branch<'_>> = args
                .iter()
                .zip(scopes)
                .map(|(e, (scope, name))| {
                    let env = env.clone();
                    let depth = cx.depth;
                    Box::new(move || {
                        self.run_in_scope(&scope, &name, StepKind::Branch, e.span, depth, |bcx| {
                            self.eval(e, &env, bcx)
                        })
                    }) as Branch<'_>
                })
                .collect();
            let results = self.host.run_parallel(branches);
            if results.len() != args.len() {
                return Err(RtfsError::new(
                    ErrorKind::Host,
                    format!(
                        "host returned {} results for {} parallel branches",
                        results.len(),
                        args.len()
                    ),
                )
                .at(span));
            }
            let mut out = Vec::with_capacity(results.len());
            for r in results {
                out.push(r?);
            }
            self.vector(out, span)
        })
    }

    fn eval_loop(&self, args: &[Expr], env: &Env, cx: Cx<'_>, span: Span) -> Result<Value> {
        let (loop_name, args) = match args.first().map(|e| &e.kind) {
            Some(ExprKind::Str(s)) => (s.to_string(), &args[1..]),
            _ => ("loop".to_string(), args),
        };
        let Some(head) = args.first() else {
            return Err(bad_form(
                "step-loop",
                "a binding `[x coll]` or a condition, then a body",
                span,
            ));
        };
        let body = &args[1..];
        let max = self.limits.max_loop_iterations;
        let over_limit = || {
            RtfsError::new(
                ErrorKind::Limit,
                format!("step-loop iteration limit of {max} exceeded"),
            )
            .at(span)
        };
        self.run_step(&loop_name, StepKind::Loop, span, cx, |cx| {
            let mut results = self.builder(span);
            match &head.kind {
                // [x coll] or, annotated, [x type coll]
                ExprKind::Vector(binding)
                    if binding.len() == 2
                        || (binding.len() == 3 && types::is_annotation(&binding[1])) =>
                {
                    let coll_expr = &binding[binding.len() - 1];
                    let item_type = match binding.len() {
                        3 => Some(parse_annotation(&binding[1])?),
                        _ => None,
                    };
                    let coll = self.eval(coll_expr, env, cx)?;
                    let count = match &coll {
                        Value::Nil => 0,
                        Value::List(v) | Value::Vector(v) => v.len(),
                        Value::Map(m) => m.len(),
                        Value::Str(s) => {
                            self.charge_bytes(s.len() as u64, coll_expr.span)?;
                            s.chars().count()
                        }
                        other => {
                            return Err(RtfsError::new(
                                ErrorKind::Type,
                                format!(
                                    "step-loop needs a collection to iterate, got {}",
                                    other.type_name()
                                ),
                            )
                            .at(coll_expr.span));
                        }
                    };
                    // Counted before anything is copied.
                    if count > max {
                        return Err(over_limit());
                    }
                    let items = builtins::seq(self, "step-loop", &coll, coll_expr.span)?;
                    for (i, item) in items.iter().cloned().enumerate() {
                        if let Some(a) = &item_type {
                            check_annotation(
                                self,
                                a,
                                &item,
                                || {
                                    format!(
                                        "step-loop item {i} (`{}`)",
                                        crate::printer::print_expr(&binding[0])
                                    )
                                },
                                coll_expr.span,
                            )?;
                        }
                        let env = self.bind_pattern(&binding[0], item, env.clone())?;
                        let v = self.run_step(
                            &format!("{loop_name}[{i}]"),
                            StepKind::Iteration,
                            span,
                            cx,
                            |cx| self.eval_body(body, &env, cx),
                        )?;
                        results.push(v)?;
                    }
                }
                _ => {
                    let mut i = 0usize;
                    while self.eval(head, env, cx)?.is_truthy() {
                        if i >= max {
                            return Err(over_limit());
                        }
                        let v = self.run_step(
                            &format!("{loop_name}[{i}]"),
                            StepKind::Iteration,
                            span,
                            cx,
                            |cx| self.eval_body(body, env, cx),
                        )?;
                        results.push(v)?;
                        i += 1;
                    }
                }
            }
            results.vector()
        })
    }

    fn eval_call(&self, args: &[Expr], env: &Env, cx: Cx<'_>, span: Span) -> Result<Value> {
        let Some(id_expr) = args.first() else {
            return Err(bad_form("call", "a capability id such as :ccos.echo", span));
        };
        let id: Arc<str> = match &id_expr.kind {
            ExprKind::Keyword(k) => k.clone(),
            ExprKind::Str(s) => s.clone(),
            _ => match self.eval(id_expr, env, cx)? {
                Value::Keyword(k) | Value::Str(k) => k,
                other => {
                    return Err(RtfsError::new(
                        ErrorKind::Type,
                        format!(
                            "call needs a capability id (keyword or string), got {}",
                            other.type_name()
                        ),
                    )
                    .at(id_expr.span));
                }
            },
        };
        if id.is_empty() {
            return Err(
                RtfsError::new(ErrorKind::BadForm, "call needs a non-empty capability id")
                    .at(id_expr.span),
            );
        }
        let mut values = Vec::with_capacity(args.len() - 1);
        for a in &args[1..] {
            values.push(self.eval(a, env, cx)?);
        }
        self.poll(span)?;
        let result = self
            .host
            .call(CallRequest {
                capability: &id,
                args: values,
                span,
                step_path: &cx.scope.path,
                step_name: cx.scope.name.as_deref(),
            })
            .map_err(|e| e.at(span))?;
        // Whatever the host built, it enters the program within the limits.
        self.limits.check_value(&result).map_err(|e| {
            RtfsError::new(
                ErrorKind::Limit,
                format!("the result of {id} is too large: {}", e.message),
            )
            .at(span)
        })?;
        Ok(result)
    }

    /// `(try body... (catch ...)... (finally ...)?)`: the first catch
    /// clause whose filter matches the error handles it (see
    /// [`catch_matches`]); `finally` runs after the body and any handler.
    /// `Limit` and `Denied` errors are never caught and end the evaluation
    /// at once: `finally` does not run after them either, so a denied or
    /// over-limit run makes no further call, and an error thrown by a
    /// `finally` can never stand in for them.
    fn eval_try(&self, args: &[Expr], env: &Env, cx: Cx<'_>) -> Result<Value> {
        let is_clause = |e: &Expr, head: &str| {
            e.as_list()
                .and_then(|l| l.first())
                .and_then(Expr::as_symbol)
                == Some(head)
        };
        let mut body_end = args.len();
        let mut catches: Vec<&Expr> = Vec::new();
        let mut finally: Option<&Expr> = None;
        for (i, a) in args.iter().enumerate() {
            if is_clause(a, "catch") || is_clause(a, "finally") {
                body_end = body_end.min(i);
                if is_clause(a, "catch") {
                    if finally.is_some() {
                        return Err(RtfsError::new(
                            ErrorKind::BadForm,
                            "catch clauses must come before finally",
                        )
                        .at(a.span));
                    }
                    catches.push(a);
                } else {
                    if finally.is_some() {
                        return Err(
                            RtfsError::new(ErrorKind::BadForm, "try takes one finally").at(a.span)
                        );
                    }
                    finally = Some(a);
                }
            } else if i > body_end {
                return Err(RtfsError::new(
                    ErrorKind::BadForm,
                    "catch and finally must come last in try",
                )
                .at(a.span));
            }
        }
        // Validate every catch clause before running anything, so a
        // malformed handler is reported even when the body succeeds.
        let handlers = catches
            .iter()
            .map(|c| catch_clause(c))
            .collect::<Result<Vec<_>>>()?;
        let mut result = self.eval_body(&args[..body_end], env, cx);
        if let Err(err) = &result
            && err.kind.is_catchable()
            && let Some((_, binding, body)) = handlers
                .iter()
                .find(|(filter, _, _)| catch_matches(*filter, err))
        {
            let bound = self.bind_pattern(binding, err.to_value(), env.clone())?;
            result = self.eval_body(body, &bound, cx);
        }
        if let Err(err) = &result
            && !err.kind.is_catchable()
        {
            return result;
        }
        if let Some(f) = finally {
            let body = f.as_list().map(|l| &l[1..]).unwrap_or_default();
            self.eval_body(body, env, cx)?;
        }
        result
    }

    /// A closure from the arguments of `fn` (`name` set for `defn`). With
    /// `self_ref`, a `(fn name ...)` whose body names itself gets itself
    /// bound to that name on each call.
    fn make_closure(
        &self,
        name: Option<Arc<str>>,
        args: &[Expr],
        env: &Env,
        span: Span,
        self_ref: bool,
    ) -> Result<Value> {
        let named_fn =
            name.is_none() && matches!(args.first().map(|a| &a.kind), Some(ExprKind::Symbol(_)));
        let (name, arities) = closure_parts(name, args, span)?;
        let rec = match &name {
            Some(n)
                if self_ref && named_fn && arities_mention(&arities, std::slice::from_ref(n)) =>
            {
                Some(Arc::new(RecGroup {
                    base: env.clone(),
                    members: vec![RecMember {
                        names: vec![n.clone()],
                        fn_name: Some(n.clone()),
                        arities: arities.clone(),
                    }],
                }))
            }
            _ => None,
        };
        let depth = env.depth().saturating_add(1);
        if depth as usize > self.limits.max_value_depth {
            return Err(
                crate::value::value_too_deep(depth as usize, self.limits.max_value_depth).at(span),
            );
        }
        Ok(Value::Function(Function::Closure(Arc::new(Closure {
            name,
            arities,
            env: env.clone(),
            rec,
            depth,
        }))))
    }

    /// Binds `let` bindings in order. A run of bindings of `fn` forms to
    /// plain names whose bodies mention one of the run's names is bound
    /// as one recursive group (letrec): each function sees itself and its
    /// siblings. A name bound earlier in the same `let` is not taken into
    /// a group, so `[f (fn ...) f (fn [x] (f x))]` still wraps the first.
    fn bind_let(&self, bindings: &[Binding<'_>], mut env: Env, cx: Cx<'_>) -> Result<Env> {
        let mut bound: Vec<Arc<str>> = Vec::new();
        let mut i = 0;
        while i < bindings.len() {
            let run = fn_run(&bindings[i..], &bound);
            if run > 0
                && let Some(new_env) = self.bind_fn_group(&bindings[i..i + run], &env, cx)?
            {
                for b in &bindings[i..i + run] {
                    if let ExprKind::Symbol(s) = &b.pattern.kind {
                        bound.push(s.clone());
                    }
                }
                env = new_env;
                i += run;
                continue;
            }
            let b = &bindings[i];
            let v = self.eval(b.value, &env, cx)?;
            if let Some(ty) = b.ty {
                let a = parse_annotation(ty)?;
                check_annotation(
                    self,
                    &a,
                    &v,
                    || format!("let binding `{}`", crate::printer::print_expr(b.pattern)),
                    b.value.span,
                )?;
            }
            if let ExprKind::Symbol(s) = &b.pattern.kind {
                bound.push(s.clone());
            }
            env = self.bind_pattern(b.pattern, v, env)?;
            i += 1;
        }
        Ok(env)
    }

    /// Binds a run of `name (fn ...)` bindings as a recursive group, or
    /// `None` when no function of the run mentions a name of the run (then
    /// plain sequential binding is the same and cheaper).
    fn bind_fn_group(&self, run: &[Binding<'_>], env: &Env, cx: Cx<'_>) -> Result<Option<Env>> {
        let mut names: Vec<Arc<str>> = Vec::with_capacity(run.len());
        for b in run {
            if let ExprKind::Symbol(s) = &b.pattern.kind {
                names.push(s.clone());
            }
        }
        if !run.iter().any(|b| mentions(b.value, &names)) {
            return Ok(None);
        }
        let mut members = Vec::with_capacity(run.len());
        for (b, let_name) in run.iter().zip(&names) {
            self.tick(b.value.span, cx)?;
            let args = fn_form(b.value).unwrap_or_default();
            let (fn_name, arities) = closure_parts(None, args, b.value.span)?;
            let mut own = vec![let_name.clone()];
            if let Some(n) = &fn_name
                && n != let_name
            {
                own.push(n.clone());
            }
            members.push(RecMember {
                names: own,
                fn_name,
                arities,
            });
        }
        let group = Arc::new(RecGroup {
            base: env.clone(),
            members,
        });
        let mut out = env.clone();
        for (i, (b, let_name)) in run.iter().zip(&names).enumerate() {
            let Some(f) = group.member(i) else { continue };
            if let Some(ty) = b.ty {
                let a = parse_annotation(ty)?;
                check_annotation(
                    self,
                    &a,
                    &f,
                    || format!("let binding `{let_name}`"),
                    b.value.span,
                )?;
            }
            out = out.bind(let_name.clone(), f);
        }
        Ok(Some(out))
    }

    /// Binds a destructuring pattern to a value (let, fn parameters, loops).
    pub(crate) fn bind_pattern(&self, pat: &Expr, v: Value, env: Env) -> Result<Env> {
        match &pat.kind {
            ExprKind::Symbol(s) if &**s == "_" => Ok(env),
            ExprKind::Symbol(s) => Ok(env.bind(s.clone(), v)),
            ExprKind::Vector(items) => {
                let seq: &[Value] = match &v {
                    Value::Nil => &[],
                    Value::List(x) | Value::Vector(x) => x,
                    other => {
                        return Err(RtfsError::new(
                            ErrorKind::Type,
                            format!(
                                "cannot destructure {} with a vector pattern",
                                other.type_name()
                            ),
                        )
                        .at(pat.span));
                    }
                };
                let mut env = env;
                let mut i = 0;
                let mut idx = 0;
                while i < items.len() {
                    let p = &items[i];
                    if p.as_symbol() == Some("&") {
                        let Some(rest_pat) = items.get(i + 1) else {
                            return Err(bad_form("destructuring", "a pattern after `&`", p.span));
                        };
                        let rest = seq.get(idx..).map(<[Value]>::to_vec).unwrap_or_default();
                        let rest = self.list(rest, p.span)?;
                        env = self.bind_pattern(rest_pat, rest, env)?;
                        i += 2;
                        continue;
                    }
                    if p.as_keyword() == Some("as") {
                        let Some(as_pat) = items.get(i + 1) else {
                            return Err(bad_form("destructuring", "a name after `:as`", p.span));
                        };
                        env = self.bind_pattern(as_pat, v.clone(), env)?;
                        i += 2;
                        continue;
                    }
                    env = self.bind_pattern(p, seq.get(idx).cloned().unwrap_or(Value::Nil), env)?;
                    idx += 1;
                    i += 1;
                }
                Ok(env)
            }
            ExprKind::Map(entries) => {
                let empty = Map::new();
                let m: &Map = match &v {
                    Value::Nil => &empty,
                    Value::Map(m) => m,
                    other => {
                        return Err(RtfsError::new(
                            ErrorKind::Type,
                            format!(
                                "cannot destructure {} with a map pattern",
                                other.type_name()
                            ),
                        )
                        .at(pat.span));
                    }
                };
                let defaults: Option<&Vec<(Expr, Expr)>> =
                    entries.iter().find_map(|(k, d)| match (&k.kind, &d.kind) {
                        (ExprKind::Keyword(kw), ExprKind::Map(d)) if &**kw == "or" => Some(d),
                        _ => None,
                    });
                let default_for = |name: &str| -> Option<Value> {
                    defaults?
                        .iter()
                        .find(|(k, _)| k.as_symbol() == Some(name))
                        .map(|(_, d)| d.to_value())
                };
                let mut env = env;
                for (k, target) in entries {
                    match (&k.kind, &target.kind) {
                        (ExprKind::Keyword(kw), ExprKind::Vector(names)) if &**kw == "keys" => {
                            for n in names {
                                let Some(sym) = n.as_symbol() else {
                                    return Err(bad_form(":keys", "symbols", n.span));
                                };
                                let val = m
                                    .get(&Value::keyword(sym))
                                    .cloned()
                                    .or_else(|| default_for(sym))
                                    .unwrap_or(Value::Nil);
                                env = env.bind(Arc::from(sym), val);
                            }
                        }
                        (ExprKind::Keyword(kw), _) if &**kw == "as" => {
                            env = self.bind_pattern(target, v.clone(), env)?;
                        }
                        (ExprKind::Keyword(kw), _) if &**kw == "or" => {}
                        _ => {
                            // {name :key} (Clojure: the pattern first) binds
                            // name to (get m :key); {:key name} and
                            // {"key" name} (the reference's order: a literal
                            // key first) bind the same.
                            let (pattern, key) = if types::is_pattern(k) || !k.is_constant() {
                                (k, target.to_value())
                            } else {
                                (target, k.to_value())
                            };
                            let val = m
                                .get(&key)
                                .cloned()
                                .or_else(|| pattern.as_symbol().and_then(default_for))
                                .unwrap_or(Value::Nil);
                            env = self.bind_pattern(pattern, val, env)?;
                        }
                    }
                }
                Ok(env)
            }
            _ => Err(RtfsError::new(
                ErrorKind::BadForm,
                format!(
                    "`{}` cannot be used as a binding pattern",
                    crate::printer::print_expr(pat)
                ),
            )
            .at(pat.span)
            .with_help(
                "bind with a symbol, a vector pattern [a b & rest] or a map pattern {:keys [a b]}",
            )),
        }
    }

    /// Matches a `match` pattern; `Some(env)` with the new bindings when it matches.
    fn match_pattern(&self, pat: &Expr, v: &Value, env: Env) -> Result<Option<Env>> {
        match &pat.kind {
            ExprKind::Symbol(s) if &**s == "_" => Ok(Some(env)),
            ExprKind::Symbol(s) => Ok(Some(env.bind(s.clone(), v.clone()))),
            ExprKind::Vector(items) => {
                let Some(seq) = v.as_seq() else {
                    return Ok(None);
                };
                let rest_at = items.iter().position(|p| p.as_symbol() == Some("&"));
                let fixed = &items[..rest_at.unwrap_or(items.len())];
                if rest_at.is_none() && seq.len() != fixed.len() || seq.len() < fixed.len() {
                    return Ok(None);
                }
                let mut env = env;
                for (p, x) in fixed.iter().zip(seq) {
                    match self.match_pattern(p, x, env)? {
                        Some(e) => env = e,
                        None => return Ok(None),
                    }
                }
                if let Some(r) = rest_at {
                    let Some(rest_pat) = items.get(r + 1) else {
                        return Err(bad_form("match", "a pattern after `&`", items[r].span));
                    };
                    let rest = self.list(seq[fixed.len()..].to_vec(), rest_pat.span)?;
                    return self.match_pattern(rest_pat, &rest, env);
                }
                Ok(Some(env))
            }
            ExprKind::Map(entries) => {
                let Some(m) = v.as_map() else { return Ok(None) };
                let mut env = env;
                for (k, p) in entries {
                    if !k.is_constant() {
                        return Err(bad_form("match", "literal keys in map patterns", k.span));
                    }
                    let Some(x) = m.get(&k.to_value()) else {
                        return Ok(None);
                    };
                    match self.match_pattern(p, x, env)? {
                        Some(e) => env = e,
                        None => return Ok(None),
                    }
                }
                Ok(Some(env))
            }
            ExprKind::List(_) => Err(RtfsError::new(
                ErrorKind::BadForm,
                "list patterns are not supported in match",
            )
            .at(pat.span)
            .with_help("match literals, `_`, symbols, vectors or maps")),
            _ => Ok((pat.to_value() == *v).then_some(env)),
        }
    }
}

/// `(-> x (f a) g)` as `(g (f x a))`; with `last`, `(->> x (f a))` as
/// `(f a x)`. A form that is not a list is called with the value.
fn thread_forms(last: bool, args: &[Expr]) -> Expr {
    let mut acc = args[0].clone();
    for f in &args[1..] {
        acc = match &f.kind {
            ExprKind::List(items) if !items.is_empty() => {
                let mut items = items.clone();
                if last {
                    items.push(acc);
                } else {
                    items.insert(1, acc);
                }
                Expr::new(ExprKind::List(items), f.span)
            }
            _ => Expr::new(ExprKind::List(vec![f.clone(), acc]), f.span),
        };
    }
    acc
}

/// A catch clause's parts: filter, binding symbol, handler body.
type CatchClause<'e> = (Option<&'e Expr>, &'e Expr, &'e [Expr]);

/// Splits `(catch e body...)` or `(catch Filter e body...)`.
fn catch_clause(c: &Expr) -> Result<CatchClause<'_>> {
    let parts = c.as_list().unwrap_or_default();
    match parts.get(1..3) {
        Some([f, b])
            if b.as_symbol().is_some()
                && (f.as_keyword().is_some() || (f.as_symbol().is_some() && parts.len() > 3)) =>
        {
            Ok((Some(f), b, &parts[3..]))
        }
        _ => match parts.get(1) {
            Some(b) if b.as_symbol().is_some() => Ok((None, b, &parts[2..])),
            _ => Err(bad_form(
                "catch",
                "a symbol to bind the error: (catch e ...)",
                c.span,
            )),
        },
    }
}

/// Whether a catch clause's filter takes `err`:
///
/// * no filter, `_`, `Exception`, `Error`, `Throwable` or any other
///   symbol not below: every error;
/// * `RuntimeError`: every error but a host's; `HostError`: a host's;
///   `TypeError`/`ValidationError`: type errors; `ArityError`: arity
///   errors; `ArithmeticException`/`ArithmeticError`: division by zero and
///   overflow;
/// * a keyword `:k`: an error of kind `k` (`:division-by-zero` and
///   `:division_by_zero` alike), a thrown `:k`, or a thrown map whose
///   `:kind` or `:type` is `:k`.
fn catch_matches(filter: Option<&Expr>, err: &RtfsError) -> bool {
    let Some(filter) = filter else {
        return true;
    };
    match &filter.kind {
        ExprKind::Keyword(k) => {
            if k.replace('-', "_") == err.kind.name() {
                return true;
            }
            let kw = Value::Keyword(k.clone());
            match &err.thrown {
                Some(v) if *v == kw => true,
                Some(Value::Map(m)) => {
                    m.get(&Value::keyword("kind")) == Some(&kw)
                        || m.get(&Value::keyword("type")) == Some(&kw)
                }
                _ => false,
            }
        }
        ExprKind::Symbol(class) => match &**class {
            "RuntimeError" => err.kind != ErrorKind::Host,
            "HostError" => err.kind == ErrorKind::Host,
            "TypeError" | "ValidationError" => err.kind == ErrorKind::Type,
            "ArityError" => err.kind == ErrorKind::Arity,
            "ArithmeticException" | "ArithmeticError" => {
                matches!(err.kind, ErrorKind::DivisionByZero | ErrorKind::Overflow)
            }
            _ => true,
        },
        _ => true,
    }
}

/// The arities of one function, shared by the copies a recursive group makes.
type Arities = Arc<[Arity]>;

/// The name and arities of a function from the arguments of `fn` (after
/// `defn`'s name and docstring): `[params] body...`, `name [params]
/// body...` or `([params] body...) ...`.
fn closure_parts(
    name: Option<Arc<str>>,
    args: &[Expr],
    span: Span,
) -> Result<(Option<Arc<str>>, Arities)> {
    let (name, args) = match (name, args.first()) {
        (
            None,
            Some(Expr {
                kind: ExprKind::Symbol(s),
                ..
            }),
        ) => (Some(s.clone()), &args[1..]),
        (n, _) => (n, args),
    };
    let what = name.as_deref().unwrap_or("fn").to_string();
    let Some(first) = args.first() else {
        return Err(bad_form(&what, "a parameter vector", span));
    };
    let mut arities = Vec::new();
    match &first.kind {
        // One arity (the usual case): one allocation.
        ExprKind::Vector(_) => {
            return Ok((name, Arc::from([make_arity(&what, first, &args[1..])?])));
        }
        ExprKind::List(_) => {
            for a in args {
                let Some(parts) = a.as_list() else {
                    return Err(bad_form(&what, "arity forms ([params] body...)", a.span));
                };
                let Some(params) = parts.first() else {
                    return Err(bad_form(&what, "a parameter vector in each arity", a.span));
                };
                arities.push(make_arity(&what, params, &parts[1..])?);
            }
        }
        _ => return Err(bad_form(&what, "a parameter vector", first.span)),
    }
    Ok((name, Arc::from(arities)))
}

/// True when a body of `arities` mentions one of `names`.
fn arities_mention(arities: &[Arity], names: &[Arc<str>]) -> bool {
    arities
        .iter()
        .any(|a| a.body.iter().any(|e| mentions(e, names)))
}

/// The length of the run of `let` bindings at the start of `bindings`
/// that bind a plain name, not bound before in this `let` nor earlier in
/// the run, to a `(fn ...)` form.
fn fn_run(bindings: &[Binding<'_>], bound: &[Arc<str>]) -> usize {
    let mut names: Vec<&str> = Vec::new();
    for b in bindings {
        let fresh = match &b.pattern.kind {
            ExprKind::Symbol(s) => &**s != "_" && !bound.contains(s) && !names.contains(&&**s),
            _ => false,
        };
        if !fresh || fn_form(b.value).is_none() {
            break;
        }
        if let ExprKind::Symbol(s) = &b.pattern.kind {
            names.push(s);
        }
    }
    names.len()
}

fn parse_annotation(e: &Expr) -> Result<Annotation> {
    Annotation::parse(e).map_err(|m| {
        RtfsError::new(
            ErrorKind::BadForm,
            format!(
                "invalid type annotation {}: {m}",
                truncate(&crate::printer::print_expr(e))
            ),
        )
        .at(e.span)
        .with_help(
            "types look like :int, [:vector :string] or [:map [:name :string]]; see docs/rtfs.md",
        )
    })
}

/// Checks `v` against the annotation `a`; `what` names the checked thing
/// (`parameter `x` of `add``) and `span` is where the error points.
fn check_annotation(
    ev: &Evaluator<'_>,
    a: &Annotation,
    v: &Value,
    what: impl FnOnce() -> String,
    span: Span,
) -> Result<()> {
    let mut work = 0u64;
    let checked = a.ty.check_counting(v, &mut work);
    // A check visiting a large value is charged like any traversal.
    ev.charge_bytes(work.saturating_mul(crate::value::SLOT_BYTES), span)?;
    checked.map_err(|m| {
        RtfsError::new(ErrorKind::Type, format!("{}: {m}", what()))
            .at(span)
            .with_related(a.span, "type declared here")
    })
}

/// Checks a call's arguments against the annotated parameters of `arity`.
fn check_arguments(
    ev: &Evaluator<'_>,
    c: &Closure,
    arity: &Arity,
    types: &ArityTypes,
    args: &[Value],
    span: Span,
) -> Result<()> {
    let fname = c.name.as_deref().unwrap_or("fn");
    for ((p, a), v) in arity.params.iter().zip(&types.params).zip(args) {
        if let Some(a) = a {
            check_annotation(
                ev,
                a,
                v,
                || format!("parameter `{}` of `{fname}`", crate::printer::print_expr(p)),
                span,
            )?;
        }
    }
    if let (Some(a), Some(rest)) = (&types.rest, &arity.rest) {
        for (i, v) in args.iter().enumerate().skip(arity.params.len()) {
            check_annotation(
                ev,
                a,
                v,
                || {
                    format!(
                        "argument {} (in `& {}`) of `{fname}`",
                        i + 1,
                        crate::printer::print_expr(rest)
                    )
                },
                span,
            )?;
        }
    }
    Ok(())
}

/// An arity without annotations: `[a b & more] body...`.
fn plain_arity(what: &str, ps: &[Expr], body: &[Expr]) -> Result<Arity> {
    let mut fixed = Vec::with_capacity(ps.len());
    let mut rest = None;
    let mut i = 0;
    while i < ps.len() {
        if ps[i].as_symbol() == Some("&") {
            let Some(r) = ps.get(i + 1) else {
                return Err(bad_form(what, "a parameter after `&`", ps[i].span));
            };
            if let Some(extra) = ps.get(i + 2) {
                return Err(bad_form(
                    what,
                    "exactly one parameter after `&`",
                    extra.span,
                ));
            }
            rest = Some(r.clone());
            break;
        }
        fixed.push(ps[i].clone());
        i += 1;
    }
    Ok(Arity {
        params: fixed,
        rest,
        body: body.to_vec(),
        types: None,
    })
}

/// One arity from its parameter vector and the forms after it, with the
/// annotations parsed: `[x :int & more :string] :int body...`.
fn make_arity(what: &str, params: &Expr, after: &[Expr]) -> Result<Arity> {
    let ExprKind::Vector(ps) = &params.kind else {
        return Err(bad_form(what, "a parameter vector", params.span));
    };
    if !ps.iter().any(types::is_annotation)
        && !after.first().is_some_and(types::is_return_annotation)
    {
        return plain_arity(what, ps, after);
    }
    let (fixed, rest) =
        types::split_params(ps).map_err(|(span, expected)| bad_form(what, &expected, span))?;
    let (ret, body) = types::split_return(after);
    let annotated = ret.is_some()
        || fixed.iter().any(|p| p.ty.is_some())
        || rest.is_some_and(|r| r.ty.is_some());
    let types = if annotated {
        let param_types = fixed
            .iter()
            .map(|p| p.ty.map(parse_annotation).transpose())
            .collect::<Result<Vec<_>>>()?;
        Some(Box::new(ArityTypes {
            params: param_types,
            rest: rest.and_then(|r| r.ty).map(parse_annotation).transpose()?,
            ret: ret.map(parse_annotation).transpose()?,
        }))
    } else {
        None
    };
    Ok(Arity {
        params: fixed.iter().map(|p| p.pattern.clone()).collect(),
        rest: rest.map(|r| r.pattern.clone()),
        body: body.to_vec(),
        types,
    })
}

fn expect_args(
    name: &str,
    args: &[Expr],
    min: usize,
    max: Option<usize>,
    span: Span,
) -> Result<()> {
    let n = args.len();
    if n < min || max.is_some_and(|m| n > m) {
        let expected = match max {
            Some(m) if m == min => format!("{min}"),
            Some(m) => format!("{min} to {m}"),
            None => format!("at least {min}"),
        };
        return Err(RtfsError::new(
            ErrorKind::BadForm,
            format!("{name} takes {expected} argument(s), got {n}"),
        )
        .at(span));
    }
    Ok(())
}

fn bad_form(form: &str, expected: &str, span: Span) -> RtfsError {
    RtfsError::new(ErrorKind::BadForm, format!("{form} expects {expected}")).at(span)
}

/// A value for messages: its printed form, shortened (printing stops early,
/// so a huge value costs no more than a small one).
pub(crate) fn brief(v: &Value) -> String {
    truncate(&crate::printer::print_value_prefix(
        v,
        (TRUNCATE_CHARS + 1) * 4,
    ))
}

/// How many characters of a printed value a message shows.
const TRUNCATE_CHARS: usize = 80;

/// Shortens a printed value for messages.
pub(crate) fn truncate(s: &str) -> String {
    const MAX: usize = TRUNCATE_CHARS;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let cut: String = s.chars().take(MAX).collect();
        format!("{cut}…")
    }
}
