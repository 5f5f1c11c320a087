//! [`SemanticResolution`]: capabilities ranked by the cosine similarity of
//! sentence embeddings (all-MiniLM-L6-v2 through `ccos-embed`).
//!
//! A capability is embedded from one text: its id split into words, its
//! name, its description and its parameter names ([`capability_text`]).
//! The [`SemanticIndex`] holds those vectors for a snapshot of the
//! marketplace; [`build_index_cached`] fills it from the store's embedding
//! cache (keyed by model id and the SHA-256 of the text), embeds only the
//! missing texts and writes them back, so a capability is embedded once,
//! not on every run. Resolution itself is synchronous: it embeds the
//! sub-intent's description and ranks by cosine (reasons `cosine 0.71`).
//!
//! Cosines are absolute (unlike the catalog's pool-relative scores), so a
//! fixed bar, [`super::SEMANTIC_MIN`], says "semantically close enough" on its
//! own; the composite uses it beside the catalog's `MIN_SCORE`.

use std::collections::BTreeMap;
use std::sync::Arc;

use ccos_embed::{EmbedError, Embedder, cosine};
use ccos_marketplace::{CapabilityManifest, Marketplace};
use ccos_store::{Store, StoreError};
use sha2::{Digest, Sha256};

use super::{Candidate, ResolutionError, ResolutionStrategy, sort_candidates};
use crate::intent::SubIntent;

/// Why a semantic index could not be built.
#[derive(Debug, thiserror::Error)]
pub enum SemanticError {
    /// Embedding failed.
    #[error(transparent)]
    Embed(#[from] EmbedError),
    /// Reading or writing the embedding cache failed.
    #[error("embedding cache: {0}")]
    Store(#[from] StoreError),
}

/// The text a capability is embedded from: id words, name, description,
/// parameter names (deduplicated words of the id and name).
pub fn capability_text(m: &CapabilityManifest) -> String {
    let mut parts: Vec<String> = vec![];
    let id_words: Vec<&str> =
        m.id.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty() && *w != "ccos" && *w != "mcp")
            .collect();
    parts.push(id_words.join(" "));
    if !m.name.is_empty() && m.name != m.id {
        parts.push(m.name.replace(['_', '-', '.'], " "));
    }
    if !m.description.is_empty() {
        parts.push(m.description.clone());
    }
    if let Some(props) = m.input_schema.get("properties").and_then(|p| p.as_object()) {
        let names: Vec<String> = props.keys().map(|k| k.replace(['_', '-'], " ")).collect();
        if !names.is_empty() {
            parts.push(format!("parameters: {}", names.join(", ")));
        }
    }
    parts.retain(|p| !p.trim().is_empty());
    parts.join(". ")
}

/// SHA-256 (hex) of a text: the embedding cache's key.
pub fn text_hash(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// The texts a request is embedded as: the whole (trimmed) text, then, for
/// a multi-part request, each clause of at least two words
/// ([`crate::decompose::split_clauses`]).
pub fn query_texts(text: &str) -> Vec<String> {
    let text = text.trim();
    if text.is_empty() {
        return vec![];
    }
    let mut out = vec![text.to_string()];
    let clauses: Vec<String> = crate::decompose::split_clauses(text)
        .into_iter()
        .map(|c| c.text)
        .filter(|c| c.split_whitespace().count() >= 2)
        .collect();
    if clauses.len() > 1 {
        for c in clauses {
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

/// A `(text hash, vector)` pair, as the store's embedding cache holds it.
pub type CachedVector = (String, Vec<f32>);

/// Capability vectors for one marketplace snapshot.
pub struct SemanticIndex {
    embedder: Arc<Embedder>,
    /// (capability id, unit vector), in id order.
    entries: Vec<(String, Vec<f32>)>,
    /// How many vectors were computed (not taken from the cache).
    computed: usize,
}

impl SemanticIndex {
    /// Builds the index of `manifests`, taking vectors from `cached` (text
    /// hash → vector) where present and embedding the rest. Returns the
    /// index and the newly computed `(hash, vector)` pairs (to cache).
    pub fn build(
        embedder: Arc<Embedder>,
        manifests: &[CapabilityManifest],
        cached: &BTreeMap<String, Vec<f32>>,
    ) -> Result<(SemanticIndex, Vec<CachedVector>), EmbedError> {
        let mut items: Vec<(String, String, String)> = manifests
            .iter()
            .map(|m| {
                let t = capability_text(m);
                (m.id.clone(), text_hash(&t), t)
            })
            .collect();
        items.sort();
        let mut missing: Vec<(String, &str)> = vec![];
        for (_, h, t) in &items {
            if !cached.contains_key(h) && !missing.iter().any(|(mh, _)| mh == h) {
                missing.push((h.clone(), t.as_str()));
            }
        }
        let texts: Vec<&str> = missing.iter().map(|(_, t)| *t).collect();
        let vectors = embedder.embed(&texts)?;
        let fresh: Vec<(String, Vec<f32>)> =
            missing.into_iter().map(|(h, _)| h).zip(vectors).collect();
        let fresh_map: BTreeMap<&str, &Vec<f32>> =
            fresh.iter().map(|(h, v)| (h.as_str(), v)).collect();
        let entries = items
            .iter()
            .filter_map(|(id, h, _)| {
                let v = cached
                    .get(h)
                    .or_else(|| fresh_map.get(h.as_str()).copied())?;
                Some((id.clone(), v.clone()))
            })
            .collect();
        let computed = fresh.len();
        Ok((
            SemanticIndex {
                embedder,
                entries,
                computed,
            },
            fresh,
        ))
    }

    /// The index of every capability of `marketplace`, without a cache.
    pub fn from_marketplace(
        embedder: Arc<Embedder>,
        marketplace: &Marketplace,
    ) -> Result<SemanticIndex, EmbedError> {
        Ok(SemanticIndex::build(embedder, &marketplace.list(), &BTreeMap::new())?.0)
    }

    /// How many capabilities are indexed.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing is indexed.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How many vectors were computed when building (the rest came from the cache).
    pub fn computed(&self) -> usize {
        self.computed
    }

    /// The model's id.
    pub fn model_id(&self) -> &str {
        self.embedder.model_id()
    }

    /// Capabilities by cosine to `vector`, best first (ties by id), at most `k`.
    pub fn rank(&self, vector: &[f32], k: usize) -> Vec<(String, f64)> {
        let mut scored: Vec<(String, f64)> = self
            .entries
            .iter()
            .map(|(id, v)| (id.clone(), f64::from(cosine(vector, v))))
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        scored.truncate(k);
        scored
    }
}

/// Texts embedded and written to the cache at a time by
/// [`build_index_cached_with`]: bounds the memory of a cold index over a
/// large catalog (tokens and activations of one chunk), and a killed
/// process keeps every chunk written before it.
pub const CACHE_CHUNK: usize = 256;

/// How [`build_index_cached_with`] reports progress: `(embedded, total)`
/// texts to embed, called once with `(0, total)` before the first chunk
/// and after every chunk. Not called when nothing needs embedding.
pub type IndexProgress<'a> = &'a (dyn Fn(usize, usize) + Sync);

/// Builds the index of every capability of `marketplace` through the
/// store's embedding cache: cached vectors are read, missing ones embedded
/// and written back. The async part of semantic resolution (the CLI calls
/// it on its runtime).
pub async fn build_index_cached(
    store: &Store,
    embedder: Arc<Embedder>,
    marketplace: &Marketplace,
) -> Result<SemanticIndex, SemanticError> {
    build_index_cached_with(store, embedder, marketplace, &|_, _| {}).await
}

/// [`build_index_cached`], embedding the missing texts [`CACHE_CHUNK`] at
/// a time, writing each chunk to the cache before the next and reporting
/// `progress` (so the first plan after importing a large document shows
/// its progress, or an import embeds ahead of time).
pub async fn build_index_cached_with(
    store: &Store,
    embedder: Arc<Embedder>,
    marketplace: &Marketplace,
    progress: IndexProgress<'_>,
) -> Result<SemanticIndex, SemanticError> {
    let manifests = marketplace.list();
    let texts: Vec<(String, String)> = manifests
        .iter()
        .map(|m| {
            let t = capability_text(m);
            (text_hash(&t), t)
        })
        .collect();
    let hashes: Vec<String> = texts.iter().map(|(h, _)| h.clone()).collect();
    let model = embedder.model_id().to_string();
    let mut cached = store.get_embeddings(&model, &hashes).await?;
    let mut missing: Vec<(String, String)> = vec![];
    let mut seen = std::collections::BTreeSet::new();
    for (h, t) in texts {
        if !cached.contains_key(&h) && seen.insert(h.clone()) {
            missing.push((h, t));
        }
    }
    let total = missing.len();
    if total > 0 {
        progress(0, total);
    }
    let mut done = 0;
    for chunk in missing.chunks(CACHE_CHUNK) {
        let texts: Vec<&str> = chunk.iter().map(|(_, t)| t.as_str()).collect();
        let vectors = embedder.embed(&texts)?;
        let fresh: Vec<CachedVector> = chunk.iter().map(|(h, _)| h.clone()).zip(vectors).collect();
        store.put_embeddings(&model, &fresh).await?;
        cached.extend(fresh);
        done += chunk.len();
        progress(done, total);
    }
    let (mut index, _) = SemanticIndex::build(embedder, &manifests, &cached)?;
    index.computed = total;
    Ok(index)
}

/// Ranks capabilities by the cosine between the sub-intent's description
/// and each capability's text.
pub struct SemanticResolution {
    index: Arc<SemanticIndex>,
    /// Vectors of texts embedded ahead of time ([`SemanticResolution::prime`]).
    primed: BTreeMap<String, Vec<f32>>,
}

impl SemanticResolution {
    /// Resolution over `index`.
    pub fn new(index: Arc<SemanticIndex>) -> SemanticResolution {
        SemanticResolution {
            index,
            primed: BTreeMap::new(),
        }
    }

    /// Embeds `texts` now, in batches, so resolving them later needs no
    /// forward pass (the evaluation primes every query: batching is several
    /// times faster than one text at a time). Same vectors either way.
    pub fn prime(mut self, texts: &[&str]) -> Result<SemanticResolution, EmbedError> {
        let all: Vec<String> = texts.iter().flat_map(|t| query_texts(t)).collect();
        let mut todo: Vec<&str> = all
            .iter()
            .map(|t| t.as_str())
            .filter(|t| !self.primed.contains_key(*t))
            .collect();
        todo.sort_unstable();
        todo.dedup();
        let vectors = self.index.embedder.embed(&todo)?;
        for (t, v) in todo.into_iter().zip(vectors) {
            self.primed.insert(t.to_string(), v);
        }
        Ok(self)
    }

    /// The index.
    pub fn index(&self) -> &SemanticIndex {
        &self.index
    }
}

impl ResolutionStrategy for SemanticResolution {
    fn name(&self) -> &str {
        "semantic"
    }

    fn resolve(&self, intent: &SubIntent, k: usize) -> Result<Vec<Candidate>, ResolutionError> {
        let text = intent.description.trim();
        if text.is_empty() || self.index.is_empty() {
            return Ok(vec![]);
        }
        let texts = query_texts(text);
        let missing: Vec<&str> = texts
            .iter()
            .map(String::as_str)
            .filter(|t| !self.primed.contains_key(*t))
            .collect();
        let computed =
            self.index
                .embedder
                .embed(&missing)
                .map_err(|e| ResolutionError::Search {
                    intent: intent.id.clone(),
                    message: format!("embedding the sub-intent: {e}"),
                })?;
        let fresh: BTreeMap<&str, &Vec<f32>> = missing.iter().copied().zip(&computed).collect();
        // Best cosine over the whole text and its clauses (multi-part
        // requests: each part finds its own tool).
        let mut best: BTreeMap<String, (f64, usize)> = BTreeMap::new();
        for (i, t) in texts.iter().enumerate() {
            let Some(v) = self
                .primed
                .get(t.as_str())
                .or_else(|| fresh.get(t.as_str()).copied())
            else {
                continue;
            };
            for (id, score) in self.index.rank(v, k) {
                let e = best.entry(id).or_insert((score, i));
                if score > e.0 {
                    *e = (score, i);
                }
            }
        }
        let mut out: Vec<Candidate> = best
            .into_iter()
            .map(|(id, (score, i))| Candidate {
                capability_id: id,
                score,
                reasons: vec![if i == 0 {
                    format!("cosine {score:.2}")
                } else {
                    format!("cosine {score:.2} on clause {:?}", texts[i])
                }],
            })
            .collect();
        sort_candidates(&mut out);
        out.truncate(k);
        Ok(out)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::json;
    use std::path::Path;

    /// The test model (fails with the setup hint when absent).
    pub(crate) fn embedder() -> Arc<Embedder> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let dir = match ccos_embed::test_model_dir(&root) {
            Ok(d) => d,
            Err(msg) => panic!("{msg}"),
        };
        match Embedder::load(&dir) {
            Ok(e) => Arc::new(e),
            Err(e) => panic!("loading the model: {e}"),
        }
    }

    #[test]
    fn capability_text_has_id_words_description_and_params() {
        let m = CapabilityManifest::new(
            "ccos.file.read",
            "Read a text file.",
            json!({"type":"object","properties":{"file_path":{"type":"string"}}}),
        );
        assert_eq!(
            capability_text(&m),
            "file read. Read a text file.. parameters: file path"
        );
        assert_eq!(text_hash("a").len(), 64);
    }

    #[test]
    fn semantic_resolution_ranks_by_meaning_and_caches() {
        let mp = Marketplace::new().unwrap();
        let obj = json!({"type":"object","properties":{}});
        for (id, d) in [
            ("t.list_dir", "List the entries of a directory."),
            ("t.mul", "Multiply two numbers."),
            ("t.weather", "Current weather forecast for a city."),
        ] {
            mp.register(CapabilityManifest::new(id, d, obj.clone()))
                .unwrap();
        }
        let e = embedder();
        let (index, fresh) = SemanticIndex::build(e.clone(), &mp.list(), &BTreeMap::new()).unwrap();
        assert_eq!((index.len(), index.computed(), fresh.len()), (3, 3, 3));
        // Everything cached: nothing recomputed.
        let cached: BTreeMap<String, Vec<f32>> = fresh.into_iter().collect();
        let (again, fresh2) = SemanticIndex::build(e, &mp.list(), &cached).unwrap();
        assert_eq!((again.computed(), fresh2.len()), (0, 0));

        let r = SemanticResolution::new(Arc::new(again));
        let intent = SubIntent::new(
            "s1",
            "show me what files are in this folder",
            crate::intent::IntentType::Fetch,
        );
        let out = r.resolve(&intent, 2).unwrap();
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].capability_id, "t.list_dir");
        assert!(out[0].reasons[0].starts_with("cosine "));
        assert!(out[0].score > out[1].score);
        let weather = SubIntent::new(
            "s1",
            "will it rain in Paris tomorrow",
            crate::intent::IntentType::Fetch,
        );
        assert_eq!(
            r.resolve(&weather, 1).unwrap()[0].capability_id,
            "t.weather"
        );
    }

    /// The planner's default (catalog fused with semantic, gated) makes the
    /// same plans as the catalog alone on the golden goals, and keeps
    /// requires-agent goals requires-agent.
    #[test]
    fn default_composite_keeps_golden_plans_and_requires_agent() {
        use crate::planner::Planner;
        use crate::{CompositeResolution, PatternDecomposition};
        use ccos_governance::Policy;
        use ccos_marketplace::builtins::{BuiltinConfig, install};
        let dir = tempfile::tempdir().unwrap();
        let mp = Arc::new(Marketplace::new().unwrap());
        install(
            &mp,
            BuiltinConfig {
                file_roots: vec![dir.path().to_path_buf()],
                ..BuiltinConfig::default()
            },
        )
        .unwrap();
        let index = SemanticIndex::from_marketplace(embedder(), &mp).unwrap();
        let lexical = Planner::new(
            mp.clone(),
            Policy::default(),
            PatternDecomposition::builtin().unwrap(),
        );
        let fused = Planner::new(
            mp.clone(),
            Policy::default(),
            PatternDecomposition::builtin().unwrap(),
        )
        .with_resolution(Box::new(CompositeResolution::default_for(
            mp.clone(),
            Some(Box::new(SemanticResolution::new(Arc::new(index)))),
        )));
        for goal in [
            "count the words in README.md",
            "add 2 and 3, then multiply by 4",
            "read notes.txt and count lines",
            "convert 'hello world' to upper case",
            "subtract 3 from 10 then divide by 2",
            "echo 'hi' and count the words in 'a b c'",
            "ask me for the page size, then multiply it by 2",
            "for each file in data count the words",
            "for each file in data count the lines",
            "list the files in the current directory",
        ] {
            let a = lexical.plan(goal).unwrap();
            let b = fused.plan(goal).unwrap();
            assert!(a.rtfs.is_some(), "{goal}");
            assert_eq!(a.rtfs, b.rtfs, "{goal}");
        }
        for goal in [
            "book me a flight to Paris",
            "send an email to my boss",
            "order a pizza with extra cheese",
            "what is the weather in Paris tomorrow",
            "translate this sentence into French",
            "play some jazz music",
        ] {
            let a = lexical.plan(goal).unwrap();
            let b = fused.plan(goal).unwrap();
            if a.requires_agent.is_some() {
                assert!(b.requires_agent.is_some(), "{goal}: {:?}", b.rtfs);
            }
        }
        assert!(
            fused
                .plan("book me a flight to Paris")
                .unwrap()
                .requires_agent
                .is_some()
        );
    }

    #[tokio::test]
    async fn index_is_cached_in_the_store() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("s.db").display());
        let store = Store::open(&url).await.unwrap();
        let mp = Marketplace::new().unwrap();
        mp.register(CapabilityManifest::new(
            "t.echo",
            "Echo a message back.",
            json!({"type":"object","properties":{"message":{"type":"string"}}}),
        ))
        .unwrap();
        let e = embedder();
        let first = build_index_cached(&store, e.clone(), &mp).await.unwrap();
        assert_eq!(first.computed(), 1);
        let second = build_index_cached(&store, e, &mp).await.unwrap();
        assert_eq!(second.computed(), 0);
        assert_eq!(first.entries, second.entries);
        store.close().await;
    }
}
