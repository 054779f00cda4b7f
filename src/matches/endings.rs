//! Won endings in game records: for each player, the games in which it reached a
//! position the endgame databases hold as won for it, and how those games ended
//! (`damas pdn endings`). The databases know no counting rule, so a win they hold
//! can still be drawn by one; a draw is told apart as "held" (every position they
//! cover from the first win on is won) or "given away" (a move of the player left
//! a position they no longer hold as won).

use std::fmt;

use damas_egdb::oracle::{Oracle, OracleValue};
use damas_rules::notation::{move_to_string, Notation};
use damas_rules::pdn::{MoveNumber, PdnGame};
use damas_rules::position::{Color, Position};
use damas_rules::to_fen;

/// Where a player let a database win go in one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GivenAway {
    /// The game, counted from 1 in file order.
    pub game: usize,
    /// The number of the move that gave the win away, as PDN writes it.
    pub number: MoveNumber,
    /// The won position it was played from (FEN).
    pub fen: String,
    /// The move, in algebraic notation.
    pub played: String,
}

/// One player's games that reached a position the databases hold as won for it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerEndings {
    /// The player's name (a `White` or `Black` tag).
    pub name: String,
    /// Games the player took part in that have a result.
    pub games: usize,
    /// Of those, games in which it reached a won database position.
    pub reached: usize,
    /// … which it won,
    pub won: usize,
    /// … drawn with the win held throughout (a counting rule, a repetition or an
    /// agreed result ended them),
    pub drawn_held: usize,
    /// … drawn after the player gave the win away (listed in `given_away`),
    pub drawn_given: usize,
    /// … and lost.
    pub lost: usize,
    /// The first give-away of every such game that was not won.
    pub given_away: Vec<GivenAway>,
}

/// The won endings of both players of the first game, over every game of `games`
/// that either played and that has a result, by `oracle` (which must cover the
/// games' variant).
pub fn endings(games: &[PdnGame], oracle: &dyn Oracle) -> Vec<PlayerEndings> {
    let Some(first) = games.first() else {
        return Vec::new();
    };
    let names = [
        first.tag("White").unwrap_or("?"),
        first.tag("Black").unwrap_or("?"),
    ];
    names
        .iter()
        .map(|&name| {
            let mut p = PlayerEndings {
                name: name.to_string(),
                ..PlayerEndings::default()
            };
            for (i, g) in games.iter().enumerate() {
                let Some(color) = g.color_of(name) else {
                    continue;
                };
                let Some(halves) = g.half_points(color) else {
                    continue;
                };
                p.games += 1;
                if let Some(given_away) = follow(g, i + 1, color, oracle) {
                    p.add(halves, given_away);
                }
            }
            p
        })
        .collect()
}

/// Follow game `g` (number `number`) through the positions `oracle` covers:
/// `None` if none of them is won for `color`, else the first move played from a
/// won position whose next covered position is not won, if any.
fn follow(
    g: &PdnGame,
    number: usize,
    color: Color,
    oracle: &dyn Oracle,
) -> Option<Option<GivenAway>> {
    let won_for = |pos: &Position| -> Option<bool> {
        if !oracle.covers(pos) {
            return None;
        }
        let mover = pos.side_to_move() == color;
        Some(match oracle.probe_value(pos)?.value {
            OracleValue::Win => mover,
            OracleValue::Loss => !mover,
            OracleValue::Draw => false,
        })
    };
    // The last covered position (its ply and whether it is won) and the game's
    // position at each ply.
    let mut pos = g.start;
    let mut last = won_for(&pos).map(|won| (0, pos, won));
    let mut reached = matches!(last, Some((_, _, true)));
    let mut given_away = None;
    for (ply, &mv) in g.moves.iter().enumerate() {
        pos = pos.play(mv);
        let Some(won) = won_for(&pos) else { continue };
        if let (Some((at, from, true)), false, None) = (last, won, &given_away) {
            given_away = Some(GivenAway {
                game: number,
                number: MoveNumber::of_ply(g.start.side_to_move(), at),
                fen: to_fen(&from),
                played: move_to_string(g.variant(), &from, g.moves[at], Notation::Algebraic),
            });
        }
        reached |= won;
        last = Some((ply + 1, pos, won));
    }
    reached.then_some(given_away)
}

impl PlayerEndings {
    /// Count a game in which this player reached a database win and scored
    /// `halves` half points.
    fn add(&mut self, halves: u32, given_away: Option<GivenAway>) {
        self.reached += 1;
        match halves {
            2 => self.won += 1,
            1 if given_away.is_none() => self.drawn_held += 1,
            1 => self.drawn_given += 1,
            _ => self.lost += 1,
        }
        if halves < 2 {
            self.given_away.extend(given_away);
        }
    }
}

impl fmt::Display for PlayerEndings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: reached a database win in {} of {} games: won {}, drawn {} \
             ({} with the win held, {} given away), lost {}",
            self.name,
            self.reached,
            self.games,
            self.won,
            self.drawn_held + self.drawn_given,
            self.drawn_held,
            self.drawn_given,
            self.lost
        )?;
        for g in &self.given_away {
            writeln!(
                f,
                "  game {}, move {}: {} from {}",
                g.game, g.number, g.played, g.fen
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas_egdb::oracle::OracleAnswer;
    use damas_rules::parse_fen;
    use damas_rules::pdn::read_games;

    /// Knows the positions of its table and nothing else.
    struct Table(Vec<(Position, OracleValue)>);

    impl Oracle for Table {
        fn probe(&self, pos: &Position) -> Option<OracleAnswer> {
            let &(_, value) = self.0.iter().find(|(p, _)| p == pos)?;
            Some(OracleAnswer {
                value,
                best: None,
                plies: None,
                to_conversion: false,
            })
        }
        fn max_pieces(&self) -> u32 {
            3
        }
    }

    fn game(white: &str, black: &str, fen: &str, moves: &str, result: &str) -> String {
        format!(
            "[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n[FEN \"{fen}\"]\n\n{moves} {result}\n\n"
        )
    }

    #[test]
    fn wins_held_given_away_and_converted_are_told_apart() {
        use OracleValue::{Draw, Loss, Win};
        let table = [
            ("W:Wa1,c1:Bh8", Win),
            ("B:Wb2,c1:Bh8", Loss),
            ("B:Wa1,d2:Bh8", Draw),
            ("B:Wa1:Bh8,f8", Win),
            ("W:Wa1:Bg7,f8", Loss),
        ];
        let oracle = Table(
            table
                .iter()
                .map(|&(fen, v)| (parse_fen(fen).unwrap(), v))
                .collect(),
        );
        // 1: a holds White's win to a draw. 2: b gives it away with c1-d2.
        // 3: a wins as Black. 4: a position the table does not know.
        let text = [
            game("a", "b", "W:Wa1,c1:Bh8", "1. a1-b2", "1-1"),
            game("b", "a", "W:Wa1,c1:Bh8", "1. c1-d2", "1-1"),
            game("b", "a", "B:Wa1:Bh8,f8", "1... h8-g7", "0-2"),
            game("a", "b", "W:Wa1,c1:Bh8,f8", "1. a1-b2", "1-1"),
        ]
        .concat();
        let games = read_games(&text).unwrap();
        let report = endings(&games, &oracle);
        let counts = |p: &PlayerEndings| {
            let won = (p.won, p.drawn_held, p.drawn_given, p.lost);
            (p.games, p.reached, won)
        };
        let a = &report[0];
        assert_eq!(a.name, "a");
        assert_eq!(counts(a), (4, 2, (1, 1, 0, 0)));
        assert!(a.given_away.is_empty());
        let b = &report[1];
        assert_eq!(counts(b), (4, 1, (0, 0, 1, 0)));
        let g = &b.given_away[..];
        assert_eq!(g.len(), 1);
        assert_eq!((g[0].game, g[0].played.as_str()), (2, "c1-d2"));
        assert_eq!(g[0].number.to_string(), "1");
        assert_eq!(
            parse_fen(&g[0].fen).unwrap(),
            parse_fen("W:Wa1,c1:Bh8").unwrap()
        );
        let text = a.to_string();
        assert!(
            text.starts_with(
                "a: reached a database win in 2 of 4 games: won 1, drawn 1 \
                 (1 with the win held, 0 given away), lost 0"
            ),
            "{text}"
        );
        assert!(
            b.to_string().contains("  game 2, move 1: c1-d2 from W:"),
            "{b}"
        );
        assert!(endings(&[], &oracle).is_empty());
    }

    #[test]
    fn games_without_a_result_are_not_counted() {
        let oracle = Table(vec![(parse_fen("W:Wa1,c1:Bh8").unwrap(), OracleValue::Win)]);
        let text = [
            game("a", "b", "W:Wa1,c1:Bh8", "1. a1-b2", "*"),
            game("b", "a", "W:Wa1,c1:Bh8", "1. a1-b2", "1-1"),
        ]
        .concat();
        let report = endings(&read_games(&text).unwrap(), &oracle);
        assert_eq!(
            (report[0].games, report[0].reached, report[0].lost),
            (1, 0, 0)
        );
        assert_eq!(
            (report[1].games, report[1].reached, report[1].drawn_held),
            (1, 1, 1)
        );
    }
}
