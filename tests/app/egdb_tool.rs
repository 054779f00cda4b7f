//! The `damas-egdb` tool and the probe lines it prints: answers, statistics, damaged
//! files refused on one line, the standard location, the Russian subfolder.

use damas_rules::variant::Variant;
use std::sync::OnceLock;

use damas::cli::egdb::probe_line;
use damas_egdb::format::HEADER_LEN;
use damas_egdb::parts::file::{part_path, write_part_file, FileKind, Header, FORMAT_VERSION};
use damas_egdb::parts::index::part_size;
use damas_egdb::parts::verify::verify;
use damas_egdb::slices::build::build_slices;
use damas_egdb::slices::compact::slice_path;
use damas_egdb::slices::slice::Slice;
use damas_egdb::{build, BuildOptions, Egdb};
use damas_rules::Position;

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

/// Slices of up to three pieces with distance files, built once.
fn db() -> &'static (tempfile::TempDir, Egdb) {
    static DB: OnceLock<(tempfile::TempDir, Egdb)> = OnceLock::new();
    DB.get_or_init(|| {
        let d = tempfile::tempdir().unwrap();
        let with_dtc = BuildOptions {
            dtc: true,
            ..BuildOptions::default()
        };
        build_slices(Variant::Brazilian, d.path(), 3, &with_dtc, |_| {}).unwrap();
        let db = Egdb::open(Variant::Brazilian, d.path()).unwrap();
        (d, db)
    })
}

#[test]
fn probe_lines() {
    let (_, db) = db3();
    assert_eq!(probe_line(db, "W:WKa1:BKh8"), "loss 2 best a1-b2");
    assert_eq!(probe_line(db, "W:Wc3:Bd4"), "win 1 best c3xe5");
    assert_eq!(probe_line(db, "W:W:Bd4"), "loss 0");
    assert!(probe_line(db, "W:WKd4:BKe7").starts_with("draw best "));
    assert!(probe_line(db, "W:Wa1,c1,e1,g1:Bh8").starts_with("error 5 pieces"));
    assert!(probe_line(db, "X:Wa1").starts_with("error bad FEN"));
    assert_eq!(db.probe(&Position::start()), None);
}

fn tool(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_damas-egdb"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn probe_tool_answers_every_line_in_order() {
    let dir = db3().0.path().to_str().unwrap().to_string();
    let fens = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(
        fens.path(),
        "W:WKa1:BKh8\n# comment\n\nnot a fen\nB:Wc3:Bd4\nW:Wa1,c1,e1,g1:Bh8,f8\n",
    )
    .unwrap();
    let out = tool(&[
        "probe",
        "--dir",
        &dir,
        "--fens",
        fens.path().to_str().unwrap(),
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(lines[0], "loss 2 best a1-b2");
    assert!(lines[1].starts_with("error bad FEN"), "{}", lines[1]);
    assert_eq!(lines[2], "win 1 best d4xb2");
    assert!(lines[3].starts_with("error 6 pieces"), "{}", lines[3]);
    assert_eq!(out.status.code(), Some(1), "a line failed");
}

#[test]
fn stats_tool_counts_every_part_and_material() {
    let dir = db3().0.path().to_str().unwrap().to_string();
    let out = tool(&["stats", "--dir", &dir]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    // One summary line per part, each followed by its materials.
    for n in 1..=3 {
        assert!(
            text.contains(&format!("\npart {n}: ")) || text.starts_with(&format!("part {n}: ")),
            "{text}"
        );
    }
    // A lone man or king against nothing: every position is won by its owner, or
    // lost by the side to move when it has nothing.
    assert!(
        text.contains("part 1: 60 wins, 0 draws, 60 losses, 8 impossible slots"),
        "{text}"
    );
    let one_king = text
        .lines()
        .find(|l| l.trim_start().starts_with("1K v 0 "))
        .unwrap();
    assert!(
        one_king.contains(" 32 wins ") && one_king.contains(" 0 losses"),
        "{one_king}"
    );
}

#[test]
fn tools_name_damaged_files() {
    let dir = copy_db3();
    let path = part_path(dir.path(), 2, FileKind::Values);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[HEADER_LEN + 100] ^= 1;
    std::fs::write(&path, bytes).unwrap();
    let d = dir.path().to_str().unwrap();
    // `verify` names it first and fails; `probe` answers what does not need it.
    let out = tool(&["verify", "--dir", d]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("damaged: ") && first.contains("part2.val") && first.contains("corrupt"),
        "{text}"
    );
    let out = tool(&["probe", "--dir", d, "--fen", "W:WKa1:BKh8,Kg7"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("part2.val") && err.contains("corrupt"),
        "{err}"
    );
    let out = tool(&["probe", "--dir", d, "--fen", "W:WKa1:BKh8"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("error ") && text.contains("part2.val"),
        "{text}"
    );
    // Beyond the largest supported size (7 pieces).
    let out = tool(&["build", "--pieces", "8", "--dir", d]);
    assert!(!out.status.success());
}

/// A wrong value with a valid checksum is caught by `verify`, not by the checksum.
#[test]
fn verify_finds_wrong_entries() {
    let dir = copy_db3();
    let path = part_path(dir.path(), 3, FileKind::Values);
    let bytes = std::fs::read(&path).unwrap();
    let mut body = bytes[HEADER_LEN..].to_vec();
    let (pos, _) = (0..body.len())
        .map(|i| (i, body[i] & 3))
        .find(|&(_, v)| v == 1)
        .unwrap();
    body[pos] = (body[pos] & !3) | 3; // a win stored as a loss
    let header = Header {
        version: FORMAT_VERSION,
        kind: FileKind::Values,
        pieces: 3,
        width: 1,
        entries: part_size(3),
        checksum: 0,
        max_distance: 25,
    };
    write_part_file(&path, header, &body).unwrap();
    let db = Egdb::open(Variant::Brazilian, dir.path()).unwrap();
    let r = verify(&db, 3);
    assert!(r.violations >= 1 && !r.first.is_empty(), "{r:?}");
    assert!(
        r.first
            .iter()
            .any(|v| v.contains("stored loss but successors give win")),
        "{:?}",
        r.first
    );
    let out = tool(&["verify", "--dir", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .starts_with("violation: part 3"));
}

/// Without databases anywhere, `probe` says how to build them (one line), and
/// `damas play` does not print it on stderr (its game shows it).
#[test]
fn missing_databases_give_a_build_hint() {
    let home = tempfile::tempdir().unwrap();
    let run = |bin: &str, args: &[&str]| {
        std::process::Command::new(bin)
            .args(args)
            .current_dir(home.path())
            .env("HOME", home.path())
            .env_remove("XDG_DATA_HOME")
            .env_remove("DAMAS_EGDB")
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    // `probe` answers from the built-in databases and says so, with the hint.
    let out = run(
        env!("CARGO_BIN_EXE_damas-egdb"),
        &["probe", "--fen", "W:WKa1:BKh8"],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with("loss best a1-b2"),
        "{out:?}"
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("built into the program") && err.contains("damas-egdb build --pieces 5"),
        "{err}"
    );
    // An explicit directory without databases is an error with the hint.
    let out = run(
        env!("CARGO_BIN_EXE_damas-egdb"),
        &["probe", "--dir", "nowhere", "--fen", "W:WKa1:BKh8"],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("damas-egdb build --pieces 5 --dir nowhere"),
        "{err}"
    );
    // The game shows the hint in its message line (unit-tested in `cli::play`), not on
    // stderr, where the game screen would hide it: without a terminal, stderr has only
    // the reason the game cannot start.
    let out = run(env!("CARGO_BIN_EXE_damas"), &["play"]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains("damas-egdb build"), "{err}");
    assert!(err.contains("interactive terminal"), "{err}");
}

/// `build` without `--dir` writes to `DAMAS_EGDB`, and `probe` then finds it there.
#[test]
fn build_and_probe_use_the_standard_location() {
    let home = tempfile::tempdir().unwrap();
    let db = home.path().join("db");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_damas-egdb"))
            .args(args)
            .current_dir(home.path())
            .env("HOME", home.path())
            .env("DAMAS_EGDB", &db)
            .output()
            .unwrap()
    };
    let out = run(&["build", "--pieces", "2", "--legacy", "--quiet"]);
    assert!(out.status.success(), "{out:?}");
    assert!(db.join("part2.val").exists() || std::fs::read_dir(&db).unwrap().count() > 0);
    let out = run(&["probe", "--fen", "W:WKa1:BKh8"]);
    assert!(out.status.success(), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with("loss 2 best a1-b2"),
        "{out:?}"
    );
}

#[test]
fn probe_lines_say_the_distance_is_to_conversion() {
    let (_, db) = db();
    // Two kings against one, far apart: a win in plies to the capture.
    let line = damas::cli::egdb::probe_line(db, "W:WKa1,Kc1:BKh8");
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words[0], "win", "{line}");
    assert!(words[1].parse::<u32>().unwrap() > 1, "{line}");
    assert_eq!(words[2..4], ["to-conversion", "best"], "{line}");
}

/// `damas-egdb build --variant russian` without `--dir` writes to the `russian/`
/// subfolder of `DAMAS_EGDB`, and `probe --variant russian` finds it there.
#[test]
fn the_tool_builds_and_probes_russian_in_its_subfolder() {
    let home = tempfile::tempdir().unwrap();
    let db = home.path().join("db");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_damas-egdb"))
            .args(args)
            .current_dir(home.path())
            .env("HOME", home.path())
            .env("DAMAS_EGDB", &db)
            .output()
            .unwrap()
    };
    let out = run(&["build", "--variant", "russian", "--pieces", "3", "--quiet"]);
    assert!(out.status.success(), "{out:?}");
    assert!(slice_path(&db.join("russian"), Slice::new(1, 0, 1, 0)).is_file());
    assert!(!slice_path(&db, Slice::new(1, 0, 1, 0)).exists());
    let out = run(&["probe", "--variant", "russian", "--fen", "W:Wb6:Bc7,Kf6"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "win best b6xh4\n");
    let out = run(&["verify", "--variant", "russian", "--quiet"]);
    assert!(out.status.success(), "{out:?}");
    // Brazilian databases are not there: the Brazilian probe answers from the
    // built-in ones and says how to build them.
    let out = run(&["probe", "--fen", "W:Wb6:Bc7,Kf6"]);
    assert!(out.status.success(), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("damas-egdb build"),
        "{out:?}"
    );
    let out = run(&["build", "--variant", "russian", "--legacy", "--pieces", "2"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}
