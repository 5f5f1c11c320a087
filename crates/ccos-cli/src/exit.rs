//! Exit codes and the CLI error type.

use std::fmt;

use ccos_world::WorldError;

/// Process exit codes, the same for every subcommand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(i32)]
pub enum Exit {
    /// Success.
    Ok = 0,
    /// An error (bad input, failed step, broken store...).
    Error = 1,
    /// Wrong command-line usage (clap also exits 2).
    Usage = 2,
    /// The security policy denied the plan or a call.
    Denied = 3,
    /// Nothing can serve the goal: a `requires-agent` result.
    RequiresAgent = 4,
}

/// An error to report on stderr, with the exit code it maps to.
pub struct CliError {
    /// Exit code.
    pub code: Exit,
    report: Report,
}

enum Report {
    Text(String),
    Diagnostic(miette::Report),
    /// Already printed (e.g. findings written to stdout); exit silently.
    Silent,
}

impl CliError {
    /// A plain message with exit code 1.
    pub fn msg(message: impl fmt::Display) -> Self {
        CliError::with_code(Exit::Error, message)
    }

    /// A plain message with a chosen exit code.
    pub fn with_code(code: Exit, message: impl fmt::Display) -> Self {
        CliError {
            code,
            report: Report::Text(message.to_string()),
        }
    }

    /// A rendered diagnostic (source underlined) with exit code 1.
    pub fn diagnostic(d: impl miette::Diagnostic + Send + Sync + 'static) -> Self {
        CliError {
            code: Exit::Error,
            report: Report::Diagnostic(miette::Report::new(d)),
        }
    }

    /// Exit with `code` and print nothing more.
    pub fn silent(code: Exit) -> Self {
        CliError {
            code,
            report: Report::Silent,
        }
    }

    /// Writes the error to stderr, secrets redacted.
    pub fn print(&self) {
        match &self.report {
            // A message may quote what a plan built (a computed id): cut.
            Report::Text(t) => crate::open::note(format!(
                "error: {}",
                ccos_core::text::clip(t, 2 * ccos_core::text::MAX_MESSAGE_BYTES)
            )),
            Report::Diagnostic(d) => crate::open::note(format!("{d:?}")),
            Report::Silent => {}
        }
    }
}

impl From<WorldError> for CliError {
    fn from(e: WorldError) -> Self {
        match e {
            WorldError::Usage(m) => CliError::with_code(Exit::Usage, m),
            WorldError::Denied(m) => CliError::with_code(Exit::Denied, m),
            WorldError::Failed(m) => CliError::msg(m),
            WorldError::Rtfs(e) => CliError::diagnostic(*e),
        }
    }
}

impl From<ccos_store::StoreError> for CliError {
    fn from(e: ccos_store::StoreError) -> Self {
        CliError::msg(format!("store: {e}"))
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        CliError::msg(e)
    }
}
