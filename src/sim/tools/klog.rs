//! `dmesg` and `journalctl` read the kernel log the boot and the module loads wrote
//! ([`kernel`]). Ubuntu restricts dmesg to root (`kernel.dmesg_restrict = 1`); the journal is
//! readable by the `adm` and `systemd-journal` groups.

use super::super::Ctx;
use super::super::kernel::{self, LogLine};
use super::{MONTHS, civil, weekday};

pub fn dmesg(cx: &mut Ctx, args: &[String]) -> i32 {
    let mut ctime = false;
    for a in super::split_short(args, "") {
        match a.as_str() {
            "-T" | "--ctime" => ctime = true,
            "-H" | "--human" | "-L" | "--color" | "-x" | "--decode" | "-k" | "--kernel" => {}
            "-h" | "--help" => {
                cx.println(
                    "Usage:\n dmesg [options]\n\nDisplay or control the kernel ring buffer.",
                );
                return 0;
            }
            o if o.starts_with("--") => {
                cx.eprintln(&format!("dmesg: unrecognized option '{o}'"));
                cx.eprintln("Try 'dmesg --help' for more information.");
                return 1;
            }
            o if o.starts_with('-') => {
                cx.eprintln(&format!("dmesg: invalid option -- '{}'", &o[1..]));
                cx.eprintln("Try 'dmesg --help' for more information.");
                return 1;
            }
            _ => {
                cx.eprintln("dmesg: bad usage");
                cx.eprintln("Try 'dmesg --help' for more information.");
                return 1;
            }
        }
    }
    if !cx.caller.is_root() {
        cx.eprintln("dmesg: read kernel buffer failed: Operation not permitted");
        return 1;
    }
    let boot = cx.state.boot_time;
    let lines: Vec<LogLine> = cx.state.boot.log.clone();
    for l in lines.iter().filter(|l| l.src.is_empty()) {
        if ctime {
            let t = boot + l.t as i64;
            let (y, mo, d, h, mi, s) = civil(t);
            cx.println(&format!(
                "[{} {} {d:>2} {h:02}:{mi:02}:{s:02} {y}] {}",
                weekday(t),
                MONTHS[mo as usize - 1],
                l.msg
            ));
        } else {
            cx.println(&format!("{}{}", kernel::dmesg_stamp(l.t), l.msg));
        }
    }
    0
}

pub fn journalctl(cx: &mut Ctx, args: &[String]) -> i32 {
    let args = super::split_short(args, "ubn");
    let mut kernel_only = false;
    let mut unit: Option<String> = None;
    let mut quiet = false;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "-k" | "--dmesg" => kernel_only = true,
            "-b" | "--boot" | "--no-pager" | "-e" | "--pager-end" | "-x" | "--catalog"
            | "--no-hostname" => {}
            "-q" | "--quiet" => quiet = true,
            "-u" | "--unit" => {
                i += 1;
                let Some(u) = args.get(i) else {
                    cx.eprintln("journalctl: option requires an argument -- 'u'");
                    return 1;
                };
                unit = Some(u.trim_end_matches(".service").to_string());
            }
            "-n" | "--lines" => i += 1,
            o if o.starts_with("--unit=") => {
                unit = Some(
                    o["--unit=".len()..]
                        .trim_end_matches(".service")
                        .to_string(),
                )
            }
            o if o.starts_with("--") => {
                cx.eprintln(&format!("journalctl: unrecognized option '{o}'"));
                return 1;
            }
            o if o.starts_with('-') => {
                cx.eprintln(&format!("journalctl: invalid option -- '{}'", &o[1..]));
                return 1;
            }
            // A boot id after -b (`-b 0`, `-b -1`) or a match: the current boot is all there is.
            _ => {}
        }
        i += 1;
    }
    let gids = cx.gids();
    let groups = super::super::accounts::Groups::load(cx.root);
    let reader = cx.caller.is_root()
        || ["adm", "systemd-journal"]
            .iter()
            .filter_map(|g| groups.by_name(g))
            .any(|g| gids.contains(&g.gid));
    if !reader {
        if !quiet {
            cx.println("Hint: You are currently not seeing messages from other users and the system.\n      Users in groups 'adm', 'systemd-journal' can see all messages.\n      Pass -q to turn off this notice.");
        }
        cx.println("-- No entries --");
        return 0;
    }
    let host = cx.state.machine.hostname.clone();
    let boot = cx.state.boot_time;
    let lines: Vec<LogLine> = cx.state.boot.log.clone();
    let mut shown = 0;
    for l in &lines {
        let ident = if l.src.is_empty() { "kernel" } else { &l.src };
        let keep = match (&unit, kernel_only) {
            (Some(u), _) => ident.split('[').next() == Some(u.as_str()),
            (None, true) => l.src.is_empty(),
            (None, false) => true,
        };
        if !keep {
            continue;
        }
        let t = boot + l.t as i64;
        let (_, mo, d, h, mi, s) = civil(t);
        cx.println(&format!(
            "{} {d:02} {h:02}:{mi:02}:{s:02} {host} {ident}: {}",
            MONTHS[mo as usize - 1],
            l.msg
        ));
        shown += 1;
    }
    if shown == 0 {
        cx.println("-- No entries --");
    }
    0
}
