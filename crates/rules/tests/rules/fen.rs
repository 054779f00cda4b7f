//! Property tests: FEN round trips in both forms over random valid positions, and
//! the parsers never panic on arbitrary text.

use damas_rules::fen::to_fen_numeric;
use damas_rules::notation::parse_move;
use damas_rules::variant::Variant;
use damas_rules::{parse_fen, to_fen, Bitboard, Color, Position};
use proptest::prelude::*;

/// Random valid positions: each square empty, white or black, man or king, with men
/// kept off their promotion rows and at most 12 pieces a side.
fn position() -> impl Strategy<Value = Position> {
    (proptest::collection::vec(0u8..5, 32), any::<bool>()).prop_map(|(cells, white_to_move)| {
        let (mut w, mut b, mut k) = (0u32, 0u32, 0u32);
        for (i, c) in cells.iter().enumerate() {
            let bit = 1u32 << i;
            let row = i / 4;
            match c {
                1 if row != 7 && w.count_ones() < 12 => w |= bit,
                2 if w.count_ones() < 12 => {
                    w |= bit;
                    k |= bit
                }
                3 if row != 0 && b.count_ones() < 12 => b |= bit,
                4 if b.count_ones() < 12 => {
                    b |= bit;
                    k |= bit
                }
                _ => {}
            }
        }
        let side = if white_to_move {
            Color::White
        } else {
            Color::Black
        };
        Position::from_parts(Bitboard(w), Bitboard(b), Bitboard(k), side).unwrap()
    })
}

proptest! {
    #[test]
    fn fen_round_trips(pos in position()) {
        prop_assert_eq!(parse_fen(&to_fen(&pos)).unwrap(), pos);
        prop_assert_eq!(parse_fen(&to_fen_numeric(&pos)).unwrap(), pos);
    }

    #[test]
    fn fen_parser_never_panics(s in "[WBK:,0-9a-hx .-]{0,40}") {
        let _ = parse_fen(&s);
    }

    #[test]
    fn move_parser_never_panics(pos in position(), s in "[a-h0-9x:X -]{0,16}") {
        let _ = parse_move(Variant::Brazilian, &pos, &s);
    }

    #[test]
    fn play_keeps_positions_valid(pos in position()) {
        for &m in damas_rules::movegen::legal_moves(Variant::Brazilian, &pos).iter() {
            let next = pos.play(m);
            prop_assert!(Position::from_parts(next.white(), next.black(), next.kings(), next.side_to_move()).is_ok());
            prop_assert_eq!(next.piece_count(), pos.piece_count() - m.captured().count());
        }
    }
}
