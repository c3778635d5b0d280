//! How often a quiz's right option is the strictly longest one.
//!
//! A test-wise learner who always picks the longest option should not pass: when the right
//! answer is the longest in most questions, a quiz measures guessing, not understanding.
//! Length is the width on screen (a CJK character counts two), as the learner sees it.

use crate::width::{pad_to, str_width, widest};

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

/// The `check --stats` table: one row per quiz, one column per language of `langs`, cells
/// "n/m (p%)", a `*` after a cell over the warning threshold, and a last row for the whole
/// course.
pub fn table(quizzes: &[Quiz], langs: &[Lang], quiz_label: &str, course_label: &str) -> String {
    use std::fmt::Write as _;
    let cell = |n: usize, of: usize, mark: bool| {
        let mark = if mark && too_many(n, of) { "*" } else { "" };
        format!("{n}/{of} ({}%){mark}", percent(n, of))
    };
    let ids = quizzes.iter().map(|q| q.id.as_str());
    let name_width = widest(ids.chain([quiz_label, course_label]));
    let pad = |s: &str| pad_to(s, name_width);
    let mut out = String::new();
    let _ = write!(out, "{}", pad(quiz_label));
    for l in langs {
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
            langs
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
        langs
            .iter()
            .map(|&l| {
                let (n, of) = total(quizzes, l);
                cell(n, of, false)
            })
            .collect(),
    );
    out
}

/// The course-wide bound `check` holds a course to: a learner who always picks the longest
/// option, ties counted, should score at most a quarter.
pub const LONGEST_AT_MOST: (usize, usize) = (1, 4);
/// Below this many questions one question moves the share by several points, so a small pack
/// is not held to the course-wide bound.
pub const BOUNDS_FROM: usize = 40;

/// True when no other option, in `lang`, is wider than the right one (ties count: a learner
/// who picks "one of the longest" still finds it there).
pub fn right_is_longest_or_tied(q: &Question, lang: Lang) -> bool {
    longer_than_right(q, lang) == 0
}

/// What a test-wise learner could exploit across the whole course.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cues {
    pub questions: usize,
    /// Per language (indexed by `Lang`): questions whose right option is longest or tied.
    /// (Where the right option sits in the file is no cue: options are shown shuffled.)
    pub longest: [usize; 3],
}

impl Cues {
    pub fn of(quizzes: &[Quiz]) -> Self {
        let questions: Vec<&Question> = quizzes.iter().flat_map(|q| &q.questions).collect();
        let longest = Lang::ALL.map(|l| {
            questions
                .iter()
                .filter(|q| right_is_longest_or_tied(q, l))
                .count()
        });
        Cues {
            questions: questions.len(),
            longest,
        }
    }

    /// Whether the course is big enough to be held to the bounds.
    pub fn applies(&self) -> bool {
        self.questions >= BOUNDS_FROM
    }

    pub fn longest_too_many(&self, lang: Lang) -> bool {
        self.longest[lang as usize] * LONGEST_AT_MOST.1 > self.questions * LONGEST_AT_MOST.0
    }

    /// "n/m (p%)" for a count.
    pub fn share(&self, n: usize) -> String {
        format!("{n}/{} ({}%)", self.questions, percent(n, self.questions))
    }
}

/// Warns, for the course as a whole, where a learner could pass on a cue: the right option
/// longest in over a quarter of the questions in a language. The warning points at the quizzes
/// folder: no one file is to blame.
pub fn check(quizzes: &[Quiz], diags: &mut super::diag::Diagnostics) {
    use super::diag::Msg;
    let cues = Cues::of(quizzes);
    if !cues.applies() {
        return;
    }
    for lang in Lang::ALL {
        if cues.longest_too_many(lang) {
            diags.file_warning(
                "quizzes",
                Msg::new("content-cue-longest")
                    .arg("lang", lang)
                    .arg("share", cues.share(cues.longest[lang as usize])),
            );
        }
    }
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

    fn quiz(answers: &[usize], texts: &[&str]) -> Quiz {
        Quiz {
            id: "q".into(),
            title: Localized::same("T"),
            lesson: None,
            questions: answers.iter().map(|&a| q(texts, a)).collect(),
        }
    }

    #[test]
    fn ties_count_as_longest_for_the_course_wide_share() {
        assert!(right_is_longest_or_tied(&q(&["same", "four"], 0), Lang::En));
        assert!(!right_is_longest_or_tied(
            &q(&["tiny", "longer"], 0),
            Lang::En
        ));
    }

    #[test]
    fn the_course_is_held_to_a_quarter_by_length_and_not_by_position() {
        // 40 questions, the right option always first and always the longest.
        let skewed = quiz(&[0; 40], &["the longest", "b", "c", "d"]);
        let cues = Cues::of(std::slice::from_ref(&skewed));
        assert!(cues.applies());
        assert!(cues.longest_too_many(Lang::En));
        let mut d = crate::content::diag::Diagnostics::default();
        check(std::slice::from_ref(&skewed), &mut d);
        // Three languages over the quarter; always first in the file is no cue (shuffled).
        assert_eq!(d.items.len(), 3, "{:?}", d.items);

        // All options the same width: ties count, so still too many.
        let answers: Vec<usize> = (0..40).map(|i| i % 4).collect();
        let even = quiz(&answers, &["aaaa", "bbbb", "cccc", "dddd"]);
        let cues = Cues::of(std::slice::from_ref(&even));
        assert!(cues.longest_too_many(Lang::Ja));

        // Right option shorter than another one everywhere: no cue at all.
        let mut questions = even.questions.to_vec();
        for q in &mut questions {
            let other = (q.answer + 1) % 4;
            q.options[other].text = Localized::same("longer");
        }
        let fair = Quiz {
            questions: questions.into(),
            ..even.clone()
        };
        let cues = Cues::of(std::slice::from_ref(&fair));
        assert!(Lang::ALL.iter().all(|&l| !cues.longest_too_many(l)));
        let mut d = crate::content::diag::Diagnostics::default();
        check(&[fair], &mut d);
        assert!(d.items.is_empty(), "{:?}", d.items);
    }

    #[test]
    fn a_small_pack_is_not_held_to_the_course_wide_bounds() {
        let small = quiz(&[0; 10], &["the longest", "b"]);
        let mut d = crate::content::diag::Diagnostics::default();
        check(&[small], &mut d);
        assert!(d.items.is_empty());
    }
}
