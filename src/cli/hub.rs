//! `damas hub`: the Hub protocol engine on stdin/stdout (README, "Hub protocol and bots").

use damas_egdb::location;

use crate::cli::CliError;

/// Arguments of `damas hub` (none: everything is set with `set-param`).
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Run the engine until `quit` or the end of stdin. Nothing is written to stderr.
pub fn run(_args: &Args) -> Result<(), CliError> {
    // Hub clients merge stderr into stdout: a panic message would corrupt the
    // protocol. The engine reports a failed search with `error` and a legal move.
    std::panic::set_hook(Box::new(|_| {}));
    // The standard place holding databases of either rules, when built; the Hub
    // opens those of the variant it plays. `set-param name=egdb-dir` overrides it.
    let egdb = location::find_place(&location::Env::from_process());
    crate::hub::run_stdio(egdb.as_deref());
    Ok(())
}
