//! The lexer: source text to tokens, each with its byte span.
//!
//! Hand-written over bytes for speed; non-ASCII characters are allowed in
//! symbols, keywords and strings. Whitespace, commas and `;` comments are
//! skipped.
//!
//! Reader-macro characters become their own tokens: `'` (quote), `#(`
//! (anonymous function), `^` (metadata) and `@` (deref); the parser gives
//! them their meaning. Integers may be written in hex (`0x1F`), octal
//! (`0o17`) or binary (`0b101`).
//!
//! A `:` with no name after it (`[y : Int]`) and the colon inside `x:int`
//! are type-annotation colons. Only the parser knows where those are
//! allowed, so they are lexed as [`Token::Colon`] only when the lexer is
//! built [`Lexer::with_type_colons`]; a plain [`Lexer::new`] rejects them as
//! before.

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
    /// `#(`: an anonymous function literal, up to its matching `)`.
    HashParen,
    /// `^`: metadata for the next form.
    Caret,
    /// `@`: deref of the next form.
    At,
    /// A type-annotation colon: `:` alone, or the colon of `x:int`
    /// (only with [`Lexer::with_type_colons`]).
    Colon,
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

/// [`is_symbol_char`] for ASCII, as a table (the lexer's hot path).
const ASCII_SYMBOL_CHARS: [bool; 128] = {
    let mut table = [false; 128];
    let mut b = 0u8;
    while b < 128 {
        table[b as usize] = b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'.' | b'/'
                    | b'+'
                    | b'-'
                    | b'*'
                    | b'='
                    | b'<'
                    | b'>'
                    | b'!'
                    | b'?'
                    | b'_'
                    | b'&'
                    | b'%'
                    | b'$'
            );
        b += 1;
    }
    table
};

/// Slots of the lexer's name cache (a power of two).
const NAME_CACHE_SLOTS: usize = 64;

/// Sources shorter than this (in bytes) are lexed without the name cache.
const NAME_CACHE_MIN_SOURCE: usize = 512;

/// The cache slot of a symbol or keyword name (FNV-1a).
fn name_slot(text: &str) -> usize {
    let mut h: u32 = 0x811c_9dc5;
    for &b in text.as_bytes() {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    (h ^ (h >> 16)) as usize & (NAME_CACHE_SLOTS - 1)
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
    type_colons: bool,
    /// Set after the symbol of `x:int`, so the colon that follows is a
    /// [`Token::Colon`] whatever comes after it.
    glued_colon: bool,
    /// Recently read symbol and keyword names: a plan repeats the same few
    /// names (`step`, `call`, `:message`), which then share one allocation.
    /// Only for sources long enough to repeat themselves.
    names: Option<Box<[Option<Arc<str>>; NAME_CACHE_SLOTS]>>,
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `src`.
    pub fn new(src: &'a str) -> Self {
        Lexer {
            src,
            bytes: src.as_bytes(),
            pos: 0,
            type_colons: false,
            glued_colon: false,
            names: (src.len() >= NAME_CACHE_MIN_SOURCE)
                .then(|| Box::new([const { None }; NAME_CACHE_SLOTS])),
        }
    }

    /// The shared `Arc` for a symbol or keyword name.
    #[inline]
    fn intern(&mut self, text: &str) -> Arc<str> {
        let Some(names) = self.names.as_deref_mut() else {
            return Arc::from(text);
        };
        let slot = &mut names[name_slot(text)];
        if let Some(name) = slot
            && **name == *text
        {
            return name.clone();
        }
        let name: Arc<str> = Arc::from(text);
        *slot = Some(name.clone());
        name
    }

    /// Lexes type-annotation colons as [`Token::Colon`]: a `:` with no
    /// name after it, and the colon of `name:type` (split into the symbol
    /// `name`, a colon, and `type`). The parser uses this mode and decides
    /// where annotations may appear.
    pub fn with_type_colons(mut self) -> Self {
        self.type_colons = true;
        self
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
            b'^' => {
                self.pos += 1;
                single(Token::Caret)
            }
            b'@' => {
                self.pos += 1;
                single(Token::At)
            }
            b':' if self.glued_colon => {
                self.glued_colon = false;
                self.pos += 1;
                single(Token::Colon)
            }
            b'"' => self.string(start).map(Some),
            b':' => self.keyword(start).map(Some),
            b'#' => self.hash(start).map(Some),
            _ => self.atom(start).map(Some),
        }
    }

    /// Reads an atom's text (up to a delimiter) and, in the same pass, the
    /// offset and character of its first character that cannot be in a
    /// symbol.
    fn scan_atom(&mut self) -> (&'a str, Option<(usize, char)>) {
        let start = self.pos;
        let mut bad = None;
        while let Some(&b) = self.bytes.get(self.pos) {
            if b < 0x80 {
                if ASCII_SYMBOL_CHARS[b as usize] {
                    self.pos += 1;
                    continue;
                }
                if is_delimiter(b) {
                    break;
                }
                if bad.is_none() {
                    bad = Some((self.pos - start, b as char));
                }
                self.pos += 1;
            } else {
                let c = self.src[self.pos..].chars().next().unwrap_or(' ');
                if c.is_whitespace() {
                    break;
                }
                if bad.is_none() && !is_symbol_char(c) {
                    bad = Some((self.pos - start, c));
                }
                self.pos += c.len_utf8();
            }
        }
        (&self.src[start..self.pos], bad)
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
        if self.bytes.get(start + 1) == Some(&b'(') {
            self.pos = start + 2;
            return Ok((Token::HashParen, Span::new(start, start + 2)));
        }
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
                .with_help(
                    "the only `#` forms are #(...) (an anonymous function), ##NaN, ##Inf and ##-Inf",
                ));
            }
        };
        Ok((Token::Float(value), span))
    }

    fn keyword(&mut self, start: usize) -> Result<(Token, Span)> {
        self.pos += 1;
        let (text, bad) = self.scan_atom();
        let span = Span::new(start, self.pos);
        if text.is_empty() && self.type_colons {
            return Ok((Token::Colon, span));
        }
        if text.is_empty() {
            return Err(
                RtfsError::new(ErrorKind::Syntax, "a keyword needs a name after `:`")
                    .at(span)
                    .with_help("write e.g. `:name` or `:ccos.echo`"),
            );
        }
        if let Some((_, bad)) = bad {
            return Err(RtfsError::new(
                ErrorKind::Syntax,
                format!("invalid character `{bad}` in keyword `:{text}`"),
            )
            .at(span));
        }
        Ok((Token::Keyword(self.intern(text)), span))
    }

    fn atom(&mut self, start: usize) -> Result<(Token, Span)> {
        let (text, bad) = self.scan_atom();
        let span = Span::new(start, self.pos);
        let first = text.as_bytes()[0];
        let second_is_digit = text.as_bytes().get(1).is_some_and(|b| b.is_ascii_digit());
        if first.is_ascii_digit() || ((first == b'-' || first == b'+') && second_is_digit) {
            return number(text, span);
        }
        match bad {
            None => Ok((Token::Symbol(self.intern(text)), span)),
            Some((colon, ':')) if self.type_colons && colon > 0 => {
                // `x:int`: the symbol now, then a colon, then the type.
                self.pos = start + colon;
                self.glued_colon = true;
                let name = self.intern(&text[..colon]);
                Ok((Token::Symbol(name), Span::new(start, start + colon)))
            }
            Some((_, bad)) => Err(RtfsError::new(
                ErrorKind::Syntax,
                format!("invalid character `{bad}` in symbol `{text}`"),
            )
            .at(span)),
        }
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

/// An integer written with a radix prefix (`0x1F`, `-0o17`, `0b101`), if
/// `text` is one; `Some(Err)` when the prefix is there but the digits are not.
fn radix_integer(text: &str, span: Span) -> Option<Result<(Token, Span)>> {
    let (negative, unsigned) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (radix, digits, what) = match unsigned.get(..2) {
        Some("0x" | "0X") => (16, &unsigned[2..], "hexadecimal"),
        Some("0o" | "0O") => (8, &unsigned[2..], "octal"),
        Some("0b" | "0B") => (2, &unsigned[2..], "binary"),
        _ => return None,
    };
    let bad = || {
        RtfsError::new(
            ErrorKind::Syntax,
            format!("invalid {what} integer `{text}`"),
        )
        .at(span)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Some(Err(bad().with_help(match radix {
            16 => "hexadecimal digits are 0-9 and a-f, e.g. 0x1F",
            8 => "octal digits are 0-7, e.g. 0o17",
            _ => "binary digits are 0 and 1, e.g. 0b101",
        })));
    }
    // Parse the magnitude wide, so that -0x8000000000000000 fits.
    let magnitude = match u64::from_str_radix(digits, radix) {
        Ok(m) => m as i128,
        Err(_) => return Some(Err(too_big(text, span))),
    };
    let value = if negative { -magnitude } else { magnitude };
    Some(
        i64::try_from(value)
            .map(|i| (Token::Int(i), span))
            .map_err(|_| too_big(text, span)),
    )
}

fn too_big(text: &str, span: Span) -> RtfsError {
    RtfsError::new(
        ErrorKind::Syntax,
        format!("integer literal `{text}` does not fit in 64 bits"),
    )
    .at(span)
    .with_help("integers range from -9223372036854775808 to 9223372036854775807; write a float (e.g. 1e20) for larger magnitudes")
}

/// True for `1/2`, `-3/4`: a ratio literal, which RTFS does not have.
fn is_ratio(text: &str) -> bool {
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    unsigned.split_once('/').is_some_and(|(n, d)| {
        !n.is_empty()
            && !d.is_empty()
            && n.bytes().all(|b| b.is_ascii_digit())
            && d.bytes().all(|b| b.is_ascii_digit())
    })
}

fn number(text: &str, span: Span) -> Result<(Token, Span)> {
    if let Some(result) = radix_integer(text, span) {
        return result;
    }
    if is_ratio(text) {
        let (n, d) = text.split_once('/').unwrap_or((text, "1"));
        return Err(RtfsError::new(
            ErrorKind::Syntax,
            format!("ratio literal `{text}` is not supported"),
        )
        .at(span)
        .with_help(format!(
            "RTFS has no ratio type; write the division (/ {n} {d}) or a decimal such as 0.5"
        )));
    }
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
        text.parse::<i64>()
            .map(|i| (Token::Int(i), span))
            .map_err(|_| too_big(text, span))
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
    fn the_name_cache_returns_the_name_read() {
        // Long enough to use the cache; many names collide in 64 slots.
        let words: Vec<String> = (0..400).map(|i| format!("name-{}", i % 150)).collect();
        let src = words
            .iter()
            .map(|w| format!("{w} :{w}"))
            .collect::<Vec<_>>()
            .join(" ");
        let toks = tokens(&src);
        assert_eq!(toks.len(), 800);
        for (i, w) in words.iter().enumerate() {
            assert_eq!(toks[2 * i], Token::Symbol(w.as_str().into()));
            assert_eq!(toks[2 * i + 1], Token::Keyword(w.as_str().into()));
        }
    }

    #[test]
    fn reader_tokens() {
        let mut l = Lexer::new("#(f %) ^:k @x").with_type_colons();
        let mut out = vec![];
        while let Some((t, s)) = l.next_token().unwrap() {
            out.push((t, s));
        }
        assert_eq!(out[0], (Token::HashParen, Span::new(0, 2)));
        assert_eq!(out[4], (Token::Caret, Span::new(7, 8)));
        assert_eq!(out[6], (Token::At, Span::new(11, 12)));
        let mut l = Lexer::new("[x:int y : Int]").with_type_colons();
        let mut kinds = vec![];
        while let Some((t, _)) = l.next_token().unwrap() {
            kinds.push(t);
        }
        assert_eq!(
            kinds,
            vec![
                Token::LBracket,
                Token::Symbol("x".into()),
                Token::Colon,
                Token::Symbol("int".into()),
                Token::Symbol("y".into()),
                Token::Colon,
                Token::Symbol("Int".into()),
                Token::RBracket,
            ]
        );
    }

    #[test]
    fn extreme_integers() {
        assert_eq!(tokens("-9223372036854775808"), vec![Token::Int(i64::MIN)]);
        assert_eq!(tokens("9223372036854775807"), vec![Token::Int(i64::MAX)]);
    }
}
