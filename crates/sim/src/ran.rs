//! Which simulated tools each login session ran, and how they ended: a lab that grades a
//! learner's script runs it in a session of its own and reads here what it called, rather than
//! reading the script's text (a comment or an `echo amd-smi` calls nothing).

use std::io::Write;
use std::path::Path;

/// Where the record is kept, relative to the stage root: one `SESSION\tTOOL\tSTATUS` line a run.
pub const RAN_PATH: &str = "var/lib/rocm-sim/ran";

/// Past this size the record starts again: only the latest runs matter to a check.
const MAX_BYTES: u64 = 64 * 1024;

/// Notes that `tool` ran in `session` and ended with `code`. Best effort: a record that
/// cannot be written only leaves a check without it.
pub fn record(root: &Path, session: &str, tool: &str, code: i32) {
    if session.is_empty() || session.contains(['\t', '\n']) {
        return;
    }
    let path = root.join(RAN_PATH);
    let fresh = std::fs::metadata(&path).is_ok_and(|m| m.len() > MAX_BYTES);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(!fresh)
        .write(true)
        .truncate(fresh)
        .open(&path);
    if let Ok(mut f) = file {
        // One write of one short line: appends from several tools at once do not interleave.
        let _ = f.write_all(format!("{session}\t{tool}\t{code}\n").as_bytes());
    }
}

/// The tools `session` ran, in order, each with its exit status.
pub fn in_session(root: &Path, session: &str) -> Vec<(String, i32)> {
    let Some(text) = super::fsx::read_opt(&root.join(RAN_PATH)) else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|l| {
            let mut f = l.split('\t');
            let (s, t, c) = (f.next()?, f.next()?, f.next()?.parse().ok()?);
            (s == session).then(|| (t.to_string(), c))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_are_kept_per_session_in_order() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("var/lib/rocm-sim")).unwrap();
        record(d.path(), "s1", "amd-smi", 0);
        record(d.path(), "s2", "rocminfo", 1);
        record(d.path(), "s1", "rocminfo", 1);
        assert_eq!(
            in_session(d.path(), "s1"),
            [("amd-smi".to_string(), 0), ("rocminfo".to_string(), 1)]
        );
        assert!(in_session(d.path(), "s3").is_empty());
    }
}
