use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::fen::parse_fen;
use crate::movegen::legal_moves;
use crate::notation::{move_to_string, parse_move, Notation};

fn moves_from(start: Position, texts: &[&str]) -> Vec<Move> {
    let mut pos = start;
    texts
        .iter()
        .map(|t| {
            let m = parse_move(Variant::Brazilian, &pos, t).unwrap();
            pos = pos.play(m);
            m
        })
        .collect()
}

const SAMPLE: &str = r#"[Event "Club, round 1"]
[White "Ana \"A\" Silva"]
[Black "Bruno"]
[Result "2-0"]
[GameType "26,W,8,8,A0,0"]

1. c3-d4 {a common start} f6-e5 2. d4xf6 g7xe5 (2... e7xg5) $1
3. 21-17! 1... 2-0

[Event "second"]
[FEN "B:W21,22,K18:B1-3"]
1... 1-5 2. 18-14 *
"#;

#[test]
fn reads_tags_moves_comments_variations_and_several_games() {
    let games = read_games(SAMPLE).unwrap();
    assert_eq!(games.len(), 2);
    let g = &games[0];
    assert_eq!(g.tag("White"), Some("Ana \"A\" Silva"));
    assert_eq!(g.tag("Event"), Some("Club, round 1"));
    assert_eq!(g.start, Position::start());
    assert_eq!(
        g.moves,
        moves_from(
            Position::start(),
            &["c3-d4", "f6-e5", "d4xf6", "g7xe5", "a3-b4"]
        )
    );
    assert_eq!(g.result.as_deref(), Some("2-0"));
    let after_capture = g.moves[..3]
        .iter()
        .fold(Position::start(), |p, &m| p.play(m));
    assert_eq!(
        g.variations_at(3),
        [Variation {
            moves: moves_from(after_capture, &["e7xg5"]),
            ..Variation::default()
        }]
    );
    let h = &games[1];
    assert_eq!(h.start, parse_fen("B:W21,22,K18:B1-3").unwrap());
    assert_eq!(h.moves.len(), 2);
    assert_eq!(h.result.as_deref(), Some("*"));
}

#[test]
fn players_colours_and_points_come_from_the_tags_and_the_result() {
    let text = "[White \"a\"]\n[Black \"b\"]\n\n1. c3-d4 0-2\n\n\
                [White \"b\"]\n[Black \"a\"]\n\n1. c3-d4 1-1\n\n\
                [White \"a\"]\n[Black \"b\"]\n\n1. c3-d4 *\n";
    let games = read_games(text).unwrap();
    assert_eq!(games[0].color_of("a"), Some(Color::White));
    assert_eq!(games[0].color_of("b"), Some(Color::Black));
    assert_eq!(games[0].color_of("c"), None);
    assert_eq!(games[0].half_points(Color::White), Some(0));
    assert_eq!(games[0].half_points(Color::Black), Some(2));
    assert_eq!(games[1].half_points(Color::White), Some(1));
    assert_eq!(games[1].half_points(Color::Black), Some(1));
    assert_eq!(games[2].half_points(Color::White), None);
}

#[test]
fn writes_black_first_games_with_ellipsis_and_fen() {
    let start = parse_fen("B:W21,22,K18:B1-3").unwrap();
    let moves = moves_from(start, &["1-5", "18-14", "5-9"]);
    let g = PdnGame::new(Variant::Brazilian, start, moves, Some("1-1".into()));
    let text = write_game(&g);
    assert!(text.contains("[GameType \"26,W,8,8,A0,0\"]"), "{text}");
    assert!(text.contains("[FEN \""), "{text}");
    assert!(text.contains("1... b8-a7 2. d4-c5 a7-b6 1-1"), "{text}");
    assert_eq!(read_games(&text).unwrap(), vec![g]);
}

#[test]
fn writes_one_number_per_pair() {
    let moves = moves_from(Position::start(), &["c3-d4", "f6-e5", "d4xf6"]);
    let g = PdnGame::new(
        Variant::Brazilian,
        Position::start(),
        moves,
        Some("*".into()),
    );
    let text = write_game(&g);
    assert!(text.contains("\n1. c3-d4 f6-e5 2. d4xf6 *\n"), "{text}");
    assert!(!text.contains("FEN"));
}

#[test]
fn round_trip_of_read_games_is_stable() {
    let games = read_games(SAMPLE).unwrap();
    let text = write_games(&games);
    let again = read_games(&text).unwrap();
    assert_eq!(again.len(), games.len());
    for (a, b) in games.iter().zip(&again) {
        assert_eq!(
            (a.start, &a.moves, &a.result),
            (b.start, &b.moves, &b.result)
        );
    }
    assert_eq!(write_games(&again), text);
}

#[test]
fn game_conversions() {
    let mut game = Game::new(Variant::Brazilian, Position::start());
    for m in moves_from(Position::start(), &["c3-d4", "f6-e5"]) {
        assert!(game.play(m));
    }
    let pdn = PdnGame::from(&game);
    assert_eq!(pdn.result, None);
    let back = Game::try_from(&pdn).unwrap();
    assert_eq!(back.moves(), game.moves());
    let finished = Game::new(Variant::Brazilian, parse_fen("B:Wa1,c1:Bb2").unwrap());
    assert_eq!(PdnGame::from_game(&finished).result.as_deref(), Some("2-0"));
    let mut bad = pdn.clone();
    bad.moves.push(bad.moves[0]);
    let err = bad.to_game().unwrap_err();
    assert_eq!(
        err.mv,
        Some(MoveNumber {
            number: 2,
            black: false
        })
    );
}

/// Each malformed text with the expected (game, move, line, column) and error kind.
#[test]
fn malformed_files_report_where_and_why() {
    type Check = fn(&PdnErrorKind) -> bool;
    type Case = (
        &'static str,
        usize,
        Option<&'static str>,
        usize,
        usize,
        Check,
    );
    let cases: Vec<Case> = vec![
        ("1. c3-e5", 1, Some("1"), 1, 4, |k| {
            matches!(k, PdnErrorKind::Move(MoveError::Illegal { .. }))
        }),
        ("1. c3-d4 f6-e5 2. zz-d4", 1, Some("2"), 1, 19, |k| {
            matches!(k, PdnErrorKind::Move(MoveError::Syntax { .. }))
        }),
        (
            "1. c3-d4 *\n\n1. c3-d4 d4-e5",
            2,
            Some("1..."),
            3,
            10,
            |k| matches!(k, PdnErrorKind::Move(_)),
        ),
        ("[Event \"x\"\n1. c3-d4", 1, None, 1, 11, |k| {
            matches!(k, PdnErrorKind::BadTag(_))
        }),
        ("[Event x]", 1, None, 1, 8, |k| {
            matches!(k, PdnErrorKind::BadTag(_))
        }),
        ("1. c3-d4 {open", 1, None, 1, 10, |k| {
            matches!(k, PdnErrorKind::Unterminated("comment"))
        }),
        ("1. c3-d4 (1. e3-f4 (1. a3-b4)", 1, None, 1, 10, |k| {
            matches!(k, PdnErrorKind::Unterminated("variation"))
        }),
        ("1. c3-d4 )", 1, None, 1, 10, |k| {
            matches!(k, PdnErrorKind::Unexpected(')'))
        }),
        ("[GameType \"20\"]\n1. 32-28", 1, None, 2, 4, |k| {
            matches!(k, PdnErrorKind::GameType(_))
        }),
        ("[GameType \"20\"]\n1. 32-28", 1, None, 2, 4, |k| {
            matches!(k, PdnErrorKind::GameType(_))
        }),
        ("[FEN \"W:Wz9:B1\"]\n1. 22-18", 1, None, 2, 4, |k| {
            matches!(k, PdnErrorKind::Fen(_))
        }),
        (
            "[FEN \"W:Wa1:Bb2,c3\"]\n1. a1-b2",
            1,
            Some("1"),
            2,
            4,
            |k| matches!(k, PdnErrorKind::AfterEnd(_)),
        ),
        (
            "[FEN \"W:Wa1:Bh8\"]\n1. a1-b2 h8-g7 2. b2-c3 g7-f6 3. c3-b4 f6-d4",
            1,
            Some("3..."),
            2,
            40,
            |k| matches!(k, PdnErrorKind::Move(_)),
        ),
        (
            "[FEN \"B:Wa1:Bb2,d4\"]\n1... b2xa1",
            1,
            Some("1..."),
            2,
            6,
            |k| matches!(k, PdnErrorKind::Move(_)),
        ),
        (
            "[FEN \"B:Wc1,e1:Bd2\"]\n1... d2-c1 2. e1-f2",
            1,
            Some("1..."),
            2,
            6,
            |k| matches!(k, PdnErrorKind::AfterEnd(_)),
        ),
    ];
    for (text, game, mv, line, column, check) in cases {
        let e = read_games(text).expect_err(text);
        assert_eq!(e.game, game, "{text}: {e}");
        assert_eq!(e.mv.map(|m| m.to_string()).as_deref(), mv, "{text}: {e}");
        assert_eq!((e.line, e.column), (line, column), "{text}: {e}");
        assert!(check(&e.kind), "{text}: {e}");
    }
}

#[test]
fn chess_style_results_are_read_as_draughts_results() {
    let games = read_games("1. c3-d4 1-0 1. c3-d4 0-1 1. c3-d4 1/2-1/2").unwrap();
    let results: Vec<_> = games.iter().map(|g| g.result.as_deref()).collect();
    assert_eq!(results, [Some("2-0"), Some("0-2"), Some("1-1")]);
}

#[test]
fn move_after_the_end_is_reported() {
    let e = read_games("[FEN \"B:Wa1,c1:Bb2\"]\n1... b2-a3").unwrap_err();
    assert!(matches!(e.kind, PdnErrorKind::AfterEnd(_)), "{e}");
    assert_eq!(
        e.to_string(),
        "game 1 move 1... (line 2, column 6): move \"b2-a3\" after the end of the game"
    );
}

fn random_game(seed: u64, prefix: usize, len: usize) -> PdnGame {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut start = Position::start();
    let mut pos = start;
    let mut moves = Vec::new();
    for i in 0..prefix + len {
        let legal = legal_moves(Variant::Brazilian, &pos);
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.gen_range(0..legal.len())];
        pos = pos.play(m);
        if i < prefix {
            start = pos;
        } else {
            moves.push(m);
        }
    }
    let result = ["2-0", "1-1", "0-2", "*"][rng.gen_range(0..4)];
    PdnGame::new(Variant::Brazilian, start, moves, Some(result.to_string()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn random_games_round_trip(seed in any::<u64>(), prefix in 0usize..30, len in 0usize..120) {
        let g = random_game(seed, prefix, len);
        let text = write_game(&g);
        let back = read_games(&text).unwrap();
        prop_assert_eq!(back, vec![g.clone()]);
        // The numeric form of the same moves reads back too.
        let mut pos = g.start;
        let mut numeric = String::new();
        for &m in &g.moves {
            numeric.push_str(&move_to_string(Variant::Brazilian, &pos, m, Notation::Numeric));
            numeric.push(' ');
            pos = pos.play(m);
        }
        let fen = crate::fen::to_fen_numeric(&g.start);
        let again = read_games(&format!("[FEN \"{fen}\"]\n{numeric}")).unwrap();
        prop_assert_eq!(&again[0].moves, &g.moves);
    }

    #[test]
    fn garbage_never_panics(text in "[\\[\\]{}()a-h1-9x:. \"\\n*-]{0,80}") {
        let _ = read_games(&text);
    }
}

#[test]
fn a_result_contradicting_the_final_position_is_reported() {
    // White's last move leaves Black without a move: 2-0 is right, 0-2 and 1-1 are not.
    let start = "[FEN \"W:Wc3:Bd4\"]\n";
    let good = read_games(&format!("{start}1. c3xe5 2-0\n")).unwrap();
    assert_eq!(check_result(&good[0]), Ok(()));
    for wrong in ["0-2", "1-1"] {
        let g = read_games(&format!("{start}1. c3xe5 {wrong}\n")).unwrap();
        let e = check_result(&g[0]).unwrap_err();
        assert!(e.to_string().contains("White wins"), "{e}");
    }
    // An unfinished game may carry any result (resignation, agreement), `*` too.
    let g = read_games("1. c3-d4 0-2\n").unwrap();
    assert_eq!(check_result(&g[0]), Ok(()));
    // The tag and the token must agree.
    let g = read_games("[Result \"2-0\"]\n1. c3-d4 0-2\n").unwrap();
    assert!(check_result(&g[0]).is_err());
}

#[test]
fn written_games_carry_the_seven_tag_roster() {
    let text = write_game(&PdnGame::new(
        Variant::Brazilian,
        Position::start(),
        vec![],
        None,
    ));
    for tag in ["Event", "Date", "White", "Black", "Result"] {
        assert!(text.contains(&format!("[{tag} ")), "{tag} in {text}");
    }
}

/// Found by the `pdn` fuzz target: an error inside a tag whose value holds a
/// multi-byte character cut the text off inside that character.
#[test]
fn errors_after_multibyte_characters_do_not_panic() {
    let text = "[Event \u{78a}\"]ent \"t\"]\n[[Result1-0\"]\n[FEN \"W:W10-32:B-32\"]\n1. c3-d4\n";
    let err = read_games(text).expect_err("malformed tags");
    assert!(err.to_string().contains("line"), "{err}");
}

/// A Russian game: its `GameType` picks the rules for reading (a crowned man's king
/// capture, no Brazilian move), and it is written back with the same `GameType`.
#[test]
fn russian_games_read_and_write_by_their_game_type() {
    use crate::variant::Variant;
    let text = "[GameType \"25\"]\n[FEN \"W:Wf6:Bc7,e7\"]\n1. f6xa5 *";
    let games = read_games(text).unwrap();
    assert_eq!(games[0].variant(), Variant::Russian);
    assert!(games[0].moves[0].crowned());
    let game = games[0].to_game().unwrap();
    assert_eq!(game.variant(), Variant::Russian);
    let written = write_game(&PdnGame::from_game(&game));
    assert!(
        written.contains("[GameType \"25,W,8,8,A0,0\"]"),
        "{written}"
    );
    assert!(written.contains("f6xa5"), "{written}");
    assert_eq!(read_games(&written).unwrap()[0].moves, games[0].moves);
    // The same move under the Brazilian rules is illegal.
    let brazilian = text.replace("\"25\"", "\"26\"");
    assert!(read_games(&brazilian).is_err());
    assert!(read_games(&text.replace("[GameType \"25\"]\n", "")).is_err());
}

#[test]
fn comments_after_moves_are_kept_and_written_back() {
    let text = "{before} 1. c3-d4 {[%emt 0:00:00.150]} {second} f6-e5 2. d4xf6 { a } g7xe5 *";
    let games = read_games(text).unwrap();
    let g = &games[0];
    assert_eq!(g.moves.len(), 4);
    assert_eq!(
        g.comments,
        vec![
            (0, "[%emt 0:00:00.150] second".to_string()),
            (2, "a".to_string())
        ]
    );
    assert_eq!(g.comment(1), None);
    let written = write_game(g);
    assert!(
        written.contains("1. c3-d4 {[%emt 0:00:00.150] second} f6-e5 2. d4xf6 {a} g7xe5 *"),
        "{written}"
    );
    let back = &read_games(&written).unwrap()[0];
    assert_eq!((&back.moves, &back.comments), (&g.moves, &g.comments));
    // A brace inside a comment's text cannot end it early.
    let mut h = g.clone();
    h.add_comment(3, "x}y");
    assert_eq!(h.comment(3), Some("x)y"));
    assert_eq!(read_games(&write_game(&h)).unwrap()[0].comments, h.comments);
    // Nor in one set on the field directly: the writer keeps the record readable.
    h.comments = vec![(1, "a}b".to_string())];
    let back = read_games(&write_game(&h)).unwrap();
    assert_eq!(back[0].comments, vec![(1, "a)b".to_string())]);
}

/// A game with a comment in a variation, a variation inside a variation, two
/// variations of one move and a variation of Black's move after a comment.
const TREE: &str = r#"[Event "tree"]
[Result "*"]
[GameType "26,W,8,8,A0,0"]

1. c3-d4 {main} (1. e3-f4 {side} f6-g5 (1... b6-a5 2. f4-e5) 2. g3-h4) (1. a3-b4)
1... f6-e5 (1... b6-c5 2. d4xb6) 2. d4xf6 g7xe5 *
"#;

#[test]
fn nested_variations_and_their_comments_are_read() {
    let games = read_games(TREE).unwrap();
    let g = &games[0];
    assert_eq!(g.moves.len(), 4);
    let start = Position::start();
    let first = g.variations_at(0);
    assert_eq!(first.len(), 2);
    assert_eq!(
        first[0].moves,
        moves_from(start, &["e3-f4", "f6-g5", "g3-h4"])
    );
    assert_eq!(first[0].comment(0), Some("side"));
    let inner = first[0].variations_at(1);
    let after = moves_from(start, &["e3-f4"]);
    assert_eq!(
        inner[0].moves,
        moves_from(start.play(after[0]), &["b6-a5", "f4-e5"])
    );
    assert_eq!(first[1].moves, moves_from(start, &["a3-b4"]));
    assert_eq!(g.variations_at(1)[0].moves.len(), 2);
    assert_eq!(g.comment(0), Some("main"));
}

#[test]
fn variations_round_trip_through_the_writer() {
    let games = read_games(TREE).unwrap();
    let text = write_games(&games);
    assert!(
        text.contains("(1. e3-f4 {side} f6-g5 (1... b6-a5 2. f4-e5) 2. g3-h4)"),
        "{text}"
    );
    assert!(
        text.contains("1... f6-e5 (1... b6-c5 2. d4xb6) 2. d4xf6"),
        "{text}"
    );
    assert_eq!(read_games(&text).unwrap(), games);
}

#[test]
fn an_illegal_move_in_a_variation_is_reported_where_it_stands() {
    // Black's man cannot go back to f6 in the inner variation.
    let text = "1. c3-d4 f6-e5 (1... f6-g5 2. d4-c5 (2. d4-e5 g5-f6) b6xd4) *";
    let e = read_games(text).unwrap_err();
    assert_eq!(e.mv.map(|m| m.to_string()).as_deref(), Some("2..."), "{e}");
    assert_eq!((e.line, e.column), (1, 47), "{e}");
    assert!(matches!(e.kind, PdnErrorKind::Move(_)), "{e}");
    // A variation before any move, or one left open, is refused.
    assert!(matches!(
        read_games("(1. c3-d4) 1. e3-f4 *").unwrap_err().kind,
        PdnErrorKind::Unexpected('(')
    ));
    let e = read_games("1. c3-d4 (1. e3-f4 *").unwrap_err();
    assert_eq!(
        (e.kind, e.column),
        (PdnErrorKind::Unterminated("variation"), 10)
    );
}
