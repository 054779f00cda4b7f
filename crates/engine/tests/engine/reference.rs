//! The reference the search is checked against: plain negamax without pruning, with
//! the engine's quiescence and single-reply extension rules written out naively.

use damas_engine::eval::{Evaluator, Material};
use damas_engine::Score;
use damas_rules::movegen::{generate_captures_with, has_capture, legal_moves};
use damas_rules::variant::Brazilian;
use damas_rules::variant::Variant;
use damas_rules::{MoveList, Position};

/// Quiescence as the engine defines it: captures are compulsory, so a position with
/// one is played out; otherwise the static value. `pos` has a legal move.
fn qs_ref(pos: &Position, ply: u32) -> Score {
    if !has_capture(pos) {
        return Material.eval(pos);
    }
    let mut list = MoveList::new();
    generate_captures_with::<Brazilian>(pos, &mut list);
    list.iter()
        .map(|&m| {
            let c = pos.play(m);
            if legal_moves(Variant::Brazilian, &c).is_empty() {
                Score::win_in(ply + 1)
            } else {
                -qs_ref(&c, ply + 1)
            }
        })
        .max()
        .expect("captures")
}

/// Plain minimax (negamax, no pruning): repetition of any position on the path (game
/// history included) is a draw, no move is a loss, the horizon is evaluated. With
/// `ext`, single-reply extensions as the technique defines them: below the root, a
/// node with one legal move searches it at its own depth (until ply 60).
pub fn minimax(
    pos: &Position,
    depth: u32,
    ply: u32,
    qs: bool,
    ext: bool,
    path: &mut Vec<Position>,
) -> Score {
    if ply > 0 && path.contains(pos) {
        return Score::DRAW;
    }
    let moves = legal_moves(Variant::Brazilian, pos);
    if moves.is_empty() {
        return Score::loss_in(ply);
    }
    if depth == 0 {
        return if qs {
            qs_ref(pos, ply)
        } else {
            Material.eval(pos)
        };
    }
    let forced = ext && moves.len() == 1 && ply > 0 && ply < 60;
    let child_depth = depth - 1 + u32::from(forced);
    path.push(*pos);
    let best = moves
        .iter()
        .map(|&m| -minimax(&pos.play(m), child_depth, ply + 1, qs, ext, path))
        .max()
        .expect("moves");
    path.pop();
    best
}
