//! Russian endgame databases: slices of 2–4 pieces built under the Russian rules agree with
//! a brute-force retrograde solve written here (every Russian position of up to four
//! pieces, every Brazilian one of up to three) and with `verify`; positions whose value the
//! rules change are answered per variant; files of one variant are refused for the other.

use std::collections::HashMap;
use std::path::Path;
use std::sync::OnceLock;

use damas_egdb::parts::index::{is_valid_slot, part_size, unrank};
use damas_egdb::slices::build::build_slices;
use damas_egdb::slices::check::{verify_slices, VerifyOptions};
use damas_egdb::slices::compact::{slice_path, SliceFile};
use damas_egdb::slices::slice::Slice;
use damas_egdb::{build, BuildOptions, Egdb, EgdbError, Wdl};
use damas_rules::movegen::legal_moves;
use damas_rules::{parse_fen, Position, Variant};

/// Russian slices 2–4 with distances, and Brazilian slices 2–3, built once.
struct Dbs {
    _dirs: Vec<tempfile::TempDir>,
    russian: Egdb,
    brazilian: Egdb,
    russian_dir: std::path::PathBuf,
    brazilian_dir: std::path::PathBuf,
}

fn dbs() -> &'static Dbs {
    static DBS: OnceLock<Dbs> = OnceLock::new();
    DBS.get_or_init(|| {
        let ru = tempfile::tempdir().unwrap();
        let dtc = BuildOptions {
            dtc: true,
            ..BuildOptions::default()
        };
        build_slices(Variant::Russian, ru.path(), 4, &dtc, |_| {}).unwrap();
        let br = tempfile::tempdir().unwrap();
        build_slices(
            Variant::Brazilian,
            br.path(),
            3,
            &BuildOptions::default(),
            |_| {},
        )
        .unwrap();
        Dbs {
            russian: Egdb::open(Variant::Russian, ru.path()).unwrap(),
            brazilian: Egdb::open(Variant::Brazilian, br.path()).unwrap(),
            russian_dir: ru.path().to_path_buf(),
            brazilian_dir: br.path().to_path_buf(),
            _dirs: vec![ru, br],
        }
    })
}

/// Every position of 1 … `max` pieces with White to move (Black to move is the
/// same game turned over), solved by plain value iteration over `variant`'s legal
/// moves: no slices, no un-moves, no capture search.
fn brute_force(variant: Variant, max: usize) -> HashMap<Position, Wdl> {
    let mut positions = Vec::new();
    for n in 1..=max {
        for i in 0..part_size(n) {
            if is_valid_slot(n, i) {
                positions.push(unrank(n, i).unwrap());
            }
        }
    }
    let ids: HashMap<Position, u32> = positions
        .iter()
        .enumerate()
        .map(|(i, &p)| (p, i as u32))
        .collect();
    // The successors of position `i` are `successors[first[i]..first[i + 1]]`.
    let mut first = Vec::with_capacity(positions.len() + 1);
    let mut successors: Vec<u32> = Vec::new();
    for p in &positions {
        first.push(successors.len());
        for &m in legal_moves(variant, p).iter() {
            let q = p.play(m).flip();
            successors.push(
                *ids.get(&q)
                    .unwrap_or_else(|| panic!("{q:?} not enumerated")),
            );
        }
    }
    first.push(successors.len());
    drop(ids);
    let mut value: Vec<Option<Wdl>> = vec![None; positions.len()];
    loop {
        let mut changed = false;
        for i in 0..positions.len() {
            if value[i].is_some() {
                continue;
            }
            let s = &successors[first[i]..first[i + 1]];
            let v = if s.iter().any(|&j| value[j as usize] == Some(Wdl::Loss)) {
                Some(Wdl::Win)
            } else if s.iter().all(|&j| value[j as usize] == Some(Wdl::Win)) {
                Some(Wdl::Loss)
            } else {
                None
            };
            if v.is_some() {
                value[i] = v;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    positions
        .into_iter()
        .zip(value)
        .map(|(p, v)| (p, v.unwrap_or(Wdl::Draw)))
        .collect()
}

/// Every Russian (and Brazilian) position of up to three pieces, either side to
/// move, has the value the brute-force solve of its own rules gives, and the two
/// rules disagree on some of them, so a database built under the wrong rules
/// would fail.
#[test]
fn every_position_up_to_3_pieces_matches_a_brute_force_solve_of_its_rules() {
    let d = dbs();
    let russian = brute_force(Variant::Russian, 3);
    let brazilian = brute_force(Variant::Brazilian, 3);
    for (variant, db, solved) in [
        (Variant::Russian, &d.russian, &russian),
        (Variant::Brazilian, &d.brazilian, &brazilian),
    ] {
        for (&p, &v) in solved {
            assert_eq!(db.probe_wdl(&p), Some(v), "{variant} {p:?}");
            assert_eq!(db.probe_wdl(&p.flip()), Some(v), "{variant} {p:?} flipped");
        }
    }
    let differ: Vec<&Position> = russian
        .iter()
        .filter(|&(p, v)| brazilian[p] != *v)
        .map(|(p, _)| p)
        .collect();
    // White to move; among them `W:Wb6:Bc7,Kf6` (the test below).
    assert_eq!(differ.len(), 14, "{differ:?}");
    assert!(differ.contains(&&parse_fen("W:Wb6:Bc7,Kf6").unwrap()));
}

/// Every Russian position of four pieces (about 6.2 million, either side to move)
/// has the value a brute-force solve of the Russian rules gives.
#[test]
fn every_russian_position_of_4_pieces_matches_a_brute_force_solve() {
    let d = dbs();
    let solved = brute_force(Variant::Russian, 4);
    let mut checked = 0;
    for (p, &v) in solved.iter().filter(|(p, _)| p.piece_count() == 4) {
        assert_eq!(d.russian.probe_wdl(p), Some(v), "{p:?}");
        assert_eq!(d.russian.probe_wdl(&p.flip()), Some(v), "{p:?} flipped");
        checked += 1;
    }
    assert!(checked > 6_000_000, "{checked} positions");
}

/// The best move a Russian probe reports is legal under the Russian rules (a
/// crowning capture included) and keeps the value.
#[test]
fn russian_best_moves_are_russian_moves_that_keep_the_value() {
    let d = dbs();
    let mut checked = 0;
    for n in 2..=4 {
        for i in (0..part_size(n)).step_by(97) {
            if !is_valid_slot(n, i) {
                continue;
            }
            let p = unrank(n, i).unwrap();
            let probe = d.russian.probe(&p).unwrap();
            let Some(best) = probe.best else { continue };
            assert!(legal_moves(Variant::Russian, &p).contains(&best), "{p:?}");
            let after = d.russian.probe_wdl(&p.play(best)).unwrap();
            assert_eq!(after.negate(), probe.wdl, "{p:?} {best:?}");
            checked += 1;
        }
    }
    assert!(checked > 10_000, "{checked}");
}

/// Every stored Russian value of 2–4 pieces, and every distance, against its
/// successors under the Russian rules.
#[test]
fn russian_slices_2_to_4_verify_clean() {
    let d = dbs();
    let opts = VerifyOptions {
        keep: 5,
        ..VerifyOptions::default()
    };
    let sdb = d.russian.slices().unwrap();
    let r = verify_slices(sdb, d.russian.slice_distances(), &opts, |_| {});
    assert_eq!(r.violations, 0, "{:?}", r.first);
    assert_eq!(r.parts, [2, 3, 4]);
    assert!(r.entries > 6_000_000);
}

/// Positions whose value the rules change: a man crowned mid-capture goes on as
/// a king in Russian (and wins), stops on the far row in Brazilian (and draws).
#[test]
fn positions_the_rules_change_are_answered_per_variant() {
    let d = dbs();
    let probe = |db: &Egdb, fen: &str| {
        let p = db.probe(&parse_fen(fen).unwrap()).unwrap();
        let best = p.best.map(|m| {
            damas_rules::notation::move_to_string(
                db.variant(),
                &parse_fen(fen).unwrap(),
                m,
                damas_rules::notation::Notation::Algebraic,
            )
        });
        (p.wdl, best)
    };
    // b6xd8 crowns; the Russian king goes on over f6.
    let fen = "W:Wb6:Bc7,Kf6";
    assert_eq!(probe(&d.russian, fen), (Wdl::Win, Some("b6xh4".into())));
    assert_eq!(probe(&d.brazilian, fen), (Wdl::Draw, Some("b6xd8".into())));
    // The same for Black, moving down the board.
    let fen = "B:WKc3,f2:Bg3";
    assert_eq!(probe(&d.russian, fen).0, Wdl::Win);
    assert_eq!(probe(&d.brazilian, fen).0, Wdl::Draw);
}

/// A Brazilian directory is refused for Russian and the other way round, naming
/// the file and both variants; first-generation parts are Brazilian only.
#[test]
fn files_of_the_other_variant_are_refused() {
    let d = dbs();
    let refused = |variant: Variant, dir: &Path, found: Variant| {
        let e = Egdb::open(variant, dir).unwrap_err();
        let m = e.to_string();
        assert!(
            matches!(&e, EgdbError::Variant { found: f, expected, .. } if *f == found && *expected == variant),
            "{m}"
        );
        assert!(
            m.contains(dir.to_str().unwrap())
                && m.contains(found.name())
                && m.contains(variant.name()),
            "{m}"
        );
    };
    refused(Variant::Russian, &d.brazilian_dir, Variant::Brazilian);
    refused(Variant::Brazilian, &d.russian_dir, Variant::Russian);
    // Building Russian slices into a Brazilian directory is refused too.
    let e = build_slices(
        Variant::Russian,
        &d.brazilian_dir,
        3,
        &BuildOptions::default(),
        |_| {},
    )
    .unwrap_err();
    assert!(matches!(e, EgdbError::Variant { .. }), "{e}");

    let parts = tempfile::tempdir().unwrap();
    build(parts.path(), 2, &BuildOptions::default(), |_| {}).unwrap();
    let e = Egdb::open(Variant::Russian, parts.path()).unwrap_err();
    assert!(e.to_string().contains("part1.val"), "{e}");
    let e = damas_egdb::parts::build::build_for(
        Variant::Russian,
        parts.path(),
        2,
        &BuildOptions::default(),
        |_| {},
    )
    .unwrap_err();
    assert!(
        matches!(e, EgdbError::LegacyVariant(Variant::Russian)),
        "{e}"
    );
}

/// The header names the variant (byte 13: 0 Brazilian, as in files written before
/// it, 1 Russian), and a file reads back as the variant it was written for.
#[test]
fn the_header_names_the_variant() {
    let d = dbs();
    let s = Slice::new(1, 0, 1, 0);
    let ru = std::fs::read(slice_path(&d.russian_dir, s)).unwrap();
    let br = std::fs::read(slice_path(&d.brazilian_dir, s)).unwrap();
    assert_eq!((ru[13], br[13]), (1, 0));
    assert!(SliceFile::open(Variant::Russian, &d.russian_dir, s)
        .unwrap()
        .is_some());
    assert!(SliceFile::open(Variant::Brazilian, &d.brazilian_dir, s)
        .unwrap()
        .is_some());
    assert!(SliceFile::open(Variant::Brazilian, &d.russian_dir, s).is_err());
}
