use super::*;
use crate::search::{Limits, ProgressSink, SearchOptions};
use crate::time::{MoveBudget, MoveOverhead, TimeControl};
use damas_rules::fen::parse_fen;
use damas_rules::movegen::legal_moves;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn job<'a>(pos: &'a Position, book: Option<&'a Book>) -> Think<'a> {
    Think {
        pos,
        history: &[],
        book,
        strength: Strength::FULL,
        lines: None,
        forced_without_search: true,
    }
}

/// A game player's clock under `level`.
fn clock(level: TimeControl) -> Clock {
    Clock::new(MoveBudget::for_level(
        &level,
        MoveOverhead::default(),
        &crate::search::Tuning::default(),
    ))
}

#[test]
fn a_forced_move_is_played_without_search() {
    // The capture is compulsory.
    let pos = parse_fen("W:Wc3,h2:Bd4").unwrap();
    let legal = legal_moves(Variant::Brazilian, &pos);
    assert_eq!(legal.len(), 1);
    let mut searcher = Searcher::new(SearchOptions::default());
    let mut reports = 0;
    let t = think(
        &mut searcher,
        &job(&pos, None),
        &mut ChaCha8Rng::seed_from_u64(1),
        &clock(TimeControl::Depth(8)),
        &mut |_| reports += 1,
    );
    assert_eq!((t.source, t.result.best), (Source::Forced, Some(legal[0])));
    assert_eq!((reports, t.result.stats.nodes), (0, 0));
    // Asked to search it, it does.
    let searched = think(
        &mut searcher,
        &Think {
            forced_without_search: false,
            ..job(&pos, None)
        },
        &mut ChaCha8Rng::seed_from_u64(1),
        &clock(TimeControl::Depth(2)),
        &mut |_| {},
    );
    assert_eq!(searched.source, Source::Search);
    assert_eq!(searched.result.best, Some(legal[0]));
}

#[test]
fn a_book_move_comes_from_the_book() {
    let book = Book::embedded(Variant::Brazilian);
    let pos = Position::start();
    let in_book: Vec<Move> = book.moves(&pos).unwrap().iter().map(|m| m.mv).collect();
    let mut searcher = Searcher::new(SearchOptions::default());
    let t = think(
        &mut searcher,
        &job(&pos, Some(&book)),
        &mut ChaCha8Rng::seed_from_u64(7),
        &clock(TimeControl::Depth(3)),
        &mut |_| {},
    );
    assert_eq!(t.source, Source::Book);
    assert!(in_book.contains(&t.result.best.unwrap()));
    // The same draw as the book's own.
    let direct = book::choose(&book, &pos, &mut ChaCha8Rng::seed_from_u64(7));
    assert_eq!(t.result.best, direct);
}

#[test]
fn a_node_limited_think_equals_a_direct_search() {
    let pos = Position::start();
    let stop = AtomicBool::new(false);
    let direct = Searcher::new(SearchOptions::default()).search(
        &pos,
        &[],
        &Limits::nodes(20_000),
        &stop,
        &mut |_| {},
    );
    let mut infos = Vec::new();
    let t = think(
        &mut Searcher::new(SearchOptions::default()),
        &job(&pos, None),
        &mut ChaCha8Rng::seed_from_u64(3),
        &clock(TimeControl::Nodes(20_000)),
        &mut |i| infos.push(i.depth),
    );
    assert_eq!(t.source, Source::Search);
    assert_eq!(
        (t.result.best, t.result.score, t.result.depth, &t.result.pv),
        (direct.best, direct.score, direct.depth, &direct.pv)
    );
    assert_eq!(t.result.stats.nodes, direct.stats.nodes);
    assert!(!infos.is_empty());
}

#[test]
fn a_forced_move_wanted_for_its_score_is_scored_by_the_line_after_it() {
    // White's only move is the capture c3xe5; a node budget has no depth to stop at,
    // and the score must come from searching the position after it, not a glance.
    let pos = parse_fen("W:Wc3,a1,e1,g1:Bd4,b8,d8,h8").unwrap();
    assert_eq!(legal_moves(Variant::Brazilian, &pos).len(), 1);
    let mut searcher = Searcher::new(SearchOptions::default());
    let mut depths = Vec::new();
    let t = think(
        &mut searcher,
        &Think {
            forced_without_search: false,
            ..job(&pos, None)
        },
        &mut ChaCha8Rng::seed_from_u64(1),
        &clock(TimeControl::Nodes(20_000)),
        &mut |i| depths.push(i.depth),
    );
    assert_eq!(t.source, Source::Search);
    assert!(t.result.depth > 4, "depth {}", t.result.depth);
    assert_eq!(
        t.result.pv.first(),
        legal_moves(Variant::Brazilian, &pos).first()
    );
    assert!(t.result.pv.len() > 2, "{:?}", t.result.pv);
    assert!(depths.len() > 4, "one report per iteration: {depths:?}");
}

#[test]
fn a_russian_search_plays_the_russian_book_and_counts_russian_moves_as_forced() {
    use damas_rules::variant::Variant;
    let brazilian = Book::embedded(Variant::Brazilian);
    let russian = Book::embedded(Variant::Russian);
    assert_eq!(russian.variant(), Variant::Russian);
    let pos = Position::start();
    let legal = damas_rules::movegen::legal_moves(Variant::Russian, &pos);
    let in_book: Vec<Move> = russian.moves(&pos).unwrap().iter().map(|m| m.mv).collect();
    // Given the Brazilian book or the Russian one, a Russian search plays from the
    // Russian book: the Brazilian one is never played under Russian rules.
    for book in [&brazilian, &russian] {
        let mut searcher = Searcher::new(SearchOptions::default().with_variant(Variant::Russian));
        let t = think(
            &mut searcher,
            &job(&pos, Some(book)),
            &mut ChaCha8Rng::seed_from_u64(7),
            &clock(TimeControl::Depth(3)),
            &mut |_| {},
        );
        assert_eq!(t.source, Source::Book);
        let mv = t.result.best.unwrap();
        assert!(in_book.contains(&mv) && legal.contains(&mv), "{mv:?}");
    }
    assert_eq!(book_for(Variant::Russian, Some(&brazilian)), Some(&russian));
    assert_eq!(
        book_for(Variant::Brazilian, Some(&brazilian)),
        Some(&brazilian)
    );
    assert_eq!(book_for(Variant::Russian, None), None);
    // Brazilian has one capture here (a3xc5xa7, the majority); Russian also e3xg5.
    let pos = parse_fen("W:Wa3,e3:Bb4,b6,f4,h8").unwrap();
    let russian = damas_rules::movegen::legal_moves(Variant::Russian, &pos);
    assert_eq!(
        (legal_moves(Variant::Brazilian, &pos).len(), russian.len()),
        (1, 2)
    );
    let forced = without_search(
        Variant::Brazilian,
        &pos,
        None,
        true,
        &mut ChaCha8Rng::seed_from_u64(1),
    );
    assert_eq!(forced.map(|f| f.1), Some(Source::Forced));
    let russian_forced = without_search(
        Variant::Russian,
        &pos,
        None,
        true,
        &mut ChaCha8Rng::seed_from_u64(1),
    );
    assert_eq!(russian_forced, None);
}

/// A search at `strength` of `pos` without limits.
fn at(strength: Strength, pos: &Position) -> Think<'_> {
    Think {
        strength,
        ..Think::search(pos, &[])
    }
}

/// White to move: c3-d4?? lets Black capture; every other move is quiet. The
/// beginner sometimes blunders, the master never does.
#[test]
fn weak_levels_sometimes_blunder_strong_ones_do_not() {
    let pos = parse_fen("W:Wa1,c1,e1,g1,c3:Be5,f6,h8,b8").unwrap();
    let mut searcher = Searcher::new(SearchOptions::default());
    let clock = Clock::new(MoveBudget::default());
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut pick = |s: Strength, rng: &mut ChaCha8Rng| {
        think(&mut searcher, &at(s, &pos), rng, &clock, &mut |_| {})
            .result
            .best
            .unwrap()
    };
    let blunder = damas_rules::notation::parse_move(Variant::Brazilian, &pos, "c3-d4").unwrap();
    let beginner: Vec<_> = (0..200).map(|_| pick(Strength::MIN, &mut rng)).collect();
    let master: Vec<_> = (0..30)
        .map(|_| pick(Strength::new(9).unwrap(), &mut rng))
        .collect();
    let distinct = |v: &[Move]| {
        let mut d = v.to_vec();
        d.sort_by_key(|m| format!("{m:?}"));
        d.dedup();
        d.len()
    };
    assert!(beginner.contains(&blunder), "the beginner never blundered");
    assert!(
        distinct(&beginner) > 2,
        "the beginner always plays the same"
    );
    assert!(!master.contains(&blunder), "the master blundered");
}

/// The statistics of a level's choice add up every root move's search, so the
/// node accounting of a single search holds for them too.
#[test]
fn choice_statistics_add_up() {
    let pos = parse_fen("W:Wa1,c1,e1,g1,c3:Be5,f6,h8,b8").unwrap();
    let mut searcher = Searcher::new(SearchOptions::default());
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let r = think(
        &mut searcher,
        &at(Strength::new(6).unwrap(), &pos),
        &mut rng,
        &Clock::new(MoveBudget::default()),
        &mut |_| {},
    )
    .result;
    let s = r.stats;
    assert!(s.nodes > 0 && s.tt_accesses > 0, "{s:?}");
    assert_eq!(
        s.nodes,
        s.interior + s.leaves + s.tt_cutoffs + s.terminal + s.egdb_cutoffs,
        "{s:?}"
    );
}

/// The number of lines is a field of the request: three asked, three reported.
#[test]
fn several_lines_are_asked_by_the_request() {
    let pos = Position::start();
    let mut searcher = Searcher::new(SearchOptions::default());
    let mut reported = 0;
    think(
        &mut searcher,
        &Think {
            lines: Some(3),
            ..Think::search(&pos, &[])
        },
        &mut no_draws(),
        &Clock::new(MoveBudget::exact(&TimeControl::Depth(4))),
        &mut |i| reported = i.lines.len(),
    );
    assert_eq!(reported, 3);
}

/// A search asked for progress reports them between its iterations, with live node
/// counts, and is the same search node for node; one and several lines alike.
#[test]
fn progress_is_reported_while_searching_and_changes_nothing() {
    let pos = Position::start();
    let nodes = 400_000;
    for lines in [1, 2] {
        let request = Think {
            lines: Some(lines),
            ..Think::search(&pos, &[])
        };
        let budget = || Clock::new(MoveBudget::exact(&TimeControl::Nodes(nodes)));
        let mut infos = Vec::new();
        let plain = think(
            &mut Searcher::new(SearchOptions::default()),
            &request,
            &mut no_draws(),
            &budget(),
            &mut |i| infos.push(i.clone()),
        );
        let mut reports = Vec::new();
        let mut infos_reporting = Vec::new();
        let reporting = think_with_progress(
            &mut Searcher::new(SearchOptions::default()),
            &request,
            &mut no_draws(),
            &budget(),
            &mut |i| infos_reporting.push(i.clone()),
            Some(ProgressSink {
                // Far shorter than the search, however fast the machine.
                every: std::time::Duration::from_micros(100),
                report: &mut |p| reports.push(*p),
            }),
        );
        let same = |r: &SearchResult| (r.best, r.score, r.depth, r.pv.clone(), r.stats.nodes);
        assert_eq!(
            same(&plain.result),
            same(&reporting.result),
            "{lines} lines"
        );
        let depths = |v: &[Info]| {
            v.iter()
                .map(|i| (i.depth, i.stats.nodes))
                .collect::<Vec<_>>()
        };
        assert_eq!(depths(&infos), depths(&infos_reporting));
        let last = reporting.result.stats.nodes;
        assert!(
            reports.iter().any(|p| p.nodes > 0 && p.nodes < last),
            "{lines} lines: {} reports below {last} nodes",
            reports.len()
        );
        assert!(reports
            .windows(2)
            .all(|w| w[0].nodes < w[1].nodes && w[0].time <= w[1].time));
        assert!(reports
            .iter()
            .all(|p| p.depth >= 1 && p.depth <= reporting.result.depth + 1 && p.nodes <= nodes));
    }
}
