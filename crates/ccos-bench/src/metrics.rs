//! Ranking metrics, as `../shared/bench/README.md` defines them.
//!
//! Gold sets are sets of tool ids (duplicates ignored); relevance is binary.
//! - hit@1: the first-ranked tool is gold;
//! - recall@5: share of the gold tools found in the top 5;
//! - nDCG@5: DCG over the top 5 (`Σ rel_i / log2(i + 2)`, `i` from 0)
//!   divided by the ideal DCG of `min(|gold|, 5)` gold tools at the top;
//! - COMP@5: every gold tool is in the top 5 (reported over queries with
//!   two or more gold tools).

use std::collections::BTreeSet;

use serde::Serialize;

/// The figures of one query.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct QueryScores {
    /// 1.0 when the top tool is gold.
    pub hit1: f64,
    /// Gold share in the top 5.
    pub recall5: f64,
    /// nDCG over the top 5.
    pub ndcg5: f64,
    /// 1.0 when all gold tools are in the top 5.
    pub comp5: f64,
}

/// Scores one ranking (best first) against a gold set. An empty gold set
/// scores 0 everywhere.
pub fn score_query(ranking: &[String], gold: &BTreeSet<String>) -> QueryScores {
    if gold.is_empty() {
        return QueryScores::default();
    }
    let top: Vec<&String> = top_unique(ranking, 5);
    let hit1 = f64::from(u8::from(top.first().is_some_and(|t| gold.contains(*t))));
    let found = top.iter().filter(|t| gold.contains(**t)).count();
    let recall5 = found as f64 / gold.len() as f64;
    let dcg: f64 = top
        .iter()
        .enumerate()
        .filter(|(_, t)| gold.contains(**t))
        .map(|(i, _)| 1.0 / ((i + 2) as f64).log2())
        .sum();
    let idcg: f64 = (0..gold.len().min(5))
        .map(|i| 1.0 / ((i + 2) as f64).log2())
        .sum();
    QueryScores {
        hit1,
        recall5,
        ndcg5: dcg / idcg,
        comp5: f64::from(u8::from(found == gold.len())),
    }
}

/// The first `n` distinct entries of a ranking.
fn top_unique(ranking: &[String], n: usize) -> Vec<&String> {
    let mut seen = BTreeSet::new();
    ranking
        .iter()
        .filter(|r| seen.insert(r.as_str()))
        .take(n)
        .collect()
}

/// Averaged figures of a split, in percent.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Summary {
    /// Number of queries scored.
    pub queries: usize,
    /// hit@1, percent.
    pub hit1: f64,
    /// recall@5, percent.
    pub recall5: f64,
    /// nDCG@5, percent.
    pub ndcg5: f64,
    /// COMP@5 over multi-tool queries, percent; `None` without any.
    pub comp5: Option<f64>,
    /// Number of multi-tool queries (the COMP@5 denominator).
    pub multi_queries: usize,
}

/// Accumulates per-query scores into a [`Summary`].
#[derive(Debug, Default, Clone)]
pub struct Accumulator {
    n: usize,
    hit1: f64,
    recall5: f64,
    ndcg5: f64,
    multi: usize,
    comp5: f64,
}

impl Accumulator {
    /// Adds one query's scores; `gold_len` decides whether it counts for
    /// COMP@5.
    pub fn add(&mut self, s: QueryScores, gold_len: usize) {
        self.n += 1;
        self.hit1 += s.hit1;
        self.recall5 += s.recall5;
        self.ndcg5 += s.ndcg5;
        if gold_len >= 2 {
            self.multi += 1;
            self.comp5 += s.comp5;
        }
    }

    /// The averages, in percent (0 when nothing was added).
    pub fn summary(&self) -> Summary {
        let pct = |x: f64, n: usize| if n == 0 { 0.0 } else { 100.0 * x / n as f64 };
        Summary {
            queries: self.n,
            hit1: pct(self.hit1, self.n),
            recall5: pct(self.recall5, self.n),
            ndcg5: pct(self.ndcg5, self.n),
            comp5: (self.multi > 0).then(|| pct(self.comp5, self.multi)),
            multi_queries: self.multi,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(ids: &[&str]) -> Vec<String> {
        ids.iter().map(|s| s.to_string()).collect()
    }
    fn g(ids: &[&str]) -> BTreeSet<String> {
        ids.iter().map(|s| s.to_string()).collect()
    }
    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn single_gold_at_rank_two() {
        let s = score_query(&r(&["x", "a", "y"]), &g(&["a"]));
        assert_eq!(s.hit1, 0.0);
        assert_eq!(s.recall5, 1.0);
        // DCG = 1/log2(3); IDCG = 1.
        assert!(close(s.ndcg5, 1.0 / 3f64.log2()));
        assert_eq!(s.comp5, 1.0);
    }

    #[test]
    fn two_gold_one_found_and_one_beyond_five() {
        let s = score_query(&r(&["a", "x", "y", "z", "w", "b"]), &g(&["a", "b"]));
        assert_eq!(s.hit1, 1.0);
        assert_eq!(s.recall5, 0.5);
        // DCG = 1; IDCG = 1 + 1/log2(3).
        assert!(close(s.ndcg5, 1.0 / (1.0 + 1.0 / 3f64.log2())));
        assert_eq!(s.comp5, 0.0);
    }

    #[test]
    fn perfect_and_empty_rankings() {
        let s = score_query(&r(&["b", "a"]), &g(&["a", "b"]));
        assert_eq!(
            s,
            QueryScores {
                hit1: 1.0,
                recall5: 1.0,
                ndcg5: 1.0,
                comp5: 1.0
            }
        );
        let s = score_query(&[], &g(&["a"]));
        assert_eq!(s, QueryScores::default());
        // Duplicates in a ranking count once.
        let s = score_query(&r(&["a", "a", "a", "a", "a", "b"]), &g(&["a", "b"]));
        assert_eq!(s.comp5, 1.0);
    }

    #[test]
    fn accumulator_averages_in_percent() {
        let mut acc = Accumulator::default();
        acc.add(score_query(&r(&["a"]), &g(&["a"])), 1);
        acc.add(score_query(&r(&["x", "a"]), &g(&["a", "b"])), 2);
        let s = acc.summary();
        assert_eq!(s.queries, 2);
        assert!(close(s.hit1, 50.0));
        assert!(close(s.recall5, 75.0));
        assert_eq!(s.comp5, Some(0.0));
        assert_eq!(s.multi_queries, 1);
        assert_eq!(Accumulator::default().summary().comp5, None);
    }
}
