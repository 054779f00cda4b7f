//! Commands that write a file refuse a destination they cannot write before doing
//! the work, naming the path given (never a temporary file).

use std::process::{Command, Output};

fn damas(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(args)
        .output()
        .expect("run damas")
}

const GAME: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/review_blunder.pdn");

fn refused_at_once(o: &Output, path: &str) {
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{out}{err}");
    assert!(err.contains(&format!("cannot write {path}:")), "{err}");
    assert!(!err.contains("dir/.tmp"), "a temporary name: {err}");
    // Nothing was played or reviewed first.
    assert!(!out.contains("game ") && !out.contains("Review"), "{out}");
}

#[test]
fn a_match_into_a_missing_directory_is_refused_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no/such/dir/x.pdn");
    let path = path.to_str().unwrap();
    let o = damas(&[
        "match",
        "--games",
        "2",
        "--engine1",
        "depth=1",
        "--engine2",
        "depth=1",
        "--pdn",
        path,
    ]);
    refused_at_once(&o, path);
}

#[test]
fn a_review_chart_into_a_missing_directory_is_refused_before_the_review() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no/such/dir/x.svg");
    let path = path.to_str().unwrap();
    let o = damas(&["review", GAME, "--nodes", "1000", "--svg", path]);
    refused_at_once(&o, path);
    // A directory given as the file is refused too.
    let o = damas(&[
        "review",
        GAME,
        "--nodes",
        "1000",
        "--svg",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("it is a directory"));
}

#[test]
fn a_match_keeps_its_finished_games() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.pdn");
    let o = damas(&[
        "match",
        "--games",
        "2",
        "--engine1",
        "depth=1",
        "--engine2",
        "depth=1",
        "--pdn",
        path.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.matches("[Result ").count(), 2, "{text}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}
