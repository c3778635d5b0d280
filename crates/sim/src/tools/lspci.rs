//! `lspci`: the machine's PCI devices, sorted by slot. An MI300X is a "Processing
//! accelerators" device, so `lspci | grep -i vga` does not show it.

use super::super::Ctx;
use super::super::machine::PciDevice;
use super::opts::{self, Error, Long, Short, Value};

/// pciutils' help text (Ubuntu build), printed after a bad option.
const HELP: &str = "Usage: lspci [<switches>]

Basic display modes:
-mm\t\tProduce machine-readable output (single -m for an obsolete format)
-t\t\tShow bus tree

Display options:
-v\t\tBe verbose (-vv or -vvv for higher verbosity)
-k\t\tShow kernel drivers handling each device
-x\t\tShow hex-dump of the standard part of the config space
-xxx\t\tShow hex-dump of the whole config space (dangerous; root only)
-xxxx\t\tShow hex-dump of the 4096-byte extended config space (root only)
-b\t\tBus-centric view (addresses and IRQ's as seen by the bus)
-D\t\tAlways show domain numbers
-P\t\tDisplay bridge path in addition to bus and device number
-PP\t\tDisplay bus path in addition to bus and device number

Resolving of device ID's to names:
-n\t\tShow numeric ID's
-nn\t\tShow both textual and numeric ID's (names & numbers)
-q\t\tQuery the PCI ID database for unknown ID's via DNS
-qq\t\tAs above, but re-query locally cached entries
-Q\t\tQuery the PCI ID database for all ID's via DNS

Selection of devices:
-s [[[[<domain>]:]<bus>]:][<slot>][.[<func>]]\tShow only devices in selected slots
-d [<vendor>]:[<device>][:<class>]\t\tShow only devices with specified ID's

Other options:
-i <file>\tUse specified ID database instead of /usr/share/misc/pci.ids
-p <file>\tLook up kernel modules in a given file instead of default modules.dep
-M\t\tEnable `bus mapping' mode (dangerous; root only)

PCI access options:
-A <method>\tUse the specified PCI access method (see `-A help' for a list)
-O <par>=<val>\tSet PCI access parameter (see `-O help' for a list)
-G\t\tEnable PCI access debugging
-H <mode>\tUse direct hardware access (<mode> = 1 or 2)
-F <file>\tRead PCI configuration dump from a given file
";

/// What the command line asks for.
#[derive(Debug, Default)]
struct Request {
    /// `-n` once: numbers; twice: names and numbers.
    numeric: u32,
    /// `-k` or `-v`: the kernel driver lines.
    kernel: bool,
    /// `-D`: the PCI domain in front of the slot.
    domain: bool,
    /// `-d VENDOR:DEVICE`.
    device: Option<String>,
    /// `-s SLOT`.
    slot: Option<String>,
}

/// Reads the options as pciutils' plain getopt does: short options only, so `--x` is the
/// option `-`. `Err` is the complaint and whether the help follows it.
fn parse(args: &[String]) -> Result<Request, (String, bool)> {
    let mut p = opts::parser(args);
    let mut r = Request::default();
    let mut operands = Vec::new();
    let getopt = |e: Error| (opts::getopt_message(&e), true);
    while let Some(arg) = p.next().map_err(getopt)? {
        match arg {
            Short('n') => r.numeric += 1,
            Short('k' | 'v') => r.kernel = true,
            Short('D') => r.domain = true,
            Short('d') => {
                let v = opts::value(&mut p).map_err(getopt)?;
                if !v.contains(':') {
                    return Err(("-d: Invalid device ID".into(), false));
                }
                r.device = Some(v);
            }
            Short('s') => r.slot = Some(opts::value(&mut p).map_err(getopt)?),
            Value(v) => operands.push(opts::text(v)),
            // Without long options getopt reads `--x` as the options `-` and `x`.
            Long(_) => return Err(("invalid option -- '-'".into(), true)),
            other => return Err(getopt(other.unexpected())),
        }
    }
    match operands.first() {
        Some(o) => Err((format!("Unexpected arguments: {o}"), false)),
        None => Ok(r),
    }
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let r = match parse(args) {
        Ok(r) => r,
        Err((m, help)) => {
            cx.eprintln(&format!("lspci: {m}"));
            if help {
                cx.eprint(HELP);
            }
            return 2;
        }
    };
    let loaded = cx.state.driver.is_some();
    let available = cx.state.loadable_driver().is_some();
    let mut out = String::new();
    for (d, is_gpu) in devices(cx) {
        if !selected(&r, &d) {
            continue;
        }
        out.push_str(&line(&r, &d));
        if r.kernel {
            out.push_str(&kernel_lines(&d, is_gpu, loaded, available));
        }
    }
    cx.print(&out);
    0
}

/// The machine's PCI functions by slot, each with whether it is a GPU.
fn devices(cx: &Ctx) -> Vec<(PciDevice, bool)> {
    let m = &cx.state.machine;
    let mut devices: Vec<(PciDevice, bool)> =
        m.other_pci.iter().map(|d| (d.clone(), false)).collect();
    for g in &m.gpus {
        devices.push((g.pci.clone(), true));
        devices.extend(g.pci_functions.iter().map(|d| (d.clone(), false)));
    }
    devices.sort_by(|a, b| a.0.slot.cmp(&b.0.slot));
    devices
}

/// Whether `-d` and `-s` let the device through.
fn selected(r: &Request, d: &PciDevice) -> bool {
    if let Some(f) = &r.device {
        let (fv, fd) = f.split_once(':').unwrap_or((f, ""));
        let (v, dd) = d.ids.split_once(':').unwrap_or((&d.ids, ""));
        if (!fv.is_empty() && !fv.eq_ignore_ascii_case(v))
            || (!fd.is_empty() && !fd.eq_ignore_ascii_case(dd))
        {
            return false;
        }
    }
    match &r.slot {
        Some(s) => d.slot.ends_with(s.as_str()) || d.slot.starts_with(s.as_str()),
        None => true,
    }
}

/// The device's first line, with names, numbers or both.
fn line(r: &Request, d: &PciDevice) -> String {
    let slot = if r.domain {
        format!("0000:{}", d.slot)
    } else {
        d.slot.clone()
    };
    let rev = d
        .rev
        .as_ref()
        .map(|r| format!(" (rev {r})"))
        .unwrap_or_default();
    match r.numeric {
        0 => format!("{slot} {}: {}{rev}\n", d.class, d.text),
        1 => format!("{slot} {}: {}{rev}\n", d.class_code, d.ids),
        _ => format!(
            "{slot} {} [{}]: {} [{}]{rev}\n",
            d.class, d.class_code, d.text, d.ids
        ),
    }
}

/// `-k`: the subsystem and the driver lines. A GPU's driver is amdgpu, in use once loaded.
fn kernel_lines(d: &PciDevice, is_gpu: bool, loaded: bool, available: bool) -> String {
    let mut out = String::new();
    if let Some(s) = &d.subsystem {
        out.push_str(&format!("\tSubsystem: {s}\n"));
    }
    if is_gpu {
        if loaded {
            out.push_str("\tKernel driver in use: amdgpu\n");
        }
        if available || loaded {
            out.push_str("\tKernel modules: amdgpu\n");
        }
    } else if let Some(drv) = &d.driver {
        out.push_str(&format!(
            "\tKernel driver in use: {drv}\n\tKernel modules: {drv}\n"
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::testkit::Machine;

    #[test]
    fn option_forms_and_complaints() {
        let m = Machine::stage();
        let amd = m.learner("lspci -nn -d 1002: -k");
        assert!(
            amd.stdout.contains("Kernel driver in use: amdgpu"),
            "{amd:?}"
        );
        for line in ["lspci -nnkd1002:", "lspci -k -d 1002: -n -n"] {
            assert_eq!(m.learner(line), amd, "{line}");
        }
        for (line, first) in [
            ("lspci -d", "lspci: option requires an argument -- 'd'"),
            ("lspci -z", "lspci: invalid option -- 'z'"),
            ("lspci --bogus", "lspci: invalid option -- '-'"),
            ("lspci -d 1002", "lspci: -d: Invalid device ID"),
            ("lspci foo -k", "lspci: Unexpected arguments: foo"),
        ] {
            assert_eq!(m.learner(line).complaint(), (first, 2), "{line}");
        }
    }
}
