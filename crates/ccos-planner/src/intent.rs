//! Sub-intents: the unit of work that decomposition produces and resolution
//! maps to a capability.
//!
//! A sub-intent says *what* is wanted ("list the open issues of
//! mandubian/ccos"), never *how*: it names no capability. Parameters are
//! literal values extracted from the goal, or references to the result of an
//! earlier sub-intent ([`ParamValue::StepRef`]), which plan generation turns
//! into `let` bindings.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::understand::{Mention, MentionKind};

/// The kind of work a sub-intent asks for. Resolution uses it to favour
/// capabilities with matching effects (an [`IntentType::AskUser`] intent
/// favours `user` effects, [`IntentType::Write`] favours `write`).
///
/// Serialised as a lower-case string (`"fetch"`, `"askuser"`); any other
/// string is kept as [`IntentType::Other`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(into = "String", from = "String")]
pub enum IntentType {
    /// Obtain data (read a file, call an API, list items).
    Fetch,
    /// Reshape data (map, convert, summarise).
    Transform,
    /// Keep the items matching a condition.
    Filter,
    /// Calculate a value (arithmetic, counting).
    Compute,
    /// Show a result to the user.
    Output,
    /// Ask the user a question.
    AskUser,
    /// Change state (write a file, create a record).
    Write,
    /// Anything else, by name.
    Other(String),
}

impl IntentType {
    /// The lower-case name (`fetch`, `askuser`, or the `Other` text).
    pub fn as_str(&self) -> &str {
        match self {
            IntentType::Fetch => "fetch",
            IntentType::Transform => "transform",
            IntentType::Filter => "filter",
            IntentType::Compute => "compute",
            IntentType::Output => "output",
            IntentType::AskUser => "askuser",
            IntentType::Write => "write",
            IntentType::Other(s) => s,
        }
    }

    /// Parses a name, case-insensitively; `ask-user` and `ask_user` are
    /// accepted for [`IntentType::AskUser`]. Unknown names become `Other`.
    pub fn parse(s: &str) -> IntentType {
        match s.to_ascii_lowercase().as_str() {
            "fetch" => IntentType::Fetch,
            "transform" => IntentType::Transform,
            "filter" => IntentType::Filter,
            "compute" => IntentType::Compute,
            "output" => IntentType::Output,
            "askuser" | "ask-user" | "ask_user" => IntentType::AskUser,
            "write" => IntentType::Write,
            _ => IntentType::Other(s.to_string()),
        }
    }
}

impl From<IntentType> for String {
    fn from(t: IntentType) -> String {
        t.as_str().to_string()
    }
}

impl From<String> for IntentType {
    fn from(s: String) -> IntentType {
        IntentType::parse(&s)
    }
}

impl fmt::Display for IntentType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The value of a sub-intent parameter: a literal, or the result of an
/// earlier sub-intent.
///
/// JSON form: `{"literal": <json>}` or `{"step": "s1"}`.
#[derive(Debug, Clone, PartialEq)]
pub enum ParamValue {
    /// A literal extracted from the goal (a path, a number, a name...).
    Literal(rtfs::Value),
    /// The result of the sub-intent with this id.
    StepRef(String),
    /// Inside a "for each" sub-intent ([`SubIntent::each`]): the current
    /// item, or its `field` (a map key), prefixed by `prefix` when not
    /// empty (e.g. a directory joined to an entry's name).
    Item {
        /// Text put before the value (`(str prefix value)`), or empty.
        prefix: String,
        /// The item's key to take (`(get item :field)`), or the item itself.
        field: Option<String>,
    },
}

impl Serialize for ParamValue {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error, SerializeMap};
        let mut m = s.serialize_map(Some(1))?;
        match self {
            ParamValue::Literal(v) => {
                let j = rtfs::to_json(v).map_err(|e| S::Error::custom(e.message))?;
                m.serialize_entry("literal", &j)?;
            }
            ParamValue::StepRef(id) => m.serialize_entry("step", id)?,
            ParamValue::Item { prefix, field } => m.serialize_entry(
                "item",
                &serde_json::json!({"prefix": prefix, "field": field}),
            )?,
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for ParamValue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let j = serde_json::Value::deserialize(d)?;
        let obj = j
            .as_object()
            .filter(|o| o.len() == 1)
            .ok_or_else(|| D::Error::custom("a parameter is {\"literal\": v} or {\"step\": id}"))?;
        if let Some(v) = obj.get("literal") {
            Ok(ParamValue::Literal(rtfs::from_json(v)))
        } else if let Some(id) = obj.get("step").and_then(|s| s.as_str()) {
            Ok(ParamValue::StepRef(id.to_string()))
        } else if let Some(it) = obj.get("item") {
            Ok(ParamValue::Item {
                prefix: it
                    .get("prefix")
                    .and_then(|p| p.as_str())
                    .unwrap_or_default()
                    .to_string(),
                field: it.get("field").and_then(|f| f.as_str()).map(str::to_string),
            })
        } else {
            Err(D::Error::custom(
                "a parameter is {\"literal\": v} or {\"step\": \"id\"}",
            ))
        }
    }
}

/// One step of a decomposed goal: what to do, with which parameters, after
/// which earlier steps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubIntent {
    /// Short id, unique within the goal (`s1`, `s2`, ...).
    pub id: String,
    /// What is wanted, in words; the main input of resolution.
    pub description: String,
    /// The kind of work.
    pub intent_type: IntentType,
    /// Named parameters (names as the goal suggests them; resolution maps
    /// them to schema property names).
    #[serde(default)]
    pub params: BTreeMap<String, ParamValue>,
    /// Ids of earlier sub-intents whose results this one needs.
    #[serde(default)]
    pub depends_on: Vec<String>,
    /// "For each": the id of an earlier sub-intent whose result (a
    /// collection) this one iterates over; the step runs once per item
    /// (`step-loop`) and its result is the vector of the per-item results.
    /// [`ParamValue::Item`] parameters refer to the current item.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub each: Option<String>,
    /// Values the clause states that no parameter name was given for
    /// (clause and whole-goal sub-intents): resolution binds them to a
    /// candidate's parameters by schema ([`crate::understand::bind`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mentions: Vec<Mention>,
    /// The sub-intent is a clause of the goal's own text (clause and
    /// whole-goal decompositions): its parameters are the
    /// [`SubIntent::mentions`], bound by schema, and the clause's words may
    /// fill a parameter that is the user's own text (a message, a query).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub from_text: bool,
    /// Earlier sub-intents that must finish first although their results
    /// are not used ("... then ..."; steps after a write).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub after: Vec<String>,
    /// One call per value: the goal states several coordinated values for
    /// one parameter ("for Lincoln and Washington"), so the step calls the
    /// capability once per value, in the goal's order, and its result is
    /// the vector of the results. The parameter's own entry in
    /// [`SubIntent::params`] holds the first value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fan_out: Option<FanOut>,
    /// The field of the capability's structured result that the goal's
    /// question asks for ("how many stars does acme/rocket have?":
    /// `stargazers_count`): the step's value is that field, not the whole
    /// result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// The step's value is the first item of the result (before
    /// [`SubIntent::answer`]): the one match a lookup by name kept.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub first: bool,
    /// Its result is counted ("how many X does Y have?" read as "list X,
    /// count them"): only a capability that says it returns a list of what
    /// the goal names serves it (counting an object's fields is no answer).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub counted: bool,
    /// The answer is read out of a list of maps (after
    /// [`SubIntent::answer`]): "who directed X" keeps the `crew` whose
    /// `job` is `Director` and answers with their `name`s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<ItemsAnswer>,
    /// With [`SubIntent::first`]: no match is `nil`, not an error (one of
    /// several lookups, [`SubIntent::one_of`], decides).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
    /// The step runs only when this earlier step's value is not `nil`;
    /// otherwise its value is `nil` (the details of a kind of thing the
    /// lookup did not find).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unless_nil: Option<String>,
    /// The answer of the one lookup that found its thing: pairs of (the
    /// lookup's pick step, the step answering for that kind). Exactly one
    /// pick must be non-`nil`; none or several is an error that says so
    /// ("Iron Meadow" as a movie and as a TV show is not guessed). Such a
    /// step calls nothing itself.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub one_of: Vec<(String, String)>,
    /// A loop's results keyed by each item's key (second) of the list
    /// step (first) its chain of loops started from: "count the lines of
    /// each file in docs" answers `{"faq.md" 4 …}`, not `[4 …]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keyed_by: Option<(String, String)>,
}

/// How an answer is read out of a list of maps ([`SubIntent::items`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemsAnswer {
    /// Keep only the maps whose key (first) equals the value (second).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only: Option<(String, String)>,
    /// The key of each kept map that is the answer (`name`, `title`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub each: Option<String>,
    /// The answer is how many maps are kept.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub count: bool,
    /// Maps with the same value of this key are one (`id`: an actor
    /// credited twice in one movie is one movie; two players who share a
    /// name are two): the first of each is kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distinct_by: Option<String>,
    /// Only the first map: the list is ranked by what the question asks
    /// ("the top rated movie" of `top_rated`); an empty list is an error.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub top: bool,
}

/// Several values for one parameter, one call each (see
/// [`SubIntent::fan_out`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FanOut {
    /// The parameter (a key of [`SubIntent::params`]).
    pub param: String,
    /// Its values as JSON, in the goal's order (the first is the params
    /// entry).
    pub values: Vec<serde_json::Value>,
    /// Other parameters that change with it, call by call (the goal states
    /// groups of values: "$30.45 in Chicago, $52.33 in Sacramento"): each
    /// has one value per call, the first being its params entry.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub with: BTreeMap<String, Vec<serde_json::Value>>,
    /// The values were read as groups of a clause's values (see
    /// `understand::bind::grouped`), not as a coordination.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub grouped: bool,
}

impl SubIntent {
    /// A sub-intent with no parameters and no dependencies.
    pub fn new(id: impl Into<String>, description: impl Into<String>, t: IntentType) -> SubIntent {
        SubIntent {
            id: id.into(),
            description: description.into(),
            intent_type: t,
            params: BTreeMap::new(),
            depends_on: Vec::new(),
            each: None,
            mentions: Vec::new(),
            from_text: false,
            after: Vec::new(),
            fan_out: None,
            answer: None,
            first: false,
            counted: false,
            items: None,
            optional: false,
            unless_nil: None,
            one_of: Vec::new(),
            keyed_by: None,
        }
    }

    /// The words that say what to do, for the "fits" bars of resolution:
    /// the description without its [`SubIntent::mentions`] (values are not
    /// evidence of an operation).
    pub fn evidence_text(&self) -> String {
        if !self.from_text {
            self.description.clone()
        } else {
            crate::understand::residual(&self.description, &self.mentions)
        }
    }

    /// The text resolution ranks capabilities with: the description, or,
    /// when the sub-intent carries [`SubIntent::mentions`], the description
    /// without them (values are not what to do) plus a word for each kind
    /// of value that says what it is for (`url`, `file path`, ...).
    pub fn query_text(&self) -> String {
        if !self.from_text {
            return self.description.clone();
        }
        let mut q = crate::understand::residual(&self.description, &self.mentions);
        for h in self.kind_hints() {
            q.push(' ');
            q.push_str(h);
        }
        q
    }

    /// Words naming the kinds of the values the text states (a URL says
    /// "http url", a path "file path"): what a capability taking such a
    /// value is called, though the goal does not say it.
    pub fn kind_hints(&self) -> Vec<&'static str> {
        let mut hints: Vec<&str> = self
            .mentions
            .iter()
            .filter_map(|m| match m.kind {
                MentionKind::Url => Some("url http"),
                MentionKind::Path => Some("file path"),
                MentionKind::FilePattern => Some("files pattern"),
                MentionKind::Repo => Some("repository"),
                MentionKind::Email => Some("email"),
                MentionKind::Date => Some("date"),
                MentionKind::Duration => Some("duration"),
                // "whose city is London" keeps some records: a filter.
                // "what port is set in config.json": a key's value, got.
                MentionKind::Field if m.lookup => Some("key get"),
                // "live in Paris": a condition whose key is not said.
                MentionKind::Field
                    if m.is_relation()
                        || m.cue
                            .before
                            .last()
                            .is_some_and(|w| matches!(w.as_str(), "whose" | "where")) =>
                {
                    Some("key filter")
                }
                // "list docs/ by size": an ordering, though the goal
                // says no "sort".
                MentionKind::Field if m.cue.prep.as_deref() == Some("by") => Some("key sort"),
                MentionKind::Field => Some("key"),
                _ => None,
            })
            .collect();
        hints.sort_unstable();
        hints.dedup();
        hints
    }

    /// The earlier results it takes without naming a parameter for them
    /// (not its loop's list, not passed by name): plan generation feeds
    /// them to the first free required parameters.
    pub fn unnamed_results(&self) -> impl Iterator<Item = &String> {
        self.depends_on.iter().filter(|d| {
            self.each.as_ref() != Some(*d)
                && !self
                    .params
                    .values()
                    .any(|p| p == &ParamValue::StepRef((*d).clone()))
        })
    }

    /// Whether it takes the result of sub-intent `id`: as a parameter, as
    /// its loop's list, or as an ordering dependency.
    pub fn takes_result_of(&self, id: &str) -> bool {
        self.depends_on.iter().any(|d| d == id)
            || self.each.as_deref() == Some(id)
            || self
                .params
                .values()
                .any(|v| matches!(v, ParamValue::StepRef(r) if r == id))
    }

    /// Whether it asks the user to name a file ("ask me for a file", "…
    /// for a file name", "… for the path"): its answer is where the text
    /// is, not the text.
    pub fn asks_for_a_file(&self) -> bool {
        if self.intent_type != IntentType::AskUser {
            return false;
        }
        let d = self.description.to_lowercase();
        let Some(what) = d.split_once(" for ").map(|(_, w)| w.trim()) else {
            return false;
        };
        let what = what
            .strip_prefix("a ")
            .or_else(|| what.strip_prefix("an "))
            .or_else(|| what.strip_prefix("the "))
            .unwrap_or(what);
        let what = ["to read", "to use", "to open", "to count"]
            .iter()
            .find_map(|t| what.strip_suffix(t))
            .unwrap_or(what)
            .trim();
        matches!(
            what,
            "file" | "file name" | "filename" | "path" | "file path" | "text file" | "document"
        )
    }

    /// Adds a literal parameter (builder style).
    pub fn with_param(mut self, name: impl Into<String>, value: rtfs::Value) -> SubIntent {
        self.params.insert(name.into(), ParamValue::Literal(value));
        self
    }

    /// Makes this sub-intent run once per item of `step`'s result (and
    /// depend on it).
    pub fn for_each(mut self, step: impl Into<String>) -> SubIntent {
        let step = step.into();
        if !self.depends_on.contains(&step) {
            self.depends_on.push(step.clone());
        }
        self.each = Some(step);
        self
    }

    /// Adds a parameter fed by an earlier sub-intent, and the dependency.
    pub fn with_step_param(
        mut self,
        name: impl Into<String>,
        step: impl Into<String>,
    ) -> SubIntent {
        let step = step.into();
        if !self.depends_on.contains(&step) {
            self.depends_on.push(step.clone());
        }
        self.params.insert(name.into(), ParamValue::StepRef(step));
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intent_type_round_trips_as_lowercase_string() {
        let j = serde_json::to_string(&IntentType::AskUser).unwrap();
        assert_eq!(j, "\"askuser\"");
        let t: IntentType = serde_json::from_str("\"Fetch\"").unwrap();
        assert_eq!(t, IntentType::Fetch);
        let t: IntentType = serde_json::from_str("\"summarize\"").unwrap();
        assert_eq!(t, IntentType::Other("summarize".into()));
        assert_eq!(IntentType::parse("ask-user"), IntentType::AskUser);
    }

    #[test]
    fn sub_intent_json_round_trip() {
        let s = SubIntent::new("s2", "count the words", IntentType::Compute)
            .with_param("unit", rtfs::Value::string("word"))
            .with_step_param("text", "s1");
        let j = serde_json::to_value(&s).unwrap();
        assert_eq!(
            j,
            serde_json::json!({
                "id": "s2", "description": "count the words", "intent_type": "compute",
                "params": {"text": {"step": "s1"}, "unit": {"literal": "word"}},
                "depends_on": ["s1"]
            })
        );
        let back: SubIntent = serde_json::from_value(j).unwrap();
        assert_eq!(back, s);
        assert!(serde_json::from_str::<ParamValue>("{\"x\": 1}").is_err());
    }
}
