//! Hostile lab scripts change nothing on the host and leave no process behind, as root and as
//! an unprivileged user; without bubblewrap no shell starts at all.

mod common;

use std::net::TcpListener;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::{has, has_all, has_line, lacks};

/// Processes on the host whose command line contains `needle`.
fn processes_with(needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmd) = std::fs::read(e.path().join("cmdline")) {
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            if cmd.contains(needle) && !cmd.contains("lab_security") {
                found.push(cmd);
            }
        }
    }
    found
}

/// The background sleeps a hostile script leaves, each as its command line shows it: their
/// durations carry this test process's id and a count, so a run never takes another run's
/// (or another test binary's) processes for its own.
fn leftover_sleeps() -> [String; 4] {
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let run = format!(
        "{}{:02}",
        std::process::id(),
        RUNS.fetch_add(1, Ordering::SeqCst)
    );
    [4711, 4712, 4713, 4714].map(|base| format!("sleep {base}.{run}"))
}

/// The folders a lab left in `dir` (its stages are named `rocm-lab-...`).
/// Stages the app with `pid` left: in its temporary folder `dir` (any), and in the tmpfs
/// folders where a lab whose machine moves into memory builds its stage (named with the pid).
fn stages_left_by(dir: &Path, pid: u32) -> Vec<String> {
    let mine = format!("rocm-lab-{pid}-");
    let mut left = stages_left(dir);
    let runtime = std::env::var_os("XDG_RUNTIME_DIR").map(std::path::PathBuf::from);
    for tmpfs in runtime
        .into_iter()
        .chain([std::path::PathBuf::from("/dev/shm")])
    {
        if let Ok(entries) = std::fs::read_dir(&tmpfs) {
            left.extend(
                entries
                    .flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| n.starts_with(&mine)),
            );
        }
    }
    left
}

/// Runs `cmd` to the end with its output captured, and says what pid it had.
fn output_and_pid(cmd: &mut Command) -> (std::process::Output, u32) {
    let child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    (child.wait_with_output().unwrap(), pid)
}

fn stages_left(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("rocm-lab-"))
        .collect()
}

fn hostile_script(
    dir: &Path,
    port: u16,
    secret_path: &Path,
    sleeps: &[String; 4],
) -> std::path::PathBuf {
    let script = format!(
        "echo owned >> /etc/passwd
sudo sh -c 'echo owned >> /etc/passwd; echo owned >> /etc/group'
sudo mount -o remount,rw /
cat {secret} ; ls /root /home
bash -c 'echo hi > /dev/tcp/127.0.0.1/{port}'; echo net=$?
kill -9 {pid}; echo kill=$?
{s0} &
nohup {s1} > /dev/null 2>&1 &
setsid {s2} &
({s3} &)
sudo touch /etc/created-by-lab /usr/created-by-lab
rm -rf ~ 2>/dev/null
sudo rm -rf --no-preserve-root / 2>/dev/null | tail -1
echo done",
        secret = secret_path.display(),
        pid = std::process::id(),
        s0 = sleeps[0],
        s1 = sleeps[1],
        s2 = sleeps[2],
        s3 = sleeps[3],
    );
    let path = dir.join("hostile.sh");
    std::fs::write(&path, script).unwrap();
    path
}

/// Runs the hostile script through `lab --script` as the given user (None: as we are).
fn run_hostile(as_nobody: bool) {
    let group_before = std::fs::read("/etc/group").unwrap();
    let passwd_before = std::fs::read("/etc/passwd").unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let home = std::env::var_os("HOME")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| "/root".into());
    let secret = home.join(format!(".rocm-learn-security-test-{}", std::process::id()));
    std::fs::write(&secret, "host secret 8d1f").unwrap();

    let dir = tempfile::tempdir().unwrap();
    let sleeps = leftover_sleeps();
    let script = hostile_script(dir.path(), port, &secret, &sleeps);
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    let mut cmd = if as_nobody {
        use std::os::unix::fs::PermissionsExt;
        for p in [dir.path(), &data] {
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o777)).unwrap();
        }
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o644)).unwrap();
        let mut c = Command::new("setpriv");
        c.args(["--reuid", "65534", "--regid", "65534", "--clear-groups"]);
        c.arg(env!("CARGO_BIN_EXE_rocm-learn"));
        c.env("HOME", dir.path()).env("TMPDIR", dir.path());
        c
    } else {
        let mut c = Command::new(env!("CARGO_BIN_EXE_rocm-learn"));
        c.env("TMPDIR", dir.path());
        c
    };
    cmd.args([
        "lab",
        "hsa-init-failed",
        "--script",
        script.to_str().unwrap(),
        "--lang",
        "en",
    ])
    .env("ROCM_LEARN_DATA_DIR", &data)
    .env_remove("ROCM_LEARN_LANG");
    let (out, pid) = output_and_pid(&mut cmd);
    let session =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let _ = std::fs::remove_file(&secret);

    // The lab ran; the host's home is not readable; no network; host processes are invisible.
    has(&session, "learner@");
    lacks(&session, "host secret 8d1f");
    assert!(has_line(&session, "net=1"), "{session}");
    assert!(has_line(&session, "kill=1"), "{session}");
    assert!(
        listener.accept().is_err(),
        "nothing reached the host's loopback"
    );
    assert_eq!(
        std::fs::read("/etc/group").unwrap(),
        group_before,
        "host /etc/group unchanged"
    );
    assert_eq!(
        std::fs::read("/etc/passwd").unwrap(),
        passwd_before,
        "host /etc/passwd unchanged"
    );
    assert!(
        !Path::new("/etc/created-by-lab").exists() && !Path::new("/usr/created-by-lab").exists()
    );
    let left = stages_left_by(dir.path(), pid);
    assert!(left.is_empty(), "the stage was not removed: {left:?}");
    // The sandbox's processes die with it: wait until the kernel has reaped them, and fail if
    // one is still there when the deadline passes.
    let deadline = Instant::now() + Duration::from_secs(10);
    for sleep in &sleeps {
        // The command line ends with its last argument and a separator.
        let needle = format!("{sleep} ");
        loop {
            let found = processes_with(&needle);
            if found.is_empty() {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "{sleep} survived the lab: {found:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[test]
fn hostile_scripts_change_nothing_on_the_host() {
    if !common::needs::bwrap("lab sandbox tests") {
        return;
    }
    run_hostile(false);
}

#[test]
fn the_sandbox_holds_for_an_unprivileged_user_too() {
    if !common::needs::bwrap("lab sandbox tests") {
        return;
    }
    // SAFETY: geteuid has no preconditions.
    if !rustix::process::geteuid().is_root() {
        // Already unprivileged: the test above ran as such a user.
        run_hostile(false);
        return;
    }
    let has_setpriv = Command::new("setpriv")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        has_setpriv,
        "setpriv (util-linux) is needed to run the sandbox as an unprivileged user"
    );
    run_hostile(true);
}

#[test]
fn without_bubblewrap_no_shell_starts_and_the_fix_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("ran-unconfined");
    let script = dir.path().join("s.sh");
    std::fs::write(&script, format!("touch {}\n", marker.display())).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_rocm-learn"))
        .args([
            "lab",
            "hsa-init-failed",
            "--script",
            script.to_str().unwrap(),
            "--lang",
            "en",
        ])
        .env("PATH", dir.path()) // no bwrap anywhere on PATH
        .env("ROCM_LEARN_DATA_DIR", dir.path())
        .output()
        .unwrap();
    let out = common::Run::from(out);
    assert_eq!(out.code, 1);
    has(&out.stderr, "sudo apt install bubblewrap");
    assert!(!marker.exists(), "the script must not have run anywhere");
    lacks(&out.stdout, "learner@");
}

/// What a lab run by script gives: the JSON result, the session (stderr), and every byte
/// the terminal would have received (stdout and stderr).
type Graded = (serde_json::Value, String, Vec<u8>);

/// Runs `script` in `lab` with `--json` and a short line limit, after checking the run ended
/// by itself; None (the test skips) without bubblewrap.
fn run_json(lab: &str, script: &str) -> Option<Graded> {
    run_json_as(lab, script, false, "8")
}

/// `run_json`, as an unprivileged user when `nobody` and we are root.
fn run_json_as(lab: &str, script: &str, nobody: bool, line_timeout: &str) -> Option<Graded> {
    // SAFETY: geteuid has no preconditions.
    let user = (nobody && rustix::process::geteuid().is_root()).then_some((65534, 65534));
    run_json_user(lab, script, user, line_timeout)
}

/// `run_json` as `user` (uid, gid; we are root then), or as we are.
fn run_json_user(
    lab: &str,
    script: &str,
    user: Option<(u32, u32)>,
    line_timeout: &str,
) -> Option<Graded> {
    if !common::needs::bwrap("lab sandbox tests") {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.sh");
    std::fs::write(&file, script).unwrap();
    {
        // Reachable by nobody, whom a lab started by root runs as.
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let mut cmd = if let Some((uid, gid)) = user {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        let mut c = Command::new("setpriv");
        c.args([
            "--reuid",
            &uid.to_string(),
            "--regid",
            &gid.to_string(),
            "--clear-groups",
        ])
        .arg(env!("CARGO_BIN_EXE_rocm-learn"))
        .env("HOME", dir.path());
        c
    } else {
        Command::new(env!("CARGO_BIN_EXE_rocm-learn"))
    };
    cmd.args([
        "lab",
        lab,
        "--json",
        "--line-timeout",
        line_timeout,
        "--lang",
        "en",
    ])
    .arg("--script")
    .arg(&file)
    .env("ROCM_LEARN_DATA_DIR", dir.path())
    .env("TMPDIR", dir.path())
    .env_remove("ROCM_LEARN_LANG");
    let (out, pid) = output_and_pid(&mut cmd);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON result ({e}):\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    // Whoever ran it, the lab leaves nothing behind in its temporary folder.
    let left = stages_left_by(dir.path(), pid);
    assert!(left.is_empty(), "stage left behind: {left:?}");
    let mut raw = out.stdout.clone();
    raw.extend_from_slice(&out.stderr);
    Some((json, String::from_utf8_lossy(&out.stderr).into_owned(), raw))
}

#[test]
fn a_normal_user_completes_a_lab_by_script_and_leaves_nothing() {
    let Some((json, session, _)) = run_json_as(
        "hsa-init-failed",
        "sudo usermod -aG render,video learner\nexit\nrocminfo | grep -m1 gfx\n",
        true,
        "20",
    ) else {
        return;
    };
    assert_eq!(json["complete"], true, "{session}");
}

fn step_done(json: &serde_json::Value, id: &str) -> bool {
    json["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == id)
        .unwrap_or_else(|| panic!("no step {id} in {json}"))["done"]
        .as_bool()
        .unwrap()
}

#[test]
fn a_forged_uid_or_session_marks_no_step_done() {
    // Root by a variable, root by a machine root spelled another way: both refused.
    let Some((json, session, _)) = run_json(
        "amdgpu-not-loaded",
        "ROCM_SIM_UID=0 modprobe amdgpu; echo uid=$?\n\
         ROCM_SIM_ROOT=/etc/.. ROCM_SIM_UID=0 modprobe amdgpu; echo root=$?\n",
    ) else {
        return;
    };
    assert!(
        has_line(&session, "uid=1") && has_line(&session, "root=1"),
        "{session}"
    );
    assert!(!step_done(&json, "loaded"), "{session}");
    // A session asked for by the learner, to claim groups this login does not have.
    let Some((json, session, _)) = run_json(
        "hsa-init-failed",
        "export ROCM_SIM_SESSION=$(/usr/local/libexec/rocm-learn sim login learner)\n\
         echo session=[$ROCM_SIM_SESSION]\n",
    ) else {
        return;
    };
    has_all(
        &session,
        &["Cannot possibly work without effective root", "session=[]"],
    );
    assert!(!step_done(&json, "new-login"), "{session}");
}

#[test]
fn machine_files_swapped_for_dev_zero_or_a_fifo_neither_hang_nor_flood_the_app() {
    let start = std::time::Instant::now();
    let Some((json, session, _)) = run_json(
        "hsa-init-failed",
        "ln -sf /dev/zero /var/lib/rocm-sim/state.json; echo zero-done\n\
         rm -f /var/lib/rocm-sim/state.json; mkfifo /var/lib/rocm-sim/state.json; echo fifo-done\n\
         sudo rm /etc/group; sudo mkfifo /etc/group; echo group-done\n\
         echo still-here\n",
    ) else {
        return;
    };
    has(&session, "still-here");
    assert_eq!(json["complete"], false);
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "took {:?}",
        start.elapsed()
    );
}

#[test]
fn the_sandbox_shows_no_host_folder_path_or_command_line() {
    // A canary outside the userland, where the host keeps build files.
    let canary = tempfile::Builder::new()
        .prefix("canary-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap();
    std::fs::write(canary.path().join("secret"), "canary 5e7a").unwrap();
    let canary_path = canary.path().display().to_string();
    let Some((_, session, _)) = run_json(
        "hsa-init-failed",
        &format!(
            "cat {canary_path}/secret; ls {canary_path}; echo canary=$?\n\
             tr '\\0' ' ' < /proc/1/cmdline; echo\n\
             ps -p 1 -o pid=,comm=,args= | sed 's/^ */pid1:/'\n\
             ps ax -o args | cat\n\
             env | sort\n\
             cat /proc/cmdline\n"
        ),
    ) else {
        return;
    };
    assert!(!session.contains("canary 5e7a"), "{session}");
    has(&session, "canary=2");
    // After the canary line, whose typed command names the canary's path itself.
    let after = &session[session.find("canary=2").unwrap()..];
    for host in [
        "rocm-lab-",
        "--bind",
        "--setenv",
        env!("CARGO_TARGET_TMPDIR"),
    ] {
        assert!(
            !after.contains(host),
            "{host} shows inside the sandbox:\n{session}"
        );
    }
    has(&session, "BOOT_IMAGE=/boot/vmlinuz-");
    // PID 1 is what a node's is where the lab's machine is in memory (the usual case): systemd,
    // started as /sbin/init; never bubblewrap's command line.
    assert!(!after.contains("bwrap"), "{session}");
    has(&session, "pid1:1 systemd         /sbin/init");
}

#[test]
fn escape_sequences_in_names_and_output_never_reach_the_terminal() {
    let script = r#"f="/etc/udev/rules.d/99-$(printf '\033]52;c;aGk=\007')x.rules"; echo 'KERNEL=="kfd", MODE="0600"' | sudo tee "$f" >/dev/null
printf '\033]0;pwned\007 \302\233 31m \016 \017 \342\200\256 done\n'
"#;
    let Some((json, _, raw)) = run_json("kfd-udev-rules", script) else {
        return;
    };
    let text = String::from_utf8_lossy(&raw);
    for bad in ['\u{1b}', '\u{7}', '\u{9b}', '\u{e}', '\u{f}', '\u{202e}'] {
        assert!(
            !text.contains(bad),
            "{bad:?} reached the terminal:\n{text:?}"
        );
    }
    has(&text, "done");
    assert_eq!(json["complete"], false);
}

#[test]
fn a_process_flood_meets_the_real_fork_error_and_the_lab_goes_on() {
    // The limit counts the learner's uid in the sandbox's namespace. The kernel exempts a host
    // root from it, so a lab started by root runs as nobody: run as whoever runs the tests.
    let Some((_, session, _)) = run_json_as(
        "hsa-init-failed",
        "for i in $(seq 700); do sleep 60 >/dev/null 2>&1 & done 2>&1 | sort -u | head -2\n\
         echo after=$(id -un)\n",
        false,
        // bash retries a refused fork with growing pauses before it gives up.
        "50",
    ) else {
        return;
    };
    assert!(
        session.contains("fork: Resource temporarily unavailable")
            || session.contains("fork: retry: Resource temporarily unavailable"),
        "{session}"
    );
    has(&session, "after=learner");
}

#[test]
fn the_learner_cannot_write_what_the_machine_keeps_nor_claim_another_login() {
    // After the first half of the fix (the group file), each line tries a way around the
    // second half (a new login): the machine's state, the group file behind a chmod, root
    // writing the state, a user namespace of one's own, the supervisor's memory, and (last,
    // as it also stands for a prompt) a hand-made record claiming root and another session.
    let Some((json, session, _)) = run_json(
        "hsa-init-failed",
        "sudo usermod -aG render,video learner; echo fix=$?\n\
         echo '{}' > /var/lib/rocm-sim/state.json; echo state=$?\n\
         chmod u+w /etc/group; echo 'render:x:992:learner' >> /etc/group; echo group=$?\n\
         sudo sh -c 'echo x >> /var/lib/rocm-sim/state.json'; echo rootstate=$?\n\
         unshare -r true; echo unshare=$?\n\
         cat /proc/$PPID/environ > /dev/null; echo peek=$?\n\
         printf 'v2\\037%s\\037%s\\037%s\\037%s\\037%s\\037%s\\037%s\\037%s\\037%s\\037%s\\036' 1 1 0 0 s1 0 / /usr/bin x '' >&99; echo record=$?\n",
    ) else {
        return;
    };
    for (probe, want) in [
        ("state=1", "learner may not write the state"),
        ("group=1", "a chmod does not open /etc/group"),
        ("rootstate=2", "root may not write the state either"),
        ("unshare=1", "no user namespace of the learner's own"),
        ("peek=1", "the supervisor is out of reach"),
        ("fix=0", "the real fix still works"),
    ] {
        // A whole line: "state=1" is not found inside "rootstate=1".
        assert!(has_line(&session, probe), "{want}: {probe}\n{session}");
    }
    has(&session, "Permission denied");
    // The group file is fixed, but no login has the group yet: the forged record (root, in
    // session s1) counts for nothing.
    assert!(step_done(&json, "groups"), "{session}");
    assert!(!step_done(&json, "new-login"), "{session}");
    assert!(!step_done(&json, "rocminfo"), "{session}");
}

#[test]
fn a_root_shell_and_what_it_starts_are_root_and_su_returns_to_the_learner() {
    // Identity follows the process tree: a tool run from sudo's shell is root, one run from
    // su's login shell is the learner again, whatever the variables say.
    let Some((_, session, _)) = run_json(
        "amdgpu-not-loaded",
        "sudo bash -c 'id -un; ROCM_SIM_UID=1000 modprobe amdgpu; echo load=$?'\n\
         sudo su - learner -c 'id -un; modprobe -r amdgpu; echo unload=$?'\n\
         lsmod | grep -c '^amdgpu'\n",
    ) else {
        return;
    };
    // Whole lines: "load=0" is not found inside "unload=0".
    for line in ["root", "load=0", "unload=1", "1"] {
        assert!(has_line(&session, line), "{line:?}:\n{session}");
    }
}

#[test]
fn without_landlock_the_lab_works_says_so_and_marks_the_result() {
    if !common::needs::bwrap("lab sandbox tests") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.sh");
    std::fs::write(
        &file,
        "sudo usermod -aG render,video learner\nexit\nrocminfo | grep -m1 gfx\n",
    )
    .unwrap();
    let no_landlock = [("ROCM_LEARN_LAB_NO_LANDLOCK", "1")];
    let script = file.to_str().unwrap();
    let lab = common::run(
        &["lab", "hsa-init-failed", "--lang", "en", "--script", script],
        "",
        dir.path(),
        &no_landlock,
    );
    assert_eq!(lab.code, 0, "{}{}", lab.stdout, lab.stderr);
    has(&lab.stderr, "not tamper-proof");
    // The export carries the mark, and so does the instructor's report.
    let export = common::call(&["progress", "--json"], dir.path());
    assert!(
        export.stdout.contains("\"unconfined\": true")
            || export.stdout.contains("\"unconfined\":true"),
        "{}",
        export.stdout
    );
    let path = dir.path().join("dana.json");
    std::fs::write(&path, &export.stdout).unwrap();
    let report = common::call(
        &["report", "--lang", "en", path.to_str().unwrap()],
        dir.path(),
    );
    has(&report.stdout, "not tamper-proof");
}

#[test]
fn a_disk_flood_meets_the_real_errors_and_the_lab_goes_on() {
    // A file past the 1 GiB limit; /tmp and the home share the machine's one budget (1 GiB),
    // so 600 MiB fit in /tmp and 600 more in the home do not: the kernel's own errors.
    // 1.2 GB written to memory: a loaded machine takes more than the usual 8 s a line.
    let Some((_, session, _)) = run_json_as(
        "hsa-init-failed",
        "truncate -s 2G ~/big; echo t=$?\n\
         head -c 600M /dev/zero > /tmp/big; echo h=$?\n\
         head -c 600M /dev/zero > ~/big; echo home=$?\n\
         head -c 100M /dev/zero > /dev/shm/big; echo shm=$?\n\
         sudo sh -c 'echo x > /dev/big'; echo dev=$?\n\
         rm -f /tmp/big ~/big; echo after=$(id -un)\n",
        false,
        "60",
    ) else {
        return;
    };
    // SIGXFSZ ends the program; bash names it and reports 128 + 25.
    has_all(
        &session,
        &["File size limit exceeded", "No space left on device"],
    );
    // Whole lines: "h=0" alone would be found inside "shm=0". /dev is as large as half the
    // host's memory: not even root creates files there.
    for line in ["t=153", "h=0", "home=1", "shm=1", "dev=2", "after=learner"] {
        assert!(has_line(&session, line), "{line:?}:\n{session}");
    }
}

/// Bytes free on the file system that holds `dir`.
fn free_bytes(dir: &Path) -> u64 {
    let st = rustix::fs::statvfs(dir).unwrap();
    st.f_bavail * st.f_frsize
}

#[test]
fn what_root_writes_anywhere_stays_in_the_labs_memory_budget() {
    // As root in the lab, 1.5 GiB into /etc, /opt, /var/tmp, /tmp and the home: "No space left on
    // device" at the budget, while the host's disk under the lab's temporary folder loses
    // nothing like it, and the lab goes on.
    let Some(mut run) = lab_run("hsa-init-failed") else {
        return;
    };
    let tmp = std::env::temp_dir();
    let before = free_bytes(&tmp);
    let session = type_lines(
        &mut run,
        &[
            "sudo sh -c 'for d in /etc /opt /var/tmp /home/learner /tmp; do for i in 1 2 3; do head -c 100M /dev/zero > $d/f$i || exit 1; done; done'; echo flood=$?",
            "df -h /etc | tail -1",
        ],
        Duration::from_secs(120),
    );
    let after = free_bytes(&tmp);
    has(&session, "No space left on device");
    assert!(has_line(&session, "flood=1"), "{session}");
    // Other programs on this machine write too: a margin well below the 1 GiB written.
    let lost = before.saturating_sub(after);
    assert!(
        lost < 256 << 20,
        "the host's disk lost {} MiB:\n{session}",
        lost >> 20
    );
    let session = type_lines(
        &mut run,
        &["sudo rm -f /etc/f? /opt/f? /var/tmp/f? ~/f? /tmp/f?; echo alive=$(id -un)"],
        Duration::from_secs(60),
    );
    assert!(has_line(&session, "alive=learner"), "{session}");
}

#[test]
fn no_host_path_shows_in_the_labs_mount_table() {
    // The stage, the binary's folder and the temporary folder are the host's; inside, every
    // mount is the lab's own memory, the host's /usr, or a device. As root, as nobody, and
    // (where there is one) as a user with subordinate ids.
    let exe_dir = Path::new(env!("CARGO_BIN_EXE_rocm-learn"))
        .parent()
        .unwrap()
        .display()
        .to_string();
    let script = "cat /proc/self/mountinfo /proc/1/mountinfo; echo end=$?\n";
    let mut runs = vec![run_json_as("hsa-init-failed", script, false, "10")];
    // SAFETY: geteuid has no preconditions.
    if rustix::process::geteuid().is_root() {
        runs.push(run_json_as("hsa-init-failed", script, true, "10"));
    }
    if let Some(user) = common::needs::subordinate_user("the mount table of a subordinate-id lab") {
        runs.push(run_json_user("hsa-init-failed", script, Some(user), "10"));
    }
    for run in runs {
        let Some((_, session, _)) = run else {
            return;
        };
        assert!(has_line(&session, "end=0"), "{session}");
        let table = &session[session.find("mountinfo").unwrap()..];
        for host in ["rocm-lab-", exe_dir.as_str(), env!("CARGO_TARGET_TMPDIR")] {
            assert!(
                !table.contains(host),
                "{host} shows in the mount table:\n{session}"
            );
        }
        // The machine's folders are one tmpfs.
        for top in [" /etc ", " /home ", " /opt ", " /var ", " /tmp "] {
            let line = table
                .lines()
                .find(|l| l.contains(top))
                .unwrap_or_else(|| panic!("no mount at{top}:\n{session}"));
            assert!(line.contains(" - tmpfs "), "{line}");
        }
    }
}

#[test]
fn a_rename_race_between_a_file_and_a_link_to_the_host_changes_nothing_there() {
    if !Path::new("/usr/bin/python3").exists() {
        common::needs::skip(
            "the rename race",
            "it needs /usr/bin/python3 (for renameat2) on this machine",
        );
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    // A host file and folder with modes a relock would change, named by absolute links the
    // learner (as root) swaps with real files as fast as it can while commands run.
    let canary = tempfile::Builder::new()
        .prefix("race-canary-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap();
    let file = canary.path().join("secret");
    let dir = canary.path().join("private");
    std::fs::write(&file, "canary").unwrap();
    std::fs::create_dir(&dir).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    let racer = format!(
        "import ctypes, os, time\n\
         libc = ctypes.CDLL(None, use_errno=True)\n\
         end = time.time() + 8\n\
         n = 0\n\
         pairs = [('/etc/race-a', '{f}'), ('/opt/race-b', '{d}')]\n\
         for real, _ in pairs: open(real + '.x', 'w').close()\n\
         for real, target in pairs:\n\
         \u{20}   if os.path.lexists(real): os.remove(real)\n\
         \u{20}   os.symlink(target, real)\n\
         while time.time() < end:\n\
         \u{20}   for real, _ in pairs:\n\
         \u{20}       n += libc.renameat2(-100, real.encode(), -100, (real + '.x').encode(), 2) == 0\n\
         print('swaps', n)\n",
        f = file.display(),
        d = dir.display()
    );
    // One line for the race and the commands beside it, so the grade waits for its prompt
    // (lines typed while a background job runs could be taken as answered early); the stage
    // is removed with the swapped links still in it.
    let script = format!(
        "cat > /tmp/racer.py <<'EOF'\n{racer}EOF\n\
         sudo python3 /tmp/racer.py & for i in 1 2 3 4 5 6; do ls /etc /opt > /dev/null; sleep 1; done; wait; echo raced\n"
    );
    let Some((_, session, _)) = run_json_as("amdgpu-not-loaded", &script, false, "90") else {
        return;
    };
    has(&session, "raced");
    // The race ran (thousands of swaps on a quiet machine, fewer under load) while commands
    // came and went.
    let swaps: u64 = session
        .split("swaps ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(swaps > 0, "{session}");
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode(&file), 0o600, "host file mode changed");
    assert_eq!(mode(&dir), 0o700, "host folder mode changed");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "canary");
}

#[test]
fn system_files_are_roots_and_the_learner_meets_ubuntus_refusals() {
    if !common::needs::root("ownership as on Ubuntu") {
        return;
    }
    // Started by root, the sandbox maps the machine's ids: the real tools see root's files,
    // the learner's home and downloads, and the kernel's own refusals; sudo works as root.
    let Some((_, session, _)) = run_json(
        "hsa-init-failed",
        "stat -c '%U:%G %a %n' /etc/group /var/lib/rocm-sim /home/learner /tmp /var/tmp\n\
         echo learner_owns=$(find /etc /opt /var -user learner | wc -l)\n\
         chmod u+w /etc/group; echo chmod=$?\n\
         chown learner /etc/modules; echo chown=$?\n\
         rm -f /etc/modules; echo rm=$?\n\
         echo x >> /etc/group; echo write=$?\n\
         sudo chmod 0640 /etc/modules; stat -c 'after=%a' /etc/modules\n\
         sudo chown learner /etc/hostname; stat -c 'owner=%U' /etc/hostname\n\
         wget -q -O key.asc https://repo.radeon.com/rocm/rocm.gpg.key; stat -c 'download=%U:%G' key.asc\n\
         sudo -u learner sh -c 'echo x >> /etc/modules'; echo sudo_u=$?\n\
         sudo mount -t tmpfs none /mnt; echo mount=$?\n\
         kill -0 1; echo signal=$?\n\
         stat -c 'usr=%U:%G' /usr/bin/ls; touch /usr/bin/made-in-lab; echo usr_learner=$?\n\
         sudo touch /usr/bin/made-in-lab; echo usr_root=$?\n",
    ) else {
        return;
    };
    for line in [
        "root:root 644 /etc/group",
        "root:root 755 /var/lib/rocm-sim",
        "learner:learner 755 /home/learner",
        "root:root 1777 /tmp",
        "root:root 1777 /var/tmp",
        "learner_owns=0",
        "chmod: changing permissions of '/etc/group': Operation not permitted",
        "chmod=1",
        "chown: changing ownership of '/etc/modules': Operation not permitted",
        "chown=1",
        "rm: cannot remove '/etc/modules': Permission denied",
        "rm=1",
        "write=1",
        "after=640",
        "owner=learner",
        "download=learner:learner",
        "sh: 1: cannot create /etc/modules: Permission denied",
        "sudo_u=2",
        "signal=1",
        "usr=root:root",
        "usr_learner=1",
        "usr_root=0",
    ] {
        assert!(has_line(&session, line), "{line:?}:\n{session}");
    }
    // Root of the lab has a root's rights on files, not on mounts; what it writes in /usr
    // stays in the lab.
    assert!(!has_line(&session, "mount=0"), "{session}");
    assert!(!Path::new("/usr/bin/made-in-lab").exists());
}

#[test]
fn device_nodes_are_real_to_every_program_and_follow_udev_chmod_and_the_driver() {
    if !common::needs::root("device nodes as on Ubuntu") {
        return;
    }
    // The nodes are there for stat and test, with the machine's numbers, never to be opened;
    // a udev event gives them the rules' values, a chmod in between lasts until the next one.
    let Some((json, session, _)) = run_json(
        "kfd-udev-rules",
        "stat -c 'start=%U:%G %a %t:%T %F' /dev/kfd /dev/dri/renderD128\n\
         test -c /dev/kfd; echo char=$?\n\
         cat /dev/kfd; echo open=$?\n\
         echo 'KERNEL==\"kfd\", MODE=\"0666\"' | sudo tee /etc/udev/rules.d/70-kfd.rules >/dev/null\n\
         sudo udevadm control --reload-rules; sudo udevadm trigger; stat -c 'udev=%a' /dev/kfd\n\
         sudo chmod 600 /dev/kfd; stat -c 'chmod=%a' /dev/kfd\n\
         rocminfo >/dev/null; echo rocminfo=$?\n\
         sudo udevadm trigger; stat -c 'again=%a' /dev/kfd\n\
         rocminfo >/dev/null; echo rocminfo=$?\n",
    ) else {
        return;
    };
    for line in [
        "start=root:render 660 1fd:0 character special file",
        "start=root:render 660 e2:80 character special file",
        "char=0",
        "cat: /dev/kfd: Permission denied",
        "udev=666",
        "chmod=600",
        "rocminfo=1",
        "again=666",
        "rocminfo=0",
    ] {
        assert!(has_line(&session, line), "{line:?}:\n{session}");
    }
    assert!(step_done(&json, "kfd-applied"), "{session}");
    // The nodes come with the driver and go with it.
    let Some((_, session, _)) = run_json(
        "amdgpu-not-loaded",
        "test -e /dev/kfd; echo before=$?\n\
         sudo modprobe amdgpu; stat -c 'loaded=%U:%G %a %F' /dev/kfd\n\
         sudo modprobe -r amdgpu; test -e /dev/kfd; echo unloaded=$?\n",
    ) else {
        return;
    };
    for line in [
        "before=1",
        "loaded=root:render 660 character special file",
        "unloaded=1",
    ] {
        assert!(has_line(&session, line), "{line:?}:\n{session}");
    }
}

#[test]
fn a_user_with_subordinate_ids_gets_the_machine_ids_and_leaves_nothing() {
    let Some(user) = common::needs::subordinate_user("a lab of a user with subordinate ids") else {
        return;
    };
    // newuidmap maps the machine's accounts onto the user's /etc/subuid range: root's files,
    // the kernel's refusals, sudo as root; what the learner leaves (a folder closed even to its
    // owner) is given back and removed with the stage (run_json_user checks the stage is gone).
    let Some((json, session, _)) = run_json_user(
        "hsa-init-failed",
        "stat -c '%U:%G %a %n' /etc/group /home/learner\n\
         chmod u+w /etc/group; echo chmod=$?\n\
         mkdir /var/tmp/d; touch /var/tmp/d/f; chmod 000 /var/tmp/d; echo closed=$?\n\
         sudo usermod -aG render,video learner; echo fix=$?\n\
         exit\n\
         rocminfo > /dev/null; echo rocminfo=$?\n",
        Some(user),
        "20",
    ) else {
        return;
    };
    for line in [
        "root:root 644 /etc/group",
        "learner:learner 755 /home/learner",
        "chmod: changing permissions of '/etc/group': Operation not permitted",
        "closed=0",
        "fix=0",
        "rocminfo=0",
    ] {
        assert!(has_line(&session, line), "{line:?}:\n{session}");
    }
    assert_eq!(json["complete"], true, "{session}");
}

#[test]
fn doctor_labs_says_how_real_the_lab_machine_is_for_whoever_starts_it() {
    let Some(sub) = common::needs::subordinate_user("doctor --labs on the machine's ids") else {
        return;
    };
    let doctor = |user: Option<(u32, u32)>| {
        let mut c = match user {
            Some((uid, gid)) => {
                let mut c = Command::new("setpriv");
                c.args(["--reuid", &uid.to_string(), "--regid", &gid.to_string()])
                    .arg("--clear-groups")
                    .arg(env!("CARGO_BIN_EXE_rocm-learn"));
                c
            }
            None => Command::new(env!("CARGO_BIN_EXE_rocm-learn")),
        };
        let out = c
            .args(["doctor", "--labs", "--lang", "en"])
            .current_dir("/")
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    has(
        &doctor(None),
        "[ok] Started by root, a lab gets the machine's own accounts",
    );
    has(
        &doctor(Some(sub)),
        "[ok] Your subordinate ids (/etc/subuid, /etc/subgid)",
    );
    has_all(
        &doctor(Some((65534, 65534))),
        &["[ok] A lab maps your uid alone", "sudo apt install uidmap"],
    );
}

/// Runs `rocm-learn ARGS` and kills it after `limit`: a reader that blocks fails the test
/// instead of hanging it.
fn run_within(args: &[&str], limit: Duration) -> common::Run {
    let data = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_rocm-learn"))
        .args(args)
        .env("LANG", "C")
        .env_remove("ROCM_LEARN_LANG")
        .env("ROCM_LEARN_DATA_DIR", data.path())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            panic!("rocm-learn {args:?} did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    common::Run::from(child.wait_with_output().unwrap())
}

/// A FIFO, a link to /dev/zero, a symlink loop and a sparse 10 GB file, as a hostile classmate
/// or pack author leaves them in `dir` under names the reader looks for.
fn plant_traps(dir: &Path, ext: &str) {
    use std::os::unix::fs::symlink;
    let fifo = dir.join(format!("fifo{ext}"));
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success(),
        "mkfifo"
    );
    symlink("/dev/zero", dir.join(format!("zero{ext}"))).unwrap();
    symlink(format!("loop-b{ext}"), dir.join(format!("loop-a{ext}"))).unwrap();
    symlink(format!("loop-a{ext}"), dir.join(format!("loop-b{ext}"))).unwrap();
    let huge = std::fs::File::create(dir.join(format!("huge{ext}"))).unwrap();
    huge.set_len(10 << 30).unwrap();
}

#[test]
fn a_submit_folder_with_traps_is_read_within_a_second_naming_each_trap() {
    let submit = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    // One real learner's export, written by the app itself.
    common::run(
        &["quiz", "rocm-basics", "--plain", "--seed", "0"],
        &"1\n".repeat(20),
        data.path(),
        &[
            ("ROCM_LEARN_LEARNER", "ana"),
            ("ROCM_LEARN_SUBMIT_DIR", submit.path().to_str().unwrap()),
        ],
    );
    plant_traps(submit.path(), ".json");
    std::os::unix::fs::symlink("..", submit.path().join("up.json")).unwrap();
    let started = Instant::now();
    let out = run_within(
        &["report", submit.path().to_str().unwrap()],
        Duration::from_secs(10),
    );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "report took {:?}",
        started.elapsed()
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    has(&out.stdout, "ana");
    for (name, why) in [
        ("fifo.json", "not a regular file (fifo)"),
        ("zero.json", "symbolic link"),
        ("loop-a.json", "symbolic link"),
        ("up.json", "symbolic link"),
        ("huge.json", "is larger than"),
    ] {
        let line = out
            .stderr
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("{name} is not named:\n{}", out.stderr));
        has(line, why);
    }
    // A file named on the command line gets the same treatment.
    let zero = submit.path().join("zero.json");
    let out = run_within(&["report", zero.to_str().unwrap()], Duration::from_secs(10));
    has(&out.stderr, "not a regular file (device)");
}

#[test]
fn a_pack_with_traps_is_checked_within_a_second_naming_each_trap() {
    let pack = tempfile::tempdir().unwrap();
    copy_dir(Path::new(common::PACK), pack.path());
    let lessons = pack.path().join("lessons");
    plant_traps(&lessons, ".md");
    std::os::unix::fs::symlink("..", lessons.join("up")).unwrap();
    std::os::unix::fs::symlink(".", lessons.join("here")).unwrap();
    let tests = pack.path().join("tests/some-lab");
    std::fs::create_dir_all(&tests).unwrap();
    plant_traps(&tests, ".sh");
    let started = Instant::now();
    let out = run_within(
        &[
            "check",
            "--no-labs",
            "--content",
            pack.path().to_str().unwrap(),
        ],
        Duration::from_secs(10),
    );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "check took {:?}",
        started.elapsed()
    );
    let all = format!("{}{}", out.stdout, out.stderr);
    for (name, why) in [
        ("lessons/fifo.md", "not a regular file"),
        ("lessons/zero.md", "symbolic link"),
        ("lessons/loop-a.md", "symbolic link"),
        ("lessons/up", "symbolic link"),
        ("lessons/here", "symbolic link"),
        ("lessons/huge.md", "larger than"),
    ] {
        let line = all
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("{name} is not named:\n{all}"));
        has(line, why);
    }
    assert_eq!(out.code, 1, "traps in a pack are errors: {all}");
    // The app started on that pack does not hang either: it says what is wrong and stops.
    let out = run_within(
        &["--content", pack.path().to_str().unwrap(), "list"],
        Duration::from_secs(10),
    );
    has(&format!("{}{}", out.stdout, out.stderr), "lessons/fifo.md");
}

#[test]
fn a_pack_cannot_place_a_file_over_the_machines_own_state() {
    let pack = tempfile::tempdir().unwrap();
    copy_dir(Path::new(&common::fixture("dana-pack")), pack.path());
    let lab = pack.path().join("lessons/01-dana/lab-dana-node.toml");
    let mut text = std::fs::read_to_string(&lab).unwrap();
    text.push_str("\n[[files]]\npath = \"/var/lib/rocm-sim/state.json\"\ntext = \"{}\"\n");
    std::fs::write(&lab, &text).unwrap();
    let line = text.lines().count() - 1;
    let out = run_within(
        &[
            "check",
            "--no-labs",
            "--content",
            pack.path().to_str().unwrap(),
        ],
        Duration::from_secs(20),
    );
    let all = format!("{}{}", out.stdout, out.stderr);
    assert_eq!(out.code, 1, "{all}");
    has(&all, &format!("lab-dana-node.toml:{line}:"));
    has(&all, "belongs to the simulated machine itself");
}

fn copy_dir(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
            copy_dir(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), &dest).unwrap();
        }
    }
}

#[test]
fn closing_a_lab_full_of_files_never_waits_for_their_removal() {
    use rocm_learn::content::{self, ContentTree};
    use rocm_learn::lab;
    if !common::needs::bwrap("closing a lab full of files") {
        return;
    }
    let (course, _) = content::load(&ContentTree::embedded());
    let opts = lab::app::run::Options {
        exe: env!("CARGO_BIN_EXE_rocm-learn").into(),
        rows: lab::app::scripted::ROWS,
        cols: lab::app::scripted::COLS,
        relogin: "again".into(),
        transcript: true,
        lang: rocm_learn::lang::Lang::En,
    };
    let lab_def = course.lab("hipcc-not-found").expect("the lab");
    let mut run = lab::app::run::LabRun::start(lab_def, opts, lab::app::run::no_notify()).unwrap();
    // Root's files in the machine's /opt: in the lab's memory, gone with its last process.
    let lines = ["sudo sh -c 'mkdir -p /opt/many && cd /opt/many && \
                  for i in $(seq 1 10000); do : > f$i; done; mkdir -m 0 locked'; echo made=$?"
        .to_string()];
    lab::app::scripted::run(&mut run, &lines, Duration::from_secs(120));
    let stage = run.root().to_path_buf();
    let session = lab::app::scripted::plain_transcript(&run.shell.transcript());
    assert!(has_line(&session, "made=0"), "{session}");
    let started = Instant::now();
    drop(run);
    let closed = started.elapsed();
    assert!(
        closed < Duration::from_millis(100),
        "closing took {closed:?}"
    );
    // What remains is done off the caller's thread, and done.
    assert_eq!(lab::app::stage::finish_removals(Duration::from_secs(60)), 0);
    assert!(!stage.exists(), "the stage is gone");
}

/// A lab of the real course, started in this process: its stage can be looked at from outside.
/// Types `lines` into the lab's shell as a script does (each waits for the prompt, within
/// `limit`), and returns the whole session so far as plain text.
fn type_lines(
    run: &mut rocm_learn::lab::app::run::LabRun,
    lines: &[&str],
    limit: Duration,
) -> String {
    use rocm_learn::lab::app::scripted;
    let lines: Vec<String> = lines.iter().map(ToString::to_string).collect();
    scripted::run(run, &lines, limit);
    scripted::plain_transcript(&run.shell.transcript())
}

fn lab_run(id: &str) -> Option<rocm_learn::lab::app::run::LabRun> {
    lab_run_with(id, |_| {})
}

/// `lab_run` of a lab changed by `edit` first, as a pack's own lab would be.
fn lab_run_with(
    id: &str,
    edit: impl FnOnce(&mut rocm_learn::content::model::Lab),
) -> Option<rocm_learn::lab::app::run::LabRun> {
    use rocm_learn::content::{self, ContentTree};
    use rocm_learn::lab;
    if !common::needs::bwrap(&format!("the lab {id} in this process")) {
        return None;
    }
    let (course, _) = content::load(&ContentTree::embedded());
    let opts = lab::app::run::Options {
        exe: env!("CARGO_BIN_EXE_rocm-learn").into(),
        rows: lab::app::scripted::ROWS,
        cols: lab::app::scripted::COLS,
        relogin: "again".into(),
        transcript: true,
        lang: rocm_learn::lang::Lang::En,
    };
    let mut lab_def = course.lab(id).expect("the lab").clone();
    edit(&mut lab_def);
    Some(lab::app::run::LabRun::start(&lab_def, opts, lab::app::run::no_notify()).unwrap())
}

#[test]
fn a_packs_machine_sets_what_its_lab_may_write() {
    let Some(mut run) = lab_run_with("hsa-init-failed", |l| {
        l.machine.push_str("\ndisk_mib = 96\n");
    }) else {
        return;
    };
    let session = type_lines(
        &mut run,
        &[
            "head -c 200M /dev/zero > /tmp/big; echo wrote=$?",
            "echo size=$(( $(stat -c %s /tmp/big) >> 20 ))M",
            "rm /tmp/big; echo alive=$(id -un)",
        ],
        Duration::from_secs(60),
    );
    if run.in_memory != Some(true) {
        common::needs::skip(
            "the lab's memory budget",
            "the machine could not move into memory here",
        );
        return;
    }
    has_all(&session, &["No space left on device"]);
    assert!(has_line(&session, "wrote=1"), "{session}");
    assert!(has_line(&session, "alive=learner"), "{session}");
    let size: u64 = session
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("size=")?
                .strip_suffix('M')?
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("no size line:\n{session}"));
    assert!(
        (32..96).contains(&size),
        "a 96 MiB budget let {size} MiB through:\n{session}"
    );
}

#[test]
fn var_tmp_and_memory_floods_meet_the_real_errors_and_the_hosts_disk_sees_nothing() {
    let Some(mut run) = lab_run("hsa-init-failed") else {
        return;
    };
    let session = type_lines(
        &mut run,
        &[
            "for i in $(seq 12); do head -c 100M /dev/zero > /var/tmp/f$i || { echo vt=full; break; }; done",
            "ls /var/tmp | wc -l",
            "tail /dev/zero; echo mem=$?",
            "echo alive=$(id -un)",
        ],
        Duration::from_secs(120),
    );
    has_all(&session, &["No space left on device", "memory exhausted"]);
    for line in ["vt=full", "mem=1", "alive=learner"] {
        assert!(has_line(&session, line), "{line:?}:\n{session}");
    }
    // The machine lives in memory: its stage on the host's disk was removed as soon as the
    // supervisor had copied it, while the lab still runs.
    assert_eq!(run.in_memory, Some(true));
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while run.root().exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        !run.root().exists(),
        "the stage is still on the host's disk: {}",
        run.root().display()
    );
}

#[test]
fn a_lab_started_by_root_keeps_the_machines_ids_wherever_its_binary_and_temp_folder_are() {
    // `cargo install` as root puts the binary in /root/.cargo/bin, and a root's TMPDIR may be
    // a `mktemp -d` folder: places nobody, whom the sandbox runs as, cannot enter. The binary
    // and the stage go to the sandbox by descriptor, so the lab still has root's files and
    // real device nodes, not a quiet one-uid machine.
    if !common::needs::root("a lab started by root from a folder nobody can enter") {
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let closed = tempfile::tempdir().unwrap();
    std::fs::set_permissions(closed.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let exe = closed.path().join("rocm-learn");
    std::fs::copy(env!("CARGO_BIN_EXE_rocm-learn"), &exe).unwrap();
    let tmp = closed.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o700)).unwrap();
    let script = closed.path().join("s.sh");
    std::fs::write(
        &script,
        "stat -c '%U:%G %n' /etc/group\nstat -c '%F %n' /dev/kfd\n",
    )
    .unwrap();
    let (out, pid) = output_and_pid(
        Command::new(&exe)
            .args(["lab", "hsa-init-failed", "--json", "--lang", "en"])
            .args(["--line-timeout", "20", "--script"])
            .arg(&script)
            .env("ROCM_LEARN_DATA_DIR", closed.path())
            .env("TMPDIR", &tmp),
    );
    let session = String::from_utf8_lossy(&out.stderr);
    for line in ["root:root /etc/group", "character special file /dev/kfd"] {
        assert!(has_line(&session, line), "{line:?}:\n{session}");
    }
    let left = stages_left_by(&tmp, pid);
    assert!(left.is_empty(), "a stage is left: {left:?}");
}

#[test]
fn no_host_process_but_the_labs_own_reaches_a_running_lab() {
    // A neighbour running as nobody (the account a lab started by root runs as) looks for the
    // lab's machine while it runs: the stage is gone from the host's disk, and its folder was
    // root's alone while it existed.
    if !common::needs::root("a neighbour of a lab started by root") {
        return;
    }
    use rocm_learn::lab;
    let Some(mut run) = lab_run("hsa-init-failed") else {
        return;
    };
    lab::app::scripted::run(
        &mut run,
        &["echo secret > ~/note; echo made=$?".to_string()],
        Duration::from_secs(30),
    );
    let session = lab::app::scripted::plain_transcript(&run.shell.transcript());
    assert!(has_line(&session, "made=0"), "{session}");
    let stage = run.root().to_path_buf();
    let deadline = Instant::now() + Duration::from_secs(10);
    while stage.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let look = Command::new("setpriv")
        .args(["--reuid", "65534", "--regid", "65534", "--clear-groups"])
        .args(["sh", "-c"])
        .arg(format!(
            "ls {0} || cat {0}/home/learner/note; find {1} -name note 2>/dev/null | head -1",
            stage.display(),
            std::env::temp_dir().display()
        ))
        .output()
        .unwrap();
    let seen = String::from_utf8_lossy(&look.stdout);
    assert!(!seen.contains("secret"), "a neighbour read the lab: {seen}");
    assert!(
        !seen.contains("note"),
        "a neighbour found the lab's file: {seen}"
    );
    assert!(!stage.exists(), "the stage is still on the host's disk");
}

/// A hand-made tool client (python3's `send_fds`, from the host's /usr the lab shows): one
/// request whose folder lies (`/etc`, while the client sits in /tmp), then the same request
/// sent by a child with a reply socket its parent made.
fn lying_client() -> String {
    let req = rocm_learn::lab::wire::protocol::ToolRequest {
        version: rocm_learn::lab::wire::protocol::VERSION,
        tool: "sudo".into(),
        args: vec!["sh".into(), "-c".into(), "echo ran-in=$(pwd)".into()],
        cwd: "/etc".into(),
        env: vec![("PATH".into(), "/usr/bin:/bin".into())],
    };
    let req = serde_json::to_string(&req).unwrap();
    let py = format!(
        "import os, socket
req = {req:?}.encode()
shell = socket.socket(fileno={fd})
def ask(reply):
    socket.send_fds(shell, [req], [0, 1, 2, reply.fileno()])
a, b = socket.socketpair()
ask(b)
b.close()
a.settimeout(20)
print('lying-cwd', 'answered' if a.recv(4096) else 'refused', flush=True)
a, b = socket.socketpair()
pid = os.fork()
if pid == 0:
    ask(b)
    b.close()
    a.settimeout(20)
    print('borrowed', 'answered' if a.recv(4096) else 'refused', flush=True)
    os._exit(0)
b.close()
os.waitpid(pid, 0)
",
        fd = rocm_learn::lab::wire::protocol::SHELL_FD,
    );
    let hex: String = py.bytes().map(|b| format!("{b:02x}")).collect();
    format!("cd /tmp && python3 -c \"exec(bytes.fromhex('{hex}').decode())\"\n")
}

#[test]
fn tools_act_where_the_kernel_says_and_what_stands_for_the_kernel_stays_put() {
    if !Path::new("/usr/bin/python3").is_file() {
        common::needs::skip(
            "a hand-made tool client",
            "python3 is not in /usr/bin (the lab shows the host's /usr)",
        );
        return;
    }
    if !common::needs::bwrap("lab sandbox tests") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.sh");
    // Without Landlock, so that only the tool's own protection keeps a root shell (same uid
    // as the tool) out of its memory.
    let script = lying_client()
        + "mkdir -p ~/deep/er && cd ~/deep/er && sudo sh -c 'echo at=$(pwd) limit=$(ulimit -v)'\n\
           sudo sh -c 'echo x > /proc/1/cmdline'; echo pid1=$?\n\
           sudo sh -c 'echo x > /proc/cmdline'; echo cmdline=$?\n\
           echo init=$(tr -d '\\0' < /proc/1/cmdline)\n\
           sleep 20 | gpg --dearmor > /dev/null &\n\
           sleep 1; sudo sh -c 'n=0; for p in $(pgrep -P 2); do [ \"$p\" = \"$$\" ] && continue; grep -q \"^Uid:[[:space:]]0[[:space:]]\" /proc/$p/status || continue; n=$((n+1)); cat /proc/$p/environ > /dev/null 2>&1 && echo peek=open; done; echo tools=$n'\n\
           kill %1\n";
    std::fs::write(&file, script).unwrap();
    let lab = common::run(
        &[
            "lab",
            "hsa-init-failed",
            "--lang",
            "en",
            "--line-timeout",
            "20",
            "--script",
            file.to_str().unwrap(),
        ],
        "",
        dir.path(),
        &[("ROCM_LEARN_LAB_NO_LANDLOCK", "1")],
    );
    let session = &format!("{}{}", lab.stdout, lab.stderr);
    for (line, why) in [
        (
            "ran-in=/tmp",
            "the tool runs where its caller is, not where it says",
        ),
        (
            "lying-cwd answered",
            "a lying folder is no reason to refuse",
        ),
        ("borrowed refused", "a reply socket made by another process"),
        (
            "at=/home/learner/deep/er limit=1048576",
            "the program sudo hands over to keeps the folder and a login's memory limit",
        ),
        ("pid1=2", "PID 1's frozen files are read-only, to root too"),
        ("cmdline=2", "so is the machine's kernel command line"),
        ("init=/sbin/init", "PID 1 still shows as init"),
        ("tools=1", "the tool reading its stdin was there"),
    ] {
        assert!(has_line(session, line), "{why}: {line}\n{session}");
    }
    // A root shell (the same uid as a tool) cannot read a running tool's memory or
    // environment: the tool's copy of the supervisor is not dumpable.
    // Whole lines: the typed command holds the words too.
    for line in ["peek=open", "ran-in=/etc", "borrowed answered"] {
        assert!(!has_line(session, line), "{line}\n{session}");
    }
}
