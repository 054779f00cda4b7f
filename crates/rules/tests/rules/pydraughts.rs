//! The move generator against an independent implementation: 264 positions from random
//! games, king-heavy placements and rule corner cases, with their legal move sets and
//! perft(Variant::Brazilian, 1..3) as computed by pydraughts (see
//! tools/fixtures/README.md).

use crate::canonical::canonical;
use damas_rules::movegen::legal_moves;
use damas_rules::notation::{move_to_string, parse_move, Notation};
use damas_rules::perft::perft;
use damas_rules::variant::Variant;
use damas_rules::{parse_fen, to_fen};

const DATA: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/fixtures/movegen.txt"
));

#[test]
fn movegen_matches_pydraughts() {
    let mut checked = 0;
    for (n, line) in DATA
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('|').collect();
        assert_eq!(f.len(), 5, "line {}", n + 1);
        let pos = parse_fen(f[0]).unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
        assert_eq!(
            parse_fen(&to_fen(&pos)).unwrap(),
            pos,
            "FEN round trip, line {}",
            n + 1
        );
        let list = legal_moves(Variant::Brazilian, &pos);
        let mut got: Vec<String> = list.iter().map(canonical).collect();
        got.sort();
        let mut want: Vec<String> = f[4].split_whitespace().map(String::from).collect();
        want.sort();
        assert_eq!(got, want, "moves of {} (line {})", f[0], n + 1);
        for d in 1..=3 {
            let expect: u64 = f[d].parse().unwrap();
            assert_eq!(
                perft(Variant::Brazilian, &pos, d as u32),
                expect,
                "perft(Variant::Brazilian, {d}) of {} (line {})",
                f[0],
                n + 1
            );
        }
        // Every move prints and parses back in each notation.
        for &m in list.iter() {
            for nt in [Notation::Algebraic, Notation::Numeric, Notation::Hub] {
                let s = move_to_string(Variant::Brazilian, &pos, m, nt);
                assert_eq!(
                    parse_move(Variant::Brazilian, &pos, &s),
                    Ok(m),
                    "{s} in {}",
                    f[0]
                );
            }
        }
        checked += 1;
    }
    assert!(checked >= 200, "only {checked} fixture positions");
}

/// The canonical generation order, recorded before the generator moved to the
/// ghost-square layout. It is part of the endgame database format (each entry's
/// best-move index counts in this order; the in-memory tables do too, the book stores
/// squares instead): a deliberate change must regenerate this fixture and bump
/// the database format versions (`damas_egdb::parts::file::FORMAT_VERSION`, the slice
/// format) so old databases are refused, not misread.
#[test]
fn generation_order_is_unchanged() {
    let data = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/fixtures/move_order.txt"
    ));
    let mut checked = 0;
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (fen, want) = line.split_once('|').expect("FEN|moves");
        let pos = parse_fen(fen).unwrap();
        let got: Vec<String> = legal_moves(Variant::Brazilian, &pos)
            .iter()
            .map(|&m| move_to_string(Variant::Brazilian, &pos, m, Notation::Algebraic))
            .collect();
        let want: Vec<&str> = want.split_whitespace().collect();
        assert_eq!(got, want, "generation order of {fen}");
        checked += 1;
    }
    assert!(checked >= 264, "only {checked} positions");
}
