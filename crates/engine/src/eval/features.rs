//! The features of the trained evaluation, shared by the evaluator and the trainer so
//! that both see exactly the same model.
//!
//! A position is seen twice, once by each side as a [`View`] with its own men moving
//! up the board (Black's view is the board turned by 180°). Each view yields integer
//! counts of features ([`visit`]); the evaluation is the weighted sum over White's view
//! minus the same sum over Black's view, so a position and its colour-flipped mirror
//! always score the same for the side to move.
//!
//! Every feature has an opening and an endgame weight, blended by [`phase`] (the
//! number of pieces on the board), which keeps the model linear in its weights.

use damas_rules::bitboard::Bitboard;
use damas_rules::position::{Color, Position};

/// One side's view of a position: its pieces, moving towards row 7.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct View {
    /// Own men.
    pub men: u32,
    /// Own kings.
    pub kings: u32,
    /// Opponent's men.
    pub opp_men: u32,
    /// Opponent's kings.
    pub opp_kings: u32,
    /// Whether this side is to move.
    pub to_move: bool,
}

impl View {
    /// The view of `color` (Black's is turned by 180°).
    #[inline(always)]
    pub fn of(pos: &Position, color: Color) -> View {
        let m = |c: Color| pos.men(c).0;
        let k = |c: Color| pos.kings_of(c).0;
        let opp = color.opponent();
        let v = View {
            men: m(color),
            kings: k(color),
            opp_men: m(opp),
            opp_kings: k(opp),
            to_move: pos.side_to_move() == color,
        };
        match color {
            Color::White => v,
            Color::Black => View {
                men: v.men.reverse_bits(),
                kings: v.kings.reverse_bits(),
                opp_men: v.opp_men.reverse_bits(),
                opp_kings: v.opp_kings.reverse_bits(),
                to_move: v.to_move,
            },
        }
    }
}

/// A group of features, switchable in training (for the ablation study).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Group {
    /// Men and kings counted.
    Material,
    /// The side to move.
    Tempo,
    /// A man on each square.
    MenSquares,
    /// A king on each square.
    KingSquares,
    /// The men on each pair of adjacent rows, read in base 3.
    Patterns,
    /// Forward steps of the men to empty squares.
    Mobility,
    /// Men with no opponent piece in their way to the promotion row, and kings
    /// against none.
    Runaways,
    /// The men in each 4×4 block of the board, read in base 3.
    Blocks,
}

impl Group {
    /// Every group, in index order.
    pub const ALL: [Group; 8] = [
        Group::Material,
        Group::Tempo,
        Group::MenSquares,
        Group::KingSquares,
        Group::Patterns,
        Group::Mobility,
        Group::Runaways,
        Group::Blocks,
    ];

    /// The name used on the trainer's command line.
    pub const fn name(self) -> &'static str {
        match self {
            Group::Material => "material",
            Group::Tempo => "tempo",
            Group::MenSquares => "men-squares",
            Group::KingSquares => "king-squares",
            Group::Patterns => "patterns",
            Group::Mobility => "mobility",
            Group::Runaways => "runaways",
            Group::Blocks => "blocks",
        }
    }

    /// The group with this name.
    pub fn from_name(s: &str) -> Option<Group> {
        Group::ALL.into_iter().find(|g| g.name() == s)
    }

    /// The feature indices of the group.
    pub const fn range(self) -> std::ops::Range<usize> {
        match self {
            Group::Material => MATERIAL..TEMPO,
            Group::Tempo => TEMPO..MEN_SQUARES,
            Group::MenSquares => MEN_SQUARES..KING_SQUARES,
            Group::KingSquares => KING_SQUARES..PATTERNS,
            Group::Patterns => PATTERNS..MOBILITY,
            Group::Mobility => MOBILITY..RUNAWAYS,
            Group::Runaways => RUNAWAYS..BLOCKS,
            Group::Blocks => BLOCKS..COUNT,
        }
    }
}

/// Men count (0) and kings count (1).
pub const MATERIAL: usize = 0;
/// 1 when this side is to move.
pub const TEMPO: usize = 2;
/// 32 squares: a man there.
pub const MEN_SQUARES: usize = 3;
/// 32 squares: a king there.
pub const KING_SQUARES: usize = MEN_SQUARES + 32;
/// Number of two-row windows (rows r and r+1, r = 0..7).
pub const WINDOWS: usize = 7;
/// Entries per window: each of its 8 squares empty (or a king), own man or opponent man.
pub const WINDOW_SIZE: usize = 6561;
/// `WINDOWS` tables of `WINDOW_SIZE` entries.
pub const PATTERNS: usize = KING_SQUARES + 32;
/// Mobility buckets: 0, 1, …, `MOBILITY_MAX` or more forward steps.
pub const MOBILITY_MAX: usize = 12;
/// One indicator per mobility bucket.
pub const MOBILITY: usize = PATTERNS + WINDOWS * WINDOW_SIZE;
/// Runaway men by row 3..=6, opponent without kings (4), then with kings (4); then
/// "own kings, opponent none" (1).
pub const RUNAWAYS: usize = MOBILITY + MOBILITY_MAX + 1;
/// Number of 4×4 blocks: rows 0–3, 2–5 and 4–7, each at files a–d, c–f and e–h.
pub const BLOCK_COUNT: usize = 9;
/// `BLOCK_COUNT` tables of `WINDOW_SIZE` entries (a block holds 8 dark squares),
/// after the 9 runaway features.
pub const BLOCKS: usize = RUNAWAYS + 9;
/// Number of features.
pub const COUNT: usize = BLOCKS + BLOCK_COUNT * WINDOW_SIZE;

/// Largest value of [`phase`].
pub const PHASE_MAX: i32 = 24;

/// How far the game is towards the endgame: 0 with 24 pieces on the board,
/// [`PHASE_MAX`] with none.
#[inline(always)]
pub fn phase(pos: &Position) -> i32 {
    PHASE_MAX - (pos.occupied().count() as i32).min(PHASE_MAX)
}

/// `TRIT[b]`: the 8 bits of `b` read as base-3 digits (bit k ↦ 3^k).
const TRIT: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let mut v = 0u16;
        let mut p = 1u16;
        let mut k = 0;
        while k < 8 {
            if b & (1 << k) != 0 {
                v += p;
            }
            p *= 3;
            k += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// `HALF_TRITS[b]`: for each `q` in 0..3 (16 bits each), the squares `q` and
/// `q + 1` of each of the two rows in byte `b` (rows of 4 squares) read as 4 base-3
/// digits, row by row. Packed so that one lookup serves the three blocks of a row pair.
const HALF_TRITS: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut q = 0;
        while q < 3 {
            let bits = ((b >> q) & 3) | (((b >> (q + 4)) & 3) << 2);
            t[b] |= (TRIT[bits] as u64) << (16 * q);
            q += 1;
        }
        b += 1;
    }
    t
};

/// `CONE[sq]`: the squares a man on `sq` may have to pass on its way to row 7 (the
/// forward cone, both files), for White's direction.
pub(super) const CONE: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut s = 0;
    while s < 32 {
        let (r, f) = ((s / 4) as i32, (2 * (s % 4) + (s / 4) % 2) as i32);
        let mut cone = 0u32;
        let mut q: i32 = 0;
        while q < 32 {
            let (qr, qf) = (q / 4, 2 * (q % 4) + (q / 4) % 2);
            let dr = qr - r;
            let df = if qf > f { qf - f } else { f - qf };
            if dr > 0 && df <= dr {
                cone |= 1 << q;
            }
            q += 1;
        }
        t[s] = cone;
        s += 1;
    }
    t
};

/// `CONE` for Black's direction, on the board as it stands (not turned).
pub(super) const CONE_BLACK: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut s = 0;
    while s < 32 {
        t[s] = CONE[31 - s].reverse_bits();
        s += 1;
    }
    t
};

/// Squares of rows 3 to 6.
pub(super) const RUNAWAY_ROWS: u32 = 0x0FFF_F000;

/// Call `f(index, count)` for every feature of `v` with a non-zero count. The
/// evaluator and the trainer both go through here (the evaluator through the
/// tables `folded` builds from [`visit_men`] and [`visit_kings`]).
#[inline(always)]
pub fn visit(v: &View, mut f: impl FnMut(usize, i32)) {
    visit_men(v, &mut f);
    visit_kings(v, &mut f);
    visit_rest(v, &mut f);
}

/// The men's features: their count, their squares, the two-row patterns and the
/// blocks.
#[inline(always)]
pub fn visit_men(v: &View, mut f: impl FnMut(usize, i32)) {
    let men = v.men.count_ones() as i32;
    if men != 0 {
        f(MATERIAL, men);
    }
    let mut b = v.men;
    while b != 0 {
        f(MEN_SQUARES + b.trailing_zeros() as usize, 1);
        b &= b - 1;
    }
    for w in 0..WINDOWS {
        f(
            PATTERNS + w * WINDOW_SIZE + window_index(v.men, v.opp_men, w),
            1,
        );
    }
    for (b, idx) in block_indices(v.men, v.opp_men).into_iter().enumerate() {
        f(BLOCKS + b * WINDOW_SIZE + idx, 1);
    }
}

/// The index of window `w` (rows `w` and `w + 1`) within its table: each of its
/// 8 squares a base-3 digit, 1 for an own man and 2 for an opponent's man.
#[inline(always)]
pub fn window_index(men: u32, opp_men: u32, w: usize) -> usize {
    let shift = 4 * w;
    TRIT[((men >> shift) & 0xFF) as usize] as usize
        + 2 * TRIT[((opp_men >> shift) & 0xFF) as usize] as usize
}

/// The index of every block within its table (block `b`: rows `2 * (b / 3)` to
/// `2 * (b / 3) + 3`, squares `b % 3` and `b % 3 + 1` of each row): each of its 8
/// squares a base-3 digit, row by row from the lowest, 1 for an own man and 2 for an
/// opponent's man. Turning the board by 180° maps block `b` to block `8 - b` with its
/// digits reversed.
#[inline(always)]
pub fn block_indices(men: u32, opp_men: u32) -> [usize; BLOCK_COUNT] {
    // Each pair of rows `2i, 2i + 1` read for the three `q` at once (lanes of 16 bits,
    // each below 3^4), shared by the blocks above and below it.
    let half = |i: usize| {
        HALF_TRITS[((men >> (8 * i)) & 0xFF) as usize]
            + 2 * HALF_TRITS[((opp_men >> (8 * i)) & 0xFF) as usize]
    };
    let (h0, h1, h2, h3) = (half(0), half(1), half(2), half(3));
    // Each lane stays below 3^8, so lanes never carry into each other.
    let rows = [h0 + 81 * h1, h1 + 81 * h2, h2 + 81 * h3];
    let mut out = [0usize; BLOCK_COUNT];
    for (b, o) in out.iter_mut().enumerate() {
        *o = ((rows[b / 3] >> (16 * (b % 3))) & 0xFFFF) as usize;
    }
    out
}

/// The kings' features: their count and their squares.
#[inline(always)]
pub fn visit_kings(v: &View, mut f: impl FnMut(usize, i32)) {
    let kings = v.kings.count_ones() as i32;
    if kings != 0 {
        f(MATERIAL + 1, kings);
    }
    let mut b = v.kings;
    while b != 0 {
        f(KING_SQUARES + b.trailing_zeros() as usize, 1);
        b &= b - 1;
    }
}

/// The features that depend on more than one kind of piece: tempo, mobility and
/// runaways.
#[inline(always)]
pub fn visit_rest(v: &View, mut f: impl FnMut(usize, i32)) {
    if v.to_move {
        f(TEMPO, 1);
    }
    let empty = !(v.men | v.kings | v.opp_men | v.opp_kings);
    let men_bb = Bitboard(v.men);
    let steps = (men_bb.step(damas_rules::bitboard::Dir::NE).0 & empty).count_ones()
        + (men_bb.step(damas_rules::bitboard::Dir::NW).0 & empty).count_ones();
    f(MOBILITY + (steps as usize).min(MOBILITY_MAX), 1);
    let opp_all = v.opp_men | v.opp_kings;
    let offset = if v.opp_kings == 0 { 0 } else { 4 };
    let mut b = v.men & RUNAWAY_ROWS;
    while b != 0 {
        let s = b.trailing_zeros() as usize;
        if CONE[s] & opp_all == 0 {
            f(RUNAWAYS + offset + s / 4 - 3, 1);
        }
        b &= b - 1;
    }
    if v.kings != 0 && v.opp_kings == 0 {
        f(RUNAWAYS + 8, 1);
    }
}

/// The features of `pos` from White's side: White's counts minus Black's, merged by
/// index and sorted, zeros dropped.
pub fn sparse(pos: &Position) -> Vec<(u32, i32)> {
    let mut out: Vec<(u32, i32)> = Vec::with_capacity(64);
    visit(&View::of(pos, Color::White), |i, c| out.push((i as u32, c)));
    visit(&View::of(pos, Color::Black), |i, c| {
        out.push((i as u32, -c))
    });
    out.sort_unstable_by_key(|e| e.0);
    let mut merged: Vec<(u32, i32)> = Vec::with_capacity(out.len());
    for (i, c) in out {
        match merged.last_mut() {
            Some(last) if last.0 == i => last.1 += c,
            _ => merged.push((i, c)),
        }
    }
    merged.retain(|e| e.1 != 0);
    merged
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas_rules::fen::parse_fen;

    #[test]
    fn groups_cover_every_feature_once() {
        let mut next = 0;
        for g in Group::ALL {
            assert_eq!(g.range().start, next, "{g:?}");
            next = g.range().end;
            assert_eq!(Group::from_name(g.name()), Some(g));
        }
        assert_eq!(next, COUNT);
    }

    #[test]
    fn trits_read_base_three() {
        assert_eq!(TRIT[0], 0);
        assert_eq!(TRIT[1], 1);
        assert_eq!(TRIT[0b101], 10);
        assert_eq!(TRIT[255] as usize * 2, WINDOW_SIZE - 1);
    }

    #[test]
    fn start_position_is_balanced() {
        // Both views are identical at the start except for the side to move.
        assert_eq!(sparse(&Position::start()), vec![(TEMPO as u32, 1)]);
    }

    #[test]
    fn views_of_a_flipped_position_swap() {
        let pos = parse_fen("W:Wa1,c3,Kd4,e5:Bb6,h8,Kg1").unwrap();
        let f = pos.flip();
        assert_eq!(View::of(&pos, Color::White), View::of(&f, Color::Black));
        assert_eq!(View::of(&pos, Color::Black), View::of(&f, Color::White));
        let neg: Vec<(u32, i32)> = sparse(&pos).into_iter().map(|(i, c)| (i, -c)).collect();
        assert_eq!(sparse(&f), neg);
    }

    #[test]
    fn known_features() {
        // White: men a1 (square 0) and e5 (18), runaway on row 4 (no black piece ahead
        // of it, Black without kings), king none. Black: man h8 can't be a White man's
        // blocker for e5's cone? h8 is in e5's cone (row 7, file 7, 3 files right, 3
        // rows up), so e5 is not a runaway; use b6 instead.
        let pos = parse_fen("W:Wa1,b6:Bh8,g7").unwrap();
        let mut got = Vec::new();
        visit(&View::of(&pos, Color::White), |i, c| got.push((i, c)));
        let b6 = damas_rules::square::Square::from_coords(1, 5)
            .unwrap()
            .index();
        assert!(got.contains(&(MATERIAL, 2)));
        assert!(got.contains(&(TEMPO, 1)));
        assert!(got.contains(&(MEN_SQUARES, 1)));
        assert!(got.contains(&(MEN_SQUARES + b6, 1)));
        // b6 is on row 5 with a7, c7, b8?, d8 ahead: no black piece there.
        assert!(got.contains(&(RUNAWAYS + 5 - 3, 1)));
        // a1 steps to b2; b6 steps to a7 and c7: 3 forward steps.
        assert!(got.contains(&(MOBILITY + 3, 1)));
        assert!(!got.iter().any(|&(i, _)| i == RUNAWAYS + 8));
    }
}
