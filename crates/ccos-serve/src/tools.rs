//! The `ccos_*` tools: search the catalog, plan, check, run, explain a run,
//! verify the chain. Each has a JSON input schema and an output schema;
//! results carry `structuredContent` (and the same JSON as text).
//!
//! Arguments that do not fit the schema are answered with an `isError`
//! result saying what is wrong (so a client model can correct itself, as
//! MCP 2025-11-25 asks); nothing runs.

use ccos_governance::{PreflightReport, Severity};
use ccos_orchestrator::{RunError, RunOptions, RunOutcome};
use ccos_world::World;
use ccos_world::catalog::PlanCheck;
use ccos_world::run::GoalRun;
use ccos_world::runs::{RunEvent, RunStory};
use rmcp::ErrorData;
use rmcp::model::{CallToolResult, JsonObject, Tool};
use rmcp::service::{RequestContext, RoleServer};
use serde::Deserialize;
use serde_json::{Value as Json, json};

use crate::approval::preapprove_hint;
use crate::server::CcosServer;

/// The largest goal accepted, in bytes.
pub use ccos_planner::decompose::MAX_GOAL_BYTES;
/// The largest plan accepted, in bytes.
pub const MAX_PLAN_BYTES: usize = 1024 * 1024;
/// The most capabilities `ccos_capabilities` returns.
pub const MAX_K: usize = 50;

const NAMES: &[&str] = &[
    "ccos_capabilities",
    "ccos_plan",
    "ccos_check",
    "ccos_run",
    "ccos_explain_run",
    "ccos_verify_chain",
];

/// True for the names of the tools of this module.
pub fn is_ccos_tool(name: &str) -> bool {
    NAMES.contains(&name)
}

fn tool(
    name: &str,
    title: &str,
    description: &str,
    input: Json,
    output: Json,
    hints: Json,
) -> Tool {
    let spec = json!({
        "name": name,
        "title": title,
        "description": description,
        "inputSchema": input,
        "outputSchema": output,
        "annotations": hints,
    });
    serde_json::from_value(spec).expect("the tool specs are literals of this file (tested)")
}

const FINDINGS_SCHEMA: &str = r#"{
  "type": "array",
  "items": {
    "type": "object",
    "properties": {
      "severity": {"type": "string", "enum": ["error", "warning"]},
      "code": {"type": "string"},
      "message": {"type": "string"},
      "hint": {"type": "string"},
      "capability": {"type": "string"},
      "line": {"type": "integer", "description": "1-based"},
      "column": {"type": "integer", "description": "1-based"},
      "start": {"type": "integer", "description": "first byte of the offending form"},
      "end": {"type": "integer", "description": "one past its last byte"}
    },
    "required": ["severity", "code", "message", "line", "column"]
  }
}"#;

/// Any JSON value but null, in single-type branches (portable schemas).
fn any_json() -> Json {
    json!({"anyOf": [
        {"type": "object"}, {"type": "array"}, {"type": "string"},
        {"type": "number"}, {"type": "boolean"}
    ]})
}

/// `value`'s top-level members that are not null (an absent field, not a
/// null one, in every output: portable schemas have one type per field).
fn compact(value: Json) -> Json {
    match value {
        Json::Object(map) => Json::Object(map.into_iter().filter(|(_, v)| !v.is_null()).collect()),
        other => other,
    }
}

fn findings_schema() -> Json {
    serde_json::from_str(FINDINGS_SCHEMA).expect("a literal of this file (tested)")
}

fn plan_input() -> Json {
    json!({
        "type": "string",
        "minLength": 1,
        "maxLength": MAX_PLAN_BYTES,
        "description": "RTFS source of the plan, e.g. (do (step \"Greet\" (call :ccos.echo {:message \"hi\"})))"
    })
}

fn goal_input() -> Json {
    json!({
        "type": "string",
        "minLength": 1,
        "maxLength": MAX_GOAL_BYTES,
        "description": "What to do, in words, e.g. \"count the words in notes.txt\""
    })
}

/// The definitions of the `ccos_*` tools.
pub fn definitions() -> Vec<Tool> {
    let read_only = json!({"readOnlyHint": true, "openWorldHint": false});
    vec![
        tool(
            "ccos_capabilities",
            "Search ccos capabilities",
            "Search the capability catalog (built-ins, MCP servers' tools, imported OpenAPI operations): the k most relevant to a query, each with its id, description, input schema, effects and what the security policy says about calling it (allow, needs_approval, deny). Use the ids in (call :id ...) forms of plans.",
            json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string", "maxLength": MAX_GOAL_BYTES, "description": "What the capability should do, e.g. \"read a file\"; empty lists capabilities by id"},
                    "k": {"type": "integer", "minimum": 1, "maximum": MAX_K, "default": 10, "description": "How many to return"}
                },
                "additionalProperties": false
            }),
            json!({
                "type": "object",
                "properties": {
                    "capabilities": {"type": "array", "items": {"type": "object", "properties": {
                        "id": {"type": "string"},
                        "name": {"type": "string"},
                        "description": {"type": "string"},
                        "input_schema": {"type": "object"},
                        "effects": {"type": "array", "items": {"type": "string"}},
                        "trust_tier": {"type": "string"},
                        "provider": {"type": "string"},
                        "policy": {"type": "string", "enum": ["allow", "needs_approval", "deny"]},
                        "reasons": {"type": "array", "items": {"type": "string"}},
                        "example": {"type": "string"}
                    }, "required": ["id", "description", "input_schema", "effects", "policy"]}},
                    "policy_source": {"type": "string"}
                },
                "required": ["capabilities"]
            }),
            read_only.clone(),
        ),
        tool(
            "ccos_plan",
            "Plan a goal",
            "Plan a goal with ccos's deterministic planner: an RTFS plan (checked against the catalog and the policy) with its decision trace, or status requires_agent naming the parts no capability serves. Nothing runs; run the plan with ccos_run.",
            json!({
                "type": "object",
                "properties": {"goal": goal_input()},
                "required": ["goal"],
                "additionalProperties": false
            }),
            json!({
                "type": "object",
                "properties": {
                    "status": {"type": "string", "enum": ["planned", "requires_agent"]},
                    "goal": {"type": "string"},
                    "plan": {"type": "string"},
                    "intent_id": {"type": "string"},
                    "plan_id": {"type": "string"},
                    "generation_mode": {"type": "string"},
                    "trace": {"type": "string"},
                    "requires_agent": {"type": "object"},
                    "report": {"type": "string"},
                    "warnings": {"type": "array", "items": {"type": "string"}}
                },
                "required": ["status", "goal", "intent_id", "trace"]
            }),
            json!({"readOnlyHint": false, "destructiveHint": false, "openWorldHint": false}),
        ),
        tool(
            "ccos_check",
            "Check an RTFS plan",
            "Check an RTFS plan without running it: parse errors, unknown capabilities, arguments that do not fit a capability's schema, calls the policy denies or that need approval. Each finding has line and column, a code and a repair hint (e.g. the closest capability id). Repair the plan and check again until ok is true.",
            json!({
                "type": "object",
                "properties": {"plan": plan_input()},
                "required": ["plan"],
                "additionalProperties": false
            }),
            json!({
                "type": "object",
                "properties": {
                    "ok": {"type": "boolean"},
                    "decision": {"type": "string", "enum": ["allow", "needs_approval", "deny"]},
                    "reasons": {"type": "array", "items": {"type": "string"}},
                    "findings": findings_schema(),
                    "calls": {"type": "array"},
                    "policy_source": {"type": "string"}
                },
                "required": ["ok", "findings"]
            }),
            read_only.clone(),
        ),
        tool(
            "ccos_run",
            "Run a plan or a goal (governed)",
            "Run an RTFS plan (or plan and run a goal) under the security policy: every call is decided, approved where the policy requires it (you are asked; without elicitation support such calls are refused with how to pre-approve them), validated, executed and recorded in the causal chain. Branches of (step-parallel ...) run concurrently. Returns the value, the run id and the steps. Give exactly one of plan and goal.",
            json!({
                "type": "object",
                "properties": {"plan": plan_input(), "goal": goal_input()},
                "additionalProperties": false
            }),
            json!({
                "type": "object",
                "properties": {
                    "status": {"type": "string", "enum": ["succeeded", "failed", "denied", "preflight_failed", "parse_error", "requires_agent", "interrupted", "error"]},
                    "run_id": {"type": "string"},
                    "plan_id": {"type": "string"},
                    "intent_id": {"type": "string"},
                    "value": any_json(),
                    "value_rtfs": {"type": "string"},
                    "calls": {"type": "integer"},
                    "plan": {"type": "string"},
                    "steps": {"type": "array"},
                    "error": {"type": "string"},
                    "failed_step": {"type": "string"},
                    "findings": findings_schema(),
                    "approvals_needed": {"type": "array"}
                },
                "required": ["status"]
            }),
            json!({"readOnlyHint": false, "destructiveHint": true, "openWorldHint": true}),
        ),
        tool(
            "ccos_explain_run",
            "Explain a run",
            "The story of a run, read back from the causal chain: the goal, the plan, each step with its value and duration, each call with its arguments and result, the approvals asked, given or refused, and how it ended.",
            json!({
                "type": "object",
                "properties": {"run_id": {"type": "string", "minLength": 1, "maxLength": 200, "description": "A run id (from ccos_run), or a unique prefix of one"}},
                "required": ["run_id"],
                "additionalProperties": false
            }),
            json!({
                "type": "object",
                "properties": {
                    "summary": {"type": "object"},
                    "plan": {"type": "string"},
                    "generation_mode": {"type": "string"},
                    "governance": {"type": "string"},
                    "events": {"type": "array"},
                    "value": {"type": "string"},
                    "error": {"type": "string"}
                },
                "required": ["summary", "events"]
            }),
            read_only.clone(),
        ),
        tool(
            "ccos_verify_chain",
            "Verify the causal chain",
            "Re-check every entry of the causal chain (hash links, entry hashes, the head record): ok, or the first entry that does not verify and why.",
            json!({"type": "object", "properties": {}, "additionalProperties": false}),
            json!({
                "type": "object",
                "properties": {
                    "ok": {"type": "boolean"},
                    "entries_checked": {"type": "integer"},
                    "first_bad_seq": {"type": "integer"},
                    "reason": {"type": "string"}
                },
                "required": ["ok", "entries_checked"]
            }),
            read_only,
        ),
    ]
}

/// An `isError` result with a message (and the same as structured status).
fn refusal(status: &str, message: impl Into<String>) -> CallToolResult {
    CallToolResult::structured_error(json!({"status": status, "error": bounded(message.into())}))
}

/// The longest message passed back, in characters (an error may echo a
/// huge argument).
const MAX_MESSAGE_CHARS: usize = 16 * 1024;

fn bounded(message: String) -> String {
    crate::server::cut(&message, MAX_MESSAGE_CHARS)
}

/// The arguments as `T`, or the message saying what does not fit.
fn args<T: for<'de> Deserialize<'de>>(tool: &str, arguments: JsonObject) -> Result<T, String> {
    serde_json::from_value(Json::Object(arguments))
        .map_err(|e| format!("invalid arguments for {tool}: {e}"))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CapabilitiesArgs {
    #[serde(default)]
    query: String,
    #[serde(default = "default_k")]
    k: u64,
}

fn default_k() -> u64 {
    10
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GoalArgs {
    goal: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlanArgs {
    plan: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RunArgs {
    plan: Option<String>,
    goal: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExplainArgs {
    run_id: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NoArgs {}

fn check_goal(goal: &str) -> Result<(), String> {
    if goal.trim().is_empty() {
        return Err("the goal is empty: say what you want done".into());
    }
    if goal.len() > MAX_GOAL_BYTES {
        return Err(format!("the goal is longer than {MAX_GOAL_BYTES} bytes"));
    }
    Ok(())
}

fn check_plan_text(plan: &str) -> Result<(), String> {
    if plan.trim().is_empty() {
        return Err("the plan is empty".into());
    }
    if plan.len() > MAX_PLAN_BYTES {
        return Err(format!("the plan is longer than {MAX_PLAN_BYTES} bytes"));
    }
    Ok(())
}

/// Calls the `ccos_*` tool `name`.
pub async fn call(
    server: &CcosServer,
    name: &str,
    arguments: JsonObject,
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResult, ErrorData> {
    let parsed: Result<CallToolResult, String> = match name {
        "ccos_capabilities" => match args::<CapabilitiesArgs>(name, arguments) {
            Ok(a) if a.k == 0 || a.k > MAX_K as u64 => Err(format!(
                "invalid arguments for {name}: k must be between 1 and {MAX_K}"
            )),
            Ok(a) if a.query.len() > MAX_GOAL_BYTES => Err(format!(
                "invalid arguments for {name}: the query is longer than {MAX_GOAL_BYTES} bytes"
            )),
            Ok(a) => {
                return server
                    .blocking(move |w| capabilities(w, &a.query, a.k as usize))
                    .await;
            }
            Err(e) => Err(e),
        },
        "ccos_plan" => match args::<GoalArgs>(name, arguments) {
            Ok(a) => match check_goal(&a.goal) {
                Ok(()) => return server.blocking(move |w| plan(w, &a.goal)).await,
                Err(e) => Err(format!("invalid arguments for {name}: {e}")),
            },
            Err(e) => Err(e),
        },
        "ccos_check" => match args::<PlanArgs>(name, arguments) {
            Ok(a) => match check_plan_text(&a.plan) {
                Ok(()) => return server.blocking(move |w| check(w, &a.plan)).await,
                Err(e) => Err(format!("invalid arguments for {name}: {e}")),
            },
            Err(e) => Err(e),
        },
        "ccos_run" => match args::<RunArgs>(name, arguments) {
            Ok(RunArgs {
                plan: Some(plan),
                goal: None,
            }) => match check_plan_text(&plan) {
                Ok(()) => return run(server, Submitted::Plan(plan), context).await,
                Err(e) => Err(format!("invalid arguments for {name}: {e}")),
            },
            Ok(RunArgs {
                plan: None,
                goal: Some(goal),
            }) => match check_goal(&goal) {
                Ok(()) => return run(server, Submitted::Goal(goal), context).await,
                Err(e) => Err(format!("invalid arguments for {name}: {e}")),
            },
            Ok(_) => Err(format!(
                "invalid arguments for {name}: give exactly one of plan and goal"
            )),
            Err(e) => Err(e),
        },
        "ccos_explain_run" => match args::<ExplainArgs>(name, arguments) {
            Ok(a) if a.run_id.trim().is_empty() || a.run_id.len() > 200 => Err(format!(
                "invalid arguments for {name}: run_id must be 1 to 200 characters"
            )),
            Ok(a) => return server.blocking(move |w| explain(w, &a.run_id)).await,
            Err(e) => Err(e),
        },
        "ccos_verify_chain" => match args::<NoArgs>(name, arguments) {
            Ok(NoArgs {}) => return server.blocking(verify).await,
            Err(e) => Err(e),
        },
        other => return Err(crate::server::unknown_tool(other)),
    };
    Ok(parsed.unwrap_or_else(|e| refusal("invalid_arguments", e)))
}

fn capabilities(world: &World, query: &str, k: usize) -> CallToolResult {
    let hits = match world.search_capabilities(query, k) {
        Ok(h) => h,
        Err(e) => return refusal("error", e.to_string()),
    };
    let rows: Vec<Json> = hits
        .into_iter()
        .map(|h| {
            let m = h.manifest;
            compact(json!({
                "id": m.id,
                "name": m.name,
                "description": m.description,
                "input_schema": m.input_schema,
                "effects": m.effective_effects().iter().map(|e| e.as_str()).collect::<Vec<_>>(),
                "trust_tier": m.trust_tier.as_str(),
                "provider": m.provider.label(),
                "policy": h.decision.label(),
                "reasons": h.decision.reasons(),
                "example": m.examples.first(),
            }))
        })
        .collect();
    CallToolResult::structured(json!({
        "capabilities": rows,
        "policy_source": world.policy_source(),
    }))
}

fn plan(world: &World, goal: &str) -> CallToolResult {
    let planned = match world.plan_goal(goal) {
        Ok(p) => p,
        Err(e) => return refusal("error", e.to_string()),
    };
    let r = &planned.result;
    let requires_agent = r.requires_agent.is_some();
    CallToolResult::structured(compact(json!({
        "status": if requires_agent { "requires_agent" } else { "planned" },
        "goal": r.goal,
        "plan": r.rtfs,
        "intent_id": planned.recorded.intent_id,
        "plan_id": planned.recorded.plan_id,
        "generation_mode": r.generation_mode(),
        "trace": ccos_world::plan::explain(r),
        "requires_agent": r.requires_agent,
        "report": requires_agent.then(|| ccos_world::plan::requires_agent_report(r)),
        "warnings": planned.warnings,
    })))
}

/// A parse error as one finding.
fn parse_finding(src: &str, e: &rtfs::RtfsError) -> Json {
    let (line, column) = e
        .span
        .map(|s| rtfs::line_col(src, s.start))
        .unwrap_or((0, 0));
    compact(json!({
        "severity": "error", "code": e.kind.code(), "message": e.message,
        "hint": e.help, "line": line, "column": column,
        "start": e.span.map(|s| s.start), "end": e.span.map(|s| s.end),
    }))
}

fn findings(report: &PreflightReport) -> Json {
    Json::Array(
        report
            .findings
            .iter()
            .map(|f| {
                compact(json!({
                    "severity": match f.severity { Severity::Error => "error", Severity::Warning => "warning" },
                    "code": f.code, "message": f.message, "hint": f.hint,
                    "capability": f.capability, "line": f.line, "column": f.column,
                    "start": f.start, "end": f.end,
                }))
            })
            .collect(),
    )
}

fn check(world: &World, src: &str) -> CallToolResult {
    match world.check_plan(src) {
        Err(e) => refusal("error", e.to_string()),
        Ok(PlanCheck::Unparsable(e)) => CallToolResult::structured(json!({
            "ok": false,
            "reasons": [],
            "findings": [parse_finding(src, &e)],
            "calls": [],
            "policy_source": world.policy_source(),
        })),
        Ok(PlanCheck::Checked(report)) => CallToolResult::structured(json!({
            "ok": report.is_clean(),
            "decision": report.decision.label(),
            "reasons": report.decision.reasons(),
            "findings": findings(&report),
            "calls": report.calls.iter().map(|c| compact(json!({
                "capability": c.capability,
                "decision": c.decision.as_ref().map_or("decided at run time", |d| d.label()),
                "reasons": c.decision.as_ref().map(|d| d.reasons().to_vec()).unwrap_or_default(),
                "line": c.line, "column": c.column,
            }))).collect::<Vec<_>>(),
            "policy_source": world.policy_source(),
        })),
    }
}

enum Submitted {
    Plan(String),
    Goal(String),
}

async fn run(
    server: &CcosServer,
    submitted: Submitted,
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResult, ErrorData> {
    let approver = server.approver(context);
    let (interrupt, _watch) = server.request_interrupt(context);
    server
        .blocking(move |world| {
            let options = RunOptions {
                source_name: "<mcp client>".into(),
                origin: "mcp".into(),
                approver: Some(approver),
                interrupt: Some(interrupt),
                ..RunOptions::default()
            };
            match submitted {
                Submitted::Plan(src) => {
                    let outcome = world.run_plan(&src, options);
                    run_result(world, &src, None, outcome)
                }
                Submitted::Goal(goal) => match world.run_goal_with(&goal, None, options) {
                    Err(e) => refusal("error", e.to_string()),
                    Ok(GoalRun::RequiresAgent { planned, intent_id }) => {
                        CallToolResult::structured_error(json!({
                            "status": "requires_agent",
                            "intent_id": intent_id,
                            "error": ccos_world::plan::requires_agent_report(&planned),
                            "requires_agent": planned.requires_agent,
                        }))
                    }
                    Ok(GoalRun::ModelRequiresAgent { outcome, intent_id }) => {
                        CallToolResult::structured_error(json!({
                            "status": "requires_agent",
                            "intent_id": intent_id,
                            "error": ccos_world::plan::model_requires_agent_report(&outcome),
                        }))
                    }
                    Ok(GoalRun::Ran { rtfs, outcome, .. }) => {
                        run_result(world, &rtfs, Some(&rtfs), *outcome)
                    }
                },
            }
        })
        .await
}

/// The steps and calls of a run, from the causal chain.
fn steps_and_calls(story: &RunStory) -> (Vec<Json>, Vec<Json>) {
    let mut steps = vec![];
    let mut approvals = vec![];
    for e in &story.events {
        match e {
            RunEvent::StepEnded {
                path,
                name,
                kind,
                ok,
                duration_ms,
                detail,
            } => steps.push(json!({
                "path": path, "name": name, "kind": kind, "ok": ok,
                "duration_ms": duration_ms, "detail": detail,
            })),
            RunEvent::ApprovalDenied { capability, reason } => approvals.push(json!({
                "capability": capability, "refused_because": reason,
            })),
            _ => {}
        }
    }
    (steps, approvals)
}

fn value_json(v: &rtfs::Value) -> Json {
    rtfs::to_json(v).unwrap_or_else(|_| Json::String(rtfs::print_value(v)))
}

fn run_result(
    world: &World,
    src: &str,
    plan: Option<&str>,
    outcome: Result<RunOutcome, RunError>,
) -> CallToolResult {
    let story = |run_id: &str| world.run_story(run_id).ok();
    match outcome {
        Ok(o) => {
            let (steps, _) = story(&o.run_id)
                .as_ref()
                .map(steps_and_calls)
                .unwrap_or_default();
            CallToolResult::structured(compact(json!({
                "status": "succeeded",
                "run_id": o.run_id,
                "plan_id": o.plan_id,
                "intent_id": o.intent_id,
                "value": value_json(&o.value),
                "value_rtfs": rtfs::print_value(&o.value),
                "calls": o.calls,
                "plan": plan,
                "steps": steps,
            })))
        }
        Err(e) => {
            let message = bounded(e.to_string());
            let mut out = json!({"status": "error", "error": message, "plan": plan});
            let run_id = match &e {
                RunError::StepFailed { run_id, .. } | RunError::Interrupted { run_id } => {
                    Some(run_id.clone())
                }
                RunError::Denied { run_id, .. } => run_id.clone(),
                _ => None,
            };
            match &e {
                RunError::Parse(err) => {
                    out["status"] = json!("parse_error");
                    out["findings"] = json!([parse_finding(src, err)]);
                }
                RunError::Preflight(report) => {
                    out["status"] = json!("preflight_failed");
                    out["findings"] = findings(report);
                }
                RunError::Denied { report, .. } => {
                    out["status"] = json!("denied");
                    if let Some(r) = report {
                        out["findings"] = findings(r);
                    }
                }
                RunError::StepFailed { step, .. } => {
                    out["status"] = json!("failed");
                    out["failed_step"] = json!(step.as_ref().map(|(n, p)| format!("{n} (#{p})")));
                }
                RunError::Interrupted { .. } => out["status"] = json!("interrupted"),
                RunError::Store(_) | RunError::Internal(_) => {}
            }
            if let Some(id) = &run_id {
                out["run_id"] = json!(id);
                if let Some(s) = story(id) {
                    let (steps, approvals) = steps_and_calls(&s);
                    out["steps"] = json!(steps);
                    let needed: Vec<Json> = approvals
                        .into_iter()
                        .map(|mut a| {
                            let cap = a["capability"].as_str().unwrap_or_default().to_string();
                            a["how_to_preapprove"] =
                                json!(preapprove_hint(&cap, world.policy_source()));
                            a
                        })
                        .collect();
                    out["approvals_needed"] = json!(needed);
                }
            }
            CallToolResult::structured_error(compact(out))
        }
    }
}

fn explain(world: &World, run_id: &str) -> CallToolResult {
    match world.run_story(run_id) {
        Ok(story) => match serde_json::to_value(&story) {
            Ok(j) => CallToolResult::structured(compact(j)),
            Err(e) => refusal("error", e.to_string()),
        },
        Err(e) => refusal("error", e.to_string()),
    }
}

fn verify(world: &World) -> CallToolResult {
    let store = match world.store() {
        Ok(s) => s,
        Err(e) => return refusal("error", e.to_string()),
    };
    match world.block_on(store.verify_chain()) {
        Ok(report) => match serde_json::to_value(&report) {
            Ok(j) if report.ok => CallToolResult::structured(compact(j)),
            Ok(j) => CallToolResult::structured_error(compact(j)),
            Err(e) => refusal("error", e.to_string()),
        },
        Err(e) => refusal("error", format!("store: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_definition_is_a_well_formed_tool() {
        let defs = definitions();
        assert_eq!(defs.len(), NAMES.len());
        for (t, name) in defs.iter().zip(NAMES) {
            assert_eq!(&t.name, name);
            assert_eq!(t.input_schema.get("type"), Some(&json!("object")), "{name}");
            let out = t
                .output_schema
                .as_ref()
                .unwrap_or_else(|| panic!("{name} has no output schema"));
            assert_eq!(out.get("type"), Some(&json!("object")), "{name}");
            assert!(
                t.description.as_ref().is_some_and(|d| d.len() > 40),
                "{name}"
            );
            assert!(t.annotations.is_some(), "{name}");
        }
    }

    #[test]
    fn malformed_arguments_say_what_is_wrong() {
        let obj = |v: Json| v.as_object().cloned().unwrap();
        let e = args::<RunArgs>("ccos_run", obj(json!({"plan": 3})))
            .err()
            .unwrap();
        assert!(e.contains("ccos_run") && e.contains("invalid type"), "{e}");
        let e = args::<RunArgs>("ccos_run", obj(json!({"plan": "x", "extra": 1})))
            .err()
            .unwrap();
        assert!(e.contains("unknown field `extra`"), "{e}");
        let e = args::<GoalArgs>("ccos_plan", obj(json!({}))).err().unwrap();
        assert!(e.contains("missing field `goal`"), "{e}");
        assert!(check_goal(" ").is_err());
        assert!(check_goal(&"g".repeat(MAX_GOAL_BYTES + 1)).is_err());
        assert!(check_plan_text(&"(".repeat(MAX_PLAN_BYTES + 1)).is_err());
    }
}
