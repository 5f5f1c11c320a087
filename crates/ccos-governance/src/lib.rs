//! # Governance: which capability calls may run, checked before anything runs
//!
//! Plans act only through capabilities. This crate holds the runtime
//! security policy ([`Policy`], read from TOML) and its decisions on
//! single calls and whole plans ([`CallDecision`]), and the preflight
//! ([`preflight()`]) that walks a parsed plan and reports, without running
//! it, every unknown or denied capability, every call needing approval and
//! every argument that does not fit its capability's input schema — each
//! with a location and a compact repair hint.
//!
//! ## The default policy
//!
//! [`Policy::default`] (also what an empty policy file means):
//!
//! * capability ids: allow `*`, deny nothing — but only **registered**
//!   capabilities; an unknown id is always denied;
//! * maximum trust tier: `community` (`untrusted` providers are denied);
//! * allowed effects: `pure read user write network`, of which `write` and
//!   `network` **need approval**; a capability with no declared effects
//!   counts as `write`;
//! * per-call timeout 30 000 ms; budget 1000 calls per plan run;
//! * no secret environment variables.
//!
//! See `examples/policy.toml` at the repository root for a commented file
//! spelling out these defaults.
//!
//! ```
//! use ccos_governance::{Policy, preflight_str};
//! use std::collections::BTreeMap;
//!
//! let catalog = BTreeMap::new(); // nothing registered
//! let report = preflight_str("(call :ccos.echo {:message \"hi\"})", &catalog,
//!                            &Policy::default()).unwrap();
//! assert_eq!(report.findings[0].code, "unknown_capability");
//! assert!(report.decision.is_denied());
//! ```

#![warn(missing_docs)]

pub mod policy;
pub mod preflight;

pub use ccos_marketplace::schema::Severity;
pub use policy::{CallDecision, CallTarget, Decision, PatternList, Policy, PolicyError};
pub use preflight::{
    CallCheck, Catalog, Finding, PreflightReport, closest_ids, preflight, preflight_str,
};
