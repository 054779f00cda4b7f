//! Consistency of a game record beyond legal moves: the recorded result (the result
//! token, and the `Result` tag) must not contradict the final position when the rules
//! have ended the game there, and the two must agree with each other.

use std::fmt;

use thiserror::Error;

use super::PdnGame;

/// A recorded result that the game itself contradicts.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub struct ResultMismatch {
    /// What the record says (`2-0`, …).
    pub recorded: String,
    /// What contradicts it.
    pub actual: String,
}

impl fmt::Display for ResultMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "result {} contradicts {}", self.recorded, self.actual)
    }
}

/// Check the recorded result of `g` (see the module docs). `*` and a missing result
/// never contradict; a decisive or drawn result of a game the rules did not end is
/// accepted (resignation, agreement).
pub fn check_result(g: &PdnGame) -> Result<(), ResultMismatch> {
    let token = g.result.as_deref().filter(|r| *r != "*");
    let tag = g.tag("Result").filter(|r| *r != "*" && !r.is_empty());
    if let (Some(t), Some(r)) = (token, tag) {
        if t != r {
            return Err(ResultMismatch {
                recorded: format!("tag {r}"),
                actual: format!("the result {t} after the moves"),
            });
        }
    }
    let Some(recorded) = token.or(tag) else {
        return Ok(());
    };
    let Ok(game) = g.to_game() else {
        return Ok(());
    };
    match game.result() {
        Some(r) if r.pdn() != recorded => {
            let who = match r.winner {
                Some(c) => format!("{c:?} wins"),
                None => "a draw".to_string(),
            };
            Err(ResultMismatch {
                recorded: recorded.to_string(),
                actual: format!(
                    "the final position: {who} ({}), {}",
                    r.reason.describe(),
                    r.pdn()
                ),
            })
        }
        _ => Ok(()),
    }
}
