//! Governed runs over the built-in capabilities.

use std::time::{Duration, Instant};

use ccos_governance::Policy;
use ccos_orchestrator::{AutoApprove, RunError, RunOptions};
use ccos_testkit::http::{LoopbackServer, Reply};

use crate::support::{count, fixture, policy};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plan_over_builtins_runs_and_is_recorded() {
    let fx = fixture(Policy::default()).await;
    std::fs::write(fx.path("notes.txt"), "one two three\nfour five\n").unwrap();
    let src = format!(
        r#"(do
  (let [text (step "Read" (call :ccos.file.read {{:path "{}"}}))
        words (step "Count" (call :ccos.text.count_words {{:text text}}))]
    (step "Report" (call :ccos.echo {{:message (str "words: " words)}}))))"#,
        fx.path("notes.txt").display()
    );
    let out = fx
        .orchestrator
        .run(&src, RunOptions::default())
        .await
        .unwrap();
    assert_eq!(out.value.to_string(), "\"words: 5\"");
    assert_eq!(out.calls, 3);

    let entries = fx.run_entries(&out.run_id).await;
    assert_eq!(count(&entries, "step_started"), 3);
    assert_eq!(count(&entries, "step_ended"), 3);
    assert_eq!(count(&entries, "capability_call"), 3);
    assert_eq!(count(&entries, "run_started"), 1);
    assert_eq!(count(&entries, "run_ended"), 1);
    let call = entries
        .iter()
        .find(|e| e.kind == "capability_call")
        .unwrap();
    assert_eq!(call.payload["capability"], "ccos.file.read");
    assert_eq!(call.payload["outcome"], "ok");
    assert_eq!(call.payload["step"], "Read");
    fx.assert_chain_verifies().await;

    let plan = fx
        .orchestrator
        .store()
        .get_plan(&out.plan_id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(plan.status, "succeeded");
    assert_eq!(plan.rtfs, src);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seed_example_greet_and_add() {
    let fx = fixture(Policy::default()).await;
    let out = fx
        .orchestrator
        .run(
            r#"(do (step "Greet" (call :ccos.echo {:message "hi"})) (step "Add" (call :ccos.math.add 2 3)))"#,
            RunOptions::default(),
        )
        .await
        .unwrap();
    assert_eq!(out.value.to_string(), "5");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn denied_call_never_executes() {
    let fx = fixture(policy("[capabilities]\ndeny = [\"ccos.file.write\"]\n")).await;
    let target = fx.path("out.txt");
    let src = format!(
        r#"(step "Write" (call :ccos.file.write {{:path "{}" :content "x"}}))"#,
        target.display()
    );
    let err = fx
        .orchestrator
        .run(&src, RunOptions::default())
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            RunError::Denied {
                report: Some(_),
                ..
            }
        ),
        "{err}"
    );
    assert!(!target.exists(), "the denied write happened");
    assert_eq!(fx.chain().await.len(), 0, "nothing ran, nothing recorded");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn computed_id_to_denied_capability_is_refused_at_run_time() {
    let fx = fixture(policy("[capabilities]\ndeny = [\"ccos.file.write\"]\n")).await;
    let target = fx.path("out.txt");
    let src = format!(
        r#"(do (step "Sneaky" (call (keyword (str "ccos.file." "write")) {{:path "{}" :content "x"}})))"#,
        target.display()
    );
    let (reason, run_id) = fx.run_denied_at_run_time(&src).await;
    assert!(reason.contains("ccos.file.write"), "{reason}");
    assert!(!target.exists(), "the denied write happened");
    let entries = fx.run_entries(&run_id).await;
    let call = entries
        .iter()
        .find(|e| e.kind == "capability_call")
        .unwrap();
    assert_eq!(call.payload["outcome"], "denied");
    fx.assert_chain_verifies().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn approval_refused_when_non_interactive() {
    // Default policy: write needs approval; the default approver refuses.
    let fx = fixture(Policy::default()).await;
    let target = fx.path("out.txt");
    let src = format!(
        r#"(call :ccos.file.write {{:path "{}" :content "x"}})"#,
        target.display()
    );
    let (reason, run_id) = fx.run_denied_at_run_time(&src).await;
    assert!(reason.contains("approval refused"), "{reason}");
    assert!(!target.exists());
    let entries = fx.run_entries(&run_id).await;
    assert_eq!(count(&entries, "approval_requested"), 1);
    assert_eq!(count(&entries, "approval_denied"), 1);

    // With --yes the same plan writes the file.
    let fx2 = fixture(Policy::default()).await;
    let target2 = fx2.path("out.txt");
    let src2 = format!(
        r#"(call :ccos.file.write {{:path "{}" :content "x"}})"#,
        target2.display()
    );
    let orch = fx2
        .orchestrator
        .clone()
        .with_approver(std::sync::Arc::new(AutoApprove));
    orch.run(&src2, RunOptions::default()).await.unwrap();
    assert_eq!(std::fs::read_to_string(target2).unwrap(), "x");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn call_budget_is_enforced() {
    let fx = fixture(policy("[limits]\nmax_calls = 2\n")).await;
    let src = r#"(do (call :ccos.echo {:message "1"}) (call :ccos.echo {:message "2"}) (call :ccos.echo {:message "3"}))"#;
    let (reason, run_id) = fx.run_denied_at_run_time(src).await;
    assert!(reason.contains("budget"), "{reason}");
    let entries = fx.run_entries(&run_id).await;
    let ok_calls = entries
        .iter()
        .filter(|e| e.kind == "capability_call" && e.payload["outcome"] == "ok")
        .count();
    assert_eq!(ok_calls, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn per_call_timeout_fails_the_step_and_stops_the_plan() {
    let fx = fixture(policy(
        "[limits]\ncall_timeout_ms = 100\n[http]\nallow_hosts = [\"127.0.0.1\"]\n",
    ))
    .await;
    let server = LoopbackServer::start(|_| Reply::Hang(Duration::from_secs(5)));
    let marker = fx.path("after.txt");
    let src = format!(
        r#"(do (step "Slow" (call :ccos.http.get {{:url "{}"}}))
               (step "After" (call :ccos.file.write {{:path "{}" :content "x"}})))"#,
        server.url("/slow"),
        marker.display()
    );
    let started = Instant::now();
    let err = fx
        .orchestrator
        .clone()
        .with_approver(std::sync::Arc::new(AutoApprove))
        .run(&src, RunOptions::default())
        .await
        .unwrap_err();
    assert!(
        started.elapsed().as_secs() < 4,
        "the timeout did not cut the call short"
    );
    let RunError::StepFailed { step, error, .. } = err else {
        panic!("expected a failed step, got {err}")
    };
    assert_eq!(step.map(|s| s.0).as_deref(), Some("Slow"));
    assert!(
        error.message.contains("timed out after 100 ms"),
        "{}",
        error.message
    );
    assert!(!marker.exists(), "a step after the failed one ran");
}

/// A wait the plan asks for is not cut short by the per-call timeout
/// ("wait 5 minutes" is a wait, not a hung call); the run's deadline
/// still bounds it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_requested_wait_outlasts_the_call_timeout_within_the_run_deadline() {
    let fx = fixture(policy("[limits]\ncall_timeout_ms = 100\n")).await;
    let out = fx
        .orchestrator
        .run(
            r#"(step "Wait" (call :ccos.time.sleep {:ms 400}))"#,
            RunOptions::default(),
        )
        .await
        .unwrap();
    assert_eq!(out.value, rtfs::Value::Int(400));

    let fx = fixture(policy(
        "[limits]\ncall_timeout_ms = 100\nrun_timeout_ms = 300\n",
    ))
    .await;
    let started = Instant::now();
    let err = fx
        .orchestrator
        .run(
            r#"(step "Wait" (call :ccos.time.sleep {:ms 5000}))"#,
            RunOptions::default(),
        )
        .await
        .unwrap_err();
    assert!(
        started.elapsed().as_secs() < 4,
        "the run deadline did not stop the wait"
    );
    assert!(err.to_string().contains("run deadline"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_step_can_be_caught_by_the_plan() {
    let fx = fixture(Policy::default()).await;
    let src = r#"(try (step "Missing" (call :ccos.file.read {:path "nope.txt"})) (catch e (str "recovered: " (name (:kind e)))))"#;
    let out = fx
        .orchestrator
        .run(src, RunOptions::default())
        .await
        .unwrap();
    assert_eq!(out.value.to_string(), "\"recovered: host\"");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secrets_are_passed_but_never_recorded_or_printed() {
    let secret = "tok-9f8e7d6c5b4a";
    let mut fx = fixture(policy("[secrets]\nenv = [\"CCOS_TEST_SECRET_TOKEN\"]\n")).await;
    // The caller (the world) reads the named variables; here, explicitly.
    let redactor =
        ccos_orchestrator::Redactor::from_env(&fx.orchestrator.policy().secret_env, |n| {
            (n == "CCOS_TEST_SECRET_TOKEN").then(|| secret.to_string())
        });
    fx.orchestrator = fx.orchestrator.clone().with_redactor(redactor);
    let src = r#"(do (step "Use" (call :ccos.echo {:message (str "Bearer " (:CCOS_TEST_SECRET_TOKEN secrets))})))"#;
    let out = fx
        .orchestrator
        .run(src, RunOptions::default())
        .await
        .unwrap();
    // The capability received the real value (echo returns it), the output is redacted.
    assert_eq!(out.value.to_string(), "\"Bearer <redacted>\"");
    for e in fx.chain().await {
        assert!(
            !e.payload.to_string().contains(secret),
            "secret leaked into {}: {}",
            e.kind,
            e.payload
        );
    }
    let call = fx
        .chain()
        .await
        .into_iter()
        .find(|e| e.kind == "capability_call")
        .unwrap();
    assert_eq!(call.payload["result"]["json"], "Bearer <redacted>");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parallel_branches_run_concurrently() {
    let fx = fixture(Policy::default()).await;
    let src = r#"(step-parallel
                   (call :ccos.time.sleep {:ms 500}) (call :ccos.time.sleep {:ms 500})
                   (call :ccos.time.sleep {:ms 500}) (call :ccos.time.sleep {:ms 500}))"#;
    let started = Instant::now();
    let out = fx
        .orchestrator
        .run(src, RunOptions::default())
        .await
        .unwrap();
    let elapsed = started.elapsed();
    assert_eq!(out.calls, 4);
    // Sequentially this takes 2 s; concurrently about 0.5 s. Generous bound.
    assert!(elapsed.as_millis() < 1500, "took {elapsed:?}");
    let entries = fx.run_entries(&out.run_id).await;
    assert_eq!(count(&entries, "step_started"), 5, "group + 4 branches");
    fx.assert_chain_verifies().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn interrupt_cancels_running_calls() {
    let fx = fixture(Policy::default()).await;
    let interrupt = fx.orchestrator.interrupt();
    tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        interrupt.trigger();
    });
    let started = Instant::now();
    let err = fx
        .orchestrator
        .run(r#"(do (step "Wait" (call :ccos.time.sleep {:ms 10000})) (call :ccos.echo {:message "never"}))"#, RunOptions::default())
        .await
        .unwrap_err();
    assert!(started.elapsed().as_secs() < 5);
    let RunError::Interrupted { run_id } = err else {
        panic!("expected interruption, got {err}")
    };
    let entries = fx.run_entries(&run_id).await;
    let ended: Vec<_> = entries.iter().filter(|e| e.kind == "run_ended").collect();
    assert_eq!(ended.len(), 1);
    assert_eq!(ended[0].payload["status"], "interrupted");
    assert!(
        entries
            .iter()
            .all(|e| e.payload["capability"] != "ccos.echo")
    );
    fx.assert_chain_verifies().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn preflight_errors_stop_the_run() {
    let fx = fixture(Policy::default()).await;
    let err = fx
        .orchestrator
        .run(r#"(call :data.list.filter {:x 1})"#, RunOptions::default())
        .await
        .unwrap_err();
    // Unknown capabilities are denied by the policy as well as unknown.
    assert!(
        matches!(err, RunError::Denied { .. } | RunError::Preflight(_)),
        "{err}"
    );
    let err = fx
        .orchestrator
        .run(r#"(call :ccos.echo {:msg "typo"})"#, RunOptions::default())
        .await
        .unwrap_err();
    let RunError::Preflight(report) = err else {
        panic!("expected preflight failure, got {err}")
    };
    assert!(
        report.findings.iter().any(|f| f.code == "missing_key"),
        "{:?}",
        report.findings
    );
    let err = fx
        .orchestrator
        .run("(do (call", RunOptions::default())
        .await
        .unwrap_err();
    assert!(matches!(err, RunError::Parse(_)));
}
