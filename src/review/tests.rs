//! Reviewing a short game with one known blunder, and one with an exchange.

use super::*;
use damas_engine::search::{Limits, SearchOptions};
use damas_rules::pdn::read_games;

/// White's first move d4-c5 drops a man for nothing (d6xb4 is forced, and the man on
/// b4 is safe); the other moves are quiet. A depth-14 review marks only d4-c5.
pub const BLUNDER_GAME: &str = r#"[Event "review test"]
[White "Ana"]
[Black "Bia"]
[FEN "W:Wa1,c1,e1,g1,d4:Bb8,d8,f8,h8,d6"]
1. d4-c5 d6xb4 2. a1-b2 b4-a3 3. b2-c3 *
"#;

/// White's e3-f4 gives a man, g5xe3 is forced, and the man on e3 cannot escape: an
/// exchange, level at depth 14, which a search stopping at the forced reply saw as a
/// man lost.
pub const EXCHANGE_GAME: &str = r#"[Event "review test"]
[White "Ana"]
[Black "Bia"]
[FEN "W:Wa1,c1,e1,g1,e3:Bb8,d8,f8,h8,g5"]
1. e3-f4 g5xe3 2. a1-b2 b8-a7 3. b2-c3 *
"#;

fn review_text(text: &str, nodes: u64) -> Review {
    let game = read_games(text).unwrap().remove(0).to_game().unwrap();
    let mut searcher = Searcher::new(SearchOptions::default());
    let mut calls = 0;
    let r = review_game(
        &mut searcher,
        &game,
        &Limits::nodes(nodes).into(),
        &Arc::default(),
        &mut |done, total| {
            calls += 1;
            assert!(done <= total);
        },
    );
    assert_eq!(calls, game.positions().len());
    r
}

#[test]
fn the_blunder_is_marked_and_the_quiet_moves_are_not() {
    let r = review_text(BLUNDER_GAME, 20_000);
    assert!(!r.stopped);
    let marks: Vec<_> = r.moves.iter().map(|m| m.judgement.mark).collect();
    assert_eq!(marks.len(), 5);
    assert_eq!(marks[0], Some(Mark::Blunder), "{:#?}", r.moves[0]);
    assert!(r.moves[0].best_text.is_some());
    assert!(r.moves[1].forced, "d6xb4 is the only move");
    for m in &r.moves[1..] {
        assert_ne!(m.judgement.mark, Some(Mark::Blunder), "{m:#?}");
    }
    let white = r.summary(Color::White);
    assert_eq!((white.moves, white.blunders), (3, 1));
    assert!(white.average_loss() > r.summary(Color::Black).average_loss());
    let text = report::report(&r, [Some("Ana"), Some("Bia")]);
    assert!(text.contains("1.     d4-c5??"), "{text}");
    assert!(text.contains("White (Ana): 3 moves"), "{text}");
}

#[test]
fn an_exchange_is_not_a_blunder() {
    let r = review_text(EXCHANGE_GAME, DEFAULT_NODES);
    assert!(r.moves[1].forced, "g5xe3 is the only move");
    // An even exchange loses no material: at most a positional inaccuracy.
    for m in &r.moves {
        assert!(
            matches!(m.judgement.mark, None | Some(Mark::Inaccuracy)),
            "{m:#?}"
        );
    }
    // The forced recapture is scored by the line after it, not by a glance: Black's
    // man on e3 is lost again, so the position is about level.
    assert!(
        r.moves[1].played_score.value().abs() < 70,
        "{:#?}",
        r.moves[1]
    );
}

#[test]
fn the_same_review_twice_is_the_same() {
    assert_eq!(
        review_text(BLUNDER_GAME, 5_000),
        review_text(BLUNDER_GAME, 5_000)
    );
}

#[test]
fn a_stopped_review_keeps_the_moves_judged_so_far() {
    let game = read_games(BLUNDER_GAME)
        .unwrap()
        .remove(0)
        .to_game()
        .unwrap();
    let mut searcher = Searcher::new(SearchOptions::default());
    let stop = Arc::new(AtomicBool::new(false));
    let r = review_game(
        &mut searcher,
        &game,
        &Limits::nodes(2_000).into(),
        &stop,
        &mut |done, _| {
            if done == 3 {
                stop.store(true, Ordering::Relaxed);
            }
        },
    );
    assert!(r.stopped);
    assert_eq!(r.moves.len(), 2);
}
