//! Integration tests for ccos-store, written once and run against both
//! engines: SQLite (always) and PostgreSQL (when `CCOS_TEST_DATABASE_URL` is
//! set; with `CI=true` an unset URL is a failure, not a skip).

#[path = "it/chain.rs"]
mod chain;
#[path = "it/common.rs"]
mod common;
#[path = "it/concurrency.rs"]
mod concurrency;
#[path = "it/embeddings.rs"]
mod embeddings;
#[path = "it/graph.rs"]
mod graph;
#[path = "it/outcomes.rs"]
mod outcomes;
#[path = "it/plans.rs"]
mod plans;
