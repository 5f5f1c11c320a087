//! `ccos mcp add|list|remove|discover|tools|call|serve`: MCP servers as
//! capabilities, and ccos as an MCP server (`serve`, see [`super::mcp_serve`]). Servers live in `$CCOS_HOME/mcp.json` (the `mcpServers`
//! format of Claude Desktop, Cursor and VS Code); discovered tools are
//! cached in `$CCOS_HOME/mcp-cache/` and registered in the catalog.
//! `ccos mcp call` goes through the governed door like a plan's call:
//! policy, approval, argument validation, the causal chain.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use ccos_marketplace::TrustTier;
use ccos_mcp::{ServerConfig, Transport};
use clap::Subcommand;
use serde_json::{Value as Json, json};

use crate::exit::{CliError, Exit};
use crate::open::{ExecArgs, exec_world, note, out, print_json, read_world};

/// MCP subcommands.
#[derive(Subcommand)]
pub enum McpCommand {
    /// Add (or replace) a server: `ccos mcp add NAME -- COMMAND ARGS...` for
    /// stdio, `ccos mcp add NAME --url URL [--header K=V]` for HTTP.
    Add {
        /// Server name (the key in mcp.json).
        name: String,
        /// Streamable HTTP endpoint, instead of a command.
        #[arg(long, conflicts_with = "command")]
        url: Option<String>,
        /// HTTP header sent with every request, `K=V` (repeatable).
        #[arg(long = "header", value_name = "K=V", requires = "url")]
        headers: Vec<String>,
        /// Environment variable for a stdio server, `K=V` (repeatable).
        #[arg(long = "env", value_name = "K=V")]
        env: Vec<String>,
        /// Trust tier of its tools: system, trusted, community, untrusted.
        #[arg(long)]
        trust: Option<String>,
        /// Per-call timeout in milliseconds (default 30000).
        #[arg(long, value_name = "MS")]
        timeout_ms: Option<u64>,
        /// The command and its arguments (after `--`).
        #[arg(last = true, value_name = "COMMAND")]
        command: Vec<String>,
    },
    /// List configured servers.
    List {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Remove a server, its cached tools and its catalog entries.
    Remove {
        /// Server name.
        name: String,
    },
    /// List the tools of one or all servers and register them in the
    /// catalog (from the cache unless --refresh). A tool whose name,
    /// description, schema or annotations changed since it was accepted,
    /// or that appeared since, is held (not served) until --accept.
    Discover {
        /// Only this server.
        name: Option<String>,
        /// Connect and list again even when cached.
        #[arg(long)]
        refresh: bool,
        /// List again and accept the tools as they are now (after reviewing
        /// them: `ccos mcp tools NAME` shows held tools as listed now); the
        /// change is recorded in
        /// the causal chain.
        #[arg(long)]
        accept: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Show a server's tools (discovering them if not cached).
    Tools {
        /// Server name.
        name: String,
        /// Print the manifests as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Serve ccos itself over MCP (stdio, or --http ADDR): plans, checks,
    /// governed runs and the causal chain as tools; --gateway also serves
    /// the catalog's capabilities.
    Serve(crate::cmd::mcp_serve::ServeArgs),
    /// Call a tool: `ccos mcp call NAME TOOL '{"k": "v"}'`.
    Call {
        /// Server name.
        name: String,
        /// Tool name (as the server lists it).
        tool: String,
        /// Arguments as a JSON object (default `{}`).
        args: Option<String>,
        #[command(flatten)]
        exec: ExecArgs,
    },
}

fn pairs(items: &[String], what: &str) -> Result<BTreeMap<String, String>, CliError> {
    items
        .iter()
        .map(|kv| match kv.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.to_string())),
            _ => Err(CliError::with_code(
                Exit::Usage,
                format!("{what} must be K=V, got \"{kv}\""),
            )),
        })
        .collect()
}

fn transport_json(s: &ServerConfig) -> Json {
    match &s.transport {
        Transport::Stdio { command, args, .. } => {
            json!({"transport": "stdio", "command": command, "args": args})
        }
        Transport::Http { url, .. } => json!({"transport": "http", "url": url}),
    }
}

/// Runs an mcp subcommand.
pub fn run(cmd: McpCommand, home: &Path) -> Result<(), CliError> {
    match cmd {
        McpCommand::Add {
            name,
            url,
            headers,
            env,
            trust,
            timeout_ms,
            command,
        } => {
            let mut server = match (url, command.split_first()) {
                (Some(url), None) => {
                    let mut s = ServerConfig::http(&name, &url);
                    if let Transport::Http { headers: h, .. } = &mut s.transport {
                        *h = pairs(&headers, "--header")?;
                    }
                    s
                }
                (None, Some((program, args))) => {
                    let args: Vec<&str> = args.iter().map(String::as_str).collect();
                    let mut s = ServerConfig::stdio(&name, program, &args);
                    if let Transport::Stdio { env: e, .. } = &mut s.transport {
                        *e = pairs(&env, "--env")?;
                    }
                    s
                }
                _ => {
                    return Err(CliError::with_code(
                        Exit::Usage,
                        "give either `-- COMMAND ARGS...` or `--url URL`",
                    ));
                }
            };
            if let Some(t) = trust {
                server.trust = TrustTier::parse(&t).ok_or_else(|| {
                    CliError::with_code(
                        Exit::Usage,
                        format!(
                            "unknown trust tier \"{t}\" (system, trusted, community, untrusted)"
                        ),
                    )
                })?;
            }
            if let Some(ms) = timeout_ms {
                if ms == 0 {
                    return Err(CliError::with_code(
                        Exit::Usage,
                        "--timeout-ms must be positive",
                    ));
                }
                server.timeout = Duration::from_millis(ms);
            }
            let world = read_world(home, None)?;
            world.add_server(&server)?;
            out(format!(
                "added MCP server \"{name}\" ({}) to {}",
                server.endpoint(),
                world.mcp_config_path().display()
            ));
            out(format!("next: ccos mcp discover {name}"));
            Ok(())
        }
        McpCommand::List { json } => {
            let world = read_world(home, None)?;
            let cfg = world.mcp_config()?;
            let cache = world.mcp_cache();
            if json {
                let mut rows = vec![];
                for s in cfg.servers.values() {
                    let cached = cache.load(&s.name).ok().flatten();
                    let mut o = transport_json(s);
                    o["name"] = json!(s.name);
                    o["trust"] = json!(s.trust.as_str());
                    o["timeout_ms"] =
                        json!(u64::try_from(s.timeout.as_millis()).unwrap_or(u64::MAX));
                    o["tools"] = json!(cached.as_ref().map(|c| c.manifests.len()));
                    o["fetched_at"] = json!(cached.as_ref().map(|c| c.fetched_at.clone()));
                    rows.push(o);
                }
                return print_json(&json!({"config": cfg.path, "servers": rows}));
            }
            if cfg.servers.is_empty() {
                out(format!(
                    "no MCP servers in {} (add one: ccos mcp add NAME -- COMMAND ARGS...)",
                    cfg.path.display()
                ));
                return Ok(());
            }
            for s in cfg.servers.values() {
                let tools = match cache.load(&s.name).ok().flatten() {
                    Some(c) => format!("{} tools, listed {}", c.manifests.len(), c.fetched_at),
                    None => "not discovered".into(),
                };
                let kind = if s.is_local() { "stdio" } else { "http" };
                out(format!(
                    "{}\t{kind}\t{}\t{}\t{tools}",
                    s.name,
                    s.trust.as_str(),
                    s.endpoint()
                ));
            }
            Ok(())
        }
        McpCommand::Remove { name } => {
            let world = read_world(home, None)?;
            let removed = world.remove_server(&name)?;
            out(format!(
                "removed MCP server \"{name}\" and {} catalog entr{}",
                removed.len(),
                if removed.len() == 1 { "y" } else { "ies" }
            ));
            Ok(())
        }
        McpCommand::Discover {
            name,
            refresh,
            accept,
            json,
        } => {
            let world = read_world(home, None)?;
            if world.mcp_config()?.servers.is_empty() {
                out(format!(
                    "no MCP servers in {}",
                    world.mcp_config_path().display()
                ));
                return Ok(());
            }
            let reports = world.discover(name.as_deref(), refresh, accept)?;
            let mut rows = vec![];
            let mut failures = 0;
            for r in &reports {
                match &r.result {
                    Ok(d) => {
                        if json {
                            rows.push(json!({
                                "server": r.server, "ok": true, "tools": d.ids.len(),
                                "fetched": d.fetched, "fetched_at": d.fetched_at,
                                "millis": r.millis, "ids": d.ids, "removed": d.removed,
                                "skipped": d.skipped, "changes": d.changes,
                                "accepted": d.accepted, "held": d.held,
                            }));
                        } else {
                            if !d.held.is_empty() {
                                note(format!(
                                    "warning: {}: tools changed since they were accepted ({}); not served until you review them and run `ccos mcp discover {} --accept`",
                                    r.server,
                                    d.changes.describe(),
                                    r.server
                                ));
                            } else if d.accepted && !d.changes.is_empty() && d.fetched {
                                note(format!("{}: accepted: {}", r.server, d.changes.describe()));
                            }
                            for sk in &d.skipped {
                                note(format!(
                                    "warning: {}: tool {:?} skipped: {}",
                                    r.server, sk.tool, sk.reason
                                ));
                            }
                            let how = if d.fetched {
                                format!("listed in {} ms", r.millis)
                            } else {
                                format!("cached {}; --refresh to re-list", d.fetched_at)
                            };
                            out(format!(
                                "{}: {} tools registered ({how})",
                                r.server,
                                d.ids.len()
                            ));
                            let held: Vec<String> = d
                                .held
                                .iter()
                                .map(|h| ccos_mcp::capability_id(&r.server, &h.tool))
                                .collect();
                            for id in &d.removed {
                                if held.contains(id) {
                                    out(format!("  held {id} (changed since it was accepted)"));
                                } else {
                                    out(format!("  removed {id} (no longer listed)"));
                                }
                            }
                        }
                    }
                    Err(e) => {
                        failures += 1;
                        if json {
                            rows.push(json!({"server": r.server, "ok": false, "error": e}));
                        } else {
                            note(format!("error: {e}"));
                        }
                    }
                }
            }
            let semantic = if failures < reports.len() {
                super::index_catalog(&world)
            } else {
                None
            };
            if json {
                print_json(&json!({"servers": rows, "semantic": semantic}))?;
            }
            if failures > 0 {
                return Err(CliError::silent(Exit::Error));
            }
            Ok(())
        }
        McpCommand::Tools { name, json } => {
            let world = read_world(home, None)?;
            let tools = world.server_tools(&name)?;
            if json {
                return print_json(&tools);
            }
            for m in &tools {
                let tool = match &m.provider {
                    ccos_marketplace::ProviderSpec::Mcp { tool, .. } => tool.as_str(),
                    _ => "",
                };
                let effects: Vec<&str> = m.effects.iter().map(|e| e.as_str()).collect();
                let summary: String = m
                    .description
                    .lines()
                    .next()
                    .unwrap_or("")
                    .chars()
                    .take(80)
                    .collect();
                out(format!(
                    "{}\t{tool}\t[{}]\t{summary}",
                    m.id,
                    effects.join(",")
                ));
            }
            // Held tools, as the server lists them now, for review.
            if let Some(found) = world.mcp_cache().load(&name).ok().flatten() {
                for h in &found.held {
                    let listed = found
                        .tools
                        .iter()
                        .find(|t| ccos_mcp::fingerprint::tool_name(t) == h.tool);
                    out(format!(
                        "HELD {}\t{} since accepted; not served until `ccos mcp discover {name} --accept`",
                        ccos_mcp::capability_id(&name, &h.tool),
                        h.change
                    ));
                    if let Some(t) = listed {
                        let pretty =
                            serde_json::to_string_pretty(t).unwrap_or_else(|_| t.to_string());
                        for line in pretty.lines() {
                            out(format!("    {line}"));
                        }
                    }
                }
            }
            Ok(())
        }
        McpCommand::Serve(args) => crate::cmd::mcp_serve::run(args, home),
        McpCommand::Call {
            name,
            tool,
            args,
            exec,
        } => {
            let args: Json = match args.as_deref() {
                None => json!({}),
                Some(text) => serde_json::from_str(text).map_err(|e| {
                    CliError::with_code(Exit::Usage, format!("arguments are not valid JSON: {e}"))
                })?,
            };
            if !args.is_object() {
                return Err(CliError::with_code(
                    Exit::Usage,
                    "arguments must be a JSON object, e.g. '{\"path\": \"/tmp\"}'",
                ));
            }
            let world = exec_world(home, &exec)?;
            world.mcp_config()?.server(&name).map_err(CliError::msg)?;
            let id = ccos_mcp::capability_id(&name, &tool);
            if !world.marketplace()?.contains(&id) {
                // Tools become capabilities at discovery (from the cache when
                // there is one).
                world.discover(Some(&name), false, false)?;
                let held = world
                    .mcp_cache()
                    .load(&name)
                    .ok()
                    .flatten()
                    .and_then(|found| found.held.into_iter().find(|h| h.tool == tool));
                if let Some(h) = held {
                    return Err(CliError::with_code(
                        Exit::Denied,
                        format!(
                            "{id} is not served: the tool was {} since the server's tools were accepted; review it (`ccos mcp tools {name}`) and run `ccos mcp discover {name} --accept`",
                            h.change
                        ),
                    ));
                }
            }
            crate::cmd::run::install_signal_handlers(&world)?;
            let outcome = world.call_capability(&id, args, "<mcp call>", "cli");
            let plan = ccos_world::servers::one_call_plan(&id, &json!({}));
            crate::cmd::run::report(outcome, "<mcp call>", &plan, exec.json)
        }
    }
}
