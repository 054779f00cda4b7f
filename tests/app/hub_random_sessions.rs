//! Random Hub sessions against the real binary: sequences of protocol lines, most
//! well formed with random values (every parameter of the settings table, positions
//! reached by random moves, moves right and wrong, every `level` and `go`), some
//! damaged or arbitrary text, all under an address-space limit. Whatever the order,
//! the engine answers on stdout only: nothing on stderr, no panic, no abort, and it
//! still answers `ping` at the end. The fuzz target `hub_line` searches the line
//! parser alone; this runs the whole engine loop in `cargo test`.

use std::process::Command;

use damas::hub::protocol::position_string;
use damas_engine::settings::SETTINGS;
use damas_rules::movegen::legal_moves;
use damas_rules::notation::{move_to_string, Notation};
use damas_rules::variant::Variant;
use damas_rules::Position;
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const BIN: &str = env!("CARGO_BIN_EXE_damas");

/// Address space the engine may use (KiB): a large `hash` fails to allocate, as it
/// would on a small machine, instead of taking the test machine's memory.
const LIMIT_KIB: u64 = 2 << 20;

/// A position `plies` random moves from the start (the seed picks them), with the
/// moves of the same walk in Hub notation.
fn walk(seed: u64, plies: usize) -> (Position, Vec<String>) {
    let mut pos = Position::start();
    let mut moves = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..plies {
        let legal = legal_moves(Variant::Brazilian, &pos);
        let Some(&m) = legal.choose(&mut rng) else {
            break;
        };
        moves.push(move_to_string(Variant::Brazilian, &pos, m, Notation::Hub));
        pos = pos.play(m);
    }
    (pos, moves)
}

/// A value for `set-param`: one the parameter takes, a number, or text.
fn param_value() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u64..70_000).prop_map(|n| n.to_string()),
        (0u64..4).prop_map(|n| n.to_string()),
        prop::sample::select(vec![
            "brazilian",
            "russian",
            "trained",
            "material",
            "true",
            "false",
            "on",
            "off",
            "1200",
            "club",
            "",
            "-1",
            "x",
            "nmp,lmr",
            "futility:50",
            "standard",
            "rows-reversed",
        ])
        .prop_map(str::to_string),
        "[ -~]{0,12}",
    ]
}

/// One protocol line.
fn line() -> impl Strategy<Value = String> {
    let names: Vec<&'static str> = SETTINGS
        .iter()
        .map(|s| s.key)
        .chain(["move-numbering", "egdb-dir", "no-such-param"])
        .collect();
    prop_oneof![
        2 => prop::sample::select(vec![
            "hub", "init", "ping", "stop", "ponder-hit", "new-game", "go think",
            "go ponder", "go analyze", "go", "go fly", "level infinite",
        ])
        .prop_map(str::to_string),
        2 => (prop::sample::select(names), param_value())
            .prop_map(|(n, v)| format!("set-param name={n} value=\"{v}\"")),
        3 => (any::<u64>(), 0usize..40, 0usize..4, any::<bool>()).prop_map(|(seed, plies, extra, damage)| {
            let (start, _) = walk(seed, plies);
            let (_, moves) = walk(seed ^ 0x9e37, extra);
            let mut pos = position_string(&start);
            if damage {
                pos.truncate(pos.len() / 2);
            }
            format!("pos pos={pos} moves=\"{}\"", moves.join(" "))
        }),
        2 => prop_oneof![
            (1u32..5).prop_map(|d| format!("level depth={d}")),
            (1u64..3000).prop_map(|n| format!("level nodes={n}")),
            (1u64..30).prop_map(|ms| format!("level move-time={:.3}", ms as f64 / 1000.0)),
            (0u64..2000, 0u64..50, 0u32..3)
                .prop_map(|(t, i, m)| format!("level time={:.3} inc={:.3} moves={m}", t as f64 / 1000.0, i as f64 / 1000.0)),
            "level [a-z-]{0,8}=[-0-9.a-z]{0,6}",
        ],
        1 => "[ -~]{0,40}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_sessions_answer_on_stdout_only(lines in prop::collection::vec(line(), 1..24)) {
        // A search is never left without a limit: every `go` runs at a small one
        // unless the session set another, and `stop` ends analysis and pondering.
        let mut script = String::from("level nodes=2000\n");
        for l in &lines {
            script.push_str(l);
            script.push('\n');
            if l.starts_with("go") {
                script.push_str("stop\n");
            }
        }
        script.push_str("stop\nping\nquit\n");
        let mut c = Command::new("sh");
        c.arg("-c")
            .arg(format!("ulimit -v {LIMIT_KIB} && exec {BIN} hub"))
            .env("DAMAS_EGDB", "")
            .env("HOME", std::env::temp_dir());
        let o = crate::process::with_input(c, &script);
        let out = String::from_utf8_lossy(&o.stdout);
        let err = String::from_utf8_lossy(&o.stderr);
        prop_assert!(o.status.success(), "status {:?}\n--- input\n{script}--- stdout\n{out}--- stderr\n{err}", o.status);
        prop_assert!(err.is_empty(), "stderr: {err}\n--- input\n{script}");
        prop_assert!(out.lines().any(|l| l == "pong"), "no pong\n--- input\n{script}--- stdout\n{out}");
    }
}
