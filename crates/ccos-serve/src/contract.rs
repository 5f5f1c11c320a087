//! What a client model needs to write a valid plan on its first try: the
//! plan-writing contract (an MCP prompt) and the RTFS language reference
//! (an MCP resource, `docs/rtfs.md` itself).

use ccos_marketplace::CapabilityManifest;

/// The prompt's name.
pub const PROMPT_NAME: &str = "ccos_plan_contract";

/// The resource's URI.
pub const RTFS_URI: &str = "ccos://docs/rtfs.md";

/// The RTFS language reference (`docs/rtfs.md`, every example of which is
/// run by the rtfs crate's tests).
pub const RTFS_REFERENCE: &str = include_str!("../../../docs/rtfs.md");

/// The rules every plan submitted to ccos follows.
pub const CONTRACT: &str = r#"You write plans for ccos, a governed executor. A plan is one RTFS program (a small Clojure-like language); ccos checks it against the capabilities' schemas and the security policy, runs it (independent steps in parallel), asks for approval where the policy requires it, and records every call in a tamper-evident causal chain.

Allowed forms:
- (do e1 e2 ...)                     sequence; the value is the last one
- (step "Name" body)                 a named step; name every step that calls a capability
- (call :capability.id ARGS)         the ONLY way a plan touches the world
- (step-parallel e1 e2 ...)          independent branches, run concurrently; the value is a vector in branch order
- (step-loop [x coll] body)          one step per element; the value is a vector
- (let [name expr ...] body)         bind results to use them later
- (if test then else), (when test body), (cond t1 e1 t2 e2 :else e3)
- data: nil true false 42 3.14 "text" :keyword [vector] {:key value}
- standard functions: get, get-in, count, first, rest, nth, map, filter, reduce, str, +, -, *, /, =, <, >, keys, vals, assoc, merge, ...

Rules:
- Use ONLY capabilities that exist: find them with the ccos_capabilities tool (it shows each one's input schema and whether the policy allows it, needs approval, or denies it).
- Arguments follow the input schema: an object schema takes ONE map argument, (call :ccos.echo {:message "hi"}); an array schema takes positional arguments, (call :ccos.math.add 2 3).
- Map keys are keywords: {:path "/tmp/a.txt"}. Keys with characters a keyword cannot hold are strings: {"odd key" 1}.
- To use a step's result later, bind it: (let [text (step "Read" (call :x.read {:path "a"}))] (step "Count" (count text))).
- Put calls that do not depend on each other in one (step-parallel ...): they run at the same time.
- No fn/defn/def needed: a plan is data flow between calls.
- Secrets the policy declares are readable as (get secrets :NAME); never write secret values into a plan.

Workflow:
1. ccos_capabilities {"query": "..."} to find the capabilities you need.
2. Write the plan.
3. ccos_check {"plan": "..."}: every finding has line:column, a code and a repair hint (e.g. "closest: ccos.text.count_words", "missing key :path"). Fix them and check again until "ok" is true.
4. ccos_run {"plan": "..."}: returns the value, the run id and the steps. Calls that need approval are asked of the user (or refused with how to pre-approve them).
5. ccos_explain_run {"run_id": "..."}: the story of the run from the causal chain.

Example:
(do
  (let [files (step "List" (call :ccos.file.list {:path "."}))]
    (step-parallel
      (step "Count files" (count files))
      (step "Say done" (call :ccos.echo {:message "listed"})))))

The full language reference is the resource ccos://docs/rtfs.md."#;

/// The contract, and when a goal is given, the goal and the capabilities
/// the policy does not deny that look relevant to it.
pub fn render(goal: Option<&str>, capabilities: &[CapabilityManifest]) -> String {
    let mut out = CONTRACT.to_string();
    if let Some(goal) = goal.map(str::trim).filter(|g| !g.is_empty()) {
        out.push_str("\n\nCapabilities that look relevant (id, arguments, description):\n");
        if capabilities.is_empty() {
            out.push_str("(none found: search with ccos_capabilities)\n");
        }
        for m in capabilities {
            out.push_str(&ccos_planner_llm::modes::capability_line(m));
            out.push('\n');
        }
        out.push_str(&format!("\nGoal: {goal}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_contract_example_is_a_valid_plan() {
        let start = CONTRACT.find("Example:\n").unwrap() + "Example:\n".len();
        let end = CONTRACT.find("\n\nThe full language").unwrap();
        let example = &CONTRACT[start..end];
        rtfs::parse(example).unwrap_or_else(|e| panic!("{e}: {example}"));
    }

    #[test]
    fn a_goal_adds_the_capabilities_and_the_goal() {
        let m = CapabilityManifest::new(
            "ccos.echo",
            "Returns its input.",
            serde_json::json!({"type": "object", "properties": {"message": {"type": "string"}}}),
        );
        let text = render(Some("say hi"), &[m]);
        assert!(
            text.contains(":ccos.echo") && text.ends_with("Goal: say hi\n"),
            "{text}"
        );
        assert_eq!(render(None, &[]), CONTRACT);
        assert!(RTFS_REFERENCE.starts_with("# RTFS"));
    }
}
