//! Understanding what a clause states, without a language model.
//!
//! - [`mentions`]: the values a goal states (numbers, quoted texts, paths,
//!   URLs, repositories, lists, durations, dates, names...), each with its
//!   span and the words around it;
//! - [`bind`]: schema-guided slot filling — which stated value goes in
//!   which parameter of a candidate capability, what would be dropped and
//!   what is left open;
//! - [`lexicon`]: operation words that contradict each other (a goal that
//!   divides is never served by a capability that sums);
//! - [`arith`]: arithmetic in words and symbols, decomposed into one
//!   compute sub-intent per operation;
//! - [`units`]: units of measure after a number ("10 meters", "300K"),
//!   and where such a quantity may go;
//! - [`currencies`]: currencies named in words or by code ("Canadian
//!   dollars" → `CAD`);
//! - [`zones`]: place names as IANA time zones ("Tokyo" → `Asia/Tokyo`),
//!   from the time-zone database;
//! - [`regions`]: whether a name is a region a place is qualified with
//!   ("Seattle, *Washington*"): countries, states, provinces;
//! - [`statement`]: a statement of fact to remember ("remember that Alice
//!   likes tea"): what it is about, and the statement as written.
//!
//! These are general mechanisms measured on goals they were not written
//! for (the held-out part of the goal suite and the BFCL sets, issue #15);
//! per-phrase rules stay in `rules/patterns.toml`.

pub mod arith;
pub mod bind;
pub mod currencies;
pub mod languages;
pub mod lexicon;
pub mod mentions;
pub mod nationalities;
pub mod regions;
pub mod statement;
pub mod units;
pub mod zones;

pub use bind::{Binding, Bound, bind};
pub use mentions::{
    Cue, LiteralError, Mention, MentionKind, mentions, residual, unshouted, without_contractions,
};
