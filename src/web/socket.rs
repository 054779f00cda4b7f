//! The WebSocket of a tab (`GET /api/ws`): its messages read and bounded, one job
//! at a time run on a thread of its own, the job's reports sent back, and the job
//! stopped when the socket closes or the server shuts down.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::{mpsc, OwnedSemaphorePermit};

use damas_engine::level::Strength;
use damas_engine::time::TimeControl;
use damas_rules::notation::Notation;

use super::error::ApiError;
use super::guard::check_origin;
use super::jobs::{self, Job, Stop, MAX_ANALYSIS_LINES};
use super::line::{notation, Line};
use super::App;

/// The most sockets open at once (more: 503).
pub const MAX_SOCKETS: usize = 32;
/// The largest message a socket takes (larger: the socket is closed).
pub const MAX_FRAME_BYTES: usize = 64 * 1024;
/// The most messages a socket takes in a second; more are answered with an error
/// and not acted on.
pub const MAX_MESSAGES_PER_SECOND: u32 = 20;

/// A message from the page.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Request {
    /// Analyse the line's end until stopped.
    Analyze {
        /// The request's number, repeated in the answers.
        id: u64,
        /// The game.
        line: Line,
        /// Lines to show (1 when absent).
        #[serde(default = "one")]
        lines: usize,
        /// Notation of the texts (algebraic when absent).
        #[serde(default, deserialize_with = "notation")]
        notation: Notation,
    },
    /// The engine's move at the line's end.
    Play {
        /// The request's number.
        id: u64,
        /// The game.
        line: Line,
        /// Playing strength, 1 to 10 (full when absent).
        #[serde(default)]
        strength: Option<u8>,
        /// A time control's text (one second a move when absent).
        #[serde(default)]
        time: Option<String>,
        /// Each side's time left on a game clock, in seconds.
        #[serde(default)]
        clock: Option<Clock>,
        /// Notation of the move's text (algebraic when absent).
        #[serde(default, deserialize_with = "notation")]
        notation: Notation,
    },
    /// Review the line's moves.
    Review {
        /// The request's number.
        id: u64,
        /// The game.
        line: Line,
        /// Each position's budget as a time control's text (the review's default
        /// when absent).
        #[serde(default)]
        time: Option<String>,
    },
    /// Stop the running job.
    Stop,
}

/// Each side's time left, in seconds.
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct Clock {
    /// White's.
    pub white: f64,
    /// Black's.
    pub black: f64,
}

fn one() -> usize {
    1
}

/// Accept a tab's socket: the page's own origin only (else 403), while fewer than
/// [`MAX_SOCKETS`] are open (else 503).
pub async fn upgrade(
    State(app): State<App>,
    headers: HeaderMap,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    if let Err(e) = check_origin(&headers) {
        return e.into_response();
    }
    let ws = match ws {
        Ok(ws) => ws,
        Err(r) => {
            return ApiError {
                status: r.status(),
                message: r.body_text(),
            }
            .into_response()
        }
    };
    let Ok(permit) = app.shared.sockets.clone().try_acquire_owned() else {
        return ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: format!("too many open sockets (at most {MAX_SOCKETS}): close a tab"),
        }
        .into_response();
    };
    ws.max_message_size(MAX_FRAME_BYTES)
        .max_frame_size(MAX_FRAME_BYTES)
        .on_upgrade(move |socket| session(socket, app, permit))
}

/// Counts the messages of the current second.
struct Rate {
    since: Instant,
    count: u32,
}

impl Rate {
    /// Whether one more message is within the limit.
    fn allow(&mut self) -> bool {
        let now = Instant::now();
        if now.duration_since(self.since) >= Duration::from_secs(1) {
            self.since = now;
            self.count = 0;
        }
        self.count += 1;
        self.count <= MAX_MESSAGES_PER_SECOND
    }
}

/// A tab's session: read its messages, run its jobs, send their reports.
async fn session(mut socket: WebSocket, app: App, _permit: OwnedSemaphorePermit) {
    let (tx, mut rx) = mpsc::unbounded_channel::<Value>();
    let mut shutdown = app.shared.shutdown.subscribe();
    let mut running: Option<Stop> = None;
    let mut rate = Rate {
        since: Instant::now(),
        count: 0,
    };
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Binary(_))) => {
                        let _ = socket.send(error(None, "messages are JSON text")).await;
                        continue;
                    }
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                    Some(Ok(_)) => continue,
                };
                if !rate.allow() {
                    let why = format!("too many messages: at most {MAX_MESSAGES_PER_SECOND} a second");
                    let _ = socket.send(error(message_id(&text), &why)).await;
                    continue;
                }
                match serde_json::from_str::<Request>(&text) {
                    Ok(Request::Stop) => {
                        if let Some(stop) = running.take() {
                            jobs::raise(&stop);
                        }
                    }
                    Ok(request) => match job(request) {
                        Ok((id, job)) => {
                            if let Some(stop) = running.take() {
                                jobs::raise(&stop);
                            }
                            running = Some(start(&app, id, job, tx.clone()));
                        }
                        Err((id, why)) => {
                            let _ = socket.send(error(Some(id), &why)).await;
                        }
                    },
                    Err(e) => {
                        let why = format!("bad message: {e}");
                        let _ = socket.send(error(message_id(&text), &why)).await;
                    }
                }
            }
            Some(report) = rx.recv() => {
                if socket.send(Message::Text(report.to_string().into())).await.is_err() {
                    break;
                }
            }
            _ = shutdown.changed() => {
                let _ = socket.send(Message::Close(None)).await;
                break;
            }
        }
    }
    // A closed tab stops its search.
    if let Some(stop) = running {
        jobs::raise(&stop);
    }
}

/// The job a request asks for, or its id and what is wrong with it.
fn job(request: Request) -> Result<(u64, Job), (u64, String)> {
    match request {
        Request::Analyze {
            id,
            line,
            lines,
            notation,
        } => {
            if !(1..=MAX_ANALYSIS_LINES).contains(&lines) {
                return Err((
                    id,
                    format!("lines: {lines}, expected 1 to {MAX_ANALYSIS_LINES}"),
                ));
            }
            let game = line.replay().map_err(|e| (id, e.message))?;
            Ok((
                id,
                Job::Analyze {
                    game,
                    lines,
                    notation,
                },
            ))
        }
        Request::Play {
            id,
            line,
            strength,
            time,
            clock,
            notation,
        } => {
            let strength = match strength {
                None => Strength::FULL,
                Some(n) => Strength::new(n).ok_or_else(|| {
                    (
                        id,
                        format!(
                            "strength: {n}, expected {} to {}",
                            Strength::MIN.number(),
                            Strength::FULL.number()
                        ),
                    )
                })?,
            };
            let game = line.replay().map_err(|e| (id, e.message))?;
            let control = control(time.as_deref())
                .map_err(|e| (id, e))?
                .unwrap_or(TimeControl::MoveTime(Duration::from_secs(1)));
            let control =
                with_clock(control, clock, game.position().side_to_move()).map_err(|e| (id, e))?;
            Ok((
                id,
                Job::Play {
                    game,
                    strength,
                    control,
                    notation,
                },
            ))
        }
        Request::Review { id, line, time } => {
            let game = line.replay().map_err(|e| (id, e.message))?;
            let control = control(time.as_deref()).map_err(|e| (id, e))?;
            Ok((id, Job::Review { game, control }))
        }
        Request::Stop => Err((0, "nothing to run".into())),
    }
}

/// A time control's text read, `None` when absent.
fn control(text: Option<&str>) -> Result<Option<TimeControl>, String> {
    text.map(|t| t.parse::<TimeControl>().map_err(|e| format!("time: {e}")))
        .transpose()
}

/// `control` with a game clock's time the side to move has left (`clock`), when
/// both are given.
fn with_clock(
    control: TimeControl,
    clock: Option<Clock>,
    side: damas_rules::position::Color,
) -> Result<TimeControl, String> {
    let (TimeControl::Clock { moves, inc, .. }, Some(c)) = (control, clock) else {
        return Ok(control);
    };
    let left = match side {
        damas_rules::position::Color::White => c.white,
        damas_rules::position::Color::Black => c.black,
    };
    let limit = damas_engine::time::MAX_SECONDS as f64;
    if !(0.0..=limit).contains(&left) {
        return Err(format!("clock: {left} seconds left, expected 0 to {limit}"));
    }
    Ok(TimeControl::Clock {
        moves,
        time: Duration::from_secs_f64(left),
        inc,
    })
}

/// Run `job` on a thread of its own; its reports go to `tx`. Returns its stop flag.
fn start(app: &App, id: u64, job: Job, tx: mpsc::UnboundedSender<Value>) -> Stop {
    let stop: Stop = Arc::new(AtomicBool::new(false));
    let (flag, app) = (stop.clone(), app.clone());
    let send: jobs::Reply = Box::new(move |v| {
        let _ = tx.send(v);
    });
    let spawned = std::thread::Builder::new()
        .name("damas-web-job".into())
        .spawn(move || jobs::run(app.engine(), id, job, &flag, &send));
    if spawned.is_err() {
        jobs::raise(&stop);
    }
    stop
}

/// The id of a message that could not be read, when it has one.
fn message_id(text: &str) -> Option<u64> {
    serde_json::from_str::<Value>(text)
        .ok()
        .and_then(|v| v.get("id").and_then(Value::as_u64))
}

fn error(id: Option<u64>, message: &str) -> Message {
    Message::Text(
        json!({"type": "error", "id": id, "message": message})
            .to_string()
            .into(),
    )
}
