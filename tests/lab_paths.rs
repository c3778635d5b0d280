//! The simulated tools are where their packages put them, in every kind of lab: after the Core
//! SDK install `which`, `command -v` and `type` name /usr/bin/rocminfo (the link
//! update-alternatives manages), /usr/local/bin and /usr/local/sbin are empty as on Ubuntu, and
//! the host's own programs in /usr/bin still run. A lab started by root, by a user with one id
//! (`nobody`), and by a user with subordinate ids; and the fallback a lab of one id takes
//! without Landlock, where the programs stay in /usr/local and `which` still names /usr/bin.

mod common;

use std::process::Command;

use common::has_line;

/// The fresh-node-rocm10 install page, then what a learner would ask about the result.
const SCRIPT: &str = r#"sudo mkdir --parents --mode=0755 /etc/apt/keyrings
wget https://repo.radeon.com/rocm/rocm.gpg.key -O - | gpg --dearmor | sudo tee /etc/apt/keyrings/rocm.gpg > /dev/null
wget https://stable.repo.amd.com/rocm/gpg/packages.gpg -O - | gpg --dearmor | sudo tee /etc/apt/keyrings/amdrocm.gpg > /dev/null
echo "deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/amdgpu/31.60/ubuntu noble main" | sudo tee /etc/apt/sources.list.d/amdgpu.list
printf 'Types: deb\nURIs: https://stable.repo.amd.com/rocm/core/packages/ubuntu2404/\nSuites: stable\nComponents: main\nSigned-By: /etc/apt/keyrings/amdrocm.gpg\n' | sudo tee /etc/apt/sources.list.d/amdrocm-stable.sources
sudo apt update
sudo apt install -y amdgpu-dkms amdrocm-core-sdk10.1
echo "which=$(which rocminfo)"
echo "command=$(command -v rocminfo)"
echo "type=$(type -p amd-smi)"
echo "link=$(readlink /usr/bin/rocminfo)"
echo "sbin=$(which modprobe)"
echo "local=$(ls -A /usr/local/bin /usr/local/sbin | grep -vc -e '^$' -e ':$')"
ls /usr/bin/ls; echo "ls-status=$?"
echo "real-ls=$(ls -d /etc)"
echo "host=$(/usr/bin/bash -c 'echo $BASH_VERSION' | cut -c1)"
echo "sudo-which=$(sudo which amd-smi)"
touch /usr/bin/learners 2>/dev/null; echo "learner-write=$?"
sudo ln -s /opt/rocm/bin/hipcc /usr/bin/hipcc-link; echo "root-write=$?"
"#;

/// Runs the lab fresh-node-rocm10 on `SCRIPT` as `user` (uid, gid; we are root then), or as
/// we are; its transcript, or None when the test cannot run here.
fn session(user: Option<(u32, u32)>, env: &[(&str, &str)]) -> Option<String> {
    if !common::needs::bwrap("lab path tests") {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.sh");
    std::fs::write(&file, SCRIPT).unwrap();
    {
        // Reachable by the user the lab runs as.
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    let exe = env!("CARGO_BIN_EXE_rocm-learn");
    let mut cmd = match user {
        Some((uid, gid)) => {
            let mut c = Command::new("setpriv");
            c.args([
                "--reuid",
                &uid.to_string(),
                "--regid",
                &gid.to_string(),
                "--clear-groups",
                exe,
            ])
            .env("HOME", dir.path());
            c
        }
        None => Command::new(exe),
    };
    cmd.args([
        "lab",
        "fresh-node-rocm10",
        "--json",
        "--line-timeout",
        "20",
        "--lang",
        "en",
        "--script",
    ])
    .arg(&file)
    .env("ROCM_LEARN_DATA_DIR", dir.path())
    .env("TMPDIR", dir.path())
    .env_remove("ROCM_LEARN_LANG")
    .envs(env.iter().copied());
    let out = cmd.output().unwrap();
    let session = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        has_line(&session, "ls-status=0"),
        "the script did not run to its end:\n{session}"
    );
    Some(session)
}

/// What every lab shows, wherever the machine's programs live.
fn tools_named_where_ubuntu_keeps_them(session: &str) {
    for line in [
        "which=/usr/bin/rocminfo",
        "sbin=/usr/sbin/modprobe",
        "/usr/bin/ls",
        "real-ls=/etc",
        "host=5",
        "sudo-which=/usr/bin/amd-smi",
    ] {
        assert!(has_line(session, line), "no line {line:?} in:\n{session}");
    }
}

/// A lab whose programs are laid over /usr: the shell's own lookups agree, /usr/local is empty.
fn programs_in_usr(session: &str) {
    tools_named_where_ubuntu_keeps_them(session);
    for line in [
        "command=/usr/bin/rocminfo",
        "type=/usr/bin/amd-smi",
        "link=/etc/alternatives/rocminfo",
        "local=0",
        // /usr/bin takes root's links, never the learner's files.
        "learner-write=1",
        "root-write=0",
    ] {
        assert!(has_line(session, line), "no line {line:?} in:\n{session}");
    }
}

#[test]
fn a_lab_started_as_we_are_has_its_tools_in_usr_bin() {
    if let Some(session) = session(None, &[]) {
        programs_in_usr(&session);
    }
}

#[test]
fn a_lab_of_one_id_has_its_tools_in_usr_bin() {
    if !common::needs::root("a lab of one id (run as nobody)") {
        return;
    }
    if let Some(session) = session(Some((65534, 65534)), &[]) {
        programs_in_usr(&session);
    }
}

#[test]
fn a_lab_with_subordinate_ids_has_its_tools_in_usr_bin() {
    let Some(user) = common::needs::subordinate_user("a lab with subordinate ids") else {
        return;
    };
    if let Some(session) = session(Some(user), &[]) {
        programs_in_usr(&session);
    }
}

#[test]
fn without_landlock_a_lab_of_one_id_keeps_its_tools_in_usr_local_and_which_names_usr_bin() {
    if !common::needs::root("a lab of one id without Landlock (run as nobody)") {
        return;
    }
    let off = [("ROCM_LEARN_LAB_NO_LANDLOCK", "1")];
    if let Some(session) = session(Some((65534, 65534)), &off) {
        tools_named_where_ubuntu_keeps_them(&session);
        // Only there may the learner, who owns the machine's files, see them in /usr/local.
        assert!(
            has_line(&session, "command=/usr/local/bin/rocminfo"),
            "{session}"
        );
    }
}
