//! The root of a search: iterative deepening with aspiration windows
//! (`deepening`), or MTD(f) (`mtdf`), several best lines (`multipv`), and the game's
//! history marked in the thesis' table before the search starts (`game_path`).

pub(super) mod deepening;
pub(super) mod game_path;
pub(super) mod mtdf;
pub(super) mod multipv;
