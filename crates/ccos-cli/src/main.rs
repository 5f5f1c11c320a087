//! `ccos`: the command-line front end.
//!
//! This crate parses arguments, opens a [`ccos_world::World`] (where all the
//! work lives), calls one operation and prints the result; it also owns the
//! terminal (progress, approvals, questions: [`term`]), signals and exit
//! codes ([`exit::Exit`]). Every subcommand lives in its own module under
//! [`cmd`].

mod cmd;
mod exit;
mod open;
mod term;

use clap::{Parser, Subcommand};

use crate::exit::{CliError, Exit};

/// The system allocator, counted: the live heap is what a run's memory
/// budget (policy `max_memory_mb`, `rtfs eval --max-memory-mb`) measures,
/// through `ccos_core::heap`. No limit is set on the allocator itself: an
/// allocation failure aborts, while a budget checked by the run's host
/// ends the run with a clear error.
#[global_allocator]
static ALLOCATOR: cap::Cap<std::alloc::System> = cap::Cap::new(std::alloc::System, usize::MAX);

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
    /// Plan a goal and run it governed, or run an RTFS plan (--plan FILE).
    Run(cmd::run::RunArgs),
    /// Plan a goal over the catalog (RTFS plan, or exit 4: requires an agent).
    Plan(cmd::plan::PlanArgs),
    /// Preflight a plan against the catalog and the security policy, without running it.
    Check(cmd::check::CheckArgs),
    /// Runs: list them, or show the story of one (plan, steps, calls, approvals, outcome).
    #[command(subcommand)]
    Runs(cmd::runs::RunsCommand),
    /// The capability catalog: list, show, search, import OpenAPI documents, remove.
    #[command(subcommand)]
    Caps(cmd::caps::CapsCommand),
    /// MCP servers: add, list, remove, discover their tools, call a tool (governed).
    #[command(subcommand)]
    Mcp(cmd::mcp::McpCommand),
    /// The tamper-evident causal chain: show entries, verify the hash links, export.
    #[command(subcommand)]
    Chain(cmd::chain::ChainCommand),
    /// The intent graph: show an intent and its sub-intents, list intents.
    #[command(subcommand)]
    Graph(cmd::graph::GraphCommand),
    /// The plan archive: list and show generated plans.
    #[command(subcommand)]
    Plans(cmd::plans::PlansCommand),
    /// Ask the configured LLM for an intent (RTFS first, JSON fallback) and store it.
    Intent(cmd::intent::IntentArgs),
    /// Synthesize a planner (or an RTFS agent) from a conversation (spec 026).
    #[command(subcommand)]
    Synth(cmd::synth::SynthCommand),
    /// The agent registry: list agents, show one (card, plan, outcomes).
    #[command(subcommand)]
    Agents(cmd::agents::AgentsCommand),
    /// Measure the planner: public benchmarks (metatool, ultratool, restbench, seal-tools), the goal suite (`eval goals`), BFCL end to end (`eval bfcl`).
    Eval(cmd::eval::EvalArgs),
    /// Work with RTFS source alone: evaluate, format, check.
    #[command(subcommand)]
    Rtfs(cmd::rtfs::RtfsCommand),
}

fn main() {
    // A closed pipe (`ccos caps list | head -1`) ends the process quietly,
    // as it does for other command-line tools, instead of a panic in
    // `println!`.
    // SAFETY: resetting a signal disposition at start-up, before any thread
    // exists, has no memory-safety requirement.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    ccos_core::heap::install_probe(|| ALLOCATOR.allocated());
    // Under an address-space limit (`ulimit -v`), a quarter of it is the
    // most the heap may hold: threads' stacks and arenas reserve much of
    // the rest, and past it allocations would fail and abort.
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into the struct it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } == 0
        && limit.rlim_cur != libc::RLIM_INFINITY
    {
        ccos_core::heap::set_ceiling(usize::try_from(limit.rlim_cur / 4).unwrap_or(usize::MAX));
    }
    let cli = Cli::parse();
    let home = ccos_world::Home::resolve(cli.home.clone());
    let home = home.root();
    let result: Result<(), CliError> = match cli.command {
        Command::Run(c) => cmd::run::run(c, home),
        Command::Plan(c) => cmd::plan::run(c, home),
        Command::Check(c) => cmd::check::run(c, home),
        Command::Runs(c) => cmd::runs::run(c, home),
        Command::Caps(c) => cmd::caps::run(c, home),
        Command::Mcp(c) => cmd::mcp::run(c, home),
        Command::Chain(c) => cmd::chain::run(c, home),
        Command::Graph(c) => cmd::graph::run(c, home),
        Command::Plans(c) => cmd::plans::run(c, home),
        Command::Intent(c) => cmd::intent::run(c, home),
        Command::Synth(c) => cmd::synth::run(c, home),
        Command::Agents(c) => cmd::agents::run(c, home),
        Command::Eval(c) => cmd::eval::run(c, home),
        Command::Rtfs(c) => cmd::rtfs::run(c),
    };
    match result {
        Ok(()) => std::process::exit(Exit::Ok as i32),
        Err(e) => {
            e.print();
            std::process::exit(e.code as i32);
        }
    }
}
