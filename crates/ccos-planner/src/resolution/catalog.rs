//! [`CatalogResolution`]: ranking over the marketplace's own catalog.
//!
//! # Scoring
//!
//! 0. **Query.** The intent's description, without English function words
//!    ([`STOP_WORDS`]: catalogs of short descriptions would give "to" or
//!    "me" a high IDF), plus its parameter names; analysed like the index
//!    (identifiers split, lower-cased, stemmed). A request with several
//!    parts is also cut into *clauses* at sentence punctuation, commas and
//!    connectors by the splitter shared with decomposition
//!    ([`crate::decompose::split_clauses`]).
//! 1. **Pool.** The marketplace's search index is queried with the whole
//!    query for `max(k, POOL_MIN)` hits, and with each clause for
//!    [`CLAUSE_POOL`] more.
//! 2. **Features** of each pooled capability, each in `[0, 1]`:
//!    - `bm25`: Okapi BM25 (k1 = 1.2, b = 0.75) of the query against the
//!      capability as ONE document (name, id, description, parameter
//!      names and descriptions), IDF over the whole catalog, divided by
//!      the pool's best;
//!    - `index`: the marketplace index score (field-weighted BM25),
//!      divided by the pool's best;
//!    - `name`: the share of the capability's *name words* (name and last
//!      dotted id segment) found in the query: `flight_book` fully covered
//!      by "book a flight" is a strong signal that BM25 dilutes;
//!    - `coverage`: the IDF-weighted share of query words found anywhere
//!      in the capability's text;
//!    - `params`: the share of the intent's parameter names matching an
//!      input property (identifier-split, so `per_page` matches `perPage`,
//!      and `file_path` matches `path` by word containment);
//!    - `effect`: 1 when the capability's effects fit the intent type
//!      (`askuser` → `user`, `write` → `write`, `fetch` → `read` or
//!      `network`, `compute`/`transform`/`filter` → `pure`, `output` →
//!      `user` or `write`), else 0;
//!    - `clause`: the best, over the clauses, of the clause's BM25 divided
//!      by the pool's best for that clause (equals `bm25` for a one-clause
//!      request), so the best tool for each part of a multi-part request
//!      rises, not only the tool matching the dominant part.
//! 3. **Score** = Σ weight × feature ([`Weights`], defaults documented
//!    there); ties are broken by id. Everything is deterministic (ordered
//!    maps, no randomness). The default weights were set on the aggregate
//!    figures of the evaluation harness (`ccos eval`); nothing refers to
//!    individual benchmark items.
//!
//! Catalog statistics (document frequencies, average length) are computed
//! from a snapshot of the marketplace and recomputed when its size changes;
//! a capability replaced in place keeps the old statistics until then,
//! which only shifts IDFs slightly.
//!
//! # No fit
//!
//! A capability whose `coverage` is below [`CatalogResolution::min_coverage`]
//! (default [`DEFAULT_MIN_COVERAGE`]) is dropped; when nothing is left the
//! answer is empty, i.e. "no capability fits".
//!
//! # Soft validation
//!
//! For each returned candidate, required input properties that the intent
//! does not supply are examined: one whose name is of the free-text kind
//! (`prompt`, `query`, `message`, `question`, `text`, ...) gets an adapter
//! reason ("adapter: use the description as :prompt") instead of rejecting
//! the match; others are listed as "missing required: ..." for plan
//! generation to ask or report.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

use ccos_marketplace::search::analyze;
use ccos_marketplace::{CapabilityManifest, Effect, Marketplace};

use super::{Candidate, ResolutionError, ResolutionStrategy, sort_candidates};
use crate::intent::{IntentType, SubIntent};

/// Smallest pool fetched from the index before re-ranking.
pub const POOL_MIN: usize = 50;

/// Pool fetched from the index for each clause of a multi-part request.
pub const CLAUSE_POOL: usize = 20;

/// Default [`CatalogResolution::min_coverage`]: any capability sharing at
/// least one query word is a candidate.
pub const DEFAULT_MIN_COVERAGE: f64 = 0.0;

/// Property-name words that a free-text description can fill (soft
/// validation).
const FREE_TEXT_KEYS: [&str; 10] = [
    "prompt",
    "query",
    "message",
    "question",
    "text",
    "q",
    "input",
    "content",
    "instruction",
    "description",
];

/// Weights of the features combined by [`CatalogResolution`] (see the
/// module docs for the features).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// Weight of the catalog BM25 (one document per capability). Default 1.0.
    pub bm25: f64,
    /// Weight of the marketplace index score (field-weighted). Default 0.5.
    pub index: f64,
    /// Weight of name-word coverage. Default 0.5.
    pub name: f64,
    /// Weight of IDF-weighted query coverage. Default 0.5.
    pub coverage: f64,
    /// Weight of parameter-name overlap. Default 0.3.
    pub params: f64,
    /// Weight of effect/type fit. Default 0.2.
    pub effect: f64,
    /// Weight of the best per-clause BM25 (multi-part requests). Default 1.0.
    pub clause: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            bm25: 1.0,
            index: 0.5,
            name: 0.5,
            coverage: 0.5,
            params: 0.3,
            effect: 0.2,
            clause: 1.0,
        }
    }
}

/// BM25 parameters of the catalog score.
const K1: f64 = 1.2;
const B: f64 = 0.75;

/// Catalog-wide term statistics for the catalog BM25 (document
/// frequencies, average length), computed from a snapshot of the
/// marketplace and recomputed when its size changes.
#[derive(Default)]
struct Stats {
    size: usize,
    avg_len: f64,
    df: BTreeMap<String, usize>,
    /// Analysed terms per capability id, with the fingerprint of the text
    /// they were computed from (reused only while it is unchanged).
    terms: BTreeMap<String, (String, Arc<CapTerms>)>,
}

impl Stats {
    /// The terms of `m`: cached when its text is unchanged, else computed.
    fn terms_of(&self, m: &CapabilityManifest) -> Arc<CapTerms> {
        match self.terms.get(&m.id) {
            Some((fp, t)) if *fp == fingerprint(m) => t.clone(),
            _ => Arc::new(cap_terms(m)),
        }
    }
}

/// The text a capability's terms are computed from, to detect changes.
fn fingerprint(m: &CapabilityManifest) -> String {
    format!("{}\u{1}{}\u{1}{}", m.name, m.description, m.input_schema)
}

/// Resolution over the marketplace catalog (search index + parameter
/// overlap + effect fit, with soft validation). See the module docs.
pub struct CatalogResolution {
    marketplace: Arc<Marketplace>,
    weights: Weights,
    min_coverage: f64,
    /// Report the capabilities the "fits" gates drop, with why (score 0),
    /// instead of leaving them out (see [`CatalogResolution::diagnosing`]).
    diagnose: bool,
    stats: Mutex<Option<Arc<Stats>>>,
}

/// One pooled capability and its raw scores.
struct Pooled {
    manifest: CapabilityManifest,
    /// Marketplace index score (0 when pooled only by a clause).
    index: f64,
    terms: Arc<CapTerms>,
    bm25: f64,
    per_clause: Vec<f64>,
}

/// Analysed terms of one capability, for the features.
struct CapTerms {
    /// Name words (name + last id segment).
    name: BTreeSet<String>,
    /// What it does: name and description words (not its parameters').
    what: BTreeSet<String>,
    /// The description's first word (its verb, in most catalogs), stemmed.
    lead: Option<String>,
    /// Whether it lists newest first and takes how many
    /// ([`crate::understand::bind::newest_first_count`]).
    newest_first: bool,
    /// The object of that verb: the description's next words up to a
    /// preposition or a stop ("Shows the *commit logs*"), stemmed.
    object: BTreeSet<String>,
    /// Term frequencies over the whole document.
    tf: BTreeMap<String, u32>,
    /// The values its parameters' `enum`s allow ("closed" of an issue
    /// `state`): a request naming one asks for that choice, so the word
    /// counts for the "fits" bar (not for the score: ranking is unchanged).
    choices: BTreeSet<String>,
    /// The words naming where it comes from
    /// ([`crate::understand::lexicon::provider_words`]): they count for
    /// the "fits" bar, not for the score.
    provider: BTreeSet<String>,
    /// Document length in terms.
    len: usize,
}

impl CatalogResolution {
    /// A strategy over `marketplace` with default weights.
    pub fn new(marketplace: Arc<Marketplace>) -> CatalogResolution {
        CatalogResolution {
            marketplace,
            weights: Weights::default(),
            min_coverage: DEFAULT_MIN_COVERAGE,
            diagnose: false,
            stats: Mutex::new(None),
        }
    }

    /// A strategy that answers only with the capabilities its "fits"
    /// gates drop (too little of the request's words, none of what the
    /// capability does, nothing naming it), best pooled first, score 0
    /// and the reason: why nothing fits, for the decision trace of a
    /// sub-intent no capability serves. Never used to choose.
    pub fn diagnosing(mut self) -> CatalogResolution {
        self.diagnose = true;
        self
    }

    /// Replaces the feature weights.
    pub fn with_weights(mut self, weights: Weights) -> CatalogResolution {
        self.weights = weights;
        self
    }

    /// Sets the minimum query coverage (0..1) below which a capability is
    /// not a candidate ("no fit").
    pub fn with_min_coverage(mut self, min: f64) -> CatalogResolution {
        self.min_coverage = min;
        self
    }

    /// The minimum query coverage in force.
    pub fn min_coverage(&self) -> f64 {
        self.min_coverage
    }

    /// The weights in force.
    pub fn weights(&self) -> Weights {
        self.weights
    }

    /// The catalog statistics, recomputed when the catalog size changed.
    fn stats(&self) -> Arc<Stats> {
        let mut guard = self.stats.lock().unwrap_or_else(|p| p.into_inner());
        let size = self.marketplace.len();
        if let Some(s) = guard.as_ref().filter(|s| s.size == size) {
            return s.clone();
        }
        let mut df: BTreeMap<String, usize> = BTreeMap::new();
        let mut terms = BTreeMap::new();
        let mut total = 0usize;
        let all = self.marketplace.list();
        for m in &all {
            let t = cap_terms(m);
            total += t.len;
            for term in t.tf.keys() {
                *df.entry(term.clone()).or_default() += 1;
            }
            terms.insert(m.id.clone(), (fingerprint(m), Arc::new(t)));
        }
        let s = Arc::new(Stats {
            size: all.len(),
            avg_len: if all.is_empty() {
                0.0
            } else {
                total as f64 / all.len() as f64
            },
            df,
            terms,
        });
        *guard = Some(s.clone());
        s
    }
}

impl ResolutionStrategy for CatalogResolution {
    fn name(&self) -> &str {
        "catalog"
    }

    fn resolve(&self, intent: &SubIntent, k: usize) -> Result<Vec<Candidate>, ResolutionError> {
        if k == 0 {
            return Ok(vec![]);
        }
        let query = intent.query_text();
        let mut query_text = content_text(&query);
        // Parameter names say what the sub-intent carries; one-letter names
        // ("a", "b" of arithmetic) say nothing and are left out.
        for key in intent.params.keys().filter(|k| k.chars().count() > 1) {
            query_text.push(' ');
            query_text.push_str(key);
        }
        // Synonyms of the request's words widen the pool ("grab a URL"
        // finds what *gets* one); they are judged as one word below and do
        // not add to the scores (a synonym is not evidence twice).
        let widened = crate::understand::lexicon::synonym_expansion(&query_text);
        let pool_text = if widened.is_empty() {
            query_text.clone()
        } else {
            format!("{query_text} {widened}")
        };
        let pool = self
            .marketplace
            .search(&pool_text, k.max(POOL_MIN))
            .map_err(|e| ResolutionError::Search {
                intent: intent.id.clone(),
                message: e.to_string(),
            })?;
        let Some(max_index) = pool.first().map(|h| f64::from(h.1)) else {
            return Ok(vec![]);
        };
        let stats = self.stats();
        let mut query_terms: BTreeSet<String> = analyze(&query_text).into_iter().collect();
        // A word no capability uses stands for its synonyms in the scores
        // ("lowercase" for "lower"); a word the catalog knows keeps its own.
        let unknown: Vec<String> = query_terms
            .iter()
            .filter(|q| stats.df.get(*q).copied().unwrap_or(0) == 0)
            .cloned()
            .collect();
        for q in unknown {
            query_terms.extend(crate::understand::lexicon::synonym_stems(&q));
        }
        let idf = idf_of(&query_terms, &stats);
        // The "fits" evidence: the words saying what to do (values and the
        // hints added for their kinds are not evidence), plus parameter
        // names for sub-intents without mentions.
        let mut evidence_text = content_text(&intent.evidence_text());
        if !intent.from_text {
            for key in intent.params.keys().filter(|k| k.chars().count() > 1) {
                evidence_text.push(' ');
                evidence_text.push_str(key);
            }
        }
        // A condition whose key is not said ("people who *live in*
        // Paris") asks to keep some records: evidence of a filter, though
        // no word says "filter". It counts for a capability that filters
        // and never against another (see `condition_stems` below).
        // Only where records come from: a stated file or an earlier step
        // ("who works at Globex?" alone names nothing to filter).
        let has_records = !intent.depends_on.is_empty()
            || intent
                .mentions
                .iter()
                .any(|m| m.kind == crate::understand::MentionKind::Path);
        let condition_stems: BTreeSet<String> =
            if has_records && intent.mentions.iter().any(|m| m.is_relation()) {
                evidence_text.push_str(" filter");
                analyze("filter").into_iter().collect()
            } else if intent
                .mentions
                .iter()
                .any(|m| m.kind == crate::understand::MentionKind::Field && m.lookup)
            {
                // So does a key asked of a JSON file ("what *port* is set in
                // config.json"): evidence of getting it.
                evidence_text.push_str(" get");
                analyze("get").into_iter().collect()
            } else {
                BTreeSet::new()
            };
        let evidence_terms: BTreeSet<String> = analyze(&evidence_text).into_iter().collect();
        // The words naming a kind of text a pattern finds ("the *email
        // addresses*", "the *links*"), for a capability taking a regex.
        let pattern_stems: BTreeSet<String> =
            crate::understand::bind::named_pattern(&intent.description)
                .map(|(kind, _)| analyze(kind).into_iter().collect())
                .unwrap_or_default();
        // Each evidence word with its synonyms' stems (itself included),
        // computed once per request, not per candidate.
        let evidence_syn: BTreeMap<&str, BTreeSet<String>> = evidence_terms
            .iter()
            .map(|q| (q.as_str(), crate::understand::lexicon::synonym_stems(q)))
            .collect();
        let syn = |q: &str| evidence_syn.get(q).into_iter().flatten();
        let hint_terms: BTreeSet<String> = analyze(&intent.kind_hints().join(" "))
            .into_iter()
            .collect();
        let evidence_idf = idf_of(&evidence_terms, &stats);
        // The stems of "named"/"called" right before a stated name (not a
        // path: "the file named faq.md" is sought by name).
        let naming_stems: BTreeSet<String> = intent
            .mentions
            .iter()
            .filter(|m| m.kind == crate::understand::MentionKind::Name)
            .filter_map(|m| m.cue.prep.as_deref())
            .filter(|p| matches!(*p, "named" | "called"))
            .flat_map(analyze)
            .collect();
        let stated_files: Vec<&crate::understand::Mention> = intent
            .mentions
            .iter()
            .filter(|m| m.kind == crate::understand::MentionKind::Path)
            .collect();
        let file_stems: BTreeSet<String> = stated_files
            .iter()
            .flat_map(|m| crate::understand::lexicon::file_name_stems(&m.text))
            .collect();
        // What a stated file holds as a list, for a capability taking one:
        // records in a JSON file ("the *entries* of people.json"), lines
        // and numbers in a text ("the first 3 *lines* of notes.txt").
        let held_stems: BTreeSet<String> = stated_files
            .iter()
            .filter(|m| crate::understand::lexicon::names_a_file(&m.text))
            .flat_map(|m| crate::understand::lexicon::held_noun_stems(&m.text))
            .collect();
        // The request's words in order, for acronyms ("greatest common
        // divisor" spells `gcd`).
        let evidence_seq: Vec<String> = analyze(&evidence_text);
        // A capability that takes the user's own words (a message, a
        // query) is judged on the words before them: "echo hello" is
        // evidence of echoing, not of "hello".
        let payload_terms: BTreeSet<String> =
            crate::understand::bind::payload(&intent.evidence_text(), &[])
                .map(|p| analyze(&content_text(&p)).into_iter().collect())
                .unwrap_or_default();
        // The pool: the whole-query hits, plus the hits of each clause of
        // a multi-part request (index score 0 for those).
        let clause_terms: Vec<BTreeSet<String>> = clauses(&query);
        let mut pool_scores: BTreeMap<String, f64> = pool
            .iter()
            .map(|(id, s)| (id.clone(), f64::from(*s)))
            .collect();
        for c in &clause_terms {
            let text = c.iter().cloned().collect::<Vec<_>>().join(" ");
            let hits = self.marketplace.search(&text, CLAUSE_POOL).map_err(|e| {
                ResolutionError::Search {
                    intent: intent.id.clone(),
                    message: e.to_string(),
                }
            })?;
            for (id, _) in hits {
                pool_scores.entry(id).or_insert(0.0);
            }
        }
        let clause_idf: Vec<BTreeMap<&str, f64>> =
            clause_terms.iter().map(|c| idf_of(c, &stats)).collect();
        let scored: Vec<Pooled> = pool_scores
            .iter()
            .filter_map(|(id, s)| self.marketplace.get(id).map(|m| (m, *s)))
            .map(|(m, s)| {
                let t = stats.terms_of(&m);
                let b = bm25(&t, &idf, stats.avg_len);
                let per_clause = clause_idf
                    .iter()
                    .map(|ci| bm25(&t, ci, stats.avg_len))
                    .collect();
                Pooled {
                    manifest: m,
                    index: s,
                    terms: t,
                    bm25: b,
                    per_clause,
                }
            })
            .collect();
        let max_bm25 = scored.iter().map(|x| x.bm25).fold(0.0, f64::max);
        let max_clause: Vec<f64> = (0..clause_terms.len())
            .map(|i| {
                scored
                    .iter()
                    .map(|x| x.per_clause.get(i).copied().unwrap_or(0.0))
                    .fold(0.0, f64::max)
            })
            .collect();
        let w = self.weights;
        let mut out = Vec::with_capacity(scored.len());
        let mut slots: BTreeMap<String, usize> = BTreeMap::new();
        let mut diagnosed: Vec<(f64, Candidate)> = vec![];
        for (slot, p) in scored.iter().enumerate() {
            let (m, index_score, t, bm, per_clause) =
                (&p.manifest, p.index, &p.terms, p.bm25, &p.per_clause);
            let mut reasons = Vec::new();
            let takes_user_text = crate::understand::bind::takes_user_text(m);
            let judged: Vec<&String> = evidence_terms
                .iter()
                .filter(|q| {
                    !(takes_user_text
                        && payload_terms.contains(*q)
                        && evidence_terms.len() > payload_terms.len())
                })
                // Courtesy ("could you please") says nothing of what to
                // do: not evidence either way. (It stays in the ranked
                // text: removing it there changes the pool.)
                .filter(|q| !crate::understand::lexicon::courtesy_stems().contains(*q))
                .collect();
            // Words spelling out one of its name words ("body mass index"
            // for `calculate_bmi`) are its name.
            let spelled = spelled_name_words(&evidence_seq, &t.name);
            let matched: Vec<&String> = judged
                .iter()
                .copied()
                .filter(|q| syn(q).any(|s| t.tf.contains_key(s)))
                .collect();
            let judged_total: f64 = judged
                .iter()
                .map(|q| evidence_idf.get(q.as_str()).copied().unwrap_or(0.0))
                .sum();
            let matched_weight: f64 = matched
                .iter()
                .map(|q| evidence_idf.get(q.as_str()).copied().unwrap_or(0.0))
                .sum();
            let coverage = if judged_total > 0.0 {
                matched_weight / judged_total
            } else {
                0.0
            };
            let unmatched = || {
                join(
                    judged
                        .iter()
                        .filter(|q| !matched.contains(q))
                        .take(6)
                        .map(|q| q.as_str()),
                )
            };
            // The bar: filler ("today", "the number", "help me") says
            // nothing a capability must do, so it counts for a capability
            // that has it and never against one. (The score's coverage
            // keeps it: the ranking is measured with it.)
            let filler = crate::understand::lexicon::filler_word_stems();
            // The weight of the request's words it lacks that `excused`
            // accepts.
            let unmatched_weight = |excused: &dyn Fn(&str) -> bool| -> f64 {
                judged
                    .iter()
                    .filter(|q| !matched.contains(q) && excused(q.as_str()))
                    .map(|q| evidence_idf.get(q.as_str()).copied().unwrap_or(0.0))
                    .sum()
            };
            let unmatched_filler = unmatched_weight(&|q| filler.contains(q));
            // So does a word introducing a stated value ("a branch
            // *called* v2"): it says a name follows, not what to do.
            let naming =
                unmatched_weight(&|q| naming_stems.contains(q) || condition_stems.contains(q));
            // So does a word repeating a stated file's name ("the
            // *people* in people.json"): what the file holds.
            // (A parameter slot filling would read the file into.)
            let takes_list = !held_stems.is_empty()
                && crate::understand::bind::params_of(m)
                    .0
                    .iter()
                    .any(crate::understand::bind::takes_a_file_as_list);
            // (A file's name that names members of a list — "numbers" of
            // numbers.txt — only for a capability taking the list.)
            let file_named = unmatched_weight(&|q| {
                ((file_stems.contains(q)
                    && (takes_list
                        || !crate::understand::lexicon::held_noun_stems_all().contains(q)))
                    || (takes_list && held_stems.contains(q)))
                    && !filler.contains(q)
                    && !naming_stems.contains(q)
            });
            let bar_total = judged_total - unmatched_filler - naming - file_named;
            // A word naming one of its parameters' choices counts for it.
            let chosen_weight = unmatched_weight(&|q| syn(q).any(|s| t.choices.contains(s)));
            // So do the words naming a pattern a regex parameter takes
            // ("find the *email addresses* in emails.txt").
            let pattern_weight = if !pattern_stems.is_empty()
                && crate::understand::bind::params_of(m)
                    .0
                    .iter()
                    .any(crate::understand::bind::takes_regex)
            {
                unmatched_weight(&|q| pattern_stems.contains(q))
            } else {
                0.0
            };
            // So do the words naming its provider ("the *everything*
            // server").
            let provider_weight = unmatched_weight(&|q| t.provider.contains(q));
            // So do the words spelling out its name (not in the score:
            // the ranking is measured without them).
            let spelled_weight = unmatched_weight(&|q| spelled.contains(q));
            // So do the words asking for the newest entries, for a log
            // listing newest first that takes how many ("the *most recent*
            // commit").
            let recency_weight = if t.newest_first {
                unmatched_weight(&|q| crate::understand::bind::recency_stems().contains(q))
            } else {
                0.0
            };
            let bar_coverage = if bar_total > 0.0 {
                (matched_weight
                    + chosen_weight
                    + spelled_weight
                    + provider_weight
                    + recency_weight
                    + pattern_weight)
                    / bar_total
            } else {
                0.0
            };
            let mut dropped: Option<String> = None;
            // Words of the present alone never fit when the request says
            // more ("list *today's* orders" is not the current date).
            let present = crate::understand::lexicon::present_word_stems();
            let only_filler = matched.iter().all(|q| present.contains(q.as_str()))
                && judged
                    .iter()
                    .any(|q| !filler.contains(q.as_str()) && !matched.contains(q));
            if bar_coverage < self.min_coverage || (matched.is_empty() && spelled.is_empty()) {
                dropped = Some(format!(
                    "dropped: it has {:.2} of the request's words by weight ({:.2} needed; it lacks {})",
                    bar_coverage.abs(),
                    self.min_coverage,
                    unmatched()
                ));
            } else if only_filler {
                dropped = Some(format!(
                    "dropped: only words of the present match ({}); it lacks {}",
                    join(matched.iter().map(|q| q.as_str())),
                    unmatched()
                ));
            }
            // The words of the request must meet what the capability does,
            // not only its parameter names: "count to ten" is not served
            // by a tool whose *parameter* is named `count`.
            let meets_what = matched.iter().any(|q| syn(q).any(|s| t.what.contains(s)));
            if dropped.is_none() && intent.from_text && !meets_what {
                dropped = Some(format!(
                    "dropped: the request's words it has ({}) are only its parameters' names, not what it does",
                    join(matched.iter().map(|q| q.as_str()))
                ));
            }
            // ... and name it: a word of the request (or a synonym, or the
            // kind of a value it states: a URL, a file) is a word of the
            // capability's name or the verb its description opens with.
            // "delete README.md" is not served by `ccos.text.lines`, whose
            // description merely mentions "removed".
            let named = !spelled.is_empty()
                || evidence_terms.iter().any(|q| {
                    syn(q).any(|s| {
                        t.name.contains(s)
                            || t.lead.as_deref() == Some(s.as_str())
                            || t.object.contains(s)
                    })
                })
                || hint_terms.iter().any(|h| {
                    crate::understand::lexicon::synonym_stems(h)
                        .iter()
                        .any(|s| t.name.contains(s))
                })
                // A capability named for the nth item is named by any
                // ordinal ("the *last* number", "the *4th* line").
                || (t.name.contains("nth")
                    && evidence_terms
                        .iter()
                        .any(|q| crate::understand::lexicon::says_a_position(q)));
            if dropped.is_none() && intent.from_text && !named {
                dropped = Some(format!(
                    "dropped: no word of the request names it (its name words: {}{})",
                    join(t.name.iter().map(|s| s.as_str())),
                    t.lead
                        .as_deref()
                        .map(|l| format!("; its verb: {l}"))
                        .unwrap_or_default()
                ));
            }
            match (dropped, self.diagnose) {
                (None, false) => {}
                (Some(_), false) | (None, true) => continue,
                (Some(why), true) => {
                    diagnosed.push((
                        bm,
                        Candidate {
                            capability_id: m.id.clone(),
                            score: 0.0,
                            reasons: vec![format!("{why}; bm25 {bm:.2}")],
                        },
                    ));
                    continue;
                }
            }
            reasons.push(format!("bm25 {bm:.2} on '{query}'"));
            let bm25_rel = if max_bm25 > 0.0 { bm / max_bm25 } else { 0.0 };
            // Best relative BM25 over the clauses; the whole query's when the
            // request has a single clause.
            let best = per_clause
                .iter()
                .zip(&max_clause)
                .map(|(s, mx)| if *mx > 0.0 { s / mx } else { 0.0 })
                .enumerate()
                .fold(None, |best: Option<(usize, f64)>, (i, v)| match best {
                    Some((_, bv)) if bv >= v => best,
                    _ => Some((i, v)),
                });
            let clause = best.map_or(bm25_rel, |b| b.1);
            let best_clause = best.map(|b| b.0);
            if let Some(i) = best_clause.filter(|_| clause_terms.len() > 1 && clause > 0.0) {
                reasons.push(format!(
                    "best for clause {} of {} ({:.2})",
                    i + 1,
                    clause_terms.len(),
                    clause
                ));
            }
            let index_rel = if max_index > 0.0 {
                index_score / max_index
            } else {
                0.0
            };
            let name_hits: Vec<&String> = t.name.intersection(&query_terms).collect();
            let name = if t.name.is_empty() {
                0.0
            } else {
                name_hits.len() as f64 / t.name.len() as f64
            };
            if !name_hits.is_empty() {
                reasons.push(format!(
                    "name words in query: {}",
                    join(name_hits.iter().map(|s| s.as_str()))
                ));
            }
            let (params, overlap) = param_overlap(intent, m);
            if !overlap.is_empty() {
                reasons.push(format!("params overlap: {}", overlap.join(", ")));
            }
            let effect = effect_fit(&intent.intent_type, m);
            if effect > 0.0 {
                reasons.push(format!(
                    "effects fit {}: {}",
                    intent.intent_type,
                    join(m.effective_effects().iter().map(|e| e.as_str()))
                ));
            }
            let score = w.bm25 * bm25_rel
                + w.index * index_rel
                + w.name * name
                + w.coverage * coverage
                + w.params * params
                + w.effect * effect
                + w.clause * clause;
            out.push(Candidate {
                capability_id: m.id.clone(),
                score,
                reasons,
            });
            slots.insert(m.id.clone(), slot);
        }
        if self.diagnose {
            // The dropped ones, most similar (BM25) first.
            diagnosed.sort_by(|a, b| {
                b.0.total_cmp(&a.0)
                    .then_with(|| a.1.capability_id.cmp(&b.1.capability_id))
            });
            return Ok(diagnosed.into_iter().take(k).map(|(_, c)| c).collect());
        }
        sort_candidates(&mut out);
        out.truncate(k);
        // Soft validation of the kept candidates only (it does not change
        // scores).
        for c in &mut out {
            if let Some(p) = slots.get(&c.capability_id).and_then(|i| scored.get(*i)) {
                c.reasons.extend(soft_validation(intent, &p.manifest));
            }
        }
        Ok(out)
    }
}

/// IDF of each term over the catalog: `ln(1 + (N - df + 0.5) / (df + 0.5))`.
fn idf_of<'a>(terms: &'a BTreeSet<String>, stats: &Stats) -> BTreeMap<&'a str, f64> {
    let n = stats.size as f64;
    terms
        .iter()
        .map(|q| {
            let df = stats.df.get(q).copied().unwrap_or(0) as f64;
            (q.as_str(), (1.0 + (n - df + 0.5) / (df + 0.5)).ln())
        })
        .collect()
}

/// English function words dropped from requests before matching (the
/// common NLTK English stop list, lower-case). Tool descriptions are short,
/// so these words are rare in a catalog and would otherwise get a high IDF
/// and match on chance words such as "to" or "me".
pub(crate) const STOP_WORDS: [&str; 127] = [
    "i",
    "me",
    "my",
    "myself",
    "we",
    "our",
    "ours",
    "ourselves",
    "you",
    "your",
    "yours",
    "yourself",
    "yourselves",
    "he",
    "him",
    "his",
    "himself",
    "she",
    "her",
    "hers",
    "herself",
    "it",
    "its",
    "itself",
    "they",
    "them",
    "their",
    "theirs",
    "themselves",
    "what",
    "which",
    "who",
    "whom",
    "this",
    "that",
    "these",
    "those",
    "am",
    "is",
    "are",
    "was",
    "were",
    "be",
    "been",
    "being",
    "have",
    "has",
    "had",
    "having",
    "do",
    "does",
    "did",
    "doing",
    "a",
    "an",
    "the",
    "and",
    "but",
    "if",
    "or",
    "because",
    "as",
    "until",
    "while",
    "of",
    "at",
    "by",
    "for",
    "with",
    "about",
    "against",
    "between",
    "into",
    "through",
    "during",
    "before",
    "after",
    "above",
    "below",
    "to",
    "from",
    "up",
    "down",
    "in",
    "out",
    "on",
    "off",
    "over",
    "under",
    "again",
    "further",
    "then",
    "once",
    "here",
    "there",
    "when",
    "where",
    "why",
    "how",
    "all",
    "any",
    "both",
    "each",
    "few",
    "more",
    "most",
    "other",
    "some",
    "such",
    "no",
    "nor",
    "not",
    "only",
    "own",
    "same",
    "so",
    "than",
    "too",
    "very",
    "s",
    "t",
    "can",
    "will",
    "just",
    "don",
    "should",
    "now",
];

/// The words of `text` (identifier-split, lower-cased) without
/// [`STOP_WORDS`], set phrases read as their word, joined by spaces: the
/// text that is matched.
fn content_text(text: &str) -> String {
    let words = ccos_marketplace::ids::words(text).join(" ");
    crate::understand::lexicon::without_idioms(&words)
        .split(' ')
        .filter(|w| !w.is_empty() && !STOP_WORDS.contains(w))
        // "the *4th* number", "the *third* person": a position, whichever
        // ordinal says it.
        .map(|w| {
            if crate::understand::lexicon::is_nth_word(w) {
                "nth"
            } else {
                w
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The analysed terms of each clause of a request, when it has two or
/// more: the text is cut at sentence punctuation, commas and connectors
/// ([`crate::decompose::split_clauses`]); clauses of fewer than two terms are dropped. A single
/// clause gives an empty vector (the whole query is the clause).
fn clauses(text: &str) -> Vec<BTreeSet<String>> {
    let parts: Vec<String> = crate::decompose::split_clauses(text)
        .into_iter()
        .map(|c| c.text)
        .collect();
    let out: Vec<BTreeSet<String>> = parts
        .iter()
        .map(|p| {
            analyze(&content_text(p))
                .into_iter()
                .collect::<BTreeSet<String>>()
        })
        .filter(|t| t.len() >= 2)
        .collect();
    if out.len() > 1 { out } else { vec![] }
}

/// Okapi BM25 of one document for the query terms (with their IDF).
fn bm25(t: &CapTerms, idf: &BTreeMap<&str, f64>, avg_len: f64) -> f64 {
    let norm = if avg_len > 0.0 {
        1.0 - B + B * t.len as f64 / avg_len
    } else {
        1.0
    };
    idf.iter()
        .map(|(q, w)| {
            let f = f64::from(t.tf.get(*q).copied().unwrap_or(0));
            w * f * (K1 + 1.0) / (f + K1 * norm)
        })
        .sum()
}

fn join<'a>(it: impl Iterator<Item = &'a str>) -> String {
    it.collect::<Vec<_>>().join(", ")
}

/// Name words (name + last id segment) and term frequencies of the whole
/// document (name, description, parameter names and descriptions).
fn cap_terms(m: &CapabilityManifest) -> CapTerms {
    let last = m.id.rsplit('.').next().unwrap_or(&m.id);
    let name_text = if m.name == last {
        m.name.clone()
    } else {
        format!("{} {last}", m.name)
    };
    let name_terms = analyze(&name_text);
    let mut words = name_terms.clone();
    words.extend(analyze(&m.description));
    let what: BTreeSet<String> = words.iter().cloned().collect();
    let lead = analyze(m.description.split_whitespace().next().unwrap_or(""))
        .into_iter()
        .next();
    // Only after a verb ("Shows", "List"): "Whether the doors are
    // closed" has no object.
    let first = m
        .description
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_lowercase();
    let opens_with_verb = [
        first.as_str(),
        first.strip_suffix("es").unwrap_or(""),
        first.strip_suffix('s').unwrap_or(""),
    ]
    .iter()
    .any(|w| !w.is_empty() && crate::understand::lexicon::is_action_verb(w));
    // A description that is a noun phrase names what it gives: "The
    // current date and time" (`ccos.time.now`) is named by "date" as
    // much as "Shows the commit logs" by "logs" ("what's the current
    // date?" found nothing: helper trial).
    let names_its_value = first == "the";
    let object: BTreeSet<String> = m
        .description
        .split_whitespace()
        .skip(usize::from(!names_its_value))
        .filter(|_| opens_with_verb || names_its_value)
        .map(|w| w.to_lowercase())
        .skip_while(|w| matches!(w.as_str(), "the" | "a" | "an"))
        .take_while(|w| {
            w.chars().all(char::is_alphabetic)
                && !crate::understand::lexicon::PREPOSITIONS.contains(&w.as_str())
                && !matches!(w.as_str(), "or" | "that" | "which" | "if")
                && (names_its_value || w != "and")
        })
        .filter(|w| w != "and")
        .take(3)
        .flat_map(|w| analyze(&w))
        // "the *current* weather forecast" names no current time.
        .filter(|st| !crate::understand::lexicon::filler_word_stems().contains(st))
        .collect();
    if let Some(props) = m.input_schema.get("properties").and_then(|p| p.as_object()) {
        for (k, s) in props {
            words.extend(analyze(k));
            if let Some(d) = s.get("description").and_then(|d| d.as_str()) {
                words.extend(analyze(d));
            }
        }
    }
    let choices: BTreeSet<String> = m
        .input_schema
        .get("properties")
        .and_then(|p| p.as_object())
        .into_iter()
        .flat_map(|props| props.values())
        .filter_map(|s| s.get("enum").and_then(|e| e.as_array()))
        .flatten()
        .filter_map(|v| v.as_str())
        .flat_map(analyze)
        .collect();
    let mut tf: BTreeMap<String, u32> = BTreeMap::new();
    for w in &words {
        *tf.entry(w.clone()).or_default() += 1;
    }
    CapTerms {
        name: name_terms.into_iter().collect(),
        what,
        lead,
        newest_first: crate::understand::bind::newest_first_count(
            m,
            &crate::understand::bind::params_of(m).0,
        )
        .is_some(),
        object,
        tf,
        choices,
        provider: crate::understand::lexicon::provider_words(m),
        len: words.len(),
    }
}

/// Normalised words of an identifier: split, lower-cased, stemmed.
fn key_words(key: &str) -> Vec<String> {
    analyze(key)
}

/// True when intent key `a` names schema property `b`: equal words, or the
/// words of one contained in the other (`file_path` ~ `path`).
fn keys_match(a: &[String], b: &[String]) -> bool {
    if a.is_empty() || b.is_empty() {
        return false;
    }
    a == b || a.iter().all(|w| b.contains(w)) || b.iter().all(|w| a.contains(w))
}

/// Share of intent parameters matching an input property, and the matched
/// property names.
fn param_overlap(intent: &SubIntent, m: &CapabilityManifest) -> (f64, Vec<String>) {
    if intent.params.is_empty() {
        return (0.0, vec![]);
    }
    let props: Vec<(String, Vec<String>)> = m
        .property_names()
        .into_iter()
        .map(|p| {
            let w = key_words(&p);
            (p, w)
        })
        .collect();
    let mut matched = BTreeSet::new();
    let mut hits = 0usize;
    for key in intent.params.keys() {
        let kw = key_words(key);
        if let Some((p, _)) = props.iter().find(|(_, pw)| keys_match(&kw, pw)) {
            hits += 1;
            matched.insert(p.clone());
        }
    }
    (
        hits as f64 / intent.params.len() as f64,
        matched.into_iter().collect(),
    )
}

/// 1 when the capability's effects suit the intent type, else 0.
fn effect_fit(t: &IntentType, m: &CapabilityManifest) -> f64 {
    let effects = m.effective_effects();
    let wanted: &[Effect] = match t {
        IntentType::AskUser => &[Effect::User],
        IntentType::Write => &[Effect::Write],
        IntentType::Fetch => &[Effect::Read, Effect::Network],
        IntentType::Compute | IntentType::Transform | IntentType::Filter => &[Effect::Pure],
        IntentType::Output => &[Effect::User, Effect::Write],
        IntentType::Other(_) => &[],
    };
    if wanted.iter().any(|e| effects.contains(e)) {
        1.0
    } else {
        0.0
    }
}

/// Soft validation notes: adapters for missing free-text required
/// properties, and the other missing required properties.
fn soft_validation(intent: &SubIntent, m: &CapabilityManifest) -> Vec<String> {
    let have: Vec<Vec<String>> = intent.params.keys().map(|k| key_words(k)).collect();
    let mut missing = Vec::new();
    let mut notes = Vec::new();
    for req in m.required_keys() {
        let rw = key_words(&req);
        if have.iter().any(|h| keys_match(h, &rw)) {
            continue;
        }
        let lower = ccos_marketplace::ids::words(&req);
        if lower.iter().any(|w| FREE_TEXT_KEYS.contains(&w.as_str())) {
            notes.push(format!("adapter: use the description as :{req}"));
        } else {
            missing.push(req);
        }
    }
    if !missing.is_empty() {
        notes.push(format!("missing required: {}", missing.join(", ")));
    }
    notes
}

/// The request words (stems, in order: `seq`) that spell out an acronym
/// among a capability's name words (`name`): 2 to 5 letters, each the
/// initial of one of as many consecutive words of at least three letters
/// ("greatest common divisor" → `gcd`, "body mass index" → `bmi`).
fn spelled_name_words<'a>(seq: &'a [String], name: &BTreeSet<String>) -> BTreeSet<&'a str> {
    let mut out = BTreeSet::new();
    for a in name
        .iter()
        .filter(|a| (2..=5).contains(&a.len()) && a.chars().all(|c| c.is_ascii_lowercase()))
    {
        let n = a.len();
        if let Some(run) = seq.windows(n).find(|run| {
            run.iter().all(|w| w.len() >= 3 && w != a)
                && run.iter().filter_map(|w| w.chars().next()).eq(a.chars())
        }) {
            out.extend(run.iter().map(String::as_str));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolution::Resolution;
    use ccos_marketplace::TrustTier;
    use serde_json::json;

    fn cap(
        id: &str,
        desc: &str,
        schema: serde_json::Value,
        effects: &[Effect],
    ) -> CapabilityManifest {
        CapabilityManifest::new(id, desc, schema)
            .with_name(id.rsplit('.').next().unwrap_or(id))
            .with_tier(TrustTier::System)
            .with_effects(effects)
            .local()
    }

    fn catalog() -> Arc<Marketplace> {
        let mp = Marketplace::new().unwrap();
        mp.replace_all(vec![
            cap(
                "gh.list_issues",
                "List issues of a GitHub repository",
                json!({"type":"object","properties":{"owner":{},"repo":{},"perPage":{}},"required":["owner","repo"]}),
                &[Effect::Network],
            ),
            cap(
                "gh.create_issue",
                "Create an issue in a GitHub repository",
                json!({"type":"object","properties":{"owner":{},"repo":{},"title":{}},"required":["owner","repo","title"]}),
                &[Effect::Network, Effect::Write],
            ),
            cap(
                "ccos.user.ask",
                "Ask the user a question and return the answer",
                json!({"type":"object","properties":{"prompt":{}},"required":["prompt"]}),
                &[Effect::User],
            ),
            cap(
                "ccos.echo",
                "Print a message",
                json!({"type":"object","properties":{"message":{}},"required":["message"]}),
                &[Effect::Pure],
            ),
            cap("twin.a", "identical twin tool", json!({}), &[Effect::Pure]),
            cap("twin.b", "identical twin tool", json!({}), &[Effect::Pure]),
        ])
        .unwrap();
        Arc::new(mp)
    }

    fn ids(c: &[Candidate]) -> Vec<&str> {
        c.iter().map(|c| c.capability_id.as_str()).collect()
    }

    #[test]
    fn ranks_by_text_and_params() {
        let r = CatalogResolution::new(catalog());
        let i = SubIntent::new("s1", "list issues", IntentType::Fetch)
            .with_param("owner", "mandubian".into())
            .with_param("repo", "ccos".into())
            .with_param("per_page", 10.into());
        let c = r.resolve(&i, 5).unwrap();
        assert_eq!(ids(&c), ["gh.list_issues", "gh.create_issue"]);
        assert!(
            c[0].reasons
                .iter()
                .any(|r| r == "params overlap: owner, perPage, repo"),
            "{:?}",
            c[0].reasons
        );
        assert!(c[0].reasons.iter().any(|r| r.starts_with("bm25 ")));
        assert!(c[0].score > c[1].score);
    }

    #[test]
    fn effect_fit_and_adapter() {
        let r = CatalogResolution::new(catalog());
        let i = SubIntent::new("s1", "ask me for the page size", IntentType::AskUser);
        let c = r.resolve(&i, 3).unwrap();
        assert_eq!(c[0].capability_id, "ccos.user.ask");
        assert!(
            c[0].reasons
                .iter()
                .any(|r| r == "adapter: use the description as :prompt"),
            "{:?}",
            c[0].reasons
        );
        assert!(
            c[0].reasons
                .iter()
                .any(|r| r.starts_with("effects fit askuser"))
        );
        // Create needs a title the intent lacks: reported, not rejected.
        let i = SubIntent::new("s1", "create an issue", IntentType::Write);
        let c = r.resolve(&i, 1).unwrap();
        assert_eq!(c[0].capability_id, "gh.create_issue");
        assert!(
            c[0].reasons
                .iter()
                .any(|r| r == "missing required: owner, repo, title"),
            "{:?}",
            c[0].reasons
        );
    }

    #[test]
    fn ties_are_broken_by_id_and_no_fit_is_empty() {
        let r = CatalogResolution::new(catalog());
        let i = SubIntent::new("s1", "identical twin", IntentType::Other("x".into()));
        let c = r.resolve(&i, 5).unwrap();
        assert_eq!(ids(&c), ["twin.a", "twin.b"]);
        assert_eq!(c[0].score, c[1].score);
        let i = SubIntent::new("s1", "bake chocolate cake", IntentType::Other("x".into()));
        let c = r.resolve(&i, 5).unwrap();
        assert!(c.is_empty());
        assert!(matches!(
            Resolution::decide(c, 0.0),
            Resolution::NoFit { .. }
        ));
        assert!(r.resolve(&i, 0).unwrap().is_empty());
    }

    #[test]
    fn clauses_split_multi_part_requests() {
        let c = clauses("Book a flight to Paris, then send an email to Bob.");
        let c: Vec<Vec<&str>> = c
            .iter()
            .map(|t| t.iter().map(String::as_str).collect())
            .collect();
        assert_eq!(
            c,
            vec![vec!["book", "flight", "pari"], vec!["bob", "email", "send"]]
        );
        assert!(clauses("list the issues").is_empty());
        assert_eq!(
            content_text("Can you list THE openIssues for me"),
            "list open issues"
        );
    }

    #[test]
    fn each_part_of_a_request_gets_its_tool() {
        let mp = Marketplace::new().unwrap();
        mp.replace_all(vec![
            cap(
                "flight_book",
                "Book a flight ticket for a passenger",
                json!({}),
                &[],
            ),
            cap(
                "flight_search",
                "Search flights between two cities",
                json!({}),
                &[],
            ),
            cap("hotel_book", "Book a hotel room in a city", json!({}), &[]),
            cap("email_send", "Send an email message", json!({}), &[]),
        ])
        .unwrap();
        let r = CatalogResolution::new(Arc::new(mp));
        let i = SubIntent::new(
            "s1",
            "Book a flight ticket to Paris and then send an email to Bob",
            IntentType::Other("x".into()),
        );
        let c = r.resolve(&i, 4).unwrap();
        assert_eq!(
            ids(&c),
            ["email_send", "flight_book", "flight_search", "hotel_book"]
        );
        assert!(
            c[0].reasons
                .iter()
                .any(|r| r.starts_with("best for clause 2 of 2")),
            "{:?}",
            c[0].reasons
        );
    }

    #[test]
    fn min_coverage_rejects_weak_matches() {
        let r = CatalogResolution::new(catalog()).with_min_coverage(0.9);
        // "twin" matches, "zebra" matches nothing: coverage < 0.9.
        let i = SubIntent::new("s1", "twin zebra", IntentType::Other("x".into()));
        assert!(r.resolve(&i, 5).unwrap().is_empty());
        let r = CatalogResolution::new(catalog());
        assert_eq!(r.resolve(&i, 5).unwrap().len(), 2);
    }

    #[test]
    fn a_word_naming_a_choice_counts_for_the_bar() {
        let mp = Marketplace::new().unwrap();
        mp.replace_all(vec![
            cap(
                "gh.issues",
                "List the issues of a repository",
                json!({"type":"object","properties":{"repo":{},"state":{"type":"string","enum":["open","closed","all"]}},"required":["repo"]}),
                &[Effect::Network],
            ),
            // The same without the choice: "closed" counts against it.
            cap(
                "gl.issues",
                "List the issues of a repository",
                json!({"type":"object","properties":{"repo":{},"state":{"type":"string"}},"required":["repo"]}),
                &[Effect::Network],
            ),
            // Makes "closed" a word of the catalog (a word none has weighs
            // nothing).
            cap(
                "gh.doors",
                "Whether the doors are closed",
                json!({"type":"object","properties":{},"required":[]}),
                &[Effect::Pure],
            ),
        ])
        .unwrap();
        let r = CatalogResolution::new(Arc::new(mp)).with_min_coverage(0.5);
        // "closed" is no word of the description, only a `state` value.
        let mut i = SubIntent::new("s1", "show me the closed issues", IntentType::Fetch);
        i.from_text = true;
        assert_eq!(ids(&r.resolve(&i, 5).unwrap()), ["gh.issues"]);
    }
}
