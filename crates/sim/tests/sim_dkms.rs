//! The machine after a kernel upgrade that DKMS never built amdgpu for (the no-DKMS-build start
//! of amdgpu-wont-load), and the dkms forms that repair it, with golden transcripts in
//! tests/golden/sim (`UPDATE_GOLDEN=1 cargo test -p rocm-sim --test sim_dkms` rewrites them).

mod sim_common;

use rocm_sim::kernel;
use sim_common::{Stage, check_root, golden, vega};

/// The amdgpu-wont-load machine with the no-DKMS-build cause.
fn upgraded() -> Stage {
    vega(|s| {
        s.rocm_installed = Some("6.2.2".into());
        s.driver = rocm_sim::spec::DriverKind::InTree;
        s.wont_load = vec!["dkms".into()];
    })
}

fn next_boot_loads(st: &Stage) -> bool {
    let state = st.state();
    kernel::next_boot_loads_amdgpu(&state, st.root())
}

#[test]
fn the_upgraded_kernel_has_no_amdgpu_until_its_headers_let_dkms_build() {
    let st = upgraded();
    let state = st.state();
    assert!(state.driver.is_none(), "amdgpu is absent after the boot");
    assert!(!next_boot_loads(&st));
    golden(
        "dkms_status_previous_kernel",
        "dkms status",
        &st.run("dkms status"),
    );
    check_root(&st, "modprobe_amdgpu_no_build", "modprobe amdgpu");
    check_root(&st, "dkms_autoinstall_no_headers", "dkms autoinstall");
    check_root(
        &st,
        "dkms_install_no_headers",
        "dkms install amdgpu/6.8.5-2041575.24.04",
    );
    assert!(!next_boot_loads(&st), "failed builds change nothing");
    check_root(
        &st,
        "apt_install_headers_runs_dkms",
        "apt install -y linux-headers-6.8.0-52-generic",
    );
    assert!(next_boot_loads(&st), "the headers' hook built amdgpu");
    check_root(&st, "dkms_autoinstall_nothing_left", "dkms autoinstall");
    check_root(
        &st,
        "dkms_install_already",
        "dkms install amdgpu/6.8.5-2041575.24.04 -k 6.8.0-52-generic",
    );
}

#[test]
fn dkms_install_names_the_source_it_lacks_and_wants_root() {
    let st = upgraded();
    check_root(
        &st,
        "dkms_install_unknown_version",
        "dkms install amdgpu/6.10.5 -k 6.8.0-52-generic",
    );
    check_root(&st, "dkms_install_no_version", "dkms install");
    golden(
        "dkms_autoinstall_not_root",
        "dkms autoinstall",
        &st.run("dkms autoinstall"),
    );
}

#[test]
fn modules_extra_for_the_running_kernel_also_brings_a_driver_back() {
    let st = upgraded();
    let out = st.run_root("apt install -y linux-modules-extra-6.8.0-52-generic");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(next_boot_loads(&st));
}

/// The driver installed before the headers: the build fails, the package stays half-configured
/// and the module only added, and the headers (or apt's next run) finish both.
#[test]
fn a_failed_driver_build_is_finished_by_the_headers_and_apt() {
    let st = vega(|s| s.repo_configured = Some("6.2.2".into()));
    st.run("sudo apt update");
    let kernel = st.state().machine.kernel.clone();
    assert_eq!(st.run("sudo apt install -y amdgpu-dkms").code, 100);
    golden("dkms_status_added", "dkms status", &st.run("dkms status"));
    golden(
        "dpkg_l_half_configured",
        "dpkg -l amdgpu-dkms",
        &st.run("dpkg -l amdgpu-dkms"),
    );
    let built = |st: &Stage| st.state().dkms.iter().any(|d| d.kernel == kernel);
    assert!(!built(&st), "nothing is built for the running kernel");
    check_root(
        &st,
        "dpkg_configure_pending_no_headers",
        "dpkg --configure -a",
    );
    check_root(
        &st,
        "apt_install_headers_finishes_amdgpu_dkms",
        &format!("apt-get install -y linux-headers-{kernel}"),
    );
    golden("dkms_status_built", "dkms status", &st.run("dkms status"));
    assert!(built(&st));
    assert!(!st.state().packages["amdgpu-dkms"].half_configured);
    check_root(
        &st,
        "apt_install_reinstall",
        "apt-get install -y --reinstall amdgpu-dkms",
    );
    check_root(
        &st,
        "apt_reinstall_operation",
        "apt reinstall -y amdgpu-dkms",
    );
}
