//! Move text against a few positions (the first byte picks one): parsing never
//! panics, and a parsed move is legal.
#![no_main]

use damas_rules::fen::parse_fen;
use damas_rules::movegen::legal_moves;
use damas_rules::notation::{parse_hub_move, parse_move};
use libfuzzer_sys::fuzz_target;

const POSITIONS: [&str; 4] = [
    "W:W21-32:B1-12",
    "W:Wc1,d2,e3,g3:Be5,g5",
    "W:WKa1,Kc3:Bb4,d6,f6,b6,d4",
    "B:WKb2,e3,g1,c5,e5:BKh8,d6,f4",
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let pos = parse_fen(POSITIONS[pick as usize % POSITIONS.len()]).expect("fixed FEN");
    let legal = legal_moves(Variant::Brazilian, &pos);
    for parsed in [parse_move(Variant::Brazilian, &pos, text), parse_hub_move(Variant::Brazilian, &pos, text)] {
        if let Ok(mv) = parsed {
            assert!(legal.contains(&mv), "{text:?} gave an illegal move");
        }
    }
});
