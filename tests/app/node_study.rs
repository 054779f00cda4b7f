//! End to end: `damas-nodes positions`, `run` (with resuming) and `report` on a few
//! positions at low depths.

use damas_rules::variant::Variant;
use std::collections::HashSet;
use std::path::Path;
use std::process::Command;

use damas::study::csv::{parse_rows, HEADER};
use damas::study::positions::read_positions;
use damas_rules::notation::parse_move;

fn nodes_cmd(args: &[&str]) -> std::process::Output {
    let out = Command::new(env!("CARGO_BIN_EXE_damas-nodes"))
        .args(args)
        .output()
        .expect("damas-nodes runs");
    assert!(
        out.status.success(),
        "damas-nodes {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

const CONFIGS: [&str; 3] = ["ab", "ab+id+tt", "pvs+asp+tt"];

#[test]
fn positions_run_resume_report() {
    let dir = tempfile::tempdir().unwrap();
    let fen = dir.path().join("set.fen");
    let csv = dir.path().join("r.csv");
    let svg = dir.path().join("svg");
    nodes_cmd(&[
        "positions",
        "--seed",
        "11",
        "--per-k",
        "2",
        "--min-k",
        "6",
        "--max-k",
        "9",
        "--out",
        s(&fen),
    ]);
    let set = read_positions(&fen).unwrap();
    assert_eq!(set.len(), 8);

    let run = [
        "run",
        "--positions",
        s(&fen),
        "--depths",
        "2-4",
        "--configs",
        "ab,ab+id+tt,pvs+asp+tt",
        "--sample",
        "4",
        "--threads",
        "2",
        "--quiet",
        "--out",
        s(&csv),
    ];
    nodes_cmd(&run);
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().next(), Some(HEADER));
    let rows = parse_rows(&text).unwrap();
    assert_eq!(rows.len(), 4 * CONFIGS.len() * 3);
    let keys: HashSet<_> = rows.iter().map(|r| r.key()).collect();
    assert_eq!(keys.len(), rows.len(), "no duplicate rows");
    let ks: HashSet<u32> = rows.iter().map(|r| r.k).collect();
    assert_eq!(ks.len(), 4, "the sample of 4 takes one position of each k");
    for r in &rows {
        let pos = set[r.position].position;
        assert_eq!(r.k, set[r.position].k.0);
        assert!(r.stats.nodes > 0);
        assert!(
            parse_move(Variant::Brazilian, &pos, &r.best).is_ok(),
            "best move {} legal in row {r:?}",
            r.best
        );
    }
    // Iterative deepening counts are cumulative: deeper never fewer nodes.
    for r in rows
        .iter()
        .filter(|r| r.config == "ab+id+tt" && r.depth > 2)
    {
        let prev = rows
            .iter()
            .find(|p| p.config == r.config && p.position == r.position && p.depth == r.depth - 1)
            .unwrap();
        assert!(r.stats.nodes >= prev.stats.nodes);
    }

    // Resuming: nothing new; after a torn write only the missing rows come back.
    nodes_cmd(&run);
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), text);
    let cut = text.len() - 30;
    std::fs::write(&csv, &text[..cut]).unwrap();
    nodes_cmd(&run);
    let again = parse_rows(&std::fs::read_to_string(&csv).unwrap()).unwrap();
    assert_eq!(again.iter().map(|r| r.key()).collect::<HashSet<_>>(), keys);
    assert_eq!(again.len(), rows.len());

    let out = nodes_cmd(&["report", s(&csv), "--svg", s(&svg)]);
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(md.contains("| configuration | d2 | d3 | d4 |"), "{md}");
    for c in CONFIGS {
        assert!(md.contains(&format!("| `{c}` |")), "{c} missing in {md}");
    }
    assert!(md.contains("Node kinds per depth"), "{md}");
    for f in ["nodes-by-depth.svg", "nodes-by-phase.svg"] {
        let svg_text = std::fs::read_to_string(svg.join(f)).unwrap();
        assert!(
            svg_text.starts_with("<svg") && svg_text.contains("ab+id+tt"),
            "{f}"
        );
    }
}

#[test]
fn bad_input_is_one_line_and_nonzero() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.fen");
    let csv = dir.path().join("x.csv");
    let out = Command::new(env!("CARGO_BIN_EXE_damas-nodes"))
        .args(["run", "--positions"])
        .arg(&missing)
        .args(["--depths", "2", "--out"])
        .arg(&csv)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("missing.fen"), "{err}");
    let out = Command::new(env!("CARGO_BIN_EXE_damas-nodes"))
        .args(["run", "--positions", "x", "--depths", "9-3", "--out", "y"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
