//! `lsmod`: /proc/modules as kmod prints it (`%-19s %8lu  %d` then the holders). Modules loaded
//! last come first, so amdgpu and its helpers head the list after a `modprobe`.

use super::super::Ctx;
use super::super::machine::Module;
use super::super::state::{Driver, State};

/// The modules amdgpu brings in, in /proc/modules order (facts sheet sizes for amdgpu).
pub fn amdgpu_modules(state: &State) -> Vec<Module> {
    // A display keeps amdgpu busy on a workstation; a compute server's refcount is low.
    let busy = !state.machine.bmc_vga;
    match &state.driver {
        None => vec![],
        Some(Driver::InTree) => vec![
            Module::new("amdgpu", 16007168, if busy { 22 } else { 0 }, &[]),
            Module::new("amdxcp", 12288, 1, &["amdgpu"]),
            Module::new("drm_exec", 12288, 1, &["amdgpu"]),
            Module::new("gpu_sched", 61440, 1, &["amdgpu"]),
            Module::new("drm_buddy", 20480, 1, &["amdgpu"]),
            Module::new("drm_suballoc_helper", 16384, 1, &["amdgpu"]),
            Module::new("drm_ttm_helper", 12288, 1, &["amdgpu"]),
            Module::new("ttm", 110592, 2, &["amdgpu", "drm_ttm_helper"]),
            Module::new("i2c_algo_bit", 16384, 1, &["amdgpu"]),
            Module::new("drm_display_helper", 237568, 1, &["amdgpu"]),
            Module::new("cec", 94208, 1, &["drm_display_helper"]),
            Module::new("video", 73728, 1, &["amdgpu"]),
        ],
        Some(Driver::Dkms { .. }) => vec![
            Module::new("amdgpu", 17424384, if busy { 4 } else { 0 }, &[]),
            Module::new("amddrm_ttm_helper", 12288, 1, &["amdgpu"]),
            Module::new("amdttm", 110592, 2, &["amdgpu", "amddrm_ttm_helper"]),
            Module::new("amdxcp", 12288, 1, &["amdgpu"]),
            Module::new("amddrm_buddy", 20480, 1, &["amdgpu"]),
            Module::new("amd_sched", 61440, 1, &["amdgpu"]),
            Module::new(
                "amdkcl",
                32768,
                4,
                &["amdttm", "amddrm_buddy", "amd_sched", "amdgpu"],
            ),
            Module::new("i2c_algo_bit", 16384, 1, &["amdgpu"]),
            Module::new("drm_display_helper", 237568, 1, &["amdgpu"]),
            Module::new("cec", 94208, 1, &["drm_display_helper"]),
            Module::new("video", 73728, 1, &["amdgpu"]),
        ],
    }
}

/// Everything loaded now, in /proc/modules order.
pub fn loaded(state: &State) -> Vec<Module> {
    let mut v = amdgpu_modules(state);
    v.extend(state.machine.base_modules.iter().cloned());
    v
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    if !args.is_empty() {
        cx.eprintln("Usage: lsmod");
        return 1;
    }
    let mut s = String::from("Module                  Size  Used by\n");
    for m in loaded(cx.state) {
        s.push_str(&format!("{:<19} {:>8}  {}", m.name, m.size, m.used));
        if !m.holders.is_empty() {
            s.push(' ');
            s.push_str(&m.holders.join(","));
        }
        s.push('\n');
    }
    cx.print(&s);
    0
}
