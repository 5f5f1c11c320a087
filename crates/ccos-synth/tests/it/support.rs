//! Shared fixture: the built-ins in an in-memory marketplace, a SQLite
//! store in a temp dir, an orchestrator under a policy.

use std::path::PathBuf;
use std::sync::Arc;

use ccos_governance::Policy;
use ccos_marketplace::Marketplace;
use ccos_orchestrator::{AutoApprove, Orchestrator, RunOptions};
use ccos_store::Store;
use ccos_synth::PlannerGenContext;

pub struct Fixture {
    pub mp: Arc<Marketplace>,
    pub store: Store,
    pub policy: Policy,
    pub orchestrator: Orchestrator,
    _dir: tempfile::TempDir,
}

pub async fn fixture(policy: Policy) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let mp = Marketplace::new().unwrap();
    ccos_marketplace::builtins::install(&mp, Default::default()).unwrap();
    let mp = Arc::new(mp);
    let url = format!("sqlite://{}", dir.path().join("store.db").display());
    let store = Store::open(&url).await.unwrap();
    let orchestrator = Orchestrator::new(mp.clone(), policy.clone(), store.clone())
        .with_approver(Arc::new(AutoApprove));
    Fixture {
        mp,
        store,
        policy,
        orchestrator,
        _dir: dir,
    }
}

impl Fixture {
    /// Preflights `src` (clean) and runs it with `ctx`'s context map.
    pub async fn preflight_and_run(&self, src: &str, ctx: &PlannerGenContext) -> rtfs::Value {
        let report = self.orchestrator.check(src).unwrap();
        assert!(report.is_clean(), "{:?}\n{src}", report.findings);
        let out = self
            .orchestrator
            .run(
                src,
                RunOptions {
                    bindings: vec![("context".into(), ctx.context_value())],
                    generation_mode: "synth".into(),
                    ..Default::default()
                },
            )
            .await
            .unwrap_or_else(|e| panic!("{e}\n{src}"));
        out.value
    }
}

/// A context from JSON text, with the live snapshots of `mp`.
pub fn ctx(json: &str, mp: &Marketplace) -> PlannerGenContext {
    PlannerGenContext::from_json_str(json, "test.json")
        .unwrap()
        .with_live_snapshots(mp)
}

/// `examples/synth/NAME` in the repository.
pub fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/synth")
        .join(name)
}

/// Golden snapshots live in `tests/snapshots`.
#[macro_export]
macro_rules! golden {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        })
    };
}
