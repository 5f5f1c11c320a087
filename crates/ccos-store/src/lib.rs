//! Persistent, auditable stores for ccos.
//!
//! Auditability is the point: every intent, plan, decision and effect is
//! recorded so "why did it call X?" has a traceable answer. This crate holds
//! three stores behind one handle, [`Store`]:
//!
//! - the **intent graph** ([`Intent`], [`Edge`]): goals, their status and
//!   metadata, and typed edges (`IsSubgoalOf`, `DependsOn`, ...) with queries
//!   for children, topologically ordered dependencies, ancestors and
//!   subgraphs;
//! - the **causal chain** ([`ChainEntry`]): an append-only, hash-linked log.
//!   Each entry's `hash` is SHA-256 over a canonical JSON encoding of its
//!   fields and its predecessor's hash (see [`canonical`]), so
//!   [`Store::verify_chain`] detects an altered byte, a removed entry or a
//!   reordering. The API has no update or delete;
//! - the **plan archive** ([`PlanRecord`]): every generated RTFS plan with
//!   its IR, generation mode, diagnostics and status.
//!
//! # Engines
//!
//! [`Store::open`] takes `sqlite://PATH` (the embedded default; the file and
//! its directory are created if missing) or `postgres://...`.
//!
//! **Design choice (sqlx "any" support):** rather than `sqlx::Any`, whose
//! type mapping is the lowest common denominator and hides engine-specific
//! transaction control, the store holds a small enum over the two concrete
//! pools ([`sqlx::SqlitePool`] / [`sqlx::PgPool`]). Every query is written
//! once, with `$N` placeholders (understood by both engines) and portable
//! types only (`TEXT`, `BIGINT`; JSON and timestamps are stored as text), and
//! run through a dispatch macro, so both engines share one code path. The
//! only engine-specific code is how an append takes its lock:
//!
//! - SQLite: the file is opened in WAL mode with `synchronous=FULL` (an
//!   acknowledged append survives `kill -9` and power loss) and a busy
//!   timeout; appends run in `BEGIN IMMEDIATE` transactions, which serialise
//!   writers across threads *and* processes.
//! - PostgreSQL: appends run in a transaction that first takes
//!   `LOCK TABLE causal_chain IN SHARE ROW EXCLUSIVE MODE` (self-conflicting,
//!   so appenders queue; readers are not blocked).
//!
//! In both, `seq` is the primary key, a backstop against a forked chain.
//!
//! **Migrations:** a tiny versioned `schema_migrations(version, name,
//! applied_at)` table, applied by [`Store::open`] inside a write-locked
//! transaction so that several processes opening a fresh database at once
//! apply each migration exactly once. The migration list lives in
//! `src/db.rs`; the SQL is the same for both engines.

mod canonical_impl;
mod chain;
mod db;
mod embeddings;
mod error;
mod graph;
mod outcomes;
mod plans;

pub use chain::{ChainEntry, GENESIS_HASH, NewEntry, VerifyReport};
pub use db::{Engine, Store};
pub use error::StoreError;
pub use graph::{Edge, EdgeKind, Intent, IntentStatus, NewIntent, Subgraph};
pub use outcomes::{Outcome, OutcomeKind};
pub use plans::{NewPlan, PlanRecord};

/// Canonical JSON encoding and the chain hash, exposed so other tools (and
/// auditors) can recompute an entry's hash independently.
pub mod canonical {
    pub use crate::canonical_impl::{canonical_json, entry_hash, sha256_hex};
}

/// The current time as RFC 3339 UTC with microseconds, e.g.
/// `2026-01-02T03:04:05.000006Z` (fixed width, so text order is time order).
pub fn now_rfc3339() -> String {
    let now = time::OffsetDateTime::now_utc();
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}Z",
        now.year(),
        u8::from(now.month()),
        now.day(),
        now.hour(),
        now.minute(),
        now.second(),
        now.microsecond()
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn timestamps_are_fixed_width_rfc3339() {
        let t = super::now_rfc3339();
        assert_eq!(t.len(), 27, "{t}");
        assert!(t.ends_with('Z'));
        assert!(
            time::OffsetDateTime::parse(&t, &time::format_description::well_known::Rfc3339).is_ok()
        );
    }
}
