//! Test databases for both engines.

use std::sync::atomic::{AtomicU64, Ordering};

use ccos_store::Store;

/// The engine a test runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eng {
    Sqlite,
    Pg,
}

/// A fresh, empty store plus what is needed to tamper with it directly.
pub struct TestDb {
    pub store: Store,
    pub url: String,
    pub eng: Eng,
    pub schema: Option<String>,
    _dir: Option<tempfile::TempDir>,
}

/// The PostgreSQL URL for tests, or `None` (with a note) outside CI.
pub fn pg_base_url() -> Option<String> {
    match std::env::var("CCOS_TEST_DATABASE_URL") {
        Ok(u) if !u.is_empty() => Some(u),
        _ => {
            if std::env::var("CI")
                .map(|v| v == "true" || v == "1")
                .unwrap_or(false)
            {
                panic!(
                    "CCOS_TEST_DATABASE_URL is not set but CI=true: PostgreSQL tests must run in CI \
                     (start a server with scripts/ci/postgres.sh)"
                );
            }
            // Written to stderr directly (not captured by libtest), once.
            static NOTE: std::sync::Once = std::sync::Once::new();
            NOTE.call_once(|| {
                use std::io::Write;
                let _ = writeln!(
                    std::io::stderr(),
                    "note: CCOS_TEST_DATABASE_URL is not set; skipping the PostgreSQL variants \
                     (start a server with scripts/ci/postgres.sh)"
                );
            });
            None
        }
    }
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

fn unique(prefix: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!(
        "{prefix}_{}_{}_{nanos}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::SeqCst)
    )
}

/// `base` with `search_path` set to `schema` for every connection.
pub fn pg_url_with_schema(base: &str, schema: &str) -> String {
    let sep = if base.contains('?') { '&' } else { '?' };
    format!("{base}{sep}options=-csearch_path%3D{schema}")
}

/// Creates a fresh database for `eng`: a temp SQLite file, or a new schema
/// in the test PostgreSQL database. `None` when PostgreSQL is not configured.
pub async fn fresh(eng: Eng) -> Option<TestDb> {
    match eng {
        Eng::Sqlite => {
            let dir = tempfile::tempdir().expect("tempdir");
            let url = format!("sqlite://{}", dir.path().join("store.db").display());
            let store = Store::open(&url).await.expect("open sqlite store");
            Some(TestDb {
                store,
                url,
                eng,
                schema: None,
                _dir: Some(dir),
            })
        }
        Eng::Pg => {
            let base = pg_base_url()?;
            let schema = unique("ccos_t");
            let admin = sqlx::PgPool::connect(&base)
                .await
                .expect("connect to CCOS_TEST_DATABASE_URL");
            sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
                .execute(&admin)
                .await
                .expect("create schema");
            admin.close().await;
            let url = pg_url_with_schema(&base, &schema);
            let store = Store::open(&url).await.expect("open postgres store");
            Some(TestDb {
                store,
                url,
                eng,
                schema: Some(schema),
                _dir: None,
            })
        }
    }
}

impl TestDb {
    /// Runs raw SQL against the database, bypassing the store's API (for tampering).
    pub async fn exec(&self, sql: &str) -> u64 {
        match self.eng {
            Eng::Sqlite => {
                let pool = sqlx::SqlitePool::connect(&self.url)
                    .await
                    .expect("raw sqlite");
                let n = sqlx::query(sqlx::AssertSqlSafe(sql.to_string()))
                    .execute(&pool)
                    .await
                    .expect("raw sql")
                    .rows_affected();
                pool.close().await;
                n
            }
            Eng::Pg => {
                let pool = sqlx::PgPool::connect(&self.url).await.expect("raw pg");
                let n = sqlx::query(sqlx::AssertSqlSafe(sql.to_string()))
                    .execute(&pool)
                    .await
                    .expect("raw sql")
                    .rows_affected();
                pool.close().await;
                n
            }
        }
    }

    /// Closes the store and drops the PostgreSQL schema.
    pub async fn cleanup(self) {
        self.store.close().await;
        if let Some(schema) = &self.schema
            && let Some(base) = pg_base_url()
            && let Ok(admin) = sqlx::PgPool::connect(&base).await
        {
            let _ = sqlx::query(sqlx::AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE")))
                .execute(&admin)
                .await;
            admin.close().await;
        }
    }
}

/// Generates `sqlite::NAME` and `pg::NAME` tests from `async fn NAME(eng: Eng)`.
#[macro_export]
macro_rules! engine_tests {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name($crate::common::Eng::Sqlite).await
                }
            )*
        }
        mod pg {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name($crate::common::Eng::Pg).await
                }
            )*
        }
    };
}
