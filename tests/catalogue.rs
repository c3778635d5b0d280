//! The shipped course is what the course issues ask for: thirteen lessons in three languages,
//! each with a quiz, at least 104 questions explained option by option in every language, the
//! labs linked from their lessons (their solutions pass in tests/lab_scripts.rs), a glossary in
//! three languages, and a support matrix. And its quizzes cannot be passed by picking options
//! by their length.

use rocm_learn::content::{self, ContentTree, option_stats};
use rocm_learn::lang::Lang;

/// Fails naming `what` and the language unless `has` holds for every language.
#[track_caller]
fn in_every_language(what: &str, has: impl Fn(Lang) -> bool) {
    for lang in Lang::ALL {
        assert!(has(lang), "{what} lacks {lang}");
    }
}

#[test]
fn the_course_is_complete_in_three_languages() {
    let (course, diags) = content::load(&ContentTree::embedded());
    assert!(
        diags.items.is_empty(),
        "check must be clean: {:#?}",
        diags.items
    );

    let ids: Vec<&str> = course.lessons.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "what-is-rocm",
            "layers",
            "history",
            "deploy",
            "permissions",
            "finding-tools",
            "verify",
            "supported",
            "kubernetes",
            "containers",
            "choosing-gpu",
            "driver-wont-load",
            "releases",
            "validate-node"
        ],
        "the fourteen lessons, in order: history right after the layers whose names it explains"
    );
    for l in &course.lessons {
        in_every_language(&l.id, |lang| l.body.has(lang) && l.title.has(lang));
        let quiz = l
            .quiz
            .as_deref()
            .unwrap_or_else(|| panic!("{} has no quiz", l.id));
        assert_eq!(
            course.quiz(quiz).and_then(|q| q.lesson.as_deref()),
            Some(l.id.as_str()),
            "{quiz} belongs to {}",
            l.id
        );
    }

    let questions: usize = course.quizzes.iter().map(|q| q.questions.len()).sum();
    assert!(questions >= 104, "{questions} questions");
    for q in course.quizzes.iter().flat_map(|q| &q.questions) {
        assert!(
            q.options.len() >= 3,
            "{}: {} options",
            q.id,
            q.options.len()
        );
        for o in &q.options {
            in_every_language(&format!("{}: an option", q.id), |lang| {
                o.text.has(lang) && o.why.has(lang)
            });
        }
    }
    // Some questions make the learner read real tool output.
    let with_output = course
        .quizzes
        .iter()
        .flat_map(|q| &q.questions)
        .filter(|q| q.excerpt.is_some())
        .count();
    assert!(
        with_output >= 10,
        "{with_output} questions read real output"
    );

    let labs = [
        ("fresh-node-install", "deploy"),
        ("hsa-init-failed", "permissions"),
        ("kfd-udev-rules", "permissions"),
        ("hipcc-not-found", "finding-tools"),
        ("amdgpu-not-loaded", "verify"),
        ("k8s-gpu-pod", "kubernetes"),
        ("container-gpu", "containers"),
        ("pytorch-on-rdna2", "choosing-gpu"),
        ("amdgpu-wont-load", "driver-wont-load"),
        ("two-rocm-releases", "releases"),
        ("rocm-cli-runtime", "releases"),
    ];
    for (lab, lesson) in labs {
        let l = course
            .lab(lab)
            .unwrap_or_else(|| panic!("lab {lab} missing"));
        assert_eq!(
            l.lesson.as_deref(),
            Some(lesson),
            "{lab} lives beside its lesson"
        );
        assert!(
            course.lesson(lesson).unwrap().labs.iter().any(|x| x == lab),
            "{lesson} links {lab}"
        );
        for lang in Lang::ALL {
            assert!(
                l.briefing.has(lang) && l.steps.iter().all(|s| s.title.has(lang)),
                "{lab} lacks {lang}"
            );
        }
        assert!(!l.solution_commands.is_empty());
    }

    assert!(
        course.glossary.len() >= 60,
        "{} glossary terms",
        course.glossary.len()
    );
    for t in &course.glossary {
        for lang in Lang::ALL {
            assert!(t.definition.has(lang), "{} lacks a {lang} definition", t.id);
        }
    }
    assert!(
        course.matrix.releases.len() >= 4 && course.matrix.gpus.iter().any(|g| g.id == "gfx900")
    );
}

#[test]
fn the_longest_option_is_right_in_at_most_30_percent_of_questions_in_every_language() {
    let (course, _) = content::load(&ContentTree::embedded());
    for lang in Lang::ALL {
        let (longest, questions) = option_stats::total(&course.quizzes, lang);
        assert!(
            longest * 10 <= questions * 3,
            "{lang}: the right option is the strictly longest in {longest} of {questions} questions"
        );
        for quiz in &course.quizzes {
            let s = option_stats::of_quiz(quiz, lang);
            assert!(!s.too_many(), "{lang}: {s:?}");
        }
    }
}

#[test]
fn the_course_gives_no_cue_by_length() {
    // The bound check enforces: the right option is the longest (ties counted) in at most a
    // quarter of the questions. (Positions are no cue: options are shown shuffled.)
    let (course, _) = content::load(&ContentTree::embedded());
    let cues = option_stats::Cues::of(&course.quizzes);
    assert!(cues.applies());
    for lang in Lang::ALL {
        assert!(
            !cues.longest_too_many(lang),
            "{lang}: the right option is the longest or tied in {}",
            cues.share(cues.longest[lang as usize])
        );
    }
    // Counted in characters instead of screen columns (as a reviewer counting code points
    // would), the course stays within the quarter too.
    let questions: Vec<_> = course.quizzes.iter().flat_map(|q| &q.questions).collect();
    for lang in Lang::ALL {
        let longest = questions
            .iter()
            .filter(|q| {
                let len = |i: usize| q.options[i].text.get(lang).chars().count();
                (0..q.options.len()).all(|i| len(i) <= len(q.answer))
            })
            .count();
        assert!(
            longest * 4 <= questions.len(),
            "{lang}: longest or tied by characters in {longest} of {}",
            questions.len()
        );
    }
}

#[test]
fn no_length_rank_marks_the_right_option_in_any_language() {
    // Making the right option shorter than one distractor everywhere would only move the
    // giveaway to "pick the second longest"; no rank may hold more than 40% of the answers.
    let (course, _) = content::load(&ContentTree::embedded());
    let questions: Vec<_> = course.quizzes.iter().flat_map(|q| &q.questions).collect();
    for lang in Lang::ALL {
        let mut by_rank = [0usize; content::quiz::MAX_OPTIONS];
        for q in &questions {
            by_rank[option_stats::longer_than_right(q, lang)] += 1;
        }
        for (rank, n) in by_rank.iter().enumerate() {
            assert!(
                n * 10 <= questions.len() * 4,
                "{lang}: the right option has {rank} longer options in {n} of {} questions",
                questions.len()
            );
        }
    }
}
