//! Engine matches: games between two [`Player`]s from varied openings, each opening
//! played with both colours, ended by the rules and draw rules of [`Game::result`] or a
//! move cap, recorded as PDN, scored with an Elo estimate.

pub mod elo;
pub mod openings;
pub mod player;

use std::time::Instant;

use crate::game::Game;
use crate::moves::Move;
use crate::pdn::PdnGame;
use crate::position::{Color, Position};

pub use elo::{estimate, EloEstimate};
pub use openings::random_openings;
pub use player::{
    make_player, EngineSpec, HubPlayer, InternalPlayer, MoveLimit, Player, PlayerError, SpecError,
};

/// Match settings.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Number of games (openings are played in pairs, colours swapped).
    pub games: usize,
    /// Random plies before the engines take over.
    pub opening_plies: usize,
    /// Seed of the opening generator.
    pub seed: u64,
    /// Plies after which a game is adjudicated a draw.
    pub max_plies: usize,
    /// The `Event` tag.
    pub event: String,
    /// Games already played (resuming): play from this game index on.
    pub first_game: usize,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameOutcome {
    /// The record (opening moves included).
    pub pdn: PdnGame,
    /// Whether the first player had White.
    pub first_is_white: bool,
    /// The first player's points: 1, ½ or 0.
    pub first_points: f64,
    /// Why the game ended.
    pub termination: String,
}

/// Wins, draws and losses of the first player.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Tally {
    /// Games the first player won.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Games the first player lost.
    pub losses: u32,
}

impl Tally {
    /// Count `outcome`.
    pub fn add(&mut self, outcome: &GameOutcome) {
        if outcome.first_points > 0.75 {
            self.wins += 1;
        } else if outcome.first_points > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
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
            let first_is_white = match (g.tag("White"), g.tag("Black")) {
                (Some(w), _) if w == first => true,
                (_, Some(b)) if b == first => false,
                _ => return Err(format!("game {} was not played by {first:?}", i + 1)),
            };
            let first_points = match (g.result.as_deref(), first_is_white) {
                (Some("2-0"), true) | (Some("0-2"), false) => 1.0,
                (Some("1-1"), _) => 0.5,
                (Some("2-0" | "0-2"), _) => 0.0,
                _ => return Err(format!("game {} has no result", i + 1)),
            };
            let outcome = GameOutcome {
                pdn: g.clone(),
                first_is_white,
                first_points,
                termination: String::new(),
            };
            tally.add(&outcome);
        }
        Ok(tally)
    }

    /// Elo estimate with a 95 % margin.
    pub fn elo(&self) -> Option<EloEstimate> {
        estimate(self.wins, self.draws, self.losses, 1.96)
    }
}

/// Play one game: `opening` moves, then the players in turn until the game ends by the
/// rules, a draw rule, the move cap, or a player failing (which loses).
pub fn play_game(
    white: &mut dyn Player,
    black: &mut dyn Player,
    opening: &[Move],
    max_plies: usize,
) -> (Game, Option<Color>, String) {
    let mut game = Game::new(Position::start());
    for &m in opening {
        if !game.play(m) {
            break;
        }
    }
    if let Err(e) = white.new_game() {
        return (
            game,
            Some(Color::Black),
            format!("{} failed: {e}", white.name()),
        );
    }
    if let Err(e) = black.new_game() {
        return (
            game,
            Some(Color::White),
            format!("{} failed: {e}", black.name()),
        );
    }
    // Time left per side in clock games.
    let mut clocks = [white.clock().map(|c| c.0), black.clock().map(|c| c.0)];
    loop {
        if let Some(r) = game.result() {
            return (game, r.winner, r.reason.describe().to_string());
        }
        if game.moves().len() >= max_plies {
            return (
                game,
                None,
                format!("adjudicated draw after {max_plies} plies"),
            );
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
        if let (Some(left), Some((_, inc))) = (clock.as_mut(), player.clock()) {
            let spent = started.elapsed();
            if spent > *left {
                return (
                    game,
                    Some(side.opponent()),
                    format!("{} lost on time", player.name()),
                );
            }
            *left = *left - spent + inc;
        }
        match chosen {
            Ok(m) if game.play(m) => {}
            Ok(m) => {
                return (
                    game,
                    Some(side.opponent()),
                    format!("{} played an illegal move {m:?}", player.name()),
                )
            }
            Err(e) => {
                return (
                    game,
                    Some(side.opponent()),
                    format!("{} failed: {e}", player.name()),
                )
            }
        }
    }
}

/// Play a match of `config.games` games; `on_game` sees each outcome as it finishes.
pub fn run_match(
    first: &mut dyn Player,
    second: &mut dyn Player,
    config: &MatchConfig,
    mut on_game: impl FnMut(&GameOutcome),
) -> Vec<GameOutcome> {
    let pairs = config.games.div_ceil(2);
    let openings = random_openings(pairs, config.opening_plies, config.seed);
    let mut outcomes = Vec::with_capacity(config.games);
    for i in config.first_game..config.games {
        let opening = &openings[i / 2];
        let first_is_white = i % 2 == 0;
        let (game, winner, termination) = if first_is_white {
            play_game(first, second, opening, config.max_plies)
        } else {
            play_game(second, first, opening, config.max_plies)
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
        let mut pdn = PdnGame::from_game(&game);
        pdn.result = Some(result.to_string());
        pdn.set_tag("Event", config.event.clone());
        pdn.set_tag("Round", (i + 1).to_string());
        pdn.set_tag("White", white);
        pdn.set_tag("Black", black);
        pdn.set_tag("Result", result);
        pdn.set_tag(
            "Opening",
            format!(
                "{} random plies, seed {}, pair {}",
                opening.len(),
                config.seed,
                i / 2 + 1
            ),
        );
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
        let outcome = GameOutcome {
            pdn,
            first_is_white,
            first_points,
            termination,
        };
        on_game(&outcome);
        outcomes.push(outcome);
    }
    outcomes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdn::{read_games, write_games};

    #[test]
    fn short_match_between_two_depths_is_recorded_and_scored() {
        let mut a = InternalPlayer::new(&"depth=3,name=d3".parse().unwrap());
        let mut b = InternalPlayer::new(&"depth=1,name=d1".parse().unwrap());
        let config = MatchConfig {
            games: 2,
            opening_plies: 2,
            seed: 3,
            max_plies: 80,
            event: "test".into(),
            first_game: 0,
        };
        let mut seen = 0;
        let outcomes = run_match(&mut a, &mut b, &config, |_| seen += 1);
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
            &mut a,
            &mut b,
            &MatchConfig {
                first_game: 1,
                ..config
            },
            |_| {},
        );
        assert_eq!(resumed.len(), 1);
        assert_eq!(resumed[0].pdn.moves, outcomes[1].pdn.moves);
        assert_eq!(Tally::from_records(&back, "d3"), Ok(tally));
    }

    #[test]
    fn clock_games_are_played_within_the_clock() {
        let spec: EngineSpec = "clock=1+0.1".parse().unwrap();
        let (mut a, mut b) = (InternalPlayer::new(&spec), InternalPlayer::new(&spec));
        let config = MatchConfig {
            games: 2,
            opening_plies: 2,
            seed: 5,
            max_plies: 30,
            event: "clock".into(),
            first_game: 0,
        };
        for o in run_match(&mut a, &mut b, &config, |_| {}) {
            assert!(!o.termination.contains("on time"), "{}", o.termination);
        }
    }
}
