//! One session's app: the rocm-learn binary itself started on a pseudo-terminal of the SSH
//! channel's size, in the learner's folder, and its bytes carried both ways. Both ways are
//! tasks on the server's runtime, woken by the terminal itself (no thread in between: a key
//! and its echo cross as few processes and threads as they can). Output is handed on through
//! a bounded queue (a slow client slows the app, never grows memory); input goes through a
//! bounded queue too, and what does not fit is dropped (a megabyte paste is cut, the server
//! does not buffer it).

use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::unix::AsyncFd;
use tokio::sync::mpsc::error::TrySendError;

use portable_pty::{CommandBuilder, MasterPty, PtySize, native_pty_system};

/// Input chunks (each at most one SSH packet, 32 KiB) queued for the app.
const INPUT_CHUNKS: usize = 32;
/// Output chunks queued for the client.
pub const OUTPUT_CHUNKS: usize = 16;
const READ_SIZE: usize = 16 * 1024;
/// How long keys wait when the app's terminal takes no more input for now.
const INPUT_FULL_WAIT: Duration = Duration::from_millis(5);
/// How long the app has after a hangup to save and close its lab before it is killed.
const HANGUP_GRACE: Duration = Duration::from_secs(5);

/// How to start the app for one session.
pub struct Launch {
    pub exe: PathBuf,
    pub args: Vec<String>,
    /// Added to the server's environment after the variables below are removed.
    pub env: Vec<(String, String)>,
    pub cols: u16,
    pub rows: u16,
    /// The session's place, held until the app has ended (its lab with it).
    pub slot: Option<super::Slot>,
}

/// Variables of the server's own environment a session never inherits: the client decides
/// these (or the session sets them).
pub const CLEARED: [&str; 23] = [
    "LANG",
    "LANGUAGE",
    "LC_ALL",
    "LC_MESSAGES",
    "NO_COLOR",
    "TERM",
    "COLORTERM",
    "ROCM_LEARN_LANG",
    "ROCM_LEARN_DATA_DIR",
    "ROCM_LEARN_LEARNER",
    "ROCM_LEARN_CONTENT",
    "ROCM_LEARN_SUBMIT_DIR",
    super::screen::WATCHED_ENV,
    MIRROR_ENV,
    crate::lab::app::idmap::SLOT_ENV,
    ATTACHED_ENV,
    super::help::ENV,
    crate::lab::app::memory_ticket::ENV,
    crate::lab::app::idmap::SLOT_LOCK_ENV,
    // The server's own ssh login (an admin's agent) is no session's business.
    "SSH_AUTH_SOCK",
    "SSH_CONNECTION",
    "SSH_CLIENT",
    "SSH_TTY",
];

/// The running app of one session. Dropping it hangs up its terminal, and kills it if it
/// has not ended a few seconds later.
pub struct Running {
    master: Box<dyn MasterPty + Send>,
    input: tokio::sync::mpsc::Sender<Vec<u8>>,
    pid: Option<u32>,
    ended: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// Input dropped because the app was not reading it.
    pub dropped: u64,
}

/// The environment variable naming a session's "attached" file (`session`): the server writes
/// a new number into it on every reattach, and the app, poked, redraws and says so.
pub const ATTACHED_ENV: &str = "ROCM_LEARN_ATTACHED";

/// The environment variable that names the class screen's socket (`mirror`).
pub const MIRROR_ENV: &str = "ROCM_LEARN_MIRROR";

/// What the app printed (None: its terminal closed), and its exit status at the end.
pub enum Out {
    Bytes(Vec<u8>),
    Exit(u32),
}

/// Starts the app; its output and exit come through `out`.
pub fn start(launch: Launch, out: tokio::sync::mpsc::Sender<Out>) -> std::io::Result<Running> {
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: launch.rows.max(1),
            cols: launch.cols.max(1),
            pixel_width: 0,
            pixel_height: 0,
        })
        .map_err(io)?;
    let mut cmd = CommandBuilder::new(&launch.exe);
    cmd.args(&launch.args);
    for v in CLEARED {
        cmd.env_remove(v);
    }
    for (k, v) in &launch.env {
        cmd.env(k, v);
    }
    let mut child = pair.slave.spawn_command(cmd).map_err(io)?;
    // Only the app holds the terminal: when it ends, reading the master ends.
    drop(pair.slave);
    let terminal = match nonblocking_master(pair.master.as_ref()) {
        Ok(t) => Arc::new(t),
        Err(e) => {
            let _ = child.kill();
            return Err(e);
        }
    };
    let pid = child.process_id();
    let ended = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (input, input_rx) = tokio::sync::mpsc::channel::<Vec<u8>>(INPUT_CHUNKS);
    tokio::spawn(write_input(terminal.clone(), input_rx));
    let (status_tx, status_rx) = tokio::sync::oneshot::channel::<u32>();
    let ended2 = ended.clone();
    let slot = launch.slot;
    std::thread::spawn(move || {
        let code = child.wait().map(|s| s.exit_code()).unwrap_or(1);
        // bubblewrap dies with the app (`--die-with-parent`), and the lab with it.
        drop(slot);
        ended2.store(true, std::sync::atomic::Ordering::SeqCst);
        let _ = status_tx.send(code);
    });
    tokio::spawn(read_output(terminal, out, status_rx));
    Ok(Running {
        master: pair.master,
        input,
        pid,
        ended,
        dropped: 0,
    })
}

/// portable-pty's errors are `anyhow` errors; carried as text.
fn io(e: impl std::fmt::Display) -> std::io::Error {
    std::io::Error::other(e.to_string())
}

/// A second descriptor of the terminal's master side, non-blocking, for the runtime to watch.
/// (The flag is the open file's: portable-pty's own descriptor, kept for resizing, shares it.)
fn nonblocking_master(master: &dyn MasterPty) -> std::io::Result<AsyncFd<OwnedFd>> {
    let raw = master
        .as_raw_fd()
        .ok_or_else(|| std::io::Error::other("the terminal has no descriptor"))?;
    let fd = crate::sys::dup_raw(raw)?;
    let flags = rustix::fs::fcntl_getfl(&fd)?;
    rustix::fs::fcntl_setfl(&fd, flags | rustix::fs::OFlags::NONBLOCK)?;
    crate::sys::watch(fd)
}

async fn write_input(
    terminal: Arc<AsyncFd<OwnedFd>>,
    mut rx: tokio::sync::mpsc::Receiver<Vec<u8>>,
) {
    while let Some(chunk) = rx.recv().await {
        let mut rest = &chunk[..];
        while !rest.is_empty() {
            let Ok(mut ready) = terminal.writable().await else {
                return;
            };
            // The app's side has hung up: nobody will read this, and the readiness stays
            // set, so waiting again would return at once, forever.
            if ready.ready().is_write_closed() {
                return;
            }
            match ready.try_io(|t| Ok(rustix::io::write(t.get_ref().as_fd(), rest)?)) {
                // A terminal whose input queue is full takes nothing and says so with 0, not
                // EAGAIN: the app is busy (writing to us, say). Retrying at once would spin and
                // starve the reading side the app waits for, so look again a moment later.
                Ok(Ok(0)) => {
                    ready.clear_ready();
                    tokio::time::sleep(INPUT_FULL_WAIT).await;
                }
                Ok(Ok(n)) => rest = &rest[n..],
                Ok(Err(_)) => return,
                Err(_would_block) => {}
            }
        }
    }
}

async fn read_output(
    terminal: Arc<AsyncFd<OwnedFd>>,
    out: tokio::sync::mpsc::Sender<Out>,
    status: tokio::sync::oneshot::Receiver<u32>,
) {
    let mut buf = vec![0u8; READ_SIZE];
    loop {
        let Ok(mut ready) = terminal.readable().await else {
            break;
        };
        match ready.try_io(|t| Ok(rustix::io::read(t.get_ref().as_fd(), &mut buf)?)) {
            // EIO once the app and everything it started have closed the terminal.
            Ok(Ok(0) | Err(_)) => break,
            Ok(Ok(n)) => {
                if out.send(Out::Bytes(buf[..n].to_vec())).await.is_err() {
                    return;
                }
            }
            Err(_would_block) => {}
        }
    }
    let code = tokio::time::timeout(HANGUP_GRACE * 2, status)
        .await
        .ok()
        .and_then(Result::ok)
        .unwrap_or(1);
    let _ = out.send(Out::Exit(code)).await;
}

impl Running {
    /// Hands keys to the app; false when the queue is full and they were dropped.
    pub fn input(&mut self, data: &[u8]) -> bool {
        match self.input.try_send(data.to_vec()) {
            Ok(()) => true,
            Err(TrySendError::Full(_) | TrySendError::Closed(_)) => {
                self.dropped += data.len() as u64;
                false
            }
        }
    }

    /// The app's process, for the server to poke (see `screen`).
    pub fn process(&self) -> super::screen::App {
        super::screen::App {
            pid: self.pid,
            ended: self.ended.clone(),
        }
    }

    pub fn resize(&self, cols: u16, rows: u16) {
        let _ = self.master.resize(PtySize {
            rows: rows.max(1),
            cols: cols.max(1),
            pixel_width: 0,
            pixel_height: 0,
        });
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let Some(pid) = self.pid.and_then(|p| i32::try_from(p).ok()) else {
            return;
        };
        if self.ended.load(std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        // A hangup, as when a terminal closes: the app saves, closes its lab and exits.
        // Our own child, which the waiter thread has not reaped (`ended` is false): the pid
        // is still its own.
        crate::child::signal(pid, rustix::process::Signal::HUP);
        let ended = self.ended.clone();
        std::thread::spawn(move || {
            let start = std::time::Instant::now();
            while start.elapsed() < HANGUP_GRACE {
                if ended.load(std::sync::atomic::Ordering::SeqCst) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
            if !ended.load(std::sync::atomic::Ordering::SeqCst) {
                // As above: still not reaped.
                crate::child::signal(pid, rustix::process::Signal::KILL);
            }
        });
    }
}

/// The learner's folder on the server: `CLASS/learners/NAME` (the app's own layout for
/// ROCM_LEARN_LEARNER, so `progress` and `report` read it as any learner's).
pub fn learner_dir(class: &Path, name: &str) -> PathBuf {
    class.join("learners").join(name)
}
