//! Repairing key sequences the terminal parser splits. Esc pressed just before an
//! arrow key sends `ESC ESC [ A`; crossterm reads the two escapes as one Esc key and
//! the rest as the characters `[` and `A` (and `A` starts a move). [`KeyRepair`]
//! turns Esc, `[` or `O`, then `A`–`D` arriving together back into Esc and an arrow.

use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// How soon after an Esc the rest of an arrow's escape sequence must arrive.
pub const WINDOW: Duration = Duration::from_millis(50);

/// State of the repair: what was held back, and when the last Esc came.
#[derive(Debug, Default)]
pub struct KeyRepair {
    last_esc: Option<Instant>,
    held: Option<KeyEvent>,
}

fn plain(key: &KeyEvent) -> bool {
    key.modifiers.difference(KeyModifiers::SHIFT).is_empty()
}

impl KeyRepair {
    /// A repair with nothing held.
    pub fn new() -> KeyRepair {
        KeyRepair::default()
    }

    /// Feed one key read at `now`; returns the keys to act on (none while a possible
    /// sequence is incomplete).
    pub fn feed(&mut self, key: KeyEvent, now: Instant) -> Vec<KeyEvent> {
        let recent = self
            .last_esc
            .is_some_and(|t| now.saturating_duration_since(t) <= WINDOW);
        if let Some(held) = self.held.take() {
            if recent && plain(&key) {
                let arrow = match key.code {
                    KeyCode::Char('A') => Some(KeyCode::Up),
                    KeyCode::Char('B') => Some(KeyCode::Down),
                    KeyCode::Char('C') => Some(KeyCode::Right),
                    KeyCode::Char('D') => Some(KeyCode::Left),
                    _ => None,
                };
                if let Some(code) = arrow {
                    self.last_esc = None;
                    return vec![KeyEvent::new(code, KeyModifiers::NONE)];
                }
            }
            self.last_esc = None;
            let mut out = vec![held];
            out.extend(self.feed(key, now));
            return out;
        }
        match key.code {
            KeyCode::Esc => {
                self.last_esc = Some(now);
                vec![key]
            }
            KeyCode::Char('[' | 'O') if recent && plain(&key) => {
                self.held = Some(key);
                Vec::new()
            }
            _ => {
                self.last_esc = None;
                vec![key]
            }
        }
    }

    /// A key held back too long is a key after all.
    pub fn flush(&mut self, now: Instant) -> Option<KeyEvent> {
        let stale = self
            .last_esc
            .is_none_or(|t| now.saturating_duration_since(t) > WINDOW);
        if stale {
            self.last_esc = None;
            self.held.take()
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(c: KeyCode) -> KeyEvent {
        KeyEvent::new(c, KeyModifiers::NONE)
    }

    fn feed_all(keys: &[KeyCode]) -> Vec<KeyCode> {
        let mut r = KeyRepair::new();
        let now = Instant::now();
        keys.iter()
            .flat_map(|&k| r.feed(key(k), now))
            .map(|k| k.code)
            .collect()
    }

    #[test]
    fn esc_then_an_arrow_is_esc_and_the_arrow() {
        use KeyCode::*;
        assert_eq!(
            feed_all(&[Esc, Char('['), Char('A')]),
            [Esc, Up],
            "the split sequence"
        );
        assert_eq!(feed_all(&[Esc, Char('O'), Char('D')]), [Esc, Left]);
        assert_eq!(feed_all(&[Esc, Char('c')]), [Esc, Char('c')]);
        assert_eq!(
            feed_all(&[Esc, Char('['), Char('x')]),
            [Esc, Char('['), Char('x')]
        );
        assert_eq!(feed_all(&[Char('A'), Char('3')]), [Char('A'), Char('3')]);
    }

    #[test]
    fn a_late_key_is_not_part_of_a_sequence() {
        let mut r = KeyRepair::new();
        let t = Instant::now();
        assert_eq!(r.feed(key(KeyCode::Esc), t).len(), 1);
        let later = t + Duration::from_millis(500);
        assert_eq!(
            r.feed(key(KeyCode::Char('[')), later)[0].code,
            KeyCode::Char('[')
        );
        assert_eq!(
            r.feed(key(KeyCode::Char('A')), later)[0].code,
            KeyCode::Char('A')
        );
        // Held and never completed: released by flush.
        r.feed(key(KeyCode::Esc), t);
        assert!(r.feed(key(KeyCode::Char('[')), t).is_empty());
        assert_eq!(r.flush(later).map(|k| k.code), Some(KeyCode::Char('[')));
    }
}
