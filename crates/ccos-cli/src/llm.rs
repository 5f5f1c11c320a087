//! The LLM provider of a command, from `config.toml`'s `[llm]` section and
//! the `CCOS_LLM_*` environment variables (see [`ccos_llm::LlmSettings`]).

use std::sync::Arc;

use ccos_llm::{FileSettings, LlmProvider, Recorder};

use crate::config::Config;
use crate::exit::{CliError, Exit};

/// What to tell a user who ran an LLM command with no LLM configured.
pub const NO_LLM_HELP: &str = "no LLM is configured: set CCOS_LLM_BASE_URL and CCOS_LLM_MODEL \
(and CCOS_LLM_API_KEY if the server needs one), or `base_url` and `model` under [llm] in \
$CCOS_HOME/config.toml, or CCOS_LLM_SCRIPT=answers.json to replay scripted answers";

/// The `[llm]` keys as the LLM crate reads them.
fn file_settings(config: &Config) -> FileSettings {
    FileSettings {
        base_url: config.llm.base_url.clone(),
        model: config.llm.model.clone(),
        api_key: config.llm.api_key.clone(),
        timeout_secs: config.llm.timeout_secs,
        max_retries: config.llm.max_retries,
        script: config.llm.script.clone(),
    }
}

/// Reads an environment variable, treating an empty value as unset.
fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// The configured provider: a scripted one when `CCOS_LLM_SCRIPT` or
/// `[llm] script` names a file (relative paths are taken from the current
/// directory), else the OpenAI-compatible client when a base URL is set;
/// `None` when nothing is configured. A half configuration (URL without a
/// model) or an unreadable script is an error.
pub fn open_provider(config: &Config) -> Result<Option<Arc<dyn LlmProvider>>, CliError> {
    ccos_llm::provider_from_settings(&file_settings(config), env).map_err(CliError::msg)
}

/// Like [`open_provider`], but a missing configuration is a usage error
/// (exit 2) explaining how to configure one.
pub fn require_provider(config: &Config) -> Result<Arc<dyn LlmProvider>, CliError> {
    open_provider(config)?.ok_or_else(|| CliError::with_code(Exit::Usage, NO_LLM_HELP))
}

/// The values that must never be recorded: the API key and the values of
/// the secret environment variables of `[secrets] env`.
pub fn secrets(config: &Config) -> Vec<String> {
    let mut out: Vec<String> = config.llm.api_key.iter().cloned().collect();
    out.extend(env(ccos_llm::ENV_API_KEY));
    out.extend(config.secrets.env.iter().filter_map(|name| env(name)));
    out.sort();
    out.dedup();
    out
}

/// Wraps `provider` in a [`Recorder`] redacting [`secrets`], so every
/// exchange can be appended to the causal chain afterwards
/// (`ccos_planner::llm::record::record_exchanges`).
pub fn recorder(config: &Config, provider: Arc<dyn LlmProvider>) -> Recorder {
    Recorder::new(provider, secrets(config))
}
