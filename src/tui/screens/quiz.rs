//! Taking a quiz: one question at a time, options in an order drawn per attempt; choose with
//! arrows, a number or letter, or the mouse; confirm; then every option is explained (the chosen
//! one, the right one, the rest). The results page reviews every question. A half-done attempt
//! is kept in progress and resumed, same order, at its first unanswered question.

use std::time::Instant;

use crossterm::event::KeyCode;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};

use super::super::doc;
use super::super::keymap::{self, Binding};
use super::super::view::{self, Cx, Ev, Face, Outcome, View};
use super::super::widgets;
use super::super::wrap::{Seg, wrap};
use crate::content::{Question, Quiz};
use crate::progress::{Change, ItemKind};
use crate::quiz::{QuizRun, Said, Verdict, explained, heading, parse_answer};

/// What a key does on the quiz screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Act {
    Move,
    Confirm,
    Next,
    Scroll,
    RetryWrong,
    Again,
    Back,
    Nothing,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Asking,
    Answered(Verdict),
    Results,
}

/// Where a run starts: a recorded attempt if there is one, or a new one.
#[derive(Clone, PartialEq, Eq)]
enum Start {
    /// Resume the recorded attempt if any, else the whole quiz.
    Resume,
    /// A new attempt at the whole quiz.
    Fresh,
    /// A new attempt at these questions only (retry the wrong ones).
    Only(Vec<String>),
}

pub struct QuizScreen {
    quiz: String,
    start: Start,
    run: Option<QuizRun>,
    cursor: usize,
    phase: Phase,
    scroll: usize,
    /// Line ranges of the options in the laid-out page, for clicks and keeping the cursor visible.
    option_lines: Vec<(usize, usize)>,
    shown: Scrolled,
    started: Instant,
    recorded: bool,
    /// A results page with nothing to retry.
    perfect: bool,
}

use widgets::Scrolled;

/// The keys of each phase: what they do and how the footer and `?` name them.
const ASKING: &[Binding<Act>] = &[
    Binding::new(keymap::UP_DOWN, "↑↓/1-9", "key-choose", Act::Move),
    Binding::new(
        &[KeyCode::Enter, KeyCode::Char(' ')],
        "Enter",
        "key-confirm",
        Act::Confirm,
    ),
    // Left/Backspace would abandon the quiz by accident; only q or Esc leave.
    Binding::hidden(&[KeyCode::Left, KeyCode::Backspace], Act::Nothing),
];

const ANSWERED: &[Binding<Act>] = &[
    Binding::new(
        &[
            KeyCode::Enter,
            KeyCode::Char(' '),
            KeyCode::Right,
            KeyCode::Char('n'),
        ],
        "Enter",
        "key-continue",
        Act::Next,
    ),
    Binding::new(keymap::SCROLL, "↑↓", "key-scroll", Act::Scroll),
    Binding::hidden(
        &[KeyCode::Left, KeyCode::Backspace, KeyCode::Char('h')],
        Act::Nothing,
    ),
];

const RESULTS_WRONG: &[Binding<Act>] = &[
    Binding::new(
        &[KeyCode::Char('r')],
        "r",
        "key-retry-wrong",
        Act::RetryWrong,
    ),
    Binding::new(&[KeyCode::Char('a')], "a", "key-again", Act::Again),
    Binding::new(keymap::SCROLL, "↑↓", "key-review", Act::Scroll),
    Binding::hidden(&[KeyCode::Enter], Act::Back),
];

const RESULTS_PERFECT: &[Binding<Act>] = &[
    Binding::new(&[KeyCode::Char('a')], "a", "key-again", Act::Again),
    Binding::new(keymap::SCROLL, "↑↓", "key-review", Act::Scroll),
    Binding::hidden(&[KeyCode::Enter], Act::Back),
];

impl QuizScreen {
    /// The quiz, resuming an attempt left half-way (`only: None`), or a retry of some questions.
    pub fn new(quiz: &str, only: Option<Vec<String>>) -> Self {
        Self::starting(quiz, only.map_or(Start::Resume, Start::Only))
    }

    fn starting(quiz: &str, start: Start) -> Self {
        QuizScreen {
            quiz: quiz.to_string(),
            start,
            run: None,
            cursor: 0,
            phase: Phase::Asking,
            scroll: 0,
            option_lines: Vec::new(),
            shown: Scrolled::default(),
            started: Instant::now(),
            recorded: false,
            perfect: false,
        }
    }

    fn quiz<'c>(&self, cx: &Cx<'c>) -> Option<&'c Quiz> {
        cx.course.quiz(&self.quiz)
    }

    /// The run, made on first use: resumed from progress, or new with a seed.
    fn run_mut(&mut self, cx: &Cx, quiz: &Quiz) -> &mut QuizRun {
        let start = self.start.clone();
        self.run.get_or_insert_with(|| {
            let seed = cx.quiz_seed.unwrap_or_else(crate::quiz::fresh_seed);
            let record = cx.progress.quizzes.get(&quiz.id);
            match start {
                Start::Resume => record
                    .and_then(|r| {
                        let open = r.open.as_ref()?;
                        QuizRun::resume(quiz, open, |id| {
                            r.answers.get(id).map(|a| a.chosen.saturating_sub(1))
                        })
                    })
                    .unwrap_or_else(|| QuizRun::new(quiz, seed)),
                Start::Fresh => QuizRun::new(quiz, seed),
                Start::Only(ids) => QuizRun::only(quiz, &ids, seed),
            }
        })
    }

    fn confirm(&mut self, cx: &Cx, quiz: &Quiz) {
        let cursor = self.cursor;
        if let Some(v) = self.run_mut(cx, quiz).answer_shown(quiz, cursor) {
            self.phase = Phase::Answered(v);
            self.scroll = 0;
        }
    }

    fn next(&mut self, cx: &mut Cx, quiz: &Quiz) {
        self.cursor = 0;
        self.scroll = 0;
        let run = self.run_mut(cx, quiz);
        if run.is_finished() {
            self.perfect = run.wrong_ids(quiz).is_empty();
            self.phase = Phase::Results;
            self.record(cx, quiz);
        } else {
            // The live view: which question the learner is on (the answers come at the end).
            let question = run.current().map(|i| quiz.questions[i].id.clone());
            self.phase = Phase::Asking;
            cx.changes.push(Change::Live(crate::events::What::At {
                kind: crate::progress::ItemKind::Quiz,
                item: quiz.id.clone(),
                step: question,
            }));
        }
    }

    /// Hands the answers of this session to progress, with the attempt to resume if unfinished.
    fn record(&mut self, cx: &mut Cx, quiz: &Quiz) {
        let Some(run) = &self.run else { return };
        if self.recorded || run.answered() == run.resumed {
            return;
        }
        self.recorded = true;
        cx.changes.push(Change::Quiz {
            result: run.result(quiz, cx.lang()),
            quiz_total: quiz.questions.len(),
            secs: self.started.elapsed().as_secs(),
        });
        cx.changes.push(Change::QuizAttempt {
            quiz: quiz.id.clone(),
            attempt: run.attempt(quiz),
        });
    }

    fn bindings(&self) -> &'static [Binding<Act>] {
        match self.phase {
            Phase::Asking => ASKING,
            Phase::Answered(_) => ANSWERED,
            Phase::Results if self.perfect => RESULTS_PERFECT,
            Phase::Results => RESULTS_WRONG,
        }
    }

    /// Lays out the page for the current phase: lines, and where each option is.
    fn layout(&mut self, cx: &Cx, quiz: &Quiz, width: usize) -> Vec<Vec<Seg>> {
        let run = self.run_mut(cx, quiz).clone();
        self.option_lines.clear();
        if self.phase == Phase::Results {
            return results(cx, quiz, &run, width);
        }
        let theme = cx.theme;
        let g = theme.glyphs();
        let mut lines: Vec<Vec<Seg>> = Vec::new();
        // While a verdict shows, the page is about the question just answered.
        let pos = match self.phase {
            Phase::Answered(_) => run.answers.iter().rposition(Option::is_some),
            _ => run.position(),
        };
        let Some(pos) = pos else {
            return lines;
        };
        let q = &quiz.questions[run.order[pos]];
        if self.phase == Phase::Asking && run.resumed > 0 && pos == run.resumed {
            lines.extend(wrap(
                &[Seg::new(
                    cx.i18n.ta(
                        "quiz-resumed",
                        &[("n", (pos + 1).into()), ("total", run.order.len().into())],
                    ),
                    theme.dim(),
                )],
                width,
                &[],
                &[],
            ));
            lines.push(Vec::new());
        }
        // Header with a mark per question: right, wrong, or still to come.
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
                None => (g.todo, theme.dim()),
            };
            head.push(Seg::new(s, st));
        }
        lines.extend(wrap(&head, width, &[], &[]));
        lines.push(Vec::new());
        prompt(cx, q, width, &mut lines);
        lines.push(Vec::new());
        let verdict = match self.phase {
            Phase::Answered(v) => Some(v),
            _ => None,
        };
        let shown = run.shown(quiz, pos);
        for (i, &o) in shown.iter().enumerate() {
            let (mark, style) = match verdict {
                Some(v) if o == v.answer => (format!("{} ", g.right), theme.good()),
                Some(v) if o == v.chosen => (format!("{} ", g.wrong), theme.bad()),
                Some(_) => ("  ".to_string(), theme.dim()),
                None if i == self.cursor => (format!("{} ", g.pointer), theme.selected()),
                None => ("  ".to_string(), theme.text()),
            };
            let first = [
                Seg::new(mark, style),
                Seg::new(format!("{}) ", i + 1), theme.key()),
            ];
            let start = lines.len();
            lines.extend(doc::text(
                &cx.loc(&q.options[o].text),
                width,
                cx.course,
                theme,
                style,
                &first,
                &[Seg::new("     ", Style::new())],
            ));
            self.option_lines.push((start, lines.len()));
        }
        if let Some(v) = verdict {
            lines.push(Vec::new());
            explanations(cx, q, v, &shown, width, 0, &mut lines);
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

    fn option_at(&self, x: u16, y: u16) -> Option<usize> {
        let s = self.shown;
        if y < s.first_row || y >= s.first_row + s.rows || x == 0 {
            return None;
        }
        let line = s.first_line + (y - s.first_row) as usize;
        self.option_lines
            .iter()
            .position(|&(a, b)| line >= a && line < b)
    }
}

/// The prompt in bold, and the excerpt to read under a bar.
fn prompt(cx: &Cx, q: &Question, width: usize, lines: &mut Vec<Vec<Seg>>) {
    let theme = cx.theme;
    lines.extend(prompt_text(cx, q, width, &[], &[]));
    if let Some(ex) = &q.excerpt {
        lines.push(Vec::new());
        let bar = Seg::new(format!("{} ", theme.glyphs().v), theme.dim());
        for l in ex.lines() {
            lines.extend(wrap(
                &[Seg::new(l, theme.code())],
                width,
                std::slice::from_ref(&bar),
                std::slice::from_ref(&bar),
            ));
        }
    }
}

/// A question's prompt in bold, its first line after `first` and the others after `rest`.
fn prompt_text(cx: &Cx, q: &Question, width: usize, first: &[Seg], rest: &[Seg]) -> Vec<Vec<Seg>> {
    let theme = cx.theme;
    let bold = theme.text().add_modifier(Modifier::BOLD);
    doc::text(
        &cx.loc(&q.prompt),
        width,
        cx.course,
        theme,
        bold,
        first,
        rest,
    )
}

/// Every option explained after an answer: the chosen one, the right one, then the others.
fn explanations(
    cx: &Cx,
    q: &Question,
    v: Verdict,
    shown: &[usize],
    width: usize,
    margin: usize,
    lines: &mut Vec<Vec<Seg>>,
) {
    let theme = cx.theme;
    let outer = [Seg::new(" ".repeat(margin), Style::new())];
    let indent = [Seg::new(" ".repeat(margin + 2), Style::new())];
    let mut others = false;
    for e in explained(v, shown) {
        let o = &q.options[e.option];
        let st = match e.said {
            Said::Chosen { right: true } | Said::Right => theme.good(),
            Said::Chosen { right: false } => theme.bad(),
            Said::Other => theme.text().add_modifier(Modifier::BOLD),
        };
        match e.said {
            Said::Other if !others => {
                others = true;
                lines.push(Vec::new());
                lines.push(vec![
                    outer[0].clone(),
                    Seg::new(cx.t("quiz-others-heading"), theme.dim()),
                ]);
            }
            Said::Right | Said::Other => lines.push(Vec::new()),
            Said::Chosen { .. } => {}
        }
        let text = crate::text::loc_md(cx.i18n, &o.text);
        lines.extend(wrap(
            &[Seg::new(heading(cx.i18n, &e, &text), st)],
            width,
            &outer,
            &indent,
        ));
        lines.extend(doc::text(
            &cx.loc(&o.why),
            width,
            cx.course,
            theme,
            theme.text(),
            &indent,
            &indent,
        ));
    }
}

/// The results page: the score, what to do next, and a review of every question with all its
/// explanations.
fn results(cx: &Cx, quiz: &Quiz, run: &QuizRun, width: usize) -> Vec<Vec<Seg>> {
    let theme = cx.theme;
    let g = theme.glyphs();
    let mut lines: Vec<Vec<Seg>> = Vec::new();
    let score = run.score(quiz);
    let total = run.order.len();
    lines.push(vec![Seg::new(
        cx.i18n.ta(
            "quiz-score",
            &[("score", score.into()), ("total", total.into())],
        ),
        theme.heading(2),
    )]);
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
    let wrong = run.wrong_ids(quiz).len();
    let hint = if wrong > 0 {
        cx.i18n
            .ta("quiz-results-keys-wrong", &[("count", wrong.into())])
    } else {
        cx.t("quiz-results-perfect")
    };
    lines.extend(wrap(&[Seg::new(hint, theme.key())], width, &[], &[]));
    lines.push(Vec::new());
    lines.push(vec![Seg::new(
        cx.t("quiz-review-heading"),
        theme.heading(2),
    )]);
    for (pos, &qi) in run.order.iter().enumerate() {
        let q = &quiz.questions[qi];
        lines.push(Vec::new());
        let verdict = run.verdict(quiz, pos);
        let mark = match verdict {
            Some(v) if v.is_right() => Seg::new(format!("{} ", g.right), theme.good()),
            Some(_) => Seg::new(format!("{} ", g.wrong), theme.bad()),
            None => Seg::new(format!("{} ", g.todo), theme.dim()),
        };
        lines.extend(prompt_text(
            cx,
            q,
            width,
            &[mark],
            &[Seg::new("  ", Style::new())],
        ));
        match verdict {
            Some(v) => explanations(cx, q, v, &run.shown(quiz, pos), width, 2, &mut lines),
            None => lines.push(vec![Seg::new(
                format!("  {}", cx.t("quiz-review-unanswered")),
                theme.dim(),
            )]),
        }
    }
    lines
}

impl View for QuizScreen {
    fn face(&self, cx: &Cx) -> Face {
        Face::new(
            "quiz",
            self.quiz(cx).map(|q| cx.loc(&q.title)).unwrap_or_default(),
            self.bindings(),
        )
    }

    fn enter(&mut self, cx: &mut Cx) {
        view::opened(cx, ItemKind::Quiz, &self.quiz);
        if let Some(quiz) = self.quiz(cx) {
            self.run_mut(cx, quiz);
        }
    }

    fn handle(&mut self, cx: &mut Cx, ev: &Ev) -> Outcome {
        let Some(quiz) = self.quiz(cx) else {
            return Outcome::Ignored;
        };
        let run = self.run_mut(cx, quiz).clone();
        let n_opts = run
            .current()
            .map(|qi| quiz.questions[qi].options.len())
            .unwrap_or(0);
        let page = (self.shown.rows as usize).max(1);
        if let Ev::Key(k) = ev {
            let Some(act) = Binding::find(self.bindings(), k) else {
                // A number or letter picks an option while asking.
                if self.phase == Phase::Asking
                    && let KeyCode::Char(c) = k.code
                    && let Ok(i) = parse_answer(&c.to_string(), n_opts)
                {
                    self.cursor = i;
                    return Outcome::Stay;
                }
                return Outcome::Ignored;
            };
            return match act {
                Act::Move => {
                    if matches!(k.code, KeyCode::Up | KeyCode::Char('k')) {
                        self.cursor = self.cursor.saturating_sub(1);
                    } else {
                        self.cursor = (self.cursor + 1).min(n_opts.saturating_sub(1));
                    }
                    Outcome::Stay
                }
                Act::Confirm => {
                    self.confirm(cx, quiz);
                    Outcome::Stay
                }
                Act::Next => {
                    self.next(cx, quiz);
                    Outcome::Stay
                }
                Act::Scroll => {
                    self.scroll = match k.code {
                        KeyCode::Up | KeyCode::Char('k') => self.scroll.saturating_sub(1),
                        KeyCode::PageUp => self.scroll.saturating_sub(page),
                        KeyCode::PageDown => self.scroll + page,
                        _ => self.scroll + 1,
                    };
                    Outcome::Stay
                }
                Act::RetryWrong => Outcome::Replace(Box::new(QuizScreen::starting(
                    &self.quiz,
                    Start::Only(run.wrong_ids(quiz)),
                ))),
                Act::Again => {
                    Outcome::Replace(Box::new(QuizScreen::starting(&self.quiz, Start::Fresh)))
                }
                Act::Back => Outcome::Pop,
                Act::Nothing => Outcome::Stay,
            };
        }
        match (self.phase, ev) {
            (Phase::Asking, Ev::Click { x, y }) => {
                if let Some(i) = self.option_at(*x, *y) {
                    if i == self.cursor {
                        self.confirm(cx, quiz);
                    } else {
                        self.cursor = i;
                    }
                }
                Outcome::Stay
            }
            (Phase::Answered(_), Ev::Click { .. }) => {
                self.next(cx, quiz);
                Outcome::Stay
            }
            (_, Ev::Scroll(d)) => {
                self.scroll = self.scroll.saturating_add_signed(*d as isize);
                Outcome::Stay
            }
            _ => Outcome::Ignored,
        }
    }

    fn draw(&mut self, cx: &Cx, f: &mut Frame, area: Rect) {
        let Some(quiz) = self.quiz(cx) else { return };
        let inner = Rect {
            x: area.x + 1,
            width: area
                .width
                .saturating_sub(2)
                .min(super::reader::MAX_TEXT_WIDTH),
            ..area
        };
        let lines = self.layout(cx, quiz, inner.width as usize);
        let h = inner.height as usize;
        if self.phase == Phase::Asking
            && let Some(&(s, e)) = self.option_lines.get(self.cursor)
        {
            // Keep the option under the cursor on screen, clear of the scroll signs.
            let room = h.saturating_sub(2).max(1);
            if e > self.scroll + room {
                self.scroll = e.saturating_sub(room);
            }
            if s < self.scroll {
                self.scroll = s.saturating_sub(usize::from(s > 0));
            }
        }
        self.shown = widgets::scroll_view(cx, f, inner, &lines, &mut self.scroll);
    }

    fn leave(&mut self, cx: &mut Cx) {
        // Answers given before leaving count, like an interrupted plain-mode quiz.
        if let Some(quiz) = cx.course.quiz(&self.quiz) {
            self.record(cx, quiz);
        }
    }
}
