//! The thesis' test set (§6.6): positions reached from the start by `k` uniformly
//! random legal moves, an equal number for every `k`. A game that ends before (or at)
//! move `k` is thrown away and replayed, so every position has a move to search.
//!
//! File format: one position per line, `FEN k` (algebraic FEN, then the number of
//! moves played); lines starting with `#` are comments (the generator records its
//! seed there).

use damas_rules::variant::Variant;
use std::fmt;
use std::ops::RangeInclusive;
use std::path::Path;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use damas_rules::fen::{parse_fen, to_fen, FenError};
use damas_rules::game::Game;
use damas_rules::movegen::legal_moves;
use damas_rules::position::Position;

/// The seed of the committed set `data/positions/thesis-8750.fen`.
pub const THESIS_SEED: u64 = 2006;

/// Moves played from the start to reach a test position (the thesis' game phase).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct MovesPlayed(pub u32);

impl fmt::Display for MovesPlayed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// One test position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TestPosition {
    /// The position.
    pub position: Position,
    /// How many random moves led to it.
    pub k: MovesPlayed,
}

/// What to generate: `per_k` positions for every `k` in `moves`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateSpec {
    /// Seed of the ChaCha8 generator.
    pub seed: u64,
    /// Numbers of random moves.
    pub moves: RangeInclusive<u32>,
    /// Positions per number of moves.
    pub per_k: usize,
}

impl GenerateSpec {
    /// The thesis' protocol: 250 positions for each k = 6…40 (8,750 in all).
    pub fn thesis(seed: u64) -> GenerateSpec {
        GenerateSpec {
            seed,
            moves: 6..=40,
            per_k: 250,
        }
    }
}

/// Generate the set, ordered by `k` then by draw. Deterministic for a given spec.
pub fn generate(spec: &GenerateSpec) -> Vec<TestPosition> {
    let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
    let mut out = Vec::with_capacity(spec.per_k * spec.moves.clone().count());
    for k in spec.moves.clone() {
        for _ in 0..spec.per_k {
            out.push(TestPosition {
                position: random_position(&mut rng, k),
                k: MovesPlayed(k),
            });
        }
    }
    out
}

/// Play `k` uniformly random legal moves from the start; replay while the game ends
/// (by the rules or the draw rules of docs/rules.md) on the way or at the end.
fn random_position(rng: &mut ChaCha8Rng, k: u32) -> Position {
    'replay: loop {
        let mut game = Game::new(Variant::Brazilian, Position::start());
        for _ in 0..k {
            let moves = legal_moves(Variant::Brazilian, &game.position());
            let Some(&mv) = moves.choose(rng) else {
                continue 'replay;
            };
            game.play(mv);
            if game.result().is_some() {
                continue 'replay;
            }
        }
        return game.position();
    }
}

/// The file text: a comment header, then `FEN k` per line.
pub fn format_positions(positions: &[TestPosition], header: &str) -> String {
    let mut s = String::new();
    for line in header.lines() {
        s.push_str("# ");
        s.push_str(line);
        s.push('\n');
    }
    for p in positions {
        s.push_str(&format!("{} {}\n", to_fen(&p.position), p.k));
    }
    s
}

/// A bad line in a positions file.
#[derive(Debug, Error)]
pub enum PositionsError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A line without the `FEN k` shape.
    #[error("line {line}: expected `FEN k`, found {text:?}")]
    Shape {
        /// 1-based line number.
        line: usize,
        /// The line.
        text: String,
    },
    /// The FEN does not parse.
    #[error("line {line}: {source}")]
    Fen {
        /// 1-based line number.
        line: usize,
        /// Why.
        source: FenError,
    },
}

/// Parse a positions file's text.
pub fn parse_positions(text: &str) -> Result<Vec<TestPosition>, PositionsError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let shape = || PositionsError::Shape {
            line: i + 1,
            text: raw.to_string(),
        };
        let mut parts = line.split_whitespace();
        let (Some(fen), Some(k), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(shape());
        };
        let k: u32 = k.parse().map_err(|_| shape())?;
        let position = parse_fen(fen).map_err(|source| PositionsError::Fen {
            line: i + 1,
            source,
        })?;
        out.push(TestPosition {
            position,
            k: MovesPlayed(k),
        });
    }
    Ok(out)
}

/// Read a positions file.
pub fn read_positions(path: &Path) -> Result<Vec<TestPosition>, PositionsError> {
    let text = std::fs::read_to_string(path).map_err(|source| PositionsError::Io {
        path: path.display().to_string(),
        source,
    })?;
    parse_positions(&text)
}

/// Indices of an even sample of `n` positions over `k`: the first positions of each
/// `k` in turn (one of every `k`, then a second of every `k`, …), so any prefix of the
/// result is itself balanced. `None` takes all, in the same interleaved order.
pub fn sample_even(positions: &[TestPosition], n: Option<usize>) -> Vec<usize> {
    let mut groups: std::collections::BTreeMap<MovesPlayed, Vec<usize>> = Default::default();
    for (i, p) in positions.iter().enumerate() {
        groups.entry(p.k).or_default().push(i);
    }
    let limit = n.unwrap_or(positions.len()).min(positions.len());
    let mut out = Vec::with_capacity(limit);
    let mut round = 0;
    while out.len() < limit {
        for g in groups.values() {
            if let Some(&i) = g.get(round) {
                if out.len() < limit {
                    out.push(i);
                }
            }
        }
        round += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas_rules::variant::Variant;

    fn small(seed: u64) -> GenerateSpec {
        GenerateSpec {
            seed,
            moves: 6..=12,
            per_k: 4,
        }
    }

    #[test]
    fn deterministic_for_a_seed() {
        assert_eq!(generate(&small(7)), generate(&small(7)));
        assert_ne!(generate(&small(7)), generate(&small(8)));
    }

    #[test]
    fn every_position_has_k_plies_and_a_move() {
        let set = generate(&small(1));
        assert_eq!(set.len(), 7 * 4);
        for p in &set {
            assert!(!legal_moves(Variant::Brazilian, &p.position).is_empty());
            // k plies from the start: the side to move alternates with k.
            let white_to_move = p.position.side_to_move() == damas_rules::position::Color::White;
            assert_eq!(white_to_move, p.k.0 % 2 == 0);
        }
    }

    #[test]
    fn file_round_trip() {
        let set = generate(&small(3));
        let text = format_positions(&set, "seed 3\nsecond line");
        assert!(text.starts_with("# seed 3\n# second line\n"));
        assert_eq!(parse_positions(&text).unwrap(), set);
    }

    #[test]
    fn bad_lines_say_where() {
        let e = parse_positions("# c\nW:Wa1:Bh8 6\nW:Wa1:Bh8\n").unwrap_err();
        assert!(matches!(e, PositionsError::Shape { line: 3, .. }), "{e}");
        let e = parse_positions("W:Wz9:Bh8 6\n").unwrap_err();
        assert!(matches!(e, PositionsError::Fen { line: 1, .. }), "{e}");
    }

    #[test]
    fn sample_is_even_over_k() {
        let set = generate(&small(2));
        let idx = sample_even(&set, Some(14));
        let mut per_k = std::collections::BTreeMap::new();
        for &i in &idx {
            *per_k.entry(set[i].k).or_insert(0) += 1;
        }
        assert_eq!(per_k.len(), 7);
        assert!(per_k.values().all(|&c| c == 2));
        assert_eq!(sample_even(&set, None).len(), set.len());
    }
}
