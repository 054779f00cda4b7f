//! Won database positions played out engine against engine under the game's draw
//! rules (`damas_rules::game::Game`): the measure that a database win is also won
//! over the board, before a counting rule or a repetition draws it.

use std::sync::Arc;

use damas_egdb::oracle::Oracle;
use damas_engine::engine::{Databases, Engine, Sources};
use damas_engine::search::{Limits, WinPolicy};
use damas_engine::settings::EngineSettings;
use damas_engine::think::{no_draws, think, Think};
use damas_engine::time::{Clock, MoveBudget};
use damas_rules::game::Game;
use damas_rules::outcome::{EndReason, GameResult};
use damas_rules::position::{Color, Position};

/// How one played-out position ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Playout {
    /// The game's result; `None` when `max_plies` ran out first.
    pub result: Option<GameResult>,
    /// Plies played.
    pub plies: usize,
}

impl Playout {
    /// Whether `side` won.
    pub fn won_by(&self, side: Color) -> bool {
        self.result.is_some_and(|r| r.winner == Some(side))
    }

    /// Whether a rule that counts moves drew the game.
    pub fn drawn_by_count(&self) -> bool {
        self.result.is_some_and(|r| {
            r.winner.is_none() && !matches!(r.reason, EndReason::Repetition | EndReason::Time)
        })
    }
}

/// Play `start` out: both sides are the engine with `db`, searching within `limits`
/// a move (each side with its own table of `hash_mb` megabytes), until the game
/// ends or `max_plies` plies are played. The game follows the database's rules.
pub fn play_out(
    db: &Arc<dyn Oracle>,
    start: Position,
    limits: &Limits,
    hash_mb: usize,
    max_plies: usize,
) -> Playout {
    play_out_with(db, start, limits, hash_mb, max_plies, WinPolicy::Verdict)
}

/// [`play_out`] with both sides treating decided database endings by `policy`.
pub fn play_out_with(
    db: &Arc<dyn Oracle>,
    start: Position,
    limits: &Limits,
    hash_mb: usize,
    max_plies: usize,
    policy: WinPolicy,
) -> Playout {
    let variant = db.variant();
    let settings = EngineSettings {
        variant,
        hash_mb,
        egdb_wins: policy,
        ..EngineSettings::default()
    };
    let sources = Sources {
        databases: Databases::Search(db.clone()),
        ..Sources::default()
    };
    let engine = || Engine::new(&settings, &sources).searcher;
    let mut sides = [engine(), engine()];
    let mut game = Game::new(variant, start);
    while game.moves().len() < max_plies {
        if let Some(result) = game.result() {
            return Playout {
                result: Some(result),
                plies: game.moves().len(),
            };
        }
        let pos = game.position();
        let side = &mut sides[usize::from(pos.side_to_move() == Color::Black)];
        let job = Think::search(&pos, game.history());
        let r = think(
            side,
            &job,
            &mut no_draws(),
            &Clock::new(MoveBudget::from(*limits)),
            &mut |_| {},
        )
        .result;
        match r.best {
            Some(mv) if game.play(mv) => {}
            // A search always has a legal move while the game is on.
            _ => break,
        }
    }
    Playout {
        result: game.result(),
        plies: game.moves().len(),
    }
}
