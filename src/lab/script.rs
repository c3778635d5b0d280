//! `rocm-learn lab ID --script FILE`: the lines of FILE typed into the lab's real shell, one
//! after another, as a learner would; then the session as they would have seen it and the state
//! of each step. How instructors and CI grade labs.

use std::time::{Duration, Instant};

use serde::Serialize;

use super::run::LabRun;

/// How long one line may take before the next is typed anyway.
const LINE_TIMEOUT: Duration = Duration::from_secs(20);
/// Output quiet for this long without a prompt means a program waits for input (apt's [Y/n]).
const QUIET: Duration = Duration::from_millis(400);

/// The record comes just before bash prints its prompt: give the prompt time to appear, so the
/// transcript reads as the learner would have seen it.
fn settle(lab: &LabRun) {
    let start = Instant::now();
    let mut len = lab.shell.transcript().len();
    let mut still = Instant::now();
    while start.elapsed() < Duration::from_millis(300) {
        std::thread::sleep(Duration::from_millis(3));
        let now = lab.shell.transcript().len();
        if now != len {
            len = now;
            still = Instant::now();
        } else if still.elapsed() > Duration::from_millis(15) {
            return;
        }
    }
}

/// Types each line and waits until the shell is back at a prompt (or a program waits for input).
pub fn run(lab: &mut LabRun, lines: &[String]) {
    // The first prompt: the login is complete.
    let _ = lab.wait_record(LINE_TIMEOUT);
    settle(lab);
    for line in lines {
        let before = lab.shell.transcript().len();
        if lab.shell.write(format!("{line}\r").as_bytes()).is_err() {
            break;
        }
        let start = Instant::now();
        let mut seen = before;
        let mut quiet_since = Instant::now();
        loop {
            if lab.wait_record(Duration::from_millis(50)).is_some() {
                settle(lab);
                break;
            }
            let now_len = lab.shell.transcript().len();
            if now_len != seen {
                seen = now_len;
                quiet_since = Instant::now();
            } else if now_len > before + line.len() + 2 && quiet_since.elapsed() > QUIET {
                // (More than the echo of the line and its CR LF: a silent command that is slow
                // on a busy machine is not a prompt.)
                // Printed something and went quiet without a prompt: it is asking.
                break;
            }
            if start.elapsed() > LINE_TIMEOUT || lab.shell.has_exited() {
                break;
            }
        }
    }
    lab.evaluate();
}

/// The session's text without terminal control sequences, carriage returns resolved.
pub fn plain_transcript(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => match chars.next() {
                // CSI: parameters, then a final byte in @..~
                Some('[') => {
                    for d in chars.by_ref() {
                        if ('@'..='~').contains(&d) {
                            break;
                        }
                    }
                }
                // OSC: up to BEL or ST
                Some(']') => {
                    while let Some(d) = chars.next() {
                        if d == '\u{7}' {
                            break;
                        }
                        if d == '\u{1b}' {
                            chars.next();
                            break;
                        }
                    }
                }
                _ => {}
            },
            '\r' => {
                if chars.peek() != Some(&'\n') {
                    // A bare CR rewinds the line (progress bars): keep what follows.
                    if let Some(nl) = out.rfind('\n') {
                        out.truncate(nl + 1);
                    } else {
                        out.clear();
                    }
                }
            }
            '\u{7}' | '\u{8}' => {}
            c => out.push(c),
        }
    }
    out
}

/// The `--json` result (documented in the README).
#[derive(Debug, Serialize)]
pub struct Result {
    pub lab: String,
    pub complete: bool,
    pub steps: Vec<StepResult>,
}

#[derive(Debug, Serialize)]
pub struct StepResult {
    pub id: String,
    pub done: bool,
    /// Why the step is not done, in the learner's language; null when done.
    pub why: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcripts_lose_escapes_and_keep_text() {
        let raw = b"\x1b[01;32mlearner@node\x1b[00m:~$ ls\r\nfile\r\n\x1b]0;title\x07done 10%\rdone 100%\r\n";
        assert_eq!(
            plain_transcript(raw),
            "learner@node:~$ ls\nfile\ndone 100%\n"
        );
    }
}
