//! The entry hash: what links the causal chain.

use serde_json::{Value as Json, json};

use super::canonical::{canonical_json, legacy_canonical_json, sha256_hex};

/// `prev_hash` of the first entry: 64 zeros.
pub const GENESIS_HASH: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// The chain format written today (see `docs/chain-format.md`):
/// RFC 8785 canonical JSON of the entry header, `format` included.
pub const CHAIN_FORMAT: u32 = 2;

/// The fields of an entry that its hash covers, as stored.
#[derive(Debug, Clone, Copy)]
pub struct HashedFields<'a> {
    /// Chain format of the entry (1: legacy, 2: RFC 8785).
    pub format: u32,
    /// Position in the chain (1, 2, ...).
    pub seq: i64,
    /// Entry kind (`capability_call`...).
    pub kind: &'a str,
    /// Ids the entry concerns.
    pub intent_id: Option<&'a str>,
    /// Plan id.
    pub plan_id: Option<&'a str>,
    /// Run id.
    pub run_id: Option<&'a str>,
    /// The payload as a JSON value (as parsed back from storage).
    pub payload: &'a Json,
    /// RFC 3339 time of the append.
    pub timestamp: &'a str,
    /// Hash of the previous entry ([`GENESIS_HASH`] for seq 1).
    pub prev_hash: &'a str,
}

/// The hash of an entry: SHA-256 (lowercase hex) of the canonical JSON of
/// the object `{"format", "intent_id", "kind", "payload", "plan_id",
/// "prev_hash", "run_id", "seq", "timestamp"}` (absent ids are `null`).
/// Format 1 entries hash the same object without `format`, in the legacy
/// encoding.
pub fn entry_hash(f: &HashedFields<'_>) -> Result<String, String> {
    let mut doc = json!({
        "seq": f.seq,
        "kind": f.kind,
        "intent_id": f.intent_id,
        "plan_id": f.plan_id,
        "run_id": f.run_id,
        "payload": f.payload,
        "timestamp": f.timestamp,
        "prev_hash": f.prev_hash,
    });
    let text = match f.format {
        1 => legacy_canonical_json(&doc),
        2 => {
            if let Some(o) = doc.as_object_mut() {
                o.insert("format".into(), json!(2));
            }
            canonical_json(&doc)?
        }
        other => return Err(format!("unknown chain format {other}")),
    };
    Ok(sha256_hex(text.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields<'a>(payload: &'a Json) -> HashedFields<'a> {
        HashedFields {
            format: 2,
            seq: 1,
            kind: "k",
            intent_id: Some("i"),
            plan_id: None,
            run_id: None,
            payload,
            timestamp: "t",
            prev_hash: GENESIS_HASH,
        }
    }

    #[test]
    fn hash_depends_on_every_field() {
        let p = json!({});
        let p2 = json!({"a": 1});
        let base = entry_hash(&fields(&p)).unwrap();
        assert_eq!(base.len(), 64);
        let variants = [
            HashedFields {
                format: 1,
                ..fields(&p)
            },
            HashedFields {
                seq: 2,
                ..fields(&p)
            },
            HashedFields {
                kind: "j",
                ..fields(&p)
            },
            HashedFields {
                intent_id: None,
                ..fields(&p)
            },
            HashedFields {
                plan_id: Some("p"),
                ..fields(&p)
            },
            HashedFields {
                run_id: Some("r"),
                ..fields(&p)
            },
            fields(&p2),
            HashedFields {
                timestamp: "u",
                ..fields(&p)
            },
            HashedFields {
                prev_hash: "1",
                ..fields(&p)
            },
        ];
        for v in variants {
            assert_ne!(entry_hash(&v).unwrap(), base, "{v:?}");
        }
        assert!(
            entry_hash(&HashedFields {
                format: 9,
                ..fields(&p)
            })
            .is_err()
        );
    }

    #[test]
    fn format_2_hash_is_sha256_of_the_documented_object() {
        let p = json!({"v": 1, "goal": "x"});
        let expected = sha256_hex(
            br#"{"format":2,"intent_id":"i","kind":"k","payload":{"goal":"x","v":1},"plan_id":null,"prev_hash":"0000000000000000000000000000000000000000000000000000000000000000","run_id":null,"seq":1,"timestamp":"t"}"#,
        );
        assert_eq!(entry_hash(&fields(&p)).unwrap(), expected);
    }
}
