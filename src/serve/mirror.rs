//! The instructor's side of a mirror. The class screen (a process of its own on the
//! instructor's terminal) asks over a socket in the server's private folder to watch a learner
//! and waits; meanwhile this task owns the instructor's terminal: it draws the learner's screen
//! from the server's copy (`screen`), a line on top saying whom and how to leave, and takes the
//! instructor's keys for itself, so none of them reaches the learner. Esc or q hands the
//! terminal back to the class screen, which redraws. F9 asks the learner to let the
//! instructor type (`help`); once the learner said yes, the instructor's keys go to the
//! learner's session until F9 (on either side) ends it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use russh::ChannelId;
use russh::server::Handle;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::UnixListener;
use tokio::net::unix::OwnedWriteHalf;
use tokio::sync::{mpsc, watch};

use super::app::Out;
use super::help::State as Help;
use super::screen::{Screen, Watching};
use super::session::Session;
use crate::i18n::I18n;
use crate::lang::Lang;
use crate::width::{pad, truncate};

pub use super::app::MIRROR_ENV;
/// The shortest time between two frames of a busy learner screen.
const FRAME: Duration = Duration::from_millis(40);
/// How often the learner's answer to a request for help is looked for.
const HELP_LOOK: Duration = Duration::from_millis(200);
/// F9 as terminals send it: ends help, on either side.
const F9: &[u8] = b"\x1b[20~";

/// What the connection's handlers use to reach a running mirror.
pub struct Control {
    active: Arc<AtomicBool>,
    keys: mpsc::Sender<Vec<u8>>,
    size: watch::Sender<(u16, u16)>,
}

impl Control {
    /// Whether the instructor's keys are the mirror's now (not the class screen's).
    pub fn active(&self) -> bool {
        self.active.load(Ordering::SeqCst)
    }

    pub fn key(&self, data: &[u8]) {
        let _ = self.keys.try_send(data.to_vec());
    }

    pub fn resize(&self, cols: u16, rows: u16) {
        self.size.send_replace((cols, rows));
    }
}

/// How the instructor's terminal looks and reads.
pub struct Term {
    pub lang: Lang,
    pub color: bool,
    pub cols: u16,
    pub rows: u16,
}

/// Carries the class screen's output to the instructor and runs mirrors it asks for, until the
/// class screen exits. `listener` is the class screen's socket.
pub fn start(
    handle: Handle,
    channel: ChannelId,
    out: mpsc::Receiver<Out>,
    listener: UnixListener,
    screens: Arc<super::Shared>,
    term: Term,
) -> Control {
    let active = Arc::new(AtomicBool::new(false));
    let (keys_tx, keys) = mpsc::channel(16);
    let (size, size_rx) = watch::channel((term.cols, term.rows));
    let (view_tx, view) = mpsc::channel(4);
    tokio::spawn(accept(listener, view_tx));
    let task = Task {
        handle,
        channel,
        shared: screens,
        lang: term.lang,
        color: term.color,
        active: active.clone(),
    };
    tokio::spawn(task.run(out, view, keys, size_rx));
    Control {
        active,
        keys: keys_tx,
        size,
    }
}

enum FromView {
    Writer(OwnedWriteHalf),
    Watch(String),
}

/// Takes the class screen's one connection and reads its requests, a line each.
async fn accept(listener: UnixListener, tx: mpsc::Sender<FromView>) {
    // One class screen per socket: nobody else connects after it, and once the session is
    // over nobody waits for it.
    let accepted = tokio::select! {
        a = listener.accept() => a.ok(),
        () = tx.closed() => None,
    };
    if let Ok(addr) = listener.local_addr()
        && let Some(path) = addr.as_pathname()
    {
        let _ = std::fs::remove_file(path);
    }
    drop(listener);
    let Some((stream, _)) = accepted else {
        return;
    };
    let (read, write) = stream.into_split();
    if tx.send(FromView::Writer(write)).await.is_err() {
        return;
    }
    let mut lines = BufReader::new(read.take(64 << 10)).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        if let Some(name) = line.strip_prefix("watch ")
            && super::roster::valid_name(name)
            && tx.send(FromView::Watch(name.to_string())).await.is_err()
        {
            return;
        }
    }
}

struct Task {
    handle: Handle,
    channel: ChannelId,
    shared: Arc<super::Shared>,
    lang: Lang,
    color: bool,
    active: Arc<AtomicBool>,
}

/// One mirror being shown.
struct Mirror {
    name: String,
    screen: Option<Arc<Screen>>,
    changes: Option<watch::Receiver<u64>>,
    _watching: Option<Watching>,
    /// The lines last sent, to send only what changed.
    shown: Vec<String>,
    /// Help asked for or given in this mirror.
    help: Help,
}

impl Mirror {
    /// The learner's running session, to type into.
    fn session(&self, shared: &super::Shared) -> Option<Arc<Session>> {
        shared.sessions.by_screen(self.screen.as_ref()?)
    }
}

/// Whether the instructor's keys say "leave": Esc alone, or q.
fn leaves(data: &[u8]) -> bool {
    data == b"\x1b" || (!data.contains(&0x1b) && data.iter().any(|&b| b == b'q' || b == b'Q'))
}

/// The top line of the mirror, in the instructor's language.
fn title(lang: Lang, name: &str, screen: Option<&Screen>, help: Help) -> String {
    let id = match (screen, help) {
        (None, _) => "serve-mirror-absent",
        (Some(s), _) if s.has_ended() => "serve-mirror-ended",
        (Some(_), Help::Asked) => "serve-mirror-help-asked",
        (Some(_), Help::Granted) => "serve-mirror-helping",
        (Some(_), Help::Off) => "serve-mirror-title",
    };
    I18n::new(lang).ta(id, &[("name", name.to_string().into())])
}

impl Task {
    async fn run(
        self,
        mut out: mpsc::Receiver<Out>,
        mut view: mpsc::Receiver<FromView>,
        mut keys: mpsc::Receiver<Vec<u8>>,
        mut size: watch::Receiver<(u16, u16)>,
    ) {
        let mut writer: Option<OwnedWriteHalf> = None;
        let mut mirror: Option<Mirror> = None;
        let mut view_open = true;
        loop {
            tokio::select! {
                o = out.recv() => match o {
                    // While a mirror shows, the class screen waits and prints nothing worth
                    // keeping; it redraws everything when it has the terminal back.
                    Some(Out::Bytes(b)) => {
                        if mirror.is_none() && self.handle.data(self.channel, b).await.is_err() {
                            break;
                        }
                    }
                    Some(Out::Exit(code)) => {
                        let _ = self.handle.exit_status_request(self.channel, code).await;
                        let _ = self.handle.eof(self.channel).await;
                        let _ = self.handle.close(self.channel).await;
                        break;
                    }
                    None => break,
                },
                m = view.recv(), if view_open => match m {
                    Some(FromView::Writer(w)) => writer = Some(w),
                    Some(FromView::Watch(name)) if mirror.is_none() => {
                        let screen = self.shared.screens.find(&name);
                        mirror = Some(Mirror {
                            changes: screen.as_ref().map(|s| s.subscribe()),
                            _watching: screen.as_ref().map(Screen::watch),
                            screen,
                            name,
                            shown: Vec::new(),
                            help: Help::Off,
                        });
                        self.active.store(true, Ordering::SeqCst);
                        let now = *size.borrow();
                        if !self.draw(&mut mirror, now, true).await {
                            break;
                        }
                    }
                    Some(FromView::Watch(_)) => {}
                    None => view_open = false,
                },
                k = keys.recv(), if mirror.is_some() => {
                    let Some(k) = k else { continue };
                    let m = mirror.as_mut().expect("checked");
                    if m.help == Help::Granted {
                        // Helping: every key is the learner's session's, but F9, which ends it.
                        if k == F9 {
                            self.end_help(m);
                        } else if let Some(s) = m.session(&self.shared) {
                            s.input(&k);
                        }
                        let now = *size.borrow();
                        if !self.draw(&mut mirror, now, false).await {
                            break;
                        }
                        continue;
                    }
                    if k == F9 && m.help == Help::Asked {
                        // Asked, then thought better of it.
                        self.end_help(m);
                        let now = *size.borrow();
                        if !self.draw(&mut mirror, now, false).await {
                            break;
                        }
                        continue;
                    }
                    if k == F9 && m.help == Help::Off && m.session(&self.shared).is_some() {
                        if let Some(s) = &m.screen {
                            super::help::write(&s.help_file(), Help::Asked);
                            s.poke();
                        }
                        m.help = Help::Asked;
                        eprintln!("serve: asked {} to let the instructor type", m.name);
                        let now = *size.borrow();
                        if !self.draw(&mut mirror, now, false).await {
                            break;
                        }
                        continue;
                    }
                    if leaves(&k) {
                        if let Some(m) = mirror.as_mut() && m.help != Help::Off {
                            self.end_help(m);
                        }
                        mirror = None;
                        self.active.store(false, Ordering::SeqCst);
                        let _ = self.handle.data(self.channel, b"\x1b[0m\x1b[2J".to_vec()).await;
                        if let Some(w) = writer.as_mut() {
                            let _ = w.write_all(b"done\n").await;
                        }
                    }
                },
                r = async { mirror.as_mut().and_then(|m| m.changes.as_mut()).expect("checked").changed().await },
                    if mirror.as_ref().is_some_and(|m| m.changes.is_some()) => {
                    if r.is_err()
                        && let Some(m) = mirror.as_mut()
                    {
                        m.changes = None;
                    }
                    let now = *size.borrow();
                    if !self.draw(&mut mirror, now, false).await {
                        break;
                    }
                    tokio::time::sleep(FRAME).await;
                },
                () = tokio::time::sleep(HELP_LOOK),
                    if mirror.as_ref().is_some_and(|m| m.help != Help::Off) => {
                    let m = mirror.as_mut().expect("checked");
                    let now_state = m
                        .screen
                        .as_ref()
                        .map_or(Help::Off, |s| super::help::read(&s.help_file()));
                    let ended = m.screen.as_ref().is_none_or(|s| s.has_ended());
                    let next = if ended { Help::Off } else { now_state };
                    if next != m.help {
                        match next {
                            Help::Granted => eprintln!(
                                "serve: the instructor types in {}'s session, with their yes",
                                m.name
                            ),
                            _ => eprintln!("serve: help in {}'s session ended", m.name),
                        }
                        m.help = next;
                        let now = *size.borrow();
                        if !self.draw(&mut mirror, now, false).await {
                            break;
                        }
                    }
                },
                r = size.changed() => {
                    if r.is_err() {
                        break;
                    }
                    let now = *size.borrow();
                    if !self.draw(&mut mirror, now, true).await {
                        break;
                    }
                },
            }
        }
    }

    /// Ends help in `m` from the instructor's side: the file says so and the app is told.
    fn end_help(&self, m: &mut Mirror) {
        if let Some(s) = &m.screen {
            super::help::write(&s.help_file(), Help::Off);
            s.poke();
        }
        if m.help == Help::Granted {
            eprintln!("serve: help in {}'s session ended", m.name);
        }
        m.help = Help::Off;
    }

    /// Draws the mirror's changed lines (all of them when `full`); false when the client is
    /// gone.
    async fn draw(
        &self,
        mirror: &mut Option<Mirror>,
        (cols, rows): (u16, u16),
        full: bool,
    ) -> bool {
        let Some(m) = mirror.as_mut() else {
            return true;
        };
        let bytes = frame(self.lang, self.color, m, cols, rows, full);
        bytes.is_empty() || self.handle.data(self.channel, bytes).await.is_ok()
    }
}

/// The bytes that bring the instructor's terminal from the lines last shown to now.
fn frame(lang: Lang, color: bool, m: &mut Mirror, cols: u16, rows: u16, full: bool) -> Vec<u8> {
    let top = title(lang, &m.name, m.screen.as_deref(), m.help);
    let mut lines = vec![format!(
        "\x1b[0;7m{}\x1b[0m",
        pad(&truncate(&top, cols as usize), cols as usize)
    )];
    if let Some(s) = &m.screen {
        lines.extend(s.lines(cols, rows.saturating_sub(1), color));
    }
    let mut out = String::new();
    if full || m.shown.len() != lines.len() {
        out.push_str("\x1b[0m\x1b[?25l\x1b[2J");
        m.shown.clear();
    }
    for (i, l) in lines.iter().enumerate() {
        if m.shown.get(i) != Some(l) {
            out.push_str(&format!("\x1b[{};1H{l}\x1b[K", i + 1));
        }
    }
    m.shown = lines;
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_esc_alone_or_q_leaves() {
        assert!(leaves(b"\x1b") && leaves(b"q") && leaves(b"Q"));
        // Arrows and function keys start with Esc, and F2 ends in Q.
        assert!(!leaves(b"\x1b[A") && !leaves(b"\x1bOQ") && !leaves(b"x"));
    }

    #[test]
    fn a_frame_sends_only_what_changed() {
        let dir = tempfile::tempdir().unwrap();
        let s = Arc::new(Screen::new("ana", 20, 3, dir.path()));
        s.feed(b"one\r\ntwo");
        let mut m = Mirror {
            name: "ana".into(),
            changes: None,
            _watching: None,
            screen: Some(s.clone()),
            shown: Vec::new(),
            help: Help::Off,
        };
        let first = String::from_utf8(frame(Lang::En, false, &mut m, 30, 10, false)).unwrap();
        assert!(first.contains("Watching ana") && first.contains("one") && first.contains("two"));
        s.feed(b"\r\nthree");
        let next = String::from_utf8(frame(Lang::En, false, &mut m, 30, 10, false)).unwrap();
        assert!(next.contains("three") && !next.contains("one"), "{next:?}");
        assert!(!next.contains("\x1b[2J"));
    }
}
