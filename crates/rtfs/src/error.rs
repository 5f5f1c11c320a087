//! Errors and source locations.
//!
//! Every error the language produces is an [`RtfsError`]: a kind, a message,
//! an optional byte [`Span`] into the source and an optional help line. It
//! implements [`miette::Diagnostic`], so a front end can render it with the
//! offending source underlined; [`RtfsError::with_source`] attaches the text.

use std::fmt;
use std::sync::Arc;

use crate::value::Value;

// Byte spans and their line/column have one home for every layer:
// `ccos_core::text`.
pub use ccos_core::text::{LineIndex, Span, line_col};

/// What went wrong, in machine-readable form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The source text is not well-formed RTFS.
    Syntax,
    /// A special form was used with the wrong shape (`(let [x] ...)`).
    BadForm,
    /// A symbol has no binding.
    Unbound,
    /// A value has the wrong type for an operation.
    Type,
    /// A function got the wrong number of arguments.
    Arity,
    /// Integer overflow.
    Overflow,
    /// Division (or `mod`) by zero.
    DivisionByZero,
    /// An index or key out of range (`nth` past the end).
    Index,
    /// No `match` clause matched the value.
    NoMatch,
    /// A value could not be parsed (`parse-int "x"`).
    Parse,
    /// An evaluation limit (steps, depth, collection size, iterations) was hit.
    Limit,
    /// The host refused or failed a `call`.
    Host,
    /// The host's security policy denied a `call` (or an approval was
    /// refused, or a boundary — file roots, the HTTP allow-list — was
    /// crossed). Like [`ErrorKind::Limit`], never caught by `try`: the run
    /// ends denied.
    Denied,
    /// A program raised a value with `throw`.
    Thrown,
}

impl ErrorKind {
    /// A short stable code for the kind, e.g. `rtfs::unbound`.
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::Syntax => "rtfs::syntax",
            ErrorKind::BadForm => "rtfs::bad_form",
            ErrorKind::Unbound => "rtfs::unbound",
            ErrorKind::Type => "rtfs::type",
            ErrorKind::Arity => "rtfs::arity",
            ErrorKind::Overflow => "rtfs::overflow",
            ErrorKind::DivisionByZero => "rtfs::division_by_zero",
            ErrorKind::Index => "rtfs::index",
            ErrorKind::NoMatch => "rtfs::no_match",
            ErrorKind::Parse => "rtfs::parse",
            ErrorKind::Limit => "rtfs::limit",
            ErrorKind::Host => "rtfs::host",
            ErrorKind::Denied => "rtfs::denied",
            ErrorKind::Thrown => "rtfs::thrown",
        }
    }

    /// Whether a `try` may catch errors of this kind: everything but
    /// limits and policy denials, which always end the run.
    pub fn is_catchable(self) -> bool {
        !matches!(self, ErrorKind::Limit | ErrorKind::Denied)
    }

    /// The keyword name used for this kind inside RTFS (`:type`, `:host`, ...),
    /// as seen by a `catch` handler in the error map's `:kind`.
    pub fn name(self) -> &'static str {
        self.code().trim_start_matches("rtfs::")
    }
}

/// An error from parsing or evaluating RTFS.
#[derive(Debug, Clone)]
pub struct RtfsError {
    /// What went wrong, machine-readable.
    pub kind: ErrorKind,
    /// One-line human message.
    pub message: String,
    /// Where in the source, when known.
    pub span: Option<Span>,
    /// A hint on how to fix it.
    pub help: Option<String>,
    /// For [`ErrorKind::Thrown`]: the value the program threw.
    pub thrown: Option<Value>,
    /// A secondary location (e.g. the opener of an unbalanced delimiter).
    pub related: Option<Box<(Span, String)>>,
    source_code: Option<Arc<RenderedSource>>,
}

/// The source a diagnostic renders, and where it starts in the real one: a
/// long line is rendered as an excerpt around the error, so labels shift.
#[derive(Debug)]
struct RenderedSource {
    text: miette::NamedSource<String>,
    shift: usize,
}

/// Lines up to this many bytes are rendered whole; longer ones (a
/// minified or generated plan on one line) as an excerpt around the error,
/// so a diagnostic stays a few hundred bytes whatever the input.
const MAX_RENDERED_LINE: usize = 400;
/// Bytes of context kept before the error in an excerpt.
const EXCERPT_BEFORE: usize = 120;
/// Bytes of the error's own span kept in an excerpt (and context after it).
const EXCERPT_AFTER: usize = 200;

impl RtfsError {
    /// A new error of `kind` with `message` and no location.
    /// The message is cut to [`ccos_core::text::MAX_MESSAGE_BYTES`]: an
    /// error quoting a 10 MB symbol or thrown string stays readable.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        let mut message: String = message.into();
        if message.len() > ccos_core::text::MAX_MESSAGE_BYTES {
            message =
                ccos_core::text::clip(&message, ccos_core::text::MAX_MESSAGE_BYTES).into_owned();
        }
        RtfsError {
            kind,
            message,
            span: None,
            help: None,
            thrown: None,
            related: None,
            source_code: None,
        }
    }

    /// Sets the location unless one is already set (the innermost wins).
    pub fn at(mut self, span: Span) -> Self {
        if self.span.is_none() {
            self.span = Some(span);
        }
        self
    }

    /// Adds a help line (cut like the message).
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        let help: String = help.into();
        self.help =
            Some(ccos_core::text::clip(&help, ccos_core::text::MAX_MESSAGE_BYTES).into_owned());
        self
    }

    /// Adds a secondary labelled location.
    pub fn with_related(mut self, span: Span, label: impl Into<String>) -> Self {
        self.related = Some(Box::new((span, label.into())));
        self
    }

    /// Attaches the source text (and its name, e.g. a file path) so the
    /// diagnostic renders with the offending code underlined.
    ///
    /// A long line is rendered as an excerpt around the error, named with
    /// the real `line:col`, so the diagnostic's size does not grow with the
    /// input's.
    pub fn with_source(mut self, name: impl AsRef<str>, src: impl Into<String>) -> Self {
        let src: String = src.into();
        let name = name.as_ref();
        if let Some(span) = self.span
            && let Some((from, to)) = excerpt_window(&src, span)
        {
            let (l, c) = line_col(&src, span.start);
            let mut text = String::with_capacity(to - from + 8);
            let ellipsis = "\u{2026}";
            let shown_from = if from > 0 {
                text.push_str(ellipsis);
                from - ellipsis.len()
            } else {
                from
            };
            text.push_str(&src[from..to]);
            if to < src.len() {
                text.push_str(ellipsis);
            }
            self.source_code = Some(Arc::new(RenderedSource {
                text: miette::NamedSource::new(
                    format!("{name} (excerpt of line {l} around column {c})"),
                    text,
                ),
                shift: shown_from,
            }));
            return self;
        }
        self.source_code = Some(Arc::new(RenderedSource {
            text: miette::NamedSource::new(name, src),
            shift: 0,
        }));
        self
    }

    /// `span` as rendered: shifted into the excerpt and cut to its end;
    /// `None` when it falls outside what is rendered.
    fn rendered(&self, span: Span) -> Option<miette::SourceSpan> {
        let (len, shift) = self
            .source_code
            .as_ref()
            .map_or((usize::MAX, 0), |s| (s.text.inner().len(), s.shift));
        let start = span.start.checked_sub(shift)?;
        if start > len {
            return None;
        }
        let end = span.end.saturating_sub(shift).min(len);
        Some(miette::SourceSpan::new(
            start.into(),
            end.saturating_sub(start),
        ))
    }

    /// `message` prefixed with `line:col` when a location and source exist.
    pub fn located_message(&self, src: &str) -> String {
        match self.span {
            Some(s) => {
                let (l, c) = line_col(src, s.start);
                format!("{l}:{c}: {}", self.message)
            }
            None => self.message.clone(),
        }
    }

    /// The error as an RTFS map, as bound by `catch`:
    /// `{:kind :type :message "..."}` plus `:value` for thrown values.
    pub fn to_value(&self) -> Value {
        if let (ErrorKind::Thrown, Some(v)) = (self.kind, &self.thrown)
            && matches!(v, Value::Map(_))
        {
            return v.clone();
        }
        let mut m = std::collections::BTreeMap::new();
        m.insert(Value::keyword("kind"), Value::keyword(self.kind.name()));
        m.insert(Value::keyword("message"), Value::string(&self.message));
        if let Some(v) = &self.thrown {
            m.insert(Value::keyword("value"), v.clone());
        }
        Value::Map(crate::value::Coll::<crate::value::Map>::new(m))
    }
}

impl fmt::Display for RtfsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RtfsError {}

impl miette::Diagnostic for RtfsError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.kind.code()))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source_code
            .as_deref()
            .map(|s| &s.text as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        let span = self.rendered(self.span?)?;
        let mut labels = vec![miette::LabeledSpan::new_primary_with_span(
            Some("here".to_string()),
            span,
        )];
        if let Some(rel) = &self.related
            && let Some(s) = self.rendered(rel.0)
        {
            labels.push(miette::LabeledSpan::new_with_span(Some(rel.1.clone()), s));
        }
        Some(Box::new(labels.into_iter()))
    }
}

/// Shorthand for results in this crate.
pub type Result<T, E = RtfsError> = std::result::Result<T, E>;

/// The byte range of `src` to render for an error at `span`, when the lines
/// it touches are too long to render whole; `None` to render `src` as is.
fn excerpt_window(src: &str, span: Span) -> Option<(usize, usize)> {
    let start = span.start.min(src.len());
    let end = span.end.min(src.len()).max(start);
    let line_start = src[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = src[end..].find('\n').map_or(src.len(), |i| end + i);
    if line_end - line_start <= MAX_RENDERED_LINE {
        return None;
    }
    let mut from = start.saturating_sub(EXCERPT_BEFORE).max(line_start);
    while !src.is_char_boundary(from) {
        from -= 1;
    }
    let mut to = (start + EXCERPT_AFTER).min(line_end);
    while !src.is_char_boundary(to) {
        to += 1;
    }
    Some((from, to))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn innermost_span_wins() {
        let e = RtfsError::new(ErrorKind::Type, "x")
            .at(Span::new(1, 2))
            .at(Span::new(0, 10));
        assert_eq!(e.span, Some(Span::new(1, 2)));
    }

    #[test]
    fn long_lines_render_as_an_excerpt_around_the_error() {
        let short = "(+ 1\n   x)";
        assert_eq!(excerpt_window(short, Span::new(8, 9)), None);

        let long = format!("(do {} (é-bad 1))", "(+ 1 2) ".repeat(10_000));
        let at = long.find("é-bad").unwrap();
        let e = RtfsError::new(ErrorKind::Unbound, "unbound")
            .at(Span::new(at, at + "é-bad".len()))
            .with_related(Span::new(0, 1), "opened here")
            .with_source("p.rtfs", long.clone());
        let shown = e.source_code.as_ref().unwrap();
        assert!(
            shown.text.inner().len() < 400,
            "{}",
            shown.text.inner().len()
        );
        assert!(
            shown
                .text
                .name()
                .contains("excerpt of line 1 around column")
        );
        let labels: Vec<_> = miette::Diagnostic::labels(&e).unwrap().collect();
        // The opener is far outside the excerpt: only the error is labelled,
        // and its label covers exactly the symbol in the excerpt.
        assert_eq!(labels.len(), 1);
        let l = &labels[0];
        assert_eq!(
            &shown.text.inner()[l.offset()..l.offset() + l.len()],
            "é-bad"
        );
    }
}
