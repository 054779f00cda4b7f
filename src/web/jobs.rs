//! What a tab asks the engine for, run on a thread of its own (never on the async
//! runtime) with the shared engine: analysis, the engine's move in a game, and a
//! game's review. Each job reports through `send` and ends when its stop flag is
//! raised (a stopped move still answers with its best so far).

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

use damas_engine::level::Strength;
use damas_engine::search::{Info, Progress, ProgressSink, PvLine, Stats};
use damas_engine::think::{no_draws, think, think_with_progress, Source, Think};
use damas_engine::time::{Clock, MoveBudget, TimeControl};
use damas_engine::verdict::{consulted, Verdict};
use damas_rules::game::Game;
use damas_rules::notation::Notation;
use damas_rules::position::Color;

use crate::review::curve::eval_curve;
use crate::review::report::rules;
use crate::review::setup::{default_budget, review_engine};
use crate::review::{review_game, Review};

use super::engine::EngineHost;
use super::line::{line_ids, move_id, texts};
use super::score::{score_json, search_score};

/// Where a job's messages go (the socket's sender; a closed socket drops them).
pub type Reply = Box<dyn Fn(Value) + Send>;

/// A job: what to do with which game.
#[derive(Clone, Debug)]
pub enum Job {
    /// Analyse the end of the game in `lines` lines until stopped.
    Analyze {
        /// The game.
        game: Game,
        /// Best lines shown, 1 to [`MAX_ANALYSIS_LINES`].
        lines: usize,
        /// The notation of the lines' texts.
        notation: Notation,
    },
    /// Choose the engine's move at the end of the game.
    Play {
        /// The game.
        game: Game,
        /// Playing strength.
        strength: Strength,
        /// How long to think (a clock's time being the side to move's).
        control: TimeControl,
        /// The notation of the move's text.
        notation: Notation,
    },
    /// Review the game's moves.
    Review {
        /// The game.
        game: Game,
        /// Each position's budget (`None`: the review's default).
        control: Option<TimeControl>,
    },
}

/// The most lines an analysis shows.
pub const MAX_ANALYSIS_LINES: usize = 5;

/// How often an analysis asks its search how far it has got, between the reports of
/// its completed iterations (deep ones come seconds apart).
pub const PROGRESS_EVERY: Duration = Duration::from_millis(200);

/// The least time between an analysis's last message and a progress report sent
/// after it: at most ten reports a second.
pub const PROGRESS_GAP: Duration = Duration::from_millis(100);

/// Run `job` number `id` with `engine` until it ends or `stop` is raised.
pub fn run(engine: &EngineHost, id: u64, job: Job, stop: &Stop, send: &Reply) {
    let outcome = match job {
        Job::Analyze {
            game,
            lines,
            notation,
        } => analyze(engine, id, &game, lines, notation, stop, send),
        Job::Play {
            game,
            strength,
            control,
            notation,
        } => play(engine, id, &game, strength, control, notation, stop, send),
        Job::Review { game, control } => review(engine, id, &game, control, stop, send),
    };
    if let Err(message) = outcome {
        send(json!({"type": "error", "id": id, "message": message}));
    }
}

fn analyze(
    host: &EngineHost,
    id: u64,
    game: &Game,
    lines: usize,
    notation: Notation,
    stop: &Stop,
    send: &Reply,
) -> Result<(), String> {
    let done = |best: Option<String>| send(json!({"type": "done", "id": id, "best": best}));
    if game.result().is_some() {
        done(None);
        return Ok(());
    }
    let Some(mut guard) = host.lend(game.variant(), stop)? else {
        done(None);
        return Ok(());
    };
    let Some(engine) = guard.as_mut() else {
        return Err("the engine is not available".into());
    };
    let (variant, pos) = (game.variant(), game.position());
    let oracle = consulted(engine.searcher.options());
    // When the last report went out: a progress report waits for the gap after it.
    let sent = Cell::new(Instant::now());
    let mut on_info = |info: &Info| {
        let single = [PvLine {
            score: info.score,
            pv: info.pv.clone(),
        }];
        let shown = if info.lines.is_empty() {
            &single[..]
        } else {
            &info.lines[..]
        };
        let rows: Vec<Value> = shown
            .iter()
            .filter(|l| !l.pv.is_empty())
            .map(|l| {
                json!({
                    "move": line_ids(variant, &pos, &l.pv[..1]).pop(),
                    "score": search_score(variant, oracle.as_deref(), &pos, l.score, &l.pv),
                    "pv": texts(variant, &pos, &l.pv, notation),
                    "pv_ids": line_ids(variant, &pos, &l.pv),
                })
            })
            .collect();
        send(info_json(id, info.depth, &info.stats, rows));
        sent.set(Instant::now());
    };
    let mut on_progress = |p: &Progress| {
        if sent.get().elapsed() >= PROGRESS_GAP {
            send(progress_json(id, p));
            sent.set(Instant::now());
        }
    };
    let job = Think {
        lines: Some(lines),
        ..Think::search(&pos, game.history())
    };
    // Until stopped: no limit but the search's own end (a decided position).
    let clock = Clock::with_stop(MoveBudget::default(), Arc::clone(stop));
    let result = think_with_progress(
        &mut engine.searcher,
        &job,
        &mut no_draws(),
        &clock,
        &mut on_info,
        Some(ProgressSink {
            every: PROGRESS_EVERY,
            report: &mut on_progress,
        }),
    )
    .result;
    done(result.best.map(|m| move_id(variant, &pos, m)));
    Ok(())
}

fn info_json(id: u64, depth: u32, stats: &Stats, lines: Vec<Value>) -> Value {
    let ms = stats.time.as_millis() as u64;
    // Every node, quiescence included, as `damas analyze` counts them.
    let nps = stats.nps();
    json!({
        "type": "info", "id": id, "depth": depth, "nodes": stats.nodes, "nps": nps,
        "time_ms": ms, "lines": lines,
    })
}

/// The live counts of an analysis between its iterations: the depth under way, the
/// nodes counted as [`info_json`] counts them.
fn progress_json(id: u64, p: &Progress) -> Value {
    json!({
        "type": "searching", "id": id, "depth": p.depth, "nodes": p.nodes, "nps": p.nps(),
        "time_ms": p.time.as_millis() as u64,
    })
}

#[allow(clippy::too_many_arguments)]
fn play(
    host: &EngineHost,
    id: u64,
    game: &Game,
    strength: Strength,
    control: TimeControl,
    notation: Notation,
    stop: &Stop,
    send: &Reply,
) -> Result<(), String> {
    if let Some(result) = game.result() {
        return Err(format!("the game is over: {result}"));
    }
    let Some(mut guard) = host.lend(game.variant(), stop)? else {
        return Ok(());
    };
    let Some(engine) = guard.as_mut() else {
        return Err("the engine is not available".into());
    };
    let (variant, pos) = (game.variant(), game.position());
    // As the terminal game does: all of a time per move, a game clock managed.
    let clock = Clock::with_stop(MoveBudget::exact(&control), Arc::clone(stop));
    let job = Think {
        pos: &pos,
        history: game.history(),
        book: engine.book,
        strength,
        lines: Some(1),
        forced_without_search: true,
    };
    let mut rng = ChaCha8Rng::from_entropy();
    let thought = think(&mut engine.searcher, &job, &mut rng, &clock, &mut |_| {});
    let r = &thought.result;
    let Some(best) = r.best else {
        return Err("the side to move has no legal move".into());
    };
    let oracle = consulted(engine.searcher.options());
    let (source, score) = match thought.source {
        Source::Book => ("book", Value::Null),
        Source::Forced => ("forced", Value::Null),
        Source::Search => (
            "search",
            search_score(variant, oracle.as_deref(), &pos, r.score, &r.pv),
        ),
    };
    send(json!({
        "type": "move", "id": id, "move": move_id(variant, &pos, best),
        "text": texts(variant, &pos, &[best], notation).pop(),
        "source": source, "score": score, "depth": r.depth, "nodes": r.stats.nodes,
        "time_ms": r.stats.time.as_millis() as u64,
    }));
    Ok(())
}

fn review(
    host: &EngineHost,
    id: u64,
    game: &Game,
    control: Option<TimeControl>,
    stop: &Stop,
    send: &Reply,
) -> Result<(), String> {
    let Some(mut guard) = host.lend(game.variant(), stop)? else {
        return Ok(());
    };
    // The review's own engine (the one `damas review` judges with) takes the shared
    // engine's place while it runs: one table at a time.
    *guard = None;
    let variant = game.variant();
    let mut searcher = review_engine(variant, host.database(variant), host.hash_mb())
        .map_err(|e| e.to_string())?;
    let budget = control.map_or_else(default_budget, |c| MoveBudget::exact(&c));
    let mut progress = |done: usize, total: usize| {
        send(json!({"type": "progress", "id": id, "done": done, "total": total}));
    };
    let review = review_game(&mut searcher, game, &budget, stop, &mut progress);
    drop(searcher);
    drop(guard);
    send(review_json(id, &review));
    Ok(())
}

/// The review message: each move judged, the curve and each player's totals.
pub fn review_json(id: u64, review: &Review) -> Value {
    let moves: Vec<Value> = review
        .moves
        .iter()
        .map(|m| {
            let after = Verdict {
                score: m.played_score,
                proof: m.played_proof,
            };
            json!({
                "ply": m.ply,
                "number": super::position::number_text(m.number),
                "played": m.played_text,
                "best": m.best_text,
                "mark": m.judgement.mark.map(|k| k.symbol()),
                "loss": m.judgement.loss.men(),
                "after": score_json(after, m.mover),
                "label": m.after_label(),
                "best_label": m.best_label(),
                "forced": m.forced,
                "book": m.book,
            })
        })
        .collect();
    let curve: Vec<Value> = eval_curve(review)
        .iter()
        .map(|p| json!({"ply": p.ply, "men": p.white, "mark": p.mark.map(|k| k.symbol())}))
        .collect();
    let summary = |side: Color| {
        let s = review.summary(side);
        json!({
            "moves": s.moves, "inaccuracies": s.inaccuracies, "mistakes": s.mistakes,
            "blunders": s.blunders, "average_loss": (s.average_loss() * 100.0).round() / 100.0,
        })
    };
    json!({
        "type": "review", "id": id, "moves": moves, "curve": curve,
        "summary": {"white": summary(Color::White), "black": summary(Color::Black)},
        "rules": rules(review.variant).trim_end_matches(" rules"),
        "stopped": review.stopped,
    })
}

/// A job's stop flag, shared between the socket and the job's thread.
pub type Stop = Arc<AtomicBool>;

/// Raise `stop`.
pub fn raise(stop: &Stop) {
    stop.store(true, Ordering::Relaxed);
}
