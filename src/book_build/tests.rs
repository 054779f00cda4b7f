use super::*;
use damas_rules::movegen::legal_moves;

fn tiny() -> BuildConfig {
    BuildConfig {
        variant: Variant::Brazilian,
        evaluation: None,
        depth: 3,
        alt_penalty: 1,
        margin: Score::centi(30),
        max_moves: 2,
        nodes: 300,
        hash_mb: 1,
        progress: false,
    }
}

#[test]
fn builds_reproducibly_and_resumes_from_its_state() {
    let dir = tempfile::tempdir().unwrap();
    let (book1, state1) = (dir.path().join("a.book"), dir.path().join("a.state"));
    let report = build(&tiny(), &book1, &state1).unwrap();
    assert!(report.positions > 1 && report.depth >= 2, "{report:?}");
    assert_eq!(report.resumed, 0);
    let book = Book::load(&book1).unwrap();
    for (pos, moves) in book.iter() {
        let legal = legal_moves(Variant::Brazilian, pos);
        assert!(moves.iter().all(|m| legal.contains(&m.mv)));
        assert!(moves.len() <= 2);
    }
    // A build interrupted after a few positions: keep only part of the state.
    let text = std::fs::read_to_string(&state1).unwrap();
    let part: Vec<&str> = text.lines().take(3).collect();
    let state2 = dir.path().join("b.state");
    std::fs::write(&state2, part.join("\n") + "\n").unwrap();
    let book2 = dir.path().join("b.book");
    let again = build(&tiny(), &book2, &state2).unwrap();
    assert!(again.resumed >= 2, "{again:?}");
    assert_eq!(
        again.searched + again.resumed,
        report.searched + report.resumed
    );
    assert_eq!(
        std::fs::read(&book1).unwrap(),
        std::fs::read(&book2).unwrap()
    );
    // A state searched with other nodes is refused.
    let other = BuildConfig {
        nodes: 301,
        ..tiny()
    };
    assert!(matches!(
        build(&other, &book2, &state2),
        Err(BuildError::StateNodes { found: 300, .. })
    ));
    std::fs::write(&state2, "garbage\n").unwrap();
    assert!(matches!(
        build(&tiny(), &book2, &state2),
        Err(BuildError::State { line: 1, .. })
    ));
}

#[test]
fn a_russian_book_holds_russian_moves_and_keeps_its_state_apart() {
    let dir = tempfile::tempdir().unwrap();
    let (out, state) = (dir.path().join("ru.book"), dir.path().join("ru.state"));
    let russian = BuildConfig {
        variant: Variant::Russian,
        ..tiny()
    };
    let report = build(&russian, &out, &state).unwrap();
    assert!(report.positions > 1, "{report:?}");
    let book = Book::load_for(&out, Variant::Russian).unwrap();
    assert!(matches!(
        Book::load_for(&out, Variant::Brazilian),
        Err(BookError::WrongVariant { .. })
    ));
    for (pos, moves) in book.iter() {
        let legal = legal_moves(Variant::Russian, pos);
        assert!(moves.iter().all(|m| legal.contains(&m.mv)));
    }
    assert!(std::fs::read_to_string(&state)
        .unwrap()
        .starts_with(&state_header(300, Variant::Russian)));
    // A Brazilian build does not resume from Russian analyses.
    assert!(matches!(
        build(&tiny(), &dir.path().join("br.book"), &state),
        Err(BuildError::StateVariant {
            found: Variant::Russian,
            expected: Variant::Brazilian,
            ..
        })
    ));
}

#[test]
fn kept_moves_lie_within_the_margin() {
    let start = Position::start();
    let legal = legal_moves(Variant::Brazilian, &start);
    let analysis: Analysis = vec![
        (legal[0], Score(20)),
        (legal[1], Score(10)),
        (legal[2], Score(5)),
        (legal[3], Score(4)),
    ];
    let config = BuildConfig {
        margin: Score::centi(15),
        max_moves: 3,
        ..BuildConfig::default()
    };
    let kept = keep(&analysis, &config);
    assert_eq!(
        kept.iter().map(|m| m.weight.0).collect::<Vec<_>>(),
        vec![1000, 667, 500]
    );
}

/// The embedded books are what `damas book build` makes from the shipped analyses
/// (`data/book/*.state`) with its default settings: no position is missing from the
/// state, and the bytes are the same, so the documented command rebuilds them.
#[test]
fn the_embedded_books_are_rebuilt_from_their_states_by_the_defaults() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    for variant in Variant::ALL {
        let shipped = root.join(shipped_book_path(variant));
        let out = dir.path().join(shipped.file_name().unwrap());
        let state = state_path_for(&out);
        std::fs::copy(state_path_for(&shipped), &state).unwrap();
        let config = BuildConfig {
            variant,
            ..BuildConfig::default()
        };
        let report = build(&config, &out, &state).unwrap();
        assert_eq!(report.searched, 0, "{variant}: {report:?}");
        assert!(
            std::fs::read(&out).unwrap() == damas_engine::book::embedded_bytes(variant),
            "{variant}: the embedded book is not what its state builds"
        );
    }
}
