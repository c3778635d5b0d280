//! Running a child process with a time limit and a cap on what is kept of its output: the one
//! way the lab's new-login probe and the doctor's tools are run. Its pipes are read while it
//! runs (a full pipe never blocks it), what is past the cap is read and dropped, and a child
//! still running at the limit is killed.

use std::io::{self, Read};
use std::process::{Command, ExitStatus};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A child that ended by itself.
#[derive(Debug)]
pub struct Finished {
    pub status: ExitStatus,
    /// At most the cap of each; empty for a stream that was not piped.
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

#[derive(Debug)]
pub enum Failure {
    /// It could not be started.
    Spawn(io::Error),
    /// It was still running at the limit and was killed.
    TimedOut,
}

/// How long the pipes may stay open after the child ended: a program it left behind may hold
/// them, and what the child itself wrote has arrived by then.
const GRACE: Duration = Duration::from_secs(1);

/// Runs `cmd` until it ends or `limit` passes, keeping at most `cap` bytes of each piped
/// stream (set `stdout`/`stderr` to `Stdio::piped()` on `cmd` to have them).
pub fn run_capped(mut cmd: Command, limit: Duration, cap: u64) -> Result<Finished, Failure> {
    let mut child = cmd.spawn().map_err(Failure::Spawn)?;
    // Each reader sends what it reads as it reads it (None at the end), so what a child wrote
    // is kept even when a program it left behind holds the pipe open.
    let (tx, rx) = mpsc::channel::<(bool, Option<Vec<u8>>)>();
    let pipes: [(bool, Option<Box<dyn Read + Send>>); 2] = [
        (true, child.stdout.take().map(|p| Box::new(p) as _)),
        (false, child.stderr.take().map(|p| Box::new(p) as _)),
    ];
    let mut open = 0;
    for (is_out, pipe) in pipes {
        let Some(mut pipe) = pipe else { continue };
        open += 1;
        let tx = tx.clone();
        std::thread::spawn(move || {
            let mut buf = vec![0u8; 16 * 1024];
            while let Ok(n @ 1..) = pipe.read(&mut buf) {
                if tx.send((is_out, Some(buf[..n].to_vec()))).is_err() {
                    break;
                }
            }
            let _ = tx.send((is_out, None));
        });
    }
    drop(tx);
    let cap = usize::try_from(cap).unwrap_or(usize::MAX);
    let deadline = Instant::now() + limit;
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let mut ended: Option<(ExitStatus, Instant)> = None;
    loop {
        if ended.is_none() {
            match child.try_wait() {
                Ok(Some(status)) => ended = Some((status, Instant::now() + GRACE)),
                Ok(None) => {}
                Err(e) => return Err(Failure::Spawn(e)),
            }
        }
        if let Some((status, grace)) = ended
            && (open == 0 || Instant::now() >= grace)
        {
            for (is_out, chunk) in rx.try_iter() {
                keep(if is_out { &mut stdout } else { &mut stderr }, chunk, cap);
            }
            return Ok(Finished {
                status,
                stdout,
                stderr,
            });
        }
        if ended.is_none() && Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Failure::TimedOut);
        }
        // A pipe closing is the usual sign of the end; a short tick notices an exit too.
        match rx.recv_timeout(Duration::from_millis(5)) {
            Ok((_, None)) => open -= 1,
            Ok((is_out, chunk)) => keep(if is_out { &mut stdout } else { &mut stderr }, chunk, cap),
            Err(_) => {}
        }
    }
}

/// Adds what fits under `cap` of a chunk read (None: the end of its stream).
fn keep(kept: &mut Vec<u8>, chunk: Option<Vec<u8>>, cap: usize) {
    if let Some(chunk) = chunk {
        let room = cap.saturating_sub(kept.len());
        kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
    }
}

/// Sends `sig` to process `pid`, a child not yet reaped (so the pid is still its own); one
/// that is gone is no error.
pub fn signal(pid: i32, sig: rustix::process::Signal) {
    if let Some(pid) = rustix::process::Pid::from_raw(pid) {
        let _ = rustix::process::kill_process(pid, sig);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Stdio;

    fn sh(script: &str) -> Command {
        let mut cmd = Command::new("/bin/sh");
        cmd.args(["-c", script])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    }

    #[test]
    fn output_larger_than_a_pipe_does_not_deadlock_and_is_capped() {
        let cmd = sh("head -c 1000000 /dev/zero; echo end >&2");
        let out = run_capped(cmd, Duration::from_secs(10), 1000).unwrap();
        assert_eq!(out.stdout.len(), 1000);
        assert_eq!(out.stderr, b"end\n");
        assert!(out.status.success());
    }

    #[test]
    fn a_child_past_its_time_is_killed() {
        let start = Instant::now();
        let got = run_capped(sh("exec sleep 30"), Duration::from_millis(200), 10);
        assert!(matches!(got, Err(Failure::TimedOut)), "{got:?}");
        assert!(start.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn a_program_left_holding_the_pipes_does_not_hold_the_answer() {
        let start = Instant::now();
        let out = run_capped(
            sh("sleep 30 & echo done; exit 3"),
            Duration::from_secs(20),
            100,
        )
        .unwrap();
        assert_eq!(out.status.code(), Some(3));
        assert_eq!(out.stdout, b"done\n");
        assert!(start.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn a_program_that_cannot_start_says_so() {
        let got = run_capped(
            Command::new("/nonexistent/program"),
            Duration::from_secs(1),
            10,
        );
        assert!(matches!(got, Err(Failure::Spawn(_))), "{got:?}");
    }
}
