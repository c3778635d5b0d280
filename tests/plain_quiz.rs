//! Plain quiz mode driven through stdin, in English, Japanese and Korean.

mod common;

use common::run_pack as run;

const QUIZ: &str = "deploy-workflow";
// The right options of the starter quiz, in order.
const ALL_RIGHT: &str = "2\nb\n3\nB)\n2\n";

#[test]
fn a_right_answer_is_confirmed_and_explained() {
    let data = tempfile::tempdir().unwrap();
    let out = run(&["quiz", QUIZ], ALL_RIGHT, data.path(), &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("Correct: 2) The support matrix"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("The support matrix lists the GPUs"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("Score: 5 of 5"), "{}", out.stdout);
    assert!(
        !out.stdout.contains("--retry-wrong"),
        "nothing to retry: {}",
        out.stdout
    );
}

#[test]
fn a_wrong_answer_explains_both_the_choice_and_the_right_option() {
    let data = tempfile::tempdir().unwrap();
    let out = run(&["quiz", QUIZ], "a\nb\n3\nB\n2\n", data.path(), &[]);
    let s = &out.stdout;
    assert!(
        s.contains("Not quite. You chose 1) The HIP runtime API"),
        "{s}"
    );
    assert!(
        s.contains("HIP is what programs call once ROCm is running"),
        "{s}"
    );
    assert!(
        s.contains("The right answer is 2) The support matrix"),
        "{s}"
    );
    assert!(s.contains("The support matrix lists the GPUs"), "{s}");
    assert!(s.contains("Score: 4 of 5"), "{s}");
    assert!(
        s.contains("rocm-learn quiz deploy-workflow --retry-wrong"),
        "{s}"
    );
}

#[test]
fn an_unreadable_answer_asks_again_without_losing_the_run() {
    let data = tempfile::tempdir().unwrap();
    let out = run(
        &["quiz", QUIZ],
        "7\nmaybe\n\n2\nb\n3\nb\n2\n",
        data.path(),
        &[],
    );
    let s = &out.stdout;
    assert!(
        s.contains(
            "\"7\" is not one of the options: type a number from 1 to 4 or a letter from a to d."
        ),
        "{s}"
    );
    assert!(s.contains("\"maybe\" is not an answer"), "{s}");
    assert!(s.contains("Type the number or letter of an option"), "{s}");
    assert!(
        s.contains("Score: 5 of 5"),
        "the run went on to the end: {s}"
    );
    assert_eq!(
        s.matches("Question 1 of 5").count(),
        1,
        "the question is not restarted"
    );
}

#[test]
fn end_of_input_mid_quiz_ends_with_the_partial_result() {
    let data = tempfile::tempdir().unwrap();
    let out = run(&["quiz", QUIZ, "--json"], "2\na\n", data.path(), &[]);
    assert_eq!(out.code, 0);
    assert!(
        out.stderr
            .contains("Stopped after 2 of 5 questions; 1 right so far."),
        "{}",
        out.stderr
    );
    let v: serde_json::Value =
        serde_json::from_str(out.stdout.trim()).expect("one JSON document on stdout");
    assert_eq!(v["complete"], false);
    assert_eq!(v["answered"], 2);
    assert_eq!(v["score"], 1);
    assert_eq!(v["total"], 5);
    assert_eq!(v["questions"][1]["chosen"], 1);
    assert_eq!(v["questions"][1]["correct"], 2);
    assert_eq!(v["questions"][2]["chosen"], serde_json::Value::Null);
}

#[test]
fn json_output_is_one_stable_document() {
    let data = tempfile::tempdir().unwrap();
    let out = run(
        &["quiz", QUIZ, "--json", "--lang", "ko"],
        "2\n1\n3\n2\n2\n",
        data.path(),
        &[],
    );
    assert_eq!(out.code, 0);
    let v: serde_json::Value = serde_json::from_str(out.stdout.trim()).unwrap();
    assert_eq!(
        v,
        serde_json::json!({
            "quiz": "deploy-workflow", "lang": "ko", "score": 4, "total": 5, "answered": 5, "complete": true,
            "questions": [
                {"id": "gatekeeper", "chosen": 2, "correct": 2, "right": true},
                {"id": "repo-bootstrap", "chosen": 1, "correct": 2, "right": false},
                {"id": "hipcc-path", "chosen": 3, "correct": 3, "right": true},
                {"id": "kfd-group", "chosen": 2, "correct": 2, "right": true},
                {"id": "rocminfo-vs-smi", "chosen": 2, "correct": 2, "right": true}
            ]
        })
    );
    assert!(
        out.stderr.contains("점수: 5문제 중 4문제 정답"),
        "the conversation went to stderr: {}",
        out.stderr
    );
}

#[test]
fn japanese_run_with_full_width_and_ime_answers() {
    let data = tempfile::tempdir().unwrap();
    // "２" is a full-width digit; "あ" is what the A key gives with a romaji IME still on.
    let out = run(
        &["quiz", QUIZ, "--lang", "ja"],
        "２\nあ\n",
        data.path(),
        &[],
    );
    let s = &out.stdout;
    assert!(s.contains("正解: 2) サポートマトリクス"), "{s}");
    assert!(
        s.contains("残念、不正解です。あなたの解答: 1) カーネルドライバをソースからコンパイルする"),
        "{s}"
    );
    assert!(
        s.contains("正解は 2) apt が AMD のリポジトリを信頼できるようにする"),
        "{s}"
    );
    assert!(s.contains("全 5 問中 2 問で中断しました"), "{s}");
}

#[test]
fn korean_run_with_hangul_ime_letters() {
    let data = tempfile::tempdir().unwrap();
    // ㅠ is the B key on a 두벌식 keyboard.
    let out = run(&["quiz", QUIZ, "--lang", "ko"], "ㅠ\n", data.path(), &[]);
    let s = &out.stdout;
    assert!(s.contains("정답: 2) 지원 매트릭스"), "{s}");
    assert!(s.contains("5문제 중 2번"), "moved on to question 2: {s}");
}

#[test]
fn retry_wrong_asks_only_what_was_missed_last_time() {
    let data = tempfile::tempdir().unwrap();
    run(&["quiz", QUIZ], "1\nb\n1\nb\n2\n", data.path(), &[]);
    let out = run(&["quiz", QUIZ, "--retry-wrong"], "2\n3\n", data.path(), &[]);
    let s = &out.stdout;
    assert!(
        s.contains("Asking again the 2 questions you answered wrong last time."),
        "{s}"
    );
    assert!(s.contains("Question 1 of 2"), "{s}");
    assert!(
        s.contains("decides, before anything is installed"),
        "first wrong one: {s}"
    );
    assert!(s.contains("command not found"), "second wrong one: {s}");
    assert!(s.contains("Score: 2 of 2"), "{s}");
    let again = run(&["quiz", QUIZ, "--retry-wrong"], "", data.path(), &[]);
    assert!(
        again.stdout.contains("nothing to retry"),
        "{}",
        again.stdout
    );
}

#[test]
fn retry_wrong_before_any_attempt_runs_the_whole_quiz() {
    let data = tempfile::tempdir().unwrap();
    let out = run(
        &["quiz", QUIZ, "--retry-wrong"],
        ALL_RIGHT,
        data.path(),
        &[],
    );
    assert!(
        out.stdout.contains("You have not taken this quiz yet"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("Score: 5 of 5"), "{}", out.stdout);
}

#[test]
fn an_unknown_quiz_id_lists_the_ones_that_exist() {
    let data = tempfile::tempdir().unwrap();
    let out = run(&["quiz", "deploy"], "", data.path(), &[]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("There is no quiz \"deploy\". Available: deploy-workflow"),
        "{}",
        out.stderr
    );
}

#[test]
fn list_shows_the_catalogue_in_text_and_json() {
    let data = tempfile::tempdir().unwrap();
    let out = run(&["list", "--json", "--lang", "ja"], "", data.path(), &[]);
    assert_eq!(out.code, 0);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["lessons"][0]["id"], "what-is-rocm");
    assert_eq!(v["lessons"][0]["title"], "ROCm とは何か: 5 階建てのビル");
    assert_eq!(
        v["lessons"][0]["languages"],
        serde_json::json!(["en", "ja", "ko"])
    );
    assert_eq!(v["quizzes"][0]["questions"], 5);
    let text = run(&["list"], "", data.path(), &[]);
    assert!(
        text.stdout
            .contains("deploy-workflow  The ROCm deployment workflow (5 questions)"),
        "{}",
        text.stdout
    );
}

#[test]
fn a_lesson_reads_as_plain_text_with_its_terms() {
    let data = tempfile::tempdir().unwrap();
    let out = run(&["lesson", "what-is-rocm", "--plain"], "", data.path(), &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let s = &out.stdout;
    assert!(
        s.starts_with("What ROCm is: the five-floor building\n====="),
        "{s}"
    );
    assert!(!s.contains("]("), "no raw Markdown links: {s}");
    assert!(s.contains("Terms in this lesson"), "{s}");
    assert!(
        s.contains("KFD (Operating system): Kernel Fusion Driver"),
        "{s}"
    );
    assert!(
        s.contains("deployment workflow quiz (quiz: rocm-learn quiz deploy-workflow)"),
        "{s}"
    );
}
