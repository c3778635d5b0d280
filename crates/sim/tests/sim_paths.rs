//! Where the machine's programs are, as every tool that names a path tells it: `which`,
//! `update-alternatives` and `dpkg` agree with the package (a Core SDK tool is
//! /usr/bin/rocminfo, a link update-alternatives manages), and `dpkg-query` reads the
//! simulated package database `dpkg -l` reads.

mod sim_common;

use rocm_sim::{coresdk, keys, spec::DriverKind};
use sim_common::{Stage, mi300x};

const SDK_SOURCES: &str = "Types: deb
URIs: https://stable.repo.amd.com/rocm/core/packages/ubuntu2404/
Suites: stable
Components: main
Architectures: amd64
Signed-By: /etc/apt/keyrings/amdrocm.gpg
";
const DRIVER_LIST: &str = "deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/amdgpu/31.60/ubuntu noble main\n";

/// A fresh Ubuntu 24.04 MI300X node with both repositories read and the Core SDK installed.
fn with_core_sdk() -> Stage {
    let st = mi300x(|s| {
        s.ubuntu = Some("24.04".into());
        s.driver = DriverKind::None;
        s.amdgpu_loaded = false;
        s.packages = vec!["linux-headers-6.8.0-52-generic".into()];
    });
    let dir = st.root().join("etc/apt/keyrings");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("rocm.gpg"), keys::amd_key_binary()).unwrap();
    std::fs::write(dir.join("amdrocm.gpg"), coresdk::key_binary()).unwrap();
    st.write("/etc/apt/sources.list.d/amdgpu.list", DRIVER_LIST);
    st.write(
        "/etc/apt/sources.list.d/amdrocm-stable.sources",
        SDK_SOURCES,
    );
    assert_eq!(st.run_root("apt update").code, 0);
    let out = st.run_root("apt install -y amdgpu-dkms amdrocm-core-sdk10.1");
    assert_eq!(out.code, 0, "{}", out.stderr);
    st
}

#[test]
fn which_names_the_path_update_alternatives_manages() {
    let st = with_core_sdk();
    for tool in ["rocminfo", "amd-smi"] {
        let which = st.run(&format!("which {tool}"));
        assert_eq!(which.code, 0, "{tool}: {}", which.stderr);
        assert_eq!(which.stdout_text(), format!("/usr/bin/{tool}\n"));
        let display = st.run(&format!("update-alternatives --display {tool}"));
        assert!(
            display
                .stdout_text()
                .contains(&format!("  link {tool} is /usr/bin/{tool}\n")),
            "{}",
            display.stdout_text()
        );
        // The link is update-alternatives', and leads into the release's tree.
        assert_eq!(
            st.link(&format!("/usr/bin/{tool}")),
            format!("/etc/alternatives/{tool}")
        );
    }
    // A package's tool of Ubuntu's own is where the package puts it, in sbin for an admin's,
    // and dpkg names the package for that path.
    assert_eq!(st.run("which dkms").stdout_text(), "/usr/sbin/dkms\n");
    assert_eq!(
        st.run("dpkg -S /usr/sbin/dkms").stdout_text(),
        "dkms: /usr/sbin/dkms\n"
    );
    // Nothing of the machine is in /usr/local/bin.
    assert!(
        std::fs::read_dir(st.root().join("usr/local/bin"))
            .map(Iterator::count)
            .unwrap_or(0)
            == 0
    );
    // A name the machine does not have: nothing printed, status 1.
    let none = st.run("which rocm-smi");
    assert_eq!((none.stdout_text().as_str(), none.code), ("", 1));
}

#[test]
fn dpkg_query_reads_the_machines_package_database() {
    let st = with_core_sdk();
    let shown = st.run("dpkg-query -W amdrocm-core-sdk10.1");
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    let version = shown
        .stdout_text()
        .trim_end()
        .split('\t')
        .nth(1)
        .map(String::from)
        .expect("a version column");
    assert!(version.starts_with("10.1."), "{version}");
    // -l and -s answer as dpkg's own -l and -s do.
    for (query, dpkg) in [
        (
            "dpkg-query -l amdrocm-core-sdk10.1",
            "dpkg -l amdrocm-core-sdk10.1",
        ),
        ("dpkg-query -s amdgpu-dkms", "dpkg -s amdgpu-dkms"),
        (
            "dpkg-query -S /opt/rocm/core-10.1/bin/rocminfo",
            "dpkg -S /opt/rocm/core-10.1/bin/rocminfo",
        ),
    ] {
        let (q, d) = (st.run(query), st.run(dpkg));
        assert_eq!(q.code, 0, "{query}: {}", q.stderr);
        assert_eq!(q.stdout_text(), d.stdout_text(), "{query}");
    }
    assert!(
        st.run("dpkg-query -s amdgpu-dkms")
            .stdout_text()
            .contains("Status: install ok installed")
    );
    // The format names fields of the machine's database, not the host's.
    let status = st.run("dpkg-query -W -f=${Status} amdgpu-dkms");
    assert_eq!(status.stdout_text(), "install ok installed");
    // What the machine does not have is not found, whatever the host has.
    let missing = st.run("dpkg-query -W rocm-smi-lib");
    assert_eq!(missing.code, 1);
    assert!(
        missing
            .stderr
            .contains("no packages found matching rocm-smi-lib"),
        "{}",
        missing.stderr
    );
}
