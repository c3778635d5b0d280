//! `update-alternatives` against a machine with two ROCm releases (multi-version packages):
//! output, the `--config` menu, errors and exit codes as dpkg's update-alternatives.c gives
//! them, what a normal user gets, and what the files say afterwards.

mod sim_common;

use rocm_sim::{self as sim, MachineSpec, ScriptedConsole};
use sim_common::{Stage, check, check_as, golden, root, vega};

fn two_releases() -> Stage {
    vega(|s| {
        s.rocm_releases = vec!["6.2.2".into(), "6.3.2".into()];
    })
}

#[test]
fn installing_two_releases_registers_both_and_the_newest_wins() {
    let st = two_releases();
    assert_eq!(st.link("/opt/rocm"), "/etc/alternatives/rocm");
    assert_eq!(st.link("/etc/alternatives/rocm"), "/opt/rocm-6.3.2");
    for (name, cmd) in [
        ("ua_display", "update-alternatives --display rocm"),
        ("ua_query", "update-alternatives --query rocm"),
        ("ua_list", "update-alternatives --list rocm"),
        ("ua_get_selections", "update-alternatives --get-selections"),
    ] {
        let out = st.run(cmd);
        assert_eq!(out.code, 0, "{cmd}: {}", out.stderr);
        golden(name, cmd, &out);
    }
    assert!(st.read("/var/log/alternatives.log").contains(
        "update-alternatives 2024-11-05 09:00:35: link group rocm updated to point to /opt/rocm-6.3.2"
    ));
}

#[test]
fn a_normal_user_fails_at_the_first_file_to_write() {
    let st = two_releases();
    // A new choice: the link in /etc/alternatives comes first.
    let out = check(
        &st,
        "ua_set_as_user",
        "update-alternatives --set rocm /opt/rocm-6.2.2",
    );
    assert_eq!(out.code, 2);
    assert_eq!(st.link("/etc/alternatives/rocm"), "/opt/rocm-6.3.2");
    // The current choice, but a new mode: only the administrative file changes.
    let out = check(
        &st,
        "ua_set_mode_as_user",
        "update-alternatives --set rocm /opt/rocm-6.3.2",
    );
    assert_eq!(out.code, 2);
    // Removing the whole group starts with the master link.
    let out = st.run("update-alternatives --remove-all rocm");
    assert_eq!(
        out.stderr,
        "update-alternatives: error: unable to remove '/opt/rocm': Permission denied\n"
    );
    assert_eq!(st.link("/opt/rocm"), "/etc/alternatives/rocm");
    // Reading needs no privilege, and nothing to change is no error.
    assert_eq!(st.run("update-alternatives --auto rocm").code, 0);
}

#[test]
fn config_shows_the_menu_and_a_number_or_a_path_chooses_in_manual_mode() {
    let st = two_releases();
    let out = st.run_answering(&root(), "update-alternatives --config rocm", &["1"]);
    golden(
        "ua_config_choose_1",
        "update-alternatives --config rocm  (answer 1)",
        &out,
    );
    assert_eq!(out.code, 0);
    assert_eq!(st.link("/etc/alternatives/rocm"), "/opt/rocm-6.2.2");
    assert_eq!(
        st.read("/var/lib/dpkg/alternatives/rocm"),
        "manual\n/opt/rocm\n\n/opt/rocm-6.2.2\n622299994\n/opt/rocm-6.3.2\n632299994\n\n"
    );
    // The menu again: the star is on the manual choice now; a path works as well as a number.
    let out = st.run_answering(
        &root(),
        "update-alternatives --config rocm",
        &["9", "/opt/rocm-6.3.2"],
    );
    let text = out.stdout_text();
    assert!(text.contains("* 1            /opt/rocm-6.2.2   622299994 manual mode"));
    assert_eq!(
        text.matches("There are 2 choices").count(),
        2,
        "an unknown number asks again"
    );
    assert!(text.ends_with(
        "update-alternatives: using /opt/rocm-6.3.2 to provide /opt/rocm (rocm) in manual mode\n"
    ));
    // Enter keeps the current choice; end of input changes nothing.
    let out = st.run_answering(&root(), "update-alternatives --config rocm", &[""]);
    assert_eq!(out.code, 0);
    assert!(!out.stdout_text().contains("using"));
    let out = st.run_answering(&root(), "update-alternatives --config rocm", &[]);
    assert_eq!(out.code, 0);
    assert_eq!(st.link("/etc/alternatives/rocm"), "/opt/rocm-6.3.2");
    // 0 is the auto entry: the same path, so only the mode in the administrative file
    // changes, silently, as in dpkg.
    let out = st.run_answering(&root(), "update-alternatives --config rocm", &["0"]);
    assert!(!out.stdout_text().contains("using"));
    assert!(
        st.read("/var/lib/dpkg/alternatives/rocm")
            .starts_with("auto\n")
    );
}

#[test]
fn hipcc_answers_for_the_release_it_runs_from() {
    let st = two_releases();
    let out = st.run_as(&root(), "update-alternatives --set rocm /opt/rocm-6.2.2");
    assert_eq!(
        out.stdout_text(),
        "update-alternatives: using /opt/rocm-6.2.2 to provide /opt/rocm (rocm) in manual mode\n"
    );
    let out = st.run("hipcc --version");
    assert!(out.stdout_text().starts_with("HIP version: 6.2.41134"));
    // The wrapper in /opt/rocm-6.3.2/bin names its release, whatever /opt/rocm says.
    let env = vec![("ROCM_SIM_RELEASE".to_string(), "6.3.2".to_string())];
    let out = sim::run_with_env(
        &st.host,
        st.root(),
        "hipcc",
        &["--version".into()],
        &st.learner(),
        &mut ScriptedConsole::new(),
        &env,
    );
    assert!(
        out.stdout_text()
            .contains("InstalledDir: /opt/rocm-6.3.2/lib/llvm/bin")
    );
    assert_eq!(
        sim::wrappers::tool_of(&st.read("/opt/rocm-6.3.2/bin/hipcc"), "rocm-learn"),
        Some(("hipcc".to_string(), Some("6.3.2".to_string())))
    );
    // The variable set by hand for a release that is not installed changes nothing: hipcc
    // still answers (and records its proof) for the tree /opt/rocm leads to.
    let env = vec![("ROCM_SIM_RELEASE".to_string(), "6.2.0".to_string())];
    let out = sim::run_with_env(
        &st.host,
        st.root(),
        "hipcc",
        &["--version".into()],
        &st.learner(),
        &mut ScriptedConsole::new(),
        &env,
    );
    assert!(
        out.stdout_text()
            .contains("InstalledDir: /opt/rocm-6.2.2/lib/llvm/bin"),
        "{}",
        out.stdout_text()
    );
}

#[test]
fn set_auto_remove_and_install_follow_dpkg() {
    let st = two_releases();
    let r = root();
    let out = check_as(
        &st,
        &r,
        "ua_set_unregistered",
        "update-alternatives --set rocm /opt/rocm-9.9.9",
    );
    assert_eq!(out.code, 2);
    assert_eq!(
        st.run_as(&r, "update-alternatives --set rocm /opt/rocm-6.2.2")
            .code,
        0
    );
    // Removing the manual choice switches to auto and the best one.
    check_as(
        &st,
        &r,
        "ua_remove_manual",
        "update-alternatives --remove rocm /opt/rocm-6.2.2",
    );
    assert_eq!(st.link("/etc/alternatives/rocm"), "/opt/rocm-6.3.2");
    // Registering it again with a higher priority wins in auto mode.
    let out = st.run_as(
        &r,
        "update-alternatives --install /opt/rocm rocm /opt/rocm-6.2.2 700000000",
    );
    assert_eq!(
        out.stdout_text(),
        "update-alternatives: using /opt/rocm-6.2.2 to provide /opt/rocm (rocm) in auto mode\n"
    );
    // A link changed by hand to a path that is no choice makes the group manual.
    std::fs::remove_file(st.root().join("etc/alternatives/rocm")).unwrap();
    std::os::unix::fs::symlink(
        "/opt/rocm-6.3.2/bin",
        st.root().join("etc/alternatives/rocm"),
    )
    .unwrap();
    let out = st.run_as(&r, "update-alternatives --auto rocm");
    assert!(out.stderr.contains(
        "warning: /etc/alternatives/rocm has been changed (manually or by a script); switching to manual updates only"
    ));
    assert_eq!(st.link("/etc/alternatives/rocm"), "/opt/rocm-6.2.2");
    // Everything removed: the links go too.
    let out = st.run_as(&r, "update-alternatives --remove-all rocm");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(std::fs::symlink_metadata(st.root().join("opt/rocm")).is_err());
    let out = check(
        &st,
        "ua_no_alternatives",
        "update-alternatives --display rocm",
    );
    assert_eq!(out.code, 2);
}

#[test]
fn bad_command_lines_get_dpkgs_usage_errors() {
    let st = two_releases();
    for (name, cmd) in [
        ("ua_no_action", "update-alternatives"),
        (
            "ua_install_short",
            "update-alternatives --install /opt/rocm rocm",
        ),
        (
            "ua_bad_priority",
            "update-alternatives --install /opt/rocm rocm /opt/rocm-6.2.2 high",
        ),
        ("ua_unknown_option", "update-alternatives --frobnicate"),
        ("ua_unknown_argument", "update-alternatives rocm"),
        (
            "ua_two_commands",
            "update-alternatives --display rocm --list rocm",
        ),
        (
            "ua_relative_path",
            "update-alternatives --set rocm opt/rocm-6.2.2",
        ),
        (
            "ua_missing_path",
            "update-alternatives --install /opt/rocm rocm /opt/rocm-7.0.0 1",
        ),
    ] {
        let out = st.run_as(&root(), cmd);
        assert_eq!(out.code, 2, "{cmd}");
        golden(name, cmd, &out);
    }
    let out = st.run("update-alternatives --help");
    assert_eq!(out.code, 0);
    assert!(
        out.stdout_text().contains(
            "--config <name>          show alternatives for the <name> group and ask the"
        )
    );
}

#[test]
fn a_single_release_install_is_an_alternative_too_and_sudo_reaches_the_tool() {
    let st = vega(|s| {
        s.rocm_installed = Some("6.2.2".into());
    });
    let out = st.run("sudo update-alternatives --config rocm");
    assert_eq!(
        out.stdout_text(),
        "There is only one alternative in link group rocm (providing /opt/rocm): /opt/rocm-6.2.2\nNothing to configure.\n"
    );
    assert_eq!(out.code, 0);
    let mut spec = MachineSpec::preset(rocm_sim::Preset::Vega64Workstation);
    spec.rocm_installed = Some("6.2.2".into());
    spec.rocm_releases = vec!["6.3.2".into()];
    let dir = tempfile::tempdir().unwrap();
    let e = sim::stage::create_on(dir.path(), &spec, &sim::Fake::default()).unwrap_err();
    assert!(
        e.message
            .contains("single- and multi-version packages do not mix"),
        "{}",
        e.message
    );
    spec.rocm_installed = None;
    spec.rocm_releases = vec!["6.1.9".into()];
    let e = sim::stage::create_on(dir.path(), &spec, &sim::Fake::default()).unwrap_err();
    assert!(e.message.contains("unknown release 6.1.9"), "{}", e.message);
}

#[test]
fn a_group_with_a_slave_links_both_and_displays_them() {
    let st = two_releases();
    let r = root();
    for v in ["6.2.2", "6.3.2"] {
        let prio = if v == "6.2.2" { 20 } else { 10 };
        let cmd = format!(
            "update-alternatives --install /usr/bin/rocm-info-tool rocminfo-tool /opt/rocm-{v}/bin/rocminfo {prio} --slave /usr/bin/rocm-smi-tool rocm-smi-tool /opt/rocm-{v}/bin/rocm-smi"
        );
        let out = st.run_as(&r, &cmd);
        assert_eq!(out.code, 0, "{}", out.stderr);
    }
    assert_eq!(
        st.link("/etc/alternatives/rocm-smi-tool"),
        "/opt/rocm-6.2.2/bin/rocm-smi"
    );
    assert_eq!(
        st.link("/usr/bin/rocm-smi-tool"),
        "/etc/alternatives/rocm-smi-tool"
    );
    check(
        &st,
        "ua_display_with_slave",
        "update-alternatives --display rocminfo-tool",
    );
    // A slave may not take over a link another group manages.
    let out = st.run_as(
        &r,
        "update-alternatives --install /usr/bin/x x /opt/rocm-6.2.2/bin/hipcc 1 --slave /opt/rocm y /opt/rocm-6.2.2/bin/hipcc",
    );
    assert_eq!(
        out.stderr,
        "update-alternatives: error: alternative link /opt/rocm is already managed by rocm\n"
    );
    assert_eq!(out.code, 2);
}
