//! Where each block's codes start, in a form small enough to stay in the cache.
//!
//! A slice file stores one 32-bit offset per block of positions
//! ([`crate::slices::compact`]): for the six-piece slices that is 9.5 MB, which a
//! probe into 99 MB of codes evicts from the cache, so a random probe paid two
//! dependent memory reads (the offset, then the codes). Built once per file when it
//! is first used, this index packs 30 blocks into one 64-byte line — the first
//! block's offset and where each block ends relative to it, in 16 bits (a block's
//! codes take 1 to 256 bytes: [`crate::slices::codec`] spends at most one byte per
//! four positions) — about half the bytes, 5 MB for the six-piece slices, so a random
//! probe more often finds its line in the cache. A probe still reads two numbers,
//! as from the file: searches, whose probes are mostly in the cache anyway, pay
//! nothing for it (one byte per block summed over a line would halve the memory
//! again, but costs a search more instructions: docs/egdb.md, "Tried and not adopted").

/// Blocks per line.
const PER_LINE: usize = 30;

/// One cache line: the offset of its first block's codes (little-endian u32,
/// bytes 0–3), then where each of up to [`PER_LINE`] blocks ends, relative to that
/// offset (u16: 30 blocks of at most 256 bytes stay below 7,681).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct Line([u8; 64]);

/// The offsets and lengths of a file's blocks ([`BlockIndex::locate`]).
#[derive(Debug)]
pub struct BlockIndex {
    lines: Vec<Line>,
    blocks: usize,
}

impl BlockIndex {
    /// The index of the blocks whose codes start at `offsets` (`blocks + 1` entries,
    /// the last the end of the codes); `None` when a block's codes are empty, longer
    /// than 256 bytes or out of order, which no file written by
    /// [`crate::slices::compact::write_slice_file`] has.
    pub fn new(offsets: impl ExactSizeIterator<Item = u32>) -> Option<BlockIndex> {
        let blocks = offsets.len().checked_sub(1)?;
        let mut lines = vec![Line([0; 64]); blocks.div_ceil(PER_LINE)];
        let mut offsets = offsets.peekable();
        let mut base = 0;
        for b in 0..blocks {
            let start = offsets.next()?;
            let end = *offsets.peek()?;
            end.checked_sub(start).filter(|l| (1..=256).contains(l))?;
            let line = &mut lines[b / PER_LINE].0;
            let k = b % PER_LINE;
            if k == 0 {
                base = start;
                line[..4].copy_from_slice(&start.to_le_bytes());
            }
            line[4 + 2 * k..6 + 2 * k].copy_from_slice(&((end - base) as u16).to_le_bytes());
        }
        Some(BlockIndex { lines, blocks })
    }

    /// The number of blocks.
    pub fn blocks(&self) -> usize {
        self.blocks
    }

    /// The offset of block `block`'s codes and their length; `None` past the last
    /// block. Reads one line.
    #[inline(always)]
    pub fn locate(&self, block: usize) -> Option<(usize, usize)> {
        if block >= self.blocks {
            return None;
        }
        let line = &self.lines.get(block / PER_LINE)?.0;
        let k = block % PER_LINE;
        let u16_at = |o: usize| usize::from(u16::from_le_bytes([line[o], line[o + 1]]));
        let base = u32::from_le_bytes([line[0], line[1], line[2], line[3]]) as usize;
        let end = u16_at(4 + 2 * k);
        // The first block of a line starts at the base (bytes 2–3 are not an end).
        let start = if k == 0 { 0 } else { u16_at(2 + 2 * k) };
        Some((base + start, end.wrapping_sub(start)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_located_where_the_offsets_say() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(99);
        for blocks in [0usize, 1, 29, 30, 31, 59, 60, 61, 1000] {
            // Lengths of every size, with runs of the extremes 1 and 256.
            let lens: Vec<u32> = (0..blocks)
                .map(|b| match b % 7 {
                    0 => 256,
                    1 => 1,
                    _ => rng.gen_range(1..=256),
                })
                .collect();
            let mut offsets = vec![7u32];
            for l in &lens {
                offsets.push(offsets.last().unwrap() + l);
            }
            let ix = BlockIndex::new(offsets.iter().copied()).unwrap();
            assert_eq!(ix.blocks(), blocks);
            for b in 0..blocks {
                assert_eq!(
                    ix.locate(b),
                    Some((offsets[b] as usize, lens[b] as usize)),
                    "block {b} of {blocks}"
                );
            }
            assert_eq!(ix.locate(blocks), None);
        }
    }

    #[test]
    fn offsets_no_writer_produces_are_refused() {
        assert!(BlockIndex::new([0u32, 0].into_iter()).is_none(), "empty");
        assert!(BlockIndex::new([0u32, 257].into_iter()).is_none(), "long");
        assert!(
            BlockIndex::new([5u32, 3].into_iter()).is_none(),
            "backwards"
        );
        assert!(BlockIndex::new(std::iter::empty::<u32>()).is_none());
        assert!(BlockIndex::new([0u32, 256].into_iter()).is_some());
    }
}
