//! A learner's script, run as the learner would run it (`sh FILE` from a new login), for a
//! check that grades what the script does rather than what its text says. The supervisor
//! prepares the command (the learner's ids, confinement, a session of its own); this module
//! runs it with nothing to read, a time limit and a cap on what it prints.

use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a script may run before it counts as hung (and is ended).
pub const TIME_LIMIT: Duration = Duration::from_secs(5);

/// The most of its error output that is kept.
const STDERR_CAP: u64 = 16 * 1024;

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptRun {
    /// The session it ran in: the simulated tools it called are recorded under it.
    pub session: String,
    /// Its exit status; None when it could not start or was ended after `TIME_LIMIT`.
    pub status: Option<i32>,
    /// Whether it was ended for taking too long.
    pub hung: bool,
    /// What it printed on stderr (capped).
    pub stderr: String,
}

impl ScriptRun {
    /// The first line it printed on stderr, stripped of terminal controls: the learner's text,
    /// shown in a reason.
    pub fn first_error(&self) -> String {
        // argparse and friends print a usage line before the error itself.
        let lines = || self.stderr.lines().filter(|l| !l.trim().is_empty());
        let line = lines()
            .find(|l| {
                let l = l.to_lowercase();
                l.contains("error") || l.contains("not found")
            })
            .or_else(|| lines().next())
            .unwrap_or("");
        let clean: String = line.chars().filter(|c| !c.is_control()).collect();
        clean.chars().take(200).collect()
    }
}

/// Runs `cmd` (already the learner's program in `session`), started by `start` (which
/// registers it with the broker), with stdin empty, stdout dropped and stderr kept; ends its
/// whole process group after `TIME_LIMIT`.
pub fn run(
    mut cmd: Command,
    session: String,
    start: impl FnOnce(&mut Command) -> std::io::Result<Child>,
) -> (ScriptRun, Option<i32>) {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let mut child = match start(&mut cmd) {
        Ok(c) => c,
        Err(e) => {
            return (
                ScriptRun {
                    session,
                    status: None,
                    hung: false,
                    stderr: e.to_string(),
                },
                None,
            );
        }
    };
    let pid = child.id() as i32;
    let (tx, rx) = std::sync::mpsc::channel();
    if let Some(err) = child.stderr.take() {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            let _ = err.take(STDERR_CAP).read_to_end(&mut text);
            let _ = tx.send(String::from_utf8_lossy(&text).into_owned());
        });
    }
    let deadline = Instant::now() + TIME_LIMIT;
    let (status, hung) = loop {
        match child.try_wait() {
            Ok(Some(s)) => break (Some(s.code().unwrap_or(128)), false),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            _ => break (None, true),
        }
    };
    // Whatever it left behind goes with it (its group), so the reader sees the pipe's end.
    if let Some(pg) = rustix::process::Pid::from_raw(pid) {
        let _ = rustix::process::kill_process_group(pg, rustix::process::Signal::KILL);
    }
    let _ = child.kill();
    let _ = child.wait();
    // A process that left the group could hold the pipe open: the grader does not wait for it.
    let stderr = rx.recv_timeout(Duration::from_secs(1)).unwrap_or_default();
    (
        ScriptRun {
            session,
            status,
            hung,
            stderr,
        },
        Some(pid),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_and_errors_are_kept_and_a_hang_is_ended() {
        let mut cmd = Command::new("/bin/sh");
        cmd.args([
            "-c",
            "echo out; echo 'x: 3: rocm-smi: not found' >&2; exit 127",
        ]);
        let (r, _) = run(cmd, "s".into(), Command::spawn);
        assert_eq!(r.status, Some(127));
        assert_eq!(r.first_error(), "x: 3: rocm-smi: not found");
        let mut cmd = Command::new("/bin/sh");
        cmd.args(["-c", "sleep 30"]);
        let t = Instant::now();
        let (r, _) = run(cmd, "s".into(), Command::spawn);
        assert!(r.hung && r.status.is_none());
        assert!(t.elapsed() < Duration::from_secs(15));
    }
}
