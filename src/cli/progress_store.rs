//! The learner's progress store as the commands open it: with a class's submit folder or
//! learning record store set, every save also hands the learner's results on.

use std::path::PathBuf;

use crate::content::{self, Course, Pack};
use crate::i18n::I18n;
use crate::progress::{self, Progress, Store};
use crate::serve::SUBMIT_ENV;

/// Opens the store of this pack's progress; problems are reported but never stop the learner.
/// With `ROCM_LEARN_SUBMIT_DIR` set, every finished item also writes the learner's export there.
pub(super) fn open_store(i18n: &I18n, course: &Course, pack: &Pack) -> Option<Store> {
    let store = match Store::locate() {
        Ok(s) => s.for_pack(pack).with_course(course),
        Err(e) => {
            eprintln!("{}", i18n.msg(&e.0));
            return None;
        }
    };
    let submit = std::env::var_os(SUBMIT_ENV)
        .filter(|d| !d.is_empty())
        .map(PathBuf::from);
    let lrs = crate::lrs::Config::from_env();
    if submit.is_none() && lrs.is_none() {
        return Some(store);
    }
    let course = std::sync::Arc::new(course.clone());
    let pack = pack.clone();
    let machine = crate::export::machine_name();
    let submitter = submit.map(|dir| {
        std::sync::Arc::new(Submitter {
            store: store.clone(),
            course,
            pack: pack.clone(),
            machine: machine.clone(),
            dir,
            last: std::sync::Mutex::new(None),
            deferred: std::sync::atomic::AtomicBool::new(false),
        })
    });
    Some(store.on_finish(std::sync::Arc::new(
        move |p: &Progress, saved: &progress::Saved| {
            let learner = crate::export::learner_name(p.learner.as_deref());
            let data = progress::base_dir().map_err(|e| e.0)?;
            if let Some(cfg) = &lrs {
                queue_statements(&data, cfg, &pack, &learner, &machine, &saved.events)?;
            }
            match &submitter {
                Some(s) => s.saved(p, saved.finished),
                None => Ok(()),
            }
        },
    )))
}

/// Writes the learner's export to the class submit folder: at once when something is
/// finished, else at most every `SUBMIT_DEBOUNCE`, the last change always written (later, from
/// a thread) so that a learner who stops mid-lab still shows where.
struct Submitter {
    store: Store,
    course: std::sync::Arc<Course>,
    pack: Pack,
    machine: String,
    dir: PathBuf,
    last: std::sync::Mutex<Option<std::time::Instant>>,
    deferred: std::sync::atomic::AtomicBool,
}

impl Submitter {
    fn saved(
        self: &std::sync::Arc<Self>,
        p: &Progress,
        finished: bool,
    ) -> Result<(), content::Msg> {
        use std::sync::atomic::Ordering;
        let wait = {
            let mut last = self
                .last
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            match *last {
                Some(t) if !finished && t.elapsed() < SUBMIT_DEBOUNCE => {
                    Some(SUBMIT_DEBOUNCE - t.elapsed())
                }
                _ => {
                    *last = Some(std::time::Instant::now());
                    None
                }
            }
        };
        let Some(wait) = wait else {
            return self.write(p);
        };
        if !self.deferred.swap(true, Ordering::SeqCst) {
            let me = self.clone();
            let _ = std::thread::Builder::new()
                .name("submit".into())
                .spawn(move || {
                    std::thread::sleep(wait);
                    me.deferred.store(false, Ordering::SeqCst);
                    *me.last
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner) =
                        Some(std::time::Instant::now());
                    if let Ok((p, _)) = me.store.load() {
                        let _ = me.write(&p);
                    }
                });
        }
        Ok(())
    }

    fn write(&self, p: &Progress) -> Result<(), content::Msg> {
        let learner = crate::export::learner_name(p.learner.as_deref());
        let events = self.store.log();
        let stamp = crate::export::Stamp {
            pack: &self.pack,
            learner: &learner,
            machine: &self.machine,
            now: progress::now(),
            events: &events,
        };
        let mut export = crate::export::build(p, &self.course, &stamp);
        progress::base_dir()
            .map_err(|e| std::io::Error::other(e.to_string()))
            .and_then(|data| export.sign(&data))
            .and_then(|()| crate::export::submit(&self.dir, &export))
            .map(drop)
            .map_err(|e| {
                content::Msg::new("classroom-submit-failed")
                    .arg("dir", self.dir.display())
                    .arg("error", e)
            })
    }
}

/// Queues the statements of new events and starts sending them in the background.
fn queue_statements(
    data: &std::path::Path,
    cfg: &crate::lrs::Config,
    pack: &Pack,
    learner: &str,
    machine: &str,
    events: &[crate::events::Event],
) -> Result<(), content::Msg> {
    let install = crate::sign::install_key(data)
        .map(|k| crate::events::hex(k.verifying_key().as_bytes()))
        .unwrap_or_default();
    let origin = crate::xapi::Origin {
        learner,
        pack: &pack.id,
        version: &pack.version,
        machine,
        install: &install,
    };
    let statements: Vec<serde_json::Value> = events
        .iter()
        .map(|e| crate::xapi::statement(e, &origin))
        .collect();
    crate::lrs::enqueue(data, &statements).map_err(|e| {
        content::Msg::new("lrs-queue-failed")
            .arg("dir", crate::lrs::queue_dir(data).display())
            .arg("error", e)
    })?;
    crate::lrs::flush_in_background(data.to_path_buf(), cfg.clone());
    Ok(())
}

/// How often in-progress events (a step met, a question answered) reach the submit folder.
const SUBMIT_DEBOUNCE: std::time::Duration = std::time::Duration::from_secs(2);
