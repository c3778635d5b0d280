//! `rocm-learn check` and the content loader: every rule on small broken trees, with the
//! reported file, line and column.

mod common;

use common::has;

use rocm_learn::content::{self, ContentTree, Diagnostic, Severity};
use rocm_learn::i18n::I18n;
use rocm_learn::lang::Lang;

const BUILDING: &str = r#"
[[floor]]
level = 5
name = "Application"
role = "orders"
description = "apps"
[[floor]]
level = 4
name = "Libraries"
role = "recipes"
description = "libs"
[[floor]]
level = 3
name = "Runtime"
role = "tickets"
description = "runtime"
[[floor]]
level = 2
name = "Driver"
role = "interpreter"
description = "driver"
[[floor]]
level = 1
name = "GPU"
role = "cooks"
description = "chip"
"#;

const GLOSSARY: &str = r#"
[[term]]
id = "kfd"
name = "KFD"
category = "Operating system"
definition = { en = "Kernel Fusion Driver", ja = "カーネル", ko = "커널" }
"#;

const QUIZ_OK: &str = r#"
id = "q1"
title = { en = "T", ja = "T", ko = "T" }
[[questions]]
id = "a"
prompt = { en = "P?", ja = "P?", ko = "P?" }
  [[questions.options]]
  text = "one"
  why = "because"
  correct = true
  [[questions.options]]
  text = "two"
  why = "no"
"#;

/// A valid minimal tree plus the given files (which may replace the defaults).
fn tree(extra: &[(&str, &str)]) -> ContentTree {
    let mut files: Vec<(&str, &str)> = vec![
        ("assets/building.toml", BUILDING),
        ("assets/glossary.toml", GLOSSARY),
        ("quizzes/q1.toml", QUIZ_OK),
    ];
    for (p, t) in extra {
        files.retain(|(q, _)| q != p);
        files.push((p, t));
    }
    ContentTree::from_files(files)
}

fn diags(extra: &[(&str, &str)]) -> Vec<Diagnostic> {
    content::load(&tree(extra)).1.items
}

fn en(d: &Diagnostic) -> String {
    I18n::new(Lang::En).msg(&d.msg)
}

/// The one error in the output, asserting there is exactly one.
fn only_error(extra: &[(&str, &str)]) -> Diagnostic {
    let errors: Vec<_> = diags(extra)
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert_eq!(errors.len(), 1, "expected one error, got {errors:#?}");
    errors.into_iter().next().unwrap()
}

#[test]
fn the_shipped_course_loads_without_errors_or_warnings() {
    let (course, diags) = content::load(&ContentTree::embedded());
    let shown: Vec<String> = diags
        .items
        .iter()
        .map(|d| format!("{}:{}:{}: {}", d.path, d.line, d.col, en(d)))
        .collect();
    assert!(shown.is_empty(), "{shown:#?}");
    assert!(course.lesson("what-is-rocm").is_some());
    let quiz = course.quiz("deploy-workflow").expect("starter quiz");
    assert!(quiz.questions.len() >= 5);
    assert_eq!(course.building.floors.len(), 5);
    assert_eq!(course.building.floors[0].level, 5, "top floor first");
    assert!(!course.building.elevator.steps.is_empty());
    for lang in Lang::ALL {
        assert!(course.lessons.iter().all(|l| l.has_lang(lang)));
    }
}

#[test]
fn a_minimal_tree_is_clean() {
    assert_eq!(diags(&[]), vec![]);
}

#[test]
fn malformed_toml_points_at_the_broken_line() {
    let d = only_error(&[(
        "quizzes/q1.toml",
        "id = \"q1\"\ntitle = \"x\"\nquestions = [\n",
    )]);
    assert_eq!(d.path, "quizzes/q1.toml");
    // The parser points at the array that is never closed.
    assert_eq!((d.line, d.col), (3, 14));
    assert!(en(&d).starts_with("malformed TOML"), "{}", en(&d));
}

#[test]
fn unknown_keys_are_each_reported_with_the_allowed_ones() {
    let quiz = QUIZ_OK
        .replace("title =", "colour = \"red\"\ntitle =")
        .replace("  text = \"two\"", "  text = \"two\"\n  corect = true");
    let all = diags(&[("quizzes/q1.toml", &quiz)]);
    let unknown: Vec<_> = all
        .iter()
        .filter(|d| d.msg.id == "check-unknown-key")
        .collect();
    assert_eq!(unknown.len(), 2, "{all:#?}");
    assert_eq!((unknown[0].line, unknown[0].col), (3, 1));
    assert!(en(unknown[0]).contains("`colour`") && en(unknown[0]).contains("id, title"));
    assert_eq!(unknown[1].line, 14);
    assert_eq!(unknown[1].col, 3);
    assert!(en(unknown[1]).contains("`corect`") && en(unknown[1]).contains("correct"));
}

#[test]
fn duplicate_quiz_ids_name_the_first_definition() {
    let d = only_error(&[("quizzes/q2.toml", QUIZ_OK)]);
    assert_eq!(d.path, "quizzes/q2.toml");
    assert_eq!((d.line, d.col), (2, 6));
    assert!(en(&d).contains("quizzes/q1.toml:2:6"), "{}", en(&d));
}

#[test]
fn duplicate_question_ids_are_errors() {
    let quiz = format!(
        "{QUIZ_OK}\n{}",
        &QUIZ_OK[QUIZ_OK.find("[[questions]]").unwrap()..]
    );
    let d = only_error(&[("quizzes/q1.toml", &quiz)]);
    assert_eq!(d.msg.id, "check-duplicate-id");
    assert_eq!(d.line, 16);
}

#[test]
fn a_question_needs_exactly_one_correct_option() {
    let none = QUIZ_OK.replace("  correct = true\n", "");
    let d = only_error(&[("quizzes/q1.toml", &none)]);
    assert_eq!(d.msg.id, "check-correct-count");
    assert_eq!(d.line, 4, "reported at the question");
    assert!(en(&d).contains("no correct option"));

    let two = QUIZ_OK.replace("  why = \"no\"", "  why = \"no\"\n  correct = true");
    let d = only_error(&[("quizzes/q1.toml", &two)]);
    assert!(en(&d).contains("2 correct options"), "{}", en(&d));
}

#[test]
fn an_option_without_explanation_is_an_error() {
    let quiz = QUIZ_OK.replace("  why = \"no\"\n", "");
    let d = only_error(&[("quizzes/q1.toml", &quiz)]);
    assert_eq!(d.msg.id, "check-option-no-why");
    assert_eq!((d.line, d.col), (11, 3), "at the option's table");
}

#[test]
fn a_missing_translation_is_a_warning_not_an_error() {
    let quiz = QUIZ_OK.replace(
        "prompt = { en = \"P?\", ja = \"P?\", ko = \"P?\" }",
        "prompt = { en = \"P?\", ja = \"P?\" }",
    );
    let all = diags(&[("quizzes/q1.toml", &quiz)]);
    assert_eq!(all.len(), 1, "{all:#?}");
    assert_eq!(all[0].severity, Severity::Warning);
    assert_eq!(all[0].line, 6);
    assert!(
        en(&all[0]).contains("no Korean text (ko)"),
        "{}",
        en(&all[0])
    );
}

#[test]
fn dangling_references_are_reported_where_they_are_written() {
    let lesson_meta = "id = \"l1\"\nquiz = \"nope\"\n";
    let body = "+++\ntitle = \"L\"\n+++\n\nSee [KFD](term:kfd) and [the lab](lab:ghost).\n";
    let all = diags(&[
        ("lessons/01-l1/lesson.toml", lesson_meta),
        ("lessons/01-l1/en.md", body),
        ("lessons/01-l1/ja.md", body),
        ("lessons/01-l1/ko.md", body),
    ]);
    let dangling: Vec<_> = all
        .iter()
        .filter(|d| d.msg.id == "check-dangling-ref")
        .collect();
    assert_eq!(
        dangling.len(),
        4,
        "quiz ref + one lab link per language: {all:#?}"
    );
    let quiz_ref = dangling
        .iter()
        .find(|d| d.path.ends_with("lesson.toml"))
        .unwrap();
    assert_eq!((quiz_ref.line, quiz_ref.col), (2, 8));
    assert!(
        en(quiz_ref).contains("q1"),
        "lists the known quiz ids: {}",
        en(quiz_ref)
    );
    let lab = dangling
        .iter()
        .find(|d| d.path == "lessons/01-l1/en.md")
        .unwrap();
    assert_eq!((lab.line, lab.col), (5, 25));
}

#[test]
fn lesson_files_need_front_matter_with_a_title() {
    let all = diags(&[
        ("lessons/01-l1/lesson.toml", "id = \"l1\"\n"),
        ("lessons/01-l1/en.md", "# No front matter\n"),
        ("lessons/01-l1/ja.md", "+++\ntitle = \"ok\"\n+++\nbody\n"),
        ("lessons/01-l1/ko.md", "+++\nsummary = \"s\"\n+++\nbody\n"),
    ]);
    let errors: Vec<_> = all
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert_eq!(errors.len(), 2, "{all:#?}");
    assert_eq!(errors[0].path, "lessons/01-l1/en.md");
    assert_eq!(errors[0].msg.id, "check-no-front-matter");
    assert_eq!(errors[1].path, "lessons/01-l1/ko.md");
    assert_eq!(errors[1].msg.id, "check-missing-key");
    assert_eq!(
        errors[1].line, 2,
        "front matter offsets count from the file's start"
    );
}

#[test]
fn a_bad_glossary_category_lists_the_valid_ones() {
    let g = GLOSSARY.replace("Operating system", "Hardware");
    let d = only_error(&[("assets/glossary.toml", &g)]);
    assert_eq!((d.line, d.col), (5, 12));
    assert!(
        en(&d).contains("Application, Architecture, Operating system, Language, License, Device")
    );
}

#[test]
fn a_missing_floor_is_reported() {
    let b = BUILDING.replace("level = 3", "level = 7");
    let all = diags(&[("assets/building.toml", &b)]);
    let ids: Vec<_> = all.iter().map(|d| d.msg.id).collect();
    assert_eq!(
        ids,
        vec!["check-floor-missing", "check-bad-floor"],
        "{all:#?}"
    );
}

#[test]
fn fluent_files_must_parse_and_be_complete() {
    let all = diags(&[
        ("i18n/en/app.ftl", "hello = Hello\nbye = Bye\n"),
        ("i18n/ja/app.ftl", "hello = こんにちは\n"),
        ("i18n/ko/app.ftl", "hello = 안녕\nbye = {\n"),
    ]);
    let errors: Vec<_> = all
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert_eq!(errors.len(), 3, "{all:#?}");
    // The syntax error in Korean, and "bye" missing from Japanese and (unparsed) Korean.
    assert!(errors.iter().any(|d| d.path == "i18n/ko/app.ftl"
        && d.msg.id == "check-ftl-syntax"
        && d.line == 3
        && en(d).ends_with("Expected an inline expression")));
    let missing: Vec<_> = errors
        .iter()
        .filter(|d| d.msg.id == "check-ftl-missing-id")
        .collect();
    assert_eq!(missing.len(), 2);
    assert!(
        missing
            .iter()
            .all(|d| d.path == "i18n/en/app.ftl" && d.line == 2)
    );
}

#[test]
fn a_fluent_file_missing_in_one_language_is_an_error() {
    let all = diags(&[
        ("i18n/en/app.ftl", "hello = Hello\n"),
        ("i18n/ja/app.ftl", "hello = こんにちは\n"),
    ]);
    assert_eq!(all.len(), 1, "{all:#?}");
    assert_eq!(all[0].msg.id, "check-ftl-file-missing");
    assert!(en(&all[0]).contains("i18n/ko/app.ftl"));
}

#[test]
fn the_check_command_prints_every_problem_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("quizzes")).unwrap();
    std::fs::write(
        root.join("quizzes/a.toml"),
        QUIZ_OK.replace("  why = \"no\"\n", ""),
    )
    .unwrap();
    std::fs::write(root.join("quizzes/b.toml"), "id = \"BAD ID\"\n").unwrap();
    let data = tempfile::tempdir().unwrap();
    let out = common::call(&["check", "--content", root.to_str().unwrap()], data.path());
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let a = format!(
        "{}:11:3: error: this option has no explanation",
        root.join("quizzes/a.toml").display()
    );
    has(&out.stdout, &a);
    let b = format!(
        "{}:1:6: error: \"BAD ID\" is not a valid id",
        root.join("quizzes/b.toml").display()
    );
    has(&out.stdout, &b);
    has(&out.stdout, "error: the quiz has no `title`");
    // The pack brought no assets: the built-in building and glossary are used, without errors.
    assert!(!out.stdout.contains("building.toml"), "{}", out.stdout);
}

#[test]
fn check_speaks_the_learners_language() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("quizzes")).unwrap();
    std::fs::write(
        dir.path().join("quizzes/a.toml"),
        QUIZ_OK.replace("  correct = true\n", ""),
    )
    .unwrap();
    let data = tempfile::tempdir().unwrap();
    let out = common::call(
        &[
            "check",
            "--content",
            dir.path().to_str().unwrap(),
            "--lang",
            "ko",
        ],
        data.path(),
    );
    assert_eq!(out.code, 1);
    has(
        &out.stdout,
        ":4:1: error: 문제 \"a\"에 정답이 하나도 없습니다.",
    );
}

#[test]
fn check_of_the_shipped_course_passes() {
    let data = tempfile::tempdir().unwrap();
    let out = common::call(&["check"], data.path());
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout.starts_with("No errors, no warnings"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_content_dir_that_does_not_exist_is_a_clear_error() {
    let data = tempfile::tempdir().unwrap();
    let out = common::call(&["list", "--content", "/no/such/pack"], data.path());
    assert_eq!(out.code, 2);
    has(&out.stderr, "/no/such/pack does not exist");
}

#[test]
fn a_pack_with_errors_is_refused_with_its_diagnostics() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("quizzes")).unwrap();
    std::fs::write(dir.path().join("quizzes/a.toml"), "id = 1\n").unwrap();
    let data = tempfile::tempdir().unwrap();
    let out = common::call(
        &["quiz", "a", "--content", dir.path().to_str().unwrap()],
        data.path(),
    );
    assert_eq!(out.code, 1);
    has(
        &out.stderr,
        "a.toml:1:6: error: `id` must be a string, not an integer",
    );
    assert!(
        out.stderr.contains("rocm-learn --content ") && out.stderr.contains(" check`"),
        "{}",
        out.stderr
    );
}

const LESSON_META: &str = "id = \"l1\"\nlabs = [\"lab1\"]\n";
const LESSON_BODY: &str = "+++\ntitle = \"L\"\n+++\n\nText.\n";
const LAB_OK: &str = r#"id = "lab1"
title = "Fix it"
briefing = "The node is broken."

[machine]
preset = "vega64-workstation"

[[files]]
path = "/home/learner/notes.txt"
text = "hello"
mode = "0600"

[[steps]]
id = "groups"
title = "In render"
check = "groups"
groups = ["render"]
keep = ["sudo"]
hints = ["Look at /etc/group.", { en = "usermod -aG", ja = "usermod -aG", ko = "usermod -aG" }]

[solution]
text = "Add the group, log in again."
commands = ["sudo usermod -aG render learner", "exit"]
"#;

fn lab_tree(lab: &str) -> Vec<Diagnostic> {
    diags(&[
        ("lessons/01-l1/lesson.toml", LESSON_META),
        ("lessons/01-l1/en.md", LESSON_BODY),
        ("lessons/01-l1/ja.md", LESSON_BODY),
        ("lessons/01-l1/ko.md", LESSON_BODY),
        ("lessons/01-l1/lab-lab1.toml", lab),
    ])
}

#[test]
fn a_valid_lab_loads_with_its_lesson_and_steps() {
    assert_eq!(lab_tree(LAB_OK), vec![]);
    let (course, _) = content::load(&tree(&[
        ("lessons/01-l1/lesson.toml", LESSON_META),
        ("lessons/01-l1/en.md", LESSON_BODY),
        ("lessons/01-l1/lab-lab1.toml", LAB_OK),
    ]));
    let lab = course.lab("lab1").expect("loaded");
    assert_eq!(lab.lesson.as_deref(), Some("l1"));
    assert_eq!(lab.steps[0].hints.len(), 2);
    assert_eq!(lab.files[0].mode, 0o600);
    has(&lab.machine, "preset = \"vega64-workstation\"");
    assert_eq!(lab.solution_commands.len(), 2);
}

#[test]
fn an_unknown_check_lists_the_known_ones() {
    let lab = LAB_OK.replace("check = \"groups\"", "check = \"group\"");
    let all = lab_tree(&lab);
    let d = all
        .iter()
        .find(|d| d.msg.id == "check-unknown-check")
        .expect("reported");
    assert_eq!((d.line, d.col), (16, 9));
    assert!(
        en(d).contains("groups, session-groups, kfd-access"),
        "{}",
        en(d)
    );
}

#[test]
fn a_check_missing_its_parameters_is_an_error() {
    let lab = LAB_OK.replace("groups = [\"render\"]\n", "");
    let all = lab_tree(&lab);
    assert!(
        all.iter()
            .any(|d| d.msg.id == "check-missing-key" && en(d).contains("`groups`")),
        "{all:#?}"
    );
}

#[test]
fn lab_files_need_absolute_paths_and_octal_modes() {
    let lab = LAB_OK
        .replace("/home/learner/notes.txt", "notes.txt")
        .replace("0600", "rw");
    let all = lab_tree(&lab);
    let ids: Vec<_> = all.iter().map(|d| (d.msg.id, d.line)).collect();
    assert!(ids.contains(&("check-bad-mode", 11)), "{ids:?}");
    let lab = LAB_OK.replace("/home/learner/notes.txt", "notes.txt");
    let all = lab_tree(&lab);
    assert!(
        all.iter()
            .any(|d| d.msg.id == "check-path-not-absolute" && d.line == 9),
        "{all:#?}"
    );
}

#[test]
fn a_pack_whose_lab_file_would_leave_its_lab_is_rejected_where_it_is_written() {
    for (path, id) in [
        ("/etc/../../pwned-by-content-pack", "check-path-dot-segment"),
        ("/home/learner/./notes.txt", "check-path-dot-segment"),
        ("/etc/x\\u0000y", "check-path-nul"),
    ] {
        let lab = LAB_OK.replace("/home/learner/notes.txt", path);
        let all = lab_tree(&lab);
        let d = all
            .iter()
            .find(|d| d.msg.id == id)
            .unwrap_or_else(|| panic!("{path}: {all:#?}"));
        assert_eq!(d.path, "lessons/01-l1/lab-lab1.toml");
        assert_eq!((d.line, d.col), (9, 8), "{path}");
    }
    // What a package installs, never setuid, setgid or sticky.
    for mode in ["4755", "2755", "1777"] {
        let lab = LAB_OK.replace("0600", mode);
        let all = lab_tree(&lab);
        assert!(
            all.iter()
                .any(|d| d.msg.id == "check-mode-special" && d.line == 11),
            "{mode}: {all:#?}"
        );
    }
    let lab = LAB_OK.replace("0600", "0755");
    assert_eq!(lab_tree(&lab), vec![]);
}

#[test]
fn a_lesson_linking_a_missing_lab_is_an_error() {
    let lab = LAB_OK.replace("id = \"lab1\"", "id = \"other\"");
    let all = lab_tree(&lab);
    let d = all
        .iter()
        .find(|d| d.msg.id == "check-dangling-ref")
        .expect("reported");
    assert_eq!(d.path, "lessons/01-l1/lesson.toml");
    assert!(
        en(d).contains("no lab has the id \"lab1\". Known: other"),
        "{}",
        en(d)
    );
}

#[test]
fn emphasis_that_would_show_as_asterisks_is_a_warning() {
    let body = "+++\ntitle = \"L\"\n+++\n\nこれは**重要です。**次へ。\n\n**fine** text.\n";
    let all = diags(&[
        ("lessons/01-l1/lesson.toml", "id = \"l1\"\n"),
        ("lessons/01-l1/en.md", body),
        ("lessons/01-l1/ja.md", body),
        ("lessons/01-l1/ko.md", body),
    ]);
    let lit: Vec<_> = all
        .iter()
        .filter(|d| d.msg.id == "check-literal-emphasis")
        .collect();
    assert_eq!(lit.len(), 3, "one per language file: {all:#?}");
    assert!(
        lit.iter()
            .all(|d| d.severity == Severity::Warning && d.line == 5)
    );
}

#[test]
fn the_support_matrix_answers_gpu_by_os_by_release() {
    use rocm_learn::content::Status;
    let (course, _) = content::load(&ContentTree::embedded());
    let m = &course.matrix;
    assert!(
        m.releases.len() >= 4 && m.gpus.len() >= 7,
        "{} releases, {} gpus",
        m.releases.len(),
        m.gpus.len()
    );
    assert_eq!(m.releases[0].version, "4.5", "oldest first");
    // gfx900: supported up to 4.5, turned away after.
    assert_eq!(
        m.verdict("gfx900", "ubuntu-20.04", "4.5").status,
        Status::Supported
    );
    let v = m.verdict("gfx900", "ubuntu-22.04", "6.3");
    assert_eq!(v.status, Status::Unsupported);
    // MI300X on Ubuntu 22.04 with 6.3: the lab's fresh node.
    assert_eq!(
        m.verdict("gfx942", "ubuntu-22.04", "6.3").status,
        Status::Supported
    );
    // An OS only some GPUs get in a release.
    let rdna3 = m.verdict("gfx1100", "rhel-9.2", "5.7");
    assert!(
        rdna3.wrong_os && rdna3.status == Status::Unsupported,
        "{rdna3:?}"
    );
    assert_eq!(
        m.verdict("gfx906", "ubuntu-22.04", "5.7").status,
        Status::Deprecated
    );
}

#[test]
fn the_matrix_names_only_declared_gpus_and_oses() {
    let matrix = "[[gpu]]\nid = \"gfx942\"\nname = \"MI300X\"\n[[os]]\nid = \"ubuntu-22.04\"\nname = \"Ubuntu 22.04\"\n[[release]]\nversion = \"6.3\"\nos = [\"ubuntu-22.04\", \"debian-99\"]\n  [[release.gpu]]\n  id = \"gfx942\"\n  status = \"great\"\n";
    let all = diags(&[("assets/support-matrix.toml", matrix)]);
    let ids: Vec<_> = all.iter().map(|d| (d.msg.id, d.line)).collect();
    assert_eq!(
        ids,
        vec![("check-dangling-ref", 9), ("check-bad-status", 12)],
        "{all:#?}"
    );
}

// ---- one word per idea: docs/terminology.md ----

const TERMS: &str = "# Terms\n\n| Term | en | ja | ko | Avoid (en) | Avoid (ja) | Avoid (ko) |\n|---|---|---|---|---|---|---|\n| driver | driver | ドライバー | 드라이버 | | ドライバ | |\n| use case | use case | ユースケース | 사용 사례 | usecase | | 유스케이스 |\n| kfd | KFD | KFD | KFD | | | |\n";

const TERM_LESSON: &str = "id = \"one\"\n";

#[test]
fn a_variant_to_avoid_is_a_warning_at_its_line_and_column() {
    let ja = "+++\ntitle = \"ドライバー\"\n+++\n\nまずドライバを入れます。ドライバーは 2F です。\n\n```\nドライバ\n```\n";
    let quiz = QUIZ_OK.replace(
        "prompt = { en = \"P?\", ja = \"P?\", ko = \"P?\" }",
        "prompt = { en = \"P?\", ja = \"P?\", ko = \"유스케이스는?\" }",
    );
    let found = diags(&[
        ("docs/terminology.md", TERMS),
        ("lessons/01-one/lesson.toml", TERM_LESSON),
        (
            "lessons/01-one/en.md",
            "+++\ntitle = \"One\"\n+++\n\nA usecase.\n",
        ),
        ("lessons/01-one/ja.md", ja),
        (
            "lessons/01-one/ko.md",
            "+++\ntitle = \"하나\"\n+++\n\n사용 사례입니다.\n",
        ),
        ("quizzes/q1.toml", &quiz),
    ]);
    let shown: Vec<String> = found
        .iter()
        .map(|d| format!("{}:{}:{}: {}", d.path, d.line, d.col, en(d)))
        .collect();
    assert_eq!(
        shown,
        [
            "lessons/01-one/en.md:5:3: \"usecase\" is a variant the course avoids; write \"use case\" (see docs/terminology.md).",
            // The code block and the preferred ドライバー on the same line are not reported.
            "lessons/01-one/ja.md:5:3: \"ドライバ\" is a variant the course avoids; write \"ドライバー\" (see docs/terminology.md).",
            "quizzes/q1.toml:6:40: \"유스케이스\" is a variant the course avoids; write \"사용 사례\" (see docs/terminology.md).",
        ]
    );
    assert!(found.iter().all(|d| d.severity == Severity::Warning));
}

#[test]
fn check_holds_a_labs_briefing_steps_and_hints_to_the_table() {
    // The lab's Japanese hint and briefing use ドライバ; `check` names the lab file, the line
    // and the word, and says what it held the pack to.
    let lab = LAB_OK
        .replace(
            "briefing = \"The node is broken.\"",
            "briefing.en = \"The node is broken.\"\nbriefing.ja = \"ドライバが壊れています。\"\nbriefing.ko = \"드라이버가 고장 났습니다.\"",
        )
        .replace(
            "ja = \"usermod -aG\"",
            "ja = \"usermod -aG でドライバを使えるようにする\"",
        );
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for (path, text) in [
        ("docs/terminology.md", TERMS),
        ("lessons/01-l1/lesson.toml", LESSON_META),
        ("lessons/01-l1/en.md", LESSON_BODY),
        ("lessons/01-l1/ja.md", LESSON_BODY),
        ("lessons/01-l1/ko.md", LESSON_BODY),
        ("lessons/01-l1/lab-lab1.toml", lab.as_str()),
    ] {
        std::fs::create_dir_all(root.join(path).parent().unwrap()).unwrap();
        std::fs::write(root.join(path), text).unwrap();
    }
    let data = tempfile::tempdir().unwrap();
    let out = common::call(
        &["check", "--no-labs", "--content", root.to_str().unwrap()],
        data.path(),
    );
    let file = root
        .join("lessons/01-l1/lab-lab1.toml")
        .display()
        .to_string();
    has(
        &out.stdout,
        &format!("{file}:4:16: warning: \"ドライバ\" is a variant the course avoids"),
    );
    assert_eq!(out.stdout.matches(&file).count(), 2, "{}", out.stdout);
    has(&out.stdout, "Terminology: 3 terms of docs/terminology.md");
}

#[test]
fn a_pack_without_a_terminology_table_is_not_held_to_one() {
    let found = diags(&[
        ("lessons/01-one/lesson.toml", TERM_LESSON),
        (
            "lessons/01-one/en.md",
            "+++\ntitle = \"One\"\n+++\n\nA usecase.\n",
        ),
        (
            "lessons/01-one/ja.md",
            "+++\ntitle = \"一\"\n+++\n\nドライバ。\n",
        ),
        (
            "lessons/01-one/ko.md",
            "+++\ntitle = \"하나\"\n+++\n\n유스케이스.\n",
        ),
    ]);
    assert_eq!(found, vec![]);
}

#[test]
fn a_broken_terminology_row_names_its_line_and_the_columns() {
    let table = format!("{TERMS}| driver | driver |\n");
    let found = diags(&[("docs/terminology.md", &table)]);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(
        (found[0].path.as_str(), found[0].line),
        ("docs/terminology.md", 8)
    );
    assert!(
        en(&found[0]).contains("it needs 7: Term, en, ja"),
        "{}",
        en(&found[0])
    );
    let none = diags(&[("docs/terminology.md", "# Terms\n\nno table\n")]);
    assert!(
        en(&none[0]).contains("| Term | en | ja | ko | Avoid (en)"),
        "{}",
        en(&none[0])
    );
}

#[test]
fn a_glossary_term_without_a_terminology_row_is_a_warning_naming_it() {
    let table = TERMS.replace("| kfd | KFD | KFD | KFD | | | |\n", "");
    let found = diags(&[("docs/terminology.md", &table)]);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].severity, Severity::Warning);
    assert_eq!(found[0].path, "docs/terminology.md");
    assert!(
        en(&found[0]).contains("the glossary term \"kfd\" (KFD) has no row here"),
        "{}",
        en(&found[0])
    );
}

// ---- answers that do not give themselves away by length ----

/// A quiz whose right option is the strictly longest in `longest` of three questions, in
/// English only (Japanese and Korean options are all the same width).
fn quiz_longest(longest: usize) -> String {
    let mut q = String::from("id = \"q1\"\ntitle = \"T\"\n");
    for i in 0..3 {
        let right = if i < longest {
            "the longest option"
        } else {
            "short"
        };
        q += &format!(
            "[[questions]]\nid = \"q{i}\"\nprompt = \"P?\"\n  [[questions.options]]\n  text = {{ en = \"{right}\", ja = \"あ\", ko = \"가\" }}\n  why = \"w\"\n  correct = true\n  [[questions.options]]\n  text = {{ en = \"a medium\", ja = \"い\", ko = \"나\" }}\n  why = \"w\"\n"
        );
    }
    q
}

#[test]
fn a_quiz_whose_right_option_is_longest_in_over_a_third_is_warned_per_language() {
    assert_eq!(diags(&[("quizzes/q1.toml", &quiz_longest(1))]), vec![]);
    let found = diags(&[("quizzes/q1.toml", &quiz_longest(2))]);
    assert_eq!(found.len(), 1, "only English gives itself away: {found:#?}");
    assert_eq!(
        (
            found[0].path.as_str(),
            found[0].line,
            found[0].col,
            found[0].severity
        ),
        ("quizzes/q1.toml", 1, 6, Severity::Warning)
    );
    assert_eq!(
        en(&found[0]),
        "in English, the right option of \"q1\" is the strictly longest in 2 of 3 questions, more than a third: learners can pass by picking the longest. Shorten right options or write distractors of the same length."
    );
    let ja = I18n::new(Lang::Ja).msg(&found[0].msg);
    assert!(ja.starts_with("英語では、「q1」の 3 問中 2 問で"), "{ja}");
}

#[test]
fn check_stats_prints_the_share_per_quiz_and_language() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("quizzes")).unwrap();
    std::fs::write(dir.path().join("quizzes/q1.toml"), quiz_longest(2)).unwrap();
    let data = tempfile::tempdir().unwrap();
    let content = dir.path().to_str().unwrap();
    let out = common::call(&["check", "--content", content, "--stats"], data.path());
    assert_eq!(out.code, 0, "warnings only: {}{}", out.stdout, out.stderr);
    let table: Vec<&str> = out
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("quiz "))
        .take(3)
        .collect();
    assert_eq!(
        table,
        [
            "quiz          en              ja              ko",
            "q1            2/3 (67%)*      0/3 (0%)        0/3 (0%)",
            "whole course  2/3 (67%)       0/3 (0%)        0/3 (0%)",
        ]
    );
    // Without the flag the table is not printed; the warning is.
    let plain = common::call(&["check", "--content", content], data.path());
    assert!(!plain.stdout.contains("whole course"), "{}", plain.stdout);
    has(&plain.stdout, "strictly longest in 2 of 3");
}

#[test]
fn a_labs_way_is_guided_or_challenge_and_check_says_so() {
    let challenge = LAB_OK
        .replace(
            "briefing = \"The node is broken.\"\n",
            "briefing = \"The node is broken.\"\nway = \"challenge\"\nlearned = \"Groups.\"\n",
        )
        .replace(
            "title = \"In render\"\n",
            "title = \"In render\"\ngoal = \"May open the GPU\"\n",
        );
    assert_eq!(lab_tree(&challenge), vec![]);
    let (course, _) = content::load(&tree(&[
        ("lessons/01-l1/lesson.toml", LESSON_META),
        ("lessons/01-l1/en.md", LESSON_BODY),
        ("lessons/01-l1/lab-lab1.toml", &challenge),
    ]));
    let lab = course.lab("lab1").expect("loaded");
    assert_eq!(lab.way, content::LabWay::Challenge);
    assert!(lab.learned.is_some() && lab.steps[0].goal.is_some());
    let (plain, _) = content::load(&tree(&[
        ("lessons/01-l1/lesson.toml", LESSON_META),
        ("lessons/01-l1/en.md", LESSON_BODY),
        ("lessons/01-l1/lab-lab1.toml", LAB_OK),
    ]));
    assert_eq!(plain.lab("lab1").unwrap().way, content::LabWay::Guided);
    let bad = LAB_OK.replace(
        "briefing = \"The node is broken.\"\n",
        "briefing = \"The node is broken.\"\nway = \"hard\"\n",
    );
    let errors: Vec<String> = lab_tree(&bad)
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(en)
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    has(
        &errors[0],
        "\"hard\" is not a way to take a lab; use guided",
    );
}

/// The app's start reads the built-in course without the passes that only look for mistakes
/// (`check` and the tests run them): it must still hold every item, with the same content, so
/// that nothing is missing on screen and progress keyed by content still matches.
#[test]
fn the_app_start_reads_the_same_shipped_course_that_check_checks() {
    use rocm_learn::events::content_hash;
    use rocm_learn::items::{ItemKind, Place};
    let (checked, _) = content::load(&ContentTree::embedded());
    let (started, _, diags) = content::load_pack(&ContentTree::embedded());
    assert_eq!(diags.error_count(), 0, "{:#?}", diags.items);
    let ids = |c: &content::Course| {
        (
            c.lessons.iter().map(|l| l.id.clone()).collect::<Vec<_>>(),
            c.quizzes.iter().map(|q| q.id.clone()).collect::<Vec<_>>(),
            c.labs.iter().map(|l| l.id.clone()).collect::<Vec<_>>(),
            c.glossary.iter().map(|t| t.id.clone()).collect::<Vec<_>>(),
        )
    };
    assert_eq!(ids(&started), ids(&checked));
    // Counted at start (the home screen shows the total), built when a quiz opens.
    let counts = |c: &content::Course| {
        c.quizzes
            .iter()
            .map(|q| q.questions.len())
            .collect::<Vec<_>>()
    };
    assert_eq!(counts(&started), counts(&checked));
    let (lessons, quizzes, labs, _) = ids(&checked);
    let places = (lessons.into_iter().map(|id| (ItemKind::Lesson, id)))
        .chain(quizzes.into_iter().map(|id| (ItemKind::Quiz, id)))
        .chain(labs.into_iter().map(|id| (ItemKind::Lab, id)));
    for (kind, id) in places {
        let place = Place { kind, id };
        let a = content_hash(&checked, &place);
        assert!(a.is_some(), "{place:?}");
        assert_eq!(content_hash(&started, &place), a, "{place:?}");
    }
}

/// A pack is foreign content: the app checks all of it, lesson text included, before it starts.
#[test]
fn a_pack_with_a_broken_link_in_a_lesson_page_is_refused_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let lesson = dir.path().join("lessons/01-l1");
    std::fs::create_dir_all(&lesson).unwrap();
    std::fs::write(lesson.join("lesson.toml"), "id = \"l1\"\n").unwrap();
    let body = "+++\ntitle = \"L\"\n+++\n\nSee [the lab](lab:ghost).\n";
    for lang in ["en", "ja", "ko"] {
        std::fs::write(lesson.join(format!("{lang}.md")), body).unwrap();
    }
    let data = tempfile::tempdir().unwrap();
    let out = common::call(
        &["lesson", "l1", "--content", dir.path().to_str().unwrap()],
        data.path(),
    );
    assert_eq!(out.code, 1, "{}", out.stdout);
    has(&out.stderr, "en.md:5:5: error:");
    has(&out.stderr, "ghost");
}

/// Lesson pages are normalised when they are read, as every other text is when it is loaded.
#[test]
fn a_lesson_page_in_decomposed_hangul_reads_composed() {
    let composed = "한국어";
    let decomposed = "\u{1112}\u{1161}\u{11AB}\u{1100}\u{116E}\u{11A8}\u{110B}\u{1165}";
    assert_ne!(composed, decomposed);
    let page = format!("+++\ntitle = \"L\"\n+++\n\n{decomposed}\n");
    let (course, _) = content::load(&tree(&[
        ("lessons/01-l1/lesson.toml", "id = \"l1\"\n"),
        ("lessons/01-l1/en.md", &page),
        ("lessons/01-l1/ja.md", &page),
        ("lessons/01-l1/ko.md", &page),
    ]));
    let body = course.lesson("l1").unwrap().body.get(Lang::Ko);
    assert!(body.contains(composed), "{body:?}");
}
