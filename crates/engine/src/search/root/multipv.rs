//! Several best lines (multi-PV): each iteration searches the root once per line,
//! every time without the root moves of the lines already found, with a full window
//! (so each line's score is exact), and reports the lines best first
//! ([`Info::lines`]). The next iteration tries the lines' moves first. One thread
//! searches; the table carries what the earlier lines learnt to the later ones.

use crate::eval::Evaluator;
use crate::score::Score;
use crate::tt::TableAccess;
use damas_rules::moves::Move;
use damas_rules::position::Position;
use damas_rules::variant::Rules;

use crate::search::engine::Engine;
use crate::search::limits::{Limits, MAX_DEPTH};
use crate::search::report::{Info, PvLine, SearchResult};

impl<E: Evaluator + ?Sized, T: TableAccess, R: Rules> Engine<'_, E, T, R> {
    /// Iterative deepening over `moves` (at least two), finding the best
    /// `self.opts.lines` of them each iteration; `result` holds the statistics so far.
    pub(crate) fn run_lines(
        &mut self,
        pos: &Position,
        limits: &Limits,
        mut moves: Vec<Move>,
        mut result: SearchResult,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let wanted = self.opts.lines.min(moves.len());
        let full = (-Score::INFINITE, Score::INFINITE);
        result.best = Some(moves[0]);
        result.score = self.eval.eval(pos);
        result.pv = vec![moves[0]];
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        for d in 1..=max_depth {
            self.budget.iteration = d;
            let mut rest = moves.clone();
            let mut found: Vec<PvLine> = Vec::with_capacity(wanted);
            while found.len() < wanted {
                let mut values = vec![-Score::INFINITE; rest.len()];
                let (best, complete) = self.root_iteration(pos, d, &mut rest, &mut values, full);
                let Some(best) = best.filter(|_| complete) else {
                    break;
                };
                rest.retain(|&m| m != best.mv);
                let pv = self.tt_line(pos, best.pv, d as usize);
                found.push(PvLine {
                    score: best.score,
                    pv,
                });
            }
            if found.len() < wanted {
                // Stopped inside the iteration: the last complete one stands.
                break;
            }
            moves = found.iter().map(|l| l.pv[0]).chain(rest).collect();
            result.best = Some(found[0].pv[0]);
            result.score = found[0].score;
            result.pv = found[0].pv.clone();
            result.depth = d;
            let mut info = self.info(d, result.score, &result.pv);
            info.lines = found;
            on_info(&info);
            // Every line proven: deeper iterations cannot change them.
            let known = info.lines.iter().all(|l| l.score.plies().is_some());
            if limits.depth.is_none() && known {
                break;
            }
        }
        result.stats = self.info(result.depth, result.score, &[]).stats;
        result
    }
}

#[cfg(test)]
mod tests {
    use damas_rules::variant::Variant;
    use std::sync::atomic::AtomicBool;

    use crate::eval::Evaluation;
    use crate::search::{Limits, SearchOptions, Searcher};
    use damas_rules::movegen::legal_moves;
    use damas_rules::position::Position;

    fn options() -> SearchOptions {
        SearchOptions::default()
            .with_eval(Evaluation::Material)
            .with_hash_mb(4)
    }

    #[test]
    fn three_lines_are_distinct_sorted_and_the_first_is_the_single_search() {
        let pos = Position::start();
        let stop = AtomicBool::new(false);
        let mut last = None;
        let r3 = Searcher::new(options().with_lines(3)).search(
            &pos,
            &[],
            &Limits::depth(6),
            &stop,
            &mut |i| last = Some(i.clone()),
        );
        let info = last.expect("iterations reported");
        assert_eq!(info.depth, 6);
        assert_eq!(info.lines.len(), 3);
        let firsts: Vec<_> = info.lines.iter().map(|l| l.pv[0]).collect();
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
        assert!(info.lines.windows(2).all(|w| w[0].score >= w[1].score));
        let legal = legal_moves(Variant::Brazilian, &pos);
        assert!(firsts.iter().all(|m| legal.contains(m)));
        assert_eq!(r3.best, Some(firsts[0]));
        // The best line's score is the ordinary search's value at that depth.
        let r1 = Searcher::new(options()).search(&pos, &[], &Limits::depth(6), &stop, &mut |i| {
            assert!(i.lines.is_empty(), "one line reports no lines")
        });
        assert_eq!(r1.score, r3.score);
    }

    #[test]
    fn more_lines_than_moves_gives_every_move() {
        // White has two moves here.
        let pos = damas_rules::fen::parse_fen("W:Wc3:Bh8").unwrap();
        let n = legal_moves(Variant::Brazilian, &pos).len();
        let stop = AtomicBool::new(false);
        let mut last = None;
        Searcher::new(options().with_lines(5)).search(
            &pos,
            &[],
            &Limits::depth(4),
            &stop,
            &mut |i| last = Some(i.clone()),
        );
        assert_eq!(last.unwrap().lines.len(), n.min(5));
    }
}
