//! `ccos mcp serve` driven by the official rmcp client, over streamable
//! HTTP and over the stdio transport's framing (an in-memory pipe; the
//! real stdio of the binary is tested in the CLI's tests): the tools, the
//! prompt and the resource, a client's whole check → repair → run →
//! explain loop, approvals through elicitation, the bearer token, and
//! hostile input.

mod support;

use std::io::{Read, Write};
use std::sync::Arc;

use ccos_serve::ServeOptions;
use ccos_world::World;
use rmcp::model::{GetPromptRequestParams, ReadResourceRequestParams, ResourceContents};
use serde_json::{Value as Json, json};
use support::*;

const TOOLS: [&str; 6] = [
    "ccos_capabilities",
    "ccos_plan",
    "ccos_check",
    "ccos_run",
    "ccos_explain_run",
    "ccos_verify_chain",
];

fn served(home: &Home) -> (Arc<World>, Served) {
    let world = home.world(&[]);
    let s = Served::http(world.clone(), ServeOptions::default(), None);
    (world, s)
}

#[test]
fn http_serves_the_tools_the_prompt_and_the_resource() {
    let home = Home::new();
    let (_world, s) = served(&home);
    let rt = runtime();
    rt.block_on(async {
        let c = connect_http(&s.url, None, TestClient::new(Elicit::Unsupported))
            .await
            .unwrap();
        let info = c.peer_info().unwrap();
        assert_eq!(
            info.server_info.as_ref().map(|i| i.name.as_str()),
            Some("ccos")
        );
        assert!(
            info.instructions
                .as_deref()
                .unwrap_or("")
                .contains("ccos_check")
        );
        let tools = c.list_all_tools().await.unwrap();
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(names, TOOLS, "without --gateway only the ccos_* tools");
        for t in &tools {
            assert!(t.output_schema.is_some(), "{} has an output schema", t.name);
        }

        // The plan-writing contract, with a goal: relevant capabilities.
        let p = c
            .get_prompt(
                GetPromptRequestParams::new("ccos_plan_contract").with_arguments(
                    json!({"goal": "count the words of a text"})
                        .as_object()
                        .unwrap()
                        .clone(),
                ),
            )
            .await
            .unwrap();
        let text = serde_json::to_string(&p.messages).unwrap();
        assert!(
            text.contains("step-parallel") && text.contains("ccos.text.count_words"),
            "{text}"
        );
        // The language reference.
        let r = c
            .read_resource(ReadResourceRequestParams::new("ccos://docs/rtfs.md"))
            .await
            .unwrap();
        let ResourceContents::TextResourceContents { text, .. } = &r.contents[0] else {
            panic!("not text: {r:?}")
        };
        assert!(text.starts_with("# RTFS") && text.contains("step-parallel"));
        assert!(
            c.read_resource(ReadResourceRequestParams::new("file:///etc/passwd"))
                .await
                .is_err()
        );

        // Capabilities, with the policy's verdict.
        let r = call(
            &c,
            "ccos_capabilities",
            json!({"query": "write a file", "k": 3}),
        )
        .await
        .unwrap();
        let caps = structured(&r)["capabilities"].clone();
        let write = caps
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == "ccos.file.write")
            .unwrap_or_else(|| panic!("{caps}"));
        assert_eq!(write["policy"], "needs_approval", "{write}");
        assert_eq!(write["input_schema"]["type"], "object");

        // A goal planned by the deterministic planner.
        let r = call(&c, "ccos_plan", json!({"goal": "add 2 and 3"}))
            .await
            .unwrap();
        let planned = structured(&r);
        assert_eq!(planned["status"], "planned", "{planned}");
        assert!(
            planned["plan"].as_str().unwrap().contains("ccos.math.add"),
            "{planned}"
        );
        c.cancel().await.unwrap();
    });
}

/// The loop a client model runs: list, check a plan with errors, repair it
/// from the findings' hints (as text edits at the findings' spans), run it
/// with independent calls in parallel, explain the run; every step is in
/// the chain.
#[test]
fn a_client_checks_repairs_runs_in_parallel_and_explains() {
    let home = Home::new();
    let (world, s) = served(&home);
    let rt = runtime();
    let broken = r#"(do
  (let [n (step-parallel
            (step "Count" (call :ccos.text.count_word {:text "a b c"}))
            (step "Upper" (call :ccos.text.upper {:txt "abc"}))
            (step "Sum" (call :ccos.math.add 2 3)))]
    n))"#;
    let (run_id, plan) = rt.block_on(async {
        let c = connect_http(&s.url, None, TestClient::new(Elicit::Unsupported))
            .await
            .unwrap();
        let tools = c.list_all_tools().await.unwrap();
        assert!(tools.iter().any(|t| t.name == "ccos_check"));

        let r = call(&c, "ccos_check", json!({"plan": broken}))
            .await
            .unwrap();
        let report = structured(&r);
        assert_eq!(report["ok"], false, "{report}");
        let findings = report["findings"].as_array().unwrap().clone();
        let codes: Vec<&str> = findings
            .iter()
            .map(|f| f["code"].as_str().unwrap())
            .collect();
        assert!(
            codes.contains(&"unknown_capability") && codes.contains(&"unknown_key"),
            "{codes:?}"
        );
        for f in &findings {
            assert!(f["line"].as_u64().unwrap() >= 1 && f["column"].as_u64().unwrap() >= 1);
        }
        let repaired = repair(broken, &findings);
        assert_ne!(repaired, broken);
        let r = call(&c, "ccos_check", json!({"plan": repaired}))
            .await
            .unwrap();
        assert_eq!(structured(&r)["ok"], true, "{}", structured(&r));

        let r = call(&c, "ccos_run", json!({"plan": repaired}))
            .await
            .unwrap();
        let ran = structured(&r);
        assert!(!is_error(&r), "{ran}");
        assert_eq!(ran["status"], "succeeded");
        assert_eq!(ran["value"], json!([3, "ABC", 5]));
        assert_eq!(ran["calls"], 3);
        let kinds: Vec<&str> = ran["steps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["kind"].as_str().unwrap())
            .collect();
        assert!(
            kinds.contains(&"parallel") && kinds.iter().filter(|k| **k == "branch").count() == 3,
            "{kinds:?}"
        );
        let run_id = ran["run_id"].as_str().unwrap().to_string();

        let r = call(&c, "ccos_explain_run", json!({"run_id": run_id}))
            .await
            .unwrap();
        let story = structured(&r);
        assert_eq!(story["summary"]["status"], "succeeded", "{story}");
        assert_eq!(story["summary"]["source"], "<mcp client>");
        let calls: Vec<&str> = story["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["event"] == "call")
            .map(|e| e["capability"].as_str().unwrap())
            .collect();
        assert_eq!(calls.len(), 3, "{story}");
        for cap in ["ccos.text.count_words", "ccos.text.upper", "ccos.math.add"] {
            assert!(calls.contains(&cap), "{calls:?}");
        }
        assert_eq!(story["plan"].as_str(), Some(repaired.as_str()));

        let r = call(&c, "ccos_verify_chain", json!({})).await.unwrap();
        assert_eq!(structured(&r)["ok"], true);
        c.cancel().await.unwrap();
        (run_id, repaired)
    });
    drop(s);
    // In the chain: the run, its three calls, its steps, with the origin.
    let entries = chain(&world);
    assert!(entries.contains(&run_id));
    let calls: Vec<Json> = chain_of_kind(&world, "capability_call")
        .into_iter()
        .filter(|e| e["run_id"] == run_id.as_str())
        .collect();
    assert_eq!(calls.len(), 3);
    let started = chain_of_kind(&world, "run_started");
    assert!(
        started
            .iter()
            .any(|e| e["run_id"] == run_id.as_str() && e["payload"]["origin"] == "mcp"),
        "{started:?}"
    );
    assert!(plan.contains("ccos.text.count_words"));
}

/// Applies the findings' hints as a client model would: the closest
/// capability for an unknown one, the suggested key for an unknown key.
fn repair(src: &str, findings: &[Json]) -> String {
    let mut edits: Vec<(usize, usize, String)> = vec![];
    for f in findings {
        let (start, end) = (
            f["start"].as_u64().unwrap() as usize,
            f["end"].as_u64().unwrap() as usize,
        );
        let form = &src[start..end];
        let hint = f["hint"].as_str().unwrap_or("");
        match f["code"].as_str().unwrap() {
            "unknown_capability" => {
                let wrong = f["capability"].as_str().unwrap();
                let closest = hint
                    .split("closest: ")
                    .nth(1)
                    .and_then(|r| r.split(", ").next())
                    .unwrap();
                edits.push((start, end, form.replacen(wrong, closest, 1)));
            }
            "unknown_key" => {
                // "did you mean :text?" for ":txt"
                let wrong = f["message"]
                    .as_str()
                    .unwrap()
                    .split("unknown key ")
                    .nth(1)
                    .and_then(|r| r.split(';').next())
                    .unwrap();
                let right = hint
                    .trim_start_matches("did you mean ")
                    .trim_end_matches('?');
                edits.push((start, end, form.replacen(wrong, right, 1)));
            }
            _ => {}
        }
    }
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = src.to_string();
    for (start, end, text) in edits {
        out.replace_range(start..end, &text);
    }
    out
}

#[test]
fn approvals_are_asked_through_elicitation_and_never_given_silently() {
    let home = Home::new();
    let (world, s) = served(&home);
    let rt = runtime();
    let target = home.work().join("out.txt");
    let plan = format!(
        r#"(step "Write" (call :ccos.file.write {{:path {:?} :content "hello"}}))"#,
        target.display().to_string()
    );
    rt.block_on(async {
        // A client that cannot be asked: refused, with how to pre-approve.
        let c = connect_http(&s.url, None, TestClient::new(Elicit::Unsupported))
            .await
            .unwrap();
        let r = call(&c, "ccos_run", json!({"plan": plan})).await.unwrap();
        let out = structured(&r);
        assert!(is_error(&r), "{out}");
        assert_eq!(out["status"], "denied", "{out}");
        let needed = &out["approvals_needed"][0];
        assert_eq!(needed["capability"], "ccos.file.write", "{out}");
        let how = needed["how_to_preapprove"].as_str().unwrap();
        assert!(
            how.contains("pre_approved") && how.contains("policy.toml"),
            "{how}"
        );
        assert!(
            out["error"].as_str().unwrap().contains("elicitation"),
            "{out}"
        );
        assert!(!target.exists(), "refused, yet written");
        c.cancel().await.unwrap();

        // A client whose user declines.
        let client = TestClient::new(Elicit::Decline);
        let c = connect_http(&s.url, None, client.clone()).await.unwrap();
        let r = call(&c, "ccos_run", json!({"plan": plan})).await.unwrap();
        assert_eq!(structured(&r)["status"], "denied");
        assert_eq!(client.asked().len(), 1);
        assert!(
            client.asked()[0].contains("ccos.file.write"),
            "{:?}",
            client.asked()
        );
        assert!(!target.exists(), "declined, yet written");
        c.cancel().await.unwrap();

        // A client whose user approves.
        let client = TestClient::new(Elicit::Approve);
        let c = connect_http(&s.url, None, client.clone()).await.unwrap();
        let r = call(&c, "ccos_run", json!({"plan": plan})).await.unwrap();
        assert_eq!(structured(&r)["status"], "succeeded", "{:?}", r);
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "hello");
        assert_eq!(client.asked().len(), 1);
        c.cancel().await.unwrap();
    });
    drop(s);
    let given = chain_of_kind(&world, "approval_given");
    assert_eq!(given.len(), 1, "{given:?}");
    let by = given[0]["payload"]["by"].as_str().unwrap();
    assert!(
        by.contains("mcp-elicitation") && by.contains("ccos-test-client"),
        "{by}"
    );
    assert_eq!(chain_of_kind(&world, "approval_denied").len(), 2);

    // Pre-approved in the policy: runs without asking.
    let home2 = Home::new();
    home2.policy("[capabilities]\npre_approved = [\"ccos.file.write\"]\n");
    let (_w, s) = served(&home2);
    let target = home2.work().join("pre.txt");
    let plan = format!(
        r#"(call :ccos.file.write {{:path {:?} :content "x"}})"#,
        target.display().to_string()
    );
    rt.block_on(async {
        let c = connect_http(&s.url, None, TestClient::new(Elicit::Unsupported))
            .await
            .unwrap();
        let r = call(&c, "ccos_run", json!({"plan": plan})).await.unwrap();
        assert_eq!(structured(&r)["status"], "succeeded");
        assert!(target.exists());
        c.cancel().await.unwrap();
    });
}

#[test]
fn the_stdio_framing_serves_the_same_tools() {
    let home = Home::new();
    let world = home.world(&[]);
    let rt = runtime();
    rt.block_on(async {
        let c = connect_pipe(
            world.clone(),
            ServeOptions::default(),
            TestClient::new(Elicit::Approve),
        )
        .await;
        let names: Vec<String> = c
            .list_all_tools()
            .await
            .unwrap()
            .iter()
            .map(|t| t.name.to_string())
            .collect();
        assert_eq!(names, TOOLS);
        let r = call(
            &c,
            "ccos_run",
            json!({"plan": "(step-parallel (call :ccos.math.add 1 2) (call :ccos.echo {:message \"hi\"}))"}),
        )
        .await
        .unwrap();
        assert_eq!(structured(&r)["value"], json!([3, "hi"]));
        c.cancel().await.unwrap();
    });
}

#[test]
fn a_bearer_token_guards_http() {
    let home = Home::new();
    let world = home.world(&[]);
    let token = "t0ken-0123456789abcdef";
    let s = Served::http(world, ServeOptions::default(), Some(token));
    let rt = runtime();
    rt.block_on(async {
        assert!(
            connect_http(&s.url, None, TestClient::new(Elicit::Unsupported))
                .await
                .is_err(),
            "no token"
        );
        assert!(
            connect_http(
                &s.url,
                Some("t0ken-0123456789abcdeX"),
                TestClient::new(Elicit::Unsupported)
            )
            .await
            .is_err(),
            "wrong token"
        );
        let c = connect_http(&s.url, Some(token), TestClient::new(Elicit::Unsupported))
            .await
            .unwrap();
        assert_eq!(c.list_all_tools().await.unwrap().len(), TOOLS.len());
        c.cancel().await.unwrap();
    });
    // Raw: 401 with a challenge, whatever the path.
    let addr = s.url.trim_start_matches("http://").trim_end_matches("/mcp");
    for path in ["/mcp", "/other"] {
        let reply = raw_http(
            addr,
            &format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"),
        );
        assert!(reply.starts_with("HTTP/1.1 401"), "{reply}");
        assert!(
            reply
                .to_ascii_lowercase()
                .contains("www-authenticate: bearer"),
            "{reply}"
        );
    }
}

fn raw_http(addr: &str, request: &str) -> String {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut out = vec![];
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn loopback_http_refuses_browsers_and_other_hosts() {
    let home = Home::new();
    let (_world, s) = served(&home);
    let addr = s.url.trim_start_matches("http://").trim_end_matches("/mcp");
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}"#;
    let post = |extra: &str| {
        raw_http(
            addr,
            &format!(
                "POST /mcp HTTP/1.1\r\n{extra}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            ),
        )
    };
    // A web page's request (DNS rebinding, drive-by): refused.
    let r = post("Host: 127.0.0.1\r\nOrigin: http://evil.example\r\n");
    assert!(r.starts_with("HTTP/1.1 403"), "{r}");
    let r = post("Host: evil.example\r\n");
    assert!(r.starts_with("HTTP/1.1 403"), "{r}");
    // A local client: served.
    let r = post("Host: 127.0.0.1\r\n");
    assert!(r.starts_with("HTTP/1.1 200"), "{r}");
    // Elsewhere than /mcp: 404.
    let r = raw_http(
        addr,
        "GET /admin HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
    );
    assert!(r.starts_with("HTTP/1.1 404"), "{r}");
}

/// Hostile or broken input is answered, never crashes the server, and
/// runs nothing.
#[test]
fn hostile_arguments_are_refused_and_the_server_keeps_serving() {
    let home = Home::new();
    let (world, s) = served(&home);
    let before = chain(&world).len();
    let rt = runtime();
    rt.block_on(async {
        let c = connect_http(&s.url, None, TestClient::new(Elicit::Approve))
            .await
            .unwrap();
        let cases = [
            ("ccos_run", json!({})),
            ("ccos_run", json!({"plan": "(do 1)", "goal": "x"})),
            ("ccos_run", json!({"plan": 42})),
            ("ccos_run", json!({"plan": "   "})),
            ("ccos_run", json!({"plan": "(do 1)", "yes": true})),
            ("ccos_check", json!({"plan": "x".repeat(1024 * 1024 + 1)})),
            ("ccos_plan", json!({"goal": "g".repeat(5000)})),
            ("ccos_capabilities", json!({"k": 100000})),
            ("ccos_capabilities", json!({"k": -1})),
            ("ccos_explain_run", json!({"run_id": "r".repeat(300)})),
            ("ccos_verify_chain", json!({"unexpected": 1})),
        ];
        for (tool, args) in cases {
            let r = call(&c, tool, args.clone()).await.unwrap();
            assert!(is_error(&r), "{tool} {args}: {r:?}");
            let out = structured(&r);
            assert_eq!(out["status"], "invalid_arguments", "{tool}: {out}");
        }
        // Parse bombs and unknown runs are answered as findings / errors.
        let deep = "(".repeat(100_000);
        let r = call(&c, "ccos_check", json!({"plan": deep})).await.unwrap();
        assert_eq!(structured(&r)["ok"], false);
        let r = call(&c, "ccos_run", json!({"plan": deep})).await.unwrap();
        assert_eq!(structured(&r)["status"], "parse_error");
        let r = call(&c, "ccos_explain_run", json!({"run_id": "run-nope"}))
            .await
            .unwrap();
        assert!(is_error(&r));
        // A loop bomb hits the limits, not the machine.
        let r = call(
            &c,
            "ccos_run",
            json!({"plan": "(step-loop [i (range 100000000)] (call :ccos.echo {:message \"x\"}))"}),
        )
        .await
        .unwrap();
        assert!(is_error(&r), "{r:?}");
        // Unknown tools and prompts are protocol errors.
        assert!(call(&c, "mcp.fs.write_file", json!({})).await.is_err());
        assert!(call(&c, &"x".repeat(100_000), json!({})).await.is_err());
        // An oversized request body is refused by the transport.
        let big = "y".repeat(5 * 1024 * 1024);
        let r = call(&c, "ccos_check", json!({"plan": big})).await;
        assert!(r.as_ref().map(is_error).unwrap_or(true), "{r:?}");
        // Still serving.
        let r = call(&c, "ccos_run", json!({"plan": "(call :ccos.math.add 1 1)"}))
            .await
            .unwrap();
        assert_eq!(structured(&r)["value"], 2);
        c.cancel().await.unwrap();
    });
    assert!(chain(&world).len() > before);
}
