use super::*;
use crate::search::{Limits, SearchOptions};
use crate::time::{MoveOverhead, Spend, TimeControl};
use damas_rules::fen::parse_fen;
use damas_rules::movegen::legal_moves;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn job<'a>(pos: &'a Position, book: Option<&'a Book>, level: TimeControl) -> Think<'a> {
    Think {
        pos,
        history: &[],
        book,
        strength: Strength::FULL,
        budget: MoveBudget::new(&level, Spend::Managed(MoveOverhead::default())),
        deadlines: Deadlines::Own,
        forced_without_search: true,
    }
}

#[test]
fn a_forced_move_is_played_without_search() {
    // The capture is compulsory.
    let pos = parse_fen("W:Wc3,h2:Bd4").unwrap();
    let legal = legal_moves(&pos);
    assert_eq!(legal.len(), 1);
    let mut searcher = Searcher::new(SearchOptions::default());
    let mut reports = 0;
    let t = think(
        &mut searcher,
        &job(&pos, None, TimeControl::Depth(8)),
        &mut ChaCha8Rng::seed_from_u64(1),
        &AtomicBool::new(false),
        &mut |_| reports += 1,
    );
    assert_eq!((t.source, t.result.best), (Source::Forced, Some(legal[0])));
    assert_eq!((reports, t.result.stats.nodes), (0, 0));
    // Asked to search it, it does.
    let searched = think(
        &mut searcher,
        &Think {
            forced_without_search: false,
            ..job(&pos, None, TimeControl::Depth(2))
        },
        &mut ChaCha8Rng::seed_from_u64(1),
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert_eq!(searched.source, Source::Search);
    assert_eq!(searched.result.best, Some(legal[0]));
}

#[test]
fn a_book_move_comes_from_the_book() {
    let book = Book::embedded();
    let pos = Position::start();
    let in_book: Vec<Move> = book.moves(&pos).unwrap().iter().map(|m| m.mv).collect();
    let mut searcher = Searcher::new(SearchOptions::default());
    let t = think(
        &mut searcher,
        &job(&pos, Some(&book), TimeControl::Depth(3)),
        &mut ChaCha8Rng::seed_from_u64(7),
        &AtomicBool::new(false),
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
        &job(&pos, None, TimeControl::Nodes(20_000)),
        &mut ChaCha8Rng::seed_from_u64(3),
        &stop,
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
    assert_eq!(legal_moves(&pos).len(), 1);
    let mut searcher = Searcher::new(SearchOptions::default());
    let mut depths = Vec::new();
    let t = think(
        &mut searcher,
        &Think {
            forced_without_search: false,
            ..job(&pos, None, TimeControl::Nodes(20_000))
        },
        &mut ChaCha8Rng::seed_from_u64(1),
        &AtomicBool::new(false),
        &mut |i| depths.push(i.depth),
    );
    assert_eq!(t.source, Source::Search);
    assert!(t.result.depth > 4, "depth {}", t.result.depth);
    assert_eq!(t.result.pv.first(), legal_moves(&pos).first());
    assert!(t.result.pv.len() > 2, "{:?}", t.result.pv);
    assert!(depths.len() > 4, "one report per iteration: {depths:?}");
}

#[test]
fn a_russian_search_plays_the_russian_book_and_counts_russian_moves_as_forced() {
    use damas_rules::variant::Variant;
    let brazilian = Book::embedded();
    let russian = Book::embedded_for(Variant::Russian);
    assert_eq!(russian.variant(), Variant::Russian);
    let pos = Position::start();
    let legal = damas_rules::movegen::legal_moves_for(Variant::Russian, &pos);
    let in_book: Vec<Move> = russian.moves(&pos).unwrap().iter().map(|m| m.mv).collect();
    // Given the Brazilian book or the Russian one, a Russian search plays from the
    // Russian book: the Brazilian one is never played under Russian rules.
    for book in [&brazilian, &russian] {
        let mut searcher = Searcher::new(SearchOptions::default().with_variant(Variant::Russian));
        let t = think(
            &mut searcher,
            &job(&pos, Some(book), TimeControl::Depth(3)),
            &mut ChaCha8Rng::seed_from_u64(7),
            &AtomicBool::new(false),
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
    let russian = damas_rules::movegen::legal_moves_for(Variant::Russian, &pos);
    assert_eq!((legal_moves(&pos).len(), russian.len()), (1, 2));
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
