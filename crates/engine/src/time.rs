//! Time management, one for every player (the Hub engine, match players, the terminal
//! UI, analysis): turning a [`TimeControl`] into search limits and two deadlines
//! ([`MoveBudget`]), and the rule for stopping after an iteration ([`Pace`]).
//!
//! At a fixed time per move the search runs until the time is spent: the hard deadline
//! stops it inside an iteration, whose best move counts once its search gave it a full
//! score. On a clock, the allocation ([`MoveBudget::for_level`]) gives each move an
//! optimum and a hard cap, and [`Pace`] stops between iterations, earlier when the
//! best move is stable, later when it changes or the score drops.

use std::time::Duration;

use crate::search::Limits;

mod control;
mod pace;

pub use control::{move_time, TimeControl, TimeControlError, MAX_SECONDS};
pub use pace::Pace;

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

/// Moves assumed left in the game when the clock gives no `moves=` (or more) and no
/// increment beyond half the overhead: what is on the clock must last the game (the
/// matches that chose it: docs/performance.md, "Time management").
pub const HORIZON: u32 = 30;
/// The same with a net increment: later moves are paid for by their increments, so
/// the clock is shared among fewer moves (the matches that chose it:
/// docs/performance.md, "Time management").
pub const HORIZON_WITH_INCREMENT: u32 = 14;
/// At a fixed time per move, the overhead kept back is at most this fraction of it:
/// exceeding a fixed time per move by a little loses nothing.
const MOVE_TIME_RESERVE: f64 = 0.05;
/// The hard cap on a clock is at most this many times the optimum...
const MAX_RATIO: u32 = 5;
/// ...and at most this fraction of the time on the clock (less the overhead).
const MAX_FRACTION: f64 = 0.8;

/// What a search may spend.
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct MoveBudget {
    /// Depth and node limits for the searcher (time is enforced by the deadlines).
    pub limits: Limits,
    /// The optimum time of a move on a clock, which [`Pace`] scales: no new
    /// iteration starts after about half of it. `None`: iterate until the hard
    /// deadline (a fixed time per move) or the limits.
    pub soft: Option<Duration>,
    /// Stop the search after this much time.
    pub hard: Option<Duration>,
}

impl From<Limits> for MoveBudget {
    /// A search's own limits, spent exactly: their time as the hard deadline, no
    /// stop between iterations.
    fn from(limits: Limits) -> MoveBudget {
        MoveBudget {
            limits: Limits {
                time: None,
                soft: None,
                ..limits
            },
            hard: limits.time,
            soft: None,
        }
    }
}

/// How a fixed time per move is spent.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Spend {
    /// As a game player, who loses this much time outside the search on every move
    /// (Hub levels, match players, game clocks).
    Managed(MoveOverhead),
    /// All of it, as the searcher's own time limit, and depths and node counts as
    /// given (analysis and the terminal UI's levels). A game clock is always managed.
    Exact,
}

impl MoveBudget {
    /// The budget for one move under `level`, spent as `spend` says.
    pub fn new(level: &TimeControl, spend: Spend) -> MoveBudget {
        match (spend, *level) {
            (Spend::Exact, TimeControl::Depth(d)) => MoveBudget {
                limits: Limits::depth(d),
                ..MoveBudget::default()
            },
            (Spend::Exact, TimeControl::Nodes(n)) => MoveBudget {
                limits: Limits::nodes(n),
                ..MoveBudget::default()
            },
            (Spend::Exact, TimeControl::MoveTime(t)) => MoveBudget {
                hard: Some(t),
                ..MoveBudget::default()
            },
            (Spend::Managed(o), _) => MoveBudget::for_level(level, o),
            (Spend::Exact, _) => MoveBudget::for_level(level, MoveOverhead::default()),
        }
    }

    /// The managed budget for one move under `level`, `overhead` being lost outside
    /// the search on every move.
    ///
    /// A fixed time per move is searched to its end less the overhead (at most 5 % of
    /// it). On a clock (the kind of rule Stockfish's time manager uses), with `mtg`
    /// the moves to go (`moves=`, else an assumed horizon, at most that: 30 moves,
    /// [`HORIZON`], or 14, [`HORIZON_WITH_INCREMENT`], when each increment is more
    /// than half the overhead):
    /// - `left = time + (inc − overhead / 2) × (mtg − 1) − 2 × overhead`: what the
    ///   rest of the game may spend: each future increment less half the overhead
    ///   (what a move loses outside the search on average, the overhead being a worst
    ///   case; never below nothing), less the overhead twice for this move;
    /// - optimum (`soft`) `= left / mtg`, the base share, which [`Pace`] stretches
    ///   when the best move changes or the score drops and shrinks when it is stable;
    /// - hard cap `= min(5 × optimum, 0.8 × time − overhead)`, at least 1 ms: the
    ///   clock (before the increment is credited) never runs out.
    pub fn for_level(level: &TimeControl, overhead: MoveOverhead) -> MoveBudget {
        let o = overhead.duration();
        let ms = Duration::from_millis(1);
        match *level {
            TimeControl::Depth(d) => MoveBudget {
                limits: Limits::depth(d.max(1)),
                ..MoveBudget::default()
            },
            TimeControl::Nodes(n) => MoveBudget {
                limits: Limits::nodes(n.max(1)),
                ..MoveBudget::default()
            },
            TimeControl::Infinite => MoveBudget::default(),
            TimeControl::MoveTime(t) => {
                let hard = t.saturating_sub(o.min(t.mul_f64(MOVE_TIME_RESERVE)));
                MoveBudget {
                    hard: Some(hard.max(ms)),
                    ..MoveBudget::default()
                }
            }
            TimeControl::Clock { moves, time, inc } => {
                let net_inc = inc.saturating_sub(o / 2);
                let horizon = if net_inc.is_zero() {
                    HORIZON
                } else {
                    HORIZON_WITH_INCREMENT
                };
                // `moves=0` is sudden death like no `moves` at all.
                let mtg = moves.filter(|&m| m > 0).unwrap_or(horizon).min(horizon);
                let left = (time + net_inc * (mtg - 1)).saturating_sub(o * 2);
                let optimum = left / mtg;
                let cap = time.mul_f64(MAX_FRACTION).saturating_sub(o);
                let hard = (optimum * MAX_RATIO).min(cap).max(ms);
                MoveBudget {
                    soft: Some(optimum.min(hard)),
                    hard: Some(hard),
                    ..MoveBudget::default()
                }
            }
        }
    }

    /// The searcher's limits: depth and nodes, the hard deadline as its own clock (a
    /// backup for whoever watches the deadlines) and the optimum, which bounds a
    /// parallel search's grace period.
    pub fn search_limits(&self) -> Limits {
        Limits {
            time: self.hard,
            soft: self.soft,
            ..self.limits
        }
    }
}

#[cfg(test)]
mod tests;
