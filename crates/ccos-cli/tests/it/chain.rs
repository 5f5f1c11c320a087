//! The causal chain as a protocol: an outside auditor recomputes every
//! hash from `docs/chain-format.md` alone (`scripts/verify-chain.py`, an
//! independent Python implementation), and notices tampering.

use std::process::Command;

use crate::support::{ccos, text, write};

fn verify_with_python(export: &std::path::Path) -> std::process::Output {
    let script = ccos_testkit::repo_root().join("scripts/verify-chain.py");
    Command::new("python3")
        .arg(script)
        .arg(export)
        .output()
        .expect("running python3 (needed by this test)")
}

#[test]
fn an_independent_verifier_recomputes_every_hash() {
    let home = tempfile::tempdir().unwrap();
    // Values that exercise RFC 8785: a fraction, non-ASCII and non-BMP
    // text (UTF-16 key order), quotes and control characters.
    let src = r#"(do (step "Div" (call :ccos.math.div 10 4))
              (step "Echo" (call :ccos.echo {:message "é \"😀\"\ttab"}))
              (step "Data" (call :ccos.json.parse {:text "{\"PRIVATE\": 1, \"😀\": 2.5e-8, \"big\": 123456789012}"})))"#
        .replace("PRIVATE", "\u{e000}");
    let plan = write(home.path(), "plan.rtfs", &src);
    let out = ccos(home.path(), &["run", "--plan", &plan]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = ccos(home.path(), &["plan", "count the words in README.md"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    let out = ccos(home.path(), &["chain", "export"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let export = home.path().join("chain.jsonl");
    std::fs::write(&export, &out.stdout).unwrap();
    let lines = text(&out.stdout).lines().count();
    assert!(lines >= 10, "{lines} entries");

    let v = verify_with_python(&export);
    assert_eq!(
        v.status.code(),
        Some(0),
        "{}{}",
        text(&v.stdout),
        text(&v.stderr)
    );
    assert!(
        text(&v.stdout).contains(&format!("{lines} entries, 0 problem(s)")),
        "{}",
        text(&v.stdout)
    );

    // Tampering with any payload is caught by the same independent check.
    let tampered = text(&out.stdout).replacen("2.5", "2.6", 1);
    assert_ne!(tampered, text(&out.stdout));
    let bad = home.path().join("tampered.jsonl");
    std::fs::write(&bad, tampered).unwrap();
    let v = verify_with_python(&bad);
    assert_eq!(v.status.code(), Some(1), "{}", text(&v.stdout));
    assert!(
        text(&v.stdout).contains("hash mismatch"),
        "{}",
        text(&v.stdout)
    );
}
