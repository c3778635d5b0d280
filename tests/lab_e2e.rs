//! Every lab in the real app, in a real terminal (tmux, the app as the pane's only process:
//! no job-control shell around it), at 80x24 and 200x60, in English and Japanese: a command's
//! output shows in the pane and the checklist reacts; the app stays its terminal's foreground
//! and no lab process joins its session; the learner's shell is the only foreground job of the
//! lab's own terminal; F4 opens and closes the briefing; F10 gives the keys back; closing the
//! terminal ends the app and every process of its sandbox, and the attempt is saved.

mod common;

use common::has;
#[path = "common/pane.rs"]
mod pane;

use std::time::{Duration, Instant};

use pane::{Pane, descendants, family, wait};
use rocm_learn::content::{self, ContentTree};
use rocm_learn::i18n::I18n;
use rocm_learn::lang::Lang;

/// A command per lab that completes one of its steps; every lab of the course needs one.
const REACT: &[(&str, &str)] = &[
    ("hipcc-not-found", "export PATH=$PATH:/opt/rocm/bin"),
    ("amdgpu-not-loaded", "sudo modprobe amdgpu"),
    ("hsa-init-failed", "sudo usermod -aG render,video learner"),
    (
        "kfd-udev-rules",
        "printf '%s\\n' 'KERNEL==\"kfd\", MODE=\"0666\"' | sudo tee /etc/udev/rules.d/70-amdgpu.rules",
    ),
    ("k8s-gpu-pod", "kubectl label node mi300x-node gpu=true"),
    (
        "fresh-node-install",
        "sudo apt install -y \"linux-headers-$(uname -r)\"",
    ),
    (
        "container-gpu",
        "sudo docker run --rm --device=/dev/kfd --device=/dev/dri --group-add $(getent group render | cut -d: -f3) rocm/rocm-terminal rocminfo",
    ),
    (
        "pytorch-on-rdna2",
        "echo 'export HIP_VISIBLE_DEVICES=1' >> ~/.bashrc",
    ),
    (
        "amdgpu-wont-load",
        "sudo rm -f /etc/modprobe.d/blacklist-amdgpu.conf; sudo sed -i 's/ nomodeset//' /etc/default/grub; sudo update-grub; sudo apt-get install -y linux-headers-$(uname -r)",
    ),
    (
        "two-rocm-releases",
        "sudo update-alternatives --set rocm /opt/rocm-6.2.2",
    ),
    ("fresh-node-rocm10", "sudo usermod -aG render,video learner"),
    (
        "legacy-to-rocm10",
        "sed -i 's/^rocm-smi .*/amd-smi static/' ~/gpu-report.sh",
    ),
    (
        "rocm-cli-runtime",
        "rocm install sdk --version 10.1.0 --family gfx942 --devel --yes",
    ),
];

/// What the test looks for on screen, in the app's language.
struct Words {
    step: String,
    /// The challenge way's label in the same place.
    goals: String,
    complete: String,
    focused: String,
    unfocused: String,
}

impl Words {
    fn new(lang: Lang) -> Words {
        let i = I18n::new(lang);
        let first = |s: String| s.split_whitespace().next().unwrap_or("").to_string();
        Words {
            step: first(i.ta("labui-step", &[("n", 1.into()), ("total", 1.into())])),
            goals: first(i.ta("labui-goals", &[("done", 0.into()), ("total", 1.into())])),
            complete: first(i.t("lab-complete")),
            focused: i.t("lab-terminal-focused"),
            unfocused: i.t("lab-terminal"),
        }
    }

    /// Steps ticked in the strip under the terminal: the marks just before "Step n of m:".
    fn ticked(&self, screen: &str, steps: usize) -> Option<usize> {
        screen.lines().find_map(|line| {
            let t: Vec<&str> = line.split_whitespace().collect();
            t.windows(2).find_map(|w| {
                let marks =
                    w[0].chars().count() == steps && w[0].chars().all(|c| c == '✓' || c == '•');
                let label = w[1] == self.step || w[1] == self.goals || w[1] == self.complete;
                (marks && label).then(|| w[0].chars().filter(|c| *c == '✓').count())
            })
        })
    }
}

/// One lab, start to close; returns how long the app and its sandbox took to go.
fn one(lab: &content::Lab, lang: Lang, w: u16, h: u16) -> Duration {
    let at = format!("{} {lang} {w}x{h}", lab.id);
    let words = Words::new(lang);
    let steps = lab.steps.len();
    let data = tempfile::tempdir().unwrap();
    let data_dir = data.path().to_str().unwrap();
    let lang_code = lang.code();
    let p = Pane::start(
        &[
            env!("CARGO_BIN_EXE_rocm-learn"),
            "--lang",
            lang_code,
            "lab",
            &lab.id,
        ],
        &[
            ("ROCM_LEARN_DATA_DIR", data_dir),
            ("TERM", "xterm-256color"),
            ("LANG", "C.UTF-8"),
        ],
        w,
        h,
    );
    let app = p.process();
    // A capture can catch a frame half written: wait for one with both.
    let first = p.wait_until(&format!("{at}: the prompt and the checklist strip"), |s| {
        s.contains(":~$") && words.ticked(s, steps).is_some()
    });
    let before = words.ticked(&first, steps).expect("just seen");
    let react = REACT
        .iter()
        .find(|(id, _)| *id == lab.id)
        .unwrap_or_else(|| panic!("{at}: add a command to REACT"))
        .1;
    p.type_text(&format!("{react}; echo e2e-$((6*7))"));
    p.keys(&["Enter"]);
    p.wait_until(&format!("{at}: output and a ticked step"), |s| {
        // The command's output on a line of its own (its echo shows "e2e-$((6*7))").
        let printed = s
            .lines()
            .any(|l| l.split('│').any(|c| c.trim() == "e2e-42"));
        printed && words.ticked(s, steps).is_some_and(|n| n > before)
    });

    // The app owns its terminal: session leader, foreground, nobody from the lab beside it.
    let me = app.stat().expect("the app runs");
    assert_eq!(me.comm, "rocm-learn", "{at}");
    assert_eq!(me.tty, p.tty_nr(), "{at}: the pane is the app's terminal");
    assert_eq!(
        me.tpgid, me.pgrp,
        "{at}: the app is its terminal's foreground"
    );
    assert_eq!(me.session, app.pid, "{at}");
    let kids = descendants(app.pid);
    assert!(!kids.is_empty(), "{at}: the sandbox runs");
    for (pid, k) in &kids {
        assert_ne!(
            k.session, me.session,
            "{at}: {pid} {} in the app's session",
            k.comm
        );
        assert_ne!(
            k.tty, me.tty,
            "{at}: {pid} {} on the app's terminal",
            k.comm
        );
    }
    // The learner's shell is the only foreground job of the lab's terminal.
    let (_, shell) = kids
        .iter()
        .find(|(_, k)| k.tty != 0 && k.tpgid > 0)
        .unwrap_or_else(|| panic!("{at}: no process on the lab's terminal: {kids:?}"));
    let fg: Vec<_> = kids.iter().filter(|(_, k)| k.pgrp == shell.tpgid).collect();
    assert_eq!(fg.len(), 1, "{at}: one foreground process: {fg:?}");
    assert_eq!(fg[0].1.comm, "bash", "{at}");
    assert_eq!(fg[0].0, shell.tpgid, "{at}: the shell leads its group");
    let all = family(app);

    // F4 puts the briefing over the terminal and takes it away again.
    p.keys(&["F4"]);
    p.wait_until(&format!("{at}: the briefing over the terminal"), |s| {
        !s.contains(&words.focused)
    });
    p.keys(&["F4"]);
    p.wait_for(&words.focused);
    p.keys(&["F10"]);
    p.wait_for(&words.unfocused);
    assert!(app.alive(), "{at}");

    let closed = Instant::now();
    p.close();
    wait(
        &format!("{at}: every process gone after the terminal closed"),
        || all.iter().all(|p| !p.alive()).then_some(()),
    );
    let took = closed.elapsed();
    let saved = std::fs::read_to_string(data.path().join("progress.json")).unwrap_or_default();
    assert!(
        saved.contains(&format!("\"{}\"", lab.id)),
        "{at}: attempt saved: {saved}"
    );
    took
}

#[test]
fn every_lab_in_the_real_app_at_80x24_and_200x60_in_english_and_japanese() {
    if !common::needs::tmux("lab end-to-end tests") || !common::needs::bwrap("lab end-to-end tests")
    {
        return;
    }
    let (course, _) = content::load(&ContentTree::embedded());
    let mut slowest = Duration::ZERO;
    for lab in &course.labs {
        for lang in [Lang::En, Lang::Ja] {
            for (w, h) in [(80, 24), (200, 60)] {
                slowest = slowest.max(one(lab, lang, w, h));
            }
        }
    }
    // Within a second when the machine is idle; the margin is for a loaded CI runner.
    assert!(
        slowest < Duration::from_secs(3),
        "the app and its sandbox took {slowest:?} to end after the terminal closed"
    );
    eprintln!("slowest end after closing the terminal: {slowest:?}");
}

#[test]
fn without_landlock_the_lab_screen_says_the_result_is_not_tamper_proof_at_80x24() {
    if !common::needs::tmux("lab end-to-end tests") || !common::needs::bwrap("lab end-to-end tests")
    {
        return;
    }
    for (lang, words) in [("ja", "改ざん防止"), ("en", "not tamper-proof")] {
        let data = tempfile::tempdir().unwrap();
        let p = Pane::start(
            &[
                env!("CARGO_BIN_EXE_rocm-learn"),
                "--lang",
                lang,
                "lab",
                "hsa-init-failed",
            ],
            &[
                ("ROCM_LEARN_DATA_DIR", data.path().to_str().unwrap()),
                ("ROCM_LEARN_LAB_NO_LANDLOCK", "1"),
                ("TERM", "xterm-256color"),
                ("LANG", "C.UTF-8"),
            ],
            80,
            24,
        );
        // The strip under the terminal carries the notice until a step's reason replaces it.
        let s = p.wait_until(&format!("{lang}: the notice on the strip"), |s| {
            s.contains(":~$")
                && s.replace(['│', '\n', ' '], "")
                    .contains(&words.replace(' ', ""))
        });
        has(&s, ":~$");
    }
}
