//! The Hub engine's settings: one field per `param`, how `set-param` changes them,
//! and how they are announced. Kept apart from the engine loop so the rules for each
//! parameter can be read (and tested) without a running engine.

use std::path::PathBuf;
use std::sync::Arc;

use damas_egdb::Egdb;
use damas_engine::eval::EvalName;
use damas_engine::level::Strength;
use damas_engine::search::{
    parse_threads, Oracle, SearchOptions, TableKind, Techniques, MAX_THREADS,
};
use damas_engine::tt::shared::{parse_hash, MAX_MB, MIN_MB};

use super::numbering::MoveNumbering;
use super::protocol::quote;

/// Engine settings, each a Hub `param`.
#[derive(Clone, Debug)]
pub struct Settings {
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
    /// Endgame database directory (empty: none).
    pub egdb_dir: PathBuf,
    /// The database opened from `egdb_dir`, for the search's endgame-database
    /// technique.
    pub egdb: Option<Arc<Egdb>>,
    /// Numbering of squares in moves.
    pub numbering: MoveNumbering,
    /// Static evaluation (`trained` or `material`).
    pub eval: EvalName,
    /// Playing strength 1–10 (`strength`; 10, full strength, by default). Not the
    /// protocol's `level` command, which sets the thinking time.
    pub strength: Strength,
    /// Play from the opening book while the position is in it (`book`, on by
    /// default).
    pub book: bool,
}

impl Default for Settings {
    fn default() -> Self {
        let o = SearchOptions::default();
        Settings {
            table: o.table,
            tt_bits: o.tt_bits,
            hash_mb: o.hash_mb,
            threads: o.threads,
            techniques: o.techniques,
            egdb_dir: PathBuf::new(),
            egdb: None,
            numbering: MoveNumbering::default(),
            eval: EvalName::default(),
            strength: Strength::FULL,
            book: true,
        }
    }
}

impl Settings {
    /// The search options these settings ask for.
    pub fn search_options(&self) -> SearchOptions {
        // An opened database switches the `egdb` technique on: setting `egdb-dir` is
        // how a GUI asks for it.
        SearchOptions::default()
            .with_techniques(self.techniques)
            .with_table_kind(self.table)
            .with_tt_bits(self.tt_bits)
            .with_hash_mb(self.hash_mb)
            .with_threads(self.threads)
            .with_eval(self.eval.evaluation())
            .with_database(self.egdb.clone().map(|db| db as Arc<dyn Oracle>))
    }

    /// The `id` line, one `param` line per setting with its current value, and
    /// `wait`: the engine's answer to `hub`.
    pub fn announcement(&self) -> Vec<String> {
        let s = self;
        vec![
            format!(
                "id name=damas version={} author=\"damas authors\" country=Brazil",
                env!("CARGO_PKG_VERSION")
            ),
            "param name=variant value=brazilian type=enum values=\"brazilian\"".to_string(),
            format!(
                "param name=hash value={} type=int min={MIN_MB} max={MAX_MB}",
                s.hash_mb
            ),
            format!(
                "param name=threads value={} type=int min=1 max={MAX_THREADS}",
                s.threads
            ),
            format!(
                "param name=tt-bits value={} type=int min=10 max=30",
                s.tt_bits
            ),
            format!(
                "param name=techniques value={} type=string",
                quote(&s.techniques.to_string())
            ),
            format!(
                "param name=egdb-dir value={} type=string",
                quote(&s.egdb_dir.display().to_string())
            ),
            format!(
                "param name=move-numbering value={} type=enum values=\"standard rows-reversed\"",
                s.numbering
            ),
            format!(
                "param name=eval value={} type=enum values=\"{}\"",
                s.eval,
                EvalName::ALL.map(|e| e.as_str()).join(" ")
            ),
            format!(
                "param name=strength value={} type=int min=1 max=10",
                s.strength.number()
            ),
            format!("param name=book value={} type=bool", s.book),
            "wait".to_string(),
        ]
    }

    /// Apply `set-param name=… value=…`. `Ok(true)` when the change needs a new
    /// searcher, `Ok(false)` when it does not (or the parameter is unknown, which
    /// the Hub protocol says to ignore), `Err` with the message for an `error` line
    /// when the value is refused (the setting is then unchanged).
    pub fn set(&mut self, name: &str, value: &str) -> Result<bool, String> {
        match name {
            "variant" if value != "brazilian" => {
                Err(format!("unsupported variant {value:?} (only brazilian)"))
            }
            "tt-bits" => match value.parse::<u32>() {
                Ok(b) if (10..=30).contains(&b) => {
                    self.tt_bits = b;
                    self.table = TableKind::Thesis;
                    Ok(true)
                }
                _ => Err(format!(
                    "tt-bits must be a whole number from 10 to 30, not {value:?}"
                )),
            },
            "hash" => {
                self.hash_mb = parse_hash(value).map_err(|e| format!("hash: {e}"))?;
                self.table = TableKind::Replacing;
                Ok(true)
            }
            "threads" => {
                self.threads = parse_threads(value).map_err(|e| format!("threads: {e}"))?;
                Ok(true)
            }
            "techniques" => {
                self.techniques = value.parse::<Techniques>().map_err(|e| e.to_string())?;
                Ok(true)
            }
            // The directory is kept for the endgame-database search technique; an
            // empty value means none.
            "egdb-dir" if value.is_empty() => {
                self.egdb_dir = PathBuf::new();
                self.egdb = None;
                Ok(true)
            }
            // Opening checks every part file, so a bad directory is reported now.
            "egdb-dir" => {
                let db = Egdb::open(value).map_err(|e| format!("egdb-dir {value:?}: {e}"))?;
                self.egdb_dir = PathBuf::from(value);
                self.egdb = Some(Arc::new(db));
                Ok(true)
            }
            "eval" => {
                self.eval = value.parse::<EvalName>().map_err(|e| e.to_string())?;
                Ok(true)
            }
            "strength" => {
                self.strength = value
                    .parse::<Strength>()
                    .map_err(|e| format!("strength: {e}"))?;
                Ok(false)
            }
            "book" => {
                self.book = parse_flag(value)
                    .ok_or_else(|| format!("book must be true or false, not {value:?}"))?;
                Ok(false)
            }
            "move-numbering" => {
                self.numbering = value.parse::<MoveNumbering>().map_err(|e| e.to_string())?;
                Ok(false)
            }
            _ => Ok(false),
        }
    }
}

/// A yes/no value as the Hub parameters and the match's engine specs take it:
/// `true`, `on`, `1` or `false`, `off`, `0`.
pub(crate) fn parse_flag(text: &str) -> Option<bool> {
    match text {
        "true" | "on" | "1" => Some(true),
        "false" | "off" | "0" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_tells_which_changes_need_a_new_searcher() {
        let mut s = Settings::default();
        assert_eq!(s.set("threads", "2"), Ok(true));
        assert_eq!(s.threads, 2);
        assert_eq!(s.set("tt-bits", "12"), Ok(true));
        assert_eq!((s.table, s.tt_bits), (TableKind::Thesis, 12));
        assert_eq!(s.set("hash", "8"), Ok(true));
        assert_eq!((s.table, s.hash_mb), (TableKind::Replacing, 8));
        assert_eq!(s.set("eval", "material"), Ok(true));
        assert_eq!(s.eval, EvalName::Material);
        // Settings read at each move, not by the searcher.
        assert_eq!(s.set("book", "off"), Ok(false));
        assert!(!s.book);
        assert_eq!(s.set("strength", "3"), Ok(false));
        assert_eq!(s.strength.number(), 3);
        assert_eq!(s.set("move-numbering", "rows-reversed"), Ok(false));
        assert_eq!(s.numbering, MoveNumbering::RowsReversed);
        // Unknown parameters are ignored, as the Hub protocol says.
        assert_eq!(s.set("no-such-param", "1"), Ok(false));
    }

    #[test]
    fn refused_values_leave_the_setting_unchanged() {
        let mut s = Settings::default();
        let before = format!("{:?}", s.announcement());
        for (name, value) in [
            ("threads", "0"),
            ("tt-bits", "9"),
            ("tt-bits", "x"),
            ("hash", "-1"),
            ("techniques", "no-such-technique"),
            ("eval", "nnue"),
            ("strength", "11"),
            ("book", "maybe"),
            ("move-numbering", "letters"),
            ("variant", "russian"),
            ("egdb-dir", "/no/such/directory"),
        ] {
            let e = s.set(name, value).expect_err(name);
            assert!(!e.is_empty(), "{name}");
        }
        assert_eq!(format!("{:?}", s.announcement()), before);
    }

    #[test]
    fn the_announcement_lists_every_parameter_with_its_value() {
        let mut s = Settings::default();
        s.set("threads", "2").unwrap();
        let lines = s.announcement();
        assert!(lines[0].starts_with("id name=damas"));
        assert_eq!(lines.last().map(String::as_str), Some("wait"));
        for name in [
            "variant",
            "hash",
            "threads",
            "tt-bits",
            "techniques",
            "egdb-dir",
            "move-numbering",
            "eval",
            "strength",
            "book",
        ] {
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with(&format!("param name={name} "))),
                "{name}"
            );
        }
        assert!(lines
            .iter()
            .any(|l| l.starts_with("param name=threads value=2 ")));
    }
}
