//! The rules of Brazilian draughts on the 8×8 board: squares and 32-square
//! [`Bitboard`]s, the [`Position`] and its hash [`Key`], [`Move`]s and their
//! generation ([`movegen`]), notation, FEN and PDN, the draw rules, the game record
//! and [`perft`]. The rules that differ between variants are behind [`Variant`] and
//! [`Rules`]; the rules themselves are written out in the repository's `docs/rules.md`.
//! Beside them, [`atomic_file`]: how every crate writes a file whole.
//!
//! Positions, legal moves and notation:
//!
//! ```
//! use damas_rules::movegen::legal_moves;
//! use damas_rules::notation::{move_to_string, parse_move, Notation};
//! use damas_rules::{parse_fen, to_fen, Position, Variant};
//!
//! let start = Position::start();
//! assert_eq!(legal_moves(Variant::Brazilian, &start).len(), 7);
//!
//! let mv = parse_move(Variant::Brazilian, &start, "c3-d4").unwrap();
//! assert_eq!(move_to_string(Variant::Brazilian, &start, mv, Notation::Numeric), "22-18");
//! let next = start.play(mv);
//!
//! // FEN round trip; bad input is a typed error that says where.
//! assert_eq!(parse_fen(&to_fen(&next)).unwrap(), next);
//! assert!(parse_fen("W:W33:B1").is_err());
//! ```
//!
//! Counting the move tree (the published counts are in `data/perft/`):
//!
//! ```
//! use damas_rules::{perft::perft, Position, Variant};
//!
//! assert_eq!(perft(Variant::Brazilian, &Position::start(), 3), 302);
//! ```
//!
//! Games in PDN:
//!
//! ```
//! use damas_rules::pdn::{read_games, write_game};
//!
//! let games = read_games("[GameType \"26\"]\n1. c3-d4 f6-e5 *").unwrap();
//! assert_eq!(games[0].moves.len(), 2);
//! assert!(write_game(&games[0]).contains("c3-d4"));
//! ```

pub mod atomic_file;
pub mod bitboard;
pub mod drawrules;
pub mod fen;
pub mod game;
pub mod key;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod outcome;
pub mod pdn;
pub mod perft;
mod perft_bulk;
pub mod position;
pub mod square;
pub mod variant;

pub use bitboard::{Bitboard, Dir};
pub use fen::{parse_fen, to_fen, FenError};
pub use key::Key;
pub use moves::{Move, MoveList};
pub use position::{Color, Kind, Piece, Position};
pub use square::Square;
pub use variant::{Rules, Variant, VariantError};
