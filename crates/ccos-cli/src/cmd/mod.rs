//! One module per subcommand group.

pub mod rtfs;
