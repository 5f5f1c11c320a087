//! The lexer: source text to tokens, each with its byte span.
//!
//! Hand-written over bytes for speed; non-ASCII characters are allowed in
//! symbols, keywords and strings. Whitespace, commas and `;` comments are
//! skipped.

use std::sync::Arc;

use crate::error::{ErrorKind, Result, RtfsError, Span};

/// A lexical token.
#[derive(Debug, Clone, PartialEq)]
pub enum Token {
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `'` (quote reader macro)
    Quote,
    /// A string literal, escapes resolved.
    Str(Arc<str>),
    /// An integer literal.
    Int(i64),
    /// A float literal.
    Float(f64),
    /// `:name`, without the colon.
    Keyword(Arc<str>),
    /// A symbol, including `nil`, `true` and `false` (the parser decides).
    Symbol(Arc<str>),
}

/// True for characters allowed inside symbols and keywords.
pub fn is_symbol_char(c: char) -> bool {
    c.is_alphanumeric()
        || matches!(
            c,
            '.' | '/' | '+' | '-' | '*' | '=' | '<' | '>' | '!' | '?' | '_' | '&' | '%' | '$'
        )
}

fn is_delimiter(b: u8) -> bool {
    matches!(
        b,
        b'(' | b')' | b'[' | b']' | b'{' | b'}' | b'"' | b';' | b',' | b' ' | b'\t' | b'\n' | b'\r'
    )
}

/// Turns source text into tokens on demand.
pub struct Lexer<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `src`.
    pub fn new(src: &'a str) -> Self {
        Lexer {
            src,
            bytes: src.as_bytes(),
            pos: 0,
        }
    }

    fn skip_trivia(&mut self) {
        while let Some(&b) = self.bytes.get(self.pos) {
            match b {
                b' ' | b'\t' | b'\n' | b'\r' | b',' => self.pos += 1,
                b';' => {
                    while let Some(&b) = self.bytes.get(self.pos) {
                        if b == b'\n' {
                            break;
                        }
                        self.pos += 1;
                    }
                }
                _ => {
                    // Unicode whitespace (e.g. NBSP) is whitespace too.
                    if b >= 0x80
                        && let Some(c) = self.src[self.pos..].chars().next()
                        && c.is_whitespace()
                    {
                        self.pos += c.len_utf8();
                        continue;
                    }
                    break;
                }
            }
        }
    }

    /// The next token and its span, `None` at the end of input.
    pub fn next_token(&mut self) -> Result<Option<(Token, Span)>> {
        self.skip_trivia();
        let start = self.pos;
        let Some(&b) = self.bytes.get(start) else {
            return Ok(None);
        };
        let single = |t: Token| Ok(Some((t, Span::new(start, start + 1))));
        match b {
            b'(' => {
                self.pos += 1;
                single(Token::LParen)
            }
            b')' => {
                self.pos += 1;
                single(Token::RParen)
            }
            b'[' => {
                self.pos += 1;
                single(Token::LBracket)
            }
            b']' => {
                self.pos += 1;
                single(Token::RBracket)
            }
            b'{' => {
                self.pos += 1;
                single(Token::LBrace)
            }
            b'}' => {
                self.pos += 1;
                single(Token::RBrace)
            }
            b'\'' => {
                self.pos += 1;
                single(Token::Quote)
            }
            b'"' => self.string(start).map(Some),
            b':' => self.keyword(start).map(Some),
            b'#' => self.hash(start).map(Some),
            _ => self.atom(start).map(Some),
        }
    }

    fn take_atom_text(&mut self) -> &'a str {
        let start = self.pos;
        while let Some(&b) = self.bytes.get(self.pos) {
            if is_delimiter(b) {
                break;
            }
            if b >= 0x80 {
                let c = self.src[self.pos..].chars().next().unwrap_or(' ');
                if c.is_whitespace() {
                    break;
                }
                self.pos += c.len_utf8();
            } else {
                self.pos += 1;
            }
        }
        &self.src[start..self.pos]
    }

    fn hash(&mut self, start: usize) -> Result<(Token, Span)> {
        let text = self.take_atom_text();
        let span = Span::new(start, self.pos);
        let value = match text {
            "##NaN" => f64::NAN,
            "##Inf" => f64::INFINITY,
            "##-Inf" => f64::NEG_INFINITY,
            _ => {
                return Err(RtfsError::new(
                    ErrorKind::Syntax,
                    format!("unknown dispatch literal `{text}`"),
                )
                .at(span)
                .with_help("the only `#` forms are ##NaN, ##Inf and ##-Inf"));
            }
        };
        Ok((Token::Float(value), span))
    }

    fn keyword(&mut self, start: usize) -> Result<(Token, Span)> {
        self.pos += 1;
        let text = self.take_atom_text();
        let span = Span::new(start, self.pos);
        if text.is_empty() {
            return Err(
                RtfsError::new(ErrorKind::Syntax, "a keyword needs a name after `:`")
                    .at(span)
                    .with_help("write e.g. `:name` or `:ccos.echo`"),
            );
        }
        if let Some(bad) = text.chars().find(|&c| !is_symbol_char(c)) {
            return Err(RtfsError::new(
                ErrorKind::Syntax,
                format!("invalid character `{bad}` in keyword `:{text}`"),
            )
            .at(span));
        }
        Ok((Token::Keyword(Arc::from(text)), span))
    }

    fn atom(&mut self, start: usize) -> Result<(Token, Span)> {
        let text = self.take_atom_text();
        let span = Span::new(start, self.pos);
        let first = text.as_bytes()[0];
        let second_is_digit = text.as_bytes().get(1).is_some_and(|b| b.is_ascii_digit());
        if first.is_ascii_digit() || ((first == b'-' || first == b'+') && second_is_digit) {
            return number(text, span);
        }
        if let Some(bad) = text.chars().find(|&c| !is_symbol_char(c)) {
            return Err(RtfsError::new(
                ErrorKind::Syntax,
                format!("invalid character `{bad}` in symbol `{text}`"),
            )
            .at(span));
        }
        Ok((Token::Symbol(Arc::from(text)), span))
    }

    fn string(&mut self, start: usize) -> Result<(Token, Span)> {
        self.pos += 1;
        let mut out = String::new();
        let mut chunk_start = self.pos;
        loop {
            let Some(&b) = self.bytes.get(self.pos) else {
                return Err(RtfsError::new(ErrorKind::Syntax, "unterminated string")
                    .at(Span::new(start, start + 1))
                    .with_help("add a closing `\"`"));
            };
            match b {
                b'"' => {
                    out.push_str(&self.src[chunk_start..self.pos]);
                    self.pos += 1;
                    return Ok((Token::Str(Arc::from(out)), Span::new(start, self.pos)));
                }
                b'\\' => {
                    out.push_str(&self.src[chunk_start..self.pos]);
                    let esc_start = self.pos;
                    self.pos += 1;
                    let Some(&e) = self.bytes.get(self.pos) else {
                        return Err(RtfsError::new(ErrorKind::Syntax, "unterminated string")
                            .at(Span::new(start, start + 1))
                            .with_help("add a closing `\"`"));
                    };
                    self.pos += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'n' => out.push('\n'),
                        b't' => out.push('\t'),
                        b'r' => out.push('\r'),
                        b'u' => {
                            let c = self.unicode_escape(esc_start)?;
                            out.push(c);
                        }
                        _ => {
                            let c = self.src[self.pos - 1..].chars().next().unwrap_or('?');
                            return Err(RtfsError::new(
                                ErrorKind::Syntax,
                                format!("unknown escape `\\{c}` in string"),
                            )
                            .at(Span::new(esc_start, self.pos - 1 + c.len_utf8()))
                            .with_help("valid escapes: \\\" \\\\ \\n \\t \\r \\uXXXX"));
                        }
                    }
                    chunk_start = self.pos;
                }
                _ => self.pos += 1,
            }
        }
    }

    fn hex4(&mut self, esc_start: usize) -> Result<u32> {
        let digits = self.src.get(self.pos..self.pos + 4);
        match digits.and_then(|d| {
            if d.bytes().all(|b| b.is_ascii_hexdigit()) {
                u32::from_str_radix(d, 16).ok()
            } else {
                None
            }
        }) {
            Some(v) => {
                self.pos += 4;
                Ok(v)
            }
            None => Err(RtfsError::new(
                ErrorKind::Syntax,
                "`\\u` must be followed by four hex digits",
            )
            .at(Span::new(esc_start, (self.pos + 4).min(self.src.len())))),
        }
    }

    fn unicode_escape(&mut self, esc_start: usize) -> Result<char> {
        let hi = self.hex4(esc_start)?;
        if (0xD800..0xDC00).contains(&hi) {
            // A surrogate pair: \uD83D\uDE00
            if self.src[self.pos..].starts_with("\\u") {
                let second = self.pos;
                self.pos += 2;
                let lo = self.hex4(second)?;
                if (0xDC00..0xE000).contains(&lo) {
                    let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                    if let Some(c) = char::from_u32(c) {
                        return Ok(c);
                    }
                }
            }
            return Err(RtfsError::new(
                ErrorKind::Syntax,
                "unpaired UTF-16 surrogate in `\\u` escape",
            )
            .at(Span::new(esc_start, self.pos)));
        }
        char::from_u32(hi).ok_or_else(|| {
            RtfsError::new(ErrorKind::Syntax, "invalid code point in `\\u` escape")
                .at(Span::new(esc_start, self.pos))
        })
    }
}

fn number(text: &str, span: Span) -> Result<(Token, Span)> {
    let is_float = text.contains(['.', 'e', 'E']);
    let valid_chars = text.bytes().enumerate().all(|(i, b)| {
        b.is_ascii_digit()
            || b == b'.'
            || b == b'e'
            || b == b'E'
            || ((b == b'-' || b == b'+')
                && (i == 0 || matches!(text.as_bytes()[i - 1], b'e' | b'E')))
    });
    if !valid_chars {
        return Err(
            RtfsError::new(ErrorKind::Syntax, format!("invalid number `{text}`"))
                .at(span)
                .with_help("numbers look like 42, -7, 3.14 or 1e-3"),
        );
    }
    if is_float {
        match text.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok((Token::Float(f), span)),
            Ok(_) => Err(RtfsError::new(
                ErrorKind::Syntax,
                format!("float literal `{text}` is out of range"),
            )
            .at(span)
            .with_help("write ##Inf or ##-Inf for infinities")),
            Err(_) => {
                Err(RtfsError::new(ErrorKind::Syntax, format!("invalid number `{text}`")).at(span))
            }
        }
    } else {
        text.parse::<i64>().map(|i| (Token::Int(i), span)).map_err(|_| {
            RtfsError::new(
                ErrorKind::Syntax,
                format!("integer literal `{text}` does not fit in 64 bits"),
            )
            .at(span)
            .with_help("integers range from -9223372036854775808 to 9223372036854775807; write a float (e.g. 1e20) for larger magnitudes")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(src: &str) -> Vec<Token> {
        let mut l = Lexer::new(src);
        let mut out = vec![];
        while let Some((t, _)) = l.next_token().unwrap() {
            out.push(t);
        }
        out
    }

    fn err(src: &str) -> RtfsError {
        let mut l = Lexer::new(src);
        loop {
            match l.next_token() {
                Err(e) => return e,
                Ok(None) => panic!("no error for {src}"),
                Ok(Some(_)) => {}
            }
        }
    }

    #[test]
    fn atoms() {
        assert_eq!(
            tokens("42 -7 +3 3.5 -0.5 1e3 :a :ccos.echo :ns/name foo-bar? a.b/c + - ->"),
            vec![
                Token::Int(42),
                Token::Int(-7),
                Token::Int(3),
                Token::Float(3.5),
                Token::Float(-0.5),
                Token::Float(1000.0),
                Token::Keyword("a".into()),
                Token::Keyword("ccos.echo".into()),
                Token::Keyword("ns/name".into()),
                Token::Symbol("foo-bar?".into()),
                Token::Symbol("a.b/c".into()),
                Token::Symbol("+".into()),
                Token::Symbol("-".into()),
                Token::Symbol("->".into()),
            ]
        );
    }

    #[test]
    fn comments_and_commas_are_whitespace() {
        assert_eq!(
            tokens("1, 2 ; three\n 4"),
            vec![Token::Int(1), Token::Int(2), Token::Int(4)]
        );
    }

    #[test]
    fn string_escapes() {
        assert_eq!(
            tokens(r#""a\"b\\c\nd\te\u00e9\uD83D\uDE00""#),
            vec![Token::Str("a\"b\\c\nd\te\u{e9}\u{1F600}".into())]
        );
    }

    #[test]
    fn errors_point_at_their_cause() {
        let e = err("(foo \"abc");
        assert_eq!(e.message, "unterminated string");
        assert_eq!(e.span, Some(Span::new(5, 6)));
        let e = err("9223372036854775808");
        assert!(e.message.contains("does not fit"));
        assert!(err("\"\\q\"").message.contains("unknown escape"));
        assert!(err("\"\\u12\"").message.contains("four hex digits"));
        assert!(err("\"\\uD800\"").message.contains("surrogate"));
        assert!(err(": x").message.contains("needs a name"));
        assert!(err("12abc").message.contains("invalid number"));
        assert!(err("#foo").message.contains("dispatch"));
        assert!(err("1e999").message.contains("out of range"));
    }

    #[test]
    fn extreme_integers() {
        assert_eq!(tokens("-9223372036854775808"), vec![Token::Int(i64::MIN)]);
        assert_eq!(tokens("9223372036854775807"), vec![Token::Int(i64::MAX)]);
    }
}
