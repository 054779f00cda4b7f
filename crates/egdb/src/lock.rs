//! One builder per database directory.
//!
//! A build holds an exclusive advisory lock on `DIR/.build.lock` from start to end,
//! so two builds cannot write the same temporary file at once (which could rename a
//! mix of both into place). Readers take no lock, by design: every file is written
//! under a temporary name and renamed when whole, never changed in place, so a
//! mapping keeps reading the file it opened (a rename replaces the directory entry,
//! not the mapped inode) and cannot fault (SIGBUS) because of a build. A shared lock
//! would not protect readers from other programs anyway (advisory locks bind only
//! those who take them), and would stop a user from building six pieces while a
//! game reads the five-piece files.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::Path;

use crate::error::EgdbError;

/// Name of the lock file inside the database directory.
pub const LOCK_FILE: &str = ".build.lock";

/// The exclusive lock of a build; released when dropped (or when the process ends).
#[derive(Debug)]
pub struct BuildLock {
    _file: File,
}

impl BuildLock {
    /// Check the piece count (1 to `max`), create `dir` and lock it for a build;
    /// [`EgdbError::Busy`] when another build holds it.
    pub fn acquire(dir: &Path, pieces: usize, max: usize) -> Result<BuildLock, EgdbError> {
        if !(1..=max).contains(&pieces) {
            return Err(EgdbError::Pieces(pieces));
        }
        std::fs::create_dir_all(dir).map_err(|e| EgdbError::io(dir, e))?;
        let path = dir.join(LOCK_FILE);
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| EgdbError::io(&path, e))?;
        match file.try_lock() {
            Ok(()) => Ok(BuildLock { _file: file }),
            Err(TryLockError::WouldBlock) => Err(EgdbError::Busy {
                dir: dir.to_path_buf(),
                lock: LOCK_FILE.into(),
            }),
            Err(TryLockError::Error(e)) => Err(EgdbError::io(&path, e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_build_of_the_same_directory_is_refused_until_the_first_ends() {
        let dir = tempfile::tempdir().unwrap();
        let first = BuildLock::acquire(dir.path(), 3, 5).unwrap();
        let e = BuildLock::acquire(dir.path(), 3, 5).unwrap_err();
        assert!(matches!(e, EgdbError::Busy { .. }), "{e}");
        assert!(e.to_string().contains(LOCK_FILE));
        drop(first);
        BuildLock::acquire(dir.path(), 3, 5).unwrap();
        assert!(matches!(
            BuildLock::acquire(dir.path(), 6, 5),
            Err(EgdbError::Pieces(6))
        ));
    }
}
