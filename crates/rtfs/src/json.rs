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
//!
//! Bounds: [`from_json_bounded`] and [`parse_json_bounded`] refuse a value
//! beyond the evaluator's value limits (use them for outside data such as
//! a tool's result), and [`to_json_string_within`] writes JSON text within
//! a byte budget without building a `serde_json::Value` first.

use std::sync::Arc;

use crate::error::{ErrorKind, Result, RtfsError};
use crate::eval::Limits;
use crate::syntax::is_valid_keyword_name;
use crate::value::{Coll, Map, Value};

/// Converts a value to JSON. The work and the result are proportional to
/// the value's logical size ([`Value::logical_size`]).
pub fn to_json(v: &Value) -> Result<serde_json::Value> {
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || to_json_inner(v))
}

fn to_json_inner(v: &Value) -> Result<serde_json::Value> {
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

/// Converts JSON to a value. For JSON of modest, known size; convert
/// outside data (a tool's result) with [`from_json_bounded`].
pub fn from_json(j: &serde_json::Value) -> Value {
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || from_json_inner(j))
}

fn from_json_inner(j: &serde_json::Value) -> Value {
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
            Value::Map(Coll::<Map>::new(m))
        }
    }
}

/// Converts JSON to a value within `limits.max_value_bytes` and
/// `limits.max_value_depth`: a [`ErrorKind::Limit`] error naming the bound
/// otherwise, found while converting (a too-deep document is refused at
/// the first level past the limit). The bounded counterpart of
/// [`from_json`], for outside data such as a tool's result.
pub fn from_json_bounded(j: &serde_json::Value, limits: &Limits) -> Result<Value> {
    from_json_at(j, limits, 0)
}

fn from_json_at(j: &serde_json::Value, limits: &Limits, depth: usize) -> Result<Value> {
    use serde_json::Value as J;
    let nested = |items: &[serde_json::Value]| -> Result<Vec<Value>> {
        items
            .iter()
            .map(|x| from_json_at(x, limits, depth + 1))
            .collect()
    };
    if matches!(j, J::Array(_) | J::Object(_)) && depth >= limits.max_value_depth {
        return Err(crate::value::value_too_deep(
            depth + 1,
            limits.max_value_depth,
        ));
    }
    let v = stacker::maybe_grow(64 * 1024, 1024 * 1024, || -> Result<Value> {
        Ok(match j {
            J::Array(items) => Value::vector(nested(items)?),
            J::Object(obj) => {
                let mut m = Map::new();
                for (k, v) in obj {
                    m.insert(json_key(k), from_json_at(v, limits, depth + 1)?);
                }
                Value::Map(Coll::<Map>::new(m))
            }
            // An integer past 64 bits ("id": 12345678901234567890) would
            // come back rounded as a float: an error, nothing lost.
            J::Number(n) if past_64_bits(n) => return Err(unfit_integer(n)),
            scalar => from_json_inner(scalar),
        })
    })?;
    limits.check_value(&v)?;
    Ok(v)
}

/// Parses JSON text to a value within `limits` (see [`from_json_bounded`]);
/// the error says where the text is malformed or which bound it passes.
pub fn parse_json_bounded(text: &str, limits: &Limits) -> Result<Value> {
    let j = parse_serde(text)?;
    from_json_bounded(&j, limits)
}

/// The JSON text of `v`, exactly as `to_json(v)?.to_string()` gives it,
/// written directly (no `serde_json::Value` is built) and refused with a
/// [`ErrorKind::Limit`] error as soon as it passes `max_bytes`.
pub fn to_json_string_within(v: &Value, max_bytes: usize) -> Result<String> {
    let mut out = Vec::new();
    write_json(&mut out, v, max_bytes)?;
    String::from_utf8(out)
        .map_err(|e| RtfsError::new(ErrorKind::Type, format!("JSON text is not UTF-8: {e}")))
}

fn json_too_long(max: usize) -> RtfsError {
    RtfsError::new(
        ErrorKind::Limit,
        format!("value size limit exceeded: the JSON text would be longer than {max} bytes"),
    )
}

/// Writes scalars with serde_json's own formatting (numbers, escapes), so
/// the text is the one `to_json(v)?.to_string()` gives.
fn serde_written(r: serde_json::Result<()>) -> Result<()> {
    r.map_err(|e| RtfsError::new(ErrorKind::Type, format!("cannot write JSON: {e}")))
}

fn write_json(out: &mut Vec<u8>, v: &Value, max: usize) -> Result<()> {
    if out.len() > max {
        return Err(json_too_long(max));
    }
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || -> Result<()> {
        match v {
            Value::Nil => out.extend_from_slice(b"null"),
            Value::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
            Value::Int(i) => serde_written(serde_json::to_writer(&mut *out, i))?,
            Value::Float(f) => {
                if !f.is_finite() {
                    return Err(RtfsError::new(
                        ErrorKind::Type,
                        format!("{} has no JSON form", crate::printer::format_float(*f)),
                    ));
                }
                serde_written(serde_json::to_writer(&mut *out, f))?
            }
            Value::Str(s) | Value::Keyword(s) | Value::Symbol(s) => {
                if out.len().saturating_add(s.len()) > max {
                    return Err(json_too_long(max));
                }
                serde_written(serde_json::to_writer(&mut *out, &**s))?
            }
            Value::List(items) | Value::Vector(items) => {
                out.push(b'[');
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    write_json(out, x, max)?;
                }
                out.push(b']');
            }
            Value::Map(m) => write_object(out, m, max)?,
            Value::Function(f) => {
                return Err(RtfsError::new(
                    ErrorKind::Type,
                    format!("function {} has no JSON form", f.name()),
                ));
            }
        }
        if out.len() > max {
            return Err(json_too_long(max));
        }
        Ok(())
    })
}

/// The JSON object key of an RTFS map key.
fn object_key(k: &Value, max: usize) -> Result<Arc<str>> {
    match k {
        Value::Str(s) | Value::Keyword(s) | Value::Symbol(s) => Ok(s.clone()),
        other => crate::printer::print_value_within(other, max)
            .map(Arc::from)
            .ok_or_else(|| json_too_long(max)),
    }
}

/// An object as `serde_json` (with `preserve_order`) builds it from the
/// map's entries in order: a key that comes again (`:a` and `"a"`) keeps
/// its first position and takes its last value.
fn write_object(out: &mut Vec<u8>, m: &Map, max: usize) -> Result<()> {
    let mut entries: Vec<(Arc<str>, &Value)> = Vec::with_capacity(m.len());
    let mut seen: std::collections::HashMap<Arc<str>, usize> = Default::default();
    for (k, v) in m.iter() {
        let key = object_key(k, max)?;
        match seen.get(&key) {
            Some(&i) => {
                // Converted (and checked) like the value it replaces.
                let mut scratch = Vec::new();
                write_json(&mut scratch, entries[i].1, max)?;
                entries[i].1 = v;
            }
            None => {
                seen.insert(key.clone(), entries.len());
                entries.push((key, v));
            }
        }
    }
    out.push(b'{');
    for (i, (k, v)) in entries.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        if out.len().saturating_add(k.len()) > max {
            return Err(json_too_long(max));
        }
        serde_written(serde_json::to_writer(&mut *out, &**k))?;
        out.push(b':');
        write_json(out, v, max)?;
    }
    out.push(b'}');
    Ok(())
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
/// For text of modest, known size; parse outside data with
/// [`parse_json_bounded`].
pub fn parse_json_str(text: &str) -> Result<Value> {
    let j = parse_serde(text)?;
    // An integer past 64 bits would come back rounded as a float.
    if let Some(n) = first_unfit_integer(&j) {
        return Err(unfit_integer(n));
    }
    Ok(from_json(&j))
}

/// The first integer of `j` that does not fit in 64 bits (signed).
fn first_unfit_integer(j: &serde_json::Value) -> Option<&serde_json::Number> {
    use serde_json::Value as J;
    let mut stack = vec![j];
    while let Some(v) = stack.pop() {
        match v {
            J::Number(n) if past_64_bits(n) => return Some(n),
            J::Array(items) => stack.extend(items.iter()),
            J::Object(obj) => stack.extend(obj.values()),
            _ => {}
        }
    }
    None
}

/// Whether `n` is an integer a 64-bit signed integer does not hold.
fn past_64_bits(n: &serde_json::Number) -> bool {
    n.is_u64() && n.as_i64().is_none()
}

fn unfit_integer(n: &serde_json::Number) -> RtfsError {
    RtfsError::new(
        ErrorKind::Type,
        format!("the integer {n} does not fit in 64 bits (signed); it would be rounded"),
    )
}

/// Parses JSON text (serde_json refuses nesting deeper than 128).
fn parse_serde(text: &str) -> Result<serde_json::Value> {
    serde_json::from_str::<serde_json::Value>(text).map_err(|e| {
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
    fn integers_past_64_bits_are_an_error_not_rounded() {
        let text = r#"{"ids": [1, {"id": 12345678901234567890}]}"#;
        let e = parse_json_str(text).unwrap_err();
        assert!(e.message.contains("12345678901234567890"), "{}", e.message);
        let e = parse_json_bounded(text, &Limits::default()).unwrap_err();
        assert!(e.message.contains("does not fit"), "{}", e.message);
        assert_eq!(
            parse_json_str(r#"[9223372036854775807, -9223372036854775808]"#)
                .unwrap()
                .to_string(),
            "[9223372036854775807 -9223372036854775808]"
        );
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
