//! `ccos runs list|show`: the story of runs, from the causal chain — goal
//! → plan → steps with values and durations → calls and approvals →
//! outcome.

use std::path::Path;

use ccos_world::runs::RunEvent;
use clap::Subcommand;

use crate::exit::CliError;
use crate::open::{out, print_json, read_world};
use crate::term::{fit, stdout_width};

/// Run subcommands.
#[derive(Subcommand)]
pub enum RunsCommand {
    /// List runs, oldest first: id, status, start, duration, goal.
    List {
        /// Print a JSON array.
        #[arg(long)]
        json: bool,
    },
    /// The story of one run (its id, or a unique prefix of it).
    Show {
        /// The run id (or a unique prefix).
        id: String,
        /// Print the story as JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Runs a runs subcommand.
pub fn run(cmd: RunsCommand, home: &Path) -> Result<(), CliError> {
    let world = read_world(home, None)?;
    match cmd {
        RunsCommand::List { json } => {
            let runs = world.list_runs()?;
            if json {
                return print_json(&runs);
            }
            if runs.is_empty() {
                out("(no runs)");
            }
            let width = stdout_width();
            for r in &runs {
                let took = r
                    .duration_ms
                    .map(|d| format!("{d} ms"))
                    .unwrap_or_else(|| "-".into());
                out(fit(
                    &format!(
                        "{}  {:<11} {}  {:>9}  {}",
                        r.run_id,
                        r.status,
                        r.started_at,
                        took,
                        r.goal.as_deref().unwrap_or(&r.source)
                    ),
                    width,
                ));
            }
            Ok(())
        }
        RunsCommand::Show { id, json } => {
            let story = world.run_story(&id)?;
            if json {
                return print_json(&story);
            }
            let s = &story.summary;
            out(format!("run {}  [{}]", s.run_id, s.status));
            out(format!(
                "goal:    {}",
                s.goal.as_deref().unwrap_or("(none)")
            ));
            out(format!("source:  {}", s.source));
            out(format!("started: {}", s.started_at));
            if let Some(d) = s.duration_ms {
                out(format!("took:    {d} ms, {} call(s)", s.calls.unwrap_or(0)));
            }
            if let Some(g) = &story.governance {
                out(format!("policy:  {g}"));
            }
            if let Some(p) = &story.plan {
                out(format!(
                    "plan ({}):",
                    story.generation_mode.as_deref().unwrap_or("?")
                ));
                for line in p.trim_end().lines() {
                    out(format!("  {line}"));
                }
            }
            out("events:");
            let width = stdout_width();
            for e in &story.events {
                let line = match e {
                    RunEvent::StepStarted { path, name, .. } => {
                        format!("  step {path} {name:?} started")
                    }
                    RunEvent::StepEnded {
                        path,
                        name,
                        ok,
                        duration_ms,
                        detail,
                        ..
                    } => format!(
                        "  step {path} {name:?} {} in {duration_ms} ms: {detail}",
                        if *ok { "ok" } else { "FAILED" }
                    ),
                    RunEvent::Call {
                        capability,
                        outcome,
                        args,
                        detail,
                        duration_ms,
                    } => format!(
                        "    call {capability} {args} -> {outcome}{}: {detail}",
                        duration_ms
                            .map(|d| format!(" in {d} ms"))
                            .unwrap_or_default()
                    ),
                    RunEvent::ApprovalRequested {
                        capability,
                        reasons,
                    } => format!(
                        "    approval asked for {capability}: {}",
                        reasons.join("; ")
                    ),
                    RunEvent::ApprovalGiven { capability, by } => {
                        format!("    approval given for {capability} by {by}")
                    }
                    RunEvent::ApprovalDenied { capability, reason } => {
                        format!("    approval refused for {capability}: {reason}")
                    }
                };
                out(fit(&line, width));
            }
            match (&story.value, &story.error) {
                (Some(v), _) => out(format!("value:   {v}")),
                (None, Some(e)) => out(format!("error:   {e}")),
                _ => {}
            }
            Ok(())
        }
    }
}
