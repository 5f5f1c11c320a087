//! Preflight: check a parsed plan against the catalog and the policy
//! WITHOUT running it.
//!
//! The syntax tree is walked (quoted data is skipped) and every `(call ID
//! args...)` is checked: the id must be a literal naming a registered
//! capability (a computed id is a warning: the orchestrator re-checks it at
//! run time), the policy must allow it, and the literal parts of its
//! arguments must fit the input schema ([`ccos_marketplace::schema`]).
//! Cheap syntax problems (`step` without a name, `let` with an odd binding
//! vector, `call` without an id) are reported too.

use ccos_core::audit::payload as audit;
use std::collections::BTreeMap;

use ccos_marketplace::CapabilityManifest;
use ccos_marketplace::schema::{self, PartialArg, Severity};
use rtfs::{Expr, ExprKind, Span};
use serde::Serialize;

use crate::policy::{CallDecision, CallTarget, Policy};

/// Where preflight looks capabilities up.
pub trait Catalog {
    /// The manifest registered under `id`.
    fn get(&self, id: &str) -> Option<CapabilityManifest>;
    /// Up to `k` registered ids closest to `id` (best first), to suggest a
    /// repair for an unknown or denied capability.
    fn closest(&self, id: &str, k: usize) -> Vec<String>;
}

impl Catalog for BTreeMap<String, CapabilityManifest> {
    fn get(&self, id: &str) -> Option<CapabilityManifest> {
        BTreeMap::get(self, id).cloned()
    }

    fn closest(&self, id: &str, k: usize) -> Vec<String> {
        closest_ids(id, self.keys().map(String::as_str), k)
    }
}

/// The real registry: closest = a near-typo id first (small edit
/// distance), then the marketplace's search results for the id's words,
/// then the remaining ids by edit distance.
impl Catalog for ccos_marketplace::Marketplace {
    fn get(&self, id: &str) -> Option<CapabilityManifest> {
        ccos_marketplace::Marketplace::get(self, id)
    }

    fn closest(&self, id: &str, k: usize) -> Vec<String> {
        let by_distance = self.closest_ids(id, k);
        let mut out: Vec<String> = vec![];
        let near = |c: &str| schema::edit_distance(id, c) <= 2.max(id.chars().count() / 4);
        if let Some(first) = by_distance.first().filter(|c| near(c)) {
            out.push(first.clone());
        }
        let words = id.replace(['.', '_', '-'], " ");
        // A failing search only loses suggestions; the edit-distance ones remain.
        let found = self.search(&words, k).unwrap_or_default();
        for c in found.into_iter().map(|(c, _)| c).chain(by_distance) {
            if out.len() >= k {
                break;
            }
            if c != id && !out.contains(&c) {
                out.push(c);
            }
        }
        out
    }
}

/// Ranks `candidates` by closeness to `id`: more shared dot-separated
/// segments first, then smaller edit distance, then id order. Returns up to
/// `k` ids.
pub fn closest_ids<'a>(
    id: &str,
    candidates: impl Iterator<Item = &'a str>,
    k: usize,
) -> Vec<String> {
    let segs: Vec<&str> = id
        .split(['.', '_', '-'])
        .filter(|s| !s.is_empty())
        .collect();
    let mut ranked: Vec<(std::cmp::Reverse<usize>, usize, &str)> = candidates
        .filter(|c| *c != id)
        .map(|c| {
            let shared = c
                .split(['.', '_', '-'])
                .filter(|s| segs.contains(s))
                .count();
            (std::cmp::Reverse(shared), schema::edit_distance(id, c), c)
        })
        .collect();
    ranked.sort();
    ranked
        .into_iter()
        .take(k)
        .map(|(_, _, c)| c.to_string())
        .collect()
}

/// One problem found by preflight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// First byte of the offending form (a call's whole `(call ...)`).
    pub start: usize,
    /// One past its last byte.
    pub end: usize,
    /// 1-based line of `start` (0 until [`PreflightReport::with_source`]).
    pub line: usize,
    /// 1-based column of `start` (0 until located).
    pub column: usize,
    /// Error or warning.
    pub severity: Severity,
    /// Machine-readable code: `unknown_capability`, `denied`,
    /// `needs_approval`, `missing_key`, `unknown_key`, `wrong_type`,
    /// `arity`, `not_a_map`, `constraint`, `invalid_schema`,
    /// `dynamic_capability_id`, `bad_form`, `too_deep`, `type_mismatch`.
    pub code: String,
    /// The capability concerned, when there is one.
    pub capability: Option<String>,
    /// What is wrong.
    pub message: String,
    /// A compact repair hint, e.g. `closest: github.issues.list`.
    pub hint: Option<String>,
}

impl Finding {
    /// One line for people and editors:
    /// `FILE:LINE:COL: severity[code]: message (hint)`.
    pub fn render(&self, source_name: &str) -> String {
        let hint = self
            .hint
            .as_deref()
            .map(|h| format!(" ({h})"))
            .unwrap_or_default();
        format!(
            "{source_name}:{}:{}: {}[{}]: {}{hint}",
            self.line, self.column, self.severity, self.code, self.message
        )
    }

    /// The byte range of the offending form.
    pub fn span(&self) -> Span {
        Span::new(self.start, self.end)
    }

    /// The finding as the causal chain records it.
    pub fn audit_record(&self) -> audit::Finding {
        audit::Finding {
            severity: match self.severity {
                Severity::Error => "error".into(),
                Severity::Warning => "warning".into(),
            },
            code: self.code.clone(),
            message: self.message.clone(),
            hint: self.hint.clone(),
            capability: self.capability.clone(),
            line: self.line as u64,
            column: self.column as u64,
        }
    }
}

/// The policy's decision on one call site.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CallCheck {
    /// The capability id (`None` when computed at run time).
    pub capability: Option<String>,
    /// First byte of the `(call ...)` form.
    pub start: usize,
    /// One past its last byte.
    pub end: usize,
    /// 1-based line (0 until located).
    pub line: usize,
    /// 1-based column (0 until located).
    pub column: usize,
    /// The decision (`None` for a computed id: decided at run time).
    pub decision: Option<CallDecision>,
}

/// Everything preflight found about a plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PreflightReport {
    /// Findings sorted by span start, then code.
    pub findings: Vec<Finding>,
    /// Every call site, in source order, with its decision.
    pub calls: Vec<CallCheck>,
    /// The plan-level governance decision (see [`Policy::decide_plan`]).
    pub decision: CallDecision,
}

impl PreflightReport {
    /// Fills in line and column of every finding and call from the source.
    pub fn with_source(mut self, src: &str) -> Self {
        let index = rtfs::LineIndex::new(src);
        for f in &mut self.findings {
            (f.line, f.column) = index.line_col(f.start);
        }
        for c in &mut self.calls {
            (c.line, c.column) = index.line_col(c.start);
        }
        self
    }

    /// The report as the causal chain records it (`governance_decision`).
    pub fn audit_record(&self) -> audit::GovernanceDecision {
        let decision_label = |d: &CallDecision| d.label().to_string();
        audit::GovernanceDecision {
            decision: decision_label(&self.decision),
            reasons: self.decision.reasons().to_vec(),
            calls: self
                .calls
                .iter()
                .map(|c| audit::PlannedCall {
                    capability: c.capability.clone().unwrap_or_else(|| "<computed>".into()),
                    decision: c
                        .decision
                        .as_ref()
                        .map(decision_label)
                        .unwrap_or_else(|| "at_run_time".into()),
                    reasons: c
                        .decision
                        .as_ref()
                        .map(|d| d.reasons().to_vec())
                        .unwrap_or_default(),
                    line: c.line as u64,
                    column: c.column as u64,
                })
                .collect(),
            findings: self.findings.iter().map(Finding::audit_record).collect(),
        }
    }

    /// True when no finding is an error (warnings allowed).
    pub fn is_clean(&self) -> bool {
        !self.findings.iter().any(|f| f.severity == Severity::Error)
    }

    /// True when the policy denies some call (a `denied` or
    /// `unknown_capability` finding gives a `Deny` decision; only `denied`
    /// counts here).
    pub fn has_denied(&self) -> bool {
        self.findings.iter().any(|f| f.code == "denied")
    }
}

/// Parses `src` and preflights it, with lines and columns filled in; the
/// error is the parse error.
#[allow(clippy::result_large_err)] // rtfs's own error type, as rtfs::parse returns it
pub fn preflight_str(
    src: &str,
    catalog: &dyn Catalog,
    policy: &Policy,
) -> Result<PreflightReport, rtfs::RtfsError> {
    let forms = rtfs::parse(src)?;
    Ok(preflight(&forms, catalog, policy).with_source(src))
}

/// Checks a parsed plan without running it. Lines and columns are 0 until
/// [`PreflightReport::with_source`] is called.
pub fn preflight(forms: &[Expr], catalog: &dyn Catalog, policy: &Policy) -> PreflightReport {
    let mut w = Walker {
        catalog,
        policy,
        findings: vec![],
        calls: vec![],
    };
    for f in forms {
        w.walk(f, 0);
    }
    unknown_dotted_functions(forms, &mut w);
    // Literals that fail the type annotation they meet (`(let [n :int
    // "2"] ...)`, an annotated defn called with a wrong constant).
    for m in rtfs::types::literal_mismatches(forms) {
        w.find(
            m.span,
            Severity::Error,
            "type_mismatch",
            None,
            format!("{}: {}", m.target, m.message),
            Some("change the value, or the annotation".into()),
        );
    }
    let decision = policy.decide_plan(
        w.calls
            .iter()
            .filter_map(|c| Some((c.capability.as_deref()?, c.decision.as_ref()?))),
    );
    let mut findings = w.findings;
    findings.sort_by(|a, b| (a.start, &a.code).cmp(&(b.start, &b.code)));
    PreflightReport {
        findings,
        calls: w.calls,
        decision,
    }
}

/// A dotted symbol called as a function (`(ccos.echo "hi")`) that is no
/// built-in and that the plan never names anywhere else (so defines
/// nowhere): it would fail at run time as unbound. Capabilities are called
/// with `call`; the finding says so when the name is one.
fn unknown_dotted_functions(forms: &[Expr], w: &mut Walker<'_>) {
    fn collect<'e>(
        e: &'e Expr,
        depth: usize,
        heads: &mut Vec<(&'e str, Span)>,
        others: &mut std::collections::BTreeSet<&'e str>,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        match &e.kind {
            ExprKind::Symbol(s) => {
                others.insert(s);
            }
            ExprKind::List(items) => {
                if items.first().and_then(Expr::as_symbol) == Some("quote") {
                    return;
                }
                for (i, it) in items.iter().enumerate() {
                    match (&it.kind, i) {
                        (ExprKind::Symbol(s), 0) => heads.push((s, it.span)),
                        _ => collect(it, depth + 1, heads, others),
                    }
                }
            }
            ExprKind::Vector(items) => {
                for it in items {
                    collect(it, depth + 1, heads, others);
                }
            }
            ExprKind::Map(entries) => {
                for (k, v) in entries {
                    collect(k, depth + 1, heads, others);
                    collect(v, depth + 1, heads, others);
                }
            }
            _ => {}
        }
    }
    let mut heads = vec![];
    let mut others = std::collections::BTreeSet::new();
    for f in forms {
        collect(f, 0, &mut heads, &mut others);
    }
    for (name, span) in heads {
        if !name.contains('.')
            || name.starts_with('.')
            || others.contains(name)
            || rtfs::builtins::Builtin::from_name(name).is_some()
        {
            continue;
        }
        let is_capability =
            name.len() <= ccos_marketplace::ids::MAX_ID_LEN && w.catalog.get(name).is_some();
        let hint = if is_capability {
            format!("{name} is a capability: call it with (call :{name} ...)")
        } else {
            "define it in the plan, or call a capability with (call :id ...)".to_string()
        };
        w.find(
            span,
            Severity::Error,
            "unknown_function",
            None,
            format!("`{name}` is not a function: no built-in has that name and the plan does not define it"),
            Some(hint),
        );
    }
}

/// Nesting deeper than this is not walked (the parser already bounds it).
const MAX_DEPTH: usize = 1024;

impl CallCheck {
    /// A call at `span` (line and column filled by
    /// [`PreflightReport::with_source`]).
    fn at(span: Span, capability: Option<String>, decision: Option<CallDecision>) -> CallCheck {
        CallCheck {
            capability,
            start: span.start,
            end: span.end,
            line: 0,
            column: 0,
            decision,
        }
    }
}

struct Walker<'a> {
    catalog: &'a dyn Catalog,
    policy: &'a Policy,
    findings: Vec<Finding>,
    calls: Vec<CallCheck>,
}

impl Walker<'_> {
    fn find(
        &mut self,
        span: Span,
        severity: Severity,
        code: &str,
        capability: Option<&str>,
        message: String,
        hint: Option<String>,
    ) {
        use ccos_core::text::{MAX_MESSAGE_BYTES, clip};
        self.findings.push(Finding {
            start: span.start,
            end: span.end,
            line: 0,
            column: 0,
            severity,
            code: code.to_string(),
            capability: capability.map(|c| clip(c, MAX_MESSAGE_BYTES).into_owned()),
            message: clip(&message, MAX_MESSAGE_BYTES).into_owned(),
            hint: hint.map(|h| clip(&h, MAX_MESSAGE_BYTES).into_owned()),
        });
    }

    fn walk(&mut self, e: &Expr, depth: usize) {
        if depth > MAX_DEPTH {
            self.find(
                e.span,
                Severity::Error,
                "too_deep",
                None,
                format!("nesting deeper than {MAX_DEPTH} levels is not checked"),
                None,
            );
            return;
        }
        match &e.kind {
            ExprKind::List(items) => {
                let args = items.get(1..).unwrap_or(&[]);
                match items.first().and_then(Expr::as_symbol) {
                    Some("quote") => return,
                    Some("call") => self.check_call(e, args),
                    Some("step") => self.check_step(e, args),
                    Some("let") => self.check_let(e, args),
                    _ => {}
                }
                for i in items {
                    self.walk(i, depth + 1);
                }
            }
            ExprKind::Vector(items) => {
                for i in items {
                    self.walk(i, depth + 1);
                }
            }
            ExprKind::Map(entries) => {
                for (k, v) in entries {
                    self.walk(k, depth + 1);
                    self.walk(v, depth + 1);
                }
            }
            _ => {}
        }
    }

    fn check_step(&mut self, e: &Expr, args: &[Expr]) {
        if !matches!(args.first().map(|a| &a.kind), Some(ExprKind::Str(_))) {
            self.find(
                e.span,
                Severity::Error,
                "bad_form",
                None,
                "step needs a name string as its first argument".into(),
                Some("write (step \"Name\" body...)".into()),
            );
        }
    }

    fn check_let(&mut self, e: &Expr, args: &[Expr]) {
        let ok =
            matches!(args.first().map(|a| &a.kind), Some(ExprKind::Vector(b)) if b.len() % 2 == 0);
        if !ok {
            self.find(
                e.span,
                Severity::Error,
                "bad_form",
                None,
                "let needs a binding vector with an even number of forms".into(),
                Some("write (let [name value ...] body...)".into()),
            );
        }
    }

    fn check_call(&mut self, e: &Expr, args: &[Expr]) {
        let Some(id_expr) = args.first() else {
            self.find(
                e.span,
                Severity::Error,
                "bad_form",
                None,
                "call needs a capability id".into(),
                Some("write (call :capability.id args...)".into()),
            );
            return;
        };
        let id = match &id_expr.kind {
            ExprKind::Keyword(k) | ExprKind::Str(k) => k.to_string(),
            ExprKind::Symbol(_) | ExprKind::List(_) => {
                self.find(
                    e.span,
                    Severity::Warning,
                    "dynamic_capability_id",
                    None,
                    "capability id is computed at run time; it is checked when the plan runs"
                        .into(),
                    Some("write the id as a literal keyword, e.g. :ccos.echo".into()),
                );
                self.calls.push(CallCheck::at(e.span, None, None));
                return;
            }
            _ => {
                self.find(
                    e.span,
                    Severity::Error,
                    "bad_form",
                    None,
                    format!(
                        "call needs a capability id (keyword or string), got {}",
                        id_expr.to_value().type_name()
                    ),
                    Some("write (call :capability.id args...)".into()),
                );
                return;
            }
        };
        if id.is_empty() {
            self.find(
                e.span,
                Severity::Error,
                "bad_form",
                None,
                "call needs a non-empty capability id".into(),
                None,
            );
            return;
        }
        // No catalog holds an id this long: say so without looking it up
        // (or suggesting near names: that compares it with every id).
        if id.len() > ccos_marketplace::ids::MAX_ID_LEN {
            self.find(
                e.span,
                Severity::Error,
                "unknown_capability",
                None,
                format!(
                    "capability id is {} bytes long; ids are at most {} (`{}`)",
                    id.len(),
                    ccos_marketplace::ids::MAX_ID_LEN,
                    ccos_core::text::clip(&id, 64)
                ),
                None,
            );
            self.calls.push(CallCheck::at(e.span, None, None));
            return;
        }
        let manifest = self.catalog.get(&id);
        let decision = match &manifest {
            Some(m) => self.policy.decide_call(CallTarget::Known(m)),
            None => self.policy.decide_call(CallTarget::Unknown(&id)),
        };
        self.calls.push(CallCheck::at(
            e.span,
            Some(id.clone()),
            Some(decision.clone()),
        ));
        let Some(m) = manifest else {
            let closest = self.catalog.closest(&id, 3);
            let hint = if closest.is_empty() {
                format!("unknown capability {id}; no capability is registered")
            } else {
                format!("unknown capability {id}; closest: {}", closest.join(", "))
            };
            self.find(
                e.span,
                Severity::Error,
                "unknown_capability",
                Some(&id),
                format!("unknown capability {id}"),
                Some(hint),
            );
            return;
        };
        match &decision {
            CallDecision::Allow => {}
            CallDecision::Deny { reasons } => {
                let alternatives: Vec<String> = self
                    .catalog
                    .closest(&id, 10)
                    .into_iter()
                    .filter(|c| {
                        self.catalog
                            .get(c)
                            .is_some_and(|m| !self.policy.decide_call(&m).is_denied())
                    })
                    .take(3)
                    .collect();
                let hint = if alternatives.is_empty() {
                    "no allowed alternative; change the policy to allow it".to_string()
                } else {
                    format!("allowed alternatives: {}", alternatives.join(", "))
                };
                self.find(
                    e.span,
                    Severity::Error,
                    "denied",
                    Some(&id),
                    format!("{id} denied: {}", reasons.join("; ")),
                    Some(hint),
                );
            }
            CallDecision::NeedsApproval { reasons } => {
                self.find(
                    e.span,
                    Severity::Warning,
                    "needs_approval",
                    Some(&id),
                    format!("{id} needs approval: {}", reasons.join("; ")),
                    Some(format!(
                        "approve it when asked, or add \"{id}\" to capabilities.pre_approved"
                    )),
                );
            }
        }
        let partial: Vec<PartialArg> = args[1..].iter().map(partial_arg).collect();
        for p in schema::check_partial_args(&m, &partial) {
            self.find(
                e.span,
                p.severity,
                p.code.as_str(),
                Some(&id),
                format!("{id}: {}", p.message),
                p.hint,
            );
        }
    }
}

/// What is known of an argument before running: a literal, a map literal
/// with some computed values, or nothing.
fn partial_arg(e: &Expr) -> PartialArg {
    if e.is_constant() {
        return PartialArg::Known(e.to_value());
    }
    match &e.kind {
        ExprKind::Map(entries) => {
            let mut known = BTreeMap::new();
            let mut open = false;
            for (k, v) in entries {
                match &k.kind {
                    ExprKind::Keyword(name) | ExprKind::Str(name) => {
                        let value = v.is_constant().then(|| v.to_value());
                        known.insert(name.to_string(), value);
                    }
                    _ if k.is_constant() => {
                        let value = v.is_constant().then(|| v.to_value());
                        known.insert(k.to_value().to_string(), value);
                    }
                    _ => open = true,
                }
            }
            PartialArg::Map {
                entries: known,
                open,
            }
        }
        _ => PartialArg::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ccos_marketplace::{Effect, TrustTier};
    use serde_json::{Value as Json, json};

    fn cap(id: &str, schema: Json, tier: TrustTier, effects: &[Effect]) -> CapabilityManifest {
        CapabilityManifest::new(id, "", schema)
            .with_tier(tier)
            .with_effects(effects)
            .local()
    }

    fn catalog() -> BTreeMap<String, CapabilityManifest> {
        let caps = [
            cap(
                "ccos.echo",
                json!({"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}),
                TrustTier::System,
                &[Effect::Pure],
            ),
            cap(
                "ccos.math.add",
                json!({"type":"array","prefixItems":[{"type":"number"},{"type":"number"}],"minItems":2,"maxItems":2}),
                TrustTier::System,
                &[Effect::Pure],
            ),
            cap(
                "ccos.fs.read",
                json!({"type":"object","properties":{"path":{"type":"string"},"encoding":{"type":"string"}},"required":["path"]}),
                TrustTier::System,
                &[Effect::Read],
            ),
            cap(
                "ccos.fs.write",
                json!({"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}},"required":["path","content"]}),
                TrustTier::System,
                &[Effect::Write],
            ),
            cap(
                "github.issues.list",
                json!({"type":"object","properties":{"repo":{"type":"string"}},"required":["repo"]}),
                TrustTier::Community,
                &[Effect::Read],
            ),
            cap(
                "mcp.git.log",
                json!({"type":"object","properties":{}}),
                TrustTier::Community,
                &[Effect::Read],
            ),
        ];
        caps.into_iter().map(|c| (c.id.clone(), c)).collect()
    }

    fn run(src: &str) -> PreflightReport {
        run_with(src, &Policy::default())
    }

    fn run_with(src: &str, policy: &Policy) -> PreflightReport {
        match preflight_str(src, &catalog(), policy) {
            Ok(r) => r,
            Err(e) => panic!("{e}"),
        }
    }

    fn codes(r: &PreflightReport) -> Vec<&str> {
        r.findings.iter().map(|f| f.code.as_str()).collect()
    }

    #[test]
    fn seed_example_is_clean() {
        let src = r#"(do (step "Greet" (call :ccos.echo {:message "hi"})) (step "Add" (call :ccos.math.add 2 3)))"#;
        let r = run(src);
        assert!(r.findings.is_empty(), "{:?}", r.findings);
        assert_eq!(r.decision, CallDecision::Allow);
        assert_eq!(r.calls.len(), 2);
        assert_eq!(r.calls[0].capability.as_deref(), Some("ccos.echo"));
        assert_eq!((r.calls[1].line, r.calls[1].column), (1, 66));
    }

    #[test]
    fn a_capability_called_as_a_function_is_reported() {
        let r = preflight_str(
            "(do (ccos.echo {:message \"hi\"}) (defn my.fn [x] x) (my.fn 1))",
            &catalog(),
            &Policy::default(),
        )
        .unwrap();
        assert_eq!(codes(&r), ["unknown_function"], "{r:?}");
        let f = &r.findings[0];
        assert!(
            f.hint
                .as_deref()
                .unwrap_or("")
                .contains("(call :ccos.echo ...)"),
            "{f:?}"
        );
    }

    #[test]
    fn unknown_capability_suggests_the_closest() {
        let src = "(do\n  (call :data.list.filter {:repo \"x\"}))";
        let r = run(src);
        assert_eq!(codes(&r), ["unknown_capability"]);
        let f = &r.findings[0];
        assert_eq!((f.line, f.column, f.start), (2, 3, 6));
        assert_eq!(f.end, src.len() - 1);
        assert_eq!(f.severity, Severity::Error);
        assert_eq!(
            f.hint.as_deref(),
            Some(
                "unknown capability data.list.filter; closest: github.issues.list, ccos.fs.write, mcp.git.log"
            )
        );
        assert!(r.decision.is_denied());
    }

    #[test]
    fn denied_and_needs_approval() {
        let policy =
            Policy::from_toml_str("[capabilities]\ndeny = [\"mcp.git.*\"]\n").unwrap_or_default();
        let r = run_with(
            "(call :mcp.git.log {})\n(call :ccos.fs.write {:path \"a\" :content \"b\"})",
            &policy,
        );
        assert_eq!(codes(&r), ["denied", "needs_approval"]);
        assert_eq!(
            r.findings[0].message,
            "mcp.git.log denied: denied by pattern mcp.git.*"
        );
        assert_eq!(r.findings[1].severity, Severity::Warning);
        assert_eq!(r.findings[1].line, 2);
        assert!(r.has_denied());
        assert_eq!(
            r.decision,
            CallDecision::Deny {
                reasons: vec!["mcp.git.log: denied by pattern mcp.git.*".into()]
            }
        );
        let r = run("(call :ccos.fs.write {:path \"a\" :content \"b\"})");
        assert!(r.is_clean());
        assert_eq!(r.decision.label(), "needs_approval");
    }

    #[test]
    fn argument_findings() {
        let src = "(do\n (call :ccos.fs.read {:encoding \"utf8\"}))";
        let r = run(src);
        assert_eq!(codes(&r), ["missing_key"]);
        let f = &r.findings[0];
        assert_eq!(
            &src[f.start..f.end],
            "(call :ccos.fs.read {:encoding \"utf8\"})"
        );
        assert_eq!((f.line, f.column), (2, 2));
        assert_eq!(f.capability.as_deref(), Some("ccos.fs.read"));
        assert_eq!(
            r.findings[0].message,
            "ccos.fs.read: missing required key :path; known keys: :path :encoding"
        );
        let r = run("(call :ccos.fs.read {:path \"a\" :encodng \"utf8\"})");
        assert_eq!(codes(&r), ["unknown_key"]);
        assert_eq!(r.findings[0].severity, Severity::Warning);
        assert_eq!(
            r.findings[0].hint.as_deref(),
            Some("did you mean :encoding?")
        );
        let r = run("(call :ccos.fs.read {:path 42})");
        assert_eq!(codes(&r), ["wrong_type"]);
        let r = run("(call :ccos.math.add 1 2 3)");
        assert_eq!(codes(&r), ["arity"]);
        let r = run("(call :ccos.echo \"hi\")");
        assert_eq!(codes(&r), ["not_a_map"]);
    }

    #[test]
    fn partial_arguments_from_bindings() {
        // values from bindings and other calls are unknown: clean
        let r = run(
            "(let [p \"x\"] (call :ccos.fs.read {:path p}) (call :ccos.math.add (call :ccos.math.add 1 2) 3))",
        );
        assert!(r.findings.is_empty(), "{:?}", r.findings);
        assert_eq!(r.calls.len(), 3);
        // but a literal of the wrong type next to them is still found
        let r = run("(let [p \"x\"] (call :ccos.math.add p \"3\"))");
        assert_eq!(codes(&r), ["wrong_type"]);
        // and a missing key too
        let r = run("(let [e \"x\"] (call :ccos.fs.read {:encoding e}))");
        assert_eq!(codes(&r), ["missing_key"]);
        // a whole computed argument: nothing known
        let r = run("(let [m {:path \"x\"}] (call :ccos.fs.read m))");
        assert!(r.findings.is_empty(), "{:?}", r.findings);
    }

    #[test]
    fn dynamic_id_quote_and_syntax() {
        let r = run("(let [id :ccos.echo] (call id {:message \"x\"}))");
        assert_eq!(codes(&r), ["dynamic_capability_id"]);
        assert_eq!(r.findings[0].severity, Severity::Warning);
        assert!(r.is_clean());
        assert_eq!(r.calls[0].decision, None);
        assert_eq!(r.decision, CallDecision::Allow);

        let r = run("'(call :nope.nothing) (quote (call :nope.other))");
        assert!(r.findings.is_empty(), "{:?}", r.findings);

        let r = run("(step (call :ccos.echo {:message \"x\"}))");
        assert_eq!(codes(&r), ["bad_form"]);
        let r = run("(let [a] a)");
        assert_eq!(codes(&r), ["bad_form"]);
        let r = run("(call)");
        assert_eq!(codes(&r), ["bad_form"]);
        let r = run("(call 42)");
        assert_eq!(codes(&r), ["bad_form"]);
    }

    #[test]
    fn literals_that_fail_their_annotation_are_findings() {
        let src =
            r#"(do (defn add [a :int b :int] :int (+ a b)) (add 1 "2") (let [n :int "x"] n))"#;
        let r = preflight_str(src, &catalog(), &Policy::default()).unwrap();
        let codes: Vec<&str> = r
            .findings
            .iter()
            .filter(|f| f.code == "type_mismatch")
            .map(|f| f.message.as_str())
            .collect();
        assert_eq!(codes.len(), 2, "{:?}", r.findings);
        assert!(codes[0].contains("parameter b of add"), "{codes:?}");
        assert!(!r.is_clean());
    }

    #[test]
    fn findings_sorted_by_start_then_code() {
        let r = run(
            "(call :ccos.fs.write {:pth \"a\"})\n(call :zzz.unknown)\n(call :ccos.echo {:message 1})",
        );
        assert_eq!(
            codes(&r),
            [
                "missing_key",
                "missing_key",
                "needs_approval",
                "unknown_key",
                "unknown_capability",
                "wrong_type"
            ]
        );
        let starts: Vec<usize> = r.findings.iter().map(|f| f.start).collect();
        let mut sorted = starts.clone();
        sorted.sort();
        assert_eq!(starts, sorted);
    }

    #[test]
    fn report_serializes_to_json() {
        let r = run("(call :zzz.unknown)");
        let j = serde_json::to_value(&r).unwrap_or_default();
        assert_eq!(j["findings"][0]["code"], "unknown_capability");
        assert_eq!(j["findings"][0]["severity"], "error");
        assert_eq!(j["decision"]["decision"], "deny");
        assert_eq!(
            j["calls"][0]["decision"]["reasons"][0],
            "unknown capability zzz.unknown"
        );
    }
}
