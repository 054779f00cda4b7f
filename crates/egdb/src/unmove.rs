//! Un-moves for the retrograde build: the quiet moves that could have led to a
//! position. Captures never need un-doing because every capture leaves a smaller part,
//! which is already solved when the current part is built. Quiet moves are the same
//! in every rule variant, so un-moves are too.

use damas_rules::bitboard::{Bitboard, Dir, NEIGHBOR, NO_SQUARE};

const SE: usize = Dir::SE as usize;
const SW: usize = Dir::SW as usize;

/// Calls `f(white, black, kings)` for every placement from which White, with a quiet
/// move, reaches the placement `(white, black, kings)` (Black to move). A white king
/// may have slid there, or, on rank 8, been a man that just promoted; a white man
/// stepped forward from one of the squares behind it.
///
/// Predecessors where White had a capture are produced too (the move would then
/// have been illegal); the builder never needs to skip them because such positions
/// are solved before the un-moves run.
#[inline]
pub fn for_each_unmove(white: u32, black: u32, kings: u32, mut f: impl FnMut(u32, u32, u32)) {
    let empty = !(white | black);
    let mut rest = white;
    while rest != 0 {
        let s = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let sb = 1u32 << s;
        if kings & sb != 0 {
            for ray in &NEIGHBOR {
                let mut t = ray[s];
                while t != NO_SQUARE && empty >> t & 1 != 0 {
                    let moved = sb | 1 << t;
                    f(white ^ moved, black, kings ^ moved);
                    t = ray[t as usize];
                }
            }
            if sb & Bitboard::RANK_8.0 != 0 {
                for d in [SE, SW] {
                    let t = NEIGHBOR[d][s];
                    if t != NO_SQUARE && empty >> t & 1 != 0 {
                        f(white ^ sb ^ 1 << t, black, kings & !sb);
                    }
                }
            }
        } else {
            for d in [SE, SW] {
                let t = NEIGHBOR[d][s];
                if t != NO_SQUARE && empty >> t & 1 != 0 {
                    f(white ^ sb ^ 1 << t, black, kings);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parts::index::{is_valid_slot, part_size, unrank};
    use damas_rules::movegen::{generate_quiet, has_capture, legal_moves};
    use damas_rules::moves::MoveList;
    use damas_rules::position::{Color, Position};
    use damas_rules::Variant;

    /// Every quiet move of every 3-piece position is undone by some un-move, and every
    /// un-move of a successor leads back to a position with that move, under the
    /// rules of every variant.
    #[test]
    fn unmoves_invert_quiet_moves() {
        for v in Variant::ALL {
            unmoves_invert_quiet_moves_of(v);
        }
    }

    fn unmoves_invert_quiet_moves_of(variant: Variant) {
        let mut list = MoveList::new();
        for index in (0..part_size(3)).step_by(7) {
            if !is_valid_slot(3, index) {
                continue;
            }
            let p = unrank(3, index).unwrap();
            if has_capture(&p) {
                continue;
            }
            generate_quiet(&p, &mut list);
            for &m in list.iter() {
                let r = p.play(m);
                let mut found = false;
                for_each_unmove(r.white().0, r.black().0, r.kings().0, |w, b, k| {
                    let pred = Position::from_parts_unchecked(
                        Bitboard(w),
                        Bitboard(b),
                        Bitboard(k),
                        Color::White,
                    );
                    found |= pred == p;
                    if !has_capture(&pred) {
                        assert!(
                            legal_moves(variant, &pred)
                                .iter()
                                .any(|&m2| pred.play(m2) == r),
                            "{pred:?} -> {r:?}"
                        );
                    }
                });
                assert!(found, "{p:?} {m:?}");
            }
        }
    }
}
