//! Counting values per part and per material.

use std::collections::BTreeMap;
use std::fmt;

use rayon::prelude::*;

use crate::parts::build::Counts;
use crate::parts::entry::decode_wdl;
use crate::parts::index::{assignments, combinations, SlotBlock};
use crate::probe::Egdb;
use crate::value::Wdl;
use damas_rules::position::Position;

/// A material balance: kings and men of the side to move, then of the opponent.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Material {
    /// Kings of the side to move.
    pub kings: u8,
    /// Men of the side to move.
    pub men: u8,
    /// Kings of the opponent.
    pub opp_kings: u8,
    /// Men of the opponent.
    pub opp_men: u8,
}

impl Material {
    /// Total pieces.
    pub fn pieces(&self) -> u8 {
        self.kings + self.men + self.opp_kings + self.opp_men
    }
}

fn side(f: &mut fmt::Formatter<'_>, kings: u8, men: u8) -> fmt::Result {
    match (kings, men) {
        (0, 0) => write!(f, "0"),
        (k, 0) => write!(f, "{k}K"),
        (0, m) => write!(f, "{m}M"),
        (k, m) => write!(f, "{k}K+{m}M"),
    }
}

impl fmt::Display for Material {
    /// `2K+1M v 1K`: side to move first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        side(f, self.kings, self.men)?;
        write!(f, " v ")?;
        side(f, self.opp_kings, self.opp_men)
    }
}

/// Statistics of one part.
#[derive(Clone, Debug)]
pub struct PartStats {
    /// Piece count.
    pub pieces: usize,
    /// Whole-part counts.
    pub total: Counts,
    /// Counts per material, in material order.
    pub by_material: BTreeMap<Material, Counts>,
    /// A position with the longest win (side to move wins).
    pub longest_example: Option<Position>,
}

#[derive(Default)]
struct Acc {
    map: BTreeMap<Material, Counts>,
    longest: Option<(u16, usize)>,
}

impl Acc {
    fn merge(mut self, o: Acc) -> Acc {
        for (m, c) in o.map {
            let e = self.map.entry(m).or_default();
            *e = e.add(c);
        }
        if o.longest
            .is_some_and(|(d, i)| self.longest.is_none_or(|(d0, i0)| (d, i0) > (d0, i)))
        {
            self.longest = o.longest;
        }
        self
    }
}

/// Count wins, draws and losses of part `pieces` (`None` when the part is missing).
/// Impossible slots are counted in the whole-part total only.
pub fn part_stats(db: &Egdb, pieces: usize) -> Option<PartStats> {
    let part = db.part(pieces)?;
    let n = pieces;
    let a = assignments(n) as usize;
    let acc = (0..combinations(n))
        .into_par_iter()
        .fold(Acc::default, |mut acc, p| {
            let block = SlotBlock::new(n, p);
            for kw in 0..a {
                let index = p as usize * a + kw;
                let (byte, d) = part.entry(index);
                let mat = if block.is_valid(kw) {
                    let (white, black, kings) = block.placement(kw);
                    Material {
                        kings: (kings & white).count_ones() as u8,
                        men: (!kings & white).count_ones() as u8,
                        opp_kings: (kings & black).count_ones() as u8,
                        opp_men: (!kings & black).count_ones() as u8,
                    }
                } else {
                    Material {
                        kings: u8::MAX,
                        men: 0,
                        opp_kings: 0,
                        opp_men: 0,
                    }
                };
                let c = acc.map.entry(mat).or_default();
                match decode_wdl(byte) {
                    None => c.impossible += 1,
                    Some(Wdl::Draw) => c.draws += 1,
                    Some(Wdl::Loss) => c.losses += 1,
                    Some(Wdl::Win) => {
                        c.wins += 1;
                        let d = d.unwrap_or(0);
                        c.longest_win = c.longest_win.max(d);
                        if acc.longest.is_none_or(|(d0, _)| d > d0) {
                            acc.longest = Some((d, index));
                        }
                    }
                }
            }
            acc
        })
        .reduce(Acc::default, Acc::merge);
    let mut by_material = acc.map;
    let impossible = by_material.remove(&Material {
        kings: u8::MAX,
        men: 0,
        opp_kings: 0,
        opp_men: 0,
    });
    let total = by_material
        .values()
        .fold(impossible.unwrap_or_default(), |t, c| t.add(*c));
    let longest_example = acc
        .longest
        .map(|(_, i)| SlotBlock::new(n, (i / a) as u64).position_unchecked(i % a));
    Some(PartStats {
        pieces,
        total,
        by_material,
        longest_example,
    })
}
