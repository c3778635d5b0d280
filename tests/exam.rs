//! `exam ID --plain --json --seed N`: seeded questions, no explanation until the end, the
//! score against the pass mark and the time limit, recorded in the learner's log.

mod common;

use common::{has, lacks, run};
use serde_json::Value;

fn exam(args: &[&str], stdin: &str, data: &std::path::Path) -> (common::Run, Value) {
    let mut all = vec!["exam", "rocm-deploy", "--plain"];
    all.extend_from_slice(args);
    let out = run(&all, stdin, data, &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v = if args.contains(&"--json") {
        serde_json::from_str(out.stdout.trim()).expect("one JSON document")
    } else {
        Value::Null
    };
    (out, v)
}

#[test]
fn a_seeded_exam_gives_score_total_pass_and_the_time_limit() {
    let data = tempfile::tempdir().unwrap();
    let (out, v) = exam(&["--seed", "7", "--json"], &"a\n".repeat(10), data.path());
    assert_eq!(v["exam"], "rocm-deploy");
    assert_eq!(v["total"], 10);
    assert_eq!(v["time_limit_secs"], 900);
    assert_eq!(v["pass_percent"], 70);
    let score = v["score"].as_u64().unwrap();
    let right = v["questions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|q| q["right"] == true)
        .count();
    assert_eq!(score as usize, right);
    assert_eq!(v["passed"], score >= 7);
    assert!(v["time_used_secs"].as_u64().unwrap() <= 900);
    // The same seed asks the same questions; another seed others.
    let (_, again) = exam(&["--seed", "7", "--json"], "", data.path());
    let ids = |v: &Value| -> Vec<String> {
        v["questions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|q| format!("{}:{}", q["quiz"], q["id"]))
            .collect()
    };
    assert_eq!(ids(&v), ids(&again));
    assert_eq!(again["score"], 0, "nothing answered is nothing right");
    let (_, other) = exam(&["--seed", "8", "--json"], "", data.path());
    assert_ne!(ids(&v), ids(&other));
    // The questions are on stderr with the clock; explanations come only after the last one.
    let q10 = out.stderr.find("Question 10 of 10").expect("ten questions");
    let first_expl = out
        .stderr
        .find("Every question, explained:")
        .expect("explained");
    assert!(first_expl > q10);
    lacks(&out.stderr[..first_expl], "The other options:");
    has(&out.stderr, "15 minutes, pass mark 70%");
    // The result is in the learner's log.
    let log = std::fs::read_to_string(find_log(data.path())).unwrap();
    has(&log, "\"type\":\"exam\"");
    has(&log, "\"time_limit_secs\":900");
    // And in the learner's progress, in each language.
    for (lang, want) in [
        (
            "en",
            "Exam rocm-deploy: not passed, 0 of 10 right, in 0:00 of 15:00",
        ),
        (
            "ja",
            "試験 rocm-deploy: 不合格、10 問中 0 問正解、所要時間 0:00 / 15:00",
        ),
        (
            "ko",
            "시험 rocm-deploy: 불합격, 10문제 중 0문제 정답, 걸린 시간 0:00 / 15:00",
        ),
    ] {
        let p = run(&["progress", "--lang", lang], "", data.path(), &[]);
        has(&p.stdout, want);
    }
}

fn find_log(dir: &std::path::Path) -> std::path::PathBuf {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            let found = find_log(&p);
            if found.exists() {
                return found;
            }
        } else if p.file_name().is_some_and(|n| n == "events.jsonl") {
            return p;
        }
    }
    dir.join("none")
}

#[test]
fn the_exam_speaks_each_language() {
    let data = tempfile::tempdir().unwrap();
    for (lang, want) in [
        ("en", "Exam: Deploying ROCm."),
        ("ja", "試験: ROCm のデプロイ。"),
        ("ko", "시험: ROCm 배포."),
    ] {
        let (out, _) = exam(&["--seed", "1", "--lang", lang], "", data.path());
        has(&out.stdout, want);
    }
    let out = run(&["exam", "nope", "--plain"], "", data.path(), &[]);
    assert_eq!(out.code, 2);
    has(&out.stderr, "rocm-deploy");
}

#[test]
fn a_broken_exam_in_a_pack_is_named_by_file_and_line() {
    let data = tempfile::tempdir().unwrap();
    let pack = data.path().join("pack");
    std::fs::create_dir_all(pack.join("exams")).unwrap();
    for entry in ["pack.toml", "quizzes", "lessons", "assets"] {
        let from = std::path::Path::new(common::PACK).join(entry);
        copy(&from, &pack.join(entry));
    }
    std::fs::write(
        pack.join("exams/bad.toml"),
        "id = \"bad\"\ntitle = { en = \"B\", ja = \"B\", ko = \"B\" }\nfrom = [\"nope\"]\nquestions = 0\ntime_limit_minutes = 15\n",
    )
    .unwrap();
    let out = common::call(
        &["check", "--no-labs", "--content", pack.to_str().unwrap()],
        data.path(),
    );
    assert_eq!(out.code, 1, "{}", out.stdout);
    let all = format!("{}{}", out.stdout, out.stderr);
    has(
        &all,
        "exams/bad.toml:1:1: error: the exam has no pass_percent",
    );
    has(
        &all,
        "exams/bad.toml:3:9: error: no quiz has the id \"nope\"",
    );
    has(
        &all,
        "exams/bad.toml:4:13: error: questions must be between 1 and 200.",
    );
}

fn copy(from: &std::path::Path, to: &std::path::Path) {
    if from.is_dir() {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap().flatten() {
            copy(&e.path(), &to.join(e.file_name()));
        }
    } else {
        std::fs::copy(from, to).unwrap();
    }
}
