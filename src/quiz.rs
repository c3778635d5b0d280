//! Taking a quiz, independent of any front end: reading an answer, scoring, the result record.

use serde::{Deserialize, Serialize};
use unicode_normalization::UnicodeNormalization;

use crate::content::Quiz;
use crate::i18n::I18n;
use crate::lang::Lang;

/// Why a typed answer could not be read as an option. Only its catalogue message is shown
/// (`msg_id`, in the learner's language), so it has no English `Display`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerError {
    Empty,
    /// A number or letter that names no option of this question.
    OutOfRange,
    Unreadable,
}

impl AnswerError {
    /// The catalogue message that tells the learner what to type instead.
    pub fn msg_id(self) -> &'static str {
        match self {
            AnswerError::Empty => "quiz-answer-empty",
            AnswerError::OutOfRange => "quiz-answer-out-of-range",
            AnswerError::Unreadable => "quiz-answer-unreadable",
        }
    }
}

/// Reads `2`, `b`, `B`, `b)`, `2.`, full-width `２`/`ｂ`, and the letter keys typed with a Korean
/// (두벌식) or Japanese (romaji) input method still on: `ㅠ` is the B key, `あ` the A key.
/// Returns the 0-based option index.
pub fn parse_answer(input: &str, options: usize) -> Result<usize, AnswerError> {
    // IME letters first: NFKC would turn the compatibility jamo ㅠ into a conjoining one.
    let raw = input.trim();
    let mut raw_chars = raw.chars();
    if let (Some(c), None) = (raw_chars.next(), raw_chars.next())
        && let Some(l) = ime_letter(c)
    {
        let i = (l as u8 - b'a') as usize;
        return if i < options {
            Ok(i)
        } else {
            Err(AnswerError::OutOfRange)
        };
    }
    let s: String = input.nfkc().collect();
    let s = s.trim().trim_end_matches([')', '.', ':']).trim();
    if s.is_empty() {
        return Err(AnswerError::Empty);
    }
    let index = if let Ok(n) = s.parse::<usize>() {
        n.checked_sub(1)
    } else {
        let mut chars = s.chars();
        let c = chars.next().ok_or(AnswerError::Unreadable)?;
        if chars.next().is_some() {
            return Err(AnswerError::Unreadable);
        }
        let c = c.to_ascii_lowercase();
        if !c.is_ascii_lowercase() {
            return Err(AnswerError::Unreadable);
        }
        Some((c as u8 - b'a') as usize)
    };
    match index {
        Some(i) if i < options => Ok(i),
        _ => Err(AnswerError::OutOfRange),
    }
}

/// The Latin letter whose key produces this character under a Korean or Japanese IME.
fn ime_letter(c: char) -> Option<char> {
    const KO: [(char, char); 9] = [
        ('ㅁ', 'a'),
        ('ㅠ', 'b'),
        ('ㅊ', 'c'),
        ('ㅇ', 'd'),
        ('ㄷ', 'e'),
        ('ㄹ', 'f'),
        ('ㅎ', 'g'),
        ('ㅗ', 'h'),
        ('ㅑ', 'i'),
    ];
    const JA: [(char, char); 3] = [('あ', 'a'), ('え', 'e'), ('い', 'i')];
    KO.iter()
        .chain(JA.iter())
        .find(|(k, _)| *k == c)
        .map(|(_, l)| *l)
}

/// The letter shown for an option index: 0 -> 'a'.
pub fn letter(i: usize) -> char {
    (b'a' + (i as u8).min(25)) as char
}

/// The outcome of answering one question, as option indices in the quiz file's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    pub chosen: usize,
    pub answer: usize,
}

impl Verdict {
    pub fn is_right(&self) -> bool {
        self.chosen == self.answer
    }

    /// The order to explain the options in after an answer: the chosen one, then the right one,
    /// then the rest as they were shown.
    pub fn explain_order(&self, shown: &[usize]) -> Vec<usize> {
        let mut out = vec![self.chosen];
        if self.answer != self.chosen {
            out.push(self.answer);
        }
        let (chosen, answer) = (self.chosen, self.answer);
        out.extend(
            shown
                .iter()
                .copied()
                .filter(|&i| i != chosen && i != answer),
        );
        out
    }
}

/// What an explanation after an answer is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Said {
    /// The option the learner chose (right or not).
    Chosen { right: bool },
    /// The right option, when the learner chose another.
    Right,
    /// One of the other options.
    Other,
}

/// One option's explanation after an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Explained {
    pub said: Said,
    /// Index in the quiz file's order.
    pub option: usize,
    /// 1-based number as shown to the learner.
    pub number: usize,
}

/// Every option of an answered question, in the order to explain them.
pub fn explained(v: Verdict, shown: &[usize]) -> Vec<Explained> {
    v.explain_order(shown)
        .into_iter()
        .map(|option| Explained {
            said: if option == v.chosen {
                Said::Chosen {
                    right: v.is_right(),
                }
            } else if option == v.answer {
                Said::Right
            } else {
                Said::Other
            },
            option,
            number: shown.iter().position(|&i| i == option).unwrap_or(option) + 1,
        })
        .collect()
}

/// The heading above one explanation: "Correct: 2) ...", "Not quite. You chose 1) ...",
/// "The right answer is 2) ...", or just "3) ..." for the other options.
pub fn heading(i18n: &I18n, e: &Explained, option_text: &str) -> String {
    let id = match e.said {
        Said::Chosen { right: true } => "quiz-right",
        Said::Chosen { right: false } => "quiz-wrong",
        Said::Right => "quiz-right-was",
        Said::Other => "quiz-other-option",
    };
    i18n.ta(
        id,
        &[("n", e.number.into()), ("option", option_text.into())],
    )
}

/// An option's stable id: its letter in the quiz file's order (`a` is the first option written),
/// whatever order it was shown in.
pub fn option_id(authored: usize) -> String {
    letter(authored).to_string()
}

/// The order to show a question's options in: a permutation of `0..n` drawn from the attempt's
/// seed and the question's id, so the same attempt always shows the same order and a retry of a
/// few questions shows them as the full attempt would. Seed 0 keeps the quiz file's order.
pub fn shuffled(seed: u64, question: &str, n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    if seed == 0 {
        return order;
    }
    // FNV-1a of the id mixed into the seed, then SplitMix64 for a Fisher-Yates shuffle: small,
    // stable across platforms and releases (a crate's generator may change its stream).
    let mut state = question.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    }) ^ seed;
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    for i in (1..n).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

/// A fresh seed for an attempt when none was asked for: never 0, which means "as written".
pub fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1);
    (nanos ^ u64::from(std::process::id()).rotate_left(32)).max(1)
}

/// An attempt left half-way, kept in progress so "Continue" picks it up with the same questions
/// in the same option order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attempt {
    pub seed: u64,
    /// Ids of the questions asked, in order (all of them, or the ones a retry asks).
    pub questions: Vec<String>,
    /// How many of them were answered (always the first ones: questions are asked in order).
    pub answered: usize,
}

/// One pass through a quiz (the whole quiz, or only the questions to retry).
#[derive(Debug, Clone)]
pub struct QuizRun {
    /// Indices into the quiz's questions, in the order asked.
    pub order: Vec<usize>,
    /// Chosen option (index in the quiz file's order) per asked question, `None` until answered.
    pub answers: Vec<Option<usize>>,
    /// Draws the option order of every question; recorded so a resumed attempt keeps it.
    pub seed: u64,
    /// Answers carried over from an earlier session of this attempt: already in progress, so
    /// they are not recorded twice.
    pub resumed: usize,
    /// Picked up from an attempt left half-way: its answers belong to that attempt.
    pub continues: bool,
}

impl QuizRun {
    pub fn new(quiz: &Quiz, seed: u64) -> Self {
        Self::with_order((0..quiz.questions.len()).collect(), seed)
    }

    /// Only the named questions, in quiz order; unknown ids are ignored (content may have changed
    /// since they were recorded).
    pub fn only(quiz: &Quiz, ids: &[String], seed: u64) -> Self {
        Self::with_order(
            quiz.questions
                .iter()
                .enumerate()
                .filter(|(_, q)| ids.contains(&q.id))
                .map(|(i, _)| i)
                .collect(),
            seed,
        )
    }

    /// Picks up a recorded attempt: the same questions and seed, the answered ones filled in
    /// from `chosen` (question id -> option index). `None` when nothing of it is left to ask
    /// (finished, or the quiz changed so that none of its questions exist any more).
    pub fn resume(
        quiz: &Quiz,
        attempt: &Attempt,
        chosen: impl Fn(&str) -> Option<usize>,
    ) -> Option<Self> {
        let mut run = Self::with_order(Vec::new(), attempt.seed);
        for (pos, id) in attempt.questions.iter().enumerate() {
            let Some(qi) = quiz.questions.iter().position(|q| &q.id == id) else {
                continue;
            };
            let answer = if pos < attempt.answered {
                chosen(id).filter(|&c| c < quiz.questions[qi].options.len())
            } else {
                None
            };
            run.order.push(qi);
            run.answers.push(answer);
        }
        // Answers are given in order; a gap (an answer lost) is asked again from there.
        let first_open = run.answers.iter().position(Option::is_none)?;
        for a in &mut run.answers[first_open..] {
            *a = None;
        }
        run.resumed = first_open;
        run.continues = true;
        Some(run)
    }

    fn with_order(order: Vec<usize>, seed: u64) -> Self {
        let answers = vec![None; order.len()];
        QuizRun {
            order,
            answers,
            seed,
            resumed: 0,
            continues: false,
        }
    }

    /// The record that lets this attempt be resumed, while it is unfinished.
    pub fn attempt(&self, quiz: &Quiz) -> Option<Attempt> {
        (!self.is_finished()).then(|| Attempt {
            seed: self.seed,
            questions: self
                .order
                .iter()
                .map(|&qi| quiz.questions[qi].id.clone())
                .collect(),
            answered: self.answered(),
        })
    }

    /// The options of the question at `pos` in the order they are shown (indices into the quiz
    /// file's order).
    pub fn shown(&self, quiz: &Quiz, pos: usize) -> Vec<usize> {
        let q = &quiz.questions[self.order[pos]];
        shuffled(self.seed, &q.id, q.options.len())
    }

    /// Position of the first unanswered question.
    pub fn position(&self) -> Option<usize> {
        self.answers.iter().position(Option::is_none)
    }

    /// The quiz question index being asked now.
    pub fn current(&self) -> Option<usize> {
        self.position().map(|p| self.order[p])
    }

    pub fn is_finished(&self) -> bool {
        self.position().is_none()
    }

    /// Records an answer to the current question, given as its position in the shown order.
    pub fn answer_shown(&mut self, quiz: &Quiz, shown_pos: usize) -> Option<Verdict> {
        let pos = self.position()?;
        let chosen = *self.shown(quiz, pos).get(shown_pos)?;
        let q = &quiz.questions[self.order[pos]];
        self.answers[pos] = Some(chosen);
        Some(Verdict {
            chosen,
            answer: q.answer,
        })
    }

    /// The verdict on the question at `pos`, once answered.
    pub fn verdict(&self, quiz: &Quiz, pos: usize) -> Option<Verdict> {
        let chosen = (*self.answers.get(pos)?)?;
        Some(Verdict {
            chosen,
            answer: quiz.questions[self.order[pos]].answer,
        })
    }

    pub fn answered(&self) -> usize {
        self.answers.iter().flatten().count()
    }

    pub fn score(&self, quiz: &Quiz) -> usize {
        self.order
            .iter()
            .zip(&self.answers)
            .filter(|(qi, a)| **a == Some(quiz.questions[**qi].answer))
            .count()
    }

    /// Ids of the questions answered wrong in this run.
    pub fn wrong_ids(&self, quiz: &Quiz) -> Vec<String> {
        self.order
            .iter()
            .zip(&self.answers)
            .filter(|(qi, a)| matches!(a, Some(c) if *c != quiz.questions[**qi].answer))
            .map(|(qi, _)| quiz.questions[*qi].id.clone())
            .collect()
    }

    /// The record for progress: the answers given in this session (a resumed attempt's earlier
    /// answers are already recorded).
    pub fn result(&self, quiz: &Quiz, lang: Lang) -> QuizResult {
        QuizResult {
            quiz: quiz.id.clone(),
            lang: lang.code().to_string(),
            score: self.score(quiz),
            total: self.order.len(),
            answered: self.answered() - self.resumed,
            complete: self.is_finished(),
            continues: self.continues,
            questions: self
                .order
                .iter()
                .zip(&self.answers)
                .skip(self.resumed)
                .map(|(&qi, a)| {
                    let q = &quiz.questions[qi];
                    QuestionResult {
                        id: q.id.clone(),
                        chosen: a.map(|c| c + 1),
                        correct: q.answer + 1,
                        right: *a == Some(q.answer),
                    }
                })
                .collect(),
        }
    }

    /// The `--json` document: every question with its options named by id, each explained.
    pub fn report(&self, quiz: &Quiz, i18n: &I18n) -> Report {
        let text = |l: &crate::content::Localized| crate::text::loc_md(i18n, l);
        Report {
            quiz: quiz.id.clone(),
            lang: i18n.lang().code().to_string(),
            seed: self.seed,
            score: self.score(quiz),
            total: self.order.len(),
            answered: self.answered(),
            complete: self.is_finished(),
            questions: self
                .order
                .iter()
                .enumerate()
                .map(|(pos, &qi)| {
                    let q = &quiz.questions[qi];
                    let shown = self.shown(quiz, pos);
                    let verdict = self.verdict(quiz, pos);
                    let explained = match verdict {
                        Some(v) => v.explain_order(&shown),
                        None => shown.clone(),
                    };
                    ReportQuestion {
                        id: q.id.clone(),
                        prompt: text(&q.prompt),
                        chosen: verdict.map(|v| option_id(v.chosen)),
                        correct: option_id(q.answer),
                        right: verdict.is_some_and(|v| v.is_right()),
                        shown: shown.iter().map(|&i| option_id(i)).collect(),
                        options: explained
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

/// A quiz run as progress records it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct QuizResult {
    pub quiz: String,
    pub lang: String,
    pub score: usize,
    pub total: usize,
    pub answered: usize,
    pub complete: bool,
    /// The run carries on an attempt left half-way: one attempt with the run before it.
    pub continues: bool,
    pub questions: Vec<QuestionResult>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct QuestionResult {
    pub id: String,
    /// 1-based option number in the quiz file's order; `null` when the run ended before it.
    pub chosen: Option<usize>,
    /// 1-based number of the right option, in the quiz file's order.
    pub correct: usize,
    pub right: bool,
}

/// The `--json` result of a quiz run (documented in the README; keep it stable).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Report {
    pub quiz: String,
    pub lang: String,
    pub seed: u64,
    pub score: usize,
    pub total: usize,
    pub answered: usize,
    pub complete: bool,
    pub questions: Vec<ReportQuestion>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ReportQuestion {
    pub id: String,
    pub prompt: String,
    /// Id of the option chosen; `null` when the run ended before this question.
    pub chosen: Option<String>,
    pub correct: String,
    pub right: bool,
    /// Option ids in the order they were shown.
    pub shown: Vec<String>,
    /// Every option with its explanation: the chosen one first, then the right one, then the
    /// rest as shown.
    pub options: Vec<ReportOption>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ReportOption {
    pub id: String,
    pub text: String,
    pub why: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_numbers_letters_and_their_variants() {
        assert_eq!(parse_answer("2", 4), Ok(1));
        assert_eq!(parse_answer(" b ", 4), Ok(1));
        assert_eq!(parse_answer("B)", 4), Ok(1));
        assert_eq!(parse_answer("3.", 4), Ok(2));
        assert_eq!(parse_answer("２", 4), Ok(1));
        assert_eq!(parse_answer("ｄ", 4), Ok(3));
        assert_eq!(parse_answer("ㅠ", 4), Ok(1));
        assert_eq!(parse_answer("あ", 4), Ok(0));
    }

    #[test]
    fn rejects_what_is_not_an_option() {
        assert_eq!(parse_answer("", 4), Err(AnswerError::Empty));
        assert_eq!(parse_answer("   ", 4), Err(AnswerError::Empty));
        assert_eq!(parse_answer("5", 4), Err(AnswerError::OutOfRange));
        assert_eq!(parse_answer("0", 4), Err(AnswerError::OutOfRange));
        assert_eq!(parse_answer("e", 4), Err(AnswerError::OutOfRange));
        assert_eq!(parse_answer("yes", 4), Err(AnswerError::Unreadable));
        assert_eq!(parse_answer("?", 4), Err(AnswerError::Unreadable));
        assert_eq!(
            parse_answer("99999999999999999999999", 4),
            Err(AnswerError::Unreadable)
        );
    }

    #[test]
    fn explanations_go_chosen_then_right_then_the_rest_as_shown() {
        let v = Verdict {
            chosen: 3,
            answer: 1,
        };
        assert_eq!(v.explain_order(&[2, 0, 1, 3]), vec![3, 1, 2, 0]);
        let right = Verdict {
            chosen: 1,
            answer: 1,
        };
        assert_eq!(right.explain_order(&[2, 0, 1, 3]), vec![1, 2, 0, 3]);
    }

    #[test]
    fn a_seed_always_draws_the_same_order_and_seed_zero_keeps_the_file_order() {
        assert_eq!(shuffled(0, "q", 4), vec![0, 1, 2, 3]);
        assert_eq!(shuffled(42, "q", 4), shuffled(42, "q", 4));
        let mut sorted = shuffled(42, "q", 4);
        sorted.sort();
        assert_eq!(sorted, vec![0, 1, 2, 3]);
        // Over many seeds each option lands first sometimes: the order really moves.
        let firsts: std::collections::BTreeSet<usize> =
            (1..200).map(|s| shuffled(s, "q", 4)[0]).collect();
        assert_eq!(firsts.len(), 4);
    }
}
