//! `ccos check PLAN.rtfs`: preflight a plan without running it.
//!
//! Every `(call ...)` is checked against the capability catalog and the
//! security policy (the same one `ccos run` would enforce: `--policy`
//! relative to the current directory, else the config's `policy` relative
//! to `$CCOS_HOME`, else the default): unknown or denied capabilities,
//! calls needing approval, arguments that do not fit the input schema.
//! Findings print as `FILE:LINE:COL: severity[code]: message (hint)`, or as
//! JSON with `--json`.
//!
//! Exit codes: 0 when clean (warnings allowed), 3 when the policy denies a
//! call, 1 for any other error finding (or an unreadable plan or policy).

use std::path::{Path, PathBuf};

use ccos_governance::{PreflightReport, Severity};
use ccos_world::catalog::PlanCheck;
use clap::Args;

use crate::exit::{CliError, Exit};
use crate::open::{note, out, print_json, read_source, read_world};

/// Arguments of `ccos check`.
#[derive(Args)]
pub struct CheckArgs {
    /// The plan (RTFS source), or `-` for stdin.
    pub file: PathBuf,
    /// Policy file (TOML), relative to the current directory; default: the
    /// config's `policy` (relative to $CCOS_HOME), else the built-in default.
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `ccos check`.
pub fn run(args: CheckArgs, home: &Path) -> Result<(), CliError> {
    let (name, src) = read_source(&args.file)?;
    let world = read_world(home, args.policy.as_ref())?;
    let report = match world.check_plan(&src)? {
        PlanCheck::Checked(report) => *report,
        PlanCheck::Unparsable(e) if args.json => {
            let (line, column) = e
                .span
                .map(|s| rtfs::line_col(&src, s.start))
                .unwrap_or((0, 0));
            print_json(&serde_json::json!({
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
        PlanCheck::Unparsable(e) => {
            return Err(CliError::diagnostic((*e).with_source(&name, src)));
        }
    };
    if args.json {
        print_json(&serde_json::json!({
            "file": name,
            "ok": report.is_clean(),
            "policy": world.policy_source(),
            "findings": report.findings,
            "calls": report.calls,
            "decision": report.decision,
        }))?;
    } else {
        print_text(&name, &report, world.policy_source());
    }
    if report.has_denied() {
        Err(CliError::silent(Exit::Denied))
    } else if !report.is_clean() {
        Err(CliError::silent(Exit::Error))
    } else {
        Ok(())
    }
}

fn print_text(name: &str, report: &PreflightReport, policy: &str) {
    for f in &report.findings {
        out(f.render(name));
    }
    let count = |s: Severity| report.findings.iter().filter(|f| f.severity == s).count();
    note(format!(
        "{name}: {} call(s), {} error(s), {} warning(s); policy decision: {} (policy: {policy})",
        report.calls.len(),
        count(Severity::Error),
        count(Severity::Warning),
        report.decision.label()
    ));
}
