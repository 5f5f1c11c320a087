//! The store's error type.

/// Everything that can go wrong in a store operation. Each variant names
/// what was being done so the message is actionable on its own.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The URL is neither `sqlite://PATH` nor `postgres://...`.
    #[error("unsupported store URL `{0}`: expected sqlite://PATH or postgres://...")]
    InvalidUrl(String),
    /// Connecting to (or creating) the database failed.
    #[error("opening store {url}: {source}")]
    Open {
        /// The URL, with any password removed.
        url: String,
        /// The driver error.
        #[source]
        source: sqlx::Error,
    },
    /// A database operation failed.
    #[error("{op}: {source}")]
    Db {
        /// What was being done.
        op: String,
        /// The driver error.
        #[source]
        source: sqlx::Error,
    },
    /// A file-system operation (creating the store directory) failed.
    #[error("{op}: {source}")]
    Io {
        /// What was being done.
        op: String,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// A record does not exist.
    #[error("{what} `{id}` not found")]
    NotFound {
        /// The kind of record (intent, plan...).
        what: &'static str,
        /// Its id.
        id: String,
    },
    /// The caller passed an invalid value (empty kind, non-object metadata...).
    #[error("invalid input: {0}")]
    Invalid(String),
    /// A stored value could not be decoded (bad JSON, unknown status...).
    #[error("corrupt record: {0}")]
    Corrupt(String),
    /// The dependency edges contain a cycle; the ids are listed in order and
    /// the first id is repeated at the end.
    #[error("dependency cycle: {}", .0.join(" -> "))]
    Cycle(Vec<String>),
}

/// Attaches an operation description to driver errors.
pub(crate) trait Ctx<T> {
    /// Maps the error to [`StoreError::Db`] with `op` as context.
    fn ctx(self, op: impl FnOnce() -> String) -> Result<T, StoreError>;
}

impl<T> Ctx<T> for Result<T, sqlx::Error> {
    fn ctx(self, op: impl FnOnce() -> String) -> Result<T, StoreError> {
        self.map_err(|source| StoreError::Db { op: op(), source })
    }
}
