//! The study's CSV rows: one per (position, configuration, depth). Every field is a
//! number or a token without commas (configuration labels, `win 7`, `c3xe5`), so no
//! quoting is needed.

use std::path::Path;

use thiserror::Error;

use crate::search::Stats;

/// The header line (without the newline).
pub const HEADER: &str = "position,k,config,depth,nodes,interior,leaves,tt_cutoffs,terminal,egdb_cutoffs,qs_nodes,tt_accesses,tt_compares,score,best,time_ms";

const FIELDS: usize = 16;

/// One search result.
#[derive(Clone, PartialEq, Debug)]
pub struct Row {
    /// Index of the position in the positions file (0-based, comments skipped).
    pub position: usize,
    /// Moves played to reach it.
    pub k: u32,
    /// Configuration label.
    pub config: String,
    /// Search depth.
    pub depth: u32,
    /// Node counts (cumulative over the iterations of an iterative search).
    pub stats: Stats,
    /// Root score as printed by the engine.
    pub score: String,
    /// Best move in algebraic notation, `-` when none.
    pub best: String,
}

impl Row {
    /// The CSV line (without the newline).
    pub fn to_line(&self) -> String {
        let s = &self.stats;
        format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{:.3}",
            self.position,
            self.k,
            self.config,
            self.depth,
            s.nodes,
            s.interior,
            s.leaves,
            s.tt_cutoffs,
            s.terminal,
            s.egdb_cutoffs,
            s.qs_nodes,
            s.tt_accesses,
            s.tt_compares,
            self.score,
            self.best,
            s.time.as_secs_f64() * 1000.0
        )
    }

    /// The (position, configuration, depth) key that resuming skips on.
    pub fn key(&self) -> (usize, String, u32) {
        (self.position, self.config.clone(), self.depth)
    }
}

/// A malformed results file.
#[derive(Debug, Error)]
pub enum CsvError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The first line is not [`HEADER`].
    #[error("line 1: not a damas-nodes results header")]
    Header,
    /// A line with the wrong number of fields.
    #[error("line {line}: expected {FIELDS} fields, found {found}")]
    Fields {
        /// 1-based line number.
        line: usize,
        /// Fields found.
        found: usize,
    },
    /// A field that should be a number.
    #[error("line {line}: field {field} is not a number: {text:?}")]
    Number {
        /// 1-based line number.
        line: usize,
        /// Field name.
        field: &'static str,
        /// The text.
        text: String,
    },
}

fn number<T: std::str::FromStr>(
    line: usize,
    field: &'static str,
    text: &str,
) -> Result<T, CsvError> {
    text.parse().map_err(|_| CsvError::Number {
        line,
        field,
        text: text.to_string(),
    })
}

/// Parse a results file's text. A last line without its newline (an interrupted write)
/// is ignored, so an interrupted run can be resumed.
pub fn parse_rows(text: &str) -> Result<Vec<Row>, CsvError> {
    let complete = match text.rfind('\n') {
        Some(i) => &text[..=i],
        None => "",
    };
    let mut lines = complete.lines().enumerate();
    match lines.next() {
        Some((_, h)) if h.trim_end() == HEADER => {}
        None if text.is_empty() => return Ok(Vec::new()),
        _ => return Err(CsvError::Header),
    }
    let names: Vec<&'static str> = HEADER.split(',').collect();
    let mut out = Vec::new();
    for (i, line) in lines {
        let n = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.trim_end().split(',').collect();
        if f.len() < FIELDS {
            return Err(CsvError::Fields {
                line: n,
                found: f.len(),
            });
        }
        let ms: f64 = number(n, names[15], f[15])?;
        // `inf` and huge values parse as f64 but are no duration.
        let time = std::time::Duration::try_from_secs_f64(ms.max(0.0) / 1000.0).map_err(|_| {
            CsvError::Number {
                line: n,
                field: names[15],
                text: f[15].to_string(),
            }
        })?;
        let stats = Stats {
            nodes: number(n, names[4], f[4])?,
            interior: number(n, names[5], f[5])?,
            leaves: number(n, names[6], f[6])?,
            tt_cutoffs: number(n, names[7], f[7])?,
            terminal: number(n, names[8], f[8])?,
            egdb_cutoffs: number(n, names[9], f[9])?,
            qs_nodes: number(n, names[10], f[10])?,
            tt_accesses: number(n, names[11], f[11])?,
            tt_compares: number(n, names[12], f[12])?,
            time,
            ..Stats::default()
        };
        out.push(Row {
            position: number(n, names[0], f[0])?,
            k: number(n, names[1], f[1])?,
            config: f[2].to_string(),
            depth: number(n, names[3], f[3])?,
            stats,
            score: f[13].to_string(),
            best: f[14].to_string(),
        });
    }
    Ok(out)
}

/// Read a results file; a missing file has no rows.
pub fn read_rows(path: &Path) -> Result<Vec<Row>, CsvError> {
    match std::fs::read_to_string(path) {
        Ok(text) => parse_rows(&text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(source) => Err(CsvError::Io {
            path: path.display().to_string(),
            source,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row() -> Row {
        let stats = Stats {
            nodes: 10,
            interior: 4,
            leaves: 5,
            terminal: 1,
            qs_nodes: 3,
            time: std::time::Duration::from_micros(1500),
            ..Stats::default()
        };
        Row {
            position: 3,
            k: 9,
            config: "pvs+tt".into(),
            depth: 4,
            stats,
            score: "win 7".into(),
            best: "c3xe5".into(),
        }
    }

    #[test]
    fn round_trip() {
        let text = format!("{HEADER}\n{}\n", row().to_line());
        assert_eq!(parse_rows(&text).unwrap(), vec![row()]);
    }

    #[test]
    fn torn_last_line_is_ignored() {
        let line = row().to_line();
        let text = format!("{HEADER}\n{line}\n{}", &line[..8]);
        assert_eq!(parse_rows(&text).unwrap().len(), 1);
    }

    #[test]
    fn errors_name_the_line() {
        assert!(matches!(parse_rows("a,b\n"), Err(CsvError::Header)));
        let bad = format!("{HEADER}\n1,2,ab\n");
        assert!(matches!(
            parse_rows(&bad),
            Err(CsvError::Fields { line: 2, found: 3 })
        ));
        let bad = format!("{HEADER}\n{}\n", row().to_line().replacen("10", "x", 1));
        assert!(
            matches!(parse_rows(&bad), Err(CsvError::Number { line: 2, .. })),
            "{:?}",
            parse_rows(&bad)
        );
    }

    #[test]
    fn infinite_or_huge_time_is_an_error_not_a_panic() {
        for t in ["inf", "-inf", "1e300", "NaN"] {
            let line = row().to_line();
            let cut = line.rfind(',').unwrap();
            let text = format!("{HEADER}\n{},{t}\n", &line[..cut]);
            let got = parse_rows(&text);
            if t == "NaN" || t == "-inf" {
                // Clamped to zero like any negative time.
                assert_eq!(got.unwrap()[0].stats.time, std::time::Duration::ZERO);
            } else {
                assert!(
                    matches!(
                        got,
                        Err(CsvError::Number {
                            line: 2,
                            field: "time_ms",
                            ..
                        })
                    ),
                    "{t}: {got:?}"
                );
            }
        }
    }
}
