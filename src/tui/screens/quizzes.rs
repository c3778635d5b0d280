//! The quiz list: questions, best score, and "retry the ones I got wrong".

use crossterm::event::KeyCode;
use ratatui::text::{Line, Span};

use super::super::keymap::{self, Binding, ListAct};
use super::super::view::{Cx, Outcome};
use super::super::wrap::pad;
use super::list::{self, Kind};
use super::quiz::QuizScreen;
use crate::content::{Course, Quiz};
use crate::progress::QuizProgress;

/// A list's keys, where Enter starts a quiz.
const LIST: [Binding<ListAct>; 2] = keymap::list("key-start");

impl Kind for Quiz {
    const ID: &'static str = "quizzes";
    const TITLE: &'static str = "home-quizzes";
    const KEYS: &'static [Binding<ListAct>] = &[
        LIST[0],
        LIST[1],
        Binding::new(
            &[KeyCode::Char('r')],
            "r",
            "key-retry-wrong",
            ListAct::Retry,
        ),
    ];

    fn all(course: &Course) -> &[Self] {
        &course.quizzes
    }

    /// Starts the quiz; a retry asks only the questions last answered wrong (all when none).
    fn open(&self, cx: &Cx, act: ListAct) -> Outcome {
        let only = (act == ListAct::Retry)
            .then(|| {
                cx.progress
                    .quizzes
                    .get(&self.id)
                    .map(QuizProgress::wrong_ids)
            })
            .flatten()
            .filter(|w| !w.is_empty());
        Outcome::Push(Box::new(QuizScreen::new(&self.id, only)))
    }

    /// With its score: the best when all were right, else the last.
    fn line(&self, cx: &Cx, _: usize, w: usize) -> Line<'static> {
        let total = self.questions.len();
        let (done, score) = match cx.progress.quizzes.get(&self.id) {
            Some(r) if r.finished_at.is_some() && r.best_score == total => {
                (Some(true), format!("{}/{total}", r.best_score))
            }
            Some(r) => (Some(false), format!("{}/{total}", r.last_score)),
            None => (None, format!("-/{total}")),
        };
        let title_w = w.saturating_sub(2 + 1 + score.len());
        Line::from(vec![
            list::mark(cx, done),
            Span::raw(" "),
            Span::raw(pad(&cx.loc(&self.title), title_w)),
            Span::raw(" "),
            Span::styled(score, cx.theme.dim()),
        ])
    }

    /// The selected quiz: how many questions, the best score, and how many to retry.
    fn detail(&self, cx: &Cx, _: usize) -> Vec<Line<'static>> {
        let quiz = self;
        let theme = cx.theme;
        let mut text = list::heading(cx, &quiz.title);
        let count = quiz.questions.len();
        text.push(Line::raw(
            cx.i18n.ta("quiz-count", &[("count", count.into())]),
        ));
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
