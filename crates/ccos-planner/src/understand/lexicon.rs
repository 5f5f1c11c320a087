//! Operation words, grouped so that two of them can contradict each other.
//!
//! A goal that says *divide* must not be served by a capability named
//! *sum*, however well its parameter names fit; a goal that *lists* must
//! not be served by an operation that *creates*. Each [`GROUPS`] entry is a
//! family of mutually exclusive operations; each operation has a few
//! words, compared after stemming.
//!
//! [`contradiction`]: within one family, when the goal clause uses words of
//! some operations and the capability's *name* (its name and the last
//! segment of its id; never its description, which mentions many verbs)
//! uses words of others only, the capability contradicts the goal. A
//! capability the goal names explicitly (its id or name appears in the
//! goal) never contradicts it ("use get-sum to add 4 and 5").
//!
//! The families are deliberately small and unambiguous; a word that often
//! means several things ("remember", "times", "check") is left out.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use ccos_marketplace::CapabilityManifest;
use ccos_marketplace::search::analyze;

/// An operation and the words that name it.
pub type Operation = (&'static str, &'static [&'static str]);

/// Families of mutually exclusive operations: (family, [(operation, words)]).
pub const GROUPS: &[(&str, &[Operation])] = &[
    (
        "arithmetic",
        &[
            ("add", &["add", "sum", "plus", "addition", "total"]),
            (
                "subtract",
                &["subtract", "minus", "difference", "subtraction"],
            ),
            (
                "multiply",
                &["multiply", "product", "multiplication", "mul"],
            ),
            ("divide", &["divide", "quotient", "division", "div"]),
        ],
    ),
    (
        "case",
        &[
            ("upper", &["upper", "uppercase", "capitals", "capitalize"]),
            ("lower", &["lower", "lowercase"]),
        ],
    ),
    (
        "clock",
        &[
            ("wait", &["sleep", "wait", "pause", "delay"]),
            ("tell", &["now", "current", "clock"]),
        ],
    ),
    (
        "data",
        &[
            (
                "create",
                &[
                    "create", "add", "new", "insert", "post", "register", "write", "save", "store",
                    "upload", "star", "compress", "gzip", "commit", "push", "stage",
                ],
            ),
            (
                "read",
                &[
                    "get", "list", "read", "fetch", "show", "find", "search", "retrieve", "view",
                    "describe", "lookup", "display", "load", "download",
                ],
            ),
            (
                "update",
                &[
                    "update", "edit", "modify", "patch", "change", "rename", "replace", "append",
                    "move", "checkout", "switch", "reset",
                ],
            ),
            (
                "delete",
                &[
                    "delete", "remove", "destroy", "erase", "forget", "cancel", "purge", "unstar",
                    "revoke",
                ],
            ),
            // Keeping one of each is no deletion of what the goal names
            // ("list the issues and delete them" is not deduplicating).
            (
                "dedupe",
                &[
                    "unique",
                    "dedupe",
                    "deduplicate",
                    "distinct",
                    "duplicate",
                    "duplicates",
                ],
            ),
        ],
    ),
];

/// Imperative verbs that begin a new request in a coordinated goal ("ask
/// me for a number *and double* it"): a free-text capture of a rule must
/// not swallow them.
const ACTION_VERBS: &[&str] = &[
    "add",
    "append",
    "archive",
    "ask",
    "calculate",
    "checkout",
    "close",
    "commit",
    "compress",
    "compute",
    "convert",
    "copy",
    "count",
    "create",
    "decrease",
    "delete",
    "deploy",
    "divide",
    "double",
    "download",
    "echo",
    "extract",
    "fetch",
    "find",
    "forget",
    "get",
    "halve",
    "increase",
    "install",
    "join",
    "list",
    "load",
    "lowercase",
    "merge",
    "multiply",
    "note",
    "parse",
    "print",
    "publish",
    "push",
    "read",
    "refund",
    "remember",
    "remove",
    "replace",
    "restore",
    "reverse",
    "revoke",
    "save",
    "say",
    "search",
    "send",
    "ship",
    "show",
    "sleep",
    "sort",
    "split",
    "square",
    "stage",
    "star",
    "store",
    "subtract",
    "sum",
    "tell",
    "triple",
    "update",
    "upload",
    "uppercase",
    "wait",
    "write",
];

/// True when `word` (any case) is an imperative verb that starts a new
/// request (see [`ACTION_VERBS`]).
pub fn is_action_verb(word: &str) -> bool {
    let w = word
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    ACTION_VERBS.binary_search(&w.as_str()).is_ok()
}

/// True when `text` coordinates a further request: " and " or " then "
/// followed by an action verb ("a number and double it"), or by any word
/// whose object is a pronoun ("a word and *shout it* back"): what "it"
/// stands for is the earlier request's result, so the word is a verb.
pub fn has_coordinated_request(text: &str) -> bool {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .collect();
    let joins = |w: &str| w == "and" || w == "then";
    words
        .windows(2)
        .any(|w| joins(&w[0]) && is_action_verb(&w[1]))
        || words
            .windows(3)
            .any(|w| w[0] == "and" && w[1] == "then" && is_action_verb(&w[2]))
        || words.windows(3).any(|w| {
            joins(&w[0])
                && matches!(w[2].as_str(), "it" | "them" | "me" | "us")
                && w[1].chars().all(char::is_alphabetic)
                && !w[1].is_empty()
                && !PREPOSITIONS.contains(&w[1].as_str())
                && !matches!(
                    w[1].as_str(),
                    "is" | "was" | "are" | "were" | "does" | "did"
                )
        })
}

/// Words that ask for the same operation ("grab", "fetch", "download"
/// a URL all mean *get* it). A request word matches a capability when any
/// word of its set does; the sets are small and deliberately unambiguous
/// (no "show", which reads, lists or prints; no "open", "order" or
/// "pull", which also name things: an issue, a purchase, a pull request).
pub const SYNONYMS: &[&[&str]] = &[
    &["get", "fetch", "download", "grab", "retrieve", "obtain"],
    &["read", "cat", "view"],
    &["write", "save", "store"],
    &["delete", "remove", "erase", "forget"],
    &["search", "find", "lookup"],
    &["sort", "arrange"],
    // "the first 3 lines": taking from the start.
    &["take", "first"],
    &["sleep", "wait", "pause", "delay"],
    &["echo", "repeat", "say"],
    // Not "capitalize": it makes the first letter a capital ("Hello").
    &["upper", "uppercase", "capitals", "caps"],
    &["lower", "lowercase"],
    &["remember", "memorize", "memorise"],
    &["count", "tally"],
    &["unique", "distinct", "dedupe", "deduplicate"],
    &["descending", "desc", "decreasing"],
    &["ascending", "asc", "increasing"],
    // (Git's index: to stage a file is to add it.)
    &["add", "sum", "stage"],
    &["repo", "repository"],
    &["folder", "directory"],
    // "what's *different* between …" asks for a diff.
    &["diff", "difference", "differences", "different"],
    &["subfolder", "subfolders", "subdirectory", "subdirectories"],
    // (Not "letters": counting characters counts spaces and digits too —
    // "count the letters in 'hello world'" gave 11, attack trial.)
    &["char", "chars", "character", "characters"],
    &["max", "maximum", "largest", "biggest", "highest"],
    &["min", "minimum", "smallest", "lowest"],
    &["size", "big"],
    &["entire", "everything", "whole"],
    &["now", "today"],
];

/// Whether the words ask for the duplicates themselves ("list the
/// *duplicate* numbers", "find duplicated lines"), not to remove them
/// ("remove the duplicates", "without duplicates").
pub fn asks_for_duplicates(words: &[String]) -> bool {
    const REMOVING: &[&str] = &[
        "remove",
        "removing",
        "drop",
        "dropping",
        "delete",
        "deleting",
        "without",
        "eliminate",
        "strip",
        "dedupe",
        "deduplicate",
        "no",
        "rid",
        "discard",
        "exclude",
        "excluding",
        "minus",
        "ignore",
        "ignoring",
        "skip",
        "skipping",
        "filter",
    ];
    words.iter().enumerate().any(|(i, w)| {
        w.starts_with("duplic") && !words[..i].iter().any(|x| REMOVING.contains(&x.as_str()))
    })
}

/// Set phrases read as the one word they mean ("right now" is "now": the
/// "right" of it asks for nothing).
pub const IDIOMS: &[(&str, &str)] = &[
    ("right now", "now"),
    ("at the moment", "now"),
    ("as of now", "now"),
    // Git's "check out" switches branches; "check" alone asks to verify.
    ("check out a new branch", "checkout a new branch"),
    ("check out the branch", "checkout the branch"),
    ("check out branch", "checkout branch"),
    // An order's direction as the one word that says it ("sort by age,
    // high to low").
    ("highest to lowest", "descending"),
    ("largest to smallest", "descending"),
    ("biggest to smallest", "descending"),
    ("high to low", "descending"),
    ("lowest to highest", "ascending"),
    ("smallest to largest", "ascending"),
    ("low to high", "ascending"),
    ("decreasing order", "descending"),
    ("descending order", "descending"),
    ("increasing order", "ascending"),
    ("ascending order", "ascending"),
    // Git compares with the working tree unless told otherwise: "between
    // my working tree and the main branch" asks for the diff with main.
    ("between my working tree and", "between"),
    ("between the working tree and", "between"),
    ("between my working copy and", "between"),
    ("between the working copy and", "between"),
    // A question of what is known asks to look it up, not to memorise.
    // (Longest first: "tell me" asks for nothing more.)
    ("tell me what you remember about", "search"),
    ("tell me what you know about", "search"),
    ("what do you remember about", "search"),
    ("what do you know about", "search"),
    ("what you remember about", "search"),
    ("what you know about", "search"),
];

/// Prepositions: the ones a mention's cue records (`mentions::Cue::prep`),
/// and never a verb before "it" ([`has_coordinated_request`]).
pub const PREPOSITIONS: &[&str] = &[
    "to", "into", "onto", "from", "by", "in", "of", "for", "with", "about", "on", "at", "as",
    "than", "per", "under", "named", "called", "between", "over", "via", "through", "since",
    "until", "after", "before", "using", "near", "titled", "entitled", "below", "above",
];

/// Ordinals past the second, by word: what position each says.
const ORDINAL_WORDS: &[(&str, i64)] = &[
    ("third", 3),
    ("fourth", 4),
    ("fifth", 5),
    ("sixth", 6),
    ("seventh", 7),
    ("eighth", 8),
    ("ninth", 9),
    ("tenth", 10),
];

/// Whether `word` is an ordinal that only says a position: "third" to
/// "tenth", or written with digits ("4th", "21st"). ("First", "second"
/// and "last" also say other things: a count from the start, a unit of
/// time, the latest.)
pub fn is_nth_word(word: &str) -> bool {
    nth_value(&word.to_lowercase()).is_some()
}

/// The position "third".."tenth" or a digit ordinal says (`w` lower-case).
fn nth_value(w: &str) -> Option<i64> {
    ORDINAL_WORDS
        .iter()
        .find(|(o, _)| *o == w)
        .map(|(_, n)| *n)
        .or_else(|| digit_ordinal(w))
}

/// The position an ordinal word says: "first" 1, "second" 2, "4th" 4,
/// "last" -1, "penultimate" -2.
pub fn ordinal_position(word: &str) -> Option<i64> {
    let w = word.to_lowercase();
    match w.as_str() {
        "first" => Some(1),
        "second" => Some(2),
        "last" | "final" => Some(-1),
        "penultimate" => Some(-2),
        other => nth_value(other),
    }
}

/// Whether the stem `stem` says a position ("nth", the stems of "first",
/// "second", "last"): a word that names a capability named for the nth
/// item ("the *last* number", "the *second* person"). Not a synonym of
/// "nth": "last" says other things too (when it was *last* modified).
pub fn says_a_position(stem: &str) -> bool {
    static S: OnceLock<BTreeSet<String>> = OnceLock::new();
    S.get_or_init(|| {
        ["nth", "first", "second", "last", "final", "penultimate"]
            .iter()
            .flat_map(|w| analyze(w))
            .collect()
    })
    .contains(stem)
}

/// "4th", "21st", "2nd", "3rd": the number, when the suffix fits it.
fn digit_ordinal(w: &str) -> Option<i64> {
    let digits: String = w.chars().take_while(char::is_ascii_digit).collect();
    let suffix = &w[digits.len()..];
    let n: i64 = digits.parse().ok().filter(|n| (1..=100_000).contains(n))?;
    let wanted = match (n % 100, n % 10) {
        (11..=13, _) => "th",
        (_, 1) => "st",
        (_, 2) => "nd",
        (_, 3) => "rd",
        _ => "th",
    };
    (suffix == wanted).then_some(n)
}

/// `text` with its [`IDIOMS`] replaced (lower case).
pub fn without_idioms(text: &str) -> String {
    let mut t = text.to_lowercase();
    for (phrase, word) in IDIOMS {
        t = t.replace(phrase, word);
    }
    t
}

/// Words of asking, not of what is asked: requests ("show me",
/// "please") and questions ("what", "how many"). A refusal naming what a
/// capability lacks skips them.
pub const REQUEST_WORDS: &[&str] = &[
    "please",
    "show",
    "tell",
    "give",
    "display",
    "list",
    "print",
    "return",
    "get",
    "find",
    "let",
    "know",
    "want",
    "need",
    "like",
    "make",
    "made",
    // "I'd like to *see* what's inside config.json". (Not "put": "*put*
    // the numbers in order" sorts, "*put* 'docs' into a list" — attack
    // trial.)
    "see",
    "can",
    "could",
    "would",
    "will",
    "shall",
    "what",
    "whats",
    "which",
    "how",
    "many",
    "much",
    "help",
    "assist",
    "provide",
    "calculate",
    "compute",
    "determine",
    "wonder",
    "wondering",
    "curious",
    "interested",
    "imagine",
    "suppose",
];

/// Words of a request that say nothing a capability must do: the
/// [`REQUEST_WORDS`], and the containers of the values a goal states ("the
/// file", "the text") and words of the present ("now", "today").
pub const FILLER_WORDS: &[&str] = &[
    "number",
    "numbers",
    "total",
    "result",
    "value",
    "values",
    "output",
    "answer",
    "file",
    "files",
    "text",
    "content",
    "contents",
    "data",
    "document",
    "thing",
    "things",
    "using",
    "use",
    "via",
    // "echo *back* \"testing\"", "read it *back*".
    "back",
    "also",
    "now",
    "current",
    "currently",
    "right",
    "today",
    "one",
    "ones",
    "it",
    "its",
    "them",
    "there",
    "here",
    "something",
    "given",
    "following",
    "string",
    "list",
    "item",
    "items",
    "new",
    "time",
    "title",
    "since",
    "together",
    "according",
    // "all markdown files, *including* in subfolders": it says what else
    // counts, which the words after it name.
    "including",
    // Vague qualifiers: they point at something the goal says elsewhere
    // ("a *certain* process given an initial temperature of 300K").
    "certain",
    "specific",
    "particular",
    "respective",
    "respectively",
    "already",
    "another",
    // Hedges: "the *approximate* distance" is what any distance computed
    // is. ("Estimated" is not: "the estimated standings for 2030" asks
    // for a projection — attack trial.)
    "approximate",
    "approximately",
    "roughly",
    // The passive of a light verb: "what commits *were made* since …"
    // asks for the commits, not for making any.
    "made",
];

/// Whether the word at `i` of `words` (lower case) says in which order
/// the requests come: "first", "last", "finally" right before a verb
/// ("could you *first* analyze …"), never a position of a thing ("the
/// first line").
pub fn orders_requests(words: &[String], i: usize) -> bool {
    words
        .get(i)
        .is_some_and(|w| matches!(w.as_str(), "first" | "last" | "finally"))
        && words.get(i + 1).is_some_and(|n| {
            is_action_verb(n)
                || (!matches!(n.as_str(), "what" | "which" | "who" | "how")
                    && VERBS.iter().any(|(_, vs)| vs.contains(&n.as_str())))
                || matches!(n.as_str(), "analyze" | "analyse")
        })
}

/// Words that deny what follows them: "*without* parking", "*don't*
/// return full text", "*no* ferries".
pub const DENYING_WORDS: &[&str] = &[
    "without",
    "no",
    "not",
    "don't",
    "dont",
    "never",
    "nor",
    "except",
    "excluding",
    "exclude",
    "lacking",
    "omit",
    "skip",
];

/// The words of `text` as written, lower case, with a contraction or a
/// hyphenated word kept whole ("don't", "two-part"): punctuation around
/// a word is cut, a curly apostrophe read as a straight one.
pub fn written_words(text: &str) -> Vec<String> {
    text.replace('\u{2019}', "'")
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '-')
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// The stems of [`REQUEST_WORDS`] (computed once).
pub fn request_word_stems() -> &'static BTreeSet<String> {
    static S: OnceLock<BTreeSet<String>> = OnceLock::new();
    S.get_or_init(|| REQUEST_WORDS.iter().flat_map(|w| analyze(w)).collect())
}

/// The stems of the words of the present ("now", "today", "current"):
/// filler that says when, not what (computed once).
pub fn present_word_stems() -> &'static BTreeSet<String> {
    static S: OnceLock<BTreeSet<String>> = OnceLock::new();
    S.get_or_init(|| {
        ["now", "today", "current", "currently"]
            .iter()
            .flat_map(|w| analyze(w))
            .collect()
    })
}

/// The stems of [`REQUEST_WORDS`] and [`FILLER_WORDS`] (computed once).
pub fn filler_word_stems() -> &'static BTreeSet<String> {
    static S: OnceLock<BTreeSet<String>> = OnceLock::new();
    S.get_or_init(|| {
        REQUEST_WORDS
            .iter()
            .chain(FILLER_WORDS)
            .chain(COURTESY)
            .flat_map(|w| analyze(w))
            .collect()
    })
}

/// The stems of a file's own name, without its folder and extension
/// ("people" of `data/people.json`): a request's word that repeats them
/// ("the *people* in people.json") names what the file holds, which the
/// file says, not what to do with it.
pub fn file_name_stems(path: &str) -> Vec<String> {
    let name = path
        .trim_end_matches('/')
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(path);
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    analyze(stem)
}

/// Whether `path` names a file — its last part has an extension
/// (`notes.txt`, `data/people.json`) — rather than a folder (`docs/`).
pub fn names_a_file(path: &str) -> bool {
    path.rsplit('/').next().is_some_and(|n| n.contains('.'))
}

/// Whether `path` names a JSON file (any case).
pub fn is_json_file(path: &str) -> bool {
    path.to_lowercase().ends_with(".json")
}

/// Words naming the members of a list of records ("the *entries* of
/// people.json"): a file read as JSON has them.
pub const RECORD_NOUNS: &str =
    "entries entry items item records record elements element objects object rows row";

/// Words naming the members of a text file read as a list ("the first
/// 3 *lines* of notes.txt", "the *numbers* in numbers.txt").
pub const TEXT_NOUNS: &str = "lines line numbers number";

/// The stems of the nouns naming what the file at `path` holds as a list:
/// records ([`RECORD_NOUNS`]) in a JSON file, [`TEXT_NOUNS`] in another.
pub fn held_noun_stems(path: &str) -> Vec<String> {
    analyze(if is_json_file(path) {
        RECORD_NOUNS
    } else {
        TEXT_NOUNS
    })
}

/// The stems of every noun naming the members of a file read as a list
/// ([`RECORD_NOUNS`] and [`TEXT_NOUNS`]; computed once).
pub fn held_noun_stems_all() -> &'static BTreeSet<String> {
    static S: OnceLock<BTreeSet<String>> = OnceLock::new();
    S.get_or_init(|| {
        analyze(RECORD_NOUNS)
            .into_iter()
            .chain(analyze(TEXT_NOUNS))
            .collect()
    })
}

/// Words that put the largest first when they come first ("largest
/// first").
const BIG_FIRST: &[&str] = &[
    "largest", "biggest", "highest", "greatest", "longest", "most", "heaviest", "tallest",
];

/// Words that put the smallest first ("smallest first").
const SMALL_FIRST: &[&str] = &[
    "smallest", "lowest", "least", "shortest", "fewest", "lightest",
];

/// Words of age, whose direction depends on what the key measures:
/// "oldest first" is the largest age but the smallest date.
const AGE_WORDS: &[&str] = &["oldest", "youngest", "newest", "latest", "earliest"];

/// What an ordering's key measures, for the age words of
/// [`order_directions`]: an age (oldest = largest) or a date (oldest =
/// smallest). Age words need the key to say which way they go.
struct KeyMeasure {
    age: bool,
    date: bool,
}

impl KeyMeasure {
    fn of(key: Option<&str>) -> Self {
        let key = key.map(str::to_lowercase).unwrap_or_default();
        let key_words: Vec<&str> = key
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        KeyMeasure {
            age: key_words.contains(&"age"),
            date: key_words.iter().any(|w| {
                matches!(
                    *w,
                    "date"
                        | "time"
                        | "created"
                        | "modified"
                        | "updated"
                        | "year"
                        | "born"
                        | "birth"
                        | "birthday"
                        | "timestamp"
                        | "at"
                        | "when"
                        | "mtime"
                        | "ctime"
                )
            }),
        }
    }

    /// "largest first", "oldest last": whether the largest comes first;
    /// `None` when the pair says no direction or it is a guess.
    fn first_or_last(&self, w: &str, place: &str) -> Option<bool> {
        let first = match place {
            "first" => true,
            "last" => false,
            _ => return None,
        };
        let big = if BIG_FIRST.contains(&w) {
            true
        } else if SMALL_FIRST.contains(&w) {
            false
        } else if AGE_WORDS.contains(&w) && self.age && !self.date {
            match w {
                "oldest" => true,
                "youngest" => false,
                _ => return None,
            }
        } else if AGE_WORDS.contains(&w) && self.date && !self.age {
            match w {
                "newest" | "latest" => true,
                "oldest" | "earliest" => false,
                _ => return None,
            }
        } else {
            return None;
        };
        Some(big == first)
    }
}

/// Every direction an ordering's words state, in order: the words, and
/// whether the largest comes first, for "descending"/"desc"/"decreasing",
/// "in reverse (order)", "from largest to smallest", "highest to lowest"
/// and "largest first", "smallest last", "oldest first" (for an age or a
/// date key: [`KeyMeasure`]) (and the other way for
/// "ascending"/"asc"/"increasing", "smallest to largest"). Two that
/// disagree ("ascending, largest first", "descending, ascending") are a
/// contradiction the caller refuses, never one of them picked.
pub fn order_directions(words: &[String], key: Option<&str>) -> Vec<(String, bool)> {
    const HIGH: &[&str] = &[
        "largest", "biggest", "highest", "maximum", "most", "greatest", "high",
    ];
    const LOW: &[&str] = &["smallest", "lowest", "minimum", "least", "fewest", "low"];
    let measure = KeyMeasure::of(key);
    let mut out = vec![];
    let at = |i: usize| words.get(i).map(String::as_str).unwrap_or("");
    for i in 0..words.len() {
        let w = at(i);
        let said = match w {
            "descending" | "desc" | "decreasing" => Some((w.to_string(), true)),
            "ascending" | "asc" | "increasing" => Some((w.to_string(), false)),
            "reverse" | "reversed" if i > 0 && at(i - 1) == "in" || at(i + 1) == "order" => {
                Some((format!("in {w}"), true))
            }
            _ if at(i + 1) == "to" && HIGH.contains(&w) && LOW.contains(&at(i + 2)) => {
                Some((format!("{w} to {}", at(i + 2)), true))
            }
            _ if at(i + 1) == "to" && LOW.contains(&w) && HIGH.contains(&at(i + 2)) => {
                Some((format!("{w} to {}", at(i + 2)), false))
            }
            _ => measure
                .first_or_last(w, at(i + 1))
                .map(|big| (format!("{w} {}", at(i + 1)), big)),
        };
        out.extend(said);
    }
    out
}

/// The stems of the words [`order_directions`] reads (computed once).
pub fn direction_stems() -> &'static BTreeSet<String> {
    static S: OnceLock<BTreeSet<String>> = OnceLock::new();
    S.get_or_init(|| {
        BIG_FIRST
            .iter()
            .chain(SMALL_FIRST)
            .chain(AGE_WORDS)
            .chain(&["first", "last"])
            .flat_map(|w| analyze(w))
            .collect()
    })
}

/// Whether `w` picks items by rank ("the three *biggest*", "the two
/// *first*"): a count in words before it is stated, not a weak word
/// (`mentions`).
pub fn is_superlative(w: &str) -> bool {
    is_direction_word(w) && !matches!(w, "heaviest" | "tallest" | "fewest" | "lightest")
        || matches!(w, "first" | "last" | "top" | "bottom" | "best" | "worst")
}

/// Whether `w` is a word [`order_directions`] may read.
pub fn is_direction_word(w: &str) -> bool {
    BIG_FIRST.contains(&w) || SMALL_FIRST.contains(&w) || AGE_WORDS.contains(&w)
}

/// Words of courtesy around a request ("could you please ..."): they say
/// nothing about what to do, so they are not evidence for or against a
/// capability (a word no capability uses would otherwise weigh most).
/// Chat shorthand counts too ("hey can u count …, thx").
pub const COURTESY: &[&str] = &[
    "could", "would", "please", "kindly", "pls", "plz", "hey", "thx", "thanks", "thank", "ty", "u",
];

/// The stems of [`COURTESY`] (computed once).
pub fn courtesy_stems() -> &'static BTreeSet<String> {
    static S: OnceLock<BTreeSet<String>> = OnceLock::new();
    S.get_or_init(|| COURTESY.iter().flat_map(|w| analyze(w)).collect())
}

/// The other words of `word`'s synonym set (surface forms), if any.
pub fn synonyms_of(word: &str) -> &'static [&'static str] {
    let w = word.to_lowercase();
    SYNONYMS
        .iter()
        .find(|set| set.contains(&w.as_str()))
        .copied()
        .unwrap_or(&[])
}

/// The stems of the synonym set of the stem `stem` (including itself).
pub fn synonym_stems(stem: &str) -> BTreeSet<String> {
    static S: OnceLock<Vec<BTreeSet<String>>> = OnceLock::new();
    let sets = S.get_or_init(|| {
        SYNONYMS
            .iter()
            .map(|set| set.iter().flat_map(|w| analyze(w)).collect())
            .collect()
    });
    let mut out: BTreeSet<String> = sets
        .iter()
        .filter(|set| set.contains(stem))
        .flat_map(|set| set.iter().cloned())
        .collect();
    out.insert(stem.to_string());
    out
}

/// The synonyms of the words of `text` that it does not already contain,
/// space-separated (to widen a catalog search).
pub fn synonym_expansion(text: &str) -> String {
    let words: BTreeSet<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let mut added: BTreeSet<&str> = BTreeSet::new();
    for w in &words {
        for s in synonyms_of(w) {
            if !words.contains(*s) {
                added.insert(s);
            }
        }
    }
    added.into_iter().collect::<Vec<_>>().join(" ")
}

/// Stemmed lexicon: (family, operation, stem).
fn stems() -> &'static Vec<(&'static str, &'static str, String)> {
    static S: OnceLock<Vec<(&'static str, &'static str, String)>> = OnceLock::new();
    S.get_or_init(|| {
        let mut v = vec![];
        for (family, ops) in GROUPS {
            for (op, words) in *ops {
                for w in *words {
                    for s in analyze(w) {
                        v.push((*family, *op, s));
                    }
                }
            }
        }
        v
    })
}

/// The operations (family, operation, word) named by `words` (stemmed).
fn operations(words: &BTreeSet<String>) -> Vec<(&'static str, &'static str, String)> {
    stems()
        .iter()
        .filter(|(_, _, s)| words.contains(s))
        .map(|(f, o, s)| (*f, *o, s.clone()))
        .collect()
}

/// The stemmed words of a capability's name: its name and the last
/// segment of its id.
pub fn name_words(m: &CapabilityManifest) -> BTreeSet<String> {
    let last = m.id.rsplit('.').next().unwrap_or(&m.id);
    let mut w: BTreeSet<String> = analyze(last).into_iter().collect();
    w.extend(analyze(&m.name));
    w
}

/// Action verbs (imperatives) and the intent type each suggests (the
/// clause splitter's table, `decompose::clause`).
pub const VERBS: &[(&str, &[&str])] = &[
    (
        "fetch",
        &[
            "get",
            "fetch",
            "read",
            "find",
            "search",
            "list",
            "look",
            "retrieve",
            "check",
            "query",
            "download",
            "load",
            "open",
            "view",
            "see",
            "tell",
            "give",
            "show",
            "what",
            "which",
            "who",
            "how",
            "recommend",
            "suggest",
            "help",
        ],
    ),
    (
        "filter",
        &["filter", "select", "keep", "exclude", "choose", "pick"],
    ),
    (
        "compute",
        &[
            "count",
            "compute",
            "calculate",
            "add",
            "sum",
            "multiply",
            "subtract",
            "divide",
            "estimate",
            "compare",
            "analyze",
            "analyse",
        ],
    ),
    (
        "transform",
        &[
            "convert",
            "translate",
            "summarize",
            "summarise",
            "format",
            "sort",
            "transform",
            "extract",
            "generate",
        ],
    ),
    (
        "output",
        &[
            "print", "display", "send", "email", "notify", "remind", "share", "post", "reply",
        ],
    ),
    (
        "write",
        &[
            "write", "save", "create", "book", "delete", "update", "set", "schedule", "cancel",
            "change", "modify", "remove", "buy", "order", "pay", "transfer", "register", "reserve",
            "assign", "upload", "make", "plan", "record", "edit", "apply", "submit", "handle",
            "arrange",
        ],
    ),
    ("askuser", &["ask"]),
];

/// Words opening a premise ("*Given* patient 5, …", "*Assuming* a gravity
/// of 9.8 m/s^2, …"): never a name, a verb to do, or a word the request
/// asks a capability to know.
pub const PREMISE_OPENERS: [&str; 2] = ["given", "assuming"];

/// Whether `word` (lower case) opens a request: a verb of [`VERBS`] or
/// a question word, or one of calling and messaging ("and *call* Bob").
pub fn is_request_verb(word: &str) -> bool {
    VERBS.iter().any(|(_, ws)| ws.contains(&word))
        || matches!(
            word,
            "call" | "text" | "message" | "phone" | "where" | "when" | "why"
        )
}

/// Whether `text` says `phrase` whole, case aside: no letter, digit or
/// character of `joins` touches it on either side ("Search *NY Times*
/// articles" says "NY Times", not "NY Time"; with `_` and `.` joining,
/// "use finance.predict_future_value." says the identifier, and
/// "finance.predict_future_value_v2" does not). A full stop right after
/// it ends the sentence unless a word goes on.
pub fn says_whole(text: &str, phrase: &str, joins: &[char]) -> bool {
    let (text, phrase) = (text.to_lowercase(), phrase.to_lowercase());
    let part = |c: char| c.is_alphanumeric() || joins.contains(&c);
    text.match_indices(&phrase).any(|(at, _)| {
        let after = &text[at + phrase.len()..];
        let after_ok = match after.strip_prefix('.') {
            Some(rest) => !rest.starts_with(part),
            None => !after.starts_with(part),
        };
        after_ok && !text[..at].ends_with(part)
    })
}

/// Whether `vocab` (stems) knows `word`: every stem of it, or a synonym
/// of the stem, is in `vocab` (a word without stems is unknown).
pub fn knows(vocab: &BTreeSet<String>, word: &str) -> bool {
    let stems = analyze(word);
    !stems.is_empty()
        && stems
            .iter()
            .all(|st| synonym_stems(st).iter().any(|x| vocab.contains(x)))
}

/// Whether `word` (lower case) names an operation of [`GROUPS`] ("sum",
/// "max", "upper").
pub fn is_operation_word(word: &str) -> bool {
    static WORDS: OnceLock<BTreeSet<String>> = OnceLock::new();
    let stems = WORDS.get_or_init(|| {
        GROUPS
            .iter()
            .flat_map(|(_, ops)| ops.iter())
            .flat_map(|(_, words)| words.iter())
            .flat_map(|w| analyze(w))
            .chain(
                ["min", "max", "mean", "average", "median", "count", "total"]
                    .iter()
                    .flat_map(|w| analyze(w)),
            )
            .collect()
    });
    analyze(word).iter().any(|s| stems.contains(s))
}

/// The stemmed words naming where `m` comes from: its id's provider
/// segments (`everything` of `mcp.everything.get-sum`), and "server" for
/// an MCP server's tool. "the sum of 2 and 4 according to the everything
/// *server*" names the provider, not something to do.
pub fn provider_words(m: &CapabilityManifest) -> BTreeSet<String> {
    let Some((provider, _)) = m.id.rsplit_once('.') else {
        return BTreeSet::new();
    };
    let mut w: BTreeSet<String> = analyze(provider)
        .into_iter()
        .filter(|s| s != "mcp" && s != "ccos")
        .collect();
    if m.id.starts_with("mcp.") {
        w.extend(analyze("server"));
    }
    w
}

/// The data operations (`create`, `read`, `update`, `delete`) `m`'s name
/// says it performs.
pub fn data_operations(m: &CapabilityManifest) -> BTreeSet<&'static str> {
    operations(&name_words(m))
        .into_iter()
        .filter(|(f, _, _)| *f == "data")
        .map(|(_, o, _)| o)
        .collect()
}

/// Whether `word` says where a text starts or ends ("lines *starting*
/// with Q", "words that *end* with s"): a restriction, read with "with".
pub fn bounds_text(word: &str) -> bool {
    matches!(
        word,
        "start"
            | "starts"
            | "starting"
            | "begin"
            | "begins"
            | "beginning"
            | "end"
            | "ends"
            | "ending"
    )
}

/// Words around a request before its verb, besides [`COURTESY`] ("can
/// you", "I want to", "go ahead and").
const REQUEST_OPENERS: &[&str] = &[
    "can", "will", "you", "i", "we", "want", "need", "like", "to", "let's", "lets", "go", "ahead",
    "and", "now", "just", "also", "then",
];

/// The modals a request is put politely with: "*can* you …", "*could* you
/// please …".
pub const POLITE_MODALS: &[&str] = &["can", "could", "would", "will"];

/// The first word of `text` (lower-case) that is no courtesy, no
/// [`REQUEST_OPENERS`] word and none of `also_skipped`: the request's
/// verb ("could you please *book* …").
fn opening_word(text: &str, also_skipped: &[&str]) -> Option<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .find(|w| {
            !COURTESY.contains(&w.as_str())
                && !REQUEST_OPENERS.contains(&w.as_str())
                && !also_skipped.contains(&w.as_str())
        })
}

/// Whether the goal clause `text` (its values blanked) asks for the change
/// a capability that changes something makes: one of `m`'s data
/// operations is among the goal's ("*add* a ticket" for `createTicket`),
/// or the goal opens with the verb of `m`'s name, or a synonym ("*book* a
/// hotel" for `bookHotel`, "*make* a directory" for `create_directory`).
/// "urgent tickets to Paris" asks for none (attack trial: it updated
/// ticket "Paris").
pub fn asks_for_change(text: &str, m: &CapabilityManifest) -> bool {
    let goal: BTreeSet<String> = analyze(text).into_iter().collect();
    let cops = data_operations(m);
    if operations(&goal)
        .iter()
        .any(|(f, o, _)| *f == "data" && cops.contains(o))
    {
        return true;
    }
    let last = m.id.rsplit('.').next().unwrap_or(&m.id);
    let Some(verb) = analyze(last).into_iter().next() else {
        return false;
    };
    let opening = opening_word(text, &[]);
    // Verbs of making ("generate a chord progression", "make a
    // directory") ask for what a capability that creates makes; booking
    // is reserving.
    const MAKING: &[&str] = &[
        "make", "generate", "build", "produce", "open", "start", "set",
    ];
    const BOOKING: &[&str] = &["book", "reserv"];
    opening.is_some_and(|w| {
        let stems = analyze(&w);
        stems.iter().any(|st| synonym_stems(st).contains(&verb))
            || (cops.contains("create") && MAKING.contains(&w.as_str()))
            || (BOOKING.contains(&verb.as_str())
                && stems.iter().any(|st| BOOKING.contains(&st.as_str())))
    })
}

/// The verb of a transaction the goal clause `text` opens with ("*book* a
/// hotel in Rome", "*cancel* my viewing") that `m` does not make: a
/// capability that changes nothing (`changes` false) and is not named for
/// it — a search is no booking —, or one that changes something but is
/// named for another change — `scheduleViewing` cancels nothing (helper
/// trials: both were planned).
pub fn transaction_not_made(text: &str, m: &CapabilityManifest, changes: bool) -> Option<String> {
    // Not "remove" ("remove duplicates" is a computation) nor "order"
    // ("order these numbers").
    const MAKING: &[&str] = &[
        "book", "reserve", "buy", "purchase", "rent", "pay", "transfer", "schedule", "refund",
        "borrow", "return", "renew", "adopt", "lend", "commit", "push", "merge", "deploy",
        "publish",
    ];
    const UNDOING: &[&str] = &["cancel", "revoke", "unsubscribe"];
    let opening = opening_word(text, &["me", "help", "please"])?;
    let undoing = UNDOING.contains(&opening.as_str());
    if !MAKING.contains(&opening.as_str()) && !undoing {
        return None;
    }
    let own = name_words(m);
    let named = analyze(&opening)
        .iter()
        .any(|st| synonym_stems(st).iter().any(|x| own.contains(x)));
    if named {
        return None;
    }
    // A change named for undoing ("delete_booking", "remove_viewing")
    // makes a cancellation.
    let undoes = data_operations(m).contains("delete");
    // Named for another transaction: `borrowBook` returns no book.
    let other = MAKING
        .iter()
        .chain(UNDOING)
        .filter(|v| **v != opening)
        .any(|v| analyze(v).iter().any(|st| own.contains(st)));
    let missing = if !changes {
        true
    } else if undoing {
        !undoes
    } else {
        undoes || other
    };
    missing.then_some(opening)
}

/// Why `m` contradicts the goal clause `text` (see the module docs), or
/// `None`.
pub fn contradiction(text: &str, m: &CapabilityManifest) -> Option<String> {
    contradiction_outside(text, m, None)
}

/// [`contradiction`], not looking at the family `skip` ("data" for a
/// question, whose nouns are no operation: "how many *stars*").
pub fn contradiction_outside(
    text: &str,
    m: &CapabilityManifest,
    skip: Option<&str>,
) -> Option<String> {
    let lower = text.to_lowercase();
    let last = m.id.rsplit('.').next().unwrap_or(&m.id).to_lowercase();
    if lower.contains(&m.id.to_lowercase())
        || (last.len() > 3 && lower.contains(&last))
        || (m.name.len() > 3 && lower.contains(&m.name.to_lowercase()))
    {
        return None;
    }
    let goal: BTreeSet<String> = analyze(text).into_iter().collect();
    let cap = name_words(m);
    let g = operations(&goal);
    let c = operations(&cap);
    for (family, _) in GROUPS.iter().filter(|(f, _)| Some(*f) != skip) {
        let gops: BTreeSet<&str> = g.iter().filter(|x| x.0 == *family).map(|x| x.1).collect();
        let cops: BTreeSet<&str> = c.iter().filter(|x| x.0 == *family).map(|x| x.1).collect();
        if !gops.is_empty() && !cops.is_empty() && gops.is_disjoint(&cops) {
            let gw = g
                .iter()
                .filter(|x| x.0 == *family)
                .map(|x| x.2.clone())
                .collect::<Vec<_>>();
            let cw = c
                .iter()
                .filter(|x| x.0 == *family)
                .map(|x| x.2.clone())
                .collect::<Vec<_>>();
            return Some(format!(
                "contradicts the goal: the goal asks to {} ({}), {} does {} ({})",
                gops.into_iter().collect::<Vec<_>>().join("/"),
                gw.join(", "),
                m.id,
                cops.into_iter().collect::<Vec<_>>().join("/"),
                cw.join(", ")
            ));
        }
    }
    None
}

/// Words that change *what* a request computes, beyond its operation:
/// which items (unique, first, longest), in which order (sorted,
/// descending), without what (ignoring, except), in which form (title
/// case, pretty). A capability that does not do them returns something
/// else than what was asked — "count the unique lines" answered with the
/// count of all lines — so [`unserved_qualifier`] refuses it.
/// (concept, words); compared after stemming.
pub const QUALIFIERS: &[(&str, &[&str])] = &[
    (
        "unique",
        &[
            "unique",
            "distinct",
            "deduplicate",
            "dedupe",
            "duplicate",
            "duplicates",
        ],
    ),
    (
        "order",
        &[
            "sort",
            "sorted",
            "sorting",
            "alphabetical",
            "alphabetically",
            "ascending",
            "descending",
            "reverse",
            "reversed",
            "backwards",
        ],
    ),
    (
        "position",
        &[
            "first", "last", "top", "bottom", "final", "trailing", "latter", "ultimate", "closing",
            "middle",
        ],
    ),
    ("select", &["only"]),
    ("repeat", &["times", "thrice"]),
    ("case", &["uppercase", "lowercase", "capitals"]),
    (
        "extreme",
        &[
            "longest", "shortest", "largest", "smallest", "biggest", "highest", "lowest",
            "maximum", "minimum",
        ],
    ),
    ("aggregate", &["average", "mean", "median"]),
    (
        "exclude",
        &[
            "ignoring",
            "ignore",
            "except",
            "excluding",
            "exclude",
            "without",
            "skipping",
            "omitting",
        ],
    ),
    ("style", &["title", "camel", "snake", "kebab", "sentence"]),
    (
        "layout",
        &[
            "pretty",
            "indented",
            "minified",
            "pretty-printed",
            "pretty-print",
            "prettified",
            "prettify",
            "beautified",
            "beautify",
        ],
    ),
];

/// `from largest to smallest` is an order, `descending` (and `from
/// smallest to largest` `ascending`), not two extremes.
pub(crate) fn order_phrases(words: Vec<String>) -> Vec<String> {
    const HIGH: &[&str] = &["largest", "biggest", "highest", "maximum", "most"];
    const LOW: &[&str] = &["smallest", "lowest", "minimum", "least"];
    let mut out = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let at = |k: usize| words.get(i + k).map(String::as_str).unwrap_or("");
        // "in reverse (order)": descending.
        if at(0) == "in" && at(1) == "reverse" {
            out.push("descending".to_string());
            i += if at(2) == "order" { 3 } else { 2 };
            continue;
        }
        if at(0) == "from" && at(2) == "to" {
            let dir = match (at(1), at(3)) {
                (a, b) if HIGH.contains(&a) && LOW.contains(&b) => Some("descending"),
                (a, b) if LOW.contains(&a) && HIGH.contains(&b) => Some("ascending"),
                _ => None,
            };
            if let Some(d) = dir {
                out.push(d.to_string());
                i += 4;
                continue;
            }
        }
        out.push(words[i].clone());
        i += 1;
    }
    out
}

/// Words that say what *not* to do ("don't sort", "but not descending"):
/// a plan does what its steps say, so such a goal is refused.
const NEGATIONS: &[&str] = &[
    "not",
    "don't",
    "dont",
    "never",
    "nor",
    "instead",
    "doesn't",
    "shouldn't",
    "won't",
    "cannot",
    "can't",
    "neither",
    "no",
    "except",
    "excluding",
    "besides",
    "skip",
    "skipping",
    "spare",
    "sparing",
    "excepted",
    "exclude",
    "excluded",
    "omit",
    "omitting",
    "alone",
    "remain",
];

/// Phrases that exclude ("the issues *other than* the closed ones"): like
/// [`NEGATIONS`], a plan cannot leave out on its own what they name.
const EXCLUSIONS: &[&str] = &[
    "other than",
    "rather than",
    "apart from",
    "aside from",
    "leaving out",
    "leave out",
    "minus the",
];

/// Whether `word` (lower case) says what *not* to do (see
/// [`NEGATIONS`]): "not", "don't", "never", "except"…
pub fn is_negation_word(word: &str) -> bool {
    NEGATIONS.contains(&word)
}

/// Why `text` asks for something a plan cannot do: it says what *not* to
/// do (see [`NEGATIONS`]).
pub fn negation(text: &str) -> Option<String> {
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let phrase = words
        .windows(2)
        .map(|w| w.join(" "))
        .find(|p| EXCLUSIONS.contains(&p.as_str()));
    words
        .iter()
        .find(|w| is_negation_word(w))
        .cloned()
        .or(phrase)
        .map(|w| {
            format!(
                "the goal says \"{w}\": what not to do is not something a plan can leave out on its own"
            )
        })
}

/// A time the text restricts to: "this week", "last month", "past
/// year", "per day", "recently", "yesterday", "since", "ago" (not
/// "today", which asks for the present).
pub fn time_restriction(text: &str) -> Option<String> {
    const SPANS: &[&str] = &[
        "hour", "day", "week", "weekend", "month", "quarter", "year", "decade", "night", "morning",
        "evening",
    ];
    const WORDS: &[&str] = &[
        "recently",
        "lately",
        "yesterday",
        "tomorrow",
        "since",
        "ago",
        "previously",
        "formerly",
    ];
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    for (i, w) in words.iter().enumerate() {
        if WORDS.contains(&w.as_str()) {
            return Some(w.clone());
        }
        if matches!(
            w.as_str(),
            "this" | "last" | "past" | "next" | "per" | "every"
        ) && let Some(n) = words.get(i + 1)
            && SPANS.contains(&n.trim_end_matches('s'))
        {
            return Some(format!("{w} {n}"));
        }
    }
    None
}

/// Whether `text` says "today" ("today's orders", "what's the date
/// today?"): the present, or a restriction to it (the caller decides by
/// the capability).
pub fn says_today(text: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric())
        .any(|w| matches!(w.to_lowercase().as_str(), "today" | "tonight"))
}

/// The opening of a question about doing something rather than a request
/// to do it ("should I …", "do I need to …", "how would I …", "tell me
/// how to …", "can I …").
pub fn asks_about_doing(text: &str) -> Option<String> {
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let modal = |w: &str| {
        matches!(
            w,
            "should"
                | "shall"
                | "can"
                | "could"
                | "may"
                | "must"
                | "do"
                | "does"
                | "would"
                | "will"
        )
    };
    for (i, w) in words.iter().enumerate().take(4) {
        let next = words.get(i + 1).map(String::as_str);
        // "should I", "do I need to", "how would I", "can we".
        if modal(w) && matches!(next, Some("i" | "we")) {
            return Some(format!("{w} {}", next.unwrap_or_default()));
        }
        // "how to", "tell me how", "explain how", "whether to".
        if (w == "how" || w == "whether") && i + 1 < words.len() {
            let n = next.unwrap_or_default();
            if n == "to" || modal(n) {
                return Some(format!("{w} {n}"));
            }
        }
    }
    None
}

/// A word that makes an action depend on something ("if it is empty",
/// "when it has been uploaded", "after uploading it", "before deleting
/// it"): a plan of calls does not check it.
pub fn condition(text: &str) -> Option<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .find(|w| {
            matches!(
                w.as_str(),
                "if" | "when"
                    | "whenever"
                    | "unless"
                    | "provided"
                    | "providing"
                    | "once"
                    | "after"
                    | "before"
                    | "until"
                    | "while"
                    | "only"
                    // "write … without overwriting it", "but keep its
                    // contents": a constraint on the effect, unchecked.
                    | "without"
                    | "keep"
                    | "keeping"
                    | "preserve"
                    | "preserving"
                    | "retain"
                    | "retaining"
            )
        })
}

/// Units after "the last/next N" that make it a time range.
pub(crate) const TIME_UNITS: &[&str] = &[
    "seconds", "minutes", "hours", "days", "weeks", "months", "years", "decades",
];

/// Words after which a `style` word names a case ("title case").
const STYLE_NOUNS: &[&str] = &["case", "cased", "casing"];

/// The first qualifier of `text` (see [`QUALIFIERS`]) that `m` does not
/// serve, with why; `None` when it serves them all (or there are none).
///
/// `text` is the clause without the values it states (quoted text, file
/// names); `bound` the parameters the plan fills. A qualifier is served
/// when one of its concept's words (or a synonym) is a word of the
/// capability's name or description — unless that word names one of the
/// capability's *parameters*, which then must be filled ("descending" is
/// served by `ccos.data.sort` only with `:descending` set). "First" and
/// "last" are also served by a filled paging parameter ("the first 5
/// issues"); a clause-initial "first" is sequencing, not a qualifier.
pub fn unserved_qualifier(
    text: &str,
    m: &CapabilityManifest,
    params: &[String],
    bound: &BTreeSet<String>,
) -> Option<String> {
    let words = order_phrases(
        text.split(|c: char| !c.is_alphanumeric() && c != '-' && c != '\'')
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect(),
    );
    let word_stems = |w: &str| -> BTreeSet<String> {
        analyze(w)
            .into_iter()
            .flat_map(|s| synonym_stems(&s))
            .collect()
    };
    let mut operation: BTreeSet<String> = name_words(m);
    operation.extend(
        m.description
            .split_whitespace()
            .next()
            .map(analyze)
            .unwrap_or_default(),
    );
    let mut described = operation.clone();
    described.extend(analyze(&m.description));
    let param_stems: BTreeSet<String> = params.iter().flat_map(|p| analyze(p)).collect();
    let bound_stems: BTreeSet<String> = bound.iter().flat_map(|p| analyze(p)).collect();
    static PAGING: OnceLock<BTreeSet<String>> = OnceLock::new();
    static KEY: OnceLock<BTreeSet<String>> = OnceLock::new();
    let stems_of =
        |words: &[&str]| -> BTreeSet<String> { words.iter().flat_map(|w| analyze(w)).collect() };
    let paging = PAGING.get_or_init(|| {
        stems_of(&[
            "limit", "per_page", "page", "count", "max", "top", "first", "take", "n", "size",
            "head", "tail", "num",
        ])
    });
    let key = KEY.get_or_init(|| stems_of(&["key", "by", "sort", "order", "field"]));
    let paging_bound = bound_stems.iter().any(|s| paging.contains(s));
    let direction_bound = bound_stems
        .iter()
        .any(|s| ["descend", "desc", "revers", "ascend", "asc"].contains(&s.as_str()));
    // "oldest first" at `j` (the direction word).
    let is_direction = |j: usize| {
        words.get(j).is_some_and(|x| is_direction_word(x))
            && words
                .get(j + 1)
                .is_some_and(|n| matches!(n.as_str(), "first" | "last"))
    };
    let key_bound = bound_stems.iter().any(|s| key.contains(s));
    // "the *4th*", "the *third*": a position too, when one is said; several
    // name values ("the 2nd, 3rd and 4th floors").
    let one_nth = words.iter().filter(|w| is_nth_word(w)).count() == 1;
    let position_bound = bound_stems
        .iter()
        .any(|s| says_a_position(s) || analyze("position").contains(s));
    for (i, w) in words.iter().enumerate() {
        let nth: (&str, &[&str]) = ("position", &[]);
        let Some((concept, _)) = QUALIFIERS
            .iter()
            .find(|(_, ws)| ws.contains(&w.as_str()))
            .or_else(|| (one_nth && is_nth_word(w)).then_some(&nth))
        else {
            continue;
        };
        // "sorted by size": the order needs its key, a filled parameter.
        if *concept == "order" && words.get(i + 1).map(String::as_str) == Some("by") && !key_bound {
            return Some(format!(
                "the goal asks for \"{w} by\" a key, which {} does not take",
                m.id
            ));
        }
        // "*First*, read notes.txt": the order of requests. ("*Last* but
        // one number" is a position: attack trial, `file.stat` answered.)
        if *concept == "position" && i == 0 && w == "first" {
            continue;
        }
        // "the *last* number": a bound position serves it.
        if *concept == "position" && position_bound {
            continue;
        }
        // "could you *first* calculate …": the order of the requests, no
        // position of a thing.
        if *concept == "position" && orders_requests(&words, i) {
            continue;
        }
        // "when was it *last modified*": a time, not a position.
        if w == "last"
            && words.get(i + 1).is_some_and(|n| {
                matches!(
                    n.as_str(),
                    "modified" | "changed" | "updated" | "edited" | "written" | "touched"
                )
            })
        {
            continue;
        }
        // "by age, oldest first": the direction, served by a bound
        // direction parameter (bound only when the words say which way).
        if direction_bound && (is_direction(i) || (i > 0 && is_direction(i - 1))) {
            continue;
        }
        if *concept == "style"
            && !words
                .get(i + 1)
                .is_some_and(|n| STYLE_NOUNS.contains(&n.as_str()))
        {
            continue;
        }
        // A bound count serves "the first 3" (a count takes from the
        // start), not "the last 3": that needs a count from the end
        // (`tail`) or a capability named for it.
        if *concept == "position" && paging_bound {
            let from_end = matches!(
                w.as_str(),
                "last" | "bottom" | "final" | "trailing" | "latter" | "ultimate" | "closing"
            );
            let end_stems = stems_of(&["tail", "last", "end", "bottom"]);
            let from_end_served = bound_stems
                .iter()
                .chain(operation.iter())
                .any(|s| end_stems.contains(s));
            // "the middle 2": neither end; no count serves it.
            let from_start = matches!(w.as_str(), "first" | "top");
            if from_start || (from_end && from_end_served) {
                continue;
            }
        }
        // "the last five years", "the next 50 years": a time range.
        if *concept == "position"
            && (words.get(i + 1).into_iter().chain(words.get(i + 2)))
                .any(|u| TIME_UNITS.contains(&u.as_str()))
        {
            continue;
        }
        let stems = word_stems(w);
        let as_param = stems.iter().any(|s| param_stems.contains(s));
        // The clause's own verb ("sort the lines of ...") names the
        // operation: the capability's name or its description's verb must
        // say it, not a passing word of its description ("List a
        // directory: sorted entries").
        let served = if as_param {
            stems.iter().any(|s| bound_stems.contains(s))
        } else if *concept == "select"
            && ["filter", "keep", "select"]
                .iter()
                .flat_map(|w| analyze(w))
                .any(|s| operation.contains(&s))
        {
            // "keep *only* the people from London": a filter keeps only
            // what its condition names.
            true
        } else if *concept == "position" {
            // "the first line": a capability whose description merely
            // says it can read "the first N lines" does not, unless a
            // count is bound (above) or its name says it (`first`; the
            // last one is the `latest`).
            stems.iter().any(|s| operation.contains(s))
                || (w == "last" && ["latest", "newest"].iter().any(|l| operation.contains(*l)))
        } else if i == 0 {
            stems.iter().any(|s| operation.contains(s))
        } else {
            stems.iter().any(|s| described.contains(s))
        };
        if !served {
            return Some(format!(
                "the goal asks for \"{w}\" ({concept}), which {} does not do",
                m.id
            ));
        }
    }
    None
}

/// Whether a parameter's name says it takes where something is (a path,
/// a file or folder name, an address), not the thing itself.
pub fn names_a_location(param: &str) -> bool {
    param
        .to_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| {
            matches!(
                w,
                "path"
                    | "file"
                    | "filename"
                    | "filepath"
                    | "dir"
                    | "directory"
                    | "folder"
                    | "url"
                    | "uri"
            )
        })
}

/// `text` without the words a negation says it does not do ("a final
/// newline adds *no empty line*", "*without* headers"): up to two words
/// after "no", "not", "never" or "without", within the clause. They are
/// no evidence the capability serves them ("how many empty lines are in
/// notes.txt" was answered by splitting it into lines: attack trial).
pub fn without_negated(text: &str) -> String {
    let mut out: Vec<&str> = vec![];
    let mut skip = 0;
    for w in text.split_whitespace() {
        if skip > 0 {
            skip -= 1;
            // A clause ends at punctuation.
            if w.ends_with([',', '.', ';', ':', ')']) {
                skip = 0;
            }
            continue;
        }
        let bare = w
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_ascii_lowercase();
        if matches!(bare.as_str(), "no" | "not" | "never" | "without")
            && !w.ends_with([',', '.', ';', ':', ')'])
        {
            skip = 2;
        }
        out.push(w);
    }
    out.join(" ")
}

/// `text` without its examples ("Comma-separated label names, *e.g.
/// bug,ui*"): an example value says what may be passed, not what the
/// capability does, so "list the *bug* issues" is not accounted for by
/// it. An example runs from "e.g.", "for example", "such as" or "like" to
/// the end of its sentence or parenthesis.
pub fn without_examples(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (start, _, end) in example_spans(text) {
        out.push_str(text.get(at..start).unwrap_or_default());
        at = end;
    }
    out.push_str(text.get(at..).unwrap_or_default());
    out
}

/// The examples a description gives ("the cuisine (e.g., Italian,
/// Chinese, Mexican)": `Italian`, `Chinese`, `Mexican`), as written,
/// without quotes: what [`without_examples`] cuts out, item by item.
pub fn examples(text: &str) -> Vec<String> {
    example_spans(text)
        .into_iter()
        .flat_map(|(_, from, end)| {
            text.get(from..end)
                .unwrap_or_default()
                .split([',', '/'])
                .flat_map(|x| x.split(" or "))
                .flat_map(|x| x.split(" and "))
                .map(|x| {
                    x.trim_matches(|c: char| "'\"`‘’“”".contains(c) || c.is_whitespace())
                        .to_string()
                })
                .filter(|x| !x.is_empty() && x.chars().count() <= 40)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Where `text`'s examples are: (marker start, examples start, end), the
/// end being the sentence's or parenthesis's. Found on an ASCII lower
/// case copy, which keeps every byte offset (the markers are ASCII; a
/// full lower-casing may change a character's length).
fn example_spans(text: &str) -> Vec<(usize, usize, usize)> {
    const MARKERS: &[&str] = &[
        "e.g.",
        "for example",
        "for instance",
        "such as",
        "example:",
        "examples:",
    ];
    let lower = text.to_ascii_lowercase();
    let mut out = vec![];
    let mut at = 0;
    while let Some((start, marker)) = MARKERS
        .iter()
        .filter_map(|m| lower.get(at..)?.find(m).map(|i| (at + i, m.len())))
        .min()
    {
        let from = start + marker;
        let end = lower
            .get(from..)
            .and_then(|r| r.find(['.', ';', ')']))
            .map_or(text.len(), |i| from + i);
        out.push((start, from, end));
        at = end;
    }
    out
}

/// Modal verbs ("how many words *should* it contain", "I *would* like"):
/// with a subject, they make a clause a sentence.
pub const MODAL_VERBS: &[&str] = &[
    "can", "could", "will", "would", "shall", "should", "may", "might", "must",
];

/// Auxiliary verbs ("which movies *did* …", "what team *is* X on"): they
/// ask and name nothing.
pub const AUXILIARIES: &[&str] = &[
    "is", "are", "was", "were", "do", "does", "did", "has", "have", "had",
];

/// Verbs saying someone is in a work's cast ("who *starred* in X", "what
/// movies has Y *played* in"): answered by a result's `cast` list.
pub const CAST_VERBS: &[&str] = &[
    "star", "stars", "starred", "starring", "act", "acts", "acted", "acting", "play", "plays",
    "played", "playing", "appear", "appears", "appeared",
];

/// Words naming a job in a work's crew, with the job as film credits name
/// it (TMDB's `job` values, the common vocabulary of film credits): "who
/// *directed* X" keeps the crew whose `job` is `Director`. Writing is left
/// out on purpose: "wrote" may be the screenplay, the story or the novel.
pub const CREW_JOBS: &[(&[&str], &str)] = &[
    (
        &["direct", "directs", "directed", "directing", "director"],
        "Director",
    ),
    (
        &[
            "compose",
            "composes",
            "composed",
            "composer",
            "music",
            "score",
            "soundtrack",
        ],
        "Original Music Composer",
    ),
    (&["produce", "produces", "produced", "producer"], "Producer"),
    (&["edit", "edits", "edited", "editor"], "Editor"),
];

/// The words of `text`, lower-cased ([`word_spans`] without the spans).
pub fn words_of(text: &str) -> Vec<String> {
    word_spans(text).into_iter().map(|(_, w)| w).collect()
}

/// The words of `text` with their byte spans, lower-cased.
pub fn word_spans(text: &str) -> Vec<(std::ops::Range<usize>, String)> {
    spans_of_runs(text, char::is_alphanumeric)
        .into_iter()
        .map(|r| {
            let w = text[r.clone()].to_lowercase();
            (r, w)
        })
        .collect()
}

/// The byte spans of the runs of characters `in_word` accepts: the words
/// of `text` by a chosen notion of word ([`word_spans`]: letters and
/// digits; a contraction keeps its apostrophe).
pub fn spans_of_runs(text: &str, in_word: impl Fn(char) -> bool) -> Vec<std::ops::Range<usize>> {
    let mut out = vec![];
    let mut start = None;
    for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
        match (in_word(c), start) {
            (true, None) => start = Some(i),
            (false, Some(st)) => {
                out.push(st..i);
                start = None;
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_pronoun_object_after_and_is_a_further_request() {
        assert!(has_coordinated_request("a word and reverse it"));
        assert!(has_coordinated_request(
            "my favorite color and shout it back"
        ));
        assert!(has_coordinated_request("a number, then halve them"));
        assert!(!has_coordinated_request("salt and pepper"));
        assert!(!has_coordinated_request("the name and for it"));
        assert!(!has_coordinated_request("why and is it so"));
    }

    #[test]
    fn ordinals_say_positions() {
        for (w, n) in [
            ("first", 1),
            ("second", 2),
            ("third", 3),
            ("4th", 4),
            ("21st", 21),
            ("22nd", 22),
            ("13th", 13),
            ("111th", 111),
            ("last", -1),
            ("penultimate", -2),
        ] {
            assert_eq!(ordinal_position(w), Some(n), "{w}");
        }
        for w in ["4st", "11st", "th", "fourthly", "0th", "seconds"] {
            assert_eq!(ordinal_position(w), None, "{w}");
        }
        assert!(is_nth_word("Fifth") && is_nth_word("4th"));
        assert!(!is_nth_word("first") && !is_nth_word("last"));
    }

    #[test]
    fn a_change_is_asked_for_by_its_operation_or_verb() {
        let cap = |id: &str| {
            ccos_marketplace::CapabilityManifest::new(id, "", serde_json::json!({"type": "object"}))
        };
        for (goal, id) in [
            ("add a ticket titled x", "app.createTicket"),
            ("book a hotel in Rome", "app.bookHotel"),
            ("reserve a suite at hotel H9", "app.bookHotel"),
            (
                "please make a directory named reports",
                "fs.create_directory",
            ),
            (
                "Generate a major chord progression",
                "music.create_chord_progression",
            ),
            ("copy a.txt to b.txt", "ccos.file.copy"),
            ("could you delete the file", "app.removeFile"),
        ] {
            assert!(super::asks_for_change(goal, &cap(id)), "{goal} / {id}");
        }
        // Attack trial: these updated ticket "Paris" / "London".
        for (goal, id) in [
            ("urgent tickets to Paris", "app.updateTicket"),
            ("open tickets in London", "app.updateTicket"),
            ("hotels in Rome", "app.bookHotel"),
            ("find a ticket to Paris", "app.updateTicket"),
        ] {
            assert!(!super::asks_for_change(goal, &cap(id)), "{goal} / {id}");
        }
    }

    #[test]
    fn examples_are_read_item_by_item() {
        assert_eq!(
            super::examples("Specify the cuisine type (e.g., Italian, Chinese, Mexican)"),
            ["Italian", "Chinese", "Mexican"]
        );
        assert_eq!(
            super::examples("A city, e.g. 'Paris' or 'Rome'."),
            ["Paris", "Rome"]
        );
        assert!(super::examples("The name of the city").is_empty());
        // A character whose lower case is longer never shifts the cut.
        assert_eq!(
            super::without_examples("İstanbul's district, e.g. Fatih."),
            "İstanbul's district, ."
        );
    }

    #[test]
    fn exclusions_and_today_are_read() {
        for t in [
            "list the issues other than the closed ones",
            "delete the messages except spam",
            "list the orders rather than the cancelled ones",
            "show the branches besides remote",
            "revoke my tokens, but skip the personal ones",
            "delete my messages, leaving out the inbox",
            "revoke the tokens but leave the personal ones alone",
            "list orders minus the cancelled",
        ] {
            assert!(super::negation(t).is_some(), "{t}");
        }
        assert!(super::negation("list the other issues").is_none());
        assert!(super::negation("what is 10 minus 3").is_none());
        assert!(super::says_today("list today's orders"));
        assert!(!super::says_today("list the orders"));
    }

    #[test]
    fn a_condition_is_seen() {
        for t in [
            "delete /data/a if it is empty",
            "delete /data/a after uploading it",
            "before deleting /data/a, upload it",
            "write 'x' to out.txt provided it is empty",
        ] {
            assert!(super::condition(t).is_some(), "{t}");
        }
        assert!(super::condition("delete /data/a").is_none());
    }

    #[test]
    fn a_question_about_doing_is_seen() {
        for t in [
            "should I revoke the personal tokens?",
            "do I need to copy a.txt to b.txt",
            "how would I revoke the tokens",
            "tell me how to delete /srv/app/build",
        ] {
            assert!(super::asks_about_doing(t).is_some(), "{t}");
        }
        for t in [
            "could you delete b.txt",
            "how many files are here",
            "delete b.txt",
        ] {
            assert!(super::asks_about_doing(t).is_none(), "{t}");
        }
    }

    #[test]
    fn a_count_serves_the_first_items_not_the_last() {
        use ccos_marketplace::CapabilityManifest;
        use serde_json::json;
        let take = CapabilityManifest::new(
            "ccos.data.take",
            "Take the first n items of a list",
            json!({"type": "object", "properties": {"items": {}, "n": {}}}),
        );
        let params = vec!["items".to_string(), "n".to_string()];
        let bound: std::collections::BTreeSet<String> = params.iter().cloned().collect();
        // "first" before a verb orders the requests.
        let sum = CapabilityManifest::new(
            "calculus.derivative",
            "Compute the derivative of a function at a value.",
            serde_json::json!({"type": "object", "properties": {}}),
        );
        assert_eq!(
            super::unserved_qualifier(
                "could you first calculate the derivative of f",
                &sum,
                &[],
                &std::collections::BTreeSet::new()
            ),
            None
        );
        let first = super::unserved_qualifier("take the first 2 items", &take, &params, &bound);
        assert!(first.is_none(), "{first:?}");
        let last = super::unserved_qualifier("take the last 2 items", &take, &params, &bound);
        assert!(last.is_some());
    }

    #[test]
    fn synonyms_widen_searches_and_matches() {
        assert_eq!(
            super::synonym_expansion("grab the page"),
            "download fetch get obtain retrieve"
        );
        assert!(super::synonym_stems("fetch").contains("get"));
        assert_eq!(super::synonym_stems("zebra").len(), 1);
        // No word is in two sets (the sets are meant to be unambiguous).
        let mut seen = std::collections::BTreeSet::new();
        for set in super::SYNONYMS {
            for w in *set {
                assert!(seen.insert(*w), "{w} is in two synonym sets");
            }
        }
    }

    #[test]
    fn an_order_direction_is_read_only_when_the_key_says_which_way() {
        let d = |t: &str, key: Option<&str>| -> Vec<(String, bool)> {
            super::order_directions(&super::words_of(t), key)
        };
        let one = |w: &str, big: bool| vec![(w.to_string(), big)];
        assert_eq!(
            d("by size, largest first", Some("size")),
            one("largest first", true)
        );
        assert_eq!(
            d("by size, smallest first", None),
            one("smallest first", false)
        );
        assert_eq!(d("by size, largest last", None), one("largest last", false));
        assert_eq!(
            d("by age, oldest first", Some("age")),
            one("oldest first", true)
        );
        assert_eq!(
            d("by age, youngest first", Some("age")),
            one("youngest first", false)
        );
        // Oldest is the smallest date.
        assert_eq!(
            d("by date, oldest first", Some("date")),
            one("oldest first", false)
        );
        assert_eq!(
            d("by created_at, newest first", Some("created_at")),
            one("newest first", true)
        );
        // Words of direction, any case.
        assert_eq!(d("by age DESC", Some("age")), one("desc", true));
        assert_eq!(d("in reverse order", None), one("in reverse", true));
        assert_eq!(
            d("from largest to smallest", None),
            one("largest to smallest", true)
        );
        assert_eq!(
            d("lowest to highest", None),
            one("lowest to highest", false)
        );
        assert_eq!(
            d("by age, high to low", Some("age")),
            one("high to low", true)
        );
        assert_eq!(d("in decreasing order", None), one("decreasing", true));
        // Every direction said, so that a contradiction is seen.
        assert_eq!(
            d("by age ascending, largest first", Some("age")),
            vec![
                ("ascending".to_string(), false),
                ("largest first".to_string(), true)
            ]
        );
        // No direction without a key that says it.
        assert!(d("by name, oldest first", Some("name")).is_empty());
        assert!(d("by age, newest first", Some("age")).is_empty());
        assert!(d("sort them", None).is_empty());
        assert!(d("reverse the list", None).is_empty());
    }

    #[test]
    fn action_verbs_are_sorted_and_coordination_is_seen() {
        assert!(super::ACTION_VERBS.windows(2).all(|w| w[0] < w[1]));
        assert!(super::has_coordinated_request("a number and double it"));
        assert!(super::has_coordinated_request("a name and then print it"));
        assert!(!super::has_coordinated_request("salt and pepper"));
        assert!(!super::has_coordinated_request("a number"));
    }

    use super::*;
    use serde_json::json;

    fn cap(id: &str) -> CapabilityManifest {
        CapabilityManifest::new(id, "d", json!({"type": "object"}))
    }

    #[test]
    fn qualifiers_must_be_served() {
        let sort = {
            let mut m = cap("ccos.data.sort");
            m.description =
                "Sort a list, by a key of its maps when :key is given, ascending unless :descending."
                    .into();
            m
        };
        let params = vec!["items".to_string(), "descending".to_string()];
        let bound = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
        let q = |text: &str, m: &CapabilityManifest, b: &[&str]| {
            super::unserved_qualifier(text, m, &params, &bound(b))
        };
        assert!(
            q(
                "count the unique lines in",
                &cap("ccos.text.count_lines"),
                &[]
            )
            .is_some()
        );
        assert!(q("sort the words of", &cap("ccos.text.count_words"), &[]).is_some());
        let mut list = cap("ccos.file.list");
        list.description = "List a directory: sorted entries with name, type and size.".into();
        assert!(q("sort the lines of", &list, &[]).is_some());
        assert!(
            q(
                "count the words ignoring the word",
                &cap("ccos.text.count_words"),
                &[]
            )
            .is_some()
        );
        assert!(q("convert to title case", &cap("ccos.text.upper"), &[]).is_some());
        // A parameter word is served only when the parameter is filled.
        assert!(q("sort the numbers descending", &sort, &["items"]).is_some());
        assert!(
            q(
                "sort the numbers descending",
                &sort,
                &["items", "descending"]
            )
            .is_none()
        );
        assert!(
            q(
                "sort from largest to smallest",
                &sort,
                &["items", "descending"]
            )
            .is_none()
        );
        assert!(q("sort from largest to smallest", &sort, &["items"]).is_some());
        assert!(q("sort them from smallest to largest", &sort, &["items"]).is_none());
        assert!(q("sort 3, 1, 2 in reverse", &sort, &["items", "descending"]).is_none());
        assert!(q("sort 3, 1, 2 in reverse", &sort, &["items"]).is_some());
        // Sequencing, and nouns that only look like qualifiers.
        assert!(q("first count the words", &cap("ccos.text.count_words"), &[]).is_none());
        assert!(
            q(
                "show the title of the movie",
                &cap("tmdb.movie_details"),
                &[]
            )
            .is_none()
        );
    }

    #[test]
    fn verbs_of_one_family_contradict() {
        assert!(contradiction("divide the numbers", &cap("mcp.everything.get-sum")).is_some());
        assert!(contradiction("subtract 7 from 20", &cap("mcp.everything.get-sum")).is_some());
        assert!(contradiction("add 2 and 3", &cap("ccos.math.add")).is_none());
        assert!(contradiction("divide 10 by 4", &cap("ccos.math.div")).is_none());
        assert!(contradiction("list the issues of acme/rocket", &cap("gh.create_issue")).is_some());
        assert!(contradiction("show issue 3 of acme/rocket", &cap("gh.get_issue")).is_none());
        assert!(contradiction("write \"x\" to out.txt", &cap("ccos.file.append")).is_some());
        assert!(contradiction("convert it to upper case", &cap("ccos.text.lower")).is_some());
        // Sleeping tells no time; compressing a file finds nothing (each
        // once served such a goal).
        assert!(contradiction("show the current time", &cap("ccos.time.sleep")).is_some());
        assert!(contradiction("wait 2 seconds", &cap("ccos.time.now")).is_some());
        assert!(
            contradiction(
                "find the file named a.txt",
                &cap("mcp.everything.gzip-file-as-resource")
            )
            .is_some()
        );
        // No family word on one side: nothing to contradict.
        assert!(
            contradiction(
                "what time is it in Tokyo",
                &cap("mcp.time.get_current_time")
            )
            .is_none()
        );
    }

    #[test]
    fn an_explicitly_named_capability_never_contradicts() {
        assert!(
            contradiction("use get-sum to add 4 and 5", &cap("mcp.everything.get-sum")).is_none()
        );
    }
}
