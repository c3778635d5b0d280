//! Lab open against its baseline, in paired runs: a bare bubblewrap login shell in a PTY until
//! its first prompt, then the lab (stage, sandbox, machine moved into memory, login) in a PTY
//! until its prompt shows; the same for F5 (a fresh machine and login). Where the stage is
//! built depends on TMPDIR: `scripts/bench.sh` runs this once on the disk's /tmp and once on a
//! tmpfs. Prints numbers; asserts nothing about them. `cargo bench --bench lab_open`.

use std::io::Read;
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use rocm_learn::content::{self, ContentTree};
use rocm_learn::lab::app::run::{LabRun, Options, no_notify};

const RUNS: usize = 20;

/// A bare login shell in bubblewrap (the host's root read-only, its own /dev, /proc, an empty
/// home and /tmp) on a PTY of 120x40, until the prompt hook runs.
fn bare_login(bwrap: &std::path::Path) -> Duration {
    let pty = native_pty_system()
        .openpty(PtySize {
            rows: 40,
            cols: 120,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("pty");
    let mut cmd = CommandBuilder::new(bwrap);
    cmd.args([
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
    ]);
    let t = Instant::now();
    let mut child = pty.slave.spawn_command(cmd).expect("bwrap");
    drop(pty.slave);
    let mut reader = pty.master.try_clone_reader().expect("reader");
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    while !seen.windows(5).any(|w| w == b"READY") {
        let n = reader.read(&mut buf).expect("read");
        assert!(n > 0, "the bare shell ended before its prompt");
        seen.extend_from_slice(&buf[..n]);
    }
    let took = t.elapsed();
    let _ = child.kill();
    let _ = child.wait();
    took
}

/// Waits until the lab's terminal shows the login's prompt, as the learner would see it (the
/// checklist's first report may come later: it starts a login of its own for new-login
/// checks).
fn prompt_shown(run: &LabRun) {
    let end = Instant::now() + Duration::from_secs(10);
    loop {
        let shown = run
            .shell
            .screen
            .lock()
            .map(|p| p.screen().contents().contains(":~$"))
            .unwrap_or(false);
        if shown {
            return;
        }
        assert!(Instant::now() < end, "no prompt within 10 s");
        std::thread::sleep(Duration::from_micros(500));
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The file system under the temporary folder, by its magic number.
// f_type is i64 on x86_64 and another width elsewhere.
#[allow(clippy::unnecessary_cast)]
fn fs_of(dir: &std::path::Path) -> &'static str {
    match rustix::fs::statfs(dir).map(|s| s.f_type as i64) {
        Ok(0xEF53) => "ext4",
        Ok(0x0102_1994) => "tmpfs",
        Ok(0x5846_5342) => "xfs",
        Ok(0x9123_683E) => "btrfs",
        Ok(0x794C_7630) => "overlayfs",
        _ => "other",
    }
}

fn main() {
    let exe = std::path::PathBuf::from(env!("CARGO_BIN_EXE_rocm-learn"));
    let (course, _) = content::load(&ContentTree::embedded());
    let lab = course.lab("hsa-init-failed").expect("lab");
    let opts = || Options {
        exe: exe.clone(),
        rows: 40,
        cols: 120,
        relogin: String::new(),
        transcript: false,
        lang: rocm_learn::lang::Lang::En,
    };
    let bwrap = rocm_learn::lab::app::bwrap::probe().expect("bubblewrap");
    let tmp = std::env::temp_dir();
    // One of each first: the page cache and the once-per-process probes warm up.
    bare_login(&bwrap);
    drop(LabRun::start(lab, opts(), no_notify()).expect("lab starts"));

    let (mut bare, mut open, mut reset) = (Vec::new(), Vec::new(), Vec::new());
    let mut in_memory = None;
    for _ in 0..RUNS {
        bare.push(bare_login(&bwrap));
        let t = Instant::now();
        let mut run = LabRun::start(lab, opts(), no_notify()).expect("lab starts");
        prompt_shown(&run);
        open.push(t.elapsed());
        run.wait_record(Duration::from_secs(10))
            .expect("first prompt");
        in_memory = run.in_memory;
        let t = Instant::now();
        run.reset().expect("F5");
        prompt_shown(&run);
        reset.push(t.elapsed());
    }
    let (bare, open, reset) = (median(bare), median(open), median(reset));
    println!(
        "TMPDIR on {} ({}); machine in memory: {}",
        fs_of(&tmp),
        tmp.display(),
        in_memory.map_or("unknown", |m| if m { "yes" } else { "no" })
    );
    println!(
        "bare bwrap login shell to prompt (PTY):  median {:>7.1} ms ({RUNS} paired runs)",
        ms(bare)
    );
    println!(
        "lab open to first prompt (PTY):          median {:>7.1} ms   ratio {:.2}",
        ms(open),
        ms(open) / ms(bare)
    );
    println!(
        "F5 to first prompt (PTY):                median {:>7.1} ms   ratio {:.2}",
        ms(reset),
        ms(reset) / ms(bare)
    );
}
