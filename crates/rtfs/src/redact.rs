//! Redaction of RTFS values: every string, keyword and symbol inside a
//! value (map keys included) passes through the one
//! [`ccos_core::Redactor`], before the value is printed or recorded.

use std::sync::Arc;

use ccos_core::Redactor;

use crate::error::RtfsError;
use crate::value::Value;

/// `v` with every secret replaced, structurally (so printing, which
/// escapes quotes and backslashes, can never hide a secret from redaction).
pub fn redact_value(r: &Redactor, v: &Value) -> Value {
    if r.is_empty() {
        return v.clone();
    }
    let text = |s: &Arc<str>| -> Arc<str> {
        match r.redact_str(s) {
            std::borrow::Cow::Borrowed(_) => s.clone(),
            std::borrow::Cow::Owned(o) => Arc::from(o),
        }
    };
    match v {
        Value::Str(s) => Value::Str(text(s)),
        Value::Keyword(s) => Value::Keyword(text(s)),
        Value::Symbol(s) => Value::Symbol(text(s)),
        Value::List(items) => Value::list(items.iter().map(|x| redact_value(r, x)).collect()),
        Value::Vector(items) => Value::vector(items.iter().map(|x| redact_value(r, x)).collect()),
        Value::Map(m) => Value::map(
            m.iter()
                .map(|(k, x)| (redact_value(r, k), redact_value(r, x))),
        ),
        other => other.clone(),
    }
}

/// An error with its message, help and thrown value redacted.
pub fn redact_error(r: &Redactor, mut e: RtfsError) -> RtfsError {
    if r.is_empty() {
        return e;
    }
    e.message = r.redact_str(&e.message).into_owned();
    e.help = e.help.map(|h| r.redact_str(&h).into_owned());
    e.thrown = e.thrown.map(|t| redact_value(r, &t));
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacts_inside_values() {
        let mut r = Redactor::default();
        r.add("s3cr3t-token");
        let v = crate::eval_str(r#"{:auth "s3cr3t-token" :n [1 "x s3cr3t-token"]}"#).unwrap();
        assert_eq!(
            redact_value(&r, &v).to_string(),
            r#"{:auth "<redacted>" :n [1 "x <redacted>"]}"#
        );
        let k = crate::eval_str(r#"{"s3cr3t-token" 1}"#).unwrap();
        assert_eq!(redact_value(&r, &k).to_string(), r#"{"<redacted>" 1}"#);
    }

    #[test]
    fn a_secret_with_a_quote_is_redacted_before_printing() {
        let mut r = Redactor::default();
        r.add("pa\"ss");
        let v = Value::string("pa\"ss");
        assert_eq!(crate::print_value(&redact_value(&r, &v)), "\"<redacted>\"");
    }
}
