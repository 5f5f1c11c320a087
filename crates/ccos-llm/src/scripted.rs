//! [`ScriptedProvider`]: replays answers in order.

use std::path::Path;
use std::sync::Mutex;

use crate::{LlmError, LlmProvider, LlmRequest, LlmResponse};

/// Replays a fixed list of answers, one per request, in order, and keeps
/// the requests it saw (tests assert on them). When the list is used up it
/// answers [`LlmError::ScriptExhausted`], so a planner loop that asks more
/// often than expected fails loudly instead of hanging.
///
/// A script file is JSON: either an array of strings, or an object
/// `{"responses": [...]}`; an element may also be an object
/// `{"error": {"status": 500, "body": "..."}}` to replay a server error.
pub struct ScriptedProvider {
    origin: String,
    answers: Vec<Scripted>,
    state: Mutex<State>,
}

#[derive(Debug, Clone)]
enum Scripted {
    Text(String),
    Error(LlmError),
}

#[derive(Default)]
struct State {
    next: usize,
    seen: Vec<LlmRequest>,
}

impl ScriptedProvider {
    /// A provider answering these texts in order.
    pub fn new<S: Into<String>>(answers: impl IntoIterator<Item = S>) -> ScriptedProvider {
        ScriptedProvider {
            origin: "inline".into(),
            answers: answers
                .into_iter()
                .map(|a| Scripted::Text(a.into()))
                .collect(),
            state: Mutex::new(State::default()),
        }
    }

    /// Loads a script file (see the type's docs for the format).
    pub fn from_file(path: &Path) -> Result<ScriptedProvider, LlmError> {
        let text =
            ccos_core::text::read_file_bounded(path, ccos_core::text::MAX_INPUT_BYTES, false)
                .map_err(|e| LlmError::Config(format!("script: {e}")))?
                .unwrap_or_default();
        let mut p = ScriptedProvider::from_json(&text)
            .map_err(|e| LlmError::Config(format!("script {}: {e}", path.display())))?;
        p.origin = path.display().to_string();
        Ok(p)
    }

    /// Parses a script from JSON text (see the type's docs).
    pub fn from_json(text: &str) -> Result<ScriptedProvider, String> {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            format!(
                "invalid JSON at line {} column {}: {e}",
                e.line(),
                e.column()
            )
        })?;
        let list = match &v {
            serde_json::Value::Array(a) => a,
            serde_json::Value::Object(o) => match o.get("responses") {
                Some(serde_json::Value::Array(a)) => a,
                _ => return Err("expected an array or {\"responses\": [...]}".into()),
            },
            _ => return Err("expected an array or {\"responses\": [...]}".into()),
        };
        let mut answers = vec![];
        for (i, item) in list.iter().enumerate() {
            answers.push(match item {
                serde_json::Value::String(s) => Scripted::Text(s.clone()),
                serde_json::Value::Object(o) => match o.get("error") {
                    Some(e) => Scripted::Error(LlmError::Http {
                        status: e
                            .get("status")
                            .and_then(|s| s.as_u64())
                            .and_then(|s| u16::try_from(s).ok())
                            .unwrap_or(500),
                        body: e
                            .get("body")
                            .and_then(|b| b.as_str())
                            .unwrap_or("")
                            .to_string(),
                    }),
                    None => {
                        return Err(format!(
                            "responses[{i}]: expected a string or {{\"error\": ...}}"
                        ));
                    }
                },
                _ => return Err(format!("responses[{i}]: expected a string")),
            });
        }
        Ok(ScriptedProvider {
            origin: "json".into(),
            answers,
            state: Mutex::new(State::default()),
        })
    }

    /// The requests answered so far, oldest first.
    pub fn requests(&self) -> Vec<LlmRequest> {
        self.lock().seen.clone()
    }

    /// How many requests were made.
    pub fn calls(&self) -> usize {
        self.lock().seen.len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic while holding the lock cannot leave State inconsistent
        // (two plain fields), so a poisoned lock is still usable.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl LlmProvider for ScriptedProvider {
    fn describe(&self) -> String {
        format!("scripted {} ({} answers)", self.origin, self.answers.len())
    }

    fn generate_text(&self, request: &LlmRequest) -> Result<LlmResponse, LlmError> {
        let mut st = self.lock();
        st.seen.push(request.clone());
        let i = st.next;
        let Some(answer) = self.answers.get(i) else {
            return Err(LlmError::ScriptExhausted { served: i });
        };
        st.next += 1;
        match answer {
            Scripted::Text(t) => Ok(LlmResponse {
                text: t.clone(),
                model: "scripted".into(),
                usage: None,
            }),
            Scripted::Error(e) => Err(e.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Message;

    fn req() -> LlmRequest {
        LlmRequest::new("t@1", vec![Message::user("hi")])
    }

    #[test]
    fn replays_in_order_then_exhausts() {
        let p = ScriptedProvider::new(["a", "b"]);
        assert_eq!(p.generate_text(&req()).unwrap().text, "a");
        assert_eq!(p.generate_text(&req()).unwrap().text, "b");
        assert_eq!(
            p.generate_text(&req()),
            Err(LlmError::ScriptExhausted { served: 2 })
        );
        assert_eq!(p.calls(), 3);
    }

    #[test]
    fn loads_file_with_errors() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("s.json");
        std::fs::write(
            &f,
            r#"{"responses": ["x", {"error": {"status": 429, "body": "slow down"}}]}"#,
        )
        .unwrap();
        let p = ScriptedProvider::from_file(&f).unwrap();
        assert_eq!(p.generate_text(&req()).unwrap().text, "x");
        assert!(matches!(
            p.generate_text(&req()),
            Err(LlmError::Http { status: 429, .. })
        ));
    }

    #[test]
    fn bad_script_names_position() {
        let e = ScriptedProvider::from_json("[1]").err().unwrap();
        assert!(e.contains("responses[0]"), "{e}");
        let e = ScriptedProvider::from_json("[\"a\",").err().unwrap();
        assert!(e.contains("line 1"), "{e}");
    }
}
