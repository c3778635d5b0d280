//! `rocm-learn report FILE...`: a class summary from learners' exported progress: who finished
//! what, the hardest questions (and the wrong answer most chosen), where learners got stuck in
//! labs. Files that are not exports are named and skipped; they never stop the report.

use std::collections::BTreeMap;

use crate::content::Course;
use crate::export::{Export, Status, csv_field};
use crate::i18n::I18n;
use crate::progress::ItemKind;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LearnerRow {
    pub learner: String,
    pub lessons_done: usize,
    pub quizzes_done: usize,
    /// Right answers and questions over all quizzes.
    pub right: usize,
    pub asked: usize,
    pub labs_done: usize,
    /// Quiz id -> (score, total).
    pub quizzes: BTreeMap<String, (usize, usize)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hard {
    pub quiz: String,
    pub question: String,
    /// Learners who answered it wrong at least once, and learners who answered it.
    pub wrong: usize,
    pub answered: usize,
    /// The wrong option chosen most often (1-based), and how often.
    pub top_wrong: Option<(usize, u32)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stuck {
    pub lab: String,
    pub step: String,
    pub learners: usize,
}

#[derive(Debug, Clone, Default)]
pub struct Report {
    pub learners: Vec<LearnerRow>,
    pub hardest: Vec<Hard>,
    pub stuck: Vec<Stuck>,
}

pub fn build(exports: &[Export], course: &Course) -> Report {
    let mut r = Report::default();
    let mut hard: BTreeMap<(String, String), Hard> = BTreeMap::new();
    let mut stuck: BTreeMap<(String, String), usize> = BTreeMap::new();
    for e in exports {
        let mut row = LearnerRow {
            learner: e.learner.clone(),
            lessons_done: 0,
            quizzes_done: 0,
            right: 0,
            asked: 0,
            labs_done: 0,
            quizzes: BTreeMap::new(),
        };
        for i in &e.items {
            let done = i.status == Status::Done;
            match i.kind {
                ItemKind::Lesson => row.lessons_done += done as usize,
                ItemKind::Quiz => {
                    row.quizzes_done += done as usize;
                    let total = i.total.unwrap_or(0);
                    let score = i.score.unwrap_or(0);
                    row.right += score;
                    row.asked += total;
                    row.quizzes.insert(i.item.clone(), (score, total));
                    for a in &i.answers {
                        let h = hard
                            .entry((i.item.clone(), a.question.clone()))
                            .or_insert_with(|| Hard {
                                quiz: i.item.clone(),
                                question: a.question.clone(),
                                wrong: 0,
                                answered: 0,
                                top_wrong: None,
                            });
                        h.answered += 1;
                        if a.wrong_count > 0 || !a.right {
                            h.wrong += 1;
                        }
                    }
                }
                ItemKind::Lab => {
                    row.labs_done += done as usize;
                    // Stuck: started, not solved; the first step (in course order) not done.
                    if i.status == Status::Started
                        && let Some(lab) = course.lab(&i.item)
                        && let Some(step) = lab.steps.iter().find(|s| !i.steps_done.contains(&s.id))
                    {
                        *stuck.entry((lab.id.clone(), step.id.clone())).or_default() += 1;
                    }
                }
            }
        }
        r.learners.push(row);
    }
    // The most chosen wrong option per question, over every learner's wrong choices.
    let mut votes: BTreeMap<(String, String), BTreeMap<usize, u32>> = BTreeMap::new();
    for e in exports {
        for i in e.items.iter().filter(|i| i.kind == ItemKind::Quiz) {
            for a in &i.answers {
                let v = votes
                    .entry((i.item.clone(), a.question.clone()))
                    .or_default();
                for (opt, n) in &a.wrong_choices {
                    *v.entry(*opt).or_default() += n;
                }
            }
        }
    }
    for (key, h) in hard.iter_mut() {
        h.top_wrong = votes
            .get(key)
            .and_then(|v| {
                v.iter()
                    .max_by_key(|(opt, n)| (**n, std::cmp::Reverse(**opt)))
            })
            .map(|(o, n)| (*o, *n));
    }
    r.hardest = hard.into_values().filter(|h| h.wrong > 0).collect();
    r.hardest.sort_by(|a, b| {
        (b.wrong, b.wrong * 1000 / b.answered.max(1))
            .cmp(&(a.wrong, a.wrong * 1000 / a.answered.max(1)))
            .then_with(|| (&a.quiz, &a.question).cmp(&(&b.quiz, &b.question)))
    });
    r.stuck = stuck
        .into_iter()
        .map(|((lab, step), learners)| Stuck {
            lab,
            step,
            learners,
        })
        .collect();
    r.stuck
        .sort_by(|a, b| b.learners.cmp(&a.learners).then_with(|| a.lab.cmp(&b.lab)));
    r.learners.sort_by(|a, b| a.learner.cmp(&b.learner));
    r
}

/// The report for people, in the learner's (instructor's) language.
pub fn render_text(r: &Report, course: &Course, i18n: &I18n, skipped: usize) -> String {
    let lang = i18n.lang();
    let mut out = String::new();
    out.push_str(&i18n.ta(
        "report-title",
        &[
            ("count", r.learners.len().into()),
            ("skipped", skipped.into()),
        ],
    ));
    out.push_str("\n\n");
    let name_w = r
        .learners
        .iter()
        .map(|l| crate::tui::wrap::str_width(&l.learner))
        .max()
        .unwrap_or(0)
        .max(8);
    let heads = [
        i18n.t("report-col-lessons"),
        i18n.t("report-col-quizzes"),
        i18n.t("report-col-right"),
        i18n.t("report-col-labs"),
    ];
    let col_w: Vec<usize> = heads
        .iter()
        .map(|h| crate::tui::wrap::str_width(h).max(9))
        .collect();
    let pad = crate::tui::wrap::pad;
    out.push_str(&pad(&i18n.t("report-col-learner"), name_w));
    for (h, w) in heads.iter().zip(&col_w) {
        out.push_str("  ");
        out.push_str(&pad(h, *w));
    }
    out = out.trim_end().to_string();
    out.push('\n');
    for l in &r.learners {
        let cells = [
            format!("{}/{}", l.lessons_done, course.lessons.len()),
            format!("{}/{}", l.quizzes_done, course.quizzes.len()),
            format!("{}/{}", l.right, l.asked),
            format!("{}/{}", l.labs_done, course.labs.len()),
        ];
        let mut line = pad(&l.learner, name_w);
        for (c, w) in cells.iter().zip(&col_w) {
            line.push_str("  ");
            line.push_str(&pad(c, *w));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push('\n');
    out.push_str(&i18n.t("report-hardest"));
    out.push('\n');
    if r.hardest.is_empty() {
        out.push_str(&format!("  {}\n", i18n.t("report-none")));
    }
    for h in r.hardest.iter().take(10) {
        let q = course.quiz(&h.quiz).and_then(|q| q.question(&h.question));
        let prompt = q
            .map(|q| crate::tui::wrap::truncate(q.prompt.get(lang), 70))
            .unwrap_or_default();
        out.push_str(&format!(
            "  {}/{}  {}\n    {}\n",
            h.quiz,
            h.question,
            i18n.ta(
                "report-wrong-of",
                &[("wrong", h.wrong.into()), ("answered", h.answered.into())]
            ),
            prompt
        ));
        if let Some((opt, n)) = h.top_wrong {
            let text = q
                .and_then(|q| q.options.get(opt - 1))
                .map(|o| o.text.get(lang).to_string())
                .unwrap_or_default();
            out.push_str(&format!(
                "    {}\n",
                i18n.ta(
                    "report-top-wrong",
                    &[
                        ("n", opt.into()),
                        ("option", text.into()),
                        ("times", n.into())
                    ]
                )
            ));
        }
    }
    out.push('\n');
    out.push_str(&i18n.t("report-stuck"));
    out.push('\n');
    if r.stuck.is_empty() {
        out.push_str(&format!("  {}\n", i18n.t("report-none")));
    }
    for s in &r.stuck {
        let title = course
            .lab(&s.lab)
            .and_then(|l| l.steps.iter().find(|st| st.id == s.step))
            .map(|st| st.title.get(lang).to_string())
            .unwrap_or_default();
        out.push_str(&format!(
            "  {}/{}  {}\n    {}\n",
            s.lab,
            s.step,
            i18n.ta("report-stuck-count", &[("count", s.learners.into())]),
            title
        ));
    }
    out
}

/// A gradebook: one row per learner, a column per quiz score.
pub fn render_csv(r: &Report, course: &Course) -> String {
    let mut out = String::from("learner,lessons_done,quizzes_done,right,asked,labs_done");
    for q in &course.quizzes {
        out.push(',');
        out.push_str(&csv_field(&q.id));
    }
    out.push('\n');
    for l in &r.learners {
        out.push_str(&format!(
            "{},{},{},{},{},{}",
            csv_field(&l.learner),
            l.lessons_done,
            l.quizzes_done,
            l.right,
            l.asked,
            l.labs_done
        ));
        for q in &course.quizzes {
            out.push(',');
            if let Some((s, _)) = l.quizzes.get(&q.id) {
                out.push_str(&s.to_string());
            }
        }
        out.push('\n');
    }
    out
}
