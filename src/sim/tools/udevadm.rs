//! `udevadm control --reload-rules` (loads the rule files) and `udevadm trigger` (sends an
//! event, "change" unless `--action=add`, to the devices its filters select; udevd reads rule
//! files that changed since the last event before handling it, as the real daemon does).

use super::super::Ctx;
use super::super::udev::{self, Action};

const HELP: &str = "udevadm [--help] [--version] [--debug] COMMAND [COMMAND OPTIONS]

Send control commands or test the device manager.

Commands:
  info          Query sysfs or the udev database
  trigger       Request events from the kernel
  settle        Wait for pending udev events
  control       Control the udev daemon
  monitor       Listen to kernel and udev events
  test          Test an event run
  test-builtin  Test a built-in command
  verify        Verify udev rules files
  wait          Wait for device or device symlink
  lock          Lock a block device

See the udevadm(8) man page for details.
";

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let Some(cmd) = args.first() else {
        cx.eprintln("udevadm: missing or unknown command");
        return 2;
    };
    let rest = &args[1..];
    match cmd.as_str() {
        "-h" | "--help" => {
            cx.print(HELP);
            0
        }
        "--version" | "-V" => {
            let v = if cx.state.machine.os.codename == "noble" {
                "255"
            } else {
                "249"
            };
            cx.println(v);
            0
        }
        "control" => control(cx, rest),
        "trigger" => trigger(cx, rest),
        "settle" => 0,
        "info" | "monitor" | "test" | "test-builtin" | "verify" | "wait" | "lock" => {
            cx.eprintln(&format!(
                "udevadm {cmd}: not available on the simulated machine"
            ));
            1
        }
        other => {
            cx.eprintln(&format!("Unknown command verb '{other}'."));
            1
        }
    }
}

fn control(cx: &mut Ctx, args: &[String]) -> i32 {
    if args.is_empty() {
        cx.eprintln("No control command option is specified.");
        return 1;
    }
    let mut reload = false;
    for a in args {
        match a.as_str() {
            "-R" | "--reload" | "--reload-rules" => reload = true,
            "-s" | "--stop-exec-queue" | "-S" | "--start-exec-queue" | "--ping" => {}
            o => {
                cx.eprintln(&format!("udevadm control: unrecognized option '{o}'"));
                return 1;
            }
        }
    }
    if !cx.caller.is_root() {
        cx.eprintln("Failed to send reload request: Permission denied");
        return 1;
    }
    if reload {
        cx.state.udev_rules = udev::load_rules(cx.root);
    }
    0
}

/// Options of `udevadm trigger` that take a value, long and short.
const TRIGGER_VALUED: &[(&str, &str)] = &[
    ("--action", "-c"),
    ("--subsystem-match", "-s"),
    ("--subsystem-nomatch", "-S"),
    ("--attr-match", "-a"),
    ("--attr-nomatch", "-A"),
    ("--property-match", "-p"),
    ("--tag-match", "-g"),
    ("--sysname-match", "-y"),
    ("--name-match", ""),
    ("--parent-match", "-b"),
    ("--type", "-t"),
    ("--prioritized-subsystem", ""),
];

/// Which devices a trigger sends events to: every filter given must match.
#[derive(Default)]
struct Filter {
    subsystems: Vec<String>,
    not_subsystems: Vec<String>,
    sysnames: Vec<String>,
    names: Vec<String>,
}

impl Filter {
    fn matches(&self, d: &super::super::state::DevNode) -> bool {
        let any = |pats: &[String], v: &str| pats.iter().any(|p| udev::glob(p, v));
        (self.subsystems.is_empty() || any(&self.subsystems, &d.subsystem))
            && !any(&self.not_subsystems, &d.subsystem)
            && (self.sysnames.is_empty() || any(&self.sysnames, &d.kernel))
            && (self.names.is_empty()
                || self.names.iter().any(|n| {
                    let full = if n.starts_with("/dev/") {
                        n.clone()
                    } else {
                        format!("/dev/{n}")
                    };
                    full == d.path
                }))
    }
}

fn trigger(cx: &mut Ctx, args: &[String]) -> i32 {
    let mut action = Action::Change;
    let mut filter = Filter::default();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        // `--opt=value`, `--opt value`, `-s value`, `-svalue`.
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) if a.starts_with("--") => (n, Some(v.to_string())),
            _ => (a, None),
        };
        let valued = TRIGGER_VALUED.iter().find(|(long, short)| {
            name == *long
                || (!short.is_empty()
                    && (name == *short
                        || name.starts_with(short) && name.len() > 2 && !name.starts_with("--")))
        });
        if let Some((long, short)) = valued {
            let value = match inline {
                Some(v) => v,
                None if name.len() > 2 && !name.starts_with("--") => {
                    name[short.len()..].to_string()
                }
                None => match args.get(i) {
                    Some(v) => {
                        i += 1;
                        v.clone()
                    }
                    None => {
                        cx.eprintln(&format!(
                            "udevadm trigger: option '{long}' requires an argument"
                        ));
                        return 1;
                    }
                },
            };
            match *long {
                "--action" => match value.as_str() {
                    "add" => action = Action::Add,
                    "change" => action = Action::Change,
                    _ => {
                        cx.eprintln(&format!("Unknown action '{value}'"));
                        return 1;
                    }
                },
                "--subsystem-match" => filter.subsystems.push(value),
                "--subsystem-nomatch" => filter.not_subsystems.push(value),
                "--sysname-match" => filter.sysnames.push(value),
                "--name-match" => filter.names.push(value),
                _ => {}
            }
            continue;
        }
        match a {
            "-v" | "--verbose" | "-w" | "--settle" | "-n" | "--dry-run" | "-q" | "--quiet"
            | "--wait-daemon" | "--uuid" => {}
            o if o.starts_with("--") => {
                cx.eprintln(&format!("udevadm trigger: unrecognized option '{o}'"));
                return 1;
            }
            o if o.starts_with('-') => {
                cx.eprintln(&format!("udevadm trigger: invalid option -- '{}'", &o[1..]));
                return 1;
            }
            // A device path or name: the event goes to that device.
            o => filter.names.push(
                o.trim_start_matches("/sys/class/drm/")
                    .trim_start_matches("/sys/devices/virtual/kfd/")
                    .trim_end_matches("/uevent")
                    .to_string(),
            ),
        }
    }
    let act = match action {
        Action::Add => "add",
        Action::Change => "change",
    };
    if !cx.caller.is_root() {
        let paths: Vec<String> = cx
            .state
            .devices
            .iter()
            .filter(|d| filter.matches(d))
            .map(|d| match d.subsystem.as_str() {
                "kfd" => "/sys/devices/virtual/kfd/kfd/uevent".to_string(),
                _ => format!("/sys/class/drm/{}/uevent", d.kernel),
            })
            .collect();
        for p in paths {
            cx.eprintln(&format!(
                "Failed to write '{act}' to '{p}': Permission denied"
            ));
        }
        return 1;
    }
    // udevd notices changed rule files on the next event and reads them again, with or
    // without `udevadm control --reload`.
    let root = cx.root;
    cx.state.udev_rules = udev::load_rules(root);
    let rules = cx.state.udev_rules.clone();
    for d in cx.state.devices.iter_mut().filter(|d| filter.matches(d)) {
        udev::apply(root, &rules, d, action);
    }
    0
}
