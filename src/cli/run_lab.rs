//! `lab ID [--script FILE [--line-timeout S]] [--json] [--plain]`: a lab in the app, graded
//! headlessly from a script through the same sandbox and shell, or line by line for screen
//! readers (also where there is no terminal to draw on).

use std::io::Write;
use std::path::PathBuf;

use clap::{Arg, ArgMatches};

use super::Define::Args;
use super::Runs::OnCourse;
use super::arg_kit::ArgKit;
use super::common::{human_out, item_id, print_out, save, terminal_ok, unknown_id};
use super::full_screen::cmd_app;
use super::progress_store::open_store;
use super::{EXIT_FAIL, EXIT_OK, EXIT_USAGE, Loaded, Sub};
use crate::content::{self, Course, Pack};
use crate::i18n::I18n;
use crate::lab;
use crate::markdown::Target;
use crate::plain;
use crate::progress::{ItemKind, ids};
use crate::term_text::sanitize;

pub(super) const SUB: Sub = Sub::new("lab", Args("cli-lab", args), OnCourse(run));

fn args(a: &ArgKit) -> Vec<Arg> {
    vec![
        a.id("cli-lab-id"),
        a.option("script", "FILE", "cli-script")
            .value_parser(clap::value_parser!(PathBuf)),
        a.flag("plain", "cli-lab-plain")
            .conflicts_with_all(["script", "json"]),
        a.option("line-timeout", "SECONDS", "cli-line-timeout")
            .value_parser(clap::value_parser!(u64).range(1..=86_400)),
        a.json(),
    ]
}

/// `lab ID [--script FILE]`: in the app, or graded headlessly from a script.
fn run(cx: Loaded, m: &ArgMatches) -> i32 {
    let Loaded { i18n, course, pack } = cx;
    let pack = &pack;
    // An unknown id is the first thing to fix, whatever the terminal.
    let id = item_id(m, ItemKind::Lab);
    if course.lab(&id).is_none() {
        return unknown_id(&i18n, "lab", &id, ids(&course, ItemKind::Lab));
    }
    match m.get_one::<PathBuf>("script") {
        Some(file) => cmd_lab_script(&i18n, &course, pack, m, file),
        None if terminal_ok() && !m.get_flag("plain") => {
            cmd_app(i18n, course, pack, Some(Target::Lab(id)))
        }
        None => cmd_lab_plain(&i18n, &course, pack, m),
    }
}

/// The limit on each line: `--line-timeout`, else the script mode's.
fn line_limit(m: &ArgMatches) -> std::time::Duration {
    m.get_one::<u64>("line-timeout")
        .map_or(lab::app::scripted::LINE_TIMEOUT, |s| {
            std::time::Duration::from_secs(*s)
        })
}

/// `lab ID --plain`: the shell line by line on standard input and output; the exit status is
/// the script mode's (0 when every step is done).
fn cmd_lab_plain(i18n: &I18n, course: &Course, pack: &Pack, m: &ArgMatches) -> i32 {
    let id = item_id(m, ItemKind::Lab);
    let Some(lab) = course.lab(&id) else {
        return unknown_id(i18n, "lab", &id, ids(course, ItemKind::Lab));
    };
    let mut run = match start_script_run(i18n, lab) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let limit = line_limit(m);
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout();
    let store = open_store(i18n, course, pack);
    let mut record = |c: crate::progress::Change| save(i18n, store.as_ref(), |p| p.apply(&c));
    let session = plain::lab::run(i18n, &mut run, &mut input, &mut out, limit, &mut record);
    say_late(i18n, &session.late, limit);
    if run.confined == Some(false) {
        eprintln!("{}", i18n.t("lab-unconfined"));
    }
    if let Some(h) = &run.halted {
        eprintln!("{}", sanitize::text(&i18n.msg(h)));
    }
    run.shell.kill();
    let complete = run.status.iter().all(|s| s.done);
    let steps = step_results(i18n, &run);
    print_checklist(i18n, lab, &steps, complete, &mut out);
    save_lab_session(i18n, course, pack, lab, &run, complete, false);
    if complete { EXIT_OK } else { EXIT_FAIL }
}

/// The lines still running at their limit, one message each.
fn say_late(i18n: &I18n, late: &[usize], limit: std::time::Duration) {
    for &n in late {
        let key = if n == 0 {
            "labui-no-prompt"
        } else {
            "labui-line-timeout"
        };
        eprintln!(
            "{}",
            i18n.ta(key, &[("n", n.into()), ("secs", limit.as_secs().into())])
        );
    }
}

/// `lab ID --script FILE`: grade a lab headlessly, through the same sandbox and shell.
fn cmd_lab_script(
    i18n: &I18n,
    course: &Course,
    pack: &Pack,
    m: &ArgMatches,
    file: &std::path::Path,
) -> i32 {
    let id = item_id(m, ItemKind::Lab);
    let json = m.get_flag("json");
    let Some(lab) = course.lab(&id) else {
        return unknown_id(i18n, "lab", &id, ids(course, ItemKind::Lab));
    };
    let lines = match read_script(i18n, file) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let mut run = match start_script_run(i18n, lab) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let limit = line_limit(m);
    let late = lab::app::scripted::run(&mut run, &lines, limit);
    say_late(i18n, &late, limit);
    run.evaluate();
    if run.confined == Some(false) {
        eprintln!("{}", i18n.t("lab-unconfined"));
    }
    if let Some(h) = &run.halted {
        eprintln!("{}", sanitize::text(&i18n.msg(h)));
    }
    // Everything below comes from the lab: cleaned of terminal controls before printing.
    let transcript = sanitize::text(&lab::app::scripted::plain_transcript(
        &run.shell.transcript(),
    ));
    run.shell.kill();
    let complete = run.status.iter().all(|s| s.done);
    let steps = step_results(i18n, &run);
    // With --json, stdout carries only the result; the session goes to stderr.
    let mut human = human_out(json);
    let _ = writeln!(human, "{}", transcript.trim_end());
    print_checklist(i18n, lab, &steps, complete, &mut human);
    if json {
        let result = lab::app::scripted::Result {
            lab: lab.id.clone(),
            complete,
            steps,
        };
        print_out(&format!(
            "{}\n",
            serde_json::to_string(&result).expect("json")
        ));
    }
    save_lab_session(i18n, course, pack, lab, &run, complete, true);
    if complete { EXIT_OK } else { EXIT_FAIL }
}

/// The script's lines; an unreadable file is a usage error, said with the reason.
fn read_script(i18n: &I18n, file: &std::path::Path) -> Result<Vec<String>, i32> {
    match std::fs::read_to_string(file) {
        Ok(t) => Ok(t.lines().map(String::from).collect()),
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
            Err(EXIT_USAGE)
        }
    }
}

/// The lab's sandbox and shell, in a fixed 120x40 terminal that keeps a transcript.
fn start_script_run(i18n: &I18n, lab: &content::Lab) -> Result<lab::app::run::LabRun, i32> {
    let exe = std::env::current_exe().map_err(|e| {
        eprintln!("{e}");
        EXIT_FAIL
    })?;
    let opts = crate::proof::script_options(lab, i18n, exe, true);
    lab::app::run::LabRun::start(lab, opts, lab::app::run::no_notify()).map_err(|e| {
        eprintln!("{}", sanitize::text(&i18n.msg(&e.0)));
        EXIT_FAIL
    })
}

/// Each step's result, its reason (from the lab) cleaned of terminal controls.
fn step_results(i18n: &I18n, run: &lab::app::run::LabRun) -> Vec<lab::app::scripted::StepResult> {
    run.lab
        .steps
        .iter()
        .zip(&run.status)
        .map(|(st, s)| lab::app::scripted::StepResult {
            id: st.id.clone(),
            done: s.done,
            why: s.why.as_ref().map(|w| sanitize::text(&i18n.msg(w))),
        })
        .collect()
}

/// The checklist under the transcript: each step ticked or not, with why, then the count. A
/// reader that went away stops nothing: every write is tried.
fn print_checklist(
    i18n: &I18n,
    lab: &content::Lab,
    steps: &[lab::app::scripted::StepResult],
    complete: bool,
    out: &mut dyn Write,
) {
    let _ = writeln!(out, "\n{}", i18n.t("lab-script-checklist"));
    for (st, s) in lab.steps.iter().zip(steps) {
        let _ = writeln!(
            out,
            "  [{}] {}",
            if s.done { "x" } else { " " },
            plain::loc(i18n, &st.title)
        );
        if let Some(why) = &s.why {
            let _ = writeln!(out, "      {why}");
        }
    }
    let done = steps.iter().filter(|s| s.done).count();
    let key = if complete {
        "lab-script-complete"
    } else {
        "lab-script-incomplete"
    };
    let _ = writeln!(
        out,
        "{}",
        i18n.ta(key, &[("done", done.into()), ("total", steps.len().into())])
    );
}

/// Records a scripted or plain session like one in the app: a lab a script completes anew is
/// marked as completed by a script.
fn save_lab_session(
    i18n: &I18n,
    course: &Course,
    pack: &Pack,
    lab: &content::Lab,
    run: &lab::app::run::LabRun,
    complete: bool,
    by_script: bool,
) {
    let store = open_store(i18n, course, pack);
    let done_ids = run.steps_done();
    let secs = run.started.elapsed().as_secs();
    save(i18n, store.as_ref(), |p| {
        p.record(crate::events::What::Lab {
            item: lab.id.clone(),
            session: crate::events::LabSession {
                steps_done: done_ids,
                complete,
                hints: 0,
                secs,
                session_over: true,
                confined: run.confined != Some(false),
                solved_before: false,
            },
            by_script,
        });
    });
}

#[cfg(test)]
mod tests {
    use clap::error::ErrorKind;

    use super::super::parse;

    #[test]
    fn a_line_timeout_is_a_sane_number_and_plain_is_not_a_script() {
        let m = parse(&[
            "lab",
            "l",
            "--script",
            "s.sh",
            "--line-timeout",
            "30",
            "--json",
        ])
        .expect("parses");
        let l = m.subcommand_matches("lab").expect("lab");
        assert_eq!(l.get_one::<u64>("line-timeout"), Some(&30));
        assert_eq!(
            l.get_one::<std::path::PathBuf>("script"),
            Some(&"s.sh".into())
        );
        assert_eq!(
            parse(&["lab", "l", "--plain", "--script", "s"]).err(),
            Some(ErrorKind::ArgumentConflict)
        );
        assert_eq!(
            parse(&["lab", "l", "--plain", "--json"]).err(),
            Some(ErrorKind::ArgumentConflict)
        );
        for bad in ["0", "86401", "-1", "soon"] {
            assert_eq!(
                parse(&[
                    "lab",
                    "l",
                    "--script",
                    "s",
                    &format!("--line-timeout={bad}")
                ])
                .err(),
                Some(ErrorKind::ValueValidation),
                "{bad}"
            );
        }
        assert_eq!(
            parse(&["lab"]).err(),
            Some(ErrorKind::MissingRequiredArgument)
        );
        let m = parse(&["lab", "l", "--plain", "--line-timeout", "5"]).expect("plain");
        assert!(m.subcommand_matches("lab").expect("lab").get_flag("plain"));
    }
}
