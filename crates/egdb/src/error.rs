//! Errors of the endgame database: every one names the file or directory concerned.

use std::path::{Path, PathBuf};

use damas_rules::Variant;
use thiserror::Error;

/// Why a database could not be opened, built or checked.
#[derive(Debug, Error)]
pub enum EgdbError {
    /// Reading, writing or mapping a file failed.
    #[error("{}: {source}", .path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The directory holds no part file.
    #[error("{}: no endgame database part found (expected part1.val …)", .dir.display())]
    NoParts {
        /// The directory searched.
        dir: PathBuf,
    },
    /// The file does not start with the magic bytes: not one of our files.
    #[error("{}: not a damas endgame file (bad magic)", .path.display())]
    BadMagic {
        /// The file.
        path: PathBuf,
    },
    /// A header field has a value this program does not accept.
    #[error("{}: bad header: {what}", .path.display())]
    BadHeader {
        /// The file.
        path: PathBuf,
        /// Which field and what was found.
        what: String,
    },
    /// The file is shorter or longer than its header says.
    #[error("{}: {problem}: expected {expected} bytes, found {found}", .path.display())]
    BadLength {
        /// The file.
        path: PathBuf,
        /// `truncated` or `trailing bytes`.
        problem: &'static str,
        /// Size the header implies.
        expected: u64,
        /// Actual size.
        found: u64,
    },
    /// The body does not match the checksum in the header: the file is corrupt.
    #[error("{}: corrupt: checksum {computed:#018x} does not match header {stored:#018x}", .path.display())]
    Checksum {
        /// The file.
        path: PathBuf,
        /// Checksum in the header.
        stored: u64,
        /// Checksum of the body.
        computed: u64,
    },
    /// A file found damaged (its checksum, length or header): the slice or part
    /// it holds is left out, the rest of the directory still answers.
    #[error("{}: damaged ({problem}); delete it and run `damas-egdb build` again to remake it", .path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        problem: String,
    },
    /// Building part `pieces` needs the smaller parts, and one is missing.
    #[error("{}: part {pieces} is missing; build the smaller parts first", .dir.display())]
    MissingPart {
        /// The database directory.
        dir: PathBuf,
        /// The missing part.
        pieces: usize,
    },
    /// A piece count the requested generation does not cover.
    #[error("unsupported piece count {0} (first-generation parts: 1 to {max}; slices: 1 to {slices})", max = crate::parts::index::MAX_PIECES, slices = crate::slices::slice::MAX_SLICE_PIECES)]
    Pieces(usize),
    /// The build found an inconsistency (a bug, or a smaller part that is wrong).
    #[error("{}: build of part {pieces} failed: {what}", .dir.display())]
    Build {
        /// The database directory.
        dir: PathBuf,
        /// The part being built.
        pieces: usize,
        /// What went wrong.
        what: String,
    },
    /// Another build holds the directory's lock.
    #[error("{}: another build is writing this directory (it holds {})", .dir.display(), .lock.display())]
    Busy {
        /// The database directory.
        dir: PathBuf,
        /// The lock file held (its name in `dir`).
        lock: PathBuf,
    },
    /// A file of one rule variant where another's were asked for.
    #[error("{}: a {found} endgame file, but {expected} databases were asked for (Russian files live in a `russian/` subfolder)", .path.display())]
    Variant {
        /// The file.
        path: PathBuf,
        /// The variant its header names.
        found: Variant,
        /// The variant being opened or built.
        expected: Variant,
    },
    /// The first-generation parts exist for Brazilian rules only.
    #[error("first-generation parts are Brazilian only; build {0} databases as slices (without --legacy or --distances)")]
    LegacyVariant(Variant),
    /// The thread pool could not be created.
    #[error("cannot start {threads} threads: {source}")]
    Threads {
        /// Requested threads.
        threads: usize,
        /// The underlying error.
        source: rayon::ThreadPoolBuildError,
    },
}

impl EgdbError {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> EgdbError {
        EgdbError::Io {
            path: path.into(),
            source,
        }
    }

    /// `Ok` when the checksum computed over a file's body is the one its header
    /// stores, else [`EgdbError::Checksum`] naming the file.
    pub fn check_sum(path: &Path, stored: u64, computed: u64) -> Result<(), EgdbError> {
        if computed == stored {
            Ok(())
        } else {
            Err(EgdbError::Checksum {
                path: path.to_path_buf(),
                stored,
                computed,
            })
        }
    }
}
