//! A machine whose amdgpu does not come up at boot, for a reason that differs between lab
//! starts: a `blacklist amdgpu` left in /etc/modprobe.d, or `nomodeset` in GRUB's command
//! line. The stage writes the cause and boots once from that configuration, so the kernel log
//! tells the story a real machine's would.

use std::path::Path;

use super::fsx;
use super::kernel;
use super::state::State;

/// The causes a lab may ask for.
pub const CAUSES: &[&str] = &["blacklist", "nomodeset"];

/// Which cause this start gets: `ROCM_SIM_VARIANT` when it names one of `allowed` (tests pick
/// one), else one chosen by the clock.
pub fn pick(allowed: &[String]) -> Option<String> {
    if allowed.is_empty() {
        return None;
    }
    if let Ok(v) = std::env::var("ROCM_SIM_VARIANT")
        && allowed.contains(&v)
    {
        return Some(v);
    }
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos() as usize)
        .unwrap_or(0);
    Some(allowed[nanos % allowed.len()].clone())
}

/// Writes the cause into the machine's configuration and boots from it.
pub fn apply(root: &Path, state: &mut State, cause: &str) -> Result<(), String> {
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
