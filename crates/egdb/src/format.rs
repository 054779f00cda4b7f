//! What every database file shares, parts and slices alike: the magic, the
//! 64-byte header and the first-generation checksum that old files still carry.

/// First bytes of every database file.
pub const MAGIC: [u8; 8] = *b"DAMASEGB";
/// Size of the header; the body starts here.
pub const HEADER_LEN: usize = 64;

/// The first-generation 64-bit checksum, kept only to read files written with it
/// (part files of version 1, slice files of version 2): four multiply-xor lanes
/// over 8-byte words. Each step is a bijection of the lane state, so any change
/// confined to one word always changes the result.
pub fn legacy_checksum(body: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let step = |h: u64, w: u64| (h.rotate_left(23) ^ w).wrapping_mul(K);
    let mut lanes = [
        0x243F_6A88_85A3_08D3u64,
        0x1319_8A2E_0370_7344,
        0xA409_3822_299F_31D0,
        0x082E_FA98_EC4E_6C89,
    ];
    let mut chunks = body.chunks_exact(32);
    for c in &mut chunks {
        for (l, lane) in lanes.iter_mut().enumerate() {
            let mut w = [0u8; 8];
            w.copy_from_slice(&c[8 * l..8 * l + 8]);
            *lane = step(*lane, u64::from_le_bytes(w));
        }
    }
    let mut h = step(0, body.len() as u64);
    for lane in lanes {
        h = step(h, lane);
    }
    for &b in chunks.remainder() {
        h = step(h, u64::from(b));
    }
    h ^ h >> 29
}
