//! The learner's progress: one versioned JSON file, written atomically under a lock so that a
//! crash never leaves half a file and two running instances never overwrite each other's work.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::content::Msg;
use crate::lang::Lang;

/// Bumped when the format changes incompatibly; a file with a higher number is refused (never
/// overwritten). Fields added since version 1 all have defaults, so version 1 files read as is.
pub const VERSION: u32 = 1;

/// Environment variable that moves the progress folder (classroom machines, tests).
pub const DATA_DIR_ENV: &str = "ROCM_LEARN_DATA_DIR";

const FILE_NAME: &str = "progress.json";
const LOCK_NAME: &str = "progress.lock";

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
        steps_done: Vec<String>,
        complete: bool,
        hints: u32,
        secs: u64,
        /// The session ended (an attempt to count), rather than a mid-session "just solved".
        session_over: bool,
        /// The learner's processes were confined (Landlock): a completion cannot be forged.
        confined: bool,
    },
    /// The learner opened a lab's solution.
    SolutionViewed(String),
    /// The way a lab is being taken (guided or challenge), as the learner started it.
    LabWay(String, crate::content::LabWay),
}

/// How a lab was completed: in the app's shell, or graded from a file (`lab ID --script FILE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LabHow {
    Interactive,
    Script,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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
                .map(|p| p.to_string())
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
    #[serde(default)]
    pub solution_viewed: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completed_by: Option<LabHow>,
    /// Completed on a kernel without Landlock: the result may have been forged from inside.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unconfined: bool,
    /// The way it was last taken; files from before the two ways have none (guided).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub way: Option<crate::content::LabWay>,
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
        Tally {
            lessons_read: course
                .lessons
                .iter()
                .filter(|l| {
                    self.lessons
                        .get(&l.id)
                        .is_some_and(|x| x.finished_at.is_some())
                })
                .count(),
            quizzes_done: course
                .quizzes
                .iter()
                .filter(|q| {
                    self.quizzes
                        .get(&q.id)
                        .is_some_and(|x| x.finished_at.is_some())
                })
                .count(),
            labs_done: course
                .labs
                .iter()
                .filter(|l| {
                    self.labs
                        .get(&l.id)
                        .is_some_and(|x| x.completed_at.is_some())
                })
                .count(),
        }
    }

    pub fn apply(&mut self, change: &Change) {
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
            } => {
                let now = now();
                let e = self.lessons.entry(id.clone()).or_default();
                if e.started_at == 0 {
                    e.started_at = now;
                }
                e.position = *position;
                e.time_spent_secs = e.time_spent_secs.saturating_add(*secs);
                if *finished && e.finished_at.is_none() {
                    e.finished_at = Some(now);
                }
            }
            Change::Opened(place) => {
                if place.kind == ItemKind::Lesson {
                    let e = self.lessons.entry(place.id.clone()).or_default();
                    if e.started_at == 0 {
                        e.started_at = now();
                    }
                }
                self.last = Some(place.clone());
            }
            Change::Reset(None) => {
                self.lessons.clear();
                self.quizzes.clear();
                self.labs.clear();
                self.last = None;
            }
            Change::Reset(Some(place)) => {
                match place.kind {
                    ItemKind::Lesson => drop(self.lessons.remove(&place.id)),
                    ItemKind::Quiz => drop(self.quizzes.remove(&place.id)),
                    ItemKind::Lab => drop(self.labs.remove(&place.id)),
                }
                if self.last.as_ref() == Some(place) {
                    self.last = None;
                }
            }
            Change::Lab {
                id,
                steps_done,
                complete,
                hints,
                secs,
                session_over,
                confined,
            } => {
                let now = now();
                let e = self.labs.entry(id.clone()).or_default();
                if e.started_at == 0 {
                    e.started_at = now;
                }
                if *session_over {
                    e.attempts = e.attempts.saturating_add(1);
                }
                e.hints_used = e.hints_used.saturating_add(*hints);
                e.time_spent_secs = e.time_spent_secs.saturating_add(*secs);
                // Keep the best: a later attempt with fewer steps done, or a half-finished one
                // after a solved one, does not undo what was reached.
                if e.completed_at.is_none() && steps_done.len() >= e.steps_done.len() {
                    e.steps_done = steps_done.clone();
                }
                if *complete && e.completed_at.is_none() {
                    e.completed_at = Some(now);
                    e.completed_by = Some(LabHow::Interactive);
                    e.unconfined = !*confined;
                }
                self.last = Some(Place {
                    kind: ItemKind::Lab,
                    id: id.clone(),
                });
            }
            Change::QuizAttempt { quiz, attempt } => match attempt {
                Some(a) => self.quizzes.entry(quiz.clone()).or_default().open = Some(a.clone()),
                None => {
                    if let Some(q) = self.quizzes.get_mut(quiz) {
                        q.open = None;
                    }
                }
            },
            Change::SolutionViewed(id) => {
                self.labs.entry(id.clone()).or_default().solution_viewed = true;
            }
            Change::LabWay(id, way) => {
                self.labs.entry(id.clone()).or_default().way = Some(*way);
            }
            Change::Lang(l) => self.settings.lang = Some(*l),
            Change::Ascii(a) => self.settings.ascii = *a,
        }
    }

    /// Folds one finished or interrupted quiz run into the record.
    pub fn record_quiz(&mut self, result: &crate::quiz::QuizResult, quiz_total: usize, secs: u64) {
        let now = now();
        let entry = self.quizzes.entry(result.quiz.clone()).or_default();
        if result.answered > 0 {
            entry.attempts = entry.attempts.saturating_add(1);
        }
        for q in &result.questions {
            let Some(chosen) = q.chosen else { continue };
            let rec = entry.answers.entry(q.id.clone()).or_default();
            rec.chosen = chosen;
            rec.right = q.right;
            if !q.right {
                rec.wrong_count = rec.wrong_count.saturating_add(1);
                let n = rec.wrong_choices.entry(chosen).or_default();
                *n = n.saturating_add(1);
            }
        }
        entry.total = quiz_total;
        entry.time_spent_secs = entry.time_spent_secs.saturating_add(secs);
        entry.last_score = entry.right_count();
        if entry.first_score.is_none() && result.answered > 0 {
            entry.first_score = Some(entry.last_score);
        }
        entry.best_score = entry.best_score.max(entry.last_score);
        if result.complete && entry.answers.len() >= quiz_total {
            entry.finished_at = Some(now);
        }
        self.last = Some(Place {
            kind: ItemKind::Quiz,
            id: result.quiz.clone(),
        });
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

/// A problem with the progress file, as a message for the learner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgressError(pub Msg);

impl std::fmt::Display for ProgressError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for ProgressError {}

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

/// Called with the progress after a change that finished an item (the class submit folder).
pub type OnFinish = std::sync::Arc<dyn Fn(&Progress) -> Result<(), Msg> + Send + Sync>;

/// Where progress lives and how it is read and written.
#[derive(Clone)]
pub struct Store {
    dir: PathBuf,
    /// The folder whose file keeps the settings (language, ASCII) shared by every pack.
    settings_dir: Option<PathBuf>,
    on_finish: Option<OnFinish>,
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
        }
    }

    /// `$ROCM_LEARN_DATA_DIR`, else the platform's data folder (`~/.local/share/rocm-learn`);
    /// with `ROCM_LEARN_LEARNER` set, that learner's folder inside it (`learners/NAME`).
    pub fn locate() -> Result<Self, ProgressError> {
        let base = if let Some(dir) = std::env::var_os(DATA_DIR_ENV).filter(|d| !d.is_empty()) {
            PathBuf::from(dir)
        } else {
            directories::ProjectDirs::from("", "", "rocm-learn")
                .map(|d| d.data_dir().to_path_buf())
                .ok_or_else(|| {
                    ProgressError(Msg::new("progress-no-home").arg("env", DATA_DIR_ENV))
                })?
        };
        let dir = match std::env::var(LEARNER_ENV)
            .ok()
            .map(|n| slug(&n))
            .filter(|n| !n.is_empty())
        {
            Some(name) => base.join("learners").join(name),
            None => base,
        };
        Ok(Store::at(dir))
    }

    /// The store of one pack's progress: the built-in course keeps the folder itself, a pack
    /// gets `packs/ID@VERSION` inside it, so that two courses' items never mix even when they
    /// share ids. Settings stay in the folder itself, shared by every pack.
    pub fn for_pack(self, pack: &crate::content::Pack) -> Self {
        if pack.is_builtin() {
            return self;
        }
        let dir = self
            .dir
            .join("packs")
            .join(slug(&format!("{}@{}", pack.id, pack.version)));
        Store {
            dir,
            settings_dir: Some(self.dir),
            on_finish: self.on_finish,
        }
    }

    /// Calls `f` after every change that finishes a lesson, quiz or lab.
    pub fn on_finish(mut self, f: OnFinish) -> Self {
        self.on_finish = Some(f);
        self
    }

    pub fn dir(&self) -> &Path {
        &self.dir
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
                return Ok((Progress::new(), None));
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
    /// written since we loaded), applies `change`, and replaces the file atomically.
    pub fn update(
        &self,
        change: impl FnOnce(&mut Progress),
    ) -> Result<(Progress, Option<Notice>), ProgressError> {
        let mut change = Some(change);
        let mut before = (Vec::new(), Settings::default());
        let (progress, mut notice) = self.locked(&mut |p| {
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
        if let Some(f) = &self.on_finish
            && progress.finished() != finished_before
            && let Err(msg) = f(&progress)
        {
            notice = notice.or(Some(Notice::Failed(msg)));
        }
        Ok((progress, notice))
    }

    /// Re-reads, changes and writes the file under the lock.
    fn locked(
        &self,
        change: &mut dyn FnMut(&mut Progress),
    ) -> Result<(Progress, Option<Notice>), ProgressError> {
        fs::create_dir_all(&self.dir)
            .map_err(|e| io_error("progress-write-failed", &self.dir, e))?;
        let lock_path = self.dir.join(LOCK_NAME);
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(|e| io_error("progress-write-failed", &lock_path, e))?;
        lock.lock()
            .map_err(|e| io_error("progress-write-failed", &lock_path, e))?;
        let (mut progress, notice) = self.load()?;
        change(&mut progress);
        progress.version = VERSION;
        if progress.owner.is_none() {
            progress.owner = login();
        }
        self.write(&progress)?;
        drop(lock); // unlocks
        Ok((progress, notice))
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
        crate::sim::fsx::write_atomic(&path, &json)
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
    match value.get("version").and_then(|v| v.as_u64()) {
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
