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
}

/// Ordinal words, in order; "last" and "final" close a sequence.
const ORDINALS: [&str; 6] = ["first", "second", "third", "fourth", "fifth", "sixth"];
const CLOSING: [&str; 2] = ["last", "final"];

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
/// area", "the distance *between* them", "the *average* of the three").
const AGGREGATES: [&str; 11] = [
    "total",
    "combined",
    "sum",
    "altogether",
    "together",
    "overall",
    "between",
    "difference",
    "ratio",
    "average",
    "mean",
];

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

/// An instance's text without its ordinal word ("The *first* company
/// has …" → "The company has …"): the order says which instance, and is
/// no position the capability is asked for.
pub(crate) fn without_ordinal(text: &str) -> String {
    let words = word_spans(text);
    for (k, (span, w)) in words.iter().enumerate().take(4) {
        if (ORDINALS.contains(&w.as_str()) || CLOSING.contains(&w.as_str()))
            && k > 0
            && words[k - 1].1 == "the"
        {
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
        // An instance states; a question that says "the first …" asks
        // about one ("what was the first movie …").
        if clause.trim_end().ends_with('?') {
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
        if let Some(prefix) = clause.get(..cuts[0].0) {
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
                .trim_end_matches([',', ';', ':', '.'])
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
    let refs: Vec<Reference> = asks.iter().map(|a| reference(&a.text, instances)).collect();
    if refs.is_empty() || !refs.contains(&Reference::Group) || refs.contains(&Reference::None) {
        return None;
    }
    let aggregate = asks.iter().find_map(|a| {
        let words: Vec<String> = word_spans(&a.text).into_iter().map(|(_, w)| w).collect();
        if words.iter().any(|w| DISTRIBUTIVE.contains(&w.as_str())) {
            return None;
        }
        words.into_iter().find(|w| AGGREGATES.contains(&w.as_str()))
    });
    Some(Story {
        parts,
        instances,
        aggregate,
    })
}

/// Words opening a clause that sets a scene ("*Imagine* you have two
/// investments", "*Suppose* there are three boxes").
const SCENE_OPENERS: [&str; 5] = ["imagine", "suppose", "consider", "assume", "picture"];

/// Copulas and verbs of having, by which a clause opening with a name
/// states a fact ("John *is* a teacher", "Alice *has* two cars").
const STATING_VERBS: [&str; 7] = ["is", "are", "was", "were", "has", "have", "had"];

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

/// How `ask` refers to a group of `n` instances.
fn reference(ask: &str, n: usize) -> Reference {
    let words: Vec<String> = word_spans(ask).into_iter().map(|(_, w)| w).collect();
    let count = |w: &str| {
        COUNTS
            .iter()
            .position(|c| *c == w)
            .map(|k| if k >= 5 { 2 } else { k + 2 })
            .or_else(|| w.parse::<usize>().ok())
    };
    let counted = words
        .windows(2)
        .any(|w| count(&w[0]) == Some(n) && w[1].chars().all(char::is_alphabetic));
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
