//! Who plays which side and how strong the engine is.

use std::fmt;
use std::time::Duration;

use damas_engine::time::{MoveBudget, TimeControl};
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

/// The terminal UI's default level: about a second per move. The UI's level is a
/// [`TimeControl`] per move, a fixed depth or a fixed time.
pub fn default_level() -> TimeControl {
    TimeControl::MoveTime(Duration::from_millis(1000))
}

/// The time levels offered by `+`/`-`, in milliseconds.
const TIME_STEPS: [u64; 9] = [100, 250, 500, 1000, 2000, 5000, 10_000, 30_000, 60_000];
const MAX_UI_DEPTH: u32 = 40;

/// The budget of one move at `level`: all of the time, as the searcher's own limit.
pub fn level_budget(level: &TimeControl) -> MoveBudget {
    MoveBudget::exact(level)
}

/// One step stronger than `level` (a depth or a time per move; others stay).
pub fn stronger(level: TimeControl) -> TimeControl {
    match level {
        TimeControl::Depth(d) => TimeControl::Depth((d + 1).min(MAX_UI_DEPTH)),
        TimeControl::MoveTime(t) => {
            let ms = t.as_millis() as u64;
            let next = TIME_STEPS.iter().copied().find(|&s| s > ms).unwrap_or(ms);
            TimeControl::MoveTime(Duration::from_millis(next))
        }
        other => other,
    }
}

/// One step weaker than `level` (a depth or a time per move; others stay).
pub fn weaker(level: TimeControl) -> TimeControl {
    match level {
        TimeControl::Depth(d) => TimeControl::Depth(d.saturating_sub(1).max(1)),
        TimeControl::MoveTime(t) => {
            let ms = t.as_millis() as u64;
            let next = TIME_STEPS
                .iter()
                .rev()
                .copied()
                .find(|&s| s < ms)
                .unwrap_or(ms);
            TimeControl::MoveTime(Duration::from_millis(next))
        }
        other => other,
    }
}

/// `depth 6`, `1 s/move`, `0.25 s/move` or `clock 5+3`: the level as the screen shows
/// it.
pub fn level_label(level: &TimeControl) -> String {
    match *level {
        TimeControl::Depth(d) => format!("depth {d}"),
        TimeControl::MoveTime(t) => {
            let ms = t.as_millis() as u64;
            if ms.is_multiple_of(1000) {
                format!("{} s/move", ms / 1000)
            } else {
                format!("{:.2} s/move", ms as f64 / 1000.0)
            }
        }
        TimeControl::Nodes(n) => format!("{n} nodes/move"),
        // As `play --clock` reads it: minutes + seconds.
        TimeControl::Clock { time, inc, .. } => {
            format!("clock {}+{}", time.as_secs_f64() / 60.0, inc.as_secs_f64())
        }
        TimeControl::Infinite => "infinite".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_step_and_players_cycle_through_all_four() {
        let ms = |ms| TimeControl::MoveTime(Duration::from_millis(ms));
        assert_eq!(stronger(ms(1000)), ms(2000));
        assert_eq!(weaker(ms(100)), ms(100));
        assert_eq!(weaker(TimeControl::Depth(1)), TimeControl::Depth(1));
        assert_eq!(level_label(&ms(1000)), "1 s/move");
        // A clock is shown as `--clock` reads it, as it always was.
        for clock in ["5+3", "0.5+0"] {
            let c = TimeControl::from_minutes_clock(clock).unwrap();
            assert_eq!(level_label(&c), format!("clock {clock}"));
        }
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
