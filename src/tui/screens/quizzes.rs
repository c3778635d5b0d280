//! The quiz list: questions, best score, and "retry the ones I got wrong".

use crossterm::event::KeyCode;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::super::keymap::{Binding, LIST_MOVE, LIST_OPEN};
use super::super::view::{Cx, Ev, Face, Outcome, View};
use super::super::widgets::{self, Menu};
use super::super::wrap::pad;
use super::quiz::QuizScreen;
use crate::content::Quiz;
use crate::progress::QuizProgress;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Act {
    List,
    RetryWrong,
}

/// The keys of the quiz list, for dispatch and for the footer.
const KEYS: &[Binding<Act>] = &[
    Binding::new(LIST_MOVE, "↑↓", "key-move", Act::List),
    Binding::new(LIST_OPEN, "Enter", "key-start", Act::List),
    Binding::new(
        &[KeyCode::Char('r')],
        "r",
        "key-retry-wrong",
        Act::RetryWrong,
    ),
];

#[derive(Default)]
pub struct Quizzes {
    menu: Menu,
}

impl Quizzes {
    pub fn new() -> Self {
        Self::default()
    }
}

impl View for Quizzes {
    fn face(&self, cx: &Cx) -> Face {
        Face::new("quizzes", cx.t("home-quizzes"), KEYS)
    }

    fn handle(&mut self, cx: &mut Cx, ev: &Ev) -> Outcome {
        let n = cx.course.quizzes.len();
        if n == 0 {
            return Outcome::Ignored;
        }
        let start = |i: usize, cx: &Cx, retry: bool| {
            let quiz = &cx.course.quizzes[i];
            let only = retry
                .then(|| {
                    cx.progress
                        .quizzes
                        .get(&quiz.id)
                        .map(crate::progress::QuizProgress::wrong_ids)
                })
                .flatten()
                .filter(|w| !w.is_empty());
            Outcome::Push(Box::new(QuizScreen::new(&quiz.id, only)))
        };
        if let Ev::Key(k) = ev
            && Binding::find(KEYS, k) == Some(Act::RetryWrong)
        {
            self.menu.clamp(n);
            return start(self.menu.selected, cx, true);
        }
        self.menu.outcome_in(KEYS, ev, n, |i| start(i, cx, false))
    }

    fn draw(&mut self, cx: &Cx, f: &mut Frame, area: Rect) {
        widgets::list_and_detail(
            cx,
            f,
            area,
            &cx.t("home-quizzes"),
            &mut self.menu,
            |w| items(cx, w),
            |i, _| cx.course.quizzes.get(i).map(|q| detail(cx, q)),
        );
    }
}

/// Each quiz with its score: the best when all were right, else the last.
fn items(cx: &Cx, w: usize) -> Vec<Line<'static>> {
    let theme = cx.theme;
    let g = theme.glyphs();
    cx.course
        .quizzes
        .iter()
        .map(|q| {
            let rec = cx.progress.quizzes.get(&q.id);
            let (mark, score) = match rec {
                Some(r) if r.finished_at.is_some() && r.best_score == q.questions.len() => (
                    Span::styled(g.right, theme.good()),
                    format!("{}/{}", r.best_score, q.questions.len()),
                ),
                Some(r) => (
                    Span::styled(g.bullet, theme.key()),
                    format!("{}/{}", r.last_score, q.questions.len()),
                ),
                None => (Span::raw(" "), format!("-/{}", q.questions.len())),
            };
            let title_w = w.saturating_sub(2 + 1 + score.len());
            Line::from(vec![
                mark,
                Span::raw(" "),
                Span::raw(pad(&cx.loc(&q.title), title_w)),
                Span::raw(" "),
                Span::styled(score, theme.dim()),
            ])
        })
        .collect()
}

/// The selected quiz: how many questions, the best score, and how many to retry.
fn detail(cx: &Cx, quiz: &Quiz) -> Vec<Line<'static>> {
    let theme = cx.theme;
    let mut text = vec![
        Line::styled(cx.loc(&quiz.title), theme.heading(2)),
        Line::raw(""),
        Line::raw(
            cx.i18n
                .ta("quiz-count", &[("count", quiz.questions.len().into())]),
        ),
    ];
    if let Some(rec) = cx.progress.quizzes.get(&quiz.id) {
        text.push(Line::raw(best_score(cx, rec, quiz)));
        let wrong = rec.wrong_ids().len();
        if wrong > 0 {
            text.push(Line::raw(""));
            text.push(Line::styled(
                cx.i18n
                    .ta("quiz-wrong-to-retry", &[("count", wrong.into())]),
                theme.key(),
            ));
        }
    }
    text
}

/// "Best: 5/8 (3 attempts)".
pub fn best_score(cx: &Cx, rec: &QuizProgress, quiz: &Quiz) -> String {
    cx.i18n.ta(
        "quiz-best",
        &[
            ("best", rec.best_score.into()),
            ("total", quiz.questions.len().into()),
            ("attempts", rec.attempts.into()),
        ],
    )
}
