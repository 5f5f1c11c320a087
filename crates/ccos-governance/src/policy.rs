//! The runtime security policy ([`Policy`]) and its decisions.
//!
//! A policy says which capabilities may run (id glob patterns, deny winning
//! over allow), how little a provider may be trusted, which effects are
//! allowed, which calls need a human's approval, and the limits of a run
//! (per-call timeout, per-plan call budget, secret environment variables).
//!
//! Policies are read from TOML; every key is optional and falls back to the
//! default. Unknown keys are rejected, and errors name the file, line,
//! column and key:
//!
//! ```toml
//! [capabilities]
//! allow = ["*"]                      # id globs that may run
//! deny = ["mcp.git.*"]               # id globs that may not (wins over allow)
//! max_trust_tier = "community"       # system < trusted < community < untrusted
//! require_approval = []              # id globs that need approval
//! pre_approved = []                  # id globs approved in advance
//!
//! [effects]
//! allow = ["pure", "read", "user", "write", "network"]
//! require_approval = ["write", "network"]
//!
//! [limits]
//! call_timeout_ms = 30000            # per call
//! run_timeout_ms = 600000            # per run, evaluation included
//! max_calls = 1000                   # per plan run
//! max_entries = 10000                # causal-chain entries per run
//! max_memory_mb = 1024               # live heap growth per run
//!
//! [http]
//! allow_hosts = ["api.github.com"]   # hosts HTTP capabilities may reach
//!                                    # (added to config.toml's [http] allow_hosts)
//!
//! [secrets]
//! env = ["GITHUB_TOKEN"]             # passed to capabilities, never recorded
//! ```

use std::collections::BTreeSet;
use std::path::Path;

use ccos_marketplace::{CapabilityManifest, Effect, TrustTier};
use globset::{Glob, GlobMatcher};
use serde::{Deserialize, Serialize};

/// A list of capability id glob patterns (`ccos.*`, `mcp.filesystem.*`),
/// kept with their source text so decisions can name the rule.
#[derive(Debug, Clone, Default)]
pub struct PatternList {
    patterns: Vec<(String, GlobMatcher)>,
}

impl PatternList {
    /// Compiles `patterns`; the error names the first invalid one.
    pub fn new<S: AsRef<str>>(patterns: &[S]) -> Result<PatternList, String> {
        let mut out = Vec::with_capacity(patterns.len());
        for p in patterns {
            let p = p.as_ref();
            let glob = Glob::new(p).map_err(|e| format!("invalid pattern {p:?}: {e}"))?;
            out.push((p.to_string(), glob.compile_matcher()));
        }
        Ok(PatternList { patterns: out })
    }

    /// The first pattern matching `id`, if any.
    pub fn first_match(&self, id: &str) -> Option<&str> {
        self.patterns
            .iter()
            .find(|(_, m)| m.is_match(id))
            .map(|(p, _)| p.as_str())
    }

    /// True when some pattern matches `id`.
    pub fn matches(&self, id: &str) -> bool {
        self.first_match(id).is_some()
    }

    /// The patterns as written.
    pub fn patterns(&self) -> Vec<&str> {
        self.patterns.iter().map(|(p, _)| p.as_str()).collect()
    }

    /// True when there is no pattern.
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }
}

impl PartialEq for PatternList {
    fn eq(&self, other: &Self) -> bool {
        self.patterns() == other.patterns()
    }
}

impl Serialize for PatternList {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.patterns().serialize(s)
    }
}

/// The runtime security policy: which capability calls may run, which need
/// approval, and the limits of a run.
///
/// [`Policy::default`] allows every registered capability (`*`; an
/// unregistered id is always denied) up to trust tier `community`, with
/// effects `pure read user write network`, of which `write` and `network`
/// need approval; per-call timeout 30 s; run deadline 10 minutes; budget
/// 1000 calls per plan; 1 GiB of heap growth per run; no secret variables.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Policy {
    /// Capability ids that may run (globs).
    pub allow: PatternList,
    /// Capability ids that may not run (globs); deny wins over allow.
    pub deny: PatternList,
    /// The least trusted tier admitted (that tier and more trusted ones).
    pub max_trust_tier: TrustTier,
    /// Effects a capability may have.
    pub allowed_effects: BTreeSet<Effect>,
    /// Capability ids that need approval before each call (globs).
    pub approval_capabilities: PatternList,
    /// Effects that need approval before a call.
    pub approval_effects: BTreeSet<Effect>,
    /// Capability ids approved in advance (globs): no approval asked.
    pub pre_approved: PatternList,
    /// Per-call timeout in milliseconds.
    pub call_timeout_ms: u64,
    /// Deadline of a whole run in milliseconds (calls and pure evaluation).
    pub run_timeout_ms: u64,
    /// Maximum number of capability calls in one plan run.
    pub max_calls: u64,
    /// Maximum number of causal-chain entries one run may write (steps,
    /// calls, approvals): bounds the record of a plan that loops without
    /// calling anything.
    pub max_entries: u64,
    /// Maximum growth of the process's live heap during one run, in bytes
    /// (`[limits] max_memory_mb`): bounds what a plan keeps alive at once,
    /// which per-value limits alone do not (a deep recursion whose every
    /// frame holds a large list). Enforced where the binary counts its
    /// allocations (`ccos_core::heap`).
    pub max_memory_bytes: u64,
    /// Names of environment variables whose values are secrets.
    pub secret_env: Vec<String>,
    /// Hosts (`host` or `host:port`) HTTP-performing capabilities (the
    /// `ccos.http.*` built-ins, imported OpenAPI operations) may reach,
    /// each redirect hop included.
    pub http_allow_hosts: Vec<String>,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            allow: PatternList::new(&["*"]).unwrap_or_default(),
            deny: PatternList::default(),
            max_trust_tier: TrustTier::Community,
            allowed_effects: BTreeSet::from([
                Effect::Pure,
                Effect::Read,
                Effect::User,
                Effect::Write,
                Effect::Network,
            ]),
            approval_capabilities: PatternList::default(),
            approval_effects: BTreeSet::from([Effect::Write, Effect::Network]),
            pre_approved: PatternList::default(),
            call_timeout_ms: 30_000,
            run_timeout_ms: 600_000,
            max_calls: 1000,
            max_entries: 10_000,
            max_memory_bytes: 1024 * 1024 * 1024,
            secret_env: vec![],
            http_allow_hosts: vec![],
        }
    }
}

/// The policy's verdict on one call (or, aggregated, on a plan).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum CallDecision {
    /// May run.
    Allow,
    /// May not run; each reason names the rule.
    Deny {
        /// E.g. `denied by pattern mcp.git.*`.
        reasons: Vec<String>,
    },
    /// May run once a human approves.
    NeedsApproval {
        /// E.g. `effect network requires approval`.
        reasons: Vec<String>,
    },
}

/// The verdict on a capability as such (same shape as a call's).
pub type Decision = CallDecision;

impl CallDecision {
    /// `allow`, `deny` or `needs_approval`.
    pub fn label(&self) -> &'static str {
        match self {
            CallDecision::Allow => "allow",
            CallDecision::Deny { .. } => "deny",
            CallDecision::NeedsApproval { .. } => "needs_approval",
        }
    }

    /// The reasons (empty for `Allow`).
    pub fn reasons(&self) -> &[String] {
        match self {
            CallDecision::Allow => &[],
            CallDecision::Deny { reasons } | CallDecision::NeedsApproval { reasons } => reasons,
        }
    }

    /// True for `Deny`.
    pub fn is_denied(&self) -> bool {
        matches!(self, CallDecision::Deny { .. })
    }
}

/// What a call targets: a registered capability, or an id nothing provides.
#[derive(Debug, Clone, Copy)]
pub enum CallTarget<'a> {
    /// A registered capability.
    Known(&'a CapabilityManifest),
    /// An id not in the catalog.
    Unknown(&'a str),
}

impl<'a> From<&'a CapabilityManifest> for CallTarget<'a> {
    fn from(m: &'a CapabilityManifest) -> Self {
        CallTarget::Known(m)
    }
}

/// Why a policy could not be loaded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PolicyError {
    /// The file could not be read.
    #[error("reading policy {file}: {message}")]
    Io {
        /// The file.
        file: String,
        /// The OS error.
        message: String,
    },
    /// The text is not a valid policy.
    #[error("{file}:{line}:{column}: {}{message}", key.as_ref().map(|k| format!("key {k}: ")).unwrap_or_default())]
    Invalid {
        /// The file (or `<policy>` for text).
        file: String,
        /// 1-based line (0 when unknown).
        line: usize,
        /// 1-based column (0 when unknown).
        column: usize,
        /// The dotted key concerned (`effects.allow`), when known.
        key: Option<String>,
        /// What is wrong.
        message: String,
    },
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawPolicy {
    #[serde(default)]
    capabilities: RawCapabilities,
    #[serde(default)]
    effects: RawEffects,
    #[serde(default)]
    limits: RawLimits,
    #[serde(default)]
    secrets: RawSecrets,
    #[serde(default)]
    http: RawHttp,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawHttp {
    allow_hosts: Option<Vec<String>>,
}

type Patterns = Option<Vec<toml::Spanned<String>>>;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawCapabilities {
    allow: Patterns,
    deny: Patterns,
    max_trust_tier: Option<TrustTier>,
    require_approval: Patterns,
    pre_approved: Patterns,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawEffects {
    allow: Option<BTreeSet<Effect>>,
    require_approval: Option<BTreeSet<Effect>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawLimits {
    call_timeout_ms: Option<u64>,
    run_timeout_ms: Option<u64>,
    max_calls: Option<u64>,
    max_entries: Option<u64>,
    max_memory_mb: Option<u64>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawSecrets {
    env: Option<Vec<String>>,
}

impl Policy {
    /// Parses a policy from TOML text (errors name the file as `<policy>`).
    pub fn from_toml_str(text: &str) -> Result<Policy, PolicyError> {
        Self::from_toml_named(text, "<policy>")
    }

    /// Reads and parses a policy file.
    pub fn from_file(path: &Path) -> Result<Policy, PolicyError> {
        let file = path.display().to_string();
        let text =
            ccos_core::text::read_file_bounded(path, ccos_core::text::MAX_INPUT_BYTES, false)
                .map_err(|message| PolicyError::Io {
                    file: file.clone(),
                    message,
                })?
                .unwrap_or_default();
        Self::from_toml_named(&text, &file)
    }

    /// Parses a policy from TOML text; errors name `file`.
    pub fn from_toml_named(text: &str, file: &str) -> Result<Policy, PolicyError> {
        let invalid = |offset: Option<usize>, message: String| {
            let (line, column) = offset.map(|o| rtfs::line_col(text, o)).unwrap_or((0, 0));
            PolicyError::Invalid {
                file: file.to_string(),
                line,
                column,
                key: offset.and_then(|o| key_at(text, o)),
                message,
            }
        };
        let raw: RawPolicy = toml::from_str(text).map_err(|e| {
            invalid(
                e.span().map(|s| s.start),
                e.message().trim().replace('\n', " "),
            )
        })?;
        let patterns = |p: Patterns, default: &[&str]| -> Result<PatternList, PolicyError> {
            match p {
                None => PatternList::new(default).map_err(|m| invalid(None, m)),
                Some(list) => {
                    for s in &list {
                        PatternList::new(&[s.get_ref()])
                            .map_err(|m| invalid(Some(s.span().start), m))?;
                    }
                    let strs: Vec<&str> = list.iter().map(|s| s.get_ref().as_str()).collect();
                    PatternList::new(&strs).map_err(|m| invalid(None, m))
                }
            }
        };
        let d = Policy::default();
        Ok(Policy {
            allow: patterns(raw.capabilities.allow, &["*"])?,
            deny: patterns(raw.capabilities.deny, &[])?,
            max_trust_tier: raw.capabilities.max_trust_tier.unwrap_or(d.max_trust_tier),
            allowed_effects: raw.effects.allow.unwrap_or(d.allowed_effects),
            approval_capabilities: patterns(raw.capabilities.require_approval, &[])?,
            approval_effects: raw.effects.require_approval.unwrap_or(d.approval_effects),
            pre_approved: patterns(raw.capabilities.pre_approved, &[])?,
            call_timeout_ms: raw.limits.call_timeout_ms.unwrap_or(d.call_timeout_ms),
            run_timeout_ms: raw.limits.run_timeout_ms.unwrap_or(d.run_timeout_ms),
            max_calls: raw.limits.max_calls.unwrap_or(d.max_calls),
            max_entries: raw.limits.max_entries.unwrap_or(d.max_entries),
            max_memory_bytes: raw
                .limits
                .max_memory_mb
                .map_or(d.max_memory_bytes, |mb| mb.saturating_mul(1024 * 1024)),
            secret_env: raw.secrets.env.unwrap_or(d.secret_env),
            http_allow_hosts: raw.http.allow_hosts.unwrap_or(d.http_allow_hosts),
        })
    }

    /// The policy's verdict on a registered capability.
    pub fn is_capability_allowed(&self, manifest: &CapabilityManifest) -> Decision {
        self.decide_call(CallTarget::Known(manifest))
    }

    /// The policy's verdict on one call: deny rules first (unknown id,
    /// deny pattern, no allow pattern, trust tier, effects), then approval
    /// rules (approval patterns and effects, unless pre-approved).
    pub fn decide_call<'a>(&self, target: impl Into<CallTarget<'a>>) -> CallDecision {
        let m = match target.into() {
            CallTarget::Unknown(id) => {
                return CallDecision::Deny {
                    reasons: vec![format!("unknown capability {id}")],
                };
            }
            CallTarget::Known(m) => m,
        };
        let id = m.id.as_str();
        let mut deny = vec![];
        if let Some(p) = self.deny.first_match(id) {
            deny.push(format!("denied by pattern {p}"));
        } else if !self.allow.matches(id) {
            deny.push(if self.allow.is_empty() {
                "no capability is allowed (empty allow list)".to_string()
            } else {
                format!(
                    "not matched by any allowed pattern ({})",
                    self.allow.patterns().join(" ")
                )
            });
        }
        if m.trust_tier > self.max_trust_tier {
            deny.push(format!(
                "trust tier {} exceeds maximum {}",
                m.trust_tier.as_str(),
                self.max_trust_tier.as_str()
            ));
        }
        let effects = m.effective_effects();
        for e in &effects {
            if !self.allowed_effects.contains(e) {
                let unknown = if m.effects.is_empty() {
                    " (effects unknown, assumed write)"
                } else {
                    ""
                };
                deny.push(format!("effect {} not allowed{unknown}", e.as_str()));
            }
        }
        if !deny.is_empty() {
            return CallDecision::Deny { reasons: deny };
        }
        if self.pre_approved.matches(id) {
            return CallDecision::Allow;
        }
        let mut approval = vec![];
        if let Some(p) = self.approval_capabilities.first_match(id) {
            approval.push(format!("matches approval pattern {p}"));
        }
        for e in &effects {
            if self.approval_effects.contains(e) {
                approval.push(format!("effect {} requires approval", e.as_str()));
            }
        }
        if approval.is_empty() {
            CallDecision::Allow
        } else {
            CallDecision::NeedsApproval { reasons: approval }
        }
    }

    /// The policy's verdict on an agent (spec 026): the same allow/deny
    /// globs as capabilities (deny wins) and the maximum trust tier. Effects
    /// are decided per call when the agent runs.
    pub fn decide_agent(&self, id: &str, trust_tier: TrustTier) -> CallDecision {
        let mut deny = vec![];
        if let Some(p) = self.deny.first_match(id) {
            deny.push(format!("denied by pattern {p}"));
        } else if !self.allow.matches(id) {
            deny.push(format!(
                "not matched by any allowed pattern ({})",
                self.allow.patterns().join(" ")
            ));
        }
        if trust_tier > self.max_trust_tier {
            deny.push(format!(
                "trust tier {} exceeds maximum {}",
                trust_tier.as_str(),
                self.max_trust_tier.as_str()
            ));
        }
        if deny.is_empty() {
            CallDecision::Allow
        } else {
            CallDecision::Deny { reasons: deny }
        }
    }

    /// The plan-level verdict from per-call ones: `Deny` if any call is
    /// denied, else `NeedsApproval` if any needs approval, else `Allow`.
    /// Reasons are prefixed with the capability id and de-duplicated, in
    /// call order.
    pub fn decide_plan<'a, I>(&self, calls: I) -> CallDecision
    where
        I: IntoIterator<Item = (&'a str, &'a CallDecision)>,
    {
        let mut denied: Vec<String> = vec![];
        let mut approval: Vec<String> = vec![];
        for (id, d) in calls {
            let bucket = match d {
                CallDecision::Allow => continue,
                CallDecision::Deny { .. } => &mut denied,
                CallDecision::NeedsApproval { .. } => &mut approval,
            };
            for r in d.reasons() {
                let line = format!("{id}: {r}");
                if !bucket.contains(&line) {
                    bucket.push(line);
                }
            }
        }
        if !denied.is_empty() {
            CallDecision::Deny { reasons: denied }
        } else if !approval.is_empty() {
            CallDecision::NeedsApproval { reasons: approval }
        } else {
            CallDecision::Allow
        }
    }
}

/// The dotted key (`section.key`) whose line holds byte `offset`, found by
/// scanning back for the nearest `key =` and `[section]` lines.
fn key_at(text: &str, offset: usize) -> Option<String> {
    let (line, _) = rtfs::line_col(text, offset);
    let lines: Vec<&str> = text.lines().collect();
    let mut key: Option<String> = None;
    for l in lines.iter().take(line).rev() {
        let t = l.trim();
        if let Some(rest) = t.strip_prefix('[') {
            let section = rest.trim_start_matches('[').split(']').next()?.trim();
            return Some(match key {
                Some(k) => format!("{section}.{k}"),
                None => section.to_string(),
            });
        }
        if key.is_none()
            && let Some((k, _)) = t.split_once('=')
        {
            let k = k.trim();
            if !k.is_empty()
                && k.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            {
                key = Some(k.to_string());
            }
        }
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cap(id: &str, tier: TrustTier, effects: &[Effect]) -> CapabilityManifest {
        CapabilityManifest::new(id, "", json!({"type":"object"}))
            .with_tier(tier)
            .with_effects(effects)
            .local()
    }

    fn policy(text: &str) -> Policy {
        match Policy::from_toml_str(text) {
            Ok(p) => p,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn default_policy_allows_known_pure_and_gates_write_and_network() {
        let p = Policy::default();
        assert_eq!(
            p.decide_call(&cap("ccos.echo", TrustTier::System, &[Effect::Pure])),
            CallDecision::Allow
        );
        assert_eq!(
            p.decide_call(&cap("ccos.fs.write", TrustTier::System, &[Effect::Write])),
            CallDecision::NeedsApproval {
                reasons: vec!["effect write requires approval".into()]
            }
        );
        assert_eq!(
            p.decide_call(CallTarget::Unknown("data.list.filter")),
            CallDecision::Deny {
                reasons: vec!["unknown capability data.list.filter".into()]
            }
        );
        assert_eq!(
            p.decide_call(&cap("x.y", TrustTier::Untrusted, &[Effect::Read])),
            CallDecision::Deny {
                reasons: vec!["trust tier untrusted exceeds maximum community".into()]
            }
        );
        // unknown effects are treated as write
        assert!(matches!(
            p.decide_call(&cap("x.z", TrustTier::Community, &[])),
            CallDecision::NeedsApproval { .. }
        ));
        assert_eq!(p.call_timeout_ms, 30_000);
        assert_eq!(p.max_calls, 1000);
        assert_eq!(policy(""), p);
    }

    #[test]
    fn deny_wins_over_allow_and_reasons_name_the_pattern() {
        let p = policy(
            r#"
[capabilities]
allow = ["ccos.*", "mcp.*"]
deny = ["mcp.git.*"]
"#,
        );
        let read = [Effect::Read];
        assert_eq!(
            p.decide_call(&cap("mcp.git.log", TrustTier::Community, &read)),
            CallDecision::Deny {
                reasons: vec!["denied by pattern mcp.git.*".into()]
            }
        );
        assert_eq!(
            p.decide_call(&cap("mcp.filesystem.read", TrustTier::Community, &read)),
            CallDecision::Allow
        );
        assert_eq!(
            p.decide_call(&cap("github.issues.list", TrustTier::Community, &read)),
            CallDecision::Deny {
                reasons: vec!["not matched by any allowed pattern (ccos.* mcp.*)".into()]
            }
        );
    }

    #[test]
    fn tiers_and_effects() {
        let p = policy(
            r#"
[capabilities]
max_trust_tier = "trusted"
[effects]
allow = ["pure", "read"]
require_approval = []
"#,
        );
        assert!(
            p.decide_call(&cap("a", TrustTier::Trusted, &[Effect::Read])) == CallDecision::Allow
        );
        assert_eq!(
            p.decide_call(&cap("a", TrustTier::Community, &[Effect::Network])),
            CallDecision::Deny {
                reasons: vec![
                    "trust tier community exceeds maximum trusted".into(),
                    "effect network not allowed".into()
                ]
            }
        );
        assert_eq!(
            p.decide_call(&cap("a", TrustTier::System, &[])).reasons(),
            ["effect write not allowed (effects unknown, assumed write)"]
        );
    }

    #[test]
    fn approval_rules_and_pre_approval() {
        let p = policy(
            r#"
[capabilities]
require_approval = ["ccos.ask.*"]
pre_approved = ["ccos.fs.*"]
"#,
        );
        assert_eq!(
            p.decide_call(&cap("ccos.ask.user", TrustTier::System, &[Effect::User])),
            CallDecision::NeedsApproval {
                reasons: vec!["matches approval pattern ccos.ask.*".into()]
            }
        );
        assert_eq!(
            p.decide_call(&cap("ccos.fs.write", TrustTier::System, &[Effect::Write])),
            CallDecision::Allow
        );
        assert_eq!(
            p.decide_call(&cap("ccos.http.get", TrustTier::System, &[Effect::Network]))
                .label(),
            "needs_approval"
        );
    }

    #[test]
    fn plan_decision_aggregates() {
        let p = Policy::default();
        let allow = CallDecision::Allow;
        let approve = CallDecision::NeedsApproval {
            reasons: vec!["effect write requires approval".into()],
        };
        let deny = CallDecision::Deny {
            reasons: vec!["denied by pattern x.*".into()],
        };
        assert_eq!(p.decide_plan([("a", &allow)]), CallDecision::Allow);
        assert_eq!(p.decide_plan(std::iter::empty()), CallDecision::Allow);
        assert_eq!(
            p.decide_plan([("a", &allow), ("w", &approve), ("w", &approve)]),
            CallDecision::NeedsApproval {
                reasons: vec!["w: effect write requires approval".into()]
            }
        );
        assert_eq!(
            p.decide_plan([("w", &approve), ("x.y", &deny)]),
            CallDecision::Deny {
                reasons: vec!["x.y: denied by pattern x.*".into()]
            }
        );
    }

    #[test]
    fn toml_errors_name_file_line_and_key() {
        let e = Policy::from_toml_str("[capabilities]\nalow = [\"*\"]\n").unwrap_err();
        let PolicyError::Invalid {
            line, key, message, ..
        } = &e
        else {
            panic!("{e:?}")
        };
        assert_eq!(*line, 2);
        assert_eq!(key.as_deref(), Some("capabilities.alow"));
        assert!(message.contains("unknown field `alow`"), "{message}");
        assert!(
            e.to_string()
                .starts_with("<policy>:2:1: key capabilities.alow: "),
            "{e}"
        );

        let e =
            Policy::from_toml_str("[effects]\nallow = [\"pure\",\n  \"teleport\"]\n").unwrap_err();
        let PolicyError::Invalid { line, key, .. } = &e else {
            panic!("{e:?}")
        };
        assert_eq!((*line, key.as_deref()), (3, Some("effects.allow")), "{e}");

        let e =
            Policy::from_toml_str("[capabilities]\nmax_trust_tier = \"godlike\"\n").unwrap_err();
        assert!(e.to_string().contains(":2:"), "{e}");
        assert!(e.to_string().contains("capabilities.max_trust_tier"), "{e}");

        let e = Policy::from_toml_str("[capabilities]\ndeny = [\"ok.*\", \"bad[\"]\n").unwrap_err();
        let PolicyError::Invalid {
            line,
            column,
            key,
            message,
            ..
        } = &e
        else {
            panic!("{e:?}")
        };
        assert_eq!((*line, *column), (2, 17), "{e}");
        assert_eq!(key.as_deref(), Some("capabilities.deny"));
        assert!(message.contains("bad["), "{message}");

        let e = Policy::from_toml_str("[limits]\nmax_calls = \"many\"\n").unwrap_err();
        assert!(e.to_string().contains("limits.max_calls"), "{e}");

        let e = Policy::from_toml_str("[nope]\n").unwrap_err();
        assert!(e.to_string().contains(":1:"), "{e}");
    }

    #[test]
    fn from_file_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("policy.toml");
        std::fs::write(&path, "[limits]\ntimeout = 5\n").unwrap();
        let e = Policy::from_file(&path).unwrap_err();
        assert!(
            e.to_string()
                .starts_with(&format!("{}:2:1:", path.display())),
            "{e}"
        );
        let e = Policy::from_file(&dir.path().join("missing.toml")).unwrap_err();
        assert!(matches!(e, PolicyError::Io { .. }));
        std::fs::write(
            &path,
            "[limits]\ncall_timeout_ms = 5\n[secrets]\nenv = [\"TOKEN\"]\n",
        )
        .unwrap();
        let p = Policy::from_file(&path).unwrap();
        assert_eq!(p.call_timeout_ms, 5);
        assert_eq!(p.secret_env, ["TOKEN"]);
    }

    #[test]
    fn agents_are_decided_by_the_capability_globs_and_trust_tier() {
        let p = Policy::from_toml_str(
            "[capabilities]\nallow = [\"agent.*\"]\ndeny = [\"agent.bad\"]\n",
        )
        .unwrap();
        assert_eq!(
            p.decide_agent("agent.ok", TrustTier::Community),
            CallDecision::Allow
        );
        assert!(p.decide_agent("agent.bad", TrustTier::System).is_denied());
        assert!(p.decide_agent("other", TrustTier::System).is_denied());
        let d = p.decide_agent("agent.x", TrustTier::Untrusted);
        assert!(d.reasons()[0].contains("trust tier untrusted"), "{d:?}");
    }
}
