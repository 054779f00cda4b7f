//! The move generator's working form of a position ([`Board`]), for the capture
//! trees of the search and of the endgame databases; [`Position`] is the position.
//!
//! A board keeps its masks in the ghost-square layout of [`Padded`] and from the side
//! to move's view, so the generator steps pieces with one shift each and a capture
//! tree is played and tested without converting layouts.

use std::mem::MaybeUninit;

use super::padded::Padded;
use crate::bitboard::{Bitboard, Dir};
use crate::moves::{Move, MoveList, MAX_MOVES};
use crate::position::{Color, Position};

/// The generator's working form of a position, for capture trees in the search and
/// the databases (and perft); [`Position`] is the position. Made from one with
/// [`Board::from`], turned back with [`Board::to_position`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Board {
    /// The side to move's pieces.
    pub(crate) own: Padded,
    /// The opponent's pieces.
    pub(crate) opp: Padded,
    /// All kings.
    pub(crate) kings: Padded,
    /// Side to move (decides the men's direction and promotion row).
    pub(crate) side: Color,
}

/// Rank 1 (Black's promotion row) in the padded layout.
const RANK_1: Padded = Padded::from_bitboard(Bitboard::RANK_1);
/// Rank 8 (White's promotion row) in the padded layout.
const RANK_8: Padded = Padded::from_bitboard(Bitboard::RANK_8);

impl From<&Position> for Board {
    /// `pos` as a working board.
    #[inline(always)]
    fn from(pos: &Position) -> Board {
        Board {
            own: Padded::from_bitboard(pos.own()),
            opp: Padded::from_bitboard(pos.opp()),
            kings: Padded::from_bitboard(pos.kings()),
            side: pos.side_to_move(),
        }
    }
}

impl Board {
    /// The side to move's pieces.
    #[inline(always)]
    pub const fn own(&self) -> Padded {
        self.own
    }

    /// The opponent's pieces.
    #[inline(always)]
    pub const fn opp(&self) -> Padded {
        self.opp
    }

    /// All kings, both sides'.
    #[inline(always)]
    pub const fn kings(&self) -> Padded {
        self.kings
    }

    /// The side to move.
    #[inline(always)]
    pub const fn side_to_move(&self) -> Color {
        self.side
    }

    /// The same position in the public layout.
    #[inline(always)]
    pub fn to_position(&self) -> Position {
        let (white, black) = match self.side {
            Color::White => (self.own, self.opp),
            Color::Black => (self.opp, self.own),
        };
        Position::from_parts_unchecked(
            white.to_bitboard(),
            black.to_bitboard(),
            self.kings.to_bitboard(),
            self.side,
        )
    }

    /// Empty real squares.
    #[inline(always)]
    pub(crate) const fn empty(&self) -> Padded {
        Padded(Padded::ALL.0 & !(self.own.0 | self.opp.0))
    }

    /// The side to move's men.
    #[inline(always)]
    pub(crate) const fn own_men(&self) -> Padded {
        Padded(self.own.0 & !self.kings.0)
    }

    /// The side to move's kings.
    #[inline(always)]
    pub(crate) const fn own_kings(&self) -> Padded {
        Padded(self.own.0 & self.kings.0)
    }

    /// The position after `mv` (legal here), with the same effects as [`Position::play`].
    #[inline(always)]
    pub fn play(&self, mv: &BoardMove) -> Board {
        match self.side {
            Color::White => self.play_as::<White>(mv),
            Color::Black => self.play_as::<Black>(mv),
        }
    }

    /// [`Board::play`] when the side to move is known to be `S`.
    #[inline(always)]
    pub(crate) fn play_as<S: Side>(&self, mv: &BoardMove) -> Board {
        debug_assert_eq!(self.side, S::COLOR);
        let travel = mv.from ^ mv.to; // empty when a king capture ends where it started
        let promotion = S::PROMOTION;
        let mut kings = self.kings & !mv.captured;
        if (self.kings & mv.from).any() {
            kings ^= travel;
        } else {
            let crowned = Padded(if mv.crowned { !0 } else { 0 });
            kings |= mv.to & (promotion | crowned);
        }
        Board {
            own: self.opp & !mv.captured,
            opp: self.own ^ travel,
            kings,
            side: S::Other::COLOR,
        }
    }
}

/// The side to move as a type: code generic over it (perft's inner loops, the bulk
/// count) has the men's directions and the promotion row as constants instead of
/// choosing them at every node.
pub(crate) trait Side {
    /// The colour.
    const COLOR: Color;
    /// The men's forward directions, in generation order.
    const FORWARD: [Dir; 2];
    /// The row where this side's men promote.
    const PROMOTION: Padded;
    /// The opponent.
    type Other: Side;
}

/// White to move (see [`Side`]).
pub(crate) struct White;
/// Black to move (see [`Side`]).
pub(crate) struct Black;

impl Side for White {
    const COLOR: Color = Color::White;
    const FORWARD: [Dir; 2] = [Dir::NE, Dir::NW];
    const PROMOTION: Padded = RANK_8;
    type Other = Black;
}

impl Side for Black {
    const COLOR: Color = Color::Black;
    const FORWARD: [Dir; 2] = [Dir::SE, Dir::SW];
    const PROMOTION: Padded = RANK_1;
    type Other = White;
}

/// A move of a [`Board`] (played with [`Board::play`]): one-square start and end sets,
/// the captured set, and whether a man was crowned on the way ([`Move::crowned`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BoardMove {
    /// Start square.
    pub(crate) from: Padded,
    /// End square.
    pub(crate) to: Padded,
    /// Captured squares.
    pub(crate) captured: Padded,
    /// Whether the man was crowned during the capture.
    pub(crate) crowned: bool,
}

impl BoardMove {
    /// The same move in the public form.
    #[inline(always)]
    pub fn to_move(&self) -> Move {
        move_of(self.from, self.to, self.captured, self.crowned)
    }
}

/// The public [`Move`] of a board move's parts.
#[inline(always)]
fn move_of(from: Padded, to: Padded, captured: Padded, crowned: bool) -> Move {
    let (from, to, captured) = (from.square(), to.square(), captured.to_bitboard());
    if crowned {
        Move::new_crowned(from, to, captured)
    } else {
        Move::new(from, to, captured)
    }
}

/// A stack list of [`BoardMove`]s with the capacity of a [`crate::moves::MoveList`].
pub struct BoardMoves {
    moves: [MaybeUninit<BoardMove>; MAX_MOVES],
    len: usize,
}

impl BoardMoves {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> BoardMoves {
        BoardMoves {
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    /// The moves.
    #[inline(always)]
    pub fn as_slice(&self) -> &[BoardMove] {
        // SAFETY: the first `len` elements were written by `push`; the type is plain data.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<BoardMove>(), self.len) }
    }
}

impl Default for BoardMoves {
    fn default() -> Self {
        BoardMoves::new()
    }
}

/// Where the generator writes moves: a public [`crate::moves::MoveList`] or a
/// [`BoardMoves`] for perft.
pub(crate) trait MoveSink {
    /// Remove every move.
    fn clear(&mut self);
    /// Append a move (`crowned`: a man crowned during its capture).
    fn push(&mut self, from: Padded, to: Padded, captured: Padded, crowned: bool);
    /// Whether this capture is already listed (two paths, one move).
    fn contains(&self, from: Padded, to: Padded, captured: Padded, crowned: bool) -> bool;
    /// Append a quiet step to every square of `to`, in square order, each from the
    /// square one step in `back` (a man's moves in one direction).
    #[inline(always)]
    fn push_steps(&mut self, to: Padded, back: Dir) {
        for t in to.singles() {
            self.push(t.step(back), t, Padded::EMPTY, false);
        }
    }
}

impl MoveSink for BoardMoves {
    #[inline(always)]
    fn clear(&mut self) {
        self.len = 0;
    }

    #[inline(always)]
    fn push(&mut self, from: Padded, to: Padded, captured: Padded, crowned: bool) {
        assert!(self.len < MAX_MOVES, "see crate::moves::MAX_MOVES");
        self.moves[self.len] = MaybeUninit::new(BoardMove {
            from,
            to,
            captured,
            crowned,
        });
        self.len += 1;
    }

    fn contains(&self, from: Padded, to: Padded, captured: Padded, crowned: bool) -> bool {
        self.as_slice().contains(&BoardMove {
            from,
            to,
            captured,
            crowned,
        })
    }
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn clear(&mut self) {
        MoveList::clear(self);
    }

    #[inline(always)]
    fn push(&mut self, from: Padded, to: Padded, captured: Padded, crowned: bool) {
        MoveList::push(self, move_of(from, to, captured, crowned));
    }

    fn contains(&self, from: Padded, to: Padded, captured: Padded, crowned: bool) -> bool {
        let mv = move_of(from, to, captured, crowned);
        <[Move]>::contains(self, &mv)
    }

    #[inline(always)]
    fn push_steps(&mut self, to: Padded, back: Dir) {
        self.extend_from_iter(
            to.singles()
                .map(|t| Move::new(t.stepped_square(back), t.square(), Bitboard::EMPTY)),
        );
    }
}
