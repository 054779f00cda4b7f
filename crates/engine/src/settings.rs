//! The engine's settings: one table ([`SETTINGS`]) with each setting's key, values,
//! default and meaning, the values themselves ([`EngineSettings`], changed by
//! [`EngineSettings::set`]) and the [`SearchOptions`] they produce. Hub `set-param`
//! and the match's engine specs read the same keys through it.

use thiserror::Error;

use crate::eval::EvalName;
use crate::level::Strength;
use crate::search::{
    parse_threads, ParamId, SearchOptions, TableKind, Techniques, Tuning, WinPolicy, MAX_THREADS,
    THESIS_ASPIRATION_DELTA,
};
use crate::time::MoveOverhead;
use crate::tt::shared::{parse_hash, MAX_MB, MIN_MB};
use damas_rules::variant::{Variant, VariantError};

/// The values a setting takes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Values {
    /// A whole number in `min..=max`.
    Int {
        /// Smallest.
        min: i64,
        /// Largest.
        max: i64,
    },
    /// `true`/`on`/`1` or `false`/`off`/`0`.
    Bool,
    /// One of these names.
    Choice(&'static [&'static str]),
    /// Free text with its own syntax.
    Text,
}

/// One engine setting.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Setting {
    /// Its key, as Hub `set-param` and match specs name it.
    pub key: &'static str,
    /// Other names accepted for it.
    pub aliases: &'static [&'static str],
    /// The values it takes.
    pub values: Values,
    /// Whether a change needs a new searcher (a setting of the search itself, not of
    /// the choice of a move).
    pub searcher: bool,
    /// Whether the Hub engine offers it as a `param`.
    pub hub: bool,
    /// What it means, in one line.
    pub doc: &'static str,
}

/// Every engine setting, in the order the Hub announces them.
pub const SETTINGS: [Setting; 16] = [
    Setting {
        key: "variant",
        aliases: &[],
        values: Values::Choice(&Variant::NAMES),
        searcher: true,
        hub: true,
        doc: "Rules played: Brazilian or Russian draughts.",
    },
    Setting {
        key: "hash",
        aliases: &[],
        values: Values::Int {
            min: MIN_MB as i64,
            max: MAX_MB as i64,
        },
        searcher: true,
        hub: true,
        doc: "Size of the replacing (shared) transposition table in megabytes; selects that table.",
    },
    Setting {
        key: "threads",
        aliases: &[],
        values: Values::Int {
            min: 1,
            max: MAX_THREADS as i64,
        },
        searcher: true,
        hub: true,
        doc: "Search threads (Lazy SMP over the shared table; 1 is deterministic).",
    },
    Setting {
        key: "tt-bits",
        aliases: &[],
        values: Values::Int { min: 10, max: 30 },
        searcher: true,
        hub: true,
        doc: "Size of the thesis' never-replacing table as 2^bits entries; selects that table.",
    },
    Setting {
        key: "techniques",
        aliases: &[],
        values: Values::Text,
        searcher: true,
        hub: true,
        doc: "Search techniques joined by `+` (e.g. `pvs+tt`); `default` names the default set (`default+threat`).",
    },
    Setting {
        key: "eval",
        aliases: &[],
        values: Values::Choice(&EvalName::NAMES),
        searcher: true,
        hub: true,
        doc: "Static evaluation: the trained weights or material only.",
    },
    Setting {
        key: "egdb-wins",
        aliases: &[],
        values: Values::Choice(&["play", "verdict"]),
        searcher: true,
        hub: true,
        doc: "Won and lost database endings: `play` them on the evaluation within the counting rules (the winner keeps its material), or score them by the database's `verdict` (exact wins and distances, for analysis).",
    },
    Setting {
        key: "builtin-egdb",
        aliases: &[],
        values: Values::Bool,
        searcher: true,
        hub: true,
        doc: "Where no database directory is set or found, search with the 1-4-piece databases built into the program.",
    },
    Setting {
        key: "strength",
        aliases: &["level"],
        values: Values::Int { min: 1, max: 10 },
        searcher: false,
        hub: true,
        doc: "Playing strength 1-10 or its name (10: full strength); `level` in match specs.",
    },
    Setting {
        key: "book",
        aliases: &[],
        values: Values::Bool,
        searcher: false,
        hub: true,
        doc: "Play from the opening book while the position is in it.",
    },
    Setting {
        key: "move-overhead",
        aliases: &[],
        values: Values::Int {
            min: 0,
            max: MoveOverhead::MAX_MS as i64,
        },
        searcher: false,
        hub: true,
        doc: "Milliseconds lost outside the search on every move (pipes, a busy machine), kept off the clock.",
    },
    Setting {
        key: "contempt",
        aliases: &[],
        values: Values::Int {
            min: -MAX_CONTEMPT as i64,
            max: MAX_CONTEMPT as i64,
        },
        searcher: true,
        hub: true,
        doc: "Hundredths of a man a draw by repetition or a counting rule is worth less than an even position to the side the engine plays (negative: more).",
    },
    Setting {
        key: "aspiration",
        aliases: &[],
        values: Values::Int {
            min: 1,
            max: 10_000,
        },
        searcher: true,
        hub: false,
        doc: "Aspiration window half-width in hundredths of a man.",
    },
    Setting {
        key: "tune",
        aliases: &[],
        values: Values::Text,
        searcher: true,
        hub: true,
        doc: "Search and time-management constants away from their defaults as `NAME:VALUE;NAME:VALUE` (e.g. `futility-margin:60`; `default` resets them; docs/tuning.md lists them); empty: the defaults.",
    },
    Setting {
        key: "tt-frontier",
        aliases: &[],
        values: Values::Bool,
        searcher: true,
        hub: false,
        doc: "Whether frontier nodes probe and store in the replacing table.",
    },
    Setting {
        key: "lines",
        aliases: &["multipv"],
        values: Values::Int {
            min: 1,
            max: MAX_LINES as i64,
        },
        searcher: true,
        hub: true,
        doc: "How many best moves a search finds, each with its score and line (multi-PV, on one thread).",
    },
];

/// Largest contempt either way: a draw never outweighs a man.
pub const MAX_CONTEMPT: i32 = 100;

/// Most lines (multi-PV) a search is asked for.
pub const MAX_LINES: usize = 20;

/// The setting named `key` (or one of its aliases).
pub fn setting(key: &str) -> Option<&'static Setting> {
    SETTINGS
        .iter()
        .find(|s| s.key == key || s.aliases.contains(&key))
}

/// A setting that could not be changed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SettingError {
    /// No setting has this key.
    #[error("unknown setting {0:?}")]
    Unknown(String),
    /// The value is not one the setting takes; `reason` is the whole message.
    #[error("{reason}")]
    Value {
        /// The setting.
        key: &'static str,
        /// The value given.
        value: String,
        /// What is wrong.
        reason: String,
    },
}

/// A yes/no value: `true`, `on`, `1` or `false`, `off`, `0`.
pub fn parse_flag(text: &str) -> Option<bool> {
    match text {
        "true" | "on" | "1" => Some(true),
        "false" | "off" | "0" => Some(false),
        _ => None,
    }
}

/// The value of every setting.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSettings {
    /// The rules played (Brazilian by default).
    pub variant: Variant,
    /// Which table: setting `tt-bits` selects the thesis' table of `2^tt_bits`
    /// entries, setting `hash` the replacing one (the default).
    pub table: TableKind,
    /// The thesis' table size as `2^tt_bits` entries.
    pub tt_bits: u32,
    /// The replacing table's size in megabytes.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Search techniques.
    pub techniques: Techniques,
    /// Static evaluation (`trained` or `material`).
    pub eval: EvalName,
    /// Won and lost database endings: played on the evaluation (the default for
    /// play) or scored by the database's verdict (analysis).
    pub egdb_wins: WinPolicy,
    /// Whether the 1–4-piece databases built into the program stand in for a
    /// database directory when none is set or found (on by default).
    pub builtin_egdb: bool,
    /// Playing strength 1–10 (10, full strength, by default).
    pub strength: Strength,
    /// Play from the opening book while the position is in it (on by default).
    pub book: bool,
    /// Time lost outside the search on every move.
    pub move_overhead: MoveOverhead,
    /// How much less than even a draw by the rules is worth to the engine's side,
    /// in hundredths of a man.
    pub contempt: i32,
    /// The engine's tunable constants, the search's and the time manager's, the
    /// aspiration window's half-width among them (settings `tune` and `aspiration`).
    pub tuning: Tuning,
    /// Whether frontier nodes probe the replacing table.
    pub tt_frontier: bool,
    /// How many best moves a search finds (multi-PV; 1: the ordinary search).
    pub lines: usize,
}

impl Default for EngineSettings {
    fn default() -> Self {
        let o = SearchOptions::default();
        EngineSettings {
            variant: o.variant(),
            table: o.table(),
            tt_bits: o.tt_bits(),
            hash_mb: o.hash_mb(),
            threads: o.threads(),
            techniques: o.techniques(),
            eval: EvalName::default(),
            egdb_wins: WinPolicy::Play,
            builtin_egdb: true,
            strength: Strength::FULL,
            book: true,
            move_overhead: MoveOverhead::default(),
            contempt: o.contempt(),
            tuning: *o.tuning(),
            tt_frontier: o.tt_frontier(),
            lines: o.lines(),
        }
    }
}

impl EngineSettings {
    /// The thesis' configuration, which the node-count study measures: its strongest
    /// techniques, its never-replacing table, the material count and its aspiration
    /// half-width, with database endings scored by their verdict.
    pub fn thesis() -> EngineSettings {
        EngineSettings {
            table: TableKind::Thesis,
            techniques: Techniques::strongest(),
            tuning: Tuning::default().with(ParamId::ASPIRATION, THESIS_ASPIRATION_DELTA),
            eval: EvalName::Material,
            egdb_wins: WinPolicy::Verdict,
            ..EngineSettings::default()
        }
    }

    /// Set `key` to `value`; a refused value leaves the settings unchanged.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), SettingError> {
        let setting = setting(key).ok_or_else(|| SettingError::Unknown(key.to_string()))?;
        let bad = |reason: String| SettingError::Value {
            key: setting.key,
            value: value.to_string(),
            reason,
        };
        let key = setting.key;
        let int = || -> Result<i64, SettingError> {
            let Values::Int { min, max } = setting.values else {
                unreachable!("{key} is a whole number")
            };
            value
                .parse::<i64>()
                .ok()
                .filter(|v| (min..=max).contains(v))
                .ok_or_else(|| {
                    bad(format!(
                        "{key} must be a whole number from {min} to {max}, not {value:?}"
                    ))
                })
        };
        let flag = || {
            parse_flag(value)
                .ok_or_else(|| bad(format!("{key} must be true or false, not {value:?}")))
        };
        match setting.key {
            "variant" => {
                self.variant = value
                    .parse()
                    .map_err(|e: VariantError| bad(e.to_string()))?
            }
            "hash" => {
                self.hash_mb = parse_hash(value).map_err(|e| bad(format!("hash: {e}")))?;
                self.table = TableKind::Replacing;
            }
            "threads" => {
                self.threads = parse_threads(value).map_err(|e| bad(format!("threads: {e}")))?
            }
            "tt-bits" => {
                self.tt_bits = int()? as u32;
                self.table = TableKind::Thesis;
            }
            "techniques" => {
                self.techniques = value
                    .parse::<Techniques>()
                    .map_err(|e| bad(e.to_string()))?
            }
            "eval" => {
                self.eval = value
                    .parse()
                    .map_err(|e: crate::eval::EvalNameError| bad(e.to_string()))?
            }
            "egdb-wins" => {
                self.egdb_wins = WinPolicy::from_name(value)
                    .ok_or_else(|| bad(format!("{key} must be play or verdict, not {value:?}")))?
            }
            "builtin-egdb" => self.builtin_egdb = flag()?,
            "strength" => {
                self.strength = value
                    .parse()
                    .map_err(|e: crate::level::StrengthError| bad(format!("strength: {e}")))?
            }
            "book" => self.book = flag()?,
            "move-overhead" => self.move_overhead = MoveOverhead::from_millis(int()? as u64),
            "contempt" => self.contempt = int()? as i32,
            "aspiration" => self.tuning = self.tuning.with(ParamId::ASPIRATION, int()? as i32),
            "tune" => self.tuning.apply(value).map_err(|e| bad(e.to_string()))?,
            "tt-frontier" => self.tt_frontier = flag()?,
            "lines" => self.lines = int()? as usize,
            other => unreachable!("setting {other} has no rule"),
        }
        Ok(())
    }

    /// The value of `key` as [`EngineSettings::set`] reads it.
    pub fn get(&self, key: &str) -> Option<String> {
        Some(match setting(key)?.key {
            "variant" => self.variant.to_string(),
            "hash" => self.hash_mb.to_string(),
            "threads" => self.threads.to_string(),
            "tt-bits" => self.tt_bits.to_string(),
            "techniques" => self.techniques.to_string(),
            "eval" => self.eval.to_string(),
            "egdb-wins" => self.egdb_wins.name().to_string(),
            "builtin-egdb" => self.builtin_egdb.to_string(),
            "strength" => self.strength.number().to_string(),
            "book" => self.book.to_string(),
            "move-overhead" => self.move_overhead.millis().to_string(),
            "contempt" => self.contempt.to_string(),
            "aspiration" => self.tuning.aspiration().to_string(),
            "tune" => self.tuning.to_string(),
            "tt-frontier" => self.tt_frontier.to_string(),
            "lines" => self.lines.to_string(),
            _ => return None,
        })
    }

    /// The search options these settings ask for, with no database and their own
    /// evaluation ([`crate::engine::search_options`]).
    pub fn search_options(&self) -> SearchOptions {
        crate::engine::search_options(self, &crate::engine::Sources::default())
    }
}

/// The settings table as a Markdown table (key, values, default, meaning): what
/// `docs/engine-settings.md` shows.
pub fn markdown_table() -> String {
    let defaults = EngineSettings::default();
    let mut out = String::from("| key | values | default | meaning |\n|---|---|---|---|\n");
    for s in &SETTINGS {
        let values = match s.values {
            Values::Int { min, max } => format!("{min}–{max}"),
            Values::Bool => "true, false".to_string(),
            Values::Choice(names) => names.join(", "),
            Values::Text => "text".to_string(),
        };
        let key = std::iter::once(s.key)
            .chain(s.aliases.iter().copied())
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(" (alias ");
        let key = if s.aliases.is_empty() { key } else { key + ")" };
        let default = defaults.get(s.key).unwrap_or_default();
        out.push_str(&format!("| {key} | {values} | `{default}` | {} |\n", s.doc));
    }
    out
}

#[cfg(test)]
mod tests;
