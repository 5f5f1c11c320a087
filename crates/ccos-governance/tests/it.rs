//! Integration tests: preflight against the real marketplace with the
//! built-in capabilities, and the example policy file of the repository.

use std::collections::BTreeMap;
use std::path::Path;

use ccos_governance::{CallDecision, Policy, Severity, preflight_str};
use ccos_marketplace::{CapabilityManifest, Marketplace, builtins};

fn marketplace() -> Marketplace {
    let mp = Marketplace::new().expect("in-memory marketplace");
    mp.replace_all(builtins::manifests())
        .expect("register built-ins");
    mp
}

/// The RTFS plan examples of the seed "Plan Generation Modes".
const SEED_PLANS: &[&str] = &[
    r#"(do (step "Greet" (call :ccos.echo {:message "hi"})) (step "Add" (call :ccos.math.add 2 3)))"#,
];

#[test]
fn seed_plans_preflight_clean_against_minimal_manifests() {
    let echo: CapabilityManifest = serde_json::from_value(serde_json::json!({
        "id": "ccos.echo", "name": "echo", "description": "Echo a message.",
        "input_schema": {"type": "object", "properties": {"message": {"type": "string"}},
                         "required": ["message"]},
        "provider": {"kind": "builtin"}, "trust_tier": "system", "effects": ["pure"]
    }))
    .expect("echo manifest");
    let ty = rtfs::eval_str("'[:number :number]").expect("type");
    let add = CapabilityManifest {
        id: "ccos.math.add".into(),
        name: "add".into(),
        description: "Add two numbers.".into(),
        input_schema: ccos_marketplace::manifest::rtfs_type_to_json_schema(&ty).expect("schema"),
        ..echo.clone()
    };
    let catalog: BTreeMap<String, CapabilityManifest> =
        [echo, add].into_iter().map(|m| (m.id.clone(), m)).collect();
    for plan in SEED_PLANS {
        let r = preflight_str(plan, &catalog, &Policy::default()).expect("parses");
        assert!(r.findings.is_empty(), "{plan}: {:?}", r.findings);
        assert_eq!(r.decision, CallDecision::Allow);
    }
}

#[test]
fn seed_plans_preflight_clean_against_the_builtins() {
    let mp = marketplace();
    for plan in SEED_PLANS {
        let r = preflight_str(plan, &mp, &Policy::default()).expect("parses");
        assert!(r.findings.is_empty(), "{plan}: {:?}", r.findings);
        assert_eq!(r.decision, CallDecision::Allow);
    }
}

#[test]
fn unknown_capability_hint_uses_marketplace_search() {
    let mp = marketplace();
    let r = preflight_str(
        "(call :data.list.filter {:items [1 2] :key :a})",
        &mp,
        &Policy::default(),
    )
    .expect("parses");
    assert_eq!(r.findings.len(), 1, "{:?}", r.findings);
    let f = &r.findings[0];
    assert_eq!(f.code, "unknown_capability");
    let hint = f.hint.as_deref().unwrap_or_default();
    assert!(
        hint.starts_with("unknown capability data.list.filter; closest: ccos.data.filter"),
        "{hint}"
    );

    let r = preflight_str("(call :ccos.math.ad 1 2)", &mp, &Policy::default()).expect("parses");
    let hint = r.findings[0].hint.as_deref().unwrap_or_default();
    assert!(hint.contains("closest: ccos.math.add"), "{hint}");
}

#[test]
fn builtin_argument_problems_are_found() {
    let mp = marketplace();
    let r = preflight_str(
        "(step \"Read\" (call :ccos.file.read {:pth \"notes.txt\"}))",
        &mp,
        &Policy::default(),
    )
    .expect("parses");
    let codes: Vec<&str> = r.findings.iter().map(|f| f.code.as_str()).collect();
    // the built-ins' schemas are closed: the typo is an error
    assert_eq!(codes, ["missing_key", "unknown_key"], "{:?}", r.findings);
    assert!(r.findings.iter().all(|f| f.severity == Severity::Error));
    assert_eq!(r.findings[1].hint.as_deref(), Some("did you mean :path?"));
}

#[test]
fn example_policy_file_is_the_default() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/policy.toml");
    let p = Policy::from_file(&path).expect("examples/policy.toml parses");
    assert_eq!(p, Policy::default());
}

#[test]
fn denied_plan_under_a_strict_policy() {
    let mp = marketplace();
    let policy = Policy::from_toml_str(
        "[capabilities]\ndeny = [\"ccos.http.*\"]\n[effects]\nallow = [\"pure\", \"read\"]\n",
    )
    .expect("policy");
    let r = preflight_str(
        "(do (call :ccos.http.get {:url \"http://127.0.0.1/\"}) (call :ccos.echo {:message \"x\"}))",
        &mp,
        &policy,
    )
    .expect("parses");
    assert!(r.has_denied());
    let CallDecision::Deny { reasons } = &r.decision else {
        panic!("{:?}", r.decision)
    };
    assert_eq!(reasons[0], "ccos.http.get: denied by pattern ccos.http.*");
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("effect network not allowed")),
        "{reasons:?}"
    );
}
