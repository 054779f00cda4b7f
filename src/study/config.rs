//! Study configurations: a label as written by the user (`ab+id`, `pvs+asp+tt`) and the
//! techniques it switches on. Quiescence is always added, as in the thesis (its nodes
//! are counted apart). Presets name the thesis' table 6.2 and the extra rows.

use std::fmt;

use thiserror::Error;

use damas_engine::search::{TechniqueError, Techniques};

/// One configuration of the study.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Config {
    /// The label written in the CSV (as given, e.g. `ab+id+tt`).
    pub label: String,
    /// What it switches on (quiescence always included).
    pub techniques: Techniques,
}

/// The eight rows of the thesis' table 6.2, slowest first, with its mean nodes at
/// depths 6, 10 and 14.
pub const THESIS_TABLE: [(&str, [u64; 3]); 8] = [
    ("ab+id", [2_423, 116_790, 4_818_576]),
    ("pvs", [1_946, 87_873, 3_537_031]),
    ("ab", [1_706, 82_428, 3_522_847]),
    ("ab+tt", [1_374, 42_448, 1_037_559]),
    ("ab+id+tt", [1_524, 29_708, 427_175]),
    ("pvs+id+tt", [1_512, 29_082, 417_349]),
    ("pvs+asp+tt", [1_510, 29_043, 416_945]),
    ("pvs+asp+tt+egdb", [1_501, 28_683, 412_156]),
];

/// The depths of the thesis' table 6.2.
pub const THESIS_DEPTHS: [u32; 3] = [6, 10, 14];

/// The extra configurations beyond the thesis (each on top of its best non-database row).
pub const EXTRA: [&str; 6] = [
    "pvs+asp+tt+killers",
    "pvs+asp+tt+history",
    "pvs+asp+tt+etc",
    "mtdf+id+tt",
    "pvs+asp+tt+killers+history",
    "pvs+asp+tt+killers+history+etc",
];

/// The forward-pruning experiment: selective deepening at keep-rates 0.35 and 0.5 and
/// the full-width row it is compared with.
pub const SELECTIVE: [&str; 3] = ["pvs+asp+tt", "pvs+asp+tt+sel35", "pvs+asp+tt+sel50"];

/// A bad configuration list.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// A technique name is unknown.
    #[error("configuration {label:?}: {source}")]
    Technique {
        /// The configuration.
        label: String,
        /// Why.
        source: TechniqueError,
    },
    /// Nothing given.
    #[error("no configuration given")]
    Empty,
}

impl Config {
    /// Parse one label. `default` is the engine's default techniques.
    pub fn parse(label: &str) -> Result<Config, ConfigError> {
        let mut techniques = if label == "default" {
            damas_engine::search::Techniques::strongest()
        } else {
            label
                .parse::<Techniques>()
                .map_err(|source| ConfigError::Technique {
                    label: label.to_string(),
                    source,
                })?
        };
        techniques.qs = true;
        Ok(Config {
            label: label.to_string(),
            techniques,
        })
    }

    /// Whether this is the same search as `other` (labels may be spelt differently).
    pub fn same_search(&self, other: &Config) -> bool {
        self.techniques == other.techniques
    }

    /// The thesis' figures for this configuration, if it is a row of table 6.2.
    pub fn thesis_row(&self) -> Option<[u64; 3]> {
        THESIS_TABLE
            .iter()
            .find(|(l, _)| Config::parse(l).is_ok_and(|c| c.same_search(self)))
            .map(|r| r.1)
    }
}

impl fmt::Display for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label)
    }
}

/// Parse a list of labels separated by commas or spaces; presets `thesis` (table 6.2),
/// `extra` and `selective` expand to their rows. Duplicates are dropped.
pub fn parse_configs(list: &str) -> Result<Vec<Config>, ConfigError> {
    let mut out: Vec<Config> = Vec::new();
    for item in list
        .split([',', ' '])
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        let labels: Vec<&str> = match item {
            "thesis" => THESIS_TABLE.iter().map(|r| r.0).collect(),
            "extra" => EXTRA.to_vec(),
            "selective" => SELECTIVE.to_vec(),
            one => vec![one],
        };
        for l in labels {
            let c = Config::parse(l)?;
            if !out.iter().any(|o| o.label == c.label) {
                out.push(c);
            }
        }
    }
    if out.is_empty() {
        return Err(ConfigError::Empty);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_and_labels() {
        let c = parse_configs("thesis, ab+tt pvs").unwrap();
        assert_eq!(c.len(), 8, "ab+tt and pvs are already in the thesis rows");
        assert!(c.iter().all(|c| c.techniques.qs));
        assert_eq!(c[0].label, "ab+id");
        assert!(parse_configs("ab+bogus").is_err());
        assert!(parse_configs(" , ").is_err());
    }

    #[test]
    fn thesis_rows_match_by_techniques() {
        let c = Config::parse("tt+asp+pvs").unwrap();
        assert_eq!(c.thesis_row(), Some([1_510, 29_043, 416_945]));
        assert_eq!(Config::parse("pvs+killers").unwrap().thesis_row(), None);
    }
}
