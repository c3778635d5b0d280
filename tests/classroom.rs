//! Classroom use: a pack in Korean only, exporting progress, and the class report.

mod common;

use std::collections::BTreeMap;

use common::{has, lacks};
use rocm_learn::export::{self, Answer, Export, Item, Status};
use rocm_learn::progress::{HowTaken, ItemKind};

const PACK_KO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pack-ko");
const CLASS_PACK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/class-pack");
const DANA_PACK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/dana-pack");

/// `check` of `pack`'s files and machines, without proving its labs in the sandbox.
fn check_files(pack: &str, data: &std::path::Path) -> common::Run {
    common::call(&["check", "--content", pack, "--no-labs"], data)
}

#[test]
fn a_pack_with_only_korean_content_loads_and_runs_in_every_language() {
    let data = tempfile::tempdir().unwrap();
    let check = common::call(&["check", "--content", PACK_KO], data.path());
    // The pack promises Korean only: no warning about the English it never had.
    assert_eq!(check.code, 0, "{}", check.stdout);
    has(&check.stdout, "no warnings");
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
    has(&ko.stdout, "정답: 1) lspci -d 1002:");
    // Nothing to mark in Korean.
    lacks(&ko.stdout, "[ko]");
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
    has(&en.stdout, "Correct: 1) [ko] lspci -d 1002:");
    let lesson = common::call(
        &["--content", PACK_KO, "--lang", "ja", "lesson", "gpu-check"],
        data.path(),
    );
    has(&lesson.stdout, "ko の原文を表示しています");
    has(&lesson.stdout, "우리 연구실 GPU 서버 점검하기");
}

#[test]
fn exported_progress_round_trips_and_quizzes_in_plain_mode_count() {
    let data = tempfile::tempdir().unwrap();
    // A quiz taken in plain mode, one answer wrong, by a learner named in the environment.
    let yuna = [("ROCM_LEARN_LEARNER", "yuna")];
    common::run_pack(
        &["quiz", "deploy-workflow", "--seed", "0"],
        "1\nb\n3\nb\n2\n",
        data.path(),
        &yuna,
    );
    let out = common::run_pack(&["progress", "--json"], "", data.path(), &yuna);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let e = export::parse(&out.stdout).expect("our own export reads back");
    assert_eq!(e.learner, "yuna");
    assert_eq!(e.pack.label(), "test-pack@1.0");
    assert!(!e.machine.is_empty());
    assert!(
        data.path()
            .join("learners/yuna/packs/test-pack/progress.json")
            .is_file(),
        "each learner and pack has a folder of its own"
    );
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

    let csv = common::run_pack(&["progress", "--csv"], "", data.path(), &yuna);
    let lines: Vec<&str> = csv.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "learner,item,kind,status,score,total,attempts,time_spent_secs,finished_at"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("yuna,deploy-workflow,quiz,done,4,5,1,")),
        "{}",
        csv.stdout
    );
    // The name given with --learner is remembered.
    common::run_pack(&["progress", "--learner", "Yuna Kim"], "", data.path(), &[]);
    let later = common::run_pack(&["progress", "--json"], "", data.path(), &[]);
    has(&later.stdout, "\"learner\": \"Yuna Kim\"");
}

/// A learner's export: the quiz answers given and the labs tried, over the real course.
/// Questions in the built-in deploy-workflow quiz (the course grows; the report counts them).
fn deploy_workflow_questions() -> usize {
    let course = rocm_learn::content::load(&rocm_learn::content::ContentTree::embedded()).0;
    course
        .quiz("deploy-workflow")
        .map_or(0, |q| q.questions.len())
}

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
        first_score: None,
        best_score: None,
        how: HowTaken::default(),
        step: None,
        changed: false,
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
        total: Some(deploy_workflow_questions()),
        attempts: 1,
        time_spent_secs: 100,
        finished_at: None,
        answers,
        steps_done: vec![],
        hints_used: 0,
        first_score: Some(score),
        best_score: Some(score),
        how: HowTaken::default(),
        step: None,
        changed: false,
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
            steps_done: steps.iter().map(ToString::to_string).collect(),
            hints_used: 1,
            first_score: None,
            best_score: None,
            how: HowTaken::default(),
            step: None,
            changed: false,
        });
    }
    Export {
        format: export::FORMAT.into(),
        version: export::VERSION,
        pack: export::PackStamp::default(),
        learner: name.into(),
        machine: "lab-pc".into(),
        login: String::new(),
        exported_at: "2026-11-21T09:00:00Z".into(),
        items,
        events: vec![],
        signature: None,
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
    let out = common::call(&args, data.path());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let s = &out.stdout;
    assert!(
        s.starts_with("Class report: 12 learners (2 skipped)"),
        "{s}"
    );
    has(&out.stderr, "broken.json: not a rocm-learn progress export");
    has(&out.stderr, "notes.json: not a rocm-learn progress export");
    // The table: student03 read a lesson, got 1 of the quiz's questions right and solved the lab.
    let row = s.lines().find(|l| l.starts_with("student03")).unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    let course = rocm_learn::content::load(&rocm_learn::content::ContentTree::embedded()).0;
    let (lessons, quizzes, labs) = (
        course.lessons.len(),
        course.quizzes.len(),
        course.labs.len(),
    );
    assert_eq!(
        &cells[1..],
        [
            format!("1/{lessons}"),
            format!("0/{quizzes}"),
            format!("1/{}", deploy_workflow_questions()),
            format!("1/{labs}")
        ],
        "{row}"
    );
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
    has(stuck, "hsa-init-failed/new-login  3 learners stuck here");
    has(stuck, "who: student00, student01, student02");

    let csv = common::run(
        &[&["report", "--csv"][..], &args[1..]].concat(),
        "",
        data.path(),
        &[],
    );
    let lines: Vec<&str> = csv.stdout.lines().collect();
    assert_eq!(lines.len(), 13, "a header and a row per learner");
    assert!(
        lines[0].starts_with("learner,machines,flags,lesson:what-is-rocm status,")
            && lines[0].contains(",quiz:deploy-workflow best,")
            && lines[0].contains(",lab:hsa-init-failed step,"),
        "{}",
        lines[0]
    );
}

#[test]
fn a_report_of_nothing_readable_says_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("x.json");
    std::fs::write(&f, "[]").unwrap();
    let out = common::call(&["report", f.to_str().unwrap()], dir.path());
    assert_eq!(out.code, 1);
    has(&out.stderr, "rocm-learn progress --json");
}

#[test]
fn an_id_shared_by_a_lesson_and_a_quiz_must_be_qualified_to_reset() {
    let data = tempfile::tempdir().unwrap();
    // Read the history lesson and take its quiz (one answer is enough to leave a record).
    common::call(&["lesson", "history"], data.path());
    common::run(
        &["quiz", "quiz:history", "--seed", "0"],
        "1\n",
        data.path(),
        &[],
    );
    let bare = common::call(&["progress", "reset", "history", "--yes"], data.path());
    assert_eq!(bare.code, 2, "{}", bare.stderr);
    has(&bare.stderr, "lesson:history");
    has(&bare.stderr, "quiz:history");
    let quiz = common::call(&["progress", "reset", "quiz:history", "--yes"], data.path());
    assert_eq!(quiz.code, 0, "{}", quiz.stderr);
    let e = export::parse(&common::call(&["progress", "--json"], data.path()).stdout).unwrap();
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
    common::run_pack(
        &["quiz", "deploy-workflow", "--seed", "0"],
        "1\n",
        data.path(),
        &[],
    );
    let out = common::run_pack(&["--lang", "ja", "progress"], "", data.path(), &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    // The table's rows are indented (the review and exam lines after it are not).
    let rows: Vec<&str> = out
        .stdout
        .lines()
        .skip(2)
        .filter(|l| l.starts_with("  "))
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
    has(quiz, "/5");
    assert_eq!(quiz.matches("deploy-workflow").count(), 1, "{quiz}");
}

#[test]
fn help_puts_each_argument_and_option_on_its_own_line_and_lists_reset() {
    let data = tempfile::tempdir().unwrap();
    let report = common::call(&["report", "--help"], data.path());
    assert_eq!(report.code, 0);
    for line in report.stdout.lines() {
        assert!(
            !(line.contains("<FILE>") && line.contains("--csv")),
            "{}",
            report.stdout
        );
    }
    // FILE is optional: `report --lrs` reads the learning record store instead.
    has(&report.stdout, "Arguments:\n  [FILE]...");
    let progress = common::call(&["progress", "--help"], data.path());
    has(&progress.stdout, "\n  reset ");
    assert!(
        progress.stdout.contains("last picked in the app"),
        "--lang names the remembered choice: {}",
        progress.stdout
    );
}

#[test]
fn an_unknown_lab_is_named_even_without_a_terminal() {
    let data = tempfile::tempdir().unwrap();
    let out = common::call(&["lab", "nope"], data.path());
    assert_eq!(out.code, 2);
    has(&out.stderr, "There is no lab \"nope\"");
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

/// Reads one export the submit folder holds for `learner`.
fn submitted(dir: &std::path::Path, learner: &str) -> Export {
    let file = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(&format!("{learner}--"))
        })
        .unwrap_or_else(|| panic!("no export of {learner} in the submit folder"));
    export::parse(&std::fs::read_to_string(file).unwrap()).unwrap()
}

#[test]
fn a_pack_extending_the_builtin_course_links_it_and_keeps_its_own_progress() {
    let data = tempfile::tempdir().unwrap();
    let check = common::call(&["check", "--content", CLASS_PACK], data.path());
    // Links to built-in lessons and labs resolve; the missing Korean was never promised.
    assert_eq!(check.code, 0, "{}", check.stdout);
    has(&check.stdout, "No errors, no warnings");
    // ROCM_LEARN_CONTENT selects the pack like --content; a built-in lesson opens from it.
    let env = [("ROCM_LEARN_CONTENT", CLASS_PACK)];
    let lesson = common::run(&["lesson", "permissions"], "", data.path(), &env);
    assert_eq!(lesson.code, 0, "{}", lesson.stderr);
    let quiz = common::run(
        &["quiz", "permissions", "--seed", "0"],
        "1\n1\n",
        data.path(),
        &env,
    );
    has(&quiz.stdout, "2 of 2");
    // The pack's `permissions` quiz is not the built-in one of the same id.
    let builtin =
        export::parse(&common::call(&["progress", "--json"], data.path()).stdout).unwrap();
    let q = |e: &Export| {
        e.items
            .iter()
            .find(|i| i.item == "permissions" && i.kind == ItemKind::Quiz)
            .unwrap()
            .status
    };
    assert_eq!(q(&builtin), Status::NotStarted);
    assert_eq!(builtin.pack.id, "builtin");
    let pack =
        export::parse(&common::run(&["progress", "--json"], "", data.path(), &env).stdout).unwrap();
    assert_eq!(q(&pack), Status::Done);
    assert_eq!(pack.pack.label(), "node-day@1");
}

#[test]
fn suggested_commands_name_the_pack_given_with_content() {
    let data = tempfile::tempdir().unwrap();
    let f = data.path().join("x.json");
    std::fs::write(&f, "[]").unwrap();
    let out = common::call(
        &["--content", CLASS_PACK, "report", f.to_str().unwrap()],
        data.path(),
    );
    has(
        &out.stderr,
        &format!("rocm-learn --content {CLASS_PACK} progress --json"),
    );
}

#[test]
fn a_class_report_merges_a_learners_exports_and_sets_another_courses_aside() {
    let data = tempfile::tempdir().unwrap();
    let submit = tempfile::tempdir().unwrap();
    let as_learner = |name: &'static str| {
        [
            ("ROCM_LEARN_LEARNER", name),
            ("ROCM_LEARN_SUBMIT_DIR", submit.path().to_str().unwrap()),
        ]
    };
    let take = |name: &'static str, answers: &str| {
        common::run(
            &[
                "--content",
                CLASS_PACK,
                "quiz",
                "permissions",
                "--seed",
                "0",
            ],
            answers,
            data.path(),
            &as_learner(name),
        )
    };
    // Ana gets one of two right, then retries the wrong one; Ben gets both wrong.
    take("ana", "1\n2\n");
    common::run(
        &[
            "--content",
            CLASS_PACK,
            "quiz",
            "permissions",
            "--retry-wrong",
            "--seed",
            "0",
        ],
        "1\n",
        data.path(),
        &as_learner("ana"),
    );
    take("ben", "2\n2\n");
    // A finished quiz wrote each learner's export, stamped with the pack.
    let ana = submitted(submit.path(), "ana");
    assert_eq!(ana.pack.label(), "node-day@1");
    let quiz = ana
        .items
        .iter()
        .find(|i| i.item == "permissions" && i.kind == ItemKind::Quiz)
        .unwrap();
    assert_eq!((quiz.first_score, quiz.best_score), (Some(1), Some(2)));
    // An older export of Ana, and Carl's export of the built-in course.
    let mut old = ana.clone();
    old.exported_at = "2020-01-01T00:00:00Z".into();
    old.items.retain(|i| i.kind != ItemKind::Quiz);
    std::fs::write(
        submit.path().join("ana-old.json"),
        serde_json::to_string(&old).unwrap(),
    )
    .unwrap();
    let carl = common::run(
        &["progress", "--json"],
        "",
        data.path(),
        &as_learner("carl"),
    );
    std::fs::write(submit.path().join("carl.json"), &carl.stdout).unwrap();

    let dir = submit.path().to_str().unwrap();
    let report = common::call(&["--content", CLASS_PACK, "report", dir], data.path());
    assert_eq!(report.code, 0, "{}", report.stderr);
    let s = &report.stdout;
    assert!(s.starts_with("Class report: 2 learners"), "{s}");
    // The "older export" was edited after ana's install signed it: flagged, not taken.
    has(s, "ana-old.json was changed after it was signed");
    assert!(
        s.contains("Not included: carl exported another course (builtin@"),
        "{s}"
    );
    has(s, "quiz:permissions  done, first 1/2, best 2/2");
    // The same report from standard input: one export at a time.
    let ben = serde_json::to_string(&submitted(submit.path(), "ben")).unwrap();
    let piped = common::run(
        &["--content", CLASS_PACK, "report", "-"],
        &ben,
        data.path(),
        &[],
    );
    assert!(
        piped.stdout.starts_with("Class report: 1 learner"),
        "{}",
        piped.stdout
    );
    has(&piped.stdout, "first 0/2, best 0/2");
    // The gradebook has a column per quiz and per lab.
    let csv = common::call(
        &["--content", CLASS_PACK, "report", "--csv", dir],
        data.path(),
    );
    // The gradebook has the pack's own items and the built-in lab its lesson lists, each
    // with the --json fields; not the 25 built-in items the pack does not name.
    let head = csv.stdout.lines().next().unwrap();
    for col in [
        "quiz:permissions status",
        "quiz:permissions first",
        "quiz:permissions best",
        "lab:hsa-init-failed tamper_proof",
        "lesson:node-day seconds",
    ] {
        assert!(head.contains(col), "{col}: {head}");
    }
    assert!(!head.contains("quiz:deploy-workflow"), "{head}");
    assert!(!head.contains("lesson:what-is-rocm"), "{head}");
    let ana_row = csv.stdout.lines().find(|l| l.starts_with("ana,")).unwrap();
    assert!(ana_row.contains(",done,,1,2,2,"), "{ana_row}");
}

#[test]
fn a_submit_folder_written_by_many_learners_at_once_holds_every_export_whole() {
    let data = tempfile::tempdir().unwrap();
    let submit = tempfile::tempdir().unwrap();
    let names: Vec<String> = (0..8).map(|i| format!("learner{i}")).collect();
    let children: Vec<_> = names
        .iter()
        .map(|name| {
            let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_rocm-learn"));
            c.args([
                "--content",
                CLASS_PACK,
                "quiz",
                "permissions",
                "--seed",
                "0",
            ])
            .env("LANG", "C")
            .env_remove("ROCM_LEARN_LANG")
            .env("ROCM_LEARN_DATA_DIR", data.path())
            .env("ROCM_LEARN_SUBMIT_DIR", submit.path())
            .env("ROCM_LEARN_LEARNER", name)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
            let mut child = c.spawn().unwrap();
            use std::io::Write;
            child.stdin.take().unwrap().write_all(b"1\n1\n").unwrap();
            child
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let files: Vec<_> = std::fs::read_dir(submit.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        files.len(),
        names.len(),
        "no temporary files left: {files:?}"
    );
    for name in &names {
        assert_eq!(submitted(submit.path(), name).learner, *name);
    }
    let report = common::call(
        &[
            "--content",
            CLASS_PACK,
            "report",
            submit.path().to_str().unwrap(),
        ],
        data.path(),
    );
    assert!(
        report.stdout.starts_with("Class report: 8 learners"),
        "{}",
        report.stdout
    );
}

#[test]
fn a_progress_folder_of_another_login_is_refused_not_merged() {
    let data = tempfile::tempdir().unwrap();
    common::run(
        &["lesson", "what-is-rocm"],
        "",
        data.path(),
        &[("USER", "alice")],
    );
    let bob = common::run(&["progress"], "", data.path(), &[("USER", "bob")]);
    assert_eq!(bob.code, 1);
    assert!(
        bob.stderr.contains("belongs to the login \"alice\"")
            && bob.stderr.contains("ROCM_LEARN_LEARNER"),
        "{}",
        bob.stderr
    );
    // With a learner name, Bob gets a folder of his own.
    let own = common::run(
        &["progress"],
        "",
        data.path(),
        &[("USER", "bob"), ("ROCM_LEARN_LEARNER", "bob")],
    );
    assert_eq!(own.code, 0, "{}", own.stderr);
}

#[test]
fn check_refuses_a_lab_whose_machine_cannot_be_built_naming_the_place() {
    let data = tempfile::tempdir().unwrap();
    let out = check_files(&common::fixture("broken-lab-pack"), data.path());
    assert_eq!(out.code, 1, "{}", out.stdout);
    for expected in [
        "lab-bad-preset.toml:6:11: error: the lab's machine cannot be built: machine spec: unknown preset \"mi300x\"",
        "lab-bad-key.toml:7:1: error: the lab's machine cannot be built: machine spec: unknown field `gpus`",
        "lab-bad-group.toml:12:11: error: step \"groups\" names the group \"rendr\"",
        "lab-bad-disk.toml:6:1: error: the lab's machine cannot be built: machine spec: `disk_mib` must be between 64 and 4096 (MiB), not 9000",
    ] {
        assert!(out.stdout.contains(expected), "{expected}\n{}", out.stdout);
    }
}

#[test]
fn check_runs_a_packs_solutions_and_scripts_in_the_sandbox() {
    if !common::needs::bwrap("proving a pack's labs") {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let pack = &common::fixture("unsolved-lab-pack");
    let quick = check_files(pack, data.path());
    assert_eq!(
        quick.code, 0,
        "files and machine are fine: {}",
        quick.stdout
    );
    // A misspelt lab folder and a script named neither ok- nor bad- would be skipped unseen.
    let copy = tempfile::tempdir().unwrap();
    copy_tree(std::path::Path::new(pack), copy.path());
    std::fs::create_dir(copy.path().join("tests/unsolvd")).unwrap();
    std::fs::write(copy.path().join("tests/unsolvd/ok-a.sh"), "true\n").unwrap();
    std::fs::write(copy.path().join("tests/unsolved/good-a.sh"), "true\n").unwrap();
    let pack = copy.path().to_str().unwrap();
    let out = common::call(&["check", "--content", pack], data.path());
    assert_eq!(out.code, 1, "{}\n{}", out.stdout, out.stderr);
    has(&out.stdout, "lab unsolved: 3 test scripts ran");
    has(&out.stdout, "warning: tests/unsolvd/ is not checked");
    has(
        &out.stdout,
        "warning: tests/unsolved/good-a.sh is not checked",
    );
    let failures: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.contains(": lab unsolved: ") && !l.contains("test script"))
        .collect();
    assert_eq!(failures.len(), 2, "{}", out.stdout);
    // Each failure names the file and line to look at.
    let lab_toml = format!("{pack}/lessons/01-unsolved/lab-unsolved.toml:");
    assert!(
        failures[0].starts_with(&lab_toml)
            && failures[0].contains(": lab unsolved: solution: step \"new-login\" is not done: "),
        "{}",
        failures[0]
    );
    assert!(
        failures[1].starts_with(&format!("{pack}/tests/unsolved/bad-claims-too-much.sh:1: "))
            && failures[1].contains("lab unsolved: bad-claims-too-much.sh: every step passed"),
        "{}",
        failures[1]
    );
    // "No errors" only when there are none: the summary counts the lab failures.
    assert!(!out.stdout.contains("No errors"), "{}", out.stdout);
    has(&out.stdout, "2 errors, 2 warnings");
}

#[test]
fn a_pack_handed_out_as_a_tarball_runs_like_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("class.tar.gz");
    {
        let gz = flate2::write::GzEncoder::new(
            std::fs::File::create(&archive).unwrap(),
            flate2::Compression::default(),
        );
        let mut tar = tar::Builder::new(gz);
        // Packed with its folder, as `tar czf class.tar.gz class-pack/` does.
        tar.append_dir_all("class-pack", CLASS_PACK).unwrap();
        tar.into_inner().unwrap().finish().unwrap();
    }
    let data = tempfile::tempdir().unwrap();
    let a = archive.to_str().unwrap();
    let check = check_files(a, data.path());
    assert_eq!(check.code, 0, "{}", check.stdout);
    let quiz = common::run(
        &["--content", a, "quiz", "permissions", "--seed", "0"],
        "1\n1\n",
        data.path(),
        &[],
    );
    has(&quiz.stdout, "2 of 2");
    let e =
        export::parse(&common::call(&["--content", a, "progress", "--json"], data.path()).stdout)
            .unwrap();
    assert_eq!(e.pack.label(), "node-day@1");
    // Something that is not a tarball says so, naming the file.
    let junk = dir.path().join("junk.tar.gz");
    std::fs::write(&junk, "not gzip").unwrap();
    let bad = common::call(&["--content", junk.to_str().unwrap(), "list"], data.path());
    assert_eq!(bad.code, 2);
    has(&bad.stderr, "junk.tar.gz could not be read as a .tar.gz");
}

#[test]
fn the_pack_remembered_from_the_app_is_used_until_builtin_is_named() {
    let data = tempfile::tempdir().unwrap();
    // What opening the app with `--content CLASS_PACK` leaves in the settings.
    std::fs::write(
        data.path().join("progress.json"),
        format!(r#"{{"version": 1, "settings": {{"content": "{CLASS_PACK}"}}}}"#),
    )
    .unwrap();
    let pack = common::call(&["progress", "--json"], data.path());
    assert_eq!(export::parse(&pack.stdout).unwrap().pack.id, "node-day");
    has(&pack.stderr, "--content builtin");
    let builtin = common::call(&["--content", "builtin", "progress", "--json"], data.path());
    assert_eq!(export::parse(&builtin.stdout).unwrap().pack.id, "builtin");
}

#[test]
fn crafted_counts_in_exports_saturate_and_a_quiz_never_taken_counts_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for name in ["mallory", "trent"] {
        let mut e = learner(name, Some(1), None);
        let quiz = e
            .items
            .iter_mut()
            .find(|i| i.kind == ItemKind::Quiz)
            .unwrap();
        for a in &mut quiz.answers {
            a.wrong_choices = BTreeMap::from([(1, u32::MAX - 1)]);
        }
        let path = dir.path().join(format!("{name}.json"));
        std::fs::write(&path, serde_json::to_string(&e).unwrap()).unwrap();
        files.push(path.display().to_string());
    }
    // A learner who has taken no quiz at all.
    let mut idle = learner("idle", None, None);
    idle.items.retain(|i| i.kind != ItemKind::Quiz);
    let path = dir.path().join("idle.json");
    std::fs::write(&path, serde_json::to_string(&idle).unwrap()).unwrap();
    files.push(path.display().to_string());
    let mut args = vec!["report"];
    args.extend(files.iter().map(String::as_str));
    let out = common::call(&args, dir.path());
    assert_eq!(out.code, 0, "{}", out.stderr);
    has(&out.stdout, &format!("({}×)", u32::MAX));
    let row = out.stdout.lines().find(|l| l.starts_with("idle")).unwrap();
    assert_eq!(row.split_whitespace().nth(3), Some("-"), "not 0/N: {row}");
}

#[test]
fn a_lab_for_another_user_logs_in_as_that_user_everywhere() {
    if !common::needs::bwrap("pack lab tests") {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let pack = DANA_PACK;
    // `check` proves the pack: its solution and its own ok and bad scripts, run as dana.
    let check = common::call(&["--content", pack, "check"], data.path());
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
    let script = data.path().join("s.sh");
    std::fs::write(
        &script,
        "id\nsudo usermod -aG render,video dana\nexit\ngroups\n",
    )
    .unwrap();
    let out = common::call(
        &[
            "--content",
            pack,
            "lab",
            "dana-node",
            "--lang",
            "en",
            "--script",
            script.to_str().unwrap(),
        ],
        data.path(),
    );
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    for want in [
        "dana@mi300x-node:~$ id\nuid=1000(dana) gid=1000(dana)",
        "logging in again as dana",
        "dana adm sudo video render",
    ] {
        assert!(
            out.stdout.contains(want),
            "missing {want:?}:\n{}",
            out.stdout
        );
    }
}

#[test]
fn a_lab_for_another_user_is_that_user_in_the_shell_the_tools_and_the_reasons() {
    if !common::needs::bwrap("a lab for another user") {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let script = data.path().join("dana.sh");
    std::fs::write(
        &script,
        "id\necho home=$HOME\n/opt/rocm/bin/rocminfo | head -3\nsudo usermod -aG render,video dana\n",
    )
    .unwrap();
    let script = script.to_str().unwrap();
    let out = common::call(
        &[
            "--content",
            DANA_PACK,
            "lab",
            "dana-gpu",
            "--script",
            script,
        ],
        data.path(),
    );
    has(
        &out.stdout,
        "uid=1000(dana) gid=1000(dana) groups=1000(dana),4(adm),27(sudo)",
    );
    assert!(out.stdout.contains("dana@"), "the prompt: {}", out.stdout);
    has(&out.stdout, "home=/home/dana");
    assert!(
        out.stdout
            .contains("dana is not member of \"render\" group"),
        "rocminfo knows the user: {}",
        out.stdout
    );
    // The reason for the login step names dana, and nothing speaks of the default account.
    has(
        &out.stdout,
        "/etc/group lists dana in render, video, but this login",
    );
    assert!(!out.stdout.contains("learner"), "{}", out.stdout);
}

#[test]
fn check_names_a_group_step_whose_user_the_machine_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("pack");
    copy_tree(std::path::Path::new(DANA_PACK), &pack);
    let lab = pack.join("lessons/01-dana/lab-dana-gpu.toml");
    let text = std::fs::read_to_string(&lab).unwrap();
    // The machine keeps its default account while the steps still speak of dana.
    let text = text.replace("user = \"dana\"\n", "").replace(
        "check = \"groups\"\n",
        "check = \"groups\"\nuser = \"dana\"\n",
    );
    std::fs::write(&lab, text).unwrap();
    let out = check_files(pack.to_str().unwrap(), dir.path());
    assert_eq!(out.code, 1, "{}", out.stdout);
    has(
        &out.stdout,
        "lab-dana-gpu.toml:12:8: error: step \"groups\" checks the user \"dana\", whom the lab's machine does not have",
    );
}

fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

#[test]
fn a_promised_language_that_is_missing_is_the_one_warning() {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("pack");
    copy_tree(std::path::Path::new(CLASS_PACK), &pack);
    // The pack promises en and ja; Korean is missing everywhere and never warned about.
    std::fs::remove_file(pack.join("lessons/90-node-day/ja.md")).unwrap();
    let out = check_files(pack.to_str().unwrap(), dir.path());
    assert_eq!(out.code, 0, "{}", out.stdout);
    let warnings: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.contains(": warning: "))
        .collect();
    assert_eq!(warnings.len(), 1, "{}", out.stdout);
    has(
        warnings[0],
        "has no Japanese text yet (lessons/90-node-day/ja.md)",
    );
    has(&out.stdout, "No errors, 1 warning");
}

#[test]
fn an_english_only_pack_is_asked_for_no_japanese_or_korean() {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("pack");
    copy_tree(
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pack")),
        &pack,
    );
    // Promise English only, keep only the English lesson page, and bring one UI text file
    // in English: nothing may ask for its Japanese or Korean.
    let manifest = pack.join("pack.toml");
    let t = std::fs::read_to_string(&manifest).unwrap();
    let t: String = t
        .lines()
        .map(|l| {
            if l.starts_with("languages") {
                "languages = [\"en\"]"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(&manifest, t).unwrap();
    for lang in ["ja", "ko"] {
        std::fs::remove_file(pack.join(format!("lessons/01-what-is-rocm/{lang}.md"))).unwrap();
    }
    std::fs::create_dir_all(pack.join("i18n/en")).unwrap();
    std::fs::write(pack.join("i18n/en/pack.ftl"), "pack-hello = Hello\n").unwrap();
    let out = check_files(pack.to_str().unwrap(), dir.path());
    assert_eq!(out.code, 0, "{}", out.stdout);
    for word in ["Japanese", "Korean", "i18n/ja", "i18n/ko"] {
        lacks(&out.stdout, word);
    }
    // Its quiz gives the right answer away by length in English, which it promises.
    has(&out.stdout, "in English, the right option");
    has(&out.stdout, "No errors, 1 warning");
    let cues = out
        .stdout
        .lines()
        .find(|l| l.starts_with("Right option the longest"))
        .unwrap_or_else(|| panic!("{}", out.stdout));
    assert!(
        cues.contains("en ") && !cues.contains("ja ") && !cues.contains("ko "),
        "{cues}"
    );
    // Options are shown shuffled: where the right one sits in the file is no statistic.
    lacks(&out.stdout, "by position");
}

/// `report --json DIR` as JSON, run with the instructor's own data folder.
fn report_json(
    pack: &str,
    dir: &std::path::Path,
    instructor: &std::path::Path,
) -> serde_json::Value {
    let r = common::call(
        &["--content", pack, "report", "--json", dir.to_str().unwrap()],
        instructor,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.stdout))
}

fn learner_json<'a>(report: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    report["learners"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {report:#}"))
}

#[test]
fn two_machines_merge_and_a_file_dropped_under_a_learners_name_is_flagged_not_taken() {
    let submit = tempfile::tempdir().unwrap();
    let (desk, laptop, other, instructor) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let s = submit.path().to_str().unwrap();
    let env = |name: &'static str, login: &'static str| {
        vec![
            ("ROCM_LEARN_LEARNER", name),
            ("ROCM_LEARN_SUBMIT_DIR", s),
            ("USER", login),
        ]
    };
    // Alice finishes the quiz on her desk machine, then opens one lesson on her laptop.
    let quiz = |data: &std::path::Path, who: &[(&str, &str)], answers: &str| {
        common::run(
            &[
                "--content",
                CLASS_PACK,
                "quiz",
                "permissions",
                "--seed",
                "0",
            ],
            answers,
            data,
            who,
        )
    };
    quiz(desk.path(), &env("alice", "alice"), "1\n1\n");
    let lesson = common::run(
        &["--content", CLASS_PACK, "lesson", "node-day"],
        "",
        laptop.path(),
        &env("alice", "alice"),
    );
    assert_eq!(lesson.code, 0, "{}", lesson.stderr);
    quiz(desk.path(), &env("bob", "bob"), "2\n2\n");
    let r = report_json(CLASS_PACK, submit.path(), instructor.path());
    let alice = learner_json(&r, "alice");
    // Nothing of the desk machine was lost to the newer laptop file.
    assert_eq!(alice["machines"], 2, "{alice:#}");
    assert_eq!(alice["items"]["quiz:permissions"]["status"], "done");
    assert_eq!(alice["items"]["quiz:permissions"]["best"], 2);
    assert_eq!(alice["items"]["lesson:node-day"]["status"], "done");
    assert_eq!(alice["flags"], serde_json::json!([]));
    let bob = learner_json(&r, "bob");
    assert_eq!(bob["items"]["quiz:permissions"]["best"], 0);

    // Another user drops a "bob" file with full marks, signed by a key bob never used.
    quiz(other.path(), &env("bob", "mallory"), "1\n1\n");
    let r = report_json(CLASS_PACK, submit.path(), instructor.path());
    let bob = learner_json(&r, "bob");
    assert_eq!(bob["items"]["quiz:permissions"]["best"], 0, "{bob:#}");
    assert_eq!(bob["machines"], 1);
    assert_eq!(bob["flags"][0]["kind"], "new-key", "{bob:#}");
    // A file changed after signing is not taken either.
    let alices: Vec<_> = std::fs::read_dir(submit.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("alice--")
        })
        .collect();
    let text = std::fs::read_to_string(&alices[0]).unwrap();
    std::fs::write(
        &alices[0],
        text.replace("\"right\": false", "\"right\": true"),
    )
    .unwrap();
    let text = common::call(&["--content", CLASS_PACK, "report", s], instructor.path());
    has(&text.stdout, "not taken:");
    // Trusting new keys (bob's second machine) takes the file, and the two logins show.
    let trusted = common::call(
        &[
            "--content",
            CLASS_PACK,
            "report",
            "--json",
            "--trust-new-keys",
            s,
        ],
        instructor.path(),
    );
    let r: serde_json::Value = serde_json::from_str(&trusted.stdout).unwrap();
    let bob = learner_json(&r, "bob");
    assert_eq!(bob["machines"], 2);
    assert_eq!(bob["flags"][0]["kind"], "two-people", "{bob:#}");
}

#[test]
fn a_version_bump_keeps_unchanged_items_marks_changed_ones_and_the_class_spans_versions() {
    let submit = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let instructor = tempfile::tempdir().unwrap();
    let v1 = tempfile::tempdir().unwrap();
    copy_tree(std::path::Path::new(CLASS_PACK), v1.path());
    let pack = v1.path().to_str().unwrap();
    let env = [
        ("ROCM_LEARN_LEARNER", "ana"),
        ("ROCM_LEARN_SUBMIT_DIR", submit.path().to_str().unwrap()),
    ];
    common::run(
        &["--content", pack, "quiz", "permissions", "--seed", "0"],
        "1\n1\n",
        data.path(),
        &env,
    );
    common::run(
        &["--content", pack, "lesson", "node-day"],
        "",
        data.path(),
        &env,
    );
    // Version 2: the quiz is the same, the lesson's text changed.
    let toml = v1.path().join("pack.toml");
    let t = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, t.replace("version = \"1\"", "version = \"2\"")).unwrap();
    let md = v1.path().join("lessons/90-node-day/en.md");
    let mut t = std::fs::read_to_string(&md).unwrap();
    t.push_str("\nOne more paragraph.\n");
    std::fs::write(&md, t).unwrap();
    // The learner's own progress keeps the quiz on the new version.
    let own = common::run(
        &["--content", pack, "progress", "--json"],
        "",
        data.path(),
        &env,
    );
    let e = export::parse(&own.stdout).unwrap();
    assert_eq!(e.pack.version, "2");
    let quiz = e
        .items
        .iter()
        .find(|i| i.item == "permissions" && i.kind == ItemKind::Quiz)
        .unwrap();
    assert_eq!(quiz.status, Status::Done);
    // The report on version 2 counts the learner whose file says version 1.
    let r = report_json(pack, submit.path(), instructor.path());
    assert_eq!(r["pack"]["version"], "2");
    let ana = learner_json(&r, "ana");
    assert_eq!(ana["items"]["quiz:permissions"]["status"], "done");
    assert_eq!(ana["items"]["quiz:permissions"]["changed"], false);
    assert_eq!(ana["items"]["lesson:node-day"]["status"], "done");
    assert_eq!(ana["items"]["lesson:node-day"]["changed"], true, "{ana:#}");
    // The text report says so too, on that item's line only.
    let text = common::call(
        &["--content", pack, "report", submit.path().to_str().unwrap()],
        instructor.path(),
    );
    assert_eq!(text.code, 0, "{}", text.stderr);
    let line = |id: &str| {
        text.stdout
            .lines()
            .find(|l| l.trim_start().starts_with(id))
            .unwrap_or_else(|| panic!("no {id}: {}", text.stdout))
            .to_string()
    };
    has(&line("lesson:node-day"), "content changed since");
    lacks(&line("quiz:permissions"), "changed");
}

#[test]
fn a_learner_stuck_mid_lab_shows_in_the_live_view_with_the_step_and_for_how_long() {
    use rocm_learn::events::What;
    use rocm_learn::progress::{Change, Place, Store};
    let submit = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let instructor = tempfile::tempdir().unwrap();
    // What the lab screen records: the lab opened, then the step the learner is on.
    let store = Store::at(data.path());
    store
        .update(|p| {
            p.apply(&Change::Opened(Place {
                kind: ItemKind::Lab,
                id: "hsa-init-failed".into(),
            }));
            p.apply(&Change::Live(What::At {
                kind: ItemKind::Lab,
                item: "hsa-init-failed".into(),
                step: Some("groups".into()),
            }));
        })
        .unwrap();
    let (p, _) = store.load().unwrap();
    let events = store.log();
    let pack = rocm_learn::content::Pack::builtin();
    let (course, _) = rocm_learn::content::load(&rocm_learn::content::ContentTree::embedded());
    let mut e = export::build(
        &p,
        &course,
        &export::Stamp {
            pack: &pack,
            learner: "dan",
            machine: "pc-7",
            now: rocm_learn::progress::now(),
            events: &events,
        },
    );
    e.sign(data.path()).unwrap();
    export::submit(submit.path(), &e).unwrap();
    let r = report_json("builtin", submit.path(), instructor.path());
    let dan = learner_json(&r, "dan");
    assert_eq!(
        dan["items"]["lab:hsa-init-failed"]["status"], "in-progress",
        "{dan:#}"
    );
    assert_eq!(dan["items"]["lab:hsa-init-failed"]["step"], "groups");
    assert_eq!(dan["now"]["item"], "lab:hsa-init-failed");
    assert_eq!(dan["now"]["step"], "groups");
    assert!(dan["now"]["seconds"].as_u64().unwrap() < 60);
}

#[test]
fn results_the_class_server_signed_are_marked_as_its_and_a_learners_own_are_not() {
    use std::os::unix::fs::PermissionsExt;
    // A class folder as `rocm-learn serve` keeps it.
    let class = tempfile::tempdir().unwrap();
    std::fs::write(class.path().join("roster.toml"), "").unwrap();
    std::fs::write(class.path().join("host_key"), "").unwrap();
    let submit = class.path().join("submit");
    std::fs::create_dir(&submit).unwrap();
    let s = submit.to_str().unwrap();
    let (laptop, instructor) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let quiz = |data: &std::path::Path, name: &str, answers: &str| {
        let who = [("ROCM_LEARN_LEARNER", name), ("ROCM_LEARN_SUBMIT_DIR", s)];
        let args = [
            "--content",
            CLASS_PACK,
            "quiz",
            "permissions",
            "--seed",
            "0",
        ];
        assert_eq!(common::run(&args, answers, data, &who).code, 0);
    };
    // ana's quiz runs as the server runs her session (its data folder is the class folder);
    // her lesson is read on her own laptop.
    quiz(class.path(), "ana", "1\n1\n");
    let lesson = common::run(
        &["--content", CLASS_PACK, "lesson", "node-day"],
        "",
        laptop.path(),
        &[("ROCM_LEARN_LEARNER", "ana"), ("ROCM_LEARN_SUBMIT_DIR", s)],
    );
    assert_eq!(lesson.code, 0, "{}", lesson.stderr);
    // carl works on his laptop, then puts the server's key in his file's signature.
    quiz(laptop.path(), "carl", "1\n1\n");
    let server_key = rocm_learn::sign::install_public(class.path()).expect("the server's key");
    for e in std::fs::read_dir(&submit).unwrap() {
        let path = e.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        if path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("carl--")
        {
            let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
            v["signature"]["key"] = server_key.clone().into();
            std::fs::write(&path, v.to_string()).unwrap();
        }
    }

    // The first report over the class folder takes what the server signed, but not a file
    // signed by a key the class folder does not record as ana's (hers or a neighbour's: the
    // report cannot tell), even though it is the first key seen for her.
    let r = report_json(CLASS_PACK, &submit, instructor.path());
    let ana = learner_json(&r, "ana");
    assert_eq!(
        ana["items"]["quiz:permissions"]["source"], "server",
        "{ana:#}"
    );
    assert_eq!(
        ana["items"]["lesson:node-day"]["source"],
        serde_json::Value::Null,
        "{ana:#}"
    );
    assert_eq!(ana["flags"][0]["kind"], "new-key", "{ana:#}");
    let record = class.path().join("learner-keys.json");
    assert!(!record.exists(), "nothing was taken on purpose yet");
    // The instructor takes it on purpose: the class folder records ana's laptop key...
    let trusted = common::call(
        &["--content", CLASS_PACK, "report", "--trust-new-keys", s],
        instructor.path(),
    );
    assert_eq!(trusted.code, 0, "{}", trusted.stderr);
    let mode = std::fs::metadata(&record).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    let recorded: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(recorded["learners"]["ana"].as_array().unwrap().len(), 1);
    assert!(!recorded.to_string().contains(&server_key), "{recorded}");
    // ...so any later report over the folder, by any instructor account, takes it.
    let other_instructor = tempfile::tempdir().unwrap();
    let r = report_json(CLASS_PACK, &submit, other_instructor.path());
    let ana = learner_json(&r, "ana");
    assert_eq!(
        ana["items"]["lesson:node-day"]["source"], "learner",
        "{ana:#}"
    );
    assert_eq!(ana["flags"], serde_json::json!([]), "{ana:#}");
    // A damaged record is named, not silently replaced.
    std::fs::write(&record, "{").unwrap();
    let broken = common::call(&["--content", CLASS_PACK, "report", s], instructor.path());
    assert_eq!(broken.code, 1);
    has(&broken.stderr, &record.display().to_string());
    assert_eq!(std::fs::read_to_string(&record).unwrap(), "{");
    std::fs::write(&record, recorded.to_string()).unwrap();
    assert_eq!(
        ana["items"]["lab:hsa-init-failed"]["source"],
        serde_json::Value::Null
    );
    let carl = learner_json(&r, "carl");
    assert_ne!(
        carl["items"]["quiz:permissions"]["source"], "server",
        "{carl:#}"
    );
    assert_eq!(carl["flags"][0]["kind"], "bad-signature", "{carl:#}");

    let text = common::call(&["--content", CLASS_PACK, "report", s], instructor.path());
    let quiz_line = text
        .stdout
        .lines()
        .find(|l| l.contains("quiz:permissions") && l.contains("done"))
        .unwrap_or_else(|| panic!("{}", text.stdout));
    has(quiz_line, "computed on the class server");
    let lesson_line = text
        .stdout
        .lines()
        .find(|l| l.contains("lesson:node-day"))
        .unwrap();
    lacks(lesson_line, "class server");
    let csv = common::call(
        &["--content", CLASS_PACK, "report", "--csv", s],
        instructor.path(),
    );
    has(
        csv.stdout.lines().next().unwrap(),
        "quiz:permissions source",
    );
    let ana_row = csv.stdout.lines().find(|l| l.starts_with("ana,")).unwrap();
    has(ana_row, ",server");

    // A copy of the submit folder elsewhere proves nothing by itself; --class names the server.
    let copy = tempfile::tempdir().unwrap();
    copy_tree(&submit, copy.path());
    let r = report_json(CLASS_PACK, copy.path(), instructor.path());
    let ana = learner_json(&r, "ana");
    assert_eq!(ana["items"]["quiz:permissions"]["source"], "learner");
    let named = common::call(
        &[
            "--content",
            CLASS_PACK,
            "report",
            "--json",
            "--class",
            class.path().to_str().unwrap(),
            copy.path().to_str().unwrap(),
        ],
        instructor.path(),
    );
    let r: serde_json::Value = serde_json::from_str(&named.stdout).unwrap();
    let ana = learner_json(&r, "ana");
    assert_eq!(ana["items"]["quiz:permissions"]["source"], "server");
}
