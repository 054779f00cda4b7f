//! The engine crate's integration tests: the search against a plain minimax, the
//! shared transposition table and threads, and the search under Russian rules.

mod reference;
mod russian;
mod search;
mod shared_table;
