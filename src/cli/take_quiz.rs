//! `quiz ID [--plain] [--json] [--retry-wrong] [--seed N]`: a quiz in the app, or asked line by
//! line.

use std::io::{self, IsTerminal, Write};
use std::time::Instant;

use clap::{Arg, ArgMatches};

use super::Define::Args;
use super::Runs::OnCourse;
use super::arg_kit::ArgKit;
use super::common::{human_out, item_id, plain_mode, print_out, save, unknown_id};
use super::full_screen::{cmd_app_seeded, quiz_target};
use super::progress_store::open_store;
use super::{EXIT_OK, Loaded, Sub};
use crate::content::{Course, Pack};
use crate::i18n::I18n;
use crate::plain;
use crate::progress::{ItemKind, ids};
use crate::quiz::QuizRun;

pub(super) const SUB: Sub = Sub::new("quiz", Args("cli-quiz", args), OnCourse(run));

fn args(a: &ArgKit) -> Vec<Arg> {
    vec![
        a.id("cli-quiz-id"),
        a.plain(),
        a.json(),
        a.flag("retry-wrong", "cli-retry-wrong"),
        a.option("seed", "N", "cli-seed")
            .value_parser(clap::value_parser!(u64)),
    ]
}

fn run(cx: Loaded, m: &ArgMatches) -> i32 {
    let Loaded { i18n, course, pack } = cx;
    if !plain_mode(m) && !m.get_flag("retry-wrong") {
        let seed = m.get_one::<u64>("seed").copied();
        cmd_app_seeded(i18n, course, &pack, quiz_target(m), seed)
    } else {
        cmd_quiz(&i18n, &course, &pack, m)
    }
}

fn cmd_quiz(i18n: &I18n, course: &Course, pack: &Pack, m: &ArgMatches) -> i32 {
    let id = item_id(m, ItemKind::Quiz);
    let json = m.get_flag("json");
    let Some(quiz) = course.quiz(&id) else {
        return unknown_id(i18n, "quiz", &id, ids(course, ItemKind::Quiz));
    };
    let store = open_store(i18n, course, pack);
    // With --json, stdout carries only the result; the conversation goes to stderr.
    let mut human = human_out(json);

    let seed = m
        .get_one::<u64>("seed")
        .copied()
        .unwrap_or_else(crate::quiz::fresh_seed);
    let mut run = QuizRun::new(quiz, seed);
    if m.get_flag("retry-wrong") {
        let previous = store
            .as_ref()
            .and_then(|s| s.load().ok())
            .and_then(|(p, _)| p.quizzes.get(&quiz.id).cloned());
        match previous {
            None => {
                let _ = writeln!(human, "{}", i18n.t("quiz-retry-none-taken"));
            }
            Some(prev) => {
                let wrong = prev.wrong_ids();
                run = QuizRun::only(quiz, &wrong, seed);
                if run.order.is_empty() {
                    let _ = writeln!(human, "{}", i18n.t("quiz-retry-nothing"));
                } else {
                    let _ = writeln!(
                        human,
                        "{}",
                        i18n.ta("quiz-retry-intro", &[("count", run.order.len().into())])
                    );
                }
            }
        }
    }

    let started = Instant::now();
    if !run.order.is_empty() {
        let stdin = io::stdin();
        let echo = !stdin.is_terminal();
        let _ = plain::quiz::ask(quiz, &mut run, i18n, &mut stdin.lock(), &mut human, echo);
        let _ = plain::quiz::summary(quiz, &run, i18n, &mut human);
    }
    let result = run.result(quiz, i18n.lang());
    if run.answered() > 0 {
        let secs = started.elapsed().as_secs();
        let attempt = run.attempt(quiz);
        save(i18n, store.as_ref(), |p| {
            p.record_quiz(&result, quiz.questions.len(), secs);
            // A plain run finished anew replaces an attempt the app left half-way; an
            // interrupted one stays in the app's "Continue" only if the app started it.
            if attempt.is_none() {
                p.apply(&crate::progress::Change::QuizAttempt {
                    quiz: quiz.id.clone(),
                    attempt: None,
                });
            }
        });
    }
    if json {
        let report = run.report(quiz, i18n);
        print_out(&format!(
            "{}\n",
            serde_json::to_string(&report).expect("json")
        ));
    }
    EXIT_OK
}

#[cfg(test)]
mod tests {
    use clap::error::ErrorKind;

    use super::super::parse;

    #[test]
    fn quiz_flags_and_a_numeric_seed() {
        let m = parse(&[
            "quiz",
            "q",
            "--plain",
            "--json",
            "--retry-wrong",
            "--seed",
            "7",
        ])
        .expect("parses");
        let q = m.subcommand_matches("quiz").expect("quiz");
        assert_eq!(q.get_one::<u64>("seed"), Some(&7));
        assert!(q.get_flag("retry-wrong") && q.get_flag("json") && q.get_flag("plain"));
        assert_eq!(
            parse(&["quiz", "q", "--seed", "seven"]).err(),
            Some(ErrorKind::ValueValidation)
        );
        assert_eq!(
            parse(&["quiz", "q", "--seed"]).err(),
            Some(ErrorKind::InvalidValue)
        );
        assert_eq!(
            parse(&["quiz"]).err(),
            Some(ErrorKind::MissingRequiredArgument)
        );
        assert_eq!(
            parse(&["quiz", "q", "--retry"]).err(),
            Some(ErrorKind::UnknownArgument)
        );
    }
}
