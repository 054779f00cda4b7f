//! Second-generation (slice) databases: built for 2–4 pieces, every position
//! compared with the first generation (built independently, with distances and a
//! forward check); damaged files refused with the file named; resumption; threads.

use damas_rules::variant::Variant;
use std::path::Path;
use std::sync::OnceLock;

use damas_egdb::slices::build::build_slices;
use damas_egdb::slices::compact::{slice_path, SliceFile};
use damas_egdb::slices::db::SliceDb;
use damas_egdb::slices::slice::{Slice, SliceIndex};
use damas_egdb::{build, BuildOptions, Egdb, EgdbError};
use damas_rules::movegen::legal_moves;
use damas_rules::position::Position;

/// First-generation parts 1–4 and second-generation slices 2–4, built once.
fn dbs() -> &'static (tempfile::TempDir, Egdb, tempfile::TempDir, SliceDb) {
    static DB: OnceLock<(tempfile::TempDir, Egdb, tempfile::TempDir, SliceDb)> = OnceLock::new();
    DB.get_or_init(|| {
        let d1 = tempfile::tempdir().unwrap();
        build(d1.path(), 4, &BuildOptions::default(), |_| {}).unwrap();
        let g1 = Egdb::open(Variant::Brazilian, d1.path()).unwrap();
        let d2 = tempfile::tempdir().unwrap();
        build_slices(
            Variant::Brazilian,
            d2.path(),
            4,
            &BuildOptions::default(),
            |_| {},
        )
        .unwrap();
        let g2 = SliceDb::open_existing(Variant::Brazilian, d2.path()).unwrap();
        (d1, g1, d2, g2)
    })
}

#[test]
fn every_position_up_to_4_pieces_matches_the_first_generation() {
    let (_, g1, _, g2) = dbs();
    assert_eq!(g2.max_pieces(), 4);
    let mut checked = 0u64;
    for n in 2..=4 {
        for s in Slice::all(n) {
            let ix = SliceIndex::new(s);
            for i in 0..ix.size() {
                let pos = ix.unrank(i).unwrap().position();
                for p in [pos, pos.flip()] {
                    let want = g1.probe_wdl(&p).unwrap();
                    assert_eq!(g2.wdl(&p), Some(want), "{s} #{i}: {p:?}");
                }
                checked += 1;
            }
        }
    }
    let expected: u64 = (2..=4).map(damas_egdb::slices::slice::positions_with).sum();
    assert_eq!(checked, expected);
}

#[test]
fn best_moves_keep_the_value_and_do_not_depend_on_generation_order() {
    let (_, _, _, g2) = dbs();
    for s in Slice::all(4) {
        let ix = SliceIndex::new(s);
        for i in (0..ix.size()).step_by(97) {
            let pos = ix.unrank(i).unwrap().position();
            let (wdl, best) = g2.probe(&pos).unwrap();
            let moves = legal_moves(Variant::Brazilian, &pos);
            match best {
                None => assert!(moves.is_empty()),
                Some(m) => {
                    assert!(moves.contains(&m));
                    assert_eq!(g2.wdl(&pos.play(m)).unwrap().negate(), wdl);
                    // The least of the optimal moves: no smaller move keeps the value.
                    for &o in moves.iter().filter(|&&o| o < m) {
                        assert_ne!(g2.wdl(&pos.play(o)).unwrap().negate(), wdl);
                    }
                }
            }
        }
    }
}

fn copy_slices(from: &Path, to: &Path) {
    for n in 2..=3 {
        for s in Slice::all(n) {
            std::fs::copy(slice_path(from, s), slice_path(to, s)).unwrap();
        }
    }
}

#[test]
fn damaged_files_are_refused_naming_the_file() {
    let (_, _, d2, _) = dbs();
    let s = Slice::new(1, 1, 1, 0);
    let dir = tempfile::tempdir().unwrap();
    copy_slices(d2.path(), dir.path());
    let path = slice_path(dir.path(), s);
    let named = |e: &EgdbError| e.to_string().contains("w11b10.wdl");

    // Corrupt: a flipped byte in the codes is found on first use.
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&path, &bytes).unwrap();
    let f = SliceFile::open(Variant::Brazilian, dir.path(), s)
        .unwrap()
        .unwrap();
    let e = f.check().unwrap_err();
    assert!(matches!(e, EgdbError::Checksum { .. }) && named(&e), "{e}");
    assert_eq!(f.code(0), None);

    // Truncated.
    std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
    let e = SliceFile::open(Variant::Brazilian, dir.path(), s).unwrap_err();
    assert!(matches!(e, EgdbError::BadLength { .. }) && named(&e), "{e}");

    // A code length no file can have (it would overflow the expected length).
    let mut absurd = bytes.clone();
    absurd[40..48].copy_from_slice(&u64::MAX.to_le_bytes());
    std::fs::write(&path, &absurd).unwrap();
    let e = SliceFile::open(Variant::Brazilian, dir.path(), s).unwrap_err();
    assert!(matches!(e, EgdbError::BadLength { .. }) && named(&e), "{e}");

    // Wrong version.
    bytes[last] ^= 0x55;
    bytes[8] = 1;
    std::fs::write(&path, &bytes).unwrap();
    // A damaged file is left out and listed, the directory still opens.
    let db = SliceDb::open_existing(Variant::Brazilian, dir.path()).unwrap();
    let e = db.broken_file(s).unwrap().to_error();
    assert!(
        named(&e) && e.to_string().contains("format version 1"),
        "{e}"
    );
}

#[test]
fn version_2_files_with_the_old_checksum_are_still_read() {
    let (_, _, d2, g2) = dbs();
    let dir = tempfile::tempdir().unwrap();
    let s = Slice::new(1, 1, 1, 0);
    let path = slice_path(dir.path(), s);
    let mut bytes = std::fs::read(slice_path(d2.path(), s)).unwrap();
    assert_eq!(bytes[8], 3, "files are written in version 3");
    // The same body under a version-2 header with the old 64-bit checksum.
    bytes[8] = 2;
    let old = damas_egdb::format::legacy_checksum(&bytes[64..]);
    bytes[48..56].copy_from_slice(&old.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let v2 = SliceFile::open(Variant::Brazilian, dir.path(), s)
        .unwrap()
        .unwrap();
    v2.check().unwrap();
    let v3 = g2.file(s).unwrap();
    for i in 0..SliceIndex::new(s).size() {
        assert_eq!(v2.code(i), v3.code(i), "position {i}");
    }
    // A version-2 header with a CRC-32 in it is a checksum mismatch.
    let crc = u64::from(crc32fast::hash(&bytes[64..]));
    bytes[48..56].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let e = SliceFile::open(Variant::Brazilian, dir.path(), s)
        .unwrap()
        .unwrap()
        .check()
        .unwrap_err();
    assert!(matches!(e, EgdbError::Checksum { .. }), "{e}");
}

#[test]
fn a_copy_in_huge_pages_answers_the_same_and_still_checks_checksums() {
    let (_, _, d2, g2) = dbs();
    let mut copy = SliceDb::open_existing(Variant::Brazilian, d2.path()).unwrap();
    let bytes = copy.copy_to_huge_pages().unwrap();
    assert!(
        bytes >= g2.bytes() && bytes < g2.bytes() + 64 * 200,
        "{bytes}"
    );
    assert_eq!(copy.bytes(), g2.bytes());
    for s in Slice::all(4).into_iter().chain(Slice::all(3)) {
        let ix = SliceIndex::new(s);
        for i in (0..ix.size()).step_by(7) {
            let pos = ix.unrank(i).unwrap().position();
            for p in [pos, pos.flip()] {
                assert_eq!(copy.wdl(&p), g2.wdl(&p), "{s} #{i}");
            }
        }
    }
    // A damaged file is left out when the directory is opened, copy or not.
    let dir = tempfile::tempdir().unwrap();
    copy_slices(d2.path(), dir.path());
    let s = Slice::new(1, 1, 1, 0);
    let path = slice_path(dir.path(), s);
    let mut damaged = std::fs::read(&path).unwrap();
    let last = damaged.len() - 1;
    damaged[last] ^= 0x55;
    std::fs::write(&path, &damaged).unwrap();
    let mut db = SliceDb::open_existing(Variant::Brazilian, dir.path()).unwrap();
    db.copy_to_huge_pages().unwrap();
    assert!(db.file(s).is_none());
    assert_eq!(
        db.file(Slice::new(1, 0, 1, 0)).unwrap().check().ok(),
        Some(())
    );
}

#[test]
fn interrupted_build_resumes_at_the_missing_slice() {
    let (_, _, d2, _) = dbs();
    let dir = tempfile::tempdir().unwrap();
    copy_slices(d2.path(), dir.path());
    let gone = Slice::new(0, 2, 1, 0);
    std::fs::remove_file(slice_path(dir.path(), gone)).unwrap();
    // A leftover temporary file of an interrupted write is ignored and replaced.
    std::fs::write(slice_path(dir.path(), gone).with_extension("wdl.tmp"), b"x").unwrap();
    let summaries = build_slices(
        Variant::Brazilian,
        dir.path(),
        3,
        &BuildOptions::default(),
        |_| {},
    )
    .unwrap();
    let mut rebuilt: Vec<Slice> = summaries
        .iter()
        .filter(|s| !s.reused)
        .map(|s| s.slice)
        .collect();
    rebuilt.sort();
    assert_eq!(rebuilt, [gone, gone.mirror()]);
    assert_eq!(
        std::fs::read(slice_path(dir.path(), gone)).unwrap(),
        std::fs::read(slice_path(d2.path(), gone)).unwrap()
    );
}

#[test]
fn concurrent_probes_agree() {
    let (_, g1, _, g2) = dbs();
    let positions: Vec<Position> = Slice::all(4)
        .into_iter()
        .flat_map(|s| {
            let ix = SliceIndex::new(s);
            (0..ix.size())
                .step_by(1013)
                .map(move |i| ix.unrank(i).unwrap().position())
        })
        .collect();
    std::thread::scope(|scope| {
        for t in 0..4 {
            let positions = &positions;
            scope.spawn(move || {
                for p in positions.iter().skip(t) {
                    assert_eq!(g2.wdl(p), g1.probe_wdl(p));
                }
            });
        }
    });
    fn send_sync<T: Send + Sync>() {}
    send_sync::<SliceDb>();
}

/// First-generation parts 1–5 and slices 2–5 for the five-piece comparisons: the
/// directories named by `DAMAS_EGDB_LEGACY` and `DAMAS_EGDB_SLICES` when set, else
/// built here (about four minutes of CPU and 0.8 GB, hence `#[ignore]`).
fn five_piece_dbs() -> (Vec<tempfile::TempDir>, Egdb, SliceDb) {
    let mut temps = Vec::new();
    let mut dir = |var: &str, make: &dyn Fn(&Path)| match std::env::var_os(var) {
        Some(d) => std::path::PathBuf::from(d),
        None => {
            let t = tempfile::tempdir().unwrap();
            make(t.path());
            let p = t.path().to_path_buf();
            temps.push(t);
            p
        }
    };
    let legacy = dir("DAMAS_EGDB_LEGACY", &|d| {
        build(d, 5, &BuildOptions::default(), |_| {}).unwrap();
    });
    let slices = dir("DAMAS_EGDB_SLICES", &|d| {
        build_slices(Variant::Brazilian, d, 5, &BuildOptions::default(), |_| {}).unwrap();
    });
    let g1 = Egdb::open(Variant::Brazilian, &legacy).unwrap();
    assert!(g1.has_legacy_part(5), "{}: no part 5", legacy.display());
    let g2 = SliceDb::open_existing(Variant::Brazilian, &slices).unwrap();
    assert!(
        g2.max_pieces() >= 5,
        "{}: slices incomplete",
        slices.display()
    );
    (temps, g1, g2)
}

/// The values of `positions` (and of their colour-flipped twins) in both generations.
fn compare(
    g1: &Egdb,
    g2: &SliceDb,
    positions: impl rayon::iter::ParallelIterator<Item = Position>,
) -> u64 {
    use rayon::iter::ParallelIterator;
    positions
        .map(|pos| {
            for p in [pos, pos.flip()] {
                let want = g1.probe_wdl(&p).unwrap();
                assert_eq!(g2.wdl(&p), Some(want), "{p:?}");
            }
            1u64
        })
        .sum()
}

#[test]
#[ignore = "builds parts 1-5 of both generations unless DAMAS_EGDB_LEGACY/DAMAS_EGDB_SLICES are set"]
fn a_large_sample_of_five_piece_positions_matches_the_first_generation() {
    use rand::SeedableRng;
    use rayon::iter::{IntoParallelIterator, ParallelIterator};
    let (_temps, g1, g2) = five_piece_dbs();
    let sampler = damas_egdb::slices::slice::PositionSampler::new(5);
    let checked = compare(
        &g1,
        &g2,
        (0..64u64).into_par_iter().flat_map_iter(|seed| {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let sampler = sampler.clone();
            (0..50_000).map(move |_| sampler.sample(&mut rng).unwrap())
        }),
    );
    assert_eq!(checked, 64 * 50_000);
}

#[test]
#[ignore = "every five-piece position: minutes of CPU on top of the builds"]
fn every_five_piece_position_matches_the_first_generation() {
    use rayon::iter::{IntoParallelIterator, ParallelIterator};
    let (_temps, g1, g2) = five_piece_dbs();
    let mut checked = 0;
    for s in Slice::all(5) {
        let ix = SliceIndex::new(s);
        checked += compare(
            &g1,
            &g2,
            (0..ix.size())
                .into_par_iter()
                .map(move |i| ix.unrank(i).unwrap().position()),
        );
    }
    assert_eq!(checked, damas_egdb::slices::slice::positions_with(5));
}
