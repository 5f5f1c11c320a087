//! The recursive-descent parser: tokens to [`Expr`] trees.
//!
//! Nesting is bounded ([`MAX_NESTING`]) so hostile input cannot exhaust the
//! stack. Unbalanced delimiters are reported at their opener, mismatched ones
//! at the closer with the opener as a secondary label.
//!
//! Reader forms are resolved here, so the tree has only the shapes of
//! [`ExprKind`]:
//!
//! * `'x` is `(quote x)` and `@x` is `(deref x)`;
//! * `#(* % %2)` is `(fn [%1 %2] (* %1 %2))` (`%` is `%1`; `%&` takes the
//!   remaining arguments);
//! * `^{:doc "..."} form`, `^:private form` and `^Tag form` attach a
//!   metadata map to the form ([`Expr::meta`]);
//! * a type-annotation colon is folded into the type that follows it:
//!   `[y : Int]` and `[y:Int]` read as `[y :Int]`, `[m : {:a :int}]` as
//!   `[m [:map {:a :int}]]`. A colon is allowed after a binding pattern in
//!   a vector, after the parameter vector of `fn`/`defn` (return type) and
//!   after the name in `def`; anywhere else it is an error.

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
    /// Inside `#(...)`, where another `#(` is an error (as in Clojure).
    in_anon_fn: bool,
}

/// The largest `%N` of an anonymous-function literal.
pub const MAX_ANON_FN_PARAMS: usize = 20;

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
            lexer: Lexer::new(src).with_type_colons(),
            src_len: src.len(),
            in_anon_fn: false,
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
            Token::At => {
                let target = self.prefixed(span, depth, "`@` must be followed by a form")?;
                let full = span.join(target.span);
                return Ok(Expr::new(
                    ExprKind::List(vec![
                        Expr::new(ExprKind::Symbol("deref".into()), span),
                        target,
                    ]),
                    full,
                ));
            }
            Token::Caret => return self.with_meta(span, depth),
            Token::HashParen => return self.anon_fn(span, depth),
            Token::Colon => return Err(misplaced_colon(span)),
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
            if matches!(tok, Token::Colon) {
                if !colon_allowed(delim, &items) {
                    return Err(misplaced_colon(span));
                }
                let ty = self.prefixed(span, depth, "expected a type after `:`")?;
                items.push(annotation(ty, span)?);
                continue;
            }
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

impl Parser<'_> {
    /// Reads the form after a prefix token (`@`, `^meta`, a type colon);
    /// `missing` is the message when there is none.
    fn prefixed(&mut self, prefix: Span, depth: usize, missing: &str) -> Result<Expr> {
        if depth >= MAX_NESTING {
            return Err(RtfsError::new(
                ErrorKind::Syntax,
                format!("nesting deeper than {MAX_NESTING} levels"),
            )
            .at(prefix));
        }
        match self.next()? {
            Some((tok, span)) if closer(&tok).is_none() => {
                stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.form((tok, span), depth + 1))
            }
            Some((_, span)) => Err(RtfsError::new(ErrorKind::Syntax, missing)
                .at(span)
                .with_related(prefix, "this needs a form after it")),
            None => Err(RtfsError::new(ErrorKind::Syntax, missing).at(prefix)),
        }
    }

    /// `^meta form`: reads the metadata, normalises it to a map and attaches
    /// it to the form (merged over metadata the form already has, the
    /// outer `^` winning on equal keys).
    fn with_meta(&mut self, caret: Span, depth: usize) -> Result<Expr> {
        let meta = self.prefixed(caret, depth, "`^` must be followed by metadata and a form")?;
        let meta_span = caret.join(meta.span);
        let entries = match meta.kind {
            ExprKind::Map(entries) => entries,
            ExprKind::Keyword(_) => vec![(meta, Expr::new(ExprKind::Bool(true), caret))],
            ExprKind::Symbol(_) | ExprKind::Str(_) => {
                vec![(Expr::new(ExprKind::Keyword("tag".into()), caret), meta)]
            }
            _ => {
                return Err(RtfsError::new(
                    ErrorKind::Syntax,
                    "metadata must be a map, a keyword or a symbol",
                )
                .at(meta.span)
                .with_help("write ^{:doc \"...\"} form, ^:private form or ^Type form"));
            }
        };
        let mut target = self.prefixed(caret, depth, "metadata must be followed by a form")?;
        let mut merged = match target.meta.take().map(|m| m.kind) {
            Some(ExprKind::Map(inner)) => inner,
            _ => vec![],
        };
        for (k, v) in entries {
            if k.is_constant() {
                let key = k.to_value();
                merged.retain(|(old, _)| !(old.is_constant() && old.to_value() == key));
            }
            merged.push((k, v));
        }
        target.meta = Some(Box::new(Expr::new(ExprKind::Map(merged), meta_span)));
        Ok(target)
    }

    /// `#(body...)`: `(fn [%1 ... %n & %&] (body...))`, where `n` is the
    /// largest `%N` used (`%` is `%1`).
    fn anon_fn(&mut self, open: Span, depth: usize) -> Result<Expr> {
        if self.in_anon_fn {
            return Err(
                RtfsError::new(ErrorKind::Syntax, "nested #(...) are not allowed")
                    .at(open)
                    .with_help("write the inner function with (fn [x] ...)"),
            );
        }
        self.in_anon_fn = true;
        let body = self.seq(Delim::Paren, open, depth);
        self.in_anon_fn = false;
        let mut body = body?;
        let mut uses = AnonParams::default();
        uses.scan(&mut body)?;
        let mut params: Vec<Expr> = (1..=uses.max)
            .map(|i| Expr::new(ExprKind::Symbol(format!("%{i}").into()), open))
            .collect();
        if uses.rest {
            params.push(Expr::new(ExprKind::Symbol("&".into()), open));
            params.push(Expr::new(ExprKind::Symbol("%&".into()), open));
        }
        let full = body.span;
        Ok(Expr::new(
            ExprKind::List(vec![
                Expr::new(ExprKind::Symbol("fn".into()), open),
                Expr::new(ExprKind::Vector(params), open),
                body,
            ]),
            full,
        ))
    }
}

/// The `%` parameters an anonymous-function literal uses.
#[derive(Default)]
struct AnonParams {
    max: usize,
    rest: bool,
}

impl AnonParams {
    /// Records every `%`, `%N` and `%&` in `e`, renaming `%` to `%1`.
    fn scan(&mut self, e: &mut Expr) -> Result<()> {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
            match &mut e.kind {
                ExprKind::Symbol(s) if s.starts_with('%') => {
                    let digits = &s[1..];
                    if digits.is_empty() {
                        self.max = self.max.max(1);
                        *s = "%1".into();
                    } else if digits == "&" {
                        self.rest = true;
                    } else if digits.bytes().all(|b| b.is_ascii_digit()) {
                        match digits.parse::<usize>() {
                            Ok(n) if (1..=MAX_ANON_FN_PARAMS).contains(&n) => {
                                self.max = self.max.max(n)
                            }
                            _ => {
                                return Err(RtfsError::new(
                                    ErrorKind::Syntax,
                                    format!("`{s}` is not an argument of #(...)"),
                                )
                                .at(e.span)
                                .with_help(format!(
                                    "arguments are % (or %1) to %{MAX_ANON_FN_PARAMS}, and %& for the rest"
                                )));
                            }
                        }
                    }
                }
                ExprKind::List(items) | ExprKind::Vector(items) => {
                    for i in items {
                        self.scan(i)?;
                    }
                }
                ExprKind::Map(entries) => {
                    for (k, v) in entries {
                        self.scan(k)?;
                        self.scan(v)?;
                    }
                }
                _ => {}
            }
            Ok(())
        })
    }
}

/// Whether a type-annotation colon may follow `items` inside `delim`:
/// after a binding pattern in a vector (`[x : Int]`); after the parameter
/// vector of `fn`/`defn` or of one arity `([x] : Int ...)` (return type);
/// after the name in `(def x : Int ...)`.
fn colon_allowed(delim: Delim, items: &[Expr]) -> bool {
    let Some(last) = items.last() else {
        return false;
    };
    match delim {
        Delim::Bracket => match &last.kind {
            ExprKind::Symbol(s) => &**s != "&",
            ExprKind::Vector(_) | ExprKind::Map(_) => true,
            _ => false,
        },
        Delim::Paren => {
            let head = items.first().and_then(Expr::as_symbol);
            match &last.kind {
                ExprKind::Vector(_) => {
                    items.len() == 1 || matches!(head, Some("fn" | "defn" | "defn-" | "λ"))
                }
                ExprKind::Symbol(_) => head == Some("def") && items.len() == 2,
                _ => false,
            }
        }
        Delim::Brace => false,
    }
}

/// The type after an annotation colon, as it is kept in the tree: a symbol
/// becomes the keyword of the same name (`Int` → `:Int`), a map becomes a
/// record type (`{:a :int}` → `[:map {:a :int}]`); keywords, vectors and
/// lists stay as they are.
fn annotation(ty: Expr, colon: Span) -> Result<Expr> {
    let span = ty.span;
    Ok(match ty.kind {
        ExprKind::Symbol(s) => Expr::new(ExprKind::Keyword(s), span),
        ExprKind::Nil => Expr::new(ExprKind::Keyword("nil".into()), span),
        ExprKind::Keyword(_) | ExprKind::Vector(_) | ExprKind::List(_) => ty,
        ExprKind::Map(_) => Expr::new(
            ExprKind::Vector(vec![Expr::new(ExprKind::Keyword("map".into()), colon), ty]),
            colon.join(span),
        ),
        _ => {
            return Err(RtfsError::new(
                ErrorKind::Syntax,
                format!(
                    "expected a type after `:`, found `{}`",
                    crate::printer::print_expr(&ty)
                ),
            )
            .at(span)
            .with_related(colon, "type annotation")
            .with_help(
                "write a type such as :int, Int, [:vector :string] or [:map [:name :string]]",
            ));
        }
    })
}

fn misplaced_colon(span: Span) -> RtfsError {
    RtfsError::new(
        ErrorKind::Syntax,
        "a keyword needs a name after `:`",
    )
    .at(span)
    .with_help("a `:` on its own (or in `x:int`) is a type annotation, allowed after a parameter or binding name: [x : Int], [x:int], (defn f [x] : Int ...)")
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

    fn canon(src: &str) -> String {
        crate::printer::print_expr(&one(src))
    }

    fn fails(src: &str) -> RtfsError {
        match parse(src) {
            Ok(forms) => panic!("{src} parsed as {forms:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn anonymous_function_literals() {
        assert_eq!(canon("#(* % %)"), "(fn [%1] (* %1 %1))");
        assert_eq!(canon("#(+ %1 %3)"), "(fn [%1 %2 %3] (+ %1 %3))");
        assert_eq!(canon("#(apply + % %&)"), "(fn [%1 & %&] (apply + %1 %&))");
        assert_eq!(canon("#(vector)"), "(fn [] (vector))");
        assert_eq!(canon("#(get {:k %} :k)"), "(fn [%1] (get {:k %1} :k))");
        // the canonical form reads back to the same tree
        let once = canon("#(+ % (* %2 2))");
        assert_eq!(canon(&once), once);
        let e = one("#(inc %)");
        assert_eq!(e.span, Span::new(0, 8));
        assert!(fails("#(map #(inc %) %)").message.contains("nested"));
        assert!(
            fails("#(+ %0 1)")
                .message
                .contains("`%0` is not an argument")
        );
        assert!(fails("#(+ %21 1)").message.contains("%21"));
        assert_eq!(fails("#(+ 1").message, "unclosed `(`");
    }

    #[test]
    fn deref_reads_as_a_call() {
        assert_eq!(canon("@x"), "(deref x)");
        assert_eq!(canon("[@(f) 1]"), "[(deref (f)) 1]");
        assert!(fails("@").message.contains("`@` must be followed"));
        assert!(fails("[@]").message.contains("`@` must be followed"));
    }

    #[test]
    fn metadata_is_kept_beside_the_form() {
        let e = one("^{:doc \"adds\"} (defn add [a b] (+ a b))");
        assert_eq!(
            canon("^{:doc \"adds\"} (defn add [a b] (+ a b))"),
            "(defn add [a b] (+ a b))"
        );
        assert_eq!(e.meta_entries().len(), 1);
        assert_eq!(e.meta_entries()[0].0.as_keyword(), Some("doc"));
        assert_eq!(e.as_list().map(<[Expr]>::len), Some(4));
        let e = one("^:private ^{:a 1 :private false} x");
        let meta = e.meta.as_deref().map(Expr::to_value).map(|v| v.to_string());
        assert_eq!(meta.as_deref(), Some("{:a 1 :private true}"));
        let e = one("^String s");
        assert_eq!(e.meta_entries()[0].0.as_keyword(), Some("tag"));
        let e = one("(defn ^{:private true} f [x] x)");
        let name = &e.as_list().unwrap()[1];
        assert_eq!(name.as_symbol(), Some("f"));
        assert!(name.meta.is_some());
        assert!(fails("^5 x").message.contains("metadata must be a map"));
        assert!(fails("^:a").message.contains("must be followed by a form"));
        assert!(
            fails("(f ^:a)")
                .message
                .contains("must be followed by a form")
        );
    }

    #[test]
    fn radix_integers_and_ratios() {
        assert_eq!(one("0x1F").kind, ExprKind::Int(31));
        assert_eq!(one("0XfF").kind, ExprKind::Int(255));
        assert_eq!(one("-0x10").kind, ExprKind::Int(-16));
        assert_eq!(one("0o17").kind, ExprKind::Int(15));
        assert_eq!(one("0b101").kind, ExprKind::Int(5));
        assert_eq!(one("+0b1").kind, ExprKind::Int(1));
        assert_eq!(one("017").kind, ExprKind::Int(17));
        assert_eq!(one("-0x8000000000000000").kind, ExprKind::Int(i64::MIN));
        assert!(fails("0x8000000000000000").message.contains("does not fit"));
        assert!(fails("0x").message.contains("invalid hexadecimal"));
        assert!(fails("0o8").message.contains("invalid octal"));
        assert!(fails("0b102").message.contains("invalid binary"));
        let e = fails("(+ 1/2 1)");
        assert_eq!(e.message, "ratio literal `1/2` is not supported");
        assert_eq!(e.span, Some(Span::new(3, 6)));
        assert!(e.help.unwrap_or_default().contains("(/ 1 2)"));
        assert!(fails("-3/4").message.contains("ratio"));
    }

    #[test]
    fn type_annotation_colons_fold_into_the_type() {
        assert_eq!(canon("[x :int y :int]"), "[x :int y :int]");
        assert_eq!(canon("[y : Int]"), "[y :Int]");
        assert_eq!(canon("[x:int y:string]"), "[x :int y :string]");
        assert_eq!(canon("[x: int]"), "[x :int]");
        assert_eq!(canon("[xs : [:vector :int]]"), "[xs [:vector :int]]");
        assert_eq!(canon("[m : {:a :int}]"), "[m [:map {:a :int}]]");
        assert_eq!(canon("[v : nil]"), "[v :nil]");
        assert_eq!(
            canon("[[a b] : [:tuple :int :int]]"),
            "[[a b] [:tuple :int :int]]"
        );
        assert_eq!(
            canon("(defn add [a:int b:int]:int (+ a b))"),
            "(defn add [a :int b :int] :int (+ a b))"
        );
        assert_eq!(canon("(defn f [x] : Int x)"), "(defn f [x] :Int x)");
        assert_eq!(canon("(fn [x] : Int x)"), "(fn [x] :Int x)");
        assert_eq!(canon("(defn f ([x] : Int x))"), "(defn f ([x] :Int x))");
        assert_eq!(canon("(def n : Int 5)"), "(def n :Int 5)");
        assert_eq!(
            canon("(let [x : (or :int :string) 1] x)"),
            "(let [x (or :int :string) 1] x)"
        );
        // a colon is an error where no annotation can be
        for bad in [
            ": x",
            "(f : x)",
            "{:a : x}",
            "[1 : Int]",
            "[& : Int]",
            "[x :]",
            "(def : Int 1)",
        ] {
            let e = fails(bad);
            assert!(
                e.message.contains("needs a name") || e.message.contains("expected a type"),
                "{bad}: {}",
                e.message
            );
        }
        assert!(
            fails("{:url http://x.org}")
                .message
                .contains("needs a name")
        );
        assert!(
            fails("[x : 5]")
                .message
                .contains("expected a type after `:`, found `5`")
        );
        // the plain lexer still rejects them
        let mut l = crate::lexer::Lexer::new("x:int");
        assert!(l.next_token().is_err());
    }

    #[test]
    fn parse_one_rejects_trailing_and_empty() {
        assert!(parse_one("1 2").is_err());
        assert!(parse_one("  ; only a comment").is_err());
        assert_eq!(parse("").unwrap(), vec![]);
    }
}
