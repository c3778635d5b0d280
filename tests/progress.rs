//! The progress file: atomic writes, corrupt files kept aside, newer formats left alone, and two
//! writers that never lose each other's work.

use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

mod common;

use rocm_learn::progress::{Notice, Progress, Store, VERSION};
use rocm_learn::quiz::{QuestionResult, QuizResult};

fn result(quiz: &str, right: bool) -> QuizResult {
    QuizResult {
        quiz: quiz.into(),
        lang: "en".into(),
        score: right as usize,
        total: 1,
        answered: 1,
        complete: true,
        continues: false,
        questions: vec![QuestionResult {
            id: "q".into(),
            chosen: Some(if right { 2 } else { 1 }),
            correct: 2,
            right,
        }],
    }
}

#[test]
fn a_fresh_store_starts_empty_and_writes_a_versioned_file() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::at(dir.path().join("nested/data"));
    let (p, notice) = store.load().unwrap();
    assert_eq!(p, Progress::new());
    assert!(notice.is_none());
    store
        .update(|p| p.record_quiz(&result("a", true), 1, 3))
        .unwrap();
    let text = std::fs::read_to_string(store.path()).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["version"], VERSION);
    assert_eq!(v["quizzes"]["a"]["best_score"], 1);
    // Only the file, its lock and the event log remain: no temporary files left behind.
    let mut names: Vec<_> = std::fs::read_dir(store.path().parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        vec!["events.jsonl", "progress.json", "progress.lock"]
    );
}

#[test]
fn a_corrupt_file_is_moved_aside_not_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::at(dir.path());
    std::fs::write(store.path(), "{\"version\": 1, \"quizzes\": ").unwrap();
    let (p, notice) = store
        .update(|p| p.record_quiz(&result("a", false), 1, 1))
        .unwrap();
    let Some(Notice::CorruptMovedAside { moved_to, .. }) = notice else {
        panic!("the learner must be told: {notice:?}");
    };
    assert_eq!(
        std::fs::read_to_string(&moved_to).unwrap(),
        "{\"version\": 1, \"quizzes\": "
    );
    assert_eq!(p.quizzes["a"].attempts, 1, "work goes on in a fresh file");
    assert!(
        store.load().unwrap().1.is_none(),
        "the new file reads cleanly"
    );
}

#[test]
fn a_file_without_a_version_is_not_taken_for_ours() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::at(dir.path());
    std::fs::write(store.path(), "{\"quizzes\": {}}").unwrap();
    let (_, notice) = store.load().unwrap();
    assert!(matches!(notice, Some(Notice::CorruptMovedAside { .. })));
}

#[test]
fn a_file_from_a_newer_version_is_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::at(dir.path());
    let newer = "{\"version\": 99, \"quizzes\": \"a new layout\"}";
    std::fs::write(store.path(), newer).unwrap();
    let err = store
        .update(|p| p.record_quiz(&result("a", true), 1, 1))
        .unwrap_err();
    assert_eq!(err.0.id, "progress-too-new");
    assert_eq!(std::fs::read_to_string(store.path()).unwrap(), newer);
}

#[test]
fn two_writers_never_lose_each_others_work() {
    let dir = tempfile::tempdir().unwrap();
    let writers = 8;
    let rounds = 20;
    let barrier = Arc::new(Barrier::new(writers));
    let handles: Vec<_> = (0..writers)
        .map(|w| {
            let path = dir.path().to_path_buf();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                // Each writer has its own Store, as two running instances would.
                let store = Store::at(path);
                barrier.wait();
                for r in 0..rounds {
                    store
                        .update(|p| p.record_quiz(&result(&format!("w{w}-r{r}"), true), 1, 1))
                        .unwrap();
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    let (p, _) = Store::at(dir.path()).load().unwrap();
    assert_eq!(p.quizzes.len(), writers * rounds);
}

#[test]
fn retrying_a_wrong_answer_updates_the_record_and_the_wrong_list() {
    let mut p = Progress::new();
    p.record_quiz(&result("a", false), 1, 5);
    assert_eq!(p.quizzes["a"].wrong_ids(), vec!["q".to_string()]);
    assert_eq!(p.quizzes["a"].best_score, 0);
    p.record_quiz(&result("a", true), 1, 5);
    let q = &p.quizzes["a"];
    assert!(q.wrong_ids().is_empty());
    assert_eq!(q.best_score, 1);
    assert_eq!(q.attempts, 2);
    assert_eq!(
        q.answers["q"].wrong_count, 1,
        "the miss is remembered for the class report"
    );
    assert_eq!(q.time_spent_secs, 10);
    assert!(q.finished_at.is_some());
}

#[test]
fn the_tally_counts_what_the_course_has_and_keeps_the_rest() {
    use rocm_learn::content::{self, ContentTree};
    use rocm_learn::progress::{Change, Tally};

    let (course, _) = content::load(&ContentTree::embedded());
    let mut p = Progress::new();
    for id in ["what-is-rocm", "a-lesson-from-an-old-pack"] {
        p.apply(&Change::Lesson {
            id: id.into(),
            position: 0,
            finished: true,
            secs: 5,
        });
    }
    p.apply(&Change::Quiz {
        result: result("deploy-workflow", false),
        quiz_total: 1,
        secs: 5,
    });
    assert_eq!(
        p.tally(&course),
        Tally {
            lessons_read: 1,
            quizzes_done: 1,
            labs_done: 0
        },
        "a lesson the course no longer has is not counted"
    );
    // ...but its record is still there for a pack that brings it back.
    assert!(p.lessons.contains_key("a-lesson-from-an-old-pack"));
}

fn lab(steps: &[&str], complete: bool, session_over: bool) -> rocm_learn::progress::Change {
    rocm_learn::progress::Change::Lab {
        id: "l".into(),
        session: rocm_learn::events::LabSession {
            steps_done: steps.iter().map(ToString::to_string).collect(),
            complete,
            hints: 1,
            secs: 30,
            session_over,
            confined: true,
            solved_before: false,
        },
    }
}

#[test]
fn a_lab_completed_without_confinement_is_marked_and_stays_marked() {
    let mut p = rocm_learn::progress::Progress::new();
    let mut change = lab(&["a"], true, true);
    if let rocm_learn::progress::Change::Lab { session, .. } = &mut change {
        session.confined = false;
    }
    p.apply(&change);
    assert!(p.labs["l"].how.unconfined);
    // A later confined session does not wash the mark off the completion it was made with.
    p.apply(&lab(&["a"], true, true));
    assert!(p.labs["l"].how.unconfined);
    let json = serde_json::to_string(&p.labs["l"]).unwrap();
    assert!(json.contains("\"unconfined\":true"), "{json}");
}

#[test]
fn a_lab_solved_in_one_session_is_one_attempt_and_a_worse_one_later_keeps_the_best() {
    use rocm_learn::progress::{Change, LabHow};
    let mut p = Progress::new();
    // Two steps of three, then the next session: the app records "solved" at once and again
    // when the learner leaves.
    p.apply(&lab(&["a", "b"], false, true));
    p.apply(&lab(&["a"], false, true));
    assert_eq!(p.labs["l"].steps_done, ["a", "b"], "the better try is kept");
    p.apply(&lab(&["a", "b", "c"], true, false));
    p.apply(&lab(&["a", "b", "c"], true, true));
    let l = &p.labs["l"];
    assert_eq!(l.attempts, 3);
    assert_eq!(l.how.completed_by, Some(LabHow::Interactive));
    assert!(!l.how.solution_viewed);
    p.apply(&Change::SolutionViewed("l".into()));
    assert!(p.labs["l"].how.solution_viewed);
}

#[test]
fn the_first_attempt_is_kept_apart_from_the_best() {
    let mut p = Progress::new();
    p.record_quiz(&result("a", false), 1, 5);
    p.record_quiz(&result("a", true), 1, 5);
    let q = &p.quizzes["a"];
    assert_eq!((q.first_score, q.best_score), (Some(0), 1));
}

#[test]
fn counts_from_a_crafted_file_saturate_instead_of_wrapping() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::at(dir.path());
    let crafted = format!(
        r#"{{"version": {VERSION}, "labs": {{"l": {{"attempts": 4294967295, "hints_used": 4294967295, "time_spent_secs": 18446744073709551615}}}}}}"#
    );
    std::fs::write(store.path(), crafted).unwrap();
    let (p, _) = store
        .update(|p| p.apply(&lab(&["a"], false, true)))
        .unwrap();
    let l = &p.labs["l"];
    assert_eq!(
        (l.attempts, l.hints_used, l.time_spent_secs),
        (u32::MAX, u32::MAX, u64::MAX)
    );
}

#[test]
fn a_language_this_version_does_not_know_is_no_choice_not_a_corrupt_file() {
    use rocm_learn::lang::Lang;
    use rocm_learn::progress::Change;
    let dir = tempfile::tempdir().unwrap();
    let store = Store::at(dir.path());
    let text =
        format!("{{\"version\": {VERSION}, \"settings\": {{\"lang\": \"fr\", \"ascii\": true}}}}");
    std::fs::write(store.path(), text).unwrap();
    let (p, notice) = store.load().unwrap();
    assert!(notice.is_none(), "{notice:?}");
    assert_eq!(p.settings.lang, None);
    assert!(p.settings.ascii, "the rest of the settings is kept");
    store.update(|p| p.apply(&Change::Lang(Lang::Ja))).unwrap();
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(store.path()).unwrap()).unwrap();
    assert_eq!(v["settings"]["lang"], "ja");
    assert_eq!(store.load().unwrap().0.settings.lang, Some(Lang::Ja));
}

#[test]
fn progress_errors_chain_as_std_errors_and_read_in_english() {
    use rocm_learn::content::Msg;
    use rocm_learn::progress::ProgressError;
    let e: Box<dyn std::error::Error> = Box::new(ProgressError(
        Msg::new("progress-no-home").arg("env", "ROCM_LEARN_DATA_DIR"),
    ));
    let text = e.to_string();
    assert!(text.contains("ROCM_LEARN_DATA_DIR"), "{text}");
    assert!(!text.contains("progress-no-home"), "{text}");
}

#[test]
fn the_way_a_lab_was_taken_is_kept_and_old_records_load_without_it() {
    use rocm_learn::content::LabWay;
    let mut p = Progress::new();
    p.apply(&rocm_learn::progress::Change::LabWay(
        "l".into(),
        LabWay::Challenge,
    ));
    p.apply(&lab(&["a"], true, true));
    assert_eq!(p.labs["l"].how.way, Some(LabWay::Challenge));
    let json = serde_json::to_string(&p.labs["l"]).unwrap();
    assert!(json.contains("\"way\":\"challenge\""), "{json}");
    // A record written before the two ways: no way, read as none (guided).
    let old: rocm_learn::progress::LabProgress =
        serde_json::from_str(r#"{"started_at":1,"steps_done":["a"],"attempts":1}"#).unwrap();
    assert_eq!(old.how.way, None);
}

#[test]
fn a_challenge_completion_stays_when_a_guided_run_follows() {
    use rocm_learn::content::LabWay;
    use rocm_learn::progress::Change;
    let mut p = Progress::new();
    p.apply(&Change::LabWay("l".into(), LabWay::Challenge));
    p.apply(&lab(&["a", "b"], true, true));
    // Taken again, guided, and solved again.
    p.apply(&Change::LabWay("l".into(), LabWay::Guided));
    p.apply(&lab(&["a", "b"], true, true));
    let how = p.labs["l"].how;
    assert_eq!(how.way, Some(LabWay::Guided), "the last way taken");
    assert!(how.challenge_done, "the challenge completion is kept");
    assert_eq!(
        how.best_way(),
        LabWay::Challenge,
        "the report shows the best"
    );
    // Guided only: the report says guided.
    let mut q = Progress::new();
    q.apply(&Change::LabWay("l".into(), LabWay::Guided));
    q.apply(&lab(&["a"], true, true));
    assert_eq!(q.labs["l"].how.best_way(), LabWay::Guided);
}

#[test]
fn the_record_is_an_event_log_that_progress_is_a_view_of_and_old_files_migrate_into() {
    use rocm_learn::progress::{Change, ItemKind, Place};
    let dir = tempfile::tempdir().unwrap();
    // A progress file from before the log: its quiz must not be lost.
    let store = Store::at(dir.path());
    let mut old = Progress::new();
    old.record_quiz(&result("old-quiz", true), 1, 30);
    std::fs::write(store.path(), serde_json::to_vec(&old).unwrap()).unwrap();
    assert!(!store.log_path().exists());
    let (p, _) = store
        .update(|p| {
            p.apply(&Change::Opened(Place {
                kind: ItemKind::Lab,
                id: "lab-a".into(),
            }));
            p.record_quiz(&result("a", false), 1, 5);
        })
        .unwrap();
    let log = store.log();
    // The old quiz came in as an event, the new work as events with stable ids.
    assert_eq!(log.len(), 3, "{log:#?}");
    let view = Progress::from_events(&log);
    assert_eq!(view.quizzes, p.quizzes);
    assert_eq!(view.quizzes["old-quiz"].best_score, 1);
    // Two logs of one learner (two machines) merge by union: nothing lost, nothing twice.
    let other = Store::at(dir.path().join("laptop"));
    other
        .update(|p| p.record_quiz(&result("a", true), 1, 5))
        .unwrap();
    let merged = rocm_learn::events::union([log.as_slice(), other.log().as_slice(), &log]);
    assert_eq!(merged.len(), 4);
    let q = &Progress::from_events(&merged).quizzes["a"];
    assert_eq!((q.attempts, q.best_score), (2, 1));
}

#[test]
fn live_events_reach_the_after_save_hook_not_only_finished_items() {
    use rocm_learn::events::What;
    use rocm_learn::progress::{Change, ItemKind};
    use std::sync::Mutex;
    let dir = tempfile::tempdir().unwrap();
    let seen: Arc<Mutex<Vec<(bool, usize)>>> = Arc::default();
    let log = seen.clone();
    let store = Store::at(dir.path()).on_finish(Arc::new(move |_, saved| {
        log.lock()
            .unwrap()
            .push((saved.finished, saved.events.len()));
        Ok(())
    }));
    // A step reached mid-lab: nothing finished, but the class must see it.
    store
        .update(|p| {
            p.apply(&Change::Live(What::At {
                kind: ItemKind::Lab,
                item: "lab-a".into(),
                step: Some("two".into()),
            }));
        })
        .unwrap();
    // A quiz finished: the hook hears it as finished.
    store
        .update(|p| p.record_quiz(&result("a", true), 1, 3))
        .unwrap();
    // A setting is no event: no hook.
    store.update(|p| p.apply(&Change::Ascii(true))).unwrap();
    assert_eq!(*seen.lock().unwrap(), vec![(false, 1), (true, 1)]);
    // The live event is in the log, and changes no result.
    let (p, _) = store.load().unwrap();
    assert!(p.labs.is_empty());
    assert_eq!(store.log().len(), 2);
}

/// Answers the question the run asks now: right or wrong, as the learner would pick it on screen.
fn answer(run: &mut rocm_learn::quiz::QuizRun, quiz: &rocm_learn::content::Quiz, right: bool) {
    let pos = run.position().expect("a question is open");
    let shown = run.shown(quiz, pos);
    let answer = quiz.questions[run.order[pos]].answer;
    let pick = shown
        .iter()
        .position(|&o| (o == answer) == right)
        .expect("an option to pick");
    run.answer_shown(quiz, pick).expect("answered");
}

#[test]
fn a_quiz_resumed_after_three_answers_is_one_attempt_scored_when_it_ends() {
    use rocm_learn::progress::Change;
    use rocm_learn::quiz::QuizRun;
    let (course, _) = rocm_learn::content::load(&rocm_learn::content::ContentTree::embedded());
    let quiz = course.quiz("deploy-workflow").expect("a built-in quiz");
    let total = quiz.questions.len();
    assert!(total > 3);
    let dir = tempfile::tempdir().unwrap();
    let store = Store::at(dir.path());
    // Three answers (one wrong), then the learner leaves: Esc, or a dropped connection.
    let mut run = QuizRun::new(quiz, 42);
    for right in [true, false, true] {
        answer(&mut run, quiz, right);
    }
    let (p, _) = store
        .update(|p| {
            p.record_quiz(&run.result(quiz, rocm_learn::lang::Lang::En), total, 20);
            p.apply(&Change::QuizAttempt {
                quiz: quiz.id.clone(),
                attempt: run.attempt(quiz),
            });
        })
        .unwrap();
    let open = p.quizzes[&quiz.id].open.clone().expect("kept to resume");
    // Resumed as "Continue" does, and finished with every answer right.
    let record = &p.quizzes[&quiz.id];
    let mut run = QuizRun::resume(quiz, &open, |id| {
        record.answers.get(id).map(|a| a.chosen.saturating_sub(1))
    })
    .expect("something left to ask");
    assert_eq!(run.resumed, 3);
    while !run.is_finished() {
        answer(&mut run, quiz, true);
    }
    let ended = run.score(quiz);
    assert_eq!(ended, total - 1);
    store
        .update(|p| {
            p.record_quiz(&run.result(quiz, rocm_learn::lang::Lang::En), total, 30);
            p.apply(&Change::QuizAttempt {
                quiz: quiz.id.clone(),
                attempt: None,
            });
        })
        .unwrap();
    // One attempt; its first score is its score when it ended, not the one before leaving.
    let (p, _) = store.load().unwrap();
    let q = &p.quizzes[&quiz.id];
    assert_eq!(q.attempts, 1);
    assert_eq!(q.first_score, Some(ended));
    assert_eq!((q.last_score, q.best_score), (ended, ended));
    assert!(q.finished_at.is_some());
    // The log says the same (a report or a learning record store reads only the log), and
    // the last event carries the score the learner got.
    let log = store.log();
    assert_eq!(Progress::from_events(&log).quizzes[&quiz.id], *q);
    match &log.last().unwrap().what {
        rocm_learn::events::What::Answered { score, .. } => assert_eq!(*score, Some(ended)),
        other => panic!("{other:?}"),
    }
    // A new attempt is a second one, and the first score stays.
    let mut again = QuizRun::new(quiz, 7);
    while !again.is_finished() {
        answer(&mut again, quiz, true);
    }
    store
        .update(|p| p.record_quiz(&again.result(quiz, rocm_learn::lang::Lang::En), total, 9))
        .unwrap();
    let (p, _) = store.load().unwrap();
    let q = &p.quizzes[&quiz.id];
    assert_eq!(
        (q.attempts, q.first_score, q.best_score),
        (2, Some(ended), total)
    );
}

#[test]
fn each_hint_revealed_is_logged_and_counted_with_those_of_older_sessions() {
    use rocm_learn::progress::Change;
    let dir = tempfile::tempdir().unwrap();
    let store = Store::at(dir.path());
    // An older session counted its hint in the session's record.
    store
        .update(|p| p.apply(&lab(&["a"], false, true)))
        .unwrap();
    // Now each hint is an event of its own, logged as it is revealed: a session that never
    // ends cleanly keeps them.
    for step in ["b", "b"] {
        store
            .update(|p| {
                p.apply(&Change::Hint {
                    lab: "l".into(),
                    step: step.into(),
                });
            })
            .unwrap();
    }
    let (p, _) = store.load().unwrap();
    assert_eq!(p.labs["l"].hints_used, 3);
    let log = store.log();
    assert_eq!(Progress::from_events(&log).labs["l"].hints_used, 3);
    let hints = log
        .iter()
        .filter(|e| matches!(&e.what, rocm_learn::events::What::Hint { step, .. } if step == "b"))
        .count();
    assert_eq!(hints, 2);
}

#[test]
fn events_from_another_server_are_taken_once_and_the_settings_stay() {
    let dir = tempfile::tempdir().unwrap();
    let there = Store::at(dir.path().join("there"));
    there
        .update(|p| p.record_quiz(&result("a", true), 1, 3))
        .unwrap();
    let here = Store::at(dir.path().join("here"));
    here.update(|p| {
        p.record_quiz(&result("b", false), 1, 3);
        p.settings.ascii = true;
    })
    .unwrap();
    let theirs = there.log();
    assert!(!theirs.is_empty());
    assert_eq!(here.absorb(&theirs).unwrap(), theirs.len());
    // Given again (a worker that sends its folder again): nothing new.
    assert_eq!(here.absorb(&theirs).unwrap(), 0);
    let (p, _) = here.load().unwrap();
    assert_eq!(p.quizzes["a"].best_score, 1);
    assert!(p.quizzes.contains_key("b"));
    assert!(p.settings.ascii, "the learner's settings stay");
    let log = here.log();
    let ids: std::collections::BTreeSet<&str> = log.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids.len(), log.len(), "no event twice in the log");
}

#[test]
fn a_step_met_in_a_session_that_never_ended_is_in_the_record() {
    use rocm_learn::events::{Event, What};
    let met = |id: &str, step: &str| Event {
        id: id.into(),
        t: 10,
        hash: String::new(),
        what: What::StepMet {
            item: "hipcc-not-found".into(),
            step: step.into(),
        },
    };
    // No session event follows: its server was killed.
    let p = Progress::from_events(&[met("1", "on-path"), met("2", "on-path")]);
    assert_eq!(p.labs["hipcc-not-found"].steps_done, ["on-path"]);
    assert!(p.labs["hipcc-not-found"].completed_at.is_none());
}

/// Another process holds the progress folder's lock and never lets go (a copy of the app
/// stuck mid-save): a command that saves says which file is locked and what to do once the
/// deadline has passed, instead of hanging with it.
#[test]
fn a_lock_held_by_another_process_is_named_within_the_deadline_instead_of_hanging() {
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().join("packs/test-pack");
    std::fs::create_dir_all(&dir).unwrap();
    let lock = dir.join("progress.lock");
    // flock(1), from util-linux: the same kind of lock the store takes (flock(2)), held by a
    // shell that ends when its input is closed (so nothing outlives the test).
    let mut holder = std::process::Command::new("flock")
        .arg(&lock)
        .args(["sh", "-c", "read _"])
        .stdin(std::process::Stdio::piped())
        .spawn()
        .expect("flock (util-linux) runs");
    let held = Instant::now();
    loop {
        let f = std::fs::File::open(&lock);
        if f.is_ok_and(|f| matches!(f.try_lock(), Err(std::fs::TryLockError::WouldBlock))) {
            break;
        }
        assert!(
            held.elapsed() < Duration::from_secs(20),
            "flock never took the lock"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let start = Instant::now();
    let out = common::run_pack(
        &["quiz", "deploy-workflow", "--seed", "0"],
        "1\nb\n3\nb\n2\n",
        data.path(),
        &[],
    );
    let took = start.elapsed();
    drop(holder.stdin.take());
    let _ = holder.wait();
    assert_eq!(out.code, 0, "{}", out.stderr);
    common::has_all(
        &out.stderr,
        &[
            &format!("{} has been locked for 3 seconds", lock.display()),
            "another rocm-learn",
            "Quit that one",
        ],
    );
    // One save, one deadline; the rest is the process's own start and a busy machine.
    assert!(
        took < rocm_learn::progress::LOCK_WAIT + Duration::from_secs(12),
        "took {took:?}"
    );
    assert!(
        took >= rocm_learn::progress::LOCK_WAIT,
        "it waited: {took:?}"
    );
    // Nothing was written under someone else's lock.
    assert!(!dir.join("progress.json").exists());
}
