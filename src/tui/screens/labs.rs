//! The lab list: each lab with its state (solved, steps done, not started) and its briefing.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::super::doc;
use super::super::keymap::{self, Binding, ListAct};
use super::super::view::{Cx, Ev, Face, Outcome, View};
use super::super::widgets::{self, Menu};
use super::super::wrap::pad;
use super::lab::LabScreen;
use crate::content::Lab;

/// The keys of the list, for dispatch and for the footer.
const KEYS: &[Binding<ListAct>] = &keymap::list("key-start");

#[derive(Default)]
pub struct Labs {
    menu: Menu,
}

impl Labs {
    pub fn new() -> Self {
        Self::default()
    }
}

impl View for Labs {
    fn face(&self, cx: &Cx) -> Face {
        Face::new("labs", cx.t("home-labs"), KEYS)
    }

    fn handle(&mut self, cx: &mut Cx, ev: &Ev) -> Outcome {
        let n = cx.course.labs.len();
        if n == 0 {
            return Outcome::Ignored;
        }
        self.menu.outcome_in(KEYS, ev, n, |i| {
            Outcome::Push(Box::new(LabScreen::new(&cx.course.labs[i].id)))
        })
    }

    fn draw(&mut self, cx: &Cx, f: &mut Frame, area: Rect) {
        if cx.course.labs.is_empty() {
            let inner = Rect {
                x: area.x + 1,
                y: area.y + 1,
                width: area.width.saturating_sub(2),
                height: area.height.saturating_sub(1),
            };
            f.render_widget(
                Paragraph::new(widgets::wrap_lines(
                    &[Line::raw(cx.t("labs-none"))],
                    inner.width as usize,
                )),
                inner,
            );
            return;
        }
        widgets::list_and_detail(
            cx,
            f,
            area,
            &cx.t("home-labs"),
            &mut self.menu,
            |w| items(cx, w),
            |i, w| cx.course.labs.get(i).map(|lab| detail(cx, lab, w)),
        );
    }
}

/// Each lab, marked solved or started.
fn items(cx: &Cx, w: usize) -> Vec<Line<'static>> {
    let theme = cx.theme;
    let g = theme.glyphs();
    cx.course
        .labs
        .iter()
        .map(|lab| {
            let rec = cx.progress.labs.get(&lab.id);
            let mark = match rec {
                Some(r) if r.completed_at.is_some() => Span::styled(g.right, theme.good()),
                Some(_) => Span::styled(g.bullet, theme.key()),
                None => Span::raw(" "),
            };
            Line::from(vec![
                mark,
                Span::raw(" "),
                Span::raw(pad(&cx.loc(&lab.title), w.saturating_sub(2))),
            ])
        })
        .collect()
}

/// The selected lab: its lesson, briefing (laid out to `w`), and steps, done ones ticked.
fn detail(cx: &Cx, lab: &Lab, w: usize) -> Vec<Line<'static>> {
    let theme = cx.theme;
    let g = theme.glyphs();
    let mut text = vec![
        Line::styled(cx.loc(&lab.title), theme.heading(2)),
        Line::raw(""),
    ];
    if let Some(lesson) = lab.lesson.as_ref().and_then(|l| cx.course.lesson(l)) {
        text.push(Line::styled(
            cx.i18n.ta(
                "lab-from-lesson",
                &[("title", cx.loc(&lesson.title).into())],
            ),
            theme.dim(),
        ));
        text.push(Line::raw(""));
    }
    text.extend(doc::course_text(cx, &lab.briefing, w));
    text.push(Line::raw(""));
    let rec = cx.progress.labs.get(&lab.id);
    for step in &lab.steps {
        let done = rec.is_some_and(|r| r.steps_done.contains(&step.id));
        let (m, st) = if done {
            (g.right, theme.good())
        } else {
            (g.bullet, theme.text())
        };
        text.push(Line::from(vec![
            Span::styled(format!("{m} "), st),
            Span::raw(cx.loc(&step.title)),
        ]));
    }
    text
}
