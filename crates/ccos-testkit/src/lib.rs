//! # Test support for ccos (and the goal suite's fixture server)
//!
//! What more than one crate's tests need, in one place:
//!
//! - [`http::LoopbackServer`]: a real HTTP/1.1 server on 127.0.0.1 whose
//!   answers a test scripts byte for byte (status, headers, body, hangs);
//!   tests never touch the network;
//! - `mcp::TestServers` (feature `mcp`): the real MCP servers installed
//!   under `tools/mcp/` by `scripts/ci/mcp-servers.sh`;
//! - [`fixtures::Fixtures`]: the goal suite's fixture server (plain routes,
//!   an invented TMDB, a GitHub-like API), for `ccos eval goals` and
//!   end-to-end tests of imported OpenAPI operations;
//! - [`cli::Ccos`]: runs the real `ccos` binary in a temporary home with
//!   every `CCOS_*` variable of the developer's environment removed;
//! - `pg` (feature `pg`): a fresh PostgreSQL schema per test;
//! - [`rss`]: peak resident memory, and [`rng`]: a seeded generator,
//!   for benchmarks;
//! - [`required`]: skip locally with a note, fail under `CI=true`.
//!
//! ```
//! use ccos_testkit::http::{LoopbackServer, Reply};
//!
//! let server = LoopbackServer::start(|req| Reply::json(200, &serde_json::json!({"path": req.path})));
//! let url = server.url("/hello");
//! assert!(url.starts_with("http://127.0.0.1:"));
//! ```

pub mod cli;
pub mod fixtures;
pub mod http;
#[cfg(feature = "mcp")]
pub mod mcp;
#[cfg(feature = "pg")]
pub mod pg;
pub mod rng;
pub mod rss;

use std::path::PathBuf;

/// True when running under CI (`CI=true` or `CI=1`): missing test
/// prerequisites are failures there, notes elsewhere.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// `Some(value)` when a prerequisite is present; otherwise prints a note
/// naming it and returns `None` (the test skips) — or panics under CI,
/// where every test must really run.
pub fn required<T>(what: &str, value: Option<T>) -> Option<T> {
    if value.is_some() {
        return value;
    }
    assert!(!in_ci(), "CI=true but {what} is missing");
    eprintln!("note: skipping: {what} is missing");
    None
}

/// The repository root (the directory with the workspace `Cargo.toml`).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The public benchmark data: `$CCOS_BENCH_DIR`, else
/// `<repo root>/../shared/bench`, when it exists (see [`required`]).
pub fn bench_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("CCOS_BENCH_DIR")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("../shared/bench"));
    required(
        &format!("the bench directory {} (set CCOS_BENCH_DIR)", dir.display()),
        dir.is_dir().then_some(dir.clone()),
    )
}
