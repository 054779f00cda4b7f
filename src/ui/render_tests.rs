//! Rendering checked on ratatui's test backend.

use damas_rules::variant::Variant;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

use super::*;
use crate::ui::controller::Controller;
use crate::ui::input::Action;
use crate::ui::setup::{default_level, Players};
use damas_engine::time::TimeControl;
use damas_rules::fen::parse_fen;
use damas_rules::position::Position;

fn screen(c: &Controller, w: u16, h: u16) -> (Vec<String>, BoardGeometry) {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    let mut g = None;
    t.draw(|f| g = Some(draw(f, c, true))).unwrap();
    let buf = t.backend().buffer().clone();
    let lines = (0..h)
        .map(|y| {
            (0..w)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect::<String>()
        })
        .collect();
    (lines, g.unwrap())
}

/// A Brazilian game from the start between two people, the engine at depth 2 for
/// hints.
fn two_humans() -> Controller {
    Controller::new(
        Variant::Brazilian,
        Position::start(),
        Players {
            white: Player::Human,
            black: Player::Human,
        },
        TimeControl::Depth(2),
    )
}

fn type_move(c: &mut Controller, text: &str) {
    let mut chars = text.chars();
    c.handle(Action::OpenPrompt(chars.next().unwrap()));
    chars.for_each(|ch| c.handle(Action::Type(ch)));
    c.handle(Action::Submit);
}

/// The text of the board cell of `name`, read back through the geometry.
fn cell_text(lines: &[String], g: &BoardGeometry, name: &str) -> String {
    let s = damas_rules::square::Square::from_algebraic(name).unwrap();
    let (x, y) = g.cell_origin(s.file(), s.row());
    let row: Vec<char> = lines[(y + (g.cell_h - 1) / 2) as usize].chars().collect();
    row[x as usize..(x + g.cell_w) as usize]
        .iter()
        .collect::<String>()
        .trim()
        .to_string()
}

#[test]
fn board_coordinates_pieces_and_move_list_at_80x24() {
    let mut c = two_humans();
    type_move(&mut c, "c3-d4");
    type_move(&mut c, "f6-g5");
    type_move(&mut c, "g3-h4");
    let (lines, g) = screen(&c, 80, 24);
    let text = lines.join("\n");
    // File letters under the board, rank numbers beside it, top to bottom 8..1.
    let files_row = &lines[(g.y + 8 * g.cell_h) as usize];
    let letters: String = files_row
        .chars()
        .filter(|ch| ch.is_ascii_lowercase())
        .collect();
    assert_eq!(letters, "abcdefgh");
    let ranks: String = (0..8)
        .map(|j| {
            lines[(g.y + j * g.cell_h) as usize]
                .chars()
                .nth(g.x as usize - 2)
                .unwrap()
        })
        .collect();
    assert_eq!(ranks, "87654321");
    // Pieces where the position has them, men and colours by glyph.
    assert_eq!(cell_text(&lines, &g, "d4"), "w");
    assert_eq!(cell_text(&lines, &g, "g5"), "b");
    assert_eq!(cell_text(&lines, &g, "g3"), "");
    assert_eq!(cell_text(&lines, &g, "c3"), "[ ]", "the cursor");
    assert_eq!(cell_text(&lines, &g, "h8"), "b");
    // The move list, one row per move number.
    assert!(text.contains("1. c3-d4 f6-g5"), "{text}");
    assert!(text.contains("2. g3-h4"), "{text}");
    assert!(text.contains("Black to move"), "{text}");
    assert!(lines[23].starts_with("n new"), "{}", lines[23]);
}

#[test]
fn kings_differ_from_men_and_flipping_turns_the_board() {
    let pos = parse_fen("W:WKa1,e3:BKh8,f6").unwrap();
    let mut c = Controller::new(
        Variant::Brazilian,
        pos,
        Players::default(),
        TimeControl::Depth(2),
    );
    let (lines, g) = screen(&c, 100, 30);
    assert!(g.cell_w >= 5, "a larger terminal gets larger cells");
    assert_eq!(cell_text(&lines, &g, "a1"), "<W>");
    assert_eq!(cell_text(&lines, &g, "e3"), "w");
    assert_eq!(cell_text(&lines, &g, "h8"), "<B>");
    assert_eq!(cell_text(&lines, &g, "f6"), "b");
    c.handle(Action::Flip);
    let (lines, g2) = screen(&c, 100, 30);
    assert!(g2.flipped);
    // a1 is now at the top right; a click there maps back to a1.
    let (x, y) = g2.cell_origin(0, 0);
    assert!(x > g2.x + 6 * g2.cell_w && y == g2.y);
    assert_eq!(g2.square_at(x, y), Some((0, 0)));
    assert_eq!(cell_text(&lines, &g2, "a1"), "<W>");
}

#[test]
fn highlights_and_thinking_are_shown() {
    let mut c = two_humans();
    c.handle(Action::Select); // cursor starts on c3
    let (lines, g) = screen(&c, 80, 24);
    assert_eq!(cell_text(&lines, &g, "d4"), "·");
    assert_eq!(cell_text(&lines, &g, "b4"), "·");
    assert_eq!(cell_text(&lines, &g, "c3"), "[w]");
    let info = damas_engine::search::Info {
        depth: 7,
        score: damas_engine::score::Score::centi(50),
        stats: Default::default(),
        pv: vec![],
        lines: vec![],
        conversion_unproven: false,
    };
    c.handle(Action::Hint);
    let Some(crate::ui::controller::Effect::Search(req)) = c.take_effects().pop() else {
        panic!()
    };
    c.on_engine_info(req.id, &info);
    let text = screen(&c, 80, 24).0.join("\n");
    assert!(text.contains("depth 7") && text.contains("+0.50"), "{text}");
}

#[test]
fn help_and_prompt_are_drawn() {
    let mut c = Controller::new(
        Variant::Brazilian,
        Position::start(),
        Players::default(),
        default_level(),
    );
    c.handle(Action::Help);
    let text = screen(&c, 80, 24).0.join("\n");
    assert!(text.contains("undo / redo"), "{text}");
    c.handle(Action::Help);
    c.handle(Action::OpenPrompt('c'));
    c.handle(Action::Type('3'));
    let lines = screen(&c, 80, 24).0;
    assert!(lines[22].starts_with("move> c3_"), "{}", lines[22]);
}

#[test]
fn any_terminal_size_draws_without_panicking() {
    let mut c = Controller::new(
        Variant::Brazilian,
        Position::start(),
        Players::default(),
        default_level(),
    );
    c.handle(Action::Help);
    for (w, h) in [(1, 1), (10, 5), (30, 12), (79, 23), (80, 24), (200, 60)] {
        let (lines, _) = screen(&c, w, h);
        assert_eq!(lines.len(), h as usize);
    }
}

#[test]
fn without_colour_the_marks_are_glyphs() {
    let mut c = Controller::new(
        Variant::Brazilian,
        Position::start(),
        Players::default(),
        default_level(),
    );
    c.handle(Action::Select); // c3
    let mut t = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let mut g = None;
    t.draw(|f| g = Some(draw(f, &c, false))).unwrap();
    let g = g.unwrap();
    let buf = t.backend().buffer().clone();
    let lines: Vec<String> = (0..24)
        .map(|y| (0..80).map(|x| buf[(x, y)].symbol().to_string()).collect())
        .collect();
    assert_eq!(cell_text(&lines, &g, "d4"), "*");
    assert_eq!(cell_text(&lines, &g, "e5"), ".");
    assert_eq!(cell_text(&lines, &g, "d6"), "b");
    assert!(
        (0..80).all(|x| (0..24).all(|y| buf[(x, y)].bg == ratatui::style::Color::Reset)),
        "no background colour"
    );
}

#[test]
fn long_messages_wrap_and_forced_capturers_are_marked() {
    // A capture choice: its message is longer than 80 columns and must be read whole.
    let pos = parse_fen("W:WKa5:Bf2,b4,d4,d6").unwrap();
    let mut c = Controller::new(
        Variant::Brazilian,
        pos,
        Players {
            white: Player::Human,
            black: Player::Human,
        },
        TimeControl::Depth(2),
    );
    let (lines, g) = {
        let mut t = Terminal::new(TestBackend::new(80, 24)).unwrap();
        let mut g = None;
        t.draw(|f| g = Some(draw(f, &c, false))).unwrap();
        let buf = t.backend().buffer().clone();
        let lines: Vec<String> = (0..24)
            .map(|y| (0..80).map(|x| buf[(x, y)].symbol().to_string()).collect())
            .collect();
        (lines, g.unwrap())
    };
    assert_eq!(cell_text(&lines, &g, "a5"), "!W", "must capture, no colour");
    c.handle(Action::OpenPrompt('a'));
    for ch in "5xc7".chars() {
        c.handle(Action::Type(ch));
    }
    c.handle(Action::Submit);
    let msg = c.message().unwrap().0.to_string();
    assert!(msg.len() > 80, "{msg}");
    let text = screen(&c, 80, 24).0.join(" ");
    let squeezed: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(squeezed.contains("Esc: cancel"), "{squeezed}");
    assert!(screen(&c, 80, 24).0[23].starts_with("n new"));
}

#[test]
fn the_engine_panel_labels_the_score_and_keeps_the_last_search() {
    let mut c = two_humans();
    c.handle(Action::Hint);
    let Some(crate::ui::controller::Effect::Search(req)) = c.take_effects().pop() else {
        panic!()
    };
    let text = screen(&c, 80, 24).0.join("\n");
    assert!(text.contains("looking for a hint"), "{text}");
    let mv = damas_rules::movegen::legal_moves(Variant::Brazilian, &c.position())[0];
    c.on_engine_done(
        req.id,
        &damas_engine::search::SearchResult {
            best: Some(mv),
            score: damas_engine::score::Score::win_in(7),
            depth: 11,
            pv: vec![mv],
            stats: Default::default(),
            conversion_unproven: false,
        },
    );
    let text = screen(&c, 80, 24).0.join("\n");
    assert!(
        text.contains("last search") && text.contains("depth 11"),
        "{text}"
    );
    assert!(text.contains("White wins in 4 moves (7 plies)"), "{text}");
}

#[test]
fn the_analysis_panel_wraps_a_long_line_and_keeps_every_move() {
    let mut c = two_humans();
    c.toggle_analysis(1);
    c.tick();
    let Some(crate::ui::controller::Effect::Search(req)) = c.take_effects().pop() else {
        panic!("the analysis board starts a search")
    };
    // Sixteen plies: far wider than the panel beside the board at 80 columns.
    let mut pos = c.position();
    let mut pv = Vec::new();
    for _ in 0..16 {
        let mv = *damas_rules::movegen::legal_moves(Variant::Brazilian, &pos)
            .last()
            .expect("a move");
        pv.push(mv);
        pos = pos.play(mv);
    }
    let info = damas_engine::search::Info {
        depth: 12,
        score: damas_engine::score::Score::centi(42),
        stats: Default::default(),
        pv: pv.clone(),
        lines: vec![],
        conversion_unproven: false,
    };
    c.on_engine_info(req.id, &info);
    let (lines, _) = screen(&c, 80, 24);
    let text = lines.join("\n");
    // The panel's rows, read from the line that starts `1. ` to the panel's border.
    let first = lines
        .iter()
        .position(|l| {
            l.split('│')
                .any(|cell| cell.trim_start().starts_with("1. "))
        })
        .unwrap_or_else(|| panic!("no analysis line:\n{text}"));
    let words: Vec<String> = lines[first..]
        .iter()
        .map_while(|l| {
            let cells: Vec<&str> = l.split('│').collect();
            (cells.len() >= 3).then(|| cells[cells.len() - 2].to_string())
        })
        .flat_map(|cell| {
            cell.split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    let expected: Vec<String> =
        crate::cli::analyze::line_to_string(Variant::Brazilian, &c.position(), &pv)
            .split_whitespace()
            .map(str::to_string)
            .collect();
    let shown: Vec<&String> = words.iter().filter(|w| expected.contains(w)).collect();
    assert_eq!(
        shown,
        expected.iter().collect::<Vec<_>>(),
        "every move of the line, in order, on the panel:\n{text}"
    );
}
