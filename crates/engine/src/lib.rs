//! The damas engine: position evaluation ([`eval`]), the search ([`search`]) and its
//! transposition tables ([`tt`]), time management ([`time`]), the opening book ([`book`]),
//! strength levels ([`level`]) and the trait through which the search consults
//! perfect knowledge ([`oracle`], implemented by the endgame databases).

pub mod book;
pub mod eval;
pub mod fsutil;
pub mod level;
pub mod oracle;
pub mod score;
pub mod search;
pub mod time;
pub mod tt;

pub use score::Score;
