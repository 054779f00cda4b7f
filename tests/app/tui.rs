//! End-to-end test of the terminal UI: the real `damas` binary runs in a tmux pane
//! (a private tmux server), a move is typed (also in capitals), the engine's reply
//! appears, discarding the game asks first, a named level is shown and changed, a
//! flag falls on a game clock, the move list is looked back through, the game is
//! reviewed and continued from an earlier position, a Russian game names its rules and is
//! saved as `GameType 25`, the game is quit (with `q` and a yes, and
//! with Ctrl-C: status 130), and the terminal is checked to be restored: no alternate
//! screen, cursor visible, no mouse reporting, canonical mode and echo back.
//!
//! Needs `tmux` (`apt-get install -y tmux`); without it the test prints SKIPPED and
//! passes. Run alone with `cargo test --release --test app tui:: -- --nocapture`.

use std::process::Command;
use std::time::Duration;

use crate::tmux::Tmux;

fn start(name: &str) -> Option<Tmux> {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("SKIPPED tui_e2e: tmux is not installed (apt-get install -y tmux)");
        return None;
    }
    let tmux = Tmux {
        socket: format!("damas-e2e-{}-{name}", std::process::id()),
    };
    let out = tmux.run(&[
        "-f",
        "/dev/null",
        "new-session",
        "-d",
        "-s",
        "e2e",
        "-x",
        "100",
        "-y",
        "30",
        "env",
        "PS1=$ ",
        "sh",
    ]);
    assert!(
        out.status.success(),
        "tmux new-session: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(tmux)
}

/// Start `damas play ARGS` in the shell, printing its exit status when it ends.
fn play(tmux: &Tmux, args: &str) {
    let bin = env!("CARGO_BIN_EXE_damas");
    tmux.keys(&[&format!("{bin} play {args}; echo EXIT=$?"), "Enter"]);
}

/// `play ARGS` up to the game screen, in the alternate screen with the cursor hidden.
fn launch(tmux: &Tmux, args: &str) {
    play(tmux, args);
    tmux.wait_for("the game screen", Duration::from_secs(20), |s| {
        s.contains("Moves (White to move)")
    });
    assert!(
        tmux.flags().starts_with("1 0"),
        "alternate screen on, cursor hidden while playing: {}",
        tmux.flags()
    );
}

/// `q` on a game in progress asks first; `y` quits with status 0, terminal restored.
fn quit_confirming(tmux: &Tmux) {
    tmux.literal("q");
    tmux.wait_for("the question", Duration::from_secs(10), |s| {
        s.contains("lose the unsaved game")
    });
    tmux.literal("y");
    tmux.wait_for("exit", Duration::from_secs(10), |s| s.contains("EXIT=0"));
    tmux.assert_restored();
}

#[test]
fn type_a_move_see_the_reply_quit_and_find_the_terminal_restored() {
    let Some(tmux) = start("move") else { return };
    launch(&tmux, "--depth 4");
    tmux.literal("c3-d4");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("the engine's reply", Duration::from_secs(30), |s| {
        first_reply_shown(s, "1. c3-d4 ")
    });
    assert!(screen.contains("White to move"), "{screen}");
    // The game has moves and is not saved: quitting asks first.
    quit_confirming(&tmux);
}

/// The reply of the engine to White's first move, once it is on the screen.
fn first_reply_shown(s: &str, first: &str) -> bool {
    s.lines().any(|l| {
        let Some(i) = l.find(first) else {
            return false;
        };
        let reply: Vec<char> = l[i + first.len()..].chars().take(5).collect();
        reply.len() == 5
            && reply[0].is_ascii_lowercase()
            && reply[1].is_ascii_digit()
            && (reply[2] == '-' || reply[2] == 'x')
    })
}

#[test]
fn a_capital_letter_move_plays_and_a_new_game_asks_before_discarding() {
    let Some(tmux) = start("confirm") else { return };
    launch(&tmux, "--depth 4");
    // Capitals start a move like lower case (they used to be the FEN commands).
    tmux.literal("C3-D4");
    tmux.keys(&["Enter"]);
    tmux.wait_for("the engine's reply", Duration::from_secs(30), |s| {
        first_reply_shown(s, "1. c3-d4 ")
    });
    // `n` asks; `n` again keeps the game.
    tmux.literal("n");
    tmux.wait_for("the question", Duration::from_secs(10), |s| {
        s.contains("Start a new game and lose the unsaved game")
    });
    tmux.literal("n");
    let screen = tmux.wait_for("the answer", Duration::from_secs(10), |s| {
        s.contains("Nothing changed")
    });
    assert!(screen.contains("1. c3-d4 "), "game kept:\n{screen}");
    // Asked again and confirmed: a new game.
    tmux.literal("n");
    tmux.wait_for("the question", Duration::from_secs(10), |s| {
        s.contains("lose the unsaved game")
    });
    tmux.literal("y");
    let screen = tmux.wait_for("the new game", Duration::from_secs(10), |s| {
        s.contains("New game.")
    });
    assert!(!screen.contains("1. c3-d4"), "{screen}");
    // Nothing to lose now: q quits at once.
    tmux.literal("q");
    tmux.wait_for("exit", Duration::from_secs(10), |s| s.contains("EXIT=0"));
    tmux.assert_restored();
}

#[test]
fn ctrl_c_quits_while_the_engine_thinks_and_restores_the_terminal() {
    let Some(tmux) = start("ctrl-c") else { return };
    // The engine plays White with a long think: Ctrl-C must not wait for it.
    // Without the book: a book move would be played at once, with no think to interrupt.
    play(&tmux, "--white engine --black human --time 60 --no-book");
    tmux.wait_for("the engine thinking", Duration::from_secs(20), |s| {
        s.contains("thinking")
    });
    tmux.keys(&["C-c"]);
    // Ctrl-C ends the program like SIGINT would: status 130, while the 60 s think
    // still runs (the guard is far below it).
    tmux.wait_for("exit", Duration::from_secs(20), |s| s.contains("EXIT=130"));
    tmux.assert_restored();
}

#[test]
fn a_named_level_is_shown_and_plus_and_minus_change_it() {
    let Some(tmux) = start("level") else { return };
    play(&tmux, "--level beginner --depth 4");
    tmux.wait_for(
        "the level in the engine panel",
        Duration::from_secs(20),
        |s| s.contains("level 1 (beginner)"),
    );
    tmux.literal("+");
    tmux.wait_for("one level up", Duration::from_secs(10), |s| {
        s.contains("Engine level: 2 (novice)") && s.contains("level 2 (novice), depth 4")
    });
    // Separately: tmux would read `--` as the end of its options.
    tmux.literal("-");
    tmux.literal("-");
    tmux.wait_for("the lowest level", Duration::from_secs(10), |s| {
        s.contains("Engine level: 1 (beginner)")
    });
    // The beginner still answers a move.
    tmux.literal("c3-d4");
    tmux.keys(&["Enter"]);
    tmux.wait_for("the engine's reply", Duration::from_secs(30), |s| {
        first_reply_shown(s, "1. c3-d4 ")
    });
    quit_confirming(&tmux);
}

#[test]
fn on_a_clock_the_side_that_does_not_move_loses_on_time() {
    let Some(tmux) = start("clock") else { return };
    // 0.04 minutes (2.4 s) each: the engine (White) moves, the human does not.
    play(&tmux, "--white engine --black human --clock 0.04+0");
    let screen = tmux.wait_for("both clocks", Duration::from_secs(20), |s| {
        s.matches(" left").count() >= 2 && s.contains("clock 0.04+0")
    });
    assert!(screen.contains("0:02 left"), "{screen}");
    let screen = tmux.wait_for("the flag to fall", Duration::from_secs(30), |s| {
        s.contains("Game over: White wins (time ran out)")
    });
    assert!(screen.contains("Black: human 0:00 left"), "{screen}");
    // The game is over: quitting does not ask.
    tmux.literal("q");
    tmux.wait_for("exit", Duration::from_secs(10), |s| s.contains("EXIT=0"));
    tmux.assert_restored();
}

#[test]
fn looking_back_reviewing_and_continuing_from_an_earlier_position() {
    let Some(tmux) = start("review") else { return };
    // Two humans; White's d4-c5 drops a man (d6xb4 is forced, the man on b4 is safe).
    launch(
        &tmux,
        "--white human --black human --fen 'W:Wa1,c1,e1,g1,d4:Bb8,d8,f8,h8,d6'",
    );
    for m in ["d4-c5", "d6xb4", "a1-b2"] {
        tmux.literal(m);
        tmux.keys(&["Enter"]);
    }
    tmux.wait_for("three moves", Duration::from_secs(10), |s| {
        s.contains("2. a1-b2")
    });
    // Look back one ply: the game stays, the board shows the earlier position.
    tmux.literal(",");
    let screen = tmux.wait_for("the view", Duration::from_secs(10), |s| {
        s.contains("VIEWING ply 2 of 3")
    });
    assert!(screen.contains("Viewing move 1... d6xb4"), "{screen}");
    assert!(
        screen.contains("2. a1-b2"),
        "the game is untouched:\n{screen}"
    );
    tmux.keys(&["End"]);
    tmux.wait_for("the game again", Duration::from_secs(10), |s| {
        s.contains("Back to the game") && !s.contains("VIEWING")
    });
    // The review marks the blunder.
    tmux.literal("v");
    let screen = tmux.wait_for("the review", Duration::from_secs(60), |s| {
        s.contains("Review, Brazilian rules (arrows")
    });
    assert!(screen.contains("d4-c5??"), "{screen}");
    assert!(screen.contains("1 blunder"), "{screen}");
    tmux.keys(&["Escape"]);
    tmux.wait_for("the review closed", Duration::from_secs(10), |s| {
        s.contains("Review closed")
    });
    // Continue from one ply back: asks, then the last move is gone.
    tmux.literal(",");
    tmux.literal("x");
    tmux.wait_for("the question", Duration::from_secs(10), |s| {
        s.contains("Continue from here, taking back the last ply (r replays it)")
    });
    tmux.literal("y");
    let screen = tmux.wait_for("the shorter game", Duration::from_secs(10), |s| {
        s.contains("Continuing from the viewed position")
    });
    assert!(!screen.contains("a1-b2"), "{screen}");
    tmux.keys(&["C-c"]);
    tmux.wait_for("exit", Duration::from_secs(10), |s| s.contains("EXIT=130"));
    tmux.assert_restored();
}

#[test]
fn without_databases_the_game_says_how_to_build_them() {
    let Some(tmux) = start("nodb") else { return };
    // No databases at any standard place: an empty home, data directory and folder.
    let empty = std::env::temp_dir().join(format!("damas-e2e-nodb-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let dir = empty.display();
    let bin = env!("CARGO_BIN_EXE_damas");
    tmux.keys(&[
        &format!(
            "cd {dir} && env -u DAMAS_EGDB HOME={dir} XDG_DATA_HOME={dir} {bin} play --depth 2; echo EXIT=$?"
        ),
        "Enter",
    ]);
    let screen = tmux.wait_for("the game screen", Duration::from_secs(20), |s| {
        s.contains("Moves (White to move)")
    });
    assert!(
        screen.contains("No endgame databases found"),
        "the hint is on the game screen: {screen}"
    );
    tmux.literal("q");
    tmux.wait_for("exit", Duration::from_secs(10), |s| s.contains("EXIT=0"));
    let _ = std::fs::remove_dir_all(&empty);
}

#[test]
fn a_russian_game_names_its_rules_and_is_saved_as_russian() {
    let Some(tmux) = start("russian") else { return };
    let dir = std::env::temp_dir().join(format!("damas-e2e-russian-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bin = env!("CARGO_BIN_EXE_damas");
    tmux.keys(&[
        &format!(
            "cd {} && {bin} play --variant russian --depth 2; echo EXIT=$?",
            dir.display()
        ),
        "Enter",
    ]);
    let screen = tmux.wait_for("the game screen", Duration::from_secs(20), |s| {
        s.contains("Moves (White to move)")
    });
    assert!(
        screen.contains("Russian draughts"),
        "the rules are named: {screen}"
    );
    tmux.play_move("c3-d4");
    tmux.wait_for("the engine's reply", Duration::from_secs(30), |s| {
        first_reply_shown(s, "1. c3-d4 ")
    });
    // `s` offers game.pdn in the current folder; Enter saves there.
    tmux.literal("s");
    tmux.keys(&["Enter"]);
    tmux.wait_for("the save", Duration::from_secs(10), |s| {
        s.contains("Saved to")
    });
    let pdn = std::fs::read_to_string(dir.join("game.pdn")).unwrap();
    assert!(pdn.contains("[GameType \"25"), "{pdn}");
    assert!(pdn.contains("1. c3-d4 "), "{pdn}");
    // Saved: quitting asks nothing.
    tmux.literal("q");
    tmux.wait_for("exit", Duration::from_secs(10), |s| s.contains("EXIT=0"));
    tmux.assert_restored();
    let _ = std::fs::remove_dir_all(&dir);
}
