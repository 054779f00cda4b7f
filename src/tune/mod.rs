//! Parameter tuning by SPSA (`damas tune`, docs/tuning.md): the engine's tunable
//! constants ([`damas_engine::search::PARAMS`]) moved by simultaneous perturbation
//! ([`spsa`]) against an [`Objective`], game pairs between the engine at θ+ and at θ−,
//! node-limited or on a clock ([`games`]), with a state file written after every iteration
//! ([`state`]) so that a stopped run resumes, and a summary of the paths ([`mod@summary`]).

pub mod games;
pub mod spsa;
pub mod state;
pub mod summary;

use std::path::Path;

use thiserror::Error;

use damas_engine::search::{ParamGroup, PARAMS};
use damas_rules::variant::Variant;

use crate::matches::{parse_openings, Opening, OpeningsError};
pub use games::Games;
pub use spsa::{Objective, Spsa, Tuned};
pub use state::{check_writable, clock_control, GameSetup, StateError, TuneState};
pub use summary::summary;

/// The unbalanced Brazilian openings shipped in `data/openings/`.
const BRAZILIAN_OPENINGS: &str = include_str!("../../data/openings/brazilian-unbalanced.txt");
/// The unbalanced Russian openings shipped in `data/openings/`.
const RUSSIAN_OPENINGS: &str = include_str!("../../data/openings/russian-unbalanced.txt");

/// The unbalanced opening set of `variant`, in file order (the default of a run).
pub fn default_openings(variant: Variant) -> Result<Vec<Opening>, OpeningsError> {
    parse_openings(match variant {
        Variant::Brazilian => BRAZILIAN_OPENINGS,
        Variant::Russian => RUSSIAN_OPENINGS,
    })
}

/// The tunable parameters as a Markdown table (name, default, range, `c`, `r`,
/// meaning): what docs/tuning.md shows.
pub fn params_table() -> String {
    let mut out = String::from(
        "| parameter | shapes | default | range | c (end) | r (end) | meaning |\n|---|---|---|---|---|---|---|\n",
    );
    for p in &PARAMS {
        let group = match p.group {
            ParamGroup::Search => "search",
            ParamGroup::Time => "clock",
        };
        out.push_str(&format!(
            "| `{}` | {group} | {} | {}–{} | {} | {} | {} |\n",
            p.name, p.default, p.min, p.max, p.c, p.r, p.doc
        ));
    }
    out
}

/// Why a run stopped.
#[derive(Debug, Error)]
pub enum TuneError {
    /// The state file could not be read or written.
    #[error(transparent)]
    State(#[from] StateError),
    /// The objective failed at an iteration (which is not counted).
    #[error("iteration {iteration}: {reason}")]
    Objective {
        /// The iteration (from 1).
        iteration: u64,
        /// What failed.
        reason: String,
    },
}

/// Factors on every parameter's end-of-run perturbation `c` and rate `r`: 1 and 1
/// keep the table's; larger ones make a coarse first run that moves further.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale {
    /// Factor on `c`.
    pub c: f64,
    /// Factor on `r`.
    pub r: f64,
}

/// The engine parameters named in `names`, each starting at its default, with `c`
/// and `r` scaled by `scale`. None named: the search's constants for node-limited
/// games, the time manager's on a clock (`clocked`). A time constant is refused in
/// node-limited games, where it changes nothing.
pub fn engine_params(names: &[String], scale: Scale, clocked: bool) -> Result<Vec<Tuned>, String> {
    if !(scale.c > 0.0 && scale.c.is_finite() && scale.r > 0.0 && scale.r.is_finite()) {
        return Err(format!(
            "the scales of c and r must be positive numbers, not {} and {}",
            scale.c, scale.r
        ));
    }
    let group = if clocked {
        ParamGroup::Time
    } else {
        ParamGroup::Search
    };
    let chosen: Vec<&str> = if names.is_empty() {
        PARAMS
            .iter()
            .filter(|p| p.group == group)
            .map(|p| p.name)
            .collect()
    } else {
        names.iter().map(String::as_str).collect()
    };
    let mut seen = Vec::new();
    chosen
        .into_iter()
        .map(|name| {
            let p = PARAMS.iter().find(|p| p.name == name).ok_or_else(|| {
                let all: Vec<&str> = PARAMS.iter().map(|p| p.name).collect();
                format!("no tunable parameter {name:?} (one of {})", all.join(", "))
            })?;
            if p.group == ParamGroup::Time && !clocked {
                return Err(format!(
                    "{name} is a time constant: node-limited games never use it (tune it with --clock)"
                ));
            }
            if seen.contains(&name) {
                return Err(format!("parameter {name} named twice"));
            }
            seen.push(name);
            Ok(Tuned {
                name: name.to_string(),
                start: f64::from(p.default),
                min: f64::from(p.min),
                max: f64::from(p.max),
                c_end: p.c * scale.c,
                r_end: p.r * scale.r,
            })
        })
        .collect()
}

/// Run `state` on to `until` iterations in all against `objective`, saving it to
/// `path` after each iteration and calling `after` with it. An objective's failure
/// stops the run with the state of the last completed iteration saved.
pub fn run(
    state: &mut TuneState,
    path: &Path,
    until: u64,
    objective: &mut dyn Objective,
    mut after: impl FnMut(&TuneState),
) -> Result<(), TuneError> {
    check_writable(path)?;
    while state.spsa.k < until {
        state
            .spsa
            .step(objective)
            .map_err(|reason| TuneError::Objective {
                iteration: state.spsa.k + 1,
                reason,
            })?;
        state.save(path)?;
        after(state);
    }
    Ok(())
}
