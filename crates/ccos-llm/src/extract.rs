//! Tolerant extraction of an RTFS form or a JSON object from a model's
//! answer.
//!
//! Models wrap what was asked for in prose ("Here is the plan:"), in
//! markdown fences (```` ```clojure ````, ```` ```rtfs ````, ```` ```json ````,
//! bare ```` ``` ````), or stop in the middle (token bound). These functions
//! find the first balanced `(head ...)` form or `{...}` object, respecting
//! strings (with escapes) and RTFS `;` comments inside it, and report a cut
//! answer as [`ExtractError::Truncated`] naming where the form opened.
//! Nothing here parses RTFS itself: callers hand [`Extracted::text`] to
//! `rtfs::parse`.

/// A piece of an answer: the text and where it starts in the answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extracted {
    /// The extracted text (one balanced form or object).
    pub text: String,
    /// Byte offset of its first character in the answer.
    pub offset: usize,
    /// 1-based line of its first character in the answer.
    pub line: usize,
    /// 1-based column (in characters) of its first character.
    pub column: usize,
}

/// Why nothing usable could be extracted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExtractError {
    /// No `(head ...)` form / no `{` at all in the answer.
    #[error("no {what} found in the answer")]
    NotFound {
        /// What was looked for (`(intent ...)`, `JSON object`).
        what: String,
    },
    /// The form or object opened but never closed (a cut answer).
    #[error("{what} opened at line {line} column {column} is never closed (truncated answer?)")]
    Truncated {
        /// What was cut (`(intent ...)`, `JSON object`).
        what: String,
        /// 1-based line of the opening delimiter.
        line: usize,
        /// 1-based column of the opening delimiter.
        column: usize,
    },
    /// A closing delimiter does not match the opening one.
    #[error("mismatched `{found}` at line {line} column {column} (expected `{expected}`)")]
    Mismatched {
        /// The closing delimiter found.
        found: char,
        /// The one that was expected.
        expected: char,
        /// 1-based line of the bad delimiter.
        line: usize,
        /// 1-based column of the bad delimiter.
        column: usize,
    },
    /// A balanced `{...}` was found but is not valid JSON.
    #[error("invalid JSON at line {line} column {column}: {message}")]
    Json {
        /// What serde_json reported.
        message: String,
        /// 1-based line in the answer.
        line: usize,
        /// 1-based column in the answer.
        column: usize,
    },
}

use ccos_core::line_col;

/// The contents of the markdown code fences in `text`, in order, whatever
/// their language tag (```` ```rtfs ````, ```` ```json ````, none). A fence
/// that is never closed (a cut answer) yields everything after its opening
/// line. Returns an empty vector when there is no fence.
pub fn strip_fences(text: &str) -> Vec<&str> {
    fenced_blocks(text).into_iter().map(|(_, s)| s).collect()
}

/// Fenced blocks with their byte offsets in `text`.
fn fenced_blocks(text: &str) -> Vec<(usize, &str)> {
    let mut out = vec![];
    let mut pos = 0;
    while let Some(rel) = text[pos..].find("```") {
        let open = pos + rel;
        // The language tag runs to the end of the line.
        let body_start = match text[open + 3..].find('\n') {
            Some(nl) => open + 3 + nl + 1,
            None => {
                // "```rtfs (intent ...)" all on one line: body after the tag
                // is not recoverable reliably; treat the rest as the body.
                text.len()
            }
        };
        match text[body_start..].find("```") {
            Some(rel_close) => {
                let close = body_start + rel_close;
                out.push((body_start, &text[body_start..close]));
                pos = close + 3;
            }
            None => {
                out.push((body_start, &text[body_start..]));
                break;
            }
        }
    }
    out
}

/// Finds the first balanced `(head ...)` form in `text` (e.g. `head` =
/// `"intent"` finds `(intent "x" :goal "...")`), tolerating prose and
/// fences around it. Inside the form, strings (with `\` escapes) and `;`
/// comments are skipped, so a `)` in a string does not close it.
///
/// Errors: [`ExtractError::NotFound`] when no `(head` appears;
/// [`ExtractError::Truncated`] (naming where the form opened) when the first
/// candidate never closes; [`ExtractError::Mismatched`] on a `]`/`}`/`)`
/// that closes the wrong delimiter.
pub fn extract_form(text: &str, head: &str) -> Result<Extracted, ExtractError> {
    let what = format!("({head} ...)");
    let bytes = text.as_bytes();
    let mut search = 0;
    while let Some(rel) = text[search..].find('(') {
        let open = search + rel;
        search = open + 1;
        // `(` + optional whitespace + head + a delimiter.
        let mut i = open + 1;
        while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b'\t' || bytes[i] == b'\n') {
            i += 1;
        }
        if !text[i..].starts_with(head) {
            continue;
        }
        let after = i + head.len();
        if let Some(&b) = bytes.get(after)
            && !matches!(
                b,
                b' ' | b'\t' | b'\n' | b'\r' | b'(' | b')' | b'[' | b'{' | b'"' | b';' | b','
            )
        {
            continue; // `(intent-x` is not `(intent`
        }
        let end = scan_balanced(text, open, Syntax::Rtfs, &what)?;
        let (line, column) = line_col(text, open);
        return Ok(Extracted {
            text: text[open..end].to_string(),
            offset: open,
            line,
            column,
        });
    }
    Err(ExtractError::NotFound { what })
}

/// Which string/comment rules apply while scanning.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Syntax {
    Rtfs,
    Json,
}

/// From the opening delimiter at `open`, returns the byte offset just after
/// its matching closer.
fn scan_balanced(
    text: &str,
    open: usize,
    syntax: Syntax,
    what: &str,
) -> Result<usize, ExtractError> {
    let bytes = text.as_bytes();
    let mut stack: Vec<u8> = vec![];
    let mut i = open;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'"' => {
                // Skip the string, honouring escapes; an unclosed string is
                // a truncated form.
                i += 1;
                loop {
                    match bytes.get(i) {
                        None => {
                            let (line, column) = line_col(text, open);
                            return Err(ExtractError::Truncated {
                                what: what.to_string(),
                                line,
                                column,
                            });
                        }
                        Some(b'\\') => i += 2,
                        Some(b'"') => break,
                        Some(_) => i += 1,
                    }
                }
            }
            b';' if syntax == Syntax::Rtfs => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'(' | b'[' | b'{' => stack.push(b),
            b')' | b']' | b'}' => {
                let expected = match stack.pop() {
                    Some(b'(') => b')',
                    Some(b'[') => b']',
                    Some(_) => b'}',
                    None => b,
                };
                if expected != b {
                    let (line, column) = line_col(text, i);
                    return Err(ExtractError::Mismatched {
                        found: b as char,
                        expected: expected as char,
                        line,
                        column,
                    });
                }
                if stack.is_empty() {
                    return Ok(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    let (line, column) = line_col(text, open);
    Err(ExtractError::Truncated {
        what: what.to_string(),
        line,
        column,
    })
}

/// How many `{` candidates [`extract_json_object`] tries before giving up
/// (prose may contain braces; this bounds the work on a pathological answer).
const MAX_JSON_CANDIDATES: usize = 64;

/// Finds the first balanced `{...}` in `text` that parses as JSON, looking
/// inside fences first, then in the whole answer (bare JSON or JSON inside
/// prose). Errors carry line/column in the answer: the first candidate's
/// JSON error, or [`ExtractError::Truncated`] when the object never closes,
/// or [`ExtractError::NotFound`] when there is no `{` at all.
pub fn extract_json_object(text: &str) -> Result<serde_json::Value, ExtractError> {
    let what = "JSON object";
    let mut regions: Vec<(usize, &str)> = fenced_blocks(text);
    regions.push((0, text));
    let mut first_err: Option<ExtractError> = None;
    let mut tried = 0;
    for (base, region) in regions {
        let mut search = 0;
        while let Some(rel) = region[search..].find('{') {
            let open = search + rel;
            search = open + 1;
            tried += 1;
            if tried > MAX_JSON_CANDIDATES {
                break;
            }
            match scan_balanced(region, open, Syntax::Json, what) {
                Ok(end) => {
                    let snippet = &region[open..end];
                    match serde_json::from_str::<serde_json::Value>(snippet) {
                        Ok(v) => return Ok(v),
                        Err(e) => {
                            if first_err.is_none() {
                                // serde_json's position is relative to the
                                // snippet; shift it into the answer.
                                let (sl, sc) = line_col(text, base + open);
                                let line = sl + e.line().saturating_sub(1);
                                let column = if e.line() <= 1 {
                                    sc + e.column().saturating_sub(1)
                                } else {
                                    e.column()
                                };
                                first_err = Some(ExtractError::Json {
                                    message: e.to_string(),
                                    line,
                                    column,
                                });
                            }
                        }
                    }
                }
                Err(ExtractError::Truncated { .. }) => {
                    if first_err.is_none() {
                        let (line, column) = line_col(text, base + open);
                        first_err = Some(ExtractError::Truncated {
                            what: what.to_string(),
                            line,
                            column,
                        });
                    }
                    // Nothing after an unclosed `{` can close either.
                    break;
                }
                Err(ExtractError::Mismatched {
                    found, expected, ..
                }) => {
                    if first_err.is_none() {
                        let (mut line, mut column) = (0, 0);
                        if let Some(pos) = find_mismatch(region, open) {
                            (line, column) = line_col(text, base + pos);
                        }
                        first_err = Some(ExtractError::Mismatched {
                            found,
                            expected,
                            line,
                            column,
                        });
                    }
                }
                Err(e) => {
                    if first_err.is_none() {
                        first_err = Some(e);
                    }
                }
            }
        }
    }
    Err(first_err.unwrap_or(ExtractError::NotFound {
        what: what.to_string(),
    }))
}

/// Byte offset (in `region`) of the mismatched closer found when scanning
/// from `open`, for positioning errors relative to the whole answer.
fn find_mismatch(region: &str, open: usize) -> Option<usize> {
    let bytes = region.as_bytes();
    let mut stack: Vec<u8> = vec![];
    let mut i = open;
    let mut in_str = false;
    while i < bytes.len() {
        let b = bytes[i];
        if in_str {
            match b {
                b'\\' => i += 1,
                b'"' => in_str = false,
                _ => {}
            }
        } else {
            match b {
                b'"' => in_str = true,
                b'(' | b'[' | b'{' => stack.push(b),
                b')' | b']' | b'}' => {
                    let ok = matches!(
                        (stack.pop(), b),
                        (Some(b'('), b')') | (Some(b'['), b']') | (Some(b'{'), b'}')
                    );
                    if !ok {
                        return Some(i);
                    }
                    if stack.is_empty() {
                        return None;
                    }
                }
                _ => {}
            }
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_in_prose() {
        let t = "Sure! Here is the intent:\n(intent \"x\" :goal \"a (b) c\")\nHope it helps.";
        let e = extract_form(t, "intent").unwrap();
        assert_eq!(e.text, "(intent \"x\" :goal \"a (b) c\")");
        assert_eq!((e.line, e.column), (2, 1));
    }

    #[test]
    fn form_in_fences() {
        for tag in ["clojure", "rtfs", ""] {
            let t = format!("```{tag}\n(intent \"x\" :goal \"g\")\n```\n");
            let e = extract_form(&t, "intent").unwrap();
            assert_eq!(e.text, "(intent \"x\" :goal \"g\")", "{tag}");
        }
    }

    #[test]
    fn strings_escapes_and_comments() {
        let t = "(intent \"a \\\" ) b\" ; a comment with )\n :goal \"g\")";
        let e = extract_form(t, "intent").unwrap();
        assert_eq!(e.text, t);
    }

    #[test]
    fn head_must_be_whole_word() {
        let t = "(intent-like 1) (intent \"y\")";
        assert_eq!(extract_form(t, "intent").unwrap().text, "(intent \"y\")");
        assert!(matches!(
            extract_form("(other 1)", "intent"),
            Err(ExtractError::NotFound { .. })
        ));
    }

    #[test]
    fn truncated_form_names_opener() {
        let t = "Here:\n  (intent \"x\" :goal \"g\" :constraints {:a 1";
        assert_eq!(
            extract_form(t, "intent"),
            Err(ExtractError::Truncated {
                what: "(intent ...)".into(),
                line: 2,
                column: 3
            })
        );
        // Cut inside a string.
        let t = "(intent \"x\" :goal \"unfinish";
        assert!(matches!(
            extract_form(t, "intent"),
            Err(ExtractError::Truncated {
                line: 1,
                column: 1,
                ..
            })
        ));
    }

    #[test]
    fn mismatched_delimiter() {
        let t = "(intent \"x\" :goal [1 2})";
        assert!(matches!(
            extract_form(t, "intent"),
            Err(ExtractError::Mismatched {
                found: '}',
                expected: ']',
                ..
            })
        ));
    }

    #[test]
    fn fences_listed() {
        let t = "a\n```json\n{\"x\":1}\n```\nb\n```\nsecond\n```\n```rtfs\ncut";
        assert_eq!(strip_fences(t), vec!["{\"x\":1}\n", "second\n", "cut"]);
        assert!(strip_fences("no fences").is_empty());
    }

    #[test]
    fn json_bare_fenced_and_in_prose() {
        assert_eq!(
            extract_json_object("{\"goal\": \"g\"}").unwrap()["goal"],
            "g"
        );
        let t = "Here you go:\n```json\n{\"goal\": \"a } b\", \"n\": [1, {\"x\": 2}]}\n```";
        let v = extract_json_object(t).unwrap();
        assert_eq!(v["goal"], "a } b");
        let t = "The {placeholder} is prose. {\"goal\": \"g\"} done";
        assert_eq!(extract_json_object(t).unwrap()["goal"], "g");
    }

    #[test]
    fn json_errors() {
        assert!(matches!(
            extract_json_object("nothing here"),
            Err(ExtractError::NotFound { .. })
        ));
        let t = "line one\n  {\"goal\": \"g\", \"x\": [1, 2";
        assert_eq!(
            extract_json_object(t),
            Err(ExtractError::Truncated {
                what: "JSON object".into(),
                line: 2,
                column: 3
            })
        );
        let t = "x\n{\"goal\": \"g\",\n \"bad\": tru}";
        match extract_json_object(t) {
            Err(ExtractError::Json { line, .. }) => assert_eq!(line, 3),
            other => panic!("{other:?}"),
        }
    }
}
