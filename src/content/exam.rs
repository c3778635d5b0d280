//! Exams: `exams/<name>.toml`, a number of questions drawn from named quizzes, a time limit and
//! a pass mark. The questions stay in their quizzes (one answer key); an exam only picks.

use super::diag::{Diagnostics, Msg, SourceFile};
use super::model::Exam;
use super::refs::{Kind, Refs};
use super::toml_read;
use super::tree::ContentTree;

/// A time limit past this (ten hours) is a typo, not an exam.
const MAX_MINUTES: i64 = 600;

pub fn load_all(tree: &ContentTree, diags: &mut Diagnostics, refs: &mut Refs) -> Vec<Exam> {
    let mut exams = Vec::new();
    for (path, text) in tree.under("exams") {
        let file = SourceFile::new(tree.display(path), text);
        if !path.ends_with(".toml") {
            diags.warning(&file, 0, Msg::new("check-exam-stray-file"));
            continue;
        }
        if let Some(e) = load_one(&file, diags, refs) {
            if exams.iter().any(|x: &Exam| x.id == e.id) {
                diags.error(&file, 0, Msg::new("check-exam-duplicate").arg("id", &e.id));
                continue;
            }
            exams.push(e);
        }
    }
    exams
}

fn load_one(file: &SourceFile, diags: &mut Diagnostics, refs: &mut Refs) -> Option<Exam> {
    toml_read::read_file(file, diags, "exam", |cx, mut f| {
        let id = f.req_id(cx, "id");
        let title = f.localized(cx, "title", true);
        let from = f.str_list(cx, "from");
        let questions = f.int(cx, "questions");
        let minutes = f.int(cx, "time_limit_minutes");
        let pass = f.int(cx, "pass_percent");
        let at = f.at();
        f.finish(cx);
        if from.is_empty() {
            cx.error(at, Msg::new("check-exam-no-quizzes"));
        }
        for q in &from {
            refs.want(Kind::Quiz, q.get_ref(), file, q.span().start);
        }
        let count = match questions {
            Some(n) if *n.get_ref() >= 1 && *n.get_ref() <= 200 => Some(*n.get_ref() as usize),
            Some(n) => {
                let m = Msg::new("check-exam-range")
                    .arg("key", "questions")
                    .arg("min", 1)
                    .arg("max", 200);
                cx.error(n.span().start, m);
                None
            }
            None => {
                cx.error(at, Msg::new("check-exam-missing").arg("key", "questions"));
                None
            }
        };
        let limit = match minutes {
            Some(n) if *n.get_ref() >= 1 && *n.get_ref() <= MAX_MINUTES => {
                Some(*n.get_ref() as u64 * 60)
            }
            Some(n) => {
                let m = Msg::new("check-exam-range")
                    .arg("key", "time_limit_minutes")
                    .arg("min", 1)
                    .arg("max", MAX_MINUTES);
                cx.error(n.span().start, m);
                None
            }
            None => {
                cx.error(
                    at,
                    Msg::new("check-exam-missing").arg("key", "time_limit_minutes"),
                );
                None
            }
        };
        let pass = match pass {
            Some(n) if (1..=100).contains(n.get_ref()) => Some(*n.get_ref() as u8),
            Some(n) => {
                let m = Msg::new("check-exam-range")
                    .arg("key", "pass_percent")
                    .arg("min", 1)
                    .arg("max", 100);
                cx.error(n.span().start, m);
                None
            }
            None => {
                cx.error(
                    at,
                    Msg::new("check-exam-missing").arg("key", "pass_percent"),
                );
                None
            }
        };
        let id = id?;
        if from.is_empty()
            || !refs.define(cx.diags, Kind::Exam, id.get_ref(), file, id.span().start)
        {
            return None;
        }
        Some(Exam {
            id: id.into_inner(),
            title: title?.into_inner(),
            from: from.into_iter().map(toml::Spanned::into_inner).collect(),
            questions: count?,
            time_limit_secs: limit?,
            pass_percent: pass?,
        })
    })
}
