//! The governed gateway (`ccos mcp serve --gateway`): the catalog's
//! capabilities — the tools of the MCP servers of `mcp.json`, imported
//! OpenAPI operations, built-ins — as MCP tools, so a client points at
//! ccos instead of at each server.
//!
//! - A capability the policy denies is neither listed nor callable (a call
//!   to it is answered like a call to a tool that does not exist).
//! - A tool held because it changed since discovery is not in the catalog
//!   (see `ccos_mcp::fingerprint`), so it is neither listed nor callable.
//! - Every call is a one-call plan run by the world's orchestrator
//!   ([`World::call_capability_with`]): decided, approved where needed (the
//!   client is asked), validated against the schema, executed and recorded
//!   in the causal chain exactly like a plan's call.
//! - An MCP tool's result passes back as the downstream server sent it,
//!   apart from the redaction of declared secrets.

use ccos_governance::CallDecision;
use ccos_marketplace::{CapabilityManifest, Effect};
use ccos_orchestrator::{RunError, RunOptions};
use ccos_world::{World, WorldError};
use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Value as Json, json};

use crate::server::{CcosServer, unknown_tool};

/// The wrapper key of capabilities that take positional arguments (an
/// `array` input schema): MCP tools take an object.
pub const POSITIONAL_KEY: &str = "args";

/// Discovers every server of `mcp.json` again (refresh) before serving:
/// tools changed since they were accepted are held and recorded
/// (`tools_changed`), not served. Returns one line per server to report.
pub fn prepare(world: &World) -> Result<Vec<String>, WorldError> {
    let mut lines = vec![];
    if world.mcp_config()?.servers.is_empty() {
        return Ok(lines);
    }
    for r in world.discover(None, true, false)? {
        match r.result {
            Ok(d) if !d.held.is_empty() => lines.push(format!(
                "warning: {}: tools changed since they were accepted ({}); not served until you review them and run `ccos mcp discover {} --accept`",
                r.server,
                d.changes.describe(),
                r.server
            )),
            Ok(d) => {
                let mp = world.marketplace()?;
                let denied = d
                    .ids
                    .iter()
                    .filter(|id| {
                        mp.get(id)
                            .is_some_and(|m| world.policy().decide_call(&m).is_denied())
                    })
                    .count();
                lines.push(if denied == 0 {
                    format!("{}: {} tools served", r.server, d.ids.len())
                } else {
                    format!(
                        "{}: {} tools served ({denied} more denied by the policy)",
                        r.server,
                        d.ids.len() - denied
                    )
                });
            }
            Err(e) => lines.push(format!("warning: {}: {e}", r.server)),
        }
    }
    Ok(lines)
}

fn is_object_schema(schema: &Json) -> bool {
    schema.get("type").and_then(Json::as_str) == Some("object")
}

/// The MCP tool of a capability.
pub fn tool_of(m: &CapabilityManifest, decision: &CallDecision) -> Option<Tool> {
    let input = if is_object_schema(&m.input_schema) {
        m.input_schema.clone()
    } else {
        json!({
            "type": "object",
            "properties": {POSITIONAL_KEY: m.input_schema},
            "required": [POSITIONAL_KEY],
            "description": "positional arguments, in order"
        })
    };
    let effects = m.effective_effects();
    let read_only = effects
        .iter()
        .all(|e| matches!(e, Effect::Pure | Effect::Read));
    let mut description = m.description.clone();
    if let CallDecision::NeedsApproval { reasons } = decision {
        description.push_str(&format!(
            "\n\n[ccos: each call needs approval: {}]",
            reasons.join("; ")
        ));
    }
    let mut spec = json!({
        "name": m.id,
        "title": m.name,
        "description": description,
        "inputSchema": input,
        "annotations": {
            "readOnlyHint": read_only,
            "openWorldHint": effects.contains(&Effect::Network),
        },
    });
    if let Some(out) = m.output_schema.as_ref().filter(|o| is_object_schema(o)) {
        spec["outputSchema"] = out.clone();
    }
    serde_json::from_value(spec).ok()
}

/// The capabilities the policy does not deny, as MCP tools, by id.
pub fn tools(world: &World) -> Result<Vec<Tool>, WorldError> {
    let mp = world.marketplace()?;
    let policy = world.policy();
    let mut caps = mp.list();
    caps.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(caps
        .iter()
        .filter_map(|m| {
            let decision = policy.decide_call(m);
            if decision.is_denied() || crate::tools::is_ccos_tool(&m.id) {
                return None;
            }
            tool_of(m, &decision)
        })
        .collect())
}

/// The JSON arguments of a call to `m` from the tool's arguments.
fn call_args(m: &CapabilityManifest, arguments: JsonObject) -> Result<Json, String> {
    if is_object_schema(&m.input_schema) {
        return Ok(Json::Object(arguments));
    }
    let mut arguments = arguments;
    let positional = arguments.remove(POSITIONAL_KEY);
    if let Some(extra) = arguments.keys().next() {
        return Err(format!(
            "invalid arguments for {}: unknown key \"{}\" (its arguments go in \"{POSITIONAL_KEY}\", a list)",
            m.id,
            crate::server::cut(extra, 80)
        ));
    }
    match positional {
        Some(Json::Array(items)) => Ok(Json::Array(items)),
        Some(_) => Err(format!(
            "invalid arguments for {}: \"{POSITIONAL_KEY}\" must be a list of the positional arguments",
            m.id
        )),
        None => Err(format!(
            "invalid arguments for {}: missing \"{POSITIONAL_KEY}\" (a list of the positional arguments)",
            m.id
        )),
    }
}

/// The result of a non-MCP capability (or an MCP tool without its raw
/// result): objects as structured content when the tool declares an output
/// schema, text otherwise.
fn value_result(m: &CapabilityManifest, value: &rtfs::Value) -> CallToolResult {
    let j = rtfs::to_json(value).unwrap_or_else(|_| Json::String(rtfs::print_value(value)));
    let structured = m.output_schema.as_ref().is_some_and(is_object_schema) && j.is_object();
    if structured {
        return CallToolResult::structured(j);
    }
    let text = match &j {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    };
    CallToolResult::success(vec![ContentBlock::text(text)])
}

/// The longest error message passed back, in characters (a downstream
/// error may echo a huge argument).
const MAX_ERROR_CHARS: usize = 16 * 1024;

fn error_text(message: impl Into<String>) -> CallToolResult {
    let message = crate::server::cut(&message.into(), MAX_ERROR_CHARS);
    CallToolResult::error(vec![ContentBlock::text(message)])
}

/// Calls capability `name` through the governed door.
pub async fn call(
    server: &CcosServer,
    name: &str,
    arguments: JsonObject,
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResult, ErrorData> {
    let approver = server.approver(context);
    let (interrupt, _watch) = server.request_interrupt(context);
    let id = name.to_string();
    let outcome = server
        .blocking(move |world| -> Result<Option<CallToolResult>, String> {
            let mp = world.marketplace().map_err(|e| e.to_string())?;
            let Some(m) = mp.get(&id) else {
                return Ok(None);
            };
            if world.policy().decide_call(&m).is_denied() {
                return Ok(None);
            }
            let args = match call_args(&m, arguments) {
                Ok(a) => a,
                Err(e) => return Ok(Some(error_text(e))),
            };
            let options = RunOptions {
                source_name: "<gateway>".into(),
                origin: "gateway".into(),
                approver: Some(approver),
                interrupt: Some(interrupt),
                wire_results: true,
                ..RunOptions::default()
            };
            Ok(Some(match world.call_capability_with(&id, args, options) {
                Ok(o) => match o.wire_results.into_iter().last() {
                    Some(w) => match serde_json::from_value::<CallToolResult>(w.result) {
                        Ok(r) => r,
                        Err(_) => value_result(&m, &o.value),
                    },
                    None => value_result(&m, &o.value),
                },
                Err(RunError::Preflight(report))
                | Err(RunError::Denied {
                    report: Some(report),
                    ..
                }) => {
                    let lines: Vec<String> = report
                        .findings
                        .iter()
                        .filter(|f| f.severity == ccos_governance::Severity::Error)
                        .map(|f| match &f.hint {
                            Some(h) => format!("{} ({h})", f.message),
                            None => f.message.clone(),
                        })
                        .collect();
                    error_text(format!("{id}: {}", lines.join("; ")))
                }
                Err(RunError::StepFailed { error, run_id, .. }) => {
                    error_text(format!("{} (run {run_id})", error.message))
                }
                Err(e @ RunError::Denied { .. }) => {
                    let mut text = e.to_string();
                    if text.contains("approval") && !text.contains("pre_approved") {
                        text.push_str(&format!(
                            "; {}",
                            crate::approval::preapprove_hint(&id, world.policy_source())
                        ));
                    }
                    error_text(text)
                }
                Err(e) => error_text(e.to_string()),
            }))
        })
        .await?
        .map_err(|e| ErrorData::internal_error(e, None))?;
    outcome.ok_or_else(|| unknown_tool(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positional_capabilities_take_their_arguments_in_a_list() {
        let m = CapabilityManifest::new(
            "ccos.math.add",
            "Add numbers.",
            json!({"type": "array", "items": {"type": "number"}}),
        );
        let t = tool_of(&m, &CallDecision::Allow).unwrap();
        assert_eq!(t.input_schema.get("type"), Some(&json!("object")));
        assert!(t.input_schema["properties"].get(POSITIONAL_KEY).is_some());
        let obj = |v: Json| v.as_object().cloned().unwrap();
        assert_eq!(
            call_args(&m, obj(json!({"args": [2, 3]}))).unwrap(),
            json!([2, 3])
        );
        assert!(
            call_args(&m, obj(json!({})))
                .unwrap_err()
                .contains("missing")
        );
        assert!(
            call_args(&m, obj(json!({"args": 2})))
                .unwrap_err()
                .contains("list")
        );
        assert!(
            call_args(&m, obj(json!({"args": [], "x": 1})))
                .unwrap_err()
                .contains("\"x\"")
        );
    }

    #[test]
    fn approval_and_effects_show_in_the_tool() {
        let m = CapabilityManifest::new(
            "ccos.file.write",
            "Write a file.",
            json!({"type": "object", "properties": {"path": {"type": "string"}}}),
        )
        .with_effects(&[Effect::Write]);
        let t = tool_of(
            &m,
            &CallDecision::NeedsApproval {
                reasons: vec!["effect write requires approval".into()],
            },
        )
        .unwrap();
        let d = t.description.as_deref().unwrap_or_default();
        assert!(
            d.starts_with("Write a file.") && d.contains("needs approval"),
            "{d}"
        );
        let a = t.annotations.unwrap();
        assert_eq!(a.read_only_hint, Some(false));
        assert_eq!(a.open_world_hint, Some(false));
    }
}
