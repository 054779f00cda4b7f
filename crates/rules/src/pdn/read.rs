//! Reading PDN text: a small tokenizer (tags, comments, variation brackets, words)
//! and a parser that replays every move, in the main line and in its nested
//! variations, against the position.

use crate::fen::parse_fen;
use crate::movegen::legal_moves;
use crate::notation::parse_move;
use crate::position::Position;
use crate::variant::Variant;

use super::{add_comment, MoveNumber, PdnError, PdnErrorKind, PdnGame, Variation};

/// A token with the byte offset where it starts.
#[derive(Debug)]
enum Token<'a> {
    Tag(String, String),
    Word(&'a str),
    Result(&'a str),
    /// A `{…}` comment's text, without the braces.
    Comment(&'a str),
    /// `(`: a variation of the move before it begins.
    Open,
    /// `)`: the variation ends.
    Close,
}

struct Lexer<'a> {
    text: &'a str,
    at: usize,
}

/// Where a lexing error happened and why.
struct LexError {
    at: usize,
    kind: PdnErrorKind,
}

impl<'a> Lexer<'a> {
    fn peek(&self) -> Option<char> {
        self.text[self.at..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        Some(c)
    }

    fn at_line_start(&self) -> bool {
        self.text[..self.at]
            .chars()
            .next_back()
            .is_none_or(|c| c == '\n')
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.bump() {
            if c == '\n' {
                break;
            }
        }
    }

    /// Skip a `{…}` comment; the `{` is already consumed.
    fn skip_comment(&mut self, open: usize) -> Result<(), LexError> {
        while let Some(c) = self.bump() {
            if c == '}' {
                return Ok(());
            }
        }
        Err(LexError {
            at: open,
            kind: PdnErrorKind::Unterminated("comment"),
        })
    }

    fn tag(&mut self, open: usize) -> Result<Token<'a>, LexError> {
        let bad = |at: usize, why: &str| LexError {
            at,
            kind: PdnErrorKind::BadTag(why.to_string()),
        };
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        let name_start = self.at;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            self.bump();
        }
        let name = self.text[name_start..self.at].to_string();
        if name.is_empty() {
            return Err(bad(name_start, "expected a tag name"));
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if self.bump() != Some('"') {
            return Err(bad(self.at.saturating_sub(1), "expected a quoted value"));
        }
        let mut value = String::new();
        loop {
            match self.bump() {
                None | Some('\n') => return Err(bad(open, "value not closed by '\"'")),
                Some('\\') => match self.bump() {
                    Some(c @ ('"' | '\\')) => value.push(c),
                    Some(c) => {
                        value.push('\\');
                        value.push(c);
                    }
                    None => return Err(bad(open, "value not closed by '\"'")),
                },
                Some('"') => break,
                Some(c) => value.push(c),
            }
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if self.bump() != Some(']') {
            return Err(bad(self.at.saturating_sub(1), "expected ']'"));
        }
        Ok(Token::Tag(name, value))
    }

    /// The next token and its start offset, or `None` at the end.
    fn next_token(&mut self) -> Result<Option<(usize, Token<'a>)>, LexError> {
        loop {
            let start = self.at;
            let line_start = self.at_line_start();
            let Some(c) = self.bump() else {
                return Ok(None);
            };
            match c {
                c if c.is_whitespace() => {}
                '%' if line_start => self.skip_line(),
                ';' => self.skip_line(),
                '{' => {
                    self.skip_comment(start)?;
                    let text = &self.text[start + 1..self.at - 1];
                    return Ok(Some((start, Token::Comment(text))));
                }
                '(' => return Ok(Some((start, Token::Open))),
                ')' => return Ok(Some((start, Token::Close))),
                '}' | ']' => {
                    return Err(LexError {
                        at: start,
                        kind: PdnErrorKind::Unexpected(c),
                    })
                }
                '[' => return self.tag(start).map(|t| Some((start, t))),
                '*' => return Ok(Some((start, Token::Result("*")))),
                '$' => {
                    while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                        self.bump();
                    }
                }
                _ => {
                    while self
                        .peek()
                        .is_some_and(|c| !c.is_whitespace() && !"{}()[];".contains(c))
                    {
                        self.bump();
                    }
                    let word = &self.text[start..self.at];
                    return Ok(Some((start, classify(word))));
                }
            }
        }
    }
}

fn classify(word: &str) -> Token<'_> {
    match word {
        "2-0" | "1-1" | "0-2" | "*" => Token::Result(word),
        // Chess-style results found in some files; no move can be read this way.
        "1-0" => Token::Result("2-0"),
        "0-1" => Token::Result("0-2"),
        "1/2-1/2" | "0-0" => Token::Result("1-1"),
        _ => Token::Word(word),
    }
}

/// Split a word into a leading move number (`12.` / `12...`) and the move text after
/// it, with trailing annotations (`!`, `?`, `+`, `#`) removed.
fn split_word(word: &str) -> (Option<&str>, &str) {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let dots = word[digits..].bytes().take_while(|&b| b == b'.').count();
    let (number, rest) = if digits > 0 && dots > 0 {
        (Some(&word[..digits + dots]), &word[digits + dots..])
    } else {
        (None, word)
    };
    (number, rest.trim_end_matches(['!', '?', '+', '#']))
}

/// 1-based line and character column of byte offset `at`.
fn line_column(text: &str, at: usize) -> (usize, usize) {
    // Error offsets can point inside a multi-byte character (found by fuzzing).
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// A line being read: the main line or an open variation.
struct Frame {
    line: Variation,
    /// The game's ply of the line's first move (for move numbers).
    first_ply: usize,
    /// The line's start position, then the position after each of its moves.
    positions: Vec<Position>,
    /// Where its `(` stands (the main line: 0).
    open: usize,
}

impl Frame {
    fn new(start: Position, first_ply: usize, open: usize) -> Frame {
        Frame {
            line: Variation::default(),
            first_ply,
            positions: vec![start],
            open,
        }
    }

    /// The position the next move is played in.
    fn now(&self) -> Position {
        self.positions[self.positions.len() - 1]
    }
}

/// A game being read.
#[derive(Default)]
struct Pending {
    tags: Vec<(String, String)>,
    /// The main line, then each open variation, once the first move is read.
    lines: Vec<Frame>,
}

impl Pending {
    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.lines.is_empty()
    }

    /// The rules of the game: its `GameType`'s (the first field, the game's number;
    /// only the variants we play are read), Brazilian without the tag.
    fn variant(&self) -> Result<Variant, PdnErrorKind> {
        match self.tags.iter().find(|(k, _)| k == "GameType") {
            Some((_, gt)) => {
                super::variant_of_game_type(gt).ok_or_else(|| PdnErrorKind::GameType(gt.clone()))
            }
            None => Ok(Variant::Brazilian),
        }
    }

    fn start(&self) -> Result<Position, PdnErrorKind> {
        self.variant()?;
        match self.tags.iter().find(|(k, _)| k == "FEN") {
            Some((_, fen)) => parse_fen(fen).map_err(PdnErrorKind::Fen),
            None => Ok(Position::start()),
        }
    }

    /// Whether movetext has begun (a tag then starts the next game).
    fn has_moves(&self) -> bool {
        !self.lines.is_empty()
    }

    /// The game, or where a variation is still open.
    fn finish(mut self, result: Option<String>) -> Result<PdnGame, (usize, PdnErrorKind)> {
        if self.lines.len() > 1 {
            let open = self.lines[self.lines.len() - 1].open;
            return Err((open, PdnErrorKind::Unterminated("variation")));
        }
        let (start, main) = match self.lines.pop() {
            Some(f) => (f.positions[0], f.line),
            None => (self.start().map_err(|k| (0, k))?, Variation::default()),
        };
        Ok(PdnGame {
            tags: self.tags,
            start,
            moves: main.moves,
            result,
            comments: main.comments,
            variations: main.variations,
        })
    }
}

/// Read every game of a PDN text. Games end at their result token (`2-0`, `1-1`,
/// `0-2`, `*`), at a tag following movetext, or at the end of the text. Every move,
/// in the main line and in its (nested) variations, is checked against the
/// position; the first problem is returned with its game, move, line and column.
pub fn read_games(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    let mut lexer = Lexer { text, at: 0 };
    let mut games = Vec::new();
    let mut pending = Pending::default();
    let error = |games: &Vec<PdnGame>, at: usize, mv: Option<MoveNumber>, kind: PdnErrorKind| {
        let (line, column) = line_column(text, at);
        PdnError {
            game: games.len() + 1,
            mv,
            line,
            column,
            kind,
        }
    };
    loop {
        let (at, token) = match lexer.next_token() {
            Ok(Some(t)) => t,
            Ok(None) => break,
            Err(e) => return Err(error(&games, e.at, None, e.kind)),
        };
        match token {
            Token::Tag(name, value) => {
                if pending.has_moves() {
                    let done = std::mem::take(&mut pending);
                    let game = done.finish(None).map_err(|(open, k)| {
                        error(&games, if open > 0 { open } else { at }, None, k)
                    })?;
                    games.push(game);
                }
                pending.tags.push((name, value));
            }
            Token::Result(r) => {
                let done = std::mem::take(&mut pending);
                let game = done.finish(Some(r.to_string())).map_err(|(open, k)| {
                    error(&games, if open > 0 { open } else { at }, None, k)
                })?;
                games.push(game);
            }
            // A comment belongs to the move before it in its line; one before the
            // line's first move is not kept.
            Token::Comment(text) => {
                if let Some(top) = pending.lines.last_mut() {
                    if let Some(ply) = top.line.moves.len().checked_sub(1) {
                        add_comment(&mut top.line.comments, ply, text);
                    }
                }
            }
            // A variation replaces the move before it: it starts where that move
            // was played.
            Token::Open => {
                let Some(top) = pending.lines.last() else {
                    return Err(error(&games, at, None, PdnErrorKind::Unexpected('(')));
                };
                let Some(last) = top.line.moves.len().checked_sub(1) else {
                    return Err(error(&games, at, None, PdnErrorKind::Unexpected('(')));
                };
                let frame = Frame::new(top.positions[last], top.first_ply + last, at);
                pending.lines.push(frame);
            }
            Token::Close => {
                if pending.lines.len() < 2 {
                    return Err(error(&games, at, None, PdnErrorKind::Unexpected(')')));
                }
                let Some(done) = pending.lines.pop() else {
                    continue;
                };
                if let Some(parent) = pending.lines.last_mut() {
                    let ply = parent.line.moves.len().saturating_sub(1);
                    if !done.line.moves.is_empty() {
                        parent.line.add_variation(ply, done.line);
                    }
                }
            }
            Token::Word(word) => {
                let (number, mv_text) = split_word(word);
                if mv_text.is_empty() {
                    continue;
                }
                let mv_at = at + number.map_or(0, str::len);
                if pending.lines.is_empty() {
                    let s = pending.start().map_err(|k| error(&games, at, None, k))?;
                    pending.lines.push(Frame::new(s, 0, 0));
                }
                let variant = pending.variant().map_err(|k| error(&games, at, None, k))?;
                let first = pending.lines[0].positions[0].side_to_move();
                let Some(top) = pending.lines.last_mut() else {
                    continue;
                };
                let pos = top.now();
                let num = MoveNumber::of_ply(first, top.first_ply + top.line.moves.len());
                if legal_moves(variant, &pos).is_empty() {
                    return Err(error(
                        &games,
                        mv_at,
                        Some(num),
                        PdnErrorKind::AfterEnd(mv_text.to_string()),
                    ));
                }
                let mv = parse_move(variant, &pos, mv_text)
                    .map_err(|e| error(&games, mv_at, Some(num), PdnErrorKind::Move(e)))?;
                top.line.moves.push(mv);
                top.positions.push(pos.play(mv));
            }
        }
    }
    if !pending.is_empty() {
        let game = pending.finish(None).map_err(|(open, k)| {
            error(&games, if open > 0 { open } else { text.len() }, None, k)
        })?;
        games.push(game);
    }
    Ok(games)
}
