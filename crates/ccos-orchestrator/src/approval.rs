//! Approvals: how a call that the policy marks "needs approval" gets one.
//!
//! The orchestrator asks an [`Approver`]. [`DenyAll`] is the default (a
//! non-interactive run without approval refuses such calls); [`AutoApprove`]
//! is `--yes`. The CLI supplies a terminal approver; pre-approved capability
//! patterns live in the policy itself.

use serde::Serialize;

/// What is being asked.
#[derive(Debug, Clone, Serialize)]
pub struct ApprovalRequest {
    /// The capability id.
    pub capability: String,
    /// The arguments, printed canonically with secrets redacted.
    pub args: String,
    /// The policy's reasons (e.g. `effect write requires approval`).
    pub reasons: Vec<String>,
    /// The innermost step, if any.
    pub step: Option<String>,
}

/// The answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Approval {
    /// Go ahead; the string says by whom/how (`--yes`, `terminal`).
    Given(String),
    /// Refused; the string says why.
    Refused(String),
}

/// Decides approval requests. Called from evaluation threads; may block
/// (e.g. to ask on a terminal).
pub trait Approver: Send + Sync {
    /// Approves or refuses one call.
    fn approve(&self, request: &ApprovalRequest) -> Approval;
}

/// Refuses everything: the behaviour of a non-interactive run without `--yes`.
#[derive(Debug, Default, Clone, Copy)]
pub struct DenyAll;

impl Approver for DenyAll {
    fn approve(&self, _request: &ApprovalRequest) -> Approval {
        Approval::Refused(
            "approval required, and this run is non-interactive (pass --yes to approve)".into(),
        )
    }
}

/// Approves everything: `--yes`.
#[derive(Debug, Default, Clone, Copy)]
pub struct AutoApprove;

impl Approver for AutoApprove {
    fn approve(&self, _request: &ApprovalRequest) -> Approval {
        Approval::Given("--yes".into())
    }
}
