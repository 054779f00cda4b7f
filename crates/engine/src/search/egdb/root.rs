//! Following an endgame database at the root without losing the win to the
//! king-move rule. A database's distance ignores the rules that count moves: the
//! slices' distances run to the next capture or promotion, and a long one may be
//! all king moves, which the rule of 15 king moves each without capture
//! ([`KING_MOVE_PLIES`]) draws first. When the count so far and the distance reach
//! the limit, the winner plays a man move that keeps the win instead: it resets the
//! count, and since men only move forward, such moves run out only by promoting,
//! which is progress too.

use damas_egdb::oracle::{Oracle, OracleAnswer, OracleValue};
use damas_rules::drawrules::KING_MOVE_PLIES;
use damas_rules::moves::{Move, MoveList};
use damas_rules::position::Position;

/// The man move to play instead of the database's best move at the root `pos`
/// (won, `answer`), after `kings_only` plies of king moves without capture: the
/// winning man move of shortest distance, when the database's line could reach the
/// king-move limit first. `None`: play the database's move.
pub(crate) fn man_move_before_the_count(
    oracle: &dyn Oracle,
    pos: &Position,
    list: &MoveList,
    answer: &OracleAnswer,
    kings_only: usize,
) -> Option<Move> {
    // A distance to the end passes through the conversions that reset the count.
    if answer.value != OracleValue::Win || !answer.to_conversion {
        return None;
    }
    let plies = answer.plies? as usize;
    if kings_only + plies < KING_MOVE_PLIES {
        return None;
    }
    let men = pos.men(pos.side_to_move());
    list.iter()
        .filter(|m| !m.is_capture() && men.contains(m.from()))
        .filter_map(|&m| {
            let a = oracle.probe_value(&pos.play(m))?;
            (a.value == OracleValue::Loss).then(|| (a.plies.unwrap_or(u32::MAX), m))
        })
        .min()
        .map(|(_, m)| m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas_rules::fen::parse_fen;
    use damas_rules::movegen::legal_moves;
    use damas_rules::notation::parse_move;
    use damas_rules::variant::Variant;

    /// A database double: the root is won in 20 plies by a king move; after the
    /// man moves listed, the opponent loses (with the plies given); every other
    /// position is a draw.
    struct Double {
        root: Position,
        losing: Vec<(Position, u32)>,
    }

    impl Oracle for Double {
        fn probe(&self, pos: &Position) -> Option<OracleAnswer> {
            let (value, plies) = if *pos == self.root {
                (OracleValue::Win, Some(20))
            } else if let Some(&(_, p)) = self.losing.iter().find(|(q, _)| q == pos) {
                (OracleValue::Loss, Some(p))
            } else {
                (OracleValue::Draw, None)
            };
            Some(OracleAnswer {
                value,
                best: None,
                plies,
                to_conversion: true,
            })
        }
        fn max_pieces(&self) -> u32 {
            32
        }
    }

    #[test]
    fn a_winning_man_move_comes_before_the_king_move_count_runs_out() {
        let root = parse_fen("W:WKa1,Kc1,e3,g3:BKh8").unwrap();
        let list = legal_moves(Variant::Brazilian, &root);
        let after = |text: &str| root.play(parse_move(Variant::Brazilian, &root, text).unwrap());
        // e3-f4 keeps the win in 25, g3-h4 in 31; e3-d4 and g3-f4 draw.
        let db = Double {
            root,
            losing: vec![(after("e3-f4"), 25), (after("g3-h4"), 31)],
        };
        let answer = db.probe(&root).unwrap();
        let pick = |kings_only| man_move_before_the_count(&db, &root, &list, &answer, kings_only);
        // 20 plies to go and a fresh count: the database's move.
        assert_eq!(pick(0), None);
        assert_eq!(pick(9), None);
        // 10 + 20 plies reach the limit: the shortest winning man move.
        assert_eq!(
            pick(10),
            Some(parse_move(Variant::Brazilian, &root, "e3-f4").unwrap())
        );
        // A distance to the end: the database's move.
        let to_end = OracleAnswer {
            to_conversion: false,
            ..answer
        };
        assert_eq!(
            man_move_before_the_count(&db, &root, &list, &to_end, 29),
            None
        );
        // No winning man move: the database's move.
        let no_men = Double {
            root,
            losing: vec![],
        };
        assert_eq!(
            man_move_before_the_count(&no_men, &root, &list, &answer, 29),
            None
        );
        // Only wins are changed.
        let drawn = OracleAnswer {
            value: OracleValue::Draw,
            best: None,
            plies: None,
            to_conversion: false,
        };
        assert_eq!(
            man_move_before_the_count(&db, &root, &list, &drawn, 29),
            None
        );
    }
}
