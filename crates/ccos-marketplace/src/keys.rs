//! Schema-aware key mapping: which input property a key of the caller's
//! fills (the planner's sub-intent parameters, synthesis' context keys).
//!
//! The key itself when the schema declares it (a declared key is never
//! renamed), else an equivalent spelling (`per_page`, `perPage`,
//! `per-page`), else a synonym from a small table (`file` → `path`).

use std::collections::BTreeSet;

/// Synonyms: an intent key (normalised) → schema properties it may fill,
/// in preference order.
const SYNONYMS: &[(&str, &[&str])] = &[
    ("filepath", &["path", "file"]),
    ("file", &["path"]),
    ("filename", &["path", "name"]),
    ("text", &["content", "message", "input", "body"]),
    ("content", &["text", "body"]),
    ("message", &["text", "content"]),
    ("query", &["q", "search"]),
    ("q", &["query"]),
    ("url", &["uri", "href"]),
    ("uri", &["url"]),
    ("prompt", &["question", "message"]),
    ("question", &["prompt"]),
];

/// Normalises a key for snake/camel/kebab equivalence: lower-case
/// alphanumerics only (`per_page`, `perPage`, `per-page` → `perpage`).
pub fn normalize_key(k: &str) -> String {
    k.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(|c| c.to_lowercase())
        .collect()
}

/// The schema property that intent key `key` fills, if any: the key itself
/// when declared (never renamed), else an equivalent spelling, else a
/// synonym. `taken` properties are skipped for the fuzzy tiers.
pub fn map_key(key: &str, props: &[String], taken: &BTreeSet<String>) -> Option<String> {
    if props.iter().any(|p| p == key) {
        return Some(key.to_string());
    }
    let n = normalize_key(key);
    let free = |p: &&String| !taken.contains(*p) && !props.iter().any(|q| q == key);
    if let Some(p) = props.iter().filter(free).find(|p| normalize_key(p) == n) {
        return Some(p.clone());
    }
    let syn = SYNONYMS.iter().find(|(k, _)| *k == n)?.1;
    syn.iter().find_map(|s| {
        props
            .iter()
            .filter(free)
            .find(|p| normalize_key(p) == *s)
            .cloned()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn key_mapping_equivalence_synonyms_and_no_renaming() {
        let none = BTreeSet::new();
        let props = names(&["owner", "perPage", "path"]);
        assert_eq!(
            map_key("per_page", &props, &none).as_deref(),
            Some("perPage")
        );
        assert_eq!(
            map_key("per-page", &props, &none).as_deref(),
            Some("perPage")
        );
        assert_eq!(map_key("file_path", &props, &none).as_deref(), Some("path"));
        assert_eq!(map_key("owner", &props, &none).as_deref(), Some("owner"));
        assert_eq!(map_key("color", &props, &none), None);
        // A declared key is never renamed, and never used as a synonym
        // target for another key.
        let props = names(&["text", "content"]);
        assert_eq!(map_key("text", &props, &none).as_deref(), Some("text"));
        assert_eq!(
            map_key("content", &props, &none).as_deref(),
            Some("content")
        );
        let props = names(&["content"]);
        assert_eq!(map_key("text", &props, &none).as_deref(), Some("content"));
        let taken: BTreeSet<String> = ["content".to_string()].into();
        assert_eq!(map_key("text", &props, &taken), None);
    }
}
