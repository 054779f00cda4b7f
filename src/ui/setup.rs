//! Who plays which side and how strong the engine is.

use std::fmt;
use std::time::Duration;

use damas_engine::search::Limits;
use damas_engine::time::{MoveBudget, Spend, TimeControl};
use damas_rules::position::Color;

/// Who makes the moves of one side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Player {
    /// A person at the keyboard.
    Human,
    /// The engine.
    Engine,
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::Human => "human",
            Player::Engine => "engine",
        })
    }
}

/// Both sides' players.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Players {
    /// White's player.
    pub white: Player,
    /// Black's player.
    pub black: Player,
}

impl Default for Players {
    fn default() -> Self {
        Players {
            white: Player::Human,
            black: Player::Engine,
        }
    }
}

impl Players {
    /// The player of `color`.
    pub fn of(&self, color: Color) -> Player {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// The next arrangement: human–engine, engine–human, engine–engine, human–human.
    pub fn cycle(self) -> Players {
        use Player::*;
        let (white, black) = match (self.white, self.black) {
            (Human, Engine) => (Engine, Human),
            (Engine, Human) => (Engine, Engine),
            (Engine, Engine) => (Human, Human),
            (Human, Human) => (Human, Engine),
        };
        Players { white, black }
    }
}

/// How long the engine thinks per move: the terminal UI's level, stepped by `+`/`-`,
/// giving a [`TimeControl`] for each move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ThinkLimit {
    /// A fixed depth in plies.
    Depth(u32),
    /// A fixed time per move, in milliseconds.
    Millis(u64),
}

impl Default for ThinkLimit {
    /// About a second per move.
    fn default() -> Self {
        ThinkLimit::Millis(1000)
    }
}

/// The time levels offered by `+`/`-`, in milliseconds.
const TIME_STEPS: [u64; 9] = [100, 250, 500, 1000, 2000, 5000, 10_000, 30_000, 60_000];
const MAX_UI_DEPTH: u32 = 40;

impl ThinkLimit {
    /// The time control of one move.
    pub fn time_control(self) -> TimeControl {
        match self {
            ThinkLimit::Depth(d) => TimeControl::Depth(d),
            ThinkLimit::Millis(ms) => TimeControl::MoveTime(Duration::from_millis(ms)),
        }
    }

    /// The search limits for one move: all of the time, as the searcher's own limit.
    pub fn limits(self) -> Limits {
        MoveBudget::new(&self.time_control(), Spend::Exact).search_limits()
    }

    /// One step stronger.
    pub fn stronger(self) -> ThinkLimit {
        match self {
            ThinkLimit::Depth(d) => ThinkLimit::Depth((d + 1).min(MAX_UI_DEPTH)),
            ThinkLimit::Millis(ms) => {
                ThinkLimit::Millis(TIME_STEPS.iter().copied().find(|&t| t > ms).unwrap_or(ms))
            }
        }
    }

    /// One step weaker.
    pub fn weaker(self) -> ThinkLimit {
        match self {
            ThinkLimit::Depth(d) => ThinkLimit::Depth(d.saturating_sub(1).max(1)),
            ThinkLimit::Millis(ms) => ThinkLimit::Millis(
                TIME_STEPS
                    .iter()
                    .rev()
                    .copied()
                    .find(|&t| t < ms)
                    .unwrap_or(ms),
            ),
        }
    }
}

impl fmt::Display for ThinkLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ThinkLimit::Depth(d) => write!(f, "depth {d}"),
            ThinkLimit::Millis(ms) if ms % 1000 == 0 => write!(f, "{} s/move", ms / 1000),
            ThinkLimit::Millis(ms) => write!(f, "{:.2} s/move", *ms as f64 / 1000.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_step_and_players_cycle_through_all_four() {
        assert_eq!(
            ThinkLimit::Millis(1000).stronger(),
            ThinkLimit::Millis(2000)
        );
        assert_eq!(ThinkLimit::Millis(100).weaker(), ThinkLimit::Millis(100));
        assert_eq!(ThinkLimit::Depth(1).weaker(), ThinkLimit::Depth(1));
        assert_eq!(ThinkLimit::Millis(1000).to_string(), "1 s/move");
        let mut p = Players::default();
        let mut seen = vec![p];
        for _ in 0..3 {
            p = p.cycle();
            assert!(!seen.contains(&p));
            seen.push(p);
        }
        assert_eq!(p.cycle(), Players::default());
    }
}
