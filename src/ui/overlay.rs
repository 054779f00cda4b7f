//! Windows drawn over the screen: the key help and the list of the games of a PDN
//! file to choose from.

use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::Frame;

use super::controller::GameList;
use super::input::KEY_HELP;

/// A centred rectangle of at most `w`×`h` inside `area`.
fn centred(area: Rect, w: u16, h: u16) -> Rect {
    let (w, h) = (w.min(area.width), h.min(area.height));
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

/// The key help.
pub fn draw_help(frame: &mut Frame, area: Rect) {
    let rect = centred(area, 78, KEY_HELP.len() as u16 + 2);
    let lines: Vec<Line> = KEY_HELP
        .iter()
        .map(|(k, what)| {
            Line::from(vec![
                Span::styled(
                    format!("{k:<20}"),
                    Style::default().add_modifier(Modifier::BOLD),
                ),
                Span::raw(*what),
            ])
        })
        .collect();
    frame.render_widget(Clear, rect);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(" Keys (any key closes) ");
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}

/// The games of a file, the highlighted one reversed, scrolled to keep it visible.
pub fn draw_game_list(frame: &mut Frame, area: Rect, list: &GameList) {
    let rect = centred(area, 76, list.games.len() as u16 + 2);
    let rows = usize::from(rect.height.saturating_sub(2)).max(1);
    let first = list.index.saturating_sub(rows - 1);
    let lines: Vec<Line> = (first..list.games.len().min(first + rows))
        .map(|i| {
            let style = if i == list.index {
                Style::default().add_modifier(Modifier::REVERSED)
            } else {
                Style::default()
            };
            Line::styled(list.describe(i), style)
        })
        .collect();
    frame.render_widget(Clear, rect);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(" Load which game? (arrows, Enter, Esc) ");
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}
