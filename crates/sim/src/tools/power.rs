//! `reboot`, `shutdown` and `poweroff` (systemd's, as on Ubuntu): as root they boot the machine
//! again from its configuration ([`kernel::boot`]), ending every login session; a lab machine
//! that is powered off comes straight back, as a cloud node does after a power cycle. Without
//! root, logind refuses with polkit's answer.

use super::super::Ctx;
use super::super::kernel;
use super::opts::{self, Error, Long, Short, Value};

/// What logind answers an unprivileged caller (no polkit agent on a remote shell).
const AUTH: &str = "Interactive authentication required.";

/// Whether reboot's command line is fine; `Ok(false)` after printing `--help`. `reboot ARG`
/// passes ARG to the firmware; it still reboots.
fn reboot_options(cx: &mut Ctx, tool: &str, args: &[String]) -> Result<bool, Error> {
    let mut p = opts::parser(args);
    while let Some(arg) = p.next()? {
        match arg {
            Short('f' | 'p' | 'n' | 'w' | 'd')
            | Long("force" | "poweroff" | "reboot" | "no-sync" | "no-wall" | "wtmp-only")
            | Long("no-wtmp")
            | Value(_) => {}
            Long("help") => {
                opts::no_value(&mut p, "help")?;
                cx.println(&format!("{tool} [OPTIONS...]\n"));
                let what = if tool == "poweroff" {
                    "Power off"
                } else {
                    "Reboot"
                };
                cx.println(&format!("{what} the system."));
                return Ok(false);
            }
            other => return Err(opts::unknown(other.unexpected(), &mut p)),
        }
    }
    Ok(true)
}

pub fn reboot(cx: &mut Ctx, tool: &str, args: &[String]) -> i32 {
    match reboot_options(cx, tool, args) {
        Ok(true) => {}
        Ok(false) => return 0,
        Err(e) => return bad_option(cx, tool, &e),
    }
    let method = if tool == "poweroff" {
        "PowerOff"
    } else {
        "Reboot"
    };
    boot_or_refuse(cx, method)
}

/// What shutdown is asked: `-c` cancels, else the time (the first operand; the rest is the
/// wall message). `None` after printing `--help`.
fn shutdown_options(
    cx: &mut Ctx,
    args: &[String],
) -> Result<Option<(bool, Option<String>)>, Error> {
    let mut p = opts::parser(args);
    let mut when: Option<String> = None;
    let mut cancel = false;
    while let Some(arg) = p.next()? {
        match arg {
            Short('r' | 'h' | 'H' | 'P' | 'k')
            | Long("reboot" | "halt" | "poweroff" | "no-wall") => {}
            Short('c') => cancel = true,
            Long("help") => {
                opts::no_value(&mut p, "help")?;
                cx.println("shutdown [OPTIONS...] [TIME] [WALL...]\n");
                cx.println("Shut down the system.");
                return Ok(None);
            }
            Value(t) => {
                when.get_or_insert(opts::text(t));
            }
            other => return Err(opts::unknown(other.unexpected(), &mut p)),
        }
    }
    Ok(Some((cancel, when)))
}

/// `shutdown [-r|-h|-P] [TIME] [WALL...]`, `shutdown -c`.
pub fn shutdown(cx: &mut Ctx, args: &[String]) -> i32 {
    let (cancel, when) = match shutdown_options(cx, args) {
        Ok(Some(x)) => x,
        Ok(None) => return 0,
        Err(e) => return bad_option(cx, "shutdown", &e),
    };
    if cancel {
        if !cx.caller.is_root() {
            cx.eprintln(&format!("Failed to cancel shutdown: {AUTH}"));
            return 1;
        }
        return 0;
    }
    let now = matches!(when.as_deref(), Some("now" | "+0" | "0"));
    if !cx.caller.is_root() {
        cx.eprintln(&format!(
            "Failed to call ScheduleShutdown in logind, no action will be taken: {AUTH}"
        ));
        return 1;
    }
    if !now {
        // A delayed shutdown would happen while the learner waits; the lab machine reboots at
        // once, after telling when the real one would have.
        let at = cx.state.now() + 60;
        let (y, mo, d, h, mi, s) = super::civil(at);
        cx.println(&format!(
            "Shutdown scheduled for {} {y}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02} UTC, use 'shutdown -c' to cancel.",
            super::weekday(at)
        ));
    }
    let root = cx.root;
    kernel::boot(cx.state, root);
    0
}

/// Boots again as root; an unprivileged caller gets logind's refusal.
pub fn boot_or_refuse(cx: &mut Ctx, method: &str) -> i32 {
    if !cx.caller.is_root() {
        cx.eprintln(&format!("Call to {method} failed: {AUTH}"));
        return 1;
    }
    let root = cx.root;
    kernel::boot(cx.state, root);
    0
}

/// getopt's complaint about the command line; systemd's tools add nothing to it.
fn bad_option(cx: &mut Ctx, tool: &str, e: &Error) -> i32 {
    cx.eprintln(&format!("{tool}: {}", opts::getopt_message(e)));
    1
}

#[cfg(test)]
mod tests {
    use super::super::testkit::Machine;

    #[test]
    fn option_forms_and_complaints() {
        let m = Machine::stage();
        let refused = "Call to Reboot failed: Interactive authentication required.";
        assert_eq!(m.learner("reboot -ff").complaint(), (refused, 1));
        assert!(
            m.learner("shutdown -rk -- now")
                .stderr
                .starts_with("Failed to call")
        );
        assert!(
            m.learner("poweroff --help")
                .stdout
                .contains("Power off the system.")
        );
        for (line, first) in [
            ("reboot -x", "reboot: invalid option -- 'x'"),
            (
                "reboot --bogus=1",
                "reboot: unrecognized option '--bogus=1'",
            ),
            (
                "shutdown --help=1",
                "shutdown: option '--help' doesn't allow an argument",
            ),
        ] {
            assert_eq!(m.learner(line).complaint(), (first, 1), "{line}");
        }
    }
}
