//! `rocm-learn serve` driven by the real OpenSSH client: a learner logs in with a key and sees
//! the home screen, opens a lab and types `id`, resizes, reconnects and continues; wrong keys,
//! unknown names, commands off the list, a full class and a silent client are refused. Needs
//! `ssh` (openssh-client), and tmux and bubblewrap for the terminal tests: without them these
//! tests skip and say so (CI installs them and requires them).

mod common;

use common::{has, lacks};
#[path = "common/pane.rs"]
mod pane;

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pane::Pane;

const BIN: &str = env!("CARGO_BIN_EXE_rocm-learn");
const CLASS_PACK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/class-pack");

/// `ssh` and `ssh-keygen` (both in openssh-client).
fn ssh_there(what: &str) -> bool {
    common::needs::tool("ssh", "-V", "openssh-client", what)
}

/// A class folder with a roster of `ana` (learner) and `kim` (instructor), and their keys.
struct Class {
    dir: tempfile::TempDir,
}

impl Class {
    fn new() -> Class {
        let dir = tempfile::tempdir().unwrap();
        let mut roster = String::new();
        for (role, name) in [
            ("learner", "ana"),
            ("instructor", "kim"),
            ("learner", "eve"),
        ] {
            let key = dir.path().join(format!("{name}_key"));
            keygen(&key, name);
            let public = std::fs::read_to_string(key.with_extension("pub")).unwrap();
            // eve is on the roster with someone else's key (ana's): her own key is wrong.
            let public = if name == "eve" {
                std::fs::read_to_string(dir.path().join("ana_key.pub")).unwrap()
            } else {
                public
            };
            roster.push_str(&format!(
                "[[{role}]]\nname = \"{name}\"\nkey = \"{}\"\n\n",
                public.trim()
            ));
        }
        let class = dir.path().join("class");
        std::fs::create_dir(&class).unwrap();
        std::fs::write(class.join("roster.toml"), roster).unwrap();
        Class { dir }
    }

    fn path(&self) -> PathBuf {
        self.dir.path().join("class")
    }

    fn key(&self, name: &str) -> PathBuf {
        self.dir.path().join(format!("{name}_key"))
    }

    /// A new key for someone not on the roster; its public half's blob.
    fn new_key(&self, name: &str) -> (PathBuf, String) {
        let key = self.key(name);
        keygen(&key, name);
        let public = std::fs::read_to_string(key.with_extension("pub")).unwrap();
        let blob = public.split_whitespace().nth(1).unwrap().to_string();
        (key, blob)
    }
}

/// An ed25519 key pair at `key` and `key.pub`, without a passphrase.
fn keygen(key: &Path, name: &str) {
    let ok = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", name, "-f"])
        .arg(key)
        .status()
        .unwrap()
        .success();
    assert!(ok, "ssh-keygen made a key");
}

/// A running `serve` on 127.0.0.1 and a free port, its log collected.
struct Server {
    child: Child,
    port: u16,
    log: Arc<Mutex<String>>,
}

impl Server {
    fn start(class: &Path, extra: &[&str]) -> Server {
        Server::start_as(class, extra, None)
    }

    /// As `start`, as the host user `user` (uid, gid) when given.
    fn start_as(class: &Path, extra: &[&str], user: Option<(u32, u32)>) -> Server {
        use std::os::unix::process::CommandExt;
        let mut cmd = Command::new(BIN);
        if let Some((uid, gid)) = user {
            cmd.uid(uid).gid(gid);
        }
        let mut child = cmd
            .args(["serve", "--class"])
            .arg(class)
            .args(["--listen", "127.0.0.1:0"])
            .args(extra)
            .env_remove("ROCM_LEARN_LANG")
            // No learning record store, whatever the machine running the tests names.
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
        let mut s = Server {
            child,
            port: 0,
            log,
        };
        let line = s.wait_log("on 127.0.0.1:");
        let port = line
            .split("on 127.0.0.1:")
            .nth(1)
            .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|p| p.parse().ok())
            .expect("the port in the log");
        s.port = port;
        s
    }

    /// Waits until the log has `text`; returns the log.
    fn wait_log(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let log = self.log.lock().unwrap().clone();
            if log.contains(text) {
                return log;
            }
            assert!(
                start.elapsed() < pane::DEADLINE,
                "no {text:?} in the server's log:\n{log}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// `ssh` options for this server with `key`, as a learner would type them.
    fn ssh_args(&self, key: &Path) -> Vec<String> {
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
            &self.port.to_string(),
        ]
        .iter()
        .map(std::string::ToString::to_string)
        .collect()
    }

    /// `ssh [-t] NAME@127.0.0.1 COMMAND` without a terminal: (exit code, stdout, stderr).
    fn ssh(&self, key: &Path, name: &str, command: &[&str]) -> (i32, String, String) {
        let out = Command::new("ssh")
            .args(self.ssh_args(key))
            .arg(format!("{name}@127.0.0.1"))
            .args(command)
            .stdin(Stdio::null())
            .output()
            .expect("ssh runs");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// `ssh NAME@127.0.0.1 COMMAND` as a person runs it (not in batch mode, so the server's
    /// one-line answers after keyboard-interactive are read) from a laptop whose locale is
    /// `lang`: (exit code, stderr).
    fn ssh_person(&self, key: &Path, name: &str, lang: &str, command: &[&str]) -> (i32, String) {
        let args = self.ssh_args(key).into_iter().map(|a| match a.as_str() {
            "BatchMode=yes" => "BatchMode=no".into(),
            _ => a,
        });
        let out = Command::new("ssh")
            .args(["-o", "SendEnv=LANG"])
            .args(args)
            .arg(format!("{name}@127.0.0.1"))
            .args(command)
            .env("LANG", lang)
            .stdin(Stdio::null())
            .output()
            .expect("ssh runs");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// `ssh -t NAME@127.0.0.1 COMMAND` in a tmux pane of `w`x`h`.
    fn pane(&self, key: &Path, name: &str, command: &[&str], w: u16, h: u16) -> Pane {
        self.pane_in(key, name, command, (w, h), "C.UTF-8")
    }

    /// As `pane`, from a laptop whose locale is `lang` (ssh sends LANG, as Debian's does).
    fn pane_in(
        &self,
        key: &Path,
        name: &str,
        command: &[&str],
        size: (u16, u16),
        lang: &str,
    ) -> Pane {
        let mut argv: Vec<String> = vec![
            "ssh".into(),
            "-t".into(),
            "-o".into(),
            "SendEnv=LANG".into(),
        ];
        argv.extend(self.ssh_args(key));
        argv.push(format!("{name}@127.0.0.1"));
        argv.extend(command.iter().map(std::string::ToString::to_string));
        let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
        Pane::start(
            &argv,
            &[("TERM", "xterm-256color"), ("LANG", lang)],
            size.0,
            size.1,
        )
    }

    /// `ssh -t NAME@127.0.0.1` as a person types it, answering prompts (the class code); the
    /// pane stays after ssh ends, showing `ssh ended: STATUS`.
    fn pane_joining(&self, key: &Path, name: &str) -> Pane {
        let mut argv: Vec<String> = [
            "sh",
            "-c",
            "ssh \"$@\"; echo \"ssh ended: $?\"; sleep 600",
            "sh",
            "-t",
        ]
        .map(String::from)
        .to_vec();
        // As typed by a person: prompts answered, and the server's instructions shown.
        argv.extend(self.ssh_args(key).into_iter().map(|a| match a.as_str() {
            "BatchMode=yes" => "BatchMode=no".into(),
            "LogLevel=ERROR" => "LogLevel=INFO".into(),
            _ => a,
        }));
        argv.push(format!("{name}@127.0.0.1"));
        let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
        Pane::start(
            &argv,
            &[("TERM", "xterm-256color"), ("LANG", "C.UTF-8")],
            100,
            30,
        )
    }

    /// `ssh -tt NAME@127.0.0.1`: a terminal session from a script (ssh makes the terminal).
    fn session_command(&self, key: &Path, name: &str) -> Command {
        let mut cmd = Command::new("ssh");
        cmd.arg("-tt")
            .args(self.ssh_args(key))
            .arg(format!("{name}@127.0.0.1"));
        cmd
    }

    /// `session_command` running, its keys written by the test to `stdin`, its output thrown
    /// away.
    fn session(&self, key: &Path, name: &str) -> Child {
        self.session_command(key, name)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("ssh runs")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether a line of the class screen is `name`'s row (the chosen one is marked `> `).
fn row_of(line: &str, name: &str) -> bool {
    line.trim_start_matches("> ")
        .trim_start()
        .strip_prefix(name)
        .is_some_and(|rest| rest.starts_with(' '))
}

/// The status of one item in `progress --json` output.
fn status(progress_json: &str, kind: &str, id: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(progress_json)
        .unwrap_or_else(|e| panic!("progress --json is JSON ({e}):\n{progress_json}"));
    v["items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|i| i["item"] == id && i["kind"] == kind)
        .and_then(|i| i["status"].as_str())
        .unwrap_or_else(|| panic!("no {kind} {id} in:\n{progress_json}"))
        .to_string()
}

#[test]
fn a_learner_logs_in_opens_a_lab_resizes_and_continues_after_reconnecting() {
    let what = "serve end-to-end tests";
    if !ssh_there(what) || !common::needs::tmux(what) || !common::needs::bwrap(what) {
        return;
    }
    let class = Class::new();
    let server = Server::start(&class.path(), &[]);

    // The home screen, over plain ssh.
    let home = server.pane(&class.key("ana"), "ana", &[], 100, 30);
    home.wait_for("Lessons");
    server.wait_log("login ana (learner) from 127.0.0.1");
    // She quits the app: that session is over (a dropped one would be kept for her).
    home.keys(&["q"]);
    server.wait_log("logout ana");

    // A lab, opened directly, with a real shell on the server.
    let lab = server.pane(
        &class.key("ana"),
        "ana",
        &["lab", "hipcc-not-found"],
        100,
        30,
    );
    lab.wait_for("learner@");
    lab.type_text("id");
    lab.keys(&["Enter"]);
    lab.wait_for("uid=1000(learner)");
    // The window grows: the app redraws at the new size (its title bar spans the width).
    lab.resize(130, 40);
    lab.wait_until("the app at 130 columns", |s| {
        s.lines()
            .next()
            .is_some_and(|l| l.trim_end().chars().count() > 110)
    });
    lab.type_text("export PATH=$PATH:/opt/rocm/bin");
    lab.keys(&["Enter"]);
    lab.wait_for("Step 2 of 2");
    // The connection drops (the laptop's lid closes): the server keeps the work.
    lab.close();
    server.wait_log("logout ana");

    let start = Instant::now();
    let progress = loop {
        let (code, out, err) = server.ssh(&class.key("ana"), "ana", &["progress", "--json"]);
        assert_eq!(code, 0, "progress --json over ssh: {err}");
        if status(&out, "lab", "hipcc-not-found") != "not-started" {
            break out;
        }
        // The app saves as it closes after the hangup; give it that moment.
        assert!(
            start.elapsed() < pane::DEADLINE,
            "no lab progress kept:\n{out}"
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(status(&progress, "lab", "hipcc-not-found"), "started");
    // It lives in ana's folder on the server, not anywhere of the client's.
    assert!(class.path().join("learners/ana").is_dir());

    // Nothing exported by hand: the class report reads the server's submit folder.
    let submit = class.path().join("submit");
    let start = Instant::now();
    loop {
        let out = Command::new(BIN)
            .arg("report")
            .arg(&submit)
            .env("LANG", "C")
            .env_remove("ROCM_LEARN_LANG")
            .env(
                "ROCM_LEARN_DATA_DIR",
                class.dir.path().join("instructor-data"),
            )
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        if text.contains("ana") && text.contains("hipcc-not-found") {
            break;
        }
        assert!(
            start.elapsed() < pane::DEADLINE,
            "no export of ana in the report:\n{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::thread::sleep(Duration::from_millis(200));
    }

    // The instructor's login opens the class screen: ana, on that lab, at its second step.
    let view = server.pane(&class.key("kim"), "kim", &[], 100, 24);
    let screen = view.wait_for("lab hipcc-not-found");
    has(&screen, "Class: 2 learners.");
    let ana = screen
        .lines()
        .find(|l| row_of(l, "ana"))
        .expect("ana's row");
    lacks(ana, "not started");
    lacks(ana, "now");
    let eve = screen
        .lines()
        .find(|l| row_of(l, "eve"))
        .expect("eve's row");
    has(eve, "not started");
    server.wait_log("login kim (instructor)");
    // Her lab session is kept after the dropped connection, and the class screen says so.
    view.wait_until("ana's session kept", |s| {
        s.lines()
            .find(|l| row_of(l, "ana"))
            .is_some_and(|l| l.contains("kept 10 min"))
    });
    // ana connects again: back in her lab, and the class screen shows her connected (it
    // reads every 2 s).
    let again = server.pane(&class.key("ana"), "ana", &[], 100, 30);
    again.wait_for("Reattached: your session was kept");
    again.wait_for("learner@");
    view.wait_until("ana connected", |s| {
        s.lines()
            .find(|l| row_of(l, "ana"))
            .is_some_and(|l| l.trim_end().ends_with("now"))
    });
    again.close();
    view.keys(&["q"]);
    server.wait_log("logout kim");
}

#[test]
fn wrong_keys_and_unknown_names_are_refused_in_one_line_and_logged_without_keys() {
    if !ssh_there("serve refusal tests") {
        return;
    }
    let class = Class::new();
    let server = Server::start(&class.path(), &[]);

    let (code, out, err) = server.ssh(&class.key("ana"), "bob", &["progress"]);
    assert_ne!(code, 0);
    assert!(out.is_empty(), "{out}");
    has(&err, "This name is not on the class roster.");
    server.wait_log("refused bob from 127.0.0.1");

    // eve's roster entry holds ana's key; eve's own key is refused: a script gets SSH's own
    // refusal, a person one line saying whose key it is not, in their language.
    let (code, _, err) = server.ssh(&class.key("eve"), "eve", &["progress"]);
    assert_eq!(code, 255);
    has(&err, "Permission denied (publickey");
    for (lang, line) in [
        ("C.UTF-8", "This key is not eve's."),
        ("ja_JP.UTF-8", "この鍵は「eve」の鍵ではありません。"),
        ("ko_KR.UTF-8", "이 키는 \"eve\"의 키가 아닙니다."),
    ] {
        let (code, err) = server.ssh_person(&class.key("eve"), "eve", lang, &["progress"]);
        assert_eq!(code, 1, "{lang}: {err}");
        has(&err, line);
        lacks(&err, "not on the class roster");
        lacks(&err, "名簿にありません");
    }
    // A client with a wrong key and then the right one is let in with the right one.
    let both = Command::new("ssh")
        .args(["-i", class.key("kim").to_str().unwrap()])
        .args(server.ssh_args(&class.key("ana")))
        .args(["ana@127.0.0.1", "progress", "--json"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(both.status.success(), "{both:?}");
    let log = server.wait_log("refused eve from 127.0.0.1");
    has(&log, "wrong key");
    has(&log, "unknown name");
    lacks(&log, "ana login");
    // No key material in the log.
    for name in ["ana", "eve", "kim"] {
        let public = std::fs::read_to_string(class.key(name).with_extension("pub")).unwrap();
        let blob = public.split_whitespace().nth(1).unwrap();
        lacks(&log, blob);
    }
    lacks(&log, "BEGIN OPENSSH");
}

#[test]
fn only_the_listed_commands_run_and_the_app_needs_a_terminal() {
    if !ssh_there("serve command tests") {
        return;
    }
    let class = Class::new();
    let server = Server::start(&class.path(), &[]);
    let key = class.key("ana");
    let marker = class.dir.path().join("ran");
    let touch = format!("touch {}", marker.display());
    for cmd in [
        vec!["bash", "-c", "touch ran"],
        vec![touch.as_str()],
        vec!["lab", "--script", "/etc/passwd", "x"],
        vec!["progress", "reset"],
    ] {
        let (code, out, err) = server.ssh(&key, "ana", &cmd);
        assert_eq!(code, 1, "{cmd:?}: {out}{err}");
        has(&err, "Not available here.");
    }
    assert!(!marker.exists());
    let (code, _, err) = server.ssh(&key, "ana", &["lab", "hipcc-not-found"]);
    assert_eq!(code, 1);
    has(&err, "This needs a terminal: connect with ssh -t.");
    // progress prints as the same subcommand does on a laptop.
    let (code, out, _) = server.ssh(&key, "ana", &["progress", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(status(&out, "lab", "hipcc-not-found"), "not-started");
    has(&out, "\"learner\": \"ana\"");
}

#[test]
fn a_full_class_says_so_and_a_silent_client_is_dropped() {
    if !ssh_there("serve limit tests") {
        return;
    }
    let class = Class::new();
    let server = Server::start(
        &class.path(),
        &["--max-sessions", "1", "--login-timeout", "2"],
    );
    // One session holds the only place: the app on a terminal (-tt: ssh makes one without ours).
    let mut first = server.session(&class.key("ana"), "ana");
    server.wait_log("login ana");
    // The place is taken once the session asked for its app; the next one is told.
    let start = Instant::now();
    let err = loop {
        let out = server
            .session_command(&class.key("kim"), "kim")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let all = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        if all.contains("The class is full right now.") {
            break all;
        }
        assert!(start.elapsed() < pane::DEADLINE, "never full:\n{all}");
        std::thread::sleep(Duration::from_millis(200));
    };
    lacks(&err, "Lessons");
    let _ = first.kill();
    let _ = first.wait();

    // A client that connects and says nothing is dropped at the login timeout.
    let mut tcp = std::net::TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let start = Instant::now();
    let mut buf = [0u8; 256];
    let mut got = Vec::new();
    loop {
        match tcp.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
        }
    }
    assert!(got.starts_with(b"SSH-2.0-"), "{got:?}");
    let took = start.elapsed();
    assert!(
        took >= Duration::from_millis(1500) && took < Duration::from_secs(10),
        "dropped after {took:?}"
    );
    server.wait_log("without a login: no login tried (login time over)");
}

#[test]
fn a_bad_roster_is_named_with_its_line() {
    let class = Class::new();
    let roster = class.path().join("roster.toml");
    std::fs::write(
        &roster,
        "[[learner]]\nname = \"ana\"\nkey = \"ssh-ed25519 AAAA\"\n",
    )
    .unwrap();
    let out = Command::new(BIN)
        .args(["serve", "--class"])
        .arg(class.path())
        .args(["--listen", "127.0.0.1:0"])
        .env("LANG", "C")
        .env_remove("ROCM_LEARN_LANG")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    has(&err, "roster.toml:3");
    has(&err, "not an OpenSSH public key line");
}

/// The server's resident memory, from /proc.
fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

#[test]
fn a_burst_of_connections_garbage_and_a_huge_paste_leave_a_session_working() {
    let what = "serve hostile-client tests";
    if !ssh_there(what) || !common::needs::tmux(what) {
        return;
    }
    let class = Class::new();
    let server = Server::start(&class.path(), &["--login-timeout", "3"]);
    let ana = server.pane(&class.key("ana"), "ana", &[], 100, 30);
    ana.wait_for("Lessons");

    // A learner with a session of their own (logged in first: during the burst below new
    // logins may be turned away while the waiting room is full, as they should be).
    let mut paste = server.session(&class.key("kim"), "kim");
    server.wait_log("login kim");

    // 200 connections at once from another address; half of them send garbage instead of an
    // SSH greeting.
    let mut burst = Vec::new();
    for i in 0..200 {
        if let Ok(mut s) = connect_from([127, 0, 0, 2], server.port) {
            if i % 2 == 0 {
                use std::io::Write;
                let _ = s.write_all(b"GET / HTTP/1.0\r\n\x1b[2J\x00\xff\r\n\r\n");
            }
            burst.push(s);
        }
    }
    // They paste 4 MiB of terminal garbage into it.
    {
        use std::io::Write;
        let mut stdin = paste.stdin.take().unwrap();
        let chunk: Vec<u8> = (0..64 * 1024u32)
            .map(|i| match i % 7 {
                0 => 0x1b,
                1 => b'[',
                _ => b'0' + (i % 10) as u8,
            })
            .collect();
        for _ in 0..64 {
            if stdin.write_all(&chunk).is_err() {
                break;
            }
        }
    }
    // ana's session still answers her keys: the lessons list opens.
    ana.keys(&["2"]);
    ana.keys(&["Enter"]);
    ana.wait_for("What ROCm is");
    let rss = rss_kib(server.child.id());
    assert!(rss < 200 * 1024, "the server holds {rss} KiB");
    let _ = paste.kill();
    let _ = paste.wait();
    drop(burst);
    // New logins work once the burst is gone.
    let (code, out, err) = server.ssh(&class.key("ana"), "ana", &["progress", "--json"]);
    assert_eq!(code, 0, "{err}");
    has(&out, "\"learner\": \"ana\"");
}

#[test]
fn two_servers_on_one_class_folder_share_the_learner_and_the_host_key() {
    let what = "serve two-server tests";
    if !ssh_there(what) || !common::needs::tmux(what) || !common::needs::bwrap(what) {
        return;
    }
    let class = Class::new();
    let a = Server::start(&class.path(), &[]);
    let b = Server::start(&class.path(), &[]);
    // ana works on server a...
    let lab = a.pane(
        &class.key("ana"),
        "ana",
        &["lab", "hipcc-not-found"],
        100,
        30,
    );
    lab.wait_for("learner@");
    lab.close();
    a.wait_log("logout ana");
    // ...and, reconnecting through server b, finds that work.
    let start = Instant::now();
    loop {
        let (code, out, err) = b.ssh(&class.key("ana"), "ana", &["progress", "--json"]);
        assert_eq!(code, 0, "{err}");
        if status(&out, "lab", "hipcc-not-found") != "not-started" {
            break;
        }
        assert!(
            start.elapsed() < pane::DEADLINE,
            "server b does not see ana's lab:\n{out}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    // One host key for both: a learner's known_hosts entry fits either.
    let scan = |port: u16| {
        let out = Command::new("ssh-keyscan")
            .args(["-t", "ed25519", "-p", &port.to_string(), "127.0.0.1"])
            .stderr(Stdio::null())
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.split_whitespace()
            .last()
            .unwrap_or_default()
            .to_string()
    };
    let key_a = scan(a.port);
    assert!(!key_a.is_empty());
    assert_eq!(key_a, scan(b.port));
}

#[test]
fn the_instructor_mirrors_a_learner_read_only_and_the_learner_is_told() {
    let what = "serve mirror tests";
    if !ssh_there(what) || !common::needs::tmux(what) || !common::needs::bwrap(what) {
        return;
    }
    let class = Class::new();
    let server = Server::start(&class.path(), &["--keep-detached", "0"]);
    let notice = "Your instructor is watching";
    let ana = server.pane(
        &class.key("ana"),
        "ana",
        &["lab", "hipcc-not-found"],
        100,
        30,
    );
    ana.wait_for("learner@");
    ana.type_text("id");
    ana.keys(&["Enter"]);
    ana.wait_for("uid=1000(learner)");
    lacks(&ana.screen(), notice);

    // The class screen opens on ana (the first learner); Enter shows her screen as it is now,
    // though the instructor came after everything on it was printed.
    let kim = server.pane(&class.key("kim"), "kim", &[], 100, 30);
    kim.wait_for("Class: 2 learners.");
    kim.keys(&["Enter"]);
    let mirror = kim.wait_for("uid=1000(learner)");
    has(&mirror, "Watching ana, read only.");
    has(&mirror, "learner@");
    ana.wait_for(notice);

    // What the instructor types goes nowhere; what ana types shows in the mirror.
    kim.type_text("echo from-kim");
    kim.keys(&["Enter"]);
    ana.type_text("echo from-ana");
    ana.keys(&["Enter"]);
    kim.wait_until("ana's new line in the mirror", |s| {
        s.matches("from-ana").count() >= 2
    });
    lacks(&ana.screen(), "from-kim");
    lacks(&kim.screen(), "from-kim");

    // Esc gives the class screen back, and ana's notice goes.
    kim.keys(&["Escape"]);
    kim.wait_for("Class: 2 learners.");
    ana.wait_until("the notice gone", |s| !s.contains(notice));
    lacks(&ana.screen(), "from-kim");
    ana.close();
    server.wait_log("logout ana");

    // ana again, from a Japanese laptop: the notice is in her language; q leaves it too.
    let ana = server.pane_in(&class.key("ana"), "ana", &[], (100, 30), "ja_JP.UTF-8");
    ana.wait_for("日本語");
    kim.keys(&["Enter"]);
    kim.wait_for("Watching ana, read only.");
    ana.wait_for("講師が画面を見ています");
    kim.keys(&["q"]);
    kim.wait_for("Class: 2 learners.");
    ana.wait_until("the notice gone", |s| !s.contains("講師が画面を見ています"));
    // A learner not connected here: the mirror says so and leaves on Esc.
    kim.keys(&["Down", "Enter"]);
    kim.wait_for("eve has no session on this server now.");
    kim.keys(&["Escape"]);
    kim.wait_for("Class: 2 learners.");
}

#[test]
fn a_class_code_lets_a_new_learner_pick_a_name_and_pins_their_key() {
    let what = "serve class-code tests";
    if !ssh_there(what) || !common::needs::tmux(what) {
        return;
    }
    let class = Class::new();
    let print = || {
        let out = Command::new(BIN)
            .args(["serve", "--class"])
            .arg(class.path())
            .arg("--print-code")
            .env("LANG", "C")
            .env_remove("ROCM_LEARN_LANG")
            .output()
            .unwrap();
        assert!(out.status.success());
        has(&String::from_utf8_lossy(&out.stderr), "Delete");
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    let code = print();
    assert_eq!(code.len(), 9, "{code}");
    assert_eq!(print(), code, "the code is made once");
    let roster_path = class.path().join("roster.toml");
    let roster_before = std::fs::read_to_string(&roster_path).unwrap();
    let server = Server::start(&class.path(), &[]);
    let (zoe, zoe_blob) = class.new_key("zoe");

    // A wrong code: one plain line, and no way in.
    let p = server.pane_joining(&zoe, "zoe");
    let screen = p.wait_for("Class code:");
    has(&screen, "\"zoe\" is not on the class roster yet.");
    p.type_text("ABCD-EFGH");
    p.keys(&["Enter"]);
    let screen = p.wait_for("ssh ended");
    has(&screen, "That class code is not right.");
    lacks(&screen, "Lessons");
    let log = server.wait_log(": wrong class code");
    has(&log, "refused zoe from 127.0.0.1:");

    // A name that cannot be one is told so before any code.
    let p = server.pane_joining(&zoe, "Zoe");
    let screen = p.wait_for("ssh ended");
    has(&screen, "\"Zoe\" cannot be a login name");
    lacks(&screen, "Class code");

    // The right code, typed loosely: zoe is in, and on the roster with her key.
    let p = server.pane_joining(&zoe, "zoe");
    p.wait_for("Class code:");
    p.type_text(&code.to_lowercase().replace('-', ""));
    p.keys(&["Enter"]);
    p.wait_for("Lessons");
    server.wait_log("joined zoe (learner) from 127.0.0.1");
    server.wait_log("login zoe (learner)");
    let roster = std::fs::read_to_string(class.path().join("roster.toml")).unwrap();
    has(&roster, "name = \"zoe\"");
    has(&roster, &zoe_blob);
    p.close();

    // Later, her key alone lets her in (no code, no prompt)...
    let (status, out, err) = server.ssh(&zoe, "zoe", &["progress", "--json"]);
    assert_eq!(status, 0, "{err}");
    has(&out, "\"learner\": \"zoe\"");
    // ...and another key cannot have her name: it is told the key is not hers, and is not
    // asked for the code.
    let p = server.pane_joining(&class.key("kim"), "zoe");
    let screen = p.wait_for("ssh ended");
    has(&screen, "This key is not zoe's.");
    lacks(&screen, "Class code");
    lacks(&screen, "Lessons");
    let (status, _, _) = server.ssh(&class.key("kim"), "zoe", &["progress"]);
    assert_eq!(status, 255, "a script with another key is refused");

    // Taken off the roster, zoe keeps her name: her folder (her progress) is there, so the
    // code does not let anyone join as her again.
    std::fs::write(&roster_path, &roster_before).unwrap();
    let (mal, mal_blob) = class.new_key("mal");
    let p = server.pane_joining(&mal, "zoe");
    p.wait_for("Class code:");
    p.type_text(&code);
    p.keys(&["Enter"]);
    let screen = p.wait_for("ssh ended");
    has(&screen, "The name \"zoe\" is already taken.");
    lacks(&screen, "Lessons");
    server.wait_log(": name taken");
    lacks(&std::fs::read_to_string(&roster_path).unwrap(), &mal_blob);
    assert!(class.path().join("learners/zoe").is_dir());

    // Neither the code nor any key is in the log.
    let log = server.wait_log(": name taken");
    lacks(&log, &code);
    lacks(&log, &code.replace('-', ""));
    lacks(&log, &zoe_blob);
    for name in ["ana", "kim"] {
        let public = std::fs::read_to_string(class.key(name).with_extension("pub")).unwrap();
        lacks(&log, public.split_whitespace().nth(1).unwrap());
    }
}

/// The host ids a lab's namespace maps, as its shell printed them (`map:INSIDE:OUTSIDE`):
/// root's and account 1's.
fn printed_map(screen: &str) -> Option<(u32, u32)> {
    let outside = |inside: &str| {
        let at = screen.find(&format!("map:{inside}:"))? + 5 + inside.len();
        let digits: String = screen[at..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse::<u32>().ok()
    };
    Some((outside("0")?, outside("1")?))
}

/// The real uid of a host process.
fn host_uid(pid: i32) -> Option<u32> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("Uid:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The processes of `name`'s session below the server: its app's descendants (the lab), found
/// by the learner the server started the app for.
fn lab_processes(server: &Server, name: &str) -> Vec<(i32, pane::Stat)> {
    let serve = server.child.id() as i32;
    let want = format!("ROCM_LEARN_LEARNER={name}");
    let app = pane::descendants(serve)
        .into_iter()
        .filter(|(_, s)| s.ppid == serve)
        .map(|(pid, _)| pid)
        .find(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|e| e.split(|b| *b == 0).any(|v| v == want.as_bytes()))
        });
    app.map(pane::descendants).unwrap_or_default()
}

/// `kill -0 PID` as host uid `uid`: whether the kernel lets that uid signal the process.
fn may_signal(uid: u32, pid: i32) -> bool {
    Command::new("setpriv")
        .args(["--reuid", &uid.to_string(), "--regid", &uid.to_string()])
        .args(["--clear-groups", "kill", "-0", &pid.to_string()])
        .stderr(Stdio::null())
        .status()
        .expect("setpriv runs")
        .success()
}

#[test]
fn two_learners_labs_run_as_host_ids_of_their_own_and_see_only_their_own_processes() {
    let what = "serve's per-learner lab ids";
    if !ssh_there(what) || !common::needs::tmux(what) || !common::needs::root(what) {
        return;
    }
    let class = Class::new();
    let (bo_key, _) = class.new_key("bo");
    let bo_public = std::fs::read_to_string(bo_key.with_extension("pub")).unwrap();
    let roster = class.path().join("roster.toml");
    let mut text = std::fs::read_to_string(&roster).unwrap();
    text.push_str(&format!(
        "[[learner]]\nname = \"bo\"\nkey = \"{}\"\n",
        bo_public.trim()
    ));
    std::fs::write(&roster, text).unwrap();
    let server = Server::start(&class.path(), &[]);
    lacks(&server.wait_log("on 127.0.0.1:"), "share");

    let ana = server.pane(
        &class.key("ana"),
        "ana",
        &["lab", "hipcc-not-found"],
        100,
        30,
    );
    let bo = server.pane(&bo_key, "bo", &["lab", "hipcc-not-found"], 100, 30);
    let show_map =
        "while read i o c; do printf 'map:%s:%s ' $i $o; done < /proc/self/uid_map; echo";
    let mut maps = Vec::new();
    for lab in [&ana, &bo] {
        lab.wait_for("learner@");
        lab.type_text(show_map);
        lab.keys(&["Enter"]);
        let screen = lab.wait_until("the lab's uid map", |s| printed_map(s).is_some());
        maps.push(printed_map(&screen).unwrap());
    }
    let (ana_map, bo_map) = (maps[0], maps[1]);
    // Each lab's app holds its block's lab lock, so the block stays its own even should the
    // server die before the app has closed the lab.
    for name in ["ana", "bo"] {
        let lock = app_env(&server, name, "ROCM_LEARN_LAB_SLOT_LOCK");
        let free = Command::new("flock")
            .args(["-xn", &lock, "true"])
            .status()
            .expect("flock runs");
        assert!(!free.success(), "{name}'s block is not held by their app");
    }
    // Root of each lab is a host id of its own, not nobody; the accounts follow it.
    assert_ne!(ana_map, bo_map, "both labs map the same host ids");
    for (root, first) in [ana_map, bo_map] {
        assert_ne!(root, 65534, "a lab's root is the host's nobody");
        assert_eq!(first, root + 1);
    }
    let (lo, hi) = if ana_map.0 < bo_map.0 {
        (ana_map.0, bo_map.0)
    } else {
        (bo_map.0, ana_map.0)
    };
    assert!(hi - lo >= 65536, "the two labs' ranges overlap: {lo} {hi}");

    // The host's view agrees: every process of each lab runs as an id of its own range.
    for (name, (root, _)) in [("ana", ana_map), ("bo", bo_map)] {
        let procs = lab_processes(&server, name);
        assert!(!procs.is_empty(), "no lab processes of {name}");
        for (pid, s) in procs {
            let Some(uid) = host_uid(pid) else { continue };
            assert!(
                (root..root + 65536).contains(&uid),
                "{name}'s {} (pid {pid}) runs as host uid {uid}, outside {root}..",
                s.comm
            );
        }
    }

    // ana's lab runs a program; only ana's lab sees it.
    ana.type_text("sleep 4242 &");
    ana.keys(&["Enter"]);
    let count = "echo \"seen=$(for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < $f; echo; done \
                 | grep -c 'sleep 424[2]')\"";
    ana.type_text(count);
    ana.keys(&["Enter"]);
    ana.wait_for("seen=1");
    bo.type_text(count);
    bo.keys(&["Enter"]);
    // The typed line holds `seen=$(`: the answer is `seen=` and a number.
    let answered = |s: &str| {
        s.match_indices("seen=")
            .any(|(at, _)| s[at + 5..].starts_with(|c: char| c.is_ascii_digit()))
    };
    let screen = bo.wait_until("bo's count", answered);
    has(&screen, "seen=0");

    // Escaped from bo's lab, bo's learner could not even signal ana's program; ana's could.
    let sleep = pane::wait("ana's sleep on the host", || {
        lab_processes(&server, "ana")
            .into_iter()
            .find(|(pid, s)| {
                s.comm == "sleep"
                    && std::fs::read(format!("/proc/{pid}/cmdline"))
                        .is_ok_and(|c| c.starts_with(b"sleep\x004242"))
            })
            .map(|(pid, _)| pid)
    });
    let learner = 1000;
    assert!(may_signal(ana_map.1 - 1 + learner, sleep));
    assert!(!may_signal(bo_map.1 - 1 + learner, sleep));
    ana.close();
    bo.close();
}

#[test]
fn more_sessions_than_labs_have_host_ids_for_is_refused_before_anything_starts() {
    let class = Class::new();
    let out = Command::new(BIN)
        .args(["serve", "--class"])
        .arg(class.path())
        .args(["--listen", "127.0.0.1:0", "--max-sessions", "5632"])
        .env_remove("ROCM_LEARN_LANG")
        .env("LANG", "C")
        .env("LC_ALL", "C")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    has(&err, "--max-sessions 5632 is too many");
    has(&err, "Use 5631 or fewer.");
    // Nothing was made (no host key, no submit folder): the roster alone is there.
    assert_eq!(std::fs::read_dir(class.path()).unwrap().count(), 1);
}

#[test]
fn a_server_whose_labs_would_share_ids_says_so_as_it_starts() {
    let Some(user) = common::needs::subordinate_user("serve's word on shared lab ids") else {
        return;
    };
    // The user's one range (65536 ids, as adduser gives) holds no block per session.
    let class = Class::new();
    fn give(p: &Path, (uid, gid): (u32, u32)) {
        std::os::unix::fs::lchown(p, Some(uid), Some(gid)).unwrap();
        if p.is_dir() {
            for e in std::fs::read_dir(p).unwrap() {
                give(&e.unwrap().path(), (uid, gid));
            }
        }
    }
    give(class.dir.path(), user);
    let server = Server::start_as(&class.path(), &["--max-sessions", "2"], Some(user));
    let log = server.wait_log("on 127.0.0.1:");
    has(&log, "serve: learners' labs share one range of host ids");
    has(&log, "a range for each of 2 sessions needs 196607");
    assert_eq!(log.matches("share").count(), 1, "{log}");
}

/// A TCP connection to the server from the loopback address `from` (127.0.0.0/8 is all this
/// machine): another client on the network, as the server counts sources.
fn connect_from(from: [u8; 4], port: u16) -> std::io::Result<std::net::TcpStream> {
    use rustix::net::{AddressFamily, SocketAddrV4, SocketType, bind, connect, socket};
    let fd = socket(AddressFamily::INET, SocketType::STREAM, None)?;
    bind(&fd, &SocketAddrV4::new(from.into(), 0))?;
    connect(&fd, &SocketAddrV4::new([127, 0, 0, 1].into(), port))?;
    Ok(std::net::TcpStream::from(fd))
}

/// Sends `sig` to a process of the test's own (an ssh client).
fn kill(pid: i32, sig: rustix::process::Signal) {
    let pid = rustix::process::Pid::from_raw(pid).expect("a pid");
    let _ = rustix::process::kill_process(pid, sig);
}

#[test]
fn a_cut_connection_keeps_the_lab_machine_for_the_next_login() {
    let what = "serve reattach tests";
    if !ssh_there(what) || !common::needs::tmux(what) || !common::needs::bwrap(what) {
        return;
    }
    let class = Class::new();
    let server = Server::start(&class.path(), &[]);
    let lab = server.pane(
        &class.key("ana"),
        "ana",
        &["lab", "hipcc-not-found"],
        100,
        30,
    );
    lab.wait_for("learner@");
    lab.type_text("touch made-before-the-cut && echo MADE");
    lab.keys(&["Enter"]);
    lab.wait_for("MADE");
    // The connection is cut: ssh dies at once, nothing said to the server (no channel close,
    // no disconnect), as when a laptop loses its network.
    kill(lab.process().pid, rustix::process::Signal::KILL);
    server.wait_log("detached ana: kept 10 min");

    // From "another laptop", with another command and another terminal size: the same lab.
    let again = server.pane(&class.key("ana"), "ana", &["quiz", "rocm-basics"], 120, 35);
    again.wait_for("Reattached: your session was kept");
    let screen = again.wait_for("learner@");
    // Drawn for this terminal: the title bar spans its 120 columns.
    assert!(
        screen
            .lines()
            .next()
            .is_some_and(|l| l.trim_end().chars().count() > 100),
        "{screen}"
    );
    again.type_text("ls made-before-the-cut && echo STILL-HERE");
    again.keys(&["Enter"]);
    again.wait_for("STILL-HERE");
    let log = server.wait_log("reattached ana from 127.0.0.1");
    assert_eq!(log.matches("serve: login ana").count(), 2, "{log}");
    // The note goes with the next key.
    again.keys(&["Escape"]);
    again.wait_until("the note gone", |s| !s.contains("Reattached"));
}

#[test]
fn a_session_is_not_kept_past_its_time() {
    let what = "serve reattach tests";
    if !ssh_there(what) || !common::needs::tmux(what) {
        return;
    }
    let class = Class::new();
    let server = Server::start(&class.path(), &["--keep-detached", "0"]);
    let home = server.pane(
        &class.key("ana"),
        "ana",
        &["lesson", "what-is-rocm"],
        100,
        30,
    );
    home.wait_for("rocm-learn");
    kill(home.process().pid, rustix::process::Signal::KILL);
    server.wait_log("ended ana's detached session after 0 min");
    server.wait_log("logout ana");
    // A new login starts afresh: the home screen, no note.
    let again = server.pane(&class.key("ana"), "ana", &[], 100, 30);
    let screen = again.wait_for("Lessons");
    lacks(&screen, "Reattached");
}

#[test]
fn a_relative_class_folder_keeps_everything_in_it() {
    let what = "serve --class RELATIVE tests";
    if !ssh_there(what) || !common::needs::tmux(what) {
        return;
    }
    let class = Class::new();
    let home = tempfile::tempdir().unwrap();
    let mut child = Command::new(BIN)
        .args(["serve", "--class", "class", "--listen", "127.0.0.1:0"])
        .current_dir(class.dir.path())
        .env("HOME", home.path())
        .env_remove("ROCM_LEARN_DATA_DIR")
        .env_remove("ROCM_LEARN_LANG")
        .env("LANG", "C")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let log = Arc::new(Mutex::new(String::new()));
    let kept = log.clone();
    let stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            kept.lock().unwrap().push_str(&(line + "\n"));
        }
    });
    let mut server = Server {
        child,
        port: 0,
        log,
    };
    let line = server.wait_log("on 127.0.0.1:");
    // The log names the class folder by its whole path.
    has(&line, &format!("in {}", class.path().display()));
    server.port = line
        .split("on 127.0.0.1:")
        .nth(1)
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|p| p.parse().ok())
        .unwrap();
    let (code, out, err) = server.ssh(&class.key("ana"), "ana", &["progress", "--json"]);
    assert_eq!(code, 0, "{err}");
    has(&out, "\"learner\": \"ana\"");
    // The instructor's class screen reads the roster from the class folder.
    let view = server.pane(&class.key("kim"), "kim", &[], 100, 24);
    view.wait_for("Class: 2 learners.");
    assert!(class.path().join("learners/ana").is_dir());
    assert!(
        !home.path().join("class").exists(),
        "files went to $HOME/class"
    );
}

/// Starts `ssh` from the loopback address `from` as `name` with `key`, running `command`
/// without a terminal; returns how long until the server logged the login (None: it did not
/// within 10 s).
fn timed_login(server: &Server, key: &Path, name: &str, from: &str) -> Option<Duration> {
    let needle = format!("serve: login {name} ");
    let before = server.log.lock().unwrap().matches(&needle).count();
    let start = Instant::now();
    let mut child = Command::new("ssh")
        .args(["-b", from])
        .args(server.ssh_args(key))
        .arg(format!("{name}@127.0.0.1"))
        .args(["progress", "--json"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let took = loop {
        if server.log.lock().unwrap().matches(&needle).count() > before {
            break Some(start.elapsed());
        }
        if start.elapsed() > Duration::from_secs(10) {
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let _ = child.wait();
    took
}

#[test]
fn a_hostile_network_cannot_keep_learners_out_and_every_refusal_is_logged() {
    if !ssh_there("serve red-team tests") {
        return;
    }
    let class = Class::new();
    let server = Server::start(&class.path(), &["--login-timeout", "20"]);
    let quick = |what: &str| {
        let took = timed_login(&server, &class.key("ana"), "ana", "127.0.0.1");
        assert!(
            took.is_some_and(|t| t < Duration::from_secs(1)),
            "during {what} ana's login took {took:?}:\n{}",
            server.log.lock().unwrap()
        );
    };

    // 1. A flood of connections that never speak, all from one address.
    let mut silent = Vec::new();
    for _ in 0..100 {
        if let Ok(s) = connect_from([127, 0, 0, 2], server.port) {
            silent.push(s);
        }
    }
    let log = server.wait_log("refused 127.0.0.2:");
    has(&log, "5 connections from this address not logged in");
    quick("a flood of silent connections");
    drop(silent);

    // 2. Slowloris: connections that send their greeting a byte at a time.
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let slow: Vec<_> = (0..30)
        .filter_map(|_| connect_from([127, 0, 0, 3], server.port).ok())
        .collect();
    let dripping = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut slow = slow;
            for b in b"SSH-2.0-slow".iter().cycle() {
                if stop.load(std::sync::atomic::Ordering::SeqCst) {
                    break;
                }
                for s in &mut slow {
                    use std::io::Write;
                    let _ = s.write_all(&[*b]);
                }
                std::thread::sleep(Duration::from_millis(300));
            }
        })
    };
    server.wait_log("refused 127.0.0.3:");
    quick("slowloris");
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    dripping.join().unwrap();

    // 3. An address that keeps failing to log in is refused for a while, and said so once.
    let (stranger, _) = class.new_key("mallory");
    for _ in 0..40 {
        let _ = Command::new("ssh")
            .args(["-b", "127.0.0.4"])
            .args(server.ssh_args(&stranger))
            .arg("eve@127.0.0.1")
            .stdin(Stdio::null())
            .output();
        if server
            .log
            .lock()
            .unwrap()
            .contains("serve: penalty for 127.0.0.4")
        {
            break;
        }
    }
    let log = server.wait_log("serve: penalty for 127.0.0.4");
    assert_eq!(
        log.matches("serve: penalty for 127.0.0.4").count(),
        1,
        "{log}"
    );
    let _ = connect_from([127, 0, 0, 4], server.port);
    server.wait_log("penalty for repeated failures");
    quick("a penalized neighbour");

    // 4. Log spoofing: a name with controls that would rewrite the instructor's log line (a
    // bidi override, an escape that clears the line, NEL and a carriage return) is logged
    // harmless. OpenSSH sends such a name only from a config file, never from its command line.
    let config = class.dir.path().join("spoof_config");
    std::fs::write(
        &config,
        format!(
            "Host spoof\n  HostName 127.0.0.1\n  Port {}\n  User \"x\u{202e}\x1b[2K\u{85}\rserve: login kim\"\n  \
             IdentityFile {}\n  IdentitiesOnly yes\n  BatchMode yes\n  StrictHostKeyChecking no\n  \
             UserKnownHostsFile /dev/null\n  LogLevel ERROR\n",
            server.port,
            stranger.display()
        ),
    )
    .unwrap();
    let out = Command::new("ssh")
        .arg("-F")
        .arg(&config)
        .arg("spoof")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    has(
        &String::from_utf8_lossy(&out.stderr),
        "not on the class roster",
    );
    let log = server.wait_log("refused x??[2K??serve: login kim from 127.0.0.1");
    assert!(!log.contains('\u{202e}'), "{log}");
    assert!(
        !log.lines().any(|l| l.starts_with("serve: login kim")),
        "a forged line:\n{log}"
    );
    // Every connection that left without a login said so.
    has(&log, "without a login");
}

#[test]
fn one_learner_cannot_take_every_session_or_connection() {
    let what = "serve red-team tests";
    if !ssh_there(what) || !common::needs::tmux(what) {
        return;
    }
    let class = Class::new();
    let server = Server::start(&class.path(), &["--idle-close", "3"]);
    // Three sessions at once are hers to have; the fourth is refused in one line.
    let panes: Vec<Pane> = (0..3)
        .map(|_| {
            let p = server.pane(&class.key("ana"), "ana", &[], 100, 30);
            p.wait_for("Lessons");
            p
        })
        .collect();
    let fourth = server.pane_joining(&class.key("ana"), "ana");
    fourth.wait_for("You have 3 sessions open already (at most 3).");
    let log = server.wait_log("refused a session to ana from 127.0.0.1:");
    has(&log, ": 3 sessions open (at most 3)");

    // Idle logged-in connections: at most 8 of hers at once, each closed after the idle time.
    // (One after another: at once, the address's cap on connections not logged in would
    // turn some away before they log in.)
    let idle: Vec<Child> = (0..10)
        .map(|i| {
            let c = Command::new("ssh")
                .arg("-N")
                .args(server.ssh_args(&class.key("ana")))
                .arg("ana@127.0.0.1")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            let start = Instant::now();
            let counted = |log: &str| {
                log.matches("serve: login ana").count()
                    + log.matches("too many connections").count()
            };
            while counted(&server.log.lock().unwrap()) < 4 + i + 1 {
                assert!(start.elapsed() < pane::DEADLINE, "ssh -N never logged in");
                std::thread::sleep(Duration::from_millis(20));
            }
            c
        })
        .collect();
    server.wait_log("too many connections (8 connections of this learner)");
    // kim still gets in at once.
    let took = timed_login(&server, &class.key("kim"), "kim", "127.0.0.1");
    assert!(took.is_some_and(|t| t < Duration::from_secs(1)), "{took:?}");
    let log = server.wait_log("closed ana's connection from 127.0.0.1:");
    has(&log, ": no session open for 3 s");
    for mut c in idle {
        let _ = c.kill();
        let _ = c.wait();
    }
    drop(panes);
}

#[test]
fn a_server_without_an_lrs_says_so_when_statements_still_wait_for_one() {
    if !ssh_there("serve's word on statements left for an LRS") {
        return;
    }
    // An earlier run with ROCM_LEARN_LRS queued two statements the store never got.
    let class = Class::new();
    let queue = class.path().join("lrs_queue");
    std::fs::create_dir_all(&queue).unwrap();
    for n in 0..2 {
        std::fs::write(queue.join(format!("{n:016}.json")), "{}").unwrap();
    }
    let server = Server::start(&class.path(), &[]);
    let log = server.wait_log("on 127.0.0.1:");
    has(&log, "2 statements wait in");
    has(&log, "ROCM_LEARN_LRS is not set");
    drop(server);
    // Nothing waiting: nothing said.
    let quiet = Class::new();
    let server = Server::start(&quiet.path(), &[]);
    lacks(&server.wait_log("on 127.0.0.1:"), "statements wait");
}

#[test]
fn labs_are_admitted_only_while_their_memory_fits_the_server() {
    let what = "serve lab memory tests";
    if !ssh_there(what) || !common::needs::tmux(what) || !common::needs::bwrap(what) {
        return;
    }
    let class = Class::new();
    // Room for one lab's machine (1 GiB) and no more.
    let server = Server::start(
        &class.path(),
        &["--lab-memory", "1500", "--keep-detached", "0"],
    );
    let first = server.pane(
        &class.key("ana"),
        "ana",
        &["lab", "hipcc-not-found"],
        100,
        30,
    );
    first.wait_for("learner@");
    let second = server.pane(
        &class.key("ana"),
        "ana",
        &["lab", "hipcc-not-found"],
        100,
        30,
    );
    second.wait_for("The class server is full for labs right now");
    let log = server.wait_log("refused a lab to ana: the class server is full for labs");
    has(
        &log,
        "(1024 MiB of 1500 MiB held, this lab needs 1024 MiB; --lab-memory)",
    );
    // The first lab ends with its session: its memory is free for the next.
    kill(first.process().pid, rustix::process::Signal::KILL);
    server.wait_log("ended ana's detached session");
    let start = Instant::now();
    loop {
        let again = server.pane(
            &class.key("ana"),
            "ana",
            &["lab", "hipcc-not-found"],
            100,
            30,
        );
        if again
            .wait_until("a prompt or a refusal", |s| {
                s.contains("learner@") || s.contains("full for labs")
            })
            .contains("learner@")
        {
            break;
        }
        assert!(
            start.elapsed() < pane::DEADLINE,
            "the memory was never given back"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
}

/// The value of `var` in the environment of `name`'s session app below `server`, once there.
fn app_env(server: &Server, name: &str, var: &str) -> String {
    let serve = server.child.id() as i32;
    let want = format!("ROCM_LEARN_LEARNER={name}");
    let prefix = format!("{var}=");
    pane::wait("the session's app", || {
        pane::descendants(serve)
            .into_iter()
            .filter(|(_, s)| s.ppid == serve)
            .find_map(|(pid, _)| {
                let env = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
                let vars: Vec<&[u8]> = env.split(|b| *b == 0).collect();
                vars.contains(&want.as_bytes()).then_some(())?;
                vars.iter().find_map(|v| {
                    let v = std::str::from_utf8(v).ok()?;
                    v.strip_prefix(&prefix).map(str::to_string)
                })
            })
    })
}

#[test]
fn two_servers_on_one_machine_give_their_first_learners_different_host_id_blocks() {
    let what = "serve's machine-wide host ids";
    if !ssh_there(what) || !common::needs::root(what) {
        return;
    }
    // Two classes, each with its own server: both servers' first learner is ana.
    let (one, two) = (Class::new(), Class::new());
    let a = Server::start(&one.path(), &[]);
    let b = Server::start(&two.path(), &[]);
    let mut in_a = a.session(&one.key("ana"), "ana");
    let block_a = app_env(&a, "ana", "ROCM_LEARN_LAB_SLOT");
    let mut in_b = b.session(&two.key("ana"), "ana");
    let block_b = app_env(&b, "ana", "ROCM_LEARN_LAB_SLOT");
    assert_ne!(
        block_a, block_b,
        "two servers gave their learners one block"
    );
    // A server that is gone: the next server on the machine still gives a block no one holds.
    drop(a);
    let _ = in_a.kill();
    let _ = in_a.wait();
    let c = Server::start(&one.path(), &[]);
    let mut in_c = c.session(&one.key("ana"), "ana");
    let block_c = app_env(&c, "ana", "ROCM_LEARN_LAB_SLOT");
    assert_ne!(block_c, block_b);
    // Whether a's block itself comes back is not asserted here: the blocks are machine-wide,
    // and the other tests' servers, running at the same time, take them too. A dead holder's
    // block being free again is tested in `serve::blocks`.
    let _ = block_a;
    for s in [&mut in_b, &mut in_c] {
        let _ = s.kill();
        let _ = s.wait();
    }
}

/// Every folder below `dir` and the mode of each, and every file and its mode.
fn modes_below(dir: &Path) -> Vec<(PathBuf, u32)> {
    use std::os::unix::fs::PermissionsExt;
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        let meta = std::fs::symlink_metadata(&path).unwrap();
        out.push((path.clone(), meta.permissions().mode() & 0o7777));
        if meta.is_dir() {
            out.extend(modes_below(&path));
        }
    }
    out
}

#[test]
fn the_class_folder_is_the_servers_alone_and_its_key_is_made_before_any_login() {
    use std::os::unix::fs::PermissionsExt;
    if !ssh_there("serve's file modes") {
        return;
    }
    let class = Class::new();
    let dir = class.path();
    // What an older server left: readable by everyone.
    for d in ["learners/old", "submit"] {
        std::fs::create_dir_all(dir.join(d)).unwrap();
        std::fs::set_permissions(dir.join(d), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    std::fs::write(dir.join("learners/old/progress.json"), "{}").unwrap();
    std::fs::write(dir.join("submit/old.json"), "{}").unwrap();
    let server = Server::start(&dir, &[]);
    // The key the sessions sign with is there before anyone logs in.
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode(&dir.join("install-key")), 0o600);
    assert_eq!(mode(&dir.join("host_key")), 0o600);
    // ana's session, and what her app writes as a session's app does.
    let (code, _, err) = server.ssh(&class.key("ana"), "ana", &["progress", "--json"]);
    assert_eq!(code, 0, "{err}");
    let submit = dir.join("submit");
    let quiz = Command::new(BIN)
        .args([
            "--content",
            CLASS_PACK,
            "quiz",
            "permissions",
            "--seed",
            "0",
        ])
        .env("ROCM_LEARN_DATA_DIR", &dir)
        .env("ROCM_LEARN_LEARNER", "ana")
        .env("ROCM_LEARN_SUBMIT_DIR", &submit)
        .env("LANG", "C")
        .env_remove("ROCM_LEARN_LANG")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(b"1\n1\n")?;
            c.wait()
        })
        .unwrap();
    assert!(quiz.success());
    let below: Vec<_> = ["learners", "submit"]
        .iter()
        .flat_map(|d| {
            let mut all = modes_below(&dir.join(d));
            all.push((dir.join(d), mode(&dir.join(d))));
            all
        })
        .collect();
    let named = |end: &str| below.iter().any(|(p, _)| p.ends_with(end));
    assert!(
        named("learners/ana") && named("learners/old/progress.json"),
        "{below:?}"
    );
    assert!(
        below
            .iter()
            .any(|(p, _)| p.parent() == Some(&submit) && !p.ends_with("old.json")),
        "no export of ana's: {below:?}"
    );
    assert!(
        std::fs::read_dir(dir.join("learners/ana")).unwrap().count() > 0,
        "ana's app wrote nothing"
    );
    // A session that is on shows in online/, to the server's user alone.
    let mut on = server.session(&class.key("ana"), "ana");
    let online = dir.join("online");
    let file = pane::wait("ana's presence file", || {
        std::fs::read_dir(&online)
            .ok()?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .find(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("ana."))
            })
    });
    let below: Vec<_> = below
        .into_iter()
        .chain([(online.clone(), mode(&online)), (file.clone(), mode(&file))])
        .collect();
    let _ = on.kill();
    let _ = on.wait();
    let open: Vec<String> = below
        .iter()
        .filter(|(path, m)| *m != if path.is_dir() { 0o700 } else { 0o600 })
        .map(|(path, m)| format!("{} {m:o}", path.display()))
        .collect();
    assert!(open.is_empty(), "not the server's alone: {open:#?}");
}

#[test]
fn an_instructor_types_in_a_learners_lab_only_with_their_yes_and_it_is_recorded() {
    let what = "serve help tests";
    if !ssh_there(what) || !common::needs::tmux(what) || !common::needs::bwrap(what) {
        return;
    }
    let class = Class::new();
    let server = Server::start(&class.path(), &[]);
    let ana = server.pane_in(
        &class.key("ana"),
        "ana",
        &["lab", "hipcc-not-found"],
        (100, 30),
        "ja_JP.UTF-8",
    );
    ana.wait_for("learner@");
    let kim = server.pane(&class.key("kim"), "kim", &[], 100, 30);
    kim.wait_for("Class: 2 learners.");
    kim.keys(&["Enter"]);
    kim.wait_for("F9: ask to type in it");

    // Asked, not yet allowed: the instructor's keys still go nowhere.
    kim.keys(&["F9"]);
    kim.wait_for("Asked ana to let you type; waiting for their yes");
    ana.wait_for("講師があなたのセッションでの入力を求めています: F9 で許可");
    kim.type_text("echo NOT-YET");
    kim.keys(&["Enter"]);
    server.wait_log("serve: asked ana to let the instructor type");
    std::thread::sleep(Duration::from_millis(500));
    lacks(&ana.screen(), "NOT-YET");

    // ana says yes with her own key: both type into the same lab.
    ana.keys(&["F9"]);
    kim.wait_for("Typing in ana's session, with their yes");
    ana.wait_for("講師が一緒に入力しています: F9 で終了");
    server.wait_log("the instructor types in ana's session, with their yes");
    kim.type_text("echo HELPED-$((40+2))");
    kim.keys(&["Enter"]);
    ana.wait_for("HELPED-42");
    // The mirror shows what both see.
    kim.wait_for("HELPED-42");
    ana.type_text("echo ANA-TOO");
    ana.keys(&["Enter"]);
    kim.wait_for("ANA-TOO");

    // ana ends it: the instructor's keys go nowhere again.
    ana.keys(&["F9"]);
    kim.wait_for("Watching ana, read only.");
    server.wait_log("help in ana's session ended");
    kim.type_text("echo AFTER-THE-END");
    kim.keys(&["Enter"]);
    std::thread::sleep(Duration::from_millis(500));
    lacks(&ana.screen(), "AFTER-THE-END");

    // The help is on ana's record of that lab (and so in her export and the report).
    let (code, out, err) = server.ssh(&class.key("ana"), "ana", &["progress", "--json"]);
    assert_eq!(code, 0, "{err}");
    has(&out, "\"helped\": true");
}
