//! Lab latency, measured (not asserted): opening a lab until its first prompt, and Enter until
//! the checklist has been re-checked. Run with `cargo bench --bench lab`; needs bubblewrap.

use std::time::{Duration, Instant};

use rocm_learn::content::{self, ContentTree};
use rocm_learn::lab::run::{LabRun, Options, no_notify};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
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
    };

    // Bare bubblewrap, for scale: the lower bound of any sandboxed shell.
    let bwrap = rocm_learn::lab::sandbox::probe().expect("bubblewrap");
    let mut bare = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        let ok = std::process::Command::new(&bwrap)
            .args([
                "--unshare-all",
                "--ro-bind",
                "/",
                "/",
                "--dev",
                "/dev",
                "--proc",
                "/proc",
                "bash",
                "-c",
                "true",
            ])
            .status()
            .expect("bwrap")
            .success();
        assert!(ok);
        bare.push(t.elapsed());
    }

    let mut open = Vec::new();
    let mut enter = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        let mut run = LabRun::start(lab, opts(), no_notify()).expect("lab starts");
        run.wait_record(Duration::from_secs(10))
            .expect("first prompt");
        open.push(t.elapsed());
        for _ in 0..10 {
            let t = Instant::now();
            run.shell.write(b"true\r").unwrap();
            run.wait_record(Duration::from_secs(10)).expect("record");
            run.evaluate();
            enter.push(t.elapsed());
        }
        run.shell.kill();
    }
    println!(
        "bare `bwrap ... bash -c true`:          median {:>7.1} ms ({} runs)",
        ms(median(bare)),
        20
    );
    println!(
        "lab open to first prompt:               median {:>7.1} ms ({} runs)",
        ms(median(open)),
        20
    );
    println!(
        "Enter to checklist re-checked:          median {:>7.1} ms ({} commands)",
        ms(median(enter)),
        200
    );
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
