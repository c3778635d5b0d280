//! The class's copies of a learner's results, made off the thread that saved them: the export
//! in the class submit folder (built, signed and written atomically) and the statements for
//! the learning record store. Building and signing an export reads the whole log and writes a
//! file on a folder others share; the app's UI thread must not wait for that.
//!
//! One worker thread per store. What waits for it is bounded: the newest progress only (an
//! older one would be overwritten by it at once: the latest state wins) and the events whose
//! statements are not queued yet (each one a result, so never dropped). An export of work in
//! progress is written at most every `DEBOUNCE`; one that finished something, at once. On quit
//! the worker gets a bounded time to finish (`drain_all`), and what it could not write is
//! said plainly.

use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError, Weak};
use std::time::{Duration, Instant};

use crate::content::{Course, Msg, Pack};
use crate::events::Event;
use crate::progress::{Progress, Saved, Store};

/// How often an export of work in progress (a step met, a question answered) is written.
pub const DEBOUNCE: Duration = Duration::from_secs(2);

/// Where a learner's results go, and what they are written with.
pub struct Class {
    /// The class submit folder, for the learner's export.
    pub submit: Option<PathBuf>,
    /// The learning record store, for statements.
    pub lrs: Option<crate::lrs::Config>,
    /// This install's data folder: its key signs the export and the LRS queue lives there.
    pub data: PathBuf,
    pub pack: Pack,
    /// This machine's name, as exports carry it.
    pub machine: String,
}

/// A store's worker; dropping it leaves the thread to end with the process.
pub struct Worker {
    shared: Arc<Shared>,
}

struct Shared {
    state: Mutex<State>,
    /// Signalled on new work (to the worker) and on work done (to whoever drains).
    changed: Condvar,
    /// The submit folder, if exports are written; whether statements are queued.
    submit: Option<PathBuf>,
    lrs: bool,
}

#[derive(Default)]
struct State {
    /// The newest progress not exported yet.
    export: Option<Box<Progress>>,
    /// Something was finished since the last export: write it without waiting.
    finished: bool,
    /// Events whose statements are not queued yet, in log order.
    events: Vec<Event>,
    /// The learner's name as the newest save gave it, for the statements.
    learner: String,
    /// What the worker has in hand now: an export, and how many events.
    doing: Option<(bool, usize)>,
    /// The last failure not reported yet.
    failed: Option<Msg>,
    /// Quitting: nothing waits for the debounce any more.
    closing: bool,
}

impl State {
    fn idle(&self) -> bool {
        self.export.is_none() && self.events.is_empty() && self.doing.is_none()
    }
}

fn lock(m: &Mutex<State>) -> MutexGuard<'_, State> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Every worker of this process, for `drain_all`.
static WORKERS: Mutex<Vec<Weak<Shared>>> = Mutex::new(Vec::new());

/// `store` with its results handed to `class` after every save, by a worker thread. The
/// callback only hands the newest state over: it never waits for the disk, and a failure is
/// reported by the save after it.
pub fn attach(store: Store, course: &Course, class: Class) -> Store {
    let worker = Worker::start(store.clone(), Arc::new(course.clone()), class);
    store.on_finish(Arc::new(move |p: &Progress, saved: &Saved| {
        worker.hand(p, saved)
    }))
}

impl Worker {
    /// Starts the thread. `store` is the learner's (without this worker: it reads the log).
    pub fn start(store: Store, course: Arc<Course>, class: Class) -> Worker {
        let shared = Arc::new(Shared {
            state: Mutex::default(),
            changed: Condvar::new(),
            submit: class.submit.clone(),
            lrs: class.lrs.is_some(),
        });
        let job = Job {
            store,
            course,
            class,
        };
        let theirs = shared.clone();
        let started = std::thread::Builder::new()
            .name("class-results".into())
            .spawn(move || job.run(&theirs));
        if started.is_err() {
            // Without a thread nothing would ever be written: say so at the first save.
            lock(&shared.state).failed = Some(Msg::new("handoff-no-thread"));
        }
        WORKERS
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Arc::downgrade(&shared));
        Worker { shared }
    }

    /// Hands over what a save did; returns the failure of earlier work, if any, to show.
    pub fn hand(&self, p: &Progress, saved: &Saved) -> Result<(), Msg> {
        let shared = &self.shared;
        let mut st = lock(&shared.state);
        if shared.submit.is_some() {
            st.export = Some(Box::new(p.clone()));
            st.finished |= saved.finished;
        }
        if shared.lrs {
            st.events.extend(saved.events.iter().cloned());
        }
        st.learner = crate::export::learner_name(p.learner.as_deref());
        shared.changed.notify_all();
        st.failed.take().map_or(Ok(()), Err)
    }

    /// Waits up to `wait` for everything handed over to be written (the debounce is skipped);
    /// says what could not be, and the last failure not reported yet.
    pub fn drain(&self, wait: Duration) -> Vec<Msg> {
        self.shared.drain(Instant::now() + wait, wait)
    }
}

impl Shared {
    fn drain(&self, deadline: Instant, wait: Duration) -> Vec<Msg> {
        let mut st = lock(&self.state);
        st.closing = true;
        self.changed.notify_all();
        while !st.idle() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            st = self
                .changed
                .wait_timeout(st, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        let mut out: Vec<Msg> = st.failed.take().into_iter().collect();
        let (export, events) = st.doing.unwrap_or_default();
        if let Some(dir) = &self.submit
            && (export || st.export.is_some())
        {
            out.push(
                Msg::new("handoff-export-unwritten")
                    .arg("dir", dir.display())
                    .arg("secs", wait.as_secs()),
            );
        }
        let events = events + st.events.len();
        if events > 0 {
            out.push(Msg::new("handoff-statements-unqueued").arg("count", events));
        }
        out
    }
}

/// Gives every worker of this process until `wait` has passed to finish; what was left
/// unwritten and failures not reported yet, to say before the process ends.
pub fn drain_all(wait: Duration) -> Vec<Msg> {
    let deadline = Instant::now() + wait;
    let workers: Vec<Arc<Shared>> = WORKERS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
        .filter_map(Weak::upgrade)
        .collect();
    workers
        .iter()
        .flat_map(|w| w.drain(deadline, wait))
        .collect()
}

/// What the worker thread writes with.
struct Job {
    store: Store,
    course: Arc<Course>,
    class: Class,
}

impl Job {
    fn run(&self, shared: &Shared) {
        let mut last_export: Option<Instant> = None;
        let mut st = lock(&shared.state);
        loop {
            let wait = st
                .export
                .as_ref()
                .filter(|_| !st.finished && !st.closing)
                .and(last_export)
                .map(|t| DEBOUNCE.saturating_sub(t.elapsed()))
                .filter(|left| !left.is_zero());
            let export_due = st.export.is_some() && wait.is_none();
            if st.events.is_empty() && !export_due {
                st = match wait {
                    Some(left) => {
                        let r = shared.changed.wait_timeout(st, left);
                        r.unwrap_or_else(PoisonError::into_inner).0
                    }
                    None => shared
                        .changed
                        .wait(st)
                        .unwrap_or_else(PoisonError::into_inner),
                };
                continue;
            }
            let events = std::mem::take(&mut st.events);
            let learner = st.learner.clone();
            let export = if export_due {
                st.finished = false;
                st.export.take()
            } else {
                None
            };
            st.doing = Some((export.is_some(), events.len()));
            drop(st);
            let mut failed = None;
            if !events.is_empty()
                && let Err(m) = self.statements(&learner, &events)
            {
                failed = Some(m);
            }
            if let Some(p) = export {
                last_export = Some(Instant::now());
                if let Err(m) = self.export(&p) {
                    failed = Some(m);
                }
            }
            st = lock(&shared.state);
            st.doing = None;
            if failed.is_some() {
                st.failed = failed;
            }
            shared.changed.notify_all();
        }
    }

    /// Writes the learner's export, signed, to the submit folder.
    fn export(&self, p: &Progress) -> Result<(), Msg> {
        let Some(dir) = &self.class.submit else {
            return Ok(());
        };
        let learner = crate::export::learner_name(p.learner.as_deref());
        let events = self.store.log();
        let stamp = crate::export::Stamp {
            pack: &self.class.pack,
            learner: &learner,
            machine: &self.class.machine,
            now: crate::progress::now(),
            events: &events,
        };
        let mut export = crate::export::build(p, &self.course, &stamp);
        export
            .sign(&self.class.data)
            .and_then(|()| crate::export::submit(dir, &export))
            .map(drop)
            .map_err(|e| {
                Msg::new("classroom-submit-failed")
                    .arg("dir", dir.display())
                    .arg("error", e)
            })
    }

    /// Queues the statements of new events and starts sending them in the background.
    fn statements(&self, learner: &str, events: &[Event]) -> Result<(), Msg> {
        let Some(cfg) = &self.class.lrs else {
            return Ok(());
        };
        let data = &self.class.data;
        let install = crate::sign::install_key(data)
            .map(|k| crate::events::hex(k.verifying_key().as_bytes()))
            .unwrap_or_default();
        let pack = &self.class.pack;
        let origin = crate::xapi::Origin {
            learner,
            pack: &pack.id,
            version: &pack.version,
            machine: &self.class.machine,
            install: &install,
        };
        let statements: Vec<serde_json::Value> = events
            .iter()
            .map(|e| crate::xapi::statement(e, &origin))
            .collect();
        crate::lrs::enqueue(data, &statements).map_err(|e| {
            Msg::new("lrs-queue-failed")
                .arg("dir", crate::lrs::queue_dir(data).display())
                .arg("error", e)
        })?;
        crate::lrs::flush_in_background(data.clone(), cfg.clone());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Change;

    fn course() -> Course {
        crate::content::load_pack(&crate::content::ContentTree::embedded()).0
    }

    /// Several items finished in a burst, each save handing its state over at once: what the
    /// worker leaves in the submit folder is the newest state, whole and signed.
    #[test]
    fn the_export_after_a_burst_of_finishes_is_the_latest_whole_and_signed() {
        let course = course();
        let dir = tempfile::tempdir().unwrap();
        let (data, submit) = (dir.path().join("data"), dir.path().join("submit"));
        std::fs::create_dir_all(&submit).unwrap();
        let store = Store::at(data.join("progress")).with_course(&course);
        let worker = Arc::new(Worker::start(
            store.clone(),
            Arc::new(course.clone()),
            Class {
                submit: Some(submit.clone()),
                lrs: None,
                data: data.clone(),
                pack: Pack::builtin(),
                machine: "pc07.lab".into(),
            },
        ));
        let hands = worker.clone();
        let store = store.on_finish(Arc::new(move |p: &Progress, s: &Saved| hands.hand(p, s)));
        let lessons: Vec<&str> = course
            .lessons
            .iter()
            .take(6)
            .map(|l| l.id.as_str())
            .collect();
        assert_eq!(lessons.len(), 6, "the course has lessons to finish");
        for id in &lessons {
            store
                .update(|p| {
                    p.apply(&Change::Lesson {
                        id: (*id).to_string(),
                        position: 3,
                        finished: true,
                        secs: 30,
                    });
                })
                .unwrap();
        }
        let left = worker.drain(Duration::from_secs(20));
        assert!(left.is_empty(), "everything written: {left:?}");
        let files: Vec<PathBuf> = std::fs::read_dir(&submit)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(
            files.len(),
            1,
            "one file per learner, machine and pack: {files:?}"
        );
        let text = std::fs::read_to_string(&files[0]).unwrap();
        let (export, verdict) = crate::export::parse_checked(&text).unwrap();
        let key = crate::sign::install_key(&data).unwrap();
        assert_eq!(
            verdict,
            crate::sign::Verdict::Good(crate::events::hex(key.verifying_key().as_bytes()))
        );
        assert_eq!(export.machine, "pc07.lab");
        for id in &lessons {
            let item = export.items.iter().find(|i| i.item == *id).unwrap();
            assert_eq!(item.status, crate::export::Status::Done, "{id}");
        }
        assert_eq!(export.events.len(), lessons.len(), "the whole log travels");
    }

    /// A submit folder that cannot be written: the failure is reported by the next save (the
    /// save itself never waits), and draining says the export did not get there.
    #[test]
    fn a_folder_that_cannot_be_written_is_reported_by_the_next_save_and_at_quit() {
        let course = course();
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        // A file where the folder should be.
        let submit = dir.path().join("submit");
        std::fs::write(&submit, "not a folder").unwrap();
        let store = Store::at(data.join("progress")).with_course(&course);
        let worker = Worker::start(
            store.clone(),
            Arc::new(course.clone()),
            Class {
                submit: Some(submit),
                lrs: None,
                data,
                pack: Pack::builtin(),
                machine: "m".into(),
            },
        );
        let p = Progress::new();
        let finished = Saved {
            finished: true,
            events: Vec::new(),
        };
        assert_eq!(worker.hand(&p, &finished), Ok(()));
        let left = worker.drain(Duration::from_secs(20));
        assert_eq!(
            left.iter().map(|m| m.id).collect::<Vec<_>>(),
            ["classroom-submit-failed"],
            "{left:?}"
        );
        // Reported once: the next save hands over without an old failure.
        assert_eq!(worker.hand(&p, &finished), Ok(()));
    }
}
