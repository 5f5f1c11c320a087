//! Versioned prompt templates.
//!
//! A prompt file starts with a header line `# prompt: <id>@<version>`
//! followed by the template text. Placeholders are `{{name}}`; rendering
//! fails on a placeholder without a value (a silent empty hole would change
//! what the model is asked) and on a value that is never used.

use std::collections::BTreeMap;

/// A prompt template that does not load or render.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PromptError {
    /// The header line is missing or malformed.
    #[error("prompt {source_name}: first line must be `# prompt: <id>@<version>`")]
    Header {
        /// Where the template came from.
        source_name: String,
    },
    /// A placeholder has no value.
    #[error("prompt {id}: no value for placeholder {{{{{name}}}}}")]
    Missing {
        /// The prompt id.
        id: String,
        /// The placeholder.
        name: String,
    },
    /// A value was given that the template never uses.
    #[error("prompt {id}: value {name} is not used by the template")]
    Unused {
        /// The prompt id.
        id: String,
        /// The unused name.
        name: String,
    },
}

/// A loaded prompt template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    /// Its id (`plan.rtfs`).
    pub id: String,
    /// Its version (`1`); bump it when the text changes meaningfully.
    pub version: String,
    /// The template text after the header.
    pub text: String,
}

impl Prompt {
    /// Parses a template (usually `include_str!` of a file under
    /// `prompts/`); `source_name` names it in errors.
    pub fn parse(source_name: &str, source: &str) -> Result<Prompt, PromptError> {
        let header_err = || PromptError::Header {
            source_name: source_name.to_string(),
        };
        let (first, rest) = source.split_once('\n').unwrap_or((source, ""));
        let spec = first
            .trim()
            .strip_prefix("# prompt:")
            .ok_or_else(header_err)?
            .trim();
        let (id, version) = spec.split_once('@').ok_or_else(header_err)?;
        if id.is_empty() || version.is_empty() {
            return Err(header_err());
        }
        Ok(Prompt {
            id: id.to_string(),
            version: version.to_string(),
            text: rest.trim_start_matches('\n').to_string(),
        })
    }

    /// `id@version`, as recorded with every request.
    pub fn key(&self) -> String {
        format!("{}@{}", self.id, self.version)
    }

    /// The text with every `{{name}}` replaced by its value.
    pub fn render(&self, values: &BTreeMap<&str, String>) -> Result<String, PromptError> {
        let mut out = String::with_capacity(self.text.len());
        let mut used = std::collections::BTreeSet::new();
        let mut rest = self.text.as_str();
        while let Some(start) = rest.find("{{") {
            out.push_str(&rest[..start]);
            let after = &rest[start + 2..];
            let Some(end) = after.find("}}") else {
                out.push_str(&rest[start..]);
                rest = "";
                break;
            };
            let name = after[..end].trim();
            match values.get(name) {
                Some(v) => {
                    out.push_str(v);
                    used.insert(name.to_string());
                }
                None => {
                    return Err(PromptError::Missing {
                        id: self.id.clone(),
                        name: name.to_string(),
                    });
                }
            }
            rest = &after[end + 2..];
        }
        out.push_str(rest);
        if let Some(name) = values.keys().find(|k| !used.contains(**k)) {
            return Err(PromptError::Unused {
                id: self.id.clone(),
                name: name.to_string(),
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_renders() {
        let p = Prompt::parse("t", "# prompt: plan.rtfs@2\n\nGoal: {{goal}}\n").unwrap();
        assert_eq!(p.key(), "plan.rtfs@2");
        let mut v = BTreeMap::new();
        v.insert("goal", "count words".to_string());
        assert_eq!(p.render(&v).unwrap(), "Goal: count words\n");
    }

    #[test]
    fn missing_and_unused_values_are_errors() {
        let p = Prompt::parse("t", "# prompt: a@1\n{{x}}").unwrap();
        assert!(matches!(
            p.render(&BTreeMap::new()),
            Err(PromptError::Missing { .. })
        ));
        let mut v = BTreeMap::new();
        v.insert("x", "1".to_string());
        v.insert("y", "2".to_string());
        assert!(matches!(p.render(&v), Err(PromptError::Unused { .. })));
    }

    #[test]
    fn bad_header_is_an_error() {
        assert!(Prompt::parse("t", "hello").is_err());
        assert!(Prompt::parse("t", "# prompt: nover").is_err());
    }
}
