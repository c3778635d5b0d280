//! `rocm-learn report FILE|DIR|-...`: a class summary from learners' exported progress: who
//! finished what, each learner's items (first and best score, time, hints, solutions viewed),
//! the hardest questions (and the wrong answer most chosen), and who got stuck where in labs.
//!
//! Exports of another pack are listed, never merged. Every export of one learner is merged by
//! the union of their event logs (an export from before the log stands for its items), so a
//! learner who worked on two machines keeps the work of both; the report says from how many
//! machines a learner's events come and flags one name used by two logins. Counts come from
//! learners' files, so every sum saturates instead of wrapping.

use std::collections::BTreeMap;

use crate::content::{Course, Pack};
use crate::export::{Export, Item, Status, csv_field};
use crate::i18n::I18n;
// What a merge takes and gives; named here too, where a report's callers look for them.
pub use crate::merge::{Flag, Input, Live};
use crate::progress::ItemKind;
use crate::width::{pad, str_width, truncate, widest};

#[derive(Debug, Clone, PartialEq)]
pub struct LearnerRow {
    pub learner: String,
    pub machine: String,
    /// Installs (machines) the learner's events come from.
    pub machines: usize,
    /// Files merged into this learner's record.
    pub files: usize,
    /// What an instructor should look at: one name used by two logins, a file not taken.
    pub flags: Vec<Flag>,
    /// Where the learner is now, if in the middle of something.
    pub live: Option<Live>,
    /// The learner's merged record.
    pub progress: crate::progress::Progress,
    /// The install keys of the files taken.
    pub keys: Vec<String>,
    pub lessons_done: usize,
    pub quizzes_done: usize,
    /// Right answers and questions over the quizzes taken (a quiz never taken adds nothing).
    pub right: usize,
    pub asked: usize,
    pub labs_done: usize,
    /// Quiz id -> (score, total), for quizzes taken.
    pub quizzes: BTreeMap<String, (usize, usize)>,
    /// Lab id -> (steps done, steps), for labs started.
    pub labs: BTreeMap<String, (usize, usize)>,
    /// The items started, in course order, as exported.
    pub items: Vec<Item>,
    /// Every item of the course, started or not.
    pub all_items: Vec<Item>,
    /// The items (`kind:id`) whose result a class server computed: the same from the files a
    /// class server signed alone. Proof, not the learner's word.
    pub by_server: std::collections::BTreeSet<String>,
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
    /// Who is stuck there, by name.
    pub learners: Vec<String>,
}

/// An export left out because it belongs to another course.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Foreign {
    pub learner: String,
    pub pack: String,
}

/// The install keys each learner's files were signed with in earlier reports (trust on first
/// use), kept in the instructor's data folder, never in the submit folder others can write.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct KnownKeys {
    /// `pack-id/learner` -> keys.
    #[serde(default)]
    pub keys: BTreeMap<String, Vec<String>>,
    /// The keys of class servers (`rocm-learn serve`) for this report: what they signed, the
    /// server computed. Given each run (`report --class`), never kept.
    #[serde(skip)]
    pub servers: Vec<String>,
    /// The class folders this report is over, with the keys they record as each learner's.
    /// With any, a learner's files are taken only when a class server or a recorded key of
    /// theirs signed them: nothing is trusted on first use.
    #[serde(skip)]
    pub classes: Vec<(std::path::PathBuf, ClassKeys)>,
}

/// Which install keys a class folder knows as each learner's own (the file `CLASS_KEYS_FILE`,
/// mode 0600, beside the roster). The server's key is not in it: it is the class's, for every
/// learner. A learner's laptop key gets in when the instructor takes a file of theirs on
/// purpose (`report --trust-new-keys`), so a neighbour's file that reaches the submit folder
/// first is not taken as theirs.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassKeys {
    /// learner -> keys.
    #[serde(default)]
    pub learners: BTreeMap<String, Vec<String>>,
}

/// The class folder's record of learners' keys.
pub const CLASS_KEYS_FILE: &str = "learner-keys.json";

impl ClassKeys {
    /// The record in class folder `dir`; none yet is an empty one. A file that is there but
    /// does not read is an error naming it (it is never overwritten then).
    pub fn load(dir: &std::path::Path) -> Result<ClassKeys, crate::content::Msg> {
        let path = dir.join(CLASS_KEYS_FILE);
        let bad = |why: String| {
            crate::content::Msg::new("serve-report-keys-bad")
                .arg("path", path.display())
                .arg("why", why)
        };
        match crate::hostfs::read_named(&path, 4 << 20) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| bad(e.to_string())),
            Err(_) if std::fs::symlink_metadata(&path).is_err() => Ok(ClassKeys::default()),
            Err(r) => Err(bad(r.msg().to_string())),
        }
    }

    /// Writes the record whole, readable by the class folder's owner alone.
    pub fn save(&self, dir: &std::path::Path) -> std::io::Result<()> {
        let json = serde_json::to_vec_pretty(self).expect("keys serialise");
        crate::unix::files::write_atomic_mode(&dir.join(CLASS_KEYS_FILE), &json, 0o600)
    }
}

const KNOWN_KEYS_FILE: &str = "class-keys.json";

impl KnownKeys {
    fn path() -> Option<std::path::PathBuf> {
        crate::progress::base_dir()
            .ok()
            .map(|d| d.join(KNOWN_KEYS_FILE))
    }

    pub fn load() -> Self {
        Self::path()
            .and_then(|p| std::fs::read(p).ok())
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    /// The keys `learner`'s files may be signed with, and whether that list is the whole
    /// truth (a class's record) rather than what earlier reports happened to see (trust on
    /// first use, when it is empty).
    pub fn of(&self, pack: &str, learner: &str) -> (Vec<String>, bool) {
        if self.classes.is_empty() {
            let seen = self.keys.get(&format!("{pack}/{learner}"));
            return (seen.cloned().unwrap_or_default(), false);
        }
        let recorded = self
            .classes
            .iter()
            .filter_map(|(_, c)| c.learners.get(learner))
            .flatten();
        (self.servers.iter().chain(recorded).cloned().collect(), true)
    }

    /// Adds the keys the report took; a failure to save only means asking again next time.
    pub fn remember(&mut self, pack: &Pack, r: &Report) {
        for l in &r.learners {
            let known = self
                .keys
                .entry(format!("{}/{}", pack.id, l.learner))
                .or_default();
            for k in &l.keys {
                if !known.contains(k) {
                    known.push(k.clone());
                }
            }
        }
        self.record_in_classes(r);
        if let Some(path) = Self::path() {
            let _ = std::fs::create_dir_all(path.parent().unwrap_or(&path));
            let json = serde_json::to_vec_pretty(self).expect("keys serialise");
            let _ = crate::unix::files::write_atomic(&path, &json);
        }
    }
}

impl KnownKeys {
    /// Records in each class folder the learners' own keys this report took (the instructor
    /// took them on purpose: a key not recorded is only taken with `--trust-new-keys`).
    fn record_in_classes(&mut self, r: &Report) {
        for (dir, record) in &mut self.classes {
            let mut changed = false;
            for l in &r.learners {
                let mine = record.learners.entry(l.learner.clone()).or_default();
                for k in l.keys.iter().filter(|k| !self.servers.contains(k)) {
                    if !mine.contains(k) {
                        mine.push(k.clone());
                        changed = true;
                    }
                }
            }
            record.learners.retain(|_, keys| !keys.is_empty());
            if changed && let Err(e) = record.save(dir) {
                eprintln!("report: {}: {e}", dir.join(CLASS_KEYS_FILE).display());
            }
        }
    }
}

/// A question or lab step learners missed, from their review schedules (src/review.rs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missed {
    pub key: crate::review::Key,
    /// Learners who missed it at least once.
    pub learners: usize,
    /// Misses in all ("again" ratings: wrong answers, steps left unmet, failed drills).
    pub misses: u32,
    /// Learners for whom it is due for review at the report's time.
    pub due: usize,
}

#[derive(Debug, Clone, Default)]
pub struct Report {
    pub learners: Vec<LearnerRow>,
    pub hardest: Vec<Hard>,
    pub stuck: Vec<Stuck>,
    pub foreign: Vec<Foreign>,
    /// The questions and lab steps spaced review brings back most, across the class.
    pub missed: Vec<Missed>,
    /// Learners whose record was merged from more than one file.
    pub merged: usize,
    /// The report's time (seconds since the epoch): "for how long" is counted to it.
    pub now: u64,
}

/// Whether an export belongs to this pack, of any version: results are keyed by each item's
/// content, so a class spans versions. Exports made before packs were stamped carry no
/// version and are taken for the built-in course.
fn same_pack(e: &Export, pack: &Pack) -> bool {
    e.pack.id == pack.id
}

/// The class report. A learner's files signed by a key not in `known` for that learner (when
/// it has any), changed after signing, or unsigned among signed ones are flagged, not taken;
/// `trust_new` takes new keys (a learner's second machine).
pub fn build(
    inputs: &[Input],
    course: &Course,
    pack: &Pack,
    now: u64,
    known: &KnownKeys,
    trust_new: bool,
) -> Report {
    let mut r = Report {
        now,
        ..Report::default()
    };
    let (ours, foreign): (Vec<&Input>, Vec<&Input>) =
        inputs.iter().partition(|i| same_pack(&i.export, pack));
    r.foreign = foreign
        .iter()
        .map(|i| Foreign {
            learner: i.export.learner.clone(),
            pack: i.export.pack.label(),
        })
        .collect();
    let mut by_name: BTreeMap<&str, Vec<&Input>> = BTreeMap::new();
    for i in ours {
        by_name.entry(&i.export.learner).or_default().push(i);
    }
    let mut class = Class::default();
    let hashes = crate::merge::Hashes::new(course);
    let mut missed: BTreeMap<crate::review::Key, Missed> = BTreeMap::new();
    for (name, files) in by_name {
        let (keys, whole) = known.of(&pack.id, name);
        let (files, refused) = trusted(&files, &keys, whole, trust_new);
        if files.len() > 1 {
            r.merged += 1;
        }
        let mut merged = crate::merge::learner(name, &files, &hashes, pack, now);
        merged.flags.extend(refused);
        let by_server = by_server(
            name,
            &files,
            &merged.export,
            &known.servers,
            &hashes,
            pack,
            now,
        );
        // The merged export carries no events; the review schedule is the files' logs'.
        let log = crate::events::union(files.iter().map(|f| f.export.events.as_slice()));
        for card in crate::review::schedule(course, &log) {
            if card.lapses == 0 {
                continue;
            }
            let m = missed.entry(card.key.clone()).or_insert_with(|| Missed {
                key: card.key.clone(),
                learners: 0,
                misses: 0,
                due: 0,
            });
            m.learners += 1;
            m.misses = m.misses.saturating_add(card.lapses);
            m.due += usize::from(card.due <= now);
        }
        let mut row = class.learner(&merged.export, course);
        row.by_server = by_server;
        row.machines = merged.machines;
        row.files = files.len();
        row.flags = merged.flags;
        row.live = merged.live;
        row.progress = merged.progress;
        row.keys = merged.keys;
        r.learners.push(row);
    }
    r.hardest = rank_hardest(class.hard, &class.votes);
    r.stuck = rank_stuck(class.stuck);
    r.missed = missed.into_values().collect();
    r.missed.sort_by(|a, b| {
        (b.learners, b.misses)
            .cmp(&(a.learners, a.misses))
            .then_with(|| a.key.cmp(&b.key))
    });
    r.learners.sort_by(|a, b| a.learner.cmp(&b.learner));
    r
}

/// The started items whose merged result the files signed by a class server give alone.
fn by_server(
    name: &str,
    files: &[&Input],
    merged: &Export,
    servers: &[String],
    hashes: &crate::merge::Hashes,
    pack: &Pack,
    now: u64,
) -> std::collections::BTreeSet<String> {
    let theirs: Vec<&Input> = files
        .iter()
        .filter(|f| matches!(&f.verdict, crate::sign::Verdict::Good(k) if servers.contains(k)))
        .copied()
        .collect();
    if theirs.is_empty() {
        return Default::default();
    }
    let server = crate::merge::learner(name, &theirs, hashes, pack, now).export;
    let result = |i: &Item| {
        (
            i.status,
            i.score,
            i.best_score,
            i.first_score,
            i.steps_done.clone(),
        )
    };
    merged
        .items
        .iter()
        .filter(|i| i.status != Status::NotStarted)
        .filter(|i| {
            server
                .items
                .iter()
                .find(|s| s.kind == i.kind && s.item == i.item)
                .is_some_and(|s| result(s) == result(i))
        })
        .map(|i| format!("{}:{}", i.kind.name(), i.item))
        .collect()
}

/// The files of one learner to take, and flags for those not taken. `known` is the keys
/// theirs may be signed with; when it is empty and not `whole`, the first keys seen are taken.
fn trusted<'a>(
    files: &[&'a Input],
    known: &[String],
    whole: bool,
    trust_new: bool,
) -> (Vec<&'a Input>, Vec<Flag>) {
    use crate::sign::Verdict;
    let pinned = whole || !known.is_empty();
    let signed = pinned || files.iter().any(|f| matches!(f.verdict, Verdict::Good(_)));
    let mut take = Vec::new();
    let mut flags = Vec::new();
    for f in files {
        match &f.verdict {
            Verdict::Bad => flags.push(Flag::BadSignature {
                file: f.name.clone(),
            }),
            Verdict::Unsigned if signed => flags.push(Flag::Unsigned {
                file: f.name.clone(),
            }),
            Verdict::Good(key) if pinned && !known.contains(key) && !trust_new => {
                flags.push(Flag::NewKey {
                    file: f.name.clone(),
                    key: key.chars().take(16).collect(),
                });
            }
            _ => take.push(*f),
        }
    }
    (take, flags)
}

/// What the whole class's answers and labs add up to, gathered learner by learner.
#[derive(Default)]
struct Class {
    /// (quiz, question) -> who answered it and who got it wrong.
    hard: BTreeMap<(String, String), Hard>,
    /// (quiz, question) -> wrong option -> times chosen.
    votes: BTreeMap<(String, String), BTreeMap<usize, u32>>,
    /// (lab, step) -> the learners stuck there.
    stuck: BTreeMap<(String, String), Vec<String>>,
}

impl Class {
    /// One learner's row; their answers and labs are added to the class's.
    fn learner(&mut self, e: &Export, course: &Course) -> LearnerRow {
        let mut row = LearnerRow {
            learner: e.learner.clone(),
            machine: e.machine.clone(),
            machines: 1,
            files: 1,
            flags: Vec::new(),
            live: None,
            progress: crate::progress::Progress::new(),
            keys: Vec::new(),
            lessons_done: 0,
            quizzes_done: 0,
            right: 0,
            asked: 0,
            labs_done: 0,
            quizzes: BTreeMap::new(),
            labs: BTreeMap::new(),
            items: Vec::new(),
            all_items: e.items.clone(),
            by_server: Default::default(),
        };
        for i in &e.items {
            let done = usize::from(i.status == Status::Done);
            if i.status != Status::NotStarted {
                row.items.push(i.clone());
            }
            match i.kind {
                ItemKind::Lesson => row.lessons_done = row.lessons_done.saturating_add(done),
                ItemKind::Quiz => {
                    row.quizzes_done = row.quizzes_done.saturating_add(done);
                    if i.status != Status::NotStarted {
                        self.quiz(&mut row, i);
                    }
                }
                ItemKind::Lab => {
                    row.labs_done = row.labs_done.saturating_add(done);
                    self.lab(&mut row, i, &e.learner, course);
                }
            }
        }
        row
    }

    /// A quiz taken: its score on the row, each answer in the class's tally.
    fn quiz(&mut self, row: &mut LearnerRow, i: &Item) {
        let total = i.total.unwrap_or(0);
        let score = i.score.unwrap_or(0).min(total);
        row.right = row.right.saturating_add(score);
        row.asked = row.asked.saturating_add(total);
        row.quizzes.insert(i.item.clone(), (score, total));
        for a in &i.answers {
            let key = (i.item.clone(), a.question.clone());
            let h = self.hard.entry(key.clone()).or_insert_with(|| Hard {
                quiz: i.item.clone(),
                question: a.question.clone(),
                wrong: 0,
                answered: 0,
                top_wrong: None,
            });
            h.answered = h.answered.saturating_add(1);
            if a.wrong_count > 0 || !a.right {
                h.wrong = h.wrong.saturating_add(1);
            }
            let v = self.votes.entry(key).or_default();
            for (opt, n) in &a.wrong_choices {
                let c = v.entry(*opt).or_default();
                *c = c.saturating_add(*n);
            }
        }
    }

    /// A lab: its steps on the row once started, and where the learner is stuck.
    fn lab(&mut self, row: &mut LearnerRow, i: &Item, learner: &str, course: &Course) {
        if i.status != Status::NotStarted {
            let total = i.total.unwrap_or(0);
            row.labs
                .insert(i.item.clone(), (i.score.unwrap_or(0).min(total), total));
        }
        // Stuck: started, not solved; the first step (in course order) not done.
        if i.status == Status::Started
            && let Some(lab) = course.lab(&i.item)
            && let Some(step) = lab.steps.iter().find(|s| !i.steps_done.contains(&s.id))
        {
            self.stuck
                .entry((lab.id.clone(), step.id.clone()))
                .or_default()
                .push(learner.to_string());
        }
    }
}

/// The questions someone got wrong, most wrong first, each with its most chosen wrong option.
fn rank_hardest(
    mut hard: BTreeMap<(String, String), Hard>,
    votes: &BTreeMap<(String, String), BTreeMap<usize, u32>>,
) -> Vec<Hard> {
    for (key, h) in &mut hard {
        h.top_wrong = votes
            .get(key)
            .and_then(|v| {
                v.iter()
                    .max_by_key(|(opt, n)| (**n, std::cmp::Reverse(**opt)))
            })
            .map(|(o, n)| (*o, *n));
    }
    let mut hardest: Vec<Hard> = hard.into_values().filter(|h| h.wrong > 0).collect();
    let rate = |h: &Hard| h.wrong.saturating_mul(1000) / h.answered.max(1);
    hardest.sort_by(|a, b| {
        (b.wrong, rate(b))
            .cmp(&(a.wrong, rate(a)))
            .then_with(|| (&a.quiz, &a.question).cmp(&(&b.quiz, &b.question)))
    });
    hardest
}

/// The lab steps learners are stuck at, the most crowded first.
fn rank_stuck(by_step: BTreeMap<(String, String), Vec<String>>) -> Vec<Stuck> {
    let mut stuck: Vec<Stuck> = by_step
        .into_iter()
        .map(|((lab, step), learners)| Stuck {
            lab,
            step,
            learners,
        })
        .collect();
    stuck.sort_by(|a, b| {
        b.learners
            .len()
            .cmp(&a.learners.len())
            .then_with(|| a.lab.cmp(&b.lab))
    });
    stuck
}

/// Minutes, rounded up, as a report shows time spent.
fn minutes(secs: u64) -> u64 {
    secs.div_ceil(60)
}

/// The report for people, in the instructor's language.
pub fn render_text(r: &Report, course: &Course, i18n: &I18n, skipped: usize) -> String {
    let mut out = i18n.ta(
        "report-title",
        &[
            ("count", r.learners.len().into()),
            ("skipped", skipped.into()),
        ],
    );
    out.push_str("\n\n");
    summary_table(&mut out, r, course, i18n);
    if r.merged > 0 {
        out.push_str(&i18n.ta("classroom-report-merged", &[("count", r.merged.into())]));
        out.push('\n');
    }
    for f in &r.foreign {
        out.push_str(&i18n.ta(
            "classroom-report-foreign",
            &[
                ("learner", f.learner.as_str().into()),
                ("pack", f.pack.as_str().into()),
            ],
        ));
        out.push('\n');
    }
    out.push('\n');
    out.push_str(&i18n.t("classroom-report-items"));
    out.push('\n');
    for l in &r.learners {
        learner_items(&mut out, l, i18n, r.now);
    }
    out.push('\n');
    hardest(&mut out, r, course, i18n);
    out.push('\n');
    stuck(&mut out, r, course, i18n);
    out.push('\n');
    most_missed(&mut out, r, i18n);
    out
}

/// Shown in the text report; the JSON has them all.
const MISSED_SHOWN: usize = 10;

/// The class's most missed questions and lab steps, as spaced review counts them.
fn most_missed(out: &mut String, r: &Report, i18n: &I18n) {
    out.push_str(&i18n.t("report-missed"));
    out.push('\n');
    if r.missed.is_empty() {
        out.push_str(&format!("  {}\n", i18n.t("report-none")));
    }
    for m in r.missed.iter().take(MISSED_SHOWN) {
        out.push_str(&format!(
            "  {}/{}  {}\n",
            m.key.item_ref(),
            m.key.id,
            i18n.ta(
                "report-missed-count",
                &[
                    ("learners", m.learners.into()),
                    ("misses", m.misses.into()),
                    ("due", m.due.into())
                ]
            )
        ));
    }
}

fn summary_table(out: &mut String, r: &Report, course: &Course, i18n: &I18n) {
    let name_w = widest(r.learners.iter().map(|l| l.learner.as_str())).max(8);
    let heads = [
        i18n.t("report-col-lessons"),
        i18n.t("report-col-quizzes"),
        i18n.t("report-col-right"),
        i18n.t("report-col-labs"),
    ];
    let col_w: Vec<usize> = heads.iter().map(|h| str_width(h).max(9)).collect();
    let mut line = pad(&i18n.t("report-col-learner"), name_w);
    for (h, w) in heads.iter().zip(&col_w) {
        line.push_str("  ");
        line.push_str(&pad(h, *w));
    }
    out.push_str(line.trim_end());
    out.push('\n');
    for l in &r.learners {
        let right = if l.asked == 0 {
            "-".to_string()
        } else {
            format!("{}/{}", l.right, l.asked)
        };
        let cells = [
            format!("{}/{}", l.lessons_done, course.lessons.len()),
            format!("{}/{}", l.quizzes_done, course.quizzes.len()),
            right,
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
}

/// One learner's started items: `  quiz:deploy  done  first 1/5, best 5/5  12 min ...`.
fn learner_items(out: &mut String, l: &LearnerRow, i18n: &I18n, now: u64) {
    out.push_str(&format!("  {}", l.learner));
    if l.machines > 1 {
        out.push_str(&format!(
            "  ({})",
            i18n.ta("classroom-report-machines", &[("count", l.machines.into())])
        ));
    }
    out.push('\n');
    for f in &l.flags {
        out.push_str(&format!("    ! {}\n", flag_text(f, i18n)));
    }
    if let Some(live) = &l.live {
        let minutes = minutes(now.saturating_sub(live.since));
        out.push_str(&format!(
            "    > {}\n",
            match &live.step {
                Some(step) => i18n.ta(
                    "classroom-report-live-step",
                    &[
                        ("item", live.place.to_string().into()),
                        ("step", step.as_str().into()),
                        ("n", minutes.into())
                    ]
                ),
                None => i18n.ta(
                    "classroom-report-live",
                    &[
                        ("item", live.place.to_string().into()),
                        ("n", minutes.into())
                    ]
                ),
            }
        ));
    }
    if l.items.is_empty() {
        out.push_str(&format!("    {}\n", i18n.t("report-none")));
    }
    let id_w = l
        .items
        .iter()
        .map(|i| i.kind.name().len() + 1 + i.item.len())
        .max()
        .unwrap_or(0);
    for i in &l.items {
        let mut facts = vec![i18n.t(match i.status {
            Status::NotStarted => "progress-status-not-started",
            Status::Started => "progress-status-started",
            Status::Done => "progress-status-done",
        })];
        let total = i.total.unwrap_or(0);
        match i.kind {
            ItemKind::Quiz => {
                let best = i.best_score.or(i.score).unwrap_or(0).min(total);
                facts.push(match i.first_score {
                    Some(first) => i18n.ta(
                        "classroom-report-first-best",
                        &[
                            ("first", first.min(total).into()),
                            ("best", best.into()),
                            ("total", total.into()),
                        ],
                    ),
                    None => format!("{best}/{total}"),
                });
            }
            ItemKind::Lab => {
                facts.push(format!("{}/{}", i.score.unwrap_or(0).min(total), total));
            }
            ItemKind::Lesson => {}
        }
        facts.push(i18n.ta(
            "classroom-report-minutes",
            &[("n", minutes(i.time_spent_secs).into())],
        ));
        if i.hints_used > 0 {
            facts.push(i18n.ta("classroom-report-hints", &[("n", i.hints_used.into())]));
        }
        if i.how.solution_viewed {
            facts.push(i18n.t("classroom-report-solution-viewed"));
        }
        if i.how.helped {
            facts.push(i18n.t("classroom-report-helped"));
        }
        if i.how.completed_by == Some(crate::progress::LabHow::Script) {
            facts.push(i18n.t("classroom-report-by-script"));
        }
        if i.how.unconfined {
            facts.push(i18n.t("classroom-report-unconfined"));
        }
        // As `changed` in --json and --csv: the result was recorded on other content.
        if i.changed {
            facts.push(i18n.t("classroom-report-changed"));
        }
        let id = format!("{}:{}", i.kind.name(), i.item);
        if l.by_server.contains(&id) {
            facts.push(i18n.t("serve-report-by-server"));
        }
        out.push_str(&format!("    {}  {}\n", pad(&id, id_w), facts.join(", ")));
    }
}

/// A flag in the instructor's language. File names and logins come from others' files:
/// cleaned of terminal controls.
pub fn flag_text(f: &Flag, i18n: &I18n) -> String {
    let clean = crate::term_text::sanitize::text;
    let text = match f {
        Flag::TwoPeople { logins } => i18n.ta(
            "classroom-flag-two-people",
            &[("logins", logins.join(", ").into())],
        ),
        Flag::NewKey { file, key } => i18n.ta(
            "classroom-flag-new-key",
            &[("file", file.as_str().into()), ("key", key.as_str().into())],
        ),
        Flag::BadSignature { file } => i18n.ta(
            "classroom-flag-bad-signature",
            &[("file", file.as_str().into())],
        ),
        Flag::Unsigned { file } => {
            i18n.ta("classroom-flag-unsigned", &[("file", file.as_str().into())])
        }
    };
    clean(&text)
}

fn hardest(out: &mut String, r: &Report, course: &Course, i18n: &I18n) {
    let lang = i18n.lang();
    out.push_str(&i18n.t("report-hardest"));
    out.push('\n');
    if r.hardest.is_empty() {
        out.push_str(&format!("  {}\n", i18n.t("report-none")));
    }
    for h in r.hardest.iter().take(10) {
        let q = course.quiz(&h.quiz).and_then(|q| q.question(&h.question));
        let prompt = q
            .map(|q| truncate(q.prompt.get(lang), 70))
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
                .and_then(|q| q.options.get(opt.wrapping_sub(1)))
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
}

fn stuck(out: &mut String, r: &Report, course: &Course, i18n: &I18n) {
    out.push_str(&i18n.t("report-stuck"));
    out.push('\n');
    if r.stuck.is_empty() {
        out.push_str(&format!("  {}\n", i18n.t("report-none")));
    }
    for s in &r.stuck {
        let title = course
            .lab(&s.lab)
            .and_then(|l| l.steps.iter().find(|st| st.id == s.step))
            .map(|st| st.title.get(i18n.lang()).to_string())
            .unwrap_or_default();
        out.push_str(&format!(
            "  {}/{}  {}\n    {}\n    {}\n",
            s.lab,
            s.step,
            i18n.ta("report-stuck-count", &[("count", s.learners.len().into())]),
            title,
            i18n.ta(
                "classroom-report-who",
                &[("names", s.learners.join(", ").into())]
            )
        ));
    }
}

/// The fields `--json` and `--csv` give for each item (the README documents them).
const ITEM_FIELDS: [&str; 15] = [
    "status",
    "step",
    "first",
    "best",
    "total",
    "attempts",
    "seconds",
    "hints",
    "solution_viewed",
    "by_script",
    "tamper_proof",
    "mode",
    "changed",
    "source",
    "helped",
];

/// One item's fields, in `ITEM_FIELDS` order, as JSON values; `by_server`: a class server
/// computed its result.
fn item_json(i: &Item, by_server: bool) -> serde_json::Map<String, serde_json::Value> {
    use serde_json::Value as V;
    let status = match i.status {
        Status::NotStarted => "not-started",
        Status::Started => "in-progress",
        Status::Done => "done",
    };
    let (first, best) = match i.kind {
        ItemKind::Quiz => (i.first_score, i.best_score.or(i.score)),
        ItemKind::Lab => (None, i.score),
        ItemKind::Lesson => (None, None),
    };
    let started = i.status != Status::NotStarted;
    let values = [
        V::from(status),
        i.step.clone().map_or(V::Null, V::from),
        first.filter(|_| started).map_or(V::Null, V::from),
        best.filter(|_| started).map_or(V::Null, V::from),
        i.total.map_or(V::Null, V::from),
        V::from(i.attempts),
        V::from(i.time_spent_secs),
        V::from(i.hints_used),
        V::from(i.how.solution_viewed),
        V::from(i.how.completed_by == Some(crate::progress::LabHow::Script)),
        // Labs done inside the confined sandbox; nothing else can claim it.
        V::from(i.kind == ItemKind::Lab && i.status == Status::Done && !i.how.unconfined),
        if i.kind == ItemKind::Lab && started {
            serde_json::to_value(i.how.best_way()).unwrap_or(V::Null)
        } else {
            V::Null
        },
        V::from(i.changed),
        match (started, by_server) {
            (false, _) => V::Null,
            (true, true) => V::from("server"),
            (true, false) => V::from("learner"),
        },
        V::from(i.how.helped),
    ];
    ITEM_FIELDS
        .iter()
        .map(ToString::to_string)
        .zip(values)
        .collect()
}

/// `report --json`: the class as data (schema in the README).
pub fn render_json(r: &Report, pack: &Pack, i18n: &I18n) -> serde_json::Value {
    use serde_json::json;
    let learners: Vec<serde_json::Value> = r
        .learners
        .iter()
        .map(|l| {
            let items: serde_json::Map<String, serde_json::Value> = l
                .all_items
                .iter()
                .map(|i| {
                    let id = format!("{}:{}", i.kind.name(), i.item);
                    let fields = item_json(i, l.by_server.contains(&id));
                    (id, serde_json::Value::Object(fields))
                })
                .collect();
            json!({
                "name": l.learner,
                "machines": l.machines,
                "files": l.files,
                "flags": l.flags.iter().map(|f| json!({
                    "kind": flag_kind(f),
                    "text": flag_text(f, i18n),
                })).collect::<Vec<_>>(),
                "now": l.live.as_ref().map(|v| json!({
                    "item": v.place.to_string(),
                    "step": v.step,
                    "seconds": r.now.saturating_sub(v.since),
                })),
                "items": items,
            })
        })
        .collect();
    json!({
        "pack": { "id": pack.id, "version": pack.version },
        "generated_at": crate::export::rfc3339(r.now),
        "learners": learners,
        "not_included": r.foreign.iter().map(|f| json!({
            "learner": f.learner, "pack": f.pack,
        })).collect::<Vec<_>>(),
        "most_missed": r.missed.iter().map(|m| json!({
            "kind": crate::review::DueKind::of(m.key.kind),
            "item": m.key.item_ref(),
            "id": m.key.id,
            "learners": m.learners,
            "misses": m.misses,
            "due": m.due,
        })).collect::<Vec<_>>(),
    })
}

fn flag_kind(f: &Flag) -> &'static str {
    match f {
        Flag::TwoPeople { .. } => "two-people",
        Flag::NewKey { .. } => "new-key",
        Flag::BadSignature { .. } => "bad-signature",
        Flag::Unsigned { .. } => "unsigned",
    }
}

/// The items a gradebook has columns for: the pack's own, and the built-in ones its lessons
/// name (a pack that extends the course does not grade all of it).
pub fn own_items(course: &Course, pack: &Pack) -> Vec<crate::progress::Place> {
    use crate::progress::{Place, ids};
    let all = ItemKind::ALL.into_iter().flat_map(|k| {
        ids(course, k).into_iter().map(move |id| Place {
            kind: k,
            id: id.to_string(),
        })
    });
    if pack.is_builtin() || !pack.extends_builtin {
        return all.collect();
    }
    let builtin = crate::content::load(&crate::content::ContentTree::embedded()).0;
    let in_builtin = |p: &Place| ids(&builtin, p.kind).contains(&p.id.as_str());
    let own_lessons: Vec<&crate::content::Lesson> = course
        .lessons
        .iter()
        .filter(|l| !ids(&builtin, ItemKind::Lesson).contains(&l.id.as_str()))
        .collect();
    let named = |p: &Place| {
        own_lessons.iter().any(|l| match p.kind {
            ItemKind::Quiz => l.quiz.as_deref() == Some(p.id.as_str()),
            ItemKind::Lab => l.labs.contains(&p.id),
            ItemKind::Lesson => false,
        })
    };
    all.filter(|p| !in_builtin(p) || named(p)).collect()
}

/// A gradebook: one row per learner, for each of the pack's own items the `--json` fields.
pub fn render_csv(r: &Report, course: &Course, pack: &Pack) -> String {
    let items = own_items(course, pack);
    let mut head = vec!["learner".to_string(), "machines".into(), "flags".into()];
    for p in &items {
        for f in ITEM_FIELDS {
            head.push(format!("{p} {f}"));
        }
    }
    let mut out = head
        .iter()
        .map(|h| csv_field(h))
        .collect::<Vec<_>>()
        .join(",");
    out.push('\n');
    for l in &r.learners {
        let mut row = vec![
            csv_field(&l.learner),
            l.machines.to_string(),
            csv_field(&l.flags.iter().map(flag_kind).collect::<Vec<_>>().join(" ")),
        ];
        for p in &items {
            let item = l
                .all_items
                .iter()
                .find(|i| i.kind == p.kind && i.item == p.id);
            let fields = item
                .map(|i| item_json(i, l.by_server.contains(&p.to_string())))
                .unwrap_or_default();
            for f in ITEM_FIELDS {
                row.push(match fields.get(f) {
                    None | Some(serde_json::Value::Null) => String::new(),
                    Some(serde_json::Value::String(s)) => csv_field(s),
                    Some(v) => v.to_string(),
                });
            }
        }
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}
