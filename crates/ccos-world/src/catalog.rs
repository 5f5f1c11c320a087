//! The capability catalog: built-ins, imported OpenAPI operations,
//! discovered MCP tools and RTFS agents, persisted under
//! `$CCOS_HOME/catalog/` (built-ins are registered in code).

use std::path::Path;

use crate::{World, WorldError};

impl World {
    /// Imports every operation of an OpenAPI 3 document (JSON) as a
    /// capability; returns the ids registered.
    pub fn import_openapi(
        &self,
        file: &Path,
        base_url: Option<&str>,
        prefix: Option<&str>,
    ) -> Result<Vec<String>, WorldError> {
        let path = if file.is_relative() {
            self.cwd().join(file)
        } else {
            file.to_path_buf()
        };
        let text =
            ccos_core::text::read_file_bounded(&path, ccos_core::text::MAX_INPUT_BYTES, false)
                .map_err(WorldError::failed)?
                .unwrap_or_default();
        let doc: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
            WorldError::failed(format!(
                "{}:{}:{}: invalid JSON ({e}); only JSON OpenAPI documents are supported",
                file.display(),
                e.line(),
                e.column()
            ))
        })?;
        let caps = ccos_marketplace::openapi::import(&doc, base_url, prefix)
            .map_err(|e| WorldError::failed(format!("{}: {e}", file.display())))?;
        let mp = self.marketplace()?;
        refuse_mixed_origins(&mp, &caps)
            .map_err(|e| WorldError::failed(format!("{}: {e}", file.display())))?;
        let ids: Vec<String> = caps.iter().map(|c| c.id.clone()).collect();
        mp.replace_all(caps).map_err(WorldError::failed)?;
        Ok(ids)
    }

    /// Removes capabilities from the catalog: the one named `target`, or
    /// with `prefix`, every capability whose id starts with `target.` (an
    /// import undone). Built-ins cannot be removed, and MCP tools are
    /// removed with their server (`ccos mcp remove`), since discovery
    /// would bring them back. Returns the ids removed, sorted.
    pub fn remove_capabilities(
        &self,
        target: &str,
        prefix: bool,
    ) -> Result<Vec<String>, WorldError> {
        let mp = self.marketplace()?;
        let target = target.trim().trim_end_matches('.');
        if target.is_empty() {
            return Err(WorldError::usage(
                "give a capability id (or a prefix with --prefix)",
            ));
        }
        let chosen: Vec<ccos_marketplace::CapabilityManifest> = mp
            .list()
            .into_iter()
            .filter(|m| {
                if prefix {
                    m.id.starts_with(&format!("{target}."))
                } else {
                    m.id == target
                }
            })
            .collect();
        if chosen.is_empty() {
            let near = mp.closest_ids(target, 3);
            return Err(WorldError::failed(format!(
                "no capability {}{target}{}",
                if prefix { "with prefix " } else { "" },
                if near.is_empty() {
                    String::new()
                } else {
                    format!("; did you mean {}?", near.join(", "))
                }
            )));
        }
        for m in &chosen {
            match &m.provider {
                ccos_marketplace::ProviderSpec::Builtin => {
                    return Err(WorldError::usage(format!(
                        "{} is a built-in capability: it cannot be removed (deny it in the policy instead)",
                        m.id
                    )));
                }
                ccos_marketplace::ProviderSpec::Mcp { server, .. } => {
                    return Err(WorldError::usage(format!(
                        "{} is a tool of the MCP server {server:?}: remove the server with `ccos mcp remove {server}` (or deny the tool in the policy)",
                        m.id
                    )));
                }
                _ => {}
            }
        }
        let mut removed = vec![];
        for m in chosen {
            mp.remove(&m.id).map_err(WorldError::failed)?;
            removed.push(m.id);
        }
        removed.sort();
        Ok(removed)
    }
}

/// A capability found by [`World::search_capabilities`], with the policy's
/// verdict on calling it.
#[derive(Debug, Clone)]
pub struct CapabilityHit {
    /// The capability.
    pub manifest: ccos_marketplace::CapabilityManifest,
    /// Relevance to the query (BM25; 0 when listing without a query).
    pub score: f32,
    /// What the policy says about a call to it.
    pub decision: ccos_governance::CallDecision,
}

impl World {
    /// The `k` capabilities most relevant to `query` (every capability,
    /// by id, when the query is blank), each with the policy's verdict —
    /// denied ones included, so a client can see why a plan would fail.
    pub fn search_capabilities(
        &self,
        query: &str,
        k: usize,
    ) -> Result<Vec<CapabilityHit>, WorldError> {
        let mp = self.marketplace()?;
        let policy = self.policy();
        let hits: Vec<(String, f32)> = if query.trim().is_empty() {
            mp.ids().into_iter().take(k).map(|id| (id, 0.0)).collect()
        } else {
            mp.search(query, k).map_err(WorldError::failed)?
        };
        Ok(hits
            .into_iter()
            .filter_map(|(id, score)| {
                let manifest = mp.get(&id)?;
                let decision = policy.decide_call(&manifest);
                Some(CapabilityHit {
                    manifest,
                    score,
                    decision,
                })
            })
            .collect())
    }

    /// Parses and preflights a plan against the catalog and the policy in
    /// force, without running anything (`ccos check`, `ccos_check`).
    pub fn check_plan(&self, src: &str) -> Result<PlanCheck, WorldError> {
        let forms = match rtfs::parse(src) {
            Ok(f) => f,
            Err(e) => return Ok(PlanCheck::Unparsable(Box::new(e))),
        };
        let catalog = self.marketplace()?;
        let report = ccos_governance::preflight(&forms, &*catalog, self.policy()).with_source(src);
        Ok(PlanCheck::Checked(Box::new(report)))
    }
}

/// What checking a plan found.
#[derive(Debug)]
pub enum PlanCheck {
    /// The plan does not parse (the error carries its span).
    Unparsable(Box<rtfs::RtfsError>),
    /// The preflight and governance findings.
    Checked(Box<ccos_governance::PreflightReport>),
}

/// The origin (scheme, host, port) an imported operation's requests go to.
fn openapi_origin(m: &ccos_marketplace::CapabilityManifest) -> Option<String> {
    match &m.provider {
        ccos_marketplace::ProviderSpec::OpenApi { base_url, .. } => {
            Some(ccos_marketplace::http::origin(base_url).unwrap_or_else(|| base_url.clone()))
        }
        _ => None,
    }
}

/// Credentials are configured per id prefix (`[openapi.PREFIX]`), so one
/// prefix must hold one API: an import whose operations would join
/// operations of another origin under the same prefix (a document titled
/// like an API already imported, or the same prefix given twice) is
/// refused, or that API's credentials would be sent to the new host.
fn refuse_mixed_origins(
    mp: &ccos_marketplace::Marketplace,
    new: &[ccos_marketplace::CapabilityManifest],
) -> Result<(), String> {
    let namespace = |id: &str| id.rsplit_once('.').map(|(p, _)| p.to_string());
    let mut incoming: std::collections::BTreeMap<String, String> = Default::default();
    for m in new {
        if let (Some(ns), Some(o)) = (namespace(&m.id), openapi_origin(m)) {
            incoming.entry(ns).or_insert(o);
        }
    }
    for m in mp.list() {
        let (Some(ns), Some(o)) = (namespace(&m.id), openapi_origin(&m)) else {
            continue;
        };
        if let Some(theirs) = incoming.get(&ns)
            && *theirs != o
        {
            return Err(format!(
                "the id prefix {ns:?} already holds operations of {o} ({}); this document's go to {theirs}: \
                 one prefix holds one API (its credentials go with it). Pass another --prefix, or remove \
                 the old ones first: ccos caps remove {ns} --prefix",
                m.id
            ));
        }
    }
    Ok(())
}
