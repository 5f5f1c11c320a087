//! `ccos`: the command-line front end.
//!
//! This crate is the only place that reads the environment (`CCOS_HOME`,
//! `CCOS_*` variables), talks to the terminal, and maps outcomes to exit
//! codes (see [`exit::Exit`]). Every subcommand lives in its own module under
//! [`cmd`].

mod cmd;
mod config;
mod exit;
mod home;
mod rt;

use clap::{Parser, Subcommand};

use crate::exit::{CliError, Exit};

/// Governed planner for AI agents: turns goals into auditable RTFS plans and
/// runs them against real tools under a security policy.
#[derive(Parser)]
#[command(name = "ccos", version, about, long_about = None)]
struct Cli {
    /// State directory (catalog, stores, config). Defaults to $CCOS_HOME,
    /// else a per-user data directory.
    #[arg(long, global = true, env = "CCOS_HOME", value_name = "DIR")]
    home: Option<std::path::PathBuf>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Work with RTFS source: evaluate, format, check.
    #[command(subcommand)]
    Rtfs(cmd::rtfs::RtfsCommand),
}

fn main() {
    let cli = Cli::parse();
    let home = home::Home::resolve(cli.home.clone());
    let result: Result<(), CliError> = match cli.command {
        Command::Rtfs(c) => cmd::rtfs::run(c, &home),
    };
    match result {
        Ok(()) => std::process::exit(Exit::Ok as i32),
        Err(e) => {
            e.print();
            std::process::exit(e.code as i32);
        }
    }
}
