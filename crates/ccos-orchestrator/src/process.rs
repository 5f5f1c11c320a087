//! Which process runs a plan, and whether it is gone: `run_started`
//! records the pid, the host name and (on Linux) the process's start time,
//! so a later ccos process can tell a run whose process was killed
//! (`SIGKILL`) from one still running, without mistaking a reused pid.

/// The current process: `(pid, host name, start time in clock ticks)`.
pub fn identity() -> (u32, Option<String>, Option<u64>) {
    let pid = std::process::id();
    (pid, host_name(), start_time(pid))
}

/// The machine's host name.
pub fn host_name() -> Option<String> {
    let mut buf = [0u8; 256];
    // SAFETY: gethostname writes at most `buf.len()` bytes into `buf`.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if rc != 0 {
        return None;
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    std::str::from_utf8(&buf[..end]).ok().map(str::to_string)
}

/// A process's start time (field 22 of `/proc/PID/stat`), when known.
pub fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may contain spaces: fields after the
    // last ')' are space-separated, starting with field 3.
    let after = stat.rsplit_once(')')?.1;
    after.split_whitespace().nth(19)?.parse().ok()
}

/// True when the process `pid` of this machine that started at
/// `proc_start` no longer exists (it exited or was killed); false when it
/// (or a process we cannot tell apart from it) still runs.
pub fn is_gone(pid: u32, proc_start: Option<u64>) -> bool {
    let Ok(raw) = i32::try_from(pid) else {
        return true;
    };
    // SAFETY: signal 0 only checks that the process exists.
    let alive = unsafe { libc::kill(raw, 0) } == 0
        || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM);
    if !alive {
        return true;
    }
    match (proc_start, start_time(pid)) {
        (Some(recorded), Some(now)) => recorded != now,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_not_gone_and_a_dead_one_is() {
        let (pid, _, start) = identity();
        assert!(!is_gone(pid, start));
        if start.is_some() {
            // Same pid, another start time: a reused pid, not our process.
            assert!(is_gone(pid, start.map(|s| s + 1)));
        }
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let child_pid = child.id();
        child.wait().unwrap();
        assert!(is_gone(child_pid, None));
    }
}
