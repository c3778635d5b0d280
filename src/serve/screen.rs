//! A learner session's screen as the server keeps it: every byte the learner's app prints is
//! also fed to a terminal parser here, so an instructor who starts watching late sees the whole
//! current screen, drawn from cells (never the learner's bytes passed on). The parser keeps no
//! scrollback and at most `MAX_ROWS` x `MAX_COLS` cells, so its memory is bounded whatever a
//! learner prints or claims as a terminal size.
//!
//! While someone watches, a file named by the session's `ROCM_LEARN_WATCHED` exists, and the
//! app is poked (SIGWINCH, which it reads as "look at the terminal again") to show the notice.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

pub const MAX_ROWS: u16 = 100;
pub const MAX_COLS: u16 = 300;

/// The environment variable that names a learner session's "being watched" file.
pub const WATCHED_ENV: &str = "ROCM_LEARN_WATCHED";

static NEXT: AtomicU64 = AtomicU64::new(0);

/// The learner's app process, to poke when watching starts or stops.
#[derive(Clone)]
pub struct App {
    pub pid: Option<u32>,
    pub ended: Arc<AtomicBool>,
}

pub struct Screen {
    pub name: String,
    parser: Mutex<vt100::Parser>,
    /// Bumped on every change; a mirror waits on it.
    changed: tokio::sync::watch::Sender<u64>,
    watchers: Mutex<usize>,
    watched_file: PathBuf,
    app: Mutex<Option<App>>,
    ended: AtomicBool,
}

fn clamp(cols: u16, rows: u16) -> (u16, u16) {
    (cols.clamp(1, MAX_COLS), rows.clamp(1, MAX_ROWS))
}

impl Screen {
    /// A screen of `cols` x `rows` for `name`; its watched file goes in `run_dir`.
    pub fn new(name: &str, cols: u16, rows: u16, run_dir: &Path) -> Screen {
        let (cols, rows) = clamp(cols, rows);
        let n = NEXT.fetch_add(1, Ordering::SeqCst);
        Screen {
            name: name.to_string(),
            parser: Mutex::new(vt100::Parser::new(rows, cols, 0)),
            changed: tokio::sync::watch::Sender::new(0),
            watchers: Mutex::new(0),
            watched_file: run_dir.join(format!("watched-{n}")),
            app: Mutex::new(None),
            ended: AtomicBool::new(false),
        }
    }

    /// The path the app is told (it shows the notice while the file exists).
    pub fn watched_file(&self) -> &Path {
        &self.watched_file
    }

    /// The session's help file (`help`).
    pub fn help_file(&self) -> PathBuf {
        self.watched_file.with_extension("help")
    }

    pub fn set_app(&self, app: App) {
        if let Ok(mut a) = self.app.lock() {
            *a = Some(app);
        }
    }

    /// What the learner's app printed.
    pub fn feed(&self, bytes: &[u8]) {
        if let Ok(mut p) = self.parser.lock() {
            p.process(bytes);
        }
        self.bump();
    }

    pub fn resize(&self, cols: u16, rows: u16) {
        let (cols, rows) = clamp(cols, rows);
        if let Ok(mut p) = self.parser.lock() {
            p.screen_mut().set_size(rows, cols);
        }
        self.bump();
    }

    /// The session is over (the last screen stays for a mirror to show).
    pub fn end(&self) {
        self.ended.store(true, Ordering::SeqCst);
        self.bump();
    }

    pub fn has_ended(&self) -> bool {
        self.ended.load(Ordering::SeqCst)
    }

    fn bump(&self) {
        if self.changed.receiver_count() > 0 {
            self.changed.send_modify(|n| *n = n.wrapping_add(1));
        }
    }

    /// Told of every change from now on.
    pub fn subscribe(&self) -> tokio::sync::watch::Receiver<u64> {
        self.changed.subscribe()
    }

    /// The screen's rows as lines for another terminal: at most `cols` cells of each of the
    /// first `rows` rows, with colours only when `color`.
    pub fn lines(&self, cols: u16, rows: u16, color: bool) -> Vec<String> {
        let Ok(p) = self.parser.lock() else {
            return Vec::new();
        };
        let screen = p.screen();
        let (height, _) = screen.size();
        (0..rows.min(height))
            .map(|r| line(screen, r, cols, color))
            .collect()
    }

    /// Marks the session as watched until the guard is dropped.
    pub fn watch(self: &Arc<Self>) -> Watching {
        let first = self.watchers.lock().map(|mut n| {
            *n += 1;
            *n == 1
        });
        if first.unwrap_or(false) {
            let _ = std::fs::write(&self.watched_file, b"");
            self.poke();
        }
        Watching(self.clone())
    }

    /// Asks the app to look again (SIGWINCH: ignored by default, so a poke before the app is
    /// ready cannot end it; the app reads it as a resize and checks its watched file).
    pub(super) fn poke(&self) {
        let Some(app) = self.app.lock().ok().and_then(|a| a.clone()) else {
            return;
        };
        let Some(pid) = app.pid.and_then(|p| i32::try_from(p).ok()) else {
            return;
        };
        if !app.ended.load(Ordering::SeqCst) {
            // Our own child, not yet reaped (`ended` is false).
            crate::child::signal(pid, rustix::process::Signal::WINCH);
        }
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(self.help_file());
        let _ = std::fs::remove_file(&self.watched_file);
    }
}

/// Someone watching a screen.
pub struct Watching(Arc<Screen>);

impl Drop for Watching {
    fn drop(&mut self) {
        let last = self.0.watchers.lock().map(|mut n| {
            *n = n.saturating_sub(1);
            *n == 0
        });
        if last.unwrap_or(false) {
            let _ = std::fs::remove_file(&self.0.watched_file);
            self.0.poke();
        }
    }
}

/// Whether this process (a learner's app on the server) is being watched now.
pub fn watched_now() -> bool {
    std::env::var_os(WATCHED_ENV).is_some_and(|p| !p.is_empty() && Path::new(&p).exists())
}

/// The live screens of a server's learner sessions, by name.
#[derive(Default)]
pub struct Screens(Mutex<Vec<Weak<Screen>>>);

impl Screens {
    pub fn add(&self, screen: &Arc<Screen>) {
        if let Ok(mut v) = self.0.lock() {
            v.retain(|w| w.strong_count() > 0);
            v.push(Arc::downgrade(screen));
        }
    }

    /// The newest running session of `name`.
    pub fn find(&self, name: &str) -> Option<Arc<Screen>> {
        let v = self.0.lock().ok()?;
        v.iter()
            .rev()
            .filter_map(Weak::upgrade)
            .find(|s| s.name == name && !s.has_ended())
    }
}

/// Text a learner's program made that could still steer the instructor's terminal: controls,
/// and the marks that reorder text (bidi overrides and isolates).
fn unsafe_char(c: char) -> bool {
    c.is_control()
        || ('\u{202a}'..='\u{202e}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
}

#[derive(Clone, Copy, PartialEq, Eq, Default)]
struct Attr {
    fg: Option<vt100::Color>,
    bg: Option<vt100::Color>,
    bold: bool,
    italic: bool,
    underline: bool,
    inverse: bool,
}

impl Attr {
    fn of(cell: &vt100::Cell, color: bool) -> Attr {
        let c = |c: vt100::Color| (color && c != vt100::Color::Default).then_some(c);
        Attr {
            fg: c(cell.fgcolor()),
            bg: c(cell.bgcolor()),
            bold: cell.bold(),
            italic: cell.italic(),
            underline: cell.underline(),
            inverse: cell.inverse(),
        }
    }

    /// The SGR sequence that sets exactly these attributes.
    fn sgr(&self) -> String {
        let mut s = String::from("\x1b[0");
        for (on, code) in [
            (self.bold, ";1"),
            (self.italic, ";3"),
            (self.underline, ";4"),
            (self.inverse, ";7"),
        ] {
            if on {
                s.push_str(code);
            }
        }
        for (c, base) in [(self.fg, 38), (self.bg, 48)] {
            match c {
                Some(vt100::Color::Idx(i)) => s.push_str(&format!(";{base};5;{i}")),
                Some(vt100::Color::Rgb(r, g, b)) => s.push_str(&format!(";{base};2;{r};{g};{b}")),
                _ => {}
            }
        }
        s.push('m');
        s
    }
}

/// One row drawn from its cells: our own attribute sequences and the cells' printable text.
fn line(screen: &vt100::Screen, row: u16, cols: u16, color: bool) -> String {
    let (_, width) = screen.size();
    let width = width.min(cols);
    let mut out = String::new();
    let mut attr = Attr::default();
    let mut col = 0;
    while col < width {
        let Some(cell) = screen.cell(row, col) else {
            break;
        };
        col += 1;
        if cell.is_wide_continuation() {
            continue;
        }
        let a = Attr::of(cell, color);
        if a != attr {
            out.push_str(&a.sgr());
            attr = a;
        }
        let text = cell.contents();
        if cell.is_wide() && col >= width {
            // Half of a wide character would not fit: a blank instead.
            out.push(' ');
        } else if text.is_empty() || text.chars().any(unsafe_char) {
            out.push(' ');
        } else {
            out.push_str(text);
        }
    }
    if attr != Attr::default() {
        out.push_str("\x1b[0m");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_screen_is_redrawn_from_cells_without_the_learners_controls() {
        let dir = tempfile::tempdir().unwrap();
        let s = Screen::new("ana", 40, 5, dir.path());
        s.feed(b"\x1b]0;title\x07\x1b[2J\x1b[1;1Hhello \x1b[31mred\x1b[0m\r\n");
        s.feed(b"\x1b]52;c;cHduZWQ=\x07two\x1b[?1049h\x1b[5;1Hbottom");
        let lines = s.lines(40, 5, true);
        assert_eq!(lines.len(), 5);
        let plain: Vec<String> = lines
            .iter()
            .map(|l| crate::term_text::plain(l.as_bytes()))
            .collect();
        assert!(plain[4].starts_with("bottom"), "{plain:?}");
        // Only SGR sequences of our own making, no OSC (title, clipboard) or mode changes.
        for l in &lines {
            for (i, _) in l.match_indices('\x1b') {
                assert_eq!(&l[i + 1..i + 2], "[", "{l:?}");
                let end = l[i..].find('m').unwrap();
                assert!(
                    l[i + 2..i + end]
                        .bytes()
                        .all(|b| b.is_ascii_digit() || b == b';'),
                    "{l:?}"
                );
            }
        }
        assert!(!s.lines(40, 5, false).join("").contains("\x1b[0;38"));
    }

    #[test]
    fn memory_is_bounded_by_the_largest_screen() {
        let dir = tempfile::tempdir().unwrap();
        let s = Screen::new("ana", 60_000, 60_000, dir.path());
        s.feed(&b"x".repeat(1 << 20));
        s.resize(u16::MAX, u16::MAX);
        let lines = s.lines(u16::MAX, u16::MAX, false);
        assert_eq!(lines.len(), MAX_ROWS as usize);
        assert!(lines.iter().all(|l| l.chars().count() <= MAX_COLS as usize));
    }

    #[test]
    fn watched_while_someone_watches_and_found_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let s = Arc::new(Screen::new("ana", 80, 24, dir.path()));
        let screens = Screens::default();
        screens.add(&s);
        assert!(screens.find("ana").is_some() && screens.find("bob").is_none());
        let a = s.watch();
        let b = s.watch();
        assert!(s.watched_file().exists());
        drop(a);
        assert!(s.watched_file().exists());
        drop(b);
        assert!(!s.watched_file().exists());
        s.end();
        assert!(screens.find("ana").is_none());
    }
}
