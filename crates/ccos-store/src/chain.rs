//! The causal chain: an append-only, hash-linked log of everything that
//! happened (intents created, plans generated, decisions, calls, approvals,
//! LLM exchanges, runs). The format — entry kinds, payloads, canonical
//! JSON, the hash — is defined in `ccos_core::audit` and documented for
//! auditors in `docs/chain-format.md`; this module stores and verifies it.

use ccos_core::audit::canonical::{canonical_json, legacy_canonical_json};
use ccos_core::audit::{CHAIN_FORMAT, Entry, GENESIS_HASH, HashedFields, NewEntry, entry_hash};
use serde::Serialize;
use serde_json::Value;
use sqlx::Row;

use crate::db::{Pool, Store, on_pool};
use crate::error::{Ctx, StoreError};

/// Entries fetched per round trip by [`Store::verify_chain`].
const VERIFY_PAGE: i64 = 2000;

/// A recorded entry (the protocol's [`Entry`]).
pub type ChainEntry = Entry;

/// The result of [`Store::verify_chain`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VerifyReport {
    /// True when every entry checks out.
    pub ok: bool,
    /// Entries examined (up to and including the first bad one).
    pub entries_checked: u64,
    /// The seq of the first entry found broken (or the first missing seq).
    pub first_bad_seq: Option<i64>,
    /// Why it is broken.
    pub reason: Option<String>,
    /// When the chain verifies: the hash of its last entry, which commits to
    /// every entry before it. Keep it somewhere else (a log, a ticket) to
    /// detect a later consistent rewrite of the whole store.
    pub head_hash: Option<String>,
}

/// A row as stored, payload still text.
struct RawEntry {
    seq: i64,
    format: i64,
    kind: String,
    intent_id: Option<String>,
    plan_id: Option<String>,
    run_id: Option<String>,
    payload: String,
    ts: String,
    prev_hash: String,
    hash: String,
}

macro_rules! raw_from_row {
    ($row:expr) => {{
        let r = &$row;
        (|| -> Result<RawEntry, sqlx::Error> {
            Ok(RawEntry {
                seq: r.try_get("seq")?,
                format: r.try_get("format")?,
                kind: r.try_get("kind")?,
                intent_id: r.try_get("intent_id")?,
                plan_id: r.try_get("plan_id")?,
                run_id: r.try_get("run_id")?,
                payload: r.try_get("payload")?,
                ts: r.try_get("ts")?,
                prev_hash: r.try_get("prev_hash")?,
                hash: r.try_get("hash")?,
            })
        })()
        .ctx(|| "decoding a causal chain row".into())
    }};
}

const COLS: &str = "seq, format, kind, intent_id, plan_id, run_id, payload, ts, prev_hash, hash";

impl RawEntry {
    fn format_u32(&self) -> u32 {
        u32::try_from(self.format).unwrap_or(u32::MAX)
    }

    fn into_entry(self) -> Result<ChainEntry, StoreError> {
        let payload = serde_json::from_str(&self.payload).map_err(|e| {
            StoreError::Corrupt(format!(
                "causal chain entry {}: payload is not JSON: {e}",
                self.seq
            ))
        })?;
        Ok(ChainEntry {
            seq: self.seq,
            format: self.format_u32(),
            kind: self.kind,
            intent_id: self.intent_id,
            plan_id: self.plan_id,
            run_id: self.run_id,
            payload,
            timestamp: self.ts,
            prev_hash: self.prev_hash,
            hash: self.hash,
        })
    }

    /// Checks this entry against its expected seq and predecessor hash.
    fn check(&self, expected_seq: i64, prev_hash: &str) -> Result<(), String> {
        if self.seq != expected_seq {
            return Err(if self.seq > expected_seq {
                format!(
                    "seq gap: entry {expected_seq} is missing (next entry found is {})",
                    self.seq
                )
            } else {
                format!(
                    "seq out of order: expected {expected_seq}, found {}",
                    self.seq
                )
            });
        }
        if self.prev_hash != prev_hash {
            return Err(format!(
                "prev_hash does not match the hash of entry {} (entries removed, reordered or altered)",
                self.seq - 1
            ));
        }
        let payload: Value = serde_json::from_str(&self.payload)
            .map_err(|e| format!("payload is not valid JSON ({e})"))?;
        let canonical = match self.format {
            1 => legacy_canonical_json(&payload),
            2 => canonical_json(&payload)?,
            other => return Err(format!("unknown chain format {other}")),
        };
        if canonical != self.payload {
            return Err("payload text is not in canonical form (altered)".into());
        }
        let hash = entry_hash(&HashedFields {
            format: self.format_u32(),
            seq: self.seq,
            kind: &self.kind,
            intent_id: self.intent_id.as_deref(),
            plan_id: self.plan_id.as_deref(),
            run_id: self.run_id.as_deref(),
            payload: &payload,
            timestamp: &self.ts,
            prev_hash: &self.prev_hash,
        })?;
        if hash != self.hash {
            return Err("hash does not match the entry's content (altered)".into());
        }
        Ok(())
    }
}

/// The recorded head: (last seq, last hash).
const HEAD_QUERY: &str = "SELECT last_seq, last_hash FROM chain_head WHERE id = 1";

/// Where the next entry goes: after the recorded head, not after whatever
/// row is last in the table. When the two disagree (entries removed from the
/// end, rows inserted behind the head's back) the new entry keeps the
/// evidence instead of papering over it: it links to the head's hash and
/// takes the seq after both, so `verify_chain` still reports the gap or the
/// broken link. A chain with entries but no head record (the head is
/// written with the first entry, so it was removed) gets an entry linked to
/// nothing (the genesis hash), which `verify_chain` reports for good.
fn successor(head: Option<(i64, String)>, last: Option<(i64, String)>) -> (i64, String) {
    match (head, last) {
        (Some((head_seq, head_hash)), last) => {
            let last_seq = last.map_or(0, |(s, _)| s);
            (head_seq.max(last_seq) + 1, head_hash)
        }
        (None, Some((last_seq, _))) => (last_seq + 1, GENESIS_HASH.to_string()),
        (None, None) => (1, GENESIS_HASH.to_string()),
    }
}

impl Store {
    /// Appends an entry and returns it as stored. Atomic with respect to its
    /// predecessor: concurrent appenders (threads or processes) queue on a
    /// write lock, so the chain never forks.
    pub async fn append(&self, entry: NewEntry) -> Result<ChainEntry, StoreError> {
        let kind = entry.kind.as_str();
        let payload_text = canonical_json(&entry.payload).map_err(StoreError::Invalid)?;
        macro_rules! append_in {
            ($tx:ident) => {{
                let last: Option<(i64, String)> =
                    sqlx::query_as("SELECT seq, hash FROM causal_chain ORDER BY seq DESC LIMIT 1")
                        .fetch_optional(&mut *$tx)
                        .await
                        .ctx(|| "reading the causal chain's last entry".into())?;
                let head: Option<(i64, String)> =
                    sqlx::query_as(HEAD_QUERY)
                        .fetch_optional(&mut *$tx)
                        .await
                        .ctx(|| "reading the causal chain head".into())?;
                let (seq, prev_hash) = successor(head, last);
                let ts = ccos_core::now_rfc3339();
                let hash = entry_hash(&HashedFields {
                    format: CHAIN_FORMAT,
                    seq,
                    kind,
                    intent_id: entry.intent_id.as_deref(),
                    plan_id: entry.plan_id.as_deref(),
                    run_id: entry.run_id.as_deref(),
                    payload: &entry.payload,
                    timestamp: &ts,
                    prev_hash: &prev_hash,
                })
                .map_err(StoreError::Invalid)?;
                sqlx::query(
                    "INSERT INTO causal_chain (seq, format, kind, intent_id, plan_id, run_id, payload, ts, prev_hash, hash)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
                )
                .bind(seq)
                .bind(i64::from(CHAIN_FORMAT))
                .bind(kind)
                .bind(&entry.intent_id)
                .bind(&entry.plan_id)
                .bind(&entry.run_id)
                .bind(&payload_text)
                .bind(&ts)
                .bind(&prev_hash)
                .bind(&hash)
                .execute(&mut *$tx)
                .await
                .ctx(|| format!("appending causal chain entry {seq}"))?;
                sqlx::query(
                    "INSERT INTO chain_head (id, last_seq, last_hash) VALUES (1, $1, $2)
                     ON CONFLICT (id) DO UPDATE SET last_seq = excluded.last_seq, last_hash = excluded.last_hash",
                )
                .bind(seq)
                .bind(&hash)
                .execute(&mut *$tx)
                .await
                .ctx(|| "updating the causal chain head".into())?;
                $tx.commit().await.ctx(|| format!("committing causal chain entry {seq}"))?;
                ChainEntry {
                    seq,
                    format: CHAIN_FORMAT,
                    kind: kind.to_string(),
                    intent_id: entry.intent_id,
                    plan_id: entry.plan_id,
                    run_id: entry.run_id,
                    payload: entry.payload,
                    timestamp: ts,
                    prev_hash,
                    hash,
                }
            }};
        }
        Ok(match &*self.pool {
            Pool::Sqlite(p) => {
                let mut tx = p
                    .begin_with("BEGIN IMMEDIATE")
                    .await
                    .ctx(|| "locking the causal chain for append".into())?;
                append_in!(tx)
            }
            Pool::Postgres(p) => {
                let mut tx = p.begin().await.ctx(|| "starting an append".into())?;
                sqlx::query("LOCK TABLE causal_chain IN SHARE ROW EXCLUSIVE MODE")
                    .execute(&mut *tx)
                    .await
                    .ctx(|| "locking the causal chain for append".into())?;
                append_in!(tx)
            }
        })
    }

    /// Every entry, in seq order.
    pub async fn chain_all(&self) -> Result<Vec<ChainEntry>, StoreError> {
        self.chain_range(1, i64::MAX).await
    }

    /// Entries with `from <= seq <= to`, in seq order.
    pub async fn chain_range(&self, from: i64, to: i64) -> Result<Vec<ChainEntry>, StoreError> {
        let raws = on_pool!(self, p => {
            let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                "SELECT {COLS} FROM causal_chain WHERE seq >= $1 AND seq <= $2 ORDER BY seq"
            )))
            .bind(from)
            .bind(to)
            .fetch_all(p)
            .await
            .ctx(|| format!("reading causal chain entries {from}..={to}"))?;
            rows.iter().map(|r| raw_from_row!(r)).collect::<Result<Vec<_>, _>>()?
        });
        raws.into_iter().map(RawEntry::into_entry).collect()
    }

    /// Entries concerning intent `id`, in seq order.
    pub async fn chain_by_intent(&self, id: &str) -> Result<Vec<ChainEntry>, StoreError> {
        self.chain_where("intent_id", id).await
    }

    /// Entries concerning plan `id`, in seq order.
    pub async fn chain_by_plan(&self, id: &str) -> Result<Vec<ChainEntry>, StoreError> {
        self.chain_where("plan_id", id).await
    }

    /// Entries of run `id`, in seq order.
    pub async fn chain_by_run(&self, id: &str) -> Result<Vec<ChainEntry>, StoreError> {
        self.chain_where("run_id", id).await
    }

    /// Entries of one kind (`run_started`...), in seq order.
    pub async fn chain_by_kind(&self, kind: &str) -> Result<Vec<ChainEntry>, StoreError> {
        self.chain_where("kind", kind).await
    }

    /// `column` is one of our fixed column names, never user input.
    async fn chain_where(
        &self,
        column: &'static str,
        id: &str,
    ) -> Result<Vec<ChainEntry>, StoreError> {
        let raws = on_pool!(self, p => {
            let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                "SELECT {COLS} FROM causal_chain WHERE {column} = $1 ORDER BY seq"
            )))
            .bind(id)
            .fetch_all(p)
            .await
            .ctx(|| format!("reading causal chain entries with {column} = {id}"))?;
            rows.iter().map(|r| raw_from_row!(r)).collect::<Result<Vec<_>, _>>()?
        });
        raws.into_iter().map(RawEntry::into_entry).collect()
    }

    /// The number of entries.
    pub async fn chain_len(&self) -> Result<i64, StoreError> {
        on_pool!(self, p => {
            sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM causal_chain")
                .fetch_one(p)
                .await
                .ctx(|| "counting causal chain entries".into())
        })
    }

    /// Walks the whole chain and reports the first entry whose hash does not
    /// match its content, whose `prev_hash` does not match its predecessor,
    /// or where a seq is missing or out of order; also checks that the last
    /// entry is the recorded head (entries removed from the end).
    pub async fn verify_chain(&self) -> Result<VerifyReport, StoreError> {
        let mut expected_seq = 1i64;
        let mut prev_hash = GENESIS_HASH.to_string();
        let mut checked = 0u64;
        let bad = |checked, seq, reason: String| VerifyReport {
            ok: false,
            entries_checked: checked,
            first_bad_seq: Some(seq),
            reason: Some(reason),
            head_hash: None,
        };
        // Rows the walk below (seq 1, 2, ...) would never read: a seq of
        // zero, negative or missing is no entry of the chain, yet other
        // readers (a run's story) would show it.
        let stray = on_pool!(self, p => {
            sqlx::query_scalar::<_, i64>(
                "SELECT COUNT(*) FROM causal_chain WHERE seq IS NULL OR seq < 1",
            )
            .fetch_one(p)
            .await
            .ctx(|| "checking causal chain seqs".into())?
        });
        if stray > 0 {
            return Ok(bad(
                0,
                0,
                format!("{stray} row(s) with a seq below 1 or none: not entries of the chain"),
            ));
        }
        let mut after = 0i64;
        loop {
            let page = on_pool!(self, p => {
                let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {COLS} FROM causal_chain WHERE seq > $1 ORDER BY seq LIMIT $2"
                )))
                .bind(after)
                .bind(VERIFY_PAGE)
                .fetch_all(p)
                .await
                .ctx(|| format!("reading causal chain entries after {after}"))?;
                rows.iter().map(|r| raw_from_row!(r)).collect::<Result<Vec<_>, _>>()?
            });
            let n = page.len() as i64;
            for raw in page {
                checked += 1;
                if let Err(reason) = raw.check(expected_seq, &prev_hash) {
                    let at = if raw.seq > expected_seq {
                        expected_seq
                    } else {
                        raw.seq
                    };
                    return Ok(bad(checked, at, reason));
                }
                after = raw.seq;
                expected_seq = raw.seq + 1;
                prev_hash = raw.hash;
            }
            if n < VERIFY_PAGE {
                break;
            }
        }
        let head: Option<(i64, String)> = on_pool!(self, p => {
            sqlx::query_as(HEAD_QUERY)
                .fetch_optional(p)
                .await
                .ctx(|| "reading the causal chain head".into())?
        });
        let last_seq = expected_seq - 1;
        match head {
            None if last_seq == 0 => {}
            None => {
                return Ok(bad(checked, 1, "the chain head record is missing".into()));
            }
            Some((seq, _)) if seq > last_seq => {
                return Ok(bad(
                    checked,
                    last_seq + 1,
                    format!(
                        "entries {}..={seq} are missing (the head records seq {seq})",
                        last_seq + 1
                    ),
                ));
            }
            Some((seq, hash)) if seq != last_seq || hash != prev_hash => {
                return Ok(bad(
                    checked,
                    last_seq,
                    format!(
                        "the last entry ({last_seq}) does not match the recorded head (seq {seq})"
                    ),
                ));
            }
            Some(_) => {}
        }
        Ok(VerifyReport {
            ok: true,
            entries_checked: checked,
            first_bad_seq: None,
            reason: None,
            head_hash: (last_seq > 0).then_some(prev_hash),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ccos_core::audit::EntryKind;
    use serde_json::json;

    async fn store(dir: &tempfile::TempDir) -> Store {
        Store::open(&format!("sqlite://{}", dir.path().join("c.db").display()))
            .await
            .unwrap()
    }

    #[tokio::test]
    async fn links_entries_in_format_2() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(&dir).await;
        let a = s
            .append(NewEntry::raw(
                EntryKind::RunStarted,
                json!({"b": 1, "a": 2.5}),
            ))
            .await
            .unwrap();
        let b = s
            .append(NewEntry::raw(EntryKind::RunEnded, json!({"n": 1e21})).run("r1"))
            .await
            .unwrap();
        assert_eq!((a.seq, b.seq), (1, 2));
        assert_eq!((a.format, b.format), (CHAIN_FORMAT, CHAIN_FORMAT));
        assert_eq!(a.prev_hash, GENESIS_HASH);
        assert_eq!(b.prev_hash, a.hash);
        assert_eq!(s.chain_all().await.unwrap(), vec![a.clone(), b]);
        assert_eq!(a.recompute_hash().unwrap(), a.hash);
        assert!(s.verify_chain().await.unwrap().ok);
        s.close().await;
    }

    #[tokio::test]
    async fn format_1_entries_written_before_still_verify_and_link() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(&dir).await;
        // An entry as the previous version wrote it: legacy canonical text,
        // legacy hash, no `format` (the migration's default, 1).
        let payload = json!({"goal": "old", "x": 1.0});
        let ts = "2026-01-01T00:00:00.000000Z";
        let hash = entry_hash(&HashedFields {
            format: 1,
            seq: 1,
            kind: "intent_created",
            intent_id: Some("i1"),
            plan_id: None,
            run_id: None,
            payload: &payload,
            timestamp: ts,
            prev_hash: GENESIS_HASH,
        })
        .unwrap();
        on_pool!(s, p => {
            sqlx::query("INSERT INTO causal_chain (seq, kind, intent_id, payload, ts, prev_hash, hash) VALUES (1, 'intent_created', 'i1', $1, $2, $3, $4)")
                .bind(legacy_canonical_json(&payload)).bind(ts).bind(GENESIS_HASH).bind(&hash)
                .execute(p).await.unwrap();
            sqlx::query("INSERT INTO chain_head (id, last_seq, last_hash) VALUES (1, 1, $1)")
                .bind(&hash).execute(p).await.unwrap();
        });
        let b = s
            .append(NewEntry::raw(EntryKind::RunEnded, json!({})))
            .await
            .unwrap();
        assert_eq!(b.prev_hash, hash);
        let all = s.chain_all().await.unwrap();
        assert_eq!(all[0].format, 1);
        assert_eq!(all[0].recompute_hash().unwrap(), hash);
        assert!(s.verify_chain().await.unwrap().ok);
        s.close().await;
    }
}
