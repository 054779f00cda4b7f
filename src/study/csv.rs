//! The study's CSV rows: one per (position, configuration, depth), read and written
//! with the `csv` crate through a serde record whose field order is the header's.
//! Every field is a number or a token without commas (configuration labels, `win 7`,
//! `c3xe5`), so the writer never quotes and the file stays plain comma-separated text.

use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize, Serializer};
use thiserror::Error;

use damas_engine::search::Stats;

/// The header line (without the newline).
pub const HEADER: &str = "position,k,config,depth,nodes,interior,leaves,tt_cutoffs,terminal,egdb_cutoffs,qs_nodes,tt_accesses,tt_compares,score,best,time_ms";

const FIELDS: usize = 16;

/// One line of the file, fields in [`HEADER`] order (serde maps them by position).
#[derive(Serialize, Deserialize)]
struct Record {
    position: usize,
    k: u32,
    config: String,
    depth: u32,
    nodes: u64,
    interior: u64,
    leaves: u64,
    tt_cutoffs: u64,
    terminal: u64,
    egdb_cutoffs: u64,
    qs_nodes: u64,
    tt_accesses: u64,
    tt_compares: u64,
    score: String,
    best: String,
    #[serde(serialize_with = "milliseconds")]
    time_ms: f64,
}

/// Times are written with three decimals (microseconds), as the file always had.
fn milliseconds<S: Serializer>(ms: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(&format_args!("{ms:.3}"))
}

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
    fn record(&self) -> Record {
        let s = &self.stats;
        Record {
            position: self.position,
            k: self.k,
            config: self.config.clone(),
            depth: self.depth,
            nodes: s.nodes,
            interior: s.interior,
            leaves: s.leaves,
            tt_cutoffs: s.tt_cutoffs,
            terminal: s.terminal,
            egdb_cutoffs: s.egdb_cutoffs,
            qs_nodes: s.qs_nodes,
            tt_accesses: s.tt_accesses,
            tt_compares: s.tt_compares,
            score: self.score.clone(),
            best: self.best.clone(),
            time_ms: s.time.as_secs_f64() * 1000.0,
        }
    }

    /// The CSV line (without the newline).
    pub fn to_line(&self) -> String {
        let mut w = RowWriter::new(Vec::new());
        // Writing to memory cannot fail.
        let _ = w.write(self);
        let bytes = w.0.into_inner().unwrap_or_default();
        let mut line = String::from_utf8(bytes).unwrap_or_default();
        line.pop();
        line
    }

    /// The (position, configuration, depth) key that resuming skips on.
    pub fn key(&self) -> (usize, String, u32) {
        (self.position, self.config.clone(), self.depth)
    }
}

/// Appends rows to a results file (whose header the caller has written).
pub struct RowWriter<W: Write>(csv::Writer<W>);

impl<W: Write> RowWriter<W> {
    /// Rows, one a line, to `w` (buffered; call [`RowWriter::flush`]).
    pub fn new(w: W) -> Self {
        RowWriter(
            csv::WriterBuilder::new()
                .has_headers(false)
                .terminator(csv::Terminator::Any(b'\n'))
                .from_writer(w),
        )
    }

    /// Write one row.
    pub fn write(&mut self, row: &Row) -> std::io::Result<()> {
        self.0.serialize(row.record()).map_err(std::io::Error::from)
    }

    /// Flush the buffered rows to the underlying writer and flush it.
    pub fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
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
    /// A line the CSV reader rejects for another reason.
    #[error("line {line}: {message}")]
    Malformed {
        /// 1-based line number.
        line: usize,
        /// The reader's complaint.
        message: String,
    },
}

/// The name of field `index` (0-based) in [`HEADER`].
fn field_name(index: usize) -> &'static str {
    HEADER.split(',').nth(index).unwrap_or("?")
}

fn row_of(line: usize, record: &csv::StringRecord) -> Result<Row, CsvError> {
    if record.len() < FIELDS {
        return Err(CsvError::Fields {
            line,
            found: record.len(),
        });
    }
    let r: Record = record.deserialize(None).map_err(|e| {
        let field = match e.kind() {
            csv::ErrorKind::Deserialize { err, .. } => err.field(),
            _ => None,
        };
        match field {
            Some(i) => CsvError::Number {
                line,
                field: field_name(i as usize),
                text: record.get(i as usize).unwrap_or_default().to_string(),
            },
            None => CsvError::Malformed {
                line,
                message: e.to_string(),
            },
        }
    })?;
    // `inf` and huge values parse as f64 but are no duration.
    let time =
        std::time::Duration::try_from_secs_f64(r.time_ms.max(0.0) / 1000.0).map_err(|_| {
            CsvError::Number {
                line,
                field: field_name(FIELDS - 1),
                text: record.get(FIELDS - 1).unwrap_or_default().to_string(),
            }
        })?;
    let stats = Stats {
        nodes: r.nodes,
        interior: r.interior,
        leaves: r.leaves,
        tt_cutoffs: r.tt_cutoffs,
        terminal: r.terminal,
        egdb_cutoffs: r.egdb_cutoffs,
        qs_nodes: r.qs_nodes,
        tt_accesses: r.tt_accesses,
        tt_compares: r.tt_compares,
        time,
        ..Stats::default()
    };
    Ok(Row {
        position: r.position,
        k: r.k,
        config: r.config,
        depth: r.depth,
        stats,
        score: r.score,
        best: r.best,
    })
}

/// Parse a results file's text. A last line without its newline (an interrupted write)
/// is ignored, so an interrupted run can be resumed.
pub fn parse_rows(text: &str) -> Result<Vec<Row>, CsvError> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let complete = match text.rfind('\n') {
        Some(i) => &text[..=i],
        None => "",
    };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(complete.as_bytes());
    let mut records = reader.records();
    let malformed = |e: csv::Error| CsvError::Malformed {
        line: e.position().map_or(0, |p| p.line() as usize),
        message: e.to_string(),
    };
    match records.next() {
        Some(Ok(h)) if h.iter().eq(HEADER.split(',')) => {}
        _ => return Err(CsvError::Header),
    }
    let mut out = Vec::new();
    for record in records {
        let record = record.map_err(malformed)?;
        if record.iter().all(str::is_empty) {
            continue;
        }
        let line = record.position().map_or(0, |p| p.line() as usize);
        out.push(row_of(line, &record)?);
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
    fn line_format_is_unchanged() {
        // The layout files written before the csv crate used: plain fields, `{:.3}` ms.
        assert_eq!(
            row().to_line(),
            "3,9,pvs+tt,4,10,4,5,0,1,0,3,0,0,win 7,c3xe5,1.500"
        );
    }

    #[test]
    fn written_rows_read_back() {
        let mut other = row();
        other.position = 4;
        other.best = "-".into();
        other.stats.time = std::time::Duration::from_millis(2);
        let mut w = RowWriter::new(format!("{HEADER}\n").into_bytes());
        w.write(&row()).unwrap();
        w.write(&other).unwrap();
        w.flush().unwrap();
        let text = String::from_utf8(w.0.into_inner().unwrap()).unwrap();
        assert_eq!(
            text,
            format!("{HEADER}\n{}\n{}\n", row().to_line(), other.to_line())
        );
        assert_eq!(parse_rows(&text).unwrap(), vec![row(), other]);
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
