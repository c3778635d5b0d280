//! Taking a quiz, independent of any front end: reading an answer, scoring, the result record.

use serde::Serialize;
use unicode_normalization::UnicodeNormalization;

use crate::content::Quiz;
use crate::lang::Lang;

/// Why a typed answer could not be read as an option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerError {
    Empty,
    /// A number or letter that names no option of this question.
    OutOfRange,
    Unreadable,
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

/// The outcome of answering one question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    pub chosen: usize,
    pub answer: usize,
}

impl Verdict {
    pub fn is_right(&self) -> bool {
        self.chosen == self.answer
    }
}

/// One pass through a quiz (the whole quiz, or only the questions to retry).
#[derive(Debug, Clone)]
pub struct QuizRun {
    /// Indices into the quiz's questions, in the order asked.
    pub order: Vec<usize>,
    /// Chosen option per asked question, `None` until answered.
    pub answers: Vec<Option<usize>>,
}

impl QuizRun {
    pub fn new(quiz: &Quiz) -> Self {
        Self::with_order((0..quiz.questions.len()).collect())
    }

    /// Only the named questions, in quiz order; unknown ids are ignored (content may have changed
    /// since they were recorded).
    pub fn only(quiz: &Quiz, ids: &[String]) -> Self {
        Self::with_order(
            quiz.questions
                .iter()
                .enumerate()
                .filter(|(_, q)| ids.contains(&q.id))
                .map(|(i, _)| i)
                .collect(),
        )
    }

    fn with_order(order: Vec<usize>) -> Self {
        let answers = vec![None; order.len()];
        QuizRun { order, answers }
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

    /// Records an answer to the current question.
    pub fn answer(&mut self, quiz: &Quiz, chosen: usize) -> Option<Verdict> {
        let pos = self.position()?;
        let q = &quiz.questions[self.order[pos]];
        if chosen >= q.options.len() {
            return None;
        }
        self.answers[pos] = Some(chosen);
        Some(Verdict {
            chosen,
            answer: q.answer,
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

    pub fn result(&self, quiz: &Quiz, lang: Lang) -> QuizResult {
        QuizResult {
            quiz: quiz.id.clone(),
            lang: lang.code().to_string(),
            score: self.score(quiz),
            total: self.order.len(),
            answered: self.answered(),
            complete: self.is_finished(),
            questions: self
                .order
                .iter()
                .zip(&self.answers)
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
}

/// The `--json` result of a quiz run (documented in the README; keep it stable).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct QuizResult {
    pub quiz: String,
    pub lang: String,
    pub score: usize,
    pub total: usize,
    pub answered: usize,
    pub complete: bool,
    pub questions: Vec<QuestionResult>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct QuestionResult {
    pub id: String,
    /// 1-based option number chosen; `null` when the run ended before this question.
    pub chosen: Option<usize>,
    /// 1-based number of the right option.
    pub correct: usize,
    pub right: bool,
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
}
