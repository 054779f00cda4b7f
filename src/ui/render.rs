//! Drawing the whole screen: board with player labels, game information, the engine's
//! thinking, the move list, the message or prompt lines (long messages wrap) and the
//! key line. The help and the game list are drawn over it by [`super::overlay`].

use std::time::Duration;

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color as Tc, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;

use damas_rules::bitboard::Bitboard;
use damas_rules::position::Color;

use super::board::{BoardGeometry, BoardWidget, Marks};
use super::controller::{Controller, MessageKind, Purpose, ReviewPanel};
use super::overlay::{draw_game_list, draw_help};
use super::setup::Player;
use super::thinking::short_count;

/// The key line at the bottom on wide terminals.
pub const KEY_LINE: &str = "n new  u/r undo/redo  t hint  m move now  p players  +/- level  o flip  s/l save/load  i/y FEN  , . look back  v review  ? help  q quit";
/// The key line on 80 columns (`?` lists the rest).
pub const KEY_LINE_SHORT: &str =
    "n new  u undo  r redo  t hint  m move  o flip  s save  l load  ? keys  q quit";

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The variant's name with a capital (`Russian`), as the status panel names it.
fn variant_title(v: damas_rules::variant::Variant) -> String {
    let name = v.name();
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().chain(chars).collect::<String>()
    })
}

/// ` Engine: level 5 (intermediate), 1 s/move ` or `…, clock 5+3 `.
fn engine_title(c: &Controller) -> String {
    match c.clock_setting() {
        Some(k) => format!(
            " Engine: level {}, {} ",
            c.strength(),
            crate::ui::setup::level_label(&k)
        ),
        None => format!(
            " Engine: level {}, {} ",
            c.strength(),
            crate::ui::setup::level_label(&c.level())
        ),
    }
}

fn clock_text(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

/// Draw the screen; returns where the board is, for mouse clicks.
/// `colour` off draws without colours (`NO_COLOR`).
pub fn draw(frame: &mut Frame, c: &Controller, colour: bool) -> BoardGeometry {
    let area = frame.area();
    let [main, message, keys] = Layout::vertical([
        Constraint::Min(10),
        Constraint::Length(message_height(c, area.width)),
        Constraint::Length(1),
    ])
    .areas(area);
    let cell =
        BoardGeometry::best_cell(main.width.saturating_sub(36), main.height.saturating_sub(6));
    let (bw, _) = BoardGeometry::size_for(cell.0, cell.1);
    // Room beside the board for the player lines when the terminal is wide enough.
    let left_w = if main.width >= 80 {
        (bw + 2).max(34)
    } else {
        bw + 2
    };
    let [left, right] =
        Layout::horizontal([Constraint::Length(left_w), Constraint::Min(20)]).areas(main);
    let geometry = draw_left(frame, c, left, cell, colour);
    draw_right(frame, c, right);
    draw_message(frame, c, message, colour);
    let key_line = if c.analysis().is_some() {
        super::analysis::KEY_LINE
    } else if keys.width as usize >= KEY_LINE.len() {
        KEY_LINE
    } else {
        KEY_LINE_SHORT
    };
    frame.render_widget(
        Paragraph::new(key_line).style(Style::default().add_modifier(Modifier::REVERSED)),
        keys,
    );
    if c.help_shown() {
        draw_help(frame, area);
    }
    if let Some(list) = c.game_list() {
        draw_game_list(frame, area, list);
    }
    geometry
}

/// The text of the message area: the open prompt, else the message.
fn message_text(c: &Controller) -> String {
    match c.prompt() {
        Some(p) => format!("{}> {}_  (Enter ok, Esc cancel)", p.kind.label(), p.text),
        None => c.message().map(|(t, _)| t.to_string()).unwrap_or_default(),
    }
}

/// Rows for the message: as many as it needs when wrapped at words (1 to 3).
fn message_height(c: &Controller, width: u16) -> u16 {
    wrapped_lines(&message_text(c), usize::from(width.max(1))).clamp(1, 3) as u16
}

/// How many lines `text` takes wrapped at words to `width` columns.
pub fn wrapped_lines(text: &str, width: usize) -> usize {
    let mut lines = 1;
    let mut used = 0;
    for word in text.split_whitespace() {
        let len = word.chars().count();
        if used > 0 && used + 1 + len > width {
            lines += 1;
            used = 0;
        }
        if used > 0 {
            used += 1;
        }
        used += len;
        while used > width {
            lines += 1;
            used -= width;
        }
    }
    lines
}

fn player_label(c: &Controller, color: Color) -> Line<'static> {
    let player = c.players().of(color);
    // On a game clock the time left, else the time used.
    let clock = match c.time_left(color) {
        Some(left) => format!("{} left", clock_text(left)),
        None => clock_text(c.clocks()[color as usize]),
    };
    let mut spans = vec![
        Span::styled(
            format!("{}: ", side_name(color)),
            Style::default().add_modifier(Modifier::BOLD),
        ),
        Span::raw(format!("{player} {clock}")),
    ];
    if c.result().is_none() && c.position().side_to_move() == color {
        let busy = c.is_searching() && player == Player::Engine;
        spans.push(Span::raw(" "));
        spans.push(Span::styled(
            if busy { "◀ thinking" } else { "◀ to move" },
            Style::default().add_modifier(Modifier::BOLD | Modifier::REVERSED),
        ));
    }
    Line::from(spans)
}

fn draw_left(
    frame: &mut Frame,
    c: &Controller,
    area: Rect,
    cell: (u16, u16),
    colour: bool,
) -> BoardGeometry {
    let (_, bh) = BoardGeometry::size_for(cell.0, cell.1);
    let [top, board, bottom, info] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(bh),
        Constraint::Length(1),
        Constraint::Min(0),
    ])
    .areas(area);
    let (top_color, bottom_color) = if c.flipped() {
        (Color::White, Color::Black)
    } else {
        (Color::Black, Color::White)
    };
    frame.render_widget(Paragraph::new(player_label(c, top_color)), top);
    frame.render_widget(Paragraph::new(player_label(c, bottom_color)), bottom);

    let pos = c.shown_position();
    let taken = c
        .choice()
        .map(|ch| ch.candidates[ch.index].captured())
        .unwrap_or_default();
    let last: Bitboard = c
        .shown_last_move()
        .map(|(_, m)| Bitboard::square(m.from()) | Bitboard::square(m.to()))
        .unwrap_or_default();
    let hint: Bitboard = c
        .hint()
        .map(|m| Bitboard::square(m.from()) | Bitboard::square(m.to()))
        .unwrap_or_default();
    // An earlier position is only looked at: no picking marks on it.
    let live = c.viewing().is_none();
    let marks = Marks {
        cursor: Some(c.cursor()),
        selected: c.selected(),
        destinations: c.destinations(),
        last,
        hint: if live { hint } else { Bitboard::default() },
        taken,
        must_capture: if live {
            c.must_capture()
        } else {
            Bitboard::default()
        },
    };
    let widget = BoardWidget {
        position: &pos,
        marks,
        flipped: c.flipped(),
        cell,
        colour,
    };
    let geometry = widget.geometry(board);
    frame.render_widget(widget, board);

    let mut lines = Vec::new();
    if c.variant() != damas_rules::variant::Variant::Brazilian {
        lines.push(Line::styled(
            format!("{} draughts", variant_title(c.variant())),
            Style::default().add_modifier(Modifier::BOLD),
        ));
    }
    if let Some(i) = c.viewing() {
        lines.push(Line::styled(
            format!(
                "VIEWING ply {i} of {}: End returns, x plays on",
                c.game().moves().len()
            ),
            Style::default().add_modifier(Modifier::BOLD | Modifier::REVERSED),
        ));
    }
    if let Some((done, total)) = c.review_progress() {
        lines.push(Line::raw(format!("Reviewing… {done}/{total} positions")));
    }
    if let Some(r) = c.result() {
        let who = match r.winner {
            Some(w) => format!("{} wins", side_name(w)),
            None => "Draw".to_string(),
        };
        lines.push(Line::styled(
            format!("{who} {}", r.pdn()),
            Style::default().add_modifier(Modifier::BOLD),
        ));
        lines.push(Line::raw(r.reason.describe().to_string()));
    } else if c.paused() {
        lines.push(Line::raw("engine paused (m resumes)"));
    }
    let count = |col: Color| {
        let (men, kings) = (pos.men(col).count(), pos.kings_of(col).count());
        if kings > 0 {
            format!("{men}+{kings}K")
        } else {
            men.to_string()
        }
    };
    lines.push(Line::raw(format!(
        "Pieces: White {}, Black {}",
        count(Color::White),
        count(Color::Black)
    )));
    if let Some((before, m)) = c.shown_last_move() {
        lines.push(Line::raw(format!(
            "Last move: {}",
            damas_rules::notation::move_to_string(
                c.variant(),
                &before,
                m,
                damas_rules::notation::Notation::Algebraic
            )
        )));
    }
    if let Some(name) = c.opening() {
        lines.push(Line::raw(format!("Ballot: {name}")));
    }
    if let Some(v) = c.verdict() {
        lines.push(Line::raw(format!("Database: {v}")));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), info);
    geometry
}

fn draw_right(frame: &mut Frame, c: &Controller, area: Rect) {
    if let Some(a) = c.analysis() {
        // Room for every line, wrapped, leaving the move list at least 5 rows.
        let height = (a.lines as u16 + 4)
            .max(super::analysis::panel_height(c, area.width))
            .min(area.height.saturating_sub(5))
            .max(4);
        let [engine, moves] =
            Layout::vertical([Constraint::Length(height), Constraint::Min(3)]).areas(area);
        super::analysis::draw_analysis(frame, c, engine);
        draw_moves(frame, c, moves);
        return;
    }
    let [engine, moves] = Layout::vertical([Constraint::Length(6), Constraint::Min(3)]).areas(area);
    frame.render_widget(
        Paragraph::new(engine_lines(c))
            .wrap(Wrap { trim: true })
            .block(
                Block::default()
                    .borders(Borders::ALL)
                    .title(engine_title(c)),
            ),
        engine,
    );

    if let Some(panel) = c.review() {
        draw_review(frame, panel, moves);
        return;
    }
    draw_moves(frame, c, moves);
}

/// The move list, in columns when wide enough, the latest rows always visible.
fn draw_moves(frame: &mut Frame, c: &Controller, moves: Rect) {
    let rows = c.move_rows();
    let inner_h = moves.height.saturating_sub(2) as usize;
    let inner_w = moves.width.saturating_sub(2) as usize;
    // Two columns of rows when the panel is wide enough, the latest rows always visible.
    let col_w = 24;
    let columns = (inner_w / col_w).clamp(1, 3);
    let capacity = inner_h * columns;
    let skip = rows.len().saturating_sub(capacity);
    let visible = &rows[skip..];
    let mut lines: Vec<Line> = Vec::new();
    for r in 0..inner_h.min(visible.len()) {
        let mut text = String::new();
        for col in 0..columns {
            if let Some(row) = visible.get(col * inner_h + r) {
                text.push_str(&format!("{row:<col_w$}"));
            }
        }
        lines.push(Line::raw(text.trim_end().to_string()));
    }
    let title = format!(
        " Moves ({} to move) ",
        side_name(c.position().side_to_move())
    );
    frame.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(title)),
        moves,
    );
}

/// The review beside the board: a compact line per move (the highlighted one reversed,
/// scrolled into view), then each player's summary.
fn draw_review(frame: &mut Frame, panel: &ReviewPanel, area: Rect) {
    use crate::review::report::summary_line;
    // The evaluation chart below the list when there is room for both.
    let area = if area.height >= 14 {
        let [list, chart] =
            Layout::vertical([Constraint::Min(6), Constraint::Length(7)]).areas(area);
        super::chart::draw_eval_chart(frame, panel, chart);
        list
    } else {
        area
    };
    let inner_h = usize::from(area.height.saturating_sub(2));
    let summary: Vec<String> = [Color::White, Color::Black]
        .into_iter()
        .map(|side| summary_line(side, None, &panel.review.summary(side)))
        .collect();
    let rows = inner_h.saturating_sub(4).max(1);
    let first = panel.index.saturating_sub(rows - 1);
    let mut lines: Vec<Line> = panel
        .review
        .moves
        .iter()
        .enumerate()
        .skip(first)
        .take(rows)
        .map(|(i, m)| {
            let number = if m.number.black {
                format!("{}...", m.number.number)
            } else {
                format!("{}.", m.number.number)
            };
            let mark = m.judgement.mark.map_or("", |k| k.symbol());
            let book = if m.book { " (book)" } else { "" };
            let text = format!(
                "{number:<5}{:<10} {}",
                format!("{}{mark}{book}", m.played_text),
                m.after_label()
            );
            let style = if i == panel.index {
                Style::default().add_modifier(Modifier::REVERSED)
            } else {
                Style::default()
            };
            Line::styled(text, style)
        })
        .collect();
    lines.extend(summary.into_iter().map(Line::raw));
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: true }).block(
            Block::default().borders(Borders::ALL).title(format!(
                " Review, {} (arrows, Enter keeps, Esc closes) ",
                crate::review::report::rules(panel.review.variant)
            )),
        ),
        area,
    );
}

/// The engine panel: what the engine is doing, then the latest report (of the running
/// search as it deepens, else of the last search, which stays visible).
fn engine_lines(c: &Controller) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let status = match (c.search_elapsed(), c.search_purpose()) {
        (Some(t), Some(Purpose::Hint)) => format!("looking for a hint… {:.1}s", t.as_secs_f64()),
        (Some(t), _) => format!("thinking… {:.1}s", t.as_secs_f64()),
        (None, _) if c.thinking().is_some() => "last search:".to_string(),
        (None, _) => String::new(),
    };
    match c.thinking() {
        Some(t) => {
            let when = if c.is_searching() && !c.thinking_is_live() {
                " (previous search)"
            } else {
                ""
            };
            lines.push(Line::raw(format!("{status}{when}")));
            match &t.note {
                // A book or forced move has no search behind it; a level's choice
                // has its own small searches, whose figures follow its label.
                Some(note) if t.nodes == 0 => lines.push(Line::raw(note.clone())),
                Some(note) => {
                    lines.push(Line::raw(format!("{note}: {}", t.score)));
                    lines.push(Line::raw(format!("{} nodes", short_count(t.nodes))));
                }
                None => {
                    lines.push(Line::raw(format!("depth {}  {}", t.depth, t.score)));
                    lines.push(Line::raw(format!(
                        "{} nodes  {} nodes/s",
                        short_count(t.nodes),
                        short_count(t.nps)
                    )));
                }
            }
            lines.push(Line::raw(format!("line: {}", t.pv.join(" "))));
        }
        None if c.is_searching() => lines.push(Line::raw(status)),
        None => lines.push(Line::styled(
            "idle",
            Style::default().add_modifier(Modifier::DIM),
        )),
    }
    lines
}

fn draw_message(frame: &mut Frame, c: &Controller, area: Rect, colour: bool) {
    if let Some(p) = c.prompt() {
        let line = Line::from(vec![
            Span::styled(
                format!("{}> ", p.kind.label()),
                Style::default().add_modifier(Modifier::BOLD),
            ),
            Span::raw(p.text.clone()),
            Span::styled("_", Style::default().add_modifier(Modifier::SLOW_BLINK)),
            Span::styled(
                "  (Enter ok, Esc cancel)",
                Style::default().add_modifier(Modifier::DIM),
            ),
        ]);
        frame.render_widget(Paragraph::new(line).wrap(Wrap { trim: false }), area);
    } else if let Some((text, kind)) = c.message() {
        let style = match kind {
            MessageKind::Info => Style::default(),
            MessageKind::Error if colour => {
                Style::default().fg(Tc::Red).add_modifier(Modifier::BOLD)
            }
            MessageKind::Error => Style::default().add_modifier(Modifier::BOLD),
        };
        frame.render_widget(
            Paragraph::new(text.to_string())
                .style(style)
                .wrap(Wrap { trim: true }),
            area,
        );
    }
}

#[cfg(test)]
#[path = "render_tests.rs"]
mod tests;
