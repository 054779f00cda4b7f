//! The interior of the tree: fail-soft negamax α-β, optionally PVS, with the
//! transposition table, killers, history, selective deepening, repetition detection
//! and the techniques of `selective/` (enhanced transposition cutoffs, internal
//! iterative reduction, reverse futility pruning, ProbCut, futility pruning, singular
//! extensions, late move reductions) and `egdb/` (endgame-database cutoffs).

use crate::eval::Evaluator;
use crate::score::Score;
use crate::tt::{from_tt, to_tt, Bound, Found, TableAccess};
use damas_rules::drawrules;
use damas_rules::key::Key;
use damas_rules::movegen::generate_with;
use damas_rules::moves::MAX_MOVES;
use damas_rules::position::Position;
use damas_rules::variant::Rules;

use super::engine::Engine;
use super::limits::MAX_PLY;
use super::order::select;
use super::parallel::busy;
use super::selective::etc::ETC_MIN_DEPTH;
use super::selective::futility::futile;
use super::selective::singular::Singular;

/// Single-reply and singular extensions stop this many plies below the root, so a
/// long run of extended moves cannot deepen the search without bound.
const EXT_MAX_PLY: u32 = 60;

impl<E: Evaluator + ?Sized, T: TableAccess, R: Rules> Engine<'_, E, T, R> {
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
    ) -> Result<(Option<T::Slot>, Option<Found>), Score> {
        let known_key = self.known_key.take();
        self.stats.nodes += 1;
        if self.budget.exhausted(&self.stats) {
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
                return Err(self.rule_draw(ply));
            }
        }
        if t.egdb && !root && pos.piece_count() <= self.oracle_pieces {
            // The options outlive the engine: the oracle is borrowed from them, not
            // cloned (an atomic count shared by every thread, at every node).
            let opts = self.opts;
            // `oracle_pieces` already says the oracle covers `pos`.
            if let Some(o) = opts.oracle.as_deref() {
                if let Some(s) = self.oracle(o, pos, ply, depth) {
                    return Err(s);
                }
            }
        }
        let mut slot: Option<T::Slot> = None;
        let mut entry: Option<Found> = None;
        if probe {
            let probed = self.tt.probe(known_key.unwrap_or_else(|| pos.key()));
            if T::TRACKS_PATH && probed.is_none() && !root && self.repeated(pos) {
                self.stats.terminal += 1;
                return Err(self.rule_draw(ply));
            }
            if let Some((s, found)) = probed {
                slot = Some(s);
                if let Some(e) = found {
                    if !root {
                        if e.on_path {
                            self.stats.terminal += 1;
                            return Err(self.rule_draw(ply));
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
                    entry = Some(e);
                }
            }
        }
        Ok((slot, entry))
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
        let (slot, entry) = match self.enter(pos, &mut depth, ply, alpha, beta) {
            Ok(found) => found,
            Err(v) => return v,
        };
        let tt_move = entry.and_then(|e| e.best);
        let t = self.t;
        let root = ply == 0;
        let p = ply as usize;
        let depth = self.iir_depth(depth, root, tt_move.is_some());
        if depth == 0 || p >= MAX_PLY {
            return self.horizon(pos, slot, ply, alpha, beta);
        }
        // The static evaluation, once a pruning test has needed it.
        let mut static_eval = None;
        if let Some(v) = self.reverse_futility(pos, depth, ply, alpha, beta, &mut static_eval) {
            // Counted as a leaf: decided by the static evaluation.
            self.stats.leaves += 1;
            return v;
        }
        if let Some(v) = self.probcut(pos, depth, ply, (alpha, beta), entry) {
            // Counted by `probcut`: as an interior node, or a table cutoff.
            return v;
        }

        generate_with::<R>(pos, &mut self.lists[p]);
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
        // The first child in the order is made now, and its slot fetched while the
        // node's remaining work (the singular test, futility's evaluation) runs.
        let first = match first {
            Some((i, child, k)) if i == order[0] as usize => (child, Some(k)),
            _ => {
                let child = pos.play(self.lists[p][order[0] as usize]);
                let k = prefetch.then(|| child.key());
                if let Some(k) = k {
                    self.tt.prefetch(k);
                }
                (child, k)
            }
        };
        if let Some(s) = slot {
            if !root {
                self.tt.set_path(s, true);
            }
        }
        // A forced move is searched one ply deeper (`ext`).
        let child_depth = depth - 1 + u32::from(t.ext && n == 1 && !root && ply < EXT_MAX_PLY);
        self.path.push(*pos);
        let singular = if t.singular
            && !root
            && ply < EXT_MAX_PLY
            && n > 1
            && depth >= self.tune.se_min_depth()
        {
            self.singular(pos, depth, ply, (alpha, beta), tt_move, entry)
        } else {
            Singular::No
        };
        if let Singular::Cut(v) = singular {
            // Two moves clear `beta`: the node fails high without its full search.
            self.path.pop();
            if let Some(s) = slot {
                self.tt.set_path(s, false);
                if let Some(ti) = tt_move {
                    let m = self.lists[p][ti];
                    self.tt
                        .store(s, to_tt(v, ply), depth, Bound::Lower, Some((ti, m)));
                }
            }
            // Already counted as an interior node.
            return v;
        }
        let extend_first = singular == Singular::Extend;
        let futility = if self.lists[p][0].is_capture() {
            None
        } else {
            self.futility(pos, depth, ply, alpha, beta, &mut static_eval)
        };
        let alpha0 = alpha;
        let mut best = -Score::INFINITE;
        let mut best_i = order[0] as usize;
        let mut next_i = order[0];
        // The first child, already made for the prefetch, is not made again.
        let (mut next, mut next_key) = first;
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
            if let Some(v) = futility.filter(|_| j > 0 && futile(&child)) {
                // Skipped, scored at the evaluation plus the margin (fail-soft).
                best = best.max(v);
                j += 1;
                continue;
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
                // The table move is first: a singular one is searched a ply deeper.
                let d = child_depth + u32::from(j == 0 && extend_first);
                -self.child(&child, child_key, d, ply + 1, -beta, -alpha)
            } else if let Some(r) = self.late_move_reduction(m, &child, depth, rank, alpha, beta) {
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
    pub(crate) fn child(
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
}
