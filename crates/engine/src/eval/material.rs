//! The thesis' material count (man 1, king 3), in hundredths of a man.

use super::Evaluator;
use crate::score::Score;
use damas_rules::movegen::{Board, Padded};
use damas_rules::position::{Color, Position};

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

    /// The same count without converting layouts (counts do not depend on them).
    #[inline]
    fn eval_board(&self, board: &Board) -> Score {
        let kings = board.kings();
        let v = |p: Padded| MAN * (p & !kings).count() as i32 + KING * (p & kings).count() as i32;
        Score::centi(v(board.own()) - v(board.opp()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas_rules::fen::parse_fen;
    use damas_rules::movegen::legal_moves;
    use damas_rules::variant::Variant;

    #[test]
    fn board_count_agrees_with_the_position_count() {
        for fen in ["W:WK1,5,9,14,22:BK30,25,20,17", "B:WK1,K5,9:BK30,25"] {
            let mut pos = parse_fen(fen).unwrap();
            // Walk a line (first move each time) so both sides and promotions show up.
            for _ in 0..12 {
                let board = Board::from(&pos);
                assert_eq!(Material.eval_board(&board), Material.eval(&pos), "{pos:?}");
                let Some(&m) = legal_moves(Variant::Brazilian, &pos).first() else {
                    break;
                };
                pos = pos.play(m);
            }
        }
        let start = Position::start();
        assert_eq!(
            Material.eval_board(&Board::from(&start)),
            Material.eval(&start)
        );
    }
}
