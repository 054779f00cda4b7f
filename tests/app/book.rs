//! `damas book show`: the embedded books of both rules, their start moves in the
//! notation asked for (algebraic unless told), and a bad notation refused.

use std::process::{Command, Output};

fn show(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(["book", "show"])
        .args(args)
        .output()
        .expect("run damas book show")
}

/// The `start MOVE weight W` lines as (move, weight).
fn start_moves(o: &Output) -> Vec<(String, String)> {
    assert!(o.status.success(), "{o:?}");
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w.len() == 4 && w[0] == "start" && w[2] == "weight")
                .then(|| (w[1].to_string(), w[3].to_string()))
        })
        .collect()
}

fn is_algebraic(mv: &str) -> bool {
    let b = mv.as_bytes();
    mv.len() == 5
        && (b'a'..=b'h').contains(&b[0])
        && (b'1'..=b'8').contains(&b[1])
        && (b[2] == b'-' || b[2] == b'x')
        && (b'a'..=b'h').contains(&b[3])
        && (b'1'..=b'8').contains(&b[4])
}

fn is_numeric(mv: &str) -> bool {
    let parts: Vec<&str> = mv.split(['-', 'x']).collect();
    parts.len() == 2
        && parts
            .iter()
            .all(|p| p.parse::<u8>().is_ok_and(|n| (1..=32).contains(&n)))
}

#[test]
fn book_show_writes_the_start_moves_in_the_notation_asked_for() {
    for variant in ["brazilian", "russian"] {
        let plain = show(&["--variant", variant]);
        let head = String::from_utf8_lossy(&plain.stdout);
        assert!(
            head.starts_with(&format!("{variant} book embedded: ")),
            "{head}"
        );
        let algebraic = start_moves(&plain);
        assert!(!algebraic.is_empty(), "{head}");
        assert!(
            algebraic.iter().all(|(m, _)| is_algebraic(m)),
            "algebraic by default: {algebraic:?}"
        );
        let numeric = start_moves(&show(&["--variant", variant, "--notation", "numeric"]));
        assert!(
            numeric.iter().all(|(m, _)| is_numeric(m)),
            "numeric when asked: {numeric:?}"
        );
        // The same moves with the same weights, only written otherwise.
        let weights = |l: &[(String, String)]| l.iter().map(|(_, w)| w.clone()).collect::<Vec<_>>();
        assert_eq!(weights(&algebraic), weights(&numeric));
        assert_ne!(algebraic, numeric);
    }
    let bad = show(&["--notation", "runic"]);
    assert!(!bad.status.success());
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("runic"),
        "{bad:?}"
    );
}
