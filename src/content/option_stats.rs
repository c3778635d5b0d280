//! How often a quiz's right option is the strictly longest one.
//!
//! A test-wise learner who always picks the longest option should not pass: when the right
//! answer is the longest in most questions, a quiz measures guessing, not understanding.
//! Length is the width on screen (a CJK character counts two), as the learner sees it.

use crate::width::{pad_to, str_width};

use super::model::{Question, Quiz};
use crate::lang::Lang;

/// `check` warns when the right option is the strictly longest in more than this share of a
/// quiz's questions (as a fraction: numerator, denominator).
pub const WARN_ABOVE: (usize, usize) = (1, 3);

/// One quiz in one language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LongestRight {
    pub quiz: String,
    pub lang: Lang,
    /// Questions whose right option is wider than every other option.
    pub longest: usize,
    pub questions: usize,
}

impl LongestRight {
    /// More than a third of the questions give themselves away by length.
    pub fn too_many(&self) -> bool {
        too_many(self.longest, self.questions)
    }

    pub fn percent(&self) -> usize {
        percent(self.longest, self.questions)
    }
}

fn too_many(longest: usize, questions: usize) -> bool {
    longest * WARN_ABOVE.1 > questions * WARN_ABOVE.0
}

/// Whole percent, rounded to nearest (0 of 0 is 0).
fn percent(n: usize, of: usize) -> usize {
    (n * 200 + of).checked_div(of * 2).unwrap_or(0)
}

/// True when the right option, in `lang`, is wider than every other option.
pub fn right_is_longest(q: &Question, lang: Lang) -> bool {
    let width = |i: usize| str_width(q.options[i].text.get(lang));
    let right = width(q.answer);
    (0..q.options.len())
        .filter(|&i| i != q.answer)
        .all(|i| width(i) < right)
}

/// How many options, in `lang`, are wider than the right one: 0 when it is the longest (or
/// tied). Lengthening one distractor per question would leave the right option second
/// longest everywhere, a giveaway of its own; this lets tests watch the spread.
pub fn longer_than_right(q: &Question, lang: Lang) -> usize {
    let width = |i: usize| str_width(q.options[i].text.get(lang));
    let right = width(q.answer);
    (0..q.options.len()).filter(|&i| width(i) > right).count()
}

pub fn of_quiz(quiz: &Quiz, lang: Lang) -> LongestRight {
    LongestRight {
        quiz: quiz.id.clone(),
        lang,
        longest: quiz
            .questions
            .iter()
            .filter(|q| right_is_longest(q, lang))
            .count(),
        questions: quiz.questions.len(),
    }
}

/// The whole course in one language: (longest, questions).
pub fn total(quizzes: &[Quiz], lang: Lang) -> (usize, usize) {
    quizzes
        .iter()
        .map(|q| of_quiz(q, lang))
        .fold((0, 0), |acc, s| (acc.0 + s.longest, acc.1 + s.questions))
}

/// The `check --stats` table: one row per quiz, one column per language, cells "n/m (p%)",
/// a `*` after a cell over the warning threshold, and a last row for the whole course.
pub fn table(quizzes: &[Quiz], quiz_label: &str, course_label: &str) -> String {
    use std::fmt::Write as _;
    let cell = |n: usize, of: usize, mark: bool| {
        let mark = if mark && too_many(n, of) { "*" } else { "" };
        format!("{n}/{of} ({}%){mark}", percent(n, of))
    };
    let name_width = quizzes
        .iter()
        .map(|q| str_width(&q.id))
        .chain([str_width(quiz_label), str_width(course_label)])
        .max()
        .unwrap_or(0);
    let pad = |s: &str| pad_to(s, name_width);
    let mut out = String::new();
    let _ = write!(out, "{}", pad(quiz_label));
    for l in Lang::ALL {
        let _ = write!(out, "  {:<14}", l.code());
    }
    out = out.trim_end().to_string();
    out.push('\n');
    let mut row = |name: &str, cells: Vec<String>| {
        let mut line = pad(name);
        for c in cells {
            let _ = write!(line, "  {c:<14}");
        }
        out.push_str(line.trim_end());
        out.push('\n');
    };
    for q in quizzes {
        row(
            &q.id,
            Lang::ALL
                .iter()
                .map(|&l| {
                    let s = of_quiz(q, l);
                    cell(s.longest, s.questions, true)
                })
                .collect(),
        );
    }
    row(
        course_label,
        Lang::ALL
            .iter()
            .map(|&l| {
                let (n, of) = total(quizzes, l);
                cell(n, of, false)
            })
            .collect(),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::model::{Choice, Localized};

    fn q(texts: &[&str], answer: usize) -> Question {
        Question {
            id: "q".into(),
            prompt: Localized::same("?"),
            excerpt: None,
            options: texts
                .iter()
                .map(|t| Choice {
                    text: Localized::same(t),
                    why: Localized::same("because"),
                })
                .collect(),
            answer,
        }
    }

    #[test]
    fn a_tie_is_not_strictly_longest() {
        assert!(right_is_longest(&q(&["long one", "short"], 0), Lang::En));
        assert!(!right_is_longest(&q(&["same", "four"], 0), Lang::En));
        assert!(!right_is_longest(&q(&["tiny", "longer"], 0), Lang::En));
    }

    #[test]
    fn width_counts_wide_characters_twice() {
        // Three kana are six columns, wider than five ASCII letters.
        assert!(right_is_longest(&q(&["あいう", "abcde"], 0), Lang::Ja));
    }

    #[test]
    fn more_than_a_third_is_too_many() {
        let s = |longest| LongestRight {
            quiz: "x".into(),
            lang: Lang::En,
            longest,
            questions: 6,
        };
        assert!(!s(2).too_many());
        assert!(s(3).too_many());
        assert_eq!(s(2).percent(), 33);
    }
}
