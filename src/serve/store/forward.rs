//! Which events of the class folder the store has not been sent yet: every learner's logs
//! (`learners/NAME/events.jsonl`, and `packs/ID/events.jsonl` for a pack), read from where the
//! last round stopped. Only whole lines are taken; a line cut by a crash mid-append is read
//! once it is whole, and one that never parses is skipped as `events::read` skips it.

use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use crate::events::{Event, LOG_NAME};

/// At most this much of one log per round, so that a huge log cannot take all memory.
const MAX_READ: u64 = 4 << 20;

/// One log's new events: whose, which folder inside theirs ("" or `packs/ID`).
pub struct New {
    pub learner: String,
    pub dir: String,
    pub events: Vec<Event>,
    path: PathBuf,
    end: u64,
}

#[derive(Default)]
pub struct Tail {
    /// How far each log has been sent.
    sent: BTreeMap<PathBuf, u64>,
}

impl Tail {
    /// The events written since the last round, per log. Nothing counts as sent until `done`.
    pub fn new_events(&self, class: &Path) -> Vec<New> {
        let mut out = Vec::new();
        for (learner, dir, path) in logs(class) {
            let from = self.sent.get(&path).copied().unwrap_or(0);
            let Ok(len) = std::fs::metadata(&path).map(|m| m.len()) else {
                continue;
            };
            if len <= from {
                continue;
            }
            if let Some((events, end)) = read_lines(&path, from, len) {
                out.push(New {
                    learner,
                    dir,
                    events,
                    path,
                    end,
                });
            }
        }
        out
    }

    /// The store committed these: the next round starts after them.
    pub fn done(&mut self, new: &New) {
        self.sent.insert(new.path.clone(), new.end);
    }
}

/// Whole lines of `path` from `from`, parsed, and the offset after the last whole line.
fn read_lines(path: &Path, from: u64, len: u64) -> Option<(Vec<Event>, u64)> {
    let mut f = std::fs::File::open(path).ok()?;
    f.seek(SeekFrom::Start(from)).ok()?;
    let mut buf = Vec::new();
    f.take((len - from).min(MAX_READ))
        .read_to_end(&mut buf)
        .ok()?;
    let whole = buf.iter().rposition(|&b| b == b'\n')? + 1;
    let events = buf[..whole]
        .split(|&b| b == b'\n')
        .filter_map(|l| serde_json::from_slice(l).ok())
        .collect();
    Some((events, from + whole as u64))
}

/// Every learner's logs: (learner, folder inside theirs, path).
fn logs(class: &Path) -> Vec<(String, String, PathBuf)> {
    let mut out = Vec::new();
    let Ok(learners) = std::fs::read_dir(class.join(crate::progress::LEARNERS_DIR)) else {
        return out;
    };
    for l in learners.filter_map(Result::ok) {
        let Some(name) = l.file_name().to_str().map(String::from) else {
            continue;
        };
        let home = l.path();
        out.push((name.clone(), String::new(), home.join(LOG_NAME)));
        if let Ok(packs) = std::fs::read_dir(home.join("packs")) {
            for p in packs.filter_map(Result::ok) {
                if let Some(id) = p.file_name().to_str() {
                    out.push((name.clone(), format!("packs/{id}"), p.path().join(LOG_NAME)));
                }
            }
        }
    }
    out
}

/// Whether a folder name from the store is one this module makes (no way out of a learner's
/// folder): "" or `packs/ID` with ID a single plain name.
pub fn safe_dir(dir: &str) -> bool {
    match dir.strip_prefix("packs/") {
        None => dir.is_empty(),
        Some(id) => !id.is_empty() && !id.contains('/') && id != "." && id != "..",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_whole_new_lines_are_taken_and_each_once() {
        let class = tempfile::tempdir().expect("tmp");
        let home = class.path().join("learners/ana");
        std::fs::create_dir_all(&home).expect("dir");
        let log = home.join(LOG_NAME);
        let e =
            |id: &str| format!(r#"{{"id":"{id}","t":1,"type":"opened","kind":"lab","item":"x"}}"#);
        std::fs::write(&log, format!("{}\n{}", e("a"), &e("b")[..10])).expect("write");
        let mut tail = Tail::default();
        let first = tail.new_events(class.path());
        assert_eq!(first.len(), 1);
        let ids: Vec<&str> = first[0].events.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["a"]);
        // Not marked sent: the same events come again.
        assert_eq!(tail.new_events(class.path())[0].events.len(), 1);
        tail.done(&first[0]);
        assert!(tail.new_events(class.path()).is_empty());
        // The cut line finished: now it is taken, and only it.
        std::fs::write(&log, format!("{}\n{}\n", e("a"), e("b"))).expect("write");
        let next = tail.new_events(class.path());
        let ids: Vec<&str> = next[0].events.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["b"]);
    }

    #[test]
    fn folders_from_the_store_stay_inside_the_learners() {
        assert!(safe_dir("") && safe_dir("packs/gpu-101"));
        assert!(!safe_dir("packs/..") && !safe_dir("../x") && !safe_dir("packs/a/b"));
    }
}
