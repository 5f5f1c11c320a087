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
        let ids: Vec<String> = caps.iter().map(|c| c.id.clone()).collect();
        self.marketplace()?
            .replace_all(caps)
            .map_err(WorldError::failed)?;
        Ok(ids)
    }
}
