//! Legal move generation: men step forward and capture both ways, kings fly,
//! captures are compulsory, jumped pieces stay on the board until the move ends
//! (Turkish strike). The Brazilian rules add the majority rule and crown only at the
//! end; the Russian ones crown during a capture.
//!
//! The capture rules that differ between variants come from a [`Rules`] type: the
//! generic functions (`*_with::<R>`) are monomorphised per variant, the others take
//! a [`Variant`] and dispatch once (see `docs/variants.md`). No function assumes a
//! variant.
//!
//! The generator works on a [`Board`], the working form of a position in the ghost-square
//! layout of [`Padded`], where every diagonal step is one shift; the functions on a
//! [`Position`] convert it once and write [`Move`](crate::Move)s, while the capture trees
//! of the search and the databases and perft ([`crate::perft`]) stay on boards throughout
//! ([`Board::captures_with`], [`Board::play`]). Generation order (canonical, stored move
//! indices rely on it): quiet men by direction (NE, NW for White; SE, SW for Black) then by
//! end square; quiet kings by start square, direction (NE, NW, SE, SW), distance; captures
//! by start square, then depth-first in direction order, a longer capture clearing the
//! shorter ones found before it.

use crate::bitboard::Dir;
use crate::moves::MoveList;
use crate::position::{Color, Position};
use crate::variant::{Rules, Variant};

mod board;
mod capturer;
mod chains;
mod padded;

pub(crate) use board::{Black, MoveSink, Side, White};
pub use board::{Board, BoardMove, BoardMoves};
pub use padded::Padded;
pub(crate) use padded::RAYS;

pub use capturer::generate_captures_with;
pub(crate) use capturer::padded_generate_captures;
use chains::count_man_chains;

/// Squares from which a king in `kings` reaches, sliding over `empty`, the first
/// piece in direction `dir`: returns the set of those first pieces.
#[inline(always)]
fn ray_blockers(kings: Padded, empty: Padded, dir: Dir) -> Padded {
    // An occluded fill: three doubling steps cover the longest ray (seven squares)
    // for every king at once, with no loop that ends on a data-dependent branch.
    let shift = |x: u64, n: u32| match dir {
        Dir::NE => x << (5 * n),
        Dir::NW => x << (4 * n),
        Dir::SE => x >> (4 * n),
        Dir::SW => x >> (5 * n),
    };
    let (mut reach, mut open) = (kings.0, empty.0);
    reach |= open & shift(reach, 1);
    open &= shift(open, 1);
    reach |= open & shift(reach, 2);
    open &= shift(open, 2);
    reach |= open & shift(reach, 4);
    Padded(reach).step(dir) & !empty
}

/// Whether one of `kings` can capture a piece of `opp`.
#[inline(always)]
fn king_can_capture(kings: Padded, opp: Padded, empty: Padded) -> bool {
    let hit = |d: Dir| (ray_blockers(kings, empty, d) & opp).step(d) & empty;
    (hit(Dir::NE) | hit(Dir::NW) | hit(Dir::SE) | hit(Dir::SW)).any()
}

/// Whether the side to move has any legal move, without generating them. The same
/// under every rules: they differ in which captures are legal, not in whether one is.
#[inline]
pub fn has_legal_move(pos: &Position) -> bool {
    let board = Board::from(pos);
    board.has_quiet_move() || board.has_capture()
}

/// Whether the side to move has a capture.
#[inline]
pub fn has_capture(pos: &Position) -> bool {
    Board::from(pos).has_capture()
}

/// The generator's tests and capture lists on a [`Board`].
impl Board {
    /// Whether the side to move has a capture ([`has_capture`] of the position).
    #[inline]
    pub fn has_capture(&self) -> bool {
        let opp = self.opp;
        let empty = self.empty();
        let men = self.own_men();
        for dir in Dir::ALL {
            if (((men.step(dir) & opp).step(dir)) & empty).any() {
                return true;
            }
        }
        let kings = self.own_kings();
        kings.any() && king_can_capture(kings, opp, empty)
    }

    /// Whether the opponent would have a capture were it to move: a threat the side
    /// to move has to meet, which a static evaluation of the position cannot see.
    #[inline]
    pub fn threatened(&self) -> bool {
        Board {
            own: self.opp,
            opp: self.own,
            kings: self.kings,
            side: self.side.opponent(),
        }
        .has_capture()
    }

    /// Fill `list` with the non-capturing moves (cleared first), in generation order;
    /// only legal when [`Board::has_capture`] is false.
    pub fn quiet_moves(&self, list: &mut BoardMoves) {
        padded_generate_quiet(self, list);
    }

    /// Whether the side to move has a non-capturing step (its moves when it has no
    /// capture).
    #[inline(always)]
    pub fn has_quiet_move(&self) -> bool {
        let empty = self.empty();
        let men = self.own_men();
        let [d1, d2] = match self.side {
            Color::White => White::FORWARD,
            Color::Black => Black::FORWARD,
        };
        if ((men.step(d1) | men.step(d2)) & empty).any() {
            return true;
        }
        let kings = self.own_kings();
        kings.any()
            && ((kings.step(Dir::NE)
                | kings.step(Dir::NW)
                | kings.step(Dir::SE)
                | kings.step(Dir::SW))
                & empty)
                .any()
    }

    /// Fill `list` with the legal captures under the rules `R` (cleared first) and say
    /// whether there are any, testing for them with bitboard operations first: the
    /// capture trees of the quiescence search and of the endgame databases' probes,
    /// which need only captures. Always inlined: called at every node of those trees,
    /// and the compiler's own choice varies with the code around it.
    #[inline(always)]
    pub fn captures_with<R: Rules>(&self, list: &mut BoardMoves) -> bool {
        list.clear();
        match classify_captures::<R>(self) {
            Captures::None => return false,
            Captures::Single(_) => single_jumps(self, &mut PushTo(list)),
            Captures::ManChains | Captures::Complex => padded_generate_captures::<R, _>(self, list),
        }
        !list.as_slice().is_empty()
    }
}

/// What the capture test found: nothing, only single man jumps (counted), men's
/// captures some of which go on (no king can capture), or king captures (and
/// anything the fast paths do not cover, which the full generator handles).
enum Captures {
    None,
    Single(u32),
    ManChains,
    Complex,
}

/// Classify the captures of `p` with bitboard operations only. When every capture
/// is a single man jump, all are legal (majority rule) and distinct, so they can be
/// counted without generating them.
#[inline(always)]
fn classify_captures<R: Rules>(p: &Board) -> Captures {
    let opp = p.opp;
    let empty = p.empty();
    let men = p.own_men();
    let jump = |d: Dir| (men.step(d) & opp).step(d) & empty;
    let land = [jump(Dir::NE), jump(Dir::NW), jump(Dir::SE), jump(Dir::SW)];
    let kings = p.own_kings();
    if kings.any() && king_can_capture(kings, opp, empty) {
        return Captures::Complex;
    }
    if (land[0] | land[1] | land[2] | land[3]).is_empty() {
        return Captures::None;
    }
    if R::CROWNS_MID_CAPTURE {
        // A man landing on the far row may go on as a king.
        return Captures::Complex;
    }
    // jumpable[e]: squares from which a man can jump in direction e.
    let from = |e: Dir| (empty.step(e.opposite()) & opp).step(e.opposite());
    let [ne, nw, se, sw] = [from(Dir::NE), from(Dir::NW), from(Dir::SE), from(Dir::SW)];
    // A landing square may go on in any direction but back over the taken piece
    // (where the start square, now empty, lies two steps away).
    let goes_on = (land[0] & (ne | nw | se))
        | (land[1] & (ne | nw | sw))
        | (land[2] & (ne | se | sw))
        | (land[3] & (nw | se | sw));
    if goes_on.any() {
        return Captures::ManChains;
    }
    Captures::Single(land[0].count() + land[1].count() + land[2].count() + land[3].count())
}

/// Number of legal moves under the rules `R`, without building the quiet ones (bulk
/// counting).
#[inline]
pub fn count_moves_with<R: Rules>(pos: &Position) -> usize {
    let p = Board::from(pos);
    match p.side {
        Color::White => count_moves_as::<R, White>(&p),
        Color::Black => count_moves_as::<R, Black>(&p),
    }
}

/// [`count_moves_with`] when the side to move is known to be `S`.
#[inline(always)]
pub(crate) fn count_moves_as<R: Rules, S: Side>(p: &Board) -> usize {
    match classify_captures::<R>(p) {
        Captures::Single(n) => return n as usize,
        // Counting only the longest chains is the majority rule.
        Captures::ManChains if R::MAJORITY => return count_man_chains::<R>(p),
        Captures::ManChains | Captures::Complex => return count_captures::<R>(p),
        Captures::None => {}
    }
    let empty = p.empty();
    let men = p.own_men();
    let [d1, d2] = S::FORWARD;
    let mut n = (men.step(d1) & empty).count() + (men.step(d2) & empty).count();
    let kings = p.own_kings();
    if kings.any() {
        for dir in Dir::ALL {
            // Each king's moves in `dir` are the empty squares up to the first piece;
            // count them ring by ring so kings never need to be visited one by one.
            let mut frontier = kings.step(dir) & empty;
            while frontier.any() {
                n += frontier.count();
                frontier = frontier.step(dir) & empty;
            }
        }
    }
    n as usize
}

/// Number of captures of `p`, by generating them. Kept out of line: its move list
/// is kilobytes of stack, which would otherwise be reserved and probed at every
/// call of [`count_moves_as`], most of which need no list.
#[inline(never)]
pub(super) fn count_captures<R: Rules>(p: &Board) -> usize {
    let mut list = BoardMoves::new();
    padded_generate_captures::<R, _>(p, &mut list);
    list.as_slice().len()
}

/// All legal moves of the side to move (empty when it has lost).
pub fn legal_moves(variant: Variant, pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate(variant, pos, &mut list);
    list
}

/// Fill `list` with the legal moves under the rules of `variant` (cleared first):
/// dispatches once to [`generate_with`].
#[inline]
pub fn generate(variant: Variant, pos: &Position, list: &mut MoveList) {
    crate::with_rules!(variant, R => generate_with::<R>(pos, list));
}

/// [`generate`] under the rules `R`, for callers generic over the variant.
#[inline]
pub fn generate_with<R: Rules>(pos: &Position, list: &mut MoveList) {
    padded_generate::<R, _>(&Board::from(pos), list);
}

/// [`generate_with`] in the padded layout, into any sink.
#[inline]
fn padded_generate<R: Rules, S: MoveSink>(p: &Board, list: &mut S) {
    list.clear();
    match classify_captures::<R>(p) {
        Captures::None => quiet_into(p, list),
        Captures::Single(_) => single_jumps(p, &mut PushTo(list)),
        Captures::ManChains | Captures::Complex => padded_generate_captures::<R, _>(p, list),
    }
}

/// The non-capturing moves into `list`, in generation order: the men's by
/// direction in bulk ([`MoveSink::push_steps`], each direction a constant), then
/// the kings'.
#[inline(always)]
fn quiet_into<S: MoveSink>(p: &Board, list: &mut S) {
    let empty = p.empty();
    let men = p.own_men();
    match p.side {
        Color::White => {
            list.push_steps(men.step(Dir::NE) & empty, Dir::SW);
            list.push_steps(men.step(Dir::NW) & empty, Dir::SE);
        }
        Color::Black => {
            list.push_steps(men.step(Dir::SE) & empty, Dir::NW);
            list.push_steps(men.step(Dir::SW) & empty, Dir::NE);
        }
    }
    quiet_king_moves(p, &mut PushTo(list));
}

/// Call `visit` with every legal move in generation order, the side to move being
/// `S`. Quiet moves and single jumps go straight to `visit` without a list
/// (perft's inner loop).
#[inline(always)]
pub(crate) fn for_each_move_as<R: Rules, S: Side, F: FnMut(&BoardMove)>(p: &Board, mut visit: F) {
    match classify_captures::<R>(p) {
        Captures::None => quiet_moves_as::<S, _>(p, &mut visit),
        Captures::Single(_) => single_jumps(p, &mut visit),
        Captures::ManChains | Captures::Complex => for_each_capture::<R, _>(p, visit),
    }
}

/// [`for_each_move_as`]'s generated captures, out of line for the same reason
/// as [`count_captures`]: perft recurses through the caller, and every frame would
/// carry the list.
#[inline(never)]
fn for_each_capture<R: Rules, F: FnMut(&BoardMove)>(p: &Board, visit: F) {
    let mut list = BoardMoves::new();
    padded_generate_captures::<R, _>(p, &mut list);
    list.as_slice().iter().for_each(visit);
}

/// Where the move emitters ([`quiet_moves_as`], [`single_jumps`]) send each move: a
/// closure, or a list ([`PushTo`]).
trait MoveVisitor {
    /// Called once per move.
    fn visit(&mut self, m: &BoardMove);
}

impl<F: FnMut(&BoardMove)> MoveVisitor for F {
    #[inline(always)]
    fn visit(&mut self, m: &BoardMove) {
        self(m);
    }
}

/// Appends each move to a list.
struct PushTo<'a, L>(&'a mut L);

impl<L: MoveSink> MoveVisitor for PushTo<'_, L> {
    #[inline(always)]
    fn visit(&mut self, m: &BoardMove) {
        self.0.push(m.from, m.to, m.captured, m.crowned);
    }
}

/// The single man jumps, when [`classify_captures`] found that they are all there is.
/// Same order as the full generator (start square, then direction), so a stored
/// move index (endgame database, TT) means the same move whichever path made the list.
#[inline(always)]
fn single_jumps<V: MoveVisitor>(p: &Board, visitor: &mut V) {
    let opp = p.opp;
    let empty = p.empty();
    let men = p.own_men();
    // The men that jump in each direction, so that only they are visited.
    let jumpers = |d: Dir| men & (empty.step(d.opposite()) & opp).step(d.opposite());
    let by_dir = [
        jumpers(Dir::NE),
        jumpers(Dir::NW),
        jumpers(Dir::SE),
        jumpers(Dir::SW),
    ];
    for from in (by_dir[0] | by_dir[1] | by_dir[2] | by_dir[3]).singles() {
        for (d, set) in Dir::ALL.into_iter().zip(by_dir) {
            if (from & set).any() {
                let over = from.step(d);
                visitor.visit(&BoardMove {
                    from,
                    to: over.step(d),
                    captured: over,
                    crowned: false,
                });
            }
        }
    }
}

/// Fill `list` with the non-capturing moves (cleared first); only legal when
/// [`has_capture`] is false.
pub fn generate_quiet(pos: &Position, list: &mut MoveList) {
    padded_generate_quiet(&Board::from(pos), list);
}

/// [`generate_quiet`] in the padded layout.
#[inline(always)]
fn padded_generate_quiet<S: MoveSink>(p: &Board, list: &mut S) {
    list.clear();
    quiet_into(p, list);
}

/// Emit the non-capturing moves in generation order, the side to move being `S`.
#[inline(always)]
fn quiet_moves_as<S: Side, V: MoveVisitor>(p: &Board, visitor: &mut V) {
    let empty = p.empty();
    let men = p.own_men();
    for dir in S::FORWARD {
        let back = dir.opposite();
        for to in (men.step(dir) & empty).singles() {
            visitor.visit(&BoardMove {
                from: to.step(back),
                to,
                captured: Padded::EMPTY,
                crowned: false,
            });
        }
    }
    quiet_king_moves(p, visitor);
}

/// Emit the kings' non-capturing moves in generation order.
#[inline(always)]
fn quiet_king_moves<V: MoveVisitor>(p: &Board, visitor: &mut V) {
    let empty = p.empty();
    for from in p.own_kings().singles() {
        for dir in Dir::ALL {
            let mut to = from.step(dir) & empty;
            while to.any() {
                visitor.visit(&BoardMove {
                    from,
                    to,
                    captured: Padded::EMPTY,
                    crowned: false,
                });
                to = to.step(dir) & empty;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Brazilian;

    #[test]
    fn has_legal_move_agrees_with_the_generator_of_every_rules() {
        for fen in [
            "W:Wa1:Bb2,c3",
            "B:Wa1:Bb2,c3",
            "W:WKa1:Bb2,c3",
            "W:Wa1,c1:Bb2",
            "B:Wa1,c1:Bb2",
            "B:WKh8:Bg7",
            "W:W:Bb2",
        ] {
            let p = crate::fen::parse_fen(fen).unwrap();
            for v in Variant::ALL {
                assert_eq!(
                    has_legal_move(&p),
                    !legal_moves(v, &p).is_empty(),
                    "{fen} {v}"
                );
            }
        }
        assert!(has_legal_move(&Position::start()));
    }
    use crate::fen::parse_fen;

    fn moves(fen: &str) -> Vec<String> {
        let mut v: Vec<String> = legal_moves(Variant::Brazilian, &parse_fen(fen).unwrap())
            .iter()
            .map(|m| format!("{m:?}"))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_threat_is_the_opponents_capture_and_quiet_moves_are_the_steps() {
        // White to move, no capture (f6 blocks d4xf6); Black's e5 could take d4.
        let b = Board::from(&parse_fen("W:Wd4,a1:Be5,f6").unwrap());
        assert!(!b.has_capture() && b.threatened());
        let mut list = BoardMoves::new();
        b.quiet_moves(&mut list);
        let mut got: Vec<String> = list
            .as_slice()
            .iter()
            .map(|m| format!("{:?}", m.to_move()))
            .collect();
        got.sort();
        assert_eq!(got, moves("W:Wd4,a1:Be5,f6"));
        assert!(!Board::from(&Position::start()).threatened());
    }

    #[test]
    fn start_moves() {
        let p = Position::start();
        assert_eq!(legal_moves(Variant::Brazilian, &p).len(), 7);
        assert_eq!(count_moves_with::<Brazilian>(&p), 7);
        assert!(!has_capture(&p));
    }

    #[test]
    fn men_capture_backwards() {
        assert_eq!(moves("W:Wd4:Bc3"), ["d4xb2:c3"]);
    }

    /// Rules with free choice of capture, to exercise the generator's other branch
    /// before a variant of that kind exists.
    #[derive(Clone, Copy, Default)]
    struct FreeChoice;

    impl Rules for FreeChoice {
        const VARIANT: Variant = Variant::Brazilian;
        const MAJORITY: bool = false;
        const CROWNS_MID_CAPTURE: bool = false;
    }

    #[test]
    fn capture_selection_follows_the_rules() {
        // c3 takes two (d4, f6), a5 takes one (b6).
        let p = parse_fen("W:Wc3,a5:Bd4,f6,b6").unwrap();
        let mut list = MoveList::new();
        generate(Variant::Brazilian, &p, &mut list);
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].captured().count(), 2);
        generate_with::<FreeChoice>(&p, &mut list);
        assert_eq!(list.len(), 2);
        assert_eq!(count_moves_with::<FreeChoice>(&p), 2);
        assert_eq!(count_moves_with::<Brazilian>(&p), 1);
    }

    #[test]
    fn king_flies() {
        assert_eq!(moves("W:WKa1:Bh8").len(), 6);
        assert_eq!(moves("W:WKa1:Bd4,h8"), ["a1xe5:d4", "a1xf6:d4", "a1xg7:d4"]);
    }
}
