//! `amd-smi list` / `static` / `version`: the successor of rocm-smi. Without amdgpu it logs the
//! driver error (Python logging, on stderr) and lists nothing.

use super::super::Ctx;
use super::super::state::Driver;

const COMMANDS: &[&str] = &[
    "version",
    "list",
    "static",
    "firmware",
    "ucode",
    "bad-pages",
    "metric",
    "process",
    "profile",
    "event",
    "topology",
    "set",
    "reset",
    "monitor",
    "dmon",
    "xgmi",
    "partition",
];

fn version_line(cx: &Ctx) -> String {
    let rocm = cx.state.rocm_version().unwrap_or("N/A").to_string();
    format!(
        "AMD System Management Interface | Version: 24.6.3+9578815 | ROCm version: {rocm} | Platform: Linux Baremetal"
    )
}

fn help(cx: &Ctx) -> String {
    format!(
        "usage: amd-smi [-h]  ...\n\n{}\n\noptions:\n  -h, --help          show this help message and exit\n\nAMD-SMI Commands:\n                      Descriptions:\n    version           Display version information\n    list              List GPU information\n    static            Gets static information about the specified GPU\n    firmware (ucode)  Gets firmware information about the specified GPU\n    bad-pages         Gets bad page information about the specified GPU\n    metric            Gets metric/performance information about the specified GPU\n    process           Lists general process information running on the specified GPU\n    event             Displays event information for the given GPU\n    topology          Displays topology information of the devices\n    set               Set options for devices\n    reset             Reset options for devices\n    monitor (dmon)    Monitor metrics for target devices\n    xgmi              Displays xgmi information of the devices\n    partition         Displays partition information of the devices\n",
        version_line(cx)
    )
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let Some(cmd) = args.first() else {
        let h = help(cx);
        cx.print(&h);
        return 0;
    };
    if cmd == "-h" || cmd == "--help" {
        let h = help(cx);
        cx.print(&h);
        return 0;
    }
    if let Err(code) = check_args(cx, cmd, &args[1..]) {
        return code;
    }
    if cmd == "version" {
        let driver = match &cx.state.driver {
            Some(Driver::Dkms { version }) => version.clone(),
            Some(Driver::InTree) => cx.state.machine.kernel.clone(),
            None => "N/A".into(),
        };
        if let Some(r) = super::super::coresdk::running_release(cx) {
            // The line each release's install page shows, with this machine's driver.
            cx.println(&format!(
                "{} | ROCm version: {} | amdgpu version: {driver} | ionic version: N/A",
                r.amdsmi, r.version
            ));
            return 0;
        }
        let rocm = cx.state.rocm_version().unwrap_or("N/A").to_string();
        cx.println(&format!("AMDSMI Tool: 24.6.3+9578815 | AMDSMI Library version: 24.6.3.0 | ROCm version: {rocm} | amdgpu version: {driver}"));
        return 0;
    }
    if cx.state.driver.is_none() {
        cx.eprintln(
            "ERROR:root:Unable to get devices, driver not initialized (amdgpu not found in modules)",
        );
        return 0;
    }
    match cmd.as_str() {
        "list" => {
            let text = list(cx);
            cx.print(&text);
            0
        }
        "static" => {
            let want = static_args(&args[1..]).unwrap_or_default();
            let text = static_info(cx, &want);
            cx.print(&text);
            0
        }
        other => {
            cx.eprintln(&format!(
                "amd-smi {other}: this command is not available on the simulated machine"
            ));
            1
        }
    }
}

/// argparse's checks: a known command, and nothing after it but `-h`. `Err` is the exit code
/// after its complaint.
fn check_args(cx: &mut Ctx, cmd: &str, rest: &[String]) -> Result<(), i32> {
    if !COMMANDS.contains(&cmd) {
        let choices: Vec<String> = COMMANDS.iter().map(|c| format!("'{c}'")).collect();
        cx.eprintln("usage: amd-smi [-h]  ...");
        cx.eprintln(&format!(
            "amd-smi: error: argument : invalid choice: '{cmd}' (choose from {})",
            choices.join(", ")
        ));
        return Err(2);
    }
    let extra = if cmd == "static" {
        static_args(rest).err()
    } else {
        rest.iter().find(|a| *a != "-h" && *a != "--help").cloned()
    };
    if let Some(extra) = extra {
        cx.eprintln(&format!("usage: amd-smi {cmd} [-h]"));
        cx.eprintln(&format!(
            "amd-smi {cmd}: error: unrecognized arguments: {extra}"
        ));
        return Err(2);
    }
    Ok(())
}

/// `amd-smi list`: each GPU's addresses.
fn list(cx: &Ctx) -> String {
    let mut out = String::new();
    for (i, g) in cx.state.machine.gpus.iter().enumerate() {
        out.push_str(&format!(
            "GPU: {i}\n    BDF: {}\n    UUID: {}\n    KFD_ID: {}\n    NODE_ID: {}\n    PARTITION_ID: 0\n\n",
            g.bdf,
            g.amd_smi_uuid,
            g.kfd_id,
            i + 1
        ));
    }
    out
}

/// What `amd-smi static` was asked for: sections (none means all) and GPUs (none means all).
#[derive(Default)]
struct StaticArgs {
    sections: Vec<&'static str>,
    gpus: Vec<usize>,
}

/// The filters `amd-smi static` documents for the sections the simulated machine has
/// (`-a/--asic`, `-b/--bus`, `-d/--driver`, `-v/--vram`) and `-g/--gpu`. `Err` is the first
/// word argparse would not take.
fn static_args(rest: &[String]) -> Result<StaticArgs, String> {
    let mut want = StaticArgs::default();
    let mut it = rest.iter().peekable();
    while let Some(a) = it.next() {
        let section = match a.as_str() {
            "-h" | "--help" => continue,
            "-a" | "--asic" => "ASIC",
            "-b" | "--bus" => "BUS",
            "-d" | "--driver" => "DRIVER",
            "-v" | "--vram" => "VRAM",
            "-g" | "--gpu" => {
                let mut any = false;
                while let Some(n) = it.peek().and_then(|w| w.parse::<usize>().ok()) {
                    want.gpus.push(n);
                    any = true;
                    it.next();
                }
                if !any {
                    return Err(a.clone());
                }
                continue;
            }
            _ => return Err(a.clone()),
        };
        if !want.sections.contains(&section) {
            want.sections.push(section);
        }
    }
    Ok(want)
}

/// `amd-smi static`: each GPU's ASIC, bus, driver and VRAM facts (those `want` asks for).
fn static_info(cx: &Ctx, want: &StaticArgs) -> String {
    let driver = match &cx.state.driver {
        Some(Driver::Dkms { version }) => version.clone(),
        _ => cx.state.machine.kernel.clone(),
    };
    let kernel = &cx.state.machine.kernel;
    let mut out = String::new();
    for (i, g) in cx.state.machine.gpus.iter().enumerate() {
        if !want.gpus.is_empty() && !want.gpus.contains(&i) {
            continue;
        }
        let rev = g.pci.rev.clone().unwrap_or_else(|| "00".into());
        let oam = g.slot_type == "OAM";
        let all = format!(
            "GPU: {i}\n    ASIC:\n        MARKET_NAME: {}\n        VENDOR_ID: 0x1002\n        VENDOR_NAME: Advanced Micro Devices Inc. [AMD/ATI]\n        SUBVENDOR_ID: 0x1002\n        DEVICE_ID: 0x{:04x}\n        SUBSYSTEM_ID: {}\n        REV_ID: 0x{rev}\n        ASIC_SERIAL: 0x{}\n        OAM_ID: {}\n        NUM_COMPUTE_UNITS: {}\n        TARGET_GRAPHICS_VERSION: {}\n    BUS:\n        BDF: {}\n        MAX_PCIE_WIDTH: 16\n        MAX_PCIE_SPEED: {}\n        PCIE_INTERFACE_VERSION: {}\n        SLOT_TYPE: {}\n    DRIVER:\n        NAME: amdgpu\n        VERSION: {driver}\n        OS_KERNEL_VERSION: {kernel}\n    VRAM:\n        TYPE: {}\n        VENDOR: {}\n        SIZE: {} MB\n\n",
            g.marketing_name,
            g.chip_id,
            g.subsystem_id,
            &g.uuid[4..].to_uppercase(),
            if oam { i.to_string() } else { "N/A".into() },
            g.compute_units,
            g.gfx,
            g.bdf,
            g.pcie_speed,
            g.pcie_gen,
            g.slot_type,
            "HBM",
            if oam { "HYNIX" } else { "SAMSUNG" },
            g.vram_kb / 1024,
        );
        out.push_str(&sections(&all, &want.sections));
    }
    out
}

/// `text` (one GPU's `GPU: N` line and its sections) with only the `wanted` sections (all
/// when none is named).
fn sections(text: &str, wanted: &[&str]) -> String {
    if wanted.is_empty() {
        return text.to_string();
    }
    let mut out = String::new();
    let mut keep = false;
    for line in text.split_inclusive('\n') {
        if line.starts_with("GPU:") || line.trim().is_empty() {
            out.push_str(line);
            continue;
        }
        if !line.starts_with("        ") {
            keep = wanted.contains(&line.trim().trim_end_matches(':'));
        }
        if keep {
            out.push_str(line);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::testkit::Machine;

    #[test]
    fn static_takes_its_documented_filters() {
        let m = Machine::stage();
        let all = m.learner("amd-smi static");
        assert_eq!(all.code, 0, "{}", all.stderr);
        assert!(all.stdout.contains("ASIC:") && all.stdout.contains("VRAM:"));
        for (line, has, lacks) in [
            ("amd-smi static --asic", "MARKET_NAME", "VRAM:"),
            ("amd-smi static -a", "MARKET_NAME", "BUS:"),
            ("amd-smi static --vram", "SIZE:", "ASIC:"),
            ("amd-smi static -v -g 0", "SIZE:", "DRIVER:"),
        ] {
            let r = m.learner(line);
            assert_eq!(r.code, 0, "{line}: {}", r.stderr);
            assert!(r.stdout.starts_with("GPU: 0\n"), "{line}: {}", r.stdout);
            assert!(
                r.stdout.contains(has) && !r.stdout.contains(lacks),
                "{line}: {}",
                r.stdout
            );
        }
        let asic_vram = m.learner("amd-smi static --asic --vram").stdout;
        assert!(asic_vram.contains("MARKET_NAME") && asic_vram.contains("SIZE:"));
        assert!(!asic_vram.contains("BDF:"));
        assert_eq!(
            m.learner("amd-smi static --bogus").stderr.lines().nth(1),
            Some("amd-smi static: error: unrecognized arguments: --bogus")
        );
    }
}
