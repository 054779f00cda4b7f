//! Tests of `src/matches/mod.rs`.

use super::*;
use damas_rules::pdn::{read_games, write_games};

fn internal(spec: &str) -> Box<dyn Player + Send> {
    Box::new(InternalPlayer::new(&spec.parse().unwrap()))
}

fn pairs(n: usize, first: &str, second: &str) -> Vec<PlayerPair> {
    (0..n)
        .map(|_| (internal(first), internal(second)))
        .collect()
}

fn config(games: usize, openings: Vec<Opening>, max_plies: usize) -> MatchConfig {
    MatchConfig {
        games,
        openings,
        max_plies,
        event: "test".into(),
        first_game: 0,
        variant: Variant::Brazilian,
    }
}

#[test]
fn short_match_between_two_depths_is_recorded_and_scored() {
    let config = config(2, random_opening_list(Variant::Brazilian, 1, 2, 3), 80);
    let mut seen = 0;
    let outcomes = run_match(
        pairs(1, "depth=3,name=d3", "depth=1,name=d1"),
        &config,
        |_| {
            seen += 1;
            Flow::Continue
        },
    );
    assert_eq!((outcomes.len(), seen), (2, 2));
    // Same opening, colours swapped.
    assert_eq!(outcomes[0].pdn.moves[..2], outcomes[1].pdn.moves[..2]);
    assert_eq!(
        (outcomes[0].pdn.tag("White"), outcomes[1].pdn.tag("White")),
        (Some("d3"), Some("d1"))
    );
    let mut tally = Tally::default();
    for o in &outcomes {
        tally.add(o);
        let game = o.pdn.to_game().unwrap();
        assert!(
            game.result().is_some() || game.moves().len() == 80,
            "{}",
            o.termination
        );
    }
    assert_eq!(tally.games(), 2);
    let text = write_games(&outcomes.iter().map(|o| o.pdn.clone()).collect::<Vec<_>>());
    let back = read_games(&text).unwrap();
    assert_eq!(back.len(), 2);
    assert_eq!(back[1].moves, outcomes[1].pdn.moves);
    // Resuming at game 2 replays exactly the second game.
    let resumed = run_match(
        pairs(1, "depth=3,name=d3", "depth=1,name=d1"),
        &MatchConfig {
            first_game: 1,
            ..config
        },
        |_| Flow::Continue,
    );
    assert_eq!(resumed.len(), 1);
    assert_eq!(resumed[0].index, 1);
    assert_eq!(resumed[0].pdn.moves, outcomes[1].pdn.moves);
    assert_eq!(Tally::from_records(&back, "d3"), Ok(tally));
}

#[test]
fn ballot_games_start_from_the_ballot_and_replay() {
    let ballots = fmjd_ballots().unwrap();
    let config = config(3, ballots[..1].to_vec(), 16);
    let outcomes = run_match(pairs(1, "depth=2", "depth=1"), &config, |_| Flow::Continue);
    assert_eq!(outcomes.len(), 3);
    // 3 games from one opening: cycled, colours alternating.
    assert_eq!(
        outcomes
            .iter()
            .map(|o| o.first_is_white)
            .collect::<Vec<_>>(),
        [true, false, true]
    );
    let text = write_games(&outcomes.iter().map(|o| o.pdn.clone()).collect::<Vec<_>>());
    let back = read_games(&text).unwrap();
    for (o, g) in outcomes.iter().zip(&back) {
        assert_eq!(g.start, ballots[0].start);
        assert_eq!(
            g.tag("FEN"),
            Some(damas_rules::fen::to_fen(&ballots[0].start).as_str())
        );
        assert_eq!(g.tag("Opening"), Some("1-I cd4 ba5 dc5"));
        assert_eq!(g.moves, o.pdn.moves);
        assert!(g.to_game().is_ok());
    }
}

#[test]
fn concurrent_match_gives_the_same_games_in_the_same_order() {
    let openings = shuffled(fmjd_ballots().unwrap(), 1);
    let config = config(6, openings, 40);
    let play = |workers: usize| {
        let mut order = Vec::new();
        let outcomes = run_match(
            pairs(workers, "depth=2,name=a", "depth=1,name=b"),
            &config,
            |o| {
                order.push(o.index);
                Flow::Continue
            },
        );
        assert_eq!(order, (0..6).collect::<Vec<_>>());
        outcomes
            .iter()
            .map(|o| (o.pdn.clone(), o.first_points, o.termination.clone()))
            .collect::<Vec<_>>()
    };
    let one = play(1);
    assert_eq!(one.len(), 6);
    assert_eq!(play(2), one);
    assert_eq!(play(3), one);
}

#[test]
fn stopping_keeps_a_prefix_of_the_match() {
    let config = config(8, random_opening_list(Variant::Brazilian, 4, 2, 9), 30);
    for workers in [1, 2] {
        let outcomes = run_match(pairs(workers, "depth=1", "depth=1"), &config, |o| {
            if o.index == 2 {
                Flow::Stop
            } else {
                Flow::Continue
            }
        });
        let indexes: Vec<usize> = outcomes.iter().map(|o| o.index).collect();
        assert_eq!(indexes, [0, 1, 2], "{workers} workers");
    }
}

#[test]
fn clock_games_are_played_within_the_clock() {
    let config = config(2, random_opening_list(Variant::Brazilian, 1, 2, 5), 30);
    for o in run_match(pairs(1, "clock=1+0.1", "clock=1+0.1"), &config, |_| {
        Flow::Continue
    }) {
        assert!(!o.termination.contains("on time"), "{}", o.termination);
    }
}

/// The seconds of a `H:MM:SS.mmm` clock text.
fn seconds(text: &str) -> f64 {
    let parts: Vec<f64> = text.split(':').map(|p| p.parse().unwrap()).collect();
    parts[0] * 3600.0 + parts[1] * 60.0 + parts[2]
}

#[test]
fn timed_games_record_each_engine_move_time_and_clock() {
    let opening = random_opening_list(Variant::Brazilian, 1, 4, 3);
    let timed = config(2, opening.clone(), 24);
    let outcomes = run_match(pairs(1, "clock=2+0.1", "time=0.02"), &timed, |_| {
        Flow::Continue
    });
    for o in &outcomes {
        let g = &o.pdn;
        let first = opening[0].moves.len();
        // Every engine move has its comment, the opening's moves none.
        let plies: Vec<usize> = g.comments.iter().map(|(p, _)| *p).collect();
        assert_eq!(plies, (first..g.moves.len()).collect::<Vec<_>>(), "{g:?}");
        let clock_is_white = o.first_is_white;
        let first_side = g.start.side_to_move();
        for (ply, text) in &g.comments {
            let white = (first_side == Color::White) == (ply % 2 == 0);
            let emt = text.strip_prefix("[%emt ").unwrap();
            let (emt, clk) = emt.split_once(']').unwrap();
            assert!(seconds(emt) < 2.0, "{text}");
            if white == clock_is_white {
                // The clock after the move: what was left, less the move, plus 0.1.
                let clk = clk
                    .strip_prefix(" [%clk ")
                    .unwrap()
                    .strip_suffix(']')
                    .unwrap();
                assert!(
                    seconds(clk) > 0.0 && seconds(clk) <= 2.0 + 0.1 * 24.0,
                    "{text}"
                );
            } else {
                assert_eq!(clk, "", "a fixed time per move has no clock: {text}");
            }
        }
        // The comments are written into the record and read back.
        let back = read_games(&write_games(std::slice::from_ref(g))).unwrap();
        assert_eq!(back[0].comments, g.comments);
    }
    // Node-limited games have none, so their records stay the same from run to run.
    let counted = config(1, opening, 24);
    let o = &run_match(pairs(1, "nodes=500", "depth=2"), &counted, |_| {
        Flow::Continue
    })[0];
    assert!(o.pdn.comments.is_empty());
}

#[test]
fn tally_counts_game_pairs_in_match_order() {
    let mut t = Tally::default();
    // Pairs: (1, 0), (½, ½), (1, 1); the last game waits for its partner.
    for points in [1.0, 0.0, 0.5, 0.5, 1.0, 1.0, 0.0] {
        t.add_points(points);
    }
    assert_eq!((t.wins, t.draws, t.losses), (3, 2, 2));
    assert_eq!(t.pairs, [0, 0, 2, 0, 1]);
    assert_eq!(t.pending, Some(0));
    assert_eq!(t.pair_count(), 3);
    // Its partner completes a pair scoring ½.
    t.add_points(0.5);
    assert_eq!(t.pairs, [0, 1, 2, 0, 1]);
    assert_eq!(t.pending, None);
    // The test runs on the pairs: the same wins and losses, paired otherwise,
    // weigh differently. Each player winning one game of every pair says the two
    // are even; two pairs won outright, one a side, say much less.
    let sprt: Sprt = "0,50".parse().unwrap();
    let tally = |points: &[f64]| {
        let mut t = Tally::default();
        for &p in points {
            t.add_points(p);
        }
        t
    };
    let split = tally(&[1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0]);
    let swept = tally(&[1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0]);
    assert_eq!((split.wins, split.losses), (swept.wins, swept.losses));
    assert_eq!(split.pairs, [0, 0, 4, 0, 0]);
    assert_eq!(swept.pairs, [2, 0, 0, 0, 2]);
    let (a, b) = (split.sprt(&sprt).llr, swept.sprt(&sprt).llr);
    assert!(a < b && b < 0.0, "{a} {b}");
}
