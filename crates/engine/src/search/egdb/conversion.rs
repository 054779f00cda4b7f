//! The conversion search: at the root of a won database position, a move that
//! forces the next conversion (a capture or a promotion by the winner, into a
//! position still won)
//! before any counting rule or repetition draws the game. The databases know no
//! counting rule, so their win may be drawn over the board; this search plays the
//! game's rules ([`drawrules`]) along every line. The winner tries the moves that
//! keep the win, the defender every move; with distances to conversion (`.dtc`
//! files) a line that cannot convert in the plies left is cut at once, so the search
//! follows the stored distances, choosing among them one the rules allow.

use std::collections::HashMap;
use std::marker::PhantomData;
use std::time::Instant;

use damas_rules::drawrules;
use damas_rules::movegen::generate_with;
use damas_rules::moves::{Move, MoveList};
use damas_rules::position::{Color, Position};
use damas_rules::variant::Rules;

use super::progress;
use damas_egdb::oracle::{Oracle, OracleValue};

/// Plies of the deepest conversion searched for (the longest stored distance to
/// conversion of six pieces is 99 plies; the counting rules allow at most 30 plies
/// of king moves, but a man move resets that count).
const MAX_PLIES: u32 = 100;

/// A move that forces a conversion, and the plies it takes at most.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Conversion {
    /// The move to play.
    pub mv: Move,
    /// Plies to the conversion against the best defence (this move included).
    pub plies: u32,
}

/// Proven bounds of a node: converts within `won_within` plies; fails within
/// `failed_upto` plies or fewer.
#[derive(Clone, Copy)]
struct Known {
    won_within: u32,
    failed_upto: Option<u32>,
}

struct Solver<'a, R: Rules> {
    rules: PhantomData<R>,
    oracle: &'a dyn Oracle,
    winner: Color,
    /// The game's positions before the node, oldest first.
    path: Vec<Position>,
    /// What is known of a position at a path length: the counts grow with the
    /// plies before the first conversion, so a result holds at the same length.
    memo: HashMap<(Position, usize), Known>,
    nodes: u64,
    budget: u64,
    deadline: Option<Instant>,
}

/// The legal moves of `pos` under the rules `R`.
fn legal<R: Rules>(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_with::<R>(pos, &mut list);
    list
}

/// Whether `winner` made progress from `parent` to `pos`: the defender lost a piece
/// or a man of the winner promoted (a piece the winner gives away is none).
fn progress(parent: &Position, pos: &Position, winner: Color) -> bool {
    let loser = winner.opponent();
    pos.pieces(loser).count() < parent.pieces(loser).count()
        || pos.kings_of(winner).count() > parent.kings_of(winner).count()
}

impl<R: Rules> Solver<'_, R> {
    /// Whether `winner` wins at `pos` by the database.
    fn won(&self, pos: &Position, full: bool) -> Option<(bool, Option<u32>)> {
        let a = if full {
            self.oracle.probe(pos)
        } else {
            self.oracle.probe_value(pos)
        }?;
        let win = match a.value {
            OracleValue::Win => pos.side_to_move() == self.winner,
            OracleValue::Loss => pos.side_to_move() != self.winner,
            OracleValue::Draw => false,
        };
        Some((win, a.plies.filter(|_| a.to_conversion)))
    }

    /// Whether the winner forces a conversion from `pos` (reached from `parent`,
    /// the newest position of the path) within `left` plies. `None`: out of nodes.
    fn solve(&mut self, parent: &Position, pos: &Position, left: u32) -> Option<bool> {
        self.nodes += 1;
        if self.nodes > self.budget
            || (self.nodes.is_multiple_of(1024)
                && self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            return None;
        }
        let moves = legal::<R>(pos);
        if moves.is_empty() {
            return Some(pos.side_to_move() != self.winner);
        }
        let t = drawrules::trail(pos, self.path.iter().rev());
        if t.repeated
            || drawrules::count_draw_after(pos, t.reversible_plies, self.path.iter().rev())
                .is_some()
        {
            return Some(false);
        }
        let Some((win, dtc)) = self.won(pos, false) else {
            return Some(false);
        };
        if !win {
            return Some(false);
        }
        if progress(parent, pos, self.winner) {
            // A conversion into an ending whose counting rule draws the game before
            // its next conversion is none.
            let left = drawrules::material_plies_left_reachable(pos, self.path.iter().rev());
            return Some(!super::cutoff::outlasts_count(dtc, left));
        }
        if left == 0 || dtc.is_some_and(|d| d > left) {
            return Some(false);
        }
        let key = (*pos, self.path.len());
        if let Some(k) = self.memo.get(&key) {
            if k.won_within <= left {
                return Some(true);
            }
            if k.failed_upto.is_some_and(|l| l >= left) {
                return Some(false);
            }
        }
        let winner_moves = pos.side_to_move() == self.winner;
        let mut children: Vec<(u32, Position)> = moves
            .iter()
            .map(|&m| {
                let child = pos.play(m);
                let order = if winner_moves {
                    progress::estimate(&child, self.winner)
                } else {
                    0
                };
                (order, child)
            })
            .collect();
        // The winner's most promising moves first (the estimate of progress).
        children.sort_by_key(|&(order, _)| order);
        self.path.push(*pos);
        let mut result = Some(!winner_moves);
        for (_, child) in &children {
            match self.solve(pos, child, left - 1) {
                None => {
                    result = None;
                    break;
                }
                Some(ok) if ok == winner_moves => {
                    result = Some(ok);
                    break;
                }
                Some(_) => {}
            }
        }
        self.path.pop();
        let k = self.memo.entry(key).or_insert(Known {
            won_within: u32::MAX,
            failed_upto: None,
        });
        match result {
            Some(true) => k.won_within = k.won_within.min(left),
            Some(false) => k.failed_upto = Some(k.failed_upto.map_or(left, |l| l.max(left))),
            None => {}
        }
        result
    }
}

/// The move at the root `pos` (after the game's `history`, oldest first) that forces
/// a conversion soonest under the draw rules, searching at most `budget` nodes;
/// `None` when the position is not a database win for the side to move or no
/// conversion was proven within the budget (nodes, and the deadline if any).
pub(crate) fn find<R: Rules>(
    oracle: &dyn Oracle,
    pos: &Position,
    history: &[Position],
    budget: u64,
    deadline: Option<Instant>,
) -> Option<Conversion> {
    let mut s = Solver::<R> {
        rules: PhantomData,
        oracle,
        winner: pos.side_to_move(),
        path: history.to_vec(),
        memo: HashMap::new(),
        nodes: 0,
        budget,
        deadline,
    };
    let (win, dtc) = s.won(pos, true)?;
    if !win {
        return None;
    }
    // Children that keep the win, the shortest stored distance first.
    let mut moves: Vec<(u32, Move)> = legal::<R>(pos)
        .iter()
        .filter_map(|&m| {
            let (win, d) = s.won(&pos.play(m), false)?;
            win.then_some((d.unwrap_or(0), m))
        })
        .collect();
    moves.sort_by_key(|&(d, m)| (d, m));
    s.path.push(*pos);
    for left in dtc.unwrap_or(1).max(1)..=MAX_PLIES {
        for &(d, m) in &moves {
            if d + 1 > left {
                continue;
            }
            if s.solve(pos, &pos.play(m), left - 1)? {
                return Some(Conversion { mv: m, plies: left });
            }
        }
    }
    None
}
