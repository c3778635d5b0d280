//! One learner's record from all their files: the union of the files' event logs (a file from
//! before the log stands for its items), folded into progress and the rows of a report.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use crate::content::{Course, Pack};
use crate::events::{Event, Record, What};
use crate::export::{Export, Item, Stamp, Status};
use crate::progress::{
    AnswerRecord, ItemKind, LabProgress, LessonProgress, Place, Progress, QuizProgress,
};

/// Something about a learner's files an instructor should see.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Flag {
    /// One learner's name used by several logins: likely two people.
    TwoPeople { logins: Vec<String> },
    /// A file signed by a key this learner's files never had before: not taken.
    NewKey { file: String, key: String },
    /// A file changed after it was signed: not taken.
    BadSignature { file: String },
    /// An unsigned file for a learner whose files are signed: not taken.
    Unsigned { file: String },
}

/// What a learner is on now: the item, the lab step or question, and since when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Live {
    pub place: Place,
    pub step: Option<String>,
    /// Seconds since the Unix epoch when the learner got there.
    pub since: u64,
}

/// One file given to `report`: its name (to name it in flags) and what it holds.
#[derive(Debug, Clone)]
pub struct Input {
    pub name: String,
    pub export: Export,
    pub verdict: crate::sign::Verdict,
}

pub struct Merged {
    /// The merged record as an export (items in course order).
    pub export: Export,
    pub progress: Progress,
    pub machines: usize,
    pub flags: Vec<Flag>,
    pub live: Option<Live>,
    /// The install keys of the files taken.
    pub keys: Vec<String>,
}

/// Each item's content hash, worked out once for a whole report and shared by its learners:
/// hashing an item formats all of its content, which costs far more than merging one
/// learner's files. The values are `crate::events::content_hash`'s, so "changed since" reads
/// the same for every export ever written.
pub struct Hashes<'a> {
    course: &'a Course,
    /// (kind, id) -> the hash, or `None` for an item the course does not have.
    known: RefCell<BTreeMap<(ItemKind, String), Option<String>>>,
}

impl<'a> Hashes<'a> {
    pub fn new(course: &'a Course) -> Self {
        Hashes {
            course,
            known: RefCell::default(),
        }
    }

    /// Whether `hash` is the item's content hash now.
    fn is_current(&self, kind: ItemKind, id: &str, hash: &str) -> bool {
        let mut known = self.known.borrow_mut();
        let now = known.entry((kind, id.to_string())).or_insert_with(|| {
            let place = Place {
                kind,
                id: id.to_string(),
            };
            crate::events::content_hash(self.course, &place)
        });
        now.as_deref() == Some(hash)
    }
}

pub fn learner(name: &str, files: &[&Input], hashes: &Hashes, pack: &Pack, now: u64) -> Merged {
    let course = hashes.course;
    let logs: Vec<Vec<Event>> = files
        .iter()
        .map(|f| {
            if f.export.events.is_empty() {
                legacy_events(&f.export)
            } else {
                f.export.events.clone()
            }
        })
        .collect();
    let events = crate::events::union(logs.iter().map(Vec::as_slice));
    let progress = Progress::from_events(&events);
    let newest = files
        .iter()
        .max_by(|a, b| a.export.exported_at.cmp(&b.export.exported_at))
        .map(|f| f.export.machine.clone())
        .unwrap_or_default();
    let stamp = Stamp {
        pack,
        learner: name,
        machine: &newest,
        now,
        events: &[],
    };
    let mut export = crate::export::build(&progress, course, &stamp);
    export.login = String::new();
    let live = live(&events, &export);
    mark_items(&mut export.items, &events, hashes, live.as_ref());
    // An install is a machine: its key tells two apart even when their host names agree.
    let machines: BTreeSet<&str> = files
        .iter()
        .map(|f| match &f.verdict {
            crate::sign::Verdict::Good(key) => key.as_str(),
            _ => f.export.machine.as_str(),
        })
        .collect();
    let keys = files
        .iter()
        .filter_map(|f| match &f.verdict {
            crate::sign::Verdict::Good(key) => Some(key.clone()),
            _ => None,
        })
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let logins: BTreeSet<&str> = files
        .iter()
        .map(|f| f.export.login.as_str())
        .filter(|l| !l.is_empty())
        .collect();
    let mut flags = Vec::new();
    if logins.len() > 1 {
        flags.push(Flag::TwoPeople {
            logins: logins.iter().map(ToString::to_string).collect(),
        });
    }
    Merged {
        export,
        progress,
        machines: machines.len(),
        flags,
        live,
        keys,
    }
}

/// Items with events but no result yet (a lab opened, a step met) are in progress; an
/// in-progress lab names its current step.
fn mark_items(items: &mut [Item], events: &[Event], hashes: &Hashes, live: Option<&Live>) {
    // One pass over the log: the items it touches, and the content hash of the latest result
    // about each (a log holds hundreds of events, a course dozens of items).
    let mut touched: BTreeMap<(ItemKind, String), Option<&str>> = BTreeMap::new();
    for e in events {
        let Some(p) = e.what.place() else { continue };
        let recorded = touched.entry((p.kind, p.id)).or_default();
        if !e.what.is_live() && !e.hash.is_empty() {
            *recorded = Some(e.hash.as_str());
        }
    }
    for i in items.iter_mut() {
        let key = (i.kind, i.item.clone());
        let seen = touched.get(&key);
        // Changed since: the latest result about the item was recorded on other content.
        i.changed = i.status != Status::NotStarted
            && seen
                .copied()
                .flatten()
                .is_some_and(|h| !hashes.is_current(i.kind, &i.item, h));
        if i.status == Status::NotStarted && seen.is_some() {
            i.status = Status::Started;
        }
        if i.kind == ItemKind::Lab && i.status == Status::Started {
            let place = Place {
                kind: i.kind,
                id: i.item.clone(),
            };
            i.step = live
                .filter(|l| l.place == place)
                .and_then(|l| l.step.clone())
                .or_else(|| {
                    hashes
                        .course
                        .lab(&i.item)?
                        .steps
                        .iter()
                        .find(|s| !i.steps_done.contains(&s.id))
                        .map(|s| s.id.clone())
                });
        }
    }
}

/// Where the learner is: the item of the latest event, unless it is done; the step the latest
/// `at` event names; since the first of the latest run of events there.
fn live(events: &[Event], export: &Export) -> Option<Live> {
    let (last, place) = events
        .iter()
        .rev()
        .find_map(|e| e.what.place().map(|p| (e, p)))?;
    if matches!(last.what, What::Reset { .. }) {
        return None;
    }
    let done = export
        .items
        .iter()
        .any(|i| i.kind == place.kind && i.item == place.id && i.status == Status::Done);
    if done {
        return None;
    }
    let step_of = |e: &Event| match &e.what {
        What::At { step, .. } => step.clone(),
        _ => None,
    };
    let step = events
        .iter()
        .rev()
        .take_while(|e| e.what.place().is_none_or(|p| p == place))
        .find_map(step_of);
    let mut since = last.t;
    for e in events.iter().rev() {
        match e.what.place() {
            // An event of no item (a language change) neither ends nor moves the run.
            None => {}
            Some(p) if p != place => break,
            Some(_) => {
                if step.is_some() && matches!(e.what, What::At { .. }) && step_of(e) != step {
                    break;
                }
                since = e.t;
            }
        }
    }
    Some(Live { place, step, since })
}

/// An export from before the log: each started item becomes one event that carries its record.
/// Ids come from the file's content, so the same file read twice is one set of events.
pub fn legacy_events(e: &Export) -> Vec<Event> {
    let exported = crate::export::parse_rfc3339(&e.exported_at).unwrap_or(0);
    e.items
        .iter()
        .filter(|i| i.status != Status::NotStarted)
        .map(|i| {
            let finished = i
                .finished_at
                .as_deref()
                .and_then(crate::export::parse_rfc3339)
                .or((i.status == Status::Done).then_some(exported.max(1)));
            let record = match i.kind {
                ItemKind::Lesson => Record::Lesson(LessonProgress {
                    position: 0,
                    started_at: 0,
                    finished_at: finished,
                    time_spent_secs: i.time_spent_secs,
                }),
                ItemKind::Quiz => Record::Quiz(QuizProgress {
                    attempts: i.attempts,
                    best_score: i.best_score.or(i.score).unwrap_or(0),
                    last_score: i.score.unwrap_or(0),
                    first_score: i.first_score,
                    total: i.total.unwrap_or(0),
                    finished_at: finished,
                    time_spent_secs: i.time_spent_secs,
                    answers: i
                        .answers
                        .iter()
                        .map(|a| {
                            (
                                a.question.clone(),
                                AnswerRecord {
                                    chosen: a.chosen,
                                    right: a.right,
                                    wrong_count: a.wrong_count,
                                    wrong_choices: a.wrong_choices.clone(),
                                },
                            )
                        })
                        .collect(),
                    open: None,
                }),
                ItemKind::Lab => Record::Lab(LabProgress {
                    started_at: 0,
                    completed_at: finished,
                    steps_done: i.steps_done.clone(),
                    attempts: i.attempts,
                    hints_used: i.hints_used,
                    time_spent_secs: i.time_spent_secs,
                    how: i.how,
                }),
            };
            let key = format!(
                "{}|{}|{}|{}:{}",
                e.learner,
                e.machine,
                e.exported_at,
                i.kind.name(),
                i.item
            );
            Event {
                id: short_hash(&key),
                t: finished.unwrap_or(exported),
                hash: String::new(),
                what: What::Imported {
                    item: i.item.clone(),
                    record,
                },
            }
        })
        .collect()
}

fn short_hash(text: &str) -> String {
    use sha2::Digest;
    crate::events::hex(&sha2::Sha256::digest(text.as_bytes())[..16])
}
