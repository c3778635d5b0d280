//! The lab screen with a real shell in the sandbox: typing goes to the shell (Ctrl-C too), the
//! checklist follows the machine's state, leaving records progress.

#[path = "common/needs.rs"]
mod needs;
#[path = "common/tui.rs"]
mod tui;

use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use rocm_learn::lang::Lang;
use rocm_learn::markdown::Target;
use rocm_learn::tui::{App, Input};
use tui::{draw, send, text};

/// The app on the real course (labs live there), with the real binary for the sandbox.
fn lab_app(lab: &str, w: u16, h: u16) -> App {
    let (course, _) = rocm_learn::content::load(&rocm_learn::content::ContentTree::embedded());
    let mut a = App::new(
        course,
        rocm_learn::i18n::I18n::new(Lang::En),
        rocm_learn::tui::theme::Theme {
            color: true,
            ascii: false,
        },
        rocm_learn::progress::Progress::new(),
    );
    a.world.exe = Some(env!("CARGO_BIN_EXE_rocm-learn").into());
    draw(&mut a, w, h);
    a.open(&Target::Lab(lab.into()));
    a
}

fn type_line(a: &mut App, line: &str) {
    for c in line.chars() {
        a.handle(Input::Key(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::NONE,
        )));
    }
    a.handle(Input::Key(KeyEvent::from(KeyCode::Enter)));
}

/// Lets the shell work and redraws until the screen shows `want`.
fn wait_for(a: &mut App, w: u16, h: u16, want: &str) -> String {
    let start = Instant::now();
    loop {
        a.handle(Input::Wake);
        let s = text(&draw(a, w, h));
        if s.contains(want) {
            return s;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "never showed {want:?}:\n{s}"
        );
        std::thread::sleep(Duration::from_millis(30));
    }
}

#[test]
fn a_lab_runs_a_real_shell_and_ticks_off_steps_as_the_state_changes() {
    if !needs::bwrap("lab screen tests") {
        return;
    }
    let (w, h) = (130, 36);
    let mut a = lab_app("hsa-init-failed", w, h);
    assert_eq!(a.screen_id(), "lab");
    wait_for(&mut a, w, h, "learner@vega-ws:~$");
    type_line(&mut a, "rocminfo");
    wait_for(
        &mut a,
        w,
        h,
        "Unable to open /dev/kfd read-write: Permission denied",
    );
    // A wrong attempt gets its reason; the lab is not fooled by the groups changing.
    type_line(&mut a, "sudo usermod -G render,video learner");
    let s = wait_for(&mut a, w, h, "learner is no longer in adm, sudo");
    assert!(s.contains("• /etc/group lists learner"), "{s}");
    type_line(&mut a, "sudo usermod -aG adm,sudo learner");
    wait_for(&mut a, w, h, "✓ /etc/group lists learner");
    let s = wait_for(&mut a, w, h, "started before that change");
    assert!(!s.contains("Lab complete"), "{s}");
    type_line(&mut a, "exit");
    wait_for(&mut a, w, h, "Lab complete");
    assert!(
        a.world.progress.labs["hsa-init-failed"]
            .completed_at
            .is_some(),
        "recorded as solved"
    );
}

#[test]
fn ctrl_c_goes_to_the_shell_and_f10_gives_the_keys_back() {
    if !needs::bwrap("lab screen tests") {
        return;
    }
    let (w, h) = (100, 30);
    let mut a = lab_app("hipcc-not-found", w, h);
    wait_for(&mut a, w, h, "learner@vega-ws:~$");
    type_line(&mut a, "sleep 30");
    std::thread::sleep(Duration::from_millis(200));
    a.handle(Input::Key(KeyEvent::new(
        KeyCode::Char('c'),
        KeyModifiers::CONTROL,
    )));
    assert!(!a.quit, "Ctrl-C is the shell's while it has focus");
    wait_for(&mut a, w, h, "^C");
    // q types into the shell while it has focus...
    send(&mut a, "q");
    assert_eq!(a.screen_id(), "lab");
    // ...and after F10 it means "back"; the attempt is recorded.
    a.handle(Input::Key(KeyEvent::from(KeyCode::Backspace)));
    a.handle(Input::Key(KeyEvent::from(KeyCode::F(10))));
    send(&mut a, "q");
    assert_eq!(a.screen_id(), "home");
    assert_eq!(a.world.progress.labs["hipcc-not-found"].attempts, 1);
}

#[test]
fn hints_come_one_at_a_time_and_narrow_screens_show_them_over_the_terminal() {
    if !needs::bwrap("lab screen tests") {
        return;
    }
    let (w, h) = (60, 20);
    let mut a = lab_app("hipcc-not-found", w, h);
    wait_for(&mut a, w, h, "learner@vega-ws:~$");
    a.handle(Input::Key(KeyEvent::from(KeyCode::F(2))));
    let s = text(&draw(&mut a, w, h));
    assert!(
        s.contains("Hint 1") && s.contains("The binaries exist"),
        "{s}"
    );
    assert!(!s.contains("Hint 2"), "{s}");
    a.handle(Input::Key(KeyEvent::from(KeyCode::Esc)));
    a.handle(Input::Key(KeyEvent::from(KeyCode::F(2))));
    let s = text(&draw(&mut a, w, h));
    assert!(s.contains("Hint 2"), "{s}");
}
