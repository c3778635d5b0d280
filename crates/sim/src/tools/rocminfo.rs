//! `rocminfo`: the HSA runtime's view of the machine.
//!
//! Start-up follows rocminfo.cc: the ROCk (amdgpu) module line, then `open("/dev/kfd", O_RDWR)`;
//! if that fails it diagnoses the caller's membership of the group owning /dev/kfd (from the
//! group *database*, which is why a fresh `usermod` already says "is member") and exits 1
//! without starting the runtime; without the module it stops after the first line. Those
//! start-up lines carry the real tool's ANSI colours (white for information, red for errors).
//! The layout pads labels to 25 columns and most values to 35 (with trailing spaces). Only the
//! last argument counts: `-h`, `-c`, `-g`, `-s`, `-v`, `-ver`; anything else prints everything.

use super::super::machine::Gpu;
use super::super::state::Driver;
use super::super::{Ctx, accounts};
use super::{can_read_write, pad};

fn hex(n: u64) -> String {
    format!("{n}(0x{n:x})")
}

struct W(String);

impl W {
    /// Label padded to 25 and value padded to 35 (the usual rocminfo line).
    fn kv(&mut self, indent: usize, label: &str, value: &str) {
        self.0.push_str(&format!(
            "{}{}{}\n",
            " ".repeat(indent),
            pad(label, 25),
            pad(value, 35)
        ));
    }
    /// Label padded to 25, value as is.
    fn k_raw(&mut self, indent: usize, label: &str, value: &str) {
        self.0.push_str(&format!(
            "{}{}{}\n",
            " ".repeat(indent),
            pad(label, 25),
            value
        ));
    }
    fn line(&mut self, indent: usize, text: &str) {
        self.0
            .push_str(&format!("{}{}\n", " ".repeat(indent), pad(text, 25)));
    }
}

const WHT: &str = "\x1B[37m";
const RED: &str = "\x1B[31m";
const RESET: &str = "\x1B[0m";

/// rocminfo's `CheckInitialState`: the module line, then the /dev/kfd open and its diagnosis.
/// `Err(())` means rocminfo exits 1 here.
fn initial_state(cx: &mut Ctx) -> Result<(), ()> {
    match &cx.state.driver {
        Some(Driver::Dkms { version }) => {
            let l = format!("{WHT}ROCk module version {version} is loaded{RESET}");
            cx.println(&l);
        }
        Some(Driver::InTree) => cx.println(&format!("{WHT}ROCk module is loaded{RESET}")),
        None => {
            cx.println(&format!(
                "{RED}ROCk module is NOT loaded, possibly no GPU devices{RESET}"
            ));
            return Err(());
        }
    }
    let kfd = cx.state.device("/dev/kfd").cloned();
    let error = match &kfd {
        None => "No such file or directory",
        Some(n) if !can_read_write(cx, n) => "Permission denied",
        Some(_) => return Ok(()),
    };
    cx.println(&format!(
        "{RED}Unable to open /dev/kfd read-write: {error}{RESET}"
    ));
    // The group owning /dev/kfd (if /etc/group knows it), else "video".
    let db = accounts::Groups::load(cx.root);
    let group = kfd
        .map(|n| n.group)
        .filter(|g| db.by_name(g).is_some())
        .unwrap_or_else(|| "video".into());
    if db.by_name(&group).is_none() {
        cx.println(&format!(
            "{RED}Failed to get group info to check for {group} group membership{RESET}"
        ));
        return Err(());
    }
    // getlogin_r: the login name, whoever the effective user is.
    let user = cx.caller.user.clone();
    if accounts::user(cx.root, &user).is_none() {
        cx.println(&format!(
            "{RED}Failed to find pwd entry for user {user}{RESET}"
        ));
        return Err(());
    }
    // getgrouplist: the group *database*, not the running session.
    if accounts::is_member(cx.root, &user, &group) {
        cx.println(&format!("{WHT}{user} is member of {group} group{RESET}"));
    } else {
        cx.println(&format!("{RED}{user} is not member of \"{group}\" group, the default DRM access group. Users must be a member of the \"{group}\" group or another DRM access group in order for ROCm applications to run successfully{RESET}."));
    }
    Err(())
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    if initial_state(cx).is_err() {
        return 1;
    }
    // rocminfo looks only at its last argument; anything unknown means the full report.
    let option = args.last().map(String::as_str).unwrap_or("");
    let mut w = W(String::new());
    w.line(0, "=====================");
    w.line(0, "HSA System Attributes");
    w.line(0, "=====================");
    match option {
        "-h" | "--help" => {
            w.0.push_str("Usage: <rocminfo> [options]\nAvailable options:\n");
            for (short, long, what) in [
                ("h", "help", "Display this help message"),
                ("ver", "version", "Print rocm version information"),
                ("v", "verbose", "Enable verbose output"),
                ("c", "CPU", "Display CPU details"),
                ("g", "GPU", "Display GPU details"),
                ("s", "Sys", "Display System details"),
            ] {
                w.0.push_str(&format!("-{short}  --{long}: {what}\n"));
            }
        }
        "-ver" | "--version" => {
            if let Some(Driver::Dkms { version }) = &cx.state.driver {
                w.0.push_str(&format!(
                    "{WHT}ROCk module version {version} is loaded{RESET}\n"
                ));
            }
        }
        "-v" | "--verbose" => {}
        "-c" | "--CPU" => cpu_agent(&mut w, &cx.state.machine),
        "-g" | "--GPU" => {
            for (i, g) in cx.state.machine.gpus.iter().enumerate() {
                gpu_agent(&mut w, g, i as u32 + 1);
            }
        }
        "-s" | "--Sys" => system(&mut w, super::super::coresdk::running(cx)),
        _ => report(&mut w, cx),
    }
    cx.print(&w.0);
    0
}

fn system(w: &mut W, core_sdk: bool) {
    // HSA runtime of ROCm 6.2/6.3; 1.21 is what INSTALL-10.0.0's example shows for the Core
    // SDK's runtime.
    let runtime = if core_sdk { "1.21" } else { "1.14" };
    w.k_raw(0, "Runtime Version:", runtime);
    w.k_raw(0, "Runtime Ext Version:", "1.6");
    w.k_raw(0, "System Timestamp Freq.:", "1000.000000MHz");
    w.k_raw(
        0,
        "Sig. Max Wait Duration:",
        "18446744073709551615 (0xFFFFFFFFFFFFFFFF) (timestamp count)",
    );
    w.kv(0, "Machine Model:", "LARGE");
    w.kv(0, "System Endianness:", "LITTLE");
    w.k_raw(0, "Mwaitx:", "DISABLED");
    w.k_raw(0, "XNACK enabled:", "NO");
    w.k_raw(0, "DMAbuf Support:", "YES");
    w.k_raw(0, "VMM Support:", "YES");
    w.0.push('\n');
}

fn report(w: &mut W, cx: &Ctx) {
    system(w, super::super::coresdk::running(cx));
    w.line(0, "==========");
    w.line(0, "HSA Agents");
    w.line(0, "==========");
    let m = &cx.state.machine;
    agent_header(w, 1);
    cpu_agent(w, m);
    for (i, g) in m.gpus.iter().enumerate() {
        agent_header(w, i + 2);
        gpu_agent(w, g, i as u32 + 1);
    }
    w.line(0, "*** Done ***");
}

fn agent_header(w: &mut W, n: usize) {
    w.line(0, "*******");
    w.line(0, &format!("Agent {n}"));
    w.line(0, "*******");
}

fn cpu_agent(w: &mut W, m: &super::super::machine::Machine) {
    let c = &m.cpu;
    w.kv(2, "Name:", &c.name);
    w.kv(2, "Uuid:", "CPU-XX");
    w.kv(2, "Marketing Name:", &c.name);
    w.kv(2, "Vendor Name:", "CPU");
    w.kv(2, "Feature:", "None specified");
    w.kv(2, "Profile:", "FULL_PROFILE");
    w.kv(2, "Float Round Mode:", "NEAR");
    w.kv(2, "Max Queue Number:", &hex(0));
    w.kv(2, "Queue Min Size:", &hex(0));
    w.kv(2, "Queue Max Size:", &hex(0));
    w.kv(2, "Queue Type:", "MULTI");
    w.kv(2, "Node:", "0");
    w.kv(2, "Device Type:", "CPU");
    w.line(2, "Cache Info:");
    w.kv(4, "L1:", &format!("{} KB", hex(32768)));
    w.kv(2, "Chip ID:", &hex(0));
    w.kv(2, "ASIC Revision:", &hex(0));
    w.kv(2, "Cacheline Size:", &hex(64));
    w.kv(2, "Max Clock Freq. (MHz):", &c.max_clock_mhz.to_string());
    w.kv(2, "BDFID:", "0");
    w.kv(2, "Internal Node ID:", "0");
    w.kv(2, "Compute Unit:", &c.threads.to_string());
    w.kv(2, "SIMDs per CU:", "0");
    w.kv(2, "Shader Engines:", "0");
    w.kv(2, "Shader Arrs. per Eng.:", "0");
    w.kv(2, "WatchPts on Addr. Ranges:", "1");
    w.line(2, "Memory Properties:");
    w.k_raw(2, "Features:", "None");
    w.line(2, "Pool Info:");
    for (i, flags) in ["FINE GRAINED", "KERNARG, FINE GRAINED", "COARSE GRAINED"]
        .iter()
        .enumerate()
    {
        pool(
            w,
            i + 1,
            &format!("GLOBAL; FLAGS: {flags}"),
            c.memory_kb,
            true,
            "4KB",
            "4KB",
            true,
        );
    }
    w.line(2, "ISA Info:");
}

#[allow(clippy::too_many_arguments)]
fn pool(
    w: &mut W,
    n: usize,
    segment: &str,
    kb: u64,
    alloc: bool,
    granule: &str,
    recommended: &str,
    all: bool,
) {
    w.line(4, &format!("Pool {n}"));
    w.kv(6, "Segment:", segment);
    w.kv(6, "Size:", &format!("{} KB", hex(kb)));
    w.kv(6, "Allocatable:", if alloc { "TRUE" } else { "FALSE" });
    w.kv(6, "Alloc Granule:", granule);
    w.kv(6, "Alloc Recommended Granule:", recommended);
    w.kv(6, "Alloc Alignment:", granule);
    w.kv(6, "Accessible by all:", if all { "TRUE" } else { "FALSE" });
}

fn dims(w: &mut W, indent: usize, xyz: [u64; 3]) {
    for (axis, v) in ["x", "y", "z"].iter().zip(xyz) {
        w.kv(indent, axis, &hex(v));
    }
}

fn bdfid(slot: &str) -> u32 {
    let (bus, rest) = slot.split_once(':').unwrap_or(("0", "0.0"));
    let (dev, func) = rest.split_once('.').unwrap_or(("0", "0"));
    let p = |s: &str| u32::from_str_radix(s, 16).unwrap_or(0);
    (p(bus) << 8) | (p(dev) << 3) | p(func)
}

fn gpu_agent(w: &mut W, g: &Gpu, node: u32) {
    w.kv(2, "Name:", &g.gfx);
    w.kv(2, "Uuid:", &g.uuid);
    w.kv(2, "Marketing Name:", &g.marketing_name);
    w.kv(2, "Vendor Name:", "AMD");
    w.kv(2, "Feature:", "KERNEL_DISPATCH");
    w.kv(2, "Profile:", "BASE_PROFILE");
    w.kv(2, "Float Round Mode:", "NEAR");
    w.kv(2, "Max Queue Number:", &hex(128));
    w.kv(2, "Queue Min Size:", &hex(64));
    w.kv(2, "Queue Max Size:", &hex(131072));
    w.kv(2, "Queue Type:", "MULTI");
    w.kv(2, "Node:", &node.to_string());
    w.kv(2, "Device Type:", "GPU");
    w.line(2, "Cache Info:");
    w.kv(4, "L1:", &format!("{} KB", hex(g.l1_kb)));
    w.kv(4, "L2:", &format!("{} KB", hex(g.l2_kb)));
    if let Some(l3) = g.l3_kb {
        w.kv(4, "L3:", &format!("{} KB", hex(l3)));
    }
    w.kv(2, "Chip ID:", &hex(u64::from(g.chip_id)));
    w.kv(2, "ASIC Revision:", &hex(u64::from(g.asic_revision)));
    w.kv(2, "Cacheline Size:", &hex(u64::from(g.cacheline)));
    w.kv(2, "Max Clock Freq. (MHz):", &g.max_clock_mhz.to_string());
    w.kv(2, "BDFID:", &bdfid(&g.pci.slot).to_string());
    w.kv(2, "Internal Node ID:", &node.to_string());
    w.kv(2, "Compute Unit:", &g.compute_units.to_string());
    w.kv(2, "SIMDs per CU:", &g.simds_per_cu.to_string());
    w.kv(2, "Shader Engines:", &g.shader_engines.to_string());
    w.kv(2, "Shader Arrs. per Eng.:", "1");
    w.kv(2, "WatchPts on Addr. Ranges:", "4");
    w.kv(2, "Coherent Host Access:", "FALSE");
    w.line(2, "Memory Properties:");
    w.k_raw(2, "Features:", "KERNEL_DISPATCH ");
    w.kv(2, "Fast F16 Operation:", "TRUE");
    w.kv(2, "Wavefront Size:", &hex(64));
    w.kv(2, "Workgroup Max Size:", &hex(1024));
    w.0.push_str("  Workgroup Max Size per Dimension:\n");
    dims(w, 4, [1024, 1024, 1024]);
    w.kv(2, "Max Waves Per CU:", &hex(u64::from(g.max_waves_per_cu)));
    w.kv(
        2,
        "Max Work-item Per CU:",
        &hex(u64::from(g.max_waves_per_cu) * 64),
    );
    w.kv(2, "Grid Max Size:", &hex(4294967295));
    w.0.push_str("  Grid Max Size per Dimension:\n");
    dims(w, 4, [2147483647, 65535, 65535]);
    w.kv(2, "Max fbarriers/Workgrp:", "32");
    w.kv(2, "Packet Processor uCode::", &g.pp_ucode.to_string());
    w.kv(2, "SDMA engine uCode::", &g.sdma_ucode.to_string());
    w.kv(2, "IOMMU Support::", "None");
    w.line(2, "Pool Info:");
    pool(
        w,
        1,
        "GLOBAL; FLAGS: COARSE GRAINED",
        g.vram_kb,
        true,
        "4KB",
        "2048KB",
        false,
    );
    pool(
        w,
        2,
        "GLOBAL; FLAGS: FINE GRAINED",
        g.vram_kb,
        true,
        "4KB",
        "2048KB",
        false,
    );
    pool(w, 3, "GROUP", 64, false, "0KB", "0KB", false);
    w.line(2, "ISA Info:");
    for (i, isa) in g.isas.iter().enumerate() {
        w.line(4, &format!("ISA {}", i + 1));
        w.kv(6, "Name:", isa);
        w.kv(6, "Machine Models:", "HSA_MACHINE_MODEL_LARGE");
        w.kv(6, "Profiles:", "HSA_PROFILE_BASE");
        w.kv(6, "Default Rounding Mode:", "NEAR");
        w.kv(6, "Default Rounding Mode:", "NEAR");
        w.kv(6, "Fast f16:", "TRUE");
        w.kv(6, "Workgroup Max Size:", &hex(1024));
        w.0.push_str("      Workgroup Max Size per Dimension:\n");
        dims(w, 8, [1024, 1024, 1024]);
        w.kv(6, "Grid Max Size:", &hex(4294967295));
        w.0.push_str("      Grid Max Size per Dimension:\n");
        dims(w, 8, [2147483647, 65535, 65535]);
        w.kv(6, "FBarrier Max Size:", "32");
    }
}
