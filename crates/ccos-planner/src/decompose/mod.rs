//! Decomposition (the "what"): from a goal to ordered sub-intents.
//!
//! A [`DecompositionStrategy`] turns goal text into [`SubIntent`]s, or says
//! that it has nothing to offer (`Ok(None)`), so strategies can be chained.
//!
//! - [`PatternDecomposition`]: deterministic rules from a TOML file
//!   (`rules/patterns.toml` embedded, overridable by
//!   `$CCOS_HOME/patterns.toml`).
//! - [`HybridDecomposition`]: patterns first; then the extra strategies
//!   in order (where the LLM decompositions of `crate::llm::decompose`
//!   plug in; a failing one is recorded and skipped); then
//!   [`ClauseDecomposition`] (one sub-intent per clause of a multi-part
//!   goal, or the pattern rules' sub-intents for a clause they match);
//!   otherwise the grounded fallback: the whole goal as ONE
//!   sub-intent, which resolution matches against the real catalog (never
//!   an invented capability).

mod clause;
mod pattern;
pub(crate) mod story;

pub use clause::{
    BACK_REFERENCES, CONNECTORS, Clause, ClauseDecomposition, PerClause, named_result, refers_back,
    refers_back_vaguely, split_clauses, writes_several_things,
};

pub(crate) use clause::{
    announces_requests, asks_for_the_thing, file_only_read, has_a_sentence_verb, is_plain_word,
    is_statement, opens_like_a_statement, unresolved_variation,
};
pub(crate) use pattern::typed_literal;

pub use pattern::{DEFAULT_RULES, PatternDecomposition, Rule, RuleStep};

use crate::intent::{IntentType, SubIntent};

/// The longest goal, in bytes, the planner reads (every door: the CLI,
/// the MCP server). The longest question of the BFCL sets is 1.2 KB.
pub const MAX_GOAL_BYTES: usize = 4096;

/// `goal` (trimmed), or [`DecompositionError::GoalTooLong`] when it is
/// longer than [`MAX_GOAL_BYTES`]: checked before any reading, by every
/// entry that reads a goal ([`HybridDecomposition::decompose_traced`],
/// `Planner::plan`).
pub fn bounded_goal(goal: &str) -> Result<&str, DecompositionError> {
    let goal = goal.trim();
    if goal.len() > MAX_GOAL_BYTES {
        return Err(DecompositionError::GoalTooLong {
            bytes: goal.len(),
            max: MAX_GOAL_BYTES,
        });
    }
    Ok(goal)
}

/// Why a decomposition could not be made (not "no pattern matched").
#[derive(Debug, thiserror::Error)]
pub enum DecompositionError {
    /// The rules file is malformed.
    #[error("rules {source_name}: {message}")]
    Rules {
        /// Where the rules came from (a path or `built-in`).
        source_name: String,
        /// What is wrong.
        message: String,
    },
    /// The goal is empty.
    #[error("the goal is empty")]
    EmptyGoal,
    /// The goal is longer than [`MAX_GOAL_BYTES`]: a goal is a sentence or
    /// a few, not a document (and reading one costs time with its length).
    #[error(
        "the goal is {bytes} bytes long, more than the {max} a goal may have; put long data in a file and name the file"
    )]
    GoalTooLong {
        /// Its length in bytes.
        bytes: usize,
        /// [`MAX_GOAL_BYTES`].
        max: usize,
    },
    /// The goal states a value that cannot be represented (an integer
    /// beyond 64 bits): a user error, with where it is.
    #[error("the goal, column {column}: {message}")]
    Literal {
        /// Its byte span in the goal.
        span: ccos_core::Span,
        /// 1-based column (characters) where it starts.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// An extra (e.g. LLM) strategy failed.
    #[error("decomposition strategy {strategy}: {message}")]
    Strategy {
        /// The strategy's name.
        strategy: String,
        /// What failed.
        message: String,
    },
}

/// A strategy that decomposes goal text into sub-intents.
pub trait DecompositionStrategy: Send + Sync {
    /// Short name for traces and the plan archive (`pattern`, `llm`...).
    fn name(&self) -> &str;

    /// The sub-intents, in order (ids `s1`, `s2`, ...; dependencies only on
    /// earlier ones), or `None` when this strategy has nothing to offer.
    fn decompose(&self, goal: &str) -> Result<Option<Vec<SubIntent>>, DecompositionError>;
}

/// Patterns first, then the extra strategies in the order they were added
/// (the LLM decompositions: grounded, then intent-first), then clauses
/// ([`ClauseDecomposition`]), else the grounded fallback (the whole goal as
/// one sub-intent). An extra strategy that fails is recorded
/// ([`StrategyFailure`]) and the next one is tried.
pub struct HybridDecomposition {
    patterns: PatternDecomposition,
    extras: Vec<Box<dyn DecompositionStrategy>>,
}

/// An extra strategy of [`HybridDecomposition`] that failed, and why (for
/// the planner's decision trace).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StrategyFailure {
    /// The strategy's name (`llm-grounded`, ...).
    pub strategy: String,
    /// Why it failed.
    pub reason: String,
}

/// What [`HybridDecomposition::decompose_traced`] produced.
#[derive(Debug, Clone, PartialEq)]
pub struct HybridOutcome {
    /// The sub-intents.
    pub sub_intents: Vec<SubIntent>,
    /// Which path produced them.
    pub path: HybridPath,
    /// The name of the strategy that produced them (`pattern`, an extra
    /// strategy's name, `clause`, `fallback`).
    pub strategy: String,
    /// The extra strategies tried before, which failed, in order.
    pub failures: Vec<StrategyFailure>,
}

/// Which path of [`HybridDecomposition`] produced the sub-intents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HybridPath {
    /// A pattern rule.
    Pattern,
    /// The extra strategy (e.g. an LLM).
    Extra,
    /// [`ClauseDecomposition`]: one sub-intent per clause.
    Clause,
    /// The whole goal as one sub-intent.
    Fallback,
    /// The goal is arithmetic ([`crate::understand::arith`]).
    Arithmetic,
}

impl HybridPath {
    /// `pattern`, `extra` or `fallback` (used as the generation mode).
    pub fn as_str(self) -> &'static str {
        match self {
            HybridPath::Pattern => "pattern",
            HybridPath::Extra => "extra",
            HybridPath::Clause => "clause",
            HybridPath::Fallback => "fallback",
            HybridPath::Arithmetic => "arithmetic",
        }
    }
}

impl HybridDecomposition {
    /// Hybrid over these pattern rules, with no extra strategy.
    pub fn new(patterns: PatternDecomposition) -> HybridDecomposition {
        HybridDecomposition {
            patterns,
            extras: Vec::new(),
        }
    }

    /// Appends a strategy tried when no pattern matches, after the ones
    /// already added (the LLM hook: grounded, then intent-first). It must
    /// only describe *what* is wanted; resolution still picks real
    /// capabilities.
    pub fn with_extra(mut self, s: Box<dyn DecompositionStrategy>) -> HybridDecomposition {
        self.extras.push(s);
        self
    }

    /// The sub-intents and which path produced them.
    pub fn decompose_with_path(
        &self,
        goal: &str,
    ) -> Result<(Vec<SubIntent>, HybridPath), DecompositionError> {
        self.decompose_traced(goal).map(|o| (o.sub_intents, o.path))
    }

    /// The goal read as arithmetic on values other requests find ("add 5
    /// to *the largest number in numbers.txt*": that phrase a sub-intent
    /// of its own, the addition on its result;
    /// [`crate::understand::arith::parse_with_operands`]), as a whole or
    /// clause by clause. `None` when no operand of that kind is read. The
    /// planner offers this reading only when the goal as
    /// [`decompose_traced`](Self::decompose_traced) reads it finds no plan:
    /// a capability that serves the goal as said comes first.
    pub fn decompose_operands(
        &self,
        goal: &str,
    ) -> Result<Option<HybridOutcome>, DecompositionError> {
        use crate::understand::arith;
        let goal = unquote_whole(bounded_goal(goal)?);
        let outcome = |sub_intents, path, strategy: &str| HybridOutcome {
            sub_intents,
            path,
            strategy: strategy.to_string(),
            failures: vec![],
        };
        if let Some(e) = arith::parse_with_operands(goal, false) {
            let v = arith::sub_intents(&e, 1);
            return Ok(Some(outcome(v, HybridPath::Arithmetic, "arithmetic")));
        }
        let read = std::cell::Cell::new(false);
        let per_clause = |c: &str, has_prev: bool| {
            if let Some(e) = arith::parse(c, has_prev) {
                return Ok(Some(arith::sub_intents(&e, 1)));
            }
            if let Some(e) = arith::parse_with_operands(c, has_prev) {
                read.set(true);
                return Ok(Some(arith::sub_intents(&e, 1)));
            }
            self.patterns.decompose(c)
        };
        match ClauseDecomposition.decompose_with(goal, &per_clause)? {
            Some(v) if read.get() => Ok(Some(outcome(v, HybridPath::Clause, "clause"))),
            _ => Ok(None),
        }
    }

    /// The goal with its object found first ([`object_first`]):
    /// "uppercase the first line of notes.txt" read as "get the first
    /// line of notes.txt, then uppercase it". `None` unless the goal is
    /// one clause ending on such an object. Offered by the planner only
    /// when the goal as first read finds no plan, and kept only when every
    /// step reads or computes.
    pub fn decompose_object_first(
        &self,
        goal: &str,
    ) -> Result<Option<HybridOutcome>, DecompositionError> {
        let goal = unquote_whole(bounded_goal(goal)?);
        if ClauseDecomposition::clause_parts(goal).len() > 1 {
            return Ok(None);
        }
        let Some(text) = object_first(goal) else {
            return Ok(None);
        };
        let outcome = self.decompose_traced(&text)?;
        Ok((outcome.sub_intents.len() > 1).then_some(outcome))
    }

    /// The sub-intents, the path and strategy that produced them, and the
    /// extra strategies that failed before (recorded, not fatal).
    pub fn decompose_traced(&self, goal: &str) -> Result<HybridOutcome, DecompositionError> {
        let goal = unquote_whole(bounded_goal(goal)?);
        if goal.is_empty() {
            return Err(DecompositionError::EmptyGoal);
        }
        // Every value the goal states must be representable.
        let stated =
            crate::understand::mentions(goal).map_err(|e| DecompositionError::Literal {
                column: goal[..e.span.start.min(goal.len())].chars().count() + 1,
                span: e.span,
                message: e.message,
            })?;
        let mut failures = vec![];
        let done = |sub_intents, path: HybridPath, strategy: &str, failures| HybridOutcome {
            sub_intents,
            path,
            strategy: strategy.to_string(),
            failures,
        };
        if let Some(e) = crate::understand::arith::parse(goal, false) {
            let v = crate::understand::arith::sub_intents(&e, 1);
            return Ok(done(v, HybridPath::Arithmetic, "arithmetic", failures));
        }
        if let Some(v) = self.patterns.decompose(goal)? {
            return Ok(done(v, HybridPath::Pattern, "pattern", failures));
        }
        for extra in &self.extras {
            match extra.decompose(goal) {
                Ok(Some(v)) => return Ok(done(v, HybridPath::Extra, extra.name(), failures)),
                Ok(None) => {}
                Err(e) => failures.push(StrategyFailure {
                    strategy: extra.name().to_string(),
                    reason: e.to_string(),
                }),
            }
        }
        let per_clause = |c: &str, has_prev: bool| {
            if let Some(e) = crate::understand::arith::parse(c, has_prev) {
                return Ok(Some(crate::understand::arith::sub_intents(&e, 1)));
            }
            self.patterns.decompose(c)
        };
        if let Some(v) = ClauseDecomposition.decompose_with(goal, &per_clause)? {
            return Ok(done(v, HybridPath::Clause, "clause", failures));
        }
        // "how many open issues does acme/rocket have?": list them, then
        // count the list (the listing capability answers with the items,
        // not their number).
        if let Some(rest) = strip_prefix_ci(goal, "how many ")
            && !counts_several_or_compares(rest)
        {
            // "how many items are in [1, 2, 3]": the list is stated; count
            // it. Only for items as such, and when nothing follows the
            // list: "how many *lines* are in a.txt and b.txt" asks about the
            // files, "how many of 1, 2, 3 *are even*" about some items.
            let generic = rest.split_whitespace().next().is_some_and(|w| {
                matches!(
                    w.to_lowercase().as_str(),
                    "items" | "elements" | "values" | "numbers" | "entries" | "things"
                )
            });
            // Nothing but "are (there) in" between the noun and the list:
            // "how many numbers *greater than 4* are in 5, 2, 9, 1"
            // counts some of them, not all.
            let plain_between = |m: &crate::understand::Mention| {
                let at = goal.len() - rest.len();
                goal.get(at..m.span.start).is_some_and(|between| {
                    between.split_whitespace().skip(1).all(|w| {
                        matches!(
                            w.to_lowercase()
                                .trim_matches(|c: char| !c.is_alphanumeric()),
                            "are"
                                | "is"
                                | "there"
                                | "in"
                                | "the"
                                | "list"
                                | "of"
                                | "inside"
                                | "within"
                                | "this"
                                | "these"
                                | ""
                        )
                    })
                })
            };
            if let Some(list) = stated.iter().find(|m| {
                generic
                    && plain_between(m)
                    && ((m.kind == crate::understand::MentionKind::List
                        // Files listed are no items to count ("how many
                        // numbers are in a.txt and b.json" counted 2).
                        && !m
                            .items
                            .iter()
                            .all(|i| i.kind == crate::understand::MentionKind::Path))
                        || (m.kind == crate::understand::MentionKind::Json && m.value.is_array()))
                    && goal
                        .get(m.span.end..)
                        .is_some_and(|after| after.chars().all(|c| !c.is_alphanumeric()))
            }) {
                let items = if list.value.is_array() {
                    list.value.to_string()
                } else {
                    serde_json::Value::Array(list.items.iter().map(|i| i.value.clone()).collect())
                        .to_string()
                };
                let text = format!("count the items in {items}");
                let mut c = SubIntent::new("s1", &text, IntentType::Compute);
                c.mentions = crate::understand::mentions(&text).unwrap_or_default();
                c.from_text = true;
                return Ok(done(vec![c], HybridPath::Fallback, "fallback", failures));
            }
            // "how many people are in people.json?", "how many numbers
            // are in numbers.txt": the things a named file holds, counted
            // (the file becomes the list; listing it would list a folder).
            if let Some(file) = stated.iter().find(|m| {
                m.kind == crate::understand::MentionKind::Path
                    && crate::understand::lexicon::names_a_file(&m.text)
                    && plain_between(m)
                    && goal
                        .get(m.span.end..)
                        .is_some_and(|after| after.chars().all(|c| !c.is_alphanumeric()))
            }) {
                let at = goal.len() - rest.len();
                let noun = goal.get(at..file.span.start).and_then(|between| {
                    let mut ws = between.split_whitespace();
                    let first = ws.next()?;
                    // One or two words before "are": "people", "md files".
                    let mut noun = vec![first];
                    for w in ws {
                        let lw = w.to_lowercase();
                        if matches!(lw.as_str(), "are" | "is") {
                            break;
                        }
                        noun.push(w);
                    }
                    (noun.len() <= 2).then(|| noun.join(" "))
                });
                // Records of a JSON file, numbers of any file: what else a
                // file holds is a guess ("people" in people.csv counted its
                // header line too).
                let json = crate::understand::lexicon::is_json_file(&file.text);
                let noun = noun
                    .filter(|n| json || matches!(n.to_lowercase().as_str(), "numbers" | "number"));
                if let Some(noun) = noun {
                    let text = format!("count the {noun} in {}", file.text);
                    let mut c = SubIntent::new("s1", &text, IntentType::Compute);
                    c.mentions = crate::understand::mentions(&text).unwrap_or_default();
                    c.from_text = true;
                    return Ok(done(vec![c], HybridPath::Fallback, "fallback", failures));
                }
            }
            let listing = format!("list {}", as_listing(rest));
            let mut s = SubIntent::new("s1", &listing, IntentType::Fetch);
            s.mentions = crate::understand::mentions(&listing).unwrap_or_default();
            s.from_text = true;
            s.counted = true;
            let mut c = SubIntent::new("s2", "count the items in the list", IntentType::Compute);
            c.params.insert(
                "items".into(),
                crate::intent::ParamValue::StepRef("s1".into()),
            );
            c.depends_on.push("s1".into());
            return Ok(done(vec![s, c], HybridPath::Fallback, "fallback", failures));
        }
        Ok(done(
            vec![whole_goal(goal, stated)],
            HybridPath::Fallback,
            "fallback",
            failures,
        ))
    }
}

/// Whether what "how many" asks about, up to its verb, is several
/// things or a comparison ("how many words *and* lines does notes.txt
/// have", "how many *more* words *than* lines …"): no one list to count
/// (attack trial: the lines alone were counted).
fn counts_several_or_compares(rest: &str) -> bool {
    rest.split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_ascii_lowercase()
        })
        .take_while(|w| {
            !matches!(
                w.as_str(),
                "are" | "is" | "does" | "do" | "did" | "in" | "of"
            )
        })
        .any(|w| {
            matches!(
                w.as_str(),
                "and" | "or" | "than" | "more" | "fewer" | "less"
            )
        })
}

/// Heads of a part of a file that a request finds on its own: "the first
/// *line* of notes.txt", "the last 3 *numbers* in numbers.txt".
const PART_NOUNS: &[&str] = &["line", "lines", "word", "words", "number", "numbers"];

/// Verbs whose object alone says what they do to it ("*uppercase* the
/// first line of notes.txt").
const OBJECT_VERBS: &[&str] = &[
    "uppercase",
    "lowercase",
    "upcase",
    "downcase",
    "capitalize",
    "capitalise",
    "reverse",
    "sort",
    "double",
    "triple",
    "halve",
    "square",
    "echo",
];

/// What is counted of a part of a file, by "count the X in" / "how many X
/// are in".
const COUNTED_IN_A_PART: &[&str] = &["words", "characters", "chars"];

/// "VERB … the PART of|in|from FILE" as "get the PART of FILE, then VERB
/// … it": the object (a part of a file: [`PART_NOUNS`]), a request of its
/// own, found first, and the request made of its result. `None` unless
/// the goal ends on such an object after words that ask more than to see
/// it.
fn object_first(goal: &str) -> Option<String> {
    let body = goal.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '?' | '.' | '!'));
    let mentions = crate::understand::mentions(body).ok()?;
    let file = mentions.last()?;
    if file.kind != crate::understand::MentionKind::Path
        || file.span.end != body.len()
        || !crate::understand::lexicon::names_a_file(&file.text)
    {
        return None;
    }
    let before: Vec<&str> = body[..file.span.start].split_whitespace().collect();
    let (prep, rest) = before.split_last()?;
    let prep = prep.to_lowercase();
    if !matches!(prep.as_str(), "of" | "in" | "from") {
        return None;
    }
    // "the first line", "the last 3 numbers": "the" and up to four words.
    let the = rest
        .iter()
        .rposition(|w| w.eq_ignore_ascii_case("the"))
        .filter(|&at| rest.len() - at <= 5 && rest.len() - at >= 2)?;
    let object = &rest[the + 1..];
    if !object
        .iter()
        .any(|w| PART_NOUNS.contains(&w.to_lowercase().as_str()))
    {
        return None;
    }
    // Only a verb whose object alone says what it does ("uppercase"), or
    // a count of words or characters in it: anything more said before
    // the object ("uppercase *everything but* the first line", "*split*
    // the first line": on what?) would be dropped by a request on "it"
    // (attack trial).
    let verb: Vec<String> = rest[..the]
        .iter()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-')
                .to_lowercase()
        })
        .filter(|w| !matches!(w.as_str(), "please" | "pls" | "kindly"))
        .collect();
    let verb: Vec<&str> = verb.iter().map(String::as_str).collect();
    let understood = match verb.as_slice() {
        // "count the first 3 numbers of numbers.txt": how many items;
        // "count the first line" says not what of it.
        ["count"] => object.iter().any(|w| {
            let w = w.to_lowercase();
            w.ends_with('s') && PART_NOUNS.contains(&w.as_str())
        }),
        [v] => OBJECT_VERBS.contains(v),
        ["count", "the", x, "in" | "of"] => COUNTED_IN_A_PART.contains(x),
        ["how", "many", x, "are", "in"] | ["how", "many", x, "are", "there", "in"] => {
            COUNTED_IN_A_PART.contains(x)
        }
        _ => false,
    };
    if !understood {
        return None;
    }
    let verb = rest[..the].join(" ");
    Some(format!(
        "get the {} {prep} {}, then {verb} it",
        object.join(" "),
        &body[file.span.start..],
    ))
}

/// The whole goal as one sub-intent of its own text, with the values it
/// states: the fallback decomposition.
pub(crate) fn whole_goal(goal: &str, stated: Vec<crate::understand::Mention>) -> SubIntent {
    let mut s = SubIntent::new("s1", goal, IntentType::Other("goal".into()));
    s.mentions = stated;
    s.from_text = true;
    s
}

/// A goal typed inside quotes is the goal, not a quoted value.
fn unquote_whole(goal: &str) -> &str {
    for q in ['\'', '"'] {
        if let Some(inner) = goal.strip_prefix(q).and_then(|g| g.strip_suffix(q))
            && !inner.contains(q)
        {
            return inner.trim();
        }
    }
    goal
}

/// `text` without `prefix` (ASCII case-insensitive), if it starts so.
/// The words after "how many" as what to list: "files *are* in docs" →
/// "files in docs", "keys *does* config.json *have*" → "keys of
/// config.json" (a new-user trial listed "files are in docs", which no
/// capability read as a folder).
fn as_listing(rest: &str) -> String {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let bare = |w: &str| {
        w.trim_matches(|c: char| !c.is_alphanumeric())
            .to_ascii_lowercase()
    };
    const PLACES: &[&str] = &["in", "inside", "within", "on", "under", "at", "from"];
    for i in 1..words.len().min(5) {
        match bare(words[i]).as_str() {
            "are" | "is" => {
                let mut k = i + 1;
                if words.get(k).is_some_and(|w| bare(w) == "there") {
                    k += 1;
                }
                if words
                    .get(k)
                    .is_some_and(|w| PLACES.contains(&bare(w).as_str()))
                {
                    let mut out: Vec<&str> = words[..i].to_vec();
                    out.extend(&words[k..]);
                    return out.join(" ");
                }
                break;
            }
            "does" | "do" | "did" => {
                let Some(j) = (i + 2..words.len())
                    .find(|&j| matches!(bare(words[j]).as_str(), "have" | "has"))
                else {
                    break;
                };
                let tail = words[j].trim_start_matches(|c: char| c.is_alphanumeric());
                let mut out: Vec<&str> = words[..i].to_vec();
                out.push("of");
                out.extend(&words[i + 1..j]);
                out.extend(&words[j + 1..]);
                return format!("{}{tail}", out.join(" "));
            }
            _ => {}
        }
    }
    rest.to_string()
}

/// A "how many" question ending on "contain(s)" asked with "have"/"has":
/// "how many words does notes.txt *contain*?" is "… *have*?", which the
/// planner reads as a count of what the thing has. (Anywhere else,
/// "contain" restricts: "how many lines contain 'x'".) `None` when the
/// goal is not such a question.
pub(crate) fn contain_as_have(goal: &str) -> Option<String> {
    let lower = goal.to_lowercase();
    let (_, asked) = lower.split_once("how many ")?;
    // "how many words *should* notes.txt contain" asks what ought to be,
    // not what is (attack trial: it counted).
    if crate::understand::lexicon::words_of(asked)
        .iter()
        .any(|w| crate::understand::lexicon::MODAL_VERBS.contains(&w.as_str()))
    {
        return None;
    }
    let body = goal.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '?' | '.' | '!'));
    let last = body.rsplit(char::is_whitespace).next()?;
    let have = match last.to_lowercase().as_str() {
        "contain" => "have",
        "contains" => "has",
        _ => return None,
    };
    let at = body.len() - last.len();
    Some(format!("{}{have}{}", &goal[..at], &goal[body.len()..]))
}

fn strip_prefix_ci<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &text[prefix.len()..])
}

impl DecompositionStrategy for HybridDecomposition {
    fn name(&self) -> &str {
        "hybrid"
    }

    fn decompose(&self, goal: &str) -> Result<Option<Vec<SubIntent>>, DecompositionError> {
        self.decompose_with_path(goal).map(|(v, _)| Some(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_object_naming_a_part_of_a_file_is_found_first() {
        for (goal, want) in [
            (
                "uppercase the first line of notes.txt",
                "get the first line of notes.txt, then uppercase it",
            ),
            (
                "how many words are in the last line of notes.txt?",
                "get the last line of notes.txt, then how many words are in it",
            ),
            (
                "sort the first 3 numbers of numbers.txt",
                "get the first 3 numbers of numbers.txt, then sort it",
            ),
            (
                "count the unique words in words.txt",
                "get the unique words in words.txt, then count it",
            ),
        ] {
            assert_eq!(object_first(goal).as_deref(), Some(want), "{goal}");
        }
        // The object itself asked, no part of a file, the file not last,
        // or more said than a verb whose object says what it does.
        for goal in [
            "uppercase everything but the first line of notes.txt",
            "uppercase the line after the first line of notes.txt",
            "split the first line of notes.txt",
            "join the first 2 lines of notes.txt",
            "find the decimal numbers in the second line of nums.txt",
            "how many lines follow the first line of notes.txt",
            "sleep for the first line of numbers.txt",
            "count the first line of notes.txt",
            "what is the first line of notes.txt",
            "show me the last line of notes.txt",
            "uppercase the contents of notes.txt",
            "copy the first line of notes.txt to out.txt",
            "uppercase notes.txt",
        ] {
            assert_eq!(object_first(goal), None, "{goal}");
        }
    }

    #[test]
    fn how_many_asked_with_contain_is_asked_with_have() {
        assert_eq!(
            contain_as_have("how many words does notes.txt contain?").as_deref(),
            Some("how many words does notes.txt have?")
        );
        assert_eq!(
            contain_as_have("Tell me how many words notes.txt contains").as_deref(),
            Some("Tell me how many words notes.txt has")
        );
        // A restriction, what ought to be, or no count: as written.
        assert_eq!(contain_as_have("how many lines contain 'x' in a.txt"), None);
        assert_eq!(
            contain_as_have("how many words should notes.txt contain"),
            None
        );
        assert_eq!(contain_as_have("list the lines that contain"), None);
    }

    #[test]
    fn how_many_lists_the_things_as_a_listing_says_them() {
        assert_eq!(as_listing("files are in docs"), "files in docs");
        assert_eq!(as_listing("files are there in docs?"), "files in docs?");
        assert_eq!(
            as_listing("keys does config.json have?"),
            "keys of config.json?"
        );
        assert_eq!(
            as_listing("open issues does acme/rocket have"),
            "open issues of acme/rocket"
        );
        // Nothing to rewrite: as written.
        assert_eq!(as_listing("stars has the repo"), "stars has the repo");
        assert_eq!(
            as_listing("people are older than 30"),
            "people are older than 30"
        );
    }

    #[test]
    fn hybrid_falls_back_to_whole_goal() {
        let h = HybridDecomposition::new(PatternDecomposition::builtin().unwrap());
        let (v, path) = h.decompose_with_path("book me a flight to Paris").unwrap();
        assert_eq!(path, HybridPath::Fallback);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].description, "book me a flight to Paris");
        let (_, path) = h
            .decompose_with_path("read notes.txt and count lines")
            .unwrap();
        assert_eq!(path, HybridPath::Pattern);
        let (v, path) = h
            .decompose_with_path(
                "list issues of mandubian/ccos with 'bug' label, 10 per page, see docs/x.md",
            )
            .unwrap();
        assert_eq!(path, HybridPath::Clause);
        // "10 per page" follows a bare comma without a verb: merged back.
        assert_eq!(v.len(), 2);
        let kinds = |i: usize| -> Vec<(String, String)> {
            v[i].mentions
                .iter()
                .map(|m| (m.kind.as_str().to_string(), m.text.clone()))
                .collect()
        };
        assert_eq!(
            kinds(0),
            [
                ("repo".to_string(), "mandubian/ccos".to_string()),
                ("quoted".to_string(), "'bug'".to_string()),
                ("number".to_string(), "10".to_string()),
            ]
        );
        assert_eq!(kinds(1), [("path".to_string(), "docs/x.md".to_string())]);
        let (v, path) = h
            .decompose_with_path("list issues of mandubian/ccos with 'bug' label 10 per page")
            .unwrap();
        assert_eq!(path, HybridPath::Fallback);
        assert_eq!(v[0].mentions.len(), 3);
        assert!(v[0].params.is_empty());
        let e = h
            .decompose_with_path("add 99999999999999999999 and 1")
            .unwrap_err();
        assert!(
            matches!(e, DecompositionError::Literal { column: 5, .. }),
            "{e}"
        );
        let (v, path) = h.decompose_with_path("(2+3)*4").unwrap();
        assert_eq!(path, HybridPath::Arithmetic);
        assert_eq!(v.len(), 2);
        assert!(matches!(
            h.decompose_with_path("  "),
            Err(DecompositionError::EmptyGoal)
        ));
    }
}
