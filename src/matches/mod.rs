//! Engine matches: games between two [`Player`]s from varied openings, each opening
//! played with both colours, ended by the rules and draw rules of [`Game::result`] or a
//! move cap, recorded as PDN, scored with an Elo estimate.

pub mod elo;
pub mod endings;
pub mod hub_params;
pub mod openings;
pub mod player;
pub mod report;
pub mod sprt;
pub mod times;
pub mod unbalanced;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use damas_engine::time::TimeControl;
use damas_rules::game::Game;
use damas_rules::pdn::PdnGame;
use damas_rules::position::Color;
use damas_rules::variant::Variant;

pub use elo::{
    estimate, estimate_pairs, los, normalized_games, normalized_pairs, EloEstimate, NormalizedElo,
};
pub use openings::{
    fmjd_ballot, fmjd_ballots, load_openings, parse_openings, random_opening_list, random_openings,
    shuffled, Opening, OpeningsError, BALLOT_COUNT,
};
pub use player::{
    make_player, EngineSpec, HubPlayer, InternalPlayer, Player, PlayerError, SpecError,
};
pub use report::Report;
pub use sprt::{Decision, EloModel, Sprt, SprtError, SprtState};

/// Match settings.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Number of games, or the most games when an SPRT may stop the match earlier.
    pub games: usize,
    /// The openings in the order they are played: game `i` is played from opening
    /// `i / 2` (cycling when there are more game pairs than openings), the first
    /// player having White in even games and Black in odd ones.
    pub openings: Vec<Opening>,
    /// Plies after which a game is adjudicated a draw (opening moves included).
    pub max_plies: usize,
    /// The `Event` tag.
    pub event: String,
    /// Games already played (resuming): play from this game index on.
    pub first_game: usize,
    /// The rules the games are played and refereed by (the PDN's `GameType`).
    pub variant: Variant,
}

/// The rules of a match: `flag` (the match-wide `--variant`) when given, else the
/// `variant` both specs agree on (Brazilian when neither gives one). Both specs are
/// set to it; a spec asking for other rules is an error naming it.
pub fn match_variant(
    flag: Option<Variant>,
    specs: [&mut EngineSpec; 2],
) -> Result<Variant, String> {
    let given: Vec<Variant> = specs
        .iter()
        .filter(|s| s.gave("variant"))
        .map(|s| s.settings.variant)
        .collect();
    let variant = flag.or(given.first().copied()).unwrap_or_default();
    for (i, spec) in specs.into_iter().enumerate() {
        if spec.gave("variant") && spec.settings.variant != variant {
            return Err(format!(
                "engine{}: variant={} but the match plays {variant}",
                i + 1,
                spec.settings.variant
            ));
        }
        spec.settings.variant = variant;
    }
    Ok(variant)
}

impl MatchConfig {
    /// The opening of game `index` (0-based) and whether the first player has White.
    pub fn opening_of(&self, index: usize) -> Option<(&Opening, bool)> {
        if self.openings.is_empty() {
            return None;
        }
        Some((
            &self.openings[(index / 2) % self.openings.len()],
            index.is_multiple_of(2),
        ))
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameOutcome {
    /// Game number from 0 (the record's `Round` is one more).
    pub index: usize,
    /// The record (opening moves included).
    pub pdn: PdnGame,
    /// Whether the first player had White.
    pub first_is_white: bool,
    /// The first player's points: 1, ½ or 0.
    pub first_points: f64,
    /// Why the game ended.
    pub termination: String,
}

/// Whether the match goes on after a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flow {
    /// Play on.
    Continue,
    /// Stop: no more games are started and games in progress are abandoned.
    Stop,
}

/// The two players of one worker: the first and the second engine of the match.
pub type PlayerPair = (Box<dyn Player + Send>, Box<dyn Player + Send>);

/// Wins, draws and losses of the first player, and the same by game pairs.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Tally {
    /// Games the first player won.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Games the first player lost.
    pub losses: u32,
    /// Game pairs (games `2k` and `2k + 1`: one opening, colours swapped) by the
    /// first player's half-points in them: `pairs[k]` pairs scored `k` of 4.
    pub pairs: [u32; 5],
    /// The first player's half-points in the first game of a pair whose second
    /// game is still to come.
    pub pending: Option<u8>,
}

impl Tally {
    /// Count `outcome`.
    pub fn add(&mut self, outcome: &GameOutcome) {
        self.add_points(outcome.first_points);
    }

    /// Count a game worth `points` to the first player. Games come in match order,
    /// from the first, so every second one completes a pair.
    fn add_points(&mut self, points: f64) {
        let halves: u8 = if points > 0.75 {
            self.wins += 1;
            2
        } else if points > 0.25 {
            self.draws += 1;
            1
        } else {
            self.losses += 1;
            0
        };
        match self.pending.take() {
            Some(first) => self.pairs[usize::from(first + halves)] += 1,
            None => self.pending = Some(halves),
        }
    }

    /// Complete game pairs counted.
    pub fn pair_count(&self) -> u32 {
        self.pairs.iter().sum()
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first player's points.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// The tally of games already recorded, from the view of the player named
    /// `first` (who must be `White` or `Black` in each).
    pub fn from_records(games: &[PdnGame], first: &str) -> Result<Tally, String> {
        let mut tally = Tally::default();
        for (i, g) in games.iter().enumerate() {
            let color = g
                .color_of(first)
                .ok_or_else(|| format!("game {} was not played by {first:?}", i + 1))?;
            let halves = g
                .half_points(color)
                .ok_or_else(|| format!("game {} has no result", i + 1))?;
            tally.add_points(f64::from(halves) / 2.0);
        }
        Ok(tally)
    }

    /// Elo estimate with a 95 % interval, the games taken one by one.
    pub fn elo(&self) -> Option<EloEstimate> {
        estimate(self.wins, self.draws, self.losses, 1.96)
    }

    /// Elo estimate with a 95 % interval from the complete game pairs.
    pub fn elo_pairs(&self) -> Option<EloEstimate> {
        estimate_pairs(&self.pairs, 1.96)
    }

    /// Normalized Elo with a 95 % interval from the complete game pairs.
    pub fn nelo_pairs(&self) -> Option<NormalizedElo> {
        normalized_pairs(&self.pairs, 1.96)
    }

    /// Normalized Elo with a 95 % interval, the games taken one by one.
    pub fn nelo_games(&self) -> Option<NormalizedElo> {
        normalized_games(self.wins, self.draws, self.losses, 1.96)
    }

    /// The state of `sprt` after these games: its test runs on the complete pairs.
    pub fn sprt(&self, sprt: &Sprt) -> SprtState {
        sprt.state(&self.pairs)
    }
}

/// A game played to its end.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The game, from the opening's start position.
    pub game: Game,
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// How it ended (the PDN's `Termination`).
    pub termination: String,
    /// Each engine move's time as a PDN comment, by ply, where its player plays on
    /// time: `[%emt H:MM:SS.mmm]` the time it took and, on a clock, `[%clk …]` the
    /// clock after it (increment added).
    pub times: Vec<(usize, String)>,
}

/// Play one game under the rules of `variant`: `opening` moves from its start
/// position (as far as they are legal), then the players in turn until the game ends
/// by the rules, a draw rule, the move cap, or a player failing (which loses).
pub fn play_game(
    variant: Variant,
    white: &mut dyn Player,
    black: &mut dyn Player,
    opening: &Opening,
    max_plies: usize,
) -> PlayedGame {
    let never = AtomicBool::new(false);
    play_game_until(variant, white, black, opening, max_plies, &never)
        .expect("a game that is never aborted ends")
}

/// A duration as PDN clock comments write it: `H:MM:SS.mmm`.
fn clock_text(d: Duration) -> String {
    let ms = d.as_millis();
    let (h, m, s) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60);
    format!("{h}:{m:02}:{s:02}.{:03}", ms % 1000)
}

/// [`play_game`], abandoned (`None`) when `abort` is set between two moves.
fn play_game_until(
    variant: Variant,
    white: &mut dyn Player,
    black: &mut dyn Player,
    opening: &Opening,
    max_plies: usize,
    abort: &AtomicBool,
) -> Option<PlayedGame> {
    let mut game = Game::new(variant, opening.start);
    for &m in &opening.moves {
        if !game.play(m) {
            break;
        }
    }
    let mut times = Vec::new();
    let ended = |game: Game, winner: Option<Color>, termination: String, times| {
        Some(PlayedGame {
            game,
            winner,
            termination,
            times,
        })
    };
    if let Err(e) = white.new_game() {
        let why = format!("{} failed: {e}", white.name());
        return ended(game, Some(Color::Black), why, times);
    }
    if let Err(e) = black.new_game() {
        let why = format!("{} failed: {e}", black.name());
        return ended(game, Some(Color::White), why, times);
    }
    // Time left per side in clock games.
    let mut clocks = [white.clock().map(|c| c.0), black.clock().map(|c| c.0)];
    loop {
        if abort.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(r) = game.result() {
            let why = r.reason.describe().to_string();
            return ended(game, r.winner, why, times);
        }
        if game.moves().len() >= max_plies {
            let why = format!("adjudicated draw after {max_plies} plies");
            return ended(game, None, why, times);
        }
        let side = game.position().side_to_move();
        let player: &mut dyn Player = if side == Color::White {
            &mut *white
        } else {
            &mut *black
        };
        let clock = &mut clocks[usize::from(side == Color::Black)];
        let started = Instant::now();
        let chosen = player.choose(&game, *clock);
        let spent = started.elapsed();
        if let (Some(left), Some((_, inc))) = (clock.as_mut(), player.clock()) {
            if spent > *left {
                let why = format!("{} lost on time", player.name());
                return ended(game, Some(side.opponent()), why, times);
            }
            *left = *left - spent + inc;
        }
        let timed = matches!(
            player.limit(),
            TimeControl::MoveTime(_) | TimeControl::Clock { .. }
        );
        let ply = game.moves().len();
        match chosen {
            Ok(m) if game.play(m) => {
                if timed {
                    let mut text = format!("[%emt {}]", clock_text(spent));
                    if let Some(left) = clock {
                        text.push_str(&format!(" [%clk {}]", clock_text(*left)));
                    }
                    times.push((ply, text));
                }
            }
            Ok(m) => {
                let why = format!("{} played an illegal move {m:?}", player.name());
                return ended(game, Some(side.opponent()), why, times);
            }
            Err(e) => {
                let why = format!("{} failed: {e}", player.name());
                return ended(game, Some(side.opponent()), why, times);
            }
        }
    }
}

/// Play game `index` of the match with the players of one worker.
fn play_indexed(
    first: &mut dyn Player,
    second: &mut dyn Player,
    config: &MatchConfig,
    index: usize,
    abort: &AtomicBool,
) -> Option<GameOutcome> {
    let (opening, first_is_white) = config.opening_of(index)?;
    let PlayedGame {
        game,
        winner,
        termination,
        times,
    } = if first_is_white {
        play_game_until(
            config.variant,
            first,
            second,
            opening,
            config.max_plies,
            abort,
        )?
    } else {
        play_game_until(
            config.variant,
            second,
            first,
            opening,
            config.max_plies,
            abort,
        )?
    };
    let (white, black) = if first_is_white {
        (first.name(), second.name())
    } else {
        (second.name(), first.name())
    };
    let result = match winner {
        Some(Color::White) => "2-0",
        Some(Color::Black) => "0-2",
        None => "1-1",
    };
    // Starts at the opening's start position (FEN tag when not the initial one) with
    // the opening moves, so that the record replays.
    let mut pdn = PdnGame::from_game(&game);
    pdn.result = Some(result.to_string());
    pdn.comments = times;
    pdn.set_tag("Event", config.event.clone());
    pdn.set_tag("Round", (index + 1).to_string());
    pdn.set_tag("White", white);
    pdn.set_tag("Black", black);
    pdn.set_tag("Result", result);
    pdn.set_tag("Opening", opening.name.clone());
    pdn.set_tag("Termination", termination.clone());
    let first_colour = if first_is_white {
        Color::White
    } else {
        Color::Black
    };
    let first_points = match winner {
        Some(c) if c == first_colour => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    Some(GameOutcome {
        index,
        pdn,
        first_is_white,
        first_points,
        termination,
    })
}

/// Play games `config.first_game..config.games` with one worker thread per pair of
/// players in `pairs` (games are handed out by index as workers become free).
/// `on_game` sees each outcome in game-index order, whatever order the games finish
/// in; when it returns [`Flow::Stop`] no further game is started, games in progress
/// are abandoned and later finished games are discarded, so the games counted are
/// always a prefix of the match and the same for any number of workers. Returns the
/// outcomes passed to `on_game`.
pub fn run_match(
    pairs: Vec<PlayerPair>,
    config: &MatchConfig,
    mut on_game: impl FnMut(&GameOutcome) -> Flow,
) -> Vec<GameOutcome> {
    let next = AtomicUsize::new(config.first_game);
    let stop = AtomicBool::new(false);
    let mut outcomes = Vec::new();
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<GameOutcome>();
        for (mut first, mut second) in pairs {
            let (tx, next, stop) = (tx.clone(), &next, &stop);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= config.games {
                        break;
                    }
                    let outcome =
                        play_indexed(first.as_mut(), second.as_mut(), config, index, stop);
                    // None: abandoned; a send error: the match is over.
                    if outcome.is_none_or(|o| tx.send(o).is_err()) {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Outcomes that finished ahead of an earlier game, by index.
        let mut waiting = BTreeMap::new();
        let mut expected = config.first_game;
        for outcome in rx {
            if stop.load(Ordering::Relaxed) {
                continue;
            }
            waiting.insert(outcome.index, outcome);
            while let Some(o) = waiting.remove(&expected) {
                expected += 1;
                let flow = on_game(&o);
                outcomes.push(o);
                if flow == Flow::Stop {
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
            }
        }
    });
    outcomes
}

#[cfg(test)]
mod tests;
