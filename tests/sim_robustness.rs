//! Bad input never panics: random argument vectors for every tool, damaged or missing state,
//! a missing root. And the command-line entry, end to end, once.

mod sim_common;

use std::process::Command;

use proptest::prelude::*;
use rocm_learn::sim::{self, Caller, ScriptedConsole};
use sim_common::Stage;

fn words() -> impl Strategy<Value = Vec<String>> {
    let word = prop_oneof![
        Just("-".to_string()),
        Just("--".to_string()),
        Just("-f".to_string()),
        Just("-o".to_string()),
        Just("-n".to_string()),
        Just("-G".to_string()),
        Just("-aG".to_string()),
        Just("-r".to_string()),
        Just("--help".to_string()),
        Just("pods".to_string()),
        Just("nodes".to_string()),
        Just("render".to_string()),
        Just("learner".to_string()),
        Just("amdgpu".to_string()),
        Just("/dev/kfd".to_string()),
        Just("/dev/dri/*".to_string()),
        Just("install".to_string()),
        Just("update".to_string()),
        Just("status".to_string()),
        Just("list".to_string()),
        Just("./x.deb".to_string()),
        Just("--usecase=".to_string()),
        Just("a=b".to_string()),
        "[a-z=:/.,*-]{0,12}",
        "\\PC{0,6}",
    ];
    prop::collection::vec(word, 0..6)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn garbage_arguments_never_panic(args in words(), tool in prop::sample::select(sim::tools::TOOLS.to_vec()), root in any::<bool>()) {
        // One stage per case would be slow; the stage is cheap enough at this count.
        let st = Stage::preset("mi300x-server", |s| {
            s.k8s = true;
            s.rocm_installed = Some("6.2.2".into());
        });
        let mut caller = st.learner();
        if root {
            caller = caller.as_root();
        }
        let mut console = ScriptedConsole::answering(&["n"]);
        let out = sim::run(st.root(), tool, &args, &caller, &mut console);
        // Whatever happened, the state is still readable.
        prop_assert!(sim::State::load(st.root()).is_ok(), "{tool} {args:?}: {}", out.stderr);
    }
}

#[test]
fn damaged_state_is_a_tool_error() {
    let st = Stage::preset("vega64-workstation", |_| {});
    let path = sim::State::path(st.root());
    let good = std::fs::read_to_string(&path).expect("state");
    let cases = [
        ("", "sim-state-corrupt"),
        ("{", "sim-state-corrupt"),
        (&good[..good.len() / 2], "sim-state-corrupt"),
        ("{\"version\": 1}", "sim-state-corrupt"),
        ("{\"version\": 99}", "sim-state-version"),
        ("[1,2,3]", "sim-state-version"),
        ("\u{0}\u{1}garbage", "sim-state-corrupt"),
    ];
    for (text, id) in cases {
        std::fs::write(&path, text).expect("write");
        let err = sim::State::load(st.root()).expect_err(text);
        assert_eq!(err.id, id, "{text:?}");
        for tool in ["rocminfo", "kubectl", "apt", "ls", "login"] {
            let out = st.run_as(&st.learner(), tool);
            assert_eq!(out.code, 1, "{tool} on {text:?}");
            assert!(
                out.stderr.starts_with("rocm-learn sim: the machine state"),
                "{}",
                out.stderr
            );
            assert!(out.stdout.is_empty());
        }
    }
    std::fs::remove_file(&path).expect("rm");
    let out = st.run("rocminfo");
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("no machine state"), "{}", out.stderr);
}

#[test]
fn missing_root_is_a_tool_error() {
    let dir = tempfile::tempdir().expect("dir");
    let gone = dir.path().join("nothere");
    let caller = Caller::user("learner", 1000, None);
    let out = sim::run(&gone, "rocminfo", &[], &caller, &mut ScriptedConsole::new());
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("does not exist"), "{}", out.stderr);
    assert!(sim::Machine::reboot(&gone).is_err());
    assert!(sim::login(&gone, "learner").is_err());
}

#[test]
fn damaged_etc_files_do_not_panic() {
    let st = Stage::preset("vega64-workstation", |_| {});
    st.write(
        "/etc/group",
        "render\n::::\nsudo:x:notanumber:learner\n\u{0}\n",
    );
    st.write("/etc/passwd", "learner:x:1000\n");
    st.write(
        "/etc/udev/rules.d/70-bad.rules",
        "KERNEL==\"kfd, MODE=\"0666\nKERNEL==\"kfd\", MODE=\"99999\"\n",
    );
    st.write(
        "/etc/apt/sources.list.d/bad.list",
        "deb [signed-by=\nnot a line\n",
    );
    for cmd in [
        "rocminfo",
        "id",
        "groups",
        "groups learner",
        "sudo udevadm control --reload-rules",
        "sudo udevadm trigger",
        "sudo apt update",
        "sudo usermod -aG render learner",
        "newgrp render",
        "ls -l /dev/kfd",
    ] {
        let _ = st.run(cmd);
    }
    assert!(sim::State::load(st.root()).is_ok());
}

#[test]
fn cli_entry_runs_rocminfo_on_a_stage() {
    let st = Stage::preset("vega64-workstation", |s| {
        s.user_groups = vec!["render".into()]
    });
    let bin = env!("CARGO_BIN_EXE_rocm-learn");
    let out = Command::new(bin)
        .args(["sim", "rocminfo"])
        .env("ROCM_SIM_ROOT", st.root())
        .env("ROCM_SIM_USER", "learner")
        .env("ROCM_SIM_SESSION", &st.session)
        .env_remove("ROCM_SIM_UID")
        .output()
        .expect("run");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = sim_common::plain(&String::from_utf8_lossy(&out.stdout));
    assert!(text.starts_with(
        "ROCk module is loaded\n=====================    \nHSA System Attributes    \n"
    ));
    assert!(text.contains("  Name:                    gfx900"));

    // The same binary, as a user not in render: exit 1 with the diagnosis.
    let other = Stage::preset("vega64-workstation", |_| {});
    let out = Command::new(bin)
        .args(["sim", "rocminfo"])
        .env("ROCM_SIM_ROOT", other.root())
        .env("ROCM_SIM_USER", "learner")
        .env_remove("ROCM_SIM_SESSION")
        .env_remove("ROCM_SIM_UID")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("learner is not member of \"render\" group")
    );

    // Flags after the tool belong to the tool, not to rocm-learn.
    let out = Command::new(bin)
        .args(["sim", "lspci", "-nn", "--lang", "ja"])
        .env("ROCM_SIM_ROOT", other.root())
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2), "lspci rejects --lang");
}

#[test]
fn cli_stage_refuses_the_real_root() {
    let bin = env!("CARGO_BIN_EXE_rocm-learn");
    let out = Command::new(bin)
        .args(["sim", "stage"])
        .env("ROCM_SIM_ROOT", "/")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let dir = tempfile::tempdir().expect("dir");
    let spec = dir.path().join("spec.toml");
    std::fs::write(&spec, "preset = \"mi300x-server\"\nk8s = true\n").expect("spec");
    let root = dir.path().join("stage");
    let out = Command::new(bin)
        .args(["sim", "stage", spec.to_str().expect("utf8")])
        .env("ROCM_SIM_ROOT", &root)
        .output()
        .expect("run");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(root.join("var/lib/rocm-sim/state.json").is_file());
    let out = Command::new(bin)
        .args(["sim", "login", "learner"])
        .env("ROCM_SIM_ROOT", &root)
        .output()
        .expect("run");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1\n");
}

#[test]
fn multibyte_option_letters_do_not_panic() {
    let st = Stage::preset("mi300x-server", |s| s.k8s = true);
    for cmd in [
        "sudo -é ls",
        "groups -é",
        "kubectl get pods -é",
        "id -é",
        "usermod -é learner",
        "lspci -é",
        "modprobe -é",
        "wget -é",
        "apt -é install",
        "uname -é",
        "ls -é /dev/kfd",
        "newgrp -é",
        "gpasswd -é learner render",
        "udevadm trigger -é",
        "rocm-smi -é",
        "amd-smi -é",
    ] {
        let out = st.run(cmd);
        // Either the tool's own error, or (ls) the real program takes over.
        assert!(out.code != 0 || out.exec.is_some(), "{cmd}");
    }
}
