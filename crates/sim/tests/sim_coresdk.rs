//! The ROCm Core SDK (10.x) on the simulated machine: its repositories as apt reads them, its
//! packages and what they put on disk, its tools' banners, and the legacy stack's removal.
//! Golden transcripts in tests/golden/sim; regenerate with
//! `UPDATE_GOLDEN=1 cargo test -p rocm-sim --test sim_coresdk` and review the diff.

mod sim_common;

use rocm_sim::{self as sim, coresdk, keys, spec::DriverKind};
use sim_common::{Stage, check, check_root, mi300x};

const SDK_SOURCES: &str = "Types: deb
URIs: https://stable.repo.amd.com/rocm/core/packages/ubuntu2404/
Suites: stable
Components: main
Architectures: amd64
Signed-By: /etc/apt/keyrings/amdrocm.gpg
";
const DRIVER_LIST: &str = "deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/amdgpu/31.60/ubuntu noble main\n";

/// A fresh Ubuntu 24.04 MI300X node in November 2026, with the headers of its kernel.
fn fresh() -> Stage {
    mi300x(|s| {
        s.ubuntu = Some("24.04".into());
        s.driver = DriverKind::None;
        s.amdgpu_loaded = false;
        s.boot_time = 1_795_600_000;
        s.packages = vec!["linux-headers-6.8.0-52-generic".into()];
    })
}

/// Both keys in place, as `gpg --dearmor` writes them.
fn keys(st: &Stage) {
    let dir = st.root().join("etc/apt/keyrings");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("rocm.gpg"), keys::amd_key_binary()).unwrap();
    std::fs::write(dir.join("amdrocm.gpg"), coresdk::key_binary()).unwrap();
}

/// The node with both repositories registered and read.
fn registered() -> Stage {
    let st = fresh();
    keys(&st);
    st.write("/etc/apt/sources.list.d/amdgpu.list", DRIVER_LIST);
    st.write(
        "/etc/apt/sources.list.d/amdrocm-stable.sources",
        SDK_SOURCES,
    );
    assert_eq!(st.run_root("apt update").code, 0);
    st
}

#[test]
fn apt_reads_both_repositories() {
    let st = fresh();
    keys(&st);
    st.write("/etc/apt/sources.list.d/amdgpu.list", DRIVER_LIST);
    st.write(
        "/etc/apt/sources.list.d/amdrocm-stable.sources",
        SDK_SOURCES,
    );
    check_root(&st, "coresdk_apt_update", "apt update");
}

#[test]
fn the_legacy_key_does_not_sign_the_core_sdk() {
    let st = fresh();
    keys(&st);
    st.write(
        "/etc/apt/sources.list.d/amdrocm-stable.sources",
        &SDK_SOURCES.replace("amdrocm.gpg", "rocm.gpg"),
    );
    let out = check_root(&st, "coresdk_apt_update_wrong_key", "apt update");
    assert_eq!(out.code, 100);
    // apt names the missing key as it does for the driver's repository: the id of the key
    // stable.repo.amd.com signs with, not repo.radeon.com's.
    let sdk = "https://stable.repo.amd.com/rocm/core/packages/ubuntu2404 stable";
    let why = "The following signatures couldn't be verified because the public key is not available: NO_PUBKEY 0701EAC4D5E02107";
    assert!(
        out.stdout_text().contains(&format!("InRelease\n  {why}\n")),
        "{}",
        out.stdout_text()
    );
    assert!(
        out.stderr
            .contains(&format!("W: GPG error: {sdk} InRelease: {why}\n")),
        "{}",
        out.stderr
    );
    // The driver's repository without its key says the same with its own id.
    st.write("/etc/apt/sources.list.d/amdgpu.list", DRIVER_LIST);
    std::fs::remove_file(st.root().join("etc/apt/keyrings/rocm.gpg")).unwrap();
    let out = st.run_root("apt update");
    assert!(
        out.stderr.contains("NO_PUBKEY 9386B48A1A693C5C\n"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_codename_is_no_suite_of_the_core_sdk() {
    let st = fresh();
    keys(&st);
    st.write(
        "/etc/apt/sources.list.d/amdrocm-stable.sources",
        &SDK_SOURCES.replace("Suites: stable", "Suites: noble"),
    );
    let out = check_root(&st, "coresdk_apt_update_codename_suite", "apt update");
    assert_eq!(out.code, 100);
}

#[test]
fn installing_lays_out_core_10_1_and_its_alternatives() {
    let st = registered();
    check_root(
        &st,
        "coresdk_apt_install_gfx942",
        "apt install -y amdgpu-dkms amdrocm10.1-gfx942",
    );
    // /opt/rocm is a folder; its entries are the groups' links.
    assert!(st.root().join("opt/rocm").is_dir());
    assert!(
        st.root()
            .join("opt/rocm/core-10.1/bin/amdclang++")
            .is_file()
    );
    assert_eq!(st.link("/opt/rocm/bin"), "/etc/alternatives/rocm-bin");
    assert_eq!(
        st.link("/etc/alternatives/rocm-bin"),
        "/opt/rocm/core-10.1/bin"
    );
    assert_eq!(
        st.link("/etc/alternatives/amd-smi"),
        "/opt/rocm/core-10.1/bin/amd-smi"
    );
    // rocm-smi is gone from 10.1; no /opt/rocm-10.1.0 either.
    assert!(!st.root().join("opt/rocm/core-10.1/bin/rocm-smi").exists());
    assert!(!st.root().join("etc/alternatives/rocm-smi").exists());
    assert!(!st.root().join("opt/rocm-10.1.0").exists());
    assert!(!st.root().join("opt/rocm/core-10.0").exists());
    check(
        &st,
        "coresdk_alternatives_display_rocm_bin",
        "update-alternatives --display rocm-bin",
    );
    check(&st, "coresdk_dkms_status", "dkms status");
}

#[test]
fn the_core_sdk_tools_answer_as_10_1() {
    let mut st = registered();
    assert_eq!(
        st.run_root("apt install -y amdgpu-dkms amdrocm10.1").code,
        0
    );
    assert_eq!(st.run_root("modprobe amdgpu").code, 0);
    assert_eq!(st.run_root("usermod -aG render,video learner").code, 0);
    st.relogin();
    check(&st, "coresdk_amd_smi_version", "amd-smi version");
    check(&st, "coresdk_hipcc_version", "hipcc --version");
    check(&st, "coresdk_amdclang_version", "amdclang++ --version");
    check(&st, "coresdk_hipconfig_version", "hipconfig --version");
    check(
        &st,
        "coresdk_rocm_agent_enumerator",
        "rocm_agent_enumerator",
    );
    let info = sim_common::plain(&st.run("rocminfo").stdout_text());
    assert!(info.starts_with("ROCk module version 7.1.9.31600000 is loaded\n"));
    assert!(info.contains("Runtime Version:         1.21\n"));
}

#[test]
fn wget_serves_the_core_sdk_key() {
    let st = fresh();
    let out = st.run("wget -qO- https://stable.repo.amd.com/rocm/gpg/packages.gpg");
    assert_eq!(out.code, 0);
    assert_eq!(out.stdout_text(), coresdk::key_armored());
}

/// A node of the legacy stream: ROCm 7.2.0 with apt, the 30.30 driver.
fn legacy() -> Stage {
    mi300x(|s| {
        s.rocm_installed = Some("7.2.0".into());
        s.driver = DriverKind::Dkms;
        s.boot_time = 1_795_600_000;
    })
}

#[test]
fn the_legacy_72_node_is_staged_as_its_pages_install_it() {
    let st = legacy();
    assert_eq!(
        st.read("/etc/apt/sources.list.d/amdgpu.list"),
        "deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/amdgpu/30.30/ubuntu jammy main\n"
    );
    assert_eq!(st.link("/etc/alternatives/rocm"), "/opt/rocm-7.2.0");
    assert!(st.root().join("opt/rocm-7.2.0/bin/rocm-smi").is_file());
}

#[test]
fn autoremove_takes_the_legacy_stack_and_its_link() {
    let st = legacy();
    check_root(&st, "apt_autoremove_legacy_rocm", "apt autoremove -y rocm");
    assert!(!st.root().join("opt/rocm-7.2.0").exists());
    assert!(std::fs::symlink_metadata(st.root().join("opt/rocm")).is_err());
    assert!(!st.state().installed("hipcc"));
    // The driver stays: it was asked for, not brought in.
    assert!(st.state().installed("amdgpu-dkms"));
    check_root(
        &st,
        "apt_autoremove_not_installed",
        "apt autoremove rocm-core",
    );
}

#[test]
fn remove_leaves_what_came_with_the_meta_package() {
    let st = legacy();
    let out = check_root(&st, "apt_remove_meta_only", "apt-get remove -y rocm");
    assert_eq!(out.code, 0);
    assert!(st.state().installed("rocm-core"));
}

#[test]
fn remove_asks_and_refuses_like_apt() {
    let st = legacy();
    check(&st, "apt_remove_not_root", "apt remove rocm");
    check_root(&st, "apt_remove_unknown", "apt remove nosuch");
    let out = st.run_answering(&st.learner().as_root(), "apt purge rocm-core", &["n"]);
    sim_common::golden(
        "apt_purge_abort",
        "(as root) apt purge rocm-core   (answer n)",
        &out,
    );
    assert_eq!(out.code, 1);
    assert!(st.state().installed("rocm-core"));
    let out = st.run_root("apt-get clean all");
    assert_eq!((out.code, out.stdout_text().as_str()), (0, ""));
    let _ = sim::login_on(st.root(), "learner", &st.host);
}

#[test]
fn remove_with_autoremove_is_autoremove() {
    for line in [
        "apt remove --autoremove -y rocm",
        "apt-get purge --auto-remove -y rocm",
    ] {
        let st = legacy();
        assert_eq!(st.run_root(line).code, 0, "{line}");
        let state = st.state();
        assert!(
            !state.installed("hipcc") && !state.installed("rocm-core"),
            "{line}"
        );
        assert!(state.installed("amdgpu-dkms"), "{line}");
    }
}

/// The Core SDK's repository with `signed_by` as its Signed-By field, after the driver's.
fn sdk_signed_by(st: &Stage, signed_by: &str) -> sim::Output {
    st.write("/etc/apt/sources.list.d/amdgpu.list", DRIVER_LIST);
    st.write(
        "/etc/apt/sources.list.d/amdrocm-stable.sources",
        &SDK_SOURCES.replace("Signed-By: /etc/apt/keyrings/amdrocm.gpg", signed_by),
    );
    st.run_root("apt update")
}

/// An armored key as a deb822 field's continuation lines (" ." for an empty line).
fn inline(armored: &str) -> String {
    armored
        .lines()
        .map(|l| {
            if l.is_empty() {
                " .".to_string()
            } else {
                format!(" {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_key_written_into_the_sources_file_signs_its_repository() {
    let st = fresh_with_keys();
    let out = sdk_signed_by(
        &st,
        &format!("Signed-By:\n{}", inline(&coresdk::key_armored())),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let sdk = "https://stable.repo.amd.com/rocm/core/packages/ubuntu2404 stable";
    assert!(
        out.stdout_text()
            .contains(&format!("{sdk}/main amd64 Packages"))
    );
    // repo.radeon.com's key written there signs nothing of stable.repo.amd.com.
    let st = fresh_with_keys();
    let out = sdk_signed_by(
        &st,
        &format!("Signed-By:\n{}", inline(&keys::amd_key_armored())),
    );
    assert_eq!(out.code, 100);
}

fn fresh_with_keys() -> Stage {
    let st = fresh();
    keys(&st);
    st
}

#[test]
fn one_keyring_may_hold_both_keys() {
    let st = fresh_with_keys();
    let both = [keys::amd_key_binary(), coresdk::key_binary()].concat();
    std::fs::write(st.root().join("etc/apt/keyrings/amd-both.gpg"), both).unwrap();
    st.write(
        "/etc/apt/sources.list.d/amdgpu.list",
        &DRIVER_LIST.replace("rocm.gpg", "amd-both.gpg"),
    );
    st.write(
        "/etc/apt/sources.list.d/amdrocm-stable.sources",
        &SDK_SOURCES.replace("amdrocm.gpg", "amd-both.gpg"),
    );
    let out = st.run_root("apt update");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lists = st.state().apt_lists;
    assert!(
        lists.contains("https://repo.radeon.com/amdgpu/31.60/ubuntu noble")
            && lists.contains("https://stable.repo.amd.com/rocm/core/packages/ubuntu2404 stable"),
        "{lists:?}"
    );
}

#[test]
fn a_keyring_the_apt_user_cannot_read_is_ignored() {
    use std::os::unix::fs::PermissionsExt;
    let st = fresh_with_keys();
    let ring = st.root().join("etc/apt/keyrings/amdrocm.gpg");
    std::fs::set_permissions(&ring, std::fs::Permissions::from_mode(0o600)).unwrap();
    let out = sdk_signed_by(&st, "Signed-By: /etc/apt/keyrings/amdrocm.gpg");
    assert_eq!(out.code, 100);
    assert!(
        out.stderr.contains("W: https://stable.repo.amd.com/rocm/core/packages/ubuntu2404/dists/stable/InRelease: The key(s) in the keyring /etc/apt/keyrings/amdrocm.gpg are ignored as the file is not readable by user '_apt' executing apt-key."),
        "{}",
        out.stderr
    );
    std::fs::set_permissions(&ring, std::fs::Permissions::from_mode(0o644)).unwrap();
    assert_eq!(st.run_root("apt update").code, 0);
}

#[test]
fn a_stanza_without_components_stops_apt() {
    let st = fresh_with_keys();
    st.write(
        "/etc/apt/sources.list.d/amdrocm-stable.sources",
        &SDK_SOURCES.replace("Components: main\n", ""),
    );
    for line in ["apt update", "apt install -y amdrocm10.1"] {
        let out = st.run_root(line);
        assert_eq!(out.code, 100, "{line}");
        assert!(
            out.stderr.starts_with("E: Malformed entry 1 in sources file /etc/apt/sources.list.d/amdrocm-stable.sources (Component)\nE: The list of sources could not be read.\n"),
            "{line}: {}",
            out.stderr
        );
    }
    assert!(
        !st.state()
            .apt_lists
            .iter()
            .any(|l| l.contains("stable.repo.amd.com"))
    );
}

#[test]
fn the_libraries_the_install_page_asks_for_are_there_already() {
    let st = fresh();
    let out = st.run_root("apt install libatomic1 libquadmath0");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let text = out.stdout_text();
    for p in ["libatomic1", "libquadmath0"] {
        assert!(
            text.contains(&format!(
                "{p} is already the newest version (14.2.0-4ubuntu2~24.04)."
            )),
            "{text}"
        );
    }
    assert!(text.contains("0 upgraded, 0 newly installed"));
}

#[test]
fn the_unversioned_meta_package_installs_the_current_release() {
    let st = registered();
    assert_eq!(st.run_root("apt install -y amdrocm").code, 0);
    let state = st.state();
    assert!(state.installed("amdrocm10.1") && state.installed("amdrocm-core10.1"));
    assert!(!state.installed("amdrocm10.0"));
    assert_eq!(
        st.link("/etc/alternatives/rocm-bin"),
        "/opt/rocm/core-10.1/bin"
    );
}

#[test]
fn rocm_smi_ships_deprecated_in_10_0_and_is_gone_from_10_1() {
    // 10.0 from the same repository: its AMD SMI package still brings rocm-smi, in its tree
    // only (scripts call /opt/rocm/core-10.0/bin/rocm-smi; the postinst links no rocm-smi).
    let mut st = fresh_with_keys();
    st.write(
        "/etc/apt/sources.list.d/amdgpu.list",
        &DRIVER_LIST.replace("31.60", "31.50"),
    );
    st.write(
        "/etc/apt/sources.list.d/amdrocm-stable.sources",
        SDK_SOURCES,
    );
    assert_eq!(st.run_root("apt update").code, 0);
    check_root(
        &st,
        "coresdk_apt_install_10_0_gfx942",
        "apt install -y amdgpu-dkms amdrocm10.0-gfx942",
    );
    assert!(st.root().join("opt/rocm/core-10.0/bin/rocm-smi").is_file());
    assert!(!st.root().join("etc/alternatives/rocm-smi").exists());
    assert_eq!(st.run_root("modprobe amdgpu").code, 0);
    assert_eq!(st.run_root("usermod -aG render,video learner").code, 0);
    st.relogin();
    check(&st, "coresdk_10_0_rocm_smi", "rocm-smi --showproductname");
    check(&st, "coresdk_10_0_amd_smi_version", "amd-smi version");
    assert_eq!(st.run("which rocm-smi").code, 1);
    // Moving to 10.1 takes rocm-smi away with 10.0's packages, and amd-smi answers as 10.1.
    assert_eq!(st.run_root("apt install -y amdrocm10.1-gfx942").code, 0);
    assert_eq!(
        st.link("/etc/alternatives/amd-smi"),
        "/opt/rocm/core-10.1/bin/amd-smi"
    );
    assert_eq!(
        st.run_root("apt autoremove -y amdrocm10.0-gfx942 amdrocm-core10.0-gfx942")
            .code,
        0
    );
    assert!(!st.root().join("opt/rocm/core-10.0/bin/rocm-smi").exists());
    assert!(!st.root().join("opt/rocm/core-10.1/bin/rocm-smi").exists());
    assert!(
        st.run("amd-smi version")
            .stdout_text()
            .contains("ROCm version: 10.1.0")
    );
}

#[test]
fn dpkg_search_finds_the_tree_and_not_the_alternatives_links() {
    let st = registered();
    assert_eq!(
        st.run_root("apt install -y amdgpu-dkms amdrocm10.1-gfx942")
            .code,
        0
    );
    // The program in the release's tree belongs to its component package.
    check(
        &st,
        "coresdk_dpkg_search_tree",
        "dpkg -S /opt/rocm/core-10.1/bin/rocminfo",
    );
    // The link in /usr/bin is update-alternatives', not a package's.
    let out = check(&st, "coresdk_dpkg_search_link", "dpkg -S /usr/bin/rocminfo");
    assert_eq!(out.code, 1);
    // A bare name matches every path holding it; dpkg-query answers the same.
    let by_name = st.run("dpkg-query -S amd-smi");
    assert_eq!(by_name.code, 0);
    assert_eq!(
        by_name.stdout_text(),
        "amdrocm-amdsmi10.1: /opt/rocm/core-10.1/bin/amd-smi\n"
    );
    assert_eq!(
        st.run("dpkg -S amd-smi").stdout_text(),
        by_name.stdout_text()
    );
    let dirs = st.run("dpkg -S /opt/rocm/core-10.1/bin").stdout_text();
    // A folder lists every package with files in it.
    assert_eq!(
        dirs,
        "amdrocm-amdsmi10.1, amdrocm-base10.1, amdrocm-llvm10.1: /opt/rocm/core-10.1/bin\n"
    );
    assert_eq!(st.run("dpkg -S rocm-smi").code, 1);
}
