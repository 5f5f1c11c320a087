//! The intent graph: goals, their lifecycle, and typed edges between them.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::Value;
use sqlx::Row;

use crate::db::{Store, on_pool};
use crate::error::{Ctx, StoreError};

/// An intent's lifecycle state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum IntentStatus {
    /// Recorded, no plan yet.
    Pending,
    /// A plan exists.
    Planned,
    /// Its plan is running.
    Executing,
    /// Done.
    Completed,
    /// Its plan failed.
    Failed,
    /// Given up on.
    Abandoned,
}

impl IntentStatus {
    /// Every status, in lifecycle order.
    pub const ALL: [IntentStatus; 6] = [
        IntentStatus::Pending,
        IntentStatus::Planned,
        IntentStatus::Executing,
        IntentStatus::Completed,
        IntentStatus::Failed,
        IntentStatus::Abandoned,
    ];

    /// The stored (and printed) name.
    pub fn as_str(self) -> &'static str {
        match self {
            IntentStatus::Pending => "pending",
            IntentStatus::Planned => "planned",
            IntentStatus::Executing => "executing",
            IntentStatus::Completed => "completed",
            IntentStatus::Failed => "failed",
            IntentStatus::Abandoned => "abandoned",
        }
    }
}

impl std::fmt::Display for IntentStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for IntentStatus {
    type Err = StoreError;
    fn from_str(s: &str) -> Result<Self, StoreError> {
        IntentStatus::ALL
            .into_iter()
            .find(|st| st.as_str() == s)
            .ok_or_else(|| {
                StoreError::Invalid(format!(
                    "unknown intent status `{s}` (expected one of: pending, planned, executing, completed, failed, abandoned)"
                ))
            })
    }
}

/// The kind of an edge. Stored as text, so kinds beyond the two named ones
/// can be recorded with [`EdgeKind::Other`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EdgeKind {
    /// `from` is a sub-goal of `to` (`to` is the parent).
    IsSubgoalOf,
    /// `from` needs `to` done first.
    DependsOn,
    /// Any other relation, by name.
    Other(String),
}

impl EdgeKind {
    /// The stored name (`IsSubgoalOf`, `DependsOn`, or the custom name).
    pub fn as_str(&self) -> &str {
        match self {
            EdgeKind::IsSubgoalOf => "IsSubgoalOf",
            EdgeKind::DependsOn => "DependsOn",
            EdgeKind::Other(s) => s,
        }
    }

    /// Parses a stored name.
    pub fn parse(s: &str) -> EdgeKind {
        match s {
            "IsSubgoalOf" => EdgeKind::IsSubgoalOf,
            "DependsOn" => EdgeKind::DependsOn,
            other => EdgeKind::Other(other.to_string()),
        }
    }
}

impl Serialize for EdgeKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl std::fmt::Display for EdgeKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A directed, typed edge between two intents.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Edge {
    /// Source intent.
    pub from: String,
    /// Target intent.
    pub to: String,
    /// Relation.
    pub kind: EdgeKind,
}

/// An intent to record.
#[derive(Debug, Clone, PartialEq)]
pub struct NewIntent {
    /// Unique id chosen by the caller.
    pub id: String,
    /// The goal, in the user's words.
    pub goal: String,
    /// Constraints (JSON).
    pub constraints: Value,
    /// Preferences (JSON).
    pub preferences: Value,
    /// Free metadata (a JSON object).
    pub metadata: Value,
}

impl NewIntent {
    /// An intent with empty constraints, preferences and metadata.
    pub fn new(id: impl Into<String>, goal: impl Into<String>) -> NewIntent {
        NewIntent {
            id: id.into(),
            goal: goal.into(),
            constraints: Value::Object(Default::default()),
            preferences: Value::Object(Default::default()),
            metadata: Value::Object(Default::default()),
        }
    }
}

/// A stored intent.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Intent {
    /// Id.
    pub id: String,
    /// The goal text.
    pub goal: String,
    /// Constraints (JSON).
    pub constraints: Value,
    /// Preferences (JSON).
    pub preferences: Value,
    /// Lifecycle state.
    pub status: IntentStatus,
    /// Created (RFC 3339 UTC).
    pub created_at: String,
    /// Last changed (RFC 3339 UTC).
    pub updated_at: String,
    /// Free metadata (a JSON object: `parse_format`, IR diffs...).
    pub metadata: Value,
}

/// The intents under a root (following `IsSubgoalOf` downwards) and every
/// edge among them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Subgraph {
    /// The root first, then descendants in breadth-first order (siblings by
    /// creation time, then id).
    pub intents: Vec<Intent>,
    /// Edges whose both ends are in `intents`, sorted.
    pub edges: Vec<Edge>,
}

const INTENT_COLS: &str =
    "id, goal, constraints, preferences, status, created_at, updated_at, metadata";

fn parse_json(what: &str, id: &str, text: &str) -> Result<Value, StoreError> {
    serde_json::from_str(text)
        .map_err(|e| StoreError::Corrupt(format!("intent `{id}`: {what} is not JSON: {e}")))
}

/// Metadata is stored as compact JSON (insertion order kept: it is not
/// hashed, and readers parse it).
fn to_json_text(v: &Value) -> String {
    v.to_string()
}

struct RawIntent {
    id: String,
    goal: String,
    constraints: String,
    preferences: String,
    status: String,
    created_at: String,
    updated_at: String,
    metadata: String,
}

impl RawIntent {
    fn into_intent(self) -> Result<Intent, StoreError> {
        let status = self.status.parse().map_err(|_| {
            StoreError::Corrupt(format!(
                "intent `{}`: unknown status `{}`",
                self.id, self.status
            ))
        })?;
        Ok(Intent {
            constraints: parse_json("constraints", &self.id, &self.constraints)?,
            preferences: parse_json("preferences", &self.id, &self.preferences)?,
            metadata: parse_json("metadata", &self.id, &self.metadata)?,
            id: self.id,
            goal: self.goal,
            status,
            created_at: self.created_at,
            updated_at: self.updated_at,
        })
    }
}

macro_rules! intent_from_row {
    ($row:expr) => {{
        let r = &$row;
        (|| -> Result<RawIntent, sqlx::Error> {
            Ok(RawIntent {
                id: r.try_get("id")?,
                goal: r.try_get("goal")?,
                constraints: r.try_get("constraints")?,
                preferences: r.try_get("preferences")?,
                status: r.try_get("status")?,
                created_at: r.try_get("created_at")?,
                updated_at: r.try_get("updated_at")?,
                metadata: r.try_get("metadata")?,
            })
        })()
        .ctx(|| "decoding an intent row".into())
    }};
}

macro_rules! edge_from_row {
    ($row:expr) => {{
        let r = &$row;
        (|| -> Result<Edge, sqlx::Error> {
            Ok(Edge {
                from: r.try_get("from_id")?,
                to: r.try_get("to_id")?,
                kind: EdgeKind::parse(&r.try_get::<String, _>("kind")?),
            })
        })()
        .ctx(|| "decoding an intent edge row".into())
    }};
}

impl Store {
    /// Records a new intent with status `pending`. Fails if the id exists.
    pub async fn create_intent(&self, new: NewIntent) -> Result<Intent, StoreError> {
        if new.id.trim().is_empty() {
            return Err(StoreError::Invalid("intent id is empty".into()));
        }
        if !new.metadata.is_object() {
            return Err(StoreError::Invalid(format!(
                "intent `{}`: metadata must be a JSON object",
                new.id
            )));
        }
        let now = ccos_core::now_rfc3339();
        let intent = Intent {
            id: new.id,
            goal: new.goal,
            constraints: new.constraints,
            preferences: new.preferences,
            status: IntentStatus::Pending,
            created_at: now.clone(),
            updated_at: now,
            metadata: new.metadata,
        };
        on_pool!(self, p => {
            sqlx::query(
                "INSERT INTO intents (id, goal, constraints, preferences, status, created_at, updated_at, metadata)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(&intent.id)
            .bind(&intent.goal)
            .bind(to_json_text(&intent.constraints))
            .bind(to_json_text(&intent.preferences))
            .bind(intent.status.as_str())
            .bind(&intent.created_at)
            .bind(&intent.updated_at)
            .bind(to_json_text(&intent.metadata))
            .execute(p)
            .await
            .ctx(|| format!("creating intent `{}`", intent.id))?;
        });
        Ok(intent)
    }

    /// The intent `id`, if recorded.
    pub async fn get_intent(&self, id: &str) -> Result<Option<Intent>, StoreError> {
        let raw = on_pool!(self, p => {
            let row = sqlx::query(sqlx::AssertSqlSafe(format!(
                "SELECT {INTENT_COLS} FROM intents WHERE id = $1"
            )))
            .bind(id)
            .fetch_optional(p)
            .await
            .ctx(|| format!("reading intent `{id}`"))?;
            match row {
                Some(r) => Some(intent_from_row!(r)?),
                None => None,
            }
        });
        raw.map(RawIntent::into_intent).transpose()
    }

    async fn require_intent(&self, id: &str) -> Result<Intent, StoreError> {
        self.get_intent(id)
            .await?
            .ok_or_else(|| StoreError::NotFound {
                what: "intent",
                id: id.to_string(),
            })
    }

    /// Sets an intent's status (and `updated_at`).
    pub async fn set_intent_status(
        &self,
        id: &str,
        status: IntentStatus,
    ) -> Result<(), StoreError> {
        let n = on_pool!(self, p => {
            sqlx::query("UPDATE intents SET status = $1, updated_at = $2 WHERE id = $3")
                .bind(status.as_str())
                .bind(ccos_core::now_rfc3339())
                .bind(id)
                .execute(p)
                .await
                .ctx(|| format!("updating the status of intent `{id}`"))?
                .rows_affected()
        });
        if n == 0 {
            return Err(StoreError::NotFound {
                what: "intent",
                id: id.to_string(),
            });
        }
        Ok(())
    }

    /// Merges the keys of `patch` (a JSON object) into an intent's metadata
    /// (top-level keys replace; others are kept) and returns the result.
    pub async fn merge_intent_metadata(&self, id: &str, patch: Value) -> Result<Value, StoreError> {
        let Value::Object(patch) = patch else {
            return Err(StoreError::Invalid(format!(
                "intent `{id}`: a metadata patch must be a JSON object"
            )));
        };
        // Optimistic concurrency: retry if someone else changed it meanwhile.
        for _ in 0..20 {
            let current = self.require_intent(id).await?;
            let old_text = to_json_text(&current.metadata);
            let mut merged = match current.metadata {
                Value::Object(m) => m,
                _ => serde_json::Map::new(),
            };
            for (k, v) in &patch {
                merged.insert(k.clone(), v.clone());
            }
            let merged = Value::Object(merged);
            let n = on_pool!(self, p => {
                sqlx::query("UPDATE intents SET metadata = $1, updated_at = $2 WHERE id = $3 AND metadata = $4")
                    .bind(to_json_text(&merged))
                    .bind(ccos_core::now_rfc3339())
                    .bind(id)
                    .bind(&old_text)
                    .execute(p)
                    .await
                    .ctx(|| format!("updating the metadata of intent `{id}`"))?
                    .rows_affected()
            });
            if n == 1 {
                return Ok(merged);
            }
        }
        Err(StoreError::Invalid(format!(
            "intent `{id}`: metadata kept changing during the merge; try again"
        )))
    }

    /// Records an edge `from -[kind]-> to` (idempotent). Both intents must exist.
    pub async fn add_edge(&self, from: &str, to: &str, kind: EdgeKind) -> Result<(), StoreError> {
        if kind.as_str().trim().is_empty() {
            return Err(StoreError::Invalid("edge kind is empty".into()));
        }
        self.require_intent(from).await?;
        self.require_intent(to).await?;
        on_pool!(self, p => {
            sqlx::query(
                "INSERT INTO intent_edges (from_id, to_id, kind, created_at) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (from_id, to_id, kind) DO NOTHING",
            )
            .bind(from)
            .bind(to)
            .bind(kind.as_str())
            .bind(ccos_core::now_rfc3339())
            .execute(p)
            .await
            .ctx(|| format!("adding edge {from} -[{kind}]-> {to}"))?;
        });
        Ok(())
    }

    /// Every edge touching `id` (either end), sorted.
    pub async fn edges_of(&self, id: &str) -> Result<Vec<Edge>, StoreError> {
        let mut edges = on_pool!(self, p => {
            let rows = sqlx::query("SELECT from_id, to_id, kind FROM intent_edges WHERE from_id = $1 OR to_id = $1")
                .bind(id)
                .fetch_all(p)
                .await
                .ctx(|| format!("reading the edges of intent `{id}`"))?;
            rows.iter().map(|r| edge_from_row!(r)).collect::<Result<Vec<_>, _>>()?
        });
        edges.sort();
        Ok(edges)
    }

    /// Targets of `kind` edges leaving `id`, sorted.
    async fn out_neighbours(&self, id: &str, kind: &EdgeKind) -> Result<Vec<String>, StoreError> {
        let mut v = on_pool!(self, p => {
            sqlx::query_scalar::<_, String>("SELECT to_id FROM intent_edges WHERE from_id = $1 AND kind = $2")
                .bind(id)
                .bind(kind.as_str())
                .fetch_all(p)
                .await
                .ctx(|| format!("reading {kind} edges from `{id}`"))?
        });
        v.sort();
        Ok(v)
    }

    /// Intents that are sub-goals of `id` (ordered by creation time, then id).
    pub async fn children(&self, id: &str) -> Result<Vec<Intent>, StoreError> {
        let raws = on_pool!(self, p => {
            let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                "SELECT {} FROM intents i JOIN intent_edges e ON e.from_id = i.id
                 WHERE e.to_id = $1 AND e.kind = 'IsSubgoalOf' ORDER BY i.created_at, i.id",
                INTENT_COLS.split(", ").map(|c| format!("i.{c}")).collect::<Vec<_>>().join(", ")
            )))
            .bind(id)
            .fetch_all(p)
            .await
            .ctx(|| format!("reading the children of intent `{id}`"))?;
            rows.iter().map(|r| intent_from_row!(r)).collect::<Result<Vec<_>, _>>()?
        });
        raws.into_iter().map(RawIntent::into_intent).collect()
    }

    /// Every intent `id` depends on, transitively (`DependsOn` edges), in
    /// topological order: each intent comes after all of its own
    /// dependencies (ties broken by id). `id` itself is not included. A cycle
    /// is an error naming it.
    pub async fn dependencies(&self, id: &str) -> Result<Vec<Intent>, StoreError> {
        self.require_intent(id).await?;
        // Load the reachable DependsOn subgraph.
        let mut adj: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut queue = vec![id.to_string()];
        while let Some(n) = queue.pop() {
            if adj.contains_key(&n) {
                continue;
            }
            let next = self.out_neighbours(&n, &EdgeKind::DependsOn).await?;
            queue.extend(next.iter().cloned());
            adj.insert(n, next);
        }
        // Iterative DFS post-order with cycle detection.
        #[derive(Clone, Copy, PartialEq)]
        enum Mark {
            Active,
            Done,
        }
        let mut mark: BTreeMap<String, Mark> = BTreeMap::new();
        let mut order: Vec<String> = Vec::new();
        let mut stack: Vec<(String, usize)> = vec![(id.to_string(), 0)];
        mark.insert(id.to_string(), Mark::Active);
        while let Some((node, i)) = stack.last().cloned() {
            let next = adj.get(&node).and_then(|v| v.get(i)).cloned();
            match next {
                Some(child) => {
                    if let Some(top) = stack.last_mut() {
                        top.1 += 1;
                    }
                    match mark.get(&child) {
                        Some(Mark::Done) => {}
                        Some(Mark::Active) => {
                            let start = stack.iter().position(|(n, _)| *n == child).unwrap_or(0);
                            let mut cycle: Vec<String> =
                                stack[start..].iter().map(|(n, _)| n.clone()).collect();
                            cycle.push(child);
                            return Err(StoreError::Cycle(cycle));
                        }
                        None => {
                            mark.insert(child.clone(), Mark::Active);
                            stack.push((child, 0));
                        }
                    }
                }
                None => {
                    stack.pop();
                    mark.insert(node.clone(), Mark::Done);
                    order.push(node);
                }
            }
        }
        order.pop(); // the root comes last in post-order
        let mut out = Vec::with_capacity(order.len());
        for n in order {
            out.push(self.require_intent(&n).await?);
        }
        Ok(out)
    }

    /// The parents of `id` (following `IsSubgoalOf` upwards), nearest first;
    /// each ancestor appears once.
    pub async fn ancestors(&self, id: &str) -> Result<Vec<Intent>, StoreError> {
        self.require_intent(id).await?;
        let mut seen: BTreeSet<String> = BTreeSet::from([id.to_string()]);
        let mut level = vec![id.to_string()];
        let mut out = Vec::new();
        while !level.is_empty() {
            let mut next_level = BTreeSet::new();
            for n in &level {
                for parent in self.out_neighbours(n, &EdgeKind::IsSubgoalOf).await? {
                    if seen.insert(parent.clone()) {
                        next_level.insert(parent);
                    }
                }
            }
            for p in &next_level {
                out.push(self.require_intent(p).await?);
            }
            level = next_level.into_iter().collect();
        }
        Ok(out)
    }

    /// Intents with `status` (or all when `None`), oldest first, then by id.
    pub async fn list_intents(
        &self,
        status: Option<IntentStatus>,
    ) -> Result<Vec<Intent>, StoreError> {
        let raws = on_pool!(self, p => {
            let rows = match status {
                Some(s) => sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {INTENT_COLS} FROM intents WHERE status = $1 ORDER BY created_at, id"
                )))
                .bind(s.as_str())
                .fetch_all(p)
                .await,
                None => sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {INTENT_COLS} FROM intents ORDER BY created_at, id"
                )))
                .fetch_all(p)
                .await,
            }
            .ctx(|| "listing intents".into())?;
            rows.iter().map(|r| intent_from_row!(r)).collect::<Result<Vec<_>, _>>()?
        });
        raws.into_iter().map(RawIntent::into_intent).collect()
    }

    /// Intents with `status`, oldest first.
    pub async fn intents_by_status(&self, status: IntentStatus) -> Result<Vec<Intent>, StoreError> {
        self.list_intents(Some(status)).await
    }

    /// The root, its descendants (via `IsSubgoalOf`, breadth-first) and every
    /// edge among them.
    pub async fn subgraph(&self, root: &str) -> Result<Subgraph, StoreError> {
        let mut intents = vec![self.require_intent(root).await?];
        let mut seen: BTreeSet<String> = BTreeSet::from([root.to_string()]);
        let mut i = 0;
        while i < intents.len() {
            let id = intents[i].id.clone();
            for child in self.children(&id).await? {
                if seen.insert(child.id.clone()) {
                    intents.push(child);
                }
            }
            i += 1;
        }
        let mut edges = BTreeSet::new();
        for it in &intents {
            for e in self.edges_of(&it.id).await? {
                if seen.contains(&e.from) && seen.contains(&e.to) {
                    edges.insert(e);
                }
            }
        }
        Ok(Subgraph {
            intents,
            edges: edges.into_iter().collect(),
        })
    }
}
