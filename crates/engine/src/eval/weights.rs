//! The weight file of the trained evaluation.
//!
//! Layout (little-endian): magic `DAMASEVW`, format version (u32), the feature
//! layout's fingerprint (u32, [`layout_id`]), the number of features (u32), the
//! fixed-point shift (u32: weights are in 1/2^shift hundredths of a man), then two
//! i16 per feature (opening weight, endgame weight), then a CRC-32 of everything
//! before it. Feature groups are only ever added at the end: a file of an earlier
//! layout (its groups the first groups of this one) reads with zero weights for the
//! groups added since, which scores every position as it did. A file of any other
//! layout, size or checksum is refused. Version 2 adds a [`Network`] block
//! ([`Network::write`]) between the weights and the checksum; version 1 files have
//! none.

use std::path::Path;

use thiserror::Error;

use super::features::{self, Group};
use super::network::Network;

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"DAMASEVW";
/// The format version of files without a network.
pub const VERSION: u32 = 1;
/// The format version of files with a network.
pub const VERSION_NET: u32 = 2;
/// Header bytes before the weights.
const HEADER: usize = 24;

/// Why a weight file was refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum WeightsError {
    /// Shorter than its header or than the weights it announces.
    #[error("weight file truncated: {len} bytes, expected {expected}")]
    Truncated {
        /// Bytes present.
        len: usize,
        /// Bytes the header calls for.
        expected: usize,
    },
    /// Longer than the weights it announces.
    #[error("weight file has {extra} bytes after its checksum")]
    TrailingBytes {
        /// Bytes too many.
        extra: usize,
    },
    /// Not a damas weight file.
    #[error("not a damas weight file (bad magic bytes at offset 0)")]
    BadMagic,
    /// Another format version.
    #[error("weight file format version {found}, this program reads versions {VERSION} and {VERSION_NET}")]
    Version {
        /// Version in the file.
        found: u32,
    },
    /// Written for another feature layout.
    #[error("weight file is for feature layout {found:#010x} with {count} features; this program's layout is {expected:#010x} with {} features", features::COUNT)]
    Layout {
        /// Fingerprint in the file.
        found: u32,
        /// Feature count in the file.
        count: u32,
        /// This program's fingerprint.
        expected: u32,
    },
    /// A network block of the wrong size for its hidden layer.
    #[error("weight file network block at offset {offset} is malformed ({len} bytes)")]
    Network {
        /// Where the block starts.
        offset: usize,
        /// Its length.
        len: usize,
    },
    /// A fixed-point shift out of range.
    #[error("weight file fixed-point shift {0} is out of range (0..=8)")]
    Shift(u32),
    /// The body does not match its checksum.
    #[error("weight file checksum mismatch: stored {stored:#010x}, computed {computed:#010x}")]
    Checksum {
        /// Checksum in the file.
        stored: u32,
        /// Checksum of the bytes read.
        computed: u32,
    },
    /// Reading or writing the file failed.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What failed.
        message: String,
    },
}

/// A fingerprint of the feature layout: the group boundaries and the version, so
/// that weights trained for other features are never loaded.
pub fn layout_id() -> u32 {
    layout_id_of(&Group::ALL)
}

/// The fingerprint of a layout made of `groups` (in index order).
fn layout_id_of(groups: &[Group]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(b"damas-eval-features-1");
    for g in groups {
        h.update(g.name().as_bytes());
        h.update(&(g.range().start as u32).to_le_bytes());
        h.update(&(g.range().end as u32).to_le_bytes());
    }
    h.finalize()
}

/// Weights of the trained evaluation in fixed point: `2 * features::COUNT` values,
/// opening and endgame weight of each feature side by side.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Weights {
    /// Weights are in 1/2^shift hundredths of a man.
    pub shift: u32,
    /// `[opening, endgame]` per feature.
    pub values: Vec<[i16; 2]>,
    /// A network whose score is added to the linear one.
    pub net: Option<Network>,
}

impl Weights {
    /// The linear model alone: these weights without their network.
    pub fn without_network(self) -> Weights {
        Weights { net: None, ..self }
    }

    /// All-zero weights.
    pub fn zero(shift: u32) -> Weights {
        Weights {
            shift,
            values: vec![[0, 0]; features::COUNT],
            net: None,
        }
    }

    /// Parse a weight file's bytes (this layout or an earlier one).
    pub fn from_bytes(b: &[u8]) -> Result<Weights, WeightsError> {
        if b.len() < HEADER {
            return Err(WeightsError::Truncated {
                len: b.len(),
                expected: HEADER,
            });
        }
        if &b[..8] != MAGIC {
            return Err(WeightsError::BadMagic);
        }
        let u32_at = |o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
        let version = u32_at(8);
        if version != VERSION && version != VERSION_NET {
            return Err(WeightsError::Version { found: version });
        }
        let (layout, count, shift) = (u32_at(12), u32_at(16), u32_at(20));
        let earlier = |k: usize| {
            layout_id_of(&Group::ALL[..k]) == layout
                && Group::ALL[k - 1].range().end == count as usize
        };
        let current = layout == layout_id() && count as usize == features::COUNT;
        if !current && !(1..Group::ALL.len()).any(earlier) {
            return Err(WeightsError::Layout {
                found: layout,
                count,
                expected: layout_id(),
            });
        }
        if shift > 8 {
            return Err(WeightsError::Shift(shift));
        }
        let linear_end = HEADER + count as usize * 4;
        let net_len = if version == VERSION_NET {
            // The block's hidden count comes first.
            if b.len() < linear_end + 4 {
                return Err(WeightsError::Truncated {
                    len: b.len(),
                    expected: linear_end + 4,
                });
            }
            Network::byte_len((u32_at(linear_end) as usize).min(super::network::MAX_HIDDEN + 1))
        } else {
            0
        };
        let expected = linear_end + net_len + 4;
        if b.len() < expected {
            return Err(WeightsError::Truncated {
                len: b.len(),
                expected,
            });
        }
        if b.len() > expected {
            return Err(WeightsError::TrailingBytes {
                extra: b.len() - expected,
            });
        }
        let body = &b[..expected - 4];
        let stored = u32_at(expected - 4);
        let computed = crc32fast::hash(body);
        if stored != computed {
            return Err(WeightsError::Checksum { stored, computed });
        }
        let net = if version == VERSION_NET {
            Some(
                Network::read(&body[linear_end..]).ok_or(WeightsError::Network {
                    offset: linear_end,
                    len: net_len,
                })?,
            )
        } else {
            None
        };
        let mut values: Vec<[i16; 2]> = body[HEADER..linear_end]
            .chunks_exact(4)
            .map(|c| {
                [
                    i16::from_le_bytes([c[0], c[1]]),
                    i16::from_le_bytes([c[2], c[3]]),
                ]
            })
            .collect();
        values.resize(features::COUNT, [0, 0]);
        Ok(Weights { shift, values, net })
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.to_bytes_as(layout_id())
    }

    /// The file's bytes under the fingerprint `layout` (for files of earlier layouts).
    fn to_bytes_as(&self, layout: u32) -> Vec<u8> {
        let mut b = Vec::with_capacity(HEADER + self.values.len() * 4 + 4);
        b.extend_from_slice(MAGIC);
        let version = if self.net.is_some() {
            VERSION_NET
        } else {
            VERSION
        };
        b.extend_from_slice(&version.to_le_bytes());
        b.extend_from_slice(&layout.to_le_bytes());
        b.extend_from_slice(&(self.values.len() as u32).to_le_bytes());
        b.extend_from_slice(&self.shift.to_le_bytes());
        for [o, e] in &self.values {
            b.extend_from_slice(&o.to_le_bytes());
            b.extend_from_slice(&e.to_le_bytes());
        }
        if let Some(n) = &self.net {
            n.write(&mut b);
        }
        let crc = crc32fast::hash(&b);
        b.extend_from_slice(&crc.to_le_bytes());
        b
    }

    /// Read a weight file.
    pub fn load(path: &Path) -> Result<Weights, WeightsError> {
        let bytes = std::fs::read(path).map_err(|e| WeightsError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Weights::from_bytes(&bytes).map_err(|e| match e {
            WeightsError::Io { .. } => e,
            other => WeightsError::Io {
                path: path.display().to_string(),
                message: other.to_string(),
            },
        })
    }

    /// Write a weight file (under a temporary name, then renamed).
    pub fn save(&self, path: &Path) -> Result<(), WeightsError> {
        damas_rules::atomic_file::write_atomic(path, &self.to_bytes()).map_err(|e| {
            WeightsError::Io {
                path: path.display().to_string(),
                message: e.to_string(),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Weights {
        let mut w = Weights::zero(4);
        w.values[0] = [1600, 1500];
        w.values[features::COUNT - 1] = [-7, 9];
        w
    }

    #[test]
    fn round_trip() {
        let w = sample();
        assert_eq!(Weights::from_bytes(&w.to_bytes()), Ok(w));
    }

    #[test]
    fn damaged_files_are_refused() {
        let good = sample().to_bytes();
        let mut flipped = good.clone();
        flipped[HEADER + 1] ^= 0x40;
        assert!(matches!(
            Weights::from_bytes(&flipped),
            Err(WeightsError::Checksum { .. })
        ));
        assert!(matches!(
            Weights::from_bytes(&good[..good.len() - 1]),
            Err(WeightsError::Truncated { .. })
        ));
        assert!(matches!(
            Weights::from_bytes(&good[..10]),
            Err(WeightsError::Truncated { .. })
        ));
        let mut long = good.clone();
        long.push(0);
        assert_eq!(
            Weights::from_bytes(&long),
            Err(WeightsError::TrailingBytes { extra: 1 })
        );
        let mut magic = good.clone();
        magic[0] = b'X';
        assert_eq!(Weights::from_bytes(&magic), Err(WeightsError::BadMagic));
        let mut version = good.clone();
        version[8] = 9;
        assert_eq!(
            Weights::from_bytes(&version),
            Err(WeightsError::Version { found: 9 })
        );
        let mut layout = good;
        layout[16] ^= 1;
        let e = Weights::from_bytes(&layout).unwrap_err();
        assert!(matches!(e, WeightsError::Layout { .. }));
        assert!(e.to_string().contains("features"), "{e}");
    }

    #[test]
    fn an_earlier_layout_reads_with_zeros_for_the_groups_added_since() {
        // A file of the layout before the blocks: the first seven groups.
        let groups = &Group::ALL[..7];
        let count = groups[6].range().end;
        let old = Weights {
            shift: 3,
            values: (0..count)
                .map(|i| {
                    let v = (i % 100) as i16;
                    [v, -v]
                })
                .collect(),
            net: None,
        };
        let b = old.to_bytes_as(layout_id_of(groups));
        let w = Weights::from_bytes(&b).unwrap();
        assert_eq!(w.shift, 3);
        assert_eq!(w.values.len(), features::COUNT);
        let last = ((count - 1) % 100) as i16;
        assert_eq!(w.values[count - 1], [last, -last]);
        assert!(w.values[count..].iter().all(|v| *v == [0, 0]));
        // A prefix layout with the wrong count is still refused.
        let mut wrong = b.clone();
        wrong[16] ^= 1;
        assert!(matches!(
            Weights::from_bytes(&wrong),
            Err(WeightsError::Layout { .. })
        ));
    }

    #[test]
    fn a_network_round_trips_and_a_bad_block_is_refused() {
        let mut w = sample();
        let mut n = Network::zero(4);
        n.w1[5] = -3;
        n.w2[7] = 99;
        n.b2 = -1234;
        w.net = Some(n);
        let b = w.to_bytes();
        assert_eq!(u32::from_le_bytes([b[8], b[9], b[10], b[11]]), VERSION_NET);
        assert_eq!(Weights::from_bytes(&b), Ok(w.clone()));
        assert!(matches!(
            Weights::from_bytes(&b[..b.len() - 3]),
            Err(WeightsError::Truncated { .. })
        ));
        // A hidden count the block's length does not fit.
        let mut bad = b.clone();
        let at = HEADER + features::COUNT * 4;
        bad[at] = 200;
        assert!(Weights::from_bytes(&bad).is_err());
        // Without a network the file stays version 1.
        w.net = None;
        assert_eq!(w.to_bytes()[8], VERSION as u8);
    }

    #[test]
    fn load_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("w.bin");
        std::fs::write(&p, b"DAMASEVW").unwrap();
        let e = Weights::load(&p).unwrap_err().to_string();
        assert!(e.contains("w.bin") && e.contains("truncated"), "{e}");
        sample().save(&p).unwrap();
        assert_eq!(Weights::load(&p).unwrap(), sample());
    }
}
