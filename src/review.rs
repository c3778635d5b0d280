//! Spaced review: every answered quiz question and every lab step a session ended on gets an
//! FSRS-6 memory state (the `fsrs` crate, its published default parameters) and a time it is
//! due again. The schedule is a fold of the event log, never stored, so logs merged from two
//! machines or a class server give one schedule.

use std::collections::{BTreeMap, BTreeSet};

use fsrs::{FSRS, MemoryState};
use serde::Serialize;

use crate::content::Course;
use crate::events::{Event, What};
use crate::items::ItemKind;

/// The chance of recall a review is scheduled for (FSRS's usual target).
const RETENTION: f32 = 0.9;
const DAY: u64 = 86_400;
/// No interval grows past ten years: a due time stays a date people can read.
const MAX_DAYS: f32 = 3650.0;

/// The environment variable that sets the review's clock (an RFC 3339 time), for tests.
pub const NOW_ENV: &str = "ROCM_LEARN_NOW";

/// How an answer or a step went, as FSRS rates a review.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grade {
    /// A wrong answer, or a step the session ended without.
    Again,
    /// Right, but after a hint.
    Hard,
    /// Right at once.
    Good,
}

/// What is reviewed: a question of a quiz, or a step of a lab.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Key {
    pub kind: ItemKind,
    /// The quiz's or the lab's id.
    pub item: String,
    /// The question's or the step's id.
    pub id: String,
}

impl Key {
    /// `quiz:ID` or `lab:ID`, as the `--json` list and `--drill` name items.
    pub fn item_ref(&self) -> String {
        format!("{}:{}", self.kind.name(), self.item)
    }
}

/// One reviewed thing's memory and when it is due.
#[derive(Debug, Clone, PartialEq)]
pub struct Card {
    pub key: Key,
    pub memory: MemoryState,
    /// When it was last rated (seconds since the epoch).
    pub last: u64,
    /// When it is due again.
    pub due: u64,
    /// How many times it was rated "again".
    pub lapses: u32,
}

/// Every card the log gives, for questions and steps the course still has.
pub fn schedule(course: &Course, events: &[Event]) -> Vec<Card> {
    let fsrs = FSRS::default();
    let mut cards: BTreeMap<Key, Card> = BTreeMap::new();
    // Hints revealed per lab since its last session ended: a step met after one is "hard".
    let mut hinted: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for e in events {
        match &e.what {
            What::Answered { item, answers, .. } => {
                let Some(quiz) = course.quiz(item) else {
                    continue;
                };
                for a in answers
                    .iter()
                    .filter(|a| quiz.questions.iter().any(|q| q.id == a.question))
                {
                    let key = key(ItemKind::Quiz, item, &a.question);
                    rate(&fsrs, &mut cards, key, grade_of(a.right, false), e.t);
                }
            }
            What::Hint { item, step } => {
                hinted.entry(item).or_default().insert(step);
            }
            What::Lab { item, session, .. } => {
                let ended = session.complete || session.session_over;
                if !ended || session.solved_before {
                    continue;
                }
                let hints = hinted.remove(item.as_str()).unwrap_or_default();
                let Some(lab) = course.lab(item) else {
                    continue;
                };
                for step in &lab.steps {
                    let met = session.steps_done.contains(&step.id);
                    let g = grade_of(met, hints.contains(step.id.as_str()));
                    rate(
                        &fsrs,
                        &mut cards,
                        key(ItemKind::Lab, item, &step.id),
                        g,
                        e.t,
                    );
                }
            }
            What::Reviewed {
                kind,
                item,
                part: id,
                right,
            } => {
                let known = match kind {
                    ItemKind::Quiz => course
                        .quiz(item)
                        .is_some_and(|q| q.questions.iter().any(|x| &x.id == id)),
                    ItemKind::Lab => course
                        .lab(item)
                        .is_some_and(|l| l.steps.iter().any(|s| &s.id == id)),
                    ItemKind::Lesson => false,
                };
                if known {
                    rate(
                        &fsrs,
                        &mut cards,
                        key(*kind, item, id),
                        grade_of(*right, false),
                        e.t,
                    );
                }
            }
            What::Reset { kind, item } => match kind.zip(item.as_ref()) {
                Some((k, i)) => cards.retain(|c, _| !(c.kind == k && &c.item == i)),
                None => cards.clear(),
            },
            _ => {}
        }
    }
    cards.into_values().collect()
}

fn key(kind: ItemKind, item: &str, id: &str) -> Key {
    Key {
        kind,
        item: item.to_string(),
        id: id.to_string(),
    }
}

/// Right at once is "good", right after a hint "hard", wrong or unmet "again".
pub fn grade_of(right: bool, hinted: bool) -> Grade {
    match (right, hinted) {
        (false, _) => Grade::Again,
        (true, true) => Grade::Hard,
        (true, false) => Grade::Good,
    }
}

/// Rates a card at time `t`: its next memory state, and its next due time. "Again" is due at
/// once (it is relearned in the next review); the others after FSRS's interval, in whole days.
fn rate(fsrs: &FSRS, cards: &mut BTreeMap<Key, Card>, key: Key, g: Grade, t: u64) {
    let old = cards.get(&key);
    let days = old.map_or(0, |c| {
        u32::try_from(t.saturating_sub(c.last) / DAY).unwrap_or(u32::MAX)
    });
    let Ok(next) = fsrs.next_states(old.map(|c| c.memory), RETENTION, days) else {
        return;
    };
    let state = match g {
        Grade::Again => next.again,
        Grade::Hard => next.hard,
        Grade::Good => next.good,
    };
    let due = match g {
        Grade::Again => t,
        _ => t + state.interval.round().clamp(1.0, MAX_DAYS) as u64 * DAY,
    };
    let lapses = old.map_or(0, |c| c.lapses) + u32::from(g == Grade::Again);
    cards.insert(
        key.clone(),
        Card {
            key,
            memory: state.memory,
            last: t,
            due,
            lapses,
        },
    );
}

/// The `--json` list: what is due at `now`, and when the next thing will be.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct DueList {
    pub due: Vec<DueItem>,
    /// The earliest due time of what is not due yet; `null` when nothing is scheduled.
    pub next_due_at: Option<String>,
}

/// What a due item is, as `--json` and the report name it: `question` or `lab-step`.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum DueKind {
    Question,
    LabStep,
}

impl DueKind {
    pub fn of(kind: ItemKind) -> Self {
        match kind {
            ItemKind::Lab => DueKind::LabStep,
            _ => DueKind::Question,
        }
    }
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct DueItem {
    pub kind: DueKind,
    /// `quiz:ID` or `lab:ID`.
    pub item: String,
    /// The question's or the step's id.
    pub id: String,
    pub due_at: String,
}

/// The cards due at `now`, earliest first, and when the next of the others falls due.
pub fn due_at(cards: &[Card], now: u64) -> (Vec<&Card>, Option<u64>) {
    let mut due: Vec<&Card> = cards.iter().filter(|c| c.due <= now).collect();
    due.sort_by(|a, b| (a.due, &a.key).cmp(&(b.due, &b.key)));
    let next = cards.iter().map(|c| c.due).filter(|&d| d > now).min();
    (due, next)
}

/// The `--json` document for `now`.
pub fn due_list(cards: &[Card], now: u64) -> DueList {
    let (due, next) = due_at(cards, now);
    DueList {
        due: due
            .into_iter()
            .map(|c| DueItem {
                kind: DueKind::of(c.key.kind),
                item: c.key.item_ref(),
                id: c.key.id.clone(),
                due_at: crate::export::rfc3339(c.due),
            })
            .collect(),
        next_due_at: next.map(crate::export::rfc3339),
    }
}

/// The clock review and exams go by: `ROCM_LEARN_NOW` when set (an RFC 3339 time such as
/// `2027-03-01T09:00:00Z`), else the system's. A value that does not parse is an error naming
/// the variable, never a silent fallback to the real time.
pub fn now() -> Result<u64, String> {
    match std::env::var(NOW_ENV) {
        Ok(v) if !v.trim().is_empty() => {
            crate::export::parse_rfc3339(v.trim()).ok_or_else(|| v.trim().to_string())
        }
        _ => Ok(crate::progress::now()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fsrs_cards(grades: &[(Grade, u64)]) -> Card {
        let fsrs = FSRS::default();
        let mut cards = BTreeMap::new();
        let k = key(ItemKind::Quiz, "q", "one");
        for &(g, t) in grades {
            rate(&fsrs, &mut cards, k.clone(), g, t);
        }
        cards.remove(&k).expect("rated")
    }

    #[test]
    fn a_first_rating_uses_fsrs6_default_stabilities() {
        // FSRS-6's published defaults: initial stability 0.212 (again), 1.2931 (hard), 2.3065
        // (good) days; at 90% retention the interval equals the stability.
        let again = fsrs_cards(&[(Grade::Again, 1000)]);
        assert!((again.memory.stability - 0.212).abs() < 1e-4, "{again:?}");
        assert_eq!(again.due, 1000, "a miss is due at once");
        assert_eq!(again.lapses, 1);
        let hard = fsrs_cards(&[(Grade::Hard, 1000)]);
        assert!((hard.memory.stability - 1.2931).abs() < 1e-4);
        assert_eq!(hard.due, 1000 + DAY);
        let good = fsrs_cards(&[(Grade::Good, 1000)]);
        assert!((good.memory.stability - 2.3065).abs() < 1e-4);
        assert!((good.memory.difficulty - 2.118_104).abs() < 1e-3);
        assert_eq!(good.due, 1000 + 2 * DAY);
    }

    #[test]
    fn good_reviews_on_time_space_out_and_a_lapse_brings_it_back() {
        let first = fsrs_cards(&[(Grade::Good, 0)]);
        let second = fsrs_cards(&[(Grade::Good, 0), (Grade::Good, first.due)]);
        let gap1 = first.due;
        let gap2 = second.due - first.due;
        assert!(gap2 > gap1, "{gap1} then {gap2}");
        let lapsed = fsrs_cards(&[
            (Grade::Good, 0),
            (Grade::Good, first.due),
            (Grade::Again, second.due),
        ]);
        assert_eq!(lapsed.due, second.due);
        assert!(lapsed.memory.stability < second.memory.stability);
    }

    #[test]
    fn grades_follow_the_answer_and_the_hint() {
        assert_eq!(grade_of(false, false), Grade::Again);
        assert_eq!(grade_of(false, true), Grade::Again);
        assert_eq!(grade_of(true, true), Grade::Hard);
        assert_eq!(grade_of(true, false), Grade::Good);
    }

    #[test]
    fn due_lists_what_is_due_and_when_the_rest_is() {
        let miss = fsrs_cards(&[(Grade::Again, 100)]);
        let mut good = fsrs_cards(&[(Grade::Good, 100)]);
        good.key.id = "two".into();
        let cards = vec![miss, good.clone()];
        let list = due_list(&cards, 200);
        assert_eq!(list.due.len(), 1);
        assert_eq!(list.due[0].id, "one");
        assert_eq!(list.due[0].item, "quiz:q");
        assert_eq!(list.next_due_at, Some(crate::export::rfc3339(good.due)));
        let later = due_list(&cards, good.due);
        assert_eq!(later.due.len(), 2);
        assert_eq!(later.next_due_at, None);
    }
}
