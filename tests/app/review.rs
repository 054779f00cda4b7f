//! `damas review` end to end: a short game with a known blunder (White's d4-c5 drops a
//! man) is marked there and nowhere else with a blunder, the summary counts it, and
//! bad files or game numbers fail with a message and a non-zero status.

use std::process::{Command, Output};

fn damas(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(args)
        .output()
        .expect("run damas")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

const GAME: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/review_blunder.pdn");

#[test]
fn review_marks_the_blunder_and_sums_up_each_player() {
    let o = damas(&["review", GAME, "--nodes", "20000"]);
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    let moves: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    assert_eq!(moves.len(), 5, "{out}");
    assert!(
        moves[0].starts_with("1.") && moves[0].contains("d4-c5??") && moves[0].contains("blunder"),
        "{out}"
    );
    assert!(
        moves[0].contains("for Black"),
        "the score is labelled: {out}"
    );
    assert!(
        moves[0].contains("best "),
        "the engine's move is given: {out}"
    );
    for m in &moves[1..] {
        assert!(!m.contains("??") && !m.contains("blunder"), "{out}");
    }
    assert!(moves[1].contains("(forced)"), "{out}");
    assert!(
        out.contains("White (Ana): 3 moves") && out.contains("1 blunder,"),
        "{out}"
    );
    assert!(out.contains("Black (Bia): 2 moves, "), "{out}");
    assert!(out.contains("0 blunders"), "{out}");
    // Node-limited: the same output every time.
    let again = damas(&["review", GAME, "--nodes", "20000"]);
    assert_eq!(o.stdout, again.stdout);
}

#[test]
fn bad_files_and_game_numbers_fail_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.pdn");
    std::fs::write(&bad, "1. c3-d4 f6-e5 2. d4-c5 *\n").unwrap();
    let o = damas(&["review", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("illegal move") && err.contains("line 1"),
        "{err}"
    );
    let empty = dir.path().join("empty.pdn");
    std::fs::write(&empty, "").unwrap();
    let o = damas(&["review", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no game"));
    let o = damas(&["review", GAME, "--game", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no game 2 (the file holds 1)"));
    let o = damas(&["review", "/nonexistent/x.pdn"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn svg_writes_the_evaluation_chart_with_the_marked_moves() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("eval.svg");
    let o = damas(&[
        "review",
        GAME,
        "--nodes",
        "20000",
        "--svg",
        path.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
        "{svg}"
    );
    assert!(svg.contains("class=\"eval\""), "{svg}");
    // The one blunder of the game is the one marked dot.
    assert_eq!(svg.matches("class=\"mark\"").count(), 1, "{svg}");
    assert!(svg.contains(">??</text>"), "{svg}");
    // Only the file itself is left in the directory (written under a temporary name).
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

const RUSSIAN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/review_russian.pdn");

#[test]
fn a_russian_game_is_reviewed_under_russian_rules() {
    // 1. c3xa5 takes one man where c3xe5xg7 takes two: legal only without the
    // majority rule, so the game's `GameType 25` must pick the Russian rules.
    let o = damas(&["review", RUSSIAN, "--nodes", "2000"]);
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("c3xa5"), "{out}");
    assert!(out.contains("3 plies"), "{out}");
    // Judged as Brazilian, the same game has an illegal move.
    let o = damas(&[
        "review",
        RUSSIAN,
        "--nodes",
        "2000",
        "--variant",
        "brazilian",
    ]);
    assert!(!o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("c3xa5"), "{}", text(&o));
}
