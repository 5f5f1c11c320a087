//! [`Recorder`]: a provider wrapper that keeps every exchange, redacted, so
//! the caller can append them to the causal chain.

use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use ccos_core::Redactor;

use crate::{LlmError, LlmProvider, LlmRequest, LlmResponse, Message, Usage};

/// One request and its outcome, with secrets already replaced by
/// `<redacted>` (`ccos_core::REDACTED`): what goes into the causal chain as
/// an `llm_exchange`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Exchange {
    /// The prompt template (`intent.rtfs@1`).
    pub prompt_id: String,
    /// Approximate prompt size in tokens ([`LlmRequest::approx_tokens`]).
    pub approx_prompt_tokens: usize,
    /// Whether JSON mode was asked for.
    pub json_mode: bool,
    /// The conversation sent (redacted).
    pub messages: Vec<Message>,
    /// The answer text (redacted), when there was one.
    pub response: Option<String>,
    /// The error (redacted), when there was no answer.
    pub error: Option<String>,
    /// The model that answered, when known.
    pub model: Option<String>,
    /// Token usage, when the server reported it.
    pub usage: Option<Usage>,
    /// The provider's description (never contains secrets).
    pub provider: String,
}

impl Exchange {
    /// The exchange as the causal chain records it (`llm_exchange`).
    pub fn audit_record(&self) -> ccos_core::audit::payload::LlmExchange {
        use ccos_core::audit::payload as audit;
        audit::LlmExchange {
            prompt_id: self.prompt_id.clone(),
            approx_prompt_tokens: self.approx_prompt_tokens as u64,
            json_mode: self.json_mode,
            messages: self
                .messages
                .iter()
                .map(|m| audit::ChatMessage {
                    role: m.role.as_str().to_string(),
                    content: m.content.clone(),
                })
                .collect(),
            response: self.response.clone(),
            error: self.error.clone(),
            model: self.model.clone(),
            usage: self.usage.map(|u| audit::TokenUsage {
                prompt_tokens: u.prompt_tokens,
                completion_tokens: u.completion_tokens,
            }),
            provider: self.provider.clone(),
        }
    }
}

/// Wraps a provider and records every exchange in memory (redacting the
/// secrets given at construction). Cheap to share: wrap once per command,
/// pass `&recorder` as the `&dyn LlmProvider`, then
/// [`take_exchanges`](Recorder::take_exchanges) and record them.
pub struct Recorder {
    inner: Arc<dyn LlmProvider>,
    secrets: Redactor,
    exchanges: Mutex<Vec<Exchange>>,
}

impl Recorder {
    /// Records the exchanges of `inner`, redacting `secrets` (e.g. the API
    /// key and the values of secret environment variables).
    pub fn new(inner: Arc<dyn LlmProvider>, secrets: Redactor) -> Recorder {
        Recorder {
            inner,
            secrets,
            exchanges: Mutex::new(vec![]),
        }
    }

    /// Removes and returns the exchanges recorded so far, oldest first.
    pub fn take_exchanges(&self) -> Vec<Exchange> {
        std::mem::take(&mut *self.lock())
    }

    /// How many exchanges are held.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no exchange is held.
    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Exchange>> {
        // Pushing to a Vec cannot leave it inconsistent on panic.
        self.exchanges.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl LlmProvider for Recorder {
    fn describe(&self) -> String {
        self.inner.describe()
    }

    fn generate_text(&self, request: &LlmRequest) -> Result<LlmResponse, LlmError> {
        let result = self.inner.generate_text(request);
        let r = |s: &str| self.secrets.redact_str(s).into_owned();
        let exchange = Exchange {
            prompt_id: request.prompt_id.clone(),
            approx_prompt_tokens: request.approx_tokens(),
            json_mode: request.json_mode,
            messages: request
                .messages
                .iter()
                .map(|m| Message {
                    role: m.role,
                    content: r(&m.content),
                })
                .collect(),
            response: result.as_ref().ok().map(|a| r(&a.text)),
            error: result.as_ref().err().map(|e| r(&e.to_string())),
            model: result.as_ref().ok().map(|a| a.model.clone()),
            usage: result.as_ref().ok().and_then(|a| a.usage),
            provider: self.inner.describe(),
        };
        self.lock().push(exchange);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ScriptedProvider;

    #[test]
    fn records_redacted_exchanges() {
        let p = Arc::new(ScriptedProvider::new(["answer with sk-123"]));
        let mut secrets = Redactor::default();
        secrets.add("sk-123");
        let rec = Recorder::new(p, secrets);
        let req = LlmRequest::new("t@1", vec![Message::user("key sk-123 here")]);
        assert_eq!(rec.generate_text(&req).unwrap().text, "answer with sk-123");
        assert!(rec.generate_text(&req).is_err());
        let ex = rec.take_exchanges();
        assert_eq!(ex.len(), 2);
        assert_eq!(ex[0].messages[0].content, "key <redacted> here");
        assert_eq!(ex[0].response.as_deref(), Some("answer with <redacted>"));
        assert_eq!(ex[0].prompt_id, "t@1");
        assert!(ex[1].error.is_some() && ex[1].response.is_none());
        assert!(rec.is_empty());
    }
}
