//! Schema-guided slot filling: which stated value goes in which parameter.
//!
//! [`bind`] takes the [`Mention`]s of a goal clause and one candidate
//! capability, and assigns mentions to the capability's input parameters
//! by three kinds of evidence, summed into a score per (mention,
//! parameter) pair:
//!
//! 1. **Type** ([`compat`]): a number fits `integer` (when integral) and
//!    `number`; a URL fits a string named like a URL (`url`, `uri`,
//!    `link`...); a path a string named like a path (`path`, `file`,
//!    `destination`...); a list an `array`; a duration a number, converted
//!    to the unit the parameter's name or description states (`ms`,
//!    `seconds`...); a value outside an `enum`, `minimum` or `maximum` fits
//!    nothing. A file path never fills a *data* parameter (`text`,
//!    `content`, `input`...): that would pass the file's name as its
//!    content. Instead, when the capability has no path parameter, the
//!    binding asks for the file to be read first ([`Binding::read_first`]).
//! 2. **Cue words**: the words around the mention (`a base of 10` →
//!    `base`; `10 per page` → `per`, `page`) against the parameter's name
//!    (strong) and description (weak).
//! 3. **Prepositions**: the object of `to`/`into` goes to a destination,
//!    of `from` to a source, of `named`/`called` to a name, of `in`/`at` to
//!    a place, of `about`/`for` to a query.
//!
//! Pairs are taken best first (ties: earlier mention, then earlier
//! parameter), each mention and parameter at most once. A list that fits
//! no array parameter is offered item by item.
//!
//! The result says what is bound, which stated values are **unused** (a
//! plan that drops them does not serve the goal), and which required
//! parameters are **missing**. A required parameter that is really the
//! user's own words (`message`, `prompt`, `question`, `query`...) is filled
//! with the goal's *payload* (its words after the verb, without the
//! values bound elsewhere) — never a data parameter such as `text`.

use std::collections::{BTreeMap, BTreeSet};

use ccos_marketplace::CapabilityManifest;
use ccos_marketplace::search::analyze;
use serde_json::Value as Json;

use super::mentions::{Mention, MentionKind};

/// Words that ask for coordinated values together, or for one of them:
/// no call per value then.
const TOGETHER_WORDS: &[&str] = &[
    "total",
    "combined",
    "together",
    "altogether",
    "overall",
    "sum",
    "either",
    "respectively",
    "between",
];

/// Most calls one step makes for coordinated values (a goal listing more
/// is refused: a plan is read by a person before it runs).
pub const MAX_FAN_OUT: usize = 20;

/// Words of a parameter that take a duration when it names no unit.
const DURATION_WORDS: &[&str] = &[
    "time", "duration", "delay", "timeout", "wait", "interval", "period", "elapsed", "sleep",
    "pause", "ttl", "expiry",
];

/// The source of a direction switch bound from "oldest first" and the
/// like (see [`super::lexicon::order_directions`]).
pub const DIRECTION_SOURCE: &str = "the order's direction";

/// Least score for a pair to be bound (weak mentions need [`WEAK_MIN`]).
pub const BIND_MIN: f64 = 0.3;

/// Least score for a weak mention (names, number words) to be bound.
pub const WEAK_MIN: f64 = 0.75;

/// One input parameter of a capability, as slot filling sees it.
#[derive(Debug, Clone)]
pub struct Param {
    /// The property name (or the positional item's title).
    pub name: String,
    /// Its JSON-schema type, when one.
    pub ty: Option<String>,
    /// Stemmed words of its name.
    pub name_words: BTreeSet<String>,
    /// Stemmed words of its description.
    pub desc_words: BTreeSet<String>,
    /// Whether it is required.
    pub required: bool,
    /// Its schema.
    pub schema: Json,
    /// Stemmed words of the capability's name and description (shared by
    /// its parameters): where a quantity's dimension may be named when
    /// the parameter does not name it ([`super::units::fits`]).
    pub capability_words: std::sync::Arc<BTreeSet<String>>,
    /// The examples its description gives ("e.g. Italian, Thai"), read
    /// once here rather than at every comparison.
    pub examples: Vec<String>,
    /// The values its description lists as its only ones (see
    /// [`closed_values`]), read once here.
    pub closed: Option<Vec<Json>>,
}

/// The noun a name `it` qualifies in `clause`, when that noun is a word of
/// the capability (whose `params` share its words) and the name is not:
/// "*Italian* restaurants" for a restaurant search (the name says which
/// restaurants), never "*GitHub* issues" for GitHub's own operation, nor
/// the clause's capitalised first word ("Show restaurants …").
fn qualified_noun(
    clause: &str,
    it: &Mention,
    params: &[Param],
    m: &CapabilityManifest,
) -> Option<String> {
    // A capitalised first word may be the request's verb ("Show
    // restaurants"); a name of several words is a name there too
    // ("Stephen King books").
    if it.kind != MentionKind::Name || (it.span.start == 0 && !it.text.contains(' ')) {
        return None;
    }
    let words = &params.first()?.capability_words;
    let rest = clause.get(it.span.end..)?;
    let noun: String = rest
        .strip_prefix(' ')?
        .chars()
        .take_while(|c| c.is_alphabetic())
        .collect();
    if noun.chars().count() < 3
        || !noun.starts_with(|c: char| c.is_lowercase())
        || crate::resolution::catalog::STOP_WORDS.contains(&noun.as_str())
    {
        return None;
    }
    if !super::lexicon::knows(words, &noun) {
        return None;
    }
    // Its own words: not the examples its description gives ("e.g.
    // Italian, Thai" names no restaurant the capability is about).
    let mut own = super::lexicon::name_words(m);
    own.extend(analyze(&super::lexicon::without_examples(&m.description)));
    (!analyze(&it.text).iter().any(|st| own.contains(st))).then_some(noun)
}

/// Whether the noun a name of several words qualifies ([`qualified_noun`])
/// is a word of the capability's own name ("Stephen King *books*" for
/// `searchBooks`), not any word of its description ("Agatha Christie
/// *titled* Poirot" qualifies no title).
fn names_what_it_serves(noun: &str, m: &CapabilityManifest) -> bool {
    let own = super::lexicon::name_words(m);
    analyze(noun).iter().any(|st| own.contains(st))
}

/// Whether `men`, a quoted text or a name, follows right after a noun of
/// capability `m`'s name ("search for the book *"Dune"*" for
/// `searchBooks`): it names that thing.
fn names_the_thing(men: &Mention, m: &CapabilityManifest) -> bool {
    matches!(men.kind, MentionKind::Quoted | MentionKind::Name)
        && !men.cue.across_prep
        && men
            .cue
            .before
            .last()
            .is_some_and(|w| names_what_it_serves(w, m))
}

/// Whether every word of name `it` is a word of capability `m`'s own name
/// or provider ("IMDB" of `imdb.find_movies_by_actor`, "Whole Foods" of
/// `whole_foods.check_price`): the goal names the capability, not a value.
fn names_the_capability(it: &Mention, m: &CapabilityManifest) -> bool {
    let mut own = super::lexicon::name_words(m);
    own.extend(super::lexicon::provider_words(m));
    let words = analyze(&it.text);
    (!words.is_empty() && words.iter().all(|w| own.contains(w)))
        || abbreviates_its_name(&it.text, m)
}

/// Whether the name `text` is a dotted abbreviation ("U.S.") whose
/// letters spell a word of `m`'s id (`US_president.in_year`). Initials of
/// a name of several words are not: an attack trial found "United
/// Steelworkers" read as `us`, "Anna Ivanova" as `ai_news`.
fn abbreviates_its_name(text: &str, m: &CapabilityManifest) -> bool {
    let letters: Vec<&str> = text
        .split('.')
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .collect();
    letters.len() >= 2
        && letters
            .iter()
            .all(|w| w.chars().count() == 1 && w.chars().all(|c| c.is_ascii_uppercase()))
        && ccos_marketplace::ids::words(&m.id).contains(&letters.concat().to_lowercase())
}

/// Whether `men`, a single capitalised word opening `clause`, is its verb
/// ("*Borrow* book 42", "*Return* the book", "*Renew* it"): a known verb,
/// or followed by an article or a singular noun of capability `m`'s name,
/// and no place ("*Paris* weather" is a city, "*Italian* restaurants"
/// says which).
fn opening_verb(clause: &str, men: &Mention, m: &CapabilityManifest) -> bool {
    if men.kind != MentionKind::Name || men.span.start != 0 || men.text.contains(' ') {
        return false;
    }
    let lower = men.text.to_lowercase();
    if super::lexicon::is_request_verb(&lower) || super::lexicon::is_action_verb(&lower) {
        return true;
    }
    if super::regions::is_region(&men.text) || super::zones::iana_zone(&men.text).is_some() {
        return false;
    }
    let next = clause
        .get(men.span.end..)
        .and_then(|rest| rest.split_whitespace().next())
        .map(str::to_lowercase)
        .unwrap_or_default();
    // Before a noun in the singular ("*Borrow* book 42"); before one in
    // the plural it says which ("*Italian* restaurants").
    matches!(
        next.as_str(),
        "the" | "a" | "an" | "my" | "our" | "this" | "that" | "these" | "those" | "it" | "them"
    ) || (next.starts_with(char::is_lowercase)
        && !next.ends_with('s')
        && names_what_it_serves(&next, m))
}

/// Whether name `men` is the object right after the request's verb
/// ("find *Coldplay*", "find *Samsung TVs*"): what is sought.
fn verbs_object(men: &Mention) -> bool {
    men.kind == MentionKind::Name
        && men.cue.prep.is_none()
        && men.cue.before.len() == 1
        && super::lexicon::is_action_verb(&men.cue.before[0])
}

/// Whether `it` counts as a name of several words for the qualifier
/// rules: a strong name, or a weak one only because it opens the clause
/// ("Stephen King books").
fn several_words(it: &Mention) -> bool {
    !it.weak || it.text.contains(' ')
}

/// Whether `p` takes an identifier: its name's last word is "id"
/// (`hotel_id`, `movieId`).
fn is_identifier(p: &Param) -> bool {
    ccos_marketplace::ids::words(&p.name)
        .last()
        .map(String::as_str)
        == Some("id")
}

/// Whether `text` is one of parameter `p`'s choices (its enum, any case)
/// or an example its description gives: "P1" of a priority's enum,
/// "Thai" of "e.g. Italian, Thai".
fn names_a_choice(p: &Param, text: &str) -> bool {
    is_example_of(p, text) || enum_choice(p, text).is_some()
}

/// The choice of `p`'s enum that `text` names, in any case, as the schema
/// spells it ("Fahrenheit" is "fahrenheit").
fn enum_choice<'p>(p: &'p Param, text: &str) -> Option<&'p Json> {
    p.schema
        .get("enum")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .find(|v| v.as_str().is_some_and(|v| v.eq_ignore_ascii_case(text)))
}

/// Whether `text` is, in any case, one of the values `p`'s description
/// lists as its only ones ([`Param::closed`]: "('Celsius' or
/// 'Fahrenheit')").
fn closed_choice(p: &Param, text: &str) -> bool {
    p.closed
        .iter()
        .flatten()
        .any(|v| v.as_str().is_some_and(|v| v.eq_ignore_ascii_case(text)))
}

/// Whether `text` reads as a short code ("TX", "UK", "CDG"): three
/// capital letters at most.
fn looks_like_code(text: &str) -> bool {
    text.len() <= 3 && text.chars().all(|c| c.is_ascii_uppercase())
}

/// Whether number `m` is an amount of money ("$500", "-€3").
fn is_money(m: &Mention) -> bool {
    m.kind == MentionKind::Number
        && m.text
            .trim_start_matches(['-', '+'])
            .starts_with(['$', '€', '£'])
}

/// Whether parameter `p` takes a kind of thing by name (`cuisine`,
/// `genre`, `type`): where a name saying which things goes.
fn says_a_kind(p: &Param) -> bool {
    static STEMS: std::sync::OnceLock<BTreeSet<String>> = std::sync::OnceLock::new();
    let kinds = STEMS.get_or_init(|| {
        [
            "type", "kind", "genre", "category", "cuisine", "style", "class", "variety",
        ]
        .iter()
        .flat_map(|w| analyze(w))
        .collect()
    });
    matches!(p.ty.as_deref(), Some("string") | None) && !p.name_words.is_disjoint(kinds)
}

/// Words that qualify a noun without saying which kind of it ("the *new*
/// movies", "a *good* restaurant", "*open* issues", "the *annual* rate"):
/// never a kind parameter's value ([`kind_qualifiers`]).
const NOT_A_KIND: &[&str] = &[
    "new",
    "old",
    "good",
    "best",
    "better",
    "great",
    "nice",
    "top",
    "latest",
    "recent",
    "first",
    "last",
    "next",
    "previous",
    "current",
    "certain",
    "specific",
    "particular",
    "given",
    "different",
    "same",
    "other",
    "another",
    "all",
    "any",
    "some",
    "each",
    "every",
    "many",
    "few",
    "more",
    "most",
    "least",
    "several",
    "various",
    "nearby",
    "nearest",
    "closest",
    "local",
    "cheap",
    "cheapest",
    "expensive",
    "big",
    "bigger",
    "biggest",
    "small",
    "smaller",
    "smallest",
    "large",
    "larger",
    "largest",
    "little",
    "full",
    "whole",
    "entire",
    "main",
    "major",
    "minor",
    "popular",
    "famous",
    "upcoming",
    "open",
    "closed",
    "active",
    "inactive",
    "pending",
    "public",
    "private",
    "free",
    "paid",
    "available",
    "real",
    "actual",
    "total",
    "average",
    "typical",
    "common",
    "usual",
    "own",
    "high",
    "low",
    "long",
    "short",
    "empty",
    "possible",
    "similar",
    "related",
    "important",
    "interesting",
    "favorite",
    "favourite",
    "random",
    "simple",
    "basic",
    "quick",
    "fast",
    "slow",
    "easy",
    "hard",
    "additional",
    "extra",
    "online",
    "future",
    "past",
    "annual",
    "monthly",
    "daily",
    "weekly",
    "yearly",
    "initial",
    "final",
    "present",
    "existing",
    "specified",
    "above",
    "below",
    "following",
    "entire",
    "my",
    "your",
    "our",
    "their",
    "his",
    "her",
    "its",
    "this",
    "that",
    "these",
    "those",
];

/// Lower-case words saying which kind of the thing a capability serves
/// ("a *classical* concert", "the *human* cell", "a *luxury* room",
/// "*constitutional* law"): for each free kind parameter (`genre`,
/// `cell_type`, `room_type`, `field_of_law`: [`says_a_kind`], or named
/// `field`; a text with no list of choices), the word right before a noun
/// of the capability's name or of the parameter's own name. A word is
/// bound only when it is the one such word for the parameter and no
/// other kind parameter claims it by its noun; words that qualify without
/// naming a kind ([`NOT_A_KIND`]), verbs' forms, function words, the
/// capability's own words and any parameter's choices never are.
/// Returns (parameter index, word, noun).
fn kind_qualifiers(
    clause: &str,
    mentions: &[Mention],
    params: &[Param],
    m: &CapabilityManifest,
    open: &[usize],
) -> Vec<(usize, String, String)> {
    // "field" and the specialties are kinds here, not for names: "the
    // *divorce* lawyers", "*constitutional* law".
    let field = analyze("field");
    let kinds: Vec<usize> = open
        .iter()
        .copied()
        .filter(|&pi| {
            let p = &params[pi];
            p.schema.get("enum").is_none()
                && p.closed.is_none()
                && (says_a_kind(p)
                    || (matches!(p.ty.as_deref(), Some("string") | None)
                        && (field.iter().any(|f| p.name_words.contains(f))
                            || has(
                                &p.name_words,
                                &["specialty", "speciality", "specialization"],
                            ))))
        })
        .collect();
    if kinds.is_empty() {
        return vec![];
    }
    let own = super::lexicon::name_words(m);
    let param_words: BTreeSet<&String> = params.iter().flat_map(|p| &p.name_words).collect();
    let filler = super::lexicon::filler_word_stems();
    // The words of the clause, with their spans, outside stated values.
    let mut tokens: Vec<(usize, usize)> = vec![];
    let mut start: Option<usize> = None;
    for (i, c) in clause.char_indices().chain([(clause.len(), ' ')]) {
        let part = c.is_alphabetic() || c == '-';
        match (part, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                tokens.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    let in_value = |(s, e): (usize, usize)| {
        mentions
            .iter()
            .any(|men| s < men.span.end && men.span.start < e)
    };
    // A choice of any parameter is that parameter's (the enum pass binds
    // it); an example of another parameter's is that one's.
    let is_choice = |w: &str, kind: usize| {
        params.iter().enumerate().any(|(pj, p)| {
            enum_choice(p, w).is_some()
                || closed_choice(p, w)
                || (pj != kind && is_example_of(p, w))
        })
    };
    let mut found: BTreeMap<usize, BTreeSet<(String, String)>> = BTreeMap::new();
    for (ti, pair) in tokens.windows(2).enumerate() {
        let (a, b) = (pair[0], pair[1]);
        // After an article a verb's form is an adjective: "a *double*
        // room".
        let before = ti
            .checked_sub(1)
            .and_then(|k| tokens.get(k))
            .and_then(|&(s0, e0)| clause.get(s0..e0))
            .map(str::to_lowercase)
            .unwrap_or_default();
        let after_article = matches!(before.as_str(), "a" | "an" | "the");
        if clause.get(a.1..b.0) != Some(" ") || in_value(a) || in_value(b) {
            continue;
        }
        let (word, noun) = (&clause[a.0..a.1], &clause[b.0..b.1]);
        // "a classical *or* jazz concert": one of several kinds, which
        // the goal does not choose; none is bound.
        let coordinated = matches!(before.as_str(), "or" | "and" | "nor")
            || clause
                .get(..a.0)
                .is_some_and(|t| t.trim_end().ends_with(','));
        if coordinated {
            continue;
        }
        let lower = |w: &str| w.chars().all(|c| c.is_lowercase() || c == '-');
        if !lower(word)
            || !lower(noun)
            || word.chars().count() < 3
            || word.ends_with("ing")
            || word.ends_with("ed")
            || NOT_A_KIND.contains(&word)
            || crate::resolution::catalog::STOP_WORDS.contains(&word)
            || (super::lexicon::is_action_verb(word) && !after_article)
        {
            continue;
        }
        let word_stems = analyze(word);
        if word_stems.is_empty()
            || word_stems
                .iter()
                .any(|st| filler.contains(st) || own.contains(st) || param_words.contains(st))
        {
            continue;
        }
        let noun_stems = analyze(noun);
        for &pi in &kinds {
            let p = &params[pi];
            let serves = noun_stems
                .iter()
                .any(|st| !filler.contains(st) && (own.contains(st) || p.name_words.contains(st)));
            if serves && !is_choice(word, pi) {
                found
                    .entry(pi)
                    .or_default()
                    .insert((word.to_string(), noun.to_string()));
            }
        }
    }
    // One word per parameter, one parameter per word: a parameter named
    // for the noun ("cell" of `cell_type`, "law" of `field_of_law`) before
    // one that is not, and its own noun before the capability's ("landmark
    // *cases*" of `get_top_cases` says no field of law).
    let named_for = |pj: usize, noun: &str| {
        analyze(noun)
            .iter()
            .any(|st| params[pj].name_words.contains(st))
    };
    for (&pi, words) in found.iter_mut() {
        if words.iter().any(|(_, noun)| named_for(pi, noun)) {
            words.retain(|(_, noun)| named_for(pi, noun));
        }
    }
    let mut out = vec![];
    for (&pi, words) in &found {
        let [(word, noun)] = words.iter().collect::<Vec<_>>()[..] else {
            continue;
        };
        let rivals: Vec<usize> = found
            .iter()
            .filter(|(_, ws)| ws.iter().any(|(w, _)| w == word))
            .map(|(pj, _)| *pj)
            .collect();
        let ours = rivals.len() == 1
            || (named_for(pi, noun)
                && rivals.iter().filter(|&&pj| named_for(pj, noun)).count() == 1);
        if ours {
            out.push((pi, word.clone(), noun.clone()));
        }
    }
    out
}

/// Whether `words` (the goal's, lower-case, in order) say the choice
/// `value` of several words ("*this weekend*", "king size") in a row.
fn says_phrase(words: &[String], value: &str) -> bool {
    let wanted: Vec<String> = value
        .split(|c: char| !c.is_alphanumeric() && c != '-' && c != '_')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    wanted.len() > 1 && words.windows(wanted.len()).any(|w| w == wanted.as_slice())
}

/// Parameters of `m`, in schema order (positional items in order, object
/// properties sorted by name), and whether the call is positional.
pub fn params_of(m: &CapabilityManifest) -> (Vec<Param>, bool) {
    let (slots, positional) = crate::plan_gen::slots(m);
    let mut capability_words: BTreeSet<String> = analyze(&m.description).into_iter().collect();
    capability_words.extend(analyze(&m.name));
    capability_words.extend(analyze(&m.id));
    let capability_words = std::sync::Arc::new(capability_words);
    let params = slots
        .into_iter()
        .map(|(name, schema, required)| {
            let desc = schema
                .get("description")
                .and_then(Json::as_str)
                .unwrap_or("")
                .to_string();
            // "place1", "number2": the word without its number too.
            let mut name_words: BTreeSet<String> = analyze(&name).into_iter().collect();
            name_words.extend(analyze(name.trim_end_matches(|c: char| c.is_ascii_digit())));
            let ty = schema_type(&schema);
            Param {
                name_words,
                desc_words: analyze(&desc).into_iter().collect(),
                // The description's examples, and the values it quotes
                // ("The league … In this case, 'NBA'").
                examples: {
                    let mut examples = super::lexicon::examples(&desc);
                    for q in single_quoted(&desc) {
                        if let Some(q) = q.as_str()
                            && !examples.iter().any(|e| e.eq_ignore_ascii_case(q))
                        {
                            examples.push(q.to_string());
                        }
                    }
                    examples
                },
                closed: closed_values(&schema, ty.as_deref(), &desc),
                ty,
                name,
                required,
                schema,
                capability_words: capability_words.clone(),
            }
        })
        .collect();
    (params, positional)
}

/// Whether `name` is a place written out, never a word capitalised by
/// chance: a country or a US state by its name (not its code: "MX",
/// "OR"), or a city a time zone of a continent is named after
/// ("Detroit"; not "Christmas" of `Indian/Christmas`).
fn is_well_known_place(name: &str) -> bool {
    let written = name.chars().any(char::is_lowercase);
    let city = super::zones::iana_zone(name).is_some_and(|z| {
        let region = z.split('/').next().unwrap_or_default();
        let city = z.rsplit('/').next().unwrap_or_default();
        matches!(
            region,
            "America" | "Europe" | "Asia" | "Africa" | "Australia"
        ) && city.replace('_', " ").eq_ignore_ascii_case(name.trim())
    });
    written && (super::regions::is_country_or_us_state(name) || city)
}

/// A schema's type; `["string", "null"]`: the first type that is not
/// null.
pub(crate) fn schema_type(s: &Json) -> Option<String> {
    match s.get("type") {
        Some(Json::String(t)) => Some(t.clone()),
        // ["string", "null"]: the first non-null type.
        Some(Json::Array(ts)) => ts
            .iter()
            .filter_map(Json::as_str)
            .find(|t| *t != "null")
            .map(str::to_string),
        _ => None,
    }
}

/// One parameter filled from the goal.
#[derive(Debug, Clone, PartialEq)]
pub struct Bound {
    /// The parameter.
    pub param: String,
    /// The value (typed for the parameter).
    pub value: Json,
    /// Where it came from, for the trace (`number 10`, `payload`...).
    pub source: String,
    /// The evidence score.
    pub score: f64,
}

/// How a file read for a list parameter becomes the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadAs {
    /// Its lines ("sort the lines of words.txt").
    Lines,
    /// The numbers in it ("the biggest number in numbers.txt").
    Numbers,
    /// Its JSON ("sort people.json by name").
    Json,
    /// Its JSON, which must be a list: the goal names its members as
    /// records or rows ("how many *records* are in nested.json": a single
    /// object has entries — its keys — but no records).
    Records,
    /// A folder's entries, listed: the goal orders or filters them by a
    /// key ("sort the files in docs/ by size").
    Listing,
    /// Its words, every match of [`WORD_PATTERN`] ("the unique words in
    /// notes.txt").
    Words,
}

/// The regular expression of a word: a run of letters and digits, inner
/// apostrophes and hyphens kept ("don't", "e-mail"); the punctuation
/// around it is no part of it ("again." is "again"). The words of a text
/// are its matches. (`ccos.text.count_words` counts whitespace-separated
/// tokens: a lone "-" is one of its words, and no word here.) The same
/// pattern is the rules' `words-of-text` and `words-of-file`.
pub const WORD_PATTERN: &str = "\\w+(?:['\u{2019}-]\\w+)*";

impl ReadAs {
    /// The request of the step that makes the list from the file's text
    /// (resolved like any sub-intent).
    pub fn request(self) -> &'static str {
        match self {
            ReadAs::Lines => "split the text into lines",
            ReadAs::Numbers => "the numbers in the text",
            ReadAs::Json | ReadAs::Records => "parse the JSON text",
            ReadAs::Listing => "list the folder",
            ReadAs::Words => WORDS_REQUEST,
        }
    }

    /// A parameter the list-making step is given beside the text: records
    /// are parsed expecting an array (`ccos.json.parse`'s `expect`).
    pub fn preset(self) -> Option<(&'static str, &'static str)> {
        match self {
            ReadAs::Records => Some(("expect", "array")),
            ReadAs::Words => Some(("pattern", WORD_PATTERN)),
            _ => None,
        }
    }
}

/// Whether `clause` compares the members of a list by size ("the
/// *biggest* word", "the *longest*", "the *max*"): words, compared as
/// texts, would be ordered alphabetically, which it does not ask.
fn compares_words(clause: &str) -> bool {
    super::lexicon::words_of(clause).iter().any(|w| {
        super::lexicon::is_direction_word(w)
            || matches!(w.as_str(), "max" | "maximum" | "min" | "minimum")
    })
}

/// The request of the step finding a text's words: every match of
/// [`WORD_PATTERN`] (resolved like any sub-intent).
pub const WORDS_REQUEST: &str = "find every match of the regular expression in the text";

/// What [`bind`] decided for one capability.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Binding {
    /// Parameters filled, in parameter order.
    pub args: Vec<Bound>,
    /// Data parameters to fill with the content of a file the goal names
    /// (parameter, path): the file is read first.
    pub read_first: Vec<(String, String)>,
    /// The `read_first` parameters that take a list made of the file's
    /// text, and how: "sort the lines of words.txt" reads the file, then
    /// splits it ([`ReadAs`]).
    pub read_as: BTreeMap<String, ReadAs>,
    /// List parameters to fill with the words of a stated text
    /// (parameter, text): "sort the words 'pear apple fig'" finds the
    /// words first (every match of [`WORD_PATTERN`]).
    pub words_first: Vec<(String, String)>,
    /// Stated values no parameter takes (labels, e.g. `number 4`); weak
    /// mentions are not listed.
    pub unused: Vec<String>,
    /// The values of [`unused`](Self::unused) left out because what
    /// they say does not fit the parameter they went to ("Saturday" as a
    /// `show`, "Texas" as a `city`): a doubt about the goal's value,
    /// which holds for every capability, so the planner tries no other
    /// one (it would take the value elsewhere, or another action).
    pub doubts: Vec<String>,
    /// Required parameters nothing fills.
    pub missing: Vec<String>,
    /// Several coordinated values for one parameter (its name and the
    /// values in the goal's order, the bound one included): one call per
    /// value ("the events of Lincoln and Washington").
    pub fan_out: Option<(String, Vec<Json>)>,
    /// Other parameters changing with [`fan_out`](Self::fan_out)'s, call
    /// by call (groups of values, see [`grouped`]): one value per call.
    pub fan_with: Vec<(String, Vec<Json>)>,
    /// The fan-out was read as groups of values ([`grouped`]).
    pub grouped: bool,
    /// Sum of the bound pairs' scores.
    pub score: f64,
    /// How each value was placed, for the trace.
    pub notes: Vec<String>,
}

impl Binding {
    /// Whether the capability serves the clause with what the goal states:
    /// nothing dropped, nothing required left open.
    pub fn complete(&self) -> bool {
        self.unused.is_empty() && self.missing.is_empty()
    }

    /// The parameters filled by a step made first, with what it is made
    /// of: a file read ([`read_first`](Self::read_first), its path) or a
    /// stated text's words ([`words_first`](Self::words_first), the text).
    pub fn found_first(&self) -> impl Iterator<Item = &(String, String)> {
        self.read_first.iter().chain(&self.words_first)
    }
}

/// Whether `p` is a list of edits whose items take exactly two texts,
/// the one replaced and its replacement (`[{oldText, newText}]`): their
/// property names.
fn replacement_list(p: &Param) -> Option<(String, String)> {
    if p.ty.as_deref() != Some("array") {
        return None;
    }
    let props = p.schema.get("items")?.get("properties")?.as_object()?;
    if props.len() != 2
        || props
            .values()
            .any(|v| v.get("type").and_then(Json::as_str) != Some("string"))
    {
        return None;
    }
    let named = |words: &[&str]| {
        props.keys().find(|k| {
            ccos_marketplace::ids::words(k)
                .iter()
                .any(|w| words.contains(&w.as_str()))
        })
    };
    let old = named(&["old", "search", "find", "original", "from"])?;
    let new = named(&["new", "replacement", "replace", "to"])?;
    (old != new).then(|| (old.clone(), new.clone()))
}

/// The two stated texts of "replace A with B" ("change A to B"): the
/// mentions right after the verb and after its "with"/"by"/"to", both
/// quoted or both plain words the goal names.
fn replacement_pair(clause: &str, mentions: &[Mention]) -> Option<(usize, usize)> {
    let lower = clause.to_lowercase();
    let verb_at = ["replace ", "change ", "substitute "]
        .iter()
        .filter_map(|v| {
            lower
                .match_indices(v)
                .map(|(i, _)| i)
                .find(|&i| i == 0 || !lower[..i].ends_with(|c: char| c.is_alphanumeric()))
        })
        .min()?;
    let quoted: Vec<usize> = (0..mentions.len())
        .filter(|&i| mentions[i].kind == MentionKind::Quoted && mentions[i].span.start > verb_at)
        .collect();
    let [old, new] = quoted.as_slice() else {
        return None;
    };
    let between = lower.get(mentions[*old].span.end..mentions[*new].span.start)?;
    match between.trim() {
        "with" | "by" | "to" => Some((*old, *new)),
        // "substitute 'Tuesday' for 'Monday'"
        "for" => Some((*new, *old)),
        _ => None,
    }
}

/// Words of a parameter's name for the start of a range (`start_date`,
/// `since`, `from`) and for its end (`end_timestamp`, `until`).
pub const RANGE_START_WORDS: &[&str] = &["start", "since", "from", "after", "begin"];
/// See [`RANGE_START_WORDS`].
pub const RANGE_END_WORDS: &[&str] = &["end", "until", "to", "before"];

/// The words asking for the newest entries of a log ("the *most recent*
/// commit", "the *latest* 3 entries"). "last" only before a number ("the
/// last 3 commits"): "last week" is a time.
pub const RECENCY_WORDS: &[&str] = &["recent", "latest", "newest"];

/// The stems of [`RECENCY_WORDS`] (computed once).
pub fn recency_stems() -> &'static BTreeSet<String> {
    static S: std::sync::OnceLock<BTreeSet<String>> = std::sync::OnceLock::new();
    S.get_or_init(|| RECENCY_WORDS.iter().flat_map(|w| analyze(w)).collect())
}

/// The count parameter (of `params`, [`params_of`] `m`) of a capability
/// that lists newest first — a log, a history, recent entries (its name
/// or description says so) — and takes how many (`max_count`, `limit`,
/// `n`).
pub fn newest_first_count<'a>(m: &CapabilityManifest, params: &'a [Param]) -> Option<&'a Param> {
    let about: BTreeSet<String> = analyze(&format!("{} {} {}", m.id, m.name, m.description))
        .into_iter()
        .collect();
    if !["log", "histori", "recent", "latest", "newest"]
        .iter()
        .any(|w| about.contains(*w))
    {
        return None;
    }
    params.iter().find(|p| {
        p.ty.as_deref() == Some("integer")
            && has(
                &p.name_words,
                &["max", "count", "limit", "n", "num", "number"],
            )
    })
}

/// How many of the newest entries the clause asks for: "the most recent
/// commit" 1, "the latest 3 commits" or "the last 3 commits" 3 (with the
/// number's mention). `None` for a plural without a number ("the latest
/// commits": how many is not said) or no such words.
fn recency_count(clause: &str, mentions: &[Mention]) -> Option<(u64, Option<usize>)> {
    let words = super::lexicon::word_spans(clause);
    let at = words
        .iter()
        .position(|(_, w)| RECENCY_WORDS.contains(&w.as_str()) || w == "last")?;
    let (_, next_word) = words.get(at + 1)?;
    let number = mentions.iter().position(|x| {
        x.kind == MentionKind::Number
            && words
                .get(at + 1)
                .is_some_and(|(span, _)| x.span.start == span.start)
    });
    match number {
        Some(mi) => {
            let n = mentions[mi].value.as_u64().filter(|n| *n >= 1)?;
            Some((n, Some(mi)))
        }
        None if words[at].1 == "last" => None,
        // "the most recent commit": one; "commits", "entries": how many?
        None if next_word.ends_with('s') && !next_word.ends_with("ss") => None,
        None => Some((1, None)),
    }
}

/// Words that only join groups of values ("…, $52.33 in Sacramento *and*
/// *another* …"); see [`grouped`].
const GROUP_JOINERS: &[&str] = &[
    "and", "also", "another", "then", "plus", "as", "well", "the", "a", "an", "one", "same",
    "again", "first", "second", "third", "fourth", "fifth", "sixth", "next", "last", "finally",
    "lastly",
];

/// Groups of values, one call each: the clause states the same kinds of
/// values several times over ("a purchase amount of $30.45 in Chicago,
/// Illinois, $52.33 in Sacramento, California and $11.23 in Portland,
/// Oregon"; "a flight from San Francisco to Tokyo on May 3rd 2022 and
/// another flight from Tokyo to Sydney on May 18th 2022").
///
/// The clause is read once per group: its words before the first value,
/// the group's own words, then the words after the last value. Each
/// reading must bind completely, to the same parameters; those whose
/// values change fan out together, one call per group in the goal's
/// order. `None` (the values stay dropped) unless every group has the
/// first one's kinds of values in order, the words between groups only
/// join them (joiners, or words of the opening: "and *another flight
/// from*"), and a group holds values of two kinds or a preposition
/// between its values ("add 2 and 3 and 4 and 5" is one sum, not two).
/// Never for a capability that writes: which write goes with which
/// values is approved call by call, not guessed.
pub fn grouped(
    clause: &str,
    mentions: &[Mention],
    m: &CapabilityManifest,
    prefilled: &BTreeSet<String>,
) -> Option<Binding> {
    if m.effects.contains(&ccos_marketplace::Effect::Write)
        || clause
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| TOGETHER_WORDS.contains(&w.to_lowercase().as_str()))
    {
        return None;
    }
    let words_of = |t: &str| -> Vec<String> {
        super::lexicon::word_spans(t)
            .into_iter()
            .map(|(_, w)| w)
            .collect()
    };
    let mut ms: Vec<&Mention> = mentions.iter().collect();
    ms.sort_by_key(|x| x.span.start);
    let n = ms.len();
    if n < 2 {
        return None;
    }
    let opening = clause.get(..ms[0].span.start)?;
    let opening_seq = words_of(opening);
    let opening_words: BTreeSet<String> = opening_seq.iter().cloned().collect();
    // The words labelling the first value ("has a *radius of* 5 meters"):
    // a group of one value must be labelled again ("the second circle
    // has a *radius of* 10 meters").
    let label: Vec<String> = opening_seq.iter().rev().take(2).rev().cloned().collect();
    let tail = clause.get(ms[n - 1].span.end..)?;
    'size: for g in 1..=n / 2 {
        let k = n / g;
        if !n.is_multiple_of(g) || k > MAX_FAN_OUT {
            continue;
        }
        let groups: Vec<&[&Mention]> = ms.chunks(g).collect();
        let first = groups[0];
        if groups
            .iter()
            .any(|gr| gr.iter().zip(first).any(|(a, b)| a.kind != b.kind))
        {
            continue;
        }
        let kinds: BTreeSet<MentionKind> = first.iter().map(|x| x.kind).collect();
        let inner_prep = first[1..].iter().any(|x| x.cue.prep.is_some());
        if g > 1 && kinds.len() < 2 && !inner_prep {
            continue;
        }
        for pair in groups.windows(2) {
            let between = words_of(clause.get(pair[0][g - 1].span.end..pair[1][0].span.start)?);
            if !between
                .iter()
                .all(|w| GROUP_JOINERS.contains(&w.as_str()) || opening_words.contains(w))
                || (g == 1 && (label.len() < 2 || !between.ends_with(&label)))
            {
                continue 'size;
            }
        }
        let mut readings: Vec<Binding> = vec![];
        for gr in &groups {
            let own = clause.get(gr[0].span.start..gr[g - 1].span.end)?;
            let text = format!("{opening}{own}{tail}");
            let ms = super::mentions::mentions(&text).ok()?;
            let b = bind(&text, &ms, m, prefilled, false);
            if !b.complete() || b.fan_out.is_some() || b.found_first().next().is_some() {
                continue 'size;
            }
            readings.push(b);
        }
        let params_of_reading =
            |b: &Binding| -> Vec<String> { b.args.iter().map(|a| a.param.clone()).collect() };
        let params0 = params_of_reading(&readings[0]);
        if readings.iter().any(|r| params_of_reading(r) != params0) {
            continue;
        }
        let mut varying: Vec<(String, Vec<Json>)> = vec![];
        for (i, a) in readings[0].args.iter().enumerate() {
            let vs: Vec<Json> = readings.iter().map(|r| r.args[i].value.clone()).collect();
            if vs.iter().any(|v| v != &vs[0]) {
                varying.push((a.param.clone(), vs));
            }
        }
        let mut out = readings[0].clone();
        let mut varying = varying.into_iter();
        out.fan_out = Some(varying.next()?);
        out.fan_with = varying.collect();
        out.grouped = true;
        out.notes
            .push(format!("{k} groups of {g} values -> one call per group"));
        return Some(out);
    }
    None
}

/// A mention, or an item of a list mention: (mention, item).
type MentionRef = (usize, Option<usize>);

fn mention_at(mentions: &[Mention], r: MentionRef) -> &Mention {
    match r.1 {
        Some(i) => &mentions[r.0].items[i],
        None => &mentions[r.0],
    }
}

/// How the text between two values joins them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Gap {
    /// Only a comma (and articles): "2018, 2019".
    Comma,
    /// A conjunction: `and`, `&`, `as well as` (", and" too).
    Conjunction,
}

/// How the text between two values joins them, when it only coordinates
/// them (commas, `and`, articles, and the words around the first
/// value repeated: "the number 4567 and *the number* 7890", "a soup
/// *recipe* and a salad recipe"); `None` for any other word.
fn gap(clause: &str, first: &Mention, second: &Mention) -> Option<Gap> {
    let text = clause.get(first.span.end..second.span.start)?;
    let around: BTreeSet<String> = first
        .cue
        .before
        .iter()
        .chain(&first.cue.after)
        .chain(&first.cue.prep)
        .map(|w| w.to_lowercase())
        .collect();
    gap_text(text, &around)
}

/// How `text`, between two values, joins them; `around` holds words that
/// may repeat (see [`gap`]).
fn gap_text(text: &str, around: &BTreeSet<String>) -> Option<Gap> {
    let mut conjunction = text.contains('&');
    let comma = text.contains(',');
    for w in text
        .split(|c: char| c.is_whitespace() || c == ',' || c == '&')
        .filter(|w| !w.is_empty())
    {
        match w.to_lowercase().as_str() {
            // "or" offers a choice ("either X or Y"), not several requests.
            "and" | "well" => conjunction = true,
            "as" | "also" | "the" | "a" | "an" => {}
            w if around.contains(w) => {}
            _ => return None,
        }
    }
    if conjunction {
        Some(Gap::Conjunction)
    } else if comma {
        Some(Gap::Comma)
    } else {
        None
    }
}

/// The choices a list parameter allows (`items.enum`), when it is one.
fn choices_of_list(p: &Param) -> Option<&Vec<Json>> {
    if p.ty.as_deref() != Some("array") {
        return None;
    }
    p.schema
        .get("items")
        .and_then(|i| i.get("enum"))
        .and_then(Json::as_array)
}

/// Words of a list parameter that leaves its choices out (`avoid`,
/// `exclude_topics`): a choice goes there only after a word of leaving
/// out ("*avoiding* highways", "*without* nuts").
const LEAVING_OUT: &[&str] = &[
    "avoid", "exclud", "exclus", "without", "skip", "omit", "ignor", "except", "ban", "block",
    "forbid", "disallow", "dislik", "allergi", "allerg",
];

/// Words that put a thing somewhere else than in the list ("near *the
/// park*", "after *the gym*", "like *a bar*"): a choice after one is
/// context, not asked for.
const CONTEXT_PREPOSITIONS: &[&str] = &[
    "near",
    "at",
    "by",
    "after",
    "to",
    "from",
    "like",
    "beside",
    "behind",
    "into",
    "toward",
    "towards",
    "around",
    "past",
    "opposite",
    "outside",
    "inside",
    "via",
    "along",
    "using",
    "taking",
    "take",
    "prefer",
    "preferring",
    "prefers",
    "preferred",
    "than",
    "instead",
];

/// Whether clause word `w` writes choice word `c` (lower case), in the
/// singular or the plural: "views" for "view", "toll" for "tolls".
fn writes_word(w: &str, c: &str) -> bool {
    w == c
        || w.strip_suffix('s') == Some(c)
        || c.strip_suffix('s') == Some(w)
        || w.strip_suffix("es") == Some(c)
        || c.strip_suffix("es") == Some(w)
}

/// The choices each list parameter among `free` takes from the goal's
/// words outside its stated values (`words`, lower case, in order): a
/// choice is named when its words stand together in the goal, in the
/// singular or the plural ("scenic views" names "Scenic View"). A word
/// serves one choice, the longest first ("violin lessons" is the service
/// "Violin Lessons", not also the instrument "Violins"). Refused, each
/// found in an attack trial where it went into the list wrongly:
/// - a choice of a parameter that leaves things out (`avoid`,
///   `exclude_*`) without a word of leaving out before it ("using
///   highways" is no `avoid`), and a choice after a denying word for any
///   other ("without ferries");
/// - a choice two list parameters allow, unless a word of one's name
///   stands before it ("prefer highways" for `prefer`, not `avoid`);
/// - a choice after a word placing it elsewhere ("near the *park*",
///   "after the *gym*", "like a *bar*");
/// - a choice followed by a noun it qualifies that is no word of the
///   capability ("a *pool* table"; "a *seafood* restaurant" of a
///   restaurant search is the restaurant's);
/// - a choice compared ("more than …").
///
/// Per parameter with a choice named: the choices taken, in the goal's
/// order, and those named but in doubt (the caller refuses a list with
/// any: "avoiding highways and *toll* roads" would drop the tolls).
fn listed_choices(
    words: &[String],
    params: &[Param],
    free: &[usize],
) -> Vec<(usize, Vec<Json>, Vec<Json>)> {
    // (length in words, start, parameter, choice)
    let mut found: Vec<(usize, usize, usize, Json)> = vec![];
    // The list parameters, each with its choices.
    let lists: Vec<(usize, &Vec<Json>)> = free
        .iter()
        .filter_map(|&pi| Some((pi, choices_of_list(&params[pi])?)))
        .collect();
    for &(pi, choices) in &lists {
        for c in choices {
            let Some(text) = c.as_str() else { continue };
            let wanted: Vec<String> = text
                .split(|ch: char| !ch.is_alphanumeric() && ch != '-')
                .filter(|w| !w.is_empty())
                .map(str::to_lowercase)
                .collect();
            if wanted.is_empty() {
                continue;
            }
            for (at, run) in words.windows(wanted.len()).enumerate() {
                if run.iter().zip(&wanted).all(|(w, c)| writes_word(w, c)) {
                    found.push((wanted.len(), at, pi, c.clone()));
                }
            }
        }
    }
    found.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let allowed_by = |choice: &Json| lists.iter().filter(|(_, cs)| cs.contains(choice)).count();
    let before = |at: usize, n: usize| &words[at.saturating_sub(n)..at];
    let mut used = vec![false; words.len()];
    // Per parameter: the choices taken (with where), and those named but
    // in doubt.
    type Named = (Vec<(usize, Json)>, Vec<Json>);
    let mut per_param: BTreeMap<usize, Named> = BTreeMap::new();
    for (len, at, pi, choice) in found {
        if used[at..at + len].iter().any(|u| *u) {
            continue;
        }
        used[at..at + len].iter_mut().for_each(|u| *u = true);
        let p = &params[pi];
        let stems_before: BTreeSet<String> =
            before(at, 4).iter().flat_map(|w| analyze(w)).collect();
        let leaves_out = has(&p.name_words, LEAVING_OUT);
        let denying = before(at, 3)
            .iter()
            .any(|w| super::lexicon::DENYING_WORDS.contains(&w.as_str()));
        let said_leaving_out = denying
            || before(at, 3).iter().any(|w| {
                analyze(w)
                    .iter()
                    .any(|st| LEAVING_OUT.iter().any(|l| st.starts_with(l)))
            });
        let denied = !leaves_out && denying;
        let named_param = !stems_before.is_disjoint(&p.name_words);
        let shared = allowed_by(&choice) > 1 && !named_param;
        let elsewhere = before(at, 2)
            .iter()
            .any(|w| CONTEXT_PREPOSITIONS.contains(&w.as_str()));
        let qualifies = words.get(at + len).is_some_and(|next| {
            !FUNCTION_WORDS_AFTER_CHOICE.contains(&next.as_str())
                && analyze(next)
                    .iter()
                    .all(|st| !p.capability_words.contains(st))
                && !lists.iter().flat_map(|(_, cs)| cs.iter()).any(|c| {
                    c.as_str()
                        .and_then(|c| c.split_whitespace().next())
                        .is_some_and(|f| writes_word(next, &f.to_lowercase()))
                })
        });
        let (taken, doubtful) = per_param.entry(pi).or_default();
        if (leaves_out && !said_leaving_out)
            || denied
            || shared
            || elsewhere
            || qualifies
            || compared(words, &words[at])
        {
            doubtful.push(choice);
            continue;
        }
        if !taken.iter().any(|(_, c)| *c == choice) {
            taken.push((at, choice));
        }
    }
    // (A choice named but in doubt refuses the list even alone: "recipes
    // with chicken" for `include_*` and `exclude_*` would otherwise drop
    // it.)
    per_param
        .into_iter()
        .map(|(pi, (mut vs, doubtful))| {
            vs.sort_by_key(|(at, _)| *at);
            (pi, vs.into_iter().map(|(_, c)| c).collect(), doubtful)
        })
        .collect()
}

/// Words that may follow a choice without making it a qualifier of a
/// noun ("patio *and* wi-fi", "a patio *in* Boston").
const FUNCTION_WORDS_AFTER_CHOICE: &[&str] = &[
    "and",
    "or",
    "nor",
    "but",
    "in",
    "on",
    "at",
    "for",
    "with",
    "near",
    "from",
    "to",
    "by",
    "as",
    "please",
    "too",
    "also",
    "the",
    "a",
    "an",
    "of",
    "options",
    "option",
    "access",
    "available",
    "included",
    "only",
    "that",
    "which",
    "if",
    "is",
    "are",
];

/// The values a string parameter's description lists in quotes
/// ("Allowed values: 'copper', 'aluminum'"), at least two, read as an
/// enum: a goal that names one of them means that value.
fn described_values(p: &Param) -> Option<Vec<Json>> {
    if !matches!(p.ty.as_deref(), Some("string") | None) {
        return None;
    }
    let desc = p.schema.get("description").and_then(Json::as_str)?;
    quoted_values(desc)
}

/// The single-quoted words of `desc`, at least two ("'copper',
/// 'aluminum'").
fn quoted_values(desc: &str) -> Option<Vec<Json>> {
    let values = single_quoted(desc);
    (values.len() >= 2).then_some(values)
}

/// The single-quoted words of `desc` ("In this case, 'NBA'", "like
/// 'ounce' or 'kg'"), each once.
fn single_quoted(desc: &str) -> Vec<Json> {
    let chars: Vec<char> = desc.chars().collect();
    let mut values: Vec<Json> = vec![];
    let mut i = 0;
    while i < chars.len() {
        // An opening quote at a word boundary ("user's" is no quote).
        if chars[i] == '\'' && (i == 0 || !chars[i - 1].is_alphanumeric()) {
            let body: String = chars[i + 1..]
                .iter()
                .take_while(|c| c.is_alphanumeric() || matches!(c, '-' | '_'))
                .collect();
            let close = i + 1 + body.chars().count();
            if !body.is_empty()
                && chars.get(close) == Some(&'\'')
                && chars.get(close + 1).is_none_or(|c| !c.is_alphanumeric())
            {
                let v = Json::from(body);
                if !values.contains(&v) {
                    values.push(v);
                }
                i = close + 1;
                continue;
            }
        }
        i += 1;
    }
    values
}

/// The words `values` in the clause's order when the clause lists them
/// ("copper and aluminum", "red, green or blue"); `None` when they are
/// apart ("convert 30 celsius to fahrenheit" names two units, not a list).
fn coordinated_words(clause: &str, values: &[&Json]) -> Option<Vec<Json>> {
    let lower = clause.to_lowercase();
    let mut at: Vec<(usize, usize, Json)> = vec![];
    for v in values {
        let w = v.as_str()?.to_lowercase();
        let start = lower.match_indices(&w).map(|(i, _)| i).find(|&i| {
            let before = lower[..i].chars().next_back();
            let after = lower[i + w.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
        })?;
        at.push((start, start + w.len(), (*v).clone()));
    }
    at.sort_by_key(|(s, _, _)| *s);
    let gaps: Option<Vec<Gap>> = at
        .windows(2)
        .map(|w| gap_text(lower.get(w[0].1..w[1].0)?, &BTreeSet::new()))
        .collect();
    list_shaped(&gaps?).then(|| at.into_iter().map(|(_, _, v)| v).collect())
}

/// Whether the gaps of a chain of values have the shape of a list:
/// commas, then one conjunction before the last value ("A and B",
/// "A, B and C"). "Seattle, Washington" (a comma alone) is a place and
/// its state, not two places; "A, B and C, D" is two qualified places.
fn list_shaped(gaps: &[Gap]) -> bool {
    match gaps.split_last() {
        Some((last, rest)) => *last == Gap::Conjunction && rest.iter().all(|g| *g == Gap::Comma),
        None => false,
    }
}

/// The scalar parameters the goal gives several coordinated values
/// ("the events of Lincoln and Washington"; "Lakers and Bulls in seasons
/// 2018 and 2020"): each parameter with its chain of values in the goal's
/// order (the bound one included), at most two. Empty when no parameter
/// has such values, when more than two do, or when a chain also holds a
/// value bound to another parameter: "add 2 and 3 and 4" is not two
/// additions. A value of the chain's kind bound elsewhere makes it a
/// guess, unless the goal pairs the lists (`paired`: "respectively").
fn fan_out(
    clause: &str,
    mentions: &[Mention],
    params: &[Param],
    bound_from: &std::collections::BTreeMap<usize, MentionRef>,
    whole: &BTreeSet<usize>,
    items_used: &BTreeSet<(usize, usize)>,
    paired: bool,
) -> Vec<(usize, Vec<MentionRef>)> {
    let used = |r: MentionRef| match r.1 {
        None => whole.contains(&r.0),
        Some(i) => items_used.contains(&(r.0, i)),
    };
    let all: Vec<MentionRef> = mentions
        .iter()
        .enumerate()
        .flat_map(|(mi, m)| {
            if m.items.is_empty() {
                vec![(mi, None)]
            } else {
                (0..m.items.len()).map(|i| (mi, Some(i))).collect()
            }
        })
        .collect();
    let mut found: Vec<(usize, Vec<MentionRef>)> = vec![];
    for (&pi, &src) in bound_from {
        let p = &params[pi];
        if p.ty.as_deref() == Some("array") {
            continue;
        }
        let kind = mention_at(mentions, src).kind;
        // "by age, and by name": keys of one order, never one call each.
        if kind == MentionKind::Field {
            continue;
        }
        let mut same: Vec<MentionRef> = all
            .iter()
            .copied()
            .filter(|r| mention_at(mentions, *r).kind == kind)
            .collect();
        same.sort_by_key(|r| mention_at(mentions, *r).span.start);
        let Some(at) = same.iter().position(|r| *r == src) else {
            continue;
        };
        let join = |a: MentionRef, b: MentionRef| {
            gap(clause, mention_at(mentions, a), mention_at(mentions, b))
        };
        let linked = |a: MentionRef, b: MentionRef| join(a, b).is_some();
        let mut start = at;
        while start > 0 && linked(same[start - 1], same[start]) {
            start -= 1;
        }
        let mut end = at;
        while end + 1 < same.len() && linked(same[end], same[end + 1]) {
            end += 1;
        }
        if start == end {
            continue;
        }
        let chain = &same[start..=end];
        if chain.len() > MAX_FAN_OUT {
            return vec![];
        }
        let gaps: Vec<Gap> = chain.windows(2).filter_map(|w| join(w[0], w[1])).collect();
        if !list_shaped(&gaps) {
            continue;
        }
        // A value of the same kind bound to another parameter makes the
        // chain doubtful: which operand repeats is a guess ("subtract 3
        // from 10 and 20", "split 'a-b' and 'c-d' on '-'", "two numbers,
        // for example 12 and 15").
        // Not when the chain is one list the goal labels with the
        // parameter's words or its unit ("a loan term of 15, 20 and 30
        // years" beside "a loan amount of $400,000").
        let same_kind_elsewhere = bound_from
            .iter()
            .any(|(&other, &r)| other != pi && mention_at(mentions, r).kind == kind);
        let list = &mentions[chain[0].0];
        let labelled_list = chain.iter().all(|r| r.0 == chain[0].0 && r.1.is_some())
            && (cue_names(list, p) || list.items.iter().all(|it| it.unit.is_some()));
        // "… respectively" says which goes with which.
        if same_kind_elsewhere && !labelled_list && !paired {
            return vec![];
        }
        let clean = chain
            .iter()
            .all(|r| *r == src || (!used(*r) && compat(mention_at(mentions, *r), p).is_some()));
        if !clean {
            return vec![];
        }
        found.push((pi, chain.to_vec()));
    }
    if found.len() > 2 {
        found.clear();
    }
    found
}

/// Words a parameter name uses for each role.
const PATH_WORDS: &[&str] = &[
    "path",
    "file",
    "filename",
    "filepath",
    "dir",
    "directory",
    "folder",
    "source",
    "destination",
    "dest",
    "target",
    "src",
    "dst",
];
const URL_WORDS: &[&str] = &[
    "url", "uri", "link", "href", "endpoint", "website", "site", "webpage",
];
const DATA_WORDS: &[&str] = &[
    "text", "content", "contents", "body", "data", "input", "json", "string", "document", "html",
    "markdown",
];
const USER_TEXT_WORDS: &[&str] = &[
    "message",
    "prompt",
    "question",
    "instruction",
    "query",
    "q",
    "search",
    "keyword",
    "keywords",
    "term",
    "topic",
    "subject",
    "msg",
    "note",
    "comment",
];
const NAMEISH_WORDS: &[&str] = &[
    "name",
    "title",
    "query",
    "q",
    "search",
    "keyword",
    "term",
    "person",
    "city",
    "location",
    "place",
    "entity",
    "movie",
    "film",
    "topic",
    "subject",
    "user",
    "username",
    "country",
    "company",
    "destination",
    "origin",
    "team",
    "artist",
    "author",
    "player",
    "region",
    "state",
    "timezone",
    "zone",
    "who",
    "contact",
    "restaurant",
    "hotel",
    "airport",
    "brand",
    "product",
    "symbol",
    "ticker",
    "book",
    "song",
    "show",
    "game",
];
const DATE_WORDS: &[&str] = &[
    "date",
    "day",
    "since",
    "until",
    "after",
    "before",
    "start",
    "end",
    "from",
    "to",
    "when",
    "birthday",
    "time",
    "datetime",
    "timestamp",
];
const TIME_WORDS: &[&str] = &["time", "hour", "at", "when", "start", "end", "clock"];
/// Parameters that take any text the user gives (a date among it).
const FREE_TEXT_WORDS: &[&str] = &[
    "text",
    "message",
    "content",
    "body",
    "query",
    "q",
    "input",
    "value",
    "string",
    "data",
    "note",
    "comment",
    "prompt",
    "description",
    "search",
    "keyword",
    "term",
    "item",
    "items",
];
const EMAIL_WORDS: &[&str] = &[
    "email",
    "mail",
    "recipient",
    "address",
    "to",
    "sender",
    "from",
];
const SEP_WORDS: &[&str] = &[
    "separator",
    "delimiter",
    "sep",
    "delim",
    "split",
    "by",
    "on",
];
const ID_WORDS: &[&str] = &[
    "id", "number", "num", "code", "year", "zip", "page", "limit", "count", "index", "no",
];
/// Parameters that page through results rather than say what is wanted.
const PAGING_WORDS: &[&str] = &[
    "page", "offset", "skip", "cursor", "per_page", "limit", "start", "size",
];
/// Words that make a paging parameter a count ("per_page", "page_size").
const PER_PAGE_WORDS: &[&str] = &["per", "size", "limit", "count"];
/// Parameters that carry request metadata.
const HEADER_WORDS: &[&str] = &[
    "header",
    "headers",
    "cookie",
    "cookies",
    "auth",
    "authorization",
];
/// Parameters that take codes, not names (`region`: "US", not a title).
const CODE_WORDS: &[&str] = &[
    "region", "language", "locale", "lang", "country", "currency", "iso", "code",
];
/// Words that put a number into a paging parameter.
const PAGING_CUES: &[&str] = &[
    "page", "first", "top", "last", "limit", "offset", "skip", "most",
];
const REPO_WORDS: &[&str] = &["repo", "repository", "project", "slug"];
/// Parameters that take an IANA time zone.
const ZONE_WORDS: &[&str] = &["timezone", "tz", "zone"];
/// Parameters that take a list of items.
const LIST_WORDS: &[&str] = &["items", "list", "values", "array", "elements", "lines"];
/// Parameters (or their descriptions) that want a directory.
const DIR_WORDS: &[&str] = &["directory", "dir", "folder"];
/// Parameters that take a percentage: a plain number parameter does not
/// (`10%` is not 10; "add 10% to 50" is not `add(10, 50)`).
const PERCENT_WORDS: &[&str] = &[
    "percent",
    "percentage",
    "pct",
    "rate",
    "ratio",
    "discount",
    "tax",
    "tip",
    "fraction",
    "share",
    "probability",
    "yield",
    "interest",
    "growth",
    // "a *95% confidence* interval", "a 5% *significance* level".
    "confidence",
    "significance",
];
/// `p`'s description, lower-case (for phrases its stemmed words lose:
/// "number of", "5% is 0.05").
fn lower_description(p: &Param) -> String {
    p.schema
        .get("description")
        .and_then(Json::as_str)
        .unwrap_or_default()
        .to_lowercase()
}

/// Whether a percentage goes into `p` as a fraction ("4%" as 0.04): its
/// description says a decimal or a fraction ("as a decimal", "e.g. 5% is
/// 0.05"), or its maximum is 1; or it is a `number` (a float) that says
/// no percent anywhere, as rates and probabilities are in APIs
/// ("interest_rate: the annual interest rate"). An integer, or one that
/// says "percent"/"percentage"/"%", takes the percentage as written.
fn percent_as_fraction(p: &Param) -> bool {
    let desc = lower_description(p);
    let says_fraction = has(&p.desc_words, &["decimal", "fraction", "fractional"])
        || desc.contains("% is 0.")
        || desc.contains("% = 0.")
        || p.schema
            .get("maximum")
            .and_then(Json::as_f64)
            .is_some_and(|max| max <= 1.0);
    if says_fraction {
        return true;
    }
    let says_percent = has(&p.name_words, &["percent", "percentage", "pct"])
        || has(&p.desc_words, &["percent", "percentage", "pct"])
        || desc.contains('%');
    !says_percent && p.ty.as_deref() == Some("number")
}

const OWNER_WORDS: &[&str] = &[
    "owner",
    "org",
    "organization",
    "user",
    "username",
    "account",
];

fn stemmed(words: &[&str]) -> BTreeSet<String> {
    words.iter().flat_map(|w| analyze(w)).collect()
}

fn has(p: &BTreeSet<String>, words: &[&str]) -> bool {
    let s = stemmed(words);
    !p.is_disjoint(&s)
}

fn num(f: f64) -> Json {
    if f.fract() == 0.0 && f.abs() < 9.0e15 {
        Json::from(f as i64)
    } else {
        serde_json::Number::from_f64(f).map_or(Json::Null, Json::Number)
    }
}

/// Whether `v` respects the parameter's `enum`, `minimum` and `maximum`,
/// and the values its description lists when it lists some, not as
/// examples ("It can be either 'men' or 'women'": "Germany" is neither).
fn within(p: &Param, v: &Json) -> bool {
    fits(&p.schema, v)
        && match (v.as_str(), &p.closed) {
            (Some(s), Some(vs)) => vs
                .iter()
                .filter_map(Json::as_str)
                .any(|x| x.eq_ignore_ascii_case(s)),
            _ => true,
        }
}

/// The values a parameter's description lists as its only ones
/// ([`described_values`] outside the description's examples), when there
/// is no schema `enum` to say so.
fn closed_values(schema: &Json, ty: Option<&str>, desc: &str) -> Option<Vec<Json>> {
    if schema.get("enum").is_some() || !matches!(ty, Some("string") | None) || desc.is_empty() {
        return None;
    }
    quoted_values(&super::lexicon::without_examples(desc))
}

/// Whether `v` meets the schema's `enum`, `minimum` and `maximum`, and
/// each item of an array its `items` schema's.
fn fits(schema: &Json, v: &Json) -> bool {
    if let Some(e) = schema.get("enum").and_then(Json::as_array)
        && !e.iter().any(|x| x == v)
    {
        return false;
    }
    if let Some(f) = v.as_f64() {
        if schema
            .get("minimum")
            .and_then(Json::as_f64)
            .is_some_and(|m| f < m)
        {
            return false;
        }
        if schema
            .get("maximum")
            .and_then(Json::as_f64)
            .is_some_and(|m| f > m)
        {
            return false;
        }
    }
    if let (Some(items), Some(arr)) = (schema.get("items"), v.as_array()) {
        return arr.iter().all(|x| fits(items, x));
    }
    true
}

/// The unit a numeric parameter wants, from its name and description:
/// milliseconds per unit and the unit's name.
fn wanted_unit(p: &Param) -> Option<(f64, &'static str)> {
    let all: BTreeSet<String> = p.name_words.union(&p.desc_words).cloned().collect();
    let name = p.name.to_ascii_lowercase();
    // `delay_ms`, `timeoutMs`, `ms`; not `bedrooms` or `items`.
    let ms_suffix = name == "ms" || name.ends_with("_ms") || p.name.ends_with("Ms");
    if has(&all, &["ms", "millisecond", "milliseconds", "msec"]) || ms_suffix {
        Some((1.0, "milliseconds"))
    } else if says_seconds(p) {
        Some((1000.0, "seconds"))
    } else if has(&all, &["minute", "minutes"]) || minutes_by_min(p) {
        Some((60_000.0, "minutes"))
    } else if has(&all, &["hour", "hours"]) {
        Some((3_600_000.0, "hours"))
    } else if has(&all, &["day", "days"]) {
        Some((86_400_000.0, "days"))
    } else if has(&all, &["week", "weeks"]) {
        Some((604_800_000.0, "weeks"))
    } else {
        None
    }
}

/// Whether `p` says minutes by "min": its name ending in it (`delay_min`,
/// `wait_mins`) or its description writing "mins". Not `min_amount` or
/// `minPrice`, where "min" is a minimum (attack trial: "the last 5 days"
/// went into `min_amount` as 7200 minutes).
fn minutes_by_min(p: &Param) -> bool {
    let words = ccos_marketplace::ids::words(&p.name);
    let last = words.last().map(String::as_str);
    let desc = p
        .schema
        .get("description")
        .and_then(Json::as_str)
        .unwrap_or("")
        .to_lowercase();
    matches!(last, Some("min" | "mins"))
        || desc
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| w == "mins")
}

/// Whether `p`'s name or description says seconds: the word as written
/// ("seconds", "sec", `timeout_s`), not its stem, which "the *second*
/// number" shares.
fn says_seconds(p: &Param) -> bool {
    let desc = p
        .schema
        .get("description")
        .and_then(Json::as_str)
        .unwrap_or("")
        .to_lowercase();
    let name = p.name.to_lowercase();
    name.ends_with("_s")
        || name.ends_with("_sec")
        || name.ends_with("secs")
        || name.ends_with("seconds")
        || desc
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| matches!(w, "seconds" | "sec" | "secs"))
}

/// Whether `p` takes a duration in milliseconds (which no person writes
/// as a bare number).
fn wants_milliseconds(p: &Param) -> bool {
    wanted_unit(p).is_some_and(|(per, _)| per == 1.0)
}

/// The base score and value of mention `m` in parameter `p` (the type
/// evidence of the module docs), or `None` when it cannot go there.
pub fn compat(m: &Mention, p: &Param) -> Option<(f64, Json)> {
    compat_unbounded(m, p).filter(|(_, v)| within(p, v))
}

/// Why `m` fits no free parameter only by its bounds ("above the maximum
/// 600000 of :ms"), for the report of a value left unused.
fn out_of_bounds(m: &Mention, params: &[Param], free: &[usize]) -> Option<String> {
    free.iter().find_map(|&pi| {
        let p = &params[pi];
        let (_, v) = compat_unbounded(m, p)?;
        if within(p, &v) {
            return None;
        }
        let bound = |k: &str| p.schema.get(k).and_then(Json::as_f64);
        let f = v.as_f64();
        Some(match (f, bound("minimum"), bound("maximum")) {
            (Some(f), _, Some(max)) if f > max => {
                format!("{v} is above the maximum {max} of :{}", p.name)
            }
            (Some(f), Some(min), _) if f < min => {
                format!("{v} is below the minimum {min} of :{}", p.name)
            }
            _ => format!("{v} is not a value :{} allows", p.name),
        })
    })
}

/// Words of a parameter that takes the key of a field of records
/// (`key`, `sort_by`, `order_by`, `field`, `column`).
const KEY_WORDS: &[&str] = &[
    "key",
    "field",
    "attribute",
    "property",
    "column",
    "sort",
    "order",
];

/// How a field named by its key ("by *age*", "whose *city* is")
/// fits `p`: as one of its choices, or whole into a string parameter
/// that takes a key; nothing else (a field is no text to process).
fn field_fit(m: &Mention, p: &Param) -> Option<(f64, Json)> {
    if !matches!(p.ty.as_deref(), Some("string") | None) {
        return None;
    }
    // "live in Paris": no key said, the keys that may hold it; a key
    // parameter that takes a list of them takes it (the capability uses
    // the one the records have).
    if m.is_relation() {
        let lists = p
            .schema
            .get("type")
            .and_then(Json::as_array)
            .is_some_and(|ts| ts.iter().any(|t| t == "array"));
        return (lists && has(&p.name_words, KEY_WORDS)).then(|| (1.0, m.value.clone()));
    }
    let key = m.value.as_str()?;
    if let Some(v) = enum_choice(p, key) {
        return Some((1.0, v.clone()));
    }
    (p.schema.get("enum").is_none() && p.closed.is_none() && has(&p.name_words, KEY_WORDS))
        .then(|| (1.0, m.value.clone()))
}

/// Whether `value` is one of the examples `p`'s description gives.
fn is_example_of(p: &Param, value: &str) -> bool {
    p.examples.iter().any(|e| e.eq_ignore_ascii_case(value))
}

/// Why name or quoted text `it`, bound to `p` as `value`, says by its
/// own words that it is no value of `p` (a doubt of [`bind`]); `None`
/// when nothing does, or `p` lists or exemplifies it:
/// - a known place for a kind parameter no word around it names ("a room
///   … in *New York*" as `roomType`);
/// - a US state or a country that is no city of its own time zone
///   ("Texas") for a `city`;
/// - a name or a text with spaces for a URL;
/// - a day or a time of day after a preposition of time ("for
///   *Saturday*", "at *Noon*") for a parameter that takes no time, no
///   word around it names and that is no search's keyword ("news about
///   *Christmas*", "the song *Friday*": there the day may be the thing).
fn doubt_about(it: &Mention, value: &Json, p: &Param) -> Option<String> {
    let name = it.kind == MentionKind::Name;
    if !(name || it.kind == MentionKind::Quoted)
        || enum_choice(p, &it.text).is_some()
        || is_example_of(p, &it.text)
    {
        return None;
    }
    if name && says_a_kind(p) && super::regions::is_place(&it.text) && cue_score(it, p) <= 0.0 {
        return Some(format!("a place, not a kind for :{}", p.name));
    }
    // A name is no e-mail address (attack trial: "to John Doe at
    // john.doe@example.com" sent to "John Doe", the address in `bcc`):
    // a doubt, so no other capability (a chat message) takes the name.
    if !it.text.contains('@') && wants_an_email_address(p) {
        return Some(format!("a name, not an e-mail address for :{}", p.name));
    }
    // "*Italian* restaurants", "*French* movies": what kind they are, no
    // restaurant's name and no genre (attack trial).
    if name && super::nationalities::is_nationality(&it.text) && !takes_a_nationality(p, &it.text) {
        return Some(format!("a nationality, not a value for :{}", p.name));
    }
    // "books about the *French Revolution*": words with spaces are no
    // identifier (helper trial: `getBookByIsbn {:isbn "French
    // Revolution"}`).
    if name
        && it.text.trim().contains(char::is_whitespace)
        && (is_identifier(p)
            || ccos_marketplace::ids::words(&p.name)
                .last()
                .is_some_and(|w| {
                    matches!(
                        w.as_str(),
                        "isbn" | "sku" | "uuid" | "guid" | "ean" | "upc" | "asin"
                    )
                }))
    {
        return Some(format!("words, not an identifier for :{}", p.name));
    }
    // "the stock price of *Netflix*": a company's name is no ticker
    // symbol (attack trial: `{:symbol "Netflix"}`); "NFLX" is.
    if name
        && has(&p.name_words, &["symbol", "ticker"])
        && it
            .text
            .chars()
            .any(|c| c.is_lowercase() || c.is_whitespace())
    {
        return Some(format!("a name, not a symbol for :{}", p.name));
    }
    let own = ccos_marketplace::ids::words(&p.name);
    // "Washington" (the city as often) has no postal code here, and
    // "Washington, D.C." is bound as the city.
    if name
        && matches!(own.last().map(String::as_str), Some("city" | "town"))
        && value.as_str() == Some(it.text.as_str())
        && (super::regions::is_country_or_us_state(&it.text) || names_a_region(&it.text))
        && !super::zones::iana_zone(&it.text).is_some_and(|z| z.contains('/'))
    {
        return Some(format!("a state or country, not a city for :{}", p.name));
    }
    // "Nintendo games", "Tolkien books", "Play Beatles songs": things the
    // name says which of (by, from, in it), not one thing so named
    // (attack trial: `findGame {:game "Nintendo"}`), unless the parameter
    // takes a kind of them ("The hotel or chain": "Hilton hotels"); a
    // place never names one ("Texas plants").
    if name
        && names_things_of_the_params_noun(it, &own)
        && (!takes_a_class(p) || is_well_known_place(&it.text))
    {
        return Some(format!(
            "it says which {}, not a :{}",
            it.cue.after.first().map_or("", String::as_str),
            p.name
        ));
    }
    // "Wall Street", "Bourbon Street": a street, never a city, a state
    // or a country (attack trial: `findParking {:city "Wall Street"}`).
    if name
        && super::mentions::names_a_street(&it.text)
        && !takes_a_street(p)
        && (names_a_place_param(p) || (placed_as_a_street(it) && !adjacent_word_names(it, p)))
    {
        return Some(format!("a street, not a value for :{}", p.name));
    }
    let url_param = p
        .schema
        .get("format")
        .and_then(Json::as_str)
        .is_some_and(|f| matches!(f, "uri" | "url" | "iri" | "uri-reference"))
        || matches!(
            own.last().map(String::as_str),
            Some("url" | "uri" | "href" | "endpoint")
        );
    if url_param && (name || it.text.trim().contains(char::is_whitespace)) {
        return Some(format!("not an address for :{}", p.name));
    }
    if name
        && names_a_day_or_time(&it.text)
        && says_when(it)
        && !cue_names(it, p)
        && !has(&p.name_words, QUERY_WORDS)
        && !takes_a_time(p)
    {
        return Some(format!("a day or time, not a value for :{}", p.name));
    }
    None
}

/// Whether name `men`, placed by its preposition ("*on* Netflix", "*from*
/// IKEA", "*with* Bryan Cranston"), says something else than what
/// parameter `p` takes:
/// - never a title or a kind, after any preposition of place, origin or
///   company ("shows *on Netflix*" is no title, "*in Chinatown*" no
///   cuisine);
/// - "with": with whom or what; no parameter another preposition points
///   to takes it ("shows *with Bryan Cranston*" is no network, which is
///   said "on"), but a person's or any other may ("*with American
///   Airlines*" as an `airline`);
/// - "about": what it is about, never who made it (`author`, `artist`,
///   `publisher`: "books *about the French Revolution*");
/// - "in", "near", "on"...: no maker (`publisher`, `brand`: "*in Eighty
///   Days*" is no publisher);
/// - "with", "by": a person's parameter takes it when the capability has
///   one ("*by John Steinbeck*" is the `author`, no `publisher`; "*with
///   Malcolm Gladwell*" the `host`, no `topic`);
/// - a name parameter that is no place's nor (but after "on") a
///   person's, when the
///   capability has a parameter the preposition points to: a place after
///   "in", "near"... (not "at": "a table *at Nobu*"; "hotels *in Paris*" is no `hotel_name` when
///   there is a `city`), a team, a network or a platform after "on"
///   ("quarterbacks *on the Kansas City Chiefs*" with a `team`), a brand or
///   a source after "from" or "by" ("products *from IKEA*" with a
///   `brand`). Else the name may be it: "information *on the American
///   Civil War*" as an `event_name`, "order *from Nobu*".
fn placed_not_named(men: &Mention, p: &Param, params: &[Param], free: &[usize]) -> bool {
    const ON_WORDS: &[&str] = &[
        "network", "platform", "channel", "team", "site", "service", "station", "board",
    ];
    const ORIGIN_WORDS: &[&str] = &[
        "brand",
        "manufacturer",
        "maker",
        "vendor",
        "source",
        "publisher",
        "network",
        "studio",
        "company",
        "seller",
        "supplier",
        "label",
        "origin",
        "platform",
        "provider",
    ];
    // Makers of things (not people): no name after "in" or "on" is one.
    const MAKERS: &[&str] = &[
        "publisher",
        "brand",
        "manufacturer",
        "maker",
        "studio",
        "vendor",
        "supplier",
        "seller",
        "label",
    ];
    const MAKER_WORDS: &[&str] = &[
        "author",
        "artist",
        "creator",
        "writer",
        "director",
        "composer",
        "publisher",
        "performer",
        "singer",
        "band",
        "host",
    ];
    let Some(prep) = men.cue.prep.as_deref() else {
        return false;
    };
    // "books *about the French Revolution*": what they are about, not who
    // made them (helper trial: `{:author "French Revolution"}`).
    // (Nor where: "news *about Taylor Swift*" is no `venue`.)
    if prep == "about" {
        return has(&p.name_words, MAKER_WORDS)
            || has(&p.name_words, PLACE_WORDS)
            || has(&p.name_words, &["venue"])
            || names_a_place_param(p);
    }
    // "*in Eighty Days*" is no publisher, "*on Main Street*" no brand.
    let in_like = matches!(
        prep,
        "in" | "near" | "inside" | "under" | "over" | "via" | "across"
    );
    if (in_like || prep == "on") && has(&p.name_words, MAKERS) {
        return true;
    }
    let placing = in_like || matches!(prep, "on" | "at" | "from" | "by");
    if !placing && prep != "with" {
        return false;
    }
    if has(&p.name_words, &["title", "headline"]) || says_a_kind(p) {
        return true;
    }
    // "by John Steinbeck", "with Malcolm Gladwell": a person's parameter
    // (`author`, `host`) takes it when there is one, no `publisher` or
    // `topic` (helper trial).
    if matches!(prep, "with" | "by")
        && !takes_a_person(p)
        && free.iter().any(|&q| takes_a_person(&params[q]))
    {
        return true;
    }
    if prep == "with" {
        return !about_people(p)
            && (has(&p.name_words, ON_WORDS)
                || has(&p.name_words, ORIGIN_WORDS)
                || has(&p.name_words, PLACE_WORDS));
    }
    // A thing's own name, not a place's, nor a person's ("author_name")
    // but after "on" (no player is named "on the Chiefs").
    if p.name_words.is_disjoint(&stemmed(&["name"]))
        || (prep != "on" && takes_a_person(p))
        || names_a_place_param(p)
        || has(&p.name_words, PLACE_WORDS)
    {
        return false;
    }
    let pointed: &[&str] = match prep {
        "on" => ON_WORDS,
        "from" | "by" => ORIGIN_WORDS,
        // "a table *at Nobu*", "*at the Hilton Hotel* in Chicago": a venue
        // by its name.
        "at" => return false,
        _ => PLACE_WORDS,
    };
    free.iter().any(|&q| {
        let q = &params[q];
        has(&q.name_words, pointed) || (pointed == PLACE_WORDS && names_a_place_param(q))
    })
}

/// Whether name `men` is the title of a work its noun just said ("the
/// musical *Hamilton*", "the song *Yesterday*"): a title, never a kind.
fn titled_work(men: &Mention) -> bool {
    men.kind == MentionKind::Name
        && men.cue.prep.is_none()
        && men
            .cue
            .before
            .last()
            .is_some_and(|w| super::mentions::WORK_NOUNS.contains(&w.as_str()))
}

/// Whether `p`'s name says the opposite direction in time of the
/// preposition before `men`: "*after* 2024-06-01" for `due_before`,
/// "*before* May" for `created_after`, "*since* Monday" for `until`.
///
/// A date, a time or a year so bounded is no exact one either: "events
/// *after* 2024-05-01" fill no plain `date`, "albums released *before*
/// 2000" no `year` (helper trial); only a parameter that says a bound
/// (`from_date`, `posted_after`, `end`, `max_year`) takes it.
fn against_its_direction(men: &Mention, p: &Param) -> bool {
    const LATER: &[&str] = &["after", "since"];
    const EARLIER: &[&str] = &["before", "until", "till", "prior"];
    const BOUNDS: &[&str] = &[
        "after", "since", "before", "until", "till", "prior", "from", "to", "start", "end", "min",
        "max", "earliest", "latest", "begin", "through",
    ];
    let Some(prep) = men.cue.prep.as_deref() else {
        return false;
    };
    let words = ccos_marketplace::ids::words(&p.name);
    let says = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    let later = LATER.contains(&prep);
    let earlier = EARLIER.contains(&prep);
    let when = matches!(men.kind, MentionKind::Date | MentionKind::Time) || year_shaped(men);
    (later && (says(EARLIER) || says(&["end", "to", "max", "latest"])))
        || (earlier && (says(LATER) || says(&["start", "from", "min", "earliest", "begin"])))
        || ((later || earlier) && when && !says(BOUNDS))
}

/// Whether `men` is a year said as when ("*in 1997*", "*since* 2010"):
/// [`year_shaped`], after "in", "since" or "during".
fn said_as_a_year(men: &Mention) -> bool {
    year_shaped(men) && matches!(men.cue.prep.as_deref(), Some("in" | "since" | "during"))
}

/// Whether `p` takes a year or a time by its name: `year`, `season`,
/// `date`, `start_time`, `period`...
fn names_a_time_or_year(p: &Param) -> bool {
    has(
        &p.name_words,
        &[
            "year", "season", "date", "time", "period", "decade", "when", "since", "until", "from",
            "to", "after", "before", "start", "end",
        ],
    ) || takes_a_time(p)
}

/// Whether `p` takes an adjective of nationality or region (`text`,
/// "Italian"): one of its choices or examples, or a parameter of the
/// kinds such an adjective says (a cuisine, a language, an origin).
fn takes_a_nationality(p: &Param, text: &str) -> bool {
    names_a_choice(p, text)
        || closed_choice(p, text)
        || has(
            &p.name_words,
            &[
                "cuisine",
                "language",
                "lang",
                "nationality",
                "citizenship",
                "origin",
                "ethnicity",
                "dialect",
                "locale",
                "food",
            ],
        )
        || (says_a_kind(p) && has(&p.desc_words, &["cuisine", "nationality", "language"]))
}

/// Whether the word right after name `it` is the plural of the last word
/// of a parameter's name (`own`): "Nintendo *games*" for `game`.
fn names_things_of_the_params_noun(it: &Mention, own: &[String]) -> bool {
    let (Some(after), Some(noun)) = (it.cue.after.first(), own.last()) else {
        return false;
    };
    let after = after.to_lowercase();
    !ATTRIBUTE_NOUNS.contains(&noun.as_str())
        && after != *noun
        && after.ends_with('s')
        && analyze(&after) == analyze(noun)
}

/// Last words of a parameter's name that say an attribute of the things
/// served, not the things: "*Gluten-free* options" is one `diet_option`,
/// "Wi-Fi amenities" one `amenity`.
const ATTRIBUTE_NOUNS: &[&str] = &[
    "option",
    "type",
    "kind",
    "category",
    "style",
    "level",
    "mode",
    "preference",
    "setting",
    "format",
    "feature",
    "filter",
    "status",
    "tag",
    "label",
    "value",
    "amenity",
    "facility",
    "service",
];

/// Words of a parameter's description saying it takes a kind of things
/// as well as one ("The hotel *or chain*", "The plant *species*").
const CLASS_WORDS: &[&str] = &[
    "chain",
    "brand",
    "maker",
    "manufacturer",
    "type",
    "kind",
    "category",
    "genre",
    "style",
    "species",
    "variety",
];

/// Whether `p`'s description says it takes a kind of things
/// ([`CLASS_WORDS`]).
fn takes_a_class(p: &Param) -> bool {
    CLASS_WORDS
        .iter()
        .any(|w| analyze(w).iter().all(|st| p.desc_words.contains(st)))
}

/// `score` of `men` for `p`, lowered to just above the bar when `men`
/// is a street's name and `p` a place's other than a street: "Wall
/// Street" goes there last, only when nothing else would take it (and
/// then it is doubted).
fn street_last(men: &Mention, p: &Param, score: f64) -> f64 {
    if men.kind == MentionKind::Name
        && super::mentions::names_a_street(&men.text)
        && names_a_place_param(p)
    {
        score.min(BIND_MIN + 0.01)
    } else {
        score
    }
}

/// Whether `it` follows a preposition of place ("near *Abbey Road*", "on
/// *Fifth Avenue*"): there it is the street; after "of", "for" or "by"
/// it may be a title ("screenings of *Mulholland Drive*", "songs by
/// *Penny Lane*").
fn placed_as_a_street(it: &Mention) -> bool {
    matches!(
        it.cue.prep.as_deref(),
        Some(
            "near"
                | "on"
                | "at"
                | "in"
                | "along"
                | "off"
                | "around"
                | "from"
                | "to"
                | "into"
                | "onto"
        )
    )
}

/// Whether `p` takes a street's name: a street, a (postal) address, a
/// location, a landmark, a route's origin, end or stop, or a search's
/// terms (no topic: "jobs near
/// Wall Street" are no courses on the subject Wall Street).
fn takes_a_street(p: &Param) -> bool {
    let w = &p.name_words;
    names_a_street_param(p)
        || (has(
            w,
            &[
                "locat", "landmark", "road", "origin", "destin", "waypoint", "pickup", "dropoff",
            ],
        ) && !has(w, NOT_STREET_WORDS))
        || has(w, QUERY_WORDS)
}

/// Stems of a parameter's name that make an address no street's: an
/// e-mail, a URL, an IP address.
const NOT_STREET_WORDS: &[&str] = &["email", "mail", "url", "ip"];

/// Whether `p` is a street or a postal address (no e-mail: "Diane
/// *Lane*" is no `email_address`): a street's name is drawn there.
fn names_a_street_param(p: &Param) -> bool {
    has(&p.name_words, &["street", "address"]) && !has(&p.name_words, NOT_STREET_WORDS)
}

/// Whether `p` is named for a place other than a street (`city`,
/// `home_state`, `park_name`): a street's name is none of them.
fn names_a_place_param(p: &Param) -> bool {
    ccos_marketplace::ids::words(&p.name).iter().any(|w| {
        matches!(
            w.as_str(),
            "city"
                | "town"
                | "state"
                | "country"
                | "county"
                | "region"
                | "province"
                | "park"
                | "lake"
                | "beach"
                | "island"
        )
    })
}

/// Whether name `text` says by its last word that it is a region wider
/// than a city: "New York *State*", "Orange *County*".
fn names_a_region(text: &str) -> bool {
    super::mentions::ends_in_one_of(
        text,
        &["state", "county", "province", "region", "territory"],
    )
}

/// Days and times of day said by name besides the days of the week
/// ([`super::mentions::WEEKDAYS`]): holidays, "noon".
const DAY_AND_TIME_NAMES: &[&str] = &[
    "weekend",
    "noon",
    "midday",
    "midnight",
    "tonight",
    "today",
    "tomorrow",
    "yesterday",
    "christmas",
    "christmas eve",
    "christmas day",
    "easter",
    "thanksgiving",
    "halloween",
    "hanukkah",
    "diwali",
    "ramadan",
    "new year",
    "new year's day",
    "new year's eve",
    "valentine's day",
    "mother's day",
    "father's day",
    "independence day",
    "labor day",
    "memorial day",
];

/// Whether name `text` says a day or a time of day ("Saturday", "Noon",
/// "Valentine's Day"), with its plural ("Saturdays").
fn names_a_day_or_time(text: &str) -> bool {
    let t = text.trim().to_lowercase().replace('\u{2019}', "'");
    let named = |w: &str| DAY_AND_TIME_NAMES.contains(&w) || super::mentions::WEEKDAYS.contains(&w);
    named(&t) || t.strip_suffix('s').is_some_and(named)
}

/// Whether day or time `it` follows a preposition of time ("*on*
/// Saturday", "*at* Noon", "*for* Christmas").
fn says_when(it: &Mention) -> bool {
    matches!(
        it.cue.prep.as_deref(),
        Some(
            "on" | "at"
                | "for"
                | "until"
                | "till"
                | "before"
                | "after"
                | "by"
                | "since"
                | "over"
                | "during"
                | "from"
                | "to"
        )
    )
}

/// Whether `p` may take a day or a time: a date or time by its schema,
/// or named or described by a word of when (`date`, `day`, `when`,
/// `start`, `occasion`, …).
fn takes_a_time(p: &Param) -> bool {
    static STEMS: std::sync::OnceLock<BTreeSet<String>> = std::sync::OnceLock::new();
    let when = STEMS.get_or_init(|| {
        [
            "date",
            "day",
            "days",
            "time",
            "when",
            "weekday",
            "schedule",
            "start",
            "end",
            "begin",
            "until",
            "since",
            "deadline",
            "due",
            "occasion",
            "holiday",
            "event",
            "season",
            "night",
            "evening",
            "morning",
            "period",
            "week",
            "hour",
            "moment",
            "timestamp",
            "datetime",
            "calendar",
            "departure",
            "arrival",
            "checkin",
            "checkout",
        ]
        .iter()
        .flat_map(|w| analyze(w))
        .collect()
    });
    let format = p
        .schema
        .get("format")
        .and_then(Json::as_str)
        .is_some_and(|f| f.contains("date") || f.contains("time"));
    format || !p.name_words.is_disjoint(when) || !p.desc_words.is_disjoint(when)
}

/// Whether `p` is a year (`year`, `release_year`), not a number of them
/// (`years`, `num_years`).
fn takes_a_year(p: &Param) -> bool {
    let words = ccos_marketplace::ids::words(&p.name);
    words.iter().any(|w| w == "year")
        && !words
            .iter()
            .any(|w| matches!(w.as_str(), "years" | "number" | "count" | "num" | "n"))
}

/// Whether number `m` is a year ("2021", "1861") and `p` a text
/// parameter named for a year or a season.
fn a_year_for_text(m: &Mention, p: &Param) -> bool {
    year_shaped(m) && p.ty.as_deref() == Some("string") && has(&p.name_words, &["year", "season"])
}

/// Whether `m` could be a year: a whole number from 1000 to 2999 with no
/// unit ("2021", "1861").
fn year_shaped(m: &Mention) -> bool {
    m.kind == MentionKind::Number
        && m.unit.is_none()
        && m.value.as_u64().is_some_and(|y| (1000..=2999).contains(&y))
}

/// Whether a parameter's name ends in a plural word (`ingredients`,
/// `dietary_tags`; not `address`, `status`).
fn plural_name(name: &str) -> bool {
    let Some(last) = ccos_marketplace::ids::words(name).pop() else {
        return false;
    };
    last.len() > 3
        && last.ends_with('s')
        && !["ss", "us", "is", "os"].iter().any(|e| last.ends_with(e))
}

/// Titles that make a name a person's ("Dr. Smith", "Mrs Robinson").
const PERSON_TITLES: &[&str] = &[
    "dr",
    "mr",
    "mrs",
    "ms",
    "mx",
    "prof",
    "professor",
    "sir",
    "dame",
    "madam",
    "miss",
];

/// Words of parameters that take a person (stemmed when compared).
const PERSON_WORDS: &[&str] = &[
    "name",
    "person",
    "people",
    "who",
    "doctor",
    "physician",
    "dentist",
    "lawyer",
    "contact",
    "author",
    "artist",
    "actor",
    "actress",
    "director",
    "composer",
    "writer",
    "scientist",
    "user",
    "owner",
    "player",
    "recipient",
    "sender",
    "customer",
    "client",
    "patient",
    "employee",
    "member",
    "friend",
    "speaker",
    "teacher",
    "student",
    "guest",
    "host",
    "attendee",
    "assignee",
    "reviewer",
    "manager",
    "individual",
    "passenger",
    "traveler",
    "professor",
    "specialist",
    "agent",
    "representative",
    "caller",
    "callee",
    "to",
    "from",
];

/// Whether `name` opens with a person's title ("Dr. John Smith").
fn wants_an_email_address(p: &Param) -> bool {
    has(&p.name_words, &["email", "mail"])
        || (has(&p.desc_words, &["email", "e-mail"]) && has(&p.desc_words, &["address"]))
}

/// Whether `it`, a name, is whose e-mail address follows ("John Doe at
/// john.doe@example.com", "John (john@x.org)"): the address is the
/// value, the name only says whose.
fn names_an_addressee(clause: &str, it: &Mention, mentions: &[Mention]) -> bool {
    mentions.iter().any(|e| {
        e.kind == MentionKind::Email
            && e.span.start >= it.span.end
            && clause
                .get(it.span.end..e.span.start)
                .is_some_and(|between| matches!(between.trim(), "at" | "(" | "<" | "," | ""))
    })
}

fn titled_person(name: &str) -> bool {
    let first = name
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .trim_end_matches('.')
        .to_lowercase();
    name.split_whitespace().count() > 1 && PERSON_TITLES.contains(&first.as_str())
}

/// Whether parameter `p` takes a person: by its name, or by a word of its
/// description naming people ("the patient's doctor"; not the "name",
/// "to" or "from" that any description says).
fn about_people(p: &Param) -> bool {
    takes_people(&p.name_words, &p.desc_words)
}

/// Whether `p` takes a person by a word of its own (`author`, `host`,
/// "Author name"), not by the words any parameter may have (`name`,
/// `to`, `from`).
fn takes_a_person(p: &Param) -> bool {
    let general = stemmed(&["name", "who", "to", "from"]);
    takes_people(
        &p.name_words.difference(&general).cloned().collect(),
        &p.desc_words,
    )
}

/// [`about_people`] of a parameter's name and description words.
fn takes_people(name_words: &BTreeSet<String>, desc_words: &BTreeSet<String>) -> bool {
    static STEMS: std::sync::OnceLock<(BTreeSet<String>, BTreeSet<String>)> =
        std::sync::OnceLock::new();
    let (named, described) = STEMS.get_or_init(|| {
        let all: BTreeSet<String> = PERSON_WORDS.iter().flat_map(|w| analyze(w)).collect();
        let general: BTreeSet<String> = ["name", "who", "to", "from"]
            .iter()
            .flat_map(|w| analyze(w))
            .collect();
        (all.clone(), all.difference(&general).cloned().collect())
    });
    !name_words.is_disjoint(named) || !desc_words.is_disjoint(described)
}

/// [`compat`] without the parameter's `enum`, `minimum` and `maximum`.
fn compat_unbounded(m: &Mention, p: &Param) -> Option<(f64, Json)> {
    let ty = p.ty.as_deref();
    // A quantity ("10 meters") goes only where its dimension is named.
    if let Some(unit) = m.unit.as_deref() {
        let f = m.value.as_f64()?;
        let sc = super::units::fits(unit, &p.name_words, &p.desc_words, &p.capability_words)?;
        return match ty {
            Some("number") | None => Some((sc, m.value.clone())),
            Some("integer") => (f.fract() == 0.0).then(|| (sc, num(f))),
            _ => None,
        };
    }
    let n = &p.name_words;
    if m.kind == MentionKind::Field {
        return field_fit(m, p);
    }
    // "a *4-star* hotel": the compound's noun says what the number is; it
    // goes only where a parameter names that noun ("2-person hotels" had
    // `{:stars 2}`, "9-hole tours" `{:duration_hours 9}`: attack trial).
    if m.kind == MentionKind::Number
        && let Some((_, noun)) = super::mentions::compound_number(&m.text)
        && !has(n, &[noun])
        && !has(&p.desc_words, &[noun])
    {
        return None;
    }
    // "the last *2* items", "the first *3* lines": a count from an end,
    // never one item's position.
    if m.kind == MentionKind::Number
        && m.cue.before.last().is_some_and(|w| {
            matches!(w.as_str(), "top" | "bottom" | "next" | "previous" | "but")
                || super::lexicon::ordinal_position(w).is_some()
        })
        && takes_one_place(p)
    {
        return None;
    }
    // "list *3 players*": a number before the plural of what is listed
    // is how many, never a rank or a position (attack trial: rank 3).
    if m.kind == MentionKind::Number
        && takes_one_place(p)
        && !has(&p.name_words, &["page"])
        && m.cue.after.first().is_some_and(|w| {
            w.len() > 3
                && w.ends_with('s')
                && !w.ends_with("ss")
                && w.chars().all(|c| c.is_ascii_alphabetic())
                && !matches!(
                    w.as_str(),
                    "this" | "plus" | "minus" | "times" | "does" | "thus"
                )
        })
    {
        return None;
    }
    // "the 3rd order of *customer 8*": a number right after a noun is
    // that thing's number, not an item's position (attack trial: it
    // picked the 8th item). "item 3", "position 3", "at 3" say one.
    if m.kind == MentionKind::Number
        && takes_a_position(p)
        && m.cue.before.last().is_some_and(|w| {
            w.chars().all(|c| c.is_ascii_alphabetic())
                && !matches!(
                    w.as_str(),
                    "position"
                        | "positions"
                        | "item"
                        | "items"
                        | "element"
                        | "elements"
                        | "entry"
                        | "entries"
                        | "index"
                        | "at"
                        | "number"
                        | "no"
                        | "nth"
                        | "place"
                        | "line"
                        | "word"
                        | "value"
                        | "one"
                        | "of"
                        | "is"
                        | "be"
                        | "get"
                        | "show"
                        | "give"
                        | "pick"
                        | "take"
                        | "return"
                        | "the"
                )
        })
    {
        return None;
    }
    // "rust *page 2*": the number right after "page" is which page, never
    // how many per page (attack trial: `{:per_page 2}`).
    if m.kind == MentionKind::Number
        && has(n, &["page"])
        && has(n, PER_PAGE_WORDS)
        && m.cue.before.last().is_some_and(|w| w == "page")
    {
        return None;
    }
    // A currency goes only where a currency is named, as its code.
    if m.kind == MentionKind::Currency {
        let code = m.value.as_str()?;
        let names_currency = has(n, &["currency"]) || has(&p.desc_words, &["currency"]);
        if !names_currency || !matches!(ty, Some("string") | None) {
            return None;
        }
        return match enum_choice(p, code) {
            Some(v) => Some((1.0, v.clone())),
            None => Some((1.0, Json::from(code))),
        };
    }
    // "send *Bob* a message", "tell *Alice* …": a name right after a verb
    // of sending is whom, never what is sent (attack trial: "send Bob a
    // message: a quick hello" sent the text "Bob").
    if m.kind == MentionKind::Name
        && m.cue
            .before
            .last()
            .is_some_and(|w| SENDING_VERBS.contains(&w.as_str()))
        && takes_words_to_pass_on(p)
    {
        return None;
    }
    // "Dr. John Smith" is a person: never a cuisine or a city.
    if m.kind == MentionKind::Name && titled_person(&m.text) && !about_people(p) {
        return None;
    }
    // A number written in scientific notation is no text: "order 1e5"
    // would be sent as "100000.0" (attack trial).
    if m.kind == MentionKind::Number && matches!(ty, Some("string")) && m.text.contains(['e', 'E'])
    {
        return None;
    }
    // The last word of the parameter's name (`check_in_*date*`,
    // `remind_*at*`, `event_*id*`), read once.
    let last_name_word = ccos_marketplace::ids::words(&p.name).pop();
    let last_name_word = last_name_word.as_deref();
    // A date or a time — by its name (`check_in_date`, `remind_at`,
    // `start_time`) or its schema (`"format": "date-time"`) — takes a
    // value with a digit: "'Queens Hotel'" and a reminder's text once went
    // there (attack trials).
    let temporal_param = matches!(
        last_name_word,
        Some("date" | "datetime" | "timestamp" | "at" | "time" | "when" | "deadline")
    ) || matches!(
        p.schema.get("format").and_then(Json::as_str),
        Some("date" | "date-time" | "time")
    );
    if temporal_param
        && matches!(m.kind, MentionKind::Quoted | MentionKind::Name)
        && !m.text.chars().any(|c| c.is_ascii_digit())
    {
        return None;
    }
    // An identifier (`eventId`, `id`) is no name and no topic: "the event
    // *named* 'Offsite'", "events *about* 'budget'" are not its id (attack
    // trial: they were deleted or fetched as ids). A value written as the
    // thing itself may be ("the 'R vs Adams' case": BFCL's case id).
    if matches!(last_name_word, Some("id" | "uuid"))
        && matches!(m.kind, MentionKind::Quoted | MentionKind::Name)
        && (m.cue.prep.iter().chain(m.cue.before.last()).any(|w| {
            matches!(
                w.as_str(),
                "named"
                    | "called"
                    | "titled"
                    | "about"
                    | "regarding"
                    | "entitled"
                    | "name"
                    | "title"
                    | "as"
                    | "dubbed"
                    | "nicknamed"
                    | "headlined"
            )
        })
            // "get event 'Launch' by name".
            || m.cue.after.first().is_some_and(|w| matches!(w.as_str(), "name" | "title")))
    {
        return None;
    }
    // An address is a link, not any text: "get the event with name
    // 'Launch'" once fetched the URL "Launch" (attack trial).
    if has(n, &["url", "uri", "link", "href", "endpoint"])
        && m.kind == MentionKind::Quoted
        && !looks_like_an_address(text_of(m))
    {
        return None;
    }
    // A phone number is no e-mail address ("send an email to bob@…" once
    // texted it as a phone number).
    if m.kind == MentionKind::Email && has(n, &["phone", "mobile", "tel", "telephone", "sms"]) {
        return None;
    }
    // A language parameter takes a language or its code, never other
    // words ("on 'next Friday'" once went into `lang`).
    if has(n, &["language", "lang"])
        && !has(n, &["text", "queri", "query"])
        && matches!(m.kind, MentionKind::Quoted | MentionKind::Name)
        && !super::languages::is_language(text_of(m))
        && !looks_like_language_code(text_of(m))
    {
        return None;
    }
    // What to leave out ("excludePatterns") is only what the goal says to
    // leave out: "python files *in* src/ and scripts/" names where to look.
    const EXCLUSION: &[&str] = &[
        "exclude",
        "excluding",
        "except",
        "ignore",
        "ignoring",
        "skip",
        "skipping",
        "without",
        "omit",
        "omitting",
        "blacklist",
        "deny",
    ];
    if has(n, EXCLUSION)
        && !m
            .cue
            .before
            .iter()
            .chain(&m.cue.prep)
            .any(|w| EXCLUSION.contains(&w.as_str()) || w == "not")
    {
        return None;
    }
    // "json files named data", "the file named notes.txt": what is
    // looked for, never the folder to look in (that is "files *in* data"),
    // unless a folder is what is named ("the folder named data").
    if matches!(m.kind, MentionKind::Name | MentionKind::Path)
        && matches!(m.cue.prep.as_deref(), Some("named" | "called"))
        && !m.cue.before.iter().any(|w| DIR_WORDS.contains(&w.as_str()))
        && (has(n, DIR_WORDS) || (has(n, &["path"]) && has(&p.capability_words, &["search"])))
    {
        return None;
    }
    let s = |v: &str| Json::from(v.to_string());
    let text_value = text_of(m).to_string();
    // Parameters that modify a request rather than say what is wanted
    // take a value only when the words around it name them: paging ("page
    // 2", "the first 5"; "the 2019 movie" is not page 2019), headers
    // (a JSON object to post is the body), codes (a film title is not a
    // region).
    // A country's name is what a country parameter that wants no code
    // takes ("the capital of *Brazil*").
    let country_named = m.kind == MentionKind::Name
        && super::regions::is_country(&text_value)
        && (text_value.len() > 3 || looks_like_code(&text_value))
        && has(n, &["country", "nation"])
        && !wants_code(p);
    // Header words as written: stemmed, "authorization" is "author", and
    // every `author` parameter was guarded (helper trial: "by John
    // Steinbeck" could never fill `author`).
    let header = ccos_marketplace::ids::words(&p.name)
        .iter()
        .any(|w| HEADER_WORDS.contains(&w.as_str()));
    let guarded = match m.kind {
        MentionKind::Number => has(n, PAGING_WORDS) || header,
        MentionKind::Name => (has(n, CODE_WORDS) && !country_named) || header,
        _ => header,
    };
    if guarded {
        let near: Vec<&str> = m
            .cue
            .before
            .iter()
            .chain(&m.cue.after)
            .chain(&m.cue.prep)
            .map(String::as_str)
            .collect();
        let near = stemmed(&near);
        // "the first 3 issues" is how many, not page 3: a page number
        // (`page`, `offset`) takes a number only when its own word is near.
        let page_number = has(n, &["page", "offset", "skip", "cursor"]) && !has(n, PER_PAGE_WORDS);
        // "translate 'hi' *into* French": where it goes names a target
        // language (`target_language`), where it comes from a source.
        // A language only (attack trial: "from Bob", "from Chase", "to
        // Alice" went into languages, currencies and countries).
        let directed = m.kind == MentionKind::Name
            && has(n, &["language", "lang"])
            && super::languages::is_language(&text_value)
            && match m.cue.prep.as_deref() {
                Some("to" | "into") => has(n, &["target", "destination"]),
                Some("from") => has(n, &["source", "origin"]),
                _ => false,
            };
        if near.is_disjoint(n)
            && !directed
            && !(m.kind == MentionKind::Number && !page_number && has(&near, PAGING_CUES))
        {
            return None;
        }
    }
    // A parameter that wants a code ("Two-letter US state code") takes
    // one ("TX"), never a name ("Texas", "New York City"), unless it also
    // takes a name or a place ("Departure city or IATA airport code").
    // ... a US state's name is its USPS code there ("Texas" is "TX").
    if m.kind == MentionKind::Name
        && wants_code(p)
        && has(n, &["state"])
        && let Some(code) = super::regions::us_state_code(&text_value)
    {
        return Some((1.0, Json::from(code))).filter(|o| within(p, &o.1));
    }
    if m.kind == MentionKind::Name
        && wants_code(p)
        && !has(
            &p.desc_words,
            &["name", "city", "place", "location", "town"],
        )
        && !looks_like_code(&text_value)
    {
        return None;
    }
    // A time-zone parameter takes the IANA zone a place names ("Tokyo",
    // "America/New_York"), and nothing that names no zone.
    if has(n, ZONE_WORDS) && matches!(ty, Some("string") | None) {
        return match m.kind {
            MentionKind::Name | MentionKind::Path | MentionKind::Quoted => {
                super::zones::iana_zone(&text_value)
                    .map(|z| (1.2, Json::from(z)))
                    .filter(|o| within(p, &o.1))
            }
            _ => None,
        };
    }
    // "divide 2 into 10": a number *into* which something goes is no
    // plain operand (is it 10 / 2, or 2 cut into 10 parts?); it fills only
    // a parameter named for it (parts, pieces, target).
    if m.kind == MentionKind::Number
        && m.cue.prep.as_deref() == Some("into")
        && !has(
            n,
            &[
                "into", "parts", "pieces", "groups", "chunks", "target", "dest",
            ],
        )
    {
        return None;
    }
    // A bare number is no duration in milliseconds: "wait 3" is not 3 ms
    // (nor surely 3 seconds); the goal says the unit or it is not read.
    if m.kind == MentionKind::Number && wants_milliseconds(p) {
        return None;
    }
    // A year is a year: "book 42" is no `year` (helper trial).
    if m.kind == MentionKind::Number
        && m.unit.is_none()
        && has(n, &["year"])
        && takes_a_year(p)
        && !m
            .value
            .as_f64()
            .is_some_and(|v| (1000.0..=9999.0).contains(&v))
        && !m.cue.before.last().is_some_and(|w| w.starts_with("year"))
    {
        return None;
    }
    let out = match (m.kind, ty) {
        (MentionKind::Number, Some("integer")) => {
            let f = m.value.as_f64()?;
            (f.fract() == 0.0).then(|| (1.0, num(f)))?
        }
        (MentionKind::Number, Some("number")) => (1.0, m.value.clone()),
        // A number is no name ("player 23" is no `player_name`).
        (MentionKind::Number, Some("string"))
            if has(n, &["name", "title"]) && !has(n, ID_WORDS) =>
        {
            return None;
        }
        // "the 2021 season", "in 1861": a year for a text parameter named
        // for years or seasons.
        (MentionKind::Number, Some("string")) if a_year_for_text(m, p) => {
            (0.9, s(&m.value.to_string()))
        }
        (MentionKind::Number, Some("string")) => {
            let sc = if has(n, ID_WORDS) { 0.6 } else { 0.25 };
            (sc, s(&m.value.to_string()))
        }
        (MentionKind::Number, None) => (0.6, m.value.clone()),
        (MentionKind::Percent, Some("integer" | "number") | None) if has(n, PERCENT_WORDS) => {
            let v = m.value.as_f64()?;
            if percent_as_fraction(p) {
                (0.8, num(v / 100.0))
            } else if ty == Some("integer") && v.fract() != 0.0 {
                // "12.5%" is no whole percent.
                return None;
            } else {
                (0.8, m.value.clone())
            }
        }
        (MentionKind::Duration, Some("integer" | "number") | None) => {
            let ms = m.value.as_f64()?;
            let all: BTreeSet<String> = p.name_words.union(&p.desc_words).cloned().collect();
            // Months and years are no fixed number of milliseconds: a
            // parameter in them is not filled by guessing a conversion.
            if has(
                &all,
                &["month", "months", "year", "years", "decade", "decades"],
            ) {
                return None;
            }
            let cap = &p.capability_words;
            let (per, sc) = match wanted_unit(p) {
                Some((per, _)) => (per, 1.0),
                // A time parameter that states no unit, of a capability
                // that does ("the delay, in milliseconds"); else the unit
                // is not guessed. A parameter that names no time ("a",
                // "distance") is no duration at all: "subtract 10 from 2
                // h" is no arithmetic on seconds.
                None if has(&all, DURATION_WORDS) => {
                    if has(cap, &["ms", "millisecond", "milliseconds"]) {
                        (1.0, 0.6)
                    } else if has(cap, &["minute", "minutes"]) {
                        (60_000.0, 0.6)
                    } else if has(cap, &["hour", "hours"]) {
                        (3_600_000.0, 0.6)
                    } else {
                        return None;
                    }
                }
                None => return None,
            };
            let v = ms / per;
            if ty == Some("integer") && v.fract() != 0.0 {
                return None;
            }
            (sc, num(v))
        }
        (MentionKind::Duration, Some("string")) => {
            // As text only where a time is meant: "2 hours" is no text to
            // lower-case.
            let all: BTreeSet<String> = p.name_words.union(&p.desc_words).cloned().collect();
            if !has(&all, DURATION_WORDS) && !has(&all, TIME_WORDS) {
                return None;
            }
            (0.3, s(&m.text))
        }
        // A quoted JSON object or array for a parameter of any type is
        // that value ("pretty-print the JSON '{\"a\":1}'"), not a text
        // to encode once more.
        (MentionKind::Quoted, None)
            if serde_json::from_str::<Json>(&text_value)
                .is_ok_and(|j| j.is_object() || j.is_array()) =>
        {
            (1.0, serde_json::from_str::<Json>(&text_value).ok()?)
        }
        (MentionKind::Quoted, Some("string") | None) => {
            let looks_path = text_value.contains('/') || text_value.contains('.');
            let short = text_value.chars().count() <= 3;
            let sc = if has(n, PATH_WORDS) && !looks_path {
                0.4
            } else if has(n, URL_WORDS) && !text_value.starts_with("http") {
                0.3
            } else if has(n, &["pattern", "regex", "regexp"]) && looks_like_regex(&text_value) {
                // Metacharacters say which quoted text is the expression.
                1.2
            } else if has(n, SEP_WORDS) || has(n, &["pattern", "regex", "format"]) {
                // A role parameter: a short quoted text fits a separator.
                if short { 1.0 } else { 0.5 }
            } else if has(n, DATA_WORDS) || has(n, USER_TEXT_WORDS) {
                1.1
            } else {
                1.0
            };
            (sc, s(&text_value))
        }
        (MentionKind::Quoted, Some("integer" | "number")) => {
            let v: f64 = text_value.trim().parse().ok()?;
            (0.5, num(v))
        }
        (MentionKind::Quoted, Some("object" | "array")) => {
            let j: Json = serde_json::from_str(&text_value).ok()?;
            let ok =
                (ty == Some("object") && j.is_object()) || (ty == Some("array") && j.is_array());
            ok.then_some((0.7, j))?
        }
        (MentionKind::Json, Some("object")) if m.value.is_object() => (1.0, m.value.clone()),
        (MentionKind::Json, Some("array")) if m.value.is_array() => (1.0, m.value.clone()),
        (MentionKind::Json, None) => (1.0, m.value.clone()),
        // A JSON literal is data, never a place: "the list is [3, 1, 2]"
        // names no folder "[3, 1, 2]".
        (MentionKind::Json, Some("string")) if has(n, PATH_WORDS) || has(n, URL_WORDS) => {
            return None;
        }
        (MentionKind::Json, Some("string")) => {
            let sc = if has(n, DATA_WORDS) { 0.8 } else { 0.4 };
            (sc, s(&m.text))
        }
        (MentionKind::Url, Some("string") | None) => {
            let fmt = p.schema.get("format").and_then(Json::as_str);
            let names_url = has(n, URL_WORDS) || matches!(fmt, Some("uri" | "url"));
            // The address is not the page: "count the words at URL" does
            // not count the words of the address.
            if !names_url && has(n, DATA_WORDS) {
                return None;
            }
            let sc = if names_url { 1.0 } else { 0.3 };
            (sc, s(&text_value))
        }
        (MentionKind::Email, Some("string") | None) => {
            // A copy goes only where the goal says copy: a second address
            // is no blind copy (attack trial).
            let copy_said = m
                .cue
                .before
                .iter()
                .any(|w| matches!(w.as_str(), "cc" | "bcc" | "copy" | "copying" | "cc'd"));
            if has(n, &["cc", "bcc"]) && !copy_said {
                return None;
            }
            // Nor is an address the text of a message ("… and
            // bob@example.com" once became the body).
            if has(
                n,
                &[
                    "body", "message", "content", "text", "subject", "msg", "note",
                ],
            ) && !wants_an_email_address(p)
            {
                return None;
            }
            let sc = if has(n, EMAIL_WORDS) || wants_an_email_address(p) {
                1.0
            } else {
                0.4
            };
            (sc, s(&text_value))
        }
        (MentionKind::Path, Some("string") | None) => {
            // A file name (its last segment has an extension) is not a
            // directory: "sort the lines of words.txt" does not list it.
            let names_dir = has(n, DIR_WORDS) || has(&p.desc_words, DIR_WORDS);
            let file_like = text_value
                .trim_end_matches('/')
                .rsplit('/')
                .next()
                .is_some_and(|last| last.rfind('.').is_some_and(|i| i > 0 && i + 1 < last.len()));
            if names_dir && file_like && !has(n, &["file"]) && !has(&p.desc_words, &["file"]) {
                return None;
            }
            if has(n, PATH_WORDS) {
                (1.0, s(&text_value))
            } else if has(n, DATA_WORDS) || has(n, USER_TEXT_WORDS) {
                return None;
            } else if has(n, &["name"]) {
                (0.5, s(&text_value))
            } else {
                // A file named where a value is wanted: the file's name is
                // not the value ("format person.json" is not the string
                // "person.json"); a text parameter may get its content.
                return None;
            }
        }
        (MentionKind::Path, Some("array")) if has(n, PATH_WORDS) => {
            (0.6, Json::Array(vec![s(&text_value)]))
        }
        (MentionKind::Repo, Some("string") | None) => {
            if has(n, REPO_WORDS) {
                (0.9, s(&text_value))
            } else if has(n, PATH_WORDS) {
                (0.5, s(&text_value))
            } else if adjacent_word_names(m, p) {
                // A slashed name the word beside it names otherwise: "the
                // feature/login branch" is a branch.
                (0.9, s(&text_value))
            } else if m
                .cue
                .after
                .first()
                .is_some_and(|w| matches!(w.as_str(), "branch" | "tag"))
                && has(n, &["target", "ref", "revision", "rev", "treeish"])
            {
                // "the diff with the feature/login branch": a branch is
                // a ref a comparison targets.
                (0.7, s(&text_value))
            } else {
                return None;
            }
        }
        // A date without its year ("on March 3", read as "--03-03") is
        // no date an API takes, and which year is meant is not said
        // (attack trial: it was sent as a `format: date`).
        (MentionKind::Date, _) if text_value.starts_with("--") => return None,
        // A date or a time is no place ("between 9am and 5pm" names no
        // cities).
        (MentionKind::Date | MentionKind::Time, Some("string") | None)
            if has(n, PLACE_WORDS)
                && !has(n, &["date", "day", "time", "datetime", "timestamp", "when"]) =>
        {
            return None;
        }
        // A date or a time goes where one is meant, or into free text;
        // never into the name of something else (attack trial: "concerts
        // in Boston on 2026-12-05" gave `artist: "2026-12-05"`).
        (MentionKind::Date | MentionKind::Time, Some("string") | None)
            if !has(n, DATE_WORDS)
                && !has(n, TIME_WORDS)
                && !has(n, FREE_TEXT_WORDS)
                && !has(
                    &p.desc_words,
                    &[
                        "date",
                        "day",
                        "time",
                        "datetime",
                        "timestamp",
                        "when",
                        "year",
                        "month",
                    ],
                )
                && !matches!(
                    p.schema.get("format").and_then(Json::as_str),
                    Some("date" | "date-time" | "time")
                ) =>
        {
            return None;
        }
        (MentionKind::Date, Some("string") | None) => {
            let fmt = p.schema.get("format").and_then(Json::as_str);
            let sc = if has(n, DATE_WORDS) || matches!(fmt, Some("date" | "date-time")) {
                1.0
            } else {
                0.3
            };
            // A day for a timestamp is the whole day: from its start ("since
            // January 12" includes that morning: `git log --since
            // 2024-01-12` alone means from the current time of day), to
            // its end for the end of a range.
            // "before March 5" ends before that day; "after March 5"
            // starts after it.
            let timestamp = has(n, &["timestamp", "datetime"]) || fmt == Some("date-time");
            // "on March 5th" is one day: one end of a range alone is not
            // it (attack trial: the day's end alone listed everything
            // before it).
            let end = has(n, RANGE_END_WORDS);
            if (end || has(n, RANGE_START_WORDS)) && m.cue.prep.as_deref() == Some("on") {
                return None;
            }
            if timestamp && text_value.len() == 10 {
                let time = match (end, m.cue.prep.as_deref()) {
                    (true, Some("before")) => "00:00:00",
                    (true, _) => "23:59:59",
                    (false, Some("after")) => "23:59:59",
                    (false, _) => "00:00:00",
                };
                return Some((sc, s(&format!("{text_value}T{time}"))));
            }
            (sc, s(&text_value))
        }
        (MentionKind::Time, Some("string") | None) => {
            let sc = if has(n, TIME_WORDS) { 1.0 } else { 0.3 };
            (sc, s(&text_value))
        }
        // "Bob or Dana" offers a choice: not both.
        (MentionKind::List, Some("array"))
            if m.text
                .split_whitespace()
                .any(|w| w.eq_ignore_ascii_case("or")) =>
        {
            return None;
        }
        // Files listed are files, no data: "the biggest number in
        // numbers.txt and mixed.txt" gave "numbers.txt" (attack trial).
        (MentionKind::List, Some("array"))
            if !m.items.is_empty()
                && m.items.iter().all(|it| it.kind == MentionKind::Path)
                && !has(n, PATH_WORDS)
                && !has(&p.desc_words, PATH_WORDS) =>
        {
            return None;
        }
        (MentionKind::List, Some("array")) => {
            let items_ty = p
                .schema
                .get("items")
                .and_then(|i| i.get("type"))
                .and_then(Json::as_str);
            let items: Vec<Json> = m
                .items
                .iter()
                .map(|it| match (items_ty, &it.value) {
                    (Some("string"), v) if !v.is_string() => s(&v.to_string()),
                    (_, v) => v.clone(),
                })
                .collect();
            let ok = match items_ty {
                Some("integer") => items.iter().all(|v| v.is_i64()),
                Some("number") => items.iter().all(Json::is_number),
                Some("object") => false,
                _ => true,
            };
            ok.then_some((1.0, Json::Array(items)))?
        }
        // Texts listed for one text parameter named in the plural
        // ("ingredients like chicken, onions and tomatoes"): one
        // comma-separated value, not one call each.
        (MentionKind::List, Some("string"))
            if plural_name(&p.name)
                && !m
                    .text
                    .split_whitespace()
                    .any(|w| w.eq_ignore_ascii_case("or"))
                && m.items
                    .iter()
                    .all(|it| matches!(it.kind, MentionKind::Quoted | MentionKind::Name)) =>
        {
            let texts: Vec<String> = m
                .items
                .iter()
                .map(|it| it.value.as_str().unwrap_or(&it.text).to_string())
                .collect();
            (1.0, s(&texts.join(", ")))
        }
        // "all markdown files" → `**/*.md` for a parameter taking a glob.
        // A glob that leaves the folder searched ("/etc/*.conf",
        // "../*.md", "~/*.md") says where to look, which a pattern
        // relative to the searched folder cannot: never bound.
        (MentionKind::FilePattern, Some("string") | None) => {
            let g = text_value.strip_prefix("./").unwrap_or(&text_value);
            let leaves = g.starts_with(['/', '~']) || g.split('/').any(|seg| seg == "..");
            ((has(n, &["pattern", "glob"]) || has(&p.desc_words, &["glob"])) && !leaves)
                .then(|| (1.0, s(g)))?
        }
        (MentionKind::Separator, Some("string") | None) => {
            has(n, SEP_WORDS).then(|| (1.0, m.value.clone()))?
        }
        // "the concerts in *December*": a month's name is what a month
        // parameter takes, and nothing else.
        (MentionKind::Name, Some("string") | None)
            if super::mentions::MONTHS.contains(&text_value.to_lowercase().as_str()) =>
        {
            has(n, &["month"]).then(|| (1.0, s(&text_value)))?
        }
        // ... and a month parameter takes nothing else by name (helper
        // trial: "the musical Hamilton in New York" had `{:month "New
        // York"}`).
        (MentionKind::Name, Some("string") | None)
            if has(n, &["month"])
                && super::mentions::month_of(&text_value.to_lowercase()).is_none() =>
        {
            return None;
        }
        // A place with its region ("Nashville, Tennessee", read from a
        // list of such places) goes only where a place goes (attack
        // trial: it became an artist).
        (MentionKind::Name, Some("string") | None)
            if text_value
                .rsplit_once(", ")
                .is_some_and(|(_, region)| super::regions::is_region(region))
                && !has(n, PLACE_WORDS)
                && !has(&p.desc_words, PLACE_WORDS) =>
        {
            return None;
        }
        (MentionKind::Name, Some("string") | None) => {
            // One of the description's own examples ("e.g., Italian,
            // Chinese") is that parameter's kind of value.
            // A choice in another case ("Fahrenheit" of ["celsius",
            // "fahrenheit"]) is that choice, as the schema spells it.
            if let Some(v) = enum_choice(p, &text_value) {
                return Some((1.0, v.clone()));
            }
            // ... and a value the description closes the choice to
            // ("Supported values: 'euclidean', 'binary'"), as it spells it.
            if let Some(v) = p.closed.iter().flatten().find(|v| {
                v.as_str()
                    .is_some_and(|v| v.eq_ignore_ascii_case(&text_value) && v != text_value)
            }) {
                return Some((1.0, v.clone()));
            }
            // A country or a state is what a country or a state parameter
            // takes ("the capital of *Brazil*"), and a country is no city.
            let country = super::regions::is_country(&text_value);
            let kind_fits = !wants_code(p)
                && ((country && has(n, &["country", "nation"]))
                    || (super::regions::is_subdivision(&text_value)
                        && has(n, &["state", "province"])));
            let sc = if is_example_of(p, &text_value) || kind_fits || closed_choice(p, &text_value)
            {
                1.0
            } else if country && text_value.len() > 3 && has(n, &["city", "town"]) {
                0.2
            } else if has(n, NAMEISH_WORDS) {
                0.7
            } else {
                0.35
            };
            (sc, s(&text_value))
        }
        // One name for a list of names ("forget everything about Dana":
        // `entityNames`); [`bind`] keeps it only when the name is the
        // whole object ([`whole_object`]).
        (MentionKind::Name, Some("array"))
            if has(n, &["name", "names"])
                && p.schema
                    .get("items")
                    .and_then(|i| i.get("type"))
                    .and_then(Json::as_str)
                    == Some("string") =>
        {
            // A capitalised word is what a list of names is for: enough
            // for a one-word name ("Dana").
            (0.8, Json::Array(vec![s(&text_value)]))
        }
        _ => return None,
    };
    Some(out)
}

/// Evidence from the words around the mention and its preposition that
/// point at `p`. The caller bounds it by
/// twice the type evidence, so that words alone never move a value into
/// a parameter of the wrong kind ("list the *branches* of /repo" puts the
/// path in `repo_path`, not in `branch_type`).
/// Whether `stem` opens one of `name_words` written as one word: "user"
/// for `username`, "file" for `filename`, "zip" is too short to say.
/// (A cue word must name a parameter however its name is joined.)
fn heads_a_compound(stem: &str, name_words: &BTreeSet<String>) -> bool {
    stem.chars().count() >= 4
        && name_words
            .iter()
            .any(|n| n.starts_with(stem) && n.chars().count() >= stem.chars().count() + 3)
}

fn cue_score(m: &Mention, p: &Param) -> f64 {
    // Nearer words weigh more: the word right before the mention (or its
    // preposition) 0.8, earlier ones 0.4; the first word after 0.5, the
    // next 0.3. Description words count a quarter of that. A number's
    // first word after is what it counts ("3 *bedrooms* and 2 bathrooms":
    // "bedrooms" is also the word before 2), so it weighs 0.9 there.
    let first_after = if m.kind == MentionKind::Number {
        0.9
    } else {
        0.5
    };
    let n = m.cue.before.len();
    // Words before a preposition of place, direction or company say what
    // its phrase qualifies, a thing other than the value ("a room *at*
    // the Hilton", "a flight *to* Paris"): a quarter as much of it. ("The
    // rate *of* 4%", "the color values *for* navy" label it.)
    let across = if m.cue.across_prep
        && matches!(
            m.cue.prep.as_deref(),
            Some(
                "at" | "in"
                    | "near"
                    | "on"
                    | "from"
                    | "to"
                    | "into"
                    | "onto"
                    | "inside"
                    | "within"
                    | "by"
                    | "with"
                    | "under"
                    | "over"
                    | "around"
                    | "through"
                    | "between"
            )
        ) {
        0.25
    } else {
        1.0
    };
    let weighted = m
        .cue
        .before
        .iter()
        .enumerate()
        .map(|(i, w)| (w, across * if i + 1 == n { 0.8 } else { 0.4 }))
        .chain(
            m.cue
                .after
                .iter()
                .enumerate()
                .map(|(i, w)| (w, if i == 0 { first_after } else { 0.3 })),
        );
    let (mut name_score, mut desc_score) = (0.0f64, 0.0f64);
    for (w, weight) in weighted {
        for stem in analyze(w) {
            if p.name_words.contains(&stem) {
                name_score += weight;
            } else if p.desc_words.contains(&stem) {
                desc_score += weight / 4.0;
            }
        }
    }
    // The word right before the value, no preposition between, opening
    // a parameter's joined name ("user 'Sam'" for `username`; never
    // "users *in* Sweden", nor "file info for Bob").
    if !m.cue.across_prep
        && let Some(last) = m.cue.before.last()
        && analyze(last)
            .iter()
            .any(|st| !p.name_words.contains(st) && heads_a_compound(st, &p.name_words))
    {
        name_score += 0.8;
    }
    // A street's name says it is one: "Wall *Street*" fills `street`
    // (not any parameter that may take one: "departures from Liverpool
    // Street station" are no `destination`).
    if m.kind == MentionKind::Name
        && super::mentions::names_a_street(&m.text)
        && names_a_street_param(p)
    {
        name_score += 0.8;
    }
    let mut s = name_score.min(1.6) + desc_score.min(0.5);
    let n = &p.name_words;
    // A label is a label: "labeled bug" never fills a body or a title.
    if m.cue.before.last().is_some_and(|w| {
        matches!(
            w.as_str(),
            "labeled" | "labelled" | "tagged" | "label" | "labels" | "tag" | "tags"
        )
    }) && !has(n, &["label", "tag"])
    {
        s -= 3.0;
    }
    // A file ("hello.py") is no repository or folder to work in: "the
    // diff of hello.py in /repo" once swapped the two paths.
    if m.kind == MentionKind::Path
        && has(n, &["repo", "repositori", "dir", "directori", "folder"])
        && std::path::Path::new(&m.text).extension().is_some_and(|e| {
            e.len() <= 5
                && e.to_str()
                    .is_some_and(|e| e.chars().all(char::is_alphanumeric))
        })
    {
        s -= 3.0;
    }
    // A name in words is no identifier: "book hotel Hilton" is no
    // `hotel_id` (attack trial), "Tom Hanks movies" no `movie_id`; an id
    // has a digit ("hotel H9", "HX-77").
    // Nor a plain word of a list ("recipes with eggs, flour and milk"
    // are no recipe ids); a quoted one may be.
    let plain_word = m.kind == MentionKind::Quoted && m.text.starts_with(char::is_alphanumeric);
    if (m.kind == MentionKind::Name || plain_word)
        && is_identifier(p)
        && !m.text.chars().any(|c| c.is_ascii_digit())
    {
        s -= 3.0;
    }
    // A number is an identifier only where the goal labels it so:
    // "hotel 4412", "ticket 42", "id 7" (attack trial: "movies … from
    // 1996" got `movie_id: "1996"`).
    if m.kind == MentionKind::Number
        && is_identifier(p)
        && !m.cue.before.last().is_some_and(|w| {
            analyze(w)
                .iter()
                .any(|st| n.contains(st) || matches!(st.as_str(), "id" | "number" | "no"))
        })
    {
        s -= 3.0;
    }
    // An amount of money is no count of people, things or days (attack
    // trial: "over $500" became 500 passengers).
    const COUNTED: &[&str] = &[
        "passeng", "guest", "peopl", "person", "adult", "child", "quantiti", "count", "day",
        "night", "year", "age", "room", "seat", "player", "ticket", "item",
    ];
    const MONEY: &[&str] = &[
        "price", "cost", "rate", "fee", "amount", "budget", "fare", "bill",
    ];
    if is_money(m)
        // ... by its name, or by its description when its name says
        // neither ("split: the number of people sharing the bill").
        && (has(n, COUNTED)
            || (!has(n, MONEY) && has(&p.desc_words, &["peopl", "person", "guest", "passeng"])))
        // "max_price_per_night" is money.
        && !has(n, MONEY)
    {
        s -= 3.0;
    }
    // Nor a percentage: "a $10 discount" is no `discount` in percent.
    if is_money(m)
        && (has(n, &["percent", "percentage", "pct"])
            || has(&p.desc_words, &["percent", "percentage", "pct"]))
    {
        s -= 3.0;
    }
    // A value labelled as another measure is not this one: "diameter 8"
    // is no radius.
    if matches!(m.kind, MentionKind::Number | MentionKind::List)
        && let Some(label) = m.cue.before.last()
        && MEASURES.contains(&label.as_str())
        && !has(n, &[label.as_str()])
        && MEASURES.iter().any(|w| has(n, &[w]))
    {
        s -= 3.0;
    }
    // "movies *with* Tom Hanks", "books *from* Stephen King": a name
    // after "with", "by", "from", "starring" is who or what goes with the
    // thing, never its own title.
    if m.kind == MentionKind::Name
        && has(n, &["title"])
        && (matches!(
            m.cue.prep.as_deref(),
            Some("with" | "by" | "from" | "featuring" | "starring" | "about")
        ) || matches!(
            m.cue.before.last().map(String::as_str),
            Some("featuring" | "starring")
        ))
    {
        s -= 3.0;
    }
    // "books *about* World War II": what it is about is never their kind
    // or their title.
    if m.kind == MentionKind::Name
        && m.cue.prep.as_deref() == Some("about")
        && (says_a_kind(p) || has(n, &["title"]))
    {
        s -= 3.0;
    }
    // "translate 'hi' *into* French": a name after "to"/"into" is where
    // something goes (`target_language`), never where it comes from
    // (`source_language`); after "from", the other way round.
    if m.kind == MentionKind::Name {
        const TARGET: &[&str] = &["target", "destination", "dest"];
        const SOURCE: &[&str] = &["source", "origin", "src"];
        let (toward, away) = match m.cue.prep.as_deref() {
            Some("to" | "into" | "onto") => (TARGET, SOURCE),
            Some("from") => (SOURCE, TARGET),
            _ => (&[][..], &[][..]),
        };
        if has(n, toward) && !has(n, away) {
            s += 0.6;
        } else if has(n, away) && !has(n, toward) {
            s -= 3.0;
        }
    }
    // A person's name is no point in time ("since Ada's commit").
    if m.kind == MentionKind::Name && has(n, &["timestamp", "date", "time", "since", "until"]) {
        s -= 3.0;
    }
    // A name of several words whose last one names the parameter says
    // what it is: "Premier *League*", "Louvre *Museum*", "Santa Clara
    // *County*".
    if m.kind == MentionKind::Name
        && m.text.split_whitespace().count() > 1
        && m.text
            .split_whitespace()
            .last()
            .is_some_and(|w| analyze(w).iter().any(|st| n.contains(st)))
    {
        s += 0.5;
    }
    // "150 Euros to …": the currency of the amount is the one converted
    // from; "… in USD" the one converted to.
    if m.kind == MentionKind::Currency {
        let source = has(n, &["from", "source", "base"]);
        let target = has(n, &["to", "target", "dest"]);
        if m.weak && source {
            s += 0.6;
        }
        if matches!(m.cue.prep.as_deref(), Some("in" | "into")) && target {
            s += 0.6;
        }
    }
    match m.cue.prep.as_deref() {
        Some("to" | "into" | "onto") => {
            if has(
                n,
                &[
                    "to",
                    "dest",
                    "destination",
                    "target",
                    "recipient",
                    "new",
                    "output",
                    "end",
                    "dropoff",
                    "checkout",
                    "return",
                ],
            ) {
                s += 0.6;
            }
            if has(n, &["from", "source", "src", "old"]) {
                s -= 0.4;
            }
        }
        Some("from") => {
            if has(
                n,
                &[
                    "from",
                    "source",
                    "src",
                    "old",
                    "origin",
                    "start",
                    "base",
                    "pickup",
                    "checkin",
                    "depart",
                    "departure",
                ],
            ) {
                s += 0.6;
            }
            if has(n, &["to", "dest", "destination", "target"]) {
                s -= 0.4;
            }
        }
        // "the population of Austin *in Texas*": a region after "in" is
        // a region parameter's, before any place's.
        // A parameter that wants a code ("Two-letter US state code") takes
        // only a code ("TX", not "Texas"); "a name or a code" either.
        Some("in")
            if m.kind == MentionKind::Name
                && super::regions::is_region(&m.text)
                && has(n, REGION_WORDS)
                && (!wants_code(p)
                    || has(&p.desc_words, &["name"])
                    || looks_like_code(&m.text)) =>
        {
            s += 0.8;
        }
        // "the forecast *for London*": a known place after "for" is where
        // (attack trial: every forecast for a city was refused).
        Some("for")
            if m.kind == MentionKind::Name
                && (super::zones::iana_zone(&m.text).is_some()
                    || super::regions::is_region(&m.text))
                && has(
                    n,
                    &[
                        "location", "city", "place", "where", "country", "region", "town",
                    ],
                ) =>
        {
            s += 0.5;
        }
        Some("in" | "at" | "near")
            if has(
                n,
                &[
                    "location", "city", "place", "timezone", "zone", "where", "country", "region",
                    "area", "in", "at",
                ],
            ) =>
        {
            s += 0.5;
        }
        // The text searched: "find '[0-9]+' in 'a1b22'".
        Some("in" | "within" | "inside") if has(n, DATA_WORDS) => s += 0.4,
        Some("about" | "for" | "on" | "regarding")
            if has(
                n,
                &[
                    "query", "q", "topic", "subject", "search", "keyword", "term", "about",
                ],
            ) =>
        {
            s += 0.4;
        }
        // A range's bounds: "since January 12" is where it starts,
        // "until March" where it ends.
        Some("since" | "after") => {
            if has(
                n,
                &[
                    "start", "from", "since", "after", "begin", "min", "earliest",
                ],
            ) {
                s += 0.6;
            }
            if has(n, &["end", "until", "before", "to", "max", "latest"]) {
                s -= 0.4;
            }
        }
        // "between A and B": A is where it starts.
        Some("between") => {
            if has(n, &["start", "from", "since", "after", "begin", "min"]) {
                s += 0.6;
            }
            if has(n, &["end", "until", "before", "to", "max"]) {
                s -= 0.4;
            }
        }
        Some("until" | "till" | "before") => {
            if has(
                n,
                &["end", "until", "before", "to", "max", "latest", "stop"],
            ) {
                s += 0.6;
            }
            if has(
                n,
                &[
                    "start", "from", "since", "after", "begin", "min", "earliest",
                ],
            ) {
                s -= 0.4;
            }
        }
        Some("named" | "called" | "as") if has(n, &["name", "title"]) => s += 0.6,
        // "the message titled 'hello'": a title, never the folder holding
        // it.
        Some("titled" | "entitled") => {
            if has(n, &["title", "name", "subject", "summary", "heading"]) {
                s += 0.6;
            } else {
                s -= 3.0;
            }
        }
        // "search for files named guide": the name sought is the pattern.
        Some("named" | "called") if has(n, &["pattern", "queri", "keyword", "term"]) => s += 0.6,
        Some("with") if has(n, &["with", "replacement", "new", "value"]) => s += 0.3,
        // "the commits by Ada": who made them, never a revision.
        Some("by") if m.kind == MentionKind::Name => {
            if has(
                n,
                &[
                    "by",
                    "author",
                    "user",
                    "creator",
                    "owner",
                    "customer",
                    "sender",
                    "assignee",
                    "login",
                    "committer",
                    "person",
                    "username",
                    "artist",
                    "director",
                    "composer",
                    "performer",
                    "writer",
                    "singer",
                    "band",
                    "musician",
                    "painter",
                    "sculptor",
                    "architect",
                    "designer",
                    "developer",
                    "publisher",
                    "maker",
                    "manufacturer",
                    "producer",
                    "poet",
                    "novelist",
                    "inventor",
                    "discoverer",
                    "scientist",
                    "brand",
                ],
            ) {
                s += 0.6;
            } else {
                s -= 3.0;
            }
        }
        Some("by") if has(n, &["by", "divisor", "factor"]) => s += 0.3,
        _ => {}
    }
    // A bound compared: "under $50", "less than 3 hours" is an upper
    // bound, "over $500", "more than 2 stars" a lower one (attack trial:
    // "over $500" was the maximum price).
    let before = m.cue.before.last().map(String::as_str);
    let bound = match m.cue.prep.as_deref() {
        Some("under" | "below" | "within") => Some(RangeSide::Upper),
        Some("over" | "above") => Some(RangeSide::Lower),
        Some("than") => match before {
            Some("less" | "fewer" | "cheaper" | "lower" | "smaller" | "shorter") => {
                Some(RangeSide::Upper)
            }
            Some("more" | "greater" | "higher" | "larger" | "longer" | "older") => {
                Some(RangeSide::Lower)
            }
            _ => None,
        },
        _ => None,
    };
    const UPPER: &[&str] = &["max", "maximum", "upper", "most", "ceil", "ceiling"];
    const LOWER: &[&str] = &["min", "minimum", "lower", "least", "floor"];
    match bound {
        Some(RangeSide::Upper) if has(n, UPPER) => s += 0.6,
        Some(RangeSide::Upper) if has(n, LOWER) => s -= 3.0,
        Some(RangeSide::Lower) if has(n, LOWER) => s += 0.6,
        Some(RangeSide::Lower) if has(n, UPPER) => s -= 3.0,
        _ => {}
    }
    s
}

/// Measures a number may be labelled with; one labelled with one of them
/// never goes into a parameter named for another ([`cue_score`]).
const MEASURES: &[&str] = &[
    "radius",
    "diameter",
    "width",
    "height",
    "length",
    "depth",
    "area",
    "volume",
    "perimeter",
    "circumference",
    "weight",
    "mass",
    "age",
    "speed",
    "velocity",
    "distance",
    "side",
    "base",
];

/// Which side of a range a compared value bounds ([`cue_score`]).
enum RangeSide {
    Upper,
    Lower,
}

/// Whether the parameter is a regular expression (by its name or its
/// description), not a glob or a plain search text.
/// The kind of text a goal asks to find, as a regular expression: "find
/// all the *numbers* in …", "extract the *email addresses* from …". Only
/// as the object of the verb, before "in"/"from"/"of" or the end.
pub(crate) fn named_pattern(clause: &str) -> Option<(&'static str, &'static str)> {
    const KINDS: &[(&[&str], &str, &str)] = &[
        // "1,000" groups thousands; "10,20,30" is three numbers.
        (
            &["numbers"],
            "numbers",
            r"(?:\d{1,3}(?:,\d{3})+\b|\d+)(?:\.\d+)?",
        ),
        (&["integers"], "integers", r"\d+"),
        (&["digits"], "digits", r"\d"),
        (
            &["emails", "email addresses"],
            "email addresses",
            r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+",
        ),
        (&["urls", "links"], "links", r"https?://\S+"),
        (&["hashtags"], "hashtags", r"#\w+"),
    ];
    let words: Vec<String> = clause
        .split(|c: char| c.is_whitespace())
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect();
    // A sign or a range ("-7", "555-1234", "10-20") makes "the numbers"
    // ambiguous: no pattern guessed.
    let chars: Vec<char> = clause.chars().collect();
    if chars
        .windows(2)
        .any(|w| w[0] == '-' && w[1].is_ascii_digit())
    {
        return None;
    }
    let verb = words.iter().position(|w| {
        matches!(
            w.as_str(),
            "find" | "extract" | "get" | "list" | "show" | "pull" | "match"
        )
    })?;
    let mut i = verb + 1;
    while words
        .get(i)
        .is_some_and(|w| matches!(w.as_str(), "all" | "the" | "every" | "any" | "of"))
    {
        i += 1;
    }
    for (names, kind, re) in KINDS {
        for name in *names {
            let n: Vec<&str> = name.split(' ').collect();
            let end = i + n.len();
            if words
                .get(i..end)
                .is_some_and(|ws| ws.iter().zip(&n).all(|(a, b)| a == b))
                && words
                    .get(end)
                    .is_none_or(|w| matches!(w.as_str(), "in" | "from" | "of" | "inside"))
            {
                return Some((kind, re));
            }
        }
    }
    None
}

pub(crate) fn takes_regex(p: &Param) -> bool {
    has(&p.name_words, &["regex", "regexp"])
        || has(&p.desc_words, &["regex", "regexp"])
        || (has(&p.desc_words, &["regular"]) && has(&p.desc_words, &["expression"]))
}

/// Whether the clause says a text is a regular expression.
fn says_regex(clause: &str) -> bool {
    let lower = clause.to_lowercase();
    ["regex", "regexp", "regular expression", "pattern"]
        .iter()
        .any(|w| lower.contains(w))
}

/// Whether `v` uses a character a regular expression treats specially.
fn has_regex_metacharacters(v: &str) -> bool {
    v.chars().any(|c| "\\.+*?()[]{}|^$".contains(c))
}

/// Whether a quoted text reads as a regular expression rather than plain
/// text: it uses a character class, a quantifier after something, an
/// anchor or an escape.
fn looks_like_regex(v: &str) -> bool {
    let quantified = v
        .char_indices()
        .any(|(i, c)| i > 0 && matches!(c, '+' | '*' | '?' | '{'));
    quantified
        || v.contains('[')
        || v.contains('\\')
        || v.starts_with('^')
        || v.ends_with('$')
        || v.contains('|')
}

/// One scored (mention, parameter) pair.
struct Pair {
    /// Index of the top-level mention; `item` when it is a list's item.
    mention: usize,
    item: Option<usize>,
    param: usize,
    score: f64,
    value: Json,
}

/// Whether the word right before or right after mention `m` is a word
/// of parameter `p`'s name.
fn cue_names(m: &Mention, p: &Param) -> bool {
    // The nearest word on either side: "labels" two words before "issue
    // 3" names the issue's labels, not 3.
    m.cue
        .before
        .last()
        .into_iter()
        .chain(m.cue.after.first())
        .flat_map(|w| analyze(w))
        .any(|st| p.name_words.contains(&st))
}

/// Whether the word right after `m`, or right before it with no
/// preposition between, names `p`: "the feature/login *branch*", "*branch*
/// feature/login"; not "the branch *after* feature/login".
fn adjacent_word_names(m: &Mention, p: &Param) -> bool {
    let before = m.cue.prep.is_none().then(|| m.cue.before.last()).flatten();
    m.cue
        .after
        .first()
        .into_iter()
        .chain(before)
        .flat_map(|w| analyze(w))
        .any(|st| p.name_words.contains(&st))
}

/// What a name's own noun naming a parameter adds to their pair
/// ([`own_noun_param`]): more than the word before it across a
/// preposition ("'Playstation' platform for the *'European' region*").
const OWN_NOUN_BONUS: f64 = 0.6;

/// What a value named in a coordination of parameters adds to its pair
/// ([`respective`]): more than any cue or type evidence.
const RESPECTIVE_BONUS: f64 = 3.0;

/// Values coordinated after as many coordinated parameter names ("the
/// *base and height* as *6cm and 10cm*", "*mass1, mass2* are 5 and 7"):
/// the i-th value goes to the i-th named parameter. Each name must be
/// one free parameter's name word, no two the same parameter; only
/// joiners (`and`, commas, `the`, `its`) may stand between the names, and
/// at most three words between the last name and the first value.
fn respective(
    clause: &str,
    mentions: &[Mention],
    params: &[Param],
    free: &[usize],
) -> Vec<(MentionRef, usize)> {
    // The coordinated values: a list's items, or a run of top-level
    // mentions joined by "and" or commas.
    let mut runs: Vec<(usize, Vec<MentionRef>)> = vec![];
    for (mi, men) in mentions.iter().enumerate() {
        if men.items.len() >= 2 {
            runs.push((
                men.span.start,
                (0..men.items.len()).map(|i| (mi, Some(i))).collect(),
            ));
        }
    }
    let mut i = 0;
    while i < mentions.len() {
        let mut j = i;
        while j + 1 < mentions.len()
            && mentions[j].items.is_empty()
            && mentions[j + 1].items.is_empty()
            && gap(clause, &mentions[j], &mentions[j + 1]).is_some()
        {
            j += 1;
        }
        if j > i {
            runs.push((mentions[i].span.start, (i..=j).map(|k| (k, None)).collect()));
        }
        i = j + 1;
    }
    let mut out = vec![];
    for (start, refs) in runs {
        let Some(before) = clause.get(..start) else {
            continue;
        };
        let words: Vec<String> = before
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .map(|w| {
                w.trim_matches(|c: char| !c.is_alphanumeric() && c != '_')
                    .to_lowercase()
            })
            .collect();
        // The parameter a word names, when exactly one free parameter.
        // A function word names none: "'Queens Hotel' *in* Berlin,
        // Germany" once read "in" as `check_in_date`'s.
        let param_of = |w: &str| {
            let stems: BTreeSet<String> = analyze(w).into_iter().collect();
            if stems.is_empty() || crate::resolution::catalog::STOP_WORDS.contains(&w) {
                return None;
            }
            let hits: Vec<usize> = free
                .iter()
                .copied()
                .filter(|pi| {
                    params[*pi].name.eq_ignore_ascii_case(w)
                        || (stems.len() == 1 && stems.is_subset(&params[*pi].name_words))
                })
                .collect();
            (hits.len() == 1).then(|| hits[0])
        };
        // Walk back over at most three words to the last name, then over
        // names and joiners.
        let mut k = words.len();
        let mut skipped = 0;
        while k > 0 && param_of(&words[k - 1]).is_none() && skipped < 3 {
            k -= 1;
            skipped += 1;
        }
        let mut named: Vec<usize> = vec![];
        while k > 0 {
            let w = words[k - 1].as_str();
            if let Some(pi) = param_of(w) {
                named.push(pi);
            } else if !matches!(w, "and" | "the" | "its" | "their" | "") {
                break;
            }
            k -= 1;
        }
        named.reverse();
        let distinct: BTreeSet<usize> = named.iter().copied().collect();
        if named.len() == refs.len() && distinct.len() == named.len() {
            out.extend(refs.into_iter().zip(named));
        }
    }
    out
}

/// The plural noun a whole number counts ("two *sides*", "5 *cities*",
/// "two given *numbers*"), stemmed: the word right after it in `clause`
/// (or the one after a lower-case word qualifying it), in the plural, when
/// the number has no unit.
fn counted_noun(clause: &str, m: &Mention) -> Option<String> {
    if m.kind != MentionKind::Number || m.unit.is_some() || m.value.as_u64().is_none() {
        return None;
    }
    let mut words = clause.get(m.span.end..)?.split_whitespace();
    let word = |w: Option<&str>| {
        w.map(|w| {
            w.trim_end_matches(|c: char| ",.;:?!)".contains(c))
                .to_lowercase()
        })
    };
    let plural = |w: &str| {
        matches!(w, "people" | "children" | "men" | "women")
            || (w.len() > 3
                && w.ends_with('s')
                && !w.ends_with("ss")
                && !w.ends_with("us")
                && w.chars().all(|c| c.is_ascii_alphabetic()))
    };
    let first = word(words.next())?;
    // One word may qualify the noun: "two *given* numbers".
    let noun = if plural(&first) {
        first
    } else {
        let second = word(words.next())?;
        let qualifies = first.chars().all(|c| c.is_ascii_lowercase())
            && !crate::resolution::catalog::STOP_WORDS.contains(&first.as_str());
        if !(qualifies && plural(&second)) {
            return None;
        }
        second
    };
    // "500000 dollars" is an amount of money, not a count of things.
    if matches!(
        noun.as_str(),
        "dollars" | "euros" | "pounds" | "cents" | "bucks" | "yen" | "rupees" | "francs" | "pesos"
    ) {
        return None;
    }
    analyze(&noun).into_iter().next()
}

/// Whether parameter `p` counts things of `noun` (stemmed): its name is
/// the noun in the plural, or its name or description says it is a number
/// of something ("the number of results per page").
fn counts_param(p: &Param, noun: &str) -> bool {
    const COUNTING: &[&str] = &[
        "number", "count", "num", "amount", "quantity", "total", "how", "many", "n",
    ];
    // "Two numbers" counts operands: `num1` ("the first number") takes
    // one of them, never how many there are; only a parameter that says
    // it counts does ("the number of values").
    if stemmed(&[
        "number", "numbers", "value", "values", "integer", "integers",
    ])
    .contains(noun)
    {
        let desc = lower_description(p);
        return has(&p.name_words, &["count", "quantity", "how", "many"])
            || desc.contains("number of")
            || desc.contains("how many");
    }
    // A parameter named for one of the things ("side1": "its three sides")
    // takes one of them; named for them all ("bedrooms", "adults") it
    // counts them.
    if p.name_words.contains(noun) && plural_name(&p.name) {
        return true;
    }
    if counts_other_things(p, noun) {
        return false;
    }
    if has(&p.name_words, COUNTING) {
        return true;
    }
    // The description counts what follows its counting word: "the
    // *number of* guests" counts guests; "the *quantity of* charge on
    // the first body" counts no bodies (attack trial: "two charged
    // bodies" was passed as a charge of 2).
    let desc = lower_description(p);
    let words: Vec<&str> = desc
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let mut counts_some = false;
    for (k, w) in words.iter().enumerate() {
        if !COUNTING.contains(w) {
            continue;
        }
        counts_some = true;
        let object = words[k + 1..]
            .iter()
            .find(|w| !matches!(**w, "of" | "the" | "a" | "an" | "many"));
        if object.is_some_and(|o| analyze(o).iter().any(|st| st == noun)) {
            return true;
        }
    }
    // A count of no stated thing ("the total", "how many"): any noun.
    counts_some
        && !words
            .windows(2)
            .any(|w| COUNTING.contains(&w[0]) && w[1] == "of")
}

/// Whether the word right after number `men` in `clause` is a word of
/// `p`'s name ("3 *bedroom* houses" for `min_bedrooms`).
fn word_after_names(clause: &str, men: &Mention, p: &Param) -> bool {
    clause
        .get(men.span.end..)
        .and_then(|rest| rest.split_whitespace().next())
        .is_some_and(|w| analyze(w).iter().any(|st| p.name_words.contains(st)))
}

/// Whether `p` counts things other than `noun` (stemmed): a count named
/// for another thing, which its description does not relate to `noun`
/// ("min_bedrooms", the minimum number of bedrooms, for "3 houses").
fn counts_other_things(p: &Param, noun: &str) -> bool {
    const NOT_THINGS: &[&str] = &[
        "min", "max", "minimum", "maximum", "per", "page", "result", "results", "item", "items",
        "limit", "top", "size", "of", "number", "count", "num", "amount", "quantity", "total", "n",
    ];
    let counts = plural_name(&p.name)
        || has(
            &p.name_words,
            &["number", "count", "num", "quantity", "min", "max"],
        )
        || has(&p.desc_words, &["number", "count", "quantity"]);
    let not_things = stemmed(NOT_THINGS);
    let other = p
        .name_words
        .iter()
        .any(|w| w != noun && !not_things.contains(w));
    counts && other && !p.name_words.contains(noun) && !p.desc_words.contains(noun)
}

/// "3 raised to the power 4", "raise 3 to the power of 5", "7 raised to
/// 3": the first number is the base, the second the exponent, when one
/// free parameter is named for each.
fn power_pair(
    clause: &str,
    mentions: &[Mention],
    params: &[Param],
    free: &[usize],
) -> Vec<(MentionRef, usize)> {
    let named = |words: &[&str]| {
        let hits: Vec<usize> = free
            .iter()
            .copied()
            .filter(|pi| has(&params[*pi].name_words, words))
            .collect();
        (hits.len() == 1).then(|| hits[0])
    };
    let (Some(base), Some(exponent)) = (named(&["base"]), named(&["exponent", "power", "exp"]))
    else {
        return vec![];
    };
    if base == exponent {
        return vec![];
    }
    let number =
        |m: &Mention| m.kind == MentionKind::Number && m.items.is_empty() && m.unit.is_none();
    for (mi, pair) in mentions.windows(2).enumerate() {
        if !number(&pair[0]) || !number(&pair[1]) {
            continue;
        }
        let Some(between) = clause.get(pair[0].span.end..pair[1].span.start) else {
            continue;
        };
        let words: Vec<String> = between.split_whitespace().map(str::to_lowercase).collect();
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let power = matches!(
            words.as_slice(),
            ["raised", "to"]
                | ["raised", "to", "the", "power"]
                | ["raised", "to", "the", "power", "of"]
                | ["to", "the", "power"]
                | ["to", "the", "power", "of"]
        );
        if power {
            return vec![((mi, None), base), ((mi + 1, None), exponent)];
        }
    }
    vec![]
}

/// Words of a parameter for the first end of a pair ("between A and B").
const FIRST_END_WORDS: &[&str] = &[
    "origin",
    "start",
    "from",
    "source",
    "departure",
    "begin",
    "first",
];
/// Words of a parameter for the second end.
const SECOND_END_WORDS: &[&str] = &[
    "destination",
    "end",
    "to",
    "target",
    "arrival",
    "finish",
    "second",
];

/// "between A and B" ("the distance between Boston and Denver", "the
/// time difference between Paris and Tokyo"): A to the pair's first
/// parameter, B to its second, when the capability has exactly one such
/// pair among its free parameters: names alike but for a final 1 and 2
/// (`place1`, `place2`), or a start and an end (`origin`, `destination`).
/// Two names coordinated after "between" in the goal's order too. Never
/// for a capability that changes something, and a start and an end only
/// for a capability that calls its relation one "between" two things.
fn between_pair(
    clause: &str,
    mentions: &[Mention],
    params: &[Param],
    free: &[usize],
    m: &CapabilityManifest,
) -> Vec<(MentionRef, usize)> {
    // "transfer 500 between accounts A and B": which way is not said.
    if changes_things(m) {
        return vec![];
    }
    // A start and an end are in the goal's order only for a relation the
    // capability itself calls one "between" two things (a distance, a
    // time difference): "convert between USD and EUR" says no direction.
    let symmetric = format!("{} {}", m.name, m.description)
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| w == "between");
    // Where the goal first says "between" (a word's offset in `clause`).
    let between_at = clause
        .split(|c: char| !c.is_alphanumeric())
        .find(|w| w.eq_ignore_ascii_case("between"))
        .map(|w| w.as_ptr() as usize - clause.as_ptr() as usize);
    let mut ends: Option<(MentionRef, MentionRef)> = None;
    for (mi, men) in mentions.iter().enumerate() {
        // "between A and B"; or two names coordinated after "between"
        // ("the distance between two cities, New York and Los Angeles").
        let between = men.cue.prep.as_deref() == Some("between");
        let said_between = between_at.is_some_and(|at| at < men.span.start);
        let names =
            |xs: &[&Mention]| said_between && xs.iter().all(|x| x.kind == MentionKind::Name);
        if men.items.len() == 2 {
            if (between || names(&[&men.items[0], &men.items[1]]))
                && gap(clause, &men.items[0], &men.items[1]) == Some(Gap::Conjunction)
            {
                ends = Some(((mi, Some(0)), (mi, Some(1))));
                break;
            }
        } else if men.items.is_empty()
            && let Some(next) = mentions.get(mi + 1)
            && next.items.is_empty()
            && (between || names(&[men, next]))
            && gap(clause, men, next) == Some(Gap::Conjunction)
        {
            ends = Some(((mi, None), (mi + 1, None)));
            break;
        }
    }
    let Some((a, b)) = ends else {
        return vec![];
    };
    let numbered = |p: &Param, digit: char| {
        p.name
            .strip_suffix(digit)
            .map(|stem| stem.trim_end_matches('_').to_lowercase())
    };
    // A text end takes names and quoted texts: "between 2 and 5",
    // "between 9am and 5pm" are no places.
    let kind_fits = |m: &Mention, p: &Param| {
        !matches!(p.ty.as_deref(), Some("string") | None)
            || matches!(m.kind, MentionKind::Name | MentionKind::Quoted)
    };
    let (ma, mb) = (mention_at(mentions, a), mention_at(mentions, b));
    let mut found: Vec<(usize, usize)> = vec![];
    for &p in free {
        for &q in free {
            if p == q {
                continue;
            }
            let (pp, qq) = (&params[p], &params[q]);
            let alike = numbered(pp, '1').is_some_and(|s| Some(s) == numbered(qq, '2'));
            let ends = symmetric
                && has(&pp.name_words, FIRST_END_WORDS)
                && has(&qq.name_words, SECOND_END_WORDS)
                && !has(&pp.name_words, SECOND_END_WORDS)
                && !has(&qq.name_words, FIRST_END_WORDS);
            if (alike || ends)
                && ma.kind == mb.kind
                && kind_fits(ma, pp)
                && kind_fits(mb, qq)
                && compat(ma, pp).is_some()
                && compat(mb, qq).is_some()
            {
                found.push((p, q));
            }
        }
    }
    match found.as_slice() {
        [(p, q)] => vec![(a, *p), (b, *q)],
        _ => vec![],
    }
}

/// Whether `m` has a required parameter that is the user's own words (a
/// message, a prompt, a query), which a clause's payload may fill.
pub fn takes_user_text(m: &CapabilityManifest) -> bool {
    let (params, _) = params_of(m);
    params.iter().any(|p| {
        p.required
            && has(&p.name_words, USER_TEXT_WORDS)
            && !has(&p.name_words, DATA_WORDS)
            && matches!(p.ty.as_deref(), Some("string") | None)
            // A choice among listed values is no text of the user's.
            && p.schema.get("enum").is_none()
    })
}

/// Whether `m` changes something: it writes, or its name says it
/// creates, updates or deletes.
pub fn changes_things(m: &CapabilityManifest) -> bool {
    m.effects.contains(&ccos_marketplace::Effect::Write)
        || crate::understand::lexicon::data_operations(m)
            .iter()
            .any(|o| matches!(*o, "create" | "update" | "delete"))
}

/// The clause's *payload*: its words after a leading verb phrase (or after
/// a colon), without the mentions bound elsewhere; `None` when nothing
/// meaningful is left.
pub fn payload(clause: &str, keep: &[&Mention]) -> Option<String> {
    let (body, after_colon) = match clause.split_once(':') {
        Some((_, after)) if !after.trim().is_empty() && !clause.contains("://") => (after, true),
        _ => (clause, false),
    };
    let mut cut = body.to_string();
    // Remove bound mentions' text.
    for m in keep {
        cut = cut.replacen(&m.text, " ", 1);
    }
    let words: Vec<&str> = cut.split_whitespace().collect();
    const LEAD: &[&str] = &[
        "please", "echo", "say", "print", "repeat", "tell", "send", "post", "write", "show",
        "display", "search", "find", "look", "up", "for", "me", "us", "about", "ask", "query",
        "the", "a", "an", "message", "prompt", "can", "could", "you", "would", "to",
    ];
    let start = if after_colon {
        0
    } else {
        words
            .iter()
            .position(|w| {
                !LEAD.contains(
                    &w.trim_matches(|c: char| !c.is_alphanumeric())
                        .to_lowercase()
                        .as_str(),
                )
            })
            .unwrap_or(words.len())
    };
    let rest: Vec<&str> = words[start..].to_vec();
    let text = rest.join(" ");
    let text = text.trim_matches(|c: char| c.is_whitespace() || ".?!,;".contains(c));
    if refers_to_nothing_said(text) {
        return None;
    }
    (!text.is_empty() && text.chars().any(char::is_alphanumeric)).then(|| text.to_string())
}

/// Whether `p` takes one item's position in a list (`position`, `nth`):
/// a whole number, where an ordinal goes.
fn takes_a_position(p: &Param) -> bool {
    matches!(p.ty.as_deref(), Some("integer"))
        && has(&p.name_words, &["position", "nth"])
        && !has(&p.name_words, PAGING_WORDS)
}

/// Whether `text` reads as an address: a scheme ("https://…"), or a host
/// with a dot and no space ("example.com/a").
fn looks_like_an_address(text: &str) -> bool {
    text.contains("://")
        || (!text.contains(char::is_whitespace)
            && text.split('/').next().is_some_and(|host| {
                host.contains('.') && !host.starts_with('.') && !host.ends_with('.')
            }))
}

/// Whether `text` reads as a language code: "en", "FR", "pt-BR", "zh_Hant"
/// (two letters: "SQL", "CSS" are no languages).
fn looks_like_language_code(text: &str) -> bool {
    let mut parts = text.split(['-', '_']);
    let head = parts.next().unwrap_or("");
    head.len() == 2
        && head.chars().all(|c| c.is_ascii_alphabetic())
        && parts.all(|t| (2..=4).contains(&t.len()) && t.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// The text a mention states: its string value, else its words.
fn text_of(m: &Mention) -> &str {
    m.value.as_str().unwrap_or(&m.text)
}

/// Whether `p` takes one place in an order, not a count: a position, a
/// rank, a page ("the top 3 players" are three players, never the one
/// ranked 3rd: attack trial on an imported API).
fn takes_one_place(p: &Param) -> bool {
    matches!(p.ty.as_deref(), Some("integer") | Some("number"))
        && (has(
            &p.name_words,
            &["position", "nth", "rank", "place", "index", "standing"],
        ) || (has(&p.name_words, &["page"])
            // "per_page", "page_size": how many, a count.
            && !has(&p.name_words, PER_PAGE_WORDS)))
}

/// What the ordinals of a clause say of a position.
#[derive(Debug, PartialEq)]
enum Ordinal {
    /// No ordinal says a position.
    Absent,
    /// One position ("the *4th* number", "the *last* person").
    One(i64),
    /// Ordinals whose position is not read here: two of them ("the 3rd
    /// and the 5th"), one counted from something ("last *but one*", "the
    /// third *from the end*", "one *before* the last"), or one of an order
    /// ("the 2nd *smallest*"). No position may be bound then.
    Unclear,
}

/// The one position the ordinals of `clause` say ("the *4th* number",
/// "the *last* person", "the second to last"). Not a count ("the first *3*
/// lines"), a time ("the last *5 days*", "*last* modified") or the order
/// of requests ("*first*, read notes.txt").
fn ordinal_position(clause: &str) -> Ordinal {
    let words: Vec<String> = clause
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    const RELATIVE: &[&str] = &["but", "before", "after", "from", "counting", "since"];
    const ORDERED: &[&str] = &[
        "smallest", "largest", "biggest", "highest", "lowest", "longest", "shortest", "oldest",
        "youngest", "newest", "best", "worst", "most", "least", "greatest", "fewest", "cheapest",
        "closest", "nearest", "earliest", "latest", "place", "rank", "ranked", "page",
    ];
    let mut found: BTreeSet<i64> = BTreeSet::new();
    let mut unclear = false;
    let mut skip_to = 0;
    for (i, w) in words.iter().enumerate() {
        if i < skip_to {
            continue;
        }
        let Some(n) = super::lexicon::ordinal_position(w) else {
            continue;
        };
        let next = words.get(i + 1).map(String::as_str).unwrap_or("");
        // "the second *one*": a pronoun, not a count.
        let counted = !matches!(next, "one" | "ones")
            && (next.parse::<f64>().is_ok()
                || super::mentions::number_words_at(&[Some(next.to_string())], 0).is_some());
        let timed = matches!(
            next,
            "modified"
                | "changed"
                | "updated"
                | "edited"
                | "written"
                | "touched"
                | "time"
                | "week"
                | "month"
                | "year"
                | "day"
                | "night"
                | "hour"
                | "minute"
        );
        // "*First*, read it": the order of requests.
        if (i == 0 && w == "first") || counted || timed {
            continue;
        }
        // "second to last": two from the end.
        if n == 2 && next == "to" && words.get(i + 2).is_some_and(|w| w == "last") {
            skip_to = i + 3;
            found.insert(-2);
            continue;
        }
        let near = |k: usize| words.get(k).map(String::as_str).unwrap_or("");
        let before = i.checked_sub(1).map(near).unwrap_or("");
        let before2 = i.checked_sub(2).map(near).unwrap_or("");
        let after = [near(i + 1), near(i + 2), near(i + 3)];
        if RELATIVE.contains(&before)
            || RELATIVE.contains(&before2)
            || after
                .iter()
                .any(|a| RELATIVE.contains(a) || ORDERED.contains(a))
        {
            unclear = true;
        }
        found.insert(n);
    }
    match found.len() {
        0 => Ordinal::Absent,
        1 if !unclear => found
            .into_iter()
            .next()
            .map_or(Ordinal::Absent, Ordinal::One),
        _ => Ordinal::Unclear,
    }
}

/// Verbs whose first object is the addressee ("send *Bob* a message").
const SENDING_VERBS: &[&str] = &[
    "send", "tell", "email", "e-mail", "mail", "message", "text", "ping", "remind", "notify", "dm",
    "write", "ask",
];

/// Whether `p` takes the user's own words to pass on or record (a
/// message, a note, a prompt), not what a search or a listing is about.
fn takes_words_to_pass_on(p: &Param) -> bool {
    has(&p.name_words, USER_TEXT_WORDS)
        && !has(&p.name_words, QUERY_WORDS)
        && !has(&p.name_words, TOPIC_WORDS)
}

/// Whether `p` takes a message: the user's words to pass on, not what
/// the user is asked.
fn takes_a_message(p: &Param) -> bool {
    takes_words_to_pass_on(p) && !has(&p.name_words, ASKING_WORDS)
}

/// Names of a parameter holding what the user is asked.
const ASKING_WORDS: &[&str] = &["prompt", "question", "instruction"];

/// Whether the payload `text` of `clause`, unquoted and with no colon
/// before it, is a noun phrase led by a determiner ("echo *the current
/// time*", "say *my name*"): it names a thing whose value the goal wants,
/// not the words to pass on. A sentence ("say *the build is green*") has
/// a verb and is words.
fn names_a_thing(clause: &str, text: &str) -> bool {
    if clause.contains(':') || clause.contains(['"', '\'', '\u{201c}']) {
        return false;
    }
    let Some((_, before)) = words_before(clause, text) else {
        return false;
    };
    let before = before.last().map(|(_, w)| w.as_str()).unwrap_or("");
    let first = text
        .split_whitespace()
        .next()
        .map(str::to_lowercase)
        .unwrap_or_default();
    const DETERMINERS: &[&str] = &["the", "this", "that", "these", "those"];
    const POSSESSIVES: &[&str] = &["my", "your", "our", "their", "his", "her", "its"];
    let led = DETERMINERS.contains(&before) || POSSESSIVES.contains(&first.as_str());
    led && !is_sentence(text)
}

/// Words with their byte spans, lower-case ([`super::lexicon::word_spans`]).
type WordSpans = Vec<(std::ops::Range<usize>, String)>;

/// Where the payload `text` (the clause's own words) starts in `clause`,
/// and the words before it; `None` when `text` is not in `clause` as
/// written.
fn words_before(clause: &str, text: &str) -> Option<(usize, WordSpans)> {
    let at = clause.find(text)?;
    Some((at, super::lexicon::word_spans(&clause[..at])))
}

/// Whether `text` has a finite verb after its first word ("the build *is*
/// green", "the tests *passed*"): a sentence, not a noun phrase.
fn is_sentence(text: &str) -> bool {
    const VERBS: &[&str] = &[
        "is", "are", "was", "were", "am", "be", "been", "has", "have", "had", "will", "would",
        "can", "could", "should", "must", "do", "does", "did", "may", "might",
    ];
    text.split_whitespace().skip(1).any(|w| {
        let w = w
            .trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
            .to_lowercase();
        VERBS.contains(&w.as_str())
            || w.ends_with("ed")
            || w.ends_with("'s")
            || w.ends_with("'re")
            || w.ends_with("n't")
    })
}

/// The message `text` with the article the payload cut before it: a
/// sentence keeps the one right before it ("say *the* build is green"),
/// any message an indefinite one and the small words and punctuation
/// between them ("echo *a* b c", "echo *a,* b and c", "echo *a to* z"):
/// no thing is named by them, and the message is every word of it.
fn with_cut_article(clause: &str, text: String) -> String {
    if clause.contains(':') {
        return text;
    }
    let Some((at, before)) = words_before(clause, &text) else {
        return text;
    };
    let sentence = is_sentence(&text);
    let mut from = None;
    for (span, w) in before.iter().rev() {
        match w.as_str() {
            "a" | "an" => from = Some(span.start),
            "the" if sentence => from = Some(span.start),
            "to" | "of" | "for" | "in" | "on" | "at" | "and" | "or" if !sentence => continue,
            _ => {}
        }
        break;
    }
    match from.and_then(|s0| clause.get(s0..at)) {
        Some(lead) => format!("{lead}{text}"),
        None => text,
    }
}

/// A message without the words introducing it ("a message *saying*
/// hello", "a note *that says* hi"): what is sent is what follows them
/// (attack trial: "saying hello" was sent). Only right after a word
/// naming a message: "echo *reading* is fun" is all words.
fn without_saying(clause: &str, text: &str) -> String {
    const MESSAGES: &[&str] = &[
        "message", "note", "text", "email", "e-mail", "mail", "reminder", "sms", "dm", "card",
        "memo", "letter", "reply",
    ];
    // "a message *saying*", "a message to Bob *saying*".
    let after_a_message = words_before(clause, text).is_some_and(|(_, before)| {
        before
            .iter()
            .rev()
            .take(3)
            .any(|(_, w)| MESSAGES.contains(&w.as_str()))
    });
    if !after_a_message {
        return text.to_string();
    }
    const LEADS: &[&str] = &[
        "saying ",
        "that says ",
        "which says ",
        "that reads ",
        "which reads ",
        "reading ",
        "telling them ",
        "telling him ",
        "telling her ",
    ];
    let lower = text.to_lowercase();
    for lead in LEADS {
        if lower.starts_with(lead)
            && let Some(rest) = text.get(lead.len()..).map(str::trim)
            && !rest.is_empty()
        {
            return rest.to_string();
        }
    }
    text.to_string()
}

/// Whether `text` is only pronouns ("it", "that", "me"): it refers to
/// something the goal does not say ("what do you remember about it?"), so
/// it is no text to send.
fn refers_to_nothing_said(text: &str) -> bool {
    const PRONOUNS: &[&str] = &[
        "it",
        "that",
        "this",
        "these",
        "those",
        "them",
        "him",
        "her",
        "me",
        "us",
        "you",
        "there",
        "something",
        "anything",
        "everything",
        "stuff",
        "things",
        "one",
        "mine",
        "yours",
    ];
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .all(|w| PRONOUNS.contains(&w.to_lowercase().as_str()))
}

/// Names of a parameter that holds search terms.
const QUERY_WORDS: &[&str] = &[
    "query", "q", "search", "keyword", "keywords", "term", "terms",
];

/// Words of a parameter that takes what a search or a listing is about.
const TOPIC_WORDS: &[&str] = &["topic", "subject"];

/// A search's terms without the request's verb before them or the
/// capability's own noun after them: "Find physics *courses*" for
/// `findCourses` is about physics, "*Read* inflation news" about
/// inflation (attack trial: `{:subject "physics courses at"}`).
fn topic_terms(terms: &str, m: &CapabilityManifest) -> String {
    let own = super::lexicon::name_words(m);
    let mut words: Vec<&str> = terms.split_whitespace().collect();
    while words.len() > 1 && super::lexicon::is_action_verb(words[0]) {
        words.remove(0);
    }
    while words.len() > 1
        && words.last().is_some_and(|w| {
            let stems = analyze(w);
            !stems.is_empty() && stems.iter().all(|st| own.contains(st))
        })
    {
        words.pop();
    }
    words.join(" ")
}

/// `clause` without each bound value's label ("cats, *limit 2*", "with a
/// *limit of 2*", "(*limit 2*)"): the words naming the parameter a value
/// went to are not the user's text for another one.
fn without_labels(
    clause: &str,
    mentions: &[Mention],
    params: &[Param],
    bound_from: &BTreeMap<usize, MentionRef>,
) -> String {
    let mut cuts: Vec<(usize, usize)> = vec![];
    for (&pi, &r) in bound_from {
        let men = mention_at(mentions, r);
        let Some(before) = clause.get(..men.span.start) else {
            continue;
        };
        // The nearest word that is not a joiner, within three words.
        let mut at = before.len();
        for w in before.split_whitespace().rev().take(3) {
            let start = before[..at].rfind(w).unwrap_or(0);
            at = start;
            let bare = w
                .trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase();
            if matches!(
                bare.as_str(),
                "of" | "a" | "the" | "to" | "with" | "is" | ""
            ) {
                continue;
            }
            if analyze(&bare)
                .iter()
                .any(|st| params[pi].name_words.contains(st))
            {
                cuts.push((start, men.span.end));
            }
            break;
        }
    }
    let mut out = clause.to_string();
    cuts.sort();
    for (start, end) in cuts.into_iter().rev() {
        if end <= out.len() && start <= end {
            out.replace_range(start..end, " ");
        }
    }
    // Brackets and a "with a" left empty or unbalanced.
    let mut out = out.replace("( )", " ").replace("()", " ");
    if out.matches(')').count() > out.matches('(').count() {
        out = out.replace(')', " ");
    }
    let out = out.trim_end();
    let out = out
        .strip_suffix("with a")
        .or_else(|| out.strip_suffix("with"))
        .unwrap_or(out);
    out.trim_end_matches(|c: char| c == ',' || c.is_whitespace())
        .to_string()
}

/// The search terms of a payload: the words after its first `for`,
/// `about`, `matching`, `mentioning` or `containing` when words come
/// before it (the place searched: "my knowledge graph for tea" is "tea");
/// otherwise the whole payload.
fn search_terms(payload: &str) -> String {
    terms_after(
        payload,
        &["for", "about", "matching", "mentioning", "containing"],
    )
}

/// The words of `payload` after its first word of `cuts` when words
/// come before it, without prepositions left with no object (see
/// [`search_terms`]).
fn terms_after(payload: &str, cuts: &[&str]) -> String {
    let words: Vec<&str> = payload.split_whitespace().collect();
    let cut = words
        .iter()
        .enumerate()
        .skip(1)
        .find(|(i, w)| *i + 1 < words.len() && cuts.contains(&w.to_lowercase().as_str()));
    let kept: Vec<&str> = match cut {
        Some((i, _)) => words[i + 1..].to_vec(),
        None => words,
    };
    // A preposition whose object was a value bound elsewhere ("headphones
    // *by* Sony *under* $200": Sony the brand, $200 the price) is no term.
    let is_prep = |w: &str| super::lexicon::PREPOSITIONS.contains(&w.to_lowercase().as_str());
    let mut out: Vec<&str> = vec![];
    for (i, w) in kept.iter().enumerate() {
        let next = kept.get(i + 1).copied();
        if is_prep(w) && next.is_none_or(is_prep) {
            continue;
        }
        out.push(w);
    }
    if out.is_empty() {
        return payload.to_string();
    }
    out.join(" ")
}

/// Binds the clause's `mentions` to the parameters of `m` (see the module
/// documentation). `prefilled` parameters (named parameters of the
/// sub-intent) are left alone; `clause` is the text the mentions come
/// from; `has_input`: an earlier result feeds this step (then the goal's
/// words are not used as a free-text parameter: the earlier result is
/// the data).
pub fn bind(
    clause: &str,
    mentions: &[Mention],
    m: &CapabilityManifest,
    prefilled: &BTreeSet<String>,
    has_input: bool,
) -> Binding {
    let (params, _positional) = params_of(m);
    let free: Vec<usize> = (0..params.len())
        .filter(|i| !prefilled.contains(&params[*i].name))
        .collect();
    let mut pairs: Vec<Pair> = vec![];
    let changes = m.effects.contains(&ccos_marketplace::Effect::Write);
    let named_by_goal = {
        let own = super::lexicon::name_words(m);
        analyze(clause).iter().any(|w| own.contains(w))
    };
    let takes_query = free
        .iter()
        .any(|&pi| has(&params[pi].name_words, QUERY_WORDS));
    let qualifies_topic: BTreeSet<usize> = mentions
        .iter()
        .enumerate()
        .filter(|(_, men)| {
            takes_query
                && men.kind == MentionKind::Name
                && matches!(men.cue.prep.as_deref(), Some("in" | "of" | "on"))
                && payload(clause, &[men]).is_some_and(|t| {
                    search_terms(&t)
                        .split_whitespace()
                        .any(|w| w.chars().all(char::is_alphabetic) && w.len() > 2)
                })
        })
        .map(|(mi, _)| mi)
        .collect();
    // "sort the words 'pear apple fig'", "the last word of 'a b c'": a
    // quoted text whose words are wanted, for a capability taking a list,
    // fills no parameter itself; its words fill the list (below).
    // Not to compare them: words are compared as texts, so "the biggest
    // word" would be the last alphabetically.
    let compares = compares_words(clause);
    let takes_a_list = free.iter().any(|&pi| takes_a_file_as_list(&params[pi])) && !compares;
    let words_texts: BTreeSet<usize> = mentions
        .iter()
        .enumerate()
        .filter(|(_, men)| {
            takes_a_list
                && men.kind == MentionKind::Quoted
                && men
                    .cue
                    .before
                    .iter()
                    .rev()
                    .take(3)
                    .any(|w| matches!(w.as_str(), "words" | "word"))
        })
        .map(|(mi, _)| mi)
        .collect();
    for (mi, men) in mentions.iter().enumerate() {
        if words_texts.contains(&mi) {
            continue;
        }
        // "*Borrow* book 42", "*Return* the book": the capitalised word
        // opening the goal is its verb, no value.
        if opening_verb(clause, men, m) {
            continue;
        }
        let own_param = own_noun_param(clause, mentions, men, &params);
        // "find *Stephen King* books": a name right before the noun of
        // what the capability serves says which of them (whose, what
        // kind), never their own title; it goes only to a parameter whose
        // choices or examples name it (the later pass places a weak one in
        // the one kind parameter), else it is a dropped value.
        // (After a preposition the name is that phrase's: "a recipe *for*
        // Chicken Noodle Soup", "filed *in* the New York District court".)
        let noun = men
            .cue
            .prep
            .is_none()
            .then(|| qualified_noun(clause, men, &params, m))
            .flatten();
        let qualifier = noun
            .as_deref()
            .filter(|noun| several_words(men) && names_what_it_serves(noun, m))
            .map(|_| men.value.as_str().unwrap_or(&men.text).to_string());
        // Nor is a single word there ("Spielberg movies") their title.
        let qualifies_title = noun.is_some();
        let nationality =
            men.kind == MentionKind::Name && super::nationalities::is_nationality(&men.text);
        let kind_for_nationality = nationality
            && free
                .iter()
                .any(|&pi| takes_a_nationality(&params[pi], &men.text));
        let object = verbs_object(men);
        let names_thing = names_the_thing(men, m);
        for &pi in &free {
            let p = &params[pi];
            if let Some(text) = &qualifier
                && !names_a_choice(p, text)
            {
                continue;
            }
            // ... nor what they are about ("*French* podcasts" is no
            // topic).
            if qualifies_title
                && (has(&p.name_words, &["title", "topic", "subject"])
                    || has(&p.name_words, QUERY_WORDS))
                && !names_a_choice(p, &men.text)
            {
                continue;
            }
            // "shows *on Netflix*", "products *from IKEA*", "shows *with
            // Bryan Cranston*": a name a preposition places says where,
            // whose or with what the thing is, not its title, its own name
            // or its kind, unless a word beside it or its own noun names
            // the parameter, or the parameter lists it (attack trial:
            // `{:title "Netflix"}`, `{:name "IKEA"}`, `{:genre "Bryan
            // Cranston"}`).
            if men.kind == MentionKind::Name
                && placed_not_named(men, p, &params, &free)
                && own_param != Some(pi)
                && !adjacent_word_names(men, p)
                && !cue_names(men, p)
                && !names_a_choice(p, &men.text)
                && !closed_choice(p, &men.text)
            {
                continue;
            }
            // "the musical *Hamilton*": a work's title is never a kind
            // (helper trial: `searchFestivals {:genre "Hamilton"}`).
            if titled_work(men) && says_a_kind(p) && !names_a_choice(p, &men.text) {
                continue;
            }
            // "due *after* 2024-06-01" is no `due_before`, "created
            // *before* May" no `created_after` (attack trial).
            if against_its_direction(men, p) {
                continue;
            }
            // "golf scores at The Masters *in 1997*": a year is when, no
            // round, count or amount (attack trial: `{:round 1997}`).
            if said_as_a_year(men) && !names_a_time_or_year(p) && !cue_names(men, p) {
                continue;
            }
            // "an *Italian* restaurant": a nationality says which kind,
            // so it goes where a kind of that sort goes when the
            // capability has such a parameter (`cuisine`); elsewhere it is
            // in doubt ([`doubt_about`]).
            if nationality && !takes_a_nationality(p, &men.text) && kind_for_nationality {
                continue;
            }
            // "find *Samsung TVs*": the verb's whole object is what is
            // sought, never where ("find doctors in Samsung TVs").
            if object && has(&p.name_words, PLACE_WORDS) {
                continue;
            }
            // "the book *"Dune"*": a text right after the noun of what
            // the capability serves names that thing, never its kind.
            // ... nor, a title, who made it (`author`: unguarded, it took
            // "Dune").
            if names_thing
                && (says_a_kind(p)
                    || (takes_a_person(p) && (men.kind == MentionKind::Quoted || titled_work(men))))
                && !names_a_choice(p, men.value.as_str().unwrap_or(&men.text))
            {
                continue;
            }
            if let Some((base, value)) = compat(men, p) {
                // A list of names takes a name only when it is all the
                // goal is about.
                // ... for a capability that changes something, or one the
                // goal does not name ("forget the meeting between Alice
                // and Bob" is no list to remove duplicates from); "the
                // stock price of Apple and Microsoft" names its capability.
                let names = men.kind == MentionKind::Name
                    || (men.kind == MentionKind::List
                        && men.items.iter().all(|it| it.kind == MentionKind::Name));
                if names
                    && p.ty.as_deref() == Some("array")
                    && (changes || !named_by_goal)
                    && !whole_object(clause, men)
                {
                    continue;
                }
                // A path the goal places something *relative to* ("the
                // directory above /srv/app", "the files in /srv/build",
                // "/srv/build's subfolders") is not what a capability that
                // changes something acts on.
                if changes
                    && matches!(men.kind, MentionKind::Path | MentionKind::Repo)
                    && (relative_to(men, is_folder_param(m, p)) || unclear_path(clause, men))
                {
                    continue;
                }
                // "the other two sides", "two cities": a count of things
                // is none of them, and only a parameter counting them
                // takes it.
                if let Some(noun) = counted_noun(clause, men)
                    && (p.ty.as_deref() == Some("string")
                        || (men.weak && !counts_param(p, &noun))
                        // "find 3 houses" is no minimum of bedrooms ("3
                        // *bedroom* houses" is).
                        || (counts_other_things(p, &noun) && !word_after_names(clause, men, p))
                        // "find 3 houses" is no price cap of 3.
                        || (has(
                            &p.name_words,
                            &["price", "cost", "budget", "salary", "fee", "rent"],
                        ) && !p.name_words.contains(&noun)))
                {
                    continue;
                }
                // "books about cats *in French*", "the history *of Rome*":
                // a name placed after the topic qualifies it; it is not the
                // whole query.
                // Nor any other parameter's ("the Tower *of London*" is no
                // colour).
                if qualifies_topic.contains(&mi) {
                    continue;
                }
                // "John Doe at john.doe@example.com": whose address it is,
                // no value (attack trial: the name became the subject).
                if men.kind == MentionKind::Name && names_an_addressee(clause, men, mentions) {
                    continue;
                }
                // A number goes into a text parameter that is no id only
                // when a word beside it names the parameter ("zip 90210"):
                // "issue 3" is not a label because `labels` is described
                // as the issues' labels.
                // ("the 2021 season": a year goes to a season or a year.)
                if men.kind == MentionKind::Number
                    && p.ty.as_deref() == Some("string")
                    && !has(&p.name_words, ID_WORDS)
                    && !cue_names(men, p)
                    && !a_year_for_text(men, p)
                {
                    continue;
                }
                let own = if own_param == Some(pi) {
                    OWN_NOUN_BONUS
                } else {
                    0.0
                };
                let score = street_last(men, p, base + cue_score(men, p).min(base * 2.0)) + own;
                pairs.push(Pair {
                    mention: mi,
                    item: None,
                    param: pi,
                    score,
                    value,
                });
            }
            // "Paris or London" offers a choice the goal does not make:
            // no item alone is what it asks.
            if men
                .text
                .split_whitespace()
                .any(|w| w.eq_ignore_ascii_case("or"))
            {
                continue;
            }
            for (ii, it) in men.items.iter().enumerate() {
                // One item of a list into a list parameter of a capability
                // that changes something: only the whole list is the
                // object ("delete Bob or Dana" deletes neither alone).
                if changes && p.ty.as_deref() == Some("array") {
                    continue;
                }
                if let Some((base, value)) = compat(it, p) {
                    pairs.push(Pair {
                        mention: mi,
                        item: Some(ii),
                        param: pi,
                        // A list's items rank after the list itself.
                        score: street_last(it, p, base + cue_score(it, p).min(base * 2.0)) - 0.05,
                        value,
                    });
                }
            }
        }
    }
    // "its base and height as 6cm and 10cm": each value to the parameter
    // named in the same place, before any other evidence.
    // "the distance between Boston and Denver": the two ends, in order.
    let placed_in_order = respective(clause, mentions, &params, &free)
        .into_iter()
        .chain(between_pair(clause, mentions, &params, &free, m))
        .chain(power_pair(clause, mentions, &params, &free));
    for (r, pi) in placed_in_order {
        for pr in pairs.iter_mut() {
            if (pr.mention, pr.item) == r && pr.param == pi {
                pr.score += RESPECTIVE_BONUS;
            }
        }
    }
    // Enum words: a clause word equal to an allowed value, outside the
    // values the goal states ("high" in a title "disk usage is high" is
    // no priority; "Imperial Beach" is no unit system).
    let mut unquoted = clause.to_string();
    for men in mentions {
        unquoted = unquoted.replacen(&men.text, " ", 1);
    }
    // In order (for what stands before a choice), and as a set.
    let unquoted_words: Vec<String> = unquoted
        .split(|c: char| !c.is_alphanumeric() && c != '-' && c != '_')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let clause_words: BTreeSet<String> = unquoted_words.iter().cloned().collect();
    // An order's choices ("comments" of a `sort`) only when the goal asks
    // for an order: "the issues with comments" asks for no sorting.
    let asks_order = clause_words.iter().any(|w| {
        matches!(
            w.as_str(),
            "sort" | "sorted" | "order" | "ordered" | "ascending" | "descending"
        )
    });
    let mut enum_fill: Vec<(usize, Json)> = vec![];
    let mut enum_many: Vec<(usize, Vec<Json>)> = vec![];
    let mut unused_choices: Vec<String> = vec![];
    // Lists of choices ("avoiding highways and toll roads" for `avoid:
    // [tolls, highways, ferries]`): every choice the goal names.
    // The clause's words with each stated value as one placeholder word:
    // "to *Los Angeles* avoiding" keeps "to" away from "avoiding".
    let placed_words: Vec<String> =
        super::mentions::values_replaced(clause, mentions, " \u{1d54d} ")
            .split(|c: char| !c.is_alphanumeric() && c != '-' && c != '_' && c != '\u{1d54d}')
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
    for (pi, named, doubtful) in listed_choices(&placed_words, &params, &free) {
        let p = &params[pi];
        let words: Vec<&str> = named.iter().filter_map(Json::as_str).collect();
        if !doubtful.is_empty() || named.is_empty() {
            let doubtful_words = doubtful
                .iter()
                .filter_map(Json::as_str)
                .collect::<Vec<_>>()
                .join(", ");
            unused_choices.push(format!(
                "words {} (choices of :{}: whether the goal asks for them there is not clear)",
                words
                    .iter()
                    .copied()
                    .chain(std::iter::once(doubtful_words.as_str()))
                    .filter(|w| !w.is_empty())
                    .collect::<Vec<_>>()
                    .join(", "),
                p.name,
            ));
            continue;
        }
        // A capability that changes something takes no choice read from
        // words (attack trial: "the admin user 'bob' … to read" granted
        // `["admin", "read"]`).
        if changes_things(m) {
            unused_choices.push(format!(
                "words {} (choices of :{}, among words {} does not know)",
                words.join(", "),
                p.name,
                m.id
            ));
        } else {
            enum_fill.push((pi, Json::Array(named)));
        }
    }
    for &pi in &free {
        let p = &params[pi];
        if choices_of_list(p).is_some() {
            continue;
        }
        if !asks_order
            && has(
                &p.name_words,
                &["sort", "order", "orderby", "sortby", "direction"],
            )
        {
            // A word naming one of its choices is then a qualifier no
            // parameter takes ("the issues with comments"): dropped, so
            // the capability does not serve the goal.
            if let Some(word) = p
                .schema
                .get("enum")
                .and_then(Json::as_array)
                .into_iter()
                .flatten()
                .filter_map(Json::as_str)
                .find(|v| clause_words.contains(&v.to_lowercase()))
            {
                unused_choices.push(format!(
                    "word {word} (a choice of :{}, but the goal asks for no order)",
                    p.name
                ));
            }
            continue;
        }
        let listed = p
            .schema
            .get("enum")
            .and_then(Json::as_array)
            .cloned()
            .or_else(|| described_values(p));
        if let Some(e) = listed.as_ref() {
            let hits: Vec<&Json> = e
                .iter()
                .filter(|v| {
                    v.as_str().is_some_and(|s| {
                        let s = s.to_lowercase();
                        // "houses" names the choice "house".
                        clause_words.contains(&s)
                            || clause_words.contains(&format!("{s}s"))
                            || clause_words.contains(&format!("{s}es"))
                            || says_phrase(&unquoted_words, &s)
                    })
                })
                .collect();
            match hits.as_slice() {
                // A required choice the goal does not restrict ("list the
                // branches": local, remote or all) is all of them, when
                // "all" is a choice; otherwise it stays open.
                // Only for a capability that changes nothing: "revoke
                // my token" or "delete it" is never all of them.
                [] if p.required && !m.effects.contains(&ccos_marketplace::Effect::Write) => {
                    if let Some(all) = e.iter().find(|v| v.as_str() == Some("all")) {
                        enum_fill.push((pi, all.clone()));
                    }
                }
                [] => {}
                // A choice the goal compares with ("a priority below
                // high"), or names among words a capability that changes
                // something does not know ("revoke the tokens, personal
                // ones untouched"), may mean anything but that choice:
                // the word is then a value no parameter takes.
                [one]
                    if (changes && !says_only_what_it_does(&unquoted, m))
                        || compared(&unquoted_words, one.as_str().unwrap_or_default())
                        || also_names_another(&clause_words, one, e) =>
                {
                    unused_choices.push(format!(
                        "word {} (a choice of :{}, among words {} does not know)",
                        one.as_str().unwrap_or_default(),
                        p.name,
                        m.id
                    ));
                }
                [one] => enum_fill.push((pi, (*one).clone())),
                // Several allowed values named ("copper and aluminum"):
                // one call each, in the goal's order.
                many => {
                    if let Some(vs) = coordinated_words(clause, many) {
                        enum_many.push((pi, vs));
                    } else {
                        // Several choices named apart ("all my
                        // sessions"): which one is not said.
                        unused_choices.push(format!(
                            "words {} (choices of :{}: which one is not said)",
                            many.iter()
                                .filter_map(|v| v.as_str())
                                .collect::<Vec<_>>()
                                .join(", "),
                            p.name
                        ));
                    }
                }
            }
        }
    }
    // One word fills one parameter: "since yesterday" is where a range
    // starts, not also where it ends; with no such cue the word says
    // neither (refused, never both).
    let order = ccos_marketplace::ids::words(clause);
    let mut by_value: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (pi, v) in &enum_fill {
        if let Some(s) = v.as_str() {
            by_value.entry(s.to_lowercase()).or_default().push(*pi);
        }
    }
    for (value, pis) in by_value.into_iter().filter(|(_, pis)| pis.len() > 1) {
        let prev = order
            .iter()
            .position(|w| *w == value)
            .and_then(|i| i.checked_sub(1))
            .map(|i| order[i].as_str());
        let wanted: &[&str] = match prev {
            Some("since" | "after" | "from") => RANGE_START_WORDS,
            Some("until" | "till" | "before" | "to") => RANGE_END_WORDS,
            _ => &[],
        };
        let keep: Vec<usize> = pis
            .iter()
            .copied()
            .filter(|pi| !wanted.is_empty() && has(&params[*pi].name_words, wanted))
            .collect();
        enum_fill.retain(|(pi, v)| {
            v.as_str().map(str::to_lowercase) != Some(value.clone())
                || (keep.len() == 1 && keep.contains(pi))
        });
        if keep.len() != 1 {
            unused_choices.push(format!(
                "word {value} (which of :{}? the goal does not say)",
                pis.iter()
                    .map(|pi| params[*pi].name.as_str())
                    .collect::<Vec<_>>()
                    .join(", :")
            ));
        }
    }
    pairs.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(a.mention.cmp(&b.mention))
            .then(a.item.cmp(&b.item))
            .then(a.param.cmp(&b.param))
    });
    let mut taken_param: BTreeSet<usize> = BTreeSet::new();
    let mut whole: BTreeSet<usize> = BTreeSet::new();
    let mut items_used: BTreeSet<(usize, usize)> = BTreeSet::new();
    let mut b = Binding {
        unused: unused_choices,
        ..Binding::default()
    };
    let mut bound: Vec<(usize, Bound)> = vec![];
    // The mention (or list item) each parameter was bound from.
    let mut bound_from: std::collections::BTreeMap<usize, MentionRef> =
        std::collections::BTreeMap::new();
    // "the most recent commit": one entry of a log listing newest first.
    if let Some(name) = newest_first_count(m, &params).map(|p| p.name.clone())
        && let Some(pi) = free
            .iter()
            .copied()
            .find(|pi| params[*pi].name == name && !taken_param.contains(pi))
        && let Some((n, mi)) = recency_count(clause, mentions)
    {
        if let Some(mi) = mi {
            whole.insert(mi);
        }
        taken_param.insert(pi);
        b.notes
            .push(format!("the newest {n} -> :{name} (it lists newest first)"));
        bound.push((
            pi,
            Bound {
                param: name,
                value: Json::from(n),
                source: format!("recency {n}"),
                score: 1.5,
            },
        ));
    }
    // "the 4th number", "the second person", "the last line": one
    // item's position, for a parameter that takes one.
    // Only of a list the goal gives (a stated list or file, or an earlier
    // step's result): "the 10th Fibonacci number" names no list to pick
    // from.
    // (A quoted text whose words are wanted gives them: "the last word
    // of 'a b c'".)
    let gives_a_list = has_input
        || !words_texts.is_empty()
        || mentions.iter().any(|x| {
            matches!(x.kind, MentionKind::Path | MentionKind::List)
                || (x.kind == MentionKind::Json && x.value.is_array())
        });
    let position_param = free
        .iter()
        .copied()
        .find(|&pi| !taken_param.contains(&pi) && takes_a_position(&params[pi]));
    let ordinal = position_param.map_or(Ordinal::Absent, |_| ordinal_position(clause));
    if let (Some(pi), Ordinal::Unclear) = (position_param, &ordinal) {
        // No other value says the position then ("last but *one*"), nor
        // the user: the goal says positions, which one call does not
        // take ("the 2nd number plus the 5th" asked for one position and
        // answered with one number: attack trial).
        taken_param.insert(pi);
        b.unused.push(format!(
            "the ordinals (they say no one position for :{})",
            params[pi].name
        ));
    }
    if gives_a_list
        && let Some(pi) = position_param
        && let Ordinal::One(position) = ordinal
    {
        taken_param.insert(pi);
        b.notes.push(format!(
            "the ordinal's position {position} -> :{}",
            params[pi].name
        ));
        bound.push((
            pi,
            Bound {
                param: params[pi].name.clone(),
                value: Json::from(position),
                source: format!("position {position}"),
                score: 1.5,
            },
        ));
    }
    // "replace 'Monday' with 'Tuesday'": one edit, old text and new, for
    // a list of edits whose items take exactly those two texts.
    if let Some((pi, (old_key, new_key))) = free
        .iter()
        .find_map(|&pi| replacement_list(&params[pi]).map(|keys| (pi, keys)))
        && let Some((oi, ni)) = replacement_pair(clause, mentions)
    {
        whole.insert(oi);
        whole.insert(ni);
        taken_param.insert(pi);
        let value = serde_json::json!([{
            old_key.clone(): mentions[oi].value.clone(),
            new_key.clone(): mentions[ni].value.clone(),
        }]);
        b.notes.push(format!(
            "{} -> {} as one edit of :{} ({old_key} -> {new_key})",
            mentions[oi].label(),
            mentions[ni].label(),
            params[pi].name
        ));
        bound.push((
            pi,
            Bound {
                param: params[pi].name.clone(),
                value,
                source: format!("{} and {}", mentions[oi].label(), mentions[ni].label()),
                score: 1.5,
            },
        ));
    }
    // `owner/name` fills an owner parameter and a repository parameter
    // together when the capability takes both.
    let string_param = |words: &[&str]| {
        free.iter().copied().find(|pi| {
            has(&params[*pi].name_words, words)
                && matches!(params[*pi].ty.as_deref(), Some("string") | None)
        })
    };
    if let (Some(po), Some(pr)) = (string_param(OWNER_WORDS), string_param(REPO_WORDS))
        && po != pr
        && let Some((mi, men)) = mentions
            .iter()
            .enumerate()
            .find(|(_, m)| m.kind == MentionKind::Repo)
        && let Some((owner, name)) = men.value.as_str().and_then(|v| v.split_once('/'))
    {
        whole.insert(mi);
        taken_param.insert(po);
        taken_param.insert(pr);
        for (pi, v) in [(po, owner), (pr, name)] {
            bound.push((
                pi,
                Bound {
                    param: params[pi].name.clone(),
                    value: Json::from(v),
                    source: men.label(),
                    score: 1.5,
                },
            ));
        }
    }
    for pr in &pairs {
        let it = mention_at(mentions, (pr.mention, pr.item));
        let min = if it.weak { WEAK_MIN } else { BIND_MIN };
        if pr.score < min || taken_param.contains(&pr.param) || whole.contains(&pr.mention) {
            continue;
        }
        // What the value says contradicts the parameter ("a room … in
        // *New York*" as `roomType`, "*Texas*" as `city`, "for
        // *Saturday*" as `show`: [`doubt_about`]): a value the plan does
        // not use, so the goal is refused. Not removed from the
        // candidates beforehand: that would only move it to another
        // parameter. A doubt: refused by this capability alone, the next
        // one would take it elsewhere (attack trial: "Find parking in
        // Texas" went to a parks search).
        let p = &params[pr.param];
        if let Some(why) = doubt_about(it, &pr.value, p) {
            whole.insert(pr.mention);
            let why = format!("{} ({why})", it.label());
            b.doubts.push(why.clone());
            b.unused.push(why);
            continue;
        }
        match pr.item {
            None => {
                if items_used.iter().any(|(m, _)| *m == pr.mention) {
                    continue;
                }
                whole.insert(pr.mention);
            }
            Some(i) => {
                if items_used.contains(&(pr.mention, i)) {
                    continue;
                }
                items_used.insert((pr.mention, i));
            }
        }
        taken_param.insert(pr.param);
        bound_from.insert(pr.param, (pr.mention, pr.item));
        bound.push((
            pr.param,
            Bound {
                param: params[pr.param].name.clone(),
                value: pr.value.clone(),
                source: it.label(),
                score: pr.score,
            },
        ));
    }
    for (pi, v) in enum_fill {
        if !taken_param.contains(&pi) {
            taken_param.insert(pi);
            bound.push((
                pi,
                Bound {
                    param: params[pi].name.clone(),
                    value: v.clone(),
                    source: match v.as_array() {
                        Some(vs) => format!(
                            "words {}",
                            vs.iter()
                                .filter_map(Json::as_str)
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                        None => format!("word {}", v.as_str().unwrap_or_default()),
                    },
                    score: 1.0,
                },
            ));
        }
    }
    // Coordinated values for one parameter: one call each; not when the
    // goal wants them together ("the *total* words in 'a b' and 'c'") or
    // offers a choice ("*either*"), nor for a capability declared to write
    // ("write 'hi' and 'bye' to x.txt" is not two overwrites; a call of
    // unknown effects is approved one by one like any write).
    // "respectively" pairs two lists value by value; any other word of
    // togetherness asks for no call per value.
    // The clause's words, lower-case, its values' words included (read
    // once for the checks below).
    let all_words = super::lexicon::words_of(clause);
    // The clause's own words, without its stated values ("/etc/x.json",
    // "numbers.txt" are no words of the request).
    let own_words = super::lexicon::words_of(&super::residual(clause, mentions));
    // The key a field names ("sort people.json by *age*").
    let key = mentions
        .iter()
        .find(|x| x.kind == MentionKind::Field)
        .and_then(|x| x.value.as_str());
    let respectively = all_words.iter().any(|w| w == "respectively");
    let fan_allowed = !m.effects.contains(&ccos_marketplace::Effect::Write)
        && !all_words
            .iter()
            .any(|w| w != "respectively" && TOGETHER_WORDS.contains(&w.as_str()));
    let mut fanned: BTreeSet<MentionRef> = BTreeSet::new();
    let mut chains = if fan_allowed {
        fan_out(
            clause,
            mentions,
            &params,
            &bound_from,
            &whole,
            &items_used,
            respectively,
        )
    } else {
        vec![]
    };
    // In the goal's order: the list said first is outermost.
    chains.sort_by_key(|(_, refs)| refs.first().map(|r| mention_at(mentions, *r).span.start));
    // Each chain's values, as its parameter takes them.
    let mut lists: Vec<(usize, Vec<Json>)> = vec![];
    for (pi, refs) in &chains {
        let Some((_, first)) = bound.iter().find(|(p, _)| p == pi) else {
            continue;
        };
        let src = bound_from.get(pi).copied();
        let mut values = vec![];
        for r in refs {
            if Some(*r) == src {
                values.push(first.value.clone());
            } else if let Some((_, v)) = compat(mention_at(mentions, *r), &params[*pi]) {
                values.push(v);
            }
        }
        lists.push((*pi, values));
    }
    // One list: a call per value. Two: "respectively" pairs them in
    // order (equal lengths), else every combination, the first list's
    // values outermost ("the Lakers and the Bulls in 2018 and 2020" is
    // four calls). "Respectively" with one list pairs it with nothing
    // the goal lists: no call per value.
    let calls: Option<Vec<(usize, Vec<Json>)>> = match lists.as_slice() {
        [(pi, vs)] if !respectively => Some(vec![(*pi, vs.clone())]),
        [(pa, va), (pb, vb)] if respectively => {
            (va.len() == vb.len()).then(|| vec![(*pa, va.clone()), (*pb, vb.clone())])
        }
        [(pa, va), (pb, vb)] if va.len() * vb.len() <= MAX_FAN_OUT => {
            let a: Vec<Json> = va
                .iter()
                .flat_map(|x| std::iter::repeat_n(x.clone(), vb.len()))
                .collect();
            let b: Vec<Json> = va.iter().flat_map(|_| vb.iter().cloned()).collect();
            Some(vec![(*pa, a), (*pb, b)])
        }
        _ => None,
    };
    if let Some(calls) = calls {
        for (_, refs) in &chains {
            fanned.extend(refs.iter().copied());
        }
        let n = calls[0].1.len();
        let names: Vec<String> = calls
            .iter()
            .map(|(pi, _)| format!(":{}", params[*pi].name))
            .collect();
        b.notes.push(format!(
            "{n} calls -> {} (one call each{})",
            names.join(" and "),
            match calls.len() {
                1 => "",
                _ if respectively => ", paired in order",
                _ => ", every combination",
            }
        ));
        let mut calls = calls.into_iter();
        if let Some((pi, vs)) = calls.next() {
            b.fan_out = Some((params[pi].name.clone(), vs));
        }
        b.fan_with = calls
            .map(|(pi, vs)| (params[pi].name.clone(), vs))
            .collect();
    }
    // Several allowed values of one enum parameter: one call each, unless
    // something else already fans out (which to pair with which would be
    // a guess: the values are reported unused).
    for (pi, vs) in enum_many {
        if taken_param.contains(&pi) || vs.len() > MAX_FAN_OUT || !fan_allowed {
            continue;
        }
        let label = |vs: &[Json]| {
            vs.iter()
                .map(|v| format!("word {}", v.as_str().unwrap_or_default()))
                .collect::<Vec<_>>()
        };
        if b.fan_out.is_some() {
            b.unused.extend(label(&vs));
            continue;
        }
        taken_param.insert(pi);
        b.notes.push(format!(
            "{} -> :{} (one call each)",
            label(&vs).join(", "),
            params[pi].name
        ));
        bound.push((
            pi,
            Bound {
                param: params[pi].name.clone(),
                value: vs[0].clone(),
                source: label(&vs[..1]).join(""),
                score: 1.0,
            },
        ));
        b.fan_out = Some((params[pi].name.clone(), vs));
    }
    // Unused stated values; a file path left over may be read into a data
    // parameter when the capability takes no path.
    let takes_path = params.iter().any(|p| has(&p.name_words, PATH_WORDS));
    let says = |word: &str| all_words.iter().any(|w| w == word);
    let says_lines = says("lines");
    // "the biggest number in numbers.txt", "sort the numbers in x.txt".
    let says_numbers = says("numbers") || says("number");
    // "the unique words in notes.txt" (not the name of words.txt).
    let says_words = own_words.iter().any(|w| w == "words" || w == "word") && !compares;
    // Records and rows are a list's ("how many records are in x.json");
    // a single object has entries and items too (its keys).
    let says_records = ["records", "record", "rows", "row"]
        .iter()
        .any(|noun| says(noun));
    for (mi, men) in mentions.iter().enumerate() {
        if whole.contains(&mi) {
            continue;
        }
        let left: Vec<&Mention> = if men.items.is_empty() {
            if fanned.contains(&(mi, None)) {
                continue;
            }
            vec![men]
        } else {
            men.items
                .iter()
                .enumerate()
                .filter(|(i, _)| {
                    !items_used.contains(&(mi, *i)) && !fanned.contains(&(mi, Some(*i)))
                })
                .map(|(_, it)| it)
                .collect()
        };
        for it in left {
            // "movies … *from IMDB*" for `imdb.find_movies_by_actor`: a
            // name of the capability itself is no value.
            if it.kind == MentionKind::Name && names_the_capability(it, m) {
                b.notes
                    .push(format!("{} names {} itself", it.label(), m.id));
                continue;
            }
            if it.kind == MentionKind::Name && names_an_addressee(clause, it, mentions) {
                b.notes
                    .push(format!("{} says whose e-mail address follows", it.label()));
                continue;
            }
            // "the weather in Seattle, Washington": the region qualifies
            // the place, whose parameter takes both.
            // "the sales tax in Chicago, Illinois": a parameter for the
            // region (a state, a country) takes it when there is one.
            let place = qualified_place(clause, mentions, &params, &bound_from, it);
            let region_param = free
                .iter()
                .copied()
                .find(|pi| !taken_param.contains(pi) && has(&params[*pi].name_words, REGION_WORDS));
            // A country is no state ("Paris, France" for a city and a US
            // state), nor a state a country ("Austin, Texas" for a city
            // and a country): neither joined nor placed.
            if place.is_some()
                && let Some(rp) = region_param
            {
                let wants_country = has(&params[rp].name_words, &["country"]);
                let fits_kind = if wants_country {
                    super::regions::is_country(&it.text)
                } else {
                    super::regions::is_subdivision(&it.text)
                };
                if !fits_kind {
                    b.unused.push(format!(
                        "{} (not a {} for :{})",
                        it.label(),
                        if wants_country {
                            "country"
                        } else {
                            "state or province"
                        },
                        params[rp].name
                    ));
                    continue;
                }
            }
            if place.is_some()
                && let Some(rp) = region_param
                && let Some((score, value)) = compat(it, &params[rp]).or_else(|| {
                    // A region's name, not a code: the parameter says neither.
                    let p = &params[rp];
                    (!wants_code(p)
                        && matches!(p.ty.as_deref(), Some("string") | None)
                        && fits(&p.schema, &it.value)
                        && described_values(p).is_none_or(|vs| vs.contains(&it.value)))
                    .then(|| (1.0, it.value.clone()))
                })
            {
                taken_param.insert(rp);
                bound.push((
                    rp,
                    Bound {
                        param: params[rp].name.clone(),
                        value,
                        source: it.label(),
                        score,
                    },
                ));
                continue;
            }
            if let Some(pi) = place
                && let Some((_, bd)) = bound.iter_mut().find(|(p, _)| *p == pi)
                && let Some(place) = bd.value.as_str()
            {
                let whole_place = format!("{place}, {}", it.text);
                b.notes.push(format!(
                    "{} qualifies the place: {whole_place:?} -> :{}",
                    it.label(),
                    bd.param
                ));
                bd.value = Json::from(whole_place);
                continue;
            }
            // Weak mentions may go unused ("One of", a capitalised first
            // word), except a name that is the object of a place or target
            // preposition: "the time *in Tokyo*" is not served by the time
            // here.
            // Nor a name listed with a value the plan uses: "the time in
            // Tokyo and *Brazil*", "in Paris, *Texas*" (a place and its
            // state) are not served by Tokyo's or Paris's time.
            let used_values = mentions.iter().enumerate().flat_map(|(oi, o)| {
                let items: Vec<&Mention> = o
                    .items
                    .iter()
                    .enumerate()
                    .filter(|(ii, _)| items_used.contains(&(oi, *ii)))
                    .map(|(_, x)| x)
                    .collect();
                if whole.contains(&oi) { vec![o] } else { items }
            });
            let listed = it.kind == MentionKind::Name
                && used_values.into_iter().any(|o| {
                    gap(clause, o, it).is_some()
                        || gap(clause, it, o).is_some()
                        || clause
                            .get(o.span.end..it.span.start)
                            .is_some_and(|g| g.trim() == ",")
                });
            // An item of a list stands where the list does ("between
            // Lyon and *Nice*").
            let prep = it.cue.prep.as_deref().or(men.cue.prep.as_deref());
            // ("lines starting *with* Q" restricts: the restriction's
            // check speaks for it.)
            let restricts = it
                .cue
                .before
                .last()
                .is_some_and(|w| super::lexicon::bounds_text(w));
            // "a lawyer who speaks *Spanish*": the object of a relative
            // clause's verb is stated, never chance.
            let relative = it.cue.prep.is_none()
                && it.cue.before.len() >= 2
                && matches!(
                    it.cue.before[it.cue.before.len() - 2].as_str(),
                    "who" | "that" | "which"
                );
            let placed = listed
                || (it.kind == MentionKind::Name && relative)
                || (it.kind == MentionKind::Name
                    && !(restricts && it.cue.prep.as_deref() == Some("with"))
                    && matches!(
                        prep,
                        Some(
                            "in" | "at"
                                | "from"
                                | "to"
                                // "translate 'hi' *into* French": the
                                // language was dropped (attack trial).
                                | "into"
                                | "onto"
                                | "for"
                                | "on"
                                | "between"
                                | "near"
                                | "via"
                                | "through"
                                // "movies with Will *Smith*": who goes with
                                // the thing is stated, never chance.
                                | "with"
                                | "by"
                                | "starring"
                                | "featuring"
                        )
                    ));
            // "create *two* issues": a count of what a capability that
            // changes something makes is stated, never chance.
            let counts_effects = it.kind == MentionKind::Number
                && changes_things(m)
                && !matches!(it.text.to_lowercase().as_str(), "a" | "an" | "one");
            let noun = qualified_noun(clause, it, &params, m);
            // A name of several words qualifying the noun (bound only
            // when a choice names it, above) is placed here no further.
            if several_words(it)
                && it.cue.prep.is_none()
                && !placed
                && let Some(noun) = noun.as_deref().filter(|n| names_what_it_serves(n, m))
            {
                b.unused
                    .push(format!("{} (it says which {noun})", it.label()));
                continue;
            }
            if it.weak && !placed && !counts_effects {
                // "find *Italian* restaurants": a name saying which of
                // the things the capability serves goes to the one free
                // parameter of their kind (`cuisine`, `genre`, `type`),
                // or it is a value the capability drops.
                // An item of a list ("Chinese or *Thai* restaurants")
                // takes the list with it: the whole list is dropped.
                let listed = men.kind == MentionKind::List && men.items.len() > 1;
                if listed
                    && men.items.last().is_some_and(|last| std::ptr::eq(last, it))
                    && let Some(noun) = &noun
                {
                    b.unused
                        .push(format!("{} (it says which {noun})", men.label()));
                } else if !listed && let Some(noun) = &noun {
                    // Where it can go: every free parameter that takes it.
                    let open: Vec<(usize, Json)> = free
                        .iter()
                        .copied()
                        .filter(|pi| !taken_param.contains(pi))
                        .filter_map(|pi| compat(it, &params[pi]).map(|(_, v)| (pi, v)))
                        .collect();
                    let text = it.value.as_str().unwrap_or(&it.text).to_string();
                    // The one whose choices or examples name it ("P1" of a
                    // priority's enum; "Thai" of "e.g. Italian, Thai"),
                    // else the one kind parameter when nothing else could
                    // take it: "Coldplay concerts" with a genre and an
                    // artist is a guess, refused.
                    let named: Vec<&(usize, Json)> = open
                        .iter()
                        .filter(|(pi, _)| names_a_choice(&params[*pi], &text))
                        .collect();
                    // ("*French* movies": a nationality is no genre.)
                    let nationality = it.kind == MentionKind::Name
                        && super::nationalities::is_nationality(&it.text);
                    let kinds: Vec<&(usize, Json)> = open
                        .iter()
                        .filter(|(pi, _)| {
                            says_a_kind(&params[*pi])
                                && (!nationality || takes_a_nationality(&params[*pi], &text))
                        })
                        .collect();
                    // (A nationality goes to the one kind parameter that
                    // takes one, a `cuisine`, whatever else is open.)
                    let chosen = match (named.as_slice(), kinds.as_slice()) {
                        ([one], _) => Some(*one),
                        ([], [one]) if open.len() == 1 || nationality => Some(*one),
                        _ => None,
                    };
                    if let Some((pi, value)) = chosen {
                        let p = &params[*pi];
                        b.notes
                            .push(format!("{} says which {noun} -> :{}", it.label(), p.name));
                        taken_param.insert(*pi);
                        bound.push((
                            *pi,
                            Bound {
                                param: p.name.clone(),
                                value: value.clone(),
                                source: it.label(),
                                score: WEAK_MIN,
                            },
                        ));
                    } else {
                        b.unused
                            .push(format!("{} (it says which {noun})", it.label()));
                    }
                } else if !listed
                    && verbs_object(it)
                    && it.span.start > 0
                    && it.cue.after.is_empty()
                {
                    // "find *Coldplay*": the verb's whole object is what
                    // the goal is about, never chance (attack trial: the
                    // concerts were searched without it).
                    b.unused
                        .push(format!("{} (what the goal is about)", it.label()));
                } else if !listed && it.span.start > 0 && is_well_known_place(&it.text) {
                    // "Find *Peru* cuisine restaurants in Madrid", "*Detroit*
                    // style pizzerias": a known place is never capitalised
                    // by chance, so a plan without it drops what the goal
                    // says (attack trial: dropped silently).
                    b.unused
                        .push(format!("{} (a place the plan does not use)", it.label()));
                }
                continue;
            }
            if words_texts.contains(&mi)
                && let Some(pi) = free
                    .iter()
                    .copied()
                    .find(|pi| !taken_param.contains(pi) && takes_a_file_as_list(&params[*pi]))
            {
                let text = it.value.as_str().unwrap_or(&it.text).to_string();
                taken_param.insert(pi);
                b.notes.push(format!(
                    "{} -> :{} (its words: found first)",
                    it.label(),
                    params[pi].name
                ));
                b.words_first.push((params[pi].name.clone(), text));
                continue;
            }
            // A file named where its content is wanted: a text parameter
            // takes its content, a list parameter its lines ("the lines of
            // words.txt"); the file is read (and split) first.
            let free_param = |pred: &dyn Fn(&Param) -> bool| {
                free.iter()
                    .copied()
                    .find(|pi| !taken_param.contains(pi) && pred(&params[*pi]))
            };
            // A list parameter takes a JSON file's value, the lines the
            // goal says, the numbers or the words it says.
            let path_text = it.value.as_str().unwrap_or(&it.text).to_string();
            // (Numbers asked of a JSON file: of which of its values is not
            // said; "the biggest number in people.json" gave a person.)
            let list_of = if !super::lexicon::names_a_file(&path_text) {
                // A folder: its entries, when a key orders or picks them.
                key.is_some().then_some(ReadAs::Listing)
            } else if super::lexicon::is_json_file(&path_text) {
                (!says_numbers).then_some(if says_records {
                    ReadAs::Records
                } else {
                    ReadAs::Json
                })
            } else if says_lines {
                Some(ReadAs::Lines)
            } else if says_numbers {
                Some(ReadAs::Numbers)
            } else if says_words {
                Some(ReadAs::Words)
            } else {
                None
            };
            let read_into = (it.kind == MentionKind::Path && !takes_path)
                .then(|| {
                    free_param(&|p| {
                        has(&p.name_words, DATA_WORDS) && p.ty.as_deref() == Some("string")
                    })
                    .map(|pi| (pi, None))
                    .or_else(|| {
                        list_of.and_then(|how| {
                            free_param(&takes_a_file_as_list).map(|pi| (pi, Some(how)))
                        })
                    })
                })
                .flatten();
            if let Some((pi, how)) = read_into {
                // "reverse the *numbers* in numbers.txt": an operation on
                // the members of the file, which a text transformation
                // of its whole content is not (attack trial: the text was
                // reversed, digits and all). Its own name may say them
                // ("count the lines").
                if how.is_none()
                    && m.effects
                        .iter()
                        .all(|e| *e == ccos_marketplace::Effect::Pure)
                {
                    let names = super::lexicon::name_words(m);
                    if let Some(noun) = [
                        "numbers", "lines", "records", "entries", "rows", "list", "items",
                        "elements",
                    ]
                    .into_iter()
                    .find(|n| {
                        own_words.iter().skip(1).any(|w| w == n)
                            && !analyze(n).iter().any(|st| names.contains(st))
                    }) {
                        b.unused.push(format!(
                            "word {noun} (the members of {path_text}; {} works on its whole text)",
                            m.id
                        ));
                    }
                }
                taken_param.insert(pi);
                let what = match how {
                    None => "the file's content: read first",
                    Some(ReadAs::Lines) => "the file's lines: read and split first",
                    Some(ReadAs::Numbers) => "the numbers in the file: read and found first",
                    Some(ReadAs::Json) => "the file's JSON: read and parsed first",
                    Some(ReadAs::Records) => "the file's records: read and parsed as a list first",
                    Some(ReadAs::Listing) => "the folder's entries: listed first",
                    Some(ReadAs::Words) => "the words in the file: read and found first",
                };
                b.notes
                    .push(format!("{} -> :{} ({what})", it.label(), params[pi].name));
                if let Some(how) = how {
                    b.read_as.insert(params[pi].name.clone(), how);
                }
                b.read_first.push((params[pi].name.clone(), path_text));
                continue;
            }
            let unitless = it.kind == MentionKind::Number
                && free.iter().any(|&pi| wants_milliseconds(&params[pi]));
            b.unused.push(match out_of_bounds(it, &params, &free) {
                Some(why) => format!("{} ({why})", it.label()),
                None if unitless => format!(
                    "{} (a duration needs its unit: {} seconds? {} ms?)",
                    it.label(),
                    it.text,
                    it.text
                ),
                None => it.label(),
            });
        }
    }
    // "a *classical* concert": the word saying which kind of the thing
    // served fills its kind parameter.
    let open: Vec<usize> = free
        .iter()
        .copied()
        .filter(|pi| !taken_param.contains(pi))
        .collect();
    for (pi, word, noun) in kind_qualifiers(clause, mentions, &params, m, &open) {
        taken_param.insert(pi);
        b.notes.push(format!(
            "word {word} says which {noun} -> :{}",
            params[pi].name
        ));
        bound.push((
            pi,
            Bound {
                param: params[pi].name.clone(),
                value: Json::from(word.clone()),
                source: format!("word {word}"),
                score: WEAK_MIN,
            },
        ));
    }
    // A quoted text with regular-expression metacharacters ('1+1',
    // 'c++', '$5') fills a regular expression only when the goal says it
    // is one: "find '1+1' in '1+1=2'" searches the text, and a regex
    // engine would answer wrongly. Unsaid, it is not bound (refused).
    if !says_regex(clause) {
        unbind_where(&mut bound, &mut taken_param, &mut b.unused, |pi, bd| {
            (takes_regex(&params[pi]) && bd.value.as_str().is_some_and(has_regex_metacharacters))
                .then_some("a regular expression? the goal does not say")
        });
    }
    // "split 'notes.txt' by line": the text "notes.txt", or the file's?
    // A quoted file name as the data to work on is a guess either way
    // (attack trial: the name was split); unquoted, it is the file.
    unbind_where(&mut bound, &mut taken_param, &mut b.unused, |pi, bd| {
        let p = &params[pi];
        (bd.source.starts_with("quoted ")
            && has(&p.name_words, DATA_WORDS)
            && !has(&p.name_words, USER_TEXT_WORDS)
            && bd.value.as_str().is_some_and(|v| {
                !v.contains(char::is_whitespace)
                    && v.rsplit_once('.').is_some_and(|(stem, ext)| {
                        !stem.is_empty()
                            && (1..=4).contains(&ext.len())
                            && ext.chars().all(|c| c.is_ascii_alphabetic())
                    })
            }))
        .then_some("a file's name as the text? write it without quotes to read the file")
    });
    // "echo *A* B C", "say A Tale of Two Cities": the capital "A" the
    // names leave out is the message's first word, not an article before
    // a name "B C" (attack trial: it echoed "B C").
    for (pi, bd) in bound.iter_mut() {
        if takes_a_message(&params[*pi])
            && bd.source.starts_with("name ")
            && let Some(v) = bd.value.as_str()
        {
            let whole = with_cut_article(clause, v.to_string());
            if whole.len() != v.len() {
                bd.value = Json::from(whole);
            }
        }
    }
    bound.sort_by_key(|(pi, _)| *pi);
    for (_, bd) in &bound {
        b.notes
            .push(format!("{} -> :{} ({:.2})", bd.source, bd.param, bd.score));
        b.score += bd.score;
    }
    // The user's own words for a free-text parameter still required.
    let used: Vec<&Mention> = mentions
        .iter()
        .enumerate()
        .filter(|(i, _)| whole.contains(i) || items_used.iter().any(|(m, _)| m == i))
        .map(|(_, m)| m)
        .collect();
    // "show me the directory tree": of the current folder, as a shell
    // user means it, when the goal names no path at all and says nothing
    // the capability does not ("one level up", "my other project"), for a
    // local capability that changes nothing.
    // A kind of file names what to look for, not where ("find all
    // markdown files" searches here).
    // Not when the clause speaks of an earlier result ("… and list
    // *them*", "list *their* names"): that is no folder.
    let names_no_path = !has_input
        && !crate::decompose::refers_back(clause)
        && !crate::decompose::refers_back_vaguely(clause)
        && m.local
        && !m.effects.contains(&ccos_marketplace::Effect::Write)
        && mentions.iter().all(|x| x.kind == MentionKind::FilePattern)
        && {
            // The clause without its file patterns: "in ~", "in ../" name a
            // folder the mentions do not read.
            let rest = mentions
                .iter()
                .fold(clause.to_string(), |c, x| c.replace(&x.text, " "));
            !rest
                .split_whitespace()
                .any(|w| w.contains(['/', '~', '\\']) || w.starts_with('.'))
                && says_only_what_it_does(&rest, m)
        };
    for &pi in &free {
        let p = &params[pi];
        if taken_param.contains(&pi) || !p.required {
            continue;
        }
        let user_text = has(&p.name_words, USER_TEXT_WORDS)
            && !has(&p.name_words, DATA_WORDS)
            && matches!(p.ty.as_deref(), Some("string") | None);
        // A capability that changes something records the user's words
        // only when the goal quotes them: "commit the changes in repo"
        // is no commit message, nor a question about the last commit.
        let quoted_only = changes_things(m) && !has(&p.name_words, QUERY_WORDS);
        if user_text && quoted_only && !has_input {
            b.missing.push(p.name.clone());
            continue;
        }
        if user_text
            && !has_input
            && let Some(text) = payload(
                &without_labels(clause, mentions, &params, &bound_from),
                &used,
            )
        {
            // A search's terms are what it is for, not where it looks:
            // "search my knowledge graph for tea" queries "tea".
            // A topic or a subject is what the request is *about*:
            // "Italian recipes *for* lasagna" keeps "Italian" (helper
            // trial).
            let text = if has(&p.name_words, QUERY_WORDS) {
                topic_terms(&search_terms(&text), m)
            } else if has(&p.name_words, TOPIC_WORDS) {
                topic_terms(&terms_after(&text, &["about"]), m)
            } else if has(&p.name_words, ASKING_WORDS) {
                text
            } else {
                without_saying(clause, &with_cut_article(clause, text))
            };
            // Words naming whose address follows are no message ("email
            // to John Doe at … with subject Hello" once sent that very
            // text as the subject).
            if refers_to_nothing_said(&text)
                || super::lexicon::has_coordinated_request(&text)
                || (takes_a_message(p) && names_a_thing(clause, &text))
                || mentions.iter().any(|x| {
                    ((x.kind == MentionKind::Name && names_an_addressee(clause, x, mentions))
                        || x.kind == MentionKind::Email)
                        && text.contains(&x.text)
                })
            {
                b.missing.push(p.name.clone());
                continue;
            }
            b.notes
                .push(format!("the goal's words {text:?} -> :{}", p.name));
            taken_param.insert(pi);
            bound.push((
                pi,
                Bound {
                    param: p.name.clone(),
                    value: Json::from(text),
                    source: "payload".into(),
                    score: 0.5,
                },
            ));
            continue;
        }
        if takes_regex(p)
            && let Some((kind, re)) = named_pattern(clause)
        {
            b.notes.push(format!(
                "the {kind} the goal asks for: {re:?} -> :{}",
                p.name
            ));
            taken_param.insert(pi);
            bound.push((
                pi,
                Bound {
                    param: p.name.clone(),
                    value: Json::from(re),
                    source: format!("the {kind}"),
                    score: 0.5,
                },
            ));
            continue;
        }
        if names_no_path && is_folder_param(m, p) {
            b.notes.push(format!(
                "the goal names no folder: the current one -> :{}",
                p.name
            ));
            taken_param.insert(pi);
            bound.push((
                pi,
                Bound {
                    param: p.name.clone(),
                    value: Json::from("."),
                    source: "the current folder".into(),
                    score: 0.5,
                },
            ));
            continue;
        }
        b.missing.push(p.name.clone());
    }
    // A switch the goal names ("*pretty*-print", "including *human
    // impact*", "with *details*"): a free boolean parameter whose own
    // words are all said is on.
    let lower = clause.to_lowercase();
    let clause_stems: Vec<String> = analyze(&lower);
    // Not when the goal says a switch is off anywhere ("safe search off",
    // "=false"), nor for a capability whose words may be a search's topic
    // ("images of *safes*"), nor for a word inside a stated value.
    let says_off = lower
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .any(|w| {
            matches!(
                w,
                "off"
                    | "false"
                    | "disabled"
                    | "disable"
                    | "no"
                    | "not"
                    | "without"
                    | "don't"
                    | "dont"
                    | "exclude"
                    | "excluding"
                    | "never"
                    | "none"
                    | "0"
            )
        });
    let takes_topic = free.iter().any(|&pi| {
        has(&params[pi].name_words, QUERY_WORDS) || has(&params[pi].name_words, USER_TEXT_WORDS)
    });
    let in_values: BTreeSet<String> = mentions.iter().flat_map(|m| analyze(&m.text)).collect();
    let switch_words = stemmed(SWITCH_WORDS);
    for &pi in &free {
        let p = &params[pi];
        if says_off
            || takes_topic
            || taken_param.contains(&pi)
            || p.ty.as_deref() != Some("boolean")
        {
            continue;
        }
        let own: Vec<&String> = p
            .name_words
            .iter()
            .filter(|w| !switch_words.contains(*w))
            .collect();
        if own.iter().any(|w| in_values.contains(*w)) {
            continue;
        }
        // All its own words said (a negation anywhere was `says_off`).
        if own.is_empty() || !own.iter().all(|w| clause_stems.contains(*w)) {
            continue;
        }
        taken_param.insert(pi);
        b.notes
            .push(format!("the goal names the switch :{} -> true", p.name));
        bound.push((
            pi,
            Bound {
                param: p.name.clone(),
                value: Json::Bool(true),
                source: format!("the words of :{}", p.name),
                score: 1.0,
            },
        ));
    }
    // "descending", "from largest to smallest", "by age, oldest first":
    // the direction of an ordering, into its direction switch
    // (`descending`, `reverse`, `ascending`), either way. Directions that
    // contradict each other ("ascending, largest first") are refused,
    // never one of them picked.
    let directions = super::lexicon::order_directions(&all_words, key);
    let direction_switch = free.iter().copied().find(|&pi| {
        !taken_param.contains(&pi)
            && params[pi].ty.as_deref() == Some("boolean")
            && has(
                &params[pi].name_words,
                &["descending", "desc", "reverse", "ascending"],
            )
    });
    // "by age descending in reverse": a reversal of another direction,
    // which way is a guess.
    let reversed_other =
        directions.len() > 1 && directions.iter().any(|(w, _)| w.starts_with("in reverse"));
    // "by score, then alphabetically", "…, ties alphabetically": a second
    // order for ties, which one key does not give.
    let tie_break = key.is_some()
        && all_words.iter().enumerate().any(|(i, w)| {
            let after: Vec<&str> = all_words
                .iter()
                .skip(i + 1)
                .take(3)
                .map(String::as_str)
                .collect();
            matches!(w.as_str(), "then" | "and" | "ties" | "tie" | "tiebreak")
                && (after.iter().any(|x| {
                    matches!(
                        *x,
                        "alphabetically"
                            | "alphabetical"
                            | "ascending"
                            | "descending"
                            | "asc"
                            | "desc"
                    )
                }) || after
                    .windows(2)
                    .any(|p| matches!(p, ["a", "z"] | ["z", "a"])))
        });
    if tie_break {
        b.unused
            .push("words of a second order for ties (one key orders once)".to_string());
    }
    // "by city (case-insensitive)": a remark on the order the plan does
    // not make; only a direction may stand in parentheses.
    if key.is_some()
        && let Some((_, inner)) = clause.split_once('(')
    {
        let inner = inner.split(')').next().unwrap_or(inner);
        let words = super::lexicon::words_of(inner);
        let only_direction = !super::lexicon::order_directions(&words, key).is_empty()
            && words.iter().all(|w| {
                super::lexicon::is_direction_word(w)
                    || matches!(
                        w.as_str(),
                        "first"
                            | "last"
                            | "to"
                            | "from"
                            | "in"
                            | "order"
                            | "reverse"
                            | "reversed"
                            | "ascending"
                            | "descending"
                            | "asc"
                            | "desc"
                            | "increasing"
                            | "decreasing"
                    )
            });
        if !only_direction {
            b.unused
                .push(format!("words \"({inner})\" (a remark on the order)"));
        }
    }
    // "write *their names* to names.txt": a field of each earlier
    // result, which no parameter projects (attack trial: the whole
    // records were written). "By their age" is an ordering's key; "its
    // contents" the result itself.
    // (Into what a capability stores: "count its words" computes.)
    if let Some((_, noun)) = all_words.windows(3).find_map(|w| {
        (m.effects.contains(&ccos_marketplace::Effect::Write)
            && matches!(w[1].as_str(), "their" | "its")
            && w[0] != "by"
            && !matches!(
                w[2].as_str(),
                "content"
                    | "contents"
                    | "text"
                    | "data"
                    | "result"
                    | "results"
                    | "output"
                    | "value"
                    | "values"
                    | "own"
                    | "way"
                    | "place"
            )
            && !mentions
                .iter()
                .any(|x| x.kind == MentionKind::Field && x.value.as_str() == Some(w[2].as_str())))
        .then(|| (w[1].clone(), w[2].clone()))
    }) {
        b.unused.push(format!(
            "words \"{noun}\" of an earlier result (a field of each: not taken)"
        ));
    }
    // "Rome and so on", "by age etc.": an open list, never its first.
    // (The clause's own words: "/etc/x.json" is a path.)
    if own_words
        .windows(3)
        .any(|w| w[0] == "and" && w[1] == "so" && w[2] == "on")
        || own_words.iter().any(|w| w == "etc")
    {
        b.unused
            .push("words \"and so on\" (an open list)".to_string());
    }
    if reversed_other || directions.windows(2).any(|w| w[0].1 != w[1].1) {
        let said: Vec<String> = directions.iter().map(|(w, _)| format!("{w:?}")).collect();
        b.unused.push(format!(
            "words {} (directions that contradict each other)",
            said.join(", ")
        ));
    } else if let (Some(&(_, largest_first)), Some(pi)) = (directions.first(), direction_switch) {
        let p = &params[pi];
        let ascending = has(&p.name_words, &["ascending"]);
        let value = if ascending {
            !largest_first
        } else {
            largest_first
        };
        taken_param.insert(pi);
        b.notes.push(format!(
            "the goal orders {} first -> :{} {value}",
            if largest_first {
                "the largest"
            } else {
                "the smallest"
            },
            p.name
        ));
        bound.push((
            pi,
            Bound {
                param: p.name.clone(),
                value: Json::Bool(value),
                source: DIRECTION_SOURCE.to_string(),
                score: 1.0,
            },
        ));
    }
    // A folder the goal names by a bare word ("the files in docs", "the
    // docs folder") is a value no parameter takes: refused, never the
    // current folder instead.
    b.unused.extend(
        folder_words(clause, mentions)
            .into_iter()
            .map(|w| format!("word {w} (a folder the goal names: give its path, e.g. {w}/)")),
    );
    source_first(
        clause,
        m,
        mentions,
        &bound_from,
        &mut bound,
        &mut b.notes,
        &mut b.unused,
    );
    into_folder(m, mentions, &bound_from, &mut bound, &mut b.notes);
    b.unused
        .extend(mixed_units(mentions, &params, &bound_from, &bound));
    b.unused.extend(headed_by_another(
        clause,
        mentions,
        &params,
        &bound_from,
        &bound,
    ));
    b.unused.extend(unit_parameter(
        mentions,
        &params,
        &bound_from,
        &mut bound,
        &mut b.notes,
    ));
    b.unused
        .extend(swapped_ties(mentions, &params, &pairs, &bound_from));
    bound.sort_by_key(|(pi, _)| *pi);
    b.args = bound.into_iter().map(|(_, bd)| bd).collect();
    b
}

/// Takes back the bindings `why` objects to, listing each value as unused
/// with the reason.
fn unbind_where(
    bound: &mut Vec<(usize, Bound)>,
    taken: &mut BTreeSet<usize>,
    unused: &mut Vec<String>,
    why: impl Fn(usize, &Bound) -> Option<&'static str>,
) {
    bound.retain(|(pi, bd)| match why(*pi, bd) {
        Some(reason) => {
            unused.push(format!("{} ({reason})", bd.source));
            taken.remove(pi);
            false
        }
        None => true,
    });
}

/// Two values that fit two parameters as well one way as the other
/// ("the driving distance between St. Louis and Kansas City": origin or
/// destination?): the assignment would be the order of the parameters'
/// names, a guess. Both are reported unless something told them apart
/// (a cue, a name, "between" for a capability that says it). Names only.
fn swapped_ties(
    mentions: &[Mention],
    params: &[Param],
    pairs: &[Pair],
    bound_from: &BTreeMap<usize, MentionRef>,
) -> Vec<String> {
    let score = |r: MentionRef, p: usize| {
        pairs
            .iter()
            .find(|x| (x.mention, x.item) == r && x.param == p)
            .map(|x| x.score)
    };
    let chosen: Vec<(usize, MentionRef)> = bound_from.iter().map(|(p, r)| (*p, *r)).collect();
    let mut out = vec![];
    for (i, &(p1, r1)) in chosen.iter().enumerate() {
        for &(p2, r2) in &chosen[i + 1..] {
            let (m1, m2) = (mention_at(mentions, r1), mention_at(mentions, r2));
            // Names, and numbers for two parameters named for their roles
            // ("a loan of 20000 at 5": principal or annual rate?); numbers
            // for operands named by position (`a`, `b`, `num1`) go in
            // order, paths by what is moved first ([`source_first`]).
            let names = m1.kind == MentionKind::Name && m2.kind == MentionKind::Name;
            let numbers = m1.kind == MentionKind::Number
                && m2.kind == MentionKind::Number
                && !positional_name(&params[p1])
                && !positional_name(&params[p2]);
            // Operands named by position go in order, unless the goal
            // says the second one first: "15 subtracted *from* 40", "4
            // *into* 12" (helper trial: planned as 15 - 40).
            let (first, second) = if m1.span.start <= m2.span.start {
                (m1, m2)
            } else {
                (m2, m1)
            };
            let reversed = m1.kind == MentionKind::Number
                && m2.kind == MentionKind::Number
                && positional_name(&params[p1])
                && positional_name(&params[p2])
                && matches!(second.cue.prep.as_deref(), Some("from" | "into"))
                && !matches!(first.cue.prep.as_deref(), Some("from" | "into"));
            if reversed && r1 != r2 {
                out.push(format!(
                    "{} and {} (\"{}\" {}: which is :{} and which :{} is not said)",
                    m1.label(),
                    m2.label(),
                    second.cue.prep.as_deref().unwrap_or_default(),
                    second.text,
                    params[p1].name,
                    params[p2].name
                ));
                continue;
            }
            if r1 == r2 || m1.value == m2.value || !(names || numbers) {
                continue;
            }
            let (Some(a), Some(b), Some(c), Some(d)) =
                (score(r1, p1), score(r2, p2), score(r1, p2), score(r2, p1))
            else {
                continue;
            };
            if ((a + b) - (c + d)).abs() < 1e-9 {
                out.push(format!(
                    "{} and {} (which is :{} and which :{} is not said)",
                    m1.label(),
                    m2.label(),
                    params[p1].name,
                    params[p2].name
                ));
            }
        }
    }
    out
}

/// Whether `p` is named for its position among operands, not its role:
/// `a`, `x`, `num1`, `mass2` (a numbered pair goes in order),
/// `first_number`.
fn positional_name(p: &Param) -> bool {
    if p.name.ends_with(|c: char| c.is_ascii_digit()) {
        return true;
    }
    const GENERIC: &[&str] = &[
        "num", "number", "numbers", "value", "val", "operand", "arg", "input", "first", "second",
        "third", "left", "right", "lhs", "rhs", "int", "integer", "n",
    ];
    ccos_marketplace::ids::words(&p.name).iter().all(|w| {
        w.chars().count() == 1
            || w.chars().all(|c| c.is_ascii_digit())
            || GENERIC.contains(&w.as_str())
    })
}

/// Quantities of one dimension in different units that go in as plain
/// numbers ("a triangle with base 10 cm and height 50 mm" gave base 10
/// and height 50): the capability would compute with mixed units. Each
/// is reported as a value the plan cannot use as stated.
fn mixed_units(
    mentions: &[Mention],
    params: &[Param],
    bound_from: &BTreeMap<usize, MentionRef>,
    bound: &[(usize, Bound)],
) -> Vec<String> {
    let plain: Vec<(&'static str, &str, &Mention)> = bound
        .iter()
        .filter(|(pi, _)| wanted_unit(&params[*pi]).is_none())
        .filter_map(|(pi, _)| {
            let men = mention_at(mentions, *bound_from.get(pi)?);
            let unit = men.unit.as_deref()?;
            Some((super::units::dimension_of(unit)?, unit, men))
        })
        .collect();
    plain
        .iter()
        .filter(|(dim, unit, _)| plain.iter().any(|(d, u, _)| d == dim && u != unit))
        .map(|(dim, _, men)| {
            format!(
                "{} (a {dim} in another unit than the others, and the capability takes plain numbers)",
                men.label()
            )
        })
        .collect()
}

/// The noun right after name or quoted text `men`, as stems, and with the
/// word after it as one compound ("New York *time zone*"): the value's own
/// noun, which says what it is ("the *'Playstation' platform*"). `None`
/// for other kinds, when punctuation or a function word follows ("Paris,
/// France", "Paris *for* the region"), when the word is a verb form
/// ("Lakers *including* its opponent", "Las Vegas *named* Paris") or
/// labels the value after it
/// ("Fortnite *player* Ninja": the name before only qualifies it).
fn own_noun(clause: &str, mentions: &[Mention], men: &Mention) -> Option<OwnNoun> {
    // ("an *Italian restaurant*": a nationality says what kind of thing
    // the noun is, never the name of one; attack trial,
    // `{:restaurant_name "Italian"}`.)
    if !matches!(men.kind, MentionKind::Name | MentionKind::Quoted)
        || (men.kind == MentionKind::Name && super::nationalities::is_nationality(&men.text))
    {
        return None;
    }
    let rest = clause.get(men.span.end..)?;
    if !rest.starts_with(' ') {
        return None;
    }
    let mut words = rest.split_whitespace();
    let first = words.next()?;
    let noun = first.trim_end_matches(|c: char| !c.is_alphanumeric());
    if noun.is_empty() || !noun.chars().all(|c| c.is_alphanumeric()) {
        return None;
    }
    let lower = noun.to_lowercase();
    // ("Las Vegas *named* Paris": attack trial, `{:hotel_name "Las Vegas"}`.)
    if crate::resolution::catalog::STOP_WORDS.contains(&lower.as_str())
        || lower.ends_with("ing")
        || lower.ends_with("ed")
    {
        return None;
    }
    // ("the Nike *shoe called* Air Max": attack trial, `{:shoe "Nike"}`.)
    let labels_next = mentions.iter().any(|x| {
        x.span.start > men.span.end
            && matches!(x.kind, MentionKind::Name | MentionKind::Quoted)
            && clause.get(men.span.end..x.span.start).is_some_and(|gap| {
                let gap = gap.trim().to_lowercase();
                let gap = ["called", "named", "titled"]
                    .iter()
                    .find_map(|w| gap.strip_suffix(w))
                    .unwrap_or(&gap)
                    .trim();
                gap.eq_ignore_ascii_case(noun)
            })
    });
    if labels_next {
        return None;
    }
    let mut stems = analyze(&lower);
    let second = (noun.len() == first.len())
        .then(|| words.next())
        .flatten()
        .map(|w| {
            w.trim_end_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        });
    if let Some(second) = &second {
        stems.extend(analyze(&format!("{lower}{second}")));
    }
    let heads = second
        .as_deref()
        .is_none_or(|w| w.is_empty() || crate::resolution::catalog::STOP_WORDS.contains(&w));
    Some(OwnNoun { stems, heads })
}

/// A value's own noun ([`own_noun`]).
struct OwnNoun {
    /// Its stems, and those of it joined to the next word.
    stems: Vec<String>,
    /// Whether it ends its phrase (punctuation, a function word or the
    /// end follows): "the 'Playstation' *platform* for", not "the Xbox
    /// *game* updates", where it qualifies the noun after it.
    heads: bool,
}

/// The one text parameter the own noun of `men` ([`own_noun`]) names,
/// when that noun heads its phrase: strong evidence that it takes `men`
/// ("the *'European' region*" for `region`, though "platform" is the word
/// before it; not "the *Xbox game* updates for 'Halo'": attack trial,
/// `{:game "Xbox"}`).
fn own_noun_param(
    clause: &str,
    mentions: &[Mention],
    men: &Mention,
    params: &[Param],
) -> Option<usize> {
    // A text only: "*NFL* data" says which data, and is none (attack
    // trial: `ccos.data.get {:data "NFL"}`). "Tokyo *time*" is Tokyo's
    // time zone, no time.
    // A place before a noun is as often where the thing is as its name
    // ("*Texas* river levels": attack trial, `{:river "Texas"}`; "the
    // *Paris* hotel in Las Vegas"): only a parameter for such places
    // ("the Texas *state*"; not a park or a lake, named by places).
    let own = own_noun(clause, mentions, men).filter(|own| own.heads)?;
    let names = |q: &Param| own.stems.iter().any(|st| q.name_words.contains(st));
    // One parameter alone: "Spanish *language*" names no more
    // `target_language` than `source_language`.
    let mut named = params.iter().enumerate().filter(|(_, q)| names(q));
    let (pi, p) = named.next()?;
    (named.next().is_none()
        && p.ty.as_deref() == Some("string")
        && !takes_a_time(p)
        && (!super::regions::is_place(&men.text)
            || has(&p.name_words, &["city", "state", "country", "region"])))
    .then_some(pi)
}

/// The names and quoted texts bound to one parameter while their own noun
/// ([`own_noun`]) names another: "on the *'Playstation' platform* for the
/// *'European' region*" once bound 'European' to `platform` (the word
/// before it) and 'Playstation' to `region`. The value's own noun says
/// which it is (and weighs so in the pairing); bound elsewhere all the
/// same, it is listed unused (the goal refused).
fn headed_by_another(
    clause: &str,
    mentions: &[Mention],
    params: &[Param],
    bound_from: &BTreeMap<usize, MentionRef>,
    bound: &[(usize, Bound)],
) -> Vec<String> {
    bound
        .iter()
        .filter_map(|(pi, _)| {
            let men = mention_at(mentions, *bound_from.get(pi)?);
            let p = &params[*pi];
            let stems = own_noun(clause, mentions, men)?.stems;
            if stems.iter().any(|st| p.name_words.contains(st)) {
                return None;
            }
            // "Tokyo *time*" is Tokyo's time zone, no time.
            if has(&p.name_words, ZONE_WORDS) {
                return None;
            }
            let other = params
                .iter()
                .enumerate()
                .find(|(qi, q)| qi != pi && stems.iter().any(|st| q.name_words.contains(st)))?;
            let noun = clause.get(men.span.end..)?.split_whitespace().next()?;
            Some(format!(
                "{} (the {:?} it is said of is :{}, not :{})",
                men.label(),
                noun.trim_end_matches(|c: char| !c.is_alphanumeric())
                    .to_lowercase(),
                other.1.name,
                p.name
            ))
        })
        .collect()
}

/// Whether `p` says the unit of the capability's quantities (`unit`,
/// `units`, `radius_unit`: "The unit of measurement for the radius.
/// Default is m."), a text.
fn is_unit_param(p: &Param) -> bool {
    matches!(p.ty.as_deref(), Some("string") | None)
        && ccos_marketplace::ids::words(&p.name)
            .last()
            .is_some_and(|w| matches!(w.as_str(), "unit" | "units"))
}

/// The unit of the quantities the goal states, for the capability's
/// parameter saying it ([`is_unit_param`]): "a radius of 5 cm" binds 5 to
/// `radius`, and unless `unit` says "cm" the capability reads 5 in its
/// default unit (5 m, a wrong answer). Filled with the goal's word for
/// the unit (or the choice naming it); the quantities' units differing,
/// or none of the parameter's choices naming it, the quantities are
/// listed unused (which unit to pass is not said). Nothing is done when
/// the parameter is filled already, when several parameters say units,
/// when it names another dimension ("the temperature unit"), and for the
/// quantities of parameters it does not name.
fn unit_parameter(
    mentions: &[Mention],
    params: &[Param],
    bound_from: &BTreeMap<usize, MentionRef>,
    bound: &mut Vec<(usize, Bound)>,
    notes: &mut Vec<String>,
) -> Vec<String> {
    let unit_params: Vec<usize> = (0..params.len())
        .filter(|&pi| is_unit_param(&params[pi]))
        .collect();
    let [up] = unit_params.as_slice() else {
        return vec![];
    };
    let up = *up;
    if bound.iter().any(|(pi, _)| *pi == up) {
        return vec![];
    }
    let p = &params[up];
    let said = super::units::dimensions_named(&p.desc_words);
    // The quantities passed as plain numbers (a parameter naming its own
    // unit has its value converted to it).
    // Only the quantities of the parameters it names ("The unit of
    // measurement for the *radius*"): "The unit of density" is the
    // result's, a "measurement system" no unit of a value stated.
    let names_param = |q: &Param| {
        q.name_words
            .iter()
            .any(|w| w.len() > 2 && (p.desc_words.contains(w) || p.name_words.contains(w)))
    };
    let quantities: Vec<(&Mention, &str)> = bound
        .iter()
        .filter(|(pi, _)| wanted_unit(&params[*pi]).is_none() && names_param(&params[*pi]))
        .filter_map(|(pi, _)| {
            let men = mention_at(mentions, *bound_from.get(pi)?);
            let unit = men.unit.as_deref()?;
            let dim = super::units::dimension_of(unit)?;
            (said.is_empty() || said.contains(dim)).then_some((men, unit))
        })
        .collect();
    let Some((first, unit)) = quantities.first().copied() else {
        return vec![];
    };
    if quantities.iter().any(|(_, u)| *u != unit) {
        return quantities
            .iter()
            .map(|(men, _)| {
                format!(
                    "{} (the quantities are in different units, and :{} takes one)",
                    men.label(),
                    p.name
                )
            })
            .collect();
    }
    // The goal's own word for the unit ("5cm" → "cm", "5 feet" → "feet",
    // "1e3 m" → "m"): what follows the number's own characters.
    let word = {
        let t = first.text.as_str();
        let mut k = 0;
        let b = t.as_bytes();
        while k < b.len() {
            let c = b[k];
            let exponent = matches!(c, b'e' | b'E')
                && k > 0
                && b[k - 1].is_ascii_digit()
                && b.get(k + 1)
                    .is_some_and(|n| n.is_ascii_digit() || matches!(n, b'-' | b'+'));
            if c.is_ascii_digit() || matches!(c, b'.' | b',' | b'-' | b'+') || exponent {
                k += 1;
            } else {
                break;
            }
        }
        t[k..].trim()
    };
    let listed = p.schema.get("enum").and_then(Json::as_array);
    let value = match listed.or(p.closed.as_ref()) {
        Some(choices) => {
            let names = |c: &Json| {
                c.as_str().is_some_and(|c| {
                    let lower = c.to_lowercase();
                    let words: Vec<Option<&str>> = lower.split_whitespace().map(Some).collect();
                    super::units::unit_words(&words)
                        .is_some_and(|(s, n)| s == unit && n == words.len())
                        || lower == unit
                })
            };
            match choices.iter().find(|c| names(c)) {
                Some(c) => c.clone(),
                None => {
                    return quantities
                        .iter()
                        .map(|(men, _)| {
                            format!("{} (its unit is no choice of :{})", men.label(), p.name)
                        })
                        .collect();
                }
            }
        }
        None if !word.is_empty() => Json::from(word),
        None => return vec![],
    };
    notes.push(format!(
        "the unit of {} -> :{} {value}",
        first.label(),
        p.name
    ));
    bound.push((
        up,
        Bound {
            param: p.name.clone(),
            value,
            source: format!("unit of {}", first.label()),
            score: 1.0,
        },
    ));
    vec![]
}

/// Words of a boolean parameter's name that say it is a switch, not what
/// it switches ("include_details", "is_pretty", "use_cache").
const SWITCH_WORDS: &[&str] = &[
    "include", "is", "use", "show", "get", "with", "enable", "allow", "consider", "flag", "has",
    "should", "do", "return", "want",
];

/// Words of a parameter that takes a place.
const PLACE_WORDS: &[&str] = &[
    "location",
    "city",
    "place",
    "address",
    "destination",
    "town",
    "locality",
];

/// Whether parameter `p` takes a code ("Two-letter US state code", an
/// ISO code, an abbreviation) by its name or description.
fn wants_code(p: &Param) -> bool {
    const CODE: &[&str] = &["code", "iso", "abbreviation", "abbreviated"];
    has(&p.name_words, CODE) || has(&p.desc_words, CODE)
}

/// Words of a parameter that takes the region of a place.
const REGION_WORDS: &[&str] = &["state", "country", "province", "region", "county"];

/// The place parameter whose bound name `region` qualifies: "Seattle,
/// Washington", "Paris, France": a name, a comma alone, and a region
/// ([`super::regions::is_region`]: "Boston, Monday" is none) with
/// nothing listed after it ("Boston, Chicago and Denver" is a list, not a
/// place). The region is part of the place then, not a dropped value; a
/// parameter that does not take places (a time zone) never takes it.
fn qualified_place(
    clause: &str,
    mentions: &[Mention],
    params: &[Param],
    bound_from: &BTreeMap<usize, MentionRef>,
    region: &Mention,
) -> Option<usize> {
    if region.kind != MentionKind::Name || !super::regions::is_region(&region.text) {
        return None;
    }
    let listed_after = mentions
        .iter()
        .flat_map(|m| std::iter::once(m).chain(&m.items))
        .any(|o| o.span.start >= region.span.end && gap(clause, region, o).is_some());
    if listed_after {
        return None;
    }
    bound_from.iter().find_map(|(&pi, &src)| {
        let place = mention_at(mentions, src);
        let p = &params[pi];
        (place.kind == MentionKind::Name
            && matches!(p.ty.as_deref(), Some("string") | None)
            && has(&p.name_words, PLACE_WORDS)
            && clause
                .get(place.span.end..region.span.start)
                .is_some_and(|g| g.trim() == ","))
        .then_some(pi)
    })
}

/// Whether the name `men` is the whole object of `clause`'s verb:
/// "forget (everything about) Dana", not "forget what Alice likes", "the
/// meeting with Bob", "Bob's allergy" (a part of what the name holds).
fn whole_object(clause: &str, men: &Mention) -> bool {
    use super::lexicon::{is_action_verb, request_word_stems, synonyms_of};
    if men.text.ends_with("'s") || men.text.ends_with("\u{2019}s") {
        return false;
    }
    let Some(at) = clause.find(&men.text) else {
        return false;
    };
    let after = &clause[at + men.text.len()..];
    if after.chars().any(char::is_alphanumeric) {
        return false;
    }
    let verb = |w: &str| is_action_verb(w) || synonyms_of(w).iter().any(|v| is_action_verb(v));
    let asking = request_word_stems();
    clause[..at]
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .all(|w| {
            verb(&w)
                || analyze(&w).iter().all(|st| asking.contains(st))
                || matches!(
                    w.as_str(),
                    "everything"
                        | "all"
                        | "about"
                        | "of"
                        | "regarding"
                        | "on"
                        | "the"
                        | "you"
                        | "entity"
                        | "entities"
                        | "node"
                        | "nodes"
                        | "named"
                        | "called"
                        | "names"
                        | "list"
                        | "items"
                        | "words"
                        | "people"
                        | "these"
                        | "following"
                )
        })
}

/// Bare words that name a folder: "the files *in docs*", "the *docs*
/// folder" (not "here", "this", "the current folder").
fn folder_words(clause: &str, mentions: &[Mention]) -> Vec<String> {
    const CONTAINED: &[&str] = &[
        "files",
        "file",
        "folder",
        "folders",
        "directory",
        "directories",
        "dir",
        "contents",
        "entries",
        "items",
    ];
    const FOLDER: &[&str] = &["folder", "directory", "dir", "subfolder"];
    const NOT_NAMES: &[&str] = &[
        "here", "this", "that", "it", "them", "current", "parent", "home", "same", "other",
        "working", "root", "whole", "entire", "new", "my", "our", "your", "the", "a", "each",
        "every", "all", "any", "one",
    ];
    let in_mention = |w: &str| mentions.iter().any(|m| m.text.contains(w));
    let words: Vec<String> = clause
        .split(|c: char| c.is_whitespace() || ",;:?!".contains(c))
        .filter(|w| !w.is_empty())
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .collect();
    let bare = |w: &str| {
        !w.is_empty()
            && w.chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
            && !NOT_NAMES.contains(&w)
            && !crate::resolution::catalog::STOP_WORDS.contains(&w)
            && !in_mention(w)
    };
    let mut out: Vec<String> = vec![];
    for (i, w) in words.iter().enumerate() {
        // "files in docs", "the contents of the docs"
        if CONTAINED.contains(&w.as_str())
            && matches!(
                words.get(i + 1).map(String::as_str),
                Some("in" | "under" | "inside" | "within")
            )
        {
            let mut j = i + 2;
            while words
                .get(j)
                .is_some_and(|x| matches!(x.as_str(), "the" | "my" | "our"))
            {
                j += 1;
            }
            if let Some(x) = words.get(j)
                && bare(x)
                && !FOLDER.contains(&x.as_str())
            {
                out.push(x.clone());
            }
        }
        // "the directory docs"
        if FOLDER.contains(&w.as_str())
            && i >= 1
            && matches!(words[i - 1].as_str(), "the" | "my" | "our")
            && let Some(x) = words.get(i + 1)
            && bare(x)
            && !CONTAINED.contains(&x.as_str())
            && !matches!(
                x.as_str(),
                "tree" | "structure" | "listing" | "size" | "sizes" | "names" | "name"
            )
        {
            out.push(x.clone());
        }
        // "the docs folder"
        if FOLDER.contains(&w.as_str())
            && i >= 2
            && matches!(words[i - 2].as_str(), "the" | "my" | "our")
            && bare(&words[i - 1])
        {
            out.push(words[i - 1].clone());
        }
    }
    out.dedup();
    out
}

/// Whether the clause's `words` also name another of the `choices` than `chosen` in
/// another form ("the tokens of *all* my *sessions*": all, or session?).
fn also_names_another(words: &BTreeSet<String>, chosen: &Json, choices: &[Json]) -> bool {
    // The word as written, or its plural: "annual" does not name
    // "annually".
    choices
        .iter()
        .filter(|c| *c != chosen)
        .filter_map(Json::as_str)
        .map(str::to_lowercase)
        .any(|c| words.contains(&format!("{c}s")) || words.contains(&format!("{c}es")))
}

/// Whether the choice `word` is a point of comparison in the clause's
/// `words` ("below
/// high priority", "older than the session ones"), not the choice itself.
fn compared(words: &[String], word: &str) -> bool {
    let word = word.to_lowercase();
    words.iter().enumerate().any(|(i, w)| {
        *w == word
            && words[i.saturating_sub(3)..i].iter().any(|b| {
                matches!(
                    b.as_str(),
                    "below"
                        | "above"
                        | "under"
                        | "over"
                        | "than"
                        | "less"
                        | "more"
                        | "lower"
                        | "higher"
                        | "beyond"
                        | "past"
                        | "until"
                        | "till"
                        | "besides"
                        | "except"
                        | "but"
                        | "not"
                )
            })
    })
}

/// Whether the path `men` as written goes on past its value ("build/..",
/// "build*"): the value is not the path meant.
fn unclear_path(clause: &str, men: &Mention) -> bool {
    let Some(at) = clause.find(&men.text) else {
        return true;
    };
    let written = clause[at..]
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .trim_end_matches([',', ';', '!', '?', ')', '\'', '"']);
    written.contains("..") || written.contains(['*', '?', '['])
}

/// Whether the path `men` is where something else is, not the thing
/// itself: after "above", "under", "next to", "of"... (or "in" for a
/// folder parameter), or possessive.
fn relative_to(men: &Mention, folder: bool) -> bool {
    let possessive = men.text.ends_with("'s") || men.text.ends_with("\u{2019}s");
    // "one level up from X", "up from X".
    let up_from = men.cue.prep.as_deref() == Some("from")
        && men
            .cue
            .before
            .last()
            .is_some_and(|w| matches!(w.as_str(), "up" | "level" | "down" | "away"));
    let next_to = men.cue.prep.as_deref() == Some("to")
        && men
            .cue
            .before
            .last()
            .is_some_and(|w| matches!(w.as_str(), "next" | "close" | "similar" | "due"));
    // Words of place that are no recorded preposition: the word before.
    let placed = men.cue.prep.is_none()
        && men.cue.before.last().is_some_and(|w| {
            matches!(
                w.as_str(),
                "above"
                    | "below"
                    | "beneath"
                    | "beside"
                    | "near"
                    | "around"
                    | "behind"
                    | "inside"
                    | "within"
                    | "holding"
                    | "enclosing"
                    | "containing"
                    | "alongside"
                    | "surrounding"
                    | "like"
                    | "against"
                    | "off"
            )
        });
    possessive
        || next_to
        || up_from
        || placed
        || match men.cue.prep.as_deref() {
            Some(
                "above" | "below" | "under" | "beneath" | "beside" | "near" | "of" | "around"
                | "behind" | "over" | "after" | "before",
            ) => true,
            Some("in" | "inside" | "within") => folder,
            _ => false,
        }
}

/// Whether every word of `clause` is a word of asking or filler, a stop
/// word, a word of `m`'s name or description or of its parameters' names,
/// descriptions and choices, or names the current folder ("here",
/// "current", "this").
fn says_only_what_it_does(clause: &str, m: &CapabilityManifest) -> bool {
    let mut known: BTreeSet<String> = analyze(&format!("{} {} {}", m.name, m.id, m.description))
        .into_iter()
        .collect();
    // Its parameters' names, descriptions and choices.
    if let Some(props) = m.input_schema.get("properties").and_then(Json::as_object) {
        for (k, sch) in props {
            known.extend(analyze(k));
            if let Some(d) = sch.get("description").and_then(Json::as_str) {
                known.extend(analyze(d));
            }
            for v in sch
                .get("enum")
                .and_then(Json::as_array)
                .into_iter()
                .flatten()
            {
                known.extend(v.as_str().map(analyze).unwrap_or_default());
            }
        }
    }
    known.extend(analyze("current here this folder directory dir files file"));
    let asking = super::lexicon::filler_word_stems();
    clause
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .filter(|w| !w.is_empty() && !crate::resolution::catalog::STOP_WORDS.contains(&w.as_str()))
        .flat_map(|w| analyze(&w))
        .all(|w| {
            known.contains(&w)
                || asking.contains(&w)
                || super::lexicon::synonym_stems(&w)
                    .iter()
                    .any(|x| known.contains(x))
        })
}

/// Words naming folders, as written ("the *folders*"): a goal saying one
/// of them asks about folders.
const FOLDER_WORDS_WRITTEN: &[&str] = &[
    "directory",
    "directories",
    "dir",
    "dirs",
    "folder",
    "folders",
    "subfolder",
    "subdirectory",
];

/// Whether `p` takes a list made of a file the goal names (its lines,
/// numbers or JSON records; see [`ReadAs`]): a list, or an untyped
/// parameter (`ccos.data.count`'s items are a list or a map), named for
/// a list or for data.
pub(crate) fn takes_a_file_as_list(p: &Param) -> bool {
    matches!(p.ty.as_deref(), Some("array") | None)
        && (has(&p.name_words, LIST_WORDS) || has(&p.name_words, DATA_WORDS))
}

/// Whether `clause` asks for a file of `m`, which changes folders ("create
/// a file named test.md" is no `create_directory`): the clause says a file
/// and no folder, and `m` is named for folders, not files.
pub(crate) fn file_asked_of_a_folder_capability(clause: &str, m: &CapabilityManifest) -> bool {
    static STEMS: std::sync::OnceLock<BTreeSet<String>> = std::sync::OnceLock::new();
    let folder_stems = STEMS.get_or_init(|| {
        FOLDER_WORDS_WRITTEN
            .iter()
            .flat_map(|w| analyze(w))
            .collect()
    });
    let words = super::lexicon::words_of(clause);
    let says = |ws: &[&str]| words.iter().any(|w| ws.contains(&w.as_str()));
    let names = super::lexicon::name_words(m);
    says(&["file", "files"])
        && !says(FOLDER_WORDS_WRITTEN)
        && !names.is_disjoint(folder_stems)
        && !names.contains("file")
}

/// Whether `p` is the folder `m` works on: a path parameter of a
/// capability named for folders ("list_directory", "directory_tree"), or a
/// parameter named for one ("dir"). A file's path is not.
fn is_folder_param(m: &CapabilityManifest, p: &Param) -> bool {
    const FOLDER_WORDS: &[&str] = &["directory", "dir", "folder", "tree"];
    if !matches!(p.ty.as_deref(), Some("string") | None) {
        return false;
    }
    let names: BTreeSet<String> = super::lexicon::name_words(m);
    has(&p.name_words, &["directory", "dir", "folder"])
        || (has(&p.name_words, &["path"]) && has(&names, FOLDER_WORDS))
        // Where a search for files looks ("search_files"'s path).
        || (has(&p.name_words, &["path", "root"])
            && has(&names, &["search", "find"])
            && has(&names, &["file", "files"]))
}

/// "copy A as B", "move A over B", "copy A, B": what is moved or copied
/// comes first, unless a word says otherwise ("to"/"into" before the
/// first, "from" before the second). Only for a capability named for
/// moving or copying, with a source and a destination both bound from
/// paths the goal states.
fn source_first(
    clause: &str,
    m: &CapabilityManifest,
    mentions: &[Mention],
    bound_from: &std::collections::BTreeMap<usize, MentionRef>,
    bound: &mut [(usize, Bound)],
    notes: &mut Vec<String>,
    unused: &mut Vec<String>,
) {
    let names: BTreeSet<String> = super::lexicon::name_words(m);
    if !has(&names, &["move", "copy", "rename"]) {
        return;
    }
    let role = |param: &str| {
        let w: BTreeSet<String> = analyze(param).into_iter().collect();
        if has(&w, &["source", "src", "from", "origin", "old"]) {
            Some(true)
        } else if has(&w, &["destination", "dest", "target", "to", "new"]) {
            Some(false)
        } else {
            None
        }
    };
    let at = |pi: usize| bound_path(mentions, bound_from, pi);
    let find = |want: bool| {
        bound
            .iter()
            .position(|(pi, bd)| role(&bd.param) == Some(want) && at(*pi).is_some())
    };
    let (Some(si), Some(di)) = (find(true), find(false)) else {
        return;
    };
    let (Some(src), Some(dst)) = (at(bound[si].0), at(bound[di].0)) else {
        return;
    };
    let first_is_target =
        matches!(dst.cue.prep.as_deref(), Some("to" | "into" | "onto")) && !relative_to(dst, false);
    let second_is_source = src.cue.prep.as_deref() == Some("from");
    // A word beside a path that names its role ("with destination X and
    // source Y") was weighed by the binding: trusted as bound.
    let role_word = |men: &Mention| {
        men.cue
            .before
            .iter()
            .chain(&men.cue.after)
            .any(|w| role(w).is_some())
    };
    if first_is_target || second_is_source || role_word(src) || role_word(dst) {
        return;
    }
    // Otherwise only "copy A B", "copy A, B", "copy A as B": what is copied
    // first. Any other word between them ("copy A out of B", "make B a
    // copy of A") leaves which is which unsaid: refused.
    let (first, second) = if src.span.start < dst.span.start {
        (src, dst)
    } else {
        (dst, src)
    };
    let between = match (clause.find(&first.text), clause.find(&second.text)) {
        (Some(a), Some(b)) if a + first.text.len() <= b => {
            clause[a + first.text.len()..b].trim().to_lowercase()
        }
        _ => "?".to_string(),
    };
    if first.cue.prep.is_some() || !matches!(between.as_str(), "" | "," | "as") {
        unused.push(format!(
            "paths {} and {} (which is {} and which {}? the goal does not say with \"to\" or \"from\")",
            first.text, second.text, bound[si].1.param, bound[di].1.param
        ));
        return;
    }
    if src.span.start > dst.span.start {
        let (sv, dv) = (bound[si].1.value.clone(), bound[di].1.value.clone());
        bound[si].1.value = dv;
        bound[di].1.value = sv;
        notes.push(format!(
            "what is moved comes first: :{} and :{} in the goal's order",
            bound[si].1.param, bound[di].1.param
        ));
    }
}

/// The path parameter `pi` was bound from, when it was bound from one
/// path the goal states ("docs/archive" reads as owner/name too).
fn bound_path<'a>(
    mentions: &'a [Mention],
    bound_from: &std::collections::BTreeMap<usize, MentionRef>,
    pi: usize,
) -> Option<&'a Mention> {
    let men = mention_at(mentions, *bound_from.get(&pi)?);
    (matches!(men.kind, MentionKind::Path | MentionKind::Repo) && men.items.is_empty())
        .then_some(men)
}

/// Moving (copying) a file *into* a folder keeps its name: "move
/// docs/faq.md into docs/archive" moves it to `docs/archive/faq.md`. Only
/// for a capability named for moving or copying (a "rename into" names
/// the new name), whatever the folder's name looks like.
fn into_folder(
    m: &CapabilityManifest,
    mentions: &[Mention],
    bound_from: &std::collections::BTreeMap<usize, MentionRef>,
    bound: &mut [(usize, Bound)],
    notes: &mut Vec<String>,
) {
    let names: BTreeSet<String> = super::lexicon::name_words(m);
    if !has(&names, &["move", "copy"]) {
        return;
    }
    let path_of = |pi: usize| bound_path(mentions, bound_from, pi);
    let file_name = |v: &str| {
        let last = v
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or(v)
            .to_string();
        (!last.is_empty() && last != "." && last != "..").then_some(last)
    };
    // "Into" names a folder, whatever its name looks like
    // ("backups/2024.01").
    let Some(folder_at) = bound.iter().position(|(pi, _)| {
        path_of(*pi).is_some_and(|men| men.cue.prep.as_deref() == Some("into"))
    }) else {
        return;
    };
    let files: Vec<String> = bound
        .iter()
        .enumerate()
        .filter(|(i, (pi, _))| *i != folder_at && path_of(*pi).is_some())
        .filter_map(|(_, (_, bd))| bd.value.as_str().and_then(file_name))
        .collect();
    let [file] = files.as_slice() else {
        return;
    };
    // "copy reports/q1.csv into backup/q1.csv": the file's own name, so
    // the whole destination is given.
    if bound[folder_at]
        .1
        .value
        .as_str()
        .is_some_and(|v| v.trim_end_matches('/').rsplit('/').next() == Some(file.as_str()))
    {
        return;
    }
    let bd = &mut bound[folder_at].1;
    let Some(folder) = bd.value.as_str() else {
        return;
    };
    let joined = format!("{}/{file}", folder.trim_end_matches('/'));
    notes.push(format!("into the folder {folder}: :{} {joined}", bd.param));
    bd.value = Json::from(joined);
}

#[cfg(test)]
mod tests {

    #[test]
    fn one_ordinal_says_one_position() {
        assert_eq!(
            ordinal_position("the 4th number in numbers.txt"),
            Ordinal::One(4)
        );
        assert_eq!(
            ordinal_position("show me the last person"),
            Ordinal::One(-1)
        );
        assert_eq!(
            ordinal_position("the second to last line"),
            Ordinal::One(-2)
        );
        assert_eq!(
            ordinal_position("the second one in the list"),
            Ordinal::One(2)
        );
        // A count, a time, the order of requests.
        for clause in [
            "the first 3 lines of notes.txt",
            "the last five names",
            "when was it last modified",
            "the last week of news",
            "first count the lines",
        ] {
            assert_eq!(ordinal_position(clause), Ordinal::Absent, "{clause}");
        }
        // Two positions, or one counted from something (attack trial).
        for clause in [
            "the first and the last line",
            "the 3rd number and the 5th",
            "the last but one number",
            "one before the last number",
            "the third number from the end",
            "the 2nd smallest number",
            "3rd number in numbers.txt and the 5th",
        ] {
            assert_eq!(ordinal_position(clause), Ordinal::Unclear, "{clause}");
        }
    }

    #[test]
    fn a_determiner_led_phrase_names_a_thing_not_words() {
        assert!(names_a_thing("echo the current time", "current time"));
        assert!(names_a_thing("say my name", "my name"));
        assert!(!names_a_thing("say the build is green", "build is green"));
        assert!(!names_a_thing("echo the tests passed", "tests passed"));
        assert!(!names_a_thing("echo hello world", "hello world"));
        assert!(!names_a_thing("repeat after me: the time", "the time"));
        assert_eq!(
            with_cut_article("say the build is green", "build is green".into()),
            "the build is green"
        );
        assert_eq!(
            with_cut_article("say the current time", "current time".into()),
            "current time"
        );
        assert_eq!(with_cut_article("echo a b c", "b c".into()), "a b c");
        assert_eq!(with_cut_article("echo the end", "end".into()), "end");
        assert_eq!(
            with_cut_article("echo a, b and c", "b and c".into()),
            "a, b and c"
        );
        assert_eq!(with_cut_article("echo a to z", "z".into()), "a to z");
        assert_eq!(
            with_cut_article("send Bob a message saying hi", "saying hi".into()),
            "saying hi"
        );
    }

    use super::super::mentions::mentions;
    use super::*;
    use serde_json::json;
    use std::collections::BTreeMap;

    fn cap(id: &str, input: Json) -> CapabilityManifest {
        CapabilityManifest::new(id, id, input)
    }

    fn obj(props: Json, req: &[&str]) -> Json {
        json!({"type": "object", "properties": props, "required": req})
    }

    fn run(clause: &str, m: &CapabilityManifest) -> Binding {
        bind(
            clause,
            &mentions(clause).unwrap(),
            m,
            &BTreeSet::new(),
            false,
        )
    }

    fn args(b: &Binding) -> Json {
        Json::Object(
            b.args
                .iter()
                .map(|a| (a.param.clone(), a.value.clone()))
                .collect(),
        )
    }

    #[test]
    fn ids_ranges_money_and_dates_go_only_where_meant() {
        let hotels = cap(
            "bookHotel",
            obj(
                json!({"hotel_id": {"type": "string"},
                       "guest_name": {"type": "string", "description": "Guest's full name"},
                       "check_in": {"type": "string", "format": "date"},
                       "check_out": {"type": "string", "format": "date"}}),
                &["hotel_id", "check_in", "check_out"],
            ),
        );
        // Attack trial: the dates were swapped by "in" after the second.
        let b = run(
            "book hotel H9 for Ann Lee from 2025-06-01 to 2025-06-03 in a single room",
            &hotels,
        );
        assert_eq!(args(&b)["check_in"], json!("2025-06-01"), "{b:?}");
        assert_eq!(args(&b)["check_out"], json!("2025-06-03"), "{b:?}");
        assert_eq!(args(&b)["hotel_id"], json!("H9"), "{b:?}");
        // A name in words is no identifier.
        let b = run(
            "book hotel Marriott Rome for Ann Lee from 2025-06-01 to 2025-06-03",
            &hotels,
        );
        assert_eq!(args(&b).get("hotel_id"), None, "{b:?}");
        // A date without its year goes nowhere.
        let b = run("book hotel H9 for Ann Lee from July 3 to July 6", &hotels);
        assert_eq!(args(&b).get("check_in"), None, "{b:?}");
        assert!(b.unused.iter().any(|u| u.contains("July 3")), "{b:?}");
        let flights = cap(
            "searchFlights",
            obj(
                json!({"origin": {"type": "string"}, "destination": {"type": "string"},
                       "passengers": {"type": "integer"},
                       "max_price": {"type": "number", "description": "Maximum price"},
                       "min_price": {"type": "number", "description": "Minimum price"}}),
                &["origin", "destination"],
            ),
        );
        // "over" bounds from below, "under" from above.
        let b = run("flights from Paris to Rome over $500", &flights);
        assert_eq!(args(&b).get("min_price"), Some(&json!(500)), "{b:?}");
        let b = run("flights from Paris to Rome under $500", &flights);
        assert_eq!(args(&b).get("max_price"), Some(&json!(500)), "{b:?}");
        // Money is no count of passengers.
        let no_range = cap(
            "searchFlights",
            obj(
                json!({"origin": {"type": "string"}, "destination": {"type": "string"},
                       "passengers": {"type": "integer"}}),
                &["origin", "destination"],
            ),
        );
        let b = run("flights from Paris to Rome over $500", &no_range);
        assert_eq!(args(&b).get("passengers"), None, "{b:?}");
        // Who goes with the thing is no title of it.
        let movies = cap(
            "searchMovies",
            obj(
                json!({"title": {"type": "string", "description": "Movie title"},
                       "actor": {"type": "string", "description": "Actor name"}}),
                &[],
            ),
        );
        let b = run("movies with Tom Hanks", &movies);
        assert_eq!(args(&b), json!({"actor": "Tom Hanks"}), "{b:?}");
        let b = run("movies starring Tom Hanks", &movies);
        assert_eq!(args(&b).get("title"), None, "{b:?}");
        // The verb's whole object is what the goal is about.
        let b = run("find Coldplay", &flights);
        assert!(b.unused.iter().any(|u| u.contains("Coldplay")), "{b:?}");
    }

    #[test]
    fn a_json_literal_never_names_a_place() {
        let list = cap(
            "files.list",
            obj(
                json!({"path": {"type": "string", "description": "The folder"}}),
                &[],
            ),
        );
        // Attack trial: "the list is [3, 1, 2]" listed a folder "[3, 1, 2]".
        let b = run("show the list [3, 1, 2]", &list);
        assert!(args(&b).get("path").is_none(), "{b:?}");
        let echo = cap(
            "text.echo",
            obj(
                json!({"text": {"type": "string", "description": "The text"}}),
                &["text"],
            ),
        );
        let b = run("echo [3, 1, 2]", &echo);
        assert_eq!(args(&b)["text"], json!("[3, 1, 2]"), "{b:?}");
    }

    #[test]
    fn a_year_goes_to_a_text_parameter_for_years_or_seasons() {
        let standings = cap(
            "standings",
            obj(
                json!({"team": {"type": "string", "description": "The team"},
                       "season": {"type": "string", "description": "The season"},
                       "page": {"type": "string", "description": "Result page"}}),
                &["team", "season"],
            ),
        );
        let b = run("the standings of Arsenal in the 2019 season", &standings);
        assert_eq!(args(&b)["season"], json!("2019"), "{b:?}");
        // Not any number: "3" is no season, and no page unless it says so.
        let b = run("the standings of Arsenal after 3 games", &standings);
        assert_eq!(args(&b).get("season"), None, "{b:?}");
        assert_eq!(args(&b).get("page"), None, "{b:?}");
    }

    #[test]
    fn a_cue_word_names_a_parameter_whose_name_joins_it_to_another() {
        let stats = cap(
            "fetch_stats",
            obj(
                json!({"game": {"type": "string", "description": "The name of the video game."},
                       "username": {"type": "string", "description": "The username of the player."},
                       "platform": {"type": "string", "description": "The platform the user plays on."}}),
                &["game", "username"],
            ),
        );
        // "user" names :username, though the platform's description says
        // "user" too.
        let b = run(
            "fetch the stats of 'Tetris' on Linux for user 'bob'",
            &stats,
        );
        assert_eq!(args(&b)["username"], json!("bob"), "{b:?}");
        assert_eq!(args(&b)["game"], json!("Tetris"), "{b:?}");
        // Only right before the value: "the stats of users in Sweden"
        // has no username.
        let b = run("fetch the stats of 'Tetris' for users in Sweden", &stats);
        assert_eq!(args(&b).get("username"), None, "{b:?}");
        // Too short a word to say ("on" opens no "online").
        assert!(!heads_a_compound("on", &stemmed(&["online"])));
        assert!(heads_a_compound("file", &stemmed(&["filename"])));
    }

    #[test]
    fn a_name_of_several_words_before_the_noun_is_no_title() {
        let books = CapabilityManifest::new(
            "shop.searchBooks",
            "Search books by title, author or genre",
            obj(
                json!({"title": {"type": "string", "description": "Book title"},
                       "author": {"type": "string", "description": "Author name"},
                       "genre": {"type": "string", "description": "Genre"}}),
                &[],
            ),
        );
        // Attack trial: "Stephen King books" searched the title "Stephen
        // King". Whose books, or which kind, is not said: refused.
        for goal in ["Stephen King books", "find Stephen King books"] {
            let b = run(goal, &books);
            assert_eq!(args(&b), json!({}), "{goal}: {b:?}");
            assert!(
                b.unused
                    .iter()
                    .any(|u| u.contains("\"Stephen King\" (it says which books)")),
                "{goal}: {b:?}"
            );
        }
        // After a preposition the name is that phrase's, as before.
        let recipes = cap(
            "recipe_search.find",
            obj(
                json!({"dish": {"type": "string", "description": "The name of the dish to search for."}}),
                &["dish"],
            ),
        );
        let b = run("search for a Chicken Noodle Soup recipe", &recipes);
        assert_eq!(args(&b), json!({"dish": "Chicken Noodle Soup"}), "{b:?}");
        // A title says its own words whole.
        let b = run("find books titled The Name of the Rose", &books);
        assert_eq!(args(&b), json!({"title": "The Name of the Rose"}), "{b:?}");
    }

    #[test]
    fn a_name_saying_which_thing_is_a_value_and_a_titled_name_a_person() {
        let restaurants = CapabilityManifest::new(
            "misc.findRestaurants",
            "Find restaurants near a location serving a cuisine",
            obj(
                json!({"location": {"type": "string", "description": "Location to search near"},
                       "cuisine": {"type": "string", "description": "Type of cuisine"}}),
                &["location"],
            ),
        );
        // "Italian" says which restaurants: the cuisine.
        let b = run("find Italian restaurants near Boston", &restaurants);
        assert_eq!(
            args(&b),
            json!({"cuisine": "Italian", "location": "Boston"}),
            "{b:?}"
        );
        // A kind the description gives as an example is the parameter's
        // (attack trial: "(e.g. Italian, Thai)" made Thai the
        // capability's own word, and it was dropped unseen).
        let with_examples = CapabilityManifest::new(
            "misc.findRestaurants",
            "Find restaurants near a location serving a cuisine",
            obj(
                json!({"location": {"type": "string", "description": "Location to search near"},
                       "cuisine": {"type": "string", "description": "Type of cuisine (e.g. Italian, Thai)"}}),
                &["location"],
            ),
        );
        let b = run("find Thai restaurants in Boston", &with_examples);
        assert_eq!(
            args(&b),
            json!({"cuisine": "Thai", "location": "Boston"}),
            "{b:?}"
        );
        // A name that a kind or another parameter could take is a guess:
        // "Coldplay concerts" is no genre when an artist is also free.
        let concerts = cap(
            "findConcerts",
            obj(
                json!({"city": {"type": "string"},
                       "genre": {"type": "string", "description": "Music genre, e.g. rock, jazz"},
                       "artist": {"type": "string", "description": "Performing artist or band"}}),
                &["city"],
            ),
        );
        let b = run("find Coldplay concerts in London", &concerts);
        assert_eq!(args(&b).get("genre"), None, "{b:?}");
        let b = run("find Rock concerts in London", &concerts);
        assert_eq!(args(&b)["genre"], json!("Rock"), "{b:?}");
        // A date is no artist: with no date parameter it is dropped.
        let b = run("find Rock concerts in London on 2026-12-05", &concerts);
        assert_eq!(args(&b).get("artist"), None, "{b:?}");
        assert!(b.unused.iter().any(|u| u.contains("2026-12-05")), "{b:?}");
        // Two kinds for one parameter: neither is dropped unseen.
        let b = run("find Chinese or Thai restaurants in Boston", &restaurants);
        assert!(
            b.unused.iter().any(|u| u.contains("Chinese or Thai")),
            "{b:?}"
        );
        // Where nothing takes it, it is never dropped unseen.
        let hotels = CapabilityManifest::new(
            "findHotels",
            "Find hotels near a location",
            obj(json!({"location": {"type": "string"}}), &["location"]),
        );
        let b = run("find Hilton hotels near Boston", &hotels);
        assert!(
            b.unused.iter().any(|u| u.contains("Hilton")),
            "{:?}",
            b.unused
        );
        // A capitalised first word says nothing of the kind.
        let b = run("Show restaurants near Boston", &restaurants);
        assert!(b.unused.is_empty(), "{:?}", b.unused);
        // A doctor's name is no cuisine.
        let b = run("find Dr. John Smith in Boston", &restaurants);
        assert_eq!(args(&b).get("cuisine"), None, "{:?}", b);
        let doctors = cap(
            "findDoctor",
            obj(
                json!({"doctor_name": {"type": "string"}, "city": {"type": "string"}}),
                &["doctor_name"],
            ),
        );
        let b = run("find Dr. John Smith in Boston", &doctors);
        assert_eq!(args(&b)["doctor_name"], json!("Dr. John Smith"), "{b:?}");
    }

    #[test]
    fn values_a_description_lists_are_the_only_ones_and_near_is_a_place() {
        let ranking = cap(
            "get_team_ranking",
            obj(
                json!({"team_name": {"type": "string", "description": "The name of the soccer team."},
                       "year": {"type": "integer"},
                       "gender": {"type": "string", "description": "The gender of the team. It can be either 'men' or 'women'. Default is 'men'."}}),
                &["team_name", "year"],
            ),
        );
        let b = run(
            "What is the FIFA ranking of Germany's men soccer team for the year 2021?",
            &ranking,
        );
        assert_ne!(args(&b)["gender"], json!("Germany"), "{b:?}");
        // Examples are no closed list: "e.g. 'Paris', 'Rome'".
        let city = cap(
            "city_info",
            obj(
                json!({"city": {"type": "string", "description": "A city, e.g. 'Paris', 'Rome'."}}),
                &["city"],
            ),
        );
        assert_eq!(
            args(&run("tell me about the city of Lisbon", &city)),
            json!({"city": "Lisbon"})
        );
        let restaurant = cap(
            "find_restaurant",
            obj(
                json!({"location": {"type": "string"}, "diet_option": {"type": "string"}}),
                &["location", "diet_option"],
            ),
        );
        let b = run(
            "find a restaurant with Gluten-free options near Brooklyn",
            &restaurant,
        );
        assert_eq!(args(&b)["location"], json!("Brooklyn"), "{b:?}");
    }

    #[test]
    fn two_names_that_fit_two_parameters_either_way_are_a_guess() {
        let distance = CapabilityManifest::new(
            "driving_distance",
            "Get the driving distance from an origin to a destination",
            obj(
                json!({"origin": {"type": "string"}, "destination": {"type": "string"}}),
                &["origin", "destination"],
            ),
        );
        let b = run(
            "driving distance between St. Louis and Kansas City",
            &distance,
        );
        assert!(!b.complete(), "{b:?}");
        // A name whose last word names the parameter says what it is.
        let ranking = cap(
            "sports_ranking",
            obj(
                json!({"team": {"type": "string"}, "league": {"type": "string"}}),
                &["team", "league"],
            ),
        );
        let b = run(
            "the ranking of Manchester United in the Premier League",
            &ranking,
        );
        assert!(b.complete(), "{b:?}");
        assert_eq!(
            args(&b),
            json!({"team": "Manchester United", "league": "Premier League"})
        );
        // "from … to …" tells them apart.
        let b = run("driving distance from St. Louis to Kansas City", &distance);
        assert!(b.complete(), "{b:?}");
        assert_eq!(
            args(&b),
            json!({"origin": "St. Louis", "destination": "Kansas City"})
        );
    }

    #[test]
    fn a_region_after_in_is_the_regions() {
        let population = cap(
            "city_population",
            obj(
                json!({"city": {"type": "string"}, "state": {"type": "string"}}),
                &["city", "state"],
            ),
        );
        let b = run("the population of Austin in Texas", &population);
        assert_eq!(
            args(&b),
            json!({"city": "Austin", "state": "Texas"}),
            "{b:?}"
        );
        // A code wanted: a code only.
        let tax = cap(
            "sales_tax",
            obj(
                json!({"amount": {"type": "number"},
                       "state": {"type": "string", "description": "Two-letter US state code"}}),
                &["amount", "state"],
            ),
        );
        let b = run("sales tax on 100 dollars in TX", &tax);
        assert_eq!(args(&b)["state"], json!("TX"), "{b:?}");
        let b = run("sales tax on 100 dollars in Texas", &tax);
        assert_ne!(args(&b)["state"], json!("Texas"), "{b:?}");
    }

    #[test]
    fn a_word_saying_which_kind_fills_the_kind_parameter() {
        let concerts = CapabilityManifest::new(
            "concert.search",
            "Locate a concert based on genre and location.",
            obj(
                json!({"genre": {"type": "string", "description": "Genre of the concert."},
                       "location": {"type": "string", "description": "City of the concert."}}),
                &["genre", "location"],
            ),
        );
        let b = run("find me a classical concert in Boston", &concerts);
        assert_eq!(args(&b)["genre"], json!("classical"), "{b:?}");
        // A word that qualifies without naming a kind, or two candidate
        // words, fill nothing.
        for goal in [
            "find me a good concert in Boston",
            "find me a new concert in Boston",
            "find a jazz concert or a rock concert in Boston",
        ] {
            let b = run(goal, &concerts);
            assert_eq!(args(&b).get("genre"), None, "{goal}: {b:?}");
        }
        // The noun of the parameter's own name wins over the capability's.
        let cases = cap(
            "get_top_cases",
            obj(
                json!({"field_of_law": {"type": "string"}, "top_number": {"type": "integer"}}),
                &["field_of_law", "top_number"],
            ),
        );
        let b = run(
            "get me the top 10 landmark cases in constitutional law",
            &cases,
        );
        assert_eq!(args(&b)["field_of_law"], json!("constitutional"), "{b:?}");
    }

    #[test]
    fn a_country_fills_a_country_and_a_name_after_by_its_maker() {
        let capital = cap(
            "country_info.capital",
            obj(
                json!({"country": {"type": "string", "description": "Name of the country."}}),
                &["country"],
            ),
        );
        let b = run("What is the capital of Brazil?", &capital);
        assert_eq!(args(&b)["country"], json!("Brazil"), "{b:?}");
        let b = run("What is the capital of Springfield?", &capital);
        assert_eq!(args(&b).get("country"), None, "{b:?}");
        let lyrics = cap(
            "get_song_lyrics",
            obj(
                json!({"song_title": {"type": "string"}, "artist_name": {"type": "string"}}),
                &["song_title", "artist_name"],
            ),
        );
        let b = run(
            "Find the lyrics to the song 'Bohemian Rhapsody' by Queen.",
            &lyrics,
        );
        assert_eq!(args(&b)["artist_name"], json!("Queen"), "{b:?}");
        assert_eq!(args(&b)["song_title"], json!("Bohemian Rhapsody"), "{b:?}");
    }

    #[test]
    fn a_labelled_list_of_quantities_is_one_call_each() {
        let mortgage = CapabilityManifest::new(
            "calculate_mortgage_payment",
            "Calculate the monthly mortgage payment for a given loan amount, interest rate, and loan term.",
            obj(
                json!({"loan_amount": {"type": "integer", "description": "The loan amount."},
                       "interest_rate": {"type": "number", "description": "The annual interest rate."},
                       "loan_term": {"type": "integer", "description": "The loan term in years."}}),
                &["loan_amount", "interest_rate", "loan_term"],
            ),
        );
        // The unit after the last number is every number's; "monthly" in
        // the capability's text does not refuse a term in years.
        let b = run(
            "Calculate the monthly mortgage payment for a loan amount of $400,000, with an annual interest rate of 4% and a loan term of 15, 20 and 30 years.",
            &mortgage,
        );
        assert_eq!(args(&b)["loan_amount"], json!(400000), "{b:?}");
        assert_eq!(
            b.fan_out,
            Some((
                "loan_term".to_string(),
                vec![json!(15), json!(20), json!(30)]
            )),
            "{b:?}"
        );
        // Which operand repeats is still a guess when nothing labels it.
        let sub = cap(
            "subtract",
            obj(
                json!({"a": {"type": "number"}, "b": {"type": "number"}}),
                &["a", "b"],
            ),
        );
        let b = run("subtract 3 from 10 and 20", &sub);
        assert_eq!(b.fan_out, None, "{b:?}");
    }

    #[test]
    fn second_trial_wrong_values_go_nowhere() {
        // Each goal once planned with a wrong value (helper trial, 177
        // goals over 24 imported operations).
        let books = CapabilityManifest::new(
            "searchBooks",
            "Search books by title, author or genre.",
            obj(
                json!({"title": {"type": "string"}, "author": {"type": "string"},
                       "genre": {"type": "string", "description": "Genre of the book, e.g. horror, fantasy"}}),
                &[],
            ),
        );
        let b = run("search for the book \"Dune\"", &books);
        assert_eq!(args(&b).get("genre"), None, "{b:?}");
        assert_eq!(args(&b)["title"], json!("Dune"), "{b:?}");
        let b = run("books about World War II", &books);
        assert_eq!(args(&b).get("title"), None, "{b:?}");
        let b = run("find horror books", &books);
        assert_eq!(args(&b)["genre"], json!("horror"), "{b:?}");
        let rooms = cap(
            "bookRoom",
            obj(
                json!({"hotel_name": {"type": "string"}, "room_type": {"type": "string"},
                       "nights": {"type": "integer"}}),
                &["hotel_name", "room_type", "nights"],
            ),
        );
        let b = run("book a room at the Hilton for 3 nights", &rooms);
        assert_eq!(args(&b).get("room_type"), None, "{b:?}");
        let b = run("book a double room at the Marriott for 2 nights", &rooms);
        assert_eq!(args(&b)["room_type"], json!("double"), "{b:?}");
        // An escaped quote is part of the text.
        let tickets = cap(
            "createTicket",
            obj(
                json!({"title": {"type": "string"},
                       "priority": {"type": "string", "enum": ["low", "high"]}}),
                &["title"],
            ),
        );
        let b = run(r#"create a ticket titled "a\" :priority \"high""#, &tickets);
        assert_eq!(args(&b)["title"], json!(r#"a" :priority "high"#), "{b:?}");
        // Money is no percentage; a diameter is no radius.
        let discount = cap(
            "applyDiscount",
            obj(
                json!({"price": {"type": "number"},
                       "discount": {"type": "integer", "description": "Discount in percent"}}),
                &["price", "discount"],
            ),
        );
        let b = run("apply a $10 discount to a $50 item", &discount);
        assert_eq!(args(&b).get("discount"), None, "{b:?}");
        let circle = cap(
            "circleArea",
            obj(
                json!({"radius": {"type": "number", "description": "The radius in meters"}}),
                &["radius"],
            ),
        );
        let b = run("area of a circle with diameter 8 meters", &circle);
        assert_eq!(args(&b).get("radius"), None, "{b:?}");
        // A code is wanted: a name is none.
        let tax = cap(
            "salesTax",
            obj(
                json!({"amount": {"type": "number"},
                       "state": {"type": "string", "description": "Two-letter US state code"}}),
                &["amount", "state"],
            ),
        );
        let b = run("sales tax on 100 in New York City", &tax);
        assert_eq!(args(&b).get("state"), None, "{b:?}");
        // A state's name is its code there.
        let b = run("sales tax on 100 in Texas", &tax);
        assert_eq!(args(&b)["state"], json!("TX"), "{b:?}");
        // "a city or a code" takes the city.
        let flights = cap(
            "searchFlights",
            obj(
                json!({"origin": {"type": "string", "description": "Departure city or IATA airport code"},
                       "destination": {"type": "string", "description": "Arrival city or IATA airport code"}}),
                &["origin", "destination"],
            ),
        );
        let b = run("find flights from Paris to Rome", &flights);
        assert_eq!(args(&b)["origin"], json!("Paris"), "{b:?}");
        assert_eq!(args(&b)["destination"], json!("Rome"), "{b:?}");
        // A country's short name; a specialty.
        let capital = cap(
            "getCapital",
            obj(json!({"country": {"type": "string"}}), &["country"]),
        );
        let b = run("what is the capital of the UK", &capital);
        assert_eq!(args(&b)["country"], json!("UK"), "{b:?}");
        let lawyers = cap(
            "findLawyers",
            obj(
                json!({"specialty": {"type": "string"}, "city": {"type": "string"}}),
                &["specialty", "city"],
            ),
        );
        let b = run("find divorce lawyers in Miami", &lawyers);
        assert_eq!(args(&b)["specialty"], json!("divorce"), "{b:?}");
        // What a relative clause states is no chance capital.
        let b = run("immigration lawyer in Seattle who speaks Spanish", &lawyers);
        assert!(b.unused.iter().any(|u| u.contains("Spanish")), "{b:?}");
    }

    #[test]
    fn a_count_of_operands_a_named_choice_and_the_capability_s_own_name() {
        // "two given numbers" counts the operands; 12 and 15 are them.
        let gcd = CapabilityManifest::new(
            "math.gcd",
            "Calculate the greatest common divisor of the two integers.",
            obj(
                json!({"num1": {"type": "integer", "description": "The first number."},
                       "num2": {"type": "integer", "description": "The second number."}}),
                &["num1", "num2"],
            ),
        );
        let b = run(
            "Calculate the greatest common divisor of two given numbers, for example 12 and 15.",
            &gcd,
        );
        assert_eq!(args(&b)["num1"], json!(12), "{b:?}");
        assert_eq!(args(&b)["num2"], json!(15), "{b:?}");
        let heron = cap(
            "math.triangle_area_heron",
            obj(
                json!({"side1": {"type": "number"}, "side2": {"type": "number"},
                       "side3": {"type": "number"}}),
                &["side1", "side2", "side3"],
            ),
        );
        let b = run(
            "the area of a triangle with its three sides: 3, 4, and 5",
            &heron,
        );
        assert_eq!(args(&b)["side1"], json!(3), "{b:?}");
        assert_eq!(args(&b)["side3"], json!(5), "{b:?}");
        // A name the description lists as a choice ('Celsius' or
        // 'Fahrenheit') is that parameter's.
        let temp = cap(
            "average_temperature",
            obj(
                json!({"location": {"type": "string"}, "days": {"type": "integer"},
                       "temp_unit": {"type": "string",
                                     "description": "The temperature unit ('Celsius' or 'Fahrenheit')."}}),
                &["location", "days"],
            ),
        );
        let b = run(
            "the average temperature in Austin for 3 days in Celsius",
            &temp,
        );
        assert_eq!(args(&b)["temp_unit"], json!("Celsius"), "{b:?}");
        // The capability's own name is no value to drop.
        let imdb = cap(
            "imdb.find_movies_by_actor",
            obj(
                json!({"actor_name": {"type": "string"}, "year": {"type": "integer"}}),
                &["actor_name", "year"],
            ),
        );
        let b = run(
            "Find all movies starring Leonardo DiCaprio in the year 2010 from IMDB database",
            &imdb,
        );
        assert!(b.unused.is_empty(), "{b:?}");
        assert_eq!(args(&b)["actor_name"], json!("Leonardo DiCaprio"), "{b:?}");
    }

    #[test]
    fn third_trial_wrong_values_go_nowhere() {
        // Each goal once planned with a wrong value (helper trial, 120
        // goals over 18 imported operations).
        let loan = cap(
            "loanPayment",
            obj(
                json!({"principal": {"type": "number"},
                       "annual_rate": {"type": "number", "description": "as a decimal"},
                       "years": {"type": "integer"}}),
                &["principal", "annual_rate", "years"],
            ),
        );
        // Two numbers, two roles, nothing says which is which.
        let b = run("loan of 20000 at 5 over 5 years", &loan);
        assert!(b.unused.iter().any(|u| u.contains("is not said")), "{b:?}");
        let tip = cap(
            "tipCalculator",
            obj(
                json!({"bill": {"type": "number"},
                       "tip_percent": {"type": "integer"},
                       "split": {"type": "integer", "description": "How many people share the bill"}}),
                &["bill", "tip_percent"],
            ),
        );
        let b = run("calculate an 18% tip on $120 split between 4 people", &tip);
        assert_ne!(args(&b).get("split"), Some(&json!(120)), "{b:?}");
        assert_ne!(args(&b).get("bill"), Some(&json!(4)), "{b:?}");
        // No whole percent: refused, never a float for an integer.
        let b = run("a 12.5% tip on $80", &tip);
        assert_eq!(args(&b).get("tip_percent"), None, "{b:?}");
        let songs = CapabilityManifest::new(
            "searchSongs",
            "Search songs by title, artist or genre.",
            obj(
                json!({"title": {"type": "string"}, "artist": {"type": "string"},
                       "genre": {"type": "string"}}),
                &[],
            ),
        );
        let b = run("jazz or blues songs", &songs);
        assert_eq!(args(&b).get("genre"), None, "{b:?}");
        let doctors = cap(
            "findDoctors",
            obj(
                json!({"specialty": {"type": "string"}, "city": {"type": "string"}}),
                &["specialty", "city"],
            ),
        );
        let b = run("find Samsung TVs", &doctors);
        assert_eq!(args(&b).get("city"), None, "{b:?}");
        let products = cap(
            "searchProducts",
            obj(
                json!({"query": {"type": "string"}, "brand": {"type": "string"},
                       "max_price": {"type": "number"}}),
                &["query"],
            ),
        );
        let b = run(
            "search products for headphones by Sony under $200",
            &products,
        );
        assert_eq!(args(&b)["query"], json!("headphones"), "{b:?}");
    }

    #[test]
    fn fourth_trial_wrong_values_go_nowhere() {
        // Each goal once planned with a wrong value (helper trial, 120
        // goals over 17 imported operations).
        let listings = cap(
            "searchListings",
            obj(
                json!({"city": {"type": "string"},
                       "min_bedrooms": {"type": "integer", "description": "Minimum number of bedrooms"},
                       "max_price": {"type": "number"},
                       "property_type": {"type": "string", "enum": ["house", "apartment", "condo"]}}),
                &["city"],
            ),
        );
        // A count of houses is no price cap and no count of bedrooms.
        let b = run("find 3 houses in Austin", &listings);
        assert_eq!(args(&b).get("max_price"), None, "{b:?}");
        assert_eq!(args(&b).get("min_bedrooms"), None, "{b:?}");
        assert_eq!(args(&b)["property_type"], json!("house"), "{b:?}");
        let b = run(
            "find 3 bedroom houses in Austin under 500000 dollars",
            &listings,
        );
        assert_eq!(args(&b)["min_bedrooms"], json!(3), "{b:?}");
        assert_eq!(args(&b)["max_price"], json!(500000), "{b:?}");
        // Plain words listed are no ids.
        let recipe = cap(
            "getRecipe",
            obj(json!({"recipe_id": {"type": "string"}}), &["recipe_id"]),
        );
        let b = run("find recipes with eggs, flour and milk", &recipe);
        assert_eq!(args(&b).get("recipe_id"), None, "{b:?}");
        assert_eq!(b.fan_out, None, "{b:?}");
        // A number is no name.
        let stats = cap(
            "getPlayerStats",
            obj(
                json!({"player_name": {"type": "string"}, "season": {"type": "string"}}),
                &["player_name"],
            ),
        );
        let b = run("get stats for player 23", &stats);
        assert_eq!(args(&b).get("player_name"), None, "{b:?}");
    }

    #[test]
    fn fifth_trial_wrong_values_go_nowhere() {
        let books = cap(
            "searchBooks",
            obj(
                json!({"title": {"type": "string", "description": "Title of the book"},
                       "author": {"type": "string"}, "year": {"type": "integer"}}),
                &[],
            ),
        );
        // The opening verb is no title, and "book 42" no year.
        for goal in ["Borrow book 42", "Return the book", "Renew book 42"] {
            let b = run(goal, &books);
            assert_eq!(args(&b).get("title"), None, "{goal}: {b:?}");
            assert_eq!(args(&b).get("year"), None, "{goal}: {b:?}");
        }
        let food = cap(
            "searchRestaurants",
            obj(
                json!({"cuisine": {"type": "string", "description": "Type of cuisine, e.g. Italian, Thai"},
                       "city": {"type": "string"}}),
                &["cuisine", "city"],
            ),
        );
        let b = run("Italian restaurants in Rome", &food);
        assert_eq!(args(&b)["cuisine"], json!("Italian"), "{b:?}");
        let b = run("Find books from 1986", &books);
        assert_eq!(args(&b)["year"], json!(1986), "{b:?}");
        // A choice in another case is that choice.
        let temp = cap(
            "convertTemperature",
            obj(
                json!({"value": {"type": "number"},
                       "to_scale": {"type": "string", "enum": ["celsius", "fahrenheit"]}}),
                &["value", "to_scale"],
            ),
        );
        let b = run("convert 100 to Fahrenheit", &temp);
        assert_eq!(args(&b)["to_scale"], json!("fahrenheit"), "{b:?}");
        // A modal is a first name inside a name.
        let b = run("Find books by the author Will Smith in 2010", &books);
        assert_eq!(args(&b)["author"], json!("Will Smith"), "{b:?}");
    }

    #[test]
    fn a_switch_the_goal_names_is_on_unless_said_off() {
        let forecast = cap(
            "forest_growth_forecast",
            obj(
                json!({"location": {"type": "string"}, "years": {"type": "integer"},
                       "include_human_impact": {"type": "boolean"}}),
                &["location", "years"],
            ),
        );
        let b = run(
            "predict the growth of forest in Yellowstone for the next 5 years including human impact",
            &forecast,
        );
        assert_eq!(args(&b)["include_human_impact"], json!(true), "{b:?}");
        // Said off, or a word of a stated value: not on (attack trial).
        for goal in [
            "predict the growth of forest in Yellowstone for the next 5 years, human impact off",
            "predict the growth of forest in Yellowstone for the next 5 years without human impact",
            "predict the growth of forest in Human Impact for the next 5 years",
        ] {
            let b = run(goal, &forecast);
            assert_ne!(
                args(&b)["include_human_impact"],
                json!(true),
                "{goal}: {b:?}"
            );
        }
    }

    #[test]
    fn a_search_query_is_its_topic_without_labels_and_places() {
        let books = cap(
            "search_books",
            obj(
                json!({"q": {"type": "string", "description": "search query"},
                       "limit": {"type": "integer", "description": "how many results"}}),
                &["q"],
            ),
        );
        for goal in [
            "search books about cats, limit 2",
            "search books about cats, with a limit of 2",
            "search books about cats (limit 2)",
        ] {
            let b = run(goal, &books);
            assert_eq!(args(&b), json!({"q": "cats", "limit": 2}), "{goal}: {b:?}");
        }
        // A place after the topic is not the query (it was q="French").
        let b = run("search books about cats in French", &books);
        assert_ne!(args(&b)["q"], json!("French"), "{b:?}");
        assert!(!b.complete() || args(&b)["q"].as_str().is_some_and(|q| q.contains("cats")));
    }

    #[test]
    fn quantities_in_mixed_units_are_not_plain_numbers() {
        let triangle = CapabilityManifest::new(
            "triangle_area",
            "The area of a triangle from its base and height",
            obj(
                json!({"base": {"type": "number", "description": "The base length"},
                       "height": {"type": "number", "description": "The height length"}}),
                &["base", "height"],
            ),
        );
        let b = run(
            "the area of a triangle with base 10 cm and height 50 mm",
            &triangle,
        );
        assert!(!b.complete(), "{b:?}");
        let b = run(
            "the area of a triangle with base 10 cm and height 5 cm",
            &triangle,
        );
        assert!(b.complete(), "{b:?}");
        assert_eq!(args(&b), json!({"base": 10, "height": 5}));
    }

    #[test]
    fn a_language_after_into_is_the_target() {
        let tr = cap(
            "translateText",
            obj(
                json!({"text": {"type": "string", "description": "Text to translate"},
                       "source_language": {"type": "string", "description": "Source language"},
                       "target_language": {"type": "string", "description": "Target language"}}),
                &["text"],
            ),
        );
        for (goal, want) in [
            (
                "translate 'hello world' into French",
                json!({"text": "hello world", "target_language": "French"}),
            ),
            (
                "translate 'hola' from Spanish to English",
                json!({"text": "hola", "source_language": "Spanish", "target_language": "English"}),
            ),
            (
                "translate 'hello world' into Spanish language",
                json!({"text": "hello world", "target_language": "Spanish"}),
            ),
        ] {
            let b = run(goal, &tr);
            assert!(b.unused.is_empty(), "{goal}: {b:?}");
            assert_eq!(args(&b), want, "{goal}");
        }
    }

    #[test]
    fn a_nationality_is_a_kind_never_a_name() {
        let restaurants = cap(
            "searchRestaurants",
            obj(
                json!({"city": {"type": "string"},
                       "cuisine": {"type": "string", "description": "Cuisine, e.g. Italian, Japanese"},
                       "restaurant_name": {"type": "string", "description": "Restaurant name"}}),
                &["city"],
            ),
        );
        for goal in [
            "find Italian restaurants in Rome",
            "find an Italian restaurant in Rome",
        ] {
            let b = run(goal, &restaurants);
            assert!(b.complete(), "{goal}: {b:?}");
            assert_eq!(
                args(&b),
                json!({"city": "Rome", "cuisine": "Italian"}),
                "{goal}"
            );
        }
        // No parameter takes a nationality: never a genre, nor a title.
        let movies = cap(
            "getTrendingMovies",
            obj(json!({"genre": {"type": "string"}}), &[]),
        );
        let b = run("trending French movies", &movies);
        assert!(!b.complete() && b.args.is_empty(), "{b:?}");
    }

    #[test]
    fn a_name_a_preposition_places_is_no_title_kind_or_own_name() {
        let shows = cap(
            "searchShows",
            obj(
                json!({"title": {"type": "string"}, "genre": {"type": "string"},
                       "network": {"type": "string"}}),
                &[],
            ),
        );
        let b = run("find the show Slow Horses on Apple TV", &shows);
        assert_eq!(
            args(&b),
            json!({"title": "Slow Horses", "network": "Apple TV"}),
            "{b:?}"
        );
        // With whom: no network, no genre, no title.
        let b = run("shows with Bryan Cranston", &shows);
        assert!(!b.complete(), "{b:?}");
        let players = cap(
            "searchPlayers",
            obj(
                json!({"name": {"type": "string", "description": "Player name"},
                       "team": {"type": "string"}}),
                &[],
            ),
        );
        let b = run("find players on the Kansas City Chiefs", &players);
        assert_eq!(args(&b), json!({"team": "Kansas City Chiefs"}), "{b:?}");
        // A venue by its name after "at"; an airline after "with".
        let hotel = cap(
            "bookHotel",
            obj(
                json!({"hotel_name": {"type": "string"}, "location": {"type": "string"}}),
                &["hotel_name", "location"],
            ),
        );
        let b = run("book a room at the Hilton Hotel in Chicago", &hotel);
        assert_eq!(
            args(&b),
            json!({"hotel_name": "Hilton Hotel", "location": "Chicago"}),
            "{b:?}"
        );
        let flight = cap(
            "bookFlight",
            obj(json!({"airline": {"type": "string"}}), &["airline"]),
        );
        let b = run("book a flight with American Airlines", &flight);
        assert_eq!(args(&b), json!({"airline": "American Airlines"}), "{b:?}");
        // A person's parameter takes "by" a person; "about" is no author;
        // words with spaces are no identifier.
        let books = cap(
            "searchBooks",
            obj(
                json!({"title": {"type": "string"},
                       "author": {"type": "string", "description": "Author name"},
                       "publisher": {"type": "string"}}),
                &[],
            ),
        );
        let b = run("find the book East of Eden by John Steinbeck", &books);
        assert_eq!(
            args(&b),
            json!({"title": "East of Eden", "author": "John Steinbeck"}),
            "{b:?}"
        );
        let b = run("find books about the French Revolution", &books);
        assert!(b.args.iter().all(|a| a.param != "author"), "{b:?}");
        let by_isbn = cap(
            "getBookByIsbn",
            obj(json!({"isbn": {"type": "string"}}), &["isbn"]),
        );
        let b = run("find books about the French Revolution", &by_isbn);
        assert!(!b.doubts.is_empty(), "{b:?}");
        // When, not which: a date after "after" is no `due_before`; a year
        // no round.
        let tasks = cap(
            "listTasks",
            obj(
                json!({"due_before": {"type": "string", "format": "date"}}),
                &[],
            ),
        );
        let b = run("tasks due after 2024-06-01", &tasks);
        assert!(b.args.is_empty() && !b.complete(), "{b:?}");
        // ... nor an exact date or year; a bound takes it.
        let events = cap(
            "searchEvents",
            obj(
                json!({"date": {"type": "string", "format": "date"},
                       "year": {"type": "integer"}}),
                &[],
            ),
        );
        for goal in ["events after 2024-05-01", "events before 2000"] {
            let b = run(goal, &events);
            assert!(b.args.is_empty() && !b.complete(), "{goal}: {b:?}");
        }
        let ranged = cap(
            "searchConcerts",
            obj(
                json!({"date_from": {"type": "string", "format": "date"},
                       "date_to": {"type": "string", "format": "date"}}),
                &[],
            ),
        );
        let b = run("concerts after 2024-05-01", &ranged);
        assert_eq!(args(&b), json!({"date_from": "2024-05-01"}), "{b:?}");
        let golf = cap(
            "getGolferScores",
            obj(
                json!({"tournament": {"type": "string"}, "round": {"type": "integer"}}),
                &[],
            ),
        );
        let b = run("golf scores at The Masters in 1997", &golf);
        assert!(b.args.iter().all(|a| a.param != "round"), "{b:?}");
        // A company's name is no ticker symbol.
        let stocks = cap(
            "getStockPrice",
            obj(json!({"symbol": {"type": "string"}}), &["symbol"]),
        );
        assert!(!run("stock price of Netflix", &stocks).doubts.is_empty());
        assert_eq!(
            args(&run("stock price of NFLX", &stocks)),
            json!({"symbol": "NFLX"})
        );
        // "on" a topic, when nothing else is said "on".
        let events = cap(
            "getEventInfo",
            obj(json!({"event_name": {"type": "string"}}), &["event_name"]),
        );
        let b = run("get information on the American Civil War", &events);
        assert_eq!(
            args(&b),
            json!({"event_name": "American Civil War"}),
            "{b:?}"
        );
    }

    #[test]
    fn a_value_goes_where_its_own_noun_says() {
        let updates = cap(
            "games.update.find",
            obj(
                json!({"game": {"type": "string"}, "platform": {"type": "string"}, "region": {"type": "string"}}),
                &["game", "platform", "region"],
            ),
        );
        let b = run(
            "find the latest updates for the game 'Call of Duty' on the 'Playstation' platform for the 'European' region",
            &updates,
        );
        // Each value goes where its own noun says.
        assert!(b.complete() && b.unused.is_empty(), "{b:?}");
        assert_eq!(
            args(&b),
            json!({"game": "Call of Duty", "platform": "Playstation", "region": "European"})
        );
        // "including" is no noun of the team's: the team is whole.
        let latest = cap(
            "team_score.get_latest",
            obj(
                json!({"team": {"type": "string"}, "include_opponent": {"type": "boolean"}}),
                &["team"],
            ),
        );
        let b = run(
            "Find the score of the game for Los Angeles Lakers including its opponent name",
            &latest,
        );
        assert!(
            !b.unused.iter().any(|u| u.contains("it is said of")),
            "{b:?}"
        );
        // "Tokyo time" names a time zone.
        let convert = cap(
            "convert_time",
            obj(
                json!({"source_timezone": {"type": "string"}, "time": {"type": "string"}, "target_timezone": {"type": "string"}}),
                &["source_timezone", "time", "target_timezone"],
            ),
        );
        let b = run("convert 09:30 Tokyo time to India time", &convert);
        assert!(b.unused.is_empty(), "{b:?}");
        // The noun labels the value after it: "Fortnite" qualifies it.
        let stats = cap(
            "getPlayerStats",
            obj(
                json!({"game": {"type": "string"}, "player": {"type": "string"}}),
                &["game", "player"],
            ),
        );
        let b = run("Look up stats for Fortnite player Ninja", &stats);
        assert!(
            !b.unused.iter().any(|u| u.contains("it is said of")),
            "{b:?}"
        );
    }

    #[test]
    fn a_count_of_bodies_is_no_quantity_of_charge() {
        let potential = CapabilityManifest::new(
            "calculate_electrostatic_potential",
            "Calculate the electrostatic potential between two charged bodies.",
            obj(
                json!({"charge1": {"type": "number", "description": "The quantity of charge on the first body."},
                       "charge2": {"type": "number", "description": "The quantity of charge on the second body."},
                       "distance": {"type": "number", "description": "The distance between the two bodies."}}),
                &["charge1", "charge2", "distance"],
            ),
        );
        let b = run(
            "the electrostatic potential between two charged bodies of 1e-9 and 2e-9 of distance 0.05",
            &potential,
        );
        assert_ne!(args(&b)["charge1"], json!(2), "{b:?}");
        assert!(
            !args(&b)
                .as_object()
                .is_some_and(|a| a.values().any(|v| v == &json!(2))),
            "{b:?}"
        );
    }

    #[test]
    fn an_email_goes_to_its_address_and_a_name_never_does() {
        let send = CapabilityManifest::new(
            "send_email",
            "Send an email to the specified email address.",
            obj(
                json!({"to": {"type": "string", "description": "The email address to send to."},
                       "subject": {"type": "string", "description": "The subject of the email."},
                       "body": {"type": "string", "description": "The body content of the email."},
                       "bcc": {"type": "string", "description": "The email address to blind carbon copy."}}),
                &["to", "subject", "body"],
            ),
        );
        let b = run(
            "Send an email to John Doe at john.doe@example.com with the subject 'Meeting' and body 'Hi'",
            &send,
        );
        assert!(b.complete(), "{b:?}");
        assert_eq!(
            args(&b),
            json!({"to": "john.doe@example.com", "subject": "Meeting", "body": "Hi"})
        );
        // No address stated: the name is no address, and a doubt (no
        // other capability is tried for it).
        let b = run(
            "Send an email to John Doe with the subject 'Meeting' and body 'Hi'",
            &send,
        );
        assert!(!b.complete() && !b.doubts.is_empty(), "{b:?}");
        assert_ne!(args(&b)["to"], json!("John Doe"), "{b:?}");
        // Attack trial: the addressee's name became the subject, and a
        // second address a blind copy.
        let b = run(
            "Send an email to John Doe at john.doe@example.com with subject 'Hello' and body 'Hi'",
            &send,
        );
        assert_eq!(
            args(&b),
            json!({"to": "john.doe@example.com", "subject": "Hello", "body": "Hi"}),
            "{b:?}"
        );
        let b = run(
            "Send an email to John Doe at john.doe@example.com with subject Hello and body 'Hi'",
            &send,
        );
        assert!(!b.complete(), "{b:?}");
        let b = run(
            "Send an email to Alice at alice@example.com and Bob at bob@example.com with the subject 'Meeting' and body 'Hi'",
            &send,
        );
        assert!(!b.complete(), "{b:?}");
        let b = run(
            "Send an email to alice@example.com and bob@example.com",
            &send,
        );
        assert!(!b.complete(), "{b:?}");
        assert!(!args(&b).to_string().contains("bob@"), "{b:?}");
        let b = run(
            "Send an email to alice@example.com and bcc bob@example.com with the subject 'Meeting' and body 'Hi'",
            &send,
        );
        assert_eq!(args(&b)["bcc"], json!("bob@example.com"), "{b:?}");
    }

    #[test]
    fn a_quantitys_unit_goes_to_the_unit_parameter() {
        // Attack trial: "a radius of 5 feet" passed 5 and the capability
        // read it in its default unit, meters.
        let area = CapabilityManifest::new(
            "geometry.area_circle",
            "Calculate the area of a circle given the radius.",
            obj(
                json!({"radius": {"type": "integer", "description": "The radius of the circle."},
                       "units": {"type": "string", "description": "The units in which the radius is measured (defaults to meters)."}}),
                &["radius"],
            ),
        );
        let b = run("the area of a circle with a radius of 5 feet", &area);
        assert!(b.complete(), "{b:?}");
        assert_eq!(args(&b), json!({"radius": 5, "units": "feet"}));
        let b = run("the area of a circle with a radius of 5cm", &area);
        assert_eq!(args(&b), json!({"radius": 5, "units": "cm"}));
        // The exponent is the number's, not the unit's.
        let b = run("the area of a circle with a radius of 1e3 m", &area);
        assert_eq!(args(&b), json!({"radius": 1000, "units": "m"}));
        // A bare number says no unit.
        let b = run("the area of a circle with a radius of 5", &area);
        assert_eq!(args(&b), json!({"radius": 5}));
        // A unit among the parameter's choices is passed as that choice;
        // one that is none of them is no value to pass.
        let choice = CapabilityManifest::new(
            "circumference",
            "The circumference of a circle.",
            obj(
                json!({"radius": {"type": "number", "description": "The radius."},
                       "unit": {"type": "string", "description": "The unit of the radius.", "enum": ["meter", "centimeter"]}}),
                &["radius"],
            ),
        );
        let b = run(
            "the circumference of a circle with a radius of 5cm",
            &choice,
        );
        assert_eq!(args(&b), json!({"radius": 5, "unit": "centimeter"}));
        let b = run(
            "the circumference of a circle with a radius of 5 feet",
            &choice,
        );
        assert!(!b.complete(), "{b:?}");
        // A unit parameter of the result or a system of measurement is
        // not the unit of a value stated.
        let density = CapabilityManifest::new(
            "calculate_density",
            "Calculate the density of a substance.",
            obj(
                json!({"mass": {"type": "number", "description": "The mass in kilograms."},
                       "volume": {"type": "number", "description": "The volume in cubic meters."},
                       "unit": {"type": "string", "description": "The unit of density. Default is kg/m3"}}),
                &["mass", "volume"],
            ),
        );
        let b = run(
            "the density of a substance with a mass of 45 kg and a volume of 15",
            &density,
        );
        assert_eq!(args(&b), json!({"mass": 45, "volume": 15}));
    }

    #[test]
    fn a_count_of_things_is_none_of_them() {
        let hypot = cap(
            "math.hypot",
            obj(
                json!({"x": {"type": "integer"}, "y": {"type": "integer"}, "z": {"type": "integer"}}),
                &["x", "y"],
            ),
        );
        let b = run(
            "the hypotenuse of a right triangle given the lengths of the other two sides as 4 and 5",
            &hypot,
        );
        assert_eq!(args(&b)["x"], json!(4), "{b:?}");
        assert_eq!(args(&b)["y"], json!(5), "{b:?}");
        assert!(args(&b).get("z").is_none(), "{b:?}");
        let cities = CapabilityManifest::new(
            "find_shortest",
            "the shortest distance between two cities",
            obj(
                json!({"start_city": {"type": "string"}, "end_city": {"type": "string"}}),
                &["start_city", "end_city"],
            ),
        );
        let b = run(
            "the shortest distance between two cities, New York and Los Angeles",
            &cities,
        );
        assert_eq!(
            args(&b),
            json!({"start_city": "New York", "end_city": "Los Angeles"}),
            "{b:?}"
        );
        // A parameter that counts them takes the count.
        let dice = cap(
            "roll",
            obj(
                json!({"number_of_dice": {"type": "integer"}}),
                &["number_of_dice"],
            ),
        );
        assert_eq!(
            args(&run("roll two dice", &dice)),
            json!({"number_of_dice": 2})
        );
        let forest = cap(
            "random_forest",
            obj(
                json!({"n_estimators": {"type": "integer", "description": "The number of trees"}}),
                &["n_estimators"],
            ),
        );
        assert_eq!(
            args(&run("a random forest with 100 trees", &forest)),
            json!({"n_estimators": 100})
        );
    }

    #[test]
    fn between_two_values_fills_a_pair_in_order() {
        let diff = cap(
            "get_time_difference",
            obj(
                json!({"place1": {"type": "string"}, "place2": {"type": "string"}}),
                &["place1", "place2"],
            ),
        );
        let b = run(
            "What's the time difference between San Francisco and Sydney?",
            &diff,
        );
        assert!(b.complete(), "{b:?}");
        assert_eq!(
            args(&b),
            json!({"place1": "San Francisco", "place2": "Sydney"})
        );
        let distance = CapabilityManifest::new(
            "distance",
            "Calculate the distance between two locations",
            obj(
                json!({"origin": {"type": "string"}, "destination": {"type": "string"},
                       "consider_terrain": {"type": "boolean"}}),
                &["origin", "destination"],
            ),
        );
        let b = run("Find the distance between New York and Boston", &distance);
        assert!(b.complete(), "{b:?}");
        assert_eq!(
            args(&b),
            json!({"origin": "New York", "destination": "Boston"})
        );
        // Which way is not said: a start and an end only for a relation
        // the capability calls one "between" two things, and never for
        // one that changes something.
        let convert = cap(
            "convert_currency",
            obj(
                json!({"from_currency": {"type": "string"}, "to_currency": {"type": "string"}}),
                &["from_currency", "to_currency"],
            ),
        );
        assert!(
            between_pair(
                "convert between USD and EUR",
                &mentions("convert between USD and EUR").unwrap(),
                &params_of(&convert).0,
                &[0, 1],
                &convert
            )
            .is_empty()
        );
        // Numbers, times and dates are no places (attack trial).
        for goal in [
            "the time difference between 2 and 5",
            "the time difference between 9am and 5pm",
            "the time difference between 2025-01-01 and 2025-03-01",
        ] {
            let b = run(goal, &diff);
            assert!(!b.complete(), "{goal}: {b:?}");
        }
        // Two pairs: which is meant is not said.
        let two = CapabilityManifest::new(
            "two_pairs",
            "the gap between two points",
            obj(
                json!({"a1": {"type": "string"}, "a2": {"type": "string"},
                       "start": {"type": "string"}, "end": {"type": "string"}}),
                &[],
            ),
        );
        assert!(
            between_pair(
                "the gap between Paris and Rome",
                &mentions("the gap between Paris and Rome").unwrap(),
                &params_of(&two).0,
                &[0, 1, 2, 3],
                &two
            )
            .is_empty()
        );
    }

    #[test]
    fn a_place_put_in_a_kind_on_no_evidence_is_refused() {
        let booking = cap(
            "lodge.reserve",
            obj(
                json!({"location": {"type": "string", "description": "Where the lodge is."},
                       "cabin_type": {"type": "string", "description": "Type of the cabin."},
                       "nights": {"type": "integer", "description": "Number of nights."}}),
                &["location", "cabin_type", "nights"],
            ),
        );
        // Before: `cabin_type: "New York"`, exit 0.
        let b = run(
            "reserve a cabin for 3 nights at the Pine lodge in New York",
            &booking,
        );
        assert!(args(&b).get("cabin_type").is_none(), "{b:?}");
        assert!(b.unused.iter().any(|u| u.contains("New York")), "{b:?}");
    }

    #[test]
    fn a_day_or_time_goes_only_into_a_time() {
        let tickets = cap(
            "showtime.findTickets",
            obj(
                json!({"show": {"type": "string", "description": "The show."},
                       "city": {"type": "string", "description": "The city."}}),
                &["show"],
            ),
        );
        // Before: `{:show "Saturday" :city "London"}`, exit 0.
        let b = run("Find tickets for Saturday in London", &tickets);
        assert!(args(&b).get("show").is_none(), "{b:?}");
        assert!(b.unused.iter().any(|u| u.contains("Saturday")), "{b:?}");
    }

    #[test]
    fn well_known_places_are_written_out() {
        for p in ["Peru", "Detroit", "Texas", "New York", "Brazil"] {
            assert!(is_well_known_place(p), "{p}");
        }
        for p in ["French", "Christmas", "MX", "OR", "Easter", "Latin"] {
            assert!(!is_well_known_place(p), "{p}");
        }
    }

    #[test]
    fn a_topic_is_what_the_search_is_about() {
        let courses = cap(
            "coursefinder.findCourses",
            obj(
                json!({"subject": {"type": "string", "description": "Subject to study"},
                       "university": {"type": "string", "description": "The university"}}),
                &["subject"],
            ),
        );
        // Before: `{:subject "physics courses at"}`.
        let b = run("Find physics courses at Stanford University", &courses);
        assert_eq!(args(&b)["subject"], json!("physics"), "{b:?}");
    }

    #[test]
    fn a_state_is_no_city_and_a_name_no_address() {
        let hotels = cap(
            "lodging.searchHotels",
            obj(
                json!({"city": {"type": "string", "description": "The city."}}),
                &["city"],
            ),
        );
        // Before: `{:city "Texas"}`.
        let b = run("Find hotels in Texas", &hotels);
        assert!(args(&b).get("city").is_none(), "{b:?}");
        assert!(b.doubts.iter().any(|d| d.contains("Texas")), "{b:?}");
        for city in ["New York", "Washington"] {
            let b = run(&format!("Find hotels in {city}"), &hotels);
            assert_eq!(args(&b).get("city"), Some(&json!(city)), "{b:?}");
        }
        let get = cap(
            "net.get",
            obj(
                json!({"url": {"type": "string", "format": "uri", "description": "The URL."}}),
                &["url"],
            ),
        );
        // Before: `{:url "New England Patriots"}`.
        let b = run("Get data for the New England Patriots", &get);
        assert!(args(&b).get("url").is_none(), "{b:?}");
        assert!(!b.doubts.is_empty(), "{b:?}");
    }

    #[test]
    fn min_in_a_name_is_a_minimum_not_minutes() {
        let ledger = cap(
            "ledger.listTransactions",
            obj(
                json!({"min_amount": {"type": "number", "description": "Minimum amount"}}),
                &[],
            ),
        );
        // Before: `{:min_amount 7200}` (5 days in minutes).
        let b = run("List my transactions of the last 5 days", &ledger);
        assert!(args(&b).get("min_amount").is_none(), "{b:?}");
    }

    #[test]
    fn a_name_abbreviating_the_capability_s_names_it() {
        let president = cap(
            "UK_monarch.in_year",
            obj(
                json!({"year": {"type": "integer", "description": "The year."}}),
                &["year"],
            ),
        );
        assert!(abbreviates_its_name("U.K.", &president));
        for name in ["United Kingdom", "Ukraine", "United States", "K", "U.S."] {
            assert!(!abbreviates_its_name(name, &president), "{name}");
        }
        let b = run("who was the monarch of the U.K. in 1850?", &president);
        assert!(b.complete() && b.unused.is_empty(), "{b:?}");
    }

    #[test]
    fn found_in_trials_on_bfcl_dev() {
        // "in" names no parameter (`check_in_date` once took "Germany").
        let hotel = cap(
            "hotel_booking.check_availability",
            obj(
                json!({"hotel_name": {"type": "string", "description": "The name of the hotel."},
                       "location": {"type": "string", "description": "The location of the hotel."},
                       "check_in_date": {"type": "string", "description": "The check-in date."}}),
                &["hotel_name", "location"],
            ),
        );
        let b = run(
            "Check the availability for 'Queens Hotel' in Berlin, Germany",
            &hotel,
        );
        assert_eq!(
            args(&b),
            json!({"hotel_name": "Queens Hotel", "location": "Berlin, Germany"}),
            "{b:?}"
        );
        // A base raised to an exponent.
        let power = cap(
            "math.power",
            obj(
                json!({"base": {"type": "integer"}, "exponent": {"type": "integer"},
                       "mod": {"type": "integer", "description": "The modulus. Default is 1."}}),
                &["base", "exponent"],
            ),
        );
        for (goal, base, exponent) in [
            ("Calculate the power of 3 raised to the power 4.", 3, 4),
            ("raise the number 3 to the power of 5", 3, 5),
            ("calculate the power of 7 raised to 3", 7, 3),
        ] {
            let b = run(goal, &power);
            assert!(b.complete(), "{goal}: {b:?}");
            assert_eq!(
                args(&b),
                json!({"base": base, "exponent": exponent}),
                "{goal}"
            );
        }
        // Who acts after "by" is not the thing itself (attack trial:
        // "the last match of the club managed by Arne Slot").
        let last = cap(
            "soccer.get_last_match",
            obj(
                json!({"team_name": {"type": "string", "description": "The name of the soccer club."}}),
                &["team_name"],
            ),
        );
        let b = run("the last match of the club managed by Arne Slot", &last);
        assert!(args(&b).get("team_name").is_none(), "{b:?}");
        // Two places, each with its region.
        let geo = cap(
            "geo_distance.calculate",
            obj(
                json!({"start_location": {"type": "string", "description": "The starting location."},
                       "end_location": {"type": "string", "description": "The destination location."}}),
                &["start_location", "end_location"],
            ),
        );
        let b = run(
            "the distance between Boston, MA, and Washington, D.C. in miles",
            &geo,
        );
        assert_eq!(
            args(&b),
            json!({"start_location": "Boston, MA", "end_location": "Washington, D.C."}),
            "{b:?}"
        );
    }

    #[test]
    fn currencies_go_where_a_currency_is_named_as_codes() {
        let convert = cap(
            "currency_conversion.convert",
            obj(
                json!({"amount": {"type": "integer", "description": "The amount to be converted."},
                       "from_currency": {"type": "string", "description": "The currency to convert from."},
                       "to_currency": {"type": "string", "description": "The currency to convert to."}}),
                &["amount", "from_currency", "to_currency"],
            ),
        );
        for goal in [
            "Convert 150 Euros to Canadian dollars.",
            "convert 150 EUR into CAD",
            "convert from euros to Canadian dollars an amount of 150",
        ] {
            let b = run(goal, &convert);
            assert!(b.complete(), "{goal}: {b:?}");
            assert_eq!(
                args(&b),
                json!({"amount": 150, "from_currency": "EUR", "to_currency": "CAD"}),
                "{goal}"
            );
        }
        // No currency parameter: the currency of an amount may go unused,
        // a currency named for itself is dropped.
        let deposit = cap(
            "bank.deposit",
            obj(
                json!({"account": {"type": "string"}, "amount": {"type": "number"}}),
                &["account", "amount"],
            ),
        );
        let b = run("deposit 10 dollars into account 'A-1'", &deposit);
        assert!(b.complete() && b.unused.is_empty(), "{b:?}");
        let b = run("deposit 10 into account 'A-1' in euros", &deposit);
        assert!(!b.unused.is_empty(), "{b:?}");
    }

    #[test]
    fn a_list_of_choices_takes_every_choice_named_and_no_denied_one() {
        let directions = cap(
            "map_service.get_directions",
            obj(
                json!({"start": {"type": "string", "description": "Starting location."},
                       "end": {"type": "string", "description": "Ending location."},
                       "avoid": {"type": "array", "items": {"type": "string", "enum": ["tolls", "highways", "ferries"]},
                                 "description": "Route features to avoid."}}),
                &["start", "end"],
            ),
        );
        let b = run(
            "directions from New York to Los Angeles avoiding highways and toll roads",
            &directions,
        );
        // ("toll roads": whether "toll" qualifies "roads" is not clear.)
        assert!(
            args(&b).get("avoid").is_none() && !b.unused.is_empty(),
            "{b:?}"
        );
        let b = run(
            "directions from New York to Los Angeles avoiding highways and tolls",
            &directions,
        );
        assert_eq!(args(&b)["avoid"], json!(["highways", "tolls"]), "{b:?}");
        // A choice of a list that leaves things out needs a word saying so.
        let b = run(
            "directions from New York to Los Angeles using highways",
            &directions,
        );
        assert!(args(&b).get("avoid").is_none(), "{b:?}");
        let b = run(
            "directions from New York to Los Angeles without ferries",
            &directions,
        );
        assert_eq!(args(&b)["avoid"], json!(["ferries"]), "{b:?}");
        // A choice placed elsewhere is in doubt: refused, never dropped.
        let b = run(
            "directions from New York to the ferries avoiding highways",
            &directions,
        );
        assert!(
            args(&b).get("avoid").is_none() && !b.unused.is_empty(),
            "{b:?}"
        );
        // A word serves one choice, the longest first.
        let shop = cap(
            "music_shop.find_nearby",
            obj(
                json!({"location": {"type": "string"},
                       "services": {"type": "array", "items": {"type": "string", "enum": ["Guitar Lessons", "Violin Lessons"]}},
                       "instruments": {"type": "array", "items": {"type": "string", "enum": ["Guitars", "Violins"]}}}),
                &["location"],
            ),
        );
        let b = run(
            "Find a local guitar shop that also offers violin lessons in Nashville.",
            &shop,
        );
        assert_eq!(args(&b)["services"], json!(["Violin Lessons"]), "{b:?}");
        assert_eq!(args(&b)["instruments"], json!(["Guitars"]), "{b:?}");
    }

    #[test]
    fn a_place_takes_its_region_and_a_list_stays_a_list() {
        let weather = cap(
            "get_current_weather",
            obj(
                json!({"location": {"type": "string", "description": "The city and state"}}),
                &["location"],
            ),
        );
        for (goal, place) in [
            ("the weather in Seattle, Washington?", "Seattle, Washington"),
            ("the weather in Paris, France", "Paris, France"),
            ("the weather in New York, New York", "New York, New York"),
        ] {
            let b = run(goal, &weather);
            assert!(b.complete(), "{goal}: {b:?}");
            assert_eq!(args(&b), json!({ "location": place }), "{goal}");
        }
        // A capitalised word after a comma is a region only when it names
        // one (attack trial: "Boston, Monday", "Smith, John").
        for goal in [
            "the weather in Boston, Monday",
            "the weather in Boston, Chicago",
            "the weather in Smith, John",
        ] {
            let b = run(goal, &weather);
            let joined = args(&b)["location"]
                .as_str()
                .is_some_and(|l| l.contains(','));
            assert!(!joined, "{goal}: {b:?}");
        }
        // Three places are no place and its region.
        let b = run("the weather in Boston, Chicago and Denver", &weather);
        assert_ne!(args(&b)["location"], json!("Boston, Chicago"), "{b:?}");
        // A parameter that takes no place never takes the region: the time
        // in a zone is not the time in "Paris, Texas".
        let zone = cap(
            "time_now",
            obj(json!({"timezone": {"type": "string"}}), &["timezone"]),
        );
        let b = run("what time is it in Paris, Texas", &zone);
        assert!(!b.complete(), "{b:?}");
        // A region another parameter takes stays there.
        let tax = cap(
            "sales_tax",
            obj(
                json!({"city": {"type": "string"}, "state": {"type": "string"}}),
                &["city", "state"],
            ),
        );
        let b = run("the sales tax in Chicago, Illinois", &tax);
        assert!(b.complete(), "{b:?}");
        assert_eq!(
            args(&b),
            json!({"city": "Chicago", "state": "Illinois"}),
            "{b:?}"
        );
        let clock = cap(
            "get_current_time",
            obj(
                json!({"city": {"type": "string", "description": "The city for which the current time is to be retrieved."},
                       "country": {"type": "string", "description": "The country where the city is located."}}),
                &["city", "country"],
            ),
        );
        let b = run("What is the current time in Sydney, Australia?", &clock);
        assert_eq!(
            args(&b),
            json!({"city": "Sydney", "country": "Australia"}),
            "{b:?}"
        );
        // Not a region the parameter cannot take: "open" issues only.
        let issues = cap(
            "issues_near",
            obj(
                json!({"city": {"type": "string"}, "state": {"type": "string", "enum": ["open", "closed"]}}),
                &["city"],
            ),
        );
        let b = run("the issues in Chicago, Illinois", &issues);
        assert_eq!(args(&b), json!({"city": "Chicago, Illinois"}), "{b:?}");
    }

    #[test]
    fn an_unrestricted_required_choice_is_all_and_a_named_one_wins() {
        let branches = cap(
            "git_branch",
            obj(
                json!({"repo_path": {"type": "string"}, "branch_type": {"type": "string",
                    "description": "Whether to list local branches ('local'), remote branches ('remote') or all branches('all')."}}),
                &["repo_path", "branch_type"],
            ),
        );
        assert_eq!(
            args(&run("list the branches of /tmp/repo", &branches)),
            json!({"repo_path": "/tmp/repo", "branch_type": "all"})
        );
        assert_eq!(
            args(&run("list the remote branches of /tmp/repo", &branches)),
            json!({"repo_path": "/tmp/repo", "branch_type": "remote"})
        );
        // Not for a capability that changes something: "revoke my token"
        // is not all of them.
        let revoke = cap(
            "revoke_tokens",
            obj(
                json!({"scope": {"type": "string", "enum": ["session", "personal", "all"]}}),
                &["scope"],
            ),
        )
        .with_effects(&[ccos_marketplace::Effect::Write]);
        assert_eq!(args(&run("revoke my access token", &revoke)), json!({}));
        // Optional: its default stays.
        let issues = cap(
            "issues",
            obj(
                json!({"repo": {"type": "string"}, "state": {"type": "string", "enum": ["open", "closed", "all"]}}),
                &["repo"],
            ),
        );
        assert_eq!(
            args(&run("list the issues of acme/rocket", &issues)),
            json!({"repo": "acme/rocket"})
        );
        // A required choice without "all" is not guessed.
        let unit = cap(
            "temp",
            obj(
                json!({"unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}),
                &["unit"],
            ),
        );
        assert_eq!(args(&run("what is the temperature", &unit)), json!({}));
        // A choice among listed values is no text of the user's.
        let annotated = cap(
            "get-annotated-message",
            obj(
                json!({"messageType": {"type": "string", "enum": ["error", "success", "debug"]}}),
                &["messageType"],
            ),
        );
        assert!(!takes_user_text(&annotated));
        // A choice word inside a stated value is no choice.
        let ticket = cap(
            "create_ticket",
            obj(
                json!({"title": {"type": "string"}, "priority": {"type": "string", "enum": ["low", "high"]}}),
                &["title"],
            ),
        );
        assert_eq!(
            args(&run(
                "create a ticket titled \"disk usage is high\"",
                &ticket
            )),
            json!({"title": "disk usage is high"})
        );
        // A choice among words the capability does not know may mean
        // anything but that choice (attack trial): a dropped value.
        assert_eq!(
            args(&run("revoke the personal tokens", &revoke)),
            json!({"scope": "personal"})
        );
        // "all" my "sessions": two choices named, none taken.
        let b = run("revoke the tokens of all my sessions", &revoke);
        assert_eq!(args(&b), json!({}));
        assert!(!b.unused.is_empty(), "{b:?}");
        let b = run("revoke the tokens, personal ones untouched", &revoke);
        assert_eq!(args(&b), json!({}));
        assert!(!b.unused.is_empty(), "{b:?}");
        // "Bob or Dana" is a choice, never both.
        let delete = cap(
            "delete_entities",
            obj(
                json!({"entityNames": {"type": "array", "items": {"type": "string"}}}),
                &["entityNames"],
            ),
        )
        .with_effects(&[ccos_marketplace::Effect::Write]);
        assert_eq!(args(&run("delete Bob or Dana", &delete)), json!({}));
        // An order's choice only when an order is asked for.
        let sorted = cap(
            "issues",
            obj(
                json!({"repo": {"type": "string"}, "sort": {"type": "string", "enum": ["created", "comments"]}}),
                &["repo"],
            ),
        );
        // ... and the choice word is then a dropped value, not ignored.
        let b = run("list the issues in acme/rocket with comments", &sorted);
        assert_eq!(args(&b), json!({"repo": "acme/rocket"}));
        assert!(b.unused.iter().any(|u| u.contains("comments")), "{b:?}");
        assert_eq!(
            args(&run(
                "list the issues in acme/rocket sorted by comments",
                &sorted
            )),
            json!({"repo": "acme/rocket", "sort": "comments"})
        );
        assert_eq!(
            args(&run("show me an annotated error message", &annotated)),
            json!({"messageType": "error"})
        );
    }

    #[test]
    fn what_is_copied_comes_first_and_the_first_n_is_no_page() {
        let copy = cap(
            "copy_object",
            obj(
                json!({"source": {"type": "string"}, "destination": {"type": "string"}}),
                &["source", "destination"],
            ),
        );
        for goal in [
            "copy reports/q1.csv as backup/q1.csv",
            "copy reports/q1.csv, backup/q1.csv",
            "copy reports/q1.csv to backup/q1.csv",
            "copy to backup/q1.csv from reports/q1.csv",
            "copy with destination backup/q1.csv and source reports/q1.csv",
        ] {
            let b = run(goal, &copy);
            assert_eq!(
                args(&b),
                json!({"source": "reports/q1.csv", "destination": "backup/q1.csv"}),
                "{goal}"
            );
            assert!(b.unused.is_empty(), "{goal}: {b:?}");
        }
        // Any other word between them leaves which is which unsaid.
        for goal in [
            "copy backup/q1.csv out of reports/q1.csv",
            "make backup/q1.csv a copy of reports/q1.csv",
            "copy backup/q1.csv off reports/q1.csv",
            "copy backup/q1.csv and reports/q1.csv",
        ] {
            let b = run(goal, &copy);
            assert!(!b.unused.is_empty(), "{goal}: {b:?}");
        }
        // Where something is relative to a path is not that path.
        let rmdir = cap(
            "remove_dir",
            obj(json!({"dir": {"type": "string"}}), &["dir"]),
        )
        .with_effects(&[ccos_marketplace::Effect::Write]);
        for goal in [
            "delete the directory above /srv/app/build",
            "delete the files in /srv/app/build",
            "delete the directory next to /srv/app/build",
            "delete /srv/app/build/..",
            "delete the directory /srv/app/build*",
            "delete the directory one level up from /srv/app/build",
            "delete the directory enclosing /srv/app/build",
        ] {
            assert_eq!(args(&run(goal, &rmdir)), json!({}), "{goal}");
        }
        assert_eq!(
            args(&run("delete the directory /srv/app/build", &rmdir)),
            json!({"dir": "/srv/app/build"})
        );
        let issues = cap(
            "issues",
            obj(
                json!({"repo": {"type": "string"}, "page": {"type": "integer"}, "per_page": {"type": "integer"}}),
                &["repo"],
            ),
        );
        assert_eq!(
            args(&run("list the first 3 issues in acme/rocket", &issues)),
            json!({"repo": "acme/rocket", "per_page": 3})
        );
        assert_eq!(
            args(&run("list page 2 of the issues in acme/rocket", &issues)),
            json!({"repo": "acme/rocket", "page": 2})
        );
    }

    #[test]
    fn the_kind_of_text_to_find_is_its_pattern() {
        let find = cap(
            "regex_find",
            obj(
                json!({"pattern": {"type": "string", "description": "A regular expression"}, "text": {"type": "string"}}),
                &["pattern", "text"],
            ),
        );
        assert_eq!(
            args(&run(
                "find all the numbers in \"order 66 shipped 3 items\"",
                &find
            )),
            json!({"pattern": r"(?:\d{1,3}(?:,\d{3})+\b|\d+)(?:\.\d+)?", "text": "order 66 shipped 3 items"})
        );
        assert_eq!(
            args(&run(
                "extract the email addresses from 'mail a@b.org now'",
                &find
            )),
            json!({"pattern": r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", "text": "mail a@b.org now"})
        );
        // Not the verb's object: no pattern guessed.
        assert_eq!(
            args(&run(
                "find the words that rhyme with numbers in 'a b'",
                &find
            )),
            json!({"text": "a b"})
        );
    }

    #[test]
    fn a_folder_named_by_a_bare_word_is_no_value_dropped() {
        let list = cap("list", obj(json!({"path": {"type": "string"}}), &[])).local();
        for goal in [
            "list the files in docs with their sizes",
            "list the directory docs",
        ] {
            let b = run(goal, &list);
            assert!(b.unused.iter().any(|u| u.contains("docs")), "{goal}: {b:?}");
        }
        // A word before a folder noun is the folder's path.
        assert_eq!(
            args(&run("list the files in the docs folder", &list)),
            json!({"path": "docs"})
        );
        for goal in [
            "list the files here",
            "list the files in the current folder",
        ] {
            let b = run(goal, &list);
            assert!(b.unused.is_empty(), "{goal}: {b:?}");
        }
    }

    #[test]
    fn a_pronoun_is_no_text_to_send() {
        let search = cap(
            "search_nodes",
            obj(json!({"query": {"type": "string"}}), &["query"]),
        );
        for goal in [
            "what do you remember about it?",
            "search for that",
            "what do you remember about me?",
        ] {
            let b = run(goal, &search);
            assert_eq!(args(&b), json!({}), "{goal}: {b:?}");
        }
        assert_eq!(
            args(&run("search my notes for tea", &search)),
            json!({"query": "tea"})
        );
    }

    #[test]
    fn one_name_fills_a_list_of_names() {
        let delete = cap(
            "delete_entities",
            obj(
                json!({"entityNames": {"type": "array", "items": {"type": "string"}, "description": "An array of entity names to delete"}}),
                &["entityNames"],
            ),
        )
        .with_effects(&[ccos_marketplace::Effect::Write]);
        for goal in [
            "forget everything about Dana",
            "delete Dana",
            "remove all about Dana",
        ] {
            let b = run(goal, &delete);
            assert_eq!(args(&b), json!({"entityNames": ["Dana"]}), "{goal}: {b:?}");
        }
        // A part of what a name holds is not all of it.
        for goal in [
            "forget what Alice likes",
            "forget the dog of Dana",
            "forget Dana's address",
            "forget about the meeting with Bob",
            "forget the lunch with Dana",
            "Forget about the meeting on Monday",
            "forget Bob's allergy",
            "delete the relation between Bob and Globex",
            "forget the meeting with Alice and Bob",
            "forget Alice and Bob's meeting",
        ] {
            let b = run(goal, &delete);
            assert_eq!(args(&b), json!({}), "{goal}: {b:?}");
        }
    }

    #[test]
    fn a_file_moved_into_a_folder_keeps_its_name() {
        let mv = cap(
            "move_file",
            obj(
                json!({"source": {"type": "string"}, "destination": {"type": "string"}}),
                &["source", "destination"],
            ),
        );
        assert_eq!(
            args(&run("move docs/faq.md into docs/archive", &mv)),
            json!({"source": "docs/faq.md", "destination": "docs/archive/faq.md"})
        );
        // A destination with a file name is the new name.
        assert_eq!(
            args(&run("move docs/faq.md to docs/old.md", &mv)),
            json!({"source": "docs/faq.md", "destination": "docs/old.md"})
        );
        // "Into" names a folder whatever its name looks like, and the
        // moved thing keeps its name with or without an extension.
        assert_eq!(
            args(&run("move docs/intro.md into backups/2024.01", &mv)),
            json!({"source": "docs/intro.md", "destination": "backups/2024.01/intro.md"})
        );
        assert_eq!(
            args(&run("move docs/LICENSE into docs/archive", &mv)),
            json!({"source": "docs/LICENSE", "destination": "docs/archive/LICENSE"})
        );
    }

    #[test]
    fn a_folder_the_goal_does_not_name_is_the_current_one() {
        let local = |id: &str| cap(id, obj(json!({"path": {"type": "string"}}), &["path"])).local();
        let tree = local("directory_tree");
        assert_eq!(
            args(&run("show me the directory tree", &tree)),
            json!({"path": "."})
        );
        // A file's path is never guessed.
        let read = cap(
            "read_file",
            obj(json!({"path": {"type": "string"}}), &["path"]),
        );
        assert_eq!(args(&run("read the file", &read)), json!({}));
        // A folder said in words is not the current one (attack trial).
        for goal in [
            "show the directory tree one level up",
            "show me the directory tree of my other project",
            "show the directory tree of the folder above this one",
        ] {
            assert_eq!(args(&run(goal, &tree)), json!({}), "{goal}");
        }
        // Nor for a remote capability, or one that changes something.
        let remote = cap(
            "directory_tree",
            obj(json!({"path": {"type": "string"}}), &["path"]),
        );
        assert_eq!(args(&run("show me the directory tree", &remote)), json!({}));
        let rmdir = local("remove_directory").with_effects(&[ccos_marketplace::Effect::Write]);
        assert_eq!(args(&run("remove the directory", &rmdir)), json!({}));
    }

    #[test]
    fn a_slashed_name_the_next_word_names_fills_that_parameter() {
        let checkout = cap(
            "git_checkout",
            obj(
                json!({"repo_path": {"type": "string"}, "branch_name": {"type": "string"}}),
                &["repo_path", "branch_name"],
            ),
        );
        assert_eq!(
            args(&run(
                "switch /tmp/repo to the feature/login branch",
                &checkout
            )),
            json!({"repo_path": "/tmp/repo", "branch_name": "feature/login"})
        );
        // Without the word, a slashed name is no branch.
        assert_eq!(
            args(&run("switch /tmp/repo to feature/login", &checkout)),
            json!({"repo_path": "/tmp/repo"})
        );
        // "The branch after feature/login" is another branch.
        assert_eq!(
            args(&run(
                "switch /tmp/repo to the branch after feature/login",
                &checkout
            )),
            json!({"repo_path": "/tmp/repo"})
        );
        // A new branch and the one it starts from.
        let create = cap(
            "git_create_branch",
            obj(
                json!({"repo_path": {"type": "string"}, "branch_name": {"type": "string"}, "base_branch": {"type": "string"}}),
                &["repo_path", "branch_name"],
            ),
        );
        assert_eq!(
            args(&run(
                "create a fix/typo branch in /tmp/repo from the feature/login branch",
                &create
            )),
            json!({"repo_path": "/tmp/repo", "branch_name": "fix/typo", "base_branch": "feature/login"})
        );
    }

    #[test]
    fn coordinated_names_take_coordinated_values_in_order() {
        let tri = cap(
            "calculate_area",
            obj(
                json!({"base": {"type": "integer"}, "height": {"type": "integer"}}),
                &["base", "height"],
            ),
        );
        // The nearest word before 6cm is "height": without the
        // coordination it would take 6.
        let b = run(
            "the area of a triangle given the lengths of its base and height as 6cm and 10cm",
            &tri,
        );
        assert_eq!(args(&b), json!({"base": 6, "height": 10}), "{b:?}");
        let b = run("the area of a triangle with base and height 3 and 4", &tri);
        assert_eq!(args(&b), json!({"base": 3, "height": 4}), "{b:?}");
    }

    #[test]
    fn quantities_go_where_their_dimension_is_named() {
        let mut field = CapabilityManifest::new(
            "calculate_magnetic_field_strength",
            "calculate_magnetic_field_strength",
            obj(
                json!({
                    "current": {"type": "integer", "description": "The current flowing through the wire in Amperes."},
                    "distance": {"type": "integer", "description": "The perpendicular distance from the wire."},
                    "permeability": {"type": "integer", "description": "The permeability."}
                }),
                &["current", "distance"],
            ),
        );
        field.description =
            "Calculate the magnetic field strength at a distance from a long wire.".into();
        let b = run(
            "the magnetic field strength 10 meters away from a long wire carrying a current of 20 Amperes",
            &field,
        );
        assert!(b.unused.is_empty(), "{b:?}");
        assert_eq!(args(&b), json!({"current": 20, "distance": 10}), "{b:?}");
        // No conversion is guessed: kilometres do not go into miles.
        let route = cap(
            "route",
            obj(
                json!({"miles": {"type": "number", "description": "The distance in miles."}}),
                &["miles"],
            ),
        );
        let b = run("plan a route of 5 km", &route);
        assert_eq!(b.unused, vec!["number \"5 km\"".to_string()], "{b:?}");
        // Adding two numbers names no length: "5 km" and "3 miles" are
        // not its operands.
        let add = cap(
            "ccos.math.add",
            obj(
                json!({"a": {"type": "number"}, "b": {"type": "number"}}),
                &["a", "b"],
            ),
        );
        let b = run("add 5 km and 3 miles", &add);
        assert!(b.args.is_empty(), "{b:?}");
        assert_eq!(b.unused.len(), 2, "{b:?}");
    }

    #[test]
    fn values_go_where_their_words_point() {
        let write = cap(
            "ccos.file.write",
            obj(
                json!({"path": {"type": "string", "description": "file path"}, "content": {"type": "string", "description": "the text to write"}}),
                &["path", "content"],
            ),
        );
        let b = run("write \"hello\" to out.txt", &write);
        assert!(b.complete(), "{b:?}");
        assert_eq!(args(&b), json!({"content": "hello", "path": "out.txt"}));

        let tri = cap(
            "calc_area",
            obj(
                json!({"base": {"type": "integer"}, "height": {"type": "integer"}, "unit": {"type": "string"}}),
                &["base", "height"],
            ),
        );
        let b = run(
            "Find the area of a triangle with a height of 5 units and a base of 10 units",
            &tri,
        );
        assert_eq!(args(&b), json!({"base": 10, "height": 5}), "{b:?}");

        let mv = cap(
            "move_file",
            obj(
                json!({"source": {"type": "string"}, "destination": {"type": "string"}}),
                &["source", "destination"],
            ),
        );
        let b = run("rename notes.txt to notes.md", &mv);
        assert_eq!(
            args(&b),
            json!({"destination": "notes.md", "source": "notes.txt"})
        );
    }

    #[test]
    fn the_expression_and_the_text_searched_are_not_swapped() {
        let find = cap(
            "ccos.text.regex_find",
            obj(
                json!({"text": {"type": "string", "description": "the text to search"}, "pattern": {"type": "string", "description": "regular expression"}}),
                &["text", "pattern"],
            ),
        );
        for goal in [
            "find the regex '[0-9]+' in 'a1b22'",
            "find matches of the pattern '[0-9]+' in 'a1b22'",
            "in 'a1b22' find the regular expression '[0-9]+'",
        ] {
            assert_eq!(
                args(&run(goal, &find)),
                json!({"pattern": "[0-9]+", "text": "a1b22"}),
                "{goal}"
            );
        }
        // No metacharacters: the object of "in" is the text.
        assert_eq!(
            args(&run("find 'ab' in 'xabx'", &find)),
            json!({"pattern": "ab", "text": "xabx"})
        );
        // Metacharacters the goal does not call a regular expression: a
        // literal search, which a regex would answer wrongly. Not bound.
        for goal in [
            "find '1+1' in '1+1=2'",
            "find 'c++' in 'I like c++'",
            "find the text 'a1b22' in '[0-9]+'",
            "find '[0-9]+' in 'a1b22'",
        ] {
            let b = run(goal, &find);
            assert!(!b.complete(), "{goal}: {b:?}");
            assert!(!b.unused.is_empty(), "{goal}: {b:?}");
        }
    }

    #[test]
    fn the_words_of_a_stated_text_fill_a_list_found_first() {
        let sort = cap(
            "ccos.data.sort",
            obj(
                json!({"items": {"type": "array", "description": "The list to sort"}, "key": {"type": "string"}}),
                &["items"],
            ),
        );
        let b = run("sort the words 'pear apple fig'", &sort);
        assert_eq!(
            b.words_first,
            vec![("items".to_string(), "pear apple fig".to_string())]
        );
        assert!(b.complete(), "{b:?}");
        // Compared by size: not read as words (a text compares
        // alphabetically).
        let b = run("the biggest words in 'pear apple fig'", &sort);
        assert!(b.words_first.is_empty(), "{b:?}");
        // A text not said to be words: as before.
        let b = run("sort 'pear apple fig'", &sort);
        assert!(b.words_first.is_empty(), "{b:?}");
    }

    #[test]
    fn a_search_queries_its_terms_not_the_place_searched() {
        let search = cap(
            "mcp.memory.search_nodes",
            obj(
                json!({"query": {"type": "string", "description": "The search query to match against entity names, types, and observation content"}}),
                &["query"],
            ),
        );
        for (goal, want) in [
            ("search my knowledge graph for tea", "tea"),
            ("find nodes about green tea", "green tea"),
            ("search for tea", "tea"),
            ("search for movies about dogs", "dogs"),
        ] {
            assert_eq!(args(&run(goal, &search)), json!({"query": want}), "{goal}");
        }
    }

    #[test]
    fn durations_convert_to_the_wanted_unit() {
        let sleep = cap(
            "ccos.time.sleep",
            obj(
                json!({"ms": {"type": "integer", "minimum": 0, "maximum": 600000, "description": "milliseconds"}}),
                &["ms"],
            ),
        );
        assert_eq!(args(&run("wait 1 second", &sleep)), json!({"ms": 1000}));
        // A name ending in "ms" is not milliseconds ("bedrooms"), and a
        // number counts the noun after it, not the one before.
        let house = cap(
            "predict_house_price",
            obj(
                json!({"bedrooms": {"type": "integer"}, "bathrooms": {"type": "integer"}}),
                &["bedrooms", "bathrooms"],
            ),
        );
        let b = run("a house with 3 bedrooms and 2 bathrooms", &house);
        assert_eq!(
            args(&b),
            json!({"bedrooms": 3, "bathrooms": 2}),
            "{:?}",
            b.notes
        );
        // A bare number is no duration: not read as milliseconds.
        let b = run("wait 3", &sleep);
        assert!(b.args.is_empty(), "{b:?}");
        assert!(b.unused[0].contains("needs its unit"), "{b:?}");
        assert_eq!(
            args(&run("sleep for half a second", &sleep)),
            json!({"ms": 500})
        );
        // Beyond the maximum: it fits nothing, and is reported unused.
        let b = run("wait 20 minutes", &sleep);
        assert_eq!(
            b.unused,
            vec![
                "duration \"20 minutes\" (1200000 is above the maximum 600000 of :ms)".to_string()
            ]
        );
        assert_eq!(b.missing, vec!["ms".to_string()]);
    }

    #[test]
    fn a_file_never_fills_a_data_parameter() {
        let upper = cap(
            "ccos.text.upper",
            obj(json!({"text": {"type": "string"}}), &["text"]),
        );
        let b = run("convert lines.txt to upper case", &upper);
        assert!(b.args.is_empty(), "{b:?}");
        assert_eq!(
            b.read_first,
            vec![("text".to_string(), "lines.txt".to_string())]
        );
        assert!(b.unused.is_empty() && b.missing.is_empty());
        // Nor does the goal sentence.
        let b = run("convert to upper case", &upper);
        assert_eq!(b.missing, vec!["text".to_string()]);
        // Nor a URL: the address is not the page.
        let words = cap(
            "ccos.text.count_words",
            obj(json!({"text": {"type": "string"}}), &["text"]),
        );
        let b = run("count the words at https://example.com/page", &words);
        assert!(b.args.is_empty(), "{b:?}");
        assert_eq!(
            b.unused,
            vec!["url \"https://example.com/page\"".to_string()]
        );
        // A file name does not fill a directory parameter.
        let list = cap(
            "ccos.file.list",
            obj(
                json!({"path": {"type": "string", "description": "directory path (default .)"}}),
                &[],
            ),
        );
        let b = run("sort the lines of words.txt", &list);
        assert!(b.args.is_empty(), "{b:?}");
        let b = run("list the files in docs/archive", &list);
        assert_eq!(args(&b), json!({"path": "docs/archive"}), "{b:?}");
    }

    #[test]
    fn dropped_operands_are_reported() {
        let gh = cap(
            "gh.list_issues",
            obj(
                json!({"owner": {"type": "string"}, "repo": {"type": "string"}}),
                &["owner", "repo"],
            ),
        );
        let b = run("add 2 and 3", &gh);
        assert_eq!(
            b.unused,
            vec!["number \"2\"".to_string(), "number \"3\"".to_string()]
        );
        assert!(!b.complete());
        let b = run("list the issues of acme/rocket", &gh);
        assert!(b.complete(), "{b:?}");
        assert_eq!(args(&b), json!({"owner": "acme", "repo": "rocket"}));
    }

    #[test]
    fn the_users_words_fill_a_message_not_a_text() {
        let echo = cap(
            "ccos.echo",
            obj(
                json!({"message": {"type": "string", "description": "the message to return"}}),
                &["message"],
            ),
        );
        assert_eq!(args(&run("echo hello", &echo)), json!({"message": "hello"}));
        assert_eq!(
            args(&run("repeat after me: the build is green", &echo)),
            json!({"message": "the build is green"})
        );
        assert_eq!(
            args(&run("echo 'good morning, team'", &echo)),
            json!({"message": "good morning, team"})
        );
    }

    #[test]
    fn lists_fill_arrays_and_enums_match_words() {
        let sort = cap(
            "ccos.data.sort",
            obj(
                json!({"items": {"type": "array"}, "descending": {"type": "boolean"}}),
                &["items"],
            ),
        );
        assert_eq!(
            args(&run("sort the numbers 3, 1, 2", &sort)),
            json!({"items": [3, 1, 2]})
        );
        let w = cap(
            "weather",
            obj(
                json!({"location": {"type": "string"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}),
                &["location"],
            ),
        );
        assert_eq!(
            args(&run("What's the weather in Boston in celsius?", &w)),
            json!({"location": "Boston", "unit": "celsius"})
        );
    }

    #[test]
    fn a_month_name_fills_only_a_month() {
        let concerts = cap(
            "concert_details",
            obj(
                json!({"artist": {"type": "string", "description": "Name of the artist"},
                       "month": {"type": "string", "description": "Month of the concert"}}),
                &["artist", "month"],
            ),
        );
        let b = run(
            "What's the timing of The Weeknd's concert happening in December?",
            &concerts,
        );
        assert_eq!(args(&b)["month"], json!("December"), "{b:?}");
        assert_eq!(args(&b)["artist"], json!("The Weeknd"), "{b:?}");
        // Without a month parameter the month is dropped, never a name.
        let artist = cap(
            "artist_info",
            obj(json!({"artist": {"type": "string"}}), &["artist"]),
        );
        let b = run("find the artist December", &artist);
        assert!(!b.complete(), "{b:?}");
    }

    #[test]
    fn the_newest_entries_of_a_log_are_a_count() {
        let log = CapabilityManifest::new(
            "git_log",
            "Shows the commit logs",
            obj(
                json!({"repo_path": {"type": "string"}, "max_count": {"type": "integer"}}),
                &["repo_path"],
            ),
        );
        let count = |goal: &str| {
            let b = run(goal, &log);
            b.args
                .iter()
                .find(|a| a.param == "max_count")
                .map(|a| a.value.clone())
        };
        assert_eq!(
            count("what was the most recent commit in /tmp/repo?"),
            Some(json!(1))
        );
        assert_eq!(
            count("show the latest 3 commits in /tmp/repo"),
            Some(json!(3))
        );
        assert_eq!(
            count("show the last 3 commits in /tmp/repo"),
            Some(json!(3))
        );
        // How many is not said; "last week" is a time.
        assert_eq!(count("show the latest commits in /tmp/repo"), None);
        assert_eq!(count("show last week's commits in /tmp/repo"), None);
        // A search is no log: its first hit is no newest entry.
        let search = cap(
            "search_movies",
            obj(
                json!({"query": {"type": "string"}, "limit": {"type": "integer"}}),
                &["query"],
            ),
        );
        assert!(newest_first_count(&search, &params_of(&search).0).is_none());
    }

    #[test]
    fn a_replacement_is_one_edit_of_old_and_new_text() {
        let edit = cap(
            "edit_file",
            obj(
                json!({"path": {"type": "string"},
                       "edits": {"type": "array", "items": {"type": "object",
                           "properties": {"oldText": {"type": "string"}, "newText": {"type": "string"}},
                           "required": ["oldText", "newText"]}}}),
                &["path", "edits"],
            ),
        );
        let b = run("in notes.txt, replace 'Monday' with 'Tuesday'", &edit);
        assert!(b.complete(), "{b:?}");
        assert_eq!(
            args(&b),
            json!({"path": "notes.txt", "edits": [{"oldText": "Monday", "newText": "Tuesday"}]})
        );
        // "substitute NEW for OLD" names them the other way round.
        let b = run("in notes.txt, substitute 'Tuesday' for 'Monday'", &edit);
        assert_eq!(
            args(&b)["edits"],
            json!([{"oldText": "Monday", "newText": "Tuesday"}])
        );
        // Three texts, or no word between the two: which edit is not said.
        for goal in [
            "in notes.txt, replace 'Monday' with 'Tuesday' and 'Friday'",
            "in notes.txt, replace 'Monday' 'Tuesday'",
        ] {
            assert!(!run(goal, &edit).complete(), "{goal}");
        }
    }

    #[test]
    fn groups_of_values_fan_out_together_or_not_at_all() {
        let tax = cap(
            "calculate_sales_tax",
            obj(
                json!({"purchase_amount": {"type": "number", "description": "The amount of the purchase"},
                       "city": {"type": "string", "description": "The city of the purchase"},
                       "state": {"type": "string", "description": "The state of the purchase"}}),
                &["purchase_amount", "city", "state"],
            ),
        );
        let group = |clause: &str, m: &CapabilityManifest| {
            grouped(clause, &mentions(clause).unwrap(), m, &BTreeSet::new())
        };
        let goal = "Calculate the sales tax on a purchase amount of $30.45 in Chicago, Illinois, \
                    $52.33 in Sacramento, California and $11.23 in Portland, Oregon.";
        assert!(!run(goal, &tax).complete());
        let b = group(goal, &tax).expect("three groups");
        assert!(b.complete(), "{b:?}");
        let fanned: BTreeMap<String, Vec<Json>> =
            b.fan_out.iter().chain(&b.fan_with).cloned().collect();
        assert_eq!(
            fanned,
            BTreeMap::from([
                (
                    "city".to_string(),
                    vec![json!("Chicago"), json!("Sacramento"), json!("Portland")]
                ),
                (
                    "purchase_amount".to_string(),
                    vec![json!(30.45), json!(52.33), json!(11.23)]
                ),
                (
                    "state".to_string(),
                    vec![json!("Illinois"), json!("California"), json!("Oregon")]
                ),
            ])
        );
        // A total is one answer over the groups, not one per group.
        assert_eq!(
            group(
                "What is the total sales tax on $30.45 in Chicago, Illinois and $52.33 in Sacramento, California?",
                &tax
            ),
            None
        );
        // Groups of other kinds than the first are no repetition of it.
        assert_eq!(
            group(
                "Calculate the sales tax on $30.45 in Chicago, Illinois, and in Sacramento, California, $52.33",
                &tax
            ),
            None
        );
        // Words between the groups that are neither joiners nor the
        // opening's say something the readings would drop.
        assert_eq!(
            group(
                "Calculate the sales tax on $30.45 in Chicago, Illinois, unless it is a refund of $52.33 in Sacramento, California",
                &tax
            ),
            None
        );
        // A capability that writes never fans out over guessed groups.
        let mut write = tax.clone();
        write.effects = BTreeSet::from([ccos_marketplace::Effect::Write]);
        assert_eq!(group(goal, &write), None);
        // Values of one kind with no preposition inside a group: one sum,
        // not several.
        let add = cap(
            "add",
            obj(
                json!({"a": {"type": "number"}, "b": {"type": "number"}}),
                &["a", "b"],
            ),
        );
        assert_eq!(group("add 2 and 3 and 4 and 5", &add), None);
        // One value a group, labelled again each time.
        let area = cap(
            "area_circle",
            obj(
                json!({"radius": {"type": "number", "description": "The radius of the circle"}}),
                &["radius"],
            ),
        );
        let b = group(
            "Find the area of a circle with a radius of 5, then of a circle with a radius of 10",
            &area,
        )
        .expect("two groups of one");
        assert_eq!(
            b.fan_out,
            Some(("radius".to_string(), vec![json!(5), json!(10)]))
        );
    }

    #[test]
    fn two_coordinated_lists_fan_out_by_combination_or_in_order() {
        // Each parameter's values, call by call.
        let calls = |b: &Binding| -> Vec<(String, Vec<Json>)> {
            b.fan_out.iter().chain(&b.fan_with).cloned().collect()
        };
        let pct = cap(
            "calculate_winning_percentage",
            obj(
                json!({
                    "team": {"type": "string", "description": "The name of the basketball team."},
                    "season": {"type": "integer", "description": "The season (year)."}
                }),
                &["team", "season"],
            ),
        );
        let b = run(
            "Find the winning percentage of Lakers and Bulls in seasons 2018 and 2020.",
            &pct,
        );
        assert!(b.complete(), "{b:?}");
        assert_eq!(
            calls(&b),
            vec![
                (
                    "team".to_string(),
                    vec![
                        json!("Lakers"),
                        json!("Lakers"),
                        json!("Bulls"),
                        json!("Bulls")
                    ]
                ),
                (
                    "season".to_string(),
                    vec![json!(2018), json!(2020), json!(2018), json!(2020)]
                ),
            ]
        );
        let rank = cap(
            "get_team_ranking",
            obj(
                json!({
                    "team": {"type": "string", "description": "The name of the football team."},
                    "league": {"type": "string", "description": "The league the team is competing in."}
                }),
                &["team", "league"],
            ),
        );
        let b = run(
            "What is the current ranking of Barcelona and Manchester United in the UEFA Champions League and La Liga respectively?",
            &rank,
        );
        assert_eq!(
            calls(&b),
            vec![
                (
                    "team".to_string(),
                    vec![json!("Barcelona"), json!("Manchester United")]
                ),
                (
                    "league".to_string(),
                    vec![json!("UEFA Champions League"), json!("La Liga")]
                ),
            ],
            "{b:?}"
        );
        // "Respectively" with lists of other lengths pairs nothing.
        let b = run(
            "the ranking of Barcelona and Real Madrid in La Liga, Serie A and the Bundesliga respectively",
            &rank,
        );
        assert_eq!(b.fan_out, None, "{b:?}");
    }

    #[test]
    fn coordinated_values_for_one_parameter_fan_out() {
        let events = cap(
            "events_by_presidency",
            obj(
                json!({"president_name": {"type": "string", "description": "name of the president"}}),
                &["president_name"],
            ),
        );
        let b = run(
            "Provide the major events during the presidency of Abraham Lincoln and George Washington",
            &events,
        );
        assert!(b.complete(), "{b:?}");
        assert_eq!(
            b.fan_out,
            Some((
                "president_name".to_string(),
                vec![json!("Abraham Lincoln"), json!("George Washington")]
            ))
        );
        // The words around the first value may repeat between them.
        let factor = cap(
            "prime_factorize",
            obj(json!({"number": {"type": "integer"}}), &["number"]),
        );
        let b = run(
            "the prime factorization of the number 4567 and the number 7890",
            &factor,
        );
        assert_eq!(
            b.fan_out,
            Some(("number".to_string(), vec![json!(4567), json!(7890)]))
        );
        // A city and its state is one place, not two.
        let weather = cap(
            "get_current_weather",
            obj(json!({"location": {"type": "string"}}), &["location"]),
        );
        let b = run("What is the weather in Seattle, Washington?", &weather);
        assert_eq!(b.fan_out, None, "{b:?}");
        // A chain through a value bound elsewhere is not a fan-out.
        let add = cap(
            "add",
            obj(
                json!({"a": {"type": "number"}, "b": {"type": "number"}}),
                &["a", "b"],
            ),
        );
        let b = run("add 2 and 3 and 4", &add);
        assert_eq!(b.fan_out, None);
        assert_eq!(b.unused, vec!["number \"4\"".to_string()]);
        // Nor when a number word took the other operand.
        let gcd = cap(
            "math.gcd",
            obj(
                json!({"num1": {"type": "integer"}, "num2": {"type": "integer"}}),
                &["num1", "num2"],
            ),
        );
        let b = run(
            "Calculate the greatest common divisor of two given numbers, for example 12 and 15.",
            &gcd,
        );
        assert_eq!(b.fan_out, None, "{b:?}");
        // More values than one step may call: refused, not planned.
        let upper = cap("upper", obj(json!({"text": {"type": "string"}}), &["text"]));
        let many: Vec<String> = (0..=MAX_FAN_OUT).map(|i| format!("'w{i}'")).collect();
        let b = run(&format!("uppercase {} and 'z'", many.join(", ")), &upper);
        assert_eq!(b.fan_out, None);
        assert!(!b.unused.is_empty());
    }

    #[test]
    fn listed_allowed_values_fan_out_when_the_goal_lists_them() {
        let res = cap(
            "calculate_resistance",
            obj(
                json!({"length": {"type": "integer", "description": "The length of the wire in meters."},
                       "area": {"type": "number", "description": "The cross-sectional area of the wire in square meters."},
                       "resistivity": {"type": "string", "description": "Resistivity of the material (Default: 'copper'). Allowed values: 'copper', 'aluminum'"}}),
                &["length", "area"],
            ),
        );
        let b = run(
            "Calculate the resistance of a wire with a length of 5m and cross sectional area 0.01m² with resistivity of copper and aluminum",
            &res,
        );
        assert_eq!(
            b.fan_out,
            Some((
                "resistivity".to_string(),
                vec![json!("copper"), json!("aluminum")]
            )),
            "{b:?}"
        );
        // Named once: that value.
        let b = run("the resistance of a 5m aluminum wire of area 2", &res);
        assert_eq!(b.fan_out, None);
        assert_eq!(args(&b)["resistivity"], json!("aluminum"), "{b:?}");
        // Two units apart are not a list.
        let conv = cap(
            "convert",
            obj(
                json!({"value": {"type": "number"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}),
                &["value"],
            ),
        );
        let b = run("convert 30 celsius to fahrenheit", &conv);
        assert_eq!(b.fan_out, None, "{b:?}");
    }
}
