//! LLM decompositions (design doc "Modular Planner"): a goal → sub-intents
//! by asking a model.
//!
//! - [`IntentFirstDecomposition`]: the model sees no tool list (prompt
//!   `prompts/decompose.intent_first.md`), so it cannot invent tool ids.
//! - [`GroundedLlmDecomposition`]: the top-k capabilities the marketplace
//!   search returns for the goal (id, description, parameter names) are put
//!   into the prompt (`prompts/decompose.grounded.md`), so steps are phrased
//!   the way real tools serve them. Bounded: never the whole catalog.
//!
//! The answer is read as RTFS first —
//! `(sub-intents (sub-intent :id "s1" :description "..." :type :fetch
//! :params {...} :depends-on []) ...)`, `(ref "s1")` for an earlier step's
//! result — then as JSON (`{"sub_intents": [{"id", "description", "type",
//! "params", "depends_on"}]}`, `{"step": "s1"}` / `{"$ref": "s1"}` for a
//! reference). Validation is strict (unique ids, dependencies only on
//! earlier ids, at most [`MAX_SUB_INTENTS`]); an invalid answer is a
//! [`DecompositionError::Strategy`] naming the reason — never a silent
//! `Ok(None)` — so `HybridDecomposition` records it and moves on.
//! Sub-intents never name capabilities: resolution picks real ones.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::intent_gen::{normalise_key, text_of};
use ccos_llm::{LlmProvider, LlmRequest, Message, Prompt};
use ccos_marketplace::{CapabilityManifest, Marketplace};
use rtfs::Value;

use ccos_planner::decompose::{DecompositionError, DecompositionStrategy};
use ccos_planner::intent::{IntentType, ParamValue, SubIntent};

/// The intent-first prompt template.
pub const INTENT_FIRST_PROMPT: &str = include_str!("../prompts/decompose.intent_first.md");
/// The grounded prompt template.
pub const GROUNDED_PROMPT: &str = include_str!("../prompts/decompose.grounded.md");

/// Most sub-intents an answer may have.
pub const MAX_SUB_INTENTS: usize = 12;
/// Default number of capabilities shown to the grounded decomposition.
pub const DEFAULT_TOP_K: usize = 8;
/// Token bound of a decomposition answer.
const MAX_TOKENS: u32 = 1500;
/// Longest capability description put into the grounded prompt (chars).
const MAX_DESCRIPTION_CHARS: usize = 200;
/// Most parameter names listed per capability in the grounded prompt.
const MAX_PARAMS_SHOWN: usize = 12;

/// Decomposition by a model that sees no tool list.
pub struct IntentFirstDecomposition {
    provider: Arc<dyn LlmProvider>,
}

impl IntentFirstDecomposition {
    /// A decomposition asking `provider`.
    pub fn new(provider: Arc<dyn LlmProvider>) -> IntentFirstDecomposition {
        IntentFirstDecomposition { provider }
    }

    /// The request for `goal` (prompt `decompose.intent_first@1`).
    pub fn request(&self, goal: &str) -> Result<LlmRequest, DecompositionError> {
        let mut values = BTreeMap::new();
        values.insert("goal", goal.to_string());
        values.insert("max_steps", MAX_SUB_INTENTS.to_string());
        render(
            self.name(),
            "prompts/decompose.intent_first.md",
            INTENT_FIRST_PROMPT,
            &values,
        )
    }
}

impl DecompositionStrategy for IntentFirstDecomposition {
    fn name(&self) -> &str {
        "llm-intent-first"
    }

    fn decompose(&self, goal: &str) -> Result<Option<Vec<SubIntent>>, DecompositionError> {
        let request = self.request(goal)?;
        ask(self.name(), self.provider.as_ref(), &request).map(Some)
    }
}

/// Decomposition by a model shown the top-k capabilities for the goal.
pub struct GroundedLlmDecomposition {
    provider: Arc<dyn LlmProvider>,
    marketplace: Arc<Marketplace>,
    top_k: usize,
}

impl GroundedLlmDecomposition {
    /// A decomposition asking `provider`, grounded in the
    /// [`DEFAULT_TOP_K`] best matches of `marketplace` for the goal.
    pub fn new(
        provider: Arc<dyn LlmProvider>,
        marketplace: Arc<Marketplace>,
    ) -> GroundedLlmDecomposition {
        GroundedLlmDecomposition {
            provider,
            marketplace,
            top_k: DEFAULT_TOP_K,
        }
    }

    /// Shows `k` capabilities instead (at least 1).
    pub fn with_top_k(mut self, k: usize) -> GroundedLlmDecomposition {
        self.top_k = k.max(1);
        self
    }

    /// The capabilities shown for `goal`: the marketplace search's top k.
    pub fn grounding(&self, goal: &str) -> Result<Vec<CapabilityManifest>, DecompositionError> {
        let hits = self
            .marketplace
            .search(goal, self.top_k)
            .map_err(|e| strategy_err(self.name(), format!("searching the catalog: {e}")))?;
        Ok(hits
            .into_iter()
            .take(self.top_k)
            .filter_map(|(id, _)| self.marketplace.get(&id))
            .collect())
    }

    /// The request for `goal` (prompt `decompose.grounded@1`), or `None`
    /// when no capability matches the goal at all (grounding has nothing to
    /// offer; the next strategy should try).
    pub fn request(&self, goal: &str) -> Result<Option<LlmRequest>, DecompositionError> {
        let caps = self.grounding(goal)?;
        if caps.is_empty() {
            return Ok(None);
        }
        let mut values = BTreeMap::new();
        values.insert("goal", goal.to_string());
        values.insert("max_steps", MAX_SUB_INTENTS.to_string());
        values.insert("capabilities", capability_lines(&caps));
        render(
            self.name(),
            "prompts/decompose.grounded.md",
            GROUNDED_PROMPT,
            &values,
        )
        .map(Some)
    }
}

impl DecompositionStrategy for GroundedLlmDecomposition {
    fn name(&self) -> &str {
        "llm-grounded"
    }

    fn decompose(&self, goal: &str) -> Result<Option<Vec<SubIntent>>, DecompositionError> {
        let Some(request) = self.request(goal)? else {
            return Ok(None);
        };
        ask(self.name(), self.provider.as_ref(), &request).map(Some)
    }
}

/// The seed's hybrid order with an LLM: patterns → grounded (top
/// [`DEFAULT_TOP_K`] of `marketplace`) → intent-first → clauses → whole
/// goal. Failures of the LLM strategies are recorded in the outcome.
pub fn hybrid_with_llm(
    patterns: ccos_planner::decompose::PatternDecomposition,
    provider: Arc<dyn LlmProvider>,
    marketplace: Arc<Marketplace>,
) -> ccos_planner::decompose::HybridDecomposition {
    ccos_planner::decompose::HybridDecomposition::new(patterns)
        .with_extra(Box::new(GroundedLlmDecomposition::new(
            provider.clone(),
            marketplace,
        )))
        .with_extra(Box::new(IntentFirstDecomposition::new(provider)))
}

/// One line per capability: `- id: description (params: a, b)`.
pub fn capability_lines(caps: &[CapabilityManifest]) -> String {
    let mut out = String::new();
    for c in caps {
        let mut desc: String = c
            .description
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if desc.chars().count() > MAX_DESCRIPTION_CHARS {
            desc = desc.chars().take(MAX_DESCRIPTION_CHARS).collect::<String>() + "…";
        }
        out.push_str(&format!(
            "- {}: {desc} ({})\n",
            c.id,
            param_summary(&c.input_schema)
        ));
    }
    out
}

/// `params: a, b` for an object schema (required ones first as declared),
/// `positional: number, number` for an array schema, `no parameters`.
fn param_summary(schema: &serde_json::Value) -> String {
    if let Some(props) = schema.get("properties").and_then(|p| p.as_object()) {
        let names: Vec<&str> = props.keys().map(String::as_str).collect();
        if names.is_empty() {
            return "no parameters".into();
        }
        let shown = names.len().min(MAX_PARAMS_SHOWN);
        let mut s = format!("params: {}", names[..shown].join(", "));
        if names.len() > shown {
            s.push_str(&format!(", … {} more", names.len() - shown));
        }
        return s;
    }
    if let Some(items) = schema.get("prefixItems").and_then(|p| p.as_array()) {
        let types: Vec<String> = items
            .iter()
            .take(MAX_PARAMS_SHOWN)
            .map(|i| {
                i.get("title")
                    .or_else(|| i.get("type"))
                    .and_then(|t| t.as_str())
                    .unwrap_or("any")
                    .to_string()
            })
            .collect();
        return format!("positional: {}", types.join(", "));
    }
    "no parameters".into()
}

fn strategy_err(strategy: &str, message: impl Into<String>) -> DecompositionError {
    DecompositionError::Strategy {
        strategy: strategy.to_string(),
        message: message.into(),
    }
}

fn render(
    strategy: &str,
    source: &str,
    template: &str,
    values: &BTreeMap<&str, String>,
) -> Result<LlmRequest, DecompositionError> {
    let prompt =
        Prompt::parse(source, template).map_err(|e| strategy_err(strategy, e.to_string()))?;
    let text = prompt
        .render(values)
        .map_err(|e| strategy_err(strategy, e.to_string()))?;
    Ok(LlmRequest::new(prompt.key(), vec![Message::user(text)]).max_tokens(MAX_TOKENS))
}

/// Asks the model and reads + validates its answer.
fn ask(
    strategy: &str,
    provider: &dyn LlmProvider,
    request: &LlmRequest,
) -> Result<Vec<SubIntent>, DecompositionError> {
    let answer = provider
        .generate_text(request)
        .map_err(|e| strategy_err(strategy, format!("asking the model: {e}")))?;
    parse_sub_intents(&answer.text).map_err(|e| strategy_err(strategy, e))
}

/// Reads sub-intents from a model's answer: RTFS first, then JSON; then
/// validates them. The error names both attempts' failures and the start of
/// the raw answer.
pub fn parse_sub_intents(raw: &str) -> Result<Vec<SubIntent>, String> {
    let rtfs_err = match parse_rtfs(raw) {
        Ok(drafts) => return validate(drafts),
        Err(e) => e,
    };
    let json_err = match parse_json(raw) {
        Ok(drafts) => return validate(drafts),
        Err(e) => e,
    };
    let start: String = raw.chars().take(300).collect();
    Err(format!(
        "answer is neither RTFS nor JSON sub-intents (rtfs: {rtfs_err}; json: {json_err}); raw answer starts: {start:?}"
    ))
}

/// A sub-intent as read, before validation.
#[derive(Debug, Default)]
struct Draft {
    id: String,
    description: String,
    intent_type: String,
    params: BTreeMap<String, RawParam>,
    depends_on: Vec<String>,
    each: Option<String>,
}

/// A parameter as read.
#[derive(Debug)]
enum RawParam {
    Literal(Value),
    Ref(String),
    /// A bare symbol: a reference when it names an earlier id, else text.
    Symbol(String),
    Item(Option<String>),
}

fn parse_rtfs(raw: &str) -> Result<Vec<Draft>, String> {
    let form = ccos_llm::extract_form(raw, "sub-intents").map_err(|e| e.to_string())?;
    let expr = rtfs::parse_one(&form.text).map_err(|e| {
        let (l, c) = e
            .span
            .map(|s| rtfs::line_col(&form.text, s.start))
            .unwrap_or((1, 1));
        format!(
            "RTFS parse error at line {} of the form (answer line {}), column {c}: {}",
            l,
            form.line + l - 1,
            e.message
        )
    })?;
    let value = expr.to_value();
    let Value::List(items) = &value else {
        return Err("(sub-intents ...) is not a list".into());
    };
    let mut entries: Vec<Value> = vec![];
    for item in items.iter().skip(1) {
        match item {
            Value::Vector(inner) => entries.extend(inner.iter().cloned()),
            other => entries.push(other.clone()),
        }
    }
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| rtfs_draft(i, e))
        .collect()
}

fn rtfs_draft(i: usize, e: &Value) -> Result<Draft, String> {
    let n = i + 1;
    let Value::List(parts) = e else {
        return Err(format!("entry {n} is not a (sub-intent ...) form"));
    };
    match parts.first() {
        Some(Value::Symbol(s)) if s.as_ref() == "sub-intent" => {}
        _ => return Err(format!("entry {n} is not a (sub-intent ...) form")),
    }
    let opts = &parts[1..];
    if opts.len() % 2 != 0 {
        return Err(format!("sub-intent {n}: options must be :key value pairs"));
    }
    let mut d = Draft::default();
    for pair in opts.chunks(2) {
        let Value::Keyword(k) = &pair[0] else {
            return Err(format!(
                "sub-intent {n}: expected a keyword, found {}",
                rtfs::print_value(&pair[0])
            ));
        };
        let v = &pair[1];
        match normalise_key(k).as_str() {
            "id" => d.id = text_of(v),
            "description" => d.description = text_of(v),
            "type" | "intenttype" => d.intent_type = text_of(v),
            "params" | "parameters" => match v {
                Value::Map(m) => {
                    for (pk, pv) in m.iter() {
                        d.params.insert(text_of(pk), rtfs_param(pv));
                    }
                }
                Value::Nil => {}
                other => {
                    return Err(format!(
                        "sub-intent {n}: :params must be a map, found {}",
                        rtfs::print_value(other)
                    ));
                }
            },
            "dependson" | "deps" => d.depends_on = id_list(v),
            "each" | "foreach" => d.each = Some(text_of(v)),
            _ => {} // tolerated (e.g. :capability), never used
        }
    }
    Ok(d)
}

fn id_list(v: &Value) -> Vec<String> {
    match v {
        Value::Vector(items) | Value::List(items) => items.iter().map(text_of).collect(),
        Value::Nil => vec![],
        other => vec![text_of(other)],
    }
}

fn rtfs_param(v: &Value) -> RawParam {
    if let Value::List(items) = v
        && let Some(Value::Symbol(head)) = items.first()
    {
        match (head.as_ref(), items.get(1), items.len()) {
            ("ref", Some(id), 2) => return RawParam::Ref(text_of(id)),
            ("item", None, 1) => return RawParam::Item(None),
            ("item", Some(f), 2) => return RawParam::Item(Some(text_of(f))),
            _ => {}
        }
    }
    if let Value::Symbol(s) = v {
        return RawParam::Symbol(s.to_string());
    }
    RawParam::Literal(v.clone())
}

fn parse_json(raw: &str) -> Result<Vec<Draft>, String> {
    let v = ccos_llm::extract_json_object(raw).map_err(|e| e.to_string())?;
    let obj = v.as_object().ok_or("the JSON answer is not an object")?;
    let list = obj
        .iter()
        .find(|(k, _)| {
            matches!(
                normalise_key(k).as_str(),
                "subintents" | "steps" | "intents"
            )
        })
        .and_then(|(_, v)| v.as_array())
        .ok_or("no \"sub_intents\" array in the JSON object")?;
    list.iter()
        .enumerate()
        .map(|(i, item)| {
            let n = i + 1;
            let o = item
                .as_object()
                .ok_or_else(|| format!("sub_intents[{i}] is not an object"))?;
            let mut d = Draft::default();
            for (k, v) in o {
                let s = || match v {
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                match normalise_key(k).as_str() {
                    "id" => d.id = s(),
                    "description" => d.description = s(),
                    "type" | "intenttype" => d.intent_type = s(),
                    "params" | "parameters" => match v {
                        serde_json::Value::Object(m) => {
                            for (pk, pv) in m {
                                d.params.insert(pk.clone(), json_param(pv));
                            }
                        }
                        serde_json::Value::Null => {}
                        _ => return Err(format!("sub-intent {n}: params must be an object")),
                    },
                    "dependson" | "deps" => {
                        d.depends_on = match v {
                            serde_json::Value::Array(a) => a
                                .iter()
                                .map(|x| {
                                    x.as_str()
                                        .map(str::to_string)
                                        .unwrap_or_else(|| x.to_string())
                                })
                                .collect(),
                            serde_json::Value::Null => vec![],
                            serde_json::Value::String(x) => vec![x.clone()],
                            other => vec![other.to_string()],
                        }
                    }
                    "each" | "foreach" => d.each = Some(s()),
                    _ => {}
                }
            }
            Ok(d)
        })
        .collect()
}

fn json_param(v: &serde_json::Value) -> RawParam {
    if let Some(o) = v.as_object()
        && o.len() == 1
    {
        for key in ["step", "$ref", "ref"] {
            if let Some(id) = o.get(key).and_then(|x| x.as_str()) {
                return RawParam::Ref(id.to_string());
            }
        }
        if let Some(item) = o.get("item") {
            return RawParam::Item(item.as_str().map(str::to_string));
        }
    }
    RawParam::Literal(rtfs::from_json(v))
}

/// Strict validation (see the module docs) and conversion.
fn validate(drafts: Vec<Draft>) -> Result<Vec<SubIntent>, String> {
    if drafts.is_empty() {
        return Err("the answer has no sub-intents".into());
    }
    if drafts.len() > MAX_SUB_INTENTS {
        return Err(format!(
            "the answer has {} sub-intents, at most {MAX_SUB_INTENTS} are allowed",
            drafts.len()
        ));
    }
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut out = Vec::with_capacity(drafts.len());
    for (i, d) in drafts.into_iter().enumerate() {
        let n = i + 1;
        let id = d.id.trim().to_string();
        if id.is_empty() {
            return Err(format!("sub-intent {n} has no id"));
        }
        if seen.contains(&id) {
            return Err(format!("duplicate sub-intent id {id:?}"));
        }
        let description = d.description.trim().to_string();
        if description.is_empty() {
            return Err(format!("sub-intent {id} has no description"));
        }
        let earlier = |dep: &str, what: &str| -> Result<(), String> {
            if seen.contains(dep) {
                Ok(())
            } else {
                Err(format!(
                    "sub-intent {id}: {what} {dep:?} is not an earlier sub-intent"
                ))
            }
        };
        let t = d.intent_type.trim().trim_start_matches(':');
        let intent_type = if t.is_empty() {
            IntentType::Other("goal".into())
        } else {
            IntentType::parse(t)
        };
        let mut s = SubIntent::new(id.clone(), description, intent_type);
        for dep in &d.depends_on {
            let dep = dep.trim();
            earlier(dep, "dependency")?;
            if !s.depends_on.iter().any(|x| x == dep) {
                s.depends_on.push(dep.to_string());
            }
        }
        if let Some(each) = &d.each {
            earlier(each.trim(), "`each` source")?;
            s = s.for_each(each.trim());
        }
        for (name, p) in d.params {
            let value = match p {
                RawParam::Literal(v) => ParamValue::Literal(v),
                RawParam::Ref(r) => {
                    earlier(&r, "reference")?;
                    if !s.depends_on.contains(&r) {
                        s.depends_on.push(r.clone());
                    }
                    ParamValue::StepRef(r)
                }
                RawParam::Symbol(sym) if seen.contains(&sym) => {
                    if !s.depends_on.contains(&sym) {
                        s.depends_on.push(sym.clone());
                    }
                    ParamValue::StepRef(sym)
                }
                RawParam::Symbol(sym) => ParamValue::Literal(Value::string(&sym)),
                RawParam::Item(field) => {
                    if s.each.is_none() {
                        return Err(format!(
                            "sub-intent {id}: parameter {name} refers to the current item but the sub-intent has no `each`"
                        ));
                    }
                    ParamValue::Item {
                        prefix: String::new(),
                        field,
                    }
                }
            };
            s.params.insert(name, value);
        }
        seen.insert(id);
        out.push(s);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ccos_llm::ScriptedProvider;
    use ccos_planner::decompose::{HybridDecomposition, HybridPath, PatternDecomposition};
    use serde_json::json;

    const TWO_STEPS: &str = r#"(sub-intents
  (sub-intent :id "s1" :description "read the file notes.txt" :type :fetch :params {:path "notes.txt"} :depends-on [])
  (sub-intent :id "s2" :description "count the words" :type :compute :params {:text (ref "s1")} :depends-on ["s1"]))"#;

    fn scripted(answers: &[&str]) -> Arc<ScriptedProvider> {
        Arc::new(ScriptedProvider::new(answers.iter().map(|s| s.to_string())))
    }

    fn check_two(v: &[SubIntent]) {
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].intent_type, IntentType::Fetch);
        assert_eq!(
            v[0].params["path"],
            ParamValue::Literal(Value::string("notes.txt"))
        );
        assert_eq!(v[1].params["text"], ParamValue::StepRef("s1".into()));
        assert_eq!(v[1].depends_on, vec!["s1".to_string()]);
    }

    #[test]
    fn rtfs_with_prose_and_fences() {
        check_two(&parse_sub_intents(&format!("Here is my plan:\n{TWO_STEPS}\nDone.")).unwrap());
        check_two(&parse_sub_intents(&format!("```rtfs\n{TWO_STEPS}\n```")).unwrap());
    }

    #[test]
    fn truncated_rtfs_then_json() {
        let cut = &TWO_STEPS[..80];
        let j = json!({"Sub_Intents": [
            {"id": "s1", "description": "read the file notes.txt", "type": "fetch", "params": {"path": "notes.txt"}},
            {"ID": "s2", "Description": "count the words", "intent_type": "compute", "params": {"text": {"step": "s1"}}, "depends_on": []}
        ]});
        check_two(&parse_sub_intents(&format!("{cut}\n\n```json\n{j}\n```")).unwrap());
    }

    #[test]
    fn invalid_answers_are_errors_naming_the_reason() {
        let e = parse_sub_intents("no idea").unwrap_err();
        assert!(
            e.contains("rtfs:") && e.contains("json:") && e.contains("no idea"),
            "{e}"
        );
        let e = parse_sub_intents(
            r#"(sub-intents (sub-intent :id "s1" :description "a" :depends-on ["s2"]) (sub-intent :id "s2" :description "b"))"#,
        )
        .unwrap_err();
        assert!(e.contains("not an earlier"), "{e}");
        let e = parse_sub_intents(
            r#"(sub-intents (sub-intent :id "s1" :description "a") (sub-intent :id "s1" :description "b"))"#,
        )
        .unwrap_err();
        assert!(e.contains("duplicate"), "{e}");
        let many: String = (1..=13)
            .map(|i| format!("(sub-intent :id \"s{i}\" :description \"d\")"))
            .collect();
        let e = parse_sub_intents(&format!("(sub-intents {many})")).unwrap_err();
        assert!(e.contains("at most 12"), "{e}");
        let e = parse_sub_intents("{\"sub_intents\": [{\"id\": \"s1\"}]}").unwrap_err();
        assert!(e.contains("no description"), "{e}");
        let e = parse_sub_intents("{\"sub_intents\": [").unwrap_err();
        assert!(e.contains("never closed"), "{e}");
    }

    #[test]
    fn unknown_types_and_each() {
        let v = parse_sub_intents(
            r#"(sub-intents (sub-intent :id "s1" :description "list files" :type :fetch)
                (sub-intent :id "s2" :description "summarise each" :type :summarize :each "s1" :params {:path (item "name") :mode fast}))"#,
        )
        .unwrap();
        assert_eq!(v[1].intent_type, IntentType::Other("summarize".into()));
        assert_eq!(v[1].each.as_deref(), Some("s1"));
        assert_eq!(v[1].depends_on, vec!["s1".to_string()]);
        assert_eq!(
            v[1].params["path"],
            ParamValue::Item {
                prefix: String::new(),
                field: Some("name".into())
            }
        );
        assert_eq!(
            v[1].params["mode"],
            ParamValue::Literal(Value::string("fast"))
        );
    }

    #[test]
    fn intent_first_prompt_has_no_tools() {
        let p = scripted(&[TWO_STEPS]);
        let d = IntentFirstDecomposition::new(p.clone());
        check_two(&d.decompose("count words in notes.txt").unwrap().unwrap());
        let req = &p.requests()[0];
        assert_eq!(req.prompt_id, "decompose.intent_first@1");
        assert!(req.messages[0].content.contains("count words in notes.txt"));
        assert!(!req.messages[0].content.contains("ccos."));
    }

    fn catalog(n: usize) -> Arc<Marketplace> {
        let mp = Marketplace::new().unwrap();
        let topics = [
            "weather", "issues", "files", "email", "calendar", "stocks", "maps", "music",
        ];
        let manifests: Vec<CapabilityManifest> = (0..n)
            .map(|i| {
                let topic = topics[i % topics.len()];
                CapabilityManifest::new(
                    format!("test.{topic}.op{i}"),
                    format!("Operation {i} on {topic}: lists, reads or updates {topic} records for a user account with paging and filters"),
                    json!({"type": "object", "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}, "page": {"type": "integer"}}}),
                )
            })
            .collect();
        mp.replace_all(manifests).unwrap();
        Arc::new(mp)
    }

    #[test]
    fn grounded_prompt_holds_only_top_k() {
        let mp = catalog(1000);
        let p = scripted(&[TWO_STEPS]);
        let d = GroundedLlmDecomposition::new(p.clone(), mp);
        d.decompose("list the weather records").unwrap().unwrap();
        let req = &p.requests()[0];
        assert_eq!(req.prompt_id, "decompose.grounded@1");
        let text = &req.messages[0].content;
        let listed = text.lines().filter(|l| l.starts_with("- test.")).count();
        assert_eq!(listed, DEFAULT_TOP_K);
        assert!(text.contains("params: query, limit, page"), "{text}");
        // Bounded: the template plus k lines of bounded length.
        assert!(req.approx_tokens() < 1500, "{}", req.approx_tokens());
    }

    #[test]
    fn grounded_with_no_match_offers_nothing() {
        let p = scripted(&[]);
        let d = GroundedLlmDecomposition::new(p.clone(), catalog(10));
        assert!(d.decompose("zzzqqq").unwrap().is_none());
        assert_eq!(p.calls(), 0);
    }

    /// Prompt size of the grounded decomposition by catalog size (printed;
    /// run with `--nocapture` to see the figures).
    #[test]
    fn grounded_prompt_tokens_by_catalog_size() {
        let mut sizes = vec![];
        for n in [10, 100, 1000] {
            let d = GroundedLlmDecomposition::new(scripted(&[]), catalog(n));
            let req = d.request("list the weather records").unwrap().unwrap();
            sizes.push(req.approx_tokens());
            let whole = ccos_llm::approx_tokens([capability_lines(&d.marketplace.list()).as_str()]);
            println!(
                "grounded prompt, catalog of {n}: ~{} tokens (listing the whole catalog instead: ~{whole})",
                req.approx_tokens()
            );
        }
        // Bounded by k, not by the catalog: only id lengths vary.
        assert!(sizes[2] < sizes[0] + 40, "{sizes:?}");
    }

    #[test]
    fn hybrid_order_and_recorded_failures() {
        let patterns = PatternDecomposition::builtin().unwrap();
        // A goal no pattern matches: grounded answers garbage (recorded),
        // intent-first answers well.
        let grounded_p = scripted(&["I cannot help"]);
        let first_p = scripted(&[TWO_STEPS]);
        let h = HybridDecomposition::new(patterns)
            .with_extra(Box::new(GroundedLlmDecomposition::new(
                grounded_p.clone(),
                catalog(20),
            )))
            .with_extra(Box::new(IntentFirstDecomposition::new(first_p.clone())));
        // The helper builds the same order: one provider, asked by the
        // grounded strategy first (garbage), then by intent-first.
        let one = scripted(&["nonsense", TWO_STEPS]);
        let h2 = hybrid_with_llm(
            PatternDecomposition::builtin().unwrap(),
            one.clone(),
            catalog(20),
        );
        let out2 = h2
            .decompose_traced("list the weather records then tell me")
            .unwrap();
        assert_eq!(out2.strategy, "llm-intent-first");
        let prompts: Vec<String> = one.requests().iter().map(|r| r.prompt_id.clone()).collect();
        assert_eq!(
            prompts,
            vec!["decompose.grounded@1", "decompose.intent_first@1"]
        );
        let out = h
            .decompose_traced("list the weather records then tell me")
            .unwrap();
        assert_eq!(out.path, HybridPath::Extra);
        assert_eq!(out.strategy, "llm-intent-first");
        check_two(&out.sub_intents);
        assert_eq!(out.failures.len(), 1);
        assert_eq!(out.failures[0].strategy, "llm-grounded");
        assert!(
            out.failures[0].reason.contains("I cannot help"),
            "{:?}",
            out.failures
        );
        assert_eq!((grounded_p.calls(), first_p.calls()), (1, 1));

        // A pattern goal never asks the model.
        let p = scripted(&[]);
        let h = HybridDecomposition::new(PatternDecomposition::builtin().unwrap())
            .with_extra(Box::new(IntentFirstDecomposition::new(p.clone())));
        let (_, path) = h
            .decompose_with_path("read notes.txt and count lines")
            .unwrap();
        assert_eq!(path, HybridPath::Pattern);
        assert_eq!(p.calls(), 0);

        // Both LLM strategies fail (script exhausted): clauses / fallback.
        let h = HybridDecomposition::new(PatternDecomposition::builtin().unwrap())
            .with_extra(Box::new(IntentFirstDecomposition::new(scripted(&[]))));
        let out = h.decompose_traced("book me a flight to Paris").unwrap();
        assert_eq!(out.path, HybridPath::Fallback);
        assert_eq!(out.failures.len(), 1);
        assert!(
            out.failures[0].reason.contains("no answer left"),
            "{:?}",
            out.failures
        );
    }
}
