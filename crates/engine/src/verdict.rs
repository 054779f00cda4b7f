//! What a search's score proves, said no further than it is proven. A proven win
//! counts plies to the end only when its line was searched to the end or reaches a
//! database position whose distance to the end is stored; a line that reaches a
//! position the databases hold as won, with no such distance (win/draw/loss only, or
//! distances to the next conversion), proves the win but not its length.
//!
//! Every front end words its scores through [`verdict`]: `analyze`, the terminal
//! UI's panels, the review and the Hub's scores.

use std::fmt;
use std::sync::Arc;

use crate::score::Score;
use crate::search::SearchOptions;
use damas_egdb::oracle::{Oracle, OracleValue};
use damas_rules::movegen::legal_moves;
use damas_rules::moves::Move;
use damas_rules::position::{Color, Position};
use damas_rules::variant::Variant;

/// What is known of the length of a proven result.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Proof {
    /// The game ends this many plies from the root with best play: the line was
    /// searched to its end, or reaches a database position with a stored distance
    /// to the end.
    Plies(u32),
    /// The line reaches a position the databases hold as decided, this many plies
    /// from the root (when it lies on the line shown); how long the game lasts from
    /// there is not known.
    Database(Option<u32>),
    /// Proven, but the line shown stops before both the end and a database position:
    /// its length is not known.
    Unmeasured,
}

/// A score as told to a user: an evaluation, or a proven result with what is known
/// of its length.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Verdict {
    /// The score, of the side to move at the root.
    pub score: Score,
    /// For a proven result, what is known of its length; `None` for evaluations.
    pub proof: Option<Proof>,
}

impl Verdict {
    /// The plies to the end, when they are known.
    pub fn plies(&self) -> Option<u32> {
        match self.proof {
            Some(Proof::Plies(p)) => Some(p),
            _ => None,
        }
    }

    /// The same verdict from the other side's point of view.
    pub fn flipped(self) -> Verdict {
        Verdict {
            score: -self.score,
            proof: self.proof,
        }
    }

    /// The verdict in words, from White's side, `mover` being the side the score is
    /// of: `+0.35 for White`, `level (0.00)`, `Black wins in 4 moves (7 plies)`,
    /// `White wins (database position in 3 plies)`, `White wins (database position)`
    /// (this one), `White wins (database)` (one further on, not on the line shown).
    pub fn words(&self, mover: Color) -> String {
        let white = if mover == Color::White {
            self.score
        } else {
            -self.score
        };
        let leader = if white.value() > 0 { "White" } else { "Black" };
        let unit =
            |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        match self.proof {
            None if white.value() == 0 => "level (0.00)".to_string(),
            None => format!("+{:.2} for {leader}", white.as_men().abs()),
            Some(Proof::Plies(p)) => format!(
                "{leader} wins in {} ({})",
                unit(p.div_ceil(2), "move", "moves"),
                unit(p, "ply", "plies")
            ),
            Some(Proof::Database(None)) => format!("{leader} wins (database)"),
            Some(Proof::Database(Some(0))) => format!("{leader} wins (database position)"),
            Some(Proof::Database(Some(k))) => format!(
                "{leader} wins (database position in {})",
                unit(k, "ply", "plies")
            ),
            Some(Proof::Unmeasured) => format!("{leader} wins (length not proven)"),
        }
    }
}

impl fmt::Display for Verdict {
    /// The score as `analyze` prints it: `win 7` and `loss 4` only where the plies
    /// to the end are known, else `win` or `loss`; evaluations in hundredths of a
    /// man (`-150`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.plies(), self.proof) {
            (Some(p), _) if self.score.value() > 0 => write!(f, "win {p}"),
            (Some(p), _) => write!(f, "loss {p}"),
            (None, Some(_)) if self.score.value() > 0 => f.write_str("win"),
            (None, Some(_)) => f.write_str("loss"),
            (None, None) => write!(f, "{}", self.score.value()),
        }
    }
}

/// The database a search with `options` consults: its oracle when the `egdb`
/// technique is on (an oracle only kept at hand is not consulted).
pub fn consulted(options: &SearchOptions) -> Option<Arc<dyn Oracle>> {
    options
        .oracle()
        .filter(|_| options.techniques().egdb)
        .cloned()
}

/// The verdict of `score`, found by a search of `root` under the rules of `variant`
/// with `oracle` (the database it consulted, [`consulted`]), whose line is `pv`.
/// The count of a proven score is kept when the line ends the game at that count, or
/// reaches a database position whose distance to the end is stored; a line reaching
/// a decided database position without one proves the win only.
pub fn verdict(
    variant: Variant,
    oracle: Option<&dyn Oracle>,
    root: &Position,
    score: Score,
    pv: &[Move],
) -> Verdict {
    if !score.is_proven() {
        return Verdict { score, proof: None };
    }
    let proof = |p| Verdict {
        score,
        proof: Some(p),
    };
    // The positions of the line, from the root, as far as its moves are legal.
    let mut line = vec![*root];
    for &m in pv {
        let p = line[line.len() - 1];
        if !legal_moves(variant, &p).contains(&m) {
            break;
        }
        line.push(p.play(m));
    }
    let end = line.len() as u32 - 1;
    let last = line[line.len() - 1];
    let counted = score.plies();
    // Searched to the end: the line's last position has no move, or a move of its
    // last mover's leaves none (a quiescence leaf).
    let no_move = |p: &Position| legal_moves(variant, p).is_empty();
    if counted == Some(end) && no_move(&last) {
        return proof(Proof::Plies(end));
    }
    if counted == Some(end + 1)
        && legal_moves(variant, &last)
            .iter()
            .any(|&m| no_move(&last.play(m)))
    {
        return proof(Proof::Plies(end + 1));
    }
    let oracle = oracle
        .filter(|o| o.variant() == variant)
        .filter(|o| !o.root_only() || o.covers(root));
    let Some(oracle) = oracle else {
        // Without a database every counted score is a searched one; an uncounted
        // one can only come from a database.
        return proof(match counted {
            Some(p) => Proof::Plies(p),
            None if score.is_uncounted() => Proof::Database(None),
            None => Proof::Unmeasured,
        });
    };
    let decided = line.iter().enumerate().find_map(|(k, p)| {
        oracle
            .covers(p)
            .then(|| oracle.probe_value(p))
            .flatten()
            .filter(|a| a.value != OracleValue::Draw)
            .map(|a| (k as u32, a))
    });
    match decided {
        Some((k, a)) => match a.plies.filter(|_| !a.to_conversion) {
            Some(d) => proof(Proof::Plies(k + d)),
            None => proof(Proof::Database(Some(k))),
        },
        None if score.is_uncounted() => proof(Proof::Database(None)),
        None => proof(Proof::Unmeasured),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas_egdb::oracle::OracleAnswer;
    use damas_rules::fen::parse_fen;
    use damas_rules::notation::parse_move;

    /// A database of every position of at most `max` pieces, each won for the side to
    /// move, `plies` from the end (`to_conversion`: to the next conversion).
    struct AllWon {
        max: u32,
        plies: Option<u32>,
        to_conversion: bool,
    }

    impl Oracle for AllWon {
        fn probe(&self, _pos: &Position) -> Option<OracleAnswer> {
            Some(OracleAnswer {
                value: OracleValue::Win,
                best: None,
                plies: self.plies,
                to_conversion: self.to_conversion,
            })
        }
        fn max_pieces(&self) -> u32 {
            self.max
        }
    }

    fn line(pos: &Position, moves: &[&str]) -> Vec<Move> {
        let mut p = *pos;
        moves
            .iter()
            .map(|t| {
                let m = parse_move(Variant::Brazilian, &p, t).unwrap();
                p = p.play(m);
                m
            })
            .collect()
    }

    #[test]
    fn a_database_win_reached_by_search_does_not_claim_its_length() {
        // Five pieces; the capture leaves four, which the database holds as decided.
        let root = parse_fen("W:Wa1,c3,e3:Bd4,h8").unwrap();
        let pv = line(&root, &["e3xc5"]);
        let dtc = AllWon {
            max: 4,
            plies: Some(16),
            to_conversion: true,
        };
        // The search scored the capture as a win in 1 + 16 plies: 16 of them to the
        // next conversion, not to the end.
        let v = verdict(
            Variant::Brazilian,
            Some(&dtc),
            &root,
            -Score::win_in(17),
            &pv,
        );
        assert_eq!(v.proof, Some(Proof::Database(Some(1))));
        assert_eq!(
            v.words(Color::White),
            "Black wins (database position in 1 ply)"
        );
        assert_eq!(v.to_string(), "loss");
        // A stored distance to the end counts.
        let dtm = AllWon {
            to_conversion: false,
            ..dtc
        };
        let v = verdict(
            Variant::Brazilian,
            Some(&dtm),
            &root,
            -Score::win_in(17),
            &pv,
        );
        assert_eq!(v.proof, Some(Proof::Plies(17)));
        assert_eq!(v.words(Color::White), "Black wins in 9 moves (17 plies)");
        assert_eq!(v.to_string(), "loss 17");
        // Win/draw/loss only, at the root itself.
        let wdl = AllWon {
            max: 5,
            plies: None,
            to_conversion: false,
        };
        let far = Score::win_in(Score::UNKNOWN_DISTANCE + 40);
        let v = verdict(Variant::Brazilian, Some(&wdl), &root, far, &pv);
        assert_eq!(v.words(Color::White), "White wins (database position)");
        assert_eq!(v.to_string(), "win");
    }

    #[test]
    fn a_win_searched_to_the_end_keeps_its_count() {
        // White's capture takes Black's last piece: the game ends after one ply.
        let root = parse_fen("W:Wc3:Bd4").unwrap();
        let pv = line(&root, &["c3xe5"]);
        let dtc = AllWon {
            max: 1,
            plies: Some(9),
            to_conversion: true,
        };
        for oracle in [None, Some(&dtc as &dyn Oracle)] {
            let v = verdict(Variant::Brazilian, oracle, &root, Score::win_in(1), &pv);
            assert_eq!(v.words(Color::White), "White wins in 1 move (1 ply)");
            // The line may stop before its last capture (a quiescence leaf).
            let v = verdict(Variant::Brazilian, oracle, &root, Score::win_in(1), &[]);
            assert_eq!(v.proof, Some(Proof::Plies(1)));
        }
        // Without a database every proven count is a searched one.
        let v = verdict(Variant::Brazilian, None, &root, Score::win_in(7), &[]);
        assert_eq!(v.proof, Some(Proof::Plies(7)));
    }

    #[test]
    fn evaluations_are_in_men_from_whites_side() {
        let v = verdict(
            Variant::Brazilian,
            None,
            &Position::start(),
            Score::centi(-35),
            &[],
        );
        assert_eq!(v.proof, None);
        assert_eq!(v.words(Color::White), "+0.35 for Black");
        assert_eq!(v.words(Color::Black), "+0.35 for White");
        assert_eq!(v.to_string(), "-35");
        let even = verdict(
            Variant::Brazilian,
            None,
            &Position::start(),
            Score::DRAW,
            &[],
        );
        assert_eq!(even.words(Color::White), "level (0.00)");
    }
}
