//! `damas analyze --lines N`: each iteration prints N lines with distinct first moves,
//! best first; one line prints none.

use std::process::Command;

fn analyze(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_damas"))
        .arg("analyze")
        .args(args)
        .output()
        .expect("damas runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn three_lines_are_printed_per_iteration() {
    let text = analyze(&["--depth", "6", "--eval", "material", "--lines", "3"]);
    let last: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("info depth 6 "))
        .skip(1)
        .take_while(|l| l.starts_with("line "))
        .collect();
    assert_eq!(last.len(), 3, "{text}");
    let firsts: Vec<&str> = last
        .iter()
        .map(|l| l.split(" pv ").nth(1).unwrap().split(' ').next().unwrap())
        .collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    let best = text.lines().last().unwrap();
    assert!(
        best.starts_with(&format!("bestmove {} ", firsts[0])),
        "{text}"
    );
    let plain = analyze(&["--depth", "6", "--eval", "material"]);
    assert!(!plain.lines().any(|l| l.starts_with("line ")), "{plain}");
}

#[test]
fn a_bad_line_count_is_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(["analyze", "--depth", "2", "--lines", "0"])
        .output()
        .unwrap();
    assert!(!out.status.success());
}
