//! An exam on stdin/stdout: each question with the time left, no explanation until the end,
//! then the score against the pass mark and every question explained.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use crate::exam::Sitting;
use crate::i18n::I18n;
use crate::quiz::Verdict;

/// Asks every question of the sitting until all are answered, input ends, or `left()` says the
/// time is up (`None`): an answer given after the limit is not counted. Returns whether the
/// time limit ended it (the caller says so).
pub fn ask(
    sitting: &mut Sitting,
    i18n: &I18n,
    input: &mut impl BufRead,
    out: &mut impl Write,
    echo: bool,
    left: impl Fn() -> Option<Duration>,
) -> io::Result<bool> {
    let total = sitting.picks.len();
    writeln!(
        out,
        "{}",
        i18n.ta(
            "exam-plain-intro",
            &[
                ("title", super::loc(i18n, &sitting.exam.title).into()),
                ("count", total.into()),
                ("minutes", sitting.exam.time_limit_secs.div_ceil(60).into()),
                ("percent", sitting.exam.pass_percent.into())
            ]
        )
    )?;
    let mut line = String::new();
    for pos in 0..total {
        let Some(rest) = left() else {
            return Ok(true);
        };
        let q = sitting.picks[pos].question();
        let n = q.options.len();
        writeln!(out)?;
        writeln!(
            out,
            "{}",
            i18n.ta(
                "exam-question-of",
                &[
                    ("n", (pos + 1).into()),
                    ("total", total.into()),
                    ("left", clock(rest).into())
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
        let shown = sitting.shown(pos);
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
        match super::quiz::answer(prompt, n, || left().is_none())? {
            super::quiz::Answer::Chosen(c) => sitting.answers[pos] = Some(shown[c]),
            super::quiz::Answer::Eof => return Ok(false),
            super::quiz::Answer::Stopped => return Ok(true),
        }
    }
    Ok(false)
}

/// The score, the verdict, the time used, then each question explained.
pub fn summary(sitting: &Sitting, i18n: &I18n, secs: u64, out: &mut impl Write) -> io::Result<()> {
    writeln!(out)?;
    let key = if sitting.passed() {
        "exam-passed"
    } else {
        "exam-failed"
    };
    writeln!(
        out,
        "{}",
        i18n.ta(
            key,
            &[
                ("score", sitting.score().into()),
                ("total", sitting.picks.len().into()),
                ("percent", sitting.exam.pass_percent.into()),
                ("used", clock(Duration::from_secs(secs)).into()),
                (
                    "limit",
                    clock(Duration::from_secs(sitting.exam.time_limit_secs)).into()
                )
            ]
        )
    )?;
    writeln!(out)?;
    writeln!(out, "{}", i18n.t("exam-explained"))?;
    for (pos, p) in sitting.picks.iter().enumerate() {
        let q = p.question();
        writeln!(out)?;
        writeln!(
            out,
            "{}",
            i18n.ta(
                "exam-question-of",
                &[
                    ("n", (pos + 1).into()),
                    ("total", sitting.picks.len().into()),
                    ("left", "".into())
                ]
            )
            .trim_end()
        )?;
        writeln!(out, "{}", super::loc_md(i18n, &q.prompt))?;
        let shown = sitting.shown(pos);
        match sitting.answers[pos] {
            Some(chosen) => {
                let v = Verdict {
                    chosen,
                    answer: q.answer,
                };
                super::quiz::explain(q, v, &shown, i18n, out)?;
            }
            None => {
                writeln!(out, "{}", i18n.t("exam-unanswered"))?;
                let v = Verdict {
                    chosen: q.answer,
                    answer: q.answer,
                };
                super::quiz::explain(q, v, &shown, i18n, out)?;
            }
        }
    }
    Ok(())
}

/// `12:05` (minutes and seconds), as the clock shows the time left.
pub fn clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;
    use crate::lang::Lang;

    #[test]
    fn an_answer_after_the_time_limit_is_not_counted_and_ends_the_sitting() {
        let course = crate::content::load(&crate::content::ContentTree::embedded()).0;
        let exam = course.exam("rocm-deploy").expect("built-in exam");
        let mut sitting = Sitting::new(&course, exam, 7);
        let i18n = I18n::new(Lang::En);
        // The clock is read as each question is shown and as each answer comes: time is left
        // for the first answer and to show the second question, not for the second answer.
        let asked = Cell::new(0);
        let left = || {
            asked.set(asked.get() + 1);
            (asked.get() <= 3).then(|| Duration::from_secs(61))
        };
        let right = sitting.picks[0].question().answer;
        let shown = sitting.shown(0);
        let pos = shown.iter().position(|&o| o == right).unwrap() + 1;
        let input = format!("{pos}\n1\n");
        let mut out = Vec::new();
        let timed_out = ask(
            &mut sitting,
            &i18n,
            &mut input.as_bytes(),
            &mut out,
            false,
            left,
        )
        .expect("writes");
        let text = String::from_utf8(out).unwrap();
        assert!(timed_out, "{text}");
        assert_eq!(sitting.answers[0], Some(right));
        assert_eq!(sitting.answers[1], None, "the late answer is dropped");
        assert_eq!(sitting.score(), 1);
        assert!(text.contains("Question 1 of 10   1:01"), "{text}");
        assert!(text.contains("Question 2 of 10   1:01"), "{text}");
        assert!(!text.contains("Question 3 of 10"), "{text}");
        // No explanation is shown while the exam runs.
        assert!(
            !text.contains("Correct:") && !text.contains("The other options:"),
            "{text}"
        );
    }

    #[test]
    fn the_clock_reads_minutes_and_seconds() {
        assert_eq!(clock(Duration::from_secs(900)), "15:00");
        assert_eq!(clock(Duration::from_secs(61)), "1:01");
        assert_eq!(clock(Duration::from_secs(0)), "0:00");
    }
}
