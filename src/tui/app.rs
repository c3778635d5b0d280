//! The full-screen app's state: a stack of screens, overlays, global keys, and the chrome (title
//! bar, key hints). Pure: input goes in, a frame is drawn, progress changes come out; no terminal
//! needed, so tests drive it with key sequences and a `TestBackend`.

use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::class::{Alone, Class, Help};
use super::keymap::{self, Binding};
use super::screens::{self, home::Home};
use super::theme::Theme;
use super::widgets;
use super::wrap::{pad, str_width, truncate};
// The screens' side of the app lives in `view`, so that screens never import the app.
pub use super::view::{Cx, Ev, Face, Outcome, Overlay, View, opened};
use crate::content::Course;
use crate::i18n::I18n;
use crate::lang::Lang;
use crate::markdown::Target;
use crate::progress::{Change, Progress};

/// Input the app reacts to, already separated from the terminal library's event stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Resize(u16, u16),
    Paste(String),
    /// Something in the background changed (a lab's shell printed or finished a command).
    Wake,
}

/// What the keys every screen shares do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Global {
    Back,
    Help,
    Lang,
    Ascii,
}

/// The shared keys, applied when a screen leaves a key alone; the footer shows the first three.
const GLOBAL: &[Binding<Global>] = &[
    Binding::new(
        &[
            KeyCode::Char('q'),
            KeyCode::Esc,
            KeyCode::Left,
            KeyCode::Char('h'),
            KeyCode::Backspace,
        ],
        "q/Esc",
        "key-back",
        Global::Back,
    ),
    Binding::new(
        &[KeyCode::Char('?'), KeyCode::F(1)],
        "?/F1",
        "key-help",
        Global::Help,
    ),
    Binding::new(&[KeyCode::Char('L')], "L", "key-lang", Global::Lang),
    Binding::new(&[KeyCode::Char('A')], "A", "key-ascii", Global::Ascii),
];

/// The shared keys while a screen types printable keys into a field: letters are text there.
const GLOBAL_TEXT: &[Binding<Global>] = &[
    Binding::new(
        &[KeyCode::Esc, KeyCode::Left, KeyCode::Backspace],
        "Esc",
        "key-back",
        Global::Back,
    ),
    Binding::new(&[KeyCode::F(1)], "F1", "key-help", Global::Help),
];

/// What a key does in the table of contents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TocAct {
    Up,
    Down,
    Go,
    Close,
}

/// The table of contents' keys, for dispatch and for its hint line. Any other key closes it too.
const TOC: &[Binding<TocAct>] = &[
    Binding::new(
        &[KeyCode::Up, KeyCode::Char('k')],
        "↑↓",
        "key-choose",
        TocAct::Up,
    ),
    Binding::hidden(&[KeyCode::Down, KeyCode::Char('j')], TocAct::Down),
    Binding::new(&[KeyCode::Enter], "Enter", "key-go", TocAct::Go),
    Binding::new(&[KeyCode::Esc], "Esc", "key-close", TocAct::Close),
];

fn global_keys(text_mode: bool) -> &'static [Binding<Global>] {
    if text_mode { GLOBAL_TEXT } else { GLOBAL }
}

/// What screens read: the course, the strings, the look, the learner's progress, the size.
pub struct World {
    pub course: Course,
    pub i18n: I18n,
    pub theme: Theme,
    pub progress: Progress,
    /// Body area of the last draw (a reasonable default before the first one).
    pub area: Rect,
    pub waker: Option<crate::lab::app::session::Notify>,
    pub watch: Option<crate::lab::app::session::Watch>,
    /// The rocm-learn binary, which the lab sandbox mounts for its simulated tools.
    pub exe: Option<std::path::PathBuf>,
    /// Seed for quiz option orders; `None` draws a fresh one per attempt.
    pub quiz_seed: Option<u64>,
}

impl World {
    pub fn cx<'a>(&'a self, changes: &'a mut Vec<Change>) -> Cx<'a> {
        Cx {
            exe: self.exe.as_deref(),
            waker: self.waker.as_ref(),
            watch: self.watch.as_ref(),
            area: self.area,
            course: &self.course,
            i18n: &self.i18n,
            theme: &self.theme,
            progress: &self.progress,
            changes,
            quiz_seed: self.quiz_seed,
        }
    }
}

pub struct App {
    pub world: World,
    /// Changes not yet written to disk; the runner drains them.
    pub outbox: Vec<Change>,
    stack: Vec<Box<dyn View>>,
    overlay: Option<Overlay>,
    pub quit: bool,
    /// On a class server: the instructor is watching this screen (the title bar says so).
    pub watched: bool,
    /// On a class server: the session was just taken back on a new connection (the title
    /// bar says so until the next key).
    pub reattached: bool,
    /// On a class server: the instructor asked to type here, or types here with the
    /// learner's yes (the title bar says which, and F9 answers or ends it).
    pub help: Help,
    /// The class server this app runs under, if any (`run` is given it).
    pub class: Box<dyn Class>,
}

impl App {
    pub fn new(course: Course, i18n: I18n, theme: Theme, progress: Progress) -> Self {
        let mut app = App {
            world: World {
                course,
                i18n,
                theme,
                progress,
                area: Rect::new(0, 1, 80, 22),
                waker: None,
                watch: None,
                exe: std::env::current_exe().ok(),
                quiz_seed: None,
            },
            outbox: Vec::new(),
            stack: Vec::new(),
            overlay: None,
            quit: false,
            watched: false,
            reattached: false,
            help: Help::Off,
            class: Box::new(Alone),
        };
        app.stack.push(Box::new(Home::new()));
        app
    }

    /// Shows a message over the current screen (e.g. "your progress file was moved aside").
    pub fn notify(&mut self, text: String) {
        self.overlay = Some(Overlay::Notice(text));
    }

    /// F9 on a class server while the instructor asked to help: yes (and the help is
    /// recorded on the lab open, if any); while they help: it ends. False when no help was
    /// asked (F9 is then the screen's).
    fn answer_help(&mut self) -> bool {
        // The server's word, not our copy: the instructor may have given up meanwhile.
        let Some(now) = self.class.help() else {
            return false;
        };
        let next = match now {
            Help::Asked => Help::Granted,
            Help::Granted => Help::Off,
            Help::Off => return false,
        };
        self.class.set_help(next);
        self.help = next;
        if next == Help::Granted
            && let Some(lab) = self.stack.iter().rev().find_map(|v| v.lab_id())
        {
            self.commit(vec![crate::progress::Change::Helped(lab)]);
        }
        true
    }

    /// Opens a screen on top of the home screen, as `rocm-learn lesson ID` does.
    pub fn open(&mut self, target: &Target) {
        let mut changes = Vec::new();
        let view = screens::for_target(&self.world.cx(&mut changes), target);
        self.commit(changes);
        if let Some(v) = view {
            self.push(v);
        }
    }

    /// Opens a screen by name, for benchmarks that need one without a key sequence.
    #[doc(hidden)]
    pub fn open_screen_for_bench(&mut self, name: &str) {
        let v: Box<dyn View> = match name {
            "building" => Box::new(screens::building::Building::new()),
            "glossary" => Box::new(screens::glossary::Glossary::new()),
            _ => return,
        };
        self.push(v);
    }

    fn push(&mut self, v: Box<dyn View>) {
        self.stack.push(v);
        self.with_top(|v, cx| v.enter(cx));
    }

    pub fn screen_id(&self) -> &'static str {
        let mut changes = Vec::new();
        let cx = self.world.cx(&mut changes);
        self.stack.last().map_or("none", |s| s.face(&cx).id)
    }

    pub fn overlay_open(&self) -> bool {
        self.overlay.is_some()
    }

    fn commit(&mut self, changes: Vec<Change>) {
        for c in changes {
            self.world.progress.apply(&c);
            self.outbox.push(c);
        }
    }

    pub fn handle(&mut self, input: Input) {
        let ev = match input {
            Input::Resize(w, h) => {
                // Until the next draw, screens lay out for the new size.
                self.world.area = Rect::new(0, 1, w, h.saturating_sub(2));
                self.with_top(|v, cx| v.resized(cx));
                return;
            }
            Input::Paste(s) => Ev::Paste(s),
            Input::Wake => Ev::Tick,
            Input::Key(k) if k.kind == KeyEventKind::Release => return,
            Input::Key(k) => {
                self.reattached = false;
                if k.code == KeyCode::F(9) && self.answer_help() {
                    return;
                }
                Ev::Key(k)
            }
            Input::Mouse(m) => match m.kind {
                MouseEventKind::Down(MouseButton::Left) => Ev::Click {
                    x: m.column,
                    y: m.row,
                },
                MouseEventKind::ScrollDown => Ev::Scroll(3),
                MouseEventKind::ScrollUp => Ev::Scroll(-3),
                _ => return,
            },
        };
        let captured = self.captures_input();
        if !captured
            && let Ev::Key(k) = &ev
            && k.modifiers.contains(KeyModifiers::CONTROL)
            && matches!(k.code, KeyCode::Char('c') | KeyCode::Char('q'))
        {
            self.quit_all();
            return;
        }
        if self.overlay.is_some() {
            self.handle_overlay(&ev);
            return;
        }
        let mut changes = Vec::new();
        let outcome = {
            let mut cx = self.world.cx(&mut changes);
            let screen = self
                .stack
                .last_mut()
                .expect("the home screen is never popped");
            screen.handle(&mut cx, &ev)
        };
        self.commit(changes);
        match outcome {
            Outcome::Ignored => self.fallback(&ev),
            other => self.apply(other),
        }
    }

    /// Whether the screen on top takes every key now (a focused lab terminal): Ctrl-C, Ctrl-Z,
    /// `?` and `L` are the shell's then.
    pub fn captures_input(&self) -> bool {
        self.overlay.is_none() && self.stack.last().is_some_and(|s| s.captures_input())
    }

    fn apply(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Ignored | Outcome::Stay => {}
            Outcome::Push(v) => self.push(v),
            Outcome::Pop => self.pop(),
            Outcome::Replace(v) => {
                self.with_top(|v, cx| v.leave(cx));
                self.stack.pop();
                self.push(v);
            }
            Outcome::Overlay(o) => self.overlay = Some(o),
            Outcome::Quit => self.quit_all(),
        }
    }

    fn with_top<R>(&mut self, f: impl FnOnce(&mut dyn View, &mut Cx) -> R) -> R {
        let mut changes = Vec::new();
        let r = {
            let mut cx = self.world.cx(&mut changes);
            let top = self.stack.last_mut().expect("home");
            f(top.as_mut(), &mut cx)
        };
        self.commit(changes);
        r
    }

    fn pop(&mut self) {
        if self.stack.len() <= 1 {
            self.quit_all();
            return;
        }
        self.with_top(|v, cx| v.leave(cx));
        self.stack.pop();
    }

    /// Leaves every screen (each records its progress, a lab ends its sandbox) and quits.
    pub fn quit_all(&mut self) {
        while self.stack.len() > 1 {
            self.with_top(|v, cx| v.leave(cx));
            self.stack.pop();
        }
        self.quit = true;
    }

    /// Keys every screen shares, applied when the screen did not take the key.
    fn fallback(&mut self, ev: &Ev) {
        let Ev::Key(k) = ev else { return };
        let text_mode = self.stack.last().is_some_and(|s| s.wants_text());
        match Binding::find(global_keys(text_mode), k) {
            Some(Global::Back) => self.pop(),
            Some(Global::Help) => self.overlay = Some(Overlay::Help),
            Some(Global::Lang) => self.switch_lang(self.world.i18n.lang().next()),
            Some(Global::Ascii) => {
                self.world.theme.ascii = !self.world.theme.ascii;
                self.commit(vec![Change::Ascii(self.world.theme.ascii)]);
            }
            None => {}
        }
    }

    pub fn switch_lang(&mut self, lang: Lang) {
        self.world.i18n.set_lang(lang);
        self.commit(vec![Change::Lang(lang)]);
    }

    fn handle_overlay(&mut self, ev: &Ev) {
        let Some(overlay) = self.overlay.take() else {
            return;
        };
        let key = match ev {
            Ev::Key(k) => Some(k.code),
            Ev::Click { .. } => Some(KeyCode::Esc),
            _ => None,
        };
        match overlay {
            Overlay::Confirm { text, change } => match key {
                Some(KeyCode::Char('y') | KeyCode::Char('Y')) => self.commit(vec![change]),
                Some(_) => {}
                None => self.overlay = Some(Overlay::Confirm { text, change }),
            },
            Overlay::Ask { text, tag } => match key {
                Some(KeyCode::Char('y') | KeyCode::Char('Y')) => {
                    let outcome = self.with_top(|v, cx| v.handle(cx, &Ev::Confirmed(tag)));
                    self.apply(outcome);
                }
                Some(_) => {}
                None => self.overlay = Some(Overlay::Ask { text, tag }),
            },
            Overlay::Toc {
                items,
                mut selected,
            } => match ev {
                Ev::Key(k) => match Binding::find(TOC, k) {
                    Some(TocAct::Up) => {
                        selected = selected.saturating_sub(1);
                        self.overlay = Some(Overlay::Toc { items, selected });
                    }
                    Some(TocAct::Down) => {
                        selected = (selected + 1).min(items.len().saturating_sub(1));
                        self.overlay = Some(Overlay::Toc { items, selected });
                    }
                    Some(TocAct::Go) => {
                        if let Some((_, line)) = items.get(selected) {
                            let line = *line;
                            self.with_top(|v, cx| v.handle(cx, &Ev::Jump(line)));
                        }
                    }
                    Some(TocAct::Close) | None => {}
                },
                Ev::Click { .. } => {}
                _ => self.overlay = Some(Overlay::Toc { items, selected }),
            },
            other => {
                if key.is_none() {
                    self.overlay = Some(other);
                }
            }
        }
    }

    /// Draws the whole app into the frame: title bar, the current screen, key hints, overlay.
    pub fn draw(&mut self, f: &mut Frame) {
        super::wrap::set_ascii(self.world.theme.ascii);
        let area = f.area();
        if area.width < 20 || area.height < 6 {
            // Too small for anything useful: say so instead of drawing a mess.
            let msg = self.world.i18n.t("app-too-small");
            f.render_widget(Paragraph::new(truncate(&msg, area.width as usize)), area);
            return;
        }
        let header = Rect { height: 1, ..area };
        let footer = Rect {
            y: area.y + area.height - 1,
            height: 1,
            ..area
        };
        let body = Rect {
            y: area.y + 1,
            height: area.height - 2,
            ..area
        };
        self.world.area = body;
        let mut changes = Vec::new();
        let cx = self.world.cx(&mut changes);
        let top = self.stack.last_mut().expect("home");
        let marks: Vec<String> = [
            (self.reattached, "serve-reattached"),
            (self.help == Help::Asked, "serve-help-asked"),
            (self.help == Help::Granted, "serve-help-on"),
            (self.watched && self.help == Help::Off, "serve-watched"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, id)| cx.t(id))
        .collect();
        let marks = (!marks.is_empty()).then(|| marks.join(" · "));
        draw_header(&cx, f, header, &top.face(&cx).title, marks.as_deref());
        top.draw(&cx, f, body);
        let keys = KeyHelp {
            // After drawing: a draw can change what the keys do (a lab's shell finished).
            screen: top.face(&cx).keys,
            shared: if top.captures_input() {
                // Every key goes to the screen (a focused terminal): none of ours work.
                Vec::new()
            } else {
                keymap::hints(global_keys(top.wants_text()))
            },
            root: self.stack.len() == 1,
        };
        draw_footer(&cx, f, footer, &keys);
        if let Some(o) = &self.overlay {
            draw_overlay(&cx, f, body, o, &keys);
        }
    }
}

fn draw_header(cx: &Cx, f: &mut Frame, area: Rect, title: &str, notice: Option<&str>) {
    let lang = cx.lang().native_name();
    let notice = notice.map(|n| format!(" {n} ")).unwrap_or_default();
    let right = format!("{notice} {lang} ");
    let left = format!(
        " rocm-learn {} {title}",
        if cx.theme.ascii { ">" } else { "›" }
    );
    let w = area.width as usize;
    let left_w = w.saturating_sub(str_width(&right));
    let line = Line::from(vec![
        Span::styled(
            pad(&left, left_w),
            cx.theme.title().patch(cx.theme.selected()),
        ),
        Span::styled(
            notice,
            cx.theme.bad().add_modifier(ratatui::style::Modifier::BOLD),
        ),
        Span::styled(format!(" {lang} "), cx.theme.selected()),
    ]);
    f.render_widget(Paragraph::new(line), area);
}

/// The keys to show: the screen's own and the shared ones that work on it.
struct KeyHelp {
    screen: Vec<(&'static str, &'static str)>,
    shared: Vec<(&'static str, &'static str)>,
    /// On the home screen "back" leaves the app.
    root: bool,
}

impl KeyHelp {
    /// (key label as drawn, description) for all keys; the footer shows as many as fit.
    fn lines(&self, cx: &Cx, footer: bool) -> Vec<(String, String)> {
        let shared = self
            .shared
            .iter()
            // The footer has no room for the ASCII switch; `?` lists it.
            .filter(|(_, id)| !footer || *id != "key-ascii");
        let mut out: Vec<(String, String)> = self
            .screen
            .iter()
            .chain(shared)
            .map(|(k, id)| {
                let id = if *id == "key-back" && self.root {
                    "key-quit"
                } else {
                    id
                };
                (cx.theme.chrome(k).into_owned(), cx.t(id))
            })
            .collect();
        if !footer && !self.shared.is_empty() {
            // Handled before any screen sees it (App::handle).
            out.push(("Ctrl-C".to_string(), cx.t("key-quit")));
        }
        out
    }
}

fn draw_footer(cx: &Cx, f: &mut Frame, area: Rect, keys: &KeyHelp) {
    let piece = |(k, desc): &(String, String)| str_width(k) + 1 + str_width(desc) + 2;
    let all = keys.lines(cx, true);
    // The help key always shows: it leads to every key the footer had no room for.
    let help = all.iter().position(|(_, d)| *d == cx.t("key-help"));
    let reserve = help.map_or(0, |i| piece(&all[i]));
    let mut used = 0;
    let mut shown = Vec::new();
    for (i, item) in all.iter().enumerate() {
        if Some(i) == help {
            continue;
        }
        if used + piece(item) + reserve > area.width as usize {
            break;
        }
        used += piece(item);
        shown.push(item);
    }
    if let Some(i) = help
        && used + reserve <= area.width as usize
    {
        shown.push(&all[i]);
    }
    let mut spans = Vec::new();
    for (k, desc) in shown {
        spans.push(Span::styled(k.clone(), cx.theme.key()));
        spans.push(Span::raw(format!(" {desc}  ")));
    }
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn draw_overlay(cx: &Cx, f: &mut Frame, body: Rect, o: &Overlay, keys: &KeyHelp) {
    match o {
        Overlay::Help => {
            let lines = keys.lines(cx, false);
            let kw = lines.iter().map(|(k, _)| str_width(k)).max().unwrap_or(0);
            let text: Vec<Line> = lines
                .into_iter()
                .map(|(k, d)| {
                    Line::from(vec![
                        Span::styled(pad(&k, kw), cx.theme.key()),
                        Span::raw("  "),
                        Span::raw(d),
                    ])
                })
                .collect();
            widgets::popup(cx, f, body, &cx.t("help-title"), text, &cx.t("popup-close"));
        }
        Overlay::Term(id) => {
            let Some(term) = cx.course.term(id) else {
                return;
            };
            let mut text = vec![Line::from(vec![
                Span::styled(cx.loc(&term.name), cx.theme.term(term.category)),
                Span::raw("  "),
                Span::styled(
                    format!("({})", cx.t(term.category.msg_id())),
                    cx.theme.dim(),
                ),
            ])];
            text.push(Line::raw(""));
            text.extend(super::doc::course_text(
                cx,
                &term.definition,
                // The widest a pop-up's text can be (`widgets::popup`), so it is not wrapped twice.
                body.width.saturating_sub(8) as usize,
            ));
            widgets::popup(cx, f, body, &cx.t("term-title"), text, &cx.t("popup-close"));
        }
        Overlay::Notice(msg) => {
            widgets::popup(
                cx,
                f,
                body,
                &cx.t("notice-title"),
                msg.lines().map(|l| Line::raw(l.to_string())).collect(),
                &cx.t("popup-close"),
            );
        }
        Overlay::Confirm { text, .. } | Overlay::Ask { text, .. } => {
            widgets::popup(
                cx,
                f,
                body,
                &cx.t("confirm-title"),
                vec![Line::raw(text.clone())],
                &cx.t("confirm-keys"),
            );
        }
        Overlay::Toc { items, selected } => {
            let text: Vec<Line> = items
                .iter()
                .enumerate()
                .map(|(i, (label, _))| {
                    let style = if i == *selected {
                        cx.theme.selected()
                    } else {
                        Style::new()
                    };
                    Line::styled(label.clone(), style)
                })
                .collect();
            let keys: Vec<String> = keymap::hints(TOC)
                .iter()
                .map(|(k, id)| format!("{} {}", cx.theme.chrome(k), cx.t(id)))
                .collect();
            widgets::popup(cx, f, body, &cx.t("toc-title"), text, &keys.join("   "));
        }
    }
}
