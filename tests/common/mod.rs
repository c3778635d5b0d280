//! Helpers shared by the integration tests: run the real binary with an isolated environment.
#![allow(dead_code)]

pub mod needs;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Fails, showing the whole text, unless `text` contains `want`.
#[track_caller]
pub fn has(text: &str, want: &str) {
    assert!(text.contains(want), "missing {want:?} in:\n{text}");
}

/// `has` for each of `wants`: the failure names the first one missing.
#[track_caller]
pub fn has_all(text: &str, wants: &[&str]) {
    for want in wants {
        has(text, want);
    }
}

/// Fails, showing the whole text, if `text` contains `unwanted`.
#[track_caller]
pub fn lacks(text: &str, unwanted: &str) {
    assert!(!text.contains(unwanted), "{unwanted:?} in:\n{text}");
}

/// Whether some line of `text` (a terminal's `\r` aside) is exactly `line`: an echoed
/// `name=value` is found as itself, never inside a longer name.
pub fn has_line(text: &str, line: &str) -> bool {
    text.lines().any(|l| l.trim_end_matches('\r') == line)
}

/// What the test pack's quiz says when its first question is answered with option 1 (seed 0):
/// the choice and why it is wrong, then the right option and why.
pub const FIRST_ANSWER_WRONG: [&str; 4] = [
    "Not quite. You chose 1) The HIP runtime API",
    "HIP is what programs call once ROCm is running",
    "The right answer is 2) The support matrix",
    "The support matrix lists the GPUs",
];

/// The small fixed content pack the tests use (tests/fixtures/pack).
pub const PACK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pack");

/// `run` on the fixed test pack: what the tests assert does not move when the course grows.
pub fn run_pack(args: &[&str], stdin: &str, data_dir: &Path, env: &[(&str, &str)]) -> Run {
    let mut all = vec!["--content", PACK];
    all.extend_from_slice(args);
    run(&all, stdin, data_dir, env)
}

/// `run` with nothing on stdin and nothing added to the environment.
pub fn call(args: &[&str], data_dir: &Path) -> Run {
    run(args, "", data_dir, &[])
}

/// A folder or file under tests/fixtures.
pub fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs `rocm-learn ARGS` with `stdin` fed in, progress kept in `data_dir`, and no language
/// hints from the machine running the tests (so English unless the test says otherwise).
pub fn run(args: &[&str], stdin: &str, data_dir: &Path, env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rocm-learn"));
    cmd.args(args)
        .env_remove("ROCM_LEARN_LANG")
        .env("LANG", "C")
        .env("LC_ALL", "C")
        .env("LANGUAGE", "")
        .env("ROCM_LEARN_DATA_DIR", data_dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("binary starts");
    {
        let mut input = child.stdin.take().expect("stdin");
        // The program may stop reading early (e.g. an unknown quiz id); that is not a test error.
        let _ = input.write_all(stdin.as_bytes());
    }
    Run::from(child.wait_with_output().expect("binary finishes"))
}

impl From<Output> for Run {
    fn from(out: Output) -> Run {
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}
