//! Class results reach a real learning record store: Ralph (PyPI `ralph-malph`) on loopback,
//! with its file backend. `.ci/run` installs it and names its `ralph` program in
//! ROCM_LEARN_TEST_RALPH; without it these tests say they were skipped (`common::needs::skip`),
//! and fail under ROCM_LEARN_REQUIRE_SANDBOX=1 (CI).
//!
//! Which backend: Ralph's file backend, set to append. As shipped (5.1.0) it creates its file
//! on the first POST and refuses every later one ("already exists and overwrite is not
//! allowed"), so only statements that arrive in one POST could ever be stored. A class sends
//! many: these tests run Ralph's own app under uvicorn, from the same virtualenv, with the
//! file backend's default write set to append, so every POST it accepts is stored.

// Signals and clock ticks of the processes under test: plain libc calls, in a test.
#![allow(unsafe_code)]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CLASS_PACK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/class-pack");

/// The `ralph` program, or why the test cannot run.
fn ralph() -> Option<PathBuf> {
    let found = std::env::var_os("ROCM_LEARN_TEST_RALPH")
        .map(PathBuf::from)
        .filter(|p| p.is_file());
    if found.is_none() {
        common::needs::skip(
            "the LRS tests",
            "ROCM_LEARN_TEST_RALPH names no `ralph` program (.ci/run sets it)",
        );
    }
    found
}

/// Ralph's LRS app with its file backend appending every write (see the top of this file).
const APPENDING_RALPH: &str = "
import sys
import uvicorn
from ralph.backends.data.base import BaseOperationType
from ralph.backends.lrs.fs import FSLRSBackend
FSLRSBackend.default_operation_type = BaseOperationType.APPEND
uvicorn.run('ralph.api:app', host='127.0.0.1', port=int(sys.argv[1]), log_level='warning')
";

/// One Ralph server on a free loopback port, stopped when dropped.
struct Lrs {
    ralph: PathBuf,
    app: tempfile::TempDir,
    data: tempfile::TempDir,
    port: u16,
    child: Option<Child>,
}

impl Lrs {
    fn new(ralph: PathBuf) -> Lrs {
        let app = tempfile::tempdir().unwrap();
        let data = tempfile::tempdir().unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let ok = Command::new(&ralph)
            .args(["auth", "-u", "teacher", "-p", "secret", "-s", "all"])
            .args(["-M", "mailto:teacher@example.org", "-w"])
            .env("RALPH_APP_DIR", app.path())
            .env("RALPH_RUNSERVER_BACKEND", "fs")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(ok.success(), "ralph auth failed");
        let mut lrs = Lrs {
            ralph,
            app,
            data,
            port,
            child: None,
        };
        lrs.start();
        lrs
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/xAPI", self.port)
    }

    fn start(&mut self) {
        // The virtualenv's Python, beside its `ralph` program.
        let python = ["python3", "python"]
            .map(|n| self.ralph.with_file_name(n))
            .into_iter()
            .find(|p| p.is_file())
            .expect("a python beside the ralph program");
        let child = Command::new(python)
            .args(["-c", APPENDING_RALPH, &self.port.to_string()])
            .env("RALPH_APP_DIR", self.app.path())
            .env("RALPH_RUNSERVER_BACKEND", "fs")
            .env(
                "RALPH_BACKENDS__LRS__FS__DEFAULT_DIRECTORY_PATH",
                self.data.path(),
            )
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap();
        self.child = Some(child);
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "ralph did not start"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            // The server and anything it started: the whole process group it leads.
            if let Ok(pgid) = i32::try_from(c.id()) {
                // SAFETY: a signal to the process group this test started, nothing else.
                unsafe { libc::kill(-pgid, libc::SIGTERM) };
            }
            let _ = c.wait();
        }
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok()
            && start.elapsed() < Duration::from_secs(20)
        {
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The statements stored, oldest first, as Ralph's file backend keeps them.
    fn stored(&self) -> Vec<serde_json::Value> {
        let text =
            std::fs::read_to_string(self.data.path().join("fs_lrs.jsonl")).unwrap_or_default();
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

impl Drop for Lrs {
    fn drop(&mut self) {
        self.stop();
    }
}

use std::os::unix::process::CommandExt;

fn run(data: &Path, url: &str, auth: &str, args: &[&str], stdin: &str) -> common::Run {
    let mut all = vec!["--content", CLASS_PACK];
    all.extend_from_slice(args);
    common::run(
        &all,
        stdin,
        data,
        &[
            ("ROCM_LEARN_LEARNER", "ana"),
            ("ROCM_LEARN_LRS", url),
            ("ROCM_LEARN_LRS_AUTH", auth),
        ],
    )
}

#[test]
fn results_wait_through_bad_credentials_and_a_stopped_lrs_then_arrive_once_in_order() {
    let Some(ralph) = ralph() else { return };
    let mut lrs = Lrs::new(ralph);
    let data = tempfile::tempdir().unwrap();
    let url = lrs.url();
    // Wrong credentials: a clear error, and the quiz's statements stay queued.
    let quiz = run(
        data.path(),
        &url,
        "teacher:wrong",
        &["quiz", "permissions", "--seed", "0"],
        "1\n1\n",
    );
    assert_eq!(quiz.code, 0, "{}", quiz.stderr);
    let status = run(data.path(), &url, "teacher:wrong", &["lrs", "status"], "");
    assert_eq!(status.code, 1);
    common::has(&status.stderr, "refused the credentials");
    common::has(&status.stderr, "ROCM_LEARN_LRS_AUTH");
    assert!(
        !status.stdout.starts_with("No statements"),
        "{}",
        status.stdout
    );
    assert!(lrs.stored().is_empty());
    // The LRS stopped: more work is done, nothing blocks, nothing is lost.
    lrs.stop();
    let started = Instant::now();
    let lesson = run(
        data.path(),
        &url,
        "teacher:secret",
        &["lesson", "node-day"],
        "",
    );
    assert_eq!(lesson.code, 0, "{}", lesson.stderr);
    assert!(started.elapsed() < Duration::from_secs(15));
    // A lab, solved by script in the real sandbox, where there is one.
    let lab = common::needs::bwrap("a lab's statements").then(|| {
        let script = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/labs/hsa-init-failed/ok-usermod-relogin.sh"
        );
        let out = run(
            data.path(),
            &url,
            "teacher:secret",
            &["lab", "hsa-init-failed", "--script", script],
            "",
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
    });
    let status = run(data.path(), &url, "teacher:secret", &["lrs", "status"], "");
    common::has(&status.stderr, "could not be reached");
    // Started again: everything arrives once, in the order it happened.
    lrs.start();
    let status = run(data.path(), &url, "teacher:secret", &["lrs", "status"], "");
    assert_eq!(status.code, 0, "{}", status.stderr);
    common::has(&status.stdout, "No statements wait");
    let stored = lrs.stored();
    let verbs: Vec<&str> = stored
        .iter()
        .map(|s| s["verb"]["display"]["en-US"].as_str().unwrap())
        .collect();
    let mut want = vec!["answered", "launched", "completed"];
    if lab.is_some() {
        want.push("passed");
        let lab = stored.last().unwrap();
        assert_eq!(
            lab["object"]["id"],
            "urn:rocm-learn:node-day:lab:hsa-init-failed"
        );
        assert_eq!(lab["result"]["success"], true);
        assert_eq!(lab["result"]["completion"], true);
    }
    assert_eq!(verbs, want, "{stored:#?}");
    let quiz = &stored[0];
    assert_eq!(quiz["actor"]["account"]["name"], "ana");
    assert_eq!(
        quiz["object"]["id"],
        "urn:rocm-learn:node-day:quiz:permissions"
    );
    assert_eq!(quiz["result"]["score"]["raw"], 2);
    assert_eq!(quiz["result"]["success"], true);
    let ids: std::collections::BTreeSet<&str> =
        stored.iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), stored.len(), "each statement once");
    // The report from the LRS is the report from the learner's files.
    let submit = tempfile::tempdir().unwrap();
    let export = run(
        data.path(),
        &url,
        "teacher:secret",
        &["progress", "--json"],
        "",
    );
    std::fs::write(submit.path().join("ana.json"), &export.stdout).unwrap();
    let instructor = tempfile::tempdir().unwrap();
    let from_files = common::run(
        &[
            "--content",
            CLASS_PACK,
            "report",
            "--json",
            submit.path().to_str().unwrap(),
        ],
        "",
        instructor.path(),
        &[],
    );
    let from_lrs = common::run(
        &["--content", CLASS_PACK, "report", "--json", "--lrs"],
        "",
        instructor.path(),
        &[
            ("ROCM_LEARN_LRS", &url),
            ("ROCM_LEARN_LRS_AUTH", "teacher:secret"),
        ],
    );
    assert_eq!(from_lrs.code, 0, "{}", from_lrs.stderr);
    let a: serde_json::Value = serde_json::from_str(&from_files.stdout).unwrap();
    let b: serde_json::Value = serde_json::from_str(&from_lrs.stdout).unwrap();
    assert_eq!(a["learners"], b["learners"]);
}

/// `rocm-learn ARGS` as `name`'s session of a class whose folder is `class` (as `serve` runs
/// it: one data folder, one statement queue for every learner).
fn session(class: &Path, name: &str, url: &str, args: &[&str], stdin: &str) -> common::Run {
    common::run(
        args,
        stdin,
        class,
        &[
            ("ROCM_LEARN_LEARNER", name),
            ("ROCM_LEARN_LRS", url),
            ("ROCM_LEARN_LRS_AUTH", "teacher:secret"),
        ],
    )
}

/// Runs `work` for every learner at once, each in a thread of its own.
fn at_once(learners: &[&str], work: impl Fn(&str) + Sync) {
    std::thread::scope(|s| {
        for name in learners {
            let work = &work;
            s.spawn(move || work(name));
        }
    });
}

/// Every event in the learners' logs in a class folder (each pack's and the built-in
/// course's), by id.
fn logged(class: &Path) -> Vec<String> {
    let mut logs = Vec::new();
    for learner in std::fs::read_dir(class.join("learners")).unwrap() {
        let dir = learner.unwrap().path();
        logs.push(dir.join("events.jsonl"));
        if let Ok(packs) = std::fs::read_dir(dir.join("packs")) {
            logs.extend(packs.map(|p| p.unwrap().path().join("events.jsonl")));
        }
    }
    logs.iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .flat_map(|t| {
            t.lines()
                .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["id"].to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn a_class_sending_from_many_sessions_at_once_through_an_outage_stores_each_result_once() {
    let Some(ralph) = ralph() else { return };
    let mut lrs = Lrs::new(ralph);
    let class = tempfile::tempdir().unwrap();
    let class = class.path();
    let url = lrs.url();
    let learners = ["ana", "ben", "cho"];
    let pack = ["--content", CLASS_PACK];
    let quiz = |name: &str, extra: &[&str], stdin: &str| {
        let mut args = pack.to_vec();
        args.extend_from_slice(&["quiz", "permissions", "--seed", "0"]);
        args.extend_from_slice(extra);
        let out = session(class, name, &url, &args, stdin);
        assert_eq!(out.code, 0, "{}", out.stderr);
    };
    let lesson = |name: &str| {
        let mut args = pack.to_vec();
        args.extend_from_slice(&["lesson", "node-day"]);
        let out = session(class, name, &url, &args, "");
        assert_eq!(out.code, 0, "{}", out.stderr);
    };
    // Ana starts in the built-in course: her first statements are another pack's.
    let own = session(
        class,
        "ana",
        &url,
        &["--content", "builtin", "quiz", "permissions", "--seed", "0"],
        "1\n",
    );
    assert_eq!(own.code, 0, "{}", own.stderr);
    // Everyone at once, each command sending on its own: a wrong answer, its retry, a lesson.
    at_once(&learners, |name| {
        quiz(name, &[], "1\n2\n");
        quiz(name, &["--retry-wrong"], "1\n");
        lesson(name);
    });
    // The file backend kept more than one write: each POST is stamped when it is stored.
    let stamps: std::collections::BTreeSet<String> = lrs
        .stored()
        .iter()
        .map(|s| s["stored"].to_string())
        .collect();
    assert!(stamps.len() > 1, "{stamps:?}");
    // The store goes away mid-class; work goes on, nothing waits on it.
    lrs.stop();
    let started = Instant::now();
    at_once(&learners, |name| lesson(name));
    assert!(started.elapsed() < Duration::from_secs(30));
    // Back: the next sends carry what waited, from every session at once.
    lrs.start();
    at_once(&learners, |name| quiz(name, &[], "1\n1\n"));
    let status = common::run(
        &["lrs", "status"],
        "",
        class,
        &[
            ("ROCM_LEARN_LRS", &url),
            ("ROCM_LEARN_LRS_AUTH", "teacher:secret"),
        ],
    );
    assert_eq!(status.code, 0, "{}", status.stderr);
    common::has(&status.stdout, "No statements wait");
    // Every event of every log is in the store exactly once, and nothing else is.
    let mut want = logged(class);
    want.sort();
    let mut got: Vec<String> = lrs
        .stored()
        .iter()
        .map(|s| s["context"]["extensions"]["urn:rocm-learn:event"]["id"].to_string())
        .collect();
    got.sort();
    assert!(want.len() >= learners.len() * 7, "{want:?}");
    assert_eq!(got, want);
    // The retry's statement scores what the learner scored: both questions right.
    let retry = lrs
        .stored()
        .into_iter()
        .filter(|s| s["actor"]["account"]["name"] == "ben")
        .filter(|s| s["verb"]["display"]["en-US"] == "answered")
        .nth(1)
        .unwrap();
    assert_eq!(retry["result"]["score"]["raw"], 2);
    assert_eq!(retry["result"]["success"], true);
    // The report from the store has every learner, Ana too, as their own files give it.
    let submit = tempfile::tempdir().unwrap();
    for name in learners {
        let mut args = pack.to_vec();
        args.extend_from_slice(&["progress", "--json"]);
        let export = session(class, name, &url, &args, "");
        std::fs::write(submit.path().join(format!("{name}.json")), &export.stdout).unwrap();
    }
    let instructor = tempfile::tempdir().unwrap();
    let report = |args: &[&str], env: &[(&str, &str)]| -> serde_json::Value {
        let mut all = pack.to_vec();
        all.extend_from_slice(&["report", "--json"]);
        all.extend_from_slice(args);
        let out = common::run(&all, "", instructor.path(), env);
        assert_eq!(out.code, 0, "{}", out.stderr);
        serde_json::from_str(&out.stdout).unwrap()
    };
    let from_files = report(&[submit.path().to_str().unwrap()], &[]);
    let from_lrs = report(
        &["--lrs"],
        &[
            ("ROCM_LEARN_LRS", &url),
            ("ROCM_LEARN_LRS_AUTH", "teacher:secret"),
        ],
    );
    let names: Vec<&str> = from_lrs["learners"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, learners);
    assert_eq!(from_lrs["learners"], from_files["learners"]);
}
