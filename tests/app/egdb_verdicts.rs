//! What the engine says and does in a won database ending: a win without a stored
//! distance is reported without a count, a distance file's count is shown, the
//! distances solved on demand equal the files', and the win is converted over the
//! board before a counting rule draws it, with distance files or without.

use damas_rules::variant::Variant;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use damas::egdb_playout::{play_out, play_out_with};
use damas_egdb::oracle::{Oracle, OracleValue};
use damas_egdb::slices::build::build_slices;
use damas_egdb::slices::slice::{Slice, SliceIndex};
use damas_egdb::{BuildOptions, Egdb};
use damas_engine::search::{Limits, SearchOptions, Searcher, WinPolicy};
use damas_rules::fen::parse_fen;
use damas_rules::position::Color;

/// The position: three kings against one, off the long diagonal.
const THREE_KINGS: &str = "W:WKc1,Ke1,Kg1:BKb8";

/// Slices of 1–4 pieces with distance files, and a directory of the same slices
/// without them (win/draw/loss only), built once.
fn dirs() -> &'static (tempfile::TempDir, tempfile::TempDir) {
    static DIRS: OnceLock<(tempfile::TempDir, tempfile::TempDir)> = OnceLock::new();
    DIRS.get_or_init(|| {
        let dtc = tempfile::tempdir().unwrap();
        let opts = BuildOptions {
            dtc: true,
            ..BuildOptions::default()
        };
        build_slices(Variant::Brazilian, dtc.path(), 4, &opts, |_| {}).unwrap();
        let wdl = tempfile::tempdir().unwrap();
        for entry in std::fs::read_dir(dtc.path()).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "wdl") {
                std::fs::copy(&path, wdl.path().join(path.file_name().unwrap())).unwrap();
            }
        }
        (dtc, wdl)
    })
}

fn open(distances: bool) -> Arc<dyn Oracle> {
    let (dtc, wdl) = dirs();
    let dir = if distances { dtc.path() } else { wdl.path() };
    Arc::new(Egdb::open(Variant::Brazilian, dir).unwrap())
}

/// The win/draw/loss-only slices, solving no distances on demand.
fn open_values_only() -> Arc<dyn Oracle> {
    let mut db = Egdb::open(Variant::Brazilian, dirs().1.path()).unwrap();
    db.set_on_demand_pieces(0);
    Arc::new(db)
}

fn root_score(db: Arc<dyn Oracle>, fen: &str) -> damas_engine::score::Score {
    let r = root_search(Some(db), fen, 6);
    assert!(r.best.is_some());
    r.score
}

/// A search of `fen` to `depth` with `db` (or none), on a small table.
fn root_search(
    db: Option<Arc<dyn Oracle>>,
    fen: &str,
    depth: u32,
) -> damas_engine::search::SearchResult {
    let mut s = Searcher::new(SearchOptions::default().with_hash_mb(4).with_database(db));
    let pos = parse_fen(fen).unwrap();
    s.search(
        &pos,
        &[],
        &Limits::depth(depth),
        &AtomicBool::new(false),
        &mut |_| {},
    )
}

#[test]
fn a_database_win_without_distances_is_reported_without_a_count() {
    let score = root_score(open_values_only(), THREE_KINGS);
    assert!(score.is_win(), "{score}");
    assert_eq!(score.plies(), None, "an invented distance: {score:?}");
    assert_eq!(score.to_string(), "win");
}

#[test]
fn a_distance_file_gives_the_count_and_so_do_distances_solved_on_demand() {
    let score = root_score(open(true), THREE_KINGS);
    let plies = score.plies().expect("a counted win");
    // The database's 15 plies to the capture of the lone king, or more where the
    // draw rules (repetition) cut its shortest lines, within the 30-ply count.
    assert!((15..30).contains(&plies), "{score}");
    assert_eq!(score.to_string(), format!("win {plies}"));
    assert_eq!(root_score(open(false), THREE_KINGS), score);
}

#[test]
fn distances_solved_on_demand_equal_the_distance_files() {
    let (dtc, wdl) = dirs();
    let files = Egdb::open(Variant::Brazilian, dtc.path()).unwrap();
    let values = Egdb::open(Variant::Brazilian, wdl.path()).unwrap();
    // Three kings against one; two kings and a man against a king (promotions
    // among the exits); a man and a king each (captures both ways).
    for (fen, slices) in [
        (
            THREE_KINGS,
            [Slice::new(0, 3, 0, 1), Slice::new(0, 1, 0, 3)],
        ),
        (
            "W:WKh2,Kf2,a3:BKd8",
            [Slice::new(1, 2, 0, 1), Slice::new(0, 1, 1, 2)],
        ),
        (
            "W:WKa1,c3:Bf6,Kh8",
            [Slice::new(1, 1, 1, 1), Slice::new(1, 1, 1, 1)],
        ),
    ] {
        let pos = parse_fen(fen).unwrap();
        assert!(!values.on_demand_distances().has(slices[0]), "{fen}");
        assert_eq!(values.probe_value(&pos).unwrap().distance, None, "{fen}");
        assert!(values.solve_distances(&pos).unwrap(), "{fen}");
        let mut counted = 0;
        for s in slices {
            assert!(values.on_demand_distances().has(s), "{s}");
            let ix = SliceIndex::new(s);
            for i in 0..ix.size() {
                let p = ix.unrank(i).unwrap().position();
                let want = files.probe_value(&p).unwrap();
                let got = values.probe_value(&p).unwrap();
                assert_eq!(got, want, "{s} #{i}");
                counted += usize::from(got.distance.is_some_and(|d| d > 0));
            }
        }
        assert!(counted > 1_000, "{fen}: {counted}");
    }
    // Draws solve nothing, nor slices of more pieces than the limit.
    let kings = SliceIndex::new(Slice::new(0, 1, 0, 1));
    let draw = (0..kings.size())
        .map(|i| kings.unrank(i).unwrap().position())
        .find(|p| values.probe_wdl(p) == Some(damas_egdb::Wdl::Draw))
        .unwrap();
    assert!(!values.solve_distances(&draw).unwrap());
    assert!(!values.on_demand_distances().has(Slice::new(0, 1, 0, 1)));
    let mut limited = Egdb::open(Variant::Brazilian, wdl.path()).unwrap();
    limited.set_on_demand_pieces(3);
    let pos = parse_fen(THREE_KINGS).unwrap();
    assert!(!limited.solve_distances(&pos).unwrap());
    assert_eq!(limited.probe_value(&pos).unwrap().distance, None);
}

/// Three kings against one, two kings and a man against a king, three against two.
const WON_ENDINGS: [&str; 4] = [
    THREE_KINGS,
    "W:WKa3,Kb2,Kc1:BKh4",
    "W:WKh2,Kf2,a3:BKd8",
    "W:WKb2,Kd2,Kf2:Bb8,Kd8",
];

/// Play `fen` out with `db` at a fixed node budget and check White wins it.
fn assert_won(db: &Arc<dyn Oracle>, fen: &str) {
    let pos = parse_fen(fen).unwrap();
    let p = play_out(db, pos, &Limits::nodes(20_000), 4, 200);
    assert!(
        p.won_by(Color::White) && !p.drawn_by_count(),
        "{fen}: {:?} after {} plies",
        p.result,
        p.plies
    );
}

#[test]
fn won_endings_with_distance_files_are_won_before_the_counting_rules() {
    for fen in WON_ENDINGS {
        assert_won(&open(true), fen);
    }
}

#[test]
fn won_endings_without_distance_files_are_won_by_distances_solved_on_demand() {
    for fen in WON_ENDINGS {
        let db = Arc::new(Egdb::open(Variant::Brazilian, dirs().1.path()).unwrap());
        let oracle: Arc<dyn Oracle> = db.clone();
        assert_won(&oracle, fen);
        assert!(db.on_demand_distances().bytes() > 0, "{fen}");
    }
}

/// Search `fen` with `db` at a small node budget: the result and whether every
/// progress report said the conversion is unproven.
fn unproven(db: Arc<dyn Oracle>, fen: &str) -> (bool, bool) {
    let mut s = Searcher::new(
        SearchOptions::default()
            .with_hash_mb(4)
            .with_database(Some(db)),
    );
    let pos = parse_fen(fen).unwrap();
    let mut reports = Vec::new();
    let r = s.search(
        &pos,
        &[],
        &Limits::nodes(4_000),
        &AtomicBool::new(false),
        &mut |i| reports.push(i.conversion_unproven),
    );
    assert!(r.score.is_win(), "{fen}: {}", r.score);
    assert!(!reports.is_empty());
    (
        r.conversion_unproven,
        reports.iter().all(|&u| u == r.conversion_unproven),
    )
}

#[test]
fn a_win_without_a_conversion_found_says_so() {
    // Slices only, no distances solved: the three kings' conversion is too long
    // for the root's search; with their distances solved on demand, as with the
    // distance files.
    assert_eq!(unproven(open_values_only(), THREE_KINGS), (true, true));
    assert_eq!(
        unproven(open(false), THREE_KINGS),
        unproven(open(true), THREE_KINGS)
    );
    // One of the kings on the long diagonal: the conversion is found at once.
    assert_eq!(unproven(open(false), "W:WKa1,Kc1,Ke1:BKh8"), (false, true));
}

/// With win/draw/loss values only, a won root keeps the win at every depth: a
/// position the database draws scores as a draw below it, not by the evaluation
/// (which preferred `a3-b4`, into a drawn ending, to the lines keeping the win).
#[test]
fn a_won_root_without_distances_never_moves_into_a_database_draw() {
    let db = open_values_only();
    let pos = parse_fen("W:WKg1,a3,c3:BKh6").unwrap();
    for depth in 6..=12 {
        let mut s = Searcher::new(
            SearchOptions::default()
                .with_hash_mb(4)
                .with_database(Some(db.clone())),
        );
        let stop = AtomicBool::new(false);
        let r = s.search(&pos, &[], &Limits::depth(depth), &stop, &mut |_| {});
        let mv = r.best.unwrap();
        let after = db.probe_value(&pos.play(mv)).unwrap().value;
        assert_eq!(
            after,
            OracleValue::Loss,
            "depth {depth}: {mv:?} {}",
            r.score
        );
    }
}

#[test]
fn analyze_prints_the_unproven_conversion_note() {
    let analyze = |fen: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_damas"))
            .args(["analyze", "--nodes", "4000", "--fen", fen, "--egdb"])
            .arg(dirs().1.path())
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let note = "note: database win; conversion within the counting rules not proven";
    let text = analyze(THREE_KINGS);
    assert!(text.lines().any(|l| l == note), "{text}");
    let text = analyze("W:WKa1,Kc1,Ke1:BKh8");
    assert!(!text.contains("note:"), "{text}");
}

#[test]
fn a_timed_search_solves_distances_in_the_background_and_uses_them_later() {
    let (_, wdl) = dirs();
    let db = Arc::new(Egdb::open(Variant::Brazilian, wdl.path()).unwrap());
    let pos = parse_fen(THREE_KINGS).unwrap();
    let slice = Slice::new(0, 3, 0, 1);
    // A timed root never waits: the search answers whatever the solve's progress.
    let oracle: Arc<dyn Oracle> = db.clone();
    let mut s = Searcher::new(
        SearchOptions::default()
            .with_hash_mb(4)
            .with_database(Some(oracle)),
    );
    let limits = Limits::time(Duration::from_millis(50));
    let r = s.search(&pos, &[], &limits, &AtomicBool::new(false), &mut |_| {});
    assert!(r.best.is_some());
    // The solve started by that root finishes on its own thread.
    let mut waited = 0;
    while !db.on_demand_distances().has(slice) && waited < 600 {
        std::thread::sleep(Duration::from_millis(100));
        waited += 1;
    }
    assert!(db.on_demand_distances().has(slice));
    assert!(db
        .probe_value(&pos)
        .unwrap()
        .distance
        .is_some_and(|d| d > 0));
}

/// Whether the side to move at `pos` still has all its pieces after `mv` and every
/// reply.
fn keeps_its_pieces(pos: &damas_rules::position::Position, mv: damas_rules::moves::Move) -> bool {
    let me = pos.side_to_move();
    let after = pos.play(mv);
    damas_rules::movegen::legal_moves(Variant::Brazilian, &after)
        .iter()
        .all(|&r| after.play(r).pieces(me).count() == pos.pieces(me).count())
}

/// The move a search of `fen` at a fixed node budget plays under `policy`.
fn chosen(db: &Arc<dyn Oracle>, fen: &str, policy: WinPolicy) -> damas_rules::moves::Move {
    let mut s = Searcher::new(
        SearchOptions::default()
            .with_hash_mb(4)
            .with_win_policy(policy)
            .with_database(Some(db.clone())),
    );
    let pos = parse_fen(fen).unwrap();
    let stop = AtomicBool::new(false);
    s.search(&pos, &[], &Limits::nodes(20_000), &stop, &mut |_| {})
        .best
        .unwrap()
}

/// A won ending outside the counting rules' material (three pieces against a lone
/// man): the database's fastest conversion gives a man away, which leads towards
/// three pieces against a lone king, an ending the count may draw; played on the
/// evaluation the winner keeps every piece, and the game stays won.
#[test]
fn a_won_ending_played_on_the_evaluation_keeps_the_winners_material() {
    const FEN: &str = "B:Wb4:BKg1,d4,b8";
    let db = open(false);
    let pos = parse_fen(FEN).unwrap();
    let verdict = chosen(&db, FEN, WinPolicy::Verdict);
    assert!(!keeps_its_pieces(&pos, verdict), "{verdict:?}");
    let play = chosen(&db, FEN, WinPolicy::Play);
    assert!(keeps_its_pieces(&pos, play), "{play:?}");
    let after = db.probe_value(&pos.play(play)).unwrap().value;
    assert_eq!(after, OracleValue::Loss, "{play:?} keeps the win");
    // Played out, the ending is won under the counting rules.
    let p = play_out_with(&db, pos, &Limits::nodes(20_000), 4, 200, WinPolicy::Play);
    assert!(
        p.won_by(Color::Black) && !p.drawn_by_count(),
        "{:?}",
        p.result
    );
    // The endings the counting rules cover are still converted in time.
    for fen in WON_ENDINGS {
        let start = parse_fen(fen).unwrap();
        let p = play_out_with(&db, start, &Limits::nodes(20_000), 4, 200, WinPolicy::Play);
        assert!(
            p.won_by(Color::White) && !p.drawn_by_count(),
            "{fen}: {:?}",
            p.result
        );
    }
}

/// The built-in 1-4-piece databases are consulted only from a root they cover:
/// from five pieces the search is node for node the one without them, from four
/// it knows the result.
#[test]
fn the_built_in_databases_act_from_roots_they_cover_only() {
    let built_in = Egdb::built_in(damas_rules::Variant::Brazilian).unwrap();
    assert!(built_in.is_built_in() && built_in.root_only());
    let db: Arc<dyn Oracle> = Arc::new(built_in);
    let search = |fen: &str, with: bool| {
        let r = root_search(with.then(|| db.clone()), fen, 9);
        (r.best, r.score, r.stats.nodes)
    };
    // Five pieces: every move leads into the databases, which change nothing.
    let five = "B:WKa7,Kb8,Kd8,Kf6:BKe5";
    assert_eq!(search(five, true), search(five, false));
    // Four: three kings against a lone king off the long diagonal, a proven win.
    let (_, score, _) = search("W:WKa1,Kc1,Ke1:BKb8", true);
    assert!(score.is_win(), "{score:?}");
    let (_, score, _) = search("W:WKa1,Kc1,Ke1:BKb8", false);
    assert!(!score.is_win(), "{score:?}");
}
