//! How a game ends: the reason ([`EndReason`]: no move, no pieces, a draw rule, the
//! clock) and the result ([`GameResult`]), shared by the game record and the draw rules.

use std::fmt;

use crate::position::Color;

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EndReason {
    /// The side to move has no legal move (all its pieces are blocked).
    NoMoves,
    /// A side has no pieces left.
    NoPieces,
    /// The same position with the same side to move occurred three times.
    Repetition,
    /// 15 moves each (30 plies) with only kings moving and no capture.
    KingMoves,
    /// Three or more kings against a lone king for 15 moves.
    ThreeKingsVsKing,
    /// Two pieces (at least one king) against a lone king for 5 moves.
    TwoVsKing,
    /// Three pieces (at least one king) against a lone king on the long diagonal for 5 moves.
    ThreeVsKingOnDiagonal,
    /// Equal material with kings, 4–5 pieces each, for 30 moves.
    EqualMaterial30,
    /// Equal material with kings, 6–7 pieces each, for 60 moves.
    EqualMaterial60,
    /// The side to move ran out of time on a game clock (flag fall; decided outside
    /// [`Game`](crate::game::Game), which has no clock).
    Time,
}

impl EndReason {
    /// A sentence for the user.
    pub fn describe(self) -> &'static str {
        match self {
            EndReason::NoMoves => "no legal move",
            EndReason::NoPieces => "no pieces left",
            EndReason::Repetition => "threefold repetition",
            EndReason::KingMoves => "15 moves each with only kings and no capture",
            EndReason::ThreeKingsVsKing => "three kings against a lone king for 15 moves",
            EndReason::TwoVsKing => "two pieces against a lone king for 5 moves",
            EndReason::ThreeVsKingOnDiagonal => {
                "three pieces against a lone king on the long diagonal for 5 moves"
            }
            EndReason::EqualMaterial30 => "equal material (4-5 each) for 30 moves",
            EndReason::EqualMaterial60 => "equal material (6-7 each) for 60 moves",
            EndReason::Time => "time ran out",
        }
    }
}

/// The end of a game: the winner (`None` for a draw) and why.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GameResult {
    /// Who won; `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl fmt::Display for GameResult {
    /// `White wins (no pieces left), 2-0`, `draw (threefold repetition), 1-1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(Color::White) => f.write_str("White wins")?,
            Some(Color::Black) => f.write_str("Black wins")?,
            None => f.write_str("draw")?,
        }
        write!(f, " ({}), {}", self.reason.describe(), self.pdn())
    }
}

impl GameResult {
    /// The PDN result string: `2-0`, `0-2` or `1-1`.
    pub fn pdn(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "2-0",
            Some(Color::Black) => "0-2",
            None => "1-1",
        }
    }
}
