//! Match openings: the 150 FMJD three-move ballots (embedded, the default), a file of
//! FEN lines or PDN opening prefixes, or a few random legal moves from the start
//! position drawn from a seeded generator.
//!
//! An openings file is read as PDN when its first line that is neither blank nor a
//! `#` comment starts with `[` (a tag), `{` (a comment) or a digit (movetext);
//! otherwise as FEN lines. The decision is by content only, whatever the extension.

use std::collections::HashSet;
use std::path::Path;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use damas_rules::fen::{parse_fen, FenError};
use damas_rules::movegen::{has_legal_move, legal_moves};
use damas_rules::moves::Move;
use damas_rules::pdn::{read_games, PdnError};
use damas_rules::position::Position;
use damas_rules::variant::Variant;

/// The 150 FMJD ballots for Russian and Brazilian draughts, one FEN per line with the
/// ballot name after `;` (the file `data/openings/fmjd-150.fen`).
pub const FMJD_BALLOTS: &str = include_str!("../../data/openings/fmjd-150.fen");

/// One opening: where the engines take over is `start` after `moves`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Name for the `Opening` tag of the game record.
    pub name: String,
    /// The position the record starts from (its `FEN` tag when not the initial one).
    pub start: Position,
    /// Moves played from `start` before the engines take over (part of the record).
    pub moves: Vec<Move>,
}

impl Opening {
    /// The position where the engines take over.
    pub fn position(&self) -> Position {
        self.moves.iter().fold(self.start, |p, &m| p.play(m))
    }
}

/// Why an openings file cannot be used.
#[derive(Debug, Error)]
pub enum OpeningsError {
    /// The file cannot be read.
    #[error("cannot read the file: {0}")]
    Io(#[from] std::io::Error),
    /// No FEN line and no PDN game (empty file, or only comments).
    #[error("no openings: the file has no FEN line and no PDN game")]
    Empty,
    /// A FEN line that does not parse.
    #[error("line {line}: {error}")]
    BadFen {
        /// Line number, from 1.
        line: usize,
        /// The FEN error (its column counts from the start of the line).
        error: FenError,
    },
    /// A line with a `; name` but no FEN before it.
    #[error("line {line}: no FEN before ';'")]
    MissingFen {
        /// Line number, from 1.
        line: usize,
    },
    /// A FEN whose side to move has no legal move: nothing to play.
    #[error("line {line}: the side to move has no legal move")]
    FenGameOver {
        /// Line number, from 1.
        line: usize,
    },
    /// A PDN that does not read (bad tag, illegal move, …), with game, move, line and
    /// column.
    #[error("{0}")]
    Pdn(PdnError),
    /// A PDN opening after which the side to move has no legal move.
    #[error("game {game}: the opening ends with the side to move without a legal move")]
    PdnGameOver {
        /// Game number in the file, from 1.
        game: usize,
    },
}

/// Whether `text` is read as PDN (see the module documentation).
pub fn looks_like_pdn(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .and_then(|l| l.chars().next())
        .is_some_and(|c| c == '[' || c == '{' || c.is_ascii_digit())
}

/// Parse an openings text, PDN or FEN lines (detected by [`looks_like_pdn`]).
pub fn parse_openings(text: &str) -> Result<Vec<Opening>, OpeningsError> {
    if looks_like_pdn(text) {
        parse_pdn_openings(text)
    } else {
        parse_fen_openings(text)
    }
}

/// Read and parse an openings file.
pub fn load_openings(path: &Path) -> Result<Vec<Opening>, OpeningsError> {
    parse_openings(&std::fs::read_to_string(path)?)
}

/// The embedded FMJD ballots, in file order.
pub fn fmjd_ballots() -> Result<Vec<Opening>, OpeningsError> {
    parse_fen_openings(FMJD_BALLOTS)
}

/// How many FMJD ballots there are.
pub const BALLOT_COUNT: usize = 150;

/// FMJD ballot `number`, 1 to [`BALLOT_COUNT`] in file order (`None` outside that).
pub fn fmjd_ballot(number: usize) -> Option<Opening> {
    let index = number.checked_sub(1)?;
    fmjd_ballots().ok()?.into_iter().nth(index)
}

/// FEN lines: one FEN per line, optionally followed by `; name`; blank lines and
/// lines starting with `#` are skipped. Unnamed openings are called `line N`.
pub fn parse_fen_openings(text: &str) -> Result<Vec<Opening>, OpeningsError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if raw.trim().is_empty() || raw.trim_start().starts_with('#') {
            continue;
        }
        let (fen, name) = match raw.split_once(';') {
            Some((fen, name)) => (fen, Some(name.trim())),
            None => (raw, None),
        };
        if fen.trim().is_empty() {
            return Err(OpeningsError::MissingFen { line });
        }
        let start = parse_fen(fen).map_err(|error| OpeningsError::BadFen { line, error })?;
        if !has_legal_move(&start) {
            return Err(OpeningsError::FenGameOver { line });
        }
        let name = match name {
            Some(n) if !n.is_empty() => n.to_string(),
            _ => format!("line {line}"),
        };
        out.push(Opening {
            name,
            start,
            moves: Vec::new(),
        });
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty);
    }
    Ok(out)
}

/// PDN games as opening prefixes: each game's start position (its `FEN` tag, else
/// the initial position) and its moves; the result token is ignored. The name is
/// the game's `Opening` tag, else its `Event` tag, else `game N`.
pub fn parse_pdn_openings(text: &str) -> Result<Vec<Opening>, OpeningsError> {
    let games = read_games(text).map_err(OpeningsError::Pdn)?;
    if games.is_empty() {
        return Err(OpeningsError::Empty);
    }
    let mut out = Vec::with_capacity(games.len());
    for (i, g) in games.into_iter().enumerate() {
        if !has_legal_move(&g.end_position()) {
            return Err(OpeningsError::PdnGameOver { game: i + 1 });
        }
        let name = g
            .tag("Opening")
            .or(g.tag("Event"))
            .filter(|n| !n.is_empty() && *n != "?")
            .map_or_else(|| format!("game {}", i + 1), str::to_string);
        out.push(Opening {
            name,
            start: g.start,
            moves: g.moves,
        });
    }
    Ok(out)
}

/// `openings` in a shuffled order drawn from `seed` (the same seed, the same order).
pub fn shuffled(mut openings: Vec<Opening>, seed: u64) -> Vec<Opening> {
    openings.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    openings
}

/// `count` random openings of `plies` moves under the rules of `variant` from the
/// start position (see [`random_openings`]), named after their plies, seed and number.
pub fn random_opening_list(
    variant: Variant,
    count: usize,
    plies: usize,
    seed: u64,
) -> Vec<Opening> {
    random_openings(variant, count, plies, seed)
        .into_iter()
        .enumerate()
        .map(|(i, moves)| Opening {
            name: format!("{} random plies, seed {seed}, #{}", moves.len(), i + 1),
            start: Position::start(),
            moves,
        })
        .collect()
}

/// `count` distinct openings of `plies` random moves under the rules of `variant`
/// from the start position (fewer distinct ones when the tree is too small,
/// repeated to make up the count). Openings that leave the side to move without a
/// move are not used.
pub fn random_openings(variant: Variant, count: usize, plies: usize, seed: u64) -> Vec<Vec<Move>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let mut out: Vec<Vec<Move>> = Vec::with_capacity(count);
    let mut attempts = 0;
    while out.len() < count && attempts < count * 50 + 100 {
        attempts += 1;
        let mut pos = Position::start();
        let mut line = Vec::with_capacity(plies);
        for _ in 0..plies {
            let legal = legal_moves(variant, &pos);
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.gen_range(0..legal.len())];
            line.push(m);
            pos = pos.play(m);
        }
        if legal_moves(variant, &pos).is_empty() || !seen.insert(pos) {
            continue;
        }
        out.push(line);
    }
    if out.is_empty() {
        out.push(Vec::new());
    }
    let distinct = out.len();
    for i in distinct..count {
        out.push(out[i % distinct].clone());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas_rules::fen::{to_fen, FenErrorKind};
    use damas_rules::pdn::PdnErrorKind;

    #[test]
    fn openings_are_distinct_legal_and_reproducible() {
        let a = random_openings(Variant::Brazilian, 20, 4, 7);
        assert_eq!(a, random_openings(Variant::Brazilian, 20, 4, 7));
        assert_ne!(a, random_openings(Variant::Brazilian, 20, 4, 8));
        let ends: HashSet<Position> = a
            .iter()
            .map(|l| l.iter().fold(Position::start(), |p, &m| p.play(m)))
            .collect();
        assert_eq!(ends.len(), 20);
        for line in &a {
            assert_eq!(line.len(), 4);
            let mut p = Position::start();
            for &m in line {
                assert!(legal_moves(Variant::Brazilian, &p).contains(&m));
                p = p.play(m);
            }
        }
        // Zero plies: the start position only, repeated.
        assert_eq!(
            random_openings(Variant::Brazilian, 3, 0, 1),
            vec![Vec::<Move>::new(); 3]
        );
        let named = random_opening_list(Variant::Brazilian, 2, 4, 7);
        assert_eq!(named[1].moves, a[1]);
        assert_eq!(named[1].name, "4 random plies, seed 7, #2");
    }

    /// Russian random openings follow the Russian rules: among them, captures the
    /// Brazilian majority rule forbids.
    #[test]
    fn russian_random_openings_are_russian_lines() {
        let lines = random_openings(Variant::Russian, 300, 12, 1);
        let mut non_brazilian = 0;
        for line in &lines {
            let mut pos = Position::start();
            for &m in line {
                assert!(legal_moves(Variant::Russian, &pos).contains(&m));
                non_brazilian += usize::from(!legal_moves(Variant::Brazilian, &pos).contains(&m));
                pos = pos.play(m);
            }
        }
        assert!(non_brazilian > 0);
        assert_eq!(
            random_openings(Variant::Brazilian, 20, 4, 7),
            random_openings(Variant::Brazilian, 20, 4, 7)
        );
    }

    #[test]
    fn embedded_ballots_are_150_distinct_legal_positions() {
        assert!(!looks_like_pdn(FMJD_BALLOTS));
        let ballots = fmjd_ballots().unwrap();
        assert_eq!(ballots.len(), 150);
        let distinct: HashSet<Position> = ballots.iter().map(|o| o.start).collect();
        assert_eq!(distinct.len(), 150);
        for b in &ballots {
            assert!(b.moves.is_empty());
            assert!(
                !legal_moves(Variant::Brazilian, &b.start).is_empty(),
                "{}",
                b.name
            );
            // Ballot moves from the initial position: 12 men a side, no kings.
            assert_eq!(b.start.white().count(), 12, "{}", b.name);
            assert_eq!(b.start.black().count(), 12, "{}", b.name);
            assert!(b.start.kings().is_empty(), "{}", b.name);
        }
        assert_eq!(ballots[0].name, "1-I cd4 ba5 dc5");
        assert_eq!(ballots[149].name.split(' ').next(), Some("15-X"));
        // Shuffling is a deterministic permutation.
        let s = shuffled(ballots.clone(), 3);
        assert_eq!(s, shuffled(ballots.clone(), 3));
        assert_ne!(s, ballots);
        let back: HashSet<Position> = s.iter().map(|o| o.start).collect();
        assert_eq!(back, distinct);
    }

    /// Play a ballot name's short moves (`cd4`: the man on file c to d4) from the
    /// initial position (`Free`: none).
    fn play_ballot_name(name: &str) -> Option<Position> {
        let mut pos = Position::start();
        for token in name.split_whitespace().skip(1).filter(|t| *t != "Free") {
            let file = token.chars().next()?;
            let to = damas_rules::square::Square::from_algebraic(token.get(1..)?)?;
            let matching: Vec<Move> = legal_moves(Variant::Brazilian, &pos)
                .iter()
                .copied()
                .filter(|m| m.to() == to && m.from().algebraic().starts_with(file))
                .collect();
            if matching.len() != 1 {
                return None;
            }
            pos = pos.play(matching[0]);
        }
        Some(pos)
    }

    #[test]
    fn every_ballot_is_the_position_after_its_named_moves() {
        for b in fmjd_ballots().unwrap() {
            assert_eq!(play_ballot_name(&b.name), Some(b.start), "{}", b.name);
        }
    }

    #[test]
    fn fen_file_lines_comments_and_names() {
        let text = "# two openings\n\n\
            B:Wa1,e3,g3,c5,c1,e1,g1,b2,d2,f2,h2,a3:Ba5,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8 ; first\n\
            W:W21-32:B1-12\n";
        let o = parse_openings(text).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].name, "first");
        assert_eq!(o[1].name, "line 4");
        assert_eq!(o[1].start, Position::start());
        assert_eq!(
            to_fen(&o[0].start),
            to_fen(&fmjd_ballots().unwrap()[0].start)
        );
    }

    #[test]
    fn bad_fen_line_is_reported_with_its_line_number() {
        let text = "# header\nW:W21-32:B1-12 ; ok\nW:Wa1,zz9:Bb8 ; broken\n";
        match parse_openings(text) {
            Err(e @ OpeningsError::BadFen { line: 3, .. }) => {
                let OpeningsError::BadFen { error, .. } = &e else {
                    unreachable!()
                };
                assert_eq!(error.kind, FenErrorKind::UnknownSquare("zz9".into()));
                assert!(e.to_string().starts_with("line 3: bad FEN"), "{e}");
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse_openings("W:W21-32:B1-12\n ; no fen\n"),
            Err(OpeningsError::MissingFen { line: 2 })
        ));
        // White to move without a man: the game is over before it starts.
        assert!(matches!(
            parse_openings("W:W:Bb8\n"),
            Err(OpeningsError::FenGameOver { line: 1 })
        ));
    }

    #[test]
    fn empty_files_are_errors() {
        for text in ["", "\n\n", "# only a comment\n# and another\n"] {
            assert!(
                matches!(parse_openings(text), Err(OpeningsError::Empty)),
                "{text:?}"
            );
        }
        assert!(matches!(
            parse_pdn_openings("{ nothing }"),
            Err(OpeningsError::Empty)
        ));
    }

    #[test]
    fn pdn_games_give_opening_prefixes() {
        let text = "[Event \"Cross\"]\n1. c3-d4 f6-g5 *\n\n\
            [FEN \"B:W21-32:B1-12\"]\n1... f6-e5 2. g3-f4 *\n\n\
            1. e3-f4 *\n";
        assert!(looks_like_pdn(text));
        let o = parse_openings(text).unwrap();
        assert_eq!(o.len(), 3);
        assert_eq!((o[0].name.as_str(), o[0].moves.len()), ("Cross", 2));
        assert_eq!(o[0].start, Position::start());
        assert_eq!(
            o[1].start.side_to_move(),
            damas_rules::position::Color::Black
        );
        assert_eq!(o[1].moves.len(), 2);
        assert_eq!(o[2].name, "game 3");
        assert_eq!(
            o[0].position(),
            o[0].moves.iter().fold(Position::start(), |p, &m| p.play(m))
        );
    }

    #[test]
    fn illegal_pdn_move_is_reported_with_game_and_line() {
        let text = "[Event \"a\"]\n1. c3-d4 f6-g5 *\n\n[Event \"b\"]\n1. c3-d4 c3-d4 *\n";
        match parse_openings(text) {
            Err(OpeningsError::Pdn(e)) => {
                assert_eq!((e.game, e.line), (2, 5), "{e}");
                assert!(matches!(e.kind, PdnErrorKind::Move(_)), "{e}");
                assert!(e.to_string().contains("line 5"), "{e}");
            }
            other => panic!("{other:?}"),
        }
    }
}
