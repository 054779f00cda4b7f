//! Static evaluation behind the [`Evaluator`] trait.
//!
//! - [`Material`]: the thesis' material count (man 1, king 3), kept exactly for the
//!   node-count study and the `thesis` configurations.
//! - [`Trained`]: the default engine's positional evaluation, a linear model over the
//!   features of [`features`] (material, piece-square tables, men patterns of two rows,
//!   mobility, king terms), blended between an opening and an endgame weight by the
//!   number of pieces; its weights are fitted by `damas-train` on self-play games and
//!   embedded from `data/eval/weights.bin` (Russian: `data/eval/weights-russian.bin`).
//!   A weight file may add a small network ([`network`]) whose score is added to the
//!   linear one; both embedded files do.
//!
//! [`Evaluation`] names the choice for the search, which monomorphises the built-in
//! evaluators (no dynamic call per leaf on the default path). Each search thread
//! lends its [`Accumulators`] to [`Evaluator::eval_at`], where the network keeps its
//! first layer per ply.

pub mod accumulator;
pub mod features;
mod folded;
mod material;
pub mod network;
mod trained;
pub mod weights;

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

pub use accumulator::Accumulators;
pub use material::{Material, KING, MAN};
pub use trained::{consults_network, Trained, NET_RANGE};
pub use weights::{Weights, WeightsError};

use crate::score::Score;
use damas_rules::movegen::Board;
use damas_rules::position::Position;
use damas_rules::variant::Variant;

/// A static evaluator: the score of a quiet position for the side to move.
pub trait Evaluator: Send + Sync {
    /// Score of `pos` for the side to move (not a proven result).
    fn eval(&self, pos: &Position) -> Score;

    /// [`Evaluator::eval`] of a position held as the move generator's working
    /// [`Board`] (the quiescence search's leaves); converted to a [`Position`]
    /// unless an evaluator reads the board directly.
    #[inline]
    fn eval_board(&self, board: &Board) -> Score {
        self.eval(&board.to_position())
    }

    /// [`Evaluator::eval`] of the position a search holds at `ply`, which may keep
    /// work per ply in `acc` (the network's first layer); the same score.
    #[inline]
    fn eval_at(&self, pos: &Position, ply: u32, acc: &mut Accumulators) -> Score {
        let _ = (ply, acc);
        self.eval(pos)
    }

    /// [`Evaluator::eval_at`] of a [`Board`] (as [`Evaluator::eval_board`]).
    #[inline]
    fn eval_board_at(&self, board: &Board, ply: u32, acc: &mut Accumulators) -> Score {
        let _ = (ply, acc);
        self.eval_board(board)
    }
}

/// The evaluators known by name: `--eval NAME`, the Hub parameter `eval`, the
/// `eval=` key of match engine specs.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub enum EvalName {
    /// The trained positional evaluation with the embedded weights (the default).
    #[default]
    Trained,
    /// The thesis' material count.
    Material,
}

impl EvalName {
    /// Every name, default first.
    pub const ALL: [EvalName; 2] = [EvalName::Trained, EvalName::Material];

    /// The names of [`EvalName::ALL`], in order.
    pub const NAMES: [&'static str; EvalName::ALL.len()] = {
        let mut names = [""; EvalName::ALL.len()];
        let mut i = 0;
        while i < names.len() {
            names[i] = EvalName::ALL[i].as_str();
            i += 1;
        }
        names
    };

    /// The name as written on command lines.
    pub const fn as_str(self) -> &'static str {
        match self {
            EvalName::Trained => "trained",
            EvalName::Material => "material",
        }
    }

    /// The evaluation this name stands for under the rules of `variant`.
    pub fn evaluation(self, variant: Variant) -> Evaluation {
        match self {
            EvalName::Trained => Evaluation::trained(variant),
            EvalName::Material => Evaluation::Material,
        }
    }
}

impl fmt::Display for EvalName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Error for an unknown evaluator name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown evaluation {0:?} (known: trained, material)")]
pub struct EvalNameError(pub String);

impl FromStr for EvalName {
    type Err = EvalNameError;
    fn from_str(s: &str) -> Result<EvalName, EvalNameError> {
        match s.trim() {
            "trained" | "default" => Ok(EvalName::Trained),
            "material" | "thesis" => Ok(EvalName::Material),
            other => Err(EvalNameError(other.to_string())),
        }
    }
}

/// The evaluation a search uses. The built-in ones are matched once per search and
/// the search is compiled for each, so the leaves call them directly.
#[derive(Clone)]
pub enum Evaluation {
    /// The thesis' material count.
    Material,
    /// A trained evaluation (its weights shared between searchers).
    Trained(Arc<Trained>),
    /// Any other evaluator (called through a vtable).
    Custom(Arc<dyn Evaluator>),
}

impl Evaluation {
    /// The default evaluation of `variant`: the trained one with that variant's
    /// embedded weights ([`Trained::embedded`]).
    pub fn trained(variant: Variant) -> Evaluation {
        Evaluation::Trained(Trained::embedded(variant))
    }

    /// A short name for reports: `material`, `trained` or `custom`.
    pub fn name(&self) -> &'static str {
        match self {
            Evaluation::Material => "material",
            Evaluation::Trained(_) => "trained",
            Evaluation::Custom(_) => "custom",
        }
    }

    /// Score of `pos` for the side to move.
    pub fn eval(&self, pos: &Position) -> Score {
        match self {
            Evaluation::Material => Material.eval(pos),
            Evaluation::Trained(t) => t.eval(pos),
            Evaluation::Custom(e) => e.eval(pos),
        }
    }
}

impl fmt::Debug for Evaluation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The positions of `walks` seeded random games from the start, each of fewer than
/// `max_plies` plies: the evaluators' test positions.
#[cfg(test)]
pub(crate) fn random_walk_positions(seed: u64, walks: usize, max_plies: usize) -> Vec<Position> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..walks {
        let mut pos = Position::start();
        for _ in 0..rng.gen_range(0..max_plies) {
            let moves = damas_rules::movegen::legal_moves(Variant::Brazilian, &pos);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.gen_range(0..moves.len())]);
            out.push(pos);
        }
    }
    out
}
