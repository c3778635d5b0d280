//! A simulated tool as the learner meets it: typed in a real lab's shell (bash in the sandbox,
//! on the lab's pseudo-terminal), timed by that shell against `/bin/true` in the same shell.
//! Each round runs every command `PER_ROUND` times in a loop, the commands taking turns, and the
//! shell's own clock (`$EPOCHREALTIME`) times each loop; no process outside the lab is in the
//! measured path. Prints medians and ratios; asserts nothing about them.
//! `cargo bench --bench tool_in_lab`; needs bubblewrap.

use std::time::{Duration, Instant};

use rocm_learn::content::{self, ContentTree};
use rocm_learn::lab::app::run::{LabRun, Options, no_notify};

/// Calls of each command per round, and rounds.
const PER_ROUND: usize = 50;
const ROUNDS: usize = 10;

/// What is timed: the floor first.
const COMMANDS: [&str; 4] = ["/bin/true", "id", "groups", "rocminfo"];

/// The screen's text.
fn screen(run: &LabRun) -> String {
    run.shell
        .screen
        .lock()
        .map(|p| p.screen().contents())
        .unwrap_or_default()
}

/// Waits until the screen shows `marker` followed by a line's end; returns what follows it.
fn wait_for(run: &LabRun, marker: &str, limit: Duration) -> String {
    let end = Instant::now() + limit;
    loop {
        let text = screen(run);
        if let Some(at) = text.rfind(marker) {
            let rest = &text[at + marker.len()..];
            if let Some(line) = rest.split_once('\n').map(|(l, _)| l) {
                return line.to_string();
            }
        }
        assert!(
            Instant::now() < end,
            "no {marker} within {limit:?}:\n{text}"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let exe = std::path::PathBuf::from(env!("CARGO_BIN_EXE_rocm-learn"));
    let (course, _) = content::load(&ContentTree::embedded());
    // A lab whose machine has ROCm installed, so rocminfo is the release's own tool.
    let lab = course.lab("hsa-init-failed").expect("lab");
    let opts = Options {
        exe,
        rows: 40,
        cols: 200,
        relogin: String::new(),
        transcript: false,
        lang: rocm_learn::lang::Lang::En,
    };
    let mut run = LabRun::start(lab, opts, no_notify()).expect("lab starts");
    run.wait_record(Duration::from_secs(10))
        .expect("first prompt");
    // One shell function times a loop of one command, in microseconds per call, and appends it
    // to R; output goes to /dev/null so the terminal's drawing is not what is measured.
    let define = format!(
        "t(){{ local s=$EPOCHREALTIME i; for ((i=0;i<{PER_ROUND};i++)); do \"$@\" >/dev/null 2>&1; done; \
         local e=$EPOCHREALTIME; R+=\" $(( (10#${{e/./}} - 10#${{s/./}}) / {PER_ROUND} ))\"; }}; clear\r"
    );
    run.shell.write(define.as_bytes()).expect("type");
    run.wait_record(Duration::from_secs(10)).expect("prompt");
    // A warm-up round, then the measured ones; each round prints its line.
    let mut per: Vec<Vec<f64>> = vec![Vec::new(); COMMANDS.len()];
    for round in 0..=ROUNDS {
        let calls: Vec<String> = COMMANDS.iter().map(|c| format!("t {c}")).collect();
        let line = format!(
            "R=; {}; clear; echo \"ROUND{round}:$R\"\r",
            calls.join("; ")
        );
        run.shell.write(line.as_bytes()).expect("type");
        let got = wait_for(&run, &format!("ROUND{round}:"), Duration::from_secs(120));
        run.wait_record(Duration::from_secs(10)).expect("prompt");
        let us: Vec<f64> = got
            .split_whitespace()
            .filter_map(|n| n.parse().ok())
            .collect();
        assert_eq!(us.len(), COMMANDS.len(), "round {round}: {got:?}");
        if round > 0 {
            for (i, v) in us.into_iter().enumerate() {
                per[i].push(v / 1000.0);
            }
        }
    }
    run.shell.kill();
    let floor = median(per[0].clone());
    println!(
        "in a lab's shell, {ROUNDS} rounds of {PER_ROUND} calls each, commands taking turns (medians per call):"
    );
    for (c, v) in COMMANDS.iter().zip(per) {
        let m = median(v);
        println!(
            "  {c:<10} {m:>6.2} ms   ratio to /bin/true {:>5.2}   (+{:.2} ms)",
            m / floor,
            m - floor
        );
    }
}
