//! Asking the user: the [`UserPrompter`] trait behind `ccos.user.ask`.
//!
//! Implementations:
//! * [`TerminalPrompter`] asks on stderr and reads a line from stdin, only
//!   when stdin is a terminal;
//! * [`ScriptedAnswers`] answers from a file or from `--answer` flags, for
//!   non-interactive runs and tests;
//! * [`FirstAnswer`] tries several prompters in order (e.g. scripted answers
//!   first, then the terminal).
//!
//! # Scripted answer matching
//!
//! Each answer either names its prompt (`"prompt=value"`, a JSON object
//! entry, a TOML key) or not (a plain value, in order). Asking a prompt
//! returns, in this order: the answer whose prompt is *exactly* the asked
//! prompt (reusable: the same question gets the same answer every time),
//! else the answer named like the value asked for (`ccos.user.ask`'s
//! `:name`, the parameter name in a generated plan: `--answer
//! source_timezone=Asia/Tokyo`), else the next unused unnamed answer (each
//! used once, in the order given; a plan asks its questions one after the
//! other, in plan order).
//! Otherwise there is no answer, which `ccos.user.ask` reports as refused:
//! `no answer for prompt "..."; pass --answer or --answers FILE`.

use std::collections::BTreeMap;
use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// Why a prompter gave no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AskError {
    /// No answer is available for this prompt (non-interactive run).
    #[error("no answer for prompt {0:?}; pass --answer or --answers FILE")]
    NoAnswer(String),
    /// Reading the answer failed.
    #[error("reading the answer: {0}")]
    Io(String),
}

/// Something that can ask the user a question and return the answer.
///
/// `ask` may block (a terminal waits for a human); async callers run it on
/// a blocking thread.
pub trait UserPrompter: Send + Sync {
    /// Asks `prompt` and returns the answer text.
    fn ask(&self, prompt: &str) -> Result<String, AskError>;

    /// Asks `prompt` for the value called `name` (a parameter name), when
    /// the question has one; answers given in advance may match the name.
    /// By default the same as [`UserPrompter::ask`].
    fn ask_named(&self, prompt: &str, name: Option<&str>) -> Result<String, AskError> {
        let _ = name;
        self.ask(prompt)
    }
}

/// Never answers: the prompter of a world that cannot ask anyone (a
/// server, a test); `ccos.user.ask` then fails with a clear message.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoPrompter;

impl UserPrompter for NoPrompter {
    fn ask(&self, prompt: &str) -> Result<String, AskError> {
        Err(AskError::NoAnswer(prompt.to_string()))
    }
}

/// Asks on stderr, reads one line from stdin; refuses when stdin is not a
/// terminal (so a piped or CI run never waits for input).
#[derive(Debug, Default, Clone, Copy)]
pub struct TerminalPrompter;

impl UserPrompter for TerminalPrompter {
    fn ask(&self, prompt: &str) -> Result<String, AskError> {
        let stdin = std::io::stdin();
        if !stdin.is_terminal() {
            return Err(AskError::NoAnswer(prompt.to_string()));
        }
        let mut err = std::io::stderr();
        write!(err, "{prompt} ").map_err(|e| AskError::Io(e.to_string()))?;
        err.flush().map_err(|e| AskError::Io(e.to_string()))?;
        let mut line = String::new();
        let n = stdin
            .lock()
            .read_line(&mut line)
            .map_err(|e| AskError::Io(e.to_string()))?;
        if n == 0 {
            return Err(AskError::NoAnswer(prompt.to_string()));
        }
        Ok(line.trim_end_matches(['\r', '\n']).to_string())
    }
}

/// Pre-recorded answers (see the module docs for the matching rules).
#[derive(Debug, Default)]
pub struct ScriptedAnswers {
    named: BTreeMap<String, String>,
    ordered: Mutex<std::collections::VecDeque<String>>,
}

impl ScriptedAnswers {
    /// No answers at all.
    pub fn new() -> ScriptedAnswers {
        ScriptedAnswers::default()
    }

    /// Adds an answer for exactly `prompt`.
    pub fn with_named(mut self, prompt: impl Into<String>, answer: impl Into<String>) -> Self {
        self.named.insert(prompt.into(), answer.into());
        self
    }

    /// Adds an unnamed answer, used in order.
    pub fn with_ordered(self, answer: impl Into<String>) -> Self {
        self.ordered
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push_back(answer.into());
        self
    }

    /// Adds the answers of `--answer` flags: `prompt=value` names its
    /// prompt (split at the first `=`); a flag without `=` is an ordered
    /// answer.
    pub fn with_flags<S: AsRef<str>>(mut self, flags: &[S]) -> Self {
        for f in flags {
            match f.as_ref().split_once('=') {
                Some((p, a)) => self = self.with_named(p, a),
                None => self = self.with_ordered(f.as_ref()),
            }
        }
        self
    }

    /// Loads answers from a file: JSON when it ends in `.json` (an object
    /// `{"prompt": "answer"}` or an array of answers, strings in order or
    /// `{"prompt": .., "answer": ..}` objects), else TOML (`"prompt" =
    /// "answer"` entries and/or `answers = ["in", "order"]`).
    pub fn from_file(path: &Path) -> Result<ScriptedAnswers, String> {
        let text =
            ccos_core::text::read_file_bounded(path, ccos_core::text::MAX_INPUT_BYTES, false)
                .map_err(|e| format!("answers file: {e}"))?
                .unwrap_or_default();
        let bad = |m: String| format!("answers file {}: {m}", path.display());
        let is_json = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"));
        let value: serde_json::Value = if is_json {
            serde_json::from_str(&text).map_err(|e| bad(format!("invalid JSON: {e}")))?
        } else {
            let t: toml::Table =
                toml::from_str(&text).map_err(|e| bad(format!("invalid TOML: {e}")))?;
            serde_json::to_value(t).map_err(|e| bad(e.to_string()))?
        };
        let mut s = ScriptedAnswers::new();
        let text_of = |v: &serde_json::Value| -> String {
            match v {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            }
        };
        let add_list =
            |s: ScriptedAnswers, items: &[serde_json::Value]| -> Result<ScriptedAnswers, String> {
                let mut s = s;
                for item in items {
                    match item {
                        serde_json::Value::Object(o) => {
                            let p = o.get("prompt").and_then(|p| p.as_str());
                            let a = o.get("answer").map(text_of);
                            match (p, a) {
                                (Some(p), Some(a)) => s = s.with_named(p, a),
                                (None, Some(a)) => s = s.with_ordered(a),
                                _ => return Err(bad("answer objects need an \"answer\"".into())),
                            }
                        }
                        other => s = s.with_ordered(text_of(other)),
                    }
                }
                Ok(s)
            };
        match &value {
            serde_json::Value::Array(items) => s = add_list(s, items)?,
            serde_json::Value::Object(o) => {
                for (k, v) in o {
                    match (k.as_str(), v) {
                        ("answers", serde_json::Value::Array(items)) => s = add_list(s, items)?,
                        _ => s = s.with_named(k.clone(), text_of(v)),
                    }
                }
            }
            _ => return Err(bad("expected an object or an array of answers".into())),
        }
        Ok(s)
    }
}

impl UserPrompter for ScriptedAnswers {
    fn ask(&self, prompt: &str) -> Result<String, AskError> {
        self.ask_named(prompt, None)
    }

    fn ask_named(&self, prompt: &str, name: Option<&str>) -> Result<String, AskError> {
        if let Some(a) = self.named.get(prompt) {
            return Ok(a.clone());
        }
        if let Some(a) = name.and_then(|n| self.named.get(n)) {
            return Ok(a.clone());
        }
        self.ordered
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .pop_front()
            .ok_or_else(|| AskError::NoAnswer(prompt.to_string()))
    }
}

/// Tries prompters in order; the first answer wins. A prompter without an
/// answer passes to the next; an I/O error stops.
#[derive(Clone, Default)]
pub struct FirstAnswer(pub Vec<Arc<dyn UserPrompter>>);

impl UserPrompter for FirstAnswer {
    fn ask(&self, prompt: &str) -> Result<String, AskError> {
        self.ask_named(prompt, None)
    }

    fn ask_named(&self, prompt: &str, name: Option<&str>) -> Result<String, AskError> {
        for p in &self.0 {
            match p.ask_named(prompt, name) {
                Err(AskError::NoAnswer(_)) => continue,
                other => return other,
            }
        }
        Err(AskError::NoAnswer(prompt.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripted_exact_then_order() {
        let s = ScriptedAnswers::new().with_flags(&["Your name?=Ada", "blue", "42"]);
        assert_eq!(s.ask("Your name?").unwrap(), "Ada");
        assert_eq!(s.ask("Your name?").unwrap(), "Ada");
        assert_eq!(s.ask("Colour?").unwrap(), "blue");
        assert_eq!(s.ask("Age?").unwrap(), "42");
        let e = s.ask("More?").unwrap_err();
        assert!(e.to_string().contains("pass --answer or --answers FILE"));
    }

    #[test]
    fn answers_match_the_name_of_the_value_asked() {
        let s = ScriptedAnswers::new().with_flags(&["zone=Asia/Tokyo", "first"]);
        assert_eq!(
            s.ask_named("Value for zone (what time is it)?", Some("zone"))
                .unwrap(),
            "Asia/Tokyo"
        );
        assert_eq!(s.ask_named("Other?", Some("city")).unwrap(), "first");
        let both = FirstAnswer(vec![Arc::new(NoPrompter), Arc::new(s)]);
        assert_eq!(
            both.ask_named("Again?", Some("zone")).unwrap(),
            "Asia/Tokyo"
        );
    }

    #[test]
    fn answers_files_json_and_toml() {
        let dir = tempfile::tempdir().unwrap();
        let j = dir.path().join("a.json");
        std::fs::write(&j, r#"[{"prompt":"City?","answer":"Paris"},"first",3]"#).unwrap();
        let s = ScriptedAnswers::from_file(&j).unwrap();
        assert_eq!(s.ask("City?").unwrap(), "Paris");
        assert_eq!(s.ask("x").unwrap(), "first");
        assert_eq!(s.ask("y").unwrap(), "3");
        let t = dir.path().join("a.toml");
        std::fs::write(&t, "\"City?\" = \"Rome\"\nanswers = [\"one\"]\n").unwrap();
        let s = ScriptedAnswers::from_file(&t).unwrap();
        assert_eq!(s.ask("City?").unwrap(), "Rome");
        assert_eq!(s.ask("z").unwrap(), "one");
        std::fs::write(&j, "{oops").unwrap();
        assert!(
            ScriptedAnswers::from_file(&j)
                .unwrap_err()
                .contains("a.json")
        );
    }

    #[test]
    fn first_answer_falls_through() {
        let p = FirstAnswer(vec![
            Arc::new(ScriptedAnswers::new()),
            Arc::new(ScriptedAnswers::new().with_ordered("late")),
        ]);
        assert_eq!(p.ask("q").unwrap(), "late");
        assert!(matches!(p.ask("q"), Err(AskError::NoAnswer(_))));
    }
}
