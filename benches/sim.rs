//! How much a simulated tool costs per call: `rocm-learn sim TOOL` against `/bin/true`, both
//! started the same way. Every command a learner types in a lab that names a simulated tool
//! pays this. `cargo bench --bench sim`; prints numbers, judges nothing.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const RUNS: usize = 200;

fn median(mut v: Vec<Duration>) -> f64 {
    v.sort();
    v[v.len() / 2].as_secs_f64() * 1000.0
}

fn time(mut make: impl FnMut() -> Command) -> f64 {
    // One unmeasured run warms the page cache.
    let _ = make().stdout(Stdio::null()).stderr(Stdio::null()).status();
    let mut v = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let mut c = make();
        c.stdout(Stdio::null()).stderr(Stdio::null());
        let t = Instant::now();
        // The exit status is the tool's answer (rocminfo refuses a user outside render);
        // only the time to it is measured.
        let _ = c.status().expect("process starts");
        v.push(t.elapsed());
    }
    median(v)
}

fn main() {
    let exe = env!("CARGO_BIN_EXE_rocm-learn");
    let stage = tempfile::tempdir().expect("temp dir");
    let ok = Command::new(exe)
        .args(["sim", "stage"])
        .env("ROCM_SIM_ROOT", stage.path())
        .status()
        .expect("stage")
        .success();
    assert!(ok, "sim stage");
    let sim = |args: &'static [&'static str]| {
        let root = stage.path().to_path_buf();
        move || {
            let mut c = Command::new(exe);
            c.arg("sim").args(args).env("ROCM_SIM_ROOT", &root);
            c
        }
    };
    let t_true = time(|| Command::new("/bin/true"));
    let t_uname = time(sim(&["uname", "-r"]));
    let t_lsmod = time(sim(&["lsmod"]));
    let t_rocminfo = time(sim(&["rocminfo"]));
    println!("/bin/true:                   median {t_true:>6.2} ms ({RUNS} runs)");
    println!(
        "rocm-learn sim uname -r:     median {t_uname:>6.2} ms  (+{:.2} ms over /bin/true)",
        t_uname - t_true
    );
    println!(
        "rocm-learn sim lsmod:        median {t_lsmod:>6.2} ms  (+{:.2} ms)",
        t_lsmod - t_true
    );
    println!(
        "rocm-learn sim rocminfo:     median {t_rocminfo:>6.2} ms  (+{:.2} ms)",
        t_rocminfo - t_true
    );
}
