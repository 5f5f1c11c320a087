//! `ccos mcp serve`: ccos as an MCP server, over stdio (what an
//! `mcpServers` entry launches) or streamable HTTP. The server itself is
//! the `ccos-serve` crate; this parses the flags, opens the world, owns
//! the signals and reports on stderr (stdout is the protocol on stdio).
//!
//! Exit codes: 0 when the client disconnects or a signal stops the server,
//! 1 on errors, 2 on usage errors (e.g. a non-loopback address without a
//! token).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use ccos_serve::{HttpServer, ServeError, ServeOptions, Stop};
use ccos_world::World;
use clap::Args;

use crate::exit::{CliError, Exit};
use crate::open::{note, read_world};

/// The environment variable read for the bearer token when
/// `--token-env` is not given.
pub const DEFAULT_TOKEN_ENV: &str = "CCOS_MCP_TOKEN";

/// How long running operations get to finish once the server stops.
const DRAIN: Duration = Duration::from_secs(10);

/// `ccos mcp serve` arguments.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  ccos mcp serve                                  # stdio, for an mcpServers entry
  ccos mcp serve --gateway                        # also the catalog's tools, governed
  ccos mcp serve --http 127.0.0.1:8765            # streamable HTTP at http://127.0.0.1:8765/mcp
  CCOS_MCP_TOKEN=... ccos mcp serve --http 0.0.0.0:8765   # other addresses need a bearer token

Tools: ccos_capabilities, ccos_plan, ccos_check, ccos_run, ccos_explain_run,
ccos_verify_chain; prompt ccos_plan_contract; resource ccos://docs/rtfs.md.
Calls that need approval are asked of the client (MCP elicitation), or
refused with how to pre-approve them in the policy.")]
pub struct ServeArgs {
    /// Serve streamable HTTP on this address (e.g. 127.0.0.1:8765; port 0
    /// picks one) instead of stdio. A non-loopback address needs a token.
    #[arg(long, value_name = "ADDR")]
    pub http: Option<SocketAddr>,
    /// The environment variable holding the bearer token HTTP clients must
    /// send (`Authorization: Bearer TOKEN`); default $CCOS_MCP_TOKEN when
    /// set. Never pass the token itself on the command line.
    #[arg(long, value_name = "VAR", requires = "http")]
    pub token_env: Option<String>,
    /// Also serve the catalog's capabilities (the tools of the MCP servers
    /// in mcp.json, imported OpenAPI operations, built-ins) as tools, each
    /// call governed like a plan's; denied ones are not listed.
    #[arg(long)]
    pub gateway: bool,
    /// Security policy file (TOML), relative to the current directory;
    /// default: the config's `policy`, else the built-in default.
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// Seconds to wait for the client's answer to an approval request.
    #[arg(long, value_name = "SECS", default_value_t = 300)]
    pub approval_timeout: u64,
}

fn serve_error(e: ServeError) -> CliError {
    match e {
        ServeError::Usage(m) => CliError::with_code(Exit::Usage, m),
        ServeError::Failed(m) => CliError::msg(m),
    }
}

/// The bearer token, from `--token-env VAR` or $CCOS_MCP_TOKEN.
fn token(args: &ServeArgs) -> Result<Option<String>, CliError> {
    match &args.token_env {
        Some(var) => match std::env::var(var) {
            Ok(t) if !t.is_empty() => Ok(Some(t)),
            _ => Err(CliError::with_code(
                Exit::Usage,
                format!("--token-env {var}: the variable {var} is not set (or empty)"),
            )),
        },
        None => Ok(std::env::var(DEFAULT_TOKEN_ENV)
            .ok()
            .filter(|t| !t.is_empty())),
    }
}

/// Stops the server on SIGINT, SIGTERM or SIGHUP.
fn install_signal_handlers(world: &World, stop: &Stop) {
    let stop = stop.clone();
    world.handle().spawn(async move {
        use tokio::signal::unix::{SignalKind, signal};
        let (Ok(mut term), Ok(mut hup)) = (
            signal(SignalKind::terminate()),
            signal(SignalKind::hangup()),
        ) else {
            return;
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
            _ = hup.recv() => {}
        }
        stop.stop();
    });
}

/// Runs `ccos mcp serve`.
pub fn run(args: ServeArgs, home: &Path) -> Result<(), CliError> {
    // A server outlives its clients: a write to one that left (a closed
    // socket or pipe) is an error to handle, not a signal that ends the
    // process (`main` restores SIGPIPE's default for the short commands;
    // a client cancelling mid-response once killed the server with
    // signal 13).
    // SAFETY: setting a signal's disposition to "ignore" has no
    // memory-safety requirement; it is process-wide and idempotent.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    if args.approval_timeout == 0 {
        return Err(CliError::with_code(
            Exit::Usage,
            "--approval-timeout must be positive",
        ));
    }
    let token = if args.http.is_some() {
        token(&args)?
    } else {
        None
    };
    // Bind before opening anything, so a refused address fails fast.
    let http = match args.http {
        Some(addr) => Some(HttpServer::bind(addr, token.clone()).map_err(serve_error)?),
        None => None,
    };
    let world = read_world(home, args.policy.as_ref())?;
    // Open what every request needs now: errors show here, not per call.
    world.store()?;
    world.marketplace()?;
    if args.gateway {
        for line in ccos_serve::gateway::prepare(&world)? {
            note(format!("ccos mcp serve: {line}"));
        }
    }
    let stop = Stop::new();
    install_signal_handlers(&world, &stop);
    let options = ServeOptions {
        gateway: args.gateway,
        approval_timeout: Duration::from_secs(args.approval_timeout),
    };
    let world = Arc::new(world);
    let result = match http {
        Some(server) => {
            note(format!(
                "ccos mcp serve: listening on {}{}{} (policy: {})",
                server.url(),
                if token.is_some() {
                    ", bearer token required"
                } else {
                    ""
                },
                if args.gateway { ", gateway" } else { "" },
                world.policy_source()
            ));
            server.serve(world.clone(), options, stop, DRAIN)
        }
        None => ccos_serve::serve_stdio(world.clone(), options, stop, DRAIN),
    };
    // MCP servers stop and the store closes; the runtime is not dropped:
    // a read of stdin that tokio cannot cancel may still be pending, and
    // the process exits right after.
    world.shutdown();
    std::mem::forget(world);
    result.map_err(serve_error)
}
