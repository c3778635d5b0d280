//! The real binary in a real terminal: a tmux server of the test's own (its own socket, so
//! parallel tests and other users' sessions never meet), the program started directly as the
//! pane's process (no shell around it unless the test asks for one), and the process facts a
//! test needs from /proc, by exact pid.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How long a condition may take before the test fails.
pub const DEADLINE: Duration = Duration::from_secs(15);

pub struct Pane {
    socket: String,
}

/// One process, named by pid and start time, so a reused pid is never taken for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Proc {
    pub pid: i32,
    start: u64,
}

/// The fields of /proc/PID/stat a test reads.
#[derive(Debug, Clone)]
pub struct Stat {
    pub comm: String,
    pub state: char,
    pub ppid: i32,
    pub pgrp: i32,
    pub session: i32,
    pub tty: i32,
    /// The foreground process group of the process's terminal.
    pub tpgid: i32,
    pub start: u64,
}

pub fn stat(pid: i32) -> Option<Stat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let open = text.find('(')?;
    let close = text.rfind(')')?;
    let f: Vec<&str> = text[close + 1..].split_ascii_whitespace().collect();
    let num = |i: usize| f.get(i).and_then(|s| s.parse::<i64>().ok());
    Some(Stat {
        comm: text[open + 1..close].to_string(),
        state: f.first()?.chars().next()?,
        ppid: num(1)? as i32,
        pgrp: num(2)? as i32,
        session: num(3)? as i32,
        tty: num(4)? as i32,
        tpgid: num(5)? as i32,
        start: num(19)? as u64,
    })
}

impl Proc {
    pub fn of(pid: i32) -> Option<Proc> {
        Some(Proc {
            pid,
            start: stat(pid)?.start,
        })
    }

    /// Still running: there, the same process, and not a zombie waiting to be reaped.
    pub fn alive(&self) -> bool {
        stat(self.pid).is_some_and(|s| s.start == self.start && s.state != 'Z')
    }

    pub fn stat(&self) -> Option<Stat> {
        stat(self.pid).filter(|s| s.start == self.start)
    }
}

/// Every process below `root` (children, their children...), found through /proc.
pub fn descendants(root: i32) -> Vec<(i32, Stat)> {
    let all: Vec<(i32, Stat)> = std::fs::read_dir("/proc")
        .map(|d| {
            d.filter_map(Result::ok)
                .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
                .filter_map(|pid| Some((pid, stat(pid)?)))
                .collect()
        })
        .unwrap_or_default();
    let mut found = vec![root];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        found.extend(
            all.iter()
                .filter(|(_, s)| s.ppid == parent)
                .map(|(p, _)| *p),
        );
        i += 1;
    }
    all.into_iter()
        .filter(|(p, _)| *p != root && found.contains(p))
        .collect()
}

/// `root` and every process below it, each by pid and start time.
pub fn family(root: Proc) -> Vec<Proc> {
    std::iter::once(root)
        .chain(
            descendants(root.pid)
                .into_iter()
                .filter_map(|(pid, _)| Proc::of(pid)),
        )
        .collect()
}

/// Polls `f` until it gives a value, failing with `what` after the deadline.
pub fn wait<T>(what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(start.elapsed() < DEADLINE, "timed out waiting: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

static NEXT: AtomicUsize = AtomicUsize::new(0);

impl Pane {
    /// Starts `argv` as the only process of a new `w`x`h` pane, with `env` added.
    pub fn start(argv: &[&str], env: &[(&str, &str)], w: u16, h: u16) -> Pane {
        let socket = format!(
            "rocm-learn-test-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::SeqCst)
        );
        let pane = Pane { socket };
        let (w, h) = (w.to_string(), h.to_string());
        let mut args = vec!["new-session", "-d", "-x", &w, "-y", &h, "env"];
        let pairs: Vec<String> = env.iter().map(|(k, v)| format!("{k}={v}")).collect();
        args.extend(pairs.iter().map(String::as_str));
        args.extend_from_slice(argv);
        let ok = pane.tmux(&args).status.success();
        assert!(ok, "tmux started {argv:?}");
        pane
    }

    fn tmux(&self, args: &[&str]) -> std::process::Output {
        Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .env("LC_ALL", "C.UTF-8")
            .output()
            .expect("tmux runs")
    }

    fn format(&self, f: &str) -> String {
        let out = self.tmux(&["display-message", "-p", f]);
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// The pane's process (`env` has exec'd the program by the time it draws).
    pub fn process(&self) -> Proc {
        let pid: i32 = self.format("#{pane_pid}").parse().expect("a pane pid");
        Proc::of(pid).expect("the pane's process runs")
    }

    /// The pane's terminal device, as /proc/PID/stat numbers it.
    pub fn tty_nr(&self) -> i32 {
        use std::os::unix::fs::MetadataExt;
        let path = PathBuf::from(self.format("#{pane_tty}"));
        let rdev = std::fs::metadata(&path).expect("pane tty").rdev();
        // The kernel's encoding of a device number in /proc/PID/stat.
        let (major, minor) = (libc::major(rdev), libc::minor(rdev));
        ((major << 8) | (minor & 0xff) | ((minor & !0xff) << 12)) as i32
    }

    /// Whether the program switched to the alternate screen (a full-screen app is drawing).
    pub fn alternate(&self) -> bool {
        self.format("#{alternate_on}") == "1"
    }

    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys"];
        args.extend_from_slice(keys);
        self.tmux(&args);
    }

    /// Resizes the terminal, as a user dragging the window's corner.
    pub fn resize(&self, w: u16, h: u16) {
        let (w, h) = (w.to_string(), h.to_string());
        self.tmux(&["resize-window", "-x", &w, "-y", &h]);
    }

    /// Types text literally (no key names).
    pub fn type_text(&self, text: &str) {
        self.tmux(&["send-keys", "-l", text]);
    }

    pub fn screen(&self) -> String {
        String::from_utf8_lossy(&self.tmux(&["capture-pane", "-p"]).stdout).into_owned()
    }

    /// Waits until the screen satisfies `ok`; returns it.
    pub fn wait_until(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let last = self.screen();
            if ok(&last) {
                return last;
            }
            assert!(
                start.elapsed() < DEADLINE,
                "timed out waiting for {what}; screen:\n{last}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn wait_for(&self, text: &str) -> String {
        self.wait_until(text, |s| s.contains(text))
    }

    /// Closes the terminal: the server goes, and with it the pane's terminal.
    pub fn close(&self) {
        self.tmux(&["kill-server"]);
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        self.close();
    }
}
