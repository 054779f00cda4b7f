//! The board widget: 8×8 cells with coordinates, pieces distinct by colour and by
//! glyph (`w`/`b` men, `W`/`B` kings framed), cursor, selection, legal destinations,
//! the last move, a hint, the pieces a capture choice would take and the pieces that
//! must capture (`!w`).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color as Tc, Modifier, Style};
use ratatui::widgets::Widget;

use damas_rules::bitboard::Bitboard;
use damas_rules::position::{Color, Kind, Position};
use damas_rules::square::Square;

/// Where the board was drawn, to map mouse clicks back to squares.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BoardGeometry {
    /// Top-left corner of the a8 cell (h1 when flipped).
    pub x: u16,
    /// Top row of the cells.
    pub y: u16,
    /// Cell width in columns.
    pub cell_w: u16,
    /// Cell height in rows.
    pub cell_h: u16,
    /// Black at the bottom.
    pub flipped: bool,
}

impl BoardGeometry {
    /// The (file, row) under screen position (`col`, `row`), if on the board.
    pub fn square_at(&self, col: u16, row: u16) -> Option<(u8, u8)> {
        if col < self.x || row < self.y {
            return None;
        }
        let i = (col - self.x) / self.cell_w;
        let j = (row - self.y) / self.cell_h;
        if i >= 8 || j >= 8 {
            return None;
        }
        let (i, j) = (i as u8, j as u8);
        Some(if self.flipped { (7 - i, j) } else { (i, 7 - j) })
    }

    /// The top-left screen position of the cell of (file, row).
    pub fn cell_origin(&self, file: u8, row: u8) -> (u16, u16) {
        let (i, j) = if self.flipped {
            (7 - file, row)
        } else {
            (file, 7 - row)
        };
        (
            self.x + i as u16 * self.cell_w,
            self.y + j as u16 * self.cell_h,
        )
    }

    /// Width and height of the whole widget (coordinates included) for a cell size.
    pub fn size_for(cell_w: u16, cell_h: u16) -> (u16, u16) {
        (2 + 8 * cell_w, 8 * cell_h + 1)
    }

    /// The largest cell size whose board fits in `w`×`h`.
    pub fn best_cell(w: u16, h: u16) -> (u16, u16) {
        for (cw, ch) in [(9, 4), (7, 3), (5, 2)] {
            let (bw, bh) = BoardGeometry::size_for(cw, ch);
            if bw <= w && bh <= h {
                return (cw, ch);
            }
        }
        (3, 1)
    }
}

/// What to mark on the board besides the pieces.
#[derive(Clone, Copy, Default, Debug)]
pub struct Marks {
    /// The cursor (file, row).
    pub cursor: Option<(u8, u8)>,
    /// The picked piece.
    pub selected: Option<Square>,
    /// Legal destinations of the picked piece.
    pub destinations: Bitboard,
    /// Start and end of the last move.
    pub last: Bitboard,
    /// Start and end of the hinted move.
    pub hint: Bitboard,
    /// Pieces the capture being chosen would take.
    pub taken: Bitboard,
    /// Pieces that must capture (a capture is forced and none is picked yet).
    pub must_capture: Bitboard,
}

/// The board widget.
pub struct BoardWidget<'a> {
    /// The position shown.
    pub position: &'a Position,
    /// Highlights.
    pub marks: Marks,
    /// Black at the bottom.
    pub flipped: bool,
    /// Cell size.
    pub cell: (u16, u16),
    /// Draw with colours (off for `NO_COLOR`: the glyphs and marks still tell everything).
    pub colour: bool,
}

// 256-colour palette: explicit backgrounds keep the board readable on dark and light themes.
const LIGHT_SQ: Tc = Tc::Indexed(223);
const DARK_SQ: Tc = Tc::Indexed(137);
const LAST_SQ: Tc = Tc::Indexed(143);
const SELECT_SQ: Tc = Tc::Indexed(74);
const DEST_SQ: Tc = Tc::Indexed(71);
const HINT_SQ: Tc = Tc::Indexed(176);
const TAKEN_SQ: Tc = Tc::Indexed(167);
const MUST_SQ: Tc = Tc::Indexed(209);
const CURSOR_SQ: Tc = Tc::Indexed(178);
const WHITE_PIECE: Tc = Tc::Indexed(231);
const BLACK_PIECE: Tc = Tc::Indexed(16);

/// The glyph of a piece: men lower case, kings upper case framed (`w`, `‹W›` style in ASCII).
pub fn piece_text(color: Color, kind: Kind) -> &'static str {
    match (color, kind) {
        (Color::White, Kind::Man) => "w",
        (Color::White, Kind::King) => "<W>",
        (Color::Black, Kind::Man) => "b",
        (Color::Black, Kind::King) => "<B>",
    }
}

impl BoardWidget<'_> {
    /// The geometry this widget uses inside `area`.
    pub fn geometry(&self, area: Rect) -> BoardGeometry {
        BoardGeometry {
            x: area.x + 2,
            y: area.y,
            cell_w: self.cell.0,
            cell_h: self.cell.1,
            flipped: self.flipped,
        }
    }
}

impl Widget for BoardWidget<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let g = self.geometry(area);
        let (w, h) = BoardGeometry::size_for(g.cell_w, g.cell_h);
        if area.width < w || area.height < h {
            buf.set_string(area.x, area.y, "terminal too small", Style::default());
            return;
        }
        let label = Style::default().add_modifier(Modifier::BOLD);
        for row in 0..8u8 {
            for file in 0..8u8 {
                let (cx, cy) = g.cell_origin(file, row);
                self.cell(buf, &g, file, row, cx, cy);
                if (g.flipped && file == 7) || (!g.flipped && file == 0) {
                    buf.set_string(
                        area.x,
                        cy + (g.cell_h - 1) / 2,
                        (row + 1).to_string(),
                        label,
                    );
                }
                let bottom_row = if g.flipped { 7 } else { 0 };
                if row == bottom_row {
                    let letter = ((b'a' + file) as char).to_string();
                    buf.set_string(cx + g.cell_w / 2, g.y + 8 * g.cell_h, letter, label);
                }
            }
        }
    }
}

impl BoardWidget<'_> {
    fn cell(&self, buf: &mut Buffer, g: &BoardGeometry, file: u8, row: u8, cx: u16, cy: u16) {
        let sq = Square::from_coords(file, row);
        let m = &self.marks;
        let on = |b: Bitboard| sq.is_some_and(|s| b.contains(s));
        let cursor = m.cursor == Some((file, row));
        let bg = if sq.is_none() {
            LIGHT_SQ
        } else if sq == m.selected {
            SELECT_SQ
        } else if on(m.taken) {
            TAKEN_SQ
        } else if on(m.must_capture) {
            MUST_SQ
        } else if on(m.destinations) {
            DEST_SQ
        } else if on(m.hint) {
            HINT_SQ
        } else if on(m.last) {
            LAST_SQ
        } else {
            DARK_SQ
        };
        let bg = if cursor { CURSOR_SQ } else { bg };
        let piece = sq.and_then(|s| self.position.piece_at(s));
        let fg = match piece.map(|p| p.color) {
            Some(Color::White) => WHITE_PIECE,
            _ => BLACK_PIECE,
        };
        let mut style = if self.colour {
            Style::default().bg(bg).fg(fg)
        } else {
            Style::default()
        };
        style = style.add_modifier(Modifier::BOLD);
        if sq.is_some() && sq == m.selected {
            style = style.add_modifier(Modifier::UNDERLINED);
        }
        let blank = " ".repeat(g.cell_w as usize);
        for dy in 0..g.cell_h {
            buf.set_string(cx, cy + dy, &blank, style);
        }
        // Marks that also read without colour: a dot on a destination, x on a piece to be taken.
        let glyph = match (piece, sq) {
            (Some(p), _) if on(m.taken) => {
                format!("x{}", piece_text(p.color, p.kind).trim_matches(['<', '>']))
            }
            // Without colour (no highlight) a `!` marks the pieces that must capture.
            (Some(p), _) if on(m.must_capture) && !self.colour => {
                format!("!{}", piece_text(p.color, p.kind).trim_matches(['<', '>']))
            }
            (Some(p), _) => piece_text(p.color, p.kind).to_string(),
            (None, Some(_)) if on(m.destinations) => {
                if self.colour { "·" } else { "*" }.to_string()
            }
            (None, Some(_)) if on(m.hint) => "+".to_string(),
            // Without colour the dark squares are dotted so the diagonals stay visible.
            (None, Some(_)) if !self.colour => ".".to_string(),
            _ => String::new(),
        };
        let mid = cy + (g.cell_h - 1) / 2;
        let len = glyph.chars().count() as u16;
        buf.set_string(cx + (g.cell_w.saturating_sub(len)) / 2, mid, &glyph, style);
        if cursor {
            buf.set_string(cx, mid, "[", style);
            buf.set_string(cx + g.cell_w - 1, mid, "]", style);
        }
    }
}
