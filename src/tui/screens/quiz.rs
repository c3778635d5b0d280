//! Taking a quiz: one question at a time, choose with arrows, a number or letter, or the mouse;
//! confirm; see why your choice is right or wrong (and why the right one is right); a results page
//! with "retry only the ones I got wrong". Results go to progress, partial runs included.

use std::time::Instant;

use crossterm::event::KeyCode;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use super::super::app::{self, Cx, Ev, Outcome, View};
use super::super::widgets;
use super::super::wrap::{Seg, wrap};
use crate::content::Quiz;
use crate::progress::{Change, ItemKind};
use crate::quiz::{QuizRun, Verdict, parse_answer};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Asking,
    Answered(Verdict),
    Results,
}

pub struct QuizScreen {
    quiz: String,
    /// Question ids to ask (a retry), or all.
    only: Option<Vec<String>>,
    run: Option<QuizRun>,
    cursor: usize,
    phase: Phase,
    scroll: usize,
    /// Line ranges of the options in the laid-out page, for clicks and keeping the cursor visible.
    option_lines: Vec<(usize, usize)>,
    area: Rect,
    started: Instant,
    recorded: bool,
}

impl QuizScreen {
    pub fn new(quiz: &str, only: Option<Vec<String>>) -> Self {
        QuizScreen {
            quiz: quiz.to_string(),
            only,
            run: None,
            cursor: 0,
            phase: Phase::Asking,
            scroll: 0,
            option_lines: Vec::new(),
            area: Rect::default(),
            started: Instant::now(),
            recorded: false,
        }
    }

    fn quiz<'c>(&self, cx: &Cx<'c>) -> Option<&'c Quiz> {
        cx.course.quiz(&self.quiz)
    }

    fn run_mut(&mut self, quiz: &Quiz) -> &mut QuizRun {
        let only = self.only.clone();
        self.run.get_or_insert_with(|| match &only {
            Some(ids) => QuizRun::only(quiz, ids),
            None => QuizRun::new(quiz),
        })
    }

    fn confirm(&mut self, quiz: &Quiz) {
        let cursor = self.cursor;
        if let Some(v) = self.run_mut(quiz).answer(quiz, cursor) {
            self.phase = Phase::Answered(v);
        }
    }

    fn next(&mut self, cx: &mut Cx, quiz: &Quiz) {
        self.cursor = 0;
        self.scroll = 0;
        if self.run_mut(quiz).is_finished() {
            self.phase = Phase::Results;
            self.record(cx, quiz);
        } else {
            self.phase = Phase::Asking;
        }
    }

    fn record(&mut self, cx: &mut Cx, quiz: &Quiz) {
        let Some(run) = &self.run else { return };
        if self.recorded || run.answered() == 0 {
            return;
        }
        self.recorded = true;
        cx.changes.push(Change::Quiz {
            result: run.result(quiz, cx.lang()),
            quiz_total: quiz.questions.len(),
            secs: self.started.elapsed().as_secs(),
        });
    }

    /// Lays out the page for the current phase: lines, and where each option is.
    fn layout(&mut self, cx: &Cx, quiz: &Quiz, width: usize) -> Vec<Vec<Seg>> {
        let theme = cx.theme;
        let g = theme.glyphs();
        let run = self.run.clone().unwrap_or_else(|| QuizRun::new(quiz));
        let mut lines: Vec<Vec<Seg>> = Vec::new();
        self.option_lines.clear();
        let plain = |s: String, st: Style| vec![Seg::new(s, st)];

        if self.phase == Phase::Results {
            let score = run.score(quiz);
            let total = run.order.len();
            lines.push(plain(
                cx.i18n.ta(
                    "quiz-score",
                    &[("score", score.into()), ("total", total.into())],
                ),
                theme.heading(2),
            ));
            lines.push(Vec::new());
            let gauge = widgets::gauge(theme, "", 0, score, total, width.min(50));
            lines.push(
                gauge
                    .spans
                    .iter()
                    .map(|s| Seg::new(s.content.to_string(), s.style))
                    .collect(),
            );
            lines.push(Vec::new());
            for (&qi, a) in run.order.iter().zip(&run.answers) {
                let q = &quiz.questions[qi];
                let right = *a == Some(q.answer);
                let mark = if right {
                    Seg::new(format!("{} ", g.right), theme.good())
                } else {
                    Seg::new(format!("{} ", g.wrong), theme.bad())
                };
                lines.extend(wrap(
                    &[Seg::new(cx.loc(&q.prompt), theme.text())],
                    width,
                    &[mark],
                    &[Seg::new("  ", Style::new())],
                ));
            }
            lines.push(Vec::new());
            let wrong = run.wrong_ids(quiz).len();
            let hint = if wrong > 0 {
                cx.i18n
                    .ta("quiz-results-keys-wrong", &[("count", wrong.into())])
            } else {
                cx.t("quiz-results-keys")
            };
            lines.extend(wrap(&[Seg::new(hint, theme.key())], width, &[], &[]));
            return lines;
        }

        // While a verdict shows, the page is about the question just answered.
        let pos = match self.phase {
            Phase::Answered(_) => run.answers.iter().rposition(Option::is_some),
            _ => run.position(),
        };
        let Some(pos) = pos else {
            return lines;
        };
        let q = &quiz.questions[run.order[pos]];
        // Header with a dot per question: right, wrong, or still to come.
        let mut head = vec![Seg::new(
            cx.i18n.ta(
                "quiz-question-of",
                &[("n", (pos + 1).into()), ("total", run.order.len().into())],
            ),
            theme.title(),
        )];
        head.push(Seg::new("  ", Style::new()));
        for (&qi, a) in run.order.iter().zip(&run.answers) {
            let (s, st) = match a {
                Some(c) if *c == quiz.questions[qi].answer => (g.right, theme.good()),
                Some(_) => (g.wrong, theme.bad()),
                None => ("·", theme.dim()),
            };
            head.push(Seg::new(s, st));
        }
        lines.extend(wrap(&head, width, &[], &[]));
        lines.push(Vec::new());
        lines.extend(wrap(
            &[Seg::new(
                cx.loc(&q.prompt),
                theme.text().add_modifier(ratatui::style::Modifier::BOLD),
            )],
            width,
            &[],
            &[],
        ));
        if let Some(ex) = &q.excerpt {
            lines.push(Vec::new());
            let bar = Seg::new(format!("{} ", g.v), theme.dim());
            for l in ex.lines() {
                lines.extend(wrap(
                    &[Seg::new(l, theme.code())],
                    width,
                    std::slice::from_ref(&bar),
                    std::slice::from_ref(&bar),
                ));
            }
        }
        lines.push(Vec::new());
        let verdict = match self.phase {
            Phase::Answered(v) => Some(v),
            _ => None,
        };
        for (i, o) in q.options.iter().enumerate() {
            let (mark, style) = match verdict {
                Some(v) if i == v.answer => (format!("{} ", g.right), theme.good()),
                Some(v) if i == v.chosen => (format!("{} ", g.wrong), theme.bad()),
                Some(_) => ("  ".to_string(), theme.dim()),
                None if i == self.cursor => (format!("{} ", g.pointer), theme.selected()),
                None => ("  ".to_string(), theme.text()),
            };
            let first = vec![
                Seg::new(mark, style),
                Seg::new(format!("{}) ", i + 1), theme.key()),
            ];
            let start = lines.len();
            lines.extend(wrap(
                &[Seg::new(cx.loc(&o.text), style)],
                width,
                &first,
                &[Seg::new("     ", Style::new())],
            ));
            self.option_lines.push((start, lines.len()));
        }
        if let Some(v) = verdict {
            lines.push(Vec::new());
            let chosen = &q.options[v.chosen];
            let indent = [Seg::new("  ", Style::new())];
            let (id, st) = if v.is_right() {
                ("quiz-right", theme.good())
            } else {
                ("quiz-wrong", theme.bad())
            };
            let head = cx.i18n.ta(
                id,
                &[
                    ("n", (v.chosen + 1).into()),
                    ("option", cx.loc(&chosen.text).into()),
                ],
            );
            lines.extend(wrap(&[Seg::new(head, st)], width, &[], &indent));
            lines.extend(wrap(
                &[Seg::new(cx.loc(&chosen.why), theme.text())],
                width,
                &indent,
                &indent,
            ));
            if !v.is_right() {
                let right = &q.options[v.answer];
                lines.push(Vec::new());
                let head = cx.i18n.ta(
                    "quiz-right-was",
                    &[
                        ("n", (v.answer + 1).into()),
                        ("option", cx.loc(&right.text).into()),
                    ],
                );
                lines.extend(wrap(&[Seg::new(head, theme.good())], width, &[], &indent));
                lines.extend(wrap(
                    &[Seg::new(cx.loc(&right.why), theme.text())],
                    width,
                    &indent,
                    &indent,
                ));
            }
            lines.push(Vec::new());
            let key = if run.is_finished() {
                "quiz-see-results"
            } else {
                "quiz-next"
            };
            lines.push(vec![Seg::new(cx.t(key), theme.key())]);
        }
        lines
    }
}

impl View for QuizScreen {
    fn id(&self) -> &'static str {
        "quiz"
    }

    fn title(&self, cx: &Cx) -> String {
        self.quiz(cx).map(|q| cx.loc(&q.title)).unwrap_or_default()
    }

    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        match self.phase {
            Phase::Asking => vec![
                ("↑↓/1-9", "key-choose"),
                ("Enter", "key-confirm"),
                ("q", "key-back"),
            ],
            Phase::Answered(_) => vec![
                ("Enter", "key-continue"),
                ("↑↓", "key-scroll"),
                ("q", "key-back"),
            ],
            Phase::Results => vec![
                ("r", "key-retry-wrong"),
                ("a", "key-again"),
                ("q", "key-back"),
            ],
        }
    }

    fn enter(&mut self, cx: &mut Cx) {
        app::opened(cx, ItemKind::Quiz, &self.quiz);
    }

    fn handle(&mut self, cx: &mut Cx, ev: &Ev) -> Outcome {
        let Some(quiz) = self.quiz(cx) else {
            return Outcome::Ignored;
        };
        let run = self.run_mut(quiz).clone();
        let n_opts = run
            .current()
            .map(|qi| quiz.questions[qi].options.len())
            .unwrap_or(0);
        match (self.phase, ev) {
            (Phase::Asking, Ev::Key(k)) => match k.code {
                KeyCode::Up | KeyCode::Char('k') => {
                    self.cursor = self.cursor.saturating_sub(1);
                    Outcome::Stay
                }
                KeyCode::Down | KeyCode::Char('j') => {
                    self.cursor = (self.cursor + 1).min(n_opts.saturating_sub(1));
                    Outcome::Stay
                }
                KeyCode::Enter | KeyCode::Char(' ') => {
                    self.confirm(quiz);
                    Outcome::Stay
                }
                KeyCode::Char(c) => match parse_answer(&c.to_string(), n_opts) {
                    Ok(i) => {
                        self.cursor = i;
                        Outcome::Stay
                    }
                    Err(_) => Outcome::Ignored,
                },
                // Left/h/Backspace would abandon the quiz by accident; only q or Esc leave.
                KeyCode::Left | KeyCode::Backspace => Outcome::Stay,
                _ => Outcome::Ignored,
            },
            (Phase::Asking, Ev::Click { x, y }) => {
                if let Some(i) = self.option_at(*x, *y) {
                    if i == self.cursor {
                        self.confirm(quiz);
                    } else {
                        self.cursor = i;
                    }
                }
                Outcome::Stay
            }
            (Phase::Answered(_), Ev::Key(k)) => match k.code {
                KeyCode::Enter | KeyCode::Char(' ') | KeyCode::Right | KeyCode::Char('n') => {
                    self.next(cx, quiz);
                    Outcome::Stay
                }
                KeyCode::Down | KeyCode::Char('j') | KeyCode::PageDown => {
                    self.scroll += 1;
                    Outcome::Stay
                }
                KeyCode::Up | KeyCode::Char('k') | KeyCode::PageUp => {
                    self.scroll = self.scroll.saturating_sub(1);
                    Outcome::Stay
                }
                KeyCode::Left | KeyCode::Backspace | KeyCode::Char('h') => Outcome::Stay,
                _ => Outcome::Ignored,
            },
            (Phase::Answered(_), Ev::Click { .. }) => {
                self.next(cx, quiz);
                Outcome::Stay
            }
            (Phase::Results, Ev::Key(k)) => match k.code {
                KeyCode::Char('r') => {
                    let wrong = run.wrong_ids(quiz);
                    if wrong.is_empty() {
                        Outcome::Stay
                    } else {
                        Outcome::Replace(Box::new(QuizScreen::new(&self.quiz, Some(wrong))))
                    }
                }
                KeyCode::Char('a') => Outcome::Replace(Box::new(QuizScreen::new(&self.quiz, None))),
                KeyCode::Enter => Outcome::Pop,
                _ => Outcome::Ignored,
            },
            (_, Ev::Scroll(d)) => {
                self.scroll = self.scroll.saturating_add_signed(*d as isize);
                Outcome::Stay
            }
            _ => Outcome::Ignored,
        }
    }

    fn draw(&mut self, cx: &Cx, f: &mut Frame, area: Rect) {
        let Some(quiz) = self.quiz(cx) else { return };
        self.run_mut(quiz);
        let inner = Rect {
            x: area.x + 1,
            width: area
                .width
                .saturating_sub(2)
                .min(super::reader::MAX_TEXT_WIDTH),
            ..area
        };
        self.area = inner;
        let lines = self.layout(cx, quiz, inner.width as usize);
        let h = inner.height as usize;
        let max = lines.len().saturating_sub(h);
        if self.phase == Phase::Asking
            && let Some(&(s, e)) = self.option_lines.get(self.cursor)
        {
            // Keep the option under the cursor on screen.
            if e > self.scroll + h {
                self.scroll = e.saturating_sub(h);
            }
            if s < self.scroll {
                self.scroll = s;
            }
        }
        self.scroll = self.scroll.min(max);
        let view: Vec<Line> = lines
            .iter()
            .skip(self.scroll)
            .take(h)
            .map(|l| widgets::to_line(l, None))
            .collect();
        f.render_widget(Paragraph::new(view), inner);
    }

    fn leave(&mut self, cx: &mut Cx) {
        // Answers given before leaving count, like an interrupted plain-mode quiz.
        if let Some(quiz) = cx.course.quiz(&self.quiz) {
            self.record(cx, quiz);
        }
    }
}

impl QuizScreen {
    fn option_at(&self, x: u16, y: u16) -> Option<usize> {
        let a = self.area;
        if x < a.x || x >= a.x + a.width || y < a.y || y >= a.y + a.height {
            return None;
        }
        let line = self.scroll + (y - a.y) as usize;
        self.option_lines
            .iter()
            .position(|&(s, e)| line >= s && line < e)
    }
}
