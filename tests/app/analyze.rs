//! `damas analyze` tells the truth about what it searched: a finished game is reported
//! as finished with its result, a forced move is scored by the line after it, and a
//! limit with nothing to search is refused.

use std::process::{Command, Output};

fn damas(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_damas"))
        .arg("analyze")
        .args(args)
        .output()
        .expect("run damas")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn a_finished_game_is_reported_with_its_result() {
    // Black has no pieces; White to move has a move but the game is over.
    let o = damas(&["--fen", "W:Wa1:B", "--depth", "4"]);
    assert!(o.status.success());
    assert_eq!(
        stdout(&o),
        "game over: White wins (no pieces left), 2-0\nbestmove none result 2-0\n"
    );
    // White's man is blocked: no legal move.
    let o = damas(&["--fen", "W:Wa1:Bb2,c3", "--time", "1"]);
    assert!(o.status.success());
    assert_eq!(
        stdout(&o),
        "game over: Black wins (no legal move), 0-2\nbestmove none result 0-2\n"
    );
}

#[test]
fn a_forced_move_is_scored_by_the_line_after_it() {
    // White's only move is the capture c3xe5.
    let o = damas(&["--fen", "W:Wc3,a1,e1,g1:Bd4,b8,d8,h8", "--nodes", "20000"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let infos: Vec<&str> = out.lines().filter(|l| l.starts_with("info ")).collect();
    assert!(infos.len() > 4, "one line per iteration: {out}");
    assert!(
        out.lines().last().unwrap().starts_with("bestmove c3xe5 "),
        "{out}"
    );
}

#[test]
fn limits_with_nothing_to_search_are_refused() {
    for flag in ["--depth", "--nodes"] {
        let o = damas(&[flag, "0"]);
        assert_eq!(o.status.code(), Some(2), "{flag} 0");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(
            stderr.contains(flag) && stderr.contains("at least 1"),
            "{flag} 0: {stderr}"
        );
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn a_reader_that_goes_away_ends_the_output_not_the_command() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    // As `damas analyze --time 0.5 | head -1`: the pipe is closed after the first
    // line, and the lines of the later iterations and `bestmove` find no reader.
    let mut child = Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(["analyze", "--time", "0.5"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run damas");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("the first line");
    let o = child.wait_with_output().expect("wait for damas");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(first.starts_with("info depth 1 "), "{first}");
    assert!(o.status.success(), "{:?}: {stderr}", o.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn every_technique_is_named_in_the_help_the_readme_and_the_error() {
    // The `--techniques` option's help, up to the next option.
    let help = stdout(&damas(&["--help"]));
    let help = help
        .split_once("--techniques")
        .and_then(|(_, rest)| rest.split("\n      --").next())
        .expect("analyze --help describes --techniques")
        .to_string();
    // The README's list of techniques, up to the end of its sentence.
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let list = readme
        .split_once("Techniques (`--techniques`")
        .and_then(|(_, rest)| rest.split("`.").next())
        .expect("the README lists the techniques")
        .to_string();
    let refused = damas(&["--techniques", "pvs+nonsense", "--depth", "1"]);
    assert!(!refused.status.success());
    let error = String::from_utf8_lossy(&refused.stderr).into_owned();
    assert!(error.contains("\"nonsense\""), "{error}");
    for name in damas_engine::search::Techniques::names() {
        // Each name reads back as itself, alone.
        let alone: damas_engine::search::Techniques = name.parse().expect("a technique");
        assert_eq!(alone.to_string(), name);
        let word = |text: &str| {
            // Names may hold a dash (`probcut-tt`).
            text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .any(|w| w == name)
        };
        assert!(word(&help), "analyze --help does not name {name}: {help}");
        assert!(
            word(&list),
            "the README's list does not name {name}: {list}"
        );
        assert!(word(&error), "the error does not name {name}");
    }
}

#[test]
fn analyze_command_honours_time() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(["analyze", "--time", "0.2", "--stats"])
        .output()
        .expect("run damas");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf8");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("info depth 1 score "), "{text}");
    assert!(lines[lines.len() - 2].starts_with("bestmove "), "{text}");
    // The search ends by itself (without a depth it would go on to the deepest
    // iteration) and reports its own clock; how close it comes to 0.2 s is measured,
    // not tested (docs/performance.md, "Time management").
    let stats: Vec<&str> = lines[lines.len() - 1].split(' ').collect();
    let time: Option<f64> = stats
        .iter()
        .position(|w| *w == "time")
        .and_then(|i| stats[i + 1].parse().ok());
    assert!(time.is_some(), "{text}");
}

#[test]
fn analyze_rejects_bad_input() {
    for args in [
        &["analyze", "--depth", "3", "--techniques", "pvs,warp"][..],
        &["analyze", "--depth", "3", "--fen", "W:Wz9"],
        &["analyze"],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_damas"))
            .args(args)
            .output()
            .expect("run damas");
        assert!(!out.status.success(), "{args:?}");
    }
}
