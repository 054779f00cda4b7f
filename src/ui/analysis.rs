//! Drawing the analysis board's panel: what the engine is doing, then its best lines,
//! each labelled with the side it favours (or the proven result) and wrapped at the
//! panel's width.

use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

use super::controller::Controller;
use super::thinking::short_count;

/// The key line on the analysis board.
pub const KEY_LINE: &str =
    "ANALYSIS  move both sides  , . back/fwd  m stop/resume  z leave  ? keys  q quit";

/// Indent of a line's continuation rows.
const CONTINUATION: &str = "   ";

/// `text` cut at spaces into rows of at most `width` characters (a longer word
/// stands alone), continuation rows indented.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut rows = Vec::new();
    let mut row = String::new();
    for word in text.split_whitespace() {
        let fresh = row.is_empty() || row == CONTINUATION;
        if !fresh && row.chars().count() + 1 + word.chars().count() > width {
            rows.push(std::mem::replace(&mut row, CONTINUATION.to_string()));
        } else if !fresh {
            row.push(' ');
        }
        row.push_str(word);
    }
    rows.push(row);
    rows
}

/// The panel's rows for an inner width of `width`: status, then each line wrapped
/// (as many rows as fit in `rows`).
pub fn panel_lines(c: &Controller, rows: usize, width: usize) -> Vec<Line<'static>> {
    let Some(a) = c.analysis() else {
        return Vec::new();
    };
    let status = match (c.search_elapsed(), c.thinking()) {
        _ if c.result().is_some() => "game over: nothing to analyse".to_string(),
        _ if a.stopped => "stopped (m resumes)".to_string(),
        (Some(t), Some(th)) if c.thinking_is_live() => format!(
            "depth {}  {} nodes  {}/s  {:.0}s",
            th.depth,
            short_count(th.nodes),
            short_count(th.nps),
            t.as_secs_f64()
        ),
        (Some(_), _) => "thinking…".to_string(),
        (None, Some(th)) => format!("done: depth {}", th.depth),
        (None, None) => String::new(),
    };
    let mut out = vec![Line::styled(
        status,
        Style::default().add_modifier(Modifier::BOLD),
    )];
    if let Some(th) = c.thinking() {
        let lines: Vec<(String, String)> = if th.lines.is_empty() {
            vec![(th.score.clone(), th.pv.join(" "))]
        } else {
            th.lines.clone()
        };
        for (i, (score, moves)) in lines.into_iter().enumerate() {
            let text = format!("{}. {score}: {moves}", i + 1);
            out.extend(wrap(&text, width.max(8)).into_iter().map(Line::raw));
        }
    }
    out.truncate(rows);
    out
}

/// The rows the panel needs (its border included) at the outer width `width`.
pub fn panel_height(c: &Controller, width: u16) -> u16 {
    let inner = usize::from(width.saturating_sub(2));
    (panel_lines(c, usize::MAX, inner).len() + 2).min(usize::from(u16::MAX)) as u16
}

/// Draw the panel in `area`.
pub fn draw_analysis(frame: &mut Frame, c: &Controller, area: Rect) {
    let lines = c.analysis().map_or(1, |a| a.lines);
    let rows = usize::from(area.height.saturating_sub(2));
    let width = usize::from(area.width.saturating_sub(2));
    frame.render_widget(
        Paragraph::new(panel_lines(c, rows, width)).block(
            Block::default()
                .borders(Borders::ALL)
                .title(format!(" Analysis: {lines} best moves ")),
        ),
        area,
    );
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn a_long_line_wraps_at_the_width_with_every_move_kept() {
        let text = "1. White +0.42: c3-d4 f6-e5 d4xf6 g7xe5 b2-c3 h6-g5 c3-d4 e5xc3 d2xb4";
        let rows = wrap(text, 24);
        assert!(rows.len() > 1, "{rows:?}");
        assert!(rows.iter().all(|r| r.chars().count() <= 24), "{rows:?}");
        assert!(rows[1..].iter().all(|r| r.starts_with("   ")), "{rows:?}");
        let joined: Vec<&str> = rows.iter().flat_map(|r| r.split_whitespace()).collect();
        assert_eq!(joined, text.split_whitespace().collect::<Vec<_>>());
        assert_eq!(wrap("1. draw: c3-d4", 80), ["1. draw: c3-d4"]);
    }
}
