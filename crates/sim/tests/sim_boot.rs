//! The machine boots from its configuration (issue 13 item 4): modalias autoload, blacklists,
//! the kernel command line through update-grub, modules files, DKMS per kernel, Secure Boot and
//! the MOK; the kernel log that dmesg and journalctl read; and the kernel/systemd tools, with
//! golden transcripts in tests/golden/sim (`UPDATE_GOLDEN=1` rewrites them).

mod sim_common;

use rocm_sim::ScriptedConsole;
use sim_common::{Stage, check, check_root, mi300x, vega};

fn loaded(st: &Stage) -> bool {
    st.state().is_module_loaded()
}

fn boots(st: &Stage) -> u32 {
    st.state().boot.count
}

#[test]
fn reboot_as_root_boots_again_and_ends_the_login_sessions() {
    let mut st = vega(|s| s.amdgpu_loaded = false);
    assert_eq!(boots(&st), 1);
    let out = st.run("reboot");
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (
            1,
            "Call to Reboot failed: Interactive authentication required.\n"
        )
    );
    assert_eq!(boots(&st), 1, "a refused reboot does not boot");
    for (n, cmd) in [
        "sudo reboot",
        "sudo shutdown -r now",
        "sudo systemctl reboot",
    ]
    .iter()
    .enumerate()
    {
        let out = st.run(cmd);
        assert_eq!((out.code, out.stderr.as_str()), (0, ""), "{cmd}");
        let state = st.state();
        assert_eq!(state.boot.count, n as u32 + 2, "{cmd}");
        assert!(state.sessions.is_empty(), "{cmd} ends every session");
        // Nothing blacklists amdgpu: its modalias loads it.
        assert!(state.is_module_loaded(), "{cmd}");
        st.relogin();
    }
}

#[test]
fn blacklist_and_command_line_keep_amdgpu_out_until_update_grub() {
    let mut st = mi300x(|s| s.amdgpu_loaded = false);
    // Editing /etc/default/grub alone does nothing: the boot reads grub.cfg.
    let grub = st.read("/etc/default/grub").replace(
        "GRUB_CMDLINE_LINUX=\"\"",
        "GRUB_CMDLINE_LINUX=\"modprobe.blacklist=amdgpu\"",
    );
    st.write("/etc/default/grub", &grub);
    st.run("sudo reboot");
    st.relogin();
    assert!(loaded(&st));
    assert!(
        !st.read("/var/lib/rocm-sim/cmdline")
            .contains("modprobe.blacklist")
    );

    assert_eq!(st.run("update-grub").code, 1);
    assert_eq!(st.run("sudo update-grub").code, 0);
    st.run("sudo reboot");
    st.relogin();
    assert!(
        !loaded(&st),
        "modprobe.blacklist=amdgpu on the command line"
    );
    assert_eq!(
        st.read("/var/lib/rocm-sim/cmdline"),
        "BOOT_IMAGE=/boot/vmlinuz-5.15.0-125-generic root=UUID=3f1c2a9e-5b7d-4c1e-9a2f-6d8e0b4c7a15 ro modprobe.blacklist=amdgpu\n"
    );
    // An explicit modprobe ignores blacklists.
    assert_eq!(st.run("sudo modprobe amdgpu").code, 0);
    assert!(loaded(&st));
}

#[test]
fn nomodeset_makes_amdgpu_refuse_to_load() {
    let mut st = vega(|_| {});
    let grub = st
        .read("/etc/default/grub")
        .replace("\"quiet splash\"", "\"quiet splash nomodeset\"");
    st.write("/etc/default/grub", &grub);
    st.run("sudo update-grub");
    st.run("sudo reboot");
    st.relogin();
    assert!(!loaded(&st));
    let out = st.run("sudo modprobe amdgpu");
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (
            1,
            "modprobe: ERROR: could not insert 'amdgpu': Invalid argument\n"
        )
    );
    let log = st.run("sudo dmesg").stdout_text();
    assert!(log.contains(
        "] Booted with the nomodeset parameter. Only the system framebuffer will be available\n"
    ));
    assert!(!log.contains("amdgpu kernel modesetting enabled"));
}

#[test]
fn dkms_module_counts_only_for_its_kernel_and_secure_boot_wants_the_key() {
    let mut st = vega(|s| {
        s.rocm_installed = Some("6.2.2".into());
        s.driver = rocm_sim::spec::DriverKind::Dkms;
        s.amdgpu_loaded = false;
        s.secure_boot = true;
        s.mok_enrolled = false;
    });
    assert_eq!(
        st.run("mokutil --sb-state").stdout_text(),
        "SecureBoot enabled\n"
    );
    let out = st.run("sudo modprobe amdgpu");
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (
            1,
            "modprobe: ERROR: could not insert 'amdgpu': Key was rejected by service\n"
        )
    );
    assert!(
        st.run("sudo dmesg")
            .stdout_text()
            .contains("] Loading of module with unavailable key is rejected\n")
    );
    // Enrol the key: it takes a reboot (MokManager) before the module loads.
    let mut console = ScriptedConsole::answering(&["s3cret", "s3cret"]);
    let out = st.run_with(
        "sudo mokutil --import /var/lib/shim-signed/mok/MOK.der",
        &mut console,
    );
    assert_eq!(out.code, 1, "the key file must exist: {}", out.stderr);
    st.write("/var/lib/shim-signed/mok/MOK.der", "DER");
    let mut console = ScriptedConsole::answering(&["s3cret", "s3cret"]);
    let out = st.run_with(
        "sudo mokutil --import /var/lib/shim-signed/mok/MOK.der",
        &mut console,
    );
    assert_eq!(
        (out.code, out.stdout_text().as_str()),
        (0, "input password: input password again: ")
    );
    assert_eq!(
        st.run("sudo modprobe amdgpu").code,
        1,
        "not before the reboot"
    );
    st.run("sudo reboot");
    st.relogin();
    assert!(loaded(&st), "enrolled at boot, the DKMS module loads");

    // A kernel the module was not built for: no amdgpu at all.
    let mut state = st.state();
    state.machine.kernel = "6.11.0-17-generic".into();
    state.save(st.root()).expect("save");
    st.run("sudo reboot");
    st.relogin();
    assert!(!loaded(&st));
    let out = st.run("sudo modprobe amdgpu");
    assert_eq!(
        out.stderr,
        "modprobe: FATAL: Module amdgpu not found in directory /lib/modules/6.11.0-17-generic\n"
    );
}

#[test]
fn missing_firmware_leaves_the_module_loaded_without_devices() {
    let st = vega(|s| {
        s.amdgpu_loaded = false;
        s.missing_firmware = Some("amdgpu/vega10_gpu_info.bin".into());
    });
    assert_eq!(st.run("sudo modprobe amdgpu").code, 0);
    let state = st.state();
    assert!(state.is_module_loaded());
    assert!(state.device("/dev/kfd").is_none());
    let log = st.run("sudo dmesg").stdout_text();
    assert!(log.contains(
        "amdgpu 0000:43:00.0: Direct firmware load for amdgpu/vega10_gpu_info.bin failed with error -2\n"
    ));
    assert!(log.contains("amdgpu: probe of 0000:43:00.0 failed with error -2\n"));
}

#[test]
fn restarting_systemd_services_applies_modules_files_and_rules() {
    let st = vega(|s| {
        s.amdgpu_loaded = false;
        s.user_groups.push("render".into());
    });
    st.write("/etc/modules-load.d/amdgpu.conf", "amdgpu\n");
    let out = st.run("systemctl restart systemd-modules-load");
    assert_eq!(out.code, 1);
    assert!(!loaded(&st));
    assert_eq!(
        st.run("sudo systemctl restart systemd-modules-load.service")
            .code,
        0
    );
    assert!(loaded(&st));

    st.write(
        "/etc/udev/rules.d/70-kfd.rules",
        "KERNEL==\"kfd\", MODE=\"0666\"\n",
    );
    assert_eq!(st.run("sudo systemctl restart systemd-udevd").code, 0);
    assert_eq!(st.run("sudo udevadm trigger").code, 0);
    let state = st.state();
    assert_eq!(state.device_mode("/dev/kfd"), Some(0o666));

    let out = st.run("sudo systemctl restart nvidia-persistenced");
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (
            5,
            "Failed to restart nvidia-persistenced.service: Unit nvidia-persistenced.service not found.\n"
        )
    );
}

#[test]
fn modprobe_remove_goes_by_the_use_count_lsmod_shows() {
    // A compute server: nothing holds amdgpu (use count 0), so it can be removed.
    let st = mi300x(|_| {});
    let line = st
        .run("lsmod")
        .stdout_text()
        .lines()
        .find(|l| l.starts_with("amdgpu "))
        .map(String::from)
        .expect("amdgpu listed");
    assert!(line.ends_with(" 0"), "{line}");
    let out = st.run("sudo modprobe -r amdgpu");
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    assert!(!loaded(&st));
    // A workstation's display holds it.
    let st = vega(|_| {});
    let out = st.run("sudo modprobe -r amdgpu");
    assert_eq!(out.stderr, "modprobe: FATAL: Module amdgpu is in use.\n");
}

#[test]
fn kernel_log_tools_goldens() {
    let st = vega(|s| s.user_groups = vec!["sudo".into()]);
    check(&st, "dmesg_not_root", "dmesg");
    check_root(&st, "dmesg_vega64_boot", "dmesg");
    check_root(&st, "journalctl_k_vega64", "journalctl -k --no-pager");
    check(&st, "journalctl_k_not_in_adm", "journalctl -k");
    let st = mi300x(|s| s.amdgpu_loaded = false);
    check_root(&st, "dmesg_mi300x_not_loaded", "dmesg");
    check(&st, "journalctl_k_adm_member", "journalctl -k");
}

#[test]
fn kernel_tool_goldens() {
    let st = vega(|_| {});
    check(&st, "update_grub_not_root", "update-grub");
    check_root(&st, "update_grub_noble", "update-grub");
    check(&st, "mokutil_sb_state_disabled", "mokutil --sb-state");
    check(&st, "reboot_not_root", "reboot");
    check(&st, "shutdown_not_root", "shutdown -r now");
    check_root(&st, "systemctl_restart_unknown", "systemctl restart foo");
    check(&st, "rmmod_not_root", "rmmod amdgpu");
    check_root(&st, "rmmod_in_use", "rmmod amdgpu");
    check_root(&st, "rmmod_not_loaded", "rmmod nouveau");
    check_root(
        &st,
        "insmod_missing_dependencies",
        "insmod /lib/modules/6.8.0-52-generic/kernel/drivers/gpu/drm/amd/amdgpu/amdgpu.ko.zst",
    );
    check(&st, "insmod_no_file", "insmod ./amdgpu.ko");
    check(&st, "modinfo_amdgpu_in_tree", "modinfo amdgpu");
    check(&st, "modinfo_field_filename", "modinfo -F filename amdgpu");
    check(&st, "modinfo_unknown", "modinfo nvidia");
    let st = mi300x(|s| {
        s.rocm_installed = Some("6.2.2".into());
        s.driver = rocm_sim::spec::DriverKind::Dkms;
        s.secure_boot = true;
    });
    check(&st, "mokutil_sb_state_enabled", "mokutil --sb-state");
    check(&st, "modinfo_amdgpu_dkms", "modinfo amdgpu");
}

#[test]
fn a_reboot_applies_the_udev_rules_written_before_it() {
    let st = vega(|_| {});
    st.write(
        "/etc/udev/rules.d/70-kfd.rules",
        "KERNEL==\"kfd\", MODE=\"0666\"\nSUBSYSTEM==\"drm\", KERNEL==\"renderD*\", MODE=\"0666\"\n",
    );
    assert_eq!(st.state().device("/dev/kfd").unwrap().mode, 0o660);
    assert_eq!(st.run("sudo reboot").code, 0);
    let s = st.state();
    assert_eq!(
        s.device("/dev/kfd").unwrap().mode,
        0o666,
        "coldplug applies the rule"
    );
    assert_eq!(s.device("/dev/dri/renderD128").unwrap().mode, 0o666);
}
