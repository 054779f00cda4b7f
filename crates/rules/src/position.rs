//! The position: three 32-bit masks (white, black, kings) and the side to move.

use std::fmt;

use thiserror::Error;

use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::square::Square;

/// A side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    /// Moves first, starts on ranks 1–3, promotes on rank 8.
    White,
    /// Starts on ranks 6–8, promotes on rank 1.
    Black,
}

impl Color {
    /// The other side.
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The row on which this side's men become kings.
    pub const fn promotion_row(self) -> Bitboard {
        match self {
            Color::White => Bitboard::RANK_8,
            Color::Black => Bitboard::RANK_1,
        }
    }

    /// `W` or `B`.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }
}

/// A man or a king.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Kind {
    /// Steps forward, captures both ways, one square at a time.
    Man,
    /// Flies along diagonals.
    King,
}

/// A piece: colour and kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Owner.
    pub color: Color,
    /// Man or king.
    pub kind: Kind,
}

/// Why a set of masks is not a valid position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// A square holds both a white and a black piece.
    #[error("square {0} is given to both sides")]
    BothSides(Square),
    /// A king flag on an empty square.
    #[error("square {0} is marked as a king but is empty")]
    KingOnEmpty(Square),
    /// A man on the row where it would already have been promoted.
    #[error("{color:?} man on its promotion row at {square}")]
    ManOnPromotionRow {
        /// Colour of the man.
        color: Color,
        /// Where it stands.
        square: Square,
    },
    /// More than 12 pieces for one side.
    #[error("{color:?} has {count} pieces (at most 12)")]
    TooManyPieces {
        /// The side.
        color: Color,
        /// How many it has.
        count: u32,
    },
}

/// A position: who stands where and who moves.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    white: Bitboard,
    black: Bitboard,
    kings: Bitboard,
    side: Color,
}

impl Position {
    /// The start position, White to move.
    pub const fn start() -> Position {
        Position {
            white: Bitboard(0x0000_0FFF),
            black: Bitboard(0xFFF0_0000),
            kings: Bitboard(0),
            side: Color::White,
        }
    }

    /// A position from its masks, checked: disjoint sides, kings on occupied squares,
    /// no man on its promotion row, at most 12 pieces a side.
    pub fn from_parts(
        white: Bitboard,
        black: Bitboard,
        kings: Bitboard,
        side: Color,
    ) -> Result<Position, PositionError> {
        if let Some(s) = (white & black).first() {
            return Err(PositionError::BothSides(s));
        }
        if let Some(s) = (kings & !(white | black)).first() {
            return Err(PositionError::KingOnEmpty(s));
        }
        for color in [Color::White, Color::Black] {
            let own = if color == Color::White { white } else { black };
            if let Some(s) = (own & !kings & color.promotion_row()).first() {
                return Err(PositionError::ManOnPromotionRow { color, square: s });
            }
            if own.count() > 12 {
                return Err(PositionError::TooManyPieces {
                    color,
                    count: own.count(),
                });
            }
        }
        Ok(Position {
            white,
            black,
            kings,
            side,
        })
    }

    /// A position from its masks without checks; for generators that know the masks
    /// are valid (the endgame database, tests).
    pub const fn from_parts_unchecked(
        white: Bitboard,
        black: Bitboard,
        kings: Bitboard,
        side: Color,
    ) -> Position {
        Position {
            white,
            black,
            kings,
            side,
        }
    }

    /// White's pieces.
    pub const fn white(&self) -> Bitboard {
        self.white
    }

    /// Black's pieces.
    pub const fn black(&self) -> Bitboard {
        self.black
    }

    /// All kings.
    pub const fn kings(&self) -> Bitboard {
        self.kings
    }

    /// Side to move.
    pub const fn side_to_move(&self) -> Color {
        self.side
    }

    /// The same placement with `side` to move.
    pub const fn with_side(self, side: Color) -> Position {
        Position { side, ..self }
    }

    /// Pieces of `color`.
    pub const fn pieces(&self, color: Color) -> Bitboard {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// Men of `color`.
    pub const fn men(&self, color: Color) -> Bitboard {
        Bitboard(self.pieces(color).0 & !self.kings.0)
    }

    /// Kings of `color`.
    pub const fn kings_of(&self, color: Color) -> Bitboard {
        Bitboard(self.pieces(color).0 & self.kings.0)
    }

    /// The side to move's pieces.
    pub const fn own(&self) -> Bitboard {
        self.pieces(self.side)
    }

    /// The opponent's pieces.
    pub const fn opp(&self) -> Bitboard {
        self.pieces(self.side.opponent())
    }

    /// Occupied squares.
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.white.0 | self.black.0)
    }

    /// Empty squares.
    pub const fn empty(&self) -> Bitboard {
        Bitboard(!(self.white.0 | self.black.0))
    }

    /// Number of pieces on the board.
    pub const fn piece_count(&self) -> u32 {
        self.occupied().count()
    }

    /// The piece on `sq`, if any.
    pub const fn piece_at(&self, sq: Square) -> Option<Piece> {
        let kind = if self.kings.contains(sq) {
            Kind::King
        } else {
            Kind::Man
        };
        if self.white.contains(sq) {
            Some(Piece {
                color: Color::White,
                kind,
            })
        } else if self.black.contains(sq) {
            Some(Piece {
                color: Color::Black,
                kind,
            })
        } else {
            None
        }
    }

    /// The position after `mv` (which must be legal here): the piece moves, captured
    /// pieces vanish, a man ending on its promotion row (or crowned on the way,
    /// [`Move::crowned`]) becomes a king, the turn passes.
    #[inline(always)]
    pub fn play(&self, mv: Move) -> Position {
        let from = Bitboard::square(mv.from()).0;
        let to = Bitboard::square(mv.to()).0;
        let cap = mv.captured().0;
        let travel = from ^ to;
        let mut p = *self;
        let moved_king = p.kings.0 & from != 0;
        match self.side {
            Color::White => {
                p.white.0 ^= travel;
                p.black.0 &= !cap;
            }
            Color::Black => {
                p.black.0 ^= travel;
                p.white.0 &= !cap;
            }
        }
        p.kings.0 &= !cap;
        if moved_king {
            p.kings.0 ^= travel;
        } else {
            let crowned = if mv.crowned() { !0 } else { 0 };
            p.kings.0 |= to & (self.side.promotion_row().0 | crowned);
        }
        p.side = self.side.opponent();
        p
    }

    /// The position turned by 180° with the colours swapped: the same game seen by
    /// the other side (the side to move's colour flips too).
    pub const fn flip(&self) -> Position {
        Position {
            white: self.black.rotate(),
            black: self.white.rotate(),
            kings: self.kings.rotate(),
            side: self.side.opponent(),
        }
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

impl fmt::Display for Position {
    /// A text diagram, rank 8 on top: `w`/`b` men, `W`/`B` kings, `.` empty dark squares.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..8u8).rev() {
            write!(f, "{} ", row + 1)?;
            for file in 0..8u8 {
                let c = match Square::from_coords(file, row) {
                    None => ' ',
                    Some(s) => match self.piece_at(s) {
                        None => '.',
                        Some(Piece {
                            color: Color::White,
                            kind: Kind::Man,
                        }) => 'w',
                        Some(Piece {
                            color: Color::White,
                            kind: Kind::King,
                        }) => 'W',
                        Some(Piece {
                            color: Color::Black,
                            kind: Kind::Man,
                        }) => 'b',
                        Some(Piece {
                            color: Color::Black,
                            kind: Kind::King,
                        }) => 'B',
                    },
                };
                write!(f, "{c} ")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "  a b c d e f g h")?;
        write!(
            f,
            "{} to move",
            if self.side == Color::White {
                "White"
            } else {
                "Black"
            }
        )
    }
}
