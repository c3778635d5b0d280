//! One SSH connection: public-key login against the roster, then each session channel runs
//! the app for that person (see `app`), or a refusal in one plain line.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use russh::keys::PublicKey;
use russh::server::{
    Auth, ChannelOpenHandle, Handle, Msg, PublicKeyOffer, Response, Session, VerifiedPublicKey,
};
use russh::{Channel, ChannelId, MethodKind, MethodSet};

use super::app::{self, Launch, Out, Running};
use super::mirror::{self, MIRROR_ENV};
use super::request::{ClientEnv, Request};
use super::roster::{Decision, Joined, Role};
use super::screen::{Screen, WATCHED_ENV};
use super::session::{self, ATTACHED_ENV, Found, Viewer};
use super::{Shared, Slot, admission, printable};

/// Numbers the class screens' sockets of this server.
static VIEWS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
/// Numbers this server's connections (which one shows a session).
static CONNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Session channels one connection may hold open.
const MAX_CHANNELS: usize = 4;

/// What the accept loop reads back after the connection ends (its log line).
#[derive(Default)]
pub struct Outcome {
    pub login: Option<(String, Role)>,
    /// The last name refused, and why (`unknown name`, `wrong key`, `wrong class code`...).
    pub refused: Option<(String, &'static str)>,
    /// The last name the client tried, and whether it was then asked for the class code:
    /// what a client that gives up without logging in got to, for the log.
    pub tried: Option<(String, bool)>,
    /// Counts the connection as not logged in until the login.
    pub pending: Option<admission::Pending>,
    /// Counts the connection as logged in while it lasts.
    pub logged_in: Option<admission::LoggedIn>,
    /// Logged in with no channel open since when (closed after `IDLE_NO_CHANNEL`).
    pub idle_since: Option<std::time::Instant>,
}

pub struct Conn {
    pub shared: Arc<Shared>,
    pub outcome: Arc<Mutex<Outcome>>,
    peer: std::net::SocketAddr,
    /// This connection's number.
    id: u64,
    who: Option<(String, Role)>,
    /// A login let in only to be told why not in one line, in the client's language, on its
    /// first session channel (SSH's own refusal cannot carry a message).
    refusal: Option<Refusal>,
    /// A name not on the roster (or with another key) whose key was proved, waiting for the
    /// class code.
    joining: Option<(String, PublicKey)>,
    /// A name on the roster that was offered a key not its own: told so if no other key of the
    /// client is theirs.
    wrong_key: Option<String>,
    chans: HashMap<ChannelId, Chan>,
}

#[derive(Default)]
struct Chan {
    /// TERM and size from the client's pty-req; none: `ssh` without a terminal.
    pty: Option<(String, u16, u16)>,
    env: ClientEnv,
    /// A learner's session shown on this channel: it outlives the connection (`session`).
    session: Option<Arc<session::Session>>,
    /// This connection's number, to detach its session when it goes.
    conn: u64,
    /// The instructor's class screen, or a run without a terminal: ends with the channel.
    running: Option<Running>,
    slot: Option<Slot>,
    /// A learner's screen as the server keeps it, for the instructor's mirror.
    screen: Option<Arc<Screen>>,
    /// The instructor's mirror, on a class screen's channel.
    mirror: Option<mirror::Control>,
}

impl Drop for Chan {
    fn drop(&mut self) {
        // A learner's session is kept for the next connection; anything else ends here.
        if let Some(s) = &self.session {
            s.detach(self.conn);
        } else if let Some(s) = &self.screen {
            // A mirror still showing this screen says the session ended.
            s.end();
        }
    }
}

impl Conn {
    pub fn new(
        shared: Arc<Shared>,
        outcome: Arc<Mutex<Outcome>>,
        peer: std::net::SocketAddr,
    ) -> Conn {
        Conn {
            shared,
            outcome,
            peer,
            id: CONNS.fetch_add(1, std::sync::atomic::Ordering::SeqCst),
            who: None,
            refusal: None,
            joining: None,
            wrong_key: None,
            chans: HashMap::new(),
        }
    }

    fn refuse(&self, name: &str, why: &'static str) {
        if let Ok(mut o) = self.outcome.lock() {
            o.refused = Some((name.chars().take(32).collect(), why));
        }
    }

    /// Remembers what the client last tried, for the log if it never logs in.
    fn tried(&self, name: &str, code_asked: bool) {
        if let Ok(mut o) = self.outcome.lock() {
            o.tried = Some((name.chars().take(32).collect(), code_asked));
        }
    }

    /// Marks the connection idle (no channel open) or busy, for the idle close.
    fn set_idle(&self) {
        let idle = self.chans.is_empty();
        if let Ok(mut o) = self.outcome.lock() {
            o.idle_since = idle.then(std::time::Instant::now);
        }
    }

    /// Starts what `req` asks for on `channel`, or says in one line why not and closes it.
    async fn start(&mut self, channel: ChannelId, req: Request, session: &mut Session) {
        let handle = session.handle();
        if let Some(refusal) = &self.refusal {
            let lang = self
                .chans
                .get(&channel)
                .map_or(self.shared.server_lang(), |c| c.env.lang());
            let line = match refusal {
                Refusal::UnknownName => self.shared.texts(lang).unknown_name.clone(),
                other => other.line(lang),
            };
            return refuse_channel(handle, channel, line).await;
        }
        let Some((name, role)) = self.who.clone() else {
            return;
        };
        let Some(chan) = self.chans.get_mut(&channel) else {
            return;
        };
        if chan.running.is_some() || chan.slot.is_some() {
            return;
        }
        let texts = self.shared.texts(chan.env.lang());
        if req.needs_terminal() && chan.pty.is_none() {
            return refuse_channel(handle, channel, texts.needs_terminal.clone()).await;
        }
        // A learner's terminal session: their newest kept session if they have one (whatever
        // they asked for), else a new one within their cap.
        let mut place = None;
        if role == Role::Learner
            && let Some((_, cols, rows)) = chan.pty.clone()
        {
            let viewer = Viewer {
                handle: handle.clone(),
                channel,
                conn: self.id,
                peer: self.peer,
                cols,
                rows,
            };
            let cap = self.shared.sessions_per_learner;
            match self.shared.sessions.claim(&name, cap, &viewer) {
                Found::Reattached(s) => {
                    chan.session = Some(s);
                    return;
                }
                Found::AtCap(n) => {
                    eprintln!(
                        "serve: refused a session to {name} from {}: {n} sessions open (at most {cap})",
                        self.peer
                    );
                    let line = Refusal::Sessions(n, cap).line(chan.env.lang());
                    return refuse_channel(handle, channel, line).await;
                }
                Found::Start(p) => place = Some(p),
            }
        }
        let Some(slot) = self.shared.take_slot() else {
            eprintln!(
                "serve: refused a session to {name} from {}: the class is full ({} sessions)",
                self.peer, self.shared.max_sessions
            );
            return refuse_channel(handle, channel, texts.full.clone()).await;
        };
        let class = self.shared.class.clone();
        let mut args: Vec<String> = vec!["--content".into(), self.shared.content_arg()];
        let mut env: Vec<(String, String)> = vec![
            ("ROCM_LEARN_DATA_DIR".into(), class.display().to_string()),
            ("ROCM_LEARN_LEARNER".into(), name.clone()),
            // Every finished item also leaves a signed export here, so `report` reads the
            // class as it reads a submit folder.
            (
                super::SUBMIT_ENV.into(),
                class.join(super::SUBMIT).display().to_string(),
            ),
            ("USER".into(), name.clone()),
            ("LOGNAME".into(), name.clone()),
            (
                "LANG".into(),
                super::request::locale(chan.env.lang()).into(),
            ),
        ];
        if chan.env.no_color {
            env.push(("NO_COLOR".into(), "1".into()));
        }
        env.push((
            super::lab_memory::ENV.into(),
            self.shared.lab_memory_socket.display().to_string(),
        ));
        // The lab's host ids are the session's own (see `Slot`).
        env.extend(self.shared.slot_env(&slot));
        if role == Role::Instructor && req == Request::Home {
            args = vec![
                "serve".into(),
                "--class".into(),
                class.display().to_string(),
                "--class-view".into(),
            ];
        } else {
            args.extend(req.args());
        }
        let _ = crate::unix::files::private_dir(&app::learner_dir(&class, &name), 0o700);
        // With a class database, this worker's copy of the learner's record is completed first.
        if role == Role::Learner
            && let Some(store) = &self.shared.store
        {
            store.materialize(&class, &name).await;
        }
        let Some((term, cols, rows)) = chan.pty.clone() else {
            // `progress` without a terminal: printed and done.
            chan.slot = Some(slot);
            let exe = self.shared.exe.clone();
            tokio::spawn(async move {
                let out = tokio::task::spawn_blocking(move || run_printed(&exe, &args, &env)).await;
                let (code, stdout, stderr) = out.unwrap_or((1, Vec::new(), Vec::new()));
                let _ = handle.data(channel, stdout).await;
                let _ = handle.extended_data(channel, 1, stderr).await;
                let _ = handle.exit_status_request(channel, code).await;
                let _ = handle.eof(channel).await;
                let _ = handle.close(channel).await;
            });
            return;
        };
        env.push(("TERM".into(), term));
        let run_dir = self.shared.run_dir.path();
        let screen =
            (role == Role::Learner).then(|| Arc::new(Screen::new(&name, cols, rows, run_dir)));
        let attached_file = screen
            .as_ref()
            .map(|s| s.watched_file().with_extension("attached"));
        if let Some(s) = &screen {
            env.push((WATCHED_ENV.into(), s.watched_file().display().to_string()));
        }
        if let Some(f) = &attached_file {
            env.push((ATTACHED_ENV.into(), f.display().to_string()));
        }
        if let Some(s) = &screen {
            env.push((super::help::ENV.into(), s.help_file().display().to_string()));
        }
        // The class screen asks for mirrors over a socket only this server can reach.
        let listener = if role == Role::Instructor && req == Request::Home {
            let n = VIEWS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let path = run_dir.join(format!("view-{n}.sock"));
            match tokio::net::UnixListener::bind(&path) {
                Ok(l) => {
                    env.push((MIRROR_ENV.into(), path.display().to_string()));
                    Some(l)
                }
                Err(e) => {
                    eprintln!("serve: {name}: no mirror: {e}");
                    None
                }
            }
        } else {
            None
        };
        let (tx, rx) = tokio::sync::mpsc::channel::<Out>(app::OUTPUT_CHUNKS);
        let launch = Launch {
            exe: self.shared.exe.clone(),
            args,
            env,
            cols,
            rows,
            slot: Some(slot.clone()),
        };
        let running = match app::start(launch, tx) {
            Ok(running) => running,
            Err(e) => {
                eprintln!("serve: {name}: the app did not start: {e}");
                return refuse_channel(handle, channel, texts.failed.clone()).await;
            }
        };
        if let (Some(screen), Some(attached_file)) = (screen, attached_file) {
            screen.set_app(running.process());
            self.shared.screens.add(&screen);
            let start = session::Start {
                name: name.clone(),
                running,
                output: rx,
                screen: screen.clone(),
                presence: super::presence::Presence::new(&class, &name),
                attached_file,
                keep: self.shared.keep_detached,
                place,
            };
            let viewer = Viewer {
                handle,
                channel,
                conn: self.id,
                peer: self.peer,
                cols,
                rows,
            };
            chan.session = Some(session::Session::start(
                start,
                viewer,
                self.shared.sessions.clone(),
            ));
            chan.screen = Some(screen);
            return;
        }
        let mut rx = rx;
        chan.running = Some(running);
        chan.slot = Some(slot);
        if let Some(listener) = listener {
            let term = mirror::Term {
                lang: chan.env.lang(),
                color: !chan.env.no_color,
                cols,
                rows,
            };
            chan.mirror = Some(mirror::start(
                handle,
                channel,
                rx,
                listener,
                self.shared.clone(),
                term,
            ));
            return;
        }
        tokio::spawn(async move {
            while let Some(out) = rx.recv().await {
                match out {
                    Out::Bytes(b) => {
                        if handle.data(channel, b).await.is_err() {
                            break;
                        }
                    }
                    Out::Exit(code) => {
                        let _ = handle.exit_status_request(channel, code).await;
                        let _ = handle.eof(channel).await;
                        let _ = handle.close(channel).await;
                        break;
                    }
                }
            }
        });
    }
}

/// Runs the app to print something (no terminal), capped in time and size.
fn run_printed(
    exe: &std::path::Path,
    args: &[String],
    env: &[(String, String)],
) -> (u32, Vec<u8>, Vec<u8>) {
    let mut cmd = std::process::Command::new(exe);
    cmd.args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    for v in app::CLEARED {
        cmd.env_remove(v);
    }
    cmd.envs(env.iter().map(|(k, v)| (k, v)));
    match crate::child::run_capped(cmd, std::time::Duration::from_secs(20), 4 << 20) {
        Ok(f) => (f.status.code().map_or(1, |c| c as u32), f.stdout, f.stderr),
        Err(_) => (1, Vec::new(), Vec::new()),
    }
}

/// One line on the client's terminal (stderr of `ssh`), then the channel closes.
async fn refuse_channel(handle: Handle, channel: ChannelId, line: String) {
    let _ = handle
        .extended_data(channel, 1, format!("{line}\r\n").into_bytes())
        .await;
    let _ = handle.exit_status_request(channel, 1).await;
    let _ = handle.eof(channel).await;
    let _ = handle.close(channel).await;
}

impl russh::server::Handler for Conn {
    type Error = russh::Error;

    async fn auth_publickey_offered(
        &mut self,
        user: &str,
        offer: PublicKeyOffer<'_>,
    ) -> Result<Auth, Self::Error> {
        Ok(self.check(user, offer.public_key))
    }

    async fn auth_publickey(
        &mut self,
        user: &str,
        key: VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        let key = key.public_key;
        self.tried(user, false);
        let decision = self.shared.roster.get().decide(user, key);
        let code = super::code::load(&self.shared.class).is_some();
        Ok(match decision {
            Decision::Welcome(role) => {
                self.welcome(user, role);
                Auth::Accept
            }
            Decision::WrongKey => self.not_their_key(user),
            // The key is proved: with a class code, this name may join (or hear it is taken).
            Decision::UnknownName if code => {
                if !super::roster::valid_name(user) {
                    self.refuse(user, "bad name");
                    self.refusal = Some(Refusal::BadName(user.to_string()));
                    return Ok(Auth::Accept);
                }
                self.joining = Some((user.to_string(), key.clone()));
                self.tried(user, true);
                Auth::Reject {
                    proceed_with_methods: Some(MethodSet::from(
                        &[MethodKind::KeyboardInteractive][..],
                    )),
                    partial_success: true,
                }
            }
            Decision::UnknownName => {
                self.refuse(user, "unknown name");
                self.refusal = Some(Refusal::UnknownName);
                Auth::Accept
            }
        })
    }

    async fn auth_keyboard_interactive<'a>(
        &'a mut self,
        user: &str,
        _submethods: &str,
        response: Option<Response<'a>>,
    ) -> Result<Auth, Self::Error> {
        // Only after a proved key for this very name: the code alone lets nobody in.
        let Some((name, key)) = self.joining.clone().filter(|(n, _)| n == user) else {
            // No key of the client was this name's: one line says so (no question asked).
            if self.wrong_key.as_deref() == Some(user) {
                self.refusal = Some(Refusal::NotTheirKey(user.to_string()));
                return Ok(Auth::Accept);
            }
            return Ok(Auth::reject());
        };
        let Some(mut response) = response else {
            let (instructions, prompt) = code_prompt(self.shared.server_lang(), &name);
            return Ok(Auth::Partial {
                name: "".into(),
                instructions: instructions.into(),
                prompts: vec![(prompt.into(), false)].into(),
            });
        };
        self.joining = None;
        let answer = response
            .next()
            .map(|b| String::from_utf8_lossy(&b[..b.len().min(256)]).into_owned())
            .unwrap_or_default();
        let class = self.shared.class.clone();
        let right = super::code::load(&class).is_some_and(|c| super::code::matches(&c, &answer));
        if !right {
            // One guess per connection, and slow ones.
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            self.refuse(&name, "wrong class code");
            self.refusal = Some(Refusal::WrongCode);
            return Ok(Auth::Accept);
        }
        let who = name.clone();
        let joined =
            tokio::task::spawn_blocking(move || super::roster::join(&class, &who, &key)).await;
        match joined {
            Ok(Ok(Joined::Added)) => {
                eprintln!("serve: joined {name} (learner) from {}", self.peer);
                self.welcome(&name, Role::Learner);
            }
            Ok(Ok(Joined::Taken)) => {
                self.refuse(&name, "name taken");
                self.refusal = Some(Refusal::Taken(name));
            }
            Ok(Err(e)) => {
                eprintln!("serve: {name}: not added to the roster: {e}");
                self.refuse(&name, "roster not written");
                self.refusal = Some(Refusal::JoinFailed);
            }
            Err(_) => {
                self.refusal = Some(Refusal::JoinFailed);
            }
        }
        Ok(Auth::Accept)
    }

    async fn channel_open_session(
        &mut self,
        channel: Channel<Msg>,
        reply: ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if (self.who.is_none() && self.refusal.is_none()) || self.chans.len() >= MAX_CHANNELS {
            // Dropping the reply refuses the channel.
            return Ok(());
        }
        let mut chan = Chan::default();
        chan.conn = self.id;
        self.chans.insert(channel.id(), chan);
        self.set_idle();
        reply.accept().await;
        Ok(())
    }

    async fn pty_request(
        &mut self,
        channel: ChannelId,
        term: &str,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _modes: &[(russh::Pty, u32)],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if let Some(c) = self.chans.get_mut(&channel) {
            c.pty = Some((
                super::request::term(term),
                size(col_width, 80),
                size(row_height, 24),
            ));
            session.channel_success(channel)?;
        } else {
            session.channel_failure(channel)?;
        }
        Ok(())
    }

    async fn env_request(
        &mut self,
        channel: ChannelId,
        name: &str,
        value: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if let Some(c) = self.chans.get_mut(&channel) {
            c.env.set(name, value);
            session.channel_success(channel)?;
        }
        Ok(())
    }

    async fn shell_request(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_success(channel)?;
        self.start(channel, Request::Home, session).await;
        Ok(())
    }

    async fn exec_request(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_success(channel)?;
        match Request::parse(data) {
            Some(req) => self.start(channel, req, session).await,
            None if self.refusal.is_some() => self.start(channel, Request::Home, session).await,
            None => {
                let lang = self.chans.get(&channel).map(|c| c.env.lang());
                let texts = self.shared.texts(lang.unwrap_or(crate::lang::Lang::En));
                refuse_channel(session.handle(), channel, texts.not_allowed.clone()).await;
            }
        }
        Ok(())
    }

    async fn subsystem_request(
        &mut self,
        channel: ChannelId,
        _name: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        // No sftp, no other subsystem: the class server serves the app only.
        session.channel_failure(channel)?;
        Ok(())
    }

    async fn window_change_request(
        &mut self,
        channel: ChannelId,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if let Some(c) = self.chans.get_mut(&channel) {
            let (cols, rows) = (size(col_width, 80), size(row_height, 24));
            if let Some(p) = c.pty.as_mut() {
                (p.1, p.2) = (cols, rows);
            }
            if let Some(s) = &c.session {
                s.resize(cols, rows);
            } else {
                if let Some(r) = &c.running {
                    r.resize(cols, rows);
                }
                if let Some(s) = &c.screen {
                    s.resize(cols, rows);
                }
            }
            if let Some(m) = &c.mirror {
                m.resize(cols, rows);
            }
        }
        Ok(())
    }

    async fn data(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        let Some(c) = self.chans.get_mut(&channel) else {
            return Ok(());
        };
        // While the instructor watches a learner, their keys are the mirror's alone.
        if let Some(m) = c.mirror.as_ref().filter(|m| m.active()) {
            m.key(data);
        } else if let Some(s) = &c.session {
            s.input(data);
        } else if let Some(r) = c.running.as_mut() {
            r.input(data);
        }
        Ok(())
    }

    async fn channel_close(
        &mut self,
        channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        // A learner's session is kept, detached, for their next login; anything else run on
        // the channel ends with it (dropping the app hangs up its terminal).
        self.chans.remove(&channel);
        self.set_idle();
        Ok(())
    }
}

impl Conn {
    /// The roster's answer for a key offered: an unknown name is let on to prove its key (it
    /// is then told so, or asked for the class code).
    fn check(&mut self, user: &str, key: &PublicKey) -> Auth {
        self.tried(user, false);
        match self.shared.roster.get().decide(user, key) {
            Decision::Welcome(_) | Decision::UnknownName => Auth::Accept,
            Decision::WrongKey => self.not_their_key(user),
        }
    }

    /// A name on the roster, offered a key that is not theirs: never asked for the class code
    /// (the name is taken). The client goes on with its other keys; when none is theirs, it
    /// falls back to keyboard-interactive, which tells it in one line whose key this is not.
    fn not_their_key(&mut self, user: &str) -> Auth {
        self.refuse(user, "wrong key");
        self.wrong_key = Some(user.to_string());
        Auth::Reject {
            proceed_with_methods: Some(MethodSet::from(
                &[MethodKind::PublicKey, MethodKind::KeyboardInteractive][..],
            )),
            partial_success: false,
        }
    }

    /// A login proved: counted as logged in, or let in only to hear that this learner (or the
    /// server) has too many connections.
    fn welcome(&mut self, user: &str, role: Role) {
        let Ok(mut o) = self.outcome.lock() else {
            return;
        };
        let counted = o.pending.take().map(|p| p.login(user));
        match counted {
            Some(Err(why)) => {
                let (line, refusal) = match why {
                    admission::LoginRefused::Learner(n) => (
                        format!("{n} connections of this learner"),
                        Refusal::Connections(user.to_string()),
                    ),
                    admission::LoginRefused::Full(n) => {
                        (format!("{n} connections logged in"), Refusal::Busy)
                    }
                };
                eprintln!(
                    "serve: refused {} from {}: too many connections ({line})",
                    printable(user),
                    self.peer
                );
                o.refused = Some((user.chars().take(32).collect(), "too many connections"));
                drop(o);
                self.refusal = Some(refusal);
            }
            counted => {
                o.logged_in = counted.and_then(Result::ok);
                o.login = Some((user.to_string(), role));
                o.refused = None;
                o.idle_since = Some(std::time::Instant::now());
                drop(o);
                self.shared
                    .admission
                    .vouch(self.peer.ip(), std::time::Instant::now());
                self.who = Some((user.to_string(), role));
                eprintln!("serve: login {user} ({}) from {}", role.word(), self.peer);
            }
        }
    }
}

/// Why a login was let in only to be told no.
#[derive(Debug, Clone)]
enum Refusal {
    UnknownName,
    BadName(String),
    WrongCode,
    Taken(String),
    JoinFailed,
    /// This many sessions open, the most a learner may have.
    Sessions(usize, usize),
    /// Too many connections of this learner.
    Connections(String),
    /// Too many connections logged in.
    Busy,
    /// A name on the roster, and a key that is not theirs.
    NotTheirKey(String),
}

impl Refusal {
    /// The one line the client reads, in its language.
    fn line(&self, lang: crate::lang::Lang) -> String {
        let i18n = crate::i18n::I18n::new(lang);
        // The name is the client's own text: shown without controls, and short.
        let name = |n: &str| -> String { printable(&n.chars().take(40).collect::<String>()) };
        match self {
            Refusal::UnknownName => i18n.t("serve-refused-unknown"),
            Refusal::BadName(n) => i18n.ta("serve-refused-bad-name", &[("name", name(n).into())]),
            Refusal::WrongCode => i18n.t("serve-refused-code"),
            Refusal::Taken(n) => i18n.ta("serve-refused-taken", &[("name", name(n).into())]),
            Refusal::JoinFailed => i18n.t("serve-join-failed"),
            Refusal::Sessions(n, max) => i18n.ta(
                "serve-refused-sessions",
                &[("n", (*n).into()), ("max", (*max).into())],
            ),
            Refusal::Connections(n) => {
                i18n.ta("serve-refused-connections", &[("name", name(n).into())])
            }
            Refusal::Busy => i18n.t("serve-refused-busy"),
            Refusal::NotTheirKey(n) => {
                i18n.ta("serve-refused-not-their-key", &[("name", name(n).into())])
            }
        }
    }
}

/// The class code's question: (instructions, prompt), in the server's language.
fn code_prompt(lang: crate::lang::Lang, name: &str) -> (String, String) {
    let i18n = crate::i18n::I18n::new(lang);
    (
        i18n.ta(
            "serve-code-instructions",
            &[("name", name.to_string().into())],
        ),
        format!("{}: ", i18n.t("serve-code-prompt")),
    )
}

/// A terminal dimension from the client, kept to what a screen can be; 0 (a client with no
/// terminal of its own, `ssh -tt` from a script) reads as `default`.
fn size(n: u32, default: u16) -> u16 {
    if n == 0 { default } else { n.min(1000) as u16 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;

    #[test]
    fn a_key_not_their_own_is_said_in_every_language_with_the_name() {
        let said = |lang| Refusal::NotTheirKey("ana\x1b[2J".into()).line(lang);
        let (en, ja, ko) = (said(Lang::En), said(Lang::Ja), said(Lang::Ko));
        assert!(en.starts_with("This key is not ana?[2J's."), "{en}");
        assert!(ja.contains("「ana?[2J」の鍵ではありません"), "{ja}");
        assert!(ko.contains("\"ana?[2J\"의 키가 아닙니다"), "{ko}");
        // Not the message of a name the roster does not have.
        let unknown = Refusal::UnknownName.line(Lang::En);
        assert_ne!(en, unknown);
        assert!(!en.contains("not on the class roster"), "{en}");
    }
}
