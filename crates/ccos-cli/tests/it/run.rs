//! `ccos run --plan`: governed execution through the real binary — values,
//! exit codes (0 ok, 1 failed step or bad plan, 3 denied), approvals,
//! scripted answers, JSON output, and Ctrl-C.

use crate::support::{ccos, text};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A home whose file built-ins are confined to the home itself.
fn home() -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join("config.toml"),
        format!(
            "[files]\nroots = [{:?}]\n",
            home.path().display().to_string()
        ),
    )
    .unwrap();
    home
}

fn plan(home: &Path, text: &str) -> String {
    let p = home.join("plan.rtfs");
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn runs_a_plan_and_prints_its_value() {
    let home = home();
    let p = plan(
        home.path(),
        r#"(do (step "Greet" (call :ccos.echo {:message "hi"})) (step "Add" (call :ccos.math.add 2 3)))"#,
    );
    let out = ccos(home.path(), &["run", "--plan", &p]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "5");

    let out = ccos(home.path(), &["run", "--plan", &p, "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["value"], 5);
    assert_eq!(j["calls"], 2);

    let out = ccos(home.path(), &["chain", "verify"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

#[test]
fn writes_need_approval() {
    let home = home();
    let target = home.path().join("out.txt");
    let p = plan(
        home.path(),
        r#"(step "Save" (call :ccos.file.write {:path "out.txt" :content "saved"}))"#,
    );
    let out = ccos(home.path(), &["run", "--plan", &p]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("approval"),
        "{}",
        text(&out.stderr)
    );
    assert!(!target.exists(), "a refused write happened");

    let out = ccos(home.path(), &["run", "--plan", &p, "--yes"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "saved");
}

#[test]
fn policy_file_denies() {
    let home = home();
    let policy = home.path().join("policy.toml");
    std::fs::write(&policy, "[capabilities]\ndeny = [\"ccos.math.*\"]\n").unwrap();
    let p = plan(home.path(), "(call :ccos.math.add 1 2)");
    let out = ccos(
        home.path(),
        &["run", "--plan", &p, "--policy", policy.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("denied"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn failed_step_exits_1_naming_the_step() {
    let home = home();
    let p = plan(
        home.path(),
        r#"(do (step "Read missing" (call :ccos.file.read {:path "missing.txt"})) (step "Never" 1))"#,
    );
    let out = ccos(home.path(), &["run", "--plan", &p]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("Read missing"), "{err}");
    assert!(!err.contains("[ok  ] step 2"), "{err}");
}

#[test]
fn bad_plans_exit_1_with_a_location() {
    let home = home();
    let p = plan(
        home.path(),
        "(do (step \"x\" (call :ccos.echo {:message \"hi\"})",
    );
    let out = ccos(home.path(), &["run", "--plan", &p]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("unclosed"),
        "{}",
        text(&out.stderr)
    );

    let p = plan(home.path(), "(call :ccos.echo {:mesage \"hi\"})");
    let out = ccos(home.path(), &["run", "--plan", &p]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("plan.rtfs:1:1") && err.contains("missing_key"),
        "{err}"
    );

    let out = ccos(home.path(), &["run", "--plan", "/nonexistent/plan.rtfs"]);
    assert_eq!(out.status.code(), Some(1));
    let out = ccos(home.path(), &["run"]);
    assert_eq!(out.status.code(), Some(2), "usage errors exit 2");
}

#[test]
fn user_questions_take_scripted_answers() {
    let home = home();
    let p = plan(
        home.path(),
        r#"(let [n (call :ccos.user.ask {:prompt "How many?"})] (* 2 (parse-int n)))"#,
    );
    let out = ccos(
        home.path(),
        &["run", "--plan", &p, "--answer", "How many?=21"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "42");
    // No answer in a non-interactive run: a clear error, not a hang.
    let out = ccos(home.path(), &["run", "--plan", &p]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("How many?"),
        "{}",
        text(&out.stderr)
    );
}

/// SIGINT (Ctrl-C), SIGTERM and SIGHUP all stop a run promptly: running
/// calls are cancelled, nothing after runs, the run is recorded as
/// interrupted and the chain still verifies.
#[test]
fn ctrl_c_stops_the_run_and_is_recorded() {
    signal_stops_the_run("INT");
}

#[test]
fn sigterm_stops_the_run_and_is_recorded() {
    signal_stops_the_run("TERM");
}

#[test]
fn sighup_stops_the_run_and_is_recorded() {
    signal_stops_the_run("HUP");
}

fn signal_stops_the_run(signal: &str) {
    let home = home();
    let p = plan(
        home.path(),
        r#"(do (step "Wait" (call :ccos.time.sleep {:ms 20000})) (call :ccos.echo {:message "never"}))"#,
    );
    let child = crate::support::cmd(home.path(), &["run", "--plan", &p])
        .command()
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Interrupt only once the run is under way (its first step is in the
    // chain), however slowly the machine starts the process.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let chain = ccos(home.path(), &["chain", "show", "--json"]);
        if text(&chain.stdout).contains("step_started") {
            break;
        }
        if Instant::now() >= deadline {
            let mut child = child;
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "the run never started its first step; its stderr: {}\nthe chain: {}",
                text(&out.stderr),
                text(&chain.stdout)
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let started = Instant::now();
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "Ctrl-C did not stop the run promptly"
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("interrupted"),
        "{}",
        text(&out.stderr)
    );
    let chain = ccos(home.path(), &["chain", "show", "--json"]);
    let chain = text(&chain.stdout);
    assert!(chain.contains(r#""status": "interrupted""#), "{chain}");
    assert!(!chain.contains("never"), "a call after the interrupt ran");
    assert_eq!(
        ccos(home.path(), &["chain", "verify"]).status.code(),
        Some(0)
    );
}
