//! The endgame-database verdict shown beside the board. The UI asks an [`Oracle`]
//! and shows nothing when there is none or it does not cover the position; the
//! endgame databases ([`crate::egdb::Egdb`]) are one.

use std::fmt;

use crate::egdb::{Egdb, Wdl};
use crate::position::{Color, Position};

/// The game-theoretic value of a position (no move-count draw rules).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Verdict {
    /// The side that wins with best play; `None` for a draw.
    pub winner: Option<Color>,
    /// Plies to the end with best play, when known.
    pub plies: Option<u32>,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            None => f.write_str("draw"),
            Some(c) => {
                let name = if c == Color::White { "White" } else { "Black" };
                match self.plies {
                    Some(p) => write!(f, "{name} wins in {p} plies"),
                    None => write!(f, "{name} wins"),
                }
            }
        }
    }
}

/// Something that knows the value of some positions (an endgame database).
pub trait Oracle {
    /// The verdict for `pos`, or `None` when it is not covered.
    fn probe(&self, pos: &Position) -> Option<Verdict>;
}

impl Oracle for Egdb {
    fn probe(&self, pos: &Position) -> Option<Verdict> {
        if pos.piece_count() as usize > self.max_pieces() {
            return None;
        }
        let v = self.probe_value(pos)?;
        let mover = pos.side_to_move();
        let winner = match v.wdl {
            Wdl::Win => Some(mover),
            Wdl::Loss => Some(mover.opponent()),
            Wdl::Draw => None,
        };
        Some(Verdict {
            winner,
            plies: v.distance.map(u32::from),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::parse_fen;

    #[test]
    fn verdicts_read_from_a_small_database() {
        let dir = tempfile::tempdir().unwrap();
        let opts = crate::egdb::BuildOptions {
            threads: 1,
            progress: false,
        };
        crate::egdb::build(dir.path(), 2, &opts, |_| {}).unwrap();
        let db = Egdb::open(dir.path()).unwrap();
        // A king against a man far from promotion: the king wins.
        let v = Oracle::probe(&db, &parse_fen("W:WKd4:Bb8").unwrap()).unwrap();
        assert_eq!(v.winner, Some(Color::White));
        assert!(v.to_string().starts_with("White wins"));
        // Beyond the database: nothing.
        assert_eq!(
            Oracle::probe(&db, &parse_fen("W:Wc3,e3,g3:Bb6").unwrap()),
            None
        );
    }
}
