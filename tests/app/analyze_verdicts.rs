//! `damas analyze` says what its proven scores prove: a database win reached by the
//! search claims no length it does not know, one database position always gets the
//! same verdict, and `bestmove`'s score is that of an `info` row printed before it.

use std::process::{Command, Output};

fn run(bin: &str, args: &[&str]) -> Output {
    Command::new(bin)
        .args(args)
        .output()
        .expect("run the program")
}

fn analyze(args: &[&str]) -> String {
    let mut all = vec!["analyze", "--hash", "4"];
    all.extend_from_slice(args);
    let o = run(env!("CARGO_BIN_EXE_damas"), &all);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The score of a row: `score 12 nodes` gives `12`, `score win 7 nodes` `win 7`.
fn score_of(row: &str) -> &str {
    let rest = &row[row.find(" score ").expect("a score") + 7..];
    &rest[..rest.find(" nodes ").expect("nodes after the score")]
}

fn row<'a>(out: &'a str, start: &str) -> Option<&'a str> {
    out.lines().rev().find(|l| l.starts_with(start))
}

#[test]
fn a_database_win_reached_by_the_search_claims_no_length() {
    // Three-piece databases with distances to the next conversion.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().to_str().unwrap();
    let o = run(
        env!("CARGO_BIN_EXE_damas-egdb"),
        &["build", "--pieces", "3", "--dtc", "--dir", db],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The king's capture reaches a won three-piece position: the win is proven, its
    // length (beyond the next conversion) is not.
    let out = analyze(&["--egdb", db, "--fen", "W:WKa1,e3:Bc3,h8", "--depth", "6"]);
    let best = row(&out, "bestmove").unwrap();
    assert_eq!(score_of(best), "win", "{out}");
    assert_eq!(
        row(&out, "verdict"),
        Some("verdict White wins (database position in 1 ply)"),
        "{out}"
    );
    assert!(out.lines().all(|l| !l.contains("score win 1 ")), "{out}");
    // A line that ends the game counts its plies.
    let out = analyze(&["--egdb", db, "--fen", "W:Wa1,c3,e3:Bf6", "--depth", "6"]);
    assert_eq!(score_of(row(&out, "bestmove").unwrap()), "win 3", "{out}");
    assert_eq!(
        row(&out, "verdict"),
        Some("verdict White wins in 2 moves (3 plies)"),
        "{out}"
    );
}

#[test]
fn a_database_position_gets_one_verdict_whatever_the_limit() {
    // Four pieces, in the built-in databases: distances are solved at the root when
    // the search waits for them (depth, nodes), in the background when it does not
    // (time), and count to the next conversion only.
    let fen = "W:Wa1,e1,e3:BKg1";
    let mut seen = Vec::new();
    for limit in [
        ["--depth", "4"],
        ["--time", "0.2"],
        ["--nodes", "1000"],
        ["--depth", "4"],
    ] {
        let out = analyze(&["--fen", fen, limit[0], limit[1]]);
        let best = row(&out, "bestmove").unwrap();
        seen.push((
            score_of(best).to_string(),
            row(&out, "verdict").map(str::to_string),
        ));
    }
    assert!(seen.iter().all(|s| s == &seen[0]), "{seen:?}");
    assert_eq!(
        seen[0],
        (
            "win".to_string(),
            Some("verdict White wins (database position)".to_string())
        )
    );
}

#[test]
fn bestmove_gives_the_score_of_an_info_row_before_it() {
    // Node limits that stop the search inside an iteration, after it changed the
    // score of the move or the move.
    for nodes in ["1", "3000", "7777", "55555"] {
        let out = analyze(&["--nodes", nodes]);
        let best = row(&out, "bestmove").unwrap();
        let info = row(&out, "info").unwrap();
        assert_eq!(score_of(best), score_of(info), "{out}");
        let mv = best.split(' ').nth(1).unwrap();
        assert!(info.contains(&format!(" pv {mv}")), "{out}");
    }
}
