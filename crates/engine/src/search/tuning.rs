//! The engine's tunable constants ([`Tuning`]): the pruning margins and depths, the
//! late move reduction's thresholds and the aspiration window, which the search reads,
//! and the time manager's allocation and pace on a clock, each a named [`Param`] with
//! its default (the value the engine plays with), its range and the step and rate
//! parameter tuning by SPSA uses. [`SearchOptions`](super::SearchOptions) holds one
//! and the search reads every such constant through it, the time manager through the
//! move's budget ([`crate::time::MoveBudget::for_level`]); the `tune` setting writes
//! it as `NAME:VALUE;NAME:VALUE`.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::score::Score;

/// What a tunable constant shapes, and so which games can tune it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ParamGroup {
    /// The search's tree: any time control shows its effect, node limits included.
    Search,
    /// The time manager on a game clock: only games on a clock show its effect.
    Time,
}

/// One tunable constant: its name, default, range, and the perturbation `c` and rate
/// `r` SPSA ends a run with (fishtest's `c_end` and `r_end`).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Param {
    /// The name the `tune` setting uses.
    pub name: &'static str,
    /// What it shapes.
    pub group: ParamGroup,
    /// The value the engine plays with.
    pub default: i32,
    /// Smallest value allowed.
    pub min: i32,
    /// Largest value allowed.
    pub max: i32,
    /// SPSA's perturbation at the end of a run, in the parameter's units.
    pub c: f64,
    /// SPSA's learning rate at the end of a run (`a / c²`).
    pub r: f64,
    /// What it is, in one line.
    pub doc: &'static str,
}

/// Which tunable constant: an index into [`PARAMS`].
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct ParamId(usize);

impl ParamId {
    /// Futility pruning's margin per ply to go (hundredths of a man).
    pub const FUTILITY_MARGIN: ParamId = ParamId(0);
    /// The most plies to go at which futility pruning skips moves.
    pub const FUTILITY_MAX_DEPTH: ParamId = ParamId(1);
    /// Reverse futility pruning's margin per ply to go (hundredths of a man).
    pub const RFP_MARGIN: ParamId = ParamId(2);
    /// The most plies to go at which reverse futility pruning fails high.
    pub const RFP_MAX_DEPTH: ParamId = ParamId(3);
    /// ProbCut's margin above `beta` (hundredths of a man).
    pub const PROBCUT_MARGIN: ParamId = ParamId(4);
    /// The fewest plies to go at which ProbCut is tried.
    pub const PROBCUT_MIN_DEPTH: ParamId = ParamId(5);
    /// How many plies shallower ProbCut's search is.
    pub const PROBCUT_REDUCTION: ParamId = ParamId(6);
    /// The singular extension's margin per ply to go (hundredths of a man).
    pub const SE_MARGIN: ParamId = ParamId(7);
    /// The fewest plies to go at which singular extensions are tried.
    pub const SE_MIN_DEPTH: ParamId = ParamId(8);
    /// The fewest plies to go at which late moves are reduced.
    pub const LMR_MIN_DEPTH: ParamId = ParamId(9);
    /// The first move (0-based) late move reductions apply to.
    pub const LMR_MIN_MOVE: ParamId = ParamId(10);
    /// The fewest plies to go at which internal iterative reduction applies.
    pub const IIR_MIN_DEPTH: ParamId = ParamId(11);
    /// The aspiration window's half-width (hundredths of a man).
    pub const ASPIRATION: ParamId = ParamId(12);
    /// Moves assumed left on a clock without increment.
    pub const TIME_HORIZON: ParamId = ParamId(13);
    /// Moves assumed left on a clock with an increment.
    pub const TIME_HORIZON_INC: ParamId = ParamId(14);
    /// The hard cap as a multiple of the optimum.
    pub const TIME_MAX_RATIO: ParamId = ParamId(15);
    /// No new iteration after this share of the scaled optimum (percent).
    pub const PACE_START: ParamId = ParamId(16);
    /// The optimum's scale once the best move is stable (percent).
    pub const PACE_STABLE: ParamId = ParamId(17);
    /// What a best-move change adds to the scale (percent).
    pub const PACE_CHANGE: ParamId = ParamId(18);
    /// What a score drop of one man adds to the scale (percent).
    pub const PACE_DROP: ParamId = ParamId(19);

    /// Every parameter, in the order of [`PARAMS`].
    pub fn all() -> impl Iterator<Item = ParamId> {
        (0..PARAMS.len()).map(ParamId)
    }

    /// The parameter named `name`.
    pub fn named(name: &str) -> Option<ParamId> {
        PARAMS.iter().position(|p| p.name == name).map(ParamId)
    }

    /// Its description.
    pub fn param(self) -> &'static Param {
        &PARAMS[self.0]
    }

    /// Its place in [`PARAMS`].
    pub fn index(self) -> usize {
        self.0
    }
}

/// The number of tunable constants.
pub const PARAM_COUNT: usize = 20;

/// Every tunable constant, indexed by [`ParamId`]: the search's, then the time
/// manager's. The defaults are the values the engine plays with; docs/tuning.md shows
/// this table.
pub const PARAMS: [Param; PARAM_COUNT] = [
    Param {
        name: "futility-margin",
        group: ParamGroup::Search,
        default: 28,
        min: 0,
        max: 200,
        c: 8.0,
        r: 0.002,
        doc: "futility pruning's margin per ply to go (hundredths of a man)",
    },
    Param {
        name: "futility-max-depth",
        group: ParamGroup::Search,
        default: 4,
        min: 0,
        max: 6,
        c: 0.5,
        r: 0.002,
        doc: "the most plies to go at which futility pruning skips moves",
    },
    Param {
        name: "rfp-margin",
        group: ParamGroup::Search,
        default: 84,
        min: 0,
        max: 300,
        c: 10.0,
        r: 0.002,
        doc: "reverse futility pruning's margin per ply to go (hundredths of a man)",
    },
    Param {
        name: "rfp-max-depth",
        group: ParamGroup::Search,
        default: 5,
        min: 0,
        max: 8,
        c: 0.5,
        r: 0.002,
        doc: "the most plies to go at which reverse futility pruning fails high",
    },
    Param {
        name: "probcut-margin",
        group: ParamGroup::Search,
        default: 106,
        min: 0,
        max: 300,
        c: 10.0,
        r: 0.002,
        doc: "ProbCut's margin above beta (hundredths of a man)",
    },
    Param {
        name: "probcut-min-depth",
        group: ParamGroup::Search,
        default: 5,
        min: 2,
        max: 12,
        c: 0.5,
        r: 0.002,
        doc: "the fewest plies to go at which ProbCut is tried",
    },
    Param {
        name: "probcut-reduction",
        group: ParamGroup::Search,
        default: 5,
        min: 1,
        max: 8,
        c: 0.5,
        r: 0.002,
        doc: "how many plies shallower ProbCut's search is",
    },
    Param {
        name: "se-margin",
        group: ParamGroup::Search,
        default: 0,
        min: 0,
        max: 20,
        c: 1.0,
        r: 0.002,
        doc: "the singular extension's margin per ply to go (hundredths of a man)",
    },
    Param {
        name: "se-min-depth",
        group: ParamGroup::Search,
        default: 5,
        min: 4,
        max: 16,
        c: 0.5,
        r: 0.002,
        doc: "the fewest plies to go at which singular extensions are tried",
    },
    Param {
        name: "lmr-min-depth",
        group: ParamGroup::Search,
        default: 3,
        min: 2,
        max: 8,
        c: 0.5,
        r: 0.002,
        doc: "the fewest plies to go at which late moves are reduced (two plies from twice as many)",
    },
    Param {
        name: "lmr-min-move",
        group: ParamGroup::Search,
        default: 3,
        min: 1,
        max: 12,
        c: 0.5,
        r: 0.002,
        doc: "the first move (0-based) reduced (two plies from twice as far down the list)",
    },
    Param {
        name: "iir-min-depth",
        group: ParamGroup::Search,
        default: 3,
        min: 2,
        max: 12,
        c: 0.5,
        r: 0.002,
        doc: "the fewest plies to go at which a node without a table move is searched a ply shallower",
    },
    Param {
        name: "aspiration",
        group: ParamGroup::Search,
        default: super::options::ENGINE_ASPIRATION_DELTA,
        min: 1,
        max: 10_000,
        c: 4.0,
        r: 0.002,
        doc: "the aspiration window's half-width (hundredths of a man)",
    },
    Param {
        name: "time-horizon",
        group: ParamGroup::Time,
        default: 30,
        min: 5,
        max: 80,
        c: 3.0,
        r: 0.002,
        doc: "moves assumed left on a clock without increment (or fewer moves to go)",
    },
    Param {
        name: "time-horizon-inc",
        group: ParamGroup::Time,
        default: 14,
        min: 3,
        max: 60,
        c: 2.0,
        r: 0.002,
        doc: "moves assumed left on a clock with an increment",
    },
    Param {
        name: "time-max-ratio",
        group: ParamGroup::Time,
        default: 5,
        min: 1,
        max: 10,
        c: 0.5,
        r: 0.002,
        doc: "the hard cap of a move as a multiple of its optimum",
    },
    Param {
        name: "pace-start",
        group: ParamGroup::Time,
        default: 50,
        min: 10,
        max: 100,
        c: 5.0,
        r: 0.002,
        doc: "no new iteration after this share of the scaled optimum (percent)",
    },
    Param {
        name: "pace-stable",
        group: ParamGroup::Time,
        default: 70,
        min: 20,
        max: 100,
        c: 5.0,
        r: 0.002,
        doc: "the optimum's scale once the best move has stood four iterations (percent)",
    },
    Param {
        name: "pace-change",
        group: ParamGroup::Time,
        default: 100,
        min: 0,
        max: 400,
        c: 10.0,
        r: 0.002,
        doc: "what each best-move change adds to the scale, fading by half an iteration (percent)",
    },
    Param {
        name: "pace-drop",
        group: ParamGroup::Time,
        default: 50,
        min: 0,
        max: 400,
        c: 10.0,
        r: 0.002,
        doc: "what a score drop of one man adds to the scale (percent)",
    },
];

/// The time manager's tunable constants, as [`crate::time`] reads them (fractions
/// where the parameters count percent).
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) struct TimeTuning {
    /// Moves assumed left on a clock without increment.
    pub horizon: u32,
    /// Moves assumed left on a clock with an increment.
    pub horizon_inc: u32,
    /// The hard cap as a multiple of the optimum.
    pub max_ratio: u32,
    /// No new iteration after this fraction of the scaled optimum.
    pub pace_start: f64,
    /// The optimum's scale once the best move is stable.
    pub pace_stable: f64,
    /// What each best-move change adds to the scale.
    pub pace_change: f64,
    /// What a score drop of one man adds to the scale.
    pub pace_drop: f64,
}

impl Default for TimeTuning {
    fn default() -> Self {
        Tuning::default().time()
    }
}

/// A value for every tunable constant, read by the search and the time manager.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Tuning {
    values: [i32; PARAM_COUNT],
}

impl Default for Tuning {
    fn default() -> Self {
        let mut values = [0; PARAM_COUNT];
        for (v, p) in values.iter_mut().zip(&PARAMS) {
            *v = p.default;
        }
        Tuning { values }
    }
}

/// A `tune` value that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TuningError {
    /// An item is not `NAME:VALUE`.
    #[error("tune: {0:?} is not NAME:VALUE")]
    Malformed(String),
    /// No parameter has this name.
    #[error("tune: no parameter {name:?} (one of {})", names())]
    Unknown {
        /// The name given.
        name: String,
    },
    /// The value is not a whole number in the parameter's range.
    #[error("tune: {name} must be a whole number from {min} to {max}, not {value:?}")]
    Value {
        /// The parameter.
        name: &'static str,
        /// The value given.
        value: String,
        /// Smallest allowed.
        min: i32,
        /// Largest allowed.
        max: i32,
    },
}

/// Every parameter's name, joined for messages.
fn names() -> String {
    PARAMS.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
}

impl Tuning {
    /// The value of `id`.
    #[inline(always)]
    pub fn get(&self, id: ParamId) -> i32 {
        self.values[id.0]
    }

    /// Set `id` to `value`, kept within the parameter's range: every value of a
    /// [`Tuning`] is in range, so its readers need no guards of their own.
    pub fn with(mut self, id: ParamId, value: i32) -> Tuning {
        let p = id.param();
        self.values[id.0] = value.clamp(p.min, p.max);
        self
    }

    /// Set the parameter `name` to the text `value`, checked against its range.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), TuningError> {
        let id = ParamId::named(name).ok_or_else(|| TuningError::Unknown {
            name: name.to_string(),
        })?;
        let p = id.param();
        let v = value
            .parse::<i32>()
            .ok()
            .filter(|v| (p.min..=p.max).contains(v))
            .ok_or_else(|| TuningError::Value {
                name: p.name,
                value: value.to_string(),
                min: p.min,
                max: p.max,
            })?;
        self.values[id.0] = v;
        Ok(())
    }

    /// Apply `text`: `NAME:VALUE` items separated by `;`, where `default` first
    /// returns every parameter to its default. All or nothing: an error changes
    /// nothing.
    pub fn apply(&mut self, text: &str) -> Result<(), TuningError> {
        let mut next = *self;
        for item in text.split(';').map(str::trim).filter(|i| !i.is_empty()) {
            if item == "default" {
                next = Tuning::default();
                continue;
            }
            let (name, value) = item
                .split_once(':')
                .ok_or_else(|| TuningError::Malformed(item.to_string()))?;
            next.set(name.trim(), value.trim())?;
        }
        *self = next;
        Ok(())
    }

    /// Futility pruning's margin per ply to go.
    #[inline(always)]
    pub(crate) fn futility_margin(&self) -> Score {
        Score(self.get(ParamId::FUTILITY_MARGIN))
    }

    /// The most plies to go at which futility pruning applies.
    #[inline(always)]
    pub(crate) fn futility_max_depth(&self) -> u32 {
        self.get(ParamId::FUTILITY_MAX_DEPTH) as u32
    }

    /// Reverse futility pruning's margin per ply to go.
    #[inline(always)]
    pub(crate) fn rfp_margin(&self) -> Score {
        Score(self.get(ParamId::RFP_MARGIN))
    }

    /// The most plies to go at which reverse futility pruning applies.
    #[inline(always)]
    pub(crate) fn rfp_max_depth(&self) -> u32 {
        self.get(ParamId::RFP_MAX_DEPTH) as u32
    }

    /// ProbCut's margin above `beta`.
    #[inline(always)]
    pub(crate) fn probcut_margin(&self) -> Score {
        Score(self.get(ParamId::PROBCUT_MARGIN))
    }

    /// The fewest plies to go at which ProbCut is tried.
    #[inline(always)]
    pub(crate) fn probcut_min_depth(&self) -> u32 {
        self.get(ParamId::PROBCUT_MIN_DEPTH) as u32
    }

    /// How many plies shallower ProbCut's search is.
    #[inline(always)]
    pub(crate) fn probcut_reduction(&self) -> u32 {
        self.get(ParamId::PROBCUT_REDUCTION) as u32
    }

    /// The singular extension's margin per ply to go.
    #[inline(always)]
    pub(crate) fn se_margin(&self) -> Score {
        Score(self.get(ParamId::SE_MARGIN))
    }

    /// The fewest plies to go at which singular extensions are tried.
    #[inline(always)]
    pub(crate) fn se_min_depth(&self) -> u32 {
        self.get(ParamId::SE_MIN_DEPTH) as u32
    }

    /// The fewest plies to go at which late moves are reduced.
    #[inline(always)]
    pub(crate) fn lmr_min_depth(&self) -> u32 {
        self.get(ParamId::LMR_MIN_DEPTH) as u32
    }

    /// The first move (0-based) late move reductions apply to.
    #[inline(always)]
    pub(crate) fn lmr_min_move(&self) -> usize {
        self.get(ParamId::LMR_MIN_MOVE) as usize
    }

    /// The fewest plies to go at which internal iterative reduction applies.
    #[inline(always)]
    pub(crate) fn iir_min_depth(&self) -> u32 {
        self.get(ParamId::IIR_MIN_DEPTH) as u32
    }

    /// The aspiration window's half-width in hundredths of a man.
    #[inline(always)]
    pub fn aspiration(&self) -> i32 {
        self.get(ParamId::ASPIRATION)
    }

    /// A parameter counted in percent, as a fraction.
    fn fraction(&self, id: ParamId) -> f64 {
        f64::from(self.get(id)) / 100.0
    }

    /// The time manager's constants.
    pub(crate) fn time(&self) -> TimeTuning {
        TimeTuning {
            horizon: self.get(ParamId::TIME_HORIZON) as u32,
            horizon_inc: self.get(ParamId::TIME_HORIZON_INC) as u32,
            max_ratio: self.get(ParamId::TIME_MAX_RATIO) as u32,
            pace_start: self.fraction(ParamId::PACE_START),
            pace_stable: self.fraction(ParamId::PACE_STABLE),
            pace_change: self.fraction(ParamId::PACE_CHANGE),
            pace_drop: self.fraction(ParamId::PACE_DROP),
        }
    }
}

/// The parameters away from their defaults as `NAME:VALUE;…` (empty when none):
/// what [`Tuning::apply`] reads back.
impl fmt::Display for Tuning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let changed: Vec<String> = ParamId::all()
            .filter(|&id| self.get(id) != id.param().default)
            .map(|id| format!("{}:{}", id.param().name, self.get(id)))
            .collect();
        f.write_str(&changed.join(";"))
    }
}

impl FromStr for Tuning {
    type Err = TuningError;
    /// The defaults with `text` applied ([`Tuning::apply`]).
    fn from_str(text: &str) -> Result<Tuning, TuningError> {
        let mut t = Tuning::default();
        t.apply(text)?;
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_name_their_params_and_defaults_are_in_range() {
        for (id, name) in [
            (ParamId::FUTILITY_MARGIN, "futility-margin"),
            (ParamId::FUTILITY_MAX_DEPTH, "futility-max-depth"),
            (ParamId::RFP_MARGIN, "rfp-margin"),
            (ParamId::RFP_MAX_DEPTH, "rfp-max-depth"),
            (ParamId::PROBCUT_MARGIN, "probcut-margin"),
            (ParamId::PROBCUT_MIN_DEPTH, "probcut-min-depth"),
            (ParamId::PROBCUT_REDUCTION, "probcut-reduction"),
            (ParamId::SE_MARGIN, "se-margin"),
            (ParamId::SE_MIN_DEPTH, "se-min-depth"),
            (ParamId::LMR_MIN_DEPTH, "lmr-min-depth"),
            (ParamId::LMR_MIN_MOVE, "lmr-min-move"),
            (ParamId::IIR_MIN_DEPTH, "iir-min-depth"),
            (ParamId::ASPIRATION, "aspiration"),
        ] {
            assert_eq!(id.param().name, name);
            assert_eq!(ParamId::named(name), Some(id));
        }
        assert_eq!(ParamId::all().count(), PARAM_COUNT);
        for p in &PARAMS {
            assert!(p.min <= p.default && p.default <= p.max, "{}", p.name);
            assert!(p.c > 0.0 && p.r > 0.0, "{}", p.name);
        }
    }

    #[test]
    fn the_defaults_are_the_engines_constants() {
        let t = Tuning::default();
        assert_eq!(t.futility_margin(), Score::centi(28));
        assert_eq!(t.futility_max_depth(), 4);
        assert_eq!(t.rfp_margin(), Score::centi(84));
        assert_eq!(t.rfp_max_depth(), 5);
        assert_eq!(t.probcut_margin(), Score::centi(106));
        assert_eq!((t.probcut_min_depth(), t.probcut_reduction()), (5, 5));
        assert_eq!((t.se_margin(), t.se_min_depth()), (Score::centi(0), 5));
        assert_eq!((t.lmr_min_depth(), t.lmr_min_move()), (3, 3));
        assert_eq!(t.iir_min_depth(), 3);
        assert_eq!(t.aspiration(), super::super::ENGINE_ASPIRATION_DELTA);
        let time = t.time();
        assert_eq!(
            (time.horizon, time.horizon_inc, time.max_ratio),
            (30, 14, 5)
        );
        assert_eq!(
            (
                time.pace_start,
                time.pace_stable,
                time.pace_change,
                time.pace_drop
            ),
            (0.5, 0.7, 1.0, 0.5)
        );
        assert_eq!(t.to_string(), "");
        // `with` keeps a value within its range.
        let clamped = t
            .with(ParamId::FUTILITY_MARGIN, 999)
            .with(ParamId::TIME_MAX_RATIO, 0);
        assert_eq!(clamped.get(ParamId::FUTILITY_MARGIN), 200);
        assert_eq!(clamped.get(ParamId::TIME_MAX_RATIO), 1);
    }

    #[test]
    fn every_parameter_reaches_the_search() {
        use crate::eval::Evaluation;
        use crate::search::{Limits, SearchOptions, Searcher};
        use damas_rules::position::Position;
        let nodes = |tuning: Tuning| {
            let options = SearchOptions::default()
                .with_eval(Evaluation::Material)
                .with_hash_mb(1)
                .with_tuning(tuning);
            let stop = std::sync::atomic::AtomicBool::new(false);
            let pos = Position::start();
            Searcher::new(options)
                .search(&pos, &[], &Limits::depth(11), &stop, &mut |_| {})
                .stats
                .nodes
        };
        let base = nodes(Tuning::default());
        assert_eq!(
            nodes(Tuning::default()),
            base,
            "the search is deterministic"
        );
        for id in ParamId::all() {
            let p = id.param();
            let mut values = [p.min, p.max, p.default - 1, p.default + 1]
                .into_iter()
                .filter(|&v| v != p.default && (p.min..=p.max).contains(&v));
            match p.group {
                ParamGroup::Search => assert!(
                    values.any(|v| nodes(Tuning::default().with(id, v)) != base),
                    "{} changes no node count",
                    p.name
                ),
                // The time manager's constants leave the tree alone (time/tests.rs
                // and time/pace.rs show where they reach).
                ParamGroup::Time => assert!(
                    values.all(|v| nodes(Tuning::default().with(id, v)) == base),
                    "{} changes the tree",
                    p.name
                ),
            }
        }
    }

    #[test]
    fn text_round_trips_and_bad_text_changes_nothing() {
        let t: Tuning = "futility-margin:60; lmr-min-move:4".parse().unwrap();
        assert_eq!(t.futility_margin(), Score::centi(60));
        assert_eq!(t.lmr_min_move(), 4);
        assert_eq!(t.to_string(), "futility-margin:60;lmr-min-move:4");
        assert_eq!(t.to_string().parse::<Tuning>(), Ok(t));
        let mut u = t;
        u.apply("default;se-margin:3").unwrap();
        assert_eq!(u.to_string(), "se-margin:3");
        for (bad, want) in [
            ("futility-margin", "is not NAME:VALUE"),
            ("no-such:1", "no parameter \"no-such\""),
            ("futility-margin:201", "from 0 to 200"),
            ("futility-margin:x", "not \"x\""),
        ] {
            let mut v = t;
            let e = v.apply(&format!("rfp-margin:70;{bad}")).unwrap_err();
            assert!(e.to_string().contains(want), "{bad}: {e}");
            assert_eq!(v, t, "{bad}");
        }
    }
}
