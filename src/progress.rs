//! The learner's progress: one versioned JSON file, written atomically under a lock so that a
//! crash never leaves half a file and two running instances never overwrite each other's work.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::content::Msg;
use crate::lang::Lang;
// The items and per-item records live in `items`, which events.rs shares; named here too.
pub use crate::items::{
    AnswerRecord, HowTaken, ItemKind, LabHow, LabProgress, LessonProgress, Place, QuizProgress,
    find_item, ids,
};

/// Bumped when the format changes incompatibly; a file with a higher number is refused (never
/// overwritten). Fields added since version 1 all have defaults, so version 1 files read as is.
pub const VERSION: u32 = 1;

/// Environment variable that moves the progress folder (classroom machines, tests).
pub const DATA_DIR_ENV: &str = "ROCM_LEARN_DATA_DIR";

const FILE_NAME: &str = "progress.json";
const LOCK_NAME: &str = "progress.lock";

/// The longest a save waits for the folder's lock (another running copy saving).
pub const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Progress {
    pub version: u32,
    /// The learner's name for exports (`progress --learner NAME`); the login name when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub learner: Option<String>,
    /// The login that first wrote this folder: another login is refused rather than merged
    /// into someone else's record on a shared classroom machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// Where to continue: the last thing opened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last: Option<Place>,
    #[serde(default)]
    pub lessons: BTreeMap<String, LessonProgress>,
    #[serde(default)]
    pub quizzes: BTreeMap<String, QuizProgress>,
    #[serde(default)]
    pub labs: BTreeMap<String, LabProgress>,
    #[serde(default)]
    pub settings: Settings,
    /// Events recorded since the last save, for the store to append to the log.
    #[serde(skip)]
    pub pending: Pending,
}

/// Events not yet in the log. Not part of what progress is: two records that differ only in
/// what waits to be logged are equal.
#[derive(Debug, Clone, Default)]
pub struct Pending(pub Vec<crate::events::Event>);

impl PartialEq for Pending {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// Choices made in the app that should outlive it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// Language picked with the in-app switch; `--lang` and `ROCM_LEARN_LANG` still win.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "lang_code")]
    pub lang: Option<Lang>,
    /// Draw with ASCII instead of box-drawing characters.
    #[serde(default)]
    pub ascii: bool,
    /// The content pack the app was last opened with (`--content`); used when none is named.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
}

/// A language stored by its code (`"ja"`); a code this version does not know (a newer one's,
/// or a hand edit) reads as no choice rather than making the whole file unreadable.
mod lang_code {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::lang::Lang;

    #[allow(clippy::ref_option)] // serde's `serialize_with` hands over a reference
    pub fn serialize<S: Serializer>(lang: &Option<Lang>, s: S) -> Result<S::Ok, S::Error> {
        lang.map(Lang::code).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Lang>, D::Error> {
        let code = Option::<String>::deserialize(d)?;
        Ok(code.as_deref().and_then(Lang::parse))
    }
}

/// One change to progress. The app applies it to its copy at once and the store replays it on
/// the file under the lock, so two running instances merge instead of overwriting each other.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    Quiz {
        result: crate::quiz::QuizResult,
        quiz_total: usize,
        secs: u64,
    },
    Lesson {
        id: String,
        position: usize,
        finished: bool,
        secs: u64,
    },
    Opened(Place),
    /// A quiz attempt left half-way (to resume with the same option order), or `None` once it
    /// is finished or abandoned.
    QuizAttempt {
        quiz: String,
        attempt: Option<crate::quiz::Attempt>,
    },
    /// Forget one item, or everything when `None` (settings and the learner's name stay).
    Reset(Option<Place>),
    Lang(Lang),
    Ascii(bool),
    /// A lab session ended or changed: the steps done now, whether it was solved.
    Lab {
        id: String,
        session: crate::events::LabSession,
    },
    /// The learner opened a lab's solution.
    SolutionViewed(String),
    /// The instructor typed in the learner's lab, with their yes (a class server's help).
    Helped(String),
    /// The way a lab is being taken (guided or challenge), as the learner started it.
    LabWay(String, crate::content::LabWay),
    /// A lab hint revealed: the lab and the step it helps with.
    Hint {
        lab: String,
        step: String,
    },
    /// Where the learner is now (`At`) or a step met: events for the live view that change no
    /// result.
    Live(crate::events::What),
}

/// How much of a course is done: lessons read, quizzes finished, labs completed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    pub lessons_read: usize,
    pub quizzes_done: usize,
    pub labs_done: usize,
}

impl Progress {
    pub fn new() -> Self {
        Progress {
            version: VERSION,
            ..Default::default()
        }
    }

    /// Counts only items the course still has: progress for removed content is kept, not shown.
    pub fn tally(&self, course: &crate::content::Course) -> Tally {
        fn count<'a, R>(
            ids: impl Iterator<Item = &'a String>,
            records: &BTreeMap<String, R>,
            done: impl Fn(&R) -> bool,
        ) -> usize {
            ids.filter(|id| records.get(*id).is_some_and(&done)).count()
        }
        Tally {
            lessons_read: count(course.lessons.iter().map(|l| &l.id), &self.lessons, |x| {
                x.finished_at.is_some()
            }),
            quizzes_done: count(course.quizzes.iter().map(|q| &q.id), &self.quizzes, |x| {
                x.finished_at.is_some()
            }),
            labs_done: count(course.labs.iter().map(|l| &l.id), &self.labs, |x| {
                x.completed_at.is_some()
            }),
        }
    }

    /// Applies a change made in the app: results become events (applied now and logged on
    /// save); settings and a quiz's half-way attempt are not results and change in place.
    pub fn apply(&mut self, change: &Change) {
        use crate::events::What;
        match change {
            Change::Quiz {
                result,
                quiz_total,
                secs,
            } => self.record_quiz(result, *quiz_total, *secs),
            Change::Lesson {
                id,
                position,
                finished,
                secs,
            } => self.record(What::Read {
                item: id.clone(),
                position: *position,
                finished: *finished,
                secs: *secs,
            }),
            Change::Opened(place) => self.record(What::Opened {
                kind: place.kind,
                item: place.id.clone(),
            }),
            Change::Reset(place) => self.record(What::Reset {
                kind: place.as_ref().map(|p| p.kind),
                item: place.as_ref().map(|p| p.id.clone()),
            }),
            Change::Lab { id, session } => self.record(What::Lab {
                item: id.clone(),
                session: session.clone(),
                by_script: false,
            }),
            Change::QuizAttempt { quiz, attempt } => match attempt {
                Some(a) => self.quizzes.entry(quiz.clone()).or_default().open = Some(a.clone()),
                None => {
                    if let Some(q) = self.quizzes.get_mut(quiz) {
                        q.open = None;
                    }
                }
            },
            Change::SolutionViewed(id) => self.record(What::SolutionViewed { item: id.clone() }),
            Change::Helped(id) => self.record(What::Helped { item: id.clone() }),
            Change::LabWay(id, way) => self.record(What::Way {
                item: id.clone(),
                way: *way,
            }),
            Change::Hint { lab, step } => self.record(What::Hint {
                item: lab.clone(),
                step: step.clone(),
            }),
            Change::Live(what) => self.record(what.clone()),
            Change::Lang(l) => self.settings.lang = Some(*l),
            Change::Ascii(a) => self.settings.ascii = *a,
        }
    }

    /// Records one event now: applies it and queues it for the log.
    pub fn record(&mut self, what: crate::events::What) {
        let e = crate::events::Event {
            id: crate::events::new_id(),
            t: now(),
            hash: String::new(),
            what,
        };
        self.apply_event(&e);
        self.pending.0.push(e);
    }

    /// Folds one finished or interrupted quiz run into the record.
    pub fn record_quiz(&mut self, result: &crate::quiz::QuizResult, quiz_total: usize, secs: u64) {
        let answers = result
            .questions
            .iter()
            .filter_map(|q| {
                q.chosen.map(|chosen| crate::events::Answer {
                    question: q.id.clone(),
                    chosen,
                    right: q.right,
                })
            })
            .collect();
        self.record(crate::events::What::Answered {
            item: result.quiz.clone(),
            answers,
            total: quiz_total,
            complete: result.complete,
            secs,
            continues: result.continues,
            score: None,
        });
        // The score the record gives now travels with the event: a learning record store sees
        // the event alone, not the runs before it.
        let now = self.quizzes.get(&result.quiz).map(|q| q.last_score);
        if let Some(crate::events::Event {
            what: crate::events::What::Answered { score, .. },
            ..
        }) = self.pending.0.last_mut()
        {
            *score = now;
        }
    }

    /// The progress a log adds up to.
    pub fn from_events(events: &[crate::events::Event]) -> Progress {
        let mut p = Progress::new();
        for e in events {
            p.apply_event(e);
        }
        p
    }

    /// One step of the fold: what an event does to the record, at the event's own time.
    pub fn apply_event(&mut self, e: &crate::events::Event) {
        use crate::events::{LabSession, Record, What};
        let now = e.t;
        match &e.what {
            What::Opened { kind, item } => {
                if *kind == ItemKind::Lesson {
                    begun(&mut self.lessons, item, now, |l| &mut l.started_at);
                }
                self.last = Some(Place {
                    kind: *kind,
                    id: item.clone(),
                });
            }
            What::Read {
                item,
                position,
                finished,
                secs,
            } => {
                let l = begun(&mut self.lessons, item, now, |l| &mut l.started_at);
                l.position = *position;
                l.time_spent_secs = l.time_spent_secs.saturating_add(*secs);
                if *finished && l.finished_at.is_none() {
                    l.finished_at = Some(now);
                }
            }
            What::Answered {
                item,
                answers,
                total,
                complete,
                secs,
                continues,
                ..
            } => self.fold_quiz(
                item,
                QuizRunFold {
                    answers,
                    total: *total,
                    complete: *complete,
                    secs: *secs,
                    continues: *continues,
                },
                now,
            ),
            What::Lab {
                item,
                session:
                    LabSession {
                        steps_done,
                        complete,
                        hints,
                        secs,
                        session_over,
                        confined,
                        ..
                    },
                by_script,
            } => {
                let l = begun(&mut self.labs, item, now, |l| &mut l.started_at);
                if *session_over {
                    l.attempts = l.attempts.saturating_add(1);
                }
                l.hints_used = l.hints_used.saturating_add(*hints);
                l.time_spent_secs = l.time_spent_secs.saturating_add(*secs);
                // Keep the best: a later attempt with fewer steps done, or a half-finished one
                // after a solved one, does not undo what was reached.
                if l.completed_at.is_none() && steps_done.len() >= l.steps_done.len() {
                    l.steps_done = steps_done.clone();
                }
                if *complete && l.how.way == Some(crate::content::LabWay::Challenge) {
                    l.how.challenge_done = true;
                }
                if *complete && l.completed_at.is_none() {
                    l.completed_at = Some(now);
                    l.how.completed_by = Some(if *by_script {
                        LabHow::Script
                    } else {
                        LabHow::Interactive
                    });
                    l.how.unconfined = !*confined;
                }
                self.last = Some(Place {
                    kind: ItemKind::Lab,
                    id: item.clone(),
                });
            }
            What::SolutionViewed { item } => {
                self.labs
                    .entry(item.clone())
                    .or_default()
                    .how
                    .solution_viewed = true;
            }
            What::Way { item, way } => {
                self.labs.entry(item.clone()).or_default().how.way = Some(*way);
            }
            What::Helped { item } => {
                self.labs.entry(item.clone()).or_default().how.helped = true;
            }
            What::Reset { kind, item } => match kind.zip(item.as_ref()) {
                None => {
                    self.lessons.clear();
                    self.quizzes.clear();
                    self.labs.clear();
                    self.last = None;
                }
                Some((kind, id)) => {
                    match kind {
                        ItemKind::Lesson => drop(self.lessons.remove(id)),
                        ItemKind::Quiz => drop(self.quizzes.remove(id)),
                        ItemKind::Lab => drop(self.labs.remove(id)),
                    }
                    let place = Place {
                        kind,
                        id: id.clone(),
                    };
                    if self.last.as_ref() == Some(&place) {
                        self.last = None;
                    }
                }
            },
            What::Imported { item, record } => match record {
                Record::Lesson(r) => merge_import(&mut self.lessons, item, r, |r| r.finished_at),
                Record::Quiz(r) => merge_import(&mut self.quizzes, item, r, |r| r.finished_at),
                Record::Lab(r) => merge_import(&mut self.labs, item, r, |r| r.completed_at),
            },
            What::Hint { item, .. } => {
                let l = begun(&mut self.labs, item, now, |l| &mut l.started_at);
                l.hints_used = l.hints_used.saturating_add(1);
            }
            // A step met counts as it is met, not only with its session's end: a session cut
            // off (its class server killed) keeps every step it reached.
            What::StepMet { item, step } => {
                let l = begun(&mut self.labs, item, now, |l| &mut l.started_at);
                if l.completed_at.is_none() && !l.steps_done.contains(step) {
                    l.steps_done.push(step.clone());
                }
            }
            // Review and exam results are read from the log by `review` and `exam`.
            What::At { .. } | What::Reviewed { .. } | What::Exam { .. } => {}
        }
    }

    fn fold_quiz(&mut self, item: &str, run: QuizRunFold, now: u64) {
        let QuizRunFold {
            answers,
            total,
            complete,
            secs,
            continues,
        } = run;
        let entry = self.quizzes.entry(item.to_string()).or_default();
        // A run that carries on an attempt left half-way is that attempt, not another one.
        let carries_on = continues && entry.attempts > 0;
        if !answers.is_empty() && !carries_on {
            entry.attempts = entry.attempts.saturating_add(1);
        }
        for a in answers {
            let rec = entry.answers.entry(a.question.clone()).or_default();
            rec.chosen = a.chosen;
            rec.right = a.right;
            if !a.right {
                rec.wrong_count = rec.wrong_count.saturating_add(1);
                let n = rec.wrong_choices.entry(a.chosen).or_default();
                *n = n.saturating_add(1);
            }
        }
        entry.total = total;
        entry.time_spent_secs = entry.time_spent_secs.saturating_add(secs);
        entry.last_score = entry.right_count();
        // The first attempt's score is its score when it ends: each run that carries it on
        // moves it.
        let first_goes_on = carries_on && entry.attempts == 1;
        if !answers.is_empty() && (entry.first_score.is_none() || first_goes_on) {
            entry.first_score = Some(entry.last_score);
        }
        entry.best_score = entry.best_score.max(entry.last_score);
        if complete && entry.answers.len() >= total {
            entry.finished_at = Some(now);
        }
        self.last = Some(Place {
            kind: ItemKind::Quiz,
            id: item.to_string(),
        });
    }

    /// Events that carry over every result this record holds: what an old progress file, made
    /// before the log, becomes so that the log loses nothing.
    pub fn import_events(&self) -> Vec<crate::events::Event> {
        use crate::events::{Event, Record, What};
        let ev = |item: &String, record: Record, t: u64| Event {
            id: crate::events::new_id(),
            t,
            hash: String::new(),
            what: What::Imported {
                item: item.clone(),
                record,
            },
        };
        let lessons = self.lessons.iter().map(|(id, r)| {
            ev(
                id,
                Record::Lesson(r.clone()),
                r.finished_at.unwrap_or(r.started_at),
            )
        });
        let quizzes = self.quizzes.iter().map(|(id, r)| {
            let mut r = r.clone();
            r.open = None;
            let t = r.finished_at.unwrap_or(0);
            ev(id, Record::Quiz(r), t)
        });
        let labs = self.labs.iter().map(|(id, r)| {
            ev(
                id,
                Record::Lab(r.clone()),
                r.completed_at.unwrap_or(r.started_at),
            )
        });
        lessons.chain(quizzes).chain(labs).collect()
    }

    fn has_results(&self) -> bool {
        !(self.lessons.is_empty() && self.quizzes.is_empty() && self.labs.is_empty())
    }
}

/// One quiz run as the fold takes it from an `answered` event.
struct QuizRunFold<'a> {
    answers: &'a [crate::events::Answer],
    total: usize,
    complete: bool,
    secs: u64,
    continues: bool,
}

/// The record of `item`, made at its first event: its start is the time of the first one.
fn begun<'a, R: Default>(
    map: &'a mut BTreeMap<String, R>,
    item: &str,
    now: u64,
    started_at: fn(&mut R) -> &mut u64,
) -> &'a mut R {
    let record = map.entry(item.to_string()).or_default();
    let start = started_at(record);
    if *start == 0 {
        *start = now;
    }
    record
}

/// An imported record joins what is there: a finished record is never replaced by an unfinished
/// one; otherwise the later import wins (events fold in time order).
fn merge_import<R: Clone>(
    map: &mut BTreeMap<String, R>,
    item: &str,
    record: &R,
    finished: impl Fn(&R) -> Option<u64>,
) {
    match map.get(item) {
        Some(old) if finished(old).is_some() && finished(record).is_none() => {}
        _ => {
            map.insert(item.to_string(), record.clone());
        }
    }
}

impl Progress {
    /// What has been finished, and how: a new finished item, a retaken quiz or a better score
    /// changes it (the class submit folder gets a new export then).
    fn finished(&self) -> Vec<(ItemKind, String, u64, u32, usize)> {
        let lessons = self.lessons.iter().filter_map(|(id, l)| {
            l.finished_at
                .map(|t| (ItemKind::Lesson, id.clone(), t, 0, 0))
        });
        let quizzes = self.quizzes.iter().filter_map(|(id, q)| {
            q.finished_at
                .map(|t| (ItemKind::Quiz, id.clone(), t, q.attempts, q.last_score))
        });
        let labs = self.labs.iter().filter_map(|(id, l)| {
            l.completed_at
                .map(|t| (ItemKind::Lab, id.clone(), t, l.attempts, l.steps_done.len()))
        });
        lessons.chain(quizzes).chain(labs).collect()
    }
}

/// The login name of whoever runs this, from the environment.
pub fn login() -> Option<String> {
    ["USER", "LOGNAME", "USERNAME"]
        .iter()
        .find_map(|v| std::env::var(v).ok().filter(|s| !s.trim().is_empty()))
}

/// A name made safe for a file name: letters and digits of any script, `-`, `_`, `.` and `@`.
pub fn slug(name: &str) -> String {
    let s: String = name
        .trim()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || "-_.@".contains(c) {
                c
            } else {
                '-'
            }
        })
        .collect();
    s.trim_matches(['-', '.']).to_string()
}

/// Seconds since the Unix epoch.
pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// `$ROCM_LEARN_DATA_DIR`, else the platform's data folder: where this install keeps its data.
pub fn base_dir() -> Result<PathBuf, ProgressError> {
    if let Some(dir) = std::env::var_os(DATA_DIR_ENV).filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "rocm-learn")
        .map(|d| d.data_dir().to_path_buf())
        .ok_or_else(|| ProgressError(Msg::new("progress-no-home").arg("env", DATA_DIR_ENV)))
}

/// A problem with the progress file, as a message for the learner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgressError(pub Msg);

impl std::fmt::Display for ProgressError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for ProgressError {}

impl ProgressError {
    /// The folder's lock was held past `LOCK_WAIT`: nothing was written, so the same change
    /// may be tried again later.
    pub fn is_locked(&self) -> bool {
        self.0.id == "progress-locked"
    }
}

/// Something the learner should be told while loading (not an error: work goes on).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// The file could not be read as progress; it was moved aside and a fresh one started.
    CorruptMovedAside { path: PathBuf, moved_to: PathBuf },
    /// Saved, but something done after saving failed (writing to the class submit folder).
    Failed(Msg),
}

impl Notice {
    pub fn msg(&self) -> Msg {
        match self {
            Notice::CorruptMovedAside { path, moved_to } => Msg::new("progress-corrupt")
                .arg("path", path.display())
                .arg("moved", moved_to.display()),
            Notice::Failed(msg) => msg.clone(),
        }
    }
}

/// Environment variable naming the learner: exports are signed with it, and each learner gets a
/// folder of their own under the data folder (several people on one classroom login).
pub const LEARNER_ENV: &str = "ROCM_LEARN_LEARNER";

/// The folder of one learner's progress in a shared data folder (a class server's).
pub fn learner_dir(base: &Path, name: &str) -> PathBuf {
    base.join(LEARNERS_DIR).join(name)
}

/// The shared data folder's folder of learners' folders.
pub const LEARNERS_DIR: &str = "learners";

/// What a save did, for the work done after it (the class submit folder, the LRS queue).
#[derive(Debug, Clone, Default)]
pub struct Saved {
    /// An item was finished anew, a quiz retaken or a score raised.
    pub finished: bool,
    /// The events this save appended to the log.
    pub events: Vec<crate::events::Event>,
}

/// Called with the progress after every save that logged events.
pub type OnFinish = std::sync::Arc<dyn Fn(&Progress, &Saved) -> Result<(), Msg> + Send + Sync>;

/// Where progress lives and how it is read and written.
#[derive(Clone)]
pub struct Store {
    dir: PathBuf,
    /// The folder whose file keeps the settings (language, ASCII) shared by every pack.
    settings_dir: Option<PathBuf>,
    on_finish: Option<OnFinish>,
    /// Each item's content hash, stamped on the events about it.
    hashes: Option<std::sync::Arc<ItemHashes>>,
    /// Folders of this pack's earlier versions (`packs/ID@VERSION`), from before results were
    /// keyed by content: read once into the log when this folder has no progress yet.
    legacy: Vec<PathBuf>,
}

/// Content hashes of a course's items, each computed the first time an event about the item is
/// saved: hashing every item when the store opened delayed the app's first frame.
struct ItemHashes {
    course: crate::content::Course,
    /// `kind:id` -> hash, or `None` for an item the course does not have.
    known: std::sync::Mutex<BTreeMap<String, Option<String>>>,
}

impl ItemHashes {
    fn get(&self, place: &Place) -> Option<String> {
        let mut known = self
            .known
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        known
            .entry(place.to_string())
            .or_insert_with(|| crate::events::content_hash(&self.course, place))
            .clone()
    }
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("dir", &self.dir).finish()
    }
}

impl Store {
    pub fn at(dir: impl Into<PathBuf>) -> Self {
        Store {
            dir: dir.into(),
            settings_dir: None,
            on_finish: None,
            hashes: None,
            legacy: Vec::new(),
        }
    }

    /// `$ROCM_LEARN_DATA_DIR`, else the platform's data folder (`~/.local/share/rocm-learn`);
    /// with `ROCM_LEARN_LEARNER` set, that learner's folder inside it (`learners/NAME`).
    pub fn locate() -> Result<Self, ProgressError> {
        let base = base_dir()?;
        let dir = match std::env::var(LEARNER_ENV)
            .ok()
            .map(|n| slug(&n))
            .filter(|n| !n.is_empty())
        {
            Some(name) => learner_dir(&base, &name),
            None => base,
        };
        Ok(Store::at(dir))
    }

    /// The store of one pack's progress: the built-in course keeps the folder itself, a pack
    /// gets `packs/ID` inside it, so that two courses' items never mix even when they share
    /// ids. A new version of the pack keeps the folder: results are keyed by each item's
    /// content, so unchanged items keep their progress. Settings stay in the folder itself.
    pub fn for_pack(self, pack: &crate::content::Pack) -> Self {
        if pack.is_builtin() {
            return self;
        }
        let packs = self.dir.join("packs");
        let prefix = format!("{}@", slug(&pack.id));
        let mut legacy: Vec<PathBuf> = fs::read_dir(&packs)
            .map(|d| {
                d.filter_map(Result::ok)
                    .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
                    .map(|e| e.path())
                    .collect()
            })
            .unwrap_or_default();
        legacy.sort();
        Store {
            dir: packs.join(slug(&pack.id)),
            settings_dir: Some(self.dir),
            on_finish: self.on_finish,
            hashes: self.hashes,
            legacy,
        }
    }

    /// Stamps the events of every item of `course` with the item's content hash.
    pub fn with_course(mut self, course: &crate::content::Course) -> Self {
        self.hashes = Some(std::sync::Arc::new(ItemHashes {
            course: course.clone(),
            known: std::sync::Mutex::default(),
        }));
        self
    }

    /// Calls `f` after every save that logged events (it decides what to send where).
    pub fn on_finish(mut self, f: OnFinish) -> Self {
        self.on_finish = Some(f);
        self
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The learner's event log.
    pub fn log_path(&self) -> PathBuf {
        self.dir.join(crate::events::LOG_NAME)
    }

    /// The events logged so far, in time order; an unreadable log reads as none.
    pub fn log(&self) -> Vec<crate::events::Event> {
        let mut events = crate::events::read(&self.log_path()).unwrap_or_default();
        crate::events::sort(&mut events);
        events
    }

    /// Reads progress if it is there and readable, without reporting or moving anything
    /// (used for the saved language before the UI exists).
    pub fn peek(&self) -> Option<Progress> {
        match parse(&fs::read(self.path()).ok()?) {
            Parsed::Ok(p) => Some(*p),
            _ => None,
        }
    }

    pub fn path(&self) -> PathBuf {
        self.dir.join(FILE_NAME)
    }

    /// Reads progress. A missing file is a fresh start; a corrupt one is moved aside (never
    /// deleted) and reported; a file from a newer rocm-learn is an error so it is not overwritten.
    pub fn load(&self) -> Result<(Progress, Option<Notice>), ProgressError> {
        let path = self.path();
        let bytes = match fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok((self.legacy_progress(), None));
            }
            Err(e) => return Err(io_error("progress-read-failed", &path, e)),
        };
        match parse(&bytes) {
            Parsed::Ok(p) => match (&p.owner, login()) {
                (Some(owner), Some(me)) if *owner != me => Err(ProgressError(
                    Msg::new("classroom-not-your-folder")
                        .arg("dir", self.dir.display())
                        .arg("owner", owner)
                        .arg("env", LEARNER_ENV),
                )),
                _ => Ok((*p, None)),
            },
            Parsed::TooNew(version) => Err(ProgressError(
                Msg::new("progress-too-new")
                    .arg("path", path.display())
                    .arg("version", version),
            )),
            Parsed::Corrupt => {
                let moved_to = self.dir.join(format!("{FILE_NAME}.corrupt-{}", now()));
                fs::rename(&path, &moved_to)
                    .map_err(|e| io_error("progress-write-failed", &moved_to, e))?;
                Ok((
                    Progress::new(),
                    Some(Notice::CorruptMovedAside { path, moved_to }),
                ))
            }
        }
    }

    /// Applies a change under an exclusive lock: re-reads the file (another instance may have
    /// written since we loaded), applies `change`, appends its events to the log and replaces
    /// the file atomically.
    pub fn update(
        &self,
        change: impl FnOnce(&mut Progress),
    ) -> Result<(Progress, Option<Notice>), ProgressError> {
        let mut change = Some(change);
        let mut before = (Vec::new(), Settings::default());
        let (progress, mut notice, events) = self.locked(&mut |p| {
            before = (p.finished(), p.settings.clone());
            if let Some(c) = change.take() {
                c(p);
            }
        })?;
        let (finished_before, settings_before) = before;
        if progress.settings != settings_before
            && let Some(dir) = &self.settings_dir
        {
            let (lang, ascii) = (progress.settings.lang, progress.settings.ascii);
            Store::at(dir).locked(&mut |p| {
                p.settings.lang = lang;
                p.settings.ascii = ascii;
            })?;
        }
        let saved = Saved {
            finished: progress.finished() != finished_before,
            events,
        };
        if let Some(f) = &self.on_finish
            && (saved.finished || !saved.events.is_empty())
            && let Err(msg) = f(&progress, &saved)
        {
            notice = notice.or(Some(Notice::Failed(msg)));
        }
        Ok((progress, notice))
    }

    /// Re-reads, changes and writes the file under the lock; the change's events go to the log
    /// first (the log is the record, the file its view), preceded, the first time, by what an
    /// older progress file held.
    fn locked(
        &self,
        change: &mut dyn FnMut(&mut Progress),
    ) -> Result<(Progress, Option<Notice>, Vec<crate::events::Event>), ProgressError> {
        crate::unix::files::create_dir_as_folder(&self.dir)
            .map_err(|e| io_error("progress-write-failed", &self.dir, e))?;
        let lock = self.lock()?;
        let (mut progress, notice) = self.load()?;
        let log_path = self.log_path();
        let mut events = if !log_path.exists() && progress.has_results() {
            progress.import_events()
        } else {
            Vec::new()
        };
        progress.pending.0.clear();
        change(&mut progress);
        events.append(&mut progress.pending.0);
        if let Some(hashes) = &self.hashes {
            for e in events.iter_mut().filter(|e| e.hash.is_empty()) {
                if let Some(h) = e.what.place().and_then(|p| hashes.get(&p)) {
                    e.hash = h;
                }
            }
        }
        crate::events::append(&log_path, &events)
            .map_err(|e| io_error("progress-write-failed", &log_path, e))?;
        progress.version = VERSION;
        if progress.owner.is_none() {
            progress.owner = login();
        }
        self.write(&progress)?;
        drop(lock); // unlocks
        Ok((progress, notice, events))
    }

    /// Adds events recorded elsewhere (another server of the class) to this log, each once,
    /// and makes the file the fold of the whole log again; settings, owner and name stay.
    /// Returns how many were new.
    pub fn absorb(&self, theirs: &[crate::events::Event]) -> Result<usize, ProgressError> {
        crate::unix::files::create_dir_as_folder(&self.dir)
            .map_err(|e| io_error("progress-write-failed", &self.dir, e))?;
        let lock = self.lock()?;
        let (old, _) = self.load()?;
        let log_path = self.log_path();
        let mut mine = if !log_path.exists() && old.has_results() {
            old.import_events()
        } else {
            crate::events::read(&log_path)
                .map_err(|e| io_error("progress-read-failed", &log_path, e))?
        };
        let known: std::collections::BTreeSet<&str> = mine.iter().map(|e| e.id.as_str()).collect();
        let mut new: Vec<crate::events::Event> = theirs
            .iter()
            .filter(|e| !known.contains(e.id.as_str()))
            .cloned()
            .collect();
        // One event given twice by the caller is still one event.
        let mut seen = std::collections::BTreeSet::new();
        new.retain(|e| seen.insert(e.id.clone()));
        if new.is_empty() {
            return Ok(0);
        }
        if !log_path.exists() {
            crate::events::append(&log_path, &mine)
                .map_err(|e| io_error("progress-write-failed", &log_path, e))?;
        }
        crate::events::append(&log_path, &new)
            .map_err(|e| io_error("progress-write-failed", &log_path, e))?;
        let added = new.len();
        mine.append(&mut new);
        crate::events::sort(&mut mine);
        let mut progress = Progress::from_events(&mine);
        progress.settings = old.settings;
        progress.learner = old.learner;
        // Not this process's login: the server absorbs for the learner, whose app sets it.
        progress.owner = old.owner;
        progress.version = VERSION;
        self.write(&progress)?;
        drop(lock); // unlocks
        Ok(added)
    }

    /// Takes the folder's lock, waiting at most `LOCK_WAIT`: a save holds it for milliseconds,
    /// so a holder that keeps it longer is stuck, and the learner is told which file and what
    /// to do rather than left with a frozen screen.
    fn lock(&self) -> Result<File, ProgressError> {
        use std::os::unix::fs::OpenOptionsExt;
        let path = self.dir.join(LOCK_NAME);
        // Empty, but nobody else's to open (an open file can be locked by anyone who has it).
        let f = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .mode(0o600)
            .open(&path)
            .map_err(|e| io_error("progress-write-failed", &path, e))?;
        let deadline = std::time::Instant::now() + LOCK_WAIT;
        let mut pause = std::time::Duration::from_millis(1);
        loop {
            match f.try_lock() {
                Ok(()) => return Ok(f),
                Err(fs::TryLockError::Error(e)) => {
                    return Err(io_error("progress-write-failed", &path, e));
                }
                Err(fs::TryLockError::WouldBlock) => {}
            }
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return Err(ProgressError(
                    Msg::new("progress-locked")
                        .arg("path", path.display())
                        .arg("secs", LOCK_WAIT.as_secs()),
                ));
            }
            std::thread::sleep(pause.min(left));
            pause = (pause * 2).min(std::time::Duration::from_millis(50));
        }
    }

    /// What the folders of this pack's earlier versions held, joined; a fresh start if none.
    fn legacy_progress(&self) -> Progress {
        let mut events = Vec::new();
        for dir in &self.legacy {
            if let Ok(bytes) = fs::read(dir.join(FILE_NAME))
                && let Parsed::Ok(p) = parse(&bytes)
            {
                events.extend(p.import_events());
            }
        }
        crate::events::sort(&mut events);
        Progress::from_events(&events)
    }

    /// The settings to start with: this store's, or the shared ones of a pack's store.
    pub fn settings(&self) -> Settings {
        let own = self.peek().map(|p| p.settings).unwrap_or_default();
        match &self.settings_dir {
            Some(dir) => Store::at(dir).peek().map(|p| p.settings).unwrap_or(own),
            None => own,
        }
    }

    fn write(&self, progress: &Progress) -> Result<(), ProgressError> {
        let path = self.path();
        let mut json = serde_json::to_vec_pretty(progress).expect("progress serialises");
        json.push(b'\n');
        crate::unix::files::write_atomic_as_folder(&path, &json)
            .map_err(|e| io_error("progress-write-failed", &path, e))?;
        // Make the rename itself durable.
        if let Ok(d) = File::open(&self.dir) {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

enum Parsed {
    // Boxed: the record is much larger than the other answers.
    Ok(Box<Progress>),
    TooNew(u64),
    Corrupt,
}

fn parse(bytes: &[u8]) -> Parsed {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(bytes) else {
        return Parsed::Corrupt;
    };
    // A file without a version predates versioning and is not ours.
    match value.get("version").and_then(serde_json::Value::as_u64) {
        None => Parsed::Corrupt,
        // Checked before reading the rest: a newer layout may not read as this one.
        Some(v) if v > u64::from(VERSION) => Parsed::TooNew(v),
        Some(_) => {
            serde_json::from_value(value).map_or(Parsed::Corrupt, |p| Parsed::Ok(Box::new(p)))
        }
    }
}

fn io_error(id: &'static str, path: &Path, e: std::io::Error) -> ProgressError {
    ProgressError(Msg::new(id).arg("path", path.display()).arg("error", e))
}
