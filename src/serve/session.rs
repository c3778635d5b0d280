//! A learner's session apart from the connection that shows it: the app on its terminal, its
//! lab, its screen as the server keeps it. When the connection drops (Wi-Fi blinks, a laptop
//! sleeps) the session is kept, detached, for the keep time; a new connection of the same
//! learner takes it back at its own terminal's size, and the app redraws everything with a
//! one-line note. One task per session (`pump`) is the only writer to whichever channel shows
//! it, so a reattach can never interleave with bytes meant for the old connection.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use russh::ChannelId;
use russh::server::Handle;

use super::app::{Out, Running};
use super::presence::Presence;
use super::screen::Screen;

pub use super::app::ATTACHED_ENV;

static NEXT: AtomicU64 = AtomicU64::new(0);

/// A connection's channel showing a session.
#[derive(Clone)]
pub struct Viewer {
    pub handle: Handle,
    pub channel: ChannelId,
    /// The connection's number (`Conn`), so only it detaches what it showed.
    pub conn: u64,
    pub peer: std::net::SocketAddr,
    pub cols: u16,
    pub rows: u16,
}

enum Ctl {
    Attach(Viewer),
    Detach(u64),
    /// The server is draining: this line to the learner, then the app hung up.
    Leave(String),
}

/// One learner session, shared by the registry, the connection showing it and its pump.
pub struct Session {
    pub name: String,
    id: u64,
    ctl: tokio::sync::mpsc::UnboundedSender<Ctl>,
    running: Mutex<Option<Running>>,
    pub screen: Arc<Screen>,
    /// Which connection shows it, or since when none does. Changed at once when a connection
    /// goes (not when the pump gets to it), so a quick reconnect finds the session detached.
    shown: Mutex<Shown>,
    ended: AtomicBool,
    attached_file: PathBuf,
    attaches: AtomicU64,
}

#[derive(Clone, Copy)]
enum Shown {
    On(u64),
    Detached(Instant),
}

/// The sessions of one server.
#[derive(Default)]
pub struct Sessions {
    list: Mutex<Vec<Arc<Session>>>,
    /// Places promised to sessions still starting (their app not yet up), by learner: they
    /// count toward the learner's cap, so two logins in the same instant cannot both pass it.
    /// Locked only after `list` (or alone).
    starting: Mutex<std::collections::HashMap<String, usize>>,
}

/// A learner's place under their cap, held from `claim` until their session is registered
/// (or given back, dropped, when the start fails).
pub struct Place {
    sessions: Arc<Sessions>,
    name: String,
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut starting = self.sessions.starting();
        if let Some(n) = starting.get_mut(&self.name) {
            *n -= 1;
            if *n == 0 {
                starting.remove(&self.name);
            }
        }
    }
}

/// What a learner's new session channel gets.
pub enum Found {
    /// Their newest detached session, now shown on this channel.
    Reattached(Arc<Session>),
    /// None to take back, and fewer than the cap running: start one in this place.
    Start(Place),
    /// None to take back, and this many running already.
    AtCap(usize),
}

impl Sessions {
    fn list(&self) -> std::sync::MutexGuard<'_, Vec<Arc<Session>>> {
        self.list
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn starting(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, usize>> {
        self.starting
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// For `name`'s new channel: the newest detached session attached to `viewer`, or whether
    /// a new one may start under `cap`. Decided under one lock, so two connections of the
    /// same learner cannot take the same session.
    pub fn claim(self: &Arc<Self>, name: &str, cap: usize, viewer: &Viewer) -> Found {
        self.claim_with(name, cap, |s| {
            *s.shown() = Shown::On(viewer.conn);
            let _ = s.ctl.send(Ctl::Attach(viewer.clone()));
        })
    }

    /// `claim`, with `attach` showing a detached session on the new channel.
    fn claim_with(
        self: &Arc<Self>,
        name: &str,
        cap: usize,
        attach: impl FnOnce(&Session),
    ) -> Found {
        let mut list = self.list();
        list.retain(|s| !s.ended.load(Ordering::SeqCst));
        let newest = list
            .iter()
            .filter(|s| s.name == name)
            .filter_map(|s| Some((s.detached_since()?, s)))
            .max_by_key(|(since, _)| *since)
            .map(|(_, s)| s.clone());
        if let Some(s) = newest {
            attach(&s);
            return Found::Reattached(s);
        }
        let mut starting = self.starting();
        let promised = starting.get(name).copied().unwrap_or(0);
        let mine = list.iter().filter(|s| s.name == name).count() + promised;
        if mine >= cap {
            return Found::AtCap(mine);
        }
        starting.insert(name.to_string(), promised + 1);
        Found::Start(Place {
            sessions: self.clone(),
            name: name.to_string(),
        })
    }

    /// The running session that `screen` shows.
    pub fn by_screen(&self, screen: &Arc<Screen>) -> Option<Arc<Session>> {
        self.list()
            .iter()
            .find(|s| Arc::ptr_eq(&s.screen, screen) && !s.has_ended())
            .cloned()
    }

    /// Registers `s`, which started in `place` (if it was promised one): under the list's lock,
    /// so the learner's count never shows it twice or not at all.
    fn add(&self, s: &Arc<Session>, place: Option<Place>) {
        let mut list = self.list();
        list.push(s.clone());
        drop(place);
    }

    fn remove(&self, id: u64) {
        self.list().retain(|s| s.id != id);
    }

    /// Ends every session: `line` is shown to its learner as their connection closes, after
    /// the app saved and closed its lab (a draining server).
    pub fn leave_all(&self, line: &str) {
        for s in self.list().iter() {
            let _ = s.ctl.send(Ctl::Leave(line.to_string()));
        }
    }

    /// `name`'s sessions now: (running, of which detached).
    pub fn count(&self, name: &str) -> (usize, usize) {
        let list = self.list();
        let mine = list.iter().filter(|s| s.name == name && !s.has_ended());
        mine.fold((0, 0), |(n, d), s| {
            (n + 1, d + usize::from(s.detached_since().is_some()))
        })
    }
}

/// How a new session starts.
pub struct Start {
    pub name: String,
    pub running: Running,
    pub output: tokio::sync::mpsc::Receiver<Out>,
    pub screen: Arc<Screen>,
    pub presence: Option<Presence>,
    pub attached_file: PathBuf,
    /// How long it is kept after its connection drops.
    pub keep: Duration,
    /// Its place under the learner's cap, from `Sessions::claim`.
    pub place: Option<Place>,
}

impl Session {
    /// Starts the session's pump, shown on `viewer`, and registers it in `sessions`.
    pub fn start(start: Start, viewer: Viewer, sessions: Arc<Sessions>) -> Arc<Session> {
        let (ctl, ctl_rx) = tokio::sync::mpsc::unbounded_channel();
        let session = Arc::new(Session {
            name: start.name,
            id: NEXT.fetch_add(1, Ordering::SeqCst),
            ctl,
            running: Mutex::new(Some(start.running)),
            screen: start.screen,
            shown: Mutex::new(Shown::On(viewer.conn)),
            ended: AtomicBool::new(false),
            attached_file: start.attached_file,
            attaches: AtomicU64::new(0),
        });
        sessions.add(&session, start.place);
        let pump = Pump {
            session: session.clone(),
            sessions,
            viewer: Some(viewer),
            presence: start.presence,
            keep: start.keep,
            deadline: None,
            farewell: None,
        };
        tokio::spawn(pump.run(start.output, ctl_rx));
        session
    }

    /// Keys typed on the channel showing it.
    pub fn input(&self, data: &[u8]) {
        if let Some(r) = self.running().as_mut() {
            r.input(data);
        }
    }

    pub fn resize(&self, cols: u16, rows: u16) {
        if let Some(r) = self.running().as_ref() {
            r.resize(cols, rows);
        }
        self.screen.resize(cols, rows);
    }

    /// The connection `conn` no longer shows it (dropped, or its channel closed).
    pub fn detach(&self, conn: u64) {
        if self.mark_detached(conn) {
            let _ = self.ctl.send(Ctl::Detach(conn));
        }
    }

    /// Detached now if `conn` showed it; whether it did.
    fn mark_detached(&self, conn: u64) -> bool {
        let mut shown = self.shown();
        if matches!(*shown, Shown::On(c) if c == conn) {
            *shown = Shown::Detached(Instant::now());
            true
        } else {
            false
        }
    }

    pub fn has_ended(&self) -> bool {
        self.ended.load(Ordering::SeqCst)
    }

    fn running(&self) -> std::sync::MutexGuard<'_, Option<Running>> {
        self.running
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn shown(&self) -> std::sync::MutexGuard<'_, Shown> {
        self.shown
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn detached_since(&self) -> Option<Instant> {
        match *self.shown() {
            Shown::Detached(since) => Some(since),
            Shown::On(_) => None,
        }
    }

    /// Tells the app it is shown on a new terminal: a new number in its file, then a poke.
    fn announce_attach(&self) {
        let n = self.attaches.fetch_add(1, Ordering::SeqCst) + 1;
        let _ = std::fs::write(&self.attached_file, n.to_string());
        self.screen.poke();
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.attached_file);
    }
}

/// The one task that carries a session's output to whoever shows it.
struct Pump {
    session: Arc<Session>,
    sessions: Arc<Sessions>,
    viewer: Option<Viewer>,
    presence: Option<Presence>,
    keep: Duration,
    /// When a detached session ends.
    deadline: Option<tokio::time::Instant>,
    /// Shown to the learner as the session ends (`Ctl::Leave`).
    farewell: Option<String>,
}

impl Pump {
    async fn run(
        mut self,
        mut output: tokio::sync::mpsc::Receiver<Out>,
        mut ctl: tokio::sync::mpsc::UnboundedReceiver<Ctl>,
    ) {
        let code = loop {
            let expire = async {
                match self.deadline {
                    Some(d) => tokio::time::sleep_until(d).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                out = output.recv() => match out {
                    Some(Out::Bytes(b)) => self.show(b, &mut ctl).await,
                    Some(Out::Exit(code)) => break Some(code),
                    None => break None,
                },
                Some(c) = ctl.recv() => self.control(c),
                () = expire => self.expire(),
            }
        };
        self.session.ended.store(true, Ordering::SeqCst);
        self.session.screen.end();
        self.sessions.remove(self.session.id);
        if let Some(v) = self.viewer.take() {
            if let Some(line) = self.farewell.take() {
                let _ = v
                    .handle
                    .extended_data(v.channel, 1, line.into_bytes())
                    .await;
            }
            let _ = v
                .handle
                .exit_status_request(v.channel, code.unwrap_or(1))
                .await;
            let _ = v.handle.eof(v.channel).await;
            let _ = v.handle.close(v.channel).await;
        }
    }

    /// Output: into the server's copy of the screen, and to the channel showing it. A new
    /// attach while a slow or dead client holds the send up wins: that chunk is abandoned
    /// (the app redraws everything for the new terminal).
    async fn show(&mut self, bytes: Vec<u8>, ctl: &mut tokio::sync::mpsc::UnboundedReceiver<Ctl>) {
        self.session.screen.feed(&bytes);
        let Some(v) = self.viewer.clone() else {
            return;
        };
        tokio::select! {
            sent = v.handle.data(v.channel, bytes) => {
                if sent.is_err() {
                    self.control(Ctl::Detach(v.conn));
                }
            }
            Some(c) = ctl.recv() => self.control(c),
        }
    }

    fn control(&mut self, c: Ctl) {
        match c {
            Ctl::Attach(v) => {
                if let Some(old) = self.viewer.take() {
                    // Shown elsewhere now: the old channel is closed, its connection kept.
                    tokio::spawn(async move {
                        let _ = old.handle.close(old.channel).await;
                    });
                }
                eprintln!("serve: reattached {} from {}", self.session.name, v.peer);
                self.session.resize(v.cols, v.rows);
                self.viewer = Some(v);
                self.deadline = None;
                if let Some(p) = &self.presence {
                    p.set_detached(None);
                }
                self.session.announce_attach();
            }
            Ctl::Leave(line) => {
                self.farewell = Some(format!("\r\n{line}\r\n"));
                self.session.ended.store(true, Ordering::SeqCst);
                drop(self.session.running().take());
            }
            Ctl::Detach(conn) => {
                if self.viewer.as_ref().is_none_or(|v| v.conn != conn) {
                    return;
                }
                self.viewer = None;
                // Already marked when the connection went; not when a send failed.
                self.session.mark_detached(conn);
                self.deadline = Some(tokio::time::Instant::now() + self.keep);
                if let Some(p) = &self.presence {
                    p.set_detached(Some(SystemTime::now() + self.keep));
                }
                eprintln!(
                    "serve: detached {}: kept {} min",
                    self.session.name,
                    self.keep.as_secs().div_ceil(60)
                );
            }
        }
    }

    /// The keep time is over: the app is hung up (it saves and closes its lab), and the pump
    /// runs on until it has ended.
    fn expire(&mut self) {
        self.deadline = None;
        eprintln!(
            "serve: ended {}'s detached session after {} min",
            self.session.name,
            self.keep.as_secs().div_ceil(60)
        );
        // Never taken back from here on, though the app takes a moment to close its lab.
        self.session.ended.store(true, Ordering::SeqCst);
        drop(self.session.running().take());
    }
}

/// Whether the app (a session's app on the server) was shown on a new terminal since `seen`:
/// the number in its attached file, when that is larger.
pub fn attached_since(seen: u64) -> Option<u64> {
    let path = std::env::var_os(ATTACHED_ENV).filter(|p| !p.is_empty())?;
    let text = crate::hostfs::read_named(std::path::Path::new(&path), 32).ok()?;
    let n: u64 = String::from_utf8_lossy(&text).trim().parse().ok()?;
    (n > seen).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn started(f: Found) -> Place {
        match f {
            Found::Start(p) => p,
            Found::AtCap(n) => panic!("at the cap with {n}"),
            Found::Reattached(_) => panic!("reattached"),
        }
    }

    #[test]
    fn a_place_promised_to_a_starting_session_counts_toward_the_cap() {
        let sessions = Arc::new(Sessions::default());
        // Two logins in the same instant, before either app is up: the second is at the cap.
        let first = started(sessions.claim_with("ana", 1, |_| {}));
        assert!(matches!(
            sessions.claim_with("ana", 1, |_| {}),
            Found::AtCap(1)
        ));
        // Another learner's cap is their own.
        let _kim = started(sessions.claim_with("kim", 1, |_| {}));
        // A start that failed gives its place back.
        drop(first);
        let _again = started(sessions.claim_with("ana", 1, |_| {}));
    }
}
