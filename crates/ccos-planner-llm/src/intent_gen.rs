//! Intent generation, RTFS first with a JSON fallback (spec 006).
//!
//! The model is asked (prompt `prompts/intent.rtfs.md`) for one
//! `(intent "name" :goal "..." :constraints {...} :preferences {...}
//! :success-criteria ...)` form. The answer is parsed as RTFS first: the
//! form is extracted by balanced delimiters (prose and markdown fences
//! around it are tolerated) and read with the RTFS parser. When that fails
//! the answer is parsed as JSON (fenced or bare; field names `goal`,
//! `name`, `constraints`, `preferences`, `success_criteria` matched
//! case-insensitively; JSON values converted to RTFS values). Both attempts
//! are kept in [`GeneratedIntent::attempts`] and the format that worked in
//! [`GeneratedIntent::parse_format`] (`rtfs` / `json_fallback`, stored as
//! the intent's `parse_format` metadata). Neither parsing is an
//! [`IntentGenError::Unparsed`] carrying the raw answer.

use std::collections::BTreeMap;

use ccos_llm::{LlmError, LlmProvider, LlmRequest, Message, Prompt, PromptError};
use rtfs::Value;
use serde::{Deserialize, Serialize};

/// The intent prompt template.
pub const INTENT_PROMPT: &str = include_str!("../prompts/intent.rtfs.md");

/// Token bound of the intent answer.
const MAX_TOKENS: u32 = 800;

/// Which parser read the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParseFormat {
    /// The RTFS `(intent ...)` form (the primary path).
    Rtfs,
    /// The JSON fallback.
    JsonFallback,
}

impl ParseFormat {
    /// `rtfs` or `json_fallback` (the `parse_format` metadata value).
    pub fn as_str(self) -> &'static str {
        match self {
            ParseFormat::Rtfs => "rtfs",
            ParseFormat::JsonFallback => "json_fallback",
        }
    }
}

/// One parse attempt: the format tried and, when it failed, why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParseAttempt {
    /// The format tried.
    pub format: ParseFormat,
    /// Why it failed; `None` when it succeeded.
    pub error: Option<String>,
}

/// An intent read from a model's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct GeneratedIntent {
    /// Short name (`summarise-open-bugs`).
    pub name: String,
    /// The goal as the model restated it (the user's goal when omitted).
    pub goal: String,
    /// Hard requirements, by key.
    pub constraints: BTreeMap<String, Value>,
    /// Soft wishes, by key.
    pub preferences: BTreeMap<String, Value>,
    /// How to tell the goal is achieved, when given.
    pub success_criteria: Option<Value>,
    /// Which parser read the answer.
    pub parse_format: ParseFormat,
    /// Every parse attempt, in order (RTFS first).
    pub attempts: Vec<ParseAttempt>,
    /// The model's raw answer.
    pub raw_response: String,
}

/// Why no intent could be generated.
#[derive(Debug, thiserror::Error)]
pub enum IntentGenError {
    /// The goal is empty.
    #[error("the goal is empty")]
    EmptyGoal,
    /// The prompt template is broken (a bug in the repository's prompt file).
    #[error("intent prompt: {0}")]
    Prompt(#[from] PromptError),
    /// The model could not be asked or did not answer.
    #[error("asking the model for an intent: {0}")]
    Llm(#[from] LlmError),
    /// The answer is neither an RTFS nor a JSON intent.
    #[error(
        "the model's answer is neither an RTFS intent nor a JSON intent ({}); raw answer: {raw:?}",
        attempts.iter().map(|a| format!("{}: {}", a.format.as_str(), a.error.as_deref().unwrap_or("ok"))).collect::<Vec<_>>().join("; ")
    )]
    Unparsed {
        /// The model's raw answer.
        raw: String,
        /// Both attempts, with their errors.
        attempts: Vec<ParseAttempt>,
    },
}

/// The request asking for an intent for `goal` (prompt `intent.rtfs@1`).
pub fn intent_request(goal: &str) -> Result<LlmRequest, IntentGenError> {
    let prompt = Prompt::parse("prompts/intent.rtfs.md", INTENT_PROMPT)?;
    let mut values = BTreeMap::new();
    values.insert("goal", goal.to_string());
    let text = prompt.render(&values)?;
    Ok(LlmRequest::new(prompt.key(), vec![Message::user(text)]).max_tokens(MAX_TOKENS))
}

/// Asks `provider` for an intent for `goal` and parses the answer, RTFS
/// first, JSON second (see the module docs).
pub fn generate_intent(
    provider: &dyn LlmProvider,
    goal: &str,
) -> Result<GeneratedIntent, IntentGenError> {
    let goal = goal.trim();
    if goal.is_empty() {
        return Err(IntentGenError::EmptyGoal);
    }
    let request = intent_request(goal)?;
    let answer = provider.generate_text(&request)?;
    parse_intent_answer(&answer.text, goal)
}

/// Parses a model's answer as an intent: RTFS first, then JSON.
/// `user_goal` is used when the answer gives no goal.
pub fn parse_intent_answer(raw: &str, user_goal: &str) -> Result<GeneratedIntent, IntentGenError> {
    let mut attempts = vec![];
    match parse_rtfs_intent(raw) {
        Ok(fields) => {
            attempts.push(ParseAttempt {
                format: ParseFormat::Rtfs,
                error: None,
            });
            return Ok(fields.finish(user_goal, ParseFormat::Rtfs, attempts, raw));
        }
        Err(e) => attempts.push(ParseAttempt {
            format: ParseFormat::Rtfs,
            error: Some(e),
        }),
    }
    match parse_json_intent(raw) {
        Ok(fields) => {
            attempts.push(ParseAttempt {
                format: ParseFormat::JsonFallback,
                error: None,
            });
            Ok(fields.finish(user_goal, ParseFormat::JsonFallback, attempts, raw))
        }
        Err(e) => {
            attempts.push(ParseAttempt {
                format: ParseFormat::JsonFallback,
                error: Some(e),
            });
            Err(IntentGenError::Unparsed {
                raw: raw.to_string(),
                attempts,
            })
        }
    }
}

/// The fields read by either parser.
#[derive(Default)]
struct Fields {
    name: Option<String>,
    goal: Option<String>,
    constraints: BTreeMap<String, Value>,
    preferences: BTreeMap<String, Value>,
    success_criteria: Option<Value>,
}

impl Fields {
    fn finish(
        self,
        user_goal: &str,
        parse_format: ParseFormat,
        attempts: Vec<ParseAttempt>,
        raw: &str,
    ) -> GeneratedIntent {
        let goal = self
            .goal
            .filter(|g| !g.trim().is_empty())
            .unwrap_or_else(|| user_goal.to_string());
        let name = self
            .name
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| slug(&goal));
        GeneratedIntent {
            name,
            goal,
            constraints: self.constraints,
            preferences: self.preferences,
            success_criteria: self.success_criteria,
            parse_format,
            attempts,
            raw_response: raw.to_string(),
        }
    }
}

/// `"Count the words!"` → `count-the-words` (at most 6 words).
fn slug(text: &str) -> String {
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(6)
        .map(|w| w.to_lowercase())
        .collect();
    if words.is_empty() {
        "intent".into()
    } else {
        words.join("-")
    }
}

/// The RTFS path: extract `(intent ...)`, parse it, read its fields.
fn parse_rtfs_intent(raw: &str) -> Result<Fields, String> {
    let form = ccos_llm::extract_form(raw, "intent").map_err(|e| e.to_string())?;
    let expr = match rtfs::parse_one(&form.text) {
        Ok(e) => e,
        // Models copy Clojure regex literals (`#"..."`), which RTFS does not
        // have: read them as plain strings (spec 006's sanitising step).
        Err(first) if form.text.contains("#\"") => rtfs::parse_one(&form.text.replace("#\"", "\""))
            .map_err(|_| rtfs_error(&form, &first))?,
        Err(e) => return Err(rtfs_error(&form, &e)),
    };
    let value = expr.to_value();
    let items = match &value {
        Value::List(items) => items.as_slice(),
        _ => return Err("the intent form is not a list".into()),
    };
    let mut fields = Fields::default();
    let mut rest = items.get(1..).unwrap_or_default();
    if let Some(first) = rest.first()
        && !matches!(first, Value::Keyword(_))
    {
        fields.name = Some(text_of(first));
        rest = &rest[1..];
    }
    if rest.len() % 2 != 0 {
        return Err(format!(
            "the intent form's options must be :key value pairs (odd count {})",
            rest.len()
        ));
    }
    for pair in rest.chunks(2) {
        let Value::Keyword(k) = &pair[0] else {
            return Err(format!(
                "expected a keyword in the intent form, found {}",
                rtfs::print_value(&pair[0])
            ));
        };
        let v = &pair[1];
        match normalise_key(k).as_str() {
            "goal" => fields.goal = Some(text_of(v)),
            "name" => fields.name = Some(text_of(v)),
            "constraints" => fields.constraints = to_map(v, "constraints")?,
            "preferences" => fields.preferences = to_map(v, "preferences")?,
            "successcriteria" => fields.success_criteria = Some(v.clone()),
            _ => {} // extra keys (e.g. :priority) are tolerated and ignored
        }
    }
    if fields.goal.is_none() && fields.name.is_none() {
        return Err("the intent form has neither a name nor a :goal".into());
    }
    Ok(fields)
}

/// An RTFS parse error positioned in the answer.
fn rtfs_error(form: &ccos_llm::Extracted, e: &rtfs::RtfsError) -> String {
    let (line, column) = e
        .span
        .map(|s| rtfs::line_col(&form.text, s.start))
        .unwrap_or((1, 1));
    let line_in_answer = form.line + line - 1;
    let column_in_answer = if line == 1 {
        form.column + column - 1
    } else {
        column
    };
    format!(
        "RTFS parse error at line {line_in_answer} column {column_in_answer}: {}",
        e.message
    )
}

/// The JSON fallback.
fn parse_json_intent(raw: &str) -> Result<Fields, String> {
    let v = ccos_llm::extract_json_object(raw).map_err(|e| e.to_string())?;
    let mut obj = v.as_object().ok_or("the JSON answer is not an object")?;
    // {"intent": {...}} wrapper.
    if let Some(inner) = obj
        .iter()
        .find(|(k, _)| normalise_key(k) == "intent")
        .and_then(|(_, v)| v.as_object())
    {
        obj = inner;
    }
    let mut fields = Fields::default();
    for (k, v) in obj {
        match normalise_key(k).as_str() {
            "goal" => fields.goal = Some(json_text(v)),
            "name" => fields.name = Some(json_text(v)),
            "constraints" => fields.constraints = json_map(v),
            "preferences" => fields.preferences = json_map(v),
            "successcriteria" => fields.success_criteria = Some(rtfs::from_json(v)),
            _ => {}
        }
    }
    if fields.goal.is_none() && fields.name.is_none() {
        return Err("the JSON object has neither a goal nor a name field".into());
    }
    Ok(fields)
}

/// Lower case without `-`/`_`, so `Goal`, `GOAL`, `success_criteria` and
/// `successCriteria` all match.
pub(crate) fn normalise_key(k: &str) -> String {
    k.chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// A value as text: a string's contents, else its printed form.
pub(crate) fn text_of(v: &Value) -> String {
    match v {
        Value::Str(s) | Value::Symbol(s) | Value::Keyword(s) => s.to_string(),
        other => rtfs::print_value(other),
    }
}

/// A map key as text.
fn key_text(k: &Value) -> String {
    text_of(k)
}

/// An RTFS map (or nil) as a key → value map.
fn to_map(v: &Value, what: &str) -> Result<BTreeMap<String, Value>, String> {
    match v {
        Value::Nil => Ok(BTreeMap::new()),
        Value::Map(m) => Ok(m.iter().map(|(k, v)| (key_text(k), v.clone())).collect()),
        Value::Vector(items) | Value::List(items) if items.is_empty() => Ok(BTreeMap::new()),
        other => Err(format!(
            ":{what} must be a map, found {}",
            rtfs::print_value(other)
        )),
    }
}

/// A JSON string's contents, else the JSON text.
fn json_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A JSON object as a map; a list of strings becomes `item1`, `item2`...;
/// another non-null value the single entry `text`.
fn json_map(v: &serde_json::Value) -> BTreeMap<String, Value> {
    match v {
        serde_json::Value::Null => BTreeMap::new(),
        serde_json::Value::Object(o) => o
            .iter()
            .map(|(k, v)| (k.clone(), rtfs::from_json(v)))
            .collect(),
        serde_json::Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("item{}", i + 1), rtfs::from_json(v)))
            .collect(),
        other => BTreeMap::from([("text".to_string(), rtfs::from_json(other))]),
    }
}

/// An RTFS map with keyword keys (when valid keywords) from a string map.
fn map_value(m: &BTreeMap<String, Value>) -> Value {
    Value::map(m.iter().map(|(k, v)| (rtfs::json::json_key(k), v.clone())))
}

impl GeneratedIntent {
    /// The intent as one canonical RTFS form, one option per line:
    /// `(intent "name"\n  :goal "..."\n  :constraints {...}\n  :preferences {...})`.
    pub fn to_rtfs(&self) -> String {
        let mut out = format!(
            "(intent {}\n  :goal {}\n  :constraints {}\n  :preferences {}",
            rtfs::print_value(&Value::string(&self.name)),
            rtfs::print_value(&Value::string(&self.goal)),
            rtfs::print_value(&map_value(&self.constraints)),
            rtfs::print_value(&map_value(&self.preferences)),
        );
        if let Some(sc) = &self.success_criteria {
            out.push_str(&format!("\n  :success-criteria {}", rtfs::print_value(sc)));
        }
        out.push(')');
        out
    }

    /// Constraints as a JSON object (for the IntentGraph).
    pub fn constraints_json(&self) -> serde_json::Value {
        json_object(&self.constraints)
    }

    /// Preferences as a JSON object (for the IntentGraph).
    pub fn preferences_json(&self) -> serde_json::Value {
        json_object(&self.preferences)
    }

    /// The whole intent as JSON (`name`, `goal`, `constraints`,
    /// `preferences`, `success_criteria`, `parse_format`, `attempts`).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "name": self.name,
            "goal": self.goal,
            "constraints": self.constraints_json(),
            "preferences": self.preferences_json(),
            "success_criteria": self.success_criteria.as_ref().map(value_json),
            "parse_format": self.parse_format.as_str(),
            "attempts": self.attempts,
        })
    }
}

/// A value as JSON; values without a JSON form (none come from parsing)
/// become their printed text.
fn value_json(v: &Value) -> serde_json::Value {
    rtfs::to_json(v).unwrap_or_else(|_| serde_json::Value::String(rtfs::print_value(v)))
}

fn json_object(m: &BTreeMap<String, Value>) -> serde_json::Value {
    serde_json::Value::Object(m.iter().map(|(k, v)| (k.clone(), value_json(v))).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ccos_llm::ScriptedProvider;

    const GOAL: &str = "summarise open bugs of mandubian/ccos";

    fn gen_from(answer: &str) -> Result<GeneratedIntent, IntentGenError> {
        let p = ScriptedProvider::new([answer]);
        let r = generate_intent(&p, GOAL);
        let reqs = p.requests();
        assert_eq!(reqs[0].prompt_id, "intent.rtfs@1");
        assert!(reqs[0].messages[0].content.contains(GOAL));
        r
    }

    #[test]
    fn rtfs_with_prose_around() {
        let g = gen_from(
            "Sure! Here it is:\n(intent \"bugs\" :goal \"Summarise bugs\" :constraints {:max-items 10 :label \"bug\"} :preferences {:language \"French\"} :success-criteria \"done\")\nAnything else?",
        )
        .unwrap();
        assert_eq!(g.parse_format, ParseFormat::Rtfs);
        assert_eq!(g.name, "bugs");
        assert_eq!(g.goal, "Summarise bugs");
        assert_eq!(g.constraints["max-items"], Value::Int(10));
        assert_eq!(g.preferences["language"], Value::string("French"));
        assert_eq!(g.success_criteria, Some(Value::string("done")));
        assert_eq!(g.attempts.len(), 1);
        assert!(
            g.to_rtfs().starts_with("(intent \"bugs\"\n  :goal"),
            "{}",
            g.to_rtfs()
        );
        // The printed form reads back to the same intent.
        let back = parse_intent_answer(&g.to_rtfs(), GOAL).unwrap();
        assert_eq!(
            (back.constraints, back.preferences),
            (g.constraints.clone(), g.preferences.clone())
        );
        assert_eq!(g.to_json()["parse_format"], "rtfs");
    }

    #[test]
    fn fenced_rtfs() {
        let g = gen_from(
            "```clojure\n(intent \"x\"\n  :goal \"g\" ; comment )\n  :constraints {})\n```",
        )
        .unwrap();
        assert_eq!(g.parse_format, ParseFormat::Rtfs);
        assert_eq!(g.goal, "g");
        assert!(g.constraints.is_empty());
    }

    #[test]
    fn truncated_rtfs_then_json_fallback() {
        let raw = "(intent \"x\" :goal \"cut here\n\n{\"Goal\": \"Summarise\", \"NAME\": \"n\", \"Constraints\": {\"max\": 3, \"tags\": [\"a\"]}, \"preferences\": null}";
        let g = gen_from(raw).unwrap();
        assert_eq!(g.parse_format, ParseFormat::JsonFallback);
        assert_eq!((g.name.as_str(), g.goal.as_str()), ("n", "Summarise"));
        assert_eq!(g.constraints["max"], Value::Int(3));
        assert_eq!(
            g.constraints["tags"],
            Value::vector(vec![Value::string("a")])
        );
        assert_eq!(g.attempts.len(), 2);
        let rtfs_err = g.attempts[0].error.as_deref().unwrap();
        assert!(rtfs_err.contains("never closed"), "{rtfs_err}");
        assert_eq!(g.attempts[1].error, None);
        assert_eq!(g.to_json()["parse_format"], "json_fallback");
    }

    #[test]
    fn case_insensitive_json_keys_in_fence() {
        let g = gen_from(
            "```json\n{\"GOAL\": \"g\", \"Success_Criteria\": \"ok\", \"PREFERENCES\": {\"fast\": true}}\n```",
        )
        .unwrap();
        assert_eq!(g.goal, "g");
        assert_eq!(g.preferences["fast"], Value::Bool(true));
        assert_eq!(g.success_criteria, Some(Value::string("ok")));
        assert_eq!(g.name, "g");
    }

    #[test]
    fn neither_parses_carries_raw_and_both_errors() {
        let raw = "I think you should (intent oops {\"goal\": tru}";
        match gen_from(raw) {
            Err(IntentGenError::Unparsed { raw: r, attempts }) => {
                assert_eq!(r, raw);
                assert_eq!(attempts.len(), 2);
                assert!(attempts.iter().all(|a| a.error.is_some()));
                let msg = IntentGenError::Unparsed {
                    raw: r,
                    attempts: attempts.clone(),
                }
                .to_string();
                assert!(
                    msg.contains("rtfs:") && msg.contains("json_fallback:"),
                    "{msg}"
                );
                assert!(msg.contains("I think you should"), "{msg}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn invalid_rtfs_form_and_invalid_json() {
        // Balanced but not valid RTFS (odd option count), no JSON at all.
        let err = gen_from("(intent \"x\" :goal)").unwrap_err();
        assert!(err.to_string().contains("pairs"), "{err}");
        // Invalid JSON only.
        let err = gen_from("{\"goal\": }").unwrap_err();
        assert!(err.to_string().contains("invalid JSON"), "{err}");
    }

    #[test]
    fn regex_literals_are_sanitised() {
        let g = gen_from("(intent \"x\" :goal \"g\" :constraints {:pattern #\"^a.*\"})").unwrap();
        assert_eq!(g.constraints["pattern"], Value::string("^a.*"));
    }

    #[test]
    fn missing_goal_uses_users_and_llm_errors_pass_through() {
        let g = gen_from("(intent \"only-name\")").unwrap();
        assert_eq!(g.goal, GOAL);
        let p = ScriptedProvider::new(Vec::<String>::new());
        assert!(matches!(
            generate_intent(&p, GOAL),
            Err(IntentGenError::Llm(_))
        ));
        assert!(matches!(
            generate_intent(&p, "  "),
            Err(IntentGenError::EmptyGoal)
        ));
    }
}
