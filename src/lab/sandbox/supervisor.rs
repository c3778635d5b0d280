//! The lab's supervisor: the sandbox's first process (`rocm-learn __lab-supervisor`, started by
//! bubblewrap). It owns the simulated machine from inside: it logs the learner in again and
//! again (bash by absolute path, so no PATH or startup file can break the loop itself), reads
//! the prompt hook's records, keeps the system folders read-only, evaluates the lab's checks
//! and sends typed results over the channel (`protocol`). The app never touches the stage
//! while the lab runs: every path the learner could swap for a symlink, a FIFO or /dev/zero is
//! opened here, inside the sandbox, where it can reach nothing of the host.

use std::io::Write;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant, SystemTime};

use crate::content::Check;
use crate::lab::sandbox::broker::server;
use crate::lab::sandbox::checks::{self, Env};
use crate::lab::sandbox::confine::{self, Domain};
use crate::lab::sandbox::identity::{Identity, Table};
use crate::lab::sandbox::script_run::{self, ScriptRun};
use crate::lab::sandbox::sys::{self, Step};
use crate::lab::sandbox::{ids, userns};
use crate::lab::wire::fdpass;
use crate::lab::wire::layout::EXEC;
use crate::lab::wire::protocol::{self, FromSupervisor, SHELL_FD, ToSupervisor, WireMsg, WireStep};
use crate::lab::wire::record::Record;
use crate::sim;

/// Whether logins are confined (Landlock present and not turned off for a test).
static CONFINED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

/// Whether the sandbox maps the machine's ids (a lab started by root or by a user with
/// subordinate ids): the supervisor is root then, and every login and program of the
/// learner's is switched to the learner's ids.
static REAL_IDS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The ids a program of `user` runs with: its account's, with `gids` (a session's groups) or
/// those /etc/group gives a fresh login. None where the sandbox maps one uid and everything
/// runs as it already.
fn login_ids(user: &str, gids: Option<Vec<u32>>) -> Option<ids::Ids> {
    if !REAL_IDS.load(std::sync::atomic::Ordering::Relaxed) {
        return None;
    }
    let root = Path::new("/");
    // An account missing from /etc/passwd still logs in as the learner's uid, never as root.
    let uid = sim::accounts::user(root, user)
        .map(|pw| pw.uid)
        .filter(|uid| *uid != 0)
        .unwrap_or(crate::lab::wire::layout::LEARNER_UID);
    Some(ids::account_ids(root, uid, gids))
}

/// Runs `cmd` as `ids` (nothing to do without them).
fn switch_ids(cmd: &mut Command, ids: Option<ids::Ids>) {
    if let Some(ids) = ids {
        sys::in_child(cmd, Step::Ids(ids));
    }
}

/// A command that runs `argv` confined to `domain` (or as it is, when labs run unconfined).
fn confined_command(domain: &Domain, argv: &[&str]) -> Command {
    if CONFINED.load(std::sync::atomic::Ordering::Relaxed) {
        let mut cmd = Command::new(crate::lab::wire::layout::SIM_BIN);
        cmd.args([EXEC, &domain.to_arg(), "--"]).args(argv);
        cmd
    } else {
        let mut cmd = Command::new(argv[0]);
        cmd.args(&argv[1..]);
        cmd
    }
}

/// A login that ends within this time counts as failed; this many in a row stop the loop.
const FAST_EXIT: Duration = Duration::from_secs(1);
const FAILED_LOGINS: u32 = 3;

enum Event {
    Record(Record),
    LoginBroken(i32),
}

/// Probe logins under way, by their session: where their records go.
type Probes = Arc<Mutex<std::collections::HashMap<String, mpsc::Sender<Record>>>>;

/// What starting a login takes: the machine's socket every login inherits, the table of who
/// is who, and the probes under way.
struct Logins {
    shell: Arc<OwnedFd>,
    table: Arc<Mutex<Table>>,
    probes: Probes,
}

pub fn main() -> i32 {
    // The app's short turns are for the threads that carry keystrokes; the learner's programs
    // take the kernel's default turn, as on a real machine.
    sys::default_turn();
    // The app placed its end of the socketpair there; taken, it is kept out of the learner's
    // processes (close-on-exec).
    let Some(sock) = sys::take_fd(protocol::FD).map(UnixStream::from) else {
        eprintln!("rocm-learn: the lab channel is missing");
        return 2;
    };
    let Ok(mut reader) = sock.try_clone() else {
        eprintln!("rocm-learn: the lab channel is missing");
        return 2;
    };
    let Some(ToSupervisor::Hello {
        user,
        relogin,
        checks,
        confine,
        handed,
        exe_mount,
        host_etc,
        budget,
        ..
    }) = greeting(&mut reader)
    else {
        return 2;
    };
    // First, while this is the only thread: the machine into memory, then (a lab of one id)
    // the learner's own namespace.
    let in_memory = match crate::lab::sandbox::in_memory::install(
        &user,
        handed.then_some(crate::lab::sandbox::in_memory::Handing {
            exe_mount,
            host_etc: &host_etc,
        }),
        budget,
    ) {
        Ok(done) => done,
        Err(e) => {
            eprintln!("rocm-learn: the lab's machine in memory: {e}");
            return 2;
        }
    };
    if let Err(e) = crate::lab::sandbox::dev_binds::install_pool() {
        eprintln!("rocm-learn: the lab's device nodes: {e}");
    }
    // While the supervisor may still mount (a lab of one id gives that up next). The machine's
    // programs move to /usr only where nothing but root can change them there: under
    // Landlock, or with the machine's ids; otherwise they stay in /usr/local, which `relock`
    // guards. Either /usr works for the lab.
    let programs = in_memory && (userns::many_ids() || (confine && confine::available()));
    let _ = crate::lab::sandbox::usr_layer::install(programs);
    if userns::euid() == 0
        && !userns::many_ids()
        && let Err(e) = userns::become_learner_alone()
    {
        eprintln!("rocm-learn: the learner's namespace: {e}");
        return 2;
    }
    ignore_job_signals();
    let real_ids = userns::euid() == 0 && userns::many_ids();
    if real_ids && let Err(e) = userns::keep_to_self() {
        eprintln!("rocm-learn: the lab's capabilities: {e}");
        return 2;
    }
    REAL_IDS.store(real_ids, std::sync::atomic::Ordering::Relaxed);
    crate::lab::sandbox::dev_binds::sync();
    seed_home(
        Path::new(crate::lab::wire::layout::HOME_SEED),
        Path::new(&home()),
        &mut 0,
    );
    if let Some(ids) = login_ids(&user, None) {
        // bubblewrap made the home's tmpfs as root, and root copied the seed into it.
        give_home(Path::new(&home()), ids.uid(), &mut 0);
    }
    limit_processes();
    let confined = confine && confine::available();
    CONFINED.store(confined, std::sync::atomic::Ordering::Relaxed);
    // Every login inherits one end (on SHELL_FD): hook records and tool requests come in on
    // the other, each with the kernel's word on which process sent it.
    let (mine, shell) = match machine_socket() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("rocm-learn: lab machine socket: {e}");
            return 2;
        }
    };
    let shell = Arc::new(shell);
    let table = Arc::new(Mutex::new(Table::default()));
    let probes: Probes = Arc::default();
    let (tx, rx) = mpsc::channel();
    {
        let (table, shell, probes) = (table.clone(), shell.clone(), probes.clone());
        let tx = tx.clone();
        std::thread::spawn(move || {
            server::serve(mine, shell.as_raw_fd(), confined, table, |r| {
                // A probe login's records go to the probe, not to the checklist.
                let probe = probes.lock().ok().and_then(|p| p.get(&r.session).cloned());
                match probe {
                    Some(to) => {
                        let _ = to.send(r);
                        true
                    }
                    None => tx.send(Event::Record(r)).is_ok(),
                }
            });
        });
    }
    let banner = Arc::new(Banner {
        text: Mutex::new(relogin),
    });
    let wire = Arc::new(Wire(Mutex::new(sock)));
    follow_the_app(reader, banner.clone(), wire.clone());
    let login_user = user.clone();
    let logins = Logins {
        shell: shell.clone(),
        table: table.clone(),
        probes,
    };
    std::thread::spawn(move || login_loop(&login_user, &banner, &shell, &table, tx));
    let mut grader = Grader {
        checks,
        user,
        out: wire,
        login_env: None,
        script_run: None,
        logins,
        first_reported: false,
    };
    // Said once, first: where the machine lives (the app removes the stage at once when
    // nothing of the lab uses it any more), and whether the kernel confines the learner;
    // without Landlock the lab works, but its result is not tamper-proof.
    let stage_unused = in_memory;
    grader.send(&FromSupervisor::Machine {
        in_memory,
        stage_unused,
    });
    grader.send(&FromSupervisor::Confinement { enforced: confined });
    grader.report(None);
    grader.run(&rx);
    0
}

/// The app's greeting (a `Hello` of this version), or None (said on stderr) when the channel
/// does not start with one.
fn greeting(reader: &mut UnixStream) -> Option<ToSupervisor> {
    let hello = match protocol::recv::<ToSupervisor>(reader) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("rocm-learn: lab channel: {e}");
            return None;
        }
    };
    match hello {
        ToSupervisor::Hello { version, .. } if version == protocol::VERSION => Some(hello),
        ToSupervisor::Hello { version, .. } => {
            eprintln!(
                "rocm-learn: lab channel version {version}, expected {}",
                protocol::VERSION
            );
            None
        }
        _ => {
            eprintln!("rocm-learn: lab channel: no greeting");
            None
        }
    }
}

/// The socket pair of the machine: the supervisor's end (with the senders' credentials on)
/// and the one every login inherits.
fn machine_socket() -> std::io::Result<(OwnedFd, OwnedFd)> {
    let (mine, shell) = fdpass::pair(fdpass::SocketType::SEQPACKET)?;
    fdpass::enable_creds(mine.as_fd())?;
    Ok((mine, shell))
}

/// The banner printed between two logins, which the app changes when the learner switches
/// language.
struct Banner {
    text: Mutex<String>,
}

impl Banner {
    /// The banner for a login that just ended. Nothing to wait for: the app holds what the
    /// learner types after `L` until the new text is acknowledged (`follow`), so no login can
    /// end on a key typed after it before the text is in place.
    fn current(&self) -> String {
        self.text.lock().map(|t| t.clone()).unwrap_or_default()
    }

    fn set(&self, text: String) {
        if let Ok(mut t) = self.text.lock() {
            *t = text;
        }
    }
}

/// The channel to the app, shared by the grader and the thread that follows the app: one
/// lock, so two messages never interleave. It is held only while a message is written, never
/// while steps are checked, so an acknowledgement does not wait behind a report (a probe
/// login can take seconds, and the learner's keys are held until it comes).
struct Wire(Mutex<UnixStream>);

impl Wire {
    /// Writes one message; the app gone is the end of the lab.
    fn send(&self, msg: &FromSupervisor) {
        let mut out = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if protocol::send(&mut *out, msg).is_err() {
            std::process::exit(0);
        }
    }
}

/// Applies the app's later messages in order until the channel ends: each new banner is in
/// place before `ack` gets its acknowledgement, and the app waits for that (the handshake of
/// `FromSupervisor::ReloginApplied`).
fn follow(reader: &mut impl std::io::Read, banner: &Banner, mut ack: impl FnMut(FromSupervisor)) {
    loop {
        match protocol::recv::<ToSupervisor>(reader) {
            Ok(ToSupervisor::Relogin { seq, text }) => {
                banner.set(text);
                ack(FromSupervisor::ReloginApplied { seq });
            }
            Ok(ToSupervisor::Hello { .. }) => {}
            Err(_) => return,
        }
    }
}

/// Follows the app on a thread of its own; the app closing the channel is the end of the lab.
fn follow_the_app(mut reader: UnixStream, banner: Arc<Banner>, wire: Arc<Wire>) {
    std::thread::spawn(move || {
        follow(&mut reader, &banner, |m| wire.send(&m));
        std::process::exit(0);
    });
}

struct Grader {
    checks: Vec<Check>,
    user: String,
    out: Arc<Wire>,
    /// The last new-login environment, and the login files it was computed from.
    login_env: Option<(Fingerprint, Vec<(String, String)>)>,
    /// The last run of the script a check grades, and what it ran on.
    script_run: Option<(Fingerprint, ScriptRun)>,
    logins: Logins,
    /// Whether the first prompt's record has been reported.
    first_reported: bool,
}

impl Grader {
    /// Grades after every record from a shell, until the logins end.
    fn run(&mut self, rx: &mpsc::Receiver<Event>) {
        while let Ok(ev) = rx.recv() {
            match ev {
                Event::Record(r) => {
                    // Later ones may be queued behind it; the newest describes the shell now.
                    // The first prompt's is always reported on its own: the app takes its
                    // reasons as the baseline that later attempts are compared with.
                    let mut last = r;
                    let mut broken = None;
                    let queued: Vec<Event> = if self.first_reported {
                        rx.try_iter().collect()
                    } else {
                        Vec::new()
                    };
                    self.first_reported = true;
                    for more in queued {
                        match more {
                            Event::Record(r) => last = r,
                            Event::LoginBroken(s) => broken = Some(s),
                        }
                    }
                    self.report(Some(last));
                    if let Some(s) = broken {
                        self.send(&FromSupervisor::LoginBroken { status: s });
                    }
                }
                Event::LoginBroken(s) => self.send(&FromSupervisor::LoginBroken { status: s }),
            }
        }
    }

    fn send(&mut self, msg: &FromSupervisor) {
        self.out.send(msg);
    }

    /// Relocks the system folders, checks every step and sends the result.
    fn report(&mut self, record: Option<Record>) {
        relock();
        let root = Path::new("/");
        let state =
            sim::State::load_on(root, &crate::sim_host::Alone::new()).map_err(|e| e.message);
        let login_env = if self.checks.iter().any(checks::needs_login_path) {
            self.login_env()
        } else {
            None
        };
        let login_path = login_env
            .as_ref()
            .and_then(|e| e.iter().find(|(k, _)| k == "PATH"))
            .map(|(_, v)| v.as_str());
        let script = self
            .checks
            .iter()
            .find_map(checks::script_to_run)
            .map(str::to_string);
        let script_run = match (script, login_path) {
            (Some(file), Some(path)) => self.script_run(&file, path),
            _ => None,
        };
        let env = Env {
            root,
            state: state.as_ref().map_err(String::as_str),
            shell: record.as_ref(),
            login_path,
            login_env: login_env.as_deref(),
            script_run: script_run.as_ref(),
        };
        let steps = self
            .checks
            .iter()
            .map(|c| match checks::evaluate(c, &env) {
                Ok(()) => WireStep {
                    done: true,
                    why: None,
                },
                Err(why) => WireStep {
                    done: false,
                    why: Some(WireMsg::from(&why)),
                },
            })
            .collect();
        let mut record = record;
        if let Some(r) = &mut record {
            // The command text is for the transcript only; a huge one must not drop the status.
            r.command = truncate(&r.command, 4096);
            r.path = truncate(&r.path, 16 * 1024);
            r.cwd = truncate(&r.cwd, 4096);
        }
        self.send(&FromSupervisor::Status { record, steps });
    }

    /// `file` run as the learner would run it from a new login (`sh FILE`, with that login's
    /// PATH), again only when the script, the machine or what PATH leads to changed.
    fn script_run(&mut self, file: &str, path: &str) -> Option<ScriptRun> {
        let print = || script_fingerprint(file, path);
        if let Some((p, run)) = &self.script_run
            && *p == print()
        {
            return Some(run.clone());
        }
        let run = run_script(&self.user, &self.logins, file, path);
        // Taken after the run: its own session changed the machine's state.
        self.script_run = Some((print(), run.clone()));
        Some(run)
    }

    /// The environment a new login would get, recomputed only when a login file changed.
    fn login_env(&mut self) -> Option<Vec<(String, String)>> {
        let print = login_fingerprint();
        if let Some((p, env)) = &self.login_env
            && *p == print
        {
            return Some(env.clone());
        }
        let env = probe_login(&self.user, &self.logins)?;
        self.login_env = Some((print, env.clone()));
        Some(env)
    }
}

/// How long a probe login may take to show its first prompt: a guard against startup files
/// that never let it come (the probe is ended, and the login environment stays unknown).
const PROBE_TIME: Duration = Duration::from_secs(10);

/// The environment a new login gets, from a real one: started exactly as the login loop starts
/// the learner's (`login_command`: the same program and arguments, variables, ids, socket and
/// parent), on a terminal of its own the size of the learner's. Its startup files cannot tell
/// it from the learner's next login; the prompt hook's first record carries its exported
/// variables, and then the login is ended. Its output goes nowhere.
fn probe_login(user: &str, logins: &Logins) -> Option<Vec<(String, String)>> {
    let (session, gids) = open_session(Path::new("/"), user);
    let who = login_identity(user, session.clone());
    let (master, slave) = probe_terminal()?;
    let mut output = master.try_clone_reader().ok()?;
    let mut cmd = login_command(&who, gids, logins.shell.as_raw_fd());
    cmd.stdin(Stdio::from(slave.try_clone().ok()?))
        .stdout(Stdio::from(slave.try_clone().ok()?))
        .stderr(Stdio::from(slave));
    // As the learner's login has its terminal, so has the probe.
    sys::in_child(&mut cmd, Step::OwnTerminal);
    let (to, from) = mpsc::channel();
    logins.probes.lock().ok()?.insert(session.clone(), to);
    let ended = |pid: Option<i32>| {
        if let Ok(mut p) = logins.probes.lock() {
            p.remove(&session);
        }
        if let (Some(pid), Ok(mut t)) = (pid, logins.table.lock()) {
            t.forget(pid);
        }
    };
    let Ok(mut child) = start_login(&mut cmd, &logins.table, who) else {
        ended(None);
        return None;
    };
    let pid = child.id() as i32;
    drop(cmd);
    // Whatever the startup files print is read and dropped, so they never block on a full
    // terminal; the reader ends when the login's last process has closed the terminal.
    std::thread::spawn(move || {
        let _master = master;
        let mut buf = [0u8; 4096];
        while std::io::Read::read(&mut output, &mut buf).is_ok_and(|n| n > 0) {}
    });
    let deadline = Instant::now() + PROBE_TIME;
    let env = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match from.recv_timeout(left) {
            Ok(r) if r.env.is_some() => break r.env,
            Ok(_) => {}
            Err(_) => break None,
        }
    };
    // The login leads a session and process group of its own: end all of it.
    if let Some(pg) = rustix::process::Pid::from_raw(pid) {
        let _ = rustix::process::kill_process_group(pg, rustix::process::Signal::KILL);
    }
    let _ = child.kill();
    let _ = child.wait();
    ended(Some(pid));
    env
}

/// Runs `sh FILE` as a new login of `user` would (its ids, confinement, groups and PATH), in a
/// session of its own whose tool runs the check then reads.
fn run_script(user: &str, logins: &Logins, file: &str, path: &str) -> ScriptRun {
    let (session, gids) = open_session(Path::new("/"), user);
    let who = login_identity(user, session.clone());
    let mut cmd = user_command(&who, gids, logins.shell.as_raw_fd(), &["/bin/sh", file]);
    cmd.env("PATH", path);
    let (run, pid) = script_run::run(cmd, session, |c| start_login(c, &logins.table, who));
    if let (Some(pid), Ok(mut t)) = (pid, logins.table.lock()) {
        t.forget(pid);
    }
    run
}

/// What a script's run depends on: the script, the machine's state and installed programs,
/// and the PATH it runs with.
fn script_fingerprint(file: &str, path: &str) -> Fingerprint {
    let mut print = fingerprint_of(
        [
            file,
            "/var/lib/rocm-sim/state.json",
            "/etc/alternatives",
            "/usr/bin",
            "/usr/sbin",
            "/usr/local/bin",
            "/usr/local/sbin",
            "/opt",
        ]
        .iter()
        .map(std::string::ToString::to_string)
        .collect(),
    );
    print.push((
        path.to_string(),
        0,
        SystemTime::UNIX_EPOCH,
        (0, 0, 0, 0, 0, 0),
    ));
    print
}

/// A terminal of the probe's own (master, slave), the size of the learner's.
fn probe_terminal() -> Option<(Box<dyn portable_pty::MasterPty + Send>, OwnedFd)> {
    let size = rustix::termios::tcgetwinsize(std::io::stdin()).map_or_else(
        |_| portable_pty::PtySize::default(),
        |w| portable_pty::PtySize {
            rows: w.ws_row,
            cols: w.ws_col,
            ..Default::default()
        },
    );
    let pair = portable_pty::native_pty_system().openpty(size).ok()?;
    // The slave as a plain descriptor, for the login's stdio (no controlling terminal here).
    let slave = rustix::fs::open(
        pair.master.tty_name()?,
        rustix::fs::OFlags::RDWR | rustix::fs::OFlags::NOCTTY | rustix::fs::OFlags::CLOEXEC,
        rustix::fs::Mode::empty(),
    )
    .ok()?;
    Some((pair.master, slave))
}

/// What pam_env gives a new login: /etc/environment's variables, PATH defaulted.
fn login_vars() -> Vec<(String, String)> {
    let root = Path::new("/");
    let mut vars = sim::entry::environment(root);
    if !vars.iter().any(|(k, _)| k == "PATH") {
        vars.push(("PATH".into(), sim::entry::DEFAULT_PATH.into()));
    }
    vars
}

fn truncate(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_string()
}

fn home() -> String {
    std::env::var("HOME").unwrap_or_else(|_| "/".into())
}

/// Most processes the learner's logins may run at once: a fork bomb meets bash's own
/// "fork: Resource temporarily unavailable" and the host does not notice. Counted per uid in
/// the sandbox's user namespace (not enforced for a host root, whose uid the kernel exempts).
pub const MAX_PROCESSES: u64 = 512;

/// Largest file a process in the lab may write: past it the kernel's own "File size limit
/// exceeded" (SIGXFSZ), and the host's disk is not filled through the home folder.
pub const MAX_FILE: u64 = 1 << 30;

/// Most memory one of the learner's processes may map: past it the program's own "Cannot
/// allocate memory" (or "memory exhausted"), and the host's out-of-memory killer is not woken.
/// A limit per process, not for the whole lab (docs/sandbox.md). The supervisor and the
/// simulated tools, whose threads reserve address space freely, are never held to it: it is
/// set as the last step before the exec of each login (`user_command`) and of each program a
/// tool hands over to (`broker::trusted`), in that process alone.
pub const MAX_MEMORY: u64 = 1 << 30;

fn limit_processes() {
    use rustix::process::{Resource, Rlimit, setrlimit};
    for (res, max) in [
        (Resource::Nproc, MAX_PROCESSES),
        (Resource::Fsize, MAX_FILE),
    ] {
        let lim = Rlimit {
            current: Some(max),
            maximum: Some(max),
        };
        // Lowering a limit fails only when the hard limit is already below it: the lab is
        // held at least as tight then, so there is nothing to report.
        let _ = setrlimit(res, lim);
    }
}

/// The terminal's job-control signals.
const JOB_SIGNALS: [libc::c_int; 5] = [
    libc::SIGINT,
    libc::SIGQUIT,
    libc::SIGTSTP,
    libc::SIGTTIN,
    libc::SIGTTOU,
];

/// The supervisor stays out of the terminal's job control: Ctrl-C or Ctrl-Z between two
/// logins must not stop the machine. Its children get the defaults back (`child_signals`).
fn ignore_job_signals() {
    sys::ignore_signals(&JOB_SIGNALS);
}

fn child_signals(cmd: &mut Command) {
    sys::in_child(cmd, Step::DefaultSignals(&JOB_SIGNALS));
}

/// One login after another, like getty. Each opens a new simulated session (groups as
/// /etc/group says *now*) and runs a real login shell with PATH as pam_env would set it.
fn login_loop(
    user: &str,
    banner: &Banner,
    shell: &OwnedFd,
    table: &Mutex<Table>,
    tx: mpsc::Sender<Event>,
) {
    let root = Path::new("/");
    let mut failed = 0;
    loop {
        let (session, gids) = open_session(root, user);
        let who = login_identity(user, session);
        let mut cmd = login_command(&who, gids, shell.as_raw_fd());
        let started = Instant::now();
        let status = match start_login(&mut cmd, table, who) {
            Ok(mut child) => {
                let pid = child.id() as i32;
                let s = child.wait().map(|s| s.code().unwrap_or(1)).unwrap_or(127);
                if let Ok(mut t) = table.lock() {
                    t.forget(pid);
                }
                s
            }
            Err(_) => 127,
        };
        if started.elapsed() < FAST_EXIT {
            failed += 1;
        } else {
            failed = 0;
        }
        if failed >= FAILED_LOGINS {
            let _ = tx.send(Event::LoginBroken(status));
            return;
        }
        let text = banner.current();
        let mut out = std::io::stdout().lock();
        let _ = write!(out, "\n{text}\n\n");
        let _ = out.flush();
    }
}

/// Starts a login and registers it as `who`. Its first prompt's record can reach the broker
/// before `spawn` returns the pid: the table is told a start is under way first, so that
/// record waits for the registration (`identity::identify`) instead of being dropped.
fn start_login(
    cmd: &mut Command,
    table: &Mutex<Table>,
    who: Identity,
) -> std::io::Result<std::process::Child> {
    if let Ok(mut t) = table.lock() {
        t.starting();
    }
    let child = cmd.spawn();
    if let Ok(mut t) = table.lock() {
        t.started(child.as_ref().ok().map(|c| (c.id() as i32, who)));
    }
    child
}

/// Who a login of `user` in `session` is: the account's uid and home (the learner's uid and
/// /home/USER for an account missing from /etc/passwd).
fn login_identity(user: &str, session: String) -> Identity {
    let account = sim::accounts::user(Path::new("/"), user);
    Identity {
        user: user.into(),
        uid: account
            .as_ref()
            .map_or(crate::lab::wire::layout::LEARNER_UID, |u| u.uid),
        home: account.map_or_else(|| format!("/home/{user}"), |u| u.home),
        session,
    }
}

/// One login of `who`: bash as a login shell, confined to the user's domain, as the user's ids
/// with the session's groups (`gids`), with pam_env's variables and the session, the default
/// signals and the machine's socket on SHELL_FD, in the home folder. The login loop and the
/// new-login probe start exactly this, so that a startup file cannot tell them apart.
fn login_command(who: &Identity, gids: Option<Vec<u32>>, shell: i32) -> Command {
    user_command(who, gids, shell, &["/bin/bash", "--login", "-i"])
}

/// `argv` as `who` runs it in a login: everything `login_command` sets up.
fn user_command(who: &Identity, gids: Option<Vec<u32>>, shell: i32, argv: &[&str]) -> Command {
    let mut cmd = confined_command(&Domain::for_uid(who.uid, &who.home), argv);
    switch_ids(&mut cmd, login_ids(&who.user, gids));
    cmd.envs(login_vars()).env("ROCM_SIM_SESSION", &who.session);
    let home = home();
    cmd.current_dir(if Path::new(&home).is_dir() {
        home.as_str()
    } else {
        "/"
    });
    child_signals(&mut cmd);
    with_shell_fd(&mut cmd, shell);
    sys::in_child(&mut cmd, Step::LimitMemory(MAX_MEMORY));
    cmd
}

/// Puts the login socket on SHELL_FD in the child, where the prompt hook and the tools find it.
fn with_shell_fd(cmd: &mut Command, fd: i32) {
    sys::in_child(
        cmd,
        Step::Dup {
            from: fd,
            to: SHELL_FD,
        },
    );
}

/// `__lab-exec DOMAIN -- PROG ARGS`: confines this (single-threaded) process and becomes PROG.
/// A kernel without Landlock runs PROG unconfined (the lab has said so); a Landlock that
/// refuses the rules runs nothing.
pub fn exec_main(args: &[std::ffi::OsString]) -> i32 {
    let mut it = args.iter();
    let domain = it
        .next()
        .and_then(|d| d.to_str())
        .and_then(Domain::from_arg);
    let (Some(domain), Some(dash)) = (domain, it.next()) else {
        eprintln!("usage: rocm-learn {EXEC} root|user:HOME -- PROGRAM [ARGS]");
        return 2;
    };
    let rest: Vec<&std::ffi::OsString> = it.collect();
    let Some((prog, prog_args)) = rest.split_first().filter(|_| dash == "--") else {
        eprintln!("usage: rocm-learn {EXEC} root|user:HOME -- PROGRAM [ARGS]");
        return 2;
    };
    if let Err(e) = confine::apply(&domain) {
        eprintln!("rocm-learn: cannot confine the login: {e}");
        return 126;
    }
    let e = std::os::unix::process::CommandExt::exec(Command::new(prog).args(prog_args));
    eprintln!("rocm-learn: {}: {e}", prog.to_string_lossy());
    127
}

/// Opens a simulated session of `user`: its id and its groups (None when the state cannot
/// be read or written: the login still starts, with the groups of /etc/group).
fn open_session(root: &Path, user: &str) -> (String, Option<Vec<u32>>) {
    // The login loop and a probe login open sessions from two threads: without this, both
    // could load the same state, take the same id, and the learner's records would go to
    // the probe.
    static OPENING: Mutex<()> = Mutex::new(());
    let _one = OPENING.lock();
    let Ok(mut state) = sim::State::load_on(root, &crate::sim_host::Alone::new()) else {
        return (String::new(), None);
    };
    let Ok(id) = state.login(root, user) else {
        return (String::new(), None);
    };
    if state.save(root).is_err() {
        return (String::new(), None);
    }
    let gids = state.sessions.get(&id).map(|s| s.gids.clone());
    (id, gids)
}

/// Files sudo wrote or created come out owner-writable; on a real machine they belong to root.
/// Without Landlock, after each command the system folders are made read-only to the
/// learner again (files sudo wrote come out owner-writable, and the learner owns the stage).
/// With Landlock the modes stay as root set them, as on Ubuntu: `sudo chmod` lasts, and a
/// root editor sees a writable 0644 file. Done here, in the sandbox, where a symlink swapped
/// in mid-walk can only point at the sandbox's view.
fn relock() {
    if !CONFINED.load(std::sync::atomic::Ordering::Relaxed) {
        for top in ["/etc", "/opt", "/usr/local/bin", "/usr/local/sbin"] {
            let _ = rocm_unix::files::set_modes(Path::new(top), 0o444, 0o555);
        }
    }
    // Landlock keeps the learner from writing the simulator's state, not from chmod'ing it
    // (the learner's uid owns the stage): what a chmod took away is given back.
    let _ = rocm_unix::files::set_modes(Path::new("/var/lib/rocm-sim"), 0o644, 0o755);
}

/// Each file a login shell reads: its size and modification time, and its inode's change
/// time, owner and mode (a `chmod 600` or a `chown` changes what a login may read, not the
/// file's contents or modification time).
type Fingerprint = Vec<(String, u64, SystemTime, (i64, i64, u64, u32, u32, u32))>;

/// The files a login shell reads: when none changed, its PATH has not either.
fn login_fingerprint() -> Fingerprint {
    let home = home();
    let mut files: Vec<String> = [
        ".bashrc",
        ".profile",
        ".bash_profile",
        ".bash_login",
        // ~/.profile adds these to PATH only when they exist.
        "bin",
        ".local/bin",
    ]
    .iter()
    .map(|f| format!("{home}/{f}"))
    .chain(
        // The folder too: a `chmod 700` on it hides every file in it from a login.
        [
            "/etc/profile",
            "/etc/bash.bashrc",
            "/etc/environment",
            "/etc/profile.d",
        ]
        .iter()
        .map(std::string::ToString::to_string),
    )
    .collect();
    if let Ok(rd) = std::fs::read_dir("/etc/profile.d") {
        files.extend(
            rd.filter_map(Result::ok)
                .take(1024)
                .map(|e| e.path().to_string_lossy().into_owned()),
        );
    }
    files.sort();
    fingerprint_of(files)
}

/// The fingerprint of `files` (those that exist).
fn fingerprint_of(files: Vec<String>) -> Fingerprint {
    files
        .into_iter()
        .filter_map(|p| {
            use std::os::unix::fs::MetadataExt;
            let m = std::fs::metadata(&p).ok()?;
            let inode = (
                m.ctime(),
                m.ctime_nsec(),
                m.ino(),
                m.mode(),
                m.uid(),
                m.gid(),
            );
            Some((p, m.len(), m.modified().ok()?, inode))
        })
        .collect()
}

/// Gives the home folder and everything in it to `uid` and the account's group, never through
/// a symlink. Before the first login: nothing in it is the learner's yet. Bounded like the seed.
fn give_home(dir: &Path, uid: u32, budget: &mut u32) {
    let gid = sim::accounts::user_by_uid(Path::new("/"), uid).map_or(uid, |pw| pw.gid);
    let _ = std::os::unix::fs::lchown(dir, Some(uid), Some(gid));
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        *budget += 1;
        if *budget > 10_000 {
            return;
        }
        let path = e.path();
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            give_home(&path, uid, budget);
        } else {
            let _ = std::os::unix::fs::lchown(&path, Some(uid), Some(gid));
        }
    }
}

/// Copies the stage's home (shown read-only at `from`) into the home's tmpfs, keeping modes
/// and symlinks as they are; devices and FIFOs are left out. Bounded: a stage is ours, but a
/// content pack's home could be large.
fn seed_home(from: &Path, to: &Path, budget: &mut u32) {
    let Ok(rd) = std::fs::read_dir(from) else {
        return;
    };
    for e in rd.flatten() {
        *budget += 1;
        if *budget > 10_000 {
            return;
        }
        let (src, dst) = (e.path(), to.join(e.file_name()));
        let Ok(meta) = std::fs::symlink_metadata(&src) else {
            continue;
        };
        let ft = meta.file_type();
        if ft.is_symlink() {
            if let Ok(target) = std::fs::read_link(&src) {
                let _ = std::os::unix::fs::symlink(target, &dst);
            }
        } else if ft.is_dir() {
            if std::fs::create_dir(&dst).is_ok() {
                seed_home(&src, &dst, budget);
                let _ = std::fs::set_permissions(&dst, meta.permissions());
            }
        } else if ft.is_file() {
            let _ = std::fs::copy(&src, &dst);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn banner(text: &str) -> Banner {
        Banner {
            text: Mutex::new(text.into()),
        }
    }

    fn frames(msgs: &[ToSupervisor]) -> Vec<u8> {
        let mut buf = Vec::new();
        for m in msgs {
            protocol::send(&mut buf, m).unwrap();
        }
        buf
    }

    #[test]
    fn each_relogin_is_acknowledged_after_its_banner_is_in_place() {
        let b = banner("logged out");
        let wire = frames(&[
            ToSupervisor::Relogin {
                seq: 1,
                text: "ログアウトしました".into(),
            },
            ToSupervisor::Relogin {
                seq: 2,
                text: "로그아웃했습니다".into(),
            },
        ]);
        let mut acks = Vec::new();
        follow(&mut wire.as_slice(), &b, |m| {
            // What a login ending at this moment would print.
            acks.push((m, b.current()));
        });
        assert_eq!(
            acks,
            [
                (
                    FromSupervisor::ReloginApplied { seq: 1 },
                    "ログアウトしました".to_string()
                ),
                (
                    FromSupervisor::ReloginApplied { seq: 2 },
                    "로그아웃했습니다".to_string()
                ),
            ]
        );
        assert_eq!(b.current(), "로그아웃했습니다");
    }

    #[test]
    fn a_broken_message_ends_the_following_without_an_acknowledgement() {
        let b = banner("logged out");
        let mut wire = frames(&[ToSupervisor::Relogin {
            seq: 1,
            text: "new".into(),
        }]);
        // Cut short: the channel is over, nothing is applied or acknowledged.
        wire.truncate(wire.len() - 2);
        let mut acks = 0;
        follow(&mut wire.as_slice(), &b, |_| acks += 1);
        assert_eq!((acks, b.current().as_str()), (0, "logged out"));
    }
}
