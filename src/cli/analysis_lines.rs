//! The lines `damas analyze` prints: an `info` row per completed iteration (and a
//! `line` row per best move asked for), then, when the search's move or score is not
//! that of the last row (an iteration the limit stopped after it had found a better
//! move or a new score, or none completed), an `info` row of that unfinished
//! iteration; then the verdict of a proven result in words, and `bestmove`. Scores
//! claim a count of plies only where it is proven ([`damas_engine::verdict`]).

use std::sync::Arc;

use crate::cli::analyze::line_to_string;
use damas_egdb::oracle::Oracle;
use damas_engine::score::Score;
use damas_engine::search::{Info, SearchResult, Stats};
use damas_engine::verdict::{verdict, Verdict};
use damas_rules::moves::Move;
use damas_rules::notation::{move_to_string, Notation};
use damas_rules::position::Position;
use damas_rules::variant::Variant;

/// What the last `info` row said.
#[derive(Clone, Copy)]
struct Reported {
    depth: u32,
    score: Score,
    best: Option<Move>,
}

/// The rows of one analysis, written as the search reports.
pub struct AnalysisLines {
    variant: Variant,
    pos: Position,
    oracle: Option<Arc<dyn Oracle>>,
    last: Option<Reported>,
}

impl AnalysisLines {
    /// Rows for a search of `pos` under `variant`, consulting `oracle` (the database
    /// the search consults, if any).
    pub fn new(variant: Variant, pos: Position, oracle: Option<Arc<dyn Oracle>>) -> Self {
        AnalysisLines {
            variant,
            pos,
            oracle,
            last: None,
        }
    }

    fn verdict(&self, score: Score, pv: &[Move]) -> Verdict {
        verdict(self.variant, self.oracle.as_deref(), &self.pos, score, pv)
    }

    fn info_row(&self, depth: &str, score: Score, stats: &Stats, pv: &[Move]) -> String {
        format!(
            "info depth {depth} score {} nodes {} time {:.3} nps {} hashfull {} pv {}",
            self.verdict(score, pv),
            stats.nodes,
            stats.time.as_secs_f64(),
            stats.nps(),
            stats.tt_permille,
            line_to_string(self.variant, &self.pos, pv)
        )
    }

    /// The rows of a completed iteration.
    pub fn info(&mut self, i: &Info) -> Vec<String> {
        let mut rows = vec![self.info_row(&i.depth.to_string(), i.score, &i.stats, &i.pv)];
        for (k, l) in i.lines.iter().enumerate() {
            rows.push(format!(
                "line {} score {} pv {}",
                k + 1,
                self.verdict(l.score, &l.pv),
                line_to_string(self.variant, &self.pos, &l.pv)
            ));
        }
        self.last = Some(Reported {
            depth: i.depth,
            score: i.score,
            best: i.pv.first().copied(),
        });
        rows
    }

    /// The rows after the search: its unfinished iteration when that chose the
    /// move or its score, the verdict of a proven result, and `bestmove`.
    pub fn finish(&mut self, r: &SearchResult) -> Vec<String> {
        let mut rows = Vec::new();
        let told = self
            .last
            .is_some_and(|l| l.score == r.score && l.best == r.best);
        if !told && r.best.is_some() {
            // A deeper completed iteration (of another thread) is an ordinary row;
            // otherwise the one after the last completed stopped part way.
            let depth = match self.last {
                Some(l) if r.depth > l.depth => r.depth.to_string(),
                _ => format!("{} unfinished", r.depth + 1),
            };
            rows.push(self.info_row(&depth, r.score, &r.stats, &r.pv));
            self.last = Some(Reported {
                depth: r.depth,
                score: r.score,
                best: r.best,
            });
        }
        let v = self.verdict(r.score, &r.pv);
        if v.proof.is_some() {
            rows.push(format!("verdict {}", v.words(self.pos.side_to_move())));
        }
        rows.push(match r.best {
            Some(m) => format!(
                "bestmove {} score {v} nodes {}",
                move_to_string(self.variant, &self.pos, m, Notation::Algebraic),
                r.stats.nodes
            ),
            None => format!("bestmove none score {v} nodes {}", r.stats.nodes),
        });
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas_engine::search::{Limits, SearchOptions, Searcher};
    use std::sync::atomic::AtomicBool;

    /// The score word of a row (`score 12 nodes` → `12`, `score win 7` → `win 7`).
    fn score_of(row: &str) -> String {
        let rest = &row[row.find(" score ").expect("a score") + 7..];
        rest[..rest.find(" nodes ").expect("nodes after the score")].to_string()
    }

    #[test]
    fn bestmove_says_the_score_of_a_row_before_it() {
        let pos = Position::start();
        // Node limits that stop inside an iteration.
        for nodes in [1, 3_000, 7_777, 55_555] {
            let mut searcher = Searcher::new(SearchOptions::default().with_hash_mb(4));
            let mut lines = AnalysisLines::new(Variant::Brazilian, pos, None);
            let mut rows = Vec::new();
            let r = searcher.search(
                &pos,
                &[],
                &Limits::nodes(nodes),
                &AtomicBool::new(false),
                &mut |i| rows.extend(lines.info(i)),
            );
            rows.extend(lines.finish(&r));
            let best = rows.last().unwrap();
            assert!(best.starts_with("bestmove "), "{rows:?}");
            let info = rows.iter().rev().find(|l| l.starts_with("info ")).unwrap();
            assert_eq!(score_of(best), score_of(info), "{rows:?}");
            let m = best.split(' ').nth(1).unwrap();
            assert!(info.contains(&format!(" pv {m}")), "{rows:?}");
        }
    }
}
