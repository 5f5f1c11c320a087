//! Canonical JSON (keys sorted recursively, no whitespace) and the entry hash.
//!
//! The workspace enables serde_json's `preserve_order`, so `serde_json::Map`
//! iterates in insertion order; the encoder here sorts keys itself.

use serde_json::Value;
use sha2::{Digest, Sha256};

/// Encodes `value` canonically: object keys sorted by their UTF-8 bytes at
/// every level, no insignificant whitespace, strings escaped as serde_json
/// does, numbers in serde_json's shortest round-trip form.
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => write_str(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            out.push('{');
            for (i, (k, v)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_str(k, out);
                out.push(':');
                write_canonical(v, out);
            }
            out.push('}');
        }
    }
}

fn write_str(s: &str, out: &mut String) {
    // Serialising a &str cannot fail; fall back to a manual escape anyway.
    match serde_json::to_string(s) {
        Ok(q) => out.push_str(&q),
        Err(_) => {
            out.push('"');
            for c in s.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                    c => out.push(c),
                }
            }
            out.push('"');
        }
    }
}

/// SHA-256 of `bytes`, lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// The hash of a causal-chain entry: SHA-256 (hex) of the canonical JSON
/// object `{"intent_id","kind","payload","plan_id","prev_hash","run_id",
/// "seq","timestamp"}` (absent ids are `null`).
#[allow(clippy::too_many_arguments)]
pub fn entry_hash(
    seq: i64,
    kind: &str,
    intent_id: Option<&str>,
    plan_id: Option<&str>,
    run_id: Option<&str>,
    payload: &Value,
    timestamp: &str,
    prev_hash: &str,
) -> String {
    let doc = serde_json::json!({
        "seq": seq,
        "kind": kind,
        "intent_id": intent_id,
        "plan_id": plan_id,
        "run_id": run_id,
        "payload": payload,
        "timestamp": timestamp,
        "prev_hash": prev_hash,
    });
    sha256_hex(canonical_json(&doc).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_are_sorted_recursively_regardless_of_insertion_order() {
        let a = json!({"b": 1, "a": {"z": [1, {"y": 2, "x": 1}], "c": null}});
        assert_eq!(
            canonical_json(&a),
            r#"{"a":{"c":null,"z":[1,{"x":1,"y":2}]},"b":1}"#
        );
        let mut m = serde_json::Map::new();
        m.insert("z".into(), json!(1));
        m.insert("a".into(), json!("é\n\"q\""));
        assert_eq!(
            canonical_json(&Value::Object(m)),
            r#"{"a":"é\n\"q\"","z":1}"#
        );
    }

    #[test]
    fn canonical_form_is_a_fixed_point() {
        let v = json!({"n": 1.5, "m": -0.0, "big": 12345678901234567u64, "s": "\u{1}"});
        let once = canonical_json(&v);
        let reparsed: Value = serde_json::from_str(&once).unwrap();
        assert_eq!(canonical_json(&reparsed), once);
    }

    #[test]
    fn hash_depends_on_every_field() {
        let base = entry_hash(1, "k", Some("i"), None, None, &json!({}), "t", GEN);
        assert_eq!(base.len(), 64);
        assert_ne!(
            base,
            entry_hash(2, "k", Some("i"), None, None, &json!({}), "t", GEN)
        );
        assert_ne!(
            base,
            entry_hash(1, "j", Some("i"), None, None, &json!({}), "t", GEN)
        );
        assert_ne!(
            base,
            entry_hash(1, "k", None, None, None, &json!({}), "t", GEN)
        );
        assert_ne!(
            base,
            entry_hash(1, "k", Some("i"), Some("p"), None, &json!({}), "t", GEN)
        );
        assert_ne!(
            base,
            entry_hash(1, "k", Some("i"), None, Some("r"), &json!({}), "t", GEN)
        );
        assert_ne!(
            base,
            entry_hash(1, "k", Some("i"), None, None, &json!({"a":1}), "t", GEN)
        );
        assert_ne!(
            base,
            entry_hash(1, "k", Some("i"), None, None, &json!({}), "u", GEN)
        );
        assert_ne!(
            base,
            entry_hash(1, "k", Some("i"), None, None, &json!({}), "t", "1")
        );
    }

    const GEN: &str = crate::chain::GENESIS_HASH;
}
