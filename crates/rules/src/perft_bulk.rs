//! Perft's last two plies counted together for the commonest case: the side to move
//! has only quiet man moves and the opponent only men.
//!
//! After a quiet man move from `f` to `t`, the opponent's position differs from the
//! parent's in two squares only: `t` filled, `f` emptied. When the opponent cannot
//! capture in the child, its move count is its quiet man moves in the parent, minus
//! the men that could step onto `t`, plus those that can now step onto `f` — so the
//! children of one direction of the parent's men are summed with a few population
//! counts over the set of destinations, instead of being played and counted one by
//! one. Children where the opponent has a capture (the moved man can be taken, or a
//! piece behind `f` now can) are counted one by one, as before.

use crate::bitboard::Dir;
use crate::movegen::{count_moves_as, Board, BoardMove, Padded, Side};
use crate::variant::Rules;

/// The leaves two plies below `p` (the side to move being `S`), when `p` qualifies:
/// `S` has no king and no capture, the opponent no king and no capture against the
/// parent position (a capture it has there may or may not survive the move, which
/// the sets below do not follow). `None` otherwise, and the caller counts as usual.
#[inline(always)]
pub(crate) fn two_plies<R: Rules, S: Side>(p: &Board) -> Option<u64> {
    if p.kings.any() {
        return None;
    }
    let own = p.own;
    let opp = p.opp;
    let empty = p.empty();
    // The opponent's men capture in every direction: any capture of theirs in the
    // parent position sends the whole node to the general path.
    let threat = Dir::ALL
        .into_iter()
        .any(|d| ((opp.step(d) & own).step(d) & empty).any());
    if threat || p.has_capture() {
        return None;
    }
    let [e1, e2] = <S::Other as Side>::FORWARD;
    let quiet = |free: Padded| (opp.step(e1) & free).count() + (opp.step(e2) & free).count();
    // The opponent's quiet moves in the parent position.
    let base = u64::from(quiet(empty));
    let mut leaves = 0;
    for dm in S::FORWARD {
        let back = dm.opposite();
        let to = own.step(dm) & empty;
        if to.is_empty() {
            continue;
        }
        // Destinations after which the opponent has a capture:
        // - the moved man taken by a man in front of it, landing on `f`;
        let mut capture = opp.step(back);
        for d in Dir::ALL {
            if d != back {
                // - the moved man taken in another direction, landing on an empty
                //   square (`f` excluded: that is the case above);
                capture |= opp.step(d) & empty.step(d.opposite());
                // - another piece taken by a man landing on `f`, now empty.
                capture |= (opp.step(d) & own).step(d).step(dm);
            }
        }
        let one_by_one = to & capture;
        for t in one_by_one.singles() {
            let m = BoardMove {
                from: t.step(back),
                to: t,
                captured: Padded::EMPTY,
                crowned: false,
            };
            leaves += count_moves_as::<R, S::Other>(&p.play_as::<S>(&m)) as u64;
        }
        let bulk = to & !capture;
        let from = bulk.step(back);
        leaves += u64::from(bulk.count()) * base + u64::from(quiet(from)) - u64::from(quiet(bulk));
    }
    Some(leaves)
}

#[cfg(test)]
mod tests {
    use crate::variant::Brazilian;
    use crate::Variant;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use crate::bitboard::Bitboard;
    use crate::movegen::{count_moves_with, legal_moves};
    use crate::perft::perft;
    use crate::position::{Color, Position};

    /// Leaves by playing every move with the public generator: no bulk counting.
    fn plain_perft(pos: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        legal_moves(Variant::Brazilian, pos)
            .iter()
            .map(|&m| plain_perft(&pos.play(m), depth - 1))
            .sum()
    }

    /// Crowded random positions of men (kings now and then): many captures, multi-
    /// jumps and threats, the cases the bulk count must send one by one.
    fn scattered(rng: &mut ChaCha8Rng) -> Position {
        loop {
            let (mut white, mut black, mut kings) = (0u32, 0u32, 0u32);
            for sq in 0..32 {
                match rng.gen_range(0..10) {
                    0..=2 => white |= 1 << sq,
                    3..=5 => black |= 1 << sq,
                    _ => {}
                }
                if rng.gen_range(0..40) == 0 {
                    kings |= 1 << sq;
                }
            }
            kings &= white | black;
            // Men on their promotion row become kings.
            kings |= white & Bitboard::RANK_8.0 | black & Bitboard::RANK_1.0;
            let side = if rng.gen() {
                Color::White
            } else {
                Color::Black
            };
            if let Ok(p) =
                Position::from_parts(Bitboard(white), Bitboard(black), Bitboard(kings), side)
            {
                return p;
            }
        }
    }

    /// Positions reached by random games from the start: the tree perft walks.
    fn played(rng: &mut ChaCha8Rng) -> Position {
        let mut pos = Position::start();
        for _ in 0..rng.gen_range(0..50) {
            let moves = legal_moves(Variant::Brazilian, &pos);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.gen_range(0..moves.len())]);
        }
        pos
    }

    #[test]
    fn bulk_counts_agree_with_playing_every_move() {
        let mut rng = ChaCha8Rng::seed_from_u64(15);
        for i in 0..3000 {
            let pos = if i % 2 == 0 {
                scattered(&mut rng)
            } else {
                played(&mut rng)
            };
            assert_eq!(
                count_moves_with::<Brazilian>(&pos),
                legal_moves(Variant::Brazilian, &pos).len(),
                "count of {pos:?}"
            );
            for depth in 2..=3 {
                assert_eq!(
                    perft(Variant::Brazilian, &pos, depth),
                    plain_perft(&pos, depth),
                    "perft(Variant::Brazilian, {depth}) of {pos:?}"
                );
            }
        }
    }
}
