//! `review [--plain] [--json] [--seed N] [--drill lab:ID/STEP --script FILE]`: the questions
//! and lab steps due for spaced review; the due questions asked, a missed lab step drilled.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use clap::{Arg, ArgMatches};

use super::Define::Args;
use super::Runs::OnCourse;
use super::arg_kit::ArgKit;
use super::common::{human_out, print_out, save};
use super::progress_store::open_store;
use super::{EXIT_FAIL, EXIT_OK, EXIT_USAGE, Loaded, Sub};
use crate::content::{Course, Pack};
use crate::events::What;
use crate::i18n::I18n;
use crate::items::ItemKind;
use crate::lab;
use crate::plain;
use crate::review::{self, Key};
use crate::term_text::sanitize;

pub(super) const SUB: Sub = Sub::new("review", Args("cli-review", args), OnCourse(run));

fn args(a: &ArgKit) -> Vec<Arg> {
    vec![
        a.plain(),
        a.json(),
        a.option("seed", "N", "cli-seed")
            .value_parser(clap::value_parser!(u64)),
        a.option("drill", "lab:ID/STEP", "cli-review-drill"),
        a.option("script", "FILE", "cli-review-script")
            .requires("drill")
            .value_parser(clap::value_parser!(PathBuf)),
    ]
}

fn run(cx: Loaded, m: &ArgMatches) -> i32 {
    let Loaded { i18n, course, pack } = cx;
    let now = match review::now() {
        Ok(t) => t,
        Err(v) => {
            eprintln!(
                "{}",
                i18n.ta(
                    "review-bad-now",
                    &[("name", review::NOW_ENV.into()), ("value", v.into())]
                )
            );
            return EXIT_USAGE;
        }
    };
    if let Some(drill) = m.get_one::<String>("drill") {
        return cmd_drill(&i18n, &course, &pack, m, drill);
    }
    let store = open_store(&i18n, &course, &pack);
    let events = store
        .as_ref()
        .map(crate::progress::Store::log)
        .unwrap_or_default();
    let cards = review::schedule(&course, &events);
    if m.get_flag("json") {
        let list = review::due_list(&cards, now);
        print_out(&format!(
            "{}\n",
            serde_json::to_string(&list).expect("json")
        ));
        return EXIT_OK;
    }
    let (due, next) = review::due_at(&cards, now);
    let mut out = human_out(false);
    if due.is_empty() {
        let _ = match next {
            Some(t) => writeln!(
                out,
                "{}",
                i18n.ta(
                    "review-none-due-until",
                    &[("when", crate::export::rfc3339(t).into())]
                )
            ),
            None => writeln!(out, "{}", i18n.t("review-none-scheduled")),
        };
        return EXIT_OK;
    }
    let seed = m
        .get_one::<u64>("seed")
        .copied()
        .unwrap_or_else(crate::quiz::fresh_seed);
    let mut questions: Vec<Key> = due
        .iter()
        .filter(|c| c.key.kind == ItemKind::Quiz)
        .map(|c| c.key.clone())
        .collect();
    // Shuffled so that questions of one quiz do not come as a block, the same way for a seed.
    let order = crate::quiz::shuffled(seed.max(1), "review", questions.len());
    questions = order.into_iter().map(|i| questions[i].clone()).collect();
    let steps: Vec<Key> = due
        .iter()
        .filter(|c| c.key.kind == ItemKind::Lab)
        .map(|c| c.key.clone())
        .collect();
    let _ = writeln!(
        out,
        "{}",
        i18n.ta(
            "review-intro",
            &[
                ("questions", questions.len().into()),
                ("steps", steps.len().into())
            ]
        )
    );
    let stdin = io::stdin();
    let echo = !stdin.is_terminal();
    let answers = plain::review::ask(
        &course,
        &questions,
        seed,
        &i18n,
        &mut stdin.lock(),
        &mut out,
        echo,
    )
    .unwrap_or_default();
    if !answers.is_empty() {
        save(&i18n, store.as_ref(), |p| {
            for a in &answers {
                p.record(What::Reviewed {
                    kind: a.key.kind,
                    item: a.key.item.clone(),
                    part: a.key.id.clone(),
                    right: a.right,
                });
            }
        });
        let right = answers.iter().filter(|a| a.right).count();
        let _ = writeln!(
            out,
            "\n{}",
            i18n.ta(
                "review-score",
                &[("score", right.into()), ("total", answers.len().into())]
            )
        );
    }
    let _ = plain::review::drills(&course, &steps, &i18n, &mut out);
    EXIT_OK
}

/// `lab:ID/STEP` (or `ID/STEP`) as a lab step of the course.
fn drill_key(course: &Course, s: &str) -> Option<Key> {
    let s = s.strip_prefix("lab:").unwrap_or(s);
    let (lab, step) = s.split_once('/')?;
    let l = course.lab(lab)?;
    l.steps.iter().any(|x| x.id == step).then(|| Key {
        kind: ItemKind::Lab,
        item: lab.to_string(),
        id: step.to_string(),
    })
}

/// A drill: the lab's machine with only the missed step to meet, graded by that step's check.
/// The commands come from `--script FILE` (`-` for standard input), as `lab --script` takes them.
fn cmd_drill(i18n: &I18n, course: &Course, pack: &Pack, m: &ArgMatches, drill: &str) -> i32 {
    let Some(key) = drill_key(course, drill) else {
        eprintln!(
            "{}",
            i18n.ta(
                "review-drill-unknown",
                &[("drill", sanitize::text(drill).into())]
            )
        );
        return EXIT_USAGE;
    };
    let lab = drill_lab(course, &key);
    // The app would record a drill as a session of the whole lab (and complete it with one
    // step met): drills run from commands, as `lab --script` does.
    let Some(file) = m.get_one::<PathBuf>("script") else {
        eprintln!("{}", i18n.t("review-drill-needs-script"));
        return EXIT_USAGE;
    };
    let json = m.get_flag("json");
    let text = if file.as_os_str() == "-" {
        io::read_to_string(io::stdin())
    } else {
        std::fs::read_to_string(file)
    };
    let lines = match text {
        Ok(t) => t.lines().map(String::from).collect::<Vec<_>>(),
        Err(e) => {
            eprintln!(
                "{}",
                i18n.ta(
                    "lab-script-unreadable",
                    &[
                        ("file", file.display().to_string().into()),
                        ("error", e.to_string().into())
                    ]
                )
            );
            return EXIT_USAGE;
        }
    };
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("{e}");
            return EXIT_FAIL;
        }
    };
    let opts = crate::proof::script_options(&lab, i18n, exe, true);
    let mut run = match lab::app::run::LabRun::start(&lab, opts, lab::app::run::no_notify()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{}", sanitize::text(&i18n.msg(&e.0)));
            return EXIT_FAIL;
        }
    };
    let _ = lab::app::scripted::run(&mut run, &lines, lab::app::scripted::LINE_TIMEOUT);
    run.evaluate();
    let transcript = sanitize::text(&lab::app::scripted::plain_transcript(
        &run.shell.transcript(),
    ));
    run.shell.kill();
    let met = run.status.first().is_some_and(|s| s.done);
    let why = run
        .status
        .first()
        .and_then(|s| s.why.as_ref())
        .map(|w| sanitize::text(&i18n.msg(w)));
    let mut human = human_out(json);
    let _ = writeln!(human, "{}", transcript.trim_end());
    let step = &lab.steps[0];
    let _ = writeln!(
        human,
        "\n  [{}] {}",
        if met { "x" } else { " " },
        plain::loc(i18n, &step.title)
    );
    if let Some(why) = &why {
        let _ = writeln!(human, "      {why}");
    }
    let verdict = if met {
        "review-drill-met"
    } else {
        "review-drill-unmet"
    };
    let _ = writeln!(human, "{}", i18n.t(verdict));
    if json {
        let result = serde_json::json!({
            "drill": format!("{}/{}", key.item_ref(), key.id),
            "met": met,
            "why": why,
        });
        print_out(&format!("{result}\n"));
    }
    let store = open_store(i18n, course, pack);
    save(i18n, store.as_ref(), |p| {
        p.record(What::Reviewed {
            kind: ItemKind::Lab,
            item: key.item.clone(),
            part: key.id.clone(),
            right: met,
        });
    });
    if met { EXIT_OK } else { EXIT_FAIL }
}

/// The lab cut down to one step: its machine and files as the lab has them, checked only by the
/// step that was missed, with no solution to open (a drill is practice of that one skill).
fn drill_lab(course: &Course, key: &Key) -> crate::content::Lab {
    let mut lab = course.lab(&key.item).expect("drill_key found it").clone();
    lab.steps.retain(|s| s.id == key.id);
    lab
}

#[cfg(test)]
mod tests {
    use clap::error::ErrorKind;

    use super::super::parse;

    #[test]
    fn review_flags_and_a_drill_with_its_script() {
        let m = parse(&["review", "--json", "--seed", "3"]).expect("parses");
        let r = m.subcommand_matches("review").expect("review");
        assert!(r.get_flag("json"));
        assert_eq!(r.get_one::<u64>("seed"), Some(&3));
        assert!(parse(&["review", "--drill", "lab:x/y", "--script", "s"]).is_ok());
        assert_eq!(
            parse(&["review", "--script", "s"]).err(),
            Some(ErrorKind::MissingRequiredArgument)
        );
    }
}
