//! Test databases for both engines.

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
            let (schema, url) = ccos_testkit::pg::fresh_schema("ccos_t").await?;
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
        if let Some(schema) = &self.schema {
            ccos_testkit::pg::drop_schema(schema).await;
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
