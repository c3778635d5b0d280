//! Bad input never panics: random argument vectors for every tool, damaged or missing state,
//! a missing root. And the command-line entry, end to end, once.

#[path = "../crates/sim/tests/sim_common/mod.rs"]
mod sim_common;

use std::path::Path;
use std::process::{Command, Output};

use proptest::prelude::*;
use rocm_learn::sim::{self, Caller, ScriptedConsole};
use sim_common::{mi300x, vega};

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
        let st = mi300x(|s| {
            s.k8s = true;
            s.rocm_installed = Some("6.2.2".into());
        });
        let mut caller = st.learner();
        if root {
            caller = caller.as_root();
        }
        let mut console = ScriptedConsole::answering(&["n"]);
        let out = sim::run(&st.host, st.root(), tool, &args, &caller, &mut console);
        // Whatever happened, the state is still readable.
        prop_assert!(sim::State::load_on(st.root(), &st.host).is_ok(), "{tool} {args:?}: {}", out.stderr);
    }
}

#[test]
fn damaged_state_is_a_tool_error() {
    let st = vega(|_| {});
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
        let err = sim::State::load_on(st.root(), &st.host).expect_err(text);
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
    let out = sim::run(
        &sim::Fake::default(),
        &gone,
        "rocminfo",
        &[],
        &caller,
        &mut ScriptedConsole::new(),
    );
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("does not exist"), "{}", out.stderr);
    assert!(sim::Machine::reboot_on(&gone, &sim::Fake::default()).is_err());
    assert!(sim::login_on(&gone, "learner", &sim::Fake::default()).is_err());
}

#[test]
fn damaged_etc_files_do_not_panic() {
    let st = vega(|_| {});
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
    assert!(sim::State::load_on(st.root(), &st.host).is_ok());
}

/// `rocm-learn sim ARGS` on the machine at `root`, with each of `env` set (Some) or removed
/// (None).
fn sim_cli(args: &[&str], root: &Path, env: &[(&str, Option<&str>)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rocm-learn"));
    cmd.arg("sim").args(args).env("ROCM_SIM_ROOT", root);
    for (key, value) in env {
        match value {
            Some(v) => cmd.env(key, v),
            None => cmd.env_remove(key),
        };
    }
    cmd.output().expect("run")
}

/// Fails with its stderr unless `out` is a success.
#[track_caller]
fn assert_success(out: &Output) {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn cli_entry_runs_rocminfo_on_a_stage() {
    let st = vega(|s| s.user_groups = vec!["render".into()]);
    let out = sim_cli(
        &["rocminfo"],
        st.root(),
        &[
            ("ROCM_SIM_USER", Some("learner")),
            ("ROCM_SIM_SESSION", Some(&st.session)),
            ("ROCM_SIM_UID", None),
        ],
    );
    assert_success(&out);
    let text = sim_common::plain(&String::from_utf8_lossy(&out.stdout));
    assert!(text.starts_with(
        "ROCk module is loaded\n=====================    \nHSA System Attributes    \n"
    ));
    assert!(text.contains("  Name:                    gfx900"));

    // The same binary, as a user not in render: exit 1 with the diagnosis.
    let other = vega(|_| {});
    let out = sim_cli(
        &["rocminfo"],
        other.root(),
        &[
            ("ROCM_SIM_USER", Some("learner")),
            ("ROCM_SIM_SESSION", None),
            ("ROCM_SIM_UID", None),
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("learner is not member of \"render\" group")
    );

    // Flags after the tool belong to the tool, not to rocm-learn.
    let out = sim_cli(&["lspci", "-nn", "--lang", "ja"], other.root(), &[]);
    assert_eq!(out.status.code(), Some(2), "lspci rejects --lang");
}

#[test]
fn cli_stage_refuses_the_real_root() {
    let out = sim_cli(&["stage"], Path::new("/"), &[]);
    assert_eq!(out.status.code(), Some(2));
    let dir = tempfile::tempdir().expect("dir");
    let spec = dir.path().join("spec.toml");
    std::fs::write(&spec, "preset = \"mi300x-server\"\nk8s = true\n").expect("spec");
    let root = dir.path().join("stage");
    let out = sim_cli(&["stage", spec.to_str().expect("utf8")], &root, &[]);
    assert_success(&out);
    assert!(root.join("var/lib/rocm-sim/state.json").is_file());
    let out = sim_cli(&["login", "learner"], &root, &[]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1\n");
}

#[test]
fn multibyte_option_letters_do_not_panic() {
    let st = mi300x(|s| s.k8s = true);
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
