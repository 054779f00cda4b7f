//! The state file of a tuning run: a text file of `KEY VALUE` lines holding the
//! games' setup, the SPSA schedule, each parameter, and θ after every iteration.
//! It is written to a temporary name and renamed after each iteration, so a stopped
//! run resumes from its last completed iteration.

use std::path::{Path, PathBuf};

use thiserror::Error;

use damas_engine::time::TimeControl;
use damas_rules::variant::Variant;

use super::spsa::{Schedule, Spsa, Tuned};

/// The first line of every state file.
const MAGIC: &str = "damas-tune 1";

/// How the games of a run are played (fixed when the run starts).
#[derive(Clone, Debug, PartialEq)]
pub struct GameSetup {
    /// The rules played.
    pub variant: Variant,
    /// Both engines' time control: a node limit a move (`nodes N` in the file) or a
    /// game clock (`clock BASE+INC`).
    pub control: TimeControl,
    /// Game pairs per iteration (each opening played with both colours).
    pub pairs: usize,
    /// Plies after which a game is adjudicated a draw.
    pub max_plies: usize,
    /// The opening file; `None`: the variant's unbalanced set shipped in `data/openings/`.
    pub openings: Option<PathBuf>,
    /// The engine spec both engines start from (settings such as `hash=8`), before
    /// the node limit and the parameters are added.
    pub engine: String,
}

/// A run: its games and its SPSA state.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneState {
    /// How its games are played.
    pub games: GameSetup,
    /// Where SPSA stands.
    pub spsa: Spsa,
}

/// A state file that could not be read or written.
#[derive(Debug, Error)]
pub enum StateError {
    /// Reading or writing failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The failure.
        source: std::io::Error,
    },
    /// The text is not a state file.
    #[error("{}, line {line}: {reason}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// The line (from 1).
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

impl TuneState {
    /// The state as the text of its file.
    pub fn to_text(&self) -> String {
        let g = &self.games;
        let s = &self.spsa;
        let mut out = format!("{MAGIC}\n");
        out.push_str(&format!("variant {}\n", g.variant.name()));
        match g.control {
            TimeControl::Nodes(n) => out.push_str(&format!("nodes {n}\n")),
            other => {
                let text = other.to_string();
                let clock = text.strip_prefix("clock=").unwrap_or(&text);
                out.push_str(&format!("clock {clock}\n"));
            }
        }
        out.push_str(&format!("pairs {}\n", g.pairs));
        out.push_str(&format!("max-plies {}\n", g.max_plies));
        if let Some(path) = &g.openings {
            out.push_str(&format!("openings {}\n", path.display()));
        }
        out.push_str(&format!("engine {}\n", g.engine));
        out.push_str(&format!("seed {}\n", s.seed));
        out.push_str(&format!("planned {}\n", s.schedule.planned));
        out.push_str(&format!("big-a {}\n", s.schedule.big_a));
        out.push_str(&format!("total {}\n", s.total));
        for p in &s.params {
            out.push_str(&format!(
                "param {} {} {} {} {} {}\n",
                p.name, p.start, p.min, p.max, p.c_end, p.r_end
            ));
        }
        for (k, theta) in s.history.iter().enumerate() {
            let values: Vec<String> = theta.iter().map(f64::to_string).collect();
            out.push_str(&format!("theta {k} {}\n", values.join(" ")));
        }
        out
    }

    /// Read the state in `text`, the contents of `path` (named in errors).
    pub fn parse(text: &str, path: &Path) -> Result<TuneState, StateError> {
        let bad = |line: usize, reason: String| StateError::Parse {
            path: path.to_path_buf(),
            line,
            reason,
        };
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
        match lines.next() {
            Some((_, l)) if l.trim() == MAGIC => {}
            _ => return Err(bad(1, format!("not a state file (expected {MAGIC:?})"))),
        }
        let mut variant = None;
        let mut control = None;
        let mut pairs = None;
        let mut max_plies = None;
        let mut openings = None;
        let mut engine = None;
        let mut seed = None;
        let mut planned = None;
        let mut big_a = None;
        let mut total = None;
        let mut params = Vec::new();
        let mut history: Vec<Vec<f64>> = Vec::new();
        for (n, line) in lines {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            let rest = rest.trim();
            let num = |what: &str| -> Result<f64, StateError> {
                rest.parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| bad(n, format!("{what} must be a number, not {rest:?}")))
            };
            let whole = |what: &str| -> Result<u64, StateError> {
                rest.parse::<u64>()
                    .map_err(|_| bad(n, format!("{what} must be a whole number, not {rest:?}")))
            };
            match key {
                "variant" => {
                    variant = Some(rest.parse::<Variant>().map_err(|e| bad(n, e.to_string()))?)
                }
                "nodes" if control.is_none() => {
                    let nodes = whole("nodes")?;
                    if nodes == 0 {
                        return Err(bad(n, "nodes must be at least 1".into()));
                    }
                    control = Some(TimeControl::Nodes(nodes))
                }
                "clock" if control.is_none() => {
                    control = Some(clock_control(rest).map_err(|e| bad(n, e))?)
                }
                "nodes" | "clock" => return Err(bad(n, "a second time control".into())),
                "pairs" => pairs = Some(whole("pairs")? as usize),
                "max-plies" => max_plies = Some(whole("max-plies")? as usize),
                "openings" => openings = Some(PathBuf::from(rest)),
                "engine" => engine = Some(rest.to_string()),
                "seed" => seed = Some(whole("seed")?),
                "planned" => planned = Some(whole("planned")?),
                "big-a" => big_a = Some(num("big-a")?),
                "total" => total = Some(num("total")?),
                "param" => params.push(parse_param(rest).map_err(|r| bad(n, r))?),
                "theta" => {
                    let mut words = rest.split_whitespace();
                    let k = words.next().and_then(|w| w.parse::<usize>().ok());
                    if k != Some(history.len()) {
                        return Err(bad(
                            n,
                            format!("expected θ after iteration {}", history.len()),
                        ));
                    }
                    let values = words
                        .map(|w| w.parse::<f64>().ok().filter(|v| v.is_finite()))
                        .collect::<Option<Vec<f64>>>()
                        .ok_or_else(|| bad(n, "θ values must be numbers".into()))?;
                    history.push(values);
                }
                other => return Err(bad(n, format!("unknown key {other:?}"))),
            }
        }
        let end = text.lines().count().max(1);
        let need = |name: &str| bad(end, format!("no {name} line"));
        if params.is_empty() {
            return Err(need("param"));
        }
        if history.is_empty() {
            return Err(need("theta"));
        }
        if let Some(row) = history.iter().position(|t| t.len() != params.len()) {
            return Err(bad(
                end,
                format!(
                    "θ after iteration {row} has {} values for {} parameters",
                    history[row].len(),
                    params.len()
                ),
            ));
        }
        let planned = planned.ok_or_else(|| need("planned"))?;
        Ok(TuneState {
            games: GameSetup {
                variant: variant.ok_or_else(|| need("variant"))?,
                control: control.ok_or_else(|| need("nodes or clock"))?,
                pairs: pairs.ok_or_else(|| need("pairs"))?,
                max_plies: max_plies.ok_or_else(|| need("max-plies"))?,
                openings,
                engine: engine.unwrap_or_default(),
            },
            spsa: Spsa {
                params,
                schedule: Schedule {
                    planned,
                    big_a: big_a.ok_or_else(|| need("big-a"))?,
                },
                seed: seed.ok_or_else(|| need("seed"))?,
                k: history.len() as u64 - 1,
                history,
                total: total.unwrap_or(0.0),
            },
        })
    }

    /// Read the state file at `path`; `Ok(None)` when there is none.
    pub fn load(path: &Path) -> Result<Option<TuneState>, StateError> {
        match std::fs::read_to_string(path) {
            Ok(text) => TuneState::parse(&text, path).map(Some),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(StateError::Io {
                path: path.to_path_buf(),
                source,
            }),
        }
    }

    /// Write the state to `path` (a temporary name, then renamed).
    pub fn save(&self, path: &Path) -> Result<(), StateError> {
        damas_rules::atomic_file::write_atomic(path, self.to_text().as_bytes()).map_err(|source| {
            StateError::Io {
                path: path.to_path_buf(),
                source,
            }
        })
    }
}

/// A `param` line's value: `NAME START MIN MAX C_END R_END`.
fn parse_param(rest: &str) -> Result<Tuned, String> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let [name, numbers @ ..] = words.as_slice() else {
        return Err("param needs NAME START MIN MAX C_END R_END".into());
    };
    let values = numbers
        .iter()
        .map(|w| w.parse::<f64>().ok().filter(|v| v.is_finite()))
        .collect::<Option<Vec<f64>>>();
    let Some([start, min, max, c_end, r_end]) = values
        .as_deref()
        .map(<[f64]>::to_vec)
        .and_then(|v| <[f64; 5]>::try_from(v).ok())
    else {
        return Err(format!(
            "param {name}: needs five numbers START MIN MAX C_END R_END"
        ));
    };
    if !(min <= start && start <= max) || c_end <= 0.0 || r_end <= 0.0 {
        return Err(format!(
            "param {name}: needs MIN ≤ START ≤ MAX and positive C_END and R_END"
        ));
    }
    Ok(Tuned {
        name: name.to_string(),
        start,
        min,
        max,
        c_end,
        r_end,
    })
}

/// Check that a state file can be written beside `path` (its directory exists and
/// takes a new file), so that a run never loses its work at the first save.
pub fn check_writable(path: &Path) -> Result<(), StateError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    tempfile::NamedTempFile::new_in(dir)
        .map(drop)
        .map_err(|source| StateError::Io {
            path: path.to_path_buf(),
            source,
        })
}

/// The game clock `BASE+INC` (seconds) of a run, as `damas tune --clock` and the
/// state file's `clock` line give it.
pub fn clock_control(text: &str) -> Result<TimeControl, String> {
    match TimeControl::from_key(TimeControl::CLOCK_KEY, text) {
        Some(Ok(c @ TimeControl::Clock { moves: None, .. })) => Ok(c),
        Some(Ok(_)) => Err(format!(
            "clock {text:?}: moves to go are not tuned, give BASE+INC"
        )),
        Some(Err(e)) => Err(e.to_string()),
        None => Err(format!("clock {text:?} is not BASE+INC")),
    }
}
