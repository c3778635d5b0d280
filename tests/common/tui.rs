//! Drives the full-screen app without a terminal: keys in, a rendered screen out.
#![allow(dead_code)]

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use rocm_learn::content::{self, ContentTree};
use rocm_learn::i18n::I18n;
use rocm_learn::lang::Lang;
use rocm_learn::progress::Progress;
use rocm_learn::tui::theme::Theme;
use rocm_learn::tui::{App, Input};
use unicode_width::UnicodeWidthStr;

/// The app on the fixed test pack (tests/fixtures/pack), so growing the course does not move
/// what the tests assert.
pub fn app(lang: Lang) -> App {
    let pack = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pack"));
    let mut read = rocm_learn::content::Diagnostics::default();
    let tree = ContentTree::from_dir(pack, &mut read).expect("the test pack exists");
    let (course, diags) = content::load(&tree);
    assert_eq!(diags.error_count(), 0);
    let mut app = App::new(
        course,
        I18n::new(lang),
        Theme {
            color: true,
            ascii: false,
        },
        Progress::new(),
    );
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
