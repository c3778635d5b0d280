//! The real binary in a real terminal (tmux on a socket of the test's own): a quiz, a lesson in
//! Japanese, and the app's life with signals: SIGTERM, SIGHUP and Ctrl-Z/SIGTSTP/SIGCONT, with a
//! lab's shell focused too. Needs tmux (and bubblewrap for the lab): without them these tests
//! skip and say so (CI installs both and requires them).

// Signals and clock ticks of the processes under test: plain libc calls, in a test.
#![allow(unsafe_code)]

mod common;

use common::has;
#[path = "common/pane.rs"]
mod pane;

use pane::{Pane, Proc, descendants, family, wait};

const BIN: &str = env!("CARGO_BIN_EXE_rocm-learn");
const PACK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pack");

/// The app with `args`, progress kept in `data`, in a 120x40 pane of its own.
fn app(data: &std::path::Path, args: &[&str]) -> Pane {
    let mut argv = vec![BIN];
    argv.extend_from_slice(args);
    Pane::start(
        &argv,
        &[
            ("ROCM_LEARN_DATA_DIR", data.to_str().unwrap()),
            ("TERM", "xterm-256color"),
            ("LANG", "C.UTF-8"),
        ],
        120,
        40,
    )
}

/// The progress file the app wrote in `data`: the one pack's (`packs/ID@VERSION/`), else the
/// built-in course's (the folder's own file keeps the settings every pack shares).
fn progress(data: &std::path::Path) -> String {
    let packs = std::fs::read_dir(data.join("packs"))
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path().join("progress.json"));
    packs
        .chain([data.join("progress.json")])
        .find_map(|p| std::fs::read_to_string(p).ok())
        .unwrap_or_else(|| panic!("no progress file in {}", data.display()))
}

fn signal(p: Proc, sig: i32) {
    // SAFETY: kill(2) with a pid the test started and checked is alive; no memory is involved.
    assert_eq!(unsafe { libc::kill(p.pid, sig) }, 0, "kill {sig} {}", p.pid);
}

fn state(p: Proc) -> char {
    p.stat().map_or('?', |s| s.state)
}

#[test]
fn answer_a_quiz_question_in_the_real_app() {
    if !common::needs::tmux("terminal end-to-end tests") {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let s = app(data.path(), &["--content", PACK, "--lang", "en"]);
    s.wait_for("Stack");
    s.keys(&["3"]);
    s.wait_for("The ROCm deployment workflow");
    s.keys(&["Enter"]);
    let question = s.wait_for("Question 1 of 5");
    // Options are shuffled per attempt: answer by text, a wrong one.
    let hip = question
        .lines()
        .find_map(|l| l.trim().strip_suffix(") The HIP runtime API"))
        .and_then(|n| n.chars().last())
        .unwrap_or_else(|| panic!("the HIP option is listed:\n{question}"));
    s.keys(&[&hip.to_string(), "Enter"]);
    let screen = s.wait_for("The right answer is");
    assert!(screen.contains(") The support matrix"), "{screen}");
    has(&screen, "HIP is what programs call once ROCm is running");
    // Leave with q until the app exits; progress is on disk.
    let me = s.process();
    s.keys(&["q", "q", "q"]);
    wait("the app quits", || (!me.alive()).then_some(()));
    let progress = progress(data.path());
    has(&progress, "\"gatekeeper\"");
}

#[test]
fn the_app_opens_a_lesson_in_japanese_from_the_command_line() {
    if !common::needs::tmux("terminal end-to-end tests") {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let s = app(
        data.path(),
        &["--content", PACK, "--lang", "ja", "lesson", "what-is-rocm"],
    );
    let screen = s.wait_for("ROCm とは何か");
    has(&screen, "GPU はコンピューターの中の部品です");
}

#[test]
fn sigterm_restores_the_terminal_and_saves_the_reading_position() {
    if !common::needs::tmux("terminal end-to-end tests") {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    // Inside a shell, to see the terminal after the app is gone.
    let line = format!(
        "{BIN} --content {PACK} --lang en lesson what-is-rocm; echo \"app exited with $?\"; exec cat"
    );
    let s = app_in_shell(data.path(), &line);
    s.wait_for("A GPU is a part inside the computer");
    let me = app_below(&s);
    s.keys(&["j", "j", "j"]);
    s.wait_until("the reader scrolled", |t| {
        !t.contains("A GPU is a part inside the computer")
    });
    signal(me, libc::SIGTERM);
    let screen = s.wait_for("app exited with 0");
    assert!(!s.alternate(), "back on the normal screen:\n{screen}");
    let progress = progress(data.path());
    let v: serde_json::Value = serde_json::from_str(&progress).unwrap();
    assert_eq!(v["lessons"]["what-is-rocm"]["position"], 3, "{progress}");
}

/// `line` run by a job-control shell in a new pane.
fn app_in_shell(data: &std::path::Path, line: &str) -> Pane {
    let s = Pane::start(
        &["bash", "--norc", "--noprofile", "-i"],
        &[
            ("ROCM_LEARN_DATA_DIR", data.to_str().unwrap()),
            ("TERM", "xterm-256color"),
            ("LANG", "C.UTF-8"),
            ("PS1", "shell$ "),
        ],
        120,
        40,
    );
    s.wait_for("shell$");
    s.type_text(line);
    s.keys(&["Enter"]);
    s
}

/// The app, started by the pane's shell.
fn app_below(s: &Pane) -> Proc {
    let shell = s.process();
    wait("the app under the shell", || {
        descendants(shell.pid)
            .into_iter()
            .find(|(_, k)| k.comm == "rocm-learn")
            .and_then(|(pid, _)| Proc::of(pid))
    })
}

#[test]
fn ctrl_z_stops_the_app_with_the_terminal_restored_and_fg_brings_it_back() {
    if !common::needs::tmux("terminal end-to-end tests") {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let s = app_in_shell(
        data.path(),
        &format!("{BIN} --content {PACK} --lang en lesson what-is-rocm"),
    );
    s.wait_for("A GPU is a part inside the computer");
    let me = app_below(&s);
    // Twice: Ctrl-Z typed, then SIGTSTP sent; each stop and resume works, not only the first.
    for (round, stop) in ["ctrl-z", "sigtstp"].into_iter().enumerate() {
        if stop == "ctrl-z" {
            s.keys(&["C-z"]);
        } else {
            signal(me, libc::SIGTSTP);
        }
        wait(&format!("{stop}: the app stopped"), || {
            (state(me) == 'T').then_some(())
        });
        s.wait_until(&format!("{stop}: the shell says so"), |t| {
            t.matches("Stopped").count() == round + 1
        });
        assert!(!s.alternate(), "{stop}: the shell's screen, not the app's");
        // The shell has the terminal in cooked mode: what is typed is echoed and run.
        s.type_text(&format!("echo shell-$(({round}+5))"));
        s.keys(&["Enter"]);
        s.wait_for(&format!("\nshell-{}", round + 5));
        s.type_text("fg");
        s.keys(&["Enter"]);
        let screen = s.wait_for("A GPU is a part inside the computer");
        assert!(s.alternate(), "{stop}: {screen}");
    }
    // Raw mode again: keys reach the app one by one, without Enter (q: back home, q: quit).
    s.keys(&["q"]);
    s.wait_for("Stack");
    s.keys(&["q"]);
    wait("q quits the resumed app", || (!me.alive()).then_some(()));
}

/// `lab` open in the app at its first prompt: its data folder, pane, process, and the app with
/// every process of its sandbox.
fn open_lab(lab: &str) -> (tempfile::TempDir, Pane, Proc, Vec<Proc>) {
    let data = tempfile::tempdir().unwrap();
    let s = app(data.path(), &["--lang", "en", "lab", lab]);
    s.wait_for(":~$");
    let me = s.process();
    let all = family(me);
    assert!(all.len() > 1, "the sandbox runs");
    (data, s, me, all)
}

#[test]
fn every_signal_is_handled_and_sigterm_ends_a_lab_whose_shell_has_the_keys() {
    if !common::needs::tmux("terminal end-to-end tests")
        || !common::needs::bwrap("terminal end-to-end tests")
    {
        return;
    }
    let (data, _s, me, all) = open_lab("hipcc-not-found");
    // Run straight by its terminal, nobody could resume a stopped app: SIGTSTP leaves it
    // running, and the signals after it are still handled.
    for sig in [libc::SIGTSTP, libc::SIGCONT, libc::SIGTSTP] {
        signal(me, sig);
    }
    // The shell has the keys; SIGTERM still ends the app and removes the sandbox.
    signal(me, libc::SIGTERM);
    wait("the app and its sandbox end", || {
        all.iter().all(|p| !p.alive()).then_some(())
    });
    let progress = progress(data.path());
    let v: serde_json::Value = serde_json::from_str(&progress).unwrap();
    assert_eq!(v["labs"]["hipcc-not-found"]["attempts"], 1, "{progress}");
}

#[test]
fn sighup_ends_the_app_and_its_lab() {
    if !common::needs::tmux("terminal end-to-end tests")
        || !common::needs::bwrap("terminal end-to-end tests")
    {
        return;
    }
    let (_data, _s, me, all) = open_lab("amdgpu-not-loaded");
    signal(me, libc::SIGHUP);
    wait("every process gone", || {
        all.iter().all(|p| !p.alive()).then_some(())
    });
}

#[test]
fn a_terminal_that_goes_away_ends_the_app_and_its_lab() {
    if !common::needs::tmux("terminal end-to-end tests")
        || !common::needs::bwrap("terminal end-to-end tests")
    {
        return;
    }
    // As when a class server or a terminal window dies: the terminal hangs up. The app must
    // end (not spin on a terminal that reads as ended) and take its sandbox with it.
    let (_data, s, me, all) = open_lab("hipcc-not-found");
    s.close();
    wait("every process gone", || {
        all.iter().all(|p| !p.alive()).then_some(())
    });
    assert!(!me.alive());
}
