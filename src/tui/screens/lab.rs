//! A lab: a real shell in the sandbox, a strip under it with the current step, its state and
//! its reason, and a panel with the briefing and the full checklist (beside the terminal when
//! the screen is wide, over it on F4). Keys go to the shell while its pane has focus (Ctrl-C
//! included); F10 or Ctrl-] gives them back to the app. Laid out for 80x24 first; usable down to
//! 60x20, below which it asks for a bigger window.

mod keymap;
mod text;

use std::collections::HashMap;
use std::sync::Arc;

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};
use tui_term::widget::{Cursor, PseudoTerminal};

use super::super::view::{Cx, Ev, Face, Outcome, Overlay, Question, View};
use super::super::widgets;
use crate::content::{Course, LabWay, Msg};
use crate::events::LabSession;
use crate::lab::app::key_bytes;
use crate::lab::app::run::{LabRun, Options};
use crate::markdown::Target;
use crate::progress::{Change, ItemKind};
use keymap::{Act, Mode, Moment};

/// The smallest body (the screen without title bar and footer) a lab is usable in: 60x20.
const MIN_W: u16 = 60;
const MIN_H: u16 = 18;
/// Screens at least this wide show the panel beside the terminal.
const WIDE: u16 = 100;

/// Where each part of the lab screen goes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Areas {
    /// The briefing beside the terminal; empty when the screen is narrow.
    side: Rect,
    /// The terminal with its border.
    pane: Rect,
    /// Under the terminal: the current step and its reason.
    strip: Rect,
}

impl Areas {
    /// None when the body is too small to use a lab in.
    fn of(area: Rect) -> Option<Areas> {
        if area.width < MIN_W || area.height < MIN_H {
            return None;
        }
        let (side, right) = if area.width >= WIDE {
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
            (Rect::default(), area)
        };
        // One line for the step, the rest for its reason: two lines at 80x24, more when tall.
        let strip_h = if area.height >= 40 { 5 } else { 3 };
        let pane = Rect {
            height: right.height - strip_h,
            ..right
        };
        let strip = Rect {
            x: right.x + 1,
            y: right.y + pane.height,
            width: right.width.saturating_sub(2),
            height: strip_h,
        };
        Some(Areas { side, pane, strip })
    }

    /// The terminal's size inside the pane's border: (rows, cols).
    fn term_size(&self) -> (u16, u16) {
        (
            self.pane.height.saturating_sub(2).max(2),
            self.pane.width.saturating_sub(2).max(10),
        )
    }
}

/// Which part of the panel to bring into view at the next draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Jump {
    Hints,
    Solution,
}

/// What the learner did in one run of a lab: all of it starts over with F5.
#[derive(Default)]
struct Attempt {
    /// Hints revealed, per step id.
    hints: HashMap<String, usize>,
    /// Hints revealed in this run (the challenge way shows the count).
    hints_total: u32,
    /// The step current at the last look, and how many records had come by then.
    step_seen: Option<(usize, u64)>,
    /// A command ran (or a login began) since the current step became current.
    tried: bool,
    /// The current step's reason when it became current after another step: the challenge
    /// way shows a reason only once something the learner did changed it from this (the
    /// reason a met goal uncovers would spell out the next insight).
    why_at_change: Option<Msg>,
    solution: bool,
    recorded_complete: bool,
    /// Seconds of this run already recorded (with its solve): the session's end adds the rest.
    secs_recorded: u64,
}

pub struct LabScreen {
    id: String,
    run: Option<LabRun>,
    error: Option<Msg>,
    focus: bool,
    /// The briefing and full checklist are open over the terminal.
    panel: bool,
    /// What the learner did in this run of the lab (F5 starts a new one).
    attempt: Attempt,
    side_scroll: usize,
    panel_scroll: usize,
    strip_scroll: usize,
    jump: Option<Jump>,
    areas: Areas,
    scrollback: usize,
    /// The language the relogin banner was last given in.
    lang: Option<crate::lang::Lang>,
    /// The way this lab is taken; the pack's default until the learner switches.
    way: Option<LabWay>,
    /// The item of the course after this lab, offered once it is complete.
    next: Option<Target>,
    /// The step last reported to the live view (`None` until the first report).
    live_step: Option<Option<String>>,
}

/// The course in order: each lesson, its quiz, its labs; the item after `lab` in it.
fn next_after(course: &Course, lab: &str) -> Option<Target> {
    let mut order: Vec<Target> = Vec::new();
    for l in &course.lessons {
        order.push(Target::Lesson(l.id.clone()));
        if let Some(q) = &l.quiz {
            order.push(Target::Quiz(q.clone()));
        }
        let own = course
            .labs
            .iter()
            .filter(|x| x.lesson.as_deref() == Some(l.id.as_str()))
            .map(|x| x.id.clone());
        for id in l.labs.iter().cloned().chain(own) {
            if !order.contains(&Target::Lab(id.clone())) {
                order.push(Target::Lab(id));
            }
        }
    }
    let at = order
        .iter()
        .position(|t| *t == Target::Lab(lab.to_string()))?;
    order.into_iter().skip(at + 1).find(|t| match t {
        Target::Lesson(id) => course.lesson(id).is_some(),
        Target::Quiz(id) => course.quiz(id).is_some(),
        Target::Lab(id) => course.lab(id).is_some(),
        _ => false,
    })
}

/// The title of an item of the course.
fn title_of(cx: &Cx, t: &Target) -> Option<String> {
    match t {
        Target::Lesson(id) => cx.course.lesson(id).map(|l| cx.loc(&l.title)),
        Target::Quiz(id) => cx.course.quiz(id).map(|q| cx.loc(&q.title)),
        Target::Lab(id) => cx.course.lab(id).map(|l| cx.loc(&l.title)),
        _ => None,
    }
}

impl LabScreen {
    /// The screen's own keys now (see `Face::keys`).
    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        if self.run.is_none() {
            // The lab could not start: only the shared keys (back among them) apply.
            return Vec::new();
        }
        let mut keys = keymap::moment_hints(self.moment());
        keys.extend(keymap::hints(self.mode()));
        keys
    }

    pub fn new(id: &str) -> Self {
        LabScreen {
            id: id.to_string(),
            run: None,
            error: None,
            focus: true,
            panel: false,
            attempt: Attempt::default(),
            side_scroll: 0,
            panel_scroll: 0,
            strip_scroll: 0,
            jump: None,
            areas: Areas::default(),
            scrollback: 0,
            lang: None,
            way: None,
            next: None,
            live_step: None,
        }
    }

    fn way(&self) -> LabWay {
        self.way.unwrap_or_default()
    }

    /// Nothing typed since the first prompt: the way may still change.
    fn fresh(&self) -> bool {
        let Some(run) = &self.run else { return false };
        // The shell's session and history number at its first prompt (the run keeps it:
        // this screen may see that record only together with the next one).
        match (&run.first, &run.last) {
            (Some(f), Some(r)) => r.session == f.session && r.histno == f.histno,
            _ => true,
        }
    }

    fn moment(&self) -> Moment {
        Moment {
            next: self.run.as_ref().is_some_and(|r| r.complete) && self.next.is_some(),
            fresh: self.run.is_some() && self.fresh(),
        }
    }

    /// Follows the shell: whether the learner has tried something since the lab started or
    /// the current step became current (then the strip gives that step's reason).
    fn follow_shell(&mut self) {
        let current = self.current_step();
        let Some(records) = self
            .run
            .as_ref()
            .and_then(|run| run.last.as_ref().map(|_| run.records))
        else {
            return;
        };
        match (&self.attempt.step_seen, current) {
            (Some((i, seen)), Some(c)) if *i == c => {
                if *seen != records {
                    self.attempt.tried = true;
                }
            }
            // The first look counts from the first prompt: a command (even `exit`) run before
            // the screen looked is a try.
            (None, Some(c)) => {
                self.attempt.step_seen = Some((c, 1));
                self.attempt.tried = records > 1;
            }
            // Another step became current because something the learner did met the one
            // before: its reason shows at once, not "not done yet".
            (_, Some(c)) => {
                self.attempt.step_seen = Some((c, records));
                self.attempt.tried = true;
                self.attempt.why_at_change =
                    self.run.as_ref().and_then(|r| r.status.get(c)?.why.clone());
            }
            (_, None) => self.attempt.step_seen = None,
        }
    }

    fn start(&mut self, cx: &Cx) {
        let Some(lab) = cx.course.lab(&self.id) else {
            return;
        };
        self.way.get_or_insert(lab.way);
        self.next = next_after(cx.course, &self.id);
        self.attempt.step_seen = None;
        self.attempt.tried = false;
        let areas = Areas::of(cx.area).unwrap_or_default();
        let (rows, cols) = areas.term_size();
        self.areas = areas;
        let Some(exe) = cx.exe.map(std::path::Path::to_path_buf) else {
            self.error = Some(Msg::new("lab-start-failed").arg("error", "no rocm-learn binary"));
            return;
        };
        let notify = cx.waker.cloned().unwrap_or_else(|| Arc::new(|| {}));
        let opts = Options {
            exe,
            rows,
            cols,
            relogin: relogin_banner(cx, lab),
            transcript: false,
            lang: cx.lang(),
        };
        self.lang = Some(cx.lang());
        let started = match cx.watch {
            Some(w) => LabRun::start_watched(lab, opts, notify, w.clone()),
            None => LabRun::start(lab, opts, notify),
        };
        match started {
            Ok(run) => self.run = Some(run),
            Err(e) => self.error = Some(e.0),
        }
    }

    /// Lays out for the body as it is now and gives the shell's terminal the pane's size; done
    /// when the size changes, never while drawing.
    fn fit(&mut self, area: Rect) {
        let Some(areas) = Areas::of(area) else {
            self.areas = Areas::default();
            return;
        };
        self.areas = areas;
        if let Some(run) = &mut self.run {
            let (rows, cols) = areas.term_size();
            run.shell.resize(rows, cols);
        }
    }

    fn mode(&self) -> Mode {
        if self.panel {
            Mode::Panel
        } else if self.focus && self.run.is_some() {
            Mode::Terminal
        } else {
            Mode::App
        }
    }

    /// The first step not done yet: hints and the reason shown are about it.
    fn current_step(&self) -> Option<usize> {
        self.run.as_ref()?.status.iter().position(|s| !s.done)
    }

    /// Reveals the current step's next hint, if it has one more; logged at once, so the class
    /// view and the reports count it even if the session never ends cleanly.
    fn next_hint(&mut self, cx: &mut Cx) {
        let Some(run) = &self.run else { return };
        let Some(i) = self.current_step() else { return };
        let step = &run.lab.steps[i];
        let shown = self.attempt.hints.entry(step.id.clone()).or_default();
        if *shown < step.hints.len() {
            *shown += 1;
            self.attempt.hints_total += 1;
            cx.changes.push(Change::Hint {
                lab: self.id.clone(),
                step: step.id.clone(),
            });
        }
    }

    fn hints_shown(&self) -> usize {
        let Some((run, i)) = self.run.as_ref().zip(self.current_step()) else {
            return 0;
        };
        self.attempt
            .hints
            .get(&run.lab.steps[i].id)
            .copied()
            .unwrap_or(0)
    }

    fn record(&mut self, cx: &mut Cx, complete_only: bool) {
        let Some(run) = &self.run else { return };
        if complete_only && (!run.complete || self.attempt.recorded_complete) {
            return;
        }
        let solved_before = self.attempt.recorded_complete;
        if run.complete {
            self.attempt.recorded_complete = true;
        }
        // The solve carries the time it took; the session's end only the time after it.
        let elapsed = run.started.elapsed().as_secs();
        let secs = elapsed.saturating_sub(self.attempt.secs_recorded);
        self.attempt.secs_recorded = elapsed;
        cx.changes.push(Change::Lab {
            id: self.id.clone(),
            session: LabSession {
                steps_done: run.steps_done(),
                complete: run.complete,
                // Each hint is logged as it is revealed (`next_hint`).
                hints: 0,
                secs,
                session_over: !complete_only,
                confined: run.confined != Some(false),
                solved_before: solved_before && run.complete,
            },
        });
    }

    /// Tells the live view the step the learner is on when it changes (a step met moves it).
    fn report_step(&mut self, cx: &mut Cx) {
        let Some(run) = &self.run else { return };
        let step = self.current_step().map(|i| run.lab.steps[i].id.clone());
        if self.live_step.as_ref() == Some(&step) {
            return;
        }
        if let Some(Some(before)) = &self.live_step
            && let Some(i) = run.lab.steps.iter().position(|s| &s.id == before)
            && run.status.get(i).is_some_and(|s| s.done)
        {
            cx.changes.push(Change::Live(crate::events::What::StepMet {
                item: self.id.clone(),
                step: before.clone(),
            }));
        }
        cx.changes.push(Change::Live(crate::events::What::At {
            kind: ItemKind::Lab,
            item: self.id.clone(),
            step: step.clone(),
        }));
        self.live_step = Some(step);
    }

    /// The hints revealed so far for the current step, one per line.
    fn hint_text(&self, cx: &Cx) -> Option<String> {
        let run = self.run.as_ref()?;
        let step = &run.lab.steps[self.current_step()?];
        let hints: Vec<String> = step
            .hints
            .iter()
            .take(self.hints_shown())
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

    /// Types into the shell, through the run's hold while a new relogin banner is on its way.
    fn send(&mut self, bytes: &[u8]) {
        if let Some(run) = &mut self.run {
            let _ = run.type_keys(bytes);
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

    fn wide(&self) -> bool {
        self.areas.side.width > 0
    }

    /// Scrolls what the arrows move in the current mode: the panel, the side, or the strip.
    fn scroll(&mut self, d: isize) {
        let target = if self.panel {
            &mut self.panel_scroll
        } else if self.wide() {
            &mut self.side_scroll
        } else {
            &mut self.strip_scroll
        };
        *target = target.saturating_add_signed(d);
    }

    /// Runs one action of the key table.
    fn act(&mut self, cx: &mut Cx, act: Act) -> Outcome {
        let page = self.areas.pane.height.saturating_sub(3).max(1) as isize;
        match act {
            Act::LeaveTerminal => self.focus = false,
            Act::FocusTerminal => self.focus = self.run.is_some(),
            Act::Help => return Outcome::Overlay(Overlay::Help),
            Act::Panel => {
                self.panel = true;
                self.panel_scroll = 0;
            }
            Act::ClosePanel => self.panel = false,
            Act::Hint => {
                self.next_hint(cx);
                self.jump = Some(Jump::Hints);
                // A narrow screen has no room beside the terminal: show the hints over it.
                if !self.wide()
                    && !self.panel
                    && let Some(text) = self.hint_text(cx)
                {
                    return Outcome::Overlay(Overlay::Notice(text));
                }
            }
            Act::Solution if self.attempt.solution => self.attempt.solution = false,
            // Solved already: reading the solution now compares ways, it did not help. No
            // question, and nothing recorded as "solution viewed".
            Act::Solution if self.run.as_ref().is_some_and(|r| r.complete) => {
                self.attempt.solution = true;
                self.jump = Some(Jump::Solution);
                self.panel |= !self.wide();
            }
            Act::Solution => {
                return Outcome::Overlay(Overlay::Ask {
                    text: cx.t("labui-solution-ask"),
                    tag: Question::ShowSolution,
                });
            }
            Act::Reset => {
                return Outcome::Overlay(Overlay::Ask {
                    text: cx.t("lab-reset-ask"),
                    tag: Question::ResetLab,
                });
            }
            Act::Up => self.scroll(-1),
            Act::Down => self.scroll(1),
            Act::PageUp => self.scroll(-page),
            Act::PageDown => self.scroll(page),
            // Keys of the moment: `handle` runs them, with the changes they record.
            Act::Next | Act::Way => {}
        }
        Outcome::Stay
    }

    /// A mode the program in the shell switched on (application cursor keys, bracketed paste).
    fn shell_mode(&self, mode: impl Fn(&tui_term::vt100::Screen) -> bool) -> bool {
        self.run
            .as_ref()
            .and_then(|r| r.shell.screen.lock().ok().map(|p| mode(p.screen())))
            .unwrap_or(false)
    }

    /// A key while the shell has the keys: the table's few, else typed into the shell.
    fn type_into_shell(&mut self, k: &KeyEvent) {
        let app_cursor = self.shell_mode(tui_term::vt100::Screen::application_cursor);
        if let Some(bytes) = key_bytes::encode(k, app_cursor) {
            self.send(&bytes);
        }
    }

    fn view<'a>(&self, cx: &Cx<'a>) -> Option<text::View<'a>> {
        let lab = cx.course.lab(&self.id)?;
        let run = self.run.as_ref();
        let current = self.current_step();
        let way = self.way();
        // The strip gives the current step's reason once the learner has tried something
        // since it became current (guided), or as soon as an attempt changed it.
        let tried = way == LabWay::Guided && self.attempt.tried;
        Some(text::View {
            lab,
            reasons: run
                .map(|r| {
                    r.status
                        .iter()
                        .map(|s| s.why.as_ref().map(|m| cx.i18n.msg(m)))
                        .collect()
                })
                .unwrap_or_default(),
            hints_used: self.attempt.hints_total,
            way,
            fresh: self.run.is_some() && self.fresh(),
            next: self.next.as_ref().and_then(|t| title_of(cx, t)),
            done: run
                .map(|r| r.status.iter().map(|s| s.done).collect())
                .unwrap_or_else(|| vec![false; lab.steps.len()]),
            current,
            // Logins that stopped (a startup file ends every shell) outrank any step's
            // reason: nothing can be tried until F5.
            why: run
                .and_then(|r| r.halted.as_ref())
                .or_else(|| {
                    run.zip(current)
                        .and_then(|(r, i)| r.feedback(i))
                        .filter(|m| {
                            way == LabWay::Guided || self.attempt.why_at_change.as_ref() != Some(*m)
                        })
                })
                .or_else(|| {
                    run.zip(current)
                        .filter(|_| tried)
                        .and_then(|(r, i)| r.status.get(i)?.why.as_ref())
                })
                .map(|m| cx.i18n.msg(m))
                // Said until the first reason takes its place: on this kernel the result is
                // not tamper-proof.
                .or_else(|| {
                    run.filter(|r| r.confined == Some(false))
                        .map(|_| cx.t("lab-unconfined"))
                })
                // Likewise: here the machine could not move into memory.
                .or_else(|| {
                    run.filter(|r| r.in_memory == Some(false))
                        .map(|_| cx.t("lab-on-disk"))
                }),
            complete: run.is_some_and(|r| r.complete),
            hints: self.hints_shown(),
            solution: self.attempt.solution,
        })
    }

    fn draw_error(cx: &Cx, f: &mut Frame, area: Rect, err: &Msg) {
        let inner = Rect {
            x: area.x + 1,
            y: area.y + 1,
            width: area.width.saturating_sub(2),
            height: area.height.saturating_sub(1),
        };
        let text = vec![
            Line::styled(cx.t("lab-cannot-start"), cx.theme.bad()),
            Line::raw(""),
            Line::raw(cx.i18n.msg(err)),
        ];
        f.render_widget(
            Paragraph::new(widgets::wrap_lines(&text, inner.width as usize)),
            inner,
        );
    }

    /// The strip under the terminal, with a sign on its right edge when the reason scrolls.
    fn draw_strip(&mut self, cx: &Cx, f: &mut Frame, v: &text::View) {
        let r = self.areas.strip;
        let g = cx.theme.glyphs();
        let (head, body) = text::strip(cx, v, (r.width as usize).saturating_sub(2));
        let rows = r.height.saturating_sub(1) as usize;
        self.strip_scroll = self.strip_scroll.min(body.len().saturating_sub(rows));
        let more_above = self.strip_scroll > 0;
        let more_below = self.strip_scroll + rows < body.len();
        let mut lines = vec![head];
        lines.extend(body.into_iter().skip(self.strip_scroll).take(rows));
        f.render_widget(Paragraph::new(lines), r);
        let sign_x = r.x + r.width.saturating_sub(1);
        if more_above {
            f.render_widget(
                Span::styled(g.up, cx.theme.key()),
                Rect::new(sign_x, r.y + 1, 1, 1),
            );
        }
        if more_below {
            let y = r.y + r.height - 1;
            f.render_widget(
                Span::styled(g.down, cx.theme.key()),
                Rect::new(sign_x, y, 1, 1),
            );
        }
    }

    /// The briefing and checklist in a bordered box, scrolled; ▲/▼ on the bottom border say
    /// there is more.
    fn draw_panel(
        cx: &Cx,
        f: &mut Frame,
        r: Rect,
        v: &text::View,
        scroll: &mut usize,
        jump: Option<Jump>,
        title: &str,
    ) {
        let (lines, marks) = text::panel(cx, v, r.width.saturating_sub(4) as usize);
        let rows = r.height.saturating_sub(2) as usize;
        let target = match jump {
            Some(Jump::Hints) => marks.hints,
            Some(Jump::Solution) => marks.solution,
            None => None,
        };
        if let Some(t) = target {
            *scroll = t;
        }
        *scroll = (*scroll).min(lines.len().saturating_sub(rows));
        let g = cx.theme.glyphs();
        let mut signs = String::new();
        if *scroll > 0 {
            signs.push_str(g.up);
        }
        if *scroll + rows < lines.len() {
            signs.push_str(g.down);
        }
        let mut block =
            widgets::block(cx.theme, title).padding(ratatui::widgets::Padding::horizontal(1));
        if !signs.is_empty() {
            block = block
                .title_bottom(Line::styled(format!(" {signs} "), cx.theme.key()).right_aligned());
        }
        let visible: Vec<Line> = lines.into_iter().skip(*scroll).take(rows).collect();
        f.render_widget(Clear, r);
        f.render_widget(Paragraph::new(visible).block(block), r);
    }

    fn draw_terminal(&mut self, cx: &Cx, f: &mut Frame) {
        let pane = self.areas.pane;
        let focus = self.focus && !self.panel;
        let Some(run) = &self.run else { return };
        let title = if focus {
            cx.t("lab-terminal-focused")
        } else {
            cx.t("lab-terminal")
        };
        let mut block = widgets::block(cx.theme, &title);
        if focus {
            block = block.border_style(cx.theme.key());
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
        if focus && self.scrollback == 0 && !screen.hide_cursor() {
            let (r, c) = screen.cursor_position();
            f.set_cursor_position(Position::new(pane.x + 1 + c, pane.y + 1 + r));
        }
    }

    /// Gives the relogin banner the app's language again after `L`: it is printed by the
    /// sandbox between two logins, so the run has to be told.
    fn follow_language(&mut self, cx: &Cx) {
        if self.lang == Some(cx.lang()) {
            return;
        }
        self.lang = Some(cx.lang());
        if let Some(run) = &mut self.run {
            run.set_relogin(&relogin_banner(cx, &run.lab));
        }
    }
}

impl View for LabScreen {
    fn lab_id(&self) -> Option<String> {
        Some(self.id.clone())
    }

    fn face(&self, cx: &Cx) -> Face {
        let title = cx.course.lab(&self.id).map(|l| cx.loc(&l.title));
        Face {
            id: "lab",
            title: title.unwrap_or_default(),
            keys: self.keys(),
        }
    }

    fn captures_input(&self) -> bool {
        self.mode() == Mode::Terminal
    }

    fn enter(&mut self, cx: &mut Cx) {
        crate::tui::view::opened(cx, ItemKind::Lab, &self.id);
        self.start(cx);
        if self.run.is_some() {
            cx.changes.push(Change::LabWay(self.id.clone(), self.way()));
        }
    }

    fn resized(&mut self, cx: &mut Cx) {
        self.fit(cx.area);
    }

    fn handle(&mut self, cx: &mut Cx, ev: &Ev) -> Outcome {
        self.follow_language(cx);
        match ev {
            Ev::Tick => {
                if let Some(run) = &mut self.run {
                    run.pump();
                }
                self.follow_shell();
                self.record(cx, true);
                self.report_step(cx);
                Outcome::Stay
            }
            Ev::Confirmed(Question::ResetLab) => {
                if let Some(run) = &mut self.run
                    && let Err(e) = run.reset()
                {
                    self.error = Some(e.0);
                    self.run = None;
                }
                self.fit(cx.area);
                self.attempt = Attempt::default();
                self.focus = true;
                self.panel = false;
                Outcome::Stay
            }
            Ev::Confirmed(Question::ShowSolution) => {
                self.attempt.solution = true;
                // The class report shows who looked at the solution.
                cx.changes.push(Change::SolutionViewed(self.id.clone()));
                self.jump = Some(Jump::Solution);
                // Beside the terminal when there is room, else over it.
                self.panel |= !self.wide();
                Outcome::Stay
            }
            Ev::Key(k) if self.run.is_none() => match keymap::dispatch(Mode::App, k) {
                // q and Esc are left to the app's shared keys (back), which the help lists.
                None => Outcome::Ignored,
                Some(_) => Outcome::Stay,
            },
            Ev::Key(k) if keymap::dispatch_moment(self.moment(), k).is_some() => {
                match keymap::dispatch_moment(self.moment(), k) {
                    Some(Act::Next) => {
                        match self.next.as_ref().and_then(|t| super::for_target(cx, t)) {
                            Some(v) => Outcome::Replace(v),
                            None => Outcome::Stay,
                        }
                    }
                    Some(Act::Way) => {
                        self.way = Some(self.way().other());
                        cx.changes.push(Change::LabWay(self.id.clone(), self.way()));
                        Outcome::Stay
                    }
                    _ => Outcome::Stay,
                }
            }
            Ev::Key(k) => {
                let mode = self.mode();
                match keymap::dispatch(mode, k) {
                    Some(act) => self.act(cx, act),
                    None if mode == Mode::Terminal => {
                        self.type_into_shell(k);
                        Outcome::Stay
                    }
                    None => Outcome::Ignored,
                }
            }
            Ev::Paste(text) if self.mode() == Mode::Terminal => {
                let bracketed = self.shell_mode(tui_term::vt100::Screen::bracketed_paste);
                self.send(&key_bytes::paste(text, bracketed));
                Outcome::Stay
            }
            Ev::Click { .. } if self.panel => {
                self.panel = false;
                Outcome::Stay
            }
            Ev::Click { x, y } => {
                self.focus = self.run.is_some() && Self::in_rect(self.areas.pane, *x, *y);
                Outcome::Stay
            }
            Ev::Scroll(d) => {
                // The wheel over the terminal scrolls its history; elsewhere the text.
                if self.panel || !(self.run.is_some() && (self.focus || !self.wide())) {
                    self.scroll(*d as isize);
                } else {
                    self.set_scrollback(-(*d as isize));
                }
                Outcome::Stay
            }
            _ => Outcome::Ignored,
        }
    }

    fn draw(&mut self, cx: &Cx, f: &mut Frame, area: Rect) {
        if let Some(err) = &self.error {
            Self::draw_error(cx, f, area, err);
            return;
        }
        let Some(areas) = Areas::of(area) else {
            let msg = cx.i18n.ta(
                "labui-too-small",
                &[("w", MIN_W.into()), ("h", (MIN_H + 2).into())],
            );
            let lines = widgets::wrap_lines(&[Line::raw(msg)], area.width as usize);
            f.render_widget(Paragraph::new(lines), area);
            return;
        };
        // The layout (and the terminal's size) follows `resized`; drawing only places things.
        self.areas = areas;
        let Some(v) = self.view(cx) else { return };
        let jump = self.jump.take();
        if self.wide() {
            let title = text::cut(
                &cx.t("labui-panel-title"),
                areas.side.width as usize - 4,
                cx.theme.glyphs().ellipsis,
            );
            Self::draw_panel(cx, f, areas.side, &v, &mut self.side_scroll, jump, &title);
        }
        self.draw_terminal(cx, f);
        self.draw_strip(cx, f, &v);
        if self.panel {
            let title = text::cut(
                &cx.t("labui-panel-title"),
                areas.pane.width as usize - 4,
                cx.theme.glyphs().ellipsis,
            );
            let over = Rect {
                height: areas.pane.height + areas.strip.height,
                ..areas.pane
            };
            Self::draw_panel(cx, f, over, &v, &mut self.panel_scroll, jump, &title);
        }
    }

    fn leave(&mut self, cx: &mut Cx) {
        self.record(cx, false);
        if let Some(run) = &mut self.run {
            run.shell.kill();
        }
    }
}

/// The banner between two logins, naming the machine's user.
fn relogin_banner(cx: &Cx, lab: &crate::content::Lab) -> String {
    cx.i18n
        .ta("lab-relogin", &[("user", lab.user.as_str().into())])
}
