//! Plain quiz mode driven through stdin, in English, Japanese and Korean.

mod common;

use common::run_pack as run;

const QUIZ: &str = "deploy-workflow";
// The right options of the starter quiz, in order.
const ALL_RIGHT: &str = "2\nb\n3\nB)\n2\n";

#[test]
fn a_right_answer_is_confirmed_and_explained() {
    let data = tempfile::tempdir().unwrap();
    let out = run(&["quiz", QUIZ, "--seed", "0"], ALL_RIGHT, data.path(), &[]);
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
    let out = run(
        &["quiz", QUIZ, "--seed", "0"],
        "a\nb\n3\nB\n2\n",
        data.path(),
        &[],
    );
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
        // The pack named with --content is named again in the suggestion.
        s.contains(&format!(
            "rocm-learn --content {} quiz deploy-workflow --retry-wrong",
            common::PACK
        )),
        "{s}"
    );
}

#[test]
fn an_unreadable_answer_asks_again_without_losing_the_run() {
    let data = tempfile::tempdir().unwrap();
    let out = run(
        &["quiz", QUIZ, "--seed", "0"],
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
    let out = run(
        &["quiz", QUIZ, "--seed", "0", "--json"],
        "2\na\n",
        data.path(),
        &[],
    );
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
    assert_eq!(v["questions"][1]["chosen"], "a");
    assert_eq!(v["questions"][1]["correct"], "b");
    assert_eq!(v["questions"][2]["chosen"], serde_json::Value::Null);
}

#[test]
fn json_output_is_one_stable_document() {
    let data = tempfile::tempdir().unwrap();
    let out = run(
        &["quiz", QUIZ, "--seed", "0", "--json", "--lang", "ko"],
        "2\n1\n3\n2\n2\n",
        data.path(),
        &[],
    );
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
    let data = tempfile::tempdir().unwrap();
    // "２" is a full-width digit; "あ" is what the A key gives with a romaji IME still on.
    let out = run(
        &["quiz", QUIZ, "--seed", "0", "--lang", "ja"],
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
    let out = run(
        &["quiz", QUIZ, "--seed", "0", "--lang", "ko"],
        "ㅠ\n",
        data.path(),
        &[],
    );
    let s = &out.stdout;
    assert!(s.contains("정답: 2) 지원 매트릭스"), "{s}");
    assert!(s.contains("5문제 중 2번"), "moved on to question 2: {s}");
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
    let again = run(
        &["quiz", QUIZ, "--seed", "0", "--retry-wrong"],
        "",
        data.path(),
        &[],
    );
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
        &["quiz", QUIZ, "--seed", "0", "--retry-wrong"],
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
        s.contains(&format!(
            "deployment workflow quiz (quiz: rocm-learn --content {} quiz deploy-workflow)",
            common::PACK
        )),
        "{s}"
    );
}

#[test]
fn after_an_answer_every_option_is_explained_chosen_then_right_then_the_rest() {
    let data = tempfile::tempdir().unwrap();
    let out = run(
        &["quiz", QUIZ, "--seed", "0"],
        "d
",
        data.path(),
        &[],
    );
    let s = &out.stdout;
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
    let data = tempfile::tempdir().unwrap();
    let out = run(
        &["quiz", QUIZ, "--seed", "0"],
        "2\nb\n1\n",
        data.path(),
        &[],
    );
    let s = &out.stdout;
    assert!(
        s.contains("yet hipcc --version answers bash: hipcc: command not found."),
        "{s}"
    );
    assert!(!s.contains('`'), "no backticks left: {s}");
}
