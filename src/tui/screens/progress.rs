//! Progress: how far the learner got, per item, with reset (one item or all) after confirmation.

use crossterm::event::KeyCode;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::super::keymap::{Binding, LIST_MOVE};
use super::super::view::{Cx, Ev, Face, Outcome, Overlay, View};
use super::super::widgets::{self, Menu};
use super::super::wrap::{pad, str_width};
use crate::progress::{Change, ItemKind, Place};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Act {
    Move,
    ResetOne,
    ResetAll,
}

/// The keys of the progress list, for dispatch and for the footer.
const KEYS: &[Binding<Act>] = &[
    Binding::new(LIST_MOVE, "↑↓", "key-move", Act::Move),
    Binding::new(&[KeyCode::Char('x')], "x", "key-reset-one", Act::ResetOne),
    Binding::new(&[KeyCode::Char('X')], "X", "key-reset-all", Act::ResetAll),
];

#[derive(Default)]
pub struct ProgressScreen {
    menu: Menu,
}

impl ProgressScreen {
    pub fn new() -> Self {
        Self::default()
    }
}

/// Every item of the course with its title and status line.
fn rows(cx: &Cx) -> Vec<(Place, String, String)> {
    let c = cx.course;
    let row = |kind, id: &str, title, status| {
        let place = Place {
            kind,
            id: id.to_string(),
        };
        (place, cx.loc(title), status)
    };
    let lessons = c.lessons.iter().map(|l| {
        let status = super::lessons::lesson_status(cx, &l.id);
        row(ItemKind::Lesson, &l.id, &l.title, status)
    });
    let quizzes = c.quizzes.iter().map(|q| {
        let status = match cx.progress.quizzes.get(&q.id) {
            Some(r) => super::quizzes::best_score(cx, r, q),
            None => cx.t("quiz-status-new"),
        };
        row(ItemKind::Quiz, &q.id, &q.title, status)
    });
    let labs = c.labs.iter().map(|lab| {
        let status = match cx.progress.labs.get(&lab.id) {
            Some(r) if r.completed_at.is_some() => cx.t("lab-status-solved"),
            Some(r) => cx.i18n.ta(
                "lab-status-steps",
                &[
                    ("done", r.steps_done.len().into()),
                    ("total", lab.steps.len().into()),
                ],
            ),
            None => cx.t("lab-status-new"),
        };
        row(ItemKind::Lab, &lab.id, &lab.title, status)
    });
    lessons.chain(quizzes).chain(labs).collect()
}

impl View for ProgressScreen {
    fn face(&self, cx: &Cx) -> Face {
        Face::new("progress", cx.t("home-progress"), KEYS)
    }

    fn handle(&mut self, cx: &mut Cx, ev: &Ev) -> Outcome {
        let rows = rows(cx);
        let act = match ev {
            Ev::Key(k) => Binding::find(KEYS, k),
            _ => None,
        };
        match ev {
            Ev::Key(k) if act == Some(Act::Move) => {
                self.menu.nav(k.code, rows.len());
                Outcome::Stay
            }
            Ev::Key(_) if act == Some(Act::ResetOne) => match rows.get(self.menu.selected) {
                Some((place, title, _)) => Outcome::Overlay(Overlay::Confirm {
                    text: cx
                        .i18n
                        .ta("progress-reset-one", &[("title", title.as_str().into())]),
                    change: Change::Reset(Some(place.clone())),
                }),
                None => Outcome::Stay,
            },
            Ev::Key(_) if act == Some(Act::ResetAll) => Outcome::Overlay(Overlay::Confirm {
                text: cx.t("progress-reset-all"),
                change: Change::Reset(None),
            }),
            Ev::Click { x, y } => {
                if let Some(i) = self.menu.hit(*x, *y, rows.len()) {
                    self.menu.selected = i;
                }
                Outcome::Stay
            }
            Ev::Scroll(d) => {
                if *d > 0 {
                    self.menu.down(rows.len());
                } else {
                    self.menu.up();
                }
                Outcome::Stay
            }
            _ => Outcome::Ignored,
        }
    }

    fn draw(&mut self, cx: &Cx, f: &mut Frame, area: Rect) {
        let theme = cx.theme;
        let inner = widgets::pad_x(area);
        let w = inner.width as usize;
        let p = cx.progress;
        let c = cx.course;
        let tally = p.tally(c);
        let asked: usize = c.quizzes.iter().map(|q| q.questions.len()).sum();
        let right: usize = c
            .quizzes
            .iter()
            .filter_map(|q| p.quizzes.get(&q.id))
            .map(crate::progress::QuizProgress::right_count)
            .sum();
        let gauges = [
            (cx.t("home-lessons"), tally.lessons_read, c.lessons.len()),
            (cx.t("home-quizzes"), tally.quizzes_done, c.quizzes.len()),
            (cx.t("progress-questions-right"), right, asked),
            (cx.t("home-labs"), tally.labs_done, c.labs.len()),
        ];
        let Some(y) = widgets::gauges(f, theme, inner, &gauges) else {
            return;
        };
        let y = y + 1;
        let rows = rows(cx);
        let title_w = rows
            .iter()
            .map(|r| str_width(&r.1))
            .max()
            .unwrap_or(0)
            .min(w / 2);
        let items: Vec<Line<'static>> = rows
            .into_iter()
            .map(|(_, title, status)| {
                Line::from(vec![
                    Span::raw(pad(&title, title_w)),
                    Span::raw("  "),
                    Span::styled(pad(&status, w.saturating_sub(title_w + 2)), theme.dim()),
                ])
            })
            .collect();
        let list = Rect {
            y,
            height: (inner.y + inner.height).saturating_sub(y),
            ..inner
        };
        self.menu.draw(f, list, items, theme.selected());
    }
}
