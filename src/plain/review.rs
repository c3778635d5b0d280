//! Spaced review on stdin/stdout: the due questions asked one per line, shuffled, each answer
//! explained as in a quiz; the due lab steps named with the drill that brings each back.

use std::io::{self, BufRead, Write};

use crate::content::Course;
use crate::i18n::I18n;
use crate::quiz::{Verdict, shuffled};
use crate::review::Key;

/// One question's answer in a review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reviewed {
    pub key: Key,
    pub right: bool,
}

/// Asks each due question (in the order given: the caller shuffles). Returns the answers given
/// before input ended.
pub fn ask(
    course: &Course,
    due: &[Key],
    seed: u64,
    i18n: &I18n,
    input: &mut impl BufRead,
    out: &mut impl Write,
    echo: bool,
) -> io::Result<Vec<Reviewed>> {
    let mut done = Vec::new();
    let mut line = String::new();
    let total = due.len();
    for (pos, key) in due.iter().enumerate() {
        let Some(quiz) = course.quiz(&key.item) else {
            continue;
        };
        let Some(q) = quiz.questions.iter().find(|q| q.id == key.id) else {
            continue;
        };
        let n = q.options.len();
        writeln!(out)?;
        writeln!(
            out,
            "{}",
            i18n.ta(
                "review-question-of",
                &[
                    ("n", (pos + 1).into()),
                    ("total", total.into()),
                    ("quiz", super::loc(i18n, &quiz.title).into())
                ]
            )
        )?;
        writeln!(out, "{}", super::loc_md(i18n, &q.prompt))?;
        if let Some(ex) = &q.excerpt {
            writeln!(out)?;
            for l in ex.lines() {
                writeln!(out, "    {l}")?;
            }
        }
        writeln!(out)?;
        let shown = shuffled(seed, &q.id, n);
        for (i, &o) in shown.iter().enumerate() {
            let text = super::loc_md(i18n, &q.options[o].text);
            super::quiz::write_hanging(out, &format!("  {}) ", i + 1), &text)?;
        }
        let prompt = &mut super::quiz::Prompt {
            out,
            input,
            line: &mut line,
            i18n,
            echo,
        };
        let chosen = match super::quiz::answer(prompt, n, || false)? {
            super::quiz::Answer::Chosen(c) => shown[c],
            super::quiz::Answer::Eof | super::quiz::Answer::Stopped => return Ok(done),
        };
        let verdict = Verdict {
            chosen,
            answer: q.answer,
        };
        super::quiz::explain(q, verdict, &shown, i18n, out)?;
        done.push(Reviewed {
            key: key.clone(),
            right: verdict.is_right(),
        });
    }
    Ok(done)
}

/// Names each due lab step and the command that drills it.
pub fn drills(course: &Course, due: &[Key], i18n: &I18n, out: &mut impl Write) -> io::Result<()> {
    if due.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    writeln!(
        out,
        "{}",
        i18n.ta("review-drills", &[("count", due.len().into())])
    )?;
    for key in due {
        let Some(lab) = course.lab(&key.item) else {
            continue;
        };
        let Some(step) = lab.steps.iter().find(|s| s.id == key.id) else {
            continue;
        };
        writeln!(
            out,
            "  {} / {}",
            super::loc(i18n, &lab.title),
            super::loc(i18n, &step.title)
        )?;
        writeln!(
            out,
            "    rocm-learn review --drill {}/{}",
            key.item_ref(),
            key.id
        )?;
    }
    Ok(())
}
