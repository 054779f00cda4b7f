//! Match players: the built-in searcher with given settings, or any Hub engine run as
//! a child process. Both are described by an [`EngineSpec`] such as
//! `techniques=pvs+tt,depth=6` or `time=0.2,cmd=/usr/bin/scan hub`.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use crate::hub::{ClientError, HubClient, MoveNumbering};
use damas_engine::engine::{Databases, Engine, Sources};
use damas_engine::search::TableKind;
use damas_engine::settings::{self as engine_settings, EngineSettings};
use damas_engine::think::{think, Think};
use damas_engine::time::TimeControl;
use damas_engine::time::{Clock, MoveBudget};
use damas_rules::game::Game;
use damas_rules::moves::Move;

/// The time control of one move under a player's `limit`; `left` is the time on the
/// match runner's clock now (a clock's base time before the first move).
pub fn move_control(limit: &TimeControl, left: Option<Duration>) -> TimeControl {
    match *limit {
        // Hub clients send the time before the increment, which engines add back.
        TimeControl::Clock { moves, time, inc } => TimeControl::Clock {
            moves,
            time: left.unwrap_or(time).saturating_sub(inc),
            inc,
        },
        fixed => fixed,
    }
}

/// A player description: `key=value` pairs separated by commas. Keys: `name`,
/// `techniques` (e.g. `pvs+tt`), `tt-bits` (the thesis' table of `2^bits` entries),
/// `hash` (the replacing table's megabytes), `threads`, `aspiration` (the aspiration
/// window's half-width in hundredths of a man), `move-overhead` (milliseconds lost
/// outside the search on every move), `contempt` (hundredths of a man a draw by
/// the rules is worth less than even to this engine), `tt-frontier` (`false`: frontier
/// nodes leave the replacing table alone, see
/// [`damas_engine::search::SearchOptions::tt_frontier`]), the time control in its text
/// form ([`TimeControl`]: `depth`, `nodes`, `time` or `move-time` (seconds per move),
/// `clock` (`BASE+INC` in seconds, e.g. `60+0.5`)), `eval` (`trained` or `material`),
/// `weights` (a weight file for the trained evaluation), `egdb` (an endgame database
/// directory; a Hub engine is sent it as `egdb-dir`), `strength` (playing strength
/// 1–10 or its name, see [`damas_engine::level`]; `level` is the same key),
/// `move-numbering` (Hub move numbering, as the Hub parameter; `numbering` is the same
/// key) and `cmd`, which must come last and takes the rest of the text: the command
/// line of a Hub engine.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// The spec as given.
    pub text: String,
    /// Display name, if given.
    pub name: Option<String>,
    /// The engine settings (`techniques`, `tt-bits`, `hash`, `threads`, `aspiration`,
    /// `tt-frontier`, `eval`, `strength` (or `level`), `book`), read by the engine's
    /// settings table; the book is off unless asked for, as a match plays its own
    /// openings.
    pub settings: EngineSettings,
    /// The settings the spec gave (their table keys), in order: what a Hub engine is
    /// sent, and what only the built-in engine can honour.
    pub given: Vec<&'static str>,
    /// Thinking limit per move (default depth 6): a fixed depth, node count or time,
    /// or a game clock (`moves` unset) that the match runner counts down.
    pub limit: TimeControl,
    /// Hub engine command line, or `None` for the built-in engine.
    pub command: Option<String>,
    /// Move numbering of the Hub engine.
    pub numbering: MoveNumbering,
    /// Weight file of the built-in engine's trained evaluation (`weights=FILE`).
    pub weights: Option<std::path::PathBuf>,
    /// Endgame database directory (`egdb=DIR`): the built-in engine searches with
    /// it; a Hub engine is sent it as `egdb-dir`. `None`: the databases built into
    /// the program (`builtin-egdb`, on by default).
    pub egdb: Option<std::path::PathBuf>,
}

/// A malformed engine spec.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad engine spec {spec:?}: {reason}")]
pub struct SpecError {
    /// The text given.
    pub spec: String,
    /// What is wrong.
    pub reason: String,
}

impl FromStr for EngineSpec {
    type Err = SpecError;
    fn from_str(text: &str) -> Result<EngineSpec, SpecError> {
        let bad = |reason: String| SpecError {
            spec: text.to_string(),
            reason,
        };
        let mut spec = EngineSpec {
            text: text.to_string(),
            name: None,
            settings: EngineSettings {
                book: false,
                ..EngineSettings::default()
            },
            given: Vec::new(),
            limit: TimeControl::Depth(6),
            command: None,
            numbering: MoveNumbering::Standard,
            weights: None,
            egdb: None,
        };
        let mut rest = text.trim();
        while !rest.is_empty() {
            if let Some(cmd) = rest.strip_prefix("cmd=") {
                if cmd.trim().is_empty() {
                    return Err(bad("cmd= needs a command".into()));
                }
                spec.command = Some(cmd.trim().to_string());
                break;
            }
            let (item, tail) = rest.split_once(',').unwrap_or((rest, ""));
            rest = tail.trim_start();
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| bad(format!("{item:?} is not key=value")))?;
            let (key, value) = (key.trim(), value.trim());
            let number = |what: &str| bad(format!("{key}={value:?}: expected {what}"));
            // The time control, in its one text form (times in seconds).
            if let Some(control) = TimeControl::from_key(key, value) {
                spec.limit = control.map_err(|e| bad(e.to_string()))?;
                // The match runner counts a clock down for the whole game.
                if let TimeControl::Clock { moves: Some(_), .. } = spec.limit {
                    return Err(number("a clock for the whole game, without moves to go"));
                }
                continue;
            }
            // The engine's settings, read by its table (`level` is its alias of `strength`).
            if let Some(setting) = engine_settings::setting(key) {
                spec.settings
                    .set(key, value)
                    .map_err(|e| bad(e.to_string()))?;
                spec.given.retain(|&k| k != setting.key);
                spec.given.push(setting.key);
                continue;
            }
            match key {
                "name" => spec.name = Some(value.to_string()),
                "weights" => {
                    let path = std::path::PathBuf::from(value);
                    damas_engine::eval::Weights::load(&path).map_err(|e| bad(e.to_string()))?;
                    spec.weights = Some(path);
                }
                "egdb" if value.is_empty() => return Err(number("a database directory")),
                "egdb" => spec.egdb = Some(std::path::PathBuf::from(value)),
                // The Hub parameter's name; `numbering` is the older spelling.
                "move-numbering" | "numbering" => {
                    spec.numbering = value
                        .parse()
                        .map_err(|e: crate::hub::numbering::NumberingError| bad(e.to_string()))?
                }
                other => return Err(bad(format!("unknown key {other:?} ({})", known_keys()))),
            }
        }
        // These tune damas's own search; a Hub engine has no parameter for them,
        // and dropping them would play a different match than the one asked for.
        if spec.command.is_some() {
            let own: Vec<&str> = [
                ("aspiration", spec.gave("aspiration")),
                ("tt-frontier", spec.gave("tt-frontier")),
                ("weights", spec.weights.is_some()),
            ]
            .into_iter()
            .filter_map(|(key, given)| given.then_some(key))
            .collect();
            if !own.is_empty() {
                return Err(bad(format!(
                    "{}: for the built-in engine only, not a Hub engine (cmd=)",
                    own.join(", ")
                )));
            }
        }
        // Opened once here (for the rules the spec plays, whatever the key order), so
        // that a wrong directory stops the match before its first game. A Hub engine
        // opens it itself.
        if let (Some(dir), None) = (&spec.egdb, &spec.command) {
            crate::hub::settings::open_egdb(spec.settings.variant, dir)
                .map_err(|e| bad(format!("egdb={}: {e}", dir.display())))?;
        }
        // A thesis table size selects the thesis' table, whatever the order.
        if spec.gave("tt-bits") {
            spec.settings.table = TableKind::Thesis;
        }
        Ok(spec)
    }
}

/// The keys a spec takes besides the engine settings and the time control's (the
/// arms of [`EngineSpec::from_str`]'s match).
const SPEC_KEYS: [&str; 6] = [
    "name",
    "weights",
    "egdb",
    "move-numbering",
    "numbering",
    "cmd",
];

/// Every key a spec takes, for the message about one it does not: its own and
/// those of the settings table, with their aliases.
fn known_keys() -> String {
    let settings = engine_settings::SETTINGS
        .iter()
        .flat_map(|s| std::iter::once(s.key).chain(s.aliases.iter().copied()));
    SPEC_KEYS
        .iter()
        .copied()
        .chain(TimeControl::KEYS)
        .chain([TimeControl::CLOCK_KEY])
        .chain(settings)
        .collect::<Vec<_>>()
        .join(", ")
}

impl EngineSpec {
    /// Whether the spec gave the setting `key` (a table key).
    pub fn gave(&self, key: &str) -> bool {
        self.given.contains(&key)
    }

    /// The value of the setting `key` when the spec gave it, as the table writes it.
    pub fn setting(&self, key: &str) -> Option<String> {
        self.gave(key).then(|| self.settings.get(key)).flatten()
    }
}

impl fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name.as_deref().unwrap_or(&self.text))
    }
}

/// Why a player could not move.
#[derive(Debug, Error)]
pub enum PlayerError {
    /// The Hub engine failed.
    #[error(transparent)]
    Client(#[from] ClientError),
    /// The engine returned no move in a position that has one.
    #[error("the engine returned no move")]
    NoMove,
    /// The spec asks for something the Hub engine does not offer.
    #[error("{0}")]
    Unsupported(String),
}

/// Something that chooses moves in a game.
pub trait Player {
    /// Name for the game record.
    fn name(&self) -> String;
    /// A new game starts (clear tables).
    fn new_game(&mut self) -> Result<(), PlayerError>;
    /// The move to play in the game's current position; `clock` is the time left
    /// in clock games.
    fn choose(&mut self, game: &Game, clock: Option<Duration>) -> Result<Move, PlayerError>;
    /// The player's time control (`depth`, `nodes`, `time` or `clock`).
    fn limit(&self) -> TimeControl;
    /// Base time and increment when the player plays on a clock.
    fn clock(&self) -> Option<(Duration, Duration)> {
        self.limit().game_clock()
    }
}

/// The built-in searcher.
pub struct InternalPlayer {
    name: String,
    /// The engine, assembled from the spec's settings.
    pub(crate) engine: Engine,
    limit: TimeControl,
    rng: ChaCha8Rng,
}

impl InternalPlayer {
    /// A player for `spec` (which must not have a command).
    pub fn new(spec: &EngineSpec) -> InternalPlayer {
        InternalPlayer {
            name: spec.to_string(),
            engine: Engine::new(&spec.settings, &sources(spec)),
            limit: spec.limit,
            rng: ChaCha8Rng::from_entropy(),
        }
    }
}

/// Where the engine of `spec` gets its weights and databases. The files were read
/// once when the spec was parsed; weights changed since then fall back to the
/// embedded ones, and a directory that no longer opens plays without databases,
/// rather than failing mid-match.
fn sources(spec: &EngineSpec) -> Sources {
    let settings = &spec.settings;
    let evaluation = Sources::weights(spec.weights.as_deref()).unwrap_or_else(|e| {
        eprintln!("warning: {e}; using the embedded weights");
        None
    });
    let databases = match spec
        .egdb
        .as_deref()
        .map(|dir| crate::hub::settings::open_egdb(settings.variant, dir))
    {
        Some(Ok(db)) => Databases::Search(Arc::new(db)),
        Some(Err(e)) => {
            eprintln!("warning: {e}; playing without endgame databases");
            Databases::None
        }
        // Without a directory, the built-in ones (`builtin-egdb`).
        None => damas_engine::engine::Databases::found_or_built_in(
            None,
            settings.variant,
            settings.builtin_egdb,
        ),
    };
    Sources {
        databases,
        evaluation,
        ..Sources::default()
    }
}

impl Player for InternalPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn new_game(&mut self) -> Result<(), PlayerError> {
        self.engine.searcher.clear();
        Ok(())
    }
    fn choose(&mut self, game: &Game, clock: Option<Duration>) -> Result<Move, PlayerError> {
        let pos = game.position();
        // The same time management as `damas hub`.
        let job = Think {
            pos: &pos,
            history: game.history(),
            book: self.engine.book,
            strength: self.engine.strength,
            lines: None,
            forced_without_search: true,
        };
        let budget = MoveBudget::for_level(
            &move_control(&self.limit, clock),
            self.engine.overhead,
            self.engine.searcher.options().tuning(),
        );
        let thought = think(
            &mut self.engine.searcher,
            &job,
            &mut self.rng,
            &Clock::new(budget),
            &mut |_| {},
        );
        thought.result.best.ok_or(PlayerError::NoMove)
    }
    fn limit(&self) -> TimeControl {
        self.limit
    }
}

/// A Hub engine child process, started again for the next game after it fails.
pub struct HubPlayer {
    name: String,
    client: HubClient,
    /// What it was started from (its time limit, and to start it again).
    spec: EngineSpec,
    /// Whether it failed (died, hung, answered nonsense) since it was started.
    failed: bool,
}

impl HubPlayer {
    /// Start the engine of `spec` (which must have a command).
    pub fn spawn(spec: &EngineSpec) -> Result<HubPlayer, PlayerError> {
        let command = spec.command.as_deref().unwrap_or_default();
        let mut client = HubClient::spawn(command, spec.settings.variant)?;
        client.numbering = spec.numbering;
        let params = spec
            .hub_params(&client.params)
            .map_err(PlayerError::Unsupported)?;
        for (name, value) in params {
            client.set_param(name, &value)?;
        }
        let name = spec.name.clone().unwrap_or_else(|| client.name());
        Ok(HubPlayer {
            name,
            client,
            spec: spec.clone(),
            failed: false,
        })
    }

    /// Ask the engine to quit.
    pub fn quit(self) {
        self.client.quit();
    }
}

impl Player for HubPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn new_game(&mut self) -> Result<(), PlayerError> {
        if self.failed {
            // A failure loses one game, not the rest of the match.
            let fresh = HubPlayer::spawn(&self.spec)?;
            std::mem::replace(self, fresh).quit();
        }
        let started = self.client.new_game();
        self.failed = started.is_err();
        started?;
        Ok(())
    }
    fn choose(&mut self, game: &Game, clock: Option<Duration>) -> Result<Move, PlayerError> {
        let timeout = match self.spec.limit {
            TimeControl::MoveTime(t) => t * 3 + Duration::from_secs(5),
            // On a clock the match runner judges the time; this only catches a hang.
            TimeControl::Clock { time: base, .. } => clock.unwrap_or(base) + Duration::from_secs(5),
            _ => Duration::from_secs(3600),
        };
        let level = move_control(&self.spec.limit, clock);
        let reply = self
            .client
            .think(&game.start(), game.moves(), &level, timeout);
        self.failed = reply.is_err();
        Ok(reply?.best)
    }
    fn limit(&self) -> TimeControl {
        self.spec.limit
    }
}

/// The player for `spec`: a Hub engine when it has a command, else the built-in one.
pub fn make_player(spec: &EngineSpec) -> Result<Box<dyn Player + Send>, PlayerError> {
    Ok(match spec.command {
        Some(_) => Box::new(HubPlayer::spawn(spec)?),
        None => Box::new(InternalPlayer::new(spec)),
    })
}

#[cfg(test)]
mod tests;
