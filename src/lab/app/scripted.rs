//! `rocm-learn lab ID --script FILE`: the lines of FILE typed into the lab's real shell, one
//! after another, as a learner would; then the session as they would have seen it and the state
//! of each step. How instructors and CI grade labs.

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::lab::app::run::LabRun;

/// How long each line may take unless `--line-timeout` says otherwise.
pub const LINE_TIMEOUT: Duration = Duration::from_secs(60);
/// How often a running line is looked at.
const POLL: Duration = Duration::from_millis(50);
/// Output quiet this long before asking whether a program waits for input: its question has
/// reached the terminal by then.
const QUIET: Duration = Duration::from_millis(100);

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

/// Types each line and waits until the shell is back at its prompt (the prompt hook's record),
/// however quiet the command is, up to `limit`; only a program waiting for input from the
/// terminal gets the next line sooner. Returns the numbers (from 1) of the lines that were
/// still running at their limit; 0 when the login showed no prompt within it.
pub fn run(lab: &mut LabRun, lines: &[String], limit: Duration) -> Vec<usize> {
    let mut late = Vec::new();
    if !first_prompt(lab, limit) {
        late.push(0);
    }
    for (n, line) in lines.iter().enumerate() {
        match type_line(lab, line, limit) {
            Typed::Back => {}
            Typed::Late => late.push(n + 1),
            Typed::Gone => break,
        }
    }
    lab.evaluate();
    late
}

/// Waits for the first prompt (the login is complete); false when none came within `limit`.
pub fn first_prompt(lab: &mut LabRun, limit: Duration) -> bool {
    let seen = lab.wait_record(limit).is_some();
    settle(lab);
    seen
}

/// How a typed line ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Typed {
    /// The shell is back at its prompt, or a program waits for input.
    Back,
    /// Still running at the limit.
    Late,
    /// The shell is gone (exited, or would take no input).
    Gone,
}

/// Types one line and waits as `run` does.
pub fn type_line(lab: &mut LabRun, line: &str, limit: Duration) -> Typed {
    if lab.shell.write(format!("{line}\r").as_bytes()).is_err() {
        return Typed::Gone;
    }
    let start = Instant::now();
    let before = lab.shell.transcript().len();
    let mut seen = before;
    let mut quiet_since = Instant::now();
    loop {
        if lab.wait_record(POLL).is_some() {
            settle(lab);
            return Typed::Back;
        }
        if lab.shell.has_exited() {
            return Typed::Gone;
        }
        let len = lab.shell.transcript().len();
        if len != seen {
            seen = len;
            quiet_since = Instant::now();
        } else if len > before && quiet_since.elapsed() >= QUIET && lab.shell.waits_for_input() {
            // A program asks (apt's [Y/n]) or the shell runs `read`. The echo of the line
            // shows the shell took it, so a reader now waits for the next line, not this
            // one; the shell at its prompt sends a record first.
            settle(lab);
            return Typed::Back;
        }
        if start.elapsed() >= limit {
            return Typed::Late;
        }
    }
}

/// The columns of the terminal a script is typed into.
pub const COLS: u16 = 120;
/// Its rows.
pub const ROWS: u16 = 40;

/// The session's text as the script's terminal showed it, without control sequences.
pub fn plain_transcript(bytes: &[u8]) -> String {
    crate::term_text::plain_at(bytes, usize::from(COLS))
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
