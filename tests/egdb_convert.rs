//! Won database endings played out to the win: with win/draw/loss-only slices the
//! engine must still make progress (captures, promotions, cornering the lone king)
//! and win before a counting rule (src/drawrules.rs) draws the game. Engine against
//! engine; the defender probes the same database and plays its best move.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use damas::drawrules::LONG_DIAGONAL;
use damas::egdb::slice::{Slice, SliceIndex};
use damas::egdb::slice_build::build_slices;
use damas::egdb::{BuildOptions, Egdb, Wdl};
use damas::game::Game;
use damas::movegen::has_capture;
use damas::search::{Limits, SearchOptions, Searcher, Techniques};
use damas::{Color, Position};

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

/// Play `start` out engine against engine; the result's winner.
fn play_out(db: &Arc<Egdb>, start: Position, nodes: u64) -> (Option<Color>, String) {
    let mut sides = [searcher(db), searcher(db)];
    let mut game = Game::new(start);
    let stop = AtomicBool::new(false);
    for _ in 0..MAX_PLIES {
        if let Some(r) = game.result() {
            return (
                r.winner,
                format!("{:?} after {} plies", r.reason, game.moves().len()),
            );
        }
        let pos = game.position();
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

fn check_conversions(dir: &Path, cases: &[(Slice, usize)], nodes: u64) {
    let db = Arc::new(Egdb::open(dir).expect("open"));
    let off_diagonal = |p: &Position| (p.kings_of(Color::Black) & LONG_DIAGONAL).is_empty();
    let mut failures = Vec::new();
    let mut played = 0;
    for &(slice, count) in cases {
        let starts = won_positions(&db, slice, count, off_diagonal);
        assert_eq!(starts.len(), count, "{slice}: too few won positions");
        for start in starts {
            played += 1;
            let (winner, how) = play_out(&db, start, nodes);
            eprintln!("{slice}: {start:?}: {how}");
            if winner != Some(Color::White) {
                failures.push(format!("{slice} {start:?}: {how}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {played} not won:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn won_three_and_four_piece_endings_are_played_to_the_win() {
    let dir = tempfile::tempdir().expect("temp dir");
    build_slices(dir.path(), 4, &BuildOptions::default(), |_| {}).expect("build");
    check_conversions(
        dir.path(),
        &[
            (Slice::new(0, 2, 0, 1), 2),
            (Slice::new(0, 3, 0, 1), 3),
            (Slice::new(1, 2, 0, 1), 3),
            (Slice::new(2, 1, 0, 1), 2),
            (Slice::new(1, 2, 1, 0), 2),
        ],
        20_000,
    );
}

/// On the six-piece database (`DAMAS_EGDB6`, default /work/egdb6).
#[test]
#[ignore]
fn won_five_and_six_piece_endings_are_played_to_the_win() {
    let dir = std::env::var("DAMAS_EGDB6").unwrap_or_else(|_| "/work/egdb6".into());
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
