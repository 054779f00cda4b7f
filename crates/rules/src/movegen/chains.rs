//! Counting men's captures without a move list, for the bulk count: double jumps
//! by set operations, longer chains by a search that keeps only the longest length
//! and its count.

use super::{Board, Padded};
use crate::bitboard::Dir;

use super::count_captures;
use crate::variant::Rules;

/// Longest capture found so far and how many captures have that length.
struct Tally {
    best: u32,
    count: u32,
}

/// Number of captures of `p` when only men capture ([`Captures::ManChains`]),
/// without a move list: a search over the chains that keeps the longest length
/// and its count. A man's capture of at most three pieces is the only one with its
/// start, end and captured set (its first piece is the one next to the start, and
/// so on), so such captures are counted as found; from four pieces on two routes
/// can take the same pieces, and the generator, which merges them, counts.
/// Majority rule only: under free choice the caller generates.
#[inline(never)]
pub(super) fn count_man_chains<R: Rules>(p: &Board) -> usize {
    let opp = p.opp;
    let empty = p.empty();
    if let Some(n) = count_double_jumps(p.own_men(), opp, empty) {
        return n as usize;
    }
    let first_jump = |e: Dir| (empty.step(e.opposite()) & opp).step(e.opposite());
    let jumpers = p.own_men()
        & (first_jump(Dir::NE) | first_jump(Dir::NW) | first_jump(Dir::SE) | first_jump(Dir::SW));
    let mut tally = Tally { best: 0, count: 0 };
    for from in jumpers.singles() {
        man_chains(from, opp, empty | from, 0, &mut tally);
    }
    if tally.best >= 4 {
        return count_captures::<R>(p);
    }
    tally.count as usize
}

/// The number of men's captures when the longest take two pieces, counted with
/// set operations; `None` when some capture takes three or more.
///
/// A chain of up to three jumps never meets its own start square or a piece it has
/// taken: the second jump cannot go back over the first piece, and a third jump's
/// piece or landing square would need a step straight back. So up to three jumps,
/// chains are exactly the paths through the position's own sets: the landing
/// squares after jumps in directions `d` then `e` (`e` not back along `d`) mark one
/// chain each.
#[inline(always)]
fn count_double_jumps(men: Padded, opp: Padded, empty: Padded) -> Option<u32> {
    let jump = |from: Padded, d: Dir| (from.step(d) & opp).step(d) & empty;
    let mut count = 0;
    // After two jumps, the landing squares of the chains whose second went `e`.
    let mut second = [Padded::EMPTY; 4];
    for d in Dir::ALL {
        let first = jump(men, d);
        for (e, after) in Dir::ALL.into_iter().zip(second.iter_mut()) {
            if e != d.opposite() {
                let l = jump(first, e);
                count += l.count();
                *after |= l;
            }
        }
    }
    let third = Dir::ALL.into_iter().zip(second).any(|(e, from)| {
        Dir::ALL
            .into_iter()
            .any(|f| f != e.opposite() && jump(from, f).any())
    });
    (!third).then_some(count)
}

/// Continue a man's capture from `sq`, having taken `taken` pieces; `victims` are
/// the opponent's pieces not yet taken (taken ones stay on the board: they block,
/// but cannot be jumped again), `empty` includes the man's start square.
fn man_chains(sq: Padded, victims: Padded, empty: Padded, taken: u32, tally: &mut Tally) {
    // Each direction inlined with a constant shift.
    #[inline(always)]
    fn go(d: Dir, sq: Padded, victims: Padded, empty: Padded, taken: u32, t: &mut Tally) -> bool {
        let over = sq.step(d) & victims;
        let land = over.step(d) & empty;
        if land.any() {
            man_chains(land, victims ^ over, empty, taken + 1, t);
        }
        land.any()
    }
    let extended = go(Dir::NE, sq, victims, empty, taken, tally)
        | go(Dir::NW, sq, victims, empty, taken, tally)
        | go(Dir::SE, sq, victims, empty, taken, tally)
        | go(Dir::SW, sq, victims, empty, taken, tally);
    if !extended && taken > 0 {
        if taken > tally.best {
            tally.best = taken;
            tally.count = 1;
        } else if taken == tally.best {
            tally.count += 1;
        }
    }
}
