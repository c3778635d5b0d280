//! A quiz on stdin/stdout: numbered options, one answer per line, each answer explained.

use std::io::{self, BufRead, Write};

use crate::content::Quiz;
use crate::i18n::I18n;
use crate::quiz::{QuizRun, Said, explained, heading, letter, parse_answer};

/// Asks every question of `run` that is still open. Returns when all are answered or input ends
/// (EOF): the run then holds the answers given so far.
///
/// `echo` repeats each answer after the prompt: when answers come from a pipe or a file the
/// terminal shows nothing, and the transcript would read "Your answer: Right".
pub fn ask(
    quiz: &Quiz,
    run: &mut QuizRun,
    i18n: &I18n,
    input: &mut impl BufRead,
    out: &mut impl Write,
    echo: bool,
) -> io::Result<()> {
    let total = run.order.len();
    writeln!(
        out,
        "{}",
        i18n.ta(
            "quiz-plain-intro",
            &[
                ("title", super::loc(i18n, &quiz.title).into()),
                ("count", total.into())
            ]
        )
    )?;
    let mut line = String::new();
    while let Some(pos) = run.position() {
        let q = &quiz.questions[run.order[pos]];
        let n = q.options.len();
        writeln!(out)?;
        writeln!(
            out,
            "{}",
            i18n.ta(
                "quiz-question-of",
                &[("n", (pos + 1).into()), ("total", total.into())]
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
        let shown = run.shown(quiz, pos);
        for (i, &o) in shown.iter().enumerate() {
            let text = super::loc_md(i18n, &q.options[o].text);
            write_hanging(out, &format!("  {}) ", i + 1), &text)?;
        }
        let verdict = match answer(
            &mut Prompt {
                out,
                input,
                line: &mut line,
                i18n,
                echo,
            },
            n,
            || false,
        )? {
            Answer::Chosen(c) => run
                .answer_shown(quiz, c)
                .expect("answer keeps the index in range"),
            // EOF: the caller reports the partial result.
            Answer::Eof | Answer::Stopped => return Ok(()),
        };
        explain(q, verdict, &shown, i18n, out)?;
    }
    Ok(())
}

/// Where a question's answer is asked for: the output, the learner's input, a line buffer, and
/// whether the input is echoed (it does not come from a terminal).
pub struct Prompt<'a, W: Write, R: io::BufRead> {
    pub out: &'a mut W,
    pub input: &'a mut R,
    pub line: &'a mut String,
    pub i18n: &'a I18n,
    pub echo: bool,
}

/// What the learner answered.
pub enum Answer {
    /// The position (among the `n` shown) of the option chosen.
    Chosen(usize),
    /// The input ended.
    Eof,
    /// `stop` said so after a line was read (an exam's time ran out).
    Stopped,
}

/// Asks for one of `n` options until a line names one, saying what is wrong with each line
/// that does not. `stop` is asked after every line. The learner's text is printed only after
/// its terminal controls are stripped.
pub fn answer<W: Write, R: io::BufRead>(
    p: &mut Prompt<'_, W, R>,
    n: usize,
    stop: impl Fn() -> bool,
) -> io::Result<Answer> {
    use crate::term_text::sanitize::text as printable;
    let last = [
        ("last", n.into()),
        ("lastletter", letter(n - 1).to_string().into()),
    ];
    loop {
        write!(p.out, "{} ", p.i18n.ta("quiz-answer-prompt", &last))?;
        p.out.flush()?;
        p.line.clear();
        if p.input.read_line(p.line)? == 0 {
            writeln!(p.out)?;
            return Ok(Answer::Eof);
        }
        if p.echo {
            writeln!(p.out, "{}", printable(p.line.trim_end()))?;
        }
        if stop() {
            return Ok(Answer::Stopped);
        }
        match parse_answer(p.line, n) {
            Ok(c) => return Ok(Answer::Chosen(c)),
            Err(e) => {
                let mut args = vec![("input", printable(p.line.trim()).into())];
                args.extend(last.iter().cloned());
                writeln!(p.out, "{}", p.i18n.ta(e.msg_id(), &args))?;
            }
        }
    }
}

/// The closing lines: score, or how far the learner got; how to retry the wrong ones.
pub fn summary(quiz: &Quiz, run: &QuizRun, i18n: &I18n, out: &mut impl Write) -> io::Result<()> {
    let score = run.score(quiz);
    writeln!(out)?;
    if run.is_finished() {
        writeln!(
            out,
            "{}",
            i18n.ta(
                "quiz-score",
                &[("score", score.into()), ("total", run.order.len().into())]
            )
        )?;
    } else if run.answered() == 0 {
        writeln!(out, "{}", i18n.t("quiz-stopped-none"))?;
    } else {
        writeln!(
            out,
            "{}",
            i18n.ta(
                "quiz-stopped",
                &[
                    ("answered", run.answered().into()),
                    ("total", run.order.len().into()),
                    ("score", score.into())
                ]
            )
        )?;
    }
    let wrong = run.wrong_ids(quiz).len();
    if wrong > 0 {
        writeln!(
            out,
            "{}",
            i18n.ta(
                "quiz-retry-hint",
                &[("count", wrong.into()), ("id", quiz.id.as_str().into())]
            )
        )?;
    }
    Ok(())
}

/// Every option's explanation after an answer: the chosen one, the right one, then the others.
pub(super) fn explain(
    q: &crate::content::Question,
    verdict: crate::quiz::Verdict,
    shown: &[usize],
    i18n: &I18n,
    out: &mut impl Write,
) -> io::Result<()> {
    let mut others = false;
    for e in explained(verdict, shown) {
        let o = &q.options[e.option];
        if e.said == Said::Other && !others {
            others = true;
            writeln!(out)?;
            writeln!(out, "{}", i18n.t("quiz-others-heading"))?;
        } else if e.said == Said::Right {
            writeln!(out)?;
        }
        let text = super::loc_md(i18n, &o.text);
        writeln!(out, "{}", heading(i18n, &e, &text))?;
        write_hanging(out, "  ", &super::loc_md(i18n, &o.why))?;
    }
    Ok(())
}

/// Writes `text` with `first` before its first line and as many spaces before the others, so
/// a list inside an option or an explanation stays under its number.
pub(super) fn write_hanging(out: &mut impl Write, first: &str, text: &str) -> io::Result<()> {
    let pad = " ".repeat(first.len());
    for (i, line) in text.lines().enumerate() {
        let prefix = if i == 0 { first } else { &pad };
        if line.is_empty() {
            writeln!(out)?;
        } else {
            writeln!(out, "{prefix}{line}")?;
        }
    }
    Ok(())
}
