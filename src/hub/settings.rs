//! The Hub engine's settings: one field per `param`, how `set-param` changes them,
//! and how they are announced. Kept apart from the engine loop so the rules for each
//! parameter can be read (and tested) without a running engine.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use damas_egdb::location::{self, Env};
use damas_egdb::oracle::Oracle;
use damas_egdb::{Egdb, EgdbError};
use damas_engine::engine::Sources;
use damas_engine::search::SearchOptions;
use damas_engine::settings::{self, EngineSettings, SettingError, Values};
use damas_rules::variant::Variant;

use super::numbering::MoveNumbering;
use super::protocol::quote;

/// Engine settings, each a Hub `param`: the engine's own ([`EngineSettings`], the
/// table [`settings::SETTINGS`]) and the Hub's (the database, the move numbering).
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// The engine's settings (`hash`, `threads`, `tt-bits`, `techniques`, `eval`,
    /// `strength`, `book`).
    pub engine: EngineSettings,
    /// Endgame database directory (empty: none).
    pub egdb_dir: PathBuf,
    /// The database opened from `egdb_dir`, for the search's endgame-database
    /// technique; without one the search uses the built-in databases when
    /// `builtin-egdb` is on.
    pub egdb: Option<Arc<Egdb>>,
    /// Numbering of squares in moves.
    pub numbering: MoveNumbering,
}

impl Settings {
    /// The search options these settings ask for.
    pub fn search_options(&self) -> SearchOptions {
        damas_engine::engine::search_options(&self.engine, &self.sources())
    }

    /// Where the engine's databases come from: an opened database switches the
    /// `egdb` technique on (setting `egdb-dir` is how a GUI asks for it); without
    /// one, the 1–4-piece databases built into the program (`builtin-egdb`).
    pub fn sources(&self) -> Sources {
        let found = self.egdb.clone().map(|db| db as Arc<dyn Oracle>);
        Sources {
            databases: damas_engine::engine::Databases::found_or_built_in(
                found,
                self.engine.variant,
                self.engine.builtin_egdb,
            ),
            ..Sources::default()
        }
    }

    /// The `id` line, one `param` line per setting with its current value, and
    /// `wait`: the engine's answer to `hub`. The engine's settings come from its
    /// table, the database and numbering after `techniques`.
    pub fn announcement(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "id name=damas version={} author=\"damas authors\" country=Brazil",
            env!("CARGO_PKG_VERSION")
        )];
        for setting in settings::SETTINGS.iter().filter(|s| s.hub) {
            let value = self.engine.get(setting.key).unwrap_or_default();
            lines.push(match setting.values {
                Values::Int { min, max } => format!(
                    "param name={} value={value} type=int min={min} max={max}",
                    setting.key
                ),
                Values::Bool => format!("param name={} value={value} type=bool", setting.key),
                Values::Choice(names) => format!(
                    "param name={} value={value} type=enum values=\"{}\"",
                    setting.key,
                    names.join(" ")
                ),
                Values::Text => format!(
                    "param name={} value={} type=string",
                    setting.key,
                    quote(&value)
                ),
            });
            if setting.key == "techniques" {
                lines.push(format!(
                    "param name=egdb-dir value={} type=string",
                    quote(&self.egdb_dir.display().to_string())
                ));
                lines.push(format!(
                    "param name=move-numbering value={} type=enum values=\"standard rows-reversed\"",
                    self.numbering
                ));
            }
        }
        lines.push("wait".to_string());
        lines
    }

    /// Apply `set-param name=… value=…`. `Ok(true)` when the change needs a new
    /// searcher, `Ok(false)` when it does not, `Err` with the message for an `error`
    /// line when the value or an unknown name is refused (nothing is then changed).
    pub fn set(&mut self, name: &str, value: &str) -> Result<bool, String> {
        self.apply(name, value).map(|a| a.searcher)
    }

    /// [`Settings::set`], with the note to tell the GUI when a change of `variant`
    /// left the databases of `egdb-dir` unused (they hold the other rules).
    pub fn apply(&mut self, name: &str, value: &str) -> Result<Applied, String> {
        let searcher = |searcher| Applied {
            searcher,
            note: None,
        };
        match name {
            // The directory is kept for the endgame-database search technique; an
            // empty value means none.
            "egdb-dir" if value.is_empty() => {
                self.egdb_dir = PathBuf::new();
                self.egdb = None;
                Ok(searcher(true))
            }
            // Opening checks every part file, so a bad directory is reported now.
            "egdb-dir" => {
                let db = open_egdb(self.engine.variant, Path::new(value))
                    .map_err(|e| format!("egdb-dir {value:?}: {e}"))?;
                let note = damaged_note(&db);
                self.egdb_dir = PathBuf::from(value);
                self.egdb = Some(Arc::new(db));
                Ok(Applied {
                    searcher: true,
                    note,
                })
            }
            "move-numbering" => {
                self.numbering = value.parse::<MoveNumbering>().map_err(|e| e.to_string())?;
                Ok(searcher(false))
            }
            _ => match settings::setting(name).filter(|s| s.hub && s.key == name) {
                Some(setting) => {
                    let before = self.engine.variant;
                    match self.engine.set(name, value) {
                        Ok(()) if self.engine.variant != before => Ok(Applied {
                            searcher: true,
                            note: self.reopen_egdb(),
                        }),
                        Ok(()) => Ok(searcher(setting.searcher)),
                        Err(e @ SettingError::Value { .. }) => Err(e.to_string()),
                        Err(SettingError::Unknown(_)) => Err(unknown_param(name)),
                    }
                }
                None => Err(unknown_param(name)),
            },
        }
    }

    /// Reopen `egdb_dir` for the variant now set (itself or its variant subfolder);
    /// when it holds none of that variant's databases they are dropped (the
    /// directory is kept for a later change back) and the note says why.
    fn reopen_egdb(&mut self) -> Option<String> {
        if self.egdb_dir.as_os_str().is_empty() {
            return None;
        }
        let variant = self.engine.variant;
        match open_egdb(variant, &self.egdb_dir) {
            Ok(db) => {
                let note = damaged_note(&db);
                self.egdb = Some(Arc::new(db));
                note
            }
            Err(e) => {
                self.egdb = None;
                Some(format!(
                    "no {variant} endgame databases in egdb-dir {:?}, none used: {e}",
                    self.egdb_dir.display().to_string()
                ))
            }
        }
    }
}

/// The message for a `set-param` of a parameter this engine does not have.
fn unknown_param(name: &str) -> String {
    format!("unknown parameter {name:?}, ignored (the parameters are those announced on `hub`)")
}

/// What [`Settings::apply`] did.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Applied {
    /// The change needs a new searcher.
    pub searcher: bool,
    /// A note for the GUI (an `error` line) though the value was taken.
    pub note: Option<String>,
}

/// The note naming the damaged files of `db`, if any (each is left out; the rest
/// is used).
pub(super) fn damaged_note(db: &Egdb) -> Option<String> {
    let files: Vec<String> = db.damaged_files().iter().map(|f| f.to_string()).collect();
    (!files.is_empty()).then(|| format!("endgame databases used without {}", files.join("; ")))
}

/// The databases of `variant` in the directory `dir` (itself or its variant
/// subfolder, `location::open`); a directory of other rules is an error naming
/// the file.
pub fn open_egdb(variant: Variant, dir: &Path) -> Result<Egdb, EgdbError> {
    location::open(variant, Some(dir), &Env::default())?.ok_or_else(|| EgdbError::NoParts {
        dir: dir.to_path_buf(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas_engine::eval::EvalName;
    use damas_engine::search::TableKind;

    #[test]
    fn set_tells_which_changes_need_a_new_searcher() {
        let mut s = Settings::default();
        assert_eq!(s.set("threads", "2"), Ok(true));
        assert_eq!(s.engine.threads, 2);
        assert_eq!(s.set("tt-bits", "12"), Ok(true));
        assert_eq!((s.engine.table, s.engine.tt_bits), (TableKind::Thesis, 12));
        assert_eq!(s.set("hash", "8"), Ok(true));
        assert_eq!(
            (s.engine.table, s.engine.hash_mb),
            (TableKind::Replacing, 8)
        );
        assert_eq!(s.set("eval", "material"), Ok(true));
        assert_eq!(s.engine.eval, EvalName::Material);
        // Settings read at each move, not by the searcher.
        assert_eq!(s.set("book", "off"), Ok(false));
        assert!(!s.engine.book);
        assert_eq!(s.set("strength", "3"), Ok(false));
        assert_eq!(s.engine.strength.number(), 3);
        assert_eq!(s.set("move-numbering", "rows-reversed"), Ok(false));
        assert_eq!(s.numbering, MoveNumbering::RowsReversed);
        // An unknown parameter is refused with a message naming it.
        let e = s.set("no-such-param", "1").unwrap_err();
        assert!(e.contains("\"no-such-param\""), "{e}");
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
            ("variant", "italian"),
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
