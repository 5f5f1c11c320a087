//! # What every ccos layer shares
//!
//! The concepts that more than one layer needs live here, once, so their
//! copies cannot drift apart:
//!
//! - [`id`]: unique ids for intents, plans and runs ([`id::new_id`]) and the
//!   clock format of every record ([`id::now_rfc3339`]);
//! - [`text`]: byte [`Span`]s and their line/column ([`LineIndex`], linear
//!   to build, logarithmic per lookup);
//! - [`redact`]: the one [`Redactor`] and its one marker, [`REDACTED`];
//!   values are redacted *as structures*, before they are printed or
//!   serialised, so quoting or escaping can never hide a secret;
//! - [`cards`]: the vocabulary of capabilities shared by governance,
//!   planning and synthesis: [`Effect`], [`TrustTier`], [`CapabilityCard`],
//!   [`AgentCard`];
//! - [`heap`]: the process's live heap as a run budget ([`heap::HeapBudget`]),
//!   read through a probe the binary installs;
//! - [`audit`]: the causal chain as a protocol: the [`audit::EntryKind`]s,
//!   their versioned payload types, RFC 8785 canonical JSON and the entry
//!   hash. `docs/chain-format.md` describes the same rules for outside
//!   auditors.
//!
//! This crate depends on no other crate of ours and performs no I/O except
//! reading the clock (for ids and timestamps) and the bounded reading of a
//! text input ([`text::read_bounded`]).
//!
//! ```
//! use ccos_core::{LineIndex, Redactor};
//!
//! let text = "(do\n  (call :ccos.echo {:message \"hi\"}))";
//! let index = LineIndex::new(text);
//! assert_eq!(index.line_col(text.find("call").unwrap()), (2, 4));
//!
//! let mut secrets = Redactor::default();
//! secrets.add("s3cr3t-token");
//! let payload = serde_json::json!({"headers": {"Authorization": "Bearer s3cr3t-token"}});
//! assert_eq!(
//!     secrets.redact_json(&payload)["headers"]["Authorization"],
//!     "Bearer <redacted>"
//! );
//! ```

#![warn(missing_docs)]

pub mod audit;
pub mod cards;
pub mod heap;
pub mod id;
pub mod redact;
pub mod text;

pub use cards::{AgentCard, CapabilityCard, CardInput, Effect, ParamType, TrustTier};
pub use id::{new_id, now_rfc3339};
pub use redact::{REDACTED, Redactor};
pub use text::{LineIndex, Span, line_col};
