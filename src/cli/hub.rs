//! `damas hub`: the Hub protocol engine on stdin/stdout (SPEC §6).

use crate::cli::CliError;

/// Arguments of `damas hub` (none: everything is set with `set-param`).
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Run the engine until `quit` or the end of stdin. Nothing is written to stderr.
pub fn run(_args: &Args) -> Result<(), CliError> {
    crate::hub::run_stdio();
    Ok(())
}
