//! The course's items as a learner's record names them: kinds, places, and what is kept per
//! lesson, quiz and lab. Progress and the event log both build on these.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::content::Msg;

/// How a lab was completed: in the app's shell, or graded from a file (`lab ID --script FILE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LabHow {
    Interactive,
    Script,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ItemKind {
    Lesson,
    Quiz,
    Lab,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    pub kind: ItemKind,
    pub id: String,
}

impl ItemKind {
    pub const ALL: [ItemKind; 3] = [ItemKind::Lesson, ItemKind::Quiz, ItemKind::Lab];

    /// The spelling in qualified ids (`quiz:history`), exports and CSV.
    pub fn name(self) -> &'static str {
        match self {
            ItemKind::Lesson => "lesson",
            ItemKind::Quiz => "quiz",
            ItemKind::Lab => "lab",
        }
    }

    fn parse(s: &str) -> Option<ItemKind> {
        ItemKind::ALL.into_iter().find(|k| k.name() == s)
    }
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.kind.name(), self.id)
    }
}

/// The ids of one kind of item, in course order.
pub fn ids(course: &crate::content::Course, kind: ItemKind) -> Vec<&str> {
    match kind {
        ItemKind::Lesson => course.lessons.iter().map(|l| l.id.as_str()).collect(),
        ItemKind::Quiz => course.quizzes.iter().map(|q| q.id.as_str()).collect(),
        ItemKind::Lab => course.labs.iter().map(|l| l.id.as_str()).collect(),
    }
}

/// Finds the item `spec` names: `quiz:history`, or a bare `history` when only one kind of item
/// has that id (seven built-in quizzes share their id with a lesson, so a guess would be wrong).
pub fn find_item(course: &crate::content::Course, spec: &str) -> Result<Place, Msg> {
    let has = |kind: ItemKind, id: &str| ids(course, kind).contains(&id);
    let (kinds, id): (Vec<ItemKind>, &str) = match spec.split_once(':') {
        Some((k, id)) => match ItemKind::parse(k) {
            Some(kind) => (vec![kind], id),
            None => {
                return Err(Msg::new("classroom-bad-kind")
                    .arg("spec", spec)
                    .arg("kind", k));
            }
        },
        None => (ItemKind::ALL.to_vec(), spec),
    };
    let found: Vec<Place> = kinds
        .into_iter()
        .filter(|k| has(*k, id))
        .map(|kind| Place {
            kind,
            id: id.to_string(),
        })
        .collect();
    match found.as_slice() {
        [one] => Ok(one.clone()),
        [] => {
            let known: Vec<String> = ItemKind::ALL
                .into_iter()
                .flat_map(|k| {
                    ids(course, k)
                        .into_iter()
                        .map(move |id| format!("{}:{id}", k.name()))
                })
                .collect();
            Err(Msg::new("classroom-unknown-item")
                .arg("spec", spec)
                .arg("known", known.join(", ")))
        }
        many => Err(Msg::new("classroom-ambiguous-item").arg("id", id).arg(
            "choices",
            many.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", "),
        )),
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LessonProgress {
    /// Scroll position (line) to resume at.
    #[serde(default)]
    pub position: usize,
    #[serde(default)]
    pub started_at: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<u64>,
    #[serde(default)]
    pub time_spent_secs: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuizProgress {
    #[serde(default)]
    pub attempts: u32,
    #[serde(default)]
    pub best_score: usize,
    #[serde(default)]
    pub last_score: usize,
    /// Right answers when the first attempt ended (a later retry of the wrong ones hides it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_score: Option<usize>,
    /// Questions in the quiz when it was last taken.
    #[serde(default)]
    pub total: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<u64>,
    #[serde(default)]
    pub time_spent_secs: u64,
    /// The latest answer to each question, kept across retries.
    #[serde(default)]
    pub answers: BTreeMap<String, AnswerRecord>,
    /// An attempt left half-way, resumed by "Continue".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open: Option<crate::quiz::Attempt>,
}

impl QuizProgress {
    /// Questions whose latest answer was wrong: what "retry wrong" asks again.
    pub fn wrong_ids(&self) -> Vec<String> {
        self.answers
            .iter()
            .filter(|(_, a)| !a.right)
            .map(|(id, _)| id.clone())
            .collect()
    }

    /// Right answers among the latest answers (a retry raises this without a full re-run).
    pub fn right_count(&self) -> usize {
        self.answers.values().filter(|a| a.right).count()
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswerRecord {
    /// 1-based option number chosen last time.
    pub chosen: usize,
    pub right: bool,
    /// How many times this question was answered wrong, for the class report.
    #[serde(default)]
    pub wrong_count: u32,
    /// Wrong options chosen (1-based number -> times), for "the most chosen wrong option".
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub wrong_choices: BTreeMap<usize, u32>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabProgress {
    #[serde(default)]
    pub started_at: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completed_at: Option<u64>,
    #[serde(default)]
    pub steps_done: Vec<String>,
    #[serde(default)]
    pub attempts: u32,
    #[serde(default)]
    pub hints_used: u32,
    #[serde(default)]
    pub time_spent_secs: u64,
    #[serde(flatten)]
    pub how: HowTaken,
}

/// How a lab was taken, beyond its steps: kept in the progress file, exported, and merged back
/// from exports alike (its fields sit beside the lab's others in both files).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HowTaken {
    /// The learner opened the solution.
    #[serde(default)]
    pub solution_viewed: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completed_by: Option<LabHow>,
    /// Completed on a kernel without Landlock: the result may have been forged from inside.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unconfined: bool,
    /// The way it was last taken (guided or challenge); files from before the two ways have
    /// none (guided).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub way: Option<crate::content::LabWay>,
    /// Completed the challenge way at some time: a guided run after it does not take that
    /// away (both runs are in the log; the report shows the harder way done).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub challenge_done: bool,
    /// On a class server, the instructor typed in the learner's lab, with the learner's yes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub helped: bool,
}

impl HowTaken {
    /// The way the report gives: challenge once it was completed that way, else the last one.
    pub fn best_way(&self) -> crate::content::LabWay {
        if self.challenge_done {
            crate::content::LabWay::Challenge
        } else {
            self.way.unwrap_or_default()
        }
    }
}
