//! Terminal set-up and restoration: raw mode, alternate screen, mouse capture and a
//! hidden cursor while the game runs; everything undone on exit, on error and on panic
//! (a panic hook restores before the message is printed). Ctrl-C arrives as a key in
//! raw mode and is handled by the input mapping: leave at once, exit status 130.

use std::io::{self, Stdout, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

use crossterm::cursor::{Hide, Show};
use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;

/// The terminal in game mode; dropping it restores the terminal.
pub struct TerminalGuard {
    /// The ratatui terminal.
    pub terminal: Terminal<CrosstermBackend<Stdout>>,
}

static HOOK: Once = Once::new();
/// Whether the terminal is in game mode. Process-wide like the terminal itself: the
/// panic hook and the guard's drop both restore, and only the first may act (leaving
/// the alternate screen twice would move the cursor back over the panic message).
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Put the terminal in game mode and install the panic hook (once per process).
pub fn setup() -> io::Result<TerminalGuard> {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    let mut out = io::stdout();
    if let Err(e) = execute!(out, EnterAlternateScreen, EnableMouseCapture, Hide) {
        restore();
        return Err(e);
    }
    match Terminal::new(CrosstermBackend::new(out)) {
        Ok(terminal) => Ok(TerminalGuard { terminal }),
        Err(e) => {
            restore();
            Err(e)
        }
    }
}

/// Undo [`setup`]; harmless when the terminal is already restored.
pub fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let _ = disable_raw_mode();
    let mut out = io::stdout();
    let _ = execute!(out, DisableMouseCapture, LeaveAlternateScreen, Show);
    let _ = out.flush();
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// Put `text` on the terminal's clipboard with the OSC 52 escape (xterm, kitty, iTerm2,
/// tmux with `set-clipboard on`); terminals without it ignore the sequence.
pub fn copy_to_clipboard(text: &str) -> io::Result<()> {
    let mut out = io::stdout();
    write!(out, "\x1b]52;c;{}\x07", base64(text.as_bytes()))?;
    out.flush()
}

fn base64(data: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..4 {
            if i <= chunk.len() {
                s.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_matches_rfc4648_examples() {
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(super::base64(plain.as_bytes()), coded);
        }
    }
}
