//! Loaders for the public benchmarks in `../shared/bench/` (formats in its
//! README). Files are read at run time; nothing of them is copied into the
//! project.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value as Json;

use crate::{Baseline, EvalError, GoldCall, Query, Split, Tool, ToolParam, baselines};

/// A loaded dataset: its tools and one or more query splits over them.
#[derive(Debug, Clone)]
pub struct Dataset {
    /// Dataset name as given on the command line (`metatool`, ...).
    pub name: String,
    /// Every tool of the catalog.
    pub tools: Vec<Tool>,
    /// The query splits.
    pub splits: Vec<Split>,
}

/// The dataset names [`load`] accepts.
pub const DATASETS: [&str; 4] = ["metatool", "ultratool", "restbench", "seal-tools"];

/// Loads dataset `name` from the bench directory `dir`.
pub fn load(name: &str, dir: &Path) -> Result<Dataset, EvalError> {
    match name {
        "metatool" => metatool(&dir.join("metatool")),
        "ultratool" => ultratool(&dir.join("ultratool")),
        "restbench" => restbench(&dir.join("restbench_tmdb")),
        "seal-tools" => seal_tools(&dir.join("seal_tools")),
        other => Err(EvalError::UnknownDataset(other.to_string())),
    }
}

fn read(path: &Path) -> Result<String, EvalError> {
    std::fs::read_to_string(path).map_err(|e| EvalError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
}

fn parse_err(path: &Path, message: impl std::fmt::Display) -> EvalError {
    EvalError::Parse {
        path: path.to_path_buf(),
        message: message.to_string(),
    }
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, EvalError> {
    let text = read(path)?;
    serde_json::from_str(&text).map_err(|e| parse_err(path, e))
}

/// Reads a JSON Lines file (blank lines skipped); errors name the line.
fn read_jsonl<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Vec<T>, EvalError> {
    let text = read(path)?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        out.push(
            serde_json::from_str(line)
                .map_err(|e| parse_err(path, format!("line {}: {e}", i + 1)))?,
        );
    }
    Ok(out)
}

fn tool(name: &str, description: &str) -> Tool {
    Tool {
        name: name.to_string(),
        description: description.to_string(),
        params: vec![],
        required: vec![],
    }
}

fn gold_set<'a>(names: impl IntoIterator<Item = &'a str>) -> BTreeSet<String> {
    names.into_iter().map(str::to_string).collect()
}

/// MetaTool: `plugin_des.json` tools; single-tool `all_clean_data.csv`
/// (every row) and two-tool `multi_tool_query_golden.json`.
fn metatool(dir: &Path) -> Result<Dataset, EvalError> {
    let des_path = dir.join("plugin_des.json");
    let des: serde_json::Map<String, Json> = read_json(&des_path)?;
    let mut tools = Vec::new();
    for (name, d) in &des {
        let d = d.as_str().ok_or_else(|| {
            parse_err(&des_path, format!("description of {name} is not a string"))
        })?;
        tools.push(tool(name, d));
    }
    let csv_path = dir.join("all_clean_data.csv");
    let rows = crate::csv::parse(&read(&csv_path)?).map_err(|e| parse_err(&csv_path, e))?;
    let mut single = Vec::new();
    for (i, row) in rows.iter().enumerate().skip(1) {
        let [q, t] = row.as_slice() else {
            return Err(parse_err(
                &csv_path,
                format!(
                    "record {}: expected 2 fields (Query,Tool), got {}",
                    i + 1,
                    row.len()
                ),
            ));
        };
        single.push(Query {
            id: format!("row{}", i + 1),
            text: q.clone(),
            gold: gold_set([t.as_str()]),
            ..Query::default()
        });
    }
    #[derive(Deserialize)]
    struct Multi {
        query: String,
        tool: Vec<String>,
    }
    let multi: Vec<Multi> = read_json(&dir.join("multi_tool_query_golden.json"))?;
    let two = multi
        .into_iter()
        .enumerate()
        .map(|(i, m)| Query {
            id: format!("multi{i}"),
            text: m.query,
            gold: gold_set(m.tool.iter().map(String::as_str)),
            ..Query::default()
        })
        .collect();
    Ok(Dataset {
        name: "metatool".into(),
        tools,
        splits: vec![
            split("MetaTool single-tool", single, baselines::METATOOL_SINGLE),
            split("MetaTool two-tool", two, baselines::METATOOL_TWO),
        ],
    })
}

fn split(name: &str, queries: Vec<Query>, baseline: Baseline) -> Split {
    Split {
        name: name.to_string(),
        queries,
        baseline: Some(baseline),
    }
}

#[derive(Deserialize)]
struct Nodes<T> {
    nodes: Vec<T>,
}

#[derive(Deserialize)]
struct IdDesc {
    id: String,
    desc: String,
}

/// A TaskBench-format goal (UltraTool, RestBench).
#[derive(Deserialize)]
struct TaskGoal {
    id: Json,
    user_request: String,
    task_nodes: Vec<TaskNode>,
    #[serde(default)]
    task_links: Vec<TaskLink>,
}

#[derive(Deserialize)]
struct TaskLink {
    source: String,
    target: String,
}

#[derive(Deserialize)]
struct TaskNode {
    task: String,
}

fn id_string(j: &Json) -> String {
    match j {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn task_query(g: TaskGoal) -> Query {
    Query {
        id: id_string(&g.id),
        text: g.user_request.trim().to_string(),
        gold: gold_set(g.task_nodes.iter().map(|n| n.task.as_str())),
        links: Some(
            g.task_links
                .iter()
                .map(|l| (l.source.clone(), l.target.clone()))
                .collect(),
        ),
        calls: vec![],
    }
}

/// UltraTool: tools from `tool_desc.json`; the test goals of
/// `split_ids.json` (every list under `test_ids`), in `data.json` order.
fn ultratool(dir: &Path) -> Result<Dataset, EvalError> {
    let desc: Nodes<IdDesc> = read_json(&dir.join("tool_desc.json"))?;
    let tools = desc.nodes.iter().map(|n| tool(&n.id, &n.desc)).collect();
    let split_path = dir.join("split_ids.json");
    let ids: Json = read_json(&split_path)?;
    let test = ids
        .get("test_ids")
        .and_then(Json::as_object)
        .ok_or_else(|| parse_err(&split_path, "no \"test_ids\" object"))?;
    let mut wanted = BTreeSet::new();
    for list in test.values() {
        for id in list.as_array().into_iter().flatten() {
            wanted.insert(id_string(id));
        }
    }
    let goals: Vec<TaskGoal> = read_jsonl(&dir.join("data.json"))?;
    let queries = goals
        .into_iter()
        .filter(|g| wanted.contains(&id_string(&g.id)))
        .map(task_query)
        .collect();
    Ok(Dataset {
        name: "ultratool".into(),
        tools,
        splits: vec![split("UltraTool", queries, baselines::ULTRATOOL)],
    })
}

/// RestBench-TMDB: tools from `tool_desc.json`, every goal of `data.json`.
fn restbench(dir: &Path) -> Result<Dataset, EvalError> {
    let desc: Nodes<IdDesc> = read_json(&dir.join("tool_desc.json"))?;
    let tools = desc.nodes.iter().map(|n| tool(&n.id, &n.desc)).collect();
    let goals: Vec<TaskGoal> = read_jsonl(&dir.join("data.json"))?;
    Ok(Dataset {
        name: "restbench".into(),
        tools,
        splits: vec![split(
            "RestBench-TMDB",
            goals.into_iter().map(task_query).collect(),
            baselines::RESTBENCH,
        )],
    })
}

#[derive(Deserialize)]
struct SealTool {
    api_name: String,
    #[serde(default)]
    api_description: String,
    #[serde(default)]
    parameters: serde_json::Map<String, Json>,
    #[serde(default)]
    required: Vec<String>,
}

#[derive(Deserialize)]
struct SealQuery {
    id: String,
    query: String,
    calling: Vec<SealCall>,
}

#[derive(Deserialize)]
struct SealCall {
    api: String,
    #[serde(default)]
    parameters: BTreeMap<String, Json>,
    #[serde(default)]
    responses: Vec<String>,
}

/// Seal-Tools: tools from `tool.jsonl` (with parameters); in-domain and
/// out-of-domain test splits; gold = the `api` names in `calling`.
fn seal_tools(dir: &Path) -> Result<Dataset, EvalError> {
    let raw: Vec<SealTool> = read_jsonl(&dir.join("tool.jsonl"))?;
    let tools = raw
        .into_iter()
        .map(|t| Tool {
            params: t
                .parameters
                .iter()
                .map(|(name, p)| ToolParam {
                    name: name.clone(),
                    ty: p
                        .get("type")
                        .and_then(Json::as_str)
                        .unwrap_or("")
                        .to_string(),
                    description: p
                        .get("description")
                        .and_then(Json::as_str)
                        .unwrap_or("")
                        .to_string(),
                })
                .collect(),
            name: t.api_name,
            description: t.api_description,
            required: t.required,
        })
        .collect();
    let mut splits = Vec::new();
    for (file, name, baseline) in [
        (
            "test_in_domain.jsonl",
            "Seal-Tools in-domain",
            baselines::SEAL_IN,
        ),
        (
            "test_out_domain.jsonl",
            "Seal-Tools out-of-domain",
            baselines::SEAL_OUT,
        ),
    ] {
        let qs: Vec<SealQuery> = read_jsonl(&dir.join(file))?;
        let queries = qs
            .into_iter()
            .map(|q| Query {
                id: q.id,
                text: q.query,
                gold: gold_set(q.calling.iter().map(|c| c.api.as_str())),
                links: None,
                calls: q
                    .calling
                    .into_iter()
                    .map(|c| GoldCall {
                        api: c.api,
                        arguments: c.parameters,
                        labels: c.responses,
                    })
                    .collect(),
            })
            .collect();
        splits.push(split(name, queries, baseline));
    }
    Ok(Dataset {
        name: "seal-tools".into(),
        tools,
        splits,
    })
}

/// The bench directory for a repository root: `<root>/../shared/bench`.
pub fn bench_dir_for_repo(root: &Path) -> PathBuf {
    root.join("..").join("shared").join("bench")
}

/// Finds the repository root at or above `start` (a directory holding a
/// `Cargo.toml` and a `crates/` folder); `None` when there is none.
pub fn find_repo_root(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|a| a.join("Cargo.toml").is_file() && a.join("crates").is_dir())
        .map(Path::to_path_buf)
}
