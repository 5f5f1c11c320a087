//! Secret redaction.
//!
//! Secret values (the values of environment variables the policy names, plus
//! any given explicitly) are passed to capabilities untouched, but every
//! string that reaches the causal chain, a log or the output has each
//! occurrence replaced by `<redacted>`.

use std::sync::Arc;

/// The replacement text.
pub const REDACTED: &str = "<redacted>";

/// Replaces secret values in strings, JSON and RTFS values.
#[derive(Debug, Clone, Default)]
pub struct Redactor {
    /// `(name, value)` pairs, longest value first so overlapping secrets
    /// are replaced whole.
    secrets: Vec<(String, String)>,
}

impl Redactor {
    /// Reads the named environment variables; unset or empty ones are skipped.
    pub fn from_env_names(names: &[String]) -> Redactor {
        let mut r = Redactor::default();
        for name in names {
            if let Ok(v) = std::env::var(name) {
                r.add_named(name, v);
            }
        }
        r
    }

    /// Adds a secret value with no name.
    pub fn add(&mut self, value: String) {
        let n = format!("secret{}", self.secrets.len() + 1);
        self.add_named(&n, value);
    }

    fn add_named(&mut self, name: &str, value: String) {
        if value.is_empty() {
            return;
        }
        self.secrets.push((name.to_string(), value));
        self.secrets
            .sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
    }

    /// The `secrets` map plans can read: `(:GITHUB_TOKEN secrets)`.
    pub fn bindings(&self) -> rtfs::Value {
        rtfs::Value::map(
            self.secrets
                .iter()
                .map(|(k, v)| (rtfs::json::json_key(k), rtfs::Value::string(v))),
        )
    }

    /// True when there is nothing to redact.
    pub fn is_empty(&self) -> bool {
        self.secrets.is_empty()
    }

    /// `s` with every secret replaced.
    pub fn redact_str(&self, s: &str) -> String {
        let mut out = s.to_string();
        for (_, v) in &self.secrets {
            if out.contains(v.as_str()) {
                out = out.replace(v.as_str(), REDACTED);
            }
        }
        out
    }

    /// A JSON value with every string (and object key) redacted.
    pub fn redact_json(&self, j: &serde_json::Value) -> serde_json::Value {
        use serde_json::Value as J;
        if self.is_empty() {
            return j.clone();
        }
        match j {
            J::String(s) => J::String(self.redact_str(s)),
            J::Array(a) => J::Array(a.iter().map(|x| self.redact_json(x)).collect()),
            J::Object(o) => J::Object(
                o.iter()
                    .map(|(k, v)| (self.redact_str(k), self.redact_json(v)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    /// An RTFS value with every string, keyword and symbol redacted.
    pub fn redact_value(&self, v: &rtfs::Value) -> rtfs::Value {
        use rtfs::Value as V;
        if self.is_empty() {
            return v.clone();
        }
        match v {
            V::Str(s) => V::Str(Arc::from(self.redact_str(s))),
            V::Keyword(s) => V::Keyword(Arc::from(self.redact_str(s))),
            V::Symbol(s) => V::Symbol(Arc::from(self.redact_str(s))),
            V::List(items) => V::list(items.iter().map(|x| self.redact_value(x)).collect()),
            V::Vector(items) => V::vector(items.iter().map(|x| self.redact_value(x)).collect()),
            V::Map(m) => V::map(
                m.iter()
                    .map(|(k, x)| (self.redact_value(k), self.redact_value(x))),
            ),
            other => other.clone(),
        }
    }

    /// An error with its message, help and thrown value redacted.
    pub fn redact_error(&self, mut e: rtfs::RtfsError) -> rtfs::RtfsError {
        if self.is_empty() {
            return e;
        }
        e.message = self.redact_str(&e.message);
        e.help = e.help.map(|h| self.redact_str(&h));
        e.thrown = e.thrown.map(|t| self.redact_value(&t));
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacts_everywhere() {
        let mut r = Redactor::default();
        r.add("s3cr3t-token".into());
        assert_eq!(r.redact_str("Bearer s3cr3t-token!"), "Bearer <redacted>!");
        let v = rtfs::eval_str(r#"{:auth "s3cr3t-token" :n [1 "x s3cr3t-token"]}"#).unwrap();
        assert_eq!(
            r.redact_value(&v).to_string(),
            r#"{:auth "<redacted>" :n [1 "x <redacted>"]}"#
        );
        let j = serde_json::json!({"h": {"Authorization": "Bearer s3cr3t-token"}});
        assert_eq!(r.redact_json(&j)["h"]["Authorization"], "Bearer <redacted>");
    }

    #[test]
    fn longest_secret_first() {
        let mut r = Redactor::default();
        r.add("abc".into());
        r.add("abcdef".into());
        assert_eq!(r.redact_str("xabcdefx"), "x<redacted>x");
    }
}
