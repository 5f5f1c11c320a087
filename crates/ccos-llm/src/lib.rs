//! The LLM layer.
//!
//! Everything above this crate talks to a language model through one
//! synchronous interface, [`LlmProvider::generate_text`]: a request made of
//! chat messages (plus the id and version of the prompt template that built
//! it, for the causal chain), answered with text. Implementations:
//!
//! - [`OpenAiCompatible`]: a chat-completions client over HTTP (timeouts,
//!   retries with backoff on 429/5xx only, tolerant of missing optional
//!   fields), configured by [`LlmSettings::resolve`];
//! - [`ScriptedProvider`]: replays answers from a list or a file, in order;
//!   the one sanctioned fake, for tests and demos.
//!
//! [`Recorder`] wraps any provider and keeps every [`Exchange`] (redacted)
//! for the causal chain. [`extract`] finds the RTFS form or JSON object in
//! an answer wrapped in prose or markdown fences, and reports cut answers.
//!
//! The interface is synchronous on purpose: the planner is synchronous and
//! deterministic; a provider that needs async I/O runs it on its own
//! runtime, so callers never need one.
//!
//! [`Prompt`] templates live as versioned files in the repository (never as
//! string literals scattered in code) and are rendered with `{{name}}`
//! placeholders. Secrets are removed (`ccos_core::Redactor`) before a prompt or an
//! answer is recorded anywhere.

pub mod extract;
mod http;
mod prompt;
mod recorder;
mod scripted;

pub use extract::{ExtractError, Extracted, extract_form, extract_json_object, strip_fences};
pub use http::{
    ENV_API_KEY, ENV_BASE_URL, ENV_MODEL, ENV_SCRIPT, FileSettings, LlmSettings, OpenAiCompatible,
    open_provider, parse_completion, provider_from_settings, script_path,
};
pub use prompt::{Prompt, PromptError};
pub use recorder::{Exchange, Recorder};
pub use scripted::ScriptedProvider;

use serde::{Deserialize, Serialize};

/// Who wrote a chat message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Instructions framing the conversation.
    System,
    /// The caller (the planner).
    User,
    /// The model (earlier answers, e.g. in a repair round).
    Assistant,
}

impl Role {
    /// `system`, `user` or `assistant`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// One chat message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// Who wrote it.
    pub role: Role,
    /// The text.
    pub content: String,
}

impl Message {
    /// A system message.
    pub fn system(content: impl Into<String>) -> Message {
        Message {
            role: Role::System,
            content: content.into(),
        }
    }

    /// A user message.
    pub fn user(content: impl Into<String>) -> Message {
        Message {
            role: Role::User,
            content: content.into(),
        }
    }

    /// An assistant message.
    pub fn assistant(content: impl Into<String>) -> Message {
        Message {
            role: Role::Assistant,
            content: content.into(),
        }
    }
}

/// A request to a model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlmRequest {
    /// The prompt template that built it (`"plan.rtfs@1"`), for the record.
    pub prompt_id: String,
    /// The conversation, oldest first.
    pub messages: Vec<Message>,
    /// Ask the server for a JSON object answer (OpenAI `response_format`).
    pub json_mode: bool,
    /// Upper bound on the answer's length in tokens.
    pub max_tokens: Option<u32>,
    /// Sampling temperature; the planner uses 0 for reproducibility.
    pub temperature: f32,
}

impl LlmRequest {
    /// A request with these messages, temperature 0, no JSON mode, no
    /// token bound.
    pub fn new(prompt_id: impl Into<String>, messages: Vec<Message>) -> LlmRequest {
        LlmRequest {
            prompt_id: prompt_id.into(),
            messages,
            json_mode: false,
            max_tokens: None,
            temperature: 0.0,
        }
    }

    /// Sets JSON mode.
    pub fn json(mut self, on: bool) -> LlmRequest {
        self.json_mode = on;
        self
    }

    /// Sets the token bound.
    pub fn max_tokens(mut self, n: u32) -> LlmRequest {
        self.max_tokens = Some(n);
        self
    }

    /// Approximate size of the prompt in tokens (characters / 4, the usual
    /// rule of thumb for English and code), for reports and budgets.
    pub fn approx_tokens(&self) -> usize {
        approx_tokens(self.messages.iter().map(|m| m.content.as_str()))
    }
}

/// Approximate token count of some texts: characters / 4, rounded up.
pub fn approx_tokens<'a>(texts: impl IntoIterator<Item = &'a str>) -> usize {
    let chars: usize = texts.into_iter().map(|t| t.chars().count()).sum();
    chars.div_ceil(4)
}

/// Token usage reported by a server (optional in many servers' answers).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Tokens in the prompt.
    pub prompt_tokens: u64,
    /// Tokens in the answer.
    pub completion_tokens: u64,
}

/// A model's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlmResponse {
    /// The answer text (may contain prose, fences, anything: callers
    /// extract and validate).
    pub text: String,
    /// The model that answered, as the server named it.
    pub model: String,
    /// Token usage, when the server reported it.
    pub usage: Option<Usage>,
}

/// Why a model could not be asked or did not answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LlmError {
    /// The provider is misconfigured (missing URL or model, bad file).
    #[error("LLM configuration: {0}")]
    Config(String),
    /// The server answered with an error status (after retries, if the
    /// status was retryable).
    #[error("LLM server answered HTTP {status}: {body}")]
    Http {
        /// The HTTP status code.
        status: u16,
        /// The start of the answer body.
        body: String,
    },
    /// No answer within the time limit (after retries).
    #[error("LLM request timed out after {seconds} s")]
    Timeout {
        /// The limit that was exceeded.
        seconds: u64,
    },
    /// The connection failed.
    #[error("LLM transport: {0}")]
    Transport(String),
    /// The server's answer does not have the expected shape.
    #[error("LLM answer malformed: {0}")]
    Malformed(String),
    /// A scripted provider has no answer left.
    #[error("scripted LLM has no answer left (served {served})")]
    ScriptExhausted {
        /// How many answers were served before.
        served: usize,
    },
}

/// A language model the planner can ask.
pub trait LlmProvider: Send + Sync {
    /// A short description for traces (`"openai-compatible http://...
    /// llama3.1"`, `"scripted tests/x.json"`); never contains secrets.
    fn describe(&self) -> String;

    /// Answers one request. Must not panic on any server answer and must
    /// return within the provider's time limit.
    fn generate_text(&self, request: &LlmRequest) -> Result<LlmResponse, LlmError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn approx_tokens_rounds_up() {
        let r = LlmRequest::new("p@1", vec![Message::user("12345")]);
        assert_eq!(r.approx_tokens(), 2);
    }
}
