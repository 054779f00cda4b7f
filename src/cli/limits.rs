//! How long the commands that search (`analyze`, `play`, `review`) think: one of
//! `--depth`, `--nodes`, `--time` and `--clock`, each read by the engine's one
//! time-control parser ([`TimeControl`]) into the one time control.

use damas_engine::time::{TimeControl, TimeControlError};

/// How long the engine thinks on each move (or position): at most one of these.
/// Times count seconds unless they name a unit (`500ms`, `2m`); `--clock` alone keeps
/// minutes for its base, as it always had.
#[derive(clap::Args, Clone, Copy, Debug, Default, PartialEq)]
#[group(id = "limits", multiple = false)]
pub struct LimitArgs {
    /// Search each move to this depth (plies, at least 1).
    #[arg(long, value_name = "PLIES", value_parser = depth)]
    pub depth: Option<TimeControl>,
    /// Search this many nodes a move (at least 1).
    #[arg(long, value_name = "N", value_parser = nodes)]
    pub nodes: Option<TimeControl>,
    /// Search this many seconds a move (more than 0, at most 1e9; `250ms` and `2m`
    /// name their unit).
    #[arg(long, value_name = "SECONDS", value_parser = move_time)]
    pub time: Option<TimeControl>,
    /// A game clock: minutes plus seconds added per move (e.g. `5+3`; `90s+2` gives
    /// the base in seconds). The engine spends on each move what its time management
    /// gives a move on that clock; in `play` both sides play on it and the side whose
    /// time runs out loses.
    #[arg(long, value_name = "MIN+INC", value_parser = TimeControl::from_minutes_clock)]
    pub clock: Option<TimeControl>,
}

impl LimitArgs {
    /// The time control given, if any.
    pub fn time_control(&self) -> Option<TimeControl> {
        self.depth.or(self.nodes).or(self.time).or(self.clock)
    }
}

/// `--depth`: the text form's `depth=`.
fn depth(text: &str) -> Result<TimeControl, TimeControlError> {
    text_form("depth", text)
}

/// `--nodes`: the text form's `nodes=`.
fn nodes(text: &str) -> Result<TimeControl, TimeControlError> {
    text_form("nodes", text)
}

/// `--time`: the text form's `move-time=`.
fn move_time(text: &str) -> Result<TimeControl, TimeControlError> {
    text_form("move-time", text)
}

/// The time control `key=text`, `key` being one of the text form's.
fn text_form(key: &str, text: &str) -> Result<TimeControl, TimeControlError> {
    TimeControl::from_key(key, text).expect("a key of the time control's text form")
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use clap::Parser;

    use super::*;

    #[derive(Parser, Debug)]
    struct Command {
        #[command(flatten)]
        limits: LimitArgs,
    }

    fn limit(args: &[&str]) -> Result<Option<TimeControl>, clap::Error> {
        let all = std::iter::once("test").chain(args.iter().copied());
        Command::try_parse_from(all).map(|c| c.limits.time_control())
    }

    #[test]
    fn each_flag_gives_its_time_control() {
        assert_eq!(
            limit(&["--depth", "9"]).unwrap(),
            Some(TimeControl::Depth(9))
        );
        assert_eq!(
            limit(&["--nodes", "5000"]).unwrap(),
            Some(TimeControl::Nodes(5000))
        );
        assert_eq!(
            limit(&["--time", "0.5"]).unwrap(),
            Some(TimeControl::MoveTime(Duration::from_millis(500)))
        );
        assert_eq!(
            limit(&["--time", "250ms"]).unwrap(),
            Some(TimeControl::MoveTime(Duration::from_millis(250)))
        );
        assert_eq!(limit(&[]).unwrap(), None);
    }

    #[test]
    fn the_clock_flag_counts_minutes_as_it_always_has() {
        assert_eq!(
            limit(&["--clock", "5+3"]).unwrap(),
            Some("clock=300+3".parse().unwrap())
        );
        assert_eq!(
            limit(&["--clock", "90s+2"]).unwrap(),
            Some("clock=90+2".parse().unwrap())
        );
    }

    #[test]
    fn one_limit_at_most_and_nothing_absurd() {
        assert!(limit(&["--depth", "3", "--time", "1"]).is_err());
        assert!(limit(&["--clock", "5+3", "--nodes", "10"]).is_err());
        for (flag, bad) in [
            ("--depth", "0"),
            ("--nodes", "0"),
            ("--time", "0"),
            ("--time", "-1"),
            ("--time", "NaN"),
            ("--time", "1e20"),
            ("--clock", "0+5"),
        ] {
            let e = limit(&[&format!("{flag}={bad}")]).unwrap_err().to_string();
            assert!(e.contains(flag), "{flag} {bad}: {e}");
        }
    }
}
