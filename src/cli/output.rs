//! Command output on stdout that survives a closed pipe: `damas analyze | head -1`
//! drops the lines `head` no longer reads instead of panicking as `println!` does, and
//! the command finishes its work (a fit still writes its weights).

use std::fmt::Arguments;
use std::io::{ErrorKind, Write};

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
