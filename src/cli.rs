//! The command line: parse, pick the language, load content, dispatch.
//!
//! Built with clap's builder API so that help text comes from the Fluent catalogue in the
//! learner's language (the language flag is looked for before clap runs).

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

use clap::{Arg, ArgAction, ArgMatches, Command};

use crate::content::{self, ContentTree, Course, Diagnostics, Pack, Severity};
use crate::i18n::I18n;
use crate::lang::{self, Lang};
use crate::markdown::Target;
use crate::progress::{ItemKind, Place, Progress, Store, ids};
use crate::quiz::QuizRun;
use crate::tui::theme::Theme;
use crate::tui::{self, App};
use crate::{lab, plain, progress};

/// Exit statuses: 0 success, 1 the thing checked failed (content errors), 2 usage or
/// "not available".
pub const EXIT_OK: i32 = 0;
pub const EXIT_FAIL: i32 = 1;
pub const EXIT_USAGE: i32 = 2;

/// Runs the program with these arguments; returns the exit status.
pub fn run(args: Vec<OsString>) -> i32 {
    // The lab's supervisor (inside the sandbox) needs none of the start-up below.
    if args
        .get(1)
        .is_some_and(|a| a == crate::lab::supervisor::SUBCOMMAND)
    {
        return crate::lab::supervisor::main();
    }
    // The language and pack picked last time; a broken progress file is dealt with later.
    let settings = Store::locate()
        .ok()
        .and_then(|s| s.peek())
        .map(|p| p.settings)
        .unwrap_or_default();
    let (lang, bad_env_lang) = choose_lang(&args, &settings);
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
    let content_dir = content_dir(&i18n, flag.as_ref(), &settings);
    if flag.is_some() && matches.subcommand().is_none() && terminal_ok() {
        remember_content(content_dir.as_deref());
    }
    let code = dispatch(i18n, &matches, content_dir);
    // Statements being sent get a moment to arrive; the rest stay queued for the next run.
    crate::lrs::wait(LRS_EXIT_WAIT);
    code
}

/// How long a command about to exit waits for statements being sent to the LRS.
const LRS_EXIT_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// `--lang`, else ROCM_LEARN_LANG, else the language picked in the app, else the locale's; also
/// a ROCM_LEARN_LANG that names no language (and was not overridden), to be said.
fn choose_lang(args: &[OsString], settings: &progress::Settings) -> (Lang, Option<String>) {
    let env_lang = std::env::var("ROCM_LEARN_LANG").ok();
    let locale = sys_locale::get_locale();
    let flag = prescan_lang(args);
    let saved = settings.lang.map(Lang::code);
    let (lang, _) = lang::choose(flag, env_lang.as_deref(), saved, locale.as_deref());
    let bad =
        env_lang.filter(|v| !v.trim().is_empty() && Lang::parse(v).is_none() && flag.is_none());
    (lang, bad)
}

/// `--content`, else ROCM_LEARN_CONTENT, else the pack last opened in the app with `--content`
/// (`--content builtin` goes back to the built-in course); `None` is the built-in course.
fn content_dir(
    i18n: &I18n,
    flag: Option<&PathBuf>,
    settings: &progress::Settings,
) -> Option<PathBuf> {
    match flag {
        Some(f) if f.as_os_str() == crate::content::pack::BUILTIN => None,
        Some(f) => Some(f.clone()),
        None => content_from_env().or_else(|| {
            let r = PathBuf::from(settings.content.as_ref()?);
            eprintln!(
                "{}",
                i18n.ta(
                    "classroom-remembered-pack",
                    &[("pack", r.display().to_string().into())]
                )
            );
            Some(r)
        }),
    }
}

/// Runs the command asked for; all but `check` first load the course.
fn dispatch(i18n: I18n, matches: &ArgMatches, content_dir: Option<PathBuf>) -> i32 {
    if let Some(("check", m)) = matches.subcommand() {
        return cmd_check(
            &i18n,
            content_dir,
            m.get_flag("stats"),
            !m.get_flag("no-labs"),
        );
    }
    if let Some(("serve", m)) = matches.subcommand() {
        return crate::serve::main(&i18n, m);
    }
    let (course, pack) = match load_course(&i18n, content_dir) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let Some((name, m)) = matches.subcommand() else {
        return cmd_home(i18n, course, &pack);
    };
    let pack = &pack;
    match name {
        "list" => cmd_list(&i18n, &course, m.get_flag("json")),
        "doctor" if m.get_flag("apparmor-profile") => {
            print_out(crate::doctor::labs::APPARMOR_PROFILE);
            EXIT_OK
        }
        "doctor" if m.get_flag("labs") => cmd_doctor_labs(&i18n, m.get_flag("json")),
        "doctor" => cmd_doctor(&i18n, &course, m.get_flag("json")),
        "lesson" if !plain_mode(m) => cmd_app(i18n, course, pack, lesson_target(m)),
        "lesson" => cmd_lesson(&i18n, &course, pack, m),
        "quiz" if !plain_mode(m) && !m.get_flag("retry-wrong") => {
            let seed = m.get_one::<u64>("seed").copied();
            cmd_app_seeded(i18n, course, pack, quiz_target(m), seed)
        }
        "quiz" => cmd_quiz(&i18n, &course, pack, m),
        "progress" => cmd_progress(&i18n, &course, pack, m),
        "report" => cmd_report(&i18n, &course, pack, m),
        "lrs" => cmd_lrs_status(&i18n),
        "lab" => cmd_lab(i18n, course, pack, m),
        _ => not_yet(&i18n, name),
    }
}

/// No command: the app, or without a terminal to draw on, the catalogue and how to use it line
/// by line.
fn cmd_home(i18n: I18n, course: Course, pack: &Pack) -> i32 {
    if terminal_ok() {
        cmd_app(i18n, course, pack, None)
    } else {
        let code = cmd_list(&i18n, &course, false);
        eprintln!("\n{}", i18n.t("cli-plain-hint"));
        code
    }
}

/// `lab ID [--script FILE]`: in the app, or graded headlessly from a script.
fn cmd_lab(i18n: I18n, course: Course, pack: &Pack, m: &ArgMatches) -> i32 {
    // An unknown id is the first thing to fix, whatever the terminal.
    let id = item_id(m, ItemKind::Lab);
    if course.lab(&id).is_none() {
        return unknown_id(&i18n, "lab", &id, ids(&course, ItemKind::Lab));
    }
    match m.get_one::<PathBuf>("script") {
        Some(file) => cmd_lab_script(&i18n, &course, pack, m, file),
        None if terminal_ok() => cmd_app(i18n, course, pack, Some(Target::Lab(id))),
        None => {
            eprintln!("{}", i18n.t("lab-needs-terminal"));
            EXIT_USAGE
        }
    }
}

/// Full-screen drawing needs a real terminal on both ends that is not `TERM=dumb`.
fn terminal_ok() -> bool {
    io::stdout().is_terminal()
        && io::stdin().is_terminal()
        && std::env::var("TERM").map_or(true, |t| t != "dumb")
}

fn plain_mode(m: &ArgMatches) -> bool {
    m.get_flag("plain")
        || m.try_get_one::<bool>("json")
            .ok()
            .flatten()
            .copied()
            .unwrap_or(false)
        || !terminal_ok()
}

fn lesson_target(m: &ArgMatches) -> Option<Target> {
    Some(Target::Lesson(item_id(m, ItemKind::Lesson)))
}

fn quiz_target(m: &ArgMatches) -> Option<Target> {
    Some(Target::Quiz(item_id(m, ItemKind::Quiz)))
}

/// The `ID` argument of `lesson`, `quiz` or `lab`, which may also be written qualified
/// (`quiz:history`), as `progress reset` needs it.
fn item_id(m: &ArgMatches, kind: ItemKind) -> String {
    let id = m.get_one::<String>("id").map(String::as_str).unwrap_or("");
    id.strip_prefix(kind.name())
        .and_then(|rest| rest.strip_prefix(':'))
        .unwrap_or(id)
        .to_string()
}

/// The full-screen app, optionally opened on a lesson or quiz.
fn cmd_app(i18n: I18n, course: Course, pack: &Pack, open: Option<Target>) -> i32 {
    cmd_app_seeded(i18n, course, pack, open, None)
}

/// The app with quiz option orders drawn from `seed` (`quiz ID --seed N`) instead of the clock.
fn cmd_app_seeded(
    i18n: I18n,
    course: Course,
    pack: &Pack,
    open: Option<Target>,
    seed: Option<u64>,
) -> i32 {
    // Unknown ids are reported before the screen switches, like in plain mode.
    match &open {
        Some(Target::Lesson(id)) if course.lesson(id).is_none() => {
            return unknown_id(&i18n, "lesson", id, ids(&course, ItemKind::Lesson));
        }
        Some(Target::Lab(id)) if course.lab(id).is_none() => {
            return unknown_id(&i18n, "lab", id, ids(&course, ItemKind::Lab));
        }
        Some(Target::Quiz(id)) if course.quiz(id).is_none() => {
            return unknown_id(&i18n, "quiz", id, ids(&course, ItemKind::Quiz));
        }
        _ => {}
    }
    let store = open_store(&i18n, &course, pack);
    let (progress, notice) = match store.as_ref().map(|s| s.load()) {
        Some(Ok((p, n))) => (p, n),
        Some(Err(e)) => {
            // A progress file we must not overwrite: run, but keep nothing.
            eprintln!("{}", i18n.msg(&e.0));
            return EXIT_FAIL;
        }
        None => (Progress::new(), None),
    };
    let mut theme = Theme::from_env();
    theme.ascii |= store
        .as_ref()
        .map_or(progress.settings.ascii, |s| s.settings().ascii);
    let mut app = App::new(course, i18n, theme, progress);
    app.world.quiz_seed = seed;
    if let Some(n) = notice {
        let text = app.world.i18n.msg(&n.msg());
        app.notify(text);
    }
    match tui::run::run(app, store, open) {
        Ok(()) => EXIT_OK,
        Err(e) => {
            eprintln!("{e}");
            EXIT_FAIL
        }
    }
}

/// Finds `--lang X` / `--lang=X` before clap runs, so help and errors use that language.
fn prescan_lang(args: &[OsString]) -> Option<Lang> {
    let mut it = args.iter().skip(1).map(|a| a.to_string_lossy());
    while let Some(a) = it.next() {
        if a == "--" {
            break;
        }
        if a == "--lang" {
            return it
                .next()
                .and_then(|v| Lang::parse(&v).filter(|l| l.code() == v));
        }
        if let Some(v) = a.strip_prefix("--lang=") {
            return Lang::parse(v).filter(|l| l.code() == v);
        }
    }
    None
}

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
        .subcommand(a.sub("list", "cli-list", vec![a.json()]))
        .subcommand(a.sub(
            "check",
            "cli-check",
            vec![
                a.flag("stats", "cli-check-stats"),
                a.flag("no-labs", "classroom-cli-no-labs"),
            ],
        ))
        .subcommand(a.sub(
            "lesson",
            "cli-lesson",
            vec![a.id("cli-lesson-id"), a.plain()],
        ))
        .subcommand(quiz_command(&a))
        .subcommand(lab_command(&a))
        .subcommand(progress_command(&a))
        .subcommand(report_command(&a))
        .subcommand(crate::serve::command(i18n))
        .subcommand(
            Command::new("lrs")
                .about(a.t("cli-lrs"))
                .subcommand_required(true)
                .subcommand(a.sub("status", "cli-lrs-status", vec![])),
        )
        .subcommand(a.sub(
            "doctor",
            "cli-doctor",
            vec![
                a.json(),
                a.flag("labs", "classroom-cli-doctor-labs"),
                a.flag("apparmor-profile", "classroom-cli-apparmor-profile").requires("labs"),
            ],
        ))
}

fn quiz_command(a: &ArgKit) -> Command {
    a.sub(
        "quiz",
        "cli-quiz",
        vec![
            a.id("cli-quiz-id"),
            a.plain(),
            a.json(),
            a.flag("retry-wrong", "cli-retry-wrong"),
            a.option("seed", "N", "cli-seed")
                .value_parser(clap::value_parser!(u64)),
        ],
    )
}

fn lab_command(a: &ArgKit) -> Command {
    a.sub(
        "lab",
        "cli-lab",
        vec![
            a.id("cli-lab-id"),
            a.option("script", "FILE", "cli-script")
                .value_parser(clap::value_parser!(PathBuf)),
            a.option("line-timeout", "SECONDS", "cli-line-timeout")
                .requires("script")
                .value_parser(clap::value_parser!(u64).range(1..=86_400)),
            a.json(),
        ],
    )
}

fn progress_command(a: &ArgKit) -> Command {
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

fn report_command(a: &ArgKit) -> Command {
    a.sub(
        "report",
        "cli-report",
        vec![
            Arg::new("files")
                .num_args(1..)
                .required_unless_present("lrs")
                .value_name("FILE")
                .value_parser(clap::value_parser!(PathBuf))
                .help(a.t("cli-report-files"))
                .help_heading(a.arguments.clone()),
            a.flag("csv", "cli-csv"),
            a.flag("json", "cli-report-json"),
            a.flag("lrs", "cli-report-lrs"),
            a.flag("trust-new-keys", "cli-report-trust-new-keys"),
        ],
    )
}

/// What the commands' arguments are made of, with help texts and headings in the learner's
/// language: clap lays out the sections, only the words are ours.
struct ArgKit<'a> {
    i18n: &'a I18n,
    template: String,
    options: String,
    arguments: String,
}

impl<'a> ArgKit<'a> {
    fn new(i18n: &'a I18n) -> Self {
        ArgKit {
            i18n,
            template: format!(
                "{{about}}\n\n{}: {{usage}}\n\n{{all-args}}\n",
                i18n.t("cli-usage")
            ),
            options: i18n.t("cli-options"),
            arguments: i18n.t("cli-arguments"),
        }
    }

    fn t(&self, id: &str) -> String {
        self.i18n.t(id)
    }

    fn help(&self) -> Arg {
        Arg::new("help")
            .short('h')
            .long("help")
            .action(ArgAction::Help)
            .help(self.t("cli-help"))
            .help_heading(self.options.clone())
    }

    fn flag(&self, name: &'static str, help: &str) -> Arg {
        Arg::new(name)
            .long(name)
            .action(ArgAction::SetTrue)
            .help(self.t(help))
            .help_heading(self.options.clone())
    }

    /// `--name VALUE`.
    fn option(&self, name: &'static str, value: &'static str, help: &str) -> Arg {
        Arg::new(name)
            .long(name)
            .value_name(value)
            .help(self.t(help))
            .help_heading(self.options.clone())
    }

    fn json(&self) -> Arg {
        self.flag("json", "cli-json")
    }

    fn plain(&self) -> Arg {
        self.flag("plain", "cli-plain")
    }

    fn id(&self, help: &str) -> Arg {
        Arg::new("id")
            .required(true)
            .value_name("ID")
            .help(self.t(help))
            .help_heading(self.arguments.clone())
    }

    /// A subcommand; the help flag goes last so that the arguments' section comes before the
    /// options'.
    fn sub(&self, name: &'static str, about: &str, args: Vec<Arg>) -> Command {
        Command::new(name)
            .about(self.t(about))
            .help_template(self.template.clone())
            .subcommand_help_heading(self.t("cli-commands"))
            .disable_help_flag(true)
            .args(args)
            .arg(self.help())
    }
}

fn not_yet(i18n: &I18n, what: &str) -> i32 {
    eprintln!("{}", i18n.ta("cli-not-yet", &[("what", what.into())]));
    EXIT_USAGE
}

/// Prints diagnostics as `path:line:col: error: message`. The severity words stay English so
/// editors and CI problem matchers can read them; the message is in the learner's language.
fn print_diagnostics(i18n: &I18n, diags: &Diagnostics, out: &mut impl Write) -> io::Result<()> {
    for d in &diags.items {
        let sev = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        writeln!(
            out,
            "{}:{}:{}: {sev}: {}",
            d.path,
            d.line,
            d.col,
            i18n.msg(&d.msg)
        )?;
    }
    Ok(())
}

fn read_tree(
    i18n: &I18n,
    dir: Option<PathBuf>,
    diags: &mut Diagnostics,
) -> Result<ContentTree, i32> {
    match dir {
        None => Ok(ContentTree::embedded()),
        Some(d) if is_archive(&d) => ContentTree::from_archive(&d, diags).map_err(|m| {
            eprintln!("{}", i18n.msg(&m));
            EXIT_USAGE
        }),
        Some(d) => ContentTree::from_dir(&d, diags).map_err(|m| {
            eprintln!("{}", i18n.msg(&m));
            EXIT_USAGE
        }),
    }
}

/// Loads the course; a pack with errors is refused with its diagnostics (warnings are left to
/// `check`, so a half-translated pack still runs).
fn load_course(i18n: &I18n, dir: Option<PathBuf>) -> Result<(Course, Pack), i32> {
    let mut read_diags = Diagnostics::default();
    let tree = read_tree(i18n, dir.clone(), &mut read_diags)?;
    let (course, pack, mut diags) = content::load_pack(&tree);
    diags.items.extend(read_diags.items);
    if diags.error_count() > 0 {
        diags.items.retain(|d| d.severity == Severity::Error);
        let _ = print_diagnostics(i18n, &diags, &mut io::stderr());
        let dir = dir.map(|d| d.display().to_string()).unwrap_or_default();
        eprintln!(
            "{}",
            i18n.ta(
                "cli-content-has-errors",
                &[("count", diags.error_count().into()), ("dir", dir.into())]
            )
        );
        return Err(EXIT_FAIL);
    }
    Ok((course, pack))
}

/// Remembers the pack the app was opened with, for the next runs without `--content`.
fn remember_content(dir: Option<&std::path::Path>) {
    let value = dir.map(|d| {
        std::fs::canonicalize(d)
            .unwrap_or_else(|_| d.to_path_buf())
            .display()
            .to_string()
    });
    if let Ok(store) = Store::locate() {
        let _ = store.update(|p| p.settings.content = value);
    }
}

/// A pack handed out as one file.
fn is_archive(path: &std::path::Path) -> bool {
    let name = path.to_string_lossy();
    (name.ends_with(".tar.gz") || name.ends_with(".tgz")) && path.is_file()
}

/// `ROCM_LEARN_CONTENT`: the pack a classroom machine opens without `--content` (`builtin`, or
/// empty, for the built-in course).
fn content_from_env() -> Option<PathBuf> {
    std::env::var_os(CONTENT_ENV)
        .filter(|v| !v.is_empty() && v != crate::content::pack::BUILTIN)
        .map(PathBuf::from)
}

pub const CONTENT_ENV: &str = "ROCM_LEARN_CONTENT";

/// The course-wide answer cues, after the summary: how often the right option is the longest
/// (ties counted) per language, and how often each position holds it.
fn print_cues(i18n: &I18n, quizzes: &[content::model::Quiz], out: &mut impl Write) {
    use content::option_stats::{Cues, letter};
    let cues = Cues::of(quizzes);
    if cues.questions == 0 {
        return;
    }
    let longest: Vec<String> = Lang::ALL
        .iter()
        .map(|&l| format!("{} {}", l.code(), cues.share(cues.longest[l as usize])))
        .collect();
    let positions: Vec<String> = cues
        .positions
        .iter()
        .enumerate()
        .map(|(i, &n)| format!("{} {}", letter(i), cues.share(n)))
        .collect();
    let _ = writeln!(
        out,
        "{}",
        i18n.ta(
            "check-cues-longest",
            &[("shares", longest.join(", ").into())]
        )
    );
    let _ = writeln!(
        out,
        "{}",
        i18n.ta(
            "check-cues-position",
            &[("shares", positions.join(", ").into())]
        )
    );
}

/// `check [--stats] [--no-labs]`: every problem of a content tree; for a pack, also builds
/// every lab's machine and (without `--no-labs`) runs its solution and scripts in the sandbox.
fn cmd_check(i18n: &I18n, dir: Option<PathBuf>, stats: bool, labs: bool) -> i32 {
    let mut diags = Diagnostics::default();
    let tree = match read_tree(i18n, dir, &mut diags) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let (course, load_diags) = content::load(&tree);
    diags.items.extend(load_diags.items);
    crate::proof::machines(&tree, &course, &mut diags);
    diags.sort();
    let mut out = io::stdout().lock();
    let _ = print_diagnostics(i18n, &diags, &mut out);
    if stats {
        let _ = writeln!(out, "{}", i18n.t("check-stats-title"));
        let _ = write!(
            out,
            "{}",
            content::option_stats::table(
                &course.quizzes,
                &i18n.t("check-stats-quiz"),
                &i18n.t("check-stats-course")
            )
        );
        let _ = writeln!(out, "{}\n", i18n.t("check-stats-legend"));
    }
    // Labs run before the summary: "No errors" is said only when there are none.
    let proof = if labs && !tree.is_embedded() && diags.error_count() == 0 {
        crate::proof::labs(&tree, &course, i18n, &mut |id| {
            eprintln!(
                "{}",
                i18n.ta("classroom-check-running", &[("lab", id.into())])
            );
        })
    } else {
        crate::proof::Proof::default()
    };
    for (lab, n) in &proof.ran {
        let _ = writeln!(
            out,
            "{}",
            i18n.ta(
                "classroom-check-scripts-ran",
                &[("lab", lab.as_str().into()), ("count", (*n).into())]
            )
        );
    }
    for path in &proof.unmatched {
        let _ = writeln!(
            out,
            "{}",
            i18n.ta(
                "classroom-check-unmatched",
                &[("path", path.as_str().into())]
            )
        );
    }
    for f in &proof.failures {
        let _ = writeln!(
            out,
            "{}: {}",
            f.place,
            i18n.ta(
                "classroom-check-lab-failed",
                &[
                    ("lab", f.lab.as_str().into()),
                    ("what", f.what.as_str().into()),
                    ("reason", f.reason.as_str().into())
                ]
            )
        );
    }
    let errors = diags.error_count() + proof.failures.len();
    let questions: usize = course.quizzes.iter().map(|q| q.questions.len()).sum();
    let _ = writeln!(
        out,
        "{}",
        i18n.ta(
            "check-summary",
            &[
                ("errors", errors.into()),
                (
                    "warnings",
                    (diags.warning_count() + proof.unmatched.len()).into()
                ),
                ("lessons", course.lessons.len().into()),
                ("quizzes", course.quizzes.len().into()),
                ("questions", questions.into()),
                ("terms", course.glossary.len().into()),
                ("labs", course.labs.len().into()),
            ]
        )
    );
    print_cues(i18n, &course.quizzes, &mut out);
    if errors > 0 { EXIT_FAIL } else { EXIT_OK }
}

fn cmd_list(i18n: &I18n, course: &Course, json: bool) -> i32 {
    let lang = i18n.lang();
    let mut out = io::stdout().lock();
    if json {
        let v = serde_json::json!({
            "lang": lang.code(),
            "lessons": course.lessons.iter().map(|l| serde_json::json!({
                "id": l.id,
                "title": l.title.get(lang),
                "languages": Lang::ALL.iter().filter(|x| l.has_lang(**x)).map(|x| x.code()).collect::<Vec<_>>(),
                "quiz": l.quiz,
                "labs": l.labs,
            })).collect::<Vec<_>>(),
            "quizzes": course.quizzes.iter().map(|q| serde_json::json!({
                "id": q.id,
                "title": q.title.get(lang),
                "questions": q.questions.len(),
                "lesson": q.lesson,
            })).collect::<Vec<_>>(),
            "labs": course.labs.iter().map(|l| serde_json::json!({
                "id": l.id,
                "title": l.title.get(lang),
                "lesson": l.lesson,
                "steps": l.steps.len(),
            })).collect::<Vec<_>>(),
        });
        let _ = writeln!(out, "{}", serde_json::to_string_pretty(&v).expect("json"));
        return EXIT_OK;
    }
    let width = course
        .lessons
        .iter()
        .map(|l| l.id.len())
        .chain(course.quizzes.iter().map(|q| q.id.len()))
        .chain(course.labs.iter().map(|l| l.id.len()))
        .max()
        .unwrap_or(0);
    let _ = writeln!(out, "{}", i18n.t("list-lessons"));
    for l in &course.lessons {
        let _ = writeln!(out, "  {:width$}  {}", l.id, plain::loc(i18n, &l.title));
    }
    let _ = writeln!(out, "\n{}", i18n.t("list-quizzes"));
    for q in &course.quizzes {
        let _ = writeln!(
            out,
            "  {:width$}  {}",
            q.id,
            i18n.ta(
                "list-quiz-line",
                &[
                    ("title", plain::loc(i18n, &q.title).into()),
                    ("count", q.questions.len().into())
                ]
            )
        );
    }
    let _ = writeln!(out, "\n{}", i18n.t("list-labs"));
    for l in &course.labs {
        let _ = writeln!(out, "  {:width$}  {}", l.id, plain::loc(i18n, &l.title));
    }
    if course.labs.is_empty() {
        let _ = writeln!(out, "  {}", i18n.t("list-none-yet"));
    }
    EXIT_OK
}

fn unknown_id(i18n: &I18n, kind: &str, id: &str, known: Vec<&str>) -> i32 {
    eprintln!(
        "{}",
        i18n.ta(
            "cli-unknown-id",
            &[
                ("kind", kind.into()),
                ("id", id.into()),
                ("known", known.join(", ").into())
            ]
        )
    );
    EXIT_USAGE
}

/// Opens the store of this pack's progress; problems are reported but never stop the learner.
/// With `ROCM_LEARN_SUBMIT_DIR` set, every finished item also writes the learner's export there.
fn open_store(i18n: &I18n, course: &Course, pack: &Pack) -> Option<Store> {
    let store = match Store::locate() {
        Ok(s) => s.for_pack(pack).with_course(course),
        Err(e) => {
            eprintln!("{}", i18n.msg(&e.0));
            return None;
        }
    };
    let submit = std::env::var_os(SUBMIT_ENV)
        .filter(|d| !d.is_empty())
        .map(PathBuf::from);
    let lrs = crate::lrs::Config::from_env();
    if submit.is_none() && lrs.is_none() {
        return Some(store);
    }
    let course = std::sync::Arc::new(course.clone());
    let pack = pack.clone();
    let machine = crate::export::machine_name();
    let submitter = submit.map(|dir| {
        std::sync::Arc::new(Submitter {
            store: store.clone(),
            course,
            pack: pack.clone(),
            machine: machine.clone(),
            dir,
            last: std::sync::Mutex::new(None),
            deferred: std::sync::atomic::AtomicBool::new(false),
        })
    });
    Some(store.on_finish(std::sync::Arc::new(
        move |p: &Progress, saved: &progress::Saved| {
            let learner = crate::export::learner_name(p.learner.as_deref());
            let data = progress::base_dir().map_err(|e| e.0)?;
            if let Some(cfg) = &lrs {
                queue_statements(&data, cfg, &pack, &learner, &machine, &saved.events)?;
            }
            match &submitter {
                Some(s) => s.saved(p, saved.finished),
                None => Ok(()),
            }
        },
    )))
}

/// Writes the learner's export to the class submit folder: at once when something is
/// finished, else at most every `SUBMIT_DEBOUNCE`, the last change always written (later, from
/// a thread) so that a learner who stops mid-lab still shows where.
struct Submitter {
    store: Store,
    course: std::sync::Arc<Course>,
    pack: Pack,
    machine: String,
    dir: PathBuf,
    last: std::sync::Mutex<Option<std::time::Instant>>,
    deferred: std::sync::atomic::AtomicBool,
}

impl Submitter {
    fn saved(
        self: &std::sync::Arc<Self>,
        p: &Progress,
        finished: bool,
    ) -> Result<(), content::Msg> {
        use std::sync::atomic::Ordering;
        let wait = {
            let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
            match *last {
                Some(t) if !finished && t.elapsed() < SUBMIT_DEBOUNCE => {
                    Some(SUBMIT_DEBOUNCE - t.elapsed())
                }
                _ => {
                    *last = Some(std::time::Instant::now());
                    None
                }
            }
        };
        let Some(wait) = wait else {
            return self.write(p);
        };
        if !self.deferred.swap(true, Ordering::SeqCst) {
            let me = self.clone();
            let _ = std::thread::Builder::new()
                .name("submit".into())
                .spawn(move || {
                    std::thread::sleep(wait);
                    me.deferred.store(false, Ordering::SeqCst);
                    *me.last.lock().unwrap_or_else(|e| e.into_inner()) =
                        Some(std::time::Instant::now());
                    if let Ok((p, _)) = me.store.load() {
                        let _ = me.write(&p);
                    }
                });
        }
        Ok(())
    }

    fn write(&self, p: &Progress) -> Result<(), content::Msg> {
        let learner = crate::export::learner_name(p.learner.as_deref());
        let events = self.store.log();
        let stamp = crate::export::Stamp {
            pack: &self.pack,
            learner: &learner,
            machine: &self.machine,
            now: progress::now(),
            events: &events,
        };
        let mut export = crate::export::build(p, &self.course, &stamp);
        progress::base_dir()
            .map_err(|e| std::io::Error::other(e.to_string()))
            .and_then(|data| export.sign(&data))
            .and_then(|()| crate::export::submit(&self.dir, &export))
            .map(drop)
            .map_err(|e| {
                content::Msg::new("classroom-submit-failed")
                    .arg("dir", self.dir.display())
                    .arg("error", e)
            })
    }
}

/// Queues the statements of new events and starts sending them in the background.
fn queue_statements(
    data: &std::path::Path,
    cfg: &crate::lrs::Config,
    pack: &Pack,
    learner: &str,
    machine: &str,
    events: &[crate::events::Event],
) -> Result<(), content::Msg> {
    let install = crate::sign::install_key(data)
        .map(|k| crate::events::hex(k.verifying_key().as_bytes()))
        .unwrap_or_default();
    let origin = crate::xapi::Origin {
        learner,
        pack: &pack.id,
        version: &pack.version,
        machine,
        install: &install,
    };
    let statements: Vec<serde_json::Value> = events
        .iter()
        .map(|e| crate::xapi::statement(e, &origin))
        .collect();
    crate::lrs::enqueue(data, &statements).map_err(|e| {
        content::Msg::new("lrs-queue-failed")
            .arg("dir", crate::lrs::queue_dir(data).display())
            .arg("error", e)
    })?;
    crate::lrs::flush_in_background(data.to_path_buf(), cfg.clone());
    Ok(())
}

/// `lrs status`: sends what waits, then says how many statements still wait and why.
fn cmd_lrs_status(i18n: &I18n) -> i32 {
    let data = match progress::base_dir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{}", i18n.msg(&e.0));
            return EXIT_FAIL;
        }
    };
    let cfg = crate::lrs::Config::from_env();
    let status = match &cfg {
        Some(cfg) => crate::lrs::flush(&data, cfg),
        None => crate::lrs::status(&data),
    };
    let waiting = crate::lrs::waiting(&data).len();
    let url = cfg.as_ref().map_or(String::new(), |c| c.base.clone());
    println!(
        "{}",
        i18n.ta(
            "lrs-status-waiting",
            &[("count", waiting.into()), ("url", url.as_str().into())]
        )
    );
    if cfg.is_none() {
        println!(
            "{}",
            i18n.ta("lrs-not-configured", &[("env", crate::lrs::URL_ENV.into())])
        );
    }
    let why = match status.problem.as_str() {
        "" => None,
        "credentials" => Some("lrs-problem-credentials"),
        "rejected" => Some("lrs-problem-rejected"),
        _ => Some("lrs-problem-unreachable"),
    };
    match why {
        Some(id) => {
            eprintln!(
                "{}",
                i18n.ta(
                    id,
                    &[
                        ("detail", status.detail.as_str().into()),
                        ("env", crate::lrs::AUTH_ENV.into())
                    ]
                )
            );
            EXIT_FAIL
        }
        None => EXIT_OK,
    }
}

/// `report --lrs`: the learners' events as the LRS holds them, one input per learner and
/// install, verified by the LRS's own authentication rather than by signatures.
fn lrs_inputs(i18n: &I18n) -> Result<Vec<crate::report::Input>, i32> {
    let Some(cfg) = crate::lrs::Config::from_env() else {
        eprintln!(
            "{}",
            i18n.ta("lrs-not-configured", &[("env", crate::lrs::URL_ENV.into())])
        );
        return Err(EXIT_USAGE);
    };
    let statements = crate::lrs::fetch_all(&cfg).map_err(|e| {
        eprintln!(
            "{}",
            i18n.ta(
                "lrs-fetch-failed",
                &[("url", cfg.base.as_str().into()), ("error", e.into())]
            )
        );
        EXIT_FAIL
    })?;
    let mut by: std::collections::BTreeMap<(String, String), crate::report::Input> =
        Default::default();
    for s in statements {
        let ext = &s["context"]["extensions"];
        let Ok(event) =
            serde_json::from_value::<crate::events::Event>(ext[crate::xapi::EXT_EVENT].clone())
        else {
            continue;
        };
        let learner = s["actor"]["account"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let install = ext[crate::xapi::EXT_INSTALL]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let pack = &ext[crate::xapi::EXT_PACK];
        let input = by
            .entry((learner.clone(), install.clone()))
            .or_insert_with(|| crate::report::Input {
                name: format!("{}/{learner}", cfg.base),
                export: crate::export::Export {
                    format: crate::export::FORMAT.into(),
                    version: crate::export::VERSION,
                    pack: crate::export::PackStamp {
                        id: pack["id"].as_str().unwrap_or_default().into(),
                        version: pack["version"].as_str().unwrap_or_default().into(),
                    },
                    learner: learner.clone(),
                    machine: pack["machine"].as_str().unwrap_or_default().into(),
                    login: String::new(),
                    exported_at: String::new(),
                    items: Vec::new(),
                    events: Vec::new(),
                    signature: None,
                },
                verdict: if install.is_empty() {
                    crate::sign::Verdict::Unsigned
                } else {
                    crate::sign::Verdict::Good(install.clone())
                },
            });
        input.export.events.push(event);
    }
    Ok(by.into_values().collect())
}

/// How often in-progress events (a step met, a question answered) reach the submit folder.
const SUBMIT_DEBOUNCE: std::time::Duration = std::time::Duration::from_secs(2);

/// The class's shared folder: each finished item writes the learner's export there.
pub const SUBMIT_ENV: &str = "ROCM_LEARN_SUBMIT_DIR";

fn save(i18n: &I18n, store: &Option<Store>, change: impl FnOnce(&mut progress::Progress)) {
    let Some(store) = store else { return };
    match store.update(change) {
        Ok((_, Some(notice))) => eprintln!("{}", i18n.msg(&notice.msg())),
        Ok(_) => {}
        Err(e) => eprintln!("{}", i18n.msg(&e.0)),
    }
}

fn cmd_lesson(i18n: &I18n, course: &Course, pack: &Pack, m: &ArgMatches) -> i32 {
    let id = item_id(m, ItemKind::Lesson);
    let Some(lesson) = course.lesson(&id) else {
        return unknown_id(i18n, "lesson", &id, ids(course, ItemKind::Lesson));
    };
    // Until the full-screen reader exists, every terminal gets the plain rendering.
    let mut out = io::stdout().lock();
    if plain::lesson::render(course, lesson, i18n, &mut out).is_err() {
        return EXIT_OK; // stdout closed (e.g. piped into `head`): nothing left to do
    }
    let store = open_store(i18n, course, pack);
    save(i18n, &store, |p| {
        p.apply(&progress::Change::Opened(Place {
            kind: ItemKind::Lesson,
            id: lesson.id.clone(),
        }));
        let position = p.lessons.get(&lesson.id).map_or(0, |l| l.position);
        p.apply(&progress::Change::Lesson {
            id: lesson.id.clone(),
            position,
            finished: true,
            secs: 0,
        });
    });
    EXIT_OK
}

fn cmd_quiz(i18n: &I18n, course: &Course, pack: &Pack, m: &ArgMatches) -> i32 {
    let id = item_id(m, ItemKind::Quiz);
    let json = m.get_flag("json");
    let Some(quiz) = course.quiz(&id) else {
        return unknown_id(i18n, "quiz", &id, ids(course, ItemKind::Quiz));
    };
    let store = open_store(i18n, course, pack);
    // With --json, stdout carries only the result; the conversation goes to stderr.
    let mut human: Box<dyn Write> = if json {
        Box::new(io::stderr())
    } else {
        Box::new(io::stdout())
    };

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
        save(i18n, &store, |p| {
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

/// Writes to stdout, ignoring a reader that went away (`report ... | head`): `print!` would
/// panic with "Broken pipe" and exit 101.
fn print_out(text: &str) {
    let _ = io::stdout().lock().write_all(text.as_bytes());
}

/// `doctor [--json]`: the lab checks on this real machine, read-only. Problems are findings, not
/// failures: the exit status is 0 whenever the checks ran.
fn cmd_doctor(i18n: &I18n, course: &Course, json: bool) -> i32 {
    let host = crate::doctor::Host::real();
    let findings = crate::doctor::examine(&host, &course.matrix);
    let mut out = io::stdout().lock();
    if json {
        let v = crate::doctor::report::json(i18n, &findings);
        let _ = writeln!(out, "{}", serde_json::to_string_pretty(&v).expect("json"));
    } else {
        let _ = crate::doctor::report::text(i18n, &findings, &mut out);
    }
    EXIT_OK
}

/// `doctor --labs [--json]`: whether labs can run here, each problem with its fix.
fn cmd_doctor_labs(i18n: &I18n, json: bool) -> i32 {
    let host = crate::doctor::Host::real();
    let os = crate::doctor::labs::Os::current();
    // The probe's bubblewrap, kept for the question after it (which ids a lab gets).
    let bwrap = std::cell::OnceCell::new();
    let probe = || {
        crate::lab::sandbox::probe()
            .map(|path| drop(bwrap.set(path)))
            .map_err(|e| e.0)
    };
    let mut findings =
        crate::doctor::labs::examine(&host, os, crate::doctor::labs::Kernel::ask(), &probe);
    let ready = findings
        .iter()
        .any(|f| f.id == "sandbox" && f.level == crate::doctor::Level::Ok);
    if ready && let (Some(bwrap), Ok(exe)) = (bwrap.get(), std::env::current_exe()) {
        use crate::doctor::labs::MachineIds;
        let kind = match crate::lab::sandbox::mapper(bwrap, &exe) {
            Some(m) if m.is_root() => MachineIds::Root,
            Some(_) => MachineIds::Subordinate,
            None => MachineIds::One,
        };
        findings.push(crate::doctor::labs::ids(kind));
    }
    let mut out = io::stdout().lock();
    if json {
        let v = crate::doctor::report::json(i18n, &findings);
        let _ = writeln!(out, "{}", serde_json::to_string_pretty(&v).expect("json"));
    } else {
        let _ = crate::doctor::report::text_titled(i18n, "doctor-labs-title", &findings, &mut out);
    }
    EXIT_OK
}

/// `progress [--json|--csv] [--learner NAME]`: this learner's progress as a table or an export.
fn cmd_progress(i18n: &I18n, course: &Course, pack: &Pack, m: &ArgMatches) -> i32 {
    let Some(store) = open_store(i18n, course, pack) else {
        return EXIT_FAIL;
    };
    if let Some(name) = m.get_one::<String>("learner") {
        let name = name.trim().to_string();
        save(i18n, &Some(store.clone()), |p| {
            p.learner = Some(name.clone())
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
    }
    EXIT_OK
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
    save(i18n, &Some(store.clone()), |p| {
        p.apply(&progress::Change::Reset(place.clone()))
    });
    eprintln!("{}", i18n.t("progress-reset-done"));
    EXIT_OK
}

/// `report FILE|DIR|-...`: the class summary; unreadable or foreign files are named and skipped.
fn cmd_report(i18n: &I18n, course: &Course, pack: &Pack, m: &ArgMatches) -> i32 {
    let mut exports = if m.get_flag("lrs") {
        match lrs_inputs(i18n) {
            Ok(i) => i,
            Err(code) => return code,
        }
    } else {
        Vec::new()
    };
    let mut skipped = 0;
    let mut skip = |file: &str, reason: String| {
        skipped += 1;
        eprintln!(
            "{}",
            i18n.ta(
                "report-skipped",
                // Others name the files of a submit folder and write their contents.
                &[
                    ("file", lab::sanitize::text(file).into()),
                    ("reason", lab::sanitize::text(&reason).into())
                ]
            )
        );
    };
    for (name, text) in report_inputs(i18n, m.get_many::<PathBuf>("files").into_iter().flatten()) {
        match text.and_then(|t| crate::export::parse_checked(&t)) {
            Ok((export, verdict)) => exports.push(crate::report::Input {
                name,
                export,
                verdict,
            }),
            Err(reason) => skip(&name, reason),
        }
    }
    if exports.is_empty() {
        eprintln!("{}", i18n.t("report-no-files"));
        return EXIT_FAIL;
    }
    let mut known = crate::report::KnownKeys::load();
    let report = crate::report::build(
        &exports,
        course,
        pack,
        progress::now(),
        &known,
        m.get_flag("trust-new-keys"),
    );
    known.remember(pack, &report);
    if m.get_flag("json") {
        let json = crate::report::render_json(&report, pack, i18n);
        print_out(&format!(
            "{}\n",
            serde_json::to_string_pretty(&json).expect("json")
        ));
    } else if m.get_flag("csv") {
        print_out(&crate::report::render_csv(&report, course, pack));
    } else {
        print_out(&crate::report::render_text(&report, course, i18n, skipped));
    }
    EXIT_OK
}

/// The texts `report` reads, each with the name to show: a file, every `*.json` in a folder
/// (a class submit folder), or `-` for standard input. Others can write a submit folder, so
/// it is read through `hostfs`: no links, regular files only, each capped, never blocking.
fn report_inputs<'a>(
    i18n: &I18n,
    args: impl Iterator<Item = &'a PathBuf>,
) -> Vec<(String, Result<String, String>)> {
    use crate::hostfs::{self, Limits};
    let mut out = Vec::new();
    let cap = Limits::SUBMIT.max_file;
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).map_err(|e| e.to_string());
    for arg in args {
        if arg.as_os_str() == "-" {
            let mut bytes = Vec::new();
            let r = match io::Read::read_to_end(
                &mut io::Read::take(io::stdin(), cap + 1),
                &mut bytes,
            ) {
                Err(e) => Err(e.to_string()),
                Ok(_) if bytes.len() as u64 > cap => {
                    Err(i18n.msg(&hostfs::Refusal::TooLarge(cap).msg()))
                }
                Ok(_) => text(bytes),
            };
            out.push(("-".to_string(), r));
        } else if arg.is_dir() {
            let walk = hostfs::files_in(arg, Limits::SUBMIT, &|n| n.ends_with(".json"));
            for (name, bytes) in walk.files {
                out.push((arg.join(name).display().to_string(), text(bytes)));
            }
            for (name, why) in walk.refused {
                out.push((
                    arg.join(name).display().to_string(),
                    Err(i18n.msg(&why.msg())),
                ));
            }
        } else {
            let r = hostfs::read_named(arg, cap).map_err(|why| i18n.msg(&why.msg()));
            out.push((arg.display().to_string(), r.and_then(text)));
        }
    }
    out
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
    let limit = m
        .get_one::<u64>("line-timeout")
        .map_or(lab::script::LINE_TIMEOUT, |s| {
            std::time::Duration::from_secs(*s)
        });
    for n in lab::script::run(&mut run, &lines, limit) {
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
    run.evaluate();
    if run.confined == Some(false) {
        eprintln!("{}", i18n.t("lab-unconfined"));
    }
    if let Some(h) = &run.halted {
        eprintln!("{}", lab::sanitize::text(&i18n.msg(h)));
    }
    // Everything below comes from the lab: cleaned of terminal controls before printing.
    let transcript = lab::sanitize::text(&lab::script::plain_transcript(&run.shell.transcript()));
    run.shell.kill();
    let complete = run.status.iter().all(|s| s.done);
    let steps = step_results(i18n, &run);
    // With --json, stdout carries only the result; the session goes to stderr.
    let mut human: Box<dyn Write> = if json {
        Box::new(io::stderr())
    } else {
        Box::new(io::stdout())
    };
    let _ = writeln!(human, "{}", transcript.trim_end());
    print_checklist(i18n, lab, &steps, complete, &mut human);
    if json {
        let result = lab::script::Result {
            lab: lab.id.clone(),
            complete,
            steps,
        };
        print_out(&format!(
            "{}\n",
            serde_json::to_string(&result).expect("json")
        ));
    }
    save_lab_script(i18n, course, pack, lab, &run, complete);
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
fn start_script_run(i18n: &I18n, lab: &content::Lab) -> Result<lab::run::LabRun, i32> {
    let exe = std::env::current_exe().map_err(|e| {
        eprintln!("{e}");
        EXIT_FAIL
    })?;
    let opts = lab::run::Options {
        exe,
        rows: lab::script::ROWS,
        cols: lab::script::COLS,
        relogin: i18n.ta("lab-relogin", &[("user", lab.user.as_str().into())]),
        transcript: true,
        lang: i18n.lang(),
    };
    lab::run::LabRun::start(lab, opts, lab::run::no_notify()).map_err(|e| {
        eprintln!("{}", lab::sanitize::text(&i18n.msg(&e.0)));
        EXIT_FAIL
    })
}

/// Each step's result, its reason (from the lab) cleaned of terminal controls.
fn step_results(i18n: &I18n, run: &lab::run::LabRun) -> Vec<lab::script::StepResult> {
    run.lab
        .steps
        .iter()
        .zip(&run.status)
        .map(|(st, s)| lab::script::StepResult {
            id: st.id.clone(),
            done: s.done,
            why: s.why.as_ref().map(|w| lab::sanitize::text(&i18n.msg(w))),
        })
        .collect()
}

/// The checklist under the transcript: each step ticked or not, with why, then the count. A
/// reader that went away stops nothing: every write is tried.
fn print_checklist(
    i18n: &I18n,
    lab: &content::Lab,
    steps: &[lab::script::StepResult],
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

/// Records the scripted session like one in the app: a lab it completes anew is marked as
/// completed by a script.
fn save_lab_script(
    i18n: &I18n,
    course: &Course,
    pack: &Pack,
    lab: &content::Lab,
    run: &lab::run::LabRun,
    complete: bool,
) {
    let store = open_store(i18n, course, pack);
    let done_ids = run.steps_done();
    let secs = run.started.elapsed().as_secs();
    save(i18n, &store, |p| {
        p.record(crate::events::What::Lab {
            item: lab.id.clone(),
            steps_done: done_ids,
            complete,
            hints: 0,
            secs,
            session_over: true,
            confined: run.confined != Some(false),
            by_script: true,
        });
    });
}
