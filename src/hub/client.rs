//! A Hub client: spawns an engine process and speaks the protocol to it (handshake,
//! parameters, positions, time controls, `go think`). Used by `damas match` to play any Hub
//! engine, and by the tests to drive `damas hub` itself.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use thiserror::Error;

use damas_rules::moves::Move;
use damas_rules::position::Position;
use damas_rules::variant::Variant;

use super::numbering::MoveNumbering;
use super::protocol::{position_string, quote, split_line, time_control_line};
use damas_engine::time::TimeControl;

/// What went wrong talking to an engine.
#[derive(Debug, Error)]
pub enum ClientError {
    /// The command line is empty.
    #[error("empty engine command")]
    EmptyCommand,
    /// The process could not be started.
    #[error("cannot start {command:?}: {source}")]
    Spawn {
        /// The command.
        command: String,
        /// The system error.
        source: std::io::Error,
    },
    /// Writing to the engine failed (it probably exited).
    #[error("cannot write to the engine: {0}")]
    Write(std::io::Error),
    /// The engine closed its output.
    #[error("the engine closed its output while we waited for {0:?}")]
    Closed(&'static str),
    /// No answer in time.
    #[error("no {waiting:?} from the engine within {timeout:?}")]
    Timeout {
        /// The reply expected.
        waiting: &'static str,
        /// How long we waited.
        timeout: Duration,
    },
    /// The engine answered with a move that is not legal here.
    #[error("the engine played {text:?}, which is not legal: {reason}")]
    BadMove {
        /// What it sent.
        text: String,
        /// Why it is rejected.
        reason: String,
    },
    /// The engine reported an error.
    #[error("the engine reported: {0}")]
    Engine(String),
    /// The engine has no `variant` parameter, so it plays only Brazilian.
    #[error("the engine has no variant parameter, so it cannot play {0}")]
    Variant(Variant),
}

/// A running Hub engine.
pub struct HubClient {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// `id` fields from the handshake (`name`, `version`, …).
    pub id: Vec<(String, String)>,
    /// Parameter names announced.
    pub params: Vec<String>,
    /// Numbering of the engine's moves.
    pub numbering: MoveNumbering,
    /// The rules of the games played (sent as the `variant` parameter).
    pub variant: Variant,
    /// How long to wait for replies other than `done`.
    pub timeout: Duration,
}

/// The engine's answer to `go think`.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// The move played.
    pub best: Move,
    /// The move it expects in reply, when given and legal.
    pub ponder: Option<Move>,
    /// The last `info` line's score in men, if any.
    pub score: Option<f64>,
    /// The last `info` line's depth, if any.
    pub depth: Option<u32>,
}

impl HubClient {
    /// Start `command` (split at white space: program, then arguments) and complete
    /// the handshake for games of `variant`: `hub` … `wait`, `set-param
    /// name=variant`, then `init` … `ready`.
    pub fn spawn(command: &str, variant: Variant) -> Result<HubClient, ClientError> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or(ClientError::EmptyCommand)?;
        let mut child = Process::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| ClientError::Spawn {
                command: command.to_string(),
                source,
            })?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut client = HubClient {
            child,
            stdin,
            lines,
            id: Vec::new(),
            params: Vec::new(),
            numbering: MoveNumbering::Standard,
            variant,
            timeout: Duration::from_secs(10),
        };
        client.handshake()?;
        // Moves are written in the client's numbering: say which to an engine that
        // lets it be chosen.
        if client.params.iter().any(|p| p == "move-numbering") {
            let numbering = client.numbering.to_string();
            client.set_param("move-numbering", &numbering)?;
        }
        Ok(client)
    }

    /// Send one line.
    pub fn send(&mut self, line: &str) -> Result<(), ClientError> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(ClientError::Write)
    }

    /// The next line, waiting at most `timeout`.
    pub fn recv(
        &mut self,
        waiting: &'static str,
        timeout: Duration,
    ) -> Result<String, ClientError> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err(ClientError::Timeout { waiting, timeout }),
            Err(RecvTimeoutError::Disconnected) => Err(ClientError::Closed(waiting)),
        }
    }

    /// Read lines until one starts with `word`; returns that line.
    fn wait_for(&mut self, word: &'static str, timeout: Duration) -> Result<String, ClientError> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.recv(word, left)?;
            if line.split_whitespace().next() == Some(word) {
                return Ok(line);
            }
        }
    }

    fn handshake(&mut self) -> Result<(), ClientError> {
        self.send("hub")?;
        let deadline = Instant::now() + self.timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let text = self.recv("wait", left)?;
            let Ok(Some(line)) = split_line(&text) else {
                continue;
            };
            match line.command.as_str() {
                "wait" => break,
                "id" => self.id.extend(
                    line.args
                        .into_iter()
                        .map(|(k, v)| (k, v.unwrap_or_default())),
                ),
                "param" => self.params.extend(line.get("name").map(str::to_string)),
                _ => {}
            }
        }
        if self.params.iter().any(|p| p == "variant") {
            self.send(&format!("set-param name=variant value={}", self.variant))?;
        } else if self.variant != Variant::Brazilian {
            return Err(ClientError::Variant(self.variant));
        }
        self.send("init")?;
        self.wait_for("ready", self.timeout)?;
        Ok(())
    }

    /// The engine's `id name=…`, or `engine` when it gave none.
    pub fn name(&self) -> String {
        self.id
            .iter()
            .find(|(k, _)| k == "name")
            .map_or_else(|| "engine".to_string(), |(_, v)| v.clone())
    }

    /// `set-param name=… value=…`.
    pub fn set_param(&mut self, name: &str, value: &str) -> Result<(), ClientError> {
        self.send(&format!(
            "set-param name={} value={}",
            quote(name),
            quote(value)
        ))
    }

    /// `new-game`.
    pub fn new_game(&mut self) -> Result<(), ClientError> {
        self.send("new-game")
    }

    /// `ping`, waiting for `pong`.
    pub fn ping(&mut self) -> Result<(), ClientError> {
        self.send("ping")?;
        self.wait_for("pong", self.timeout).map(|_| ())
    }

    /// Send the position (`start` and the moves played from it) and the time control
    /// (`level`), then `go think`, and wait for `done` at most `timeout`.
    pub fn think(
        &mut self,
        start: &Position,
        moves: &[Move],
        control: &TimeControl,
        timeout: Duration,
    ) -> Result<Reply, ClientError> {
        let mut pos = *start;
        let mut words = Vec::new();
        for &m in moves {
            words.push(self.numbering.format(self.variant, &pos, m));
            pos = pos.play(m);
        }
        let mut line = format!("pos pos={}", position_string(start));
        if !words.is_empty() {
            line.push_str(&format!(" moves=\"{}\"", words.join(" ")));
        }
        self.send(&line)?;
        self.send(&time_control_line(control))?;
        self.send("go think")?;
        let deadline = Instant::now() + timeout;
        let (mut score, mut depth) = (None, None);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let text = self.recv("done", left)?;
            let Ok(Some(l)) = split_line(&text) else {
                continue;
            };
            match l.command.as_str() {
                "info" => {
                    score = l.get("score").and_then(|s| s.parse().ok()).or(score);
                    depth = l.get("depth").and_then(|s| s.parse().ok()).or(depth);
                }
                "error" => {
                    return Err(ClientError::Engine(
                        l.get("message").unwrap_or(&text).to_string(),
                    ))
                }
                "done" => {
                    let text = l.get("move").unwrap_or("").to_string();
                    let best = self
                        .numbering
                        .parse(self.variant, &pos, &text)
                        .map_err(|e| ClientError::BadMove {
                            text,
                            reason: e.to_string(),
                        })?;
                    let next = pos.play(best);
                    let ponder = l
                        .get("ponder")
                        .and_then(|p| self.numbering.parse(self.variant, &next, p).ok());
                    return Ok(Reply {
                        best,
                        ponder,
                        score,
                        depth,
                    });
                }
                _ => {}
            }
        }
    }

    /// `quit`, then wait briefly for the process to end (killing it otherwise).
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for HubClient {
    fn drop(&mut self) {
        // Never leave an engine running behind us.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
