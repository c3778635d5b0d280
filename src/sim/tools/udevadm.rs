//! `udevadm control --reload-rules` (loads the rule files) and `udevadm trigger` (applies the
//! loaded rules to the existing device nodes, action "change" unless `--action=add`).

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

fn trigger(cx: &mut Ctx, args: &[String]) -> i32 {
    let mut action = Action::Change;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let value = |v: &str| match v {
            "add" => Some(Action::Add),
            "change" => Some(Action::Change),
            _ => None,
        };
        if let Some(v) = a.strip_prefix("--action=") {
            match value(v) {
                Some(x) => action = x,
                None => {
                    cx.eprintln(&format!("Unknown action '{v}'"));
                    return 1;
                }
            }
        } else if a == "-c" || a == "--action" {
            match it.next().and_then(|v| value(v)) {
                Some(x) => action = x,
                None => {
                    cx.eprintln("Unknown action ''");
                    return 1;
                }
            }
        } else if a == "-v"
            || a == "--verbose"
            || a == "-w"
            || a == "--settle"
            || a == "-n"
            || a == "--dry-run"
        {
        } else if let Some(o) = a.strip_prefix("--") {
            if !(o.starts_with("subsystem-match=")
                || o.starts_with("type=")
                || o.starts_with("sysname-match="))
            {
                cx.eprintln(&format!("udevadm trigger: unrecognized option '{a}'"));
                return 1;
            }
        } else if a == "-s" || a == "-t" || a == "-y" {
            it.next();
        } else if let Some(o) = a.strip_prefix('-') {
            cx.eprintln(&format!("udevadm trigger: invalid option -- '{o}'"));
            return 1;
        }
    }
    if !cx.caller.is_root() {
        let paths: Vec<String> = cx
            .state
            .devices
            .iter()
            .map(|d| match d.subsystem.as_str() {
                "kfd" => "/sys/devices/virtual/kfd/kfd/uevent".to_string(),
                _ => format!("/sys/class/drm/{}/uevent", d.kernel),
            })
            .collect();
        for p in paths {
            cx.eprintln(&format!(
                "Failed to write 'change' to '{p}': Permission denied"
            ));
        }
        return 1;
    }
    let rules = cx.state.udev_rules.clone();
    let root = cx.root;
    for d in &mut cx.state.devices {
        udev::apply(root, &rules, d, action);
    }
    0
}
