//! The seed cases as sequences of commands on one machine: what a learner does, and what the
//! machine then says. Each asserts the behaviour a learner would notice.

#[path = "../crates/sim/tests/sim_common/mod.rs"]
mod sim_common;

use rocm_learn::content::{Check, Msg};
use rocm_learn::lab::sandbox::checks;
use rocm_learn::sim::{self, Exec, ScriptedConsole, State, accounts};
use sim_common::{GPU_POD, Stage, mi300x, vega};

#[test]
fn group_fix_reaches_only_a_new_login() {
    let mut st = vega(|_| {});
    let denied = st.run("rocminfo");
    assert_eq!(denied.code, 1);
    assert!(
        denied
            .stdout_text()
            .contains("learner is not member of \"render\" group")
    );

    // Without sudo nothing changes.
    assert_eq!(st.run("usermod -aG render learner").code, 1);
    assert!(!accounts::is_member(st.root(), "learner", "render"));

    let out = st.run("sudo usermod -aG render learner");
    assert_eq!(
        (out.code, out.stdout_text(), out.stderr.as_str()),
        (0, String::new(), "")
    );
    assert!(
        st.read("/etc/group")
            .lines()
            .any(|l| l == "render:x:992:learner")
    );
    assert!(
        st.read("/etc/gshadow")
            .lines()
            .any(|l| l == "render:!::learner")
    );

    // The running session keeps its old groups: still denied, now with "is member".
    let old = st.run("rocminfo");
    assert_eq!(old.code, 1);
    assert_eq!(
        sim_common::plain(&old.stdout_text()),
        "ROCk module is loaded\nUnable to open /dev/kfd read-write: Permission denied\nlearner is member of render group\n"
    );
    assert_eq!(st.run("groups").stdout_text(), "learner adm sudo\n");
    assert_eq!(
        st.run("groups learner").stdout_text(),
        "learner : learner adm sudo render\n"
    );

    // newgrp starts a shell whose session has the group...
    let out = st.run("newgrp render");
    let Some(Exec::Shell { session }) = out.exec else {
        panic!("newgrp should start a shell: {out:?}");
    };
    let in_newgrp = sim::Caller::user("learner", 1000, Some(&session));
    assert_eq!(st.run_as(&in_newgrp, "rocminfo").code, 0);
    assert_eq!(
        st.run_as(&in_newgrp, "id").stdout_text(),
        "uid=1000(learner) gid=992(render) groups=992(render),1000(learner),4(adm),27(sudo)\n"
    );

    // ...and so does any new login.
    st.relogin();
    let ok = st.run("rocminfo");
    assert_eq!(ok.code, 0, "{}", ok.stdout_text());
    assert!(
        ok.stdout_text()
            .contains("Marketing Name:          Radeon RX Vega")
    );
    let state = st.state();
    assert!(
        state
            .session_groups(st.root(), &st.session)
            .expect("session")
            .contains(&"render".to_string())
    );
}

#[test]
fn every_correct_way_to_join_a_group_counts() {
    for cmd in [
        "sudo usermod -a -G render learner",
        "sudo usermod -aGrender learner",
        "sudo gpasswd -a learner render",
        "sudo adduser learner render",
    ] {
        let mut st = vega(|_| {});
        let out = st.run(cmd);
        assert_eq!(out.code, 0, "{cmd}: {}", out.stderr);
        st.relogin();
        assert_eq!(st.run("rocminfo").code, 0, "{cmd}");
    }
    // An edit of /etc/group by hand counts too.
    let mut st = vega(|_| {});
    let group = st
        .read("/etc/group")
        .replace("render:x:992:", "render:x:992:learner");
    st.write("/etc/group", &group);
    st.relogin();
    assert_eq!(st.run("rocminfo").code, 0);
}

#[test]
fn usermod_without_append_replaces_the_groups() {
    let mut st = vega(|_| {});
    assert_eq!(st.run("sudo usermod -G video learner").code, 0);
    assert_eq!(
        accounts::db_groups(st.root(), "learner"),
        Some(vec!["learner".to_string(), "video".into()])
    );
    assert!(
        !st.read("/etc/group")
            .lines()
            .any(|l| l.starts_with("sudo:") && l.contains("learner"))
    );
    // The running session still has sudo's group, but the next login does not.
    assert_eq!(st.run("groups").stdout_text(), "learner adm sudo\n");
    st.relogin();
    assert_eq!(st.run("groups").stdout_text(), "learner video\n");
    assert_eq!(
        st.run("id").stdout_text(),
        "uid=1000(learner) gid=1000(learner) groups=1000(learner),44(video)\n"
    );
    // video is not the group of /dev/kfd: rocminfo is still denied.
    assert_eq!(st.run("rocminfo").code, 1);
}

#[test]
fn udev_rule_needs_reload_and_trigger() {
    let mut st = vega(|_| {});
    st.write(
        "/etc/udev/rules.d/70-amdgpu.rules",
        "KERNEL==\"kfd\", MODE=\"0666\"\nSUBSYSTEM==\"drm\", KERNEL==\"renderD*\", MODE=\"0666\"\n",
    );
    let ls = |st: &Stage| st.run("ls -l /dev/kfd").stdout_text();
    assert!(ls(&st).starts_with("crw-rw---- 1 root render 509, 0 "));
    assert_eq!(st.run("rocminfo").code, 1, "a rule alone changes nothing");

    assert_eq!(
        st.run("udevadm control --reload-rules").code,
        1,
        "needs root"
    );
    let out = st.run("sudo udevadm control --reload-rules");
    assert_eq!(
        (out.code, out.stdout_text(), out.stderr.as_str()),
        (0, String::new(), "")
    );
    assert!(
        ls(&st).starts_with("crw-rw---- "),
        "reloaded but not triggered"
    );
    assert_eq!(st.run("rocminfo").code, 1);

    assert_eq!(st.run("sudo udevadm trigger").code, 0);
    assert!(
        ls(&st).starts_with("crw-rw-rw- 1 root render 509, 0 "),
        "{}",
        ls(&st)
    );
    assert!(
        st.run("ls -l /dev/dri/renderD128")
            .stdout_text()
            .starts_with("crw-rw-rw- ")
    );
    let state = st.state();
    assert_eq!(state.device_mode("/dev/kfd"), Some(0o666));
    // No group needed any more, in the same session.
    assert_eq!(st.run("rocminfo").code, 0);

    // Rules survive a reboot (read at boot, applied when amdgpu's modalias loads it again).
    sim::Machine::reboot_on(st.root(), &st.host).expect("reboot");
    st.relogin();
    let state = st.state();
    assert_eq!(state.device_mode("/dev/kfd"), Some(0o666));
}

#[test]
fn only_dot_rules_files_count() {
    let st = vega(|_| {});
    st.write(
        "/etc/udev/rules.d/70-amdgpu.rule",
        "KERNEL==\"kfd\", MODE=\"0666\"\n",
    );
    st.write(
        "/etc/udev/rules.d/70-amdgpu.rules.bak",
        "KERNEL==\"kfd\", MODE=\"0666\"\n",
    );
    st.run("sudo udevadm control --reload-rules");
    st.run("sudo udevadm trigger");
    let state = st.state();
    assert_eq!(state.device_mode("/dev/kfd"), Some(0o660));
}

#[test]
fn modprobe_loads_the_driver_and_persistence_decides_after_reboot() {
    let mut st = vega(|s| {
        s.amdgpu_loaded = false;
        s.user_groups.push("render".into());
    });
    assert!(!st.run("lsmod").stdout_text().contains("amdgpu"));
    let smi = st.run("rocm-smi");
    assert_eq!(
        (smi.code, smi.stderr.as_str()),
        (
            0,
            "cat: /sys/module/amdgpu/initstate: No such file or directory\nERROR:root:Driver not initialized (amdgpu not found in modules)\n"
        )
    );
    assert_eq!(st.run("ls -l /dev/kfd").code, 2);

    let out = st.run("modprobe amdgpu");
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (
            1,
            "modprobe: ERROR: could not insert 'amdgpu': Operation not permitted\n"
        )
    );
    let out = st.run("sudo modprobe amdgpu");
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    assert!(
        st.run("lsmod")
            .stdout_text()
            .lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("amdgpu              16007168"))
    );
    assert!(st.run("rocm-smi").stdout_text().contains("0x687f,   45532"));
    assert!(
        st.run("ls -l /dev/kfd")
            .stdout_text()
            .starts_with("crw-rw---- 1 root render 509, 0 ")
    );
    assert_eq!(st.run("rocminfo").code, 0);
    assert!(!State::amdgpu_persisted(st.root()));

    // Nothing forbids it: the GPU's modalias loads amdgpu at boot.
    sim::Machine::reboot_on(st.root(), &st.host).expect("reboot");
    st.relogin();
    assert!(st.state().is_module_loaded());

    // Blacklisted in /etc/modprobe.d: udev's coldplug skips it.
    st.write(
        "/etc/modprobe.d/blacklist-amdgpu.conf",
        "blacklist amdgpu\n",
    );
    sim::Machine::reboot_on(st.root(), &st.host).expect("reboot");
    st.relogin();
    assert!(!st.state().is_module_loaded());

    // systemd-modules-load honours the blacklist too: listing it in /etc/modules is no way out.
    let modules = st.read("/etc/modules") + "amdgpu\n";
    st.write("/etc/modules", &modules);
    assert!(State::amdgpu_persisted(st.root()));
    sim::Machine::reboot_on(st.root(), &st.host).expect("reboot");
    st.relogin();
    assert!(!st.state().is_module_loaded());
    let log = st.run("sudo journalctl -b").stdout_text();
    assert!(
        log.contains("systemd-modules-load[252]: Module 'amdgpu' is deny-listed (by kmod)"),
        "{log}"
    );

    // Without the blacklist, it is back at the next boot.
    st.write(
        "/etc/modprobe.d/blacklist-amdgpu.conf",
        "# blacklist amdgpu\n",
    );
    sim::Machine::reboot_on(st.root(), &st.host).expect("reboot");
    st.relogin();
    assert!(st.state().is_module_loaded());
    assert_eq!(st.run("rocminfo").code, 0);

    // modules-load.d works too; a file not ending in .conf does not.
    let st = vega(|s| s.amdgpu_loaded = false);
    st.write("/etc/modules-load.d/amdgpu.txt", "amdgpu\n");
    assert!(!State::amdgpu_persisted(st.root()));
    st.write("/etc/modules-load.d/amdgpu.conf", "# GPU\namdgpu\n");
    assert!(State::amdgpu_persisted(st.root()));
}

#[test]
fn sudo_tee_is_left_to_the_real_program() {
    let st = vega(|_| {});
    let out = st.run("sudo tee -a /etc/modules");
    assert!(
        matches!(&out.exec, Some(Exec::Program { argv, as_root: true, .. })
            if argv == &["tee", "-a", "/etc/modules"]),
        "{:?}",
        out.exec
    );
}

#[test]
fn apt_without_key_fails_and_with_key_succeeds() {
    let st = vega(|s| {
        s.repo_configured = Some("6.2.2".into());
        s.repo_key = false;
    });
    let out = st.run("sudo apt update");
    assert_eq!(out.code, 100);
    assert!(out.stderr.contains("NO_PUBKEY 9386B48A1A693C5C"));
    assert!(out.stderr.contains(
        "E: The repository 'https://repo.radeon.com/rocm/apt/6.2.2 noble InRelease' is not signed."
    ));
    let out = st.run("sudo apt install -y rocm");
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (100, "E: Unable to locate package rocm\n")
    );

    // An armored key in a .gpg file is ignored, with apt's warning.
    let armored = st
        .run("wget -q https://repo.radeon.com/rocm/rocm.gpg.key -O -")
        .stdout;
    std::fs::write(st.root().join("etc/apt/keyrings/rocm.gpg"), &armored).expect("write");
    let out = st.run("sudo apt update");
    assert_eq!(out.code, 100);
    assert!(
        out.stderr
            .contains("are ignored as the file has an unsupported filetype."),
        "{}",
        out.stderr
    );

    // wget -O - | gpg --dearmor | sudo tee /etc/apt/keyrings/rocm.gpg
    let key = st
        .run("wget https://repo.radeon.com/rocm/rocm.gpg.key -O -")
        .stdout;
    let bin = st
        .run_with("gpg --dearmor", &mut ScriptedConsole::with_stdin(key))
        .stdout;
    std::fs::write(st.root().join("etc/apt/keyrings/rocm.gpg"), &bin).expect("write");
    let out = st.run("sudo apt update");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout_text().contains(
            "Get:2 https://repo.radeon.com/amdgpu/6.2.2/ubuntu noble/main amd64 Packages"
        )
    );

    let out = st.run("sudo apt install -y rocm");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let state = st.state();
    assert!(state.installed("rocm") && state.installed("hipcc"));
    assert_eq!(state.rocm_version(), Some("6.2.2"));
    // rocm-core's postinst registers the release in the `rocm` alternative.
    let link = std::fs::read_link(st.root().join("opt/rocm")).expect("link");
    assert_eq!(link.to_string_lossy(), "/etc/alternatives/rocm");
    let link = std::fs::read_link(st.root().join("etc/alternatives/rocm")).expect("link");
    assert_eq!(link.to_string_lossy(), "/opt/rocm-6.2.2");
    let wrapper = st.read("/opt/rocm-6.2.2/bin/hipcc");
    assert_eq!(
        wrapper,
        "#!/bin/sh\nexec \"rocm-learn\" \"sim:hipcc@6.2.2\" \"$0\" \"$@\"\n"
    );
    // Installing again changes nothing.
    let out = st.run("sudo apt install rocm");
    assert!(
        out.stdout_text()
            .contains("rocm is already the newest version (6.2.2.60202-116~24.04).")
    );
}

#[test]
fn installer_deb_bootstraps_the_repositories() {
    let st = vega(|_| {});
    let url = "https://repo.radeon.com/amdgpu-install/6.2.2/ubuntu/noble/amdgpu-install_6.2.60202-1_all.deb";
    assert_eq!(st.run(&format!("wget {url}")).code, 0);
    assert_eq!(
        st.run("sudo apt install ./amdgpu-install_6.2.60202-1_all.deb")
            .code,
        0
    );
    assert!(st.root().join("usr/bin/amdgpu-install").is_file());
    assert_eq!(st.run("sudo apt update").code, 0);
    let out = st.run_with(
        "amdgpu-install --usecase=rocm",
        &mut ScriptedConsole::answering(&["y"]),
    );
    assert_eq!(out.code, 100, "no kernel headers: the DKMS build fails");
    assert_eq!(
        st.run("sudo apt install -y linux-headers-6.8.0-52-generic")
            .code,
        0
    );
    let out = st.run("amdgpu-install -y --usecase=rocm");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        st.run("dkms status").stdout_text(),
        "amdgpu/6.8.5-2041575.24.04, 6.8.0-52-generic, x86_64: installed\n"
    );
    // The DKMS driver takes over after a reload of the module (here: a reboot with it listed).
    let m = st.read("/etc/modules") + "amdgpu\n";
    st.write("/etc/modules", &m);
    sim::Machine::reboot_on(st.root(), &st.host).expect("reboot");
    let s = sim::login_on(st.root(), "learner", &st.host).expect("login");
    let c = sim::Caller::user("learner", 1000, Some(&s));
    assert!(st.run_as(&c, "lsmod").stdout_text().contains("amdkcl"));
}

#[test]
fn pod_pending_until_the_device_plugin_runs() {
    let st = mi300x(|s| {
        s.k8s = true;
        s.node_labels.insert("gpu".into(), "true".into());
    });
    st.write("/home/learner/pod.yaml", GPU_POD);
    assert_eq!(
        st.run("kubectl apply -f pod.yaml").stdout_text(),
        "pod/gpu-workload created\n"
    );
    let state = st.state();
    assert_eq!(state.pod_phase("default", "gpu-workload"), Some("Pending"));
    let d = st.run("kubectl describe pod gpu-workload").stdout_text();
    assert!(d.contains("0/1 nodes are available: 1 Insufficient amd.com/gpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."));
    assert!(
        !st.run("kubectl describe node mi300x-node")
            .stdout_text()
            .contains("amd.com/gpu")
    );

    let out = st.run("kubectl create -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml");
    assert_eq!(
        out.stdout_text(),
        "daemonset.apps/amdgpu-device-plugin-daemonset created\n"
    );
    let state = st.state();
    assert!(state.device_plugin_running());
    assert_eq!(state.pod_phase("default", "gpu-workload"), Some("Running"));
    let node = st.run("kubectl describe node mi300x-node").stdout_text();
    assert!(node.contains("Capacity:\n  amd.com/gpu:        1\n"));
    assert!(node.contains("Allocatable:\n  amd.com/gpu:        1\n"));
    assert!(
        st.run("kubectl get pods")
            .stdout_text()
            .contains("gpu-workload   1/1     Running   0")
    );

    // A second GPU pod does not fit on one GPU.
    st.write(
        "/home/learner/pod2.yaml",
        &GPU_POD.replace("gpu-workload", "second"),
    );
    st.run("kubectl apply -f pod2.yaml");
    assert_eq!(
        State::load_on(st.root(), &st.host)
            .expect("state")
            .pod_phase("default", "second"),
        Some("Pending")
    );
    // Deleting the first frees it.
    assert_eq!(
        st.run("kubectl delete pod gpu-workload").stdout_text(),
        "pod \"gpu-workload\" deleted\n"
    );
    st.run("kubectl get pods");
    assert_eq!(
        State::load_on(st.root(), &st.host)
            .expect("state")
            .pod_phase("default", "second"),
        Some("Running")
    );
}

#[test]
fn node_selector_mismatch_until_the_node_is_labelled() {
    let st = mi300x(|s| {
        s.k8s = true;
        s.device_plugin = true;
    });
    st.write("/home/learner/pod.yaml", GPU_POD);
    st.run("kubectl create -f pod.yaml");
    let d = st.run("kubectl describe pod gpu-workload").stdout_text();
    assert!(d.contains("0/1 nodes are available: 1 node(s) didn't match Node's node affinity/selector. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."), "{d}");
    assert_eq!(
        st.run("kubectl label node mi300x-node gpu=true")
            .stdout_text(),
        "node/mi300x-node labeled\n"
    );
    assert!(st.run("kubectl get pods").stdout_text().contains("Running"));
}

#[test]
fn the_plugin_finds_no_gpu_while_amdgpu_is_unloaded() {
    let st = mi300x(|s| {
        s.k8s = true;
        s.device_plugin = true;
        s.amdgpu_loaded = false;
        s.node_labels.insert("gpu".into(), "true".into());
    });
    st.write("/home/learner/pod.yaml", GPU_POD);
    st.run("kubectl create -f pod.yaml");
    assert!(st.run("kubectl get pods").stdout_text().contains("Pending"));
    assert_eq!(st.run("sudo modprobe amdgpu").code, 0);
    assert!(st.run("kubectl get pods").stdout_text().contains("Running"));
}

/// A lab check on the stage as it is now (checks that need no shell).
fn verdict(st: &Stage, check: &Check) -> Result<(), Msg> {
    let state = st.state();
    let env = checks::Env {
        root: st.root(),
        state: Ok(&state),
        shell: None,
        login_path: None,
        login_env: None,
        script_run: None,
    };
    checks::evaluate(check, &env)
}

#[test]
fn every_amd_source_line_must_name_the_nodes_codename() {
    let st = mi300x(|s| {
        s.driver = rocm_learn::sim::spec::DriverKind::None;
        s.amdgpu_loaded = false;
    });
    // apt ships the folder from 2.4 on, so Ubuntu 22.04 has it before any key is stored there.
    assert!(st.root().join("etc/apt/keyrings").is_dir());
    let line = |repo: &str, suite: &str| {
        format!(
            "deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/{repo} {suite} main\n"
        )
    };
    assert_eq!(
        verdict(&st, &Check::RepoMatchesNode).unwrap_err().id,
        "lab-why-no-repo"
    );
    // ROCm's line fixed for jammy, the driver's still copied from a noble guide.
    st.write(
        "/etc/apt/sources.list.d/rocm.list",
        &line("rocm/apt/6.2.2", "jammy"),
    );
    st.write(
        "/etc/apt/sources.list.d/amdgpu.list",
        &line("amdgpu/6.2.2/ubuntu", "noble"),
    );
    let why = verdict(&st, &Check::RepoMatchesNode).unwrap_err();
    assert_eq!(why.id, "lab-why-repo-codename");
    assert!(
        why.args
            .contains(&("file", "/etc/apt/sources.list.d/amdgpu.list".to_string())),
        "{why:?}"
    );
    st.write(
        "/etc/apt/sources.list.d/amdgpu.list",
        &line("amdgpu/6.2.2/ubuntu", "jammy"),
    );
    assert!(verdict(&st, &Check::RepoMatchesNode).is_ok());
}

#[test]
fn the_device_plugin_is_known_by_what_it_runs_not_its_name() {
    let ds = |name: &str, image: &str| {
        format!(
            "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: {name}\n  namespace: kube-system\nspec:\n  template:\n    spec:\n      containers:\n      - name: dp\n        image: {image}\n"
        )
    };
    // The plugin under another name advertises the GPU: the step is done.
    let st = mi300x(|s| {
        s.rocm_installed = Some("6.2.2".into());
        s.k8s = true;
    });
    st.write(
        "/home/learner/dp.yaml",
        &ds("amd-gpu-dp", "rocm/k8s-device-plugin:latest"),
    );
    assert_eq!(st.run("kubectl apply -f dp.yaml").code, 0);
    assert!(verdict(&st, &Check::DevicePlugin).is_ok());
    st.write(
        "/home/learner/pod.yaml",
        &GPU_POD.replace("  nodeSelector:\n    gpu: \"true\"\n", ""),
    );
    st.run("kubectl apply -f pod.yaml");
    let state = st.state();
    assert_eq!(state.pod_phase("default", "gpu-workload"), Some("Running"));

    // The plugin's name on some other image advertises nothing: not done.
    let st = mi300x(|s| {
        s.rocm_installed = Some("6.2.2".into());
        s.k8s = true;
    });
    st.write(
        "/home/learner/dp.yaml",
        &ds("amdgpu-device-plugin-daemonset", "busybox:latest"),
    );
    assert_eq!(st.run("kubectl apply -f dp.yaml").code, 0);
    assert_eq!(
        verdict(&st, &Check::DevicePlugin).unwrap_err().id,
        "lab-why-device-plugin"
    );
}

#[test]
fn a_restarted_process_sees_the_same_machine() {
    let st = vega(|s| s.amdgpu_loaded = false);
    st.run("sudo modprobe amdgpu");
    st.run("sudo usermod -aG render learner");
    let before = st.state();
    let lsmod = st.run("lsmod").stdout_text();
    // Nothing is cached between calls: a fresh load reads what the last call saved.
    let after = st.state();
    assert_eq!(before, after);
    assert!(after.is_module_loaded());
    assert_eq!(st.run("lsmod").stdout_text(), lsmod);
    assert_eq!(
        accounts::db_groups(st.root(), "learner")
            .expect("user")
            .last()
            .map(String::as_str),
        Some("render")
    );
    // Read-only tools do not rewrite the state file. Every save is a new file renamed into
    // place, so the file's inode tells a rewrite apart even where times are too coarse to.
    let path = State::path(st.root());
    let file = || {
        use std::os::unix::fs::MetadataExt;
        let ino = std::fs::metadata(&path).expect("state file").ino();
        (ino, std::fs::read(&path).expect("state file"))
    };
    let before = file();
    st.run("rocm-smi");
    st.run("lspci");
    assert!(before == file(), "a read-only tool rewrote the state file");
}
