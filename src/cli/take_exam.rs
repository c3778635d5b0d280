//! `exam ID [--plain] [--json] [--seed N]`: an exam asked line by line against its clock, its
//! result recorded and, with `--json`, printed.

use std::io::{self, IsTerminal, Write};
use std::time::{Duration, Instant};

use clap::{Arg, ArgMatches};

use super::Define::Args;
use super::Runs::OnCourse;
use super::arg_kit::ArgKit;
use super::common::{human_out, print_out, save};
use super::progress_store::open_store;
use super::{EXIT_FAIL, EXIT_OK, Loaded, Sub};
use crate::events::What;
use crate::exam::Sitting;
use crate::plain;

pub(super) const SUB: Sub = Sub::new("exam", Args("cli-exam", args), OnCourse(run));

fn args(a: &ArgKit) -> Vec<Arg> {
    vec![
        a.id("cli-exam-id"),
        a.plain(),
        a.json(),
        a.option("seed", "N", "cli-seed")
            .value_parser(clap::value_parser!(u64)),
    ]
}

fn run(cx: Loaded, m: &ArgMatches) -> i32 {
    let Loaded { i18n, course, pack } = cx;
    let raw = m.get_one::<String>("id").map(String::as_str).unwrap_or("");
    let id = raw.strip_prefix("exam:").unwrap_or(raw);
    let Some(exam) = course.exam(id) else {
        let known: Vec<&str> = course.exams.iter().map(|e| e.id.as_str()).collect();
        return super::common::unknown_id(&i18n, "exam", id, known);
    };
    let json = m.get_flag("json");
    let seed = m
        .get_one::<u64>("seed")
        .copied()
        .unwrap_or_else(crate::quiz::fresh_seed);
    let mut sitting = Sitting::new(&course, exam, seed);
    if sitting.picks.is_empty() {
        eprintln!("{}", i18n.ta("exam-no-questions", &[("id", id.into())]));
        return EXIT_FAIL;
    }
    let mut human = human_out(json);
    let started = Instant::now();
    let limit = Duration::from_secs(exam.time_limit_secs);
    let left = || {
        limit
            .checked_sub(started.elapsed())
            .filter(|d| !d.is_zero())
    };
    let stdin = io::stdin();
    let echo = !stdin.is_terminal();
    let timed_out = plain::exam::ask(
        &mut sitting,
        &i18n,
        &mut stdin.lock(),
        &mut human,
        echo,
        left,
    )
    .unwrap_or(false);
    let secs = started.elapsed().as_secs().min(exam.time_limit_secs);
    if timed_out {
        let _ = writeln!(human, "{}", i18n.t("exam-time-up"));
    }
    let _ = plain::exam::summary(&sitting, &i18n, secs, &mut human);
    let result = sitting.result(&i18n, secs, timed_out);
    let store = open_store(&i18n, &course, &pack);
    save(&i18n, store.as_ref(), |p| {
        p.record(What::Exam {
            item: exam.id.clone(),
            seed,
            score: result.score,
            total: result.total,
            passed: result.passed,
            secs,
            time_limit_secs: exam.time_limit_secs,
        });
    });
    if json {
        print_out(&format!(
            "{}\n",
            serde_json::to_string(&result).expect("json")
        ));
    }
    EXIT_OK
}

#[cfg(test)]
mod tests {
    use clap::error::ErrorKind;

    use super::super::parse;

    #[test]
    fn exam_flags_and_a_numeric_seed() {
        let m = parse(&["exam", "e", "--plain", "--json", "--seed", "7"]).expect("parses");
        let e = m.subcommand_matches("exam").expect("exam");
        assert_eq!(e.get_one::<u64>("seed"), Some(&7));
        assert!(e.get_flag("json") && e.get_flag("plain"));
        assert_eq!(
            parse(&["exam"]).err(),
            Some(ErrorKind::MissingRequiredArgument)
        );
        assert_eq!(
            parse(&["exam", "e", "--seed", "x"]).err(),
            Some(ErrorKind::ValueValidation)
        );
    }
}
