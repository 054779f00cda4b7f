//! How long to think ([`TimeControl`]) and its one text form, which Hub levels, match
//! specs, command-line flags and the terminal game's clock are all read through.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use thiserror::Error;

/// How long to think: the one time-control type that Hub levels, match specs, UI
/// clocks and command-line flags are read into.
///
/// Its text is one item, and every time in it counts seconds unless it names its
/// unit (`ms`, `s`, `m` or `min`: `clock=5m+3` is `clock=300+3`):
/// - `depth=N`: to depth `N` (at least 1);
/// - `nodes=N`: `N` nodes (at least 1);
/// - `move-time=S`: `S` seconds a move (more than 0); `time=S` is the same;
/// - `clock=[M/]B[+I]`: a game clock of `B` seconds (more than 0) with `I` seconds
///   added a move, and `M` moves to the next control (none or 0: the whole game);
/// - `infinite`: until stopped.
///
/// [`FromStr`] reads it and [`Display`](fmt::Display) writes it back. Two spellings
/// of other front ends are aliases for the same values: the Hub's `level` words
/// ([`TimeControl::from_hub_clock`]: `time=` is the clock there, and may be 0), and
/// the game clock of `damas play --clock` ([`TimeControl::from_minutes_clock`]),
/// whose base without a unit counts minutes, as it always has (`5+3` is `clock=300+3`).
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum TimeControl {
    /// To a fixed depth.
    Depth(u32),
    /// A fixed number of nodes.
    Nodes(u64),
    /// A fixed time per move.
    MoveTime(Duration),
    /// A clock: time left (before the increment is added), increment, and the moves
    /// left to the next time control if any.
    Clock {
        /// Moves to the next time control.
        moves: Option<u32>,
        /// Time left.
        time: Duration,
        /// Increment per move.
        inc: Duration,
    },
    /// Until `stop`.
    Infinite,
}

/// The longest time any time control accepts, in seconds (about 31 years): larger
/// values are surely typing mistakes, and would overflow the deadline arithmetic.
pub const MAX_SECONDS: u64 = 1_000_000_000;

/// A time control's text that says no time control: what part is wrong, the text
/// given for it, and what was expected there.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad {what} {value:?}: expected {expected}")]
pub struct TimeControlError {
    /// The part read: `time control` (the whole item), `depth`, `nodes`, `move time`,
    /// `clock`, `clock time`, `increment` or `moves`.
    pub what: &'static str,
    /// The text given for it.
    pub value: String,
    /// What it should have been.
    pub expected: &'static str,
}

/// What a depth or node count must be.
const COUNT: &str = "a whole number of at least 1";
/// What a time that may be 0 must be.
const SECONDS: &str = "seconds from 0 to 1e9 (or with a unit: ms, s, m, min)";
/// What a time to think must be.
const POSITIVE_SECONDS: &str = "seconds above 0 and at most 1e9 (or with a unit: ms, s, m, min)";

impl TimeControl {
    /// The keys of the text form (`infinite` is a bare word).
    pub const KEYS: [&'static str; 4] = ["depth", "nodes", "move-time", "time"];
    /// The key of a game clock.
    pub const CLOCK_KEY: &'static str = "clock";

    /// The time control that `key=value` gives, `None` when `key` is not one of the
    /// text form's ([`TimeControl::KEYS`] and [`TimeControl::CLOCK_KEY`]).
    pub fn from_key(key: &str, value: &str) -> Option<Result<TimeControl, TimeControlError>> {
        Some(match key {
            "depth" => count("depth", value).map(TimeControl::Depth),
            "nodes" => count("nodes", value).map(TimeControl::Nodes),
            "move-time" | "time" => {
                positive_seconds("move time", value, Unit::Seconds).map(TimeControl::MoveTime)
            }
            "clock" => clock(value, Unit::Seconds),
            _ => return None,
        })
    }

    /// The clock the Hub protocol's `level` gives as separate words: `time=` the time
    /// left (which may be 0), `inc=` the increment (0 when absent), `moves=` the moves
    /// to the next control (absent or 0: the whole game). Units as in the text form.
    pub fn from_hub_clock(
        time: &str,
        inc: Option<&str>,
        moves: Option<&str>,
    ) -> Result<TimeControl, TimeControlError> {
        let time = seconds("clock time", time, Unit::Seconds)?;
        let inc = inc
            .map(|v| seconds("increment", v, Unit::Seconds))
            .transpose()?
            .unwrap_or_default();
        let moves = moves.map(moves_to_go).transpose()?.flatten();
        Ok(TimeControl::Clock { moves, time, inc })
    }

    /// The game clock of `damas play --clock` and the terminal game: the text of
    /// `clock=` whose base, without a unit, counts minutes (`5+3`: 5 minutes plus 3
    /// seconds a move; `30s+1` is half a minute). The increment counts seconds.
    pub fn from_minutes_clock(text: &str) -> Result<TimeControl, TimeControlError> {
        clock(text, Unit::Minutes)
    }

    /// The base time and increment of a game clock; `None` for a fixed depth, node
    /// count or time per move, or an infinite search.
    pub fn game_clock(&self) -> Option<(Duration, Duration)> {
        match *self {
            TimeControl::Clock { time, inc, .. } => Some((time, inc)),
            _ => None,
        }
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// Read the text form of the type's documentation.
    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let text = text.trim();
        if text == "infinite" {
            return Ok(TimeControl::Infinite);
        }
        let bad = || TimeControlError {
            what: "time control",
            value: text.to_string(),
            expected: "depth=N, nodes=N, move-time=S, time=S, clock=[M/]B[+I] or infinite",
        };
        let (key, value) = text.split_once('=').ok_or_else(bad)?;
        TimeControl::from_key(key.trim(), value).unwrap_or_else(|| Err(bad()))
    }
}

impl fmt::Display for TimeControl {
    /// The text form, times in seconds: `depth=6`, `move-time=0.5`, `clock=40/60+0.5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Depth(d) => write!(f, "depth={d}"),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::MoveTime(t) => write!(f, "move-time={}", Secs(t)),
            TimeControl::Clock { moves, time, inc } => {
                f.write_str("clock=")?;
                if let Some(m) = moves {
                    write!(f, "{m}/")?;
                }
                write!(f, "{}+{}", Secs(time), Secs(inc))
            }
            TimeControl::Infinite => f.write_str("infinite"),
        }
    }
}

/// A duration written as exact decimal seconds (`0.5`, `60`, `0.000000001`).
struct Secs(Duration);

impl fmt::Display for Secs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (secs, nanos) = (self.0.as_secs(), self.0.subsec_nanos());
        if nanos == 0 {
            return write!(f, "{secs}");
        }
        let frac = format!("{nanos:09}");
        write!(f, "{secs}.{}", frac.trim_end_matches('0'))
    }
}

/// A time to think in, as `move-time=` reads it (above 0 and at most
/// [`MAX_SECONDS`], in seconds unless it names its unit): for a time that is not a
/// whole time control.
pub fn move_time(text: &str) -> Result<Duration, TimeControlError> {
    positive_seconds("move time", text, Unit::Seconds)
}

/// The unit of a time written without one.
#[derive(Clone, Copy)]
enum Unit {
    Seconds,
    Minutes,
}

/// A depth or node count: a whole number of at least 1.
fn count<T: FromStr + Default + PartialEq>(
    what: &'static str,
    value: &str,
) -> Result<T, TimeControlError> {
    value
        .trim()
        .parse::<T>()
        .ok()
        .filter(|n| *n != T::default())
        .ok_or_else(|| TimeControlError {
            what,
            value: value.to_string(),
            expected: COUNT,
        })
}

/// Moves to the next control: a whole number, 0 (the whole game) read as none.
fn moves_to_go(value: &str) -> Result<Option<u32>, TimeControlError> {
    let m: u32 = value.trim().parse().map_err(|_| TimeControlError {
        what: "moves",
        value: value.to_string(),
        expected: "a whole number of moves",
    })?;
    Ok((m > 0).then_some(m))
}

/// A time from 0 to [`MAX_SECONDS`]: a number, in `bare` units unless followed by
/// `ms`, `s`, `m` or `min`.
fn seconds(what: &'static str, value: &str, bare: Unit) -> Result<Duration, TimeControlError> {
    read_time(value, bare).ok_or_else(|| TimeControlError {
        what,
        value: value.to_string(),
        expected: SECONDS,
    })
}

/// A time above 0 and at most [`MAX_SECONDS`]: one to think in.
fn positive_seconds(
    what: &'static str,
    value: &str,
    bare: Unit,
) -> Result<Duration, TimeControlError> {
    read_time(value, bare)
        .filter(|t| !t.is_zero())
        .ok_or_else(|| TimeControlError {
            what,
            value: value.to_string(),
            expected: POSITIVE_SECONDS,
        })
}

/// A game clock `[M/]B[+I]` whose base is above 0 and counts `bare` units without
/// its own.
fn clock(value: &str, bare: Unit) -> Result<TimeControl, TimeControlError> {
    let text = value.trim();
    let (moves, rest) = match text.split_once('/') {
        Some((m, rest)) => (moves_to_go(m)?, rest),
        None => (None, text),
    };
    let (base, inc) = match rest.split_once('+') {
        Some((base, inc)) => (base, Some(inc)),
        None => (rest, None),
    };
    let time = positive_seconds("clock time", base, bare)?;
    let inc = inc
        .map(|v| seconds("increment", v, Unit::Seconds))
        .transpose()?
        .unwrap_or_default();
    Ok(TimeControl::Clock { moves, time, inc })
}

/// A number of `bare` units or of the unit it names, as a duration of at most
/// [`MAX_SECONDS`]; `None` for anything else (negative, not finite, too long).
fn read_time(text: &str, bare: Unit) -> Option<Duration> {
    let text = text.trim();
    let split = text
        .find(|c: char| c.is_ascii_alphabetic() && c != 'e' && c != 'E')
        .unwrap_or(text.len());
    let (number, unit) = (text[..split].trim(), &text[split..]);
    // Nanoseconds per unit.
    let per: u128 = match (unit, bare) {
        ("ms", _) => 1_000_000,
        ("s", _) | ("", Unit::Seconds) => 1_000_000_000,
        ("m" | "min", _) | ("", Unit::Minutes) => 60_000_000_000,
        _ => return None,
    };
    let nanos = match exact_decimal(number) {
        // Plain decimals are read exactly, so that written times read back the same.
        Some((whole, billionths)) => {
            let billionths = whole.checked_mul(1_000_000_000)?.checked_add(billionths)?;
            billionths.checked_mul(per)? / 1_000_000_000
        }
        None => {
            let v: f64 = number.parse().ok()?;
            if !v.is_finite() || v < 0.0 {
                return None;
            }
            let ns = (v * per as f64).round();
            if ns > (MAX_SECONDS as f64) * 1e9 {
                return None;
            }
            ns as u128
        }
    };
    (nanos <= u128::from(MAX_SECONDS) * 1_000_000_000).then(|| Duration::from_nanos(nanos as u64))
}

/// `123.456` as its whole part and its billionths, for digits with an optional
/// point and at most nine decimals; `None` for any other number.
fn exact_decimal(text: &str) -> Option<(u128, u128)> {
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && frac.is_empty()) || !digits(whole) || !digits(frac) || frac.len() > 9 {
        return None;
    }
    let whole: u128 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let frac: u128 = if frac.is_empty() {
        0
    } else {
        format!("{frac:0<9}").parse().ok()?
    };
    Some((whole, frac))
}

#[cfg(test)]
mod tests;
