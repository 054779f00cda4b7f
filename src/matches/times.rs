//! Time use per engine in a match's games: the move times and clocks `damas match`
//! writes after each move of an engine on time (`{[%emt 0:00:00.153] [%clk
//! 0:00:05.210]}`), summed up per player (the `White` and `Black` tags).

use std::fmt;
use std::time::Duration;

use damas_rules::pdn::PdnGame;
use damas_rules::position::Color;

/// Moves answered faster than this are left out of the move times: book and forced
/// moves, played at once.
pub const INSTANT: Duration = Duration::from_millis(5);

/// One player's time use.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerTimes {
    /// The player's name.
    pub name: String,
    /// Each move's time, in seconds (moves of [`INSTANT`] or more).
    pub moves: Vec<f64>,
    /// The clock after the player's last move of each game played on a clock.
    pub clock_left: Vec<f64>,
}

/// A `H:MM:SS.mmm` duration in seconds; `None` when it is not one.
pub fn parse_clock(text: &str) -> Option<f64> {
    let mut parts = text.split(':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let (h, m) = (h.parse::<u32>().ok()?, m.parse::<u32>().ok()?);
    let s = s
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0)?;
    Some(f64::from(h) * 3600.0 + f64::from(m) * 60.0 + s)
}

/// The value of `[%key VALUE]` in a comment, in seconds.
fn command(comment: &str, key: &str) -> Option<f64> {
    let start = comment.find(&format!("[%{key} "))? + key.len() + 3;
    let end = comment[start..].find(']')? + start;
    parse_clock(comment[start..end].trim())
}

/// The time use of every player of `games`, in the order they first have a move
/// time; empty when no game has one.
pub fn times(games: &[PdnGame]) -> Vec<PlayerTimes> {
    let mut players: Vec<PlayerTimes> = Vec::new();
    fn entry<'a>(players: &'a mut Vec<PlayerTimes>, name: &str) -> &'a mut PlayerTimes {
        match players.iter().position(|p| p.name == name) {
            Some(i) => &mut players[i],
            None => {
                players.push(PlayerTimes {
                    name: name.to_string(),
                    moves: Vec::new(),
                    clock_left: Vec::new(),
                });
                players.last_mut().expect("just pushed")
            }
        }
    }
    for game in games {
        let names = [
            game.tag("White").unwrap_or("?"),
            game.tag("Black").unwrap_or("?"),
        ];
        let first = game.start.side_to_move();
        // The clock after each side's last move in this game.
        let mut last: [Option<f64>; 2] = [None, None];
        for (ply, comment) in &game.comments {
            let Some(emt) = command(comment, "emt") else {
                continue;
            };
            let mover = if ply % 2 == 0 {
                first
            } else {
                first.opponent()
            };
            let side = usize::from(mover == Color::Black);
            if emt >= INSTANT.as_secs_f64() {
                entry(&mut players, names[side]).moves.push(emt);
            }
            if let Some(clk) = command(comment, "clk") {
                last[side] = Some(clk);
            }
        }
        for (side, left) in last.iter().enumerate() {
            if let Some(left) = left {
                entry(&mut players, names[side]).clock_left.push(*left);
            }
        }
    }
    players.retain(|p| !p.moves.is_empty());
    players
}

/// The median of `values` (the mean of the middle two for an even count); 0 when
/// empty.
fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

impl fmt::Display for PlayerTimes {
    /// `NAME: N moves, mean 0.095 s, median 0.095 s, largest 0.110 s`, and on a clock
    /// `; clock left at the end: mean 4.21 s, smallest 1.02 s, median 4.50 s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.moves;
        write!(
            f,
            "{}: {} moves, mean {:.3} s, median {:.3} s, largest {:.3} s",
            self.name,
            t.len(),
            mean(t),
            median(t),
            t.iter().copied().fold(0.0, f64::max)
        )?;
        let c = &self.clock_left;
        if !c.is_empty() {
            write!(
                f,
                "; clock left at the end: mean {:.2} s, smallest {:.2} s, median {:.2} s",
                mean(c),
                c.iter().copied().fold(f64::INFINITY, f64::min),
                median(c)
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas_rules::pdn::read_games;

    #[test]
    fn clocks_parse_and_bad_ones_are_none() {
        assert_eq!(parse_clock("0:00:00.153"), Some(0.153));
        assert_eq!(parse_clock("1:02:03.5"), Some(3723.5));
        for bad in ["", "0:00", "a:00:01", "0:00:01:00", "0:00:-1", "0:00:NaN"] {
            assert_eq!(parse_clock(bad), None, "{bad}");
        }
        assert_eq!(
            command("[%emt 0:00:00.153] [%clk 0:00:05.210]", "clk"),
            Some(5.21)
        );
        assert_eq!(command("[%emt 0:00:00.153]", "clk"), None);
    }

    #[test]
    fn times_per_player_by_the_mover_of_each_comment() {
        // a has White in game 1 and Black in game 2; b plays without a clock.
        let text = "[White \"a\"]\n[Black \"b\"]\n\n\
            1. c3-d4 {[%emt 0:00:00.100] [%clk 0:00:04.900]} f6-g5 {[%emt 0:00:00.200]} \
            2. b2-c3 {[%emt 0:00:00.001] [%clk 0:00:04.800]} g5-h4 {[%emt 0:00:00.300]} 1-1\n\n\
            [White \"b\"]\n[Black \"a\"]\n\n\
            1. c3-d4 {[%emt 0:00:00.050]} f6-g5 {[%emt 0:00:00.400] [%clk 0:00:03.000]} 1-1\n";
        let games = read_games(text).unwrap();
        let t = times(&games);
        assert_eq!(t.len(), 2);
        assert_eq!(t[0].name, "a");
        assert_eq!(t[0].moves, vec![0.1, 0.4]);
        assert_eq!(t[0].clock_left, vec![4.8, 3.0]);
        assert_eq!(t[1].name, "b");
        assert_eq!(t[1].moves, vec![0.2, 0.3, 0.05]);
        assert!(t[1].clock_left.is_empty());
        assert_eq!(
            t[0].to_string(),
            "a: 2 moves, mean 0.250 s, median 0.250 s, largest 0.400 s; \
             clock left at the end: mean 3.90 s, smallest 3.00 s, median 3.90 s"
        );
        assert_eq!(
            t[1].to_string(),
            "b: 3 moves, mean 0.183 s, median 0.200 s, largest 0.300 s"
        );
        // Black to move first from a FEN: its first comment is Black's.
        let black = read_games(
            "[White \"w\"]\n[Black \"k\"]\n[FEN \"B:W21-32:B1-12\"]\n\n\
             1... f6-g5 {[%emt 0:00:00.120]} *\n",
        )
        .unwrap();
        assert_eq!(times(&black)[0].name, "k");
        assert!(times(&read_games("1. c3-d4 *\n").unwrap()).is_empty());
    }
}
