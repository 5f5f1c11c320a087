//! Conversion between RTFS values and JSON.
//!
//! RTFS → JSON: nil → null, keywords → strings without the colon, lists and
//! vectors → arrays, maps → objects whose keys are strings (keywords lose
//! their colon; other keys print canonically). Non-finite floats and
//! functions have no JSON form and are errors.
//!
//! JSON → RTFS: objects → maps whose keys become keywords when they are
//! valid keyword names (`"perPage"` → `:perPage`) and stay strings otherwise
//! (`"first name"`), so every converted value prints and reads back
//! unchanged. Integers that fit in 64 bits stay integers; larger ones become
//! floats.

use std::sync::Arc;

use crate::error::{ErrorKind, Result, RtfsError};
use crate::syntax::is_valid_keyword_name;
use crate::value::{Map, Value};

/// Converts a value to JSON.
pub fn to_json(v: &Value) -> Result<serde_json::Value> {
    use serde_json::Value as J;
    Ok(match v {
        Value::Nil => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Int(i) => J::from(*i),
        Value::Float(f) => serde_json::Number::from_f64(*f)
            .map(J::Number)
            .ok_or_else(|| {
                RtfsError::new(
                    ErrorKind::Type,
                    format!("{} has no JSON form", crate::printer::format_float(*f)),
                )
            })?,
        Value::Str(s) => J::String(s.to_string()),
        Value::Keyword(k) => J::String(k.to_string()),
        Value::Symbol(s) => J::String(s.to_string()),
        Value::List(items) | Value::Vector(items) => {
            J::Array(items.iter().map(to_json).collect::<Result<_>>()?)
        }
        Value::Map(m) => {
            let mut obj = serde_json::Map::new();
            for (k, val) in m.iter() {
                let key = match k {
                    Value::Str(s) => s.to_string(),
                    Value::Keyword(s) | Value::Symbol(s) => s.to_string(),
                    other => other.to_string(),
                };
                obj.insert(key, to_json(val)?);
            }
            J::Object(obj)
        }
        Value::Function(f) => {
            return Err(RtfsError::new(
                ErrorKind::Type,
                format!("function {} has no JSON form", f.name()),
            ));
        }
    })
}

/// Converts JSON to a value.
pub fn from_json(j: &serde_json::Value) -> Value {
    use serde_json::Value as J;
    match j {
        J::Null => Value::Nil,
        J::Bool(b) => Value::Bool(*b),
        J::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        J::String(s) => Value::Str(Arc::from(s.as_str())),
        J::Array(items) => Value::vector(items.iter().map(from_json).collect()),
        J::Object(obj) => {
            let m: Map = obj
                .iter()
                .map(|(k, v)| (json_key(k), from_json(v)))
                .collect();
            Value::Map(Arc::new(m))
        }
    }
}

/// The RTFS key for a JSON object key: a keyword when it can be one.
pub fn json_key(k: &str) -> Value {
    if is_valid_keyword_name(k) {
        Value::keyword(k)
    } else {
        Value::string(k)
    }
}

/// Parses JSON text to a value; the error says where the text is malformed.
pub fn parse_json_str(text: &str) -> Result<Value> {
    serde_json::from_str::<serde_json::Value>(text)
        .map(|j| from_json(&j))
        .map_err(|e| {
            RtfsError::new(
                ErrorKind::Parse,
                format!(
                    "invalid JSON at line {} column {}: {e}",
                    e.line(),
                    e.column()
                ),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_through_json() {
        let v = parse_json_str(r#"{"a": [1, 2.5, null, true], "first name": "x", "perPage": 10}"#)
            .unwrap();
        assert_eq!(
            v.to_string(),
            r#"{"first name" "x" :a [1 2.5 nil true] :perPage 10}"#
        );
        let j = to_json(&v).unwrap();
        assert_eq!(j["perPage"], 10);
        assert_eq!(j["first name"], "x");
    }

    #[test]
    fn no_json_for_nan() {
        assert!(to_json(&Value::Float(f64::NAN)).is_err());
    }

    #[test]
    fn bad_json_says_where() {
        let e = parse_json_str("{\"a\": }").unwrap_err();
        assert!(e.message.contains("line 1 column 7"), "{}", e.message);
    }
}
