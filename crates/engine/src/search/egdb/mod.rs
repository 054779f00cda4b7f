//! The endgame databases in the search: cutoffs inside the tree (`cutoff`), the
//! progress a won position without distances seems to make (`progress`), and at the
//! root the conversion search (`conversion`) and the database's moves kept clear of
//! the king-move rule (`root`).

pub(super) mod conversion;
pub(super) mod cutoff;
pub(super) mod progress;
pub(super) mod root;
