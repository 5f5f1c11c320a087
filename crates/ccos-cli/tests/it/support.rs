//! Shared helpers: run the real `ccos` binary in an isolated home (every
//! `CCOS_*` variable of the developer's environment removed, see
//! `ccos_testkit::cli`).

use std::path::Path;
use std::process::Output;

pub use ccos_testkit::cli::{text, write};

/// `ccos ARGS` with `CCOS_HOME=home`, the home as working directory and
/// no stdin (a non-interactive run).
pub fn ccos(home: &Path, args: &[&str]) -> Output {
    cmd(home, args).output()
}

/// The invocation, to add environment variables or stdin.
pub fn cmd(home: &Path, args: &[&str]) -> ccos_testkit::cli::Ccos {
    ccos_testkit::cli::Ccos::new(env!("CARGO_BIN_EXE_ccos"), home, args)
}

/// `ccos ARGS` as [`ccos`], with these environment variables set.
pub fn ccos_env(home: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut c = cmd(home, args);
    for (k, v) in env {
        c = c.env(k, v);
    }
    c.output()
}

/// A home whose `models/` links to the test embedding model (from
/// `CCOS_EMBED_MODEL_DIR` or `tools/models/`); fails with the setup hint
/// when the model is not installed.
#[cfg(feature = "semantic")]
pub fn home_with_model() -> tempfile::TempDir {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let model = ccos_embed::test_model_dir(&root).unwrap_or_else(|msg| panic!("{msg}"));
    let home = tempfile::tempdir().unwrap();
    let models = home.path().join("models");
    std::fs::create_dir_all(&models).unwrap();
    std::os::unix::fs::symlink(&model, models.join(ccos_embed::MODEL_NAME)).unwrap();
    home
}
