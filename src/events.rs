//! A learner's record as an append-only log of events: what was opened, answered, hinted,
//! viewed, met and finished, each with a stable id and a time. Progress is the fold of the log;
//! exports carry it, and two logs of one learner merge by union (an event is never lost, and an
//! event seen twice counts once).

use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::items::{ItemKind, LabProgress, LessonProgress, Place, QuizProgress};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// 128 random bits, hex: stable from creation on, so copies of the event are one event.
    pub id: String,
    /// Seconds since the Unix epoch.
    pub t: u64,
    /// The content hash of the item the event is about, when it was recorded (see
    /// `content_hash`): a result whose hash differs from the item's now is "changed since".
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub hash: String,
    #[serde(flatten)]
    pub what: What,
}

/// One answer in an `answered` event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    pub question: String,
    /// 1-based option number in the quiz file's order.
    pub chosen: usize,
    pub right: bool,
}

/// A record carried over from before the log (an old progress file or export).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Record {
    Lesson(LessonProgress),
    Quiz(QuizProgress),
    Lab(LabProgress),
}

/// What a lab session came to: what the lab screen tells the record, and the log keeps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LabSession {
    pub steps_done: Vec<String>,
    pub complete: bool,
    /// Hints revealed in the session, for logs from before each hint was an event of its own
    /// (`hint`); sessions since count theirs that way and say 0 here.
    pub hints: u32,
    pub secs: u64,
    /// The session ended (an attempt to count), rather than a mid-session "just solved".
    pub session_over: bool,
    /// The learner's processes were confined (Landlock): a completion cannot be forged.
    pub confined: bool,
    /// An earlier event of this session recorded its solve (the "just solved" one): this one
    /// ends the session and is no second completion.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub solved_before: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum What {
    /// An item was opened.
    Opened { kind: ItemKind, item: String },
    /// Time spent reading a lesson, where it was left, and whether it was finished.
    Read {
        item: String,
        position: usize,
        finished: bool,
        secs: u64,
    },
    /// A quiz run ended (finished or left half-way) with these answers.
    Answered {
        item: String,
        answers: Vec<Answer>,
        /// Questions in the quiz then.
        total: usize,
        /// Every question of the run was answered.
        complete: bool,
        secs: u64,
        /// The run carried on an attempt left half-way (Esc, a dropped connection): its
        /// answers finish that attempt rather than start another.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        continues: bool,
        /// Right answers in the learner's record once this run was in (the latest answer to
        /// each question): the score the learner and the reports see. Absent from events
        /// logged before it was kept.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        score: Option<usize>,
    },
    /// A lab hint revealed, logged as it is shown so that none is lost with a session that
    /// never ends cleanly. (Sessions logged before hints were events count theirs in `lab`.)
    Hint { item: String, step: String },
    /// A lab step met during a session (live: the session's totals come with `lab`).
    StepMet { item: String, step: String },
    /// Where the learner is now: an item, and the lab step or quiz question being worked on.
    At {
        kind: ItemKind,
        item: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        step: Option<String>,
    },
    /// A lab session ended, or a lab was just solved.
    Lab {
        item: String,
        #[serde(flatten)]
        session: LabSession,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        by_script: bool,
    },
    /// A lab's solution was opened.
    SolutionViewed { item: String },
    /// On a class server the instructor typed in the learner's lab, the learner having said yes.
    Helped { item: String },
    /// The way a lab is taken (guided or challenge), as the learner started it.
    Way {
        item: String,
        way: crate::content::LabWay,
    },
    /// The learner reset one item, or everything.
    Reset {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kind: Option<ItemKind>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        item: Option<String>,
    },
    /// Progress recorded before the log existed, carried over whole.
    Imported { item: String, record: Record },
    /// One quiz question or lab step taken again in spaced review (`review`), and whether it
    /// was right or met: the review schedule reads it, scores and completions do not.
    Reviewed {
        kind: ItemKind,
        item: String,
        /// The question's or the step's id (not `id`: that key is the event's own).
        part: String,
        right: bool,
    },
    /// An exam taken to its end (or its time limit): the result the exam command showed.
    Exam {
        item: String,
        seed: u64,
        score: usize,
        total: usize,
        passed: bool,
        secs: u64,
        time_limit_secs: u64,
    },
}

impl What {
    /// The item the event is about, if one.
    pub fn place(&self) -> Option<Place> {
        let p = |kind, id: &String| {
            Some(Place {
                kind,
                id: id.clone(),
            })
        };
        match self {
            What::Opened { kind, item } | What::At { kind, item, .. } => p(*kind, item),
            What::Read { item, .. } => p(ItemKind::Lesson, item),
            What::Answered { item, .. } => p(ItemKind::Quiz, item),
            What::Hint { item, .. }
            | What::StepMet { item, .. }
            | What::Lab { item, .. }
            | What::SolutionViewed { item }
            | What::Helped { item }
            | What::Way { item, .. } => p(ItemKind::Lab, item),
            What::Reset { kind, item } => kind.zip(item.as_ref()).and_then(|(k, i)| p(k, i)),
            What::Reviewed { kind, item, .. } => p(*kind, item),
            // An exam is no lesson, quiz or lab: it has no place of its own.
            What::Exam { .. } => None,
            What::Imported { item, record } => p(
                match record {
                    Record::Lesson(_) => ItemKind::Lesson,
                    Record::Quiz(_) => ItemKind::Quiz,
                    Record::Lab(_) => ItemKind::Lab,
                },
                item,
            ),
        }
    }

    /// Live events tell where a learner is and what help they took; they change no score or
    /// completion (a hint only adds to the hints counted).
    pub fn is_live(&self) -> bool {
        matches!(
            self,
            What::At { .. } | What::Hint { .. } | What::StepMet { .. }
        )
    }
}

/// A new event id: 128 random bits as hex.
pub fn new_id() -> String {
    let mut b = [0u8; 16];
    if getrandom::fill(&mut b).is_err() {
        // No randomness (never seen on Linux or macOS): time and a counter stay unique here.
        static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        b[..8].copy_from_slice(&(t as u64).to_le_bytes());
        b[8..].copy_from_slice(&(n ^ u64::from(std::process::id())).to_le_bytes());
    }
    hex(&b)
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The union of logs: each event once (by id), in time order (ties by id, so every merge of
/// the same events gives the same order).
pub fn union<'a>(logs: impl IntoIterator<Item = &'a [Event]>) -> Vec<Event> {
    let mut seen = BTreeSet::new();
    let mut out: Vec<Event> = logs
        .into_iter()
        .flatten()
        .filter(|e| seen.insert(e.id.clone()))
        .cloned()
        .collect();
    sort(&mut out);
    out
}

/// Orders events by time. Stable: events of the same second keep the order they came in, which
/// for one machine's log is the order they happened (a quiz and its retry within one second
/// must not swap; ids are random, so they cannot break the tie).
pub fn sort(events: &mut [Event]) {
    events.sort_by_key(|e| e.t);
}

/// The log file's name in a progress folder: one JSON event per line.
pub const LOG_NAME: &str = "events.jsonl";

/// Reads a log. A line that does not parse (a crash mid-append, a hand edit) is skipped, never
/// fatal: the other events are the learner's work.
pub fn read(path: &Path) -> std::io::Result<Vec<Event>> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    Ok(text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect())
}

/// Appends events to a log and syncs it: appending never rewrites what is there.
pub fn append(path: &Path, events: &[Event]) -> std::io::Result<()> {
    if events.is_empty() {
        return Ok(());
    }
    let mut buf = Vec::new();
    for e in events {
        serde_json::to_writer(&mut buf, e).expect("event serialises");
        buf.push(b'\n');
    }
    use std::os::unix::fs::OpenOptionsExt;
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .mode(crate::unix::files::new_file_mode(dir))
        .open(path)?;
    f.write_all(&buf)?;
    f.sync_data()
}

/// A short hash of what an item asks of the learner: its text, questions and answers, or its
/// machine, files and steps. Titles are included (a retitled item is a changed item); ids of
/// the item itself are not (they key the result already).
pub fn content_hash(course: &crate::content::Course, place: &Place) -> Option<String> {
    use sha2::Digest;
    let text = match place.kind {
        ItemKind::Lesson => {
            let l = course.lesson(&place.id)?;
            format!("{:?}{:?}", l.title, l.body)
        }
        ItemKind::Quiz => {
            let q = course.quiz(&place.id)?;
            format!("{:?}{:?}", q.title, q.questions)
        }
        ItemKind::Lab => {
            let l = course.lab(&place.id)?;
            format!(
                "{:?}{}{}{:?}{:?}",
                l.title, l.machine, l.user, l.files, l.steps
            )
        }
    };
    let digest = sha2::Sha256::digest(text.as_bytes());
    Some(hex(&digest[..8]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lab_session_is_kept_as_the_flat_line_the_log_always_had() {
        let line = r#"{"id":"e1","t":7,"type":"lab","item":"l","steps_done":["a"],"complete":true,"hints":1,"secs":30,"session_over":true,"confined":false}"#;
        let e: Event = serde_json::from_str(line).unwrap();
        let What::Lab {
            session, by_script, ..
        } = &e.what
        else {
            panic!("{e:?}");
        };
        assert_eq!(session.steps_done, ["a"]);
        assert!(session.complete && session.session_over && !session.confined && !by_script);
        assert_eq!((session.hints, session.secs), (1, 30));
        assert_eq!(serde_json::to_string(&e).unwrap(), line);
    }

    #[test]
    fn review_and_exam_events_read_back_as_written() {
        for what in [
            What::Reviewed {
                kind: ItemKind::Quiz,
                item: "q".into(),
                part: "gatekeeper".into(),
                right: true,
            },
            What::Exam {
                item: "rocm-deploy".into(),
                seed: 7,
                score: 8,
                total: 10,
                passed: true,
                secs: 400,
                time_limit_secs: 900,
            },
        ] {
            let e = Event {
                id: "e1".into(),
                t: 9,
                hash: String::new(),
                what,
            };
            let line = serde_json::to_string(&e).unwrap();
            assert_eq!(serde_json::from_str::<Event>(&line).unwrap(), e, "{line}");
        }
    }
}
