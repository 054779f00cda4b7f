//! Choosing a book move: weighted random among the position's book moves, so games
//! vary; the random source is the caller's, so a seeded one repeats its choices.

use rand::Rng;

use damas_rules::movegen::legal_moves;
use damas_rules::moves::Move;
use damas_rules::position::Position;

use super::Book;

/// A book move for `pos` (under the book's rules), drawn with probability
/// proportional to its weight, or `None` when the book has no (legal, weighted)
/// move for it.
pub fn choose(book: &Book, pos: &Position, rng: &mut impl Rng) -> Option<Move> {
    let moves = book.moves(pos)?;
    // The file was checked on reading; checking again costs one generation and
    // keeps a hand-built book from ever giving an illegal move.
    let legal = legal_moves(book.variant(), pos);
    let usable: Vec<_> = moves
        .iter()
        .filter(|m| m.weight.0 > 0 && legal.contains(&m.mv))
        .collect();
    let total: u32 = usable.iter().map(|m| u32::from(m.weight.0)).sum();
    if total == 0 {
        return None;
    }
    let mut x = rng.gen_range(0..total);
    for m in &usable {
        let w = u32::from(m.weight.0);
        if x < w {
            return Some(m.mv);
        }
        x -= w;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::{BookMove, Weight};
    use damas_rules::movegen::legal_moves;
    use damas_rules::variant::Variant;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use std::collections::HashSet;

    #[test]
    fn choices_vary_with_the_seed_and_follow_the_weights() {
        let start = Position::start();
        let legal = legal_moves(Variant::Brazilian, &start);
        let mut book = Book::new(Variant::Brazilian);
        book.insert(
            start,
            vec![
                BookMove {
                    mv: legal[0],
                    weight: Weight(900),
                },
                BookMove {
                    mv: legal[1],
                    weight: Weight(100),
                },
                BookMove {
                    mv: legal[2],
                    weight: Weight(0),
                },
            ],
        );
        let picks: Vec<Move> = (0..400)
            .map(|seed| choose(&book, &start, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap())
            .collect();
        let distinct: HashSet<_> = picks.iter().collect();
        assert_eq!(distinct.len(), 2, "both weighted moves are played");
        assert!(!picks.contains(&legal[2]), "weight 0 is never chosen");
        let heavy = picks.iter().filter(|&&m| m == legal[0]).count();
        assert!(
            heavy > 300,
            "the heavier move is chosen more often: {heavy}/400"
        );
        // The same seed repeats its choice.
        let again = choose(&book, &start, &mut ChaCha8Rng::seed_from_u64(5)).unwrap();
        assert_eq!(again, picks[5]);
        // A position outside the book has no book move.
        assert_eq!(
            choose(
                &book,
                &start.play(legal[0]),
                &mut ChaCha8Rng::seed_from_u64(1)
            ),
            None
        );
    }

    #[test]
    fn the_embedded_book_varies_the_first_move() {
        let book = Book::embedded(Variant::Brazilian);
        let start = Position::start();
        let firsts: HashSet<Move> = (0..64)
            .filter_map(|seed| choose(&book, &start, &mut ChaCha8Rng::seed_from_u64(seed)))
            .collect();
        assert!(firsts.len() >= 2, "{firsts:?}");
    }
}
