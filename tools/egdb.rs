//! `damas-egdb`: build, verify, summarise and probe endgame databases.

use clap::Parser;

fn main() -> std::process::ExitCode {
    damas::egdb::cli::run(damas::egdb::cli::Cli::parse())
}
