//! `lesson ID [--plain]`: a lesson in the app, or rendered as plain text.

use std::io;

use clap::{Arg, ArgMatches};

use super::Define::Args;
use super::Runs::OnCourse;
use super::arg_kit::ArgKit;
use super::common::{item_id, plain_mode, save, unknown_id};
use super::full_screen::{cmd_app, lesson_target};
use super::progress_store::open_store;
use super::{EXIT_OK, Loaded, Sub};
use crate::content::{Course, Pack};
use crate::i18n::I18n;
use crate::plain;
use crate::progress::{self, ItemKind, Place, ids};

pub(super) const SUB: Sub = Sub::new("lesson", Args("cli-lesson", args), OnCourse(run));

fn args(a: &ArgKit) -> Vec<Arg> {
    vec![a.id("cli-lesson-id"), a.plain()]
}

fn run(cx: Loaded, m: &ArgMatches) -> i32 {
    let Loaded { i18n, course, pack } = cx;
    if plain_mode(m) {
        cmd_lesson(&i18n, &course, &pack, m)
    } else {
        cmd_app(i18n, course, &pack, lesson_target(m))
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
    save(i18n, store.as_ref(), |p| {
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

#[cfg(test)]
mod tests {
    use clap::error::ErrorKind;

    use super::super::parse;

    #[test]
    fn lesson_needs_one_id() {
        let m = parse(&["lesson", "gpu-basics", "--plain"]).expect("parses");
        assert!(
            m.subcommand_matches("lesson")
                .expect("lesson")
                .get_flag("plain")
        );
        assert_eq!(
            parse(&["lesson"]).err(),
            Some(ErrorKind::MissingRequiredArgument)
        );
        assert_eq!(
            parse(&["lesson", "a", "b"]).err(),
            Some(ErrorKind::UnknownArgument)
        );
        assert_eq!(
            parse(&["lesson", "a", "--json"]).err(),
            Some(ErrorKind::UnknownArgument)
        );
    }
}
