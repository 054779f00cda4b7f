//! The controller's vocabulary: search requests, effects, prompts, capture choices.

use std::path::PathBuf;

use damas_engine::level::Strength;

use crate::review::Review;
use damas_engine::time::MoveBudget;
use damas_rules::moves::Move;
use damas_rules::pdn::PdnGame;
use damas_rules::position::Position;

/// Why a search was asked for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Purpose {
    /// The engine plays the result.
    Move,
    /// The result is shown as a hint.
    Hint,
    /// The analysis board's endless search (never played).
    Analysis,
}

/// A search for the engine thread.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchRequest {
    /// Identifies the reports of this search.
    pub id: u64,
    /// What the result is for.
    pub purpose: Purpose,
    /// The position to search.
    pub position: Position,
    /// Earlier positions of the game, oldest first.
    pub history: Vec<Position>,
    /// What the search may spend: on a game clock, the move's optimum time too,
    /// which decides when no further iteration starts ([`damas_engine::time::Clock`]).
    pub budget: MoveBudget,
    /// Playing strength.
    pub strength: Strength,
    /// How many best moves to find (multi-PV; 1 for moves and hints).
    pub lines: usize,
}

/// Something the controller needs done outside.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Start this search (no other search is running).
    Search(SearchRequest),
    /// Stop the running search; its result still arrives.
    Stop,
    /// Put this text on the clipboard.
    Copy(String),
    /// Write `text` to `path`.
    Save {
        /// Where.
        path: PathBuf,
        /// The PDN text.
        text: String,
    },
    /// Read `path` and hand it to [`super::Controller::load_pdn`].
    Load(PathBuf),
    /// Leave the program.
    Quit,
    /// Leave the program at once after Ctrl-C (exit status 130).
    Interrupt,
    /// Review this game in the background and hand the result to
    /// [`super::Controller::on_review_done`] (progress to
    /// [`super::Controller::on_review_progress`]).
    Review {
        /// The start position.
        start: Position,
        /// The moves.
        moves: Vec<Move>,
    },
}

/// The review of the game shown beside the board.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewPanel {
    /// The review.
    pub review: Review,
    /// The highlighted move.
    pub index: usize,
}

/// Something that waits for a yes to the question on the message line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    /// Start a new game, discarding the one in progress.
    NewGame,
    /// Start a new game from a random FMJD ballot.
    Ballot,
    /// Open the load prompt, then replace the game in progress.
    Load,
    /// Open the FEN prompt, then replace the game in progress.
    SetFen,
    /// Leave, discarding the game in progress.
    Quit,
    /// Take the game back to this ply and play on from there.
    ContinueFrom(usize),
    /// Replace an existing file with the game.
    Overwrite {
        /// The file.
        path: PathBuf,
        /// The PDN text.
        text: String,
    },
}

/// The games of a PDN file, one to be chosen for loading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameList {
    /// The games, in file order.
    pub games: Vec<PdnGame>,
    /// The one highlighted.
    pub index: usize,
}

impl GameList {
    /// One line describing game `i`: number, players, result, moves, event.
    pub fn describe(&self, i: usize) -> String {
        let g = &self.games[i];
        let tag = |n: &str| g.tag(n).unwrap_or("?").to_string();
        let result = g.result.clone().unwrap_or_else(|| tag("Result"));
        format!(
            "{}. {} - {}  {}  {} plies  {}",
            i + 1,
            tag("White"),
            tag("Black"),
            result,
            g.moves.len(),
            tag("Event")
        )
    }
}

/// What the open prompt is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PromptKind {
    /// A move in any notation.
    Move,
    /// A FEN to set up.
    Fen,
    /// A file name to save the game to.
    Save,
    /// A file name to load a game from.
    Load,
}

impl PromptKind {
    /// The label shown before the text.
    pub fn label(self) -> &'static str {
        match self {
            PromptKind::Move => "move",
            PromptKind::Fen => "FEN",
            PromptKind::Save => "save PDN to",
            PromptKind::Load => "load PDN from",
        }
    }
}

/// An open text prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompt {
    /// What it is for.
    pub kind: PromptKind,
    /// What was typed.
    pub text: String,
}

/// Choosing between moves with the same start and end but different captured pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The candidates.
    pub candidates: Vec<Move>,
    /// The one shown.
    pub index: usize,
}

/// Whether a message is news or a complaint.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MessageKind {
    /// Information.
    Info,
    /// Something was refused.
    Error,
}
