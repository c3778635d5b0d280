//! `check` proves a pack's labs before class: every lab's `[machine]` builds (an unknown preset,
//! key, release or group is an error at its place in the file), every group a `groups` step
//! names exists on that machine, and, in the real sandbox, every lab's solution completes and
//! the pack's `tests/<lab>/ok-*.sh` pass while `bad-*.sh` fail on the step and reason their first
//! line names (`# expect: STEP: reason text`).
//!
//! Labs a pack borrows from the built-in course are not run again: the built-in course is
//! proven by rocm-learn's own tests.

use std::path::Path;

use crate::content::diag::SourceFile;
use crate::content::{Check, ContentTree, Course, Diagnostics, Lab, Msg};
use crate::i18n::I18n;
use crate::lab;
use crate::sim::MachineSpec;

/// Where a lab's file is in the tree (`lessons/DIR/lab-ID.toml`).
fn lab_file(tree: &ContentTree, id: &str) -> Option<String> {
    let name = format!("/lab-{id}.toml");
    tree.under("lessons")
        .map(|(rel, _)| rel)
        .find(|rel| rel.ends_with(&name))
        .map(String::from)
}

/// The byte offset of the first quoted or backticked word of `message` inside the `[machine]`
/// table of `text`, else of the table itself: where an author should look.
fn place(text: &str, message: &str) -> usize {
    let table = text.find("[machine]").unwrap_or(0);
    let word = ['"', '`'].iter().find_map(|q| {
        let start = message.find(*q)? + 1;
        let len = message[start..].find(*q)?;
        Some(&message[start..start + len])
    });
    word.filter(|w| !w.is_empty())
        .and_then(|w| text[table..].find(w).map(|at| table + at))
        .unwrap_or(table)
}

/// Builds every lab's machine in a scratch folder; what the simulator refuses becomes an error
/// at its place in the lab's file, as do group steps naming a group or user the machine lacks.
pub fn machines(tree: &ContentTree, course: &Course, diags: &mut Diagnostics) {
    for lab in &course.labs {
        let Some(rel) = lab_file(tree, &lab.id) else {
            continue;
        };
        if tree.is_borrowed(&rel) {
            continue;
        }
        let text = tree.get(&rel).unwrap_or("");
        let file = SourceFile::new(tree.display(&rel), text);
        let error = |diags: &mut Diagnostics, message: &str| {
            diags.error(
                &file,
                place(text, message),
                Msg::new("classroom-check-machine").arg("error", message),
            );
        };
        let spec = match MachineSpec::from_toml(&lab.machine) {
            Ok(s) => s,
            Err(e) => {
                error(diags, &e.message);
                continue;
            }
        };
        let Ok(scratch) = tempfile::tempdir() else {
            continue;
        };
        if let Err(e) =
            crate::sim::stage::create_on(scratch.path(), &spec, &crate::sim_host::Alone::new())
        {
            error(diags, &e.message);
            continue;
        }
        let groups = std::fs::read_to_string(scratch.path().join("etc/group")).unwrap_or_default();
        let exists = |g: &str| groups.lines().any(|l| l.split(':').next() == Some(g));
        for step in &lab.steps {
            let (user, want, keep): (&str, &[String], &[String]) = match &step.check {
                Check::Groups { user, groups, keep } => (user, groups, keep),
                Check::SessionGroups { user, groups } => (user, groups, &[]),
                _ => continue,
            };
            // Each error points at the quoted name in the file, where the author fixes it.
            let mut missing = |name: &str, what: &'static str, id: &'static str| {
                let at = text.find(&format!("\"{name}\"")).unwrap_or(0);
                let msg = Msg::new(id).arg(what, name).arg("step", &step.id);
                diags.error(&file, at, msg);
            };
            if crate::unix::accounts::user(scratch.path(), user).is_none() {
                missing(user, "user", "classroom-check-no-user");
            }
            for g in want.iter().chain(keep).filter(|g| !exists(g)) {
                missing(g, "group", "classroom-check-no-group");
            }
        }
    }
}

/// One way a lab failed its proof.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub lab: String,
    /// `solution`, or the script's file name.
    pub what: String,
    pub reason: String,
    /// Where to look: `path:line` of the lab's `[solution]` or of the script.
    pub place: String,
}

/// What proving a pack's labs found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Proof {
    pub failures: Vec<Failure>,
    /// Each lab proven, with how many test scripts ran for it.
    pub ran: Vec<(String, usize)>,
    /// Test folders and files check cannot match to a lab or a script kind (a misspelt lab
    /// folder, `good-x.sh`): they would otherwise be skipped without a word.
    pub unmatched: Vec<String>,
}

/// How a script runs `lab` with the program `exe`: in the scripts' fixed terminal, in `i18n`'s
/// language, keeping a transcript or not.
pub fn script_options(
    lab: &Lab,
    i18n: &I18n,
    exe: std::path::PathBuf,
    transcript: bool,
) -> lab::app::run::Options {
    lab::app::run::Options {
        exe,
        rows: lab::app::scripted::ROWS,
        cols: lab::app::scripted::COLS,
        relogin: i18n.ta("lab-relogin", &[("user", lab.user.as_str().into())]),
        transcript,
        lang: i18n.lang(),
    }
}

/// The steps after typing `lines` into a fresh run of `lab`: (id, done, why in `i18n`).
fn grade(lab: &Lab, lines: &[String], i18n: &I18n) -> Result<Vec<(String, bool, String)>, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let opts = script_options(lab, i18n, exe, false);
    let mut run = lab::app::run::LabRun::start(lab, opts, lab::app::run::no_notify())
        .map_err(|e| i18n.msg(&e.0))?;
    lab::app::scripted::run(&mut run, lines, lab::app::scripted::LINE_TIMEOUT);
    run.shell.kill();
    Ok(lab
        .steps
        .iter()
        .zip(&run.status)
        .map(|(st, s)| {
            let why = s.why.as_ref().map(|w| i18n.msg(w)).unwrap_or_default();
            (st.id.clone(), s.done, why)
        })
        .collect())
}

/// The first step not done, with its reason.
fn first_missing(steps: &[(String, bool, String)]) -> Option<&(String, bool, String)> {
    steps.iter().find(|(_, done, _)| !done)
}

/// The pack's scripts for a lab: `tests/<lab>/ok-*.sh` and `bad-*.sh`, by name, each with its
/// text or why it was not read. The pack's author may be hostile: read through `hostfs` from
/// the pack's root, so no link on the way (`tests`, the lab's folder, a script) is followed.
fn scripts(root: &Path, lab: &str, i18n: &I18n) -> Vec<(String, Result<String, String>)> {
    let folder = format!("tests/{lab}");
    let wanted = |rel: &str, is_dir: bool| {
        if is_dir {
            return rel == "tests" || rel == folder;
        }
        let Some(name) = rel.strip_prefix(&folder).and_then(|r| r.strip_prefix('/')) else {
            return false;
        };
        (name.starts_with("ok-") || name.starts_with("bad-")) && name.ends_with(".sh")
    };
    let walk = crate::hostfs::walk(root, crate::hostfs::Limits::PACK, &wanted);
    let name = |rel: &str| rel.rsplit('/').next().unwrap_or(rel).to_string();
    let mut out: Vec<(String, Result<String, String>)> = walk
        .files
        .into_iter()
        .map(|(rel, b)| (name(&rel), String::from_utf8(b).map_err(|e| e.to_string())))
        .collect();
    out.extend(
        walk.refused
            .into_iter()
            .filter(|(rel, _)| rel.starts_with(&format!("{folder}/")))
            .map(|(rel, why)| (name(&rel), Err(i18n.msg(&why.msg())))),
    );
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Runs every lab of the pack (not the borrowed ones) in the sandbox: its solution, then its
/// scripts. `progress` is told each lab's id as it starts (they take seconds each).
pub fn labs(
    tree: &ContentTree,
    course: &Course,
    i18n: &I18n,
    progress: &mut dyn FnMut(&str),
) -> Proof {
    let mut proof = Proof::default();
    if let Some(root) = tree.root() {
        proof.unmatched = unmatched(root, tree, course);
    }
    let failures = &mut proof.failures;
    for lab in &course.labs {
        let Some(rel) = lab_file(tree, &lab.id).filter(|rel| !tree.is_borrowed(rel)) else {
            continue;
        };
        progress(&lab.id);
        let text = tree.get(&rel).unwrap_or("");
        let solution_at = format!(
            "{}:{}",
            tree.display(&rel),
            line_of(text, "[solution]").unwrap_or(1)
        );
        let fail = |what: &str, reason: String, place: String| Failure {
            lab: lab.id.clone(),
            what: what.to_string(),
            reason,
            place,
        };
        match grade(lab, &lab.solution_commands, i18n) {
            Err(reason) => {
                // The sandbox itself failed: every other run would fail the same way.
                failures.push(fail("solution", reason, solution_at));
                return proof;
            }
            Ok(steps) => {
                if let Some((step, _, why)) = first_missing(&steps) {
                    failures.push(fail(
                        "solution",
                        i18n.ta(
                            "classroom-check-step-not-done",
                            &[("step", step.as_str().into()), ("why", why.as_str().into())],
                        ),
                        solution_at.clone(),
                    ));
                }
            }
        }
        let Some(root) = tree.root() else { continue };
        let scripts = scripts(root, &lab.id, i18n);
        proof.ran.push((lab.id.clone(), scripts.len()));
        for (name, text) in scripts {
            // A bad- script's header is line 1; an ok- script ran to its last line.
            let line = match &text {
                Ok(t) if name.starts_with("ok-") => t.lines().count().max(1),
                _ => 1,
            };
            let place = format!(
                "{}:{line}",
                root.join("tests").join(&lab.id).join(&name).display()
            );
            if let Some(f) = prove_script(lab, text, &name, i18n) {
                failures.push(fail(&name, f, place));
            }
        }
    }
    proof
}

/// The 1-based line of the first line of `text` that starts with `head`.
fn line_of(text: &str, head: &str) -> Option<usize> {
    text.lines()
        .position(|l| l.trim_start().starts_with(head))
        .map(|i| i + 1)
}

/// Folders under `tests/` that name no lab of the pack, and files in a lab's folder that are
/// neither `ok-*.sh` nor `bad-*.sh`: paths relative to the pack. Read through `hostfs` like
/// the scripts (no link followed).
fn unmatched(root: &Path, tree: &ContentTree, course: &Course) -> Vec<String> {
    let own: Vec<&str> = course
        .labs
        .iter()
        .filter(|l| lab_file(tree, &l.id).is_some_and(|rel| !tree.is_borrowed(&rel)))
        .map(|l| l.id.as_str())
        .collect();
    let wanted = |rel: &str, is_dir: bool| {
        if is_dir {
            return rel == "tests" || rel.matches('/').count() == 1;
        }
        rel.starts_with("tests/")
    };
    let walk = crate::hostfs::walk(root, crate::hostfs::Limits::PACK, &wanted);
    let mut out = std::collections::BTreeSet::new();
    for rel in walk
        .files
        .iter()
        .map(|(r, _)| r.as_str())
        .chain(walk.refused.iter().map(|(r, _)| r.as_str()))
    {
        let mut parts = rel.splitn(3, '/');
        let (_, folder, name) = (parts.next(), parts.next(), parts.next());
        match (folder, name) {
            (Some(folder), Some(_)) if !own.contains(&folder) => {
                out.insert(format!("tests/{folder}/"));
            }
            (Some(_), Some(name))
                if !name.contains('/')
                    && !((name.starts_with("ok-") || name.starts_with("bad-"))
                        && name.ends_with(".sh")) =>
            {
                out.insert(rel.to_string());
            }
            _ => {}
        }
    }
    out.into_iter().collect()
}

/// Why one script did not behave as its name says, if it did not.
fn prove_script(
    lab: &Lab,
    text: Result<String, String>,
    name: &str,
    i18n: &I18n,
) -> Option<String> {
    let text = match text {
        Ok(t) => t,
        Err(e) => return Some(e),
    };
    let lines: Vec<String> = text.lines().map(String::from).collect();
    let expect = if name.starts_with("bad-") {
        let head = lines.first().and_then(|l| l.strip_prefix("# expect: "));
        match head.and_then(|h| h.split_once(": ")) {
            Some((step, reason)) => Some((step.trim().to_string(), reason.trim().to_string())),
            None => return Some(i18n.t("classroom-check-bad-header")),
        }
    } else {
        None
    };
    let steps = match grade(lab, &lines, i18n) {
        Ok(s) => s,
        Err(reason) => return Some(reason),
    };
    let missing = first_missing(&steps);
    match (expect, missing) {
        (None, None) => None,
        (None, Some((step, _, why))) => Some(i18n.ta(
            "classroom-check-step-not-done",
            &[("step", step.as_str().into()), ("why", why.as_str().into())],
        )),
        (Some(_), None) => Some(i18n.t("classroom-check-bad-passed")),
        (Some((step, reason)), Some((got, _, why))) => (*got != step || !why.contains(&reason))
            .then(|| {
                i18n.ta(
                    "classroom-check-bad-wrong",
                    &[
                        ("step", step.as_str().into()),
                        ("reason", reason.as_str().into()),
                        ("got", got.as_str().into()),
                        ("why", why.as_str().into()),
                    ],
                )
            }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_machine_error_points_at_the_word_it_names() {
        let text = "id = \"x\"\n[machine]\npreset = \"mi300x\"\n";
        let at = place(
            text,
            "machine spec: unknown preset \"mi300x\" (known: a, b)",
        );
        assert_eq!(&text[at..at + 6], "mi300x");
        let at = place(text, "machine spec: no such thing");
        assert_eq!(&text[at..at + 9], "[machine]");
    }
}
