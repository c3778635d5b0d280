//! A machine whose amdgpu does not come up at boot, for a reason that differs between lab
//! starts: a `blacklist amdgpu` left in /etc/modprobe.d, `nomodeset` in GRUB's command line,
//! or a kernel upgrade that left the new kernel without any amdgpu module (DKMS built it only
//! for the previous kernel: the new kernel's headers were never installed, and neither was its
//! linux-modules-extra). The stage writes the cause and boots once from that configuration, so
//! the kernel log tells the story a real machine's would.

use std::path::Path;

use super::fsx;
use super::host::Host;
use super::kernel;
use super::pkgs;
use super::state::State;

/// The causes a lab may ask for.
pub const CAUSES: &[&str] = &["blacklist", "nomodeset", "dkms"];

/// Which cause this start gets: `host`'s `ROCM_SIM_VARIANT` when it names one of `allowed`
/// (tests pick one), else one chosen by `host`'s clock.
pub fn pick(allowed: &[String], host: &dyn Host) -> Option<String> {
    if allowed.is_empty() {
        return None;
    }
    if let Some(v) = super::host::var(host, "ROCM_SIM_VARIANT")
        && allowed.contains(&v)
    {
        return Some(v);
    }
    let nanos = host.now().subsec_nanos() as usize;
    Some(allowed[nanos % allowed.len()].clone())
}

/// The kernel before `kernel` in Ubuntu's numbering (`6.8.0-52-generic` -> `6.8.0-51-generic`).
pub fn previous_kernel(kernel: &str) -> Option<String> {
    let (base, rest) = kernel.rsplit_once('-')?;
    let (version, abi) = base.rsplit_once('-')?;
    let abi: u32 = abi.parse().ok()?;
    Some(format!("{version}-{}-{rest}", abi.checked_sub(1)?))
}

/// The machine after a kernel upgrade that brought only the kernel image: amdgpu-dkms is
/// installed and built for the previous kernel (with that kernel's headers), the running
/// kernel has neither headers nor linux-modules-extra, so no amdgpu module exists for it.
fn upgraded_without_dkms_build(root: &Path, state: &mut State, bin: &str) -> Result<(), String> {
    let running = state.machine.kernel.clone();
    let old = previous_kernel(&running)
        .ok_or_else(|| format!("wont_load: cannot tell the kernel before {running}"))?;
    let avail = pkgs::available(state);
    let wanted = ["amdgpu-dkms".to_string()];
    let list = pkgs::resolve(state, &avail, &wanted)
        .map_err(|n| format!("wont_load: dkms needs rocm_installed (AMD's repository has {n})"))?;
    for p in &list {
        pkgs::install(root, state, p, bin).map_err(|e| e.to_string())?;
    }
    for d in state.dkms.iter_mut().filter(|d| d.module == "amdgpu") {
        d.kernel = old.clone();
    }
    let extra = format!("linux-modules-extra-{running}");
    // The previous kernel's packages stay; its version numbers follow the running one's.
    if let Some(mut p) = state.packages.remove(&extra) {
        p.version = p.version.replace(
            running.trim_end_matches("-generic"),
            old.trim_end_matches("-generic"),
        );
        state
            .packages
            .insert(format!("linux-modules-extra-{old}"), p.clone());
        state.packages.insert(format!("linux-headers-{old}"), p);
    }
    state.in_tree_module = false;
    Ok(())
}

/// Writes the cause into the machine's configuration and boots from it.
pub fn apply(root: &Path, state: &mut State, cause: &str, bin: &str) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    match cause {
        "blacklist" => {
            std::fs::create_dir_all(root.join("etc/modprobe.d")).map_err(io)?;
            fsx::write_atomic(
                &root.join("etc/modprobe.d/blacklist-amdgpu.conf"),
                b"# Keep amdgpu off while the display issue is investigated.\nblacklist amdgpu\n",
            )
            .map_err(io)?;
        }
        "nomodeset" => {
            let path = root.join("etc/default/grub");
            let text = fsx::read_opt(&path).unwrap_or_else(|| kernel::default_grub_file(state));
            let edited: String = text
                .lines()
                .map(|l| match l.strip_prefix("GRUB_CMDLINE_LINUX_DEFAULT=\"") {
                    Some(rest) => {
                        let v = rest.trim_end_matches('"');
                        let sep = if v.is_empty() { "" } else { " " };
                        format!("GRUB_CMDLINE_LINUX_DEFAULT=\"{v}{sep}nomodeset\"\n")
                    }
                    None => format!("{l}\n"),
                })
                .collect();
            fsx::write_atomic(&path, edited.as_bytes()).map_err(io)?;
            // update-grub ran after the edit, so the boot loader passes it on.
            state.boot.grub_cmdline = kernel::cmdline_from_grub(root, state);
        }
        "dkms" => upgraded_without_dkms_build(root, state, bin)?,
        other => {
            return Err(format!(
                "wont_load: unknown cause \"{other}\" (known: {})",
                CAUSES.join(", ")
            ));
        }
    }
    kernel::boot(state, root);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::previous_kernel;

    #[test]
    fn the_previous_kernel_is_one_abi_number_down() {
        assert_eq!(
            previous_kernel("6.8.0-52-generic").as_deref(),
            Some("6.8.0-51-generic")
        );
        assert_eq!(
            previous_kernel("5.15.0-125-generic").as_deref(),
            Some("5.15.0-124-generic")
        );
        assert_eq!(previous_kernel("6.8.0-0-generic"), None);
        assert_eq!(previous_kernel("generic"), None);
    }
}
