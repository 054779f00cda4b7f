//! `damas-train`: self-play games, evaluation training, training curves.

use clap::Parser;

fn main() -> std::process::ExitCode {
    damas::train::cli::run(damas::train::cli::Cli::parse())
}
