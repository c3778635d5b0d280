//! Plain quiz mode driven through stdin, in English, Japanese and Korean.

mod common;

use common::{has, has_all, lacks, run_pack as run};

const QUIZ: &str = "deploy-workflow";
// The right options of the starter quiz, in order.
const ALL_RIGHT: &str = "2\nb\n3\nB)\n2\n";

/// The quiz with options in file order (seed 0) and `extra` arguments, answered with `stdin`,
/// by a learner with no progress yet.
fn quiz(extra: &[&str], stdin: &str) -> common::Run {
    let data = tempfile::tempdir().unwrap();
    let mut args = vec!["quiz", QUIZ, "--seed", "0"];
    args.extend_from_slice(extra);
    run(&args, stdin, data.path(), &[])
}

#[test]
fn a_right_answer_is_confirmed_and_explained() {
    let out = quiz(&[], ALL_RIGHT);
    assert_eq!(out.code, 0, "{}", out.stderr);
    has_all(
        &out.stdout,
        &[
            "Correct: 2) The support matrix",
            "The support matrix lists the GPUs",
            "Score: 5 of 5",
        ],
    );
    lacks(&out.stdout, "--retry-wrong");
}

#[test]
fn a_wrong_answer_explains_both_the_choice_and_the_right_option() {
    let s = &quiz(&[], "a\nb\n3\nB\n2\n").stdout;
    has_all(s, &common::FIRST_ANSWER_WRONG);
    has(s, "Score: 4 of 5");
    // The pack named with --content is named again in the suggestion.
    has(
        s,
        &format!(
            "rocm-learn --content {} quiz deploy-workflow --retry-wrong",
            common::PACK
        ),
    );
}

#[test]
fn an_unreadable_answer_asks_again_without_losing_the_run() {
    let s = &quiz(&[], "7\nmaybe\n\n2\nb\n3\nb\n2\n").stdout;
    has_all(
        s,
        &[
            "\"7\" is not one of the options: type a number from 1 to 4 or a letter from a to d.",
            "\"maybe\" is not an answer",
            "Type the number or letter of an option",
            // The run went on to the end.
            "Score: 5 of 5",
        ],
    );
    assert_eq!(
        s.matches("Question 1 of 5").count(),
        1,
        "the question is not restarted"
    );
}

#[test]
fn end_of_input_mid_quiz_ends_with_the_partial_result() {
    let out = quiz(&["--json"], "2\na\n");
    assert_eq!(out.code, 0);
    has(
        &out.stderr,
        "Stopped after 2 of 5 questions; 1 right so far.",
    );
    let v: serde_json::Value =
        serde_json::from_str(out.stdout.trim()).expect("one JSON document on stdout");
    assert_eq!(v["complete"], false);
    assert_eq!(v["answered"], 2);
    assert_eq!(v["score"], 1);
    assert_eq!(v["total"], 5);
    assert_eq!(v["questions"][1]["chosen"], "a");
    assert_eq!(v["questions"][1]["correct"], "b");
    assert_eq!(v["questions"][2]["chosen"], serde_json::Value::Null);
}

#[test]
fn json_output_is_one_stable_document() {
    let out = quiz(&["--json", "--lang", "ko"], "2\n1\n3\n2\n2\n");
    assert_eq!(out.code, 0);
    let v: serde_json::Value = serde_json::from_str(out.stdout.trim()).unwrap();
    for key in [
        "quiz", "lang", "seed", "score", "total", "answered", "complete",
    ] {
        assert!(v.get(key).is_some(), "{key} missing: {v}");
    }
    assert_eq!(v["lang"], "ko");
    assert_eq!(
        (v["score"].as_u64(), v["total"].as_u64()),
        (Some(4), Some(5))
    );
    let q = &v["questions"][1];
    assert_eq!(q["id"], "repo-bootstrap");
    assert_eq!(
        (&q["chosen"], &q["correct"], &q["right"]),
        (&"a".into(), &"b".into(), &false.into())
    );
    assert_eq!(q["shown"], serde_json::json!(["a", "b", "c", "d"]));
    // Every option, explained: the chosen one, the right one, then the others as shown.
    let ids: Vec<&str> = q["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["a", "b", "c", "d"]);
    assert!(
        q["options"][0]["why"].as_str().unwrap().contains("DKMS"),
        "{q}"
    );
    // Markdown becomes plain text: no backticks in prompts or explanations.
    let hip = &v["questions"][2];
    assert!(!hip["prompt"].as_str().unwrap().contains('`'), "{hip}");
    assert!(
        hip["prompt"].as_str().unwrap().contains("hipcc --version"),
        "{hip}"
    );
    assert!(
        out.stderr.contains("점수: 5문제 중 4문제 정답"),
        "the conversation went to stderr: {}",
        out.stderr
    );
}

#[test]
fn japanese_run_with_full_width_and_ime_answers() {
    // "２" is a full-width digit; "あ" is what the A key gives with a romaji IME still on.
    let s = &quiz(&["--lang", "ja"], "２\nあ\n").stdout;
    has_all(
        s,
        &[
            "正解: 2) サポートマトリクス",
            "残念、不正解です。あなたの解答: 1) カーネルドライバをソースからコンパイルする",
            "正解は 2) apt が AMD のリポジトリを信頼できるようにする",
            "全 5 問中 2 問で中断しました",
        ],
    );
}

#[test]
fn korean_run_with_hangul_ime_letters() {
    // ㅠ is the B key on a 두벌식 keyboard.
    let s = &quiz(&["--lang", "ko"], "ㅠ\n").stdout;
    // Then on to question 2.
    has_all(s, &["정답: 2) 지원 매트릭스", "5문제 중 2번"]);
}

#[test]
fn retry_wrong_asks_only_what_was_missed_last_time() {
    let data = tempfile::tempdir().unwrap();
    run(
        &["quiz", QUIZ, "--seed", "0"],
        "1\nb\n1\nb\n2\n",
        data.path(),
        &[],
    );
    let out = run(
        &["quiz", QUIZ, "--seed", "0", "--retry-wrong"],
        "2\n3\n",
        data.path(),
        &[],
    );
    has_all(
        &out.stdout,
        &[
            "Asking again the 2 questions you answered wrong last time.",
            "Question 1 of 2",
            // The first wrong one, then the second.
            "decides, before anything is installed",
            "command not found",
            "Score: 2 of 2",
        ],
    );
    let again = run(
        &["quiz", QUIZ, "--seed", "0", "--retry-wrong"],
        "",
        data.path(),
        &[],
    );
    has(&again.stdout, "nothing to retry");
}

#[test]
fn retry_wrong_before_any_attempt_runs_the_whole_quiz() {
    let out = quiz(&["--retry-wrong"], ALL_RIGHT);
    has_all(
        &out.stdout,
        &["You have not taken this quiz yet", "Score: 5 of 5"],
    );
}

#[test]
fn an_unknown_quiz_id_lists_the_ones_that_exist() {
    let data = tempfile::tempdir().unwrap();
    let out = run(&["quiz", "deploy"], "", data.path(), &[]);
    assert_eq!(out.code, 2);
    has(
        &out.stderr,
        "There is no quiz \"deploy\". Available: deploy-workflow",
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
    has(
        &text.stdout,
        "deploy-workflow  The ROCm deployment workflow (5 questions)",
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
    // No raw Markdown links.
    lacks(s, "](");
    has_all(
        s,
        &[
            "Terms in this lesson",
            "KFD (Operating system): Kernel Fusion Driver",
        ],
    );
    has(
        s,
        &format!(
            "deployment workflow quiz (quiz: rocm-learn --content {} quiz deploy-workflow)",
            common::PACK
        ),
    );
}

#[test]
fn after_an_answer_every_option_is_explained_chosen_then_right_then_the_rest() {
    let s = &quiz(&[], "d\n").stdout;
    let at = |needle: &str| {
        s.find(needle)
            .unwrap_or_else(|| panic!("{needle:?} is not in {s}"))
    };
    let chosen = at("The AMDGPU backend generates GPU code");
    let right = at("The support matrix lists the GPUs");
    let others = at("The other options:");
    let first_other = at("HIP is what programs call once ROCm is running");
    let second_other = at("The key proves that packages really come from AMD");
    assert!(chosen < right && right < others, "{s}");
    assert!(others < first_other && first_other < second_other, "{s}");
}

#[test]
fn a_seed_repeats_the_option_order_and_the_answer_is_read_in_that_order() {
    let data = tempfile::tempdir().unwrap();
    let first = run(&["quiz", QUIZ, "--seed", "7"], "", data.path(), &[]);
    let again = run(&["quiz", QUIZ, "--seed", "7"], "", data.path(), &[]);
    assert_eq!(first.stdout, again.stdout, "the same seed, the same order");
    let orders: std::collections::BTreeSet<String> = (1..12)
        .map(|seed| {
            let out = run(
                &["quiz", QUIZ, "--seed", &seed.to_string()],
                "",
                data.path(),
                &[],
            );
            out.stdout
                .lines()
                .filter(|l| l.starts_with("  ") && l.contains(") "))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect();
    assert!(orders.len() > 1, "seeds draw different orders: {orders:?}");
    // Whatever the order, the number typed is the number shown.
    let out = run(&["quiz", QUIZ, "--seed", "7"], "", data.path(), &[]);
    let shown = out
        .stdout
        .lines()
        .find(|l| l.contains(") The support matrix"))
        .unwrap()
        .trim()
        .split(')')
        .next()
        .unwrap()
        .to_string();
    let answered = run(
        &["quiz", QUIZ, "--seed", "7"],
        &format!("{shown}\n"),
        data.path(),
        &[],
    );
    assert!(
        answered
            .stdout
            .contains(&format!("Correct: {shown}) The support matrix")),
        "{}",
        answered.stdout
    );
}

#[test]
fn plain_mode_shows_markdown_as_text() {
    let s = &quiz(&[], "2\nb\n1\n").stdout;
    has(
        s,
        "yet hipcc --version answers bash: hipcc: command not found.",
    );
    // No backticks left.
    lacks(s, "`");
}
