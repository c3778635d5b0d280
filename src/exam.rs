//! Sitting an exam, independent of any front end: which questions a seed draws, in which order
//! their options are shown, the score against the pass mark, and the result record.

use serde::Serialize;

use crate::content::{Course, Exam, Question, Quiz};
use crate::i18n::I18n;
use crate::quiz::{ReportOption, option_id, shuffled};

/// One drawn question: its quiz and its index there.
#[derive(Debug, Clone, Copy)]
pub struct Pick<'c> {
    pub quiz: &'c Quiz,
    pub question: usize,
}

impl<'c> Pick<'c> {
    pub fn question(&self) -> &'c Question {
        &self.quiz.questions[self.question]
    }
}

/// One sitting: the questions drawn, the option order of each, the answers given.
#[derive(Debug, Clone)]
pub struct Sitting<'c> {
    pub exam: &'c Exam,
    pub seed: u64,
    pub picks: Vec<Pick<'c>>,
    /// Chosen option per pick (index in the quiz file's order), `None` until answered.
    pub answers: Vec<Option<usize>>,
}

impl<'c> Sitting<'c> {
    /// Draws the exam's questions with `seed`: the same seed always asks the same questions in
    /// the same order with the same option order. Quizzes the course lacks add nothing.
    pub fn new(course: &'c Course, exam: &'c Exam, seed: u64) -> Self {
        let pool: Vec<Pick<'c>> = exam
            .from
            .iter()
            .filter_map(|id| course.quiz(id))
            .flat_map(|quiz| (0..quiz.questions.len()).map(move |question| Pick { quiz, question }))
            .collect();
        // A seed of 0 would keep the pool's order (see `shuffled`); an exam always mixes.
        let order = shuffled(seed.max(1), &exam.id, pool.len());
        let picks: Vec<Pick<'c>> = order
            .into_iter()
            .take(exam.questions)
            .map(|i| pool[i])
            .collect();
        let answers = vec![None; picks.len()];
        Sitting {
            exam,
            seed,
            picks,
            answers,
        }
    }

    /// The options of the pick at `pos` in the order shown (indices in the quiz file's order).
    pub fn shown(&self, pos: usize) -> Vec<usize> {
        let q = self.picks[pos].question();
        shuffled(self.seed.max(1), &q.id, q.options.len())
    }

    pub fn score(&self) -> usize {
        self.picks
            .iter()
            .zip(&self.answers)
            .filter(|(p, a)| **a == Some(p.question().answer))
            .count()
    }

    /// The pass mark met: right answers at least `pass_percent` of all the questions (an
    /// unanswered question counts as wrong).
    pub fn passed(&self) -> bool {
        let total = self.picks.len();
        total > 0 && self.score() * 100 >= usize::from(self.exam.pass_percent) * total
    }

    /// The result with every question explained, for the end of the sitting and `--json`.
    pub fn result(&self, i18n: &I18n, secs: u64, timed_out: bool) -> ExamResult {
        let text = |l: &crate::content::Localized| crate::text::loc_md(i18n, l);
        ExamResult {
            exam: self.exam.id.clone(),
            lang: i18n.lang().code().to_string(),
            seed: self.seed,
            score: self.score(),
            total: self.picks.len(),
            passed: self.passed(),
            pass_percent: self.exam.pass_percent,
            time_used_secs: secs,
            time_limit_secs: self.exam.time_limit_secs,
            timed_out,
            questions: self
                .picks
                .iter()
                .zip(&self.answers)
                .enumerate()
                .map(|(pos, (p, a))| {
                    let q = p.question();
                    let shown = self.shown(pos);
                    ExamQuestion {
                        quiz: p.quiz.id.clone(),
                        id: q.id.clone(),
                        prompt: text(&q.prompt),
                        chosen: a.map(option_id),
                        correct: option_id(q.answer),
                        right: *a == Some(q.answer),
                        options: shown
                            .iter()
                            .map(|&i| ReportOption {
                                id: option_id(i),
                                text: text(&q.options[i].text),
                                why: text(&q.options[i].why),
                            })
                            .collect(),
                    }
                })
                .collect(),
        }
    }
}

/// The `--json` result of an exam (documented in the README; keep it stable).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ExamResult {
    pub exam: String,
    pub lang: String,
    pub seed: u64,
    pub score: usize,
    pub total: usize,
    pub passed: bool,
    pub pass_percent: u8,
    pub time_used_secs: u64,
    pub time_limit_secs: u64,
    /// The time limit ended the sitting; questions left were counted wrong.
    pub timed_out: bool,
    pub questions: Vec<ExamQuestion>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ExamQuestion {
    pub quiz: String,
    pub id: String,
    pub prompt: String,
    /// The option chosen; `null` when the sitting ended before it.
    pub chosen: Option<String>,
    pub correct: String,
    pub right: bool,
    /// Every option as shown, each explained.
    pub options: Vec<ReportOption>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn course() -> Course {
        crate::content::load(&crate::content::ContentTree::embedded()).0
    }

    #[test]
    fn a_seed_draws_the_same_questions_and_another_seed_others() {
        let course = course();
        let exam = course.exam("rocm-deploy").expect("built-in exam");
        let ids = |seed| {
            Sitting::new(&course, exam, seed)
                .picks
                .iter()
                .map(|p| format!("{}:{}", p.quiz.id, p.question().id))
                .collect::<Vec<_>>()
        };
        assert_eq!(ids(7), ids(7));
        assert_eq!(ids(7).len(), exam.questions);
        assert_ne!(ids(7), ids(8));
        let mut unique = ids(7);
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), exam.questions, "a question drawn twice");
    }

    #[test]
    fn the_pass_mark_is_a_share_of_all_questions() {
        let course = course();
        let exam = course.exam("rocm-deploy").expect("built-in exam");
        let mut s = Sitting::new(&course, exam, 3);
        assert!(!s.passed());
        let need = (usize::from(exam.pass_percent) * s.picks.len()).div_ceil(100);
        for i in 0..need {
            s.answers[i] = Some(s.picks[i].question().answer);
        }
        assert_eq!(s.score(), need);
        assert!(s.passed());
        s.answers[0] =
            Some((s.picks[0].question().answer + 1) % s.picks[0].question().options.len());
        assert!(!s.passed(), "one right answer fewer fails");
    }
}
