//! Writing PDN: tags (with `GameType`, `FEN` and `Result` kept consistent with the
//! game), then algebraic movetext wrapped at 80 columns, each move's comment after
//! it, then the result.

use crate::fen::to_fen;
use crate::notation::{move_to_string_for, Notation};
use crate::position::Position;

use super::{game_type_tag, MoveNumber, PdnGame};

const WIDTH: usize = 79;

/// The tags as written: the game's own tags in order, with `GameType` naming the
/// game's variant in full, `FEN` matching the start position (added when it is not the initial
/// one) and `Result` matching the result token.
fn effective_tags(g: &PdnGame) -> Vec<(String, String)> {
    let mut tags = g.tags.clone();
    let mut set =
        |name: &str, value: String, add: bool| match tags.iter_mut().find(|(k, _)| k == name) {
            Some(t) => t.1 = value,
            None if add => tags.push((name.to_string(), value)),
            None => {}
        };
    set(
        "Result",
        g.result.clone().unwrap_or_else(|| "*".into()),
        true,
    );
    set("GameType", game_type_tag(g.variant()), true);
    set("FEN", to_fen(&g.start), g.start != Position::start());
    tags
}

fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

/// One game as PDN text, ending with a blank line.
pub fn write_game(g: &PdnGame) -> String {
    let mut out = String::new();
    for (k, v) in effective_tags(g) {
        // Tag names are words; anything else would not read back.
        let name: String = k
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            out.push_str(&format!("[{name} \"{}\"]\n", escape(&v)));
        }
    }
    out.push('\n');
    let mut words = Vec::new();
    let first = g.start.side_to_move();
    let mut pos = g.start;
    let variant = g.variant();
    for (ply, &m) in g.moves.iter().enumerate() {
        let n = MoveNumber::of_ply(first, ply);
        if !n.black {
            words.push(format!("{}.", n.number));
        } else if ply == 0 {
            words.push(format!("{}...", n.number));
        }
        words.push(move_to_string_for(variant, &pos, m, Notation::Algebraic));
        if let Some(text) = g.comment(ply) {
            // A `}` would end the comment early (`comments` is a public field).
            words.push(format!("{{{}}}", text.replace('}', ")")));
        }
        pos = pos.play(m);
    }
    words.push(g.result.clone().unwrap_or_else(|| "*".into()));
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// Several games, one after the other.
pub fn write_games(games: &[PdnGame]) -> String {
    games.iter().map(write_game).collect()
}
