//! `ccos check PLAN.rtfs`: preflight findings and exit codes from the real
//! binary (clean 0, error findings 1, denied by policy 3).

use crate::support::{ccos, text, write};

#[test]
fn clean_plan_exits_0() {
    let home = tempfile::tempdir().unwrap();
    let plan = write(
        home.path(),
        "plan.rtfs",
        r#"(do (step "Greet" (call :ccos.echo {:message "hi"})) (step "Add" (call :ccos.math.add 2 3)))"#,
    );
    let out = ccos(home.path(), &["check", &plan]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        text(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(text(&out.stdout), "");

    let out = ccos(home.path(), &["check", &plan, "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON output");
    assert_eq!(j["ok"], true);
    assert_eq!(j["decision"]["decision"], "allow");
    assert_eq!(j["calls"].as_array().map(Vec::len), Some(2));
}

#[test]
fn unknown_capability_exits_1_with_a_hint() {
    let home = tempfile::tempdir().unwrap();
    let plan = write(home.path(), "plan.rtfs", "(do\n  (call :ccos.math.ad 2 3))");
    let out = ccos(home.path(), &["check", &plan]);
    assert_eq!(out.status.code(), Some(1));
    let text = text(&out.stdout);
    assert!(
        text.starts_with(&format!(
            "{plan}:2:3: error[unknown_capability]: unknown capability ccos.math.ad (unknown capability ccos.math.ad; closest: ccos.math.add"
        )),
        "{text}"
    );

    let out = ccos(home.path(), &["check", &plan, "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON output");
    assert_eq!(j["findings"][0]["code"], "unknown_capability");
    assert_eq!(j["findings"][0]["line"], 2);
}

#[test]
fn denied_capability_exits_3() {
    let home = tempfile::tempdir().unwrap();
    let policy = write(
        home.path(),
        "policy.toml",
        "[capabilities]\ndeny = [\"ccos.math.*\"]\n",
    );
    let plan = write(home.path(), "plan.rtfs", "(call :ccos.math.add 2 3)");
    let out = ccos(home.path(), &["check", &plan, "--policy", &policy]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout)
            .contains("error[denied]: ccos.math.add denied: denied by pattern ccos.math.*"),
        "{}",
        text(&out.stdout)
    );

    // the same policy through the config file's `policy` entry
    write(home.path(), "config.toml", "policy = \"policy.toml\"\n");
    let out = ccos(home.path(), &["check", &plan]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stdout));
}

#[test]
fn bad_policy_file_names_the_location() {
    let home = tempfile::tempdir().unwrap();
    let policy = write(home.path(), "policy.toml", "[limits]\ntimeout = 5\n");
    let plan = write(home.path(), "plan.rtfs", "(call :ccos.math.add 2 3)");
    let out = ccos(home.path(), &["check", &plan, "--policy", &policy]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("{policy}:2:1: key limits.timeout")),
        "{err}"
    );
}
