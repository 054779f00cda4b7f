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
        let before = lengths_before(line, 4 + k);
        let base = u32::from_le_bytes([line[0], line[1], line[2], line[3]]) as usize;
        Some((base + before + k, usize::from(line[4 + k]) + 1))
    }
}

/// The sum of bytes `4..end` of `line` (`end` ≤ 64), without branches: SSE2's sum
/// of absolute differences adds eight bytes at once.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn lengths_before(line: &[u8; 64], end: usize) -> usize {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of x86-64; the four unaligned loads stay inside `line`.
    unsafe {
        let limit = _mm_set1_epi8(end as i8);
        let zero = _mm_setzero_si128();
        let mut sums = zero;
        for part in 0..4 {
            let bytes = _mm_loadu_si128(line.as_ptr().add(16 * part).cast());
            let first = 16 * part as i8;
            let at = _mm_add_epi8(
                _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                _mm_set1_epi8(first),
            );
            // Bytes below `end`, and not the base offset's four.
            let keep = _mm_andnot_si128(
                _mm_cmplt_epi8(at, _mm_set1_epi8(4)),
                _mm_cmplt_epi8(at, limit),
            );
            sums = _mm_add_epi64(sums, _mm_sad_epu8(_mm_and_si128(bytes, keep), zero));
        }
        let high = _mm_unpackhi_epi64(sums, sums);
        _mm_cvtsi128_si64(_mm_add_epi64(sums, high)) as usize
    }
}

/// [`lengths_before`] elsewhere: eight bytes at a time in 16-bit lanes (at most
/// 8 × 2 × 255 per lane, 60 × 255 in all).
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn lengths_before(line: &[u8; 64], end: usize) -> usize {
    lengths_before_portably(line, end)
}

/// The portable sum behind [`lengths_before`] (kept apart to be tested everywhere).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn lengths_before_portably(line: &[u8; 64], end: usize) -> usize {
    const LOW_BYTES: u64 = 0x00FF_00FF_00FF_00FF;
    let mut lanes = 0u64;
    for w in 0..end.div_ceil(8) {
        let mut b = [0u8; 8];
        b.copy_from_slice(&line[8 * w..8 * w + 8]);
        let mut x = u64::from_le_bytes(b);
        if w == 0 {
            x &= !0xFFFF_FFFF;
        }
        let used = end - 8 * w;
        if used < 8 {
            x &= (1u64 << (8 * used)) - 1;
        }
        lanes += (x & LOW_BYTES) + ((x >> 8) & LOW_BYTES);
    }
    (lanes.wrapping_mul(0x0001_0001_0001_0001) >> 48) as usize
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
    fn both_sums_of_lengths_agree_with_a_plain_sum() {
        let mut line = [0u8; 64];
        for (i, b) in line.iter_mut().enumerate() {
            *b = (i as u8).wrapping_mul(97).wrapping_add(200);
        }
        for fill in [line, [255; 64], [0; 64]] {
            for end in 4..64 {
                let plain: usize = fill[4..end].iter().map(|&b| usize::from(b)).sum();
                assert_eq!(lengths_before(&fill, end), plain, "end {end}");
                assert_eq!(lengths_before_portably(&fill, end), plain, "end {end}");
            }
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
