//! The endgame-database verdict shown beside the board, read through the search's
//! [`Oracle`] (implemented by [`damas_egdb::Egdb`]); nothing is shown when there is
//! no database or it does not cover the position.

use std::fmt;

use damas_egdb::oracle::{Oracle, OracleValue};
use damas_rules::position::{Color, Position};

/// The game-theoretic value of a position (no move-count draw rules).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Verdict {
    /// The side that wins with best play; `None` for a draw.
    pub winner: Option<Color>,
    /// Plies to the end with best play, when known (to the next capture or
    /// promotion when `to_conversion`).
    pub plies: Option<u32>,
    /// `plies` counts to the next conversion (a `.dtc` distance file), not to the end.
    pub to_conversion: bool,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            None => f.write_str("draw"),
            Some(c) => {
                let name = if c == Color::White { "White" } else { "Black" };
                match self.plies {
                    Some(p) if self.to_conversion => {
                        write!(f, "{name} wins ({p} plies to a capture or promotion)")
                    }
                    Some(p) => write!(f, "{name} wins in {p} plies"),
                    None => write!(f, "{name} wins"),
                }
            }
        }
    }
}

/// The verdict of `oracle` (an endgame database) for `pos`, or `None` when the
/// position is not covered. Uses the search's [`Oracle`], so the UI and the engine
/// read the same database through one interface.
pub fn verdict(oracle: &dyn Oracle, pos: &Position) -> Option<Verdict> {
    if !oracle.covers(pos) {
        return None;
    }
    let v = oracle.probe_value(pos)?;
    let mover = pos.side_to_move();
    let winner = match v.value {
        OracleValue::Win => Some(mover),
        OracleValue::Loss => Some(mover.opponent()),
        OracleValue::Draw => None,
    };
    Some(Verdict {
        winner,
        plies: v.plies,
        to_conversion: v.to_conversion,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas_egdb::Egdb;
    use damas_rules::fen::parse_fen;
    use damas_rules::variant::Variant;

    #[test]
    fn verdicts_read_from_a_small_database() {
        let dir = tempfile::tempdir().unwrap();
        let opts = damas_egdb::BuildOptions {
            threads: 1,
            progress: false,
            dtc: false,
        };
        damas_egdb::build(dir.path(), 2, &opts, |_| {}).unwrap();
        let db = Egdb::open(Variant::Brazilian, dir.path()).unwrap();
        // A king against a man far from promotion: the king wins.
        let v = verdict(&db, &parse_fen("W:WKd4:Bb8").unwrap()).unwrap();
        assert_eq!(v.winner, Some(Color::White));
        assert!(v.to_string().starts_with("White wins"));
        // Beyond the database: nothing.
        assert_eq!(verdict(&db, &parse_fen("W:Wc3,e3,g3:Bb6").unwrap()), None);
    }

    #[test]
    fn distances_to_conversion_are_told_as_such() {
        let dir = tempfile::tempdir().unwrap();
        let opts = damas_egdb::BuildOptions {
            threads: 1,
            progress: false,
            dtc: true,
        };
        damas_egdb::slices::build::build_slices(Variant::Brazilian, dir.path(), 2, &opts, |_| {})
            .unwrap();
        let db = Egdb::open(Variant::Brazilian, dir.path()).unwrap();
        let v = verdict(&db, &parse_fen("W:WKd4:Bb8").unwrap()).unwrap();
        assert!(v.to_conversion);
        let p = v.plies.expect("a distance");
        assert_eq!(
            v.to_string(),
            format!("White wins ({p} plies to a capture or promotion)")
        );
    }
}
