//! `$CCOS_HOME/config.toml`: user configuration.
//!
//! Every section is optional; a missing file means defaults. Environment
//! variables override the file where noted. Unknown keys are rejected so a
//! typo does not silently fall back to a default.
//!
//! **Relative paths** written in this file (`policy`, `llm.script`)
//! resolve against `$CCOS_HOME`, the file's own directory — the one rule
//! for paths in configuration. Paths given on the command line (`--policy`)
//! or in environment variables resolve against the current directory. The
//! exception is `files.roots`: they say where the file built-ins may work,
//! and `"."` means the directory ccos runs in.
//!
//! ```toml
//! database_url = "postgres://user@127.0.0.1/ccos"   # or CCOS_DATABASE_URL
//! policy = "/path/to/policy.toml"                     # default policy file
//!
//! [files]
//! roots = ["."]                # roots the file built-ins may touch
//!
//! [http]
//! allow_hosts = ["api.example.com"]
//!
//! [secrets]
//! env = ["GITHUB_TOKEN"]       # passed to capabilities, never recorded
//!
//! [openapi.github]             # credentials of the API imported with prefix `github`
//! bearer_env = "GITHUB_TOKEN"  # Authorization: Bearer $GITHUB_TOKEN
//! # header = "X-Api-Key"; header_env = "KEY_VAR"   (an API-key header)
//! # query = "api_key";    query_env = "KEY_VAR"    (an API-key query parameter)
//!
//! [llm]
//! base_url = "http://127.0.0.1:11434/v1"   # or CCOS_LLM_BASE_URL
//! model = "llama3.1"                       # or CCOS_LLM_MODEL
//! api_key = "..."                          # or CCOS_LLM_API_KEY
//! timeout_secs = 60                        # per request
//! max_retries = 3                          # on HTTP 429/5xx only
//! script = "answers.json"                  # or CCOS_LLM_SCRIPT: replay, no server
//! ```

use std::path::PathBuf;

use serde::Deserialize;

use crate::WorldError;
use crate::env::Env;
use crate::home::Home;

/// The parsed configuration file.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Store URL (`sqlite://...` or `postgres://...`); default: SQLite under home.
    pub database_url: Option<String>,
    /// Default policy file.
    pub policy: Option<std::path::PathBuf>,
    /// File built-ins.
    #[serde(default)]
    pub files: FilesConfig,
    /// HTTP built-ins.
    #[serde(default)]
    pub http: HttpConfig,
    /// Secret environment variables.
    #[serde(default)]
    pub secrets: SecretsConfig,
    /// LLM endpoint.
    #[serde(default)]
    pub llm: LlmConfig,
    /// Credentials of imported OpenAPI APIs, by id prefix.
    #[serde(default)]
    pub openapi: std::collections::BTreeMap<String, ApiCredentials>,
}

/// `[openapi.PREFIX]`: how the operations imported with id prefix `PREFIX`
/// authenticate. Values are read from the named environment variables,
/// which become secrets (redacted from every record and output).
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApiCredentials {
    /// `Authorization: Bearer $VAR`.
    pub bearer_env: Option<String>,
    /// An API-key header's name...
    pub header: Option<String>,
    /// ...and the variable holding its value.
    pub header_env: Option<String>,
    /// An API-key query parameter's name...
    pub query: Option<String>,
    /// ...and the variable holding its value.
    pub query_env: Option<String>,
}

impl ApiCredentials {
    /// The environment variables these credentials read.
    pub fn env_names(&self) -> Vec<String> {
        [&self.bearer_env, &self.header_env, &self.query_env]
            .into_iter()
            .flatten()
            .cloned()
            .collect()
    }
}

/// `[files]`
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FilesConfig {
    /// Allowed roots; default: the current directory.
    pub roots: Option<Vec<std::path::PathBuf>>,
}

/// `[http]`
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HttpConfig {
    /// Hosts the HTTP built-ins may reach; default: none.
    #[serde(default)]
    pub allow_hosts: Vec<String>,
}

/// `[secrets]`
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SecretsConfig {
    /// Names of environment variables whose values are secret.
    #[serde(default)]
    pub env: Vec<String>,
}

/// `[llm]`
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LlmConfig {
    /// OpenAI-compatible base URL.
    pub base_url: Option<String>,
    /// Model name.
    pub model: Option<String>,
    /// API key.
    pub api_key: Option<String>,
    /// Per-request timeout in seconds (default 60).
    pub timeout_secs: Option<u64>,
    /// Retries on HTTP 429/5xx (default 3).
    pub max_retries: Option<u32>,
    /// A script of answers to replay instead of a server (or CCOS_LLM_SCRIPT).
    pub script: Option<std::path::PathBuf>,
}

impl Config {
    /// Loads `config.toml` from `home` (defaults when absent); a malformed
    /// file is an error naming the file and the location of the problem.
    pub fn load(home: &Home) -> Result<Config, WorldError> {
        let path = home.join("config.toml");
        let text =
            ccos_core::text::read_file_bounded(&path, ccos_core::text::MAX_INPUT_BYTES, true)
                .map_err(WorldError::failed)?;
        let Some(text) = text else {
            return Ok(Config::default());
        };
        toml::from_str(&text).map_err(|e| {
            let at = e
                .span()
                .map(|s| {
                    let (l, c) = ccos_core::line_col(&text, s.start);
                    format!(":{l}:{c}")
                })
                .unwrap_or_default();
            WorldError::failed(format!(
                "{}{at}: {}",
                path.display(),
                e.message().trim().replace('\n', " ")
            ))
        })
    }

    /// The store URL: `CCOS_DATABASE_URL`, else the file's, else SQLite under home.
    pub fn database_url(&self, home: &Home, env: &Env) -> String {
        env.get("CCOS_DATABASE_URL")
            .or_else(|| self.database_url.clone())
            .unwrap_or_else(|| format!("sqlite://{}", home.join("ccos.db").display()))
    }

    /// The configured policy file, resolved against `home` when relative.
    pub fn policy_path(&self, home: &Home) -> Option<PathBuf> {
        self.policy.as_ref().map(|p| {
            if p.is_relative() {
                home.join(p)
            } else {
                p.clone()
            }
        })
    }
}
