//! Time management, one pipeline for every player (the Hub engine, match players,
//! the terminal UI, the browser board, analysis, review): a [`TimeControl`] (what was
//! asked, read from text in one place) becomes one move's [`MoveBudget`] (depth and
//! node limits, an optimum and a hard deadline), which a [`Clock`] enforces for
//! [`crate::think::think`]: the searcher's own limits, a watch on the hard deadline,
//! and the rule for stopping between iterations (`pace.rs`).
//!
//! At a fixed time per move the search runs until the time is spent: the hard deadline
//! stops it inside an iteration, whose best move counts once its search gave it a full
//! score. On a clock, the allocation ([`MoveBudget::for_level`]) gives each move an
//! optimum and a hard cap, and the pace stops between iterations, earlier when the
//! best move is stable, later when it changes or the score drops.

use std::time::Duration;

use crate::search::{Limits, TimeTuning, Tuning};

mod clock;
mod control;
mod pace;

pub use clock::Clock;
pub use control::{move_time, TimeControl, TimeControlError, MAX_SECONDS};
use pace::Pace;

/// Time lost outside the search on every move (reading the command, starting threads,
/// the reply's way back, a busy machine's scheduling): the `move-overhead` setting.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub struct MoveOverhead(Duration);

impl MoveOverhead {
    /// The default, in milliseconds: enough for a machine with twice as many
    /// CPU-bound processes as cores.
    pub const DEFAULT_MS: u64 = 100;
    /// The largest accepted, in milliseconds.
    pub const MAX_MS: u64 = 10_000;

    /// An overhead of `ms` milliseconds (at most [`MoveOverhead::MAX_MS`]).
    pub fn from_millis(ms: u64) -> MoveOverhead {
        MoveOverhead(Duration::from_millis(ms.min(Self::MAX_MS)))
    }

    /// The overhead in milliseconds.
    pub fn millis(self) -> u64 {
        self.0.as_millis() as u64
    }

    /// The overhead as a duration.
    pub fn duration(self) -> Duration {
        self.0
    }
}

impl Default for MoveOverhead {
    fn default() -> Self {
        MoveOverhead::from_millis(Self::DEFAULT_MS)
    }
}

/// At a fixed time per move, the overhead kept back is at most this fraction of it:
/// exceeding a fixed time per move by a little loses nothing.
const MOVE_TIME_RESERVE: f64 = 0.05;
/// The hard cap on a clock is at most this fraction of the time on the clock (less
/// the overhead), whatever the tuning: the clock never runs out.
const MAX_FRACTION: f64 = 0.8;

/// What a search may spend: the time manager's answer for one move, and what
/// [`crate::think::think`] and its [`Clock`] enforce.
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct MoveBudget {
    /// Depth and node limits, the hard deadline (`time`: stop the search after this
    /// much time) and the optimum (`soft`: on a clock, the time the pace scales; no
    /// new iteration starts after about half of it. `None`: iterate until the hard
    /// deadline or the limits).
    limits: Limits,
    /// The pace's constants (the tuning's), for a budget with an optimum.
    pace: TimeTuning,
}

impl From<Limits> for MoveBudget {
    /// A search's own limits, spent exactly: their time as the hard deadline, no
    /// stop between iterations.
    fn from(limits: Limits) -> MoveBudget {
        MoveBudget {
            limits: Limits {
                soft: None,
                ..limits
            },
            pace: TimeTuning::default(),
        }
    }
}

impl MoveBudget {
    /// The budget for one move under `level` spent exactly: depths and node counts
    /// as given, a fixed time per move whole, as the searcher's own time limit
    /// (analysis, review, training, the terminal UI's levels). A game clock is
    /// always managed ([`MoveBudget::for_level`]).
    pub fn exact(level: &TimeControl) -> MoveBudget {
        match *level {
            TimeControl::Depth(d) => Limits::depth(d).into(),
            TimeControl::Nodes(n) => Limits::nodes(n).into(),
            TimeControl::MoveTime(t) => Limits::time(t).into(),
            _ => MoveBudget::for_level(level, MoveOverhead::default(), &Tuning::default()),
        }
    }

    /// The managed budget for one move under `level`, `overhead` being lost outside
    /// the search on every move, with the time constants of `tuning` (docs/tuning.md).
    ///
    /// A fixed time per move is searched to its end less the overhead (at most 5 % of
    /// it). On a clock (the kind of rule Stockfish's time manager uses), with `mtg`
    /// the moves to go (`moves=`, else an assumed horizon, at most that:
    /// `time-horizon`, 30 moves by default, or `time-horizon-inc`, 14, when each
    /// increment is more than half the overhead):
    /// - `left = time + (inc − overhead / 2) × (mtg − 1) − 2 × overhead`: what the
    ///   rest of the game may spend: each future increment less half the overhead
    ///   (what a move loses outside the search on average, the overhead being a worst
    ///   case; never below nothing), less the overhead twice for this move;
    /// - optimum (`soft`) `= left / mtg`, the base share, which the pace stretches
    ///   when the best move changes or the score drops and shrinks when it is stable;
    /// - hard cap `= min(time-max-ratio × optimum, 0.8 × time − overhead)` (5 × by
    ///   default), at least 1 ms: the clock (before the increment is credited) never
    ///   runs out.
    pub fn for_level(level: &TimeControl, overhead: MoveOverhead, tuning: &Tuning) -> MoveBudget {
        let o = overhead.duration();
        let ms = Duration::from_millis(1);
        match *level {
            TimeControl::Depth(d) => Limits::depth(d.max(1)).into(),
            TimeControl::Nodes(n) => Limits::nodes(n.max(1)).into(),
            TimeControl::Infinite => MoveBudget::default(),
            TimeControl::MoveTime(t) => {
                let hard = t.saturating_sub(o.min(t.mul_f64(MOVE_TIME_RESERVE)));
                Limits::time(hard.max(ms)).into()
            }
            TimeControl::Clock { moves, time, inc } => {
                let t = tuning.time();
                let net_inc = inc.saturating_sub(o / 2);
                let horizon = if net_inc.is_zero() {
                    t.horizon
                } else {
                    t.horizon_inc
                };
                // `moves=0` is sudden death like no `moves` at all.
                let mtg = moves.filter(|&m| m > 0).unwrap_or(horizon).min(horizon);
                let left = (time + net_inc * (mtg - 1)).saturating_sub(o * 2);
                let optimum = left / mtg;
                let cap = time.mul_f64(MAX_FRACTION).saturating_sub(o);
                let hard = (optimum * t.max_ratio).min(cap).max(ms);
                MoveBudget {
                    limits: Limits {
                        time: Some(hard),
                        soft: Some(optimum.min(hard)),
                        ..Limits::default()
                    },
                    pace: t,
                }
            }
        }
    }

    /// The optimum time of the move, if it has one (on a clock).
    pub fn soft(&self) -> Option<Duration> {
        self.limits.soft
    }

    /// The pace's constants.
    pub(crate) fn pace(&self) -> &TimeTuning {
        &self.pace
    }

    /// The hard deadline of the move, if it has one.
    pub fn hard(&self) -> Option<Duration> {
        self.limits.time
    }

    /// The depth and node limits alone, no time: a ponder search, whose time starts
    /// at ponder-hit.
    pub fn without_time(self) -> MoveBudget {
        MoveBudget {
            limits: Limits {
                time: None,
                soft: None,
                ..self.limits
            },
            pace: self.pace,
        }
    }

    /// The searcher's limits: depth and nodes, the hard deadline as its own clock (a
    /// backup for the [`Clock`]'s watch) and the optimum, which bounds a parallel
    /// search's grace period.
    pub fn search_limits(&self) -> Limits {
        self.limits
    }
}

#[cfg(test)]
mod tests;
