//! Search correctness: every technique combination against a plain minimax, the
//! transposition table, tactics, repetition, time limits and the oracle path.

use damas_rules::variant::Variant;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use damas_engine::eval::{Evaluation, Evaluator, Trained};

/// The library's default options with the thesis' material count, which the
/// reference minimax below uses too.
fn material_options() -> SearchOptions {
    SearchOptions::default()
        .with_eval(Evaluation::Material)
        .with_aspiration(damas_engine::search::THESIS_ASPIRATION_DELTA)
}
use damas_egdb::oracle::{Oracle, OracleAnswer, OracleValue};
use damas_engine::search::{DrawPolicy, Limits, SearchOptions, SearchResult, Searcher, Techniques};
use damas_engine::Score;
use damas_rules::fen::parse_fen;
use damas_rules::movegen::legal_moves;
use damas_rules::notation::{move_to_string, Notation};
use damas_rules::{Bitboard, Color, Move, Position};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

// ---------------------------------------------------------------- reference minimax

use crate::reference::minimax;

fn reference(pos: &Position, history: &[Position], depth: u32, qs: bool) -> Score {
    minimax(pos, depth, 0, qs, false, &mut history.to_vec())
}

// ---------------------------------------------------------------- helpers

/// `count` positions reached by 6..=40 uniformly random moves from the start (the
/// thesis' sampling), each with a legal move, with the game so far as history.
fn random_positions(count: usize, seed: u64) -> Vec<(Position, Vec<Position>)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let k = rng.gen_range(6..=40);
        let mut pos = Position::start();
        let mut history = Vec::new();
        for _ in 0..k {
            let moves = legal_moves(Variant::Brazilian, &pos);
            if moves.is_empty() {
                break;
            }
            history.push(pos);
            pos = pos.play(moves[rng.gen_range(0..moves.len())]);
        }
        if !legal_moves(Variant::Brazilian, &pos).is_empty() {
            out.push((pos, history));
        }
    }
    out
}

fn options(t: Techniques) -> SearchOptions {
    material_options().with_techniques(t).with_thesis_table(16)
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

/// Every combination of the switches named, on top of `base`.
fn combinations(base: Techniques, names: &[&str]) -> Vec<Techniques> {
    (0..1u32 << names.len())
        .map(|bits| {
            let mut t = base;
            for (i, n) in names.iter().enumerate() {
                if bits >> i & 1 == 1 {
                    let extra: Techniques = n.parse().expect("technique");
                    t = merge(t, extra);
                }
            }
            t
        })
        .collect()
}

/// The techniques of `a` and `b` together (through their names, so that every
/// flag takes part).
fn merge(a: Techniques, b: Techniques) -> Techniques {
    format!("{a}+{b}").parse().expect("techniques")
}

/// Searches of `count` random positions (seed `seed`) with `opts`, at depths from
/// `min_depth` to `min_depth + 3`: each plays a legal move with a finite score, and
/// its node counts add up.
fn assert_sane_on_random_positions(opts: &SearchOptions, count: usize, seed: u64, min_depth: u32) {
    for (i, (pos, history)) in random_positions(count, seed).iter().enumerate() {
        let r = search_with(
            opts.clone(),
            pos,
            history,
            Limits::depth(min_depth + i as u32 % 4),
        );
        assert!(legal_moves(Variant::Brazilian, pos).contains(&r.best.expect("a move")));
        assert!(r.score.0.abs() < Score::INFINITE.0);
        check_stats(&r);
    }
}

fn check_stats(r: &SearchResult) {
    let s = r.stats;
    assert_eq!(
        s.nodes,
        s.interior + s.leaves + s.tt_cutoffs + s.terminal + s.egdb_cutoffs,
        "node kinds add up: {s:?}"
    );
}

// ---------------------------------------------------------------- equivalence

#[test]
fn single_reply_extensions_match_the_extended_minimax() {
    let positions = random_positions(120, 7);
    let combos = combinations("ext".parse().expect("ext"), &["pvs", "id", "asp", "qs"]);
    let mut differs = 0;
    for (i, (pos, history)) in positions.iter().enumerate() {
        let depth = 2 + (i as u32 % 4);
        let want = [false, true].map(|qs| minimax(pos, depth, 0, qs, true, &mut history.to_vec()));
        differs += usize::from(want[1] != reference(pos, history, depth, true));
        for &t in &combos {
            let r = search_with(options(t), pos, history, Limits::depth(depth));
            assert_eq!(
                r.score,
                want[t.qs as usize],
                "{t} depth {depth} {}",
                damas_rules::fen::to_fen(pos)
            );
            assert!(legal_moves(Variant::Brazilian, pos).contains(&r.best.expect("a move")));
        }
    }
    // The extension changes values, or this test would prove nothing.
    assert!(differs > 5, "only {differs} positions change value");
}

#[test]
fn every_combination_without_tt_matches_minimax() {
    let positions = random_positions(200, 1);
    let combos = combinations(
        Techniques::default(),
        &["pvs", "id", "asp", "qs", "killers", "history", "mtdf"],
    );
    for (i, (pos, history)) in positions.iter().enumerate() {
        let depth = 2 + (i as u32 % 5);
        let want = [
            reference(pos, history, depth, false),
            reference(pos, history, depth, true),
        ];
        for &t in &combos {
            let r = search_with(options(t), pos, history, Limits::depth(depth));
            assert_eq!(
                r.score,
                want[t.qs as usize],
                "{t} depth {depth} position {} ({pos:?})",
                damas_rules::fen::to_fen(pos)
            );
            assert!(legal_moves(Variant::Brazilian, pos).contains(&r.best.expect("a move")));
            assert_eq!(r.depth, depth);
            check_stats(&r);
        }
    }
}

#[test]
fn tt_with_exact_drafts_matches_minimax() {
    // Stored values used only at their own depth make the table exact, which checks
    // bounds, node-relative proven scores and best-move indices.
    let positions = random_positions(200, 2);
    let combos = combinations(
        Techniques {
            tt: true,
            ..Techniques::default()
        },
        &["pvs", "id", "asp", "qs", "etc", "mtdf", "killers"],
    );
    for (i, (pos, history)) in positions.iter().enumerate() {
        let depth = 2 + (i as u32 % 5);
        let want = [
            reference(pos, history, depth, false),
            reference(pos, history, depth, true),
        ];
        for &t in &combos {
            let opts = options(t).with_exact_draft(true);
            let r = search_with(opts, pos, history, Limits::depth(depth));
            assert_eq!(
                r.score,
                want[t.qs as usize],
                "{t} depth {depth} position {}",
                damas_rules::fen::to_fen(pos)
            );
            check_stats(&r);
        }
    }
}

#[test]
fn tt_with_deeper_drafts_plays_legal_moves_with_sound_scores() {
    let positions = random_positions(200, 3);
    let combos = combinations(
        Techniques {
            tt: true,
            qs: true,
            ..Techniques::default()
        },
        &["pvs", "id", "asp", "etc", "mtdf", "history"],
    );
    for (i, (pos, history)) in positions.iter().enumerate() {
        let depth = 2 + (i as u32 % 5);
        let exact = reference(pos, history, depth, true);
        for &t in &combos {
            let r = search_with(options(t), pos, history, Limits::depth(depth));
            let best = r.best.expect("a move");
            assert!(
                legal_moves(Variant::Brazilian, pos).contains(&best),
                "{t}: illegal {best:?}"
            );
            assert!(r.score.0.abs() < Score::INFINITE.0);
            // Deeper stored values may refine the score, but a win or loss the
            // fixed-depth tree proves cannot be overturned, and the table cannot
            // prove the opposite of what the tree proves.
            let outcome = |s: Score| (s.is_win(), s.is_loss());
            if exact.is_proven() {
                assert_eq!(
                    outcome(r.score),
                    outcome(exact),
                    "{t}: {} vs {exact}",
                    r.score
                );
            }
            assert!(
                !(r.score.is_win() && exact.is_loss() || r.score.is_loss() && exact.is_win()),
                "{t}: {} vs {exact}",
                r.score
            );
            check_stats(&r);
        }
    }
}

#[test]
fn selective_deepening_plays_legal_moves() {
    for (i, (pos, history)) in random_positions(60, 4).iter().enumerate() {
        for sel in ["sel35", "sel50"] {
            let t: Techniques = format!("pvs,id,tt,qs,{sel}").parse().expect("techniques");
            assert_eq!(t.sel, Some(if sel == "sel35" { 35 } else { 50 }));
            let r = search_with(options(t), pos, history, Limits::depth(3 + i as u32 % 4));
            assert!(legal_moves(Variant::Brazilian, pos).contains(&r.best.expect("a move")));
            check_stats(&r);
        }
    }
}

#[test]
fn iterative_deepening_reports_cumulative_counts_per_depth() {
    let pos = Position::start();
    let stop = AtomicBool::new(false);
    let mut infos = Vec::new();
    let t: Techniques = "pvs,id,asp,tt,qs".parse().expect("techniques");
    let r = Searcher::new(options(t)).search(&pos, &[], &Limits::depth(8), &stop, &mut |i| {
        infos.push(i.clone())
    });
    assert_eq!(
        infos.iter().map(|i| i.depth).collect::<Vec<_>>(),
        (1..=8).collect::<Vec<_>>()
    );
    assert!(infos
        .windows(2)
        .all(|w| w[0].stats.nodes < w[1].stats.nodes));
    assert_eq!(infos.last().map(|i| i.stats.nodes), Some(r.stats.nodes));
    assert!(r.stats.tt_accesses > 0 && r.stats.tt_compares >= r.stats.tt_accesses);
}

// ---------------------------------------------------------------- tactics

fn best_move_string(fen: &str, t: Techniques, depth: u32) -> (String, Score) {
    let pos = parse_fen(fen).expect("fen");
    let r = search_with(options(t), &pos, &[], Limits::depth(depth));
    (
        move_to_string(
            Variant::Brazilian,
            &pos,
            r.best.expect("a move"),
            Notation::Algebraic,
        ),
        r.score,
    )
}

/// The moves the reference minimax finds best.
fn reference_best(fen: &str, depth: u32) -> Vec<String> {
    let pos = parse_fen(fen).expect("fen");
    let scored: Vec<(Move, Score)> = legal_moves(Variant::Brazilian, &pos)
        .iter()
        .map(|&m| {
            (
                m,
                -minimax(&pos.play(m), depth - 1, 1, true, false, &mut vec![pos]),
            )
        })
        .collect();
    let best = scored.iter().map(|s| s.1).max().expect("moves");
    scored
        .iter()
        .filter(|s| s.1 == best)
        .map(|s| move_to_string(Variant::Brazilian, &pos, s.0, Notation::Algebraic))
        .collect()
}

fn tactic(fen: &str, want: &str, depth: u32) {
    assert_eq!(
        reference_best(fen, depth),
        [want],
        "the position has one best move"
    );
    for t in [
        "ab",
        "pvs,id,asp,tt,qs",
        "pvs,id,tt,qs,killers,history,etc",
        "mtdf,id,tt,qs",
    ] {
        let (got, score) = best_move_string(fen, t.parse().expect("techniques"), depth);
        assert_eq!(got, want, "{t} chose {got} ({score})");
    }
}

#[test]
fn finds_the_shot() {
    // e3-f4 gives a man: Black's only capture g5xe3 (g3 blocks e5xg3, c1 stops the
    // capture going on over d2) is answered by d2xf4xd6, taking both black men.
    tactic("W:Wc1,d2,e3,g3:Be5,g5", "e3-f4", 6);
    let (_, score) = best_move_string("W:Wc1,d2,e3,g3:Be5,g5", Techniques::strongest(), 6);
    assert!(score.is_win(), "{score}");
}

#[test]
fn takes_the_capture_that_is_not_retaken() {
    // Two single captures; after d4xb6 a7xc5 takes back, after d4xf6 nothing can.
    tactic("W:Wd4,h2:Bc5,e5,a7,h8", "d4xf6", 5);
}

#[test]
fn wins_by_blocking_fastest() {
    // a1-b2 leaves the black man on a3 without a move (c1 guards the landing square);
    // c1-d2 also wins, but later.
    tactic("W:Wa1,c1:Ba3", "a1-b2", 4);
    let (_, score) = best_move_string("W:Wa1,c1:Ba3", Techniques::strongest(), 6);
    assert_eq!(score, Score::win_in(1));
}

// ---------------------------------------------------------------- repetition

#[test]
fn repeating_a_history_position_is_a_draw() {
    // White's lone king is a man down: every move keeps −100, except going back to
    // the square it came from, which repeats the position before the last two moves.
    let before = parse_fen("B:WKa1:Bh8,Kb8").expect("fen");
    let history_moves = ["b8-c7", "a1-b2", "c7-b8"];
    let mut history = vec![before];
    let mut pos = before;
    for m in history_moves {
        pos =
            pos.play(damas_rules::notation::parse_move(Variant::Brazilian, &pos, m).expect("move"));
        history.push(pos);
    }
    let pos = history.pop().expect("current");
    // Now White to move with the king on b2: b2-a1 repeats `history[0]`.
    for t in ["ab", "pvs,id,qs", "pvs,id,asp,tt,qs", "mtdf,id,tt,qs"] {
        let t: Techniques = t.parse().expect("techniques");
        for depth in [1, 3] {
            let with = search_with(options(t), &pos, &history, Limits::depth(depth));
            assert_eq!(
                with.score,
                reference(&pos, &history, depth, true),
                "{t} depth {depth}"
            );
            assert_eq!(with.score, Score::DRAW, "{t}");
            assert_eq!(
                move_to_string(
                    Variant::Brazilian,
                    &pos,
                    with.best.expect("move"),
                    Notation::Algebraic
                ),
                "b2-a1",
                "{t}"
            );
            let without = search_with(options(t), &pos, &[], Limits::depth(depth));
            assert!(without.score < Score::DRAW, "{t}: {}", without.score);
        }
    }
}

#[test]
fn contempt_scores_a_draw_by_the_rules_below_even_for_the_root_side() {
    // The position of the test above: White's king, a man down, can only draw by
    // repeating. With contempt the draw is worth `-contempt` to White (the root's
    // side); a negative contempt makes it worth more than even.
    let before = parse_fen("B:WKa1:Bh8,Kb8").expect("fen");
    let mut history = vec![before];
    let mut pos = before;
    for m in ["b8-c7", "a1-b2", "c7-b8"] {
        pos =
            pos.play(damas_rules::notation::parse_move(Variant::Brazilian, &pos, m).expect("move"));
        history.push(pos);
    }
    let pos = history.pop().expect("current");
    for contempt in [30, -30, 0] {
        for depth in [1, 3, 5] {
            let opts = options("pvs,id,asp,tt,qs,rules".parse().expect("techniques"))
                .with_contempt(contempt);
            let r = search_with(opts, &pos, &history, Limits::depth(depth));
            assert_eq!(
                r.score,
                Score::centi(-contempt),
                "contempt {contempt}, depth {depth}"
            );
            assert_eq!(
                move_to_string(
                    Variant::Brazilian,
                    &pos,
                    r.best.expect("move"),
                    Notation::Algebraic
                ),
                "b2-a1",
                "contempt {contempt}, depth {depth}"
            );
        }
    }
}

#[test]
fn repetition_inside_the_search_is_a_draw() {
    // Kings only, on squares where nothing can be taken: positions repeat after four
    // plies, and the reference and the search agree on the draws found in the tree.
    let pos = parse_fen("W:WKa1,Kh2:BKh8,Kb8").expect("fen");
    for t in ["ab", "pvs,id,qs,killers,history"] {
        let t: Techniques = t.parse().expect("techniques");
        let r = search_with(options(t), &pos, &[], Limits::depth(5));
        assert_eq!(r.score, reference(&pos, &[], 5, true), "{t}");
    }
}

// ---------------------------------------------------------------- limits

#[test]
fn time_limit_is_honoured() {
    let stop = AtomicBool::new(false);
    let pos = parse_fen("W:Wa1,c1,e1,b2,d2,f2,a3,c3,e3,g3,d4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8")
        .expect("fen");
    for fen_pos in [Position::start(), pos] {
        let mut searcher = Searcher::new(material_options());
        let r = searcher.search(
            &fen_pos,
            &[],
            &Limits::time(Duration::from_millis(200)),
            &stop,
            &mut |_| {},
        );
        // Wall-clock bounds flake on a loaded machine: the behaviour checked is that
        // the clock, not the depth cap, ends the search with a move.
        assert!(
            r.depth >= 1 && r.depth < damas_engine::search::MAX_DEPTH,
            "reached depth {}",
            r.depth
        );
        assert!(legal_moves(Variant::Brazilian, &fen_pos).contains(&r.best.expect("a move")));
    }
}

#[test]
fn node_limit_and_stop_flag_end_the_search() {
    let pos = Position::start();
    let r = search_with(
        options(Techniques::strongest()),
        &pos,
        &[],
        Limits::nodes(5_000),
    );
    assert!(r.stats.nodes <= 5_001, "{}", r.stats.nodes);
    assert!(r.best.is_some());
    let stop = AtomicBool::new(true);
    let r = Searcher::new(options(Techniques::strongest())).search(
        &pos,
        &[],
        &Limits::default(),
        &stop,
        &mut |_| {},
    );
    assert!(legal_moves(Variant::Brazilian, &pos)
        .contains(&r.best.expect("a move even when stopped at once")));
}

// ---------------------------------------------------------------- oracle

/// Perfect play for every position with at most two pieces, by retrograde relaxation:
/// a position is won in `n + 1` if a move reaches one lost in `n`, lost in `n + 1` if
/// every move reaches one won in at most `n`; what is never decided is drawn.
struct TwoPieceOracle {
    table: HashMap<Position, (OracleValue, u32, Option<Move>)>,
}

impl TwoPieceOracle {
    fn build() -> TwoPieceOracle {
        let mut all = Vec::new();
        for a in 0..32u32 {
            for b in 0..32u32 {
                if a == b {
                    continue;
                }
                for kinds in 0..4u32 {
                    for side in [Color::White, Color::Black] {
                        let kings = Bitboard((kinds & 1) << a | (kinds >> 1 & 1) << b);
                        if let Ok(p) =
                            Position::from_parts(Bitboard(1 << a), Bitboard(1 << b), kings, side)
                        {
                            all.push(p);
                        }
                    }
                }
            }
        }
        let mut table: HashMap<Position, (OracleValue, u32, Option<Move>)> = HashMap::new();
        let value = |table: &HashMap<Position, (OracleValue, u32, Option<Move>)>,
                     p: &Position|
         -> Option<(OracleValue, u32)> {
            if p.piece_count() < 2 || legal_moves(Variant::Brazilian, p).is_empty() {
                return Some((OracleValue::Loss, 0));
            }
            table.get(p).map(|e| (e.0, e.1))
        };
        for n in 0..200u32 {
            let mut changed = false;
            for p in &all {
                if table.contains_key(p) || legal_moves(Variant::Brazilian, p).is_empty() {
                    continue;
                }
                let moves = legal_moves(Variant::Brazilian, p);
                let kids: Vec<Option<(OracleValue, u32)>> =
                    moves.iter().map(|&m| value(&table, &p.play(m))).collect();
                if let Some(i) = kids.iter().position(|k| *k == Some((OracleValue::Loss, n))) {
                    table.insert(*p, (OracleValue::Win, n + 1, Some(moves[i])));
                    changed = true;
                } else if kids
                    .iter()
                    .all(|k| matches!(k, Some((OracleValue::Win, d)) if *d <= n))
                    && kids
                        .iter()
                        .any(|k| matches!(k, Some((OracleValue::Win, d)) if *d == n))
                {
                    table.insert(*p, (OracleValue::Loss, n + 1, Some(moves[0])));
                    changed = true;
                }
            }
            if !changed && n > 2 {
                break;
            }
        }
        TwoPieceOracle { table }
    }
}

impl Oracle for TwoPieceOracle {
    fn probe(&self, pos: &Position) -> Option<OracleAnswer> {
        if pos.piece_count() > 2 {
            return None;
        }
        let moves = legal_moves(Variant::Brazilian, pos);
        if moves.is_empty() {
            return Some(OracleAnswer {
                value: OracleValue::Loss,
                best: None,
                plies: Some(0),
                to_conversion: false,
            });
        }
        Some(match self.table.get(pos) {
            Some(&(value, plies, best)) => OracleAnswer {
                value,
                best,
                plies: Some(plies),
                to_conversion: false,
            },
            None => OracleAnswer {
                value: OracleValue::Draw,
                best: Some(moves[0]),
                plies: None,
                to_conversion: false,
            },
        })
    }
    fn max_pieces(&self) -> u32 {
        2
    }
}

fn oracle_score(a: &OracleAnswer, ply: u32) -> Score {
    match a.value {
        OracleValue::Win => Score::win_in(ply + a.plies.expect("distance")),
        OracleValue::Loss => Score::loss_in(ply + a.plies.expect("distance")),
        OracleValue::Draw => Score::DRAW,
    }
}

#[test]
fn oracle_cutoffs_give_proven_scores() {
    let oracle = Arc::new(TwoPieceOracle::build());
    // A man and a king against a man: every white move keeps three pieces, but after
    // Black's reply (or a capture) the database answers.
    for fen in ["W:Wd4,Kg1:Bc5", "W:Wc3,Ka1:Bd4", "B:Wc3:Bd6,Kh8"] {
        let pos = parse_fen(fen).expect("fen");
        let t: Techniques = "pvs,id,tt,qs,egdb".parse().expect("techniques");
        let opts = options(t)
            .with_oracle(Some(oracle.clone()))
            .with_draw_policy(DrawPolicy::Score);
        let r = search_with(opts, &pos, &[], Limits::depth(4));
        assert!(r.stats.egdb_cutoffs > 0, "{fen}");
        check_stats(&r);
        // Where every move captures into the database, the value is known exactly.
        let moves = legal_moves(Variant::Brazilian, &pos);
        if moves.iter().all(|m| m.is_capture()) {
            let want = moves
                .iter()
                .map(|&m| -oracle_score(&oracle.probe(&pos.play(m)).expect("covered"), 1))
                .max()
                .expect("moves");
            assert_eq!(r.score, want, "{fen}");
        }
    }
    // Forced capture into two pieces: d4 must take c5 or e5... value from the oracle.
    let pos = parse_fen("W:Wd4:Bc5,Kh8").expect("fen");
    let moves = legal_moves(Variant::Brazilian, &pos);
    assert!(moves.iter().all(|m| m.is_capture()));
    let want = moves
        .iter()
        .map(|&m| -oracle_score(&oracle.probe(&pos.play(m)).expect("covered"), 1))
        .max()
        .expect("moves");
    let t: Techniques = "pvs,id,tt,qs,egdb".parse().expect("techniques");
    let opts = options(t)
        .with_oracle(Some(oracle.clone()))
        .with_draw_policy(DrawPolicy::Score);
    let r = search_with(opts, &pos, &[], Limits::depth(3));
    assert_eq!(r.score, want);
}

#[test]
fn oracle_best_move_is_played_at_the_root() {
    let oracle = Arc::new(TwoPieceOracle::build());
    let (pos, answer) = oracle
        .table
        .iter()
        .filter(|(_, e)| e.0 == OracleValue::Win && e.1 >= 5)
        .map(|(p, _)| (*p, oracle.probe(p).expect("covered")))
        .min_by_key(|(p, _)| damas_rules::fen::to_fen(p))
        .expect("a won two-piece position");
    let t: Techniques = "pvs,id,tt,qs,egdb".parse().expect("techniques");
    let opts = options(t).with_oracle(Some(oracle.clone()));
    let r = search_with(opts, &pos, &[], Limits::depth(10));
    assert_eq!(r.best, answer.best);
    assert_eq!(r.score, oracle_score(&answer, 0));
    assert_eq!(r.stats.egdb_cutoffs, 1);
    // Without the technique the same position is searched normally.
    let r = search_with(
        options(Techniques { egdb: false, ..t }),
        &pos,
        &[],
        Limits::depth(4),
    );
    assert_eq!(r.stats.egdb_cutoffs, 0);
}

/// Counts only kings: a stand-in for a stronger evaluator plugged into the search.
struct KingsOnly;

impl Evaluator for KingsOnly {
    fn eval(&self, pos: &Position) -> Score {
        let side = pos.side_to_move();
        Score::centi(
            100 * (pos.kings_of(side).count() as i32
                - pos.kings_of(side.opponent()).count() as i32),
        )
    }
}

#[test]
fn a_custom_evaluator_replaces_the_material_count() {
    // White is a man up, and the men are too far apart to meet within two plies.
    let pos = parse_fen("W:Wa1,c1,e1:Bf8,h8").expect("fen");
    let t: Techniques = "pvs,id,tt,qs".parse().expect("techniques");
    let material = search_with(options(t), &pos, &[], Limits::depth(2));
    assert_eq!(material.score, Score::centi(100));
    let opts = options(t).with_eval(Evaluation::Custom(Arc::new(KingsOnly)));
    let kings = search_with(opts, &pos, &[], Limits::depth(2));
    assert_eq!(kings.score, Score::DRAW);
}

#[test]
fn the_endgame_database_is_an_oracle() {
    let dir = tempfile::tempdir().expect("temp dir");
    damas_egdb::build(dir.path(), 3, &damas_egdb::BuildOptions::default(), |_| {}).expect("build");
    let db: Arc<dyn Oracle> =
        Arc::new(damas_egdb::Egdb::open(Variant::Brazilian, dir.path()).expect("open"));
    assert_eq!(db.max_pieces(), 3);
    let t: Techniques = "pvs,id,asp,tt,qs,egdb".parse().expect("techniques");
    // Four pieces, every move a capture into the database: the value is exact.
    let pos = parse_fen("W:Wd4,Kg1:Bc5,Kh8").expect("fen");
    let moves = legal_moves(Variant::Brazilian, &pos);
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

// ---------------------------------------------------------------- ProbCut

#[test]
fn probcut_prunes_and_plays_legal_moves() {
    let base: Techniques = "pvs,id,asp,tt,qs,history,killers,lmr"
        .parse()
        .expect("techniques");
    let with: Techniques = "pvs,id,asp,tt,qs,history,killers,lmr,probcut"
        .parse()
        .expect("techniques");
    assert!(with.probcut && !base.probcut);
    assert_eq!(
        with.to_string(),
        "pvs+id+asp+tt+qs+killers+history+lmr+probcut"
    );
    assert!(Techniques::engine().probcut && !Techniques::strongest().probcut);
    // Fewer nodes to the same depth with the trained evaluation (the material count
    // ties too many positions for a margin to tell them apart): the shallow
    // searches cut off whole subtrees.
    let cut = tree_against(base, with, 13, Ordering::Less);
    check_stats(&cut);
    assert_sane_on_random_positions(&options(with), 40, 5, 5);
}

#[test]
fn probcut_from_the_table_cuts_without_the_shallow_search() {
    let base = Techniques::engine();
    let with: Techniques = "default+probcut-tt".parse().expect("techniques");
    assert!(with.probcut_tt && !base.probcut_tt && !Techniques::strongest().probcut_tt);
    assert!(with.to_string().contains("+probcut+probcut-tt+"), "{with}");
    // Entries deep enough to answer ProbCut spare its shallow searches: another tree
    // to the same depth (smaller or larger, as the cutoffs move the search).
    let pos = Position::start();
    let plain = search_with(linear(base), &pos, &[], Limits::depth(15));
    let cut = search_with(linear(with), &pos, &[], Limits::depth(15));
    assert_ne!(cut.stats.nodes, plain.stats.nodes);
    check_stats(&cut);
    // It is part of ProbCut: without ProbCut the flag changes nothing.
    let same = tree_against(
        without(base, "probcut"),
        without(with, "probcut"),
        13,
        Ordering::Equal,
    );
    check_stats(&same);
    assert_sane_on_random_positions(&trained(with), 30, 27, 5);
}

// ---------------------------------------------------------------- reverse futility

#[test]
fn reverse_futility_prunes_and_keeps_the_search_sane() {
    let base: Techniques = "pvs,id,asp,tt,qs,history,killers,lmr,probcut"
        .parse()
        .expect("techniques");
    let with: Techniques = "pvs,id,asp,tt,qs,history,killers,lmr,probcut,rfp"
        .parse()
        .expect("techniques");
    assert!(with.rfp && !base.rfp);
    assert_eq!(
        with.to_string(),
        "pvs+id+asp+tt+qs+killers+history+lmr+probcut+rfp"
    );
    assert!(Techniques::engine().rfp && !Techniques::strongest().rfp);
    // Fewer nodes to the same depth with the trained evaluation (graded scores clear
    // the margin; the material count ties too many positions).
    let cut = tree_against(base, with, 15, Ordering::Less);
    check_stats(&cut);
    assert_sane_on_random_positions(&trained(with), 40, 9, 5);
}

#[test]
fn threat_replies_search_further_and_keep_the_search_sane() {
    let base = Techniques::engine();
    let with: Techniques = format!("{base}+threat").parse().expect("techniques");
    assert!(with.threat && !base.threat && !Techniques::strongest().threat);
    // Threatened horizons are searched one ply further: more nodes to a depth.
    let deeper = tree_against(base, with, 9, Ordering::Greater);
    check_stats(&deeper);
    assert_sane_on_random_positions(&trained(with), 30, 11, 4);
}

#[test]
fn singular_extensions_search_the_table_move_deeper() {
    let (base, with) = default_without("singular");
    assert!(with.singular && !base.singular && !Techniques::strongest().singular);
    // The verification searches and the extended moves add nodes to a depth.
    let deeper = tree_against(base, with, 15, Ordering::Greater);
    let pos = Position::start();
    assert!(legal_moves(Variant::Brazilian, &pos).contains(&deeper.best.expect("a move")));
    check_stats(&deeper);
    assert_sane_on_random_positions(&trained(with), 30, 24, 4);
}

#[test]
fn futility_pruning_skips_quiet_moves_and_keeps_the_search_sane() {
    let (base, with) = default_without("futility");
    assert!(with.futility && !base.futility && !Techniques::strongest().futility);
    assert!(with.to_string().contains("+futility"), "{with}");
    // Skipped moves are not searched: fewer nodes to the same depth.
    let cut = tree_against(base, with, 15, Ordering::Less);
    let pos = Position::start();
    assert!(legal_moves(Variant::Brazilian, &pos).contains(&cut.best.expect("a move")));
    check_stats(&cut);
    assert_sane_on_random_positions(&trained(with), 30, 25, 4);
}

#[test]
fn internal_iterative_reduction_searches_nodes_without_a_table_move_shallower() {
    let (_, with) = default_without("iir");
    assert!(with.iir && !Techniques::strongest().iir);
    // Printed in the list's order: futility pruning, then the reduction, last.
    assert!(with.to_string().ends_with("+futility+iir"), "{with}");
    // Without a table no node has a table move, so every node with 4 or more plies
    // to go is reduced: far fewer nodes to the same depth.
    let no_table: Techniques = "pvs,id,qs,history,killers".parse().expect("techniques");
    let reduced: Techniques = "pvs,id,qs,history,killers,iir".parse().expect("techniques");
    let cut = tree_against(no_table, reduced, 9, Ordering::Less);
    check_stats(&cut);
    // The default's search, table and reduction together, stays sane.
    assert_sane_on_random_positions(&trained(with), 30, 26, 5);
}

/// The default options with techniques `t` and the trained evaluation.
fn trained(t: Techniques) -> SearchOptions {
    options(t).with_eval(Evaluation::trained(Variant::Brazilian))
}

/// The default techniques without technique `name`, and the default (with it), after
/// checking that `name` is on by default and that the names read back.
fn default_without(name: &str) -> (Techniques, Techniques) {
    let with = Techniques::engine();
    let text = with.to_string();
    let base = without(with, name);
    assert_ne!(base, with, "{name} is on by default");
    assert_eq!(format!("{base}+{name}").parse::<Techniques>(), Ok(with));
    assert!(text.contains(&format!("+{name}")), "{with}");
    assert_eq!(text.parse::<Techniques>(), Ok(with));
    (base, with)
}

/// Techniques `t` with technique `name` switched off (through their names).
fn without(t: Techniques, name: &str) -> Techniques {
    t.to_string()
        .split('+')
        .filter(|n| *n != name)
        .collect::<Vec<_>>()
        .join("+")
        .parse()
        .expect("techniques")
}

#[test]
fn default_names_the_default_engines_techniques() {
    let mut with_threat = Techniques::engine();
    with_threat.threat = true;
    assert_eq!("default".parse::<Techniques>(), Ok(Techniques::engine()));
    assert_eq!("DEFAULT+threat".parse::<Techniques>(), Ok(with_threat));
    assert_eq!("threat, default".parse::<Techniques>(), Ok(with_threat));
    assert!("default+nonsense".parse::<Techniques>().is_err());
}

/// The embedded linear model without its network. A technique's effect on one tree
/// depends on the evaluation (with the network, singular extensions shrink the
/// depth-15 tree from the start), so the tree comparisons keep the one they were set on.
fn linear(t: Techniques) -> SearchOptions {
    options(t).with_eval(Evaluation::Trained(Arc::new(Trained::embedded_linear(
        Variant::Brazilian,
    ))))
}

/// Search the start to `depth` with the linear model under `base` and under `with`,
/// check that `with`'s tree compares to `base`'s as `expected` (more nodes or fewer),
/// and return its result.
fn tree_against(
    base: Techniques,
    with: Techniques,
    depth: u32,
    expected: Ordering,
) -> SearchResult {
    let pos = Position::start();
    let plain = search_with(linear(base), &pos, &[], Limits::depth(depth));
    let changed = search_with(linear(with), &pos, &[], Limits::depth(depth));
    assert_eq!(
        changed.stats.nodes.cmp(&plain.stats.nodes),
        expected,
        "{} vs {}",
        changed.stats.nodes,
        plain.stats.nodes
    );
    changed
}
