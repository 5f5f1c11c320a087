//! Mentions: the values a goal states, found by a small grammar of
//! quantities and references.
//!
//! [`mentions`] scans a text once and returns what it names, in order,
//! each with its byte [`Span`], its typed value and the words around it
//! ([`Cue`]), which slot filling ([`super::bind`]) uses to put the value in
//! the right parameter:
//!
//! | kind | examples | value |
//! |---|---|---|
//! | `quoted` | `"a,b,c"`, `'good morning'` | the text inside |
//! | `json` | `{"name": "Ada"}`, `[[1,2],[3,4]]` | the parsed JSON |
//! | `url` | `http://127.0.0.1:8080/a.txt` | the URL (trailing punctuation off) |
//! | `email` | `ada@example.org` | the address |
//! | `path` | `notes.txt`, `docs/faq.md`, `./out` | the path |
//! | `repo` | `acme/rocket` | `owner/name` (also a relative path) |
//! | `number` | `12`, `-3.5`, `10,000`, `seven` | the number (words are *weak*) |
//! | `percent` | `10 percent`, `15%` | the number (10, 15) |
//! | `duration` | `1 second`, `half a second`, `250 ms` | milliseconds |
//! | `date` | `January 12, 2024`, `2024-01-12` | `YYYY-MM-DD` |
//! | `time` | `09:30`, `8am`, `3:15 pm` | `HH:MM` |
//! | `list` | `3, 1, 2`, `10, 2, 33 and 4`, `'a', 'b' or 'c'` | the items (also kept one by one in `items`) |
//! | `separator` | `on commas`, `by spaces`, `with dashes` | the character (`,`, ` `, `-`) |
//! | `name` | `Alice`, `Leo Brandt`, `The Glass Harbor` | the words (*weak* when one word or at the goal's start) |
//!
//! A *weak* mention (number words, capitalised names) may be left unused by
//! a plan without the plan failing to serve the goal: "summarize it in one
//! sentence" or "tell me about The Matrix" name things no parameter needs.
//! Every other mention is an operand the user stated: a plan that drops it
//! does not serve the goal.
//!
//! Integers that do not fit 64 bits are an error ([`LiteralError`]), with
//! the span, not a plan that fails later.

use ccos_core::Span;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

/// What a mention is (see the module table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MentionKind {
    /// A quoted text.
    Quoted,
    /// A JSON object or array literal.
    Json,
    /// An `http(s)://` URL.
    Url,
    /// An e-mail address.
    Email,
    /// A file or directory path.
    Path,
    /// `owner/name` (a repository; also usable as a relative path).
    Repo,
    /// A number.
    Number,
    /// A percentage (the value is the number before `%`).
    Percent,
    /// A duration (the value is in milliseconds).
    Duration,
    /// A calendar date (`YYYY-MM-DD`).
    Date,
    /// A time of day (`HH:MM`).
    Time,
    /// Several values joined by commas, `and` or `or`.
    List,
    /// A separator character named in words (`on commas`).
    Separator,
    /// A glob matching file names: written (`*.json`, `src/**/*.rs`;
    /// `**/*.json` when the clause also says "subfolders", "recursively"...)
    /// or named by a kind of file ("markdown files" → `**/*.md`, at any
    /// depth under the folder searched).
    FilePattern,
    /// A currency named in words or by its code ("euros", "Canadian
    /// dollars", "USD"): the value is its ISO 4217 code (see
    /// [`super::currencies`]). Weak right after an amount ("a 10 dollar
    /// deposit": what the amount is in).
    Currency,
    /// A capitalised name (weak).
    Name,
    /// A field of records named by its key, a bare word or a quoted
    /// one: "sort people.json by *age*", "whose *city* is London" (see
    /// [`fields`]).
    Field,
}

impl MentionKind {
    /// The lower-case name used in traces.
    pub fn as_str(self) -> &'static str {
        match self {
            MentionKind::Quoted => "quoted",
            MentionKind::Json => "json",
            MentionKind::Url => "url",
            MentionKind::Email => "email",
            MentionKind::Path => "path",
            MentionKind::Repo => "repo",
            MentionKind::Number => "number",
            MentionKind::Percent => "percent",
            MentionKind::Duration => "duration",
            MentionKind::Date => "date",
            MentionKind::Time => "time",
            MentionKind::List => "list",
            MentionKind::Separator => "separator",
            MentionKind::FilePattern => "file pattern",
            MentionKind::Currency => "currency",
            MentionKind::Name => "name",
            MentionKind::Field => "field",
        }
    }
}

/// The words around a mention, lower-cased: what slot filling matches
/// against parameter names and descriptions.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Cue {
    /// The preposition right before it (articles and possessives skipped):
    /// `to`, `from`, `by`, `in`, `of`, `for`, `with`, `about`, `on`...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prep: Option<String>,
    /// Up to three words before it (nearest last), function words skipped.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub before: Vec<String>,
    /// Up to two words after it, function words skipped.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub after: Vec<String>,
    /// Whether the preposition stands between the value and the words
    /// before it: "a room *at* the Hilton" ("room" is what the phrase
    /// qualifies, no label of the value), unlike "to *account* B456".
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub across_prep: bool,
}

/// A value the text states (see the module documentation).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mention {
    /// What it is.
    pub kind: MentionKind,
    /// Its value as JSON (numbers typed, strings unquoted, durations in ms).
    pub value: Json,
    /// Where it is in the text the mentions were taken from.
    pub span: Span,
    /// The text as written.
    pub text: String,
    /// The words around it.
    #[serde(default)]
    pub cue: Cue,
    /// For a list: its items, each a mention of its own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<Mention>,
    /// May be left unused (number words, names).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub weak: bool,
    /// A number's unit of measure ("10 meters": `m`; see
    /// [`super::units`]), part of the mention's text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// For a field: its value is what the goal asks ("what *port* is set
    /// in config.json", "the *tags* in config.json"): a lookup, not an
    /// order or a condition.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lookup: bool,
}

impl Mention {
    /// Whether it is a condition whose key the goal does not name ("live
    /// in Paris"): a field whose value is the keys that may hold it.
    pub fn is_relation(&self) -> bool {
        self.kind == MentionKind::Field && self.value.is_array()
    }

    /// A value stated at `span` of `text`, as the scanner's later passes
    /// find them: no cue yet (the scanner adds every mention's), no items,
    /// not weak, no unit.
    fn stated(text: &str, kind: MentionKind, value: Json, span: Span) -> Mention {
        Mention {
            kind,
            value,
            span,
            text: text[span.start..span.end].to_string(),
            cue: Cue::default(),
            items: vec![],
            weak: false,
            unit: None,
            lookup: false,
        }
    }

    /// A short label for traces and reports: `number "12"`, `path
    /// "notes.txt"` (the text quoted as the goal has it, so that a report
    /// naming a dropped value quotes the user's words).
    pub fn label(&self) -> String {
        // JSON quoting, which [`Mention::text_of_label`] reads back (Rust's
        // debug quoting spells invisible characters as `\u{..}`, which
        // JSON does not).
        format!("{} {}", self.kind.as_str(), Json::from(self.text.as_str()))
    }

    /// The text of a [`label`](Self::label) of kind `kind` (`name`,
    /// `number`): `Some("Apple")` for `name "Apple"`.
    pub fn text_of_label<'a>(label: &'a str, kind: &str) -> Option<std::borrow::Cow<'a, str>> {
        let quoted = label.strip_prefix(kind)?.strip_prefix(' ')?;
        match serde_json::from_str::<String>(quoted) {
            Ok(text) => Some(std::borrow::Cow::Owned(text)),
            Err(_) => None,
        }
    }
}

/// A literal the text states that no value can represent (an integer
/// beyond 64 bits).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct LiteralError {
    /// Where it is.
    pub span: Span,
    /// What is wrong, for the user.
    pub message: String,
}

/// Function words skipped when collecting cue words.
pub(crate) const FUNCTION_WORDS: &[&str] = &[
    "a", "an", "the", "my", "your", "our", "their", "his", "her", "its", "this", "that", "these",
    "those", "some", "me", "us", "it", "is", "are", "was", "be", "please", "and", "or",
];

// Prepositions recorded as `Cue::prep`: a word table of `lexicon`, which
// sits below this module.
use super::lexicon::PREPOSITIONS;

pub(crate) const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// The days of the week, lower-case.
pub(crate) const WEEKDAYS: [&str; 7] = [
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];

/// Number words (weak mentions): units and tens.
const UNITS: [&str; 20] = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
];
const TENS: [&str; 8] = [
    "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
];

/// Separator names (after `on`, `by`, `with`, `at`) and their characters.
const SEPARATORS: &[(&str, &str)] = &[
    ("comma", ","),
    ("commas", ","),
    ("space", " "),
    ("spaces", " "),
    ("whitespace", " "),
    ("newline", "\n"),
    ("newlines", "\n"),
    ("line", "\n"),
    ("lines", "\n"),
    ("tab", "\t"),
    ("tabs", "\t"),
    ("semicolon", ";"),
    ("semicolons", ";"),
    ("colon", ":"),
    ("colons", ":"),
    ("dash", "-"),
    ("dashes", "-"),
    ("hyphen", "-"),
    ("hyphens", "-"),
    ("slash", "/"),
    ("slashes", "/"),
    ("pipe", "|"),
    ("pipes", "|"),
    ("period", "."),
    ("periods", "."),
    ("dot", "."),
    ("dots", "."),
];

/// Capitalised technical words that are not names (they name formats and
/// protocols that capabilities mention).
const TECH_WORDS: &[&str] = &[
    "json", "xml", "csv", "tsv", "html", "http", "https", "url", "uri", "api", "sql", "yaml",
    "toml", "pdf", "utf-8", "utf8", "id", "ok", "todo", "readme", "utc", "gmt", "sha", "sha-256",
    "md5", "ai", "llm", "rtfs", "cli", "get", "post", "put", "patch", "delete", "ascii", "rss",
    "dns", "ip", "ssh", "tcp", "udp", "git", "mcp", "openapi",
];

/// Words that start a sentence in capitals without being names.
const NOT_NAMES: &[&str] = &[
    // Words ordering a text's requests ("*Secondly*, find …"): never names.
    "firstly",
    "secondly",
    "thirdly",
    "finally",
    "lastly",
    "additionally",
    "furthermore",
    "moreover",
    "afterwards",
    "meanwhile",
    "however",
    "i",
    "what",
    "who",
    "whom",
    "whose",
    "which",
    "when",
    "where",
    "why",
    "how",
    "is",
    "are",
    "was",
    "were",
    "do",
    "does",
    "did",
    "can",
    "could",
    "would",
    "should",
    "will",
    "shall",
    "may",
    "might",
    "must",
    "please",
    "the",
    "a",
    "an",
    "and",
    "or",
    "but",
    "if",
    "then",
    "so",
    "for",
    "in",
    "on",
    "at",
    "to",
    "from",
    "by",
    "with",
    "of",
    "about",
    "tell",
    "show",
    "give",
    "find",
    "get",
    "list",
    "search",
    "look",
    "let",
    "make",
    "add",
    "create",
    "delete",
    "remove",
    "update",
    "set",
    "put",
    "send",
    "read",
    "write",
    "open",
    "count",
    "compute",
    "calculate",
    "what's",
    "who's",
    "where's",
    "how's",
    "it's",
    "i'm",
    "i'd",
    "i'll",
    "let's",
    "yes",
    "no",
    "hi",
    "hello",
    "hey",
    "thanks",
    "thank",
    "ok",
    "okay",
    "also",
    "now",
    "today",
    "tomorrow",
    "yesterday",
    "my",
    "your",
    "our",
    "their",
    "this",
    "that",
    "these",
    "those",
    "there",
    "here",
    "it",
    "we",
    "you",
    "he",
    "she",
    "they",
    "me",
    "use",
    "run",
    "fetch",
    "check",
    "convert",
    "translate",
    "summarize",
    "summarise",
    "book",
    "buy",
    "schedule",
    "cancel",
    "echo",
    "say",
    "print",
    "display",
    "sort",
    "filter",
    "parse",
    "split",
    "join",
    "ask",
    "remember",
    "forget",
    "retrieve",
    "obtain",
    "provide",
    "determine",
    "identify",
    "predict",
    "estimate",
    "generate",
    "post",
    "upload",
    "download",
    "save",
    "store",
    "move",
    "rename",
    "copy",
    "wait",
    "sleep",
];

/// Nouns (and participles) a title follows: "the song Hey Jude", "a
/// film called Get Out".
const TITLE_NOUNS: &[&str] = &[
    "song", "album", "track", "single", "film", "movie", "book", "novel", "show", "series",
    "episode", "game", "play", "musical", "poem", "title", "called", "named", "titled", "entitled",
];

/// Interjections and verbs of [`NOT_NAMES`] that open a title inside a
/// sentence ("the song *Hey* Jude", "the book *Let* My People Go").
const TITLE_OPENERS: &[&str] = &[
    "hey", "hi", "hello", "say", "let", "tell", "show", "give", "find", "get", "make", "send",
    "read", "write", "open", "look", "use", "run", "set", "put", "ask", "remember", "forget",
    "save", "wait", "thank",
];

/// Abbreviations that open a name ("St. Louis", "Mt. Rainier", "Dr.
/// Smith"): their period does not end the name.
const NAME_ABBREVIATIONS: &[&str] = &[
    "St", "Mt", "Ft", "Pt", "Dr", "Mr", "Mrs", "Ms", "Mx", "Prof", "Sr", "Jr", "Gen", "Lt", "Col",
    "Sgt", "Capt", "Cpt", "Maj", "Adm", "Cmdr", "Mme", "Mlle", "Rev", "Fr", "Gov", "Sen", "Rep",
    "Pres", "Hon", "Supt",
];

/// Whether `word` is a title or abbreviation that a name follows ("Dr",
/// "St"; without its full stop).
pub fn is_name_abbreviation(word: &str) -> bool {
    NAME_ABBREVIATIONS.contains(&word)
}

/// Whether `word` (with its final full stop) is a dotted abbreviation:
/// two or more groups of one or two capitals, each closed by a full stop
/// ("U.S.", "D.C.", "F.C."), or one of "a.m.", "p.m.", "e.g.", "i.e.".
/// Its last full stop belongs to it: "the U.S. president" is one
/// sentence, and "Washington, D.C." keeps its name whole. A file name
/// ending a sentence ("ab.md.", "a.b.") is none (attack trial).
pub fn is_dotted_abbreviation(word: &str) -> bool {
    if matches!(word, "a.m." | "p.m." | "e.g." | "i.e.") {
        return true;
    }
    let Some(body) = word.strip_suffix('.') else {
        return false;
    };
    let groups: Vec<&str> = body.split('.').collect();
    groups.len() >= 2
        && groups.iter().all(|g| {
            (1..=2).contains(&g.len())
                && g.starts_with(|c: char| c.is_ascii_uppercase())
                && g.chars().all(|c| c.is_ascii_alphabetic())
        })
}

/// A token of the scanned text.
#[derive(Debug, Clone)]
struct Tok {
    start: usize,
    end: usize,
    kind: TokKind,
}

#[derive(Debug, Clone, PartialEq)]
enum TokKind {
    /// A word-like token (letters, digits, `.`, `/`, `:`, `'`, `-`, `_`, `@`...).
    Word(String),
    /// A quoted text (the inside).
    Quoted(String),
    /// A JSON literal.
    Json(Json),
    /// A written glob (`*.json`, `docs/**/*.md`).
    Glob(String),
    /// Punctuation: `,` `;` `!` `?` `(` `)` and the like.
    Punct(char),
}

fn is_open_quote(c: char) -> bool {
    matches!(c, '"' | '\'' | '“' | '‘' | '`')
}

fn closing_quote(c: char) -> char {
    match c {
        '“' => '”',
        '‘' => '’',
        other => other,
    }
}

/// Splits `text` into tokens with byte spans.
fn scan(text: &str) -> Vec<Tok> {
    let mut toks = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    let at_boundary = |i: usize| {
        i == 0 || text[..i].ends_with(|c: char| c.is_whitespace() || "([{:,;=".contains(c))
    };
    while i < text.len() {
        let Some(c) = text[i..].chars().next() else {
            break;
        };
        let clen = c.len_utf8();
        if c.is_whitespace() {
            i += clen;
            continue;
        }
        // Quoted text: a quote at a token boundary, closed by the matching
        // quote followed by a boundary. An apostrophe inside a word
        // ("what's") never opens one.
        if is_open_quote(c) && at_boundary(i) {
            let close = closing_quote(c);
            let body = i + clen;
            let mut j = body;
            let mut found = None;
            while j < text.len() {
                let Some(d) = text[j..].chars().next() else {
                    break;
                };
                // A backslash escapes the quote: `"a\" b"` is one text.
                let escaped = text[..j].ends_with('\\') && !text[..j].ends_with("\\\\");
                if d == close && !escaped {
                    let after = j + d.len_utf8();
                    let ok = after >= text.len()
                        || text[after..]
                            .starts_with(|e: char| e.is_whitespace() || ".,;:!?)]}".contains(e));
                    if ok {
                        found = Some((j, after));
                        break;
                    }
                }
                j += d.len_utf8();
            }
            if let Some((j, after)) = found {
                let escaped_close = format!("\\{close}");
                toks.push(Tok {
                    start: i,
                    end: after,
                    kind: TokKind::Quoted(
                        text[body..j].replace(&escaped_close, &close.to_string()),
                    ),
                });
                i = after;
                continue;
            }
        }
        // JSON literals: a balanced {...} or [...] that parses.
        if (c == '{' || c == '[')
            && let Some(end) = balanced_end(text, i)
            && let Ok(j) = serde_json::from_str::<Json>(&text[i..end])
        {
            toks.push(Tok {
                start: i,
                end,
                kind: TokKind::Json(j),
            });
            i = end;
            continue;
        }
        // A written glob at a token boundary: `*.json`, `docs/**/*.md`
        // (a letter and a `.` or `/` besides the stars: `3*4` is a product).
        if at_boundary(i)
            && let Some(len) = glob_len(&text[i..])
        {
            toks.push(Tok {
                start: i,
                end: i + len,
                kind: TokKind::Glob(text[i..i + len].to_string()),
            });
            i += len;
            continue;
        }
        if ",;!?()[]{}\"“”‘’`=+*<>|".contains(c) {
            toks.push(Tok {
                start: i,
                end: i + clen,
                kind: TokKind::Punct(c),
            });
            i += clen;
            continue;
        }
        // A word-like token: up to whitespace or hard punctuation; a comma
        // between digits followed by exactly three digits is a thousands
        // separator.
        let mut j = i;
        while j < text.len() {
            let Some(d) = text[j..].chars().next() else {
                break;
            };
            if d.is_whitespace() {
                break;
            }
            if d == ','
                && j > i
                && b[j - 1].is_ascii_digit()
                && ccos_core::text::thousands_group_follows(text[j + 1..].chars())
                && text[i..j]
                    .trim_start_matches(['-', '+'])
                    .trim_start_matches(['$', '€', '£'])
                    .chars()
                    .all(|x| x.is_ascii_digit() || x == ',')
            {
                j += 1;
                continue;
            }
            // "2.5E+3": the exponent's sign is the number's.
            let exponent_sign = d == '+'
                && j >= i + 2
                && matches!(b[j - 1], b'e' | b'E')
                && b[j - 2].is_ascii_digit()
                && b.get(j + 1).is_some_and(u8::is_ascii_digit);
            if ",;!?()[]{}\"“”`=+*<>|".contains(d) && !exponent_sign {
                break;
            }
            j += d.len_utf8();
        }
        // "St. Louis", "Mt. Rainier", "Dr. Smith": an abbreviation's
        // period before a capitalised word is part of the name.
        let abbreviation = is_dotted_abbreviation(&text[i..j])
            || text[i..j].strip_suffix('.').is_some_and(|w| {
                (NAME_ABBREVIATIONS.contains(&w)
                // An initial: "J. R. R. Tolkien", "John F. Kennedy".
                || (w.chars().count() == 1 && w.starts_with(|c: char| c.is_uppercase())))
                    && text[j..]
                        .trim_start()
                        .starts_with(|c: char| c.is_uppercase())
            });
        // Sentence punctuation glued to the end: `notes.txt.`, `me:`.
        let mut end = j;
        // "..", "docs/..": a parent folder keeps its dots.
        let parent = ends_in_parent_folder(&text[i..j]);
        while !abbreviation && !parent && end > i && text[..end].ends_with(['.', ':']) && {
            let w = &text[i..end - 1];
            // keep "3." only as part of a number with decimals
            !w.is_empty()
        } {
            end -= 1;
        }
        if end == i {
            end = j;
        }
        let word = text[i..end].trim_end_matches(['\'', '’']).to_string();
        let word_end = i + word.len();
        if let Some(at) = unit_suffix_at(&word) {
            // "6cm", "300K", "5s": the number and its unit, as if written
            // apart ("6 cm").
            toks.push(Tok {
                start: i,
                end: i + at,
                kind: TokKind::Word(word[..at].to_string()),
            });
            toks.push(Tok {
                start: i + at,
                end: word_end,
                kind: TokKind::Word(word[at..].to_string()),
            });
        } else if !word.is_empty() {
            toks.push(Tok {
                start: i,
                end: word_end,
                kind: TokKind::Word(word),
            });
        }
        if end < j {
            // The glued punctuation, as punctuation.
            toks.push(Tok {
                start: end,
                end: j,
                kind: TokKind::Punct(text[end..].chars().next().unwrap_or('.')),
            });
        }
        i = j.max(i + clen);
    }
    toks
}

/// Where the unit starts in a number written with its unit attached
/// ("6cm", "300K", "0.01m²", "10s"), so that it reads as "6 cm":
/// the number is the value as stated, the unit a word beside it. Not for
/// ordinals ("18th"), times of day ("8am"), or anything whose tail holds
/// digits, slashes, dots or other marks ("3x4", "5J/K", "1.txt", "2-3").
fn unit_suffix_at(word: &str) -> Option<usize> {
    let at = word.find(|c: char| c.is_alphabetic() || "µ°Ω".contains(c))?;
    let (num, unit) = word.split_at(at);
    if !num.ends_with(|c: char| c.is_ascii_digit()) || parse_number(num)?.is_err() {
        return None;
    }
    let lu = unit.to_lowercase();
    if matches!(
        lu.as_str(),
        "st" | "nd" | "rd" | "th" | "am" | "pm" | "x" | "e"
    ) {
        return None;
    }
    // A scaled unit ("100µF", "50mH", "5kW"): the number is not the value
    // in the base unit a parameter likely wants, and guessing the scale is
    // how a plan goes quietly wrong; it stays unread (and unbound).
    let mut cs = unit.chars();
    if let (Some(p), Some(u)) = (cs.next(), cs.next())
        && "µunpmkMG".contains(p)
        && (u.is_uppercase() || u == 'Ω')
    {
        return None;
    }
    unit.chars()
        .all(|c| c.is_alphabetic() || "²³°µΩ".contains(c))
        .then_some(at)
}

/// The end (exclusive) of the balanced bracket group opening at `start`,
/// strings respected.
fn balanced_end(text: &str, start: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_str = false;
    let mut escaped = false;
    for (off, c) in text[start..].char_indices() {
        if in_str {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '{' | '[' => depth += 1,
            '}' | ']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(start + off + 1);
                }
            }
            _ => {}
        }
    }
    None
}

fn lower(s: &str) -> String {
    s.to_lowercase()
}

/// A number written with digits (`12`, `-3.5`, `.5`, `10,000`); `Err` for
/// an integer beyond 64 bits.
fn parse_number(w: &str) -> Option<Result<Json, String>> {
    let plain: String = w.chars().filter(|c| *c != ',').collect();
    // An amount of money is its number ("$5000").
    let plain = plain.strip_prefix(['$', '€', '£']).unwrap_or(&plain);
    let body = plain.strip_prefix(['-', '+']).unwrap_or(plain);
    // Scientific notation ("1e-9", "6.022E23"): a number, never its
    // mantissa alone (attack trial: "2e-9" was passed as 2).
    if let Some((mantissa, exponent)) = body.split_once(['e', 'E'])
        && !mantissa.is_empty()
        && mantissa.chars().all(|c| c.is_ascii_digit() || c == '.')
        && mantissa.matches('.').count() <= 1
        && mantissa.chars().any(|c| c.is_ascii_digit())
        && exponent
            .strip_prefix(['-', '+'])
            .unwrap_or(exponent)
            .chars()
            .all(|c| c.is_ascii_digit())
        && exponent.chars().any(|c| c.is_ascii_digit())
        && !w.contains(',')
    {
        let f: f64 = plain.parse().ok()?;
        if !f.is_finite() {
            return Some(Err(format!("the number {w} is out of range")));
        }
        return Some(Ok(
            serde_json::Number::from_f64(f).map_or(Json::Null, Json::Number)
        ));
    }
    if body.is_empty()
        || !body.chars().all(|c| c.is_ascii_digit() || c == '.')
        || body.matches('.').count() > 1
        || body == "."
        || !body.chars().any(|c| c.is_ascii_digit())
    {
        return None;
    }
    if w.contains(',')
        && !ccos_core::text::is_thousands(
            w.trim_start_matches(['-', '+'])
                .trim_start_matches(['$', '€', '£']),
        )
    {
        return None;
    }
    if !body.contains('.') {
        return Some(match plain.parse::<i64>() {
            Ok(i) => Ok(Json::from(i)),
            Err(_) => Err(format!(
                "the number {w} is out of range: integers are 64-bit ({}..={})",
                i64::MIN,
                i64::MAX
            )),
        });
    }
    let f: f64 = plain.parse().ok()?;
    if !f.is_finite() {
        return Some(Err(format!("the number {w} is out of range")));
    }
    // "31.0000000000000001" is 31 once a 64-bit float holds it: more
    // digits than it keeps, and an equality on it would be a different
    // number's (attack trial).
    let digits = |t: &str| -> String {
        let t = t.trim_start_matches(['-', '+']);
        let t = if t.contains('.') {
            t.trim_end_matches('0').trim_end_matches('.')
        } else {
            t
        };
        t.chars()
            .filter(char::is_ascii_digit)
            .collect::<String>()
            .trim_start_matches('0')
            .to_string()
    };
    let written = digits(body);
    if written.len() > 15 && digits(&format!("{}", f.abs())) != written {
        return Some(Err(format!(
            "the number {w} has more digits than a 64-bit float keeps (about 15): write it shorter"
        )));
    }
    Some(Ok(
        serde_json::Number::from_f64(f).map_or(Json::Null, Json::Number)
    ))
}

/// Whether `word` names the operands themselves, so that a number before
/// it counts them ("two numbers", "3 values") rather than being one.
fn counts_operands(word: &str) -> bool {
    matches!(
        word,
        "numbers" | "values" | "integers" | "operands" | "floats" | "decimals"
    )
}

/// A number written in words (`seven`, `twenty-one`, `a hundred`): the
/// value and how many tokens it takes from `i`.
pub(crate) fn number_words_at(words: &[Option<String>], i: usize) -> Option<(i64, usize)> {
    let w = words.get(i)?.as_deref()?;
    let unit = |s: &str| UNITS.iter().position(|u| *u == s).map(|p| p as i64);
    let tens = |s: &str| {
        TENS.iter()
            .position(|t| *t == s)
            .map(|p| 20 + 10 * p as i64)
    };
    if let Some((t, u)) = w.split_once('-')
        && let (Some(t), Some(u)) = (tens(t), unit(u))
        && (1..10).contains(&u)
    {
        return Some((t + u, 1));
    }
    let (mut v, mut n) = if let Some(u) = unit(w) {
        (u, 1)
    } else if let Some(t) = tens(w) {
        match words.get(i + 1).and_then(|x| x.as_deref()).and_then(unit) {
            Some(u) if (1..10).contains(&u) => (t + u, 2),
            _ => (t, 1),
        }
    } else if w == "a" || w == "an" {
        match words.get(i + 1).and_then(|x| x.as_deref()) {
            Some("hundred") => (100, 2),
            Some("thousand") => (1000, 2),
            Some("dozen") => (12, 2),
            _ => return None,
        }
    } else if w == "dozen" {
        (12, 1)
    } else {
        return None;
    };
    match words.get(i + n).and_then(|x| x.as_deref()) {
        Some("hundred") if n == 1 => {
            v *= 100;
            n += 1;
        }
        Some("thousand") if n == 1 => {
            v *= 1000;
            n += 1;
        }
        _ => {}
    }
    Some((v, n))
}

/// Milliseconds per unit word.
/// The milliseconds of "the next week", "the past hour", "the coming
/// fortnight" at word `i` (the word after "the"): one unit of time from
/// now, either way. Not "the next day" (tomorrow, a date) nor a month or
/// a year (no fixed length).
fn span_from_now(words: &[Option<String>], i: usize) -> Option<f64> {
    let w = words.get(i)?.as_deref()?;
    if !matches!(
        w,
        "next" | "coming" | "upcoming" | "following" | "past" | "last"
    ) || i == 0
        || words[i - 1].as_deref() != Some("the")
    {
        return None;
    }
    match words.get(i + 1)?.as_deref()? {
        unit @ ("week" | "hour") => unit_ms(unit),
        "fortnight" => unit_ms("week").map(|week| 2.0 * week),
        _ => None,
    }
}

/// The number and noun of a compound ("4-star", "5-day"): digits, a
/// hyphen, letters. Read by the scanner and, for the noun, by the binder.
pub(crate) fn compound_number(word: &str) -> Option<(&str, &str)> {
    let (num, noun) = word.split_once('-')?;
    (!num.is_empty()
        && num.len() < 10
        && num.chars().all(|c| c.is_ascii_digit())
        && noun.len() >= 2
        && noun.chars().all(|c| c.is_ascii_alphabetic()))
    .then_some((num, noun))
}

fn unit_ms(w: &str) -> Option<f64> {
    Some(match w {
        "ms" | "millisecond" | "milliseconds" | "msec" | "msecs" => 1.0,
        "s" | "sec" | "secs" | "second" | "seconds" => 1000.0,
        "min" | "mins" | "minute" | "minutes" => 60_000.0,
        "h" | "hr" | "hrs" | "hour" | "hours" => 3_600_000.0,
        "day" | "days" => 86_400_000.0,
        "week" | "weeks" => 604_800_000.0,
        _ => return None,
    })
}

fn is_path_like(w: &str) -> (bool, bool) {
    let has_ext = w.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && !stem.ends_with('.')
            && (1..=8).contains(&ext.len())
            && ext.starts_with(|c: char| c.is_ascii_alphabetic())
            && ext.chars().all(|c| c.is_ascii_alphanumeric())
            && !stem.chars().all(|c| c.is_ascii_digit())
    });
    let slashes = w.matches('/').count();
    (has_ext, slashes > 0)
}

fn is_ident_word(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && s.chars().any(|c| c.is_ascii_alphabetic())
}

/// `w` (read as `f`) times the scale word `scale` ("thousand",
/// "million", "billion", "trillion"): "8.5 million" is 8500000, exact
/// when the scale leaves no fraction (the decimals written are fewer than
/// the scale's zeros), never a float's rounding error.
pub(crate) fn scaled_number(w: &str, f: f64, scale: &str) -> Option<Json> {
    let zeros: i32 = match scale {
        "thousand" => 3,
        "million" => 6,
        "billion" => 9,
        "trillion" => 12,
        _ => return None,
    };
    let decimals = w.split_once('.').map_or(0, |(_, d)| {
        d.chars().take_while(char::is_ascii_digit).count()
    });
    let v = f * 10f64.powi(zeros);
    if !v.is_finite() {
        return None;
    }
    Some(if i32::try_from(decimals).is_ok_and(|d| d <= zeros) {
        json_num(v.round())
    } else {
        json_num(v)
    })
}

fn json_num(f: f64) -> Json {
    if f.fract() == 0.0 && f.abs() < 9.0e15 {
        Json::from(f as i64)
    } else {
        serde_json::Number::from_f64(f).map_or(Json::Null, Json::Number)
    }
}

/// A time of day: `09:30`, `9:30pm`, `8am`, with an optional separate
/// `am`/`pm` token; `HH:MM`.
fn parse_time(w: &str, next: Option<&str>) -> Option<(String, bool)> {
    let lw = w.to_ascii_lowercase();
    let (body, mut suffix) = if let Some(b) = lw.strip_suffix("am") {
        (b.to_string(), Some("am"))
    } else if let Some(b) = lw.strip_suffix("pm") {
        (b.to_string(), Some("pm"))
    } else {
        (lw.clone(), None)
    };
    let mut took_next = false;
    if suffix.is_none()
        && let Some(n) = next.map(str::to_ascii_lowercase)
        && (n == "am" || n == "pm" || n == "a.m" || n == "p.m")
    {
        suffix = Some(if n.starts_with('a') { "am" } else { "pm" });
        took_next = true;
    }
    let (h, m) = match body.split_once(':') {
        Some((h, m)) => (h.parse::<u32>().ok()?, {
            if m.len() != 2 {
                return None;
            }
            m.parse::<u32>().ok()?
        }),
        None if suffix.is_some() => (body.parse::<u32>().ok()?, 0),
        None => return None,
    };
    if m > 59 {
        return None;
    }
    let h = match suffix {
        Some(_) if !(1..=12).contains(&h) => return None,
        Some("am") => h % 12,
        Some(_) => h % 12 + 12,
        None if h > 23 => return None,
        None => h,
    };
    Some((format!("{h:02}:{m:02}"), took_next))
}

/// The length of the written glob `rest` starts with (`*.json`,
/// `docs/**/*.md`), if it starts with one: up to whitespace or sentence
/// punctuation, with a star, a letter and a `.` or `/`, and nothing but
/// path characters (`3*4` and `(2+3)*4` are arithmetic).
fn glob_len(rest: &str) -> Option<usize> {
    let end = rest
        .find(|c: char| c.is_whitespace() || ",;!?()\"'`<>|".contains(c))
        .unwrap_or(rest.len());
    let g = rest[..end].trim_end_matches(['.', ':']);
    let shaped = g.contains('*')
        && g.contains(|c: char| c.is_ascii_alphabetic())
        && g.contains(['.', '/'])
        && g.chars()
            .all(|c| c.is_alphanumeric() || "*./-_{}[]?".contains(c));
    shaped.then_some(g.len())
}

/// Kinds of file named in words and their extensions ("markdown files"
/// are `*.md`): only names no other sense competes with.
const FILE_KINDS: &[(&str, &str)] = &[
    ("csv", "csv"),
    ("html", "html"),
    ("javascript", "js"),
    ("json", "json"),
    ("log", "log"),
    ("markdown", "md"),
    ("md", "md"),
    ("pdf", "pdf"),
    ("png", "png"),
    ("python", "py"),
    ("rust", "rs"),
    ("text", "txt"),
    ("toml", "toml"),
    ("txt", "txt"),
    ("typescript", "ts"),
    ("yaml", "yaml"),
    ("yml", "yml"),
];

/// Words asking a search to go down into folders ("*.md recursively"): a
/// written glob then matches at any depth (`**/*.md`).
const RECURSION_WORDS: &[&str] = &[
    "recursive",
    "recursively",
    "subdirectories",
    "subdirectory",
    "subfolder",
    "subfolders",
];

/// Mentions in `text`, in order (see the module documentation).
pub fn mentions(text: &str) -> Result<Vec<Mention>, LiteralError> {
    let toks = scan(text);
    let words: Vec<Option<String>> = toks
        .iter()
        .map(|t| match &t.kind {
            TokKind::Word(w) => Some(lower(w)),
            _ => None,
        })
        .collect();
    let mut out: Vec<Mention> = Vec::new();
    // Token index → the mention index covering it.
    let mut owner: Vec<Option<usize>> = vec![None; toks.len()];
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        let mut take = 1;
        let mut m: Option<(MentionKind, Json, bool)> = None;
        let mut unit: Option<&'static str> = None;
        match &t.kind {
            TokKind::Quoted(s) => m = Some((MentionKind::Quoted, Json::from(s.clone()), false)),
            TokKind::Json(j) => m = Some((MentionKind::Json, j.clone(), false)),
            // "*.md recursively": at any depth.
            TokKind::Glob(g) => {
                let deep = !g.contains('/')
                    && words
                        .iter()
                        .flatten()
                        .any(|w| RECURSION_WORDS.contains(&w.as_str()));
                let g = if deep { format!("**/{g}") } else { g.clone() };
                m = Some((MentionKind::FilePattern, Json::from(g), false));
            }
            // "split 'a;b;c' on ;": a lone symbol after "on"/"by"/"with"
            // is the separator.
            TokKind::Punct(c)
                if ";,|:".contains(*c)
                    && i > 0
                    && matches!(
                        words[i - 1].as_deref(),
                        Some("on" | "by" | "with" | "at" | "using")
                    ) =>
            {
                m = Some((MentionKind::Separator, Json::from(c.to_string()), false));
            }
            TokKind::Punct(_) => {}
            TokKind::Word(w) => {
                let lw = lower(w);
                let next = words.get(i + 1).and_then(|x| x.as_deref());
                let next2 = words.get(i + 2).and_then(|x| x.as_deref());
                let next3 = words.get(i + 3).and_then(|x| x.as_deref());
                if let Some(ext) = FILE_KINDS.iter().find(|(k, _)| *k == lw).map(|(_, e)| *e)
                    && next == Some("files")
                {
                    // "all markdown files": the files of a kind, by name,
                    // wherever they are under the folder searched (as
                    // `find -name '*.md'` finds them).
                    let glob = format!("**/*.{ext}");
                    m = Some((MentionKind::FilePattern, Json::from(glob), false));
                    take = 2;
                } else if let Some(ms) = span_from_now(&words, i) {
                    // "for *the next week*", "news of *the past hour*": one
                    // unit of time, a duration like "7 days".
                    m = Some((MentionKind::Duration, json_num(ms), false));
                    take = 2;
                } else if let Some((date, n)) = day_first_date(&words, &toks, i) {
                    // "15th October, 2023", "the 3rd of May": the day
                    // before the month.
                    m = Some((MentionKind::Date, Json::from(date), false));
                    take = n;
                } else if lw.starts_with("http://") || lw.starts_with("https://") {
                    let u = w.trim_end_matches(['.', ',', ';', ':', '!', '?', ')', '\'']);
                    m = Some((MentionKind::Url, Json::from(u), false));
                } else if let Some(n) = w
                    .strip_prefix('#')
                    .map(|d| d.trim_end_matches(['.', ',', ';', ':', '!', '?']))
                    .filter(|d| {
                        !d.is_empty() && d.len() < 16 && d.bytes().all(|c| c.is_ascii_digit())
                    })
                    .and_then(|d| d.parse::<u64>().ok())
                {
                    // "issue #3": a number the goal states.
                    m = Some((MentionKind::Number, Json::from(n), false));
                } else if let Some(r) = parse_number(w) {
                    let v = r.map_err(|message| LiteralError {
                        span: Span::new(t.start, t.end),
                        message,
                    })?;
                    let f = v.as_f64().unwrap_or(0.0);
                    let taken = i > 0
                        && matches!(
                            words[i - 1].as_deref(),
                            Some("first" | "last" | "top" | "bottom")
                        );
                    if next.is_some_and(counts_operands) && !taken {
                        // "add 2 numbers": how many, not one of them
                        // ("the first 5 numbers" is how many to take).
                    } else if let Some(ms) = next.and_then(unit_ms) {
                        m = Some((MentionKind::Duration, json_num(f * ms), false));
                        take = 2;
                    } else if matches!(next, Some("percent" | "pct"))
                        || (next == Some("per") && next2 == Some("cent"))
                    {
                        take = if next == Some("per") { 3 } else { 2 };
                        m = Some((MentionKind::Percent, v, false));
                    } else if let Some((hm, took)) = parse_time(w, next)
                        .filter(|_| next.is_some_and(|n| matches!(n, "am" | "pm" | "a.m" | "p.m")))
                    {
                        m = Some((MentionKind::Time, Json::from(hm), false));
                        take = 1 + usize::from(took);
                    } else {
                        // "213 million", "8.5 billion": the number the
                        // scale word makes of it, its unit after both.
                        let scaled = next.and_then(|n| scaled_number(w, f, n));
                        let skip = usize::from(scaled.is_some());
                        let after: Vec<Option<&str>> = (1..=3)
                            .map(|k| words.get(i + skip + k).and_then(|x| x.as_deref()))
                            .collect();
                        // A symbol written onto the number ("300K", "20A"),
                        // case and all; else unit words ("10 meters").
                        let glued = toks.get(i + 1).and_then(|n| match &n.kind {
                            TokKind::Word(u) if n.start == t.end => {
                                super::units::attached_symbol(u)
                            }
                            _ => None,
                        });
                        take = 1 + skip;
                        if let Some(u) = glued.filter(|_| skip == 0) {
                            unit = Some(u);
                            take = 2;
                        } else if let Some((u, n)) = super::units::unit_words(&after) {
                            unit = Some(u);
                            take = 1 + skip + n;
                        }
                        m = Some((MentionKind::Number, scaled.unwrap_or(v), false));
                    }
                } else if let Some((num, u)) = super::units::attached(w)
                    && let Some(r) = parse_number(num)
                {
                    // "300K", "50km": a number with its unit attached.
                    let v = r.map_err(|message| LiteralError {
                        span: Span::new(t.start, t.end),
                        message,
                    })?;
                    unit = Some(u);
                    m = Some((MentionKind::Number, v, false));
                } else if let Some((num, noun)) = compound_number(&lw)
                    && let Some(Ok(v)) = parse_number(num)
                {
                    // "a *4-star* hotel", "a *5-day* forecast": the number
                    // a compound states (attack trial: "4-star and above"
                    // was dropped unseen), with its unit when the noun is
                    // one.
                    unit = super::units::unit_words(&[Some(noun)]).map(|(u, _)| u);
                    m = Some((MentionKind::Number, v, false));
                } else if let Some(p) = lw.strip_suffix('%').and_then(parse_number) {
                    let v = p.map_err(|message| LiteralError {
                        span: Span::new(t.start, t.end),
                        message,
                    })?;
                    m = Some((MentionKind::Percent, v, false));
                } else if let Some((hm, took)) = parse_time(w, next) {
                    m = Some((MentionKind::Time, Json::from(hm), false));
                    take = 1 + usize::from(took);
                } else if is_iso_date(&lw) {
                    m = Some((MentionKind::Date, Json::from(lw.replace('/', "-")), false));
                } else if let Some(month) = month_of(&lw)
                    && let Some(day) = next
                        .and_then(|d| {
                            d.trim_end_matches(|c: char| c.is_ascii_alphabetic())
                                .parse::<u32>()
                                .ok()
                        })
                        .filter(|d| (1..=31).contains(d))
                {
                    // "January 12, 2024" / "Jan 12 2024" / "January 12"
                    let (year, n) = match (toks.get(i + 2).map(|t| &t.kind), next2, next3) {
                        (Some(TokKind::Punct(',')), _, Some(y))
                            if y.parse::<u32>().is_ok_and(|y| (1000..=9999).contains(&y)) =>
                        {
                            (y.parse::<u32>().ok(), 4)
                        }
                        (_, Some(y), _)
                            if y.parse::<u32>().is_ok_and(|y| (1000..=9999).contains(&y)) =>
                        {
                            (y.parse::<u32>().ok(), 3)
                        }
                        _ => (None, 2),
                    };
                    if !day_exists(year, month, day) {
                        // "February 30": no date; the words stay words.
                    } else if let Some(y) = year {
                        m = Some((
                            MentionKind::Date,
                            Json::from(format!("{y:04}-{month:02}-{day:02}")),
                            false,
                        ));
                    } else {
                        m = Some((
                            MentionKind::Date,
                            Json::from(format!("--{month:02}-{day:02}")),
                            false,
                        ));
                    }
                    if m.is_some() {
                        take = n;
                    }
                } else if (lw == "half"
                    && matches!(next, Some("a" | "an"))
                    && next2.and_then(unit_ms).is_some())
                    || (matches!(lw.as_str(), "a" | "an")
                        && next.and_then(unit_ms).is_some()
                        && next != Some("s"))
                {
                    let (f, n) = if lw == "half" { (0.5, 3) } else { (1.0, 2) };
                    let unit = words
                        .get(i + n - 1)
                        .and_then(|x| x.as_deref())
                        .and_then(unit_ms)
                        .unwrap_or(1000.0);
                    m = Some((MentionKind::Duration, json_num(f * unit), false));
                    take = n;
                } else if let Some((v, n)) = number_words_at(&words, i)
                    // "the Big *Ten* League", "*Three* Rivers Museum": a
                    // capitalised number word inside the sentence is part
                    // of a name.
                    && !(i > 0 && w.starts_with(|c: char| c.is_uppercase()))
                {
                    let after = words.get(i + n).and_then(|x| x.as_deref());
                    if after.is_some_and(counts_operands) {
                        // "divide two numbers": how many, not one of them.
                        take = n;
                    } else if let Some(ms) = after.and_then(unit_ms).filter(|_| after != Some("s"))
                    {
                        m = Some((MentionKind::Duration, json_num(v as f64 * ms), false));
                        take = n + 1;
                    } else {
                        // Number words are weak evidence ("one of", "a"),
                        // except a count before a superlative ("the *three*
                        // biggest numbers": never dropped, new-user trial).
                        let counts = after.is_some_and(super::lexicon::is_superlative);
                        m = Some((MentionKind::Number, Json::from(v), !counts));
                        take = n;
                    }
                } else if w.contains('@')
                    && w.split_once('@')
                        .is_some_and(|(a, d)| !a.is_empty() && d.contains('.') && !d.ends_with('.'))
                {
                    m = Some((MentionKind::Email, Json::from(w.clone()), false));
                } else if let Some(sep) = SEPARATORS.iter().find(|(n, _)| *n == lw).map(|(_, c)| *c)
                    && i > 0
                    && (matches!(
                        words[i - 1].as_deref(),
                        Some("on" | "by" | "with" | "at" | "using")
                    ) || (i > 1
                        && matches!(words[i - 1].as_deref(), Some("a" | "an" | "the"))
                        && matches!(words[i - 2].as_deref(), Some("with" | "using" | "by"))))
                    && (sep != "\n" || matches!(words[i - 1].as_deref(), Some("on" | "by")))
                {
                    m = Some((MentionKind::Separator, Json::from(sep), false));
                } else if let Some(n) = work_title(&toks, &words, i) {
                    // "the movie *Stand by Me*", "the show *Search Party*",
                    // "the HBO show *The Wire*": a work's title, every
                    // capitalised word of it (attack trial: request verbs
                    // and pronouns cut it to "Me", "Party").
                    let span = Span::new(t.start, toks[i + n - 1].end);
                    let title = &text[span.start..span.end];
                    let bare = title
                        .strip_suffix("'s")
                        .or_else(|| title.strip_suffix("\u{2019}s"))
                        .unwrap_or(title);
                    m = Some((MentionKind::Name, Json::from(bare), false));
                    take = n;
                } else if i > 0
                    && let Some(prev) = words[i - 1].as_deref()
                    && let Some(n) = title_run(&toks, &words, i)
                    && (matches!(prev, "titled" | "entitled")
                        || (n >= 2 && matches!(prev, "named" | "called"))
                        // "with description Users want a dark theme": a
                        // text labelled by what it is.
                        || (n >= 2
                            && TEXT_LABELS.contains(&prev)
                            && (i < 2
                                || matches!(
                                    words[i - 2].as_deref(),
                                    Some("with" | "and" | "a" | "the" | "its")
                                ))))
                {
                    // "a ticket titled login page broken": the title runs
                    // to the end of its phrase, every word of it (cutting
                    // it at the first word dropped the rest unseen).
                    let span = Span::new(t.start, toks[i + n - 1].end);
                    m = Some((
                        MentionKind::Name,
                        Json::from(&text[span.start..span.end]),
                        false,
                    ));
                    take = n;
                } else if i > 0
                    && matches!(
                        words[i - 1].as_deref(),
                        Some("labeled" | "labelled" | "tagged" | "named" | "called")
                    )
                    // A name of one word, where the clause or a phrase
                    // ends after it ("named reports", "called v2 in
                    // /repo"); "named crash on start" may be longer.
                    && (matches!(words[i - 1].as_deref(), Some("labeled" | "labelled" | "tagged"))
                        || match toks.get(i + 1).map(|t| &t.kind) {
                            None | Some(TokKind::Punct(_)) => true,
                            Some(TokKind::Word(_)) => matches!(
                                next,
                                Some("and" | "then" | "in" | "into" | "inside" | "under" | "at" | "to" | "with")
                            ),
                            _ => false,
                        })
                    && !FUNCTION_WORDS.contains(&lw.as_str())
                    && !matches!(lw.as_str(), "both" | "as" | "either" | "any" | "all" | "only")
                    // Dots inside a version ("release-1.0"), never a
                    // file name's extension (a path) nor a full stop.
                    && w.chars()
                        .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
                    && !w.ends_with('.')
                    && !is_path_like(w).0
                {
                    // "labeled bug", "a directory named reports": the
                    // label or name is a stated value.
                    m = Some((MentionKind::Name, Json::from(w.clone()), false));
                } else {
                    let (has_ext, slash) = is_path_like(w);
                    let core = w.trim_end_matches('/');
                    // "in km/h", "in m/s": a unit of measure, named.
                    if slash && super::units::dimension_of(core).is_some() {
                        m = Some((MentionKind::Name, Json::from(core), false));
                    } else if slash
                        && core.matches('/').count() == 1
                        && !has_ext
                        && !w.starts_with(['/', '.', '~'])
                        && let Some((o, n)) = core.split_once('/')
                        && is_ident_word(o)
                        && is_ident_word(n)
                    {
                        m = Some((MentionKind::Repo, Json::from(core), false));
                    } else if (has_ext || slash)
                        && !lw.contains("://")
                        && w.chars().any(|c| c.is_alphanumeric())
                        && !is_fraction(w)
                    {
                        m = Some((MentionKind::Path, Json::from(w.clone()), false));
                    } else if {
                        // "/", "~", "..", "./..": a folder written
                        // without a letter.
                        let r = w.trim_end_matches(['?', '!', ',']);
                        !r.is_empty() && r.chars().all(|c| matches!(c, '.' | '/' | '~'))
                    } && i > 0
                        && matches!(
                            words[i - 1].as_deref(),
                            Some(
                                "in" | "of"
                                    | "from"
                                    | "under"
                                    | "inside"
                                    | "at"
                                    | "list"
                                    | "ls"
                                    | "and"
                                    | "or"
                            )
                        )
                    {
                        // "the files in /", "list ../", "in ~": a folder
                        // written without a letter (attack trial: the
                        // root went unread and the current folder was
                        // listed instead).
                        let root = w.trim_end_matches(['?', '!', ',']);
                        m = Some((MentionKind::Path, Json::from(root), false));
                    }
                }
            }
        }
        if let Some((kind, value, weak)) = m {
            let end_tok = (i + take).min(toks.len()) - 1;
            let span = Span::new(t.start, toks[end_tok].end);
            for o in owner.iter_mut().take(i + take).skip(i) {
                *o = Some(out.len());
            }
            out.push(Mention {
                kind,
                value,
                span,
                text: text[span.start..span.end].to_string(),
                cue: Cue::default(),
                items: vec![],
                weak,
                unit: unit.map(str::to_string),
                lookup: false,
            });
        }
        i += take;
    }
    fields(text, &toks, &words, &mut owner, &mut out);
    folders_named(text, &toks, &words, &mut owner, &mut out);
    currencies(text, &toks, &words, &mut owner, &mut out);
    names(text, &toks, &words, &mut owner, &mut out);
    named_word(text, &toks, &words, &mut owner, &mut out);
    word_lists(text, &toks, &words, &mut owner, &mut out);
    let glosses = glosses(text);
    out.retain(|m| {
        m.kind != MentionKind::Name
            || !glosses
                .iter()
                .any(|g| g.start <= m.span.start && m.span.end <= g.end)
    });
    out.sort_by_key(|m| m.span.start);
    let out = compound_durations(text, out);
    let mut out = house_numbers(text, out);
    // Re-derive owners after sorting.
    let mut owner: Vec<Option<usize>> = vec![None; toks.len()];
    for (mi, m) in out.iter().enumerate() {
        for (ti, t) in toks.iter().enumerate() {
            if t.start >= m.span.start && t.end <= m.span.end {
                owner[ti] = Some(mi);
            }
        }
    }
    for (mi, m) in out.iter_mut().enumerate() {
        m.cue = cue(&toks, &words, &owner, mi);
    }
    let out = lists(text, &toks, &words, &owner, out);
    Ok(out)
}

/// The last words of a street's name ("Wall *Street*", "Fifth *Avenue*").
const STREET_WORDS: &[&str] = &[
    "street",
    "st",
    "avenue",
    "ave",
    "road",
    "rd",
    "boulevard",
    "blvd",
    "lane",
    "drive",
    "alley",
];

/// Whether name `text` is a street's ("Wall Street", "Rodeo Drive"): two
/// words at least, the last a [`STREET_WORDS`] one.
pub(crate) fn names_a_street(text: &str) -> bool {
    ends_in_one_of(text, STREET_WORDS)
}

/// Whether name `text` has two words at least and its last (case and a
/// full stop aside) is one of `words`: "Wall *Street*", "New York
/// *State*".
pub(crate) fn ends_in_one_of(text: &str, words: &[&str]) -> bool {
    let all: Vec<&str> = text.split_whitespace().collect();
    all.len() >= 2
        && all
            .last()
            .is_some_and(|w| words.contains(&w.trim_end_matches('.').to_ascii_lowercase().as_str()))
}

/// `ms` with a house number joined to the street's name after it ("*10*
/// Wall Street" is one name, "10 Wall Street"): alone, the number went
/// to a postal code (attack trial).
fn house_numbers(text: &str, ms: Vec<Mention>) -> Vec<Mention> {
    let mut out: Vec<Mention> = Vec::with_capacity(ms.len());
    for m in ms {
        if let Some(prev) = out.last_mut()
            && prev.kind == MentionKind::Number
            && prev.unit.is_none()
            && prev.text.chars().all(|c| c.is_ascii_digit())
            && prev.text.len() <= 6
            && m.kind == MentionKind::Name
            && names_a_street(&m.text)
            && text
                .get(prev.span.end..m.span.start)
                .is_some_and(|g| !g.is_empty() && g.chars().all(|c| c == ' '))
        {
            let span = Span::new(prev.span.start, m.span.end);
            let whole = text[span.start..span.end].to_string();
            *prev = Mention {
                value: Json::from(whole.clone()),
                span,
                text: whole,
                weak: false,
                ..m
            };
            continue;
        }
        out.push(m);
    }
    out
}

/// Words for a folder.
const FOLDER_NOUNS: &[&str] = &["folder", "directory", "dir", "subfolder", "subdirectory"];

/// Words before a folder noun that say which folder by where it is, not
/// by its name ("the *current* folder"; function words — "my", "this" —
/// are none either).
const NOT_FOLDER_NAMES: &[&str] = &[
    "current",
    "parent",
    "home",
    "same",
    "other",
    "working",
    "root",
    "whole",
    "entire",
    "new",
    "each",
    "every",
    "all",
    "any",
    "one",
    "which",
    "what",
    "another",
    "empty",
    "given",
    "above",
    "following",
    "previous",
    "next",
    "last",
    "first",
    "temp",
    "temporary",
    "user",
    "shared",
    "local",
    "remote",
];

/// Folders named by a bare word before a folder noun: "the *docs*
/// folder" is the relative path `docs` (the user named it; a missing one
/// is an error when read, never another folder). "the files in docs" (no
/// folder noun) and "the directory docs" ("the directory *tree*" names
/// none) stay words.
fn folders_named(
    text: &str,
    toks: &[Tok],
    words: &[Option<String>],
    owner: &mut [Option<usize>],
    out: &mut Vec<Mention>,
) {
    let word = |i: usize| words.get(i).and_then(|w| w.as_deref());
    let bare = |owner: &[Option<usize>], i: usize| -> Option<String> {
        let TokKind::Word(w) = &toks.get(i)?.kind else {
            return None;
        };
        let w = without_stop(w);
        let lw = lower(w);
        (owner[i].is_none()
            && !w.is_empty()
            && w.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
            && w.chars().any(char::is_alphabetic)
            && !NOT_FOLDER_NAMES.contains(&lw.as_str())
            && !FOLDER_NOUNS.contains(&lw.as_str())
            && !FUNCTION_WORDS.contains(&lw.as_str()))
        .then(|| w.to_string())
    };
    let mut found: Vec<(usize, String)> = vec![];
    for i in 0..toks.len() {
        let Some(noun) = word(i).map(without_stop) else {
            continue;
        };
        if !FOLDER_NOUNS.contains(&noun) {
            continue;
        }
        // "the docs folder": "the" before the name ("my documents
        // folder" is a place of the user's, not `./documents`).
        // Not when a name follows the noun: "the mailbox folder *Inbox*"
        // is the folder Inbox of the mailbox (attack trial: `{:folder
        // "mailbox"}`, Inbox dropped).
        let named_after = matches!(&toks.get(i + 1).map(|t| &t.kind),
            Some(TokKind::Word(w)) if w.starts_with(char::is_uppercase));
        if i >= 2
            && !named_after
            && word(i - 2) == Some("the")
            && let Some(name) = bare(owner, i - 1)
        {
            found.push((i - 1, name));
        }
        // "the folder docs" is left a word: "the directory *tree*", "the
        // folder *structure*" name no folder.
    }
    // (Each found word was unclaimed, and each is found once.)
    for (i, name) in found {
        let span = Span::new(toks[i].start, toks[i].start + name.len());
        owner[i] = Some(out.len());
        out.push(Mention::stated(
            text,
            MentionKind::Path,
            Json::from(name),
            span,
        ));
    }
}

/// Currencies named in words or by their code ("150 *Euros* to
/// *Canadian dollars*", "in *USD*"), on words no other value claimed.
fn currencies(
    text: &str,
    toks: &[Tok],
    words: &[Option<String>],
    owner: &mut [Option<usize>],
    out: &mut Vec<Mention>,
) {
    let mut i = 0;
    while i < toks.len() {
        let TokKind::Word(w) = &toks[i].kind else {
            i += 1;
            continue;
        };
        let free = |k: usize| {
            owner.get(k).is_some_and(Option::is_none)
                && matches!(toks.get(k).map(|t| &t.kind), Some(TokKind::Word(_)))
        };
        let found = if !free(i) {
            None
        } else if let Some(code) = super::currencies::code(w) {
            Some((code, 1))
        } else {
            let ahead: Vec<Option<&str>> = (i..(i + 3).min(toks.len()))
                .map(|k| if free(k) { words[k].as_deref() } else { None })
                .collect();
            super::currencies::named(&ahead)
        };
        let Some((code, n)) = found else {
            i += 1;
            continue;
        };
        let end = toks[i + n - 1].end;
        let written = text[toks[i].start..end].trim_end_matches(['.', ',', '?', '!']);
        let span = Span::new(toks[i].start, toks[i].start + written.len());
        // Right after an amount, it says what the amount is in.
        let after_amount = i > 0
            && owner[i - 1]
                .and_then(|m| out.get(m))
                .is_some_and(|m| m.kind == MentionKind::Number);
        let mut m = Mention::stated(text, MentionKind::Currency, Json::from(code), span);
        m.weak = after_amount;
        claim(owner, out, i..=i + n - 1, m);
        i += n;
    }
}

/// `w` without the sentence punctuation glued to its end ("age." of
/// "sort it by age.").
fn without_stop(w: &str) -> &str {
    w.trim_end_matches(['.', '?', '!', ':'])
}

/// Verbs that put items in an order: a word after their "by" is the key.
const ORDER_VERBS: &[&str] = &[
    "sort", "sorts", "sorted", "sorting", "order", "ordered", "rank", "ranked", "arrange",
    "arranged",
];

/// Verbs opening a listing that "by KEY" may order ("*list* docs/ by
/// size").
const LISTING_VERBS: &[&str] = &["list", "show", "display", "print"];

/// Keys that order a listing when "by" names them after a listing verb.
const ORDERING_KEYS: &[&str] = &[
    "size",
    "date",
    "name",
    "type",
    "length",
    "age",
    "time",
    "modified",
    "created",
    "updated",
    "extension",
    "price",
    "score",
];

/// Words that may follow the key of an ordering ("by age *descending*",
/// "by size, *largest* first").
const AFTER_ORDER_KEY: &[&str] = &[
    "ascending",
    "descending",
    "alphabetically",
    "alphabetical",
    "numerically",
    "by",
    "asc",
    "desc",
    "in",
    "then",
    "and",
    "from",
    "with",
    "reversed",
    "reverse",
    "oldest",
    "youngest",
    "newest",
    "latest",
    "earliest",
    "largest",
    "smallest",
    "biggest",
    "highest",
    "lowest",
    "longest",
    "shortest",
    "first",
    "last",
];

/// "and", "or" in any case ("Rome OR Oslo"): never part of a name.
fn is_conjunction(w: Option<&str>) -> bool {
    matches!(w, Some("and" | "or" | "nor" | "but"))
}

/// Direction words that may stand between two keys ("by score
/// descending then name").
const DIRECTION_AFTER_KEY: &[&str] = &["ascending", "descending", "asc", "desc", "reversed"];

/// Words that make a stated value approximate ("31 or so", "about 30"):
/// no equality.
const APPROXIMATE_WORDS: &[&str] = &[
    "so",
    "ish",
    "thereabouts",
    "about",
    "around",
    "roughly",
    "approximately",
    "nearly",
    "almost",
    "circa",
    "approx",
];

/// Words after "is" that compare rather than state the value ("whose age
/// is *greater* than 30"): no field reading then (an equality filter would
/// answer another question).
const COMPARISON_WORDS: &[&str] = &[
    "greater",
    "less",
    "more",
    "fewer",
    "above",
    "below",
    "over",
    "under",
    "at",
    "not",
    "no",
    "between",
    "than",
    "before",
    "after",
    "like",
    "contains",
    "containing",
    "starting",
    "ending",
    "empty",
    "null",
    "missing",
    "none",
    "any",
    "one",
    "either",
    "neither",
    "among",
    "in",
    "within",
    "bigger",
    "smaller",
    "higher",
    "lower",
    "older",
    "younger",
    "larger",
    "longer",
    "shorter",
    "equal",
    "different",
    "unlike",
    "same",
    "set",
    "unset",
    "blank",
    "present",
    "absent",
    "known",
    "unknown",
    "a",
    "an",
    "the",
];

/// Verbs that relate a record to a place or an organisation without
/// naming the key that holds it ("people who *live in* Paris", "*based
/// in*", "*works at* Globex"), each with the prepositions it takes and
/// the keys that may hold what it relates to (in groups, in order): the
/// condition is on the one of them the records have (`ccos.data.filter`
/// with a list of keys), so "lives in Alice" never reads a `name`, nor
/// "works for Dee" a manager.
const RELATION_VERBS: &[(&[&str], &[&str], RelationKeys)] = &[
    (
        &[
            "live", "lives", "living", "reside", "resides", "residing", "based", "located",
            "situated",
        ],
        &["in", "at"],
        &[REGION_KEYS, PLACE_KEYS],
    ),
    (
        &["work", "works", "working", "employed"],
        &["at", "for", "by"],
        &[&[
            "company",
            "employer",
            "organization",
            "organisation",
            "org",
            "firm",
            "workplace",
            "business",
            "current_company",
            "current_employer",
        ]],
    ),
    (
        &["born"],
        &["in"],
        &[&[
            "birthplace",
            "birth_place",
            "place_of_birth",
            "born_in",
            "birth_city",
            "city_of_birth",
            "birth_country",
            "country_of_birth",
        ]],
    ),
];

/// The keys a relation may be about, in groups read in order.
type RelationKeys = &'static [&'static [&'static str]];

/// Keys naming a region, where one is or comes from.
const REGION_KEYS: &[&str] = &["city", "town", "country", "state", "region", "province"];

/// Keys saying where one is now ("lives in", "based in"), besides a
/// region.
const PLACE_KEYS: &[&str] = &[
    "location",
    "place",
    "current_city",
    "current_location",
    "home_city",
    "residence",
];

/// The keys of "from" after a person ("people *from* Berlin").
const ORIGIN_RELATION: RelationKeys = &[REGION_KEYS, ORIGIN_KEYS];

/// Keys saying where one comes from ("people *from* Berlin"), besides a
/// region.
const ORIGIN_KEYS: &[&str] = &[
    "hometown",
    "home_town",
    "origin",
    "home_city",
    "home_country",
];

/// Words after "what KEY is" that say the key holds a value ("what port
/// is *set* in config.json"): part of the asked key's phrase.
const HOLDING_PARTICIPLES: &[&str] = &[
    "set",
    "configured",
    "defined",
    "specified",
    "stored",
    "listed",
    "given",
    "recorded",
    "saved",
    "written",
    "there",
];

/// Words that name what a file is, not a key of its value ("the *size*
/// of config.json"); after "in", or with "is set", they are keys ("what
/// size is set in settings.json").
const FILE_PROPERTIES: &[&str] = &[
    "size",
    "length",
    "type",
    "path",
    "words",
    "word",
    "characters",
    "character",
    "chars",
    "letters",
    "bytes",
    "extension",
    "format",
    "encoding",
    "date",
    "owner",
    "permissions",
    "modified",
    "created",
    "number",
    "numbers",
    "count",
];

/// Words that are never a key asked of a file: its whole content, a
/// quantity or an ordinal of something else ("the *total* of", "the
/// *second* tag"), a qualifier ("the *unique* cities"), a word that asks
/// ("what *exactly* is set").
const NEVER_A_KEY: &[&str] = &[
    "maximum",
    "minimum",
    "contents",
    "content",
    "text",
    "data",
    "json",
    "file",
    "files",
    "key",
    "keys",
    "values",
    "value",
    "total",
    "sum",
    "average",
    "mean",
    "median",
    "first",
    "last",
    "second",
    "third",
    "next",
    "previous",
    "top",
    "rest",
    "whole",
    "full",
    "entire",
    "same",
    "other",
    "result",
    "results",
    "answer",
    "output",
    "difference",
    "unique",
    "distinct",
    "different",
    "duplicate",
    "duplicates",
    "exactly",
    "else",
    "kind",
    "sort",
    "list",
];

/// Words that open a question or a request to read: "the X in FILE"
/// after them asks for a key.
const READING_VERBS: &[&str] = &[
    "what", "what's", "whats", "which", "show", "list", "get", "tell", "give", "print", "display",
    "read", "return", "fetch", "find",
];

/// A key of a JSON file's value the clause asks for, starting at the
/// question word or article at `i`: "*what* port is set in config.json",
/// "*the* tags in config.json", "*the* app name of config.json" (one or
/// two words, then "in"/"of"/"from" and a stated `.json` file). Returns
/// (first token, last token of the phrase, key).
fn lookup_at<'a>(
    i: usize,
    word: &impl Fn(usize) -> Option<&'a str>,
    owner: &[Option<usize>],
    out: &[Mention],
    key_at: &impl Fn(&[Option<usize>], usize) -> Option<String>,
) -> Option<(usize, usize, String)> {
    let asks = matches!(word(i), Some("what" | "which"));
    // ("*the* size in box.json", the whole request a noun phrase, asks
    // for it too.)
    if !asks && i > 0 {
        // The whole object: "what is *the* port", "show *the* tags", not
        // "the names of *the* people in people.json" — in a question or a
        // request to read, never another verb's object ("sort the tags in
        // …").
        let before = i.checked_sub(1).and_then(word);
        if !before.is_some_and(|b| {
            matches!(b, "is" | "are" | "was" | "were" | "me" | "us") || READING_VERBS.contains(&b)
        }) {
            return None;
        }
        let first = (0..i).find_map(word)?;
        if !READING_VERBS.contains(&first) {
            return None;
        }
    }
    let k = i + 1;
    // Words that are never a key, and, unless the phrase says the key
    // holds a value ("is *set*") or looks inside ("in"), what a file is
    // or holds ("the *size* of config.json", "the *lines* of …").
    let never = |key: &str| {
        NEVER_A_KEY.contains(&key)
            || super::lexicon::is_superlative(key)
            || super::lexicon::is_direction_word(key)
    };
    let of_the_file = |key: &str| {
        FILE_PROPERTIES.contains(&key)
            || ccos_marketplace::search::analyze(key)
                .iter()
                .any(|st| super::lexicon::held_noun_stems_all().contains(st))
    };
    let first_key = key_at(owner, k)?;
    if never(&first_key) {
        return None;
    }
    // A second word of the key ("app name", "database host"), when a
    // preposition follows.
    let mut holds = false;
    let (key, mut j) = match key_at(owner, k + 1) {
        // "what's the count *set* in settings.json".
        _ if !asks && word(k + 1).is_some_and(|w| HOLDING_PARTICIPLES.contains(&w)) => {
            holds = true;
            (first_key, k + 2)
        }
        // "the name *field* of config.json": the key is "name", said to
        // be one (not the file's name).
        Some(second)
            if !asks
                && matches!(
                    second.as_str(),
                    "field"
                        | "key"
                        | "property"
                        | "attribute"
                        | "setting"
                        | "entry"
                        | "flag"
                        | "option"
                ) =>
        {
            holds = true;
            (first_key, k + 2)
        }
        Some(second) if !asks && !never(&second) => (format!("{first_key} {second}"), k + 2),
        _ => (first_key, k + 1),
    };
    let mut last = j - 1;
    if asks {
        // "what port *is* (set) in …".
        if !matches!(word(j), Some("is" | "are" | "was")) {
            return None;
        }
        j += 1;
        if word(j).is_some_and(|w| HOLDING_PARTICIPLES.contains(&w)) {
            last = j;
            j += 1;
            holds = true;
        }
    }
    let prep = word(j)?;
    if !matches!(prep, "in" | "of" | "from" | "inside") {
        return None;
    }
    // "the size *of* config.json", "the name of config.json": the file's;
    // "what size is set in settings.json", "the type in package.json": a
    // key. A member noun reads the file as a list unless a key is said
    // to hold it.
    let property = key.split(' ').any(of_the_file) || matches!(key.as_str(), "name" | "names");
    if property
        && !holds
        && (prep == "of"
            || key
                .split(' ')
                .any(|w| !FILE_PROPERTIES.contains(&w) && of_the_file(w)))
    {
        return None;
    }
    let p = if matches!(word(j + 1), Some("the")) {
        j + 2
    } else {
        j + 1
    };
    let path = owner.get(p).copied().flatten().and_then(|mi| out.get(mi))?;
    // The file ends the phrase: "the people in people.json *whose* age is
    // 41" are records kept, not a key.
    let after = (p..).find(|&j| owner.get(j).copied().flatten() != owner[p])?;
    // ("… and why", "… and their count": more asked than the key.)
    if word(after).is_some_and(|w| !matches!(w, "please" | "too" | "also")) {
        return None;
    }
    let path_text = path.value.as_str().unwrap_or(&path.text);
    // "the people in people.json": the file's own name says what it
    // holds, not a key of it.
    // (A plural or collective noun only: "the order in order.json" may
    // well be its `order`.)
    let own_name = super::lexicon::file_name_stems(path_text);
    let key_stems = ccos_marketplace::search::analyze(&key);
    if !key_stems.is_empty()
        && key_stems == own_name
        && (key.ends_with('s') || matches!(key.as_str(), "people" | "staff"))
    {
        return None;
    }
    (path.kind == MentionKind::Path && super::lexicon::is_json_file(path_text))
        .then_some((k, last, key))
}

/// Words before a relation that put it at another time or deny it.
const NOT_NOW_BEFORE_RELATION: &[&str] = &[
    "to",
    "used",
    "never",
    "not",
    "no",
    "longer",
    "formerly",
    "previously",
    "once",
    "ever",
    "would",
    "will",
    "could",
    "might",
    "may",
    "should",
    "can",
    "must",
    "don't",
    "doesn't",
    "didn't",
    "won't",
    "wouldn't",
    "isn't",
    "aren't",
    "wasn't",
    "weren't",
    "dont",
    "doesnt",
    "didnt",
    "arent",
    "isnt",
    "had",
    "have",
    "has",
    "been",
    "soon",
];

/// Words before "from" that make it a record's origin ("people *from*
/// Berlin", "who *are* from Berlin"), not a source to read or a start
/// ("flights from Paris", "copy from X").
const ORIGIN_BEFORE_FROM: &[&str] = &[
    "are",
    "is",
    "come",
    "comes",
    "came",
    "coming",
    "people",
    "persons",
    "person",
    "users",
    "user",
    "employees",
    "employee",
    "customers",
    "customer",
    "students",
    "student",
    "members",
    "member",
    "staff",
    "everyone",
    "anyone",
    "somebody",
    "someone",
    "those",
    "ones",
    "one",
    "folks",
    "friends",
    "contacts",
    "authors",
    "players",
    "workers",
];

/// Words before a relation, up to three words back, that put it at
/// another time, in a mood, or in doubt ("*were* living in", "*will be*
/// working at", "is *supposed* to be living"): the data says where one is.
const NOT_NOW_NEAR_RELATION: &[&str] = &[
    "be", "was", "were", "been", "being", "supposed", "likely", "going", "gonna", "wanna",
    "planning", "plan", "plans", "hoping", "hope", "hopes", "expected", "want", "wants", "wanted",
    "moving", "moved", "move", "later", "next", "last", "then", "still", "yet", "already", "maybe",
    "perhaps", "probably",
];

/// Words that ask how many or whether, not which ("do *all* people …
/// live in Paris?", "*most*"): a list of the records is no answer.
const QUANTIFIERS: &[&str] = &[
    "all",
    "most",
    "every",
    "each",
    "any",
    "none",
    "more",
    "fewer",
    "less",
    "both",
    "few",
    "many",
    "several",
    "some",
    "no",
    "exactly",
    "least",
    "majority",
    "half",
    "nobody",
    "anybody",
    "everybody",
    "everyone",
    "anyone",
    "whether",
];

/// A relation that names no key starting at `i` ("live in", "lives at",
/// "from" after a person): its last token and the keys that may hold its
/// value. None in another time, mood or negation ("used to live", "were
/// living", "don't live"), in a yes/no question ("do all people live
/// in …?") or after a quantifier ("most people living in …").
fn relation_at<'a>(
    i: usize,
    word: &impl Fn(usize) -> Option<&'a str>,
) -> Option<(usize, RelationKeys)> {
    // The relation's words first (cheap; most words are none), then what
    // the words around it say of it.
    let w = word(i)?;
    let found: (usize, RelationKeys) = if w == "from" {
        (i > 0 && word(i - 1).is_some_and(|b| ORIGIN_BEFORE_FROM.contains(&b)))
            .then_some((i, ORIGIN_RELATION))?
    } else {
        let (_, preps, keys) = RELATION_VERBS
            .iter()
            .find(|(verbs, _, _)| verbs.contains(&w))?;
        let p = word(i + 1)?;
        preps.contains(&p).then_some((i + 1, *keys))?
    };
    let before = |n: usize| (1..=n).filter_map(|d| i.checked_sub(d)).filter_map(word);
    if before(3).any(|b| NOT_NOW_NEAR_RELATION.contains(&b) || NOT_NOW_BEFORE_RELATION.contains(&b))
    {
        return None;
    }
    // The clause's first word: a yes/no question.
    let first = (0..=i).find_map(word)?;
    if super::lexicon::AUXILIARIES.contains(&first)
        || super::lexicon::POLITE_MODALS.contains(&first)
        || first == "should"
    {
        return None;
    }
    if (0..i).filter_map(word).any(|b| QUANTIFIERS.contains(&b)) {
        return None;
    }
    Some(found)
}

/// Fields of records a clause names by their key (see
/// [`MentionKind::Field`]); structural, so that the key and the value are
/// never swapped:
/// - the word after "by" in a clause that orders ("sort people.json by
///   age", "sorted by \"size\" descending"), when the ordering's phrase ends
///   there;
/// - the word after "whose"/"where" before "is"/"="/"equals" and a value
///   ("whose city is London", "where \"city\" is \"London\""); `true`/
///   `false` become a boolean; not when a comparison follows ("whose age
///   is greater than 30") nor before a bare lower-case value ("whose city
///   is paris": which case the data has is a guess).
fn fields(
    text: &str,
    toks: &[Tok],
    words: &[Option<String>],
    owner: &mut [Option<usize>],
    out: &mut Vec<Mention>,
) {
    let word = |i: usize| words.get(i).and_then(|w| w.as_deref());
    // A key: an unclaimed bare identifier, or a quoted one.
    let key_at = |owner: &[Option<usize>], i: usize| -> Option<String> {
        let t = toks.get(i)?;
        let k = match &t.kind {
            TokKind::Word(w) if owner[i].is_none() => {
                let lw = lower(without_stop(w));
                let ident = lw
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
                    && lw.chars().next().is_some_and(char::is_alphabetic)
                    && w.chars().next().is_some_and(char::is_lowercase);
                (ident
                    && !FUNCTION_WORDS.contains(&lw.as_str())
                    && !AFTER_ORDER_KEY.contains(&lw.as_str())
                    && !COMPARISON_WORDS.contains(&lw.as_str())
                    && !matches!(
                        lw.as_str(),
                        "it" | "them" | "this" | "that" | "these" | "those"
                    ))
                .then_some(lw)?
            }
            TokKind::Quoted(q)
                if q.chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '.')
                    && !q.is_empty() =>
            {
                q.clone()
            }
            _ => return None,
        };
        Some(k)
    };
    let phrase_ends = |i: usize| match toks.get(i).map(|t| &t.kind) {
        None | Some(TokKind::Punct(_)) => true,
        Some(TokKind::Word(_)) => word(i).is_some_and(|w| AFTER_ORDER_KEY.contains(&w)),
        _ => false,
    };
    let mut made: Vec<(usize, MentionKind, Json)> = vec![];
    // Capitalised values: (first token, last token, span).
    let mut names_made: Vec<(usize, usize, Span)> = vec![];
    // Keys asked of a JSON file: (first token, last token, key).
    let mut lookups_made: Vec<(usize, usize, String)> = vec![];
    // Relations that name no key ("live in"): (first token, last token).
    let mut relations_made: Vec<(usize, usize, RelationKeys)> = vec![];
    let orders = words
        .iter()
        .flatten()
        .any(|w| ORDER_VERBS.contains(&w.as_str()));
    // "list docs/ by size", "show the files by date": a listing by a key
    // that orders lists is an ordering too (what "by" says of other
    // words — "the commits by alice" — is left alone).
    let lists = words
        .iter()
        .flatten()
        .next()
        .is_some_and(|w| LISTING_VERBS.contains(&w.as_str()));
    // A folder listed ("list docs/ by …"): whatever "by" names orders it.
    let lists_folder = lists
        && out
            .iter()
            .any(|m| m.kind == MentionKind::Path && !super::lexicon::names_a_file(&m.text));
    // The word after "by" and its determiner.
    let after_by = |i: usize| {
        if matches!(word(i + 1), Some("the" | "their" | "its" | "each")) {
            i + 2
        } else {
            i + 1
        }
    };
    for i in 0..toks.len() {
        // "live in Paris" at `i`, its words all unclaimed.
        let relation =
            relation_at(i, &word).filter(|(prep, _)| owner[i..=*prep].iter().all(Option::is_none));
        match word(i) {
            // "list docs/ by how big they are": an order the folder's
            // entries have no key for (refused, never the name order).
            Some("by")
                if lists_folder
                    && !orders
                    && word(after_by(i))
                        .is_some_and(|w| !ORDERING_KEYS.contains(&without_stop(w))) =>
            {
                let k = after_by(i);
                if owner.get(k).is_some_and(Option::is_none)
                    && let Some(w) = word(k)
                {
                    made.push((
                        k,
                        MentionKind::Field,
                        Json::from(without_stop(w).to_string()),
                    ));
                }
            }
            Some("by")
                if orders
                    || (lists
                        && word(after_by(i))
                            .is_some_and(|w| ORDERING_KEYS.contains(&without_stop(w)))) =>
            {
                // "by age", "by the age", "by their age".
                let k = after_by(i);
                if let Some(key) = key_at(owner, k)
                    && phrase_ends(k + 1)
                {
                    made.push((k, MentionKind::Field, Json::from(key)));
                    // "by age then name": a second key, a field of its
                    // own (which the one key of a sort drops: refused).
                    let mut j = k + 1;
                    while matches!(toks.get(j).map(|t| &t.kind), Some(TokKind::Punct(',')))
                        || matches!(word(j), Some("then" | "and" | "by" | "the"))
                        || word(j).is_some_and(|w| DIRECTION_AFTER_KEY.contains(&w))
                    {
                        j += 1;
                    }
                    if j > k + 1
                        && words[k + 1..j].iter().flatten().any(|w| w == "then")
                        && let Some(second) = key_at(owner, j)
                    {
                        made.push((j, MentionKind::Field, Json::from(second)));
                    }
                }
            }
            Some(w) if matches!(w, "whose" | "where") || relation.is_some() => {
                // "whose city is Paris": the key, then "is" and the value;
                // "live in Paris": no key, the relation's words, then the
                // value.
                let (k, key, v, is) = if let Some((prep, _)) = relation {
                    (i, None, prep + 1, 1)
                } else {
                    let k = i + 1;
                    let Some(key) = key_at(owner, k) else {
                        continue;
                    };
                    let is = match (word(k + 1), toks.get(k + 1).map(|t| &t.kind)) {
                        (Some("is" | "equals" | "was" | "are"), _) => 1,
                        (_, Some(TokKind::Punct('='))) => 1,
                        _ => 0,
                    };
                    (k, Some(key), k + 1 + is, is)
                };
                // No value after it ("… people from"): nothing to read.
                if v >= toks.len() || v >= owner.len() {
                    continue;
                }
                // A relation's value is a name or a quoted text ("live in
                // Paris", "from 'Berlin'"), never a path or a number.
                if key.is_none()
                    && !match (owner[v], toks.get(v).map(|t| &t.kind)) {
                        (Some(mi), _) => out.get(mi).is_some_and(|m| {
                            matches!(m.kind, MentionKind::Name | MentionKind::Quoted)
                        }),
                        (None, Some(TokKind::Word(x))) => {
                            x.chars().next().is_some_and(char::is_uppercase)
                        }
                        _ => false,
                    }
                {
                    continue;
                }
                if is == 0
                    || word(v).is_some_and(|w| {
                        COMPARISON_WORDS.contains(&w) || APPROXIMATE_WORDS.contains(&w)
                    })
                {
                    continue;
                }
                // What follows the value, when it says more than one
                // equality: another value ("is Sales or IT", "is Paris
                // and Bob"), a second condition ("is Rome in IT"), an
                // approximation ("31 or so"). Not one key and one value:
                // no field is read, and the words stay unserved.
                let extends = |last: usize| {
                    let next = last + 1;
                    // "Rome (or Oslo)", "Rome & Oslo", "Rome / Oslo",
                    // "Rome; Oslo": more than one value.
                    if (matches!(toks.get(next).map(|t| &t.kind),
                        Some(TokKind::Punct('(' | '[' | '&' | '+' | '|' | ';' | '/')))
                        && matches!(toks.get(next + 1).map(|t| &t.kind),
                            Some(TokKind::Word(_) | TokKind::Quoted(_) | TokKind::Json(_))))
                        || (toks.get(last).is_some_and(|t| {
                            matches!(&t.kind, TokKind::Word(w) if w.ends_with([';', '/', '&', '|', '+']))
                        }) && matches!(toks.get(next).map(|t| &t.kind), Some(TokKind::Word(_))))
                    {
                        return true;
                    }
                    match word(next) {
                        Some("or" | "nor" | "etc" | "etc." | "&" | "/" | "&&" | "||") => true,
                        Some(w) if APPROXIMATE_WORDS.contains(&w) => true,
                        // "Rome and so on", "Rome and others".
                        Some("and")
                            if matches!(
                                word(next + 1),
                                Some("so" | "more" | "others" | "other" | "similar" | "etc")
                            ) =>
                        {
                            true
                        }
                        Some("and" | "in" | "at" | "from" | "with" | "of" | "for" | "but") => {
                            let after = next + 1;
                            let is_path = owner
                                .get(after)
                                .copied()
                                .flatten()
                                .and_then(|mi| out.get(mi))
                                .is_some_and(|m| m.kind == MentionKind::Path);
                            !is_path
                                && match toks.get(after).map(|t| &t.kind) {
                                    Some(TokKind::Word(x)) => {
                                        owner[after].is_some()
                                            || x.chars().next().is_some_and(|c| {
                                                c.is_uppercase() || c.is_ascii_digit()
                                            })
                                    }
                                    Some(TokKind::Punct(_)) | None => false,
                                    Some(_) => true,
                                }
                        }
                        _ => false,
                    }
                };
                let value_last = match owner[v] {
                    Some(mi) => (v..toks.len())
                        .take_while(|&j| owner[j] == Some(mi))
                        .last()
                        .unwrap_or(v),
                    None => {
                        let mut e = v;
                        while owner.get(e + 1).is_some_and(Option::is_none)
                            && !is_conjunction(word(e + 1))
                            && matches!(toks.get(e + 1).map(|t| &t.kind), Some(TokKind::Word(x))
                                if x.chars().next().is_some_and(char::is_uppercase))
                            && matches!(toks.get(v).map(|t| &t.kind), Some(TokKind::Word(x))
                                if x.chars().next().is_some_and(char::is_uppercase))
                        {
                            e += 1;
                        }
                        e
                    }
                };
                if extends(value_last) {
                    continue;
                }
                // "whose age is 30 or more", "… 30 and above": a bound,
                // not the value.
                if (v + 1..v + 4).any(|j| {
                    word(j).is_some_and(|w| {
                        COMPARISON_WORDS.contains(&w)
                            || matches!(
                                w,
                                "more"
                                    | "less"
                                    | "plus"
                                    | "up"
                                    | "onwards"
                                    | "upwards"
                                    | "later"
                                    | "earlier"
                                    | "higher"
                                    | "lower"
                            )
                    }) && !matches!(word(j), Some("in" | "a" | "an" | "the" | "at"))
                }) || text
                    .get(toks[v].end..)
                    .is_some_and(|rest| rest.starts_with('+'))
                {
                    continue;
                }
                // The value: a mention already, or a bare word that ends
                // the phrase ("whose city is paris").
                let boolean = match word(v) {
                    Some("true") if owner[v].is_none() => Some(true),
                    Some("false") if owner[v].is_none() => Some(false),
                    _ => None,
                };
                let value = match (owner[v], toks.get(v).map(|t| &t.kind)) {
                    // "whose active is True", "… is FALSE": a boolean
                    // however it is written.
                    _ if boolean.is_some() && phrase_ends(v + 1) => {
                        boolean.map(|b| (MentionKind::Json, Json::Bool(b)))
                    }
                    // A stated value: never left unused ("whose age is
                    // thirty" keeps the thirty-year-olds, not everyone).
                    (Some(mi), _) => {
                        if let Some(m) = out.get_mut(mi) {
                            m.weak = false;
                        }
                        None
                    }
                    // "whose city is New York": the capitalised run is
                    // the value, stated (not a weak name the plan may
                    // leave: the filter would keep every record).
                    (None, Some(TokKind::Word(w)))
                        if w.chars().next().is_some_and(char::is_uppercase) =>
                    {
                        let capital = |j: usize| {
                            owner.get(j).is_some_and(Option::is_none)
                                && !is_conjunction(word(j))
                                && matches!(toks.get(j).map(|t| &t.kind), Some(TokKind::Word(x))
                                    if x.chars().next().is_some_and(char::is_uppercase)
                                        && x.chars().any(char::is_alphabetic))
                        };
                        let mut e = v;
                        while capital(e + 1) {
                            e += 1;
                        }
                        let start = toks[v].start;
                        let end = match &toks[e].kind {
                            TokKind::Word(x) => {
                                toks[e].start + x.trim_end_matches(['.', '?', '!', ':', ',']).len()
                            }
                            _ => toks[e].end,
                        };
                        names_made.push((v, e, Span::new(start, end)));
                        None
                    }
                    (None, Some(TokKind::Word(w)))
                        if phrase_ends(v + 1) || matches!(word(v + 1), Some("and" | "or")) =>
                    {
                        match lower(without_stop(w)).as_str() {
                            "true" => Some((MentionKind::Json, Json::Bool(true))),
                            "false" => Some((MentionKind::Json, Json::Bool(false))),
                            // "whose city is paris": which case the data
                            // has is a guess (an equality filter would
                            // find nobody in "Paris"); quoted, it is said.
                            _ => continue,
                        }
                    }
                    (None, Some(TokKind::Quoted(_) | TokKind::Json(_))) => None,
                    _ => continue,
                };
                match key {
                    Some(key) => made.push((k, MentionKind::Field, Json::from(key))),
                    None => {
                        if let Some((_, keys)) = relation {
                            relations_made.push((k, v - 1, keys));
                        }
                    }
                }
                if let Some((kind, value)) = value {
                    made.push((v, kind, value));
                }
            }
            // "what port is set in config.json", "the tags in
            // config.json": the value of a key of a JSON file, asked.
            Some("what" | "which" | "the") => {
                if let Some(found) = lookup_at(i, &word, owner, out, &key_at) {
                    lookups_made.push(found);
                }
            }
            _ => {}
        }
    }
    for (first, last, key) in lookups_made {
        let end = match &toks[last].kind {
            TokKind::Word(w) => toks[last].start + without_stop(w).len(),
            _ => toks[last].end,
        };
        let span = Span::new(toks[first].start, end);
        let mut m = Mention::stated(text, MentionKind::Field, Json::from(key), span);
        m.lookup = true;
        claim(owner, out, first..=last, m);
    }
    for (i, kind, value) in made {
        let t = &toks[i];
        let end = match &t.kind {
            TokKind::Word(w) => t.start + without_stop(w).len(),
            _ => t.end,
        };
        let span = Span::new(t.start, end);
        if let Some(mi) = owner[i] {
            // A quoted key: the stated text is the field's name.
            if let Some(m) = out.get_mut(mi)
                && m.kind == MentionKind::Quoted
                && kind == MentionKind::Field
            {
                m.kind = MentionKind::Field;
            }
            continue;
        }
        owner[i] = Some(out.len());
        out.push(Mention::stated(text, kind, value, span));
    }
    // "live in Paris": a condition on whichever of the relation's keys
    // the records have (the value: the keys, a list). Weak: only a filter
    // takes it; elsewhere "located in Paris" is just where the name stands.
    for (first, last, keys) in relations_made {
        let span = Span::new(toks[first].start, toks[last].end);
        let keys = Json::Array(
            keys.iter()
                .flat_map(|g| g.iter())
                .map(|k| Json::from(*k))
                .collect(),
        );
        let mut m = Mention::stated(text, MentionKind::Field, keys, span);
        m.weak = true;
        claim(owner, out, first..=last, m);
    }
    for (first, last, span) in names_made {
        let name = Json::from(&text[span.start..span.end]);
        claim(
            owner,
            out,
            first..=last,
            Mention::stated(text, MentionKind::Name, name, span),
        );
    }
}

/// Adds `m` as the mention of the tokens `at`, unless one of them is
/// another mention's already (the first pass to claim a token keeps it).
fn claim(
    owner: &mut [Option<usize>],
    out: &mut Vec<Mention>,
    at: std::ops::RangeInclusive<usize>,
    m: Mention,
) {
    if owner[at.clone()].iter().any(Option::is_some) {
        return;
    }
    for o in &mut owner[at] {
        *o = Some(out.len());
    }
    out.push(m);
}

/// Words that end a title or name stated after "titled"/"named"/"called":
/// the next phrase opens ("… *with* priority P1", "… *in* /repo", "…
/// *due* Friday"), a clause joins, or a relative clause or a verb follows
/// ("… *who* is a pilot"). A verb is the title's own: "titled Invoice
/// *is* wrong" (helper trial: the title was "Invoice", "wrong" dropped).
const TITLE_ENDS: &[&str] = &[
    "and", "or", "then", "but", "with", "without", "in", "into", "inside", "at", "to", "for",
    "from", "on", "by", "under", "over", "due", "about", "using", "via", "before", "after",
    "until", "since", "who", "which", "that", "whose", "where", "when", "if", "so", "please",
    "tagged", "labeled", "labelled", "assigned",
];

/// Words labelling a free text that follows unquoted ("with *description*
/// Users want a dark theme"): the text runs like a title.
const TEXT_LABELS: &[&str] = &[
    "description",
    "subject",
    "message",
    "body",
    "summary",
    "note",
    "comment",
    "caption",
];

/// Nouns of the works a title follows: "the movie *Stand by Me*", "the
/// HBO show *The Wire*", "the product *Echo Dot*" ([`work_title`]).
pub(crate) const WORK_NOUNS: &[&str] = &[
    "song", "album", "track", "single", "film", "movie", "book", "novel", "show", "series",
    "episode", "game", "play", "musical", "poem", "podcast", "product", "app",
];

/// How many tokens from `i` make the title of a work its noun introduces
/// ("the movie *Read My Lips*", "the HBO show *The Wire*"); `None` unless
/// token `i` is capitalised right after a noun of [`WORK_NOUNS`] that an
/// article or a capitalised word opens (so a request verb opening the
/// goal, "Show The Wire", is none).
///
/// The title runs over capitalised words, whatever they are ("*Search*
/// Party", "Ask *Me* Anything"), over "of", "the", "and" before a
/// capitalised word ("Game *of* Thrones"), and over a preposition only
/// before a pronoun ("Stand *by Me*") or an article and a title-cased
/// phrase that ends there ("Snakes *on a Plane*"): "Line of Duty *on*
/// BBC", "Dune *by* Frank Herbert", "Heat *with* Al Pacino" and "the song
/// Yesterday *to the Chill* playlist" name something else. Never into a
/// place or a language ("Amélie *in French*"), nor over "by" or "from"
/// and an article ("Hotel California *by the Eagles*"). The noun is
/// singular, so "Planes, Trains and Automobiles" and "Take Me Home,
/// Country Roads" are one title each: capitalised words after a comma go
/// on.
fn work_title(toks: &[Tok], words: &[Option<String>], i: usize) -> Option<usize> {
    const JOINING: &[&str] = &[
        "of", "the", "a", "an", "and", "&", "de", "la", "le", "el", "del", "da", "du", "di", "von",
        "van",
    ];
    const PLACING: &[&str] = &["in", "on", "at", "for", "to", "with", "by", "from"];
    const PRONOUNS: &[&str] = &["me", "you", "us", "them", "him", "her"];
    let cap = |j: usize| {
        matches!(toks.get(j).map(|t| &t.kind), Some(TokKind::Word(w))
            if w.starts_with(char::is_uppercase) && w.chars().any(char::is_alphabetic))
    };
    let word = |j: usize| words.get(j).and_then(|w| w.as_deref());
    let opened = matches!(
        word(i.checked_sub(2)?),
        Some("the" | "a" | "an" | "this" | "that")
    ) || (i >= 3 && cap(i - 2));
    if !(cap(i) && word(i - 1).is_some_and(|n| WORK_NOUNS.contains(&n)) && opened) {
        return None;
    }
    let place_or_language = |j: usize| {
        matches!(toks.get(j).map(|t| &t.kind), Some(TokKind::Word(w))
            if super::regions::is_place(w) || super::languages::is_language(w))
    };
    let cap_run_end = |mut k: usize| {
        while cap(k) {
            k += 1;
        }
        k
    };
    let mut n = 1;
    loop {
        let j = i + n;
        if cap(j) {
            n += 1;
            continue;
        }
        let w = word(j);
        if w.is_some_and(|w| JOINING.contains(&w)) {
            let mut k = j;
            while word(k).is_some_and(|w| JOINING.contains(&w)) && !cap(k) {
                k += 1;
            }
            if cap(k) && !place_or_language(k) {
                n = k + 1 - i;
                continue;
            }
            break;
        }
        if w.is_some_and(|w| PLACING.contains(&w)) {
            // "Stand *by Me*", "Talk *to Me*".
            if cap(j + 1) && word(j + 1).is_some_and(|w| PRONOUNS.contains(&w)) {
                n = j + 2 - i;
                continue;
            }
            // "Snakes *on a Plane*", "Up *in the Air*"; not "Yesterday
            // *to the Chill* playlist" (a noun after it: another phrase),
            // nor "Hotel California *by the Eagles*", "Top Gear *from the
            // BBC*" (its maker; helper trial), but "Letters *from an*
            // American Farmer".
            if (!matches!(w, Some("by" | "from")) || matches!(word(j + 1), Some("a" | "an")))
                && matches!(word(j + 1), Some("a" | "an" | "the"))
                && !cap(j + 1)
                && cap(j + 2)
                && !place_or_language(j + 2)
            {
                let e = cap_run_end(j + 2);
                let another_phrase = matches!(toks.get(e).map(|t| &t.kind), Some(TokKind::Word(_)))
                    && !word(e).is_some_and(|w| {
                        JOINING.contains(&w) || PLACING.contains(&w) || TITLE_ENDS.contains(&w)
                    });
                if !another_phrase {
                    n = e - i;
                    continue;
                }
            }
            break;
        }
        // "Planes, Trains and Automobiles", "Take Me Home, Country Roads":
        // the noun is singular, so capitalised words after a comma are
        // still its title (cut there, the rest went into an artist).
        if matches!(toks.get(j).map(|t| &t.kind), Some(TokKind::Punct(','))) {
            let mut k = j + 1;
            loop {
                let comma = matches!(toks.get(k).map(|t| &t.kind), Some(TokKind::Punct(',')));
                let and = matches!(word(k), Some("and" | "&"));
                if cap(k) || ((comma || and) && cap(k + 1)) {
                    k += 1;
                } else {
                    break;
                }
            }
            if k > j + 1 && cap(k - 1) {
                n = k - i;
            }
        }
        break;
    }
    Some(n)
}

/// How many word tokens from `i` make the title a naming word introduces
/// (`None` when the first is no title word): plain words up to punctuation,
/// another value (a path, a URL, a quoted text) or a word of
/// [`TITLE_ENDS`].
fn title_run(toks: &[Tok], words: &[Option<String>], i: usize) -> Option<usize> {
    let plain = |j: usize| match (&toks.get(j)?.kind, words.get(j)?.as_deref()) {
        (TokKind::Word(w), Some(lw)) => (w
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '\'' | '’' | '&'))
            && w.chars().any(char::is_alphanumeric)
            && !w.ends_with('.')
            && is_path_like(w) == (false, false))
            .then_some(lw),
        _ => None,
    };
    let capitalised = |j: usize| matches!(&toks.get(j).map(|t| &t.kind), Some(TokKind::Word(w)) if w.starts_with(char::is_uppercase));
    let first = plain(i)?;
    // "titled The Name of the Rose": a capitalised article opens a title.
    let opens_title = capitalised(i) && matches!(first, "the" | "a" | "an");
    if (FUNCTION_WORDS.contains(&first) && !opens_title)
        || TITLE_ENDS.contains(&first)
        || matches!(first, "both" | "as" | "either" | "any" | "all" | "only")
    {
        return None;
    }
    // A title in title case goes on through its small words ("Gone with
    // the Wind", "War and Peace") when a capitalised word follows them.
    const SMALL: &[&str] = &[
        "of", "the", "a", "an", "and", "with", "in", "on", "for", "to", "at", "by", "from",
    ];
    let mut title_case = capitalised(i);
    let mut n = 1;
    while let Some(w) = plain(i + n) {
        if TITLE_ENDS.contains(&w) {
            let mut k = i + n;
            while plain(k).is_some_and(|x| SMALL.contains(&x)) && !capitalised(k) {
                k += 1;
            }
            if !(title_case && k > i + n && plain(k).is_some() && capitalised(k)) {
                break;
            }
            n = k - i;
            continue;
        }
        if !capitalised(i + n) && !SMALL.contains(&w) {
            title_case = false;
        }
        n += 1;
    }
    Some(n)
}

/// Plain words listed as values: three or more single lower-case words
/// joined by commas and a final "and"/"or" ("join *red, green and blue*
/// with dashes", "the hex values of *navy, purple and maroon*"). Each is a
/// stated value (a [`MentionKind::Quoted`] text, grouped into a list
/// later), so it must be used; a list of operations ("sort, dedupe and
/// count …", "the min, max and mean") or of request words is no values.
fn word_lists(
    text: &str,
    toks: &[Tok],
    words: &[Option<String>],
    owner: &mut [Option<usize>],
    out: &mut Vec<Mention>,
) {
    let item = |i: usize| -> bool {
        let (TokKind::Word(w), None) = (&toks[i].kind, owner[i]) else {
            return false;
        };
        let lw = lower(w);
        w.chars().all(char::is_lowercase)
            && w.chars().count() > 1
            && !FUNCTION_WORDS.contains(&lw.as_str())
            && !matches!(lw.as_str(), "and" | "or" | "then" | "also")
            && !super::lexicon::is_action_verb(&lw)
            && !super::lexicon::is_operation_word(&lw)
            && !ccos_marketplace::search::analyze(&lw)
                .iter()
                .any(|st| super::lexicon::request_word_stems().contains(st))
    };
    let comma = |i: usize| matches!(toks.get(i).map(|t| &t.kind), Some(TokKind::Punct(',')));
    let conj = |i: usize| matches!(words.get(i).and_then(|w| w.as_deref()), Some("and" | "or"));
    let mut found: Vec<usize> = vec![];
    let mut i = 0;
    while i < toks.len() {
        // w (, w)* ,? (and|or) w
        let mut items = vec![];
        let mut k = i;
        if !item(k) {
            i += 1;
            continue;
        }
        items.push(k);
        let mut closed = false;
        loop {
            if comma(k + 1) && k + 2 < toks.len() && item(k + 2) {
                k += 2;
                items.push(k);
            } else if comma(k + 1) && conj(k + 2) && k + 3 < toks.len() && item(k + 3) {
                k += 3;
                items.push(k);
                closed = true;
                break;
            } else if conj(k + 1) && k + 2 < toks.len() && item(k + 2) && items.len() > 1 {
                k += 2;
                items.push(k);
                closed = true;
                break;
            } else {
                break;
            }
        }
        // A single word follows, not the first of a phrase ("red, green
        // and blue *dresses*": the nouns qualified, not values).
        let ends = !matches!(toks.get(k + 1).map(|t| &t.kind), Some(TokKind::Word(w)) if !FUNCTION_WORDS.contains(&lower(w).as_str()) && !matches!(lower(w).as_str(), "with" | "by" | "in" | "into" | "to" | "from" | "for" | "on" | "using"));
        // "the title, genre and rating of the film", "such as its title,
        // author and year": fields asked for, not values stated.
        let asked = i > 0
            && matches!(
                words[i - 1].as_deref(),
                Some("the" | "its" | "their" | "his" | "her" | "my" | "your" | "our" | "as")
            );
        // Without a closing "and": a list the text introduces as one
        // ("the words apple, banana, cherry", "alphabetically: pear,
        // apple, fig", "[apple, pear, plum]").
        let introduced = i > 0
            && (matches!(toks[i - 1].kind, TokKind::Punct(':') | TokKind::Punct('['))
                || matches!(
                    words[i - 1].as_deref(),
                    Some("words" | "items" | "values" | "names" | "strings" | "elements")
                ));
        if (closed || introduced) && items.len() >= 3 && ends && !asked {
            found.extend(items);
            i = k + 1;
        } else {
            i += 1;
        }
    }
    for t in found {
        let TokKind::Word(w) = &toks[t].kind else {
            continue;
        };
        owner[t] = Some(out.len());
        let span = Span::new(toks[t].start, toks[t].end);
        out.push(Mention::stated(
            text,
            MentionKind::Quoted,
            Json::from(w.clone()),
            span,
        ));
    }
}

/// A word the text names as a word: "uppercase *the word banana*",
/// "count the letters in *the string hello*". Unquoted, it is still the
/// text to work on, as if quoted. One lower-case word that is no
/// function, request or operation word ("the word *count* of notes.txt"
/// names no text), ending the phrase.
fn named_word(
    text: &str,
    toks: &[Tok],
    words: &[Option<String>],
    owner: &mut [Option<usize>],
    out: &mut Vec<Mention>,
) {
    for i in 2..toks.len() {
        let (Some(the), Some(noun)) = (words[i - 2].as_deref(), words[i - 1].as_deref()) else {
            continue;
        };
        if the != "the" || !matches!(noun, "word" | "string" | "text") {
            continue;
        }
        let (TokKind::Word(w), None) = (&toks[i].kind, owner[i]) else {
            continue;
        };
        let lw = lower(w);
        let plain = w.chars().all(char::is_alphabetic)
            && w.chars().count() > 1
            && !FUNCTION_WORDS.contains(&lw.as_str())
            && !super::lexicon::is_action_verb(&lw)
            && !super::lexicon::is_operation_word(&lw)
            && !ccos_marketplace::search::analyze(&lw).iter().any(|st| {
                super::lexicon::request_word_stems().contains(st)
                    || super::lexicon::filler_word_stems().contains(st)
            });
        let ends = match toks.get(i + 1).map(|t| &t.kind) {
            None | Some(TokKind::Punct(_)) => true,
            Some(TokKind::Word(n)) => matches!(
                lower(n).as_str(),
                "in" | "into" | "to" | "and" | "backwards" | "reversed" | "please"
            ),
            _ => false,
        };
        if !plain || !ends || owner[i - 1].is_some() {
            continue;
        }
        // The mention spans its label: "word" says what the value is,
        // not what to do with it.
        owner[i - 1] = Some(out.len());
        owner[i] = Some(out.len());
        out.push(Mention::stated(
            text,
            MentionKind::Quoted,
            Json::from(w.clone()),
            Span::new(toks[i - 1].start, toks[i].end),
        ));
    }
}

/// Where the text says one term twice, as an acronym and its expansion,
/// one of them in parentheses: "Body Mass Index (BMI)", "BMI (Body Mass
/// Index)", "greatest common divisor (GCD)". The term names what to do
/// (a capability's name), so neither is a value (a capitalised name).
fn glosses(text: &str) -> Vec<Span> {
    const SMALL: &[&str] = &["of", "on", "and", "the", "to", "for", "a", "an", "in"];
    let is_acronym = |w: &str| {
        (2..=6).contains(&w.chars().count())
            && w.chars().all(|c| c.is_ascii_alphabetic())
            && w.chars().filter(|c| c.is_ascii_uppercase()).count() >= 2
    };
    // (start, word) of the alphabetic words of `s`, offset by `at`.
    let words_of = |s: &str, at: usize| -> Vec<(usize, String)> {
        let mut out = vec![];
        let mut start = None;
        for (i, c) in s.char_indices().chain(std::iter::once((s.len(), ' '))) {
            match (c.is_alphabetic() || c == '-', start) {
                (true, None) => start = Some(i),
                (false, Some(b)) => {
                    out.push((at + b, s[b..i].to_string()));
                    start = None;
                }
                _ => {}
            }
        }
        out
    };
    let initials = |ws: &[(usize, String)]| -> String {
        ws.iter()
            .filter(|(_, w)| !SMALL.contains(&w.to_lowercase().as_str()))
            .filter_map(|(_, w)| w.chars().next())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let mut out = vec![];
    let mut from = 0;
    while let Some(open) = text[from..].find('(').map(|i| from + i) {
        let Some(close) = text[open..].find(')').map(|i| open + i) else {
            break;
        };
        from = close + 1;
        let inner = text[open + 1..close].trim();
        let before = words_of(&text[..open], 0);
        // Only spaces between the term and its parenthesis.
        if !text[..open].ends_with(|c: char| c.is_alphabetic() || c.is_whitespace())
            || before.is_empty()
        {
            continue;
        }
        let inner_words = words_of(inner, 0);
        if is_acronym(inner) {
            // "Body Mass Index (BMI)", "Return on Equity (ROE)": the
            // words before spell it, with or without their small words.
            let want = inner.to_lowercase();
            let all_initials = |ws: &[(usize, String)]| -> String {
                ws.iter()
                    .filter_map(|(_, w)| w.chars().next())
                    .flat_map(char::to_lowercase)
                    .collect()
            };
            let spelled = (1..=before.len().min(2 * want.len()))
                .map(|k| &before[before.len() - k..])
                .find(|ws| {
                    !SMALL.contains(&ws[0].1.to_lowercase().as_str())
                        && (initials(ws) == want || all_initials(ws) == want)
                });
            if let Some(ws) = spelled {
                out.push(Span::new(ws[0].0, close + 1));
            }
        } else if inner_words.len() >= 2
            && let Some((at, last)) = before.last()
            && is_acronym(last)
            && initials(&inner_words) == last.to_lowercase()
        {
            // "BMI (Body Mass Index)": the words inside spell it.
            out.push(Span::new(*at, close + 1));
        }
    }
    out
}

/// "27 minutes and 30 seconds", "1 hour 30 minutes": one duration, the
/// sum, when each unit is smaller than the one before (two durations in
/// the same unit are two values).
fn compound_durations(text: &str, ms: Vec<Mention>) -> Vec<Mention> {
    let unit_of = |m: &Mention| {
        m.text
            .split_whitespace()
            .last()
            .and_then(|w| unit_ms(&w.to_lowercase()))
    };
    let mut out: Vec<Mention> = Vec::with_capacity(ms.len());
    for m in ms {
        if let Some(prev) = out.last_mut()
            && prev.kind == MentionKind::Duration
            && m.kind == MentionKind::Duration
            && let (Some(a), Some(b)) = (unit_of(prev), unit_of(&m))
            && a > b
            && text.get(prev.span.end..m.span.start).is_some_and(|g| {
                g.split(|c: char| c.is_whitespace() || c == ',')
                    .all(|w| w.is_empty() || w.eq_ignore_ascii_case("and"))
            })
            && let (Some(x), Some(y)) = (prev.value.as_f64(), m.value.as_f64())
        {
            prev.value = json_num(x + y);
            prev.span = Span::new(prev.span.start, m.span.end);
            prev.text = text[prev.span.start..prev.span.end].to_string();
            continue;
        }
        out.push(m);
    }
    out
}

fn is_fraction(w: &str) -> bool {
    w.split_once('/').is_some_and(|(a, b)| {
        !a.is_empty()
            && !b.is_empty()
            && a.chars().all(|c| c.is_ascii_digit())
            && b.chars().all(|c| c.is_ascii_digit())
    })
}

/// `YYYY-MM-DD` (or `YYYY/MM/DD`).
fn is_iso_date(w: &str) -> bool {
    let b = w.as_bytes();
    b.len() == 10
        && ((b[4] == b'-' && b[7] == b'-') || (b[4] == b'/' && b[7] == b'/'))
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}

/// Whether `text` ends with a parent folder (`..`, `docs/..`, "list ..")
/// whose dots are no full stop: the mention scanner and both clause
/// splitters keep them.
pub(crate) fn ends_in_parent_folder(text: &str) -> bool {
    text == ".." || text.ends_with("/..") || text.ends_with(" ..")
}

/// A date written day first at token `i` ("15 October 2023", "15th
/// October,2023", "3rd of May"): `(date, tokens taken)`; the date is
/// `YYYY-MM-DD`, or `--MM-DD` without a year (as for "May 3"). A bare
/// number before a month without a year ("15 October") is a date only
/// with an ordinal suffix or "of": "add 3 may…" stays a number.
fn day_first_date(words: &[Option<String>], toks: &[Tok], i: usize) -> Option<(String, usize)> {
    let w = words.get(i)?.as_deref()?;
    let digits = w.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = &w[digits.len()..];
    if digits.is_empty()
        || digits.len() > 2
        || !digits.bytes().all(|c| c.is_ascii_digit())
        || !matches!(suffix, "" | "st" | "nd" | "rd" | "th")
    {
        return None;
    }
    let day = digits
        .parse::<u32>()
        .ok()
        .filter(|d| (1..=31).contains(d))?;
    let mut j = i + 1;
    let of = words.get(j).and_then(|x| x.as_deref()) == Some("of");
    if of {
        j += 1;
    }
    let month = words.get(j).and_then(|x| x.as_deref()).and_then(month_of)?;
    j += 1;
    // An optional comma, then a four-digit year.
    let comma = matches!(toks.get(j).map(|t| &t.kind), Some(TokKind::Punct(',')));
    let y_at = if comma { j + 1 } else { j };
    let year = words
        .get(y_at)
        .and_then(|x| x.as_deref())
        .and_then(|y| y.parse::<u32>().ok())
        .filter(|y| (1000..=9999).contains(y) && y_at < toks.len());
    if !day_exists(year, month, day) {
        return None;
    }
    match year {
        Some(y) => Some((format!("{y:04}-{month:02}-{day:02}"), y_at + 1 - i)),
        None if !suffix.is_empty() || of => Some((format!("--{month:02}-{day:02}"), j - i)),
        None => None,
    }
}

/// Whether `day` exists in `month` (of `year`, when known: 29 February
/// only in a leap year).
fn day_exists(year: Option<u32>, month: u32, day: u32) -> bool {
    let last = match month {
        4 | 6 | 9 | 11 => 30,
        2 => match year {
            Some(y) if !((y % 4 == 0 && y % 100 != 0) || y % 400 == 0) => 28,
            _ => 29,
        },
        _ => 31,
    };
    (1..=last).contains(&day)
}

pub(crate) fn month_of(w: &str) -> Option<u32> {
    let w = w.trim_end_matches('.');
    if w.len() < 3 {
        return None;
    }
    MONTHS
        .iter()
        .position(|m| {
            *m == w
                || (w.len() == 3 && m.starts_with(w) && w != "may"
                    || (w == "sept" && *m == "september"))
        })
        .map(|p| p as u32 + 1)
}

/// Lower-case words that own something without being a handle ("list
/// *today's* orders", "show *everyone's* tasks"), besides the function
/// words, the months and the days of the week.
const NOT_HANDLES: &[&str] = &[
    "today",
    "yesterday",
    "tomorrow",
    "tonight",
    "week",
    "month",
    "year",
    "day",
    "everyone",
    "everybody",
    "someone",
    "somebody",
    "anyone",
    "anybody",
    "nobody",
    "one",
    "other",
    "another",
    "each",
    "who",
    "last",
    "next",
    "world",
    "company",
    "team",
    "user",
    "customer",
    "project",
    "repo",
    "list mom's repositories",
    "list
    // owner's repositories",
    "mom",
    "mum",
    "dad",
    "mother",
    "father",
    "wife",
    "husband",
    "son",
    "daughter",
    "brother",
    "sister",
    "parent",
    "child",
    "kid",
    "friend",
    "boss",
    "manager",
    "owner",
    "author",
    "member",
    "maintainer",
    "contributor",
    "admin",
    "administrator",
    "organization",
    "org",
    "group",
    "morning",
    "evening",
    "weekend",
    "season",
    "quarter",
];

/// Capitalised names: maximal runs of capitalised words (inner `of`,
/// `the`, `de`, `van`, `von`, `la`, `le`, `da`, `du`, `del` allowed), not
/// counting a leading sentence word that is a function word or a verb.
fn names(
    text: &str,
    toks: &[Tok],
    words: &[Option<String>],
    owner: &mut [Option<usize>],
    out: &mut Vec<Mention>,
) {
    let plain_cap = |owner: &[Option<usize>], i: usize| -> bool {
        match &toks[i].kind {
            TokKind::Word(w) => {
                owner[i].is_none()
                    && w.chars().next().is_some_and(char::is_uppercase)
                    && w.chars().any(char::is_alphabetic)
                    && !NOT_NAMES.contains(&lower(w).as_str())
                    // A premise's opener ("*Given* Yellowstone park, …"):
                    // attack trial, `{:park "Given Yellowstone"}`.
                    && !super::lexicon::PREMISE_OPENERS.contains(&lower(w).as_str())
                    && !TECH_WORDS.contains(&lower(w).as_str())
            }
            _ => false,
        }
    };
    // "list *rpatel's* repositories": a lower-case word owning the
    // request verb's object is a handle (not a word of time or a pronoun:
    // "list today's orders", "show everyone's tasks").
    let handle = |owner: &[Option<usize>], i: usize| -> bool {
        let TokKind::Word(w) = &toks[i].kind else {
            return false;
        };
        let Some(core) = w.strip_suffix("'s").or_else(|| w.strip_suffix("\u{2019}s")) else {
            return false;
        };
        // "rpatel's followers' repositories": the object is someone
        // else's, not the handle's.
        let owns_the_object = match toks.get(i + 1) {
            Some(next) => match &next.kind {
                TokKind::Word(w) => {
                    !w.ends_with("'s")
                        && !text
                            .get(next.end..)
                            .is_some_and(|rest| rest.starts_with(['\'', '\u{2019}']))
                }
                _ => false,
            },
            None => false,
        };
        owner[i].is_none()
            && owns_the_object
            && i > 0
            && words[i - 1]
                .as_deref()
                .is_some_and(super::lexicon::is_action_verb)
            && core.len() >= 2
            && core
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '_' | '-'))
            && !NOT_HANDLES.contains(&core)
            && !WEEKDAYS.contains(&core)
            && !FUNCTION_WORDS.contains(&core)
            && !MONTHS.contains(&core)
    };
    // "the author *Will* Smith", "*May* Parker": a capitalised modal
    // inside the sentence, before another capitalised word, is a first
    // name ("Will" opening a question is no name).
    // "the song *Hey* Jude", "the album *Let* It Bleed": a capitalised
    // interjection or verb right after the noun of a title, before a
    // capitalised word, opens the title (split there, the song "Jude"
    // was played). Nowhere else: "please *Tell* Alice the weather" is a
    // request (helper trial: `{:units "Tell Alice"}`).
    let title_opener = |owner: &[Option<usize>], i: usize| -> bool {
        i > 0
            && i + 1 < toks.len()
            && matches!(&toks[i - 1].kind, TokKind::Word(p) if TITLE_NOUNS.contains(&p.as_str()))
            && matches!(&toks[i].kind, TokKind::Word(w)
                if owner[i].is_none()
                    && w.starts_with(char::is_uppercase)
                    && TITLE_OPENERS.contains(&lower(w).as_str()))
            && plain_cap(owner, i + 1)
    };
    let cap = |owner: &[Option<usize>], i: usize| -> bool {
        plain_cap(owner, i)
            || handle(owner, i)
            || title_opener(owner, i)
            || (i > 0
                && i + 1 < toks.len()
                && matches!(&toks[i - 1].kind, TokKind::Word(_))
                && matches!(&toks[i].kind, TokKind::Word(w)
                    if owner[i].is_none()
                        && matches!(w.as_str(), "Will" | "May"))
                && plain_cap(owner, i + 1))
    };
    let joiner = |owner: &[Option<usize>], i: usize| {
        matches!(
            words[i].as_deref(),
            Some("of" | "the" | "de" | "van" | "von" | "la" | "le" | "da" | "du" | "del" | "&")
        ) && owner[i].is_none()
    };
    let mut i = 0;
    while i < toks.len() {
        // "The Glass Harbor": a capitalised article opens a title when a
        // capitalised word follows.
        let the_title = matches!(&toks[i].kind, TokKind::Word(w) if w == "The")
            && i + 1 < toks.len()
            && cap(owner, i + 1)
            && owner[i].is_none();
        if !cap(owner, i) && !the_title {
            i += 1;
            continue;
        }
        let start = i;
        let mut end = i + 1;
        loop {
            if end < toks.len() && cap(owner, end) {
                end += 1;
            } else if end + 1 < toks.len() && joiner(owner, end) && cap(owner, end + 1) {
                end += 2;
            } else if end < toks.len()
                && owner[end].is_none()
                && matches!(&toks[end].kind, TokKind::Word(w) if w == "A")
                && !(end + 1 < toks.len() && cap(owner, end + 1))
            {
                // "Serie *A*", "Project *A*": a capital "A" inside a
                // sentence ends the name it follows, no article (helper
                // trials: `{:league "Serie"}`, `{:project "Project"}`);
                // before a capitalised word it opens a title.
                end += 1;
            } else {
                break;
            }
        }
        let span = Span::new(toks[start].start, toks[end - 1].end);
        let s = text[span.start..span.end].to_string();
        for o in owner.iter_mut().take(end).skip(start) {
            *o = Some(usize::MAX);
        }
        // The object of "of" ("the contents of LICENSE", "the capital of
        // France") is what the request is about.
        let object_of = start > 0 && words[start - 1].as_deref() == Some("of");
        // Whose it is: "by Ann", "Ann's orders", "customer Ann" name a
        // person the plan must use, one word or not.
        let whose = (start > 0
            && matches!(
                words[start - 1].as_deref(),
                Some(
                    "by" | "customer" | "user" | "author" | "owner" | "assignee" | "member"
                        | "username"
                        // "how many orders does Ann have": the subject.
                        | "does"
                        | "did"
                        | "has"
                        | "had"
                )
            ))
            // "the orders Ann placed", "the shipped orders Ann has".
            || matches!(
                words.get(end).and_then(|w| w.as_deref()),
                Some(
                    "has" | "have" | "had" | "placed" | "made" | "owns" | "created" | "opened"
                        | "wrote" | "sent" | "bought" | "ordered"
                )
            )
            || s.ends_with("'s")
            || s.ends_with("\u{2019}s");
        // "Ann's orders": the name is Ann.
        let bare = s
            .strip_suffix("'s")
            .or_else(|| s.strip_suffix("\u{2019}s"))
            .unwrap_or(&s)
            .to_string();
        // A letter labelling the value after it ("B(1,2)", "C = 3") is a
        // label, not a value of its own.
        let labels = text
            .get(span.end..)
            .is_some_and(|rest| rest.trim_start().starts_with(['(', '=', ':', '[']));
        let letter = capital_letter(&s) && !labels;
        out.push(Mention {
            kind: MentionKind::Name,
            value: Json::from(bare),
            span,
            text: s,
            cue: Cue::default(),
            items: vec![],
            // A name of several words inside the sentence ("Iron Meadow",
            // "Leo Brandt") is a stated value the plan must use; a single
            // capitalised word, or one opening the goal, may be chance —
            // but not a capital letter alone ("in /x/repo *C*", "plan
            // *B*"), which is never capitalised by chance (attack trial:
            // the rest of a path with a space was dropped, the commit
            // went to another repository).
            weak: (end - start < 2 && !object_of && !whose && !letter) || start == 0,
            unit: None,
            lookup: false,
        });
        i = end;
    }
}

/// The cue of mention `mi`: preposition and words around its tokens.
fn cue(toks: &[Tok], words: &[Option<String>], owner: &[Option<usize>], mi: usize) -> Cue {
    let first = owner.iter().position(|o| *o == Some(mi));
    let last = owner.iter().rposition(|o| *o == Some(mi));
    let (Some(first), Some(last)) = (first, last) else {
        return Cue::default();
    };
    let mut c = Cue::default();
    let mut j = first;
    let mut skipped_function = true;
    // Only one plain word read so far, right before the value.
    let mut labels_only = true;
    while j > 0 && c.before.len() < 3 {
        j -= 1;
        if owner[j].is_some() {
            break;
        }
        let Some(w) = words[j].clone() else {
            if matches!(toks[j].kind, TokKind::Punct(',' | ';' | '?' | '!' | '.')) {
                break;
            }
            continue;
        };
        // "to account B456": a preposition before one noun labelling the
        // value is the value's own ("transfer 500 to account B456 from
        // account A123" goes from A123).
        let labelled =
            c.before.len() == 1 && labels_only && !super::lexicon::is_action_verb(&c.before[0]);
        if c.prep.is_none() && (skipped_function || labelled) && PREPOSITIONS.contains(&w.as_str())
        {
            c.prep = Some(w.clone());
            skipped_function = false;
            continue;
        }
        if FUNCTION_WORDS.contains(&w.as_str()) || w.ends_with("'s") {
            continue;
        }
        if !skipped_function || !w.chars().all(char::is_alphabetic) {
            labels_only = false;
        }
        skipped_function = false;
        if !PREPOSITIONS.contains(&w.as_str()) {
            if c.before.is_empty() && c.prep.is_some() {
                c.across_prep = true;
            }
            c.before.push(w);
        }
    }
    c.before.reverse();
    let mut j = last + 1;
    while j < toks.len() && c.after.len() < 2 {
        if owner[j].is_some() {
            break;
        }
        match &words[j] {
            Some(w) if matches!(w.as_str(), "and" | "or" | "but" | "then") => break,
            // A preposition opens the next value's phrase: "to account
            // B456 *from* account A123" says nothing of B456, nor "to
            // 2025-06-03 *in* Rome" of check-in (attack trial: the dates
            // were swapped). "10 *per* hour", "5 *of* them", "more *than*"
            // still say what the value is.
            Some(w)
                if PREPOSITIONS.contains(&w.as_str())
                    && !matches!(w.as_str(), "of" | "per" | "than" | "as") =>
            {
                break;
            }
            Some(w) if FUNCTION_WORDS.contains(&w.as_str()) => {}
            Some(w) => c.after.push(w.clone()),
            None => break,
        }
        j += 1;
    }
    c
}

/// The items of a list of names read as places each with the region
/// after it: "Boston, MA, and Washington, D.C." is two places, not four
/// names. `None` unless every name pairs so into two places or more (see
/// [`super::regions::qualifies_place`]; "Georgia, Florida and Texas",
/// "London, France and Italy" stay names).
fn places_with_regions(text: &str, items: &[Mention]) -> Option<Vec<Mention>> {
    let mut out: Vec<Mention> = Vec::with_capacity(items.len());
    for it in items {
        if let Some(place) = out.last_mut()
            && it.kind == MentionKind::Name
            && place.kind == MentionKind::Name
            && !place.text.contains(',')
            && super::regions::qualifies_place(&place.text, &it.text)
            && text
                .get(place.span.end..it.span.start)
                .is_some_and(|g| g.trim() == ",")
        {
            let span = Span::new(place.span.start, it.span.end);
            place.span = span;
            place.text = text[span.start..span.end].to_string();
            place.value = Json::String(place.text.clone());
            place.cue.after = it.cue.after.clone();
            place.weak = false;
            continue;
        }
        out.push(it.clone());
    }
    (out.len() >= 2 && out.len() * 2 == items.len()).then_some(out)
}

/// Groups runs of same-kind mentions joined by commas, `and` or `or`
/// into lists (numbers, quoted texts, paths, names); the items stay
/// available one by one in [`Mention::items`].
fn lists(
    text: &str,
    toks: &[Tok],
    words: &[Option<String>],
    owner: &[Option<usize>],
    ms: Vec<Mention>,
) -> Vec<Mention> {
    // Is the gap between mentions a, b only "," / "and" / "or" / ", and"?
    let joined = |a: usize, b: usize| -> bool {
        let (Some(ea), Some(sb)) = (
            owner.iter().rposition(|o| *o == Some(a)),
            owner.iter().position(|o| *o == Some(b)),
        ) else {
            return false;
        };
        let gap: Vec<usize> = (ea + 1..sb).collect();
        !gap.is_empty()
            && gap.len() <= 2
            && gap.iter().all(|&k| {
                matches!(toks[k].kind, TokKind::Punct(','))
                    || matches!(words[k].as_deref(), Some("and" | "or"))
            })
    };
    let listable = |k: MentionKind| {
        matches!(
            k,
            MentionKind::Number | MentionKind::Quoted | MentionKind::Path | MentionKind::Name
        )
    };
    let mut out: Vec<Mention> = Vec::new();
    let mut i = 0;
    while i < ms.len() {
        let mut j = i;
        while j + 1 < ms.len()
            && listable(ms[i].kind)
            // Quantities with units stay one by one: each unit is judged
            // where its number goes.
            && ms[i].unit.is_none()
            && ms[j + 1].unit.is_none()
            && ms[j + 1].kind == ms[i].kind
            && joined(j, j + 1)
        {
            j += 1;
        }
        // "15, 20 and 30 years": bare numbers, then the last with its
        // unit, which is the unit of them all (three or more: "between
        // 10 and 20 years" keeps its two ends apart).
        let mut unit_of_all: Option<String> = None;
        if j > i
            && ms[i].kind == MentionKind::Number
            && ms[i].unit.is_none()
            && j + 1 < ms.len()
            && j + 1 - i >= 2
            && ms[j + 1].kind == MentionKind::Number
            && ms[j + 1].unit.is_some()
            && joined(j, j + 1)
        {
            unit_of_all = ms[j + 1].unit.clone();
            j += 1;
        }
        if j > i {
            // ("Chicago, Illinois" alone stays a place and its region,
            // which the binder joins or splits by the parameters.)
            let mut items: Vec<Mention> =
                places_with_regions(text, &ms[i..=j]).unwrap_or_else(|| ms[i..=j].to_vec());
            if let Some(unit) = &unit_of_all {
                for it in &mut items {
                    it.unit = Some(unit.clone());
                }
            }
            let span = Span::new(items[0].span.start, items[items.len() - 1].span.end);
            out.push(Mention {
                kind: MentionKind::List,
                value: Json::Array(items.iter().map(|m| m.value.clone()).collect()),
                span,
                text: text[span.start..span.end].to_string(),
                cue: Cue {
                    prep: items[0].cue.prep.clone(),
                    before: items[0].cue.before.clone(),
                    after: items[items.len() - 1].cue.after.clone(),
                    across_prep: items[0].cue.across_prep,
                },
                weak: items.iter().all(|m| m.weak),
                items,
                unit: None,
                lookup: false,
            });
            i = j + 1;
        } else {
            out.push(ms[i].clone());
            i += 1;
        }
    }
    out
}

/// `text` with the mentions' spans cut out (each replaced by one space),
/// whitespace collapsed: the words that say what to do.
pub fn residual(text: &str, ms: &[Mention]) -> String {
    values_replaced(text, ms, " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// `text` with each stated value (by its span) replaced by `fill`: a
/// placeholder word keeps the words around a value apart ("to *Los
/// Angeles* avoiding").
pub fn values_replaced(text: &str, ms: &[Mention], fill: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for m in ms {
        if m.span.start >= at && m.span.end <= text.len() {
            out.push_str(&text[at..m.span.start]);
            out.push_str(fill);
            at = m.span.end;
        }
    }
    out.push_str(&text[at.min(text.len())..]);
    out
}

/// The byte spans of the quoted texts of `text`, quotes included, as the
/// scanner reads them: what a cut of the goal must not go into.
pub fn quoted_spans(text: &str) -> Vec<(usize, usize)> {
    scan(text)
        .into_iter()
        .filter(|t| matches!(t.kind, TokKind::Quoted(_)))
        .map(|t| (t.start, t.end))
        .collect()
}

/// The byte spans of the quoted texts and JSON literals of `goal`, as
/// the scanner reads them: what a rewrite of the goal's words keeps as
/// written.
fn quoted_and_json_spans(goal: &str) -> Vec<(usize, usize)> {
    scan(goal)
        .into_iter()
        .filter(|t| matches!(t.kind, TokKind::Quoted(_) | TokKind::Json(_)))
        .map(|t| (t.start, t.end))
        .collect()
}

/// A goal typed in capitals ("LIST THE CLOSED ISSUES IN ACME/ROCKET"),
/// read as lower case outside its quotes: capitals that mark names in an
/// ordinary sentence mark nothing when every letter is one. Any other goal
/// is returned as it is.
pub fn unshouted(goal: &str) -> String {
    // Quoted texts and JSON literals, as the scanner reads them, keep
    // their case.
    let kept = quoted_and_json_spans(goal);
    let outside = |i: usize| !kept.iter().any(|(s, e)| (*s..*e).contains(&i));
    let letters = || {
        goal.char_indices()
            .filter(|(i, c)| outside(*i) && c.is_alphabetic())
            .map(|(_, c)| c)
    };
    let shouted =
        letters().filter(|c| c.is_uppercase()).count() >= 2 && !letters().any(char::is_lowercase);
    if !shouted {
        return goal.to_string();
    }
    goal.char_indices()
        .flat_map(|(i, c)| {
            if outside(i) {
                c.to_lowercase().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect()
}

/// Contractions of a subject and a verb, written out.
const CONTRACTIONS: &[(&str, &str)] = &[
    ("i'm", "I am"),
    ("i've", "I have"),
    ("i'll", "I will"),
    ("i'd", "I would"),
    ("we're", "we are"),
    ("we've", "we have"),
    ("we'll", "we will"),
    ("we'd", "we would"),
    ("you're", "you are"),
    ("you've", "you have"),
    ("you'll", "you will"),
    ("you'd", "you would"),
    ("they're", "they are"),
    ("they've", "they have"),
    ("they'll", "they will"),
    ("they'd", "they would"),
    ("he'll", "he will"),
    ("she'll", "she will"),
    ("he'd", "he would"),
    ("she'd", "she would"),
    ("it'll", "it will"),
    ("that'll", "that will"),
];

/// `goal` with a subject's contractions written out outside its quotes
/// ("I'd like …" → "I would like …", "I'm writing …" → "I am writing
/// …"): split at the apostrophe, "I'm" read as a subject and a stray
/// "m" — no verb — and a statement "I'm writing 'hello' to out.txt" as a
/// request to write (attack trial). Any other goal is returned as it is.
pub fn without_contractions(goal: &str) -> String {
    let kept = quoted_and_json_spans(goal);
    let outside = |i: usize| !kept.iter().any(|(s, e)| (*s..*e).contains(&i));
    // The words, apostrophes inside them kept.
    let words = super::lexicon::spans_of_runs(goal, |c| {
        c.is_alphanumeric() || c == '\'' || c == '\u{2019}'
    });
    let mut out = String::with_capacity(goal.len() + 16);
    let mut at = 0;
    for std::ops::Range { start, end } in words {
        if !outside(start) {
            continue;
        }
        let key = goal[start..end].to_lowercase().replace('\u{2019}', "'");
        if let Some((_, full)) = CONTRACTIONS.iter().find(|(c, _)| *c == key) {
            out.push_str(&goal[at..start]);
            out.push_str(full);
            at = end;
        }
    }
    out.push_str(&goal[at..]);
    out
}

/// A capital letter on its own, other than the words "A" and "I".
fn capital_letter(word: &str) -> bool {
    word.len() == 1 && word.bytes().all(|b| b.is_ascii_uppercase()) && !matches!(word, "A" | "I")
}

#[cfg(test)]
mod tests {

    #[test]
    fn contractions_of_a_subject_are_written_out_outside_quotes() {
        assert_eq!(
            without_contractions("I'd like to see what's inside config.json"),
            "I would like to see what's inside config.json"
        );
        assert_eq!(
            without_contractions("I\u{2019}m writing 'I'm here' to out.txt"),
            "I am writing 'I'm here' to out.txt"
        );
        assert_eq!(without_contractions("we'll see"), "we will see");
        assert_eq!(without_contractions("echo don't"), "echo don't");
    }

    #[test]
    fn a_word_named_as_a_word_is_its_text() {
        let ms = mentions("uppercase the word banana").unwrap();
        assert_eq!(ms.len(), 1, "{ms:?}");
        assert_eq!(ms[0].kind, MentionKind::Quoted);
        assert_eq!(ms[0].value, serde_json::json!("banana"));
        assert_eq!(ms[0].text, "word banana");
        // "the word count" names no text, nor does a word with more after.
        for t in [
            "the word count of notes.txt",
            "the word banana bread recipe",
        ] {
            let ms = mentions(t).unwrap();
            assert!(
                !ms.iter().any(|m| m.kind == MentionKind::Quoted),
                "{t}: {ms:?}"
            );
        }
    }

    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    /// Words the structural passes read (relations, conditions, lookups,
    /// orders), in any order and cut anywhere: the scan never panics (an
    /// index past the end was one: "… people from" at the end).
    const TRICKY: &[&str] = &[
        "what",
        "which",
        "the",
        "whose",
        "where",
        "city",
        "is",
        "are",
        "set",
        "in",
        "of",
        "from",
        "live",
        "lives",
        "works",
        "at",
        "born",
        "people",
        "Paris",
        "New",
        "York",
        "config.json",
        "people.json",
        "by",
        "age",
        "sort",
        "list",
        "then",
        "or",
        "and",
        "not",
        "\"x\"",
        "'y'",
        "=",
        ",",
        "(",
        ")",
        "42",
        "descending",
        "used",
        "to",
        "be",
        "port",
        "what's",
        "show",
        "me",
        "size",
        "?",
        "etc",
        "&",
        "docs/",
    ];

    proptest! {
        #[test]
        fn any_arrangement_of_structural_words_scans_without_panic(
            picks in proptest::collection::vec(0..TRICKY.len(), 0..12)
        ) {
            let text: Vec<&str> = picks.iter().map(|&i| TRICKY[i]).collect();
            let text = text.join(" ");
            let _ = mentions(&text);
        }
    }

    #[test]
    fn scientific_notation_is_one_number() {
        let m = mentions("two charged bodies of 1e-9, then 2.5E+3 at 6.022e23").unwrap();
        let numbers: Vec<f64> = m
            .iter()
            .filter(|x| x.kind == MentionKind::Number && !x.weak)
            .filter_map(|x| x.value.as_f64())
            .collect();
        assert_eq!(numbers, vec![1e-9, 2.5e3, 6.022e23], "{m:?}");
        // No exponent, no number: "3e" is a word.
        assert!(parse_number("3e").is_none());
        assert!(parse_number("e5").is_none());
    }

    #[test]
    fn every_prefix_of_structural_goals_scans_without_panic() {
        for goal in [
            "which people in people.json live in Paris?",
            "show me the people from Berlin in people.json",
            "what port is set in config.json",
            "what's the count set in settings.json",
            "list staff.json entries whose city is Rome",
            "sort people.json by age descending then name",
        ] {
            let words: Vec<&str> = goal.split(' ').collect();
            for n in 0..=words.len() {
                let _ = mentions(&words[..n].join(" "));
            }
        }
    }

    /// "the name *field* of config.json": the key is "name" (nu30 trial:
    /// the key "name field" was looked up, an error naming :name among
    /// the keys).
    #[test]
    fn a_word_saying_key_is_no_part_of_it() {
        for (goal, key) in [
            ("what's the name field of config.json", "name"),
            ("show me the port setting in config.json", "port"),
            ("what is the debug key of config.json", "debug"),
        ] {
            let fields: Vec<Json> = mentions(goal)
                .unwrap()
                .into_iter()
                .filter(|m| m.kind == MentionKind::Field)
                .map(|m| m.value)
                .collect();
            assert_eq!(fields, vec![Json::from(key)], "{goal}");
        }
    }

    fn kinds(t: &str) -> Vec<(MentionKind, Json)> {
        mentions(t)
            .unwrap()
            .into_iter()
            .map(|m| (m.kind, m.value))
            .collect()
    }

    #[test]
    fn an_abbreviation_does_not_cut_a_name() {
        for (goal, name) in [
            ("the weather in St. Louis", "St. Louis"),
            ("the weather at Mt. Rainier today", "Mt. Rainier"),
            ("the distance between Minneapolis and St. Paul", "St. Paul"),
            ("ask Dr. Smith", "Dr. Smith"),
            ("call contact Sgt. Pepper", "Sgt. Pepper"),
            ("a book by J. R. R. Tolkien", "J. R. R. Tolkien"),
            ("the standings of the Big Ten League", "Big Ten League"),
            ("get the standings of Serie A", "Serie A"),
            ("Given the league Serie A, get the standings", "Serie A"),
            ("the Serie A league standings", "Serie A"),
            ("list the tasks of Project A", "Project A"),
        ] {
            let names: Vec<String> = mentions(goal)
                .unwrap()
                .into_iter()
                .flat_map(|m| if m.items.is_empty() { vec![m] } else { m.items })
                .filter(|m| m.kind == MentionKind::Name)
                .map(|m| m.text)
                .collect();
            assert!(names.iter().any(|n| n == name), "{goal}: {names:?}");
        }
        // A sentence's period is still one.
        let m = mentions("I live near St. and walk").unwrap();
        assert!(m.iter().all(|m| m.text != "St."), "{m:?}");
    }

    #[test]
    fn a_preposition_before_a_labelling_noun_is_the_values() {
        let m = mentions("transfer 500 to account B456 from account A123").unwrap();
        let cue_of = |t: &str| {
            m.iter()
                .find(|x| x.text == t)
                .map(|x| x.cue.clone())
                .unwrap()
        };
        assert_eq!(cue_of("B456").prep.as_deref(), Some("to"));
        assert!(!cue_of("B456").after.iter().any(|w| w == "from"));
        assert_eq!(cue_of("A123").prep.as_deref(), Some("from"));
        // Two words between: no preposition of the value's own.
        let m = mentions("send to the big red account B456").unwrap();
        assert_eq!(m[0].cue.prep, None, "{:?}", m[0].cue);
    }

    #[test]
    fn an_acronym_and_its_expansion_are_no_names() {
        for goal in [
            "Calculate the BMI (Body Mass Index) of a person who weighs 70kg",
            "Calculate the Body Mass Index (BMI) of a person who weighs 70kg",
            "Find the greatest common divisor (GCD) of 12 and 18",
            "the Return on Equity (ROE) of Acme",
        ] {
            let names: Vec<String> = mentions(goal)
                .unwrap()
                .into_iter()
                .filter(|m| m.kind == MentionKind::Name)
                .map(|m| m.text)
                .collect();
            let want: Vec<&str> = if goal.ends_with("Acme") {
                vec!["Acme"]
            } else {
                vec![]
            };
            assert_eq!(names, want, "{goal}");
        }
        // Parentheses that gloss nothing keep their names.
        let names: Vec<String> =
            mentions("ask Bob (Alice Smith's brother) and the ACME (Paris) office")
                .unwrap()
                .into_iter()
                .filter(|m| m.kind == MentionKind::Name)
                .map(|m| m.text)
                .collect();
        assert!(
            names.contains(&"Alice Smith's".to_string())
                || names.iter().any(|n| n.contains("Alice")),
            "{names:?}"
        );
        assert!(names.iter().any(|n| n == "Paris"), "{names:?}");
    }

    #[test]
    fn a_unit_after_a_number_is_part_of_it() {
        // Each mention's text, value and unit.
        let quantities = |text: &str| -> Vec<(String, Json, Option<String>)> {
            mentions(text)
                .unwrap()
                .into_iter()
                .map(|m| (m.text, m.value, m.unit))
                .collect()
        };
        let q = |text: &str, value: Json, unit: Option<&str>| {
            (text.to_string(), value, unit.map(str::to_string))
        };
        assert_eq!(
            quantities("a wire 10 meters away carrying 20 Amperes at 300K, 25 degrees Celsius"),
            vec![
                q("10 meters", json!(10), Some("m")),
                q("20 Amperes", json!(20), Some("A")),
                q("300K", json!(300), Some("K")),
                q("25 degrees Celsius", json!(25), Some("°C")),
            ]
        );
        // A scale word makes the number, exactly; the unit follows both.
        assert_eq!(
            quantities("a population of 213 million on 8.5 million square kilometers"),
            vec![
                q("213 million", json!(213_000_000), None),
                q(
                    "8.5 million square kilometers",
                    json!(8_500_000),
                    Some("km2")
                ),
            ]
        );
        for (text, value) in [
            ("1.15 billion", json!(1_150_000_000)),
            ("2.125 thousand", json!(2125)),
            ("1.2345 thousand", json!(1234.5)),
        ] {
            let m = mentions(text).unwrap();
            assert_eq!(m[0].value, value, "{text}");
        }
        // A compound duration is one.
        let m = mentions("a pace for 3 miles in 27 minutes and 30 seconds").unwrap();
        assert_eq!(m.last().map(|m| m.value.clone()), Some(json!(1_650_000)));
        // Quantities with units are not a list of plain numbers.
        assert_eq!(mentions("5 km and 3 miles").unwrap().len(), 2);
        // The object of "of" is what is asked about, not chance.
        let m = mentions("show me the contents of LICENSE").unwrap();
        assert!(!m[0].weak, "{m:?}");
        // Whose it is is stated: "Ann's orders" (the name is Ann), "by
        // Ada", "does Ann have" (attack trial: each was dropped unseen).
        for (goal, name) in [
            ("list Ann's orders", "Ann"),
            ("show the commits by Ada", "Ada"),
            ("how many orders does Ann have", "Ann"),
        ] {
            let m = mentions(goal).unwrap();
            let n = m.iter().find(|m| m.kind == MentionKind::Name).unwrap();
            assert_eq!((n.value.clone(), n.weak), (json!(name), false), "{goal}");
        }
        // What follows "named" or "called" is a name the goal states.
        let m = mentions("make a new directory named reports").unwrap();
        assert_eq!(
            (m[0].kind, m[0].text.as_str(), m[0].weak),
            (MentionKind::Name, "reports", false)
        );
        // A version's dots are part of it; a file name stays a path.
        let m = mentions("create a branch called release-1.0 in /tmp/repo").unwrap();
        assert_eq!(
            (m[0].kind, m[0].text.as_str()),
            (MentionKind::Name, "release-1.0")
        );
        let m = mentions("create a file named notes.txt").unwrap();
        assert_eq!(m[0].kind, MentionKind::Path, "{m:?}");
        // A title runs to the end of its phrase (attack trial: "titled
        // Login broken" was the title "Login", "broken" dropped unseen).
        for (goal, title) in [
            ("create a ticket titled Login broken", "Login broken"),
            (
                "create a ticket titled login page broken",
                "login page broken",
            ),
            (
                "create a ticket titled Login broken with priority P1",
                "Login broken",
            ),
            (
                "make a playlist called road trip songs for my drive",
                "road trip songs",
            ),
            (
                "add a person called Erin Smith who is a pilot",
                "Erin Smith",
            ),
            (
                "create a ticket titled Invoice is wrong",
                "Invoice is wrong",
            ),
            (
                "find books titled The Name of the Rose",
                "The Name of the Rose",
            ),
            (
                "search books titled Gone with the Wind",
                "Gone with the Wind",
            ),
            (
                "find the movie titled War and Peace in 2026",
                "War and Peace",
            ),
            (
                "create a ticket with description Users want a dark theme",
                "Users want a dark theme",
            ),
        ] {
            let m = mentions(goal).unwrap();
            assert_eq!(
                (m[0].kind, m[0].value.clone(), m[0].weak),
                (MentionKind::Name, json!(title), false),
                "{goal}: {m:?}"
            );
        }
        let m = mentions("create a ticket titled Login broken with priority P1").unwrap();
        assert_eq!(m[0].cue.prep.as_deref(), Some("titled"), "{m:?}");
    }

    #[test]
    fn plain_words_listed_are_values() {
        let m = mentions("join red, green and blue with dashes").unwrap();
        assert_eq!(
            (m[0].kind, m[0].value.clone()),
            (MentionKind::List, json!(["red", "green", "blue"]))
        );
        // Operations, fields asked for, and qualifiers of a noun are not.
        for goal in [
            "sort, dedupe and count the lines",
            "what is the min, max and mean of 3, 5, 7",
            "retrieve the title, genre and rating of the film",
            "find red, green and blue dresses",
        ] {
            let m = mentions(goal).unwrap();
            assert!(
                m.iter().all(|x| x.kind != MentionKind::Quoted
                    && x.items.iter().all(|i| i.kind != MentionKind::Quoted)),
                "{goal}: {m:?}"
            );
        }
    }

    #[test]
    fn numbers_quotes_paths_urls() {
        use MentionKind::*;
        assert_eq!(
            kinds("divide 10 by 4"),
            vec![(Number, json!(10)), (Number, json!(4))]
        );
        assert_eq!(
            kinds("sum of 1.5 and 2.25"),
            vec![(List, json!([1.5, 2.25]))]
        );
        assert_eq!(
            kinds("write \"hello\" to out.txt"),
            vec![(Quoted, json!("hello")), (Path, json!("out.txt"))]
        );
        assert_eq!(
            kinds("fetch http://127.0.0.1:8080/hello.txt."),
            vec![(Url, json!("http://127.0.0.1:8080/hello.txt"))]
        );
        assert_eq!(
            kinds("list the issues of acme/rocket"),
            vec![(Repo, json!("acme/rocket"))]
        );
        assert_eq!(
            kinds("what's in data.json?"),
            vec![(Path, json!("data.json"))]
        );
        assert_eq!(kinds("count 10,000 sheep"), vec![(Number, json!(10000))]);
        assert_eq!(
            kinds("echo 'good morning, team'"),
            vec![(Quoted, json!("good morning, team"))]
        );
        assert_eq!(kinds("rpatel's repositories"), vec![]);
        assert_eq!(
            kinds("parse the JSON {\"name\": \"Ada\", \"age\": 36}"),
            vec![(Json, json!({"name": "Ada", "age": 36}))]
        );
        assert_eq!(kinds("3/4 of it"), vec![]);
    }

    #[test]
    fn words_ordering_requests_are_no_names() {
        use MentionKind::*;
        assert_eq!(
            kinds("Find the weather in Paris. Secondly, the time in Tokyo. Finally, Lastly"),
            vec![(Name, json!("Paris")), (Name, json!("Tokyo"))]
        );
    }

    #[test]
    fn a_works_title_runs_over_its_capitalised_words() {
        use MentionKind::*;
        let names = |t: &str| -> Vec<serde_json::Value> {
            kinds(t)
                .into_iter()
                .filter(|(k, _)| *k == Name)
                .map(|(_, v)| v)
                .collect()
        };
        for (goal, title) in [
            ("details of the movie Read My Lips", "Read My Lips"),
            ("find the show Search Party", "Search Party"),
            ("details of the movie Stand by Me", "Stand by Me"),
            (
                "details of the movie Snakes on a Plane",
                "Snakes on a Plane",
            ),
            (
                "details of the movie Planes, Trains and Automobiles",
                "Planes, Trains and Automobiles",
            ),
            ("find the show Parks and Recreation", "Parks and Recreation"),
        ] {
            assert_eq!(names(goal), vec![json!(title)], "{goal}");
        }
        assert_eq!(
            names("get info about the HBO show The Wire"),
            vec![json!("HBO"), json!("The Wire")]
        );
        // Not over a preposition into another phrase, a place or a maker.
        assert_eq!(
            names("find the show Line of Duty on BBC"),
            vec![json!("Line of Duty"), json!("BBC")]
        );
        assert_eq!(
            names("add the song Yesterday to the Chill playlist"),
            vec![json!("Yesterday"), json!("Chill")]
        );
        assert_eq!(
            names("find the book Dune by Frank Herbert"),
            vec![json!("Dune"), json!("Frank Herbert")]
        );
        // A request verb opening the goal is no title's.
        assert!(!names("Show The Wire episodes").contains(&json!("Show The Wire")));
    }

    #[test]
    fn file_patterns_written_or_named_by_kind() {
        use MentionKind::*;
        assert_eq!(
            kinds("search for files named *.json"),
            vec![(FilePattern, json!("*.json"))]
        );
        assert_eq!(
            kinds("list docs/**/*.md please"),
            vec![(FilePattern, json!("docs/**/*.md"))]
        );
        // A kind of file is found at any depth; a written glob only when
        // the clause asks to go down into folders.
        assert_eq!(
            kinds("find the markdown files"),
            vec![(FilePattern, json!("**/*.md"))]
        );
        assert_eq!(
            kinds("find all markdown files, including in subfolders"),
            vec![(FilePattern, json!("**/*.md"))]
        );
        assert_eq!(
            kinds("search for *.md recursively"),
            vec![(FilePattern, json!("**/*.md"))]
        );
        // One file of a kind is no pattern; products are arithmetic.
        assert_eq!(kinds("read the json file"), vec![]);
        assert!(!kinds("what is 3*4").iter().any(|(k, _)| *k == FilePattern));
        assert!(!kinds("(2+3)*4").iter().any(|(k, _)| *k == FilePattern));
    }

    #[test]
    fn quantities_lists_dates_separators() {
        use MentionKind::*;
        assert_eq!(kinds("wait 1 second"), vec![(Duration, json!(1000))]);
        // A count of the operands is not an operand.
        assert_eq!(kinds("divide two numbers"), vec![]);
        assert_eq!(kinds("add 3 values"), vec![]);
        assert_eq!(
            kinds("sleep for half a second"),
            vec![(Duration, json!(500))]
        );
        assert_eq!(kinds("wait 250 ms"), vec![(Duration, json!(250))]);
        assert_eq!(
            kinds("increase 250 by 10 percent"),
            vec![(Number, json!(250)), (Percent, json!(10))]
        );
        assert_eq!(
            kinds("sort 10, 2, 33 and 4 from largest to smallest"),
            vec![(List, json!([10, 2, 33, 4]))]
        );
        assert_eq!(
            kinds("commits since January 12, 2024"),
            vec![(Date, json!("2024-01-12"))]
        );
        // Day first, with or without its ordinal, "of" and a comma.
        for day_first in [
            "book a room from 15th October,2023",
            "book a room from 15 October, 2023",
            "book a room from the 15th of October 2023",
        ] {
            assert_eq!(
                kinds(day_first),
                vec![(Date, json!("2023-10-15"))],
                "{day_first}"
            );
        }
        assert_eq!(kinds("the 4th of July"), vec![(Date, json!("--07-04"))]);
        // A folder written without a letter, after "in"/"list".
        for (goal, root) in [
            ("show the list of files in /", "/"),
            ("list ../", "../"),
            ("save the files in ~ to x", "~"),
            ("list the files in ..", ".."),
            ("list the files in ./..", "./.."),
            ("list ..", ".."),
        ] {
            assert!(kinds(goal).contains(&(Path, json!(root))), "{goal}");
        }
        // A parent folder keeps its dots (it was cut to "docs/").
        assert!(kinds("list the files in docs/..").contains(&(Path, json!("docs/.."))));
        assert!(kinds("a / b").is_empty());
        // A day the month does not have is no date (attack trial: "31st
        // February 2023" was echoed as 2023-02-31).
        for no_day in [
            "31st February 2023",
            "29th February 2023",
            "February 30, 2024",
        ] {
            assert!(
                !kinds(no_day).iter().any(|(k, _)| *k == Date),
                "{no_day}: {:?}",
                kinds(no_day)
            );
        }
        assert_eq!(
            kinds("29th February 2024"),
            vec![(Date, json!("2024-02-29"))]
        );
        // A bare number before a month without a year stays a number.
        assert_eq!(kinds("add 3 may"), vec![(Number, json!(3))]);
        assert_eq!(
            kinds("convert 09:30 Tokyo time"),
            vec![(Time, json!("09:30")), (Name, json!("Tokyo"))]
        );
        assert_eq!(kinds("at 8am"), vec![(Time, json!("08:00"))]);
        assert_eq!(kinds("at 3 pm"), vec![(Time, json!("15:00"))]);
        assert_eq!(
            kinds("split \"a,b,c\" on commas"),
            vec![(Quoted, json!("a,b,c")), (Separator, json!(","))]
        );
        let m = mentions("seven plus eight").unwrap();
        assert!(m.iter().all(|m| m.weak && m.kind == Number), "{m:?}");
        // A unit attached to its number reads as written apart.
        assert_eq!(
            kinds("a base of 6cm and a height of 10cm"),
            vec![(Number, json!(6)), (Number, json!(10))]
        );
        assert_eq!(kinds("wait 10s"), vec![(Duration, json!(10000))]);
        // A scaled unit is not read as its number.
        assert_eq!(kinds("a capacitance of 100µF"), vec![]);
        assert_eq!(
            kinds("May 18th 2022 at 8am"),
            vec![(Date, json!("2022-05-18")), (Time, json!("08:00"))]
        );
        // An amount with thousands separators is one number.
        assert_eq!(
            kinds("a loan of $400,000 and $2,000,000"),
            vec![(List, json!([400000, 2000000]))]
        );
    }

    #[test]
    fn names_skip_sentence_words() {
        use MentionKind::*;
        assert_eq!(
            kinds("who directed The Glass Harbor?"),
            vec![(Name, json!("The Glass Harbor"))]
        );
        assert_eq!(
            kinds("What movies has Leo Brandt played in?"),
            vec![(Name, json!("Leo Brandt"))]
        );
        assert_eq!(
            kinds("Add Sarah Lee as a new contact"),
            vec![(Name, json!("Sarah Lee"))]
        );
        assert_eq!(
            kinds("What is the weather in Boston and Paris"),
            vec![(List, json!(["Boston", "Paris"]))]
        );
        // A title may open with an interjection or a verb inside the
        // sentence (it was cut to "Jude"); never at the sentence's start.
        assert_eq!(
            kinds("play the song Hey Jude"),
            vec![(Name, json!("Hey Jude"))]
        );
        assert_eq!(kinds("Find Leo Brandt"), vec![(Name, json!("Leo Brandt"))]);
        // Only after the noun of a title: elsewhere it is a request.
        assert_eq!(
            kinds("please Tell Alice the weather"),
            vec![(Name, json!("Alice"))]
        );
        // A house number belongs to its street (alone it was a zip code).
        assert_eq!(
            kinds("geocode the address 10 Wall Street"),
            vec![(Name, json!("10 Wall Street"))]
        );
        assert_eq!(
            kinds("add 10 Wall"),
            vec![(Number, json!(10)), (Name, json!("Wall"))]
        );
        // A lower-case owner of the request's object is a handle; a word
        // of time or a pronoun is not, nor an owner after "the".
        assert_eq!(
            kinds("list rpatel's repositories"),
            vec![(Name, json!("rpatel"))]
        );
        for goal in [
            "list today's orders",
            "show everyone's tasks",
            "list the user's repositories",
        ] {
            assert!(
                kinds(goal).iter().all(|(k, _)| *k != Name),
                "{goal}: {:?}",
                kinds(goal)
            );
        }
    }

    #[test]
    fn cues_name_the_neighbouring_words() {
        let m = mentions("rename notes.txt to notes.md").unwrap();
        assert_eq!(m[1].cue.prep.as_deref(), Some("to"));
        assert_eq!(m[0].cue.before, vec!["rename".to_string()]);
        let m = mentions("list 10 issues per page").unwrap();
        assert_eq!(m[0].cue.after, ["issues", "per"]);
        let m = mentions("a triangle with a base of 10 units and a height of 5").unwrap();
        assert_eq!(
            m[0].cue.before,
            vec!["triangle".to_string(), "base".to_string()]
        );
        assert_eq!(m[0].cue.prep.as_deref(), Some("of"));
        assert_eq!(
            m[1].cue.before,
            vec!["units".to_string(), "height".to_string()]
        );
    }

    #[test]
    fn out_of_range_integers_are_errors_with_spans() {
        let e = mentions("add 99999999999999999999 and 1").unwrap_err();
        assert_eq!(e.span, Span::new(4, 24));
        assert!(e.message.contains("out of range"), "{}", e.message);
    }

    #[test]
    fn fields_are_named_by_structure_never_swapped() {
        use MentionKind::{Field, Json as J, Name, Number, Path, Quoted};
        for (goal, want) in [
            (
                "sort people.json by age",
                vec![(Path, json!("people.json")), (Field, json!("age"))],
            ),
            (
                "sort people.json by the age, oldest first",
                vec![(Path, json!("people.json")), (Field, json!("age"))],
            ),
            (
                "list people.json entries whose city is New York",
                vec![
                    (Path, json!("people.json")),
                    (Field, json!("city")),
                    (Name, json!("New York")),
                ],
            ),
            (
                r#"filter people.json where "city" is "London""#,
                vec![
                    (Path, json!("people.json")),
                    (Field, json!("city")),
                    (Quoted, json!("London")),
                ],
            ),
            (
                "the people in a.json whose age = 27",
                vec![
                    (Path, json!("a.json")),
                    (Field, json!("age")),
                    (Number, json!(27)),
                ],
            ),
            (
                "the tasks in t.json whose done is false",
                vec![
                    (Path, json!("t.json")),
                    (Field, json!("done")),
                    (J, json!(false)),
                ],
            ),
            // A boolean however written.
            (
                "the tasks in t.json whose done is TRUE",
                vec![
                    (Path, json!("t.json")),
                    (Field, json!("done")),
                    (J, json!(true)),
                ],
            ),
            // A value ending the condition before the file it is in.
            (
                "list the entries whose city is Rome in a.json",
                vec![
                    (Field, json!("city")),
                    (Name, json!("Rome")),
                    (Path, json!("a.json")),
                ],
            ),
            // A listing by a key that orders lists.
            (
                "list docs/ by size",
                vec![(Path, json!("docs/")), (Field, json!("size"))],
            ),
            // A second key after a direction.
            (
                "sort t.json by score descending then name",
                vec![
                    (Path, json!("t.json")),
                    (Field, json!("score")),
                    (Field, json!("name")),
                ],
            ),
        ] {
            assert_eq!(kinds(goal), want, "{goal}");
        }
        // No field: a comparison, a lower-case value (its case is a
        // guess), "by" that orders nothing, a question word.
        for goal in [
            "list a.json entries whose age is greater than 30",
            "list a.json entries whose city is paris",
            "list a.json entries whose age is 30 or more",
            "list a.json entries whose age is 30+",
            // More than one equality: another value, a second condition,
            // an approximation (attack trial).
            r#"list a.json entries whose dept is "Sales" or IT"#,
            "list a.json entries whose city is 'Rome' or Oslo",
            "list a.json entries whose city is Rome in IT",
            "list a.json entries whose city is Paris and Bob",
            "list a.json entries whose age is 31 or so",
            "list a.json entries whose age is 31 and more",
            "list a.json entries whose age is about 31",
            "split notes.txt by line",
            "divide 10 by 2",
            "list the commits by alice",
            "where does Bob live in a.json?",
        ] {
            assert!(
                !kinds(goal).iter().any(|(k, _)| *k == Field),
                "{goal}: {:?}",
                kinds(goal)
            );
        }
        // A second key is a field of its own (a sort by one drops it).
        assert_eq!(
            kinds("sort a.json by age then name"),
            vec![
                (Path, json!("a.json")),
                (Field, json!("age")),
                (Field, json!("name"))
            ]
        );
        // A stated value is never weak: a filter without it keeps all.
        let ms = mentions("list a.json entries whose city is London").unwrap();
        assert!(ms.iter().all(|m| !m.weak), "{ms:?}");
    }

    #[test]
    fn a_folder_named_with_a_folder_noun_is_a_path() {
        for goal in [
            "list the docs folder",
            "what's in the docs folder?",
            "list the files in the docs directory",
        ] {
            assert_eq!(
                kinds(goal),
                vec![(MentionKind::Path, json!("docs"))],
                "{goal}"
            );
        }
        for goal in [
            "list the current folder",
            "list my folder",
            "list my documents folder",
            "list the files in docs",
            "list the folder docs",
            "show me the directory tree",
            "make a folder named docs",
        ] {
            assert!(
                !kinds(goal).iter().any(|(k, _)| *k == MentionKind::Path),
                "{goal}: {:?}",
                kinds(goal)
            );
        }
    }

    #[test]
    fn residual_cuts_mentions() {
        let t = "write \"hello\" to out.txt";
        let m = mentions(t).unwrap();
        assert_eq!(residual(t, &m), "write to");
    }

    #[test]
    fn shouted_goals_are_read_in_lower_case_outside_quotes() {
        assert_eq!(
            unshouted("LIST THE CLOSED ISSUES IN ACME/ROCKET"),
            "list the closed issues in acme/rocket"
        );
        assert_eq!(unshouted("ECHO 'HELLO THERE'"), "echo 'HELLO THERE'");
        assert_eq!(unshouted("WHAT'S 2 + 2?"), "what's 2 + 2?");
        // A sentence with capitals for names is left alone.
        assert_eq!(
            unshouted("who directed The Glass Harbor?"),
            "who directed The Glass Harbor?"
        );
        assert_eq!(unshouted("add 2 and 3"), "add 2 and 3");
    }
}
