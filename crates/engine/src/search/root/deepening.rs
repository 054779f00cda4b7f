//! The root: iterative deepening with the thesis' aspiration procedure (listing 6.3),
//! or MTD(f); progress reports. Time stops an iteration anywhere (its best child so
//! far counts); the caller's clock stops between iterations (`crate::time::Clock`).
//!
//! Listing 6.3: the first child is searched with the window, later ones (with `pvs`)
//! with a null window and re-searched when they land inside it. A child failing high
//! lifts only β (to +∞) and only that child is searched again; a first child failing
//! low drops only α. Earlier children are never searched again. Between children the
//! search may stop for time and return the best child so far; after an iteration the
//! children are stably sorted by their scores and the next window is that of the best
//! one ± δ.

use crate::eval::Evaluator;
use crate::score::Score;
use crate::tt::TableAccess;
use damas_rules::drawrules;
use damas_rules::movegen::generate_with;
use damas_rules::moves::{Move, MoveList};
use damas_rules::position::Position;
use damas_rules::variant::Rules;

use crate::search::egdb::cutoff::outlasts_count;
use crate::search::engine::Engine;
use crate::search::limits::{Limits, MAX_DEPTH};
use crate::search::options::WinPolicy;
use crate::search::report::{Info, SearchResult};
use damas_egdb::oracle::{Oracle, OracleAnswer, OracleValue};

/// Nodes the conversion search may spend at most at the root of a won database
/// position.
const CONVERSION_NODES: u64 = 200_000;

/// What the oracle does at the root.
enum OracleRoot {
    /// It chose the move.
    Answered(SearchResult),
    /// A won position it has no move for and no conversion was found: search,
    /// saying the conversion is not proven.
    Unproven,
    /// Search as usual.
    Search,
}

/// Best root move of an iteration (or of its completed part).
pub(crate) struct Best {
    pub mv: Move,
    pub score: Score,
    pub pv: Vec<Move>,
}

impl<E: Evaluator + ?Sized, T: TableAccess, R: Rules> Engine<'_, E, T, R> {
    /// One iteration of listing 6.3 over `moves` (sorted at the end when complete).
    /// Returns the best child found and whether every child was searched.
    pub(crate) fn root_iteration(
        &mut self,
        pos: &Position,
        depth: u32,
        moves: &mut [Move],
        values: &mut [Score],
        window: (Score, Score),
    ) -> (Option<Best>, bool) {
        let inf = Score::INFINITE;
        let (mut alpha, mut beta) = window;
        let pvs = self.t.pvs;
        let d = depth - 1;
        self.stats.nodes += 1;
        self.stats.interior += 1;
        self.path.push(*pos);
        let mut best = None;
        let mut complete = true;
        let n = moves.len();
        for i in 0..n {
            let child = pos.play(moves[i]);
            let mut v;
            if i == 0 || !pvs {
                v = -self.node(&child, d, 1, -beta, -alpha);
                if i == 0 && alpha > -inf && v <= alpha && !self.budget.aborted {
                    alpha = -inf;
                    v = -self.node(&child, d, 1, -beta, inf);
                }
            } else {
                v = -self.node(&child, d, 1, Score(-alpha.0 - 1), -alpha);
                if v > alpha && v < beta && !self.budget.aborted {
                    v = -self.node(&child, d, 1, -beta, -alpha);
                }
            }
            if v >= beta && beta < inf && !self.budget.aborted {
                beta = inf;
                v = -self.node(&child, d, 1, -inf, -alpha);
            }
            if self.budget.aborted {
                complete = false;
                break;
            }
            values[i] = v;
            if v > alpha {
                alpha = v;
                let mut pv = vec![moves[i]];
                pv.extend_from_slice(self.pv.line(1));
                best = Some(Best {
                    mv: moves[i],
                    score: v,
                    pv,
                });
            }
            if i + 1 != n && self.budget.poll() {
                complete = false;
                break;
            }
        }
        self.path.pop();
        if complete {
            let mut pairs: Vec<(Move, Score)> =
                moves.iter().copied().zip(values.iter().copied()).collect();
            pairs.sort_by_key(|p| std::cmp::Reverse(p.1));
            for (i, (m, v)) in pairs.into_iter().enumerate() {
                moves[i] = m;
                values[i] = v;
            }
        }
        (best, complete)
    }

    /// Extend `line` (from `pos`) with best moves stored in the table, up to `len`
    /// moves, stopping at a repetition. Table counters are left untouched.
    pub(crate) fn tt_line(&mut self, pos: &Position, mut line: Vec<Move>, len: usize) -> Vec<Move> {
        if !self.t.tt {
            return line;
        }
        let counters = self.tt.counters();
        let mut p = *pos;
        let mut seen = vec![p];
        for &m in &line {
            p = p.play(m);
            seen.push(p);
        }
        while line.len() < len {
            let Some(e) = self.tt.find(p.key()) else {
                break;
            };
            let Some(code) = e.best else { break };
            let mut list = MoveList::new();
            generate_with::<R>(&p, &mut list);
            // Selective deepening stores indices into the selected list.
            if let Some(percent) = self.t.sel {
                if !list.is_empty() && !list[0].is_capture() {
                    crate::search::order::select(&p, &mut list, percent);
                }
            }
            let Some(m) = T::best_index(code, &list).map(|i| list[i]) else {
                break;
            };
            line.push(m);
            p = p.play(m);
            if seen.contains(&p) {
                break;
            }
            seen.push(p);
        }
        self.tt.set_counters(counters);
        line
    }

    pub(crate) fn info(&mut self, depth: u32, score: Score, pv: &[Move]) -> Info {
        let mut stats = self.stats;
        (stats.tt_accesses, stats.tt_compares) = self.tt.counters();
        if self.t.tt {
            stats.tt_permille = self.tt.fill_permille();
        }
        stats.time = self.budget.start.elapsed();
        Info {
            depth,
            score,
            stats,
            pv: pv.to_vec(),
            lines: Vec::new(),
            conversion_unproven: false,
        }
    }

    /// Search `pos` (whose history is already on the path) within `limits`.
    pub(crate) fn run(
        &mut self,
        pos: &Position,
        limits: &Limits,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let t = self.t;
        let mut list = MoveList::new();
        generate_with::<R>(pos, &mut list);
        let mut result = SearchResult {
            best: None,
            score: Score::loss_in(0),
            depth: 0,
            pv: Vec::new(),
            stats: self.stats,
            conversion_unproven: false,
        };
        if list.is_empty() {
            self.stats.nodes += 1;
            self.stats.terminal += 1;
            result.stats = self.info(0, result.score, &[]).stats;
            return result;
        }
        if t.egdb {
            match self.oracle_root(pos, &list, limits, on_info) {
                OracleRoot::Answered(r) => return r,
                OracleRoot::Unproven => {
                    let mut told = |i: &Info| {
                        on_info(&Info {
                            conversion_unproven: true,
                            ..i.clone()
                        })
                    };
                    let mut r = self.run_moves(pos, limits, &list, result, &mut told);
                    r.conversion_unproven = true;
                    return r;
                }
                OracleRoot::Search => {}
            }
        }
        self.run_moves(pos, limits, &list, result, on_info)
    }

    /// Search the legal moves `list` of `pos` (not answered by the oracle), from
    /// `result` (the result of a search that found nothing yet).
    fn run_moves(
        &mut self,
        pos: &Position,
        limits: &Limits,
        list: &MoveList,
        mut result: SearchResult,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let t = self.t;
        let mut moves: Vec<Move> = list.to_vec();
        if self.opts.lines > 1 && moves.len() > 1 {
            return self.run_lines(pos, limits, moves, result, on_info);
        }
        let mut values = vec![-Score::INFINITE; moves.len()];
        result.best = Some(moves[0]);
        result.score = self.eval.eval(pos);
        result.pv = vec![moves[0]];
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let iterate = t.id || t.asp || limits.depth.is_none();
        let first = if iterate { 1 } else { max_depth };
        let delta = self.opts.aspiration_delta().max(1);
        // The depth after the last one searched, and whether an iteration has
        // completed (whose values centre the aspiration window).
        let (mut next, mut searched) = (first, false);
        while next <= max_depth {
            let d = match self.smp {
                Some(role) => {
                    let d = role.start_iteration(next, max_depth);
                    if let Some((mv, score)) = role.adopt(result.depth) {
                        if let Some(i) = moves.iter().position(|&m| m == mv) {
                            moves[..=i].rotate_right(1);
                            values[..=i].rotate_right(1);
                            values[0] = score;
                        }
                    }
                    self.budget.iteration = d;
                    d
                }
                None => {
                    self.budget.iteration = next;
                    next
                }
            };
            let (best, complete) = if t.mtdf {
                let guess = result.score;
                match self.mtdf(pos, d, guess) {
                    Some((score, mv)) => {
                        let pv = self.tt_line(pos, vec![mv], d as usize);
                        (Some(Best { mv, score, pv }), true)
                    }
                    None => (None, false),
                }
            } else {
                let window = if t.asp && searched {
                    let v = values[0].0;
                    (
                        Score((v - delta).max(-Score::INFINITE.0)),
                        Score((v + delta).min(Score::INFINITE.0)),
                    )
                } else {
                    (-Score::INFINITE, Score::INFINITE)
                };
                self.root_iteration(pos, d, &mut moves, &mut values, window)
            };
            if self.budget.superseded {
                // Another thread completed this depth: its partial result is moot.
                self.budget.resume();
                // In grace, the deeper iteration this thread was helping is done.
                if self.budget.in_grace() || self.smp.is_some_and(|r| r.finished(max_depth)) {
                    break;
                }
                next = d + 1;
                continue;
            }
            if let Some(b) = best {
                result.best = Some(b.mv);
                result.score = b.score;
                result.pv = self.tt_line(pos, b.pv, d as usize);
            }
            if !complete {
                break;
            }
            searched = true;
            result.depth = d;
            let info = self.info(d, result.score, &result.pv);
            let stopped_before = self.budget.stop_requested();
            on_info(&info);
            if let Some(role) = self.smp {
                role.completed(&result, &info, max_depth);
            }
            if self.budget.in_grace() {
                break;
            }
            // A win scored from a win/draw/loss-only database is an estimate: search on.
            // A single legal move is searched on too: its score is that of the line
            // after it, which a caller asking for a score wants (players wanting only
            // the move play it without a search, see `think`).
            let known = result.score.plies().is_some();
            if limits.depth.is_none() && known {
                break;
            }
            // A stop asked from `on_info` is the caller's soft deadline (no further
            // iteration). With a helper already deeper, this thread helps it finish
            // until that deadline instead of throwing its head start away.
            let soft_stop = !stopped_before && self.budget.stop_requested();
            if soft_stop && self.budget.can_grace() && self.smp.is_some_and(|r| r.helper_beyond(d))
            {
                self.budget.begin_grace();
                self.stats.grace += 1;
                next = d + 1;
                continue;
            }
            next = d + 1;
        }
        result.stats = self.info(result.depth, result.score, &[]).stats;
        result
    }

    /// At the root of a position the oracle knows, play its best move at once.
    fn oracle_root(
        &mut self,
        pos: &Position,
        list: &MoveList,
        limits: &Limits,
        on_info: &mut dyn FnMut(&Info),
    ) -> OracleRoot {
        let Some(oracle) = self.opts.oracle.clone() else {
            return OracleRoot::Search;
        };
        if !oracle.covers(pos) {
            return OracleRoot::Search;
        }
        // Node- or depth-limited searches wait for the work, so that they stay
        // reproducible; timed and endless ones never do.
        let wait = limits.time.is_none()
            && limits.soft.is_none()
            && (limits.nodes.is_some() || limits.depth.is_some());
        // Playing the ending on the evaluation, the search chooses (and needs no
        // distances solved), except where a counting rule covers the material and
        // the conversion must beat the count.
        if self.opts.egdb_wins == WinPolicy::Play
            && !drawrules::counted_material(pos)
            && oracle
                .probe_value(pos)
                .is_some_and(|a| a.value != OracleValue::Draw)
        {
            return OracleRoot::Search;
        }
        oracle.clone().prepare_root(pos, wait);
        let Some(answer) = oracle.probe(pos) else {
            return OracleRoot::Search;
        };
        // A win whose distance is to the next conversion, or unknown: play a move
        // that forces the conversion within the counting rules, when one is found;
        // otherwise play on as the database says and tell the caller so.
        let mut unproven = false;
        if answer.value == OracleValue::Win && (answer.to_conversion || answer.plies.is_none()) {
            // At most half the move's nodes or time: the search may still need the rest.
            let nodes = limits
                .nodes
                .map_or(CONVERSION_NODES, |n| (n / 2).min(CONVERSION_NODES));
            let deadline = limits.time.map(|t| self.budget.start + t / 2);
            if let Some(c) = crate::search::egdb::conversion::find::<R>(
                &*oracle, pos, &self.path, nodes, deadline,
            ) {
                let plies = answer.plies.map_or(Score::UNKNOWN_DISTANCE, |_| c.plies);
                let score = Score::win_in(plies);
                return OracleRoot::Answered(self.oracle_move(c.mv, score, false, on_info));
            }
            unproven = true;
        }
        let Some(best) = answer.best.filter(|m| list.contains(m)) else {
            return if unproven {
                OracleRoot::Unproven
            } else {
                OracleRoot::Search
            };
        };
        // A counting rule that draws before the database's line converts (at the root
        // or after its move) is left to the search, which scores such positions as
        // draws and finds the lines that convert in time.
        if self.t.rules && self.drawn_by_count(&*oracle, pos, &answer, best) {
            return OracleRoot::Search;
        }
        let kings_only = drawrules::trail(pos, self.path.iter().rev()).reversible_plies;
        let best = crate::search::egdb::root::man_move_before_the_count(
            &*oracle, pos, list, &answer, kings_only,
        )
        .unwrap_or(best);
        let plies = answer
            .plies
            .unwrap_or(crate::search::egdb::progress::UNKNOWN_DISTANCE)
            .min(Score::MAX_MATE_PLY as u32 - 1);
        let score = match answer.value {
            OracleValue::Win => Score::win_in(plies),
            OracleValue::Loss => Score::loss_in(plies),
            OracleValue::Draw => Score::DRAW,
        };
        OracleRoot::Answered(self.oracle_move(best, score, unproven, on_info))
    }

    /// Whether a material counting rule draws the game before the conversion the
    /// database counts, at the root `pos` (its `answer`) or after its move `best`:
    /// the distance is longer than the plies the rule leaves.
    fn drawn_by_count(
        &mut self,
        oracle: &dyn Oracle,
        pos: &Position,
        answer: &OracleAnswer,
        best: Move,
    ) -> bool {
        if answer.value == OracleValue::Draw {
            return false;
        }
        let left = drawrules::material_plies_left(pos, self.path.iter().rev());
        if outlasts_count(answer.plies, left) {
            return true;
        }
        let child = pos.play(best);
        self.path.push(*pos);
        let left = drawrules::material_plies_left(&child, self.path.iter().rev());
        self.path.pop();
        left.is_some() && outlasts_count(oracle.probe(&child).and_then(|a| a.plies), left)
    }

    /// The result of playing `best`, chosen from the oracle, at once;
    /// `conversion_unproven` when it is a win no conversion was found for.
    fn oracle_move(
        &mut self,
        best: Move,
        score: Score,
        conversion_unproven: bool,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        self.stats.nodes += 1;
        self.stats.egdb_cutoffs += 1;
        let info = Info {
            conversion_unproven,
            ..self.info(0, score, &[best])
        };
        on_info(&info);
        SearchResult {
            best: Some(best),
            score,
            depth: 0,
            pv: vec![best],
            stats: info.stats,
            conversion_unproven,
        }
    }
}
