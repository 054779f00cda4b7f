//! One review: the game's `v` (the review job, given the game engine's own options)
//! and `damas review` mark every move of a game alike; the opening book's moves are
//! labelled and not marked, and the review names the rules it judged by.

use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use damas::ui::review_job::{ReviewEvent, ReviewJob};
use damas_engine::book::embedded_book;
use damas_engine::eval::{Evaluation, Trained};
use damas_engine::search::SearchOptions;
use damas_rules::game::Game;
use damas_rules::movegen::legal_moves;
use damas_rules::pdn::{write_game, PdnGame};
use damas_rules::position::Position;
use damas_rules::variant::Variant;

/// Four plies of the book (its heaviest move each time), then four of the first
/// legal move outside it.
fn game() -> Game {
    let book = embedded_book(Variant::Brazilian);
    let mut game = Game::new(Variant::Brazilian, Position::start());
    for ply in 0..8 {
        let pos = game.position();
        let from_book = book
            .moves(&pos)
            .and_then(|ms| {
                ms.iter()
                    .filter(|m| m.weight.0 > 0)
                    .max_by_key(|m| m.weight.0)
            })
            .map(|m| m.mv)
            .filter(|_| ply < 4);
        let in_book = |m| {
            book.moves(&pos)
                .is_some_and(|ms| ms.iter().any(|b| b.mv == m))
        };
        let legal = legal_moves(Variant::Brazilian, &pos);
        let m = from_book
            .or_else(|| legal.iter().copied().find(|&m| !in_book(m)))
            .unwrap_or(legal[0]);
        assert!(game.play(m));
    }
    game
}

#[test]
fn the_games_review_and_damas_review_mark_alike() {
    let game = game();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.pdn");
    std::fs::write(&file, write_game(&PdnGame::from_game(&game))).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(["review", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        out.lines().next().unwrap().contains("; Brazilian rules; "),
        "{out}"
    );
    let cli: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .collect();

    // The game's engine has its own variety, threads and table.
    let noisy = Evaluation::Trained(Arc::new(
        Trained::embedded(Variant::Brazilian).with_noise(11, 50),
    ));
    let options = SearchOptions::default()
        .with_eval(noisy)
        .with_threads(2)
        .with_hash_mb(8);
    let job = ReviewJob::spawn(options, Position::start(), game.moves().to_vec());
    let in_game = loop {
        match job.try_event() {
            Some(ReviewEvent::Done(r)) => break r,
            Some(ReviewEvent::Progress(..)) => {}
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    };
    assert_eq!(in_game.variant, Variant::Brazilian);
    assert_eq!(in_game.moves.len(), cli.len(), "{out}");
    for (m, line) in in_game.moves.iter().zip(&cli) {
        let mark = m.judgement.mark.map_or("", |k| k.symbol());
        // The move with its mark, as `damas review` prints it.
        let word = line.split_whitespace().nth(1).unwrap();
        assert_eq!(word, format!("{}{mark}", m.played_text), "{out}");
        assert_eq!(line.contains("(book)"), m.book, "{out}");
        assert!(line.contains(&m.after_label()), "{out}");
    }
    // The book's moves are labelled and never marked.
    let book: Vec<_> = in_game.moves.iter().filter(|m| m.book).collect();
    assert_eq!(book.len(), 4, "{out}");
    assert!(book.iter().all(|m| m.judgement.mark.is_none()), "{out}");
}
