//! The simulated tools, one file each, and the table that finds them by name.

// Each tool is reached through `dispatch`; the app reaches into these three for what its lab
// runner shows (a container's devices, hipcc's release, python's torch).
mod adduser;
mod amd_smi;
mod amdclang;
mod amdgpu_install;
mod apt;
mod apt_coresdk;
mod apt_remove;
mod apt_size;
mod clock;
mod curl;
mod dkms;
pub mod docker;
mod dpkg;
mod dpkg_query;
mod dpkg_search;
mod gpasswd;
mod gpg;
mod groupmems;
mod groups;
mod helm;
pub mod hipcc;
mod id;
mod klog;
mod kmod;
mod kubectl;
mod login;
mod ls;
mod lsmod;
mod lspci;
mod modprobe;
mod mokutil;
mod newgrp;
mod opts;
mod power;
pub mod python3;
mod rocm_cli;
mod rocm_smi;
mod rocminfo;
mod sg;
mod stat;
mod su;
mod sudo;
mod systemctl;
pub(crate) mod testkit;
mod udevadm;
mod uname;
mod update_alternatives;
mod update_grub;
mod usermod;
mod wget;
mod which;

use super::Ctx;
use super::state::State;

/// Every tool `rocm-learn sim TOOL` knows.
pub const TOOLS: &[&str] = &[
    "adduser",
    "amd-smi",
    "amdclang",
    "amdclang++",
    "amdgpu-install",
    "apt",
    "apt-get",
    "curl",
    "date",
    "dkms",
    "docker",
    "dpkg",
    "dpkg-query",
    "dmesg",
    "gpasswd",
    "gpg",
    "groupmems",
    "groups",
    "helm",
    "hipcc",
    "hipconfig",
    "id",
    "insmod",
    "journalctl",
    "kubectl",
    "login",
    "ls",
    "lsmod",
    "lspci",
    "modinfo",
    "modprobe",
    "mokutil",
    "newgrp",
    "podman",
    "python3",
    "poweroff",
    "reboot",
    "rmmod",
    "rocm",
    "rocm-sdk",
    "rocm-smi",
    "rocm_agent_enumerator",
    "rocminfo",
    "sg",
    "shutdown",
    "stat",
    "su",
    "sudo",
    "systemctl",
    "udevadm",
    "uname",
    "update-alternatives",
    "update-grub",
    "uptime",
    "usermod",
    "wget",
    "which",
];

/// Runs the tool named `tool`; unknown names get bash's `command not found`.
pub fn dispatch(cx: &mut Ctx, tool: &str, args: &[String]) -> i32 {
    match tool {
        "adduser" => adduser::run(cx, args),
        "amd-smi" => amd_smi::run(cx, args),
        "amdgpu-install" => amdgpu_install::run(cx, args),
        "apt" | "apt-get" => apt::run(cx, tool, args),
        "curl" => curl::run(cx, args),
        "date" => clock::date(cx, args),
        "uptime" => clock::uptime(cx, args),
        "dkms" => dkms::run(cx, args),
        "docker" | "podman" => docker::run(cx, tool, args),
        "dpkg" => dpkg::run(cx, args),
        "dpkg-query" => dpkg_query::run(cx, args),
        "groupmems" => groupmems::run(cx, args),
        "gpasswd" => gpasswd::run(cx, args),
        "gpg" => gpg::run(cx, args),
        "groups" => groups::run(cx, args),
        "helm" => helm::run(cx, args),
        "hipcc" if super::coresdk::running(cx) => amdclang::compiler(cx, tool, args),
        "hipcc" => hipcc::run(cx, args),
        "amdclang" | "amdclang++" => amdclang::compiler(cx, tool, args),
        "hipconfig" => amdclang::hipconfig(cx, args),
        "rocm_agent_enumerator" => amdclang::agents(cx),
        "id" => id::run(cx, args),
        "dmesg" => klog::dmesg(cx, args),
        "journalctl" => klog::journalctl(cx, args),
        "insmod" => kmod::insmod(cx, args),
        "rmmod" => kmod::rmmod(cx, args),
        "modinfo" => kmod::modinfo(cx, args),
        "mokutil" => mokutil::run(cx, args),
        "reboot" | "poweroff" => power::reboot(cx, tool, args),
        "shutdown" => power::shutdown(cx, args),
        "systemctl" => systemctl::run(cx, args),
        "update-alternatives" => update_alternatives::run(cx, args),
        "update-grub" => update_grub::run(cx, args),
        "kubectl" => kubectl::run(cx, args),
        "login" => login::run(cx, args),
        "ls" => ls::run(cx, args),
        "lsmod" => lsmod::run(cx, args),
        "lspci" => lspci::run(cx, args),
        "modprobe" => modprobe::run(cx, args),
        "newgrp" => newgrp::run(cx, args),
        "python3" => python3::run(cx, args),
        "rocm" => rocm_cli::run(cx, args),
        "rocm-sdk" => rocm_cli::rocm_sdk(cx, args),
        "rocm-smi" => rocm_smi::run(cx, args),
        "rocminfo" => rocminfo::run(cx, args),
        "sg" => sg::run(cx, args),
        "su" => su::run(cx, args),
        "sudo" => sudo::run(cx, args),
        "udevadm" => udevadm::run(cx, args),
        "uname" => uname::run(cx, args),
        "usermod" => usermod::run(cx, args),
        "wget" => wget::run(cx, args),
        "stat" => stat::run(cx, args),
        "which" => which::run(cx, args),
        _ => {
            cx.eprintln(&format!("rocm-learn sim: unknown tool '{tool}'"));
            127
        }
    }
}

/// A tool that exists on the machine without installing anything, and where Ubuntu keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SystemTool {
    /// Its name.
    pub name: &'static str,
    /// Its full path on Ubuntu (`/usr/bin/lspci`).
    pub path: &'static str,
}

/// The tools every Ubuntu has, in the order the lab installs their wrappers.
const BASE_TOOLS: &[(&str, &str)] = &[
    ("lspci", "/usr/bin/lspci"),
    ("lsmod", "/usr/sbin/lsmod"),
    ("modprobe", "/usr/sbin/modprobe"),
    ("udevadm", "/usr/bin/udevadm"),
    ("apt", "/usr/bin/apt"),
    ("apt-get", "/usr/bin/apt-get"),
    ("wget", "/usr/bin/wget"),
    ("gpg", "/usr/bin/gpg"),
    ("usermod", "/usr/sbin/usermod"),
    ("gpasswd", "/usr/bin/gpasswd"),
    ("groupmems", "/usr/sbin/groupmems"),
    ("adduser", "/usr/sbin/adduser"),
    ("groups", "/usr/bin/groups"),
    ("id", "/usr/bin/id"),
    ("newgrp", "/usr/bin/newgrp"),
    ("sudo", "/usr/bin/sudo"),
    ("su", "/usr/bin/su"),
    ("uname", "/usr/bin/uname"),
    ("date", "/usr/bin/date"),
    ("uptime", "/usr/bin/uptime"),
    // The kernel and systemd tools.
    ("reboot", "/usr/sbin/reboot"),
    ("shutdown", "/usr/sbin/shutdown"),
    ("poweroff", "/usr/sbin/poweroff"),
    ("systemctl", "/usr/bin/systemctl"),
    ("dmesg", "/usr/bin/dmesg"),
    ("journalctl", "/usr/bin/journalctl"),
    ("insmod", "/usr/sbin/insmod"),
    ("rmmod", "/usr/sbin/rmmod"),
    ("modinfo", "/usr/sbin/modinfo"),
    ("mokutil", "/usr/bin/mokutil"),
    ("update-grub", "/usr/sbin/update-grub"),
    ("dpkg", "/usr/bin/dpkg"),
    ("dpkg-query", "/usr/bin/dpkg-query"),
    ("update-alternatives", "/usr/bin/update-alternatives"),
    ("curl", "/usr/bin/curl"),
    ("sg", "/usr/bin/sg"),
];

/// Tools that come with a package: the package, the tool, its path.
const PACKAGE_TOOLS: &[(&str, &str, &str)] = &[
    ("dkms", "dkms", "/usr/sbin/dkms"),
    ("docker.io", "docker", "/usr/bin/docker"),
    ("podman", "podman", "/usr/bin/podman"),
    ("python3", "python3", "/usr/bin/python3"),
    (
        "amdgpu-install",
        "amdgpu-install",
        "/usr/bin/amdgpu-install",
    ),
];

/// The simulated tools present on this machine outside /opt/rocm (the lab installs wrappers for
/// them): every Ubuntu's, those of the installed packages, and `kubectl` and `helm` on machines
/// with a cluster.
pub fn system_tools(state: &State) -> Vec<SystemTool> {
    let tool = |&(name, path): &(&'static str, &'static str)| SystemTool { name, path };
    let mut v: Vec<SystemTool> = BASE_TOOLS.iter().map(tool).collect();
    v.extend(
        PACKAGE_TOOLS
            .iter()
            .filter(|(pkg, _, _)| state.installed(pkg))
            .map(|&(_, name, path)| SystemTool { name, path }),
    );
    if state.cluster.is_some() {
        v.extend(
            [("kubectl", "/usr/bin/kubectl"), ("helm", "/usr/bin/helm")]
                .iter()
                .map(tool),
        );
    }
    v
}

// Widths and calendar dates are shared with the command line, which must not depend on the
// simulator for them.
pub use rocm_unix::clock::{MONTHS, civil, weekday};
pub use rocm_width::pad_to as pad;

/// A column table as Go's tabwriter lays it out (kubectl): every cell but the last padded to
/// the column's width plus `gap`.
pub fn table(rows: &[Vec<String>], gap: usize, indent: &str) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![0; cols];
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            widths[i] = widths[i].max(c.chars().count());
        }
    }
    let mut s = String::new();
    for r in rows {
        s.push_str(indent);
        for (i, c) in r.iter().enumerate() {
            if i + 1 == r.len() {
                s.push_str(c);
            } else {
                s.push_str(&pad(c, widths[i] + gap));
            }
        }
        s.push('\n');
    }
    s
}

/// Would `open(path, O_RDWR)` by the caller succeed on this device node? Root always can; else
/// the owner, group or other bits decide, with the caller's *current* groups.
pub fn can_read_write(cx: &Ctx, node: &super::state::DevNode) -> bool {
    let node_ids = (node.owner.as_str(), node.group.as_str(), node.mode);
    rocm_unix::accounts::may_read_write_named(cx.root, node_ids, cx.caller.uid, &cx.gids())
}

/// May the caller create or replace the file at this sim path? Root may anywhere whose parent
/// exists; a user in their home and /tmp. `Err` carries strerror's text.
pub fn check_writable(cx: &Ctx, sim_path: &str) -> Result<(), &'static str> {
    let clean = super::fsx::normalize(sim_path, &cx.caller.cwd);
    let host = super::fsx::host(cx.root, &clean, "/");
    if !host.parent().is_some_and(|p| p.is_dir()) {
        return Err("No such file or directory");
    }
    if host.is_dir() {
        return Err("Is a directory");
    }
    if cx.caller.is_root() {
        return Ok(());
    }
    let home = format!("/home/{}/", cx.caller.user);
    if clean.starts_with(&home) || clean.starts_with("/tmp/") || clean.starts_with("/var/tmp/") {
        Ok(())
    } else {
        Err("Permission denied")
    }
}
