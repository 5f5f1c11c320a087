//! Plan generation by a language model, in two modes (design note "Plan
//! Generation Modes"), behind deterministic checks.
//!
//! - **Mode A, direct RTFS** (`plan.rtfs` prompt): the answer's `(do ...)`
//!   form is extracted (prose and markdown fences tolerated), parsed,
//!   checked for allowed forms (only `do step call let if step-parallel
//!   step-loop`, plain data and standard-library functions; `fn`, `def`
//!   and the like are refused with a hint; capability ids must be literal),
//!   then the capabilities it names are looked up ([`crate::hints`]),
//!   then preflight and governance run (`ccos_governance::preflight_str`:
//!   capability ids, argument schemas, the policy's plan decision).
//! - **Mode B, JSON IR** (`plan.ir` prompt): the answer's JSON object is
//!   read as a [`PlanIr`], validated (ids, deps, cycles, references,
//!   arguments against schemas), compiled deterministically to RTFS and
//!   put through the same preflight and governance.
//!
//! Around each mode two bounded loops run, in one conversation:
//!
//! - **re-planning with discovery hints**: when the plan names capabilities
//!   that do not exist, the model is shown what was found (with
//!   parameters and usage hints), what is missing and the closest real
//!   capabilities (`plan.replan_hints`), at most `max_replans` times, and
//!   stopping early when it answers the same plan again; then the result
//!   is `requires_agent` — a missing capability is never stubbed;
//! - **repair**: any other finding (parse error, refused form, denied
//!   capability, wrong argument) is sent back as compact one-line hints
//!   (`plan.repair`), at most `max_repairs` times.
//!
//! [`Mode::Auto`] is Mode A and, when its repairs are exhausted, Mode B in
//! a fresh conversation. A model's answer never reaches the caller as a
//! plan without parse + preflight + governance, and everything is
//! deterministic given the model's answers.
//!
//! Model calls per goal: 1 on the happy path; at most `1 + max_repairs +
//! max_replans` per mode, so `2 × (1 + 2 + 2) = 10` for `Auto` with the
//! defaults (asserted by the tests with a never-converging script).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::Arc;

use ccos_governance::{Policy, Severity};
use ccos_llm::{LlmError, LlmProvider, LlmRequest, Message, Prompt, PromptError};
use ccos_marketplace::{CapabilityManifest, Marketplace};
use rtfs::{Expr, ExprKind};
use serde::{Deserialize, Serialize};

use crate::canon;
use crate::hints::{self, DiscoveryHints};
use crate::ir::{PLAN_WIDTH, PlanIr};

const RTFS_PROMPT: &str = include_str!("../prompts/plan.rtfs.md");
const IR_PROMPT: &str = include_str!("../prompts/plan.ir.md");
const REPAIR_PROMPT: &str = include_str!("../prompts/plan.repair.md");
const REPLAN_PROMPT: &str = include_str!("../prompts/plan.replan_hints.md");

/// The forms a model's RTFS plan may use (besides plain data and the
/// standard library).
pub const ALLOWED_FORMS: &[&str] = &[
    "do",
    "step",
    "call",
    "let",
    "if",
    "step-parallel",
    "step-loop",
    "quote",
];

/// How a plan is generated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Mode A: the model writes RTFS.
    Rtfs,
    /// Mode B: the model writes the JSON IR, compiled to RTFS.
    Ir,
    /// Mode A with repairs, then Mode B.
    Auto,
}

impl Mode {
    /// `rtfs`, `ir` or `auto`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Rtfs => "rtfs",
            Mode::Ir => "ir",
            Mode::Auto => "auto",
        }
    }

    /// Parses `rtfs`, `ir` or `auto`.
    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "rtfs" => Some(Mode::Rtfs),
            "ir" => Some(Mode::Ir),
            "auto" => Some(Mode::Auto),
            _ => None,
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Bounds of the planner's loops and prompts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LlmPlannerOptions {
    /// Repair rounds per mode (default 2).
    pub max_repairs: usize,
    /// Re-plans with discovery hints per mode (default 2).
    pub max_replans: usize,
    /// Capabilities listed in the prompt: the best `top_k` of a catalog
    /// search for the goal (default 12), never the whole catalog.
    pub top_k: usize,
    /// Upper bound on an answer's length in tokens.
    pub max_tokens: Option<u32>,
}

impl Default for LlmPlannerOptions {
    fn default() -> Self {
        LlmPlannerOptions {
            max_repairs: 2,
            max_replans: 2,
            top_k: 12,
            max_tokens: Some(2048),
        }
    }
}

/// One model answer and what the checks said about it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    /// `rtfs` or `ir`.
    pub mode: String,
    /// 0 for the first answer of the mode, then 1, 2...
    pub round: usize,
    /// `initial`, `repair` or `replan`.
    pub kind: String,
    /// The prompt template that asked (`plan.rtfs@1`).
    pub prompt: String,
    /// `accepted`, `invalid` or `missing_capabilities`.
    pub verdict: String,
    /// The findings (compact one-line hints), empty when accepted.
    pub findings: Vec<String>,
}

/// The model's plans keep naming capabilities that do not exist.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlmRequiresAgent {
    /// The missing capability ids.
    pub missing: Vec<String>,
    /// For each, the closest real (allowed) capabilities.
    pub suggestions: BTreeMap<String, Vec<String>>,
}

/// A successful planning run: a validated plan or a requires-agent report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlmPlanOutcome {
    /// The goal.
    pub goal: String,
    /// The mode requested.
    pub mode: Mode,
    /// The mode that produced the plan (`rtfs` or `ir`), if any.
    pub produced_by: Option<Mode>,
    /// The validated plan, pretty-printed canonically.
    pub rtfs: Option<String>,
    /// The canonical IR of `rtfs` ([`canon::canonicalize`]).
    pub ir: Option<PlanIr>,
    /// The IR as the model wrote it (Mode B only).
    pub model_ir: Option<PlanIr>,
    /// Preflight warnings of the plan (e.g. calls needing approval).
    pub warnings: Vec<String>,
    /// Set when missing capabilities could not be planned around.
    pub requires_agent: Option<LlmRequiresAgent>,
    /// Every answer and its verdict, in order.
    pub attempts: Vec<Attempt>,
    /// How many times the model was asked.
    pub model_calls: usize,
}

impl LlmPlanOutcome {
    /// The generation mode recorded with the plan: `llm-rtfs` or `llm-ir`.
    pub fn generation_mode(&self) -> &'static str {
        match self.produced_by {
            Some(Mode::Ir) => "llm-ir",
            _ => "llm-rtfs",
        }
    }
}

/// What kind of failure a [`LlmPlanError`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// The model could not be asked (transport, server, script exhausted).
    Llm,
    /// A prompt template failed to load or render (a bug).
    Prompt,
    /// Every round's answer was rejected.
    NoValidPlan,
}

/// Planning failed; the attempts so far are kept for the record.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct LlmPlanError {
    /// What kind of failure.
    pub kind: FailureKind,
    /// A clear message (the last findings for `NoValidPlan`).
    pub message: String,
    /// Every answer and its verdict, in order.
    pub attempts: Vec<Attempt>,
    /// How many times the model was asked.
    pub model_calls: usize,
}

/// Has a language model write the plan of a goal (see the module docs);
/// every answer is parsed, preflighted and governed before it is accepted.
pub struct PlanWriter {
    provider: Arc<dyn LlmProvider>,
    marketplace: Arc<Marketplace>,
    policy: Policy,
    options: LlmPlannerOptions,
}

/// The verdict on one answer.
enum Checked {
    Valid {
        rtfs: String,
        ir: PlanIr,
        model_ir: Option<PlanIr>,
        warnings: Vec<String>,
    },
    Missing {
        hints: DiscoveryHints,
        key: String,
    },
    Invalid(Vec<String>),
}

/// How one mode ended.
enum ModeEnd {
    Plan(Box<Checked>),
    RequiresAgent(LlmRequiresAgent),
    Failed(Vec<String>),
}

struct Run {
    attempts: Vec<Attempt>,
    calls: usize,
}

impl PlanWriter {
    /// A planner asking `provider`, over `marketplace`, under `policy`,
    /// with default options.
    pub fn new(
        provider: Arc<dyn LlmProvider>,
        marketplace: Arc<Marketplace>,
        policy: Policy,
    ) -> PlanWriter {
        PlanWriter {
            provider,
            marketplace,
            policy,
            options: LlmPlannerOptions::default(),
        }
    }

    /// Replaces the options.
    pub fn with_options(mut self, options: LlmPlannerOptions) -> PlanWriter {
        self.options = options;
        self
    }

    /// The options.
    pub fn options(&self) -> LlmPlannerOptions {
        self.options
    }

    /// Plans `goal` in `mode`: a validated plan, a requires-agent report,
    /// or an error naming the last findings.
    pub fn plan(&self, goal: &str, mode: Mode) -> Result<LlmPlanOutcome, LlmPlanError> {
        let goal = goal.trim();
        let mut run = Run {
            attempts: vec![],
            calls: 0,
        };
        let modes: &[Mode] = match mode {
            Mode::Rtfs => &[Mode::Rtfs],
            Mode::Ir => &[Mode::Ir],
            Mode::Auto => &[Mode::Rtfs, Mode::Ir],
        };
        let mut last_findings = vec![];
        for &m in modes {
            match self.run_mode(goal, m, &mut run) {
                Err((kind, message)) => {
                    return Err(LlmPlanError {
                        kind,
                        message,
                        attempts: run.attempts,
                        model_calls: run.calls,
                    });
                }
                Ok(ModeEnd::Plan(c)) => {
                    let Checked::Valid {
                        rtfs,
                        ir,
                        model_ir,
                        warnings,
                    } = *c
                    else {
                        continue;
                    };
                    return Ok(LlmPlanOutcome {
                        goal: goal.to_string(),
                        mode,
                        produced_by: Some(m),
                        rtfs: Some(rtfs),
                        ir: Some(ir),
                        model_ir,
                        warnings,
                        requires_agent: None,
                        attempts: run.attempts,
                        model_calls: run.calls,
                    });
                }
                Ok(ModeEnd::RequiresAgent(ra)) => {
                    return Ok(LlmPlanOutcome {
                        goal: goal.to_string(),
                        mode,
                        produced_by: None,
                        rtfs: None,
                        ir: None,
                        model_ir: None,
                        warnings: vec![],
                        requires_agent: Some(ra),
                        attempts: run.attempts,
                        model_calls: run.calls,
                    });
                }
                Ok(ModeEnd::Failed(f)) => last_findings = f,
            }
        }
        Err(LlmPlanError {
            kind: FailureKind::NoValidPlan,
            message: format!(
                "no valid plan after {} model call(s); last problems:\n  {}",
                run.calls,
                last_findings.join("\n  ")
            ),
            attempts: run.attempts,
            model_calls: run.calls,
        })
    }

    /// The first request of a mode (for figures: prompt size in tokens).
    pub fn initial_request(&self, goal: &str, mode: Mode) -> Result<LlmRequest, PromptError> {
        let (prompt, _) = self.initial_prompt(mode)?;
        let mut values = BTreeMap::new();
        values.insert("goal", goal.trim().to_string());
        values.insert("capabilities", self.capability_list(goal));
        let text = prompt.render(&values)?;
        Ok(self.request(&prompt.key(), vec![Message::user(text)], mode))
    }

    fn initial_prompt(&self, mode: Mode) -> Result<(Prompt, &'static str), PromptError> {
        Ok(match mode {
            Mode::Ir => (
                Prompt::parse("prompts/plan.ir.md", IR_PROMPT)?,
                "one JSON object {\"steps\": [...]}",
            ),
            _ => (
                Prompt::parse("prompts/plan.rtfs.md", RTFS_PROMPT)?,
                "one RTFS form (do ...)",
            ),
        })
    }

    fn request(&self, key: &str, messages: Vec<Message>, mode: Mode) -> LlmRequest {
        let mut r = LlmRequest::new(key, messages).json(mode == Mode::Ir);
        if let Some(n) = self.options.max_tokens {
            r = r.max_tokens(n);
        }
        r
    }

    fn run_mode(
        &self,
        goal: &str,
        mode: Mode,
        run: &mut Run,
    ) -> Result<ModeEnd, (FailureKind, String)> {
        let perr = |e: PromptError| (FailureKind::Prompt, e.to_string());
        let first = self.initial_request(goal, mode).map_err(perr)?;
        let (_, format) = self.initial_prompt(mode).map_err(perr)?;
        let repair = Prompt::parse("prompts/plan.repair.md", REPAIR_PROMPT).map_err(perr)?;
        let replan = Prompt::parse("prompts/plan.replan_hints.md", REPLAN_PROMPT).map_err(perr)?;
        let mut messages = first.messages.clone();
        let mut key = first.prompt_id.clone();
        let mut kind = "initial";
        let (mut repairs, mut replans, mut round) = (0usize, 0usize, 0usize);
        let mut last_plan: Option<String> = None;
        loop {
            let req = self.request(&key, messages.clone(), mode);
            run.calls += 1;
            let answer = self
                .provider
                .generate_text(&req)
                .map_err(|e: LlmError| {
                    (
                        FailureKind::Llm,
                        format!("asking the model ({}): {e}", self.provider.describe()),
                    )
                })?
                .text;
            messages.push(Message::assistant(answer.clone()));
            let checked = self.check(mode, &answer);
            let mut attempt = Attempt {
                mode: mode.as_str().into(),
                round,
                kind: kind.into(),
                prompt: key.clone(),
                verdict: String::new(),
                findings: vec![],
            };
            round += 1;
            match checked {
                c @ Checked::Valid { .. } => {
                    attempt.verdict = "accepted".into();
                    run.attempts.push(attempt);
                    return Ok(ModeEnd::Plan(Box::new(c)));
                }
                Checked::Missing {
                    hints,
                    key: plan_key,
                } => {
                    attempt.verdict = "missing_capabilities".into();
                    attempt.findings = hints
                        .missing
                        .iter()
                        .map(|m| format!("unknown capability {m}"))
                        .collect();
                    run.attempts.push(attempt);
                    let same = last_plan.as_deref() == Some(plan_key.as_str());
                    if replans >= self.options.max_replans || same {
                        return Ok(ModeEnd::RequiresAgent(LlmRequiresAgent {
                            missing: hints.missing.clone(),
                            suggestions: hints.suggestions.clone(),
                        }));
                    }
                    replans += 1;
                    last_plan = Some(plan_key);
                    let mut values = BTreeMap::new();
                    values.insert("goal", goal.to_string());
                    values.insert("hints", hints.render(&self.marketplace, &self.policy));
                    values.insert("format", format.to_string());
                    messages.push(Message::user(replan.render(&values).map_err(perr)?));
                    key = replan.key();
                    kind = "replan";
                }
                Checked::Invalid(findings) => {
                    attempt.verdict = "invalid".into();
                    attempt.findings = findings.clone();
                    run.attempts.push(attempt);
                    if repairs >= self.options.max_repairs {
                        return Ok(ModeEnd::Failed(findings));
                    }
                    repairs += 1;
                    let mut values = BTreeMap::new();
                    values.insert(
                        "findings",
                        findings
                            .iter()
                            .take(MAX_FINDINGS)
                            .map(|f| format!("- {f}"))
                            .collect::<Vec<_>>()
                            .join("\n"),
                    );
                    values.insert("format", format.to_string());
                    messages.push(Message::user(repair.render(&values).map_err(perr)?));
                    key = repair.key();
                    kind = "repair";
                }
            }
        }
    }

    /// Checks one answer (see the module docs).
    fn check(&self, mode: Mode, answer: &str) -> Checked {
        match mode {
            Mode::Ir => self.check_ir(answer),
            _ => self.check_rtfs(answer),
        }
    }

    fn check_rtfs(&self, answer: &str) -> Checked {
        let src = match ccos_llm::extract_form(answer, "do") {
            Ok(x) => x.text,
            Err(e) => {
                return Checked::Invalid(vec![format!(
                    "error[extract]: {e}; answer with one complete (do ...) form and nothing else"
                )]);
            }
        };
        let forms = match rtfs::parse(&src) {
            Ok(f) => f,
            Err(e) => {
                let (l, c) = rtfs::line_col(&src, e.span.map_or(0, |s| s.start));
                let help = e
                    .help
                    .as_deref()
                    .map(|h| format!(" ({h})"))
                    .unwrap_or_default();
                return Checked::Invalid(vec![format!(
                    "plan:{l}:{c}: error[parse]: {}{help}",
                    e.message
                )]);
            }
        };
        let [form] = forms.as_slice() else {
            return Checked::Invalid(vec![format!(
                "expected exactly one (do ...) form, got {}",
                forms.len()
            )]);
        };
        let mut findings = vec![];
        check_forms(&src, form, &mut findings, 0);
        if !findings.is_empty() {
            return Checked::Invalid(findings);
        }
        self.finish(rtfs::pretty(&form.to_value(), PLAN_WIDTH), None)
    }

    fn check_ir(&self, answer: &str) -> Checked {
        let json = match ccos_llm::extract_json_object(answer) {
            Ok(j) => j,
            Err(e) => {
                return Checked::Invalid(vec![format!(
                    "error[extract]: {e}; answer with one JSON object {{\"steps\": [...]}} and nothing else"
                )]);
            }
        };
        let render = |es: Vec<crate::ir::IrError>| {
            Checked::Invalid(es.iter().take(MAX_FINDINGS).map(|e| e.render()).collect())
        };
        let ir = match PlanIr::from_json(&json) {
            Ok(ir) => ir,
            Err(es) => return render(es),
        };
        if let Err(es) = ir.check_structure() {
            return render(es);
        }
        let missing: Vec<String> = ir
            .capabilities()
            .into_iter()
            .filter(|c| !self.marketplace.contains(c))
            .collect();
        if !missing.is_empty() {
            let hints =
                DiscoveryHints::collect(&ir.capabilities(), &self.marketplace, &self.policy);
            let key = serde_json::to_string(&ir).unwrap_or_default();
            return Checked::Missing { hints, key };
        }
        let es = ir.check_catalog(&*self.marketplace);
        if !es.is_empty() {
            return render(es);
        }
        let compiled = match ir.compile() {
            Ok(c) => c,
            Err(es) => return render(es),
        };
        self.finish(compiled.rtfs, Some(ir))
    }

    /// Discovery hints, then preflight and governance of a candidate plan.
    fn finish(&self, rtfs_src: String, model_ir: Option<PlanIr>) -> Checked {
        let forms = match rtfs::parse(&rtfs_src) {
            Ok(f) => f,
            Err(e) => return Checked::Invalid(vec![format!("error[parse]: {}", e.message)]),
        };
        let named = hints::called_capabilities(&forms);
        if named.is_empty() {
            return Checked::Invalid(vec![
                "the plan calls no capability: use (call :capability.id ...) inside steps".into(),
            ]);
        }
        if named.iter().any(|c| !self.marketplace.contains(c)) {
            let hints = DiscoveryHints::collect(&named, &self.marketplace, &self.policy);
            return Checked::Missing {
                hints,
                key: rtfs_src,
            };
        }
        let report =
            match ccos_governance::preflight_str(&rtfs_src, &*self.marketplace, &self.policy) {
                Ok(r) => r,
                Err(e) => return Checked::Invalid(vec![format!("error[parse]: {}", e.message)]),
            };
        let mut errors: Vec<String> = report
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .map(|f| f.render("plan"))
            .collect();
        if errors.is_empty() && report.decision.is_denied() {
            errors = report
                .decision
                .reasons()
                .iter()
                .map(|r| format!("denied by policy: {r}"))
                .collect();
        }
        if !errors.is_empty() {
            errors.truncate(MAX_FINDINGS);
            return Checked::Invalid(errors);
        }
        let warnings = report.findings.iter().map(|f| f.render("plan")).collect();
        Checked::Valid {
            ir: canon::canonicalize_forms(&forms),
            rtfs: rtfs_src,
            model_ir,
            warnings,
        }
    }

    /// The capability list of the prompt: the best `top_k` of a search for
    /// the goal, denied ones left out, one line each.
    pub fn capability_list(&self, goal: &str) -> String {
        let k = self.options.top_k;
        let found = self.marketplace.search(goal, k * 2).unwrap_or_default();
        let mut lines = vec![];
        let mut seen = BTreeSet::new();
        for (id, _) in found {
            if lines.len() >= k || !seen.insert(id.clone()) {
                continue;
            }
            let Some(m) = self.marketplace.get(&id) else {
                continue;
            };
            if self.policy.decide_call(&m).is_denied() {
                continue;
            }
            lines.push(capability_line(&m));
        }
        if lines.is_empty() {
            "(no capability matches the goal)".into()
        } else {
            lines.join("\n")
        }
    }
}

/// At most this many findings are sent back in one repair prompt.
pub const MAX_FINDINGS: usize = 8;

/// Parameters shown per capability in the prompt.
const MAX_PARAMS: usize = 12;

/// One line of the prompt's capability list: `- :id {:key type ...} - description`.
pub fn capability_line(m: &CapabilityManifest) -> String {
    let ps = hints::params(m);
    let shown: Vec<String> = ps
        .iter()
        .take(MAX_PARAMS)
        .map(|p| {
            let ty = if p.values.is_empty() {
                p.ty.clone()
            } else {
                p.values
                    .iter()
                    .map(|v| format!("{v:?}"))
                    .collect::<Vec<_>>()
                    .join("|")
            };
            let opt = if p.required { "" } else { "?" };
            if m.is_positional() {
                format!("{}{opt}:{ty}", p.name)
            } else {
                format!(":{}{opt} {ty}", p.name)
            }
        })
        .collect();
    let more = if ps.len() > MAX_PARAMS { " ..." } else { "" };
    let args = if m.is_positional() {
        format!("[{}{more}]", shown.join(" "))
    } else {
        format!("{{{}{more}}}", shown.join(" "))
    };
    format!(
        "- :{} {args} - {}",
        m.id,
        hints::shorten(&m.description, 100)
    )
}

/// Checks the forms of a model's plan: only [`ALLOWED_FORMS`], plain data
/// and standard-library functions; literal capability ids.
fn check_forms(src: &str, e: &Expr, out: &mut Vec<String>, depth: usize) {
    if depth > 256 || out.len() >= MAX_FINDINGS {
        if depth > 256 && out.is_empty() {
            out.push("the plan is nested too deeply".into());
        }
        return;
    }
    let at = |e: &Expr| {
        let (l, c) = rtfs::line_col(src, e.span.start);
        format!("plan:{l}:{c}")
    };
    match &e.kind {
        ExprKind::List(items) => {
            match items.first().map(|h| &h.kind) {
                Some(ExprKind::Symbol(s)) => {
                    let s = &**s;
                    if s == "quote" {
                        return;
                    }
                    if ALLOWED_FORMS.contains(&s) {
                        if s == "call" {
                            match items.get(1).map(|a| &a.kind) {
                                Some(ExprKind::Keyword(_)) | Some(ExprKind::Str(_)) => {}
                                _ => out.push(format!(
                                    "{}: error[bad_form]: the capability id must be a literal keyword (write (call :capability.id args...))",
                                    at(e)
                                )),
                            }
                        }
                    } else if matches!(s, "fn" | "defn" | "def") {
                        out.push(format!(
                            "{}: error[form_not_allowed]: `{s}` is not allowed: plans may not define functions or globals (use let and steps)",
                            at(e)
                        ));
                    } else if rtfs::is_special_form(s) {
                        out.push(format!(
                            "{}: error[form_not_allowed]: `{s}` is not allowed; allowed forms: do step call let if step-parallel step-loop",
                            at(e)
                        ));
                    } else if rtfs::builtins::Builtin::from_name(s).is_none() {
                        let hint = rtfs::builtins::closest_name(s)
                            .map(|n| format!(" (did you mean {n}?)"))
                            .unwrap_or_default();
                        out.push(format!(
                            "{}: error[unknown_function]: `{s}` is not a standard function{hint}; only listed capabilities, through call, do anything",
                            at(e)
                        ));
                    }
                }
                Some(ExprKind::Keyword(_)) | None => {}
                Some(_) => out.push(format!(
                    "{}: error[bad_form]: a list must start with a form or function name",
                    at(e)
                )),
            }
            let skip = usize::from(matches!(
                items.first().map(|h| &h.kind),
                Some(ExprKind::Symbol(_))
            ));
            for i in items.iter().skip(skip) {
                check_forms(src, i, out, depth + 1);
            }
        }
        ExprKind::Symbol(s) if rtfs::is_special_form(s) => out.push(format!(
            "{}: error[form_not_allowed]: `{s}` may only start a form, not be used as a value",
            at(e)
        )),
        ExprKind::Vector(items) => {
            for i in items {
                check_forms(src, i, out, depth + 1);
            }
        }
        ExprKind::Map(entries) => {
            for (k, v) in entries {
                check_forms(src, k, out, depth + 1);
                check_forms(src, v, out, depth + 1);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_outside_the_contract_are_refused() {
        let check = |s: &str| {
            let f = rtfs::parse_one(s).unwrap();
            let mut out = vec![];
            check_forms(s, &f, &mut out, 0);
            out
        };
        assert!(
            check("(do (let [a (step \"x\" (call :a 1))] (if (> a 1) (str a) (get {:k 1} :k))))")
                .is_empty()
        );
        assert!(check("(do (defn f [] 1))")[0].contains("form_not_allowed"));
        assert!(check("(do (fn [x] x))")[0].contains("not allowed"));
        assert!(check("(do (eval \"x\"))")[0].contains("unknown_function"));
        assert!(check("(do (try 1))")[0].contains("allowed forms"));
        assert!(check("(do (call id 1))")[0].contains("literal keyword"));
        assert!(check("(do '(defn x))").is_empty());
        assert!(check("(do (apply call [:x 1]))")[0].contains("not be used as a value"));
    }

    #[test]
    fn capability_lines_show_the_calling_convention() {
        let mp = Marketplace::new().unwrap();
        ccos_marketplace::builtins::install(&mp, Default::default()).unwrap();
        let echo = capability_line(&mp.get("ccos.echo").unwrap());
        assert!(
            echo.starts_with("- :ccos.echo {:message string} - Echo"),
            "{echo}"
        );
        let add = capability_line(&mp.get("ccos.math.add").unwrap());
        assert!(
            add.starts_with("- :ccos.math.add [a:number b:number]"),
            "{add}"
        );
    }
}
