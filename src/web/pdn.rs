//! PDN in and out for the page (`POST /api/pdn/read`, `POST /api/pdn/write`): the
//! rules crate's reader and writer, the games as the page's move trees.

use serde::Deserialize;
use serde_json::{json, Value};

use damas_rules::fen::to_fen;
use damas_rules::moves::Move;
use damas_rules::notation::parse_move;
use damas_rules::pdn::{read_games, write_games, PdnGame, Variation};
use damas_rules::position::Position;
use damas_rules::variant::Variant;

use super::error::ApiError;
use super::line::{move_id, start_position};

/// The tags a game's fields stand for (`variant`, `start`, `result`), which the
/// writer sets from them.
pub const FIELD_TAGS: [&str; 3] = ["GameType", "FEN", "Result"];

/// The most games one request may hold.
pub const MAX_GAMES: usize = 10_000;

/// The body of `POST /api/pdn/read`.
#[derive(Clone, Debug, Deserialize)]
pub struct ReadRequest {
    /// The PDN text.
    pub text: String,
}

/// The body of `POST /api/pdn/write`.
#[derive(Clone, Debug, Deserialize)]
pub struct WriteRequest {
    /// The games.
    pub games: Vec<GameJson>,
}

/// A game as the page holds it.
#[derive(Clone, Debug, Deserialize)]
pub struct GameJson {
    /// Tag pairs in order.
    #[serde(default)]
    pub tags: Vec<(String, String)>,
    /// The rules.
    #[serde(deserialize_with = "super::line::variant")]
    pub variant: Variant,
    /// The start position as FEN (`None`: the initial one).
    #[serde(default)]
    pub start: Option<String>,
    /// The result token, if any.
    #[serde(default)]
    pub result: Option<String>,
    /// The main line.
    #[serde(default)]
    pub tree: Vec<NodeJson>,
}

/// One move of a tree, with its comment and the alternatives to it.
#[derive(Clone, Debug, Deserialize)]
pub struct NodeJson {
    /// The move's id.
    pub id: String,
    /// The comment after it.
    #[serde(default)]
    pub comment: Option<String>,
    /// Lines played instead of this move.
    #[serde(default)]
    pub variations: Vec<Vec<NodeJson>>,
}

/// The answer of `POST /api/pdn/read`: every game of the text, or a 400 with the
/// reader's error (game, move, line and column).
pub fn read(req: &ReadRequest) -> Result<Value, ApiError> {
    let games = read_games(&req.text).map_err(|e| ApiError::bad(format!("PDN: {e}")))?;
    let games: Vec<Value> = games.iter().map(game_json).collect();
    Ok(json!({ "games": games }))
}

/// The answer of `POST /api/pdn/write`: the games as PDN text, or a 400 naming the
/// game and move at fault.
pub fn write(req: &WriteRequest) -> Result<Value, ApiError> {
    if req.games.len() > MAX_GAMES {
        return Err(ApiError::bad(format!(
            "games: {} games, at most {MAX_GAMES}",
            req.games.len()
        )));
    }
    let games = req
        .games
        .iter()
        .enumerate()
        .map(|(i, g)| pdn_game(g).map_err(|e| ApiError::bad(format!("games[{i}]: {e}"))))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(json!({ "text": write_games(&games) }))
}

fn game_json(g: &PdnGame) -> Value {
    let variant = g.variant();
    let main = Variation {
        moves: g.moves.clone(),
        comments: g.comments.clone(),
        variations: g.variations.clone(),
    };
    // The rules, start and result are the fields' own, not tags.
    let tags: Vec<&(String, String)> = g
        .tags
        .iter()
        .filter(|(k, _)| !FIELD_TAGS.contains(&k.as_str()))
        .collect();
    json!({
        "tags": tags,
        "variant": variant.name(),
        "start": (g.start != Position::start()).then(|| to_fen(&g.start)),
        "result": g.result,
        "tree": tree_json(variant, g.start, &main),
    })
}

/// A line and its variations as the page's nodes, the line starting at `pos`.
fn tree_json(variant: Variant, mut pos: Position, line: &Variation) -> Vec<Value> {
    let mut nodes = Vec::with_capacity(line.moves.len());
    for (ply, &m) in line.moves.iter().enumerate() {
        let id = move_id(variant, &pos, m);
        let variations: Vec<Value> = line
            .variations_at(ply)
            .iter()
            .map(|v| Value::Array(tree_json(variant, pos, v)))
            .collect();
        nodes.push(json!({
            "id": id,
            "text": id,
            "comment": line.comment(ply),
            "variations": variations,
        }));
        pos = pos.play(m);
    }
    nodes
}

fn pdn_game(g: &GameJson) -> Result<PdnGame, String> {
    let start = start_position(g.start.as_deref()).map_err(|e| e.message)?;
    let main = variation(g.variant, start, &g.tree, "tree")?;
    let mut game = PdnGame::new(g.variant, start, main.moves, g.result.clone());
    // The writer adds the tags of the fields (`FIELD_TAGS`).
    game.tags = g
        .tags
        .iter()
        .filter(|(k, _)| !FIELD_TAGS.contains(&k.as_str()))
        .cloned()
        .collect();
    game.comments = main.comments;
    game.variations = main.variations;
    Ok(game)
}

/// The nodes `nodes` played from `pos` as a line with its comments and variations;
/// an error names the node (`tree[3].variations[0][1]`) and why.
fn variation(
    variant: Variant,
    mut pos: Position,
    nodes: &[NodeJson],
    at: &str,
) -> Result<Variation, String> {
    let mut line = Variation::default();
    for (ply, node) in nodes.iter().enumerate() {
        let here = format!("{at}[{ply}]");
        for (k, v) in node.variations.iter().enumerate() {
            let alt = variation(variant, pos, v, &format!("{here}.variations[{k}]"))?;
            if !alt.moves.is_empty() {
                line.add_variation(ply, alt);
            }
        }
        let mv: Move = parse_move(variant, &pos, &node.id)
            .map_err(|e| format!("{here} ({:?}): {e}", node.id))?;
        line.moves.push(mv);
        if let Some(c) = &node.comment {
            line.add_comment(ply, c);
        }
        pos = pos.play(mv);
    }
    Ok(line)
}
