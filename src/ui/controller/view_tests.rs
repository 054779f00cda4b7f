//! Tests of looking back through the game, continuing from an earlier position, and
//! the review panel.

use super::tests::{human_vs_human, type_move};
use super::*;
use crate::review::review_game;
use damas_engine::search::{Limits, SearchOptions, Searcher};

/// White's d4-c5 drops a man (d6xb4 is forced and the man on b4 is safe).
const BLUNDER_START: &str = "W:Wa1,c1,e1,g1,d4:Bb8,d8,f8,h8,d6";

fn played(c: &mut Controller, moves: &[&str]) {
    for m in moves {
        type_move(c, m);
    }
    assert_eq!(c.game().moves().len(), moves.len());
}

#[test]
fn looking_back_shows_earlier_positions_without_undoing() {
    let mut c = human_vs_human(damas_rules::fen::START_FEN);
    played(&mut c, &["c3-d4", "f6-e5", "d4xf6"]);
    let positions = c.game().positions().to_vec();
    c.handle(Action::ViewBack);
    assert_eq!(c.viewing(), Some(2));
    assert_eq!(c.shown_position(), positions[2]);
    assert_eq!(c.position(), positions[3], "the game is untouched");
    assert!(c.message().unwrap().0.contains("Viewing move 1... f6-e5"));
    // No moves on a position only looked at.
    type_move(&mut c, "g7xe5");
    assert_eq!(c.game().moves().len(), 3);
    assert_eq!(c.message().unwrap().1, MessageKind::Error);
    c.handle(Action::ViewStart);
    assert_eq!(c.shown_position(), positions[0]);
    assert_eq!(c.shown_last_move(), None);
    c.handle(Action::ViewBack);
    assert_eq!(c.viewing(), Some(0), "the start is as far back as it goes");
    c.handle(Action::ViewForward);
    assert_eq!(c.viewing(), Some(1));
    c.handle(Action::ViewEnd);
    assert_eq!(c.viewing(), None);
    assert_eq!(c.shown_position(), c.position());
    // Stepping forward past the last move is the game again.
    c.handle(Action::ViewBack);
    c.handle(Action::ViewForward);
    assert_eq!(c.viewing(), None);
}

#[test]
fn continuing_from_an_earlier_position_asks_and_can_be_replayed() {
    let mut c = human_vs_human(damas_rules::fen::START_FEN);
    played(&mut c, &["c3-d4", "f6-e5", "d4xf6"]);
    c.handle(Action::ContinueHere);
    assert_eq!(
        c.message().unwrap().1,
        MessageKind::Error,
        "not looking back"
    );
    c.handle(Action::ViewBack);
    c.handle(Action::ViewBack);
    c.handle(Action::ContinueHere);
    assert_eq!(c.input_mode(), InputMode::Confirm);
    assert!(c.message().unwrap().0.contains("last 2 plies"));
    c.handle(Action::No);
    assert_eq!(c.game().moves().len(), 3);
    assert_eq!(c.viewing(), Some(1));
    c.handle(Action::ContinueHere);
    c.handle(Action::Yes);
    assert_eq!(c.game().moves().len(), 1);
    assert_eq!(c.viewing(), None);
    // A different move from there; or r brings the old line back.
    c.handle(Action::Redo);
    assert_eq!(c.game().moves().len(), 2);
}

#[test]
fn the_review_panel_opens_on_the_blunder_and_steps_through_the_moves() {
    let mut c = human_vs_human(BLUNDER_START);
    c.handle(Action::Review);
    assert_eq!(c.message().unwrap().1, MessageKind::Error, "no moves yet");
    played(&mut c, &["d4-c5", "d6xb4", "a1-b2", "b4-a3"]);
    c.handle(Action::Review);
    let Some(Effect::Review { start, moves }) = c.take_effects().pop() else {
        panic!("no review asked for");
    };
    assert_eq!(moves, c.game().moves());
    assert_eq!(c.review_progress(), Some((0, 5)));
    let mut game = Game::new(Variant::Brazilian, start);
    for m in moves {
        game.play(m);
    }
    let mut searcher = Searcher::new(SearchOptions::default());
    let r = review_game(
        &mut searcher,
        &game,
        &Limits::nodes(20_000).into(),
        &Default::default(),
        &mut |_, _| {},
    );
    c.on_review_done(r);
    assert_eq!(c.review_progress(), None);
    assert_eq!(c.input_mode(), InputMode::Review);
    let panel = c.review().unwrap();
    assert_eq!(panel.index, 0, "the blunder comes first");
    assert!(c.message().unwrap().0.contains("d4-c5??"));
    // The board shows the position after the move highlighted.
    assert_eq!(c.viewing(), Some(1));
    c.handle(Action::NextChoice);
    assert_eq!(c.review().unwrap().index, 1);
    assert_eq!(c.viewing(), Some(2));
    // Enter keeps the position in view; Esc would return to the game.
    c.handle(Action::Submit);
    assert!(c.review().is_none());
    assert_eq!(c.viewing(), Some(2));
    c.handle(Action::ViewEnd);
    assert_eq!(c.viewing(), None);
}
