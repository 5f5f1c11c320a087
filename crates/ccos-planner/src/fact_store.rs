//! Remembering a fact in a knowledge-graph memory.
//!
//! A [`Fact`] ("remember that Alice likes tea") is kept by a *fact store*:
//! two capabilities of one provider, recognised by their schemas, not by
//! a server's name —
//!
//! - one that **creates entities**: a list of objects each with a name, a
//!   list of texts (its observations) and at most one more text (its
//!   type);
//! - one that **adds observations**: a list of objects each with an
//!   entity's name and a list of texts.
//!
//! The MCP reference memory server (`create_entities`, `add_observations`)
//! is one. The plan creates each entity the fact is about, then adds the
//! statement to it: creating an entity that exists changes nothing (the
//! server keeps the first), so the statement is never lost whether the
//! entity existed or not. An entity the plan creates has the kind the
//! goal states ("a new person called Erin"), else [`UNKNOWN_KIND`]: the
//! planner does not guess whether "Alice" is a person or a company.

use ccos_marketplace::CapabilityManifest;
use ccos_marketplace::search::analyze;
use serde_json::Value as Json;

use crate::intent::{IntentType, SubIntent};
use crate::plan_gen::ResolvedStep;
use crate::understand::statement::{Fact, RelationQuestion};

/// The type of an entity created for a fact that does not say its kind.
pub const UNKNOWN_KIND: &str = "unknown";

/// A provider's pair of capabilities that keep facts, with the fields
/// their schemas name.
#[derive(Debug, Clone)]
pub struct FactStore {
    create: Shape,
    add: Shape,
}

/// One of the two capabilities: its list parameter and the item's fields.
#[derive(Debug, Clone)]
struct Shape {
    manifest: CapabilityManifest,
    /// The required list parameter (`entities`, `observations`).
    list: String,
    /// The item's name field (`name`, `entityName`).
    name: String,
    /// The item's list of texts (`observations`, `contents`).
    texts: String,
    /// The item's other required text (`entityType`), if any.
    kind: Option<String>,
}

impl FactStore {
    /// The fact stores of `catalog`, ordered by provider.
    pub fn all(catalog: &[CapabilityManifest]) -> Vec<FactStore> {
        let creates: Vec<Shape> = catalog
            .iter()
            .filter(|m| names(m, &["create", "entities"]))
            .filter_map(|m| shape(m, true))
            .collect();
        let mut out = vec![];
        for create in creates {
            let provider = provider_of(&create.manifest);
            let adds: Vec<Shape> = catalog
                .iter()
                .filter(|m| provider_of(m) == provider && names(m, &["add", "observations"]))
                .filter_map(|m| shape(m, false))
                .collect();
            if let [add] = adds.as_slice() {
                out.push(FactStore {
                    create,
                    add: add.clone(),
                });
            }
        }
        out
    }

    /// The capabilities it calls, in order.
    pub fn manifests(&self) -> [&CapabilityManifest; 2] {
        [&self.create.manifest, &self.add.manifest]
    }

    /// The steps keeping `fact` for sub-intent `s`: create its entities,
    /// then add the statement to each (the last step has `s`'s id).
    pub fn steps(&self, s: &SubIntent, fact: &Fact) -> Vec<ResolvedStep> {
        let kind = fact.kind.as_deref().unwrap_or(UNKNOWN_KIND);
        let entities = fact
            .subjects
            .iter()
            .map(|name| {
                let mut entry = vec![
                    (
                        rtfs::Value::keyword(&self.create.name),
                        rtfs::Value::string(name),
                    ),
                    (
                        rtfs::Value::keyword(&self.create.texts),
                        rtfs::Value::vector(vec![]),
                    ),
                ];
                if let Some(k) = &self.create.kind {
                    entry.push((rtfs::Value::keyword(k), rtfs::Value::string(kind)));
                }
                rtfs::Value::map(entry)
            })
            .collect();
        let Some(statement) = &fact.statement else {
            let create = SubIntent::new(s.id.clone(), s.description.clone(), IntentType::Write)
                .with_param(self.create.list.clone(), rtfs::Value::vector(entities));
            return vec![ResolvedStep {
                intent: create,
                manifest: self.create.manifest.clone(),
            }];
        };
        let create = SubIntent::new(
            format!("{}-entities", s.id),
            format!("the entities of: {statement}"),
            IntentType::Write,
        )
        .with_param(self.create.list.clone(), rtfs::Value::vector(entities));
        let observations = fact
            .subjects
            .iter()
            .map(|name| {
                rtfs::Value::map([
                    (
                        rtfs::Value::keyword(&self.add.name),
                        rtfs::Value::string(name),
                    ),
                    (
                        rtfs::Value::keyword(&self.add.texts),
                        rtfs::Value::vector(vec![rtfs::Value::string(statement)]),
                    ),
                ])
            })
            .collect();
        let add = SubIntent::new(s.id.clone(), s.description.clone(), IntentType::Write)
            .with_param(self.add.list.clone(), rtfs::Value::vector(observations));
        vec![
            ResolvedStep {
                intent: create,
                manifest: self.create.manifest.clone(),
            },
            ResolvedStep {
                intent: add,
                manifest: self.add.manifest.clone(),
            },
        ]
    }

    /// How the fact is kept, for the decision trace.
    pub fn note(&self, fact: &Fact) -> String {
        let subjects = fact
            .subjects
            .iter()
            .map(|s| format!("{s:?}"))
            .collect::<Vec<_>>()
            .join(", ");
        match &fact.statement {
            Some(st) => format!(
                "a fact to remember: {st:?}, about {subjects}: {} creates the entities (kind {:?}; an existing one is kept), then {} adds the statement to each",
                self.create.manifest.id,
                fact.kind.as_deref().unwrap_or(UNKNOWN_KIND),
                self.add.manifest.id
            ),
            None => format!(
                "a new entity: {subjects}, kind {:?}, by {}",
                fact.kind.as_deref().unwrap_or(UNKNOWN_KIND),
                self.create.manifest.id
            ),
        }
    }
}

/// A capability that reads a knowledge graph's relations whole, recognised
/// by its schemas: it requires no input, and its result holds a list of
/// objects with the two ends of a relation and its type as texts (the MCP
/// memory server's `read_graph`: `relations` of `from`, `to`,
/// `relationType`). It answers a [`RelationQuestion`] ("who works at
/// Globex?") with `ccos.data.related`, which says when the graph does not
/// know (a type no relation has, an entity in none) instead of "nobody".
#[derive(Debug, Clone)]
pub struct RelationGraph {
    /// The reading capability.
    pub manifest: CapabilityManifest,
    /// The result's list of relations (`relations`).
    list: String,
    /// The relation's fields: where it starts, where it ends, its type.
    from: String,
    to: String,
    kind: String,
}

/// Names of a relation's fields, case and separators aside: where it
/// starts, where it ends, its type.
const RELATION_FROM: &[&str] = &["from", "source", "subject", "start"];
const RELATION_TO: &[&str] = &["to", "target", "object", "end"];
const RELATION_TYPE: &[&str] = &["relationtype", "type", "relation", "predicate", "label"];

impl RelationGraph {
    /// The relation graphs of `catalog`, in catalog order.
    pub fn all(catalog: &[CapabilityManifest]) -> Vec<RelationGraph> {
        catalog.iter().filter_map(relation_graph).collect()
    }

    /// The steps answering `q` for sub-intent `s` with `related` (the
    /// built-in `ccos.data.related`): read the relations, then keep the
    /// other ends of those of the type asked at the entity named (the
    /// last step has `s`'s id).
    pub fn steps(
        &self,
        s: &SubIntent,
        q: &RelationQuestion,
        related: &CapabilityManifest,
    ) -> Vec<ResolvedStep> {
        let mut read = SubIntent::new(
            format!("{}-relations", s.id),
            "read the relations of the graph",
            IntentType::Fetch,
        );
        read.answer = Some(self.list.clone());
        let end = if q.entity_ends { "to" } else { "from" };
        let answer = SubIntent::new(s.id.clone(), s.description.clone(), IntentType::Transform)
            .with_step_param("relations", read.id.clone())
            .with_param("type", rtfs::Value::string(&q.relation))
            .with_param(end, rtfs::Value::string(&q.entity))
            .with_param("from_key", rtfs::Value::string(&self.from))
            .with_param("to_key", rtfs::Value::string(&self.to))
            .with_param("type_key", rtfs::Value::string(&self.kind));
        vec![
            ResolvedStep {
                intent: read,
                manifest: self.manifest.clone(),
            },
            ResolvedStep {
                intent: answer,
                manifest: related.clone(),
            },
        ]
    }

    /// How the question is answered, for the decision trace.
    pub fn note(&self, q: &RelationQuestion, related: &CapabilityManifest) -> String {
        let (at, other) = if q.entity_ends {
            ("end", "start")
        } else {
            ("start", "end")
        };
        format!(
            "a question about relations: those of type {:?} that {at} at {:?}; {} reads the relations (:{}), {} answers where they {other} (an unknown type or entity is an error, not \"nobody\")",
            q.relation, q.entity, self.manifest.id, self.list, related.id
        )
    }
}

/// `m` as a [`RelationGraph`], if its schemas are one's.
fn relation_graph(m: &CapabilityManifest) -> Option<RelationGraph> {
    if !m.required_keys().is_empty() {
        return None;
    }
    let props = m.output_schema.as_ref()?.get("properties")?.as_object()?;
    props.iter().find_map(|(list, schema)| {
        if schema.get("type")?.as_str()? != "array" {
            return None;
        }
        let fields = schema.get("items")?.get("properties")?.as_object()?;
        let field = |names: &[&str]| -> Option<String> {
            let mut found = fields.iter().filter(|(name, f)| {
                let norm: String = name
                    .chars()
                    .filter(|c| c.is_alphanumeric())
                    .flat_map(char::to_lowercase)
                    .collect();
                names.contains(&norm.as_str())
                    && f.get("type").and_then(Json::as_str) == Some("string")
            });
            let one = found.next()?;
            found.next().is_none().then(|| one.0.clone())
        };
        Some(RelationGraph {
            manifest: m.clone(),
            list: list.clone(),
            from: field(RELATION_FROM)?,
            to: field(RELATION_TO)?,
            kind: field(RELATION_TYPE)?,
        })
    })
}

/// The provider part of a capability id (`mcp.memory` of
/// `mcp.memory.create_entities`; empty without a dot): its server.
pub(crate) fn provider_of(m: &CapabilityManifest) -> &str {
    m.id.rsplit_once('.').map_or("", |(p, _)| p)
}

/// Whether the words of `m`'s name include every one of `words` (stemmed).
fn names(m: &CapabilityManifest, words: &[&str]) -> bool {
    let own = crate::understand::lexicon::name_words(m);
    words
        .iter()
        .all(|w| analyze(w).iter().all(|s| own.contains(s)))
}

/// `m`'s schema as a fact store's capability: one required list of
/// objects, each with a required name, a required list of texts and (for
/// the creating one only) at most one more required text.
fn shape(m: &CapabilityManifest, creates: bool) -> Option<Shape> {
    let schema = &m.input_schema;
    let lists = m.required_keys();
    let [list] = lists.as_slice() else {
        return None;
    };
    let list_schema = schema.get("properties")?.get(list)?;
    if list_schema.get("type")?.as_str()? != "array" {
        return None;
    }
    let item = list_schema.get("items")?;
    let props = item.get("properties")?.as_object()?;
    let mut name = None;
    let mut texts = None;
    let mut kind = None;
    for field in required(item)? {
        let f = props.get(&field)?;
        match f.get("type")?.as_str()? {
            "string" if name.is_none() && analyze(&field).iter().any(|w| w == "name") => {
                name = Some(field)
            }
            "string" if creates && kind.is_none() => kind = Some(field),
            "array"
                if texts.is_none()
                    && f.get("items")
                        .and_then(|i| i.get("type"))
                        .and_then(Json::as_str)
                        == Some("string") =>
            {
                texts = Some(field)
            }
            _ => return None,
        }
    }
    Some(Shape {
        manifest: m.clone(),
        list: list.clone(),
        name: name?,
        texts: texts?,
        kind,
    })
}

/// The names an item's JSON schema requires.
fn required(schema: &Json) -> Option<Vec<String>> {
    Some(
        schema
            .get("required")?
            .as_array()?
            .iter()
            .filter_map(|r| r.as_str().map(str::to_string))
            .collect(),
    )
}
