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
//!   fields and its predecessor's hash (RFC 8785; `ccos_core::audit`, `docs/chain-format.md`), so
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

mod chain;
mod db;
mod embeddings;
mod error;
mod graph;
mod outcomes;
mod plans;

pub use ccos_core::audit::{EntryKind, GENESIS_HASH, NewEntry};
pub use chain::{ChainEntry, VerifyReport};
pub use db::{Engine, Store};
pub use error::StoreError;
pub use graph::{Edge, EdgeKind, Intent, IntentStatus, NewIntent, Subgraph};
pub use outcomes::{Outcome, OutcomeKind};
pub use plans::{NewPlan, PlanRecord};
