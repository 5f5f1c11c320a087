//! Canonical JSON for hashing: RFC 8785 (JSON Canonicalization Scheme).
//!
//! [`canonical_json`] is JCS as the RFC defines it: object members sorted by
//! the UTF-16 code units of their names, no insignificant whitespace,
//! strings with the minimal escapes, numbers as ECMAScript prints doubles
//! (the `serde_json_canonicalizer` crate). Because JCS numbers are doubles,
//! [`audit_safe`] first turns integers beyond ±(2^53 − 1) into decimal
//! strings, so a recorded value is never silently rounded.
//!
//! [`legacy_canonical_json`] is the encoding of chain format 1 (keys sorted
//! by UTF-8 bytes, numbers as serde_json prints them), kept only so chains
//! written before format 2 still verify.

use serde_json::Value as Json;
use sha2::{Digest, Sha256};

/// The largest integer magnitude a JCS number (an IEEE double) holds exactly.
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// `value` with every integer beyond ±[`MAX_SAFE_INTEGER`] replaced by its
/// decimal string (I-JSON, RFC 7493 §2.2), so JCS encodes it losslessly.
pub fn audit_safe(value: Json) -> Json {
    match value {
        Json::Number(n) => {
            let unsafe_int = match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => u > MAX_SAFE_INTEGER,
                (None, Some(i)) => i.unsigned_abs() > MAX_SAFE_INTEGER,
                (None, None) => false,
            };
            if unsafe_int {
                Json::String(n.to_string())
            } else {
                Json::Number(n)
            }
        }
        Json::Array(items) => Json::Array(items.into_iter().map(audit_safe).collect()),
        Json::Object(map) => {
            Json::Object(map.into_iter().map(|(k, v)| (k, audit_safe(v))).collect())
        }
        other => other,
    }
}

/// The RFC 8785 canonical encoding of `value` (apply [`audit_safe`] first
/// to keep large integers exact). Fails only for what JSON cannot hold.
pub fn canonical_json(value: &Json) -> Result<String, String> {
    serde_json_canonicalizer::to_string(value).map_err(|e| format!("canonical JSON: {e}"))
}

/// The chain format 1 encoding: keys sorted by their UTF-8 bytes at every
/// level, no whitespace, strings and numbers as serde_json writes them.
pub fn legacy_canonical_json(value: &Json) -> String {
    let mut out = String::new();
    write_legacy(value, &mut out);
    out
}

fn write_legacy(value: &Json, out: &mut String) {
    match value {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Number(n) => out.push_str(&n.to_string()),
        Json::String(s) => out.push_str(&Json::String(s.clone()).to_string()),
        Json::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_legacy(item, out);
            }
            out.push(']');
        }
        Json::Object(map) => {
            let mut entries: Vec<(&String, &Json)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            out.push('{');
            for (i, (k, v)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Json::String(k.clone()).to_string());
                out.push(':');
                write_legacy(v, out);
            }
            out.push('}');
        }
    }
}

/// SHA-256 of `bytes`, lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sorts_by_utf16_code_units_not_utf8_bytes() {
        // U+E000 (private use) sorts after U+1F600 (an emoji) in UTF-8 byte
        // order but before it in UTF-16 code units (the emoji is a
        // surrogate pair starting 0xD83D < 0xE000).
        let mut m = serde_json::Map::new();
        m.insert("\u{e000}".into(), json!(1));
        m.insert("\u{1f600}".into(), json!(2));
        let v = Json::Object(m);
        assert_eq!(
            canonical_json(&v).unwrap(),
            "{\"\u{1f600}\":2,\"\u{e000}\":1}"
        );
        assert_eq!(
            legacy_canonical_json(&v),
            "{\"\u{e000}\":1,\"\u{1f600}\":2}"
        );
    }

    #[test]
    fn numbers_print_as_ecmascript_doubles() {
        let v = json!({"a": 1.0, "b": 1e21, "c": 1e-7, "d": -0.0, "e": 120, "f": 2.5});
        assert_eq!(
            canonical_json(&v).unwrap(),
            r#"{"a":1,"b":1e+21,"c":1e-7,"d":0,"e":120,"f":2.5}"#
        );
    }

    #[test]
    fn the_rfc_example_canonicalises_as_published() {
        // RFC 8785 section 3.2.2's example input and output.
        let input: Json = serde_json::from_str(
            r#"{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
                "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
                "literals": [null, true, false]}"#,
        )
        .unwrap();
        assert_eq!(
            canonical_json(&input).unwrap(),
            "{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],\"string\":\"€$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}"
        );
    }

    #[test]
    fn large_integers_become_strings() {
        let v = audit_safe(
            json!({"n": 9007199254740993u64, "m": -9007199254740993i64, "ok": 9007199254740991u64}),
        );
        assert_eq!(v["n"], "9007199254740993");
        assert_eq!(v["m"], "-9007199254740993");
        assert_eq!(v["ok"], 9007199254740991u64);
    }

    #[test]
    fn canonical_form_is_a_fixed_point() {
        let v = json!({"n": 1.5, "s": "\u{1}é", "o": {"z": [1, {"y": 2, "x": 1}]}});
        let once = canonical_json(&v).unwrap();
        let reparsed: Json = serde_json::from_str(&once).unwrap();
        assert_eq!(canonical_json(&reparsed).unwrap(), once);
    }
}
