//! The controller's vocabulary: search requests, effects, prompts, capture choices.

use std::path::PathBuf;

use crate::moves::Move;
use crate::position::Position;
use crate::search::Limits;

/// Why a search was asked for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Purpose {
    /// The engine plays the result.
    Move,
    /// The result is shown as a hint.
    Hint,
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
    /// How long to search.
    pub limits: Limits,
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
    /// Read `path` and hand it to [`Controller::load_pdn`].
    Load(PathBuf),
    /// Leave the program.
    Quit,
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
