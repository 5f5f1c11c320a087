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
mod llm;
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
    /// Synthesize a planner (or an RTFS agent) from a conversation (spec 026).
    #[command(subcommand)]
    Synth(cmd::synth::SynthCommand),
    /// The agent registry: list agents, show one (card, plan, outcomes).
    #[command(subcommand)]
    Agents(cmd::agents::AgentsCommand),
    /// Ask the configured LLM for an intent (RTFS first, JSON fallback) and store it.
    Intent(cmd::intent::IntentArgs),
    /// Plan a goal over the catalog (RTFS plan, or exit 4: requires an agent).
    Plan(cmd::plan::PlanArgs),
    /// Measure capability resolution on a public benchmark (metatool, ultratool, restbench, seal-tools).
    Eval(cmd::eval::EvalArgs),
    /// MCP servers: add, list, remove, discover their tools, call a tool.
    #[command(subcommand)]
    Mcp(cmd::mcp::McpCommand),
    /// Preflight a plan against the catalog and the security policy, without running it.
    Check(cmd::check::CheckArgs),
    /// Run an RTFS plan under the security policy, recording everything.
    Run(cmd::run::RunArgs),
    /// The intent graph: show an intent and its sub-intents, list intents.
    #[command(subcommand)]
    Graph(cmd::graph::GraphCommand),
    /// The tamper-evident causal chain: show entries, verify the hash links.
    #[command(subcommand)]
    Chain(cmd::chain::ChainCommand),
    /// The plan archive: list and show generated plans.
    #[command(subcommand)]
    Plans(cmd::plans::PlansCommand),
    /// The capability catalog: list, show, search, import OpenAPI documents.
    #[command(subcommand)]
    Caps(cmd::caps::CapsCommand),
}

fn main() {
    let cli = Cli::parse();
    let home = home::Home::resolve(cli.home.clone());
    let result: Result<(), CliError> = match cli.command {
        Command::Rtfs(c) => cmd::rtfs::run(c, &home),
        Command::Synth(c) => cmd::synth::run(c, &home),
        Command::Agents(c) => cmd::agents::run(c, &home),
        Command::Intent(c) => cmd::intent::run(c, &home),
        Command::Plan(c) => cmd::plan::run(c, &home),
        Command::Eval(c) => cmd::eval::run(c, &home),
        Command::Mcp(c) => cmd::mcp::run(c, &home),
        Command::Check(c) => cmd::check::run(c, &home),
        Command::Run(c) => cmd::run::run(c, &home),
        Command::Graph(c) => cmd::graph::run(c, &home),
        Command::Chain(c) => cmd::chain::run(c, &home),
        Command::Plans(c) => cmd::plans::run(c, &home),
        Command::Caps(c) => cmd::caps::run(c, &home),
    };
    match result {
        Ok(()) => std::process::exit(Exit::Ok as i32),
        Err(e) => {
            e.print();
            std::process::exit(e.code as i32);
        }
    }
}
