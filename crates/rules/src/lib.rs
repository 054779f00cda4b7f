//! The rules of Brazilian draughts on the 8×8 board: squares and 32-square
//! [`Bitboard`]s, the [`Position`] and its hash [`Key`], [`Move`]s and their
//! generation ([`movegen`]), notation, FEN and PDN, the draw rules, the game record
//! and [`perft`].
//!
//! ```
//! use damas_rules::{movegen::legal_moves, Position};
//!
//! let start = Position::start();
//! assert_eq!(legal_moves(&start).len(), 7);
//! ```

pub mod bitboard;
pub mod drawrules;
pub mod fen;
pub mod game;
pub mod key;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod padded;
pub mod pdn;
pub mod perft;
mod perft_bulk;
pub mod position;
pub mod square;

pub use bitboard::{Bitboard, Dir};
pub use fen::{parse_fen, to_fen, FenError};
pub use key::Key;
pub use moves::{Move, MoveList};
pub use position::{Color, Kind, Piece, Position};
pub use square::Square;
