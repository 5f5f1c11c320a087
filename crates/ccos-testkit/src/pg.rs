//! PostgreSQL for tests: the server of `CCOS_TEST_DATABASE_URL` (started
//! by `scripts/ci/postgres.sh`; required under CI), one fresh schema per
//! test so tests never see each other's rows.

use std::sync::atomic::{AtomicU64, Ordering};

/// The test server's URL, or `None` with a note (a failure under CI).
pub fn base_url() -> Option<String> {
    let url = std::env::var("CCOS_TEST_DATABASE_URL")
        .ok()
        .filter(|u| !u.is_empty());
    crate::required(
        "CCOS_TEST_DATABASE_URL (PostgreSQL; start one with scripts/ci/postgres.sh)",
        url,
    )
}

/// A schema name no other test uses.
pub fn unique_schema(prefix: &str) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
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
pub fn url_with_schema(base: &str, schema: &str) -> String {
    let sep = if base.contains('?') { '&' } else { '?' };
    format!("{base}{sep}options=-csearch_path%3D{schema}")
}

/// Creates a fresh schema on the test server; returns its name and a URL
/// whose connections use it (`None` when no server is configured).
pub async fn fresh_schema(prefix: &str) -> Option<(String, String)> {
    let base = base_url()?;
    let schema = unique_schema(prefix);
    let admin = sqlx::PgPool::connect(&base)
        .await
        .expect("connecting to CCOS_TEST_DATABASE_URL");
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
        .execute(&admin)
        .await
        .expect("creating a test schema");
    admin.close().await;
    let url = url_with_schema(&base, &schema);
    Some((schema, url))
}

/// Drops a schema made by [`fresh_schema`].
pub async fn drop_schema(schema: &str) {
    let Some(base) = base_url() else { return };
    if let Ok(admin) = sqlx::PgPool::connect(&base).await {
        let _ = sqlx::query(sqlx::AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE")))
            .execute(&admin)
            .await;
        admin.close().await;
    }
}

/// [`fresh_schema`] for tests outside a runtime.
pub fn fresh_schema_blocking(prefix: &str) -> Option<(String, String)> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a test runtime")
        .block_on(fresh_schema(prefix))
}
