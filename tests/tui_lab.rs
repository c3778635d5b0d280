//! The lab screen with a real shell in the sandbox: typing goes to the shell (Ctrl-C too), the
//! checklist follows the machine's state, leaving records progress.

#[path = "common/needs.rs"]
mod needs;
#[path = "common/tui.rs"]
mod tui;

use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use rocm_learn::lang::Lang;
use rocm_learn::tui::{App, Input};
use tui::{draw, screen, send, text, type_line};

/// The app on the real course with `lab` open at `w`x`h`, in English with box drawing.
fn lab_app(lab: &str, w: u16, h: u16) -> App {
    tui::lab_app(Lang::En, false, lab, w, h)
}

fn lab_app_in(lang: Lang, lab: &str, w: u16, h: u16) -> App {
    tui::lab_app(lang, false, lab, w, h)
}

/// `lab_app` once its shell shows the first prompt; None (the test skips) without bubblewrap.
fn lab_at_prompt(lab: &str, w: u16, h: u16) -> Option<App> {
    if !needs::bwrap("lab screen tests") {
        return None;
    }
    let mut a = lab_app(lab, w, h);
    wait_for(&mut a, w, h, "learner@vega-ws:~$");
    Some(a)
}

/// Lets the shell work and redraws until the screen shows `want`.
fn wait_for(a: &mut App, w: u16, h: u16, want: &str) -> String {
    wait_until(a, w, h, want, |s| s.contains(want))
}

/// Lets the shell work and redraws until `ok` holds for the screen (`what` names it).
fn wait_until(a: &mut App, w: u16, h: u16, what: &str, ok: impl Fn(&str) -> bool) -> String {
    tui::redraw_until(a, w, h, Duration::from_secs(10), ok)
        .unwrap_or_else(|s| panic!("never showed {what:?}:\n{s}"))
}

fn key(a: &mut App, code: KeyCode) {
    a.handle(Input::Key(KeyEvent::from(code)));
}

/// The hipcc lab after `export PATH=/opt/rocm/bin`: the strip shows the step and a reason
/// long enough to need its scroll sign at 80x24.
fn hipcc_after_a_wrong_try(lang: Lang, w: u16, h: u16) -> App {
    let mut a = lab_app_in(lang, "hipcc-not-found", w, h);
    wait_for(&mut a, w, h, "learner@vega-ws:~$");
    let idle: String = rocm_learn::i18n::I18n::new(lang)
        .t("labui-not-yet")
        .chars()
        .take(6)
        .collect();
    type_line(&mut a, "export PATH=/opt/rocm/bin");
    wait_until(&mut a, w, h, "the reason for the wrong PATH", |s| {
        s.matches("learner@vega-ws:~$").count() == 2 && !s.contains(&idle)
    });
    a
}

#[test]
fn a_lab_runs_a_real_shell_and_ticks_off_steps_as_the_state_changes() {
    let (w, h) = (130, 36);
    let Some(mut a) = lab_at_prompt("hsa-init-failed", w, h) else {
        return;
    };
    assert_eq!(a.screen_id(), "lab");
    // A diagnosis lab starts as a challenge; this one is taken the guided way.
    key(&mut a, KeyCode::F(7));
    wait_for(&mut a, w, h, "Guided: the checklist names each step");
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
    let (w, h) = (100, 30);
    let Some(mut a) = lab_at_prompt("hipcc-not-found", w, h) else {
        return;
    };
    // The line is printed by the foreground program itself: Ctrl-C cannot arrive before the
    // shell has handed it the terminal (a race the echo of the typed line alone left open).
    type_line(&mut a, "sh -c 'echo sleep-started; exec sleep 30'");
    wait_until(&mut a, w, h, "the program in the foreground", |s| {
        s.lines().any(|l| l.contains("│sleep-started"))
    });
    a.handle(Input::Key(KeyEvent::new(
        KeyCode::Char('c'),
        KeyModifiers::CONTROL,
    )));
    assert!(!a.quit, "Ctrl-C is the shell's while it has focus");
    // The shell is back at its prompt long before sleep would have ended.
    wait_until(&mut a, w, h, "^C and a new prompt", |s| {
        s.contains("^C") && s.matches("learner@vega-ws:~$").count() == 2
    });
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
    let (w, h) = (60, 20);
    let Some(mut a) = lab_at_prompt("hipcc-not-found", w, h) else {
        return;
    };
    a.handle(Input::Key(KeyEvent::from(KeyCode::F(2))));
    let s = screen(&mut a, w, h);
    assert!(
        s.contains("Hint 1") && s.contains("The binaries exist"),
        "{s}"
    );
    assert!(!s.contains("Hint 2"), "{s}");
    a.handle(Input::Key(KeyEvent::from(KeyCode::Esc)));
    a.handle(Input::Key(KeyEvent::from(KeyCode::F(2))));
    let s = screen(&mut a, w, h);
    assert!(s.contains("Hint 2"), "{s}");
    // Each hint is in the record as it is revealed, not only when the session ends.
    assert_eq!(a.world.progress.labs["hipcc-not-found"].hints_used, 2);
}

#[test]
fn the_lab_screen_in_every_language_at_60x20_80x24_100x30_and_200x60() {
    if !needs::bwrap("lab screen snapshots") {
        return;
    }
    for lang in Lang::ALL {
        for (w, h) in [(60, 20), (80, 24), (100, 30), (200, 60)] {
            let mut a = hipcc_after_a_wrong_try(lang, w, h);
            let buf = draw(&mut a, w, h);
            tui::assert_rows_fit(&buf);
            insta::assert_snapshot!(format!("lab-{lang}-{w}x{h}"), text(&buf));
            key(&mut a, KeyCode::F(4));
            let buf = draw(&mut a, w, h);
            tui::assert_rows_fit(&buf);
            insta::assert_snapshot!(format!("lab-briefing-{lang}-{w}x{h}"), text(&buf));
        }
    }
}

#[test]
fn at_80x24_the_step_and_its_reason_sit_under_the_terminal_with_a_scroll_sign() {
    if !needs::bwrap("lab screen tests") {
        return;
    }
    let (w, h) = (80, 24);
    let mut a = hipcc_after_a_wrong_try(Lang::En, w, h);
    let s = screen(&mut a, w, h);
    let rows: Vec<&str> = s.lines().collect();
    assert!(rows[20].contains("Step 1 of 2:"), "{s}");
    assert!(rows[21].contains("PATH no longer contains"), "{s}");
    assert!(rows[22].ends_with('▼'), "more of the reason below:\n{s}");
    // The footer offers only keys that reach the app while the shell has them.
    assert!(rows[23].contains("F4 briefing"), "{s}");
    assert!(
        !rows[23].contains("? help") && !rows[23].contains("L language"),
        "{s}"
    );
    // Leaving the terminal, the arrows scroll the reason to its end.
    key(&mut a, KeyCode::F(10));
    key(&mut a, KeyCode::Down);
    let s = screen(&mut a, w, h);
    let rows: Vec<&str> = s.lines().collect();
    assert!(rows[21].ends_with('▲'), "{s}");
    assert!(rows[22].contains("PATH=$PATH:/opt/rocm/bin"), "{s}");
    assert!(!rows[22].ends_with('▼'), "{s}");
    assert!(
        rows[23].starts_with("Enter type in the terminal"),
        "the app has the keys again: {s}"
    );
}

#[test]
fn f4_opens_the_briefing_and_checklist_over_the_terminal_and_closes_it() {
    let (w, h) = (80, 24);
    let Some(mut a) = lab_at_prompt("hipcc-not-found", w, h) else {
        return;
    };
    key(&mut a, KeyCode::F(4));
    let s = screen(&mut a, w, h);
    assert!(s.contains("Briefing and checklist"), "{s}");
    assert!(s.contains("ROCm 6.2.2 was installed"), "{s}");
    assert!(s.contains("• A new login finds hipcc too"), "{s}");
    // Keys scroll the panel instead of reaching the shell.
    send(&mut a, "jq");
    let s = screen(&mut a, w, h);
    assert!(!s.contains("Briefing and checklist"), "q closed it: {s}");
    assert!(s.contains("Terminal (F10 or Ctrl-] to leave)"), "{s}");
    assert!(!s.contains("~$ j"), "nothing was typed into the shell: {s}");
    key(&mut a, KeyCode::F(4));
    key(&mut a, KeyCode::F(4));
    let s = screen(&mut a, w, h);
    assert!(
        !s.contains("Briefing and checklist"),
        "F4 closes it too: {s}"
    );
}

#[test]
fn f3_asks_before_showing_the_solution() {
    let (w, h) = (80, 24);
    let Some(mut a) = lab_at_prompt("hipcc-not-found", w, h) else {
        return;
    };
    key(&mut a, KeyCode::F(3));
    let s = screen(&mut a, w, h);
    assert!(s.contains("Show the solution?"), "{s}");
    insta::assert_snapshot!("lab-solution-ask-en-80x24", s);
    send(&mut a, "n");
    let s = screen(&mut a, w, h);
    assert!(!s.contains("Solution"), "no means no: {s}");
    key(&mut a, KeyCode::F(3));
    send(&mut a, "y");
    let s = screen(&mut a, w, h);
    assert!(s.contains("Solution"), "{s}");
    assert!(s.contains("export PATH=$PATH:/opt/rocm/bin"), "{s}");
    // Recorded for the class report.
    assert!(
        a.world.progress.labs["hipcc-not-found"].how.solution_viewed,
        "{:?}",
        a.world.progress.labs
    );
}

#[test]
fn when_a_step_is_met_the_strip_gives_the_next_ones_reason_at_once() {
    let (w, h) = (80, 24);
    let Some(mut a) = lab_at_prompt("hipcc-not-found", w, h) else {
        return;
    };
    type_line(&mut a, "export PATH=$PATH:/opt/rocm/bin");
    // The first step is met by that command; the second's reason replaces "not done yet".
    let s = wait_for(&mut a, w, h, "A new login would not find hipcc");
    assert!(!s.contains("Not done yet"), "{s}");
}

#[test]
fn f3_after_finishing_shows_the_solution_without_counting_it() {
    let (w, h) = (80, 24);
    let Some(mut a) = lab_at_prompt("hipcc-not-found", w, h) else {
        return;
    };
    type_line(&mut a, "export PATH=$PATH:/opt/rocm/bin");
    type_line(
        &mut a,
        "echo 'export PATH=$PATH:/opt/rocm/bin' >> ~/.bashrc",
    );
    wait_for(&mut a, w, h, "Lab complete");
    key(&mut a, KeyCode::F(3));
    let s = screen(&mut a, w, h);
    assert!(
        !s.contains("Show the solution?"),
        "solved: no question: {s}"
    );
    assert!(s.contains("Solution"), "{s}");
    assert!(
        !a.world.progress.labs["hipcc-not-found"].how.solution_viewed,
        "{:?}",
        a.world.progress.labs
    );
}

#[test]
fn below_60x20_one_line_asks_for_a_bigger_window() {
    if !needs::bwrap("lab screen tests") {
        return;
    }
    let mut a = lab_app("hipcc-not-found", 80, 24);
    for (w, h) in [(59, 24), (80, 19)] {
        let s = screen(&mut a, w, h);
        assert!(
            s.contains("This lab needs a window of at least 60x20"),
            "{w}x{h}:\n{s}"
        );
        assert!(!s.contains("Terminal"), "{w}x{h}:\n{s}");
    }
}

#[test]
fn the_shell_gets_the_new_size_when_the_window_changes() {
    let Some(mut a) = lab_at_prompt("hipcc-not-found", 80, 24) else {
        return;
    };
    a.handle(Input::Resize(120, 40));
    type_line(&mut a, "stty size");
    // 120x40 is wide: the briefing takes 48 columns, the borders 2 more; the title bar, the
    // footer, the borders and the 3-line strip leave 33 rows.
    wait_for(&mut a, 120, 40, "33 70");
}

#[test]
fn after_l_the_next_relogin_banner_is_in_the_new_language() {
    let (w, h) = (80, 24);
    let Some(mut a) = lab_at_prompt("hipcc-not-found", w, h) else {
        return;
    };
    key(&mut a, KeyCode::F(10));
    send(&mut a, "L");
    assert_eq!(a.world.i18n.lang(), Lang::Ja);
    key(&mut a, KeyCode::Enter);
    type_line(&mut a, "exit");
    // The banner, then the new login's prompt under it, and the checklist's report on that
    // login (its reason and F5 on the strip), which can come a moment after the prompt.
    let s = wait_until(
        &mut a,
        w,
        h,
        "the banner in Japanese, a new prompt and its report",
        |s| {
            s.contains("F5 ")
                && s.split("ログアウトしました")
                    .nth(1)
                    .is_some_and(|after| after.contains(":~$"))
        },
    );
    insta::assert_snapshot!("lab-relogin-after-l-ja-80x24", s);
}

#[test]
fn f1_in_the_terminal_lists_only_keys_that_reach_the_app() {
    let (w, h) = (80, 24);
    let Some(mut a) = lab_at_prompt("hipcc-not-found", w, h) else {
        return;
    };
    key(&mut a, KeyCode::F(1));
    let s = screen(&mut a, w, h);
    assert!(
        s.contains("F10") && s.contains("F4") && s.contains("briefing"),
        "{s}"
    );
    // Ctrl-C, q, Esc, ? and L are the shell's while it has the keys.
    for k in ["Ctrl-C", "q/Esc", "?/F1", "L "] {
        assert!(!s.contains(k), "{k} listed:\n{s}");
    }
    // With the keys back in the app, its own keys are listed again.
    key(&mut a, KeyCode::Esc);
    key(&mut a, KeyCode::F(10));
    key(&mut a, KeyCode::F(1));
    let s = screen(&mut a, w, h);
    assert!(s.contains("Ctrl-C") && s.contains("q/Esc"), "{s}");
    // "back" is one key row, not a lab row and a shared row saying the same.
    assert_eq!(s.matches(" back").count(), 1, "{s}");
}

#[test]
fn in_ascii_mode_the_strip_borders_and_footer_are_ascii() {
    if !needs::bwrap("lab screen tests") {
        return;
    }
    let (w, h) = (60, 20);
    let mut a = tui::lab_app(Lang::En, true, "hipcc-not-found", w, h);
    wait_for(&mut a, w, h, "learner@vega-ws:~$");
    type_line(&mut a, "export PATH=/opt/rocm/bin");
    let s = wait_for(&mut a, w, h, "PATH no longer contains");
    let rows: Vec<&str> = s.lines().collect();
    // The terminal's borders, the strip (cut title, marks, scroll sign) and the footer.
    for y in [1, 15, 16, 17, 18, 19] {
        assert!(rows[y].is_ascii(), "row {y}: {:?}\n{s}", rows[y]);
    }
    assert!(rows[16].starts_with(" ** Step 1 of 2:"), "{s}");
    assert!(rows[16].ends_with("..."), "{s}");
    assert!(rows[18].ends_with('v'), "{s}");
}

#[test]
fn a_startup_file_that_ends_every_login_stops_the_logins_and_says_so_on_the_strip() {
    // 80x24: the strip under the terminal is the only place the reason can be.
    let (w, h) = (80, 24);
    let Some(mut a) = lab_at_prompt("hipcc-not-found", w, h) else {
        return;
    };
    type_line(
        &mut a,
        "echo exit | sudo tee /etc/profile.d/zz-leave.sh; exit",
    );
    let s = wait_for(&mut a, w, h, "Every new login ends as soon as it starts");
    assert!(
        s.contains('▼'),
        "the rest of the reason (F5) is a scroll away:\n{s}"
    );
    // F5 (reset, confirmed) gives a working login again.
    key(&mut a, KeyCode::F(5));
    wait_for(&mut a, w, h, "Start this lab over");
    key(&mut a, KeyCode::Char('y'));
    let s = wait_until(&mut a, w, h, "a fresh prompt", |s| {
        s.contains("learner@vega-ws:~$") && !s.contains("Every new login ends")
    });
    assert!(!s.contains("zz-leave"), "a fresh machine:\n{s}");
}

/// The first prompt of `lab` in `lang`; None (the test skips) without bubblewrap.
fn at_prompt_in(lang: Lang, lab: &str, w: u16, h: u16) -> Option<App> {
    if !needs::bwrap("lab screen tests") {
        return None;
    }
    let mut a = lab_app_in(lang, lab, w, h);
    wait_for(&mut a, w, h, "learner@vega-ws:~$");
    Some(a)
}

/// A diagnosis lab taken the challenge way at 80x24: the checklist names goals, not fixes,
/// each once it is met; hints are counted; the finished lab says what it taught and F6 opens
/// the next item of the course. The way is recorded.
fn challenge_way(lang: Lang) {
    let (w, h) = (80, 24);
    let Some(mut a) = at_prompt_in(lang, "hsa-init-failed", w, h) else {
        return;
    };
    let i = rocm_learn::i18n::I18n::new(lang);
    let goals0 = i.ta("labui-goals", &[("done", 0.into()), ("total", 3.into())]);
    let s = wait_for(&mut a, w, h, &goals0);
    // The fix is nowhere on screen: neither in the strip nor in the checklist.
    let fix = "/etc/group";
    assert!(!s.contains(fix), "{s}");
    key(&mut a, KeyCode::F(10));
    key(&mut a, KeyCode::F(4));
    let hidden = i.ta("labui-goals-hidden", &[("n", 3.into())]);
    let hidden: String = hidden.chars().take(8).collect();
    let s = wait_for(&mut a, w, h, &hidden);
    assert!(
        !s.contains(fix),
        "the challenge checklist hands out no fix:\n{s}"
    );
    key(&mut a, KeyCode::F(2));
    let used = i.ta("labui-hints-used", &[("n", 1.into())]);
    wait_for(&mut a, w, h, &used);
    key(&mut a, KeyCode::Esc);
    key(&mut a, KeyCode::Enter);
    type_line(&mut a, "sudo usermod -aG render,video learner");
    let goals1 = i.ta("labui-goals", &[("done", 1.into()), ("total", 3.into())]);
    let s = wait_for(&mut a, w, h, &goals1);
    // The goal met uncovers the next one's reason (the login's old groups): the challenge
    // strip keeps that insight to be found.
    let insight: String = i
        .msg(
            &rocm_learn::content::Msg::new("lab-why-session-old")
                .arg("user", "learner")
                .arg("groups", "render, video")
                .arg("first", "render"),
        )
        .chars()
        .take(20)
        .collect();
    assert!(!s.contains(&insight), "{s}");
    type_line(&mut a, "exit");
    let learned = i.ta("labui-learned", &[("text", "".into())]);
    let s = wait_for(&mut a, w, h, learned.trim());
    assert!(s.contains("F6"), "the next item is offered:\n{s}");
    let rec = &a.world.progress.labs["hsa-init-failed"];
    assert_eq!(rec.how.way, Some(rocm_learn::content::LabWay::Challenge));
    assert!(rec.completed_at.is_some());
    // The hint counts once: as it was revealed, not again with the solve.
    assert_eq!(rec.hints_used, 1);
    // The permissions lesson's next item is its second lab, on udev rules.
    key(&mut a, KeyCode::F(6));
    let s = wait_for(&mut a, w, h, "udev");
    assert!(
        !s.contains("hsa_init() failed"),
        "F6 opened the next item:\n{s}"
    );
}

#[test]
fn the_challenge_way_names_goals_and_points_on_en() {
    challenge_way(Lang::En);
}

#[test]
fn the_challenge_way_names_goals_and_points_on_ja() {
    challenge_way(Lang::Ja);
}

/// The same lab switched to the guided way before the first command: the strip gives the
/// current step's reason once something was tried, and F4 gives every unmet step's reason
/// (script mode's words). After the first command the way stays.
fn guided_way(lang: Lang) {
    let (w, h) = (80, 24);
    let Some(mut a) = at_prompt_in(lang, "hsa-init-failed", w, h) else {
        return;
    };
    let i = rocm_learn::i18n::I18n::new(lang);
    key(&mut a, KeyCode::F(7));
    let step = i.ta("labui-step", &[("n", 1.into()), ("total", 3.into())]);
    wait_for(&mut a, w, h, &step);
    type_line(&mut a, "id");
    // The reason script mode gives for the groups step, in the strip.
    let reason = i.msg(
        &rocm_learn::content::Msg::new("lab-why-groups-missing")
            .arg("user", "learner")
            .arg("groups", "render, video")
            .arg("csv", "render,video"),
    );
    let head: String = reason.chars().take(14).collect();
    wait_for(&mut a, w, h, &head);
    // F7 no longer switches: the footer stops offering it.
    key(&mut a, KeyCode::F(7));
    let s = wait_for(&mut a, w, h, &step);
    assert!(!s.contains(&i.t("labui-key-way")), "{s}");
    assert_eq!(
        a.world.progress.labs["hsa-init-failed"].how.way,
        Some(rocm_learn::content::LabWay::Guided)
    );
    // Every unmet step has its reason in the checklist.
    key(&mut a, KeyCode::F(10));
    key(&mut a, KeyCode::F(4));
    let kfd: String = i
        .msg(
            &rocm_learn::content::Msg::new("lab-why-kfd-denied")
                .arg("owner", "root")
                .arg("group", "render")
                .arg("mode", "0660"),
        )
        .chars()
        .take(10)
        .collect();
    for _ in 0..12 {
        let s = screen(&mut a, w, h);
        if s.contains(&kfd) {
            return;
        }
        key(&mut a, KeyCode::PageDown);
    }
    panic!("the checklist never showed the rocminfo step's reason {kfd:?}");
}

#[test]
fn the_guided_way_gives_every_reason_en() {
    guided_way(Lang::En);
}

#[test]
fn the_guided_way_gives_every_reason_ja() {
    guided_way(Lang::Ja);
}
