//! Integration tests of the deterministic planner: golden plans over the
//! built-ins and over a real MCP server.

#[path = "it/plans.rs"]
mod plans;

#[path = "it/mcp_plans.rs"]
mod mcp_plans;
