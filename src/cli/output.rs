//! Command output on stdout that survives a closed pipe: `damas analyze | head -1`
//! drops the lines `head` no longer reads instead of panicking as `println!` does, and
//! the command finishes its work (a fit still writes its weights). Files a command
//! writes are checked before the work starts, and their errors name the path given.

use std::fmt::Arguments;
use std::io::{ErrorKind, Write};
use std::path::Path;

/// `println!` for command output (see the module comment).
macro_rules! outln {
    () => {
        $crate::cli::output::write_stdout(format_args!(""), true)
    };
    ($($arg:tt)*) => {
        $crate::cli::output::write_stdout(format_args!($($arg)*), true)
    };
}

/// `print!` for command output (see the module comment).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::output::write_stdout(format_args!($($arg)*), false)
    };
}

/// Write `args` (and a newline when `newline`) to stdout. A reader that has gone away
/// is not an error; any other failure panics as `println!` would.
pub fn write_stdout(args: Arguments<'_>, newline: bool) {
    let mut stdout = std::io::stdout().lock();
    let written = stdout.write_fmt(args).and_then(|()| {
        if newline {
            stdout.write_all(b"\n")
        } else {
            Ok(())
        }
    });
    match written {
        Err(e) if e.kind() != ErrorKind::BrokenPipe => panic!("failed printing to stdout: {e}"),
        _ => {}
    }
}

/// A file or directory a command cannot write: the path as the user gave it, and why.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {path}: {reason}")]
pub struct DestinationError {
    /// The destination as given.
    pub path: String,
    /// Why it cannot be written.
    pub reason: String,
}

impl DestinationError {
    fn new(path: &Path, reason: impl std::fmt::Display) -> DestinationError {
        DestinationError {
            path: path.display().to_string(),
            reason: reason.to_string(),
        }
    }
}

/// The cause of an I/O error without the temporary file's name that an atomic
/// write adds to it (the user never named that file).
pub fn cause(e: &std::io::Error) -> String {
    let inner = e
        .get_ref()
        .and_then(|i| i.source())
        .and_then(|s| s.downcast_ref::<std::io::Error>());
    match (inner, e.raw_os_error()) {
        (Some(inner), _) => cause(inner),
        (None, Some(code)) => std::io::Error::from_raw_os_error(code).to_string(),
        // tempfile's errors end with " at path TEMPORARY".
        (None, None) => {
            let text = e.to_string();
            match text.find(" at path ") {
                Some(i) => text[..i].to_string(),
                None => text,
            }
        }
    }
}

/// The directory a file `path` is written in (`.` for a bare name).
fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Check, before any work, that the file `path` can be written: not a directory, in a
/// directory that exists and takes a new file (one is created and removed there,
/// as the atomic write will). A device such as `/dev/null` is opened instead.
pub fn check_file(path: &Path) -> Result<(), DestinationError> {
    if let Ok(meta) = std::fs::metadata(path) {
        if meta.is_dir() {
            return Err(DestinationError::new(path, "it is a directory"));
        }
        if !meta.is_file() {
            return std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map(drop)
                .map_err(|e| DestinationError::new(path, cause(&e)));
        }
    }
    let dir = directory_of(path);
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => {
            return Err(DestinationError::new(
                path,
                format!("{} is not a directory", dir.display()),
            ))
        }
        Err(e) => {
            return Err(DestinationError::new(
                path,
                format!("directory {}: {}", dir.display(), cause(&e)),
            ))
        }
    }
    tempfile::NamedTempFile::new_in(dir).map(drop).map_err(|e| {
        DestinationError::new(path, format!("directory {}: {}", dir.display(), cause(&e)))
    })
}

/// Check, before any work, that files can be written in the directory `dir`,
/// creating it (and its parents) when it does not exist.
pub fn check_dir(dir: &Path) -> Result<(), DestinationError> {
    std::fs::create_dir_all(dir).map_err(|e| DestinationError::new(dir, cause(&e)))?;
    tempfile::NamedTempFile::new_in(dir)
        .map(drop)
        .map_err(|e| DestinationError::new(dir, cause(&e)))
}

/// Write `bytes` to `path` atomically (temporary file, then rename); the error names
/// `path` as given.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), DestinationError> {
    damas_rules::atomic_file::write_atomic(path, bytes)
        .map_err(|e| DestinationError::new(path, cause(&e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_directory_is_named_before_any_work() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no/such/dir/x.pdn");
        let e = check_file(&path).unwrap_err();
        assert_eq!(e.path, path.display().to_string());
        assert!(e.reason.contains("No such file"), "{e}");
        assert!(check_file(dir.path())
            .unwrap_err()
            .reason
            .contains("directory"));
        assert!(check_file(&dir.path().join("x.pdn")).is_ok());
        // Nothing is left behind by the check.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_failed_write_names_the_path_given_not_a_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gone/x.svg");
        let e = write_file(&path, b"x").unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("cannot write {}: ", path.display())),
            "{e}"
        );
        assert!(!e.contains("gone/.tmp"), "{e}");
        write_file(&dir.path().join("x.svg"), b"x").unwrap();
    }

    #[test]
    fn a_directory_is_created_and_checked() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("a/b");
        check_dir(&sub).unwrap();
        assert!(sub.is_dir());
        let file = dir.path().join("f");
        std::fs::write(&file, b"").unwrap();
        assert!(check_dir(&file.join("c")).is_err());
    }
}
