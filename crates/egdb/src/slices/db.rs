//! Probing the second-generation database: the memory-mapped slice files of a
//! directory ([`SliceDb`]).
//!
//! A probe numbers the position in its slice and decodes one block; positions
//! where the side to move must capture are not stored and are resolved by a search
//! over the captures (each leads to fewer pieces, so the search is shallow), under
//! the rules of the database's variant: the variant is dispatched once per probe
//! and the capture search is monomorphised. No probe allocates: slices are found
//! through a dense table, move lists live on the stack.

use std::path::{Path, PathBuf};

use crate::damage::{is_damage, BrokenFile, Damage};
use crate::error::EgdbError;
use crate::slices::codec::{DRAW, LOSS, WIN};
use crate::slices::compact::{slice_path, SliceFile};
use crate::slices::slice::{Slice, MAX_SLICE_PIECES};
use crate::value::Wdl;
use damas_rules::movegen::{generate, Board, BoardMoves, Padded};
use damas_rules::moves::{Move, MoveList};
use damas_rules::position::{Color, Position};
use damas_rules::{with_rules, Rules, Variant};

/// The mover's pieces, the opponent's and the kings of `p` as they are numbered
/// in the slice files: Black to move is numbered as the flipped position, the
/// board turned and the mover as White.
#[inline(always)]
fn stored_sets(p: &Board) -> (u64, u64, u64) {
    let turn = |x: Padded| {
        if p.side_to_move() == Color::Black {
            x.rotate().bits()
        } else {
            x.bits()
        }
    };
    (turn(p.own()), turn(p.opp()), turn(p.kings()))
}

/// The slice files of one directory. `Send + Sync`; probes take `&self`.
#[derive(Debug)]
pub struct SliceDb {
    dir: PathBuf,
    /// The rules every file was built for.
    variant: Variant,
    /// Indexed by [`Slice::key`].
    files: Vec<Option<SliceFile>>,
    /// The slices whose files are damaged: counted as present for
    /// [`SliceDb::has_pieces`], so that only positions needing them go unanswered.
    broken: Vec<(Slice, BrokenFile)>,
    /// `complete[n]`: every slice of `n` pieces is present (looked up per probe).
    complete: [bool; MAX_SLICE_PIECES + 1],
    max_pieces: usize,
}

impl SliceDb {
    /// Map every slice file in `dir`, checking headers, lengths and checksums; a
    /// file of another variant than `variant` is an error. A damaged file is left
    /// out and listed ([`SliceDb::broken`]). A directory without slice files gives
    /// an empty database.
    pub fn open_existing(variant: Variant, dir: &Path) -> Result<SliceDb, EgdbError> {
        SliceDb::open_with(variant, dir, &Damage::default(), true)
    }

    /// [`SliceDb::open_existing`], damaged files also recorded in `damage`;
    /// without `checksums` only headers and lengths are checked (the checksum then
    /// on a file's first use).
    pub(crate) fn open_with(
        variant: Variant,
        dir: &Path,
        damage: &Damage,
        checksums: bool,
    ) -> Result<SliceDb, EgdbError> {
        if !dir.is_dir() {
            let e = std::io::Error::new(std::io::ErrorKind::NotFound, "not a directory");
            return Err(EgdbError::io(dir, e));
        }
        let mut found = Vec::new();
        let mut broken = Vec::new();
        for n in 2..=MAX_SLICE_PIECES {
            for s in Slice::all(n) {
                let opened = SliceFile::open(variant, dir, s).and_then(|f| match f {
                    Some(f) if checksums => f.check().map(|()| Some(f)),
                    other => Ok(other),
                });
                match opened {
                    Ok(Some(f)) => found.push((s, f)),
                    Ok(None) => {}
                    Err(e) if is_damage(&e) => {
                        let file = BrokenFile::new(&slice_path(dir, s), &e);
                        damage.record(file.clone());
                        broken.push((s, file));
                    }
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(SliceDb::of_files(dir.to_path_buf(), variant, found, broken))
    }

    /// The database of these slice files (`dir` names them in messages), and of
    /// the slices whose files are damaged.
    pub(crate) fn of_files(
        dir: PathBuf,
        variant: Variant,
        found: Vec<(Slice, SliceFile)>,
        broken: Vec<(Slice, BrokenFile)>,
    ) -> SliceDb {
        let mut files: Vec<Option<SliceFile>> = (0..Slice::KEYS).map(|_| None).collect();
        for (s, f) in found {
            files[s.key()] = Some(f);
        }
        let mut max_pieces = 0;
        let mut complete = [false; MAX_SLICE_PIECES + 1];
        for (n, whole) in complete.iter_mut().enumerate().skip(2) {
            *whole = Slice::all(n)
                .iter()
                .all(|s| files[s.key()].is_some() || broken.iter().any(|(b, _)| b == s));
            let previous = if n == 2 { 0 } else { n - 1 };
            if *whole && max_pieces == previous {
                max_pieces = n;
            }
        }
        SliceDb {
            dir,
            variant,
            files,
            broken,
            complete,
            max_pieces,
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The rules the files were built for.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The largest `n` such that every slice of 2 … `n` pieces is present.
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// Whether no slice file is present, sound or damaged.
    pub fn is_empty(&self) -> bool {
        self.files.iter().all(Option::is_none) && self.broken.is_empty()
    }

    /// The slices whose files were found damaged when opened: positions that
    /// need them are not answered.
    pub fn broken(&self) -> &[(Slice, BrokenFile)] {
        &self.broken
    }

    /// The damaged file of `slice`, if its file is one.
    pub fn broken_file(&self, slice: Slice) -> Option<&BrokenFile> {
        self.broken
            .iter()
            .find(|(s, _)| *s == slice)
            .map(|(_, f)| f)
    }

    /// The first damaged file that answering `pos` (its value and best move)
    /// needs ([`SliceDb::slices_needed`]). For explaining a probe that gave no
    /// answer; it allocates.
    pub fn damaged_file_for(&self, pos: &Position) -> Option<&BrokenFile> {
        if self.broken.is_empty() {
            return None;
        }
        self.slices_needed(pos)
            .into_iter()
            .find_map(|s| self.broken_file(s))
    }

    /// The slices whose files [`SliceDb::probe`] reads to answer `pos`: its own,
    /// those its captures lead to, and those of the positions its moves reach.
    /// Empty above [`MAX_SLICE_PIECES`] pieces. It allocates.
    pub fn slices_needed(&self, pos: &Position) -> Vec<Slice> {
        let mut needed = Vec::new();
        if pos.piece_count() as usize > MAX_SLICE_PIECES {
            return needed;
        }
        with_rules!(self.variant, R => {
            self.needed_slices::<R>(&Board::from(pos), &mut needed);
            let mut list = MoveList::new();
            generate(self.variant, pos, &mut list);
            for &m in list.iter() {
                self.needed_slices::<R>(&Board::from(&pos.play(m)), &mut needed);
            }
        });
        needed.sort_by_key(|s| s.key());
        needed.dedup();
        needed
    }

    /// The slices whose stored values [`SliceDb::wdl`] reads to answer `p`.
    fn needed_slices<R: Rules>(&self, p: &Board, out: &mut Vec<Slice>) {
        if p.own().is_empty() || p.opp().is_empty() {
            return;
        }
        let mut list = BoardMoves::new();
        if p.captures_with::<R>(&mut list) {
            for m in list.as_slice() {
                self.needed_slices::<R>(&p.play(m), out);
            }
        } else {
            let (w, b, k) = stored_sets(p);
            out.push(Slice::of_sets(w, b, k));
        }
    }

    /// The file of `slice`, when present.
    pub fn file(&self, slice: Slice) -> Option<&SliceFile> {
        if !slice.is_valid() {
            return None;
        }
        self.files[slice.key()].as_ref()
    }

    /// Whether every slice of `pieces` pieces is present.
    #[inline(always)]
    pub fn has_pieces(&self, pieces: usize) -> bool {
        self.complete.get(pieces).copied().unwrap_or(false)
    }

    /// Bytes on disk of all files.
    pub fn bytes(&self) -> u64 {
        self.files.iter().flatten().map(SliceFile::len).sum()
    }

    /// Copy every file into one anonymous memory area and probe from there, asking
    /// the kernel for transparent huge pages (Linux, `madvise`): a probe into a
    /// database larger than the caches then misses the TLB far less often than
    /// with the files' own mappings, which the page cache gives in 4 KiB pages.
    /// Opt-in: the database's size in memory beside the page cache, and the time to
    /// read every file now (the checksums already computed stay valid for the copy).
    /// Returns the bytes copied.
    pub fn copy_to_huge_pages(&mut self) -> Result<u64, EgdbError> {
        // Each file starts on a cache line; the area is a whole number of huge
        // pages, which lets the kernel align it to one.
        const HUGE: usize = 2 << 20;
        let mut starts = Vec::new();
        let mut total = 0usize;
        for f in self.files.iter().flatten() {
            starts.push(total);
            total += f.bytes().len().next_multiple_of(64);
        }
        if total == 0 {
            return Ok(0);
        }
        let io = |e| EgdbError::io(&self.dir, e);
        let mut area = memmap2::MmapMut::map_anon(total.next_multiple_of(HUGE)).map_err(io)?;
        // Without transparent huge pages the copy still works, in small pages.
        #[cfg(target_os = "linux")]
        let _ = area.advise(memmap2::Advice::HugePage);
        for (f, &start) in self.files.iter().flatten().zip(&starts) {
            let bytes = f.bytes();
            area[start..start + bytes.len()].copy_from_slice(bytes);
        }
        let area = std::sync::Arc::new(area.make_read_only().map_err(io)?);
        for (f, &start) in self.files.iter_mut().flatten().zip(&starts) {
            f.move_to(&area, start);
        }
        Ok(total as u64)
    }

    /// The value of `pos` for the side to move; `None` when a slice it needs is
    /// missing or corrupt.
    #[inline]
    pub fn wdl(&self, pos: &Position) -> Option<Wdl> {
        with_rules!(self.variant, R => self.wdl_with::<R>(pos))
    }

    /// [`SliceDb::wdl`] under the rules `R` (the database's own).
    #[inline]
    fn wdl_with<R: Rules>(&self, pos: &Position) -> Option<Wdl> {
        if pos.own().is_empty() {
            return Some(Wdl::Loss);
        }
        if pos.opp().is_empty() {
            return Some(Wdl::Win);
        }
        if pos.piece_count() as usize > MAX_SLICE_PIECES {
            return None;
        }
        let p = Board::from(pos);
        let mut list = BoardMoves::new();
        if p.captures_with::<R>(&mut list) {
            self.best_capture::<R>(&p, &list)
        } else {
            self.stored_board(&p)
        }
    }

    /// [`SliceDb::wdl`] of a position reached by a capture (so with at most
    /// [`MAX_SLICE_PIECES`] pieces), kept as the generator's [`Board`]: capture
    /// chains are resolved without converting moves or positions back and forth.
    fn resolve<R: Rules>(&self, p: &Board) -> Option<Wdl> {
        if p.own().is_empty() {
            return Some(Wdl::Loss);
        }
        if p.opp().is_empty() {
            return Some(Wdl::Win);
        }
        let mut list = BoardMoves::new();
        if p.captures_with::<R>(&mut list) {
            self.best_capture::<R>(p, &list)
        } else {
            self.stored_board(p)
        }
    }

    /// The best value over the captures `list` of `p`: a win as soon as one child
    /// is lost for the opponent.
    #[inline(always)]
    fn best_capture<R: Rules>(&self, p: &Board, list: &BoardMoves) -> Option<Wdl> {
        let mut best = Wdl::Loss;
        for m in list.as_slice() {
            match self.resolve::<R>(&p.play(m))?.negate() {
                Wdl::Win => return Some(Wdl::Win),
                Wdl::Draw => best = Wdl::Draw,
                Wdl::Loss => {}
            }
        }
        Some(best)
    }

    /// The stored value of a position without captures for the side to move.
    pub(crate) fn stored(&self, pos: &Position) -> Option<Wdl> {
        self.stored_board(&Board::from(pos))
    }

    /// [`SliceDb::stored`] of a [`Board`]: numbered in its layout, so that neither
    /// the layout nor (with Black to move) the colours are converted back.
    #[inline(always)]
    fn stored_board(&self, p: &Board) -> Option<Wdl> {
        let (w, b, k) = stored_sets(p);
        let file = self.file(Slice::of_sets(w, b, k))?;
        match file.code(file.index().rank_padded(w, b, k))? {
            LOSS => Some(Wdl::Loss),
            DRAW => Some(Wdl::Draw),
            WIN => Some(Wdl::Win),
            _ => None,
        }
    }

    /// The value of `pos` and a move that keeps it: the least move (in [`Move`]'s
    /// own order, not the generator's) among those leading to the best successor.
    /// `None` as for [`SliceDb::wdl`]; the move is `None` when there is none.
    pub fn probe(&self, pos: &Position) -> Option<(Wdl, Option<Move>)> {
        let wdl = self.wdl(pos)?;
        let mut list = MoveList::new();
        generate(self.variant, pos, &mut list);
        let mut best: Option<Move> = None;
        for &m in list.iter() {
            if self.wdl(&pos.play(m))?.negate() == wdl && best.is_none_or(|b| m < b) {
                best = Some(m);
            }
        }
        Some((wdl, best))
    }
}
