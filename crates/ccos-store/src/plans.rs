//! The plan archive: every generated RTFS plan, kept for audit and replay.

use serde::Serialize;
use serde_json::Value;
use sqlx::Row;

use crate::db::{Store, on_pool};
use crate::error::{Ctx, StoreError};

/// A plan to archive.
#[derive(Debug, Clone, PartialEq)]
pub struct NewPlan {
    /// Unique id chosen by the caller.
    pub id: String,
    /// The intent it serves.
    pub intent_id: String,
    /// The RTFS source.
    pub rtfs: String,
    /// The JSON IR, if any.
    pub ir: Option<Value>,
    /// How it was produced (`llm`, `template`, `manual`...).
    pub generation_mode: String,
    /// Diagnostics from checking it (JSON).
    pub diagnostics: Value,
    /// Initial status (`draft`, `approved`, `rejected`, ...).
    pub status: String,
}

/// An archived plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlanRecord {
    /// Id.
    pub id: String,
    /// The intent it serves.
    pub intent_id: String,
    /// The RTFS source.
    pub rtfs: String,
    /// The JSON IR, if any.
    pub ir: Option<Value>,
    /// How it was produced.
    pub generation_mode: String,
    /// Diagnostics (JSON).
    pub diagnostics: Value,
    /// Current status.
    pub status: String,
    /// When it was archived (RFC 3339 UTC).
    pub created_at: String,
}

const PLAN_COLS: &str = "id, intent_id, rtfs, ir, generation_mode, diagnostics, status, created_at";

struct RawPlan {
    id: String,
    intent_id: String,
    rtfs: String,
    ir: Option<String>,
    generation_mode: String,
    diagnostics: String,
    status: String,
    created_at: String,
}

impl RawPlan {
    fn into_plan(self) -> Result<PlanRecord, StoreError> {
        let json = |what: &str, t: &str| {
            serde_json::from_str::<Value>(t).map_err(|e| {
                StoreError::Corrupt(format!("plan `{}`: {what} is not JSON: {e}", self.id))
            })
        };
        let ir = self.ir.as_deref().map(|t| json("ir", t)).transpose()?;
        let diagnostics = json("diagnostics", &self.diagnostics)?;
        Ok(PlanRecord {
            id: self.id,
            intent_id: self.intent_id,
            rtfs: self.rtfs,
            ir,
            generation_mode: self.generation_mode,
            diagnostics,
            status: self.status,
            created_at: self.created_at,
        })
    }
}

macro_rules! plan_from_row {
    ($row:expr) => {{
        let r = &$row;
        (|| -> Result<RawPlan, sqlx::Error> {
            Ok(RawPlan {
                id: r.try_get("id")?,
                intent_id: r.try_get("intent_id")?,
                rtfs: r.try_get("rtfs")?,
                ir: r.try_get("ir")?,
                generation_mode: r.try_get("generation_mode")?,
                diagnostics: r.try_get("diagnostics")?,
                status: r.try_get("status")?,
                created_at: r.try_get("created_at")?,
            })
        })()
        .ctx(|| "decoding a plan row".into())
    }};
}

impl Store {
    /// Archives a plan. Fails if the id exists.
    pub async fn archive_plan(&self, new: NewPlan) -> Result<PlanRecord, StoreError> {
        if new.id.trim().is_empty() {
            return Err(StoreError::Invalid("plan id is empty".into()));
        }
        if new.status.trim().is_empty() {
            return Err(StoreError::Invalid(format!(
                "plan `{}`: status is empty",
                new.id
            )));
        }
        let rec = PlanRecord {
            id: new.id,
            intent_id: new.intent_id,
            rtfs: new.rtfs,
            ir: new.ir,
            generation_mode: new.generation_mode,
            diagnostics: new.diagnostics,
            status: new.status,
            created_at: ccos_core::now_rfc3339(),
        };
        on_pool!(self, p => {
            sqlx::query(
                "INSERT INTO plans (id, intent_id, rtfs, ir, generation_mode, diagnostics, status, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(&rec.id)
            .bind(&rec.intent_id)
            .bind(&rec.rtfs)
            .bind(rec.ir.as_ref().map(|j| j.to_string()))
            .bind(&rec.generation_mode)
            .bind(rec.diagnostics.to_string())
            .bind(&rec.status)
            .bind(&rec.created_at)
            .execute(p)
            .await
            .ctx(|| format!("archiving plan `{}`", rec.id))?;
        });
        Ok(rec)
    }

    /// The plan `id`, if archived.
    pub async fn get_plan(&self, id: &str) -> Result<Option<PlanRecord>, StoreError> {
        let raw = on_pool!(self, p => {
            let row = sqlx::query(sqlx::AssertSqlSafe(format!(
                "SELECT {PLAN_COLS} FROM plans WHERE id = $1"
            )))
            .bind(id)
            .fetch_optional(p)
            .await
            .ctx(|| format!("reading plan `{id}`"))?;
            match row {
                Some(r) => Some(plan_from_row!(r)?),
                None => None,
            }
        });
        raw.map(RawPlan::into_plan).transpose()
    }

    /// Every plan, newest first (ties: greater id first).
    pub async fn list_plans(&self) -> Result<Vec<PlanRecord>, StoreError> {
        self.plans_query(None).await
    }

    /// The plans of one intent, newest first (ties: greater id first).
    pub async fn plans_for_intent(&self, intent_id: &str) -> Result<Vec<PlanRecord>, StoreError> {
        self.plans_query(Some(intent_id)).await
    }

    async fn plans_query(&self, intent_id: Option<&str>) -> Result<Vec<PlanRecord>, StoreError> {
        let raws = on_pool!(self, p => {
            let rows = match intent_id {
                Some(i) => sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {PLAN_COLS} FROM plans WHERE intent_id = $1 ORDER BY created_at DESC, id DESC"
                )))
                .bind(i)
                .fetch_all(p)
                .await,
                None => sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {PLAN_COLS} FROM plans ORDER BY created_at DESC, id DESC"
                )))
                .fetch_all(p)
                .await,
            }
            .ctx(|| "listing plans".into())?;
            rows.iter().map(|r| plan_from_row!(r)).collect::<Result<Vec<_>, _>>()?
        });
        raws.into_iter().map(RawPlan::into_plan).collect()
    }

    /// Sets a plan's status.
    pub async fn set_plan_status(&self, id: &str, status: &str) -> Result<(), StoreError> {
        if status.trim().is_empty() {
            return Err(StoreError::Invalid(format!("plan `{id}`: status is empty")));
        }
        let n = on_pool!(self, p => {
            sqlx::query("UPDATE plans SET status = $1 WHERE id = $2")
                .bind(status)
                .bind(id)
                .execute(p)
                .await
                .ctx(|| format!("updating the status of plan `{id}`"))?
                .rows_affected()
        });
        if n == 0 {
            return Err(StoreError::NotFound {
                what: "plan",
                id: id.to_string(),
            });
        }
        Ok(())
    }
}
