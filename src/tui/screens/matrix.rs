//! The support-matrix explorer: pick a GPU, see each OS x ROCm release at a glance, and read what
//! the status of the selected cell means.

use crossterm::event::KeyCode;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::super::keymap::{self, Binding};
use super::super::view::{Cx, Ev, Outcome, View};
use super::super::widgets;
use super::super::wrap::{Seg, pad, str_width, truncate, wrap};
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
}

impl Matrix {
    pub fn new() -> Self {
        Matrix {
            gpu: 0,
            os: 0,
            release: 0,
            os_offset: 0,
            grid: (0, 0, 0, 0),
        }
    }
}

impl Default for Matrix {
    fn default() -> Self {
        Self::new()
    }
}

impl View for Matrix {
    fn id(&self) -> &'static str {
        "matrix"
    }

    fn title(&self, cx: &Cx) -> String {
        cx.t("matrix-title")
    }

    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        keymap::hints(KEYS)
    }

    fn handle(&mut self, cx: &mut Cx, ev: &Ev) -> Outcome {
        let m = &cx.course.matrix;
        let (ng, no, nr) = (m.gpus.len(), m.oses.len(), m.releases.len());
        if ng == 0 || no == 0 || nr == 0 {
            return Outcome::Ignored;
        }
        match ev {
            Ev::Key(k) => match (Binding::find(KEYS, k), k.code) {
                (Some(Act::Move), KeyCode::Up | KeyCode::Char('k')) => {
                    self.os = self.os.saturating_sub(1)
                }
                (Some(Act::Move), KeyCode::Down | KeyCode::Char('j')) => {
                    self.os = (self.os + 1).min(no - 1)
                }
                (Some(Act::Move), KeyCode::Left | KeyCode::Char('h')) => {
                    self.release = self.release.saturating_sub(1)
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
                    self.release = (((*x - left) / col_w) as usize).min(nr - 1);
                }
            }
            Ev::Scroll(d) => {
                self.os = self
                    .os
                    .saturating_add_signed(d.signum() as isize)
                    .min(no - 1)
            }
            _ => return Outcome::Ignored,
        }
        Outcome::Stay
    }

    fn draw(&mut self, cx: &Cx, f: &mut Frame, area: Rect) {
        let m = &cx.course.matrix;
        let theme = cx.theme;
        let inner = Rect {
            x: area.x + 1,
            width: area.width.saturating_sub(2),
            ..area
        };
        if m.gpus.is_empty() || m.oses.is_empty() || m.releases.is_empty() {
            f.render_widget(Paragraph::new(cx.t("matrix-empty")), inner);
            return;
        }
        if inner.height == 0 {
            return;
        }
        // Nothing is drawn below the body: on a short screen the footer is there.
        let bottom = inner.y + inner.height;
        self.gpu = self.gpu.min(m.gpus.len() - 1);
        self.os = self.os.min(m.oses.len() - 1);
        self.release = self.release.min(m.releases.len() - 1);
        let g = theme.glyphs();
        let gpu = &m.gpus[self.gpu];
        let w = inner.width as usize;
        let mut y = inner.y;
        let gpu_line = Line::from(vec![
            Span::styled(format!("{} ", g.pointer), theme.key()),
            Span::styled(format!("{}  ", gpu.id), theme.heading(2)),
            Span::raw(truncate(
                &gpu.name,
                w.saturating_sub(str_width(&gpu.id) + 4),
            )),
        ]);
        f.render_widget(
            Paragraph::new(gpu_line),
            Rect {
                y,
                height: 1,
                ..inner
            },
        );
        y += 1;
        // What the marks mean, in the same marks and colours as the grid.
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
        let legend = wrap(&legend, w, &[], &[]);
        let legend_h = (legend.len() as u16).min(2).min(bottom.saturating_sub(y));
        f.render_widget(
            Paragraph::new(
                legend
                    .iter()
                    .take(legend_h as usize)
                    .map(|l| widgets::to_line(l, None))
                    .collect::<Vec<_>>(),
            ),
            Rect {
                y,
                height: legend_h,
                ..inner
            },
        );
        y += legend_h + 1;
        if y >= bottom {
            return;
        }

        // The grid: OS rows, release columns.
        let label_w = m
            .oses
            .iter()
            .map(|o| str_width(&o.name))
            .max()
            .unwrap_or(0)
            .min(w / 2) as u16;
        let col_w = 6u16;
        let visible_cols = ((inner.width.saturating_sub(label_w + 1)) / col_w).max(1) as usize;
        let first_col = self.release.saturating_sub(visible_cols - 1);
        // Rows scrolled out above are announced where the row labels start.
        let above = if self.os_offset > 0 {
            truncate(
                &format!("{} {}", g.up, cx.t("more-above")),
                label_w as usize,
            )
        } else {
            String::new()
        };
        let mut head = vec![Span::styled(pad(&above, label_w as usize + 1), theme.dim())];
        for (i, r) in m
            .releases
            .iter()
            .enumerate()
            .skip(first_col)
            .take(visible_cols)
        {
            let st = if i == self.release {
                theme.key()
            } else {
                theme.dim()
            };
            head.push(Span::styled(pad(&r.version, col_w as usize), st));
        }
        f.render_widget(
            Paragraph::new(Line::from(head)),
            Rect {
                y,
                height: 1,
                ..inner
            },
        );
        y += 1;
        // Leave room for the verdict below: at least 6 rows.
        let grid_rows = bottom.saturating_sub(y).saturating_sub(7).max(1);
        if self.os < self.os_offset {
            self.os_offset = self.os;
        } else if self.os >= self.os_offset + grid_rows as usize {
            self.os_offset = self.os + 1 - grid_rows as usize;
        }
        self.grid = (y, inner.x + label_w + 1, col_w, grid_rows);
        for (oi, os) in m
            .oses
            .iter()
            .enumerate()
            .skip(self.os_offset)
            .take(grid_rows as usize)
        {
            if y >= bottom {
                break;
            }
            let mut spans = vec![Span::styled(
                format!("{} ", pad(&os.name, label_w as usize)),
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
                .skip(first_col)
                .take(visible_cols)
            {
                let v = m.verdict(&gpu.id, &os.id, &r.version);
                let (sym, st) = match (v.status, v.unlisted) {
                    (Status::Supported, _) => (g.right, theme.good()),
                    (Status::Deprecated, _) => ("~", theme.key()),
                    (Status::Unsupported, true) => (g.todo, theme.dim()),
                    (Status::Unsupported, false) => (g.wrong, theme.bad()),
                };
                let cell = pad(&format!("  {sym}"), col_w as usize);
                let st = if oi == self.os && ri == self.release {
                    st.patch(theme.selected())
                } else {
                    st
                };
                spans.push(Span::styled(cell, st));
            }
            f.render_widget(
                Paragraph::new(Line::from(spans)),
                Rect {
                    y,
                    height: 1,
                    ..inner
                },
            );
            y += 1;
        }
        let hidden_below = m
            .oses
            .len()
            .saturating_sub(self.os_offset + grid_rows as usize);
        if hidden_below > 0 && y < bottom {
            f.render_widget(
                Paragraph::new(Line::styled(
                    format!("{} {}", g.down, cx.t("more-below")),
                    theme.dim(),
                )),
                Rect {
                    y,
                    height: 1,
                    ..inner
                },
            );
        }
        y += 1;

        // The verdict of the selected cell.
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
