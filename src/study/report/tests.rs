//! Tests of `src/study/report.rs`.

use super::*;
use damas_engine::search::Stats;

fn row(position: usize, k: u32, config: &str, depth: u32, nodes: u64, best: &str) -> Row {
    let stats = Stats {
        nodes,
        interior: nodes / 2,
        leaves: nodes - nodes / 2,
        ..Stats::default()
    };
    Row {
        position,
        k,
        config: config.into(),
        depth,
        stats,
        score: "0".into(),
        best: best.into(),
    }
}

#[test]
fn means_over_common_positions() {
    let rows = vec![
        row(0, 6, "ab", 6, 100, "a"),
        row(1, 7, "ab", 6, 300, "a"),
        row(0, 6, "ab+tt", 6, 50, "a"),
    ];
    let s = summarize(&rows);
    assert_eq!(s.common[&6], 1);
    assert_eq!(s.mean("ab", 6), Some(100.0));
    assert_eq!(s.mean("ab+tt", 6), Some(50.0));
    let md = markdown(&s);
    assert!(md.contains("| `ab` | 100 |"), "{md}");
    assert!(md.contains("| `ab+tt` | 50 | 1,374 | 0.04 |"), "{md}");
}

#[test]
fn selective_agreement() {
    assert_eq!(
        selective_base("pvs+asp+tt+sel35").as_deref(),
        Some("pvs+asp+tt")
    );
    assert_eq!(selective_base("pvs+tt"), None);
    let rows = vec![
        row(0, 6, "pvs+tt", 6, 100, "a"),
        row(1, 6, "pvs+tt", 6, 100, "b"),
        row(0, 6, "pvs+tt+sel35", 6, 40, "a"),
        row(1, 6, "pvs+tt+sel35", 6, 40, "c"),
    ];
    let s = summarize(&rows);
    let a = s.selective[0].2[&6];
    assert_eq!((a.n, a.same_move, a.nodes, a.base_nodes), (2, 1, 80, 200));
}

#[test]
fn shares_and_separators() {
    assert_eq!(thousands(1234567.4), "1,234,567");
    assert_eq!(thousands(999.0), "999");
    let a = Agg {
        n: 1,
        counts: Stats {
            nodes: 10,
            interior: 4,
            leaves: 5,
            ..Stats::default()
        },
        ..Agg::default()
    };
    let sh = a.kind_shares();
    assert_eq!(sh[0], 40.0);
    assert_eq!(sh[5], 10.0);
}
