//! Putting discovered MCP tools into the [`Marketplace`] catalog (which
//! persists them under `$CCOS_HOME/catalog/`), and taking them out again.

use ccos_marketplace::{Marketplace, MarketplaceError, ProviderSpec};

use crate::discover::DiscoveredServer;

/// Ids of the catalog's capabilities served by MCP server `server`, sorted.
pub fn server_capability_ids(mp: &Marketplace, server: &str) -> Vec<String> {
    mp.list()
        .into_iter()
        .filter(|m| matches!(&m.provider, ProviderSpec::Mcp { server: s, .. } if s == server))
        .map(|m| m.id)
        .collect()
}

/// Registers (upserts) every tool of `found` and removes the server's
/// capabilities that it no longer lists. Returns `(registered, removed ids)`.
pub fn register_discovered(
    mp: &Marketplace,
    found: &DiscoveredServer,
) -> Result<(usize, Vec<String>), MarketplaceError> {
    let keep: std::collections::BTreeSet<&str> =
        found.manifests.iter().map(|m| m.id.as_str()).collect();
    let mut removed = vec![];
    for id in server_capability_ids(mp, &found.server) {
        if !keep.contains(id.as_str()) {
            mp.remove(&id)?;
            removed.push(id);
        }
    }
    mp.replace_all(found.manifests.clone())?;
    Ok((found.manifests.len(), removed))
}

/// Removes every capability of MCP server `server`; returns their ids.
pub fn unregister_server(mp: &Marketplace, server: &str) -> Result<Vec<String>, MarketplaceError> {
    let ids = server_capability_ids(mp, server);
    for id in &ids {
        mp.remove(id)?;
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ServerConfig;
    use crate::discover::{now_rfc3339, tool_manifest};
    use serde_json::json;

    #[test]
    fn registers_replaces_and_unregisters() {
        let dir = tempfile::tempdir().unwrap();
        let mp = Marketplace::open(dir.path().join("catalog")).unwrap();
        let cfg = ServerConfig::stdio("srv", "x", &[]);
        let m = |name: &str| {
            tool_manifest(
                &cfg,
                &json!({"name": name, "inputSchema": {"type": "object"}}),
                None,
            )
            .unwrap()
        };
        let mut found = DiscoveredServer {
            server: "srv".into(),
            fetched_at: now_rfc3339(),
            server_info: json!(null),
            tools: vec![],
            manifests: vec![m("a"), m("b")],
            skipped: vec![],
            fingerprints: Default::default(),
            held: vec![],
        };
        assert_eq!(register_discovered(&mp, &found).unwrap(), (2, vec![]));
        found.manifests = vec![m("b"), m("c")];
        assert_eq!(
            register_discovered(&mp, &found).unwrap(),
            (2, vec!["mcp.srv.a".to_string()])
        );
        // Persisted: a reopened catalog has them.
        let again = Marketplace::open(dir.path().join("catalog")).unwrap();
        assert_eq!(
            server_capability_ids(&again, "srv"),
            ["mcp.srv.b", "mcp.srv.c"]
        );
        assert_eq!(unregister_server(&again, "srv").unwrap().len(), 2);
        assert!(server_capability_ids(&again, "srv").is_empty());
    }
}
