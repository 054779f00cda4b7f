//! Keys and mouse to [`Action`]s. The mapping depends on the [`InputMode`]: while the
//! prompt is open every printable key is text; otherwise a letter a–h or A–H or a digit
//! opens the move prompt, so the command keys are other letters (lower case, never a
//! file letter in either case).

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};

use super::board::BoardGeometry;

/// What the user asked for, independent of the key that asked.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Action {
    /// Move the board cursor one square up the screen.
    Up,
    /// Down the screen.
    Down,
    /// Left on the screen.
    Left,
    /// Right on the screen.
    Right,
    /// Pick the piece or destination under the cursor (Enter, Space).
    Select,
    /// A click on the board at (file, row), board coordinates 0..8.
    Click(u8, u8),
    /// Open the move prompt with this first character.
    OpenPrompt(char),
    /// A character typed into the open prompt.
    Type(char),
    /// Delete the last character of the prompt.
    Backspace,
    /// Empty the prompt (Ctrl-U).
    ClearPrompt,
    /// Submit the prompt, or confirm the current capture choice.
    Submit,
    /// Close the prompt, help or choice; drop the selection.
    Cancel,
    /// Next candidate of an ambiguous capture.
    NextChoice,
    /// Previous candidate of an ambiguous capture.
    PrevChoice,
    /// Pick candidate `n` (0-based) of an ambiguous capture.
    Choose(usize),
    /// Start a new game from the start position.
    NewGame,
    /// Take back a move.
    Undo,
    /// Replay an undone move.
    Redo,
    /// Ask the engine for a hint.
    Hint,
    /// Turn the board around.
    Flip,
    /// Save the game as PDN (asks for a file name).
    Save,
    /// Load a PDN game (asks for a file name).
    Load,
    /// Set up a position from FEN (asks for it).
    SetFen,
    /// Copy the current FEN to the clipboard (and show it).
    CopyFen,
    /// Show or hide the help.
    Help,
    /// Make the engine move now (or resume it when paused).
    MoveNow,
    /// Cycle who plays which side.
    Players,
    /// Stronger engine level.
    Stronger,
    /// Weaker engine level.
    Weaker,
    /// Leave the program (asks first when a game in progress would be lost).
    Quit,
    /// Ctrl-C: leave at once (exit status 130).
    Interrupt,
    /// Answer yes to the open question.
    Yes,
    /// Answer no to the open question.
    No,
    /// The terminal was resized (redraw).
    Redraw,
    /// Look at the start position of the game (Home).
    ViewStart,
    /// Back to the game's own position (End).
    ViewEnd,
    /// Look one ply further back (`,`, PageUp).
    ViewBack,
    /// Look one ply further on (`.`, PageDown).
    ViewForward,
    /// Continue play from the position looked at (`x`, asks first).
    ContinueHere,
    /// Review the game (`v`), or close the review.
    Review,
    /// A new game from a random FMJD ballot (`w`).
    Ballot,
    /// Open or close the analysis board (`z`).
    Analyze,
}

/// How keys are read at the moment.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum InputMode {
    /// Board and command keys.
    Normal,
    /// A text prompt is open.
    Prompt,
    /// Choosing between capture paths.
    Choice,
    /// The help screen is shown.
    Help,
    /// A yes/no question is open.
    Confirm,
    /// Choosing a game of a PDN file.
    List,
    /// The review panel is open.
    Review,
}

/// The action for a terminal event, if any. `board` locates the board for clicks.
pub fn map_event(event: &Event, mode: InputMode, board: Option<&BoardGeometry>) -> Option<Action> {
    match event {
        Event::Key(k) if k.kind != KeyEventKind::Release => map_key(k, mode),
        Event::Mouse(m)
            if m.kind == MouseEventKind::Down(MouseButton::Left) && mode != InputMode::Prompt =>
        {
            board
                .and_then(|b| b.square_at(m.column, m.row))
                .map(|(f, r)| Action::Click(f, r))
        }
        Event::Resize(..) => Some(Action::Redraw),
        _ => None,
    }
}

/// The action for a key in `mode`.
pub fn map_key(key: &KeyEvent, mode: InputMode) -> Option<Action> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    // Raw mode delivers Ctrl-C as a key: it always leaves at once.
    if ctrl && key.code == KeyCode::Char('c') {
        return Some(Action::Interrupt);
    }
    if ctrl && key.code == KeyCode::Char('q') {
        return Some(Action::Quit);
    }
    if ctrl && key.code == KeyCode::Char('u') && mode == InputMode::Prompt {
        return Some(Action::ClearPrompt);
    }
    if ctrl {
        return None;
    }
    match mode {
        InputMode::Prompt => match key.code {
            KeyCode::Char(c) => Some(Action::Type(c)),
            KeyCode::Backspace => Some(Action::Backspace),
            KeyCode::Enter => Some(Action::Submit),
            KeyCode::Esc => Some(Action::Cancel),
            _ => None,
        },
        InputMode::Help => match key.code {
            KeyCode::Char('q') => Some(Action::Quit),
            _ => Some(Action::Help),
        },
        InputMode::Confirm => match key.code {
            KeyCode::Char('y' | 'Y') => Some(Action::Yes),
            KeyCode::Char('n' | 'N') | KeyCode::Esc => Some(Action::No),
            _ => None,
        },
        InputMode::Review if key.code == KeyCode::Char('v') => Some(Action::Review),
        InputMode::Choice | InputMode::List | InputMode::Review => match key.code {
            KeyCode::Right | KeyCode::Down | KeyCode::Tab => Some(Action::NextChoice),
            KeyCode::Left | KeyCode::Up | KeyCode::BackTab => Some(Action::PrevChoice),
            KeyCode::Enter | KeyCode::Char(' ') => Some(Action::Submit),
            KeyCode::Char(c @ '1'..='9') => Some(Action::Choose(c as usize - '1' as usize)),
            KeyCode::Esc => Some(Action::Cancel),
            KeyCode::Char('q') => Some(Action::Quit),
            _ => None,
        },
        InputMode::Normal => match key.code {
            KeyCode::Up => Some(Action::Up),
            KeyCode::Down => Some(Action::Down),
            KeyCode::Left => Some(Action::Left),
            KeyCode::Right => Some(Action::Right),
            KeyCode::Enter | KeyCode::Char(' ') => Some(Action::Select),
            KeyCode::Esc => Some(Action::Cancel),
            KeyCode::Home => Some(Action::ViewStart),
            KeyCode::End => Some(Action::ViewEnd),
            KeyCode::PageUp => Some(Action::ViewBack),
            KeyCode::PageDown => Some(Action::ViewForward),
            // A move starts with a file letter (either case) or a square number.
            KeyCode::Char(c @ ('a'..='h' | 'A'..='H' | '0'..='9')) => Some(Action::OpenPrompt(c)),
            KeyCode::Char(c) => command_key(c),
            _ => None,
        },
    }
}

fn command_key(c: char) -> Option<Action> {
    Some(match c {
        'n' => Action::NewGame,
        'u' => Action::Undo,
        'r' => Action::Redo,
        't' => Action::Hint,
        'o' => Action::Flip,
        's' => Action::Save,
        'l' => Action::Load,
        // Letters a-h (either case) start moves: the FEN keys are `i` (input) and `y` (yank).
        'i' => Action::SetFen,
        'y' => Action::CopyFen,
        '?' => Action::Help,
        'm' => Action::MoveNow,
        'p' => Action::Players,
        '+' | '=' => Action::Stronger,
        '-' => Action::Weaker,
        'q' => Action::Quit,
        ',' | '<' => Action::ViewBack,
        '.' | '>' => Action::ViewForward,
        'x' => Action::ContinueHere,
        'v' => Action::Review,
        'w' => Action::Ballot,
        'z' => Action::Analyze,
        _ => return None,
    })
}

/// The key help, one entry per line: (keys, what they do).
pub const KEY_HELP: &[(&str, &str)] = &[
    (
        "arrows, Enter/Space",
        "move the cursor, pick a piece, then its destination",
    ),
    ("mouse click", "pick a piece, then its destination"),
    (
        "a-h, A-H, 1-9",
        "type a move: c3-d4, C3-D4, c3xe5, 22-18; Enter plays",
    ),
    (
        "Tab, arrows",
        "capture choice: next path (taken pieces marked)",
    ),
    (
        "Esc, Ctrl-U",
        "cancel the selection, prompt or help; empty the prompt",
    ),
    ("n / w", "new game / from a random FMJD ballot"),
    ("u / r", "undo / redo (u after n, l, i: the old game back)"),
    ("t", "hint: the engine's best move, shown not played"),
    ("z", "analysis board: you move, the engine shows its lines"),
    (
        "m",
        "move now (or resume after undo); analysis: stop/resume",
    ),
    ("p", "players: human/engine for White and Black"),
    (
        "+ / -",
        "engine level (1 beginner … 10 full) stronger / weaker",
    ),
    ("o", "flip the board"),
    (
        ", . Home End",
        "look back / forward / at the start / back to the game",
    ),
    ("x", "continue play from the position looked at (asks)"),
    ("v", "review the game: every move judged, arrows step"),
    ("s / l", "save / load the game as PDN"),
    ("i / y", "set up a position from FEN / copy (yank) the FEN"),
    ("y / n", "answer a question (discard the game? overwrite?)"),
    ("?", "this help"),
    (
        "q / Ctrl-C",
        "quit (asks if the game is unsaved) / quit at once",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn key(c: KeyCode) -> KeyEvent {
        KeyEvent::new(c, KeyModifiers::NONE)
    }

    #[test]
    fn letters_of_files_and_digits_open_the_prompt_commands_do_not() {
        for c in ['a', 'c', 'f', 'h', '2', '9'] {
            assert_eq!(
                map_key(&key(KeyCode::Char(c)), InputMode::Normal),
                Some(Action::OpenPrompt(c))
            );
        }
        assert_eq!(
            map_key(&key(KeyCode::Char('u')), InputMode::Normal),
            Some(Action::Undo)
        );
        assert_eq!(
            map_key(&key(KeyCode::Char('i')), InputMode::Normal),
            Some(Action::SetFen)
        );
        assert_eq!(
            map_key(&key(KeyCode::Char('q')), InputMode::Prompt),
            Some(Action::Type('q'))
        );
        assert_eq!(
            map_key(
                &KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL),
                InputMode::Prompt
            ),
            Some(Action::Interrupt)
        );
        assert_eq!(
            map_key(&key(KeyCode::Char('2')), InputMode::Choice),
            Some(Action::Choose(1))
        );
    }

    #[test]
    fn capital_file_letters_start_moves_and_no_command_is_a_file_letter() {
        for c in ['A', 'C', 'F', 'H'] {
            assert_eq!(
                map_key(&key(KeyCode::Char(c)), InputMode::Normal),
                Some(Action::OpenPrompt(c))
            );
        }
        for c in ('a'..='h').chain('A'..='H') {
            assert!(command_key(c).is_none(), "{c} is a command");
        }
        assert_eq!(
            map_key(&key(KeyCode::Char('y')), InputMode::Confirm),
            Some(Action::Yes)
        );
        assert_eq!(
            map_key(&key(KeyCode::Esc), InputMode::Confirm),
            Some(Action::No)
        );
        assert!(KEY_HELP.iter().any(|(k, _)| k.contains("Tab")));
        // Every help line fits the 80-column help window (20 for keys, 76 inside).
        for (k, what) in KEY_HELP {
            assert!(
                k.len() < 20 && 20 + what.chars().count() <= 76,
                "{k}: {what}"
            );
        }
    }

    #[test]
    fn clicks_map_to_board_squares() {
        use crossterm::event::{MouseEvent, MouseEventKind};
        let g = BoardGeometry {
            x: 2,
            y: 1,
            cell_w: 3,
            cell_h: 1,
            flipped: false,
        };
        let click = |column, row| {
            Event::Mouse(MouseEvent {
                kind: MouseEventKind::Down(MouseButton::Left),
                column,
                row,
                modifiers: KeyModifiers::NONE,
            })
        };
        // Top-left cell is a8, bottom-left a1; outside the board nothing.
        assert_eq!(
            map_event(&click(2, 1), InputMode::Normal, Some(&g)),
            Some(Action::Click(0, 7))
        );
        assert_eq!(
            map_event(&click(10, 8), InputMode::Normal, Some(&g)),
            Some(Action::Click(2, 0))
        );
        assert_eq!(map_event(&click(40, 8), InputMode::Normal, Some(&g)), None);
        assert_eq!(map_event(&click(10, 8), InputMode::Prompt, Some(&g)), None);
        let flipped = BoardGeometry { flipped: true, ..g };
        assert_eq!(
            map_event(&click(2, 1), InputMode::Normal, Some(&flipped)),
            Some(Action::Click(7, 0))
        );
    }
}
