//! Spaced review end to end: a quiz with wrong answers and a lab left with unmet steps make
//! questions and lab steps due; months later the schedule has moved; a drill of a failed step
//! is graded by that step's check. In English, Japanese and Korean where text is shown.

mod common;

use common::{call, has, run};
use serde_json::Value;

const QUIZ: &str = "deploy-workflow";
const LAB: &str = "hsa-init-failed";

fn due(data: &std::path::Path, now: Option<&str>) -> Value {
    let env: Vec<(&str, &str)> = now.map(|n| ("ROCM_LEARN_NOW", n)).into_iter().collect();
    let out = run(&["review", "--json"], "", data, &env);
    assert_eq!(out.code, 0, "{}", out.stderr);
    serde_json::from_str(out.stdout.trim()).expect("one JSON document")
}

fn items<'a>(v: &'a Value, kind: &str) -> Vec<&'a str> {
    v["due"]
        .as_array()
        .expect("due list")
        .iter()
        .filter(|d| d["kind"] == kind)
        .map(|d| d["id"].as_str().expect("id"))
        .collect()
}

/// A quiz answered with "a" throughout: its wrong answers, by question id.
fn quiz_all_a(data: &std::path::Path) -> Vec<String> {
    let out = run(
        &["quiz", QUIZ, "--json", "--seed", "0"],
        &"a\n".repeat(20),
        data,
        &[],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    v["questions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|q| q["right"] == false)
        .map(|q| q["id"].as_str().unwrap().to_string())
        .collect()
}

fn lab_script(data: &std::path::Path, lines: &[&str]) -> common::Run {
    let script = data.join("script.sh");
    std::fs::write(&script, lines.join("\n") + "\n").unwrap();
    call(&["lab", LAB, "--script", script.to_str().unwrap()], data)
}

#[test]
fn missed_questions_are_due_now_and_right_ones_later() {
    let data = tempfile::tempdir().unwrap();
    let v = due(data.path(), None);
    assert_eq!(v["due"].as_array().map(Vec::len), Some(0));
    assert_eq!(v["next_due_at"], Value::Null);
    let wrong = quiz_all_a(data.path());
    assert!(!wrong.is_empty() && wrong.len() < 10, "{wrong:?}");
    let v = due(data.path(), None);
    let mut listed: Vec<&str> = items(&v, "question");
    listed.sort_unstable();
    let mut want: Vec<&str> = wrong.iter().map(String::as_str).collect();
    want.sort_unstable();
    assert_eq!(listed, want, "exactly the missed questions are due");
    assert!(
        v["due"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["item"] == "quiz:deploy-workflow")
    );
    // The right ones are scheduled, not due: the next due time is days away.
    let next = v["next_due_at"].as_str().expect("a next due time");
    // Three months on, every question is due and nothing waits further.
    let later = due(data.path(), Some("2099-01-01T00:00:00Z"));
    assert!(items(&later, "question").len() > listed.len());
    assert_eq!(later["next_due_at"], Value::Null, "after {next}");
}

#[test]
fn answering_in_review_moves_the_schedule() {
    let data = tempfile::tempdir().unwrap();
    let wrong = quiz_all_a(data.path());
    // Answering every due question with each letter in turn gets some right: those leave.
    let out = run(
        &["review", "--plain", "--seed", "1"],
        &"b\n".repeat(20),
        data.path(),
        &[],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    has(
        &out.stdout,
        &format!("Due for review: {} questions", wrong.len()),
    );
    has(&out.stdout, "Review done:");
    // Every option is explained, as in a quiz.
    has(&out.stdout, "The other options:");
    let right = out.stdout.matches("Correct: ").count();
    let after = due(data.path(), None);
    assert_eq!(items(&after, "question").len(), wrong.len() - right);
}

#[test]
fn a_lab_left_with_unmet_steps_makes_them_due_and_a_drill_grades_one() {
    if !common::needs::bwrap("review drill tests") {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    // The groups are fixed but the learner never logs in again: two steps stay unmet.
    let out = lab_script(data.path(), &["sudo usermod -aG render,video learner"]);
    assert_ne!(out.code, 0, "{}", out.stdout);
    let v = due(data.path(), None);
    let steps = items(&v, "lab-step");
    assert!(
        steps.contains(&"new-login") && steps.contains(&"rocminfo"),
        "{v}"
    );
    assert!(!steps.contains(&"groups"), "a met step is not due now: {v}");
    assert!(
        v["due"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["item"] == "lab:hsa-init-failed")
    );
    // Months later the met step is due too.
    let later = due(data.path(), Some("2099-01-01T00:00:00Z"));
    assert!(items(&later, "lab-step").contains(&"groups"));

    // The plain review names the drill of each missed step.
    let plain = run(&["review", "--plain"], "", data.path(), &[]);
    has(
        &plain.stdout,
        "rocm-learn review --drill lab:hsa-init-failed/new-login",
    );

    // A drill done wrong is graded unmet and stays due.
    let script = data.path().join("drill.sh");
    std::fs::write(&script, "id\n").unwrap();
    let drill = [
        "review",
        "--drill",
        "lab:hsa-init-failed/new-login",
        "--script",
    ];
    let mut args = drill.to_vec();
    args.extend([script.to_str().unwrap(), "--json"]);
    let out = call(&args, data.path());
    assert_eq!(out.code, 1, "{}", out.stderr);
    let r: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    assert_eq!(r["met"], false);
    assert!(items(&due(data.path(), None), "lab-step").contains(&"new-login"));

    // Done the right way, by the same check: met, and no longer due.
    std::fs::write(&script, "sudo usermod -aG render,video learner\nexit\n").unwrap();
    let out = call(&args, data.path());
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    let r: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    assert_eq!(r["met"], true);
    let steps_now = items(&due(data.path(), None), "lab-step").join(",");
    assert!(!steps_now.contains("new-login"), "{steps_now}");
}

#[test]
fn a_bad_clock_and_a_bad_drill_are_named_in_each_language() {
    let data = tempfile::tempdir().unwrap();
    for (lang, want) in [
        ("en", "ROCM_LEARN_NOW is not a time: \"next tuesday\""),
        (
            "ja",
            "ROCM_LEARN_NOW の値「next tuesday」は時刻として読めません",
        ),
        (
            "ko",
            "ROCM_LEARN_NOW 값 \"next tuesday\"은(는) 시각으로 읽을 수 없습니다",
        ),
    ] {
        let out = run(
            &["review", "--json", "--lang", lang],
            "",
            data.path(),
            &[("ROCM_LEARN_NOW", "next tuesday")],
        );
        assert_eq!(out.code, 2);
        has(&out.stderr, want);
    }
    let out = call(
        &[
            "review",
            "--drill",
            "lab:nope/x",
            "--script",
            "-",
            "--lang",
            "ja",
        ],
        data.path(),
    );
    assert_eq!(out.code, 2);
    has(&out.stderr, "演習のステップ「lab:nope/x」はありません");
    let out = run(&["review", "--plain", "--lang", "ko"], "", data.path(), &[]);
    has(&out.stdout, "아직 복습할 것이 없습니다");
}

#[test]
fn the_class_report_names_the_most_missed_items() {
    let data = tempfile::tempdir().unwrap();
    let wrong = quiz_all_a(data.path());
    let export = run(&["progress", "--json"], "", data.path(), &[]);
    assert_eq!(export.code, 0, "{}", export.stderr);
    let file = data.path().join("ada.json");
    std::fs::write(&file, &export.stdout).unwrap();
    let out = call(&["report", file.to_str().unwrap(), "--json"], data.path());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    let missed = v["most_missed"].as_array().expect("most_missed");
    let mut ids: Vec<&str> = missed.iter().map(|m| m["id"].as_str().unwrap()).collect();
    ids.sort_unstable();
    let mut want: Vec<&str> = wrong.iter().map(String::as_str).collect();
    want.sort_unstable();
    assert_eq!(ids, want);
    assert!(
        missed
            .iter()
            .all(|m| m["learners"] == 1 && m["misses"] == 1 && m["due"] == 1)
    );
    for (lang, heading) in [
        ("en", "Missed most, as spaced review counts them"),
        ("ja", "よくまちがえられたところ(間隔をあけた復習の集計)"),
        ("ko", "자주 틀린 곳(간격을 둔 복습 집계)"),
    ] {
        let text = call(
            &["report", file.to_str().unwrap(), "--lang", lang],
            data.path(),
        );
        has(&text.stdout, heading);
        has(&text.stdout, &format!("quiz:deploy-workflow/{}", wrong[0]));
    }
}
