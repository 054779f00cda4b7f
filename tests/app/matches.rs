//! `damas match` end to end: bad openings files are refused with the line at fault
//! and a non-zero exit; a match with two workers writes the same games as with one;
//! an SPRT stops the match before the game limit; `damas pdn score` reads the match's
//! report back from its games, and `damas pdn endings` counts the database wins
//! each player reached; a Hub engine that dies is started again for the next game.

use std::path::Path;
use std::process::{Command, Output};

fn damas(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_damas"))
        .arg("match")
        .args(args)
        .output()
        .expect("run damas")
}

/// Write `body` to `dir/name`; its path as text.
fn write_file(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    path.to_string_lossy().into_owned()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn bad_openings_files_are_refused_with_the_line_at_fault() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, body: &str| write_file(dir.path(), name, body);
    let cases = [
        (
            write(
                "bad.fen",
                "# x\nW:W21-32:B1-12 ; ok\nW:Wa1,zz9:Bb8 ; broken\n",
            ),
            "line 3: bad FEN",
        ),
        (write("empty.fen", ""), "no openings"),
        (
            write(
                "bad.pdn",
                "[Event \"a\"]\n1. c3-d4 f6-g5 *\n\n1. c3-d4 c3-d4 *\n",
            ),
            "game 2 move 1... (line 4",
        ),
    ];
    for (file, expected) in cases {
        let out = damas(&["--openings", &file, "--games", "2", "--quiet"]);
        assert_eq!(out.status.code(), Some(2), "{file}");
        let err = text(&out.stderr);
        assert!(err.contains(expected), "{file}: {err}");
    }
}

fn play(dir: &Path, name: &str, extra: &[&str]) -> (String, String) {
    let pdn = dir.join(name);
    let pdn_arg = pdn.to_string_lossy().into_owned();
    let mut args = vec![
        "--engine1",
        "depth=2,name=a",
        "--engine2",
        "depth=1,name=b",
        "--max-plies",
        "60",
        "--quiet",
        "--pdn",
        &pdn_arg,
    ];
    args.extend_from_slice(extra);
    let out = damas(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    (text(&out.stdout), std::fs::read_to_string(&pdn).unwrap())
}

#[test]
fn two_workers_write_the_same_match_as_one() {
    let dir = tempfile::tempdir().unwrap();
    let (out1, games1) = play(dir.path(), "one.pdn", &["--games", "6"]);
    let (out2, games2) = play(
        dir.path(),
        "two.pdn",
        &["--games", "6", "--concurrency", "2"],
    );
    assert_eq!(games1, games2);
    let lines = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("games written"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(lines(&out1), lines(&out2));
    assert!(out1.contains("a vs b: 6 games"), "{out1}");
    assert!(out1.contains("draw ratio: "), "{out1}");
    assert_eq!(games1.matches("[FEN ").count(), 6);
}

#[test]
fn sprt_stops_the_match_early() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("s.pdn");
    let pdn_arg = pdn.to_string_lossy().into_owned();
    let out = damas(&[
        "--engine1",
        "depth=5",
        "--engine2",
        "depth=1",
        "--games",
        "100",
        "--sprt",
        "0,200,0.1,0.1",
        "--concurrency",
        "2",
        "--quiet",
        "--pdn",
        &pdn_arg,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    assert!(stdout.contains("SPRT decided after "), "{stdout}");
    let games = std::fs::read_to_string(&pdn)
        .unwrap()
        .matches("[Round ")
        .count();
    assert!((2..100).contains(&games), "{games} games");
    assert!(stdout.contains(&format!(": {games} games, ")), "{stdout}");
    // The test runs on game pairs: it stops after a pair.
    assert!(games.is_multiple_of(2), "{games} games");
    assert!(stdout.contains("game pairs: "), "{stdout}");
    // The games alone give the same report: score, Elo, pairs and the test's state.
    let scored = Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(["pdn", "score", &pdn_arg, "--sprt", "0,200,0.1,0.1"])
        .output()
        .expect("run damas");
    assert!(scored.status.success(), "{}", text(&scored.stderr));
    let report = text(&scored.stdout);
    let tail: Vec<&str> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("depth=5 vs depth=1: "))
        .take_while(|l| !l.starts_with("games written"))
        .collect();
    assert_eq!(report.lines().collect::<Vec<_>>(), tail, "{report}");
}

#[test]
fn the_help_names_every_engine_setting() {
    let o = damas(&["--help"]);
    assert!(o.status.success());
    let help = text(&o.stdout);
    for s in damas_engine::settings::SETTINGS {
        assert!(
            help.contains(s.key),
            "`match --help` omits {}: {help}",
            s.key
        );
    }
}

#[test]
fn pdn_endings_counts_the_database_wins_each_player_reached() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, body: &str| write_file(dir.path(), name, body);
    let endings = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_damas"))
            .args(["pdn", "endings"])
            .args(args)
            .output()
            .expect("run damas")
    };
    let game = |game_type: &str, white: &str, black: &str| {
        format!(
            "[White \"{white}\"]\n[Black \"{black}\"]\n[GameType \"{game_type}\"]\n\
             [FEN \"W:Wc3:Bd4\"]\n\n1. c3xe5 2-0\n\n"
        )
    };
    // White captures the last man: a won two-piece position, converted.
    let pdn = write("m.pdn", &(game("26", "a", "b") + &game("26", "b", "a")));
    let out = endings(&[&pdn]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(
        report.starts_with("4 pieces or fewer, brazilian rules\n"),
        "{report}"
    );
    for name in ["a", "b"] {
        assert!(
            report.contains(&format!(
                "{name}: reached a database win in 1 of 2 games: won 1, drawn 0"
            )),
            "{report}"
        );
    }
    // Games of two rules, a missing file and a directory without databases fail.
    let mixed = write("x.pdn", &(game("26", "a", "b") + &game("25", "b", "a")));
    let out = endings(&[&mixed]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("game 2: russian rules"),
        "{}",
        text(&out.stderr)
    );
    let missing = dir.path().join("none.pdn");
    assert!(!endings(&[&missing.to_string_lossy()]).status.success());
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let out = endings(&[&pdn, "--egdb", &empty.to_string_lossy()]);
    assert!(!out.status.success(), "{}", text(&out.stdout));
}

/// A Hub engine that dies in a game loses that game only: the match starts it again
/// for the next one instead of forfeiting the rest.
#[test]
fn a_hub_engine_that_dies_loses_one_game_and_is_started_again() {
    let dir = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_damas");
    let mark = dir.path().join("died");
    // The first start passes lines through until the first `go`, then ends (and the
    // engine with it); every later start is the plain engine.
    let script = write_file(
        dir.path(),
        "flaky.sh",
        &format!(
            "if [ -e '{m}' ]; then exec '{bin}' hub; fi\ntouch '{m}'\n\
             while IFS= read -r l; do case \"$l\" in go*) exit;; esac; \
             printf '%s\\n' \"$l\"; done | '{bin}' hub\n",
            m = mark.display()
        ),
    );
    let flaky = format!("name=flaky,depth=2,cmd=sh {script}");
    let out = damas(&[
        "--engine1",
        "name=steady,depth=2",
        "--engine2",
        &flaky,
        "--games",
        "4",
        "--quiet",
    ]);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    let games: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("game ") && !l.starts_with("game pairs"))
        .collect();
    assert_eq!(games.len(), 4, "{text}");
    assert!(games[0].contains("flaky failed"), "{text}");
    assert!(
        games[1..].iter().all(|g| !g.contains("failed")),
        "the engine is started again after it dies:\n{text}"
    );
}
