//! The real binary in a real terminal (tmux): open a quiz, answer, see the explanation.
//! Needs tmux: without it these tests skip and say so (CI installs it and requires it).

#[path = "common/needs.rs"]
mod needs;

use std::process::Command;
use std::time::{Duration, Instant};

struct Session {
    name: String,
}

impl Session {
    /// The app on the fixed test pack.
    fn start(name: &str, data: &std::path::Path, args: &str) -> Session {
        let pack = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pack");
        let command = format!(
            "{} --content {pack} {args}",
            env!("CARGO_BIN_EXE_rocm-learn")
        );
        Self::start_raw(name, data, &command)
    }

    /// Runs `command` (a shell command line) in a new 120x40 session.
    fn start_raw(name: &str, data: &std::path::Path, command: &str) -> Session {
        let ok = Command::new("tmux")
            .arg("-V")
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false);
        assert!(
            ok,
            "tmux is needed for this test: apt-get install tmux (.ci/run does it)"
        );
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", name])
            .output();
        let cmd = format!(
            "env ROCM_LEARN_DATA_DIR='{}' LANG=C.UTF-8 TERM=xterm-256color {command}",
            data.display(),
        );
        let st = Command::new("tmux")
            .args([
                "new-session",
                "-d",
                "-s",
                name,
                "-x",
                "120",
                "-y",
                "40",
                &cmd,
            ])
            .status()
            .unwrap();
        assert!(st.success());
        Session {
            name: name.to_string(),
        }
    }

    fn keys(&self, keys: &[&str]) {
        for k in keys {
            Command::new("tmux")
                .args(["send-keys", "-t", &self.name, k])
                .status()
                .unwrap();
        }
    }

    fn screen(&self) -> String {
        let out = Command::new("tmux")
            .args(["capture-pane", "-p", "-t", &self.name])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Waits until the screen shows `text` (the app draws asynchronously).
    fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if s.contains(text) {
                return s;
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "never showed {text:?}; screen:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn alive(&self) -> bool {
        Command::new("tmux")
            .args(["has-session", "-t", &self.name])
            .status()
            .map(|s| s.success())
            .unwrap_or(false)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &self.name])
            .output();
    }
}

#[test]
fn answer_a_quiz_question_in_the_real_app() {
    if !needs::tmux("terminal end-to-end tests") {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let s = Session::start("rocm-learn-e2e-quiz", data.path(), "--lang en");
    s.wait_for("Stack");
    s.keys(&["3"]);
    s.wait_for("The ROCm deployment workflow");
    s.keys(&["Enter"]);
    s.wait_for("Question 1 of 5");
    s.keys(&["a", "Enter"]);
    // Options are shuffled per attempt, so whatever `a` was, every option is explained: the
    // right one's explanation and the HIP one's are both on screen.
    let screen = s.wait_for("The support matrix lists the GPUs");
    assert!(
        screen.contains("HIP is what programs call once ROCm is running"),
        "{screen}"
    );
    // Leave with q until the app exits; the terminal is given back and progress is on disk.
    s.keys(&["q", "q", "q"]);
    let start = Instant::now();
    while s.alive() && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!s.alive(), "the app quit");
    let progress = std::fs::read_to_string(data.path().join("progress.json")).unwrap();
    assert!(progress.contains("\"gatekeeper\""), "{progress}");
}

#[test]
fn the_app_opens_a_lesson_in_japanese_from_the_command_line() {
    if !needs::tmux("terminal end-to-end tests") {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let s = Session::start(
        "rocm-learn-e2e-lesson",
        data.path(),
        "--lang ja lesson what-is-rocm",
    );
    let screen = s.wait_for("ROCm とは何か");
    assert!(
        screen.contains("GPU はコンピューターの中の部品です"),
        "{screen}"
    );
}

#[test]
fn sigterm_restores_the_terminal_and_saves_the_reading_position() {
    if !needs::tmux("terminal end-to-end tests") {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    // Run inside a shell so we can see what the terminal looks like after the app is gone.
    let script = format!(
        "bash -c '{} --lang en lesson what-is-rocm; echo \"app exited with $?\"; sleep 30'",
        env!("CARGO_BIN_EXE_rocm-learn")
    );
    let s = Session::start_raw("rocm-learn-e2e-sigterm", data.path(), &script);
    s.wait_for("A GPU is a part inside the computer");
    s.keys(&["j", "j", "j"]);
    std::thread::sleep(Duration::from_millis(300));
    let pid = Command::new("pgrep")
        .args(["-f", "-n", "rocm-learn --lang en lesson what-is-rocm"])
        .output()
        .unwrap();
    let pid = String::from_utf8_lossy(&pid.stdout).trim().to_string();
    assert!(!pid.is_empty(), "found the app's process");
    Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    let screen = s.wait_for("app exited with 0");
    // Back on the normal screen: the lesson text is gone, raw mode is off (echo is visible).
    assert!(
        !screen.contains("A GPU is a part inside the computer"),
        "{screen}"
    );
    let progress = std::fs::read_to_string(data.path().join("progress.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&progress).unwrap();
    assert_eq!(v["lessons"]["what-is-rocm"]["position"], 3, "{progress}");
}
