//! `damas hub`: the Hub protocol engine on stdin/stdout (README, "Hub protocol and bots").

use std::path::Path;

use damas_egdb::location;
use damas_rules::variant::Variant;

use crate::cli::CliError;

/// Arguments of `damas hub` (none: everything is set with `set-param`).
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Run the engine until `quit` or the end of stdin. Nothing is written to stderr.
pub fn run(_args: &Args) -> Result<(), CliError> {
    // Hub clients merge stderr into stdout: a panic message would corrupt the
    // protocol. The engine reports a failed search with `error` and a legal move.
    std::panic::set_hook(Box::new(|_| {}));
    // The databases at the standard place, when built (Brazilian, else Russian ones
    // in its `russian/` subfolder); `set-param name=egdb-dir` overrides them.
    let env = location::Env::from_process();
    let egdb = location::find(None, &env).or_else(|| {
        let russian = location::find_for(Variant::Russian, None, &env)?;
        Some(russian.parent().map_or(russian.clone(), Path::to_path_buf))
    });
    crate::hub::run_stdio(egdb.as_deref());
    Ok(())
}
