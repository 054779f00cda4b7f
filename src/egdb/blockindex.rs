//! Where each block's codes start, in a form small enough to stay in the cache.
//!
//! A slice file stores one 32-bit offset per block of positions
//! ([`crate::egdb::compact`]): for the six-piece slices that is 9.5 MB, which a
//! probe into 99 MB of codes evicts from the cache, so a probe paid two dependent
//! memory reads (the offset, then the codes). Built once per file when it is first
//! used, this index packs 60 blocks into one 64-byte line — the first block's offset
//! and each block's length less one (a block's codes take 1 to 256 bytes:
//! [`crate::egdb::codec`] spends at most one byte per four positions) — about one
//! byte per block, so the whole index of the six-piece slices (2.5 MB) mostly stays
//! in the cache and a probe's only read from memory is the codes.

/// Blocks per line.
const PER_LINE: usize = 60;

/// One cache line: the offset of its first block's codes (little-endian, bytes
/// 0–3), then the lengths less one of up to [`PER_LINE`] blocks.
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
    /// [`crate::egdb::compact::write_slice_file`] has.
    pub fn new(offsets: impl ExactSizeIterator<Item = u32>) -> Option<BlockIndex> {
        let blocks = offsets.len().checked_sub(1)?;
        let mut lines = vec![Line([0; 64]); blocks.div_ceil(PER_LINE)];
        let mut offsets = offsets.peekable();
        for b in 0..blocks {
            let start = offsets.next()?;
            let end = *offsets.peek()?;
            let len = end.checked_sub(start).filter(|l| (1..=256).contains(l))?;
            let line = &mut lines[b / PER_LINE].0;
            if b % PER_LINE == 0 {
                line[..4].copy_from_slice(&start.to_le_bytes());
            }
            line[4 + b % PER_LINE] = (len - 1) as u8;
        }
        Some(BlockIndex { lines, blocks })
    }

    /// The number of blocks.
    pub fn blocks(&self) -> usize {
        self.blocks
    }

    /// Bytes of memory the index takes.
    pub fn memory(&self) -> usize {
        self.lines.len() * std::mem::size_of::<Line>()
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
        let word = |w: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&line[8 * w..8 * w + 8]);
            u64::from_le_bytes(b)
        };
        // The lengths of blocks 0..k are bytes 4..end: summed eight at a time in
        // 16-bit lanes (at most 8 × 2 × 255 per lane, 60 × 255 in all).
        const LOW_BYTES: u64 = 0x00FF_00FF_00FF_00FF;
        let end = 4 + k;
        let mut lanes = 0u64;
        for w in 0..end.div_ceil(8) {
            let mut x = word(w);
            if w == 0 {
                x &= !0xFFFF_FFFF;
            }
            let used = end - 8 * w;
            if used < 8 {
                x &= (1u64 << (8 * used)) - 1;
            }
            lanes += (x & LOW_BYTES) + ((x >> 8) & LOW_BYTES);
        }
        let before = (lanes.wrapping_mul(0x0001_0001_0001_0001) >> 48) as usize;
        let base = u32::from_le_bytes([line[0], line[1], line[2], line[3]]) as usize;
        Some((base + before + k, usize::from(line[end]) + 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_located_where_the_offsets_say() {
        let mut x = 99u32;
        let mut rnd = move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        for blocks in [0usize, 1, 59, 60, 61, 119, 120, 1000] {
            // Lengths of every size, with runs of the extremes 1 and 256.
            let lens: Vec<u32> = (0..blocks)
                .map(|b| match b % 7 {
                    0 => 256,
                    1 => 1,
                    _ => 1 + rnd() % 256,
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
        assert!(BlockIndex::new([5u32, 3].into_iter()).is_none(), "backwards");
        assert!(BlockIndex::new(std::iter::empty::<u32>()).is_none());
        assert!(BlockIndex::new([0u32, 256].into_iter()).is_some());
    }
}
