//! `rocm-learn serve --class DIR`: the whole app for a class over SSH. Each learner logs in
//! with their key (the roster), gets the full-screen app in their own folder on the server
//! (labs included, in the same sandbox as on a laptop), and their progress stays there; an
//! instructor's login opens the class view.
//!
//! `roster` says who may log in, `hostkey` keeps the server's key and `code` the class code
//! (both through `secret`), `conn` is one connection (login and session channels), `app` runs
//! one session's app on a pseudo-terminal, `request` checks what a client asks for, and `class`
//! is the instructor's screen; `screen` keeps each learner session's screen and `mirror` shows
//! one to the instructor.

pub mod admission;
mod app;
pub mod app_side;
pub mod blocks;
pub mod class;
pub mod code;
mod conn;
pub mod drain;
pub mod help;
pub mod hostkey;
pub mod lab_memory;
mod mirror;
pub mod presence;
pub mod request;
pub mod roster;
pub mod screen;
mod secret;
pub mod session;
pub mod store;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::i18n::I18n;
use crate::lang::Lang;
use roster::Roster;

/// Where the server listens unless `--listen` says otherwise.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:2222";
/// The class folder's submit folder: each learner's export, for `report`.
pub const SUBMIT: &str = "submit";
/// The class's shared folder: each finished item writes the learner's export there (the
/// server names its submit folder in it; an instructor may set it on a shared folder).
pub const SUBMIT_ENV: &str = "ROCM_LEARN_SUBMIT_DIR";

/// The messages a client may read, in one language.
pub struct Texts {
    pub unknown_name: String,
    pub full: String,
    pub needs_terminal: String,
    pub not_allowed: String,
    pub failed: String,
}

impl Texts {
    fn new(lang: Lang) -> Texts {
        let i = I18n::new(lang);
        Texts {
            unknown_name: i.t("serve-refused-unknown"),
            full: i.t("serve-full"),
            needs_terminal: i.t("serve-needs-terminal"),
            not_allowed: i.t("serve-not-allowed"),
            failed: i.t("serve-app-failed"),
        }
    }
}

/// What every connection shares.
pub struct Shared {
    pub class: PathBuf,
    pub roster: roster::Live,
    /// This binary: each session runs it.
    pub exe: PathBuf,
    max_sessions: usize,
    /// Which session places are taken, by number.
    slots: Arc<Mutex<Vec<bool>>>,
    /// Whether each session's app is told its block of host ids for its lab
    /// (`lab::app::idmap::SLOT_ENV`), and where blocks are taken machine-wide: not when the
    /// labs here would share ids anyway.
    lab_blocks: Option<blocks::Blocks>,
    /// The server's own language (a refusal before the client said its locale).
    lang: Lang,
    texts: Vec<(Lang, Texts)>,
    /// The learner sessions' screens, for the instructor's mirror.
    pub screens: screen::Screens,
    /// This server's own folder (mode 0700): the class screens' sockets, watched marks.
    pub run_dir: tempfile::TempDir,
    /// Learner sessions, attached or kept after their connection dropped.
    pub sessions: Arc<session::Sessions>,
    /// How long a learner's session is kept after its connection drops.
    pub keep_detached: Duration,
    /// Sessions one learner may have at once.
    pub sessions_per_learner: usize,
    /// Who may hold a connection, and how many.
    pub admission: Arc<admission::Admission>,
    /// A shorter close of logged-in connections without a channel (tests).
    idle_close: Option<Duration>,
    /// The socket on which sessions ask for lab memory (`lab_memory`).
    pub lab_memory_socket: PathBuf,
    /// The class database shared with other workers (`--store`), if any.
    pub store: Option<Arc<store::Store>>,
    /// Set on SIGTERM: no new connections, sessions told to log in again.
    pub drain: Arc<drain::Drain>,
}

/// One of the server's session places, given back when its last holder drops it: the
/// session's channel and the session's app, which may outlive the channel while it closes its
/// lab. With labs of their own ids, it also holds the session's block of host ids, taken
/// machine-wide (`blocks`), so a block is not reused while a lab of it may still run.
#[derive(Clone)]
pub struct Slot(Arc<Taken>);

struct Taken {
    place: usize,
    slots: Arc<Mutex<Vec<bool>>>,
    block: Option<blocks::Held>,
}

impl Drop for Taken {
    fn drop(&mut self) {
        if let Ok(mut taken) = self.slots.lock() {
            taken[self.place] = false;
        }
    }
}

impl Slot {}

/// The first free place of `taken`, marked taken.
fn first_free(taken: &mut [bool]) -> Option<usize> {
    let n = taken.iter().position(|t| !t)?;
    taken[n] = true;
    Some(n)
}

impl Shared {
    pub fn texts(&self, lang: Lang) -> &Texts {
        &self
            .texts
            .iter()
            .find(|(l, _)| *l == lang)
            .unwrap_or(&self.texts[0])
            .1
    }

    pub fn server_lang(&self) -> Lang {
        self.lang
    }

    /// A session place, the lowest free one, and its block of host ids when labs have their
    /// own: none if the class is full, or every block of the machine is held.
    pub fn take_slot(&self) -> Option<Slot> {
        let place = first_free(&mut self.slots.lock().ok()?)?;
        let mut taken = Taken {
            place,
            slots: self.slots.clone(),
            block: None,
        };
        if let Some(blocks) = &self.lab_blocks {
            // Dropping `taken` gives the place back.
            taken.block = Some(blocks.take()?);
        }
        Some(Slot(Arc::new(taken)))
    }

    /// What a session's app is told about its block (`lab::app::idmap::SLOT_ENV`), if
    /// anything, and the lock it holds the block by while it lives (`SLOT_LOCK_ENV`).
    pub fn slot_env(&self, slot: &Slot) -> Vec<(String, String)> {
        use crate::lab::app::idmap::{SLOT_ENV, SLOT_LOCK_ENV};
        let Some(held) = &slot.0.block else {
            return Vec::new();
        };
        vec![
            (SLOT_ENV.to_string(), held.number().to_string()),
            (
                SLOT_LOCK_ENV.to_string(),
                held.lab_lock().display().to_string(),
            ),
        ]
    }

    /// The pack every session opens: `CLASS/pack` when there is one, else the built-in course
    /// (named, so no setting of the server's own environment leaks in).
    pub fn content_arg(&self) -> String {
        let pack = self.class.join("pack");
        if pack.exists() {
            pack.display().to_string()
        } else {
            crate::content::pack::BUILTIN.to_string()
        }
    }
}

/// Says why the server cannot go on, in the learner's language; the exit status for it.
fn failed(i18n: &I18n, msg: &crate::content::Msg) -> i32 {
    eprintln!("{}", i18n.msg(msg));
    crate::exit::EXIT_FAIL
}

/// `--print-code`: the class code on stdout (made first if there is none), what it does on
/// stderr. Only here, never in the server's log.
fn print_code(i18n: &I18n, class: &Path) -> i32 {
    match code::load_or_make(class) {
        Ok(c) => {
            println!("{}", code::shown(&c));
            eprintln!(
                "{}",
                i18n.ta(
                    "serve-code-note",
                    &[("path", class.join(code::FILE).display().to_string().into())]
                )
            );
            crate::exit::EXIT_OK
        }
        Err(msg) => failed(i18n, &msg),
    }
}

/// What `serve`'s command line asks for (parsed in `cli::serve_class`).
#[derive(Debug, Clone)]
pub struct Options {
    pub class: PathBuf,
    pub listen: SocketAddr,
    pub max_sessions: u32,
    pub login_timeout: Duration,
    pub keep_detached: Duration,
    pub sessions_per_learner: u32,
    pub startups: admission::Startups,
    pub per_source_startups: usize,
    /// The labs' memory budget in bytes; half the machine's RAM when not given.
    pub lab_memory: Option<u64>,
    /// `--store`; `ROCM_LEARN_STORE` when not given.
    pub store: Option<String>,
    pub health: Option<SocketAddr>,
    pub print_code: bool,
    /// Tests: close logged-in connections without a channel after this long.
    pub idle_close: Option<Duration>,
    /// The instructor's session: the class screen on this terminal.
    pub class_view: bool,
}

/// Runs `serve`; returns the exit status.
pub fn main(i18n: &I18n, o: &Options) -> i32 {
    // A typed key passes through this server twice on its way back as an echo: its threads
    // (and the session apps it starts, which inherit it) take short turns on the CPU.
    crate::sys::set_turn(crate::sys::SHORT_TURN_NS);
    let class = o.class.clone();
    // Every session starts in its learner's own folder: a relative class folder would be
    // read from there, not from here.
    let class = std::path::absolute(&class).unwrap_or(class);
    if !class.is_dir() {
        eprintln!(
            "{}",
            i18n.ta(
                "serve-no-class",
                &[("dir", class.display().to_string().into())]
            )
        );
        return crate::exit::EXIT_USAGE;
    }
    if o.class_view {
        return class::main(i18n, &class);
    }
    if o.print_code {
        return print_code(i18n, &class);
    }
    let max_sessions = o.max_sessions;
    if max_sessions > crate::lab::app::idmap::MAX_SLOTS {
        let max = crate::lab::app::idmap::MAX_SLOTS;
        eprintln!(
            "{}",
            i18n.ta(
                "serve-too-many-sessions",
                &[("n", max_sessions.into()), ("max", max.into())]
            )
        );
        return crate::exit::EXIT_USAGE;
    }
    let roster = match Roster::load(&class) {
        Ok(r) => r,
        Err(msg) => return failed(i18n, &msg),
    };
    // Results queued by an earlier run with a learning record store would wait unseen.
    if let Some(n) = crate::lrs::stranded(&class) {
        eprintln!(
            "{}",
            i18n.ta(
                "serve-lrs-unsent",
                &[
                    ("count", n.into()),
                    (
                        "dir",
                        crate::lrs::queue_dir(&class).display().to_string().into()
                    ),
                    ("env", crate::lrs::URL_ENV.into()),
                    ("auth", crate::lrs::AUTH_ENV.into()),
                ]
            )
        );
    }
    // Learners' progress and exports are the server user's alone (the instructor reads them
    // as that user, or through `report`): their folders are 0700, and what is made in them
    // 0600. Folders from before are closed too.
    for dir in [crate::progress::LEARNERS_DIR, SUBMIT, presence::DIR] {
        let dir = class.join(dir);
        let made = crate::unix::files::private_dir(&dir, 0o700)
            .and_then(|()| crate::unix::files::set_modes(&dir, 0o600, 0o700));
        if let Err(e) = made {
            eprintln!("serve: {}: {e}", dir.display());
            return crate::exit::EXIT_FAIL;
        }
    }
    let key = match hostkey::load_or_make(&class) {
        Ok(k) => k,
        Err(msg) => return failed(i18n, &msg),
    };
    // The sessions sign exports with the class's install key: made here, before any session
    // starts, so that they never race to make it.
    if let Err(e) = crate::sign::install_key(&class) {
        let msg = crate::content::Msg::new("serve-install-key-bad").arg("why", e.to_string());
        return failed(i18n, &msg);
    }
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("serve: {e}");
            return crate::exit::EXIT_FAIL;
        }
    };
    let listen = o.listen;
    let lab_blocks = if lab_ids(max_sessions) {
        match lab_blocks() {
            Ok(b) => Some(b),
            Err(e) => {
                eprintln!("serve: {e}");
                return crate::exit::EXIT_FAIL;
            }
        }
    } else {
        None
    };
    let run_dir = match tempfile::Builder::new()
        .prefix("rocm-learn-serve.")
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o700))
        .tempdir()
    {
        Ok(d) => d,
        Err(e) => {
            eprintln!("serve: {e}");
            return crate::exit::EXIT_FAIL;
        }
    };
    let limits =
        admission::Limits::for_sessions(max_sessions as usize, o.startups, o.per_source_startups);
    // One thread for every connection: a key and its echo each wake it once, where two workers
    // handed a session's bytes between them (a wake-up more per direction, each of which waits
    // for a CPU when learners run busy programs). Slow work (files, the roster, the store's
    // queries that block) goes to tokio's blocking threads.
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("serve: {e}");
            return crate::exit::EXIT_FAIL;
        }
    };
    let store = match store_url(o.store.as_deref()) {
        None => None,
        Some(Err(msg)) => return failed(i18n, &msg),
        Some(Ok(url)) => match runtime.block_on(store::Store::open(url, i18n.lang())) {
            Ok(s) => Some(Arc::new(s)),
            Err(msg) => return failed(i18n, &msg),
        },
    };
    let lab_memory_socket = run_dir.path().join("lab-memory.sock");
    let shared = Arc::new(Shared {
        class: class.clone(),
        roster: roster::Live::new(&class, roster),
        exe,
        max_sessions: max_sessions as usize,
        slots: Arc::new(Mutex::new(vec![false; max_sessions as usize])),
        lab_blocks,
        lang: i18n.lang(),
        texts: Lang::ALL.iter().map(|&l| (l, Texts::new(l))).collect(),
        screens: screen::Screens::default(),
        run_dir,
        sessions: Arc::default(),
        keep_detached: o.keep_detached,
        sessions_per_learner: o.sessions_per_learner as usize,
        admission: admission::Admission::new(limits),
        idle_close: o.idle_close,
        lab_memory_socket,
        store,
        drain: Arc::default(),
    });
    let lab_memory = lab_memory::Budget::new(o.lab_memory.unwrap_or_else(lab_memory::half_of_ram));
    let login_timeout = o.login_timeout;
    let config = Arc::new(config(key));
    if let Err(e) = drain::on_sigterm(shared.drain.clone()) {
        eprintln!("serve: {e}");
        return crate::exit::EXIT_FAIL;
    }
    if let Some(addr) = &o.health {
        match runtime.block_on(tokio::net::TcpListener::bind(addr)) {
            Ok(l) => {
                runtime.spawn(drain::health(l, shared.drain.clone()));
            }
            Err(e) => {
                let line = i18n.ta(
                    "serve-listen-failed",
                    &[
                        ("addr", addr.to_string().into()),
                        ("error", e.to_string().into()),
                    ],
                );
                eprintln!("{line}");
                return crate::exit::EXIT_FAIL;
            }
        }
    }
    match runtime.block_on(run(i18n, shared, listen, config, login_timeout, lab_memory)) {
        Ok(()) => crate::exit::EXIT_OK,
        Err(e) => {
            eprintln!(
                "{}",
                i18n.ta(
                    "serve-listen-failed",
                    &[
                        ("addr", listen.to_string().into()),
                        ("error", e.to_string().into())
                    ]
                )
            );
            crate::exit::EXIT_FAIL
        }
    }
}

/// The class database named by `--store`, else by `ROCM_LEARN_STORE`; none without either.
fn store_url(given: Option<&str>) -> Option<Result<store::Url, crate::content::Msg>> {
    let url = given
        .map(str::to_string)
        .or_else(|| std::env::var(store::ENV).ok())
        .filter(|u| !u.is_empty())?;
    Some(store::url::parse(&url))
}

/// Whether each session's lab gets host ids of its own (see `Slot`), so whether to tell each
/// app its place; one line in the log when the labs here share ids.
fn lab_ids(max_sessions: u32) -> bool {
    use crate::lab::app::bwrap;
    // What the host allows a sandbox, asked once here and kept for the sessions' apps.
    std::thread::spawn(bwrap::ask_ahead);
    match bwrap::session_ids(max_sessions) {
        bwrap::SessionIds::OwnBlock => true,
        bwrap::SessionIds::SharedRange { have, need } => {
            eprintln!(
                "serve: learners' labs share one range of host ids: /etc/subuid and /etc/subgid \
                 give this user {have} ids, a range for each of {max_sessions} sessions needs \
                 {need} (or run serve as root)"
            );
            false
        }
        bwrap::SessionIds::ServerUser => {
            eprintln!(
                "serve: learners' labs share this server's user id: it has no subordinate ids \
                 (/etc/subuid, /etc/subgid and newuidmap; or run serve as root)"
            );
            false
        }
    }
}

/// The machine-wide blocks of host ids this user's servers share (`blocks`).
fn lab_blocks() -> Result<blocks::Blocks, String> {
    let dir = blocks::default_dir()
        .ok_or("no folder for the host-id locks: set HOME or XDG_RUNTIME_DIR".to_string())?;
    blocks::Blocks::open(&dir, blocks::capacity())
        .map_err(|e| format!("host-id locks in {}: {e}", dir.display()))
}

fn config(key: russh::keys::PrivateKey) -> russh::server::Config {
    use russh::{MethodKind, MethodSet};
    russh::server::Config {
        server_id: russh::SshId::Standard(
            concat!("SSH-2.0-rocm-learn_", env!("CARGO_PKG_VERSION")).into(),
        ),
        methods: MethodSet::from(&[MethodKind::PublicKey][..]),
        auth_rejection_time: Duration::from_millis(200),
        auth_rejection_time_initial: Some(Duration::ZERO),
        keys: vec![key],
        max_auth_attempts: 6,
        // A learner reading a lesson sends nothing for a long time; a dead client is found by
        // keepalives instead.
        inactivity_timeout: None,
        keepalive_interval: Some(Duration::from_secs(30)),
        keepalive_max: 4,
        nodelay: true,
        ..Default::default()
    }
}

async fn run(
    i18n: &I18n,
    shared: Arc<Shared>,
    listen: SocketAddr,
    config: Arc<russh::server::Config>,
    login_timeout: Duration,
    lab_memory: Arc<lab_memory::Budget>,
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(listen).await?;
    // Only this server's sessions reach it: it lives in the server's own folder (0700).
    let budget_listener = tokio::net::UnixListener::bind(&shared.lab_memory_socket)?;
    tokio::spawn(lab_memory::serve(budget_listener, lab_memory));
    let addr = listener.local_addr()?;
    eprintln!(
        "{}",
        i18n.ta(
            "serve-listening",
            &[
                ("addr", addr.to_string().into()),
                ("dir", shared.class.display().to_string().into()),
                ("people", shared.roster.get().people.len().into()),
            ]
        )
    );
    tokio::spawn(renew_presence(shared.class.clone()));
    if let Some(store) = &shared.store {
        eprintln!("serve: class database {}", store.shown());
        tokio::spawn(store.clone().run(shared.class.clone()));
    }
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            () = shared.drain.started() => break,
        };
        let Ok((socket, peer)) = accepted else {
            // Out of fds and the like: wait a moment rather than spin.
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        // russh sets TCP_NODELAY only in its own accept loop, not for `run_stream`: without it
        // an echoed key can wait for the client's delayed ACK (tens of milliseconds).
        let _ = socket.set_nodelay(true);
        let guard = match shared.admission.admit(peer.ip(), std::time::Instant::now()) {
            Ok(g) => g,
            Err(why) => {
                eprintln!("serve: refused {peer}: {why}");
                drop(socket);
                continue;
            }
        };
        let shared = shared.clone();
        let config = config.clone();
        tokio::spawn(connection(
            shared,
            config,
            socket,
            peer,
            login_timeout,
            guard,
        ));
    }

    drop(listener);
    leave(i18n, &shared).await;
    Ok(())
}

/// After SIGTERM: every learner told to log in again (the load balancer sends them to another
/// worker), their apps hung up so they save; the end comes with the last session or at
/// `drain::DEADLINE`, and what the sessions saved goes to the class database first.
async fn leave(i18n: &I18n, shared: &Shared) {
    eprintln!("serve: draining: no new connections");
    shared.sessions.leave_all(&i18n.t("serve-drain-leave"));
    let until = tokio::time::Instant::now() + drain::DEADLINE;
    while tokio::time::Instant::now() < until
        && shared.slots.lock().is_ok_and(|s| s.iter().any(|t| *t))
    {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    if let Some(store) = &shared.store {
        store.flush(&shared.class).await;
    }
    eprintln!("serve: drained");
}

/// Keeps this server's sessions showing as connected (their files' times renewed).
async fn renew_presence(class: PathBuf) {
    let mine = format!(".{}.", std::process::id());
    loop {
        tokio::time::sleep(presence::RENEW).await;
        let class = class.clone();
        let mine = mine.clone();
        let _ = tokio::task::spawn_blocking(move || {
            let Ok(entries) = std::fs::read_dir(class.join(presence::DIR)) else {
                return;
            };
            for e in entries.filter_map(Result::ok).take(10_000) {
                if e.file_name().to_str().is_some_and(|f| f.contains(&mine)) {
                    presence::renew(&e.path());
                }
            }
        })
        .await;
    }
}

/// How long a logged-in connection may have no channel open before it is closed: a login
/// holds a descriptor and a place among the logged-in, and is for opening a session.
const IDLE_NO_CHANNEL: Duration = Duration::from_secs(60);

/// `IDLE_NO_CHANNEL`, or what the hidden `--idle-close SECS` says (tests).
fn idle_no_channel(shared: &Shared) -> Duration {
    shared.idle_close.unwrap_or(IDLE_NO_CHANNEL)
}

/// One connection from accept to end, with its log lines: every refusal is one line, and so
/// is a client that goes away without logging in.
async fn connection(
    shared: Arc<Shared>,
    config: Arc<russh::server::Config>,
    socket: tokio::net::TcpStream,
    peer: SocketAddr,
    login_timeout: Duration,
    pending: admission::Pending,
) {
    let outcome = Arc::new(Mutex::new(conn::Outcome {
        pending: Some(pending),
        ..conn::Outcome::default()
    }));
    let handler = conn::Conn::new(shared.clone(), outcome.clone(), peer);
    let deadline = tokio::time::Instant::now() + login_timeout;
    let started =
        tokio::time::timeout_at(deadline, russh::server::run_stream(config, socket, handler)).await;
    let logged_in = || outcome.lock().is_ok_and(|o| o.login.is_some());
    let session = match started {
        Ok(Ok(s)) => s,
        Ok(Err(_)) => return end_log(&shared, &outcome, peer, false),
        Err(_) => return end_log(&shared, &outcome, peer, true),
    };
    let handle = session.handle();
    tokio::pin!(session);
    let mut timed_out = false;
    // Until the login: the rest of the login time. After it: a look every few seconds for a
    // connection that holds no channel.
    loop {
        let look = idle_no_channel(&shared).min(Duration::from_secs(5));
        let wake = if logged_in() {
            tokio::time::Instant::now() + look
        } else {
            // Looked at again soon after a login, so the idle time counts from there.
            deadline.min(tokio::time::Instant::now() + look.min(Duration::from_secs(1)))
        };
        tokio::select! {
            _ = &mut session => break,
            () = tokio::time::sleep_until(wake) => {}
        }
        let idle = outcome
            .lock()
            .ok()
            .and_then(|o| o.login.as_ref().and(o.idle_since))
            .is_some_and(|t| t.elapsed() >= idle_no_channel(&shared));
        let late = !logged_in() && tokio::time::Instant::now() >= deadline;
        if !(idle || late) {
            continue;
        }
        timed_out = late;
        let why = if late {
            "login timed out"
        } else {
            "no channel open"
        };
        if idle {
            let who = outcome.lock().ok().and_then(|o| o.login.clone());
            if let Some((name, _)) = who {
                eprintln!(
                    "serve: closed {name}'s connection from {peer}: no session open for {} s",
                    idle_no_channel(&shared).as_secs()
                );
            }
        }
        let _ = handle
            .disconnect(russh::Disconnect::ByApplication, why.into(), "en".into())
            .await;
        // The session ends on the disconnect; it is not waited on for long.
        let _ = tokio::time::timeout(Duration::from_secs(2), &mut session).await;
        break;
    }
    end_log(&shared, &outcome, peer, timed_out);
}

/// The connection's last log line (a logout, a refusal, or a client that gave up), and the
/// penalty of a source whose connection ended without a login.
fn end_log(shared: &Shared, outcome: &Mutex<conn::Outcome>, peer: SocketAddr, timed_out: bool) {
    let Ok(o) = outcome.lock() else { return };
    let offence = match (&o.login, &o.refused, &o.tried) {
        (Some((name, _)), _, _) => {
            eprintln!("serve: logout {name} from {peer}");
            None
        }
        (None, Some((name, why)), _) => {
            eprintln!("serve: refused {} from {peer}: {why}", printable(name));
            Some(admission::Offence::AuthFail)
        }
        (None, None, tried) => {
            let what = match tried {
                Some((name, true)) => {
                    format!("gave up at the class code as {}", printable(name))
                }
                Some((name, false)) => format!("no key accepted for {}", printable(name)),
                None => "no login tried".to_string(),
            };
            let when = if timed_out { " (login time over)" } else { "" };
            eprintln!("serve: closed {peer} without a login: {what}{when}");
            Some(match (timed_out, tried) {
                (true, _) => admission::Offence::Grace,
                (false, Some(_)) => admission::Offence::AuthFail,
                (false, None) => admission::Offence::NoAuth,
            })
        }
    };
    if let Some(offence) = offence
        && shared
            .admission
            .penalize(peer.ip(), offence, std::time::Instant::now())
    {
        eprintln!(
            "serve: penalty for {}: repeated connections without a login; refused for a while",
            peer.ip()
        );
    }
}

/// Client-chosen text (a name, a key's comment) made safe for the log and for a client's
/// terminal: no terminal controls, no line breaks, no marks that reorder text.
pub fn printable(name: &str) -> String {
    name.chars()
        .take(64)
        .map(|c| {
            if crate::term_text::sanitize::is_unsafe(c) || c == '\n' || c == '\t' {
                '?'
            } else {
                c
            }
        })
        .collect()
}

/// The folder of one learner under the class folder.
pub fn learner_dir(class: &Path, name: &str) -> PathBuf {
    app::learner_dir(class, name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_numbered_from_zero_and_the_lowest_free_is_reused() {
        let mut taken = vec![false; 3];
        assert_eq!(first_free(&mut taken), Some(0));
        assert_eq!(first_free(&mut taken), Some(1));
        assert_eq!(first_free(&mut taken), Some(2));
        assert_eq!(first_free(&mut taken), None);
        taken[1] = false;
        assert_eq!(first_free(&mut taken), Some(1));
    }

    #[test]
    fn a_place_is_free_again_only_when_its_last_holder_lets_go() {
        let slots = Arc::new(Mutex::new(vec![false; 1]));
        let place = first_free(&mut slots.lock().unwrap()).unwrap();
        let channel = Slot(Arc::new(Taken {
            place,
            slots: slots.clone(),
            block: None,
        }));
        let app = channel.clone();
        drop(channel);
        assert_eq!(*slots.lock().unwrap(), [true]);
        drop(app);
        assert_eq!(*slots.lock().unwrap(), [false]);
    }
}
