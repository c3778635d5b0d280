//! A live shell in a pseudo-terminal: bubblewrap + bash, its screen parsed by vt100 off the UI
//! thread, and the prompt hook's records read from the side channel.

use std::ffi::OsString;
use std::fs::OpenOptions;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};
use tui_term::vt100;

use super::record::{RS, Record, Splitter};

/// Called from the reader threads whenever the screen changed or a record arrived.
pub type Notify = Arc<dyn Fn() + Send + Sync>;

/// Lines of scrollback kept for the terminal pane.
pub const SCROLLBACK: usize = 5000;

pub struct Shell {
    master: Box<dyn MasterPty + Send>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn Child + Send + Sync>,
    pub screen: Arc<Mutex<vt100::Parser>>,
    records: Receiver<Record>,
    /// Everything the shell printed, for the transcript of a scripted run (off in the app).
    transcript: Option<Arc<Mutex<Vec<u8>>>>,
    exited: Arc<AtomicBool>,
    closing: Arc<AtomicBool>,
    fifo: PathBuf,
}

impl Shell {
    /// Starts `argv` (the bubblewrap command line) in a new pseudo-terminal of `rows` x `cols`.
    /// `fifo` is the side channel on the host side (created here).
    pub fn spawn(
        argv: Vec<OsString>,
        rows: u16,
        cols: u16,
        fifo: &Path,
        keep_transcript: bool,
        notify: Notify,
    ) -> std::io::Result<Shell> {
        let rows = rows.max(2);
        let cols = cols.max(10);
        make_fifo(fifo)?;
        let pair = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .map_err(io_err)?;
        let child = pair
            .slave
            .spawn_command(CommandBuilder::from_argv(argv))
            .map_err(io_err)?;
        // Only the child may hold the slave end, or reading would never see end-of-file.
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().map_err(io_err)?;
        let writer = pair.master.take_writer().map_err(io_err)?;

        let screen = Arc::new(Mutex::new(vt100::Parser::new(rows, cols, SCROLLBACK)));
        let transcript = keep_transcript.then(|| Arc::new(Mutex::new(Vec::new())));
        let exited = Arc::new(AtomicBool::new(false));
        {
            let screen = screen.clone();
            let transcript = transcript.clone();
            let exited = exited.clone();
            let notify = notify.clone();
            std::thread::spawn(move || {
                let mut buf = vec![0u8; 64 * 1024];
                loop {
                    match reader.read(&mut buf) {
                        // EIO when the shell is gone: that is the end of the stream.
                        Ok(0) | Err(_) => break,
                        Ok(n) => {
                            if let Ok(mut p) = screen.lock() {
                                p.process(&buf[..n]);
                            }
                            if let Some(t) = &transcript
                                && let Ok(mut t) = t.lock()
                            {
                                t.extend_from_slice(&buf[..n]);
                            }
                            notify();
                        }
                    }
                }
                exited.store(true, Ordering::SeqCst);
                notify();
            });
        }

        let (tx, records) = mpsc::channel();
        let closing = Arc::new(AtomicBool::new(false));
        {
            // Read and write: the FIFO never reports end-of-file between two writers.
            let mut fifo_file = OpenOptions::new().read(true).write(true).open(fifo)?;
            let closing = closing.clone();
            std::thread::spawn(move || {
                let mut split = Splitter::default();
                let mut buf = [0u8; 8192];
                while let Ok(n) = fifo_file.read(&mut buf) {
                    if n == 0 || closing.load(Ordering::SeqCst) {
                        break;
                    }
                    for r in split.feed(&buf[..n]) {
                        if tx.send(r).is_err() {
                            return;
                        }
                    }
                    notify();
                }
            });
        }

        Ok(Shell {
            master: pair.master,
            writer,
            child,
            screen,
            records,
            transcript,
            exited,
            closing,
            fifo: fifo.to_path_buf(),
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

    /// Records that arrived since the last call.
    pub fn records(&self) -> Vec<Record> {
        self.records.try_iter().collect()
    }

    /// Waits up to `timeout` for the next record.
    pub fn next_record(&self, timeout: std::time::Duration) -> Option<Record> {
        self.records.recv_timeout(timeout).ok()
    }

    /// Whether a program in the terminal's foreground waits for input: a process of the
    /// terminal's foreground group (tcgetpgrp on the master) asleep reading this terminal.
    pub fn waits_for_input(&self) -> bool {
        let fg = self.master.process_group_leader();
        let tty = self.master.tty_name();
        fg.zip(tty)
            .is_some_and(|(fg, tty)| super::reading::waits_for_input(fg, &tty))
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

    /// Ends the sandbox and everything in it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.closing.store(true, Ordering::SeqCst);
        // Wake the side-channel thread so it sees `closing` and ends.
        if let Ok(mut f) = OpenOptions::new().write(true).open(&self.fifo) {
            let _ = f.write_all(&[RS as u8]);
        }
    }
}

impl Drop for Shell {
    fn drop(&mut self) {
        self.kill();
    }
}

fn make_fifo(path: &Path) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let _ = std::fs::remove_file(path);
    let c = std::ffi::CString::new(path.as_os_str().as_bytes())
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidInput, "path with NUL"))?;
    // SAFETY: `c` is a valid NUL-terminated path for the duration of the call.
    if unsafe { libc::mkfifo(c.as_ptr(), 0o600) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

fn io_err(e: impl std::fmt::Display) -> std::io::Error {
    std::io::Error::other(e.to_string())
}
