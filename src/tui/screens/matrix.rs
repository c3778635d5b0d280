//! The support-matrix explorer: pick a GPU, see each OS x ROCm release at a glance, and read what
//! the status of the selected cell means.

use crossterm::event::KeyCode;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::super::keymap::Binding;
use super::super::view::{Cx, Ev, Face, Outcome, View};
use super::super::widgets;
use super::super::wrap::{Seg, pad, str_width, truncate, widest, wrap};
use crate::content::Status;

/// What a key does on the support matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Act {
    Move,
    NextGpu,
    PrevGpu,
}

const KEYS: &[Binding<Act>] = &[
    Binding::new(
        &[
            KeyCode::Up,
            KeyCode::Down,
            KeyCode::Left,
            KeyCode::Right,
            KeyCode::Char('k'),
            KeyCode::Char('j'),
            KeyCode::Char('h'),
            KeyCode::Char('l'),
        ],
        "↑↓←→",
        "key-move",
        Act::Move,
    ),
    Binding::new(
        &[KeyCode::Tab, KeyCode::Char(']')],
        "Tab",
        "key-next-gpu",
        Act::NextGpu,
    ),
    Binding::hidden(&[KeyCode::BackTab, KeyCode::Char('[')], Act::PrevGpu),
];

pub struct Matrix {
    gpu: usize,
    os: usize,
    release: usize,
    os_offset: usize,
    /// Where the grid's rows and columns were drawn: (first row y, label width, column width).
    grid: (u16, u16, u16, u16),
    /// The release drawn in the grid's first column (columns scroll to keep the selected one).
    first_release: usize,
}

impl Matrix {
    pub fn new() -> Self {
        Matrix {
            gpu: 0,
            os: 0,
            // The newest release first: it is the one a node is installed with today.
            release: usize::MAX,
            os_offset: 0,
            grid: (0, 0, 0, 0),
            first_release: 0,
        }
    }
}

impl Default for Matrix {
    fn default() -> Self {
        Self::new()
    }
}

impl View for Matrix {
    fn face(&self, cx: &Cx) -> Face {
        Face::new("matrix", cx.t("matrix-title"), KEYS)
    }

    fn handle(&mut self, cx: &mut Cx, ev: &Ev) -> Outcome {
        let m = &cx.course.matrix;
        let (ng, no, nr) = (m.gpus.len(), m.oses.len(), m.releases.len());
        if ng == 0 || no == 0 || nr == 0 {
            return Outcome::Ignored;
        }
        self.release = self.release.min(nr - 1);
        match ev {
            Ev::Key(k) => match (Binding::find(KEYS, k), k.code) {
                (Some(Act::Move), KeyCode::Up | KeyCode::Char('k')) => {
                    self.os = self.os.saturating_sub(1);
                }
                (Some(Act::Move), KeyCode::Down | KeyCode::Char('j')) => {
                    self.os = (self.os + 1).min(no - 1);
                }
                (Some(Act::Move), KeyCode::Left | KeyCode::Char('h')) => {
                    self.release = self.release.saturating_sub(1);
                }
                (Some(Act::Move), _) => self.release = (self.release + 1).min(nr - 1),
                (Some(Act::NextGpu), _) => self.gpu = (self.gpu + 1) % ng,
                (Some(Act::PrevGpu), _) => self.gpu = (self.gpu + ng - 1) % ng,
                (None, _) => return Outcome::Ignored,
            },
            Ev::Click { x, y } => {
                let (top, left, col_w, rows) = self.grid;
                if *y >= top && *y < top + rows && *x >= left && col_w > 0 {
                    self.os = (self.os_offset + (*y - top) as usize).min(no - 1);
                    self.release =
                        (self.first_release + ((*x - left) / col_w) as usize).min(nr - 1);
                }
            }
            Ev::Scroll(d) => {
                self.os = self
                    .os
                    .saturating_add_signed(d.signum() as isize)
                    .min(no - 1);
            }
            _ => return Outcome::Ignored,
        }
        Outcome::Stay
    }

    fn draw(&mut self, cx: &Cx, f: &mut Frame, area: Rect) {
        let m = &cx.course.matrix;
        let inner = widgets::pad_x(area);
        if m.gpus.is_empty() || m.oses.is_empty() || m.releases.is_empty() {
            f.render_widget(Paragraph::new(cx.t("matrix-empty")), inner);
            return;
        }
        if inner.height == 0 {
            return;
        }
        self.gpu = self.gpu.min(m.gpus.len() - 1);
        self.os = self.os.min(m.oses.len() - 1);
        self.release = self.release.min(m.releases.len() - 1);
        // Nothing is drawn below the body: on a short screen the footer is there.
        let bottom = inner.y + inner.height;
        let mut y = inner.y;
        row(f, inner, y, self.gpu_line(cx, inner.width as usize));
        y += 1;
        y += legend(cx, f, inner, y, bottom) + 1;
        if y >= bottom {
            return;
        }
        let y = self.draw_grid(cx, f, inner, y, bottom);
        self.draw_verdict(cx, f, inner, y, bottom);
    }
}

/// Draws `line` on row `y` of `area`.
fn row(f: &mut Frame, area: Rect, y: u16, line: Line) {
    f.render_widget(
        Paragraph::new(line),
        Rect {
            y,
            height: 1,
            ..area
        },
    );
}

/// What the marks mean, in the same marks and colours as the grid: at most two rows from `y`;
/// returns the rows used.
fn legend(cx: &Cx, f: &mut Frame, area: Rect, y: u16, bottom: u16) -> u16 {
    let theme = cx.theme;
    let g = theme.glyphs();
    let mut legend = Vec::new();
    for (sym, st, id) in [
        (g.right, theme.good(), "matrix-supported"),
        ("~", theme.key(), "matrix-deprecated"),
        (g.wrong, theme.bad(), "matrix-unsupported"),
        (g.todo, theme.dim(), "matrix-legend-unlisted"),
    ] {
        legend.push(Seg::new(format!("{sym} "), st));
        legend.push(Seg::new(format!("{}   ", cx.t(id)), theme.dim()));
    }
    let legend = wrap(&legend, area.width as usize, &[], &[]);
    let h = (legend.len() as u16).min(2).min(bottom.saturating_sub(y));
    f.render_widget(
        Paragraph::new(
            legend
                .iter()
                .take(h as usize)
                .map(|l| widgets::to_line(l, None))
                .collect::<Vec<_>>(),
        ),
        Rect {
            y,
            height: h,
            ..area
        },
    );
    h
}

/// The grid's columns: how wide the row labels are, which release comes first, and how many fit.
struct Columns {
    label_w: u16,
    first: usize,
    visible: usize,
}

/// Each release column is this wide.
const COL_W: u16 = 6;

impl Matrix {
    /// The selected GPU: its id and name.
    fn gpu_line(&self, cx: &Cx, w: usize) -> Line<'static> {
        let theme = cx.theme;
        let gpu = &cx.course.matrix.gpus[self.gpu];
        Line::from(vec![
            Span::styled(format!("{} ", theme.glyphs().pointer), theme.key()),
            Span::styled(format!("{}  ", gpu.id), theme.heading(2)),
            Span::raw(truncate(
                &gpu.name,
                w.saturating_sub(str_width(&gpu.id) + 4),
            )),
        ])
    }

    /// The grid from row `y`: the release heading, OS rows (scrolled to keep the selected one in
    /// view) and a sign when rows are hidden below. Returns the row after it.
    fn draw_grid(&mut self, cx: &Cx, f: &mut Frame, inner: Rect, mut y: u16, bottom: u16) -> u16 {
        let m = &cx.course.matrix;
        let label_w =
            widest(m.oses.iter().map(|o| o.name.as_str())).min(inner.width as usize / 2) as u16;
        let visible = ((inner.width.saturating_sub(label_w + 1)) / COL_W).max(1) as usize;
        let cols = Columns {
            label_w,
            first: self.release.saturating_sub(visible - 1),
            visible,
        };
        self.first_release = cols.first;
        row(f, inner, y, self.grid_head(cx, &cols));
        y += 1;
        // Leave room for the verdict below: at least 6 rows.
        let grid_rows = bottom.saturating_sub(y).saturating_sub(7).max(1);
        if self.os < self.os_offset {
            self.os_offset = self.os;
        } else if self.os >= self.os_offset + grid_rows as usize {
            self.os_offset = self.os + 1 - grid_rows as usize;
        }
        self.grid = (y, inner.x + label_w + 1, COL_W, grid_rows);
        for oi in (self.os_offset..m.oses.len()).take(grid_rows as usize) {
            if y >= bottom {
                break;
            }
            row(f, inner, y, self.grid_row(cx, &cols, oi));
            y += 1;
        }
        let hidden_below = m
            .oses
            .len()
            .saturating_sub(self.os_offset + grid_rows as usize);
        if hidden_below > 0 && y < bottom {
            let g = cx.theme.glyphs();
            let more = format!("{} {}", g.down, cx.t("more-below"));
            row(f, inner, y, Line::styled(more, cx.theme.dim()));
        }
        y + 1
    }

    /// The release versions over their columns, the selected one lit; rows scrolled out above
    /// are announced where the row labels start.
    fn grid_head(&self, cx: &Cx, cols: &Columns) -> Line<'static> {
        let theme = cx.theme;
        let label_w = cols.label_w as usize;
        let above = if self.os_offset > 0 {
            truncate(
                &format!("{} {}", theme.glyphs().up, cx.t("more-above")),
                label_w,
            )
        } else {
            String::new()
        };
        let mut head = vec![Span::styled(pad(&above, label_w + 1), theme.dim())];
        for (i, r) in cx
            .course
            .matrix
            .releases
            .iter()
            .enumerate()
            .skip(cols.first)
            .take(cols.visible)
        {
            let st = if i == self.release {
                theme.key()
            } else {
                theme.dim()
            };
            head.push(Span::styled(pad(&r.version, COL_W as usize), st));
        }
        Line::from(head)
    }

    /// OS `oi`'s row: its name, then one mark per visible release; the selected cell lit.
    fn grid_row(&self, cx: &Cx, cols: &Columns, oi: usize) -> Line<'static> {
        let theme = cx.theme;
        let g = theme.glyphs();
        let m = &cx.course.matrix;
        let gpu = &m.gpus[self.gpu];
        let os = &m.oses[oi];
        let mut spans = vec![Span::styled(
            format!("{} ", pad(&os.name, cols.label_w as usize)),
            if oi == self.os {
                theme.key()
            } else {
                theme.text()
            },
        )];
        for (ri, r) in m
            .releases
            .iter()
            .enumerate()
            .skip(cols.first)
            .take(cols.visible)
        {
            let v = m.verdict(&gpu.id, &os.id, &r.version);
            let (sym, st) = match (v.status, v.unlisted) {
                (Status::Supported, _) => (g.right, theme.good()),
                (Status::Deprecated, _) => ("~", theme.key()),
                (Status::Unsupported, true) => (g.todo, theme.dim()),
                (Status::Unsupported, false) => (g.wrong, theme.bad()),
            };
            let cell = pad(&format!("  {sym}"), COL_W as usize);
            let st = if oi == self.os && ri == self.release {
                st.patch(theme.selected())
            } else {
                st
            };
            spans.push(Span::styled(cell, st));
        }
        Line::from(spans)
    }

    /// What the status of the selected cell means, in the rows left from `y`.
    fn draw_verdict(&self, cx: &Cx, f: &mut Frame, inner: Rect, y: u16, bottom: u16) {
        let theme = cx.theme;
        let m = &cx.course.matrix;
        let gpu = &m.gpus[self.gpu];
        let os = &m.oses[self.os];
        let rel = &m.releases[self.release];
        let v = m.verdict(&gpu.id, &os.id, &rel.version);
        let (word, explain) = match v.status {
            Status::Supported => (cx.t("matrix-supported"), cx.t("matrix-supported-means")),
            Status::Deprecated => (cx.t("matrix-deprecated"), cx.t("matrix-deprecated-means")),
            Status::Unsupported => (cx.t("matrix-unsupported"), cx.t("matrix-unsupported-means")),
        };
        let mut text = vec![Line::from(vec![
            Span::raw(cx.i18n.ta(
                "matrix-cell",
                &[
                    ("gpu", gpu.id.as_str().into()),
                    ("os", os.name.as_str().into()),
                    ("release", rel.version.as_str().into()),
                ],
            )),
            Span::styled(word, theme.heading(3)),
        ])];
        if v.unlisted {
            text.push(Line::styled(cx.t("matrix-unlisted"), theme.dim()));
        } else if v.wrong_os {
            text.push(Line::styled(cx.t("matrix-wrong-os"), theme.dim()));
        }
        text.push(Line::raw(explain));
        if let Some(note) = &v.note {
            text.push(Line::styled(cx.loc(note), theme.key()));
        }
        let h = bottom.saturating_sub(y);
        widgets::text_box(
            cx,
            f,
            Rect {
                y,
                height: h,
                ..inner
            },
            &text,
        );
    }
}
