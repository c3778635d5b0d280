//! The forms real admins use (issue 13 item 5): udev's event semantics and trigger filters,
//! dpkg -i of a downloaded installer built for the node's release (or not), wget -q, releases
//! the offline mirror lacks, and the device plugin only from AMD's image.

mod sim_common;

use rocm_sim as sim;
use sim_common::{Stage, check, golden, mi300x, vega};

fn kfd_mode(st: &Stage) -> Option<u32> {
    mode(st, "/dev/kfd")
}

fn mode(st: &Stage, device: &str) -> Option<u32> {
    st.state().device_mode(device)
}

/// `st` with `rules` in the udev rules file an admin writes for the GPU's devices.
fn with_rules(st: Stage, rules: &str) -> Stage {
    st.write("/etc/udev/rules.d/70-kfd.rules", rules);
    st
}

#[test]
fn a_line_with_an_invalid_operator_is_dropped_not_applied_to_everything() {
    let st = with_rules(vega(|_| {}), "KERNEL=\"kfd\", MODE=\"0666\"\n");
    assert_eq!(st.run("sudo udevadm trigger").code, 0);
    assert_eq!(kfd_mode(&st), Some(0o660), "the line is dropped whole");
    let render = mode(&st, "/dev/dri/renderD128");
    assert_eq!(render, Some(0o660), "not applied to other devices either");
}

#[test]
fn trigger_rereads_changed_rules_and_honours_its_filters() {
    let st = with_rules(
        vega(|_| {}),
        "KERNEL==\"kfd\", MODE=\"0666\"\nKERNEL==\"renderD*\", MODE=\"0666\"\n",
    );
    // The space form of --subsystem-match: only kfd gets the event.
    assert_eq!(st.run("sudo udevadm trigger --subsystem-match kfd").code, 0);
    let state = st.state();
    assert_eq!(
        state.device_mode("/dev/kfd"),
        Some(0o666),
        "no --reload needed"
    );
    assert_eq!(state.device_mode("/dev/dri/renderD128"), Some(0o660));
    assert_eq!(
        st.run("sudo udevadm trigger --name-match=/dev/dri/renderD128")
            .code,
        0
    );
    let state = st.state();
    assert_eq!(state.device_mode("/dev/dri/renderD128"), Some(0o666));
    let out = st.run("sudo udevadm trigger --subsystem-match");
    assert_eq!(
        out.stderr,
        "udevadm trigger: option '--subsystem-match' requires an argument\n"
    );
}

#[test]
fn an_add_rule_needs_an_add_event_or_a_module_reload() {
    let st = with_rules(
        mi300x(|_| {}),
        "ACTION==\"add\", KERNEL==\"kfd\", MODE=\"0666\"\n",
    );
    st.run("sudo udevadm trigger");
    assert_eq!(kfd_mode(&st), Some(0o660), "change events do not match");
    st.run("sudo udevadm trigger --action=add");
    assert_eq!(kfd_mode(&st), Some(0o666));
    // Reloading the module creates the nodes again: an add event with the rules on disk.
    let st = with_rules(
        mi300x(|_| {}),
        "ACTION==\"add\", KERNEL==\"kfd\", MODE=\"0666\"\n",
    );
    assert_eq!(st.run("sudo modprobe -r amdgpu").code, 0);
    assert_eq!(st.run("sudo modprobe amdgpu").code, 0);
    assert_eq!(kfd_mode(&st), Some(0o666));
}

#[test]
fn the_installer_writes_the_lines_of_its_own_release() {
    let jammy = |st: &Stage, url: &str| {
        let out = st.run(&format!("wget -q {url}"));
        assert_eq!((out.code, out.stderr.as_str()), (0, ""), "{url}");
        st.run("sudo dpkg -i ./amdgpu-install_6.2.60202-1_all.deb")
    };
    let st = mi300x(|_| {});
    let out = jammy(
        &st,
        "https://repo.radeon.com/amdgpu-install/6.2.2/ubuntu/noble/amdgpu-install_6.2.60202-1_all.deb",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        st.read("/etc/apt/sources.list.d/rocm.list")
            .contains(" noble main"),
        "the noble installer writes noble lines on a jammy node"
    );
    let st = mi300x(|_| {});
    jammy(
        &st,
        "https://repo.radeon.com/amdgpu-install/6.2.2/ubuntu/jammy/amdgpu-install_6.2.60202-1_all.deb",
    );
    assert!(
        st.read("/etc/apt/sources.list.d/rocm.list")
            .contains(" jammy main")
    );
}

#[test]
fn only_amds_image_is_the_device_plugin() {
    let st = mi300x(|s| s.k8s = true);
    st.write(
        "/home/learner/nvidia.yaml",
        "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: nvidia-device-plugin-daemonset\n  namespace: kube-system\nspec:\n  selector:\n    matchLabels:\n      name: nvidia-device-plugin-ds\n  template:\n    metadata:\n      labels:\n        name: nvidia-device-plugin-ds\n    spec:\n      containers:\n      - image: nvcr.io/nvidia/k8s-device-plugin:v0.14.1\n        name: nvidia-device-plugin-ctr\n",
    );
    let out = st.run("kubectl apply -f /home/learner/nvidia.yaml");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!st.state().device_plugin_running());
}

#[test]
fn form_goldens() {
    let st = vega(|_| {});
    check(
        &st,
        "wget_quiet_unknown_host",
        "wget -q https://example.com/x",
    );
    let url = "https://repo.radeon.com/amdgpu-install/6.1.3/ubuntu/noble/amdgpu-install_6.1.60103-1_all.deb";
    golden(
        "wget_release_not_mirrored",
        &format!("wget {url}"),
        &st.run(&format!("wget {url}")),
    );
    check(&st, "dpkg_install_not_root", "dpkg -i x.deb");
    check(&st, "dpkg_install_missing_file", "sudo dpkg -i ./nope.deb");
    st.run("wget -q https://repo.radeon.com/amdgpu-install/6.2.2/ubuntu/noble/amdgpu-install_6.2.60202-1_all.deb");
    check(
        &st,
        "dpkg_install_installer",
        "sudo dpkg -i amdgpu-install_6.2.60202-1_all.deb",
    );
    check(
        &st,
        "udevadm_trigger_not_root_filtered",
        "udevadm trigger --subsystem-match kfd",
    );
    for (name, cmd) in [
        ("curl_unknown_host", "curl -fsSL https://example.com/key"),
        ("curl_unknown_host_loud", "curl https://example.com/key"),
        (
            "curl_missing_fail",
            "curl -fsS https://repo.radeon.com/rocm/nothing-here",
        ),
        (
            "curl_remote_name",
            "curl -O https://repo.radeon.com/amdgpu-install/6.2.2/ubuntu/noble/amdgpu-install_6.2.60202-1_all.deb",
        ),
        ("curl_no_url", "curl -fsSL"),
    ] {
        golden(name, cmd, &st.run(cmd));
    }
    let key = st.run("curl -fsSL https://repo.radeon.com/rocm/rocm.gpg.key");
    assert_eq!(key.code, 0);
    assert!(
        key.stdout_text()
            .starts_with("-----BEGIN PGP PUBLIC KEY BLOCK-----")
    );
    assert!(
        st.read("/home/learner/amdgpu-install_6.2.60202-1_all.deb")
            .contains("amdgpu-install 6.2.2 noble")
    );
}

#[test]
fn group_forms_admins_use() {
    let mut st = vega(|s| s.user_groups = vec!["adm".into(), "sudo".into()]);
    // gpasswd -M replaces the member list: the render group gets exactly these members.
    assert_eq!(st.run("gpasswd -M learner render").code, 1, "needs root");
    assert_eq!(st.run("sudo gpasswd -M learner render").code, 0);
    assert!(
        st.read("/etc/group")
            .lines()
            .any(|l| l.starts_with("render:") && l.ends_with(":learner"))
    );
    // sg runs one command with the group, without a new login.
    let out = st.run("sg render -c rocminfo");
    match out.exec {
        Some(sim::Exec::Login {
            command,
            login,
            user,
            ..
        }) => {
            assert_eq!(
                (command.as_deref(), login, user.as_str()),
                (Some("rocminfo"), false, "learner")
            );
        }
        other => panic!("sg should run the command in a new session: {other:?}"),
    }
    let out = st.run("sg nosuchgroup -c id");
    assert_eq!(out.stderr, "sg: group 'nosuchgroup' does not exist\n");
    // usermod -g makes render the primary group: a new login has it.
    let out = st.run("sudo usermod -g render learner");
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    st.relogin();
    assert!(
        st.run("id").stdout_text().contains(" gid=992(render)"),
        "{}",
        st.run("id").stdout_text()
    );
    // login -f: root only; a fresh login with the groups /etc/group gives now.
    let out = st.run("login -f learner");
    assert_eq!(
        out.stderr,
        "login: Cannot possibly work without effective root\n"
    );
    let out = st.run_as(&st.learner().as_root(), "login -f learner");
    assert!(matches!(
        out.exec,
        Some(sim::Exec::Login { login: true, .. })
    ));
}

#[test]
fn helm_installs_amds_chart_after_repo_add() {
    let st = mi300x(|s| s.k8s = true);
    for (name, cmd) in [
        (
            "helm_install_without_repo",
            "helm install amd-gpu amd-gpu/amd-gpu --namespace kube-system",
        ),
        (
            "helm_repo_add",
            "helm repo add amd-gpu https://rocm.github.io/k8s-device-plugin/",
        ),
        ("helm_repo_update", "helm repo update"),
        (
            "helm_install_device_plugin",
            "helm install amd-gpu amd-gpu/amd-gpu --namespace kube-system",
        ),
    ] {
        golden(name, cmd, &st.run(cmd));
    }
    assert!(st.state().device_plugin_running());
    // kube-system has what kubeadm leaves there.
    let pods = st.run("kubectl get pods -n kube-system").stdout_text();
    for p in [
        "coredns-",
        "etcd-mi300x-node",
        "kube-apiserver-",
        "kube-proxy-",
        "kube-scheduler-",
    ] {
        assert!(pods.contains(p), "{p} in\n{pods}");
    }
    // The README's health variant is served too.
    let out = st.run("kubectl apply -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp-health.yaml");
    assert_eq!(out.code, 0, "{}", out.stderr);
}
