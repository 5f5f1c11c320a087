//! Full-text search over capabilities (tantivy, BM25).
//!
//! Design: an **in-RAM** tantivy index, rebuilt from the catalog when a
//! marketplace opens and updated incrementally on every register / replace /
//! remove. Updates are buffered in one long-lived `IndexWriter` and committed
//! lazily by the next search, so registering 100,000 capabilities costs one
//! commit, not 100,000. Nothing is written to disk: the catalog file is the
//! source of truth and the index is cheap to rebuild.
//!
//! Text is analysed by the `ident` analyzer: identifiers are split into words
//! (camelCase, snake_case, kebab-case, dotted: `getUserRepos` → `get user
//! repos`, see [`crate::ids::split_words`]), lower-cased and stemmed
//! (English). Indexed per capability: id and name (boost 2), description
//! (boost 1), input parameter names and descriptions (boost 0.7). The query
//! is analysed the same way; every query word is an optional (`SHOULD`) term
//! in every field, scored by BM25. Results are ordered by score, best first,
//! ties broken by id, so the output is deterministic. (One caveat: BM25
//! statistics count replaced documents until tantivy merges segments, so
//! scores right after many replacements can differ slightly from those of a
//! freshly opened catalog; the ranking rules stay the same.)

use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, TermQuery};
use tantivy::schema::{
    Field, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing, TextOptions, Value as _,
};
use tantivy::tokenizer::{LowerCaser, Stemmer, TextAnalyzer, Token, TokenStream, Tokenizer};
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, TantivyDocument, Term};

use crate::manifest::CapabilityManifest;

const ANALYZER: &str = "ident";
const WRITER_MEMORY: usize = 50_000_000;

/// A tokenizer that splits identifiers into words (see module docs).
#[derive(Clone, Default)]
struct IdentTokenizer {
    tokens: Vec<Token>,
}

/// The token stream of [`IdentTokenizer`]: the words, precomputed.
struct IdentTokenStream<'a> {
    tokens: &'a mut Vec<Token>,
    next: usize,
}

impl Tokenizer for IdentTokenizer {
    type TokenStream<'a> = IdentTokenStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> IdentTokenStream<'a> {
        self.tokens.clear();
        for (position, (from, to)) in crate::ids::split_words(text).into_iter().enumerate() {
            self.tokens.push(Token {
                offset_from: from,
                offset_to: to,
                position,
                text: text[from..to].to_string(),
                position_length: 1,
            });
        }
        IdentTokenStream {
            tokens: &mut self.tokens,
            next: 0,
        }
    }
}

impl TokenStream for IdentTokenStream<'_> {
    fn advance(&mut self) -> bool {
        if self.next < self.tokens.len() {
            self.next += 1;
            true
        } else {
            false
        }
    }

    fn token(&self) -> &Token {
        &self.tokens[self.next - 1]
    }

    fn token_mut(&mut self) -> &mut Token {
        &mut self.tokens[self.next - 1]
    }
}

/// The analyzer used for documents and queries.
fn analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(IdentTokenizer::default())
        .filter(LowerCaser)
        .filter(Stemmer::default())
        .build()
}

/// The analysed terms of `text` (split, lower-cased, stemmed).
pub fn analyze(text: &str) -> Vec<String> {
    let mut a = analyzer();
    let mut stream = a.token_stream(text);
    let mut out = Vec::new();
    while stream.advance() {
        out.push(stream.token().text.clone());
    }
    out
}

/// A search failure (the index is in memory, so these are rare).
#[derive(Debug, thiserror::Error)]
#[error("search index: {0}")]
pub struct SearchError(pub String);

impl From<tantivy::TantivyError> for SearchError {
    fn from(e: tantivy::TantivyError) -> Self {
        SearchError(e.to_string())
    }
}

/// The in-RAM capability index.
pub struct SearchIndex {
    writer: IndexWriter<TantivyDocument>,
    reader: IndexReader,
    id: Field,
    fields: [(Field, f32); 4],
    dirty: bool,
}

impl SearchIndex {
    /// An empty index.
    pub fn new() -> Result<SearchIndex, SearchError> {
        let mut sb = Schema::builder();
        let id = sb.add_text_field("id", STRING | STORED);
        let text = TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(ANALYZER)
                .set_index_option(IndexRecordOption::WithFreqs),
        );
        let idtext = sb.add_text_field("idtext", text.clone());
        let name = sb.add_text_field("name", text.clone());
        let description = sb.add_text_field("description", text.clone());
        let params = sb.add_text_field("params", text);
        let index = Index::create_in_ram(sb.build());
        index.tokenizers().register(ANALYZER, analyzer());
        let writer = index.writer_with_num_threads(1, WRITER_MEMORY)?;
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        Ok(SearchIndex {
            writer,
            reader,
            id,
            fields: [
                (idtext, 2.0),
                (name, 2.0),
                (description, 1.0),
                (params, 0.7),
            ],
            dirty: false,
        })
    }

    /// Adds or replaces the document of `m`.
    pub fn upsert(&mut self, m: &CapabilityManifest) -> Result<(), SearchError> {
        self.writer
            .delete_term(Term::from_field_text(self.id, &m.id));
        let mut doc = TantivyDocument::default();
        doc.add_text(self.id, &m.id);
        doc.add_text(self.fields[0].0, &m.id);
        doc.add_text(self.fields[1].0, &m.name);
        doc.add_text(self.fields[2].0, &m.description);
        doc.add_text(self.fields[3].0, params_text(m));
        self.writer.add_document(doc)?;
        self.dirty = true;
        Ok(())
    }

    /// Removes the document of capability `id`.
    pub fn remove(&mut self, id: &str) {
        self.writer.delete_term(Term::from_field_text(self.id, id));
        self.dirty = true;
    }

    fn refresh(&mut self) -> Result<(), SearchError> {
        if self.dirty {
            self.writer.commit()?;
            self.reader.reload()?;
            self.dirty = false;
        }
        Ok(())
    }

    /// The `k` best `(id, score)` pairs for free text, best first, ties by id.
    pub fn search(&mut self, text: &str, k: usize) -> Result<Vec<(String, f32)>, SearchError> {
        self.refresh()?;
        let mut terms = analyze(text);
        terms.sort();
        terms.dedup();
        if terms.is_empty() || k == 0 {
            return Ok(vec![]);
        }
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        for t in &terms {
            for (field, boost) in self.fields {
                let q = TermQuery::new(
                    Term::from_field_text(field, t),
                    IndexRecordOption::WithFreqs,
                );
                clauses.push((Occur::Should, Box::new(BoostQuery::new(Box::new(q), boost))));
            }
        }
        let query = BooleanQuery::new(clauses);
        let searcher = self.reader.searcher();
        let total = usize::try_from(searcher.num_docs()).unwrap_or(usize::MAX);
        if total == 0 {
            return Ok(vec![]);
        }
        // Fetch a margin past k; if the tie at the boundary might continue
        // beyond what was fetched, fetch more, so ties are broken by id
        // over the whole tie group.
        let mut limit = k.saturating_add(16).min(total);
        loop {
            let top = searcher.search(&query, &TopDocs::with_limit(limit).order_by_score())?;
            let complete = top.len() < limit
                || limit >= total
                || top.get(k.min(top.len()).saturating_sub(1)).map(|h| h.0)
                    != top.last().map(|h| h.0);
            if complete {
                let mut hits = Vec::with_capacity(top.len());
                for (score, addr) in top {
                    let doc: TantivyDocument = searcher.doc(addr)?;
                    let id = doc
                        .get_first(self.id)
                        .and_then(|v| v.as_str().map(str::to_string))
                        .ok_or_else(|| SearchError("document without id".into()))?;
                    hits.push((id, score));
                }
                hits.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
                hits.truncate(k);
                return Ok(hits);
            }
            limit = limit.saturating_mul(4).min(total);
        }
    }
}

/// Parameter names and descriptions from the input schema (object
/// properties, or positional `prefixItems` titles/descriptions).
fn params_text(m: &CapabilityManifest) -> String {
    let mut out = String::new();
    let mut push = |s: &str| {
        if !s.is_empty() {
            out.push_str(s);
            out.push(' ');
        }
    };
    if let Some(props) = m.input_schema.get("properties").and_then(|p| p.as_object()) {
        for (name, schema) in props {
            push(name);
            for key in ["title", "description"] {
                if let Some(s) = schema.get(key).and_then(|d| d.as_str()) {
                    push(s);
                }
            }
        }
    }
    if let Some(items) = m.input_schema.get("prefixItems").and_then(|p| p.as_array()) {
        for schema in items {
            for key in ["title", "description"] {
                if let Some(s) = schema.get(key).and_then(|d| d.as_str()) {
                    push(s);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::{ProviderSpec, TrustTier};
    use serde_json::json;

    fn m(id: &str, desc: &str, schema: serde_json::Value) -> CapabilityManifest {
        CapabilityManifest {
            id: id.into(),
            name: id.into(),
            description: desc.into(),
            version: "1".into(),
            input_schema: schema,
            output_schema: None,
            provider: ProviderSpec::Builtin,
            trust_tier: TrustTier::System,
            local: true,
            effects: Default::default(),
            examples: vec![],
        }
    }

    #[test]
    fn analyzer_splits_lowercases_and_stems() {
        assert_eq!(analyze("getUserRepos"), ["get", "user", "repo"]);
        assert_eq!(analyze("ccos.math.add"), ["ccos", "math", "add"]);
        assert_eq!(analyze("Counting words"), ["count", "word"]);
    }

    #[test]
    fn ranks_by_relevance_then_id() {
        let mut ix = SearchIndex::new().unwrap();
        ix.upsert(&m(
            "gh.getUserRepos",
            "List repositories of a user",
            json!({"type":"object"}),
        ))
        .unwrap();
        ix.upsert(&m(
            "ccos.math.add",
            "Add two numbers",
            json!({"type":"array"}),
        ))
        .unwrap();
        ix.upsert(&m(
            "weather.now",
            "Current weather",
            json!({"type":"object","properties":{"city":{"description":"city name"}}}),
        ))
        .unwrap();
        let hits = ix.search("user repositories", 5).unwrap();
        assert_eq!(hits[0].0, "gh.getUserRepos");
        let hits = ix.search("city", 5).unwrap();
        assert_eq!(hits[0].0, "weather.now");
        assert!(ix.search("", 5).unwrap().is_empty());
        ix.remove("weather.now");
        assert!(ix.search("city", 5).unwrap().is_empty());
        // Identical documents tie: ids decide, across the whole tie group.
        for i in (0..40).rev() {
            ix.upsert(&m(&format!("same.{i:02}"), "identical text", json!({})))
                .unwrap();
        }
        assert_eq!(ix.search("identical", usize::MAX).unwrap().len(), 40);
        let hits = ix.search("identical", 3).unwrap();
        let ids: Vec<_> = hits.iter().map(|h| h.0.as_str()).collect();
        assert_eq!(ids, ["same.00", "same.01", "same.02"]);
    }
}
