//! Damaged database files: a corrupt or truncated file is named by every command
//! that meets it and takes only its own slice out of play; `verify` names it
//! before any consistency check and blames no slice that depends on it; `probe`
//! without databases answers from the built-in ones; a `DAMAS_EGDB` naming no
//! directory is warned about.

use damas_rules::variant::Variant;
use std::path::Path;
use std::process::{Command, Output};

use rand::{Rng, SeedableRng};

use damas_egdb::format::HEADER_LEN;
use damas_egdb::slices::build::build_slices;
use damas_egdb::slices::compact::slice_path;
use damas_egdb::slices::slice::{Slice, SliceIndex};
use damas_egdb::{BuildOptions, Egdb};
use damas_rules::fen::parse_fen;

/// A position of three pieces whose answer needs several slice files (its own and
/// those its moves reach).
const FEN: &str = "W:WKc1,e3:Bf6";

/// Slices of 2–3 pieces, built once; tests damage copies.
fn built() -> &'static Path {
    crate::slices::brazilian(3)
}

fn copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(built()).unwrap() {
        let e = e.unwrap();
        if e.path().extension().is_some_and(|x| x == "wdl") {
            std::fs::copy(e.path(), dir.path().join(e.file_name())).unwrap();
        }
    }
    dir
}

/// `bin ARGS` in an empty home, with `DAMAS_EGDB` set to `egdb_env` (else unset),
/// so that no standard place holds databases.
fn command(bin: &str, args: &[&str], egdb_env: Option<&Path>) -> (Command, tempfile::TempDir) {
    let home = tempfile::tempdir().unwrap();
    let mut c = Command::new(bin);
    c.args(args)
        .current_dir(home.path())
        .env("HOME", home.path())
        .env_remove("XDG_DATA_HOME")
        .env_remove("DAMAS_EGDB");
    if let Some(d) = egdb_env {
        c.env("DAMAS_EGDB", d);
    }
    (c, home)
}

fn run(bin: &str, args: &[&str], egdb_env: Option<&Path>) -> Output {
    let (mut c, _home) = command(bin, args, egdb_env);
    c.stdin(std::process::Stdio::null()).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Random bytes written over the body of one file, picked at random among those
/// the position needs (size unchanged, at least one byte changed).
#[test]
fn a_corrupt_file_a_position_needs_is_named_by_probe_verify_and_analyze() {
    let seed: u64 = rand::thread_rng().gen();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let dir = copy();
    let pos = parse_fen(FEN).unwrap();
    let sound = Egdb::open(Variant::Brazilian, dir.path()).unwrap();
    assert!(sound.probe(&pos).is_some());
    let needed = sound.slices().unwrap().slices_needed(&pos);
    assert!(needed.len() > 1, "{needed:?}");
    let slice = needed[rng.gen_range(0..needed.len())];
    let path = slice_path(dir.path(), slice);
    let mut bytes = std::fs::read(&path).unwrap();
    let len = rng.gen_range(1..=8.min(bytes.len() - HEADER_LEN));
    let at = rng.gen_range(HEADER_LEN..=bytes.len() - len);
    for b in &mut bytes[at..at + len] {
        *b ^= rng.gen_range(1..=255u8);
    }
    std::fs::write(&path, &bytes).unwrap();
    let stem = slice.stem();
    let context = format!("seed {seed}: {len} bytes at {at} of {stem}.wdl");

    // The library: the position goes unanswered, and the file is named.
    let db = Egdb::open(Variant::Brazilian, dir.path()).unwrap();
    let damaged = db.damaged_files();
    assert_eq!(damaged.len(), 1, "{context}: {damaged:?}");
    assert_eq!(damaged[0].path, path, "{context}");
    assert_eq!(db.probe(&pos), None, "{context}");
    let why = db.damaged_file_for(&pos).expect(&context);
    assert_eq!(why.path, path, "{context}");
    assert!(matches!(
        why.to_error(),
        damas_egdb::EgdbError::Corrupt { .. }
    ));

    // `probe`: the answer line names the file, and so does stderr.
    let d = dir.path().to_str().unwrap();
    let out = run(
        env!("CARGO_BIN_EXE_damas-egdb"),
        &["probe", "--dir", d, "--fen", FEN],
        None,
    );
    assert_eq!(out.status.code(), Some(1), "{context}: {out:?}");
    let line = text(&out.stdout);
    assert!(
        line.starts_with("error ")
            && line.contains(&format!("{stem}.wdl"))
            && line.contains("damaged"),
        "{context}: {line}"
    );
    assert!(
        text(&out.stderr).contains(&format!("{stem}.wdl")),
        "{context}"
    );

    // `verify`: the damaged file first, no violation blamed on the others.
    let out = run(
        env!("CARGO_BIN_EXE_damas-egdb"),
        &["verify", "--dir", d, "--quiet"],
        None,
    );
    assert_eq!(out.status.code(), Some(1), "{context}: {out:?}");
    let report = text(&out.stdout);
    let first = report.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("damaged: ") && first.contains(&format!("{stem}.wdl")),
        "{context}: {report}"
    );
    assert!(!report.contains("violation:"), "{context}: {report}");
    assert!(
        report
            .lines()
            .last()
            .unwrap_or_default()
            .contains(": 0 violations"),
        "{context}: {report}"
    );
    assert!(
        report
            .lines()
            .any(|l| l.starts_with(&stem) && l.contains("damaged, not checked")),
        "{context}: {report}"
    );

    // `analyze`: searches on, and says which file it does without.
    let out = run(
        env!("CARGO_BIN_EXE_damas"),
        &["analyze", "--egdb", d, "--fen", FEN, "--depth", "3"],
        None,
    );
    assert!(out.status.success(), "{context}: {out:?}");
    assert!(
        text(&out.stderr).contains(&format!("{stem}.wdl")),
        "{context}: {out:?}"
    );
    assert!(text(&out.stdout).contains("bestmove"), "{context}: {out:?}");

    // The Hub, finding them at the standard place: an `error` line at `init`
    // names the file, and nothing reaches stderr.
    let out = hub_session(dir.path(), "hub\ninit\nquit\n");
    let said = text(&out.stdout);
    let error = said
        .lines()
        .position(|l| l.starts_with("error ") && l.contains(&format!("{stem}.wdl")));
    let ready = said.lines().position(|l| l == "ready");
    assert!(error.is_some() && error < ready, "{context}: {said}");
    assert!(out.stderr.is_empty(), "{context}: {out:?}");
}

/// `damas hub` with `DAMAS_EGDB` set to `dir`, given `input` on stdin.
fn hub_session(dir: &Path, input: &str) -> Output {
    let (c, _home) = command(env!("CARGO_BIN_EXE_damas"), &["hub"], Some(dir));
    crate::process::with_input(c, input)
}

/// A truncated file takes its own slice out of play, and every position that
/// does not need it is answered as before.
#[test]
fn a_truncated_file_leaves_the_other_slices_answering() {
    let dir = copy();
    let slice = Slice::from_stem("w20b10").unwrap();
    let path = slice_path(dir.path(), slice);
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 7]).unwrap();
    let sound = Egdb::open(Variant::Brazilian, built()).unwrap();
    let db = Egdb::open(Variant::Brazilian, dir.path()).unwrap();
    assert_eq!(db.max_pieces(), 3);
    let damaged = db.damaged_files();
    assert!(
        damaged.len() == 1 && damaged[0].path == path && damaged[0].problem.contains("truncated"),
        "{damaged:?}"
    );
    let sdb = db.slices().unwrap();
    let (mut answered, mut lost) = (0, 0);
    for n in 2..=3 {
        for s in Slice::all(n) {
            let ix = SliceIndex::new(s);
            for i in 0..ix.size() {
                let pos = ix.unrank(i).unwrap().position();
                for p in [pos, pos.flip()] {
                    if sdb.slices_needed(&p).contains(&slice) {
                        if db.probe(&p).is_none() {
                            lost += 1;
                            assert_eq!(db.damaged_file_for(&p).map(|f| f.path), Some(path.clone()));
                        }
                    } else {
                        answered += 1;
                        assert_eq!(db.probe(&p), sound.probe(&p), "{p:?}");
                    }
                }
            }
        }
    }
    assert!(
        answered > 10_000 && lost > 0,
        "{answered} answered, {lost} lost"
    );
    // The builder refuses to build on it, naming it.
    let e = build_slices(
        Variant::Brazilian,
        dir.path(),
        3,
        &BuildOptions::default(),
        |_| {},
    )
    .unwrap_err();
    assert!(e.to_string().contains("w20b10.wdl"), "{e}");
}

/// Without any database directory, `probe` answers from the built-in 1–4 pieces
/// and says so on stderr.
#[test]
fn probe_without_a_directory_answers_from_the_built_in_databases() {
    let out = run(
        env!("CARGO_BIN_EXE_damas-egdb"),
        &["probe", "--fen", "W:WKa1,Kc1,Ke1:BKb8"],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(text(&out.stdout).starts_with("win best "), "{out:?}");
    let err = text(&out.stderr);
    assert!(err.contains("built into the program"), "{err}");
    assert!(
        err.contains("cargo run --release --bin damas-egdb -- build --pieces 5"),
        "{err}"
    );
}

/// A `DAMAS_EGDB` that names no directory is warned about, by `damas-egdb` and
/// by `damas analyze`.
#[test]
fn a_damas_egdb_naming_no_directory_is_warned_about() {
    let here = tempfile::tempdir().unwrap();
    let nowhere = here.path().join("no-such-dir");
    let out = run(
        env!("CARGO_BIN_EXE_damas-egdb"),
        &["probe", "--fen", "W:WKa1:BKh8"],
        Some(&nowhere),
    );
    let err = text(&out.stderr);
    assert!(
        err.contains("DAMAS_EGDB") && err.contains("no-such-dir"),
        "{err}"
    );
    let out = run(
        env!("CARGO_BIN_EXE_damas"),
        &["analyze", "--fen", "W:WKa1:BKh8", "--depth", "2"],
        Some(&nowhere),
    );
    assert!(out.status.success(), "{out:?}");
    let err = text(&out.stderr);
    assert!(
        err.contains("DAMAS_EGDB") && err.contains("no-such-dir"),
        "{err}"
    );
}
