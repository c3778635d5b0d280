//! A lab: the briefing and a live checklist beside a real shell in the sandbox. Keys go to the
//! shell while its pane has focus (Ctrl-C included); F10 or Ctrl-] gives them back to the app.

use std::collections::HashMap;
use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use tui_term::widget::{Cursor, PseudoTerminal};

use super::super::app::{Cx, Ev, Outcome, Overlay, View};
use super::super::widgets;
use crate::content::Msg;
use crate::lab::keys;
use crate::lab::run::{LabRun, Options};
use crate::progress::{Change, ItemKind};

pub struct LabScreen {
    id: String,
    run: Option<LabRun>,
    error: Option<Msg>,
    focus: bool,
    /// Hints revealed, per step id.
    hints: HashMap<String, usize>,
    hints_used: u32,
    solution: bool,
    recorded_complete: bool,
    side_scroll: usize,
    pane: Rect,
    side: Rect,
    scrollback: usize,
}

impl LabScreen {
    pub fn new(id: &str) -> Self {
        LabScreen {
            id: id.to_string(),
            run: None,
            error: None,
            focus: true,
            hints: HashMap::new(),
            hints_used: 0,
            solution: false,
            recorded_complete: false,
            side_scroll: 0,
            pane: Rect::default(),
            side: Rect::default(),
            scrollback: 0,
        }
    }

    /// Side panel and terminal pane: side by side when wide, else the pane with a status line.
    fn layout(area: Rect) -> (Rect, Rect) {
        if area.width >= 100 {
            let w = (area.width * 2 / 5).clamp(34, 56);
            (
                Rect { width: w, ..area },
                Rect {
                    x: area.x + w,
                    width: area.width - w,
                    ..area
                },
            )
        } else {
            let status = Rect {
                height: 2.min(area.height),
                ..area
            };
            (
                status,
                Rect {
                    y: area.y + status.height,
                    height: area.height - status.height,
                    ..area
                },
            )
        }
    }

    /// The terminal's size inside the pane's border.
    fn inner(pane: Rect) -> (u16, u16) {
        (
            pane.height.saturating_sub(2).max(2),
            pane.width.saturating_sub(2).max(10),
        )
    }

    fn start(&mut self, cx: &Cx) {
        let Some(lab) = cx.course.lab(&self.id) else {
            return;
        };
        let (_, pane) = Self::layout(cx.area);
        let (rows, cols) = Self::inner(pane);
        let Some(exe) = cx.exe.map(|e| e.to_path_buf()) else {
            self.error = Some(Msg::new("lab-start-failed").arg("error", "no rocm-learn binary"));
            return;
        };
        let notify = cx.waker.cloned().unwrap_or_else(|| Arc::new(|| {}));
        let opts = Options {
            exe,
            rows,
            cols,
            relogin: cx.t("lab-relogin"),
            transcript: false,
        };
        match LabRun::start(lab, opts, notify) {
            Ok(run) => self.run = Some(run),
            Err(e) => self.error = Some(e.0),
        }
    }

    /// The first step not done yet: hints and the reason shown are about it.
    fn current_step(&self) -> Option<usize> {
        self.run.as_ref()?.status.iter().position(|s| !s.done)
    }

    fn next_hint(&mut self) {
        let Some(run) = &self.run else { return };
        let Some(i) = self.current_step() else { return };
        let step = &run.lab.steps[i];
        let shown = self.hints.entry(step.id.clone()).or_default();
        if *shown < step.hints.len() {
            *shown += 1;
            self.hints_used += 1;
        }
    }

    fn record(&mut self, cx: &mut Cx, complete_only: bool) {
        let Some(run) = &self.run else { return };
        if complete_only && (!run.complete || self.recorded_complete) {
            return;
        }
        if run.complete {
            self.recorded_complete = true;
        }
        cx.changes.push(Change::Lab {
            id: self.id.clone(),
            steps_done: run.steps_done(),
            complete: run.complete,
            hints: std::mem::take(&mut self.hints_used),
            secs: if complete_only {
                0
            } else {
                run.started.elapsed().as_secs()
            },
            session_over: !complete_only,
        });
    }

    /// The hints revealed so far for the current step, one per line.
    fn hint_text(&self, cx: &Cx) -> Option<String> {
        let run = self.run.as_ref()?;
        let step = &run.lab.steps[self.current_step()?];
        let shown = self.hints.get(&step.id).copied().unwrap_or(0);
        let hints: Vec<String> = step
            .hints
            .iter()
            .take(shown)
            .enumerate()
            .map(|(n, h)| {
                format!(
                    "{}: {}",
                    cx.i18n.ta("lab-hint", &[("n", (n + 1).into())]),
                    cx.loc(h)
                )
            })
            .collect();
        (!hints.is_empty()).then(|| hints.join("\n"))
    }

    fn send(&mut self, bytes: &[u8]) {
        if let Some(run) = &mut self.run {
            let _ = run.shell.write(bytes);
            self.scrollback = 0;
        }
    }

    fn set_scrollback(&mut self, d: isize) {
        let Some(run) = &self.run else { return };
        if let Ok(mut p) = run.shell.screen.lock() {
            self.scrollback = self.scrollback.saturating_add_signed(d);
            p.screen_mut().set_scrollback(self.scrollback);
            // vt100 clamps to what it has: read it back.
            self.scrollback = p.screen().scrollback();
        }
    }

    fn in_rect(r: Rect, x: u16, y: u16) -> bool {
        x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height
    }

    fn actions(&mut self, cx: &Cx, k: &KeyEvent) -> Option<Outcome> {
        match k.code {
            KeyCode::F(1) => Some(Outcome::Overlay(Overlay::Help)),
            KeyCode::F(2) => {
                self.next_hint();
                // A narrow screen has no room beside the terminal: show the hints over it.
                if self.side.width == 0
                    && let Some(text) = self.hint_text(cx)
                {
                    return Some(Outcome::Overlay(Overlay::Notice(text)));
                }
                Some(Outcome::Stay)
            }
            KeyCode::F(3) => {
                self.solution = !self.solution;
                if self.side.width == 0 {
                    self.solution = false;
                    let lab = cx.course.lab(&self.id)?;
                    let mut text = cx.loc(&lab.solution);
                    for c in &lab.solution_commands {
                        text.push_str("\n  ");
                        text.push_str(c);
                    }
                    return Some(Outcome::Overlay(Overlay::Notice(text)));
                }
                Some(Outcome::Stay)
            }
            KeyCode::F(5) => Some(Outcome::Overlay(Overlay::Ask {
                text: cx.t("lab-reset-ask"),
                tag: "reset",
            })),
            _ => None,
        }
    }
}

impl View for LabScreen {
    fn id(&self) -> &'static str {
        "lab"
    }

    fn title(&self, cx: &Cx) -> String {
        cx.course
            .lab(&self.id)
            .map(|l| cx.loc(&l.title))
            .unwrap_or_default()
    }

    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        if self.focus && self.run.is_some() {
            vec![
                ("F10", "key-leave-terminal"),
                ("F2", "key-hint"),
                ("F3", "key-solution"),
                ("F5", "key-reset"),
            ]
        } else {
            vec![
                ("Enter", "key-focus-terminal"),
                ("F2", "key-hint"),
                ("F3", "key-solution"),
                ("F5", "key-reset"),
                ("q", "key-back"),
            ]
        }
    }

    fn captures_input(&self) -> bool {
        self.focus && self.run.is_some()
    }

    fn enter(&mut self, cx: &mut Cx) {
        crate::tui::app::opened(cx, ItemKind::Lab, &self.id);
        self.start(cx);
    }

    fn handle(&mut self, cx: &mut Cx, ev: &Ev) -> Outcome {
        match ev {
            Ev::Tick => {
                if let Some(run) = &mut self.run {
                    run.pump();
                }
                self.record(cx, true);
                Outcome::Stay
            }
            Ev::Confirmed("reset") => {
                if let Some(run) = &mut self.run
                    && let Err(e) = run.reset()
                {
                    self.error = Some(e.0);
                    self.run = None;
                }
                self.hints.clear();
                self.solution = false;
                self.recorded_complete = false;
                self.focus = true;
                Outcome::Stay
            }
            Ev::Key(k) if self.focus && self.run.is_some() => {
                let leave = k.code == KeyCode::F(10)
                    || (k.code == KeyCode::Char(']')
                        && k.modifiers.contains(KeyModifiers::CONTROL));
                if leave {
                    self.focus = false;
                    return Outcome::Stay;
                }
                if let Some(o) = self.actions(cx, k) {
                    return o;
                }
                let app_cursor = self
                    .run
                    .as_ref()
                    .and_then(|r| {
                        r.shell
                            .screen
                            .lock()
                            .ok()
                            .map(|p| p.screen().application_cursor())
                    })
                    .unwrap_or(false);
                if let Some(bytes) = keys::encode(k, app_cursor) {
                    self.send(&bytes);
                }
                Outcome::Stay
            }
            Ev::Key(k) => {
                if let Some(o) = self.actions(cx, k) {
                    return o;
                }
                match k.code {
                    KeyCode::Enter | KeyCode::Tab | KeyCode::Char('i') if self.run.is_some() => {
                        self.focus = true;
                        Outcome::Stay
                    }
                    KeyCode::Down | KeyCode::Char('j') | KeyCode::PageDown => {
                        self.side_scroll += if k.code == KeyCode::PageDown { 10 } else { 1 };
                        Outcome::Stay
                    }
                    KeyCode::Up | KeyCode::Char('k') | KeyCode::PageUp => {
                        self.side_scroll = self
                            .side_scroll
                            .saturating_sub(if k.code == KeyCode::PageUp { 10 } else { 1 });
                        Outcome::Stay
                    }
                    _ => Outcome::Ignored,
                }
            }
            Ev::Paste(text) if self.focus => {
                let bracketed = self
                    .run
                    .as_ref()
                    .and_then(|r| {
                        r.shell
                            .screen
                            .lock()
                            .ok()
                            .map(|p| p.screen().bracketed_paste())
                    })
                    .unwrap_or(false);
                self.send(&keys::paste(text, bracketed));
                Outcome::Stay
            }
            Ev::Click { x, y } => {
                self.focus = self.run.is_some() && Self::in_rect(self.pane, *x, *y);
                Outcome::Stay
            }
            Ev::Scroll(d) => {
                // The wheel over the terminal scrolls its history; elsewhere the briefing.
                if self.run.is_some() && (self.focus || self.side.width == 0) {
                    self.set_scrollback(-(*d as isize));
                } else {
                    self.side_scroll = self.side_scroll.saturating_add_signed(*d as isize);
                }
                Outcome::Stay
            }
            _ => Outcome::Ignored,
        }
    }

    fn draw(&mut self, cx: &Cx, f: &mut Frame, area: Rect) {
        let theme = cx.theme;
        if let Some(err) = &self.error {
            let inner = Rect {
                x: area.x + 1,
                y: area.y + 1,
                width: area.width.saturating_sub(2),
                height: area.height.saturating_sub(1),
            };
            let text = vec![
                Line::styled(cx.t("lab-cannot-start"), theme.bad()),
                Line::raw(""),
                Line::raw(cx.i18n.msg(err)),
            ];
            f.render_widget(
                Paragraph::new(widgets::wrap_lines(&text, inner.width as usize)),
                inner,
            );
            return;
        }
        let Some(lab) = cx.course.lab(&self.id) else {
            return;
        };
        let (side, pane) = Self::layout(area);
        self.pane = pane;
        self.side = if area.width >= 100 {
            side
        } else {
            Rect::default()
        };
        let g = theme.glyphs();

        // The checklist and what to do next, wrapped piece by piece so items keep their indent.
        let wide = area.width >= 100;
        let w = if wide {
            side.width.saturating_sub(2)
        } else {
            side.width
        } as usize;
        let mut lines: Vec<Line> = Vec::new();
        let para =
            |lines: &mut Vec<Line<'static>>, l: Line| lines.extend(widgets::wrap_lines(&[l], w));
        let status = self
            .run
            .as_ref()
            .map(|r| r.status.clone())
            .unwrap_or_default();
        let complete = self.run.as_ref().is_some_and(|r| r.complete);
        let current = self.current_step();
        let feedback = |i: usize| {
            self.run
                .as_ref()
                .and_then(|r| r.feedback(i))
                .map(|m| cx.i18n.msg(m))
        };
        if wide {
            para(
                &mut lines,
                Line::styled(cx.loc(&lab.title), theme.heading(2)),
            );
            lines.push(Line::raw(""));
            for p in cx.loc(&lab.briefing).trim().split("\n\n") {
                para(&mut lines, Line::raw(p.replace('\n', " ")));
                lines.push(Line::raw(""));
            }
            para(
                &mut lines,
                Line::styled(cx.t("lab-checklist"), theme.heading(3)),
            );
            for (i, (step, st)) in lab.steps.iter().zip(status.iter()).enumerate() {
                let (mark, style) = if st.done {
                    (g.right, theme.good())
                } else {
                    (g.bullet, theme.text())
                };
                lines.extend(widgets::item(mark, style, &cx.loc(&step.title), style, w));
                if Some(i) == current
                    && let Some(why) = feedback(i)
                {
                    lines.extend(widgets::wrap_indented(&why, theme.key(), w, 2));
                }
            }
        } else {
            // Narrow: the marks and the current reason on top; the rest is behind F2/F3.
            let marks: String = status
                .iter()
                .map(|s| if s.done { g.right } else { "·" })
                .collect::<Vec<_>>()
                .join("");
            let why = current.and_then(feedback).unwrap_or_default();
            para(
                &mut lines,
                Line::from(vec![
                    Span::styled(format!("{marks} "), theme.key()),
                    Span::raw(why),
                ]),
            );
        }
        if complete {
            if wide {
                lines.push(Line::raw(""));
            }
            para(&mut lines, Line::styled(cx.t("lab-complete"), theme.good()));
        }
        if let Some(i) = current {
            let step = &lab.steps[i];
            let shown = self.hints.get(&step.id).copied().unwrap_or(0);
            for (n, h) in step.hints.iter().take(shown).enumerate() {
                lines.push(Line::raw(""));
                para(
                    &mut lines,
                    Line::styled(
                        cx.i18n.ta("lab-hint", &[("n", (n + 1).into())]),
                        theme.dim(),
                    ),
                );
                para(&mut lines, Line::raw(cx.loc(h)));
            }
        }
        if self.solution {
            lines.push(Line::raw(""));
            para(
                &mut lines,
                Line::styled(cx.t("lab-solution"), theme.heading(3)),
            );
            para(&mut lines, Line::raw(cx.loc(&lab.solution)));
            for c in &lab.solution_commands {
                lines.extend(widgets::wrap_indented(c, theme.code(), w, 2));
            }
        }
        let inner = if wide {
            Rect {
                x: side.x + 1,
                width: side.width.saturating_sub(2),
                ..side
            }
        } else {
            side
        };
        self.side_scroll = self.side_scroll.min(lines.len().saturating_sub(1));
        let visible: Vec<Line> = lines
            .into_iter()
            .skip(self.side_scroll)
            .take(inner.height as usize)
            .collect();
        f.render_widget(Paragraph::new(visible), inner);

        // The terminal.
        let Some(run) = &mut self.run else { return };
        let (rows, cols) = Self::inner(pane);
        run.shell.resize(rows, cols);
        let title = if self.focus {
            cx.t("lab-terminal-focused")
        } else {
            cx.t("lab-terminal")
        };
        let mut block = widgets::block(theme, &title);
        if self.focus {
            block = block.border_style(theme.key());
        }
        let Ok(parser) = run.shell.screen.lock() else {
            return;
        };
        let screen = parser.screen();
        let term = PseudoTerminal::new(screen)
            .block(block)
            .cursor(Cursor::default().visibility(false));
        f.render_widget(term, pane);
        // The real cursor at the shell's, so input methods compose where the text goes.
        if self.focus && self.scrollback == 0 && !screen.hide_cursor() {
            let (r, c) = screen.cursor_position();
            f.set_cursor_position(Position::new(pane.x + 1 + c, pane.y + 1 + r));
        }
    }

    fn leave(&mut self, cx: &mut Cx) {
        self.record(cx, false);
        if let Some(run) = &mut self.run {
            run.shell.kill();
        }
    }
}
