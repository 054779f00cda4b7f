//! PDN game records (Portable Draughts Notation) for Brazilian and Russian draughts,
//! the `GameType` tag choosing the rules (26 Brazilian, the default; 25 Russian): reading
//! ([`read_games`]) and writing ([`write_game`], [`write_games`]), and conversion to and
//! from a [`Game`].
//!
//! Reading accepts tags, move numbers (`1.`, `1...`), algebraic or numeric moves with
//! `-`, `x` or `:`, keeps a comment `{…}` with the move before it and (nested)
//! variations `(…)` as the game's move tree ([`Variation`]), and skips `;` line
//! comments and `$n` annotations. Writing uses algebraic moves, each comment and then
//! each variation after its move, and `GameType "26,W,8,8,A0,0"` (`"25,…"` for
//! Russian).

use std::fmt;

use thiserror::Error;

use crate::fen::{to_fen, FenError};
use crate::game::Game;
use crate::moves::Move;
use crate::notation::MoveError;
use crate::position::{Color, Position};
use crate::variant::Variant;

mod check;
mod date;
mod read;
mod tree;
mod write;

pub use check::{check_result, ResultMismatch};
pub use date::{date_of_day, today, UNKNOWN_DATE};
pub use read::read_games;
pub use tree::Variation;
pub use write::{write_game, write_games};

/// What the command line and the terminal UI say about a file without any game.
pub const NO_GAME: &str = "the file holds no game";

/// The `GameType` tag value of Brazilian checkers with algebraic notation.
pub const GAME_TYPE: &str = "26,W,8,8,A0,0";

/// The `GameType` tag value of `variant` with algebraic notation ([`GAME_TYPE`] for
/// Brazilian).
pub fn game_type_tag(variant: Variant) -> String {
    format!("{},W,8,8,A0,0", variant.game_type())
}

/// The variant a `GameType` tag value names (its first field), if one we play.
pub fn variant_of_game_type(value: &str) -> Option<Variant> {
    let number = value.split(',').next().unwrap_or("").trim();
    let n = number.parse().ok()?;
    Variant::from_game_type(crate::variant::GameType(n)).ok()
}

/// One game: its tags in file order, the start position, the moves, and the result
/// token that ended the movetext (`2-0`, `1-1`, `0-2`, `*`), if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// Tag pairs in file order (`("White", "Ana")`).
    pub tags: Vec<(String, String)>,
    /// The start position (from the `FEN` tag, else the initial position).
    pub start: Position,
    /// The moves, all legal from `start`.
    pub moves: Vec<Move>,
    /// The game termination marker.
    pub result: Option<String>,
    /// Comments after moves (`{…}` in the movetext) as (ply, text), in ply order;
    /// match records keep each move's time here (`[%emt …]`, `[%clk …]`).
    pub comments: Vec<(usize, String)>,
    /// Variations (`( … )` in the movetext) as (ply, the lines played instead of the
    /// move at that ply), in ply order: the move tree beside the main line `moves`.
    pub variations: Vec<(usize, Vec<Variation>)>,
}

/// A move number as PDN writes it: `12` for White's move, `12...` for Black's.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveNumber {
    /// Full-move number, from 1.
    pub number: u32,
    /// Whether it is Black's move.
    pub black: bool,
}

impl MoveNumber {
    /// The number of the move played at ply `ply` (0-based) of a game starting with
    /// `first` to move.
    pub fn of_ply(first: Color, ply: usize) -> MoveNumber {
        let offset = usize::from(first == Color::Black);
        let k = ply + offset;
        MoveNumber {
            number: (k / 2 + 1) as u32,
            black: k % 2 == 1,
        }
    }
}

impl fmt::Display for MoveNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.number, if self.black { "..." } else { "" })
    }
}

/// What is wrong with a PDN text.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PdnErrorKind {
    /// A tag `[Name "value"]` that is not closed or not well formed.
    #[error("bad tag: {0}")]
    BadTag(String),
    /// A comment or variation still open at the end of the text.
    #[error("unterminated {0}")]
    Unterminated(&'static str),
    /// A `)` or `}` without its opening bracket.
    #[error("unexpected {0:?}")]
    Unexpected(char),
    /// The `GameType` tag names another game.
    #[error("unsupported GameType {0:?} (26, Brazilian, and 25, Russian, are read)")]
    GameType(String),
    /// The `FEN` tag is not a valid position.
    #[error("bad FEN tag: {0}")]
    Fen(FenError),
    /// A move that cannot be read or is not legal.
    #[error("{0}")]
    Move(MoveError),
    /// A move after the game is already over (the side to move has no move).
    #[error("move {0:?} after the end of the game")]
    AfterEnd(String),
}

/// A PDN error: which game (1-based), which move when a move is at fault, where in
/// the text (1-based line and column), and why.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub struct PdnError {
    /// Game number, from 1.
    pub game: usize,
    /// The move at fault, if the error is about a move.
    pub mv: Option<MoveNumber>,
    /// Line, from 1 (0 when the game was not read from text).
    pub line: usize,
    /// Column in characters, from 1 (0 when not read from text).
    pub column: usize,
    /// The reason.
    pub kind: PdnErrorKind,
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.game)?;
        if let Some(m) = self.mv {
            write!(f, " move {m}")?;
        }
        if self.line > 0 {
            write!(f, " (line {}, column {})", self.line, self.column)?;
        }
        write!(f, ": {}", self.kind)
    }
}

/// Add `text` to the comment after the move at `ply` in `comments` (kept in ply
/// order): a `}`, which would end the comment, becomes `)`; surrounding blanks are
/// dropped, and an empty text adds nothing.
pub(crate) fn add_comment(comments: &mut Vec<(usize, String)>, ply: usize, text: &str) {
    let text = text.trim().replace('}', ")");
    if text.is_empty() {
        return;
    }
    match comments.iter_mut().find(|(p, _)| *p == ply) {
        Some((_, c)) => {
            c.push(' ');
            c.push_str(&text);
        }
        None => {
            let at = comments.partition_point(|(p, _)| *p < ply);
            comments.insert(at, (ply, text));
        }
    }
}

impl PdnGame {
    /// A game of `variant` with the standard tags (`Event`, `Date` (unknown), `White`,
    /// `Black`, `Result`, `GameType` of `variant`, and `FEN` when `start` is not the
    /// initial position).
    pub fn new(
        variant: Variant,
        start: Position,
        moves: Vec<Move>,
        result: Option<String>,
    ) -> PdnGame {
        let mut tags: Vec<(String, String)> = vec![
            ("Event".into(), "?".into()),
            ("Date".into(), UNKNOWN_DATE.into()),
            ("White".into(), "?".into()),
            ("Black".into(), "?".into()),
            (
                "Result".into(),
                result.clone().unwrap_or_else(|| "*".into()),
            ),
            ("GameType".into(), game_type_tag(variant)),
        ];
        if start != Position::start() {
            tags.push(("FEN".into(), to_fen(&start)));
        }
        PdnGame {
            tags,
            start,
            moves,
            result,
            comments: Vec::new(),
            variations: Vec::new(),
        }
    }

    /// A game record of `game`, with its result when the game is over.
    pub fn from_game(game: &Game) -> PdnGame {
        let result = game.result().map(|r| r.pdn().to_string());
        PdnGame::new(game.variant(), game.start(), game.moves().to_vec(), result)
    }

    /// The rules the game is played by: its `GameType` tag's, Brazilian without one.
    pub fn variant(&self) -> Variant {
        self.tag("GameType")
            .and_then(variant_of_game_type)
            .unwrap_or_default()
    }

    /// The value of tag `name` (case-sensitive, first occurrence).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The colour player `name` had: White if the `White` tag names it, else Black
    /// if the `Black` tag does.
    pub fn color_of(&self, name: &str) -> Option<Color> {
        if self.tag("White") == Some(name) {
            Some(Color::White)
        } else if self.tag("Black") == Some(name) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The half points `color` scored by the recorded result (2 a win, 1 a draw, 0 a
    /// loss); `None` where the game has no result or `*`.
    pub fn half_points(&self, color: Color) -> Option<u32> {
        let white = match self.result.as_deref()? {
            "2-0" => 2,
            "1-1" => 1,
            "0-2" => 0,
            _ => return None,
        };
        Some(if color == Color::White {
            white
        } else {
            2 - white
        })
    }

    /// Set tag `name` to `value`, replacing an existing value or appending the tag.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(t) => t.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The comment after the move at `ply`, if any.
    pub fn comment(&self, ply: usize) -> Option<&str> {
        tree::comment_at(&self.comments, ply)
    }

    /// The variations played instead of the move at `ply` (none: empty).
    pub fn variations_at(&self, ply: usize) -> &[Variation] {
        tree::variations_at(&self.variations, ply)
    }

    /// Add `line` as the last variation played instead of the move at `ply`.
    pub fn add_variation(&mut self, ply: usize, line: Variation) {
        tree::add_variation(&mut self.variations, ply, line);
    }

    /// Add `text` to the comment after the move at `ply`: a `}`, which would end the
    /// comment, becomes `)`; surrounding blanks are dropped, and an empty text adds
    /// nothing.
    pub fn add_comment(&mut self, ply: usize, text: &str) {
        add_comment(&mut self.comments, ply, text);
    }

    /// The position after every move.
    pub fn end_position(&self) -> Position {
        self.moves.iter().fold(self.start, |p, &m| p.play(m))
    }

    /// Replay the moves into a [`Game`]; fails on the first illegal move (possible
    /// only for a hand-built `PdnGame`; [`read_games`] checks every move).
    pub fn to_game(&self) -> Result<Game, PdnError> {
        let mut game = Game::new(self.variant(), self.start);
        for (ply, &m) in self.moves.iter().enumerate() {
            if !game.play(m) {
                let pos = game.position();
                let text = format!("{m:?}");
                let legal = crate::notation::legal_move_strings(
                    self.variant(),
                    &pos,
                    crate::notation::Notation::Algebraic,
                );
                return Err(PdnError {
                    game: 1,
                    mv: Some(MoveNumber::of_ply(self.start.side_to_move(), ply)),
                    line: 0,
                    column: 0,
                    kind: PdnErrorKind::Move(MoveError::Illegal { text, legal }),
                });
            }
        }
        Ok(game)
    }
}

impl From<&Game> for PdnGame {
    fn from(game: &Game) -> PdnGame {
        PdnGame::from_game(game)
    }
}

impl TryFrom<&PdnGame> for Game {
    type Error = PdnError;
    fn try_from(g: &PdnGame) -> Result<Game, PdnError> {
        g.to_game()
    }
}

#[cfg(test)]
mod tests;
