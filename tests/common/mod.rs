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

/// Runs `rocm-learn ARGS` with `stdin` fed in, progress kept in `data_dir`, and no language
/// hints from the machine running the tests (so English unless the test says otherwise).
/// The small fixed content pack the tests use (tests/fixtures/pack).
pub const PACK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pack");

/// `run` on the fixed test pack: what the tests assert does not move when the course grows.
pub fn run_pack(args: &[&str], stdin: &str, data_dir: &Path, env: &[(&str, &str)]) -> Run {
    let mut all = vec!["--content", PACK];
    all.extend_from_slice(args);
    run(&all, stdin, data_dir, env)
}

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
    let out: Output = child.wait_with_output().expect("binary finishes");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}
