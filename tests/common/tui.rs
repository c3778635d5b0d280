//! Drives the full-screen app without a terminal: keys in, a rendered screen out.
#![allow(dead_code)]

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use rocm_learn::content::{self, ContentTree, Course};
use rocm_learn::i18n::I18n;
use rocm_learn::lang::Lang;
use rocm_learn::markdown::Target;
use rocm_learn::progress::Progress;
use rocm_learn::tui::theme::Theme;
use rocm_learn::tui::{App, Input};
use std::time::{Duration, Instant};
use unicode_width::UnicodeWidthStr;

/// A fresh app on `course` in `lang` with colour, drawing boxes or (`ascii`) plain ASCII, and
/// no progress yet.
pub fn new_app(course: Course, lang: Lang, ascii: bool) -> App {
    App::new(
        course,
        I18n::new(lang),
        Theme { color: true, ascii },
        Progress::new(),
    )
}

/// The app on the real course (labs live there) with `lab` open, first drawn at `w`x`h`;
/// its sandbox runs the real binary.
pub fn lab_app(lang: Lang, ascii: bool, lab: &str, w: u16, h: u16) -> App {
    let (course, _) = content::load(&ContentTree::embedded());
    let mut a = new_app(course, lang, ascii);
    a.world.exe = Some(env!("CARGO_BIN_EXE_rocm-learn").into());
    draw(&mut a, w, h);
    a.open(&Target::Lab(lab.into()));
    a
}

/// Types `line` key by key, then Enter.
pub fn type_line(a: &mut App, line: &str) {
    for c in line.chars() {
        a.handle(Input::Key(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::NONE,
        )));
    }
    a.handle(Input::Key(KeyEvent::from(KeyCode::Enter)));
}

/// Lets a lab's shell work and redraws at `w`x`h` until `ok` holds for the screen: Ok with
/// that screen, or Err with the last one once `limit` has passed.
pub fn redraw_until(
    a: &mut App,
    w: u16,
    h: u16,
    limit: Duration,
    ok: impl Fn(&str) -> bool,
) -> Result<String, String> {
    let start = Instant::now();
    loop {
        a.handle(Input::Wake);
        let s = text(&draw(a, w, h));
        if ok(&s) {
            return Ok(s);
        }
        if start.elapsed() > limit {
            return Err(s);
        }
        // Polling the screen the shell draws into; the condition above ends the wait.
        std::thread::sleep(Duration::from_millis(30));
    }
}

/// The app on the fixed test pack (tests/fixtures/pack), so growing the course does not move
/// what the tests assert.
pub fn app(lang: Lang) -> App {
    let pack = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pack"));
    let mut read = rocm_learn::content::Diagnostics::default();
    let tree = ContentTree::from_dir(pack, &mut read).expect("the test pack exists");
    let (course, diags) = content::load(&tree);
    assert_eq!(diags.error_count(), 0);
    let mut app = new_app(course, lang, false);
    // Options in the order the quiz file gives them, so tests can name them by number.
    app.world.quiz_seed = Some(0);
    app
}

/// Parses "1<Enter>jj<Esc><C-c>" into key events.
pub fn parse_keys(spec: &str) -> Vec<KeyEvent> {
    let mut out = Vec::new();
    let mut chars = spec.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '<' {
            out.push(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
            continue;
        }
        let name: String = chars.by_ref().take_while(|c| *c != '>').collect();
        let key = match name.as_str() {
            "Enter" => KeyEvent::from(KeyCode::Enter),
            "Esc" => KeyEvent::from(KeyCode::Esc),
            "Tab" => KeyEvent::from(KeyCode::Tab),
            "BackTab" => KeyEvent::from(KeyCode::BackTab),
            "Up" => KeyEvent::from(KeyCode::Up),
            "Down" => KeyEvent::from(KeyCode::Down),
            "Left" => KeyEvent::from(KeyCode::Left),
            "Right" => KeyEvent::from(KeyCode::Right),
            "PageDown" => KeyEvent::from(KeyCode::PageDown),
            "PageUp" => KeyEvent::from(KeyCode::PageUp),
            "Home" => KeyEvent::from(KeyCode::Home),
            "End" => KeyEvent::from(KeyCode::End),
            "Backspace" => KeyEvent::from(KeyCode::Backspace),
            "Space" => KeyEvent::new(KeyCode::Char(' '), KeyModifiers::NONE),
            "lt" => KeyEvent::new(KeyCode::Char('<'), KeyModifiers::NONE),
            "F1" => KeyEvent::from(KeyCode::F(1)),
            "C-c" => KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL),
            other => panic!("unknown key <{other}>"),
        };
        out.push(key);
    }
    out
}

pub fn send(app: &mut App, spec: &str) {
    for k in parse_keys(spec) {
        app.handle(Input::Key(k));
    }
}

pub fn click(app: &mut App, x: u16, y: u16) {
    app.handle(Input::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: x,
        row: y,
        modifiers: KeyModifiers::NONE,
    }));
}

pub fn draw(app: &mut App, w: u16, h: u16) -> Buffer {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| app.draw(f)).unwrap();
    t.backend().buffer().clone()
}

/// Draws a frame and returns both what the terminal shows and what the app drew: the two differ
/// where something was drawn under the hidden half of a wide character (the terminal never
/// gets it: a pop-up's border there is lost, ratatui issue 2526).
pub fn draw_both(app: &mut App, w: u16, h: u16) -> (Buffer, Buffer) {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    let drawn = t.draw(|f| app.draw(f)).unwrap().buffer.clone();
    (t.backend().buffer().clone(), drawn)
}

/// The screen as text, one line per row, wide characters written once.
pub fn text(buf: &Buffer) -> String {
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut x = 0;
        let mut line = String::new();
        while x < buf.area.width {
            let s = buf[(x, y)].symbol();
            line.push_str(s);
            x += s.width().max(1) as u16;
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

pub fn screen(app: &mut App, w: u16, h: u16) -> String {
    text(&draw(app, w, h))
}

/// Every row of the screen fits the width in cells (nothing pushed past the edge).
pub fn assert_rows_fit(buf: &Buffer) {
    for y in 0..buf.area.height {
        let mut x = 0u16;
        while x < buf.area.width {
            let s = buf[(x, y)].symbol();
            x += s.width().max(1) as u16;
        }
        assert!(x <= buf.area.width + 1, "row {y} runs past the edge");
    }
}

/// Characters of the learner content (the test pack) in one language: its texts in that language
/// and the ones every language shares (tool output, commands). ASCII mode leaves these alone.
pub fn content_chars(lang: Lang) -> std::collections::HashSet<char> {
    fn walk_toml(
        v: &toml::Value,
        lang: &str,
        key: &str,
        out: &mut std::collections::HashSet<char>,
    ) {
        match v {
            toml::Value::String(s) => {
                let other_lang = ["en", "ja", "ko"].contains(&key) && key != lang;
                if !other_lang {
                    out.extend(s.chars());
                }
            }
            toml::Value::Array(a) => a.iter().for_each(|x| walk_toml(x, lang, key, out)),
            toml::Value::Table(t) => t.iter().for_each(|(k, x)| walk_toml(x, lang, k, out)),
            _ => {}
        }
    }
    fn walk_dir(dir: &std::path::Path, lang: &str, out: &mut std::collections::HashSet<char>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk_dir(&p, lang, out);
            } else if p.extension().is_some_and(|x| x == "toml") {
                let v: toml::Value = toml::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
                walk_toml(&v, lang, "", out);
            } else if p.extension().is_some_and(|x| x == "md")
                && p.file_stem().is_some_and(|s| s == lang)
            {
                out.extend(std::fs::read_to_string(&p).unwrap().chars());
            }
        }
    }
    let mut out = std::collections::HashSet::new();
    let pack = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pack"));
    walk_dir(pack, lang.code(), &mut out);
    out
}

/// A character ASCII mode exists to avoid: one a terminal may draw one or two cells wide
/// (East Asian Ambiguous), or a symbol, arrow or box-drawing sign. Letters of Japanese and
/// Korean are not: the interface is written in them.
pub fn ambiguous(c: char) -> bool {
    use unicode_width::UnicodeWidthChar;
    !c.is_ascii() && (c.width() != c.width_cjk() || ('\u{2000}'..='\u{2BFF}').contains(&c))
}

/// In ASCII mode: every cell is ASCII, a letter of the interface's language, or learner content.
pub fn assert_ascii_chrome(
    buf: &Buffer,
    lang: Lang,
    content: &std::collections::HashSet<char>,
    what: &str,
) {
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            for c in buf[(x, y)].symbol().chars() {
                assert!(
                    !ambiguous(c) || content.contains(&c),
                    "{what} ({lang}, {}x{}): {c:?} at {x},{y} in ASCII mode\n{}",
                    buf.area.width,
                    buf.area.height,
                    text(buf)
                );
            }
        }
    }
}

/// Nothing is drawn under the right half of a wide character, where a terminal would not show
/// it: a border there is a broken border.
pub fn assert_no_hidden_cells(buf: &Buffer, what: &str) {
    for y in 0..buf.area.height {
        let mut x = 0u16;
        while x < buf.area.width {
            let s = buf[(x, y)].symbol();
            let w = s.width().max(1) as u16;
            for hidden in x + 1..(x + w).min(buf.area.width) {
                let h = buf[(hidden, y)].symbol();
                assert!(
                    h.is_empty() || h == " ",
                    "{what}: {h:?} at {hidden},{y} is hidden under the wide {s:?}\n{}",
                    text(buf)
                );
            }
            x += w;
        }
    }
}
