//! How values (arguments, results, step and run values) are recorded:
//! inline when small, as a digest plus a bounded preview when large.

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use super::canonical::{audit_safe, canonical_json, sha256_hex};

/// Values whose encoding is at most this many bytes are recorded whole.
pub const INLINE_MAX_BYTES: usize = 4096;

/// The preview kept of a larger value, in bytes (cut at a character
/// boundary).
pub const PREVIEW_BYTES: usize = 512;

/// A recorded value. Exactly one of the shapes:
///
/// - `{"json": VALUE}`: a JSON value (tool arguments and results), whole;
/// - `{"rtfs": "TEXT"}`: an RTFS value in its canonical printed form, whole;
/// - `{"sha256": HEX, "bytes": N, "encoding": "json"|"rtfs", "preview":
///   "..."}`: a value too large to record inline; `sha256` is the digest of
///   its encoding (canonical JSON, or the printed RTFS text) and `preview`
///   that encoding's first bytes;
/// - `{"omitted": REASON, "preview": "..."}`: a value that could not be
///   encoded within the recording bounds at all (e.g. larger than the
///   maximum a value may print to), with what was printed before the bound.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RecordedValue {
    /// A whole JSON value.
    Json {
        /// The value.
        json: Json,
    },
    /// A whole RTFS value, printed canonically.
    Rtfs {
        /// The printed value.
        rtfs: String,
    },
    /// A large value, by digest.
    Digest {
        /// SHA-256 (hex) of the encoding.
        sha256: String,
        /// Size of the encoding in bytes.
        bytes: u64,
        /// `json` or `rtfs`.
        encoding: String,
        /// The encoding's first [`PREVIEW_BYTES`] bytes.
        preview: String,
    },
    /// A value beyond every recording bound.
    Omitted {
        /// Why it was not recorded.
        omitted: String,
        /// What could be printed before the bound.
        preview: String,
    },
}

impl RecordedValue {
    /// Records a JSON value: whole when its canonical encoding fits
    /// [`INLINE_MAX_BYTES`], else by digest.
    pub fn json(value: Json) -> RecordedValue {
        let value = audit_safe(value);
        let text = match canonical_json(&value) {
            Ok(t) => t,
            Err(e) => {
                return RecordedValue::Omitted {
                    omitted: e,
                    preview: String::new(),
                };
            }
        };
        if text.len() <= INLINE_MAX_BYTES {
            RecordedValue::Json { json: value }
        } else {
            Self::digest(&text, "json")
        }
    }

    /// Records the printed form of an RTFS value: whole when it fits
    /// [`INLINE_MAX_BYTES`], else by digest.
    pub fn rtfs(printed: String) -> RecordedValue {
        if printed.len() <= INLINE_MAX_BYTES {
            RecordedValue::Rtfs { rtfs: printed }
        } else {
            Self::digest(&printed, "rtfs")
        }
    }

    /// A value that could not be encoded within the bounds.
    pub fn omitted(reason: impl Into<String>, preview: &str) -> RecordedValue {
        RecordedValue::Omitted {
            omitted: reason.into(),
            preview: preview_of(preview).to_string(),
        }
    }

    fn digest(text: &str, encoding: &str) -> RecordedValue {
        RecordedValue::Digest {
            sha256: sha256_hex(text.as_bytes()),
            bytes: text.len() as u64,
            encoding: encoding.into(),
            preview: preview_of(text).to_string(),
        }
    }

    /// Short text for people: the value, or its preview marked as cut.
    pub fn display(&self) -> String {
        match self {
            RecordedValue::Json { json } => json.to_string(),
            RecordedValue::Rtfs { rtfs } => rtfs.clone(),
            RecordedValue::Digest { preview, bytes, .. } => {
                format!("{preview}… ({bytes} bytes in all)")
            }
            RecordedValue::Omitted { omitted, preview } => format!("{preview}… ({omitted})"),
        }
    }
}

/// The first [`PREVIEW_BYTES`] bytes of `text`, cut at a character boundary.
pub fn preview_of(text: &str) -> &str {
    if text.len() <= PREVIEW_BYTES {
        return text;
    }
    let mut end = PREVIEW_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn small_values_are_inline_large_ones_by_digest() {
        let small = RecordedValue::json(json!({"a": 1}));
        assert_eq!(
            serde_json::to_value(&small).unwrap(),
            json!({"json": {"a": 1}})
        );
        let big = "é".repeat(INLINE_MAX_BYTES);
        let r = RecordedValue::json(json!(big));
        let RecordedValue::Digest {
            bytes,
            preview,
            encoding,
            sha256,
        } = &r
        else {
            panic!("{r:?}")
        };
        assert_eq!(*bytes as usize, big.len() + 2); // the quotes
        assert!(preview.len() <= PREVIEW_BYTES && preview.starts_with('"'));
        assert_eq!(encoding, "json");
        assert_eq!(sha256, &sha256_hex(format!("\"{big}\"").as_bytes()));
        // Round trip through the untagged representation.
        let back: RecordedValue =
            serde_json::from_value(serde_json::to_value(&r).unwrap()).unwrap();
        assert_eq!(back, r);
        let rt = RecordedValue::rtfs("{:a 1}".into());
        assert_eq!(
            serde_json::to_value(&rt).unwrap(),
            json!({"rtfs": "{:a 1}"})
        );
    }
}
