//! `ccos check PLAN.rtfs`: preflight a plan without running it.
//!
//! Every `(call ...)` is checked against the capability catalog (built-ins
//! plus `$CCOS_HOME/catalog`) and the security policy: unknown or denied
//! capabilities, calls needing approval, arguments that do not fit the
//! input schema. Findings print as `FILE:LINE:COL: severity[code]: message
//! (hint)`, or as JSON with `--json`.
//!
//! Exit codes: 0 when clean (warnings allowed), 3 when the policy denies a
//! call, 1 for any other error finding (or an unreadable plan or policy).

use std::path::{Path, PathBuf};

use ccos_governance::{PreflightReport, RuntimeContext, Severity};
use clap::Args;

use crate::cmd::rtfs::read_source;
use crate::config::Config;
use crate::exit::{CliError, Exit};
use crate::home::Home;

/// Arguments of `ccos check`.
#[derive(Args)]
pub struct CheckArgs {
    /// The plan (RTFS source), or `-` for stdin.
    pub file: PathBuf,
    /// Policy file (TOML); default: the config's `policy`, else the
    /// built-in default policy.
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// The policy in force: `--policy`, else the config file's `policy` entry
/// (relative paths resolve against `$CCOS_HOME`), else the default.
pub fn load_policy(explicit: Option<&Path>, home: &Home) -> Result<RuntimeContext, CliError> {
    let path = match explicit {
        Some(p) => Some(p.to_path_buf()),
        None => Config::load(home)?
            .policy
            .map(|p| if p.is_relative() { home.join(p) } else { p }),
    };
    match path {
        Some(p) => RuntimeContext::from_file(&p).map_err(CliError::msg),
        None => Ok(RuntimeContext::default()),
    }
}

/// Runs `ccos check`.
pub fn run(args: CheckArgs, home: &Home) -> Result<(), CliError> {
    let (name, src) = read_source(&args.file)?;
    let policy = load_policy(args.policy.as_deref(), home)?;
    let forms = match rtfs::parse(&src) {
        Ok(f) => f,
        Err(e) if args.json => {
            let (line, column) = e
                .span
                .map(|s| rtfs::line_col(&src, s.start))
                .unwrap_or((0, 0));
            crate::cmd::print_json(&serde_json::json!({
                "file": name,
                "ok": false,
                "findings": [{
                    "start": e.span.map(|s| s.start), "end": e.span.map(|s| s.end),
                    "line": line, "column": column, "severity": "error",
                    "code": e.kind.code(), "capability": null,
                    "message": e.message, "hint": e.help,
                }],
                "calls": [],
                "decision": null,
            }))?;
            return Err(CliError::silent(Exit::Error));
        }
        Err(e) => return Err(CliError::diagnostic(e.with_source(&name, src))),
    };
    let catalog = crate::cmd::caps::open_catalog(home)?;
    let report = ccos_governance::preflight(&forms, &catalog, &policy).with_source(&src);
    if args.json {
        crate::cmd::print_json(&serde_json::json!({
            "file": name,
            "ok": report.is_clean(),
            "findings": report.findings,
            "calls": report.calls,
            "decision": report.decision,
        }))?;
    } else {
        print_text(&name, &report);
    }
    if report.has_denied() {
        Err(CliError::silent(Exit::Denied))
    } else if !report.is_clean() {
        Err(CliError::silent(Exit::Error))
    } else {
        Ok(())
    }
}

fn print_text(name: &str, report: &PreflightReport) {
    for f in &report.findings {
        println!("{}", f.render(name));
    }
    let count = |s: Severity| report.findings.iter().filter(|f| f.severity == s).count();
    eprintln!(
        "{name}: {} call(s), {} error(s), {} warning(s); policy decision: {}",
        report.calls.len(),
        count(Severity::Error),
        count(Severity::Warning),
        report.decision.label()
    );
}
