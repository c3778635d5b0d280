//! `rocm-learn report` over a class's submit folder against its floor, Python's `json.load` of
//! the same files, in one run on the same machine. 200 learners (REPORT_BENCH_LEARNERS says
//! otherwise) each get a signed export made by the library's own code from a realistic log:
//! lessons read, quizzes answered (some twice, some wrong), labs opened with steps met, hints
//! and sessions, every event stamped with its item's content hash as the app stamps it. The
//! files go into a fresh folder of the system's temporary directory (on ext4 where that is).
//!
//! Both commands run as processes, as an instructor meets them: the release binary, warm
//! (after one untimed run each), alternately, RUNS times each; the medians and their ratio are
//! printed, for the text report and for `--json`. `cargo bench --bench report`;
//! REPORT_BENCH_BIN times another build of rocm-learn instead (an older one, to compare).
//! Prints numbers; judges nothing.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rocm_learn::content::{self, ContentTree, Course, Pack};
use rocm_learn::events::{Answer, Event, LabSession, What};
use rocm_learn::export::{self, Stamp};
use rocm_learn::progress::{ItemKind, Progress};

const RUNS: usize = 15;
/// When the class started: 2026-11-02 09:00 UTC.
const START: u64 = 1_793_610_000;

/// A small, repeatable generator (xorshift64*): the same class every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Each item's content hash, as the app's store stamps it on events (worked out once).
type Hashes = std::collections::HashMap<String, String>;

/// One learner's log, as the app would have written it over a few sessions.
fn log(course: &Course, hashes: &mut Hashes, rng: &mut Rng) -> Vec<Event> {
    let mut t = START + rng.below(3600) as u64;
    let mut events = Vec::new();
    let mut push = |what: What, t: &mut u64, rng: &mut Rng| {
        *t += 20 + rng.below(300) as u64;
        let hash = what.place().map_or_else(String::new, |p| {
            hashes
                .entry(p.to_string())
                .or_insert_with(|| rocm_learn::events::content_hash(course, &p).unwrap_or_default())
                .clone()
        });
        events.push(Event {
            id: rocm_learn::events::new_id(),
            t: *t,
            hash,
            what,
        });
    };
    let reach = 30 + rng.below(71); // how far into the course this learner got, in percent
    let upto = |n: usize| (n * reach).div_ceil(100);
    for l in course.lessons.iter().take(upto(course.lessons.len())) {
        let open = What::Opened {
            kind: ItemKind::Lesson,
            item: l.id.clone(),
        };
        push(open, &mut t, rng);
        let read = What::Read {
            item: l.id.clone(),
            position: 40,
            finished: rng.chance(85),
            secs: 120 + rng.below(900) as u64,
        };
        push(read, &mut t, rng);
    }
    for q in course.quizzes.iter().take(upto(course.quizzes.len())) {
        let open = What::Opened {
            kind: ItemKind::Quiz,
            item: q.id.clone(),
        };
        push(open, &mut t, rng);
        let tries = 1 + usize::from(rng.chance(40));
        for _ in 0..tries {
            let answers: Vec<Answer> = q
                .questions
                .iter()
                .map(|question| {
                    let right = rng.chance(70);
                    let wrong = (question.answer + 1 + rng.below(3)) % question.options.len();
                    Answer {
                        question: question.id.clone(),
                        chosen: 1 + if right { question.answer } else { wrong },
                        right,
                    }
                })
                .collect();
            let score = answers.iter().filter(|a| a.right).count();
            let answered = What::Answered {
                item: q.id.clone(),
                answers,
                total: q.questions.len(),
                complete: true,
                secs: 60 + rng.below(400) as u64,
                continues: false,
                score: Some(score),
            };
            push(answered, &mut t, rng);
        }
    }
    for lab in course.labs.iter().take(upto(course.labs.len())) {
        let open = What::Opened {
            kind: ItemKind::Lab,
            item: lab.id.clone(),
        };
        push(open, &mut t, rng);
        let met = if rng.chance(70) {
            lab.steps.len()
        } else {
            rng.below(lab.steps.len())
        };
        let mut done = Vec::new();
        for step in &lab.steps {
            let at = What::At {
                kind: ItemKind::Lab,
                item: lab.id.clone(),
                step: Some(step.id.clone()),
            };
            push(at, &mut t, rng);
            if rng.chance(30) {
                let hint = What::Hint {
                    item: lab.id.clone(),
                    step: step.id.clone(),
                };
                push(hint, &mut t, rng);
            }
            if done.len() == met {
                break;
            }
            done.push(step.id.clone());
            let step_met = What::StepMet {
                item: lab.id.clone(),
                step: step.id.clone(),
            };
            push(step_met, &mut t, rng);
        }
        let session = What::Lab {
            item: lab.id.clone(),
            session: LabSession {
                complete: done.len() == lab.steps.len(),
                steps_done: done,
                hints: 0,
                secs: 300 + rng.below(1500) as u64,
                session_over: true,
                confined: true,
                solved_before: false,
            },
            by_script: false,
        };
        push(session, &mut t, rng);
    }
    events
}

/// Writes `n` learners' signed exports into `submit`, each install's key in `keys`.
fn make_class(course: &Course, pack: &Pack, n: usize, submit: &Path, keys: &Path) -> u64 {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut hashes = Hashes::new();
    let mut bytes = 0;
    for i in 0..n {
        let events = log(course, &mut hashes, &mut rng);
        let progress = Progress::from_events(&events);
        let learner = format!("learner{i:03}");
        let machine = format!("lab-pc-{:02}", i % 40);
        let last = events.last().map_or(START, |e| e.t);
        let stamp = Stamp {
            pack,
            learner: &learner,
            machine: &machine,
            now: last + 5,
            events: &events,
        };
        let mut e = export::build(&progress, course, &stamp);
        e.sign(&keys.join(&learner)).expect("signs");
        let path = export::submit(submit, &e).expect("writes");
        bytes += std::fs::metadata(path).map_or(0, |m| m.len());
    }
    bytes
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Runs `cmd` once to its end, its output thrown away; fails loudly if it fails.
fn time(cmd: &mut Command) -> Duration {
    let start = Instant::now();
    let status = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("starts");
    let took = start.elapsed();
    assert!(status.success(), "{cmd:?} failed: {status}");
    took
}

fn main() {
    let n: usize = std::env::var("REPORT_BENCH_LEARNERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    // Another build to time instead (an older one, to compare), else this one.
    let bin = std::env::var_os("REPORT_BENCH_BIN").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_rocm-learn")),
        PathBuf::from,
    );
    let root = std::env::temp_dir().join(format!("rocm-learn-report-bench-{}", std::process::id()));
    let submit = root.join("submit");
    let (keys, data) = (root.join("keys"), root.join("data"));
    for d in [&submit, &keys, &data] {
        std::fs::create_dir_all(d).expect("bench folders");
    }
    let (course, pack, _) = content::load_pack(&ContentTree::embedded());
    let made = Instant::now();
    let bytes = make_class(&course, &pack, n, &submit, &keys);
    println!(
        "report bench: {n} signed exports, {:.1} MiB in all, made in {:.1} s",
        bytes as f64 / f64::from(1 << 20),
        made.elapsed().as_secs_f64()
    );
    let report = |extra: &[&str]| {
        let mut cmd = Command::new(&bin);
        cmd.arg("report")
            .arg(&submit)
            .args(extra)
            .env("ROCM_LEARN_DATA_DIR", &data)
            .env("ROCM_LEARN_LANG", "en")
            .env_remove("ROCM_LEARN_LRS");
        cmd
    };
    let mut py = Command::new("python3");
    py.arg("-c")
        .arg("import json,glob,sys\n[json.load(open(f)) for f in glob.glob(sys.argv[1] + '/*.json')]")
        .arg(&submit);
    if Command::new("python3").arg("-V").output().is_err() {
        println!("report bench: python3 is missing; no floor to compare with");
        return;
    }
    for (name, extra) in [("text", &[][..]), ("--json", &["--json"][..])] {
        // Warm: the files in the page cache, the first run's trust of each key made.
        time(&mut report(extra));
        time(&mut py);
        let (mut ours, mut floor) = (Vec::new(), Vec::new());
        for _ in 0..RUNS {
            ours.push(time(&mut report(extra)));
            floor.push(time(&mut py));
        }
        let (a, b) = (median(ours), median(floor));
        println!(
            "report {name:7} {:7.1} ms   python json.load {:7.1} ms   ratio {:.2}x   (medians of {RUNS})",
            ms(a),
            ms(b),
            a.as_secs_f64() / b.as_secs_f64()
        );
    }
    let _ = std::fs::remove_dir_all(&root);
}
