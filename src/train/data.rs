//! The self-play data file: games, each a list of positions with the search's
//! score, labelled with the game's result.
//!
//! Layout (little-endian): a 16-byte header (magic `DAMASSPD`, version u32, the rules' PDN
//! `GameType` number u16 — 0 in files written before the field, read as Brazilian — and a
//! zero u16), then games one after another: game index (u32), sample count (u16), result
//! (u8: 0 Black won, 1 draw, 2 White won), a zero byte, then 16 bytes per sample: White's
//! pieces, Black's pieces, kings (u32 each), side to move (u8: 0 White, 1 Black), ply (u8,
//! saturating), the search's score for White (i16, hundredths of a man, proven results as
//! ±[`PROVEN`]). Games are appended whole and the file flushed after each batch, so a file
//! cut short by an interrupt is read up to its last complete game ([`read_games`] reports
//! where that ended).

use std::io::{Read, Write};
use std::path::Path;

use thiserror::Error;

use damas_rules::bitboard::Bitboard;
use damas_rules::position::{Color, Position};
use damas_rules::variant::{GameType, Variant};

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"DAMASSPD";
/// The format version.
pub const VERSION: u32 = 1;
/// Header bytes.
pub const HEADER: usize = 16;
/// Bytes per sample.
pub const SAMPLE_BYTES: usize = 16;
/// Score stored for proven wins (and its negation for losses).
pub const PROVEN: i16 = 3000;

/// The end of a game from White's side.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Outcome {
    /// Black won.
    BlackWin,
    /// Drawn (by the rules, a draw rule or the ply cap).
    Draw,
    /// White won.
    WhiteWin,
}

impl Outcome {
    /// The outcome won by `winner` (`None`: drawn).
    pub fn won_by(winner: Option<Color>) -> Outcome {
        match winner {
            Some(Color::White) => Outcome::WhiteWin,
            Some(Color::Black) => Outcome::BlackWin,
            None => Outcome::Draw,
        }
    }

    /// The outcome as a proven score for White: ±[`PROVEN`], or 0 for a draw.
    pub fn proven_score(self) -> i16 {
        match self {
            Outcome::BlackWin => -PROVEN,
            Outcome::Draw => 0,
            Outcome::WhiteWin => PROVEN,
        }
    }

    /// White's points: 0, ½ or 1.
    pub fn white_points(self) -> f32 {
        match self {
            Outcome::BlackWin => 0.0,
            Outcome::Draw => 0.5,
            Outcome::WhiteWin => 1.0,
        }
    }

    fn byte(self) -> u8 {
        self as u8
    }

    fn from_byte(b: u8) -> Option<Outcome> {
        match b {
            0 => Some(Outcome::BlackWin),
            1 => Some(Outcome::Draw),
            2 => Some(Outcome::WhiteWin),
            _ => None,
        }
    }
}

/// One recorded position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Sample {
    /// The position.
    pub pos: Position,
    /// Plies since the start position of the game (saturating at 255).
    pub ply: u8,
    /// The search's score for White, hundredths of a man (proven: ±[`PROVEN`]).
    pub score: i16,
}

/// One self-play game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameRecord {
    /// Index of the game in its run (it fixes the opening and the random plies).
    pub index: u32,
    /// How it ended.
    pub outcome: Outcome,
    /// Its recorded positions.
    pub samples: Vec<Sample>,
}

/// Why a data file could not be read or written.
#[derive(Debug, Error)]
pub enum DataError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// The file's games were played under other rules than asked for.
    #[error("{path}: games played under {found} rules, expected {expected}")]
    Variant {
        /// The file.
        path: String,
        /// The rules of its games.
        found: Variant,
        /// The rules asked for.
        expected: Variant,
    },
    /// Not a self-play data file, or damaged.
    #[error("{path}: {what} at byte {offset}")]
    Format {
        /// The file.
        path: String,
        /// What is wrong.
        what: String,
        /// Where.
        offset: usize,
    },
}

/// The bytes of the header of a file of games played under `variant`.
pub fn header(variant: Variant) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..14].copy_from_slice(&variant.game_type().0.to_le_bytes());
    h
}

/// A data file's contents.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct DataFile {
    /// The rules its games were played under.
    pub variant: Variant,
    /// Its complete games.
    pub games: Vec<GameRecord>,
    /// The byte offset where the complete games end (less than the length when the
    /// file was cut short mid-game).
    pub end: usize,
}

/// Append the bytes of `game` to `out`.
pub fn encode_game(game: &GameRecord, out: &mut Vec<u8>) {
    out.extend_from_slice(&game.index.to_le_bytes());
    out.extend_from_slice(&(game.samples.len().min(u16::MAX as usize) as u16).to_le_bytes());
    out.push(game.outcome.byte());
    out.push(0);
    for s in game.samples.iter().take(u16::MAX as usize) {
        out.extend_from_slice(&s.pos.white().0.to_le_bytes());
        out.extend_from_slice(&s.pos.black().0.to_le_bytes());
        out.extend_from_slice(&s.pos.kings().0.to_le_bytes());
        out.push(match s.pos.side_to_move() {
            Color::White => 0,
            Color::Black => 1,
        });
        out.push(s.ply);
        out.extend_from_slice(&s.score.to_le_bytes());
    }
}

/// The contents of a data file's bytes.
pub fn decode(bytes: &[u8], path: &str) -> Result<DataFile, DataError> {
    let err = |what: String, offset: usize| DataError::Format {
        path: path.to_string(),
        what,
        offset,
    };
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err(err("not a damas self-play data file (bad magic)".into(), 0));
    }
    let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
    if version != VERSION {
        return Err(err(
            format!("format version {version}, this program reads version {VERSION}"),
            8,
        ));
    }
    let variant = match u16::from_le_bytes([bytes[12], bytes[13]]) {
        0 => Variant::Brazilian,
        n => Variant::from_game_type(GameType(n)).map_err(|e| err(e.to_string(), 12))?,
    };
    let u32_at =
        |o: usize| u32::from_le_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]]);
    let mut games = Vec::new();
    let mut o = HEADER;
    while o + 8 <= bytes.len() {
        let index = u32_at(o);
        let n = u16::from_le_bytes([bytes[o + 4], bytes[o + 5]]) as usize;
        let outcome = Outcome::from_byte(bytes[o + 6])
            .ok_or_else(|| err(format!("bad game result byte {}", bytes[o + 6]), o + 6))?;
        let end = o + 8 + n * SAMPLE_BYTES;
        if end > bytes.len() {
            break;
        }
        let mut samples = Vec::with_capacity(n);
        for k in 0..n {
            let s = o + 8 + k * SAMPLE_BYTES;
            let (w, b, kings) = (u32_at(s), u32_at(s + 4), u32_at(s + 8));
            let side = match bytes[s + 12] {
                0 => Color::White,
                1 => Color::Black,
                x => return Err(err(format!("bad side-to-move byte {x}"), s + 12)),
            };
            let pos = Position::from_parts(Bitboard(w), Bitboard(b), Bitboard(kings), side)
                .map_err(|e| err(format!("impossible position: {e}"), s))?;
            samples.push(Sample {
                pos,
                ply: bytes[s + 13],
                score: i16::from_le_bytes([bytes[s + 14], bytes[s + 15]]),
            });
        }
        games.push(GameRecord {
            index,
            outcome,
            samples,
        });
        o = end;
    }
    Ok(DataFile {
        variant,
        games,
        end: o,
    })
}

/// Read a data file (complete games only).
pub fn read_games(path: &Path) -> Result<DataFile, DataError> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|source| DataError::Io {
            path: path.display().to_string(),
            source,
        })?;
    decode(&bytes, &path.display().to_string())
}

/// An open data file games are appended to.
pub struct Writer {
    file: std::fs::File,
    path: String,
}

impl Writer {
    /// Open `path` for appending games played under `variant`: create it with a
    /// header, or keep its complete games (cutting off a partial last game) and
    /// return them. A file of another variant's games is refused.
    pub fn open(path: &Path, variant: Variant) -> Result<(Writer, Vec<GameRecord>), DataError> {
        let name = path.display().to_string();
        let io = |source| DataError::Io {
            path: name.clone(),
            source,
        };
        let (games, end) = if path.exists() {
            let f = read_games(path)?;
            if f.variant != variant {
                return Err(DataError::Variant {
                    path: name,
                    found: f.variant,
                    expected: variant,
                });
            }
            (f.games, f.end)
        } else {
            std::fs::write(path, header(variant)).map_err(io)?;
            (Vec::new(), HEADER)
        };
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(io)?;
        file.set_len(end as u64).map_err(io)?;
        let mut w = Writer { file, path: name };
        use std::io::Seek;
        w.file
            .seek(std::io::SeekFrom::End(0))
            .map_err(|source| DataError::Io {
                path: w.path.clone(),
                source,
            })?;
        Ok((w, games))
    }

    /// Append games and flush them to disk.
    pub fn append(&mut self, games: &[GameRecord]) -> Result<(), DataError> {
        let mut buf = Vec::new();
        for g in games {
            encode_game(g, &mut buf);
        }
        self.file
            .write_all(&buf)
            .and_then(|_| self.file.sync_data())
            .map_err(|source| DataError::Io {
                path: self.path.clone(),
                source,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas_rules::fen::parse_fen;

    fn game(index: u32) -> GameRecord {
        GameRecord {
            index,
            outcome: Outcome::WhiteWin,
            samples: vec![
                Sample {
                    pos: Position::start(),
                    ply: 0,
                    score: 12,
                },
                Sample {
                    pos: parse_fen("B:Wa1,Kc3:Bh8,Kb6").unwrap(),
                    ply: 77,
                    score: -PROVEN,
                },
            ],
        }
    }

    #[test]
    fn round_trip_and_partial_tail() {
        let mut bytes = header(Variant::Brazilian).to_vec();
        encode_game(&game(0), &mut bytes);
        encode_game(&game(1), &mut bytes);
        let full = bytes.len();
        let f = decode(&bytes, "x").unwrap();
        assert_eq!(f.games, vec![game(0), game(1)]);
        assert_eq!((f.end, f.variant), (full, Variant::Brazilian));
        // Cut in the middle of the second game: the first survives.
        let f = decode(&bytes[..full - 5], "x").unwrap();
        assert_eq!(f.games, vec![game(0)]);
        assert_eq!(f.end, HEADER + 8 + 2 * SAMPLE_BYTES);
    }

    #[test]
    fn bad_files_are_refused() {
        assert!(decode(b"nonsense at all!", "f").is_err());
        let mut bytes = header(Variant::Brazilian).to_vec();
        encode_game(&game(0), &mut bytes);
        let mut bad = bytes.clone();
        bad[HEADER + 6] = 7;
        let e = decode(&bad, "f.bin").unwrap_err().to_string();
        assert!(e.contains("f.bin") && e.contains("result"), "{e}");
        let mut bad = bytes.clone();
        // White and Black on the same square.
        bad[HEADER + 8 + 4..HEADER + 8 + 8].copy_from_slice(&1u32.to_le_bytes());
        bad[HEADER + 8..HEADER + 8 + 4].copy_from_slice(&1u32.to_le_bytes());
        assert!(decode(&bad, "f").is_err());
    }

    #[test]
    fn writer_resumes_after_a_cut() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("d.bin");
        let (mut w, old) = Writer::open(&p, Variant::Brazilian).unwrap();
        assert!(old.is_empty());
        w.append(&[game(0), game(1)]).unwrap();
        drop(w);
        let len = std::fs::metadata(&p).unwrap().len();
        let f = std::fs::OpenOptions::new().write(true).open(&p).unwrap();
        f.set_len(len - 3).unwrap();
        let (mut w, old) = Writer::open(&p, Variant::Brazilian).unwrap();
        assert_eq!(old, vec![game(0)]);
        w.append(&[game(1)]).unwrap();
        assert_eq!(read_games(&p).unwrap().games, vec![game(0), game(1)]);
    }

    #[test]
    fn the_header_records_the_variant() {
        // Files written before the field hold zero there: Brazilian games.
        let mut old = header(Variant::Brazilian).to_vec();
        old[12..14].copy_from_slice(&[0, 0]);
        encode_game(&game(0), &mut old);
        assert_eq!(decode(&old, "old").unwrap().variant, Variant::Brazilian);

        let mut ru = header(Variant::Russian).to_vec();
        encode_game(&game(0), &mut ru);
        let f = decode(&ru, "ru").unwrap();
        assert_eq!((f.variant, f.games), (Variant::Russian, vec![game(0)]));

        ru[12] = 99;
        let e = decode(&ru, "odd.bin").unwrap_err().to_string();
        assert!(e.contains("odd.bin"), "{e}");
    }

    #[test]
    fn writer_refuses_a_file_of_another_variant() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("ru.bin");
        let (mut w, _) = Writer::open(&p, Variant::Russian).unwrap();
        w.append(&[game(0)]).unwrap();
        drop(w);
        let e = Writer::open(&p, Variant::Brazilian).err().unwrap();
        assert!(matches!(
            e,
            DataError::Variant {
                found: Variant::Russian,
                expected: Variant::Brazilian,
                ..
            }
        ));
        assert!(e.to_string().contains("ru.bin"), "{e}");
        assert_eq!(Writer::open(&p, Variant::Russian).unwrap().1, vec![game(0)]);
    }
}
