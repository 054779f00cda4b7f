//! The thesis' material count (man 1, king 3), in hundredths of a man.

use super::Evaluator;
use crate::position::{Color, Position};
use crate::score::Score;

/// The thesis' evaluator (§6.4.3): men 1, kings 3.
#[derive(Clone, Copy, Debug, Default)]
pub struct Material;

/// Value of a man in hundredths.
pub const MAN: i32 = 100;
/// Value of a king in hundredths.
pub const KING: i32 = 300;

impl Evaluator for Material {
    fn eval(&self, pos: &Position) -> Score {
        let side = pos.side_to_move();
        let v = |c: Color| MAN * pos.men(c).count() as i32 + KING * pos.kings_of(c).count() as i32;
        Score::centi(v(side) - v(side.opponent()))
    }
}
