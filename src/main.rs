//! The `damas` binary: parses the command line and hands it to the library.

use clap::Parser;

fn main() -> std::process::ExitCode {
    damas::cli::run(damas::cli::Cli::parse())
}
