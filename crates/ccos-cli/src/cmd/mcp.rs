//! `ccos mcp add|list|remove|discover|tools|call`: MCP servers as
//! capabilities. Servers live in `$CCOS_HOME/mcp.json` (the `mcpServers`
//! format of Claude Desktop, Cursor and VS Code); discovered tools are
//! cached in `$CCOS_HOME/mcp-cache/` and registered in the catalog.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use ccos_marketplace::TrustTier;
use ccos_mcp::{Cache, McpConfig, McpExecutor, ServerConfig, Transport};
use clap::Subcommand;
use serde_json::{Value as Json, json};

use crate::exit::{CliError, Exit};
use crate::home::Home;

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
    /// catalog (from the cache unless --refresh).
    Discover {
        /// Only this server.
        name: Option<String>,
        /// Connect and list again even when cached.
        #[arg(long)]
        refresh: bool,
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
    /// Call a tool: `ccos mcp call NAME TOOL '{"k": "v"}'`.
    Call {
        /// Server name.
        name: String,
        /// Tool name (as the server lists it).
        tool: String,
        /// Arguments as a JSON object (default `{}`).
        args: Option<String>,
        /// Print the result as JSON instead of RTFS.
        #[arg(long)]
        json: bool,
    },
}

fn config_path(home: &Home) -> std::path::PathBuf {
    McpConfig::path_in(home.root())
}

fn load(home: &Home) -> Result<McpConfig, CliError> {
    McpConfig::load(&config_path(home)).map_err(CliError::msg)
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

/// Runs an MCP subcommand.
pub fn run(cmd: McpCommand, home: &Home) -> Result<(), CliError> {
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
            let path = config_path(home);
            ccos_mcp::config::upsert_server(&path, &server).map_err(CliError::msg)?;
            // The old catalog of a replaced server is stale.
            Cache::in_home(home.root())
                .remove(&name)
                .map_err(CliError::msg)?;
            println!(
                "added MCP server \"{name}\" ({}) to {}",
                server.endpoint(),
                path.display()
            );
            println!("next: ccos mcp discover {name}");
            Ok(())
        }
        McpCommand::List { json } => {
            let cfg = load(home)?;
            let cache = Cache::in_home(home.root());
            if json {
                let mut out = vec![];
                for s in cfg.servers.values() {
                    let cached = cache.load(&s.name).ok().flatten();
                    let mut o = transport_json(s);
                    o["name"] = json!(s.name);
                    o["trust"] = json!(s.trust.as_str());
                    o["timeout_ms"] =
                        json!(u64::try_from(s.timeout.as_millis()).unwrap_or(u64::MAX));
                    o["tools"] = json!(cached.as_ref().map(|c| c.manifests.len()));
                    o["fetched_at"] = json!(cached.as_ref().map(|c| c.fetched_at.clone()));
                    out.push(o);
                }
                return crate::cmd::print_json(&json!({"config": cfg.path, "servers": out}));
            }
            if cfg.servers.is_empty() {
                println!(
                    "no MCP servers in {} (add one: ccos mcp add NAME -- COMMAND ARGS...)",
                    cfg.path.display()
                );
                return Ok(());
            }
            for s in cfg.servers.values() {
                let tools = match cache.load(&s.name).ok().flatten() {
                    Some(c) => format!("{} tools, listed {}", c.manifests.len(), c.fetched_at),
                    None => "not discovered".into(),
                };
                let kind = if s.is_local() { "stdio" } else { "http" };
                println!(
                    "{}\t{kind}\t{}\t{}\t{tools}",
                    s.name,
                    s.trust.as_str(),
                    s.endpoint()
                );
            }
            Ok(())
        }
        McpCommand::Remove { name } => {
            let path = config_path(home);
            ccos_mcp::config::remove_server(&path, &name).map_err(CliError::msg)?;
            Cache::in_home(home.root())
                .remove(&name)
                .map_err(CliError::msg)?;
            let mp = crate::cmd::caps::open_catalog(home)?;
            let removed = ccos_mcp::unregister_server(&mp, &name).map_err(CliError::msg)?;
            println!(
                "removed MCP server \"{name}\" and {} catalog entr{}",
                removed.len(),
                if removed.len() == 1 { "y" } else { "ies" }
            );
            Ok(())
        }
        McpCommand::Discover {
            name,
            refresh,
            json,
        } => {
            let cfg = load(home)?;
            let servers: Vec<&ServerConfig> = match &name {
                Some(n) => vec![cfg.server(n).map_err(CliError::msg)?],
                None => cfg.servers.values().collect(),
            };
            if servers.is_empty() {
                println!("no MCP servers in {}", cfg.path.display());
                return Ok(());
            }
            let cache = Cache::in_home(home.root());
            let mp = crate::cmd::caps::open_catalog(home)?;
            let mut out = vec![];
            let mut failures = 0;
            for s in servers {
                let start = Instant::now();
                let result = crate::rt::block_on(cache.get_or_discover(s, refresh))?;
                let ms = start.elapsed().as_millis();
                match result {
                    Ok((found, fetched)) => {
                        let (n, removed) =
                            ccos_mcp::register_discovered(&mp, &found).map_err(CliError::msg)?;
                        if json {
                            out.push(json!({
                                "server": s.name, "ok": true, "tools": n, "fetched": fetched,
                                "fetched_at": found.fetched_at, "millis": ms,
                                "ids": found.manifests.iter().map(|m| m.id.clone()).collect::<Vec<_>>(),
                                "removed": removed,
                            }));
                        } else {
                            let how = if fetched {
                                format!("listed in {ms} ms")
                            } else {
                                format!("cached {}; --refresh to re-list", found.fetched_at)
                            };
                            println!("{}: {n} tools registered ({how})", s.name);
                            for id in &removed {
                                println!("  removed {id} (no longer listed)");
                            }
                        }
                    }
                    Err(e) => {
                        failures += 1;
                        if json {
                            out.push(
                                json!({"server": s.name, "ok": false, "error": e.to_string()}),
                            );
                        } else {
                            eprintln!("error: {e}");
                        }
                    }
                }
            }
            if json {
                crate::cmd::print_json(&json!({"servers": out}))?;
            }
            if failures > 0 {
                return Err(CliError::silent(Exit::Error));
            }
            Ok(())
        }
        McpCommand::Tools { name, json } => {
            let cfg = load(home)?;
            let s = cfg.server(&name).map_err(CliError::msg)?;
            let cache = Cache::in_home(home.root());
            let (found, _) =
                crate::rt::block_on(cache.get_or_discover(s, false))?.map_err(CliError::msg)?;
            if json {
                let v = serde_json::to_value(&found.manifests)
                    .map_err(|e| CliError::msg(format!("formatting JSON: {e}")))?;
                return crate::cmd::print_json(&v);
            }
            for m in &found.manifests {
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
                println!("{}\t{tool}\t[{}]\t{summary}", m.id, effects.join(","));
            }
            Ok(())
        }
        McpCommand::Call {
            name,
            tool,
            args,
            json,
        } => {
            let cfg = load(home)?;
            cfg.server(&name).map_err(CliError::msg)?;
            let args: Json = match args.as_deref() {
                None => json!({}),
                Some(text) => serde_json::from_str(text).map_err(|e| {
                    CliError::with_code(Exit::Usage, format!("arguments are not valid JSON: {e}"))
                })?,
            };
            let Json::Object(args) = args else {
                return Err(CliError::with_code(
                    Exit::Usage,
                    "arguments must be a JSON object, e.g. '{\"path\": \"/tmp\"}'",
                ));
            };
            let ex = McpExecutor::new(cfg);
            let result = crate::rt::block_on(async {
                let r = ex.call_json(&name, &tool, args).await;
                ex.shutdown().await;
                r
            })?
            .map_err(CliError::msg)?;
            if json {
                let j = rtfs::to_json(&result)
                    .map_err(|e| CliError::msg(format!("the result has no JSON form: {e}")))?;
                crate::cmd::print_json(&j)
            } else {
                println!("{}", rtfs::pretty(&result, 100));
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ccos_mcp::servers::TestServers;

    #[test]
    fn key_value_pairs_parse() {
        let p = pairs(&["A=1".into(), "B=x=y".into()], "--env").unwrap_or_default();
        assert_eq!(p.get("B").map(String::as_str), Some("x=y"));
        assert!(pairs(&["nope".into()], "--env").is_err());
    }

    #[test]
    fn add_discover_call_remove_with_a_real_server() {
        let Some(s) = TestServers::find() else {
            return;
        };
        let dir = tempfile::tempdir().unwrap();
        let home = Home::resolve(Some(dir.path().to_path_buf()));
        let js = s.everything_js().display().to_string();
        let add = McpCommand::Add {
            name: "ev".into(),
            url: None,
            headers: vec![],
            env: vec![],
            trust: Some("trusted".into()),
            timeout_ms: Some(20_000),
            command: vec!["node".into(), js, "stdio".into()],
        };
        assert!(run(add, &home).is_ok());
        let cfg = load(&home).ok().unwrap();
        assert_eq!(cfg.servers["ev"].trust, TrustTier::Trusted);
        let discover = McpCommand::Discover {
            name: Some("ev".into()),
            refresh: false,
            json: true,
        };
        assert!(run(discover, &home).is_ok());
        assert!(dir.path().join("mcp-cache/ev.json").exists());
        let mp = crate::cmd::caps::open_catalog(&home).ok().unwrap();
        let echo = mp.get("mcp.ev.echo").unwrap();
        assert_eq!(echo.trust_tier, TrustTier::Trusted);
        let call = McpCommand::Call {
            name: "ev".into(),
            tool: "get-sum".into(),
            args: Some("{\"a\": 1, \"b\": 2}".into()),
            json: false,
        };
        assert!(run(call, &home).is_ok());
        let bad = McpCommand::Call {
            name: "ev".into(),
            tool: "get-sum".into(),
            args: Some("[1]".into()),
            json: false,
        };
        assert!(run(bad, &home).err().is_some_and(|e| e.code == Exit::Usage));
        assert!(run(McpCommand::Remove { name: "ev".into() }, &home).is_ok());
        let mp = crate::cmd::caps::open_catalog(&home).ok().unwrap();
        assert!(mp.get("mcp.ev.echo").is_none());
        assert!(load(&home).ok().unwrap().servers.is_empty());
    }
}
