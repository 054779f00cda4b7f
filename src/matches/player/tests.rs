//! Tests of `src/matches/player.rs`.

use super::*;
use damas_engine::book::Book;
use damas_engine::eval::EvalName;
use damas_engine::level::Strength;
use damas_rules::variant::Variant;

#[test]
fn parses_specs() {
    let s: EngineSpec = "techniques=pvs+tt,depth=4,tt-bits=16".parse().unwrap();
    assert_eq!(s.limit, TimeControl::Depth(4));
    assert_eq!(s.setting("tt-bits").as_deref(), Some("16"));
    assert!(s.gave("techniques") && s.settings.techniques.pvs && s.command.is_none());
    let h: EngineSpec = "time=0.5, name=scan, cmd=/opt/scan hub -x=1,2"
        .parse()
        .unwrap();
    assert_eq!(h.command.as_deref(), Some("/opt/scan hub -x=1,2"));
    assert_eq!(h.limit, TimeControl::MoveTime(Duration::from_millis(500)));
    assert_eq!(h.to_string(), "scan");
    assert_eq!(h.settings.strength, Strength::FULL);
    assert!(
        !h.settings.book,
        "match engines play without the book by default"
    );
    assert!(
        "book=true,depth=2"
            .parse::<EngineSpec>()
            .unwrap()
            .settings
            .book
    );
    let l: EngineSpec = "level=club,nodes=1000".parse().unwrap();
    assert_eq!(l.settings.strength.number(), 4);
    assert_eq!(l.limit, TimeControl::Nodes(1000));
    assert_eq!(
        "".parse::<EngineSpec>().unwrap().limit,
        TimeControl::Depth(6)
    );
    let a: EngineSpec = "aspiration=20,nodes=100".parse().unwrap();
    assert_eq!(a.setting("aspiration").as_deref(), Some("20"));
    assert_eq!(
        InternalPlayer::new(&a)
            .engine
            .searcher
            .options()
            .aspiration_delta(),
        20
    );
    let f: EngineSpec = "tt-frontier=false,nodes=100".parse().unwrap();
    assert_eq!(f.setting("tt-frontier").as_deref(), Some("false"));
    assert!(!InternalPlayer::new(&f)
        .engine
        .searcher
        .options()
        .tt_frontier());
    assert!(InternalPlayer::new(&a)
        .engine
        .searcher
        .options()
        .tt_frontier());
    assert!("tt-frontier=maybe".parse::<EngineSpec>().is_err());
    let c: EngineSpec = "clock=60+0.5".parse().unwrap();
    assert_eq!(
        c.limit.game_clock(),
        Some((Duration::from_secs(60), Duration::from_millis(500)))
    );
    assert_eq!(
        "clock=5".parse::<EngineSpec>().unwrap().limit.game_clock(),
        Some((Duration::from_secs(5), Duration::ZERO))
    );
    for bad in [
        "depth=0",
        "depth=x",
        "speed=3",
        "techniques=foo",
        "cmd=",
        "tt-bits=99",
        "time=-1",
        "time=0",
        "time=inf",
        "nodes=0",
        "nodes=-5",
        "depth",
        "clock=0+1",
        "clock=40/60+1",
        "clock=a+1",
        "level=11",
        "aspiration=0",
        "aspiration=wide",
        "level=grandmaster",
        "book=sometimes",
        "eval=neural",
        "weights=/nonexistent/weights.bin",
    ] {
        assert!(bad.parse::<EngineSpec>().is_err(), "{bad}");
    }
}

#[test]
fn keys_of_the_built_in_engine_are_refused_with_a_hub_engine() {
    for own in ["aspiration=30", "tt-frontier=false"] {
        let e = format!("{own},cmd=scan hub")
            .parse::<EngineSpec>()
            .unwrap_err()
            .to_string();
        let key = own.split('=').next().unwrap();
        assert!(e.contains(key) && e.contains("built-in engine only"), "{e}");
        assert!(own.parse::<EngineSpec>().is_ok(), "{own}");
    }
}

#[test]
fn book_key_plays_from_the_book() {
    let start = damas_rules::position::Position::start();
    let book = Book::embedded(Variant::Brazilian);
    let in_book: Vec<Move> = book.moves(&start).unwrap().iter().map(|m| m.mv).collect();
    let game = Game::new(Variant::Brazilian, start);
    let spec: EngineSpec = "book=true,depth=1".parse().unwrap();
    let mut player = InternalPlayer::new(&spec);
    let mut seen = std::collections::HashSet::new();
    for seed in 0..32 {
        player.rng = ChaCha8Rng::seed_from_u64(seed);
        let m = player.choose(&game, None).unwrap();
        assert!(in_book.contains(&m), "{m:?} not in {in_book:?}");
        seen.insert(m);
    }
    // Games vary: several first moves across seeds.
    assert!(seen.len() >= 2.min(in_book.len()), "{seen:?}");
}

#[test]
fn eval_and_weights_keys() {
    let s: EngineSpec = "eval=material,depth=2".parse().unwrap();
    assert_eq!(s.settings.eval, EvalName::Material);
    assert_eq!(
        "depth=2".parse::<EngineSpec>().unwrap().settings.eval,
        EvalName::Trained
    );
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("w.bin");
    std::fs::write(&p, b"not weights").unwrap();
    let e = format!("weights={}", p.display())
        .parse::<EngineSpec>()
        .unwrap_err()
        .to_string();
    assert!(e.contains("w.bin") && e.contains("truncated"), "{e}");
    damas_engine::eval::Weights::zero(4).save(&p).unwrap();
    let s: EngineSpec = format!("weights={},depth=1", p.display()).parse().unwrap();
    assert_eq!(s.weights.as_deref(), Some(p.as_path()));
    // Zero weights score every position 0, material does not.
    let pos = damas_rules::fen::parse_fen("W:Wa1,c1:Bh8").unwrap();
    let ev = damas_engine::engine::Sources::weights(s.weights.as_deref())
        .unwrap()
        .unwrap();
    assert_eq!(ev.eval(&pos).value(), 0);
    assert_eq!(
        damas_engine::eval::Evaluation::Material.eval(&pos).value(),
        100
    );
}

#[test]
fn move_numbering_has_the_hub_parameter_name_and_its_older_spelling() {
    for key in ["move-numbering", "numbering"] {
        let s: EngineSpec = format!("{key}=rows-reversed,depth=2").parse().unwrap();
        assert_eq!(s.numbering, MoveNumbering::RowsReversed, "{key}");
    }
}

#[test]
fn an_endgame_database_directory_reaches_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    damas_egdb::slices::build::build_slices(
        Variant::Brazilian,
        dir.path(),
        3,
        &damas_egdb::BuildOptions::default(),
        |_| {},
    )
    .unwrap();
    let text = format!("nodes=100,egdb={}", dir.path().display());
    let spec: EngineSpec = text.parse().unwrap();
    assert_eq!(spec.egdb.as_deref(), Some(dir.path()));
    let options = InternalPlayer::new(&spec).engine.searcher.options().clone();
    assert!(options.oracle().is_some() && options.techniques().egdb);
    // Without the key the engine searches with the built-in 1-4 pieces, unless
    // `builtin-egdb=false`.
    let options_of = |spec: &str| {
        InternalPlayer::new(&spec.parse().unwrap())
            .engine
            .searcher
            .options()
            .clone()
    };
    let plain = options_of("nodes=100");
    let built_in = plain.oracle().expect("the built-in databases");
    assert_eq!(built_in.max_pieces(), 4);
    assert!(plain.techniques().egdb);
    assert!(options_of("nodes=100,builtin-egdb=false")
        .oracle()
        .is_none());
    let russian = options_of("nodes=100,variant=russian");
    let oracle = russian.oracle().expect("the Russian ones");
    assert_eq!(oracle.variant(), damas_rules::Variant::Russian);
    // A directory without databases stops the match before it starts, naming the key.
    let empty = tempfile::tempdir().unwrap();
    let e = format!("egdb={},nodes=100", empty.path().display())
        .parse::<EngineSpec>()
        .unwrap_err();
    assert!(e.reason.starts_with("egdb="), "{e}");
    assert!("egdb=,nodes=100".parse::<EngineSpec>().is_err());
    // A Hub engine opens it itself: the spec only carries it.
    let hub: EngineSpec = "egdb=/no/such/dir,cmd=damas hub".parse().unwrap();
    assert_eq!(
        hub.egdb.as_deref(),
        Some(std::path::Path::new("/no/such/dir"))
    );
}

/// With the built-in databases alone, the default engine wins three kings against
/// one with the lone king off the long diagonal within the 15-move count, from the
/// positions where games of the 1 s match against `cc024e3` drew it.
#[test]
fn the_built_in_databases_win_three_kings_against_one() {
    use crate::matches::openings::Opening;
    use damas_rules::fen::parse_fen;
    use damas_rules::position::Color;
    for fen in ["B:WKf2:BKa1,Kc1,Kh6", "W:WKa5:BKd6,Kd8,Kh8"] {
        let start = parse_fen(fen).unwrap();
        let opening = Opening {
            name: fen.to_string(),
            start,
            moves: Vec::new(),
        };
        let spec: EngineSpec = "nodes=20000".parse().unwrap();
        let (mut white, mut black) = (InternalPlayer::new(&spec), InternalPlayer::new(&spec));
        let game = crate::matches::play_game(
            damas_rules::Variant::Brazilian,
            &mut white,
            &mut black,
            &opening,
            300,
        );
        let strong = if start.kings_of(Color::White).count() == 3 {
            Color::White
        } else {
            Color::Black
        };
        assert_eq!(
            game.winner,
            Some(strong),
            "{fen}: {} after {} plies",
            game.termination,
            game.game.moves().len()
        );
    }
}

#[test]
fn an_unknown_key_is_answered_with_every_key_a_spec_takes() {
    let e = "depth=2,colour=white"
        .parse::<EngineSpec>()
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown key \"colour\""), "{e}");
    for s in &engine_settings::SETTINGS {
        assert!(e.contains(s.key), "{e} omits {}", s.key);
    }
    // Each of the spec's own keys is one it reads: a bad value is refused for
    // what it is, never as an unknown key.
    for key in SPEC_KEYS {
        assert!(e.contains(key), "{e} omits {key}");
        let refused = format!("{key}=-")
            .parse::<EngineSpec>()
            .err()
            .map(|e| e.to_string());
        assert!(
            !refused.as_deref().unwrap_or("").contains("unknown key"),
            "{key}: {refused:?}"
        );
    }
}

#[test]
fn the_time_keys_are_the_time_controls_text_form() {
    for (spec, control) in [
        ("time=0.5", "move-time=0.5"),
        ("move-time=0.5", "move-time=0.5"),
        ("clock=1m+0.5", "clock=60+0.5"),
        ("depth=3", "depth=3"),
        ("nodes=100", "nodes=100"),
    ] {
        let s: EngineSpec = spec.parse().unwrap();
        assert_eq!(s.limit, control.parse::<TimeControl>().unwrap(), "{spec}");
    }
    // The last time key given decides.
    let s: EngineSpec = "depth=6,time=1".parse().unwrap();
    assert_eq!(s.limit, TimeControl::MoveTime(Duration::from_secs(1)));
}
