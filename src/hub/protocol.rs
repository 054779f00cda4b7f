//! The Hub protocol's text layer: splitting a line into a command and
//! `key=value` pairs (values may be quoted), typed commands, the 33-character position
//! string, and quoting for output.

use thiserror::Error;

use damas_engine::time::{TimeControl, TimeControlError};

use damas_rules::bitboard::Bitboard;
use damas_rules::position::{Color, Position, PositionError};
use damas_rules::square::Square;

/// What is wrong with a line from the GUI.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ProtocolError {
    /// A quoted value without its closing quote.
    #[error("unterminated quote at column {}", .0 + 1)]
    UnterminatedQuote(usize),
    /// A required key is absent.
    #[error("{command}: missing {key}=")]
    MissingKey {
        /// The command.
        command: &'static str,
        /// The key it needs.
        key: &'static str,
    },
    /// A value that is not of the expected form.
    #[error("bad value {key}={value:?}: {reason}")]
    BadValue {
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What was expected.
        reason: &'static str,
    },
    /// The `pos=` string is not a position.
    #[error("bad position {text:?}: {reason}")]
    BadPosition {
        /// The string given.
        text: String,
        /// Why it is rejected.
        reason: String,
    },
}

/// A line split into its command and arguments. Bare words (`think`, `infinite`) are
/// arguments without a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The first word.
    pub command: String,
    /// `key=value` pairs (value `None` for a bare word), quotes removed.
    pub args: Vec<(String, Option<String>)>,
}

impl Line {
    /// The value of `key`, if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, v)| v.as_deref())
    }

    /// Whether the bare word (or key) `word` is present.
    pub fn has(&self, word: &str) -> bool {
        self.args.iter().any(|(k, _)| k == word)
    }
}

/// Split a line into words, honouring `"…"` quotes (a quote may start a word or follow
/// `=`). Returns `None` for a blank line.
pub fn split_line(text: &str) -> Result<Option<Line>, ProtocolError> {
    let mut words: Vec<(String, Option<String>)> = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        // A word: key, optionally `=` then a plain or quoted value.
        let start = i;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b'=' {
            i += 1;
        }
        let key = text[start..i].to_string();
        let mut value = None;
        if i < bytes.len() && bytes[i] == b'=' {
            i += 1;
            if i < bytes.len() && bytes[i] == b'"' {
                let open = i;
                let close = text[i + 1..]
                    .find('"')
                    .ok_or(ProtocolError::UnterminatedQuote(open))?;
                value = Some(text[i + 1..i + 1 + close].to_string());
                i += close + 2;
            } else {
                let vstart = i;
                while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
                    i += 1;
                }
                value = Some(text[vstart..i].to_string());
            }
        }
        words.push((key, value));
    }
    if words.is_empty() {
        return Ok(None);
    }
    let (command, _) = words.remove(0);
    Ok(Some(Line {
        command,
        args: words,
    }))
}

/// What `go` asks for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GoMode {
    /// Find a move under the current time control.
    Think,
    /// Think on the opponent's time until `ponder-hit` or `stop`.
    Ponder,
    /// Search until `stop`.
    Analyze,
}

/// A command from the GUI.
#[derive(Clone, Debug, PartialEq)]
pub enum HubCommand {
    /// `hub`: announce the engine.
    Hub,
    /// `init`: get ready.
    Init,
    /// `set-param name=… value=…`.
    SetParam {
        /// Parameter name.
        name: String,
        /// New value.
        value: String,
    },
    /// `pos pos=… [moves="…"]`: the position and the moves played from it (unparsed).
    Pos {
        /// The position.
        pos: Position,
        /// Hub moves, in order.
        moves: Vec<String>,
    },
    /// `level …`: the time control of the next searches (the Hub's word for it).
    TimeControl(TimeControl),
    /// `go think|ponder|analyze`.
    Go(GoMode),
    /// `ponder-hit`.
    PonderHit,
    /// `stop`.
    Stop,
    /// `new-game`.
    NewGame,
    /// `ping`.
    Ping,
    /// `quit`.
    Quit,
    /// Anything else (ignored).
    Unknown(String),
}

/// The time control of a `level` line: its words are the text form's
/// ([`TimeControl`]'s `depth=`, `nodes=`, `move-time=`, `infinite`), but the clock is
/// `time=`, `inc=` and `moves=` (read by [`TimeControl::from_hub_clock`]). The first
/// present of `infinite`, `depth`, `nodes`, `move-time` and `time` decides.
fn parse_time_control(line: &Line) -> Result<TimeControl, ProtocolError> {
    if line.has("infinite") {
        return Ok(TimeControl::Infinite);
    }
    let bad = |key: &'static str| {
        move |e: TimeControlError| ProtocolError::BadValue {
            key: key.to_string(),
            value: e.value,
            reason: e.expected,
        }
    };
    for key in ["depth", "nodes", "move-time"] {
        if let Some(v) = line.get(key) {
            return TimeControl::from_key(key, v)
                .expect("a key of the text form")
                .map_err(bad(key));
        }
    }
    if let Some(time) = line.get("time") {
        let (inc, moves) = (line.get("inc"), line.get("moves"));
        return TimeControl::from_hub_clock(time, inc, moves).map_err(|e| {
            // Name the word that was wrong, as the GUI wrote it.
            let key = match e.what {
                "increment" => "inc",
                "moves" => "moves",
                _ => "time",
            };
            bad(key)(e)
        });
    }
    Err(ProtocolError::MissingKey {
        command: "level",
        key: "depth, nodes, move-time, time or infinite",
    })
}

/// The `level` line that sends `control`, times in seconds to the millisecond.
pub fn time_control_line(control: &TimeControl) -> String {
    match *control {
        TimeControl::Depth(d) => format!("level depth={d}"),
        TimeControl::Nodes(n) => format!("level nodes={n}"),
        TimeControl::MoveTime(t) => format!("level move-time={:.3}", t.as_secs_f64()),
        TimeControl::Infinite => "level infinite".to_string(),
        TimeControl::Clock { moves, time, inc } => {
            let mut s = String::from("level");
            if let Some(m) = moves {
                s.push_str(&format!(" moves={m}"));
            }
            s.push_str(&format!(
                " time={:.3} inc={:.3}",
                time.as_secs_f64(),
                inc.as_secs_f64()
            ));
            s
        }
    }
}

/// The commands this engine understands.
const KNOWN: [&str; 11] = [
    "hub",
    "init",
    "set-param",
    "pos",
    "level",
    "go",
    "ponder-hit",
    "stop",
    "new-game",
    "ping",
    "quit",
];

/// Parse one line. `Ok(None)` for a blank line; unknown commands are
/// [`HubCommand::Unknown`]; unknown keys are ignored.
pub fn parse_command(text: &str) -> Result<Option<HubCommand>, ProtocolError> {
    let line = match split_line(text) {
        Ok(Some(line)) => line,
        Ok(None) => return Ok(None),
        // A malformed line is an error only for a known command: unknown commands
        // are ignored whatever follows them, as the protocol asks.
        Err(e) => {
            let word = text.split_whitespace().next().unwrap_or("");
            let word = word.split(['=', '"']).next().unwrap_or("");
            return if KNOWN.contains(&word) {
                Err(e)
            } else {
                Ok(Some(HubCommand::Unknown(word.to_string())))
            };
        }
    };
    let cmd = match line.command.as_str() {
        "hub" => HubCommand::Hub,
        "init" => HubCommand::Init,
        "set-param" => {
            let name = line.get("name").ok_or(ProtocolError::MissingKey {
                command: "set-param",
                key: "name",
            })?;
            let value = line.get("value").ok_or(ProtocolError::MissingKey {
                command: "set-param",
                key: "value",
            })?;
            HubCommand::SetParam {
                name: name.to_string(),
                value: value.to_string(),
            }
        }
        "pos" => {
            let text = line.get("pos").ok_or(ProtocolError::MissingKey {
                command: "pos",
                key: "pos",
            })?;
            let pos = parse_position(text)?;
            let moves = line
                .get("moves")
                .unwrap_or("")
                .split_whitespace()
                .map(str::to_string)
                .collect();
            HubCommand::Pos { pos, moves }
        }
        "level" => HubCommand::TimeControl(parse_time_control(&line)?),
        "go" => HubCommand::Go(parse_go_mode(&line)?),
        "ponder-hit" => HubCommand::PonderHit,
        "stop" => HubCommand::Stop,
        "new-game" => HubCommand::NewGame,
        "ping" => HubCommand::Ping,
        "quit" => HubCommand::Quit,
        other => HubCommand::Unknown(other.to_string()),
    };
    Ok(Some(cmd))
}

/// The mode of `go`: `think`, `ponder` or `analyze` (also spelt `analyse`); a bare
/// `go` or another word is refused rather than taken as `think`.
fn parse_go_mode(line: &Line) -> Result<GoMode, ProtocolError> {
    let bad = |value: &str| ProtocolError::BadValue {
        key: "go".to_string(),
        value: value.to_string(),
        reason: "expected think, ponder or analyze",
    };
    match line.args.as_slice() {
        [(word, None)] => match word.as_str() {
            "think" => Ok(GoMode::Think),
            "ponder" => Ok(GoMode::Ponder),
            "analyze" | "analyse" => Ok(GoMode::Analyze),
            other => Err(bad(other)),
        },
        [] => Err(bad("")),
        [(word, _), ..] => Err(bad(word)),
    }
}

/// Parse a Hub position: `W` or `B`, then one of `w b W B e` for squares 1…32 in the
/// numeric order of docs/rules.md (1 = b8 … 32 = g1).
pub fn parse_position(text: &str) -> Result<Position, ProtocolError> {
    let bad = |reason: String| ProtocolError::BadPosition {
        text: text.to_string(),
        reason,
    };
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 33 {
        return Err(bad(format!(
            "expected 33 characters (side and 32 squares), found {}",
            chars.len()
        )));
    }
    let side = match chars[0] {
        'W' | 'w' => Color::White,
        'B' | 'b' => Color::Black,
        c => return Err(bad(format!("side to move must be W or B, found {c:?}"))),
    };
    let (mut white, mut black, mut kings) = (Bitboard(0), Bitboard(0), Bitboard(0));
    for (i, &c) in chars[1..].iter().enumerate() {
        let sq = Square::from_numeric(i as u8 + 1).expect("1..=32 are squares");
        match c {
            'w' => white |= Bitboard::square(sq),
            'b' => black |= Bitboard::square(sq),
            'W' => {
                white |= Bitboard::square(sq);
                kings |= Bitboard::square(sq);
            }
            'B' => {
                black |= Bitboard::square(sq);
                kings |= Bitboard::square(sq);
            }
            'e' | '.' => {}
            c => {
                return Err(bad(format!(
                    "square {} has {c:?} (expected w, b, W, B or e)",
                    i + 1
                )))
            }
        }
    }
    Position::from_parts(white, black, kings, side).map_err(|e: PositionError| bad(e.to_string()))
}

/// The Hub position string of `pos`.
pub fn position_string(pos: &Position) -> String {
    let mut s = String::with_capacity(33);
    s.push(pos.side_to_move().letter());
    for n in 1..=32u8 {
        let sq = Square::from_numeric(n).expect("1..=32 are squares");
        let king = pos.kings().contains(sq);
        s.push(
            match (pos.white().contains(sq), pos.black().contains(sq), king) {
                (true, _, false) => 'w',
                (true, _, true) => 'W',
                (_, true, false) => 'b',
                (_, true, true) => 'B',
                _ => 'e',
            },
        );
    }
    s
}

/// `value`, quoted when it is empty or contains white space.
pub fn quote(value: &str) -> String {
    if value.is_empty() || value.contains(char::is_whitespace) {
        format!("\"{}\"", value.replace('"', "'"))
    } else {
        value.to_string()
    }
}

#[cfg(test)]
mod tests;
