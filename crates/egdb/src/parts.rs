//! The first generation: one file per piece count (`part5.val`, `part5.dst`), up
//! to five pieces, numbered by the thesis' combinatorial index ([`index`]), with
//! each position's value, best move and distance to the end ([`entry`]). Built by
//! retrograde analysis ([`mod@build`]), checked against the rules ([`mod@verify`])
//! and summarised ([`stats`]); [`crate::Egdb`] reads them.

pub mod build;
pub mod entry;
pub mod file;
pub mod index;
pub mod stats;
pub mod verify;

use std::path::Path;

use crate::damage::{is_damage, BrokenFile, Damage};
use crate::error::EgdbError;
use file::{part_path, FileKind, MappedFile};
use index::MAX_PIECES;

/// One part: the value file and, when present, the distance file.
#[derive(Debug)]
pub(crate) struct Part {
    pub(crate) values: MappedFile,
    pub(crate) distances: Option<MappedFile>,
}

impl Part {
    /// Raw entry byte and distance of slot `index`.
    #[inline(always)]
    pub(crate) fn entry(&self, index: usize) -> (u8, Option<u16>) {
        let byte = self.values.body()[index];
        let distance = self.distances.as_ref().map(|d| {
            let body = d.body();
            if d.header().width == 1 {
                u16::from(body[index])
            } else {
                u16::from_le_bytes([body[2 * index], body[2 * index + 1]])
            }
        });
        (byte, distance)
    }
}

/// The first-generation parts of `dir` up to `max` pieces, `parts[i]` for `i`
/// pieces (index 0 unused; none need exist). With `damage`, a part whose value
/// file is damaged is left out and a damaged distance file dropped, each
/// recorded there; without, a damaged file is an error.
pub(crate) fn map_parts(
    dir: &Path,
    max: usize,
    verify_checksum: bool,
    damage: Option<&Damage>,
) -> Result<Vec<Option<Part>>, EgdbError> {
    let open =
        |path: &Path, kind, pieces| match MappedFile::open(path, kind, pieces, verify_checksum) {
            Err(e) if is_damage(&e) => match damage {
                Some(d) => {
                    d.record(BrokenFile::new(path, &e));
                    Ok(None)
                }
                None => Err(e),
            },
            other => other,
        };
    if !dir.is_dir() {
        let e = std::io::Error::new(std::io::ErrorKind::NotFound, "not a directory");
        return Err(EgdbError::io(dir, e));
    }
    let mut parts = vec![None];
    for pieces in 1..=max.min(MAX_PIECES) {
        let values = open(
            &part_path(dir, pieces, FileKind::Values),
            FileKind::Values,
            pieces,
        )?;
        let part = match values {
            None => None,
            Some(values) => {
                let dpath = part_path(dir, pieces, FileKind::Distances);
                let distances = open(&dpath, FileKind::Distances, pieces)?;
                Some(Part { values, distances })
            }
        };
        parts.push(part);
    }
    Ok(parts)
}
