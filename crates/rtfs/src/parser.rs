//! The recursive-descent parser: tokens to [`Expr`] trees.
//!
//! Nesting is bounded ([`MAX_NESTING`]) so hostile input cannot exhaust the
//! stack. Unbalanced delimiters are reported at their opener, mismatched ones
//! at the closer with the opener as a secondary label.

use crate::error::{ErrorKind, Result, RtfsError, Span};
use crate::lexer::{Lexer, Token};
use crate::syntax::{Expr, ExprKind};

/// The deepest nesting of lists, vectors and maps the parser accepts.
pub const MAX_NESTING: usize = 512;

/// Parses a whole program: zero or more top-level forms.
pub fn parse(src: &str) -> Result<Vec<Expr>> {
    let mut p = Parser::new(src);
    let mut out = Vec::new();
    while let Some(tok) = p.next()? {
        out.push(p.form(tok, 0)?);
    }
    Ok(out)
}

/// Parses exactly one form; anything else (nothing, or trailing forms) is an
/// error.
pub fn parse_one(src: &str) -> Result<Expr> {
    let mut p = Parser::new(src);
    let Some(tok) = p.next()? else {
        return Err(
            RtfsError::new(ErrorKind::Syntax, "expected a form, found end of input")
                .at(Span::new(src.len(), src.len())),
        );
    };
    let form = p.form(tok, 0)?;
    if let Some((_, span)) = p.next()? {
        return Err(
            RtfsError::new(ErrorKind::Syntax, "unexpected input after the form")
                .at(span)
                .with_help("wrap several forms in `(do ...)`"),
        );
    }
    Ok(form)
}

struct Parser<'a> {
    lexer: Lexer<'a>,
    src_len: usize,
}

#[derive(Clone, Copy)]
enum Delim {
    Paren,
    Bracket,
    Brace,
}

impl Delim {
    fn open(self) -> char {
        match self {
            Delim::Paren => '(',
            Delim::Bracket => '[',
            Delim::Brace => '{',
        }
    }
    fn close(self) -> char {
        match self {
            Delim::Paren => ')',
            Delim::Bracket => ']',
            Delim::Brace => '}',
        }
    }
}

fn closer(tok: &Token) -> Option<Delim> {
    match tok {
        Token::RParen => Some(Delim::Paren),
        Token::RBracket => Some(Delim::Bracket),
        Token::RBrace => Some(Delim::Brace),
        _ => None,
    }
}

impl<'a> Parser<'a> {
    fn new(src: &'a str) -> Self {
        Parser {
            lexer: Lexer::new(src),
            src_len: src.len(),
        }
    }

    fn next(&mut self) -> Result<Option<(Token, Span)>> {
        self.lexer.next_token()
    }

    fn form(&mut self, (tok, span): (Token, Span), depth: usize) -> Result<Expr> {
        let kind = match tok {
            Token::Int(i) => ExprKind::Int(i),
            Token::Float(f) => ExprKind::Float(f),
            Token::Str(s) => ExprKind::Str(s),
            Token::Keyword(k) => ExprKind::Keyword(k),
            Token::Symbol(s) => match &*s {
                "nil" => ExprKind::Nil,
                "true" => ExprKind::Bool(true),
                "false" => ExprKind::Bool(false),
                _ => ExprKind::Symbol(s),
            },
            Token::Quote => {
                if depth >= MAX_NESTING {
                    return Err(RtfsError::new(
                        ErrorKind::Syntax,
                        format!("nesting deeper than {MAX_NESTING} levels"),
                    )
                    .at(span));
                }
                let Some(next) = self.next()? else {
                    return Err(RtfsError::new(
                        ErrorKind::Syntax,
                        "`'` must be followed by a form",
                    )
                    .at(span));
                };
                let quoted =
                    stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.form(next, depth + 1))?;
                let full = span.join(quoted.span);
                return Ok(Expr::new(
                    ExprKind::List(vec![
                        Expr::new(ExprKind::Symbol("quote".into()), span),
                        quoted,
                    ]),
                    full,
                ));
            }
            Token::LParen => return self.seq(Delim::Paren, span, depth),
            Token::LBracket => return self.seq(Delim::Bracket, span, depth),
            Token::LBrace => return self.seq(Delim::Brace, span, depth),
            Token::RParen | Token::RBracket | Token::RBrace => {
                let c = closer(&tok).map(Delim::close).unwrap_or(')');
                return Err(RtfsError::new(
                    ErrorKind::Syntax,
                    format!("unexpected `{c}` with no matching opener"),
                )
                .at(span)
                .with_help("remove it, or add the missing opener before it"));
            }
        };
        Ok(Expr::new(kind, span))
    }

    fn seq(&mut self, delim: Delim, open: Span, depth: usize) -> Result<Expr> {
        if depth >= MAX_NESTING {
            return Err(RtfsError::new(
                ErrorKind::Syntax,
                format!("nesting deeper than {MAX_NESTING} levels"),
            )
            .at(open));
        }
        let mut items = Vec::new();
        loop {
            let Some((tok, span)) = self.next()? else {
                return Err(RtfsError::new(
                    ErrorKind::Syntax,
                    format!("unclosed `{}`", delim.open()),
                )
                .at(open)
                .with_help(format!(
                    "add `{}` to close it (end of input reached at byte {})",
                    delim.close(),
                    self.src_len
                )));
            };
            if let Some(found) = closer(&tok) {
                if found.close() != delim.close() {
                    return Err(RtfsError::new(
                        ErrorKind::Syntax,
                        format!(
                            "mismatched delimiter: `{}` closes `{}`",
                            found.close(),
                            delim.open()
                        ),
                    )
                    .at(span)
                    .with_related(open, "opened here")
                    .with_help(format!("expected `{}`", delim.close())));
                }
                let full = open.join(span);
                return match delim {
                    Delim::Paren => Ok(Expr::new(ExprKind::List(items), full)),
                    Delim::Bracket => Ok(Expr::new(ExprKind::Vector(items), full)),
                    Delim::Brace => map_from_items(items, full),
                };
            }
            let item =
                stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.form((tok, span), depth + 1))?;
            items.push(item);
        }
    }
}

fn map_from_items(items: Vec<Expr>, span: Span) -> Result<Expr> {
    if !items.len().is_multiple_of(2) {
        let last = items.last().map(|e| e.span).unwrap_or(span);
        return Err(
            RtfsError::new(ErrorKind::Syntax, "map literal has an odd number of forms")
                .at(last)
                .with_related(span, "in this map")
                .with_help("every key needs a value: `{:k v ...}`"),
        );
    }
    let mut entries = Vec::with_capacity(items.len() / 2);
    let mut seen: std::collections::BTreeMap<crate::value::Value, Span> = Default::default();
    let mut iter = items.into_iter();
    while let (Some(k), Some(v)) = (iter.next(), iter.next()) {
        if k.is_constant() {
            let key = k.to_value();
            if let Some(first) = seen.get(&key) {
                return Err(RtfsError::new(
                    ErrorKind::Syntax,
                    format!("duplicate key {key} in map literal"),
                )
                .at(k.span)
                .with_related(*first, "first used here")
                .with_help("each key may appear once in a map literal"));
            }
            seen.insert(key, k.span);
        }
        entries.push((k, v));
    }
    Ok(Expr::new(ExprKind::Map(entries), span))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(src: &str) -> Expr {
        parse_one(src).unwrap()
    }

    #[test]
    fn spans_cover_their_forms() {
        let e = one("(call :ccos.echo {:message \"hi\"})");
        assert_eq!(e.span, Span::new(0, 33));
        let items = e.as_list().unwrap();
        assert_eq!(items[1].span, Span::new(6, 16));
        assert_eq!(items[2].span, Span::new(17, 32));
    }

    #[test]
    fn literals() {
        assert_eq!(one("nil").kind, ExprKind::Nil);
        assert_eq!(one("true").kind, ExprKind::Bool(true));
        assert_eq!(one("false").kind, ExprKind::Bool(false));
        assert_eq!(one("'x").to_value().to_string(), "(quote x)");
        assert!(matches!(one("{1 2, [3] 4}").kind, ExprKind::Map(ref m) if m.len() == 2));
    }

    #[test]
    fn unbalanced_points_at_opener() {
        let e = parse("(do (step \"a\" (call :x))").unwrap_err();
        assert_eq!(e.message, "unclosed `(`");
        assert_eq!(e.span, Some(Span::new(0, 1)));
    }

    #[test]
    fn mismatched_points_at_closer_and_opener() {
        let e = parse("(do [1 2)").unwrap_err();
        assert!(e.message.contains("mismatched"));
        assert_eq!(e.span, Some(Span::new(8, 9)));
        assert_eq!(e.related.as_ref().map(|r| r.0), Some(Span::new(4, 5)));
    }

    #[test]
    fn stray_closer() {
        let e = parse("1 )").unwrap_err();
        assert!(e.message.contains("no matching opener"));
    }

    #[test]
    fn odd_and_duplicate_maps() {
        assert!(parse("{:a 1 :b}").unwrap_err().message.contains("odd"));
        let e = parse("{:a 1 :a 2}").unwrap_err();
        assert!(e.message.contains("duplicate key :a"));
        assert_eq!(e.span, Some(Span::new(6, 8)));
        // non-literal keys are not compared
        assert!(parse("{x 1 x 2}").is_ok());
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = "(".repeat(MAX_NESTING + 10);
        let e = parse(&deep).unwrap_err();
        assert!(e.message.contains("nesting"));
        // Quote marks nest too (found by fuzzing).
        let quotes = format!("{}x", "'".repeat(MAX_NESTING + 10));
        assert!(parse(&quotes).unwrap_err().message.contains("nesting"));
        let ok = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(parse(&ok).is_ok());
    }

    #[test]
    fn parse_one_rejects_trailing_and_empty() {
        assert!(parse_one("1 2").is_err());
        assert!(parse_one("  ; only a comment").is_err());
        assert_eq!(parse("").unwrap(), vec![]);
    }
}
