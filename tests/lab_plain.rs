//! `rocm-learn lab ID --plain`: the lab's shell line by line for screen readers. Commands come
//! on standard input; the output carries no terminal controls, and each step met is announced
//! on a line of its own in the learner's language.

mod common;

use common::{has, has_all, lacks};

/// The solution of hsa-init-failed, typed as a learner would, with the typed commands between.
const SESSION: &str =
    ":steps\n:hint\nsudo usermod -aG render,video learner\n:nonsense\nexit\nrocminfo\n";

fn plain(lang: &str, input: &str) -> common::Run {
    let data = tempfile::tempdir().unwrap();
    common::run(
        &["lab", "hsa-init-failed", "--plain", "--lang", lang],
        input,
        data.path(),
        &[],
    )
}

/// No escape sequence and no other control but newlines and tabs.
fn no_controls(text: &str) {
    let bad: Vec<char> = text
        .chars()
        .filter(|c| c.is_control() && !matches!(c, '\n' | '\t'))
        .collect();
    assert!(bad.is_empty(), "controls {bad:?} in:\n{text}");
}

#[test]
fn the_lab_solved_line_by_line_announces_each_step_in_english() {
    if !common::needs::bwrap("plain lab tests") {
        return;
    }
    let r = plain("en", SESSION);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    no_controls(&r.stdout);
    no_controls(&r.stderr);
    let s = &r.stdout;
    has_all(
        s,
        &[
            "Lab: hsa_init() failed: who may open /dev/kfd?",
            "[to do] /etc/group lists learner in render and video",
            "Hint 1 for \"/etc/group lists learner",
            "Unknown command :nonsense.",
            "Step done: /etc/group lists learner in render and video (and keeps adm and sudo)",
            "Step done: Your login has the render group",
            "Step done: rocminfo can open /dev/kfd from your login",
            "Lab complete: 3 of 3 steps done.",
        ],
    );
    // Each announcement is a line of its own, in the order the steps were met.
    let done: Vec<&str> = s.lines().filter(|l| l.starts_with("Step done: ")).collect();
    assert_eq!(done.len(), 3, "{s}");
    assert!(
        done[0].contains("/etc/group") && done[2].contains("rocminfo"),
        "{done:?}"
    );
    // What the shell printed is there as text: rocminfo's agent list after the fix.
    has(s, "HSA Agents");
}

#[test]
fn a_step_undone_is_announced_and_fails_the_run_in_japanese_and_korean_too() {
    if !common::needs::bwrap("plain lab tests") {
        return;
    }
    // A step met and then undone is announced both ways.
    let ja = plain(
        "ja",
        "sudo usermod -aG render,video learner\nsudo gpasswd -d learner render\n",
    );
    assert_eq!(ja.code, 1, "{}\n{}", ja.stdout, ja.stderr);
    no_controls(&ja.stdout);
    has(
        &ja.stdout,
        "ステップ達成: /etc/group で learner が render と video に入っている(adm と sudo も残っている)",
    );
    has(
        &ja.stdout,
        "ステップが未達成に戻りました: /etc/group で learner が render と video に入っている",
    );
    lacks(&ja.stdout, "ステップ達成: あなたのログイン");
    let ko = plain("ko", SESSION);
    assert_eq!(ko.code, 0, "{}\n{}", ko.stdout, ko.stderr);
    no_controls(&ko.stdout);
    has_all(
        &ko.stdout,
        &[
            "단계 달성: 여러분의 로그인에 render 그룹이 있다",
            "단계 달성: 여러분의 로그인에서 rocminfo가 /dev/kfd를 열 수 있다",
            ":nonsense 명령은 없습니다.",
        ],
    );
}

#[test]
fn without_a_terminal_the_lab_is_plain_and_quit_ends_it_with_progress_and_hints_kept() {
    if !common::needs::bwrap("plain lab tests") {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    // No --plain: stdin is a pipe, so there is no terminal to draw on.
    let r = common::run(
        &["lab", "hsa-init-failed", "--lang", "en"],
        "sudo usermod -aG render,video learner\n:hint\n:quit\necho never typed\n",
        data.path(),
        &[],
    );
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    no_controls(&r.stdout);
    has_all(
        &r.stdout,
        &[
            "Step done: /etc/group lists learner",
            // The hint is for the first step not done.
            "Hint 1 for \"Your login has the render group\"",
        ],
    );
    lacks(&r.stdout, "never typed");
    let p = common::run(&["progress", "--json"], "", data.path(), &[]);
    let v: serde_json::Value = serde_json::from_str(&p.stdout).expect("json");
    let lab = v["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["item"] == "hsa-init-failed")
        .expect("the lab");
    assert_eq!(lab["steps_done"], serde_json::json!(["groups"]), "{lab}");
    assert_eq!(lab["hints_used"], 1, "{lab}");
}
