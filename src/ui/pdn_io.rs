//! PDN save and load for the UI. Placeholder until the shared `pdn` module lands.

use crate::game::{Game, GameResult};

/// The game as PDN text.
pub fn game_to_pdn(_game: &Game, _result: Option<&GameResult>) -> String {
    String::new()
}

/// The first game of a PDN text.
pub fn game_from_pdn(_text: &str) -> Result<Game, String> {
    Err("PDN loading is not available yet".to_string())
}
