//! Shared helpers: run the real `ccos` binary in an isolated home.

use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `ccos ARGS` with `CCOS_HOME=home`, the home as working directory,
/// no stdin (a non-interactive run) and no inherited store URL.
pub fn ccos(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ccos"))
        .args(args)
        .env("CCOS_HOME", home)
        .env_remove("CCOS_DATABASE_URL")
        .current_dir(home)
        .stdin(Stdio::null())
        .output()
        .expect("running ccos")
}

/// Output bytes as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Writes `dir/name` and returns its path as a string.
pub fn write(dir: &Path, name: &str, contents: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, contents).expect("writing a test file");
    p.display().to_string()
}
