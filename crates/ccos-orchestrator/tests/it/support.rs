//! Shared fixtures: a marketplace with the built-ins confined to a temp dir,
//! and a SQLite store in it.

use std::path::Path;
use std::sync::Arc;

use ccos_governance::Policy;
use ccos_marketplace::Marketplace;
use ccos_marketplace::builtins::{BuiltinConfig, install};
use ccos_orchestrator::{Orchestrator, RunError, RunOptions};
use ccos_store::{ChainEntry, Store};

pub struct Fixture {
    pub dir: tempfile::TempDir,
    pub orchestrator: Orchestrator,
    pub marketplace: Arc<Marketplace>,
}

pub async fn fixture(policy: Policy) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let marketplace = Arc::new(Marketplace::new().unwrap());
    install(
        &marketplace,
        BuiltinConfig {
            file_roots: vec![dir.path().to_path_buf()],
            // As the world wires it: the policy's HTTP allow-list.
            http_allow_hosts: policy.http_allow_hosts.clone(),
            prompter: Arc::new(ccos_marketplace::prompt::ScriptedAnswers::new()),
            ..BuiltinConfig::default()
        },
    )
    .unwrap();
    let store = Store::open(&format!(
        "sqlite://{}",
        dir.path().join("ccos.db").display()
    ))
    .await
    .unwrap();
    Fixture {
        orchestrator: Orchestrator::new(marketplace.clone(), policy, store),
        marketplace,
        dir,
    }
}

impl Fixture {
    #[allow(dead_code)]
    pub fn orchestrator_marketplace(&self) -> Arc<Marketplace> {
        self.marketplace.clone()
    }

    pub fn path(&self, rel: &str) -> std::path::PathBuf {
        self.dir.path().join(rel)
    }

    pub async fn chain(&self) -> Vec<ChainEntry> {
        self.orchestrator.store().chain_all().await.unwrap()
    }

    pub async fn run_entries(&self, run_id: &str) -> Vec<ChainEntry> {
        self.orchestrator
            .store()
            .chain_by_run(run_id)
            .await
            .unwrap()
    }

    /// Runs `src`, which the policy must deny while it runs (not at
    /// preflight); returns the denial's reason and the run id.
    #[allow(dead_code)]
    pub async fn run_denied_at_run_time(&self, src: &str) -> (String, String) {
        match self.orchestrator.run(src, RunOptions::default()).await {
            Err(RunError::Denied {
                reason,
                run_id: Some(run_id),
                ..
            }) => (reason, run_id),
            other => panic!("expected a run-time denial, got {other:?}"),
        }
    }

    pub async fn assert_chain_verifies(&self) {
        let report = self.orchestrator.store().verify_chain().await.unwrap();
        assert!(report.ok, "chain broken: {report:?}");
    }
}

pub fn count(entries: &[ChainEntry], kind: &str) -> usize {
    entries.iter().filter(|e| e.kind == kind).count()
}

pub fn policy(toml: &str) -> Policy {
    Policy::from_toml_str(toml).unwrap()
}

#[allow(dead_code)]
pub fn exists(p: &Path) -> bool {
    p.exists()
}
