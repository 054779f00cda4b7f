//! Damaged database files: which were found and why (a checksum that does not
//! match, a truncated file, a header that does not read). A damaged file takes
//! only its own slice or part out of play, never the directory; [`Damage`] keeps
//! the list so that every reader can name the file.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::error::EgdbError;

/// A database file found damaged: what answered from it is answered no more.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokenFile {
    /// The file.
    pub path: PathBuf,
    /// What is wrong with it: the checksum, the length or the header.
    pub problem: String,
}

impl BrokenFile {
    /// The file at `path`, damaged as `error` (opening or checking it) says.
    pub fn new(path: &Path, error: &EgdbError) -> BrokenFile {
        let text = error.to_string();
        let prefix = format!("{}: ", path.display());
        let problem = text.strip_prefix(&prefix).unwrap_or(&text).to_string();
        BrokenFile {
            path: path.to_path_buf(),
            problem,
        }
    }

    /// The typed error a reader reports for it ([`EgdbError::Corrupt`]).
    pub fn to_error(&self) -> EgdbError {
        EgdbError::Corrupt {
            path: self.path.clone(),
            problem: self.problem.clone(),
        }
    }
}

impl fmt::Display for BrokenFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_error().fmt(f)
    }
}

/// The damaged files of one database, found when it was opened or, for files
/// checked on first use, since. Clones share one list, so a front end can keep a
/// handle while the database itself serves a search.
#[derive(Clone, Debug, Default)]
pub struct Damage(Arc<Mutex<Vec<BrokenFile>>>);

impl Damage {
    /// Add `file` (once per path).
    pub fn record(&self, file: BrokenFile) {
        let mut list = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if !list.iter().any(|f| f.path == file.path) {
            list.push(file);
        }
    }

    /// The damaged files found so far, in the order found.
    pub fn files(&self) -> Vec<BrokenFile> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Whether no damaged file has been found.
    pub fn is_empty(&self) -> bool {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).is_empty()
    }

    /// The damaged file at `path`, if it is one.
    pub fn file(&self, path: &Path) -> Option<BrokenFile> {
        let list = self.0.lock().unwrap_or_else(|e| e.into_inner());
        list.iter().find(|f| f.path == path).cloned()
    }
}

/// Whether `error`, met opening one file, is damage to that file (its slice or
/// part is left out) rather than a reason to refuse the directory: a file of other
/// rules is the wrong directory, not a damaged one.
pub(crate) fn is_damage(error: &EgdbError) -> bool {
    matches!(
        error,
        EgdbError::Io { .. }
            | EgdbError::BadMagic { .. }
            | EgdbError::BadHeader { .. }
            | EgdbError::BadLength { .. }
            | EgdbError::Checksum { .. }
            | EgdbError::Corrupt { .. }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_file_names_its_path_once() {
        let path = Path::new("d/w20b10.wdl");
        let e = EgdbError::Checksum {
            path: path.to_path_buf(),
            stored: 1,
            computed: 2,
        };
        let b = BrokenFile::new(path, &e);
        assert!(b.problem.starts_with("corrupt: checksum"), "{}", b.problem);
        let text = b.to_string();
        assert!(text.starts_with("d/w20b10.wdl: damaged"), "{text}");
        assert_eq!(text.matches("w20b10").count(), 1, "{text}");
        let d = Damage::default();
        let seen = d.clone();
        d.record(b.clone());
        d.record(b.clone());
        assert_eq!(seen.files(), vec![b.clone()]);
        assert_eq!(seen.file(path), Some(b));
        assert!(!is_damage(&EgdbError::Variant {
            path: path.to_path_buf(),
            found: damas_rules::Variant::Russian,
            expected: damas_rules::Variant::Brazilian,
        }));
    }
}
