//! Varied match openings: a few random legal moves from the start position, drawn
//! from a seeded generator so that a match can be replayed.

use std::collections::HashSet;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::movegen::legal_moves;
use crate::moves::Move;
use crate::position::Position;

/// `count` distinct openings of `plies` random moves from the start position (fewer
/// distinct ones when the tree is too small, repeated to make up the count). Openings
/// that leave the side to move without a move are not used.
pub fn random_openings(count: usize, plies: usize, seed: u64) -> Vec<Vec<Move>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let mut out: Vec<Vec<Move>> = Vec::with_capacity(count);
    let mut attempts = 0;
    while out.len() < count && attempts < count * 50 + 100 {
        attempts += 1;
        let mut pos = Position::start();
        let mut line = Vec::with_capacity(plies);
        for _ in 0..plies {
            let legal = legal_moves(&pos);
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.gen_range(0..legal.len())];
            line.push(m);
            pos = pos.play(m);
        }
        if legal_moves(&pos).is_empty() || !seen.insert(pos) {
            continue;
        }
        out.push(line);
    }
    if out.is_empty() {
        out.push(Vec::new());
    }
    let distinct = out.len();
    for i in distinct..count {
        out.push(out[i % distinct].clone());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_distinct_legal_and_reproducible() {
        let a = random_openings(20, 4, 7);
        assert_eq!(a, random_openings(20, 4, 7));
        assert_ne!(a, random_openings(20, 4, 8));
        let ends: HashSet<Position> = a
            .iter()
            .map(|l| l.iter().fold(Position::start(), |p, &m| p.play(m)))
            .collect();
        assert_eq!(ends.len(), 20);
        for line in &a {
            assert_eq!(line.len(), 4);
            let mut p = Position::start();
            for &m in line {
                assert!(legal_moves(&p).contains(&m));
                p = p.play(m);
            }
        }
        // Zero plies: the start position only, repeated.
        assert_eq!(random_openings(3, 0, 1), vec![Vec::<Move>::new(); 3]);
    }
}
