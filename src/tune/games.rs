//! Games as SPSA's objective: each iteration plays its game pairs (one opening, both
//! colours) between the built-in engine at θ+ and at θ−, node-limited or on a clock, through the
//! match machinery ([`run_match`]); the result is the θ+ engine's wins less its losses.

use crate::matches::{make_player, run_match, EngineSpec, Flow, MatchConfig, Opening, PlayerPair};

use super::spsa::Objective;
use super::state::GameSetup;

/// The games a run plays: its setup, the parameters' names (the order of θ), the
/// openings in play order and how many games run at once.
pub struct Games {
    setup: GameSetup,
    names: Vec<String>,
    openings: Vec<Opening>,
    concurrency: usize,
}

impl Games {
    /// Games by `setup` for the parameters `names` from `openings` (iteration `k`
    /// plays the next `setup.pairs` of them, cycling), `concurrency` at once. The
    /// specs are checked here, so that a bad one stops the run before any game.
    pub fn new(
        setup: GameSetup,
        names: Vec<String>,
        openings: Vec<Opening>,
        concurrency: usize,
    ) -> Result<Games, String> {
        if openings.is_empty() {
            return Err("no openings to play".into());
        }
        let games = Games {
            setup,
            names,
            openings,
            concurrency: concurrency.max(1),
        };
        let spec = games.spec("check", &[])?;
        if spec.command.is_some() {
            return Err(
                "the tuned engine is the built-in one: the engine spec takes no cmd=".into(),
            );
        }
        Ok(games)
    }

    /// The spec of the engine at `theta` (each value rounded to a whole number).
    pub fn spec(&self, name: &str, theta: &[f64]) -> Result<EngineSpec, String> {
        let tune: Vec<String> = self
            .names
            .iter()
            .zip(theta)
            .map(|(n, v)| format!("{n}:{}", v.round() as i64))
            .collect();
        let base = self.setup.engine.trim().trim_end_matches(',');
        let mut text = format!("name={name},{}", self.setup.control);
        if !base.is_empty() {
            text = format!("{base},{text}");
        }
        if !tune.is_empty() {
            text.push_str(&format!(",tune={}", tune.join(";")));
        }
        let mut spec: EngineSpec = text
            .parse()
            .map_err(|e: crate::matches::SpecError| e.to_string())?;
        spec.settings.variant = self.setup.variant;
        Ok(spec)
    }
}

impl Objective for Games {
    fn compare(&mut self, k: u64, plus: &[f64], minus: &[f64]) -> Result<f64, String> {
        let pairs = self.setup.pairs.max(1);
        let first = (k as usize - 1) * pairs;
        let openings: Vec<Opening> = (0..pairs)
            .map(|i| self.openings[(first + i) % self.openings.len()].clone())
            .collect();
        let (plus, minus) = (self.spec("plus", plus)?, self.spec("minus", minus)?);
        let config = MatchConfig {
            games: 2 * pairs,
            openings,
            max_plies: self.setup.max_plies,
            event: format!("damas tune, iteration {k}"),
            first_game: 0,
            variant: self.setup.variant,
        };
        let workers = self.concurrency.min(config.games);
        let players = (0..workers)
            .map(|_| -> Result<PlayerPair, String> {
                let p = make_player(&plus).map_err(|e| e.to_string())?;
                let m = make_player(&minus).map_err(|e| e.to_string())?;
                Ok((p, m))
            })
            .collect::<Result<Vec<_>, String>>()?;
        let outcomes = run_match(players, &config, |_| Flow::Continue);
        Ok(outcomes.iter().map(|o| 2.0 * o.first_points - 1.0).sum())
    }
}
