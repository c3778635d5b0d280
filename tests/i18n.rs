//! UI strings: every id the code uses exists in all three languages, and the language is
//! chosen by --lang, then ROCM_LEARN_LANG, then the system locale, then English.

mod common;

use common::has;

use std::collections::BTreeSet;

use rocm_learn::content::{self, ContentTree};
use rocm_learn::i18n::I18n;
use rocm_learn::lang::Lang;

/// String literals in the sources that look like message ids: lowercase words joined by
/// dashes, starting with a word the English catalogue uses as a prefix (`quiz-`, `lab-`,
/// `doctor-` ...). So a new message id that was never written into the catalogues fails the
/// test, while names like `amd-smi` or `hsa-init-failed` are left alone.
fn ids_used_in_code() -> BTreeSet<String> {
    let prefixes: BTreeSet<String> = catalogue_ids()
        .into_iter()
        .filter_map(|id| id.split_once('-').map(|(p, _)| p.to_string()))
        .collect();
    let mut ids = BTreeSet::new();
    let mut stack = vec![std::path::PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src"
    ))];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                // The simulated tools print what the real ones print: English, by design.
                if !path.ends_with("sim") {
                    stack.push(path);
                }
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let parts: Vec<&str> = text.split('"').collect();
            for (i, piece) in parts.iter().enumerate().skip(1).step_by(2) {
                // A command-line flag's name (`.long("lab-memory")`) is not a message.
                if parts[i - 1].ends_with(".long(") {
                    continue;
                }
                let shaped = piece.contains('-')
                    && !piece.starts_with('-')
                    && !piece.ends_with('-')
                    && !piece.contains("--")
                    && piece
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
                let prefixed = piece
                    .split_once('-')
                    .is_some_and(|(p, _)| prefixes.contains(p));
                if shaped && prefixed {
                    ids.insert(piece.to_string());
                }
            }
        }
    }
    ids
}

/// Every message id defined in the English catalogue files.
fn catalogue_ids() -> Vec<String> {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/i18n/en"));
    let mut ids = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        for line in text.lines() {
            if let Some((id, _)) = line.split_once(" = ")
                && !id.starts_with(['#', ' ', '-'])
            {
                ids.push(id.trim().to_string());
            }
        }
    }
    ids
}

#[test]
fn every_message_the_code_uses_exists_in_every_language() {
    let i18n = I18n::new(Lang::En);
    let used = ids_used_in_code();
    assert!(used.len() > 150, "the scan found the ids: {used:?}");
    let mut missing = Vec::new();
    for id in &used {
        for lang in Lang::ALL {
            if !i18n.has(lang, id) {
                missing.push(format!("{lang}: {id}"));
            }
        }
    }
    assert!(missing.is_empty(), "missing UI strings: {missing:#?}");
}

#[test]
fn the_shipped_catalogue_is_complete_and_parses() {
    let (_, diags) = content::load(&ContentTree::embedded());
    let ftl: Vec<_> = diags
        .items
        .iter()
        .filter(|d| d.path.starts_with("i18n/"))
        .collect();
    assert!(ftl.is_empty(), "{ftl:#?}");
}

#[test]
fn messages_carry_no_bidi_isolation_marks() {
    for lang in Lang::ALL {
        let s = I18n::new(lang).ta("quiz-score", &[("score", 3.into()), ("total", 5.into())]);
        assert!(!s.contains('\u{2068}') && !s.contains('\u{2069}'), "{s:?}");
        assert!(s.contains('3') && s.contains('5'), "{s}");
    }
}

#[test]
fn an_unknown_id_shows_itself_instead_of_panicking() {
    assert_eq!(I18n::new(Lang::Ja).t("no-such-message"), "no-such-message");
}

fn intro_language(env: &[(&str, &str)], args: &[&str]) -> String {
    let data = tempfile::tempdir().unwrap();
    let mut all = vec!["quiz", "deploy-workflow"];
    all.extend_from_slice(args);
    let out = common::run(&all, "", data.path(), env);
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout.lines().next().unwrap_or_default().to_string()
}

#[test]
fn the_flag_wins_over_the_environment_and_the_locale() {
    let line = intro_language(
        &[("ROCM_LEARN_LANG", "ja"), ("LANG", "ko_KR.UTF-8")],
        &["--lang", "en"],
    );
    assert!(
        line.starts_with("Quiz: The ROCm deployment workflow"),
        "{line}"
    );
}

#[test]
fn the_environment_wins_over_the_locale() {
    let line = intro_language(&[("ROCM_LEARN_LANG", "ja"), ("LANG", "ko_KR.UTF-8")], &[]);
    assert!(line.starts_with("クイズ: ROCm デプロイの流れ"), "{line}");
}

#[test]
fn the_system_locale_is_used_when_nothing_else_is_set() {
    let line = intro_language(&[("LC_ALL", ""), ("LANG", "ko_KR.UTF-8")], &[]);
    assert!(line.starts_with("퀴즈: ROCm 배포 절차"), "{line}");
}

#[test]
fn the_c_locale_means_english() {
    let line = intro_language(&[("LANG", "C"), ("LC_ALL", "C")], &[]);
    assert!(line.starts_with("Quiz:"), "{line}");
}

#[test]
fn an_unusable_environment_value_is_named_and_skipped() {
    let data = tempfile::tempdir().unwrap();
    let out = common::run(
        &["quiz", "deploy-workflow"],
        "",
        data.path(),
        &[
            ("ROCM_LEARN_LANG", "fr"),
            ("LC_ALL", ""),
            ("LANG", "ja_JP.UTF-8"),
        ],
    );
    assert!(
        out.stdout.starts_with("クイズ:"),
        "falls through to the locale: {}",
        out.stdout
    );
    has(&out.stderr, "ROCM_LEARN_LANG に「fr」");
}

#[test]
fn help_is_in_the_chosen_language() {
    let data = tempfile::tempdir().unwrap();
    let out = common::call(&["--lang", "ko", "--help"], data.path());
    assert_eq!(out.code, 0);
    has(&out.stdout, "사용법: rocm-learn");
    has(&out.stdout, "퀴즈를 풉니다");
    let out = common::call(&["--lang", "xx", "list"], data.path());
    assert_eq!(out.code, 2, "a language we do not speak is a usage error");
    has(&out.stderr, "xx");
}

#[test]
fn digits_with_a_leading_zero_stay_as_written() {
    let m = rocm_learn::content::Msg::new("lab-why-device-mode")
        .arg("device", "/dev/kfd")
        .arg("mode", "0660")
        .arg("want", "0666");
    let s = I18n::new(Lang::En).msg(&m);
    has(&s, "mode 0660, not 0666");
}
