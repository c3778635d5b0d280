//! Events as xAPI 1.0.3 statements: ADL verbs where they fit, the learner as an agent with a
//! stable account, activities under the pack's IRI, and ids that are a UUIDv5 of the event's
//! id, so a statement sent twice is one statement. The event itself rides in an extension, so
//! a report built from the LRS is the report built from the files.

use serde_json::{Value, json};

use crate::events::{Event, LabSession, What};

/// Extension keys (IRIs) of what rocm-learn adds to a statement.
pub const EXT_EVENT: &str = "urn:rocm-learn:event";
pub const EXT_PACK: &str = "urn:rocm-learn:pack";
pub const EXT_INSTALL: &str = "urn:rocm-learn:install";
const ACCOUNT_HOME: &str = "urn:rocm-learn:learner";
/// The namespace of statement ids (a fixed random UUID).
const NAMESPACE: uuid::Uuid = uuid::Uuid::from_u128(0x5d4c_2a8e_7b1f_4c3a_9e6d_0f8b_2c71_a4e9);

/// Who and where a statement comes from.
pub struct Origin<'a> {
    pub learner: &'a str,
    pub pack: &'a str,
    pub version: &'a str,
    pub machine: &'a str,
    /// The install's public key (hex), telling machines apart.
    pub install: &'a str,
}

pub fn statement_id(event: &Event) -> String {
    uuid::Uuid::new_v5(&NAMESPACE, event.id.as_bytes()).to_string()
}

fn verb(name: &str) -> Value {
    json!({ "id": format!("http://adlnet.gov/expapi/verbs/{name}"), "display": { "en-US": name } })
}

pub fn statement(e: &Event, o: &Origin) -> Value {
    let (name, result) = match &e.what {
        What::Opened { .. } => ("launched", None),
        What::Read { finished, secs, .. } => (
            if *finished { "completed" } else { "progressed" },
            Some(json!({ "completion": finished, "duration": duration(*secs) })),
        ),
        What::Answered {
            answers,
            total,
            complete,
            secs,
            score,
            ..
        } => {
            // The learner's score as their record gives it; an event from before the score
            // was kept has only its own run's answers to go by.
            let right = score
                .unwrap_or_else(|| answers.iter().filter(|a| a.right).count())
                .min(*total);
            let max = (*total).max(1);
            (
                "answered",
                Some(json!({
                    "score": { "raw": right, "min": 0, "max": max, "scaled": right as f64 / max as f64 },
                    "success": right == *total,
                    "completion": complete,
                    "duration": duration(*secs),
                })),
            )
        }
        // The end of a session whose solve an earlier statement already passed: one `passed`
        // per completion, and this one carries the time spent after it.
        What::Lab {
            session:
                LabSession {
                    complete: true,
                    solved_before: true,
                    secs,
                    ..
                },
            ..
        } => ("exited", Some(json!({ "duration": duration(*secs) }))),
        What::Lab {
            session:
                LabSession {
                    complete,
                    steps_done,
                    secs,
                    ..
                },
            ..
        } => (
            if *complete { "passed" } else { "progressed" },
            Some(json!({
                "score": { "raw": steps_done.len(), "min": 0 },
                "success": complete,
                "completion": complete,
                "duration": duration(*secs),
            })),
        ),
        What::StepMet { .. } | What::At { .. } => ("progressed", None),
        What::Hint { .. }
        | What::SolutionViewed { .. }
        | What::Helped { .. }
        | What::Reset { .. }
        | What::Way { .. } => ("interacted", None),
        What::Imported { .. } => ("progressed", None),
        What::Reviewed { right, .. } => ("answered", Some(json!({ "success": right }))),
        What::Exam {
            score,
            total,
            passed,
            secs,
            ..
        } => {
            let max = (*total).max(1);
            (
                if *passed { "passed" } else { "failed" },
                Some(json!({
                    "score": { "raw": score, "min": 0, "max": max, "scaled": *score as f64 / max as f64 },
                    "success": passed,
                    "completion": true,
                    "duration": duration(*secs),
                })),
            )
        }
    };
    let object = match (e.what.place(), &e.what) {
        (Some(p), _) => format!("urn:rocm-learn:{}:{}:{}", o.pack, p.kind.name(), p.id),
        // An exam is no lesson, quiz or lab, but still an activity of its own.
        (None, What::Exam { item, .. }) => format!("urn:rocm-learn:{}:exam:{item}", o.pack),
        (None, _) => format!("urn:rocm-learn:{}", o.pack),
    };
    let mut s = json!({
        "id": statement_id(e),
        "actor": {
            "objectType": "Agent",
            "name": o.learner,
            "account": { "homePage": ACCOUNT_HOME, "name": o.learner },
        },
        "verb": verb(name),
        "object": { "objectType": "Activity", "id": object },
        "timestamp": crate::export::rfc3339(e.t),
        "context": {
            "platform": "rocm-learn",
            "extensions": {
                EXT_EVENT: e,
                EXT_PACK: { "id": o.pack, "version": o.version, "machine": o.machine },
                EXT_INSTALL: o.install,
            },
        },
    });
    if let Some(r) = result {
        s["result"] = r;
    }
    s
}

/// Seconds as an ISO 8601 duration.
fn duration(secs: u64) -> String {
    format!("PT{secs}S")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quiz_run_is_an_answered_statement_with_a_stable_id() {
        let e = Event {
            id: "00ff".into(),
            t: 1_795_000_000,
            hash: String::new(),
            what: What::Answered {
                item: "permissions".into(),
                answers: vec![crate::events::Answer {
                    question: "q".into(),
                    chosen: 1,
                    right: true,
                }],
                total: 2,
                complete: false,
                secs: 12,
                continues: false,
                score: None,
            },
        };
        let o = Origin {
            learner: "ana",
            pack: "node-day",
            version: "1",
            machine: "pc",
            install: "ab",
        };
        let s = statement(&e, &o);
        assert_eq!(s["verb"]["id"], "http://adlnet.gov/expapi/verbs/answered");
        assert_eq!(
            s["object"]["id"],
            "urn:rocm-learn:node-day:quiz:permissions"
        );
        assert_eq!(s["result"]["score"]["scaled"], 0.5);
        assert_eq!(s["result"]["success"], false);
        assert_eq!(s["result"]["duration"], "PT12S");
        assert_eq!(s["timestamp"], "2026-11-18T11:06:40Z");
        // The same event is always the same statement id (a UUID, version 5).
        assert_eq!(s["id"], statement(&e, &o)["id"]);
        assert_eq!(s["id"].as_str().unwrap().as_bytes()[14], b'5');
        let back: Event =
            serde_json::from_value(s["context"]["extensions"][EXT_EVENT].clone()).unwrap();
        assert_eq!(back, e);
    }

    fn origin() -> Origin<'static> {
        Origin {
            learner: "ana",
            pack: "p",
            version: "1",
            machine: "pc",
            install: "ab",
        }
    }

    fn ev(id: &str, what: What) -> Event {
        Event {
            id: id.into(),
            t: 1_795_000_000,
            hash: String::new(),
            what,
        }
    }

    #[test]
    fn a_quiz_statement_scores_what_the_learner_scored_not_only_this_runs_answers() {
        // The end of a resumed attempt (or a retry of the wrong ones): two answers in this run,
        // five right in the learner's record.
        let answer = |q: &str| crate::events::Answer {
            question: q.into(),
            chosen: 2,
            right: true,
        };
        let e = ev(
            "01",
            What::Answered {
                item: "q".into(),
                answers: vec![answer("d"), answer("e")],
                total: 5,
                complete: true,
                secs: 40,
                continues: true,
                score: Some(5),
            },
        );
        let s = statement(&e, &origin());
        assert_eq!(s["result"]["score"]["raw"], 5);
        assert_eq!(s["result"]["score"]["scaled"], 1.0);
        assert_eq!(s["result"]["success"], true);
    }

    #[test]
    fn a_lab_solved_mid_session_is_passed_once_with_the_time_it_took() {
        let session = |secs, session_over, solved_before| LabSession {
            steps_done: vec!["a".into(), "b".into()],
            complete: true,
            hints: 0,
            secs,
            session_over,
            confined: true,
            solved_before,
        };
        let lab = |id: &str, session| {
            ev(
                id,
                What::Lab {
                    item: "l".into(),
                    session,
                    by_script: false,
                },
            )
        };
        // What the lab screen logs: the solve as it happens, then the session's end.
        let solved = statement(&lab("01", session(300, false, false)), &origin());
        let ended = statement(&lab("02", session(60, true, true)), &origin());
        let verbs = [&solved, &ended].map(|s| s["verb"]["display"]["en-US"].clone());
        assert_eq!(verbs, ["passed", "exited"]);
        assert_eq!(solved["result"]["duration"], "PT300S");
        assert_eq!(solved["result"]["success"], true);
        assert_eq!(ended["result"]["duration"], "PT60S");
        // Solved and ended in one go (a script): one `passed`, the whole time.
        let once = statement(&lab("03", session(90, true, false)), &origin());
        assert_eq!(once["verb"]["display"]["en-US"], "passed");
        assert_eq!(once["result"]["duration"], "PT90S");
    }

    #[test]
    fn a_hint_reaches_the_store_as_its_own_statement_about_the_lab() {
        let e = ev(
            "01",
            What::Hint {
                item: "l".into(),
                step: "groups".into(),
            },
        );
        let s = statement(&e, &origin());
        assert_eq!(s["verb"]["display"]["en-US"], "interacted");
        assert_eq!(s["object"]["id"], "urn:rocm-learn:p:lab:l");
        assert_eq!(s["context"]["extensions"][EXT_EVENT]["step"], "groups");
    }

    #[test]
    fn an_exam_is_passed_or_failed_with_its_score_on_an_exam_activity() {
        let exam = |score, passed| {
            ev(
                "e1",
                What::Exam {
                    item: "rocm-deploy".into(),
                    seed: 7,
                    score,
                    total: 10,
                    passed,
                    secs: 300,
                    time_limit_secs: 900,
                },
            )
        };
        let s = statement(&exam(8, true), &origin());
        assert_eq!(s["verb"]["id"], "http://adlnet.gov/expapi/verbs/passed");
        assert_eq!(s["object"]["id"], "urn:rocm-learn:p:exam:rocm-deploy");
        assert_eq!(s["result"]["score"]["scaled"], 0.8);
        assert_eq!(s["result"]["duration"], "PT300S");
        let s = statement(&exam(3, false), &origin());
        assert_eq!(s["verb"]["id"], "http://adlnet.gov/expapi/verbs/failed");
        assert_eq!(s["result"]["success"], false);
    }
}
