//! A plan over a real MCP server (`@modelcontextprotocol/server-filesystem`,
//! installed by `scripts/ci/mcp-servers.sh`), executed under governance.

use std::collections::BTreeMap;
use std::sync::Arc;

use ccos_governance::Policy;
use ccos_mcp::{McpConfig, McpExecutor, discover, register_discovered};
use ccos_orchestrator::RunOptions;
use ccos_testkit::mcp::TestServers;

use crate::support::{count, fixture};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plan_over_the_filesystem_mcp_server() {
    let Some(servers) = TestServers::find() else {
        return;
    };
    let fx = fixture(Policy::default()).await;
    let root = fx.dir.path().join("files");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("a.txt"), "alpha beta gamma").unwrap();
    std::fs::write(root.join("b.txt"), "delta").unwrap();
    let root = root.canonicalize().unwrap();

    let server = servers.filesystem(&root);
    let found = discover(&server).await.unwrap();
    let marketplace = fx.orchestrator_marketplace();
    register_discovered(&marketplace, &found).unwrap();
    let executor = Arc::new(McpExecutor::new(McpConfig {
        path: fx.dir.path().join("mcp.json"),
        servers: BTreeMap::from([(server.name.clone(), server.clone())]),
    }));
    marketplace.register_executor(executor.clone());

    let src = format!(
        r#"(do
  (let [listing (step "List" (call :mcp.filesystem.list_directory {{:path "{root}"}}))
        ;; structured content comes back as a map: {{:content "..."}}
        text (step "Read" (:content (call :mcp.filesystem.read_text_file {{:path "{root}/a.txt"}})))]
    (step "Count" (call :ccos.text.count_words {{:text text}}))))"#,
        root = root.display()
    );
    let out = fx
        .orchestrator
        .run(&src, RunOptions::default())
        .await
        .unwrap();
    executor.shutdown().await;
    assert_eq!(out.value.to_string(), "3");
    let entries = fx.run_entries(&out.run_id).await;
    assert_eq!(count(&entries, "capability_call"), 3);
    assert_eq!(count(&entries, "step_started"), 3);
    assert_eq!(count(&entries, "step_ended"), 3);
    let list = entries
        .iter()
        .find(|e| {
            e.kind == "capability_call"
                && e.payload["capability"] == "mcp.filesystem.list_directory"
        })
        .unwrap();
    assert_eq!(list.payload["provider"], "mcp");
    let listing = list.payload["result"].to_string();
    assert!(
        listing.contains("a.txt") && listing.contains("b.txt"),
        "{listing}"
    );
    fx.assert_chain_verifies().await;
}
