//! The Hub under limits and odd input: a table the machine cannot give is an `error`
//! line with the old table kept and nothing on stderr; unknown parameters and `go`
//! modes are answered; moves of the other numbering are named as such. The command
//! line and the terminal game refuse such a table with a message and a non-zero
//! status.

use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_damas");

/// Run `damas ARGS` under `ulimit -v` (KiB) with `input` on stdin.
fn limited(kib: u64, args: &str, input: &str) -> Output {
    let mut c = Command::new("sh");
    c.arg("-c")
        .arg(format!("ulimit -v {kib} && exec {BIN} {args}"));
    crate::process::with_input(c, input)
}

/// Address space the process may use: far below the 60 GB table asked for.
const LIMIT_KIB: u64 = 4 << 20;

#[test]
fn a_hub_table_too_large_is_an_error_line_and_the_old_table_stays() {
    let o = limited(
        LIMIT_KIB,
        "hub",
        "hub\nset-param name=hash value=60000\npos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww\nlevel depth=3\ngo think\nping\nquit\n",
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(
        o.stderr.is_empty(),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 1, "{out}");
    assert!(
        errors[0].contains("hash 60000") && errors[0].contains("not enough memory"),
        "{out}"
    );
    assert!(errors[0].contains("unchanged"), "{out}");
    // The old table searched: a move and the answer to ping.
    assert!(out.lines().any(|l| l.starts_with("done move=")), "{out}");
    assert!(out.lines().any(|l| l == "pong"), "{out}");
}

#[test]
fn analyze_with_a_table_too_large_fails_with_a_message() {
    let o = limited(LIMIT_KIB, "analyze --hash 60000 --depth 2", "");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot allocate a table of 60000 MB"), "{err}");
    assert!(!err.contains("memory allocation"), "an abort: {err}");
}

#[test]
fn the_game_with_a_table_too_large_fails_with_a_message_before_its_screen() {
    let o = limited(LIMIT_KIB, "play --hash 60000", "");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot allocate a table of 60000 MB"), "{err}");
    // The check comes before the game needs a terminal.
    assert!(!err.contains("interactive terminal"), "{err}");
}

fn hub(input: &str) -> String {
    limited(LIMIT_KIB, "hub", input)
        .stdout
        .iter()
        .map(|&b| b as char)
        .collect()
}

#[test]
fn unknown_parameters_and_go_modes_are_answered_with_errors() {
    let out = hub("set-param name=no-such value=1\ngo\ngo fly\nping\nquit\n");
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 3, "{out}");
    assert!(errors[0].contains("no-such"), "{out}");
    assert!(errors[1].contains("think, ponder or analyze"), "{out}");
    assert!(errors[2].contains("fly"), "{out}");
    // None of them started a search.
    assert!(!out.contains("done"), "{out}");
}

#[test]
fn the_default_numbering_is_pydraughts_and_the_other_is_named() {
    // pydraughts numbers White's first moves 9-13 … 12-16 (rows reversed).
    let out = hub(
        "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"10-14\"\nlevel depth=2\ngo think\nping\n\
         pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"22-18\"\nping\nquit\n",
    );
    let done = out.lines().find(|l| l.starts_with("done move=")).unwrap();
    // Black's reply in the same numbering: from the rows 6 to 8 (squares 21 to 32).
    let from: u32 = done["done move=".len()..]
        .split(['-', 'x'])
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((21..=24).contains(&from), "{out}");
    let error = out.lines().find(|l| l.starts_with("error")).unwrap();
    assert!(error.contains("legal in the standard numbering"), "{out}");
    assert!(
        error.contains("set-param name=move-numbering value=standard"),
        "{out}"
    );
}
