//! `progress [--json|--csv] [--learner NAME]` and `progress reset [ID]`: this learner's
//! progress as a table or a signed export, and forgetting it.

use std::io::{self, IsTerminal, Write};

use clap::{Arg, ArgMatches, Command};

use super::Define::Whole;
use super::Runs::OnCourse;
use super::arg_kit::ArgKit;
use super::common::save;
use super::progress_store::open_store;
use super::{EXIT_FAIL, EXIT_OK, EXIT_USAGE, Loaded, Sub};
use crate::content::Course;
use crate::i18n::I18n;
use crate::progress::{self, Store};

pub(super) const SUB: Sub = Sub::new("progress", Whole(command), OnCourse(run));

fn command(a: &ArgKit) -> Command {
    let reset = a.sub(
        "reset",
        "cli-progress-reset",
        vec![
            Arg::new("id")
                .value_name("ID")
                .help(a.t("cli-reset-id"))
                .help_heading(a.arguments.clone()),
            a.flag("yes", "cli-yes").short('y'),
        ],
    );
    a.sub(
        "progress",
        "cli-progress",
        vec![
            a.json().conflicts_with("csv"),
            a.flag("csv", "cli-csv"),
            a.option("learner", "NAME", "cli-learner"),
        ],
    )
    .subcommand(reset)
}

/// `progress [--json|--csv] [--learner NAME]`: this learner's progress as a table or an export.
fn run(cx: Loaded, m: &ArgMatches) -> i32 {
    let Loaded { i18n, course, pack } = &cx;
    let Some(store) = open_store(i18n, course, pack) else {
        return EXIT_FAIL;
    };
    if let Some(name) = m.get_one::<String>("learner") {
        let name = name.trim().to_string();
        save(i18n, Some(&store), |p| {
            p.learner = Some(name.clone());
        });
        eprintln!(
            "{}",
            i18n.ta("progress-learner-saved", &[("name", name.into())])
        );
    }
    let progress = match store.load() {
        Ok((p, notice)) => {
            if let Some(n) = notice {
                eprintln!("{}", i18n.msg(&n.msg()));
            }
            p
        }
        Err(e) => {
            eprintln!("{}", i18n.msg(&e.0));
            return EXIT_FAIL;
        }
    };
    if let Some(("reset", r)) = m.subcommand() {
        return progress_reset(i18n, course, &store, r);
    }
    let learner = crate::export::learner_name(progress.learner.as_deref());
    let machine = crate::export::machine_name();
    let events = store.log();
    let stamp = crate::export::Stamp {
        pack,
        learner: &learner,
        machine: &machine,
        now: progress::now(),
        events: &events,
    };
    let mut export = crate::export::build(&progress, course, &stamp);
    let mut out = io::stdout().lock();
    if m.get_flag("json") {
        if let Err(e) = progress::base_dir()
            .map_err(|e| e.to_string())
            .and_then(|d| export.sign(&d).map_err(|e| e.to_string()))
        {
            eprintln!(
                "{}",
                i18n.ta("classroom-sign-failed", &[("error", e.into())])
            );
        }
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&export).expect("json")
        );
    } else if m.get_flag("csv") {
        let _ = write!(out, "{}", crate::export::to_csv(&export));
    } else {
        let title = i18n.ta("progress-summary-title", &[("name", learner.into())]);
        let _ = write!(
            out,
            "{title}\n\n{}",
            crate::export::render_table(&export, course, i18n)
        );
        let _ = write!(out, "{}", review_and_exams(i18n, course, &store.log()));
    }
    EXIT_OK
}

/// Below the table: what is due for review now, and each exam taken (from the log: neither is
/// an item of the table).
fn review_and_exams(i18n: &I18n, course: &Course, log: &[crate::events::Event]) -> String {
    let mut out = String::new();
    let cards = crate::review::schedule(course, log);
    if let Ok(now) = crate::review::now()
        && !cards.is_empty()
    {
        let due = crate::review::due_at(&cards, now).0.len();
        out.push_str(&format!(
            "\n{}\n",
            i18n.ta("progress-review-due", &[("count", due.into())])
        ));
    }
    for e in log {
        if let crate::events::What::Exam {
            item,
            score,
            total,
            passed,
            secs,
            time_limit_secs,
            ..
        } = &e.what
        {
            let clock = |s: u64| format!("{}:{:02}", s / 60, s % 60);
            out.push_str(&format!(
                "{}\n",
                i18n.ta(
                    if *passed {
                        "progress-exam-passed"
                    } else {
                        "progress-exam-failed"
                    },
                    &[
                        ("id", item.as_str().into()),
                        ("score", (*score).into()),
                        ("total", (*total).into()),
                        ("used", clock(*secs).into()),
                        ("limit", clock(*time_limit_secs).into()),
                        ("date", crate::export::rfc3339(e.t).into()),
                    ]
                )
            ));
        }
    }
    out
}

/// `progress reset [ID]`: forget one item or everything, after a yes.
fn progress_reset(i18n: &I18n, course: &Course, store: &Store, m: &ArgMatches) -> i32 {
    let place = match m.get_one::<String>("id") {
        None => None,
        Some(spec) => match progress::find_item(course, spec) {
            Ok(p) => Some(p),
            Err(msg) => {
                eprintln!("{}", i18n.msg(&msg));
                return EXIT_USAGE;
            }
        },
    };
    let question = match &place {
        Some(p) => i18n.ta(
            "progress-reset-confirm-one",
            &[("id", p.to_string().into())],
        ),
        None => i18n.t("progress-reset-confirm-all"),
    };
    if !m.get_flag("yes") {
        if !io::stdin().is_terminal() {
            eprintln!("{}", i18n.t("progress-reset-need-yes"));
            return EXIT_USAGE;
        }
        eprint!("{question} [y/N] ");
        let mut answer = String::new();
        let _ = io::stdin().read_line(&mut answer);
        if !matches!(answer.trim(), "y" | "Y" | "yes") {
            return EXIT_OK;
        }
    }
    save(i18n, Some(store), |p| {
        p.apply(&progress::Change::Reset(place.clone()));
    });
    eprintln!("{}", i18n.t("progress-reset-done"));
    EXIT_OK
}

#[cfg(test)]
mod tests {
    use clap::error::ErrorKind;

    use super::super::parse;

    #[test]
    fn json_and_csv_conflict() {
        assert_eq!(
            parse(&["progress", "--json", "--csv"]).err(),
            Some(ErrorKind::ArgumentConflict)
        );
        let m = parse(&["progress", "--csv", "--learner", "Aiko"]).expect("parses");
        let p = m.subcommand_matches("progress").expect("progress");
        assert_eq!(
            p.get_one::<String>("learner").map(String::as_str),
            Some("Aiko")
        );
        assert_eq!(
            parse(&["progress", "--learner"]).err(),
            Some(ErrorKind::InvalidValue)
        );
    }

    #[test]
    fn reset_takes_an_optional_id_and_a_yes() {
        let m = parse(&["progress", "reset", "quiz:history", "-y"]).expect("parses");
        let (_, p) = m.subcommand().expect("progress");
        let (name, r) = p.subcommand().expect("reset");
        assert_eq!(name, "reset");
        assert_eq!(
            r.get_one::<String>("id").map(String::as_str),
            Some("quiz:history")
        );
        assert!(r.get_flag("yes"));
        let m = parse(&["progress", "reset"]).expect("everything");
        let (_, p) = m.subcommand().expect("progress");
        assert!(
            p.subcommand_matches("reset")
                .expect("reset")
                .get_one::<String>("id")
                .is_none()
        );
        assert_eq!(
            parse(&["progress", "reset", "a", "b"]).err(),
            Some(ErrorKind::UnknownArgument)
        );
    }
}
