//! `damas-train`: self-play games, evaluation training, training curves.

use clap::Parser;

fn main() -> std::process::ExitCode {
    damas::cli::train::run(damas::cli::train::Cli::parse())
}
