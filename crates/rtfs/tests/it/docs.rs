//! Every example of the language reference (`docs/rtfs.md`) runs and gives
//! the value the reference states, and the reference shows every function
//! and special form: the page and the implementation cannot drift apart.
//!
//! In the page's `rtfs` code blocks an example is an expression (one or
//! more lines) followed by `;=>` and either its value in canonical form or
//! `error :kind` (optionally followed by a string the message contains).
//! The examples of one block share one evaluator; calls go to a test host
//! where `:ccos.echo` returns its first argument and `:ccos.math.add` adds.

use std::path::PathBuf;

use rtfs::{CallRequest, ErrorKind, Evaluator, Host, Result, RtfsError, Value};

struct DocHost;

impl Host for DocHost {
    fn call(&self, r: CallRequest<'_>) -> Result<Value> {
        match r.capability {
            "ccos.echo" => Ok(r.args.first().cloned().unwrap_or(Value::Nil)),
            "ccos.math.add" => {
                let mut sum = 0i64;
                for a in &r.args {
                    match a {
                        Value::Int(i) => sum += i,
                        other => {
                            return Err(RtfsError::new(
                                ErrorKind::Host,
                                format!("add: not an integer: {other}"),
                            ));
                        }
                    }
                }
                Ok(Value::Int(sum))
            }
            other => Err(RtfsError::new(
                ErrorKind::Host,
                format!("unknown capability {other}"),
            )),
        }
    }
}

/// One example: its source, what it should give, and its line in the page.
struct Example {
    src: String,
    expected: String,
    line: usize,
}

/// The `rtfs` blocks of the page, each as its examples in order.
fn blocks(text: &str) -> Vec<Vec<Example>> {
    let mut out = vec![];
    let mut current: Option<Vec<Example>> = None;
    let mut pending = String::new();
    let mut pending_line = 0;
    let mut in_other_block = false;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let fence = line.trim_start();
        if fence.starts_with("```") {
            if let Some(examples) = current.take() {
                // The end of an rtfs block.
                assert!(
                    pending
                        .lines()
                        .all(|l| l.trim().is_empty() || l.trim().starts_with(';')),
                    "docs/rtfs.md:{pending_line}: example without `;=>`: {pending}"
                );
                pending.clear();
                out.push(examples);
            } else if in_other_block {
                in_other_block = false;
            } else if fence == "```rtfs" {
                current = Some(vec![]);
            } else {
                in_other_block = true;
            }
            continue;
        }
        let Some(examples) = current.as_mut() else {
            continue;
        };
        if pending.trim().is_empty() {
            pending_line = line_no;
        }
        match line.split_once(";=>") {
            Some((src, expected)) => {
                pending.push_str(src);
                examples.push(Example {
                    src: std::mem::take(&mut pending),
                    expected: expected.trim().to_string(),
                    line: pending_line,
                });
            }
            None => {
                pending.push_str(line);
                pending.push('\n');
            }
        }
    }
    out
}

fn doc_text() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/rtfs.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `error :kind "fragment"?` → the kind's name (with `_`) and the fragment.
fn expected_error(expected: &str) -> Option<(String, Option<String>)> {
    let rest = expected.strip_prefix("error ")?.trim();
    let (kind, fragment) = match rest.split_once(' ') {
        Some((k, f)) => (k, Some(f.trim())),
        None => (rest, None),
    };
    let kind = kind.trim_start_matches(':').replace('-', "_");
    let fragment = fragment.map(|f| match rtfs::parse_one(f).map(|e| e.to_value()) {
        Ok(Value::Str(s)) => s.to_string(),
        _ => panic!("error fragment must be a string literal: {f}"),
    });
    Some((kind, fragment))
}

fn canonical(expected: &str) -> String {
    match rtfs::parse_one(expected) {
        Ok(e) => rtfs::print_value(&e.to_value()),
        Err(_) => expected.to_string(),
    }
}

#[test]
fn every_example_in_the_language_reference_gives_its_stated_value() {
    let text = doc_text();
    let blocks = blocks(&text);
    let mut failures = vec![];
    let mut count = 0;
    for block in &blocks {
        let ev = Evaluator::new(&DocHost);
        for ex in block {
            count += 1;
            let got = ev.eval_str(&ex.src);
            match (expected_error(&ex.expected), got) {
                (Some((kind, fragment)), Err(e)) => {
                    if e.kind.name() != kind
                        || fragment
                            .as_ref()
                            .is_some_and(|f| !e.message.contains(f.as_str()))
                    {
                        failures.push(format!(
                            "docs/rtfs.md:{}: {} gave error :{} {:?}, the page says {}",
                            ex.line,
                            ex.src.trim(),
                            e.kind.name(),
                            e.message,
                            ex.expected
                        ));
                    }
                }
                (Some(_), Ok(v)) => failures.push(format!(
                    "docs/rtfs.md:{}: {} gave {v}, the page says {}",
                    ex.line,
                    ex.src.trim(),
                    ex.expected
                )),
                (None, Ok(v)) => {
                    let printed = rtfs::print_value(&v);
                    if printed != canonical(&ex.expected) {
                        failures.push(format!(
                            "docs/rtfs.md:{}: {} gave {printed}, the page says {}",
                            ex.line,
                            ex.src.trim(),
                            ex.expected
                        ));
                    }
                }
                (None, Err(e)) => failures.push(format!(
                    "docs/rtfs.md:{}: {} failed: {} ({}), the page says {}",
                    ex.line,
                    ex.src.trim(),
                    e.message,
                    e.kind.name(),
                    ex.expected
                )),
            }
        }
    }
    assert!(count > 200, "only {count} examples found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_language_reference_shows_every_function_and_special_form() {
    let text = doc_text();
    let mut used = std::collections::BTreeSet::new();
    for block in blocks(&text) {
        for ex in block {
            let Ok(forms) = rtfs::parse(&ex.src) else {
                continue;
            };
            for f in &forms {
                f.walk(&mut |e| {
                    if let Some(s) = e.as_symbol() {
                        used.insert(s.to_string());
                    }
                });
            }
        }
    }
    let special_forms = [
        "quote",
        "do",
        "let",
        "if",
        "when",
        "cond",
        "and",
        "or",
        "fn",
        "defn",
        "def",
        "match",
        "try",
        "catch",
        "finally",
        "throw",
        "step",
        "step-parallel",
        "step-loop",
        "call",
        "->",
        "->>",
    ];
    let mut missing: Vec<&str> = rtfs::builtins::Builtin::ALL
        .iter()
        .map(|b| b.name())
        .chain(special_forms)
        .filter(|n| !used.contains(*n))
        .collect();
    missing.sort();
    assert!(
        missing.is_empty(),
        "docs/rtfs.md has no example using: {}",
        missing.join(" ")
    );
    for f in special_forms {
        assert!(
            rtfs::is_special_form(f) || matches!(f, "catch" | "finally"),
            "{f} is not a special form"
        );
    }
}
