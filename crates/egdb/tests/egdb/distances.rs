//! The slices' distance files (`damas-egdb build --dtc`): every stored distance of
//! 2–4 pieces obeys the definition of plies to conversion (checked move by move
//! against the win/draw/loss values), the database's best move follows it, the
//! files are refused when damaged, and a win/draw/loss-only directory gains its
//! distance files without changing its slices.

use damas_rules::variant::Variant;
use std::sync::OnceLock;

use damas_egdb::slices::build::build_slices;
use damas_egdb::slices::check::{slice_counts, verify_slices, VerifyOptions};
use damas_egdb::slices::compact::slice_path;
use damas_egdb::slices::dtc::{dtc_path, write_dtc_file, DtcFile, SliceDistances};
use damas_egdb::slices::slice::{Slice, SliceIndex};
use damas_egdb::{BuildOptions, Egdb, EgdbError, Wdl};
use damas_rules::movegen::{has_capture, legal_moves};
use damas_rules::position::Position;

fn with_dtc() -> BuildOptions {
    BuildOptions {
        dtc: true,
        ..BuildOptions::default()
    }
}

/// Slices 2–4 with distance files, built once.
fn db() -> &'static (tempfile::TempDir, Egdb) {
    static DB: OnceLock<(tempfile::TempDir, Egdb)> = OnceLock::new();
    DB.get_or_init(|| {
        let d = tempfile::tempdir().unwrap();
        build_slices(Variant::Brazilian, d.path(), 4, &with_dtc(), |_| {}).unwrap();
        let db = Egdb::open(Variant::Brazilian, d.path()).unwrap();
        (d, db)
    })
}

/// Whether a quiet move changes the material class (a promotion): the builder
/// treats it as a conversion, like a capture.
fn converts(pos: &Position, child: &Position) -> bool {
    child.piece_count() != pos.piece_count() || child.kings().count() != pos.kings().count()
}

#[test]
fn distances_follow_the_definition_of_plies_to_conversion() {
    let (_, db) = db();
    for n in 2..=4 {
        assert!(db.has_slice_distances(n), "{n} pieces");
    }
    let mut checked = [0u64; 3];
    for n in 2..=4 {
        for s in Slice::all(n) {
            let ix = SliceIndex::new(s);
            for i in 0..ix.size() {
                let pos = ix.unrank(i).unwrap().position();
                let v = db.probe_value(&pos).unwrap();
                if v.wdl == Wdl::Draw {
                    assert_eq!(v.distance, None);
                    continue;
                }
                let d = i32::from(
                    v.distance
                        .expect("a won or lost slice position has a distance"),
                );
                if has_capture(&pos) {
                    assert_eq!(d, 0, "{pos:?}: a capture is a conversion");
                    continue;
                }
                // Children inside the slice (quiet, no promotion) with the value
                // that keeps the result, and whether a conversion keeps it.
                let mut inside = vec![];
                let mut converting = false;
                for &m in legal_moves(Variant::Brazilian, &pos).iter() {
                    let child = pos.play(m);
                    let cv = db.probe_value(&child).unwrap();
                    if cv.wdl.negate() != v.wdl {
                        continue;
                    }
                    if converts(&pos, &child) {
                        converting = true;
                    } else {
                        inside.push(i32::from(cv.distance.unwrap()));
                    }
                }
                let want = match v.wdl {
                    Wdl::Win if converting => 0,
                    Wdl::Win => 1 + inside.iter().min().expect("a win has a winning move"),
                    _ => inside.iter().max().map_or(0, |m| 1 + m),
                };
                assert_eq!(d, want, "{pos:?} ({:?})", v.wdl);
                checked[if v.wdl == Wdl::Win { 0 } else { 1 }] += 1;
                checked[2] = checked[2].max(d as u64);
            }
        }
    }
    // Real work was checked: many wins and losses, and distances well past one.
    assert!(checked[0] > 100_000 && checked[1] > 10_000, "{checked:?}");
    assert!(checked[2] >= 10, "longest {}", checked[2]);
}

#[test]
fn best_moves_follow_the_distances() {
    let (_, db) = db();
    let mut followed = 0;
    for s in Slice::all(4) {
        let ix = SliceIndex::new(s);
        for i in (0..ix.size()).step_by(53) {
            let pos = ix.unrank(i).unwrap().position();
            for p in [pos, pos.flip()] {
                let probe = db.probe(&p).unwrap();
                let (Some(d), Some(best)) = (probe.distance, probe.best) else {
                    assert!(
                        probe.wdl == Wdl::Draw || legal_moves(Variant::Brazilian, &p).is_empty()
                    );
                    continue;
                };
                let child = p.play(best);
                let cv = db.probe_value(&child).unwrap();
                assert_eq!(cv.wdl.negate(), probe.wdl, "{p:?}: {best:?}");
                if !has_capture(&p) && !converts(&p, &child) {
                    // One ply closer to the conversion (both sides play it out).
                    assert_eq!(cv.distance.map(|c| c + 1), Some(d), "{p:?}: {best:?}");
                    followed += 1;
                }
            }
        }
    }
    assert!(followed > 1_000, "{followed}");
}

#[test]
fn a_slices_only_directory_gains_its_distance_files_and_keeps_its_slices() {
    let (d, _) = db();
    let dir = tempfile::tempdir().unwrap();
    build_slices(
        Variant::Brazilian,
        dir.path(),
        3,
        &BuildOptions::default(),
        |_| {},
    )
    .unwrap();
    let s = Slice::new(1, 1, 1, 0);
    assert!(!dtc_path(dir.path(), s).exists());
    let wdl_only = Egdb::open(Variant::Brazilian, dir.path()).unwrap();
    assert!(!wdl_only.has_slice_distances(3));
    let won = damas_rules::fen::parse_fen("W:WKa1,Kc1:Bh8").unwrap();
    assert_eq!(wdl_only.probe_value(&won).unwrap().distance, None);
    let summaries = build_slices(Variant::Brazilian, dir.path(), 3, &with_dtc(), |_| {}).unwrap();
    assert!(summaries.iter().all(|s| !s.reused && s.dtc_bytes > 0));
    for n in 2..=3 {
        for s in Slice::all(n) {
            for path in [slice_path, dtc_path] {
                assert_eq!(
                    std::fs::read(path(dir.path(), s)).unwrap(),
                    std::fs::read(path(d.path(), s)).unwrap(),
                    "{s}"
                );
            }
        }
    }
    // Built with distances, a second run keeps everything.
    let again = build_slices(Variant::Brazilian, dir.path(), 3, &with_dtc(), |_| {}).unwrap();
    assert!(again.iter().all(|s| s.reused));
}

#[test]
fn damaged_distance_files_are_refused_naming_the_file() {
    let (d, _) = db();
    let s = Slice::new(1, 1, 1, 0);
    let dir = tempfile::tempdir().unwrap();
    let path = dtc_path(dir.path(), s);
    let named = |e: &EgdbError| e.to_string().contains("w11b10.dtc");
    let mut bytes = std::fs::read(dtc_path(d.path(), s)).unwrap();

    // Corrupt: a flipped byte is found on first use, and no distance is given.
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&path, &bytes).unwrap();
    let f = DtcFile::open(Variant::Brazilian, dir.path(), s)
        .unwrap()
        .unwrap();
    let e = f.check().unwrap_err();
    assert!(matches!(e, EgdbError::Checksum { .. }) && named(&e), "{e}");
    assert_eq!(f.get(0), None);

    // Truncated, and with trailing bytes.
    std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
    let e = DtcFile::open(Variant::Brazilian, dir.path(), s).unwrap_err();
    assert!(matches!(e, EgdbError::BadLength { .. }) && named(&e), "{e}");
    let mut longer = bytes.clone();
    longer.push(0);
    std::fs::write(&path, &longer).unwrap();
    let e = SliceDistances::open_existing(Variant::Brazilian, dir.path()).unwrap_err();
    assert!(
        matches!(e, EgdbError::BadLength { .. } | EgdbError::Corrupt { .. }) && named(&e),
        "{e}"
    );

    // Wrong version; a slice file's header under the distance file's name.
    bytes[last] ^= 0x55;
    bytes[8] = 9;
    std::fs::write(&path, &bytes).unwrap();
    let e = DtcFile::open(Variant::Brazilian, dir.path(), s).unwrap_err();
    assert!(named(&e) && e.to_string().contains("version 9"), "{e}");
    std::fs::copy(slice_path(d.path(), s), &path).unwrap();
    let e = DtcFile::open(Variant::Brazilian, dir.path(), s).unwrap_err();
    assert!(named(&e), "{e}");
}

#[test]
fn the_longest_win_is_reported_by_the_build_and_by_stats() {
    let dir = tempfile::tempdir().unwrap();
    let summaries = build_slices(Variant::Brazilian, dir.path(), 3, &with_dtc(), |_| {}).unwrap();
    let db = Egdb::open(Variant::Brazilian, dir.path()).unwrap();
    let sdb = db.slices().unwrap();
    let mut longest_overall = 0;
    for s in &summaries {
        let built = s.counts.unwrap();
        let file = db.slice_distances().unwrap().file(s.slice);
        let counted = slice_counts(sdb, file, s.slice).unwrap();
        assert_eq!(built, counted, "{}", s.slice);
        // The longest win, probed position by position.
        let ix = SliceIndex::new(s.slice);
        let longest = (0..ix.size())
            .map(|i| ix.unrank(i).unwrap().position())
            .filter(|p| !has_capture(p))
            .filter_map(|p| {
                let v = db.probe_value(&p).unwrap();
                (v.wdl == Wdl::Win).then(|| v.distance.unwrap())
            })
            .max()
            .unwrap_or(0);
        assert_eq!(u16::from(built.longest_win), longest, "{}", s.slice);
        longest_overall = longest_overall.max(longest);
    }
    assert!(longest_overall >= 10, "{longest_overall}");
}

#[test]
fn verify_checks_every_distance_and_finds_a_wrong_one() {
    let (d, db) = db();
    let sdb = db.slices().unwrap();
    let opts = VerifyOptions {
        keep: 5,
        ..VerifyOptions::default()
    };
    let r = verify_slices(sdb, db.slice_distances(), &opts, |_| {});
    assert_eq!(r.violations, 0, "{:?}", r.first);
    assert_eq!(r.parts, [2, 3, 4]);

    // One won position's distance one ply too long, the file otherwise sound.
    let dir = tempfile::tempdir().unwrap();
    for n in 2..=3 {
        for s in Slice::all(n) {
            std::fs::copy(slice_path(d.path(), s), slice_path(dir.path(), s)).unwrap();
            std::fs::copy(dtc_path(d.path(), s), dtc_path(dir.path(), s)).unwrap();
        }
    }
    let s = Slice::new(0, 2, 0, 1);
    let ix = SliceIndex::new(s);
    let copy = Egdb::open(Variant::Brazilian, dir.path()).unwrap();
    let victim = (0..ix.size())
        .find(|&i| {
            let p = ix.unrank(i).unwrap().position();
            let v = copy.probe_value(&p).unwrap();
            !has_capture(&p) && v.wdl == Wdl::Win && v.distance >= Some(3)
        })
        .expect("a long win in two kings against one");
    let mut body = std::fs::read(dtc_path(dir.path(), s)).unwrap()[64..].to_vec();
    body[victim as usize] += 1;
    drop(copy);
    write_dtc_file(Variant::Brazilian, dir.path(), s, &body).unwrap();
    let copy = Egdb::open(Variant::Brazilian, dir.path()).unwrap();
    let r = verify_slices(
        copy.slices().unwrap(),
        copy.slice_distances(),
        &opts,
        |_| {},
    );
    assert!(r.violations >= 1, "{r:?}");
    let line = format!("{s} #{victim}: ");
    assert!(
        r.first.iter().any(|l| l.starts_with(&line)),
        "{:?}",
        r.first
    );
    // Without the distance files, the values alone are sound.
    let r = verify_slices(copy.slices().unwrap(), None, &opts, |_| {});
    assert_eq!(r.violations, 0, "{:?}", r.first);
}
