//! Move ordering and selection: the TT move first, then two killer moves per ply,
//! then the rest by the history table (from×to, depth-weighted); and the cheap move
//! score behind selective deepening.

use damas_rules::movegen::has_capture;
use damas_rules::moves::{Move, MoveList, MAX_MOVES};
use damas_rules::position::Position;

use super::limits::MAX_PLY;

/// Longest list ordered by counting ranks ([`Heuristics::order`]); longer lists
/// (many kings) are insertion-sorted, since counting costs the square of the length.
const RANK_SORT_MAX: usize = 16;

/// Killer moves and the history table; kept across the iterations of a search.
pub(crate) struct Heuristics {
    killers: Vec<[Option<Move>; 2]>,
    history: Box<[[u32; 32]; 32]>,
    /// Scratch sort keys of [`Heuristics::order`], kept here so that no node clears
    /// a 2 KB array on the stack.
    keys: Box<[u64; MAX_MOVES]>,
}

impl Heuristics {
    pub fn new() -> Heuristics {
        Heuristics {
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: Box::new([[0; 32]; 32]),
            keys: Box::new([0; MAX_MOVES]),
        }
    }

    /// Forget everything (new game).
    pub fn clear(&mut self) {
        self.killers.fill([None; 2]);
        for row in self.history.iter_mut() {
            row.fill(0);
        }
    }

    /// Start of a new search: killers are position-specific, history only ages.
    pub fn new_search(&mut self) {
        self.killers.fill([None; 2]);
        for row in self.history.iter_mut() {
            for h in row.iter_mut() {
                *h >>= 2;
            }
        }
    }

    /// Record that quiet move `m` caused a cutoff at `ply` with `depth` to go.
    #[inline]
    pub fn cutoff(&mut self, m: Move, ply: u32, depth: u32, killers: bool, history: bool) {
        if m.is_capture() {
            return;
        }
        if killers {
            let k = &mut self.killers[ply as usize];
            if k[0] != Some(m) {
                k[1] = k[0];
                k[0] = Some(m);
            }
        }
        if history {
            let h = &mut self.history[m.from().index()][m.to().index()];
            *h = h.saturating_add(depth * depth);
        }
    }

    /// Fill `order[..list.len()]` with the indices of `list` in search order.
    ///
    /// One pass builds a unique key per move: its class high (TT move 3, first
    /// killer 2, second killer 1, others 0), its history score next, its position in
    /// the list (reversed) low, so that one descending sort gives the TT move, the
    /// killers, then the rest by history with ties in list order (a stable sort).
    #[inline]
    pub fn order(
        &mut self,
        list: &MoveList,
        tt_move: Option<usize>,
        ply: u32,
        killers: bool,
        history: bool,
        order: &mut [u8; MAX_MOVES],
    ) {
        let n = list.len();
        let tt = tt_move.filter(|&t| t < n);
        // Captures are compulsory: when there are any, every move is one and the
        // quiet-move heuristics have nothing to say; only the TT move moves.
        if n < 2 || list[0].is_capture() || !killers && !history {
            for (i, o) in order[..n].iter_mut().enumerate() {
                *o = i as u8;
            }
            if let Some(t) = tt {
                to_front(&mut order[..=t]);
            }
            return;
        }
        // Killers are quiet moves and so is every move here: start and end squares
        // identify them, compared as one integer (comparing `Option<Move>`s cost more
        // than the rest of the ordering).
        let code = |m: Move| m.from().index() as u32 | (m.to().index() as u32) << 8;
        let [k0, k1] = if killers {
            self.killers[ply as usize].map(|k| k.map_or(u32::MAX, code))
        } else {
            [u32::MAX; 2]
        };
        let keys = &mut self.keys[..n];
        for (i, (key, &m)) in keys.iter_mut().zip(list.iter()).enumerate() {
            let c = code(m);
            // The two killers differ (or are both absent, matching nothing), so at
            // most one of the two bits is set: class 2 or 1 without a branch.
            let class = u64::from(c == k0) << 41 | u64::from(c == k1) << 40;
            let h = if history {
                self.history[m.from().index() & 31][m.to().index() & 31]
            } else {
                0
            };
            *key = class | u64::from(h) << 8 | (0xFF - i as u64);
        }
        // The TT move's class is 3 whatever the killers say.
        if let Some(t) = tt {
            keys[t] |= 3 << 40;
        }
        if n <= RANK_SORT_MAX {
            // Keys are unique: a move's place is the number of keys above its own.
            // Counting them has no data-dependent branch, where an insertion sort
            // mispredicts about once per move.
            for (i, &x) in keys.iter().enumerate() {
                let above: usize = keys.iter().map(|&y| usize::from(y > x)).sum();
                order[above] = i as u8;
            }
            return;
        }
        // Insertion sort, descending: lists are short and often nearly sorted.
        for a in 1..n {
            let x = keys[a];
            let mut b = a;
            while b > 0 && keys[b - 1] < x {
                keys[b] = keys[b - 1];
                b -= 1;
            }
            keys[b] = x;
        }
        for (o, key) in order[..n].iter_mut().zip(keys.iter()) {
            *o = 0xFF - *key as u8;
        }
    }
}

/// Move the last element of `s` to the front, keeping the others in order (the
/// library's `rotate_right` is general and costs several times more on short slices).
#[inline(always)]
fn to_front(s: &mut [u8]) {
    if let Some(&last) = s.last() {
        s.copy_within(..s.len() - 1, 1);
        s[0] = last;
    }
}

/// The cheap score of selective deepening: a move that lets the opponent capture at
/// once is bad, a promotion good, a man leaving the back row (a guard) slightly bad.
#[inline]
fn cheap_score(pos: &Position, m: Move) -> i32 {
    let child = pos.play(m);
    let mut s = 0;
    if has_capture(&child) {
        s -= 8;
    }
    let side = pos.side_to_move();
    if !pos.kings().contains(m.from()) {
        if child.kings().contains(m.to()) {
            s += 4;
        }
        let back_row = side.opponent().promotion_row();
        if back_row.contains(m.from()) {
            s -= 1;
        }
    }
    s
}

/// Keep the best `percent` of `list` (at least one move) by [`cheap_score`], ties
/// broken by list order, and leave the kept moves in their original order.
pub(crate) fn select(pos: &Position, list: &mut MoveList, percent: u8) {
    let n = list.len();
    let keep = (n * percent as usize).div_ceil(100).max(1);
    if keep >= n {
        return;
    }
    let mut scored = [(0i32, 0u8); MAX_MOVES];
    for (i, &m) in list.iter().enumerate() {
        scored[i] = (-cheap_score(pos, m), i as u8);
    }
    scored[..n].sort_unstable();
    let mut kept = [false; MAX_MOVES];
    for &(_, i) in &scored[..keep] {
        kept[i as usize] = true;
    }
    let moves = list.as_mut_slice();
    let mut w = 0;
    for r in 0..n {
        if kept[r] {
            moves[w] = moves[r];
            w += 1;
        }
    }
    list.truncate(keep);
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas_rules::fen::parse_fen;
    use damas_rules::movegen::legal_moves;
    use damas_rules::variant::Variant;

    #[test]
    fn select_keeps_the_safe_moves_in_order() {
        // White man c3 to d4 is attacked by e5 (taken back? no: e5xc3), b4 is safe.
        let p = parse_fen("W:Wc3,g3:Be5,h8").unwrap();
        let mut list = legal_moves(Variant::Brazilian, &p);
        let all = list.clone();
        select(&p, &mut list, 50);
        assert_eq!(list.len(), all.len().div_ceil(2));
        let positions: Vec<usize> = list
            .iter()
            .map(|m| all.iter().position(|a| a == m).unwrap())
            .collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]));
        for m in list.iter() {
            assert!(!has_capture(&p.play(*m)), "{m:?} hangs a piece");
        }
    }

    #[test]
    fn history_order_is_a_stable_sort_by_score() {
        // Kings give long quiet lists; cutoffs at a few depths give ties and gaps.
        // Both ways of ordering are covered: rank counting up to RANK_SORT_MAX moves,
        // the insertion sort above.
        let mut lengths = Vec::new();
        for fen in [
            "W:WKa1,Kc1,e1,g1:BKb8,Kh8",
            "W:WKa1,e1,g1:BKb8,Kh8",
            "W:Wa1,c1,e1,g1,c3,e3:Bb8,h8",
        ] {
            let p = parse_fen(fen).unwrap();
            let list = legal_moves(Variant::Brazilian, &p);
            assert!(list.len() > 7, "{fen}");
            lengths.push(list.len());
            let mut h = Heuristics::new();
            for (i, &m) in list.iter().enumerate() {
                for _ in 0..i % 4 {
                    h.cutoff(m, 0, 1 + (i % 3) as u32, false, true);
                }
            }
            let score = |m: Move| h.history[m.from().index()][m.to().index()];
            let mut expected: Vec<usize> = (0..list.len()).collect();
            expected.sort_by_key(|&i| std::cmp::Reverse(score(list[i])));
            let mut order = [0u8; MAX_MOVES];
            h.order(&list, None, 0, false, true, &mut order);
            let got: Vec<usize> = order[..list.len()].iter().map(|&i| i as usize).collect();
            assert_eq!(got, expected, "{fen}");
            // With a TT move it comes first and the rest keep the same relative order.
            h.order(&list, Some(7), 0, false, true, &mut order);
            assert_eq!(order[0], 7);
            let rest: Vec<usize> = expected.into_iter().filter(|&i| i != 7).collect();
            let got: Vec<usize> = order[1..list.len()].iter().map(|&i| i as usize).collect();
            assert_eq!(got, rest, "{fen}");
        }
        assert!(lengths.iter().any(|&n| n <= RANK_SORT_MAX), "{lengths:?}");
        assert!(lengths.iter().any(|&n| n > RANK_SORT_MAX), "{lengths:?}");
    }

    #[test]
    fn killers_come_after_the_tt_move() {
        let p = Position::start();
        let list = legal_moves(Variant::Brazilian, &p);
        let mut h = Heuristics::new();
        h.cutoff(list[4], 3, 5, true, true);
        let mut order = [0u8; MAX_MOVES];
        h.order(&list, Some(2), 3, true, true, &mut order);
        assert_eq!(&order[..3], &[2, 4, 0]);
        h.order(&list, None, 2, false, true, &mut order);
        assert_eq!(order[0], 4, "history puts the cutoff move first");
    }
}
