//! FEN text: parsing never panics; a parsed position prints and parses back to
//! itself, and its legal moves print and parse back to themselves.
#![no_main]

use damas_rules::fen::{parse_fen, to_fen, to_fen_numeric};
use damas_rules::movegen::legal_moves;
use damas_rules::notation::{move_to_string, parse_move, Notation};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(pos) = parse_fen(text) else {
        return;
    };
    assert_eq!(parse_fen(&to_fen(&pos)), Ok(pos));
    assert_eq!(parse_fen(&to_fen_numeric(&pos)), Ok(pos));
    for &mv in legal_moves(Variant::Brazilian, &pos).iter() {
        let s = move_to_string(Variant::Brazilian, &pos, mv, Notation::Algebraic);
        assert_eq!(parse_move(Variant::Brazilian, &pos, &s), Ok(mv), "{s} in {text}");
        let _ = pos.play(mv);
    }
});
