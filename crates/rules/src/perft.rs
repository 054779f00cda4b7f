//! Perft: counting the leaves of the legal move tree, with bulk counting at the last ply.

use rayon::prelude::*;

use crate::movegen::{
    count_moves_as, for_each_move_as, generate, legal_moves, Black, Board, Side, White,
};
use crate::moves::{Move, MoveList};
use crate::perft_bulk::two_plies;
use crate::position::{Color, Position};
use crate::variant::{Rules, Variant};

/// Leaves of the legal move tree of `pos` at `depth` under the rules of `variant`
/// (captures with the same start, end and captured set are one move: docs/rules.md).
/// Dispatches once; the tree is monomorphised.
pub fn perft(variant: Variant, pos: &Position, depth: u32) -> u64 {
    crate::with_rules!(variant, R => perft_with::<R>(pos, depth))
}

/// [`perft`] under the rules `R`.
fn perft_with<R: Rules>(pos: &Position, depth: u32) -> u64 {
    let p = Board::from(pos);
    match p.side {
        Color::White => padded_perft::<R, White>(&p, depth),
        Color::Black => padded_perft::<R, Black>(&p, depth),
    }
}

/// [`perft`] in the generator's own layout, so the tree never converts masks, and
/// with the variant and the side to move as types, so no node chooses rules,
/// directions or rows.
fn padded_perft<R: Rules, S: Side>(p: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_moves_as::<R, S>(p) as u64,
        // The last two plies inline: no call per child, only the bulk count.
        2 => {
            if let Some(n) = two_plies::<R, S>(p) {
                return n;
            }
            let mut n = 0;
            for_each_move_as::<R, S, _>(p, |m| {
                n += count_moves_as::<R, S::Other>(&p.play_as::<S>(m)) as u64
            });
            n
        }
        _ => {
            let mut n = 0;
            for_each_move_as::<R, S, _>(p, |m| {
                n += padded_perft::<R, S::Other>(&p.play_as::<S>(m), depth - 1)
            });
            n
        }
    }
}

/// Perft split by root move (`depth` ≥ 1), in generation order.
pub fn divide(variant: Variant, pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut list = MoveList::new();
    generate(variant, pos, &mut list);
    list.iter()
        .map(|&m| (m, perft(variant, &pos.play(m), depth.saturating_sub(1))))
        .collect()
}

/// [`divide`] with the root moves spread over a pool of `threads` threads.
pub fn divide_parallel(
    variant: Variant,
    pos: &Position,
    depth: u32,
    threads: usize,
) -> Result<Vec<(Move, u64)>, rayon::ThreadPoolBuildError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()?;
    let mut list = MoveList::new();
    generate(variant, pos, &mut list);
    let roots: Vec<Move> = list.to_vec();
    Ok(pool.install(|| {
        // Each root move's subtree is split into the positions three plies down
        // (about 300 tasks from the start), so that no thread waits long for the
        // last, largest task to finish.
        roots
            .par_iter()
            .map(|&m| {
                let child = pos.play(m);
                // As in `divide`, depth 0 counts each root move once.
                let below = depth.saturating_sub(1);
                let split = below.min(2);
                let n = frontier(variant, &child, split)
                    .par_iter()
                    .map(|p| perft(variant, p, below - split))
                    .sum();
                (m, n)
            })
            .collect()
    }))
}

/// The positions `plies` plies below `pos`, one per path (so that their perft counts
/// add up to `pos`'s).
fn frontier(variant: Variant, pos: &Position, plies: u32) -> Vec<Position> {
    let mut level = vec![*pos];
    for _ in 0..plies {
        level = level
            .iter()
            .flat_map(|p| {
                legal_moves(variant, p)
                    .to_vec()
                    .into_iter()
                    .map(|m| p.play(m))
            })
            .collect();
    }
    level
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_variant_is_brazilian() {
        let start = Position::start();
        for depth in 0..=5 {
            assert_eq!(
                perft(Variant::default(), &start, depth),
                perft(Variant::Brazilian, &start, depth)
            );
        }
    }

    #[test]
    fn russian_counts_from_the_start_are_the_published_ones() {
        let start = Position::start();
        let counts: Vec<u64> = (1..=6)
            .map(|d| perft(Variant::Russian, &start, d))
            .collect();
        assert_eq!(counts, [7, 49, 302, 1469, 7482, 37986]);
        let divided: u64 = divide(Variant::Russian, &start, 6)
            .iter()
            .map(|(_, n)| n)
            .sum();
        assert_eq!(divided, 37986);
    }
}
