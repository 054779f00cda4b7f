//! End-to-end tests of the analysis board, ballot games and the review chart: the real
//! `damas` binary runs in a tmux pane of 80×24 (a private tmux server). The analysis
//! board shows three lines, follows the board after each move of either side and never
//! plays a move itself; a ballot game starts from the ballot and its saved PDN carries
//! it; the review panel shows the evaluation chart. The time from a key to its effect
//! on screen while the engine thinks is measured and printed (not asserted).
//!
//! Needs `tmux`; without it each test prints SKIPPED and passes. Run alone with
//! `cargo test --release --test app tui_analysis:: -- --nocapture`.

use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::tmux::Tmux;

/// A private tmux server with an 80×24 pane running `damas play ARGS`.
fn start(name: &str, args: &str) -> Option<Tmux> {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("SKIPPED tui_analysis_e2e: tmux is not installed (apt-get install -y tmux)");
        return None;
    }
    let tmux = Tmux {
        socket: format!("damas-ae2e-{}-{name}", std::process::id()),
    };
    let bin = env!("CARGO_BIN_EXE_damas");
    let out = tmux.run(&[
        "-f",
        "/dev/null",
        "new-session",
        "-d",
        "-s",
        "e2e",
        "-x",
        "80",
        "-y",
        "24",
        "env",
        "PS1=$ ",
        "sh",
    ]);
    assert!(
        out.status.success(),
        "tmux: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    tmux.keys(&[&format!("{bin} play {args}; echo EXIT=$?"), "Enter"]);
    tmux.wait_for("the game screen", Duration::from_secs(20), |s| {
        s.contains("Moves (") && s.contains("White:")
    });
    Some(tmux)
}

/// The analysis panel's numbered lines (`1. +0.02 for White: c3-d4 …`) on `screen`.
fn analysis_lines(screen: &str) -> Vec<String> {
    screen
        .lines()
        .filter_map(|l| l.split('│').nth(1))
        .map(str::trim)
        .filter(|l| {
            l.len() > 3
                && l.as_bytes()[0].is_ascii_digit()
                && l[1..].starts_with(". ")
                && (l.contains(" for ") || l.contains("level") || l.contains(" wins "))
        })
        .map(str::to_string)
        .collect()
}

/// The first move of each analysis line.
fn first_moves(screen: &str) -> Vec<String> {
    analysis_lines(screen)
        .iter()
        .filter_map(|l| l.split(": ").nth(1))
        .filter_map(|m| m.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

#[test]
fn the_analysis_board_follows_both_sides_and_never_plays() {
    let Some(tmux) = start("analysis", "--analyze --lines 3 --hash 16") else {
        return;
    };
    let screen = tmux.wait_for("three lines", Duration::from_secs(30), |s| {
        analysis_lines(s).len() == 3
    });
    assert!(screen.contains("Analysis: 3 best moves"), "{screen}");
    // White's moves start on White's men (rows 3 and below at the start).
    let firsts = first_moves(&screen);
    assert!(firsts.iter().all(|m| m.ends_with('4')), "{screen}");
    // White moves: the lines become Black's replies.
    tmux.play_move("c3-d4");
    let screen = tmux.wait_for("Black's lines", Duration::from_secs(30), |s| {
        s.contains("1. c3-d4") && {
            let f = first_moves(s);
            f.len() == 3 && f.iter().all(|m| m.ends_with('5'))
        }
    });
    assert!(screen.contains("Moves (Black to move)"), "{screen}");
    // Black moves: White's lines again. White's men now stand on rows 1-4 and
    // Black's on rows 5-8, so a line is White's when its first move starts on row 4
    // or below (d4-c5 ends on row 5 and is White's).
    tmux.play_move("f6-g5");
    tmux.wait_for("White's lines", Duration::from_secs(30), |s| {
        s.contains("1. c3-d4 f6-g5")
            && {
                let f = first_moves(s);
                f.len() == 3
                    && f.iter()
                        .all(|m| matches!(m.as_bytes().get(1), Some(b'1'..=b'4')))
            }
            && s.contains("Moves (White to move)")
    });
    // The engine never plays: after a while it is still White's move at ply 2.
    sleep(Duration::from_secs(2));
    let screen = tmux.capture();
    assert!(screen.contains("Moves (White to move)"), "{screen}");
    let list: Vec<&str> = screen
        .lines()
        .skip_while(|l| !l.contains("Moves ("))
        .collect();
    assert!(
        !list.iter().any(|l| l.contains("2. ")),
        "no move was played:\n{screen}"
    );
    // A key's effect while the engine thinks: step back, measured to the screen.
    let mut times = Vec::new();
    for (key, expect) in [
        (",", "Moves (Black to move)"),
        (".", "Moves (White to move)"),
    ]
    .iter()
    .cycle()
    .take(6)
    {
        let t = Instant::now();
        tmux.literal(key);
        tmux.poll(
            "the step",
            Duration::from_secs(10),
            Duration::from_millis(5),
            |s| s.contains(expect),
        );
        times.push(t.elapsed().as_millis());
        sleep(Duration::from_millis(300));
    }
    times.sort_unstable();
    println!("key to screen while analysing (ms, sorted, tmux capture included): {times:?}");
    // m stops and resumes.
    tmux.literal("m");
    tmux.wait_for("stopped", Duration::from_secs(10), |s| {
        s.contains("stopped (m resumes)")
    });
    tmux.literal("m");
    tmux.wait_for("resumed", Duration::from_secs(10), |s| {
        s.contains("Analysis resumed")
    });
    tmux.keys(&["C-c"]);
    tmux.wait_for("exit", Duration::from_secs(10), |s| s.contains("EXIT=130"));
}

#[test]
fn a_ballot_game_starts_from_the_ballot_and_its_pdn_carries_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ballot.pdn");
    let Some(tmux) = start("ballot", "--ballot 1 --white human --black human") else {
        return;
    };
    let screen = tmux.wait_for("the ballot", Duration::from_secs(10), |s| {
        s.contains("Ballot: 1-I cd4 ba5 dc5")
    });
    // After cd4 ba5 dc5 Black is to move, White's man stands on c5.
    assert!(screen.contains("Moves (Black to move)"), "{screen}");
    tmux.play_move("d6xb4");
    tmux.wait_for("the capture", Duration::from_secs(10), |s| {
        s.contains("d6xb4")
    });
    tmux.literal("s");
    tmux.keys(&["C-u"]);
    tmux.literal(path.to_str().unwrap());
    tmux.keys(&["Enter"]);
    tmux.wait_for("saved", Duration::from_secs(10), |s| s.contains("Saved to"));
    let pdn = std::fs::read_to_string(&path).unwrap();
    assert!(pdn.contains("[Opening \"1-I cd4 ba5 dc5\"]"), "{pdn}");
    assert!(pdn.contains("[SetUp \"1\"]"), "{pdn}");
    assert!(
        pdn.contains(
            "[FEN \"B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,c5:Ba5,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8\"]"
        ),
        "{pdn}"
    );
    assert!(pdn.contains("1... d6xb4"), "{pdn}");
    tmux.keys(&["C-c"]);
}

#[test]
fn the_review_shows_the_evaluation_chart() {
    // Two humans; White's d4-c5 drops a man for nothing (d6xb4 is forced).
    let Some(tmux) = start(
        "chart",
        "--white human --black human --fen 'W:Wa1,c1,e1,g1,d4:Bb8,d8,f8,h8,d6'",
    ) else {
        return;
    };
    for m in ["d4-c5", "d6xb4", "a1-b2"] {
        tmux.play_move(m);
    }
    tmux.wait_for("three moves", Duration::from_secs(10), |s| {
        s.contains("2. a1-b2")
    });
    tmux.literal("v");
    let screen = tmux.wait_for("the chart", Duration::from_secs(60), |s| {
        s.contains("Review, Brazilian rules (arrows") && s.contains("Evaluation (White up")
    });
    assert!(screen.contains("d4-c5??"), "{screen}");
    tmux.keys(&["C-c"]);
}
