//! Tests that need a tool from outside Rust (bubblewrap for labs, tmux for the real terminal)
//! ask here first. Without the tool they skip with one line saying how to install it, so the
//! README's `cargo test` passes on a machine with only Rust; with `ROCM_LEARN_REQUIRE_SANDBOX=1`
//! (CI sets it) a missing tool fails the test instead.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Stdio};

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

fn require() -> bool {
    std::env::var_os("ROCM_LEARN_REQUIRE_SANDBOX").is_some_and(|v| v == "1")
}

/// True when `program` is there. Otherwise prints why `what` is skipped (written straight to
/// stderr, which the test harness does not capture) and returns false; panics instead when
/// the environment requires the tool.
pub fn tool(program: &str, version_arg: &str, package: &str, what: &str) -> bool {
    if runs(program, version_arg) {
        return true;
    }
    let line = format!("{what} skipped: {package} is not installed (apt install {package})");
    assert!(
        !require(),
        "{line}, and ROCM_LEARN_REQUIRE_SANDBOX=1 requires it"
    );
    // Once per test binary: the reason, not a wall of repeats.
    static SAID: std::sync::Once = std::sync::Once::new();
    SAID.call_once(|| {
        let _ = writeln!(std::io::stderr(), "{line}");
    });
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
    let line = format!("{what} skipped: it needs a lab started by root (CI runs as root)");
    assert!(
        !require(),
        "{line}, and ROCM_LEARN_REQUIRE_SANDBOX=1 requires it"
    );
    let _ = writeln!(std::io::stderr(), "{line}");
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
    let line = format!(
        "{what} skipped: it needs newuidmap (apt install uidmap) and a user {SUBORDINATE_USER} \
         with /etc/subuid and /etc/subgid ranges (.ci/run makes them)"
    );
    assert!(
        !require(),
        "{line}, and ROCM_LEARN_REQUIRE_SANDBOX=1 requires it"
    );
    let _ = writeln!(std::io::stderr(), "{line}");
    None
}
