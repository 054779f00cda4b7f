//! Unit tests of the game controller (no terminal, no engine thread).

use super::*;
use damas_engine::search::Stats;
use damas_rules::movegen::legal_moves;
use damas_rules::notation::{move_to_string, parse_move};

pub(super) fn human_vs_human(fen: &str) -> Controller {
    human_vs_human_in(Variant::Brazilian, fen)
}

/// Two humans playing `variant` from `fen`.
pub(super) fn human_vs_human_in(variant: Variant, fen: &str) -> Controller {
    let start = parse_fen(fen).unwrap();
    Controller::new(
        variant,
        start,
        Players {
            white: Player::Human,
            black: Player::Human,
        },
        TimeControl::Depth(2),
    )
}

fn sq(name: &str) -> Square {
    Square::from_algebraic(name).unwrap()
}

fn click(c: &mut Controller, name: &str) {
    let s = sq(name);
    c.handle(Action::Click(s.file(), s.row()));
}

pub(super) fn type_move(c: &mut Controller, text: &str) {
    let mut chars = text.chars();
    c.handle(Action::OpenPrompt(chars.next().unwrap()));
    for ch in chars {
        c.handle(Action::Type(ch));
    }
    c.handle(Action::Submit);
}

fn squares(b: Bitboard) -> Vec<String> {
    let mut v: Vec<String> = b.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

const START: &str = damas_rules::fen::START_FEN;

#[test]
fn picking_a_piece_highlights_its_legal_destinations() {
    let mut c = human_vs_human(START);
    click(&mut c, "c3");
    assert_eq!(c.selected(), Some(sq("c3")));
    assert_eq!(squares(c.destinations()), ["b4", "d4"]);
    // A blocked piece cannot be picked, and says so.
    click(&mut c, "b2");
    assert_eq!(c.selected(), Some(sq("c3")));
    assert_eq!(c.message().unwrap().1, MessageKind::Error);
    // Playing the destination moves the piece and passes the turn.
    click(&mut c, "d4");
    assert_eq!(c.position().side_to_move(), Color::Black);
    assert!(c.position().white().contains(sq("d4")));
    assert_eq!(c.selected(), None);
    assert_eq!(c.move_rows(), ["1. c3-d4"]);
}

#[test]
fn cursor_keys_follow_the_screen_also_when_flipped() {
    let mut c = human_vs_human(START);
    assert_eq!(c.cursor(), (2, 2));
    c.handle(Action::Up);
    c.handle(Action::Right);
    assert_eq!(c.cursor(), (3, 3));
    c.handle(Action::Flip);
    c.handle(Action::Up);
    assert_eq!(c.cursor(), (3, 2));
    for _ in 0..10 {
        c.handle(Action::Left);
    }
    assert_eq!(c.cursor(), (7, 2));
    // Enter picks the piece under the cursor.
    c.handle(Action::Flip);
    c.handle(Action::Left);
    c.handle(Action::Left);
    c.handle(Action::Left);
    c.handle(Action::Left);
    c.handle(Action::Left);
    c.handle(Action::Select);
    assert_eq!(c.selected(), Some(sq("c3")));
}

#[test]
fn only_capturing_pieces_can_be_picked_when_a_capture_is_forced() {
    // White men c3 and a1; black man on d4 must be taken from c3 (e5 empty).
    let mut c = human_vs_human("W:Wc3,a1:Bd4,h8");
    assert_eq!(squares(c.movable()), ["c3"]);
    click(&mut c, "a1");
    assert_eq!(c.selected(), None);
    let (msg, kind) = c.message().unwrap();
    assert_eq!(kind, MessageKind::Error);
    assert!(
        msg.contains("capture is forced") && msg.contains("c3"),
        "{msg}"
    );
    click(&mut c, "c3");
    assert_eq!(squares(c.destinations()), ["e5"]);
}

/// A position where two moves share start and end but take different pieces (king a5
/// to c7 taking b4, d4, d6 or f2, b4, d6); the pair is taken from the rules core.
fn ambiguous_position() -> (Position, Move, Move) {
    let pos = parse_fen("W:WKa5:Bf2,b4,d4,d6").unwrap();
    let legal = legal_moves(Variant::Brazilian, &pos);
    for (i, &a) in legal.iter().enumerate() {
        for &b in legal.iter().skip(i + 1) {
            if a.from() == b.from() && a.to() == b.to() && a.captured() != b.captured() {
                return (pos, a, b);
            }
        }
    }
    panic!("test position has no ambiguous capture");
}

#[test]
fn the_user_chooses_between_captures_with_the_same_start_and_end() {
    let (pos, a, b) = ambiguous_position();
    let mut c = Controller::new(
        Variant::Brazilian,
        pos,
        Players {
            white: Player::Human,
            black: Player::Human,
        },
        TimeControl::Depth(2),
    );
    c.handle(Action::Click(a.from().file(), a.from().row()));
    c.handle(Action::Click(a.to().file(), a.to().row()));
    // Nothing played yet: a choice is open and shows what each candidate takes.
    assert_eq!(c.game().moves().len(), 0);
    assert_eq!(c.input_mode(), InputMode::Choice);
    let first = c.choice().unwrap().candidates[0];
    c.handle(Action::NextChoice);
    let second = c.choice().unwrap().candidates[1];
    assert_ne!(first.captured(), second.captured());
    assert!([a, b].contains(&first) && [a, b].contains(&second));
    c.handle(Action::Submit);
    assert_eq!(c.game().moves(), [second]);

    // Typing from and to only opens the same choice.
    let mut c = Controller::new(
        Variant::Brazilian,
        pos,
        Players {
            white: Player::Human,
            black: Player::Human,
        },
        TimeControl::Depth(2),
    );
    type_move(&mut c, &format!("{}x{}", a.from(), a.to()));
    assert_eq!(c.input_mode(), InputMode::Choice);
    c.handle(Action::Choose(0));
    assert_eq!(c.game().moves().len(), 1);
}

#[test]
fn typed_moves_play_and_bad_ones_give_messages() {
    let mut c = human_vs_human(START);
    type_move(&mut c, "c3-d4");
    type_move(&mut c, "11-15"); // numeric: f6-e5
    assert_eq!(c.move_rows(), ["1. c3-d4 f6-e5"]);
    for bad in ["zz", "c3-c4", "a1-b2", "1"] {
        type_move(&mut c, bad);
        assert_eq!(c.message().unwrap().1, MessageKind::Error, "{bad}");
        assert_eq!(c.game().moves().len(), 2);
    }
    assert_eq!(c.input_mode(), InputMode::Normal);
}

#[test]
fn undo_and_redo_return_to_the_humans_turn_against_the_engine() {
    let mut c = Controller::new(
        Variant::Brazilian,
        Position::start(),
        Players::default(),
        TimeControl::Depth(2),
    );
    type_move(&mut c, "c3-d4");
    // The engine is asked for a move…
    c.tick();
    let req = match c.take_effects().pop() {
        Some(Effect::Search(r)) => r,
        other => panic!("expected a search, got {other:?}"),
    };
    assert_eq!(req.purpose, Purpose::Move);
    assert_eq!(req.history, vec![Position::start()]);
    // …and plays it when done.
    let reply = parse_move(Variant::Brazilian, &c.position(), "f6-e5").unwrap();
    let result = SearchResult {
        best: Some(reply),
        score: damas_engine::score::Score::DRAW,
        depth: 2,
        pv: vec![reply],
        stats: Stats::default(),
        conversion_unproven: false,
    };
    c.on_engine_done(req.id, &result);
    assert_eq!(c.move_rows(), ["1. c3-d4 f6-e5"]);
    // Undo takes back both plies; redo replays both.
    c.handle(Action::Undo);
    assert_eq!(c.game().moves().len(), 0);
    assert!(!c.paused());
    c.handle(Action::Redo);
    assert_eq!(c.game().moves().len(), 2);
    // A result of a cancelled search is ignored.
    c.tick();
    assert!(c.take_effects().is_empty(), "human to move: no search");
    c.on_engine_done(req.id, &result);
    assert_eq!(c.game().moves().len(), 2);
}

#[test]
fn undo_cancels_a_running_search_and_pauses_engine_games() {
    let both = Players {
        white: Player::Engine,
        black: Player::Engine,
    };
    let mut c = Controller::new(
        Variant::Brazilian,
        Position::start(),
        both,
        TimeControl::Depth(2),
    );
    c.tick();
    let Some(Effect::Search(req)) = c.take_effects().pop() else {
        panic!("no search")
    };
    let mv = legal_moves(Variant::Brazilian, &c.position())[0];
    c.on_engine_done(
        req.id,
        &SearchResult {
            best: Some(mv),
            score: damas_engine::score::Score::DRAW,
            depth: 1,
            pv: vec![],
            stats: Stats::default(),
            conversion_unproven: false,
        },
    );
    c.tick();
    assert!(matches!(c.take_effects().pop(), Some(Effect::Search(_))));
    c.handle(Action::Undo);
    assert_eq!(c.take_effects(), [Effect::Stop]);
    assert!(c.paused());
    c.tick();
    assert!(c.take_effects().is_empty());
    c.handle(Action::MoveNow);
    c.tick();
    assert!(matches!(c.take_effects().pop(), Some(Effect::Search(_))));
}

#[test]
fn move_now_stops_the_search_and_plays_its_answer() {
    let mut c = Controller::new(
        Variant::Brazilian,
        Position::start(),
        Players {
            white: Player::Engine,
            black: Player::Human,
        },
        TimeControl::MoveTime(std::time::Duration::from_millis(60_000)),
    );
    c.tick();
    let Some(Effect::Search(req)) = c.take_effects().pop() else {
        panic!("no search")
    };
    c.handle(Action::MoveNow);
    assert_eq!(c.take_effects(), [Effect::Stop]);
    let mv = legal_moves(Variant::Brazilian, &c.position())[0];
    c.on_engine_done(
        req.id,
        &SearchResult {
            best: Some(mv),
            score: damas_engine::score::Score::DRAW,
            depth: 1,
            pv: vec![],
            stats: Stats::default(),
            conversion_unproven: false,
        },
    );
    assert_eq!(c.game().moves(), [mv]);
}

#[test]
fn no_move_loses_and_draw_rules_are_surfaced() {
    // Black to move with no legal move: White wins.
    let mut c = human_vs_human("B:Wa1,c1:Bb2");
    let r = c.result().unwrap();
    assert_eq!(r.winner, Some(Color::White));
    click(&mut c, "b2");
    assert!(c.message().unwrap().0.contains("over"));

    // Two kings against one: repetition after shuffling.
    let mut c = human_vs_human("W:WKe1,Kg1:BKa7");
    for _ in 0..2 {
        for m in ["g1-h2", "a7-b8", "h2-g1", "b8-a7"] {
            type_move(&mut c, m);
        }
    }
    let r = c.result().expect("drawn");
    assert_eq!(r.winner, None);
    let (msg, _) = c.message().unwrap();
    assert!(
        msg.starts_with("Game over: Draw") && msg.contains(r.reason.describe()),
        "{msg}"
    );
    // No move is accepted after the end, and the engine is not started.
    type_move(&mut c, "g1-h2");
    assert_eq!(c.game().moves().len(), 8);
    c.tick();
    assert!(c.take_effects().is_empty());
    // A new game clears it.
    c.handle(Action::NewGame);
    assert!(c.result().is_none());
    assert_eq!(c.position(), Position::start());
}

#[test]
fn fen_prompt_sets_up_and_bad_fen_is_refused() {
    let mut c = human_vs_human(START);
    c.handle(Action::SetFen);
    // The prompt starts with the current FEN: Ctrl-U empties it.
    c.handle(Action::ClearPrompt);
    for ch in "B:Wc3:Bf6".chars() {
        c.handle(Action::Type(ch));
    }
    c.handle(Action::Submit);
    assert_eq!(
        to_fen(&c.position()),
        to_fen(&parse_fen("B:Wc3:Bf6").unwrap())
    );
    // Black starts: the first row is numbered with an ellipsis.
    type_move(&mut c, "f6-e5");
    assert_eq!(c.move_rows(), ["1. ... f6-e5"]);
    c.handle(Action::SetFen);
    assert_eq!(c.input_mode(), InputMode::Confirm, "a game in progress");
    c.handle(Action::Yes);
    c.handle(Action::ClearPrompt);
    c.handle(Action::Type('x'));
    c.handle(Action::Submit);
    assert_eq!(c.message().unwrap().1, MessageKind::Error);
    c.handle(Action::CopyFen);
    assert!(
        matches!(c.take_effects().last(), Some(Effect::Copy(f)) if parse_fen(f).unwrap() == c.position())
    );
}

#[test]
fn hint_searches_and_shows_without_playing() {
    let mut c = human_vs_human(START);
    c.handle(Action::Hint);
    let Some(Effect::Search(req)) = c.take_effects().pop() else {
        panic!("no search")
    };
    assert_eq!(req.purpose, Purpose::Hint);
    let mv = legal_moves(Variant::Brazilian, &c.position())[3];
    c.on_engine_done(
        req.id,
        &SearchResult {
            best: Some(mv),
            score: damas_engine::score::Score::centi(25),
            depth: 3,
            pv: vec![mv],
            stats: Stats::default(),
            conversion_unproven: false,
        },
    );
    assert_eq!(c.hint(), Some(mv));
    assert_eq!(c.game().moves().len(), 0);
    assert!(c.message().unwrap().0.contains(&move_to_string(
        Variant::Brazilian,
        &c.position(),
        mv,
        Notation::Algebraic
    )));
}

#[test]
fn pdn_save_and_load_round_trip() {
    let mut c = human_vs_human("W:Wc3,e3,g3:Bb6,d6,Ka7");
    for m in ["c3-d4", "b6-c5", "d4xb6"] {
        type_move(&mut c, m);
    }
    c.handle(Action::Save);
    c.handle(Action::Submit); // the default file name
    let Some(Effect::Save { path, text }) = c.take_effects().pop() else {
        panic!("no save")
    };
    assert_eq!(path, PathBuf::from("game.pdn"));
    assert!(text.contains("GameType \"26"), "{text}");
    assert!(text.contains("1. c3-d4 b6-c5"), "{text}");
    assert!(text.contains("FEN"), "{text}");

    let mut d = human_vs_human(START);
    d.load_pdn(&text).unwrap();
    assert_eq!(d.game().start(), c.game().start());
    assert_eq!(d.game().moves(), c.game().moves());
    assert_eq!(d.move_rows(), c.move_rows());
    // A broken file is refused with a reason and the game kept.
    let err = d.load_pdn("1. c3-c4 *").unwrap_err();
    assert!(!err.is_empty());
    assert_eq!(d.game().moves().len(), 3);
    d.handle(Action::Load);
    d.handle(Action::Submit);
    assert_eq!(d.take_effects(), [Effect::Load(PathBuf::from("game.pdn"))]);
}

mod questions;
mod variant;

#[test]
fn on_a_clock_the_engine_gets_a_hub_budget_and_moves_earn_the_increment() {
    let mut c = Controller::new(
        Variant::Brazilian,
        parse_fen(START).unwrap(),
        Players {
            white: Player::Human,
            black: Player::Engine,
        },
        TimeControl::Depth(2),
    );
    c.set_clock(Some(TimeControl::from_minutes_clock("5+3").unwrap()));
    c.set_strength(damas_engine::level::Strength::MIN);
    c.handle(Action::Stronger);
    assert_eq!(c.message().unwrap().0, "Engine level: 2 (novice)");
    type_move(&mut c, "c3-d4");
    // White's clock earned 3 s for the move (less the moment it took).
    let left = c.time_left(Color::White).unwrap();
    assert!(left > Duration::from_secs(300) && left <= Duration::from_secs(303));
    c.tick();
    let req = c
        .take_effects()
        .into_iter()
        .find_map(|e| match e {
            Effect::Search(r) => Some(r),
            _ => None,
        })
        .expect("the engine is asked to move");
    assert_eq!(req.strength.number(), 2);
    // The Hub's clock budget, not the depth level: a time, a soft and a hard deadline.
    let (hard, soft) = (req.budget.hard().unwrap(), req.budget.soft().unwrap());
    assert!(
        soft <= hard && hard < Duration::from_secs(150),
        "{soft:?} {hard:?}"
    );
    assert_eq!(req.budget.search_limits().depth, None);
    // Taking White's move back gives both sides their time back, and the move's
    // increment is gone.
    let black_before = c.time_left(Color::Black).unwrap();
    std::thread::sleep(Duration::from_millis(30));
    c.handle(Action::Undo);
    let white = c.time_left(Color::White).unwrap();
    let black = c.time_left(Color::Black).unwrap();
    assert!(
        white <= Duration::from_secs(300) && white > Duration::from_secs(299),
        "{white:?}"
    );
    assert_eq!(
        black,
        Duration::from_secs(300),
        "Black's clock was not running"
    );
    assert!(black >= black_before);
    // The clock can be taken off.
    c.set_clock(None);
    assert_eq!(c.time_left(Color::Black), None);
}
