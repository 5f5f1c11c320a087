//! The canonical printer.
//!
//! [`print_value`] writes a value on one line in its one canonical form:
//! maps in key order (the [`Value`] total order), no commas, floats in their
//! shortest round-tripping form, strings with the escapes the lexer reads.
//! For every printable value `parse(print(v)) == v` (property-tested), and
//! printing is stable: `print(parse(print(v))) == print(v)`.
//!
//! [`pretty`] lays the same form out over several lines for people (used by
//! `ccos rtfs fmt` and for plans); it depends only on the datum, so it is as
//! deterministic as the one-line form.
//!
//! Functions print as `#<fn name>`, which does not read back: they are not
//! data.

use std::fmt::Write;

use crate::syntax::Expr;
use crate::value::{Function, Value};

/// The canonical one-line form of `v`.
///
/// The work is proportional to the value's logical size
/// ([`Value::logical_size`]); values the evaluator builds are bounded by
/// [`crate::Limits::max_value_bytes`]. To print within a budget, use
/// [`print_value_within`] or [`print_value_prefix`].
pub fn print_value(v: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, v, usize::MAX);
    out
}

/// The canonical one-line form of `v` if it is at most `max_bytes` long;
/// `None` otherwise. Printing stops as soon as the output passes
/// `max_bytes`, so the work is bounded by the budget, not by the value.
pub fn print_value_within(v: &Value, max_bytes: usize) -> Option<String> {
    let mut out = String::new();
    write_value(&mut out, v, max_bytes).then_some(out)
}

/// The first bytes of the canonical form of `v`: all of it when it is at
/// most `max_bytes` long, otherwise a prefix of at most `max_bytes` bytes
/// (cut at a character boundary). For messages about values of any size.
pub fn print_value_prefix(v: &Value, max_bytes: usize) -> String {
    let mut out = String::new();
    if !write_value(&mut out, v, max_bytes) {
        let mut cut = max_bytes.min(out.len());
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
    }
    out
}

/// The canonical one-line form of a syntax tree (comments are not kept).
pub fn print_expr(e: &Expr) -> String {
    print_value(&e.to_value())
}

/// Canonical form of a float: shortest round-trip digits, always with a `.`
/// or exponent so it reads back as a float.
pub fn format_float(f: f64) -> String {
    if f.is_nan() {
        "##NaN".into()
    } else if f.is_infinite() {
        if f > 0.0 {
            "##Inf".into()
        } else {
            "##-Inf".into()
        }
    } else {
        let s = format!("{f:?}");
        if s.contains(['.', 'e', 'E']) {
            s
        } else {
            format!("{s}.0")
        }
    }
}

/// Writes `s` as an RTFS string literal.
pub fn write_string_literal(out: &mut String, s: &str) {
    write_string_literal_within(out, s, usize::MAX);
}

/// [`write_string_literal`], stopping once `out` is longer than `limit`
/// (then false).
fn write_string_literal_within(out: &mut String, s: &str, limit: usize) -> bool {
    // Escaping at most doubles a byte, except control characters (6 bytes
    // for 1): check as it goes only when the end might pass the limit.
    let check = out.len().saturating_add(s.len().saturating_mul(6) + 2) > limit;
    out.push('"');
    for c in s.chars() {
        if check && out.len() > limit {
            return false;
        }
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out.len() <= limit
}

/// Writes the canonical form of `v`; false (with `out` holding a prefix of
/// the form longer than `limit`) as soon as the output passes `limit`.
fn write_value(out: &mut String, v: &Value, limit: usize) -> bool {
    if out.len() > limit {
        return false;
    }
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
        match v {
            Value::Nil => out.push_str("nil"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Int(i) => {
                let _ = write!(out, "{i}");
            }
            Value::Float(f) => out.push_str(&format_float(*f)),
            Value::Str(s) => return write_string_literal_within(out, s, limit),
            // A name that cannot be read back as a keyword or a symbol
            // (spaces, parentheses, quotes: a parameter name from an
            // imported document) is written as a string literal, never
            // verbatim: printed text must not become code when parsed.
            Value::Keyword(k) if crate::syntax::is_valid_keyword_name(k) => {
                out.push(':');
                out.push_str(k);
            }
            Value::Symbol(s) if crate::syntax::is_valid_symbol_name(s) || is_literal_symbol(s) => {
                out.push_str(s)
            }
            Value::Keyword(name) | Value::Symbol(name) => {
                return write_string_literal_within(out, name, limit);
            }
            Value::List(items) => return write_seq(out, '(', ')', items, limit),
            Value::Vector(items) => return write_seq(out, '[', ']', items, limit),
            Value::Map(m) => {
                out.push('{');
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    if !write_value(out, k, limit) {
                        return false;
                    }
                    out.push(' ');
                    if !write_value(out, v, limit) {
                        return false;
                    }
                }
                out.push('}');
            }
            Value::Function(f) => {
                out.push_str("#<fn ");
                out.push_str(&match f {
                    Function::Builtin(b) => b.name().to_string(),
                    Function::Closure(c) => c.name.as_deref().unwrap_or("anonymous").to_string(),
                });
                out.push('>');
            }
        }
        out.len() <= limit
    })
}

fn write_seq(out: &mut String, open: char, close: char, items: &[Value], limit: usize) -> bool {
    out.push(open);
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        if !write_value(out, item, limit) {
            return false;
        }
    }
    out.push(close);
    out.len() <= limit
}

/// The canonical multi-line layout of `v` for a line width of `width`.
///
/// A form that fits on the rest of the line is printed on one line.
/// Otherwise a list keeps its head (and, for `step`, `let`, `if`, `call`
/// and friends, its first argument) on the opening line and puts each
/// further element on its own line indented by two; vectors and maps put
/// one element (or key/value pair) per line aligned after the opener.
pub fn pretty(v: &Value, width: usize) -> String {
    let mut out = String::new();
    write_pretty(&mut out, v, 0, width);
    out
}

fn write_pretty(out: &mut String, v: &Value, indent: usize, width: usize) {
    let flat = print_value(v);
    if indent + flat.len() <= width || !is_breakable(v) {
        out.push_str(&flat);
        return;
    }
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || match v {
        Value::List(items) => {
            out.push('(');
            let head_args = match items.first() {
                Some(Value::Symbol(s)) => match &**s {
                    "step" | "call" | "let" | "if" | "when" | "fn" | "step-loop" | "match"
                    | "def" | "catch" => 1,
                    "defn" => 2,
                    _ => 0,
                },
                _ => 0,
            };
            let inline = (1 + head_args).min(items.len());
            let binds = matches!(items.first(), Some(Value::Symbol(s)) if matches!(&**s, "let" | "step-loop"));
            let mut col = indent + 1;
            for (i, item) in items[..inline].iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                    col += 1;
                }
                let start = out.len();
                match item {
                    Value::Vector(pairs) if binds && i == 1 => {
                        write_bindings(out, pairs, col, width)
                    }
                    _ => write_pretty(out, item, col, width),
                }
                col += out.len() - start;
            }
            for item in &items[inline..] {
                out.push('\n');
                push_indent(out, indent + 2);
                write_pretty(out, item, indent + 2, width);
            }
            out.push(')');
        }
        Value::Vector(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push('\n');
                    push_indent(out, indent + 1);
                }
                write_pretty(out, item, indent + 1, width);
            }
            out.push(']');
        }
        Value::Map(m) => {
            out.push('{');
            for (i, (k, val)) in m.iter().enumerate() {
                if i > 0 {
                    out.push('\n');
                    push_indent(out, indent + 1);
                }
                let key = print_value(k);
                out.push_str(&key);
                out.push(' ');
                write_pretty(out, val, indent + 2 + key.len(), width);
            }
            out.push('}');
        }
        _ => out.push_str(&flat),
    })
}

/// A binding vector (`let`, `step-loop`) as one `name value` pair per line,
/// each value laid out after its name.
fn write_bindings(out: &mut String, pairs: &[Value], indent: usize, width: usize) {
    let flat = print_value(&Value::vector(pairs.to_vec()));
    if indent + flat.len() <= width {
        out.push_str(&flat);
        return;
    }
    out.push('[');
    for (i, pair) in pairs.chunks(2).enumerate() {
        if i > 0 {
            out.push('\n');
            push_indent(out, indent + 1);
        }
        let name = print_value(&pair[0]);
        out.push_str(&name);
        if let Some(value) = pair.get(1) {
            out.push(' ');
            write_pretty(out, value, indent + 2 + name.len(), width);
        }
    }
    out.push(']');
}

fn is_breakable(v: &Value) -> bool {
    matches!(v, Value::List(i) | Value::Vector(i) if !i.is_empty())
        || matches!(v, Value::Map(m) if !m.is_empty())
}

fn push_indent(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

/// `nil`, `true` and `false` are symbols the parser reads as literals.
fn is_literal_symbol(s: &str) -> bool {
    matches!(s, "nil" | "true" | "false")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser::parse_one;

    fn canon(src: &str) -> String {
        print_expr(&parse_one(src).unwrap())
    }

    #[test]
    fn maps_print_in_key_order() {
        assert_eq!(
            canon("{:b 2, :a 1, \"s\" 0, 3 x}"),
            "{3 x \"s\" 0 :a 1 :b 2}"
        );
    }

    #[test]
    fn floats_read_back_as_floats() {
        assert_eq!(format_float(1.0), "1.0");
        assert_eq!(format_float(-0.0), "-0.0");
        assert_eq!(format_float(1e300), "1e300");
        assert_eq!(format_float(f64::NAN), "##NaN");
        assert_eq!(canon("2.50"), "2.5");
    }

    /// A name from outside (an imported parameter) that is not a keyword
    /// token is printed as a string: its text never becomes code.
    #[test]
    fn names_that_are_not_tokens_print_as_strings() {
        let hostile =
            r#"units (do (call :ccos.file.write {:path "x" :content "x"}) "metric") :lang"#;
        let m = Value::map([
            (Value::keyword(hostile), Value::string("metric")),
            (Value::keyword("city"), Value::string("Paris")),
        ]);
        let printed = print_value(&m);
        let back = parse_one(&printed).unwrap();
        let crate::syntax::ExprKind::Map(entries) = &back.kind else {
            panic!("{printed}")
        };
        assert_eq!(entries.len(), 2, "{printed}");
        // Read back, the name is the string it was: data, not a call.
        assert_eq!(
            back.to_value(),
            Value::map([
                (Value::string(hostile), Value::string("metric")),
                (Value::keyword("city"), Value::string("Paris")),
            ])
        );
        assert!(printed.contains(":city \"Paris\""), "{printed}");
        assert_eq!(print_value(&Value::Symbol("a b".into())), "\"a b\"");
        assert_eq!(print_value(&Value::Symbol("nil".into())), "nil");
    }

    #[test]
    fn strings_escape() {
        assert_eq!(canon(r#""a\"b\n\u0001""#), r#""a\"b\n\u0001""#);
    }

    #[test]
    fn pretty_breaks_long_forms() {
        let src = "(do (step \"Fetch the issues\" (call :github.issues.list {:owner \"mandubian\" :repo \"ccos\" :state \"all\"})) (step \"Greet\" (call :ccos.echo {:message \"hi\"})))";
        let v = parse_one(src).unwrap().to_value();
        let p = pretty(&v, 60);
        let narrow = pretty(&v, 40);
        assert!(narrow.contains("{:owner \"mandubian\"\n"), "{narrow}");
        assert_eq!(
            p,
            "(do\n  (step \"Fetch the issues\"\n    (call :github.issues.list\n      {:owner \"mandubian\" :repo \"ccos\" :state \"all\"}))\n  (step \"Greet\" (call :ccos.echo {:message \"hi\"})))"
        );
        // let bindings keep each name beside its value
        let v = parse_one("(let [s1 (step \"read the file\" (call :ccos.file.read {:path \"README.md\"})) s2 (step \"count\" (call :ccos.text.count_words {:text s1}))] s2)").unwrap().to_value();
        assert_eq!(
            pretty(&v, 80),
            "(let [s1 (step \"read the file\" (call :ccos.file.read {:path \"README.md\"}))\n      s2 (step \"count\" (call :ccos.text.count_words {:text s1}))]\n  s2)"
        );
        // stable: pretty of the re-parsed pretty output is identical
        let again = pretty(&parse_one(&p).unwrap().to_value(), 60);
        assert_eq!(p, again);
    }
}
