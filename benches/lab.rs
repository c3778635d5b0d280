//! Lab latency, measured (not asserted): opening a lab until its first prompt, and Enter until
//! the checklist has been re-checked. Run with `cargo bench --bench lab`; needs bubblewrap.

use std::time::{Duration, Instant};

use rocm_learn::content::{self, ContentTree};
use rocm_learn::lab::app::run::{LabRun, Options, no_notify};

/// How long each of `n` calls of `f` took; what a call returns is dropped after its time is
/// taken (removing a stage is not part of building it).
fn timed<T>(n: usize, mut f: impl FnMut() -> T) -> Vec<Duration> {
    (0..n)
        .map(|_| {
            let t = Instant::now();
            let made = f();
            let took = t.elapsed();
            drop(made);
            took
        })
        .collect()
}

/// `bash ARGS` in a bare bubblewrap sandbox (the host's root read-only, its own /dev and /proc,
/// nothing shared), with nothing to read and its errors dropped; asserts it succeeded.
fn bare_bash(bwrap: &std::path::Path, bash_args: &[&str]) {
    let ok = std::process::Command::new(bwrap)
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
        ])
        .args(bash_args)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("bwrap")
        .success();
    assert!(ok, "bash {bash_args:?} in bubblewrap");
}

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
        lang: rocm_learn::lang::Lang::En,
    };

    // Bare bubblewrap, for scale: the lower bound of any sandboxed shell.
    let bwrap = rocm_learn::lab::app::bwrap::probe().expect("bubblewrap");
    let bare = timed(20, || bare_bash(&bwrap, &["-c", "true"]));

    // Where the time goes: a bare login shell in the same sandbox, without the machine.
    let login_only = timed(20, || bare_bash(&bwrap, &["--login", "-i", "-c", "true"]));
    let stage_only = timed(20, || {
        let stage = rocm_learn::lab::app::stage::Stage::new(false).unwrap();
        let spec = rocm_learn::sim::MachineSpec::from_toml(&lab.machine).unwrap();
        let host = rocm_learn::sim_host::Alone::new();
        let state = rocm_learn::sim::stage::create_on(stage.root(), &spec, &host).unwrap();
        let tools: Vec<(String, String)> = rocm_learn::sim::tools::system_tools(&state)
            .into_iter()
            .map(|t| (t.path.to_string(), t.name.to_string()))
            .collect();
        stage.install("learner", &tools).unwrap();
        stage.adopt_alternatives(std::path::Path::new("/")).unwrap();
        stage.lock_down().unwrap();
        stage
    });
    let sim_call = timed(20, || {
        std::process::Command::new(&exe)
            .args(["sim", "uname"])
            .output()
    });

    let mut open = Vec::new();
    let mut enter = Vec::new();
    let mut tool = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        let mut run = LabRun::start(lab, opts(), no_notify()).expect("lab starts");
        run.wait_record(Duration::from_secs(10))
            .expect("first prompt");
        open.push(t.elapsed());
        // Enter until the checklist is re-checked, for `line` typed in the lab.
        let mut typed = |line: &[u8]| {
            timed(10, || {
                run.shell.write(line).unwrap();
                run.wait_record(Duration::from_secs(10)).expect("record");
                run.evaluate();
            })
        };
        enter.extend(typed(b"true\r"));
        // A simulated tool typed in the lab: a request to the supervisor, which runs it.
        tool.extend(typed(b"groups >/dev/null\r"));
        run.shell.kill();
    }
    println!(
        "bare `bwrap ... bash -c true`:          median {:>7.1} ms ({} runs)",
        ms(median(bare)),
        20
    );
    println!(
        "  building the machine (the stage):       median {:>7.1} ms",
        ms(median(stage_only))
    );
    println!(
        "  `bwrap ... bash --login -i -c true`:    median {:>7.1} ms",
        ms(median(login_only))
    );
    println!(
        "  one simulated tool call (sim uname):    median {:>7.1} ms",
        ms(median(sim_call))
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
    println!(
        "Enter to checklist, with a tool (groups): median {:>7.1} ms ({} commands)",
        ms(median(tool)),
        200
    );
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
