//! The byte code of the compact win/draw/loss files: each block of positions is a
//! string of one-byte codes, either four positions in base 3 or a run of one value.
//!
//! Codes `0..81` hold four consecutive values as base-3 digits (the first position
//! is the lowest digit); codes `81..255` are runs: value `(c − 81) / 58` repeated
//! [`RUN_LENGTHS`]`[(c − 81) % 58]` times. Positions whose value does not matter
//! (the side to move must capture: such positions are resolved by a search over
//! the captures at probe time, as in Scan and Kingsrow) take whatever value
//! lengthens the current run. Runs never cross a block boundary, so a position is
//! decoded by scanning its block alone.

/// Stored value codes: the value for the side to move.
pub const LOSS: u8 = 0;
/// See [`LOSS`].
pub const DRAW: u8 = 1;
/// See [`LOSS`].
pub const WIN: u8 = 2;
/// A position whose value is not stored (the side to move must capture).
pub const ANY: u8 = 3;

/// Codes below this are four base-3 digits.
const QUAD_CODES: u8 = 81;
/// Run lengths per value.
const RUN_CLASSES: usize = 58;
/// The shortest run worth a run code (shorter ones cost no more as digits).
const MIN_RUN: usize = 5;

/// The lengths a run code can stand for: 5–20 one by one, then growing by a tenth.
pub const RUN_LENGTHS: [u16; RUN_CLASSES] = {
    let mut t = [0u16; RUN_CLASSES];
    let mut i = 0;
    while i < RUN_CLASSES {
        t[i] = if i < 16 {
            (MIN_RUN + i) as u16
        } else {
            let x = t[i - 1];
            x + if x / 10 > 1 { x / 10 } else { 1 }
        };
        i += 1;
    }
    t
};

/// Positions each code covers.
const ADVANCE: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = if c < QUAD_CODES as usize {
            4
        } else if c < QUAD_CODES as usize + 3 * RUN_CLASSES {
            RUN_LENGTHS[(c - QUAD_CODES as usize) % RUN_CLASSES]
        } else {
            // Unused codes: a corrupt block. Advancing past the block ends the scan.
            u16::MAX
        };
        c += 1;
    }
    t
};

const POW3: [u8; 4] = [1, 3, 9, 27];

/// Append the codes of one block of values (each [`LOSS`], [`DRAW`], [`WIN`] or
/// [`ANY`]) to `out`.
pub fn encode_block(values: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < values.len() {
        // The value of the run starting here: the first one that matters.
        let v = values[i..]
            .iter()
            .copied()
            .find(|&x| x != ANY)
            .unwrap_or(LOSS);
        let run = values[i..]
            .iter()
            .take_while(|&&x| x == v || x == ANY)
            .count();
        if run >= MIN_RUN {
            let class = RUN_LENGTHS
                .iter()
                .rposition(|&l| l as usize <= run)
                .unwrap_or(0);
            out.push(QUAD_CODES + (v as usize * RUN_CLASSES + class) as u8);
            i += RUN_LENGTHS[class] as usize;
        } else {
            let mut code = 0u8;
            for (d, pow) in POW3.iter().enumerate() {
                let x = values.get(i + d).copied().unwrap_or(ANY);
                let x = if x == ANY { v } else { x };
                code += x * pow;
            }
            out.push(code);
            i += 4;
        }
    }
}

/// The value of position `i` of a block given its codes; `None` when the codes end
/// before position `i` or hold an unused code (a corrupt block).
#[inline]
pub fn decode_at(codes: &[u8], i: usize) -> Option<u8> {
    // Skip four codes at a time (one comparison per four: most of a probe's scan),
    // then pick the code within the group of four that covers `i` by comparing
    // with the three inner starts at once, without a branch per code.
    let mut start = 0usize;
    let mut groups = codes.chunks_exact(4);
    for g in groups.by_ref() {
        let s1 = start + ADVANCE[g[0] as usize] as usize;
        let s2 = s1 + ADVANCE[g[1] as usize] as usize;
        let s3 = s2 + ADVANCE[g[2] as usize] as usize;
        let next = s3 + ADVANCE[g[3] as usize] as usize;
        if i < next {
            let k = usize::from(i >= s1) + usize::from(i >= s2) + usize::from(i >= s3);
            return value_of(g[k], i - [start, s1, s2, s3][k]);
        }
        start = next;
    }
    decode_from(groups.remainder(), start, i)
}

/// The value that code `c` gives its `offset`-th position (`offset` below the
/// positions it covers); `None` for an unused code.
#[inline(always)]
fn value_of(c: u8, offset: usize) -> Option<u8> {
    if c < QUAD_CODES {
        Some(c / POW3[offset & 3] % 3)
    } else if ADVANCE[c as usize] == u16::MAX {
        None
    } else {
        Some((c - QUAD_CODES) / RUN_CLASSES as u8)
    }
}

/// [`decode_at`] over `codes` whose first covers the positions from `start` on.
#[inline(always)]
fn decode_from(codes: &[u8], mut start: usize, i: usize) -> Option<u8> {
    for &c in codes {
        let next = start + ADVANCE[c as usize] as usize;
        if i < next {
            return value_of(c, i - start);
        }
        start = next;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(values: &[u8]) -> Vec<u8> {
        let mut codes = Vec::new();
        encode_block(values, &mut codes);
        for (i, &v) in values.iter().enumerate() {
            let got = decode_at(&codes, i).unwrap();
            if v != ANY {
                assert_eq!(got, v, "position {i}");
            }
        }
        codes
    }

    #[test]
    fn blocks_round_trip() {
        let mut x = 12345u32;
        let mut rnd = move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        for len in [1, 3, 4, 5, 17, 1000, 1024] {
            let random: Vec<u8> = (0..len).map(|_| (rnd() % 4) as u8).collect();
            round_trip(&random);
            let runs: Vec<u8> = (0..len)
                .map(|i| {
                    if rnd() % 5 == 0 {
                        ANY
                    } else {
                        (i / 97 % 3) as u8
                    }
                })
                .collect();
            round_trip(&runs);
        }
    }

    #[test]
    fn uniform_blocks_are_short_and_any_joins_runs() {
        let codes = round_trip(&[WIN; 1024]);
        assert!(codes.len() <= 3, "{codes:?}");
        let mut v = vec![DRAW; 1024];
        for i in (0..1024).step_by(3) {
            v[i] = ANY;
        }
        assert!(round_trip(&v).len() <= 3);
        assert_eq!(RUN_LENGTHS[RUN_CLASSES - 1], 884);
    }

    /// The value of position `i` by walking the codes one by one.
    fn decode_slowly(codes: &[u8], i: usize) -> Option<u8> {
        decode_from(codes, 0, i)
    }

    #[test]
    fn grouped_scan_agrees_with_a_code_by_code_scan() {
        let mut x = 777u32;
        let mut rnd = move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        for len in [0usize, 1, 2, 3, 4, 5, 7, 8, 9, 31, 64, 200] {
            for _ in 0..50 {
                // Any byte: quads, runs and unused (corrupt) codes.
                let codes: Vec<u8> = (0..len).map(|_| (rnd() % 256) as u8).collect();
                let far = (0..50).map(|_| rnd() as usize % (len * 900 + 1));
                for i in (0..len * 4 + 8).chain(far) {
                    assert_eq!(
                        decode_at(&codes, i),
                        decode_slowly(&codes, i),
                        "{codes:?} {i}"
                    );
                }
                let quads: Vec<u8> = (0..len).map(|_| (rnd() % 81) as u8).collect();
                let far = (0..50).map(|_| rnd() as usize % (len * 900 + 1));
                for i in (0..len * 4 + 8).chain(far) {
                    assert_eq!(
                        decode_at(&quads, i),
                        decode_slowly(&quads, i),
                        "{quads:?} {i}"
                    );
                }
            }
        }
    }

    #[test]
    fn corrupt_codes_are_not_values() {
        assert_eq!(decode_at(&[255], 0), None);
        assert_eq!(decode_at(&[0], 4), None);
    }
}
