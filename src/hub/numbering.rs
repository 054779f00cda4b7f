//! Square numbering of Hub moves. The position string numbers squares in the
//! lidraughts/FMJD order (1 = b8, 32 = g1). pydraughts' `HubEngine` (and so
//! lidraughts-bot, the client docs/bots.md describes) sends the position string in
//! that order but numbers the squares of its *moves* for Brazilian and Russian from
//! White's side (1 = a1, 32 = h8): the rows are reversed. That numbering,
//! [`MoveNumbering::RowsReversed`], is the default so that the client works without
//! an option; [`MoveNumbering::Standard`] numbers moves as the position string.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use damas_rules::moves::Move;
use damas_rules::notation::{move_to_string, parse_hub_move, MoveError, Notation};
use damas_rules::position::Position;
use damas_rules::variant::Variant;

/// How the numbers in Hub moves are read and written.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum MoveNumbering {
    /// Square numbers of docs/rules.md: 1 = b8 … 32 = g1, as in the position string.
    Standard,
    /// Rows reversed: 1 = a1, 4 = g1, … 32 = h8 (pydraughts, for both variants).
    #[default]
    RowsReversed,
}

/// An unknown numbering name.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown move numbering {0:?} (expected standard or rows-reversed)")]
pub struct NumberingError(pub String);

impl FromStr for MoveNumbering {
    type Err = NumberingError;
    fn from_str(s: &str) -> Result<MoveNumbering, NumberingError> {
        match s {
            "standard" => Ok(MoveNumbering::Standard),
            "rows-reversed" | "pydraughts" => Ok(MoveNumbering::RowsReversed),
            other => Err(NumberingError(other.to_string())),
        }
    }
}

impl fmt::Display for MoveNumbering {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveNumbering::Standard => "standard",
            MoveNumbering::RowsReversed => "rows-reversed",
        })
    }
}

/// Reverse the rows of square number `n` (an involution on 1..=32).
fn reverse_rows(n: u32) -> u32 {
    let i = n - 1;
    4 * (7 - i / 4) + i % 4 + 1
}

impl MoveNumbering {
    /// Rewrite every square number of a move text between this numbering and the
    /// standard one (the mapping is its own inverse).
    fn translate(self, text: &str) -> String {
        if self == MoveNumbering::Standard {
            return text.to_string();
        }
        let mut out = String::with_capacity(text.len());
        let mut digits = String::new();
        let flush = |digits: &mut String, out: &mut String| {
            match digits.parse::<u32>() {
                Ok(n) if (1..=32).contains(&n) => out.push_str(&reverse_rows(n).to_string()),
                _ => out.push_str(digits),
            }
            digits.clear();
        };
        for c in text.chars() {
            if c.is_ascii_digit() {
                digits.push(c);
            } else {
                flush(&mut digits, &mut out);
                out.push(c);
            }
        }
        flush(&mut digits, &mut out);
        out
    }

    /// The other numbering.
    pub fn other(self) -> MoveNumbering {
        match self {
            MoveNumbering::Standard => MoveNumbering::RowsReversed,
            MoveNumbering::RowsReversed => MoveNumbering::Standard,
        }
    }

    /// For a move refused in this numbering that the other numbering reads as a legal
    /// move: the note saying so and how to switch (`None` otherwise).
    pub fn other_reading(self, variant: Variant, pos: &Position, text: &str) -> Option<String> {
        let other = self.other();
        other.parse(variant, pos, text).ok().map(|_| {
            format!(
                "{text:?} is legal in the {other} numbering (set-param name=move-numbering value={other})"
            )
        })
    }

    /// Parse a Hub move written in this numbering, under the rules of `variant`.
    pub fn parse(self, variant: Variant, pos: &Position, text: &str) -> Result<Move, MoveError> {
        parse_hub_move(variant, pos, &self.translate(text))
    }

    /// Write a move of `variant` as a Hub move in this numbering (captured squares in increasing
    /// order of their numbers in this numbering, as pydraughts expects).
    pub fn format(self, variant: Variant, pos: &Position, mv: Move) -> String {
        if self == MoveNumbering::Standard || !mv.is_capture() {
            return self.translate(&move_to_string(variant, pos, mv, Notation::Hub));
        }
        let n = |s: damas_rules::square::Square| reverse_rows(u32::from(s.numeric()));
        let mut caps: Vec<u32> = mv.captured().iter().map(n).collect();
        caps.sort_unstable();
        let mut text = format!("{}x{}", n(mv.from()), n(mv.to()));
        for c in caps {
            text.push_str(&format!("x{c}"));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas_rules::movegen::legal_moves;
    use damas_rules::notation::move_to_string;

    #[test]
    fn a_move_of_the_other_numbering_is_named() {
        let p = Position::start();
        let n = MoveNumbering::default();
        assert_eq!(n, MoveNumbering::RowsReversed);
        // a3-b4 in rows-reversed; in standard it is the Black move 9-13, not legal here.
        assert!(n.parse(Variant::Brazilian, &p, "22-18").is_err());
        let note = n.other_reading(Variant::Brazilian, &p, "22-18").unwrap();
        assert!(note.contains("value=standard"), "{note}");
        let s = MoveNumbering::Standard;
        let note = s.other_reading(Variant::Russian, &p, "9-13").unwrap();
        assert!(note.contains("value=rows-reversed"), "{note}");
        assert_eq!(n.other_reading(Variant::Brazilian, &p, "1-2"), None);
    }

    #[test]
    fn rows_reversed_matches_pydraughts_start_moves() {
        let p = Position::start();
        // pydraughts lists White's first moves as 9-13 … 12-16 (a3-b4 … g3-h4).
        let n = MoveNumbering::RowsReversed;
        let m = n.parse(Variant::Brazilian, &p, "9-13").unwrap();
        assert_eq!(
            move_to_string(Variant::Brazilian, &p, m, Notation::Algebraic),
            "a3-b4"
        );
        assert_eq!(n.format(Variant::Brazilian, &p, m), "9-13");
        for &m in legal_moves(Variant::Brazilian, &p).iter() {
            assert_eq!(
                n.parse(Variant::Brazilian, &p, &n.format(Variant::Brazilian, &p, m))
                    .unwrap(),
                m
            );
            assert_eq!(
                MoveNumbering::Standard
                    .parse(
                        Variant::Brazilian,
                        &p,
                        &MoveNumbering::Standard.format(Variant::Brazilian, &p, m)
                    )
                    .unwrap(),
                m
            );
        }
        assert!((1..=32).all(|k| reverse_rows(reverse_rows(k)) == k));
        // Captured squares sorted in the reversed numbering: d4xb6xd8 over c5, c7.
        let q = damas_rules::fen::parse_fen("W:Wd4:Bc5,c7,h8").unwrap();
        let m = legal_moves(Variant::Brazilian, &q)[0];
        assert_eq!(
            move_to_string(Variant::Brazilian, &q, m, Notation::Hub),
            "18x2x6x14"
        );
        assert_eq!(n.format(Variant::Brazilian, &q, m), "14x30x18x26");
        assert_eq!(n.parse(Variant::Brazilian, &q, "14x30x26x18").unwrap(), m);
    }
}
