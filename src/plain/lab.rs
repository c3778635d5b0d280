//! `lab ID --plain`: the lab's shell line by line, for screen readers. Each line read is typed
//! into the shell; what the shell printed follows as plain text (no terminal controls), then
//! each step that became done or undone on a line of its own. `:hint`, `:solution`, `:steps`
//! and `:quit` stand for the app's keys.

use std::io::{BufRead, Read, Write};
use std::time::Duration;

use crate::i18n::I18n;
use crate::lab::app::run::LabRun;
use crate::lab::app::scripted::{self, Typed};
use crate::lab::wire::sanitize;
use crate::progress::Change;

/// The longest line read at once: a longer one is typed in pieces, never held whole.
const MAX_LINE: u64 = 64 << 10;

/// How the session went beyond the steps.
#[derive(Debug, Default)]
pub struct Session {
    /// Lines still running at their limit, by number (from 1); 0 for a login with no prompt.
    pub late: Vec<usize>,
}

/// The transcript lines already shown, so each command shows only what it added.
struct Shown(Vec<String>);

impl Shown {
    /// The lines of the screen not shown yet. The prompt line the learner typed on is not
    /// repeated: they know what they typed.
    fn news(&mut self, run: &LabRun) -> Vec<String> {
        let text = sanitize::text(&scripted::plain_transcript(&run.shell.transcript()));
        let now: Vec<String> = text.trim_end().lines().map(str::to_string).collect();
        let same = self.0.iter().zip(&now).take_while(|(a, b)| a == b).count();
        let from = match (self.0.get(same), now.get(same)) {
            (Some(old), Some(new)) if same + 1 == self.0.len() && new.starts_with(old.as_str()) => {
                same + 1
            }
            _ => same,
        };
        let out = now.get(from..).unwrap_or_default().to_vec();
        self.0 = now;
        out
    }
}

/// Runs the lab from `input` until it ends or `:quit`; every write is tried even when the
/// reader has gone. A hint revealed or the solution opened goes to `record` at once, so it
/// counts even if the session never ends cleanly.
pub fn run(
    i18n: &I18n,
    run: &mut LabRun,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    limit: Duration,
    record: &mut dyn FnMut(Change),
) -> Session {
    let mut session = Session::default();
    let lab_id = run.lab.id.clone();
    let _ = writeln!(
        out,
        "{}",
        i18n.ta(
            "lab-plain-start",
            &[("title", crate::i18n::loc(i18n, &run.lab.title).into())]
        )
    );
    let _ = writeln!(out, "{}", i18n.t("lab-plain-commands"));
    let _ = writeln!(
        out,
        "{}",
        crate::text::loc_md(i18n, &run.lab.briefing).trim_end()
    );
    if !scripted::first_prompt(run, limit) {
        session.late.push(0);
    }
    run.evaluate();
    let mut shown = Shown(Vec::new());
    let mut was: Vec<bool> = run.status.iter().map(|s| s.done).collect();
    let mut hints: Vec<usize> = vec![0; run.lab.steps.len()];
    show(out, &shown.news(run));
    let mut n = 0;
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        // Bytes, not a String: a line that is not UTF-8 is typed as read, not the end.
        match (&mut *input).take(MAX_LINE).read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        n += 1;
        let line = String::from_utf8_lossy(&bytes);
        let typed = line.trim_end_matches(['\n', '\r']);
        match typed.trim() {
            ":quit" => break,
            ":steps" => steps(i18n, run, out),
            ":hint" => hint(i18n, run, &mut hints, record, out),
            ":solution" => {
                let _ = writeln!(out, "{}", i18n.t("lab-plain-solution"));
                let _ = writeln!(
                    out,
                    "{}",
                    crate::text::loc_md(i18n, &run.lab.solution).trim_end()
                );
                record(Change::SolutionViewed(lab_id.clone()));
            }
            cmd if cmd.starts_with(':') && !cmd.contains(' ') => {
                let _ = writeln!(
                    out,
                    "{}",
                    i18n.ta("lab-plain-unknown", &[("cmd", sanitize::text(cmd).into())])
                );
            }
            _ => {
                match scripted::type_line(run, typed, limit) {
                    Typed::Back => {}
                    Typed::Late => session.late.push(n),
                    Typed::Gone => {
                        show(out, &shown.news(run));
                        break;
                    }
                }
                run.evaluate();
                show(out, &shown.news(run));
                announce(i18n, run, &mut was, out);
            }
        }
    }
    run.evaluate();
    announce(i18n, run, &mut was, out);
    session
}

fn show(out: &mut dyn Write, lines: &[String]) {
    for l in lines {
        let _ = writeln!(out, "{l}");
    }
}

/// One line for each step whose state changed since last time.
fn announce(i18n: &I18n, run: &LabRun, was: &mut [bool], out: &mut dyn Write) {
    for ((step, s), before) in run.lab.steps.iter().zip(&run.status).zip(was.iter_mut()) {
        if s.done != *before {
            let key = if s.done {
                "lab-plain-step-done"
            } else {
                "lab-plain-step-undone"
            };
            let title = crate::i18n::loc(i18n, &step.title);
            let _ = writeln!(out, "{}", i18n.ta(key, &[("step", title.into())]));
            *before = s.done;
        }
    }
}

/// `:steps`: each step, done or not, and why not.
fn steps(i18n: &I18n, run: &LabRun, out: &mut dyn Write) {
    for (step, s) in run.lab.steps.iter().zip(&run.status) {
        let key = if s.done {
            "lab-plain-steps-done"
        } else {
            "lab-plain-steps-todo"
        };
        let title = crate::i18n::loc(i18n, &step.title);
        let _ = writeln!(out, "{}", i18n.ta(key, &[("step", title.into())]));
        if let Some(why) = &s.why {
            let _ = writeln!(out, "  {}", sanitize::text(&i18n.msg(why)));
        }
    }
}

/// `:hint`: the first step not done gets its next hint, one at a time.
fn hint(
    i18n: &I18n,
    run: &LabRun,
    hints: &mut [usize],
    record: &mut dyn FnMut(Change),
    out: &mut dyn Write,
) {
    let Some(i) = run.status.iter().position(|s| !s.done) else {
        let _ = writeln!(out, "{}", i18n.t("lab-plain-all-done"));
        return;
    };
    let step = &run.lab.steps[i];
    let Some(text) = step.hints.get(hints[i]) else {
        let _ = writeln!(out, "{}", i18n.t("lab-plain-no-hint"));
        return;
    };
    hints[i] += 1;
    record(Change::Hint {
        lab: run.lab.id.clone(),
        step: step.id.clone(),
    });
    let _ = writeln!(
        out,
        "{}",
        i18n.ta(
            "lab-plain-hint",
            &[
                ("n", hints[i].into()),
                ("step", crate::i18n::loc(i18n, &step.title).into()),
                (
                    "text",
                    crate::text::loc_md(i18n, text)
                        .trim_end()
                        .to_string()
                        .into()
                ),
            ]
        )
    );
}
