//! Game clocks for `damas play --clock MIN+INC`: the setting and its parsing.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use thiserror::Error;

/// A game clock for both sides: minutes for the game plus seconds added after each move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ClockSetting {
    /// Time for the whole game.
    pub base: Duration,
    /// Added to a side's clock after each of its moves.
    pub inc: Duration,
}

/// A clock that is not `MINUTES+SECONDS`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad clock {text:?}: {reason} (expected MINUTES+SECONDS, e.g. 5+3 or 0.5+0)")]
pub struct ClockError {
    /// The text given.
    pub text: String,
    /// What is wrong.
    pub reason: &'static str,
}

impl FromStr for ClockSetting {
    type Err = ClockError;
    fn from_str(text: &str) -> Result<ClockSetting, ClockError> {
        let bad = |reason| ClockError {
            text: text.to_string(),
            reason,
        };
        let (base, inc) = text.trim().split_once('+').unwrap_or((text.trim(), "0"));
        let number = |s: &str, max: f64| {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && (0.0..=max).contains(v))
        };
        let minutes = number(base, 600.0).ok_or_else(|| bad("minutes from 0 to 600"))?;
        let inc = number(inc, 600.0).ok_or_else(|| bad("increment from 0 to 600 seconds"))?;
        let base = Duration::from_secs_f64(minutes * 60.0);
        if base < Duration::from_secs(1) {
            return Err(bad("the game needs at least a second"));
        }
        Ok(ClockSetting {
            base,
            inc: Duration::from_secs_f64(inc),
        })
    }
}

impl fmt::Display for ClockSetting {
    /// `5+3` (minutes + seconds).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}+{}",
            self.base.as_secs_f64() / 60.0,
            self.inc.as_secs_f64()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_parse_minutes_and_increment() {
        let c: ClockSetting = "5+3".parse().unwrap();
        assert_eq!(c.base, Duration::from_secs(300));
        assert_eq!(c.inc, Duration::from_secs(3));
        assert_eq!(c.to_string(), "5+3");
        let c: ClockSetting = "0.1".parse().unwrap();
        assert_eq!((c.base, c.inc), (Duration::from_secs(6), Duration::ZERO));
        for bad in ["", "x+3", "5+y", "-1+0", "0+5", "5+3+1", "inf"] {
            let e = bad.parse::<ClockSetting>().unwrap_err().to_string();
            assert!(e.contains("MINUTES+SECONDS"), "{bad}: {e}");
        }
    }
}
