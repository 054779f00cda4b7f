//! The interior of the tree: fail-soft negamax α-β, optionally PVS, with the
//! transposition table, killers, history, enhanced transposition cutoffs, selective
//! deepening, endgame-database cutoffs (`oracle_cutoff.rs`) and repetition detection.

use crate::eval::Evaluator;
use crate::score::Score;
use crate::tt::{from_tt, to_tt, Bound, TableAccess};
use damas_rules::drawrules;
use damas_rules::key::Key;
use damas_rules::movegen::{generate, has_capture};
use damas_rules::moves::{Move, MoveList, MAX_MOVES};
use damas_rules::position::Position;

use super::busy;
use super::limits::Budget;
use super::order::{select, Heuristics};
use super::pv::PvTable;
use super::{SearchOptions, Stats, Techniques, MAX_PLY};

/// Enhanced transposition cutoffs are tried only this far from the horizon (near the
/// root), where a saved subtree is worth the extra probes.
const ETC_MIN_DEPTH: u32 = 6;
/// Late move reductions apply from this many plies to go …
const LMR_MIN_DEPTH: u32 = 3;
/// … and from this move (0-based) in the ordered list on.
const LMR_MIN_MOVE: usize = 3;
/// Single-reply extensions stop this many plies below the root, so a long run of
/// forced moves cannot deepen the search without bound.
const EXT_MAX_PLY: u32 = 60;
pub(crate) use super::egdb_progress::UNKNOWN_DISTANCE;

/// The state of one search: options, tables, statistics, the path from the game's
/// start to the current node.
pub(crate) struct Engine<'a, E: Evaluator + ?Sized, T: TableAccess> {
    pub t: Techniques,
    pub opts: &'a SearchOptions,
    pub eval: &'a E,
    pub tt: &'a mut T,
    pub heur: &'a mut Heuristics,
    pub pv: &'a mut PvTable,
    pub stats: Stats,
    pub budget: Budget<'a>,
    /// Game history, then the ancestors of the current node (root included).
    pub path: Vec<Position>,
    /// Best move found at ply 0 by [`Engine::node`] (for MTD(f)).
    pub root_best: Option<Move>,
    /// One move list per ply (quiescence plies included), so that no node builds
    /// and clears a fresh 2 KB list.
    pub lists: &'a mut Vec<MoveList>,
    /// This thread's place in a parallel search (which depths it searches).
    pub smp: Option<super::smp::Role<'a>>,
    /// The key of the position the next [`Engine::node`] call searches, when the
    /// parent already computed it for the prefetch (taken at the node's entry).
    pub known_key: Option<Key>,
}

impl<E: Evaluator + ?Sized, T: TableAccess> Engine<'_, E, T> {
    /// The shallowest depth to go at which nodes use the table: frontier nodes
    /// (depth 1) unless [`SearchOptions::tt_frontier`] is off (the thesis' table
    /// always).
    #[inline(always)]
    fn probe_from(&self) -> u32 {
        if T::TRACKS_PATH || self.opts.tt_frontier {
            1
        } else {
            2
        }
    }

    /// Whether `pos` already stands on the path (search or game history).
    #[inline]
    pub fn repeated(&self, pos: &Position) -> bool {
        drawrules::trail(pos, self.path.iter().rev()).repeated
    }

    /// Whether `child`, a child of `pos` (the current node, not yet on the path),
    /// repeats a position of the path.
    fn repeats_after(&mut self, pos: &Position, child: &Position) -> bool {
        self.path.push(*pos);
        let r = self.repeated(child);
        self.path.pop();
        r
    }

    /// The part of a node before its depth matters: the node count and limits, draws
    /// by repetition and the counting rules, the endgame database (which may lower
    /// `depth`), the table probe and its cutoff. `Err` holds the node's value when
    /// one of them decides it; `Ok` where to store the result and the stored move.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub(crate) fn enter(
        &mut self,
        pos: &Position,
        depth: &mut u32,
        ply: u32,
        alpha: Score,
        beta: Score,
    ) -> Result<(Option<T::Slot>, Option<u32>), Score> {
        let known_key = self.known_key.take();
        self.stats.nodes += 1;
        if self.budget.exhausted(self.stats.nodes) {
            return Err(Score::DRAW);
        }
        let t = self.t;
        let root = ply == 0;
        self.pv.reset(ply as usize);
        // Repetitions are found on the path of positions (game history and search
        // path). The thesis' table finds them by its on-path flags instead, which
        // give the same answer wherever it has a slot; where it has none, or at a
        // horizon it does not probe, the path is scanned.
        let probe = t.tt && (*depth >= self.probe_from() || self.opts.tt_leaves);
        // With `rules`, the counting draw rules too, from the same walk back.
        let check_repetition = !(root || probe && T::TRACKS_PATH);
        if !root && (check_repetition || t.rules) {
            let path = self.path.iter().rev();
            let trail = drawrules::trail(pos, path.clone());
            if check_repetition && trail.repeated
                || t.rules
                    && drawrules::count_draw_after(pos, trail.reversible_plies, path).is_some()
            {
                self.stats.terminal += 1;
                return Err(Score::DRAW);
            }
        }
        if t.egdb && !root {
            // The options outlive the engine: the oracle is borrowed from them, not
            // cloned (an atomic count shared by every thread, at every node).
            let opts = self.opts;
            if let Some(o) = opts.oracle.as_deref().filter(|o| o.covers(pos)) {
                if let Some(s) = self.oracle(o, pos, ply, depth) {
                    return Err(s);
                }
            }
        }
        let mut slot: Option<T::Slot> = None;
        let mut tt_move: Option<u32> = None;
        if probe {
            let probed = self.tt.probe(known_key.unwrap_or_else(|| pos.key()));
            if T::TRACKS_PATH && probed.is_none() && !root && self.repeated(pos) {
                self.stats.terminal += 1;
                return Err(Score::DRAW);
            }
            if let Some((s, found)) = probed {
                slot = Some(s);
                if let Some(e) = found {
                    if !root {
                        if e.on_path {
                            self.stats.terminal += 1;
                            return Err(Score::DRAW);
                        }
                        if e.depth == *depth || e.depth > *depth && !self.opts.tt_exact_draft {
                            let v = from_tt(e.value, ply);
                            let hit = match e.bound {
                                Bound::Exact => true,
                                Bound::Lower => v >= beta,
                                Bound::Upper => v <= alpha,
                                Bound::New => false,
                            };
                            if hit {
                                self.stats.tt_cutoffs += 1;
                                return Err(v);
                            }
                        }
                    }
                    tt_move = e.best;
                }
            }
        }
        Ok((slot, tt_move))
    }

    /// Fail-soft α-β value of `pos` with `depth` plies to go, `ply` plies below the
    /// root. At ply 0 (MTD(f)) the best move is left in [`Engine::root_best`].
    pub fn node(
        &mut self,
        pos: &Position,
        depth: u32,
        ply: u32,
        mut alpha: Score,
        beta: Score,
    ) -> Score {
        let mut depth = depth;
        let (slot, tt_move) = match self.enter(pos, &mut depth, ply, alpha, beta) {
            Ok(found) => found,
            Err(v) => return v,
        };
        let t = self.t;
        let root = ply == 0;
        let p = ply as usize;
        if depth == 0 || p >= MAX_PLY {
            return self.horizon(pos, slot, ply, alpha, beta);
        }

        generate(pos, &mut self.lists[p]);
        if self.lists[p].is_empty() {
            self.stats.terminal += 1;
            let v = Score::loss_in(ply);
            if let Some(s) = slot {
                self.tt.store(s, to_tt(v, ply), depth, Bound::Exact, None);
            }
            return v;
        }
        if let Some(percent) = t.sel {
            if !root && !self.lists[p][0].is_capture() {
                select(pos, &mut self.lists[p], percent);
            }
        }
        let n = self.lists[p].len();
        let tt_move = tt_move.and_then(|c| T::best_index(c, &self.lists[p]));

        if t.etc && t.tt && !root && depth >= ETC_MIN_DEPTH {
            if let Some(v) = self.etc(pos, p, depth, ply, beta) {
                self.stats.tt_cutoffs += 1;
                if let Some(s) = slot {
                    self.tt.store(s, to_tt(v, ply), depth, Bound::Lower, None);
                }
                return v;
            }
        }

        self.stats.interior += 1;
        // The children probe when their depth, one less, is still probed.
        let prefetch = t.tt && (depth > self.probe_from() || self.opts.tt_leaves);
        // The table move's child comes first (the ordering puts it there): its slot
        // is fetched while the moves are ordered, the first child's probe being the
        // one most often missed in the cache.
        let first = tt_move.filter(|_| prefetch).map(|i| {
            let child = pos.play(self.lists[p][i]);
            let k = child.key();
            self.tt.prefetch(k);
            (i, child, k)
        });
        let mut order = [0u8; MAX_MOVES];
        self.heur.order(
            &self.lists[p],
            tt_move,
            ply,
            t.killers,
            t.history,
            &mut order,
        );
        if let Some(s) = slot {
            if !root {
                self.tt.set_path(s, true);
            }
        }
        // A forced move is searched one ply deeper (`ext`).
        let child_depth = depth - 1 + u32::from(t.ext && n == 1 && !root && ply < EXT_MAX_PLY);
        self.path.push(*pos);
        let alpha0 = alpha;
        let mut best = -Score::INFINITE;
        let mut best_i = order[0] as usize;
        let mut next_i = order[0];
        // The table move's child, already made for the prefetch, is not made again.
        let (mut next, mut next_key) = match first {
            Some((i, child, k)) if i == best_i => (child, Some(k)),
            _ => (pos.play(self.lists[p][best_i]), None),
        };
        // With other threads, a later move whose child another thread is searching
        // is put off to the end (`busy`), when its value is likely in the table.
        let busy = self
            .smp
            .map(|r| &r.coord.busy)
            .filter(|_| child_depth >= busy::MIN_DEPTH);
        let mut deferred = [0u8; busy::MAX_DEFERRED];
        let mut deferred_rank = [0u8; busy::MAX_DEFERRED];
        let mut n_deferred = 0;
        let mut j = 0;
        while j < n + n_deferred {
            let i = if j < n { order[j] } else { deferred[j - n] };
            // A deferred move keeps its place in the ordering for the reductions.
            let rank = if j < n {
                j
            } else {
                deferred_rank[j - n] as usize
            };
            let m = self.lists[p][i as usize];
            // Each child is made once: as the next one (for the prefetch), then here.
            let (child, child_key) = if next_i == i {
                // Its key, when computed for the prefetch, is handed to its node.
                (next, next_key)
            } else {
                (pos.play(m), None)
            };
            let following = if j + 1 < n {
                Some(order[j + 1])
            } else if j + 1 < n + n_deferred {
                Some(deferred[j + 1 - n])
            } else {
                None
            };
            if let Some(f) = following {
                next = pos.play(self.lists[p][f as usize]);
                next_i = f;
                next_key = None;
                if prefetch {
                    // The next child's slot is fetched while this one is searched.
                    let k = next.key();
                    self.tt.prefetch(k);
                    next_key = Some(k);
                }
            }
            let mut entered = None;
            if let Some(b) = busy {
                let k = child_key.unwrap_or_else(|| child.key());
                if j > 0 && j < n && n_deferred < busy::MAX_DEFERRED && b.is_busy(k) {
                    deferred[n_deferred] = i;
                    deferred_rank[n_deferred] = j as u8;
                    n_deferred += 1;
                    self.stats.deferred += 1;
                    j += 1;
                    continue;
                }
                if b.enter(k) {
                    entered = Some(k);
                }
            }
            let s = if j == 0 || !t.pvs {
                -self.child(&child, child_key, child_depth, ply + 1, -beta, -alpha)
            } else if t.lmr
                && depth >= LMR_MIN_DEPTH
                && rank >= LMR_MIN_MOVE
                && beta.0 - alpha.0 == 1
                && !m.is_capture()
                && !has_capture(&child)
            {
                let r = if rank >= 2 * LMR_MIN_MOVE && depth >= 2 * LMR_MIN_DEPTH {
                    2
                } else {
                    1
                };
                let null = Score(-alpha.0 - 1);
                let s = -self.child(&child, child_key, depth - 1 - r, ply + 1, null, -alpha);
                if s > alpha && !self.budget.aborted {
                    -self.child(&child, child_key, depth - 1, ply + 1, null, -alpha)
                } else {
                    s
                }
            } else {
                let s = -self.child(
                    &child,
                    child_key,
                    depth - 1,
                    ply + 1,
                    Score(-alpha.0 - 1),
                    -alpha,
                );
                if s > alpha && s < beta && !self.budget.aborted {
                    -self.child(&child, child_key, depth - 1, ply + 1, -beta, -alpha)
                } else {
                    s
                }
            };
            if let (Some(b), Some(k)) = (busy, entered) {
                b.leave(k);
            }
            j += 1;
            if self.budget.aborted {
                break;
            }
            if s > best {
                best = s;
                best_i = i as usize;
                if root {
                    self.root_best = Some(m);
                }
                if s > alpha {
                    alpha = s;
                    if s < beta {
                        self.pv.update(p, m);
                    }
                }
                if s >= beta {
                    self.heur.cutoff(m, ply, depth, t.killers, t.history);
                    break;
                }
            }
        }
        self.path.pop();
        if let Some(s) = slot {
            if !root {
                self.tt.set_path(s, false);
            }
            if !self.budget.aborted {
                let bound = if best >= beta {
                    Bound::Lower
                } else if best > alpha0 {
                    Bound::Exact
                } else {
                    Bound::Upper
                };
                let m = self.lists[p][best_i];
                self.tt
                    .store(s, to_tt(best, ply), depth, bound, Some((best_i, m)));
            }
        }
        best
    }

    /// [`Engine::node`] on `child`, whose key the parent may already know.
    #[inline(always)]
    fn child(
        &mut self,
        child: &Position,
        key: Option<Key>,
        depth: u32,
        ply: u32,
        alpha: Score,
        beta: Score,
    ) -> Score {
        self.known_key = key;
        if depth == 0 {
            self.leaf(child, ply, alpha, beta)
        } else {
            self.node(child, depth, ply, alpha, beta)
        }
    }

    /// Enhanced transposition cutoff: a child whose stored upper bound already
    /// refutes it gives this node a value `≥ beta` without searching.
    fn etc(
        &mut self,
        pos: &Position,
        p: usize,
        depth: u32,
        ply: u32,
        beta: Score,
    ) -> Option<Score> {
        // Every child's slot is requested first, so that the probes below wait for
        // memory once rather than once per move.
        let n = self.lists[p].len();
        let mut keys = [Key(0); MAX_MOVES];
        for (k, &m) in keys.iter_mut().zip(self.lists[p].iter()) {
            *k = pos.play(m).key();
            self.tt.prefetch(*k);
        }
        for (i, &k) in keys.iter().enumerate().take(n) {
            let m = self.lists[p][i];
            if let Some(e) = self.tt.find(k) {
                let child = pos.play(m);
                if e.on_path
                    || e.depth < depth - 1
                    || e.depth > depth - 1 && self.opts.tt_exact_draft
                {
                    continue;
                }
                if matches!(e.bound, Bound::Upper | Bound::Exact) {
                    let v = -from_tt(e.value, ply + 1);
                    if v >= beta && (T::TRACKS_PATH || !self.repeats_after(pos, &child)) {
                        return Some(v);
                    }
                }
            }
        }
        None
    }
}

/// The bound a fail-soft value carries with respect to its window.
#[inline(always)]
pub(crate) fn bound_of(v: Score, alpha: Score, beta: Score) -> Bound {
    if v <= alpha {
        Bound::Upper
    } else if v >= beta {
        Bound::Lower
    } else {
        Bound::Exact
    }
}
