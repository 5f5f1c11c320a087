//! Stories of instances: a goal that describes several things of one kind
//! by their order and asks the same of each — "The first garden has a
//! base of 10 meters and a height of 5 meters, the second garden has a
//! base of 15 meters … What is the area of each garden?".
//!
//! Words only (no catalog): which parts of the goal's clauses describe an
//! instance (they open with "the first …", "the second …", in order),
//! which ask (a request or a question that refers to the group: "both",
//! "each", "these", "the three gardens"), and which set the scene ("John
//! is a geometry teacher"). The planner decides whether one capability
//! serves every instance with what that instance states
//! (`Planner::instance_story`).

use crate::understand::lexicon::word_spans;

/// What a part of the story does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// States the scene, and no instance's values.
    Setting,
    /// Describes one instance (its values).
    Instance,
    /// Asks what to do with the instances.
    Ask,
}

/// A part of the story: a clause, or a piece of one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Part {
    /// The index of the clause it is (a piece of).
    pub clause: usize,
    /// Its text.
    pub text: String,
    /// What it does.
    pub role: Role,
}

/// A goal read as a story of instances.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Story {
    /// Its parts in the goal's order.
    pub parts: Vec<Part>,
    /// How many instances it describes (at least two).
    pub instances: usize,
    /// A word of an ask that combines the instances' results ("the
    /// *total* area", "combined"), which one call per instance does not
    /// answer.
    pub aggregate: Option<String>,
    /// The arithmetic the asks combine the results by, when one
    /// ([`arithmetic`]): the plan makes it.
    pub combination: Option<Combination>,
    /// The stems of the nouns the instances are named by ("the first
    /// *garden*": `garden`).
    pub nouns: Vec<String>,
    /// The story's characters, the names opening its setting ("*John* is
    /// a geometry teacher"), lower case: who asks, no value of a request.
    pub characters: std::collections::BTreeSet<String>,
}

/// Ordinal words, in order; "last" and "final" close a sequence.
const ORDINALS: [&str; 6] = ["first", "second", "third", "fourth", "fifth", "sixth"];
const CLOSING: [&str; 2] = ["last", "final"];

/// Whether `w` (lower-case) is an ordinal word of a story ("second",
/// "last").
fn is_ordinal(w: &str) -> bool {
    ORDINALS.contains(&w) || CLOSING.contains(&w)
}

/// Prepositions an instance may open with ("*On* the first day", "*In*
/// the second scenario").
const OPENING_PREPOSITIONS: [&str; 5] = ["on", "in", "for", "during", "at"];

/// Words by which an ask refers to the instances as a group.
const GROUP_WORDS: [&str; 9] = [
    "both",
    "each",
    "these",
    "those",
    "them",
    "all",
    "either",
    "every",
    "respective",
];

/// Words by which an ask refers to the instances without saying it is a
/// group; enough only beside an ask that says so ("Can you help him
/// calculate *this*?").
const VAGUE_WORDS: [&str; 3] = ["this", "that", "it"];

/// Words of an ask that combine the instances' results ("the *total*
/// area", "the *average* of the three"), unless the ask takes each
/// instance on its own ("the average of *each* set").
const AGGREGATES: [&str; 6] = ["total", "sum", "overall", "average", "mean", "altogether"];

/// Words of an ask that always relate the instances to one another ("the
/// distance *between* them", "the weather *between* each city").
const RELATING: [&str; 7] = [
    "between",
    "difference",
    "ratio",
    "versus",
    "vs",
    "combined",
    "together",
];

/// Whether `word` (lower-case) combines or relates the instances'
/// results ("total", "between").
pub(crate) fn combines(word: &str) -> bool {
    AGGREGATES.contains(&word) || RELATING.contains(&word)
}

/// How a story's asks combine the instances' results when arithmetic
/// says it: the plan adds the results up, and for a mean divides the sum
/// by their count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Combination {
    /// "the *total* area", "their *sum*", "the two triangles *combined*".
    Sum,
    /// "the *average* area", "the *mean* of the three".
    Mean,
}

/// The combination an aggregate or relating word says, if arithmetic:
/// "overall", "between", "ratio" and the like say no arithmetic of their
/// own ("the overall rating", "the distance between them").
fn combination_of(word: &str) -> Option<Combination> {
    match word {
        "total" | "sum" | "altogether" | "combined" | "together" => Some(Combination::Sum),
        "average" | "mean" => Some(Combination::Mean),
        _ => None,
    }
}

/// The arithmetic by which the asks among `parts` combine the
/// instances' results: `None` when they ask nothing combined, or anything
/// other than one sum or one mean ("the *difference between* the
/// totals", "the *total* and the *average*").
fn arithmetic(parts: &[Part]) -> Option<Combination> {
    let mut found: Option<Combination> = None;
    for ask in parts.iter().filter(|p| p.role == Role::Ask) {
        let words: Vec<String> = word_spans(&ask.text).into_iter().map(|(_, w)| w).collect();
        let each = words.iter().any(|w| DISTRIBUTIVE.contains(&w.as_str()));
        for w in words.iter().filter(|w| combines(w)) {
            if each && AGGREGATES.contains(&w.as_str()) {
                continue;
            }
            let c = combination_of(w)?;
            if found.is_some_and(|f| f != c) {
                return None;
            }
            found = Some(c);
        }
    }
    found
}

/// Words an ask opens with before what it asks for ("*What is the*
/// area … combined", "*How many* words … altogether").
const ASK_FRAME: &[&str] = &[
    "what",
    "whats",
    "what's",
    "is",
    "are",
    "was",
    "were",
    "the",
    "a",
    "an",
    "calculate",
    "compute",
    "find",
    "get",
    "determine",
    "tell",
    "me",
    "us",
    "can",
    "could",
    "would",
    "you",
    "please",
    "help",
    "how",
    "much",
    "many",
    "give",
    "show",
    "work",
    "out",
    "i",
    "want",
    "to",
    "know",
    "need",
    "like",
];

/// Words ending the phrase an aggregate word is said of ("the total
/// *area* of …", "the *words* the texts have altogether").
const PHRASE_ENDS: &[&str] = &[
    "of",
    "for",
    "in",
    "on",
    "between",
    "across",
    "over",
    "from",
    "with",
    "per",
    "and",
    "or",
    "to",
    "by",
    "if",
    "when",
    "using",
    "at",
    "combined",
    "together",
    "altogether",
    "do",
    "does",
    "did",
    "have",
    "has",
    "had",
    "is",
    "are",
    "would",
    "will",
];

/// Words naming no quantity of their own, said of the noun after "of"
/// ("the total *number* of words").
const COUNTING_NOUNS: &[&str] = &["number", "amount", "count", "quantity"];

/// The words of what the combining word of `ask` is said of: "the total
/// *area* of the two triangles", "the *sum* of the *areas*", "the *area*
/// of both triangles *combined*", "the total number of *words*"; `None`
/// when the ask has no combining word or says it of nothing.
pub(crate) fn combined_phrase(ask: &str) -> Option<Vec<String>> {
    let words: Vec<String> = word_spans(ask).into_iter().map(|(_, w)| w).collect();
    let i = words.iter().position(|w| combination_of(w).is_some())?;
    let ends = |w: &String| PHRASE_ENDS.contains(&w.as_str()) || w.ends_with('?');
    // "… combined", "… altogether", "… in total": said after the phrase.
    let postpositive = (matches!(words[i].as_str(), "combined" | "together" | "altogether")
        || (words[i] == "total" && i > 0 && words[i - 1] == "in"))
        && words.get(i + 1).is_none_or(ends);
    let mut at = if postpositive {
        // After the ask's opening ("What is the", "Count the").
        let verb = words
            .first()
            .is_some_and(|w| crate::understand::lexicon::is_action_verb(w));
        words
            .iter()
            .enumerate()
            .position(|(k, w)| !(ASK_FRAME.contains(&w.as_str()) || (k == 0 && verb)))?
    } else {
        i + 1
    };
    // "the sum *of the* areas": the phrase follows "of".
    let skip_of = |mut k: usize| {
        if words.get(k).is_some_and(|w| w == "of") {
            k += 1;
            while words
                .get(k)
                .is_some_and(|w| matches!(w.as_str(), "the" | "their" | "its"))
            {
                k += 1;
            }
        }
        k
    };
    at = skip_of(at);
    let phrase = |from: usize| -> Vec<String> {
        words[from.min(words.len())..]
            .iter()
            .take_while(|w| !ends(w))
            .cloned()
            .collect()
    };
    let mut out = phrase(at);
    // "the total *number* of words": what is counted.
    if out.len() == 1 && COUNTING_NOUNS.contains(&out[0].as_str()) {
        out = phrase(skip_of(at + 1));
    }
    // "the total of *the two circles*": the group, said of nothing.
    let group = out
        .first()
        .is_some_and(|w| count_of(w).is_some() || GROUP_WORDS.contains(&w.as_str()));
    (!out.is_empty() && !group).then_some(out)
}

/// Words by which an ask takes each instance on its own ("the average of
/// *each* set"), so that an aggregate word is about one instance.
const DISTRIBUTIVE: [&str; 5] = ["each", "every", "respective", "individually", "separately"];

/// Number words for counting the instances ("two triangles").
const COUNTS: [&str; 7] = ["two", "three", "four", "five", "six", "pair", "couple"];

/// Where the instances of `clause` start, with each one's ordinal (1 for
/// "first", …; 0 for "last"/"final"): "the" + an ordinal + no number
/// after it ("the first 2 years" is a span, no instance), at the clause's
/// start, after an opening preposition or "and" there, or after a comma
/// or an "and" inside the clause.
fn markers(clause: &str) -> Vec<(usize, usize)> {
    let words = word_spans(clause);
    let mut out = vec![];
    for i in 0..words.len() {
        if words[i].1 != "the" {
            continue;
        }
        let Some((_, ord)) = words.get(i + 1) else {
            continue;
        };
        let ordinal = match ORDINALS.iter().position(|o| o == ord) {
            Some(k) => k + 1,
            None if CLOSING.contains(&ord.as_str()) => 0,
            None => continue,
        };
        if words
            .get(i + 2)
            .is_some_and(|(_, w)| w.chars().all(|c| c.is_ascii_digit()))
        {
            continue;
        }
        let start = words[i].0.start;
        let opens =
            |j: usize| OPENING_PREPOSITIONS.contains(&words[j].1.as_str()) || words[j].1 == "and";
        let at = match i {
            0 => Some(start),
            1 if opens(0) => Some(words[0].0.start),
            2 if words[0].1 == "and" && opens(1) => Some(words[1].0.start),
            _ => {
                let prev = &words[i - 1];
                let between = clause.get(prev.0.end..start).unwrap_or("");
                // ", on the second day": the preposition after a comma
                // opens the instance.
                let after_comma = |j: usize| {
                    j >= 1
                        && clause
                            .get(words[j - 1].0.end..words[j].0.start)
                            .is_some_and(|b| b.contains(','))
                };
                if between.contains(',') || between.contains(';') || between.contains(':') {
                    Some(start)
                } else if INLINE_OPENERS.contains(&prev.1.as_str()) && after_comma(i - 1) {
                    // "…of three circles, *where* the first circle has …":
                    // the instances follow the ask in its own sentence.
                    Some(start)
                } else if prev.1 == "and"
                    || (OPENING_PREPOSITIONS.contains(&prev.1.as_str()) && after_comma(i - 1))
                {
                    Some(prev.0.start)
                } else {
                    None
                }
            }
        };
        if let Some(at) = at {
            out.push((at, ordinal));
        }
    }
    out
}

/// Words after a comma by which a sentence goes on to its instances
/// ("What is the total area of three circles, *where* the first circle
/// has …").
const INLINE_OPENERS: [&str; 2] = ["where", "whereby"];

/// The ask of a sentence that states its instances after it ("What is
/// the total area of three circles, where the first …", "Calculate the
/// area of both triangles: the first …"), without the word or colon
/// leading to them; `None` when `prefix` states or sets a scene.
fn inline_ask(prefix: &str) -> Option<String> {
    let ask = match prefix.strip_suffix(':') {
        // "Calculate the area of both triangles: the first …".
        Some(ask) => ask.trim_end(),
        None => {
            let words = word_spans(prefix);
            let (last, w) = words.last()?;
            if !INLINE_OPENERS.contains(&w.as_str()) {
                return None;
            }
            prefix[..last.start]
                .trim_end()
                .trim_end_matches(',')
                .trim_end()
        }
    };
    (!word_spans(ask).is_empty() && !super::opens_like_a_statement(ask) && !sets_the_scene(ask))
        .then(|| ask.to_string())
}

/// An instance's text without its ordinal word ("The *first* company
/// has …" → "The company has …"): the order says which instance, and is
/// no position the capability is asked for.
pub(crate) fn without_ordinal(text: &str) -> String {
    let words = word_spans(text);
    for (k, (span, w)) in words.iter().enumerate().take(4) {
        if is_ordinal(w) && k > 0 && words[k - 1].1 == "the" {
            // "the first one has" → "the has": "one" says no number.
            let skip = if words.get(k + 1).is_some_and(|(_, w)| w == "one") {
                2
            } else {
                1
            };
            let next = words.get(k + skip).map_or(text.len(), |(s, _)| s.start);
            return format!("{}{}", &text[..span.start], &text[next..]);
        }
    }
    text.to_string()
}

/// `clauses` read as a story of instances, or `None`: at least two
/// instances in order ("the first …", "the second …", "the last …"), no
/// ordinal out of that order, no ask between instances, at least one ask
/// and every ask referring to the group (by "both", "each", "these", the
/// count of instances before a noun; "this" only beside such an ask).
pub(crate) fn read(clauses: &[&str]) -> Option<Story> {
    let mut parts: Vec<Part> = vec![];
    let mut next = 1usize;
    for (ci, clause) in clauses.iter().enumerate() {
        let cuts: Vec<(usize, usize)> = markers(clause);
        if cuts.is_empty() {
            let role = if super::opens_like_a_statement(clause) || sets_the_scene(clause) {
                Role::Setting
            } else {
                Role::Ask
            };
            parts.push(Part {
                clause: ci,
                text: clause.trim().to_string(),
                role,
            });
            continue;
        }
        // The ask of the sentence, before its instances ("What is the
        // total area of three circles, where the first circle …").
        let asked = clause
            .get(..cuts[0].0)
            .and_then(|prefix| inline_ask(prefix.trim()));
        // An instance states; a question that says "the first …" asks
        // about one ("what was the first movie …").
        if clause.trim_end().ends_with('?') && asked.is_none() {
            return None;
        }
        for &(_, ordinal) in &cuts {
            match ordinal {
                0 if next > 2 => {}
                k if k == next => {}
                _ => return None,
            }
            next += 1;
        }
        if let Some(ask) = asked {
            parts.push(Part {
                clause: ci,
                text: ask,
                role: Role::Ask,
            });
        } else if let Some(prefix) = clause.get(..cuts[0].0) {
            let prefix = prefix.trim().trim_end_matches([',', ';', ':']).trim();
            if !word_spans(prefix).is_empty() {
                parts.push(Part {
                    clause: ci,
                    text: prefix.to_string(),
                    role: Role::Setting,
                });
            }
        }
        for (k, (at, _)) in cuts.iter().enumerate() {
            let end = cuts.get(k + 1).map_or(clause.len(), |c| c.0);
            let text = clause.get(*at..end)?;
            let text = text
                .trim()
                .trim_end_matches([',', ';', ':', '.', '?'])
                .trim_end()
                .trim_end_matches(" and")
                .trim_end_matches([',', ';'])
                .trim();
            // "…, and the last set is …": the conjunction joins, and is
            // no part of the instance.
            let text = match text.get(..4) {
                Some(and) if and.eq_ignore_ascii_case("and ") => text[4..].trim_start(),
                _ => text,
            };
            parts.push(Part {
                clause: ci,
                text: text.to_string(),
                role: Role::Instance,
            });
        }
    }
    let instances = parts.iter().filter(|p| p.role == Role::Instance).count();
    if instances < 2 {
        return None;
    }
    let first = parts.iter().position(|p| p.role == Role::Instance)?;
    let last = parts.iter().rposition(|p| p.role == Role::Instance)?;
    if parts[first..last].iter().any(|p| p.role == Role::Ask) {
        return None;
    }
    let asks: Vec<&Part> = parts.iter().filter(|p| p.role == Role::Ask).collect();
    let nouns: Vec<String> = instance_nouns(&parts)
        .iter()
        .flat_map(|n| ccos_marketplace::search::analyze(n))
        .collect();
    let refs: Vec<Reference> = asks
        .iter()
        .map(|a| reference(&a.text, instances, &nouns))
        .collect();
    if refs.is_empty() || !refs.contains(&Reference::Group) || refs.contains(&Reference::None) {
        return None;
    }
    // "both" of three instances: which two is not said (attack trial:
    // the three were summed).
    if instances != 2
        && asks
            .iter()
            .any(|a| word_spans(&a.text).iter().any(|(_, w)| w == "both"))
    {
        return None;
    }
    // An ask of two things ("the roster *and* the schedule of each team")
    // or about something related to each instance ("each player's team",
    // "the restaurant next to each restaurant") is no request of the
    // instances themselves.
    if asks
        .iter()
        .any(|a| asks_two_things(&a.text) || relates_each(&a.text))
    {
        return None;
    }
    let aggregate = asks.iter().find_map(|a| {
        let words: Vec<String> = word_spans(&a.text).into_iter().map(|(_, w)| w).collect();
        let each = words.iter().any(|w| DISTRIBUTIVE.contains(&w.as_str()));
        words
            .into_iter()
            .find(|w| RELATING.contains(&w.as_str()) || (!each && AGGREGATES.contains(&w.as_str())))
    });
    let combination = arithmetic(&parts);
    let characters = characters(&parts);
    Some(Story {
        parts,
        instances,
        aggregate,
        combination,
        nouns,
        characters,
    })
}

/// Words opening a clause that sets a scene ("*Imagine* you have two
/// investments", "*Suppose* there are three boxes").
const SCENE_OPENERS: [&str; 5] = ["imagine", "suppose", "consider", "assume", "picture"];

/// Copulas and verbs of having, by which a clause opening with a name
/// states a fact ("John *is* a teacher", "Alice *has* two cars").
const STATING_VERBS: [&str; 7] = ["is", "are", "was", "were", "has", "have", "had"];

/// The names opening the setting parts among `parts`, lower case (see
/// [`Story::characters`]).
fn characters(parts: &[Part]) -> std::collections::BTreeSet<String> {
    parts
        .iter()
        .filter(|p| p.role == Role::Setting)
        .filter_map(|p| {
            let first = p.text.split_whitespace().next()?;
            let capitalised = first.chars().next().is_some_and(char::is_uppercase);
            (capitalised && !crate::understand::lexicon::is_action_verb(&first.to_lowercase()))
                .then(|| first.to_lowercase())
        })
        .filter(|w| !crate::resolution::catalog::STOP_WORDS.contains(&w.as_str()))
        .collect()
}

/// Whether `clause` sets a scene rather than asks, beyond what
/// `opens_like_a_statement` knows: it opens with "imagine", "suppose", …, or with a
/// capitalised name and a copula or "has" ("John is a geometry
/// teacher"), and is no question.
fn sets_the_scene(clause: &str) -> bool {
    let clause = clause.trim();
    if clause.ends_with('?') {
        return false;
    }
    let words = word_spans(clause);
    let Some((first_span, first)) = words.first() else {
        return false;
    };
    if SCENE_OPENERS.contains(&first.as_str()) {
        return true;
    }
    let capitalised = clause
        .get(first_span.clone())
        .and_then(|w| w.chars().next())
        .is_some_and(char::is_uppercase);
    capitalised
        && !crate::understand::lexicon::is_action_verb(first)
        && !super::clause::ASKING_OPENERS.contains(&first.as_str())
        && words
            .get(1)
            .is_some_and(|(_, w)| STATING_VERBS.contains(&w.as_str()))
}

/// The nouns the instances are named by, the word after each ordinal
/// ("the first *garden*", "On the second *day*"; not "one"), each once.
fn instance_nouns(parts: &[Part]) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    for p in parts.iter().filter(|p| p.role == Role::Instance) {
        let words = word_spans(&p.text);
        let noun = words
            .iter()
            .position(|(_, w)| is_ordinal(w))
            .and_then(|k| words.get(k + 1))
            .map(|(_, w)| w.clone());
        if let Some(noun) = noun
            && noun != "one"
            && noun.chars().all(char::is_alphabetic)
            && !out.contains(&noun)
        {
            out.push(noun);
        }
    }
    out
}

/// `ask` said of one instance, for reading it with that instance's
/// values: the group's words become the definite article or "it" ("the
/// average of *each* set" → "the average of the set", "both cities" →
/// "the cities", "the *three* gardens" → "the gardens", "sort *them*" →
/// "sort it"), so that the request's own words — its verb, its
/// qualifiers, its negations — are read as for a single request.
pub(crate) fn for_one(ask: &str, n: usize, nouns: &[String]) -> String {
    let words = word_spans(ask);
    let plain: Vec<String> = words.iter().map(|(_, w)| w.clone()).collect();
    let mut out = String::new();
    let mut last = 0;
    let mut i = 0;
    while i < words.len() {
        let (span, w) = &words[i];
        let next = words.get(i + 1).map(|(_, w)| w.as_str());
        let is_count = counts_the_group(&plain, i, n, nouns);
        // How many words the group's phrase takes, and what it becomes.
        let (take, with): (usize, &str) = match w.as_str() {
            "each" | "every" | "both" | "all" if next == Some("of") => {
                match words.get(i + 2).map(|(_, w)| w.as_str()) {
                    Some("these" | "those" | "the" | "their") => (3, "the"),
                    Some("them") => (3, "it"),
                    _ => (1, "the"),
                }
            }
            "the" | "these" | "those" if counts_the_group(&plain, i + 1, n, nouns) => (2, "the"),
            "each" | "every" | "both" | "all" | "these" | "those" => {
                (if next == Some("the") { 2 } else { 1 }, "the")
            }
            "them" => (1, "it"),
            _ if is_count => (1, ""),
            _ => (0, ""),
        };
        if take == 0 {
            i += 1;
            continue;
        }
        let end = words[i + take - 1].0.end;
        out.push_str(&ask[last..span.start]);
        if with.is_empty() {
            // Drop the word and the space after it.
            last = ask[end..]
                .find(|c: char| !c.is_whitespace())
                .map_or(ask.len(), |k| end + k);
        } else {
            out.push_str(with);
            last = end;
        }
        i += take;
    }
    out.push_str(&ask[last..]);
    out
}

/// The number a count word or numeral says ("two", "3"); "pair" and
/// "couple" are two.
fn count_of(w: &str) -> Option<usize> {
    COUNTS
        .iter()
        .position(|c| *c == w)
        .map(|k| if k >= 5 { 2 } else { k + 2 })
        .or_else(|| w.parse::<usize>().ok())
}

/// How an ask refers to the instances.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reference {
    /// As a group: "both", "each of these", "the three gardens".
    Group,
    /// Vaguely: "calculate this".
    Vague,
    /// Not at all.
    None,
}

/// Whether `words[i]` counts the `n` instances: the count, then (within
/// two words: "three *different* houses") the instances' noun — any word
/// when the instances have none ("the first one …"). "for 2 guests" is a
/// value, not the count of two hotels.
fn counts_the_group(words: &[String], i: usize, n: usize, nouns: &[String]) -> bool {
    if words.get(i).and_then(|w| count_of(w)) != Some(n) {
        return false;
    }
    let noun_after = words
        .get(i + 1)
        .is_some_and(|w| w.chars().all(char::is_alphabetic));
    // A count in words ("four individuals") names the group as often as
    // by the instances' noun; in digits ("2 guests") only by that noun.
    let in_words = words[i].chars().all(char::is_alphabetic);
    (nouns.is_empty() || in_words) && noun_after
        || words
            .iter()
            .skip(i + 1)
            .take(2)
            .flat_map(|w| ccos_marketplace::search::analyze(w))
            .any(|stem| nouns.contains(&stem))
}

/// The words right after the counts of the group in `ask` ("four
/// *individuals*", "three *different* houses": `individuals`,
/// `different`, `houses`), lower-cased: what the ask calls the group.
pub(crate) fn group_words(ask: &str, n: usize, nouns: &[String]) -> Vec<String> {
    let words: Vec<String> = word_spans(ask).into_iter().map(|(_, w)| w).collect();
    (0..words.len())
        .filter(|&i| counts_the_group(&words, i, n, nouns))
        .flat_map(|i| words.iter().skip(i + 1).take(2).cloned())
        .collect()
}

/// Whether `ask` asks for two things joined by "and" ("the roster and the
/// schedule", "count … and reverse …").
fn asks_two_things(ask: &str) -> bool {
    word_spans(ask)
        .iter()
        .any(|(_, w)| matches!(w.as_str(), "and" | "plus"))
}

/// Whether `ask` is about something related to each instance: a
/// possessive after the group's word ("each player's team") or a
/// preposition of place or order before it ("the restaurant *next to*
/// each restaurant", "the order *after* each order").
fn relates_each(ask: &str) -> bool {
    const RELATIONS: [&str; 11] = [
        "after", "before", "next", "to", "near", "beside", "behind", "around", "nearest",
        "closest", "opposite",
    ];
    let words = word_spans(ask);
    words.iter().enumerate().any(|(i, (_, w))| {
        if !GROUP_WORDS.contains(&w.as_str()) {
            return false;
        }
        let possessive = words.get(i + 1).is_some_and(|(next, _)| {
            ask.get(next.end..)
                .is_some_and(|rest| rest.starts_with("'s") || rest.starts_with("’s"))
        });
        let related = i > 0 && RELATIONS.contains(&words[i - 1].1.as_str()) && {
            // "to each" relates only after "next"/"close" ("send to each"
            // is no relation).
            words[i - 1].1 != "to"
                || (i > 1 && matches!(words[i - 2].1.as_str(), "next" | "close" | "closest"))
        };
        possessive || related
    })
}

/// How `ask` refers to a group of `n` instances named by `nouns`.
fn reference(ask: &str, n: usize, nouns: &[String]) -> Reference {
    let words: Vec<String> = word_spans(ask).into_iter().map(|(_, w)| w).collect();
    let counted = (0..words.len()).any(|i| counts_the_group(&words, i, n, nouns));
    if counted || words.iter().any(|w| GROUP_WORDS.contains(&w.as_str())) {
        Reference::Group
    } else if words.iter().any(|w| VAGUE_WORDS.contains(&w.as_str())) {
        Reference::Vague
    } else {
        Reference::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roles(story: &Story) -> Vec<(Role, &str)> {
        story
            .parts
            .iter()
            .map(|p| (p.role, p.text.as_str()))
            .collect()
    }

    #[test]
    fn what_a_combination_is_said_of() {
        let phrase = |a: &str| combined_phrase(a).map(|p| p.join(" "));
        assert_eq!(
            phrase("What is the total area of the two triangles").as_deref(),
            Some("area")
        );
        assert_eq!(
            phrase("What is the sum of the areas of both").as_deref(),
            Some("areas")
        );
        assert_eq!(
            phrase("What is the total number of words of the two texts").as_deref(),
            Some("words")
        );
        assert_eq!(
            phrase("What is the area of the two triangles combined").as_deref(),
            Some("area")
        );
        assert_eq!(
            phrase("How many words are there in total in the two texts").as_deref(),
            Some("words")
        );
        assert_eq!(phrase("What is the total of the two circles"), None);
        assert_eq!(phrase("What is the area of each triangle"), None);
    }

    #[test]
    fn instances_in_order_with_an_ask_about_the_group_make_a_story() {
        let clauses = [
            "He has drawn two triangles on the board",
            "The first triangle has a base of 10 units and a height of 5 units",
            "The second triangle has a base of 8 units and a height of 6 units",
            "Can you calculate the area of both triangles",
        ];
        let story = read(&clauses).expect("a story");
        assert_eq!(story.instances, 2);
        assert_eq!(story.aggregate, None);
        assert_eq!(
            roles(&story),
            vec![
                (Role::Setting, clauses[0]),
                (Role::Instance, clauses[1]),
                (Role::Instance, clauses[2]),
                (Role::Ask, clauses[3]),
            ]
        );
    }

    #[test]
    fn one_clause_splits_at_each_ordinal_and_keeps_its_opening_as_setting() {
        let clauses = [
            "You have three sets of numbers: the first set is [1, 2], the second set is [3, 4] and the last set is [5, 6]",
            "What is the average of each set",
        ];
        let story = read(&clauses).expect("a story");
        assert_eq!(
            roles(&story),
            vec![
                (Role::Setting, "You have three sets of numbers"),
                (Role::Instance, "the first set is [1, 2]"),
                (Role::Instance, "the second set is [3, 4]"),
                (Role::Instance, "the last set is [5, 6]"),
                (Role::Ask, clauses[1]),
            ]
        );
    }

    #[test]
    fn an_opening_preposition_belongs_to_the_instance() {
        let clauses = [
            "On the first day, they cover 120 kilometers in 5 hours",
            "On the second day, they cover 150 kilometers in 6 hours",
            "Calculate their velocity for each day",
        ];
        let story = read(&clauses).expect("a story");
        assert_eq!(story.parts[0].text, clauses[0]);
        assert_eq!(story.parts[1].role, Role::Instance);
    }

    #[test]
    fn an_ask_is_said_of_one_instance() {
        for (ask, one) in [
            (
                "Can you calculate the average of each set of numbers",
                "Can you calculate the average of the set of numbers",
            ),
            (
                "What is the weather in both cities?",
                "What is the weather in the cities?",
            ),
            (
                "What is the area of the three gardens",
                "What is the area of the gardens",
            ),
            (
                "compare the prices of three different houses",
                "compare the prices of different houses",
            ),
            ("Sort both of them", "Sort it"),
            ("Delete each of these files", "Delete the files"),
            (
                "Don't get the forecast for either city",
                "Don't get the forecast for either city",
            ),
        ] {
            let n = if ask.contains("three") { 3 } else { 2 };
            assert_eq!(for_one(ask, n, &[]), one);
        }
    }

    #[test]
    fn a_combining_word_of_an_ask_is_reported() {
        let clauses = [
            "The first garden has a base of 10 meters",
            "The second garden has a base of 15 meters",
            "What is the total area of the two gardens",
        ];
        let story = read(&clauses).expect("a story");
        assert_eq!(story.aggregate.as_deref(), Some("total"));
    }

    #[test]
    fn no_story_without_order_group_reference_or_two_instances() {
        // Out of order.
        assert_eq!(
            read(&[
                "The second car is red",
                "The first car is blue",
                "Compare both cars"
            ]),
            None
        );
        // One instance.
        assert_eq!(read(&["The first car is red", "Paint both cars"]), None);
        // The ask does not refer to the group.
        assert_eq!(
            read(&[
                "The first car is red",
                "The second car is blue",
                "What time is it"
            ]),
            None
        );
        // "this" alone.
        assert_eq!(
            read(&[
                "The first car is red",
                "The second car is blue",
                "Can you calculate this"
            ]),
            None
        );
        // An ask between instances.
        assert_eq!(
            read(&[
                "The first car is red",
                "Paint it blue",
                "The second car is blue",
                "Compare both cars"
            ]),
            None
        );
        // A span, not an instance; a question about one.
        assert_eq!(
            read(&["Compute the interest for the first 2 years and the first 3 years"]),
            None
        );
        assert_eq!(
            read(&[
                "What was the first movie of the year?",
                "And the second one?",
                "Tell me both"
            ]),
            None
        );
    }
}
