//! Russian endgame databases in play: `analyze` and the Hub open the databases of
//! the game's rules (a Russian win by crowning mid-capture that is a Brazilian
//! draw), and a search never consults databases of the other rules.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, OnceLock};

use damas::hub::{position_string, MoveNumbering};
use damas_egdb::oracle::Oracle;
use damas_egdb::slices::build::build_slices;
use damas_egdb::{BuildOptions, Egdb};
use damas_engine::search::{Limits, SearchOptions, Searcher};
use damas_rules::notation::parse_move;
use damas_rules::{parse_fen, Variant};

const BIN: &str = env!("CARGO_BIN_EXE_damas");
/// White wins under Russian rules by `b6xh4` (crowned on d8, the capture goes on
/// as a king); under Brazilian rules the man stops on d8 and it is a draw.
const CROWNING: &str = "W:Wb6:Bc7,Kf6";

/// `base` holds Brazilian slices of 1–3 pieces, `base/russian` Russian ones of 1–4.
fn dirs() -> &'static (tempfile::TempDir, std::path::PathBuf) {
    static DIRS: OnceLock<(tempfile::TempDir, std::path::PathBuf)> = OnceLock::new();
    DIRS.get_or_init(|| {
        let base = tempfile::tempdir().unwrap();
        let opts = BuildOptions {
            threads: 1,
            ..BuildOptions::default()
        };
        build_slices(Variant::Brazilian, base.path(), 3, &opts, |_| {}).unwrap();
        let ru = base.path().join("russian");
        build_slices(Variant::Russian, &ru, 4, &opts, |_| {}).unwrap();
        (base, ru)
    })
}

fn brazilian_dir() -> &'static Path {
    dirs().0.path()
}

fn russian_dir() -> &'static Path {
    &dirs().1
}

fn analyze(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(["analyze", "--fen", CROWNING, "--depth", "4"])
        .args(args)
        .env_remove("DAMAS_EGDB")
        .output()
        .expect("run damas")
}

fn last_line(o: &Output) -> String {
    let out = String::from_utf8_lossy(&o.stdout);
    out.lines().last().unwrap_or_default().to_string()
}

#[test]
fn analyze_reads_the_databases_of_the_games_rules() {
    let ru = russian_dir().to_str().unwrap();
    let base = brazilian_dir().to_str().unwrap();
    // The Russian folder itself, or the base holding it in `russian/`.
    for dir in [ru, base] {
        let o = analyze(&["--variant", "russian", "--egdb", dir]);
        assert!(o.status.success(), "{o:?}");
        assert!(
            last_line(&o).starts_with("bestmove b6xh4 score win "),
            "{dir}: {o:?}"
        );
        // Answered by the root's database probe (depth 0, one node).
        let first = String::from_utf8_lossy(&o.stdout)
            .lines()
            .next()
            .map(str::to_string);
        assert!(
            first.is_some_and(|l| l.starts_with("info depth 0 score win nodes 1 ")),
            "{dir}: {o:?}"
        );
    }
    // The Brazilian database says draw.
    let o = analyze(&["--egdb", base]);
    assert!(o.status.success(), "{o:?}");
    assert!(
        last_line(&o).starts_with("bestmove b6xd8 score 0 nodes 1"),
        "{o:?}"
    );
}

#[test]
fn a_directory_of_the_other_rules_is_refused_naming_a_file() {
    let only_brazilian = tempfile::tempdir().unwrap();
    build_slices(
        Variant::Brazilian,
        only_brazilian.path(),
        2,
        &BuildOptions::default(),
        |_| {},
    )
    .unwrap();
    for (variant, dir, found) in [
        ("russian", only_brazilian.path(), "a brazilian endgame file"),
        ("brazilian", russian_dir(), "a russian endgame file"),
    ] {
        let o = analyze(&["--variant", variant, "--egdb", dir.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{o:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(".wdl") && err.contains(found), "{err}");
        assert!(o.stdout.is_empty(), "{o:?}");
    }
}

/// The Hub's answer (`info` and `done` lines) to a search of `CROWNING` after `setup`.
fn hub_search(setup: &[String]) -> Vec<String> {
    hub_search_in(setup, None)
}

/// [`hub_search`] with `DAMAS_EGDB` set to `standard` (else unset).
fn hub_search_in(setup: &[String], standard: Option<&Path>) -> Vec<String> {
    let mut command = Command::new(BIN);
    match standard {
        Some(dir) => command.env("DAMAS_EGDB", dir),
        None => command.env_remove("DAMAS_EGDB"),
    };
    let mut child = command
        .arg("hub")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("damas hub starts");
    let mut stdin = child.stdin.take().unwrap();
    let pos = parse_fen(CROWNING).unwrap();
    for l in setup.iter().map(String::as_str).chain([
        "init",
        &format!("pos pos={}", position_string(&pos)),
        "level depth=4",
        "go think",
    ]) {
        writeln!(stdin, "{l}").unwrap();
    }
    let mut lines = Vec::new();
    for l in BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map_while(Result::ok)
    {
        let done = l.starts_with("done");
        lines.push(l);
        if done {
            break;
        }
    }
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    child.wait().unwrap();
    lines
}

/// The databases' verdicts rather than play on the evaluation: a won root is then
/// answered by the database's move.
const VERDICT: &str = "set-param name=egdb-wins value=verdict";

/// Whether the Hub's search was answered by a database probe of its root.
fn answered_by_database(out: &[String]) -> bool {
    out.iter()
        .any(|l| l.starts_with("info depth=0 ") && l.contains(" nodes=1 "))
}

#[test]
fn the_hub_answers_with_the_russian_databases_verdict() {
    let ru = russian_dir().display().to_string();
    let out = hub_search(&[
        "hub".into(),
        "set-param name=variant value=russian".into(),
        format!("set-param name=egdb-dir value=\"{ru}\""),
        VERDICT.into(),
    ]);
    let done = out.last().unwrap();
    let pos = parse_fen(CROWNING).unwrap();
    let mv = parse_move(Variant::Russian, &pos, "b6xh4").unwrap();
    let expected = MoveNumbering::default().format(Variant::Russian, &pos, mv);
    assert_eq!(done, &format!("done move={expected}"), "{out:?}");
    // The database's win is a proven win (near 100), not the Brazilian draw.
    let score = out
        .iter()
        .rev()
        .find_map(|l| l.split_whitespace().find_map(|w| w.strip_prefix("score=")))
        .and_then(|s| s.parse::<f64>().ok())
        .unwrap_or_else(|| panic!("a score: {out:?}"));
    assert!(score >= 90.0, "{out:?}");
    // Answered at the root from the database, not found by the search.
    assert!(answered_by_database(&out), "{out:?}");
    // Set before the variant, the base directory is reopened for Russian rules.
    let base = brazilian_dir().display().to_string();
    let out2 = hub_search(&[
        "hub".into(),
        format!("set-param name=egdb-dir value=\"{base}\""),
        "set-param name=variant value=russian".into(),
        VERDICT.into(),
    ]);
    assert!(!out2.iter().any(|l| l.starts_with("error")), "{out2:?}");
    assert_eq!(out2.last(), Some(done), "{out2:?}");
    assert!(answered_by_database(&out2), "{out2:?}");
}

/// A standard place holding only Russian databases (in its `russian/` subfolder):
/// the Hub finds it at start-up and uses it once the GUI asks for Russian rules.
#[test]
fn the_hub_finds_russian_databases_at_the_standard_place() {
    let base = tempfile::tempdir().unwrap();
    let opts = BuildOptions {
        threads: 1,
        ..BuildOptions::default()
    };
    build_slices(
        Variant::Russian,
        &base.path().join("russian"),
        3,
        &opts,
        |_| {},
    )
    .unwrap();
    let out = hub_search_in(
        &[
            "hub".into(),
            "set-param name=variant value=russian".into(),
            VERDICT.into(),
        ],
        Some(base.path()),
    );
    assert!(!out.iter().any(|l| l.starts_with("error")), "{out:?}");
    assert!(answered_by_database(&out), "{out:?}");
    // Brazilian rules find no databases there and search as usual.
    let out = hub_search_in(&["hub".into()], Some(base.path()));
    assert!(!answered_by_database(&out), "{out:?}");
}

#[test]
fn brazilian_files_are_never_consulted_under_russian_rules() {
    // The Hub: a directory of only Brazilian files is dropped with a note.
    let dir = crate::slices::brazilian(3);
    let out = hub_search(&[
        "hub".into(),
        format!("set-param name=egdb-dir value=\"{}\"", dir.display()),
        "set-param name=variant value=russian".into(),
    ]);
    assert!(
        out.iter()
            .any(|l| l.starts_with("error") && l.contains("no russian endgame databases")),
        "{out:?}"
    );
    // The library: the search drops an oracle of other rules.
    let brazilian: Arc<dyn Oracle> = Arc::new(Egdb::open(Variant::Brazilian, dir).unwrap());
    assert_eq!(brazilian.variant(), Variant::Brazilian);
    let options = SearchOptions::default()
        .with_variant(Variant::Russian)
        .with_database(Some(brazilian.clone()));
    assert!(options.oracle().is_none());
    let russian: Arc<dyn Oracle> = Arc::new(Egdb::open(Variant::Russian, russian_dir()).unwrap());
    assert_eq!(russian.variant(), Variant::Russian);
    let options = SearchOptions::default()
        .with_variant(Variant::Russian)
        .with_database(Some(russian));
    assert!(options.oracle().is_some());
    // A Russian search given the Brazilian files proves no draw it would not prove alone.
    let pos = parse_fen(CROWNING).unwrap();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut s = Searcher::new(SearchOptions::default().with_variant(Variant::Russian));
    let alone = s.search(&pos, &[], &Limits::depth(6), &stop, &mut |_| {});
    let mut s = Searcher::new(
        SearchOptions::default()
            .with_variant(Variant::Russian)
            .with_database(Some(brazilian)),
    );
    let given = s.search(&pos, &[], &Limits::depth(6), &stop, &mut |_| {});
    assert_eq!((given.best, given.score), (alone.best, alone.score));
}
