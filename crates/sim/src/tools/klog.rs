//! `dmesg` and `journalctl` read the kernel log the boot and the module loads wrote
//! ([`kernel`]). Ubuntu restricts dmesg to root (`kernel.dmesg_restrict = 1`); the journal is
//! readable by the `adm` and `systemd-journal` groups.

use super::super::Ctx;
use super::super::kernel::{self, LogLine};
use super::opts::{self, Error, Long, Short, Value};
use super::{MONTHS, civil, weekday};

enum Dmesg {
    Help,
    /// Print the log; `-T` dates the lines.
    Print {
        ctime: bool,
    },
}

/// Reads dmesg's options as util-linux's getopt_long does; dmesg takes no operand, which is
/// noticed once every option is read.
fn dmesg_options(args: &[String]) -> Result<Dmesg, Error> {
    let mut p = opts::parser(args);
    let mut ctime = false;
    let mut operand = false;
    while let Some(arg) = p.next()? {
        match arg {
            Short('T') | Long("ctime") => ctime = true,
            Short('H' | 'x' | 'k') | Long("human" | "decode" | "kernel") => {}
            // `--color[=WHEN]`: the value only attached.
            Short('L') | Long("color") => {
                p.optional_value();
            }
            Short('h') => return Ok(Dmesg::Help),
            Long("help") => {
                opts::no_value(&mut p, "help")?;
                return Ok(Dmesg::Help);
            }
            Value(_) => operand = true,
            other => return Err(opts::unknown(other.unexpected(), &mut p)),
        }
    }
    if operand {
        return Err(Error::from("bad usage"));
    }
    Ok(Dmesg::Print { ctime })
}

pub fn dmesg(cx: &mut Ctx, args: &[String]) -> i32 {
    let ctime = match dmesg_options(args) {
        Ok(Dmesg::Print { ctime }) => ctime,
        Ok(Dmesg::Help) => {
            cx.println("Usage:\n dmesg [options]\n\nDisplay or control the kernel ring buffer.");
            return 0;
        }
        Err(e) => return opts::try_help(cx, "dmesg", &opts::getopt_message(&e)),
    };
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

/// What journalctl is asked to show.
#[derive(Debug, Default)]
struct Journal {
    kernel_only: bool,
    unit: Option<String>,
    quiet: bool,
    /// `-b [N]`: 0 (or none) the current boot, -1 the one before, 1 the oldest kept.
    boot: i64,
}

/// Reads journalctl's options as systemd's getopt_long does. `-b` and `-n` take an optional
/// value that may also be the next word when it reads as one (`-b -1`, `-n 20`); matches and
/// boot ids do not narrow anything.
fn journal_options(args: &[String]) -> Result<Journal, Error> {
    let mut p = opts::parser(args);
    let mut j = Journal::default();
    while let Some(arg) = p.next()? {
        match arg {
            Short('k') | Long("dmesg") => j.kernel_only = true,
            Short('b') | Long("boot") => {
                let v = match p.optional_value() {
                    Some(v) => v.to_str().and_then(|v| v.parse().ok()),
                    None => next_if_number(&mut p)?,
                };
                j.boot = v.unwrap_or(0);
            }
            Short('n') | Long("lines") => {
                if p.optional_value().is_none() {
                    next_if_number(&mut p)?;
                }
            }
            Short('e' | 'x') | Long("no-pager" | "pager-end" | "catalog" | "no-hostname") => {}
            Short('q') | Long("quiet") => j.quiet = true,
            Short('u') | Long("unit") => {
                let u = opts::value(&mut p)?;
                j.unit = Some(u.trim_end_matches(".service").to_string());
            }
            Value(_) => {}
            other => return Err(opts::unknown(other.unexpected(), &mut p)),
        }
    }
    Ok(j)
}

/// Takes the next word when it is a number (a boot offset, a line count).
fn next_if_number(p: &mut opts::Parser) -> Result<Option<i64>, Error> {
    let mut raw = p.raw_args()?;
    Ok(raw
        .next_if(|w| w.to_str().is_some_and(|w| w.parse::<i64>().is_ok()))
        .and_then(|w| w.to_str().and_then(|w| w.parse().ok())))
}

pub fn journalctl(cx: &mut Ctx, args: &[String]) -> i32 {
    let Journal {
        kernel_only,
        unit,
        quiet,
        boot: offset,
    } = match journal_options(args) {
        Ok(j) => j,
        Err(e) => {
            cx.eprintln(&format!("journalctl: {}", opts::getopt_message(&e)));
            return 1;
        }
    };
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
    // The journal keeps this boot and, after a reboot, the one before it.
    let previous = cx.state.boot.previous.clone();
    let current = (cx.state.boot_time, cx.state.boot.log.clone());
    let kept = usize::from(previous.is_some()) + 1;
    let chosen = match (offset, previous) {
        (0, _) => Some(current),
        (-1, Some(p)) => Some(p),
        (1, Some(p)) => Some(p),
        (n, _) if n > 0 && n as usize == kept => Some(current),
        _ => None,
    };
    let Some((boot, lines)) = chosen else {
        cx.eprintln(&format!(
            "Data from the specified boot ({offset:+}) is not available: No such boot ID in journal"
        ));
        return 1;
    };
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

#[cfg(test)]
mod tests {
    use super::super::testkit::Machine;

    #[test]
    fn dmesg_options() {
        let m = Machine::stage();
        let plain = m.root_runs("dmesg").stdout;
        assert_eq!(m.root_runs("dmesg -Hx --color=always").stdout, plain);
        assert!(m.root_runs("dmesg -kT").stdout.starts_with("[Tue Nov  5"));
        for (line, first) in [
            ("dmesg -z", "dmesg: invalid option -- 'z'"),
            (
                "dmesg --ctime=1",
                "dmesg: option '--ctime' doesn't allow an argument",
            ),
            ("dmesg -T foo", "dmesg: bad usage"),
        ] {
            assert_eq!(m.root_runs(line).complaint(), (first, 1), "{line}");
        }
    }

    #[test]
    fn journalctl_options() {
        let m = Machine::stage();
        let all = m.root_runs("journalctl").stdout;
        // The stage's first boot is all the journal has; a reboot keeps it as -1.
        assert_eq!(
            m.root_runs("journalctl -b -1").complaint(),
            (
                "Data from the specified boot (-1) is not available: No such boot ID in journal",
                1
            )
        );
        m.root_runs("reboot");
        let before = m.root_runs("journalctl -b -1").stdout;
        assert!(before.starts_with(all.lines().next().unwrap()), "{before}");
        assert!(
            before
                .trim_end()
                .ends_with("kernel: reboot: Restarting system"),
            "{before}"
        );
        assert_ne!(m.root_runs("journalctl").stdout, before);
        assert_eq!(m.root_runs("journalctl --boot=-1").stdout, before);
        let all = m.root_runs("journalctl").stdout;
        for line in [
            "journalctl -b",
            "journalctl -b0 -n 5",
            "journalctl --lines=5 -xe",
        ] {
            assert_eq!(m.root_runs(line).stdout, all, "{line}");
        }
        let unit = m.root_runs("journalctl -u systemd-modules-load").stdout;
        assert_eq!(
            m.root_runs("journalctl --unit=systemd-modules-load.service")
                .stdout,
            unit
        );
        for (line, first) in [
            (
                "journalctl -u",
                "journalctl: option requires an argument -- 'u'",
            ),
            (
                "journalctl --unit",
                "journalctl: option '--unit' requires an argument",
            ),
            ("journalctl -kz", "journalctl: invalid option -- 'z'"),
        ] {
            assert_eq!(m.root_runs(line).complaint(), (first, 1), "{line}");
        }
    }
}
