//! Discovery hints: what the marketplace knows about every capability a
//! model's plan names — the ones found (with provider, parameters and
//! usage hints drawn from the schema and descriptions), the ones missing,
//! and for each missing one the closest real capabilities — rendered into
//! the re-planning prompt (design note "Discovery Hints & Re-planning").
//!
//! A missing capability is never stubbed: the planner re-plans with these
//! hints, or reports `requires-agent`.

use std::collections::{BTreeMap, BTreeSet};

use ccos_governance::{Catalog, Policy};
use ccos_marketplace::{CapabilityManifest, Marketplace, ProviderSpec};
use rtfs::{Expr, ExprKind};
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

/// How many suggestions are given per missing capability.
pub const SUGGESTIONS: usize = 3;

/// Longest description shown (characters).
pub const MAX_DESCRIPTION: usize = 160;

/// One parameter of a found capability.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParamHint {
    /// The key (`state`), or the position's title for positional arguments.
    pub name: String,
    /// JSON Schema type, `any` when not declared.
    pub ty: String,
    /// Whether it is required.
    pub required: bool,
    /// Allowed values when the schema has an `enum`.
    pub values: Vec<String>,
    /// The schema's description, shortened.
    pub description: String,
}

/// A capability the plan names that exists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoundCapability {
    /// Its id.
    pub id: String,
    /// Provider label and detail (`mcp github/list_issues`, `builtin`).
    pub provider: String,
    /// Its description, shortened.
    pub description: String,
    /// `map` (one map argument) or `positional`.
    pub calling: String,
    /// Its parameters, required first.
    pub params: Vec<ParamHint>,
    /// Usage hints (enums, examples).
    pub hints: Vec<String>,
    /// Set when the policy denies it (with the reasons).
    pub denied: Option<String>,
}

/// Everything the marketplace says about the capabilities a plan names.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct DiscoveryHints {
    /// Named capabilities that exist, sorted by id.
    pub found: Vec<FoundCapability>,
    /// Named capabilities that do not exist, sorted.
    pub missing: Vec<String>,
    /// For each missing capability, the closest real (allowed) ones.
    pub suggestions: BTreeMap<String, Vec<String>>,
}

impl DiscoveryHints {
    /// Collects hints for `ids` (any order, duplicates ignored).
    pub fn collect(ids: &[String], mp: &Marketplace, policy: &Policy) -> DiscoveryHints {
        let ids: BTreeSet<&String> = ids.iter().collect();
        let mut h = DiscoveryHints::default();
        for id in ids {
            match mp.get(id) {
                Some(m) => h.found.push(found(&m, policy)),
                None => {
                    h.missing.push(id.clone());
                    let s: Vec<String> = Catalog::closest(mp, id, SUGGESTIONS * 4)
                        .into_iter()
                        .filter(|c| {
                            mp.get(c)
                                .is_some_and(|m| !policy.decide_call(&m).is_denied())
                        })
                        .take(SUGGESTIONS)
                        .collect();
                    h.suggestions.insert(id.clone(), s);
                }
            }
        }
        h
    }

    /// Ids of every suggested capability, sorted, de-duplicated.
    pub fn suggested_ids(&self) -> Vec<String> {
        let s: BTreeSet<&String> = self.suggestions.values().flatten().collect();
        s.into_iter().cloned().collect()
    }

    /// The hints as prompt text (the `{{hints}}` of `plan.replan_hints`).
    pub fn render(&self, mp: &Marketplace, policy: &Policy) -> String {
        let mut out = String::new();
        out.push_str("Found capabilities:\n");
        if self.found.is_empty() {
            out.push_str("  (none)\n");
        }
        for f in self.found.iter().take(MAX_LISTED) {
            out.push_str(&render_found(f));
        }
        more(&mut out, self.found.len());
        out.push_str("Missing capabilities (they do not exist; do not use them):\n");
        for m in self.missing.iter().take(MAX_LISTED) {
            out.push_str(&format!("  * {m} - not found in the catalog\n"));
        }
        more(&mut out, self.missing.len());
        out.push_str("Suggestions:\n");
        let mut any = false;
        for (m, s) in self.suggestions.iter().take(MAX_LISTED) {
            if s.is_empty() {
                out.push_str(&format!("  * instead of {m}: no close capability exists\n"));
                continue;
            }
            any = true;
            out.push_str(&format!("  * instead of {m}, consider: {}\n", s.join(", ")));
        }
        for f in self.found.iter().take(MAX_LISTED) {
            if f.params.iter().any(|p| !p.values.is_empty()) && !self.missing.is_empty() {
                out.push_str(&format!(
                    "  * {} may already do what the missing capabilities were meant to do: check its parameters above\n",
                    f.id
                ));
            }
        }
        let found_ids: BTreeSet<&str> = self.found.iter().map(|f| f.id.as_str()).collect();
        if any {
            out.push_str("Suggested capabilities:\n");
            for id in self.suggested_ids().into_iter().take(MAX_LISTED) {
                if found_ids.contains(id.as_str()) {
                    continue;
                }
                if let Some(m) = mp.get(&id) {
                    out.push_str(&render_found(&found(&m, policy)));
                }
            }
        }
        out
    }
}

/// At most this many found, missing and suggested capabilities are
/// rendered (a plan naming hundreds must not blow up the prompt).
pub const MAX_LISTED: usize = 12;

fn more(out: &mut String, n: usize) {
    if n > MAX_LISTED {
        out.push_str(&format!("  ... and {} more\n", n - MAX_LISTED));
    }
}

fn render_found(f: &FoundCapability) -> String {
    let mut out = format!("  * {} ({}) - {}\n", f.id, f.provider, f.description);
    if let Some(d) = &f.denied {
        out.push_str(&format!("    - DENIED by the policy: {d}; do not use it\n"));
    }
    let params: Vec<String> = f
        .params
        .iter()
        .map(|p| {
            let mut s = format!("{} {}", p.name, p.ty);
            if !p.values.is_empty() {
                s = format!("{} {}", p.name, p.values.join("|"));
            }
            if p.required {
                s.push_str(" (required)");
            }
            s
        })
        .collect();
    if !params.is_empty() {
        out.push_str(&format!(
            "    - {} parameters: {}\n",
            if f.calling == "map" {
                "map"
            } else {
                "positional"
            },
            params.join(", ")
        ));
    }
    for h in &f.hints {
        out.push_str(&format!("    - {h}\n"));
    }
    out
}

/// Cuts `s` to `n` characters (with `...`), on one line.
pub fn shorten(s: &str, n: usize) -> String {
    let one: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() <= n {
        one
    } else {
        let cut: String = one.chars().take(n.saturating_sub(3)).collect();
        format!("{cut}...")
    }
}

/// The parameters of a manifest, required first (schema order).
pub fn params(m: &CapabilityManifest) -> Vec<ParamHint> {
    let one = |name: String, s: &Json, required: bool| ParamHint {
        name,
        ty: s
            .get("type")
            .map(|t| match t {
                Json::String(t) => t.clone(),
                other => other.to_string(),
            })
            .unwrap_or_else(|| "any".into()),
        required,
        values: s
            .get("enum")
            .and_then(Json::as_array)
            .map(|a| {
                a.iter()
                    .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                    .collect()
            })
            .unwrap_or_default(),
        description: s
            .get("description")
            .and_then(Json::as_str)
            .map(|d| shorten(d, 80))
            .unwrap_or_default(),
    };
    if m.is_positional() {
        let min = m
            .input_schema
            .get("minItems")
            .and_then(Json::as_u64)
            .unwrap_or(0) as usize;
        return m
            .input_schema
            .get("prefixItems")
            .and_then(Json::as_array)
            .map(|a| {
                a.iter()
                    .enumerate()
                    .map(|(i, s)| {
                        let name = s
                            .get("title")
                            .and_then(Json::as_str)
                            .map_or_else(|| format!("arg{}", i + 1), str::to_string);
                        one(name, s, i < min)
                    })
                    .collect()
            })
            .unwrap_or_default();
    }
    let required = m.required_keys();
    m.expects_context_keys()
        .into_iter()
        .map(|k| {
            let s = m.property_schema(&k).cloned().unwrap_or(Json::Null);
            let r = required.contains(&k);
            one(k, &s, r)
        })
        .collect()
}

fn found(m: &CapabilityManifest, policy: &Policy) -> FoundCapability {
    let ps = params(m);
    let mut hints = vec![];
    for p in &ps {
        if !p.values.is_empty() {
            hints.push(format!(
                "{} accepts one of: {} (e.g. :{} \"{}\"){}",
                p.name,
                p.values.join(", "),
                p.name,
                p.values.last().map(String::as_str).unwrap_or(""),
                if p.description.is_empty() {
                    String::new()
                } else {
                    format!(" - {}", p.description)
                }
            ));
        } else if !p.description.is_empty() {
            hints.push(format!("{}: {}", p.name, p.description));
        }
    }
    if let Some(e) = m.examples.first() {
        hints.push(format!("example: {}", shorten(e, 120)));
    }
    let provider = match &m.provider {
        ProviderSpec::Mcp { server, tool } => format!("mcp {server}/{tool}"),
        ProviderSpec::OpenApi { method, path, .. } => format!("openapi {method} {path}"),
        p => p.label().to_string(),
    };
    let decision = policy.decide_call(m);
    FoundCapability {
        id: m.id.clone(),
        provider,
        description: shorten(&m.description, MAX_DESCRIPTION),
        calling: if m.is_positional() {
            "positional".into()
        } else {
            "map".into()
        },
        params: ps,
        hints,
        denied: decision.is_denied().then(|| decision.reasons().join("; ")),
    }
}

/// The literal capability ids of every `(call ...)` in parsed forms
/// (quoted data skipped), sorted and de-duplicated.
pub fn called_capabilities(forms: &[Expr]) -> Vec<String> {
    let mut out = BTreeSet::new();
    fn walk(e: &Expr, out: &mut BTreeSet<String>, depth: usize) {
        if depth > 512 {
            return;
        }
        match &e.kind {
            ExprKind::List(items) => {
                match items.first().and_then(Expr::as_symbol) {
                    Some("quote") => return,
                    Some("call") => {
                        if let Some(ExprKind::Keyword(k) | ExprKind::Str(k)) =
                            items.get(1).map(|a| &a.kind)
                        {
                            out.insert(k.to_string());
                        }
                    }
                    _ => {}
                }
                for i in items {
                    walk(i, out, depth + 1);
                }
            }
            ExprKind::Vector(items) => {
                for i in items {
                    walk(i, out, depth + 1);
                }
            }
            ExprKind::Map(entries) => {
                for (k, v) in entries {
                    walk(k, out, depth + 1);
                    walk(v, out, depth + 1);
                }
            }
            _ => {}
        }
    }
    for f in forms {
        walk(f, &mut out, 0);
    }
    out.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn found_missing_and_suggestions() {
        let mp = Marketplace::new().unwrap();
        ccos_marketplace::builtins::install(&mp, Default::default()).unwrap();
        let forms = rtfs::parse("(do (call :ccos.data.filter {:items [] :key \"a\"}) (call :data.list.filter {}) '(call :quoted.x))").unwrap();
        let ids = called_capabilities(&forms);
        assert_eq!(ids, ["ccos.data.filter", "data.list.filter"]);
        let policy = Policy::default();
        let h = DiscoveryHints::collect(&ids, &mp, &policy);
        assert_eq!(h.missing, ["data.list.filter"]);
        assert_eq!(h.found[0].params[0].name, "items");
        assert!(h.found[0].params[0].required);
        assert!(
            h.suggestions["data.list.filter"].contains(&"ccos.data.filter".to_string()),
            "{h:?}"
        );
        let text = h.render(&mp, &policy);
        assert!(text.contains("data.list.filter - not found"), "{text}");
        let m = CapabilityManifest::new(
            "x.y",
            "d",
            json!({"type": "object", "properties": {"state": {"type": "string", "enum": ["open", "all"]}}}),
        );
        let f = found(&m, &policy);
        assert_eq!(f.params[0].values, ["open", "all"]);
        assert!(f.hints[0].contains(":state \"all\""), "{:?}", f.hints);
    }
}
