//! A game record: start position, moves played, undo/redo, and the end of the game by
//! the rules (no legal move loses) and by the draw rules of docs/rules.md (as lidraughts
//! applies them to Brazilian: the Russian rules).

use crate::movegen::legal_moves;
use crate::moves::Move;
use crate::outcome::{EndReason, GameResult};
use crate::position::{Color, Position};
use crate::variant::Variant;

/// A game: the start position and the moves played, with a redo stack.
#[derive(Clone, Debug)]
pub struct Game {
    variant: Variant,
    start: Position,
    moves: Vec<Move>,
    positions: Vec<Position>,
    redo: Vec<Move>,
}

impl Game {
    /// A new game of `variant` from `start`.
    pub fn new(variant: Variant, start: Position) -> Game {
        Game {
            variant,
            start,
            moves: Vec::new(),
            positions: vec![start],
            redo: Vec::new(),
        }
    }

    /// The rules the game is played by.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The start position.
    pub fn start(&self) -> Position {
        self.start
    }

    /// The current position.
    pub fn position(&self) -> Position {
        *self
            .positions
            .last()
            .expect("a game always has its start position")
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position of the game, start first, current last.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The positions before the current one (for the search's repetition detection).
    pub fn history(&self) -> &[Position] {
        &self.positions[..self.positions.len() - 1]
    }

    /// Play `mv` if it is legal here; clears the redo stack. Returns whether it was played.
    pub fn play(&mut self, mv: Move) -> bool {
        let pos = self.position();
        if !legal_moves(self.variant, &pos).contains(&mv) {
            return false;
        }
        self.moves.push(mv);
        self.positions.push(pos.play(mv));
        self.redo.clear();
        true
    }

    /// Take back the last move; returns it.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.redo.push(mv);
        Some(mv)
    }

    /// Replay the last undone move; returns it.
    pub fn redo(&mut self) -> Option<Move> {
        let mv = self.redo.pop()?;
        let pos = self.position();
        self.moves.push(mv);
        self.positions.push(pos.play(mv));
        Some(mv)
    }

    /// Whether a move can be redone.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// The result if the game is over by the rules or a draw rule.
    pub fn result(&self) -> Option<GameResult> {
        let pos = self.position();
        // A side without pieces has lost even when the other side is to move (a
        // set-up position such as `W:Wa1:B`).
        for side in [Color::White, Color::Black] {
            if pos.pieces(side).is_empty() {
                return Some(GameResult {
                    winner: Some(side.opponent()),
                    reason: EndReason::NoPieces,
                });
            }
        }
        if legal_moves(self.variant, &pos).is_empty() {
            return Some(GameResult {
                winner: Some(pos.side_to_move().opponent()),
                reason: EndReason::NoMoves,
            });
        }
        self.draw_reason().map(|reason| GameResult {
            winner: None,
            reason,
        })
    }

    fn draw_reason(&self) -> Option<EndReason> {
        let pos = self.position();
        if self.positions.iter().filter(|&&p| p == pos).count() >= 3 {
            return Some(EndReason::Repetition);
        }
        let (current, earlier) = self.positions.split_last()?;
        crate::drawrules::count_draw(current, earlier.iter().rev())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::parse_fen;
    use crate::notation::parse_move;

    fn play(g: &mut Game, text: &str) {
        let m = parse_move(Variant::Brazilian, &g.position(), text).unwrap();
        assert!(g.play(m));
    }

    #[test]
    fn undo_redo() {
        let mut g = Game::new(Variant::Brazilian, Position::start());
        play(&mut g, "c3-d4");
        play(&mut g, "f6-e5");
        assert_eq!(g.undo().map(|m| m.to().to_string()), Some("e5".into()));
        assert!(g.can_redo());
        g.redo();
        assert_eq!(g.moves().len(), 2);
        g.undo();
        play(&mut g, "f6-g5");
        assert!(!g.can_redo());
    }

    #[test]
    fn a_side_without_pieces_has_lost_at_once() {
        let g = Game::new(Variant::Brazilian, parse_fen("W:Wa1:B").unwrap());
        assert_eq!(
            g.result(),
            Some(GameResult {
                winner: Some(Color::White),
                reason: EndReason::NoPieces,
            })
        );
    }

    #[test]
    fn no_moves_loses() {
        let g = Game::new(Variant::Brazilian, parse_fen("B:Wa1,c1:Bb2").unwrap());
        assert_eq!(
            g.result(),
            Some(GameResult {
                winner: Some(Color::White),
                reason: EndReason::NoMoves
            })
        );
    }

    #[test]
    fn repetition_and_two_vs_king() {
        let mut g = Game::new(Variant::Brazilian, parse_fen("W:WKe1,Kg1:BKa7").unwrap());
        for _ in 0..2 {
            for m in ["g1-h2", "a7-b8", "h2-g1", "b8-a7"] {
                assert_eq!(g.result(), None);
                play(&mut g, m);
            }
        }
        // Start position seen three times after 8 plies, before two v one's 10.
        assert_eq!(g.result().map(|r| r.reason), Some(EndReason::Repetition));
        assert_eq!(g.result().unwrap().pdn(), "1-1");

        // The same ending without a third repetition: two kings v one ends it at 10.
        let mut g = Game::new(Variant::Brazilian, parse_fen("W:WKe1,Kg1:BKa7").unwrap());
        let moves = [
            "g1-h2", "a7-b8", "e1-f2", "b8-a7", "h2-g1", "a7-b8", "f2-e1", "b8-a7", "g1-h2",
            "a7-b8",
        ];
        for m in moves {
            assert_eq!(g.result(), None, "before {m}");
            play(&mut g, m);
        }
        assert_eq!(
            g.result(),
            Some(GameResult {
                winner: None,
                reason: EndReason::TwoVsKing,
            })
        );
    }
}
