//! The embedding cache: vectors of texts under a model id, so capability
//! embeddings are computed once, not on every run.
//!
//! Keyed by `(model, text_hash)`: the model id names the weights (a cache
//! never mixes models), the text hash is the caller's (typically SHA-256 of
//! the embedded text). A vector is stored as text — the hex of its
//! little-endian `f32` bytes — so it round-trips exactly on both engines.
//! The store knows nothing of how vectors are computed.

use std::collections::BTreeMap;

use sqlx::Row;

use crate::db::{Store, on_pool};
use crate::error::{Ctx, StoreError};

/// Hashes looked up per query (keeps the `IN (...)` list well under both
/// engines' parameter limits).
const CHUNK: usize = 500;

fn encode(v: &[f32]) -> String {
    let mut bytes = Vec::with_capacity(v.len() * 4);
    for x in v {
        bytes.extend_from_slice(&x.to_le_bytes());
    }
    hex::encode(bytes)
}

fn decode(model: &str, hash: &str, dim: i64, text: &str) -> Result<Vec<f32>, StoreError> {
    let corrupt = |why: String| StoreError::Corrupt(format!("embedding ({model}, {hash}): {why}"));
    let bytes = hex::decode(text).map_err(|e| corrupt(format!("vector is not hex: {e}")))?;
    if bytes.len() % 4 != 0 || (bytes.len() / 4) as i64 != dim {
        return Err(corrupt(format!(
            "vector has {} bytes, expected {dim} floats",
            bytes.len()
        )));
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

impl Store {
    /// The cached vectors of `model` for those of `hashes` that are
    /// present, by hash (absent hashes are simply missing from the map).
    pub async fn get_embeddings(
        &self,
        model: &str,
        hashes: &[String],
    ) -> Result<BTreeMap<String, Vec<f32>>, StoreError> {
        let mut out = BTreeMap::new();
        let mut wanted: Vec<&String> = hashes.iter().collect();
        wanted.sort();
        wanted.dedup();
        for chunk in wanted.chunks(CHUNK) {
            let placeholders: Vec<String> =
                (0..chunk.len()).map(|i| format!("${}", i + 2)).collect();
            let sql = format!(
                "SELECT text_hash, dim, vector FROM embeddings WHERE model = $1 AND text_hash IN ({})",
                placeholders.join(", ")
            );
            let rows: Vec<(String, i64, String)> = on_pool!(self, p => {
                let mut q = sqlx::query(sqlx::AssertSqlSafe(sql.clone())).bind(model);
                for h in chunk {
                    q = q.bind(h.as_str());
                }
                let rows = q
                    .fetch_all(p)
                    .await
                    .ctx(|| format!("reading cached embeddings of model {model}"))?;
                rows.iter()
                    .map(|r| {
                        Ok((
                            r.try_get::<String, _>("text_hash")?,
                            r.try_get::<i64, _>("dim")?,
                            r.try_get::<String, _>("vector")?,
                        ))
                    })
                    .collect::<Result<Vec<_>, sqlx::Error>>()
                    .ctx(|| "decoding an embedding row".into())?
            });
            for (hash, dim, text) in rows {
                let v = decode(model, &hash, dim, &text)?;
                out.insert(hash, v);
            }
        }
        Ok(out)
    }

    /// Caches vectors of `model` by text hash, in one transaction. A hash
    /// already cached for the model is left as it is (same model, same text
    /// → same vector).
    pub async fn put_embeddings(
        &self,
        model: &str,
        vectors: &[(String, Vec<f32>)],
    ) -> Result<(), StoreError> {
        if model.trim().is_empty() {
            return Err(StoreError::Invalid("embedding model id is empty".into()));
        }
        if vectors.is_empty() {
            return Ok(());
        }
        on_pool!(self, p => {
            let mut tx = p
                .begin()
                .await
                .ctx(|| "starting to cache embeddings".into())?;
            for (hash, v) in vectors {
                sqlx::query(
                    "INSERT INTO embeddings (model, text_hash, dim, vector) VALUES ($1, $2, $3, $4) \
                     ON CONFLICT (model, text_hash) DO NOTHING",
                )
                .bind(model)
                .bind(hash.as_str())
                .bind(v.len() as i64)
                .bind(encode(v))
                .execute(&mut *tx)
                .await
                .ctx(|| format!("caching the embedding {hash} of model {model}"))?;
            }
            tx.commit()
                .await
                .ctx(|| "committing cached embeddings".into())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_round_trip_exactly() {
        let v = vec![0.1f32, -2.5, f32::MIN_POSITIVE, 1e30];
        assert_eq!(decode("m", "h", 4, &encode(&v)).unwrap(), v);
        assert!(decode("m", "h", 5, &encode(&v)).is_err());
        assert!(decode("m", "h", 1, "zz").is_err());
    }
}
