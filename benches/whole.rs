//! Whole-program measurements that need real processes: the binary's start to its first frame
//! in a pseudo-terminal, and the terminal pane's throughput (`seq 2000000` in the lab's shell
//! until the last line shows) against tmux doing the same. `cargo bench --bench whole`; needs
//! bubblewrap and tmux. Prints numbers; judges nothing.

use std::io::Read;
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use rocm_learn::content::{self, ContentTree};
use rocm_learn::lab::app::run::{LabRun, Options};

const LINES: u64 = 2_000_000;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Spawns the app in a 120x40 pseudo-terminal and waits for the home screen's title bar.
fn start_to_first_frame(exe: &str, data: &std::path::Path) -> Duration {
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: 40,
            cols: 120,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = CommandBuilder::new(exe);
    cmd.args(["--lang", "en"]);
    cmd.env("ROCM_LEARN_DATA_DIR", data);
    cmd.env("TERM", "xterm-256color");
    let t = Instant::now();
    let mut child = pair.slave.spawn_command(cmd).unwrap();
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 65536];
    let took = loop {
        let n = reader.read(&mut buf).unwrap_or(0);
        if n == 0 {
            panic!("the app ended before drawing");
        }
        seen.extend_from_slice(&buf[..n]);
        if String::from_utf8_lossy(&seen).contains("Learn to run AMD") {
            break t.elapsed();
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    took
}

/// `seq` in the lab's real shell, parsed by the same vt100 screen the pane draws, until the
/// last number is on screen.
fn lab_throughput(exe: &std::path::Path) -> Duration {
    let (course, _) = content::load(&ContentTree::embedded());
    let lab = course.lab("hsa-init-failed").unwrap();
    let opts = Options {
        exe: exe.to_path_buf(),
        rows: 40,
        cols: 120,
        relogin: String::new(),
        transcript: false,
        lang: rocm_learn::lang::Lang::En,
    };
    let mut run = LabRun::start(lab, opts, Arc::new(|| {})).unwrap();
    run.wait_record(Duration::from_secs(10)).unwrap();
    // Draw the pane the way the app does while output streams: at most every 16 ms, under the
    // same lock the reader thread parses under.
    let screen = run.shell.screen.clone();
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let drawer = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut t =
                ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 40)).unwrap();
            let mut frames = 0u32;
            while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                let p = screen.lock().unwrap();
                t.draw(|f| {
                    f.render_widget(tui_term::widget::PseudoTerminal::new(p.screen()), f.area());
                })
                .unwrap();
                drop(p);
                frames += 1;
                std::thread::sleep(Duration::from_millis(16));
            }
            frames
        })
    };
    let t = Instant::now();
    run.shell
        .write(format!("seq {LINES}\r").as_bytes())
        .unwrap();
    run.wait_record(Duration::from_secs(120))
        .expect("seq finished");
    // The prompt record comes after seq's last byte was read; wait until it is parsed and shown.
    loop {
        let shown = run.shell.screen.lock().unwrap().screen().contents();
        if shown.lines().any(|l| l.trim() == LINES.to_string()) {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let took = t.elapsed();
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let _ = drawer.join();
    run.shell.kill();
    took
}

/// The same in tmux: a new window running seq, until capture-pane shows the last number. The
/// tmux server is one of the bench's own (its own socket), so no one else's sessions are met.
fn tmux_throughput() -> Duration {
    // A socket per run: the server of the run before may still be shutting down on its own.
    static RUN: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let run = RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let socket = format!("rocm-learn-bench-{}-{run}", std::process::id());
    let tmux = |args: &[&str]| {
        Command::new("tmux")
            .args(["-L", &socket, "-f", "/dev/null"])
            .args(args)
            .output()
    };
    let ok = tmux(&[
        "new-session",
        "-d",
        "-s",
        "bench",
        "-x",
        "120",
        "-y",
        "40",
        "sleep 600",
    ])
    .map(|o| o.status.success())
    .unwrap_or(false);
    assert!(ok, "tmux is needed for the comparison");
    let t = Instant::now();
    tmux(&[
        "new-window",
        "-t",
        "bench",
        &format!("seq {LINES}; sleep 600"),
    ])
    .unwrap();
    loop {
        let out = tmux(&["capture-pane", "-p", "-t", "bench"]).unwrap();
        if String::from_utf8_lossy(&out.stdout)
            .lines()
            .any(|l| l.trim() == LINES.to_string())
        {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let took = t.elapsed();
    let _ = tmux(&["kill-server"]);
    took
}

fn main() {
    let exe = env!("CARGO_BIN_EXE_rocm-learn");
    let data = tempfile::tempdir().unwrap();
    let starts: Vec<Duration> = (0..20)
        .map(|_| start_to_first_frame(exe, data.path()))
        .collect();
    println!(
        "binary start to first frame (PTY 120x40):   median {:>8.1} ms (20 runs)",
        ms(median(starts))
    );
    let ours: Vec<Duration> = (0..5)
        .map(|_| lab_throughput(std::path::Path::new(exe)))
        .collect();
    let tmux: Vec<Duration> = (0..5).map(|_| tmux_throughput()).collect();
    let (o, t) = (median(ours), median(tmux));
    println!(
        "seq {LINES} in the lab's terminal pane:    median {:>8.1} ms (5 runs)",
        ms(o)
    );
    println!(
        "seq {LINES} in tmux, same machine:         median {:>8.1} ms (5 runs)",
        ms(t)
    );
    println!(
        "ratio (ours / tmux):                         {:>8.2}",
        o.as_secs_f64() / t.as_secs_f64()
    );
}
