//! Every tool's success and failures, compared with golden transcripts (stdout, stderr, exit
//! code) in tests/golden/sim. Regenerate with `UPDATE_GOLDEN=1 cargo test -p rocm-sim --test sim_tools`
//! and review the diff: these files are what a learner sees.

mod sim_common;

use rocm_sim::{self as sim, Exec, MachineSpec, Preset, ScriptedConsole};
use sim_common::{GPU_POD, Stage, check, check_root, golden, mi300x, vega};

// ---- rocminfo ---------------------------------------------------------------------------------

#[test]
fn rocminfo_outputs() {
    let st = vega(|s| s.user_groups = vec!["adm".into(), "sudo".into(), "render".into()]);
    check(&st, "rocminfo_vega64_success", "rocminfo");
    check(&st, "rocminfo_ignores_arguments", "rocminfo --bogus extra");

    let st = mi300x(|s| {
        s.gpu_count = Some(2);
        s.user_groups = vec!["render".into()];
    });
    check(&st, "rocminfo_mi300x_success", "rocminfo");

    let st = vega(|_| {});
    check(&st, "rocminfo_permission_denied", "rocminfo");

    let st = vega(|s| s.amdgpu_loaded = false);
    check(&st, "rocminfo_module_not_loaded", "rocminfo");

    let st = vega(|s| {
        s.rocm_installed = Some("6.3.2".into());
        s.driver = rocm_sim::spec::DriverKind::Dkms;
        s.kfd_mode = Some("0666".into());
    });
    let out = st.run("rocminfo");
    assert_eq!(out.code, 0);
    assert!(
        sim_common::plain(&out.stdout_text()).starts_with("ROCk module version 6.10.5 is loaded\n")
    );
}

#[test]
fn rocminfo_layout_pads_like_the_real_tool() {
    let st = vega(|s| s.user_groups = vec!["render".into()]);
    let text = st.run("rocminfo").stdout_text();
    assert!(text.contains("  Name:                    gfx900                             \n"));
    assert!(text.contains("  Wavefront Size:          64(0x40)                           \n"));
    assert!(text.contains("    L2:                      4096(0x1000) KB                    \n"));
    assert!(text.contains("      Name:                    amdgcn-amd-amdhsa--gfx900:xnack-   \n"));
    assert!(text.contains("  Chip ID:                 26751(0x687f)"));
    assert!(
        text.ends_with("*** Done ***             \n"),
        "printLabel pads to 25"
    );
}

// ---- rocm-smi / amd-smi / hipcc -----------------------------------------------------------------

#[test]
fn smi_outputs() {
    let st = vega(|_| {});
    check(&st, "rocm_smi_vega64", "rocm-smi");
    check(&st, "rocm_smi_bad_argument", "rocm-smi --bogus");
    check(&st, "amd_smi_list_vega64", "amd-smi list");
    check(&st, "amd_smi_static_vega64", "amd-smi static");
    check(&st, "amd_smi_invalid_command", "amd-smi lst");

    let st = mi300x(|s| s.gpu_count = Some(2));
    check(&st, "rocm_smi_mi300x", "rocm-smi");
    check(&st, "amd_smi_list_mi300x", "amd-smi list");

    let st = vega(|s| s.amdgpu_loaded = false);
    check(&st, "rocm_smi_driver_missing", "rocm-smi");
    check(&st, "amd_smi_driver_missing", "amd-smi list");
}

#[test]
fn rocm_smi_matches_the_facts_sheet_layout() {
    let st = mi300x(|_| {});
    let text = st.run("rocm-smi").stdout_text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[3],
        "              (DID,     GUID)  (Junction)  (Socket)  (Mem, Compute, ID)"
    );
    assert!(lines[5].starts_with("0       1     0x74a1,   21947  39.0°C      191.0W    NPS1, SPX, 0        2105Mhz  900Mhz  0%   auto  750.0W"));
}

#[test]
fn hipcc_outputs() {
    let st = vega(|s| s.rocm_installed = Some("6.2.2".into()));
    check(&st, "hipcc_version", "hipcc --version");
    check(&st, "hipcc_no_input", "hipcc");
    check(&st, "hipcc_missing_file", "hipcc nothere.cpp -o app");
    let st = vega(|s| s.rocm_installed = Some("6.2.0".into()));
    let out = st.run("hipcc --version");
    assert!(out.stdout_text().starts_with("HIP version: 6.2.41133-dd7f95766\nAMD clang version 18.0.0git (https://github.com/RadeonOpenCompute/llvm-project roc-6.2.0 24292 26466ce804ac523b398608f17388eb6d605a3f09)\n"));
}

// ---- lspci / lsmod / modprobe / udevadm / dkms ----------------------------------------------------

#[test]
fn lspci_outputs() {
    let st = vega(|_| {});
    check(&st, "lspci_vega64", "lspci");
    check(&st, "lspci_vega64_nn", "lspci -nn");
    check(&st, "lspci_invalid_option", "lspci -z");
    let st = mi300x(|_| {});
    check(&st, "lspci_mi300x", "lspci");
    check(&st, "lspci_mi300x_amd_kernel", "lspci -d 1002: -k");
    // `lspci | grep -i vga` shows only the BMC's display on an MI300X server.
    let vga: Vec<String> = st
        .run("lspci")
        .stdout_text()
        .lines()
        .filter(|l| l.to_lowercase().contains("vga"))
        .map(String::from)
        .collect();
    assert_eq!(
        vga,
        [
            "02:00.0 VGA compatible controller: ASPEED Technology, Inc. ASPEED Graphics Family (rev 52)"
        ]
    );
}

#[test]
fn module_tools() {
    let st = vega(|_| {});
    check(&st, "lsmod_in_tree", "lsmod");
    check(&st, "lsmod_usage", "lsmod -x");
    check(&st, "modprobe_missing_parameters", "modprobe");
    check(&st, "modprobe_invalid_option", "modprobe -z amdgpu");
    check(&st, "modprobe_unknown_module", "modprobe amdgpux");
    check(&st, "modprobe_already_loaded", "modprobe amdgpu");

    let st = vega(|s| s.amdgpu_loaded = false);
    check(&st, "modprobe_not_root", "modprobe amdgpu");
    check_root(&st, "modprobe_verbose_root", "modprobe -v amdgpu");

    let st = vega(|s| {
        s.amdgpu_loaded = false;
        s.driver = rocm_sim::spec::DriverKind::None;
    });
    check_root(&st, "modprobe_module_not_found", "modprobe amdgpu");

    let st = vega(|s| {
        s.rocm_installed = Some("6.2.2".into());
        s.driver = rocm_sim::spec::DriverKind::Dkms;
    });
    check(&st, "lsmod_dkms", "lsmod");
    check(&st, "dkms_status", "dkms status");
    check(&st, "dkms_no_action", "dkms");
}

#[test]
fn udevadm_outputs() {
    let st = vega(|_| {});
    check(
        &st,
        "udevadm_reload_not_root",
        "udevadm control --reload-rules",
    );
    check(&st, "udevadm_trigger_not_root", "udevadm trigger");
    check(&st, "udevadm_unknown_verb", "udevadm reload");
    check_root(&st, "udevadm_reload_root", "udevadm control --reload-rules");
    check_root(&st, "udevadm_trigger_root", "udevadm trigger");
}

// ---- apt, amdgpu-install, wget, gpg ------------------------------------------------------------------

#[test]
fn apt_outputs() {
    let st = vega(|s| {
        s.repo_configured = Some("6.2.2".into());
        s.repo_key = false;
    });
    check(&st, "apt_update_not_root", "apt update");
    check(&st, "apt_get_update_not_root", "apt-get update");
    check(&st, "apt_install_not_root", "apt install rocm");
    check_root(&st, "apt_update_no_pubkey", "apt update");
    check_root(&st, "apt_install_unknown_package", "apt install rocm");
    check(&st, "apt_invalid_operation", "apt frobnicate");
    check(&st, "apt_unknown_option", "apt-get -z install rocm");

    let st = vega(|s| s.repo_configured = Some("6.2.2".into()));
    check_root(&st, "apt_update_with_key", "apt update");
    check_root(&st, "apt_update_again_hits", "apt update");
    check_root(&st, "apt_install_rocminfo_yes", "apt install -y rocminfo");
    let out = st.run_with(
        "sudo apt install hipcc",
        &mut ScriptedConsole::answering(&["n"]),
    );
    golden(
        "apt_install_prompt_abort",
        "sudo apt install hipcc   (answer n)",
        &out,
    );
    check(&st, "apt_list_installed", "apt list --installed");
}

#[test]
fn apt_install_prompts_and_continues_on_yes() {
    let st = vega(|s| s.rocm_installed = Some("6.2.2".into()));
    let out = st.run_with(
        "sudo apt install linux-headers-6.8.0-52-generic dkms",
        &mut ScriptedConsole::answering(&[""]),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let text = out.stdout_text();
    assert!(
        !text.contains("Do you want to continue"),
        "no extra packages, no prompt"
    );
    assert!(st.root().join("usr/sbin/dkms").is_file());

    let out = st.run_with(
        "sudo apt install amdgpu-dkms",
        &mut ScriptedConsole::answering(&["Y"]),
    );
    let text = out.stdout_text();
    assert!(text.contains("Do you want to continue? [Y/n] "));
    assert!(text.contains("Building initial module for 6.8.0-52-generic"));
    assert_eq!(out.code, 0, "{}", out.stderr);
}

#[test]
fn amdgpu_dkms_without_headers_fails_to_build() {
    let st = vega(|s| s.repo_configured = Some("6.2.2".into()));
    st.run("sudo apt update");
    let out = check(
        &st,
        "apt_install_dkms_without_headers",
        "sudo apt install -y amdgpu-dkms",
    );
    assert_eq!(out.code, 100);
}

#[test]
fn dkms_build_names_the_module_file_modprobe_loads() {
    // Ubuntu 22.04 does not compress its modules; 24.04 uses zstd.
    let st = mi300x(|s| {
        s.driver = rocm_sim::spec::DriverKind::None;
        s.amdgpu_loaded = false;
        s.repo_configured = Some("6.2.2".into());
    });
    st.run("sudo apt update");
    st.run("sudo apt install -y linux-headers-5.15.0-125-generic");
    let out = st.run("sudo apt install -y amdgpu-dkms");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout_text().contains("\namdgpu.ko:\n"));
    assert_eq!(
        st.run("sudo modprobe -v amdgpu").stdout_text(),
        "insmod /lib/modules/5.15.0-125-generic/updates/dkms/amdgpu.ko \n"
    );
}

#[test]
fn installer_and_downloads() {
    let st = vega(|_| {});
    check(&st, "wget_missing_url", "wget");
    check(
        &st,
        "wget_unknown_host",
        "wget https://example.com/rocm.gpg.key",
    );
    check(
        &st,
        "wget_invalid_option",
        "wget -Z https://repo.radeon.com/rocm/rocm.gpg.key",
    );
    check(
        &st,
        "wget_key_to_stdout",
        "wget https://repo.radeon.com/rocm/rocm.gpg.key -O -",
    );
    check(
        &st,
        "wget_not_found",
        "wget https://repo.radeon.com/rocm/nothing.key",
    );
    check(
        &st,
        "wget_write_etc_not_root",
        "wget https://repo.radeon.com/rocm/rocm.gpg.key -O /etc/apt/keyrings/rocm.gpg",
    );
    check(
        &st,
        "wget_installer_deb",
        "wget https://repo.radeon.com/amdgpu-install/6.2.2/ubuntu/noble/amdgpu-install_6.2.60202-1_all.deb",
    );
    check_root(
        &st,
        "apt_install_local_deb",
        "apt install ./amdgpu-install_6.2.60202-1_all.deb",
    );
    check(
        &st,
        "apt_install_missing_deb",
        "sudo apt install ./nothere_1.0_all.deb",
    );
    check(
        &st,
        "amdgpu_install_bad_usecase",
        "amdgpu-install --usecase=rocm,bogus",
    );
    check(&st, "amdgpu_install_bad_option", "amdgpu-install --frob");
    check(&st, "amdgpu_install_help", "amdgpu-install --help");
    check_root(&st, "apt_update_after_installer", "apt-get update");
    check(
        &st,
        "amdgpu_install_rocm_no_dkms",
        "amdgpu-install -y --usecase=rocm --no-dkms",
    );
    assert!(st.root().join("opt/rocm-6.2.2/bin/rocminfo").is_file());
    // The documented options that change nothing on this machine are accepted.
    check(
        &st,
        "amdgpu_install_documented_options",
        "amdgpu-install -y --usecase=rocm --no-dkms --no-32 --accept-eula --opencl=rocr",
    );
}

#[test]
fn gpg_dearmor() {
    let st = vega(|_| {});
    let key = st
        .run("wget -q https://repo.radeon.com/rocm/rocm.gpg.key -O -")
        .stdout;
    let out = st.run_with("gpg --dearmor", &mut ScriptedConsole::with_stdin(key));
    assert_eq!(out.code, 0);
    assert_eq!(out.stdout, sim::keys::amd_key_binary());
    let out = st.run_with("gpg --dearmor", &mut ScriptedConsole::with_stdin("hello\n"));
    golden("gpg_no_valid_data", "echo hello | gpg --dearmor", &out);
    check(&st, "gpg_invalid_option", "gpg --frobnicate");
    let key = st
        .run("wget -q https://repo.radeon.com/rocm/rocm.gpg.key -O -")
        .stdout;
    let out = st.run_with(
        "gpg --dearmor -o /etc/apt/keyrings/rocm.gpg",
        &mut ScriptedConsole::with_stdin(key),
    );
    golden(
        "gpg_output_not_root",
        "gpg --dearmor -o /etc/apt/keyrings/rocm.gpg",
        &out,
    );
}

// ---- users, groups, sessions ----------------------------------------------------------------------

#[test]
fn account_tools() {
    let st = vega(|_| {});
    check(&st, "usermod_not_root", "usermod -aG render learner");
    check(&st, "usermod_unknown_user", "usermod -aG render bob");
    check(&st, "usermod_unknown_group", "usermod -aG rendr learner");
    check(&st, "usermod_append_without_groups", "usermod -a learner");
    check(&st, "usermod_no_login", "usermod -aG render");
    check(&st, "usermod_invalid_option", "usermod -q learner");
    check_root(&st, "usermod_root_ok", "usermod -a -G render,video learner");
    check(&st, "gpasswd_not_root", "gpasswd -a learner render");
    check(&st, "gpasswd_unknown_group", "gpasswd -a learner rendr");
    check(&st, "gpasswd_usage", "gpasswd");
    check_root(&st, "gpasswd_delete", "gpasswd -d learner render");
    check_root(&st, "gpasswd_add", "gpasswd -a learner render");
    check(&st, "adduser_not_root_noble", "adduser learner render");
    check_root(
        &st,
        "adduser_already_member_noble",
        "adduser learner render",
    );
    check(&st, "groups_session", "groups");
    check(&st, "groups_database", "groups learner");
    check(&st, "groups_unknown_user", "groups bob");
    check(&st, "id_session", "id");
    check(&st, "id_database", "id learner");
    check(&st, "id_unknown_user", "id bob");
    check(&st, "id_invalid_option", "id -q");
    check(&st, "id_groups_names", "id -Gn");
    check_root(&st, "id_root", "id");

    let st = mi300x(|_| {});
    check_root(&st, "adduser_root_jammy", "adduser learner render");
    check(&st, "adduser_not_root_jammy", "adduser learner video");
}

#[test]
fn newgrp_and_sudo() {
    let st = vega(|_| {});
    let out = st.run_with("newgrp render", &mut ScriptedConsole::answering(&[""]));
    golden("newgrp_not_member", "newgrp render", &out);
    check(&st, "newgrp_unknown_group", "newgrp rendr");
    let out = st.run("newgrp adm");
    assert_eq!(out.code, 0);
    assert!(matches!(out.exec, Some(Exec::Shell { .. })));

    check(&st, "sudo_usage", "sudo");
    check(&st, "sudo_rocminfo_not_on_secure_path", "sudo rocminfo");
    check(&st, "sudo_invalid_option", "sudo -Z ls");
    let out = st.run("sudo tee -a /etc/modules");
    let Some(Exec::Program { argv, as_root, env }) = &out.exec else {
        panic!("{:?}", out.exec)
    };
    assert_eq!(argv, &["tee", "-a", "/etc/modules"]);
    assert!(as_root);
    // env_reset: the command gets sudo's environment, not the caller's.
    let env = env.as_ref().expect("sudo sets the environment");
    assert!(env.contains(&("USER".into(), "root".into())), "{env:?}");
    assert!(
        env.contains(&("SUDO_USER".into(), "learner".into())),
        "{env:?}"
    );
    let out = st.run("sudo /opt/rocm/bin/rocminfo");
    assert!(
        matches!(out.exec, Some(Exec::Program { as_root: true, .. })),
        "not installed: real program"
    );
    let st = vega(|s| s.rocm_installed = Some("6.2.2".into()));
    let out = st.run("sudo /opt/rocm/bin/rocminfo");
    assert_eq!(
        out.code, 0,
        "a wrapper path runs the simulated tool as root"
    );
    assert!(out.stdout_text().contains("HSA Agents"));
}

#[test]
fn ls_of_device_nodes() {
    let st = vega(|_| {});
    check(&st, "ls_kfd", "ls -l /dev/kfd");
    check(&st, "ls_dri", "ls -l /dev/dri");
    check(&st, "ls_render_glob", "ls -l /dev/dri/renderD*");
    check(&st, "ls_numeric", "ls -ln /dev/kfd");
    let out = st.run("ls -l /etc/group");
    assert_eq!(
        out.exec,
        Some(Exec::Program {
            argv: vec!["ls".into(), "-l".into(), "/etc/group".into()],
            as_root: false,
            env: None,
        })
    );
    let st = vega(|s| s.amdgpu_loaded = false);
    check(&st, "ls_kfd_missing", "ls -l /dev/kfd /dev/dri");
}

// ---- kubectl ------------------------------------------------------------------------------------------

#[test]
fn kubectl_outputs() {
    let st = mi300x(|s| {
        s.k8s = true;
        s.node_labels.insert("gpu".into(), "true".into());
    });
    st.write("/home/learner/pod.yaml", GPU_POD);
    check(&st, "kubectl_get_nodes", "kubectl get nodes");
    check(
        &st,
        "kubectl_get_nodes_wide_labels",
        "kubectl get nodes -o wide --show-labels",
    );
    check(
        &st,
        "kubectl_describe_node_no_plugin",
        "kubectl describe node mi300x-node",
    );
    check(&st, "kubectl_get_pods_none", "kubectl get pods");
    check(&st, "kubectl_create_pod", "kubectl create -f pod.yaml");
    check(
        &st,
        "kubectl_create_pod_again",
        "kubectl create -f pod.yaml",
    );
    check(&st, "kubectl_get_pods_pending", "kubectl get pods");
    check(
        &st,
        "kubectl_describe_pod_pending",
        "kubectl describe pod gpu-workload",
    );
    check(
        &st,
        "kubectl_create_device_plugin",
        "kubectl create -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml",
    );
    check(&st, "kubectl_get_pods_all", "kubectl get pods -A");
    check(
        &st,
        "kubectl_describe_pod_running",
        "kubectl describe pod gpu-workload",
    );
    check(
        &st,
        "kubectl_describe_node_plugin",
        "kubectl describe node mi300x-node",
    );
    check(&st, "kubectl_apply_unchanged", "kubectl apply -f pod.yaml");
    check(&st, "kubectl_unknown_resource", "kubectl get gpus");
    check(&st, "kubectl_pod_not_found", "kubectl get pod nothere");
    check(&st, "kubectl_unknown_flag", "kubectl get pods --bogus");
    check(&st, "kubectl_unknown_command", "kubectl frob");
    check(&st, "kubectl_missing_file", "kubectl apply -f nothere.yaml");
    check(
        &st,
        "kubectl_label_conflict",
        "kubectl label node mi300x-node gpu=false",
    );
    check(
        &st,
        "kubectl_label_overwrite",
        "kubectl label node mi300x-node gpu=false --overwrite",
    );
    check(&st, "kubectl_delete_pod", "kubectl delete pod gpu-workload");
    check(
        &st,
        "kubectl_delete_missing_pod",
        "kubectl delete pod gpu-workload",
    );

    let st = vega(|_| {});
    check(&st, "kubectl_no_cluster", "kubectl get nodes");
}

#[test]
fn kubectl_manifest_errors() {
    let st = mi300x(|s| s.k8s = true);
    st.write(
        "/home/learner/bad.yaml",
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n   bad: [\n",
    );
    check(
        &st,
        "kubectl_yaml_syntax_error",
        "kubectl apply -f bad.yaml",
    );
    st.write(
        "/home/learner/bool.yaml",
        &GPU_POD.replace("gpu: \"true\"", "gpu: true"),
    );
    check(
        &st,
        "kubectl_node_selector_bool",
        "kubectl apply -f bool.yaml",
    );
    st.write(
        "/home/learner/crd.yaml",
        "apiVersion: amd.com/v1alpha1\nkind: DeviceConfig\nmetadata:\n  name: gpu\n",
    );
    check(&st, "kubectl_unknown_kind", "kubectl apply -f crd.yaml");
    let out = st.run_with(
        "kubectl apply -f -",
        &mut ScriptedConsole::with_stdin(GPU_POD),
    );
    assert_eq!(out.stdout_text(), "pod/gpu-workload created\n");
}

// ---- the machine as a whole ---------------------------------------------------------------------------

#[test]
fn unknown_tool_is_an_error_not_a_panic() {
    let st = vega(|_| {});
    let out = st.run("frobnicate");
    assert_eq!(out.code, 127);
    assert_eq!(out.stderr, "rocm-learn sim: unknown tool 'frobnicate'\n");
}

#[test]
fn system_tools_list_where_ubuntu_keeps_them() {
    let st = vega(|_| {});
    let state = st.state();
    let tools = sim::tools::system_tools(&state);
    let find = |n: &str| tools.iter().find(|t| t.name == n).map(|t| t.path);
    assert_eq!(find("modprobe"), Some("/usr/sbin/modprobe"));
    assert_eq!(find("lspci"), Some("/usr/bin/lspci"));
    assert_eq!(find("kubectl"), None, "no cluster on this machine");
    assert_eq!(find("dkms"), None, "dkms only once installed");
    assert_eq!(
        find("rocminfo"),
        None,
        "ROCm tools live only under /opt/rocm-X.Y.Z/bin"
    );
    let st = mi300x(|s| s.k8s = true);
    let state = st.state();
    assert!(
        sim::tools::system_tools(&state)
            .iter()
            .any(|t| t.path == "/usr/bin/kubectl")
    );
}

#[test]
fn spec_from_toml_names_presets_and_rejects_typos() {
    let spec = MachineSpec::from_toml(
        "preset = \"mi300x-server\"\namdgpu_loaded = false\nrocm_installed = \"6.2.2\"\nuser_groups = [\"adm\", \"sudo\"]\nkfd_mode = \"0660\"\nk8s = true\n",
    )
    .expect("spec");
    assert_eq!(spec.preset, Preset::Mi300xServer);
    assert!(!spec.amdgpu_loaded);
    let err = MachineSpec::from_toml("preset = \"x\"\namdgpu_lodaed = true\n").unwrap_err();
    assert_eq!(err.id, "sim-spec-invalid");
    // The driver is one of three words, named when another is given.
    let err = MachineSpec::from_toml("driver = \"nvidia\"\n").unwrap_err();
    assert!(
        err.message.contains("`in-tree`, `dkms`, `none`"),
        "{}",
        err.message
    );
    let dir = tempfile::tempdir().expect("dir");
    let mut typo = MachineSpec::preset(Preset::Vega64Workstation);
    typo.user_groups = vec!["rendr".into()];
    let err = sim::stage::create_on(dir.path(), &typo, &sim::Fake::default()).unwrap_err();
    assert!(
        err.message.contains("no group \"rendr\""),
        "{}",
        err.message
    );
    // The preset is one of three words too: a fourth is refused where the spec is read.
    let err = MachineSpec::from_toml("preset = \"cray-1\"\n").unwrap_err();
    assert_eq!(
        err.message,
        "machine spec: unknown preset \"cray-1\" (known: vega64-workstation, mi300x-server, rdna2-workstation)"
    );
}

#[test]
fn rocminfo_start_up_lines_carry_the_real_colours() {
    let st = vega(|_| {});
    let text = st.run("rocminfo").stdout_text();
    assert!(text.starts_with("\x1B[37mROCk module is loaded\x1B[0m\n\x1B[31mUnable to open /dev/kfd read-write: Permission denied\x1B[0m\n"));
    // The colour reset comes before the final period, as in rocminfo.cc.
    assert!(text.ends_with("in order for ROCm applications to run successfully\x1B[0m.\n"));
}

#[test]
fn rocminfo_options_follow_the_last_argument() {
    let st = vega(|s| s.user_groups = vec!["render".into()]);
    check(&st, "rocminfo_help", "rocminfo --help");
    let gpu = st.run("rocminfo -g").stdout_text();
    assert!(gpu.contains("  Name:                    gfx900"));
    assert!(!gpu.contains("Agent 1") && !gpu.contains("CPU-XX"));
    let sys = st.run("rocminfo -s").stdout_text();
    assert!(sys.contains("Runtime Version:         1.14\n") && !sys.contains("HSA Agents"));
}

#[test]
fn uname_names_the_simulated_kernel() {
    let st = vega(|_| {});
    check(&st, "uname_r", "uname -r");
    check(&st, "uname_a", "uname -a");
    check(&st, "uname_invalid_option", "uname -Z");
    let st = mi300x(|_| {});
    assert_eq!(st.run("uname -r").stdout_text(), "5.15.0-125-generic\n");
}

#[test]
fn rocm_smi_sections() {
    let st = mi300x(|_| {});
    check(
        &st,
        "rocm_smi_productname_mi300x",
        "rocm-smi --showproductname",
    );
    let text = st.run("rocm-smi --showproductname").stdout_text();
    assert!(text.contains("GPU[0]\t\t: Card Series: \t\tAMD Instinct MI300X\n"));
    let st = vega(|_| {});
    check(
        &st,
        "rocm_smi_id_driver_vega64",
        "rocm-smi -i --showdriverversion",
    );
}

// ---- docker, podman, python3 (containers and choosing the GPU) --------------------------------

fn container_host() -> Stage {
    vega(|s| {
        s.rocm_installed = Some("6.2.2".into());
        s.driver = rocm_sim::spec::DriverKind::Dkms;
        s.user_groups = vec!["adm".into(), "sudo".into(), "render".into(), "video".into()];
        s.packages = vec!["docker.io".into(), "podman".into()];
    })
}

#[test]
fn docker_and_podman_outputs() {
    let st = container_host();
    check(
        &st,
        "docker_needs_the_daemon_socket",
        "docker run rocm/rocm-terminal rocminfo",
    );
    check_root(
        &st,
        "docker_rocminfo_without_kfd",
        "docker run --rm rocm/rocm-terminal rocminfo",
    );
    check_root(
        &st,
        "docker_rocminfo_video_only",
        "docker run --rm --device=/dev/kfd --device=/dev/dri --group-add video rocm/rocm-terminal rocminfo",
    );
    check_root(
        &st,
        "docker_group_name_not_in_image",
        "docker run --rm --device=/dev/kfd --device=/dev/dri --group-add render rocm/rocm-terminal rocminfo",
    );
    check_root(
        &st,
        "docker_groups_with_a_host_gid",
        "docker run --rm --group-add 992 rocm/rocm-terminal groups",
    );
    check_root(
        &st,
        "docker_id_with_a_host_gid",
        "docker run --rm --group-add 992 rocm/rocm-terminal id",
    );
    check_root(
        &st,
        "docker_rocminfo_success",
        "docker run --rm --device=/dev/kfd --device=/dev/dri --group-add 992 rocm/rocm-terminal rocminfo",
    );
    check_root(
        &st,
        "docker_unknown_flag",
        "docker run --frob all rocm/rocm-terminal rocminfo",
    );
    // Docker knows --gpus; without NVIDIA's runtime the daemon has no driver for it.
    check_root(
        &st,
        "docker_gpus_all",
        "docker run --gpus all rocm/rocm-terminal rocminfo",
    );
    check_root(
        &st,
        "docker_container_run",
        "docker container run --rm --device=/dev/kfd --device=/dev/dri --group-add 992 rocm/rocm-terminal rocminfo",
    );
    check_root(
        &st,
        "docker_image_not_pulled",
        "docker run --rm ubuntu:24.04 rocminfo",
    );
    check(
        &st,
        "podman_rootless_numeric_gid",
        "podman run --rm --device=/dev/kfd --device=/dev/dri --group-add 992 rocm/rocm-terminal rocminfo",
    );
    let out = st.run(
        "podman run --rm --device=/dev/kfd --device=/dev/dri --group-add keep-groups rocm/rocm-terminal rocminfo",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout_text().contains("gfx900"));

    // What the lab grades: every run, with what the container got and what rocminfo found.
    let runs = sim::tools::docker::runs(st.root());
    let last = runs.last().expect("runs recorded");
    assert_eq!(last.runtime, "podman");
    assert!(last.rootless && last.has_kfd() && last.gpus_found == 1);
    let denied = &runs[runs.len() - 2];
    assert_eq!(denied.kfd_error.as_deref(), Some("Permission denied"));

    let st = vega(|s| {
        s.amdgpu_loaded = false;
        s.packages = vec!["docker.io".into()];
    });
    check_root(
        &st,
        "docker_host_without_kfd",
        "docker run --device=/dev/kfd rocm/rocm-terminal rocminfo",
    );
    assert!(sim::tools::docker::runs(st.root()).is_empty());
}

fn rdna2_with_torch() -> Stage {
    let st = Stage::preset(Preset::Rdna2Workstation, |s| {
        s.rocm_installed = Some("6.2.2".into());
        s.user_groups = vec!["render".into(), "video".into()];
        s.packages = vec!["python3".into()];
    });
    let dir = st
        .root()
        .join("home/learner/.local/lib/python3.12/site-packages/torch");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("version.py"),
        "__version__ = '2.5.1+rocm6.2'\nhip: Optional[str] = '6.2.41133-dd7f95766'\n",
    )
    .unwrap();
    std::fs::write(
        st.root().join("home/learner/smoke.py"),
        "import torch\nprint(torch.cuda.is_available(), torch.cuda.get_device_name(0))\nprint(torch.ones(2, device='cuda'))\n",
    )
    .unwrap();
    st
}

/// Runs python3 as the learner with these environment variables.
fn python(st: &Stage, name: &str, env: &[(&str, &str)], args: &[&str]) {
    let env: Vec<(String, String)> = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let args: Vec<String> = args.iter().map(ToString::to_string).collect();
    let out = sim::run_with_env(
        &st.host,
        st.root(),
        "python3",
        &args,
        &st.learner(),
        &mut ScriptedConsole::new(),
        &env,
    );
    let shown: String = env.iter().map(|(k, v)| format!("{k}={v} ")).collect();
    golden(name, &format!("{shown}python3 {}", args.join(" ")), &out);
}

#[test]
fn python3_torch_answers_for_the_environment() {
    let st = rdna2_with_torch();
    let smoke = ["smoke.py"];
    python(&st, "python3_torch_no_binary_for_gpu", &[], &smoke);
    python(
        &st,
        "python3_torch_override_runs_on_the_igpu",
        &[("HSA_OVERRIDE_GFX_VERSION", "10.3.0")],
        &smoke,
    );
    python(
        &st,
        "python3_torch_card_without_override",
        &[("HIP_VISIBLE_DEVICES", "1")],
        &smoke,
    );
    python(
        &st,
        "python3_torch_card_with_override",
        &[
            ("HIP_VISIBLE_DEVICES", "1"),
            ("HSA_OVERRIDE_GFX_VERSION", "10.3.0"),
        ],
        &smoke,
    );
    python(
        &st,
        "python3_torch_wrong_generation",
        &[
            ("ROCR_VISIBLE_DEVICES", "1"),
            ("HSA_OVERRIDE_GFX_VERSION", "11.0.0"),
        ],
        &smoke,
    );
    python(
        &st,
        "python3_torch_nothing_visible",
        &[("HIP_VISIBLE_DEVICES", "-1")],
        &[
            "-c",
            "import torch; print(torch.cuda.is_available(), torch.cuda.device_count()); torch.cuda.get_device_name(0)",
        ],
    );
    python(
        &st,
        "python3_torch_version",
        &[],
        &[
            "-c",
            "import torch; print(torch.__version__, torch.version.hip)",
        ],
    );
    python(&st, "python3_no_such_module", &[], &["-c", "import numpy"]);
    python(&st, "python3_no_such_file", &[], &["missing.py"]);

    // Without the render group the runtime cannot open /dev/kfd: no GPU, no abort.
    let st = Stage::preset(Preset::Rdna2Workstation, |s| {
        s.rocm_installed = Some("6.2.2".into());
        s.packages = vec!["python3".into()];
    });
    python(&st, "python3_without_torch", &[], &["-c", "import torch"]);
}

#[test]
fn a_machine_that_boots_without_amdgpu_shows_why_and_recovers() {
    let st = vega(|s| s.wont_load = vec!["nomodeset".into()]);
    let root = st.learner().as_root();
    let log = st.run_as(&root, "dmesg").stdout_text();
    assert!(log.contains("Booted with the nomodeset parameter"), "{log}");
    assert!(!st.run("lsmod").stdout_text().contains("amdgpu"));
    let state = sim::State::load_on(st.root(), &st.host).unwrap();
    assert!(!sim::kernel::next_boot_loads_amdgpu(&state, st.root()));

    let grub = st.root().join("etc/default/grub");
    let text = std::fs::read_to_string(&grub).unwrap();
    assert!(text.contains("GRUB_CMDLINE_LINUX_DEFAULT=\"quiet splash nomodeset\""));
    std::fs::write(&grub, text.replace(" nomodeset", "")).unwrap();
    let state = sim::State::load_on(st.root(), &st.host).unwrap();
    assert!(
        !sim::kernel::next_boot_loads_amdgpu(&state, st.root()),
        "the boot loader still has the old command line until update-grub"
    );
    assert_eq!(st.run_as(&root, "update-grub").code, 0);
    let state = sim::State::load_on(st.root(), &st.host).unwrap();
    assert!(sim::kernel::next_boot_loads_amdgpu(&state, st.root()));

    // The blacklist cause leaves no amdgpu line at all.
    let st = vega(|s| s.wont_load = vec!["blacklist".into()]);
    let log = st.run_as(&st.learner().as_root(), "dmesg").stdout_text();
    assert!(!log.contains("amdgpu"), "{log}");
    assert!(
        st.root()
            .join("etc/modprobe.d/blacklist-amdgpu.conf")
            .exists()
    );
}
