//! `damas-nodes branching`: the branching factor of Brazilian checkers over uniformly
//! random games (thesis §6.5.1: mean 5.345 over 10^8 games, more than 1/4 of moves
//! forced, most common choice count 7).
//!
//! A random game ends when [`Game::result`] says so: the side to move has no legal move,
//! or one of the draw rules of docs/rules.md applies (threefold repetition, 15 moves each with
//! only kings and no capture, the lone-king rules, equal material for 30/60 moves).
//! These rules end every game, but as a safety net a game is also stopped after
//! [`BranchingSpec::max_plies`] plies (counted and reported). The counts are over the
//! positions in which a move was played (the final position has no decision).

use damas_rules::variant::Variant;
use std::collections::BTreeMap;
use std::fmt::Write;

use damas_egdb::progress::Bar;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use damas_rules::game::Game;
use damas_rules::movegen::legal_moves;
use damas_rules::position::Position;

/// What to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BranchingSpec {
    /// Number of games.
    pub games: u64,
    /// Seed; games are played in chunks with their own ChaCha8 streams, so the result
    /// does not depend on the number of threads.
    pub seed: u64,
    /// Safety cap on a game's length in plies.
    pub max_plies: u32,
}

/// Games per random stream (and per progress step).
const CHUNK: u64 = 1_000;

/// Counts over the random games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BranchingStats {
    /// Games played.
    pub games: u64,
    /// Positions in which a move was played.
    pub decisions: u64,
    /// Sum of the legal-move counts of those positions.
    pub choices: u64,
    /// `histogram[c]` = positions with exactly `c` legal moves.
    pub histogram: BTreeMap<u32, u64>,
    /// Per ply (0 = the start position): (positions, summed choices).
    pub by_ply: BTreeMap<u32, (u64, u64)>,
    /// How the games ended (description → count); `ply cap` for the safety net.
    pub endings: BTreeMap<String, u64>,
}

impl BranchingStats {
    fn merge(&mut self, o: BranchingStats) {
        self.games += o.games;
        self.decisions += o.decisions;
        self.choices += o.choices;
        for (k, v) in o.histogram {
            *self.histogram.entry(k).or_default() += v;
        }
        for (k, (a, b)) in o.by_ply {
            let e = self.by_ply.entry(k).or_default();
            e.0 += a;
            e.1 += b;
        }
        for (k, v) in o.endings {
            *self.endings.entry(k).or_default() += v;
        }
    }

    /// Mean number of legal moves where a move was played.
    pub fn mean(&self) -> f64 {
        self.choices as f64 / self.decisions.max(1) as f64
    }

    /// Share of positions with a single legal move.
    pub fn forced_share(&self) -> f64 {
        self.histogram.get(&1).copied().unwrap_or(0) as f64 / self.decisions.max(1) as f64
    }

    /// The most common choice count among real decisions (two or more moves).
    pub fn mode_of_choices(&self) -> Option<u32> {
        self.histogram
            .iter()
            .filter(|(&c, _)| c >= 2)
            .max_by_key(|(_, &n)| n)
            .map(|(&c, _)| c)
    }

    /// Mean game length in plies.
    pub fn mean_length(&self) -> f64 {
        self.decisions as f64 / self.games.max(1) as f64
    }
}

fn play_chunk(seed: u64, chunk: u64, games: u64, max_plies: u32) -> BranchingStats {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(chunk);
    let mut st = BranchingStats {
        games,
        ..BranchingStats::default()
    };
    for _ in 0..games {
        let mut game = Game::new(Variant::Brazilian, Position::start());
        let mut ply = 0;
        let ending = loop {
            if let Some(r) = game.result() {
                break r.reason.describe().to_string();
            }
            if ply >= max_plies {
                break "ply cap".to_string();
            }
            let moves = legal_moves(Variant::Brazilian, &game.position());
            let n = moves.len() as u32;
            st.decisions += 1;
            st.choices += u64::from(n);
            *st.histogram.entry(n).or_default() += 1;
            let e = st.by_ply.entry(ply).or_default();
            e.0 += 1;
            e.1 += u64::from(n);
            let &mv = moves.choose(&mut rng).expect("a game not over has a move");
            game.play(mv);
            ply += 1;
        };
        *st.endings.entry(ending).or_default() += 1;
    }
    st
}

/// Play the games (in parallel) and count.
pub fn measure(spec: &BranchingSpec, progress: bool) -> BranchingStats {
    let chunks = spec.games.div_ceil(CHUNK);
    let bar = Bar::new(
        progress,
        Some(spec.games),
        "{elapsed_precise} [{wide_bar}] {pos}/{len} games, {eta} left",
    );
    let parts: Vec<BranchingStats> = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let n = CHUNK.min(spec.games - c * CHUNK);
            let s = play_chunk(spec.seed, c, n, spec.max_plies);
            bar.inc(n);
            s
        })
        .collect();
    bar.finish_and_clear();
    let mut total = BranchingStats::default();
    for p in parts {
        total.merge(p);
    }
    total
}

/// The Markdown report of the counts.
pub fn markdown(spec: &BranchingSpec, s: &BranchingStats) -> String {
    let mut m = String::new();
    let _ = writeln!(
        m,
        "Random games: {} (seed {}), {} positions with a move to play, mean length {:.1} plies.\n",
        s.games,
        spec.seed,
        s.decisions,
        s.mean_length()
    );
    let _ = writeln!(m, "| statistic | measured | thesis |\n|---|---:|---:|");
    let _ = writeln!(m, "| mean branching factor | {:.3} | 5.345 |", s.mean());
    let _ = writeln!(
        m,
        "| forced moves (one legal move) | {:.1}% | > 25% |",
        100.0 * s.forced_share()
    );
    let _ = writeln!(
        m,
        "| most common choice count (≥ 2 moves) | {} | 7 |",
        s.mode_of_choices().map_or("–".into(), |c| c.to_string())
    );
    let _ = writeln!(m, "\nHow the games ended (a game ends by `Game::result()`: no legal move or a draw rule of docs/rules.md; safety cap {} plies):\n", spec.max_plies);
    let _ = writeln!(m, "| ending | games |\n|---|---:|");
    for (k, v) in &s.endings {
        let _ = writeln!(m, "| {k} | {v} |");
    }
    let _ = writeln!(
        m,
        "\nChoice counts (fig. 6.3):\n\n| legal moves | share |\n|---:|---:|"
    );
    for (c, n) in &s.histogram {
        let share = 100.0 * *n as f64 / s.decisions.max(1) as f64;
        if share >= 0.05 {
            let _ = writeln!(m, "| {c} | {share:.2}% |");
        }
    }
    let _ = writeln!(m, "\nMean branching factor by ply (fig. 6.2), every 10th ply:\n\n| ply | positions | mean legal moves |\n|---:|---:|---:|");
    for (p, (n, sum)) in s.by_ply.iter().filter(|(p, _)| *p % 10 == 0) {
        let _ = writeln!(m, "| {p} | {n} | {:.2} |", *sum as f64 / (*n).max(1) as f64);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_consistent_and_deterministic() {
        let spec = BranchingSpec {
            games: 60,
            seed: 5,
            max_plies: 3000,
        };
        let a = measure(&spec, false);
        assert_eq!(a, measure(&spec, false));
        assert_eq!(a.games, 60);
        assert_eq!(a.histogram.values().sum::<u64>(), a.decisions);
        assert_eq!(a.endings.values().sum::<u64>(), 60);
        assert!(!a.histogram.contains_key(&0));
        // The start position has 7 moves and is the first decision of every game.
        assert_eq!(a.by_ply[&0], (60, 420));
        assert!(a.mean() > 1.0);
    }

    #[test]
    fn ply_cap_stops_games() {
        let s = measure(
            &BranchingSpec {
                games: 3,
                seed: 1,
                max_plies: 4,
            },
            false,
        );
        assert_eq!(s.endings.get("ply cap"), Some(&3));
        assert_eq!(s.decisions, 12);
    }
}
