//! `ccos plan "GOAL"`: plan a goal over the catalog without running it.
//!
//! The deterministic planner decomposes the goal (pattern rules from
//! `$CCOS_HOME/patterns.toml`, else the built-in rules; clauses; the whole
//! goal), resolves each sub-intent to an allowed capability and emits a
//! preflighted RTFS plan, recorded (intent graph, plan archive,
//! `planner_decision` chain entry). With `--mode`, the configured LLM
//! writes the plan; `--compare` runs both LLM modes and prints their diff.
//!
//! Output: the plan (canonical RTFS), the decision trace too with
//! `--explain`, or the whole result as JSON with `--json`.
//!
//! Exit codes: 0 a plan, 2 usage (empty goal; no LLM configured for
//! `--mode`), 4 requires an agent (the report names the parts nothing
//! serves), 1 errors.

use std::path::{Path, PathBuf};

use ccos_planner_llm::modes::Mode;
use ccos_planner_llm::record::Planned as ModelOutcome;
use ccos_world::plan::{explain, model_requires_agent_report, requires_agent_report};
use clap::Args;
use serde_json::{Value, json};

use crate::exit::{CliError, Exit};
use crate::open::{note, out, print_json, read_world};

/// `ccos plan` arguments.
#[derive(Args, Debug)]
pub struct PlanArgs {
    /// The goal, in words (e.g. "count the words in README.md").
    pub goal: String,
    /// Also print the decision trace (candidates, scores, reasons, mappings).
    #[arg(long)]
    pub explain: bool,
    /// Print the whole result (plan, sub-intents, trace) as JSON.
    #[arg(long)]
    pub json: bool,
    /// Security policy file (TOML); default: the config's `policy`, else the built-in default.
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// Let the configured LLM write the plan: `rtfs` (direct RTFS with
    /// repair), `ir` (JSON IR compiled to RTFS) or `auto` (rtfs, then ir).
    #[arg(long, value_name = "MODE", value_parser = parse_mode)]
    pub mode: Option<Mode>,
    /// Run both LLM modes and print the diff of their plans.
    #[arg(long, conflicts_with = "mode")]
    pub compare: bool,
}

/// Parses `--mode` (`rtfs`, `ir`, `auto`).
pub fn parse_mode(s: &str) -> Result<Mode, String> {
    Mode::parse(s).ok_or_else(|| format!("unknown mode {s:?}: rtfs, ir or auto"))
}

/// Runs `ccos plan`.
pub fn run(args: PlanArgs, home: &Path) -> Result<(), CliError> {
    let world = read_world(home, args.policy.as_ref())?;
    if args.compare {
        return compare(&world, &args);
    }
    if let Some(mode) = args.mode {
        return with_model(&world, &args, mode);
    }
    let planned = world.plan_goal(&args.goal)?;
    for w in &planned.warnings {
        note(w);
    }
    let result = &planned.result;
    if args.json {
        let mut j = serde_json::to_value(result).map_err(CliError::msg)?;
        if let Some(o) = j.as_object_mut() {
            o.insert("intent_id".into(), json!(planned.recorded.intent_id));
            o.insert("plan_id".into(), json!(planned.recorded.plan_id));
        }
        print_json(&j)?;
        return match result.requires_agent {
            Some(_) => Err(CliError::silent(Exit::RequiresAgent)),
            None => Ok(()),
        };
    }
    if args.explain {
        out(explain(result).trim_end());
    }
    match &result.rtfs {
        Some(rtfs) => {
            out(rtfs);
            Ok(())
        }
        None => {
            out(requires_agent_report(result));
            Err(CliError::silent(Exit::RequiresAgent))
        }
    }
}

fn outcome_json(p: &ModelOutcome) -> Value {
    match p {
        Ok(o) => serde_json::to_value(o).unwrap_or_else(|e| json!({"error": e.to_string()})),
        Err(e) => json!({
            "error": e.message,
            "kind": e.kind,
            "attempts": e.attempts,
            "model_calls": e.model_calls,
        }),
    }
}

fn with_model(world: &ccos_world::World, args: &PlanArgs, mode: Mode) -> Result<(), CliError> {
    let planned = world.plan_with_model(&args.goal, mode, true)?;
    if args.json {
        let mut j = outcome_json(&planned.outcome);
        if let Some(o) = j.as_object_mut() {
            o.insert("intent_id".into(), json!(planned.intent_id));
            o.insert("plan_id".into(), json!(planned.plan_id));
        }
        print_json(&j)?;
    }
    match planned.outcome {
        Ok(o) => match &o.rtfs {
            Some(rtfs) => {
                note(format!(
                    ";; {} plan ({} model call(s), intent {})",
                    o.generation_mode(),
                    o.model_calls,
                    planned.intent_id
                ));
                if !args.json {
                    out(rtfs);
                }
                Ok(())
            }
            None => {
                if !args.json {
                    out(model_requires_agent_report(&o));
                }
                Err(CliError::silent(Exit::RequiresAgent))
            }
        },
        Err(e) => Err(CliError::msg(if args.json {
            format!("no plan: {}", e.message)
        } else {
            e.message
        })),
    }
}

fn compare(world: &ccos_world::World, args: &PlanArgs) -> Result<(), CliError> {
    let c = world.compare_model_modes(&args.goal)?;
    if args.json {
        print_json(&json!({
            "intent_id": c.intent_id,
            "rtfs": outcome_json(&c.rtfs),
            "ir": outcome_json(&c.ir),
            "equivalent": c.diff.as_ref().map(|d| d.equivalent()),
            "diff": c.diff,
        }))?;
    } else {
        for (label, p) in [("mode A (rtfs)", &c.rtfs), ("mode B (ir)", &c.ir)] {
            match p {
                Ok(o) => match &o.rtfs {
                    Some(r) => out(format!(
                        ";; {label}: plan ({} model call(s))\n{r}",
                        o.model_calls
                    )),
                    None => out(format!(";; {label}: {}", model_requires_agent_report(o))),
                },
                Err(e) => out(format!(";; {label}: no plan: {}", e.message)),
            }
        }
        match &c.diff {
            Some(d) => out(format!(
                ";; diff (A = mode A's plan as IR, B = mode B's IR): {}",
                d.to_string().trim_end()
            )),
            None => out(";; no diff: both modes must produce a plan"),
        }
    }
    match c.diff {
        Some(_) => Ok(()),
        None => Err(CliError::silent(Exit::Error)),
    }
}
