//! A live shell in a pseudo-terminal: bubblewrap started with the PTY as its terminal and one
//! end of a socketpair as fd 3 (the supervisor's channel), its screen parsed by vt100 (by the
//! caller's event loop when it watches the terminal, else on a thread of its own), and the
//! supervisor's typed messages read on a thread of their own.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};

use portable_pty::{MasterPty, PtySize, native_pty_system};
use tui_term::vt100;

use crate::lab::wire::protocol::{self, FromSupervisor, ToSupervisor};

/// Called from the reader threads whenever the screen changed or a message arrived.
pub type Notify = Arc<dyn Fn() + Send + Sync>;

/// Reads what arrived on a watched descriptor once it is readable; false once its stream
/// has ended (the watch is then dropped, and the descriptor with it).
pub type Pump = Box<dyn FnMut() -> bool + Send>;

/// An event loop that reads a shell's output itself: it polls the descriptor and calls the
/// pump when it is readable. A key's echo then wakes only the thread that draws it, not a
/// reader thread and then that one (each wake-up waits for a CPU when the machine is busy).
pub type Watch = Arc<dyn Fn(std::os::fd::OwnedFd, Pump) + Send + Sync>;

/// How the shell's news reaches its caller: `notify` after a supervisor's message (and, with
/// no `watch`, after output a reader thread took); `watch`: the caller's event loop reads
/// the output itself.
#[derive(Clone)]
pub struct Hooks {
    pub notify: Notify,
    pub watch: Option<Watch>,
}

/// Lines of scrollback kept for the terminal pane.
pub const SCROLLBACK: usize = 5000;

/// The most of a session kept as transcript (scripted runs); then a visible mark.
pub const TRANSCRIPT_CAP: usize = 1 << 20;
pub const OUTPUT_CUT: &str = "\r\n[output cut]\r\n";

pub struct Shell {
    master: Box<dyn MasterPty + Send>,
    writer: Box<dyn Write + Send>,
    child: std::process::Child,
    pub screen: Arc<Mutex<vt100::Parser>>,
    messages: Receiver<FromSupervisor>,
    /// The app's end of the channel, for messages to the supervisor.
    channel: UnixStream,
    /// Everything the shell printed, for the transcript of a scripted run (off in the app).
    transcript: Option<Arc<Mutex<Vec<u8>>>>,
    exited: Arc<AtomicBool>,
}

/// What a lab with the machine's ids takes at its start: who writes the namespace's maps, and
/// the device pool (a lab started by root). Both None for a lab of one id.
#[derive(Default)]
pub struct MachineIds {
    pub mapper: Option<crate::lab::app::idmap::Mapper>,
    /// The idmapped copy of /usr (`usr_map`), for a lab started by root.
    pub usr: Option<std::os::fd::OwnedFd>,
    pub pool: Option<std::os::fd::OwnedFd>,
    pub handed: Option<Handed>,
}

/// The stage and the binary, opened by the app for a sandbox that gets them by descriptor
/// (`bwrap::Layout::handed`).
pub struct Handed {
    stage: std::os::fd::OwnedFd,
    exe: std::os::fd::OwnedFd,
    /// `exe` is a read-only mount of the binary (`exe_mount`), not the file itself.
    pub exe_is_mount: bool,
}

impl Handed {
    /// `root`: the host ids root inside the lab has.
    pub fn open(
        stage: &std::path::Path,
        exe: &std::path::Path,
        root: (u32, u32),
    ) -> std::io::Result<Handed> {
        use rustix::fs::{Mode, OFlags};
        let stage = rustix::fs::open(
            stage,
            OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        if let Some(exe) = crate::lab::app::exe_mount::for_lab(exe, root) {
            return Ok(Handed {
                stage,
                exe,
                exe_is_mount: true,
            });
        }
        let exe = rustix::fs::open(exe, OFlags::RDONLY | OFlags::CLOEXEC, Mode::empty())?;
        Ok(Handed {
            stage,
            exe,
            exe_is_mount: false,
        })
    }
}

impl Shell {
    /// Starts `argv` (the bubblewrap command line, whose program is the supervisor) in a new
    /// pseudo-terminal of `rows` x `cols`, and sends the supervisor `hello` (when given; else
    /// `greet` sends it later, and the supervisor waits).
    pub fn spawn(
        argv: Vec<OsString>,
        rows: u16,
        cols: u16,
        hello: Option<&ToSupervisor>,
        keep_transcript: bool,
        hooks: Hooks,
        ids: MachineIds,
    ) -> std::io::Result<Shell> {
        let MachineIds {
            mapper,
            usr,
            pool,
            handed,
        } = ids;
        let rows = rows.max(2);
        let cols = cols.max(10);
        let (master, slave) = open_pty(rows, cols)?;
        let (mut app_end, sup_end) = UnixStream::pair()?;
        // The arguments go through a memfd (`--args`), so that ps and /proc/1/cmdline in the
        // sandbox show `bwrap --args 4` and no host path.
        // `--args` holds the options; the program follows `--` on the command line itself.
        let split = argv
            .iter()
            .rposition(|a| a == "--")
            .ok_or_else(|| io_err("the sandbox command has no program"))?;
        let args = args_file(&argv[1..split])?;
        let mut cmd = std::process::Command::new(&argv[0]);
        cmd.arg0("bwrap")
            .args(["--args", "4"])
            .args(&argv[split..])
            .stdin(slave.try_clone()?)
            .stdout(slave.try_clone()?)
            .stderr(slave);
        // A namespace with the machine's ids: its maps are written here while bubblewrap
        // waits. Started by root, the sandbox runs as an unprivileged user besides (std drops
        // the supplementary groups too), where the kernel's process limit applies.
        if let Some((uid, gid)) = mapper.as_ref().and_then(super::idmap::Mapper::run_as) {
            cmd.uid(uid).gid(gid);
        }
        let handshake = match &mapper {
            Some(_) => Some(crate::lab::app::idmap::Handshake::new()?),
            None => None,
        };
        let mut fds = vec![
            (sup_end.as_raw_fd(), protocol::FD),
            (args.as_raw_fd(), ARGS_FD),
        ];
        fds.extend(
            handshake
                .iter()
                .flat_map(super::idmap::Handshake::child_fds),
        );
        if let Some(usr) = &usr {
            fds.push((usr.as_raw_fd(), crate::lab::wire::layout::USR_FD));
        }
        if let Some(pool) = &pool {
            fds.push((pool.as_raw_fd(), crate::lab::wire::layout::POOL_FD));
        }
        if let Some(h) = &handed {
            fds.push((h.stage.as_raw_fd(), crate::lab::wire::layout::STAGE_FD));
            fds.push((h.exe.as_raw_fd(), crate::lab::wire::layout::EXE_FD));
        }
        crate::sys::own_terminal(&mut cmd);
        crate::sys::place_fds(&mut cmd, fds);
        let mut child = cmd.spawn()?;
        drop(cmd);
        drop(sup_end);
        drop(args);
        drop(usr);
        drop(pool);
        drop(handed);
        if let (Some(h), Some(m)) = (handshake, &mapper) {
            h.finish(&mut child, m)
                .map_err(|e| io_err(format!("the lab's user namespace: {e}")))?;
        }
        if let Some(hello) = hello {
            protocol::send(&mut app_end, hello)?;
        }
        let writer = master.take_writer().map_err(io_err)?;
        let screen = Arc::new(Mutex::new(vt100::Parser::new(rows, cols, SCROLLBACK)));
        let transcript = keep_transcript.then(|| Arc::new(Mutex::new(Vec::new())));
        let exited = Arc::new(AtomicBool::new(false));
        let output = Output {
            screen: screen.clone(),
            transcript: transcript.clone(),
            exited: exited.clone(),
        };
        let Hooks { notify, watch } = hooks;
        let polled = match (watch, master.as_raw_fd()) {
            (Some(w), Some(raw)) => Some((w, crate::sys::dup_raw(raw)?)),
            _ => None,
        };
        match polled {
            Some((watch, fd)) => {
                let read = fd.try_clone()?;
                let mut buf = vec![0u8; READ_SIZE];
                watch(
                    fd,
                    Box::new(move || match rustix::io::read(&read, &mut buf[..]) {
                        Ok(n @ 1..) => {
                            output.take(&buf[..n]);
                            true
                        }
                        // Interrupted: the next wake-up reads it.
                        Err(rustix::io::Errno::INTR | rustix::io::Errno::AGAIN) => true,
                        // EIO once the shell is gone: that is the end of the stream.
                        _ => {
                            output.ended();
                            false
                        }
                    }),
                );
            }
            None => read_output(
                master.try_clone_reader().map_err(io_err)?,
                output,
                notify.clone(),
            ),
        }
        let channel = app_end.try_clone()?;
        let messages = read_messages(app_end, notify);
        Ok(Shell {
            master,
            writer,
            child,
            screen,
            messages,
            channel,
            transcript,
            exited,
        })
    }

    pub fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.writer.write_all(bytes)?;
        self.writer.flush()
    }

    /// Resizes the terminal and its parser (never to zero).
    pub fn resize(&mut self, rows: u16, cols: u16) {
        let (rows, cols) = (rows.max(2), cols.max(10));
        if let Ok(mut p) = self.screen.lock() {
            if p.screen().size() == (rows, cols) {
                return;
            }
            p.screen_mut().set_size(rows, cols);
        }
        let _ = self.master.resize(PtySize {
            rows,
            cols,
            pixel_width: 0,
            pixel_height: 0,
        });
    }

    /// Messages from the supervisor that arrived since the last call.
    pub fn messages(&self) -> Vec<FromSupervisor> {
        self.messages.try_iter().collect()
    }

    /// Sends the greeting a shell spawned without one waits for.
    pub fn greet(&mut self, hello: &ToSupervisor) -> std::io::Result<()> {
        protocol::send(&mut self.channel, hello)
    }

    /// Sends the supervisor a message; an error means the channel is gone (a gone supervisor
    /// shows as an exited shell already).
    pub fn tell(&mut self, msg: &ToSupervisor) -> std::io::Result<()> {
        protocol::send(&mut self.channel, msg)
    }

    /// Waits up to `timeout` for the supervisor's next message.
    pub fn next_message(&self, timeout: std::time::Duration) -> Option<FromSupervisor> {
        self.messages.recv_timeout(timeout).ok()
    }

    /// Whether a program in the terminal's foreground waits for input: a process of the
    /// terminal's foreground group (tcgetpgrp on the master) asleep reading this terminal.
    pub fn waits_for_input(&self) -> bool {
        let fg = self.master.process_group_leader();
        let tty = self.master.tty_name();
        fg.zip(tty)
            .is_some_and(|(fg, tty)| crate::lab::app::reading::waits_for_input(fg, &tty))
    }

    pub fn has_exited(&self) -> bool {
        self.exited.load(Ordering::SeqCst)
    }

    pub fn transcript(&self) -> Vec<u8> {
        self.transcript
            .as_ref()
            .and_then(|t| t.lock().ok().map(|t| t.clone()))
            .unwrap_or_default()
    }

    /// Ends the sandbox and everything in it (bubblewrap's own processes die with it).
    /// Kills the sandbox without waiting for it to end (`kill` or dropping reaps it).
    pub fn signal_kill(&mut self) {
        let _ = self.child.kill();
    }

    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Shell {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A pseudo-terminal of `rows` x `cols`: its master, and its slave opened by name.
/// portable-pty closes every fd above 2 in its children; the channel must reach the
/// supervisor, so bwrap is started by std with this slave as its terminal.
fn open_pty(rows: u16, cols: u16) -> std::io::Result<(Box<dyn MasterPty + Send>, std::fs::File)> {
    let pair = native_pty_system()
        .openpty(PtySize {
            rows,
            cols,
            pixel_width: 0,
            pixel_height: 0,
        })
        .map_err(io_err)?;
    let tty = pair
        .master
        .tty_name()
        .ok_or_else(|| io_err("the pseudo-terminal has no name"))?;
    let slave = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NOCTTY)
        .open(&tty)?;
    drop(pair.slave);
    Ok((pair.master, slave))
}

/// The most read from the terminal at once.
const READ_SIZE: usize = 64 * 1024;

/// Where the shell's output goes: the screen parser, the transcript, and the end mark.
struct Output {
    screen: Arc<Mutex<vt100::Parser>>,
    transcript: Option<Arc<Mutex<Vec<u8>>>>,
    exited: Arc<AtomicBool>,
}

impl Output {
    fn take(&self, bytes: &[u8]) {
        if let Ok(mut p) = self.screen.lock() {
            p.process(bytes);
        }
        if let Some(t) = &self.transcript
            && let Ok(mut t) = t.lock()
        {
            keep(&mut t, bytes);
        }
    }

    fn ended(&self) {
        self.exited.store(true, Ordering::SeqCst);
    }
}

/// Feeds what the shell prints to `output` on a thread of its own (for callers without an
/// event loop that watches the terminal: scripted runs); notifies after each read and at the
/// end of the stream.
fn read_output(mut reader: Box<dyn Read + Send>, output: Output, notify: Notify) {
    std::thread::spawn(move || {
        let mut buf = vec![0u8; READ_SIZE];
        loop {
            match reader.read(&mut buf) {
                // EIO when the shell is gone: that is the end of the stream.
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    output.take(&buf[..n]);
                    notify();
                }
            }
        }
        output.ended();
        notify();
    });
}

/// The supervisor's messages, read on a thread of their own: typed and capped only; anything
/// else ends the channel.
fn read_messages(mut app_end: UnixStream, notify: Notify) -> Receiver<FromSupervisor> {
    let (tx, messages) = mpsc::channel();
    std::thread::spawn(move || {
        while let Ok(m) = protocol::recv::<FromSupervisor>(&mut app_end) {
            if tx.send(m).is_err() {
                return;
            }
            notify();
        }
    });
    messages
}

/// The fd bubblewrap reads its arguments from.
const ARGS_FD: i32 = 4;

/// A memory file holding `args` NUL-terminated, positioned at its start.
fn args_file(args: &[OsString]) -> std::io::Result<std::fs::File> {
    use std::io::Seek;
    use std::os::unix::ffi::OsStrExt;
    let fd = rustix::fs::memfd_create(c"bwrap-args", rustix::fs::MemfdFlags::CLOEXEC)?;
    let mut f = std::fs::File::from(fd);
    for a in args {
        f.write_all(a.as_bytes())?;
        f.write_all(&[0])?;
    }
    f.seek(std::io::SeekFrom::Start(0))?;
    Ok(f)
}

/// Appends to a transcript up to `TRANSCRIPT_CAP`, then marks the cut once.
fn keep(t: &mut Vec<u8>, bytes: &[u8]) {
    let cap = TRANSCRIPT_CAP;
    if t.len() >= cap {
        return;
    }
    let room = cap - t.len();
    if bytes.len() <= room {
        t.extend_from_slice(bytes);
    } else {
        t.extend_from_slice(&bytes[..room]);
        t.extend_from_slice(OUTPUT_CUT.as_bytes());
    }
}

fn io_err(e: impl std::fmt::Display) -> std::io::Error {
    std::io::Error::other(e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transcript_stops_at_its_cap_with_a_visible_mark() {
        let mut t = Vec::new();
        let chunk = vec![b'x'; 300 * 1024];
        for _ in 0..5 {
            keep(&mut t, &chunk);
        }
        assert_eq!(t.len(), TRANSCRIPT_CAP + OUTPUT_CUT.len());
        assert!(t.ends_with(OUTPUT_CUT.as_bytes()));
        keep(&mut t, b"more");
        assert!(t.ends_with(OUTPUT_CUT.as_bytes()), "the mark comes once");
    }
}
