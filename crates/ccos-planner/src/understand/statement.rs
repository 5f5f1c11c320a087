//! Statements of fact the user asks to be remembered.
//!
//! "remember that Alice likes tea", "note that Bob's favourite colour is
//! green", "Alice and Dana are sisters, please remember that", "add a new
//! person called Erin who is a pilot": each is a [`Fact`] — the entities
//! it is about and the statement itself, kept as the user wrote it.
//!
//! The statement is never rephrased: "Alice likes tea" is stored as
//! "Alice likes tea", not as a guessed relation `likes(Alice, tea)`. What
//! it is about is read from its subject only:
//!
//! - the names it opens with ("Alice", "Alice and Dana", "Bob's …");
//! - the speaker ("I", "my …"), as the entity [`SPEAKER`];
//! - otherwise a noun phrase before *is/are/was/were* ("the office wifi
//!   password is hunter2": `office wifi password`).
//!
//! A subject that is a pronoun ("she likes tea"), missing ("remember to
//! buy milk") or opened by another word ("*Sadly* Bob lost his job",
//! "*Both* Alice and Bob …") is not guessed, nor is a question ("remember
//! that Alice likes tea?"), a statement that goes on with another request
//! ("… and forget Bob") or one with invisible characters:
//! [`fact_to_remember`] says why instead.

use super::mentions::{MentionKind, mentions};

/// The entity a statement about the speaker is stored under (the name the
/// MCP memory server's own documentation gives the user; not "user",
/// which a fact may name: "the user is an admin").
pub const SPEAKER: &str = "default_user";

/// A fact to remember.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fact {
    /// The entities it is about, in the order stated.
    pub subjects: Vec<String>,
    /// The statement as written, without the request around it; `None`
    /// when the goal only names a new entity ("add a person called Erin").
    pub statement: Option<String>,
    /// The kind of entity, when the goal says it ("a new *person* called
    /// Erin").
    pub kind: Option<String>,
}

/// Requests that open a statement to remember (lower case, each followed
/// by the statement; a leading "please" is dropped first).
const OPENERS: &[&str] = &[
    "remember that ",
    "remember the fact that ",
    "remember this: ",
    "remember this, ",
    "remember: ",
    "remember, ",
    "note that ",
    "note: ",
    "make a note that ",
    "keep in mind that ",
    "keep in mind ",
    "bear in mind that ",
    "don't forget that ",
    "do not forget that ",
    "memorize that ",
    "memorise that ",
    "store the fact that ",
    "record the fact that ",
    "for future reference, ",
    "for future reference: ",
];

/// Requests that close a statement to remember ("…, please remember
/// that"), lower case, after the statement and a comma or a full stop.
const CLOSERS: &[&str] = &[
    "please remember that",
    "remember that",
    "please remember this",
    "remember this",
    "please remember it",
    "remember it",
    "please note that",
    "note that",
    "keep that in mind",
    "keep this in mind",
];

/// Verbs of being after a noun-phrase subject.
const COPULAS: &[&str] = &["is", "are", "was", "were"];

/// Subjects that point to someone or something the goal does not name.
const PRONOUNS: &[&str] = &[
    "he",
    "she",
    "it",
    "they",
    "him",
    "her",
    "them",
    "his",
    "its",
    "their",
    "this",
    "that",
    "these",
    "those",
    "you",
    "your",
    "yours",
    "we",
    "us",
    "our",
    "someone",
    "somebody",
    "everyone",
    "everybody",
    "nobody",
    "anyone",
    "anybody",
    "there",
    "here",
];

/// Words that open a question, not a statement.
const QUESTION_WORDS: &[&str] = &[
    "who", "whom", "whose", "what", "which", "where", "when", "why", "how", "is", "are", "do",
    "does", "did", "can", "could", "would", "should", "will",
];

/// Words that open a sentence before its subject, capitalised only because
/// they come first ("*Sadly* Bob lost his job", "*Last* week Carol …",
/// "*Both* Alice and Bob …"): a name they open is not the subject's.
const OPENING_WORDS: &[&str] = &[
    "sadly",
    "unfortunately",
    "fortunately",
    "luckily",
    "apparently",
    "actually",
    "basically",
    "honestly",
    "obviously",
    "clearly",
    "hopefully",
    "recently",
    "finally",
    "currently",
    "usually",
    "probably",
    "definitely",
    "certainly",
    "seriously",
    "surprisingly",
    "frankly",
    "personally",
    "originally",
    "really",
    "also",
    "now",
    "then",
    "still",
    "maybe",
    "perhaps",
    "both",
    "neither",
    "either",
    "all",
    "every",
    "each",
    "no",
    "some",
    "our",
    "their",
    "my",
    "your",
    "his",
    "her",
    "its",
    "the",
    "this",
    "that",
    "these",
    "those",
    "last",
    "next",
    "today",
    "tomorrow",
    "yesterday",
    "tonight",
    "after",
    "before",
    "since",
    "when",
    "if",
    "according",
    "although",
    "because",
    "while",
    "during",
    "on",
    "in",
    "at",
    "from",
    "once",
    "yes",
    "so",
    "however",
    "meanwhile",
];

/// Kinds of entity "add a new KIND called NAME" makes in a fact store
/// without saying so: people, organisations and places. Any other kind
/// (a folder, a task, a branch, a user account) is some other tool's.
const ENTITY_KINDS: &[&str] = &[
    "person",
    "friend",
    "colleague",
    "coworker",
    "contact",
    "company",
    "organization",
    "organisation",
    "team",
    "place",
    "city",
    "country",
    "pet",
];

/// Words that begin another request inside a statement.
const REQUEST_VERBS: &[&str] = &["remember", "forget", "memorize", "memorise"];

/// Determiners dropped from a noun-phrase subject.
const DETERMINERS: &[&str] = &["the", "a", "an"];

/// The fact `clause` asks to remember: `None` when it asks nothing of
/// the kind, `Some(Err(why))` when it does but what the fact is about is
/// not clear.
pub fn fact_to_remember(clause: &str) -> Option<Result<Fact, String>> {
    let mut text = clause.trim().trim_end_matches(['.', '!']).trim();
    // "please remember …", "can you note that …?" (the question mark is
    // the request's, not the statement's).
    loop {
        let lower = text.to_lowercase();
        let Some(p) = ["please ", "can you ", "could you ", "would you ", "kindly "]
            .iter()
            .find(|p| lower.starts_with(*p))
        else {
            break;
        };
        text = text.get(p.len()..).unwrap_or_default().trim_start();
        if p.ends_with("you ") {
            text = text.trim_end_matches('?').trim_end();
        }
    }
    let lower = text.to_lowercase();
    if let Some(rest) = OPENERS.iter().find_map(|o| {
        lower
            .starts_with(o)
            .then(|| text.get(o.len()..).unwrap_or_default())
    }) {
        return Some(read_statement(rest.trim()));
    }
    // "remember Alice likes tea", "remember my birthday is May 5": a
    // name, the speaker or a noun phrase must follow, never "remember to
    // buy milk" (a reminder).
    if lower.starts_with("remember ") {
        let rest = text.get("remember ".len()..).unwrap_or_default().trim();
        let first = rest
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_lowercase();
        if starts_with_name(rest) || ["the", "my", "i", "i'm", "our"].contains(&first.as_str()) {
            return Some(read_statement(rest));
        }
        return None;
    }
    // Cutting `text` where `lower` is cut needs the same byte lengths.
    if lower.len() != text.len() {
        return None;
    }
    for closer in CLOSERS {
        if let Some(head) = lower.strip_suffix(closer) {
            let head = head.trim_end();
            let Some(head) = head
                .strip_suffix(',')
                .or_else(|| head.strip_suffix(';'))
                .or_else(|| head.strip_suffix('.'))
                .or_else(|| head.strip_suffix(" -"))
                .or_else(|| head.strip_suffix(" so"))
            else {
                continue;
            };
            let statement = text.get(..head.len()).unwrap_or_default().trim();
            return Some(read_statement(statement));
        }
    }
    None
}

/// "add a new person called Erin (who is a pilot)": the entity, its kind
/// and what the relative clause says of it ("Erin is a pilot"). Not a
/// request to remember as such: the planner reads it so only when no
/// capability adds such a thing.
pub fn entity_to_add(clause: &str) -> Option<Fact> {
    let text = clause.trim().trim_end_matches(['.', '!']).trim();
    let lower = text.to_lowercase();
    if lower.len() != text.len() {
        return None;
    }
    let rest = ["add ", "create "]
        .iter()
        .find_map(|v| lower.strip_prefix(v))?;
    let rest = rest
        .strip_prefix("a new ")
        .or_else(|| rest.strip_prefix("a "))
        .or_else(|| rest.strip_prefix("an "))?;
    let (kind, after) = rest.split_once(' ')?;
    let after = after
        .strip_prefix("called ")
        .or_else(|| after.strip_prefix("named "))?;
    if !ENTITY_KINDS.contains(&kind) {
        return None;
    }
    let start = text.len() - after.len();
    let named = text.get(start..)?;
    let name = mentions(named)
        .ok()?
        .into_iter()
        .find(|m| m.kind == MentionKind::Name && m.span.start == 0)?;
    let name_text = name.text.clone();
    let tail = named.get(name.span.end..)?.trim();
    let statement = if tail.is_empty() {
        None
    } else {
        let lt = tail.to_lowercase();
        let pred = ["who ", "that ", "which ", ", who ", ", a "]
            .iter()
            .find_map(|r| lt.strip_prefix(r).map(|p| tail.get(tail.len() - p.len()..)))??;
        if pred.trim().is_empty() {
            return None;
        }
        Some(format!("{name_text} {}", pred.trim()))
    };
    Some(Fact {
        subjects: vec![name_text],
        statement,
        kind: Some(kind.to_string()),
    })
}

/// Whether `text` opens with a capitalised name.
fn starts_with_name(text: &str) -> bool {
    mentions(text).is_ok_and(|ms| {
        ms.iter()
            .any(|m| m.span.start == 0 && is_named(m.kind, &m.items))
    })
}

fn is_named(kind: MentionKind, items: &[super::Mention]) -> bool {
    kind == MentionKind::Name
        || (kind == MentionKind::List
            && !items.is_empty()
            && items.iter().all(|i| i.kind == MentionKind::Name))
}

/// The fact a statement states: its subjects and the statement.
fn read_statement(statement: &str) -> Result<Fact, String> {
    let statement = statement.trim().trim_end_matches(['.', '!', ',']).trim();
    if statement.is_empty() {
        return Err("the goal asks to remember something, but states nothing".into());
    }
    if let Some(c) = statement.chars().find(|c| invisible(*c)) {
        return Err(format!(
            "the statement has an invisible or control character (U+{:04X}): retype it",
            u32::from(c)
        ));
    }
    let words: Vec<&str> = statement.split_whitespace().collect();
    // "Remember that Alice likes tea. Bob is 40.": one fact at a time (the
    // second sentence was stored as part of Alice's).
    if let Some(pair) = words.windows(2).find(|w| {
        w[0].ends_with(['.', '!', '?'])
            && !super::mentions::is_name_abbreviation(w[0].trim_end_matches('.'))
            && w[0].trim_end_matches(['.', '!', '?']).chars().count() > 1
            && w[1].starts_with(|c: char| c.is_uppercase())
    }) {
        return Err(format!(
            "the goal states more than one sentence (\"{} {}\"): which one to remember is not said; remember one fact at a time",
            pair[0], pair[1]
        ));
    }
    let first = words.first().map(|w| w.to_lowercase()).unwrap_or_default();
    if statement.ends_with('?') || QUESTION_WORDS.contains(&first.as_str()) {
        return Err(format!(
            "\"{statement}\" is a question, not a fact to remember"
        ));
    }
    let lower_words: Vec<String> = words
        .iter()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .collect();
    let another = lower_words
        .iter()
        .find(|w| REQUEST_VERBS.contains(&w.as_str()))
        .or_else(|| {
            lower_words
                .windows(2)
                .find(|p| {
                    matches!(p[0].as_str(), "and" | "then")
                        && (super::lexicon::is_action_verb(&p[1])
                            || super::lexicon::is_request_verb(&p[1]))
                })
                .map(|p| &p[1])
        });
    if statement.contains(';') {
        return Err(format!(
            "\"{statement}\" goes on with another request (after \";\"): one fact per request"
        ));
    }
    if let Some(w) = another {
        return Err(format!(
            "\"{statement}\" goes on with another request (\"{w}\"): one fact per request"
        ));
    }
    let fact = |subjects: Vec<String>| Fact {
        subjects,
        statement: Some(statement.to_string()),
        kind: None,
    };
    if words.len() < 2 {
        return Err(format!(
            "\"{statement}\" states no fact: say what is true of it"
        ));
    }
    let bare = first.trim_end_matches(['\'', '’']);
    if ["i", "i'm", "i’m", "i've", "i’ve", "i'd", "i’d", "my", "me"].contains(&bare)
        || first.starts_with("i'")
        || first.starts_with("i’")
    {
        return Ok(fact(vec![SPEAKER.to_string()]));
    }
    if PRONOUNS.contains(&bare) {
        return Err(format!(
            "\"{}\": the goal does not say whom or what it refers to",
            words[0]
        ));
    }
    if let Ok(ms) = mentions(statement)
        && let Some(m) = ms.iter().find(|m| m.span.start == 0)
        && is_named(m.kind, &m.items)
    {
        let names: Vec<String> = if m.kind == MentionKind::List {
            m.items
                .iter()
                .map(|i| without_possessive(&i.text))
                .collect()
        } else {
            vec![without_possessive(&m.text)]
        };
        if OPENING_WORDS.contains(&bare) {
            return Err(format!(
                "\"{statement}\": what it is about is not clear (it opens with \"{}\"; start with who or what it is about)",
                words[0]
            ));
        }
        // "Alice likes tea and Bob likes coffee": a second subject, a
        // second fact (it was kept on Alice alone).
        if let Some(other) = ms.iter().find(|o| {
            o.span.start > m.span.end
                && is_named(o.kind, &o.items)
                && statement
                    .get(..o.span.start)
                    .is_some_and(|before| before.trim_end().to_lowercase().ends_with(" and"))
        }) {
            return Err(format!(
                "\"{statement}\" states a second fact about {}: one fact per request",
                other.text
            ));
        }
        let rest = statement.get(m.span.end..).unwrap_or_default().trim();
        let rest = rest
            .trim_start_matches("'s")
            .trim_start_matches("’s")
            .trim_start_matches('\'')
            .trim();
        if rest.is_empty() {
            return Err(format!(
                "\"{statement}\" states no fact: say what is true of it"
            ));
        }
        return Ok(fact(names));
    }
    // A noun phrase before a verb of being: "the office wifi password is
    // hunter2".
    let Some(verb) = words
        .iter()
        .position(|w| COPULAS.contains(&w.to_lowercase().as_str()))
    else {
        return Err(format!(
            "\"{statement}\": what it is about is not clear (name it: \"Alice …\", \"the wifi password is …\")"
        ));
    };
    let mut subject: Vec<&str> = words[..verb].to_vec();
    if subject
        .first()
        .is_some_and(|w| DETERMINERS.contains(&w.to_lowercase().as_str()))
    {
        subject.remove(0);
    }
    if subject.is_empty()
        || subject
            .first()
            .is_some_and(|w| OPENING_WORDS.contains(&w.to_lowercase().as_str()))
        || subject.len() > 5
        || verb + 1 >= words.len()
        || subject
            .iter()
            .any(|w| PRONOUNS.contains(&w.to_lowercase().as_str()))
    {
        return Err(format!(
            "\"{statement}\": what it is about is not clear (name it: \"Alice …\", \"the wifi password is …\")"
        ));
    }
    Ok(fact(vec![subject.join(" ")]))
}

/// Whether `c` is a control character or one that shows nothing (a
/// zero-width space, a direction mark, a soft hyphen): a name with one
/// looks like another name.
fn invisible(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{00AD}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}')
}

/// "Bob's" is Bob.
fn without_possessive(name: &str) -> String {
    name.trim_end_matches("'s")
        .trim_end_matches("’s")
        .trim()
        .to_string()
}

/// A question about the relations a knowledge graph holds: "who works at
/// Globex?" (the relations `works at` that end at Globex: who is where
/// they start), "who does Alice know?" (the relations `knows` that start
/// at Alice: who is where they end).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelationQuestion {
    /// The relation as the question says it, its verb in the third person
    /// ("works at", "knows"), compared by words with the graph's types.
    pub relation: String,
    /// The entity the question names, as written.
    pub entity: String,
    /// The entity is where the relations end ("who works at *Globex*");
    /// otherwise where they start ("who does *Alice* know").
    pub entity_ends: bool,
}

/// Prepositions that end a relation's verb ("works *at*", "reports *to*").
const RELATION_PREPOSITIONS: &[&str] = &[
    "at", "for", "with", "in", "on", "from", "to", "of", "by", "under", "into", "about",
];

/// Verbs that are no relation of their own ("who *is* Bob", "who *has*
/// a dog"): being, having, doing, saying.
const NO_RELATION_VERBS: &[&str] = &[
    "is", "was", "are", "were", "has", "had", "have", "does", "did", "do", "says", "said",
];

/// "who works at Globex?", "who knows Bob", "who does Alice know?",
/// "whom does Dana work for?": the question, when the clause is only
/// that. The verb is in the present tense (the graph holds what is, not
/// what was or will be); the entity is a name (capitalised words, up to
/// four), never a pronoun. Anything else (another tense, a negation, a
/// quantifier, more words) is no such question.
pub fn relation_question(clause: &str) -> Option<RelationQuestion> {
    let text = clause.trim().trim_end_matches('?').trim_end();
    if text.chars().any(|c| {
        !(c.is_alphanumeric() || c == ' ' || c == '\'' || c == '-' || c == '.' || c == '&')
    }) {
        return None;
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    let is_name = |w: &str| {
        w.chars().next().is_some_and(char::is_uppercase)
            && !PRONOUNS.contains(&w.to_lowercase().as_str())
    };
    let verb_ok =
        |v: &str| v.chars().all(|c| c.is_ascii_lowercase()) && !NO_RELATION_VERBS.contains(&v);
    let entity_of = |ws: &[&str]| -> Option<String> {
        (!ws.is_empty() && ws.len() <= 4 && ws.iter().all(|w| is_name(w))).then(|| ws.join(" "))
    };
    match (lower.first()?.as_str(), lower.get(1)?.as_str()) {
        // "who does Alice know", "whom does Dana work for"
        ("who" | "whom", "does") => {
            let rest = &words[2..];
            let names = rest.iter().take_while(|w| is_name(w)).count();
            let entity = entity_of(&rest[..names])?;
            let (verb, prep) = match &lower[2 + names..] {
                [v] => (v.as_str(), None),
                [v, p] if RELATION_PREPOSITIONS.contains(&p.as_str()) => (v.as_str(), Some(p)),
                _ => return None,
            };
            if !verb_ok(verb) {
                return None;
            }
            let third = third_person(verb);
            Some(RelationQuestion {
                relation: match prep {
                    Some(p) => format!("{third} {p}"),
                    None => third,
                },
                entity,
                entity_ends: false,
            })
        }
        // "who works at Globex", "who knows Bob"
        ("who", verb) if verb.len() > 2 && verb.ends_with('s') && verb_ok(verb) => {
            let (relation, at) = match lower.get(2) {
                Some(p) if RELATION_PREPOSITIONS.contains(&p.as_str()) => {
                    (format!("{verb} {p}"), 3)
                }
                _ => (verb.to_string(), 2),
            };
            Some(RelationQuestion {
                relation,
                entity: entity_of(&words[at..])?,
                entity_ends: true,
            })
        }
        _ => None,
    }
}

/// A verb's third person singular ("know": "knows", "watch": "watches",
/// "carry": "carries").
fn third_person(verb: &str) -> String {
    if verb == "have" {
        return "has".into();
    }
    if ["s", "sh", "ch", "x", "z", "o"]
        .iter()
        .any(|e| verb.ends_with(e))
    {
        return format!("{verb}es");
    }
    if let Some(stem) = verb.strip_suffix('y')
        && !stem.ends_with(['a', 'e', 'i', 'o', 'u'])
    {
        return format!("{stem}ies");
    }
    format!("{verb}s")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fact(goal: &str) -> Fact {
        match fact_to_remember(goal) {
            Some(Ok(f)) => f,
            other => panic!("{goal:?}: {other:?}"),
        }
    }

    fn about(goal: &str) -> (Vec<String>, Option<String>) {
        let f = fact(goal);
        (f.subjects, f.statement)
    }

    #[test]
    fn the_statement_is_kept_as_written_and_its_names_are_its_subjects() {
        assert_eq!(
            about("remember that Alice likes tea"),
            (vec!["Alice".into()], Some("Alice likes tea".into()))
        );
        assert_eq!(
            about("Remember Bob lives in Lyon."),
            (vec!["Bob".into()], Some("Bob lives in Lyon".into()))
        );
        assert_eq!(
            about("note that Bob's favourite colour is green"),
            (
                vec!["Bob".into()],
                Some("Bob's favourite colour is green".into())
            )
        );
        assert_eq!(
            about("Alice and Dana are sisters, please remember that."),
            (
                vec!["Alice".into(), "Dana".into()],
                Some("Alice and Dana are sisters".into())
            )
        );
    }

    #[test]
    fn a_noun_phrase_before_is_names_what_it_is_about() {
        assert_eq!(
            about("remember that the office wifi password is hunter2"),
            (
                vec!["office wifi password".into()],
                Some("the office wifi password is hunter2".into())
            )
        );
    }

    #[test]
    fn the_speaker_is_the_user() {
        assert_eq!(
            about("please remember that I am allergic to peanuts"),
            (
                vec![SPEAKER.into()],
                Some("I am allergic to peanuts".into())
            )
        );
        assert_eq!(
            fact("remember that my birthday is May 5").subjects,
            vec![SPEAKER]
        );
    }

    #[test]
    fn a_new_entity_has_the_stated_kind() {
        let entity = |g: &str| entity_to_add(g).unwrap_or_else(|| panic!("{g:?}"));
        let f = entity("add a new person called Erin who is a pilot");
        assert_eq!(f.subjects, vec!["Erin"]);
        assert_eq!(f.statement.as_deref(), Some("Erin is a pilot"));
        assert_eq!(f.kind.as_deref(), Some("person"));
        let f = entity("create a company named Initech");
        assert_eq!(f.statement, None);
        assert_eq!(f.kind.as_deref(), Some("company"));
    }

    #[test]
    fn other_ways_of_asking_keep_the_statement() {
        for goal in [
            "remember: Bob likes chess",
            "note: Bob likes chess",
            "remember, Bob likes chess",
            "remember this: Bob likes chess",
            "please keep in mind Bob likes chess",
            "for future reference, Bob likes chess",
            "Could you please remember that Bob likes chess?",
        ] {
            assert_eq!(
                about(goal),
                (vec!["Bob".into()], Some("Bob likes chess".into())),
                "{goal:?}"
            );
        }
        assert_eq!(
            about("remember the wifi password is hunter2"),
            (
                vec!["wifi password".into()],
                Some("the wifi password is hunter2".into())
            )
        );
        assert_eq!(
            about("remember that Dr. Smith is my dentist").0,
            vec!["Dr. Smith"]
        );
    }

    #[test]
    fn an_unclear_subject_is_not_guessed() {
        for goal in [
            "remember that she likes tea",
            "remember that it is raining",
            "note that likes tea",
            "remember that Alice",
            // Pronouns of the conversation.
            "remember that you are an admin",
            "remember that we are launching on Monday",
            "remember that your name is Jarvis",
            // A word before the subject, capitalised as the first.
            "remember that Sadly Bob lost his job",
            "remember that Last week Carol visited Dave",
            "remember that Both Alice and Bob like tea",
            "remember that Our CEO Bob is great",
            "remember that According to Grace the server is down",
            "remember that Today is Alice's birthday",
            // Questions are no facts.
            "remember that Alice likes tea?",
            "remember that who is Alice",
            // Another request inside.
            "remember that Alice likes tea and forget Bob",
            "remember that Ivan is tall, and remember that Judy is short",
            "remember that Alice likes tea and call Bob",
            "remember that Alice likes tea and Bob likes coffee",
            "remember that Grace lives in Tokyo and then what time is it there",
            "remember that Alice likes tea; call Bob",
            "remember that Oscar likes jazz\nremember that Oscar lives in Oslo",
            // Invisible characters make look-alike names.
            "remember that Zo\u{200b}\u{eb} likes tea",
            "remember that Ann\u{1}a likes tea",
            // A reminder's object, or the present, is no fact.
            "remember the current time",
        ] {
            assert!(
                matches!(fact_to_remember(goal), Some(Err(_))),
                "{goal:?}: {:?}",
                fact_to_remember(goal)
            );
        }
    }

    #[test]
    fn other_requests_are_no_facts() {
        for goal in [
            "what do you remember about Bob?",
            "remember to buy milk",
            "do you remember that Alice likes tea?",
            "I don't remember if Alice likes tea",
            "add 2 and 3",
            "add a new person called Erin",
            "write notes.txt",
            "search my knowledge graph for tea",
        ] {
            assert_eq!(fact_to_remember(goal), None, "{goal:?}");
        }
        // Only people, organisations and places are a memory's to add.
        for goal in [
            "add a label to the issue",
            "add 2 and 3",
            "create a branch called main",
            "add a new branch called Main",
            "create a folder named Projects",
            "add a task called Review",
            "add a new user called Victor",
        ] {
            assert_eq!(entity_to_add(goal), None, "{goal:?}");
        }
    }

    #[test]
    fn relation_questions_name_the_relation_and_the_entity_or_are_none() {
        let q = |relation: &str, entity: &str, entity_ends: bool| {
            Some(RelationQuestion {
                relation: relation.into(),
                entity: entity.into(),
                entity_ends,
            })
        };
        for (text, want) in [
            ("who works at Globex?", q("works at", "Globex", true)),
            (
                "Who works at Globex Corp",
                q("works at", "Globex Corp", true),
            ),
            ("who knows Bob?", q("knows", "Bob", true)),
            ("who does Alice know?", q("knows", "Alice", false)),
            ("whom does Dana work for?", q("works for", "Dana", false)),
            ("who does Ann watch", q("watches", "Ann", false)),
            ("who does Bo carry", q("carries", "Bo", false)),
            ("who is Bob?", None),
            ("who has Bob", None),
            ("who worked at Globex?", None),
            ("who works at globex?", None),
            ("who works at the bakery?", None),
            ("who knows him?", None),
            ("who knows?", None),
            ("who doesn't work at Globex?", None),
            ("who works at Globex and Initech?", None),
            ("who works at Globex, Initech?", None),
            ("what works at Globex?", None),
            ("who does Alice not know?", None),
            ("who does Alice know well?", None),
            ("", None),
            ("who", None),
        ] {
            assert_eq!(relation_question(text), want, "{text:?}");
        }
    }
}
