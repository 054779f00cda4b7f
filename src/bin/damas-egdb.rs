//! `damas-egdb`: build, verify, summarise and probe endgame databases.

use clap::Parser;

fn main() -> std::process::ExitCode {
    damas::cli::egdb::run(damas::cli::egdb::Cli::parse())
}
