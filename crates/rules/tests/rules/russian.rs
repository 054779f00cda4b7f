//! The Russian rules where they differ from the Brazilian ones (docs/rules.md): free
//! choice of capture and crowning during a capture. One hand-built position each;
//! moves are written as in `brazilian.rs`.

use crate::canonical::canonical;
use damas_rules::movegen::{count_moves_with, generate, legal_moves};
use damas_rules::notation::{move_to_string, parse_move, Notation};
use damas_rules::variant::Russian;
use damas_rules::{parse_fen, Kind, MoveList, Position, Square, Variant};

fn russian(pos: &Position) -> MoveList {
    let list = legal_moves(Variant::Russian, pos);
    assert_eq!(count_moves_with::<Russian>(pos), list.len(), "bulk count");
    list
}

fn moves(fen: &str) -> Vec<String> {
    let mut v: Vec<String> = russian(&parse_fen(fen).unwrap())
        .iter()
        .map(canonical)
        .collect();
    v.sort();
    v
}

fn sq(s: &str) -> Square {
    Square::from_algebraic(s).unwrap()
}

#[test]
fn a_man_crowned_mid_capture_goes_on_as_a_king() {
    // f6xd8 over e7 reaches rank 8: crowned, it goes on as a king over c7 and may land
    // on b6 or a5 (as a man, under the Brazilian rules, only b6). The taken e7 stays on
    // the board until the move ends, so the king cannot go on down d8-h4.
    let fen = "W:Wf6:Bc7,e7";
    assert_eq!(moves(fen), ["f6xa5:c7,e7", "f6xb6:c7,e7"]);
    let pos = parse_fen(fen).unwrap();
    for &m in russian(&pos).iter() {
        assert!(m.crowned(), "{m:?}");
        let after = pos.play(m);
        assert_eq!(after.piece_at(m.to()).unwrap().kind, Kind::King, "{m:?}");
    }
    let brazilian = legal_moves(Variant::Brazilian, &pos);
    assert_eq!(brazilian.len(), 1);
    assert!(!brazilian[0].crowned());
    assert_eq!(
        pos.play(brazilian[0]).piece_at(sq("b6")).unwrap().kind,
        Kind::Man
    );
}

#[test]
fn the_crowned_man_captures_along_a_new_diagonal() {
    // b6xd8 over c7, then as a king down d8-h4 over f6 to g5 or h4; Brazilian stops
    // on d8.
    assert_eq!(moves("W:Wb6:Bc7,f6"), ["b6xg5:f6,c7", "b6xh4:f6,c7"]);
    // Black crowns on c1 and goes on as a king over b2 to a3.
    assert_eq!(moves("B:Wd2,b2,g5:Be3,h8"), ["e3xa3:b2,d2"]);
}

#[test]
fn any_capture_may_be_chosen_not_only_the_longest() {
    // c3 takes two (d4, f6), a5 takes one (b6): both are legal, and the two-piece
    // capture must be completed (no stopping on e5).
    let fen = "W:Wc3,a5:Bd4,f6,b6";
    assert_eq!(moves(fen), ["a5xc7:b6", "c3xg7:d4,f6"]);
    let pos = parse_fen(fen).unwrap();
    assert_eq!(
        legal_moves(Variant::Brazilian, &pos).len(),
        1,
        "Brazilian keeps the majority rule"
    );
    // Captures stay compulsory.
    assert!(russian(&pos).iter().all(|m| m.is_capture()));
}

#[test]
fn a_king_lands_where_it_can_go_on_capturing() {
    // a1 takes c3 and may land on d4 or e5; only from e5 can it go on (over c7), so it
    // must land there: a1xd4 is no move, though captures are otherwise free.
    assert_eq!(
        moves("W:WKa1,Kh2,a5,c5:BKc7,c3,f6,g7"),
        ["a1xb8:c3,c7", "h2xb8:c7"]
    );
    // With nowhere to go on, every landing square ends the capture.
    assert_eq!(
        moves("W:WKa1:Bc3"),
        ["a1xd4:c3", "a1xe5:c3", "a1xf6:c3", "a1xg7:c3", "a1xh8:c3"]
    );
}

#[test]
fn a_man_ending_its_capture_on_the_far_row_is_crowned() {
    let pos = parse_fen("W:Wd6:Bc7,a3").unwrap();
    let list = russian(&pos);
    assert_eq!(list.iter().map(canonical).collect::<Vec<_>>(), ["d6xb8:c7"]);
    assert_eq!(
        pos.play(list[0]).piece_at(sq("b8")).unwrap().kind,
        Kind::King
    );
}

#[test]
fn moves_print_and_parse_back_under_the_russian_rules() {
    for fen in [
        "W:Wf6:Bc7,e7",
        "W:Wb6:Bc7,f6",
        "W:Wc3,a5:Bd4,f6,b6",
        "W:WKa1,c5,e5,Kh2:Bb6,d6,f6,Kd8,c3,g7",
    ] {
        let pos = parse_fen(fen).unwrap();
        let mut list = MoveList::new();
        generate(Variant::Russian, &pos, &mut list);
        for &m in list.iter() {
            for notation in [Notation::Algebraic, Notation::Numeric, Notation::Hub] {
                let text = move_to_string(Variant::Russian, &pos, m, notation);
                assert_eq!(
                    parse_move(Variant::Russian, &pos, &text),
                    Ok(m),
                    "{fen}: {text}"
                );
            }
        }
    }
    // The crowned king's landing is not a Brazilian move.
    let pos = parse_fen("W:Wf6:Bc7,e7").unwrap();
    assert!(parse_move(Variant::Russian, &pos, "f6xa5").is_ok());
    assert!(parse_move(Variant::Brazilian, &pos, "f6xa5").is_err());
}
