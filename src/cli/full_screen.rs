//! The full-screen app: the home screen when no command is given, or opened on an item.

use clap::ArgMatches;

use super::common::{item_id, terminal_ok, unknown_id};
use super::progress_store::open_store;
use super::{EXIT_FAIL, EXIT_OK, Loaded};
use crate::content::{Course, Pack};
use crate::i18n::I18n;
use crate::markdown::Target;
use crate::progress::{ItemKind, Progress, Store, ids};
use crate::tui::theme::Theme;
use crate::tui::{self, App};

/// No command: the app, or without a terminal to draw on, the catalogue and how to use it line
/// by line.
pub(super) fn home(cx: Loaded) -> i32 {
    let Loaded { i18n, course, pack } = cx;
    let pack = &pack;
    if terminal_ok() {
        cmd_app(i18n, course, pack, None)
    } else {
        let code = super::list_course::print(&i18n, &course, false);
        eprintln!("\n{}", i18n.t("cli-plain-hint"));
        code
    }
}

pub(super) fn lesson_target(m: &ArgMatches) -> Option<Target> {
    Some(Target::Lesson(item_id(m, ItemKind::Lesson)))
}

pub(super) fn quiz_target(m: &ArgMatches) -> Option<Target> {
    Some(Target::Quiz(item_id(m, ItemKind::Quiz)))
}

/// The full-screen app, optionally opened on a lesson or quiz.
pub(super) fn cmd_app(i18n: I18n, course: Course, pack: &Pack, open: Option<Target>) -> i32 {
    cmd_app_seeded(i18n, course, pack, open, None)
}

/// The app with quiz option orders drawn from `seed` (`quiz ID --seed N`) instead of the clock.
pub(super) fn cmd_app_seeded(
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
    let (progress, notice) = match store.as_ref().map(Store::load) {
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
    let class = Box::new(crate::serve::app_side::AppSide);
    match tui::run::run(app, store, open, class) {
        Ok(()) => EXIT_OK,
        Err(e) => {
            eprintln!("{e}");
            EXIT_FAIL
        }
    }
}
