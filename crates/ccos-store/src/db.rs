//! Opening a store, the two engines, and schema migrations.

use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};

use crate::error::{Ctx, StoreError};

/// How long a connection attempt or a wait for a lock may take before the
/// operation fails instead of hanging.
pub(crate) const WAIT: Duration = Duration::from_secs(30);

/// Which database engine backs a [`Store`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// An embedded SQLite file.
    Sqlite,
    /// A PostgreSQL server.
    Postgres,
}

pub(crate) enum Pool {
    Sqlite(sqlx::SqlitePool),
    Postgres(sqlx::PgPool),
}

/// Runs `$body` with `$p` bound to the concrete pool, whichever engine it is.
/// The body is compiled once per engine, so the SQL and the decoding code are
/// shared while the types stay concrete.
macro_rules! on_pool {
    ($store:expr, $p:ident => $body:expr) => {
        match &*$store.pool {
            $crate::db::Pool::Sqlite($p) => $body,
            $crate::db::Pool::Postgres($p) => $body,
        }
    };
}
pub(crate) use on_pool;

/// A handle on the three stores (intent graph, causal chain, plan archive).
/// Cheap to clone; share one per process.
#[derive(Clone)]
pub struct Store {
    pub(crate) pool: std::sync::Arc<Pool>,
    url: String,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("url", &self.url).finish()
    }
}

/// One schema migration; the SQL runs unchanged on both engines.
struct Migration {
    version: i64,
    name: &'static str,
    statements: &'static [&'static str],
}

const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "intent graph, causal chain, plan archive",
        statements: &[
            "CREATE TABLE intents (
            id TEXT PRIMARY KEY,
            goal TEXT NOT NULL,
            constraints TEXT NOT NULL,
            preferences TEXT NOT NULL,
            status TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            metadata TEXT NOT NULL
        )",
            "CREATE INDEX intents_status ON intents (status)",
            "CREATE TABLE intent_edges (
            from_id TEXT NOT NULL,
            to_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (from_id, to_id, kind)
        )",
            "CREATE INDEX intent_edges_to ON intent_edges (to_id, kind)",
            "CREATE TABLE causal_chain (
            seq BIGINT PRIMARY KEY,
            kind TEXT NOT NULL,
            intent_id TEXT,
            plan_id TEXT,
            run_id TEXT,
            payload TEXT NOT NULL,
            ts TEXT NOT NULL,
            prev_hash TEXT NOT NULL,
            hash TEXT NOT NULL
        )",
            "CREATE INDEX causal_chain_intent ON causal_chain (intent_id, seq)",
            "CREATE INDEX causal_chain_plan ON causal_chain (plan_id, seq)",
            "CREATE INDEX causal_chain_run ON causal_chain (run_id, seq)",
            // The last appended entry, updated in the same transaction as each
            // append: lets `verify` notice entries removed from the end.
            "CREATE TABLE chain_head (
            id BIGINT PRIMARY KEY,
            last_seq BIGINT NOT NULL,
            last_hash TEXT NOT NULL
        )",
            "CREATE TABLE plans (
            id TEXT PRIMARY KEY,
            intent_id TEXT NOT NULL,
            rtfs TEXT NOT NULL,
            ir TEXT,
            generation_mode TEXT NOT NULL,
            diagnostics TEXT NOT NULL,
            status TEXT NOT NULL,
            created_at TEXT NOT NULL
        )",
            "CREATE INDEX plans_intent ON plans (intent_id)",
            "CREATE INDEX plans_created ON plans (created_at, id)",
        ],
    },
    Migration {
        version: 2,
        name: "embedding cache",
        statements: &["CREATE TABLE embeddings (
            model TEXT NOT NULL,
            text_hash TEXT NOT NULL,
            dim BIGINT NOT NULL,
            vector TEXT NOT NULL,
            PRIMARY KEY (model, text_hash)
        )"],
    },
    Migration {
        version: 3,
        name: "execution outcomes (trust feedback)",
        statements: &[
            "CREATE TABLE outcomes (
            id TEXT PRIMARY KEY,
            subject TEXT NOT NULL,
            kind TEXT NOT NULL,
            ok BIGINT NOT NULL,
            run_id TEXT,
            ts TEXT NOT NULL
        )",
            "CREATE INDEX outcomes_subject ON outcomes (subject, kind)",
        ],
    },
    Migration {
        version: 4,
        name: "causal chain format column (RFC 8785 hashing)",
        // Entries written before this migration keep format 1 (legacy
        // canonical JSON); new ones are format 2. See docs/chain-format.md.
        statements: &[
            "ALTER TABLE causal_chain ADD COLUMN format BIGINT NOT NULL DEFAULT 1",
            "CREATE INDEX causal_chain_kind ON causal_chain (kind, seq)",
        ],
    },
];

const CREATE_MIGRATIONS_TABLE: &str = "CREATE TABLE IF NOT EXISTS schema_migrations (
    version BIGINT PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
)";

/// True for SQLite's "database is locked" / "busy" errors.
fn is_busy(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Database(d) => matches!(d.code().as_deref(), Some("5") | Some("6")),
        _ => false,
    }
}

/// The URL without its password, for error messages.
fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    match rest.split_once('@') {
        Some((userinfo, host)) if userinfo.contains(':') => {
            let user = userinfo.split(':').next().unwrap_or_default();
            format!("{scheme}://{user}:***@{host}")
        }
        _ => url.to_string(),
    }
}

impl Store {
    /// Opens (creating if needed) the store at `url` and applies pending
    /// migrations.
    ///
    /// - `sqlite://PATH` (also `sqlite:PATH`): a file; it and its parent
    ///   directory are created if missing. WAL, `synchronous=FULL`, busy
    ///   timeout 30 s.
    /// - `postgres://...` / `postgresql://...`: a server; query parameters
    ///   are the driver's (e.g. `options=-csearch_path%3Dmy_schema`).
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        let pool = if let Some(path) = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
        {
            if path.is_empty() {
                return Err(StoreError::InvalidUrl(url.to_string()));
            }
            let path = std::path::Path::new(path);
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|source| StoreError::Io {
                    op: format!("creating store directory {}", dir.display()),
                    source,
                })?;
            }
            let opts = SqliteConnectOptions::new()
                .filename(path)
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Full)
                .busy_timeout(WAIT)
                .foreign_keys(true);
            // Two processes opening a brand-new file at once race to switch
            // it to WAL, which SQLite reports as "database is locked"
            // without waiting; retry that case with a backoff, up to WAIT.
            // No idle reaping (`idle_timeout`, `max_lifetime`: None, here
            // and for PostgreSQL): sqlx's reaper task can read an
            // underflowed idle count and spin without yielding, which
            // hung `ccos mcp discover` at exit at 100 % CPU (a test run;
            // sqlx issue #3645, fixed upstream by #4289, not in sqlx-core
            // 0.9.0). With `min_connections` 0 no such task is spawned; a
            // short-lived CLI and a local file gain nothing from reaping.
            let started = std::time::Instant::now();
            let mut delay = Duration::from_millis(20);
            let pool = loop {
                match SqlitePoolOptions::new()
                    .max_connections(4)
                    .acquire_timeout(WAIT)
                    .idle_timeout(None)
                    .max_lifetime(None)
                    .connect_with(opts.clone())
                    .await
                {
                    Ok(pool) => break pool,
                    Err(source) if is_busy(&source) && started.elapsed() < WAIT => {
                        tokio::time::sleep(delay).await;
                        delay = (delay * 2).min(Duration::from_millis(500));
                    }
                    Err(source) => {
                        return Err(StoreError::Open {
                            url: url.to_string(),
                            source,
                        });
                    }
                }
            };
            Pool::Sqlite(pool)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let opts = PgConnectOptions::from_str(url).map_err(|source| StoreError::Open {
                url: redact(url),
                source,
            })?;
            let pool = PgPoolOptions::new()
                .max_connections(5)
                .acquire_timeout(WAIT)
                .idle_timeout(None)
                .max_lifetime(None)
                .connect_with(opts)
                .await
                .map_err(|source| StoreError::Open {
                    url: redact(url),
                    source,
                })?;
            Pool::Postgres(pool)
        } else {
            return Err(StoreError::InvalidUrl(redact(url)));
        };
        let store = Store {
            pool: std::sync::Arc::new(pool),
            url: redact(url),
        };
        store.migrate().await?;
        Ok(store)
    }

    /// Which engine this store runs on.
    pub fn engine(&self) -> Engine {
        match &*self.pool {
            Pool::Sqlite(_) => Engine::Sqlite,
            Pool::Postgres(_) => Engine::Postgres,
        }
    }

    /// The URL this store was opened with (password redacted).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Closes every pooled connection (waits for in-flight queries).
    pub async fn close(&self) {
        on_pool!(self, p => p.close().await)
    }

    /// The schema versions applied so far, ascending.
    pub async fn schema_versions(&self) -> Result<Vec<i64>, StoreError> {
        on_pool!(self, p => {
            sqlx::query_scalar::<_, i64>("SELECT version FROM schema_migrations ORDER BY version")
                .fetch_all(p)
                .await
                .ctx(|| "reading schema_migrations".into())
        })
    }

    /// Applies pending migrations under a write lock, each in the same
    /// transaction as its `schema_migrations` row.
    async fn migrate(&self) -> Result<(), StoreError> {
        macro_rules! apply {
            ($tx:ident) => {{
                sqlx::query(CREATE_MIGRATIONS_TABLE)
                    .execute(&mut *$tx)
                    .await
                    .ctx(|| "creating schema_migrations".into())?;
                let applied: Vec<i64> =
                    sqlx::query_scalar("SELECT version FROM schema_migrations")
                        .fetch_all(&mut *$tx)
                        .await
                        .ctx(|| "reading schema_migrations".into())?;
                for m in MIGRATIONS.iter().filter(|m| !applied.contains(&m.version)) {
                    for stmt in m.statements {
                        sqlx::query(*stmt).execute(&mut *$tx).await.ctx(|| {
                            format!("applying migration {} ({})", m.version, m.name)
                        })?;
                    }
                    sqlx::query(
                        "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                    )
                    .bind(m.version)
                    .bind(m.name)
                    .bind(ccos_core::now_rfc3339())
                    .execute(&mut *$tx)
                    .await
                    .ctx(|| format!("recording migration {}", m.version))?;
                }
                $tx.commit().await.ctx(|| "committing migrations".into())
            }};
        }
        match &*self.pool {
            Pool::Sqlite(p) => {
                let mut tx = p
                    .begin_with("BEGIN IMMEDIATE")
                    .await
                    .ctx(|| "locking the database for migrations".into())?;
                apply!(tx)
            }
            Pool::Postgres(p) => {
                let mut tx = p.begin().await.ctx(|| "starting migrations".into())?;
                // Serialises concurrent first opens (CREATE TABLE IF NOT
                // EXISTS is not safe against itself in PostgreSQL). Keyed by
                // the current schema so separate schemas do not wait on
                // each other.
                sqlx::query("SELECT pg_advisory_xact_lock(7305218, hashtext(current_schema()))")
                    .execute(&mut *tx)
                    .await
                    .ctx(|| "locking the database for migrations".into())?;
                apply!(tx)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacts_passwords() {
        assert_eq!(
            redact("postgres://u:secret@h:5432/db"),
            "postgres://u:***@h:5432/db"
        );
        assert_eq!(redact("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(redact("sqlite:///tmp/x.db"), "sqlite:///tmp/x.db");
    }

    #[tokio::test]
    async fn rejects_unknown_schemes_and_migrates_once() {
        assert!(matches!(
            Store::open("mysql://x").await,
            Err(StoreError::InvalidUrl(_))
        ));
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("a/b/s.db").display());
        let s = Store::open(&url).await.unwrap();
        assert_eq!(s.engine(), Engine::Sqlite);
        s.close().await;
        let s = Store::open(&url).await.unwrap();
        assert_eq!(s.schema_versions().await.unwrap(), vec![1, 2, 3, 4]);
        s.close().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn many_first_opens_of_a_new_file_all_succeed() {
        // Several connections racing to create the file, switch it to WAL
        // and migrate it: none may fail with "database is locked".
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("race.db").display());
        let opens: Vec<_> = (0..8)
            .map(|_| {
                let url = url.clone();
                tokio::spawn(async move { Store::open(&url).await })
            })
            .collect();
        for o in opens {
            let s = o.await.unwrap().unwrap();
            assert_eq!(s.schema_versions().await.unwrap(), vec![1, 2, 3, 4]);
            s.close().await;
        }
    }
}
