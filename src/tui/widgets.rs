//! Small drawing helpers shared by the screens.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::symbols::border;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::theme::Theme;
use super::view::{Cx, Ev, Outcome};
use super::wrap::{Seg, str_width, wrap};

const ASCII_BORDER: border::Set = border::Set {
    top_left: "+",
    top_right: "+",
    bottom_left: "+",
    bottom_right: "+",
    vertical_left: "|",
    vertical_right: "|",
    horizontal_top: "-",
    horizontal_bottom: "-",
};

/// A bordered block in the theme's characters.
pub fn block<'a>(theme: &Theme, title: &str) -> Block<'a> {
    let b = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border())
        .border_set(if theme.ascii {
            ASCII_BORDER
        } else {
            border::PLAIN
        });
    if title.is_empty() {
        b
    } else {
        b.title(Span::styled(format!(" {title} "), theme.title()))
    }
}

/// Converts ratatui lines to segments and wraps them to `width` cells.
pub fn wrap_lines(lines: &[Line], width: usize) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    for l in lines {
        let segs: Vec<Seg> = l
            .spans
            .iter()
            .map(|s| Seg::new(s.content.to_string(), l.style.patch(s.style)))
            .collect();
        for w in wrap(&segs, width, &[], &[]) {
            out.push(to_line(&w, None));
        }
    }
    out
}

/// Lines cut to `height` rows; when some do not fit, the last row says there is more below.
pub fn clip(cx: &Cx, mut lines: Vec<Line<'static>>, height: usize) -> Vec<Line<'static>> {
    if lines.len() > height {
        lines.truncate(height.saturating_sub(1));
        if height > 0 {
            lines.push(Line::styled(
                format!("{} {}", cx.theme.glyphs().down, cx.t("more-below")),
                cx.theme.dim(),
            ));
        }
    }
    lines
}

/// A text pane that cannot scroll: wrapped to the area, with a sign when it is cut.
pub fn text_box(cx: &Cx, f: &mut Frame, area: Rect, lines: &[Line]) {
    let wrapped = wrap_lines(lines, area.width as usize);
    f.render_widget(
        Paragraph::new(clip(cx, wrapped, area.height as usize)),
        area,
    );
}

/// Wraps one styled text with a hanging indent of `indent` cells on every line.
pub fn wrap_indented(text: &str, style: Style, width: usize, indent: usize) -> Vec<Line<'static>> {
    let pad = [Seg::new(" ".repeat(indent), Style::new())];
    wrap(&[Seg::new(text, style)], width, &pad, &pad)
        .iter()
        .map(|l| to_line(l, None))
        .collect()
}

/// A list item: `mark` on the first line, the text hanging under itself on the others.
pub fn item(
    mark: &str,
    mark_style: Style,
    text: &str,
    style: Style,
    width: usize,
) -> Vec<Line<'static>> {
    let first = [Seg::new(format!("{mark} "), mark_style)];
    let rest = [Seg::new(" ".repeat(str_width(mark) + 1), Style::new())];
    wrap(&[Seg::new(text, style)], width, &first, &rest)
        .iter()
        .map(|l| to_line(l, None))
        .collect()
}

/// Renders wrapped segments as a ratatui line; segments of link `focus` are shown reversed.
pub fn to_line(segs: &[Seg], focus: Option<usize>) -> Line<'static> {
    Line::from(
        segs.iter()
            .map(|s| {
                let mut style = s.style;
                if focus.is_some() && s.link == focus {
                    style = style.add_modifier(ratatui::style::Modifier::REVERSED);
                }
                Span::styled(s.text.clone(), style)
            })
            .collect::<Vec<_>>(),
    )
}

/// A centred box over the screen with wrapped text and a hint line at the bottom.
pub fn popup(cx: &Cx, f: &mut Frame, area: Rect, title: &str, lines: Vec<Line>, hint: &str) {
    let max_w = area.width.saturating_sub(4).max(10);
    let natural = lines
        .iter()
        .map(ratatui::prelude::Line::width)
        .max()
        .unwrap_or(0)
        .max(str_width(hint))
        .max(str_width(title) + 4);
    let w = (natural as u16 + 4).clamp(20.min(max_w), max_w);
    let inner_w = w.saturating_sub(4) as usize;
    let mut text = wrap_lines(&lines, inner_w);
    text.push(Line::raw(""));
    text.extend(wrap_lines(
        &[Line::styled(hint.to_string(), cx.theme.dim())],
        inner_w,
    ));
    let h = (text.len() as u16 + 2).min(area.height);
    let text = clip(cx, text, h.saturating_sub(2) as usize);
    let rect = Rect {
        x: area.x + (area.width.saturating_sub(w)) / 2,
        y: area.y + (area.height.saturating_sub(h)) / 2,
        width: w.min(area.width),
        height: h,
    };
    clear_edges(f.buffer_mut(), rect);
    f.render_widget(Clear, rect);
    let block = block(cx.theme, title).padding(ratatui::widgets::Padding::horizontal(1));
    f.render_widget(Paragraph::new(text).block(block), rect);
}

/// Clears what would bleed into `rect` from outside: a wide character just left of it (its right
/// half lies under the box's left border, and a terminal draws it over the border; ratatui
/// issue 2526), and the hidden right half of one cut by the right edge. Call before drawing a
/// box over the screen.
pub fn clear_edges(buf: &mut ratatui::buffer::Buffer, rect: Rect) {
    let area = buf.area;
    let rect = rect.intersection(area);
    if rect.is_empty() {
        return;
    }
    for y in rect.top()..rect.bottom() {
        if rect.left() > area.left() {
            let cell = &mut buf[(rect.left() - 1, y)];
            if str_width(cell.symbol()) > 1 {
                cell.set_symbol(" ");
            }
        }
        // A wide character starting on the last column inside: its right half sits outside.
        let last = rect.right() - 1;
        if rect.right() < area.right() && str_width(buf[(last, y)].symbol()) > 1 {
            buf[(rect.right(), y)].set_symbol(" ");
        }
    }
}

/// "Label  ████░░░░  3/8" — a progress bar in one line.
pub fn gauge(
    theme: &Theme,
    label: &str,
    label_w: usize,
    done: usize,
    total: usize,
    width: usize,
) -> Line<'static> {
    let count = format!(" {done}/{total}");
    let bar_w = width
        .saturating_sub(label_w + 1 + str_width(&count))
        .min(40);
    let filled = (bar_w * done.min(total)).checked_div(total).unwrap_or(0);
    let (on, off) = if theme.ascii {
        ("#", "-")
    } else {
        ("█", "░")
    };
    Line::from(vec![
        Span::raw(super::wrap::pad(label, label_w)),
        Span::raw(" "),
        Span::styled(on.repeat(filled), theme.gauge()),
        Span::styled(off.repeat(bar_w - filled), theme.dim()),
        Span::raw(count),
    ])
}

/// One gauge a row from the top of `area` down, the labels padded alike, as long as rows are
/// left: the row after the last gauge, or `None` when the area ran out first.
pub fn gauges(
    f: &mut Frame,
    theme: &Theme,
    area: Rect,
    rows: &[(String, usize, usize)],
) -> Option<u16> {
    let label_w = rows.iter().map(|r| str_width(&r.0)).max().unwrap_or(0);
    let mut y = area.y;
    for (label, done, total) in rows {
        if y >= area.y + area.height {
            return None;
        }
        let line = gauge(theme, label, label_w, *done, *total, area.width as usize);
        f.render_widget(
            Paragraph::new(line),
            Rect {
                y,
                height: 1,
                ..area
            },
        );
        y += 1;
    }
    Some(y)
}

/// What a list made of an event it understood.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    /// The selection moved, or a click missed the items: nothing to open.
    Moved,
    /// Enter, Right, `l` or a click chose this item (now also the selection).
    Chosen(usize),
}

/// A vertical list with a selection that scrolls to stay visible and maps clicks to items.
#[derive(Debug, Default, Clone)]
pub struct Menu {
    pub selected: usize,
    pub offset: usize,
    /// Where the list was last drawn (for mouse clicks).
    pub area: Rect,
}

impl Menu {
    pub fn up(&mut self) {
        self.selected = self.selected.saturating_sub(1);
    }

    pub fn down(&mut self, len: usize) {
        if self.selected + 1 < len {
            self.selected += 1;
        }
    }

    pub fn clamp(&mut self, len: usize) {
        if len == 0 {
            self.selected = 0;
        } else if self.selected >= len {
            self.selected = len - 1;
        }
    }

    /// Moves with arrows, vim keys, Home/End and PageUp/PageDown; true when the key was used.
    pub fn nav(&mut self, code: crossterm::event::KeyCode, len: usize) -> bool {
        use crossterm::event::KeyCode::*;
        let page = (self.area.height as usize).max(1);
        match code {
            Up | Char('k') => self.up(),
            Down | Char('j') => self.down(len),
            Home | Char('g') => self.selected = 0,
            End | Char('G') => self.selected = len.saturating_sub(1),
            PageUp => self.selected = self.selected.saturating_sub(page),
            PageDown => self.selected = (self.selected + page).min(len.saturating_sub(1)),
            _ => return false,
        }
        true
    }

    /// The events every list handles alike: keys and the wheel move the selection, Enter/Right/`l`
    /// and a click choose. `None` leaves the event to the screen (also Enter on an empty list).
    pub fn pick(&mut self, ev: &Ev, len: usize) -> Option<Pick> {
        use crossterm::event::KeyCode::{Char, Enter, Right};
        match ev {
            Ev::Key(k) if self.nav(k.code, len) => Some(Pick::Moved),
            Ev::Key(k) if matches!(k.code, Enter | Right | Char('l')) && len > 0 => {
                self.clamp(len);
                Some(Pick::Chosen(self.selected))
            }
            Ev::Click { x, y } => Some(match self.hit(*x, *y, len) {
                Some(i) => {
                    self.selected = i;
                    Pick::Chosen(i)
                }
                None => Pick::Moved,
            }),
            Ev::Scroll(d) => {
                if *d > 0 {
                    self.down(len);
                } else {
                    self.up();
                }
                Some(Pick::Moved)
            }
            _ => None,
        }
    }

    /// [`Menu::pick`] for the keys `table` has (mouse and wheel always): a key the screen's table
    /// does not list is left to the screen or the app, so the table is the whole truth.
    pub fn pick_in<A: Copy>(
        &mut self,
        table: &[super::keymap::Binding<A>],
        ev: &Ev,
        len: usize,
    ) -> Option<Pick> {
        if let Ev::Key(k) = ev
            && super::keymap::Binding::find(table, k).is_none()
        {
            return None;
        }
        self.pick(ev, len)
    }

    /// [`Menu::pick_in`] as a list screen's outcome: a chosen item is `open`ed, a move stays,
    /// and anything else is left to the app.
    pub fn outcome_in<A: Copy>(
        &mut self,
        table: &[super::keymap::Binding<A>],
        ev: &Ev,
        len: usize,
        open: impl FnOnce(usize) -> Outcome,
    ) -> Outcome {
        match self.pick_in(table, ev, len) {
            Some(Pick::Chosen(i)) => open(i),
            Some(Pick::Moved) => Outcome::Stay,
            None => Outcome::Ignored,
        }
    }

    /// The item at a clicked cell, if the click fell on the list.
    pub fn hit(&self, x: u16, y: u16, len: usize) -> Option<usize> {
        let a = self.area;
        if x < a.x || x >= a.x + a.width || y < a.y || y >= a.y + a.height {
            return None;
        }
        let i = self.offset + (y - a.y) as usize;
        (i < len).then_some(i)
    }

    /// Draws one line per item, the selected one highlighted.
    pub fn draw(&mut self, f: &mut Frame, area: Rect, items: Vec<Line<'static>>, sel_style: Style) {
        self.area = area;
        self.clamp(items.len());
        let h = area.height as usize;
        if h == 0 {
            return;
        }
        if self.selected < self.offset {
            self.offset = self.selected;
        } else if self.selected >= self.offset + h {
            self.offset = self.selected + 1 - h;
        }
        let lines: Vec<Line> = items
            .into_iter()
            .enumerate()
            .skip(self.offset)
            .take(h)
            .map(|(i, l)| {
                if i == self.selected {
                    l.patch_style(sel_style)
                } else {
                    l
                }
            })
            .collect();
        f.render_widget(Paragraph::new(lines), area);
    }
}

/// A list screen (lessons, quizzes, labs): the list boxed under `title` on one side, and a box
/// with the selected item's text on the other. `items` is given the list's inner width;
/// `detail` the selected item and the text's width, and has nothing to show for an empty list
/// (then the second box is not drawn).
pub fn list_and_detail(
    cx: &Cx,
    f: &mut Frame,
    area: Rect,
    title: &str,
    menu: &mut Menu,
    items: impl FnOnce(usize) -> Vec<Line<'static>>,
    detail: impl FnOnce(usize, usize) -> Option<Vec<Line<'static>>>,
) {
    let (list, detail_area) = split(area, 30);
    let list_box = block(cx.theme, title);
    let inner = list_box.inner(list);
    f.render_widget(list_box, list);
    menu.draw(f, inner, items(inner.width as usize), cx.theme.selected());
    let detail_box = block(cx.theme, "");
    let inner = detail_box.inner(detail_area);
    let Some(text) = detail(menu.selected, inner.width as usize) else {
        return;
    };
    f.render_widget(detail_box, detail_area);
    text_box(cx, f, inner, &text);
}

/// Splits an area into a left list and a right detail pane when wide enough, else top/bottom.
pub fn split(area: Rect, min_side: u16) -> (Rect, Rect) {
    if area.width >= min_side * 2 {
        cut_cols(area, (area.width * 2 / 5).max(min_side.min(area.width / 2)))
    } else {
        cut_rows(area, area.height / 2)
    }
}

/// An area less one column on either side: the margin the screens draw their text in.
pub fn pad_x(area: Rect) -> Rect {
    Rect {
        x: area.x + 1,
        width: area.width.saturating_sub(2),
        ..area
    }
}

/// The first `left` columns of an area (at most all of them), and the rest.
pub fn cut_cols(area: Rect, left: u16) -> (Rect, Rect) {
    let (a, b) = cut_rows(flip(area), left);
    (flip(a), flip(b))
}

/// The first `top` rows of an area (at most all of them), and the rest.
pub fn cut_rows(area: Rect, top: u16) -> (Rect, Rect) {
    let top = top.min(area.height);
    (
        Rect {
            height: top,
            ..area
        },
        Rect {
            y: area.y + top,
            height: area.height - top,
            ..area
        },
    )
}

/// An area with its rows and columns swapped, so one cut serves both directions.
fn flip(area: Rect) -> Rect {
    Rect {
        x: area.y,
        y: area.x,
        width: area.height,
        height: area.width,
    }
}

/// Where a scrolled text was drawn: the first text line shown and the screen row it is on, so
/// clicks map back to lines.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Scrolled {
    pub first_line: usize,
    pub first_row: u16,
    pub rows: u16,
}

/// Draws laid-out lines from `*scroll` (clamped here) with a sign on the top row when there is
/// more above and on the bottom row when there is more below, so text that outgrows its box never
/// ends silently at the edge.
pub fn scroll_view(
    cx: &Cx,
    f: &mut Frame,
    area: Rect,
    lines: &[Vec<Seg>],
    scroll: &mut usize,
) -> Scrolled {
    let h = area.height as usize;
    if h == 0 {
        return Scrolled::default();
    }
    if lines.len() <= h {
        *scroll = 0;
    }
    // With signs taking rows, the last page starts earlier.
    let max = if lines.len() <= h {
        0
    } else {
        lines.len() - h.saturating_sub(1).max(1)
    };
    *scroll = (*scroll).min(max);
    let above = *scroll > 0 && h >= 3;
    let body_h = h - usize::from(above);
    let below = lines.len() > *scroll + body_h && h >= 2;
    let body_h = body_h - usize::from(below);
    let g = cx.theme.glyphs();
    let sign = |glyph: &str, id: &str| {
        Line::from(Span::styled(
            format!("{glyph} {}", cx.t(id)),
            cx.theme.dim(),
        ))
    };
    let mut view: Vec<Line> = Vec::with_capacity(h);
    if above {
        view.push(sign(g.up, "more-above"));
    }
    view.extend(
        lines
            .iter()
            .skip(*scroll)
            .take(body_h)
            .map(|l| to_line(l, None)),
    );
    if below {
        while view.len() < h - 1 {
            view.push(Line::raw(""));
        }
        view.push(sign(g.down, "more-below"));
    }
    f.render_widget(Paragraph::new(view), area);
    Scrolled {
        first_line: *scroll,
        first_row: area.y + u16::from(above),
        rows: body_h as u16,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_split_an_area_at_a_column_or_a_row_and_never_past_its_edge() {
        let area = Rect::new(2, 3, 10, 4);
        assert_eq!(
            cut_cols(area, 4),
            (Rect::new(2, 3, 4, 4), Rect::new(6, 3, 6, 4))
        );
        assert_eq!(
            cut_rows(area, 1),
            (Rect::new(2, 3, 10, 1), Rect::new(2, 4, 10, 3))
        );
        assert_eq!(cut_cols(area, 99), (area, Rect::new(12, 3, 0, 4)));
        assert_eq!(cut_rows(area, 99), (area, Rect::new(2, 7, 10, 0)));
        assert_eq!(pad_x(area), Rect::new(3, 3, 8, 4));
        assert_eq!(pad_x(Rect::new(0, 0, 1, 5)), Rect::new(1, 0, 0, 5));
    }
}
