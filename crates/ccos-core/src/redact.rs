//! Secret redaction: one redactor, one marker.
//!
//! Secret values (the values of the environment variables a policy or the
//! configuration declares, the LLM API key, values given explicitly) are
//! passed to the capabilities that need them untouched, but every string
//! that is recorded (causal chain, IntentGraph, plan archive, LLM
//! exchanges) or printed (stdout, stderr, `--json`) has each occurrence
//! replaced by [`REDACTED`].
//!
//! Redaction works on **structures**: every string inside a JSON value (or,
//! through the same [`Redactor::redact_str`], an RTFS value) is redacted
//! before the value is printed or serialised. Redacting the printed form
//! instead would miss a secret containing `"` or `\`, which printing
//! escapes.
//!
//! Each secret is also matched in the spellings it takes on the wire and
//! may come back in (a service echoing a URL or a header): escaped as JSON
//! and Rust print it, percent-encoded and base64-encoded. A plan that
//! transforms a secret (reverses it, splits it) is beyond substring
//! matching: a known limit.

use std::borrow::Cow;

use serde_json::Value as Json;

/// What replaces a secret.
pub const REDACTED: &str = "<redacted>";

/// The spellings a secret takes on the wire, which a service may echo
/// back (a URL with `api_key=...` in an error, a decoded Basic header):
/// percent-encoded (URL path and query, form `+` for spaces) and base64
/// (standard and URL-safe, padded or not). Only for secrets of 8 bytes or
/// more, whose encodings are not ordinary words.
fn encoded_spellings(value: &str) -> Vec<String> {
    use base64::Engine as _;
    use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
    use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
    if value.len() < 8 {
        return vec![];
    }
    let percent = utf8_percent_encode(value, NON_ALPHANUMERIC).to_string();
    // Unreserved characters are left alone by most encoders.
    let unreserved = percent
        .replace("%2D", "-")
        .replace("%2E", ".")
        .replace("%5F", "_")
        .replace("%7E", "~");
    let form = unreserved.replace("%20", "+");
    let b = value.as_bytes();
    let mut out = vec![
        percent,
        unreserved,
        form,
        STANDARD.encode(b),
        STANDARD_NO_PAD.encode(b),
        URL_SAFE.encode(b),
        URL_SAFE_NO_PAD.encode(b),
    ];
    // Lower-case hex digits in escapes, as some encoders write them.
    let lower: Vec<String> = out[..3].iter().map(|p| lower_escapes(p)).collect();
    out.extend(lower);
    out.sort();
    out.dedup();
    out
}

/// `%2F` as `%2f`.
fn lower_escapes(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        out.push(c);
        if c == '%' {
            for _ in 0..2 {
                if let Some(h) = chars.next() {
                    out.push(h.to_ascii_lowercase());
                }
            }
        }
    }
    out
}

/// Replaces secret values in strings and JSON values.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Redactor {
    /// `(name, value)` pairs, longest value first so a secret containing
    /// another is replaced whole; no empty values, no duplicate values.
    secrets: Vec<(String, String)>,
}

impl Redactor {
    /// A redactor for the named environment variables, read through
    /// `lookup` (the caller decides where variables come from; this crate
    /// reads no environment). Unset or empty variables are skipped.
    pub fn from_env(names: &[String], lookup: impl Fn(&str) -> Option<String>) -> Redactor {
        let mut r = Redactor::default();
        for name in names {
            if let Some(v) = lookup(name) {
                r.add_named(name, v);
            }
        }
        r
    }

    /// Adds a secret value without a name.
    pub fn add(&mut self, value: impl Into<String>) {
        let name = format!("secret{}", self.secrets.len() + 1);
        self.add_named(&name, value);
    }

    /// Adds a secret value known under `name` (an environment variable).
    /// Its escaped spellings (as JSON, RTFS and Rust debug output print
    /// it inside quotes) are redacted too, for text that was printed before
    /// it reached a redactor (an error message quoting a value).
    pub fn add_named(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        if value.is_empty() || self.secrets.iter().any(|(_, v)| *v == value) {
            return;
        }
        let escaped: Vec<String> = [
            serde_json::to_string(&value).unwrap_or_default(),
            format!("{value:?}"),
        ]
        .into_iter()
        .map(|q| q.trim_matches('"').to_string())
        .chain(encoded_spellings(&value))
        .filter(|e| !e.is_empty() && *e != value)
        .collect();
        self.secrets.push((name.to_string(), value));
        for e in escaped {
            if !self.secrets.iter().any(|(_, v)| *v == e) {
                self.secrets.push((format!("{name}~escaped"), e));
            }
        }
        self.secrets
            .sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
    }

    /// Adds every secret of `other`.
    pub fn extend(&mut self, other: &Redactor) {
        for (n, v) in &other.secrets {
            self.add_named(n, v.clone());
        }
    }

    /// True when there is nothing to redact.
    pub fn is_empty(&self) -> bool {
        self.secrets.is_empty()
    }

    /// The named secrets, `(name, value)`, longest value first: what a plan
    /// may read as `(get secrets :NAME)` (escaped spellings excluded).
    pub fn named(&self) -> impl Iterator<Item = (&str, &str)> {
        self.secrets
            .iter()
            .filter(|(n, _)| !n.ends_with("~escaped"))
            .map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// True when `s` contains some secret.
    pub fn contains_secret(&self, s: &str) -> bool {
        self.secrets.iter().any(|(_, v)| s.contains(v.as_str()))
    }

    /// `s` with every secret replaced by [`REDACTED`] (borrowed when there
    /// was nothing to replace).
    pub fn redact_str<'s>(&self, s: &'s str) -> Cow<'s, str> {
        if !self.contains_secret(s) {
            return Cow::Borrowed(s);
        }
        let mut out = s.to_string();
        for (_, v) in &self.secrets {
            if out.contains(v.as_str()) {
                out = out.replace(v.as_str(), REDACTED);
            }
        }
        Cow::Owned(out)
    }

    /// A JSON value with every string and object key redacted.
    pub fn redact_json(&self, j: &Json) -> Json {
        if self.is_empty() {
            return j.clone();
        }
        match j {
            Json::String(s) => Json::String(self.redact_str(s).into_owned()),
            Json::Array(a) => Json::Array(a.iter().map(|x| self.redact_json(x)).collect()),
            Json::Object(o) => Json::Object(
                o.iter()
                    .map(|(k, v)| (self.redact_str(k).into_owned(), self.redact_json(v)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn redacts_strings_and_json_structures() {
        let mut r = Redactor::default();
        r.add("s3cr3t-token");
        assert_eq!(r.redact_str("Bearer s3cr3t-token!"), "Bearer <redacted>!");
        assert!(matches!(r.redact_str("nothing"), Cow::Borrowed(_)));
        let j = json!({"h": {"Authorization": "Bearer s3cr3t-token"}, "s3cr3t-token": [1, "x s3cr3t-token"]});
        let red = r.redact_json(&j);
        assert_eq!(red["h"]["Authorization"], "Bearer <redacted>");
        assert_eq!(red["<redacted>"][1], "x <redacted>");
    }

    #[test]
    fn a_secret_with_quotes_is_redacted_in_structures() {
        // Printing escapes `"` and `\`: structural redaction still finds it.
        let mut r = Redactor::default();
        r.add(r#"pa"ss\word"#);
        let j = json!({"password": r#"pa"ss\word"#});
        let printed = serde_json::to_string(&r.redact_json(&j)).unwrap();
        assert_eq!(printed, r#"{"password":"<redacted>"}"#);
        assert!(printed.contains(REDACTED));
    }

    #[test]
    fn escaped_spellings_in_printed_text_are_redacted_too() {
        let mut r = Redactor::default();
        r.add_named("T", r#"pa"ss\word"#);
        // As an error message built by printing the value quotes it.
        let msg = format!(
            "keyword expects a name, got {}",
            serde_json::json!(r#"pa"ss\word"#)
        );
        assert!(!r.redact_str(&msg).contains("ss"), "{}", r.redact_str(&msg));
        assert_eq!(r.named().count(), 1);
    }

    /// A secret as a service echoes it back: URL-encoded in a query
    /// string, base64 in a decoded header.
    #[test]
    fn encoded_spellings_are_redacted_too() {
        let mut r = Redactor::default();
        r.add_named("MY_TOKEN", "AbC/dEf+GhI=jk");
        for echoed in [
            "GET /x?api_key=AbC%2FdEf%2BGhI%3Djk",
            "api_key=AbC%2fdEf%2bGhI%3djk",
            "basic QWJDL2RFZitHaEk9ams=",
            "QWJDL2RFZitHaEk9ams",
            "QWJDL2RFZitHaEk9ams=",
        ] {
            let out = r.redact_str(echoed);
            assert!(out.contains(REDACTED), "{echoed} -> {out}");
            assert!(!out.contains("AbC"), "{echoed} -> {out}");
        }
        // The names a plan reads stay the plain ones.
        assert_eq!(r.named().count(), 1);
        // Short secrets get no encoded spellings (they would be words).
        let mut r = Redactor::default();
        r.add_named("PIN", "1234");
        assert_eq!(r.redact_str("MTIzNA== 1234"), "MTIzNA== <redacted>");
    }

    #[test]
    fn longest_secret_first_and_no_duplicates() {
        let mut r = Redactor::default();
        r.add("abc");
        r.add("abcdef");
        r.add("abc");
        r.add("");
        assert_eq!(r.redact_str("xabcdefx abc"), "x<redacted>x <redacted>");
        assert_eq!(r.named().count(), 2);
    }

    #[test]
    fn reads_named_variables_through_the_lookup() {
        let r = Redactor::from_env(&["A".into(), "B".into(), "C".into()], |n| match n {
            "A" => Some("alpha-secret".into()),
            "B" => Some(String::new()),
            _ => None,
        });
        assert_eq!(r.named().collect::<Vec<_>>(), vec![("A", "alpha-secret")]);
    }
}
