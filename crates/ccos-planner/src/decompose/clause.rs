//! Clause splitting (shared by [`ClauseDecomposition`] and the catalog
//! resolution's multi-part scoring) and the deterministic, no-LLM
//! [`ClauseDecomposition`].
//!
//! Splitting rule ([`split_clauses`]): the text is cut into
//! whitespace-separated tokens; a clause ends after a token ending in
//! sentence punctuation or a comma/semicolon (`.`, `,`, `;`, `!`, `?`,
//! also before a closing quote or bracket), and at the connector words
//! [`CONNECTORS`] (`and`, `then`, `also`, `after`, `afterwards`,
//! `finally`; `after that` counts as one connector). Punctuation inside a
//! token (`notes.txt`, `3.5`), anything inside double quotes, and a
//! single-quoted text of several words (`'a; b'`, `'salt and pepper'`:
//! a token opening with a quote whose closing quote ends a later token)
//! never splits.
//!
//! Dependency rule ([`ClauseDecomposition`]): clause *n* depends on clause
//! *n − 1* when it refers back to it, i.e. it contains (as whole words,
//! case-insensitively) one of [`BACK_REFERENCES`]: `it`, `its`, `them`,
//! `their`, `that`, `this`, `those`, `these`, or the phrases `the result`,
//! `the results`, `the output`, `the response`.

use super::{DecompositionError, DecompositionStrategy};
use crate::intent::{IntentType, SubIntent};
use crate::understand::arith::PREV;
use crate::understand::lexicon;
use ccos_marketplace::search::analyze;
use std::collections::BTreeSet;

/// Words that join the parts of a multi-part request.
pub const CONNECTORS: [&str; 7] = [
    "and",
    "then",
    "also",
    "after",
    "afterwards",
    "finally",
    "lastly",
];

/// Subjects and auxiliaries after which "also" and "then" are inside a
/// verb phrase ("I would *also* like …"), joining no clauses.
const SUBJECTS_AND_AUXILIARIES: &[&str] = &[
    "i", "we", "you", "would", "will", "can", "could", "should", "might", "may", "must", "do",
    "does", "did", "am", "is", "are", "was", "were", "i'd", "we'd", "i'll", "we'll", "i'm",
];

/// Words that open a sentence with the order of the requests when a
/// comma follows ("*First,* I need …", "*Second,* find …"); anywhere
/// else they are words ("the first triangle").
const ORDERING_OPENERS: [&str; 10] = [
    "first",
    "firstly",
    "second",
    "secondly",
    "third",
    "thirdly",
    "next",
    "additionally",
    "furthermore",
    "moreover",
];

/// Words and phrases by which a clause refers to the previous clause's
/// result (see the module documentation).
pub const BACK_REFERENCES: [&str; 16] = [
    "it",
    "its",
    "them",
    "their",
    "that",
    "this",
    "those",
    "these",
    "the result",
    "the results",
    "the output",
    "the response",
    // What a count or a computation gave ("count the words in notes.txt
    // and write *the number* to count.txt"; helper trial: the write asked
    // the user for its content). Not before a value: "the number 5". Not
    // "the total": of the earlier counts, a sum no step makes.
    "the answer",
    "the number",
    "the count",
    "the value",
];

/// Back references that name the kind of the previous result: a value
/// right after them is the thing named ("the number 5"), and the plan
/// passes only a result of that kind ([`named_result`]).
const NAMED_RESULTS: [&str; 4] = ["answer", "number", "count", "value"];

/// Whether `clause` refers back by a word that could mean several earlier
/// results — "them", "those", "these", "their", "the result(s)", "the
/// output", "the response", "the answer"... — rather than the nearest
/// one ("it", "its", "that", "this").
pub fn refers_back_vaguely(clause: &str) -> bool {
    let words: Vec<String> = lexicon::words_of(clause);
    words
        .iter()
        .any(|w| matches!(w.as_str(), "them" | "those" | "these" | "their"))
        || named_result(clause).is_some()
        || words.windows(2).any(|w| {
            w[0] == "the" && matches!(w[1].as_str(), "result" | "results" | "output" | "response")
        })
}

/// The kind of earlier result a clause names when it refers back by it
/// ("write *the number* to x.txt": `number`), if it does.
pub fn named_result(clause: &str) -> Option<&'static str> {
    let words: Vec<String> = lexicon::words_of(clause);
    words.windows(2).enumerate().find_map(|(i, w)| {
        // "the number", "their count", "its value".
        let kind = NAMED_RESULTS
            .iter()
            .find(|k| matches!(w[0].as_str(), "the" | "its" | "their") && w[1] == **k)?;
        (!names_a_value(&words, i + 2)).then_some(*kind)
    })
}

/// Whether the word at `at` makes the named result before it a thing
/// named, not a reference: a value ("the number *5*") or "of" ("the
/// number *of* lines").
fn names_a_value(words: &[String], at: usize) -> bool {
    words
        .get(at)
        .is_some_and(|n| n.chars().any(|c| c.is_ascii_digit()) || n == "of")
}

/// One clause of a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clause {
    /// The connector word(s) that introduced it (`and`, `after that`...),
    /// empty when it follows punctuation or starts the text.
    pub lead: String,
    /// The clause's words, joined by single spaces, with the terminating
    /// punctuation removed.
    pub text: String,
    /// It follows a comma directly (no connector): a soft break.
    pub after_comma: bool,
}

/// Cuts `text` into clauses (rule in the module documentation). Empty
/// clauses are dropped; a text without any cut gives one clause.
pub fn split_clauses(text: &str) -> Vec<Clause> {
    let mut out: Vec<Clause> = Vec::new();
    let mut cur = Clause {
        lead: String::new(),
        text: String::new(),
        after_comma: false,
    };
    let mut in_quote = false;
    let mut prev_connector: Option<String> = None;
    let flush = |cur: &mut Clause, out: &mut Vec<Clause>, lead: String, after_comma: bool| {
        let done = std::mem::replace(
            cur,
            Clause {
                lead,
                text: String::new(),
                after_comma,
            },
        );
        if !done.text.trim().is_empty() {
            out.push(done);
        }
    };
    let toks: Vec<&str> = text.split_whitespace().collect();
    // A single-quoted text of several words ("'a; b'", "'salt and
    // pepper'"): nothing inside it ends a clause (attack trial: its ';'
    // split the clause, and the text came back as "a, b"). It opens at a
    // token starting with a quote whose closing quote ends a later token.
    let closes_single = |t: &str| {
        t.trim_end_matches(['.', ',', ';', ':', '!', '?', ')', ']'])
            .ends_with('\'')
    };
    let mut in_single = false;
    for (ti, tok) in toks.iter().copied().enumerate() {
        let quotes = tok.matches('"').count();
        let in_single_before = in_single;
        if !in_single
            && !in_quote
            && tok.starts_with('\'')
            && !closes_single(&tok[1..])
            && toks[ti + 1..].iter().any(|t| closes_single(t))
        {
            in_single = true;
        } else if in_single && closes_single(tok) {
            in_single = false;
        }
        // Inside the quote: the opening token and those before the
        // closing one.
        let quoted_inside = in_single;
        let in_quote_now = in_quote || quoted_inside;
        let lower = tok.to_ascii_lowercase();
        // "after" joins clauses only as "after that" ("repeat after me"
        // is one clause).
        let next_is_that = toks
            .get(ti + 1)
            .is_some_and(|n| n.eq_ignore_ascii_case("that") || n.eq_ignore_ascii_case("that,"));
        // "Also, design an office …": the comma closes the connector.
        let connector = lower.strip_suffix(',').unwrap_or(&lower).to_string();
        // "First, I need …", "Lastly, calculate …": a sentence opening with
        // the order of the requests.
        let ordering = lower.ends_with(',')
            && cur.text.is_empty()
            && ORDERING_OPENERS.contains(&connector.as_str());
        // "I would *also* like to know …", "we can *then* compare": inside
        // a verb phrase, after its subject or auxiliary, no clause starts
        // (a goal split into "I would" and "like to know …").
        // Only right after the clause's opening subject and auxiliaries:
        // "Find parking in Paris I also want a hotel" runs two requests
        // together, and stays cut.
        let inside_verb_phrase = matches!(connector.as_str(), "also" | "then")
            && !cur.text.is_empty()
            && cur
                .text
                .split_whitespace()
                .all(|w| SUBJECTS_AND_AUXILIARIES.contains(&w.to_ascii_lowercase().as_str()));
        let lower = if inside_verb_phrase {
            lower
        } else if (CONNECTORS.contains(&connector.as_str()) && connector != "after") || ordering {
            connector
        } else {
            lower
        };
        if ordering && !in_quote_now {
            if cur.lead.is_empty() {
                cur.lead = lower.clone();
            }
            prev_connector = None;
            continue;
        }
        if !in_quote_now && !in_single_before {
            if CONNECTORS.contains(&lower.as_str())
                && (lower != "after" || next_is_that)
                && !inside_verb_phrase
            {
                let lead = if cur.text.is_empty() && !cur.lead.is_empty() {
                    format!("{} {lower}", cur.lead)
                } else {
                    lower.clone()
                };
                flush(&mut cur, &mut out, lead, false);
                prev_connector = Some(lower);
                continue;
            }
            // ("After that, I need …": the comma closes the connector.)
            if lower.trim_end_matches(',') == "that"
                && cur.text.is_empty()
                && prev_connector.as_deref() == Some("after")
            {
                cur.lead.push_str(" that");
                prev_connector = None;
                continue;
            }
        }
        prev_connector = None;
        if quotes % 2 == 1 {
            in_quote = !in_quote;
        }
        let core = tok.trim_end_matches(['"', '\'', ')', ']']);
        // "Dr. Smith", "St. Louis": a title's full stop ends no sentence.
        let title = core
            .strip_suffix('.')
            .is_some_and(crate::understand::mentions::is_name_abbreviation);
        // "the U.S. president", "Washington, D.C. in miles": a dotted
        // abbreviation's full stop ends a sentence only before a
        // capitalised word ("Liverpool F.C. Include its statistics";
        // "Washington D.C. Paris too" is two sentences, as it was before
        // abbreviations were read — attack trial), and stays with the
        // abbreviation either way.
        let dotted = crate::understand::mentions::is_dotted_abbreviation(core);
        let dotted_ends = dotted
            && toks.get(ti + 1).is_some_and(|next| {
                next.trim_start_matches(|c: char| !c.is_alphanumeric())
                    .starts_with(|c: char| c.is_uppercase())
            });
        // "on ','": a single-quoted text ends no clause with what it quotes.
        let quoted_whole = tok.chars().count() >= 3 && tok.starts_with('\'') && tok.ends_with('\'');
        let ends = !in_quote
            && !quoted_inside
            && !title
            && !quoted_whole
            && (if dotted {
                dotted_ends
            } else {
                core.ends_with(['.', ',', ';', '!', '?'])
            });
        // "..", "docs/..": a parent folder, its dots kept (a full stop or
        // a question mark after it is still cut).
        let bare = core.trim_end_matches([',', ';', '!', '?']);
        let parent = crate::understand::mentions::ends_in_parent_folder(bare);
        let word = if dotted {
            tok.to_string()
        } else if ends && parent {
            format!("{bare}{}", &tok[core.len()..])
        } else if ends {
            let stripped = core.trim_end_matches([',', ';', '!', '?']);
            // "in Washington, D.C.?" keeps the abbreviation's full stop.
            let stripped = if crate::understand::mentions::is_dotted_abbreviation(stripped) {
                stripped
            } else {
                core.trim_end_matches(['.', ',', ';', '!', '?'])
            };
            // Keep closing quotes/brackets that followed the punctuation.
            format!("{stripped}{}", &tok[core.len()..])
        } else {
            tok.to_string()
        };
        if !word.is_empty() {
            if !cur.text.is_empty() {
                cur.text.push(' ');
            }
            cur.text.push_str(&word);
        }
        if ends {
            flush(&mut cur, &mut out, String::new(), core.ends_with(','));
        }
    }
    flush(&mut cur, &mut out, String::new(), false);
    out
}

/// Whether `clause` refers back to the previous clause (see
/// [`BACK_REFERENCES`]).
pub fn refers_back(clause: &str) -> bool {
    // "*Once we have those,* I need to calculate …": a leading clause of
    // time orders the request; what it points at is not used.
    let clause = match clause.split_once(',') {
        Some((lead, rest))
            if lead.split_whitespace().count() <= 5
                && lead.split_whitespace().next().is_some_and(|w| {
                    matches!(w.to_lowercase().as_str(), "once" | "when" | "after")
                })
                && lead.split_whitespace().any(|w| {
                    matches!(
                        w.to_lowercase().as_str(),
                        "have" | "has" | "got" | "done" | "finished" | "is" | "are"
                    )
                }) =>
        {
            rest
        }
        _ => clause,
    };
    let words: Vec<String> = clause
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    if acts_on_nothing_named(&words) {
        return true;
    }
    BACK_REFERENCES.iter().any(|r| {
        let parts: Vec<&str> = r.split(' ').collect();
        words.windows(parts.len()).enumerate().any(|(i, w)| {
            w.iter().zip(&parts).all(|(a, b)| a == b)
                // "what time *is it*", "is it raining": an empty subject,
                // no earlier result.
                && !(*r == "it"
                    && i > 0
                    && matches!(words[i - 1].as_str(), "is" | "was" | "isn't" | "wasn't"))
                && !(parts.last().is_some_and(|l| NAMED_RESULTS.contains(l))
                    && names_a_value(&words, i + parts.len()))
                // "but *this time* with a modulus of 3": when, no result.
                && !(matches!(*r, "this" | "that")
                    && words.get(i + 1).is_some_and(|n| matches!(n.as_str(), "time" | "times")))
        })
    })
}

/// Whether `words` (a clause's, lower-case) are a verb that reshapes
/// data, with no object: "then sort", "Please sort by popularity", "and
/// count". It acts on the previous clause's result, as "then sort
/// *them*" would. Only verbs that compute on a result without effects:
/// an attack trial found "List the messages, then delete" deleting them
/// all, and "Read ptr.txt, then read" reading the file named inside.
fn acts_on_nothing_named(words: &[String]) -> bool {
    const OPENERS: &[&str] = &["please", "then", "and", "also", "now", "finally", "next"];
    const RESHAPING: &[&str] = &[
        "sort",
        "count",
        "reverse",
        "sum",
        "total",
        "average",
        "dedupe",
        "deduplicate",
    ];
    // How the verb acts, never on what: "by popularity", "descending".
    const MANNER: &[&str] = &[
        "by",
        "alphabetically",
        "numerically",
        "ascending",
        "descending",
        "backwards",
    ];
    let rest: Vec<&str> = words
        .iter()
        .map(String::as_str)
        .skip_while(|w| OPENERS.contains(w))
        .collect();
    let Some((verb, after)) = rest.split_first() else {
        return false;
    };
    RESHAPING.contains(verb) && after.first().is_none_or(|w| MANNER.contains(w))
}

/// The first word of a clause, lower-cased, skipping a leading `please`.
fn first_word(clause: &str) -> String {
    clause
        .split_whitespace()
        .map(|w| {
            let w = w
                .trim_matches(|c: char| !c.is_alphanumeric())
                .to_ascii_lowercase();
            // "what's", "who's": the question word.
            w.strip_suffix("'s")
                .or_else(|| w.strip_suffix("\u{2019}s"))
                .map(str::to_string)
                .unwrap_or(w)
        })
        .find(|w| w != "please")
        .unwrap_or_default()
}

/// The intent type suggested by a clause's first word (`please` skipped;
/// see [`lexicon::VERBS`]), or `None` when it is not a known action verb.
fn verb_type(clause: &str) -> Option<IntentType> {
    let w = first_word(clause);
    lexicon::VERBS
        .iter()
        .find(|(_, vs)| vs.contains(&w.as_str()))
        .map(|(t, _)| IntentType::parse(t))
}

/// The intent type suggested by a clause ([`verb_type`], else `clause`).
fn intent_type(clause: &str) -> IntentType {
    verb_type(clause).unwrap_or_else(|| IntentType::Other("clause".into()))
}

/// Deterministic decomposition by clauses: one sub-intent per clause of the
/// goal (see the module documentation for the splitting and dependency
/// rules). A clause is merged back into the previous one (with its
/// connector or comma) when it has fewer than two words (`count words and
/// lines`), or when it follows a bare comma and does not start with an
/// action verb ([`lexicon::VERBS`], after an optional `please`): `fly to Rome on
/// Monday, the passenger is Li` stays one clause. Offers nothing
/// (`None`) when the goal has a single clause, so the whole-goal fallback
/// applies. A clause's stated values are its [`SubIntent::mentions`],
/// bound to a capability's parameters at resolution; a clause that is
/// arithmetic, or that a pattern rule matches, is replaced by their
/// sub-intents. A clause opening with a preposition and no verb ("and in
/// New York") repeats the previous clause with that phrase replaced; a
/// clause introduced by `then`/`after that`/`finally` runs after the
/// previous one ([`SubIntent::after`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct ClauseDecomposition;

impl ClauseDecomposition {
    /// The clause texts after merging short clauses into their predecessor.
    pub fn clause_texts(goal: &str) -> Vec<String> {
        Self::clause_parts(goal).into_iter().map(|c| c.1).collect()
    }

    /// The clauses after merging, each with the connector that introduced
    /// it (`then`, `and`, `after that`; empty after punctuation).
    pub fn clause_parts(goal: &str) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        // Whether the last clause is a premise opening a sentence, not
        // yet joined to its request.
        let mut premise_open = false;
        // Where a premise was read with its request: the clause's index,
        // the premise's length in it, and the clause's length then (only
        // appended to since).
        let mut premise_fold: Option<(usize, usize, usize)> = None;
        for c in split_clauses(goal) {
            // "Given patient with id 546382, retrieve their MRI report":
            // a premise states what the request after its comma is about;
            // read alone it was a request of its own (a call asking for
            // the status), and "their" took its result as the patient.
            let after_a_premise = c.after_comma
                && c.lead.is_empty()
                && premise_open
                && out
                    .last()
                    .is_some_and(|(_, premise)| premise_fits(premise, &c.text));
            premise_open = !c.after_comma && c.lead.is_empty() && opens_a_premise(&c.text);
            let n_words = c
                .text
                .split_whitespace()
                .filter(|w| w.chars().any(char::is_alphanumeric))
                .count();
            // A clause after a plain "and" that opens with no verb (and is
            // not an elliptical "in New York") continues the previous one:
            // "(33.4 N, 112.0 W) and (34.0 N, 118.2 W)", "a human and a chimp".
            let first = c
                .text
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_lowercase();
            let verbless = verb_type(&c.text).is_none()
                && !crate::understand::lexicon::is_action_verb(&first)
                && !ELLIPSIS_PREPS.contains(&first.as_str());
            // "sleep 2 seconds, then again": the previous clause once more,
            // when it reads or computes; never folded into it (its "again"
            // would be lost).
            if is_bare_repeat(&c.text) {
                let again = match out.last() {
                    Some((_, last)) if repeatable(last) => last.clone(),
                    _ => c.text.clone(),
                };
                // Once more is after the first time.
                let lead = if sequential(&c.lead) {
                    c.lead
                } else {
                    "then".to_string()
                };
                out.push((lead, again));
                continue;
            }
            // "find a divorce lawyer in New York, NY and then a criminal
            // lawyer in Los Angeles, CA": the previous clause's verb again
            // on the new object, built as the old one.
            if matches!(c.lead.as_str(), "and" | "and then" | "then")
                && let Some(gapped) = out
                    .last()
                    .and_then(|(_, last)| complete_gapping(last, &c.text))
            {
                out.push((c.lead, gapped));
                continue;
            }
            // "… then repeat with a time of 10 seconds": the previous
            // clause again, with its values.
            if let Some(varied) = out
                .last()
                .and_then(|(_, last)| complete_variation(last, &c.text))
            {
                out.push((c.lead, varied));
                continue;
            }
            // "Read a.txt, then post": one plain word after "then" is a
            // request of its own, served or refused as one; folded into
            // the previous clause it was dropped with exit 0 (attack
            // trial: "List the tasks, then approve" listed them).
            // Not a key after "by": "sort people.json by age then *name*"
            // orders by a second key.
            let after_by = out.last().is_some_and(|(_, last)| {
                last.split_whitespace()
                    .any(|w| w.eq_ignore_ascii_case("by"))
            });
            let own_request = sequential(&c.lead) && is_plain_word(&c.text) && !after_by;
            let last_at = out.len().saturating_sub(1);
            // "…, I also want them counted", "… and we then need their
            // count": a subject opens a sentence of its own, never a
            // continuation of the previous clause (joined, its request was
            // dropped: attack trial).
            // (After a subordinate clause, "Once we have those, I need
            // to …", the subject opens its main clause: joined.)
            let subordinate_before = out.last().is_some_and(|(_, last)| {
                matches!(
                    first_word(last).as_str(),
                    "once"
                        | "when"
                        | "whenever"
                        | "if"
                        | "unless"
                        | "after"
                        | "before"
                        | "since"
                        | "while"
                        | "until"
                        | "as"
                )
            });
            let own_subject =
                n_words > 1 && matches!(first.as_str(), "i" | "we" | "you") && !subordinate_before;
            let joins = (n_words < 2
                && !crate::understand::lexicon::is_action_verb(&first)
                && !own_request)
                || (c.after_comma && verb_type(&c.text).is_none() && !own_subject)
                || (c.lead == "and" && verbless && !own_subject);
            match out.last_mut() {
                Some((_, last)) if after_a_premise || joins => {
                    let premise_len = last.len();
                    if !c.lead.is_empty() {
                        last.push(' ');
                        last.push_str(&c.lead);
                    } else {
                        last.push(',');
                    }
                    last.push(' ');
                    last.push_str(&c.text);
                    if after_a_premise && !joins {
                        premise_fold = Some((last_at, premise_len, last.len()));
                    }
                }
                _ => out.push((c.lead, c.text)),
            }
        }
        // The premise read with its request only when that request is the
        // goal's last and nothing joined it since: "Given patient 5, get
        // their record and then book an appointment for them" would give
        // the second request the first one's result as "them" (attack
        // trial); as before, each is read alone.
        if let Some((at, premise_len, folded_len)) = premise_fold
            && (at + 1 != out.len() || out[at].1.len() != folded_len)
        {
            let whole = std::mem::take(&mut out[at].1);
            let (premise, rest) = whole.split_at(premise_len);
            let rest = rest.trim_start_matches(',').trim_start();
            out[at].1 = premise.to_string();
            out.insert(at + 1, (String::new(), rest.to_string()));
        }
        same_as_earlier(&mut out);
        // "write the current time to now.txt": what to write is a request
        // of its own, then written ("write it to now.txt").
        let mut split: Vec<(String, String)> = Vec::with_capacity(out.len());
        // The things the clauses so far name.
        let mut earlier: BTreeSet<String> = BTreeSet::new();
        for (lead, text) in out {
            // A thing an earlier clause names is that clause's ("list the
            // files in docs/ and write *the list* to x.txt"; "get the
            // current time, wait, then write *the time*": no new reading).
            // A thing the previous clause names is its result: written
            // as "it".
            // (A file's name without its extension: "log.txt" and
            // "notes.txt" share no thing.)
            let names_of = |t: &str| -> BTreeSet<String> {
                t.split_whitespace()
                    .map(|w| match w.rsplit_once('.') {
                        Some((stem, ext)) if !stem.is_empty() && !ext.is_empty() => stem,
                        _ => w,
                    })
                    .filter(|w| {
                        !crate::resolution::catalog::STOP_WORDS.contains(&w.to_lowercase().as_str())
                    })
                    .flat_map(analyze)
                    .filter(|st| !FILLER_STEMS.contains(&st.as_str()))
                    .collect()
            };
            let previous: BTreeSet<String> =
                split.last().map(|(_, t)| names_of(t)).unwrap_or_default();
            let before = split.len();
            match described_content(&text) {
                Some((source, write, copying)) => {
                    let thing = names_of(source.strip_prefix("show ").unwrap_or(&source));
                    // "write the file to t.txt": a thing named by a common
                    // noun alone is one the goal spoke of — the previous
                    // result —, never a new request ("show the file"
                    // listed the folder).
                    let generic = !copying && generic_thing(&source);
                    if (!thing.is_disjoint(&previous) || generic) && !copying && !split.is_empty() {
                        split.push((lead, write));
                    } else if thing.is_disjoint(&earlier) && !generic {
                        split.push((lead, source));
                        split.push(("and".to_string(), write));
                    } else {
                        split.push((lead, text));
                    }
                }
                None => split.push((lead, text)),
            }
            earlier.extend(split[before..].iter().flat_map(|(_, t)| names_of(t)));
        }
        split
    }
}

/// "find the price for *the same game* on the 'Xbox' platform" after
/// "… for the game 'Call of Duty' …": "the same <noun>" names the one
/// value an earlier clause labelled by that noun — right before it ("the
/// game 'Call of Duty'") or right after ("the 'Playstation' platform") —
/// and is written as "the <noun> <value>". Left as said when no earlier
/// clause labels one, or several values do (which is not said).
fn same_as_earlier(clauses: &mut [(String, String)]) {
    use crate::understand::mentions::{Mention, MentionKind};
    // Each clause's mentions, read once, when a later clause asks for
    // "the same" (an earlier clause is rewritten before it is read here).
    let mut read: Vec<Option<Vec<Mention>>> = vec![None; clauses.len()];
    for i in 1..clauses.len() {
        let text = clauses[i].1.clone();
        // (Byte offsets of the text itself: its lower case may differ in
        // length.)
        const SAME: &[u8] = b"the same ";
        let Some(at) = text
            .as_bytes()
            .windows(SAME.len())
            .position(|w| w.eq_ignore_ascii_case(SAME))
        else {
            continue;
        };
        let rest = &text[at + SAME.len()..];
        let noun_raw = rest
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .trim_end_matches(|c: char| !c.is_alphanumeric());
        let noun = noun_raw.to_lowercase();
        if noun.is_empty()
            || !noun.chars().all(char::is_alphabetic)
            || crate::resolution::catalog::STOP_WORDS.contains(&noun.as_str())
        {
            continue;
        }
        let mut values: BTreeSet<String> = BTreeSet::new();
        for (k, (_, earlier)) in clauses[..i].iter().enumerate() {
            let ms = read[k]
                .get_or_insert_with(|| crate::understand::mentions(earlier).unwrap_or_default());
            for m in ms
                .iter()
                .filter(|m| matches!(m.kind, MentionKind::Name | MentionKind::Quoted))
            {
                let before = earlier
                    .get(..m.span.start)
                    .unwrap_or_default()
                    .trim_end()
                    .to_lowercase();
                let after = earlier
                    .get(m.span.end..)
                    .unwrap_or_default()
                    .trim_start()
                    .to_lowercase();
                let labelled_before = before
                    .rsplit(|c: char| !c.is_alphanumeric())
                    .next()
                    .is_some_and(|w| w == noun);
                let labelled_after = after
                    .split(|c: char| !c.is_alphanumeric())
                    .next()
                    .is_some_and(|w| w == noun);
                if labelled_before || labelled_after {
                    values.insert(m.text.clone());
                }
            }
        }
        let values: Vec<String> = values.into_iter().collect();
        let [value] = values.as_slice() else {
            continue;
        };
        let said = &text[at..at + SAME.len() + noun_raw.len()];
        let the = &said[..3];
        clauses[i].1 = text.replacen(said, &format!("{the} {noun} {value}"), 1);
    }
}

/// Whether `clause` opens with a premise ("*Given* patient with id 5, …"):
/// the facts a request after it works on, no request of its own.
fn opens_a_premise(clause: &str) -> bool {
    // A premise names what it gives by a value ("Given *patient 546382*");
    // "Given the current time" names a result to get first, and "Given
    // *that* I live in Boston", "Given the city *is* Boston" a fact, not
    // what the request acts on (attack trial: "Given the city is Boston,
    // find restaurants in Chicago" put Chicago in the name). Its value is
    // one the goal must use, or one a noun labels ("Given the city
    // Boston"): a one-word name alone may be chance ("Given Spanish,
    // translate 'hola'" dropped it).
    let words: Vec<String> = lexicon::words_of(clause);
    words.first().map(String::as_str) == Some("given")
        && words.get(1).map(String::as_str) != Some("that")
        && !words.iter().any(|w| {
            matches!(
                w.as_str(),
                "is" | "are" | "was" | "were" | "be" | "equals" | "has" | "have"
            )
        })
        && crate::understand::mentions(clause).is_ok_and(|ms| {
            ms.iter().any(|m| {
                !m.weak
                    || m.cue
                        .before
                        .last()
                        .is_some_and(|w| !w.eq_ignore_ascii_case("given"))
            })
        })
}

/// Whether premise `premise` is read with `request`: the request states
/// no value of a kind the premise states ("Given the customer C42, list
/// the orders of customer C43", "Given the currency EUR, convert 100
/// USD …": which is meant where is not said — attack trial).
fn premise_fits(premise: &str, request: &str) -> bool {
    let kinds = |t: &str| -> BTreeSet<crate::understand::mentions::MentionKind> {
        crate::understand::mentions(t)
            .unwrap_or_default()
            .iter()
            .map(|m| m.kind)
            .collect()
    };
    kinds(premise).is_disjoint(&kinds(request))
}

/// Whether the thing of `source` ("show the file") is a common noun alone.
fn generic_thing(source: &str) -> bool {
    let ws: Vec<&str> = source.split_whitespace().skip(1).collect();
    ws.len() <= 2
        && ws.last().is_some_and(|l| {
            matches!(
                l.to_lowercase().as_str(),
                "file"
                    | "files"
                    | "text"
                    | "content"
                    | "contents"
                    | "data"
                    | "output"
                    | "list"
                    | "document"
                    | "page"
                    | "lines"
                    | "words"
                    | "items"
            )
        })
}

/// Stems too common to tie a described thing to an earlier clause.
const FILLER_STEMS: [&str; 4] = ["show", "current", "all", "content"];

/// Verbs that put content into a file ("*write* the date to d.txt").
const WRITING_VERBS: [&str; 7] = ["write", "save", "store", "append", "put", "dump", "output"];

/// A clause writing a thing it describes to a file ("write *the current
/// time* to now.txt", "save the list of files in docs/ to index.txt",
/// "copy notes.txt to backup.txt") as two requests: the thing ("show the
/// current time", "show the contents of notes.txt"), then the write of
/// it ("write it to now.txt"), and whether it copies a file. Otherwise the write asked the user for its
/// content (helper trial) or was refused. Only for a description opening
/// with a determiner or a copied path, with no literal in it (a quoted
/// text, a number, a list is the content itself) and no reference back
/// ("the result" is the earlier request's).
fn described_content(clause: &str) -> Option<(String, String, bool)> {
    use crate::understand::mentions::MentionKind;
    let w = Written::of(clause)?;
    let (verb, thing, prep, copying) = (&w.verb, w.thing.as_str(), w.prep.as_str(), w.copying);
    let inside = &w.inside;
    let dest = &w.dest;
    let first_word = thing.split_whitespace().next()?.to_lowercase();
    let source = if copying {
        // "copy notes.txt to backup.txt": one file, its text.
        match inside.as_slice() {
            [m] if m.kind == MentionKind::Path && m.text == thing => {
                format!("show the contents of {thing}")
            }
            _ => return None,
        }
    } else {
        let described = matches!(
            first_word.as_str(),
            "the" | "a" | "an" | "my" | "our" | "today's" | "all" | "every"
        );
        let literal = inside.iter().any(|m| {
            !matches!(
                m.kind,
                MentionKind::Path | MentionKind::Url | MentionKind::Name | MentionKind::FilePattern
            )
        });
        if !described || literal || w.several() || refers_back(thing) {
            return None;
        }
        format!("show {thing}")
    };
    let write_verb = if copying { "write" } else { verb.as_str() };
    let write = format!(
        "{write_verb} it {prep} {}",
        clause.get(dest.span.start..)?.trim()
    );
    Some((source, write, copying))
}

/// A clause putting something into a file: "write THING to DEST",
/// "copy THING to DEST".
struct Written {
    verb: String,
    /// What is written, as the clause says it.
    thing: String,
    /// `to` or `into`.
    prep: String,
    /// The destination path.
    dest: crate::understand::mentions::Mention,
    /// The mentions inside the thing.
    inside: Vec<crate::understand::mentions::Mention>,
    copying: bool,
}

impl Written {
    fn of(clause: &str) -> Option<Written> {
        use crate::understand::mentions::MentionKind;
        let words = lexicon::word_spans(clause);
        let mut at = 0;
        if words.first().is_some_and(|(_, w)| w == "please") {
            at = 1;
        }
        let (verb_span, verb) = words.get(at)?;
        let copying = verb == "copy";
        if !copying && !WRITING_VERBS.contains(&verb.as_str()) {
            return None;
        }
        let mentions = crate::understand::mentions(clause).ok()?;
        // The destination: the last path, after "to"/"into".
        let dest = mentions.iter().rev().find(|m| {
            m.kind == MentionKind::Path && matches!(m.cue.prep.as_deref(), Some("to" | "into"))
        })?;
        // The thing: between the verb and the preposition.
        let before = clause.get(..dest.span.start)?.trim_end();
        let prep = before.rsplit(' ').next()?;
        let thing = before
            .get(verb_span.end..before.len() - prep.len())?
            .trim()
            .trim_end_matches(',')
            .trim();
        let inside = mentions
            .iter()
            .filter(|m| m.span.start >= verb_span.end && m.span.end <= dest.span.start)
            .cloned()
            .collect();
        Some(Written {
            verb: verb.clone(),
            thing: thing.to_string(),
            prep: prep.to_string(),
            dest: dest.clone(),
            inside,
            copying,
        })
    }

    /// Several things ("the list of files and the current time"): how
    /// they go together in one file is not said.
    fn several(&self) -> bool {
        self.thing.contains(" and ") || self.thing.contains(',')
    }
}

/// Whether `clause` writes several things into one file ("write the
/// number and the current time to x.txt"): refused by the plan when one
/// of them comes from an earlier request (attack trial: the time was
/// dropped).
pub fn writes_several_things(clause: &str) -> bool {
    Written::of(clause).is_some_and(|w| !w.copying && w.several())
}

/// Whether `clause` is one plain lower-case word (a verb on its own,
/// "post", "approve"): no value, no name, no function word, no courtesy
/// ("thanks").
pub(crate) fn is_plain_word(clause: &str) -> bool {
    let w = clause.trim().trim_end_matches(['.', '!', '?', ';']);
    w.len() >= 2
        && w.chars().all(|c| c.is_ascii_lowercase())
        && !crate::understand::mentions::FUNCTION_WORDS.contains(&w)
        && !crate::understand::lexicon::COURTESY.contains(&w)
}

/// Whether a connector orders its clause after the previous one (`then`,
/// `after that`, `afterwards`, `finally`).
fn sequential(lead: &str) -> bool {
    lead.split_whitespace()
        .any(|w| matches!(w, "then" | "after" | "afterwards" | "finally"))
}

/// Prepositions that open an elliptical clause ("... in Tokyo and in New
/// York").
const ELLIPSIS_PREPS: [&str; 8] = ["in", "at", "for", "on", "to", "from", "of", "about"];

/// An elliptical clause ("in New York" after "what time is it in Tokyo")
/// completed from the previous clause: the previous clause with its last
/// phrase of the same preposition replaced by this one.
fn complete_ellipsis(prev: &str, clause: &str) -> Option<String> {
    let first = clause.split_whitespace().next()?.to_lowercase();
    if !ELLIPSIS_PREPS.contains(&first.as_str()) || verb_type(clause).is_some() {
        return None;
    }
    let lower = prev.to_lowercase();
    let needle = format!(" {first} ");
    let at = lower.rfind(&needle)?;
    // The replaced phrase runs to the end of the previous clause, minus
    // closing punctuation.
    let tail = prev[at + 1..].trim_end_matches(['?', '.', '!']);
    // A longer tail is replaced only by a clause of the same build: the
    // same prepositions in the same order ("for 'Queens Hotel' in Berlin
    // from March 10 to March 20" … "and for 'Royal Hotel' in Paris from
    // April 5 to April 15").
    if tail.split_whitespace().count() > 5 {
        let (ours, theirs) = (prepositions_of(clause), prepositions_of(tail));
        if ours.len() < 2 || ours != theirs {
            return None;
        }
    }
    let punct = &prev[at + 1 + tail.len()..];
    Some(format!(
        "{}{}{}",
        &prev[..at + 1],
        clause.trim_end_matches(['?', '.', '!']),
        punct
    ))
}

/// The prepositions of `text` that an ellipsis may repeat
/// ([`ELLIPSIS_PREPS`]), in order: what two phrases built alike share.
fn prepositions_of(text: &str) -> Vec<String> {
    lexicon::words_of(text)
        .into_iter()
        .filter(|w| ELLIPSIS_PREPS.contains(&w.as_str()))
        .collect()
}

/// Whether `word` is a verb a request opens with ([`lexicon::is_action_verb`]
/// or one of [`lexicon::VERBS`]).
fn is_verb_word(word: &str) -> bool {
    lexicon::is_action_verb(word) || verb_type(word).is_some()
}

/// A verbless clause naming a new object of the previous clause's verb
/// ("and then *a criminal lawyer in Los Angeles, CA*" after "find a
/// divorce lawyer in New York, NY"), completed as that clause with its
/// object replaced. Only when the clause opens with an article, states a
/// value, and has the prepositions of the old object in the same order:
/// "a human and a chimp" stays one object.
fn complete_gapping(prev: &str, clause: &str) -> Option<String> {
    let words: Vec<&str> = clause.split_whitespace().collect();
    let first = words.first()?.to_lowercase();
    if !matches!(first.as_str(), "a" | "an" | "the")
        || verb_type(clause).is_some()
        || words.iter().skip(1).any(|w| is_verb_word(w))
        || crate::understand::mentions(clause)
            .unwrap_or_default()
            .is_empty()
    {
        return None;
    }
    let ours = prepositions_of(clause);
    if ours.is_empty() {
        return None;
    }
    // The old object: from an article right after the verb ("find *a
    // cardiologist in Chicago*", "get me *the …*") to the end; an article
    // further on opens no object of the verb ("with a rate of 8%, *an
    // initial investment of $20000*, and a time frame of 5 years").
    let lower = prev.to_lowercase();
    let starts = lower
        .match_indices(' ')
        .map(|(i, _)| i + 1)
        .filter(|&i| {
            let w = lower[i..].split_whitespace().next().unwrap_or("");
            matches!(w, "a" | "an" | "the")
        })
        .collect::<Vec<_>>();
    starts.into_iter().rev().find_map(|at| {
        let head = &prev[..at];
        let mut before = head.split_whitespace().rev();
        let verb = before.next().is_some_and(|w| {
            is_verb_word(w)
                || (matches!(w.to_lowercase().as_str(), "me" | "us")
                    && before.next().is_some_and(is_verb_word))
        });
        (verb && prepositions_of(&prev[at..]) == ours)
            .then(|| format!("{head}{}", clause.trim_end_matches(['?', '.', '!'])))
    })
}

/// Verbs of a clause that only reads a file ("*read* config.json").
const READING_VERBS: [&str; 5] = ["read", "open", "load", "cat", "check"];

/// Words opening a clause that asks for a thing by its name ("*tell me*
/// the app name", "*what is* the port").
const ASKING_FOR: [&str; 9] = [
    "tell", "show", "give", "what", "what's", "whats", "print", "display", "get",
];

/// The one file a clause only reads ("read config.json", "open the
/// file notes.txt"): its verb one of [`READING_VERBS`], nothing else
/// stated or said. (With [`asks_for_the_thing`], the planner reads "read
/// config.json and tell me the app name" as a question about the file.)
pub(crate) fn file_only_read(clause: &str) -> Option<String> {
    let words = lexicon::words_of(clause);
    let stated = crate::understand::mentions(clause).ok()?;
    let [file] = stated.as_slice() else {
        return None;
    };
    let verb = words.first()?;
    if file.kind != crate::understand::MentionKind::Path
        || !lexicon::names_a_file(&file.text)
        || !READING_VERBS.contains(&verb.as_str())
        // Nothing but the verb, "the file", and the file.
        || words.len() > 1 + 2 + lexicon::words_of(&file.text).len()
    {
        return None;
    }
    Some(file.text.clone())
}

/// Whether a clause asks for "the" thing by its name and says nothing
/// else ("tell me the app name", "what is the port"): one to three words
/// after "the", no place, no "it", no "file". (Its stated values are the
/// caller's to check: none.)
pub(crate) fn asks_for_the_thing(clause: &str) -> bool {
    let words = lexicon::words_of(clause);
    let Some(the) = words.iter().position(|w| w == "the") else {
        return false;
    };
    let asks = words
        .first()
        .is_some_and(|w| ASKING_FOR.contains(&w.as_str()))
        && words.get(1..the).is_some_and(|between| {
            between
                .iter()
                .all(|w| matches!(w.as_str(), "me" | "us" | "is" | "are" | "was"))
        });
    let thing = &words[the + 1..];
    asks && !thing.is_empty()
        && thing.len() <= 3
        && !thing
            .iter()
            .any(|w| ELLIPSIS_PREPS.contains(&w.as_str()) || w == "it" || w == "file")
}

/// Words by which a clause asks for the previous one again with other
/// values ("then *repeat* with 10 seconds", "do *the same* for a sample
/// size of 150", "*what about* Paris?").
const VARIATION_MARKERS: [&str; 5] = ["same", "again", "repeat", "about", "redo"];

/// Words a variation may say besides its values and the words labelling
/// them: asking, joining and pointing back ("can you do the same but this
/// time for …"). Nothing else but the previous clause's own words:
/// "is out2.txt the same?" asks a question, "2 *more*", "*over* 150
/// minutes", "*before* that", "*not* for Paris" change what is asked.
const VARIATION_WORDS: [&str; 31] = [
    "instead", "do", "but", "this", "time", "now", "please", "also", "what", "how", "case", "one",
    "the", "a", "an", "with", "for", "of", "in", "at", "on", "to", "from", "and", "then", "can",
    "could", "would", "you", "me", "us",
];

/// Verbs of a clause that changes something besides the lexicon's verbs
/// of writing ([`lexicon::VERBS`]' `write`): such a clause is never
/// repeated with other values by reading a variation ("remember that
/// Alice likes tea; what about Bob?" does not say to remember anything of
/// Bob).
const MORE_CHANGE_VERBS: [&str; 11] = [
    "append", "remember", "memorize", "send", "move", "copy", "rename", "post", "commit", "forget",
    "add",
];

/// The stems of the verbs that change something (computed once).
fn change_stems() -> &'static BTreeSet<String> {
    static S: std::sync::OnceLock<BTreeSet<String>> = std::sync::OnceLock::new();
    S.get_or_init(|| {
        lexicon::VERBS
            .iter()
            .filter(|(kind, _)| *kind == "write")
            .flat_map(|(_, verbs)| verbs.iter())
            .chain(MORE_CHANGE_VERBS.iter())
            .flat_map(|w| analyze(w))
            .collect()
    })
}

/// Words of a clause that only announces requests to come ("Can you help
/// me with a few calculations?", "Could you please help me with the
/// following tasks?"): asking, counting, and nouns of tasks in general.
const ANNOUNCING_WORDS: &[&str] = &[
    "can",
    "could",
    "would",
    "will",
    "you",
    "please",
    "help",
    "me",
    "us",
    "with",
    "i",
    "we",
    "need",
    "have",
    "like",
    "want",
    "some",
    "a",
    "an",
    "few",
    "couple",
    "of",
    "the",
    "following",
    "several",
    "multiple",
    "these",
    "two",
    "three",
    "four",
    "five",
    "different",
    "related",
    "part",
    "two-part",
    "multi-part",
    "things",
    "thing",
    "tasks",
    "task",
    "questions",
    "question",
    "calculations",
    "calculation",
    "computations",
    "conversions",
    "queries",
    "problems",
    "requests",
    "request",
    "operations",
    "steps",
    "errands",
    "information",
    "searches",
    "lookups",
    "and",
    "assist",
    "assistance",
    "out",
    "do",
    "for",
    "my",
    "our",
];

/// Whether `clause` only announces the requests that follow ("Can you
/// help me with a few calculations?"): every word one of
/// [`ANNOUNCING_WORDS`], "help" or "assist" among them, and no value
/// stated. Such a clause asks for nothing of its own.
pub(crate) fn announces_requests(clause: &str) -> bool {
    let words = lexicon::written_words(clause);
    words
        .iter()
        .any(|w| matches!(w.as_str(), "help" | "assist" | "assistance"))
        && words.iter().all(|w| ANNOUNCING_WORDS.contains(&w.as_str()))
        && crate::understand::mentions(clause)
            .unwrap_or_default()
            .iter()
            .all(|m| m.weak && m.kind == crate::understand::MentionKind::Name)
}

/// Words opening a question or a request, not a statement.
pub(super) const ASKING_OPENERS: [&str; 26] = [
    "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "is", "are", "was",
    "were", "do", "does", "did", "can", "could", "would", "will", "should", "shall", "may",
    "might", "please", "let",
];

/// Words by which a sentence asks for something ("I *want* …", "I'm
/// *curious* about …"): no statement of facts.
const ASKING_WORDS: [&str; 12] = [
    "want",
    "like",
    "need",
    "wonder",
    "wondering",
    "curious",
    "interested",
    "help",
    "please",
    "tell",
    "know",
    "find",
];

/// Whether a clause states facts and asks for nothing: "I have a bond
/// with a coupon of $50", "The list is [3, 1, 2]" (it opens with its
/// subject and states a value; no verb of action, no question, no word of
/// asking, no condition). Such a clause is no request: the planner
/// refuses it rather than read it as one ("the list is [3,1,2]" once
/// listed a folder named "[3,1,2]"); folding it into a request as context
/// was tried and let its values fill slots the request never named.
pub(crate) fn is_statement(clause: &str) -> bool {
    // A premise not read with a request ("Given patient 5, get their
    // record and book a visit for them") asks for nothing itself (a
    // premise read with one has a comma, or a verb, after it).
    // (Any clause opening with "given" and stating a value: "Given
    // Yellowstone park" alone, served as a request, made its result the
    // park of the next one. "Given the current time" names a result to
    // get first.)
    if first_word(clause) == "given"
        && !clause.contains(',')
        && crate::understand::mentions(clause).is_ok_and(|ms| !ms.is_empty())
        && !lexicon::words_of(clause)
            .iter()
            .skip(1)
            .any(|w| lexicon::is_action_verb(w) || lexicon::is_request_verb(w))
    {
        return true;
    }
    if !opens_like_a_statement(clause) {
        return false;
    }
    let mentions = crate::understand::mentions(clause).unwrap_or_default();
    // Facts state values ("a coupon of $50", "The first car"): a clause
    // without any ("again", "and so on") is no context to fold in.
    !is_bare_repeat(clause) && (!mentions.is_empty() || states_a_requirement(clause))
}

/// Whether a clause has a word that makes it a sentence: a form of "be",
/// "have" or "do", a modal, or a subject pronoun ("I", "it's": the
/// words are split at apostrophes), or "there". Without
/// one, a clause opening with a determiner is a noun phrase — "the first 3
/// numbers of numbers.txt", "the size of docs/c.txt" — which, typed as a
/// whole goal, names what is wanted (a new-user trial refused it as a
/// statement).
pub(crate) fn has_a_sentence_verb(clause: &str) -> bool {
    const BE_AND_SUBJECTS: &[&str] = &[
        "be", "been", "being", "am", "i", "we", "you", "he", "she", "they", "it", "there",
    ];
    lexicon::words_of(clause).iter().any(|w| {
        let w = w.as_str();
        lexicon::AUXILIARIES.contains(&w)
            || lexicon::MODAL_VERBS.contains(&w)
            || BE_AND_SUBJECTS.contains(&w)
    })
}

/// Whether a clause reads as a statement by its words, values aside: it
/// opens with its subject, a pronoun or a determiner ("The list is …", "I
/// have …", "A group of cyclists are planning a trip"), with no verb of
/// action, no question, no word of asking and no condition.
pub(crate) fn opens_like_a_statement(clause: &str) -> bool {
    let first = first_word(clause);
    // "I have a molecule with the ID 'XYZ123', *can you* retrieve its
    // sequence?": a question after the facts asks.
    let lower = clause.to_lowercase();
    let asks_after_a_comma = lower.contains(", please")
        || lexicon::POLITE_MODALS
            .iter()
            .any(|m| lower.contains(&format!(", {m} you")));
    if asks_after_a_comma {
        return false;
    }
    if first.is_empty()
        || verb_type(clause).is_some()
        || lexicon::is_action_verb(&first)
        || ASKING_OPENERS.contains(&first.as_str())
        // A condition is no fact: "if it is raining in Paris, …" folded
        // in as context would be ignored, not checked.
        || matches!(
            first.as_str(),
            "if" | "unless" | "when" | "whenever" | "while" | "until" | "once" | "suppose"
                | "assuming" | "provided"
        )
        || clause.trim_end().ends_with('?')
    {
        return false;
    }
    // "in Seattle" continues a request (an ellipsis), "times 3" an
    // arithmetic, and a capitalised first word is as often a verb
    // ("Shuffle a deck", "Solve …") as a name.
    const SUBJECTS: [&str; 22] = [
        "i", "we", "you", "he", "she", "they", "it", "my", "our", "your", "his", "her", "their",
        "its", "the", "a", "an", "this", "these", "those", "there", "each",
    ];
    SUBJECTS.contains(&first.as_str())
        && !lexicon::word_spans(clause)
            .iter()
            .any(|(_, w)| ASKING_WORDS.contains(&w.as_str()))
}

/// Whether a clause states what something must be ("The time *must* be in
/// UTC", "The answer *should* be in Celsius"): a requirement, no request
/// (it was run as a call of its own: the current time).
fn states_a_requirement(clause: &str) -> bool {
    let words: Vec<String> = clause
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    words.iter().any(|w| {
        matches!(
            w.as_str(),
            "must" | "should" | "shall" | "mustn't" | "shouldn't" | "cannot" | "can't"
        )
    }) || words
        .windows(2)
        .any(|p| matches!(p[0].as_str(), "has" | "have" | "needs" | "need") && p[1] == "to")
}

/// The phrase by which a clause asks for an earlier request again with
/// something changed ("what about players?", "then the same for
/// series"), when it is still there: [`complete_variation`] replaced the
/// clause by the earlier one with its values, or could not.
pub(crate) fn unresolved_variation(clause: &str) -> Option<&'static str> {
    let lower = format!(" {} ", clause.to_lowercase());
    const PHRASES: [&str; 7] = [
        " the same for ",
        " the same but ",
        " do the same",
        " the same thing",
        " same for ",
        " again for ",
        " again with ",
    ];
    if let Some(p) = PHRASES.iter().find(|p| lower.contains(*p)) {
        return Some(p.trim());
    }
    let first_two: Vec<&str> = lower.split_whitespace().take(2).collect();
    match first_two.as_slice() {
        ["what", "about"] => Some("what about"),
        ["how", "about"] => Some("how about"),
        _ => None,
    }
}

/// Whether a clause only asks to do the previous one once more ("again",
/// "do it again", "repeat that", "once more").
fn is_bare_repeat(clause: &str) -> bool {
    let words: Vec<String> = lexicon::words_of(clause);
    let has = |x: &str| words.iter().any(|w| w == x);
    // "more" repeats only with "once"/"time" ("once more", "one more
    // time"): "31 and more" is a bound, not a second request.
    (words
        .iter()
        .any(|w| matches!(w.as_str(), "again" | "repeat" | "redo"))
        || (has("more") && (has("once") || has("time"))))
        && words.iter().all(|w| {
            matches!(
                w.as_str(),
                "again"
                    | "repeat"
                    | "redo"
                    | "once"
                    | "more"
                    | "do"
                    | "it"
                    | "that"
                    | "please"
                    | "the"
                    | "same"
                    | "one"
                    | "time"
                    | "then"
                    | "and"
            )
        })
}

/// Whether a clause may be done again by a variation or a repeat: it
/// neither changes something ([`change_stems`]) nor refers back.
fn repeatable(prev: &str) -> bool {
    let changes = |w: &str| analyze(w).iter().any(|st| change_stems().contains(st));
    // The previous clause's verb: its first word that opens a request or
    // changes something ("can you *give* me …", "*remember* that …").
    let verb = lexicon::words_of(prev)
        .into_iter()
        .find(|w| lexicon::is_request_verb(w) || lexicon::is_action_verb(w) || changes(w));
    !refers_back(prev) && !verb.is_some_and(|v| changes(&v))
}

/// A clause asking for the previous clause again with other values,
/// completed as that clause with those values in place: "Calculate the
/// force for a field of 5 Tesla and a time of 4 seconds" + "then repeat
/// with a time of 10 seconds" → "Calculate the force for a field of 5
/// Tesla and a time of 10 seconds".
///
/// Each value of the variation replaces the previous clause's value of
/// the same kind labelled by the same words ("sample *size* of 150"
/// replaces "sample size of 50", not "sample mean of 25"); an unlabelled
/// value replaces the only value of its kind. Refused (`None`) unless the
/// clause says a variation marker ("instead" alone withdraws the previous
/// request rather than adding one: refused), states at least one value,
/// every value finds exactly one value to replace, and every other word
/// is one of [`VARIATION_WORDS`] or a word of the previous clause; and
/// never for a previous clause that changes something or refers back
/// (its "it" would then mean another result).
fn complete_variation(prev: &str, clause: &str) -> Option<String> {
    use crate::understand::mentions::MentionKind;
    let lower = clause.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .collect();
    let marked = words
        .iter()
        .any(|w| VARIATION_MARKERS.contains(w) && *w != "about")
        || words
            .windows(2)
            .any(|p| p == ["what", "about"] || p == ["how", "about"]);
    if !marked || !repeatable(prev) {
        return None;
    }
    let vary = crate::understand::mentions(clause).ok()?;
    let base = crate::understand::mentions(prev).ok()?;
    if vary.is_empty()
        || vary
            .iter()
            .any(|m| matches!(m.kind, MentionKind::List | MentionKind::Json))
    {
        return None;
    }
    // Every other word is a marker, one of the variation's own words, or
    // a word of the previous clause.
    let prev_stems: std::collections::BTreeSet<String> = lexicon::word_spans(prev)
        .into_iter()
        .flat_map(|(at, _)| ccos_marketplace::search::analyze(&prev[at]))
        .collect();
    let mut rest = clause.to_string();
    for m in &vary {
        rest = rest.replacen(&m.text, " ", 1);
    }
    let extra = rest
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .map(str::to_lowercase)
        .filter(|w| {
            !w.is_empty()
                && !VARIATION_MARKERS.contains(&w.as_str())
                && !VARIATION_WORDS.contains(&w.as_str())
                && !CONNECTORS.contains(&w.as_str())
        })
        .any(|w| {
            let stems = ccos_marketplace::search::analyze(&w);
            stems.is_empty() || stems.iter().any(|st| !prev_stems.contains(st))
        });
    if extra {
        return None;
    }
    let filler = lexicon::filler_word_stems();
    // A label's words: not the markers or asking ("do the *same* for X").
    let stems = |ws: &[String]| -> std::collections::BTreeSet<String> {
        ws.iter()
            .filter(|w| {
                !VARIATION_MARKERS.contains(&w.as_str()) && !VARIATION_WORDS.contains(&w.as_str())
            })
            .flat_map(|w| ccos_marketplace::search::analyze(w))
            .filter(|w| !filler.contains(w))
            .collect()
    };
    // The value of the previous clause each value replaces.
    let mut replaced: Vec<(usize, &crate::understand::Mention)> = vec![];
    for v in &vary {
        let label = stems(&v.cue.before);
        let same_kind: Vec<(usize, &crate::understand::Mention)> = base
            .iter()
            .enumerate()
            .filter(|(_, b)| b.kind == v.kind)
            .collect();
        let target = if label.is_empty() {
            match same_kind.as_slice() {
                [one] => one.0,
                _ => return None,
            }
        } else {
            let score = |b: &crate::understand::Mention| {
                let l = stems(&b.cue.before);
                l.intersection(&label).count()
            };
            let best = same_kind.iter().map(|(_, b)| score(b)).max().unwrap_or(0);
            let at_best: Vec<usize> = same_kind
                .iter()
                .filter(|(_, b)| score(b) == best)
                .map(|(i, _)| *i)
                .collect();
            match at_best.as_slice() {
                [one] if best > 0 => *one,
                _ => return None,
            }
        };
        if replaced.iter().any(|(i, _)| *i == target) {
            return None;
        }
        replaced.push((target, v));
    }
    // Replace from the end so earlier spans stay valid.
    replaced.sort_by_key(|(i, _)| std::cmp::Reverse(base[*i].span.start));
    let mut out = prev.to_string();
    for (i, v) in replaced {
        let b = &base[i];
        out.replace_range(b.span.start..b.span.end, &v.text);
    }
    Some(out)
}

/// A decomposition tried on each clause (see
/// [`ClauseDecomposition::decompose_with`]); the flag says whether an
/// earlier clause's result exists (for `it`, `that`, `the result`).
pub type PerClause<'a> =
    dyn Fn(&str, bool) -> Result<Option<Vec<SubIntent>>, DecompositionError> + 'a;

impl ClauseDecomposition {
    /// Like [`DecompositionStrategy::decompose`], but each clause is first
    /// offered to `per_clause` (e.g. the pattern rules): when it returns
    /// sub-intents they replace the clause's single one (renumbered in
    /// sequence, their internal references kept); a back-reference then
    /// links the group's first sub-intent to the previous group's last.
    pub fn decompose_with(
        &self,
        goal: &str,
        per_clause: &PerClause<'_>,
    ) -> Result<Option<Vec<SubIntent>>, DecompositionError> {
        let parts = Self::clause_parts(goal);
        if parts.len() < 2 {
            return Ok(None);
        }
        let mut subs: Vec<SubIntent> = Vec::with_capacity(parts.len());
        let mut prev_text: Option<String> = None;
        for (lead, raw) in &parts {
            let completed = prev_text.as_deref().and_then(|p| complete_ellipsis(p, raw));
            let t = completed.as_ref().unwrap_or(raw);
            let prev_last = subs.last().map(|s| s.id.clone());
            let offset = subs.len();
            let group = match per_clause(t, prev_last.is_some())? {
                Some(g) if !g.is_empty() => {
                    let uses_prev = g.iter().any(|s| s.depends_on.iter().any(|d| d == PREV));
                    match (&prev_last, uses_prev) {
                        (None, true) => None,
                        _ => Some(
                            renumber(g, offset)
                                .into_iter()
                                .map(|s| substitute_prev(s, prev_last.as_deref()))
                                .collect::<Vec<_>>(),
                        ),
                    }
                }
                _ => None,
            };
            let mut group = match group {
                Some(g) => g,
                None => {
                    let mut s =
                        SubIntent::new(format!("s{}", offset + 1), t.clone(), intent_type(t));
                    s.mentions = crate::understand::mentions(t).unwrap_or_default();
                    s.from_text = true;
                    vec![s]
                }
            };
            if let (Some(prev), Some(first)) = (prev_last.clone(), group.first_mut()) {
                if refers_back(t) && !first.depends_on.contains(&prev) {
                    first.depends_on.push(prev);
                } else if sequential(lead) && !first.depends_on.contains(&prev) {
                    first.after.push(prev);
                }
            }
            prev_text = Some(t.clone());
            subs.extend(group);
        }
        Ok(Some(subs))
    }
}

/// Replaces [`PREV`] references of a sub-intent with `prev`.
fn substitute_prev(mut s: SubIntent, prev: Option<&str>) -> SubIntent {
    let Some(prev) = prev else {
        return s;
    };
    for d in &mut s.depends_on {
        if d == PREV {
            *d = prev.to_string();
        }
    }
    for v in s.params.values_mut() {
        if let crate::intent::ParamValue::StepRef(r) = v
            && r == PREV
        {
            *r = prev.to_string();
        }
    }
    s
}

/// Renames sub-intents `s1, s2...` of one group to follow `offset` earlier
/// ones, updating every reference (dependencies, step parameters, `each`).
fn renumber(group: Vec<SubIntent>, offset: usize) -> Vec<SubIntent> {
    let map: std::collections::BTreeMap<String, String> = group
        .iter()
        .enumerate()
        .map(|(i, s)| (s.id.clone(), format!("s{}", offset + i + 1)))
        .collect();
    let rename = |id: &str| map.get(id).cloned().unwrap_or_else(|| id.to_string());
    group
        .into_iter()
        .map(|mut s| {
            s.id = rename(&s.id);
            s.depends_on = s.depends_on.iter().map(|d| rename(d)).collect();
            s.each = s.each.as_deref().map(rename);
            s.after = s.after.iter().map(|d| rename(d)).collect();
            for v in s.params.values_mut() {
                if let crate::intent::ParamValue::StepRef(r) = v {
                    *r = rename(r);
                }
            }
            s
        })
        .collect()
}

impl DecompositionStrategy for ClauseDecomposition {
    fn name(&self) -> &str {
        "clause"
    }

    fn decompose(&self, goal: &str) -> Result<Option<Vec<SubIntent>>, DecompositionError> {
        self.decompose_with(goal, &|_, _| Ok(None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(s: &str) -> Vec<String> {
        split_clauses(s).into_iter().map(|c| c.text).collect()
    }

    #[test]
    fn also_and_then_after_a_subject_or_auxiliary_join_no_clauses() {
        assert_eq!(
            texts("After that, I would also like to know the impact of the tiger"),
            vec!["I would also like to know the impact of the tiger"]
        );
        assert_eq!(
            texts("find the impact and we can then compare it"),
            vec!["find the impact", "we can then compare it"]
        );
        // As a connector, still one.
        assert_eq!(texts("echo hi then echo bye"), vec!["echo hi", "echo bye"]);
    }

    #[test]
    fn a_subject_opens_a_clause_of_its_own_unless_a_subordinate_clause_precedes() {
        assert_eq!(
            ClauseDecomposition::clause_texts(
                "The numbers in numbers.txt sorted, I also want them counted"
            ),
            vec![
                "The numbers in numbers.txt sorted",
                "I also want them counted"
            ]
        );
        assert_eq!(
            ClauseDecomposition::clause_texts(
                "Once we have those, I need to calculate the lcm of 15 and 25"
            ),
            vec!["Once we have those, I need to calculate the lcm of 15 and 25"]
        );
    }

    #[test]
    fn the_same_thing_is_the_one_an_earlier_clause_labels() {
        assert_eq!(
            ClauseDecomposition::clause_texts(
                "find the updates for the game 'Call of Duty' on the 'Playstation' platform, then find the price for the same game on the 'Xbox' platform"
            )[1],
            "find the price for the game 'Call of Duty' on the 'Xbox' platform"
        );
        // Two games: which is not said.
        let two = ClauseDecomposition::clause_texts(
            "find the game 'Halo' and the game 'Doom', then find the price for the same game",
        );
        assert!(
            two.last().is_some_and(|t| t.contains("the same game")),
            "{two:?}"
        );
    }

    #[test]
    fn a_premise_is_read_with_the_request_after_it() {
        assert_eq!(
            ClauseDecomposition::clause_texts(
                "Given patient with id 546382, retrieve their brain MRI report with the status 'concluded'."
            ),
            vec![
                "Given patient with id 546382, retrieve their brain MRI report with the status 'concluded'"
            ]
        );
        // Only with one request after it: "them" of a second request
        // would be the first's result.
        assert_eq!(
            ClauseDecomposition::clause_texts(
                "Given patient 546382, get their record and then book an appointment for them"
            ),
            vec![
                "Given patient 546382",
                "get their record",
                "book an appointment for them"
            ]
        );
        assert_eq!(
            ClauseDecomposition::clause_texts("Given the list [3,1,2], sort it, then reverse it")
                .len(),
            3
        );
        // A result to get first, or a fact, is no premise; nor one whose
        // kind of value the request states again.
        for goal in [
            "Given the current time, write it to now.txt",
            "Given that I live in Boston, find Italian restaurants",
            "Given the city is Boston, find restaurants in Chicago",
            "Given the customer C42, list the orders of customer C43",
        ] {
            assert_eq!(ClauseDecomposition::clause_texts(goal).len(), 2, "{goal}");
        }
    }

    #[test]
    fn one_plain_word_after_then_is_a_request_of_its_own() {
        // Folded into "List the tasks", "approve" was dropped with exit 0.
        let parts = ClauseDecomposition::clause_parts("List the tasks, then approve");
        assert_eq!(parts.len(), 2, "{parts:?}");
        assert_eq!(parts[1].1, "approve");
        // A value after "then" still continues the clause before it, and
        // so does a second key to order by.
        for goal in ["sort 3, 1, then 2", "sort people.json by age then name"] {
            assert_eq!(ClauseDecomposition::clause_parts(goal).len(), 1, "{goal}");
        }
    }

    #[test]
    fn also_joins_two_requests_even_after_a_subject() {
        // Read as an adverb of one clause ("I would also like"), it merged
        // two requests into one call (helper trial: `findHotel {:city
        // "Paris" :hotel "Rome"}` for "Find parking in Paris and I also
        // want a hotel in Rome"). The "and" splits them; "also" stays in
        // the second's verb phrase.
        assert_eq!(
            texts("Find parking in Paris and I also want a hotel in Rome"),
            ["Find parking in Paris", "I also want a hotel in Rome"]
        );
        assert_eq!(
            texts("Find parking in Paris, I also want a hotel in Rome"),
            ["Find parking in Paris", "I also want a hotel in Rome"]
        );
        // Run together, the requests stay apart.
        assert_eq!(
            texts("Find parking in Paris I also want a hotel in Rome"),
            ["Find parking in Paris I", "want a hotel in Rome"]
        );
    }

    #[test]
    fn a_single_quoted_text_is_never_split() {
        // Attack trial: "'a; b'" was cut at ';' and came back as "a, b".
        assert_eq!(
            texts(
                "The first text is 'a; b'. The second text is 'c. d'. Count the words of each text."
            ),
            [
                "The first text is 'a; b'",
                "The second text is 'c. d'",
                "Count the words of each text"
            ]
        );
        assert_eq!(
            texts("search for 'salt and pepper' then print it"),
            ["search for 'salt and pepper'", "print it"]
        );
        // An apostrophe opens nothing: "it's" and a lone "'90s".
        assert_eq!(
            texts("it's late, and the '90s were fun. print it"),
            ["it's late", "the '90s were fun", "print it"]
        );
    }

    #[test]
    fn splits_at_punctuation_and_connectors() {
        assert_eq!(
            texts("Book a flight to Paris, then send an email to Bob."),
            ["Book a flight to Paris", "send an email to Bob"]
        );
        assert_eq!(
            texts("read notes.txt; count 3.5 words. After that show it"),
            ["read notes.txt", "count 3.5 words", "show it"]
        );
        let c = split_clauses("get x after that print it and finally save");
        assert_eq!(c[1].lead, "after that");
        assert_eq!(c[2].lead, "and finally");
        assert_eq!(
            texts("First, find the power of 7. Second, find x. Lastly, find y"),
            ["find the power of 7", "find x", "find y"]
        );
        assert!(!super::refers_back(
            "the power of 2, but this time with a modulus of 3"
        ));
        assert!(!super::refers_back(
            "Once we have those, I need to calculate the least common multiple of 15 and 25"
        ));
        assert!(super::refers_back("Once that is done, write it to x.txt"));
        for t in [
            "Can you help me with a few calculations",
            "Could you please help me with the following tasks",
            "Could you help me with a two-part request",
        ] {
            assert!(super::announces_requests(t), "{t}");
        }
        for t in [
            "Can you help me with the weather in Paris",
            "Can you help me solve the following equations",
            "help me with 3 tasks",
        ] {
            assert!(!super::announces_requests(t), "{t}");
        }
        assert!(!super::is_statement(
            "I have a molecule with the ID 'XYZ123', can you retrieve its sequence"
        ));
        assert_eq!(
            texts("count the words in 'a b'. Split 'a,b' on ','"),
            ["count the words in 'a b'", "Split 'a,b' on ','"]
        );
        assert_eq!(
            texts("Design a house with 3 bedrooms. Also, design an office with 5 rooms"),
            [
                "Design a house with 3 bedrooms",
                "design an office with 5 rooms"
            ]
        );
        let c = split_clauses("find a lawyer in Austin? After that, I need to find a doctor");
        assert_eq!(c[1].lead, "after that");
        assert_eq!(c[1].text, "I need to find a doctor");
        assert_eq!(
            texts("say \"a, b and c\" also stop"),
            ["say \"a, b and c\"", "stop"]
        );
        assert_eq!(texts("one clause only"), ["one clause only"]);
        // A title's full stop ends no sentence.
        assert_eq!(
            texts("remember that Dr. Smith is my dentist. Then list it"),
            ["remember that Dr. Smith is my dentist", "list it"]
        );
        assert!(texts("  , and .").is_empty());
        // A dotted abbreviation keeps its full stop, and ends a sentence
        // only before a word that opens one.
        assert_eq!(
            texts("Who was the U.S. president during the Civil War?"),
            ["Who was the U.S. president during the Civil War"]
        );
        assert_eq!(
            texts("What is the distance between Boston, MA, and Washington, D.C.?"),
            [
                "What is the distance between Boston",
                "MA",
                "Washington",
                "D.C."
            ]
        );
        assert_eq!(
            texts("Get the last game played by Liverpool F.C. Include its statistics."),
            [
                "Get the last game played by Liverpool F.C.",
                "Include its statistics"
            ]
        );
    }

    #[test]
    fn statements_and_requirements_ask_for_nothing() {
        use super::is_statement;
        assert!(is_statement("The list is [3,1,2]"));
        assert!(is_statement("I have a bond with a coupon of $50"));
        assert!(is_statement("The time must be in UTC"));
        assert!(is_statement("The answer should be in Celsius"));
        // A premise left alone asks for nothing; with its request, it asks.
        assert!(is_statement("Given customer Bob"));
        // A noun phrase has no verb of a sentence.
        assert!(!has_a_sentence_verb("the first 3 numbers of numbers.txt"));
        assert!(has_a_sentence_verb("The list is [3,1,2]"));
        assert!(has_a_sentence_verb("I need a bond with a coupon of $50"));
        assert!(is_statement("Given Yellowstone park"));
        assert!(is_statement("Given the city is Boston"));
        assert!(!is_statement("Given customer Bob, list his orders"));
        assert!(!is_statement(
            "Given patient 546382 retrieve their MRI report"
        ));
        // Requests, questions, conditions, imperatives, continuations.
        assert!(!is_statement("I need to sort [3,1,2]"));
        assert!(!is_statement("what is the max of [3,9,4]?"));
        assert!(!is_statement("if it is 14:00 in Paris"));
        assert!(!is_statement("Shuffle a deck of 52 cards"));
        assert!(!is_statement("in Seattle, Washington"));
        assert!(!is_statement("times 3"));
        assert!(!is_statement("The weather is nice"));
    }

    #[test]
    fn an_ellipsis_built_as_the_previous_tail_replaces_all_of_it() {
        let prev = "Check the availability for 'Queens Hotel' in Berlin from March 10 to March 20";
        assert_eq!(
            complete_ellipsis(prev, "for 'Royal Hotel' in Paris from April 5 to April 15")
                .as_deref(),
            Some("Check the availability for 'Royal Hotel' in Paris from April 5 to April 15")
        );
        // Built otherwise: no replacement of a long tail.
        assert_eq!(complete_ellipsis(prev, "for 'Royal Hotel' in Paris"), None);
    }

    #[test]
    fn a_new_object_takes_the_previous_verb_when_built_alike() {
        assert_eq!(
            ClauseDecomposition::clause_texts(
                "Find a divorce lawyer in New York, NY and then a criminal lawyer in Los Angeles, CA. \
                 After that, I need to find a cardiologist in Chicago, IL and an orthopedic doctor in Houston, TX."
            ),
            [
                "Find a divorce lawyer in New York, NY",
                "Find a criminal lawyer in Los Angeles, CA",
                "I need to find a cardiologist in Chicago, IL",
                "I need to find an orthopedic doctor in Houston, TX",
            ]
        );
        // Objects with nothing stated, or built otherwise, stay together.
        assert_eq!(
            ClauseDecomposition::clause_texts("compare the genes of a human and a chimp"),
            ["compare the genes of a human and a chimp"]
        );
        assert_eq!(
            ClauseDecomposition::clause_texts("find a hotel in Paris and the museum of Rome").len(),
            1
        );
        // Attributes listed in a phrase are no objects of the verb.
        let goal = "Calculate the future value with a rate of 8%, an initial investment of $20000, \
                    and a time frame of 5 years";
        assert!(
            ClauseDecomposition::clause_texts(goal)
                .iter()
                .all(|c| !c.starts_with("Calculate the future value with a rate of 8%, a time")),
            "{:?}",
            ClauseDecomposition::clause_texts(goal)
        );
    }

    #[test]
    fn a_variation_repeats_the_previous_clause_with_its_values() {
        use super::complete_variation as vary;
        let base = "Calculate the force for a field of 5 Tesla and a change in time of 4 seconds";
        assert_eq!(
            vary(base, "then repeat with a change in time of 10 seconds").as_deref(),
            Some("Calculate the force for a field of 5 Tesla and a change in time of 10 seconds")
        );
        // The value replaced is the one labelled by the same words.
        let base = "a confidence interval with standard deviation of 10, sample size of 50 and sample mean of 25";
        assert_eq!(
            vary(
                base,
                "can you do the same but for a sample size of 150 instead"
            )
            .as_deref(),
            Some(
                "a confidence interval with standard deviation of 10, sample size of 150 and sample mean of 25"
            )
        );
        // Unlabelled: the only value of its kind.
        assert_eq!(
            vary("what time is it in Tokyo", "what about Paris").as_deref(),
            Some("what time is it in Paris")
        );
        // No marker, no value, a new request, or no single value to
        // replace: no variation.
        assert_eq!(vary(base, "and a sample size of 150"), None);
        assert_eq!(vary(base, "do the same"), None);
        assert_eq!(
            vary(base, "do the same but delete a sample size of 150"),
            None
        );
        assert_eq!(vary("add 2 and 3", "do the same for 7"), None);
        assert!(super::is_bare_repeat("again"));
        assert!(super::is_bare_repeat("do it once more"));
        assert!(!super::is_bare_repeat("again for Paris"));
        assert!(super::repeatable("sleep 2 seconds"));
        assert!(!super::repeatable("append 'hello' to log.txt"));
        // The label's words exclude the markers: "do the same for X".
        assert_eq!(
            vary("sleep for 2 seconds", "do the same for 3 seconds").as_deref(),
            Some("sleep for 3 seconds")
        );
        // A question, a comparison, an order or a negation is no variation
        // (attack trial).
        for (base, v) in [
            ("read out1.txt", "is out2.txt the same?"),
            (
                "take the first 3 items of 5, 1, 4",
                "then what about 2 more?",
            ),
            (
                "find movies with a runtime under 120 minutes",
                "what about over 150 minutes?",
            ),
            ("what time is it in Tokyo", "do the same but not for Paris"),
            ("read 'hello' from a.txt", "what about 'bye' before that?"),
            // "instead" alone withdraws the request rather than adding one.
            ("what time is it in Tokyo", "Paris instead"),
            // Never a clause that changes something, nor one referring back.
            ("write 'hello' to out1.txt", "what about out2.txt?"),
            ("remember that Alice likes tea", "what about Bob?"),
            ("please delete the entity Alice", "what about Bob?"),
            ("read a.txt, then write it to b.txt", "what about c.txt?"),
        ] {
            assert_eq!(vary(base, v), None, "{base} / {v}");
        }
    }

    #[test]
    fn a_second_question_is_its_own_clause() {
        assert_eq!(
            ClauseDecomposition::clause_texts("what is 2 plus 3 and what's 4 times 5?"),
            ["what is 2 plus 3", "what's 4 times 5"]
        );
        assert_eq!(
            ClauseDecomposition::clause_texts("who is Ann and who\u{2019}s Bob"),
            ["who is Ann", "who\u{2019}s Bob"]
        );
    }

    #[test]
    fn decomposes_with_back_references() {
        let d = ClauseDecomposition;
        let v = d
            .decompose("Find hotels in Rome, then book the cheapest of them and email my boss")
            .unwrap()
            .unwrap();
        let got: Vec<(&str, &str, Vec<String>)> = v
            .iter()
            .map(|s| (s.id.as_str(), s.description.as_str(), s.depends_on.clone()))
            .collect();
        assert_eq!(
            got,
            [
                ("s1", "Find hotels in Rome", vec![]),
                ("s2", "book the cheapest of them", vec!["s1".to_string()]),
                ("s3", "email my boss", vec![]),
            ]
        );
        assert_eq!(v[0].intent_type, IntentType::Fetch);
        assert_eq!(v[1].intent_type, IntentType::Write);
        assert_eq!(v[2].intent_type, IntentType::Output);
        assert_eq!(
            ClauseDecomposition::clause_texts(
                "Please fly me to Rome on Monday, the passenger is Li, and remind me, check in"
            ),
            [
                "Please fly me to Rome on Monday, the passenger is Li",
                "remind me",
                "check in"
            ]
        );
        // Short clauses merge back; a single clause offers nothing.
        assert!(d.decompose("count words and lines").unwrap().is_none());
        assert!(d.decompose("book me a flight").unwrap().is_none());
        let v = d
            .decompose("read docs/a.md and summarize the result")
            .unwrap()
            .unwrap();
        assert_eq!(v[1].depends_on, ["s1"]);
        assert_eq!(v[0].mentions[0].text, "docs/a.md");
        // Per-clause patterns replace a clause and are renumbered.
        let per = |c: &str, _: bool| -> Result<Option<Vec<SubIntent>>, DecompositionError> {
            Ok(c.starts_with("read").then(|| {
                vec![
                    SubIntent::new("s1", "read", IntentType::Fetch),
                    SubIntent::new("s2", "count", IntentType::Compute)
                        .with_step_param("text", "s1"),
                ]
            }))
        };
        let v = d
            .decompose_with("email Bob. read a.txt, then translate it", &per)
            .unwrap()
            .unwrap();
        let got: Vec<(&str, Vec<String>)> = v
            .iter()
            .map(|s| (s.id.as_str(), s.depends_on.clone()))
            .collect();
        assert_eq!(
            got,
            [
                ("s1", vec![]),
                ("s2", vec![]),
                ("s3", vec!["s2".to_string()]),
                ("s4", vec!["s3".to_string()]),
            ]
        );
        assert_eq!(
            v[2].params["text"],
            crate::intent::ParamValue::StepRef("s2".into())
        );
    }

    #[test]
    fn back_reference_words_are_whole_words() {
        assert!(refers_back("translate it"));
        assert!(refers_back("save The Result to disk"));
        assert!(!refers_back("itemize the thesis"));
        // A verb with no object acts on the previous result.
        assert!(refers_back("then sort"));
        assert!(refers_back("Please sort by popularity"));
        assert!(!refers_back("sort the numbers 3, 1, 2"));
        assert!(!refers_back("then wait"));
        assert!(!refers_back("then delete"));
        assert!(!refers_back("then read"));
        assert!(!refers_back("results page"));
        // An empty subject ("what time is it") is no earlier result.
        assert!(!refers_back("what time is it in New York"));
        assert!(!refers_back("is it raining in Paris"));
        assert!(refers_back("check whether it is empty"));
        // A one-word request after "and" is a request of its own.
        assert_eq!(
            ClauseDecomposition::clause_texts("show the status and commit"),
            ["show the status", "commit"]
        );
        assert_eq!(
            ClauseDecomposition::clause_texts("count words and lines"),
            ["count words and lines"]
        );
    }
}
