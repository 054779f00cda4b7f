//! One hand-built position per rule subtlety of docs/rules.md. Expected move sets were
//! worked out by hand; moves are written `from-to` or `fromxto:captured,…` with the
//! captured squares in (rank, file) order.

use crate::canonical::canonical;
use damas_rules::movegen::{count_moves_with, has_capture, legal_moves};
use damas_rules::variant::Brazilian;
use damas_rules::variant::Variant;
use damas_rules::{parse_fen, Kind, Position, Square};

fn moves(fen: &str) -> Vec<String> {
    let pos = parse_fen(fen).unwrap();
    let list = legal_moves(Variant::Brazilian, &pos);
    assert_eq!(
        count_moves_with::<Brazilian>(&pos),
        list.len(),
        "bulk count of {fen}"
    );
    assert_eq!(
        has_capture(&pos),
        list.iter().any(|m| m.is_capture()),
        "has_capture of {fen}"
    );
    let mut v: Vec<String> = list.iter().map(canonical).collect();
    v.sort();
    v
}

fn sq(s: &str) -> Square {
    Square::from_algebraic(s).unwrap()
}

#[test]
fn majority_king_beats_man() {
    // The man a3 can take 2 (b4 then b6 or d6); the king h2 takes 4 around the board.
    assert_eq!(
        moves("W:Wa3,Kh2:Bb4,b6,f4,d6"),
        [
            "h2xc3:b4,f4,b6,d6",
            "h2xd2:b4,f4,b6,d6",
            "h2xe1:b4,f4,b6,d6"
        ]
    );
}

#[test]
fn majority_man_beats_king() {
    // The king g1 can take only d4; the man c3 takes d4 and f6.
    assert_eq!(moves("W:Wc3,Kg1:Bd4,f6"), ["c3xg7:d4,f6"]);
}

#[test]
fn majority_counts_kings_and_men_alike() {
    // Two captures of one piece each, one of a king and one of a man: both legal.
    assert_eq!(moves("W:Wa3,g3:Bb4,Kf4"), ["a3xc5:b4", "g3xe5:f4"]);
    // A man's one-piece capture loses to a two-piece one through a king.
    assert_eq!(moves("W:Wc3,e3:Bd4,Kf4"), ["c3xg3:d4,f4"]);
}

#[test]
fn man_passing_back_row_mid_capture_stays_a_man() {
    // f6xd8 reaches rank 8 but must go on over c7 to b6, as a man: a king on d8
    // could also land on a5, which must not be offered.
    let fen = "W:Wf6:Bc7,e7";
    assert_eq!(moves(fen), ["f6xb6:c7,e7"]);
    let pos = parse_fen(fen).unwrap();
    let after = pos.play(legal_moves(Variant::Brazilian, &pos)[0]);
    assert_eq!(after.piece_at(sq("b6")).unwrap().kind, Kind::Man);
}

#[test]
fn man_promotes_at_end_of_capture() {
    let pos = parse_fen("W:Wd6:Bc7,a3").unwrap();
    let list = legal_moves(Variant::Brazilian, &pos);
    assert_eq!(list.iter().map(canonical).collect::<Vec<_>>(), ["d6xb8:c7"]);
    assert_eq!(
        pos.play(list[0]).piece_at(sq("b8")).unwrap().kind,
        Kind::King
    );
}

#[test]
fn man_promotes_on_quiet_step() {
    let pos = parse_fen("W:Wb6,c7:Ba3").unwrap();
    let m = legal_moves(Variant::Brazilian, &pos)
        .iter()
        .copied()
        .find(|m| m.to() == sq("d8"))
        .unwrap();
    assert_eq!(pos.play(m).piece_at(sq("d8")).unwrap().kind, Kind::King);
}

#[test]
fn king_landing_choices() {
    assert_eq!(moves("W:WKa1:Bd4,h8"), ["a1xe5:d4", "a1xf6:d4", "a1xg7:d4"]);
    // When a landing square allows a further capture, only continuing landings are
    // legal; the two paths over c3 (via d4 or e5) are one move each.
    assert_eq!(moves("W:WKa1:Bc3,f6"), ["a1xg7:c3,f6", "a1xh8:c3,f6"]);
}

#[test]
fn jumped_piece_blocks_later_jump() {
    // Turkish strike: after a1xc3, e5xd6, c7xb6 the king on a5 would take d2 if c3
    // were already gone; it is not, so the capture stops at a5 with three pieces.
    assert_eq!(moves("W:WKa1:Bc3,d6,b6,d2"), ["a1xa5:c3,b6,d6"]);
}

#[test]
fn revisiting_a_square_but_no_piece_twice() {
    // The man goes round d4, d6, b6, b4 back to c3 (either way round: one move).
    assert_eq!(moves("W:Wc3:Bb4,d4,b6,d6"), ["c3xc3:b4,d4,b6,d6"]);
}

#[test]
fn men_capture_backwards_but_step_forwards() {
    assert_eq!(moves("W:Wd4:Bc3,h8"), ["d4xb2:c3"]);
    assert_eq!(moves("B:Wa1:Bd4"), ["d4-c3", "d4-e3"]);
    assert_eq!(moves("B:Wc5:Bd4,h8"), ["d4xb6:c5"]);
}

#[test]
fn no_own_piece_jumps() {
    // The king a1 is blocked by its own man on c3; only the man captures.
    assert_eq!(moves("W:WKa1,c3:Bd4"), ["c3xe5:d4"]);
    assert_eq!(moves("W:Wc3,d4:Bh8"), ["c3-b4", "d4-c5", "d4-e5"]);
}

#[test]
fn blocked_side_loses() {
    let pos = parse_fen("B:Wa1,c1:Bb2").unwrap();
    assert!(legal_moves(Variant::Brazilian, &pos).is_empty());
    assert_eq!(count_moves_with::<Brazilian>(&pos), 0);
    assert!(legal_moves(Variant::Brazilian, &parse_fen("W:W:Bb2").unwrap()).is_empty());
}

#[test]
fn flying_king_quiet_moves_stop_at_pieces() {
    // King d4: e5 (then own f6), c5 b6 (a7 is black, nothing beyond), e3 f2 g1, c3 b2 a1; man f6: e7 g7.
    assert_eq!(moves("W:WKd4,f6:Bh8,a7").len(), 1 + 2 + 3 + 3 + 2);
    let start = Position::start();
    assert_eq!(moves(&damas_rules::fen::to_fen(&start)).len(), 7);
}

#[test]
fn generation_order_is_canonical() {
    // Stored move indices (endgame database, TT) rely on this order: captures by
    // start square, then direction NE, NW, SE, SW, whichever generator path runs.
    let list = legal_moves(
        Variant::Brazilian,
        &parse_fen("W:Wc3,g3:Bb4,d4,f4,h4").unwrap(),
    );
    let got: Vec<String> = list.iter().map(canonical).collect();
    assert_eq!(got, ["c3xe5:d4", "c3xa5:b4", "g3xe5:f4"]);
}
