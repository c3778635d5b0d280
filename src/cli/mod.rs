//! The command line: parse, pick the language, load content, dispatch.
//!
//! Built with clap's builder API so that help text comes from the Fluent catalogue in the
//! learner's language (the language flag is looked for before clap runs).
//!
//! Each subcommand is one module that defines it (its `args`, or the whole `command`), runs it
//! (`run`) and exports both as `SUB`: `list_course`, `check_content`, `read_lesson`, `take_quiz`, `run_lab`,
//! `review_due`, `take_exam`, `show_progress`, `class_report`, `lrs_status`, `examine_host`, `serve_class`. The rest are what they
//! share: `arg_kit` (arguments in the learner's language), `pick_language`, `content_source`
//! (which course, and loading it), `progress_store`, `full_screen` (the app), `common`.
//!
//! Adding a command: write `src/cli/NAME.rs` with `args`, `run` and
//! `pub(super) const SUB: Sub = Sub::new("NAME", Args("cli-NAME", args), OnCourse(run));`
//! (`Alone(run)` when it must not wait for the course to load), then add `mod NAME;` and
//! `NAME::SUB` to the `COMMANDS` list below. Help lists the commands in that order.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Arg, ArgAction, ArgMatches, Command};

use crate::content::{Course, Pack};
use crate::i18n::I18n;
use crate::progress::Store;

mod arg_kit;
mod common;
mod content_source;
mod full_screen;
mod pick_language;
mod progress_store;

use arg_kit::ArgKit;
pub use content_source::CONTENT_ENV;

// The subcommand modules, written out (a macro's `mod` lines are invisible to rustfmt).
mod check_content;
mod class_report;
mod examine_host;
mod issue_credential;
mod list_course;
mod lrs_status;
mod read_lesson;
mod review_due;
mod run_lab;
mod serve_class;
mod show_progress;
mod take_exam;
mod take_quiz;
mod verify_credential;

/// The subcommands, in the order help shows them.
const COMMANDS: &[Sub] = &[
    list_course::SUB,
    check_content::SUB,
    read_lesson::SUB,
    take_quiz::SUB,
    run_lab::SUB,
    review_due::SUB,
    take_exam::SUB,
    show_progress::SUB,
    class_report::SUB,
    lrs_status::SUB,
    examine_host::SUB,
    serve_class::SUB,
    issue_credential::SUB,
    verify_credential::SUB,
];

pub use crate::exit::{EXIT_FAIL, EXIT_OK, EXIT_USAGE};

/// One subcommand: its name, its definition in the learner's language, and how it runs.
struct Sub {
    name: &'static str,
    define: Define,
    runs: Runs,
}

impl Sub {
    const fn new(name: &'static str, define: Define, runs: Runs) -> Sub {
        Sub { name, define, runs }
    }

    /// The command as clap parses it, in the learner's language.
    fn command(&self, a: &ArgKit) -> Command {
        match self.define {
            Define::Args(about, args) => a.sub(self.name, about, args(a)),
            Define::Whole(command) => command(a),
        }
    }
}

/// How a subcommand is defined.
enum Define {
    /// The usual command: the message id of its help line, and its arguments.
    Args(&'static str, fn(&ArgKit) -> Vec<Arg>),
    /// Built whole by its module: subcommands of its own, or another layout.
    Whole(fn(&ArgKit) -> Command),
}

/// What a command needs before it runs.
enum Runs {
    /// Reads the content itself (`check`: a pack with errors is what it is for).
    Alone(fn(Ctx, &ArgMatches) -> i32),
    /// Runs on the loaded course; a pack with errors stops it before it starts.
    OnCourse(fn(Loaded, &ArgMatches) -> i32),
}

/// The learner's language and the content asked for, before anything is loaded.
struct Ctx {
    i18n: I18n,
    content_dir: Option<PathBuf>,
}

/// The language and the loaded course.
struct Loaded {
    i18n: I18n,
    course: Course,
    pack: Pack,
}

/// Runs the program with these arguments; returns the exit status.
pub fn run(args: Vec<OsString>) -> i32 {
    // The lab's supervisor (inside the sandbox) needs none of the start-up below.
    if args
        .get(1)
        .is_some_and(|a| a == crate::lab::wire::layout::SUPERVISOR)
    {
        return crate::lab::sandbox::supervisor::main();
    }
    // The language and pack picked last time; a broken progress file is dealt with later.
    let settings = Store::locate()
        .ok()
        .and_then(|s| s.peek())
        .map(|p| p.settings)
        .unwrap_or_default();
    let (lang, bad_env_lang) = pick_language::choose_lang(&args, &settings);
    let mut i18n = I18n::new(lang);
    if let Some(v) = bad_env_lang {
        eprintln!("{}", i18n.ta("cli-bad-env-lang", &[("value", v.into())]));
    }

    let matches = match command(&i18n).try_get_matches_from(args) {
        Ok(m) => m,
        Err(e) => {
            let _ = e.print();
            return match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    EXIT_OK
                }
                _ => EXIT_USAGE,
            };
        }
    };
    let flag = matches.get_one::<PathBuf>("content").cloned();
    // A pack named on the command line is named again in every command suggested.
    i18n.set_content(flag.as_ref().map(|p| p.display().to_string()));
    let content_dir = content_source::content_dir(&i18n, flag.as_ref(), &settings);
    if flag.is_some() && matches.subcommand().is_none() && common::terminal_ok() {
        content_source::remember_content(content_dir.as_deref());
    }
    let code = dispatch(Ctx { i18n, content_dir }, &matches);
    // Results on their way to the class (its folder, the LRS queue) get a bounded moment;
    // what could not be written is said.
    let unwritten = crate::export::worker::drain_all(HANDOFF_EXIT_WAIT);
    if !unwritten.is_empty() {
        let i18n = I18n::new(lang);
        for m in &unwritten {
            eprintln!("{}", i18n.msg(m));
        }
    }
    // Statements being sent get a moment to arrive; the rest stay queued for the next run.
    crate::lrs::wait(LRS_EXIT_WAIT);
    code
}

/// How long a command about to exit waits for its results to reach the class.
const HANDOFF_EXIT_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// How long a command about to exit waits for statements being sent to the LRS.
const LRS_EXIT_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// Runs the command asked for; all but the `Alone` ones first load the course.
fn dispatch(cx: Ctx, matches: &ArgMatches) -> i32 {
    let asked = matches
        .subcommand()
        .map(|(name, m)| (name, COMMANDS.iter().find(|s| s.name == name), m));
    let on_course = match asked {
        Some((
            _,
            Some(Sub {
                runs: Runs::Alone(run),
                ..
            }),
            m,
        )) => return run(cx, m),
        Some((
            _,
            Some(Sub {
                runs: Runs::OnCourse(run),
                ..
            }),
            m,
        )) => Some((*run, m)),
        Some((name, None, _)) => return not_yet(&cx.i18n, name),
        None => None,
    };
    let (course, pack) = match content_source::load_course(&cx.i18n, cx.content_dir) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let loaded = Loaded {
        i18n: cx.i18n,
        course,
        pack,
    };
    match on_course {
        Some((run, m)) => run(loaded, m),
        None => full_screen::home(loaded),
    }
}

/// The whole command line, in the learner's language.
fn command(i18n: &I18n) -> Command {
    let a = ArgKit::new(i18n);
    Command::new("rocm-learn")
        .about(a.t("cli-about"))
        .version(env!("CARGO_PKG_VERSION"))
        .help_template(a.template.clone())
        .subcommand_help_heading(a.t("cli-commands"))
        .disable_help_flag(true)
        .disable_version_flag(true)
        .disable_help_subcommand(true)
        .arg(a.help())
        .arg(
            Arg::new("version")
                .short('V')
                .long("version")
                .action(ArgAction::Version)
                .help(a.t("cli-version"))
                .help_heading(a.options.clone()),
        )
        .arg(
            a.option("lang", "en|ja|ko", "cli-lang")
                .global(true)
                .value_parser(["en", "ja", "ko"])
                .hide_possible_values(true),
        )
        .arg(
            a.option("content", "DIR", "cli-content")
                .global(true)
                .value_parser(clap::value_parser!(PathBuf)),
        )
        .subcommands(COMMANDS.iter().map(|s| s.command(&a)))
}

fn not_yet(i18n: &I18n, what: &str) -> i32 {
    eprintln!("{}", i18n.ta("cli-not-yet", &[("what", what.into())]));
    EXIT_USAGE
}

/// Parses a command line (without the program name) as `run` would, in English.
#[cfg(test)]
fn parse(args: &[&str]) -> Result<ArgMatches, clap::error::ErrorKind> {
    let i18n = I18n::new(crate::lang::Lang::En);
    command(&i18n)
        .try_get_matches_from(std::iter::once("rocm-learn").chain(args.iter().copied()))
        .map_err(|e| e.kind())
}

#[cfg(test)]
mod tests {
    use clap::error::ErrorKind;

    use super::*;

    #[test]
    fn every_sub_is_named_as_its_definition() {
        let i18n = I18n::new(crate::lang::Lang::En);
        let a = ArgKit::new(&i18n);
        for s in COMMANDS {
            assert_eq!(s.command(&a).get_name(), s.name);
        }
        let mut names: Vec<_> = COMMANDS.iter().map(|s| s.name).collect();
        names.dedup();
        assert_eq!(names.len(), COMMANDS.len(), "a command listed twice");
    }

    #[test]
    fn no_command_is_the_app_and_globals_go_anywhere() {
        let m = parse(&[]).expect("bare");
        assert!(m.subcommand().is_none());
        let m = parse(&["list", "--lang", "ja", "--content", "pack"]).expect("globals after");
        assert_eq!(m.get_one::<String>("lang").map(String::as_str), Some("ja"));
        assert_eq!(
            m.get_one::<PathBuf>("content"),
            Some(&PathBuf::from("pack"))
        );
    }

    #[test]
    fn bad_global_values_and_unknown_commands_are_usage_errors() {
        assert_eq!(
            parse(&["--lang", "fr"]).err(),
            Some(ErrorKind::InvalidValue)
        );
        assert_eq!(
            parse(&["lessons"]).err(),
            Some(ErrorKind::InvalidSubcommand)
        );
        assert_eq!(parse(&["--bogus"]).err(), Some(ErrorKind::UnknownArgument));
        assert_eq!(parse(&["--help"]).err(), Some(ErrorKind::DisplayHelp));
        assert_eq!(parse(&["-V"]).err(), Some(ErrorKind::DisplayVersion));
    }

    /// Every command line the README's table shows parses, with every flag it names: a flag
    /// renamed here or there fails this test.
    #[test]
    fn readme_command_table_holds() {
        let readme = include_str!("../../README.md");
        let i18n = I18n::new(crate::lang::Lang::En);
        let root = command(&i18n);
        let mut seen = 0;
        for line in readme.lines().filter(|l| l.starts_with("rocm-learn ")) {
            let usage = line.split("  ").next().unwrap_or_default();
            let words: Vec<&str> = usage.split_whitespace().collect();
            let sub = words.get(1).filter(|w| !w.starts_with('[')).map(|w| {
                root.find_subcommand(w)
                    .unwrap_or_else(|| panic!("{w} in {line}"))
            });
            for flag in usage
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .filter_map(|w| w.strip_prefix("--"))
            {
                let known = |c: &Command| c.get_arguments().any(|a| a.get_long() == Some(flag));
                assert!(
                    known(&root) || sub.is_some_and(known),
                    "--{flag} of the README's `{usage}` is not an option"
                );
            }
            seen += 1;
        }
        assert!(seen >= 9, "the README's command table was not found");
    }
}
