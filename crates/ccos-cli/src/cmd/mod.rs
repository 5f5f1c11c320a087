//! One module per subcommand group: each parses its arguments, calls the
//! world and prints.

pub mod agents;
pub mod caps;
pub mod chain;
pub mod check;
pub mod eval;
pub mod graph;
pub mod intent;
pub mod mcp;
pub mod mcp_serve;
pub mod plan;
pub mod plans;
pub mod rtfs;
pub mod run;
pub mod runs;
pub mod synth;

/// Embeds what an import or a discovery added to the catalog, so the
/// first plan after it does not pay for it (progress on stderr). A failure
/// is a warning: the catalog change itself succeeded, and the first plan
/// retries.
pub fn index_catalog(world: &ccos_world::World) -> Option<ccos_world::IndexOutcome> {
    match world.index_catalog() {
        Ok(o) => Some(o),
        Err(e) => {
            crate::open::note(format!(
                "warning: embedding the catalog for semantic resolution failed: {e}; the first plan retries"
            ));
            None
        }
    }
}
