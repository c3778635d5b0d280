//! Tests that need something from outside Rust (bubblewrap for labs, tmux for the real
//! terminal, ssh, PostgreSQL, HAProxy, Ralph, PyJWT, python3) ask here first, and every skip
//! goes through [`skip`]: the README's `cargo test` passes on a machine with only Rust and says
//! plainly what did not run, and under CI (`ROCM_LEARN_REQUIRE_SANDBOX=1`, as `.ci/run` sets)
//! a skip fails the test instead.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::Mutex;

/// Whether `program` runs (`program ARG` exits 0).
fn runs(program: &str, arg: &str) -> bool {
    Command::new(program)
        .arg(arg)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether nothing may skip: CI runs the tests with `ROCM_LEARN_REQUIRE_SANDBOX=1`.
pub fn required() -> bool {
    std::env::var_os("ROCM_LEARN_REQUIRE_SANDBOX").is_some_and(|v| v == "1")
}

/// The reasons this test binary skipped for, each with how many tests it skipped.
static SKIPPED: Mutex<Vec<(String, usize)>> = Mutex::new(Vec::new());

/// The one way a test says it cannot run here; the test then returns. Under CI this fails the
/// test. Elsewhere the first skip for each reason is written straight to the terminal (libtest
/// captures `eprintln!` and shows it only for a failing test, so a skip said that way passes
/// unseen as `ok`), and when the test binary ends, after its `test result:` line, one line per
/// reason counts the tests that did not run.
#[track_caller]
pub fn skip(what: &str, why: &str) {
    assert!(
        !required(),
        "{what} cannot run: {why}; ROCM_LEARN_REQUIRE_SANDBOX=1 (CI) lets nothing skip"
    );
    let mut skipped = SKIPPED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if skipped.is_empty() {
        summary_at_exit();
    }
    match skipped.iter_mut().find(|(r, _)| r == why) {
        Some((_, n)) => *n += 1,
        None => {
            skipped.push((why.to_string(), 1));
            let _ = writeln!(std::io::stderr(), "SKIPPED: {what}: {why}");
        }
    }
}

/// Has the process print the count of skipped tests when it exits (libtest has no hook after
/// its summary; the C library's exit handlers run after it, also when tests failed).
#[allow(unsafe_code)]
fn summary_at_exit() {
    extern "C" fn said() {
        let skipped = SKIPPED
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut err = std::io::stderr().lock();
        for (why, n) in skipped.iter() {
            let tests = if *n == 1 { "test" } else { "tests" };
            let _ = writeln!(err, "SKIPPED: {n} {tests} did not run here: {why}");
        }
    }
    // SAFETY: `said` is a plain function that neither unwinds (it ignores every error) nor
    // calls exit; registering it has no other precondition.
    unsafe {
        libc::atexit(said);
    }
}

/// True when `program` is there. Otherwise skips `what` (see [`skip`]) and returns false.
pub fn tool(program: &str, version_arg: &str, package: &str, what: &str) -> bool {
    if runs(program, version_arg) {
        return true;
    }
    skip(
        what,
        &format!("{package} is not installed (apt install {package})"),
    );
    false
}

/// For lab tests: bubblewrap, the lab sandbox.
pub fn bwrap(what: &str) -> bool {
    tool("bwrap", "--version", "bubblewrap", what)
}

/// For tests of the real binary in a real terminal.
pub fn tmux(what: &str) -> bool {
    tool("tmux", "-V", "tmux", what)
}

/// For tests of a lab started by root (a sandbox with the machine's ids: root owns the system
/// files). As another user the lab maps the learner's uid alone, and such a test skips.
pub fn root(what: &str) -> bool {
    if !bwrap(what) {
        return false;
    }
    // SAFETY: geteuid has no preconditions.
    if rustix::process::geteuid().is_root() {
        return true;
    }
    skip(what, "it needs a lab started by root (CI runs as root)");
    false
}

/// The account the subordinate-id tests run a lab as (`.ci/run` makes it, with /etc/subuid and
/// /etc/subgid ranges, as adduser does on Ubuntu).
pub const SUBORDINATE_USER: &str = "rocmlearn-sub";

/// For tests of a lab started by an ordinary user with subordinate ids (newuidmap maps the
/// machine's ids): that user's uid and gid, when we are root to switch to it, the account and
/// its ranges exist and newuidmap is installed. Otherwise it says why the test skips.
pub fn subordinate_user(what: &str) -> Option<(u32, u32)> {
    if !root(what) {
        return None;
    }
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
    let ids = passwd.lines().find_map(|l| {
        let f: Vec<&str> = l.split(':').collect();
        (f.len() > 3 && f[0] == SUBORDINATE_USER)
            .then(|| Some((f[2].parse().ok()?, f[3].parse().ok()?)))
            .flatten()
    });
    let ranged = ["/etc/subuid", "/etc/subgid"].iter().all(|f| {
        std::fs::read_to_string(f).is_ok_and(|t| {
            t.lines()
                .any(|l| l.starts_with(&format!("{SUBORDINATE_USER}:")))
        })
    });
    // newuidmap has no --version: that it starts at all is enough.
    let installed = Command::new("newuidmap")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    if let Some(ids) = ids.filter(|_| ranged && installed) {
        return Some(ids);
    }
    skip(
        what,
        &format!(
            "it needs newuidmap (apt install uidmap) and a user {SUBORDINATE_USER} with \
             /etc/subuid and /etc/subgid ranges (.ci/run makes them)"
        ),
    );
    None
}
