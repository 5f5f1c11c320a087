//! One module per subcommand group.

pub mod caps;
pub mod chain;
pub mod check;
pub mod eval;
pub mod graph;
pub mod mcp;
pub mod plans;
pub mod rtfs;
pub mod run;
