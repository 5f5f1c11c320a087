//! # ccos as an MCP server
//!
//! `ccos mcp serve` gives MCP clients (Claude Desktop, Claude Code, Cursor,
//! any client of the Model Context Protocol) the two ways in that a person
//! at a terminal has, both through the one governed door:
//!
//! - **plans**: tools to search the catalog (`ccos_capabilities`), plan a
//!   goal (`ccos_plan`), check a plan and get repair hints with line and
//!   column (`ccos_check`), run a plan or a goal governed
//!   (`ccos_run`: `step-parallel` branches concurrently, approvals asked of
//!   the client), read a run back from the causal chain
//!   (`ccos_explain_run`) and verify the chain (`ccos_verify_chain`); the
//!   plan-writing contract as an MCP prompt and the RTFS reference as a
//!   resource ([`contract`]);
//! - **the governed gateway** (`--gateway`, [`gateway`]): the catalog's
//!   capabilities as MCP tools, each call a one-call plan.
//!
//! Every effect goes through the world's orchestrator (`GovernedHost`:
//! decide, approve, validate, call, record, redact). Approvals are asked of
//! the client through MCP elicitation when it supports it, else refused
//! with how to pre-approve the call ([`approval`]).
//!
//! Transports: stdio ([`serve_stdio`]) and streamable HTTP ([`HttpServer`]:
//! loopback by default, a bearer token required elsewhere). The server
//! speaks MCP up to 2025-11-25 (see
//! [`CcosServer`]'s `supported_protocol_versions`).
//!
//! Layering: above `ccos-world` (it calls the world's operations, as the
//! CLI does), below `ccos-cli` (which parses arguments, owns signals and
//! prints).

#![warn(missing_docs)]

pub mod approval;
pub mod contract;
pub mod gateway;
mod http;
mod server;
pub mod tools;

pub use http::{ENDPOINT, HttpServer, MIN_TOKEN_LEN, is_loopback};
pub use server::{CcosServer, ServeError, ServeOptions, Stop, serve_stdio};
