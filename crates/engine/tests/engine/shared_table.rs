//! The default engine's replacing table and lazy SMP, end to end: repetitions found
//! whatever the table size, determinism with one thread, and helper threads that
//! agree with one thread on proven results.

use damas_rules::variant::Variant;
use std::sync::atomic::AtomicBool;

use damas_engine::eval::Evaluation;
use damas_engine::search::{Limits, SearchOptions, SearchResult, Searcher, Techniques};
use damas_rules::fen::parse_fen;
use damas_rules::movegen::legal_moves;
use damas_rules::position::Position;

use crate::reference::minimax;

fn search(
    opts: SearchOptions,
    pos: &Position,
    history: &[Position],
    limits: Limits,
) -> SearchResult {
    let stop = AtomicBool::new(false);
    Searcher::new(opts).search(pos, history, &limits, &stop, &mut |_| {})
}

fn material(t: &str) -> SearchOptions {
    SearchOptions::default()
        .with_techniques(t.parse::<Techniques>().expect("techniques"))
        .with_eval(Evaluation::Material)
        .with_exact_draft(true)
}

#[test]
fn repetitions_are_found_with_a_tiny_table() {
    // Kings only, with a game history: the tree is full of repetitions and of many
    // more positions than a 2^10-entry table holds, so most probes of the thesis'
    // table find no slot. With exact drafts the search must still return minimax.
    let start = parse_fen("W:WKa1,Kh2:BKh8,Kb8").expect("fen");
    let mut history = vec![start];
    let mut pos = start;
    for _ in 0..2 {
        pos = pos.play(legal_moves(Variant::Brazilian, &pos)[0]);
        history.push(pos);
    }
    let pos = history.pop().expect("current");
    for depth in [4, 5] {
        let want = minimax(&pos, depth, 0, false, false, &mut history.clone());
        for t in ["ab,tt", "pvs,id,tt,history"] {
            let thesis = material(t).with_thesis_table(10);
            let r = search(thesis, &pos, &history, Limits::depth(depth));
            assert_eq!(r.score, want, "thesis table 2^10, {t} depth {depth}");
            let replacing = material(t).with_hash_mb(1);
            let r = search(replacing, &pos, &history, Limits::depth(depth));
            assert_eq!(r.score, want, "replacing table, {t} depth {depth}");
        }
    }
}

#[test]
fn one_thread_is_deterministic_and_the_table_persists() {
    let pos = Position::start();
    let run = || {
        let mut s = Searcher::new(SearchOptions::default());
        let stop = AtomicBool::new(false);
        let first = s.search(&pos, &[], &Limits::depth(9), &stop, &mut |_| {});
        // The table is kept between moves: the same search again costs fewer nodes.
        let again = s.search(&pos, &[], &Limits::depth(9), &stop, &mut |_| {});
        assert!(
            again.stats.nodes < first.stats.nodes,
            "{} vs {}",
            again.stats.nodes,
            first.stats.nodes
        );
        // A new game forgets it.
        s.clear();
        let cleared = s.search(&pos, &[], &Limits::depth(9), &stop, &mut |_| {});
        assert_eq!(cleared.stats.nodes, first.stats.nodes);
        (first.best, first.score, first.stats.nodes)
    };
    assert_eq!(run(), run());
}

#[test]
fn threads_agree_with_one_thread_on_proven_results() {
    // Small endings whose result a shallow search proves.
    let fens = [
        "W:Wc3:Bd4",
        "W:WKa1,Kc3:Bh6",
        "B:WKb2,Kg1,e3:Bh8",
        "W:Wc5,e5:Bd8,Kh2",
    ];
    let mut proven = 0;
    for fen in fens {
        let pos = parse_fen(fen).expect("fen");
        let one = search(SearchOptions::default(), &pos, &[], Limits::depth(12));
        let two = search(
            SearchOptions::default().with_threads(2),
            &pos,
            &[],
            Limits::depth(12),
        );
        let legal = legal_moves(Variant::Brazilian, &pos);
        assert!(legal.contains(&two.best.expect("a move")), "{fen}");
        if one.score.is_proven() {
            proven += 1;
            assert_eq!(
                (one.score.is_win(), one.score.is_loss()),
                (two.score.is_win(), two.score.is_loss()),
                "{fen}: {} vs {}",
                one.score,
                two.score
            );
        }
    }
    assert!(proven >= 2, "only {proven} proven");
}

#[test]
fn threads_play_legal_moves_under_node_and_time_limits() {
    let pos = Position::start();
    for limits in [
        Limits::nodes(50_000),
        Limits::time(std::time::Duration::from_millis(50)),
    ] {
        let r = search(SearchOptions::default().with_threads(3), &pos, &[], limits);
        assert!(legal_moves(Variant::Brazilian, &pos).contains(&r.best.expect("a move")));
        assert!(r.depth >= 1);
    }
}

#[test]
fn threads_report_each_thread_and_end_at_the_depth_limit() {
    let pos = Position::start();
    let stop = AtomicBool::new(false);
    for threads in [1, 2] {
        let mut s = Searcher::new(SearchOptions::default().with_threads(threads));
        let mut depths = Vec::new();
        let r = s.search(&pos, &[], &Limits::depth(10), &stop, &mut |i| {
            depths.push(i.depth)
        });
        // Whichever thread completes depth 10 first ends the search and is reported.
        assert_eq!(r.depth, 10, "{threads} threads");
        assert_eq!(depths.last(), Some(&10), "{threads} threads");
        assert!(depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");
        // One count per thread, adding up to the result's statistics.
        let nodes = s.thread_nodes();
        assert_eq!(nodes.len(), threads);
        assert!(nodes.iter().all(|&n| n > 0), "{nodes:?}");
        assert_eq!(
            nodes.iter().sum::<u64>(),
            r.stats.nodes + r.stats.qs_nodes,
            "{threads} threads"
        );
    }
}

/// With two threads, moves whose subtree the other thread is searching are put off
/// (ABDADA-style deferral, `search/parallel/busy.rs`), and the search still ends at the
/// depth limit with a legal move; one thread never defers.
#[test]
fn a_second_thread_defers_moves_the_first_is_searching() {
    let pos = Position::start();
    let stop = AtomicBool::new(false);
    let deferred = |threads: usize| {
        let mut s = Searcher::new(SearchOptions::default().with_threads(threads));
        let r = s.search(&pos, &[], &Limits::depth(14), &stop, &mut |_| {});
        assert_eq!(r.depth, 14);
        assert!(legal_moves(Variant::Brazilian, &pos).contains(&r.best.expect("a move")));
        r.stats.deferred
    };
    assert_eq!(deferred(1), 0);
    // Two threads meet in the tree only while both run at once: a test machine busy
    // with other tests may keep one waiting for a while, so three tries.
    assert!(
        (0..3).any(|_| deferred(2) > 0),
        "no move deferred with two threads"
    );
}

/// A soft stop (the caller's `on_info` setting the stop flag after an iteration,
/// as the Hub engine and match players do) while a helper is already searching a
/// deeper iteration: the main thread goes on helping it until that iteration is
/// done or the deadline comes, instead of throwing the helper's head start away
/// (`Stats::grace`). At most once per search; never with one thread, nor without a
/// soft deadline (a stop then always ends the search at once). The grace ends at
/// the soft deadline, so a move never takes longer than the caller's budget.
#[test]
fn a_soft_stop_lets_a_deeper_helper_iteration_finish() {
    const SOFT: u32 = 8;
    let pos = Position::start();
    let run = |threads: usize, limits: Limits| {
        let stop = AtomicBool::new(false);
        let mut s = Searcher::new(SearchOptions::default().with_threads(threads));
        let r = s.search(&pos, &[], &limits, &stop, &mut |info| {
            if info.depth >= SOFT {
                // A slow caller: the helper, if it is running at all, gets ahead
                // meanwhile (on a busy test machine it may not have started yet).
                std::thread::sleep(std::time::Duration::from_millis(20));
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        });
        assert!(r.depth >= SOFT, "stopped at depth {}", r.depth);
        assert!(legal_moves(Variant::Brazilian, &pos).contains(&r.best.expect("a move")));
        assert!(r.stats.grace <= 1, "{} grace periods", r.stats.grace);
        r
    };
    // Deadlines far away: only the iteration under way can end a grace period.
    let far = std::time::Duration::from_secs(600);
    let timed = Limits {
        soft: Some(far),
        ..Limits::time(far)
    };
    let one = run(1, timed);
    assert_eq!((one.stats.grace, one.depth), (0, SOFT));
    let untimed = run(2, Limits::default());
    assert_eq!(untimed.stats.grace, 0);
    // Without a soft deadline from the caller, a stop always ends the search.
    let hard_only = run(2, Limits::time(far));
    assert_eq!(hard_only.stats.grace, 0);
    // Whether the helper is deeper when the main thread stops depends on timing;
    // on a busy test machine it may lag, so three tries.
    let helped = (0..3).map(|_| run(2, timed)).find(|r| r.stats.grace == 1);
    let r = helped.expect("no grace period in three two-thread searches");
    assert!(
        r.depth > SOFT,
        "the deeper iteration finished: depth {}",
        r.depth
    );
}

#[test]
fn frontier_nodes_can_leave_the_replacing_table_alone() {
    // With exact drafts every setting returns the fixed-depth minimax value; only the
    // table traffic differs: frontier nodes (one ply above the horizon) are the most
    // numerous users of the table, and with `tt_frontier` off they do not probe it.
    let pos = parse_fen("W:Wa1,c1,e1,g1,f2,h2,a3,h4,h6:Bd4,d6,a7,e7,g7,b8,d8,f8,h8").expect("fen");
    let depth = 7;
    let want = minimax(&pos, depth, 0, false, false, &mut Vec::new());
    let t = "pvs,id,tt,killers,history";
    let probe = search(material(t), &pos, &[], Limits::depth(depth));
    let skip = search(
        material(t).with_tt_frontier(false),
        &pos,
        &[],
        Limits::depth(depth),
    );
    assert_eq!((skip.score, probe.score), (want, want));
    assert!(
        2 * skip.stats.tt_accesses < probe.stats.tt_accesses,
        "{} accesses without the frontier, {} with it",
        skip.stats.tt_accesses,
        probe.stats.tt_accesses
    );
    // The thesis' table is probed at the frontier whatever the option says.
    let thesis = |frontier| {
        let opts = material(t).with_thesis_table(16).with_tt_frontier(frontier);
        search(opts, &pos, &[], Limits::depth(depth)).stats
    };
    let (off, on) = (thesis(false), thesis(true));
    assert_eq!((off.nodes, off.tt_accesses), (on.nodes, on.tt_accesses));
}
