//! The endgame database as the search's oracle: exact values below the root, its best
//! move at the root.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use damas_engine::eval::Evaluation;
use damas_engine::search::{
    DrawPolicy, Limits, Oracle, OracleAnswer, OracleValue, SearchOptions, SearchResult, Searcher,
    Techniques,
};
use damas_engine::Score;
use damas_rules::fen::parse_fen;
use damas_rules::movegen::legal_moves;
use damas_rules::Position;

/// The search's options of the engine crate's search tests: the thesis' material count
/// with the techniques given.
fn options(t: Techniques) -> SearchOptions {
    SearchOptions::default()
        .with_eval(Evaluation::Material)
        .with_aspiration(damas_engine::search::THESIS_ASPIRATION_DELTA)
        .with_techniques(t)
        .with_thesis_table(16)
}

fn search_with(
    opts: SearchOptions,
    pos: &Position,
    history: &[Position],
    limits: Limits,
) -> SearchResult {
    let stop = AtomicBool::new(false);
    Searcher::new(opts).search(pos, history, &limits, &stop, &mut |_| {})
}

fn oracle_score(a: &OracleAnswer, ply: u32) -> Score {
    match a.value {
        OracleValue::Win => Score::win_in(ply + a.plies.expect("distance")),
        OracleValue::Loss => Score::loss_in(ply + a.plies.expect("distance")),
        OracleValue::Draw => Score::DRAW,
    }
}

#[test]
fn the_endgame_database_is_an_oracle() {
    let dir = tempfile::tempdir().expect("temp dir");
    damas_egdb::build(dir.path(), 3, &damas_egdb::BuildOptions::default(), |_| {}).expect("build");
    let db: Arc<dyn Oracle> = Arc::new(damas_egdb::Egdb::open(dir.path()).expect("open"));
    assert_eq!(db.max_pieces(), 3);
    let t: Techniques = "pvs,id,asp,tt,qs,egdb".parse().expect("techniques");
    // Four pieces, every move a capture into the database: the value is exact.
    let pos = parse_fen("W:Wd4,Kg1:Bc5,Kh8").expect("fen");
    let moves = legal_moves(&pos);
    assert!(moves.iter().all(|m| m.is_capture()));
    let want = moves
        .iter()
        .map(|&m| -oracle_score(&db.probe(&pos.play(m)).expect("covered"), 1))
        .max()
        .expect("moves");
    let opts = options(t)
        .with_oracle(Some(db.clone()))
        .with_draw_policy(DrawPolicy::Score);
    let r = search_with(opts, &pos, &[], Limits::depth(5));
    assert_eq!(r.score, want);
    assert!(r.stats.egdb_cutoffs > 0);
    // At the root of a database position its best move is played.
    let root = parse_fen("W:WKa1,c3:Bh6").expect("fen");
    let answer = db.probe(&root).expect("covered");
    let opts = options(t).with_oracle(Some(db.clone()));
    let r = search_with(opts, &root, &[], Limits::depth(9));
    assert_eq!(r.best, answer.best);
    assert_eq!(r.score, oracle_score(&answer, 0));
}
