//! One module per subcommand group: each parses its arguments, calls the
//! world and prints.

pub mod agents;
pub mod caps;
pub mod chain;
pub mod check;
pub mod eval;
pub mod graph;
pub mod intent;
pub mod mcp;
pub mod mcp_serve;
pub mod plan;
pub mod plans;
pub mod rtfs;
pub mod run;
pub mod runs;
pub mod synth;
