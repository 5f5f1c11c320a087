//! Byte spans in source text and their line/column.
//!
//! Spans are byte ranges, so slicing the source with them is cheap;
//! [`LineIndex`] turns offsets into 1-based line and column (in
//! characters) for messages. Building the index is linear in the text and
//! each lookup is a binary search (plus a character count on non-ASCII
//! lines), so reporting many findings in a large file stays linear.

/// A byte range `start..end` in some source text.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Default,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct Span {
    /// First byte of the range.
    pub start: usize,
    /// One past the last byte of the range.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end` (byte offsets).
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// The smallest span covering both `self` and `other`.
    pub fn join(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.end.saturating_sub(self.start)
    }

    /// True when the span covers no bytes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(feature = "miette")]
impl From<Span> for miette::SourceSpan {
    fn from(s: Span) -> Self {
        miette::SourceSpan::new(s.start.into(), s.len())
    }
}

/// Line starts of a text, for repeated offset → line/column lookups.
#[derive(Debug, Clone)]
pub struct LineIndex<'a> {
    text: &'a str,
    /// Byte offset of the first byte of each line.
    starts: Vec<usize>,
    /// Whether each line is pure ASCII (column = byte distance + 1).
    ascii: Vec<bool>,
}

impl<'a> LineIndex<'a> {
    /// Indexes `text` (one pass).
    pub fn new(text: &'a str) -> LineIndex<'a> {
        let mut starts = vec![0];
        let mut ascii = vec![];
        let mut line_ascii = true;
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                ascii.push(line_ascii);
                starts.push(i + 1);
                line_ascii = true;
            } else if !b.is_ascii() {
                line_ascii = false;
            }
        }
        ascii.push(line_ascii);
        LineIndex {
            text,
            starts,
            ascii,
        }
    }

    /// 1-based line and column (in characters) of byte `offset`. Offsets
    /// past the end map to the end of the text; an offset inside a
    /// multi-byte character is treated as that character's start.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.starts[line];
        let column = if self.ascii[line] {
            offset - start + 1
        } else {
            self.text[start..offset].chars().count() + 1
        };
        (line + 1, column)
    }

    /// Number of lines (a text without a newline has one).
    pub fn lines(&self) -> usize {
        self.starts.len()
    }
}

/// 1-based line and column (in characters) of byte `offset` in `text`; for
/// one lookup. Use a [`LineIndex`] for many.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    LineIndex::new(text).line_col(offset)
}

/// Default bound on a text file ccos reads (plans, policies,
/// configuration): 16 MiB. Larger input is refused with a clear error
/// rather than read until memory runs out (`/dev/zero`).
pub const MAX_INPUT_BYTES: u64 = 16 << 20;

/// Whether `w` (a number's digits, sign and currency stripped) groups
/// its whole part by thousands with commas: `1,000`, `12,345.5`; not
/// `12,34` (a decimal comma elsewhere) nor `1,00,000`. Every layer that
/// reads numbers people write (the planner's mentions and arithmetic, the
/// built-ins comparing numeric texts) reads them this one way.
pub fn is_thousands(w: &str) -> bool {
    let int = w.split('.').next().unwrap_or("");
    let groups: Vec<&str> = int.split(',').collect();
    groups.len() > 1
        && (1..=3).contains(&groups[0].len())
        && groups.iter().all(|g| g.chars().all(|c| c.is_ascii_digit()))
        && groups[1..].iter().all(|g| g.len() == 3)
}

/// Whether the text after a comma between digits makes it a thousands
/// separator: exactly three digits, then no digit (`1,000`, `1,000.5`;
/// not `1,00` nor `1,0000`).
pub fn thousands_group_follows(after_comma: impl IntoIterator<Item = char>) -> bool {
    let mut it = after_comma.into_iter();
    (0..3).all(|_| it.next().is_some_and(|c| c.is_ascii_digit()))
        && !it.next().is_some_and(|c| c.is_ascii_digit())
}

/// Bytes of a message (an error, a finding) kept by [`clip`]: enough for
/// any message a person reads, bounded whatever the input (a 10 MB symbol
/// in "unbound symbol `...`").
pub const MAX_MESSAGE_BYTES: usize = 4096;

/// `text` cut to at most `max` bytes at a character boundary, with a note
/// of its whole size when cut.
pub fn clip(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    if text.len() <= max {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    std::borrow::Cow::Owned(format!(
        "{}\u{2026} ({} bytes in all)",
        &text[..end],
        text.len()
    ))
}

/// Reads `reader` to a string, refusing more than `max` bytes and
/// non-UTF-8 text, with errors a person can act on (`what` names the
/// input: a file path, `stdin`).
pub fn read_bounded(reader: impl std::io::Read, max: u64, what: &str) -> Result<String, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    reader
        .take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("reading {what}: {e}"))?;
    if bytes.len() as u64 > max {
        return Err(format!(
            "{what} is larger than {} bytes; refusing to read it",
            max
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{what} is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Reads the file at `path` with [`read_bounded`]; a missing file is
/// `Ok(None)` when `missing_ok`.
pub fn read_file_bounded(
    path: &std::path::Path,
    max: u64,
    missing_ok: bool,
) -> Result<Option<String>, String> {
    let what = path.display().to_string();
    match std::fs::File::open(path) {
        Ok(f) => {
            if f.metadata().is_ok_and(|m| m.is_dir()) {
                return Err(format!("{what} is a directory, not a file"));
            }
            read_bounded(f, max, &what).map(Some)
        }
        Err(e) if missing_ok && e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("reading {what}: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn counts_lines_and_chars() {
        let src = "ab\ncdé\nf";
        assert_eq!(line_col(src, 0), (1, 1));
        assert_eq!(line_col(src, 3), (2, 1));
        assert_eq!(line_col(src, 7), (2, 4));
        assert_eq!(line_col(src, 8), (3, 1));
        assert_eq!(line_col(src, 100), (3, 2));
        // inside the two-byte 'é'
        assert_eq!(line_col(src, 6), (2, 3));
        assert_eq!(line_col("", 10), (1, 1));
        assert_eq!(line_col("a\n", 2), (2, 1));
    }

    #[test]
    fn spans_join_and_measure() {
        let s = Span::new(3, 5).join(Span::new(1, 4));
        assert_eq!(s, Span::new(1, 5));
        assert_eq!(s.len(), 4);
        assert!(Span::new(2, 2).is_empty());
    }

    /// The obvious quadratic definition, as the oracle.
    fn naive(src: &str, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(src.len());
        while !src.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &src[..offset];
        let line = before.matches('\n').count() + 1;
        let start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
        (line, src[start..offset].chars().count() + 1)
    }

    #[test]
    fn clip_cuts_at_a_character_boundary() {
        assert_eq!(super::clip("short", 10), "short");
        let long = "é".repeat(10);
        let cut = super::clip(&long, 5);
        assert!(cut.starts_with("éé\u{2026}"), "{cut}");
        assert!(cut.ends_with("(20 bytes in all)"), "{cut}");
    }

    #[test]
    fn bounded_reads_refuse_large_and_binary_input() {
        assert_eq!(read_bounded(&b"hello"[..], 5, "x").unwrap(), "hello");
        let e = read_bounded(std::io::repeat(0), 1024, "/dev/zero").unwrap_err();
        assert!(e.contains("larger than 1024 bytes"), "{e}");
        let e = read_bounded(&[b'a', 0xff][..], 10, "f").unwrap_err();
        assert!(e.contains("not UTF-8") && e.contains("offset 1"), "{e}");
        assert_eq!(
            read_file_bounded(std::path::Path::new("/nonexistent/x"), 10, true).unwrap(),
            None
        );
        assert!(
            read_file_bounded(std::path::Path::new("/"), 10, false)
                .unwrap_err()
                .contains("directory")
        );
    }

    proptest! {
        #[test]
        fn index_agrees_with_the_naive_definition(src in "[a-zé\n€ ]{0,60}", offset in 0usize..80) {
            prop_assert_eq!(LineIndex::new(&src).line_col(offset), naive(&src, offset));
        }
    }

    #[test]
    fn thousands_groups_by_three() {
        for w in ["1,000", "12,345.5", "999,999,999"] {
            assert!(super::is_thousands(w), "{w}");
        }
        for w in ["1000", "12,34", "1,00,000", "1234,567", ",100", "1,0a0"] {
            assert!(!super::is_thousands(w), "{w}");
        }
    }
}
