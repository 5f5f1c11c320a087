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
//! - the speaker ("I", "my …"), as the entity `user`;
//! - otherwise a noun phrase before *is/are/was/were* ("the office wifi
//!   password is hunter2": `office wifi password`).
//!
//! A subject that is a pronoun ("she likes tea") or missing ("remember to
//! buy milk") is not guessed: [`fact_to_remember`] says why instead.

use super::mentions::{MentionKind, mentions};

/// The entity a statement about the speaker is stored under.
pub const SPEAKER: &str = "user";

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
/// by the statement).
const OPENERS: &[&str] = &[
    "remember that ",
    "please remember that ",
    "note that ",
    "please note that ",
    "make a note that ",
    "keep in mind that ",
    "bear in mind that ",
    "don't forget that ",
    "do not forget that ",
    "memorize that ",
    "memorise that ",
    "store the fact that ",
    "record the fact that ",
    "remember the fact that ",
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

/// Subjects that point back to something the goal does not name.
const PRONOUNS: &[&str] = &[
    "he", "she", "it", "they", "him", "her", "them", "his", "its", "their", "this", "that",
    "these", "those",
];

/// Determiners dropped from a noun-phrase subject.
const DETERMINERS: &[&str] = &["the", "a", "an"];

/// The fact `clause` asks to remember: `None` when it asks nothing of
/// the kind, `Some(Err(why))` when it does but what the fact is about is
/// not clear.
pub fn fact_to_remember(clause: &str) -> Option<Result<Fact, String>> {
    let text = clause.trim().trim_end_matches(['.', '!']).trim();
    let lower = text.to_lowercase();
    if let Some(rest) = OPENERS.iter().find_map(|o| {
        lower
            .starts_with(o)
            .then(|| text.get(o.len()..).unwrap_or_default())
    }) {
        return Some(read_statement(rest.trim(), None));
    }
    // "remember Alice likes tea": a name must follow, never "remember to
    // buy milk" or "remember the password" (a question of recall).
    if let Some(rest) = lower
        .strip_prefix("remember ")
        .map(|_| text.get("remember ".len()..).unwrap_or_default().trim())
        && starts_with_name(rest)
    {
        return Some(read_statement(rest, None));
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
            return Some(read_statement(statement, None));
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
    if kind.is_empty() || !kind.chars().all(|c| c.is_alphabetic()) {
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
fn read_statement(statement: &str, kind: Option<String>) -> Result<Fact, String> {
    let statement = statement.trim().trim_end_matches(['.', '!', ',']).trim();
    if statement.is_empty() {
        return Err("the goal asks to remember something, but states nothing".into());
    }
    let words: Vec<&str> = statement.split_whitespace().collect();
    let first = words.first().map(|w| w.to_lowercase()).unwrap_or_default();
    let fact = |subjects: Vec<String>| Fact {
        subjects,
        statement: Some(statement.to_string()),
        kind: kind.clone(),
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

/// "Bob's" is Bob.
fn without_possessive(name: &str) -> String {
    name.trim_end_matches("'s")
        .trim_end_matches("’s")
        .trim()
        .to_string()
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
    fn an_unclear_subject_is_not_guessed() {
        for goal in [
            "remember that she likes tea",
            "remember that it is raining",
            "note that likes tea",
            "remember that Alice",
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
            "remember the password",
            "add 2 and 3",
            "add a new person called Erin",
            "write notes.txt",
            "search my knowledge graph for tea",
        ] {
            assert_eq!(fact_to_remember(goal), None, "{goal:?}");
        }
        for goal in [
            "add a label to the issue",
            "add 2 and 3",
            "create a branch called main",
        ] {
            assert_eq!(entity_to_add(goal), None, "{goal:?}");
        }
    }
}
