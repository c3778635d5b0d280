//! `systemctl` for what the labs touch: `reboot`/`poweroff`, and (re)starting
//! systemd-modules-load (loads the modules files now) and systemd-udevd (reads the rules
//! afresh). Other units are reported as systemd does for a unit that is not there.

use super::super::Ctx;
use super::super::kernel;
use super::power;

const UNITS: &[&str] = &["systemd-modules-load", "systemd-udevd", "udev"];

fn unit_name(u: &str) -> String {
    if u.contains('.') {
        u.to_string()
    } else {
        format!("{u}.service")
    }
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let words: Vec<&String> = args
        .iter()
        .filter(|a| !matches!(a.as_str(), "--no-pager" | "-q" | "--quiet" | "--no-block"))
        .collect();
    if let Some(o) = words.iter().find(|a| a.starts_with('-')) {
        cx.eprintln(&format!("systemctl: unrecognized option '{o}'"));
        return 1;
    }
    let Some(verb) = words.first() else {
        cx.eprintln("systemctl: the lab machine has no unit list; name a verb (restart, reboot)");
        return 1;
    };
    let units: Vec<String> = words[1..].iter().map(|u| unit_name(u)).collect();
    match verb.as_str() {
        "reboot" => power::boot_or_refuse(cx, "Reboot"),
        "poweroff" => power::boot_or_refuse(cx, "PowerOff"),
        "daemon-reload" => {
            if !cx.caller.is_root() {
                cx.eprintln(
                    "Failed to reload daemon: Access denied\nSee system logs and 'systemctl status' for details.",
                );
                return 1;
            }
            0
        }
        v @ ("restart" | "start" | "try-restart" | "reload-or-restart") => {
            if units.is_empty() {
                cx.eprintln("Too few arguments.");
                return 1;
            }
            let verb = if v == "start" { "start" } else { "restart" };
            for u in &units {
                let base = u.trim_end_matches(".service");
                if !UNITS.contains(&base) {
                    cx.eprintln(&format!("Failed to {verb} {u}: Unit {u} not found."));
                    return 5;
                }
                if !cx.caller.is_root() {
                    cx.eprintln(&format!(
                        "Failed to {verb} {u}: Interactive authentication required.\nSee system logs and 'systemctl status {u}' for details."
                    ));
                    return 1;
                }
                match base {
                    "systemd-modules-load" => {
                        let root = cx.root;
                        kernel::modules_load(cx.state, root, "systemd-modules-load[1432]");
                    }
                    _ => {
                        // udevd reads every rules file when it starts.
                        cx.state.udev_rules = super::super::udev::load_rules(cx.root);
                    }
                }
            }
            0
        }
        "is-active" => {
            for u in &units {
                let base = u.trim_end_matches(".service");
                cx.println(if UNITS.contains(&base) {
                    "active"
                } else {
                    "inactive"
                });
            }
            if units
                .iter()
                .all(|u| UNITS.contains(&u.trim_end_matches(".service")))
            {
                0
            } else {
                3
            }
        }
        other => {
            cx.eprintln(&format!("Unknown command verb '{other}'."));
            1
        }
    }
}
