//! Unique ids and timestamps.
//!
//! Every id ccos creates (intents, plans, runs) comes from [`new_id`]:
//! `PREFIX-` followed by 16 hex digits of a SHA-256 over the content, the
//! time, the process id and a process-wide counter, so two ids made in the
//! same nanosecond by two processes still differ.

use std::sync::atomic::{AtomicU64, Ordering};

use sha2::{Digest, Sha256};

/// A unique id `PREFIX-<16 hex digits>`.
pub fn new_id(prefix: &str, content: &str) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = Sha256::new();
    h.update(content.as_bytes());
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    h.update(nanos.to_le_bytes());
    h.update(std::process::id().to_le_bytes());
    h.update(COUNTER.fetch_add(1, Ordering::Relaxed).to_le_bytes());
    let digest = h.finalize();
    format!("{prefix}-{}", hex::encode(&digest[..8]))
}

/// The current time as RFC 3339 UTC with microseconds, e.g.
/// `2026-01-02T03:04:05.000006Z`: fixed width, so text order is time order.
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
    use super::*;

    #[test]
    fn ids_are_prefixed_and_unique() {
        let a = new_id("run", "same");
        let b = new_id("run", "same");
        assert!(a.starts_with("run-") && a.len() == 4 + 16, "{a}");
        assert_ne!(a, b);
    }

    #[test]
    fn timestamps_have_fixed_width() {
        let t = now_rfc3339();
        assert_eq!(t.len(), "2026-01-02T03:04:05.000006Z".len(), "{t}");
        assert!(t.ends_with('Z'));
    }
}
