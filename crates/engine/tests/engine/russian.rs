//! The search under Russian rules: it generates Russian moves, finds a man's
//! promotion during a capture that goes on as a king, and never plays a move the
//! Russian rules forbid, whichever table and thread count it uses.

use std::sync::atomic::AtomicBool;

use damas_engine::eval::Evaluation;
use damas_engine::search::{Limits, SearchOptions, SearchResult, Searcher};
use damas_rules::fen::parse_fen;
use damas_rules::movegen::legal_moves;
use damas_rules::notation::{move_to_string, Notation};
use damas_rules::position::{Color, Position};
use damas_rules::variant::Variant;

/// White's man b6 takes c7, is crowned on d8 and goes on as a king over f6 (two
/// pieces and a king); the other capture, a3xc5, loses b6 to c7. Under Brazilian
/// rules the man stops on d8.
const PROMOTION: &str = "W:Wb6,a3,h2:Bc7,f6,b4,h8";

fn search(
    options: SearchOptions,
    pos: &Position,
    history: &[Position],
    depth: u32,
) -> SearchResult {
    let stop = AtomicBool::new(false);
    Searcher::new(options).search(pos, history, &Limits::depth(depth), &stop, &mut |_| {})
}

fn russian() -> SearchOptions {
    SearchOptions::default()
        .with_variant(Variant::Russian)
        .with_hash_mb(4)
}

#[test]
fn the_position_tells_the_rules_apart() {
    let pos = parse_fen(PROMOTION).unwrap();
    let russian = legal_moves(Variant::Russian, &pos);
    assert!(russian.iter().any(|m| m.crowned()), "{russian:?}");
    assert!(legal_moves(Variant::Brazilian, &pos)
        .iter()
        .all(|m| !m.crowned()));
    assert_ne!(
        russian.iter().collect::<Vec<_>>(),
        legal_moves(Variant::Brazilian, &pos)
            .iter()
            .collect::<Vec<_>>()
    );
}

#[test]
fn the_search_plays_the_promotion_that_goes_on_as_a_king() {
    let pos = parse_fen(PROMOTION).unwrap();
    for options in [
        russian(),
        russian().with_eval(Evaluation::Material),
        russian().with_thesis_table(16),
        russian().with_threads(2),
    ] {
        let r = search(options.clone(), &pos, &[], 8);
        let best = r.best.expect("a move");
        assert!(best.crowned(), "{options:?}: {best:?}");
        assert!(legal_moves(Variant::Russian, &pos).contains(&best));
        // The principal variation is played under Russian rules, move by move.
        let mut p = pos;
        for &m in &r.pv {
            assert!(
                legal_moves(Variant::Russian, &p).contains(&m),
                "{m:?} in {p:?}"
            );
            p = p.play(m);
        }
        let text = move_to_string(Variant::Russian, &pos, best, Notation::Algebraic);
        assert!(text.starts_with("b6x"), "{text}");
        let after = pos.play(best);
        assert!(
            after.kings_of(Color::White).any(),
            "the man goes on as a king"
        );
    }
    // The same position under Brazilian rules: the man stops on d8.
    let r = search(SearchOptions::default().with_hash_mb(4), &pos, &[], 8);
    assert!(!r.best.unwrap().crowned());
}

#[test]
fn a_russian_game_of_searches_plays_only_legal_moves() {
    // Both sides searched by one searcher (table, killers and history kept across
    // moves), from the start, until the game ends or 60 plies.
    let mut searcher = Searcher::new(russian().with_eval(Evaluation::Material));
    let stop = AtomicBool::new(false);
    let mut pos = Position::start();
    let mut history = Vec::new();
    for _ in 0..60 {
        let legal = legal_moves(Variant::Russian, &pos);
        if legal.is_empty() {
            break;
        }
        let r = searcher.search(&pos, &history, &Limits::depth(5), &stop, &mut |_| {});
        let m = r.best.expect("a move while there are legal moves");
        assert!(legal.contains(&m), "{m:?} is not legal in {pos:?}");
        history.push(pos);
        pos = pos.play(m);
    }
}
