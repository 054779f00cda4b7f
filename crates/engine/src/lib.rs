//! The damas engine: position evaluation ([`eval`]), the search ([`search`]) with its
//! transposition tables, time management ([`time`]), the opening book ([`book`]),
//! strength levels ([`level`]), choosing a move to play ([`think`]) and the trait through which the search consults
//! perfect knowledge ([`oracle`], implemented by the endgame databases).

pub mod book;
pub mod eval;
pub mod fsutil;
pub mod level;
pub mod oracle;
mod prefetch;
pub mod score;
pub mod search;
pub mod settings;
pub mod shared_tt;
pub mod think;
pub mod time;
pub mod tt;

pub use score::Score;
