//! Where the project's real MCP test servers live (`tools/mcp/`, installed
//! by `scripts/ci/mcp-servers.sh`), for tests and benches.
//!
//! [`TestServers::find`] returns `None` (after printing a note) when they
//! are not installed, so local runs skip; with `CI=true` a missing install
//! is a test failure instead (CI must run them).

use std::path::{Path, PathBuf};

use ccos_mcp::{ServerConfig, Transport};

/// Paths to the installed test servers.
#[derive(Debug, Clone)]
pub struct TestServers {
    /// `tools/mcp/` in the repository.
    pub dir: PathBuf,
}

impl TestServers {
    /// The repository's `tools/mcp/` directory.
    pub fn default_dir() -> PathBuf {
        crate::repo_root().join("tools/mcp")
    }

    /// The installed servers, or `None` with a printed note when they are
    /// missing. Panics when they are missing and `CI=true`, so CI can never
    /// silently skip the MCP tests.
    pub fn find() -> Option<TestServers> {
        let dir = Self::default_dir();
        let s = TestServers { dir };
        let missing: Vec<PathBuf> = [
            s.node_bin("mcp-server-filesystem"),
            s.node_bin("mcp-server-memory"),
            s.everything_js(),
            s.venv_bin("mcp-server-time"),
            s.venv_bin("mcp-server-git"),
        ]
        .into_iter()
        .filter(|p| !p.exists())
        .collect();
        if missing.is_empty() {
            return Some(s);
        }
        let note = format!(
            "MCP test servers not installed (missing {}); run scripts/ci/mcp-servers.sh",
            missing
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
        crate::required(&note, None)
    }

    /// `tools/mcp/node_modules/.bin/<name>`.
    pub fn node_bin(&self, name: &str) -> PathBuf {
        self.dir.join("node_modules/.bin").join(name)
    }

    /// `tools/mcp/.venv/bin/<name>`.
    pub fn venv_bin(&self, name: &str) -> PathBuf {
        self.dir.join(".venv/bin").join(name)
    }

    /// The entry script of server-everything (`dist/index.js`); its first
    /// argument picks the transport (`stdio`, `streamableHttp`).
    pub fn everything_js(&self) -> PathBuf {
        self.dir
            .join("node_modules/@modelcontextprotocol/server-everything/dist/index.js")
    }

    /// server-filesystem over stdio, allowed to access `root`.
    pub fn filesystem(&self, root: &Path) -> ServerConfig {
        let bin = self.node_bin("mcp-server-filesystem");
        ServerConfig::stdio(
            "filesystem",
            &bin.display().to_string(),
            &[&root.display().to_string()],
        )
    }

    /// server-memory over stdio, storing its graph in `file`.
    pub fn memory(&self, file: &Path) -> ServerConfig {
        let bin = self.node_bin("mcp-server-memory");
        let mut c = ServerConfig::stdio("memory", &bin.display().to_string(), &[]);
        if let Transport::Stdio { env, .. } = &mut c.transport {
            env.insert("MEMORY_FILE_PATH".into(), file.display().to_string());
        }
        c
    }

    /// server-everything over stdio.
    pub fn everything(&self) -> ServerConfig {
        let js = self.everything_js().display().to_string();
        ServerConfig::stdio("everything", "node", &[&js, "stdio"])
    }

    /// The command line that runs server-everything's streamable HTTP mode
    /// (set `PORT` in its environment).
    pub fn everything_http_command(&self) -> (String, Vec<String>) {
        (
            "node".into(),
            vec![
                self.everything_js().display().to_string(),
                "streamableHttp".into(),
            ],
        )
    }

    /// mcp-server-time over stdio (UTC as local zone).
    pub fn time(&self) -> ServerConfig {
        let bin = self.venv_bin("mcp-server-time");
        ServerConfig::stdio(
            "time",
            &bin.display().to_string(),
            &["--local-timezone", "UTC"],
        )
    }

    /// mcp-server-git over stdio, on `repo`.
    pub fn git(&self, repo: &Path) -> ServerConfig {
        let bin = self.venv_bin("mcp-server-git");
        ServerConfig::stdio(
            "git",
            &bin.display().to_string(),
            &["--repository", &repo.display().to_string()],
        )
    }
}
