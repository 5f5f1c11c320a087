//! [`PatternDecomposition`]: deterministic decomposition by regex rules
//! read from TOML (the format is documented in `rules/patterns.toml`).

use std::collections::BTreeMap;
use std::path::Path;

use regex::Regex;
use serde::Deserialize;

use super::{DecompositionError, DecompositionStrategy};
use crate::intent::{IntentType, ParamValue, SubIntent};

/// The rules shipped with the crate (`rules/patterns.toml`).
pub const DEFAULT_RULES: &str = include_str!("../../rules/patterns.toml");

/// Regex shorthand for a file path: a quoted string, a token with a `/`,
/// or a token with a file extension.
const FILE: &str =
    r#"(?:"[^"]+"|'[^']+'|[\w.~-]*/[\w./~-]*|[\w~-][\w.~-]*\.[A-Za-z][A-Za-z0-9]{0,7})"#;
/// Regex shorthand for a directory: a quoted string or a path-like token
/// (a bare name such as `docs` included).
const DIR: &str = r#"(?:"[^"]+"|'[^']+'|[\w.~/-]+)"#;
/// Regex shorthand for a number: ASCII digits only (`\d` is Unicode in
/// the regex crate, and `٣` or `３` would pass as a number here and fail
/// as one later).
/// Thousands separators group (`1,000`), as the mention scan reads them.
const NUM: &str = r"(?:-?[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?|-?[0-9]+(?:\.[0-9]+)?)";
/// Regex shorthand for a quoted string.
const TEXT: &str = r#"(?:"[^"]*"|'[^']*')"#;

/// Regex shorthand for a repository `owner/name`.
const REPO: &str = r"(?:[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)";

/// Most " and " a segment may be cut at (see `match_segment`).
const MAX_AND_CUTS: usize = 6;

/// Strong connectors cutting a goal into segments.
const CONNECTORS: &str =
    r"\s*;\s*|\s*,\s*(?:and\s+)?then\s+|\s*,\s*and\s+|\s+and\s+then\s+|\s+then\s+|\s*,\s*";

/// One sub-intent template of a rule.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleStep {
    /// Intent type name (`fetch`, `compute`...).
    #[serde(rename = "type")]
    pub intent_type: String,
    /// Description template (`{capture}` placeholders).
    pub description: String,
    /// Parameter templates: `"{capture}"` (typed), other text (string), or
    /// `"$prev"` (the previous sub-intent's result).
    #[serde(default)]
    pub params: BTreeMap<String, String>,
    /// `"$prev"`: run this sub-intent once per item of the previous
    /// sub-intent's result (a `step-loop`); its params may then use
    /// `"$item"` or `"$item.field"`, optionally after text
    /// (`"{dir}/$item.name"`).
    #[serde(default)]
    pub each: Option<String>,
    /// With `each`: the loop's results keyed by this key of the items of
    /// the list the chain of loops started from (`"name"`: file names with
    /// their counts).
    #[serde(default)]
    pub keyed: Option<String>,
}

/// One rule: a regex matched against a whole segment, and the sub-intents
/// it produces.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// Unique name, for traces.
    pub name: String,
    /// The regex (shorthands `FILE`, `NUM`, `TEXT`, `REPO` expanded).
    pub pattern: String,
    /// The sub-intents produced, in order.
    #[serde(rename = "step")]
    pub steps: Vec<RuleStep>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesFile {
    #[serde(default, rename = "rule")]
    rules: Vec<Rule>,
}

struct Compiled {
    rule: Rule,
    re: Regex,
}

/// Deterministic decomposition by rules (see the module docs and
/// `rules/patterns.toml`).
pub struct PatternDecomposition {
    rules: Vec<Compiled>,
    connectors: Regex,
    quoted: Regex,
    source_name: String,
}

/// A sub-intent produced by a rule before ids are assigned.
struct Draft {
    intent_type: IntentType,
    description: String,
    params: BTreeMap<String, DraftParam>,
    /// Iterates over the previous sub-intent's result.
    each: bool,
    /// Its results keyed by this key of the loop chain's list.
    keyed: Option<String>,
}

enum DraftParam {
    Literal(rtfs::Value),
    Prev,
    Item {
        prefix: String,
        field: Option<String>,
    },
}

impl PatternDecomposition {
    /// The built-in rules.
    pub fn builtin() -> Result<PatternDecomposition, DecompositionError> {
        PatternDecomposition::from_toml(DEFAULT_RULES, "built-in")
    }

    /// Rules parsed from TOML text; `source_name` names it in errors.
    pub fn from_toml(
        src: &str,
        source_name: &str,
    ) -> Result<PatternDecomposition, DecompositionError> {
        let err = |message: String| DecompositionError::Rules {
            source_name: source_name.to_string(),
            message,
        };
        let file: RulesFile = toml::from_str(src).map_err(|e| err(e.to_string()))?;
        let mut rules = Vec::with_capacity(file.rules.len());
        let mut names = std::collections::BTreeSet::new();
        for rule in file.rules {
            if !names.insert(rule.name.clone()) {
                return Err(err(format!("duplicate rule name {:?}", rule.name)));
            }
            if rule.steps.is_empty() {
                return Err(err(format!("rule {:?} has no [[rule.step]]", rule.name)));
            }
            for st in &rule.steps {
                if st.each.as_deref().is_some_and(|e| e != "$prev") {
                    return Err(err(format!("rule {:?}: each must be \"$prev\"", rule.name)));
                }
                if st.each.is_none() && st.keyed.is_some() {
                    return Err(err(format!(
                        "rule {:?}: `keyed` outside an `each` step",
                        rule.name
                    )));
                }
                if st.each.is_none() && st.params.values().any(|t| t.contains("$item")) {
                    return Err(err(format!(
                        "rule {:?}: \"$item\" outside an `each` step",
                        rule.name
                    )));
                }
            }
            let expanded = rule
                .pattern
                .replace("DIR", DIR)
                .replace("FILE", FILE)
                .replace("NUM", NUM)
                .replace("TEXT", TEXT)
                .replace("REPO", REPO);
            let re = Regex::new(&format!("(?i)^(?:{expanded})$"))
                .map_err(|e| err(format!("rule {:?}: bad pattern: {e}", rule.name)))?;
            rules.push(Compiled { rule, re });
        }
        Ok(PatternDecomposition {
            rules,
            connectors: Regex::new(CONNECTORS).map_err(|e| err(e.to_string()))?,
            quoted: Regex::new(TEXT).map_err(|e| err(e.to_string()))?,
            source_name: source_name.to_string(),
        })
    }

    /// `$CCOS_HOME/patterns.toml` when it exists, else the built-in rules.
    pub fn load(home: &Path) -> Result<PatternDecomposition, DecompositionError> {
        let path = home.join("patterns.toml");
        match ccos_core::text::read_file_bounded(&path, ccos_core::text::MAX_INPUT_BYTES, true) {
            Ok(Some(src)) => PatternDecomposition::from_toml(&src, &path.display().to_string()),
            Ok(None) => PatternDecomposition::builtin(),
            Err(message) => Err(DecompositionError::Rules {
                source_name: path.display().to_string(),
                message,
            }),
        }
    }

    /// Where the rules came from (`built-in` or a path).
    pub fn source_name(&self) -> &str {
        &self.source_name
    }

    /// The rule names, in order.
    pub fn rule_names(&self) -> Vec<&str> {
        self.rules.iter().map(|c| c.rule.name.as_str()).collect()
    }

    /// Cuts the goal at strong connectors outside quotes.
    fn segments<'a>(&self, goal: &'a str) -> Vec<&'a str> {
        let quotes: Vec<(usize, usize)> = self
            .quoted
            .find_iter(goal)
            .map(|m| (m.start(), m.end()))
            .collect();
        let mut out = vec![];
        let mut start = 0;
        for m in self.connectors.find_iter(goal) {
            if quotes.iter().any(|(s, e)| m.start() < *e && m.end() > *s) {
                continue;
            }
            // A thousands separator is no connector: `1,000`.
            if m.as_str() == ","
                && goal[..m.start()].ends_with(|c: char| c.is_ascii_digit())
                && ccos_core::text::thousands_group_follows(goal[m.end()..].chars())
            {
                continue;
            }
            out.push(&goal[start..m.start()]);
            start = m.end();
        }
        out.push(&goal[start..]);
        out.into_iter()
            .map(|s| {
                let s = s.trim().trim_end_matches(['!', '?']).trim_end();
                // "..", "docs/..": a parent folder keeps its dots; a full
                // stop after it is still cut.
                if crate::understand::mentions::ends_in_parent_folder(s) {
                    s
                } else {
                    s.trim_end_matches(['.', '!', '?']).trim()
                }
            })
            .filter(|s| !s.is_empty())
            .collect()
    }

    /// The drafts of the first rule matching `segment` as a whole.
    fn match_whole(&self, segment: &str) -> Option<Vec<Draft>> {
        self.rules.iter().find_map(|c| {
            let caps = c.re.captures(segment)?;
            let mut values: BTreeMap<&str, (String, bool)> = BTreeMap::new();
            for name in c.re.capture_names().flatten() {
                if let Some(m) = caps.name(name) {
                    values.insert(name, unquote(m.as_str()));
                }
            }
            // A free-text capture must not swallow a further request
            // ("ask me for a number and double it"): the segment is then
            // cut at " and " instead.
            if values.values().any(|(v, quoted)| {
                !quoted && crate::understand::lexicon::has_coordinated_request(v)
            }) {
                return None;
            }
            // A folder or file written as a pronoun ("count the files in
            // *it*") is an earlier result, never a path named "it"
            // (attack trial: `file.list {:path "it"}`).
            if ["dir", "path"].iter().any(|k| {
                values.get(k).is_some_and(|(v, quoted)| {
                    !quoted
                        && matches!(
                            v.to_ascii_lowercase().as_str(),
                            "it" | "them" | "this" | "that" | "these" | "those"
                        )
                })
            }) {
                return None;
            }
            Some(
                c.rule
                    .steps
                    .iter()
                    .map(|s| Draft {
                        intent_type: IntentType::parse(&s.intent_type),
                        description: fill(&s.description, &values),
                        params: s
                            .params
                            .iter()
                            .map(|(k, t)| (k.clone(), param(t, &values)))
                            .collect(),
                        each: s.each.is_some(),
                        keyed: s.keyed.clone(),
                    })
                    .collect(),
            )
        })
    }

    /// The drafts of a segment: whole match, else cut at one " and ".
    fn match_segment(&self, segment: &str) -> Option<Vec<Draft>> {
        if let Some(d) = self.match_whole(segment) {
            return Some(d);
        }
        // Cutting tries every " and " recursively: exponential in their
        // number. Beyond a few, the segment is not a rule's (the clause
        // decomposition still splits it, in linear time).
        if segment.to_ascii_lowercase().matches(" and ").count() > MAX_AND_CUTS {
            return None;
        }
        let lower = segment.to_ascii_lowercase();
        for (i, _) in lower.match_indices(" and ") {
            let (left, right) = (&segment[..i], &segment[i + 5..]);
            if let (Some(mut l), Some(r)) = (
                self.match_whole(left.trim()),
                self.match_segment(right.trim()),
            ) {
                l.extend(r);
                return Some(l);
            }
        }
        None
    }
}

/// Strips matching quotes; the flag says the value was quoted.
fn unquote(s: &str) -> (String, bool) {
    let t = s.trim();
    for q in ['"', '\''] {
        if t.len() >= 2 && t.starts_with(q) && t.ends_with(q) {
            return (t[1..t.len() - 1].to_string(), true);
        }
    }
    (t.to_string(), false)
}

/// Replaces `{name}` placeholders by capture values.
fn fill(template: &str, values: &BTreeMap<&str, (String, bool)>) -> String {
    let mut out = template.to_string();
    for (k, (v, _)) in values {
        out = out.replace(&format!("{{{k}}}"), v);
    }
    out
}

/// A parameter from its template: `$prev`, a typed `{capture}`, or text.
fn param(template: &str, values: &BTreeMap<&str, (String, bool)>) -> DraftParam {
    if template == "$prev" {
        return DraftParam::Prev;
    }
    if let Some((before, after)) = template.split_once("$item") {
        let field = after
            .strip_prefix('.')
            .filter(|f| !f.is_empty())
            .map(str::to_string);
        let prefix = fill(before, values);
        // `{dir}/` with a dir already ending in `/`: one slash.
        let prefix = match prefix.strip_suffix("//") {
            Some(p) => format!("{p}/"),
            None => prefix,
        };
        return DraftParam::Item { prefix, field };
    }
    // `true`/`false`: a boolean parameter (`as_word = "true"`).
    if let Ok(b) = template.parse::<bool>() {
        return DraftParam::Literal(rtfs::Value::Bool(b));
    }
    // An integer: a number parameter the rule itself sets (`position =
    // "-1"`, the last).
    if let Ok(i) = template.parse::<i64>() {
        return DraftParam::Literal(rtfs::Value::Int(i));
    }
    if let Some(name) = template.strip_prefix('{').and_then(|t| t.strip_suffix('}'))
        && let Some((v, quoted)) = values.get(name)
    {
        return DraftParam::Literal(typed_literal(v, *quoted));
    }
    DraftParam::Literal(rtfs::Value::string(&fill(template, values)))
}

/// A literal typed from its text: integers and floats become numbers
/// unless the text was quoted.
pub(crate) fn typed_literal(v: &str, quoted: bool) -> rtfs::Value {
    if !quoted {
        // `1,000` (a NUM with thousands separators) is 1000.
        let grouped = v.contains(',')
            && v.chars().all(|c| c.is_ascii_digit() || ",.-".contains(c))
            && ccos_core::text::is_thousands(v.trim_start_matches('-'));
        if grouped {
            let plain = v.replace(',', "");
            if let Ok(i) = plain.parse::<i64>() {
                return rtfs::Value::Int(i);
            }
            if let Ok(f) = plain.parse::<f64>()
                && f.is_finite()
            {
                return rtfs::Value::Float(f);
            }
        }
        if let Ok(i) = v.parse::<i64>() {
            return rtfs::Value::Int(i);
        }
        if v.contains('.')
            && let Ok(f) = v.parse::<f64>()
            && f.is_finite()
        {
            return rtfs::Value::Float(f);
        }
    }
    rtfs::Value::string(v)
}

impl DecompositionStrategy for PatternDecomposition {
    fn name(&self) -> &str {
        "pattern"
    }

    fn decompose(&self, goal: &str) -> Result<Option<Vec<SubIntent>>, DecompositionError> {
        let goal = goal.trim();
        if goal.is_empty() {
            return Err(DecompositionError::EmptyGoal);
        }
        let mut drafts = vec![];
        for seg in self.segments(goal) {
            match self.match_segment(seg) {
                Some(d) => drafts.extend(d),
                None => return Ok(None),
            }
        }
        let mut out: Vec<SubIntent> = Vec::with_capacity(drafts.len());
        for (i, d) in drafts.into_iter().enumerate() {
            let id = format!("s{}", i + 1);
            let prev = out.last().map(|s| s.id.clone());
            let mut s = SubIntent::new(id, d.description, d.intent_type);
            if d.each {
                match &prev {
                    Some(prev) => s = s.for_each(prev.clone()),
                    None => return Ok(None),
                }
            }
            if let (Some(key), Some(prev)) = (&d.keyed, &prev) {
                // The list the chain of loops started from.
                let mut root = prev.clone();
                while let Some(e) = out
                    .iter()
                    .find(|o| o.id == root)
                    .and_then(|o| o.each.clone())
                {
                    root = e;
                }
                s.keyed_by = Some((root, key.clone()));
            }
            for (k, p) in d.params {
                match (p, &prev) {
                    (DraftParam::Literal(v), _) => {
                        s.params.insert(k, ParamValue::Literal(v));
                    }
                    (DraftParam::Prev, Some(prev)) => s = s.with_step_param(k, prev.clone()),
                    (DraftParam::Item { prefix, field }, _) => {
                        s.params.insert(k, ParamValue::Item { prefix, field });
                    }
                    // "$prev" with nothing before: no pattern for this goal.
                    (DraftParam::Prev, None) => return Ok(None),
                }
            }
            out.push(s);
        }
        Ok((!out.is_empty()).then_some(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rtfs::Value;

    fn d(goal: &str) -> Vec<SubIntent> {
        PatternDecomposition::builtin()
            .unwrap()
            .decompose(goal)
            .unwrap()
            .unwrap_or_else(|| panic!("no pattern for {goal:?}"))
    }

    fn lit(s: &SubIntent, k: &str) -> Value {
        match s.params.get(k) {
            Some(ParamValue::Literal(v)) => v.clone(),
            other => panic!("{k}: {other:?}"),
        }
    }

    #[test]
    fn builtin_rules_compile() {
        let p = PatternDecomposition::builtin().unwrap();
        assert!(p.rule_names().contains(&"count-in-file"));
        assert_eq!(p.source_name(), "built-in");
    }

    #[test]
    fn count_words_in_file_is_read_then_count() {
        let v = d("count the words in README.md");
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].intent_type, IntentType::Fetch);
        assert_eq!(lit(&v[0], "path"), Value::string("README.md"));
        assert_eq!(v[1].description, "count the words in the text");
        assert_eq!(
            v[1].params.get("text"),
            Some(&ParamValue::StepRef("s1".into()))
        );
        assert_eq!(v[1].depends_on, vec!["s1".to_string()]);
    }

    #[test]
    fn read_and_count_splits_at_and() {
        let v = d("read notes.txt and count lines");
        assert_eq!(v.len(), 2);
        assert_eq!(lit(&v[0], "path"), Value::string("notes.txt"));
        assert_eq!(v[1].description, "count the lines in the text");
        assert_eq!(v[1].depends_on, vec!["s1".to_string()]);
        let v = d("Read the file docs/a.md, then count the characters in it.");
        assert_eq!(lit(&v[0], "path"), Value::string("docs/a.md"));
        assert_eq!(v[1].description, "count the characters in the text");
    }

    #[test]
    fn arithmetic_chain_with_numbers() {
        let v = d("add 2 and 3, then multiply by 4");
        assert_eq!(v.len(), 2);
        assert_eq!(lit(&v[0], "a"), Value::Int(2));
        assert_eq!(lit(&v[0], "b"), Value::Int(3));
        assert_eq!(v[1].description, "multiply the numbers");
        assert_eq!(
            v[1].params.get("a"),
            Some(&ParamValue::StepRef("s1".into()))
        );
        assert_eq!(lit(&v[1], "b"), Value::Int(4));
        let v = d("subtract 3 from 10 then divide by 2.5");
        assert_eq!(lit(&v[0], "a"), Value::Int(10));
        assert_eq!(lit(&v[1], "b"), Value::Float(2.5));
        // Thousands separators group; other scripts' digits are no number.
        let v = d("add 1,000 and 1 then multiply by 2");
        assert_eq!(v.len(), 2);
        assert_eq!(lit(&v[0], "a"), Value::Int(1000));
        assert_eq!(lit(&v[0], "b"), Value::Int(1));
        let none = PatternDecomposition::builtin()
            .unwrap()
            .decompose("add ٣ and 4")
            .unwrap();
        assert!(none.is_none(), "{none:?}");
    }

    #[test]
    fn quoted_text_stays_a_string_and_commas_inside_quotes_do_not_split() {
        let v = d("convert 'hello, 42' to upper case");
        assert_eq!(v.len(), 1);
        assert_eq!(lit(&v[0], "text"), Value::string("hello, 42"));
        let v = d("echo \"7\"");
        assert_eq!(lit(&v[0], "message"), Value::string("7"));
    }

    #[test]
    fn ask_user_and_unmatched_goals() {
        let v = d("ask me for the page size");
        assert_eq!(v[0].intent_type, IntentType::AskUser);
        assert_eq!(
            lit(&v[0], "prompt"),
            Value::string("What is the page size?")
        );
        let p = PatternDecomposition::builtin().unwrap();
        assert!(p.decompose("book me a flight to Paris").unwrap().is_none());
        // "$prev" with nothing before it: no pattern.
        assert!(p.decompose("multiply by 4").unwrap().is_none());
        // one segment unmatched: the whole goal is unmatched.
        assert!(
            p.decompose("read a.txt and book a flight")
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn for_each_rules_loop_over_the_previous_result() {
        let v = d("list the files in data and for each file count its lines");
        assert_eq!(v.len(), 4);
        assert_eq!(lit(&v[0], "path"), Value::string("data"));
        // Subdirectories are no files to read.
        assert_eq!(lit(&v[1], "equals"), Value::string("file"));
        assert_eq!(v[2].each.as_deref(), Some("s2"));
        assert_eq!(v[2].depends_on, vec!["s2".to_string()]);
        assert_eq!(
            v[2].params.get("path"),
            Some(&ParamValue::Item {
                prefix: "data/".into(),
                field: Some("name".into())
            })
        );
        assert_eq!(v[3].each.as_deref(), Some("s3"));
        assert_eq!(
            v[3].params.get("text"),
            Some(&ParamValue::Item {
                prefix: String::new(),
                field: None
            })
        );
        // The counts by file name: keyed by the names of the kept files.
        assert_eq!(v[3].keyed_by, Some(("s2".to_string(), "name".to_string())));
        for goal in [
            "count the lines of each file in the docs folder",
            "how many words are in every file in docs",
        ] {
            let v = d(goal);
            assert_eq!(lit(&v[0], "path"), Value::string("docs"), "{goal}");
            assert!(v[3].keyed_by.is_some(), "{goal}");
        }
        let v = d("for each file in docs/ count the words");
        assert_eq!(
            v[2].params.get("path"),
            Some(&ParamValue::Item {
                prefix: "docs/".into(),
                field: Some("name".into())
            })
        );
        assert_eq!(v[3].description, "count the words in the text");
        let v = d("list the files in data");
        assert_eq!(v.len(), 1);
        assert!(v[0].each.is_none());
        // `each` other than "$prev", or "$item" outside `each`: errors.
        for bad in [
            "[[rule]]\nname='x'\npattern='x'\n[[rule.step]]\ntype='fetch'\ndescription='d'\neach='s1'",
            "[[rule]]\nname='x'\npattern='x'\n[[rule.step]]\ntype='fetch'\ndescription='d'\nparams={p='$item'}",
        ] {
            assert!(matches!(
                PatternDecomposition::from_toml(bad, "t"),
                Err(DecompositionError::Rules { .. })
            ));
        }
        // `each` on a first step: nothing to iterate, no pattern.
        let p = PatternDecomposition::from_toml(
            "[[rule]]\nname='x'\npattern='x'\n[[rule.step]]\ntype='fetch'\ndescription='d'\neach='$prev'",
            "t",
        )
        .unwrap();
        assert!(p.decompose("x").unwrap().is_none());
    }

    #[test]
    fn rules_file_errors_and_override() {
        let bad = PatternDecomposition::from_toml(
            "[[rule]]\nname='x'\npattern='('\n[[rule.step]]\ntype='fetch'\ndescription='d'",
            "t.toml",
        );
        assert!(matches!(bad, Err(DecompositionError::Rules { .. })));
        assert!(
            PatternDecomposition::from_toml("[[rule]]\nname='x'\npattern='a'\nstep=[]", "t")
                .is_err()
        );
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("patterns.toml"),
            "[[rule]]\nname='greet'\npattern='greet (?P<who>\\w+)'\n[[rule.step]]\ntype='output'\ndescription='echo the message'\nparams={message='hello {who}'}\n",
        )
        .unwrap();
        let p = PatternDecomposition::load(dir.path()).unwrap();
        let v = p.decompose("greet Ada").unwrap().unwrap();
        assert_eq!(lit(&v[0], "message"), Value::string("hello Ada"));
        assert!(p.decompose("count the words in a.txt").unwrap().is_none());
    }
}
