//! `$CCOS_HOME`: where all state lives.
//!
//! Resolution order: `--home` (clap also reads `$CCOS_HOME` into it), then
//! the per-user data directory (`~/.local/share/ccos` on Linux), then
//! `./.ccos`. Every path of a world comes from here, so tests point
//! `CCOS_HOME` at a temp dir.

use std::path::{Path, PathBuf};

/// The resolved state directory.
#[derive(Debug, Clone)]
pub struct Home {
    root: PathBuf,
}

impl Home {
    /// Resolves the home directory (it is created on first write, not here).
    pub fn resolve(explicit: Option<PathBuf>) -> Home {
        let root = explicit
            .filter(|p| !p.as_os_str().is_empty())
            .or_else(|| dirs::data_dir().map(|d| d.join("ccos")))
            .unwrap_or_else(|| PathBuf::from(".ccos"));
        Home { root }
    }

    /// The directory itself.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// A path inside the home directory.
    pub fn join(&self, rel: impl AsRef<Path>) -> PathBuf {
        self.root.join(rel)
    }

    /// Creates the directory if needed and returns it.
    pub fn ensure(&self) -> std::io::Result<&Path> {
        std::fs::create_dir_all(&self.root)?;
        Ok(&self.root)
    }
}
