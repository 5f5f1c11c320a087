//! The terminal: live step progress, and questions to the person at it
//! (approvals, `ccos.user.ask`) that are never drawn over by a spinner.
//!
//! Progress bars live in one [`Terminal`]; asking a question suspends
//! them (`MultiProgress::suspend`) so the prompt stays visible and the
//! answer is typed on a clean line. Output to stdout fits the terminal's
//! width when stdout is a terminal ([`fit`]), and is never cut when piped.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex};

use ccos_marketplace::prompt::{AskError, TerminalPrompter, UserPrompter};
use ccos_orchestrator::{
    Approval, ApprovalRequest, Approver, DenyAll, ProgressEvent, ProgressSink,
};

/// The shared terminal state: progress bars, when stderr is a terminal.
pub struct Terminal {
    live: Option<indicatif::MultiProgress>,
}

impl Terminal {
    /// A terminal; live progress only when stderr is one.
    pub fn new() -> Arc<Terminal> {
        Arc::new(Terminal {
            live: std::io::stderr()
                .is_terminal()
                .then(indicatif::MultiProgress::new),
        })
    }

    /// Runs `f` with the progress bars hidden (for a prompt).
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.live {
            Some(mp) => mp.suspend(f),
            None => f(),
        }
    }
}

/// Asks on the terminal for approval (stdin must be a terminal; otherwise
/// refuses, like a non-interactive run), one question at a time, with the
/// progress bars suspended.
pub struct TerminalApprover {
    term: Arc<Terminal>,
    lock: Mutex<()>,
}

impl TerminalApprover {
    /// An approver drawing on `term`.
    pub fn new(term: Arc<Terminal>) -> TerminalApprover {
        TerminalApprover {
            term,
            lock: Mutex::new(()),
        }
    }
}

impl Approver for TerminalApprover {
    fn approve(&self, r: &ApprovalRequest) -> Approval {
        let _one_at_a_time = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        if !std::io::stdin().is_terminal() {
            return DenyAll.approve(r);
        }
        self.term.suspend(|| {
            let mut err = std::io::stderr();
            let _ = writeln!(err, "approval needed: {} {}", r.capability, r.args);
            for reason in &r.reasons {
                let _ = writeln!(err, "  - {reason}");
            }
            let _ = write!(err, "allow this call? [y/N] ");
            let _ = err.flush();
            let mut line = String::new();
            match std::io::stdin().read_line(&mut line) {
                Ok(_) if matches!(line.trim(), "y" | "Y" | "yes") => {
                    Approval::Given("terminal".into())
                }
                _ => Approval::Refused("refused at the terminal".into()),
            }
        })
    }
}

/// `ccos.user.ask` on the terminal, with the progress bars suspended.
pub struct TerminalAsk {
    term: Arc<Terminal>,
    lock: Mutex<()>,
}

impl TerminalAsk {
    /// A prompter drawing on `term`.
    pub fn new(term: Arc<Terminal>) -> TerminalAsk {
        TerminalAsk {
            term,
            lock: Mutex::new(()),
        }
    }
}

impl UserPrompter for TerminalAsk {
    fn ask(&self, prompt: &str) -> Result<String, AskError> {
        let _one_at_a_time = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        self.term.suspend(|| TerminalPrompter.ask(prompt))
    }
}

/// Progress on stderr: a live spinner per running step when stderr is a
/// terminal (parallel branches show side by side), one plain line per
/// finished step otherwise (logs, CI).
pub struct StepProgress {
    term: Arc<Terminal>,
    bars: Mutex<BTreeMap<String, indicatif::ProgressBar>>,
}

impl StepProgress {
    /// Progress drawn on `term`.
    pub fn new(term: Arc<Terminal>) -> StepProgress {
        StepProgress {
            term,
            bars: Mutex::new(BTreeMap::new()),
        }
    }
}

impl ProgressSink for StepProgress {
    fn event(&self, e: &ProgressEvent) {
        let mut bars = self.bars.lock().unwrap_or_else(|p| p.into_inner());
        match (e, &self.term.live) {
            (ProgressEvent::StepStarted { path, name, kind }, Some(mp)) if *kind == "step" => {
                let bar = mp.add(indicatif::ProgressBar::new_spinner());
                bar.set_style(
                    indicatif::ProgressStyle::with_template("{spinner} {msg} {elapsed}")
                        .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
                );
                bar.set_message(crate::open::redact(&format!("step {path} {name}")));
                bar.enable_steady_tick(std::time::Duration::from_millis(100));
                bars.insert(path.clone(), bar);
            }
            (
                ProgressEvent::StepEnded {
                    path,
                    name,
                    kind,
                    ok,
                    duration,
                },
                live,
            ) if *kind == "step" => {
                let mark = if *ok { "ok  " } else { "FAIL" };
                let line = crate::open::redact(&format!(
                    "[{mark}] step {path} {name} ({} ms)",
                    duration.as_millis()
                ));
                match (bars.remove(path), live) {
                    (Some(bar), Some(_)) => {
                        if let Ok(style) = indicatif::ProgressStyle::with_template("{msg}") {
                            bar.set_style(style);
                        }
                        bar.finish_with_message(line);
                    }
                    _ => eprintln!("{line}"),
                }
            }
            _ => {}
        }
    }
}

/// The width of the terminal stdout goes to; `None` when stdout is not a
/// terminal (piped output is never cut).
pub fn stdout_width() -> Option<usize> {
    if !std::io::stdout().is_terminal() {
        return None;
    }
    terminal_size::terminal_size().map(|(w, _)| usize::from(w.0).max(20))
}

/// `line` cut to `width` characters (with `…`) when a width is given.
pub fn fit(line: &str, width: Option<usize>) -> String {
    match width {
        Some(w) if line.chars().count() > w => {
            let mut s: String = line.chars().take(w.saturating_sub(1)).collect();
            s.push('…');
            s
        }
        _ => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_cuts_only_with_a_width() {
        assert_eq!(fit("abcdef", Some(4)), "abc…");
        assert_eq!(fit("abcdef", None), "abcdef");
        assert_eq!(fit("abc", Some(4)), "abc");
    }
}
