//! Golden plans over the real filesystem MCP server
//! (`@modelcontextprotocol/server-filesystem`, installed by
//! `scripts/ci/mcp-servers.sh`) together with the built-ins: the server and
//! the built-ins are rooted at the same temp dir, goals use relative paths
//! (both resolve them against that root), so snapshots are stable. Each
//! plan is snapshotted, then run by the real orchestrator with the MCP
//! executor. Skipped with a note when the servers are absent (outside CI).

use std::collections::BTreeMap;
use std::sync::Arc;

use ccos_governance::Policy;
use ccos_marketplace::Marketplace;
use ccos_marketplace::builtins::{BuiltinConfig, install};
use ccos_mcp::{McpConfig, McpExecutor, discover, register_discovered};
use ccos_orchestrator::{Orchestrator, RunOptions};
use ccos_planner::{PatternDecomposition, Planner};
use ccos_store::Store;
use ccos_testkit::mcp::TestServers;

/// Plans each goal over built-ins + the filesystem server, snapshots the
/// plan and the chosen capabilities, runs it; returns the values.
async fn plan_and_run_all(
    servers: &TestServers,
    policy: Policy,
    goals: &[(&str, &str)],
) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("data")).unwrap();
    std::fs::write(root.join("data/a.txt"), "alpha beta gamma\n").unwrap();
    std::fs::write(root.join("data/b.txt"), "delta\n").unwrap();
    let root = root.canonicalize().unwrap();
    let marketplace = Arc::new(Marketplace::new().unwrap());
    install(
        &marketplace,
        BuiltinConfig {
            file_roots: vec![root.clone()],
            ..BuiltinConfig::default()
        },
    )
    .unwrap();
    let server = servers.filesystem(&root);
    let found = discover(&server).await.unwrap();
    register_discovered(&marketplace, &found).unwrap();
    let executor = Arc::new(McpExecutor::new(McpConfig {
        path: dir.path().join("mcp.json"),
        servers: BTreeMap::from([(server.name.clone(), server.clone())]),
    }));
    marketplace.register_executor(executor.clone());
    let store = Store::open(&format!(
        "sqlite://{}",
        dir.path().join("ccos.db").display()
    ))
    .await
    .unwrap();
    let orchestrator = Orchestrator::new(marketplace.clone(), policy.clone(), store);
    let planner = Planner::new(
        marketplace.clone(),
        policy,
        PatternDecomposition::builtin().unwrap(),
    );
    let mut values = vec![];
    for (name, goal) in goals {
        let r = planner.plan(goal).unwrap();
        let rtfs = r
            .rtfs
            .clone()
            .unwrap_or_else(|| panic!("{goal}: {:?}", r.requires_agent));
        let chosen: Vec<String> = r
            .trace
            .intents
            .iter()
            .flat_map(|t| {
                // The choice, candidates skipped for unfillable required
                // parameters, and structured-result adapters.
                let skipped = t
                    .skipped
                    .iter()
                    .map(|k| format!(";;   skipped {}: {}", k.capability_id, k.reason));
                let notes = t
                    .notes
                    .iter()
                    .filter(|n| n.starts_with("adapter"))
                    .map(move |n| format!(";;   {n}"));
                let notes = skipped.chain(notes);
                std::iter::once(format!(";; {}: {:?}", t.sub_intent, t.chosen)).chain(notes)
            })
            .collect();
        insta::assert_snapshot!(*name, format!("{}\n{rtfs}", chosen.join("\n")), goal);
        let out = orchestrator
            .run(
                &rtfs,
                RunOptions {
                    source_name: (*name).into(),
                    ..RunOptions::default()
                },
            )
            .await;
        match out {
            Ok(o) => values.push(o.value.to_string()),
            Err(e) => {
                executor.shutdown().await;
                panic!("{goal}: {e}");
            }
        }
    }
    executor.shutdown().await;
    values
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn golden_plans_over_the_filesystem_server() {
    let Some(servers) = TestServers::find() else {
        return;
    };
    let values = plan_and_run_all(
        &servers,
        Policy::default(),
        &[
            ("mcp_read_count", "read data/a.txt and count the words"),
            ("mcp_list", "list the files in data"),
        ],
    )
    .await;
    assert_eq!(values[0], "3");
    assert!(
        values[1].contains("a.txt") && values[1].contains("b.txt"),
        "{}",
        values[1]
    );
}

/// With the built-in file tools denied by the policy, the server's tools
/// are chosen (`read_file`/`list_directory`); a structured result (`{:content ".."}`,
/// declared by its output schema) is projected for the counting step.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn policy_denying_builtin_read_picks_the_server_tool() {
    let Some(servers) = TestServers::find() else {
        return;
    };
    let policy =
        Policy::from_toml_str("[capabilities]\ndeny = [\"ccos.file.read\", \"ccos.file.list\"]\n")
            .unwrap();
    let values = plan_and_run_all(
        &servers,
        policy,
        &[
            (
                "mcp_read_count_denied_builtin",
                "read data/a.txt and count the words",
            ),
            ("mcp_list_denied_builtin", "list the files in data"),
        ],
    )
    .await;
    assert_eq!(values[0], "3");
    assert!(
        values[1].contains("a.txt") && values[1].contains("b.txt"),
        "{}",
        values[1]
    );
}
