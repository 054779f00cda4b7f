//! The rules crate's integration tests, one module per concern: the Brazilian rules'
//! subtleties, the Russian differences, FEN and move text, the pydraughts fixture
//! and perft.

mod brazilian;
mod canonical;
mod fen;
mod perft;
mod pydraughts;
mod russian;
