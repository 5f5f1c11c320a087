//! The goal suite (`ccos eval goals`): what people type, run end to end
//! through the real `ccos` binary, and classified as right / wrong /
//! requires-agent / error.
//!
//! The suite is `goals/dev.toml` and `goals/held-out.toml`; the format,
//! the comparison rules, the outcome table and what the runner sets up for
//! each goal are specified in `goals/README.md` and
//! `goals/fixtures/README.md`. This module holds the suite's data model
//! ([`Goal`], [`load_suite`]), the comparison rules ([`values_equal`],
//! [`matches_expected`]), the classification ([`classify`]) and the report
//! ([`summarize`], [`render_report`]); [`runner`] runs the goals (template
//! home, fixture server, MCP servers, processes, after-run checks).
//!
//! # Two readings of the README, stated
//!
//! - **Echoes of the goal do not name anything.** `ccos run` prints the
//!   goal back (the plan header on stderr, the first line of a
//!   requires-agent report). A `missing` term or an `error_match` pattern
//!   found only in that echo would make "the report names the unserved
//!   part" true for every report, so both are searched in stdout + stderr
//!   with every verbatim copy of the goal removed ([`without_goal_echo`]).
//! - **Naming without a `missing` list.** For goals that give no `missing`
//!   terms (servable goals the planner refused), a requires-agent report
//!   names the unserved part when, goal echoes removed, it still quotes a
//!   piece of the goal (`"..."`, as the report lists sub-intents).

pub mod runner;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use rtfs::Value;
use serde::{Deserialize, Serialize};

/// The two files of the suite, with the part each holds.
pub const SUITE_FILES: [(&str, &str); 2] = [("dev", "dev.toml"), ("held-out", "held-out.toml")];

/// The MCP servers a goal may need, under the names goals use.
pub const SERVERS: [&str; 5] = ["filesystem", "memory", "everything", "time", "git"];

/// The imported OpenAPI documents a goal may need.
pub const DOCUMENTS: [&str; 2] = ["tmdb", "github"];

/// The categories of `goals/README.md`, in its order (reports use it).
pub const CATEGORIES: [&str; 12] = [
    "builtins",
    "http",
    "filesystem",
    "memory",
    "everything",
    "time",
    "git",
    "tmdb",
    "github",
    "multi-clause",
    "requires-agent",
    "errors",
];

/// The per-goal timeout when a goal sets none.
pub const DEFAULT_TIMEOUT_S: u64 = 60;

/// The bars of issue #15: wrong answers at most this share of the goals.
pub const WRONG_MAX_PERCENT: f64 = 1.0;
/// The bars of issue #15: at least this share of servable goals right.
pub const RIGHT_MIN_PERCENT: f64 = 85.0;

/// Why the suite could not be loaded or run (the harness failed, not a
/// goal: a goal's failures are outcomes).
#[derive(Debug, thiserror::Error)]
pub enum GoalsError {
    /// A suite or fixture file could not be read.
    #[error("reading {path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        message: String,
    },
    /// A suite file is malformed (the message names the goal).
    #[error("{path}: {message}")]
    Suite {
        /// The file.
        path: PathBuf,
        /// What is wrong, naming the goal id.
        message: String,
    },
    /// Setting the run up failed.
    #[error("{0}")]
    Setup(String),
}

/// One file of expectations for a path: one content or alternatives.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum FileContent {
    /// Exactly this content.
    One(String),
    /// Any of these.
    Any(Vec<String>),
}

impl FileContent {
    /// The accepted contents.
    pub fn alternatives(&self) -> Vec<&str> {
        match self {
            FileContent::One(s) => vec![s.as_str()],
            FileContent::Any(v) => v.iter().map(String::as_str).collect(),
        }
    }
}

/// A check of the memory server's graph after the run (README,
/// "`memory_check`").
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MemoryCheck {
    /// `[S, X]`: entity S exists and X is in one of its observations, or
    /// a relation of S links it to an entity whose name contains X, or has
    /// a type containing X.
    Fact(Vec<String>),
    /// An entity with this name exists.
    Entity(String),
    /// No entity and no relation from or to this name.
    Absent(String),
    /// Appears in some name, type, observation or relation field.
    Mentions(String),
}

/// A check of the goal's git repository after the run (README,
/// "`git_check`").
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GitCheck {
    /// `refs/heads/B` exists.
    BranchExists(String),
    /// HEAD is this branch.
    HeadBranch(String),
    /// Each path is staged.
    Staged(Vec<String>),
    /// The HEAD commit's message, trimmed.
    HeadMessage(String),
    /// HEAD's tree contains this path.
    HeadTreeHas(String),
}

/// One goal of the suite, as `goals/README.md` ("Format") defines it.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Goal {
    /// Unique, stable id (`prefix-NN`).
    pub id: String,
    /// `dev` or `held-out`.
    pub part: String,
    /// One of [`CATEGORIES`].
    pub category: String,
    /// Free labels.
    #[serde(default)]
    pub tags: Vec<String>,
    /// The text given to `ccos run` (placeholders substituted).
    pub goal: String,
    /// Servers and documents the goal is about.
    #[serde(default)]
    pub needs: Vec<String>,
    /// Configured too, not needed.
    #[serde(default)]
    pub distractors: Vec<String>,
    /// A printed RTFS value, `*`, `requires-agent` or `error`.
    pub expect: String,
    /// Printed RTFS values that are right too.
    #[serde(default)]
    pub also_right: Vec<String>,
    /// A regex searched in the printed value (and its unwrapped forms).
    pub expect_match: Option<String>,
    /// Substrings the printed value must contain.
    #[serde(default)]
    pub expect_contains: Vec<String>,
    /// Substrings the printed value must not contain.
    #[serde(default)]
    pub expect_not_contains: Vec<String>,
    /// For requires-agent: the report names one of these.
    #[serde(default)]
    pub missing: Vec<String>,
    /// For error: regex searched case-insensitively in the output.
    pub error_match: Option<String>,
    /// Answers to `ccos.user.ask`, in plan order.
    #[serde(default)]
    pub answers: Vec<String>,
    /// Pass `--yes`.
    #[serde(default)]
    pub approve: bool,
    /// Start the memory server with `fixtures/memory.jsonl`.
    #[serde(default)]
    pub memory_seed: bool,
    /// Files of the workspace after the run.
    #[serde(default)]
    pub files: BTreeMap<String, FileContent>,
    /// Paths that must not exist after the run.
    #[serde(default)]
    pub files_absent: Vec<String>,
    /// Directories that must exist after the run.
    #[serde(default)]
    pub dirs: Vec<String>,
    /// Checks of the memory graph.
    #[serde(default)]
    pub memory_check: Vec<MemoryCheck>,
    /// Checks of the repository.
    #[serde(default)]
    pub git_check: Vec<GitCheck>,
    /// The run takes at least this long.
    pub min_elapsed_ms: Option<u64>,
    /// Per-goal timeout in seconds (default [`DEFAULT_TIMEOUT_S`]).
    pub timeout_s: Option<u64>,
    /// Why this is the expectation.
    pub note: Option<String>,
}

/// What a goal expects: a value (servable), a requires-agent report, or
/// an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A value (`expect` is a printed value or `*`).
    Value,
    /// `expect = "requires-agent"`.
    RequiresAgent,
    /// `expect = "error"`.
    Error,
}

impl Kind {
    /// `value`, `requires-agent`, `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Value => "value",
            Kind::RequiresAgent => "requires-agent",
            Kind::Error => "error",
        }
    }
}

impl Goal {
    /// The goal's kind, from `expect`.
    pub fn kind(&self) -> Kind {
        match self.expect.as_str() {
            "requires-agent" => Kind::RequiresAgent,
            "error" => Kind::Error,
            _ => Kind::Value,
        }
    }

    /// Servers and documents to configure: `needs` then `distractors`,
    /// without repeats, in [`SERVERS`] then [`DOCUMENTS`] order.
    pub fn sources(&self) -> Vec<&'static str> {
        SERVERS
            .iter()
            .chain(DOCUMENTS.iter())
            .filter(|s| self.needs.iter().chain(&self.distractors).any(|n| n == *s))
            .copied()
            .collect()
    }

    /// The per-goal timeout.
    pub fn timeout(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.timeout_s.unwrap_or(DEFAULT_TIMEOUT_S))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SuiteFile {
    #[serde(default)]
    goal: Vec<Goal>,
}

/// Reads and checks both suite files of `goals_dir` (`goals/`): every goal
/// parses, ids are unique across both files, each goal's `part` is its
/// file's, every expectation parses as RTFS, every regex compiles, every
/// `needs` / `distractors` name is known. Goals are returned dev first,
/// each file in its order.
pub fn load_suite(goals_dir: &Path) -> Result<Vec<Goal>, GoalsError> {
    let mut out: Vec<Goal> = vec![];
    let mut seen = BTreeSet::new();
    for (part, file) in SUITE_FILES {
        let path = goals_dir.join(file);
        let text = std::fs::read_to_string(&path).map_err(|e| GoalsError::Io {
            path: path.clone(),
            message: e.to_string(),
        })?;
        let suite: SuiteFile = toml::from_str(&text).map_err(|e| GoalsError::Suite {
            path: path.clone(),
            message: e.to_string(),
        })?;
        for g in suite.goal {
            let bad = |message: String| GoalsError::Suite {
                path: path.clone(),
                message: format!("goal {}: {message}", g.id),
            };
            if !seen.insert(g.id.clone()) {
                return Err(bad("duplicate id".into()));
            }
            if g.part != part {
                return Err(bad(format!("part {:?} in the {part} file", g.part)));
            }
            check_goal(&g).map_err(bad)?;
            out.push(g);
        }
    }
    Ok(out)
}

/// The checks of [`load_suite`] on one goal.
fn check_goal(g: &Goal) -> Result<(), String> {
    for n in g.needs.iter().chain(&g.distractors) {
        if !SERVERS.contains(&n.as_str()) && !DOCUMENTS.contains(&n.as_str()) {
            return Err(format!("unknown server or document {n:?}"));
        }
    }
    if g.kind() == Kind::Value && g.expect != "*" {
        parse_expected(&g.expect).map_err(|e| format!("expect: {e}"))?;
    }
    for a in &g.also_right {
        parse_expected(a).map_err(|e| format!("also_right {a:?}: {e}"))?;
    }
    // Regexes compile once their placeholders are replaced.
    let ph = Placeholders {
        port: 1,
        repo: "/r".into(),
        workspace: "/w".into(),
        today_utc: "2000-01-01".into(),
    };
    if let Some(m) = &g.expect_match {
        regex::Regex::new(&ph.apply(m, true)).map_err(|e| format!("expect_match: {e}"))?;
    }
    if let Some(m) = &g.error_match {
        error_regex(&ph.apply(m, true)).map_err(|e| format!("error_match: {e}"))?;
    }
    for c in &g.memory_check {
        if let MemoryCheck::Fact(v) = c
            && v.len() != 2
        {
            return Err(format!("memory_check fact needs [S, X], got {v:?}"));
        }
    }
    Ok(())
}

/// `error_match` as a case-insensitive regex.
fn error_regex(m: &str) -> Result<regex::Regex, regex::Error> {
    regex::RegexBuilder::new(m).case_insensitive(true).build()
}

/// Which part of the suite to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SuitePart {
    /// `dev.toml`.
    Dev,
    /// `held-out.toml`.
    HeldOut,
    /// Both.
    All,
}

impl SuitePart {
    /// Whether a goal of part `part` (`dev` / `held-out`) is selected.
    pub fn contains(self, part: &str) -> bool {
        match self {
            SuitePart::Dev => part == "dev",
            SuitePart::HeldOut => part == "held-out",
            SuitePart::All => true,
        }
    }
}

/// The goals of `part` whose id equals or starts with one of `only` (all
/// of the part when `only` is empty), in suite order.
pub fn select<'a>(goals: &'a [Goal], part: SuitePart, only: &[String]) -> Vec<&'a Goal> {
    goals
        .iter()
        .filter(|g| part.contains(&g.part))
        .filter(|g| only.is_empty() || only.iter().any(|o| g.id.starts_with(o.as_str())))
        .collect()
}

// --------------------------------------------------------------------------
// Comparison (README, "Printed values and how they compare")
// --------------------------------------------------------------------------

/// Parses a printed RTFS value of the suite (`expect`, `also_right`).
pub fn parse_expected(text: &str) -> Result<Value, String> {
    let expr = rtfs::parse_one(text).map_err(|e| e.to_string())?;
    if !expr.is_constant() {
        return Err(format!("{text:?} is not a literal value"));
    }
    Ok(expr.to_value())
}

/// Numbers compare numerically: integers exactly, otherwise within a
/// relative tolerance of 1e-9 (`max(1, |a|, |b|) * 1e-9`).
fn numbers_equal(a: &Value, b: &Value) -> Option<bool> {
    let f = |v: &Value| match v {
        Value::Int(i) => Some(*i as f64),
        Value::Float(x) => Some(*x),
        _ => None,
    };
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => Some(x == y),
        _ => {
            let (x, y) = (f(a)?, f(b)?);
            Some((x - y).abs() <= x.abs().max(y.abs()).max(1.0) * 1e-9)
        }
    }
}

/// A map key as the comparison sees it: keywords and strings of the same
/// name are one key; other keys by their printed form.
fn key_name(k: &Value) -> String {
    match k {
        Value::Keyword(s) | Value::Str(s) => s.to_string(),
        other => format!("\u{0}{}", rtfs::print_value(other)),
    }
}

/// The suite's value equality: numbers numerically, strings exactly,
/// lists and vectors element by element (a list equals a vector), maps by
/// their keys (keyword = string of the same name) and values; `nil`,
/// booleans, keywords and symbols exactly.
pub fn values_equal(a: &Value, b: &Value) -> bool {
    if let Some(eq) = numbers_equal(a, b) {
        return eq;
    }
    match (a, b) {
        (Value::Nil, Value::Nil) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Str(x), Value::Str(y))
        | (Value::Keyword(x), Value::Keyword(y))
        | (Value::Symbol(x), Value::Symbol(y)) => x == y,
        (Value::List(x) | Value::Vector(x), Value::List(y) | Value::Vector(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| values_equal(p, q))
        }
        (Value::Map(x), Value::Map(y)) => {
            let nx: BTreeMap<String, &Value> = x.iter().map(|(k, v)| (key_name(k), v)).collect();
            let ny: BTreeMap<String, &Value> = y.iter().map(|(k, v)| (key_name(k), v)).collect();
            nx.len() == x.len()
                && ny.len() == y.len()
                && nx.len() == ny.len()
                && nx
                    .iter()
                    .all(|(k, v)| ny.get(k).is_some_and(|w| values_equal(v, w)))
        }
        _ => false,
    }
}

/// One unwrapping step (README, "Unwrapping"): an HTTP response map
/// (exactly `:status :headers :body`) → its body; a single-entry map → its
/// value; a one-element vector or list → the element.
pub fn unwrap_once(v: &Value) -> Option<Value> {
    match v {
        Value::Map(m) => {
            let names: BTreeSet<String> = m.keys().map(key_name).collect();
            if m.len() == 3
                && names == BTreeSet::from(["body".into(), "headers".into(), "status".into()])
            {
                return m
                    .iter()
                    .find(|(k, _)| key_name(k) == "body")
                    .map(|(_, b)| b.clone());
            }
            if m.len() == 1 {
                return m.values().next().cloned();
            }
            None
        }
        Value::List(items) | Value::Vector(items) if items.len() == 1 => items.first().cloned(),
        _ => None,
    }
}

/// `v` and its unwrapped forms, up to 3 levels.
pub fn unwrapped_forms(v: &Value) -> Vec<Value> {
    let mut out = vec![v.clone()];
    for _ in 0..3 {
        let Some(next) = out.last().and_then(unwrap_once) else {
            break;
        };
        out.push(next);
    }
    out
}

/// Whether `v`, or one of its unwrapped forms, equals `expected`.
pub fn matches_expected(v: &Value, expected: &Value) -> bool {
    unwrapped_forms(v).iter().any(|f| values_equal(f, expected))
}

// --------------------------------------------------------------------------
// Placeholders
// --------------------------------------------------------------------------

/// The values of the README's placeholders for one goal.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Placeholders {
    /// Port of the loopback fixture server.
    pub port: u16,
    /// Absolute path of the goal's git repository.
    pub repo: String,
    /// Canonical absolute path of the goal's workspace copy.
    pub workspace: String,
    /// Today in UTC, `YYYY-MM-DD`, taken when the goal starts.
    pub today_utc: String,
}

impl Placeholders {
    /// `text` with `{port}`, `{repo}`, `{workspace}`, `{today_utc}`
    /// replaced; `escape` quotes the values for a regex.
    pub fn apply(&self, text: &str, escape: bool) -> String {
        let q = |s: &str| {
            if escape {
                regex::escape(s)
            } else {
                s.to_string()
            }
        };
        text.replace("{port}", &q(&self.port.to_string()))
            .replace("{repo}", &q(&self.repo))
            .replace("{workspace}", &q(&self.workspace))
            .replace("{today_utc}", &q(&self.today_utc))
    }
}

// --------------------------------------------------------------------------
// Classification (README, "Outcomes")
// --------------------------------------------------------------------------

/// How a goal ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// The expected answer (or the expected refusal or error).
    Right,
    /// Exit 0 with a value that is not the answer (or failed checks).
    Wrong,
    /// Exit 4 where another outcome was right.
    RequiresAgent,
    /// Any other exit, a timeout, a crash, a goal that could not be set up.
    Error,
}

impl Outcome {
    /// `right`, `wrong`, `requires-agent`, `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Right => "right",
            Outcome::Wrong => "wrong",
            Outcome::RequiresAgent => "requires-agent",
            Outcome::Error => "error",
        }
    }
}

/// How the `ccos run` process ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Exited with this code.
    Exited(i32),
    /// Killed by this signal.
    Signaled(i32),
    /// Did not finish within the timeout (killed).
    TimedOut,
    /// Never ran: the goal could not be set up (reason).
    NotRun(String),
}

/// What the runner observed of one goal's run.
#[derive(Debug, Clone, PartialEq)]
pub struct Observed {
    /// How the process ended.
    pub status: Status,
    /// Its standard output.
    pub stdout: String,
    /// Its standard error.
    pub stderr: String,
    /// Wall time of the run, in milliseconds.
    pub elapsed_ms: u64,
    /// Failures of the after-run checks (`files`, `files_absent`, `dirs`,
    /// `memory_check`, `git_check`), one message each.
    pub check_failures: Vec<String>,
}

/// A classified goal.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Classified {
    /// The outcome.
    pub outcome: Outcome,
    /// The printed value, when the run exited 0 with one.
    pub value: Option<String>,
    /// Why it is not right (or why it is an error), when it is not.
    pub reason: Option<String>,
    /// For requires-agent outcomes: whether the report names the
    /// unserved part (see the module docs).
    pub named: Option<bool>,
}

/// `text` with every verbatim copy of `goal` removed (raw, and quoted as
/// the planner prints it), so that echoes of the user's words do not
/// count as naming anything.
pub fn without_goal_echo(text: &str, goal: &str) -> String {
    let goal = goal.trim();
    if goal.is_empty() {
        return text.to_string();
    }
    text.replace(&format!("{goal:?}"), "\"\"").replace(goal, "")
}

/// Whether the requires-agent report in `output` names the unserved
/// part: one of `missing` (case-insensitive), or without `missing`, a
/// quoted piece of the goal (see the module docs). Goal echoes removed.
pub fn report_names_part(output: &str, goal: &str, missing: &[String]) -> bool {
    let cleaned = without_goal_echo(output, goal).to_lowercase();
    if !missing.is_empty() {
        return missing
            .iter()
            .any(|m| !m.is_empty() && cleaned.contains(&m.to_lowercase()));
    }
    let goal_lc = goal.to_lowercase();
    quoted_strings(&cleaned)
        .iter()
        .any(|q| q.chars().any(char::is_alphanumeric) && goal_lc.contains(q.as_str()))
}

/// The contents of the double-quoted strings of `text` (backslash escapes
/// kept as written, quotes inside escaped).
fn quoted_strings(text: &str) -> Vec<String> {
    let mut out = vec![];
    let mut cur: Option<String> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (&mut cur, c) {
            (None, '"') => cur = Some(String::new()),
            (Some(s), '\\') => {
                if let Some(n) = chars.next() {
                    s.push(n);
                }
            }
            (Some(_), '"') => {
                if let Some(s) = cur.take() {
                    out.push(s);
                }
            }
            (Some(s), c) => s.push(c),
            (None, _) => {}
        }
    }
    out
}

/// Whether the output shows a crash: a panic, a "planner bug", a signal
/// or a timeout.
fn is_crash(obs: &Observed) -> bool {
    matches!(obs.status, Status::Signaled(_) | Status::TimedOut)
        || obs.stderr.contains("panicked at")
        || obs.stdout.to_lowercase().contains("planner bug")
        || obs.stderr.to_lowercase().contains("planner bug")
}

/// The value printed by `ccos run --json` on exit 0 (`{"value": ...}`),
/// converted back to RTFS as `ccos run` would print it.
pub fn value_of_output(stdout: &str) -> Result<Value, String> {
    let j: serde_json::Value = serde_json::from_str(stdout.trim())
        .map_err(|e| format!("the output is not the JSON of `ccos run --json`: {e}"))?;
    let v = j
        .get("value")
        .ok_or_else(|| "the JSON output has no \"value\"".to_string())?;
    Ok(rtfs::from_json(v))
}

/// Whether the printed value `v` matches one of `also_right`.
fn matches_also_right(goal: &Goal, v: &Value) -> bool {
    goal.also_right
        .iter()
        .filter_map(|a| parse_expected(a).ok())
        .any(|e| matches_expected(v, &e))
}

/// Why a value of a `value` goal is not right (`None` when it is):
/// `expect` / `also_right`, then `expect_match`, `expect_contains`,
/// `expect_not_contains`, `min_elapsed_ms` and the after-run checks.
fn value_failures(goal: &Goal, ph: &Placeholders, v: &Value, obs: &Observed) -> Vec<String> {
    let mut why = vec![];
    let printed = rtfs::print_value(v);
    let expected_ok = goal.expect == "*"
        || parse_expected(&goal.expect).is_ok_and(|e| matches_expected(v, &e))
        || matches_also_right(goal, v);
    if !expected_ok {
        why.push(format!("expected {}", goal.expect));
    }
    if let Some(m) = &goal.expect_match {
        let re = regex::Regex::new(&ph.apply(m, true));
        let hit = re.is_ok_and(|re| {
            unwrapped_forms(v)
                .iter()
                .any(|f| re.is_match(&rtfs::print_value(f)))
        });
        if !hit {
            why.push(format!("does not match /{}/", ph.apply(m, false)));
        }
    }
    for c in &goal.expect_contains {
        let c = ph.apply(c, false);
        if !printed.contains(&c) {
            why.push(format!("does not contain {c:?}"));
        }
    }
    for c in &goal.expect_not_contains {
        let c = ph.apply(c, false);
        if printed.contains(&c) {
            why.push(format!("contains {c:?}"));
        }
    }
    if let Some(min) = goal.min_elapsed_ms
        && obs.elapsed_ms < min
    {
        why.push(format!(
            "took {} ms, at least {min} ms expected",
            obs.elapsed_ms
        ));
    }
    why.extend(obs.check_failures.iter().cloned());
    why
}

/// Classifies one goal's run by the README's outcome table.
///
/// | kind | exit 0 | exit 4 | other exit, timeout, crash |
/// |---|---|---|---|
/// | value | right if the value and every check pass, else wrong | requires-agent | error |
/// | requires-agent | right if an `also_right` matches, else wrong | right (named if a `missing` term is in the report) | error |
/// | error | right if an `also_right` matches, else wrong | right if `error_match` matches, else requires-agent | right if `error_match` matches and no crash, else error |
pub fn classify(goal: &Goal, ph: &Placeholders, obs: &Observed) -> Classified {
    let kind = goal.kind();
    let goal_text = ph.apply(&goal.goal, false);
    let output = format!("{}\n{}", obs.stdout, obs.stderr);
    let mk = |outcome, value: Option<String>, reason: Option<String>, named| Classified {
        outcome,
        value,
        reason,
        named,
    };
    // A requires-agent answer is judged on its report (stderr): `run
    // --json` also prints the result with its trace, which quotes the goal.
    let judged = if matches!(obs.status, Status::Exited(4)) {
        obs.stderr.as_str()
    } else {
        output.as_str()
    };
    let error_matches = || {
        goal.error_match.as_deref().is_some_and(|m| {
            error_regex(&ph.apply(m, true))
                .is_ok_and(|re| re.is_match(&without_goal_echo(judged, &goal_text)))
        })
    };
    match &obs.status {
        Status::NotRun(why) => mk(Outcome::Error, None, Some(why.clone()), None),
        Status::Exited(0) => {
            let v = match value_of_output(&obs.stdout) {
                Ok(v) => v,
                Err(e) => return mk(Outcome::Error, None, Some(e), None),
            };
            let printed = Some(rtfs::print_value(&v));
            match kind {
                Kind::Value => {
                    let why = value_failures(goal, ph, &v, obs);
                    if why.is_empty() {
                        mk(Outcome::Right, printed, None, None)
                    } else {
                        mk(Outcome::Wrong, printed, Some(why.join("; ")), None)
                    }
                }
                Kind::RequiresAgent | Kind::Error => {
                    if matches_also_right(goal, &v) {
                        mk(Outcome::Right, printed, None, None)
                    } else {
                        let want = if kind == Kind::Error {
                            "an error"
                        } else {
                            "requires-agent"
                        };
                        mk(
                            Outcome::Wrong,
                            printed,
                            Some(format!("expected {want}, got a value")),
                            None,
                        )
                    }
                }
            }
        }
        Status::Exited(4) => {
            let named = report_names_part(judged, &goal_text, &goal.missing);
            match kind {
                Kind::Value => mk(
                    Outcome::RequiresAgent,
                    None,
                    Some("requires-agent on a servable goal".into()),
                    Some(named),
                ),
                Kind::RequiresAgent => mk(
                    Outcome::Right,
                    None,
                    (!named).then(|| "the report names none of `missing`".to_string()),
                    Some(named),
                ),
                Kind::Error if error_matches() => mk(Outcome::Right, None, None, None),
                Kind::Error => mk(
                    Outcome::RequiresAgent,
                    None,
                    Some("requires-agent; the output does not match error_match".into()),
                    Some(named),
                ),
            }
        }
        status => {
            let how = match status {
                Status::Exited(c) => format!("exit {c}"),
                Status::Signaled(s) => format!("killed by signal {s}"),
                Status::TimedOut => format!("timed out after {} s", goal.timeout().as_secs()),
                Status::NotRun(_) => String::new(),
            };
            let crash = is_crash(obs);
            if kind == Kind::Error && !crash && error_matches() {
                return mk(Outcome::Right, None, None, None);
            }
            let detail = last_error_line(obs);
            let reason = match (crash, kind) {
                (true, _) => format!("{how}, a crash: {detail}"),
                (false, Kind::Error) => {
                    format!("{how}; the output does not match error_match: {detail}")
                }
                (false, _) => format!("{how}: {detail}"),
            };
            mk(Outcome::Error, None, Some(reason), None)
        }
    }
}

/// The most telling line of a failed run: the JSON `error`, else the last
/// `error`/`panicked` line of stderr, else its last line.
fn last_error_line(obs: &Observed) -> String {
    if let Ok(j) = serde_json::from_str::<serde_json::Value>(obs.stdout.trim())
        && let Some(e) = j.get("error").and_then(|e| e.as_str())
    {
        return shorten(e, 300);
    }
    let lines: Vec<&str> = obs
        .stderr
        .lines()
        .filter(|l| !l.trim().is_empty())
        .collect();
    let pick = lines
        .iter()
        .rev()
        .find(|l| {
            let l = l.to_lowercase();
            l.contains("error") || l.contains("panicked") || l.contains("denied")
        })
        .or(lines.last())
        .copied()
        .unwrap_or("");
    shorten(pick.trim(), 300)
}

/// `s` cut to at most `n` characters (with `…`).
pub fn shorten(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        return s.to_string();
    }
    let mut out: String = s.chars().take(n).collect();
    out.push('…');
    out
}

// --------------------------------------------------------------------------
// The report
// --------------------------------------------------------------------------

/// One goal's result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GoalResult {
    /// The goal's id.
    pub id: String,
    /// `dev` or `held-out`.
    pub part: String,
    /// Its category.
    pub category: String,
    /// Its kind.
    pub kind: Kind,
    /// The goal as run (placeholders substituted).
    pub goal: String,
    /// What it expected (`expect`).
    pub expect: String,
    /// The classification.
    #[serde(flatten)]
    pub classified: Classified,
    /// How the process ended.
    pub status: Status,
    /// Seconds of the run (setup and checks excluded).
    pub seconds: f64,
    /// The end of stderr (the plan, the requires-agent report, errors),
    /// for outcomes other than right.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stderr_tail: Option<String>,
}

/// Counts of the four outcomes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Goals counted.
    pub goals: usize,
    /// Right.
    pub right: usize,
    /// Wrong.
    pub wrong: usize,
    /// Requires-agent (where it was not the right outcome).
    pub requires_agent: usize,
    /// Error.
    pub error: usize,
}

impl Counts {
    fn add(&mut self, o: Outcome) {
        self.goals += 1;
        match o {
            Outcome::Right => self.right += 1,
            Outcome::Wrong => self.wrong += 1,
            Outcome::RequiresAgent => self.requires_agent += 1,
            Outcome::Error => self.error += 1,
        }
    }
}

/// A wrong goal, by id, with the value it printed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WrongGoal {
    /// The goal's id.
    pub id: String,
    /// The goal.
    pub goal: String,
    /// The printed value.
    pub value: Option<String>,
    /// Why it is wrong.
    pub reason: Option<String>,
}

/// The bars of issue #15 on one part.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bars {
    /// Wrong goals, percent of the part's goals.
    pub wrong_percent: Option<f64>,
    /// At most [`WRONG_MAX_PERCENT`].
    pub wrong_met: bool,
    /// Servable (`value`) goals.
    pub servable: usize,
    /// Servable goals right.
    pub servable_right: usize,
    /// Right, percent of the servable goals.
    pub right_percent: Option<f64>,
    /// At least [`RIGHT_MIN_PERCENT`].
    pub right_met: bool,
    /// Requires-agent outcomes (every kind).
    pub requires_agent_reports: usize,
    /// Those whose report names the unserved part.
    pub requires_agent_named: usize,
    /// Every requires-agent report names the unserved part.
    pub named_met: bool,
}

/// The figures of one part (`dev`, `held-out` or `all`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PartSummary {
    /// `dev`, `held-out` or `all`.
    pub part: String,
    /// Every goal of the part.
    pub total: Counts,
    /// By kind (`value`, `requires-agent`, `error`).
    pub by_kind: BTreeMap<String, Counts>,
    /// By category.
    pub by_category: BTreeMap<String, Counts>,
    /// The wrong goals, in suite order.
    pub wrong: Vec<WrongGoal>,
    /// The error goals, `(id, reason)`, in suite order.
    pub errors: Vec<(String, String)>,
    /// Requires-agent outcomes whose report does not name the part.
    pub unnamed: Vec<String>,
    /// The bars.
    pub bars: Bars,
}

/// The whole run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GoalsReport {
    /// The part selected.
    pub part: SuitePart,
    /// `--only` filters.
    pub only: Vec<String>,
    /// Goals run in parallel.
    pub jobs: usize,
    /// The binary was built with the `semantic` feature (semantic
    /// resolution when the embedding model is found); otherwise lexical.
    pub semantic_build: bool,
    /// Seconds to build the template home (servers discovered, documents
    /// imported).
    pub setup_seconds: f64,
    /// Wall seconds of the whole suite, setup included.
    pub wall_seconds: f64,
    /// Servers or documents that could not be set up, with the reason
    /// (their goals are errors).
    pub unavailable: BTreeMap<String, String>,
    /// The run directory, when kept (`--keep`): `template/` and
    /// `goals/<id>/{home,workspace,repo}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kept: Option<String>,
    /// Per part: dev, held-out, all (the ones with goals selected; `all`
    /// when both parts are).
    pub parts: Vec<PartSummary>,
    /// Every goal, in suite order.
    pub goals: Vec<GoalResult>,
}

fn percent(n: usize, d: usize) -> Option<f64> {
    (d > 0).then(|| 100.0 * n as f64 / d as f64)
}

/// The summary of `results` under the name `part`.
pub fn summarize(part: &str, results: &[&GoalResult]) -> PartSummary {
    let mut total = Counts::default();
    let mut by_kind: BTreeMap<String, Counts> = BTreeMap::new();
    let mut by_category: BTreeMap<String, Counts> = BTreeMap::new();
    let mut wrong = vec![];
    let mut errors = vec![];
    let mut unnamed = vec![];
    let (mut servable, mut servable_right, mut ra, mut ra_named) = (0, 0, 0, 0);
    for r in results {
        let o = r.classified.outcome;
        total.add(o);
        by_kind.entry(r.kind.as_str().into()).or_default().add(o);
        by_category.entry(r.category.clone()).or_default().add(o);
        if r.kind == Kind::Value {
            servable += 1;
            servable_right += usize::from(o == Outcome::Right);
        }
        match o {
            Outcome::Wrong => wrong.push(WrongGoal {
                id: r.id.clone(),
                goal: r.goal.clone(),
                value: r.classified.value.clone(),
                reason: r.classified.reason.clone(),
            }),
            Outcome::Error => errors.push((
                r.id.clone(),
                r.classified.reason.clone().unwrap_or_default(),
            )),
            _ => {}
        }
        if let Some(named) = r.classified.named {
            ra += 1;
            if named {
                ra_named += 1;
            } else {
                unnamed.push(r.id.clone());
            }
        }
    }
    let wrong_percent = percent(total.wrong, total.goals);
    let right_percent = percent(servable_right, servable);
    PartSummary {
        part: part.to_string(),
        total,
        by_kind,
        by_category,
        wrong,
        errors,
        unnamed,
        bars: Bars {
            wrong_percent,
            wrong_met: wrong_percent.is_none_or(|p| p <= WRONG_MAX_PERCENT),
            servable,
            servable_right,
            right_percent,
            right_met: right_percent.is_none_or(|p| p >= RIGHT_MIN_PERCENT),
            requires_agent_reports: ra,
            requires_agent_named: ra_named,
            named_met: ra_named == ra,
        },
    }
}

/// The part summaries of a run: each part with selected goals, then
/// `all` when both are.
pub fn summaries(results: &[GoalResult]) -> Vec<PartSummary> {
    let mut out = vec![];
    let mut parts_seen = 0;
    for (part, _) in SUITE_FILES {
        let rs: Vec<&GoalResult> = results.iter().filter(|r| r.part == part).collect();
        if !rs.is_empty() {
            parts_seen += 1;
            out.push(summarize(part, &rs));
        }
    }
    if parts_seen > 1 {
        out.push(summarize("all", &results.iter().collect::<Vec<_>>()));
    }
    out
}

/// The ids of the wrong goals of a run, in suite order (what
/// `ccos eval goals --strict` fails on).
pub fn wrong_ids(r: &GoalsReport) -> Vec<String> {
    r.goals
        .iter()
        .filter(|g| g.classified.outcome == Outcome::Wrong)
        .map(|g| g.id.clone())
        .collect()
}

fn pct(p: Option<f64>) -> String {
    p.map(|p| format!("{p:.1} %"))
        .unwrap_or_else(|| "n/a".into())
}

fn met(b: bool) -> &'static str {
    if b { "met" } else { "NOT met" }
}

fn counts_row(s: &mut String, label: &str, c: &Counts) {
    let _ = writeln!(
        s,
        "  {label:<26} {:>5} {:>6} {:>6} {:>9} {:>6}",
        c.goals, c.right, c.wrong, c.requires_agent, c.error
    );
}

/// The report as text: per part, the counts by kind and by category, the
/// wrong goals with their values, the errors, the requires-agent reports
/// that name the part, and the bars marked met or not.
pub fn render_report(r: &GoalsReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "goal suite: {} goals, {} build, {} job(s), setup {:.1} s, wall {:.1} s",
        r.goals.len(),
        if r.semantic_build {
            "semantic"
        } else {
            "lexical"
        },
        r.jobs,
        r.setup_seconds,
        r.wall_seconds
    );
    for (name, why) in &r.unavailable {
        let _ = writeln!(s, "unavailable: {name}: {why}");
    }
    if let Some(k) = &r.kept {
        let _ = writeln!(s, "run directory kept: {k}");
    }
    for p in &r.parts {
        let _ = writeln!(s, "\n== {} ({} goals) ==", p.part, p.total.goals);
        let _ = writeln!(
            s,
            "  {:<26} {:>5} {:>6} {:>6} {:>9} {:>6}",
            "", "goals", "right", "wrong", "req-agent", "error"
        );
        counts_row(&mut s, "total", &p.total);
        for k in [Kind::Value, Kind::RequiresAgent, Kind::Error] {
            if let Some(c) = p.by_kind.get(k.as_str()) {
                counts_row(&mut s, &format!("kind {}", k.as_str()), c);
            }
        }
        let mut cats: Vec<&String> = p.by_category.keys().collect();
        cats.sort_by_key(|c| {
            (
                CATEGORIES
                    .iter()
                    .position(|k| k == c)
                    .unwrap_or(CATEGORIES.len()),
                c.as_str(),
            )
        });
        for c in cats {
            if let Some(n) = p.by_category.get(c) {
                counts_row(&mut s, c, n);
            }
        }
        let b = &p.bars;
        let _ = writeln!(
            s,
            "  bars: wrong {} of {} goals (<= {WRONG_MAX_PERCENT} %): {}; right {} of {} servable ({}/{}, >= {RIGHT_MIN_PERCENT} %): {}; requires-agent reports naming the part {}/{}: {}",
            pct(b.wrong_percent),
            p.total.goals,
            met(b.wrong_met),
            pct(b.right_percent),
            b.servable,
            b.servable_right,
            b.servable,
            met(b.right_met),
            b.requires_agent_named,
            b.requires_agent_reports,
            met(b.named_met)
        );
        if p.part == "all" {
            continue;
        }
        if !p.wrong.is_empty() {
            let _ = writeln!(s, "  wrong ({}):", p.wrong.len());
            for w in &p.wrong {
                let _ = writeln!(
                    s,
                    "    {:<12} {:?} printed {} ({})",
                    w.id,
                    w.goal,
                    shorten(w.value.as_deref().unwrap_or("-"), 160),
                    w.reason.as_deref().unwrap_or("")
                );
            }
        }
        if !p.errors.is_empty() {
            let _ = writeln!(s, "  errors ({}):", p.errors.len());
            for (id, why) in &p.errors {
                let _ = writeln!(s, "    {id:<12} {}", shorten(why, 200));
            }
        }
        if !p.unnamed.is_empty() {
            let _ = writeln!(
                s,
                "  requires-agent reports not naming the part ({}): {}",
                p.unnamed.len(),
                p.unnamed.join(" ")
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Value {
        parse_expected(s).unwrap()
    }

    fn goal(toml_text: &str) -> Goal {
        let mut text = String::from(
            "id = 't-01'\npart = 'dev'\ncategory = 'builtins'\ngoal = 'do it'\nneeds = []\n",
        );
        text.push_str(toml_text);
        toml::from_str(&text).unwrap()
    }

    fn exited(code: i32, stdout: &str, stderr: &str) -> Observed {
        Observed {
            status: Status::Exited(code),
            stdout: stdout.into(),
            stderr: stderr.into(),
            elapsed_ms: 100,
            check_failures: vec![],
        }
    }

    fn value_out(json: &str) -> String {
        format!("{{\"run_id\": \"r\", \"value\": {json}}}")
    }

    #[test]
    fn numbers_compare_numerically() {
        assert!(values_equal(&v("5"), &v("5.0")));
        assert!(values_equal(&v("2.5"), &v("2.5000000000001")));
        assert!(values_equal(&v("1e20"), &v("100000000000000000001.0")));
        assert!(!values_equal(&v("5"), &v("6")));
        assert!(!values_equal(&v("0.1"), &v("0.11")));
        assert!(!values_equal(&v("5"), &v("\"5\"")));
        assert!(values_equal(
            &Value::Int(9_007_199_254_740_993),
            &Value::Int(9_007_199_254_740_993)
        ));
    }

    #[test]
    fn strings_keywords_and_collections_compare_by_the_rules() {
        assert!(values_equal(&v("\"a\\nb\""), &v("\"a\\nb\"")));
        assert!(!values_equal(&v("\"hello\""), &v("\"Hello\"")));
        assert!(!values_equal(&v("\"hello\""), &v("\"hello \"")));
        let list = Value::list(vec![Value::Int(1), Value::Int(2), Value::Int(3)]);
        assert!(values_equal(&v("[1 2 3]"), &list));
        assert!(!values_equal(&v("[1 2 3]"), &v("[1 3 2]")));
        assert!(values_equal(
            &v("{:age 36 :name \"Ada\"}"),
            &v("{\"name\" \"Ada\" :age 36.0}")
        ));
        assert!(values_equal(&v("{:faq.md 12}"), &v("{\"faq.md\" 12}")));
        assert!(!values_equal(&v("{:a 1}"), &v("{:a 1 :b 2}")));
        assert!(values_equal(&v(":ok"), &v(":ok")));
        assert!(!values_equal(&v(":ok"), &v("\"ok\"")));
        assert!(values_equal(&v("nil"), &v("nil")));
        assert!(!values_equal(&v("nil"), &v("false")));
    }

    #[test]
    fn unwrapping_reaches_the_answer_in_its_envelope() {
        let http = v("{:status 200 :headers {:content-type \"text/plain\"} :body \"hi\"}");
        assert!(matches_expected(&http, &v("\"hi\"")));
        assert!(matches_expected(&v("{:content \"x\"}"), &v("\"x\"")));
        assert!(matches_expected(&v("[{:genres [1 2]}]"), &v("[1 2]")));
        // Three levels at most.
        assert!(matches_expected(&v("[[[4]]]"), &v("4")));
        assert!(!matches_expected(&v("[[[[4]]]]"), &v("4")));
        // A map of two entries is not unwrapped.
        assert!(!matches_expected(&v("{:a 1 :b 2}"), &v("1")));
        // An HTTP map needs exactly the three keys.
        assert!(!matches_expected(
            &v("{:status 200 :headers {} :body \"hi\" :x 1}"),
            &v("\"hi\"")
        ));
    }

    #[test]
    fn value_goals_classify_right_wrong_requires_agent_error() {
        let ph = Placeholders::default();
        let g = goal("expect = '2.5'\nexpect_not_contains = ['14']\n");
        assert_eq!(g.kind(), Kind::Value);
        let c = classify(&g, &ph, &exited(0, &value_out("2.5"), ""));
        assert_eq!(c.outcome, Outcome::Right, "{c:?}");
        let c = classify(&g, &ph, &exited(0, &value_out("14"), ""));
        assert_eq!(
            (c.outcome, c.value.as_deref()),
            (Outcome::Wrong, Some("14"))
        );
        let c = classify(&g, &ph, &exited(4, "", "requires-agent: ..."));
        assert_eq!(
            (c.outcome, c.named.is_some()),
            (Outcome::RequiresAgent, true)
        );
        let c = classify(&g, &ph, &exited(1, "{\"error\": \"step failed\"}", ""));
        assert_eq!(c.outcome, Outcome::Error);
        assert!(c.reason.unwrap().contains("step failed"));
        let c = classify(&g, &ph, &exited(3, "", "denied by policy"));
        assert_eq!(c.outcome, Outcome::Error);
        let timed = Observed {
            status: Status::TimedOut,
            ..exited(0, "", "")
        };
        assert_eq!(classify(&g, &ph, &timed).outcome, Outcome::Error);
        let unreadable = exited(0, "2.5", "");
        assert_eq!(classify(&g, &ph, &unreadable).outcome, Outcome::Error);
    }

    #[test]
    fn every_other_check_must_pass_for_right() {
        let ph = Placeholders {
            today_utc: "2025-01-02".into(),
            workspace: "/tmp/w.1".into(),
            ..Placeholders::default()
        };
        let g = goal(
            "expect = '*'\nexpect_match = '{today_utc}'\nexpect_contains = ['2025']\nmin_elapsed_ms = 50\n",
        );
        let c = classify(
            &g,
            &ph,
            &exited(0, &value_out("\"2025-01-02T10:00:00Z\""), ""),
        );
        assert_eq!(c.outcome, Outcome::Right, "{c:?}");
        let c = classify(&g, &ph, &exited(0, &value_out("\"2024-01-02\""), ""));
        assert_eq!(c.outcome, Outcome::Wrong);
        let mut slow = exited(0, &value_out("\"2025-01-02\""), "");
        slow.elapsed_ms = 10;
        assert!(
            classify(&g, &ph, &slow)
                .reason
                .unwrap()
                .contains("at least 50 ms")
        );
        let mut files = exited(0, &value_out("\"2025-01-02\""), "");
        files.check_failures = vec!["file out.txt is missing".into()];
        let c = classify(&g, &ph, &files);
        assert_eq!(c.outcome, Outcome::Wrong);
        assert!(c.reason.unwrap().contains("out.txt"));
        // expect_match is tried on the printed unwrapped forms (a string
        // prints with its quotes); placeholders are literal text in the
        // regex.
        let g = goal("expect = '*'\nexpect_match = '^\"{workspace}/a\"$'\n");
        let c = classify(
            &g,
            &ph,
            &exited(0, &value_out("{\"path\": \"/tmp/w.1/a\"}"), ""),
        );
        assert_eq!(c.outcome, Outcome::Right, "{c:?}");
        let c = classify(
            &g,
            &ph,
            &exited(0, &value_out("{\"path\": \"/tmp/wx1/a\"}"), ""),
        );
        assert_eq!(c.outcome, Outcome::Wrong, "{c:?}");
        // also_right counts for value goals.
        let g = goal("expect = '[34 6]'\nalso_right = ['{:lines 6 :words 34}']\n");
        let c = classify(
            &g,
            &ph,
            &exited(0, &value_out("{\"words\": 34, \"lines\": 6}"), ""),
        );
        assert_eq!(c.outcome, Outcome::Right, "{c:?}");
    }

    #[test]
    fn requires_agent_goals_are_right_on_exit_4_and_named_by_missing() {
        let ph = Placeholders::default();
        let mut g =
            goal("expect = 'requires-agent'\nmissing = ['flight', 'book']\nalso_right = ['42']\n");
        g.goal = "book a flight to Paris".into();
        assert_eq!(g.kind(), Kind::RequiresAgent);
        let named = "requires-agent: no capability serves part of the goal \"book a flight to Paris\"\n  - s1 \"book a flight\": no capability fits\n";
        let c = classify(&g, &ph, &exited(4, "", named));
        assert_eq!((c.outcome, c.named), (Outcome::Right, Some(true)));
        // Only the echo of the goal mentions the missing words: not named.
        let echo = "requires-agent: no capability serves part of the goal \"book a flight to Paris\"\n  - s1 \"book a flight to Paris\": no capability fits\n";
        let c = classify(&g, &ph, &exited(4, "", echo));
        assert_eq!((c.outcome, c.named), (Outcome::Right, Some(false)));
        // The JSON result on stdout (`run --json`) quotes every part of the
        // goal in its trace: only the report counts.
        let json = r#"{"sub_intents": [{"description": "book a flight"}]}"#;
        let c = classify(&g, &ph, &exited(4, json, echo));
        assert_eq!((c.outcome, c.named), (Outcome::Right, Some(false)));
        let c = classify(&g, &ph, &exited(0, &value_out("\"hi\""), ""));
        assert_eq!(c.outcome, Outcome::Wrong);
        let c = classify(&g, &ph, &exited(0, &value_out("42"), ""));
        assert_eq!(c.outcome, Outcome::Right);
        let c = classify(&g, &ph, &exited(1, "", "error"));
        assert_eq!(c.outcome, Outcome::Error);
    }

    #[test]
    fn error_goals_follow_the_table() {
        let ph = Placeholders::default();
        let mut g = goal("expect = 'error'\nerror_match = 'zero'\n");
        g.goal = "10 / 0".into();
        assert_eq!(g.kind(), Kind::Error);
        let c = classify(&g, &ph, &exited(1, "{\"error\": \"Division by ZERO\"}", ""));
        assert_eq!(c.outcome, Outcome::Right, "{c:?}");
        let c = classify(&g, &ph, &exited(1, "{\"error\": \"overflow\"}", ""));
        assert_eq!(c.outcome, Outcome::Error);
        // A crash is never right, even when the pattern matches.
        let c = classify(
            &g,
            &ph,
            &exited(101, "", "thread 'main' panicked at x: zero"),
        );
        assert_eq!(c.outcome, Outcome::Error);
        let c = classify(&g, &ph, &exited(1, "", "planner bug: division by zero"));
        assert_eq!(c.outcome, Outcome::Error);
        let c = classify(&g, &ph, &exited(4, "", "requires-agent: division by zero"));
        assert_eq!(c.outcome, Outcome::Right);
        let c = classify(&g, &ph, &exited(4, "", "requires-agent: nothing"));
        assert_eq!(c.outcome, Outcome::RequiresAgent);
        let c = classify(&g, &ph, &exited(0, &value_out("0"), ""));
        assert_eq!(c.outcome, Outcome::Wrong);
        // The goal's own words echoed back do not match error_match.
        let mut g = goal("expect = 'error'\nerror_match = 'Atlantis'\n");
        g.goal = "what time is it in Atlantis?".into();
        let echo =
            ";; pattern plan for \"what time is it in Atlantis?\" (intent i)\nerror: step failed";
        assert_eq!(
            classify(&g, &ph, &exited(1, "", echo)).outcome,
            Outcome::Error
        );
        let named = "error: invalid timezone 'Atlantis'";
        assert_eq!(
            classify(&g, &ph, &exited(1, "", named)).outcome,
            Outcome::Right
        );
    }

    #[test]
    fn naming_without_missing_needs_a_quoted_part_of_the_goal() {
        let goal = "ask me for a number and double it";
        let whole = format!(
            "requires-agent: no capability serves part of the goal {goal:?}\n  - s1 {goal:?}: no capability fits\n"
        );
        assert!(!report_names_part(&whole, goal, &[]));
        let part = format!(
            "requires-agent: no capability serves part of the goal {goal:?}\n  - s2 \"double it\": no capability fits\n"
        );
        assert!(report_names_part(&part, goal, &[]));
        assert!(report_names_part(&part, goal, &["DOUBLE".into()]));
        assert!(!report_names_part(&part, goal, &["triple".into()]));
    }

    #[test]
    fn sources_and_selection() {
        let g = goal("expect = '1'\ndistractors = ['github', 'everything']\n");
        assert_eq!(g.sources(), ["everything", "github"]);
        let mut a = goal("expect = '1'\n");
        a.id = "math-01".into();
        let mut b = a.clone();
        b.id = "math-10".into();
        b.part = "held-out".into();
        let mut c = a.clone();
        c.id = "echo-01".into();
        let all = vec![a, b, c];
        let ids = |v: Vec<&Goal>| v.iter().map(|g| g.id.clone()).collect::<Vec<_>>();
        assert_eq!(
            ids(select(&all, SuitePart::All, &["math".into()])),
            ["math-01", "math-10"]
        );
        assert_eq!(
            ids(select(&all, SuitePart::Dev, &[])),
            ["math-01", "echo-01"]
        );
        assert_eq!(
            ids(select(&all, SuitePart::HeldOut, &["echo-01".into()])),
            Vec::<String>::new()
        );
    }

    #[test]
    fn the_suite_in_the_repository_loads() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../goals");
        let goals = load_suite(&dir).unwrap();
        assert!(goals.len() >= 150, "{}", goals.len());
        let dev = goals.iter().filter(|g| g.part == "dev").count();
        assert!(dev > 0 && dev < goals.len());
        assert!(goals.iter().any(|g| !g.memory_check.is_empty()));
        assert!(goals.iter().any(|g| !g.git_check.is_empty()));
        assert!(goals.iter().any(|g| !g.files.is_empty()));
    }

    #[test]
    fn summaries_count_and_mark_the_bars() {
        let r =
            |id: &str, part: &str, kind: Kind, outcome: Outcome, named: Option<bool>| GoalResult {
                id: id.into(),
                part: part.into(),
                category: "builtins".into(),
                kind,
                goal: id.into(),
                expect: "1".into(),
                classified: Classified {
                    outcome,
                    value: (outcome == Outcome::Wrong).then(|| "2".into()),
                    reason: None,
                    named,
                },
                status: Status::Exited(0),
                seconds: 0.1,
                stderr_tail: None,
            };
        let results = vec![
            r("a", "dev", Kind::Value, Outcome::Right, None),
            r("b", "dev", Kind::Value, Outcome::Wrong, None),
            r(
                "c",
                "held-out",
                Kind::RequiresAgent,
                Outcome::Right,
                Some(true),
            ),
            r(
                "d",
                "held-out",
                Kind::Value,
                Outcome::RequiresAgent,
                Some(false),
            ),
        ];
        let s = summaries(&results);
        assert_eq!(
            s.iter().map(|p| p.part.as_str()).collect::<Vec<_>>(),
            ["dev", "held-out", "all"]
        );
        let dev = &s[0];
        assert_eq!((dev.total.right, dev.total.wrong), (1, 1));
        assert_eq!(dev.wrong[0].value.as_deref(), Some("2"));
        assert!(!dev.bars.wrong_met);
        assert_eq!(dev.bars.right_percent, Some(50.0));
        let all = &s[2];
        assert_eq!(
            (
                all.bars.requires_agent_reports,
                all.bars.requires_agent_named
            ),
            (2, 1)
        );
        assert!(!all.bars.named_met);
        assert_eq!(all.by_kind["value"].goals, 3);
        let report = GoalsReport {
            part: SuitePart::All,
            only: vec![],
            jobs: 1,
            semantic_build: false,
            setup_seconds: 1.0,
            wall_seconds: 2.0,
            unavailable: BTreeMap::new(),
            kept: None,
            parts: s,
            goals: results,
        };
        let text = render_report(&report);
        assert!(text.contains("== dev (2 goals) =="), "{text}");
        assert!(text.contains("NOT met"), "{text}");
        assert!(text.contains("b "), "{text}");
        assert_eq!(wrong_ids(&report), ["b"]);
    }
}
