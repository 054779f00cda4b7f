//! Won database endings played out to the win: with win/draw/loss-only slices the
//! engine must still make progress (captures, promotions, cornering the lone king)
//! and win before a counting rule (`damas_rules::drawrules`) draws the game. Engine against
//! engine; the defender probes the same database and plays its best move.

use damas_rules::variant::Variant;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use damas_egdb::slices::build::build_slices;
use damas_egdb::slices::slice::{Slice, SliceIndex};
use damas_egdb::{build, BuildOptions, Egdb, Wdl};
use damas_engine::search::{Limits, SearchOptions, Searcher, Techniques};
use damas_rules::drawrules::LONG_DIAGONAL;
use damas_rules::game::Game;
use damas_rules::movegen::has_capture;
use damas_rules::{Color, Position};

/// Plies after which a game counts as not converted (every counting rule ends a
/// shuffling game well before).
const MAX_PLIES: usize = 200;

fn searcher(db: &Arc<Egdb>) -> Searcher {
    Searcher::new(
        SearchOptions::default()
            .with_techniques(Techniques {
                egdb: true,
                ..Techniques::engine()
            })
            .with_oracle(Some(db.clone()))
            .with_hash_mb(16),
    )
}

/// Play `start` out engine against engine; the result's winner. With `perfect`, a
/// database with distances, Black plays its moves instead (the slowest loss).
fn play_out(
    db: &Arc<Egdb>,
    start: Position,
    nodes: u64,
    perfect: Option<&Egdb>,
) -> (Option<Color>, String) {
    let mut sides = [searcher(db), searcher(db)];
    let mut game = Game::new(Variant::Brazilian, start);
    let stop = AtomicBool::new(false);
    for _ in 0..MAX_PLIES {
        if let Some(r) = game.result() {
            return (
                r.winner,
                format!("{:?} after {} plies", r.reason, game.moves().len()),
            );
        }
        let pos = game.position();
        let defence = perfect
            .filter(|_| pos.side_to_move() == Color::Black)
            .and_then(|p| p.probe(&pos)?.best);
        if let Some(mv) = defence {
            assert!(game.play(mv), "illegal database move {mv:?} in {pos:?}");
            continue;
        }
        let s = &mut sides[usize::from(pos.side_to_move() == Color::Black)];
        let r = s.search(
            &pos,
            game.history(),
            &Limits::nodes(nodes),
            &stop,
            &mut |_| {},
        );
        let mv = r.best.expect("a move");
        assert!(game.play(mv), "illegal move {mv:?} in {pos:?}");
    }
    (None, format!("no result after {MAX_PLIES} plies"))
}

/// `count` won positions (White to move, no capture) of `slice` that `keep`
/// accepts, spread evenly over those found at a stride through its numbering.
fn won_positions(
    db: &Egdb,
    slice: Slice,
    count: usize,
    keep: impl Fn(&Position) -> bool,
) -> Vec<Position> {
    let ix = SliceIndex::new(slice);
    let stride = (ix.size() / 997).max(1);
    let won: Vec<Position> = (0..ix.size())
        .step_by(stride as usize)
        .filter_map(|i| ix.unrank(i).map(|p| p.position()))
        .filter(|p| !has_capture(p) && keep(p) && db.probe_wdl(p) == Some(Wdl::Win))
        .collect();
    let step = (won.len() / count.max(1)).max(1);
    won.into_iter().step_by(step).take(count).collect()
}

/// Games that White should win, and those it did not.
#[derive(Default)]
struct Tally {
    played: usize,
    failures: Vec<String>,
}

impl Tally {
    fn record(&mut self, label: String, winner: Option<Color>, how: &str) {
        eprintln!("{label}: {how}");
        self.played += 1;
        if winner != Some(Color::White) {
            self.failures.push(format!("{label}: {how}"));
        }
    }

    fn assert_all_won(&self) {
        assert!(
            self.failures.is_empty(),
            "{} of {} not won:\n{}",
            self.failures.len(),
            self.played,
            self.failures.join("\n")
        );
    }
}

fn check_conversions(dir: &Path, cases: &[(Slice, usize)], nodes: u64) {
    let db = Arc::new(Egdb::open(Variant::Brazilian, dir).expect("open"));
    let n = db.max_pieces();
    assert!(
        db.has_distances(n - 1) || db.has_slice_distances(n),
        "distances are missing"
    );
    let off_diagonal = |p: &Position| (p.kings_of(Color::Black) & LONG_DIAGONAL).is_empty();
    let mut tally = Tally::default();
    for &(slice, count) in cases {
        let starts = won_positions(&db, slice, count, off_diagonal);
        assert_eq!(starts.len(), count, "{slice}: too few won positions");
        for start in starts {
            let (winner, how) = play_out(&db, start, nodes, None);
            tally.record(format!("{slice} {start:?}"), winner, &how);
        }
    }
    tally.assert_all_won();
}

/// The set-up `damas-egdb build --pieces 6 --distances 5` makes, in small:
/// win/draw/loss slices of up to four pieces, and parts with distances of up to
/// three. From a four-piece start with two defenders the search has only "won" to
/// go on and must capture one against a defender that searches too; the distances
/// then show the way to the end.
#[test]
fn won_four_piece_endings_are_played_to_the_win() {
    let dir = tempfile::tempdir().expect("temp dir");
    build_slices(
        Variant::Brazilian,
        dir.path(),
        4,
        &BuildOptions::default(),
        |_| {},
    )
    .expect("build");
    build(dir.path(), 3, &BuildOptions::default(), |_| {}).expect("distances");
    check_conversions(
        dir.path(),
        &[
            (Slice::new(0, 2, 1, 1), 4),
            (Slice::new(1, 1, 2, 0), 4),
            (Slice::new(0, 2, 2, 0), 4),
        ],
        20_000,
    );
}

/// The slowest wins a counting rule allows, found with the first-generation parts
/// (which store distances), are played out by the engine reading those parts against
/// their perfect defence (the slowest loss), and must be won before a rule draws.
/// Three kings against a lone king off the long diagonal must be won within 15 moves
/// each (30 plies); with a man on the board no count runs, so those starts are the
/// slowest wins of all.
#[test]
fn slowest_wins_within_the_counting_rules_are_played_to_the_win() {
    let legacy_dir = tempfile::tempdir().expect("temp dir");
    build(legacy_dir.path(), 4, &BuildOptions::default(), |_| {}).expect("legacy build");
    let legacy = Arc::new(Egdb::open(Variant::Brazilian, legacy_dir.path()).expect("open legacy"));
    let cases = [
        (Slice::new(0, 3, 0, 1), 4, 29u16),
        (Slice::new(1, 2, 0, 1), 3, u16::MAX),
        (Slice::new(2, 1, 0, 1), 3, u16::MAX),
        (Slice::new(1, 2, 1, 0), 2, u16::MAX),
    ];
    slowest_wins_played_to_the_win(&legacy, &legacy, &cases);
}

/// As above with slices and their distance files only (`build --dtc`): the engine
/// follows plies to conversion, the defence still plays the slowest loss of the
/// first generation. Plies to conversion are plies to the end once only kings are
/// left, and a man's promotion is no counting rule's concern, so three kings against
/// one and two kings and a man against a king or a man are won as with distances to
/// the end. Two men and a king against a king are not (all three starts were drawn
/// by the 5-move rule with the king on the long diagonal: the fastest promotions let
/// the defender reach it), which is why the six-piece set-up keeps the first
/// generation's distances for five pieces and fewer (`--dtc --distances 5`): six
/// pieces have no such rule.
#[test]
fn slowest_wins_are_played_to_the_win_with_slice_distances() {
    let legacy_dir = tempfile::tempdir().expect("temp dir");
    build(legacy_dir.path(), 4, &BuildOptions::default(), |_| {}).expect("legacy build");
    let legacy = Egdb::open(Variant::Brazilian, legacy_dir.path()).expect("open legacy");
    let dir = tempfile::tempdir().expect("temp dir");
    let dtc = BuildOptions {
        dtc: true,
        ..BuildOptions::default()
    };
    build_slices(Variant::Brazilian, dir.path(), 4, &dtc, |_| {}).expect("build");
    let slices = Arc::new(Egdb::open(Variant::Brazilian, dir.path()).expect("open slices"));
    assert!(slices.has_slice_distances(4) && !slices.has_legacy_part(4));
    let cases = [
        (Slice::new(0, 3, 0, 1), 4, 29u16),
        (Slice::new(1, 2, 0, 1), 3, u16::MAX),
        (Slice::new(1, 2, 1, 0), 2, u16::MAX),
    ];
    slowest_wins_played_to_the_win(&slices, &legacy, &cases);
}

/// The slowest wins of four pieces within the counting rules, played by an engine
/// reading `engine_db` against the slowest-loss defence of `legacy`: for each case
/// (slice, starts, longest distance to the end a counting rule allows).
fn slowest_wins_played_to_the_win(
    engine_db: &Arc<Egdb>,
    legacy: &Egdb,
    cases: &[(Slice, usize, u16)],
) {
    assert!(legacy.has_distances(4), "the parts must give distances");
    let off_diagonal = |p: &Position| (p.kings_of(Color::Black) & LONG_DIAGONAL).is_empty();
    let mut tally = Tally::default();
    for &(slice, count, limit) in cases {
        let ix = SliceIndex::new(slice);
        let mut won: Vec<(u16, Position)> = (0..ix.size())
            .filter_map(|i| ix.unrank(i).map(|p| p.position()))
            .filter(|p| !has_capture(p) && off_diagonal(p))
            .filter_map(|p| {
                let v = legacy.probe_value(&p)?;
                let d = v.distance?;
                (v.wdl == Wdl::Win && d <= limit).then_some((d, p))
            })
            .collect();
        won.sort_by_key(|&(d, _)| std::cmp::Reverse(d));
        assert!(won.len() >= count, "{slice}: too few won starts");
        for &(d, start) in won.iter().take(count) {
            let (winner, how) = play_out(engine_db, start, 20_000, Some(legacy));
            tally.record(format!("{slice} {start:?} (win in {d})"), winner, &how);
        }
    }
    tally.assert_all_won();
}

/// The six-piece database named by `DAMAS_EGDB6`; `None`, with a note, when it is
/// unset (the test is then skipped).
fn egdb6_dir() -> Option<String> {
    let dir = std::env::var("DAMAS_EGDB6").ok();
    if dir.is_none() {
        eprintln!("skipped: set DAMAS_EGDB6 to a six-piece database directory");
    }
    dir
}

/// On the six-piece database (`DAMAS_EGDB6`), built with
/// `damas-egdb build --pieces 6 --dtc` (distances to conversion for every slice)
/// or `--pieces 6 --distances 5` (distances to the end up to five pieces only).
#[test]
#[ignore]
fn won_five_and_six_piece_endings_are_played_to_the_win() {
    let Some(dir) = egdb6_dir() else { return };
    check_conversions(
        Path::new(&dir),
        &[
            (Slice::new(0, 4, 0, 1), 3),
            (Slice::new(0, 3, 0, 2), 3),
            (Slice::new(1, 3, 0, 2), 3),
            (Slice::new(2, 2, 1, 1), 3),
        ],
        50_000,
    );
}

/// The longest six-piece wins to conversion that the king-move rule cannot draw
/// by itself (under 30 plies: 15 king moves each), against the database's own
/// defence (the slowest conversion, then the slowest loss of the first generation),
/// on a database built with `damas-egdb build --pieces 6 --dtc --distances 5`
/// (`DAMAS_EGDB6`). Longer ones exist (98 plies in two men and
/// two kings against two kings), but the database knows no counting rule: where
/// every man move gives the win away they are draws under the rules.
#[test]
#[ignore]
fn the_longest_six_piece_wins_are_played_to_the_win() {
    use damas_egdb::slices::dtc::DtcFile;
    let Some(dir) = egdb6_dir() else { return };
    let db = Arc::new(Egdb::open(Variant::Brazilian, &dir).expect("open"));
    assert!(db.has_slice_distances(6), "build with --dtc");
    let mut tally = Tally::default();
    for (slice, count) in [
        (Slice::new(2, 2, 0, 2), 3),
        (Slice::new(1, 2, 2, 1), 3),
        (Slice::new(1, 3, 0, 2), 2),
        (Slice::new(3, 1, 1, 1), 2),
        (Slice::new(2, 2, 1, 1), 2),
    ] {
        let file = DtcFile::open(Variant::Brazilian, Path::new(&dir), slice)
            .expect("readable")
            .expect("distance file");
        let ix = SliceIndex::new(slice);
        // The longest wins first: scan the distances, check the value after.
        let mut by_distance: Vec<(u8, u64)> = (0..ix.size())
            .filter_map(|i| Some((file.get(i)?, i)))
            .filter(|&(d, _)| (20..30).contains(&d))
            .collect();
        by_distance.sort_by_key(|&(d, i)| (std::cmp::Reverse(d), i));
        let starts: Vec<(u8, Position)> = by_distance
            .into_iter()
            .filter_map(|(d, i)| Some((d, ix.unrank(i)?.position())))
            .filter(|(_, p)| !has_capture(p) && db.probe_wdl(p) == Some(Wdl::Win))
            .take(count)
            .collect();
        assert_eq!(starts.len(), count, "{slice}: too few long wins");
        for (d, start) in starts {
            let (winner, how) = play_out(&db, start, 50_000, Some(&db));
            tally.record(
                format!("{slice} {start:?} ({d} plies to conversion)"),
                winner,
                &how,
            );
        }
    }
    tally.assert_all_won();
}
