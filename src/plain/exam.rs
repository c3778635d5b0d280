//! An exam on stdin/stdout: each question with the time left, no explanation until the end,
//! then the score against the pass mark and every question explained.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use crate::exam::Sitting;
use crate::i18n::I18n;
use crate::quiz::{Verdict, letter, parse_answer};

/// Asks every question of the sitting until all are answered, input ends, or `left()` says the
/// time is up (`None`): an answer given after the limit is not counted. Returns whether the
/// time limit ended it.
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
        loop {
            write!(
                out,
                "{} ",
                i18n.ta(
                    "quiz-answer-prompt",
                    &[
                        ("last", n.into()),
                        ("lastletter", letter(n - 1).to_string().into())
                    ]
                )
            )?;
            out.flush()?;
            line.clear();
            if input.read_line(&mut line)? == 0 {
                writeln!(out)?;
                return Ok(false);
            }
            if echo {
                writeln!(out, "{}", crate::lab::wire::sanitize::text(line.trim_end()))?;
            }
            if left().is_none() {
                writeln!(out, "{}", i18n.t("exam-time-up"))?;
                return Ok(true);
            }
            match parse_answer(&line, n) {
                Ok(c) => {
                    sitting.answers[pos] = Some(shown[c]);
                    break;
                }
                Err(e) => writeln!(
                    out,
                    "{}",
                    i18n.ta(
                        e.msg_id(),
                        &[
                            (
                                "input",
                                crate::lab::wire::sanitize::text(line.trim()).into()
                            ),
                            ("last", n.into()),
                            ("lastletter", letter(n - 1).to_string().into())
                        ]
                    )
                )?,
            }
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
