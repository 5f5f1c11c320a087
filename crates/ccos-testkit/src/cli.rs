//! Running the real `ccos` binary hermetically.
//!
//! Every `CCOS_*` variable of the developer's environment is removed (so a
//! configured LLM, store or home never leaks into a test), `CCOS_HOME`
//! points at the test's home, the working directory is that home and stdin
//! is closed (a non-interactive run). Variables a test needs are set
//! explicitly with [`Ccos::env`].

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A `ccos` invocation being prepared.
pub struct Ccos {
    cmd: Command,
}

impl Ccos {
    /// `bin ARGS` in `home` (pass `env!("CARGO_BIN_EXE_ccos")` as `bin`).
    pub fn new(bin: impl AsRef<Path>, home: &Path, args: &[&str]) -> Ccos {
        let mut cmd = Command::new(bin.as_ref());
        cmd.args(args);
        for (k, _) in std::env::vars_os() {
            if k.to_string_lossy().starts_with("CCOS_") {
                cmd.env_remove(&k);
            }
        }
        cmd.env("CCOS_HOME", home)
            .current_dir(home)
            .stdin(Stdio::null());
        Ccos { cmd }
    }

    /// Sets an environment variable for this run.
    pub fn env(mut self, key: &str, value: impl AsRef<std::ffi::OsStr>) -> Ccos {
        self.cmd.env(key, value);
        self
    }

    /// Runs in `dir` instead of the home.
    pub fn current_dir(mut self, dir: impl Into<PathBuf>) -> Ccos {
        self.cmd.current_dir(dir.into());
        self
    }

    /// Feeds `input` on stdin.
    pub fn stdin_text(self, input: &str) -> Output {
        let mut cmd = self.cmd;
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().expect("starting ccos");
        if let Some(mut stdin) = child.stdin.take() {
            use std::io::Write;
            let _ = stdin.write_all(input.as_bytes());
        }
        child.wait_with_output().expect("waiting for ccos")
    }

    /// Runs to completion.
    pub fn output(mut self) -> Output {
        self.cmd.output().expect("running ccos")
    }

    /// The command, for tests that manage the process themselves
    /// (signals, timing).
    pub fn command(self) -> Command {
        self.cmd
    }
}

/// Output bytes as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Writes `dir/name` and returns its path as a string.
pub fn write(dir: &Path, name: &str, contents: &str) -> String {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).expect("creating a test directory");
    }
    std::fs::write(&p, contents).expect("writing a test file");
    p.display().to_string()
}
