//! `list [--json]`: the catalogue, lesson, quiz and lab ids with their titles.

use std::io::{self, Write};

use clap::{Arg, ArgMatches};

use super::Define::Args;
use super::Runs::OnCourse;
use super::arg_kit::ArgKit;
use super::{EXIT_OK, Loaded, Sub};
use crate::content::Course;
use crate::i18n::I18n;
use crate::lang::Lang;
use crate::plain;

pub(super) const SUB: Sub = Sub::new("list", Args("cli-list", args), OnCourse(run));

fn args(a: &ArgKit) -> Vec<Arg> {
    vec![a.json()]
}

fn run(cx: Loaded, m: &ArgMatches) -> i32 {
    print(&cx.i18n, &cx.course, m.get_flag("json"))
}

/// The catalogue on stdout, as a table or as JSON.
pub(super) fn print(i18n: &I18n, course: &Course, json: bool) -> i32 {
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

#[cfg(test)]
mod tests {
    use clap::error::ErrorKind;

    use super::super::parse;

    #[test]
    fn list_takes_json_and_nothing_else() {
        let m = parse(&["list", "--json"]).expect("parses");
        assert!(m.subcommand_matches("list").expect("list").get_flag("json"));
        assert_eq!(
            parse(&["list", "x"]).err(),
            Some(ErrorKind::UnknownArgument)
        );
        assert_eq!(
            parse(&["list", "--plain"]).err(),
            Some(ErrorKind::UnknownArgument)
        );
    }
}
