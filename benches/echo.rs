//! Keystroke to echo over the class server against OpenSSH's sshd, in one run on the same
//! loopback: N sessions on each (30 unless ECHO_BENCH_SESSIONS says), every one a real `ssh`
//! client. On serve each session is in a lab (its bash in the sandbox, drawn by the app); on
//! sshd each is a bash login. A key is timed from the moment ssh is given it until that very
//! character comes back in ssh's output (not the first byte of whatever arrives), one key at a
//! time, round robin. Twice: with the other sessions idle, and with 5 of them running a busy
//! loop in their shells. Prints p50 and p99 of each, and the ratios serve/sshd.
//!
//! Both servers start in a session of their own (`setsid`), as a service manager starts them:
//! Linux's autogroup scheduler shares the CPU per session, so a server left in the bench's
//! session would share one slice of it with the bench's spinning timer and all 60 ssh clients.
//! sshd puts each connection in a session of its own anyway; serve is one process for all.
//!
//! `cargo bench --bench echo`; needs root (sshd), ssh, ssh-keygen, sshd (openssh-server),
//! setsid (util-linux) and bubblewrap. Prints numbers; judges nothing.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

const LAB: &str = "hipcc-not-found";
const BUSY: usize = 5;
const KEYS_PER_SESSION: usize = 8;

/// One ssh client, its output kept as it arrives.
struct Session {
    child: Child,
    stdin: ChildStdin,
    seen: Arc<(Mutex<Vec<u8>>, Condvar)>,
}

impl Session {
    fn start(mut cmd: Command) -> Session {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("ssh starts");
        let stdin = child.stdin.take().unwrap();
        let mut out = child.stdout.take().unwrap();
        let seen = Arc::new((Mutex::new(Vec::new()), Condvar::new()));
        let s = seen.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 65536];
            while let Ok(k @ 1..) = out.read(&mut buf) {
                let mut v = s.0.lock().unwrap();
                // Only the recent past matters; what is older is let go.
                if v.len() > 1 << 20 {
                    v.drain(..1 << 19);
                }
                v.extend_from_slice(&buf[..k]);
                s.1.notify_all();
            }
        });
        Session { child, stdin, seen }
    }

    fn len(&self) -> usize {
        self.seen.0.lock().unwrap().len()
    }

    fn wait_for(&self, text: &str, limit: Duration) {
        let start = Instant::now();
        while !String::from_utf8_lossy(&self.seen.0.lock().unwrap()).contains(text) {
            assert!(start.elapsed() < limit, "never saw {text:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends `key` and times it until that byte is in the output after this point. The
    /// timer sleeps until output arrives, as a terminal does: a spinning timer would take one
    /// of the machine's CPUs from the very programs it times.
    fn echo(&mut self, key: u8) -> Duration {
        let from = self.len();
        let t = Instant::now();
        self.send(&[key]);
        let limit = Duration::from_secs(5);
        let (lock, arrived) = &*self.seen;
        let mut s = lock.lock().unwrap();
        loop {
            // The buffer may have been trimmed meanwhile: then look at all of it.
            let from = from.min(s.len());
            if s[from..].contains(&key) || t.elapsed() > limit {
                return t.elapsed();
            }
            s = arrived.wait_timeout(s, limit).unwrap().0;
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn keygen(path: &Path) -> String {
    let ok = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-f"])
        .arg(path)
        .status()
        .unwrap()
        .success();
    assert!(ok);
    std::fs::read_to_string(path.with_extension("pub")).unwrap()
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn ssh(key: &Path, port: u16, target: &str) -> Command {
    let mut c = Command::new("ssh");
    c.arg("-tt")
        .arg("-i")
        .arg(key)
        .args([
            "-F",
            "/dev/null",
            "-o",
            "StrictHostKeyChecking=no",
            "-o",
            "UserKnownHostsFile=/dev/null",
            "-o",
            "LogLevel=ERROR",
            "-o",
            "BatchMode=yes",
            "-p",
        ])
        .arg(port.to_string())
        .arg(target);
    c
}

/// OpenSSH's sshd on loopback, letting root in with `key` only; each session a bash login.
fn start_sshd(dir: &Path, public: &str) -> (Child, u16) {
    let host = dir.join("sshd_host");
    keygen(&host);
    let auth = dir.join("authorized_keys");
    std::fs::write(&auth, public).unwrap();
    let port = free_port();
    let config = dir.join("sshd_config");
    std::fs::write(
        &config,
        format!(
            "Port {port}\nListenAddress 127.0.0.1\nHostKey {}\nAuthorizedKeysFile {}\n\
             PermitRootLogin prohibit-password\nPasswordAuthentication no\nUsePAM no\n\
             StrictModes no\nPidFile none\nMaxStartups 100:30:200\nMaxSessions 100\n\
             PrintMotd no\nPrintLastLog no\n",
            host.display(),
            auth.display()
        ),
    )
    .unwrap();
    std::fs::create_dir_all("/run/sshd").unwrap();
    let child = Command::new("setsid")
        .args(["/usr/sbin/sshd", "-D", "-e", "-f"])
        .arg(&config)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("sshd starts (apt install openssh-server)");
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "sshd never listened"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (child, port)
}

fn start_serve(class: &Path, n: usize) -> (Child, u16) {
    let mut server = Command::new("setsid")
        .arg(env!("CARGO_BIN_EXE_rocm-learn"))
        .args(["serve", "--listen", "127.0.0.1:0", "--max-sessions"])
        .arg((n + 5).to_string())
        .arg("--class")
        .arg(class)
        // Every session comes from one address here, all at once.
        .args([
            "--per-source-startups",
            "100",
            "--max-startups",
            "100:30:200",
        ])
        // Each lab's machine may take a GiB; 30 of them are more than half of a small server.
        .args(["--lab-memory", "65536"])
        .env("LANG", "C")
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut log = BufReader::new(server.stderr.take().unwrap());
    let mut first = String::new();
    log.read_line(&mut first).unwrap();
    let port: u16 = first
        .split("on 127.0.0.1:")
        .nth(1)
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|p| p.parse().ok())
        .expect("the port");
    std::thread::spawn(move || for _ in log.lines() {});
    (server, port)
}

fn pct(lat: &mut [Duration], p: f64) -> f64 {
    lat.sort();
    lat[((lat.len() as f64 - 1.0) * p).round() as usize].as_secs_f64() * 1000.0
}

/// One key per session, round robin, `KEYS_PER_SESSION` rounds, on the idle sessions only.
fn measure(sessions: &mut [Session], skip: usize) -> Vec<Duration> {
    let mut lat = Vec::new();
    // Letters no prompt or screen of either side has just drawn in that place.
    for round in 0..KEYS_PER_SESSION {
        for s in sessions.iter_mut().skip(skip) {
            lat.push(s.echo(b"qzxjvkwy"[round % 8]));
            std::thread::sleep(Duration::from_millis(15));
        }
    }
    // Clean the command lines for the next round (Ctrl-U).
    for s in sessions.iter_mut().skip(skip) {
        s.send(b"\x15");
    }
    std::thread::sleep(Duration::from_millis(200));
    lat
}

fn busy(sessions: &mut [Session], on: bool) {
    for s in sessions.iter_mut().take(BUSY) {
        if on {
            s.send(b"while :; do :; done\r");
        } else {
            s.send(b"\x03");
        }
    }
    std::thread::sleep(Duration::from_millis(500));
}

fn main() {
    let n: usize = std::env::var("ECHO_BENCH_SESSIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(30);
    let dir = tempfile::tempdir().unwrap();
    let key: PathBuf = dir.path().join("k");
    let public = keygen(&key);
    let class = dir.path().join("class");
    std::fs::create_dir(&class).unwrap();
    let mut roster = String::new();
    for i in 0..n {
        roster.push_str(&format!(
            "[[learner]]\nname = \"l{i}\"\nkey = \"{}\"\n",
            public.trim()
        ));
    }
    std::fs::write(class.join("roster.toml"), roster).unwrap();
    let (serve, serve_port) = start_serve(&class, n);
    let (sshd, sshd_port) = start_sshd(dir.path(), &public);
    // Both servers (and the session apps under serve) go with the bench, also on a panic.
    let _serve = Reap(serve);
    let _sshd = Reap(sshd);

    let mut on_serve: Vec<Session> = (0..n)
        .map(|i| {
            let mut c = ssh(&key, serve_port, &format!("l{i}@127.0.0.1"));
            c.args(["lab", LAB]);
            Session::start(c)
        })
        .collect();
    let mut on_sshd: Vec<Session> = (0..n)
        .map(|_| {
            let mut c = ssh(&key, sshd_port, "root@127.0.0.1");
            // A plain interactive bash, as a learner's shell would be.
            // (One string: sshd hands it to the login shell, which splits it.)
            c.arg("env 'PS1=$ ' bash --norc --noprofile -i");
            Session::start(c)
        })
        .collect();
    for s in &on_serve {
        s.wait_for("learner@", Duration::from_secs(180));
    }
    for s in &on_sshd {
        s.wait_for("$ ", Duration::from_secs(60));
    }
    std::thread::sleep(Duration::from_secs(2));
    println!("{n} sessions on each: serve (each in lab {LAB}) and OpenSSH's sshd (bash)");

    for (label, load) in [("others idle", false), ("5 running a busy loop", true)] {
        busy(&mut on_serve, load);
        busy(&mut on_sshd, load);
        let skip = if load { BUSY } else { 0 };
        // Paired: the two servers take turns, so both meet the same machine.
        let mut a = Vec::new();
        let mut b = Vec::new();
        for _ in 0..2 {
            a.extend(measure(&mut on_serve, skip));
            b.extend(measure(&mut on_sshd, skip));
        }
        let (a50, a99, b50, b99) = (
            pct(&mut a, 0.5),
            pct(&mut a, 0.99),
            pct(&mut b, 0.5),
            pct(&mut b, 0.99),
        );
        println!(
            "{label:>22}: serve p50 {a50:6.2} ms p99 {a99:6.2} ms | sshd p50 {b50:6.2} ms p99 {b99:6.2} ms | ratio p50 {:4.2} p99 {:4.2} ({} keys each)",
            a50 / b50,
            a99 / b99,
            a.len()
        );
        busy(&mut on_serve, false);
        busy(&mut on_sshd, false);
    }
    drop(on_serve);
    drop(on_sshd);
}

/// A server killed when dropped: serve's session apps then lose their terminals and end.
struct Reap(Child);

impl Drop for Reap {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
