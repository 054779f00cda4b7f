//! Controller tests of the rough edges: questions before losing a game or a file,
//! capital-letter moves, the majority rule, light squares, save/load names, the game
//! list and the engine report kept after a search.

use super::*;

fn typed(c: &mut Controller, text: &str) {
    for ch in text.chars() {
        c.handle(Action::Type(ch));
    }
}

#[test]
fn discarding_a_game_in_progress_asks_first_and_undo_brings_it_back() {
    let mut c = human_vs_human(START);
    // Without moves nothing is lost: no question.
    c.handle(Action::NewGame);
    assert_eq!(c.input_mode(), InputMode::Normal);
    type_move(&mut c, "c3-d4");
    for (action, mode) in [
        (Action::NewGame, InputMode::Confirm),
        (Action::Load, InputMode::Confirm),
        (Action::SetFen, InputMode::Confirm),
        (Action::Quit, InputMode::Confirm),
    ] {
        c.handle(action);
        assert_eq!(c.input_mode(), mode, "{action:?}");
        // The question stays up when other news arrives.
        c.notify("Engine played f6-e5.");
        assert!(c.message().unwrap().0.contains("y: yes"), "{action:?}");
        c.handle(Action::No);
        assert_eq!(c.game().moves().len(), 1, "{action:?} kept the game");
        assert!(c.take_effects().is_empty());
    }
    c.handle(Action::NewGame);
    c.handle(Action::Yes);
    assert_eq!(c.game().moves().len(), 0);
    // `u` after a new game brings the old game back.
    c.handle(Action::Undo);
    assert_eq!(c.game().moves().len(), 1, "{:?}", c.message());
    // A saved game is not asked about; Ctrl-C never asks and exits with its own effect.
    c.on_saved(std::path::Path::new("x.pdn"));
    c.handle(Action::Quit);
    assert_eq!(c.take_effects(), [Effect::Quit]);
    type_move(&mut c, "f6-e5");
    c.handle(Action::Interrupt);
    assert_eq!(c.take_effects(), [Effect::Interrupt]);
}

#[test]
fn saving_over_an_existing_file_asks_first() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.pdn");
    std::fs::write(&path, "1. c3-d4 *\n").unwrap();
    let mut c = human_vs_human(START);
    type_move(&mut c, "c3-d4");
    c.handle(Action::Save);
    c.handle(Action::ClearPrompt);
    typed(&mut c, path.to_str().unwrap());
    c.handle(Action::Submit);
    assert_eq!(c.input_mode(), InputMode::Confirm);
    assert!(c.message().unwrap().0.contains("Overwrite"));
    assert!(c.take_effects().is_empty(), "nothing written yet");
    c.handle(Action::Yes);
    assert!(matches!(&c.take_effects()[..], [Effect::Save { path: p, .. }] if *p == path));
}

#[test]
fn moves_typed_in_capitals_or_without_separator_play() {
    let mut c = human_vs_human(START);
    type_move(&mut c, "C3-D4");
    type_move(&mut c, "F6-G5");
    type_move(&mut c, "g3h4");
    assert_eq!(c.move_rows(), ["1. c3-d4 f6-g5", "2. g3-h4"]);
}

#[test]
fn the_majority_rule_is_explained_and_the_capturers_highlighted() {
    let mut c = human_vs_human("W:Wg1,c3:Bb4,d4,f6,h8,f2");
    assert_eq!(squares(c.must_capture()), ["g1"]);
    type_move(&mut c, "c3xg7");
    let (msg, kind) = c.message().unwrap();
    assert_eq!(kind, MessageKind::Error);
    assert!(
        msg.contains(
            "captures are compulsory and the longest capture must be taken: g1xa3 takes 3"
        ),
        "{msg}"
    );
    click(&mut c, "c3");
    assert!(c.message().unwrap().0.contains("longest capture"));
    click(&mut c, "g1");
    assert_eq!(
        c.must_capture(),
        Bitboard::default(),
        "picked: no more highlight"
    );
}

#[test]
fn light_squares_and_lost_positions_are_reported() {
    let mut c = human_vs_human(START);
    c.handle(Action::Click(1, 0)); // b1
    let (msg, kind) = c.message().unwrap();
    assert_eq!(kind, MessageKind::Error);
    assert!(msg.contains("b1 is a light square"), "{msg}");
    let c = human_vs_human("W:Wa1:B");
    assert_eq!(c.result().unwrap().winner, Some(Color::White));
    assert!(c
        .message()
        .unwrap()
        .0
        .starts_with("Game over: White wins (no pieces left)"));
    let mut c = human_vs_human(START);
    c.handle(Action::SetFen);
    c.handle(Action::ClearPrompt);
    typed(&mut c, "B:Wc3:B");
    c.handle(Action::Submit);
    assert!(
        c.message().unwrap().0.starts_with("Game over"),
        "{:?}",
        c.message()
    );
}

#[test]
fn save_and_load_names_are_separate_and_the_fen_prompt_starts_filled() {
    let mut c = human_vs_human(START);
    c.handle(Action::Save);
    c.handle(Action::Backspace);
    c.handle(Action::Backspace);
    c.handle(Action::Backspace);
    typed(&mut c, "txt");
    c.handle(Action::Cancel);
    c.handle(Action::Load);
    assert_eq!(c.prompt().unwrap().text, "game.pdn");
    c.handle(Action::Cancel);
    c.handle(Action::SetFen);
    let p = c.prompt().unwrap();
    assert_eq!((p.kind, p.text.as_str()), (PromptKind::Fen, START));
}

#[test]
fn a_file_with_several_games_offers_a_list() {
    let text = "[Event \"one\"]\n1. c3-d4 *\n\n[Event \"two\"]\n1. c3-b4 f6-g5 *\n";
    let mut c = human_vs_human(START);
    c.load_pdn(text).unwrap();
    assert_eq!(c.input_mode(), InputMode::List);
    assert_eq!(c.game_list().unwrap().games.len(), 2);
    assert!(c.game_list().unwrap().describe(1).contains("two"));
    c.handle(Action::NextChoice);
    c.handle(Action::Submit);
    assert_eq!(c.game().moves().len(), 2);
    assert_eq!(c.input_mode(), InputMode::Normal);
    let err = c.load_pdn("").unwrap_err();
    assert_eq!(err, damas_rules::pdn::NO_GAME);
}

#[test]
fn the_last_search_stays_visible_after_it_ends() {
    let mut c = human_vs_human(START);
    c.handle(Action::Hint);
    let Some(Effect::Search(req)) = c.take_effects().pop() else {
        panic!("no search")
    };
    let mv = legal_moves(Variant::Brazilian, &c.position())[0];
    let result = SearchResult {
        best: Some(mv),
        score: damas_engine::score::Score::centi(35),
        depth: 9,
        pv: vec![mv],
        stats: Stats::default(),
        conversion_unproven: false,
    };
    c.on_engine_done(req.id, &result);
    let t = c.thinking().expect("kept");
    assert_eq!((t.depth, t.score.as_str()), (9, "+0.35 for White"));
    // A new search keeps it until its own first report, marked as not live.
    c.handle(Action::Hint);
    assert!(c.thinking().is_some() && !c.thinking_is_live());
}
