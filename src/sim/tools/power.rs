//! `reboot`, `shutdown` and `poweroff` (systemd's, as on Ubuntu): as root they boot the machine
//! again from its configuration ([`kernel::boot`]), ending every login session; a lab machine
//! that is powered off comes straight back, as a cloud node does after a power cycle. Without
//! root, logind refuses with polkit's answer.

use super::super::Ctx;
use super::super::kernel;

/// What logind answers an unprivileged caller (no polkit agent on a remote shell).
const AUTH: &str = "Interactive authentication required.";

pub fn reboot(cx: &mut Ctx, tool: &str, args: &[String]) -> i32 {
    for a in args {
        match a.as_str() {
            "-f" | "--force" | "-p" | "--poweroff" | "--reboot" | "-n" | "--no-sync"
            | "--no-wall" | "-w" | "--wtmp-only" | "-d" | "--no-wtmp" => {}
            "--help" => {
                cx.println(&format!("{tool} [OPTIONS...]\n"));
                cx.println(&format!(
                    "{} the system.",
                    if tool == "poweroff" {
                        "Power off"
                    } else {
                        "Reboot"
                    }
                ));
                return 0;
            }
            o if o.starts_with('-') => return bad_option(cx, tool, o),
            // `reboot ARG` passes ARG to the firmware; it still reboots.
            _ => {}
        }
    }
    let method = if tool == "poweroff" {
        "PowerOff"
    } else {
        "Reboot"
    };
    boot_or_refuse(cx, method)
}

/// `shutdown [-r|-h|-P] [TIME] [WALL...]`, `shutdown -c`.
pub fn shutdown(cx: &mut Ctx, args: &[String]) -> i32 {
    let mut when: Option<&str> = None;
    let mut cancel = false;
    for a in args {
        match a.as_str() {
            "-r" | "--reboot" | "-h" | "-H" | "--halt" | "-P" | "--poweroff" | "-k"
            | "--no-wall" => {}
            "-c" => cancel = true,
            "--help" => {
                cx.println("shutdown [OPTIONS...] [TIME] [WALL...]\n");
                cx.println("Shut down the system.");
                return 0;
            }
            o if o.starts_with('-') => return bad_option(cx, "shutdown", o),
            t if when.is_none() => when = Some(t),
            _ => {}
        }
    }
    if cancel {
        if !cx.caller.is_root() {
            cx.eprintln(&format!("Failed to cancel shutdown: {AUTH}"));
            return 1;
        }
        return 0;
    }
    let now = matches!(when, Some("now") | Some("+0") | Some("0"));
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

/// getopt's complaint about an option systemd's tools do not know.
fn bad_option(cx: &mut Ctx, tool: &str, o: &str) -> i32 {
    if o.starts_with("--") {
        cx.eprintln(&format!("{tool}: unrecognized option '{o}'"));
    } else {
        cx.eprintln(&format!(
            "{tool}: invalid option -- '{}'",
            o.chars().nth(1).unwrap_or('-')
        ));
    }
    1
}
