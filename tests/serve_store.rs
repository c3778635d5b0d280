//! Several `rocm-learn serve` workers on one class database (PostgreSQL) behind HAProxy, on
//! loopback, with the real ssh client: a step met through one worker survives that worker's
//! SIGKILL, a lab solved through another is done on a third, and `report --store` shows the
//! class from the database, who is mid-lab included. Needs PostgreSQL (a cluster named by
//! `ROCM_LEARN_TEST_PG`, which `scripts/test-postgres.sh` starts), HAProxy, ssh, tmux and
//! bubblewrap: without them these tests skip and say so (CI requires them).

mod common;

#[path = "common/pane.rs"]
mod pane;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pane::Pane;

const BIN: &str = env!("CARGO_BIN_EXE_rocm-learn");
const PG_ENV: &str = "ROCM_LEARN_TEST_PG";

/// The URL of a fresh database of the test cluster, or None (said, or failed under CI).
fn fresh_database(what: &str) -> Option<String> {
    if !common::needs::tool("psql", "--version", "postgresql", what) {
        return None;
    }
    let Some(base) = std::env::var(PG_ENV).ok().filter(|u| !u.is_empty()) else {
        common::needs::skip(
            what,
            &format!(
                "no PostgreSQL cluster (source scripts/test-postgres.sh, which sets {PG_ENV})"
            ),
        );
        return None;
    };
    static N: AtomicUsize = AtomicUsize::new(0);
    let name = format!(
        "rl_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    );
    psql(&base, &format!("CREATE DATABASE {name}"));
    let (head, _) = base.rsplit_once('/').expect("a URL with a database");
    Some(format!("{head}/{name}"))
}

fn psql(url: &str, sql: &str) -> String {
    let out = Command::new("psql")
        .args([url, "-v", "ON_ERROR_STOP=1", "-tA", "-c", sql])
        .output()
        .expect("psql runs");
    assert!(
        out.status.success(),
        "psql {sql}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn keygen(key: &Path, name: &str) {
    let ok = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", name, "-f"])
        .arg(key)
        .status()
        .unwrap()
        .success();
    assert!(ok, "ssh-keygen made a key");
}

/// A free port on loopback (free when asked; nothing else here takes ports meanwhile).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The people (ana, a learner; kim, an instructor) and a class folder per worker: the same
/// roster everywhere, and, once the first worker made them, the same host and install keys.
struct Class {
    dir: tempfile::TempDir,
    roster: String,
}

impl Class {
    fn new() -> Class {
        let dir = tempfile::tempdir().unwrap();
        let mut roster = String::new();
        for (role, name) in [("learner", "ana"), ("instructor", "kim")] {
            let key = dir.path().join(format!("{name}_key"));
            keygen(&key, name);
            let public = std::fs::read_to_string(key.with_extension("pub")).unwrap();
            roster.push_str(&format!(
                "[[{role}]]\nname = \"{name}\"\nkey = \"{}\"\n\n",
                public.trim()
            ));
        }
        Class { dir, roster }
    }

    fn key(&self, name: &str) -> PathBuf {
        self.dir.path().join(format!("{name}_key"))
    }

    /// Worker `n`'s own class folder; after the first, with the first one's keys.
    fn folder(&self, n: usize) -> PathBuf {
        let dir = self.dir.path().join(format!("worker{n}"));
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("roster.toml"), &self.roster).unwrap();
        if n > 0 {
            let first = self.dir.path().join("worker0");
            for f in ["host_key", "install-key"] {
                std::fs::copy(first.join(f), dir.join(f)).unwrap();
            }
        }
        dir
    }
}

/// A running worker, its log collected.
struct Worker {
    child: Child,
    port: u16,
    /// Its readiness endpoint (`--health`).
    health: u16,
    log: Arc<Mutex<String>>,
}

impl Worker {
    fn start(class: &Path, store: &str) -> Worker {
        let (port, health) = (free_port(), free_port());
        let mut child = Command::new(BIN)
            .args(["serve", "--class"])
            .arg(class)
            .args(["--listen", &format!("127.0.0.1:{port}")])
            .args(["--health", &format!("127.0.0.1:{health}")])
            .env("ROCM_LEARN_STORE", store)
            .env_remove("ROCM_LEARN_LANG")
            .env_remove("ROCM_LEARN_LRS")
            .env("LANG", "C")
            .env("LC_ALL", "C")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("serve starts");
        let log = Arc::new(Mutex::new(String::new()));
        let stderr = child.stderr.take().unwrap();
        let kept = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let mut l = kept.lock().unwrap();
                l.push_str(&line);
                l.push('\n');
            }
        });
        let w = Worker {
            child,
            port,
            health,
            log,
        };
        w.wait_log(&format!("on 127.0.0.1:{port}"));
        w
    }

    fn wait_log(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let log = self.log.lock().unwrap().clone();
            if log.contains(text) {
                return log;
            }
            assert!(
                start.elapsed() < pane::DEADLINE,
                "no {text:?} in the worker's log:\n{log}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// `GET /` on the readiness endpoint: the status line, or None when nothing listens.
    fn health(&self) -> Option<String> {
        use std::io::{Read, Write};
        let mut s = std::net::TcpStream::connect(("127.0.0.1", self.health)).ok()?;
        s.write_all(b"GET / HTTP/1.0\r\n\r\n").ok()?;
        let mut text = String::new();
        s.read_to_string(&mut text).ok()?;
        text.lines().next().map(String::from)
    }

    fn kill9(&mut self) {
        self.child.kill().unwrap(); // SIGKILL
        self.child.wait().unwrap();
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// HAProxy in TCP mode before `workers`: the first one up takes every new connection (so the
/// test knows which worker holds a session), its health checked every 200 ms.
struct Haproxy {
    child: Child,
    port: u16,
    _dir: tempfile::TempDir,
}

impl Haproxy {
    fn start(workers: &[&Worker]) -> Haproxy {
        let dir = tempfile::tempdir().unwrap();
        let port = free_port();
        let mut cfg = format!(
            "global\n  maxconn 200\ndefaults\n  mode tcp\n  timeout connect 2s\n  \
             timeout client 1h\n  timeout server 1h\n  retries 3\n  option redispatch\n\
             frontend class\n  bind 127.0.0.1:{port}\n  default_backend workers\n\
             backend workers\n  balance first\n  option httpchk GET /\n  \
             http-check expect status 200\n"
        );
        for (n, w) in workers.iter().enumerate() {
            cfg.push_str(&format!(
                "  server w{n} 127.0.0.1:{} check port {} inter 200ms fall 1 rise 1\n",
                w.port, w.health
            ));
        }
        let path = dir.path().join("haproxy.cfg");
        std::fs::write(&path, cfg).unwrap();
        let child = Command::new("haproxy")
            .args(["-db", "-f"])
            .arg(&path)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("haproxy starts");
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(start.elapsed() < pane::DEADLINE, "haproxy never listened");
            std::thread::sleep(Duration::from_millis(20));
        }
        Haproxy {
            child,
            port,
            _dir: dir,
        }
    }
}

impl Drop for Haproxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn ssh_args(key: &Path, port: u16) -> Vec<String> {
    [
        "-i",
        key.to_str().unwrap(),
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        "UserKnownHostsFile=/dev/null",
        "-o",
        "IdentitiesOnly=yes",
        "-o",
        "BatchMode=yes",
        "-o",
        "LogLevel=ERROR",
        "-F",
        "/dev/null",
        "-p",
        &port.to_string(),
    ]
    .iter()
    .map(ToString::to_string)
    .collect()
}

/// `ssh -p PORT NAME@127.0.0.1 progress --json`, parsed.
fn progress(key: &Path, name: &str, port: u16) -> serde_json::Value {
    let out = Command::new("ssh")
        .args(ssh_args(key, port))
        .arg(format!("{name}@127.0.0.1"))
        .args(["progress", "--json"])
        .stdin(Stdio::null())
        .output()
        .expect("ssh runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "progress --json: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("progress --json ({e}):\n{text}"))
}

fn item<'a>(progress: &'a serde_json::Value, kind: &str, id: &str) -> &'a serde_json::Value {
    progress["items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|i| i["item"] == id && i["kind"] == kind)
        .unwrap_or_else(|| panic!("no {kind} {id} in {progress}"))
}

/// A terminal session `ssh -t NAME@127.0.0.1 COMMAND` through `port`.
fn pane(key: &Path, name: &str, port: u16, command: &[&str]) -> Pane {
    let mut argv: Vec<String> = vec!["ssh".into(), "-t".into()];
    argv.extend(ssh_args(key, port));
    argv.push(format!("{name}@127.0.0.1"));
    argv.extend(command.iter().map(ToString::to_string));
    let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
    Pane::start(
        &argv,
        &[("TERM", "xterm-256color"), ("LANG", "C.UTF-8")],
        100,
        30,
    )
}

/// `report --store URL --json`, parsed.
fn report(store: &str) -> serde_json::Value {
    let data = tempfile::tempdir().unwrap();
    let out = Command::new(BIN)
        .args(["report", "--store", store, "--json"])
        .env("LANG", "C")
        .env_remove("ROCM_LEARN_LANG")
        .env("ROCM_LEARN_DATA_DIR", data.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "report --store: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("report --json ({e}):\n{text}"))
}

fn learner<'a>(report: &'a serde_json::Value, name: &str) -> Option<&'a serde_json::Value> {
    report["learners"]
        .as_array()?
        .iter()
        .find(|l| l["name"] == name)
}

/// Polls `f` until it gives Some, within the deadline.
fn eventually<T>(what: &str, f: impl Fn() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(t) = f() {
            return t;
        }
        assert!(start.elapsed() < pane::DEADLINE, "never: {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

const LAB: &str = "hipcc-not-found";

#[test]
fn workers_on_one_store_behind_haproxy_lose_nothing_when_one_is_killed() {
    let what = "serve class-database tests";
    if !common::needs::tool("ssh", "-V", "openssh-client", what)
        || !common::needs::tool("haproxy", "-v", "haproxy", what)
        || !common::needs::tmux(what)
        || !common::needs::bwrap(what)
    {
        return;
    }
    let Some(store) = fresh_database(what) else {
        return;
    };
    let class = Class::new();
    let mut a = Worker::start(&class.folder(0), &store);
    let b = Worker::start(&class.folder(1), &store);
    let lb = Haproxy::start(&[&a, &b]);
    let ana = class.key("ana");

    // ana, through the load balancer (to worker a), meets the lab's first step.
    let lab = pane(&ana, "ana", lb.port, &["lab", LAB]);
    lab.wait_for("learner@");
    a.wait_log("login ana (learner)");
    lab.type_text("export PATH=$PATH:/opt/rocm/bin");
    lab.keys(&["Enter"]);
    lab.wait_for("Step 2 of 2");

    assert_eq!(a.health().as_deref(), Some("HTTP/1.0 200 OK"));
    // The report from the database has her mid-lab, on that lab, computed by the server.
    let now = eventually("ana mid-lab in report --store", || {
        let r = report(&store);
        let now = learner(&r, "ana")?["now"].clone();
        (now["item"] == format!("lab:{LAB}")).then_some(r)
    });
    let row = learner(&now, "ana").unwrap();
    assert_eq!(row["items"][format!("lab:{LAB}")]["source"], "server");
    assert_eq!(row["items"][format!("lab:{LAB}")]["status"], "in-progress");

    // Worker a dies mid-lab. ana logs in again through the load balancer: worker b, which
    // never saw her, has the step she met.
    a.kill9();
    lab.close();
    let p = eventually("ana back through haproxy with her step", || {
        let p = progress(&ana, "ana", lb.port);
        let steps = item(&p, "lab", LAB)["steps_done"].as_array()?.len();
        (steps == 1).then_some(p)
    });
    assert_eq!(item(&p, "lab", LAB)["status"], "started");
    b.wait_log("login ana (learner)");

    // She solves the lab on worker b (a fresh machine: the step is met again, counted once).
    let lab = pane(&ana, "ana", lb.port, &["lab", LAB]);
    lab.wait_for("learner@");
    lab.type_text("export PATH=$PATH:/opt/rocm/bin");
    lab.keys(&["Enter"]);
    lab.wait_for("Step 2 of 2");
    lab.type_text("echo 'export PATH=$PATH:/opt/rocm/bin' >> ~/.bashrc");
    lab.keys(&["Enter"]);
    lab.wait_for("Lab complete");
    lab.keys(&["q"]);
    drop(lab);

    // A third worker with a class folder of its own: the lab is done there, one attempt.
    let c = Worker::start(&class.folder(2), &store);
    let p = eventually("the solved lab on worker c", || {
        let p = progress(&ana, "ana", c.port);
        (item(&p, "lab", LAB)["status"] == "done").then_some(p)
    });
    let lab_item = item(&p, "lab", LAB);
    assert_eq!(lab_item["steps_done"].as_array().map(Vec::len), Some(2));
    let r = eventually("the solved lab in report --store", || {
        let r = report(&store);
        let l = learner(&r, "ana")?;
        (l["items"][format!("lab:{LAB}")]["status"] == "done").then(|| r.clone())
    });
    let l = learner(&r, "ana").unwrap();
    assert_eq!(l["items"][format!("lab:{LAB}")]["source"], "server");
    // Every event once in the database, whichever workers sent or re-read it.
    let dupes = psql(
        &store,
        "SELECT count(*) - count(DISTINCT id) FROM rocm_learn_events",
    );
    assert_eq!(dupes.trim(), "0");
}

#[test]
fn a_database_newer_than_the_binary_and_a_url_asking_for_tls_are_refused_clearly() {
    let what = "serve class-database schema tests";
    let Some(store) = fresh_database(what) else {
        return;
    };
    let class = tempfile::tempdir().unwrap();
    let key = class.path().join("kim_key");
    keygen(&key, "kim");
    let public = std::fs::read_to_string(key.with_extension("pub")).unwrap();
    std::fs::write(
        class.path().join("roster.toml"),
        format!(
            "[[instructor]]\nname = \"kim\"\nkey = \"{}\"\n",
            public.trim()
        ),
    )
    .unwrap();
    let serve = |url: &str| {
        Command::new(BIN)
            .args(["serve", "--class"])
            .arg(class.path())
            .args(["--listen", "127.0.0.1:0", "--store", url])
            .env("LANG", "C")
            .env_remove("ROCM_LEARN_LANG")
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    // A first worker makes the schema; a later binary's migration leaves it past ours.
    psql(
        &store,
        "CREATE TABLE rocm_learn_schema (version integer NOT NULL); \
         INSERT INTO rocm_learn_schema VALUES (99)",
    );
    let out = serve(&store);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    common::has(&err, "schema version 99, newer than this rocm-learn knows");
    let out = serve(&format!("{store}?sslmode=require"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    common::has(&err, "asks for TLS (sslmode=require)");
    // What the database refused is said, not only that it did.
    let (head, _) = store.rsplit_once('/').unwrap();
    let out = serve(&format!("{head}/no_such_class"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    common::has(&err, "database \"no_such_class\" does not exist");
    // The password in a URL is never printed.
    let out = serve("postgres://ana:hunter2@127.0.0.1:1/nowhere");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    common::has(
        &err,
        "Could not connect to the class database ana@127.0.0.1:1/nowhere",
    );
    assert!(!err.contains("hunter2"), "{err}");
}

#[test]
fn sigterm_drains_a_worker_and_tells_its_learner_to_log_in_again() {
    let what = "serve drain tests";
    if !common::needs::tool("ssh", "-V", "openssh-client", what) || !common::needs::tmux(what) {
        return;
    }
    let Some(store) = fresh_database(what) else {
        return;
    };
    let class = Class::new();
    let mut a = Worker::start(&class.folder(0), &store);
    assert_eq!(a.health().as_deref(), Some("HTTP/1.0 200 OK"));
    // ana's session, in a shell that says when ssh ended.
    let mut argv: Vec<String> = [
        "sh",
        "-c",
        "ssh \"$@\"; echo \"ssh ended: $?\"; sleep 600",
        "sh",
        "-t",
    ]
    .map(String::from)
    .to_vec();
    argv.extend(ssh_args(&class.key("ana"), a.port));
    argv.push("ana@127.0.0.1".into());
    let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
    let home = Pane::start(
        &argv,
        &[("TERM", "xterm-256color"), ("LANG", "C.UTF-8")],
        100,
        30,
    );
    home.wait_for("Lessons");
    rustix::process::kill_process(
        rustix::process::Pid::from_raw(a.child.id() as i32).unwrap(),
        rustix::process::Signal::TERM,
    )
    .unwrap();
    // The learner is told to log in again, and the worker ends on its own, cleanly.
    let screen = home.wait_for("ssh ended");
    common::has(&screen, "Log in again with the same command");
    let start = Instant::now();
    let status = loop {
        if let Some(s) = a.child.try_wait().unwrap() {
            break s;
        }
        assert!(start.elapsed() < pane::DEADLINE, "the worker never ended");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}");
    let log = a.wait_log("serve: drained");
    common::has(&log, "serve: draining: no new connections");
    assert_eq!(a.health(), None);
}
