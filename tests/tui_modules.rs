//! The labs of the four onboarding modules in the full-screen app: each opens at 80x24 in
//! English, Japanese and Korean, is solved by typing into its shell, and is recorded as solved.

#[path = "common/needs.rs"]
mod needs;
#[path = "common/tui.rs"]
mod tui;

use std::time::{Duration, Instant};

use rocm_learn::lang::Lang;
use rocm_learn::tui::{App, Input};
use tui::{draw, text, type_line};

const W: u16 = 80;
const H: u16 = 24;

/// Opens `lab` in the app, types each line into its shell, and returns whether the lab was
/// recorded as solved within the time limit, with the last screen.
fn solve_by_typing(lang: Lang, lab: &str, lines: &[&str]) -> (bool, String) {
    let mut a = tui::lab_app(lang, false, lab, W, H);
    assert_eq!(a.screen_id(), "lab", "{lab} opens");
    let prompt = |s: &str| s.contains(":~$");
    let mut screen = settle(&mut a, |s| prompt(s));
    for line in lines {
        type_line(&mut a, line);
        let before = screen.matches(":~$").count();
        screen = settle(&mut a, |s| s.matches(":~$").count() > before || !prompt(s));
    }
    let solved = |a: &App| {
        a.world
            .progress
            .labs
            .get(lab)
            .is_some_and(|l| l.completed_at.is_some())
    };
    let start = Instant::now();
    while !solved(&a) && start.elapsed() < Duration::from_secs(15) {
        a.handle(Input::Wake);
        screen = text(&draw(&mut a, W, H));
        // Polling the app while the lab re-checks; the condition above ends the wait.
        std::thread::sleep(Duration::from_millis(50));
    }
    (solved(&a), screen)
}

/// Redraws until `ok` holds for the screen or ten seconds pass; returns the screen (the
/// caller's assert on the result shows it).
fn settle(a: &mut App, ok: impl Fn(&str) -> bool) -> String {
    tui::redraw_until(a, W, H, Duration::from_secs(10), ok).unwrap_or_else(|last| last)
}

#[test]
fn the_module_labs_are_solved_by_typing_at_80x24_in_every_language() {
    if !needs::bwrap("lab screen tests") {
        return;
    }
    let labs: [(&str, &[&str]); 4] = [
        (
            "container-gpu",
            &[
                "sudo docker run --rm --device=/dev/kfd --device=/dev/dri --group-add 992 rocm/rocm-terminal rocminfo | tail -3",
            ],
        ),
        (
            "pytorch-on-rdna2",
            &["echo 'export HIP_VISIBLE_DEVICES=1 HSA_OVERRIDE_GFX_VERSION=10.3.0' >> ~/.bashrc"],
        ),
        (
            "amdgpu-wont-load",
            &[
                "sudo rm -f /etc/modprobe.d/blacklist-amdgpu.conf",
                "sudo sed -i 's/ nomodeset//' /etc/default/grub",
                "sudo update-grub",
                "sudo apt-get install -y linux-headers-$(uname -r)",
            ],
        ),
        (
            "two-rocm-releases",
            &[
                "sudo update-alternatives --set rocm /opt/rocm-6.2.2",
                "sed -i '/rocm-6.3.2/d' ~/.bashrc",
                // The briefing asks for proof from a new login.
                "exit",
                "hipcc --version",
            ],
        ),
    ];
    for lang in [Lang::En, Lang::Ja, Lang::Ko] {
        for (lab, lines) in labs {
            let (solved, screen) = solve_by_typing(lang, lab, lines);
            assert!(solved, "{lab} in {lang:?} was not solved:\n{screen}");
        }
    }
}
