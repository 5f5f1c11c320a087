//! # RTFS — the plan language
//!
//! A small Clojure-like language in which every plan of this project is
//! written, checked and run. This crate is the language alone:
//!
//! * [`lexer`] and [`parser`]: hand-written, producing [`syntax::Expr`]
//!   trees whose every node carries its byte [`Span`];
//! * [`value`]: immutable, thread-safe runtime values with a total order,
//!   so maps iterate deterministically;
//! * [`printer`]: the canonical printer (`parse(print(v)) == v`);
//! * [`eval`]: the evaluator with bounded resources, and [`builtins`], its
//!   pure standard library;
//! * [`host`]: the [`Host`] trait, the evaluator's only door to the world;
//! * [`types`]: type expressions ([`TypeExpr`]) — annotations checked at
//!   run time, capability schemas, JSON Schema.
//!
//! The language itself is described in `docs/rtfs.md`.
//!
//! **Invariant:** nothing here performs I/O, reads the clock, spawns threads
//! or depends on an async runtime. Every effect is a `(call ...)` handed to
//! the host; a `step-parallel` is handed to the host as independent
//! branches, and the host chooses how to run them.
//!
//! ```
//! let v = rtfs::eval_str("(let [x 2] (+ x (* 3 4)))").unwrap();
//! assert_eq!(v.to_string(), "14");
//! ```

#![warn(missing_docs)]

pub mod builtins;
pub mod error;
pub mod eval;
pub mod host;
pub mod json;
pub mod lexer;
pub mod parser;
pub mod printer;
pub mod redact;
pub mod syntax;
pub mod types;
pub mod value;

#[cfg(test)]
mod tests;

pub use error::{ErrorKind, LineIndex, Result, RtfsError, Span, line_col};
pub use eval::{Evaluator, Limits, eval_str, is_special_form};
pub use host::{Branch, CallRequest, DeadlineHost, Host, PureHost, StepEvent, StepKind, StepPhase};
pub use json::{from_json, parse_json_str, to_json};
pub use parser::{parse, parse_one};
pub use printer::{pretty, print_expr, print_value};
pub use syntax::{Expr, ExprKind};
pub use types::TypeExpr;
pub use value::{Function, Map, Value};
