//! `damas web`: the board in a browser, served on this machine ([`crate::web`]).

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

use crate::cli::CliError;
use crate::web::engine::EngineHost;
use crate::web::App;
use damas_rules::variant::Variant;

/// Arguments of `damas web`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Port to serve on (0: a free one).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Address to serve on: the loopback by default; any other lets other machines
    /// reach the page and its engine.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Size of the engine's transposition table in megabytes (one engine for all tabs).
    #[arg(long, value_name = "MB", default_value_t = damas_engine::search::DEFAULT_HASH_MB, value_parser = damas_engine::tt::shared::parse_hash)]
    pub hash: usize,
    /// Engine search threads.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = damas_engine::search::parse_threads)]
    pub threads: usize,
    /// Directory of the endgame databases (its `russian/` subfolder for Russian);
    /// without it, those at the standard place, else the built-in ones of 1-4 pieces.
    #[arg(long, value_name = "DIR")]
    pub egdb: Option<PathBuf>,
}

/// Serve until Ctrl-C.
pub fn run(args: &Args) -> Result<(), CliError> {
    let settings = crate::cli::engine_settings(&[
        ("hash", Some(args.hash.to_string())),
        ("threads", Some(args.threads.to_string())),
    ])?;
    let mut databases = Vec::new();
    let mut errors = Vec::new();
    for v in Variant::ALL {
        match crate::cli::open_databases(v, args.egdb.as_deref()) {
            Ok(db) => databases.push((v, db)),
            Err(e) => errors.push(e.message),
        }
    }
    // A directory of one rules' databases serves those rules; the others fall back.
    if databases.iter().all(|(_, db)| db.is_none()) && !errors.is_empty() {
        return Err(CliError::input(errors.join("; ")));
    }
    for e in &errors {
        eprintln!("damas: warning: {e}");
    }
    if !args.host.is_loopback() {
        eprintln!(
            "damas: warning: serving on {}: other machines can reach the page and its engine",
            args.host
        );
    }
    let app = App::new(
        EngineHost::new(settings, databases),
        args.host.is_loopback(),
    );
    let listener =
        std::net::TcpListener::bind(SocketAddr::new(args.host, args.port)).map_err(|e| {
            CliError::input(format!("cannot listen on {}:{}: {e}", args.host, args.port))
        })?;
    let addr = listener
        .local_addr()
        .map_err(|e| CliError::input(format!("cannot listen: {e}")))?;
    let url = format!("http://{addr}/");
    println!("damas web: {url}");
    let _ = std::io::stdout().flush();
    if args.open {
        if let Err(e) = open_browser(&url) {
            eprintln!("damas: warning: cannot open a browser ({e}); open {url}");
        }
    }
    crate::web::run(listener, app, crate::web::ctrl_c()).map_err(|e| CliError {
        message: format!("web server: {e}"),
        status: 1,
    })
}

/// Open `url` in the default browser, without waiting for it.
fn open_browser(url: &str) -> std::io::Result<()> {
    let mut command = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    command
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(drop)
}
