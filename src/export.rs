//! `rocm-learn progress --json | --csv`: one learner's progress as a file an instructor collects.
//! Quizzes taken in plain mode count like those in the app: both write the same progress.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::content::Course;
use crate::content::Pack;
use crate::progress::{HowTaken, ItemKind, Progress};

pub mod worker;

/// Marks a file as ours, so `report` can tell it from any other JSON.
pub const FORMAT: &str = "rocm-learn-progress";
/// 2 added the pack, the machine, first and best scores and how labs were done; 3 the event
/// log, the login and the signature. Version 1 files read with the built-in course as their
/// pack; files before 3 carry no log, and their items stand for it.
pub const VERSION: u32 = 3;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Export {
    pub format: String,
    pub version: u32,
    /// The course the progress belongs to: a report never mixes two courses.
    #[serde(default)]
    pub pack: PackStamp,
    pub learner: String,
    /// The machine (host name) the export was made on.
    #[serde(default)]
    pub machine: String,
    /// The login (user name on the machine) that made the export: two logins under one
    /// learner's name are likely two people.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub login: String,
    /// RFC 3339, UTC.
    pub exported_at: String,
    pub items: Vec<Item>,
    /// The learner's whole event log: what `report` merges.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<crate::events::Event>,
    /// This install's signature over the rest of the file (see `sign`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<crate::sign::Seal>,
}

impl Export {
    /// Signs the export with this install's key (made on first use in `data`).
    pub fn sign(&mut self, data: &std::path::Path) -> std::io::Result<()> {
        let key = crate::sign::install_key(data)?;
        self.signature = None;
        let value = serde_json::to_value(&*self).expect("export serialises");
        self.signature = Some(crate::sign::seal(&key, &value));
        Ok(())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackStamp {
    pub id: String,
    pub version: String,
}

impl Default for PackStamp {
    /// Exports from before packs were stamped came from the built-in course.
    fn default() -> Self {
        PackStamp {
            id: crate::content::pack::BUILTIN.into(),
            version: String::new(),
        }
    }
}

impl PackStamp {
    pub fn of(pack: &crate::content::Pack) -> Self {
        PackStamp {
            id: pack.id.clone(),
            version: pack.version.clone(),
        }
    }

    /// `id@version`.
    pub fn label(&self) -> String {
        format!("{}@{}", self.id, self.version)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    NotStarted,
    Started,
    Done,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::NotStarted => "not-started",
            Status::Started => "started",
            Status::Done => "done",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Item {
    pub item: String,
    pub kind: ItemKind,
    pub status: Status,
    /// Quizzes: right answers among the latest answers; labs: steps done.
    #[serde(default)]
    pub score: Option<usize>,
    #[serde(default)]
    pub total: Option<usize>,
    #[serde(default)]
    pub attempts: u32,
    #[serde(default)]
    pub time_spent_secs: u64,
    #[serde(default)]
    pub finished_at: Option<String>,
    /// Quizzes: the latest answer to each question.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<Answer>,
    /// Labs: the steps done, by id.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps_done: Vec<String>,
    #[serde(default)]
    pub hints_used: u32,
    /// Quizzes: right answers when the first attempt ended, and the best seen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_score: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_score: Option<usize>,
    /// Labs: the solution opened, how and where it was completed, the way it was taken.
    #[serde(flatten)]
    pub how: HowTaken,
    /// Labs in progress: the step the learner is on (a merged report fills it in).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<String>,
    /// The item's content changed since the learner's result (a merged report fills it in).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub changed: bool,
}

impl Item {
    /// A row with nothing recorded but its status: `done` is `None` for an item never started,
    /// else whether it is finished.
    fn blank(id: &str, kind: ItemKind, done: Option<bool>) -> Item {
        Item {
            item: id.to_string(),
            kind,
            status: match done {
                Some(true) => Status::Done,
                Some(false) => Status::Started,
                None => Status::NotStarted,
            },
            score: None,
            total: None,
            attempts: 0,
            time_spent_secs: 0,
            finished_at: None,
            answers: Vec::new(),
            steps_done: Vec::new(),
            hints_used: 0,
            first_score: None,
            best_score: None,
            how: HowTaken::default(),
            step: None,
            changed: false,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    pub question: String,
    pub chosen: usize,
    pub right: bool,
    #[serde(default)]
    pub wrong_count: u32,
    /// Wrong option number -> times chosen.
    #[serde(default)]
    pub wrong_choices: BTreeMap<usize, u32>,
}

/// Who and where an export is from.
pub struct Stamp<'a> {
    pub pack: &'a Pack,
    pub learner: &'a str,
    pub machine: &'a str,
    pub now: u64,
    /// The learner's log, carried whole.
    pub events: &'a [crate::events::Event],
}

/// One row per item of the course, in course order (lessons, quizzes, labs).
pub fn build(p: &Progress, course: &Course, stamp: &Stamp) -> Export {
    let mut items = Vec::new();
    for l in &course.lessons {
        let rec = p.lessons.get(&l.id);
        items.push(Item {
            time_spent_secs: rec.map_or(0, |r| r.time_spent_secs),
            finished_at: rec.and_then(|r| r.finished_at).map(rfc3339),
            ..Item::blank(
                &l.id,
                ItemKind::Lesson,
                rec.map(|r| r.finished_at.is_some()),
            )
        });
    }
    for q in &course.quizzes {
        let rec = p.quizzes.get(&q.id);
        items.push(Item {
            score: rec.map(super::progress::QuizProgress::right_count),
            total: Some(q.questions.len()),
            attempts: rec.map_or(0, |r| r.attempts),
            time_spent_secs: rec.map_or(0, |r| r.time_spent_secs),
            finished_at: rec.and_then(|r| r.finished_at).map(rfc3339),
            answers: rec
                .map(|r| {
                    r.answers
                        .iter()
                        .map(|(id, a)| Answer {
                            question: id.clone(),
                            chosen: a.chosen,
                            right: a.right,
                            wrong_count: a.wrong_count,
                            wrong_choices: a.wrong_choices.clone(),
                        })
                        .collect()
                })
                .unwrap_or_default(),
            first_score: rec.and_then(|r| r.first_score),
            best_score: rec.map(|r| r.best_score),
            ..Item::blank(&q.id, ItemKind::Quiz, rec.map(|r| r.finished_at.is_some()))
        });
    }
    for lab in &course.labs {
        let rec = p.labs.get(&lab.id);
        items.push(Item {
            score: rec.map(|r| r.steps_done.len()),
            total: Some(lab.steps.len()),
            attempts: rec.map_or(0, |r| r.attempts),
            time_spent_secs: rec.map_or(0, |r| r.time_spent_secs),
            finished_at: rec.and_then(|r| r.completed_at).map(rfc3339),
            steps_done: rec.map(|r| r.steps_done.clone()).unwrap_or_default(),
            hints_used: rec.map_or(0, |r| r.hints_used),
            how: rec.map(|r| r.how).unwrap_or_default(),
            ..Item::blank(
                &lab.id,
                ItemKind::Lab,
                rec.map(|r| r.completed_at.is_some()),
            )
        });
    }
    Export {
        format: FORMAT.into(),
        version: VERSION,
        pack: PackStamp::of(stamp.pack),
        learner: stamp.learner.into(),
        machine: stamp.machine.into(),
        login: crate::progress::login().unwrap_or_default(),
        exported_at: rfc3339(stamp.now),
        items,
        events: stamp.events.to_vec(),
        signature: None,
    }
}

/// `progress` for people: an aligned table of kind, id, status, score and title, a section per
/// kind. Widths count terminal cells, so Japanese and Korean titles and statuses line up.
pub fn render_table(e: &Export, course: &Course, i18n: &crate::i18n::I18n) -> String {
    use crate::width::{pad, str_width};
    let kind_word = |k: ItemKind| i18n.t(&format!("classroom-kind-{}", k.name()));
    let status_word = |s: Status| {
        i18n.t(match s {
            Status::NotStarted => "progress-status-not-started",
            Status::Started => "progress-status-started",
            Status::Done => "progress-status-done",
        })
    };
    let rows: Vec<[String; 5]> = e
        .items
        .iter()
        .map(|item| {
            let title = match item.kind {
                ItemKind::Lesson => course.lesson(&item.item).map(|l| &l.title),
                ItemKind::Quiz => course.quiz(&item.item).map(|q| &q.title),
                ItemKind::Lab => course.lab(&item.item).map(|l| &l.title),
            }
            .map(|t| crate::i18n::loc(i18n, t))
            .unwrap_or_default();
            let score = match (item.status, item.score, item.total) {
                (Status::NotStarted, _, _) => String::new(),
                (_, Some(s), Some(t)) => format!("{s}/{t}"),
                _ => String::new(),
            };
            [
                kind_word(item.kind),
                item.item.clone(),
                status_word(item.status),
                score,
                title,
            ]
        })
        .collect();
    let head = [
        i18n.t("classroom-col-kind"),
        i18n.t("classroom-col-id"),
        i18n.t("classroom-col-status"),
        i18n.t("classroom-col-score"),
        i18n.t("classroom-col-title"),
    ];
    let mut widths = head.clone().map(|h| str_width(&h));
    for r in &rows {
        for (w, cell) in widths.iter_mut().zip(r) {
            *w = (*w).max(str_width(cell));
        }
    }
    let line = |cells: &[String; 5]| {
        let mut l = String::from(" ");
        for (i, (c, w)) in cells.iter().zip(widths).enumerate() {
            l.push(' ');
            l.push_str(&if i + 1 == cells.len() {
                c.clone()
            } else {
                pad(c, w)
            });
            l.push(' ');
        }
        format!("{}\n", l.trim_end())
    };
    let mut out = line(&head);
    let mut previous = None;
    for (item, row) in e.items.iter().zip(&rows) {
        if previous.is_some_and(|k| k != item.kind) {
            out.push('\n');
        }
        previous = Some(item.kind);
        out.push_str(&line(row));
    }
    out
}

/// Why a file is not a progress export we can read.
pub fn parse(text: &str) -> Result<Export, String> {
    parse_checked(text).map(|(e, _)| e)
}

/// An export and what its signature says.
pub fn parse_checked(text: &str) -> Result<(Export, crate::sign::Verdict), String> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let verdict = crate::sign::verify(&v);
    if v.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
        return Err(format!("no \"format\": \"{FORMAT}\""));
    }
    match v.get("version").and_then(serde_json::Value::as_u64) {
        Some(n) if n <= u64::from(VERSION) => {}
        Some(n) => {
            return Err(format!(
                "format version {n} is newer than this rocm-learn reads"
            ));
        }
        None => return Err("no version".into()),
    }
    serde_json::from_value(v)
        .map(|e| (e, verdict))
        .map_err(|e| e.to_string())
}

/// CSV for spreadsheets: one row per item.
pub fn to_csv(e: &Export) -> String {
    let mut out =
        String::from("learner,item,kind,status,score,total,attempts,time_spent_secs,finished_at\n");
    for i in &e.items {
        let row = [
            csv_field(&e.learner),
            csv_field(&i.item),
            i.kind.name().to_string(),
            i.status.as_str().to_string(),
            i.score.map(|s| s.to_string()).unwrap_or_default(),
            i.total.map(|s| s.to_string()).unwrap_or_default(),
            i.attempts.to_string(),
            i.time_spent_secs.to_string(),
            i.finished_at.clone().unwrap_or_default(),
        ];
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

/// Quotes a CSV field when it needs it (RFC 4180).
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Seconds since the epoch as `2026-11-22T03:20:00Z`.
pub fn rfc3339(t: u64) -> String {
    let (y, mo, d, h, mi, s) = crate::clock::civil(t as i64);
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
}

/// `2026-11-22T03:20:00Z` as seconds since the epoch; `None` for any other form.
pub fn parse_rfc3339(s: &str) -> Option<u64> {
    let b = s.as_bytes();
    if b.len() != 20 || b[4] != b'-' || b[10] != b'T' || b[19] != b'Z' {
        return None;
    }
    let n = |r: std::ops::Range<usize>| s.get(r)?.parse::<i64>().ok();
    let (y, m, d) = (n(0..4)?, n(5..7)?, n(8..10)?);
    let (h, mi, sec) = (n(11..13)?, n(14..16)?, n(17..19)?);
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    u64::try_from(days * 86_400 + h * 3600 + mi * 60 + sec).ok()
}

/// The learner's name: `ROCM_LEARN_LEARNER`, else the saved one, else the login name.
pub fn learner_name(saved: Option<&str>) -> String {
    std::env::var(crate::progress::LEARNER_ENV)
        .ok()
        .filter(|s| !s.trim().is_empty())
        .or_else(|| saved.map(String::from))
        .or_else(crate::progress::login)
        .unwrap_or_else(|| "learner".into())
}

/// This machine's host name, for telling apart two learners who picked the same name.
pub fn machine_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok().filter(|s| !s.is_empty()))
        .or_else(|| std::env::var("COMPUTERNAME").ok().filter(|s| !s.is_empty()))
        .unwrap_or_else(|| "unknown".into())
}

/// The file name a learner's export gets in the class submit folder: one per learner, machine
/// and pack, so learners never overwrite each other and a newer export replaces an older one.
pub fn submit_file_name(e: &Export) -> String {
    // The install's key tells apart two machines that share a host name (cloned images).
    let install = e
        .signature
        .as_ref()
        .map(|s| format!("-{}", s.key.get(..8).unwrap_or(&s.key)))
        .unwrap_or_default();
    crate::progress::slug(&format!(
        "{}--{}{install}--{}.json",
        e.learner, e.machine, e.pack.id
    ))
}

/// Writes the export into the submit folder atomically (readers never see half a file).
pub fn submit(dir: &std::path::Path, e: &Export) -> std::io::Result<std::path::PathBuf> {
    let path = dir.join(submit_file_name(e));
    let mut json = serde_json::to_vec_pretty(e).expect("export serialises");
    json.push(b'\n');
    crate::unix::files::write_atomic_as_folder(&path, &json)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_and_csv_fields() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_795_000_000), "2026-11-18T11:06:40Z");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("plain"), "plain");
        for t in [0, 1_795_000_000, 951_782_400] {
            assert_eq!(parse_rfc3339(&rfc3339(t)), Some(t));
        }
    }
}
