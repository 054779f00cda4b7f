//! Scripted sessions against the real `damas` binary: the Hub protocol, `damas pdn
//! check` and a short `damas match`.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

use damas::hub::{parse_position, position_string, HubClient};
use damas_engine::time::TimeControl;
use damas_rules::movegen::legal_moves;
use damas_rules::notation::parse_hub_move;
use damas_rules::pdn::read_games;
use damas_rules::position::Position;
use damas_rules::variant::Variant;

const BIN: &str = env!("CARGO_BIN_EXE_damas");
const START: &str = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";

struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Session {
    fn start() -> Session {
        let mut child = Command::new(BIN)
            .arg("hub")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("damas hub starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for l in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        let mut session = Session {
            child,
            stdin,
            lines,
        };
        // These tests write moves in the standard numbering.
        session.send("set-param name=move-numbering value=standard");
        session
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Lines up to and including the first starting with `word`.
    fn until(&mut self, word: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no {word:?} within {timeout:?}; got {seen:?}"));
            let first = line.split_whitespace().next().unwrap_or("").to_string();
            seen.push(line);
            if first == word {
                return seen;
            }
        }
    }

    /// Close stdin and wait for the exit; returns stderr.
    fn close(mut self) -> (std::process::ExitStatus, String) {
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                let mut err = String::new();
                self.child
                    .stderr
                    .take()
                    .unwrap()
                    .read_to_string(&mut err)
                    .unwrap();
                return (status, err);
            }
            assert!(
                Instant::now() < deadline,
                "damas hub did not exit after stdin closed"
            );
            thread::sleep(Duration::from_millis(10));
        }
    }
}

fn value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(&format!("{key}=")))
}

#[test]
fn handshake_position_search_garbage_and_stdin_closing() {
    let mut s = Session::start();
    s.send("hub");
    let hello = s.until("wait", Duration::from_secs(5));
    assert!(hello[0].starts_with("id name=damas "), "{hello:?}");
    assert!(
        hello.contains(
            &"param name=variant value=brazilian type=enum values=\"brazilian russian\""
                .to_string()
        ),
        "{hello:?}"
    );
    assert!(
        hello.iter().any(|l| l.starts_with("param name=egdb-dir")),
        "{hello:?}"
    );
    s.send("set-param name=tt-bits value=16");
    // These positions are in the opening book: search them.
    s.send("set-param name=book value=false");
    s.send("init");
    assert_eq!(
        s.until("ready", Duration::from_secs(5)).last().unwrap(),
        "ready"
    );

    // A position with moves (c3-d4 f6-g5), searched to depth 4.
    s.send(&format!("pos pos={START} moves=\"22-18 10-14\""));
    s.send("level depth=4");
    s.send("go think");
    let out = s.until("done", Duration::from_secs(30));
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info ")).collect();
    assert!(!infos.is_empty(), "{out:?}");
    let last = infos.last().unwrap();
    assert_eq!(value(last, "depth"), Some("4"), "{last}");
    for key in ["score", "nodes", "time", "nps", "pv"] {
        assert!(value(last, key).is_some(), "{key} missing in {last}");
    }
    let done = out.last().unwrap();
    assert!(done.starts_with("done move="), "{done}");
    let mut pos = Position::start();
    for m in ["22-18", "10-14"] {
        pos = pos.play(parse_hub_move(Variant::Brazilian, &pos, m).unwrap());
    }
    let best = value(done, "move").unwrap();
    let mv = parse_hub_move(Variant::Brazilian, &pos, best).unwrap();
    if let Some(p) = value(done, "ponder") {
        assert!(
            parse_hub_move(Variant::Brazilian, &pos.play(mv), p).is_ok(),
            "{done}"
        );
    }

    // Garbage and errors: answered or ignored, the engine keeps running.
    s.send("this is not a command");
    s.send("=== \"unbalanced");
    s.send("pos pos=Xbbbb");
    let e = s.until("error", Duration::from_secs(5));
    assert!(e.last().unwrap().starts_with("error message="), "{e:?}");
    s.send(&format!("pos pos={START} moves=\"22-18 22-18\""));
    let e = s.until("error", Duration::from_secs(5));
    assert!(e.last().unwrap().contains("move 2"), "{e:?}");
    s.send("level depth=banana");
    s.until("error", Duration::from_secs(5));
    s.send("ping");
    assert_eq!(
        s.until("pong", Duration::from_secs(5)).last().unwrap(),
        "pong"
    );

    // Analyze until stopped: `done` comes promptly after `stop`.
    s.send(&format!("pos pos={START}"));
    s.send("go analyze");
    s.until("info", Duration::from_secs(5));
    thread::sleep(Duration::from_millis(200));
    s.send("ping");
    let before = s.until("pong", Duration::from_secs(30));
    // Analysis never ends by itself: `done` comes only after `stop`.
    assert!(!before.iter().any(|l| l.starts_with("done")), "{before:?}");
    s.send("stop");
    let out = s.until("done", Duration::from_secs(30));
    assert!(parse_hub_move(
        Variant::Brazilian,
        &Position::start(),
        value(out.last().unwrap(), "move").unwrap()
    )
    .is_ok());

    // Stdin closing in the middle of a search ends the process cleanly, stderr silent.
    s.send("go analyze");
    s.until("info", Duration::from_secs(5));
    let (status, stderr) = s.close();
    assert!(status.success(), "{status:?}");
    assert_eq!(stderr, "");
}

#[test]
fn book_parameter_decides_whether_the_start_is_played_from_the_book() {
    for book in [true, false] {
        let mut s = Session::start();
        s.send("hub");
        let hello = s.until("wait", Duration::from_secs(5));
        assert!(
            hello.contains(&"param name=book value=true type=bool".to_string()),
            "{hello:?}"
        );
        s.send(&format!("set-param name=book value={book}"));
        s.send("init");
        s.until("ready", Duration::from_secs(5));
        s.send(&format!("pos pos={START}"));
        s.send("level depth=6");
        s.send("go think");
        let out = s.until("done", Duration::from_secs(30));
        let searched = out.iter().any(|l| l.starts_with("info depth=1 "));
        // A book move comes without a search, its `info` saying so (with no score);
        // without the book the engine searches.
        assert_eq!(searched, !book, "book={book}: {out:?}");
        if book {
            assert_eq!(out.len(), 2, "{out:?}");
            assert!(out[0].starts_with("info depth=0 nodes=0 pv="), "{out:?}");
            assert!(out[0].ends_with(" source=book"), "{out:?}");
            assert!(!out[0].contains("score="), "{out:?}");
        }
        let best = value(out.last().unwrap(), "move").unwrap();
        assert!(
            parse_hub_move(Variant::Brazilian, &Position::start(), best).is_ok(),
            "{out:?}"
        );
        s.send("quit");
        assert!(s.close().0.success());
    }
}

#[test]
fn a_finished_game_is_reported_as_finished() {
    let mut s = Session::start();
    s.send("init");
    s.until("ready", Duration::from_secs(5));
    // White to move, Black has no pieces: White has won, and nothing is searched.
    let won = damas_rules::fen::parse_fen("W:Wa1:B").unwrap();
    s.send(&format!("pos pos={}", position_string(&won)));
    for mode in ["think", "analyze"] {
        s.send(&format!("go {mode}"));
        let out = s.until("done", Duration::from_secs(30));
        assert_eq!(
            out,
            [
                "error message=\"game over: White wins (no pieces left), 2-0\"",
                "done"
            ],
            "{mode}"
        );
    }
    s.send("quit");
    assert!(s.close().0.success());
}

#[test]
fn time_control_answers_in_time_and_single_moves_at_once() {
    let mut s = Session::start();
    s.send("init");
    s.until("ready", Duration::from_secs(5));
    s.send(&format!("pos pos={START}"));
    s.send("level time=0.5 inc=0");
    s.send("go think");
    // On a clock the engine stops by itself (no `stop` is sent) with a legal move; its
    // deadlines are unit-tested in `damas_engine::time`, tools/hub_clock_games.py plays games.
    let out = s.until("done", Duration::from_secs(30));
    let best = value(out.last().unwrap(), "move").unwrap();
    assert!(
        parse_hub_move(Variant::Brazilian, &Position::start(), best).is_ok(),
        "{out:?}"
    );
    // Black to move must capture: the only legal move is played at once.
    let forced = Position::start()
        .play(parse_hub_move(Variant::Brazilian, &Position::start(), "22-18").unwrap());
    let forced = forced.play(parse_hub_move(Variant::Brazilian, &forced, "11-15").unwrap());
    assert_eq!(legal_moves(Variant::Brazilian, &forced).len(), 1);
    s.send(&format!("pos pos={}", position_string(&forced)));
    s.send("level time=100");
    s.send("go think");
    let out = s.until("done", Duration::from_secs(30));
    // Played at once, without a search (an `info` with no score says it was forced),
    // long before the 100 s level.
    assert_eq!(
        out,
        [
            "info depth=0 nodes=0 pv=18x11x15 source=forced",
            "done move=18x11x15"
        ]
    );
    // Analysing it searches the line after the forced capture, deeper than one ply.
    s.send("go analyze");
    std::thread::sleep(Duration::from_millis(300));
    s.send("stop");
    let out = s.until("done", Duration::from_secs(30));
    let deepest = out
        .iter()
        .filter_map(|l| value(l, "depth"))
        .filter_map(|d| d.parse::<u32>().ok())
        .max();
    assert!(deepest.is_some_and(|d| d > 3), "{out:?}");
    s.send("quit");
    let (status, stderr) = s.close();
    assert!(status.success());
    assert_eq!(stderr, "");
}

#[test]
fn ponder_then_ponder_hit_and_client_round_trip() {
    let mut client =
        HubClient::spawn(&format!("{BIN} hub"), Variant::Brazilian).expect("handshake");
    assert_eq!(client.name(), "damas");
    assert!(client.params.iter().any(|p| p == "variant"));
    client.ping().unwrap();
    client.set_param("book", "false").unwrap();
    let start = parse_position(START).unwrap();
    let reply = client
        .think(&start, &[], &TimeControl::Depth(3), Duration::from_secs(30))
        .unwrap();
    assert!(legal_moves(Variant::Brazilian, &start).contains(&reply.best));
    assert_eq!(reply.depth, Some(3));
    // Ponder holds `done` until ponder-hit, then answers under the level.
    client.send(&format!("pos pos={START}")).unwrap();
    client.send("level move-time=0.2").unwrap();
    client.send("go ponder").unwrap();
    thread::sleep(Duration::from_millis(300));
    client.send("ping").unwrap();
    let line = client.recv("pong", Duration::from_secs(2)).unwrap();
    let mut seen = vec![line];
    while !seen.last().unwrap().starts_with("pong") {
        seen.push(client.recv("pong", Duration::from_secs(2)).unwrap());
    }
    assert!(
        !seen.iter().any(|l| l.starts_with("done")),
        "done before ponder-hit: {seen:?}"
    );
    // After ponder-hit the engine ends by itself under the level (no `stop`).
    client.send("ponder-hit").unwrap();
    loop {
        let l = client.recv("done", Duration::from_secs(30)).unwrap();
        if l.starts_with("done move=") {
            break;
        }
    }
    client.quit();
}

/// The ponder flow of lidraughts-bot (through pydraughts' `HubEngine`): a ponder search
/// holds `done` even when it ends by itself; a miss is `stop` (its `done` comes and is
/// discarded) then a new `go think`; a hit is `ponder-hit`.
#[test]
fn ponder_miss_stop_and_a_finished_ponder_search_holds_done() {
    let mut s = Session::start();
    s.send("set-param name=book value=false");
    s.send("init");
    s.until("ready", Duration::from_secs(5));
    // Depth 2 ends at once, but `done` waits for the client.
    s.send(&format!("pos pos={START}"));
    s.send("level depth=2");
    s.send("go ponder");
    thread::sleep(Duration::from_millis(200));
    s.send("ping");
    let seen = s.until("pong", Duration::from_secs(10));
    assert!(
        !seen.iter().any(|l| l.starts_with("done")),
        "done before stop: {seen:?}"
    );
    // A miss: stop, then the real position.
    s.send("stop");
    let out = s.until("done", Duration::from_secs(10));
    let best = value(out.last().unwrap(), "move").unwrap();
    assert!(
        parse_hub_move(Variant::Brazilian, &Position::start(), best).is_ok(),
        "{out:?}"
    );
    let after = Position::start()
        .play(parse_hub_move(Variant::Brazilian, &Position::start(), "22-18").unwrap());
    s.send(&format!("pos pos={START} moves=\"22-18\""));
    s.send("level move-time=0.05");
    s.send("go think");
    let out = s.until("done", Duration::from_secs(10));
    let best = value(out.last().unwrap(), "move").unwrap();
    assert!(
        parse_hub_move(Variant::Brazilian, &after, best).is_ok(),
        "{out:?}"
    );
    // A hit on a held, finished search answers at once.
    s.send("level depth=2");
    s.send("go ponder");
    s.send("ping");
    s.until("pong", Duration::from_secs(10));
    s.send("ponder-hit");
    let out = s.until("done", Duration::from_secs(10));
    assert!(value(out.last().unwrap(), "move").is_some(), "{out:?}");
    s.send("quit");
    let (status, stderr) = s.close();
    assert!(status.success());
    assert_eq!(stderr, "");
}

#[test]
fn pdn_check_reports_ok_or_the_first_bad_move() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.pdn");
    std::fs::write(
        &good,
        "[Event \"a\"]\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 1-1\n\n1. 22-18 * \n",
    )
    .unwrap();
    let out = Command::new(BIN)
        .args(["pdn", "check"])
        .arg(&good)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "ok 2 games 5 moves\n");
    let bad = dir.path().join("bad.pdn");
    std::fs::write(&bad, "1. c3-d4 *\n\n1. c3-d4 f6-e5 2. d4-c5 *\n").unwrap();
    let out = Command::new(BIN)
        .args(["pdn", "check"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("game 2 move 2: illegal move \"d4-c5\""),
        "{err}"
    );
}

/// A game written by pydraughts 0.6.7 (`PDNWriter`, 40 random plies, variant
/// brazilian, `random.seed(3)`): its algebraic moves and FEN read back here.
#[test]
fn reads_a_pdn_written_by_pydraughts() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/pydraughts_brazilian.pdn"
    );
    let out = Command::new(BIN)
        .args(["pdn", "check", path])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "ok 1 game 40 moves\n");
    let games = read_games(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(games[0].start, Position::start());
    assert_eq!(games[0].result.as_deref(), Some("*"));
}

/// `damas match` of `games` games from two-ply openings, at most `max_plies` plies
/// each, quietly, its record written to `pdn`; `extra` options go before the engines.
fn hub_match(
    games: u32,
    max_plies: u32,
    engine1: &str,
    engine2: &str,
    pdn: &std::path::Path,
    extra: &[&str],
) -> std::process::Output {
    Command::new(BIN)
        .arg("match")
        .args(["--games", &games.to_string()])
        .args(["--opening-plies", "2"])
        .args(["--max-plies", &max_plies.to_string()])
        .arg("--quiet")
        .args(extra)
        .args(["--engine1", engine1, "--engine2", engine2])
        .arg("--pdn")
        .arg(pdn)
        .output()
        .unwrap()
}

/// The evaluation of a Hub engine's spec reaches it: the built-in engine and
/// `damas hub`, both with the material count at the same depth, play the same game
/// from the same opening (before, the Hub engine kept its trained evaluation).
#[test]
fn a_hub_engine_plays_with_the_evaluation_its_spec_names() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("m.pdn");
    let out = hub_match(
        2,
        60,
        "depth=3,eval=material,name=inside",
        &format!("depth=3,eval=material,name=outside,cmd={BIN} hub"),
        &pdn,
        &[],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = read_games(&std::fs::read_to_string(&pdn).unwrap()).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].moves, games[1].moves);
}

#[test]
fn short_match_against_the_hub_engine_writes_pdn() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("m.pdn");
    let out = hub_match(
        2,
        100,
        "depth=2,name=inside",
        &format!("depth=2,name=outside,cmd={BIN} hub"),
        &pdn,
        &[],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("inside vs outside: 2 games"), "{stdout}");
    assert!(stdout.contains("Elo difference:"), "{stdout}");
    let games = read_games(&std::fs::read_to_string(&pdn).unwrap()).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(
        (games[0].tag("White"), games[1].tag("White")),
        (Some("inside"), Some("outside"))
    );
    assert_eq!(games[0].moves[..2], games[1].moves[..2]);

    // Resume to four games: the two recorded ones are kept and counted.
    let out = hub_match(
        4,
        100,
        "depth=2,name=inside",
        "depth=2,name=outside",
        &pdn,
        &["--resume"],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("resuming after 2 games"), "{stdout}");
    assert!(stdout.contains("inside vs outside: 4 games"), "{stdout}");
    let all = read_games(&std::fs::read_to_string(&pdn).unwrap()).unwrap();
    assert_eq!(all.len(), 4);
    assert_eq!(all[..2], games[..]);
}
