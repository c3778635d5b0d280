//! Classroom use: a pack in Korean only, exporting progress, and the class report.

mod common;

use std::collections::BTreeMap;

use rocm_learn::export::{self, Answer, Export, Item, Status};
use rocm_learn::progress::ItemKind;

const PACK_KO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pack-ko");

#[test]
fn a_pack_with_only_korean_content_loads_and_runs_in_every_language() {
    let data = tempfile::tempdir().unwrap();
    let check = common::run(&["check", "--content", PACK_KO], "", data.path(), &[]);
    assert_eq!(check.code, 0, "warnings only: {}", check.stdout);
    assert!(
        check.stdout.contains("has no English text"),
        "{}",
        check.stdout
    );
    let ko = common::run(
        &[
            "--content",
            PACK_KO,
            "--lang",
            "ko",
            "quiz",
            "gpu-check-quiz",
            "--seed",
            "0",
        ],
        "1\n",
        data.path(),
        &[],
    );
    assert!(
        ko.stdout.contains("정답: 1) lspci -d 1002:"),
        "{}",
        ko.stdout
    );
    assert!(
        !ko.stdout.contains("[ko]"),
        "nothing to mark in Korean: {}",
        ko.stdout
    );
    // Other languages see the Korean text, marked as such.
    let en = common::run(
        &[
            "--content",
            PACK_KO,
            "--lang",
            "en",
            "quiz",
            "gpu-check-quiz",
            "--seed",
            "0",
        ],
        "a\n",
        data.path(),
        &[],
    );
    assert!(
        en.stdout.contains("Correct: 1) [ko] lspci -d 1002:"),
        "{}",
        en.stdout
    );
    let lesson = common::run(
        &["--content", PACK_KO, "--lang", "ja", "lesson", "gpu-check"],
        "",
        data.path(),
        &[],
    );
    assert!(
        lesson.stdout.contains("ko の原文を表示しています"),
        "{}",
        lesson.stdout
    );
    assert!(
        lesson.stdout.contains("우리 연구실 GPU 서버 점검하기"),
        "{}",
        lesson.stdout
    );
}

#[test]
fn exported_progress_round_trips_and_quizzes_in_plain_mode_count() {
    let data = tempfile::tempdir().unwrap();
    // A quiz taken in plain mode, one answer wrong.
    common::run_pack(
        &["quiz", "deploy-workflow", "--seed", "0"],
        "1\nb\n3\nb\n2\n",
        data.path(),
        &[],
    );
    let out = common::run_pack(
        &["progress", "--json"],
        "",
        data.path(),
        &[("ROCM_LEARN_LEARNER", "yuna")],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let e = export::parse(&out.stdout).expect("our own export reads back");
    assert_eq!(e.learner, "yuna");
    let quiz = e
        .items
        .iter()
        .find(|i| i.item == "deploy-workflow")
        .unwrap();
    assert_eq!(
        (quiz.status, quiz.score, quiz.total),
        (Status::Done, Some(4), Some(5))
    );
    let wrong = quiz
        .answers
        .iter()
        .find(|a| a.question == "gatekeeper")
        .unwrap();
    assert_eq!(
        (wrong.chosen, wrong.right, wrong.wrong_choices.get(&1)),
        (1, false, Some(&1))
    );
    // Serialising what was read gives the same document back.
    let again: Export = serde_json::from_str(&serde_json::to_string(&e).unwrap()).unwrap();
    assert_eq!(again, e);

    let csv = common::run_pack(
        &["progress", "--csv", "--learner", "Yuna Kim"],
        "",
        data.path(),
        &[],
    );
    let lines: Vec<&str> = csv.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "learner,item,kind,status,score,total,attempts,time_spent_secs,finished_at"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Yuna Kim,deploy-workflow,quiz,done,4,5,1,")),
        "{}",
        csv.stdout
    );
    // The name given with --learner is remembered.
    let later = common::run_pack(&["progress", "--json"], "", data.path(), &[]);
    assert!(
        later.stdout.contains("\"learner\": \"Yuna Kim\""),
        "{}",
        later.stdout
    );
}

/// A learner's export: the quiz answers given and the labs tried, over the real course.
fn learner(name: &str, gatekeeper: Option<usize>, hsa_steps: Option<&[&str]>) -> Export {
    let mut items = vec![Item {
        item: "what-is-rocm".into(),
        kind: ItemKind::Lesson,
        status: Status::Done,
        score: None,
        total: None,
        attempts: 0,
        time_spent_secs: 60,
        finished_at: Some("2026-11-20T10:00:00Z".into()),
        answers: vec![],
        steps_done: vec![],
        hints_used: 0,
    }];
    let mut answers = vec![Answer {
        question: "repo-bootstrap".into(),
        chosen: 2,
        right: true,
        wrong_count: 0,
        wrong_choices: BTreeMap::new(),
    }];
    if let Some(c) = gatekeeper {
        let right = c == 2;
        answers.push(Answer {
            question: "gatekeeper".into(),
            chosen: c,
            right,
            wrong_count: (!right) as u32,
            wrong_choices: if right {
                BTreeMap::new()
            } else {
                BTreeMap::from([(c, 1)])
            },
        });
    }
    let score = answers.iter().filter(|a| a.right).count();
    items.push(Item {
        item: "deploy-workflow".into(),
        kind: ItemKind::Quiz,
        status: Status::Started,
        score: Some(score),
        total: Some(8),
        attempts: 1,
        time_spent_secs: 100,
        finished_at: None,
        answers,
        steps_done: vec![],
        hints_used: 0,
    });
    if let Some(steps) = hsa_steps {
        let done = steps.len() == 3;
        items.push(Item {
            item: "hsa-init-failed".into(),
            kind: ItemKind::Lab,
            status: if done { Status::Done } else { Status::Started },
            score: Some(steps.len()),
            total: Some(3),
            attempts: 1,
            time_spent_secs: 300,
            finished_at: None,
            answers: vec![],
            steps_done: steps.iter().map(|s| s.to_string()).collect(),
            hints_used: 1,
        });
    }
    Export {
        format: export::FORMAT.into(),
        version: export::VERSION,
        learner: name.into(),
        exported_at: "2026-11-21T09:00:00Z".into(),
        items,
    }
}

#[test]
fn the_class_report_shows_who_did_what_the_hardest_question_and_where_labs_stall() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    // Twelve learners: seven miss the gatekeeper question, five of them choosing option 1.
    let answers = [1, 1, 1, 1, 1, 3, 4, 2, 2, 2, 2, 2];
    for (i, a) in answers.iter().enumerate() {
        let steps: Option<&[&str]> = match i {
            0..=2 => Some(&["groups"]),
            3 => Some(&["groups", "new-login", "rocminfo"]),
            _ => None,
        };
        let e = learner(&format!("student{i:02}"), Some(*a), steps);
        let path = dir.path().join(format!("student{i:02}.json"));
        std::fs::write(&path, serde_json::to_string_pretty(&e).unwrap()).unwrap();
        files.push(path);
    }
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{ \"format\": \"rocm-learn-progress\", ").unwrap();
    let foreign = dir.path().join("notes.json");
    std::fs::write(&foreign, "{\"hello\": 1}").unwrap();
    files.push(broken.clone());
    files.push(foreign.clone());

    let data = tempfile::tempdir().unwrap();
    let mut args = vec!["report".to_string()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = common::run(&args, "", data.path(), &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let s = &out.stdout;
    assert!(
        s.starts_with("Class report: 12 learners (2 skipped)"),
        "{s}"
    );
    assert!(
        out.stderr
            .contains("broken.json: not a rocm-learn progress export"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("notes.json: not a rocm-learn progress export"),
        "{}",
        out.stderr
    );
    // The table: student03 read a lesson, got 1 of the quiz's 8 right and solved the lab.
    let row = s.lines().find(|l| l.starts_with("student03")).unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(&cells[1..], ["1/9", "0/9", "1/8", "1/6"], "{row}");
    // The hardest question first, with the wrong answer most chosen.
    let hard = s.split("Hardest questions").nth(1).unwrap();
    let first = hard.lines().nth(1).unwrap();
    assert!(
        first.contains("deploy-workflow/gatekeeper")
            && first.contains("wrong for 7 of 12 learners"),
        "{hard}"
    );
    assert!(
        hard.contains("most chose 1) The HIP runtime API (5×)"),
        "{hard}"
    );
    // Three learners stopped at the lab's second step.
    let stuck = s.split("Where learners got stuck in labs").nth(1).unwrap();
    assert!(
        stuck.contains("hsa-init-failed/new-login  3 learners stuck here"),
        "{stuck}"
    );

    let csv = common::run(
        &[&["report", "--csv"][..], &args[1..]].concat(),
        "",
        data.path(),
        &[],
    );
    let lines: Vec<&str> = csv.stdout.lines().collect();
    assert_eq!(lines.len(), 13, "a header and a row per learner");
    assert!(
        lines[0]
            .starts_with("learner,lessons_done,quizzes_done,right,asked,labs_done,deploy-workflow"),
        "{}",
        lines[0]
    );
}

#[test]
fn a_report_of_nothing_readable_says_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("x.json");
    std::fs::write(&f, "[]").unwrap();
    let out = common::run(&["report", f.to_str().unwrap()], "", dir.path(), &[]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("rocm-learn progress --json"),
        "{}",
        out.stderr
    );
}

#[test]
fn an_id_shared_by_a_lesson_and_a_quiz_must_be_qualified_to_reset() {
    let data = tempfile::tempdir().unwrap();
    // Read the history lesson and take its quiz (one answer is enough to leave a record).
    common::run(&["lesson", "history"], "", data.path(), &[]);
    common::run(&["quiz", "quiz:history"], "1\n", data.path(), &[]);
    let bare = common::run(
        &["progress", "reset", "history", "--yes"],
        "",
        data.path(),
        &[],
    );
    assert_eq!(bare.code, 2, "{}", bare.stderr);
    assert!(
        bare.stderr.contains("lesson:history") && bare.stderr.contains("quiz:history"),
        "{}",
        bare.stderr
    );
    let quiz = common::run(
        &["progress", "reset", "quiz:history", "--yes"],
        "",
        data.path(),
        &[],
    );
    assert_eq!(quiz.code, 0, "{}", quiz.stderr);
    let e =
        export::parse(&common::run(&["progress", "--json"], "", data.path(), &[]).stdout).unwrap();
    let status = |kind: ItemKind| {
        e.items
            .iter()
            .find(|i| i.item == "history" && i.kind == kind)
            .unwrap()
            .status
    };
    assert_eq!(status(ItemKind::Quiz), Status::NotStarted);
    assert_eq!(status(ItemKind::Lesson), Status::Done, "the lesson is kept");
}

#[test]
fn the_progress_table_lines_up_in_japanese_with_a_kind_column() {
    let data = tempfile::tempdir().unwrap();
    common::run_pack(&["quiz", "deploy-workflow"], "1\n", data.path(), &[]);
    let out = common::run_pack(&["--lang", "ja", "progress"], "", data.path(), &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let rows: Vec<&str> = out
        .stdout
        .lines()
        .skip(2)
        .filter(|l| !l.is_empty())
        .collect();
    assert!(
        rows[0].contains("種類") && rows[0].contains("状態"),
        "{}",
        out.stdout
    );
    assert!(rows.iter().any(|r| r.contains("クイズ")), "{}", out.stdout);
    // The status column starts at the same screen column on every row.
    let status_col = |row: &str| {
        let at = ["状態", "未着手", "途中", "完了"]
            .iter()
            .filter_map(|w| row.find(w))
            .min()
            .unwrap_or_else(|| panic!("no status in {row:?}"));
        rocm_learn::tui::wrap::str_width(&row[..at])
    };
    let first = status_col(rows[0]);
    for r in &rows {
        assert_eq!(status_col(r), first, "{}", out.stdout);
    }
    // The quiz taken shows its score; the id appears once per row.
    let quiz = rows.iter().find(|r| r.contains("deploy-workflow")).unwrap();
    assert!(quiz.contains("/5"), "{quiz}");
    assert_eq!(quiz.matches("deploy-workflow").count(), 1, "{quiz}");
}

#[test]
fn help_puts_each_argument_and_option_on_its_own_line_and_lists_reset() {
    let data = tempfile::tempdir().unwrap();
    let report = common::run(&["report", "--help"], "", data.path(), &[]);
    assert_eq!(report.code, 0);
    for line in report.stdout.lines() {
        assert!(
            !(line.contains("<FILE>") && line.contains("--csv")),
            "{}",
            report.stdout
        );
    }
    assert!(
        report.stdout.contains("Arguments:\n  <FILE>..."),
        "{}",
        report.stdout
    );
    let progress = common::run(&["progress", "--help"], "", data.path(), &[]);
    assert!(
        progress.stdout.contains("\n  reset "),
        "{}",
        progress.stdout
    );
    assert!(
        progress.stdout.contains("last picked in the app"),
        "--lang names the remembered choice: {}",
        progress.stdout
    );
}

#[test]
fn an_unknown_lab_is_named_even_without_a_terminal() {
    let data = tempfile::tempdir().unwrap();
    let out = common::run(&["lab", "nope"], "", data.path(), &[]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("There is no lab \"nope\""),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("terminal"), "{}", out.stderr);
}

#[test]
fn a_reader_that_closes_early_is_not_a_crash() {
    let data = tempfile::tempdir().unwrap();
    // A pipe whose reading end is already closed: every write fails with "Broken pipe".
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_rocm-learn"))
        .args([
            "--content",
            common::PACK,
            "quiz",
            "deploy-workflow",
            "--json",
        ])
        .env("ROCM_LEARN_DATA_DIR", data.path())
        .stdin(std::process::Stdio::null())
        .stdout(writer)
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
}
