//! Labs: a real bash in a bubblewrap sandbox on the simulated machine, graded by state.

pub mod broker;
pub mod checks;
pub mod confine;
pub mod fdpass;
pub mod identity;
pub mod keys;
pub mod modules_checks;
pub mod protocol;
pub mod reading;
pub mod record;
pub mod releases_checks;
pub mod run;
pub mod sandbox;
pub mod sanitize;
pub mod script;
pub mod scripts;
pub mod session;
pub mod stage;
pub mod supervisor;
pub mod userns;

use std::io::Read;
use std::process::Command;
use std::time::Duration;

/// Runs `cmd` (stdout piped) and returns at most `cap` bytes of its output, or None when it
/// did not finish within `timeout` (it is killed then). Output is read while the child runs,
/// so a full pipe cannot deadlock it.
pub fn run_with_timeout(mut cmd: Command, timeout: Duration, cap: u64) -> Option<Vec<u8>> {
    let mut child = cmd.spawn().ok()?;
    let stdout = child.stdout.take()?;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut out = Vec::new();
        let mut r = stdout.take(cap);
        let ok = r.read_to_end(&mut out).is_ok();
        // Drain the rest unread, so the child never blocks on a full pipe.
        let _ = std::io::copy(&mut r.into_inner(), &mut std::io::sink());
        let _ = tx.send(ok.then_some(out));
    });
    let out = rx.recv_timeout(timeout).ok().flatten();
    if out.is_none() {
        let _ = child.kill();
    }
    let _ = child.wait();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Stdio;

    #[test]
    fn output_larger_than_a_pipe_does_not_deadlock_and_is_capped() {
        let mut cmd = Command::new("/bin/sh");
        cmd.args(["-c", "head -c 1000000 /dev/zero; echo end"])
            .stdout(Stdio::piped());
        let out = run_with_timeout(cmd, Duration::from_secs(10), 1000).unwrap();
        assert_eq!(out.len(), 1000);
    }

    #[test]
    fn a_child_past_its_time_is_killed() {
        let mut cmd = Command::new("/bin/sh");
        cmd.args(["-c", "exec sleep 30"]).stdout(Stdio::piped());
        let start = std::time::Instant::now();
        assert_eq!(run_with_timeout(cmd, Duration::from_millis(200), 10), None);
        assert!(start.elapsed() < Duration::from_secs(10));
    }
}
