//! Execution outcomes: one row per capability (or agent) call, success or
//! failure, so planner synthesis can adjust trust from experience (the
//! feedback loop of spec 026 v0.4). Scoring reads the counts through
//! [`Store::outcome_stats`].

use serde::Serialize;
use sqlx::Row;

use crate::db::{Store, on_pool};
use crate::error::{Ctx, StoreError};

/// What an outcome is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OutcomeKind {
    /// A capability call.
    Capability,
    /// A call of an (RTFS) agent.
    Agent,
}

impl OutcomeKind {
    /// `capability` or `agent`.
    pub fn as_str(self) -> &'static str {
        match self {
            OutcomeKind::Capability => "capability",
            OutcomeKind::Agent => "agent",
        }
    }
}

/// One recorded outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// Capability or agent id.
    pub subject: String,
    /// `capability` or `agent`.
    pub kind: String,
    /// True when the call succeeded.
    pub ok: bool,
    /// The run it happened in.
    pub run_id: Option<String>,
    /// When (RFC 3339 UTC).
    pub ts: String,
}

impl Store {
    /// Records the outcome of one call of `subject`.
    pub async fn record_outcome(
        &self,
        subject: &str,
        kind: OutcomeKind,
        ok: bool,
        run_id: Option<&str>,
    ) -> Result<(), StoreError> {
        if subject.trim().is_empty() {
            return Err(StoreError::Invalid("outcome subject is empty".into()));
        }
        let ts = ccos_core::now_rfc3339();
        let id = ccos_core::new_id("outcome", subject);
        on_pool!(self, p => {
            sqlx::query(
                "INSERT INTO outcomes (id, subject, kind, ok, run_id, ts) VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(&id)
            .bind(subject)
            .bind(kind.as_str())
            .bind(i64::from(ok))
            .bind(run_id)
            .bind(&ts)
            .execute(p)
            .await
            .ctx(|| format!("recording an outcome of `{subject}`"))?;
        });
        Ok(())
    }

    /// `(successes, failures)` recorded for `subject` (any kind).
    pub async fn outcome_stats(&self, subject: &str) -> Result<(u64, u64), StoreError> {
        let (ok, total): (i64, i64) = on_pool!(self, p => {
            let row = sqlx::query(
                "SELECT CAST(COALESCE(SUM(ok), 0) AS BIGINT) AS ok, COUNT(*) AS total FROM outcomes WHERE subject = $1",
            )
            .bind(subject)
            .fetch_one(p)
            .await
            .ctx(|| format!("reading the outcomes of `{subject}`"))?;
            (
                row.try_get::<i64, _>("ok").ctx(|| "decoding an outcome count".into())?,
                row.try_get::<i64, _>("total").ctx(|| "decoding an outcome count".into())?,
            )
        });
        let ok = u64::try_from(ok).unwrap_or(0);
        let total = u64::try_from(total).unwrap_or(0);
        Ok((ok, total.saturating_sub(ok)))
    }

    /// The outcomes of `subject`, oldest first.
    pub async fn outcomes(&self, subject: &str) -> Result<Vec<Outcome>, StoreError> {
        on_pool!(self, p => {
            let rows = sqlx::query(
                "SELECT subject, kind, ok, run_id, ts FROM outcomes WHERE subject = $1 ORDER BY ts, id",
            )
            .bind(subject)
            .fetch_all(p)
            .await
            .ctx(|| format!("reading the outcomes of `{subject}`"))?;
            rows.iter()
                .map(|r| -> Result<Outcome, sqlx::Error> {
                    Ok(Outcome {
                        subject: r.try_get("subject")?,
                        kind: r.try_get("kind")?,
                        ok: r.try_get::<i64, _>("ok")? != 0,
                        run_id: r.try_get("run_id")?,
                        ts: r.try_get("ts")?,
                    })
                })
                .collect::<Result<Vec<_>, _>>()
                .ctx(|| "decoding an outcome row".into())
        })
    }
}
