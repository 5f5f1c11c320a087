//! Approvals asked of the MCP client.
//!
//! A call the policy marks "needs approval" is decided by the orchestrator's
//! `GovernedHost`, which asks an [`Approver`]; for a run submitted over MCP
//! that approver is a [`ClientApprover`] bound to the client that submitted
//! it. When the client declared the elicitation capability, the person
//! behind it is asked (a form with one yes/no field); otherwise — or when
//! the answer is anything but an explicit yes — the call is refused, with a
//! message naming the capability and how to pre-approve it in the policy.
//! Nothing is ever approved silently.

use std::time::Duration;

use ccos_orchestrator::{Approval, ApprovalRequest, Approver};
use rmcp::model::{ElicitRequestParams, ElicitationAction};
use rmcp::service::{ElicitationMode, Peer, RoleServer};
use serde_json::json;

/// What the approval of a call is recorded as (`approval_given.by`),
/// followed by the client's name.
pub const APPROVED_BY: &str = "mcp-elicitation";

/// Asks the MCP client that submitted a run to approve its calls.
pub struct ClientApprover {
    peer: Peer<RoleServer>,
    runtime: tokio::runtime::Handle,
    timeout: Duration,
    policy_source: String,
}

impl ClientApprover {
    /// An approver asking `peer` (through `runtime`, from the evaluation
    /// thread), waiting at most `timeout` for an answer; `policy_source`
    /// names the policy file in refusal messages.
    pub fn new(
        peer: Peer<RoleServer>,
        runtime: tokio::runtime::Handle,
        timeout: Duration,
        policy_source: &str,
    ) -> ClientApprover {
        ClientApprover {
            peer,
            runtime,
            timeout,
            policy_source: policy_source.to_string(),
        }
    }

    /// True when the client declared form elicitation.
    pub fn can_ask(&self) -> bool {
        self.peer
            .supported_elicitation_modes()
            .contains(&ElicitationMode::Form)
    }

    fn client_name(&self) -> String {
        self.peer
            .peer_info()
            .map(|i| i.client_info.name.clone())
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| "the MCP client".into())
    }
}

/// How to let `capability` run without asking: the policy's
/// `pre_approved` list (the policy in force is `policy_source`).
pub fn preapprove_hint(capability: &str, policy_source: &str) -> String {
    let file = if policy_source == "built-in default" {
        "a policy file (config.toml: policy = \"policy.toml\"; start from examples/policy.toml)"
            .to_string()
    } else {
        format!("the policy ({policy_source})")
    };
    format!(
        "to allow it without asking, add \"{capability}\" to pre_approved under [capabilities] in {file}"
    )
}

/// The question put to the person behind the client.
fn question(request: &ApprovalRequest) -> String {
    let mut args = request.args.clone();
    if args.chars().count() > 2000 {
        args = args.chars().take(2000).collect::<String>() + "…";
    }
    let step = request
        .step
        .as_deref()
        .map(|s| format!(" (step \"{s}\")"))
        .unwrap_or_default();
    format!(
        "ccos asks your approval to call {}{step} with {args}. Why: {}.",
        request.capability,
        request.reasons.join("; ")
    )
}

impl Approver for ClientApprover {
    fn approve(&self, request: &ApprovalRequest) -> Approval {
        let hint = preapprove_hint(&request.capability, &self.policy_source);
        if !self.can_ask() {
            return Approval::Refused(format!(
                "{} needs approval ({}), and {} cannot be asked: it does not support MCP elicitation; {hint}",
                request.capability,
                request.reasons.join("; "),
                self.client_name()
            ));
        }
        let schema = json!({
            "type": "object",
            "properties": {
                "approve": {
                    "type": "boolean",
                    "title": format!("Approve {}", request.capability),
                    "description": "Yes runs this one call; anything else refuses it.",
                    "default": false
                }
            },
            "required": ["approve"]
        });
        let requested_schema = match serde_json::from_value(schema) {
            Ok(s) => s,
            Err(e) => return Approval::Refused(format!("could not ask for approval: {e}")),
        };
        let params = ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: question(request),
            requested_schema,
        };
        let peer = self.peer.clone();
        let timeout = self.timeout;
        let answer = self.runtime.block_on(async move {
            tokio::time::timeout(timeout, peer.create_elicitation(params)).await
        });
        match answer {
            Err(_) => Approval::Refused(format!(
                "no answer from {} within {} s; {hint}",
                self.client_name(),
                timeout.as_secs()
            )),
            Ok(Err(e)) => Approval::Refused(format!(
                "asking {} for approval failed ({e}); {hint}",
                self.client_name()
            )),
            Ok(Ok(result)) => match result.action {
                ElicitationAction::Accept
                    if result
                        .content
                        .as_ref()
                        .and_then(|c| c.get("approve"))
                        .and_then(serde_json::Value::as_bool)
                        == Some(true) =>
                {
                    Approval::Given(format!("{APPROVED_BY} ({})", self.client_name()))
                }
                ElicitationAction::Accept => {
                    Approval::Refused(format!("not approved by {}", self.client_name()))
                }
                ElicitationAction::Decline => {
                    Approval::Refused(format!("declined by {}", self.client_name()))
                }
                _ => Approval::Refused(format!("cancelled by {}", self.client_name())),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_name_the_capability_and_the_policy() {
        let h = preapprove_hint("mcp.fs.write_file", "/etc/ccos/policy.toml");
        assert!(h.contains("\"mcp.fs.write_file\""), "{h}");
        assert!(
            h.contains("pre_approved") && h.contains("/etc/ccos/policy.toml"),
            "{h}"
        );
        let h = preapprove_hint("ccos.http.get", "built-in default");
        assert!(h.contains("config.toml"), "{h}");
    }

    #[test]
    fn questions_are_bounded() {
        let q = question(&ApprovalRequest {
            capability: "x.y".into(),
            args: "a".repeat(10_000),
            reasons: vec!["effect write requires approval".into()],
            step: Some("Write".into()),
        });
        assert!(q.chars().count() < 2300, "{}", q.len());
        assert!(q.contains("x.y") && q.contains("step \"Write\"") && q.contains("effect write"));
    }
}
