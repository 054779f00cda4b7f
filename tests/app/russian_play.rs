//! The program plays Russian draughts when asked: the Hub engine after `set-param
//! name=variant value=russian`, `damas analyze --variant russian` and a `damas match
//! --variant russian`, in a position where the Russian rules allow a capture the
//! Brazilian majority rule forbids, and which is the better move.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use damas::hub::{position_string, HubClient};
use damas_engine::time::TimeControl;
use damas_rules::fen::parse_fen;
use damas_rules::game::Game;
use damas_rules::movegen::legal_moves;
use damas_rules::notation::parse_hub_move;
use damas_rules::pdn::read_games;
use damas_rules::variant::Variant;

const BIN: &str = env!("CARGO_BIN_EXE_damas");

/// White may take a3xc5xa7 (two pieces: the only Brazilian move) or e3xg5 (one,
/// which a Russian player may choose, and the engine prefers at `DEPTH`; a shallow
/// search may still take the promotion on the evaluation's say).
const MINORITY: &str = "W:Wa3,e3,g1,h2:Bb4,b6,f4,d8";
/// The depth of the searches in that position.
const DEPTH: u32 = 12;
/// e3xg5 in Hub numbers.
const SHORT_CAPTURE: &str = "23x16x19";

#[test]
fn the_hub_engine_plays_russian_after_set_param() {
    let mut child = Command::new(BIN)
        .arg("hub")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pos = parse_fen(MINORITY).unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(
        stdin,
        "hub\nset-param name=move-numbering value=standard\nset-param name=variant value=russian\ninit\npos pos={}\nlevel depth={DEPTH}\ngo think",
        position_string(&pos)
    )
    .unwrap();
    stdin.flush().unwrap();
    let mut lines = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        let done = line.starts_with("done");
        lines.push(line);
        if done {
            break;
        }
    }
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success());
    assert!(
        lines.contains(
            &"param name=variant value=brazilian type=enum values=\"brazilian russian\"".into()
        ),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.starts_with("error")), "{lines:?}");
    let done = lines.last().unwrap();
    let best = done
        .split_whitespace()
        .find_map(|w| w.strip_prefix("move="))
        .unwrap();
    assert!(
        parse_hub_move(Variant::Russian, &pos, best).is_ok(),
        "{done}"
    );
    assert_eq!(best, SHORT_CAPTURE, "{lines:?}");
    assert!(
        parse_hub_move(Variant::Brazilian, &pos, best).is_err(),
        "not a Brazilian move"
    );
}

#[test]
fn the_hub_client_sends_the_variant() {
    let pos = parse_fen(MINORITY).unwrap();
    let mut client = HubClient::spawn(&format!("{BIN} hub"), Variant::Russian).unwrap();
    client.set_param("move-numbering", "standard").unwrap();
    let reply = client
        .think(
            &pos,
            &[],
            &TimeControl::Depth(DEPTH),
            std::time::Duration::from_secs(60),
        )
        .unwrap();
    assert!(legal_moves(Variant::Russian, &pos).contains(&reply.best));
    assert_eq!(
        reply.best,
        parse_hub_move(Variant::Russian, &pos, SHORT_CAPTURE).unwrap()
    );
    client.quit();
}

#[test]
fn a_russian_match_writes_legal_games_with_game_type_25() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("r.pdn");
    let out = Command::new(BIN)
        .args(["match", "--variant", "russian", "--games", "2"])
        .args(["--opening-plies", "2", "--max-plies", "80", "--quiet"])
        .args(["--engine1", "nodes=2000,name=one"])
        .args(["--engine2", &format!("nodes=2000,name=two,cmd={BIN} hub")])
        .arg("--pdn")
        .arg(&pdn)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert!(text.contains("[GameType \"25"), "{text}");
    let games = read_games(&text).unwrap();
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g.variant(), Variant::Russian);
        // Replayed under Russian rules, every move is legal.
        let mut game = Game::new(Variant::Russian, g.start);
        for &m in &g.moves {
            assert!(game.play(m), "{m:?} in {text}");
        }
        assert!(g.tag("Termination").is_none_or(|t| !t.contains("illegal")));
    }
}

#[test]
fn a_match_refuses_engines_of_different_variants() {
    let out = Command::new(BIN)
        .args(["match", "--games", "2", "--quiet"])
        .args(["--engine1", "depth=1,variant=russian"])
        .args(["--engine2", "depth=1,variant=brazilian"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("variant"));
}

#[test]
fn analyze_searches_under_russian_rules() {
    let run = |variant: &str| {
        let out = Command::new(BIN)
            .args(["analyze", "--depth", &DEPTH.to_string()])
            .args(["--fen", MINORITY, "--variant", variant])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let russian = run("russian");
    let last = russian.lines().last().unwrap();
    assert!(last.starts_with("bestmove e3xg5 "), "{russian}");
    let brazilian = run("brazilian");
    let last = brazilian.lines().last().unwrap();
    assert!(last.starts_with("bestmove a3xa7 "), "{brazilian}");
}
