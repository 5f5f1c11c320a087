//! Peak resident memory of the current process, for benchmarks that
//! report it beside their latencies (Linux; `None` elsewhere).

/// Resets the process's peak resident memory (`VmHWM`) to its current
/// resident memory, so the next [`peak_mib`] is the peak of one stage
/// (Linux ≥ 4.0; a no-op elsewhere).
pub fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// The peak resident memory since the process started or the last
/// [`reset_peak`], in MiB.
pub fn peak_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_peak_covers_what_was_touched() {
        let Some(before) = super::peak_mib() else {
            return; // not Linux
        };
        super::reset_peak();
        let block = vec![1u8; 64 << 20];
        std::hint::black_box(&block);
        let after = super::peak_mib().unwrap_or(0.0);
        assert!(after >= 64.0, "{before} -> {after}");
    }
}
