//! Game-tree search. The public contract: [`Techniques`] (every technique switchable),
//! [`Limits`], [`Searcher::search`] reporting [`Info`] per completed iteration and
//! returning a [`SearchResult`] with [`Stats`].
//!
//! This first version is a plain α-β with iterative deepening and quiescence; the
//! thesis' techniques fill in behind the same interface.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::eval::{evaluate, Material};
use crate::movegen::generate;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::score::Score;

/// Which search techniques are switched on. Parse from `pvs+asp+tt` or `pvs,asp,tt`;
/// `ab` alone means plain α-β.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Techniques {
    /// Principal variation search (null windows after the first move).
    pub pvs: bool,
    /// Iterative deepening.
    pub id: bool,
    /// Aspiration windows at the root (implies iterative deepening).
    pub asp: bool,
    /// Transposition table.
    pub tt: bool,
    /// Quiescence search of captures at the horizon.
    pub qs: bool,
    /// Two killer moves per ply.
    pub killers: bool,
    /// History heuristic.
    pub history: bool,
    /// Enhanced transposition cutoffs near the root.
    pub etc: bool,
    /// MTD(f) driver over the TT.
    pub mtdf: bool,
    /// Endgame database cutoffs.
    pub egdb: bool,
}

/// Error for an unknown technique name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown search technique {0:?} (known: ab, pvs, id, asp, tt, qs, killers, history, etc, mtdf, egdb)")]
pub struct TechniqueError(pub String);

impl FromStr for Techniques {
    type Err = TechniqueError;
    fn from_str(s: &str) -> Result<Techniques, TechniqueError> {
        let mut t = Techniques::default();
        for name in s.split(['+', ',']).map(str::trim).filter(|n| !n.is_empty()) {
            match name {
                "ab" => {}
                "pvs" => t.pvs = true,
                "id" => t.id = true,
                "asp" => t.asp = true,
                "tt" => t.tt = true,
                "qs" => t.qs = true,
                "killers" => t.killers = true,
                "history" => t.history = true,
                "etc" => t.etc = true,
                "mtdf" => t.mtdf = true,
                "egdb" => t.egdb = true,
                other => return Err(TechniqueError(other.to_string())),
            }
        }
        Ok(t)
    }
}

impl fmt::Display for Techniques {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = [
            (self.pvs, "pvs"),
            (self.id, "id"),
            (self.asp, "asp"),
            (self.tt, "tt"),
            (self.qs, "qs"),
            (self.killers, "killers"),
            (self.history, "history"),
            (self.etc, "etc"),
            (self.mtdf, "mtdf"),
            (self.egdb, "egdb"),
        ];
        let on: Vec<&str> = names.iter().filter(|n| n.0).map(|n| n.1).collect();
        if on.is_empty() {
            f.write_str("ab")
        } else {
            f.write_str(&on.join("+"))
        }
    }
}

impl Techniques {
    /// The combination used when none is given.
    pub fn strongest() -> Techniques {
        Techniques {
            id: true,
            qs: true,
            ..Techniques::default()
        }
    }
}

/// When to stop searching. Unset fields do not limit; all unset means "until stopped".
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Time for this move.
    pub time: Option<Duration>,
}

impl Limits {
    /// Search to a fixed depth.
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }
    /// Search for a fixed time.
    pub fn time(t: Duration) -> Limits {
        Limits {
            time: Some(t),
            ..Limits::default()
        }
    }
    /// Search a fixed number of nodes.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }
}

/// Options of a [`Searcher`].
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Techniques switched on.
    pub techniques: Techniques,
    /// Transposition table size: `2^tt_bits` entries.
    pub tt_bits: u32,
    /// Aspiration window half-width in hundredths of a man.
    pub aspiration_delta: i32,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            techniques: Techniques::strongest(),
            tt_bits: 21,
            aspiration_delta: 50,
        }
    }
}

/// Node counts and timing of one search.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Stats {
    /// Search nodes in the thesis' convention (quiescence excluded).
    pub nodes: u64,
    /// Interior nodes (searched further).
    pub interior: u64,
    /// Leaves given a static evaluation.
    pub leaves: u64,
    /// Nodes cut off by the transposition table.
    pub tt_cutoffs: u64,
    /// Positions with no legal move (or drawn by repetition).
    pub terminal: u64,
    /// Nodes answered by the endgame database.
    pub egdb_cutoffs: u64,
    /// Quiescence nodes.
    pub qs_nodes: u64,
    /// Transposition table accesses.
    pub tt_accesses: u64,
    /// Key comparisons over all TT accesses.
    pub tt_compares: u64,
    /// Elapsed time.
    pub time: Duration,
}

impl Stats {
    /// Nodes per second counting every node, quiescence included.
    pub fn nps(&self) -> u64 {
        let s = self.time.as_secs_f64();
        if s > 0.0 {
            ((self.nodes + self.qs_nodes) as f64 / s) as u64
        } else {
            0
        }
    }
}

/// Progress report after each completed iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    /// Depth completed.
    pub depth: u32,
    /// Score of the best move.
    pub score: Score,
    /// Statistics so far.
    pub stats: Stats,
    /// Principal variation from the root.
    pub pv: Vec<Move>,
}

/// Outcome of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// Best move (`None` when the side to move has no legal move).
    pub best: Option<Move>,
    /// Its score.
    pub score: Score,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Statistics.
    pub stats: Stats,
}

/// A search engine instance: options and tables, reused across moves of a game.
pub struct Searcher {
    options: SearchOptions,
    eval: Material,
}

struct Ctx<'a> {
    stats: Stats,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    max_nodes: Option<u64>,
    aborted: bool,
    path: Vec<Position>,
}

impl Ctx<'_> {
    fn out_of_budget(&mut self) -> bool {
        if !self.aborted && (self.stats.nodes & 1023 == 0 || self.max_nodes.is_some()) {
            self.aborted = self.stop.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| Instant::now() >= d)
                || self.max_nodes.is_some_and(|n| self.stats.nodes >= n);
        }
        self.aborted
    }
}

impl Searcher {
    /// A searcher with the given options.
    pub fn new(options: SearchOptions) -> Searcher {
        Searcher {
            options,
            eval: Material,
        }
    }

    /// The options in force.
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Forget everything learnt (new game).
    pub fn clear(&mut self) {}

    /// Search `pos`. `history` holds the game's earlier positions (oldest first, not
    /// including `pos`) for repetition detection. `on_info` is called after each
    /// completed iteration. Stops at the limits or when `stop` becomes true, returning
    /// the best move found so far.
    pub fn search(
        &mut self,
        pos: &Position,
        history: &[Position],
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let start = Instant::now();
        let mut ctx = Ctx {
            stats: Stats::default(),
            stop,
            deadline: limits.time.map(|t| start + t),
            max_nodes: limits.nodes,
            aborted: false,
            path: history.to_vec(),
        };
        let mut list = MoveList::new();
        generate(pos, &mut list);
        let mut result = SearchResult {
            best: list.first().copied(),
            score: Score::loss_in(0),
            depth: 0,
            pv: Vec::new(),
            stats: Stats::default(),
        };
        if list.is_empty() {
            return result;
        }
        let max_depth = limits
            .depth
            .unwrap_or(crate::score::Score::MAX_PLY as u32 - 1)
            .max(1);
        let first = if self.options.techniques.id || limits.depth.is_none() {
            1
        } else {
            max_depth
        };
        for depth in first..=max_depth {
            let mut best = None;
            let mut alpha = -Score::INFINITE;
            ctx.path.push(*pos);
            for &m in list.iter() {
                let s = -self.alphabeta(
                    &pos.play(m),
                    depth - 1,
                    1,
                    -Score::INFINITE,
                    -alpha,
                    &mut ctx,
                );
                if ctx.aborted {
                    break;
                }
                if s > alpha || best.is_none() {
                    alpha = s;
                    best = Some(m);
                }
            }
            ctx.path.pop();
            if ctx.aborted && depth > first {
                break;
            }
            if let Some(b) = best {
                result.best = Some(b);
                result.score = alpha;
                result.depth = depth;
                result.pv = vec![b];
                // Searched moves first next time.
                if let Some(i) = list.iter().position(|&m| m == b) {
                    list.as_mut_slice()[..=i].rotate_right(1);
                }
            }
            ctx.stats.time = start.elapsed();
            on_info(&Info {
                depth,
                score: result.score,
                stats: ctx.stats,
                pv: result.pv.clone(),
            });
            if ctx.aborted || result.score.is_proven() && limits.depth.is_none() {
                break;
            }
        }
        ctx.stats.time = start.elapsed();
        result.stats = ctx.stats;
        result
    }

    fn alphabeta(
        &self,
        pos: &Position,
        depth: u32,
        ply: u32,
        mut alpha: Score,
        beta: Score,
        ctx: &mut Ctx,
    ) -> Score {
        ctx.stats.nodes += 1;
        if ctx.out_of_budget() {
            return Score::DRAW;
        }
        if ctx.path.iter().rev().skip(1).step_by(2).any(|p| p == pos) {
            ctx.stats.terminal += 1;
            return Score::DRAW;
        }
        let mut list = MoveList::new();
        generate(pos, &mut list);
        if list.is_empty() {
            ctx.stats.terminal += 1;
            return Score::loss_in(ply);
        }
        if depth == 0 {
            ctx.stats.leaves += 1;
            return if self.options.techniques.qs {
                self.quiesce(pos, alpha, beta, ctx)
            } else {
                evaluate(&self.eval, pos)
            };
        }
        ctx.stats.interior += 1;
        ctx.path.push(*pos);
        let mut best = -Score::INFINITE;
        for &m in list.iter() {
            let s = -self.alphabeta(&pos.play(m), depth - 1, ply + 1, -beta, -alpha, ctx);
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                }
                if s >= beta {
                    break;
                }
            }
        }
        ctx.path.pop();
        best
    }

    fn quiesce(&self, pos: &Position, mut alpha: Score, beta: Score, ctx: &mut Ctx) -> Score {
        let mut list = MoveList::new();
        crate::movegen::generate_captures(pos, &mut list);
        if list.is_empty() {
            return evaluate(&self.eval, pos);
        }
        let mut best = -Score::INFINITE;
        for &m in list.iter() {
            ctx.stats.qs_nodes += 1;
            let child = pos.play(m);
            let s = if crate::movegen::count_moves(&child) == 0 {
                Score::win_in(1)
            } else {
                -self.quiesce(&child, -beta, -alpha, ctx)
            };
            if s > best {
                best = s;
                alpha = alpha.max(s);
                if s >= beta {
                    break;
                }
            }
        }
        best
    }
}
