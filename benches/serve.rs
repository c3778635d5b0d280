//! The class server under load: N learners (30 unless SERVE_BENCH_SESSIONS says) log in over
//! loopback with the real OpenSSH client and each opens a lab; then the keystroke-to-echo
//! latency (a key sent by ssh until the first byte of the redraw comes back through ssh),
//! memory per session (the server's share plus each session's app, the lab's sandbox apart)
//! and CPU per idle session. `cargo bench --bench serve`; needs ssh, ssh-keygen and bubblewrap.
//! Prints numbers; judges nothing.

// Signals and clock ticks of the processes under test: plain libc calls, in a test.
#![allow(unsafe_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const LAB: &str = "hipcc-not-found";

/// One learner's ssh, its output counted as it arrives.
struct Session {
    child: Child,
    stdin: ChildStdin,
    bytes: Arc<AtomicU64>,
    seen: Arc<Mutex<Vec<u8>>>,
}

fn keygen(path: &std::path::Path) -> String {
    let ok = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-f"])
        .arg(path)
        .status()
        .unwrap()
        .success();
    assert!(ok);
    std::fs::read_to_string(path.with_extension("pub")).unwrap()
}

fn stat_fields(pid: u32) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let close = text.rfind(')')?;
    Some(
        text[close + 2..]
            .split_whitespace()
            .map(str::to_string)
            .collect(),
    )
}

/// The direct children of `pid`.
fn children(pid: u32) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|p| {
            stat_fields(*p)
                .is_some_and(|f| f.get(1).and_then(|s| s.parse::<u32>().ok()) == Some(pid))
        })
        .collect()
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// utime + stime in clock ticks.
fn cpu_ticks(pid: u32) -> u64 {
    stat_fields(pid)
        .map(|f| f[11].parse::<u64>().unwrap_or(0) + f[12].parse::<u64>().unwrap_or(0))
        .unwrap_or(0)
}

fn main() {
    let n: usize = std::env::var("SERVE_BENCH_SESSIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(30);
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    std::fs::create_dir(&class).unwrap();
    let mut roster = String::new();
    for i in 0..n {
        let key = keygen(&dir.path().join(format!("k{i}")));
        roster.push_str(&format!(
            "[[learner]]\nname = \"l{i}\"\nkey = \"{}\"\n",
            key.trim()
        ));
    }
    std::fs::write(class.join("roster.toml"), roster).unwrap();
    let mut server = Command::new(env!("CARGO_BIN_EXE_rocm-learn"))
        .args(["serve", "--listen", "127.0.0.1:0", "--max-sessions"])
        .arg((n + 5).to_string())
        .arg("--class")
        .arg(&class)
        // All at once from one address, each in a lab (a GiB of budget each).
        .args([
            "--per-source-startups",
            "100",
            "--max-startups",
            "100:30:200",
        ])
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

    let opened = Instant::now();
    let mut sessions: Vec<Session> = (0..n)
        .map(|i| {
            let mut child = Command::new("ssh")
                .arg("-tt")
                .arg("-i")
                .arg(dir.path().join(format!("k{i}")))
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
                .arg(format!("l{i}@127.0.0.1"))
                .args(["lab", LAB])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            let stdin = child.stdin.take().unwrap();
            let mut out = child.stdout.take().unwrap();
            let bytes = Arc::new(AtomicU64::new(0));
            let seen = Arc::new(Mutex::new(Vec::new()));
            let (b, s) = (bytes.clone(), seen.clone());
            std::thread::spawn(move || {
                let mut buf = [0u8; 65536];
                while let Ok(k @ 1..) = out.read(&mut buf) {
                    b.fetch_add(k as u64, Ordering::SeqCst);
                    let mut s = s.lock().unwrap();
                    if s.len() < 1 << 20 {
                        s.extend_from_slice(&buf[..k]);
                    }
                }
            });
            Session {
                child,
                stdin,
                bytes,
                seen,
            }
        })
        .collect();
    // Every lab's shell has drawn its prompt.
    for s in &sessions {
        let start = Instant::now();
        while !String::from_utf8_lossy(&s.seen.lock().unwrap()).contains("learner@") {
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "a lab never opened"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    println!(
        "{n} sessions, each in lab {LAB}: all prompts after {:.1} s",
        opened.elapsed().as_secs_f64()
    );
    std::thread::sleep(Duration::from_secs(2));

    // Keystroke to echo: one key at a time, round robin, 10 per session.
    let mut lat: Vec<Duration> = Vec::new();
    for round in 0..10u8 {
        for s in &mut sessions {
            let before = s.bytes.load(Ordering::SeqCst);
            let t = Instant::now();
            s.stdin.write_all(&[b'a' + round]).unwrap();
            s.stdin.flush().unwrap();
            while s.bytes.load(Ordering::SeqCst) == before && t.elapsed() < Duration::from_secs(5) {
                std::hint::spin_loop();
            }
            lat.push(t.elapsed());
            // Let the redraw finish before the next key.
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    lat.sort();
    let pct = |p: f64| lat[((lat.len() as f64 - 1.0) * p) as usize].as_secs_f64() * 1000.0;
    println!(
        "keystroke to echo:   median {:6.1} ms   p99 {:6.1} ms   ({} keys)",
        pct(0.5),
        pct(0.99),
        lat.len()
    );

    // Memory: the server's share and each session's app (its lab's sandbox apart).
    let apps = children(server.id());
    let mut app_rss: Vec<u64> = apps.iter().map(|p| rss_kib(*p)).collect();
    app_rss.sort();
    let server_rss = rss_kib(server.id());
    println!(
        "memory per session:  app median {:5.1} MiB + server share {:4.1} MiB ({} apps, server {:.1} MiB)",
        app_rss.get(app_rss.len() / 2).copied().unwrap_or(0) as f64 / 1024.0,
        server_rss as f64 / 1024.0 / n as f64,
        apps.len(),
        server_rss as f64 / 1024.0
    );

    // CPU while everyone is idle: server and apps over 5 s.
    let all: Vec<u32> = std::iter::once(server.id())
        .chain(apps.iter().copied())
        .collect();
    let before: u64 = all.iter().map(|p| cpu_ticks(*p)).sum();
    std::thread::sleep(Duration::from_secs(5));
    let after: u64 = all.iter().map(|p| cpu_ticks(*p)).sum();
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    let pct_total = (after - before) as f64 / hz / 5.0 * 100.0;
    println!(
        "idle CPU:            {:.2}% of a core for all {n} sessions ({:.3}% each)",
        pct_total,
        pct_total / n as f64
    );

    for mut s in sessions {
        let _ = s.child.kill();
        let _ = s.child.wait();
    }
    let _ = server.kill();
    let _ = server.wait();
}
