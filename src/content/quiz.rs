//! Quizzes: `quizzes/<name>.toml`, every language in one file so the answer key exists once.

use std::collections::HashMap;

use super::diag::{Diagnostics, Msg, SourceFile};
use super::model::{Choice, Question, Questions, Quiz};
use super::option_stats;
use super::refs::{Kind, Refs};
use super::toml_read::{self, Cx, Fields};
use super::tree::ContentTree;
use crate::lang::Lang;

/// More options than this cannot be answered with a single letter or digit in plain mode.
pub const MAX_OPTIONS: usize = 9;

/// `full`: build and check every question now; otherwise (the built-in course at the app's
/// start, see `content::load_pack`) count them and build them when the quiz is opened.
pub fn load_all(
    tree: &ContentTree,
    full: bool,
    diags: &mut Diagnostics,
    refs: &mut Refs,
) -> Vec<Quiz> {
    let mut quizzes = Vec::new();
    for (path, text) in tree.under("quizzes") {
        let file = SourceFile::new(tree.display(path), text);
        if !path.ends_with(".toml") {
            diags.warning(&file, 0, Msg::new("check-quiz-stray-file"));
            continue;
        }
        if let Some(q) = load_one(&file, full, diags, refs) {
            quizzes.push(q);
        }
    }
    quizzes
}

fn load_one(
    file: &SourceFile,
    full: bool,
    diags: &mut Diagnostics,
    refs: &mut Refs,
) -> Option<Quiz> {
    toml_read::read_file(file, diags, "quiz", |cx, mut f| {
        let id = f.req_id(cx, "id");
        let title = f.localized(cx, "title", true);
        let lesson = f.string(cx, "lesson");
        let question_tables = f.tables(cx, "questions");
        f.finish(cx);

        let had_questions = !question_tables.is_empty();
        let questions = if full {
            Questions::from(read_questions(cx, question_tables))
        } else {
            Questions::later(
                question_tables.len(),
                file.path.clone(),
                file.text.clone(),
                build_questions,
            )
        };

        let (id, title) = (id?, title?);
        if questions.is_empty() {
            // Questions that were there but broken have their own errors already.
            if !had_questions {
                cx.error(0, Msg::new("check-quiz-empty").arg("id", id.get_ref()));
            }
            return None;
        }
        if !refs.define(cx.diags, Kind::Quiz, id.get_ref(), file, id.span().start) {
            return None;
        }
        if let Some(l) = &lesson {
            refs.want(Kind::Lesson, l.get_ref(), file, l.span().start);
        }
        let id_at = id.span().start;
        let quiz = Quiz {
            id: id.into_inner(),
            title: title.into_inner(),
            lesson: lesson.map(toml::Spanned::into_inner),
            questions,
        };
        // A warning for `check`; the app's start leaves the questions unbuilt.
        for lang in Lang::ALL.into_iter().filter(|_| full) {
            let s = option_stats::of_quiz(&quiz, lang);
            if s.too_many() {
                cx.diags.warning(
                    file,
                    id_at,
                    Msg::new("content-longest-right")
                        .arg("quiz", &quiz.id)
                        .arg("lang", lang)
                        .arg("longest", s.longest)
                        .arg("questions", s.questions),
                );
            }
        }
        Some(quiz)
    })
}

/// The questions that read cleanly, each id once; problems go to `cx`.
fn read_questions(cx: &mut Cx, tables: Vec<(usize, &toml::de::DeTable)>) -> Vec<Question> {
    let mut questions = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (at, t) in tables {
        let Some(q) = load_question(cx, at, t) else {
            continue;
        };
        if let Some(&first) = seen.get(&q.0) {
            let (line, col) = cx.file.position(first);
            let first = format!("{}:{line}:{col}", cx.file.path);
            cx.error(
                q.1,
                Msg::new("check-duplicate-id")
                    .arg("kind", "question")
                    .arg("id", &q.0)
                    .arg("first", first),
            );
            continue;
        }
        seen.insert(q.0.clone(), q.1);
        questions.push(q.2);
    }
    questions
}

/// A quiz file's questions, built when the quiz is first opened. The file was read at start
/// and, for the built-in course, checked by `check` and the tests: nothing is reported here.
fn build_questions(path: &str, text: &str) -> Vec<Question> {
    let file = SourceFile::new(path, text);
    let mut diags = Diagnostics::default();
    toml_read::read_file(&file, &mut diags, "quiz", |cx, mut f| {
        let tables = f.tables(cx, "questions");
        read_questions(cx, tables)
    })
}

/// Returns (question id, where it is defined, the question).
fn load_question(
    cx: &mut Cx,
    at: usize,
    t: &toml::de::DeTable,
) -> Option<(String, usize, Question)> {
    let mut f = Fields::new(t, at, "question");
    let id = f.req_id(cx, "id");
    let prompt = f.localized(cx, "prompt", true);
    let excerpt = f.string(cx, "excerpt");
    let option_tables = f.tables(cx, "options");
    f.finish(cx);

    let mut options = Vec::new();
    let mut correct = Vec::new();
    let mut complete = true;
    for (oat, ot) in &option_tables {
        let mut of = Fields::new(ot, *oat, "option");
        let text = of.localized(cx, "text", true);
        let is_correct = of.bool(cx, "correct").unwrap_or(false);
        let why = of.localized(cx, "why", false);
        of.finish(cx);
        if why.is_none() {
            cx.error(*oat, Msg::new("check-option-no-why"));
        }
        match (text, why) {
            (Some(text), Some(why)) => {
                if is_correct {
                    correct.push(options.len());
                }
                options.push(Choice {
                    text: text.into_inner(),
                    why: why.into_inner(),
                });
            }
            _ => complete = false,
        }
    }

    let id = id?;
    if option_tables.len() < 2 {
        cx.error(
            at,
            Msg::new("check-too-few-options").arg("id", id.get_ref()),
        );
        return None;
    }
    if option_tables.len() > MAX_OPTIONS {
        cx.error(
            at,
            Msg::new("check-too-many-options")
                .arg("id", id.get_ref())
                .arg("max", MAX_OPTIONS),
        );
        return None;
    }
    if complete && correct.len() != 1 {
        cx.error(
            at,
            Msg::new("check-correct-count")
                .arg("id", id.get_ref())
                .arg("count", correct.len()),
        );
        return None;
    }
    if !complete {
        return None;
    }
    let span = id.span().start;
    Some((
        id.get_ref().clone(),
        span,
        Question {
            id: id.into_inner(),
            prompt: prompt?.into_inner(),
            excerpt: excerpt.map(toml::Spanned::into_inner),
            options,
            answer: correct[0],
        },
    ))
}

/// Loads a quiz from text alone (fuzzing and tests); `None` when it has any error.
pub fn parse_standalone(path: &str, text: &str) -> (Option<Quiz>, Diagnostics) {
    let file = SourceFile::new(path, text);
    let mut diags = Diagnostics::default();
    let mut refs = Refs::default();
    let q = load_one(&file, true, &mut diags, &mut refs);
    (q.filter(|_| diags.error_count() == 0), diags)
}
