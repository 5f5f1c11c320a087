//! End-to-end tests of governed execution over the real built-ins, a real
//! SQLite store in a temp dir, and (in `mcp.rs`) a real MCP server.

mod builtins;
mod mcp;
mod rtfs_agents;
mod support;
