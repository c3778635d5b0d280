//! Hostile lab scripts change nothing on the host and leave no process behind, as root and as
//! an unprivileged user; without bubblewrap no shell starts at all.

mod common;

use std::io::Read;
use std::net::TcpListener;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

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

fn hostile_script(dir: &Path, port: u16, secret_path: &Path) -> std::path::PathBuf {
    let script = format!(
        "echo owned >> /etc/passwd
sudo sh -c 'echo owned >> /etc/passwd; echo owned >> /etc/group'
sudo mount -o remount,rw /
sudo rm -rf --no-preserve-root / 2>/dev/null | tail -1
rm -rf ~ 2>/dev/null
cat {secret} ; ls /root /home
bash -c 'echo hi > /dev/tcp/127.0.0.1/{port}'; echo net=$?
kill -9 {pid}; echo kill=$?
sleep 4711 &
nohup sleep 4712 > /dev/null 2>&1 &
setsid sleep 4713 &
(sleep 4714 &)
sudo touch /etc/created-by-lab /usr/created-by-lab
echo done",
        secret = secret_path.display(),
        pid = std::process::id(),
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
    let script = hostile_script(dir.path(), port, &secret);
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
        Command::new(env!("CARGO_BIN_EXE_rocm-learn"))
    };
    let out = cmd
        .args([
            "lab",
            "hsa-init-failed",
            "--script",
            script.to_str().unwrap(),
            "--lang",
            "en",
        ])
        .env("ROCM_LEARN_DATA_DIR", &data)
        .env_remove("ROCM_LEARN_LANG")
        .output()
        .unwrap();
    let session =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let _ = std::fs::remove_file(&secret);

    assert!(session.contains("learner@"), "the lab ran:\n{session}");
    assert!(
        !session.contains("host secret 8d1f"),
        "the host's home is not readable:\n{session}"
    );
    assert!(session.contains("net=1"), "no network:\n{session}");
    assert!(
        session.contains("kill=1"),
        "host processes are invisible:\n{session}"
    );
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
    // The sandbox's processes die with it; give the kernel a moment to reap them.
    std::thread::sleep(Duration::from_millis(300));
    for n in ["sleep 4711", "sleep 4712", "sleep 4713", "sleep 4714"] {
        assert!(
            processes_with(n).is_empty(),
            "{n} survived the lab: {:?}",
            processes_with(n)
        );
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
    if unsafe { libc::geteuid() } != 0 {
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
    let mut err = String::new();
    err.push_str(&String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(1));
    assert!(err.contains("sudo apt install bubblewrap"), "{err}");
    assert!(!marker.exists(), "the script must not have run anywhere");
    let mut s = String::new();
    let _ = std::io::Cursor::new(out.stdout).read_to_string(&mut s);
    assert!(!s.contains("learner@"), "{s}");
}
