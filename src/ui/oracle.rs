//! The hook for an endgame-database verdict. The databases live elsewhere (`egdb`);
//! the UI only asks an [`Oracle`] and shows nothing when there is none or it does not
//! know the position.

use std::fmt;

use crate::position::{Color, Position};

/// The game-theoretic value of a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// This side wins with best play.
    Win(Color),
    /// Draw with best play.
    Draw,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Win(Color::White) => f.write_str("White wins"),
            Verdict::Win(Color::Black) => f.write_str("Black wins"),
            Verdict::Draw => f.write_str("draw"),
        }
    }
}

/// Something that knows the value of some positions (an endgame database).
pub trait Oracle {
    /// The verdict for `pos`, or `None` when it is not covered.
    fn probe(&self, pos: &Position) -> Option<Verdict>;
}
