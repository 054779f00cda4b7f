//! Writing PDN: tags (with `GameType`, `FEN` and `Result` kept consistent with the
//! game), then algebraic movetext wrapped at 80 columns, each move's comment after
//! it and its variations in brackets after that, then the result.

use crate::fen::to_fen;
use crate::moves::Move;
use crate::notation::{move_to_string, Notation};
use crate::position::{Color, Position};
use crate::variant::Variant;

use super::tree::{comment_at, variations_at};
use super::{game_type_tag, MoveNumber, PdnGame, Variation};

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
    let main = LineRef {
        moves: &g.moves,
        comments: &g.comments,
        variations: &g.variations,
    };
    let mut movetext = Words::default();
    line_words(
        g.variant(),
        g.start,
        g.start.side_to_move(),
        0,
        main,
        &mut movetext,
    );
    let mut words = movetext.words;
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

/// The parts of a line to write: the main line's fields or a variation's.
#[derive(Clone, Copy)]
struct LineRef<'a> {
    moves: &'a [Move],
    comments: &'a [(usize, String)],
    variations: &'a [(usize, Vec<Variation>)],
}

impl<'a> From<&'a Variation> for LineRef<'a> {
    fn from(v: &'a Variation) -> LineRef<'a> {
        LineRef {
            moves: &v.moves,
            comments: &v.comments,
            variations: &v.variations,
        }
    }
}

/// Movetext words, with a `(` waiting to be put before the next word.
#[derive(Default)]
struct Words {
    words: Vec<String>,
    open: usize,
}

impl Words {
    fn push(&mut self, word: String) {
        let brackets = "(".repeat(std::mem::take(&mut self.open));
        self.words.push(brackets + &word);
    }

    fn close(&mut self) {
        if let Some(last) = self.words.last_mut() {
            last.push(')');
        }
    }
}

/// The words of `line` played from `pos`, its first move at `first_ply` of a game
/// starting with `first` to move: each move numbered when White's, Black's
/// numbered at the start of the line and after a variation, each comment after its
/// move, each variation in brackets after the move it replaces.
fn line_words(
    variant: Variant,
    mut pos: Position,
    first: Color,
    first_ply: usize,
    line: LineRef<'_>,
    out: &mut Words,
) {
    let mut number_black = true;
    for (i, &m) in line.moves.iter().enumerate() {
        let n = MoveNumber::of_ply(first, first_ply + i);
        if !n.black {
            out.push(format!("{}.", n.number));
        } else if number_black {
            out.push(format!("{}...", n.number));
        }
        number_black = false;
        out.push(move_to_string(variant, &pos, m, Notation::Algebraic));
        if let Some(text) = comment_at(line.comments, i) {
            // A `}` would end the comment early (`comments` is a public field).
            out.push(format!("{{{}}}", text.replace('}', ")")));
        }
        for v in variations_at(line.variations, i) {
            if v.moves.is_empty() {
                continue;
            }
            out.open += 1;
            line_words(variant, pos, first, first_ply + i, v.into(), out);
            out.close();
            number_black = true;
        }
        pos = pos.play(m);
    }
}

/// Several games, one after the other.
pub fn write_games(games: &[PdnGame]) -> String {
    games.iter().map(write_game).collect()
}
