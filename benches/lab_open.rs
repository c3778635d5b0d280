//! Lab open as a learner meets it, timed from outside the process: the release binary in a
//! pseudo-terminal, its screen parsed by vt100, the clock started as Enter is written on a lab
//! in the Labs list and stopped when the lab's prompt is on screen. Per app process, three
//! figures: the first lab it opens, a second one after leaving the first, and F5 (start over,
//! from the `y` that confirms it). Each is paired with its floor in the same run: a bare
//! bubblewrap login shell in a pseudo-terminal until its prompt hook runs, started just before
//! as the same user.
//!
//! Run as root it measures the three ways the app picks the lab's ids: root (the sandbox as
//! nobody with the machine's ids), a user with subordinate ids (`rocmlearn-sub`, as CI makes
//! it) and one id (nobody, who has no subordinate ids); as anyone else, that user's own way.
//! The temporary folder and the data folder are on TMPDIR's file system (ext4 on most
//! machines). `cargo bench --bench lab_open` (builds the release binary first). Prints
//! numbers; asserts nothing about them.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};
use tui_term::vt100;

/// App processes per mode (each gives one of every figure); `LAB_OPEN_RUNS` sets another.
const RUNS: usize = 15;
const ROWS: u16 = 40;
const COLS: u16 = 120;
/// The lab opened (the third in the Labs list) and its prompt.
const LAB_TITLE: &str = "hsa_init() failed";
const PROMPT: &str = "learner@vega-ws:~$";
const SUBORDINATE_USER: &str = "rocmlearn-sub";

/// Who starts the app and the bare shell.
#[derive(Clone, Copy)]
struct Who {
    name: &'static str,
    /// None: this process's own user.
    ids: Option<(u32, u32)>,
}

/// A terminal whose output a thread parses into a screen as it comes.
struct Term {
    master: Box<dyn MasterPty + Send>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn Child + Send + Sync>,
    seen: Arc<(Mutex<Seen>, Condvar)>,
}

struct Seen {
    screen: vt100::Parser,
    raw_tail: Vec<u8>,
    ended: bool,
}

impl Term {
    fn start(cmd: CommandBuilder) -> Term {
        let pty = native_pty_system()
            .openpty(PtySize {
                rows: ROWS,
                cols: COLS,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("pty");
        let child = pty.slave.spawn_command(cmd).expect("spawn");
        drop(pty.slave);
        let mut reader = pty.master.try_clone_reader().expect("reader");
        let writer = pty.master.take_writer().expect("writer");
        let seen = Arc::new((
            Mutex::new(Seen {
                screen: vt100::Parser::new(ROWS, COLS, 0),
                raw_tail: Vec::new(),
                ended: false,
            }),
            Condvar::new(),
        ));
        let feed = seen.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 65536];
            loop {
                let n = reader.read(&mut buf).unwrap_or(0);
                let (lock, cv) = &*feed;
                let mut s = lock.lock().unwrap();
                if n == 0 {
                    s.ended = true;
                    cv.notify_all();
                    return;
                }
                s.screen.process(&buf[..n]);
                s.raw_tail.extend_from_slice(&buf[..n]);
                let keep = s.raw_tail.len().saturating_sub(256);
                s.raw_tail.drain(..keep);
                cv.notify_all();
            }
        });
        Term {
            master: pty.master,
            writer,
            child,
            seen,
        }
    }

    fn keys(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).expect("keys");
        self.writer.flush().expect("flush");
    }

    /// Waits until `cond` holds for the screen (checked after every chunk of output).
    fn wait(&self, what: &str, cond: impl Fn(&Seen) -> bool) -> Instant {
        let (lock, cv) = &*self.seen;
        let end = Instant::now() + Duration::from_secs(20);
        let mut s = lock.lock().unwrap();
        loop {
            if cond(&s) {
                return Instant::now();
            }
            let left = end.checked_duration_since(Instant::now());
            assert!(
                left.is_some() && !s.ended,
                "{what}: not on screen within 20 s:\n{}",
                s.screen.screen().contents()
            );
            s = cv.wait_timeout(s, left.unwrap()).unwrap().0;
        }
    }

    fn end(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        drop(self.master);
    }
}

fn shows(s: &Seen, text: &str) -> bool {
    s.screen.screen().contents().contains(text)
}

/// `program args` as `who`, in `home` (HOME and TMPDIR), with a clean environment.
fn command(who: Who, home: &Path, program: &Path, args: &[&str]) -> CommandBuilder {
    let mut cmd = match who.ids {
        None => CommandBuilder::new(program),
        Some((uid, gid)) => {
            let mut c = CommandBuilder::new("setpriv");
            c.args([
                "--reuid",
                &uid.to_string(),
                "--regid",
                &gid.to_string(),
                "--clear-groups",
            ]);
            c.arg(program);
            c
        }
    };
    cmd.args(args);
    cmd.env_clear();
    for (k, v) in [
        (
            "PATH",
            "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        ),
        ("TERM", "xterm-256color"),
        ("LANG", "C.UTF-8"),
    ] {
        cmd.env(k, v);
    }
    cmd.env("HOME", home);
    cmd.cwd(home);
    cmd.env("TMPDIR", home);
    cmd
}

/// A bare login shell in bubblewrap (the host's root read-only, its own /dev, /proc, an empty
/// home and /tmp), until its prompt hook runs.
fn bare_login(who: Who, home: &Path, bwrap: &Path) -> Duration {
    let cmd = command(
        who,
        home,
        bwrap,
        &[
            "--unshare-all",
            "--ro-bind",
            "/",
            "/",
            "--dev",
            "/dev",
            "--proc",
            "/proc",
            "--tmpfs",
            "/root",
            "--tmpfs",
            "/tmp",
            "--setenv",
            "HOME",
            "/root",
            "--setenv",
            "PROMPT_COMMAND",
            "printf READY",
            "bash",
            "--login",
            "-i",
        ],
    );
    let t = Instant::now();
    let term = Term::start(cmd);
    let done = term.wait("the bare shell's prompt", |s| {
        s.raw_tail.windows(5).any(|w| w == b"READY")
    });
    term.end();
    done - t
}

/// One figure of a run, with its bare login.
type Pick = fn(&Run) -> (Duration, Duration);

/// The figures of one app process, each with the bare login measured just before it.
struct Run {
    first: (Duration, Duration),
    second: (Duration, Duration),
    reset: (Duration, Duration),
}

/// Waits for the Labs list with the lab selected (its title heads the right-hand pane).
fn labs_list_on_lab(term: &Term) {
    term.wait("the Labs list on the lab", |s| {
        let c = s.screen.screen().contents();
        c.contains("Enter start") && c.lines().nth(2).is_some_and(|l| l.contains(LAB_TITLE))
    });
}

/// Enter on the lab, until its prompt is drawn.
fn open_lab(term: &mut Term) -> Duration {
    // The screen settles: the clock measures the lab, not a frame still being drawn.
    std::thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    term.keys(b"\r");
    term.wait("the lab's prompt", |s| shows(s, PROMPT)) - t
}

fn one_run(who: Who, home: &Path, exe: &Path, bwrap: &Path) -> Run {
    let data = home.join(format!(
        "data-{}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    std::fs::create_dir(&data).unwrap();
    chown(&data, who);
    let mut cmd = command(who, home, exe, &["--lang", "en"]);
    cmd.env("ROCM_LEARN_DATA_DIR", &data);
    let mut term = Term::start(cmd);
    term.wait("the home screen", |s| {
        shows(s, "Fix real deployment failures")
    });
    term.keys(b"4");
    term.wait("the Labs list", |s| shows(s, "Enter start"));
    // Down twice: the third lab.
    term.keys(b"\x1b[B\x1b[B");
    labs_list_on_lab(&term);

    let bare = bare_login(who, home, bwrap);
    let first = (open_lab(&mut term), bare);

    // F10 gives the keys back to the app, q leaves the lab for the list.
    term.keys(b"\x1b[21~");
    std::thread::sleep(Duration::from_millis(50));
    term.keys(b"q");
    labs_list_on_lab(&term);
    let bare = bare_login(who, home, bwrap);
    let second = (open_lab(&mut term), bare);

    // Something on screen that the new shell will not show, then F5 and its question.
    term.keys(b"echo OLD-$((40+2))\r");
    term.wait("the old shell's output", |s| shows(s, "OLD-42"));
    term.keys(b"\x1b[15~");
    term.wait("F5's question", |s| shows(s, "Start this lab over"));
    let bare = bare_login(who, home, bwrap);
    std::thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    term.keys(b"y");
    let done = term.wait("the new shell's prompt", |s| {
        let c = s.screen.screen().contents();
        c.contains(PROMPT) && !c.contains("OLD-42") && !c.contains("Start this lab over")
    });
    let reset = (done - t, bare);
    term.end();
    let _ = std::fs::remove_dir_all(&data);
    Run {
        first,
        second,
        reset,
    }
}

fn chown(p: &Path, who: Who) {
    if let Some((uid, gid)) = who.ids {
        std::os::unix::fs::chown(p, Some(uid), Some(gid)).expect("chown");
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The file system of `dir`, by its magic number.
// f_type is i64 on x86_64 and another width elsewhere.
#[allow(clippy::unnecessary_cast)]
fn fs_of(dir: &Path) -> &'static str {
    match rustix::fs::statfs(dir).map(|s| s.f_type as i64) {
        Ok(0xEF53) => "ext4",
        Ok(0x0102_1994) => "tmpfs",
        Ok(0x5846_5342) => "xfs",
        Ok(0x9123_683E) => "btrfs",
        Ok(0x794C_7630) => "overlayfs",
        _ => "other",
    }
}

/// The uid and gid of `name` in /etc/passwd.
fn user_ids(name: &str) -> Option<(u32, u32)> {
    let passwd = std::fs::read_to_string("/etc/passwd").ok()?;
    passwd.lines().find_map(|l| {
        let f: Vec<&str> = l.split(':').collect();
        (f.len() > 3 && f[0] == name).then(|| Some((f[2].parse().ok()?, f[3].parse().ok()?)))?
    })
}

fn has_subordinate_ids(name: &str) -> bool {
    ["/etc/subuid", "/etc/subgid"].iter().all(|f| {
        std::fs::read_to_string(f)
            .is_ok_and(|t| t.lines().any(|l| l.starts_with(&format!("{name}:"))))
    })
}

/// The ways to measure from here: root's three, or the caller's own.
fn modes() -> Vec<Who> {
    if !rustix::process::geteuid().is_root() {
        return vec![Who {
            name: "this user",
            ids: None,
        }];
    }
    let mut v = vec![Who {
        name: "root",
        ids: None,
    }];
    match user_ids(SUBORDINATE_USER) {
        Some(ids) if has_subordinate_ids(SUBORDINATE_USER) => v.push(Who {
            name: "subordinate ids",
            ids: Some(ids),
        }),
        _ => eprintln!("no user {SUBORDINATE_USER} with subordinate ids: that mode is left out"),
    }
    v.push(Who {
        name: "one id (nobody)",
        ids: Some((65534, 65534)),
    });
    v
}

fn main() {
    // The release binary, as a learner runs it (the bench profile builds the test binary
    // only), or another build to compare with (`LAB_OPEN_BIN`).
    let exe = match std::env::var_os("LAB_OPEN_BIN") {
        Some(bin) => PathBuf::from(bin),
        None => {
            let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
            let built = Command::new(env!("CARGO"))
                .args(["build", "--release", "--quiet", "--bin", "rocm-learn"])
                .current_dir(&root)
                .status()
                .expect("cargo build");
            assert!(built.success(), "cargo build --release failed");
            root.join("target/release/rocm-learn")
        }
    };
    let bwrap = rocm_learn::lab::app::bwrap::probe().expect("bubblewrap");
    let tmp = std::env::temp_dir();
    let runs = std::env::var("LAB_OPEN_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(RUNS);
    println!(
        "TMPDIR on {} ({}); {runs} app processes per mode; ratio = lab / bare login in the same run",
        fs_of(&tmp),
        tmp.display()
    );
    for who in modes() {
        let home = tempfile::Builder::new()
            .prefix("lab-open-bench")
            .tempdir_in(&tmp)
            .expect("temporary folder");
        if who.ids.is_some() {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(home.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
            chown(home.path(), who);
        }
        // One whole run first: the page cache, and whatever the app keeps per machine.
        let _ = one_run(who, home.path(), &exe, &bwrap);
        let runs: Vec<Run> = (0..runs)
            .map(|_| one_run(who, home.path(), &exe, &bwrap))
            .collect();
        println!("{}:", who.name);
        let rows: [(&str, Pick); 3] = [
            ("first lab of the app", |r| r.first),
            ("second lab, same app", |r| r.second),
            ("F5 (start over)", |r| r.reset),
        ];
        for (what, pick) in rows {
            let lab = median(runs.iter().map(|r| ms(pick(r).0)).collect());
            let bare = median(runs.iter().map(|r| ms(pick(r).1)).collect());
            let ratio = median(runs.iter().map(|r| ms(pick(r).0) / ms(pick(r).1)).collect());
            println!(
                "  {what:<22} median {lab:>6.1} ms | bare login {bare:>5.1} ms | ratio {ratio:.2}"
            );
        }
    }
}
