//! `lspci`: the machine's PCI devices, sorted by slot. An MI300X is a "Processing
//! accelerators" device, so `lspci | grep -i vga` does not show it.

use super::super::Ctx;
use super::super::machine::PciDevice;
use super::split_short;

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

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let args = split_short(args, "sdiApOHF");
    let (mut numeric, mut kernel, mut domain) = (0, false, false);
    let mut dev_filter: Option<String> = None;
    let mut slot_filter: Option<String> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-n" => numeric += 1,
            "-k" | "-v" => kernel = true,
            "-D" => domain = true,
            "-d" | "-s" => {
                let Some(v) = it.next() else {
                    cx.eprintln(&format!(
                        "lspci: option requires an argument -- '{}'",
                        &a[1..]
                    ));
                    cx.eprint(HELP);
                    return 2;
                };
                if a == "-d" {
                    if !v.contains(':') {
                        cx.eprintln("lspci: -d: Invalid device ID");
                        return 2;
                    }
                    dev_filter = Some(v.clone());
                } else {
                    slot_filter = Some(v.clone());
                }
            }
            o if o.starts_with("--") => {
                cx.eprintln(&format!("lspci: unrecognized option '{o}'"));
                cx.eprint(HELP);
                return 2;
            }
            o if o.starts_with('-') => {
                cx.eprintln(&format!("lspci: invalid option -- '{}'", &o[1..]));
                cx.eprint(HELP);
                return 2;
            }
            o => {
                cx.eprintln(&format!("lspci: Unexpected arguments: {o}"));
                return 2;
            }
        }
    }
    let m = &cx.state.machine;
    let mut devices: Vec<(PciDevice, bool)> =
        m.other_pci.iter().map(|d| (d.clone(), false)).collect();
    for g in &m.gpus {
        devices.push((g.pci.clone(), true));
        devices.extend(g.pci_functions.iter().map(|d| (d.clone(), false)));
    }
    devices.sort_by(|a, b| a.0.slot.cmp(&b.0.slot));
    let loaded = cx.state.driver.is_some();
    let available = cx.state.loadable_driver().is_some();
    let mut out = String::new();
    for (d, is_gpu) in devices {
        if let Some(f) = &dev_filter {
            let (fv, fd) = f.split_once(':').unwrap_or((f, ""));
            let (v, dd) = d.ids.split_once(':').unwrap_or((&d.ids, ""));
            if (!fv.is_empty() && !fv.eq_ignore_ascii_case(v))
                || (!fd.is_empty() && !fd.eq_ignore_ascii_case(dd))
            {
                continue;
            }
        }
        if let Some(s) = &slot_filter
            && !d.slot.ends_with(s.as_str())
            && !d.slot.starts_with(s.as_str())
        {
            continue;
        }
        let slot = if domain {
            format!("0000:{}", d.slot)
        } else {
            d.slot.clone()
        };
        let rev = d
            .rev
            .as_ref()
            .map(|r| format!(" (rev {r})"))
            .unwrap_or_default();
        let line = match numeric {
            0 => format!("{slot} {}: {}{rev}", d.class, d.text),
            1 => format!("{slot} {}: {}{rev}", d.class_code, d.ids),
            _ => format!(
                "{slot} {} [{}]: {} [{}]{rev}",
                d.class, d.class_code, d.text, d.ids
            ),
        };
        out.push_str(&line);
        out.push('\n');
        if kernel {
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
        }
    }
    cx.print(&out);
    0
}
