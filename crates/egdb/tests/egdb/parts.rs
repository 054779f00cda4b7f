//! Endgame databases: build parts 1–3 into a temporary directory, check them
//! against the rules and against an independent search, and refuse damaged files.
//! The 4-piece build and check (≈ 10 s) is `#[ignore]`d:
//! `cargo test --release -p damas-egdb -- --ignored part_4`.

use damas_rules::variant::Variant;
use std::collections::HashMap;
use std::path::Path;
use std::sync::OnceLock;

use damas_egdb::format::{legacy_checksum, HEADER_LEN};
use damas_egdb::parts::file::{part_path, write_part_file, FileKind, Header, FORMAT_VERSION};
use damas_egdb::parts::index::{is_valid_slot, part_size, rank_position, unrank};
use damas_egdb::parts::verify::verify;
use damas_egdb::{build, BuildOptions, Egdb, EgdbError, Wdl};
use damas_rules::movegen::legal_moves;
use damas_rules::{parse_fen, Position};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Parts 1–3, built once for all tests of this file.
fn db3() -> &'static (tempfile::TempDir, Egdb) {
    static DB: OnceLock<(tempfile::TempDir, Egdb)> = OnceLock::new();
    DB.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        build(dir.path(), 3, &BuildOptions::default(), |_| {}).unwrap();
        let db = Egdb::open(Variant::Brazilian, dir.path()).unwrap();
        (dir, db)
    })
}

/// A copy of the 1–3 piece files, for tests that damage them.
fn copy_db3() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for n in 1..=3 {
        for kind in [FileKind::Values, FileKind::Distances] {
            std::fs::copy(
                part_path(db3().0.path(), n, kind),
                part_path(dir.path(), n, kind),
            )
            .unwrap();
        }
    }
    dir
}

#[test]
fn parts_1_to_3_obey_the_rules() {
    let (_, db) = db3();
    assert_eq!(db.max_pieces(), 3);
    let r = verify(db, 5);
    assert_eq!(r.violations, 0, "{:?}", r.first);
    assert_eq!(r.entries, part_size(1) + part_size(2) + part_size(3));
}

#[test]
fn rank_unrank_inverse_on_whole_parts() {
    for n in 1..=3 {
        for i in 0..part_size(n) {
            let p = unrank(n, i).unwrap();
            assert_eq!(rank_position(&p), Some((n, i, false)));
            assert_eq!(rank_position(&p.flip()), Some((n, i, true)));
        }
    }
}

#[test]
fn rank_unrank_inverse_sampled_on_parts_4_and_5() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for n in 4..=5 {
        for _ in 0..200_000 {
            let i = rng.gen_range(0..part_size(n));
            let p = unrank(n, i).unwrap();
            assert_eq!(rank_position(&p), Some((n, i, false)));
            assert_eq!(rank_position(&p.flip()), Some((n, i, true)));
        }
        assert_eq!(
            rank_position(&unrank(n, part_size(n) - 1).unwrap()),
            Some((n, part_size(n) - 1, false))
        );
        assert!(unrank(n, part_size(n)).is_none());
    }
}

/// Independent proof search: can the side to move force a win (the opponent left
/// without a move) within `d` plies, or is it lost within `d` plies whatever it does?
/// Results are monotone in `d`, so the memo keeps the largest depth known false and
/// the smallest known true.
struct Prover {
    memo: HashMap<(Position, bool), (i32, i32)>,
}

impl Prover {
    fn win_within(&mut self, pos: Position, d: i32) -> bool {
        self.proves(pos, d, true)
    }

    fn loss_within(&mut self, pos: Position, d: i32) -> bool {
        self.proves(pos, d, false)
    }

    fn proves(&mut self, pos: Position, d: i32, win: bool) -> bool {
        let (max_false, min_true) = *self.memo.get(&(pos, win)).unwrap_or(&(-1, i32::MAX));
        if d >= min_true {
            return true;
        }
        if d <= max_false {
            return false;
        }
        let moves = legal_moves(Variant::Brazilian, &pos);
        let result = if win {
            d > 0 && moves.iter().any(|&m| self.loss_within(pos.play(m), d - 1))
        } else {
            moves.is_empty()
                || (d > 0 && moves.iter().all(|&m| self.win_within(pos.play(m), d - 1)))
        };
        let e = self.memo.entry((pos, win)).or_insert((-1, i32::MAX));
        if result {
            e.1 = e.1.min(d);
        } else {
            e.0 = e.0.max(d);
        }
        result
    }
}

#[test]
fn values_agree_with_an_independent_search() {
    let (_, db) = db3();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut prover = Prover {
        memo: HashMap::new(),
    };
    let mut seen = [0usize; 3];
    for k in 0..600 {
        let n = if k % 3 == 0 { 2 } else { 3 };
        let i = rng.gen_range(0..part_size(n));
        if !is_valid_slot(n, i) {
            continue;
        }
        let white_to_move = unrank(n, i).unwrap();
        // Half the positions with Black to move, to exercise the flipping.
        let pos = if rng.gen() {
            white_to_move.flip()
        } else {
            white_to_move
        };
        let p = db.probe(&pos).unwrap();
        let d = i32::from(p.distance.unwrap_or(0));
        match p.wdl {
            Wdl::Win => {
                assert!(
                    prover.win_within(pos, d) && !prover.win_within(pos, d - 1),
                    "{pos:?} win in {d}"
                );
                let best = p.best.unwrap();
                assert!(
                    prover.loss_within(pos.play(best), d - 1),
                    "{pos:?} best {best:?}"
                );
                seen[0] += 1;
            }
            Wdl::Loss => {
                assert!(
                    prover.loss_within(pos, d) && !prover.loss_within(pos, d - 1),
                    "{pos:?} loss in {d}"
                );
                if let Some(best) = p.best {
                    assert!(
                        !prover.win_within(pos.play(best), d - 2),
                        "{pos:?} best {best:?} not slowest"
                    );
                }
                seen[1] += 1;
            }
            Wdl::Draw => {
                // Longer than any 3-piece win (25 plies), so this search is complete.
                assert!(
                    !prover.win_within(pos, 30) && !prover.loss_within(pos, 30),
                    "{pos:?} draw"
                );
                let best = p.best.unwrap();
                assert!(
                    !prover.win_within(pos.play(best), 30),
                    "{pos:?} best {best:?} loses"
                );
                seen[2] += 1;
            }
        }
        if let Some(best) = p.best {
            assert!(
                legal_moves(Variant::Brazilian, &pos).contains(&best),
                "{pos:?}: {best:?} is not legal here"
            );
        }
    }
    assert!(seen.iter().all(|&s| s > 20), "{seen:?}");
}

#[test]
fn black_to_move_is_answered_through_the_flip() {
    let (_, db) = db3();
    let pos = parse_fen("B:WKa1:BKh8").unwrap();
    let p = db.probe(&pos).unwrap();
    assert_eq!((p.wdl, p.distance), (Wdl::Loss, Some(2)));
    assert!(legal_moves(Variant::Brazilian, &pos).contains(&p.best.unwrap()));
    let q = db.probe(&pos.flip()).unwrap();
    assert_eq!(
        (q.wdl, q.distance, q.best.map(|m| m.rotate())),
        (p.wdl, p.distance, p.best)
    );
}

/// A damaged part file is left out, not the directory: it is named among the
/// damaged files with the problem `check` expects, and two pieces still answer.
fn expect_left_out(dir: &Path, check: impl Fn(&str) -> bool) {
    let db = Egdb::open(Variant::Brazilian, dir).expect("a damaged file leaves the rest usable");
    let damaged = db.damaged_files();
    assert!(
        damaged.len() == 1
            && damaged[0].path.to_string_lossy().contains("part3")
            && check(&damaged[0].problem),
        "{damaged:?}"
    );
    assert!(db.probe(&parse_fen("W:WKa1:BKh8").unwrap()).is_some());
}

#[test]
fn flipped_byte_is_refused() {
    let dir = copy_db3();
    let path = part_path(dir.path(), 3, FileKind::Values);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[HEADER_LEN + 12345] ^= 0x04;
    std::fs::write(&path, bytes).unwrap();
    expect_left_out(dir.path(), |p| p.contains("checksum"));
    // The builder refuses it too rather than reuse or overwrite it.
    assert!(matches!(
        build(dir.path(), 3, &BuildOptions::default(), |_| {}),
        Err(EgdbError::Checksum { .. })
    ));
}

/// Parts written before the CRC-32 (version 1, the old 64-bit checksum) still open
/// and give the same values; a version-1 header holding a CRC-32 is a mismatch.
#[test]
fn version_1_parts_with_the_old_checksum_are_still_read() {
    let dir = copy_db3();
    for kind in [FileKind::Values, FileKind::Distances] {
        let path = part_path(dir.path(), 3, kind);
        let mut bytes = std::fs::read(&path).unwrap();
        assert_eq!(
            bytes[8..10],
            FORMAT_VERSION.to_le_bytes(),
            "written version"
        );
        bytes[8..10].copy_from_slice(&1u16.to_le_bytes());
        let old = legacy_checksum(&bytes[HEADER_LEN..]);
        bytes[24..32].copy_from_slice(&old.to_le_bytes());
        std::fs::write(&path, &bytes).unwrap();
    }
    let db = Egdb::open(Variant::Brazilian, dir.path()).unwrap();
    for i in 0..part_size(3) {
        let p = unrank(3, i).unwrap();
        assert_eq!(db.probe_value(&p), db3().1.probe_value(&p), "slot {i}");
    }
    let path = part_path(dir.path(), 3, FileKind::Values);
    let mut bytes = std::fs::read(&path).unwrap();
    let crc = u64::from(crc32fast::hash(&bytes[HEADER_LEN..]));
    bytes[24..32].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    expect_left_out(dir.path(), |p| p.contains("checksum"));
}

#[test]
fn truncated_file_is_refused() {
    let dir = copy_db3();
    let path = part_path(dir.path(), 3, FileKind::Distances);
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
    expect_left_out(dir.path(), |p| p.contains("truncated"));
    std::fs::write(&path, &bytes[..10]).unwrap();
    expect_left_out(dir.path(), |p| p.contains("truncated"));
}

#[test]
fn foreign_file_is_refused() {
    let dir = copy_db3();
    let path = part_path(dir.path(), 3, FileKind::Values);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[0] = b'X';
    std::fs::write(&path, &bytes).unwrap();
    expect_left_out(dir.path(), |p| p.contains("bad magic"));
    // A distance file under a value file's name: right magic, wrong kind.
    std::fs::copy(part_path(dir.path(), 3, FileKind::Distances), &path).unwrap();
    expect_left_out(dir.path(), |p| p.contains("bad header"));
}

#[test]
fn missing_directory_or_parts_are_errors() {
    let empty = tempfile::tempdir().unwrap();
    assert!(matches!(
        Egdb::open(Variant::Brazilian, empty.path()),
        Err(EgdbError::NoParts { .. })
    ));
    assert!(matches!(
        Egdb::open(Variant::Brazilian, empty.path().join("nowhere")),
        Err(EgdbError::Io { .. })
    ));
}

#[test]
fn interrupted_build_resumes() {
    let dir = copy_db3();
    std::fs::remove_file(part_path(dir.path(), 3, FileKind::Values)).unwrap();
    std::fs::write(dir.path().join("part3.val.tmp"), b"half-written").unwrap();
    let summaries = build(
        dir.path(),
        3,
        &BuildOptions {
            threads: 1,
            progress: false,
            dtc: false,
        },
        |_| {},
    )
    .unwrap();
    let reused: Vec<bool> = summaries.iter().map(|s| s.reused).collect();
    assert_eq!(reused, [true, true, false]);
    let a = std::fs::read(part_path(dir.path(), 3, FileKind::Values)).unwrap();
    let b = std::fs::read(part_path(db3().0.path(), 3, FileKind::Values)).unwrap();
    assert!(a == b, "rebuilt part differs");
}

#[test]
#[ignore = "builds and verifies the 4-piece part (about 10 s on 2 cores)"]
fn part_4_obeys_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), 4, &BuildOptions::default(), |_| {}).unwrap();
    let db = Egdb::open(Variant::Brazilian, dir.path()).unwrap();
    let r = verify(&db, 5);
    assert_eq!(r.violations, 0, "{:?}", r.first);
}

#[test]
fn two_byte_distances_read_the_same() {
    let dir = copy_db3();
    let path = part_path(dir.path(), 3, FileKind::Distances);
    let bytes = std::fs::read(&path).unwrap();
    let wide: Vec<u8> = bytes[HEADER_LEN..]
        .iter()
        .flat_map(|&d| u16::from(d).to_le_bytes())
        .collect();
    let header = Header {
        version: FORMAT_VERSION,
        kind: FileKind::Distances,
        pieces: 3,
        width: 2,
        entries: part_size(3),
        checksum: 0,
        max_distance: 25,
    };
    write_part_file(&path, header, &wide).unwrap();
    let db = Egdb::open(Variant::Brazilian, dir.path()).unwrap();
    for i in 0..part_size(3) {
        let p = unrank(3, i).unwrap();
        assert_eq!(db.probe_value(&p), db3().1.probe_value(&p));
    }
}

/// The handle is shared between search threads: checked when the tests compile.
const _: () = {
    const fn shared<T: Send + Sync>() {}
    shared::<Egdb>();
};
