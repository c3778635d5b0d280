//! `rocm-smi`: the concise table (column widths computed like rocm_smi.py: widest cell + 2),
//! `--showproductname`, `-i`/`--showid` and `--showdriverversion` sections (90-column spacers),
//! and the driver check it makes before anything else. Without amdgpu it logs an error and
//! exits 0, as the real script does (`exit(0)` after `logging.error`).

use super::super::Ctx;
use super::super::machine::Gpu;
use super::pad;

const USAGE: &str = "usage: rocm-smi [-h] [-V] [-d DEVICE [DEVICE ...]] [--alldevices] [--showhw] [-a] [-i] [-v] [-e [EVENT ...]]
                [--showdriverversion] [--showtempgraph] [--showfwinfo [BLOCK ...]] [--showmclkrange] [--showmemvendor]
                [--showsclkrange] [--showproductname] [--showserial] [--showuniqueid] [--showvoltagerange] [--showbus]
                [--showpagesinfo] [--showpendingpages] [--showretiredpages] [--showunreservablepages] [-f] [-P] [-t] [-u]
                [--showmemuse] [--showvoltage] [-b] [-c] [-g] [-l] [-M] [-m] [-o] [-p] [-S] [-s] [--showmeminfo TYPE [TYPE ...]]
                [--showpids [VERBOSE]] [--showpidgpus [SHOWPIDGPUS ...]] [--showreplaycount] [--showrasinfo [SHOWRASINFO ...]]
                [--showvc] [--showxgmierr] [--showtopo] [--showtopoaccess] [--showtopoweight] [--showtopohops] [--showtopotype]
                [--showtoponuma] [--showenergycounter] [--shownodesbw] [--showcomputepartition] [--showmemorypartition] [-r]
                [--resetfans] [--resetprofile] [--resetpoweroverdrive] [--resetxgmierr] [--resetperfdeterminism]
                [--resetcomputepartition] [--resetmemorypartition] [--setclock TYPE LEVEL] [--setsclk LEVEL [LEVEL ...]]
                [--setmclk LEVEL [LEVEL ...]] [--setpcie LEVEL [LEVEL ...]] [--setslevel SCLKLEVEL SCLK SVOLT]
                [--setmlevel MCLKLEVEL MCLK MVOLT] [--setvc POINT SCLK SVOLT] [--setsrange SCLKMIN SCLKMAX]
                [--setextremum min|max sclk|mclk CLK] [--setmrange MCLKMIN MCLKMAX] [--setfan LEVEL]
                [--setperflevel LEVEL] [--setoverdrive %] [--setmemoverdrive %] [--setpoweroverdrive WATTS]
                [--setprofile SETPROFILE] [--setperfdeterminism SCLK] [--setcomputepartition {CPX,SPX,DPX,TPX,QPX,cpx,spx,dpx,tpx,qpx}]
                [--setmemorypartition {NPS1,NPS2,NPS4,NPS8,nps1,nps2,nps4,nps8}] [--rasenable BLOCK ERRTYPE]
                [--rasdisable BLOCK ERRTYPE] [--rasinject BLOCK] [--gpureset] [--load FILE | --save FILE]
                [--autorespond RESPONSE] [--loglevel LEVEL] [--json] [--csv]
";

/// rocm-smi's `appWidth` for everything but the concise table.
const APP_WIDTH: usize = 90;

/// `printLogSpacer`: the title centred in `=` (an odd title gets one more `=`).
fn log_spacer(title: &str) -> String {
    if title.is_empty() {
        return "=".repeat(APP_WIDTH);
    }
    let mut t = title.to_string();
    if t.len() % 2 == 1 {
        t.push('=');
    }
    let side = "=".repeat((APP_WIDTH - t.len()) / 2);
    format!("{side}{t}{side}")
}

#[derive(Clone, Copy, PartialEq)]
enum Section {
    Product,
    Id,
    Driver,
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        cx.print(USAGE);
        cx.println("\nAMD ROCm System Management Interface | ROCM-SMI version: 3.0.0+unknown");
        return 0;
    }
    // argparse reports every argument it does not know at once.
    let mut sections = Vec::new();
    let mut bad: Vec<&str> = Vec::new();
    for a in args {
        match a.as_str() {
            "--showproductname" => sections.push(Section::Product),
            "-i" | "--showid" => sections.push(Section::Id),
            "--showdriverversion" => sections.push(Section::Driver),
            other => bad.push(other),
        }
    }
    if !bad.is_empty() {
        cx.eprint(USAGE);
        cx.eprintln(&format!(
            "rocm-smi: error: unrecognized arguments: {}",
            bad.join(" ")
        ));
        return 2;
    }
    if cx.state.driver.is_none() {
        // rocm-smi reads the module's state with cat before it gives up.
        cx.eprintln("cat: /sys/module/amdgpu/initstate: No such file or directory");
        cx.eprintln("ERROR:root:Driver not initialized (amdgpu not found in modules)");
        return 0;
    }
    let text = if sections.is_empty() {
        concise(cx)
    } else {
        report(cx, &sections)
    };
    cx.print(&text);
    0
}

/// The log of the sections asked for, each with a line per GPU and field.
fn report(cx: &Ctx, sections: &[Section]) -> String {
    let mut out = String::new();
    out.push_str(&log_spacer(" ROCm System Management Interface "));
    out.push('\n');
    let driver = match &cx.state.driver {
        Some(super::super::state::Driver::Dkms { version }) => version.clone(),
        _ => cx.state.machine.kernel.clone(),
    };
    for &sec in sections {
        let title = match sec {
            Section::Product => " Product Info ",
            Section::Id => " ID ",
            Section::Driver => " Version of System Component ",
        };
        out.push_str(&log_spacer(title));
        out.push('\n');
        if sec == Section::Driver {
            out.push_str(&format!("Driver version: {driver}\n"));
        }
        for (i, g) in cx.state.machine.gpus.iter().enumerate() {
            for (k, v) in rows(sec, i, g) {
                // rocm-smi separates with tabs: two after short labels, one after long ones.
                let tabs = if k.len() + 2 >= 14 { "\t" } else { "\t\t" };
                out.push_str(&format!("GPU[{i}]\t\t: {k}: {tabs}{v}\n"));
            }
        }
        out.push_str(&log_spacer(""));
        out.push('\n');
    }
    out.push_str(&log_spacer(" End of ROCm SMI Log "));
    out.push('\n');
    out
}

/// One GPU's fields in a section (the driver section has none per GPU).
fn rows(sec: Section, i: usize, g: &Gpu) -> Vec<(&'static str, String)> {
    let series = g
        .pci
        .text
        .trim_start_matches("Advanced Micro Devices, Inc. [AMD/ATI] ");
    let series = if g.slot_type == "OAM" {
        g.marketing_name.as_str()
    } else {
        series
    };
    let rev = format!("0x{}", g.pci.rev.clone().unwrap_or_else(|| "00".into()));
    let sku = if g.slot_type == "OAM" {
        "M3000100"
    } else {
        "D05011"
    };
    match sec {
        Section::Product => vec![
            ("Card Series", series.to_string()),
            ("Card Model", format!("0x{:04x}", g.chip_id)),
            (
                "Card Vendor",
                "Advanced Micro Devices, Inc. [AMD/ATI]".into(),
            ),
            ("Card SKU", sku.into()),
            ("Subsystem ID", g.subsystem_id.clone()),
            ("Device Rev", rev),
            ("Node ID", (i + 1).to_string()),
            ("GUID", g.kfd_id.to_string()),
            ("GFX Version", g.gfx.clone()),
        ],
        Section::Id => vec![
            ("Device Name", series.to_string()),
            ("Device ID", format!("0x{:04x}", g.chip_id)),
            ("Device Rev", rev),
            ("Subsystem ID", g.subsystem_id.clone()),
            ("GUID", g.kfd_id.to_string()),
        ],
        Section::Driver => vec![],
    }
}

/// `=` fill with the title at `left`, as rocm-smi's header lines.
fn spacer(width: usize, title: &str, left: usize) -> String {
    let mut s = "=".repeat(left);
    s.push(' ');
    s.push_str(title);
    s.push(' ');
    let n = s.chars().count();
    if n < width {
        s.push_str(&"=".repeat(width - n));
    }
    s
}

fn concise(cx: &Ctx) -> String {
    let gpus = &cx.state.machine.gpus;
    let first = &gpus[0].smi;
    let header: Vec<String> = [
        "Device",
        "Node",
        "IDs",
        "Temp",
        "Power",
        "Partitions",
        "SCLK",
        "MCLK",
        "Fan",
        "Perf",
        "PwrCap",
        "VRAM%",
        "GPU%",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let sub: Vec<String> = vec![
        String::new(),
        String::new(),
        "(DID,     GUID)".into(),
        format!("({})", first.temp_sensor),
        format!("({})", first.power_sensor),
        "(Mem, Compute, ID)".into(),
    ];
    let rows: Vec<Vec<String>> = gpus
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let s = &g.smi;
            vec![
                i.to_string(),
                (i + 1).to_string(),
                format!("0x{:04x},{:>8}", g.chip_id, g.kfd_id),
                s.temp.clone(),
                s.power.clone(),
                s.partitions.clone(),
                s.sclk.clone(),
                s.mclk.clone(),
                s.fan.clone(),
                s.perf.clone(),
                s.pwrcap.clone(),
                s.vram_pct.clone(),
                s.gpu_pct.clone(),
            ]
        })
        .collect();
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in rows.iter().chain(std::iter::once(&sub)) {
        for (i, c) in r.iter().enumerate() {
            widths[i] = widths[i].max(c.chars().count());
        }
    }
    let line = |cells: &[String]| -> String {
        let mut s = String::new();
        for (i, c) in cells.iter().enumerate() {
            if i + 1 == header.len() {
                s.push_str(c);
            } else {
                s.push_str(&pad(c, widths[i] + 2));
            }
        }
        s.trim_end().to_string()
    };
    let head = line(&header);
    let w = head.chars().count();
    let top = w + 5;
    let mut out = String::new();
    let title = "ROCm System Management Interface";
    out.push_str(&spacer(top, title, (top - title.len()) / 2));
    out.push('\n');
    out.push_str(&spacer(top, "Concise Info", (top - 12) / 2));
    out.push('\n');
    out.push_str(&head);
    out.push('\n');
    out.push_str(&line(&sub));
    out.push('\n');
    let bar = "=".repeat(w + 3);
    out.push_str(&bar);
    out.push('\n');
    for r in &rows {
        out.push_str(&line(r));
        out.push('\n');
    }
    out.push_str(&bar);
    out.push('\n');
    let end = "End of ROCm SMI Log";
    out.push_str(&spacer(w + 3, end, (w + 3 - end.len() - 2) / 2));
    out.push('\n');
    out
}
